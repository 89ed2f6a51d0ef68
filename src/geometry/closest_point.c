/* Public closest-point queries: translate the query point to the origin and reuse the origin kernels of
 * closest_point_internal.h (the same code the GJK simplex solver runs). */
#include "closest_point_internal.h"

#include "proxima/geometry.h"

px_feature_kind px_feature_kind_of(uint32_t feature)
{
    uint32_t bits = feature & 15u;
    int n = 0;
    while (bits != 0u)
    {
        n += (int)(bits & 1u);
        bits >>= 1;
    }
    return (px_feature_kind)n;
}

uint32_t px_closest_point_segment(const vec3 p, const vec3 a, const vec3 b, float bary[2], vec3 dest)
{
    vec3 ra, rb, q;
    float w[2];
    px_v3_sub(a, p, ra);
    px_v3_sub(b, p, rb);
    uint32_t f = pxi_closest_origin_segment(ra, rb, w, q);
    /* rebuild from the original vertices so an exact vertex answer returns the vertex bit for bit */
    if (f == 1u)
    {
        px_v3_copy(a, dest);
    }
    else if (f == 2u)
    {
        px_v3_copy(b, dest);
    }
    else
    {
        px_v3_add(q, p, dest);
    }
    if (bary != NULL)
    {
        bary[0] = w[0];
        bary[1] = w[1];
    }
    return f;
}

/* The single vertex of a one-bit mask, or NULL. */
static const float* single_vertex(uint32_t f, const float* const* v)
{
    switch (f)
    {
    case 1u:
        return v[0];
    case 2u:
        return v[1];
    case 4u:
        return v[2];
    case 8u:
        return v[3];
    default:
        return NULL;
    }
}

uint32_t px_closest_point_triangle(const vec3 p, const vec3 a, const vec3 b, const vec3 c, float bary[3],
                                   vec3 dest)
{
    vec3 ra, rb, rc, q;
    float w[3];
    px_v3_sub(a, p, ra);
    px_v3_sub(b, p, rb);
    px_v3_sub(c, p, rc);
    uint32_t f = pxi_closest_origin_triangle(ra, rb, rc, w, q);
    const float* v[4] = { a, b, c, NULL };
    const float* vertex = single_vertex(f, v);
    if (vertex != NULL)
    {
        px_v3_copy(vertex, dest);
    }
    else
    {
        px_v3_add(q, p, dest);
    }
    if (bary != NULL)
    {
        bary[0] = w[0];
        bary[1] = w[1];
        bary[2] = w[2];
    }
    return f;
}

uint32_t px_closest_point_tetrahedron(const vec3 p, const vec3 a, const vec3 b, const vec3 c, const vec3 d,
                                      float bary[4], vec3 dest)
{
    vec3 ra, rb, rc, rd, q;
    float w[4];
    bool flat;
    px_v3_sub(a, p, ra);
    px_v3_sub(b, p, rb);
    px_v3_sub(c, p, rc);
    px_v3_sub(d, p, rd);
    uint32_t f = pxi_closest_origin_tetrahedron(ra, rb, rc, rd, w, q, &flat);
    const float* v[4] = { a, b, c, d };
    const float* vertex = single_vertex(f, v);
    if (f == 15u)
    {
        px_v3_copy(p, dest);
    }
    else if (vertex != NULL)
    {
        px_v3_copy(vertex, dest);
    }
    else
    {
        px_v3_add(q, p, dest);
    }
    if (bary != NULL)
    {
        for (int i = 0; i < 4; ++i)
        {
            bary[i] = w[i];
        }
    }
    return f;
}

bool px_aabb_overlap(const px_aabb* a, const px_aabb* b)
{
    return a->min[0] <= b->max[0] && b->min[0] <= a->max[0] && a->min[1] <= b->max[1] && b->min[1] <= a->max[1] &&
           a->min[2] <= b->max[2] && b->min[2] <= a->max[2];
}

bool px_aabb_contains_point(const px_aabb* a, const vec3 p)
{
    return a->min[0] <= p[0] && p[0] <= a->max[0] && a->min[1] <= p[1] && p[1] <= a->max[1] && a->min[2] <= p[2] &&
           p[2] <= a->max[2];
}

void px_aabb_union(const px_aabb* a, const px_aabb* b, px_aabb* dest)
{
    px_v3_minv(a->min, b->min, dest->min);
    px_v3_maxv(a->max, b->max, dest->max);
}

float px_aabb_surface_area(const px_aabb* a)
{
    float x = a->max[0] - a->min[0];
    float y = a->max[1] - a->min[1];
    float z = a->max[2] - a->min[2];
    if (!(x >= 0.0f && y >= 0.0f && z >= 0.0f))
    {
        return 0.0f;
    }
    return 2.0f * (x * y + y * z + z * x);
}
