/* Tiled rasterization of a mesh: the field is cut into square tiles of columns, the mesh's BVH gives each
 * tile the triangles whose bounds come near it, and the tiles run as tasks, each worker adding spans from its
 * own span store. The stores join the field's at the end.
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

/* Default tile edge in columns, and the smallest one the default picks to give every worker several tiles. */
#define TILE_SIZE 64
#define TILE_SIZE_MIN 16
/* Tiles per worker the default tile size aims for (the thread pool cuts about 4 ranges per worker). */
#define TILES_PER_WORKER 8
/* Lists shorter than this are sorted by insertion, longer ones by radix. */
#define SORT_INSERTION_MAX 48

/* Scratch space and results of one worker. */
typedef struct tile_worker
{
    pxi_span_store store;
    int32_t* list;    /* triangles of the current tile */
    int32_t* scratch; /* the radix sort's second buffer */
    int capacity;     /* of list and scratch */
    int count;
    bool out_of_memory; /* growing list failed */
    px_status status;
    pxi_raster_stats stats;
} tile_worker;

typedef struct tile_job
{
    px_heightfield* hf;
    const px_mesh* mesh;
    const uint8_t* areas;
    int flag_merge_threshold;
    int tile_size;
    int tiles_x;
    double margin; /* world units added around a tile's columns */
    int sort_bytes; /* radix passes: bytes of the largest triangle index */
    tile_worker* workers;
} tile_job;

/* Make room for `need` triangles in a worker's list (keeping its contents). */
static bool worker_reserve(tile_worker* w, const px_allocator* allocator, int need)
{
    if (need <= w->capacity)
    {
        return true;
    }
    int capacity = w->capacity > 0 ? w->capacity : 256;
    while (capacity < need)
    {
        capacity = capacity > (1 << 29) ? need : 2 * capacity;
    }
    int32_t* list = pxi_alloc(allocator, (size_t)capacity * sizeof(int32_t));
    int32_t* scratch = pxi_alloc(allocator, (size_t)capacity * sizeof(int32_t));
    if (list == NULL || scratch == NULL)
    {
        pxi_free(allocator, list, (size_t)capacity * sizeof(int32_t));
        pxi_free(allocator, scratch, (size_t)capacity * sizeof(int32_t));
        return false;
    }
    if (w->count > 0)
    {
        memcpy(list, w->list, (size_t)w->count * sizeof(int32_t));
    }
    pxi_free(allocator, w->list, (size_t)w->capacity * sizeof(int32_t));
    pxi_free(allocator, w->scratch, (size_t)w->capacity * sizeof(int32_t));
    w->list = list;
    w->scratch = scratch;
    w->capacity = capacity;
    return true;
}

typedef struct gather
{
    tile_worker* worker;
    const px_allocator* allocator;
    float qmin[3], qmax[3];
} gather;

/* Leaf callback: append the triangles whose bounds overlap the query box in x and z. */
static bool gather_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    (void)best_d2;
    gather* g = context;
    tile_worker* w = g->worker;
    if (!worker_reserve(w, g->allocator, w->count + count))
    {
        w->out_of_memory = true;
        return false;
    }
    for (int i = 0; i < count; ++i)
    {
        const pxi_mesh_packet* p = &packets[i / 4];
        const int lane = i % 4;
        bool overlap = true;
        for (int axis = 0; axis < 3; axis += 2)
        {
            const float a = p->v[0][axis][lane], b = p->v[1][axis][lane], c = p->v[2][axis][lane];
            const float lo = fminf(a, fminf(b, c));
            const float hi = fmaxf(a, fmaxf(b, c));
            overlap = overlap && lo <= g->qmax[axis] && hi >= g->qmin[axis];
        }
        if (overlap)
        {
            w->list[w->count++] = p->index[lane];
        }
    }
    return true;
}

/* Sort a worker's list in increasing order: insertion for short lists, else least-significant-byte radix
 * over the bytes the indices use (the list ends in w->list either way). */
static void sort_list(tile_worker* w, int bytes)
{
    int32_t* a = w->list;
    const int n = w->count;
    if (n <= SORT_INSERTION_MAX)
    {
        for (int i = 1; i < n; ++i)
        {
            const int32_t v = a[i];
            int j = i;
            while (j > 0 && a[j - 1] > v)
            {
                a[j] = a[j - 1];
                --j;
            }
            a[j] = v;
        }
        return;
    }
    int32_t* src = a;
    int32_t* dst = w->scratch;
    for (int pass = 0; pass < bytes; ++pass)
    {
        const int shift = 8 * pass;
        int offsets[256];
        memset(offsets, 0, sizeof(offsets));
        for (int i = 0; i < n; ++i)
        {
            offsets[((uint32_t)src[i] >> shift) & 255u]++;
        }
        if (offsets[((uint32_t)src[0] >> shift) & 255u] == n)
        {
            continue; /* every index has the same byte here: the pass would not move anything */
        }
        int sum = 0;
        for (int k = 0; k < 256; ++k)
        {
            const int c = offsets[k];
            offsets[k] = sum;
            sum += c;
        }
        for (int i = 0; i < n; ++i)
        {
            dst[offsets[((uint32_t)src[i] >> shift) & 255u]++] = src[i];
        }
        int32_t* t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
    {
        memcpy(a, src, (size_t)n * sizeof(int32_t));
    }
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
        window.x0 = tx * job->tile_size;
        window.z0 = tz * job->tile_size;
        window.x1 = window.x0 + job->tile_size < hf->width ? window.x0 + job->tile_size : hf->width;
        window.z1 = window.z0 + job->tile_size < hf->depth ? window.z0 + job->tile_size : hf->depth;

        gather g;
        g.worker = w;
        g.allocator = &hf->allocator;
        g.qmin[0] = outward((double)hf->bmin[0] + window.x0 * cs - job->margin, -INFINITY);
        g.qmax[0] = outward((double)hf->bmin[0] + window.x1 * cs + job->margin, INFINITY);
        g.qmin[2] = outward((double)hf->bmin[2] + window.z0 * cs - job->margin, -INFINITY);
        g.qmax[2] = outward((double)hf->bmin[2] + window.z1 * cs + job->margin, INFINITY);
        /* rasterization drops triangles whose bounds miss the field's y range; keep a margin all the same */
        g.qmin[1] = outward((double)hf->bmin[1] - job->margin, -INFINITY);
        g.qmax[1] = outward((double)hf->bmax[1] + job->margin, INFINITY);
        w->count = 0;
        pxi_mesh_overlap_leaves(job->mesh, g.qmin, g.qmax, gather_leaf, &g);
        if (w->out_of_memory)
        {
            w->status = PX_ERR_OUT_OF_MEMORY;
            return;
        }
        sort_list(w, job->sort_bytes);
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
                                               int tile_size, pxi_raster_stats* stats)
{
    if (hf == NULL || mesh == NULL || flag_merge_threshold < 0 || tile_size < 1 ||
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
    job.tile_size = tile_size;
    job.tiles_x = (hf->width - 1) / tile_size + 1;
    const int tiles_z = (hf->depth - 1) / tile_size + 1;
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
    job.sort_bytes = 1;
    while (job.sort_bytes < 4 && ((uint32_t)(mesh->triangle_count - 1) >> (8 * job.sort_bytes)) != 0)
    {
        ++job.sort_bytes;
    }
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
        pxi_free(&hf->allocator, w->scratch, (size_t)w->capacity * sizeof(int32_t));
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
    int tile_size = TILE_SIZE;
    for (;;)
    {
        const int64_t tiles = (int64_t)((hf->width - 1) / tile_size + 1) * (int64_t)((hf->depth - 1) / tile_size + 1);
        if (tile_size <= TILE_SIZE_MIN || tiles >= (int64_t)TILES_PER_WORKER * worker_count)
        {
            break;
        }
        tile_size /= 2;
    }
    /* huge fields: tiles big enough that their count fits an int */
    while ((int64_t)((hf->width - 1) / tile_size + 1) * (int64_t)((hf->depth - 1) / tile_size + 1) > (1 << 24))
    {
        tile_size *= 2;
    }
    return pxi_heightfield_rasterize_mesh_tiled(hf, mesh, areas, flag_merge_threshold, tasks, tile_size, NULL);
}
