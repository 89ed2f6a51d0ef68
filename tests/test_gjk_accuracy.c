/* GJK distance accuracy against an independent, certified long-double oracle (tests/oracle/), over
 * random and adversarial hull pairs (KNOWN_FAILURES.md 4.2; DESIGN.md "How sound"):
 *
 *   |d - d*| <= 1e-5 S + 16 FLT_EPSILON C, no NaN, status PX_OK, <= 32 iterations (<= 64 vertices),
 *   unit normal, point_b = point_a + d normal, witnesses on their shapes, symmetry under swapping A and
 *   B, scale equivariance (s = 1e-3, 1e3), px_gjk_overlap agreeing with sign(d*) outside the band.
 *
 * S = largest extent of either shape, C = largest absolute world coordinate of the query. Samples whose
 * oracle certificate does not close are reported and skipped; more than a handful fail the suite.
 * Every failing case is printed as a C initializer with %a floats, ready to be frozen below as a
 * regression. PX_TEST_SEED replays another random stream; PX_GJK_SAMPLES sets the sample count;
 * PX_GJK_MINIMIZE=1 also prints each failing case with hull points greedily removed while it fails. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/hull_distance.h"
#include "proxima/proxima.h"
#include "support/pair_gen.h"
#include "support/rng.h"
#include "support/sanitize.h"
#include "test.h"

typedef long double ld;

#define PXT_REL_TOL 1.0e-5L           /* distance tolerance, relative to S */
#define PXT_ROUND_TOL (16.0L * FLT_EPSILON) /* times C */
#define PXT_MAX_ITER 32
#define PXT_MAX_PRINTED 12
#define PXT_MAX_UNCERTIFIED 5

/* ------------------------------------------------------------------------------------------------ */
/* Cases: pairs from the shared generator (support/pair_gen.h)                                      */

typedef pxt_pair_case gjk_case;

/* Target buckets, in units of S. */
static const double bucket_values[] = { 0.0, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 1.0, -1.0 };
#define PXT_BUCKETS ((int)(sizeof(bucket_values) / sizeof(bucket_values[0])))

/* ------------------------------------------------------------------------------------------------ */
/* Checks                                                                                            */

enum
{
    F_STATUS = 1 << 0,   /* status != PX_OK */
    F_NAN = 1 << 1,      /* non-finite output */
    F_ITER = 1 << 2,     /* more than 32 iterations */
    F_DIST = 1 << 3,     /* |d - d*| > tol (world query) */
    F_UNIT = 1 << 4,     /* normal not unit */
    F_GAP = 1 << 5,      /* point_b != point_a + d normal */
    F_ON_A = 1 << 6,     /* point_a off hull A */
    F_ON_B = 1 << 7,     /* point_b off hull B */
    F_NORMAL = 1 << 8,   /* normal far from the oracle normal */
    F_REL = 1 << 9,      /* relative-pose query (px_gjk_distance) wrong */
    F_SYM = 1 << 10,     /* swapped query disagrees */
    F_SCALE = 1 << 11,   /* not scale equivariant */
    F_OVERLAP = 1 << 12, /* px_gjk_overlap_world contradicts sign(d*) outside the band */
    F_COUNT_BITS = 13
};

static const char* const check_names[F_COUNT_BITS] = { "status",  "nan",    "iterations", "distance", "unit_normal",
                                                       "gap",     "on_a",   "on_b",       "normal",   "relative",
                                                       "symmetry", "scale", "overlap" };

typedef struct eval_out
{
    unsigned fails;
    int uncertified;
    int overlap_ambiguous; /* overlap=false with d* = 0 but depth not shown > tol */
    ld err;                /* |d - d*| of the world query */
    ld S, C, tol, dstar;
    int overlap_star;
    int iterations;
    px_gjk_exit exit;
} eval_out;

static int finite3(const vec3 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static int result_finite(const px_gjk_result* r)
{
    return isfinite(r->distance) && finite3(r->point_a) && finite3(r->point_b) && finite3(r->normal);
}

static ld len3l(const ld v[3])
{
    return sqrtl(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* Normal tolerance implied by the distance tolerance. If v in A - B has |v| <= d* + tol, then, v* being
 * the projection of the origin on the convex set, |v - v*|^2 <= |v|^2 - d*^2 <= 2 d* tol + tol^2, and
 * the directions differ by at most 2 |v - v*| / d*. GJK's duality-gap test bounds |v| - d*, not the
 * angle, so a correct distance within tol allows a normal this far off (plus float unit rounding). */
static ld normal_tol(ld tol, ld d)
{
    ld t = tol / d;
    return 1.0e-5L + 2.0L * sqrtl(2.0L * t + t * t);
}

static int flag_index(unsigned flag)
{
    int i = 0;
    while (i < F_COUNT_BITS - 1 && !(flag & (1u << i)))
    {
        ++i;
    }
    return i;
}

#define REPORT(flag, ...)                                                                                       \
    do                                                                                                          \
    {                                                                                                           \
        out->fails |= (flag);                                                                                   \
        if (verbose)                                                                                            \
        {                                                                                                       \
            printf("    [%s] ", check_names[flag_index(flag)]);                                                \
            printf(__VA_ARGS__);                                                                                \
            printf("\n");                                                                                       \
        }                                                                                                       \
    } while (0)

/* Common checks of one distance result, witnesses given in the oracle frame. */
static void check_witnesses(const pxt_oracle_view* o, ld tol, const ld pa[3], const ld pb[3], const ld n[3], ld d,
                            unsigned gap_flag, unsigned on_flag_a, unsigned on_flag_b, unsigned normal_flag,
                            int verbose, eval_out* out, const char* what)
{
    ld nl = len3l(n);
    if (!(fabsl(nl - 1.0L) <= 1.0e-5L))
    {
        REPORT(F_UNIT, "%s: |normal| = %.9Lg", what, nl);
    }
    ld g[3];
    for (int i = 0; i < 3; ++i)
    {
        g[i] = pb[i] - pa[i] - d * n[i];
    }
    if (!(len3l(g) <= tol))
    {
        REPORT(gap_flag, "%s: |point_b - point_a - d n| = %.6Lg > tol %.6Lg", what, len3l(g), tol);
    }
    int cert = 0;
    ld da = pxo_point_hull_distance(pa, o->wa, o->na, o->S, NULL, &cert);
    if (!(da <= tol))
    {
        REPORT(on_flag_a, "%s: point_a is %.6Lg from hull A (tol %.6Lg, certified %d)", what, da, tol, cert);
    }
    ld db = pxo_point_hull_distance(pb, o->wb, o->nb, o->S, NULL, &cert);
    if (!(db <= tol))
    {
        REPORT(on_flag_b, "%s: point_b is %.6Lg from hull B (tol %.6Lg, certified %d)", what, db, tol, cert);
    }
    if (normal_flag != 0 && !o->d.overlap)
    {
        ld e[3] = { n[0] - o->d.normal[0], n[1] - o->d.normal[1], n[2] - o->d.normal[2] };
        if (!(len3l(e) <= normal_tol(tol, o->d.distance)))
        {
            REPORT(normal_flag, "%s: |normal - oracle normal| = %.6Lg > %.6Lg (oracle n %.9Lg %.9Lg %.9Lg)", what,
                   len3l(e), normal_tol(tol, o->d.distance), o->d.normal[0], o->d.normal[1], o->d.normal[2]);
        }
    }
}

static void scale_case(const gjk_case* c, float s, gjk_case* dest)
{
    *dest = *c;
    for (int i = 0; i < 3; ++i)
    {
        dest->a.half[i] = c->a.half[i] * s;
        dest->b.half[i] = c->b.half[i] * s;
        dest->ta.p[i] = c->ta.p[i] * s;
        dest->tb.p[i] = c->tb.p[i] * s;
    }
    for (int i = 0; i < 3 * c->a.count; ++i)
    {
        dest->a.pts[i] = c->a.pts[i] * s;
    }
    for (int i = 0; i < 3 * c->b.count; ++i)
    {
        dest->b.pts[i] = c->b.pts[i] * s;
    }
}

static void check_basic(px_status st, const px_gjk_result* r, const char* what, int verbose, eval_out* out)
{
    if (st != PX_OK)
    {
        REPORT(F_STATUS, "%s: status %d (%s)", what, (int)st, px_status_string(st));
    }
    if (!result_finite(r))
    {
        REPORT(F_NAN, "%s: non-finite result d %a", what, (double)r->distance);
    }
    if (r->iterations > PXT_MAX_ITER)
    {
        REPORT(F_ITER, "%s: %d iterations (exit %d)", what, r->iterations, (int)r->exit);
    }
}

static void eval_case(const gjk_case* c, int verbose, eval_out* out)
{
    memset(out, 0, sizeof(*out));
    static pxt_oracle_view o; /* large; the suite is single-threaded */
    pxt_oracle_eval(c, &o);
    out->S = o.S;
    out->C = o.C;
    out->dstar = o.d.distance;
    out->overlap_star = o.d.overlap;
    if (!o.d.certified)
    {
        out->uncertified = 1;
        if (verbose)
        {
            printf("    oracle certificate open: U %.17Lg L %.17Lg S %.6Lg weights %d\n", o.d.upper, o.d.lower, o.S,
                   o.d.weights_ok);
        }
        return;
    }
    const ld S = o.S, tol = PXT_REL_TOL * S + PXT_ROUND_TOL * o.C, dstar = o.d.distance;
    out->tol = tol;
    const ld wit_min = PXT_REL_TOL * S; /* witnesses and normal are checked when d > 1e-5 S */
    px_shape sa, sb;
    pxt_make_shape(&c->a, &sa);
    pxt_make_shape(&c->b, &sb);
    if (verbose)
    {
        printf("    oracle: d* %.17Lg (%La) overlap %d, S %.6Lg C %.6Lg tol %.6Lg, U-L %.3Lg\n", dstar, dstar,
               o.d.overlap, S, o.C, tol, o.d.upper - o.d.lower);
    }

    /* world query */
    px_gjk_result r;
    px_status st = px_gjk_distance_world(&sa, &c->ta, &sb, &c->tb, NULL, &r);
    out->iterations = r.iterations;
    out->exit = r.exit;
    if (verbose)
    {
        printf("    world: status %d d %.9g (%a) iterations %d exit %d normal %a %a %a\n", (int)st, (double)r.distance,
               (double)r.distance, r.iterations, (int)r.exit, (double)r.normal[0], (double)r.normal[1],
               (double)r.normal[2]);
    }
    check_basic(st, &r, "world", verbose, out);
    const ld d = (ld)r.distance;
    out->err = fabsl(d - dstar);
    if (!(fabsl(d - dstar) <= tol))
    {
        REPORT(F_DIST, "world: d %.9Lg vs d* %.17Lg: error %.6Lg = %.3Lg S > tol %.6Lg", d, dstar, fabsl(d - dstar),
               fabsl(d - dstar) / S, tol);
    }
    if (d > wit_min && result_finite(&r))
    {
        ld pa[3], pb[3], n[3] = { r.normal[0], r.normal[1], r.normal[2] };
        pxt_world_to_oracle(&o, r.point_a, pa);
        pxt_world_to_oracle(&o, r.point_b, pb);
        check_witnesses(&o, tol, pa, pb, n, d, F_GAP, F_ON_A, F_ON_B, F_NORMAL, verbose, out, "world");
    }

    /* relative-pose query in A's frame */
    {
        px_transform na, rel;
        px_gjk_input in;
        px_gjk_result rr;
        if (px_transform_normalized(&c->ta, &na) == PX_OK)
        {
            px_transform_inv_mul(&na, &c->tb, &rel);
            in.a = &sa;
            in.b = &sb;
            in.b_in_a = rel;
            px_simplex_cache cache = PX_SIMPLEX_CACHE_INIT;
            px_status s2 = px_gjk_distance(&in, NULL, &cache, &rr);
            check_basic(s2, &rr, "relative", verbose, out);
            ld dr = (ld)rr.distance;
            if (!(fabsl(dr - dstar) <= tol))
            {
                REPORT(F_REL, "relative: d %.9Lg vs d* %.17Lg: error %.3Lg S", dr, dstar, fabsl(dr - dstar) / S);
            }
            if (dr > wit_min && result_finite(&rr))
            {
                ld pa[3], pb[3], n[3], t[3];
                for (int i = 0; i < 3; ++i)
                {
                    t[i] = rr.point_a[i];
                }
                pxo_rotate(c->ta.q, t, pa);
                for (int i = 0; i < 3; ++i)
                {
                    t[i] = rr.point_b[i];
                }
                pxo_rotate(c->ta.q, t, pb);
                for (int i = 0; i < 3; ++i)
                {
                    t[i] = rr.normal[i];
                }
                pxo_rotate(c->ta.q, t, n);
                check_witnesses(&o, tol, pa, pb, n, dr, F_REL, F_REL, F_REL, F_REL, verbose, out, "relative");
            }
            /* warm start on the same pair must give the same answer */
            px_status s3 = px_gjk_distance(&in, NULL, &cache, &rr);
            check_basic(s3, &rr, "relative-warm", verbose, out);
            if (!(fabsl((ld)rr.distance - dstar) <= tol))
            {
                REPORT(F_REL, "relative warm: d %.9g vs d* %.17Lg", (double)rr.distance, dstar);
            }
        }
    }

    /* symmetry */
    {
        px_gjk_result rs;
        px_status s2 = px_gjk_distance_world(&sb, &c->tb, &sa, &c->ta, NULL, &rs);
        check_basic(s2, &rs, "swapped", verbose, out);
        ld ds = (ld)rs.distance;
        if (!(fabsl(ds - d) <= tol))
        {
            REPORT(F_SYM, "swapped: d %.9Lg vs %.9Lg (d* %.17Lg)", ds, d, dstar);
        }
        if (!(fabsl(ds - dstar) <= tol))
        {
            REPORT(F_DIST, "swapped: d %.9Lg vs d* %.17Lg: error %.3Lg S", ds, dstar, fabsl(ds - dstar) / S);
        }
        if (ds > wit_min && d > wit_min && result_finite(&rs) && result_finite(&r))
        {
            ld e[3];
            for (int i = 0; i < 3; ++i)
            {
                e[i] = (ld)rs.normal[i] + (ld)r.normal[i];
            }
            ld lim = normal_tol(tol, ds < d ? ds : d);
            if (!(len3l(e) <= lim))
            {
                REPORT(F_SYM, "swapped: |n_ba + n_ab| = %.6Lg > %.6Lg", len3l(e), lim);
            }
            ld pa[3], pb[3], n[3] = { rs.normal[0], rs.normal[1], rs.normal[2] };
            pxt_world_to_oracle(&o, rs.point_a, pb); /* swapped: its A is our B */
            pxt_world_to_oracle(&o, rs.point_b, pa);
            ld nn[3] = { -n[0], -n[1], -n[2] };
            check_witnesses(&o, tol, pa, pb, nn, ds, F_SYM, F_SYM, F_SYM, F_SYM, verbose, out, "swapped");
        }
    }

    /* overlap query vs sign(d*) outside the band */
    {
        bool ov = false;
        px_status s2 = px_gjk_overlap_world(&sa, &c->ta, &sb, &c->tb, NULL, &ov);
        if (s2 != PX_OK)
        {
            REPORT(F_STATUS, "overlap: status %d (%s)", (int)s2, px_status_string(s2));
        }
        if (ov && !o.d.overlap && dstar > tol)
        {
            REPORT(F_OVERLAP, "overlap: true but d* = %.9Lg > tol %.6Lg", dstar, tol);
        }
        if (!ov && o.d.overlap)
        {
            ld lb = pxo_depth_lower_bound(o.wa, o.na, o.wb, o.nb, NULL, S, tol, 24);
            if (lb > tol)
            {
                REPORT(F_OVERLAP, "overlap: false but depth >= %.9Lg > tol %.6Lg", lb, tol);
            }
            else
            {
                out->overlap_ambiguous = 1;
            }
        }
    }

    /* scale equivariance */
    static const float scales[2] = { 1.0e-3f, 1.0e3f };
    for (int k = 0; k < 2; ++k)
    {
        static gjk_case cs;
        scale_case(c, scales[k], &cs);
        px_shape ssa, ssb;
        pxt_make_shape(&cs.a, &ssa);
        pxt_make_shape(&cs.b, &ssb);
        px_gjk_result rsc;
        px_status s2 = px_gjk_distance_world(&ssa, &cs.ta, &ssb, &cs.tb, NULL, &rsc);
        check_basic(s2, &rsc, k == 0 ? "scaled 1e-3" : "scaled 1e3", verbose, out);
        ld s = (ld)scales[k];
        ld tol_s = PXT_REL_TOL * S * s + PXT_ROUND_TOL * o.C * s;
        if (!(fabsl((ld)rsc.distance - s * d) <= tol_s))
        {
            REPORT(F_SCALE, "scaled by %g: d %.9g vs s d %.9Lg (tol %.6Lg; d* s %.9Lg)", (double)scales[k],
                   (double)rsc.distance, s * d, tol_s, s * dstar);
            if (verbose)
            {
                /* the oracle of the scaled (re-rounded) inputs tells which of the two results is off */
                static pxt_oracle_view os;
                pxt_oracle_eval(&cs, &os);
                printf("      oracle of the scaled inputs: d* %.9Lg (certified %d); scaled result error %.3Lg S_s\n",
                       os.d.distance, os.d.certified, fabsl((ld)rsc.distance - os.d.distance) / os.S);
            }
        }
    }
}


/* ------------------------------------------------------------------------------------------------ */
/* Minimizer: drop hull points while the same checks still fail                                      */

static void minimize_case(const gjk_case* c, unsigned fails)
{
    static gjk_case best, trial;
    best = *c;
    int changed = 1;
    while (changed)
    {
        changed = 0;
        pxt_shape_case* sides[2] = { &best.a, &best.b };
        for (int k = 0; k < 2; ++k)
        {
            if (sides[k]->box)
            {
                continue;
            }
            for (int i = 0; i < sides[k]->count && sides[k]->count > 1; ++i)
            {
                trial = best;
                pxt_shape_case* t = k == 0 ? &trial.a : &trial.b;
                memmove(t->pts + 3 * i, t->pts + 3 * i + 3, sizeof(float) * 3 * (size_t)(t->count - i - 1));
                t->count--;
                eval_out e;
                eval_case(&trial, 0, &e);
                if (!e.uncertified && (e.fails & fails) != 0)
                {
                    best = trial;
                    changed = 1;
                    --i;
                }
            }
        }
    }
    printf("  minimized (hull points %d and %d):\n", best.a.box ? 8 : best.a.count, best.b.box ? 8 : best.b.count);
    pxt_print_case(&best, "minimized");
    eval_out e;
    eval_case(&best, 1, &e);
}

/* ------------------------------------------------------------------------------------------------ */
/* Oracle self-checks against analytic answers                                                       */

static void box_points(const double c[3], const double h[3], ld* out)
{
    for (int i = 0; i < 8; ++i)
    {
        out[3 * i] = (ld)(c[0] + ((i & 1) ? h[0] : -h[0]));
        out[3 * i + 1] = (ld)(c[1] + ((i & 2) ? h[1] : -h[1]));
        out[3 * i + 2] = (ld)(c[2] + ((i & 4) ? h[2] : -h[2]));
    }
}

static int oracle_self_check(void)
{
    ld a[24], b[24];
    const double h[3] = { 1.0, 1.0, 1.0 };
    const double c0[3] = { 0, 0, 0 };
    /* face, edge and vertex separations of unit cubes, and overlap */
    const double cases[4][4] = { { 3.5, 0, 0, 1.5 }, { 3, 3, 0, 1.4142135623730951 }, { 3, 3, 3, 1.7320508075688772 },
                                 { 1.5, 0.5, 0.25, 0.0 } };
    for (int k = 0; k < 4; ++k)
    {
        box_points(c0, h, a);
        box_points(cases[k], h, b);
        pxo_distance r;
        pxo_hull_distance(a, 8, b, 8, 0.0L, &r);
        PX_CHECK(r.certified && r.weights_ok);
        PX_CHECK_NEAR((double)r.distance, cases[k][3], 1e-15);
        PX_CHECK(r.overlap == (cases[k][3] == 0.0));
        if (cases[k][3] == 0.0)
        {
            /* cubes overlapping by 0.5 on x: depth exactly 0.5 */
            ld lb = pxo_depth_lower_bound(a, 8, b, 8, NULL, 2.0L, 0.4L, 24);
            PX_CHECK(lb > 0.4L && lb <= 0.5L);
        }
    }
    /* point to box against the clamp formula */
    px_rng r = px_rng_seeded(7001);
    box_points(c0, h, a);
    for (int k = 0; k < 2000; ++k)
    {
        ld p[3], e2 = 0.0L;
        for (int i = 0; i < 3; ++i)
        {
            p[i] = (ld)px_rng_range(&r, -3.0, 3.0);
            ld e = fabsl(p[i]) > 1.0L ? fabsl(p[i]) - 1.0L : 0.0L;
            e2 += e * e;
        }
        int cert = 0;
        ld d = pxo_point_hull_distance(p, a, 8, 2.0L, NULL, &cert);
        PX_CHECK(cert);
        PX_CHECK_NEAR((double)d, (double)sqrtl(e2), 1e-15);
    }
    /* segment-segment skew lines: closest points at the interiors, distance 1 */
    ld s1[6] = { -1, 0, 0, 1, 0, 0 }, s2[6] = { 0, -1, 1, 0, 1, 1 };
    pxo_distance rs;
    pxo_hull_distance(s1, 2, s2, 2, 0.0L, &rs);
    PX_CHECK(rs.certified);
    PX_CHECK_NEAR((double)rs.distance, 1.0, 1e-18);
    /* duplicate points and a parallel face pair: tetra face above a triangle */
    ld t1[15] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 1, 0, 0 };
    ld t2[9] = { 0.1, 0.1, 0.25, 0.3, 0.1, 0.25, 0.1, 0.3, 0.25 };
    pxo_hull_distance(t1, 5, t2, 3, 0.0L, &rs);
    PX_CHECK(rs.certified);
    PX_CHECK_NEAR((double)rs.distance, 0.25, 1e-18);
    /* the certificate rejects a wrong answer: a simplex from a non-optimal pair has a gap */
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Random suite                                                                                      */

typedef struct family_stats
{
    long samples, uncertified, fails, targeted, overlapping, near_contact, ambiguous;
    long check_fails[F_COUNT_BITS];
    long iter_sum;
    int iter_max;
    ld max_err_s, max_err_tol;
} family_stats;

static long sample_count(void)
{
    const char* env = getenv("PX_GJK_SAMPLES");
    if (env != NULL && atol(env) > 0)
    {
        return atol(env);
    }
    return 100000; /* about 5 s in Release, 35 s under ASan + UBSan on 2 cores */
}

static int random_pairs(void)
{
    const long n = sample_count();
    const char* seed_env = getenv("PX_TEST_SEED");
    const int minimize = getenv("PX_GJK_MINIMIZE") != NULL;
    printf("  %ld samples%s, seed PX_TEST_SEED=%s\n", n, PXT_ASAN ? " (AddressSanitizer build)" : "",
           seed_env != NULL ? seed_env : "0");
    px_rng r = px_rng_seeded(0x6a6b5f616363ull);
    static family_stats st[PXT_K_COUNT];
    memset(st, 0, sizeof(st));
    long exits[8] = { 0 };
    long bucket_samples[PXT_BUCKETS + 1] = { 0 }, bucket_fails[PXT_BUCKETS + 1] = { 0 };
    long iter_hist[PX_GJK_MAX_ITERATIONS + 2] = { 0 };
    long printed = 0, failures = 0, uncertified = 0, targeted = 0, target_overlap = 0, near_target = 0;
    long near_achieved = 0;
    clock_t t0 = clock();
    static gjk_case c;
    for (long i = 0; i < n; ++i)
    {
        int family = (int)(i % PXT_K_COUNT);
        int bucket = px_rng_int(&r, 10) == 0 ? -1 : px_rng_int(&r, PXT_BUCKETS);
        pxt_gen_case(&r, family, bucket_values, bucket, &c);
        eval_out e;
        eval_case(&c, 0, &e);
        family_stats* fs = &st[family];
        fs->samples++;
        if (e.uncertified)
        {
            fs->uncertified++;
            uncertified++;
            if (uncertified <= PXT_MAX_PRINTED)
            {
                char name[48];
                snprintf(name, sizeof(name), "uncertified_%ld", i);
                printf("  sample %ld: oracle certificate did not close; skipped\n", i);
                pxt_print_case(&c, name);
                eval_case(&c, 1, &e);
            }
            continue;
        }
        fs->iter_sum += e.iterations;
        fs->iter_max = e.iterations > fs->iter_max ? e.iterations : fs->iter_max;
        int ib = e.iterations < 0 ? 0 : e.iterations;
        iter_hist[ib > PX_GJK_MAX_ITERATIONS ? PX_GJK_MAX_ITERATIONS + 1 : ib]++;
        exits[(int)e.exit & 7]++;
        ld es = e.err / e.S, et = e.err / e.tol;
        fs->max_err_s = es > fs->max_err_s ? es : fs->max_err_s;
        fs->max_err_tol = et > fs->max_err_tol ? et : fs->max_err_tol;
        fs->overlapping += e.overlap_star;
        fs->ambiguous += e.overlap_ambiguous;
        int near = e.overlap_star ? (c.bucket >= 0 && fabs(bucket_values[c.bucket]) <= 1e-6) : e.dstar <= 1e-6L * e.S;
        fs->near_contact += near;
        if (c.bucket >= 0)
        {
            fs->targeted++;
            targeted++;
            target_overlap += e.overlap_star;
            near_target += fabs(bucket_values[c.bucket]) <= 1e-6;
            near_achieved += near;
        }
        bucket_samples[c.bucket + 1]++;
        bucket_fails[c.bucket + 1] += e.fails != 0;
        if (e.fails != 0)
        {
            fs->fails++;
            failures++;
            for (int b = 0; b < F_COUNT_BITS; ++b)
            {
                fs->check_fails[b] += (e.fails >> b) & 1u;
            }
            if (printed < PXT_MAX_PRINTED)
            {
                ++printed;
                char name[48];
                snprintf(name, sizeof(name), "fail_%ld", i);
                printf("  sample %ld FAILED (bucket %g):\n", i, c.bucket >= 0 ? bucket_values[c.bucket] : NAN);
                pxt_print_case(&c, name);
                eval_case(&c, 1, &e);
                if (minimize)
                {
                    minimize_case(&c, e.fails);
                }
            }
        }
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    printf("  %-11s %7s %6s %6s %7s %7s %10s %10s %6s %4s  failed checks\n", "family", "samples", "uncert", "fails",
           "overlap", "near", "maxerr/S", "maxerr/tol", "iter", "max");
    long total_iter = 0, total_ok = 0;
    int iter_max = 0;
    for (int k = 0; k < PXT_K_COUNT; ++k)
    {
        family_stats* fs = &st[k];
        long ok = fs->samples - fs->uncertified;
        total_iter += fs->iter_sum;
        total_ok += ok;
        iter_max = fs->iter_max > iter_max ? fs->iter_max : iter_max;
        printf("  %-11s %7ld %6ld %6ld %7ld %7ld %10.3Le %10.3Le %6.2f %4d ", pxt_kind_names[k], fs->samples,
               fs->uncertified, fs->fails, fs->overlapping, fs->near_contact, fs->max_err_s, fs->max_err_tol,
               ok > 0 ? (double)fs->iter_sum / (double)ok : 0.0, fs->iter_max);
        for (int b = 0; b < F_COUNT_BITS; ++b)
        {
            if (fs->check_fails[b] > 0)
            {
                printf(" %s:%ld", check_names[b], fs->check_fails[b]);
            }
        }
        printf("\n");
    }
    printf("  iterations: mean %.2f, max %d; histogram:", total_ok > 0 ? (double)total_iter / (double)total_ok : 0.0,
           iter_max);
    for (int k = 0; k <= PX_GJK_MAX_ITERATIONS + 1; ++k)
    {
        if (iter_hist[k] > 0)
        {
            printf(" %d:%ld", k, iter_hist[k]);
        }
    }
    printf("\n  exits: overlap %ld converged %ld duplicate %ld no_progress %ld max_iterations %ld\n",
           exits[PX_GJK_EXIT_OVERLAP], exits[PX_GJK_EXIT_CONVERGED], exits[PX_GJK_EXIT_DUPLICATE],
           exits[PX_GJK_EXIT_NO_PROGRESS], exits[PX_GJK_EXIT_MAX_ITERATIONS]);
    printf("  failing samples by target bucket (d*/S aimed at):");
    for (int b = 0; b <= PXT_BUCKETS; ++b)
    {
        if (b == 0)
        {
            printf(" none %ld/%ld", bucket_fails[0], bucket_samples[0]);
        }
        else
        {
            printf(", %g %ld/%ld", bucket_values[b - 1], bucket_fails[b], bucket_samples[b]);
        }
    }
    printf("\n");
    double hit = targeted > 0 ? (double)target_overlap / (double)targeted : 0.0;
    printf("  targeted %ld: %.1f%% intersecting or touching (d* <= 1e-12 S); %.1f%% aimed within 1e-6 S of contact, "
           "%.1f%% achieved\n",
           targeted, 100.0 * hit, 100.0 * (double)near_target / (double)(targeted > 0 ? targeted : 1),
           100.0 * (double)near_achieved / (double)(targeted > 0 ? targeted : 1));
    long ambiguous = 0;
    for (int k = 0; k < PXT_K_COUNT; ++k)
    {
        ambiguous += st[k].ambiguous;
    }
    printf("  overlap query false on %ld certified-overlapping samples whose depth could not be shown > tol "
           "(in band)\n",
           ambiguous);
    printf("  oracle certificate open on %ld samples (skipped); %ld failing samples; %.1f s\n", uncertified, failures,
           secs);
    int bad = 0;
    if (uncertified > PXT_MAX_UNCERTIFIED)
    {
        printf("  more than %d samples without a closed oracle certificate\n", PXT_MAX_UNCERTIFIED);
        bad = 1;
    }
    if (!(hit >= 0.3 && hit <= 0.7))
    {
        printf("  hit-rate guard: %.1f%% intersecting is outside 30-70%%\n", 100.0 * hit);
        bad = 1;
    }
    return bad || failures > 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Frozen regressions (printed by random_pairs and minimized with PX_GJK_MINIMIZE=1)                 */

static int run_frozen(const pxt_frozen_case* fc)
{
    static gjk_case c;
    pxt_from_frozen(fc, &c);
    eval_out e;
    eval_case(&c, 0, &e);
    if (e.uncertified || e.fails != 0)
    {
        printf("  %s:\n", fc->name);
        eval_case(&c, 1, &e);
        return 1;
    }
    return 0;
}

/* Two segments 1.7e3 and 3.1e3 long, 2.2e-4 rad from parallel (minimized from box hulls), poses ~900
 * from the origin, S 3098. d* = 1.84e-7; proxima 0.0791 (2.55e-5 S, tol 0.0349), exit DUPLICATE. */
static const float reg_parallel_segments_far_a[] = {
    -0x1.a62ca2p+9f, 0x1.bfe0ccp+4f, 0x1.164e56p-1f, 0x1.a62ca2p+9f, 0x1.bfe0ccp+4f, 0x1.164e56p-1f
};
static const float reg_parallel_segments_far_b[] = {
    -0x1.834ae8p+10f, -0x1.89fc24p+3f, -0x1.dcf9d2p+1f, 0x1.834ae8p+10f, -0x1.89fc24p+3f, -0x1.dcf9d2p+1f
};
static const pxt_frozen_case reg_parallel_segments_far_case = { "reg_parallel_segments_far", PXT_K_BOX_HULL,
    0, 2, { 0x1.a62ca2p+9f, 0x1.bfe0ccp+4f, 0x1.164e56p-1f }, reg_parallel_segments_far_a,
    0, 2, { 0x1.834ae8p+10f, 0x1.89fc0cp+3f, 0x1.dcf9f6p+1f }, reg_parallel_segments_far_b,
    { 0x1.783cdap-2f, -0x1.988fd4p-3f, -0x1.09e784p-1f, -0x1.7d993ep-1f },
    { -0x1.73107ap+9f, -0x1.cd62acp+9f, -0x1.93339p+6f },
    { 0x1.78429p-2f, -0x1.98bf3cp-3f, -0x1.09dfdep-1f, -0x1.7d99fep-1f },
    { -0x1.24711cp+8f, -0x1.b5ffdp+6f, -0x1.ea02ccp+9f } };

/* Two segments 2.4e-3 and 3.4e-3 long, 5.6e-7 rad from parallel, S 0.0034, near the origin.
 * d* = 3.44e-9; proxima 6.68e-8 (1.86e-5 S, tol 3.8e-8), exit NO_PROGRESS. */
static const float reg_parallel_segments_small_a[] = {
    -0x1.352c94p-10f, -0x1.626832p-18f, -0x1.0898dcp-23f, 0x1.352c94p-10f, -0x1.626832p-18f, 0x1.0898dcp-23f
};
static const float reg_parallel_segments_small_b[] = {
    -0x1.be53cap-10f, 0x1.a1b542p-13f, -0x1.28c706p-13f, 0x1.be53cap-10f, 0x1.a1b542p-13f, -0x1.28c706p-13f
};
static const pxt_frozen_case reg_parallel_segments_small_case = { "reg_parallel_segments_small", PXT_K_BOX_HULL,
    0, 2, { 0x1.352c94p-10f, 0x1.626832p-18f, 0x1.0898dcp-23f }, reg_parallel_segments_small_a,
    0, 2, { 0x1.be53cap-10f, 0x1.a1b544p-13f, 0x1.28c704p-13f }, reg_parallel_segments_small_b,
    { -0x1.2e69p-1f, -0x1.2992d8p-4f, 0x1.2222fp-6f, 0x1.9b5f0ap-1f },
    { -0x1.ee538cp-11f, 0x1.b46502p-10f, -0x1.a3f2ep-12f },
    { -0x1.2e69p-1f, -0x1.29928ep-4f, 0x1.222326p-6f, 0x1.9b5f0ap-1f },
    { 0x1.78566ap-12f, 0x1.efc15p-10f, -0x1.2912eap-15f } };

/* Two px_shape_box, half extents (23.5, 0.039, 23.8) and (162, 0.138, 3.82), 2.7e-4 rad apart, poses
 * ~650 from the origin. d* = 4.72e-6; proxima 0.00862 (2.66e-5 S, tol 0.0051), exit NO_PROGRESS; the
 * swapped query returns 0 (right). */
static const pxt_frozen_case reg_box_shapes_parallel_faces_case = { "reg_box_shapes_parallel_faces", PXT_K_BOX_SHAPE,
    1, 0, { 0x1.78002cp+4f, 0x1.3f5beap-5f, 0x1.7d4958p+4f }, NULL,
    1, 0, { 0x1.439368p+7f, 0x1.1a7f52p-3f, 0x1.e854b2p+1f }, NULL,
    { -0x1.6e1242p-45f, -0x1.785298p-50f, 0x1.8977fep-47f, 0x1p+0f },
    { 0x1.43a782p+9f, -0x1.97bbbap+8f, -0x1.37039ep+9f },
    { -0x1.bc22aep-15f, 0x1.012298p-13f, -0x1.c933dcp-18f, 0x1p+0f },
    { 0x1.8c2d06p+9f, -0x1.978f1ap+8f, -0x1.44db52p+9f } };

/* px_shape_box half (202, 7.47, 0.0331) vs a triangle (edges 266-564) under the same rotation, poses
 * ~400 from the origin. d* = 4.39e-6: A-B returns 0 (in band, fine) but B-A returns 0.0472 (8.4e-5 S,
 * tol 0.0066). */
static const float reg_box_shape_triangle_swapped_b[] = {
    0x1.048a54p+7f, -0x1.a21cb6p+7f, -0x1.32a8fp-25f, -0x1.db6b9p+7f, -0x1.1785fp+7f, -0x1.32a8fp-25f,
    -0x1.50a0aep+8f, 0x1.ab2d2ap+6f, -0x1.32a8fp-25f
};
static const pxt_frozen_case reg_box_shape_triangle_swapped_case = { "reg_box_shape_triangle_swapped", PXT_K_POLYGON,
    1, 0, { 0x1.93b526p+7f, 0x1.de00eap+2f, 0x1.0f6e2cp-5f }, NULL,
    0, 3, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_box_shape_triangle_swapped_b,
    { 0x1.16bf4ep-26f, -0x1.4c6896p-25f, -0x1.f82cfep-27f, 0x1p+0f },
    { -0x1.1928f8p+7f, -0x1.76dc62p+8f, -0x1.aec8f6p+5f },
    { 0x1.d6afcp-27f, -0x1.3f590cp-25f, -0x1.bbf3acp-27f, 0x1p+0f },
    { -0x1.728ac4p+7f, -0x1.3cac06p+7f, -0x1.af0cdp+5f } };

/* Sliver triangle (edges 5047, 5047, 0.61; two corners of a box face) vs a point, poses ~700 from the
 * origin. d* = 0.1975; proxima 0.3041 (= half the 0.61 edge: the distance to an edge, not the face;
 * 2.1e-5 S, tol 0.057), exit NO_PROGRESS; the swapped query is right (0.1976); px_gjk_overlap_world
 * reports overlap although d* = 3.5 tol. */
static const float reg_sliver_triangle_point_overlap_a[] = {
    -0x1.3765ap-2f, -0x1.3b70c6p+11f, 0x1.13f058p+3f, -0x1.3765ap-2f, 0x1.3b70c6p+11f, 0x1.13f058p+3f,
    0x1.3765ap-2f, 0x1.3b70c6p+11f, 0x1.13f058p+3f
};
static const float reg_sliver_triangle_point_overlap_b[] = {
    0x1.0df6ccp+6f, -0x1.a95e98p+5f, -0x1.7278a4p+6f
};
static const pxt_frozen_case reg_sliver_triangle_point_overlap_case = { "reg_sliver_triangle_point_overlap",
    PXT_K_POINT,
    0, 3, { 0x1.3765ap-2f, 0x1.3b70c6p+11f, 0x1.13f058p+3f }, reg_sliver_triangle_point_overlap_a,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_triangle_point_overlap_b,
    { 0x1.1153c6p-41f, -0x1.9bc2dap-44f, -0x1.51de26p-42f, 0x1p+0f },
    { -0x1.38af4ep+9f, -0x1.546128p+9f, -0x1.3fd2bcp+9f },
    { -0x1.8ce98cp-2f, 0x1.7f4b8ep-4f, 0x1.fdea4cp-2f, 0x1.8a48d2p-1f },
    { -0x1.6a9fdep+9f, -0x1.1e715p+11f, -0x1.176e9p+9f } };

/* Point vs sliver triangle (edges 0.997, 0.997, 1.5e-4), S 1. d* = 9.8e-10; proxima 3.05e-5
 * (3.06e-5 S, tol 1.1e-5), exit DUPLICATE. */
static const float reg_point_sliver_triangle_a[] = {
    0x1.87e542p-15f, -0x1.8a16ecp-8f, -0x1.b7b834p-2f
};
static const float reg_point_sliver_triangle_b[] = {
    -0x1.212cacp-12f, 0x1.fe8048p-2f, -0x1.3421b2p-14f, -0x1.212cacp-12f, -0x1.fe8048p-2f, 0x1.3407e6p-14f,
    -0x1.212cacp-12f, 0x1.fe8048p-2f, 0x1.3407e6p-14f
};
static const pxt_frozen_case reg_point_sliver_triangle_case = { "reg_point_sliver_triangle", PXT_K_BOX_HULL,
    0, 1, { 0x1.87e542p-15f, 0x1.8a16ecp-8f, 0x1.b7b834p-2f }, reg_point_sliver_triangle_a,
    0, 3, { 0x1.212d22p-12f, 0x1.fe8048p-2f, 0x1.3414ccp-14f }, reg_point_sliver_triangle_b,
    { 0x1.4fff58p-2f, 0x1.19a7eap-2f, -0x1.56d738p-2f, -0x1.adc556p-1f },
    { 0x1.c19f3ep-3f, 0x1.22b63ep-2f, 0x1.7cf162p-2f },
    { 0x1.4fff58p-2f, 0x1.19a7eap-2f, -0x1.56d738p-2f, -0x1.adc556p-1f },
    { 0x1.9d3accp-2f, 0x1.257978p-2f, -0x1.c13a52p-4f } };

/* Sliver triangle (edges 7.5e-3, 7.5e-3, 7.7e-7) vs a point, S 0.0075. d* = 6.8e-14; proxima 3.37e-7
 * (4.5e-5 S, tol 8.5e-8), exit NO_PROGRESS. */
static const float reg_sliver_triangle_point_tiny_a[] = {
    -0x1.9db294p-22f, -0x1.e8cecep-9f, -0x1.c876cep-16f, 0x1.9db294p-22f, -0x1.e8cecep-9f, -0x1.c876cep-16f,
    0x1.9db294p-22f, 0x1.e8cecep-9f, -0x1.c876cep-16f
};
static const float reg_sliver_triangle_point_tiny_b[] = {
    -0x1.88528ap-18f, 0x1.5c6d68p-16f, 0x1.cc438ep-12f
};
static const pxt_frozen_case reg_sliver_triangle_point_tiny_case = { "reg_sliver_triangle_point_tiny", PXT_K_BOX_HULL,
    0, 3, { 0x1.9db294p-22f, 0x1.e8cecep-9f, 0x1.c876cep-16f }, reg_sliver_triangle_point_tiny_a,
    0, 1, { 0x1.8852eep-18f, 0x1.5c6dc2p-16f, 0x1.cc4392p-12f }, reg_sliver_triangle_point_tiny_b,
    { 0x1.dd6f9ap-1f, 0x1.2d1d3p-2f, -0x1.a47e5ep-5f, -0x1.a07a3p-3f },
    { 0x1.2bea9ap-9f, -0x1.445522p-9f, 0x1.bc7a44p-9f },
    { 0x1.dd6f9ap-1f, 0x1.2d1d3p-2f, -0x1.a47e5ep-5f, -0x1.a07a3p-3f },
    { 0x1.58644cp-9f, -0x1.847098p-9f, 0x1.dc6efp-9f } };

/* Point vs sliver triangle (edges 0.0204, 0.0204, 2.3e-6), S 0.020: right at scale 1 (d* 3.7e-10,
 * proxima 9.6e-10), but with every coordinate scaled by 1e3 proxima returns 0.00228 where the scaled
 * inputs' d* is 3.0e-7 (1.1e-4 S_s, tol 2.5e-4): an absolute threshold somewhere. */
static const float reg_point_sliver_triangle_scale_a[] = {
    0x1.2156c2p-9f, -0x1.3d15fep-10f, -0x1.4e397cp-9f
};
static const float reg_point_sliver_triangle_scale_b[] = {
    0x1.0e012ap-12f, 0x1.3244dp-20f, -0x1.4e8fc4p-7f, -0x1.0e0142p-12f, -0x1.3249ap-20f, 0x1.4e8fc4p-7f,
    -0x1.0e0142p-12f, 0x1.3244dp-20f, 0x1.4e8fc4p-7f
};
static const pxt_frozen_case reg_point_sliver_triangle_scale_case = { "reg_point_sliver_triangle_scale", PXT_K_POINT,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_point_sliver_triangle_scale_a,
    0, 3, { 0x1.0e0136p-12f, 0x1.324738p-20f, 0x1.4e8fc4p-7f }, reg_point_sliver_triangle_scale_b,
    { -0x1.628f76p-2f, -0x1.466f88p-3f, 0x1.38d5cap-1f, -0x1.633b7p-1f },
    { -0x1.1e2a48p-8f, -0x1.cf0492p-9f, 0x1.a56d1cp-10f },
    { 0x1.ab09d6p-25f, -0x1.9f3264p-25f, -0x1.1b5d5cp-21f, 0x1p+0f },
    { -0x1.1a33c8p-8f, -0x1.c50336p-9f, -0x1.8f1662p-7f } };

/* Triangle (edges 0.093, 0.093, 2e-4) vs a segment, overlapping (d* = 0): right at scale 1, but with
 * every coordinate scaled by 1e-3 or by 1e3 proxima reports a separation of 9.5e-5 S_s (tol 1.2e-5 S_s). */
static const float reg_triangle_segment_scale_a[] = {
    -0x1.131f12p-7f, 0x1.a40fcep-14f, -0x1.7d9ecap-5f, -0x1.131f12p-7f, -0x1.a40fcep-14f, 0x1.7d9ecap-5f,
    -0x1.131f12p-7f, 0x1.a40fcep-14f, 0x1.7d9ecap-5f
};
static const float reg_triangle_segment_scale_b[] = {
    0x1.8789e8p-6f, 0x1.1772fep-4f, -0x1.113bbp-29f, 0x1.231c2ep-5f, -0x1.0ab38cp-4f, -0x1.113bbp-29f
};
static const pxt_frozen_case reg_triangle_segment_scale_case = { "reg_triangle_segment_scale", PXT_K_POLYGON,
    0, 3, { 0x1.131f12p-7f, 0x1.a40fcep-14f, 0x1.7d9ecap-5f }, reg_triangle_segment_scale_a,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_triangle_segment_scale_b,
    { -0x1.0b618ep-1f, -0x1.54753p-1f, 0x1.40ddc6p-4f, -0x1.0e6d84p-1f },
    { 0x1.6bb6b6p-6f, 0x1.493348p-5f, -0x1.a05226p-5f },
    { -0x1.0b618ep-1f, -0x1.54753p-1f, 0x1.40ddc6p-4f, -0x1.0e6d84p-1f },
    { 0x1.1e113ap-4f, -0x1.2bd5b8p-9f, -0x1.a37a56p-6f } };

/* Two thin boxes (a 2.9 x 0.014 x 116 plank through a 48 x 228 x 0.34 plate), overlapping by 1e-6 S
 * (PX_TEST_SEED=39, sample 42801). Right at scale 1; scaled by 1e3 the Minkowski simplex became a
 * tetrahedron 2.2e5 long and 14 wide around the origin, the side test of a face whose normal came from
 * its two long edges at one vertex had the wrong sign (17 instead of -0.9 from the plane), and GJK stopped
 * on no progress with d = 5.42 (2.3e-5 S_s, tol 2.83). */
static const float reg_thin_boxes_overlap_scale_a[] = {
    -0x1.77d42ap+0f, -0x1.cb68e4p-8f, -0x1.d0d438p+5f, 0x1.77d42ap+0f, -0x1.cb68e4p-8f, -0x1.d0d438p+5f,
    -0x1.77d42ap+0f, 0x1.cb68e4p-8f, -0x1.d0d438p+5f, 0x1.77d42ap+0f, 0x1.cb68e4p-8f, -0x1.d0d438p+5f,
    -0x1.77d42ap+0f, -0x1.cb68e4p-8f, 0x1.d0d438p+5f, 0x1.77d42ap+0f, -0x1.cb68e4p-8f, 0x1.d0d438p+5f,
    -0x1.77d42ap+0f, 0x1.cb68e4p-8f, 0x1.d0d438p+5f, 0x1.77d42ap+0f, 0x1.cb68e4p-8f, 0x1.d0d438p+5f
};
static const float reg_thin_boxes_overlap_scale_b[] = {
    -0x1.801a82p+4f, -0x1.c84c12p+6f, -0x1.5a466ap-3f, 0x1.801a82p+4f, -0x1.c84c12p+6f, -0x1.5a466ap-3f,
    -0x1.801a82p+4f, 0x1.c84c12p+6f, -0x1.5a466ap-3f, 0x1.801a82p+4f, 0x1.c84c12p+6f, -0x1.5a466ap-3f,
    -0x1.801a82p+4f, -0x1.c84c12p+6f, 0x1.5a4a12p-3f, 0x1.801a82p+4f, -0x1.c84c12p+6f, 0x1.5a4a12p-3f,
    -0x1.801a82p+4f, 0x1.c84c12p+6f, 0x1.5a4a12p-3f, 0x1.801a82p+4f, 0x1.c84c12p+6f, 0x1.5a4a12p-3f
};
static const pxt_frozen_case reg_thin_boxes_overlap_scale_case = { "reg_thin_boxes_overlap_scale", PXT_K_BOX_HULL,
    0, 8, { 0x1.77d42ap+0f, 0x1.cb68e4p-8f, 0x1.d0d438p+5f }, reg_thin_boxes_overlap_scale_a,
    0, 8, { 0x1.801a82p+4f, 0x1.c84c12p+6f, 0x1.5a483ep-3f }, reg_thin_boxes_overlap_scale_b,
    { 0x1.11308ep-4f, -0x1.6b849cp-2f, -0x1.117f32p-2f, 0x1.c96ddap-1f },
    { 0x1.76d192p+4f, 0x1.4ec9dcp+5f, 0x1.166f8ap+5f },
    { 0x1.ef3fc8p-29f, 0x1.f802a4p-31f, 0x1.1b39d2p-30f, 0x1p+0f },
    { -0x1.432f8p+5f, 0x1.25a75ep+7f, 0x1.342312p+6f } };

/* A segment 6.9e-6 from a near-flat polygon of 16 points (PX_TEST_SEED=37, sample 57916). GJK's final
 * simplex is a Minkowski triangle 7e-3 long and 7.6e-7 high; its float weights put point_b - point_a
 * 1.9e-7 from d n (tol 7.6e-8) although d is right to 2e-10. The witnesses now come from weights
 * recomputed in double. */
static const float reg_sliver_simplex_witness_gap_a[] = {
    -0x1.973c6ap-10f, 0x1.7e9058p-16f, 0x0p+0f, -0x1.1789e8p-9f, 0x1.5064a8p-20f, 0x0p+0f,
    0x1.3d907ap-10f, -0x1.78744ep-17f, 0x0p+0f, 0x1.d43b9ap-10f, -0x1.315e7ap-16f, 0x0p+0f,
    0x1.1575a6p-9f, -0x1.1c36dep-18f, 0x0p+0f, -0x1.d4f50cp-10f, -0x1.3042fap-16f, 0x0p+0f,
    -0x1.ea72dap-10f, -0x1.0c7598p-16f, 0x0p+0f, 0x1.f6b806p-12f, -0x1.dc6196p-17f, 0x0p+0f,
    0x1.577142p-11f, -0x1.097ef2p-15f, 0x0p+0f, -0x1.126544p-10f, 0x1.e63616p-16f, 0x0p+0f,
    -0x1.17a696p-9f, 0x1.bc55acp-21f, 0x0p+0f, -0x1.ec851ap-10f, 0x1.08a956p-16f, 0x0p+0f,
    -0x1.29b9cp-14f, 0x1.1c9eb4p-19f, 0x0p+0f, 0x1.ed284p-10f, -0x1.077a8ap-16f, 0x0p+0f,
    0x1.cb84fap-10f, -0x1.3e4284p-16f, 0x0p+0f, -0x1.0ca9d2p-9f, -0x1.36da4ep-17f, 0x0p+0f
};
static const float reg_sliver_simplex_witness_gap_b[] = {
    0x1.0709e2p-9f, 0x1.45bafcp-10f, -0x1.23759p-9f, 0x1.266a76p-8f, -0x1.55434cp-8f, -0x1.4f9938p-9f
};
static const pxt_frozen_case reg_sliver_simplex_witness_gap_case = { "reg_sliver_simplex_witness_gap",
    PXT_K_SEGMENT,
    0, 16, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_simplex_witness_gap_a,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_simplex_witness_gap_b,
    { -0x1.a3edcap-6f, 0x1.84dadcp-2f, -0x1.d8290cp-1f, -0x1.1911c2p-4f },
    { -0x1.d75b66p-12f, 0x1.9e8672p-12f, -0x1.a3e838p-11f },
    { 0x1.dd99e8p-3f, 0x1.b34b46p-6f, 0x1.5b77bep-2f, 0x1.d263bp-1f },
    { -0x1.4c5cbap-9f, -0x1.22bd88p-10f, 0x1.184a02p-9f } };

/* A px_shape_box (half extents 2.64, 6.3e-4, 0.35) touching a flat tetrahedron (d* = 2.1e-8; PX_TEST_SEED=49,
 * sample 76034). Right at scale 1; scaled by 1e3 GJK reached a Minkowski segment 0.114 from the origin, and
 * the next support point made a triangle 5808 long and 0.35 high whose float solve put its face 0.142 from
 * the origin (it is 1.9e-4): no progress, and GJK returned d 0.1136 where the scaled inputs' d* is 1e-4
 * (1.95e-5 S_s, tol 0.066). A stalled step is now solved again in double. */
static const float reg_thin_box_flat_tetra_scale_b[] = {
    -0x1.ab4a78p-1f, -0x1.9dd49p-1f, -0x1.04ae3ap+0f, 0x1.149dcep-5f, -0x1.ce077p-2f, -0x1.bbd5cp-2f,
    0x1.56d986p+1f, 0x1.685b92p+0f, 0x1.854cbcp+1f, 0x1.bac128p+0f, 0x1.9e5b2ep-1f, 0x1.f1fc9ep+0f
};
static const pxt_frozen_case reg_thin_box_flat_tetra_scale_case = { "reg_thin_box_flat_tetra_scale",
    PXT_K_FLAT_TETRA,
    1, 0, { 0x1.51c81ep+1f, 0x1.498d96p-11f, 0x1.642abp-2f }, NULL,
    0, 4, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_thin_box_flat_tetra_scale_b,
    { -0x1.1bec72p-3f, -0x1.3f228ep-2f, 0x1.2ad308p-1f, -0x1.794a4ep-1f },
    { 0x1.304cc8p+0f, 0x1.835138p-2f, -0x1.8daf28p-3f },
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { 0x1.6922p+0f, -0x1.2fb388p+0f, -0x1.067e6ep+1f } };

static int reg_parallel_segments_far(void)
{
    return run_frozen(&reg_parallel_segments_far_case);
}

static int reg_parallel_segments_small(void)
{
    return run_frozen(&reg_parallel_segments_small_case);
}

static int reg_box_shapes_parallel_faces(void)
{
    return run_frozen(&reg_box_shapes_parallel_faces_case);
}

static int reg_box_shape_triangle_swapped(void)
{
    return run_frozen(&reg_box_shape_triangle_swapped_case);
}

static int reg_sliver_triangle_point_overlap(void)
{
    return run_frozen(&reg_sliver_triangle_point_overlap_case);
}

static int reg_point_sliver_triangle(void)
{
    return run_frozen(&reg_point_sliver_triangle_case);
}

static int reg_sliver_triangle_point_tiny(void)
{
    return run_frozen(&reg_sliver_triangle_point_tiny_case);
}

static int reg_point_sliver_triangle_scale(void)
{
    return run_frozen(&reg_point_sliver_triangle_scale_case);
}

static int reg_triangle_segment_scale(void)
{
    return run_frozen(&reg_triangle_segment_scale_case);
}

static int reg_thin_boxes_overlap_scale(void)
{
    return run_frozen(&reg_thin_boxes_overlap_scale_case);
}

static int reg_sliver_simplex_witness_gap(void)
{
    return run_frozen(&reg_sliver_simplex_witness_gap_case);
}

static int reg_thin_box_flat_tetra_scale(void)
{
    return run_frozen(&reg_thin_box_flat_tetra_scale_case);
}

/* Large hulls, where distance queries take accelerated directions (gjk.c, pxi_gjk_run): pairs of 512-point
 * ellipsoid clouds, scanned and built (the direction tables), rotated, placed up to 1000 from the origin and
 * separated along a random axis by gaps from 1e-4 to 2 of their size, against the certified oracle. The
 * momentum only chooses where GJK looks: the answer must meet the same bound as plain GJK's, and a run
 * must end within the plain iteration bound. */
static int large_hull_pairs(void)
{
    enum { N = 512, PAIRS = 24 };
    px_rng r = px_rng_seeded(0x6c61726765ull);
    float* pts = malloc(2 * 3 * sizeof(float) * N);
    long double* wa = malloc(3 * sizeof(long double) * N);
    long double* wb = malloc(3 * sizeof(long double) * N);
    PX_CHECK(pts != NULL && wa != NULL && wb != NULL);
    int failures = 0;
    for (int t = 0; t < PAIRS; ++t)
    {
        double axes[2][3];
        for (int h = 0; h < 2; ++h)
        {
            for (int k = 0; k < 3; ++k)
            {
                axes[h][k] = px_rng_range(&r, 0.3, 2.0);
            }
            for (int i = 0; i < N; ++i)
            {
                double u[3];
                px_rng_unit_vector(&r, u);
                for (int k = 0; k < 3; ++k)
                {
                    pts[3 * (h * N + i) + k] = (float)(axes[h][k] * u[k]);
                }
            }
        }
        px_transform ta, tb;
        double qa[4], qb[4], dir[3];
        px_rng_quat(&r, qa);
        px_rng_quat(&r, qb);
        px_rng_unit_vector(&r, dir);
        for (int k = 0; k < 4; ++k)
        {
            ta.q[k] = (float)qa[k];
            tb.q[k] = (float)qb[k];
        }
        const double far = t % 3 == 0 ? 1000.0 : 0.0;
        for (int k = 0; k < 3; ++k)
        {
            ta.p[k] = (float)(far * (k == 0 ? 1.0 : -0.5));
        }
        /* B's placement: both clouds' extents along dir plus the gap, from A's centre */
        const px_shape sa0 = px_shape_hull(pts, N), sb0 = px_shape_hull(pts + 3 * N, N);
        vec3 dl, ext_a, ext_b;
        vec3 df = { (float)dir[0], (float)dir[1], (float)dir[2] }, nd = { -df[0], -df[1], -df[2] };
        px_quat_rotate_inverse(ta.q, df, dl);
        (void)px_shape_support(&sa0, dl, ext_a);
        px_quat_rotate_inverse(tb.q, nd, dl);
        (void)px_shape_support(&sb0, dl, ext_b);
        vec3 ea, eb;
        px_quat_rotate(ta.q, ext_a, ea);
        px_quat_rotate(tb.q, ext_b, eb);
        const double size = 4.0;
        const double gap = size * pow(10.0, px_rng_range(&r, -4.0, log10(2.0)));
        const double reach = ((double)ea[0] * dir[0] + (double)ea[1] * dir[1] + (double)ea[2] * dir[2]) -
                             ((double)eb[0] * dir[0] + (double)eb[1] * dir[1] + (double)eb[2] * dir[2]) + gap;
        for (int k = 0; k < 3; ++k)
        {
            tb.p[k] = (float)((double)ta.p[k] + reach * dir[k]);
        }
        /* the oracle, in world coordinates shifted by A's position (exact differences of floats) */
        for (int h = 0; h < 2; ++h)
        {
            const px_transform* tr = h == 0 ? &ta : &tb;
            long double* out = h == 0 ? wa : wb;
            for (int i = 0; i < N; ++i)
            {
                vec3 p;
                px_quat_rotate(tr->q, pts + 3 * (h * N + i), p);
                for (int k = 0; k < 3; ++k)
                {
                    out[3 * i + k] = (long double)p[k] + ((long double)tr->p[k] - (long double)ta.p[k]);
                }
            }
        }
        pxo_distance o;
        pxo_hull_distance(wa, N, wb, N, 0.0L, &o);
        if (!o.certified)
        {
            continue;
        }
        px_hull* ha = NULL;
        px_hull* hb = NULL;
        PX_CHECK(px_hull_create(pts, N, NULL, &ha) >= 0 && px_hull_create(pts + 3 * N, N, NULL, &hb) >= 0);
        const px_shape built_a = px_shape_from_hull(ha), built_b = px_shape_from_hull(hb);
        const double c = far + 2.0 * size + reach;
        const double bound = 1e-5 * (double)o.scale + 16.0 * FLT_EPSILON * c;
        for (int pass = 0; pass < 2; ++pass)
        {
            px_gjk_result g;
            px_status st = pass == 0 ? px_gjk_distance_world(&sa0, &ta, &sb0, &tb, NULL, &g)
                                     : px_gjk_distance_world(&built_a, &ta, &built_b, &tb, NULL, &g);
            const double err = fabs((double)g.distance - (double)o.distance);
            if (st != PX_OK || !(err <= bound) || g.iterations > PXT_MAX_ITER)
            {
                if (++failures <= 5)
                {
                    fprintf(stderr, "pair %d (%s): status %d, distance %.9g, oracle %.9Lg (err %.3g > %.3g?), %d iterations\n",
                            t, pass == 0 ? "cloud" : "built", (int)st, (double)g.distance, o.distance, err, bound,
                            g.iterations);
                }
            }
        }
        px_hull_destroy(ha);
        px_hull_destroy(hb);
    }
    free(pts);
    free(wa);
    free(wb);
    return failures == 0 ? 0 : 1;
}

/* GJK's momentum (large hulls, cold) averages the supports it meets, old ones at weights falling as 1 / k^2:
 * with the shapes 4e-10 apart and their first supports 2e-6 away, the average pointed along those for tens of
 * steps, each shortening v by a percent or two. Elliptic cylinder clouds (32 and 28 points of rings, scale
 * 1e-6) side by side took 33 iterations, past the suite's 32 (plain steps: 5); from a 2000-point cloud of
 * the same cylinder, 39 (plain: 10). The momentum now ends at a step that does not shorten |v| by a tenth. */
static const float accel_stall_a[] = {
    0x1.42a44p-21f, -0x1.17432ap-20f, 0x0p+0f, 0x1.42a44p-21f, 0x1.17432ap-20f, 0x0p+0f,
    0x1.429598p-21f, 0x1.17432ap-20f, 0x1.8cace2p-28f, 0x1.42699p-21f, -0x1.17432ap-20f, 0x1.8ccd9ap-27f,
    0x1.42699ep-21f, 0x1.17432ap-20f, 0x1.8c9adcp-27f, 0x1.42699p-21f, 0x1.17432ap-20f, 0x1.8ccd9ap-27f,
    0x1.4248a6p-21f, 0x1.17432ap-20f, 0x1.efb0bp-27f, 0x1.42205cp-21f, -0x1.17432ap-20f, 0x1.295dap-26f,
    0x1.423becp-21f, 0x1.17432ap-20f, 0x1.087c98p-26f, 0x1.420142p-21f, -0x1.17432ap-20f, 0x1.4a87b2p-26f,
    0x1.4164e6p-21f, -0x1.17432ap-20f, 0x1.ce7324p-26f, 0x1.4164e6p-21f, 0x1.17432ap-20f, 0x1.ce7324p-26f,
    0x1.41360ep-21f, -0x1.17432ap-20f, 0x1.ef23f4p-26f, 0x1.40e938p-21f, 0x0p+0f, 0x1.103e1cp-25f,
    0x1.40cd84p-21f, 0x1.17432ap-20f, 0x1.1899e8p-25f, 0x1.409518p-21f, -0x1.17432ap-20f, 0x1.28e41p-25f,
    0x1.409518p-21f, 0x0p+0f, 0x1.28e41p-25f, 0x1.409518p-21f, 0x1.17432ap-20f, 0x1.28e41p-25f,
    0x1.4039bp-21f, -0x1.17432ap-20f, 0x1.418344p-25f, 0x1.4018f4p-21f, -0x1.17432ap-20f, 0x1.49e0bap-25f,
    0x1.4018f4p-21f, -0x1.74598ep-22f, 0x1.49e0bap-25f, 0x1.3fd702p-21f, -0x1.17432ap-20f, 0x1.5a1b2cp-25f,
    0x1.3f6d1p-21f, 0x0p+0f, 0x1.72ab36p-25f, 0x1.3f9066p-21f, 0x1.17432ap-20f, 0x1.6aaa34p-25f,
    0x1.3efaeep-21f, -0x1.17432ap-20f, 0x1.8b6508p-25f, 0x1.3efaeep-21f, 0x1.17432ap-20f, 0x1.8b6508p-25f,
    0x1.3eab5ap-21f, -0x1.17432ap-20f, 0x1.9bbc88p-25f, 0x1.3e836ap-21f, -0x1.17432ap-20f, 0x1.a3b178p-25f,
    0x1.3e588ep-21f, -0x1.17432ap-20f, 0x1.ac0fdep-25f, 0x1.3e588ep-21f, -0x1.74598ep-22f, 0x1.ac0fdep-25f,
    0x1.3e03bap-21f, -0x1.17432ap-20f, 0x1.bc2694p-25f, 0x1.3e028cp-21f, 0x1.17432ap-20f, 0x1.bc5ee4p-25f,
};
static const float accel_stall_b[] = {
    0x1.b24e3p-20f, -0x1.11388ap-20f, 0x0p+0f, 0x1.b24e3p-20f, 0x0p+0f, 0x0p+0f,
    0x1.b24e3p-20f, 0x1.6c4b62p-22f, 0x0p+0f, 0x1.874bbp-20f, 0x1.11388ap-20f, 0x1.6a7702p-23f,
    0x1.0ec8f6p-20f, -0x1.11388ap-20f, 0x1.4691dp-22f, 0x1.0ec8f6p-20f, 0x1.11388ap-20f, 0x1.4691dp-22f,
    0x1.829176p-22f, -0x1.11388ap-20f, 0x1.9739bep-22f, 0x1.829176p-22f, 0x1.11388ap-20f, 0x1.9739bep-22f,
    0x1.0c6a5ep-21f, 0x1.11388ap-20f, 0x1.8d4128p-22f, -0x1.829176p-22f, -0x1.6c4b62p-22f, 0x1.9739bep-22f,
    -0x1.0c6a5ep-21f, 0x0p+0f, 0x1.8d4128p-22f, -0x1.0c6a5ep-21f, 0x1.11388ap-20f, 0x1.8d4128p-22f,
    -0x1.874bbp-20f, -0x1.11388ap-20f, 0x1.6a7702p-23f, -0x1.5f5c46p-20f, 0x0p+0f, 0x1.eb089ap-23f,
    -0x1.5f5c46p-20f, 0x1.11388ap-20f, 0x1.eb089ap-23f, -0x1.b24e3p-20f, 0x1.11388ap-20f, 0x1.ccbf68p-75f,
    -0x1.b24e3p-20f, 0x0p+0f, 0x1.ccbf68p-75f, -0x1.b24e3p-20f, 0x1.11388ap-20f, 0x1.ccbf68p-75f,
    -0x1.874bbp-20f, 0x1.6c4b62p-22f, -0x1.6a7702p-23f, -0x1.874bbp-20f, 0x1.11388ap-20f, -0x1.6a7702p-23f,
    -0x1.829176p-22f, -0x1.11388ap-20f, -0x1.9739bep-22f, -0x1.0c6a5ep-21f, -0x1.11388ap-20f, -0x1.8d4128p-22f,
    -0x1.829176p-22f, 0x1.6c4b62p-22f, -0x1.9739bep-22f, 0x1.829176p-22f, 0x1.11388ap-20f, -0x1.9739bep-22f,
    0x1.0ec8f6p-20f, -0x1.11388ap-20f, -0x1.4691dp-22f, 0x1.0c6a5ep-21f, 0x0p+0f, -0x1.8d4128p-22f,
    0x1.0c6a5ep-21f, 0x1.11388ap-20f, -0x1.8d4128p-22f, 0x1.5f5c46p-20f, -0x1.11388ap-20f, -0x1.eb089ap-23f,
};

static int accel_stalled_momentum(void)
{
    const px_shape a = px_shape_hull(accel_stall_a, (int)(sizeof(accel_stall_a) / sizeof(float) / 3));
    const px_shape b = px_shape_hull(accel_stall_b, (int)(sizeof(accel_stall_b) / sizeof(float) / 3));
    PX_CHECK(a.hull.count >= 32);
    const px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    const px_transform tb = { { 0, 0, 0, 1 }, { 0x1.29de4ap-19f, 0.0f, -0x1.cc314ep-75f } };
    px_gjk_result r;
    PX_CHECK_STATUS(px_gjk_distance_world(&a, &ta, &b, &tb, NULL, &r), PX_OK);
    /* apart along x: A's largest x (0x1.42a44p-21) against B's smallest (-0x1.b24e3p-20), both at z = 0 over
     * a common range of y */
    const double exact = (0x1.29de4ap-19 - 0x1.b24e3p-20) - 0x1.42a44p-21;
    PX_CHECK_NEAR(r.distance, exact, 1e-5 * 3.3e-6 + 16.0 * FLT_EPSILON * 4e-6);
    if (r.iterations > 12)
    {
        fprintf(stderr, "elliptic cylinder clouds: %d iterations (plain steps: 5)\n", r.iterations);
        return 1;
    }
    return 0;
}

/* A distance run that took accelerated directions must decide touching as the overlap query does (its
 * plain steps): a pancake hull of 48 points (34 vertices) against a box-edge cloud of 27 points (8
 * vertices), scale 1e-6, true distance 2.3e-13; the accelerated run ended 4.75e-12 apart while the overlap
 * query said touching (review 64). Runs ending that near touching are made again with plain steps. */
static const float accel_band_a[3 * 48] = {
    0x1.3dbe62p-21f, 0x1.af057ep-23f, -0x1.f08fc6p-34f, -0x1.52ffbcp-20f, 0x1.363f3p-22f, -0x1.0038d4p-36f,
    -0x1.c041b2p-22f, -0x1.98cab8p-22f, -0x1.f30caep-34f, 0x1.b1a946p-21f, -0x1.17144cp-21f, 0x1.61192ap-34f,
    -0x1.9253aep-24f, -0x1.c2147p-21f, 0x1.59982cp-34f, 0x1.f2c704p-22f, 0x1.884daap-21f, -0x1.68162cp-34f,
    -0x1.ef7d2cp-24f, -0x1.8f1814p-21f, -0x1.9229f6p-34f, -0x1.0e597ep-22f, 0x1.f4f91p-21f, -0x1.ee6b6ap-35f,
    -0x1.9bc58cp-22f, 0x1.3a6b4cp-21f, 0x1.bc1488p-34f, 0x1.4019bap-24f, -0x1.93991ap-21f, -0x1.8f755ep-34f,
    -0x1.90405ap-21f, -0x1.814ffap-23f, -0x1.cb3e18p-34f, -0x1.60052cp-21f, 0x1.e360fap-21f, -0x1.9c13ap-36f,
    0x1.6db46cp-22f, 0x1.3f7ff8p-21f, -0x1.beec74p-34f, -0x1.662f3ep-21f, 0x1.47c77cp-22f, -0x1.ce7028p-34f,
    -0x1.57a378p-22f, -0x1.00cb5cp-21f, 0x1.e81d5ap-34f, 0x1.4203b4p-20f, 0x1.389cacp-25f, 0x1.db652cp-35f,
    -0x1.97c2e4p-22f, -0x1.91b5dp-22f, -0x1.fa008cp-34f, -0x1.e4c544p-22f, -0x1.ee8f1ep-21f, -0x1.977ff4p-35f,
    -0x1.3bd3bp-22f, -0x1.dfe8f4p-21f, 0x1.164044p-34f, 0x1.c4f1dap-24f, 0x1.b0ddacp-21f, -0x1.6e4238p-34f,
    -0x1.59b384p-20f, -0x1.4685eep-23f, 0x1.89487p-36f, -0x1.43a45cp-20f, -0x1.ba8b74p-25f, 0x1.ce440ap-35f,
    0x1.2a55a6p-22f, -0x1.e3408cp-23f, 0x1.0f255p-33f, 0x1.4f7eccp-20f, 0x1.f1ceeap-23f, -0x1.1190aep-35f,
    -0x1.d7ac56p-22f, -0x1.d5246p-22f, -0x1.e213dep-34f, -0x1.3e3082p-20f, -0x1.00cb2cp-22f, -0x1.b05f8ep-35f,
    0x1.2853ecp-21f, -0x1.dc2696p-21f, 0x1.936412p-35f, -0x1.045ea2p-22f, -0x1.c9fe58p-21f, -0x1.40fac8p-34f,
    0x1.8306d6p-23f, -0x1.f5cee8p-21f, -0x1.00e3f2p-34f, 0x1.62875cp-22f, 0x1.55beb8p-21f, -0x1.afb64ap-34f,
    -0x1.45962cp-20f, 0x1.75b38p-23f, 0x1.9b17c6p-35f, -0x1.f15b84p-22f, -0x1.e28b7cp-21f, 0x1.c4ac82p-35f,
    -0x1.745552p-23f, -0x1.1a1aaep-20f, 0x1.974098p-39f, 0x1.0b165ep-20f, 0x1.440ba4p-21f, 0x1.77961cp-35f,
    -0x1.1ba1f2p-20f, -0x1.3e6086p-22f, -0x1.2e1a4cp-34f, -0x1.3e199cp-22f, -0x1.c4ef4cp-21f, -0x1.3fc9eep-34f,
    0x1.129bf2p-20f, 0x1.32ce8ep-21f, -0x1.799e88p-35f, -0x1.bdcd02p-22f, 0x1.65f1a2p-23f, 0x1.0a0318p-33f,
    -0x1.6284fcp-21f, -0x1.7a4faap-23f, -0x1.e3168ap-34f, 0x1.b15dacp-21f, 0x1.c2c168p-21f, -0x1.9fa6a8p-42f,
    -0x1.c8713p-21f, -0x1.b3bf9ap-21f, 0x1.2e0e8ap-39f, -0x1.695546p-22f, -0x1.c32872p-21f, 0x1.3ae3d4p-34f,
    0x1.45ead8p-20f, -0x1.56eed8p-22f, 0x1.2282f6p-35f, 0x1.2b5c68p-23f, -0x1.db75fcp-21f, -0x1.32b0fap-34f,
    -0x1.31079cp-20f, -0x1.34b6e6p-26f, 0x1.220432p-34f, -0x1.bd4f12p-21f, -0x1.1e2fc8p-24f, 0x1.b8f3f6p-34f,
    0x1.34bd08p-20f, 0x1.80eb3ap-22f, -0x1.9737f4p-35f, -0x1.24af4p-21f, -0x1.ec9bbap-21f, -0x1.438dd4p-35f,
};
static const float accel_band_b[3 * 27] = {
    -0x1.0f4962p-20f, -0x1.8756d4p-21f, -0x1.a54f14p-20f, 0x1.0f4962p-20f, -0x1.8756d4p-21f, -0x1.a54f14p-20f,
    -0x1.0f4962p-20f, 0x1.8756d4p-21f, -0x1.a54f14p-20f, 0x1.0f4962p-20f, 0x1.8756d4p-21f, -0x1.a54f14p-20f,
    -0x1.0f4962p-20f, -0x1.8756d4p-21f, 0x1.a54f14p-20f, 0x1.0f4962p-20f, -0x1.8756d4p-21f, 0x1.a54f14p-20f,
    -0x1.0f4962p-20f, 0x1.8756d4p-21f, 0x1.a54f14p-20f, 0x1.0f4962p-20f, 0x1.8756d4p-21f, 0x1.a54f14p-20f,
    -0x1.be6344p-21f, 0x1.8756d4p-21f, -0x1.a54f14p-20f, -0x1.0f4962p-20f, -0x1.8756d4p-21f, 0x1.42140cp-23f,
    0x1.0f4962p-20f, 0x1.8756d4p-21f, -0x1.aa5b1p-25f, -0x1.0f4962p-20f, 0x1.6b4602p-26f, 0x1.a54f14p-20f,
    0x1.0f4962p-20f, -0x1.8756d4p-21f, 0x1.404acap-21f, -0x1.0f4962p-20f, 0x1.3667dep-24f, 0x1.a54f14p-20f,
    -0x1.0f4962p-20f, 0x1.8756d4p-21f, -0x1.409464p-20f, 0x1.de6d6ep-23f, 0x1.8756d4p-21f, -0x1.a54f14p-20f,
    0x1.0f4962p-20f, 0x1.8756d4p-21f, -0x1.d3736ap-22f, -0x1.0f4962p-20f, -0x1.8756d4p-21f, 0x1.46af6ep-21f,
    0x1.0f4962p-20f, 0x1.1b7d68p-22f, 0x1.a54f14p-20f, 0x1.0f4962p-20f, 0x1.1f94e2p-23f, 0x1.a54f14p-20f,
    0x1.1995a4p-21f, -0x1.8756d4p-21f, -0x1.a54f14p-20f, -0x1.0f4962p-20f, -0x1.6b39dp-21f, -0x1.a54f14p-20f,
    0x1.0f4962p-20f, -0x1.783b2ep-23f, 0x1.a54f14p-20f, 0x1.06a39ep-24f, -0x1.8756d4p-21f, -0x1.a54f14p-20f,
    0x1.0b362p-20f, -0x1.8756d4p-21f, -0x1.a54f14p-20f, 0x1.0f4962p-20f, 0x1.3a041ap-21f, 0x1.a54f14p-20f,
    -0x1.09f5fep-20f, 0x1.8756d4p-21f, 0x1.a54f14p-20f,
};

static int accel_band_agreement(void)
{
    px_hull_def def = px_hull_default_def();
    def.climb_min_vertices = 1;
    px_hull* ha = NULL;
    px_hull* hb = NULL;
    PX_CHECK(px_hull_create(accel_band_a, 48, &def, &ha) >= 0 && px_hull_create(accel_band_b, 27, &def, &hb) >= 0);
    const px_shape sa = px_shape_from_hull(ha), sb = px_shape_from_hull(hb);
    const px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    px_transform tb = PX_TRANSFORM_IDENTITY_INIT;
    tb.p[2] = -0x1.a557p-20f;
    px_gjk_result g;
    bool overlap = false;
    px_contact c;
    PX_CHECK_STATUS(px_gjk_distance_world(&sa, &ta, &sb, &tb, NULL, &g), PX_OK);
    PX_CHECK_STATUS(px_gjk_overlap_world(&sa, &ta, &sb, &tb, NULL, &overlap), PX_OK);
    PX_CHECK_STATUS(px_contact_world(&sa, &ta, &sb, &tb, NULL, &c), PX_OK);
    px_hull_destroy(ha);
    px_hull_destroy(hb);
    if (overlap != (g.distance == 0.0f) || overlap != (c.distance <= 0.0f))
    {
        fprintf(stderr, "distance %g, contact %g, overlap %d\n", (double)g.distance, (double)c.distance, (int)overlap);
        return 1;
    }
    return 0;
}

int test_gjk_accuracy(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(oracle_self_check);
    PX_RUN_SUBTEST(reg_parallel_segments_far);
    PX_RUN_SUBTEST(reg_parallel_segments_small);
    PX_RUN_SUBTEST(reg_box_shapes_parallel_faces);
    PX_RUN_SUBTEST(reg_box_shape_triangle_swapped);
    PX_RUN_SUBTEST(reg_sliver_triangle_point_overlap);
    PX_RUN_SUBTEST(reg_point_sliver_triangle);
    PX_RUN_SUBTEST(reg_sliver_triangle_point_tiny);
    PX_RUN_SUBTEST(reg_point_sliver_triangle_scale);
    PX_RUN_SUBTEST(reg_triangle_segment_scale);
    PX_RUN_SUBTEST(reg_thin_boxes_overlap_scale);
    PX_RUN_SUBTEST(reg_sliver_simplex_witness_gap);
    PX_RUN_SUBTEST(reg_thin_box_flat_tetra_scale);
    PX_RUN_SUBTEST(random_pairs);
    PX_RUN_SUBTEST(large_hull_pairs);
    PX_RUN_SUBTEST(accel_band_agreement);
    PX_RUN_SUBTEST(accel_stalled_momentum);
    PX_SUITE_END;
}
