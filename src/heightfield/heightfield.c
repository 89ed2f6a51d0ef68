/* Span heightfields: creation with validation, span pools, column access. Rasterization is in rasterize.c,
 * the filters in filter.c. */
#include <math.h>
#include <string.h>

#include "heightfield_internal.h"

#define HEIGHTFIELD_COOKIE 0x48465344 /* "HFSD" */

px_heightfield_def px_heightfield_default_def(void)
{
    px_heightfield_def def;
    memset(&def, 0, sizeof(def));
    def.cell_size = 0.3f;
    def.cell_height = 0.2f;
    def.internal_value = HEIGHTFIELD_COOKIE;
    return def;
}

void pxi_span_store_init(pxi_span_store* store, const px_allocator* allocator)
{
    memset(store, 0, sizeof(*store));
    store->allocator = *allocator;
}

void pxi_span_store_release(pxi_span_store* store)
{
    pxi_span_pool* pool = store->pools;
    while (pool != NULL)
    {
        pxi_span_pool* next = pool->next;
        pxi_free(&store->allocator, pool, sizeof(pxi_span_pool));
        pool = next;
    }
    px_allocator allocator = store->allocator;
    pxi_span_store_init(store, &allocator);
}

bool pxi_span_store_grow(pxi_span_store* store)
{
    pxi_span_pool* pool = pxi_alloc(&store->allocator, sizeof(pxi_span_pool));
    if (pool == NULL)
    {
        return false;
    }
    /* the unused tail of the previous pool would be lost: hand it to the free list first */
    while (store->fresh != store->fresh_end)
    {
        pxi_span* s = store->fresh++;
        s->next = store->free_list;
        store->free_list = s;
    }
    pool->next = store->pools;
    store->pools = pool;
    store->fresh = pool->spans;
    store->fresh_end = pool->spans + PX_HEIGHTFIELD_SPANS_PER_POOL;
    return true;
}

void pxi_span_store_merge(pxi_span_store* dst, pxi_span_store* src)
{
    /* src's fresh tail joins dst's free list, then its free list, then its pools */
    while (src->fresh != src->fresh_end)
    {
        pxi_span* s = src->fresh++;
        s->next = dst->free_list;
        dst->free_list = s;
    }
    while (src->free_list != NULL)
    {
        pxi_span* s = src->free_list;
        src->free_list = s->next;
        s->next = dst->free_list;
        dst->free_list = s;
    }
    while (src->pools != NULL)
    {
        pxi_span_pool* pool = src->pools;
        src->pools = pool->next;
        pool->next = dst->pools;
        dst->pools = pool;
    }
    dst->live += src->live;
    px_allocator allocator = src->allocator;
    pxi_span_store_init(src, &allocator);
}

/* Columns along one axis, as Recast's rcCalcGridSize computes them: (int)(extent / cs + 0.5f). Returns -1
 * when that is beyond PX_HEIGHTFIELD_MAX_SIZE (or NaN), so the conversion is always defined. */
static int grid_size_from_extent(float extent, float cell_size, int* size)
{
    float f = extent / cell_size + 0.5f;
    if (!(f < (float)PX_HEIGHTFIELD_MAX_SIZE + 1.0f))
    {
        return -1;
    }
    *size = (int)f;
    return 0;
}

px_status px_heightfield_create(const px_heightfield_def* def, px_heightfield** hf)
{
    if (hf == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *hf = NULL;
    if (def == NULL || def->internal_value != HEIGHTFIELD_COOKIE)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_allocator alloc;
    if (pxi_allocator_resolve(&def->allocator, &alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3; ++i)
    {
        if (!isfinite(def->bmin[i]) || !isfinite(def->bmax[i]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    if (!isfinite(def->cell_size) || !isfinite(def->cell_height))
    {
        return PX_ERR_NON_FINITE;
    }
    if (!(def->cell_size > 0.0f) || !(def->cell_height > 0.0f))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3; ++i)
    {
        if (def->bmin[i] > def->bmax[i])
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    const float inv_cs = 1.0f / def->cell_size;
    const float inv_ch = 1.0f / def->cell_height;
    const float extent_y = def->bmax[1] - def->bmin[1];
    if (!isfinite(inv_cs) || !isfinite(inv_ch) || !isfinite(extent_y))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* The tallest span rasterization can make is floor(extent_y * inv_ch) + 1 (a span at the top): it must
     * fit, so that no span is ever clamped into an invalid one. */
    if (!(floorf(extent_y * inv_ch) + 1.0f <= (float)PX_SPAN_MAX_HEIGHT))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    int width = def->width;
    int depth = def->depth;
    if (width == 0 && depth == 0)
    {
        if (grid_size_from_extent(def->bmax[0] - def->bmin[0], def->cell_size, &width) != 0 ||
            grid_size_from_extent(def->bmax[2] - def->bmin[2], def->cell_size, &depth) != 0)
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    if (width < 1 || depth < 1 || width > PX_HEIGHTFIELD_MAX_SIZE || depth > PX_HEIGHTFIELD_MAX_SIZE)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    size_t columns_bytes;
    if (!pxi_size_mul((size_t)width * (size_t)depth, sizeof(pxi_span), &columns_bytes))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }

    px_heightfield* h = pxi_alloc(&alloc, sizeof(px_heightfield));
    if (h == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(h, 0, sizeof(*h));
    h->columns = pxi_alloc(&alloc, columns_bytes);
    if (h->columns == NULL)
    {
        pxi_free(&alloc, h, sizeof(px_heightfield));
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(h->columns, 0, columns_bytes);
    h->allocator = alloc;
    h->width = width;
    h->depth = depth;
    for (int i = 0; i < 3; ++i)
    {
        h->bmin[i] = def->bmin[i];
        h->bmax[i] = def->bmax[i];
    }
    h->cell_size = def->cell_size;
    h->cell_height = def->cell_height;
    h->inv_cell_size = inv_cs;
    h->inv_cell_height = inv_ch;
    pxi_span_store_init(&h->store, &alloc);
    *hf = h;
    return PX_OK;
}

void px_heightfield_destroy(px_heightfield* hf)
{
    if (hf == NULL)
    {
        return;
    }
    px_allocator alloc = hf->allocator;
    pxi_span_store_release(&hf->store);
    pxi_free(&alloc, hf->columns, (size_t)hf->width * (size_t)hf->depth * sizeof(pxi_span));
    pxi_free(&alloc, hf, sizeof(px_heightfield));
}

int px_heightfield_width(const px_heightfield* hf)
{
    return hf != NULL ? hf->width : 0;
}

int px_heightfield_depth(const px_heightfield* hf)
{
    return hf != NULL ? hf->depth : 0;
}

int64_t px_heightfield_span_count(const px_heightfield* hf)
{
    return hf != NULL ? hf->store.live : 0;
}

px_heightfield_def px_heightfield_get_def(const px_heightfield* hf)
{
    px_heightfield_def def;
    memset(&def, 0, sizeof(def));
    if (hf == NULL)
    {
        return def;
    }
    def.allocator = hf->allocator;
    def.width = hf->width;
    def.depth = hf->depth;
    for (int i = 0; i < 3; ++i)
    {
        def.bmin[i] = hf->bmin[i];
        def.bmax[i] = hf->bmax[i];
    }
    def.cell_size = hf->cell_size;
    def.cell_height = hf->cell_height;
    def.internal_value = HEIGHTFIELD_COOKIE;
    return def;
}

int px_heightfield_column(const px_heightfield* hf, int x, int z, px_span* spans, int capacity)
{
    if (hf == NULL || x < 0 || z < 0 || x >= hf->width || z >= hf->depth || capacity < 0 ||
        (spans == NULL && capacity > 0))
    {
        return -1;
    }
    int count = 0;
    for (const pxi_span* s = pxi_column_first_const(&hf->columns[(size_t)x + (size_t)z * (size_t)hf->width]);
         s != NULL; s = s->next)
    {
        if (count < capacity)
        {
            spans[count].smin = s->smin;
            spans[count].smax = s->smax;
            spans[count].area = s->area;
        }
        ++count;
    }
    return count;
}

px_status px_heightfield_add_span(px_heightfield* hf, int x, int z, uint32_t smin, uint32_t smax, uint8_t area,
                                  int flag_merge_threshold)
{
    if (hf == NULL || x < 0 || z < 0 || x >= hf->width || z >= hf->depth || smin >= smax ||
        smax > PX_SPAN_MAX_HEIGHT || flag_merge_threshold < 0)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_span* column = &hf->columns[(size_t)x + (size_t)z * (size_t)hf->width];
    if (!pxi_column_add_span(column, &hf->store, smin, smax, area, flag_merge_threshold))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    return PX_OK;
}
