/// @file hull.h
/// Convex hulls built from point clouds (quickhull), with faces, planes, edges and vertex adjacency.
///
/// A built hull is an object: create it once from a point cloud, then make shapes from it with
/// px_shape_from_hull() for as many queries as you like. Its support mapping climbs the vertex adjacency
/// from the previous support vertex (hill climbing) above PX_HULL_HILL_CLIMB_MIN_VERTICES vertices and
/// scans the vertices below, so large hulls cost O(sqrt n) per support instead of O(n).
///
/// Degenerate inputs are valid hulls of lower dimension: a single point (dimension 0), a segment (1),
/// a flat convex polygon (2, two-sided: one face per side). Duplicate and interior points are dropped.
/// Queries on a hull are reentrant; the hull is immutable after creation.
#pragma once

#include "proxima/base.h"
#include "proxima/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Hulls with at least this many vertices use hill climbing over the adjacency for their support
/// mapping; smaller ones use the SIMD scan (which wins below it; see bench/). [Limit: >= 4]
#define PX_HULL_HILL_CLIMB_MIN_VERTICES 48

/// A built convex hull. Opaque: read it with the accessors below.
typedef struct px_hull px_hull;

/// Options of px_hull_create. Initialize with px_hull_default_def().
typedef struct px_hull_def
{
    px_allocator allocator; ///< Memory for the hull (all-zero: malloc/free)
    /// Points closer than this fraction of the cloud's extent are welded, and a point within it of a
    /// face's plane counts as on the plane (coplanar faces are merged). [Units: none] [Limit: > 0]
    float tolerance;
    int max_vertices;   ///< Stop adding vertices beyond this many (0: no limit) [Limit: >= 0]
    int internal_value; ///< Set by px_hull_default_def(). Do not set.
} px_hull_def;

/// One face of a hull: a convex polygon, counter-clockwise seen from outside.
typedef struct px_hull_face
{
    int first;   ///< First entry in px_hull_face_indices()
    int count;   ///< Number of vertices [Limit: >= 3]
    vec4 plane;  ///< Outward unit normal (x, y, z) and offset w: n . x = w on the face
} px_hull_face;

/// Default options: allocator malloc/free, tolerance 1e-5, no vertex limit.
PX_API px_hull_def px_hull_default_def(void);

/// Build the convex hull of count points (packed xyz). The points are copied.
/// @param[in]  points  [(x, y, z) * count]
/// @param[in]  count   [Limit: > 0]
/// @param[in]  def     Options, or NULL for defaults
/// @param[out] hull    The new hull; NULL on error
/// @return PX_OK; PX_WARN_DEGENERATE when the hull is flat, a segment or a point (still valid and usable);
///         PX_WARN_CAPACITY when max_vertices stopped the build (the hull of the first vertices found);
///         PX_ERR_INVALID_ARGUMENT (NULL pointer, count <= 0, bad def); PX_ERR_NON_FINITE (NaN or Inf in a
///         point); PX_ERR_OUT_OF_MEMORY.
PX_API PX_NODISCARD px_status px_hull_create(const float* points, int count, const px_hull_def* def,
                                             px_hull** hull);

/// Free a hull. NULL is ignored.
PX_API void px_hull_destroy(px_hull* hull);

/// 0 for a point, 1 for a segment, 2 for a flat polygon, 3 for a solid.
PX_API int px_hull_dimension(const px_hull* hull);

/// Number of hull vertices.
PX_API int px_hull_vertex_count(const px_hull* hull);

/// Hull vertices, packed xyz [(x, y, z) * px_hull_vertex_count()].
PX_API const float* px_hull_vertices(const px_hull* hull);

/// Number of faces (0 below dimension 2; a flat polygon has two, one per side).
PX_API int px_hull_face_count(const px_hull* hull);

/// The faces, [px_hull_face_count()].
PX_API const px_hull_face* px_hull_faces(const px_hull* hull);

/// Vertex indices of all faces, concatenated (see px_hull_face.first / count).
PX_API const int32_t* px_hull_face_indices(const px_hull* hull);

/// Number of edges (undirected).
PX_API int px_hull_edge_count(const px_hull* hull);

/// Edges as vertex index pairs [(i, j) * px_hull_edge_count()].
PX_API const int32_t* px_hull_edges(const px_hull* hull);

/// Neighbors of vertex v along hull edges: writes a pointer to them and returns how many there are.
PX_API int px_hull_vertex_neighbors(const px_hull* hull, int v, const int32_t** neighbors);

/// A shape whose core is the hull (radius 0; set shape.radius to round it). The hull must outlive the
/// shape. Its vertices are also its px_shape_hull points, so everything that takes a hull shape works.
PX_API px_shape px_shape_from_hull(const px_hull* hull);

#ifdef __cplusplus
}
#endif
