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

/* A tetrahedron whose volume is below this fraction of the product of its edges from w0 is too flat for the
 * double solver's "inside" test (weights good to about 1e-16 over this ratio); its faces decide. */
#define PXI_DOUBLE_TETRA_FLAT_REL 1.0e-8

/* Closest point of the simplex to the origin, in double, by trying every feature (Johnson's sub-algorithm
 * by brute force): a feature's candidate is the origin's projection onto its affine hull when its weights
 * are all positive, and the nearest candidate wins. Every candidate is a point of the simplex and the true
 * answer is the candidate of its own feature, so the minimum is right whatever the shape of the simplex;
 * double keeps a sliver's plane to 1e-16 of its vertices' size where float loses it (see gjk.c). Fifteen
 * small solves: for the rare call, never the loop's common path. */
uint32_t pxi_simplex_solve_double(const px_simplex* s, bool newest, float bary[4], vec3 dest)
{
    const int n = s->count;
    double w[4][3];
    for (int i = 0; i < n; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            w[i][j] = (double)s->v[i].w[j];
        }
    }
    const uint32_t need = newest ? 1u << (n - 1) : 0u;
    uint32_t best = 0u;
    double best_d2 = INFINITY, best_lam[4] = { 0.0, 0.0, 0.0, 0.0 }, best_v[3] = { 0.0, 0.0, 0.0 };
    for (uint32_t f = 1u; f < (1u << n); ++f)
    {
        if ((f & need) != need)
        {
            continue;
        }
        int idx[4] = { 0, 0, 0, 0 }, m = 0;
        for (int i = 0; i < n; ++i)
        {
            if (f & (1u << i))
            {
                idx[m++] = i;
            }
        }
        double lam[4] = { 1.0, 0.0, 0.0, 0.0 };
        double v[3] = { w[idx[0]][0], w[idx[0]][1], w[idx[0]][2] };
        if (m == 2)
        {
            const double* a = w[idx[0]];
            double t = pxi_segment_param_double(a, w[idx[1]]);
            if (!(t > 0.0 && t < 1.0))
            {
                continue; /* also a zero-length edge (NaN) */
            }
            lam[0] = 1.0 - t;
            lam[1] = t;
            for (int j = 0; j < 3; ++j)
            {
                v[j] = a[j] + t * (w[idx[1]][j] - a[j]);
            }
        }
        else if (m == 3)
        {
            if (!pxi_triangle_weights_double(w[idx[0]], w[idx[1]], w[idx[2]], lam) ||
                !(lam[0] > 0.0 && lam[1] > 0.0 && lam[2] > 0.0))
            {
                continue;
            }
            for (int j = 0; j < 3; ++j)
            {
                v[j] = lam[0] * w[idx[0]][j] + lam[1] * w[idx[1]][j] + lam[2] * w[idx[2]][j];
            }
        }
        else if (m == 4)
        {
            /* Cramer's rule on the edges from w0: w0 + sum l_i e_i = 0 */
            double e[3][3], r[3] = { -w[0][0], -w[0][1], -w[0][2] };
            double len = 1.0;
            for (int i = 0; i < 3; ++i)
            {
                for (int j = 0; j < 3; ++j)
                {
                    e[i][j] = w[i + 1][j] - w[0][j];
                }
                len *= sqrt(e[i][0] * e[i][0] + e[i][1] * e[i][1] + e[i][2] * e[i][2]);
            }
            if (!pxi_tetra_weights_double(e, r, PXI_DOUBLE_TETRA_FLAT_REL * len, lam) ||
                !(lam[0] >= 0.0 && lam[1] >= 0.0 && lam[2] >= 0.0 && lam[3] >= 0.0))
            {
                continue;
            }
            for (int i = 0; i < 4; ++i)
            {
                bary[i] = (float)lam[i];
            }
            px_v3_zero(dest);
            return 15u; /* the origin is inside: nothing is nearer */
        }
        double d2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (d2 < best_d2)
        {
            best = f;
            best_d2 = d2;
            best_lam[0] = best_lam[1] = best_lam[2] = best_lam[3] = 0.0;
            for (int i = 0; i < m; ++i)
            {
                best_lam[idx[i]] = lam[i];
            }
            best_v[0] = v[0];
            best_v[1] = v[1];
            best_v[2] = v[2];
        }
    }
    for (int i = 0; i < 4; ++i)
    {
        bary[i] = (float)best_lam[i];
    }
    px_v3_set((float)best_v[0], (float)best_v[1], (float)best_v[2], dest);
    return best;
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
