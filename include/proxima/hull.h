/// @file hull.h
/// Convex hulls built from point clouds (quickhull), with faces, planes, edges and vertex adjacency.
///
/// A built hull is an object: create it once from a point cloud, then make shapes from it with
/// px_shape_from_hull() for as many queries as you like. From px_hull_def.climb_min_vertices vertices on,
/// its support mapping looks the direction up in a table and scans the vertices below that. The table
/// is a cube map of directions, about one and a half cells per vertex, each cell listing (in two
/// cache lines) the vertices that are the support along some direction of the cell, found from their
/// normal cones when the hull is built. A support reads one cell and takes the best of its eight entries:
/// O(1) whatever the hull's size and wherever the directions jump. The few cells with more than eight
/// candidates (about 4% on a smooth hull) climb the vertex adjacency from the best of them (hill climbing,
/// warm-started from the previous support of the same query). The table costs 128 bytes per cell, about
/// 190 bytes per vertex, and adds 20-40% to the build time (1024 to 4096 vertices); smaller hulls keep six
/// cells (under 1 KB), as starts for the odd climb. Hulls of 8 vertices or more also keep their vertices
/// transposed (x, y, z in three arrays, 12 bytes per vertex), which the scans read: GJK below the table's
/// size; EPA at every size (its directions jump from face to face, where a scan of the whole copy beats the
/// table), except for a second shape of up to 64 vertices, posed per query as a cloud's would be; and a
/// contact query's GJK run on cold tables of up to 1024 vertices whose first step does not prove the shapes
/// apart (an overlapping pair's supports then jump too, and EPA will read the whole copy anyway). Small solid hulls
/// (up to 32 vertices) also keep a compact copy of their vertices, face planes and edges, with which
/// px_contact_world computes the exact penetration depth of two of them (or of a box and one) by the
/// separating-axis test instead of EPA (contact.h).
///
/// Degenerate inputs are valid hulls of lower dimension: a single point (dimension 0), a segment (1),
/// a flat convex polygon (2, two-sided: one face per side). Duplicate and interior points are dropped.
/// Queries on a hull are reentrant; the hull is immutable after creation.
///
/// The build is exact where it can be and approximate only as far as px_hull_def.tolerance allows: the
/// points are snapped to a 2^30 grid over their bounding box (moving them by at most 2^-31 of its size),
/// on which every orientation test is exact, so the hull is always a valid convex polytope, whatever the
/// duplicates, collinear or coplanar points; then points nearer the hull than the tolerance are dropped and
/// nearly coplanar faces merged. Building from n points takes O(n log n) time in practice and O(n) memory.
#pragma once

#include "proxima/base.h"
#include "proxima/shapes.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Default of px_hull_def.climb_min_vertices: hulls with at least this many vertices get a direction table
/// and use it (with hill climbing where it does not settle a support) for their support mapping in GJK;
/// smaller ones use the SIMD scan. Measured with bench/bench_contact.cpp (workload 2): when the hull's data
/// is warm in cache (the same pair queried again and again) the table wins from about 64 vertices (1.4x
/// at 128, 1.6x at 256, 2.8x at 1024, against the scan of the hull's transposed copy); when every query
/// meets cold data (a physics step over many bodies) each lookup is a cache miss and the scan's streaming
/// reads win below about 1024 (the table 0.6x at 128, 0.7x at 256, 0.8x at 512, 1.1x at 1024). 256 splits
/// the difference and keeps the table's memory off small hulls.
#define PX_HULL_HILL_CLIMB_MIN_VERTICES 256

/// A built convex hull. Opaque: read it with the accessors below.
typedef struct px_hull px_hull;

/// Options of px_hull_create. Initialize with px_hull_default_def().
typedef struct px_hull_def
{
    px_allocator allocator; ///< Memory for the hull (all-zero: malloc/free)
    /// How far the hull may be from the exact convex hull of the points, as a fraction of the cloud's extent
    /// (the largest side of its bounding box). Every point lies within tolerance x extent of the hull, so
    /// the hull's support in any direction is within that of the cloud's, and no point is farther than half
    /// of it outside any face plane. Half of it goes to welding: a point within half the tolerance of the
    /// hull built so far is not added (duplicates, interior and nearly coplanar points are dropped), and a
    /// cloud within half of it of a line or a plane is a segment or a flat polygon. The other half goes to
    /// merging: neighbouring faces whose union is convex and flat within half the tolerance, and whose
    /// normals agree within 8 degrees, become one face (exactly coplanar faces always merge). Values
    /// below about 1e-8 are no more accurate than the grid the points are snapped to. [Units: none]
    /// [Limit: > 0, finite]
    float tolerance;
    /// Stop adding vertices beyond this many (0: no limit). The build adds the point farthest outside the
    /// hull first, so a limit keeps the most significant vertices; 1, 2 and 3 give a point, a segment and a
    /// triangle. [Limit: >= 0]
    int max_vertices;
    /// Build a direction table and look supports up in it (instead of scanning every vertex) from this
    /// many vertices on. Lower it (to about 32) when the same hulls are queried many times in a row, raise
    /// it (to about 512) when each query meets the hull's data cold in cache; INT_MAX always scans.
    /// Default PX_HULL_HILL_CLIMB_MIN_VERTICES. [Limit: >= 1]
    int climb_min_vertices;
    int internal_value; ///< Set by px_hull_default_def(). Do not set.
} px_hull_def;

/// One face of a hull: a convex polygon, counter-clockwise seen from outside. A merged face is planar and
/// convex within the tolerance; its corners are all vertices of the hull.
typedef struct px_hull_face
{
    int first; ///< First entry in px_hull_face_indices()
    int count; ///< Number of vertices [Limit: >= 3]
    /// Outward unit normal (x, y, z) and offset w: n . x = w on the face. The plane supports the hull: no
    /// hull vertex is above it (beyond float rounding), and the face's own vertices are within half the
    /// tolerance below it. The two faces of a flat hull have exactly opposite normals, and their planes
    /// bound every input point (the polygon lies between them, at most the tolerance apart).
    vec4 plane;
} px_hull_face;

/// Default options: allocator malloc/free, tolerance 1e-5, no vertex limit.
PX_API px_hull_def px_hull_default_def(void);

/// Build the convex hull of count points (packed xyz). The points are copied; the hull's vertices are some
/// of them, bit for bit.
///
/// A cloud whose extent is within two float ulps of its coordinates' magnitude is a single point (the first
/// one). A cloud within half the tolerance of a line is the segment between its two extreme points; of a
/// plane, a flat polygon: its vertices in order, counter-clockwise about face 0's normal, two faces (one per
/// side, opposite windings and normals) and its edges; the neighbours of each vertex are the one or two
/// next to it. A solid hull satisfies V - E + F = 2, every edge is shared by two faces, and every vertex
/// is on three faces or more, or on two nearly back to back (the rim of a part thinner than the tolerance).
/// @param[in]  points  [(x, y, z) * count], any values except NaN and Inf
/// @param[in]  count   [Limit: 1 .. 2^28]
/// @param[in]  def     Options, or NULL for defaults
/// @param[out] hull    The new hull; NULL on error
/// @return PX_OK; PX_WARN_DEGENERATE when the hull is flat, a segment or a point (still valid and usable);
///         PX_WARN_CAPACITY when max_vertices stopped the build (a valid hull of the vertices found, which
///         may leave points outside); PX_ERR_INVALID_ARGUMENT (NULL points or hull, count out of range, def
///         not from px_hull_default_def(), tolerance not > 0 or not finite, max_vertices < 0, an allocator
///         with only one of its functions); PX_ERR_NON_FINITE (NaN or Inf in a point);
///         PX_ERR_OUT_OF_MEMORY (nothing leaked); PX_ERR_DEGENERATE_INPUT if a build ever ends with fewer
///         vertices or faces than its dimension needs (a consistency check, not expected). On an error *hull
///         is NULL.
PX_API PX_NODISCARD px_status px_hull_create(const float* points, int count, const px_hull_def* def,
                                             px_hull** hull);

/// Free a hull. NULL is ignored.
PX_API void px_hull_destroy(px_hull* hull);

/// 0 for a point, 1 for a segment, 2 for a flat polygon, 3 for a solid (0 for NULL).
PX_API int px_hull_dimension(const px_hull* hull);

/// Number of hull vertices (0 for NULL).
PX_API int px_hull_vertex_count(const px_hull* hull);

/// Hull vertices, packed xyz [(x, y, z) * px_hull_vertex_count()] (NULL for NULL). A solid's are in no
/// particular order; a polygon's go round it; a segment's are its two ends.
PX_API const float* px_hull_vertices(const px_hull* hull);

/// Number of faces (0 below dimension 2; a flat polygon has two, one per side; 0 for NULL).
PX_API int px_hull_face_count(const px_hull* hull);

/// The faces, [px_hull_face_count()] (NULL when there are none).
PX_API const px_hull_face* px_hull_faces(const px_hull* hull);

/// Vertex indices of all faces, concatenated (see px_hull_face.first / count; NULL when there are none).
PX_API const int32_t* px_hull_face_indices(const px_hull* hull);

/// Number of edges (undirected; 0 for NULL).
PX_API int px_hull_edge_count(const px_hull* hull);

/// Edges as vertex index pairs [(i, j) * px_hull_edge_count()], each once (NULL when there are none).
PX_API const int32_t* px_hull_edges(const px_hull* hull);

/// Neighbors of vertex v along hull edges: writes a pointer to them (when neighbors is not NULL) and returns
/// how many there are. For a NULL hull or v out of range: 0, and *neighbors = NULL.
PX_API int px_hull_vertex_neighbors(const px_hull* hull, int v, const int32_t** neighbors);

/// A shape whose core is the hull (radius 0; set shape.radius to round it). The hull must outlive the
/// shape. Its vertices are also its px_shape_hull points, so everything that takes a hull shape works.
/// A NULL hull gives a hull shape with no points, which queries reject.
PX_API px_shape px_shape_from_hull(const px_hull* hull);

#ifdef __cplusplus
}
#endif
