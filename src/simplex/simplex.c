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
