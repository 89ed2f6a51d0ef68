/* Support mappings of the shape cores (rounding radius excluded): the point of the core farthest along
 * a direction, in the shape's local frame, and the index that names it. GJK calls these in its inner
 * loop, so they are inline, switch on the type, and do no validation (queries validate up front). */
#pragma once

#include "../core/px_math.h"

#include "proxima/hull.h"
#include "proxima/shapes.h"

#include "hull_internal.h" /* the hill-climbing support of built hulls */

/* Returned by the hull scan when it met a NaN or Inf dot product (a non-finite or overflowing point). */
#define PXI_SUPPORT_NON_FINITE INT32_MIN

/* Index of the hull point with the largest dot product with d (first one on ties), or
 * PXI_SUPPORT_NON_FINITE. SIMD, dispatched at run time (hull_scan.c). count >= 1. */
int32_t pxi_hull_scan(const float* points, int count, const vec3 d);

/* The scan pxi_hull_scan would use for count points, for callers that scan the same hull many times
 * (GJK resolves it once per query instead of once per support call). */
typedef int32_t (*pxi_hull_scan_fn)(const float* points, int count, const vec3 d);
pxi_hull_scan_fn pxi_hull_scan_select(int count);

/* The portable scan (also the reference the SIMD paths must match bit for bit). */
int32_t pxi_hull_scan_scalar(const float* points, int count, const vec3 d);

/* The rim point r (d.x, d.z) / |(d.x, d.z)| of a circle in the xz plane. The components are divided by
 * the larger one first, so directions of any magnitude (GJK's v near contact can be 1e-20) neither
 * underflow nor overflow when squared. Straight along y the whole disc supports; its centre is taken. */
static inline void pxi_rim_point(const vec3 d, float r, float* x, float* z)
{
    float m = px_maxf(fabsf(d[0]), fabsf(d[2]));
    if (!(m > 0.0f))
    {
        *x = 0.0f;
        *z = 0.0f;
        return;
    }
    float dx = d[0] / m, dz = d[2] / m;
    float k = r / sqrtf(dx * dx + dz * dz);
    *x = dx * k;
    *z = dz * k;
}

/* Support of a hull shape with a given scan of `scanned` (the hull's points, or a transposed copy the scan
 * reads): the point and its index, or NaN and PXI_SUPPORT_NON_FINITE when the scan met a non-finite
 * point. */
static inline int32_t pxi_hull_support(const px_shape* s, pxi_hull_scan_fn scan, const float* scanned, const vec3 d,
                                       vec3 dest)
{
    int32_t i = scan(scanned, s->hull.count, d);
    if (PX_UNLIKELY(i == PXI_SUPPORT_NON_FINITE))
    {
        dest[0] = dest[1] = dest[2] = NAN;
        return i;
    }
    if (scanned != s->hull.points)
    {
        /* a transposed copy (x[], y[], z[]): read back from it, which the scan has just brought into the
         * cache (the same values) */
        const int count = s->hull.count;
        px_v3_set(scanned[i], scanned[count + i], scanned[2 * count + i], dest);
        return i;
    }
    const float* p = s->hull.points + 3 * (size_t)i;
    px_v3_set(p[0], p[1], p[2], dest);
    return i;
}

static inline int32_t pxi_support_core(const px_shape* s, const vec3 d, vec3 dest)
{
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        px_v3_zero(dest);
        return 0;
    case PX_SHAPE_SEGMENT:
        if (px_v3_dot(s->segment.b, d) > px_v3_dot(s->segment.a, d))
        {
            px_v3_copy(s->segment.b, dest);
            return 1;
        }
        px_v3_copy(s->segment.a, dest);
        return 0;
    case PX_SHAPE_TRIANGLE:
    {
        float da = px_v3_dot(s->triangle.a, d);
        float db = px_v3_dot(s->triangle.b, d);
        float dc = px_v3_dot(s->triangle.c, d);
        if (db > da && db >= dc)
        {
            px_v3_copy(s->triangle.b, dest);
            return 1;
        }
        if (dc > da)
        {
            px_v3_copy(s->triangle.c, dest);
            return 2;
        }
        px_v3_copy(s->triangle.a, dest);
        return 0;
    }
    case PX_SHAPE_CAPSULE:
    {
        float h = s->capsule.half_height;
        bool up = d[1] >= 0.0f;
        px_v3_set(0.0f, up ? h : -h, 0.0f, dest);
        return up ? 1 : 0;
    }
    case PX_SHAPE_BOX:
    {
        const float* h = s->box.half_extents;
        int32_t index = 0;
        for (int i = 0; i < 3; ++i)
        {
            bool pos = d[i] >= 0.0f;
            dest[i] = pos ? h[i] : -h[i];
            index |= (int32_t)pos << i;
        }
        return index;
    }
    case PX_SHAPE_CYLINDER:
    {
        float h = s->cylinder.half_height;
        float x, z;
        pxi_rim_point(d, s->cylinder.radius, &x, &z);
        px_v3_set(x, d[1] >= 0.0f ? h : -h, z, dest);
        return PX_NULL_INDEX;
    }
    case PX_SHAPE_CONE:
    {
        float h = s->cylinder.half_height;
        float x, z;
        pxi_rim_point(d, s->cylinder.radius, &x, &z);
        /* apex (0, h, 0) against the best rim point (x, -h, z) */
        if (h * d[1] >= -h * d[1] + (x * d[0] + z * d[2]))
        {
            px_v3_set(0.0f, h, 0.0f, dest);
            return 0;
        }
        px_v3_set(x, -h, z, dest);
        return PX_NULL_INDEX;
    }
    case PX_SHAPE_HULL:
        if (s->hull.built != NULL && s->hull.built->climb_nodes != NULL &&
            s->hull.count >= s->hull.built->climb_min_vertices &&
            s->hull.points == s->hull.built->vertices && s->hull.count == s->hull.built->vertex_count)
        {
            const pxi_climb_node* n = &s->hull.built->climb_nodes[pxi_hull_climb_record(s->hull.built, d, -1)];
            px_v3_set(n->v.p[0], n->v.p[1], n->v.p[2], dest);
            return n->v.link;
        }
        return pxi_hull_support(s, pxi_hull_scan, s->hull.points, d, dest);
    case PX_SHAPE_USER:
        return s->user.fn(s->user.user_data, d, dest);
    default:
        px_v3_zero(dest);
        return PX_NULL_INDEX;
    }
}

/* The core vertex a support index names, for rebuilding a cached simplex. False when the shape has no
 * such vertex (curved supports, user shapes, an out-of-range index from a stale cache). */
static inline bool pxi_shape_vertex(const px_shape* s, int32_t index, vec3 dest)
{
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        px_v3_zero(dest);
        return index == 0;
    case PX_SHAPE_SEGMENT:
        if (index == 0 || index == 1)
        {
            px_v3_copy(index == 0 ? s->segment.a : s->segment.b, dest);
            return true;
        }
        return false;
    case PX_SHAPE_TRIANGLE:
        if (index >= 0 && index <= 2)
        {
            px_v3_copy(index == 0 ? s->triangle.a : (index == 1 ? s->triangle.b : s->triangle.c), dest);
            return true;
        }
        return false;
    case PX_SHAPE_CAPSULE:
        px_v3_set(0.0f, index == 1 ? s->capsule.half_height : -s->capsule.half_height, 0.0f, dest);
        return index == 0 || index == 1;
    case PX_SHAPE_BOX:
        if (index >= 0 && index <= 7)
        {
            for (int i = 0; i < 3; ++i)
            {
                dest[i] = (index >> i) & 1 ? s->box.half_extents[i] : -s->box.half_extents[i];
            }
            return true;
        }
        return false;
    case PX_SHAPE_CONE:
        px_v3_set(0.0f, s->cylinder.half_height, 0.0f, dest);
        return index == 0;
    case PX_SHAPE_HULL:
        if (index >= 0 && index < s->hull.count)
        {
            const float* p = s->hull.points + 3 * (size_t)index;
            px_v3_set(p[0], p[1], p[2], dest);
            return true;
        }
        return false;
    default:
        return false;
    }
}

/* Largest |x| over the core of a shape in its own frame (radius excluded); -1 when unknown (user shapes).
 * O(1), except for a hull whose bound was not recorded (a hand-made px_shape). */
float pxi_shape_bound(const px_shape* shape);

/* Largest |point| of a point set; 0 for none; NaN when a point is NaN. */
float pxi_points_bound(const float* points, int count);

/* Validate a shape for a query without touching hull points (the scans detect non-finite points). */
px_status pxi_shape_validate_fast(const px_shape* shape);

/* px_shape_aabb for a shape that passed validation at a normalized pose (the world's bodies): no checks
 * but the finiteness of the result; dest is untouched on errors. */
px_status pxi_shape_aabb_normalized(const px_shape* shape, const px_transform* pose, px_aabb* dest);
