/* Voronoi simplex solver, public entry points. The reduction itself is inline in simplex_internal.h so
 * the GJK loop runs it without a call; this file validates and forwards. */
#include "simplex_internal.h"

void px_simplex_reset(px_simplex* simplex)
{
    memset(simplex, 0, sizeof(*simplex));
}

px_status px_simplex_push(px_simplex* simplex, const vec3 p, const vec3 q, int32_t index_a, int32_t index_b)
{
    if (simplex->count >= PX_SIMPLEX_MAX_VERTICES || simplex->count < 0)
    {
        return PX_WARN_CAPACITY;
    }
    pxi_simplex_push(simplex, p, q, index_a, index_b);
    return PX_OK;
}

bool px_simplex_has_vertex(const px_simplex* simplex, int32_t index_a, int32_t index_b)
{
    if (index_a == PX_NULL_INDEX || index_b == PX_NULL_INDEX)
    {
        return false;
    }
    vec3 unused = { 0.0f, 0.0f, 0.0f };
    return pxi_simplex_contains(simplex, unused, index_a, index_b);
}

/* The weights of the closest point of a reduced simplex, recomputed in double.
 *
 * The solver's float weights are exact enough for v, which it computes by a plane projection, but not for
 * the witnesses: point_a - point_b = sum(lambda_i w_i), so a weight error moves it within the simplex's
 * plane, by eps |w| / h for a triangle of height h (the weights are ratios of areas, n . (b x c) over |n|^2).
 * Recomputed in double they are good to 1e-16 |w| / h. They are computed from the simplex's float w, the
 * points v came from, not from the exact p - q: on a short edge far from the origin the foot of the
 * perpendicular moves by the distance over the edge length times w's rounding, and the witnesses must agree
 * with v, not with a simplex rounded differently. The feature is the solver's: when the double weights
 * disagree with it (one outside [0, 1], rounding at a boundary), the float weights stand. */
bool pxi_simplex_weights_double(const px_simplex* s, double lam[4])
{
    int n = s->count;
    if (n < 2 || n > 3)
    {
        return false;
    }
    double w[3][3];
    for (int i = 0; i < n; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            w[i][j] = (double)s->v[i].w[j];
        }
    }
    double l[3];
    if (n == 2)
    {
        /* the origin's projection on the segment's line: w0 + t e with t = -w0 . e / |e|^2 */
        double e[3] = { w[1][0] - w[0][0], w[1][1] - w[0][1], w[1][2] - w[0][2] };
        double den = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
        double t = -(w[0][0] * e[0] + w[0][1] * e[1] + w[0][2] * e[2]) / den;
        l[0] = 1.0 - t;
        l[1] = t;
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

px_status px_simplex_reduce(px_simplex* simplex, vec3 dest)
{
    if (simplex->count < 1 || simplex->count > PX_SIMPLEX_MAX_VERTICES)
    {
        px_v3_zero(dest);
        return PX_ERR_INVALID_ARGUMENT;
    }
    bool degenerate;
    pxi_simplex_reduce(simplex, dest, &degenerate);
    /* The public API returns weights for the witnesses (px_simplex_witness_points): refine them as GJK does
     * for its final simplex. GJK's own loop does not need them and does not pay for this. */
    double lam[4];
    if (pxi_simplex_weights_double(simplex, lam))
    {
        for (int i = 0; i < simplex->count; ++i)
        {
            simplex->v[i].bary = (float)lam[i];
        }
    }
    return degenerate ? PX_WARN_DEGENERATE : PX_OK;
}

bool px_simplex_encloses_origin(const px_simplex* simplex)
{
    return simplex->count == 4 && simplex->feature == 15u;
}

void px_simplex_witness_points(const px_simplex* simplex, vec3 point_a, vec3 point_b)
{
    pxi_simplex_witness(simplex, point_a, point_b);
}

float px_simplex_max_norm2(const px_simplex* simplex)
{
    return pxi_simplex_max_norm2(simplex);
}

void px_simplex_store_cache(const px_simplex* simplex, px_simplex_cache* cache)
{
    int n = simplex->count;
    for (int i = 0; i < n; ++i)
    {
        if (simplex->v[i].index_a == PX_NULL_INDEX || simplex->v[i].index_b == PX_NULL_INDEX)
        {
            n = 0;
            break;
        }
        cache->index_a[i] = simplex->v[i].index_a;
        cache->index_b[i] = simplex->v[i].index_b;
    }
    cache->count = n;
}
