/* Internal layout of span heightfields: span pools, column lists, the span store a rasterizing thread adds
 * spans through, and the rasterizer entry point that works on a range of triangles and a window of columns
 * (so that tiles can run it in parallel, each with its own store). */
#pragma once

#include "../core/core_internal.h"
#include "proxima/heightfield.h"
#include "proxima/mesh.h"

/* One span of a column list. 16 bytes, like Recast's rcSpan (a 32-bit bitfield and a pointer). */
typedef struct pxi_span
{
    struct pxi_span* next; /* next span up, or NULL */
    uint16_t smin;
    uint16_t smax;
    uint8_t area;
} pxi_span;

/* A block of spans; pools form a list owned by a store. */
typedef struct pxi_span_pool
{
    struct pxi_span_pool* next;
    pxi_span spans[PX_HEIGHTFIELD_SPANS_PER_POOL];
} pxi_span_pool;

/* Where spans come from: pools, a free list of spans released by merges, and the untouched tail of the
 * newest pool. One store per thread that adds spans; pxi_span_store_merge moves one into another. */
typedef struct pxi_span_store
{
    px_allocator allocator;
    pxi_span_pool* pools;
    pxi_span* free_list;
    pxi_span* fresh;     /* first never-used span of the newest pool */
    pxi_span* fresh_end; /* end of the newest pool */
    int64_t live;        /* spans handed out and not released */
} pxi_span_store;

struct px_heightfield
{
    px_allocator allocator;
    int width, depth;
    float bmin[3], bmax[3];
    float cell_size, cell_height;
    float inv_cell_size, inv_cell_height; /* 1.0f / cell_size, 1.0f / cell_height, as Recast computes them */
    /* width * depth columns, (x, z) at x + z * width. A column's lowest span is stored in its slot itself
     * (smax == 0: the column is empty), the others come from pools: reading a column starts without
     * following a pointer to a far place. */
    pxi_span* columns;
    pxi_span_store store;
    /* Tests set it to clip with the plain scalar splits only (no SSE, no sweeps, no shortcuts): a direct port
     * of Recast's clipping, which must give the same spans. */
    bool reference_clipping;
};

/* A window of columns [x0, x1) x [z0, z1) that rasterization writes; spans outside it are not added. */
typedef struct pxi_column_window
{
    int x0, z0, x1, z1;
} pxi_column_window;

/* Counters of one rasterization run, for tests. */
typedef struct pxi_raster_stats
{
    int max_polygon_vertices; /* most vertices of any polygon the clipping produced */
    int clip_capacity_hits;   /* triangles cut short because a polygon could have outgrown the buffers */
} pxi_raster_stats;

/* Vertices a clipped polygon may hold. Splitting an n-gon along a line gives each side at most 2n vertices
 * (an input vertex adds itself and at most one crossing point), so a polygon is only split while it has at
 * most PXI_CLIP_CAPACITY / 2 vertices. Exact clipping of a triangle never exceeds 7; float rounding can add
 * a few (Recast issue #687 overflows its 7-vertex buffers). */
#define PXI_CLIP_CAPACITY 32

/* Open space above the top span of a column, for the filters: above any span height plus any parameter.
 * (Recast uses 0xffff, which is the same whenever walkable_height < 0xffff - the top span's smax.) */
#define PXI_OPEN_SKY (1 << 20)

void pxi_span_store_init(pxi_span_store* store, const px_allocator* allocator);

/* Free every pool of a store. */
void pxi_span_store_release(pxi_span_store* store);

/* Move all pools and free spans of src into dst (both with the same allocator); src ends empty. */
void pxi_span_store_merge(pxi_span_store* dst, pxi_span_store* src);

/* Allocate a new pool into the store. Returns false when the allocator fails. */
bool pxi_span_store_grow(pxi_span_store* store);

/* A span from the store (free list first, then the newest pool, then a new pool); NULL when out of memory. */
static inline pxi_span* pxi_span_take(pxi_span_store* store)
{
    pxi_span* s = store->free_list;
    if (s != NULL)
    {
        store->free_list = s->next;
    }
    else
    {
        if (store->fresh == store->fresh_end && !pxi_span_store_grow(store))
        {
            return NULL;
        }
        s = store->fresh++;
    }
    store->live++;
    return s;
}

/* Give a span back to the store's free list. */
static inline void pxi_span_give(pxi_span_store* store, pxi_span* s)
{
    s->next = store->free_list;
    store->free_list = s;
    store->live--;
}

/* The lowest span of a column, or NULL for an empty column. */
static inline pxi_span* pxi_column_first(pxi_span* column)
{
    return column->smax != 0 ? column : NULL;
}

static inline const pxi_span* pxi_column_first_const(const pxi_span* column)
{
    return column->smax != 0 ? column : NULL;
}

/* Add span [smin, smax) (smin < smax <= PX_SPAN_MAX_HEIGHT) to a column with Recast's merge rules. The list
 * is sorted bottom-up and its spans never touch. The new span merges with every span it touches or overlaps;
 * for each of them, bottom-up, the larger area id is kept when the merged top is within flag_merge_threshold
 * of that span's top (Recast's addSpan, which allocates the new span first and frees the merged ones; here the
 * lowest merged span is reused, with the same result). Returns false only when a new span was needed and no
 * memory was left; the column is then unchanged. */
static inline bool pxi_column_add_span(pxi_span* column, pxi_span_store* store, uint32_t smin, uint32_t smax,
                                       uint8_t area, int flag_merge_threshold)
{
    if (column->smax == 0)
    {
        column->smin = (uint16_t)smin;
        column->smax = (uint16_t)smax;
        column->area = area;
        column->next = NULL;
        store->live++;
        return true;
    }
    pxi_span* prev = NULL;
    pxi_span* cur = column;
    while (cur != NULL && cur->smax < smin)
    {
        prev = cur;
        cur = cur->next;
    }
    if (cur == NULL || cur->smin > smax)
    {
        pxi_span* s = pxi_span_take(store);
        if (s == NULL)
        {
            return false;
        }
        if (prev == NULL)
        {
            /* a new lowest span: the one in the column's slot moves out to s */
            *s = *column;
            column->next = s;
            s = column;
        }
        else
        {
            s->next = cur;
            prev->next = s;
        }
        s->smin = (uint16_t)smin;
        s->smax = (uint16_t)smax;
        s->area = area;
        return true;
    }
    pxi_span* keep = cur;
    uint32_t lo = smin;
    uint32_t hi = smax;
    uint8_t a = area;
    for (;;)
    {
        if (cur->smin < lo)
        {
            lo = cur->smin;
        }
        if (cur->smax > hi)
        {
            hi = cur->smax;
        }
        /* hi >= cur->smax here, so this is Recast's abs(s->smax - cur->smax) <= flagMergeThr */
        if ((int)(hi - cur->smax) <= flag_merge_threshold && cur->area > a)
        {
            a = cur->area;
        }
        pxi_span* next = cur->next;
        if (cur != keep)
        {
            pxi_span_give(store, cur);
        }
        cur = next;
        if (cur == NULL || cur->smin > hi)
        {
            break;
        }
    }
    keep->smin = (uint16_t)lo;
    keep->smax = (uint16_t)hi;
    keep->area = a;
    keep->next = cur;
    return true;
}

/* Rasterize triangles [first, first + count) of an already validated input (indices in range or NULL for a
 * soup, used vertices finite) into the columns of window, taking spans from store. Every triangle is clipped
 * from its own first row and column, so the spans of a column do not depend on the window. stats may be
 * NULL. Returns PX_OK, PX_WARN_CAPACITY (some triangle was cut short, never seen in practice) or
 * PX_ERR_OUT_OF_MEMORY (stops at once; the lists stay valid). */
px_status pxi_heightfield_rasterize(px_heightfield* hf, pxi_span_store* store, const float* vertices,
                                    const int32_t* indices, const uint8_t* areas, int first, int count,
                                    int flag_merge_threshold, pxi_column_window window, pxi_raster_stats* stats);

/* pxi_heightfield_rasterize over a list of triangle indices, in the list's order (tiles pass each tile's
 * triangles in increasing index order, the order of one pass over all of them). */
px_status pxi_heightfield_rasterize_list(px_heightfield* hf, pxi_span_store* store, const float* vertices,
                                         const int32_t* indices, const uint8_t* areas, const int32_t* triangles,
                                         int count, int flag_merge_threshold, pxi_column_window window,
                                         pxi_raster_stats* stats);

/* px_heightfield_rasterize_mesh with tiles of tile_width columns by tile_depth rows (both >= 1), used even on
 * one thread: the tests check that any tiling gives the spans of one pass. stats may be NULL. */
px_status pxi_heightfield_rasterize_mesh_tiled(px_heightfield* hf, const px_mesh* mesh, const uint8_t* areas,
                                               int flag_merge_threshold, const px_task_system* tasks,
                                               int tile_width, int tile_depth, pxi_raster_stats* stats);

/* The most vertices the clipping produces for one triangle in this field, without adding spans (tests use it
 * to find the triangles on which Recast's 7-vertex buffers overflow). */
int pxi_heightfield_triangle_clip_vertices(const px_heightfield* hf, const float* v0, const float* v1,
                                           const float* v2);
