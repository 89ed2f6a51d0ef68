/* Ray casts against posed convex shapes, and shape casts (cast.h).
 *
 * Spheres (rounded points), capsules (rounded segments along y) and plain boxes have closed forms. Every
 * other shape, and every other rounded core, goes through the GJK ray cast of van den Bergen, "Ray Casting
 * against General Convex Objects with Application to Continuous Collision Detection" (2004). A shape cast
 * is the same ray cast on the Minkowski difference: B moved by lambda r touches A when lambda r lies in
 * A - B inflated by the radii sum R. One loop (cast_run) serves both; for a ray, B is the ray's point.
 *
 * The loop keeps a simplex of support pairs (p on A, q on B where B starts) and B's displacement
 * x = lambda r. v is the point of the simplex of A - B(lambda) nearest the origin (from B towards A), and
 * each step takes the support point w of A - B(lambda) against v:
 *  - when the plane through w normal to v separates by more than R + tol/2, B cannot touch A before it
 *    crosses that plane: lambda advances to where the plane is R + tol/2 away (conservative advancement:
 *    never past the first contact), or the cast misses when the motion does not approach the plane, or
 *    would cross it only beyond lambda_max;
 *  - otherwise w joins the simplex and v is recomputed, as in GJK (the simplex solver is GJK's);
 * until |v| <= R + tol (contact within the band), the simplex encloses the origin, or GJK's duality gap
 * says v is already the distance (which the separation test then puts within the band).
 * So a contact closer than tol/2 is always found, one farther than tol never, and a hit stops between
 * tol/2 and tol short of touching. tol is relative to the shapes' size, never below the rounding floor of
 * the float arithmetic on their coordinates (PXI_CAST_TOL_FLOOR).
 *
 * Robustness, from the failures catalogued in KNOWN_FAILURES.md 2.4 and 2.5:
 *  - the miss test only needs v.r <= 0 for a plane separated beyond the band, so a contact normal
 *    perpendicular to the motion (a box sliding along a face, Jolt #2049) is a hit when within the band
 *    and a miss only when provably apart;
 *  - a hit after any advance has a unit normal, from the last separating plane when the final v is too
 *    short to give a direction (Jolt PR #217: no zero normal when the loop stops early);
 *  - when a GJK step makes no progress (degenerate simplex, Bullet #93) the distance at the current lambda
 *    is recomputed by the full GJK loop (pxi_gjk_run) and the cast continues from its simplex;
 *  - far from the shape the start is first moved to a bounding sphere, so that the coordinates the loop
 *    works with are of the shapes' size and the band is not swamped by the rounding of large offsets;
 *  - the box slab test divides instead of multiplying by reciprocals: no 0 * inf NaN for zero direction
 *    components with origins on a slab plane (ArborX #1226, tinybvh #286);
 *  - every comparison that decides an exit is written so that NaN takes the exit; loops are bounded. */
#include "gjk_internal.h"

#include "proxima/cast.h"

/* Define PX_CAST_TRACE when compiling this file to print every iteration (debugging only). */
#ifdef PX_CAST_TRACE
#include <stdio.h>
#define CAST_TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define CAST_TRACE(...) ((void)0)
#endif

#define PXI_CAST_COOKIE 0x50584343 /* "PXCC" */

/* The contact band never drops below this multiple of FLT_EPSILON times the size of the coordinates: GJK's
 * duality gap is only known to 16 FLT_EPSILON |w| (PX_GJK_ROUNDING_FACTOR), and the band's lower half
 * must stay above that for the separation test to decide. */
#define PXI_CAST_TOL_FLOOR (32.0f * FLT_EPSILON)

/* Rounding noise of the duality gap |v|^2 - v.w, as a multiple of FLT_EPSILON |v| |w| (as in gjk.c). */
#define PXI_CAST_NOISE (PX_GJK_ROUNDING_FACTOR * FLT_EPSILON)

/* The final |v| gives the contact normal when it is at least this many times its rounding noise (the
 * direction is then good to 1e-3 radians); shorter, the last separating plane's normal is used. */
#define PXI_CAST_NORMAL_MARGIN 1024.0f

/* A rounded contact's normal is converged by a full GJK at the contact (the polish) when the cores are
 * at least this many times the rounding noise apart: its direction is then good to noise / |v|, 1/16 rad
 * at worst, which beats the last separating plane's, good only to about sqrt(tol / |v|) (tol >= 2 noise).
 * A sphere of radius 0.005 hitting a unit box's corner had its normal 0.055 rad off with the polish
 * reserved for radii above PXI_CAST_NORMAL_MARGIN noises (review 63). */
#define PXI_CAST_POLISH_MARGIN 16.0f

/* Iterations of the full GJK that converges the normal at a rounded contact (not counted against
 * max_iterations: the contact is already found). */
#define PXI_CAST_POLISH_ITERATIONS 32

/* When the iteration bound is hit (or the loop stalls), the best estimate counts as a hit if the shapes
 * are closer than this many bands there (|v| bounds their distance from above). */
#define PXI_CAST_GIVE_UP_BANDS 4.0f

/* A hit within this many FLT_EPSILON (relative) beyond a ray's max_t counts, reported at max_t. */
#define PXI_RAY_MAX_T_SLACK (4.0f * FLT_EPSILON)

px_cast_config px_cast_default_config(void)
{
    px_cast_config c;
    c.max_iterations = PX_CAST_MAX_ITERATIONS;
    c.rel_tolerance = PX_CAST_REL_TOLERANCE;
    c.internal_value = PXI_CAST_COOKIE;
    return c;
}

/* --------------------------------------------------------------------------------------------------- */
/* Small helpers */

/* |v| for any finite v: divided by its largest component first, so nothing over- or underflows. */
static float length_any(const vec3 v)
{
    float m = px_maxf(fabsf(v[0]), px_maxf(fabsf(v[1]), fabsf(v[2])));
    if (!(m > 0.0f))
    {
        return 0.0f;
    }
    vec3 u = { v[0] / m, v[1] / m, v[2] / m };
    return m * sqrtf(px_v3_norm2(u));
}

/* First lambda >= 0 at which c + lambda r enters the closed ball of radius rho about the origin.
 * Returns 0 when c is already in the ball (lambda = 0), 1 for an entry at *lambda, -1 for a miss (moving
 * away, passing by, or an entry too far for a float). r may be zero. Double precision: float inputs
 * cannot overflow it, and the tangent cases (capsule sides, grazing spheres) keep their digits.
 * The entry is c2 / (-b + sqrt(a disc)), the root without cancellation, with the discriminant from the
 * perpendicular offset rather than b^2 - a c2 (Haines et al., "Precision Improvements for Ray/Sphere
 * Intersection", Ray Tracing Gems, 2019). */
static int ball_entry(const vec3 c, const vec3 r, float rho, float* lambda)
{
    *lambda = 0.0f;
    double cx = c[0], cy = c[1], cz = c[2];
    double rx = r[0], ry = r[1], rz = r[2];
    double rr = (double)rho * (double)rho;
    double c2 = cx * cx + cy * cy + cz * cz - rr;
    if (c2 <= 0.0)
    {
        return 0;
    }
    double b = cx * rx + cy * ry + cz * rz;
    if (!(b < 0.0))
    {
        return -1; /* outside and not approaching (this includes r = 0) */
    }
    double a = rx * rx + ry * ry + rz * rz;
    double k = b / a;
    double px = cx - k * rx, py = cy - k * ry, pz = cz - k * rz;
    double disc = rr - (px * px + py * py + pz * pz);
    if (!(disc >= 0.0))
    {
        return -1;
    }
    double t = c2 / (-b + sqrt(a * disc));
    if (!(t <= (double)FLT_MAX))
    {
        return -1;
    }
    *lambda = (float)t;
    return 1;
}

/* Centre and half diagonal of the bounding box of a pair's core A (side 0) or B (side 1), in that shape's
 * own frame, from six support points through the pair's resolved mapping. False when a support point is
 * not finite (a NaN or overflowing hull point, a bad user support function). */
static bool core_bounds(const pxi_gjk_pair* pair, int side, vec3 center, float* half_diagonal)
{
    const px_shape* s = side == 0 ? pair->a : pair->b;
    pxi_hull_scan_fn scan = side == 0 ? pair->scan_a : pair->scan_b;
    const float* scanned = side == 0 ? pair->scanned_a : pair->scanned_b;
    const struct px_hull* climb = side == 0 ? pair->climb_a : pair->climb_b;
    vec3 half;
    for (int i = 0; i < 3; ++i)
    {
        vec3 dir = { 0.0f, 0.0f, 0.0f };
        vec3 hi, lo;
        dir[i] = 1.0f;
        int32_t ih = pxi_support_local(s, scan, scanned, climb, &pair->climb_start[side], dir, hi);
        dir[i] = -1.0f;
        int32_t il = pxi_support_local(s, scan, scanned, climb, &pair->climb_start[side], dir, lo);
        if (ih == PXI_SUPPORT_NON_FINITE || il == PXI_SUPPORT_NON_FINITE || !px_v3_is_finite(hi) ||
            !px_v3_is_finite(lo))
        {
            return false;
        }
        /* halves first: hi + lo can overflow for finite coordinates near FLT_MAX */
        center[i] = 0.5f * hi[i] + 0.5f * lo[i];
        half[i] = 0.5f * hi[i] - 0.5f * lo[i];
    }
    *half_diagonal = length_any(half);
    return px_is_finite(*half_diagonal);
}

/* Turn a normal n (unit) so that it faces the ray direction u (unit): dot(n, u) < 0. A tangent hit has n
 * perpendicular to u up to rounding, so its dot can come out slightly positive, or positive when a caller
 * recomputes it with other roundings; its component along u is set to -PXI_TANGENT_TILT, which tilts it by
 * a few ulps and keeps the sign in any precision. */
#define PXI_TANGENT_TILT (8.0f * FLT_EPSILON)
static void face_against(vec3 n, const vec3 u)
{
    float dn = px_v3_dot(n, u);
    if (dn > -PXI_TANGENT_TILT)
    {
        px_v3_mad(n, -(dn + PXI_TANGENT_TILT), u, n);
        if (!px_v3_normalize_any(n, n))
        {
            px_v3_negate(u, n);
        }
    }
    if (!(px_v3_norm2(n) > 0.0f))
    {
        px_v3_negate(u, n);
    }
}

/* --------------------------------------------------------------------------------------------------- */
/* The GJK cast loop */

/* One cast: B (at pair.pos_b) moves by lambda r, lambda in [0, lambda_max], against A, in A's frame. */
typedef struct cast_query
{
    pxi_gjk_pair pair;  /* A, and B where the sweep starts */
    vec3 r;             /* displacement of B per unit lambda */
    vec3 guess;         /* first search direction v (from B towards A); not zero */
    float lambda_max;   /* largest lambda searched (may be INFINITY) */
    float radius_a;     /* rounding radius of A */
    float radius;       /* rounding radii sum R */
    float tol;          /* contact band [Units: length] */
    float coord;        /* size of the coordinates the loop works with: rounding errors are eps times it */
    int max_iterations; /* bound on support steps, the GJK refinements included */
} cast_query;

typedef struct cast_outcome
{
    bool hit;
    bool moved;   /* lambda advanced before the contact (false: touching at the start) */
    float lambda; /* contact at lambda (hit only) */
    vec3 normal;  /* unit, from A to B, when hit and moved; else zero */
    vec3 point;   /* a point of A's rounded surface at the contact; of both shapes when !moved */
    int iterations;
} cast_outcome;

/* The full GJK distance at displacement x, started along axis: for when a cast step stalls, and to
 * converge the contact normal at a hit. The simplex comes back with q at B's start (q - x) so the cast
 * loop can continue from it. */
static px_status refine_at(const cast_query* cq, const vec3 x, const vec3 axis, int budget, px_simplex* s,
                           vec3 v, float* vv, int* iterations, bool* overlap)
{
    pxi_gjk_pair moved = cq->pair;
    moved.climb_start = moved.climb_storage; /* a copied pair must use its own climb state */
    px_v3_add(moved.pos_b, x, moved.pos_b);
    px_gjk_config config = px_gjk_default_config();
    config.max_iterations = budget > 0 ? budget : 1;
    px_simplex_cache start;
    memset(&start, 0, sizeof(start));
    px_v3_copy(axis, start.axis); /* no vertices: only the start direction is used */
    pxi_gjk_state st;
    px_status status = pxi_gjk_run(&moved, &config, &start, -1.0f, &st);
    *iterations = st.iterations;
    if (status < 0)
    {
        return status;
    }
    *s = st.simplex;
    for (int i = 0; i < s->count; ++i)
    {
        px_v3_sub(s->v[i].q, x, s->v[i].q);
    }
    px_v3_copy(st.v, v);
    *vv = st.vv;
    *overlap = st.exit == PX_GJK_EXIT_OVERLAP;
    return status;
}

/* Witness point on A of the simplex and the outcome's point and normal. */
static void finish_hit(const cast_query* cq, const px_simplex* s, const vec3 v, float vv, const vec3 n_adv,
                       bool moved, bool polished, cast_outcome* out)
{
    vec3 pa, pb;
    pxi_simplex_witness_refined(s, pa, pb);
    out->hit = true;
    out->moved = moved;
    px_v3_zero(out->normal);
    float vlen = sqrtf(vv);
    if (!moved)
    {
        /* touching or overlapping at the start: no normal; a point of both shapes, on the segment between
         * the cores at the radii's ratio when the cores are apart (as px_gjk_distance reports overlap) */
        px_v3_copy(pa, out->point);
        if (cq->radius > 0.0f && vlen > 0.0f)
        {
            px_v3_mad(pa, -(cq->radius_a / cq->radius), v, out->point);
        }
        return;
    }
    /* v = point_a - point_b points from B to A, and so does every separating plane's v; the normal from A
     * to B is its opposite. The final v when it is long enough to give a direction (a polished v, converged
     * by a full GJK, from PXI_CAST_POLISH_MARGIN noises), else the last plane's (R = 0: v ends within the
     * band, a few ulps long), else (no plane was ever used: the start was moved to a bounding sphere and
     * touched at once, within rounding) the motion, B approaching A along r. */
    const float margin = polished ? PXI_CAST_POLISH_MARGIN : PXI_CAST_NORMAL_MARGIN;
    vec3 b_to_a;
    if (!(vlen > margin * PXI_CAST_NOISE * cq->coord && px_v3_normalize_any(v, b_to_a)) &&
        !px_v3_normalize_any(n_adv, b_to_a) && !px_v3_normalize_any(cq->r, b_to_a))
    {
        px_v3_set(-1.0f, 0.0f, 0.0f, b_to_a);
    }
    px_v3_negate(b_to_a, out->normal);
    px_v3_mad(pa, cq->radius_a, out->normal, out->point);
}

/* Hot loop: a few support calls per cast. Returns PX_OK, PX_WARN_MAX_ITERATIONS or PX_WARN_DEGENERATE
 * (best estimate: the conservative lambda, a hit when the shapes are within PXI_CAST_GIVE_UP_BANDS bands
 * there), or PX_ERR_NON_FINITE. */
static px_status cast_run(const cast_query* cq, cast_outcome* out)
{
    const pxi_gjk_pair* pair = &cq->pair;
    const float t_hit = cq->radius + cq->tol;
    const float t_sep = cq->radius + 0.5f * cq->tol;
    memset(out, 0, sizeof(*out));

    px_simplex s;
    memset(&s, 0, sizeof(s));
    vec3 v, x = { 0.0f, 0.0f, 0.0f }, n_adv = { 0.0f, 0.0f, 0.0f };
    px_v3_copy(cq->guess, v);
    float vv = px_v3_norm2(v);
    float lambda = 0.0f;
    bool moved = false;
    bool refined = false; /* the full GJK already ran at this lambda */
    int verdict = 0;      /* 0 running, 1 hit, -1 miss */
    px_status status = PX_OK;
    int iter = 0;

    while (verdict == 0 && iter < cq->max_iterations)
    {
        ++iter;
        vec3 d, p, q, qx, w;
        px_v3_negate(v, d);
        int32_t ib;
        int32_t ia = pxi_support_ab(pair, d, v, p, q, &ib);
        px_v3_add(q, x, qx);
        px_v3_sub(p, qx, w);
        if (PX_UNLIKELY(ia == PXI_SUPPORT_NON_FINITE || ib == PXI_SUPPORT_NON_FINITE || !px_v3_is_finite(w)))
        {
            out->iterations = iter;
            return PX_ERR_NON_FINITE;
        }
        float vlen = sqrtf(vv);
        float vw = px_v3_dot(v, w);
        bool advanced = false;
        if (vw > t_sep * vlen)
        {
            /* The plane through w normal to v has all of A - B(lambda) beyond R + tol/2: any v proves it,
             * the start guess included. B's motion moves that set by -r per unit lambda. */
            float vr = px_v3_dot(v, cq->r);
            if (!(vr > 0.0f))
            {
                verdict = -1; /* the plane never gets closer: apart beyond the band for good */
                break;
            }
            float next = lambda + (vw - t_sep * vlen) / vr;
            if (!(next <= cq->lambda_max))
            {
                verdict = -1; /* crosses only past the end of the sweep (NaN takes this exit too) */
                break;
            }
            /* A step below the rounding of lambda leaves x where it is; then this is a GJK step at the
             * same x, and the plane is as close to the band as lambda can resolve. */
            if (next > lambda)
            {
                lambda = next;
                moved = true;
                refined = false;
                px_v3_copy(v, n_adv);
                px_v3_scale(cq->r, lambda, x);
                for (int i = 0; i < s.count; ++i)
                {
                    vec3 qi;
                    px_v3_add(s.v[i].q, x, qi);
                    px_v3_sub(s.v[i].p, qi, s.v[i].w);
                }
                px_v3_add(q, x, qx);
                px_v3_sub(p, qx, w);
                advanced = true;
            }
        }
        CAST_TRACE("cast %d: lambda %.9g |v| %.9g v.w/|v| %.9g count %d%s\n", iter, lambda, vlen, vw / vlen,
                   s.count, advanced ? " advanced" : "");
        /* v is the closest point of the simplex (not the start guess) */
        const bool had_simplex = s.count > 0;
        if (!advanced && had_simplex)
        {
            /* Here v.w <= (R + tol/2) |v| (or lambda cannot move), so when the gap |v|^2 - v.w is within
             * rounding (the points w are differences of coordinates of size coord), or w is already a
             * vertex (then |v|^2 <= v.w), |v| is the distance and within the band. */
            float gap = vv - vw;
            if (gap <= PXI_CAST_NOISE * cq->coord * vlen || pxi_simplex_contains(&s, w, ia, ib))
            {
                verdict = 1;
                break;
            }
        }
        if (!(advanced && pxi_simplex_contains(&s, w, ia, ib)))
        {
            /* q is stored where B starts, w at the current x */
            pxi_simplex_push(&s, p, q, ia, ib);
            px_v3_copy(w, s.v[s.count - 1].w);
        }
        vec3 v_new;
        float bary[4];
        bool degenerate = false;
        /* After an advance every vertex moved, so any feature may be nearest: full solve. Otherwise the
         * new vertex lies beyond v's plane and GJK's newest-feature solve applies. */
        uint32_t f = advanced ? pxi_simplex_solve(&s, bary, v_new, &degenerate)
                              : pxi_simplex_solve_newest(&s, -1.0f, bary, v_new, &degenerate);
        if (f == 15u)
        {
            pxi_simplex_commit(&s, f, bary);
            px_v3_zero(v);
            vv = 0.0f;
            verdict = 1; /* the origin is inside the cores' difference: the cores overlap */
            break;
        }
        float vv_new = px_v3_norm2(v_new);
        if (!advanced && had_simplex && !(vv_new < vv))
        {
            /* No progress at this lambda (rounding floor or a degenerate simplex): drop the new vertex and
             * let the full GJK loop, with its stall handling, settle the distance here. Written so that a
             * NaN |v| takes this branch too. */
            s.count--;
            if (refined)
            {
                status = PX_WARN_DEGENERATE;
                break;
            }
            int used = 0;
            bool overlap = false;
            px_status rs = refine_at(cq, x, v, cq->max_iterations - iter, &s, v, &vv, &used, &overlap);
            iter += used;
            if (rs < 0)
            {
                out->iterations = iter;
                return rs;
            }
            refined = true;
            if (overlap || vv <= t_hit * t_hit)
            {
                verdict = 1;
            }
            continue;
        }
        pxi_simplex_commit(&s, f, bary);
        px_v3_copy(v_new, v);
        vv = vv_new;
        if (vv <= t_hit * t_hit)
        {
            verdict = 1;
        }
    }
    out->iterations = iter;
    if (verdict == 0)
    {
        /* out of iterations, or stalled twice at one lambda: lambda is still conservative */
        if (status == PX_OK)
        {
            status = PX_WARN_MAX_ITERATIONS;
        }
        verdict = sqrtf(vv) <= cq->radius + PXI_CAST_GIVE_UP_BANDS * cq->tol && s.count > 0 ? 1 : -1;
    }
    const float polish_floor = PXI_CAST_POLISH_MARGIN * PXI_CAST_NOISE * cq->coord;
    bool polished = false;
    if (verdict > 0 && moved && cq->radius > 0.0f && vv > polish_floor * polish_floor)
    {
        /* The loop stops as soon as |v| is within the band, and with rounded shapes v's direction is then
         * the normal; but a simplex whose |v| is within tol / 2 of the distance R can still point up to
         * sqrt(tol / R) away from the true closest direction. A full GJK at the contact converges it. */
        px_simplex ps;
        vec3 pv;
        float pvv = 0.0f;
        int used = 0;
        bool overlap = false;
        px_status rs = refine_at(cq, x, v, PXI_CAST_POLISH_ITERATIONS, &ps, pv, &pvv, &used, &overlap);
        iter += used;
        out->iterations = iter;
        if (rs < 0)
        {
            return rs;
        }
        if (!overlap && pvv > polish_floor * polish_floor)
        {
            s = ps;
            px_v3_copy(pv, v);
            vv = pvv;
            polished = true;
        }
    }
    if (verdict > 0)
    {
        out->lambda = lambda;
        finish_hit(cq, &s, v, vv, n_adv, moved, polished, out);
    }
    return status;
}

/* --------------------------------------------------------------------------------------------------- */
/* Rays */

/* A ray in a shape's local frame: origin o, unit direction u, searched up to lambda_max (length units). */
typedef struct local_hit
{
    int kind; /* -1 miss, 0 origin inside, 1 hit */
    float lambda;
    vec3 normal; /* unit, outward, local frame (kind 1) */
} local_hit;

/* Sphere of radius r about the origin. */
static void ray_sphere(const vec3 o, const vec3 u, float r, float lambda_max, local_hit* h)
{
    float t;
    int e = ball_entry(o, u, r, &t);
    h->kind = e;
    if (e == 1)
    {
        if (!(t <= lambda_max))
        {
            h->kind = -1;
            return;
        }
        h->lambda = t;
        vec3 p;
        px_v3_mad(o, t, u, p);
        if (!px_v3_normalize_any(p, h->normal))
        {
            px_v3_negate(u, h->normal); /* r = 0: the point itself, hit head-on */
        }
    }
}

/* Capsule: segment (0, -hh, 0)-(0, hh, 0) rounded by r. The entry into a union of convex pieces is the
 * earliest entry into any of them (the origin being outside all): the side of the cylinder between the
 * end planes, and the two end spheres (which contain the flat ends of that cylinder). */
static void ray_capsule(const vec3 o, const vec3 u, float hh, float r, float lambda_max, local_hit* h)
{
    double dy = (double)o[1] - (double)px_clampf(o[1], -hh, hh);
    if ((double)o[0] * o[0] + dy * dy + (double)o[2] * o[2] <= (double)r * r)
    {
        h->kind = 0; /* within r of the core segment */
        return;
    }
    float t;
    h->kind = -1;
    float best = INFINITY;
    vec3 o2 = { o[0], 0.0f, o[2] }, u2 = { u[0], 0.0f, u[2] };
    if (ball_entry(o2, u2, r, &t) == 1)
    {
        /* the side: entering the infinite cylinder between the end planes (outside it the ends decide) */
        double y = (double)o[1] + (double)t * (double)u[1];
        if (y >= -(double)hh && y <= (double)hh)
        {
            best = t;
            vec3 p;
            px_v3_mad(o2, t, u2, p);
            if (!px_v3_normalize_any(p, h->normal))
            {
                px_v3_negate(u, h->normal);
            }
        }
    }
    for (int end = 0; end < 2; ++end)
    {
        vec3 c = { o[0], o[1] - (end == 0 ? -hh : hh), o[2] };
        int e = ball_entry(c, u, r, &t);
        if (e == 0)
        {
            /* on an end sphere's surface the test above may have rounded the other way: the end sphere's
             * own test decides, so no origin falls between the two */
            h->kind = 0;
            return;
        }
        if (e == 1 && t < best)
        {
            best = t;
            vec3 p;
            px_v3_mad(c, t, u, p);
            if (!px_v3_normalize_any(p, h->normal))
            {
                px_v3_negate(u, h->normal);
            }
        }
    }
    if (best <= lambda_max)
    {
        h->kind = 1;
        h->lambda = best;
    }
}

/* Box of half extents he: slab test (Kay and Kajiya) with closed slabs. A zero direction component is
 * tested by the origin's coordinate alone, and slab parameters are divided, not multiplied by reciprocals,
 * so an origin on a slab plane with a zero (or denormal) component gives 0 or +-inf, never 0 * inf = NaN.
 * A ray in the plane of a face therefore hits (closed slabs), one off it by any amount misses. */
static void ray_box(const vec3 o, const vec3 u, const vec3 he, float lambda_max, local_hit* h)
{
    float t_enter = 0.0f, t_exit = lambda_max;
    int axis = -1;
    h->kind = -1;
    for (int i = 0; i < 3; ++i)
    {
        if (u[i] == 0.0f)
        {
            if (o[i] < -he[i] || o[i] > he[i])
            {
                return;
            }
            continue;
        }
        float t1 = (-he[i] - o[i]) / u[i];
        float t2 = (he[i] - o[i]) / u[i];
        float tn = px_minf(t1, t2), tf = px_maxf(t1, t2);
        if (tn > t_enter)
        {
            t_enter = tn;
            axis = i;
        }
        if (tf < t_exit)
        {
            t_exit = tf;
        }
        if (!(t_enter <= t_exit))
        {
            return;
        }
    }
    if (axis < 0)
    {
        h->kind = 0; /* in every slab at t = 0: the origin is in the closed box */
        return;
    }
    h->kind = 1;
    h->lambda = t_enter;
    px_v3_zero(h->normal);
    h->normal[axis] = u[axis] > 0.0f ? -1.0f : 1.0f;
}

/* The shape of a ray's moving point. */
static const px_shape k_ray_point = { .type = PX_SHAPE_POINT };

/* Any shape by the GJK ray cast: B is the ray's point, A the shape. */
static px_status ray_gjk(const px_shape* shape, const vec3 o, const vec3 u, float lambda_max, local_hit* h)
{
    h->kind = -1;
    /* B is the ray's point, placed at the origin for now and moved to the start below */
    cast_query cq;
    px_transform start = PX_TRANSFORM_IDENTITY_INIT;
    px_v3_copy(o, start.p);
    pxi_gjk_pair_init(&cq.pair, shape, &k_ray_point, &start);
    px_status range = pxi_gjk_pair_range(&cq.pair, 0.0f);
    if (range != PX_OK)
    {
        return range;
    }
    vec3 c;
    float hd;
    if (!core_bounds(&cq.pair, 0, c, &hd))
    {
        return PX_ERR_NON_FINITE;
    }
    float size = hd + shape->radius;
    /* every core point, and the ray's start once moved to the bounding sphere, is within about
     * |c| + size of the local origin */
    float coord = 2.0f * (size + length_any(c));
    float tol = px_maxf(PX_CAST_REL_TOLERANCE * size, PXI_CAST_TOL_FLOOR * coord);

    /* Move the start onto a bounding sphere (widened by the band and the rounding of the move), so that
     * the loop's coordinates are of the shape's size; a ray missing the sphere misses the shape. */
    vec3 oc;
    px_v3_sub(o, c, oc);
    float margin = 2.0f * tol + 16.0f * FLT_EPSILON * (length_any(oc) + length_any(o) + size);
    float t0;
    int e = ball_entry(oc, u, size + margin, &t0);
    if (e < 0 || !(t0 <= lambda_max))
    {
        return PX_OK;
    }
    /* (the touching band of the moved pair, not of the far start: a ray from 4500 away onto a cone 1.2 across
     * kept a band of 8e-3, and GJK at a stalled step called a point 5e-3 from the cone overlapping, its
     * direction taken for the normal, 89 degrees off; rays_far_origins at PX_TEST_SEED=221) */
    vec3 moved_start;
    px_v3_mad(o, t0, u, moved_start);
    pxi_gjk_pair_move_b(&cq.pair, moved_start);
    px_v3_copy(u, cq.r);
    px_v3_sub(c, cq.pair.pos_b, cq.guess);
    if (!(px_v3_norm2(cq.guess) > 0.0f))
    {
        px_v3_copy(u, cq.guess);
    }
    cq.lambda_max = lambda_max - t0;
    cq.radius_a = shape->radius;
    cq.radius = shape->radius;
    cq.tol = tol;
    cq.coord = coord;
    cq.max_iterations = PX_CAST_MAX_ITERATIONS;
    cast_outcome out;
    px_status status = cast_run(&cq, &out);
    if (status < 0 || !out.hit)
    {
        return status;
    }
    if (t0 == 0.0f && !out.moved)
    {
        h->kind = 0;
        return status;
    }
    h->kind = 1;
    h->lambda = px_minf(t0 + out.lambda, lambda_max);
    if (out.moved)
    {
        px_v3_copy(out.normal, h->normal);
    }
    else
    {
        px_v3_negate(u, h->normal);
    }
    return status;
}

px_status px_ray_cast_shape(const px_shape* shape, const px_transform* pose, const px_ray* ray,
                            px_ray_hit* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    result->triangle = PX_NULL_INDEX;
    if (shape == NULL || pose == NULL || ray == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = pxi_shape_validate_fast(shape);
    if (status != PX_OK)
    {
        return status;
    }
    px_transform tp;
    status = px_transform_normalized(pose, &tp);
    if (status != PX_OK)
    {
        return status;
    }
    if (!px_v3_is_finite(ray->origin) || !px_v3_is_finite(ray->direction))
    {
        return PX_ERR_NON_FINITE;
    }
    if (!(ray->max_t >= 0.0f))
    {
        return PX_ERR_INVALID_ARGUMENT; /* negative or NaN */
    }
    /* Unit direction first (any magnitude), then into the local frame: the cast works in length units and
     * converts back with the direction's length. */
    float len = length_any(ray->direction);
    vec3 uw;
    if (!(len > 0.0f) || !px_v3_normalize_any(ray->direction, uw))
    {
        return PX_ERR_DEGENERATE_INPUT;
    }
    vec3 o, u;
    px_transform_point_inverse(&tp, ray->origin, o);
    px_transform_vector_inverse(&tp, uw, u);
    float lambda_max = ray->max_t * len * (1.0f + PXI_RAY_MAX_T_SLACK);

    const bool closed_form = shape->type == PX_SHAPE_POINT || shape->type == PX_SHAPE_SPHERE ||
                             shape->type == PX_SHAPE_CAPSULE || (shape->type == PX_SHAPE_BOX && shape->radius == 0.0f);
    if (closed_form && !(fabsf(o[0]) + fabsf(o[1]) + fabsf(o[2]) + pxi_shape_bound(shape) + shape->radius <
                         PX_MAX_PAIR_SIZE))
    {
        /* the range the GJK shapes refuse (pxi_gjk_pair_range), refused by the closed forms too; the sum of
         * the components bounds |o| from above, the exact test runs only near the limit */
        if (!(px_v3_norm(o) + pxi_shape_bound(shape) + shape->radius < PX_MAX_PAIR_SIZE))
        {
            return PX_ERR_OUT_OF_RANGE;
        }
    }
    local_hit h;
    memset(&h, 0, sizeof(h));
    switch (shape->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        ray_sphere(o, u, shape->radius, lambda_max, &h);
        break;
    case PX_SHAPE_CAPSULE:
        ray_capsule(o, u, shape->capsule.half_height, shape->radius, lambda_max, &h);
        break;
    case PX_SHAPE_BOX:
        if (shape->radius == 0.0f)
        {
            ray_box(o, u, shape->box.half_extents, lambda_max, &h);
            break;
        }
        status = ray_gjk(shape, o, u, lambda_max, &h);
        break;
    default:
        status = ray_gjk(shape, o, u, lambda_max, &h);
        break;
    }
    if (status < 0)
    {
        return status;
    }
    if (h.kind == 0)
    {
        result->hit = true;
        px_v3_copy(ray->origin, result->point);
        return status;
    }
    if (h.kind < 0)
    {
        return status;
    }
    /* back to the caller's units; a t no float can hold is beyond any max_t that matters */
    float t = px_minf(h.lambda / len, ray->max_t);
    if (!px_is_finite(t))
    {
        return status;
    }
    vec3 point;
    px_v3_mad(ray->origin, t, ray->direction, point);
    if (!px_v3_is_finite(point))
    {
        return status;
    }
    result->hit = true;
    result->t = t;
    px_v3_copy(point, result->point);
    px_transform_vector(&tp, h.normal, result->normal);
    face_against(result->normal, uw);
    return status;
}

/* --------------------------------------------------------------------------------------------------- */
/* Shape casts */

/* The reported fraction: the largest float not past f (in [0, 1]). Rounded to nearest, a fraction near 0.9
 * of a translation of 1000 moves B by up to half an ulp of 0.9 times 1000 (3e-5), past the contact when the
 * band is smaller. */
static float cast_fraction(double f)
{
    if (!(f > 0.0))
    {
        return 0.0f;
    }
    if (!(f < 1.0))
    {
        return 1.0f;
    }
    float down = (float)f;
    if ((double)down > f)
    {
        down = nextafterf(down, 0.0f);
    }
    return down;
}

px_status px_shape_cast_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                              const px_transform* tb, const vec3 translation_b, const px_cast_config* config,
                              px_cast_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    if (a == NULL || ta == NULL || b == NULL || tb == NULL || translation_b == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_cast_config defaults = px_cast_default_config();
    if (config == NULL)
    {
        config = &defaults;
    }
    if (config->max_iterations <= 0 || !(config->rel_tolerance > 0.0f) ||
        !px_is_finite(config->rel_tolerance))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = pxi_shape_validate_fast(a);
    if (status == PX_OK)
    {
        status = pxi_shape_validate_fast(b);
    }
    /* Everything in A's frame: B's start pose relative to A, and its motion. */
    px_transform na, rel;
    if (status == PX_OK)
    {
        status = pxi_world_pair_poses(ta, tb, &na, &rel);
    }
    if (status == PX_OK && !px_v3_is_finite(translation_b))
    {
        status = PX_ERR_NON_FINITE;
    }
    if (status != PX_OK)
    {
        return status;
    }
    cast_query cq;
    pxi_gjk_pair_init(&cq.pair, a, b, &rel);
    px_transform_vector_inverse(&na, translation_b, cq.r);
    status = pxi_gjk_pair_range(&cq.pair, px_v3_norm(cq.r));
    if (status != PX_OK)
    {
        return status;
    }

    vec3 ca, cb_local, cb;
    float hda, hdb;
    if (!core_bounds(&cq.pair, 0, ca, &hda) || !core_bounds(&cq.pair, 1, cb_local, &hdb))
    {
        return PX_ERR_NON_FINITE;
    }
    pxi_point_from_b(&cq.pair, cb_local, cb);
    float size = hda + hdb + a->radius + b->radius;
    float coord = 2.0f * size + length_any(ca) + length_any(cb_local);
    float tol = px_maxf(config->rel_tolerance * size, PXI_CAST_TOL_FLOOR * coord);

    /* Bounding spheres first: the sweep cannot touch before they do, and starting there keeps B's
     * coordinates in the loop of the shapes' size whatever the distance travelled. */
    vec3 c;
    px_v3_sub(cb, ca, c);
    float margin = 2.0f * tol + 16.0f * FLT_EPSILON * (length_any(c) + length_any(cq.pair.pos_b) + size);
    float lambda0;
    int e = ball_entry(c, cq.r, hda + hdb + a->radius + b->radius + margin, &lambda0);
    if (e < 0 || !(lambda0 <= 1.0f))
    {
        return PX_OK; /* miss: the bounding spheres never meet within the sweep */
    }
    /* B's start at lambda0, in double: lambda0 * r is as long as the distance travelled, and its float
     * rounding (an ulp of it, 6e-5 for 900) would move the loop's start by more than the band. `behind` is
     * how far the float start lies behind the exact one along r, as a fraction (the off-ray part is an ulp
     * of the start, which lies near A). */
    double behind = 0.0;
    {
        double rr = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            const double exact = (double)cq.pair.pos_b[k] + (double)lambda0 * (double)cq.r[k];
            cq.pair.pos_b[k] = (float)exact;
            behind += (exact - (double)cq.pair.pos_b[k]) * (double)cq.r[k];
            rr += (double)cq.r[k] * (double)cq.r[k];
        }
        behind = rr > 0.0 ? behind / rr : 0.0;
    }
    pxi_gjk_pair_move_b(&cq.pair, cq.pair.pos_b); /* the band of the moved start (as for rays) */
    px_v3_mad(cb, lambda0, cq.r, cb);
    px_v3_sub(ca, cb, cq.guess);
    if (!(px_v3_norm2(cq.guess) > 0.0f))
    {
        px_v3_copy(cq.r, cq.guess);
        if (!(px_v3_norm2(cq.guess) > 0.0f))
        {
            px_v3_set(1.0f, 0.0f, 0.0f, cq.guess);
        }
    }
    cq.lambda_max = 1.0f - lambda0;
    cq.radius_a = a->radius;
    cq.radius = a->radius + b->radius;
    cq.tol = tol;
    cq.coord = coord;
    cq.max_iterations = config->max_iterations;

    cast_outcome out;
    status = cast_run(&cq, &out);
    result->iterations = out.iterations;
    if (status < 0)
    {
        memset(result, 0, sizeof(*result));
        return status;
    }
    if (!out.hit)
    {
        return status;
    }
    result->hit = true;
    result->fraction = cast_fraction((double)lambda0 - behind + (double)out.lambda);
    result->initial_overlap = lambda0 == 0.0f && !out.moved;
    if (!result->initial_overlap)
    {
        if (!out.moved)
        {
            /* touched right at the bounding spheres (only within rounding): normal against the motion */
            if (!px_v3_normalize_any(cq.r, out.normal))
            {
                px_v3_set(1.0f, 0.0f, 0.0f, out.normal);
            }
            px_v3_negate(out.normal, out.normal);
        }
        px_transform_vector(&na, out.normal, result->normal);
    }
    px_transform_point(&na, out.point, result->point);
    return status;
}
