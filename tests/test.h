/* Minimal test harness in Box2D's style: each tests/test_<suite>.c defines `int test_<suite>(void)` that
 * runs static subtests with PX_RUN_SUBTEST; checks return 1 from the subtest on failure after printing
 * the values involved. main.c runs every suite, or the one named on the command line (CTest runs each
 * suite as its own test). A suite returns PX_TEST_SKIP (77, CTest's SKIP_RETURN_CODE) after printing the
 * reason when a dependency (a peer library, the shared meshes) is absent. */
#pragma once

#include <math.h>
#include <stdio.h>

#define PX_TEST_SKIP 77

#define PX_CHECK(cond)                                                            \
    do                                                                            \
    {                                                                             \
        if (!(cond))                                                              \
        {                                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            return 1;                                                             \
        }                                                                         \
    } while (0)

/* |a - b| <= tol, printing both values (as %.9g and %a) on failure. NaN fails. */
#define PX_CHECK_NEAR(a, b, tol)                                                                        \
    do                                                                                                  \
    {                                                                                                   \
        double px_a_ = (double)(a), px_b_ = (double)(b), px_t_ = (double)(tol);                         \
        if (!(fabs(px_a_ - px_b_) <= px_t_))                                                            \
        {                                                                                               \
            fprintf(stderr, "%s:%d: check failed: |%s - %s| <= %s: %.9g vs %.9g (%a vs %a), diff %.3g\n", \
                    __FILE__, __LINE__, #a, #b, #tol, px_a_, px_b_, px_a_, px_b_, fabs(px_a_ - px_b_));  \
            return 1;                                                                                   \
        }                                                                                               \
    } while (0)

/* Vector version of PX_CHECK_NEAR (3 components). */
#define PX_CHECK_NEAR3(a, b, tol)              \
    do                                         \
    {                                          \
        PX_CHECK_NEAR((a)[0], (b)[0], (tol));  \
        PX_CHECK_NEAR((a)[1], (b)[1], (tol));  \
        PX_CHECK_NEAR((a)[2], (b)[2], (tol));  \
    } while (0)

/* Status equality with names on failure. */
#define PX_CHECK_STATUS(expr, expected)                                                             \
    do                                                                                              \
    {                                                                                               \
        px_status px_s_ = (expr);                                                                   \
        if (px_s_ != (expected))                                                                    \
        {                                                                                           \
            fprintf(stderr, "%s:%d: %s returned %d (%s), expected %s\n", __FILE__, __LINE__, #expr, \
                    (int)px_s_, px_status_string(px_s_), #expected);                                \
            return 1;                                                                               \
        }                                                                                           \
    } while (0)

#define PX_RUN_SUBTEST(fn)                                  \
    do                                                      \
    {                                                       \
        int px_r_ = fn();                                   \
        if (px_r_ == PX_TEST_SKIP)                          \
        {                                                   \
            printf("  %-44s skipped\n", #fn);               \
        }                                                   \
        else if (px_r_ != 0)                                \
        {                                                   \
            printf("  %-44s FAILED\n", #fn);                \
            px_failures_++;                                 \
        }                                                   \
        else                                                \
        {                                                   \
            printf("  %-44s ok\n", #fn);                    \
        }                                                   \
    } while (0)

/* Wrap a suite body: `PX_SUITE_BEGIN; PX_RUN_SUBTEST(a); ... PX_SUITE_END;` */
#define PX_SUITE_BEGIN int px_failures_ = 0
#define PX_SUITE_END return px_failures_ == 0 ? 0 : 1

/* Prototypes of every suite (from the generated list), so each test file's entry point is declared. */
#define PX_SUITE(name) int test_##name(void);
#include "suites.inc"
#undef PX_SUITE
