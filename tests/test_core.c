/* Core: status strings, allocator resolution, transforms (compose, inverse, relative pose, validation). */
#include <string.h>

#include "core/core_internal.h"
#include "proxima/proxima.h"
#include "support/rng.h"
#include "test.h"

static int status_strings(void)
{
    PX_CHECK(strcmp(px_status_string(PX_OK), "ok") == 0);
    const px_status all[] = { PX_WARN_MAX_ITERATIONS, PX_WARN_DEGENERATE,    PX_WARN_CAPACITY,
                              PX_ERR_INVALID_ARGUMENT, PX_ERR_NON_FINITE,    PX_ERR_DEGENERATE_INPUT,
                              PX_ERR_OUT_OF_MEMORY,    PX_ERR_PARSE,         PX_ERR_IO,
                              PX_ERR_UNSUPPORTED,      PX_ERR_OUT_OF_RANGE };
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); ++i)
    {
        const char* s = px_status_string(all[i]);
        PX_CHECK(s != NULL && strlen(s) > 4);
        PX_CHECK(strcmp(s, "unknown status") != 0);
        PX_CHECK((all[i] > 0) == PX_SUCCEEDED(all[i]));
    }
    PX_CHECK(strcmp(px_status_string((px_status)12345), "unknown status") == 0);
    return 0;
}

static void* counting_alloc(size_t size, size_t alignment, void* user)
{
    (*(int*)user)++;
    return aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

static void counting_free(void* p, size_t size, void* user)
{
    (void)size;
    (*(int*)user)--;
    free(p);
}

static int allocator_resolution(void)
{
    px_allocator out;
    PX_CHECK_STATUS(pxi_allocator_resolve(NULL, &out), PX_OK);
    void* p = pxi_alloc(&out, 100);
    PX_CHECK(p != NULL && ((uintptr_t)p % PXI_ALLOC_ALIGNMENT) == 0);
    pxi_free(&out, p, 100);
    PX_CHECK(pxi_alloc(&out, 0) == NULL);

    int live = 0;
    px_allocator mine = { counting_alloc, counting_free, &live };
    PX_CHECK_STATUS(pxi_allocator_resolve(&mine, &out), PX_OK);
    p = pxi_alloc(&out, 40);
    PX_CHECK(live == 1);
    pxi_free(&out, p, 40);
    PX_CHECK(live == 0);

    px_allocator half = { counting_alloc, NULL, NULL };
    PX_CHECK_STATUS(pxi_allocator_resolve(&half, &out), PX_ERR_INVALID_ARGUMENT);
    half.alloc = NULL;
    half.free = counting_free;
    PX_CHECK_STATUS(pxi_allocator_resolve(&half, &out), PX_ERR_INVALID_ARGUMENT);
    return 0;
}

static void random_transform(px_rng* r, double offset, px_transform* t)
{
    double q[4];
    px_rng_quat(r, q);
    for (int i = 0; i < 4; ++i)
    {
        t->q[i] = (float)q[i];
    }
    for (int i = 0; i < 3; ++i)
    {
        t->p[i] = (float)(offset + px_rng_range(r, -10.0, 10.0));
    }
}

static int transform_algebra(void)
{
    px_rng r = px_rng_seeded(1001);
    for (int k = 0; k < 1000; ++k)
    {
        px_transform a, b, ab, inv, rel, chk;
        random_transform(&r, 0.0, &a);
        random_transform(&r, 0.0, &b);
        vec3 x = { (float)px_rng_range(&r, -5, 5), (float)px_rng_range(&r, -5, 5), (float)px_rng_range(&r, -5, 5) };
        vec3 y1, y2, t;
        /* (a * b)(x) == a(b(x)) */
        px_transform_mul(&a, &b, &ab);
        px_transform_point(&ab, x, y1);
        px_transform_point(&b, x, t);
        px_transform_point(&a, t, y2);
        PX_CHECK_NEAR3(y1, y2, 2e-5);
        /* inverse undoes */
        px_transform_inverse(&a, &inv);
        px_transform_point(&a, x, t);
        px_transform_point(&inv, t, y1);
        PX_CHECK_NEAR3(y1, x, 2e-5);
        px_transform_point_inverse(&a, t, y2);
        PX_CHECK_NEAR3(y2, x, 2e-5);
        /* inv_mul(a, b) == inverse(a) * b */
        px_transform_inv_mul(&a, &b, &rel);
        px_transform_mul(&inv, &b, &chk);
        px_transform_point(&rel, x, y1);
        px_transform_point(&chk, x, y2);
        PX_CHECK_NEAR3(y1, y2, 5e-5);
        /* vectors ignore translation and keep length */
        px_transform_vector(&a, x, y1);
        PX_CHECK_NEAR(sqrtf(y1[0] * y1[0] + y1[1] * y1[1] + y1[2] * y1[2]),
                      sqrtf(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]), 1e-5);
        px_transform_vector_inverse(&a, y1, y2);
        PX_CHECK_NEAR3(y2, x, 2e-5);
    }
    return 0;
}

static int relative_pose_at_large_offsets(void)
{
    /* The relative pose must not lose more than the one rounding of the translations: two poses near
     * 1e6 whose difference is exactly representable give an exact relative translation. */
    px_transform a = PX_TRANSFORM_IDENTITY_INIT, b = PX_TRANSFORM_IDENTITY_INIT, rel;
    a.p[0] = 1.0e6f;
    b.p[0] = 1.0e6f + 0.5f;
    b.p[1] = 0.25f;
    px_transform_inv_mul(&a, &b, &rel);
    PX_CHECK(rel.p[0] == 0.5f && rel.p[1] == 0.25f && rel.p[2] == 0.0f);
    return 0;
}

static int transform_validation(void)
{
    px_transform t = PX_TRANSFORM_IDENTITY_INIT, n;
    PX_CHECK_STATUS(px_transform_validate(&t), PX_OK);
    PX_CHECK_STATUS(px_transform_validate(NULL), PX_ERR_INVALID_ARGUMENT);
    t.p[1] = NAN;
    PX_CHECK_STATUS(px_transform_validate(&t), PX_ERR_NON_FINITE);
    t.p[1] = 0.0f;
    t.q[2] = INFINITY;
    PX_CHECK_STATUS(px_transform_validate(&t), PX_ERR_NON_FINITE);
    t.q[0] = t.q[1] = t.q[2] = t.q[3] = 0.0f;
    PX_CHECK_STATUS(px_transform_validate(&t), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_transform_normalized(&t, &n), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(n.q[3] == 1.0f);
    /* a drifted quaternion is rescaled; a unit one is kept bit for bit */
    t.q[3] = 2.0f;
    PX_CHECK_STATUS(px_transform_normalized(&t, &n), PX_OK);
    PX_CHECK_NEAR(n.q[3], 1.0f, 1e-7);
    px_transform u = PX_TRANSFORM_IDENTITY_INIT;
    PX_CHECK_STATUS(px_transform_normalized(&u, &n), PX_OK);
    PX_CHECK(memcmp(&u, &n, sizeof(u)) == 0);
    return 0;
}

int test_core(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(status_strings);
    PX_RUN_SUBTEST(allocator_resolution);
    PX_RUN_SUBTEST(transform_algebra);
    PX_RUN_SUBTEST(relative_pose_at_large_offsets);
    PX_RUN_SUBTEST(transform_validation);
    PX_SUITE_END;
}
