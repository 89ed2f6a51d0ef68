/* Ray-triangle: px_ray_triangle (Moller-Trumbore), px_ray_triangle_watertight and the inline kernel the
 * mesh BVH calls (pxi_watertight_hit, geometry/ray_triangle_internal.h).
 *
 * Contract under test (geometry.h): a hit with 0 <= t <= max_t returns true with t and the barycentric
 * weights u, v of b and c; front-only ignores rays with dot(D, cross(b - a, c - a)) >= 0; parallel rays,
 * rays in the plane and degenerate triangles miss; invalid input returns false and leaves the outputs
 * untouched; no output is ever NaN; the watertight test never lets a ray through a shared edge or vertex of
 * a closed mesh pass between the triangles around it.
 *
 * The oracle solves origin + t D = a + u E1 + v E2 by Cramer's rule in long double from the float inputs
 * (their differences are exact there; the 64-bit products leave errors ~1e-19). It classifies each random
 * case with margins: clearly inside (every weight >= BARY_MARGIN, t clearly in range), clearly outside, or
 * unclear (not asserted). Hits are compared when the case is well conditioned: the float error of t is
 * about FLT_EPSILON times cond_t = (1 + farthest vertex from the origin / hit distance) /
 * (shape * |cos incidence|), shape = |E1 x E2| / (longest edge)^2. t must be within 1e-6 relative when
 * cond_t <= WELL_COND, within T_K * FLT_EPSILON * cond_t otherwise; u and v within UV_K * FLT_EPSILON *
 * cond_uv (cond_uv = farthest vertex from the hit / (shape * |cos| * longest edge) + 1). The largest
 * errors seen are printed. */
#include <float.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "geometry/ray_triangle_internal.h"
#include "proxima/proxima.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

#define BARY_MARGIN 1.0e-3L /* weight margin of a clear inside / outside case */
#define WELL_COND 8.0L      /* cond_t at or below which t must be within REL_T */
#define REL_T 1.0e-6L       /* the task's relative t tolerance for well-conditioned cases */
#define T_K 4.0L            /* t tolerance (relative) of other clear cases: T_K * eps * cond_t */
#define UV_K 4.0L           /* u, v tolerance: UV_K * eps * cond_uv */
#define EPSL ((long double)FLT_EPSILON)

static const float k_offsets[3] = { 0.0f, 1.0e3f, 1.0e5f };

/* ------------------------------------------------------------------------------------------------------ */
/* Calls                                                                                                   */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct rt_case
{
    float o[3], d[3];
    float a[3], b[3], c[3];
    float max_t;
} rt_case;

typedef struct rt_out
{
    bool hit;
    float t, u, v;
} rt_out;

enum
{
    ALG_MT = 0,    /* px_ray_triangle */
    ALG_WT = 1,    /* px_ray_triangle_watertight */
    ALG_KERNEL = 2 /* pxi_watertight_hit with t_min = 0, t_max = max_t */
};
static const char* const k_alg_names[3] = { "moller-trumbore", "watertight", "watertight kernel" };

static rt_out run_alg(int alg, const rt_case* k, px_triangle_sides sides)
{
    rt_out r = { false, -7.0f, -7.0f, -7.0f };
    px_ray ray;
    memcpy(ray.origin, k->o, sizeof(ray.origin));
    memcpy(ray.direction, k->d, sizeof(ray.direction));
    ray.max_t = k->max_t;
    if (alg == ALG_MT)
    {
        r.hit = px_ray_triangle(&ray, k->a, k->b, k->c, sides, &r.t, &r.u, &r.v);
    }
    else if (alg == ALG_WT)
    {
        r.hit = px_ray_triangle_watertight(&ray, k->a, k->b, k->c, sides, &r.t, &r.u, &r.v);
    }
    else
    {
        pxi_watertight_ray wr;
        pxi_watertight_ray_init(&wr, k->o, k->d);
        r.hit = pxi_watertight_hit(&wr, k->a, k->b, k->c, sides == PX_TRIANGLE_FRONT_ONLY, 0.0f, k->max_t, &r.t, &r.u,
                                   &r.v);
    }
    return r;
}

static void dump_case(const char* label, const rt_case* k)
{
    fprintf(stderr,
            "  [%s] o = {%a, %a, %a}, d = {%a, %a, %a}, a = {%a, %a, %a}, b = {%a, %a, %a}, c = {%a, %a, %a}, "
            "max_t = %a\n",
            label, (double)k->o[0], (double)k->o[1], (double)k->o[2], (double)k->d[0], (double)k->d[1], (double)k->d[2],
            (double)k->a[0], (double)k->a[1], (double)k->a[2], (double)k->b[0], (double)k->b[1], (double)k->b[2],
            (double)k->c[0], (double)k->c[1], (double)k->c[2], (double)k->max_t);
}

/* Every hit's outputs are finite, with u, v in [0, 1] and t in [0, max_t]. */
static bool hit_sane(const rt_case* k, const rt_out* r)
{
    if (!r->hit)
    {
        return true;
    }
    return isfinite(r->t) && isfinite(r->u) && isfinite(r->v) && r->t >= 0.0f && r->t <= k->max_t && r->u >= 0.0f &&
           r->u <= 1.0f && r->v >= 0.0f && r->v <= 1.0f;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Long-double oracle                                                                                      */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct rt_oracle
{
    bool solvable;       /* triangle not degenerate, ray not parallel to it */
    long double t, u, v; /* o + t D = a + u E1 + v E2 */
    long double nd;      /* D . (E1 x E2): < 0 means the ray meets the front face */
    long double shape;   /* |E1 x E2| / (longest edge)^2, at most sqrt(3) / 2 */
    long double cosi;    /* |cos| of the angle between D and the normal */
    long double cond_t, cond_uv;
    long double t_err;   /* cond_t |t|, finite at t = 0: (|t| |D| + farthest vertex from origin) / (|D| shape cos) */
} rt_oracle;

static rt_oracle oracle_solve(const rt_case* k)
{
    rt_oracle r;
    memset(&r, 0, sizeof(r));
    ldv3 o, d, a, b, c, e1, e2, e3, s, n, md;
    ldv_from_f(k->o, o);
    ldv_from_f(k->d, d);
    ldv_from_f(k->a, a);
    ldv_from_f(k->b, b);
    ldv_from_f(k->c, c);
    ldv_sub(b, a, e1);
    ldv_sub(c, a, e2);
    ldv_sub(c, b, e3);
    ldv_sub(o, a, s);
    ldv_cross(e1, e2, n);
    r.nd = ldv_dot(d, n);
    long double nn = ldv_norm(n), dn = ldv_norm(d);
    long double le = fmaxl(ldv_norm(e1), fmaxl(ldv_norm(e2), ldv_norm(e3)));
    if (nn == 0.0L || r.nd == 0.0L || le == 0.0L)
    {
        return r;
    }
    r.solvable = true;
    r.shape = nn / (le * le);
    r.cosi = fabsl(r.nd) / (nn * dn);
    /* columns E1, E2, -D; right-hand side S */
    ldv_copy(d, md);
    md[0] = -md[0];
    md[1] = -md[1];
    md[2] = -md[2];
    ldv3 x;
    ldv_cross(e2, md, x);
    long double det = ldv_dot(e1, x);
    r.u = ldv_dot(s, x) / det;
    ldv_cross(s, md, x);
    r.v = ldv_dot(e1, x) / det;
    ldv_cross(e2, s, x);
    r.t = ldv_dot(e1, x) / det;
    /* condition numbers: distances from the origin and the hit point to the farthest vertex */
    ldv3 hit, ov;
    ldv_mad(o, r.t, d, hit);
    long double far_o = 0.0L, far_h = 0.0L;
    const long double* vs[3] = { a, b, c };
    for (int i = 0; i < 3; ++i)
    {
        ldv_sub(vs[i], o, ov);
        far_o = fmaxl(far_o, ldv_norm(ov));
        ldv_sub(vs[i], hit, ov);
        far_h = fmaxl(far_h, ldv_norm(ov));
    }
    long double hd = fabsl(r.t) * dn;
    r.cond_t = hd > 0.0L ? (1.0L + far_o / hd) / (r.shape * r.cosi) : INFINITY;
    r.t_err = (hd + far_o) / (dn * r.shape * r.cosi);
    r.cond_uv = 1.0L + far_h / (r.shape * r.cosi * le) + far_o / (r.shape * r.cosi * le);
    return r;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Random cases against the oracle                                                                         */
/* ------------------------------------------------------------------------------------------------------ */

static void to_f3(const double* d, float* f)
{
    f[0] = (float)d[0];
    f[1] = (float)d[1];
    f[2] = (float)d[2];
}

/* A random triangle of size `scale` around `center`, a ray origin 0.5 to 4 sizes away aimed at a point of
 * weights in [-0.25, 1.25] (sometimes lifted off the plane), a direction length of 1e-2 to 1e2, sometimes
 * reversed, and max_t infinite or near the hit. */
static void random_case(px_rng* rng, float offset, rt_case* k)
{
    double scale = pow(10.0, px_rng_range(rng, -3.0, 5.0));
    double dirv[3], center[3], p[3][3];
    px_rng_unit_vector(rng, dirv);
    for (int i = 0; i < 3; ++i)
    {
        center[i] = (double)offset * dirv[i];
    }
    for (int j = 0; j < 3; ++j)
    {
        for (int i = 0; i < 3; ++i)
        {
            p[j][i] = center[i] + scale * px_rng_normal(rng);
        }
    }
    to_f3(p[0], k->a);
    to_f3(p[1], k->b);
    to_f3(p[2], k->c);
    double u = px_rng_range(rng, -0.25, 1.25), v = px_rng_range(rng, -0.25, 1.25);
    if (px_rng_int(rng, 3) == 0)
    {
        /* fold into the triangle: more clear hits */
        if (u < 0.0 || u > 1.0 || v < 0.0 || v > 1.0 || u + v > 1.0)
        {
            u = px_rng_unit(rng) * 0.5;
            v = px_rng_unit(rng) * 0.5;
        }
    }
    double target[3], ov[3];
    px_rng_unit_vector(rng, ov);
    double dist = scale * px_rng_range(rng, 0.5, 4.0);
    for (int i = 0; i < 3; ++i)
    {
        double ka = (double)k->a[i], kb = (double)k->b[i], kc = (double)k->c[i];
        target[i] = ka + u * (kb - ka) + v * (kc - ka);
    }
    if (px_rng_int(rng, 8) == 0)
    {
        double lift[3];
        px_rng_unit_vector(rng, lift);
        for (int i = 0; i < 3; ++i)
        {
            target[i] += 0.05 * scale * lift[i];
        }
    }
    double origin[3];
    for (int i = 0; i < 3; ++i)
    {
        origin[i] = target[i] + dist * ov[i];
    }
    to_f3(origin, k->o);
    double len = pow(10.0, px_rng_range(rng, -2.0, 2.0)) / dist;
    double sign = px_rng_int(rng, 7) == 0 ? -1.0 : 1.0;
    for (int i = 0; i < 3; ++i)
    {
        k->d[i] = (float)(sign * (target[i] - (double)k->o[i]) * len);
    }
    /* t of the target is about 1 / len */
    int m = px_rng_int(rng, 4);
    k->max_t = m < 2 ? INFINITY : (float)(px_rng_range(rng, 0.3, 1.7) / len);
}

typedef struct err_stats
{
    long double max_rel_t_well; /* largest relative t error, cond_t <= WELL_COND */
    long double max_rel_t_all;  /* largest relative t error / (eps cond_t), other clear hits */
    long double max_uv;         /* largest u, v error / (eps cond_uv) */
    int hits_checked, well, misses_checked, unclear;
} err_stats;

/* Check one algorithm on one case against the oracle. */
static int check_against_oracle(int alg, const rt_case* k, px_triangle_sides sides, const rt_oracle* o, err_stats* st)
{
    rt_out r = run_alg(alg, k, sides);
    if (!hit_sane(k, &r))
    {
        dump_case(k_alg_names[alg], k);
        fprintf(stderr, "insane hit: t %a u %a v %a\n", (double)r.t, (double)r.u, (double)r.v);
        return 1;
    }
    if (!o->solvable)
    {
        st->unclear++;
        return 0;
    }
    long double w = 1.0L - o->u - o->v;
    long double bmin = fminl(w, fminl(o->u, o->v));
    long double tmax = (long double)k->max_t;
    /* t margin: relative to t, plus the rounding that a t near 0 still carries */
    long double tm = 1.0e-4L * fabsl(o->t) + 1.0e-30L;
    bool facing_ok = sides == PX_TRIANGLE_BOTH_SIDES || o->nd < 0.0L;
    bool clear_facing = sides == PX_TRIANGLE_BOTH_SIDES || o->cosi > 1.0e-3L;
    bool inside = bmin >= BARY_MARGIN && o->t >= tm && o->t <= tmax - tm && o->cosi > 1.0e-4L && o->shape > 1.0e-4L;
    /* A miss is clear only when the exact weights or t lie outside by more than the error a hit's are allowed
     * (UV_K eps cond_uv; T_K eps cond_t relative): the kernels decide exactly for inputs perturbed by about
     * eps times their distance from the origin (the rounded sheared coordinates), and within the first-order
     * effect of that perturbation some rounding of the inputs is a hit. This only matters for rays within a
     * few eps of the triangle's plane, where the watertight test may report a sane sliver hit (as it does for
     * rays in the plane, parallel_and_in_plane below). Sweeping PX_TEST_SEED found such rays: at offset 1e5 the
     * float origin of a triangle of size 1e-2 lands exactly in its plane (seeds 3, 5, 13, 14, 18: cos 6e-9 ..
     * 2e-8, cond_uv 2e8 .. 2e10, so the weights are good to 100 .. 8000 only; they were 0.4 .. 5.5 outside),
     * and at offset 1e3 a ray 1.8e-6 off the plane runs 4.4 units nearly along it (seed 6: cos 4.2e-7,
     * cond_uv 1.1e7, weights good to 5.4; it crosses at u + v = 1.10). */
    long double bm_out = fmaxl(BARY_MARGIN, UV_K * EPSL * o->cond_uv);
    long double tm_out = fmaxl(tm, T_K * EPSL * o->t_err);
    bool outside = bmin <= -bm_out || o->t <= -tm_out || o->t >= tmax + tm_out;
    if (inside && clear_facing && facing_ok)
    {
        if (!r.hit)
        {
            dump_case(k_alg_names[alg], k);
            fprintf(stderr,
                    "%s (sides %d) misses a clear hit: oracle t %.12Lg u %.9Lg v %.9Lg (cos %.3Lg, shape %.3Lg)\n",
                    k_alg_names[alg], (int)sides, o->t, o->u, o->v, o->cosi, o->shape);
            return 1;
        }
        long double et = fabsl((long double)r.t - o->t) / fabsl(o->t);
        long double eu = fmaxl(fabsl((long double)r.u - o->u), fabsl((long double)r.v - o->v));
        long double tol_t = o->cond_t <= WELL_COND ? REL_T : T_K * EPSL * o->cond_t;
        long double tol_uv = UV_K * EPSL * o->cond_uv;
        if (!(et <= tol_t) || !(eu <= tol_uv))
        {
            dump_case(k_alg_names[alg], k);
            fprintf(stderr,
                    "%s: t %a (oracle %.12Lg, rel err %.3Lg, tol %.3Lg, cond_t %.3Lg), u %a v %a (oracle %.9Lg %.9Lg, "
                    "err %.3Lg, tol %.3Lg)\n",
                    k_alg_names[alg], (double)r.t, o->t, et, tol_t, o->cond_t, (double)r.u, (double)r.v, o->u, o->v, eu,
                    tol_uv);
            return 1;
        }
        st->hits_checked++;
        if (o->cond_t <= WELL_COND)
        {
            st->well++;
            st->max_rel_t_well = fmaxl(st->max_rel_t_well, et);
        }
        st->max_rel_t_all = fmaxl(st->max_rel_t_all, et / (EPSL * o->cond_t));
        st->max_uv = fmaxl(st->max_uv, eu / (EPSL * o->cond_uv));
        return 0;
    }
    bool back_clear = sides == PX_TRIANGLE_FRONT_ONLY && o->nd > 0.0L && o->cosi > 1.0e-3L;
    if (outside || back_clear)
    {
        if (r.hit)
        {
            dump_case(k_alg_names[alg], k);
            fprintf(stderr, "%s (sides %d) hits a clear miss at t %a: oracle t %.12Lg u %.9Lg v %.9Lg, nd %.3Lg\n",
                    k_alg_names[alg], (int)sides, (double)r.t, o->t, o->u, o->v, o->nd);
            return 1;
        }
        st->misses_checked++;
        return 0;
    }
    st->unclear++;
    return 0;
}

static int random_against_oracle(void)
{
    px_rng rng = px_rng_seeded(0x7a1a7e57ull);
    err_stats st[2];
    memset(st, 0, sizeof(st));
    const int per_offset = 6000;
    for (int oi = 0; oi < 3; ++oi)
    {
        for (int n = 0; n < per_offset; ++n)
        {
            rt_case k;
            random_case(&rng, k_offsets[oi], &k);
            rt_oracle o = oracle_solve(&k);
            for (int alg = 0; alg < 2; ++alg)
            {
                for (int s = 0; s < 2; ++s)
                {
                    if (check_against_oracle(alg, &k, (px_triangle_sides)s, &o, &st[alg]) != 0)
                    {
                        fprintf(stderr, "  (offset %g, case %d)\n", (double)k_offsets[oi], n);
                        return 1;
                    }
                }
            }
        }
    }
    for (int alg = 0; alg < 2; ++alg)
    {
        printf("    %-16s %d clear hits (%d with cond_t <= %g: max rel t err %.3Lg), %d clear misses, %d unclear; "
               "max t err %.2Lg eps cond_t, max u,v err %.2Lg eps cond_uv\n",
               k_alg_names[alg], st[alg].hits_checked, st[alg].well, (double)WELL_COND, st[alg].max_rel_t_well,
               st[alg].misses_checked, st[alg].unclear, st[alg].max_rel_t_all, st[alg].max_uv);
    }
    /* the sampling must reach the well-conditioned regime and both kinds of clear cases */
    PX_CHECK(st[0].well > 1000 && st[1].well > 1000);
    PX_CHECK(st[0].misses_checked > 1000 && st[1].misses_checked > 1000);
    return 0;
}

/* The random cases the PX_TEST_SEED sweep found in random_against_oracle, frozen: rays within a few eps of the
 * triangle's plane (cos 6e-9 .. 4.2e-7) whose exact crossing lies outside the triangle by less than the
 * weights' error bound. The watertight test reports a sane hit on each; they are unclear cases, not clear
 * misses (see check_against_oracle). Each must still meet every check that applies. */
static int near_plane_cases(void)
{
    static const rt_case cases[] = {
        /* PX_TEST_SEED=3 */
        { { 0x1.b3eedap+15f, 0x1.844fb8p+15f, 0x1.0394a2p+16f },
          { 0x1.9d6d84p-5f, -0x1.8cc29ap-4f, -0x1.0aae9ap-7f },
          { 0x1.b3eedap+15f, 0x1.844fb6p+15f, 0x1.0394a4p+16f },
          { 0x1.b3eedcp+15f, 0x1.844fb6p+15f, 0x1.0394ap+16f },
          { 0x1.b3eedcp+15f, 0x1.844fb4p+15f, 0x1.0394a2p+16f },
          0x1.871fccp-4f },
        /* PX_TEST_SEED=5 */
        { { -0x1.5fb66ap+16f, -0x1.79d644p+12f, 0x1.509f1ap+15f },
          { -0x1.eff49cp-2f, -0x1.65d44ep+0f, 0x1.73f776p-1f },
          { -0x1.5fb66ap+16f, -0x1.79d62ep+12f, 0x1.509f1ap+15f },
          { -0x1.5fb66cp+16f, -0x1.79d6b6p+12f, 0x1.509f2p+15f },
          { -0x1.5fb66cp+16f, -0x1.79d6bap+12f, 0x1.509f2p+15f },
          0x1.0a2864p-7f },
        /* PX_TEST_SEED=6 */
        { { -0x1.7546d2p+9f, -0x1.0bc9c8p+8f, 0x1.2be718p+9f },
          { -0x1.d934dap-5f, -0x1.52eee6p-5f, 0x1.8447f6p-5f },
          { -0x1.771e22p+9f, -0x1.0f4782p+8f, 0x1.2dcbacp+9f },
          { -0x1.77a994p+9f, -0x1.0d0058p+8f, 0x1.2cdf98p+9f },
          { -0x1.7665dcp+9f, -0x1.0e7feep+8f, 0x1.2d514cp+9f },
          INFINITY },
        /* PX_TEST_SEED=13 */
        { { 0x1.046f7cp+16f, 0x1.091cc2p+15f, 0x1.0335dep+16f },
          { 0x1.2e7084p-5f, 0x1.2d2116p-8f, 0x1.c5011p-6f },
          { 0x1.046f7cp+16f, 0x1.091cc4p+15f, 0x1.0335ep+16f },
          { 0x1.046f84p+16f, 0x1.091cbep+15f, 0x1.0335dep+16f },
          { 0x1.046f88p+16f, 0x1.091ccp+15f, 0x1.0335e2p+16f },
          0x1.cb96dcp-3f },
        /* PX_TEST_SEED=14 */
        { { -0x1.81fc2ep+16f, 0x1.6da86ap+12f, 0x1.bc0ff6p+13f },
          { -0x1.c8c0d8p-5f, -0x1.51706p-5f, -0x1.185846p-4f },
          { -0x1.81fc3p+16f, 0x1.6da85ep+12f, 0x1.bc0feep+13f },
          { -0x1.81fc2ep+16f, 0x1.6da862p+12f, 0x1.bc0feep+13f },
          { -0x1.81fc2ep+16f, 0x1.6da85cp+12f, 0x1.bc0fe8p+13f },
          INFINITY },
        /* PX_TEST_SEED=18 */
        { { 0x1.5a5f58p+16f, 0x1.2acfc4p+15f, 0x1.95cbfcp+14f },
          { -0x1.1ef08ep+4f, -0x1.346ac6p+1f, 0x1.6c0b3ep+2f },
          { 0x1.5a5f54p+16f, 0x1.2acfc6p+15f, 0x1.95cbfep+14f },
          { 0x1.5a5f58p+16f, 0x1.2acfcp+15f, 0x1.95ccp+14f },
          { 0x1.5a5f56p+16f, 0x1.2acfc8p+15f, 0x1.95cbfap+14f },
          0x1.10bd1ep-12f }
    };
    err_stats st[2];
    memset(st, 0, sizeof(st));
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        rt_oracle o = oracle_solve(&cases[i]);
        /* what makes them ill-conditioned: the ray is within 4 eps of the plane */
        PX_CHECK(o.solvable && o.cosi < 4.0L * EPSL);
        for (int alg = 0; alg < 2; ++alg)
        {
            for (int s = 0; s < 2; ++s)
            {
                if (check_against_oracle(alg, &cases[i], (px_triangle_sides)s, &o, &st[alg]) != 0)
                {
                    fprintf(stderr, "  (frozen case %d)\n", (int)i);
                    return 1;
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Public and inline kernel agree; scale invariance of the direction                                        */
/* ------------------------------------------------------------------------------------------------------ */

static bool same_out(const rt_out* x, const rt_out* y)
{
    return x->hit == y->hit && (!x->hit || (x->t == y->t && x->u == y->u && x->v == y->v));
}

static int public_matches_kernel(void)
{
    px_rng rng = px_rng_seeded(0x5a3e0001ull);
    int hits = 0, scaled = 0;
    for (int n = 0; n < 20000; ++n)
    {
        rt_case k;
        random_case(&rng, k_offsets[n % 3], &k);
        for (int s = 0; s < 2; ++s)
        {
            rt_out pub = run_alg(ALG_WT, &k, (px_triangle_sides)s);
            rt_out ker = run_alg(ALG_KERNEL, &k, (px_triangle_sides)s);
            if (!same_out(&pub, &ker))
            {
                dump_case("public vs kernel", &k);
                fprintf(stderr, "public %d t %a u %a v %a, kernel %d t %a u %a v %a\n", pub.hit, (double)pub.t,
                        (double)pub.u, (double)pub.v, ker.hit, (double)ker.t, (double)ker.u, (double)ker.v);
                return 1;
            }
            hits += pub.hit ? 1 : 0;
            /* the same ray with its direction scaled by 2^j: the same answer, t scaled by 2^-j exactly (the public
             * functions rescale extreme directions by powers of two, which must change nothing) */
            int j = px_rng_int(&rng, 2) == 0 ? -(40 + px_rng_int(&rng, 60)) : 40 + px_rng_int(&rng, 60);
            rt_case ks = k;
            for (int i = 0; i < 3; ++i)
            {
                ks.d[i] = ldexpf(k.d[i], j);
            }
            ks.max_t = ldexpf(k.max_t, -j);
            float m = fmaxf(fabsf(ks.d[0]), fmaxf(fabsf(ks.d[1]), fabsf(ks.d[2])));
            float m0 = fmaxf(fabsf(k.d[0]), fmaxf(fabsf(k.d[1]), fabsf(k.d[2])));
            /* skip when the scaling itself rounds (subnormal components or range) */
            bool exact =
                m >= 0x1p-100f && m <= 0x1p100f && k.max_t == ldexpf(ks.max_t, j) && m0 >= 0x1p-20f && m0 <= 0x1p20f;
            for (int i = 0; i < 3; ++i)
            {
                exact = exact && ldexpf(ks.d[i], -j) == k.d[i];
            }
            if (!exact)
            {
                continue;
            }
            for (int alg = 0; alg < 2; ++alg)
            {
                rt_out r0 = run_alg(alg, &k, (px_triangle_sides)s);
                rt_out r1 = run_alg(alg, &ks, (px_triangle_sides)s);
                bool same = r0.hit == r1.hit && (!r0.hit || (r0.u == r1.u && r0.v == r1.v && ldexpf(r1.t, j) == r0.t));
                /* t so small that ldexpf(t, -j) went subnormal may lose bits: allow that case only */
                if (!same && r0.hit && r1.hit && r0.u == r1.u && r0.v == r1.v && fabsf(r1.t) < FLT_MIN)
                {
                    same = true;
                }
                if (!same)
                {
                    dump_case("scaled direction", &ks);
                    fprintf(stderr, "%s: direction * 2^%d: hit %d t %a u %a v %a, unscaled hit %d t %a u %a v %a\n",
                            k_alg_names[alg], j, r1.hit, (double)r1.t, (double)r1.u, (double)r1.v, r0.hit, (double)r0.t,
                            (double)r0.u, (double)r0.v);
                    return 1;
                }
                scaled++;
            }
        }
    }
    printf("    40000 rays: public watertight == kernel bit for bit (%d hits); %d scaled-direction comparisons equal\n",
           hits, scaled);
    PX_CHECK(hits > 5000 && scaled > 50000);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Analytic cases                                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

static void set3(float* d, float x, float y, float z)
{
    d[0] = x;
    d[1] = y;
    d[2] = z;
}

/* Both algorithms, both side modes, expect the same outcome. */
static int expect_both(const char* label, const rt_case* k, px_triangle_sides sides, bool hit, float t, float u,
                       float v, float tol)
{
    for (int alg = 0; alg < 3; ++alg)
    {
        rt_out r = run_alg(alg, k, sides);
        if (r.hit != hit || !hit_sane(k, &r))
        {
            dump_case(label, k);
            fprintf(stderr, "%s: %s (sides %d): hit %d (expected %d), t %a u %a v %a\n", label, k_alg_names[alg],
                    (int)sides, r.hit, hit, (double)r.t, (double)r.u, (double)r.v);
            return 1;
        }
        if (hit)
        {
            PX_CHECK_NEAR(r.t, t, tol * fabsf(t));
            PX_CHECK_NEAR(r.u, u, tol);
            PX_CHECK_NEAR(r.v, v, tol);
        }
    }
    return 0;
}

/* Exactly representable cases: hits with exact answers, the range ends, the sides. */
static int exact_cases(void)
{
    for (int oi = 0; oi < 3; ++oi)
    {
        float f = k_offsets[oi];
        rt_case k;
        set3(k.a, f + 0.0f, f + 0.0f, -f);
        set3(k.b, f + 4.0f, f + 0.0f, -f);
        set3(k.c, f + 0.0f, f + 4.0f, -f);
        /* normal +z; a ray down the z axis meets the front */
        set3(k.o, f + 1.0f, f + 2.0f, -f + 2.0f);
        set3(k.d, 0.0f, 0.0f, -1.0f);
        k.max_t = INFINITY;
        for (int s = 0; s < 2; ++s)
        {
            if (expect_both("down the axis", &k, (px_triangle_sides)s, true, 2.0f, 0.25f, 0.5f, 0.0f) != 0)
            {
                return 1;
            }
        }
        /* max_t is inclusive: exactly 2 hits, the float below misses */
        k.max_t = 2.0f;
        PX_CHECK(expect_both("max_t = t", &k, PX_TRIANGLE_BOTH_SIDES, true, 2.0f, 0.25f, 0.5f, 0.0f) == 0);
        k.max_t = nextafterf(2.0f, 0.0f);
        PX_CHECK(expect_both("max_t just below t", &k, PX_TRIANGLE_BOTH_SIDES, false, 0, 0, 0, 0) == 0);
        k.max_t = 1.0f;
        PX_CHECK(expect_both("max_t = t / 2", &k, PX_TRIANGLE_FRONT_ONLY, false, 0, 0, 0, 0) == 0);
        k.max_t = 0.0f;
        PX_CHECK(expect_both("max_t = 0", &k, PX_TRIANGLE_BOTH_SIDES, false, 0, 0, 0, 0) == 0);
        /* a longer direction: t in its units */
        k.max_t = INFINITY;
        set3(k.d, 0.0f, 0.0f, -8.0f);
        PX_CHECK(expect_both("long direction", &k, PX_TRIANGLE_BOTH_SIDES, true, 0.25f, 0.25f, 0.5f, 0.0f) == 0);
        /* origin on the triangle: t = 0 counts, even with max_t = 0 */
        set3(k.o, f + 1.0f, f + 1.0f, -f);
        k.max_t = 0.0f;
        PX_CHECK(expect_both("origin on the face", &k, PX_TRIANGLE_BOTH_SIDES, true, 0.0f, 0.25f, 0.25f, 0.0f) == 0);
        /* triangle behind the origin */
        set3(k.o, f + 1.0f, f + 1.0f, -f - 1.0f);
        k.max_t = INFINITY;
        PX_CHECK(expect_both("behind", &k, PX_TRIANGLE_BOTH_SIDES, false, 0, 0, 0, 0) == 0);
        /* from below (back face): both sides hit at t = 1, front-only misses */
        set3(k.d, 0.0f, 0.0f, 1.0f);
        PX_CHECK(expect_both("back face", &k, PX_TRIANGLE_BOTH_SIDES, true, 1.0f, 0.25f, 0.25f, 0.0f) == 0);
        PX_CHECK(expect_both("back face culled", &k, PX_TRIANGLE_FRONT_ONLY, false, 0, 0, 0, 0) == 0);
        /* outside, beyond the hypotenuse and beyond an edge */
        set3(k.o, f + 2.5f, f + 2.5f, -f + 1.0f);
        set3(k.d, 0.0f, 0.0f, -1.0f);
        PX_CHECK(expect_both("beyond the hypotenuse", &k, PX_TRIANGLE_BOTH_SIDES, false, 0, 0, 0, 0) == 0);
        set3(k.o, f - 0.5f, f + 1.0f, -f + 1.0f);
        PX_CHECK(expect_both("beyond edge ca", &k, PX_TRIANGLE_BOTH_SIDES, false, 0, 0, 0, 0) == 0);
        /* tiny and huge directions: t scales exactly (the public functions rescale by powers of two) */
        set3(k.o, f + 1.0f, f + 2.0f, -f + 2.0f);
        set3(k.d, 0.0f, 0.0f, -0x1p-100f);
        for (int alg = 0; alg < 2; ++alg)
        {
            rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            PX_CHECK(r.hit && r.t == 0x1p101f && r.u == 0.25f && r.v == 0.5f);
        }
        set3(k.d, 0.0f, 0.0f, -0x1p-140f); /* subnormal */
        for (int alg = 0; alg < 2; ++alg)
        {
            rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            PX_CHECK(!r.hit); /* t = 2^141 does not fit a float: a miss, not an infinite t */
        }
        if (oi == 0)
        {
            set3(k.o, 1.0f, 2.0f, 0x1p-18f); /* from 2^-18 above: t = 2^122 fits */
            for (int alg = 0; alg < 2; ++alg)
            {
                rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
                PX_CHECK(r.hit && r.t == 0x1p122f && r.u == 0.25f && r.v == 0.5f);
            }
        }
        set3(k.o, f + 1.0f, f + 2.0f, -f + 2.0f);
        set3(k.d, 0.0f, 0.0f, -0x1p100f);
        for (int alg = 0; alg < 2; ++alg)
        {
            rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            PX_CHECK(r.hit && r.t == 0x1p-99f && r.u == 0.25f && r.v == 0.5f);
        }
    }
    return 0;
}

/* Random triangles hit well inside from random directions, with both windings: both-sides hits both with the
 * same t and swapped weights; front-only hits exactly the winding whose normal faces against the ray. */
static int sides_and_windings(void)
{
    px_rng rng = px_rng_seeded(0x51de5ull);
    int front_hits = 0;
    for (int n = 0; n < 3000; ++n)
    {
        rt_case k;
        random_case(&rng, k_offsets[n % 3], &k);
        /* re-aim at a clearly interior point from a direction not grazing the plane */
        double w[3] = { px_rng_range(&rng, 0.15, 1.0), px_rng_range(&rng, 0.15, 1.0), px_rng_range(&rng, 0.15, 1.0) };
        double ws = w[0] + w[1] + w[2], p[3], dd[3];
        for (int i = 0; i < 3; ++i)
        {
            p[i] = (w[0] * (double)k.a[i] + w[1] * (double)k.b[i] + w[2] * (double)k.c[i]) / ws;
            dd[i] = p[i] - (double)k.o[i];
            k.d[i] = (float)dd[i];
        }
        k.max_t = INFINITY;
        rt_oracle o = oracle_solve(&k);
        if (!o.solvable || o.cosi < 0.2L || o.shape < 0.05L || o.t < 0.5L)
        {
            continue;
        }
        rt_case kr = k; /* the other winding: a, c, b */
        memcpy(kr.b, k.c, sizeof(kr.b));
        memcpy(kr.c, k.b, sizeof(kr.c));
        bool front = o.nd < 0.0L; /* abc faces the ray */
        for (int alg = 0; alg < 3; ++alg)
        {
            rt_out r0 = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            rt_out r1 = run_alg(alg, &kr, PX_TRIANGLE_BOTH_SIDES);
            if (!r0.hit || !r1.hit)
            {
                dump_case(k_alg_names[alg], &k);
                fprintf(stderr, "both sides: abc hit %d, acb hit %d\n", r0.hit, r1.hit);
                return 1;
            }
            PX_CHECK_NEAR(r0.t, r1.t, 1e-5 * (double)r0.t);
            PX_CHECK_NEAR(r0.u, r1.v, 1e-4);
            PX_CHECK_NEAR(r0.v, r1.u, 1e-4);
            rt_out f0 = run_alg(alg, &k, PX_TRIANGLE_FRONT_ONLY);
            rt_out f1 = run_alg(alg, &kr, PX_TRIANGLE_FRONT_ONLY);
            if (f0.hit != front || f1.hit != !front)
            {
                dump_case(k_alg_names[alg], &k);
                fprintf(stderr, "front only: abc hit %d, acb hit %d, expected abc %d (D . n = %.3Lg)\n", f0.hit, f1.hit,
                        front, o.nd);
                return 1;
            }
            /* a front hit is the both-sides hit */
            rt_out both = front ? r0 : r1;
            rt_out fr = front ? f0 : f1;
            PX_CHECK(same_out(&both, &fr));
            front_hits++;
        }
    }
    printf("    %d front-only hits, each on the winding facing the ray\n", front_hits);
    PX_CHECK(front_hits > 3000);
    return 0;
}

/* Rays parallel to the triangle's plane, and rays inside it. */
static int parallel_and_in_plane(void)
{
    px_rng rng = px_rng_seeded(0x9a7a11e1ull);
    int in_plane_wt_hits = 0, rounded = 0;
    for (int oi = 0; oi < 3; ++oi)
    {
        float f = k_offsets[oi];
        /* axis-aligned plane z = -f, exact: parallel off the plane and in the plane both miss */
        for (int n = 0; n < 500; ++n)
        {
            rt_case k;
            set3(k.a, f + 0.0f, f + 0.0f, -f);
            set3(k.b, f + 4.0f, f + 0.0f, -f);
            set3(k.c, f + 0.0f, f + 4.0f, -f);
            float ang = (float)px_rng_range(&rng, 0.0, 6.283185307179586);
            set3(k.d, cosf(ang), sinf(ang), 0.0f);
            float h = n % 3 == 0 ? 0.0f : (float)px_rng_range(&rng, -2.0, 2.0);
            set3(k.o, f + 1.0f - 3.0f * k.d[0], f + 1.0f - 3.0f * k.d[1], -f + h);
            k.max_t = INFINITY;
            for (int s = 0; s < 2; ++s)
            {
                if (expect_both(h == 0.0f ? "in the plane z = c" : "parallel to z = c", &k, (px_triangle_sides)s, false,
                                0, 0, 0, 0) != 0)
                {
                    return 1;
                }
            }
        }
        /* plane x + y + z = 3 + 3g with integer points, and in-plane directions whose largest component is a
         * power of two: every difference, product and shear constant in either algorithm is exact, so the
         * in-plane determinant is exactly 0 (with other directions the watertight shear rounds; see below) */
        static const float k_in_plane[10][3] = {
            { 4, -2, -2 }, { 2, -1, -1 }, { 4, -4, 0 }, { 0, 4, -4 }, { -4, 0, 4 },
            { 1, 1, -2 },  { -2, 1, 1 },  { 2, 2, -4 }, { -4, 2, 2 }, { 1, -2, 1 }
        };
        float g = f == 0.0f ? 0.0f : (f == 1.0e3f ? 1024.0f : 65536.0f);
        for (int n = 0; n < 200; ++n)
        {
            rt_case k;
            set3(k.a, g + 3.0f, g, g);
            set3(k.b, g, g + 3.0f, g);
            set3(k.c, g, g, g + 3.0f);
            const float* dd = k_in_plane[n % 10];
            float back = (float)(1 + px_rng_int(&rng, 3));
            int lift = (n / 10) % 2; /* 0: origin in the plane; 1: one unit above it (parallel ray) */
            /* from the centroid (1, 1, 1) + g, back along d: the ray crosses the triangle's middle */
            set3(k.o, g + 1.0f - back * dd[0], g + 1.0f - back * dd[1], g + 1.0f - back * dd[2] + (float)lift);
            memcpy(k.d, dd, sizeof(k.d));
            k.max_t = INFINITY;
            for (int s = 0; s < 2; ++s)
            {
                if (expect_both(lift ? "parallel to x + y + z = c" : "in the plane x + y + z = c", &k,
                                (px_triangle_sides)s, false, 0, 0, 0, 0) != 0)
                {
                    return 1;
                }
            }
        }
    }
    /* random planes, rounded: a direction in the plane from a point lifted off it (clear miss) or in it. In the
     * plane, Moller-Trumbore's determinant is within its rounding bound and must miss; the rounded shear of the
     * watertight test can give the projection a sliver of area, and then a hit, which must be sane. (That hit
     * is what keeps a mesh watertight for a ray along one of its faces: the neighbours' shared edge functions
     * carry the same rounding and leave the point to this triangle.) */
    for (int n = 0; n < 6000; ++n)
    {
        rt_case k;
        random_case(&rng, k_offsets[n % 3], &k);
        ldv3 a, b, c, e1, e2, nrm;
        ldv_from_f(k.a, a);
        ldv_from_f(k.b, b);
        ldv_from_f(k.c, c);
        ldv_sub(b, a, e1);
        ldv_sub(c, a, e2);
        ldv_cross(e1, e2, nrm);
        long double nn = ldv_norm(nrm), l1 = ldv_norm(e1), l2 = ldv_norm(e2);
        if (!(nn > 0.1L * l1 * l2))
        {
            continue;
        }
        /* centroid, and a direction in the plane through it */
        double cen[3], dir[3], rnd[3];
        px_rng_unit_vector(&rng, rnd);
        long double rn = (rnd[0] * nrm[0] + rnd[1] * nrm[1] + rnd[2] * nrm[2]) / (nn * nn);
        for (int i = 0; i < 3; ++i)
        {
            cen[i] = ((double)k.a[i] + (double)k.b[i] + (double)k.c[i]) / 3.0;
            dir[i] = (double)((long double)rnd[i] - rn * nrm[i]);
        }
        double scale = (double)fmaxl(l1, l2);
        bool lifted = n % 2 == 1;
        for (int i = 0; i < 3; ++i)
        {
            double lift = lifted ? 0.2 * scale * (double)(nrm[i] / nn) : 0.0;
            k.o[i] = (float)(cen[i] - 2.0 * scale * dir[i] + lift);
            k.d[i] = (float)dir[i];
        }
        k.max_t = INFINITY;
        if (lifted)
        {
            /* the lift as rounded: a triangle a few ulps across far from the origin (PX_TEST_SEED 27: edges of
             * 0.03 at 1.5e5, whose ulp is 0.016) can have its origin rounded back onto the plane, which is no
             * longer the lifted case */
            ldv3 o, r;
            ldv_from_f(k.o, o);
            ldv_sub(o, a, r);
            const long double height = (r[0] * nrm[0] + r[1] * nrm[1] + r[2] * nrm[2]) / nn;
            if (!(fabsl(height) >= 0.1L * (long double)scale))
            {
                continue;
            }
        }
        rt_oracle o = oracle_solve(&k);
        for (int s = 0; s < 2; ++s)
        {
            for (int alg = 0; alg < 3; ++alg)
            {
                rt_out r = run_alg(alg, &k, (px_triangle_sides)s);
                if (!hit_sane(&k, &r))
                {
                    dump_case("rounded plane", &k);
                    fprintf(stderr, "%s: insane hit t %a u %a v %a\n", k_alg_names[alg], (double)r.t, (double)r.u,
                            (double)r.v);
                    return 1;
                }
                /* lifted: the float ray crosses the plane (if at all) far outside the triangle */
                bool must_miss = lifted ? (!o.solvable || fabsl(o.t) > 1.0e3L * (long double)scale ||
                                           fminl(1.0L - o.u - o.v, fminl(o.u, o.v)) < -0.1L)
                                        : alg == ALG_MT;
                if (must_miss && r.hit)
                {
                    dump_case(lifted ? "parallel, lifted" : "in the plane", &k);
                    fprintf(stderr, "%s hits at t %a (oracle solvable %d, t %.6Lg)\n", k_alg_names[alg], (double)r.t,
                            o.solvable, o.t);
                    return 1;
                }
                if (!lifted && alg == ALG_KERNEL && s == 0)
                {
                    rounded++;
                    in_plane_wt_hits += r.hit ? 1 : 0;
                }
            }
        }
    }
    printf("    rounded in-plane rays: watertight reports a (sane) sliver hit on %d of %d\n", in_plane_wt_hits,
           rounded);
    return 0;
}

/* Coincident and exactly collinear vertices never hit, whatever the ray. */
static int degenerate_triangles(void)
{
    px_rng rng = px_rng_seeded(0xde9e4e7ull);
    int rounded_hits[3] = { 0, 0, 0 }, rounded_n = 0;
    for (int n = 0; n < 6000; ++n)
    {
        float f = k_offsets[n % 3];
        rt_case k;
        int kind = n % 6;
        /* p and w dyadic: every point p + j w / 4 is an exact float, at every offset */
        float p[3] = { f + (float)(px_rng_int(&rng, 64) - 32) * 0.125f, -f + (float)(px_rng_int(&rng, 64) - 32) * 0.25f,
                       0.5f * f + (float)(px_rng_int(&rng, 64) - 32) * 0.5f };
        float w[3] = { (float)(px_rng_int(&rng, 17) - 8) * 0.25f, (float)(px_rng_int(&rng, 17) - 8) * 0.5f,
                       (float)(px_rng_int(&rng, 17) - 8) * 0.125f };
        if (w[0] == 0.0f && w[1] == 0.0f && w[2] == 0.0f)
        {
            w[0] = 1.0f;
        }
        float ja = 0.0f, jb = 4.0f, jc = 9.0f; /* multiples of w / 4 */
        switch (kind)
        {
        case 0:
            jb = 0.0f;
            jc = 0.0f;
            break; /* a = b = c */
        case 1:
            jb = 0.0f;
            break; /* a = b */
        case 2:
            jc = jb;
            break; /* b = c */
        case 3:
            jc = 0.0f;
            break; /* c = a */
        case 4:
            jc = 2.0f;
            break; /* c between a and b */
        default:
            ja = -3.0f;
            jc = 6.0f;
            break; /* a, b, c in another order */
        }
        for (int i = 0; i < 3; ++i)
        {
            k.a[i] = p[i] + ja * 0.25f * w[i];
            k.b[i] = p[i] + jb * 0.25f * w[i];
            k.c[i] = p[i] + jc * 0.25f * w[i];
        }
        /* aim at a point of the segment (exact) from a random direction */
        float js = (float)(px_rng_int(&rng, 13) - 3);
        double dirv[3];
        px_rng_unit_vector(&rng, dirv);
        for (int i = 0; i < 3; ++i)
        {
            float target = p[i] + js * 0.25f * w[i];
            k.o[i] = (float)((double)target - 3.0 * dirv[i]);
            k.d[i] = target - k.o[i];
        }
        k.max_t = INFINITY;
        for (int s = 0; s < 2; ++s)
        {
            if (expect_both("degenerate", &k, (px_triangle_sides)s, false, 0, 0, 0, 0) != 0)
            {
                fprintf(stderr, "  (kind %d, offset %g)\n", kind, (double)f);
                return 1;
            }
        }
        /* nearly collinear: c = a + s (b - a) rounded to float, a true sliver (at the offsets its width is
         * 1e-5 of its length, above Moller-Trumbore's parallel bound): either algorithm may hit; sane if so */
        double sr = px_rng_range(&rng, -1.0, 2.0);
        for (int i = 0; i < 3; ++i)
        {
            k.a[i] = p[i];
            k.b[i] = p[i] + (float)(px_rng_normal(&rng) * 3.0);
            k.c[i] = (float)((double)k.a[i] + sr * ((double)k.b[i] - (double)k.a[i]));
            float target = (float)((double)k.a[i] + 0.5 * ((double)k.b[i] - (double)k.a[i]));
            k.o[i] = (float)((double)target - 3.0 * dirv[i]);
            k.d[i] = target - k.o[i];
        }
        rounded_n++;
        for (int alg = 0; alg < 3; ++alg)
        {
            rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            if (!hit_sane(&k, &r))
            {
                dump_case("rounded collinear", &k);
                fprintf(stderr, "%s: hit %d t %a u %a v %a\n", k_alg_names[alg], r.hit, (double)r.t, (double)r.u,
                        (double)r.v);
                return 1;
            }
            rounded_hits[alg] += r.hit ? 1 : 0;
        }
    }
    printf("    6000 exactly degenerate triangles: no hits; %d rounded-collinear slivers: hits %d (moller-trumbore), "
           "%d (watertight), all sane\n",
           rounded_n, rounded_hits[ALG_MT], rounded_hits[ALG_WT]);
    return 0;
}

/* Invalid input: false, outputs untouched. NULL outputs are allowed on valid input. */
static int invalid_input(void)
{
    rt_case base;
    set3(base.a, 0.0f, 0.0f, 0.0f);
    set3(base.b, 4.0f, 0.0f, 0.0f);
    set3(base.c, 0.0f, 4.0f, 0.0f);
    set3(base.o, 1.0f, 1.0f, 1.0f);
    set3(base.d, 0.0f, 0.0f, -1.0f);
    base.max_t = INFINITY;
    const float bad[3] = { NAN, INFINITY, -INFINITY };
    int calls = 0;
    for (int alg = 0; alg < 2; ++alg)
    {
        rt_out ok = run_alg(alg, &base, PX_TRIANGLE_BOTH_SIDES);
        PX_CHECK(ok.hit && ok.t == 1.0f);
        for (int field = 0; field < 5; ++field)
        {
            for (int comp = 0; comp < 3; ++comp)
            {
                for (int bi = 0; bi < 3; ++bi)
                {
                    rt_case k = base;
                    float* target = field == 0 ? k.o : field == 1 ? k.d : field == 2 ? k.a : field == 3 ? k.b : k.c;
                    target[comp] = bad[bi];
                    for (int s = 0; s < 2; ++s)
                    {
                        rt_out r = run_alg(alg, &k, (px_triangle_sides)s);
                        if (r.hit || r.t != -7.0f || r.u != -7.0f || r.v != -7.0f)
                        {
                            dump_case("non-finite", &k);
                            fprintf(stderr, "%s: hit %d, outputs %g %g %g\n", k_alg_names[alg], r.hit, (double)r.t,
                                    (double)r.u, (double)r.v);
                            return 1;
                        }
                        calls++;
                    }
                }
            }
        }
        const float bad_max_t[3] = { NAN, -1.0f, -INFINITY };
        for (int i = 0; i < 3; ++i)
        {
            rt_case k = base;
            k.max_t = bad_max_t[i];
            rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
            PX_CHECK(!r.hit && r.t == -7.0f && r.u == -7.0f && r.v == -7.0f);
        }
        rt_case k = base;
        set3(k.d, 0.0f, 0.0f, 0.0f);
        rt_out r = run_alg(alg, &k, PX_TRIANGLE_BOTH_SIDES);
        PX_CHECK(!r.hit && r.t == -7.0f && r.u == -7.0f && r.v == -7.0f);
        set3(k.d, -0.0f, 0.0f, -0.0f);
        r = run_alg(alg, &k, PX_TRIANGLE_FRONT_ONLY);
        PX_CHECK(!r.hit && r.t == -7.0f);
        if (alg == ALG_MT)
        {
            /* the kernel with a zero direction: no hit, no division by zero */
            rt_out rk = run_alg(ALG_KERNEL, &k, PX_TRIANGLE_BOTH_SIDES);
            PX_CHECK(!rk.hit && rk.t == -7.0f);
        }
        r = run_alg(alg, &base, (px_triangle_sides)2);
        PX_CHECK(!r.hit && r.t == -7.0f);
        r = run_alg(alg, &base, (px_triangle_sides)-1);
        PX_CHECK(!r.hit && r.t == -7.0f);
    }
    px_ray ray;
    memcpy(ray.origin, base.o, sizeof(ray.origin));
    memcpy(ray.direction, base.d, sizeof(ray.direction));
    ray.max_t = INFINITY;
    float t = -7.0f, u = -7.0f, v = -7.0f;
    PX_CHECK(!px_ray_triangle(NULL, base.a, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle(&ray, NULL, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle(&ray, base.a, NULL, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle(&ray, base.a, base.b, NULL, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle_watertight(NULL, base.a, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle_watertight(&ray, NULL, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle_watertight(&ray, base.a, NULL, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(!px_ray_triangle_watertight(&ray, base.a, base.b, NULL, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    PX_CHECK(t == -7.0f && u == -7.0f && v == -7.0f);
    PX_CHECK(px_ray_triangle(&ray, base.a, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, NULL, NULL, NULL));
    PX_CHECK(px_ray_triangle_watertight(&ray, base.a, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, NULL, NULL, NULL));
    /* max_t = -0 is >= 0: only t = 0 could hit, and this ray's t is 1 */
    ray.max_t = -0.0f;
    PX_CHECK(!px_ray_triangle(&ray, base.a, base.b, base.c, PX_TRIANGLE_BOTH_SIDES, &t, &u, &v));
    printf("    %d non-finite inputs rejected with outputs untouched\n", calls);
    return 0;
}

/* Random finite floats over the whole exponent range: any hit is finite, in range and has weights in [0, 1]. */
static float extreme_float(px_rng* rng)
{
    int e = px_rng_int(rng, 277) - 149; /* 2^-149 (subnormal) to 2^127 */
    float m = (float)px_rng_range(rng, 1.0, 2.0);
    float x = ldexpf(m, e);
    if (!isfinite(x))
    {
        x = FLT_MAX;
    }
    return px_rng_int(rng, 2) == 0 ? -x : x;
}

static int extreme_finite_inputs(void)
{
    px_rng rng = px_rng_seeded(0xe87e3eull);
    int hits[3] = { 0, 0, 0 };
    for (int n = 0; n < 60000; ++n)
    {
        rt_case k;
        /* mixes: all extreme, or a sane triangle with extreme ray, or the reverse */
        int mix = n % 3;
        double cen = px_rng_range(&rng, -1.0, 1.0);
        for (int i = 0; i < 3; ++i)
        {
            bool ext_tri = mix != 1, ext_ray = mix != 2;
            k.a[i] = ext_tri ? extreme_float(&rng) : (float)(cen + px_rng_normal(&rng));
            k.b[i] =
                ext_tri ? (px_rng_int(&rng, 2) ? k.a[i] : extreme_float(&rng)) : (float)(cen + px_rng_normal(&rng));
            k.c[i] = ext_tri ? extreme_float(&rng) : (float)(cen + px_rng_normal(&rng));
            k.o[i] = ext_ray ? extreme_float(&rng) : (float)px_rng_normal(&rng) * 3.0f;
            k.d[i] = ext_ray ? extreme_float(&rng) : (float)px_rng_normal(&rng);
        }
        if (n % 5 == 0)
        {
            /* aim at the triangle's centroid, computed in double: more chances of a hit */
            for (int i = 0; i < 3; ++i)
            {
                double cen3 = ((double)k.a[i] + (double)k.b[i] + (double)k.c[i]) / 3.0;
                double di = cen3 - (double)k.o[i];
                k.d[i] = fabs(di) <= (double)FLT_MAX ? (float)di : (di > 0 ? FLT_MAX : -FLT_MAX);
            }
        }
        k.max_t = n % 4 == 0 ? extreme_float(&rng) : INFINITY;
        k.max_t = fabsf(k.max_t);
        float m = fmaxf(fabsf(k.d[0]), fmaxf(fabsf(k.d[1]), fabsf(k.d[2])));
        for (int alg = 0; alg < 3; ++alg)
        {
            if (alg == ALG_KERNEL && !(m >= 0x1p-126f))
            {
                continue; /* the kernel's documented limit on the direction */
            }
            for (int s = 0; s < 2; ++s)
            {
                rt_out r = run_alg(alg, &k, (px_triangle_sides)s);
                if (!hit_sane(&k, &r))
                {
                    dump_case("extreme", &k);
                    fprintf(stderr, "%s: insane hit t %a u %a v %a\n", k_alg_names[alg], (double)r.t, (double)r.u,
                            (double)r.v);
                    return 1;
                }
                hits[alg] += r.hit ? 1 : 0;
            }
        }
    }
    printf("    60000 extreme-magnitude cases: hits %d (moller-trumbore), %d (watertight), %d (kernel), all finite\n",
           hits[0], hits[1], hits[2]);
    return 0;
}

/* The kernel's inside test is exact on its own sheared coordinates: for rays through points within an ulp or
 * two of an edge, its decision equals the one made from the signs of the edge functions computed exactly
 * (long double holds float products exactly and rounds their difference once, which keeps the sign) from the
 * same float sheared coordinates. This is the property watertightness rests on; it checks the double
 * recomputation of edge functions that round to exactly 0 in float (whose true sign may be either). */
static int exact_edge_signs(void)
{
    px_rng rng = px_rng_seeded(0xed9e5ull);
    int float_zero = 0, float_zero_nonzero = 0, cases = 0, hits = 0;
    for (int n = 0; n < 40000; ++n)
    {
        rt_case k;
        random_case(&rng, n % 4 == 3 ? 1.0e3f : 0.0f, &k);
        /* a point of edge ab (or a vertex), nudged by up to 2 ulps per coordinate */
        double sv = n % 10 == 0 ? 0.0 : px_rng_unit(&rng);
        float target[3];
        for (int i = 0; i < 3; ++i)
        {
            target[i] = (float)((double)k.a[i] + sv * ((double)k.b[i] - (double)k.a[i]));
            int nudge = px_rng_int(&rng, 5) - 2;
            for (; nudge > 0; --nudge)
            {
                target[i] = nextafterf(target[i], INFINITY);
            }
            for (; nudge < 0; ++nudge)
            {
                target[i] = nextafterf(target[i], -INFINITY);
            }
            k.d[i] = target[i] - k.o[i];
        }
        k.max_t = INFINITY;
        if (k.d[0] == 0.0f && k.d[1] == 0.0f && k.d[2] == 0.0f)
        {
            continue;
        }
        rt_oracle o = oracle_solve(&k);
        if (!o.solvable || o.shape < 1.0e-3L || o.cosi < 1.0e-3L || o.t < 0.1L)
        {
            continue; /* the exact decision below ignores the range, the in-plane and degenerate cases */
        }
        pxi_watertight_ray wr;
        pxi_watertight_ray_init(&wr, k.o, k.d);
        /* the same float sheared coordinates as the kernel (same operations, no contraction) */
        const float* v3[3] = { k.a, k.b, k.c };
        float sx[3], sy[3];
        for (int i = 0; i < 3; ++i)
        {
            float z = v3[i][wr.kz] - wr.org[wr.kz];
            sx[i] = (v3[i][wr.kx] - wr.org[wr.kx]) - wr.sx * z;
            sy[i] = (v3[i][wr.ky] - wr.org[wr.ky]) - wr.sy * z;
        }
        /* U: edge bc, V: ca, W: ab */
        const int e0[3] = { 2, 0, 1 }, e1[3] = { 1, 2, 0 };
        int sgn[3];
        bool any_float_zero = false;
        for (int e = 0; e < 3; ++e)
        {
            int i = e0[e], j = e1[e];
            float ff = sx[i] * sy[j] - sy[i] * sx[j];
            long double fe = (long double)sx[i] * (long double)sy[j] - (long double)sy[i] * (long double)sx[j];
            sgn[e] = fe > 0.0L ? 1 : (fe < 0.0L ? -1 : 0);
            if (ff == 0.0f)
            {
                any_float_zero = true;
                float_zero_nonzero += fe != 0.0L ? 1 : 0;
            }
        }
        float_zero += any_float_zero ? 1 : 0;
        bool has_neg = sgn[0] < 0 || sgn[1] < 0 || sgn[2] < 0;
        bool has_pos = sgn[0] > 0 || sgn[1] > 0 || sgn[2] > 0;
        bool expect = !(has_neg && has_pos) && (has_neg || has_pos);
        float t, u, v;
        bool got = pxi_watertight_hit(&wr, k.a, k.b, k.c, 0, 0.0f, INFINITY, &t, &u, &v);
        if (got != expect)
        {
            dump_case("exact edge signs", &k);
            fprintf(stderr, "kernel hit %d, exact edge signs %d %d %d\n", got, sgn[0], sgn[1], sgn[2]);
            return 1;
        }
        cases++;
        hits += got ? 1 : 0;
    }
    printf("    %d rays within 2 ulps of an edge: kernel == exact edge signs (%d hits); %d with a float edge function "
           "of exactly 0, %d of them nonzero in exact arithmetic\n",
           cases, hits, float_zero, float_zero_nonzero);
    PX_CHECK(cases > 20000 && float_zero_nonzero > 10);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Watertightness on closed meshes                                                                          */
/* ------------------------------------------------------------------------------------------------------ */

#define MAX_VALENCE 16

typedef struct rt_mesh
{
    int nv, nt;
    float* v;         /* packed xyz */
    int* tri;         /* 3 per triangle, front face outwards (sphere) or up (grid) */
    double* vd;       /* unrounded vertices (before the offset), for normals and directions */
    int* inc_n;       /* triangles around each vertex */
    int* inc;         /* [nv][MAX_VALENCE] */
    double grid_half; /* grid: half its width (vertices closer to the middle than half - 0.5 are interior) */
} rt_mesh;

static void mesh_free(rt_mesh* m)
{
    free(m->v);
    free(m->tri);
    free(m->vd);
    free(m->inc_n);
    free(m->inc);
    memset(m, 0, sizeof(*m));
}

static int mesh_finish(rt_mesh* m, const double offset[3])
{
    m->v = (float*)malloc(sizeof(float) * 3 * (size_t)m->nv);
    m->inc_n = (int*)calloc((size_t)m->nv, sizeof(int));
    m->inc = (int*)malloc(sizeof(int) * MAX_VALENCE * (size_t)m->nv);
    if (m->v == NULL || m->inc_n == NULL || m->inc == NULL)
    {
        return 1;
    }
    for (int i = 0; i < 3 * m->nv; ++i)
    {
        m->v[i] = (float)(m->vd[i] + offset[i % 3]);
    }
    for (int t = 0; t < m->nt; ++t)
    {
        for (int j = 0; j < 3; ++j)
        {
            int vi = m->tri[3 * t + j];
            if (m->inc_n[vi] >= MAX_VALENCE)
            {
                return 1;
            }
            m->inc[vi * MAX_VALENCE + m->inc_n[vi]++] = t;
        }
    }
    return 0;
}

/* Midpoint of edge (i, j), created once per edge (linear search: small meshes). */
static int ico_mid(double* vd, int* nv, int* ekeys, int* evals, int* ne, int i, int j)
{
    int lo = i < j ? i : j, hi = i < j ? j : i;
    for (int e = 0; e < *ne; ++e)
    {
        if (ekeys[2 * e] == lo && ekeys[2 * e + 1] == hi)
        {
            return evals[e];
        }
    }
    double p[3], len = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        p[k] = 0.5 * (vd[3 * i + k] + vd[3 * j + k]);
        len += p[k] * p[k];
    }
    len = sqrt(len);
    int idx = (*nv)++;
    for (int k = 0; k < 3; ++k)
    {
        vd[3 * idx + k] = p[k] / len;
    }
    ekeys[2 * *ne] = lo;
    ekeys[2 * *ne + 1] = hi;
    evals[(*ne)++] = idx;
    return idx;
}

/* Icosphere of radius r (levels of 4-way subdivision), centred at offset. */
static int build_icosphere(int levels, double r, const double offset[3], rt_mesh* m)
{
    memset(m, 0, sizeof(*m));
    int max_t = 20, max_v = 12;
    for (int l = 0; l < levels; ++l)
    {
        max_v += max_t * 3 / 2;
        max_t *= 4;
    }
    m->vd = (double*)malloc(sizeof(double) * 3 * (size_t)max_v);
    m->tri = (int*)malloc(sizeof(int) * 3 * (size_t)max_t);
    int* tmp = (int*)malloc(sizeof(int) * 3 * (size_t)max_t);
    int* ekeys = (int*)malloc(sizeof(int) * 2 * (size_t)max_t * 3);
    int* evals = (int*)malloc(sizeof(int) * (size_t)max_t * 3);
    if (m->vd == NULL || m->tri == NULL || tmp == NULL || ekeys == NULL || evals == NULL)
    {
        free(tmp);
        free(ekeys);
        free(evals);
        return 1;
    }
    const double g = (1.0 + sqrt(5.0)) / 2.0;
    const double iv[12][3] = { { -1, g, 0 },  { 1, g, 0 },  { -1, -g, 0 }, { 1, -g, 0 }, { 0, -1, g },  { 0, 1, g },
                               { 0, -1, -g }, { 0, 1, -g }, { g, 0, -1 },  { g, 0, 1 },  { -g, 0, -1 }, { -g, 0, 1 } };
    const int it[20][3] = { { 0, 11, 5 }, { 0, 5, 1 },  { 0, 1, 7 },   { 0, 7, 10 }, { 0, 10, 11 },
                            { 1, 5, 9 },  { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },
                            { 3, 9, 4 },  { 3, 4, 2 },  { 3, 2, 6 },   { 3, 6, 8 },  { 3, 8, 9 },
                            { 4, 9, 5 },  { 2, 4, 11 }, { 6, 2, 10 },  { 8, 6, 7 },  { 9, 8, 1 } };
    double il = sqrt(1.0 + g * g);
    for (int i = 0; i < 12; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            m->vd[3 * i + k] = iv[i][k] / il;
        }
    }
    memcpy(m->tri, it, sizeof(it));
    m->nv = 12;
    m->nt = 20;
    for (int l = 0; l < levels; ++l)
    {
        int ne = 0, nt = 0;
        for (int t = 0; t < m->nt; ++t)
        {
            int a = m->tri[3 * t], b = m->tri[3 * t + 1], c = m->tri[3 * t + 2];
            int ab = ico_mid(m->vd, &m->nv, ekeys, evals, &ne, a, b);
            int bc = ico_mid(m->vd, &m->nv, ekeys, evals, &ne, b, c);
            int ca = ico_mid(m->vd, &m->nv, ekeys, evals, &ne, c, a);
            const int nt4[4][3] = { { a, ab, ca }, { b, bc, ab }, { c, ca, bc }, { ab, bc, ca } };
            memcpy(&tmp[3 * nt], nt4, sizeof(nt4));
            nt += 4;
        }
        memcpy(m->tri, tmp, sizeof(int) * 3 * (size_t)nt);
        m->nt = nt;
    }
    free(tmp);
    free(ekeys);
    free(evals);
    for (int i = 0; i < 3 * m->nv; ++i)
    {
        m->vd[i] *= r;
    }
    /* front faces outwards */
    for (int t = 0; t < m->nt; ++t)
    {
        const double* a = &m->vd[3 * m->tri[3 * t]];
        const double* b = &m->vd[3 * m->tri[3 * t + 1]];
        const double* c = &m->vd[3 * m->tri[3 * t + 2]];
        double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        if (n[0] * a[0] + n[1] * a[1] + n[2] * a[2] < 0.0)
        {
            int s = m->tri[3 * t + 1];
            m->tri[3 * t + 1] = m->tri[3 * t + 2];
            m->tri[3 * t + 2] = s;
        }
    }
    return mesh_finish(m, offset);
}

/* Height field of cells x cells unit quads with random heights, split along alternating diagonals, faces up. */
static int build_grid(int cells, px_rng* rng, const double offset[3], rt_mesh* m)
{
    memset(m, 0, sizeof(*m));
    int n = cells + 1;
    m->nv = n * n;
    m->nt = 2 * cells * cells;
    m->grid_half = 0.5 * cells;
    m->vd = (double*)malloc(sizeof(double) * 3 * (size_t)m->nv);
    m->tri = (int*)malloc(sizeof(int) * 3 * (size_t)m->nt);
    if (m->vd == NULL || m->tri == NULL)
    {
        return 1;
    }
    for (int j = 0; j < n; ++j)
    {
        for (int i = 0; i < n; ++i)
        {
            double* p = &m->vd[3 * (j * n + i)];
            p[0] = (double)i - 0.5 * cells;
            p[1] = (double)j - 0.5 * cells;
            p[2] = px_rng_range(rng, -0.3, 0.3);
        }
    }
    int t = 0;
    for (int j = 0; j < cells; ++j)
    {
        for (int i = 0; i < cells; ++i)
        {
            int v00 = j * n + i, v10 = v00 + 1, v01 = v00 + n, v11 = v01 + 1;
            int q[6];
            if ((i + j) % 2 == 0)
            {
                int qq[6] = { v00, v10, v11, v00, v11, v01 };
                memcpy(q, qq, sizeof(q));
            }
            else
            {
                int qq[6] = { v00, v10, v01, v10, v11, v01 };
                memcpy(q, qq, sizeof(q));
            }
            memcpy(&m->tri[3 * t], q, sizeof(q));
            t += 2;
        }
    }
    return mesh_finish(m, offset);
}

/* The triangles around a target: those touching vertex i, or either end of edge (i, j) (j < 0: vertex). */
static int ring_of(const rt_mesh* m, int i, int j, int* out)
{
    int n = 0;
    for (int e = 0; e < 2; ++e)
    {
        int vi = e == 0 ? i : j;
        if (vi < 0)
        {
            continue;
        }
        for (int k = 0; k < m->inc_n[vi]; ++k)
        {
            int t = m->inc[vi * MAX_VALENCE + k];
            bool dup = false;
            for (int q = 0; q < n; ++q)
            {
                dup = dup || out[q] == t;
            }
            if (!dup)
            {
                out[n++] = t;
            }
        }
    }
    return n;
}

typedef struct wt_stats
{
    int rays, exact, front_rays;
    int wt_miss, mt_miss, wt_front_miss, mt_front_miss;
} wt_stats;

/* One ray through the float point `target` (t = 1 there), tested against the ring around it with every
 * algorithm. A ray "hits the target" when some ring triangle reports a hit near t = 1: within 1e-4 plus 64
 * ulps of the coordinates, in length units (the target is on the surface only to within its rounding). */
static int shoot(const rt_mesh* m, const int* ring, int nring, const float target[3], const double toward[3],
                 double len, bool front_check, wt_stats* st, px_rng* rng)
{
    rt_case k;
    memset(&k, 0, sizeof(k)); /* a, b, c unused: a miss is dumped with the ray only */
    bool exact = false;
    /* the origin is target + len * toward; retry a few lengths for a ray that passes exactly through target
     * (origin + direction == target in exact arithmetic) */
    for (int attempt = 0; attempt < 6 && !exact; ++attempt)
    {
        double l = len * (1.0 + 0.1 * (double)attempt * px_rng_unit(rng));
        exact = true;
        for (int i = 0; i < 3; ++i)
        {
            k.o[i] = (float)((double)target[i] + l * toward[i]);
            k.d[i] = (float)((double)target[i] - (double)k.o[i]);
            exact = exact && (double)k.o[i] + (double)k.d[i] == (double)target[i];
        }
    }
    k.max_t = INFINITY;
    double cmax = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        cmax = fmax(cmax, fabs((double)target[i]));
    }
    int ce;
    (void)frexp(cmax, &ce);
    double dl = sqrt((double)k.d[0] * k.d[0] + (double)k.d[1] * k.d[1] + (double)k.d[2] * k.d[2]);
    float win = (float)((1e-4 + 64.0 * ldexp(1.0, ce - 24)) / dl);
    pxi_watertight_ray wr;
    pxi_watertight_ray_init(&wr, k.o, k.d);
    px_ray ray;
    memcpy(ray.origin, k.o, sizeof(ray.origin));
    memcpy(ray.direction, k.d, sizeof(ray.direction));
    ray.max_t = INFINITY;
    bool all_front = front_check;
    for (int q = 0; q < nring && all_front; ++q)
    {
        /* every triangle around must face the ray clearly for the front-only check to make sense */
        const int* tv = &m->tri[3 * ring[q]];
        const double* a = &m->vd[3 * tv[0]];
        const double* b = &m->vd[3 * tv[1]];
        const double* c = &m->vd[3 * tv[2]];
        double e1[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, e2[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
        double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
        double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double dn = n[0] * (double)k.d[0] + n[1] * (double)k.d[1] + n[2] * (double)k.d[2];
        all_front = dn < -0.1 * nn * dl;
    }
    bool hit[4] = { false, false, false, false }; /* wt, mt, wt front, mt front */
    for (int q = 0; q < nring; ++q)
    {
        const int* tv = &m->tri[3 * ring[q]];
        const float* a = &m->v[3 * tv[0]];
        const float* b = &m->v[3 * tv[1]];
        const float* c = &m->v[3 * tv[2]];
        for (int mode = 0; mode < (all_front ? 2 : 1); ++mode)
        {
            float t, u, v;
            if (pxi_watertight_hit(&wr, a, b, c, mode, 0.0f, INFINITY, &t, &u, &v) && fabsf(t - 1.0f) <= win)
            {
                hit[2 * mode] = true;
            }
            if (px_ray_triangle(&ray, a, b, c, mode ? PX_TRIANGLE_FRONT_ONLY : PX_TRIANGLE_BOTH_SIDES, &t, &u, &v) &&
                fabsf(t - 1.0f) <= win)
            {
                hit[2 * mode + 1] = true;
            }
        }
    }
    st->rays++;
    st->exact += exact ? 1 : 0;
    if (!hit[0])
    {
        if (st->wt_miss < 5)
        {
            dump_case("watertight miss", &k);
        }
        st->wt_miss++;
    }
    st->mt_miss += hit[1] ? 0 : 1;
    if (all_front)
    {
        st->front_rays++;
        if (!hit[2])
        {
            if (st->wt_front_miss < 5)
            {
                dump_case("watertight front-only miss", &k);
            }
            st->wt_front_miss++;
        }
        st->mt_front_miss += hit[3] ? 0 : 1;
    }
    return 0;
}

/* A direction within `cone` radians of unit axis n. */
static void cone_dir(px_rng* rng, const double n[3], double cone, double out[3])
{
    for (int tries = 0; tries < 100; ++tries)
    {
        double r[3];
        px_rng_unit_vector(rng, r);
        double c = r[0] * n[0] + r[1] * n[1] + r[2] * n[2];
        if (c >= cos(cone))
        {
            memcpy(out, r, sizeof(r));
            return;
        }
        /* pull towards n until inside the cone */
        double s = px_rng_unit(rng) * tan(cone);
        double p[3] = { r[0] - c * n[0], r[1] - c * n[1], r[2] - c * n[2] };
        double pl = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        if (pl > 1e-9)
        {
            double o[3] = { n[0] + s * p[0] / pl, n[1] + s * p[1] / pl, n[2] + s * p[2] / pl };
            double ol = sqrt(o[0] * o[0] + o[1] * o[1] + o[2] * o[2]);
            for (int i = 0; i < 3; ++i)
            {
                out[i] = o[i] / ol;
            }
            return;
        }
    }
    memcpy(out, n, sizeof(double) * 3);
}

/* Whether the triangles around vertex vi close around it: every sphere vertex, the grid's interior ones.
 * Rays are only aimed at points whose surroundings are closed (a target near a boundary vertex may round
 * onto it, and a ray through a boundary vertex can rightly miss). */
static bool vertex_closed(const rt_mesh* m, int vi)
{
    if (m->grid_half == 0.0)
    {
        return true;
    }
    const double* p = &m->vd[3 * vi];
    return fabs(p[0]) < m->grid_half - 0.5 && fabs(p[1]) < m->grid_half - 0.5;
}

/* Shoot at every shared edge (4 points each) and every vertex whose triangles close around it, from
 * `dirs_out` directions on the front side (outside / above) and `dirs_in` on the back side. `is_sphere`:
 * the front side is along the radius; else along +z. */
static int shoot_mesh(const rt_mesh* m, bool is_sphere, const double center[3], px_rng* rng, wt_stats* st)
{
    int ring[4 * MAX_VALENCE];
    /* edges shared by two triangles */
    for (int t = 0; t < m->nt; ++t)
    {
        for (int e = 0; e < 3; ++e)
        {
            int i = m->tri[3 * t + e], j = m->tri[3 * t + (e + 1) % 3];
            /* each shared edge once: from the triangle where it runs i -> j with i < j; its neighbour runs j -> i */
            if (i > j)
            {
                continue;
            }
            bool shared = false;
            for (int k = 0; k < m->inc_n[j] && !shared; ++k)
            {
                const int* tv = &m->tri[3 * m->inc[j * MAX_VALENCE + k]];
                for (int q = 0; q < 3; ++q)
                {
                    shared = shared || (tv[q] == j && tv[(q + 1) % 3] == i);
                }
            }
            if (!shared || !vertex_closed(m, i) || !vertex_closed(m, j))
            {
                continue;
            }
            int nring = ring_of(m, i, j, ring);
            const float* a = &m->v[3 * i];
            const float* b = &m->v[3 * j];
            const double s_list[4] = { 0.5, 0.25, px_rng_range(rng, 0.0, 1.0), px_rng_range(rng, 0.98, 1.0) };
            for (int si = 0; si < 4; ++si)
            {
                float target[3];
                double nrm[3];
                for (int k = 0; k < 3; ++k)
                {
                    target[k] = (float)((double)a[k] + s_list[si] * ((double)b[k] - (double)a[k]));
                    double pd = m->vd[3 * i + k] + s_list[si] * (m->vd[3 * j + k] - m->vd[3 * i + k]);
                    nrm[k] = is_sphere ? pd : (k == 2 ? 1.0 : 0.0);
                }
                double nl = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
                for (int k = 0; k < 3; ++k)
                {
                    nrm[k] /= nl;
                }
                for (int dk = 0; dk < 6; ++dk)
                {
                    double w[3];
                    cone_dir(rng, nrm, is_sphere ? 0.8 : 0.7, w);
                    bool outside = dk < 3;
                    double len = outside ? px_rng_range(rng, 1.0, 4.0) : px_rng_range(rng, 0.3, 0.9);
                    if (!outside)
                    {
                        w[0] = -w[0];
                        w[1] = -w[1];
                        w[2] = -w[2];
                    }
                    shoot(m, ring, nring, target, w, len, outside, st, rng);
                }
            }
        }
    }
    /* vertices with a closed fan: sphere all, grid interior */
    for (int vi = 0; vi < m->nv; ++vi)
    {
        const double* pd = &m->vd[3 * vi];
        if (!vertex_closed(m, vi))
        {
            continue;
        }
        int nring = ring_of(m, vi, -1, ring);
        double nrm[3] = { 0.0, 0.0, 1.0 };
        if (is_sphere)
        {
            double nl = sqrt(pd[0] * pd[0] + pd[1] * pd[1] + pd[2] * pd[2]);
            for (int k = 0; k < 3; ++k)
            {
                nrm[k] = pd[k] / nl;
            }
        }
        for (int dk = 0; dk < 6; ++dk)
        {
            double w[3];
            cone_dir(rng, nrm, is_sphere ? 0.8 : 0.7, w);
            bool outside = dk < 3;
            double len = outside ? px_rng_range(rng, 1.0, 4.0) : px_rng_range(rng, 0.3, 0.9);
            if (!outside)
            {
                w[0] = -w[0];
                w[1] = -w[1];
                w[2] = -w[2];
            }
            shoot(m, ring, nring, &m->v[3 * vi], w, len, outside, st, rng);
        }
    }
    (void)center;
    return 0;
}

static int watertight_meshes(void)
{
    px_rng rng = px_rng_seeded(0x3a7e7716ull);
    int total_wt_miss = 0, total_mt_miss = 0, total_rays = 0;
    for (int kind = 0; kind < 2; ++kind)
    {
        for (int oi = 0; oi < 3; ++oi)
        {
            double f = (double)k_offsets[oi];
            double offset[3] = { f, -0.5 * f, 0.25 * f };
            rt_mesh m;
            int err = kind == 0 ? build_icosphere(3, 2.0, offset, &m) : build_grid(24, &rng, offset, &m);
            if (err != 0)
            {
                mesh_free(&m);
                fprintf(stderr, "mesh build failed\n");
                return 1;
            }
            wt_stats st;
            memset(&st, 0, sizeof(st));
            shoot_mesh(&m, kind == 0, offset, &rng, &st);
            printf("    %-9s offset %-6g %5d tris: %6d rays (%d exactly through the point), watertight misses %d, "
                   "moller-trumbore misses %d; front-only %d rays: watertight misses %d, moller-trumbore %d\n",
                   kind == 0 ? "icosphere" : "grid", f, m.nt, st.rays, st.exact, st.wt_miss, st.mt_miss, st.front_rays,
                   st.wt_front_miss, st.mt_front_miss);
            total_wt_miss += st.wt_miss + st.wt_front_miss;
            total_mt_miss += st.mt_miss + st.mt_front_miss;
            total_rays += st.rays;
            int front_rays = st.front_rays;
            mesh_free(&m);
            PX_CHECK(st.rays > 10000 && front_rays > st.rays / 4);
        }
    }
    printf("    %d rays at shared edges and vertices: watertight misses %d (must be 0), moller-trumbore misses %d "
           "(not asserted)\n",
           total_rays, total_wt_miss, total_mt_miss);
    PX_CHECK(total_wt_miss == 0);
    return 0;
}

int test_ray_triangle(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(exact_cases);
    PX_RUN_SUBTEST(random_against_oracle);
    PX_RUN_SUBTEST(near_plane_cases);
    PX_RUN_SUBTEST(public_matches_kernel);
    PX_RUN_SUBTEST(sides_and_windings);
    PX_RUN_SUBTEST(parallel_and_in_plane);
    PX_RUN_SUBTEST(degenerate_triangles);
    PX_RUN_SUBTEST(invalid_input);
    PX_RUN_SUBTEST(extreme_finite_inputs);
    PX_RUN_SUBTEST(exact_edge_signs);
    PX_RUN_SUBTEST(watertight_meshes);
    PX_SUITE_END;
}
