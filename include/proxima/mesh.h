/// @file mesh.h
/// Triangle meshes with a bounding volume hierarchy: ray casts, closest points, box queries, and (in
/// narrowphase) distances, contacts and sweeps of convex shapes against them.
///
/// px_mesh_create copies the triangles and builds a binned-SAH BVH over them, then flattens it into 8-wide
/// nodes whose eight child boxes are tested at once (AVX2 where the CPU has it, else two SSE halves). Leaves
/// hold 1 to px_mesh_def.leaf_triangles triangles, copied in leaf order into packets of four that one SIMD
/// test checks together, so a query reads them without chasing the index array.
///
/// Ray casts use the watertight ray-triangle test (px_ray_triangle_watertight): a ray through an edge or a
/// vertex shared by triangles of the mesh hits one of them; it never slips through the gap that a
/// per-triangle Möller-Trumbore test leaves at shared edges. Among equal t, the lowest triangle index wins, so
/// results do not depend on the tree.
///
/// Degenerate triangles (zero area, repeated indices) are accepted: ray casts never hit them, closest-point
/// queries treat them as segments or points. The mesh is immutable after creation; every query is reentrant
/// and may run on any number of threads at once.
#pragma once

#include "proxima/base.h"
#include "proxima/geometry.h"
#include "proxima/io.h"
#include "proxima/task.h"

#ifdef __cplusplus
extern "C"
{
#endif

/// Largest px_mesh_def.leaf_triangles.
#define PX_MESH_MAX_LEAF_TRIANGLES 8

/// Largest triangle or vertex count of a mesh (2^28), so that node and triangle indices fit with room to spare.
#define PX_MESH_MAX_COUNT (1 << 28)

    /// A triangle mesh and its BVH. Opaque.
    typedef struct px_mesh px_mesh;

    /// Options of px_mesh_create. Initialize with px_mesh_default_def().
    typedef struct px_mesh_def
    {
        px_allocator allocator; ///< Memory for the mesh (all-zero: malloc/free)
        /// Largest number of triangles in a leaf. Leaves are made smaller when the surface area heuristic
        /// says so. Default 4. [Limit: 1 .. PX_MESH_MAX_LEAF_TRIANGLES]
        int leaf_triangles;
        /// Bins per axis of the SAH build. More bins give a slightly better tree and a slower build.
        /// Default 16. [Limit: 4 .. 64]
        int sah_bins;
        /// Threads for the build (NULL: the calling thread only). Large meshes (16384 triangles or more) build
        /// their subtrees as tasks; the tree is the same whatever the threads. Only used during px_mesh_create.
        const px_task_system* tasks;
        /// Find which triangle edges are active (px_mesh_active_edges) and each edge's neighbour (13 bytes
        /// per triangle), for the internal-edge correction of convex-vs-mesh contacts. false skips that pass
        /// (a fifth to a third of px_mesh_create's time) for
        /// meshes that only take rays, closest points, distances or casts; their contacts are then left as the
        /// triangles alone give them. Default true.
        bool find_active_edges;
        int internal_value; ///< Set by px_mesh_default_def(). Do not set.
    } px_mesh_def;

    /// Default options: malloc/free, leaves of up to 4 triangles, 16 SAH bins, no threads, active edges.
    PX_API px_mesh_def px_mesh_default_def(void);

    /// Build a mesh. The vertices and indices are copied.
    /// @param[in]  vertices        Packed xyz [(x, y, z) * vertex_count], finite
    /// @param[in]  vertex_count    [Limit: 0 .. PX_MESH_MAX_COUNT]
    /// @param[in]  indices         3 vertex indices per triangle, 0-based [Limit: 0 .. vertex_count - 1]
    /// @param[in]  triangle_count  [Limit: 0 .. PX_MESH_MAX_COUNT]; a mesh of 0 triangles is valid (queries
    ///                             find nothing)
    /// @param[in]  def             Options, or NULL for defaults
    /// @param[out] mesh            The new mesh; NULL on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL mesh, NULL arrays with non-zero counts, negative or too
    ///         large counts, an index out of range, def not from px_mesh_default_def() or out of its limits,
    ///         half an allocator); PX_ERR_NON_FINITE (NaN or Inf in a vertex used by a triangle);
    ///         PX_ERR_OUT_OF_MEMORY (nothing leaked).
    PX_API PX_NODISCARD px_status px_mesh_create(const float* vertices, int vertex_count, const int32_t* indices,
                                                 int triangle_count, const px_mesh_def* def, px_mesh** mesh);

    /// Read an OBJ file (see io.h for what is accepted) and build its mesh.
    /// @return as px_mesh_create, plus PX_ERR_IO (cannot open or read) and PX_ERR_PARSE (malformed file; no
    ///         mesh). Use px_mesh_load_obj_report() to get the line and the reason.
    PX_API PX_NODISCARD px_status px_mesh_load_obj(const char* path, const px_mesh_def* def, px_mesh** mesh);

    /// px_mesh_load_obj, also writing why reading failed to *error (may be NULL): the line number and a
    /// message such as "line 12: face index 40 out of range (30 vertices)".
    PX_API PX_NODISCARD px_status px_mesh_load_obj_report(const char* path, const px_mesh_def* def,
                                                          px_mesh** mesh, px_obj_error* error);

    /// Free a mesh. NULL is ignored.
    PX_API void px_mesh_destroy(px_mesh* mesh);

    /// Number of triangles (0 for NULL).
    PX_API int px_mesh_triangle_count(const px_mesh* mesh);

    /// Number of vertices (0 for NULL).
    PX_API int px_mesh_vertex_count(const px_mesh* mesh);

    /// The mesh's copy of the vertices, packed xyz (NULL for NULL or an empty mesh).
    PX_API const float* px_mesh_vertices(const px_mesh* mesh);

    /// The mesh's copy of the indices, 3 per triangle (NULL for NULL or an empty mesh).
    PX_API const int32_t* px_mesh_indices(const px_mesh* mesh);

    /// Bit of px_mesh_active_edges() for edge i (0..2) of a triangle, the edge from its vertex i to vertex
    /// (i + 1) % 3, seen from the front (the side cross(v1 - v0, v2 - v0) points to).
#define PX_MESH_EDGE_FRONT(i) (1u << (i))
    /// The same seen from the back.
#define PX_MESH_EDGE_BACK(i) (8u << (i))

    /// Two triangles sharing an edge whose normals differ by less than this angle meet at a flat edge, never
    /// active. [Units: degrees]
#define PX_MESH_ACTIVE_EDGE_ANGLE 5.0f

    /// Which triangle edges are "active", one byte per triangle (PX_MESH_EDGE_FRONT(i) | PX_MESH_EDGE_BACK(i)
    /// bits), computed once by px_mesh_create.
    ///
    /// An edge is inactive where the surface continues smoothly past it: a shape sliding across it should
    /// only ever touch the faces. Contacts of convex shapes with a triangle whose witness lies on its inactive
    /// edges get the triangle's face normal instead of the edge's (the "internal edge" or ghost collision
    /// fix; see px_mesh_shape_contacts and px_world_contacts). Edges are matched by vertex index and by
    /// position (vertices repeated at exactly the same place are the same vertex, as OBJ files often have).
    /// Seen from one side, an edge is active when it is:
    ///  - a boundary edge (no other triangle has it), or shared by three or more triangles;
    ///  - an edge of a degenerate triangle (zero area, a sliver), or shared with one;
    ///  - convex seen from that side (the neighbour bends away from it) by more than
    ///    PX_MESH_ACTIVE_EDGE_ANGLE between the two normals.
    /// Flat edges and concave ones (a floor meeting a wall, seen from the room) are inactive. The neighbour's
    /// winding does not matter: a neighbour wound the other way is compared with its normal reversed.
    /// @return [triangle_count] bytes, or NULL for NULL or an empty mesh, or a mesh built without them
    ///         (px_mesh_def.find_active_edges false).
    PX_API const uint8_t* px_mesh_active_edges(const px_mesh* mesh);

    /// Bounds of all triangles (an inverted box, min > max, for an empty mesh or NULL).
    PX_API px_aabb px_mesh_bounds(const px_mesh* mesh);

    /// The shape of the tree, for tests and tuning.
    typedef struct px_mesh_stats
    {
        int node_count;       ///< 8-wide inner nodes
        int leaf_count;       ///< Leaves
        int depth;            ///< Largest number of nodes from the root to a leaf
        float sah_cost;       ///< Surface-area cost of the tree (relative to the root's area; lower is better)
        size_t memory_bytes;  ///< Memory held by the mesh
    } px_mesh_stats;

    /// Statistics of the tree (all zero for NULL).
    PX_API px_mesh_stats px_mesh_get_stats(const px_mesh* mesh);

    /// Closest hit of a ray on either side of the triangles (both-sided, watertight).
    /// result->triangle is the triangle index, u and v the barycentric weights of its second and third
    /// vertices, normal the unit geometric normal turned to face the ray's origin. The watertight test forms
    /// products of three coordinates (relative to the ray's origin): triangles farther from it than about
    /// 1e12 (2^40) are missed, as the products overflow float.
    /// @return PX_OK (hit or not); PX_ERR_INVALID_ARGUMENT (NULL argument, negative max_t);
    ///         PX_ERR_NON_FINITE (NaN or Inf in origin or direction, NaN max_t);
    ///         PX_ERR_DEGENERATE_INPUT (zero direction). On an error, *result is cleared (hit == false).
    PX_API PX_NODISCARD px_status px_mesh_ray_cast(const px_mesh* mesh, const px_ray* ray, px_ray_hit* result);

    /// px_mesh_ray_cast, choosing which sides of the triangles count: PX_TRIANGLE_FRONT_ONLY ignores
    /// triangles seen from behind (the front is the side cross(v1 - v0, v2 - v0) points to).
    PX_API PX_NODISCARD px_status px_mesh_ray_cast_sided(const px_mesh* mesh, const px_ray* ray,
                                                         px_triangle_sides sides, px_ray_hit* result);

    /// Whether the ray hits anything within max_t (both-sided, watertight): an occlusion test that stops at
    /// the first hit found. Same statuses as px_mesh_ray_cast; *hit is false on an error.
    PX_API PX_NODISCARD px_status px_mesh_ray_cast_any(const px_mesh* mesh, const px_ray* ray, bool* hit);

    /// Closest hits of many rays (both-sided), hits[i] for rays[i], split across threads by tasks (NULL: this
    /// thread). The hits are the same as px_mesh_ray_cast's whatever the task system. Allocates nothing.
    /// @return PX_OK, or the first error (lowest ray index) of px_mesh_ray_cast; every ray is still cast and a
    ///         ray with an error gets a cleared hit. PX_ERR_INVALID_ARGUMENT for NULL arrays with count > 0.
    PX_API PX_NODISCARD px_status px_mesh_ray_cast_batch(const px_mesh* mesh, const px_ray* rays, int count,
                                                         px_ray_hit* hits, const px_task_system* tasks);

    /// Result of a closest-point query. found == false (and everything else zero) when nothing is within reach.
    typedef struct px_point_result
    {
        bool found;       ///< Whether a point was found within max_distance
        float distance;   ///< Distance from the query point to point
        vec3 point;       ///< Closest point on the mesh
        vec3 normal;      ///< Unit normal of the triangle, facing the query point (zero for a degenerate one)
        int32_t triangle; ///< Index of the triangle, PX_NULL_INDEX when not found
    } px_point_result;

    /// Closest point on the mesh to point, searched within max_distance (INFINITY: everywhere).
    /// result->normal is the unit geometric normal of the closest triangle, facing point when point is off
    /// its plane. Among triangles at the same distance, the lowest index wins.
    /// @return PX_OK (found or not); PX_ERR_INVALID_ARGUMENT (NULL argument, negative or NaN max_distance);
    ///         PX_ERR_NON_FINITE (NaN or Inf in point). On an error *result is cleared (found == false).
    PX_API PX_NODISCARD px_status px_mesh_closest_point(const px_mesh* mesh, const vec3 point, float max_distance,
                                                        px_point_result* result);

    /// Called by px_mesh_query_aabb for each triangle found; return false to stop the query.
    typedef bool px_mesh_triangle_fn(int32_t triangle, void* context);

    /// Every triangle whose bounding box overlaps box (closed intervals), in no particular order. The test is
    /// on bounds, so a triangle whose box touches the query box is reported even if the triangle itself does
    /// not; use it to gather candidates for an exact test.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL mesh, box or fn); PX_ERR_NON_FINITE (NaN in box; an
    ///         inverted box finds nothing).
    PX_API PX_NODISCARD px_status px_mesh_query_aabb(const px_mesh* mesh, const px_aabb* box, px_mesh_triangle_fn* fn,
                                                     void* context);

    /// px_mesh_query_aabb into an array: the triangles whose bounds overlap box, in increasing index order.
    /// *count is the number found; when it exceeds capacity, the capacity lowest indices are written (in
    /// increasing order) and the call returns PX_WARN_CAPACITY.
    /// @return PX_OK; PX_WARN_CAPACITY when *count > capacity; the errors of px_mesh_query_aabb.
    PX_API PX_NODISCARD px_status px_mesh_overlap_aabb(const px_mesh* mesh, const px_aabb* box, int32_t* triangles,
                                                       int capacity, int* count);

#ifdef __cplusplus
}
#endif
