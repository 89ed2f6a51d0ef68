/// @file heightfield.h
/// Span heightfields of solid space, as in Recast's first stage (walkable-surface baking for navigation
/// meshes): triangles marked walkable by slope, rasterized into columns of solid spans, then filtered.
///
/// The field covers [bmin, bmax] with width x depth square columns of cell_size along x and z (y is up).
/// Column (x, z) spans [bmin.x + x cs, bmin.x + (x + 1) cs] x [bmin.z + z cs, bmin.z + (z + 1) cs]. Each
/// column holds a list of disjoint solid spans, bottom-up, with heights in cell_height units above bmin.y:
/// a span [smin, smax) is solid from bmin.y + smin ch to bmin.y + smax ch. Every span has smin < smax, and
/// two spans of a column never touch (next.smin > smax): touching or overlapping spans merge into one.
///
/// **Recast compatibility.** Rasterization and the three filters reproduce `rcRasterizeTriangles`,
/// `rcFilterLowHangingWalkableObstacles`, `rcFilterLedgeSpans` and `rcFilterWalkableLowHeightSpans` of
/// Debian's Recast (1.5.1+git20210215) span for span: the same clipping of each triangle into rows and
/// cells, the same float operations in the same order, the same rounding of heights, the same merge
/// rules. tests/oracle_recast checks it against the library. proxima differs only where Recast's result
/// is invalid or undefined:
/// - Recast stores heights in 13 bits and wraps above 8191 (spans such as [8191, 0)); proxima keeps 16
///   bits and refuses to create a field taller than PX_SPAN_MAX_HEIGHT cells, so no span is ever invalid.
/// - Recast's clipping buffers hold 7 vertices and overflow on some triangles with vertices within an
///   ulp of cell lines (Recast issue #687); proxima's buffers are large enough for any polygon the
///   clipping can produce from a triangle.
/// - Recast converts floats to int without range checks (undefined for huge coordinates); proxima checks
///   every conversion first and rejects NaN and Inf vertices.
/// - The filters treat the space above a column's top span as open without limit; Recast measures it up
///   to height 65535, which matters only for walkable_height >= 57344.
/// - px_mark_walkable_triangles does not mark vertical or downward-facing triangles walkable for slope
///   limits of 90 degrees or more (Recast documents limits below 90 and marks vertical walls walkable at
///   90), nor triangles whose normal underflows to zero length.
///
/// Spans live in pools of PX_HEIGHTFIELD_SPANS_PER_POOL (the lowest span of each column in the column array
/// itself): adding a span allocates only when every pool is full. A field may be read from any number of
/// threads at once; functions that change it need exclusive access.
///
/// Rasterization is about 1.5 to 1.9 times as fast as Recast's on one thread (the shared test meshes): the
/// splits run branch-free with SSE, and rows and columns whose polygon keeps the common shape (one run of
/// vertices beyond the line) are swept with the polygon in registers; the float operations are Recast's.
#pragma once

#include "proxima/base.h"
#include "proxima/mesh.h"
#include "proxima/task.h"

#ifdef __cplusplus
extern "C"
{
#endif

/// Area id of a span nobody can walk on (Recast's RC_NULL_AREA).
#define PX_NULL_AREA 0

/// Area id px_mark_walkable_triangles gives walkable triangles (Recast's RC_WALKABLE_AREA). Recast keeps
/// 6 bits of area (ids up to 63); proxima keeps 8, so ids 64 to 255 are also valid here.
#define PX_WALKABLE_AREA 63

/// Largest span height in cell_height units (16 bits; Recast has 13 and wraps beyond 8191). A field is
/// never taller than this.
#define PX_SPAN_MAX_HEIGHT 65535

/// Largest width or depth of a field in columns.
#define PX_HEIGHTFIELD_MAX_SIZE (1 << 24)

/// Spans per pool: the field allocates pools of this many spans (16 bytes each) as it grows.
#define PX_HEIGHTFIELD_SPANS_PER_POOL 4096

    /// A span heightfield. Opaque.
    typedef struct px_heightfield px_heightfield;

    /// One solid span of a column: solid from bmin.y + smin cell_height to bmin.y + smax cell_height.
    typedef struct px_span
    {
        uint32_t smin; ///< Bottom, inclusive [Limit: < smax] [Units: cell_height]
        uint32_t smax; ///< Top, exclusive [Limit: <= PX_SPAN_MAX_HEIGHT] [Units: cell_height]
        uint8_t area;  ///< Area id (PX_NULL_AREA: not walkable)
    } px_span;

    /// Options of px_heightfield_create. Initialize with px_heightfield_default_def(), then set the bounds
    /// and cell sizes.
    typedef struct px_heightfield_def
    {
        px_allocator allocator; ///< Memory for the field and its spans (all-zero: malloc/free)
        /// Columns along x and z. 0 and 0: computed from the bounds as Recast's rcCalcGridSize does,
        /// (int)((bmax - bmin) / cell_size + 0.5f) per axis. [Limit: 1 .. PX_HEIGHTFIELD_MAX_SIZE, or both 0]
        int width, depth;
        vec3 bmin;         ///< Lower corner of the field [Limit: finite]
        vec3 bmax;         ///< Upper corner [Limit: finite, >= bmin]
        float cell_size;   ///< Width of a column along x and z [Limit: > 0, finite] [Units: world]
        float cell_height; ///< Height unit of the spans [Limit: > 0, finite] [Units: world]
        int internal_value; ///< Set by px_heightfield_default_def(). Do not set.
    } px_heightfield_def;

    /// Default options: malloc/free, size from the bounds, RecastDemo's cells (cell_size 0.3, cell_height
    /// 0.2), empty bounds (set bmin and bmax).
    PX_API px_heightfield_def px_heightfield_default_def(void);

    /// Create an empty field.
    /// @param[in]  def  Options from px_heightfield_default_def() with the bounds set
    /// @param[out] hf   The new field; NULL on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL argument, def not from px_heightfield_default_def(),
    ///         cell sizes <= 0 or so small that their inverse overflows, bmin > bmax on some axis, a size out
    ///         of its limits or computing to 0, a field taller than PX_SPAN_MAX_HEIGHT - 1 cells, half an
    ///         allocator); PX_ERR_NON_FINITE (NaN or Inf in the bounds or cell sizes); PX_ERR_OUT_OF_MEMORY
    ///         (also for fields too large to allocate; nothing leaked).
    PX_API PX_NODISCARD px_status px_heightfield_create(const px_heightfield_def* def, px_heightfield** hf);

    /// Free a field and its spans. NULL is ignored.
    PX_API void px_heightfield_destroy(px_heightfield* hf);

    /// Columns along x (0 for NULL).
    PX_API int px_heightfield_width(const px_heightfield* hf);

    /// Columns along z (0 for NULL).
    PX_API int px_heightfield_depth(const px_heightfield* hf);

    /// Number of spans in all columns (0 for NULL).
    PX_API int64_t px_heightfield_span_count(const px_heightfield* hf);

    /// Bounds, cell size and cell height of a field, as created (sizes computed from the bounds filled in).
    /// All zero for NULL.
    PX_API px_heightfield_def px_heightfield_get_def(const px_heightfield* hf);

    /// Copy the spans of column (x, z), bottom-up, into spans[0 .. min(count, capacity)).
    /// @return the number of spans in the column (which may exceed capacity: call with capacity 0 to size
    ///         a buffer); -1 for NULL hf, (x, z) outside the field, capacity < 0, or NULL spans with
    ///         capacity > 0.
    PX_API int px_heightfield_column(const px_heightfield* hf, int x, int z, px_span* spans, int capacity);

    /// Add one span to column (x, z) with Recast's rcAddSpan rules: it merges with every span it touches
    /// or overlaps into one span covering them all. For each span merged, in bottom-up order, when the top
    /// of the merged span is within flag_merge_threshold of that span's top, the larger of the two area ids
    /// is kept; otherwise the area so far (at first, the new span's) stays.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf, (x, z) outside the field, smin >= smax,
    ///         smax > PX_SPAN_MAX_HEIGHT, flag_merge_threshold < 0); PX_ERR_OUT_OF_MEMORY (the column is
    ///         unchanged).
    PX_API PX_NODISCARD px_status px_heightfield_add_span(px_heightfield* hf, int x, int z, uint32_t smin,
                                                          uint32_t smax, uint8_t area, int flag_merge_threshold);

    /// Set areas[i] = PX_WALKABLE_AREA for each triangle i whose slope against +y is below
    /// walkable_slope_degrees; leave the others unchanged. Same test as Recast's rcMarkWalkableTriangles:
    /// n = normalize(cross(v1 - v0, v2 - v0)) in float, walkable when n.y > cosf(slope / 180 * pi). An
    /// exact tie (a 45-degree ramp with a 45-degree limit) is not walkable. Triangles with zero, NaN or
    /// underflowing normals, vertical triangles and downward-facing ones (n.y <= 0) are never walkable:
    /// limits of 90 degrees or more act as 90.
    /// @param[in]     walkable_slope_degrees  [Limit: >= 0, finite] [Units: degrees]
    /// @param[in]     vertices                Packed xyz [(x, y, z) * vertex_count]
    /// @param[in]     vertex_count            [Limit: >= 0]
    /// @param[in]     indices                 3 vertex indices per triangle [Limit: 0 .. vertex_count - 1], or
    ///                                        NULL for a triangle soup (triangle i is vertices 3i .. 3i + 2)
    /// @param[in]     triangle_count          [Limit: >= 0]
    /// @param[in,out] areas                   One area id per triangle
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL arrays with counts > 0, negative counts, an index out of
    ///         range, a negative slope); PX_ERR_NON_FINITE (NaN or Inf slope). Nothing is written on error.
    ///         NaN vertices are allowed (their triangles are not walkable).
    PX_API PX_NODISCARD px_status px_mark_walkable_triangles(float walkable_slope_degrees, const float* vertices,
                                                             int vertex_count, const int32_t* indices,
                                                             int triangle_count, uint8_t* areas);

    /// Rasterize triangles into the field as Recast's rcRasterizeTriangles does. Each triangle is clipped
    /// against the field's rows (z) and then cells (x) by splitting the polygon along the grid lines; the
    /// y range of each piece of it inside a cell, clamped to [bmin.y, bmax.y], becomes the span
    /// [floor(ymin / ch), max(ceil(ymax / ch), floor(ymin / ch) + 1)) (in units of cell_height above
    /// bmin.y), added with px_heightfield_add_span's rules and the triangle's area. Parts of triangles
    /// outside the field are ignored, and a cell gets a span even when the triangle only touches it (a
    /// degenerate triangle rasterizes as a line or point of non-zero height). The result depends on the
    /// order of the triangles only through the area rule of merging.
    /// @param[in] hf                    The field
    /// @param[in] vertices              Packed xyz [(x, y, z) * vertex_count], finite where used
    /// @param[in] vertex_count          [Limit: >= 0]
    /// @param[in] indices               3 per triangle [Limit: 0 .. vertex_count - 1], or NULL for a triangle
    ///                                  soup (triangle i is vertices 3i .. 3i + 2)
    /// @param[in] areas                 One area id per triangle
    /// @param[in] triangle_count        [Limit: >= 0]
    /// @param[in] flag_merge_threshold  Merged spans whose tops are within this distance keep the larger area
    ///                                  id (Recast: walkableClimb; 1 is its default) [Limit: >= 0]
    ///                                  [Units: cell_height]
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf, NULL arrays with triangle_count > 0, negative counts,
    ///         an index out of range, a soup with fewer than 3 triangle_count vertices, a negative
    ///         threshold); PX_ERR_NON_FINITE (NaN or Inf in a vertex used by a triangle). The field is
    ///         unchanged after these. PX_ERR_OUT_OF_MEMORY: the field holds the spans added before the
    ///         failure and stays valid. PX_WARN_CAPACITY: a triangle's clipped polygon could have outgrown
    ///         the clipping buffers, and the rest of that triangle was left out (a safety net; not seen on
    ///         any input so far).
    PX_API PX_NODISCARD px_status px_heightfield_rasterize_triangles(px_heightfield* hf, const float* vertices,
                                                                     int vertex_count, const int32_t* indices,
                                                                     const uint8_t* areas, int triangle_count,
                                                                     int flag_merge_threshold);

    /// Rasterize every triangle of a mesh, in tiles that run in parallel: the same spans, column for column
    /// and in the same order, as px_heightfield_rasterize_triangles(hf, px_mesh_vertices(mesh),
    /// px_mesh_vertex_count(mesh), px_mesh_indices(mesh), areas, px_mesh_triangle_count(mesh),
    /// flag_merge_threshold) on one thread, whatever the threads and the tiling.
    ///
    /// The field is cut into tiles, bands of whole rows (about 8 per worker); the mesh's BVH gives each tile
    /// the triangles whose bounds come near it, which the tile rasterizes in increasing index order (the order
    /// in which one pass adds them to each column, which the area rule of merging depends on) into its own
    /// columns only, with spans from its worker's own pools. The pools join the field's at the end. A triangle
    /// across tiles is clipped in each of them, from its own first row, so its spans do not depend on the
    /// tiling; only its row splits before a band are done again.
    /// With no usable task system (NULL, no enqueue, or one worker) this is one pass over all triangles on the
    /// calling thread, which is faster there.
    /// @param[in] hf                    The field
    /// @param[in] mesh                  Triangles (px_mesh_create checked that its vertices are finite)
    /// @param[in] areas                 One area id per triangle of the mesh
    /// @param[in] flag_merge_threshold  As in px_heightfield_rasterize_triangles [Limit: >= 0]
    ///                                  [Units: cell_height]
    /// @param[in] tasks                 Threads for the tiles, or NULL for the calling thread
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf or mesh, NULL areas with triangles, a negative
    ///         threshold; the field is unchanged); PX_ERR_OUT_OF_MEMORY (the field holds the spans added so
    ///         far, every column valid); PX_WARN_CAPACITY as in px_heightfield_rasterize_triangles.
    PX_API PX_NODISCARD px_status px_heightfield_rasterize_mesh(px_heightfield* hf, const px_mesh* mesh,
                                                                const uint8_t* areas, int flag_merge_threshold,
                                                                const px_task_system* tasks);

    /// Let walkable spans extend over low obstacles (Recast's rcFilterLowHangingWalkableObstacles): in each
    /// column, bottom-up, a non-walkable span directly above a span that was walkable before this filter
    /// takes that span's area when its top is at most walkable_climb above the walkable span's top. It
    /// does not propagate through several non-walkable spans.
    /// @param[in] walkable_climb  Largest step an agent climbs [Limit: 0 .. PX_SPAN_MAX_HEIGHT]
    ///                            [Units: cell_height]
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf, walkable_climb out of its limits).
    PX_API PX_NODISCARD px_status px_filter_low_hanging_walkable_obstacles(px_heightfield* hf, int walkable_climb);

    /// Mark walkable spans next to ledges non-walkable (Recast's rcFilterLedgeSpans). For a walkable span
    /// with top `bot` and the next span's bottom `top` above it, each of the 4 neighbouring columns is
    /// searched for gaps [nbot, ntop) (below its first span: nbot = -walkable_climb) with
    /// min(top, ntop) - max(bot, nbot) > walkable_height. The span becomes PX_NULL_AREA when some such gap
    /// (or a neighbour outside the field) lies more than walkable_climb below bot, or when the tops of
    /// the neighbouring spans reachable within walkable_climb (with the span itself) differ by more than
    /// walkable_climb (a steep slope). Only the neighbours' heights count, not their areas.
    /// @param[in] walkable_height  Clearance an agent needs [Limit: 0 .. PX_SPAN_MAX_HEIGHT] [Units: cell_height]
    /// @param[in] walkable_climb   Largest step an agent climbs [Limit: 0 .. PX_SPAN_MAX_HEIGHT] [Units: cell_height]
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf, parameters out of their limits).
    PX_API PX_NODISCARD px_status px_filter_ledge_spans(px_heightfield* hf, int walkable_height, int walkable_climb);

    /// Mark spans without walkable_height of clearance above them non-walkable (Recast's
    /// rcFilterWalkableLowHeightSpans): a span becomes PX_NULL_AREA when next.smin - smax <= walkable_height.
    /// The top span of a column always has enough.
    /// @param[in] walkable_height  [Limit: 0 .. PX_SPAN_MAX_HEIGHT] [Units: cell_height]
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL hf, walkable_height out of its limits).
    PX_API PX_NODISCARD px_status px_filter_walkable_low_height_spans(px_heightfield* hf, int walkable_height);

#ifdef __cplusplus
}
#endif
