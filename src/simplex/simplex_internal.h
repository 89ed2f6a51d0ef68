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

/* Solve on explicit vertex pointers. */
static inline uint32_t pxi_simplex_solve_points(const float* const* w, int count, bool newest, float bary[4],
                                                vec3 dest, bool* degenerate)
{
    switch (count)
    {
    case 1:
        px_v3_copy(w[0], dest);
        return 1u;
    case 2:
        return pxi_closest_origin_segment(w[0], w[1], bary, dest);
    case 3:
        return pxi_closest_origin_triangle_ex(w[0], w[1], w[2], newest, bary, dest, degenerate);
    default:
        return pxi_closest_origin_tetrahedron_ex(w[0], w[1], w[2], w[3], newest, bary, dest, degenerate);
    }
}

/* Closest point of the simplex to the origin and the weights of its vertices, without changing the
 * simplex. Returns the feature mask; 15 means a tetrahedron encloses the origin. *degenerate reports a
 * flat tetrahedron or a collinear triangle, whose faces or edges decided instead.
 *
 * The kernels' degeneracy tests compare products of up to six lengths (a squared triple product against
 * squared areas times squared lengths), which underflow for simplices below about 1e-6 and overflow above
 * about 1e6. A simplex outside [2^-8, 2^8] is therefore scaled by a power of two first: exact, so the
 * answer is the one the same shapes would get at unit scale. */
static inline uint32_t pxi_simplex_solve_ex(const px_simplex* s, bool newest, float max_w, float bary[4],
                                            vec3 dest, bool* degenerate)
{
    *degenerate = false;
    bary[0] = 1.0f;
    bary[1] = bary[2] = bary[3] = 0.0f;
    const float* w[4] = { s->v[0].w, s->v[1].w, s->v[2].w, s->v[3].w };
    /* max_w (when >= 0) bounds |w|, and every component's magnitude lies within [max_w / sqrt 3, max_w]:
     * when that range is inside [2^-8, 2^8] the scan for the largest component is skipped */
    if (PX_LIKELY(s->count == 1 || (max_w >= 0x1p-7f && max_w <= 0x1p8f)))
    {
        return pxi_simplex_solve_points(w, s->count, newest, bary, dest, degenerate);
    }
    float m = 0.0f;
    for (int i = 0; i < s->count; ++i)
    {
        m = px_maxf(m, px_maxf(fabsf(w[i][0]), px_maxf(fabsf(w[i][1]), fabsf(w[i][2]))));
    }
    if (!(m > 0.0f) || (m >= 0x1p-8f && m <= 0x1p8f))
    {
        return pxi_simplex_solve_points(w, s->count, newest, bary, dest, degenerate);
    }
    int e;
    (void)frexpf(m, &e);
    float down = ldexpf(1.0f, -e), up = ldexpf(1.0f, e);
    vec3 scaled[4];
    for (int i = 0; i < s->count; ++i)
    {
        px_v3_scale(s->v[i].w, down, scaled[i]);
        w[i] = scaled[i];
    }
    uint32_t f = pxi_simplex_solve_points(w, s->count, newest, bary, dest, degenerate);
    px_v3_scale(dest, up, dest);
    return f;
}

/* Full solve: every feature of the simplex is a candidate. */
static inline uint32_t pxi_simplex_solve(const px_simplex* s, float bary[4], vec3 dest, bool* degenerate)
{
    return pxi_simplex_solve_ex(s, false, -1.0f, bary, dest, degenerate);
}

/* GJK step: the last vertex was just added beyond v's plane, so only features containing it are
 * candidates (exact in exact arithmetic; see pxi_closest_origin_triangle_ex). max_w bounds |w| over the
 * simplex (GJK tracks it), or is negative. */
static inline uint32_t pxi_simplex_solve_newest(const px_simplex* s, float max_w, float bary[4], vec3 dest,
                                                bool* degenerate)
{
    return pxi_simplex_solve_ex(s, true, max_w, bary, dest, degenerate);
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

/* Closest point of the simplex to the origin in double, every feature tried (simplex.c): the slow, sure
 * answer for the rare step whose float solve is known to be wrong. Same contract as
 * pxi_simplex_solve_newest (with newest set, only features containing the last vertex). */
uint32_t pxi_simplex_solve_double(const px_simplex* s, bool newest, float bary[4], vec3 dest);

/* The weights of the closest point of a reduced simplex, recomputed in double.
 *
 * The solver's float weights are exact enough for v, which it computes by a plane projection, but not for
 * the witnesses: point_a - point_b = sum(lambda_i w_i), so a weight error moves it within the simplex's
 * plane, by eps |w| / h for a triangle of height h (the weights are ratios of areas, n . (b x c) over |n|^2).
 * Recomputed in double they are good to 1e-16 |w| / h. They are computed from the simplex's float w, the
 * points v came from, not from the exact p - q: on a short edge far from the origin the foot of the
 * perpendicular moves by the distance over the edge length times w's rounding, and the witnesses must agree
 * with v, not with a simplex rounded differently. The feature is the solver's: false when the double weights
 * disagree with it (one outside [0, 1], rounding at a boundary). */
static inline bool pxi_simplex_weights_double(const px_simplex* s, double lam[4])
{
    int n = s->count;
    if (n < 2 || n > 4)
    {
        return false;
    }
    double w[4][3];
    for (int i = 0; i < n; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            w[i][j] = (double)s->v[i].w[j];
        }
    }
    double l[4];
    if (n == 2)
    {
        double t = pxi_segment_param_double(w[0], w[1]);
        l[0] = 1.0 - t;
        l[1] = t;
    }
    else if (n == 4)
    {
        /* a tetrahedron that encloses the origin: the origin's weights by Cramer's rule on the edges from w[0].
         * The float weights are ratios of side tests, which on a flat tetrahedron (a sliver against a segment
         * through it) err by eps |w|^2 / its height and put the two witnesses apart by that much */
        double e[3][3], r[3];
        for (int j = 0; j < 3; ++j)
        {
            for (int i = 0; i < 3; ++i)
            {
                e[i][j] = w[i + 1][j] - w[0][j];
            }
            r[j] = -w[0][j];
        }
        if (!pxi_tetra_weights_double(e, r, 0.0, l))
        {
            return false;
        }
    }
    else if (!pxi_triangle_weights_double(w[0], w[1], w[2], l))
    {
        return false;
    }
    for (int i = 0; i < n; ++i)
    {
        /* written so that NaN (a zero-length edge) also keeps the float weights */
        if (!(l[i] >= 0.0 && l[i] <= 1.0))
        {
            return false;
        }
    }
    for (int i = 0; i < n; ++i)
    {
        lam[i] = l[i];
    }
    return true;
}

/* The witness points of a reduced simplex from its weights recomputed in double (pxi_simplex_weights_double),
 * summed in double; the float weights' witnesses where those are kept. A segment against a near-parallel
 * polygon ended on a Minkowski triangle 7e-3 long and 7.6e-7 high, 6.9e-6 from the origin, and the float
 * weights' witnesses missed point_b = point_a + d n by 1.9e-7 (2.7e-5 of the shapes' size); a segment
 * touching a segment 1e4 times shorter, at coordinates near 900, ended on a sliver triangle whose float
 * weights put the two witnesses 7e-3 apart. For answers, not for GJK's loop. */
static inline void pxi_simplex_witness_refined(const px_simplex* s, vec3 pa, vec3 pb)
{
    double lam[4];
    if (!pxi_simplex_weights_double(s, lam))
    {
        if (s->count < 2 || s->count > 4)
        {
            pxi_simplex_witness(s, pa, pb);
            return;
        }
        /* A feature the float solve kept, whose double weights leave it (rounding at its boundary) or which in
         * double is flat: its float weights are noise, and the two witnesses they give can be far apart (a
         * tetrahedron called enclosing with a segment touching a sliver: 3e-3 apart, 13 tolerances off B; a
         * sliver triangle 2.2e-6 high across a thin plate, 1.6e-5 from the origin, its double weights -1.7e-4
         * on the short side: the float weights moved point_a by 2.9e-6 along an edge of A 0.083 long, point_a
         * - point_b 0.18 of |v| off v). The nearest feature in double gives witnesses as far apart as the
         * simplex is from the origin. */
        float bary[4];
        vec3 dest;
        (void)pxi_simplex_solve_double(s, false, bary, dest);
        for (int i = 0; i < 4; ++i)
        {
            lam[i] = (double)bary[i];
        }
    }
    for (int j = 0; j < 3; ++j)
    {
        double a = 0.0, b = 0.0;
        for (int i = 0; i < s->count; ++i)
        {
            a += lam[i] * (double)s->v[i].p[j];
            b += lam[i] * (double)s->v[i].q[j];
        }
        pa[j] = (float)a;
        pb[j] = (float)b;
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
