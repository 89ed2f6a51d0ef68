/// @file simplex.h
/// Voronoi simplex solver on the Minkowski difference A - B, after Bullet's btVoronoiSimplexSolver:
/// 1 to 4 vertices w = p - q, each remembering its witness points p (on A) and q (on B). Reduction keeps
/// the sub-simplex whose Voronoi region holds the origin and sets barycentric weights; the witness points
/// are the same weights applied to p and q. Collinear, coplanar and duplicate vertices fall back to the
/// nearest lower-dimensional feature, never NaN. Triangles and tetrahedra reuse geometry.h's kernels.
#pragma once

#include "proxima/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Maximum number of simplex vertices (a tetrahedron).
#define PX_SIMPLEX_MAX_VERTICES 4

/// One simplex vertex: w = p - q, with the support points that produced it.
typedef struct px_simplex_vertex
{
    vec3 w;          ///< Minkowski difference point, p - q
    vec3 p;          ///< Support point on A (query frame)
    vec3 q;          ///< Support point on B (query frame)
    float bary;      ///< Barycentric weight in the current closest point [Limit: 0..1]
    int32_t index_a; ///< Support vertex index on A, PX_NULL_INDEX when the shape has none
    int32_t index_b; ///< Support vertex index on B, PX_NULL_INDEX when the shape has none
} px_simplex_vertex;

/// A simplex of 0 to 4 vertices. Zero-initialize or call px_simplex_reset().
typedef struct px_simplex
{
    px_simplex_vertex v[PX_SIMPLEX_MAX_VERTICES]; ///< Vertices, oldest first
    int count;                                    ///< Number of valid vertices [Limit: 0..4]
    uint32_t feature; ///< Vertices kept by the last reduce, as bits of the pre-reduce order (1 = v[0] ...)
} px_simplex;

/// Warm-start cache of one shape pair: the support indices of its last simplex and its last search
/// axis. All-zero (PX_SIMPLEX_CACHE_INIT) means empty. Each pair owns its cache; never share one.
typedef struct px_simplex_cache
{
    int32_t index_a[PX_SIMPLEX_MAX_VERTICES]; ///< Support indices on A
    int32_t index_b[PX_SIMPLEX_MAX_VERTICES]; ///< Support indices on B
    int count;    ///< Number of cached vertices; 0 when the shapes have no vertex indices [Limit: 0..4]
    float metric; ///< Squared distance of the cached result (diagnostic)
    vec3 axis;    ///< Last closest point of A - B (frame A); the start direction when count == 0
} px_simplex_cache;

/// Static initializer of an empty cache.
#define PX_SIMPLEX_CACHE_INIT { { 0 }, { 0 }, 0, 0.0f, { 0.0f, 0.0f, 0.0f } }

/// Empty the simplex.
PX_API void px_simplex_reset(px_simplex* simplex);

/// Append a vertex from support points p (on A) and q (on B).
/// @return PX_OK, or PX_WARN_CAPACITY when the simplex already holds 4 vertices (nothing added).
PX_API PX_NODISCARD px_status px_simplex_push(px_simplex* simplex, const vec3 p, const vec3 q, int32_t index_a,
                                              int32_t index_b);

/// True if a vertex with these support indices is already present (GJK's cycling guard). Always false
/// when either index is PX_NULL_INDEX.
PX_API bool px_simplex_has_vertex(const px_simplex* simplex, int32_t index_a, int32_t index_b);

/// Reduce to the sub-simplex closest to the origin: drops the other vertices, sets the weights and
/// the feature mask.
/// @param[out] dest  Closest point of the simplex to the origin (0 when a tetrahedron encloses it)
/// @return PX_OK; PX_WARN_DEGENERATE when a flat tetrahedron or degenerate triangle forced the fallback
///         to its faces or edges (the result is still the nearest point); PX_ERR_INVALID_ARGUMENT for an
///         empty simplex (dest zeroed).
PX_API PX_NODISCARD px_status px_simplex_reduce(px_simplex* simplex, vec3 dest);

/// True after px_simplex_reduce() when the simplex is a tetrahedron that encloses the origin.
PX_API bool px_simplex_encloses_origin(const px_simplex* simplex);

/// Witness points on A and B from the current barycentric weights (zero for an empty simplex).
PX_API void px_simplex_witness_points(const px_simplex* simplex, vec3 point_a, vec3 point_b);

/// Largest |w|^2 over the vertices: the scale for relative termination tests.
PX_API float px_simplex_max_norm2(const px_simplex* simplex);

/// Store the simplex's support indices into a warm-start cache (count 0 if any index is missing).
PX_API void px_simplex_store_cache(const px_simplex* simplex, px_simplex_cache* cache);

#ifdef __cplusplus
}
#endif
