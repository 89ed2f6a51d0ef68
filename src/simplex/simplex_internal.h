/* Inline core of the Voronoi simplex solver, shared by simplex.c (public API) and the GJK loop (hot). */
#pragma once

#include "../geometry/closest_point_internal.h"

#include "proxima/simplex.h"

static inline void pxi_simplex_push(px_simplex* s, const vec3 p, const vec3 q, int32_t ia, int32_t ib)
{
    px_simplex_vertex* v = &s->v[s->count++];
    px_v3_sub(p, q, v->w);
    px_v3_copy(p, v->p);
    px_v3_copy(q, v->q);
    v->bary = 0.0f;
    v->index_a = ia;
    v->index_b = ib;
}

/* Duplicate test: by support indices when both shapes have them, else by exact coordinates. */
static inline bool pxi_simplex_contains(const px_simplex* s, const vec3 w, int32_t ia, int32_t ib)
{
    bool indexed = ia != PX_NULL_INDEX && ib != PX_NULL_INDEX;
    for (int i = 0; i < s->count; ++i)
    {
        const px_simplex_vertex* v = &s->v[i];
        if (indexed ? (v->index_a == ia && v->index_b == ib) : px_v3_equal(v->w, w))
        {
            return true;
        }
    }
    return false;
}

/* Closest point of the simplex to the origin and the weights of its vertices, without changing the
 * simplex. Returns the feature mask; 15 means a tetrahedron encloses the origin. *degenerate reports a
 * flat-tetrahedron fallback. */
static inline uint32_t pxi_simplex_solve(const px_simplex* s, float bary[4], vec3 dest, bool* degenerate)
{
    *degenerate = false;
    bary[0] = 1.0f;
    bary[1] = bary[2] = bary[3] = 0.0f;
    switch (s->count)
    {
    case 1:
        px_v3_copy(s->v[0].w, dest);
        return 1u;
    case 2:
        return pxi_closest_origin_segment(s->v[0].w, s->v[1].w, bary, dest);
    case 3:
        return pxi_closest_origin_triangle(s->v[0].w, s->v[1].w, s->v[2].w, bary, dest);
    default:
        return pxi_closest_origin_tetrahedron(s->v[0].w, s->v[1].w, s->v[2].w, s->v[3].w, bary, dest, degenerate);
    }
}

/* Keep the vertices of feature f, in order, with their weights. */
static inline void pxi_simplex_commit(px_simplex* s, uint32_t f, const float bary[4])
{
    int n = 0;
    for (int i = 0; i < s->count; ++i)
    {
        if (f & (1u << i))
        {
            if (n != i)
            {
                s->v[n] = s->v[i];
            }
            s->v[n].bary = bary[i];
            ++n;
        }
    }
    s->count = n;
    s->feature = f;
}

/* Reduce to the sub-simplex nearest the origin: solve, then commit. */
static inline uint32_t pxi_simplex_reduce(px_simplex* s, vec3 dest, bool* degenerate)
{
    float bary[4];
    uint32_t f = pxi_simplex_solve(s, bary, dest, degenerate);
    pxi_simplex_commit(s, f, bary);
    return f;
}

static inline void pxi_simplex_witness(const px_simplex* s, vec3 pa, vec3 pb)
{
    px_v3_zero(pa);
    px_v3_zero(pb);
    for (int i = 0; i < s->count; ++i)
    {
        const px_simplex_vertex* v = &s->v[i];
        pa[0] += v->bary * v->p[0];
        pa[1] += v->bary * v->p[1];
        pa[2] += v->bary * v->p[2];
        pb[0] += v->bary * v->q[0];
        pb[1] += v->bary * v->q[1];
        pb[2] += v->bary * v->q[2];
    }
}

static inline float pxi_simplex_max_norm2(const px_simplex* s)
{
    float m = 0.0f;
    for (int i = 0; i < s->count; ++i)
    {
        m = px_maxf(m, px_v3_norm2(s->v[i].w));
    }
    return m;
}
