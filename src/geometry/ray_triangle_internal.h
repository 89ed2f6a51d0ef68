/* Watertight ray-triangle test: Woop, Benthin and Wald, "Watertight Ray/Triangle Intersection", JCGT 2(1),
 * 2013, as an inline kernel for the mesh BVH's leaf loop (and px_ray_triangle_watertight).
 *
 * The ray is set up once: its largest direction axis becomes z (kz), the other two become x and y (kx, ky,
 * swapped when dir[kz] < 0 so that the permutation times the sign of the shear keeps orientation), and the
 * shear constants map the direction to (0, 0, 1). Per triangle, the vertices are moved to the ray origin and
 * sheared, and the three 2D edge functions U, V, W of the projected triangle are evaluated at the origin:
 * the ray hits when they share a sign. Watertightness comes from how they are computed:
 *  - a vertex's sheared coordinates depend only on the vertex and the ray, so the triangles sharing it
 *    see exactly the same values;
 *  - an edge's function is the difference of two products of those coordinates, and the triangle on the
 *    other side of the edge computes the same two products in the other order, giving exactly the
 *    negated float value (products commute, and x - y rounds to -(y - x));
 *  - a function that comes out exactly 0 may have lost its sign in rounding, so all three are then
 *    recomputed in double, where the float products are exact and only the difference rounds, which
 *    keeps the sign of the true value. A nonzero float value already had the right sign (rounding is
 *    monotone), so a triangle that takes the double path agrees with a neighbour that does not.
 * A ray through a shared edge or vertex therefore hits at least one of the triangles around it (with
 * ties at exactly 0 counted as inside by all of them).
 *
 * The distance is tested against the range before any division (T against det * t_min and det * t_max,
 * signs folded in), and the one division happens after every test, in double: det is a finite nonzero float
 * there, so its reciprocal is finite and no output can be NaN, whatever finite coordinates come in.
 *
 * Hot code (the BVH calls pxi_watertight_hit in its leaf loop): no allocation, no loop, the double paths
 * only on exact zeros and on accepted hits. */
#pragma once

#include <float.h>
#include <math.h>
#include <stdbool.h>

#include "../core/px_math.h"

/* Precomputed per-ray data for the watertight test (Woop, Benthin, Wald, JCGT 2013). */
typedef struct pxi_watertight_ray
{
    float org[3];     /* ray origin */
    float dir[3];     /* ray direction (not normalized) */
    int kx, ky, kz;   /* kz: axis of the largest |dir| component; kx, ky the others, swapped when dir[kz] < 0 */
    float sx, sy, sz; /* shear constants */
} pxi_watertight_ray;

/* Set up r for the ray origin + t dir. dir must be finite and not zero, and 1 / (its largest component)
 * must not overflow (|dir[kz]| >= about 3e-39); px_ray_triangle_watertight rescales any other nonzero
 * direction first. With a zero or NaN direction the hit test below reports no hit. */
static inline void pxi_watertight_ray_init(pxi_watertight_ray* r, const float origin[3], const float dir[3])
{
    int kz = 0;
    if (fabsf(dir[1]) > fabsf(dir[kz]))
    {
        kz = 1;
    }
    if (fabsf(dir[2]) > fabsf(dir[kz]))
    {
        kz = 2;
    }
    int kx = kz == 2 ? 0 : kz + 1;
    int ky = kx == 2 ? 0 : kx + 1;
    if (dir[kz] < 0.0f)
    {
        /* the shear below divides by dir[kz]; a negative one mirrors the frame, which the swap undoes so
         * that the edge functions keep the sign convention of the front face */
        int tmp = kx;
        kx = ky;
        ky = tmp;
    }
    for (int k = 0; k < 3; ++k)
    {
        r->org[k] = origin[k];
        r->dir[k] = dir[k];
    }
    r->kx = kx;
    r->ky = ky;
    r->kz = kz;
    if (dir[kz] == 0.0f)
    {
        /* zero direction: there is no shear; NaN constants make every hit test miss (without dividing by 0) */
        r->sx = r->sy = r->sz = NAN;
        return;
    }
    r->sx = dir[kx] / dir[kz];
    r->sy = dir[ky] / dir[kz];
    r->sz = 1.0f / dir[kz];
}

/* The quick range test compares the scaled distance with the range scaled by det, before any division; it is
 * widened by these factors so that it never rejects a t that rounds into the range. */
#define PXI_WATERTIGHT_SLACK_HI (1.0f + 16.0f * FLT_EPSILON)
#define PXI_WATERTIGHT_SLACK_LO (1.0f - 16.0f * FLT_EPSILON)

/* True when a, b, c are exactly collinear (or coincident): rays never hit such a triangle. Differences of
 * floats are exact in double (for coordinates within 2^29 of each other), and for exactly parallel edges the
 * two products of each normal component are the same real number, so they round alike and the component is
 * exactly 0. (The price: in a closed mesh that contains a zero-area triangle, points within rounding of it
 * that its neighbours' edge functions leave to it are missed.) */
static inline bool pxi_triangle_collinear(const float a[3], const float b[3], const float c[3])
{
    const double e1x = (double)b[0] - (double)a[0], e1y = (double)b[1] - (double)a[1];
    const double e1z = (double)b[2] - (double)a[2];
    const double e2x = (double)c[0] - (double)a[0], e2y = (double)c[1] - (double)a[1];
    const double e2z = (double)c[2] - (double)a[2];
    return e1y * e2z - e1z * e2y == 0.0 && e1z * e2x - e1x * e2z == 0.0 && e1x * e2y - e1y * e2x == 0.0;
}

/* The last step of pxi_watertight_hit, for a triangle that passed its sign and range tests and is not
 * collinear: the one division, in double (det is a finite nonzero float, so 1 / det is finite), and a check
 * of the quotient itself against the range (the range test worked on rounded products). The mesh traversal
 * calls it with the edge functions of its four-triangle test, which are the same floats. */
static inline bool pxi_watertight_finish(float det, float tz, float ev, float ew, float t_min, float t_max, float* t,
                                         float* u, float* v)
{
    const double rcp = 1.0 / (double)det;
    const double td = (double)tz * rcp;
    /* the range applies to the t returned (rounded to float): a triangle hit at the same float t as the best
     * one so far is in range, so ties can go to the lowest index whatever the order the triangles come in */
    if (!(td <= (double)FLT_MAX))
    {
        return false;
    }
    const float tf = (float)td;
    if (!(tf >= t_min && tf <= t_max))
    {
        return false;
    }
    *t = tf;
    *u = (float)((double)ev * rcp);
    *v = (float)((double)ew * rcp);
    return true;
}

/* Hit test of the ray against triangle (a, b, c). cull_back != 0: only hits on the front face count, the front
 * being the side cross(b - a, c - a) points to (a ray with dot(dir, cross(b-a, c-a)) < 0 hits the front).
 * Hits with t_min <= t <= t_max (t in units of dir, hit point = org + t * dir) return true and write t, and
 * u, v = the barycentric weights of b and c (hit = (1-u-v) a + u b + v c).
 *
 * On a miss nothing is written. The outputs of a hit are finite, with u, v in [0, 1] and t in
 * [t_min, t_max]. Misses: a triangle whose vertices are exactly collinear or coincident (checked in double
 * on accepted hits only), anything whose arithmetic overflows (the scaled distance is a product of
 * three coordinates relative to the origin: triangles beyond about 2^42 = 4e12 from it) or underflows
 * (triangles smaller than about 2^-80), and a ray in the triangle's plane when the projected triangle keeps its zero area (exact shears:
 * axis-aligned planes, power-of-two direction ratios). A rounded shear can give an in-plane ray a sliver of
 * projected area and so a hit; it is left alone, because the neighbours' shared edge functions carry the
 * same rounding and leave those points to this triangle. A hit on an edge or a vertex counts for every
 * triangle sharing it. */
static inline bool pxi_watertight_hit(const pxi_watertight_ray* r, const float a[3], const float b[3], const float c[3],
                                      int cull_back, float t_min, float t_max, float* t, float* u, float* v)
{
    const int kx = r->kx, ky = r->ky, kz = r->kz;

    /* vertices relative to the ray origin */
    const float az = a[kz] - r->org[kz];
    const float bz = b[kz] - r->org[kz];
    const float cz = c[kz] - r->org[kz];

    /* sheared into the frame where the ray is the positive z axis */
    const float ax = (a[kx] - r->org[kx]) - r->sx * az;
    const float ay = (a[ky] - r->org[ky]) - r->sy * az;
    const float bx = (b[kx] - r->org[kx]) - r->sx * bz;
    const float by = (b[ky] - r->org[ky]) - r->sy * bz;
    const float cx = (c[kx] - r->org[kx]) - r->sx * cz;
    const float cy = (c[ky] - r->org[ky]) - r->sy * cz;

    /* edge functions at the origin: U of edge bc (weight of a), V of ca (of b), W of ab (of c) */
    float eu = cx * by - cy * bx;
    float ev = ax * cy - ay * cx;
    float ew = bx * ay - by * ax;

    if (PX_UNLIKELY(eu == 0.0f || ev == 0.0f || ew == 0.0f))
    {
        /* the ray passes (within rounding) through an edge or a vertex: get the exact signs */
        eu = (float)((double)cx * (double)by - (double)cy * (double)bx);
        ev = (float)((double)ax * (double)cy - (double)ay * (double)cx);
        ew = (float)((double)bx * (double)ay - (double)by * (double)ax);
    }

    /* inside when no sign differs (zeros are on the boundary and count); the front face is seen with all
     * three >= 0 (det > 0), so back-face culling rejects any negative one */
    const bool neg = eu < 0.0f || ev < 0.0f || ew < 0.0f;
    const bool pos = eu > 0.0f || ev > 0.0f || ew > 0.0f;
    if (neg && (pos || cull_back != 0))
    {
        return false;
    }
    const float det = eu + ev + ew;
    if (det == 0.0f)
    {
        /* the projection along the ray has zero area: ray in the plane, or a degenerate triangle */
        return false;
    }

    /* distance: T / det is the hit's t; compare T with det * [t_min, t_max] with det's sign folded in */
    const float tz = eu * (r->sz * az) + ev * (r->sz * bz) + ew * (r->sz * cz);
    const float adet = fabsf(det);
    const float at = det < 0.0f ? -tz : tz;
    /* written so that NaN (overflowed coordinates) takes the miss */
    if (!(at >= t_min * adet * PXI_WATERTIGHT_SLACK_LO && at <= t_max * adet * PXI_WATERTIGHT_SLACK_HI))
    {
        return false;
    }

    /* a triangle with exactly collinear vertices projects to a segment, but the rounding of the shear can
     * give that segment a sliver of area: reject it by its true normal (pxi_triangle_collinear) */
    if (pxi_triangle_collinear(a, b, c))
    {
        return false;
    }
    return pxi_watertight_finish(det, tz, ev, ew, t_min, t_max, t, u, v);
}
