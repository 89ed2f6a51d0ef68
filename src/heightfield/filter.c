/* The three span filters of Recast's first stage, with the semantics of Debian's Recast
 * (1.5.1+git20210215, RecastFilter.cpp of that time): which spans an agent may stand on, given the largest
 * step it climbs and the clearance it needs. Each filter only changes area ids; the spans stay. */
#include "heightfield_internal.h"

static bool filter_parameter_ok(int value)
{
    return value >= 0 && value <= PX_SPAN_MAX_HEIGHT;
}

px_status px_filter_low_hanging_walkable_obstacles(px_heightfield* hf, int walkable_climb)
{
    if (hf == NULL || !filter_parameter_ok(walkable_climb))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const size_t columns = (size_t)hf->width * (size_t)hf->depth;
    for (size_t c = 0; c < columns; ++c)
    {
        const pxi_span* below = NULL;
        bool below_was_walkable = false;
        uint8_t below_area = PX_NULL_AREA;
        for (pxi_span* s = pxi_column_first(&hf->columns[c]); s != NULL; below = s, s = s->next)
        {
            const bool walkable = s->area != PX_NULL_AREA;
            /* spans are sorted and disjoint, so s->smax > below->smax: Recast's abs() changes nothing */
            if (!walkable && below_was_walkable && (int)s->smax - (int)below->smax <= walkable_climb)
            {
                s->area = below_area;
            }
            /* the walkability from before the filter, so that it does not climb several obstacles */
            below_was_walkable = walkable;
            below_area = s->area;
        }
    }
    return PX_OK;
}

/* Whether the walkable span s of column (x, z) sits at a ledge or on a steep slope (Recast's test). */
static bool span_is_ledge(const px_heightfield* hf, int x, int z, const pxi_span* s, int walkable_height,
                          int walkable_climb)
{
    static const int dx[4] = { -1, 0, 1, 0 };
    static const int dz[4] = { 0, 1, 0, -1 };
    const int bot = (int)s->smax;
    const int top = s->next != NULL ? (int)s->next->smin : PXI_OPEN_SKY;
    int min_drop = PXI_OPEN_SKY;  /* lowest neighbour floor (with enough clearance) minus bot */
    int reach_min = (int)s->smax; /* floors reachable within walkable_climb */
    int reach_max = (int)s->smax;
    for (int dir = 0; dir < 4; ++dir)
    {
        const int nx = x + dx[dir];
        const int nz = z + dz[dir];
        if (nx < 0 || nz < 0 || nx >= hf->width || nz >= hf->depth)
        {
            /* outside the field: a drop deeper than walkable_climb */
            const int drop = -walkable_climb - bot;
            min_drop = drop < min_drop ? drop : min_drop;
            continue;
        }
        const pxi_span* ns = pxi_column_first_const(&hf->columns[(size_t)nx + (size_t)nz * (size_t)hf->width]);
        /* the gap from below the field (a floor walkable_climb below 0) to the first span */
        int nbot = -walkable_climb;
        int ntop = ns != NULL ? (int)ns->smin : PXI_OPEN_SKY;
        if ((top < ntop ? top : ntop) - (bot > nbot ? bot : nbot) > walkable_height)
        {
            const int drop = nbot - bot;
            min_drop = drop < min_drop ? drop : min_drop;
        }
        for (; ns != NULL; ns = ns->next)
        {
            nbot = (int)ns->smax;
            ntop = ns->next != NULL ? (int)ns->next->smin : PXI_OPEN_SKY;
            if ((top < ntop ? top : ntop) - (bot > nbot ? bot : nbot) > walkable_height)
            {
                const int drop = nbot - bot;
                min_drop = drop < min_drop ? drop : min_drop;
                if ((drop < 0 ? -drop : drop) <= walkable_climb)
                {
                    reach_min = nbot < reach_min ? nbot : reach_min;
                    reach_max = nbot > reach_max ? nbot : reach_max;
                }
            }
        }
    }
    return min_drop < -walkable_climb || reach_max - reach_min > walkable_climb;
}

px_status px_filter_ledge_spans(px_heightfield* hf, int walkable_height, int walkable_climb)
{
    if (hf == NULL || !filter_parameter_ok(walkable_height) || !filter_parameter_ok(walkable_climb))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* The test reads only the heights of the neighbours, never their areas, so marking spans as we go gives
     * the same result as marking them afterwards. */
    for (int z = 0; z < hf->depth; ++z)
    {
        for (int x = 0; x < hf->width; ++x)
        {
            pxi_span* column = &hf->columns[(size_t)x + (size_t)z * (size_t)hf->width];
            for (pxi_span* s = pxi_column_first(column); s != NULL; s = s->next)
            {
                if (s->area != PX_NULL_AREA && span_is_ledge(hf, x, z, s, walkable_height, walkable_climb))
                {
                    s->area = PX_NULL_AREA;
                }
            }
        }
    }
    return PX_OK;
}

px_status px_filter_walkable_low_height_spans(px_heightfield* hf, int walkable_height)
{
    if (hf == NULL || !filter_parameter_ok(walkable_height))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const size_t columns = (size_t)hf->width * (size_t)hf->depth;
    for (size_t c = 0; c < columns; ++c)
    {
        for (pxi_span* s = pxi_column_first(&hf->columns[c]); s != NULL; s = s->next)
        {
            const int bot = (int)s->smax;
            const int top = s->next != NULL ? (int)s->next->smin : PXI_OPEN_SKY;
            if (top - bot <= walkable_height)
            {
                s->area = PX_NULL_AREA;
            }
        }
    }
    return PX_OK;
}
