/* Tiled rasterization of a mesh: the field is cut into tiles of columns, the mesh's BVH gives each tile the
 * triangles whose bounds come near it, and the tiles run as tasks, each worker adding spans from its own span
 * store. The stores join the field's at the end.
 *
 * Tiles are bands of whole rows. A triangle is clipped row by row and, within a row, column by column, and
 * a tile must redo the splits of every row and column before its window (below), so a triangle cut by tile
 * borders costs more than once. Across a band border only the row splits before the band are redone (one
 * split per row, against one per cell for the columns); square tiles would also redo the column splits of
 * every row to their left, which on meshes of big triangles (env.obj) costs more than the second thread
 * gives.
 *
 * Why the result equals one pass over all triangles. A column's list depends only on the sequence of spans
 * added to it (the area rule of merging is order dependent), and one pass adds them in increasing triangle
 * index, at most one span per triangle per column. A tile owns its columns alone, finds a superset of the
 * triangles that reach them (a triangle that does not reach a column adds nothing to it), and rasterizes them
 * in increasing index order; pxi_heightfield_rasterize_list clips every triangle from its own first row and
 * column whatever the window, so each span is the one the single pass computes.
 *
 * Which triangles reach a tile. Rasterization puts a triangle's piece into column x when the piece's x range,
 * converted to cells with (v - bmin) / cs rounded down, covers x; the piece lies inside the triangle's bounds
 * up to the rounding of the crossing points, and the conversion rounds by a few ulps of the cell index. The
 * BVH query box is the tile's columns widened by two cells plus a relative margin covering both roundings, so
 * no triangle that reaches the tile is missed; the ones found in excess add nothing to the tile's window. */
#include <math.h>
#include <string.h>

#include "heightfield_internal.h"
#include "../broadphase/mesh_internal.h"
#include "../core/task_internal.h"

/* Bands per worker the default band height aims for (the thread pool cuts about 4 ranges per worker), and the
 * lowest band the default picks. */
#define BANDS_PER_WORKER 8
#define BAND_MIN_ROWS 4

/* Scratch space and results of one worker. */
typedef struct tile_worker
{
    pxi_span_store store;
    /* The triangles of the current tile: found in BVH leaf order, each sets its bit in `marks` (one bit per
     * triangle of the mesh, all clear between tiles); reading the set bits word by word then lists them in
     * increasing index order without sorting, and clears them. */
    uint64_t* marks;
    int32_t lowest, highest; /* range of the marked indices (lowest > highest: none) */
    int32_t* list;
    int capacity; /* of list */
    int count;
    px_status status;
    pxi_raster_stats stats;
} tile_worker;

typedef struct tile_job
{
    px_heightfield* hf;
    const px_mesh* mesh;
    const uint8_t* areas;
    int flag_merge_threshold;
    int tile_width, tile_depth;
    int tiles_x;
    double margin;     /* world units added around a tile's columns */
    size_t mark_words; /* words of a worker's marks */
    tile_worker* workers;
} tile_job;

/* Make room for `need` triangles in a worker's list (its contents are not kept), and allocate its marks. */
static bool worker_reserve(tile_worker* w, const px_allocator* allocator, int need, size_t mark_words)
{
    if (w->marks == NULL)
    {
        w->marks = pxi_alloc(allocator, mark_words * sizeof(uint64_t));
        if (w->marks == NULL)
        {
            return false;
        }
        memset(w->marks, 0, mark_words * sizeof(uint64_t));
    }
    if (need <= w->capacity)
    {
        return true;
    }
    int capacity = w->capacity > 0 ? w->capacity : 1024;
    while (capacity < need)
    {
        capacity = capacity > (1 << 29) ? need : 2 * capacity;
    }
    int32_t* list = pxi_alloc(allocator, (size_t)capacity * sizeof(int32_t));
    if (list == NULL)
    {
        return false;
    }
    pxi_free(allocator, w->list, (size_t)w->capacity * sizeof(int32_t));
    w->list = list;
    w->capacity = capacity;
    return true;
}

/* Leaf callback: mark the leaf's triangles. The BVH tested the leaf's box; testing each triangle's own box
 * would read the three cache lines of every packet where the index takes one, and the few triangles of a
 * leaf across the tile's border that miss the tile cost little to rasterize (their rows before the window are
 * split, and the rest is skipped). */
static bool gather_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    (void)best_d2;
    tile_worker* w = context;
    int32_t lowest = w->lowest, highest = w->highest;
    for (int i = 0; i < count; ++i)
    {
        const int32_t t = packets[i / 4].index[i % 4];
        w->marks[(uint32_t)t >> 6] |= 1ull << (t & 63);
        lowest = t < lowest ? t : lowest;
        highest = t > highest ? t : highest;
    }
    w->lowest = lowest;
    w->highest = highest;
    w->count += count;
    return true;
}

/* List the marked triangles in increasing order into w->list and clear their marks. */
static void collect_marks(tile_worker* w)
{
    int n = 0;
    if (w->lowest <= w->highest)
    {
        const size_t first = (uint32_t)w->lowest >> 6, last = (uint32_t)w->highest >> 6;
        for (size_t k = first; k <= last; ++k)
        {
            uint64_t bits = w->marks[k];
            w->marks[k] = 0;
            while (bits != 0)
            {
                w->list[n++] = (int32_t)(k * 64 + (size_t)__builtin_ctzll(bits));
                bits &= bits - 1;
            }
        }
    }
    w->count = n;
}

/* Round a double bound to a float that is at least as far out. */
static float outward(double v, float direction)
{
    const float f = (float)v;
    return nextafterf(f, direction);
}

static void tile_task(int begin, int end, int worker, void* context)
{
    tile_job* job = context;
    px_heightfield* hf = job->hf;
    tile_worker* w = &job->workers[worker];
    const double cs = (double)hf->cell_size;
    for (int t = begin; t < end; ++t)
    {
        if (w->status == PX_ERR_OUT_OF_MEMORY)
        {
            return; /* the field stays valid; nothing more is added */
        }
        const int tx = t % job->tiles_x;
        const int tz = t / job->tiles_x;
        pxi_column_window window;
        window.x0 = tx * job->tile_width;
        window.z0 = tz * job->tile_depth;
        window.x1 = hf->width - window.x0 > job->tile_width ? window.x0 + job->tile_width : hf->width;
        window.z1 = hf->depth - window.z0 > job->tile_depth ? window.z0 + job->tile_depth : hf->depth;

        if (!worker_reserve(w, &hf->allocator, 0, job->mark_words))
        {
            w->status = PX_ERR_OUT_OF_MEMORY;
            return;
        }
        float qmin[3], qmax[3];
        qmin[0] = outward((double)hf->bmin[0] + window.x0 * cs - job->margin, -INFINITY);
        qmax[0] = outward((double)hf->bmin[0] + window.x1 * cs + job->margin, INFINITY);
        qmin[2] = outward((double)hf->bmin[2] + window.z0 * cs - job->margin, -INFINITY);
        qmax[2] = outward((double)hf->bmin[2] + window.z1 * cs + job->margin, INFINITY);
        /* rasterization drops triangles whose bounds miss the field's y range; keep a margin all the same */
        qmin[1] = outward((double)hf->bmin[1] - job->margin, -INFINITY);
        qmax[1] = outward((double)hf->bmax[1] + job->margin, INFINITY);
        w->count = 0;
        w->lowest = INT32_MAX;
        w->highest = -1;
        pxi_mesh_overlap_leaves(job->mesh, qmin, qmax, gather_leaf, w);
        if (!worker_reserve(w, &hf->allocator, w->count, job->mark_words))
        {
            w->status = PX_ERR_OUT_OF_MEMORY; /* the marks are not cleared: this worker takes no more tiles */
            return;
        }
        collect_marks(w);
        const px_status s = pxi_heightfield_rasterize_list(hf, &w->store, job->mesh->vertices, job->mesh->indices,
                                                           job->areas, w->list, w->count,
                                                           job->flag_merge_threshold, window, &w->stats);
        if (s != PX_OK && w->status != PX_ERR_OUT_OF_MEMORY)
        {
            w->status = s;
        }
    }
}

px_status pxi_heightfield_rasterize_mesh_tiled(px_heightfield* hf, const px_mesh* mesh, const uint8_t* areas,
                                               int flag_merge_threshold, const px_task_system* tasks,
                                               int tile_width, int tile_depth, pxi_raster_stats* stats)
{
    if (hf == NULL || mesh == NULL || flag_merge_threshold < 0 || tile_width < 1 || tile_depth < 1 ||
        (mesh->triangle_count > 0 && areas == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (mesh->triangle_count == 0)
    {
        return PX_OK;
    }
    const int worker_count = pxi_task_worker_count(tasks);
    tile_job job;
    memset(&job, 0, sizeof(job));
    job.hf = hf;
    job.mesh = mesh;
    job.areas = areas;
    job.flag_merge_threshold = flag_merge_threshold;
    job.tile_width = tile_width;
    job.tile_depth = tile_depth;
    job.tiles_x = (hf->width - 1) / tile_width + 1;
    const int tiles_z = (hf->depth - 1) / tile_depth + 1;
    /* two cells; the cell index of a point is a few ulps off for wide fields (index * 2^-20 cells); the
     * crossing points and the grid lines are a few ulps of the largest coordinate off */
    double extent = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        extent = fmax(extent, fmax(fabs((double)hf->bmin[k]), fabs((double)hf->bmax[k])));
    }
    extent = fmax(extent, fabs((double)hf->bmin[0] + (double)hf->width * hf->cell_size));
    extent = fmax(extent, fabs((double)hf->bmin[2] + (double)hf->depth * hf->cell_size));
    job.margin = (double)hf->cell_size * (2.0 + ldexp((double)hf->width + (double)hf->depth, -20)) +
                 ldexp(extent, -16);
    job.mark_words = ((size_t)mesh->triangle_count + 63) / 64;
    const size_t workers_bytes = (size_t)worker_count * sizeof(tile_worker);
    job.workers = pxi_alloc(&hf->allocator, workers_bytes);
    if (job.workers == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(job.workers, 0, workers_bytes);
    for (int i = 0; i < worker_count; ++i)
    {
        pxi_span_store_init(&job.workers[i].store, &hf->allocator);
        job.workers[i].status = PX_OK;
    }
    const int64_t tile_count = (int64_t)job.tiles_x * (int64_t)tiles_z;
    /* tiles of one column on a field of 2^24 x 2^24 columns would not fit the task interface's int counts */
    if (tile_count > INT32_MAX)
    {
        pxi_free(&hf->allocator, job.workers, workers_bytes);
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_run_tasks(tasks, tile_task, (int)tile_count, 1, &job);

    px_status status = PX_OK;
    for (int i = 0; i < worker_count; ++i)
    {
        tile_worker* w = &job.workers[i];
        pxi_span_store_merge(&hf->store, &w->store);
        pxi_free(&hf->allocator, w->list, (size_t)w->capacity * sizeof(int32_t));
        pxi_free(&hf->allocator, w->marks, job.mark_words * sizeof(uint64_t));
        if (w->status == PX_ERR_OUT_OF_MEMORY || (w->status != PX_OK && status == PX_OK))
        {
            status = w->status;
        }
        if (stats != NULL)
        {
            stats->max_polygon_vertices = w->stats.max_polygon_vertices > stats->max_polygon_vertices
                                              ? w->stats.max_polygon_vertices
                                              : stats->max_polygon_vertices;
            stats->clip_capacity_hits += w->stats.clip_capacity_hits;
        }
    }
    pxi_free(&hf->allocator, job.workers, workers_bytes);
    return status;
}

px_status px_heightfield_rasterize_mesh(px_heightfield* hf, const px_mesh* mesh, const uint8_t* areas,
                                        int flag_merge_threshold, const px_task_system* tasks)
{
    if (hf == NULL || mesh == NULL || flag_merge_threshold < 0 || (mesh->triangle_count > 0 && areas == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const int worker_count = pxi_task_worker_count(tasks);
    if (worker_count <= 1)
    {
        /* one thread: one pass over all triangles costs less than tiles (no queries, nothing clipped twice) */
        return px_heightfield_rasterize_triangles(hf, mesh->vertices, mesh->vertex_count, mesh->indices, areas,
                                                  mesh->triangle_count, flag_merge_threshold);
    }
    /* bands of whole rows, about BANDS_PER_WORKER per worker */
    const int bands = BANDS_PER_WORKER * worker_count;
    int band = (hf->depth + bands - 1) / bands;
    band = band > BAND_MIN_ROWS ? band : BAND_MIN_ROWS;
    return pxi_heightfield_rasterize_mesh_tiled(hf, mesh, areas, flag_merge_threshold, tasks, hf->width, band,
                                                NULL);
}
