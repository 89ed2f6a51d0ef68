/* Heightfields: creation limits and bad input, add-span merge rules under random insertions (against a
 * plain model of Recast's addSpan), slope ties, rasterization of hand-checked triangles, the fast clipping
 * (SSE, sweeps, shortcuts) against the reference clipping (a direct scalar port of Recast's dividePoly) on
 * random soups with vertices on and one ulp off cell lines, tiled windows against one pass, the three filters
 * on hand-built columns, huge and NaN coordinates, and allocation failure at every allocation; tiles through
 * the mesh BVH (px_heightfield_rasterize_mesh) against one pass on the shared meshes and random soups with
 * vertices on tile borders, with 1, 2 and 3 workers and tiles of several sizes. Span-for-span equality with
 * Recast itself is tests/oracle_recast. */
#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "heightfield/heightfield_internal.h"
#include "proxima/heightfield.h"
#include "proxima/io.h"
#include "proxima/mesh.h"
#include "proxima/task.h"
#include "support/rng.h"
#include "test.h"

/* ------------------------------------------------------------------------------------------------------ */
/* Helpers                                                                                                  */
/* ------------------------------------------------------------------------------------------------------ */

/* An allocator that counts live blocks and fails on request: every call after `fail_after` successful ones
 * (-1: never), and every block larger than max_size (0: no limit). */
typedef struct test_alloc
{
    int live;
    int calls;
    int fail_after;
    size_t max_size;
} test_alloc;

static void* test_alloc_fn(size_t size, size_t alignment, void* user)
{
    test_alloc* a = user;
    if ((a->fail_after >= 0 && a->calls >= a->fail_after) || (a->max_size != 0 && size > a->max_size))
    {
        return NULL;
    }
    a->calls++;
    a->live++;
    return aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

static void test_free_fn(void* p, size_t size, void* user)
{
    (void)size;
    ((test_alloc*)user)->live--;
    free(p);
}

/* Spans a[0..n) and b[0..n) equal field by field. (px_span has padding after area, which
 * px_heightfield_column does not write: memcmp of two copies compares whatever the buffers held before.) */
static bool spans_equal(const px_span* a, const px_span* b, int n)
{
    for (int i = 0; i < n; ++i)
    {
        if (a[i].smin != b[i].smin || a[i].smax != b[i].smax || a[i].area != b[i].area)
        {
            return false;
        }
    }
    return true;
}

static px_heightfield* make_field(int w, int d, float cs, float ch, float ox, float oy, float oz, float height)
{
    px_heightfield_def def = px_heightfield_default_def();
    def.width = w;
    def.depth = d;
    def.bmin[0] = ox;
    def.bmin[1] = oy;
    def.bmin[2] = oz;
    def.bmax[0] = ox + (float)w * cs;
    def.bmax[1] = oy + height;
    def.bmax[2] = oz + (float)d * cs;
    def.cell_size = cs;
    def.cell_height = ch;
    px_heightfield* hf = NULL;
    if (px_heightfield_create(&def, &hf) != PX_OK)
    {
        return NULL;
    }
    return hf;
}

/* Every column sorted bottom-up, spans valid and not touching, and the span count their sum. */
static int field_valid(const px_heightfield* hf)
{
    px_span spans[256];
    int64_t total = 0;
    for (int z = 0; z < px_heightfield_depth(hf); ++z)
    {
        for (int x = 0; x < px_heightfield_width(hf); ++x)
        {
            const int n = px_heightfield_column(hf, x, z, spans, 256);
            PX_CHECK(n >= 0 && n <= 256);
            for (int i = 0; i < n; ++i)
            {
                PX_CHECK(spans[i].smin < spans[i].smax && spans[i].smax <= PX_SPAN_MAX_HEIGHT);
                PX_CHECK(i == 0 || spans[i].smin > spans[i - 1].smax);
            }
            total += n;
        }
    }
    PX_CHECK(total == px_heightfield_span_count(hf));
    return 0;
}

/* Whether two fields hold the same spans, column by column. */
static int fields_equal(const px_heightfield* a, const px_heightfield* b)
{
    px_span sa[256], sb[256];
    PX_CHECK(px_heightfield_width(a) == px_heightfield_width(b) && px_heightfield_depth(a) == px_heightfield_depth(b));
    for (int z = 0; z < px_heightfield_depth(a); ++z)
    {
        for (int x = 0; x < px_heightfield_width(a); ++x)
        {
            const int na = px_heightfield_column(a, x, z, sa, 256);
            const int nb = px_heightfield_column(b, x, z, sb, 256);
            if (na != nb)
            {
                fprintf(stderr, "column (%d, %d): %d spans vs %d\n", x, z, na, nb);
                return 1;
            }
            for (int i = 0; i < na; ++i)
            {
                if (sa[i].smin != sb[i].smin || sa[i].smax != sb[i].smax || sa[i].area != sb[i].area)
                {
                    fprintf(stderr, "column (%d, %d) span %d: [%u, %u) a%u vs [%u, %u) a%u\n", x, z, i, sa[i].smin,
                            sa[i].smax, sa[i].area, sb[i].smin, sb[i].smax, sb[i].area);
                    return 1;
                }
            }
        }
    }
    return 0;
}

static int rand_int(px_rng* r, int lo, int hi) /* [lo, hi] */
{
    return lo + (int)(px_rng_next(r) % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------------------------------------------ */
/* Creation                                                                                                 */
/* ------------------------------------------------------------------------------------------------------ */

static int create_validation(void)
{
    px_heightfield* hf = (px_heightfield*)(uintptr_t)1;
    px_heightfield_def def = px_heightfield_default_def();
    def.bmax[0] = 3.0f;
    def.bmax[1] = 2.0f;
    def.bmax[2] = 1.5f;
    PX_CHECK_STATUS(px_heightfield_create(NULL, &hf), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(hf == NULL);
    PX_CHECK_STATUS(px_heightfield_create(&def, NULL), PX_ERR_INVALID_ARGUMENT);

    /* sizes from the bounds: Recast's rcCalcGridSize, (int)(extent / cs + 0.5f) */
    PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_OK);
    PX_CHECK(px_heightfield_width(hf) == 10 && px_heightfield_depth(hf) == 5);
    PX_CHECK(px_heightfield_span_count(hf) == 0);
    px_heightfield_def got = px_heightfield_get_def(hf);
    PX_CHECK(got.width == 10 && got.depth == 5 && got.cell_size == def.cell_size && got.bmax[2] == 1.5f);
    px_span s;
    PX_CHECK(px_heightfield_column(hf, 3, 4, &s, 1) == 0);
    PX_CHECK(px_heightfield_column(hf, 10, 0, &s, 1) == -1);
    PX_CHECK(px_heightfield_column(hf, 0, -1, &s, 1) == -1);
    PX_CHECK(px_heightfield_column(hf, 0, 0, NULL, 1) == -1);
    PX_CHECK(px_heightfield_column(hf, 0, 0, &s, -1) == -1);
    PX_CHECK(px_heightfield_column(NULL, 0, 0, &s, 1) == -1);
    px_heightfield_destroy(hf);
    px_heightfield_destroy(NULL);
    PX_CHECK(px_heightfield_width(NULL) == 0 && px_heightfield_depth(NULL) == 0);
    PX_CHECK(px_heightfield_span_count(NULL) == 0 && px_heightfield_get_def(NULL).width == 0);

    px_heightfield_def bad = def;
    bad.internal_value = 0;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    const float sizes[] = { 0.0f, -0.3f, 1e-45f };
    for (int i = 0; i < 3; ++i)
    {
        bad = def;
        bad.cell_size = sizes[i];
        PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
        bad = def;
        bad.cell_height = sizes[i];
        PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    }
    bad = def;
    bad.cell_size = NAN;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_NON_FINITE);
    bad = def;
    bad.bmin[1] = NAN;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_NON_FINITE);
    bad = def;
    bad.bmax[0] = INFINITY;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_NON_FINITE);
    for (int axis = 0; axis < 3; ++axis)
    {
        bad = def;
        bad.bmin[axis] = bad.bmax[axis] + 0.5f; /* bmin > bmax */
        PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    }
    bad = def;
    bad.width = 4; /* depth left 0 */
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.width = -1;
    bad.depth = 3;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.width = PX_HEIGHTFIELD_MAX_SIZE + 1;
    bad.depth = 1;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.bmax[0] = 1e30f; /* a size from the bounds beyond PX_HEIGHTFIELD_MAX_SIZE */
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.bmax[0] = 0.0f; /* computes to 0 columns */
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    /* but an explicit size over empty bounds is a valid (flat) field, as in Recast */
    bad.width = 2;
    bad.depth = 2;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_OK);
    px_heightfield_destroy(hf);

    /* height: floor(extent_y / ch) + 1 must fit PX_SPAN_MAX_HEIGHT (Recast wraps beyond 8191 cells) */
    bad = def;
    bad.cell_height = 1.0f;
    bad.bmax[1] = 65534.0f;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_OK);
    px_heightfield_destroy(hf);
    bad.bmax[1] = 65535.0f;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    bad.bmin[1] = -3e38f;
    bad.bmax[1] = 3e38f; /* the extent overflows */
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);

    test_alloc ta = { 0, 0, -1, 0 };
    px_allocator half = { test_alloc_fn, NULL, &ta };
    bad = def;
    bad.allocator = half;
    PX_CHECK_STATUS(px_heightfield_create(&bad, &hf), PX_ERR_INVALID_ARGUMENT);
    return 0;
}

static int too_large_and_out_of_memory(void)
{
    /* a field whose column array the allocator cannot give: a status, nothing leaked */
    test_alloc ta = { 0, 0, -1, (size_t)1 << 30 };
    px_heightfield_def def = px_heightfield_default_def();
    def.allocator.alloc = test_alloc_fn;
    def.allocator.free = test_free_fn;
    def.allocator.user = &ta;
    def.width = PX_HEIGHTFIELD_MAX_SIZE;
    def.depth = PX_HEIGHTFIELD_MAX_SIZE; /* 2^48 columns */
    def.bmax[0] = def.bmax[1] = def.bmax[2] = 1.0f;
    px_heightfield* hf = (px_heightfield*)(uintptr_t)1;
    PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_ERR_OUT_OF_MEMORY);
    PX_CHECK(hf == NULL && ta.live == 0);

    /* failure at each allocation of create */
    def.width = 16;
    def.depth = 16;
    for (int k = 0; k < 2; ++k)
    {
        ta.fail_after = k;
        ta.calls = 0;
        PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_ERR_OUT_OF_MEMORY);
        PX_CHECK(ta.live == 0);
    }
    return 0;
}

/* Rasterization that runs out of span pools part way: a status, the field stays valid (and usable), and
 * with memory again the same input completes. */
static int allocation_failure_in_rasterization(void)
{
    px_rng r = px_rng_seeded(0xA110Cull);
    const int nt = 3000;
    float* v = malloc((size_t)nt * 9 * sizeof(float));
    uint8_t* areas = malloc((size_t)nt);
    PX_CHECK(v != NULL && areas != NULL);
    for (int i = 0; i < nt * 9; ++i)
    {
        v[i] = (float)px_rng_range(&r, 0.0, 30.0);
    }
    for (int i = 0; i < nt; ++i)
    {
        areas[i] = (uint8_t)rand_int(&r, 0, 63);
    }
    test_alloc ta = { 0, 0, -1, 0 };
    px_heightfield_def def = px_heightfield_default_def();
    def.allocator.alloc = test_alloc_fn;
    def.allocator.free = test_free_fn;
    def.allocator.user = &ta;
    def.bmax[0] = def.bmax[1] = def.bmax[2] = 30.0f;
    def.cell_size = 0.25f;
    def.cell_height = 0.1f;
    int failures_seen = 0;
    for (int k = 2; k < 12; ++k)
    {
        ta.fail_after = -1;
        ta.calls = 0;
        px_heightfield* hf = NULL;
        PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_OK);
        ta.fail_after = k; /* the create took 2 allocations; pools come after */
        px_status s = px_heightfield_rasterize_triangles(hf, v, nt * 3, NULL, areas, nt, 1);
        PX_CHECK(s == PX_OK || s == PX_ERR_OUT_OF_MEMORY);
        failures_seen += s == PX_ERR_OUT_OF_MEMORY;
        if (field_valid(hf) != 0)
        {
            return 1;
        }
        /* add_span on a full pool fails without changing the column */
        if (s == PX_ERR_OUT_OF_MEMORY)
        {
            px_span before[256], after[256];
            /* different bytes in the padding, which only a field-by-field comparison ignores */
            memset(before, 0xA5, sizeof(before));
            memset(after, 0x5A, sizeof(after));
            const int n0 = px_heightfield_column(hf, 5, 5, before, 256);
            px_status a = px_heightfield_add_span(hf, 5, 5, 65000, 65001, 1, 0);
            PX_CHECK(a == PX_OK || a == PX_ERR_OUT_OF_MEMORY);
            if (a == PX_ERR_OUT_OF_MEMORY)
            {
                PX_CHECK(px_heightfield_column(hf, 5, 5, after, 256) == n0);
                PX_CHECK(spans_equal(before, after, n0));
            }
        }
        /* with memory again the field takes the rest */
        ta.fail_after = -1;
        PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, nt * 3, NULL, areas, nt, 1), PX_OK);
        if (field_valid(hf) != 0)
        {
            return 1;
        }
        px_heightfield_destroy(hf);
        PX_CHECK(ta.live == 0);
    }
    PX_CHECK(failures_seen >= 8);
    free(v);
    free(areas);
    return 0;
}

/* px_heightfield_add_span out of memory leaves the column as it was, for a span above the others and for a new
 * lowest span (which moves the column's slot span out), while a merge, which needs no new span, still works.
 * The columns are compared field by field from buffers whose padding bytes differ: the check of
 * allocation_failure_in_rasterization compared them with memcmp, padding included, and failed at
 * PX_TEST_SEED=20 on stack garbage while the spans were equal. */
static int add_span_out_of_memory_keeps_column(void)
{
    test_alloc ta = { 0, 0, -1, 0 };
    px_heightfield_def def = px_heightfield_default_def();
    def.allocator.alloc = test_alloc_fn;
    def.allocator.free = test_free_fn;
    def.allocator.user = &ta;
    def.bmax[0] = def.bmax[1] = def.bmax[2] = 8.0f;
    px_heightfield* hf = NULL;
    PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_OK);
    /* the first span of a column lives in its slot: no allocation */
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 5, 5, 10, 20, 3, 1), PX_OK);
    ta.fail_after = ta.calls;
    px_span before[4], after[4];
    memset(before, 0xA5, sizeof(before));
    memset(after, 0x5A, sizeof(after));
    PX_CHECK(px_heightfield_column(hf, 5, 5, before, 4) == 1);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 5, 5, 30, 40, 4, 1), PX_ERR_OUT_OF_MEMORY);
    PX_CHECK(px_heightfield_column(hf, 5, 5, after, 4) == 1 && spans_equal(before, after, 1));
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 5, 5, 1, 5, 4, 1), PX_ERR_OUT_OF_MEMORY);
    memset(after, 0x5A, sizeof(after));
    PX_CHECK(px_heightfield_column(hf, 5, 5, after, 4) == 1 && spans_equal(before, after, 1));
    PX_CHECK(before[0].smin == 10 && before[0].smax == 20 && before[0].area == 3);
    /* a merge reuses the span it merges into */
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 5, 5, 15, 25, 2, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 5, 5, after, 4) == 1 && after[0].smin == 10 && after[0].smax == 25);
    px_heightfield_destroy(hf);
    PX_CHECK(ta.live == 0);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Adding spans                                                                                             */
/* ------------------------------------------------------------------------------------------------------ */

/* A plain model of Recast's addSpan on an array: sorted, merging touching and overlapping spans, keeping
 * the larger area when the merged top is within the threshold of a merged span's top. */
typedef struct model_column
{
    int n;
    px_span s[128];
} model_column;

static void model_add(model_column* c, uint32_t smin, uint32_t smax, uint8_t area, int thr)
{
    px_span out[128];
    int n = 0;
    px_span add = { smin, smax, area };
    int i = 0;
    while (i < c->n && c->s[i].smax < smin)
    {
        out[n++] = c->s[i++];
    }
    while (i < c->n && c->s[i].smin <= add.smax)
    {
        const px_span cur = c->s[i++];
        add.smin = cur.smin < add.smin ? cur.smin : add.smin;
        add.smax = cur.smax > add.smax ? cur.smax : add.smax;
        if ((int)add.smax - (int)cur.smax <= thr && cur.area > add.area)
        {
            add.area = cur.area;
        }
    }
    out[n++] = add;
    while (i < c->n)
    {
        out[n++] = c->s[i++];
    }
    memcpy(c->s, out, (size_t)n * sizeof(px_span));
    c->n = n;
}

static int add_span_random(void)
{
    px_rng r = px_rng_seeded(0xADD5ull);
    static model_column model[6];
    for (int round = 0; round < 400; ++round)
    {
        px_heightfield* hf = make_field(3, 2, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1000.0f);
        PX_CHECK(hf != NULL);
        memset(model, 0, sizeof(model));
        const int thr = rand_int(&r, 0, 4);
        const int top = rand_int(&r, 6, round % 3 == 0 ? PX_SPAN_MAX_HEIGHT : 120);
        const int count = rand_int(&r, 1, 60);
        for (int i = 0; i < count; ++i)
        {
            const int x = rand_int(&r, 0, 2), z = rand_int(&r, 0, 1);
            const int smin = rand_int(&r, 0, top - 1);
            const int len = rand_int(&r, 1, 12);
            const int smax = smin + len > top ? top : smin + len;
            const uint8_t area = (uint8_t)rand_int(&r, 0, 255);
            PX_CHECK_STATUS(px_heightfield_add_span(hf, x, z, (uint32_t)smin, (uint32_t)smax, area, thr), PX_OK);
            model_add(&model[x + 3 * z], (uint32_t)smin, (uint32_t)smax, area, thr);
        }
        if (field_valid(hf) != 0)
        {
            return 1;
        }
        for (int c = 0; c < 6; ++c)
        {
            px_span got[128];
            const int n = px_heightfield_column(hf, c % 3, c / 3, got, 128);
            PX_CHECK(n == model[c].n);
            for (int i = 0; i < n; ++i)
            {
                PX_CHECK(got[i].smin == model[c].s[i].smin && got[i].smax == model[c].s[i].smax &&
                         got[i].area == model[c].s[i].area);
            }
        }
        px_heightfield_destroy(hf);
    }

    /* Recast's own cases: touching spans merge; the area rule picks the larger id within the threshold */
    px_heightfield* hf = make_field(1, 1, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 100.0f);
    PX_CHECK(hf != NULL);
    px_span s[4];
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 0, 2, 1, 1), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 3, 5, 2, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 4) == 2); /* [0,2) and [3,5) do not touch */
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 2, 3, 7, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 4) == 1);
    /* [2,3) a7 merges [0,2) a1 (top 3 vs 2: within 1, max 7) then [3,5) a2 (top 5 vs 5: max stays 7) */
    PX_CHECK(s[0].smin == 0 && s[0].smax == 5 && s[0].area == 7);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 1, 9, 3, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 4) == 1 && s[0].smax == 9 && s[0].area == 3); /* 9 - 5 > 1 */
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 20, 21, 1, 1), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 11, 12, 1, 1), PX_OK); /* between two: sorted */
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 4) == 3 && s[1].smin == 11 && s[2].smin == 20);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 1) == 3); /* count beyond capacity */
    /* invalid spans are refused */
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 5, 5, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 6, 5, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 5, PX_SPAN_MAX_HEIGHT + 1, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 1, 0, 5, 6, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 5, 6, 1, -1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_add_span(NULL, 0, 0, 5, 6, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(px_heightfield_span_count(hf) == 3);
    px_heightfield_destroy(hf);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Slopes                                                                                                   */
/* ------------------------------------------------------------------------------------------------------ */

static int slope_ties(void)
{
    /* a 45-degree ramp: normal (0, 1, 1) / sqrt(2) */
    const float ramp[9] = { 0, 0, 0, 0, -1, 1, 1, 0, 0 };
    const float flat[9] = { 0, 0, 0, 0, 0, 1, 1, 0, 0 };
    const float wall[9] = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };       /* vertical, n = (0, 0, -1) */
    const float leaning[9] = { 0, 0, 0, 1, 0, 0, 0, 1, -1e-3f }; /* a hair from vertical, facing up */
    const float down[9] = { 0, 0, 0, 1, 0, 0, 0, 0, 1 };        /* n = (0, -1, 0) */
    const float point[9] = { 1, 2, 3, 1, 2, 3, 1, 2, 3 };
    const float nan_tri[9] = { 0, 0, 0, 0, NAN, 1, 1, 0, 0 };
    /* edges of 2^40 (a helper's sweep): |n|^2 = 2^160 overflows float; the floor is still a floor */
    const float huge_flat[9] = { 0, 0, 0, 0, 0, 0x1p40f, 0x1p40f, 0, 0 };
    const float huge_ramp[9] = { 0, 0, 0, 0, -0x1p40f, 0x1p40f, 0x1p40f, 0, 0 };
    /* edges near 2^63.75 (a review): 2^-64 left the normal's squares overflowing; 2^-66 does not */
    const float top_ramp[9] = { 0, 0, 0, 0, -0x1.ap63f, 0x1.ap63f, 0x1.ap63f, 0, 0 };
    const int32_t tri[3] = { 0, 1, 2 };
    struct
    {
        const float* v;
        float slope;
        uint8_t expected;
    } cases[] = {
        { ramp, 45.0f, 0 },         /* the tie: not walkable (n.y > cos is strict, as in Recast) */
        { ramp, 45.001f, 63 },      { ramp, 44.999f, 0 },     { flat, 0.0f, 0 }, /* 0 degrees: nothing */
        { flat, 0.1f, 63 },       { flat, 89.0f, 63 },      { wall, 89.999f, 0 },
        { wall, 90.0f, 0 },         /* Recast marks it walkable (cosf(pi/2) < 0); proxima does not */
        { wall, 180.0f, 0 },        { leaning, 90.0f, 63 },   { leaning, 89.0f, 0 },
        { down, 90.0f, 0 },         { down, 180.0f, 0 },      { point, 60.0f, 0 },
        { nan_tri, 60.0f, 0 },    { huge_flat, 0.1f, 63 },  { huge_ramp, 45.001f, 63 },
        { huge_ramp, 44.999f, 0 }, { top_ramp, 45.001f, 63 }, { top_ramp, 44.999f, 0 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        uint8_t area = 0;
        PX_CHECK_STATUS(px_mark_walkable_triangles(cases[i].slope, cases[i].v, 3, tri, 1, &area), PX_OK);
        if (area != cases[i].expected)
        {
            fprintf(stderr, "case %zu (slope %g): area %u, expected %u\n", i, (double)cases[i].slope, area,
                    cases[i].expected);
            return 1;
        }
    }
    /* below 90 degrees the threshold is positive, so proxima's limit at 0 never differs from Recast */
    PX_CHECK(cosf(nextafterf(90.0f, 0.0f) / 180.0f * 3.14159265f) > 0.0f);
    /* walkable triangles are set, others left as they were */
    const float two[18] = { 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0 };
    uint8_t areas[2] = { 5, 9 };
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, two, 6, NULL, 2, areas), PX_OK);
    PX_CHECK(areas[0] == PX_WALKABLE_AREA && areas[1] == 9);
    /* bad input: nothing written */
    const int32_t out_of_range[3] = { 0, 1, 3 };
    areas[0] = 1;
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, flat, 3, out_of_range, 1, areas), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(areas[0] == 1);
    PX_CHECK_STATUS(px_mark_walkable_triangles(NAN, flat, 3, tri, 1, areas), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mark_walkable_triangles(INFINITY, flat, 3, tri, 1, areas), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mark_walkable_triangles(-1.0f, flat, 3, tri, 1, areas), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, NULL, 3, tri, 1, areas), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, flat, 3, tri, 1, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, flat, 3, tri, -1, areas), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, flat, 2, NULL, 1, areas), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(areas[0] == 1);
    PX_CHECK_STATUS(px_mark_walkable_triangles(30.0f, NULL, 0, NULL, 0, NULL), PX_OK);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Rasterization                                                                                            */
/* ------------------------------------------------------------------------------------------------------ */

static int rasterize_known_cases(void)
{
    /* 4 x 4 cells of 1, height unit 0.5 over [0, 10] */
    px_heightfield* hf = make_field(4, 4, 1.0f, 0.5f, 0.0f, 0.0f, 0.0f, 10.0f);
    PX_CHECK(hf != NULL);
    px_span s[8];
    /* a horizontal quad over the whole field at y = 2.2: [floor(4.4), ceil(4.4)) = [4, 5) everywhere */
    const float quad[12] = { -1, 2.2f, -1, -1, 2.2f, 5, 5, 2.2f, 5, 5, 2.2f, -1 };
    const int32_t quad_tris[6] = { 0, 1, 2, 0, 2, 3 };
    const uint8_t walk[2] = { PX_WALKABLE_AREA, PX_WALKABLE_AREA };
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, quad, 4, quad_tris, walk, 2, 1), PX_OK);
    for (int z = 0; z < 4; ++z)
    {
        for (int x = 0; x < 4; ++x)
        {
            PX_CHECK(px_heightfield_column(hf, x, z, s, 8) == 1);
            PX_CHECK(s[0].smin == 4 && s[0].smax == 5 && s[0].area == PX_WALKABLE_AREA);
        }
    }
    /* a vertical wall inside column (1, 2) from y 1 to 3.1: [2, 7) */
    const float wall[9] = { 1.5f, 1.0f, 2.2f, 1.5f, 3.1f, 2.2f, 1.5f, 1.0f, 2.7f };
    const uint8_t none = PX_NULL_AREA;
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, wall, 3, NULL, &none, 1, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 1, 2, s, 8) == 1);
    /* merged with the floor [4,5): top 7 is 2 above the floor's top, beyond threshold 1: the wall's area */
    PX_CHECK(s[0].smin == 2 && s[0].smax == 7 && s[0].area == PX_NULL_AREA);
    /* a point-like triangle (degenerate) still makes a span one unit tall, as in Recast */
    const float point[9] = { 3.5f, 8.0f, 3.5f, 3.5f, 8.0f, 3.5f, 3.5f, 8.0f, 3.5f };
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, point, 3, NULL, walk, 1, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 3, 3, s, 8) == 2 && s[1].smin == 16 && s[1].smax == 17);
    /* above and below the field: nothing; clamped to the field's height */
    const float high[9] = { 0.5f, 11.0f, 0.5f, 0.6f, 12.0f, 0.5f, 0.5f, 11.0f, 0.6f };
    const float tall[9] = { 0.2f, -5.0f, 0.2f, 0.3f, 20.0f, 0.2f, 0.2f, 20.0f, 0.3f };
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, high, 3, NULL, walk, 1, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 8) == 1 && s[0].smin == 4);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, tall, 3, NULL, walk, 1, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 8) == 1 && s[0].smin == 0 && s[0].smax == 20);
    if (field_valid(hf) != 0)
    {
        return 1;
    }
    px_heightfield_destroy(hf);
    return 0;
}

static int rasterize_bad_input(void)
{
    px_heightfield* hf = make_field(8, 8, 0.5f, 0.25f, 0.0f, 0.0f, 0.0f, 4.0f);
    PX_CHECK(hf != NULL);
    const float v[12] = { 0.1f, 1, 0.1f, 3, 1, 0.2f, 0.3f, 1, 3, 1, 2, 1 };
    const int32_t tri[6] = { 0, 1, 2, 1, 2, 3 };
    const uint8_t areas[2] = { 63, 63 };
    float nan_v[12];
    memcpy(nan_v, v, sizeof(v));
    nan_v[10] = NAN; /* vertex 3, used by the second triangle only */
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, nan_v, 4, tri, areas, 2, 1), PX_ERR_NON_FINITE);
    nan_v[10] = INFINITY;
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, nan_v, 4, tri, areas, 2, 1), PX_ERR_NON_FINITE);
    PX_CHECK(px_heightfield_span_count(hf) == 0); /* nothing rasterized before the check failed */
    /* an unused NaN vertex is fine */
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, nan_v, 4, tri, areas, 1, 1), PX_OK);
    PX_CHECK(px_heightfield_span_count(hf) > 0);
    const int64_t count = px_heightfield_span_count(hf);
    const int32_t bad_index[3] = { 0, 1, 4 };
    const int32_t negative_index[3] = { 0, -1, 2 };
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, bad_index, areas, 1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, negative_index, areas, 1, 1),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(NULL, v, 4, tri, areas, 2, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, NULL, 4, tri, areas, 2, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, tri, NULL, 2, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, tri, areas, -1, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, -4, tri, areas, 2, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, tri, areas, 2, -1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 4, NULL, areas, 2, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, NULL, 0, NULL, NULL, 0, 0), PX_OK);
    PX_CHECK(px_heightfield_span_count(hf) == count);
    if (field_valid(hf) != 0)
    {
        return 1;
    }
    px_heightfield_destroy(hf);
    return 0;
}

/* Huge finite coordinates: no undefined float-to-int conversion (the sanitizer build checks), valid spans. */
static int rasterize_huge_coordinates(void)
{
    px_rng r = px_rng_seeded(0x4B6ull);
    px_heightfield* hf = make_field(16, 16, 0.5f, 0.25f, -4.0f, -2.0f, -4.0f, 8.0f);
    PX_CHECK(hf != NULL);
    const float mags[] = { 1e6f, 1e20f, 1e30f, 1e37f, FLT_MAX };
    float v[9 * 200];
    uint8_t areas[200];
    for (int i = 0; i < 200; ++i)
    {
        for (int k = 0; k < 9; ++k)
        {
            const float m = mags[rand_int(&r, 0, 4)];
            v[9 * i + k] = rand_int(&r, 0, 2) == 0 ? (float)px_rng_range(&r, -4.0, 4.0)
                                                    : (rand_int(&r, 0, 1) ? m : -m);
        }
        areas[i] = PX_WALKABLE_AREA;
    }
    const px_status s = px_heightfield_rasterize_triangles(hf, v, 600, NULL, areas, 200, 1);
    PX_CHECK(s == PX_OK || s == PX_WARN_CAPACITY);
    if (field_valid(hf) != 0)
    {
        return 1;
    }
    PX_CHECK(px_heightfield_span_count(hf) > 0);
    /* a field far from the origin with huge bounds */
    px_heightfield_def def = px_heightfield_default_def();
    def.bmin[0] = def.bmin[2] = -1e30f;
    def.bmax[0] = def.bmax[2] = 1e30f;
    def.bmax[1] = 10.0f;
    def.cell_size = 1e29f;
    px_heightfield_destroy(hf);
    PX_CHECK_STATUS(px_heightfield_create(&def, &hf), PX_OK);
    const px_status s2 = px_heightfield_rasterize_triangles(hf, v, 600, NULL, areas, 200, 1);
    PX_CHECK(s2 == PX_OK || s2 == PX_WARN_CAPACITY);
    if (field_valid(hf) != 0)
    {
        return 1;
    }
    px_heightfield_destroy(hf);
    return 0;
}

/* A coordinate exactly on a grid line as the clipping computes it (the far line of cell k - 1 or the near line
 * of cell k), or one ulp off it. */
static float grid_coord(px_rng* r, float origin, float cs, int k)
{
    float v = rand_int(r, 0, 1) == 0 ? (origin + (float)(k - 1) * cs) + cs : origin + (float)k * cs;
    const int u = rand_int(r, 0, 3);
    return u == 0 ? nextafterf(v, INFINITY) : u == 1 ? nextafterf(v, -INFINITY) : v;
}

/* Random soups rasterized by the fast clipping (SSE splits, sweeps, shortcuts) and by the reference clipping
 * (the scalar port of dividePoly), which must agree exactly; and by four tiles (windows, each with its own
 * span store) merged, which must agree with one pass. */
static int fast_vs_reference_and_tiles(void)
{
    px_rng r = px_rng_seeded(0xFA57ull);
    float v[9 * 150];
    uint8_t areas[150];
    long spans = 0;
    for (int soup = 0; soup < 400; ++soup)
    {
        const int w = rand_int(&r, 1, 30), d = rand_int(&r, 1, 30);
        const float cs = rand_int(&r, 0, 1) ? (float)px_rng_range(&r, 0.05, 2.0) : 0.3f;
        const float ch = (float)px_rng_range(&r, 0.05, 0.5);
        const float o = rand_int(&r, 0, 2) == 0 ? 0.0f : (float)px_rng_range(&r, -5000.0, 5000.0);
        const float height = ch * (float)rand_int(&r, 5, 300);
        px_heightfield* fast = make_field(w, d, cs, ch, o, o, o, height);
        px_heightfield* ref = make_field(w, d, cs, ch, o, o, o, height);
        px_heightfield* tiled = make_field(w, d, cs, ch, o, o, o, height);
        PX_CHECK(fast != NULL && ref != NULL && tiled != NULL);
        ref->reference_clipping = true;
        const int nt = rand_int(&r, 1, 150);
        for (int t = 0; t < nt; ++t)
        {
            const int mode = rand_int(&r, 0, 2);
            for (int k = 0; k < 3; ++k)
            {
                float* p = &v[9 * t + 3 * k];
                if (mode == 0 || (mode == 2 && k > 0))
                {
                    p[0] = o + (float)px_rng_range(&r, -0.2, 1.2) * (float)w * cs;
                    p[2] = o + (float)px_rng_range(&r, -0.2, 1.2) * (float)d * cs;
                }
                else
                {
                    p[0] = grid_coord(&r, o, cs, rand_int(&r, -1, w + 1));
                    p[2] = grid_coord(&r, o, cs, rand_int(&r, -1, d + 1));
                }
                p[1] = o + (float)px_rng_range(&r, -0.1, 1.1) * height;
            }
            if (mode == 2)
            {
                /* small: the others within two cells of the first */
                for (int k = 1; k < 3; ++k)
                {
                    for (int a = 0; a < 3; ++a)
                    {
                        v[9 * t + 3 * k + a] = v[9 * t + a] + (float)px_rng_range(&r, -2.0, 2.0) * cs;
                    }
                }
            }
            areas[t] = (uint8_t)rand_int(&r, 0, 63);
        }
        const int thr = rand_int(&r, 0, 3);
        PX_CHECK_STATUS(px_heightfield_rasterize_triangles(fast, v, nt * 3, NULL, areas, nt, thr), PX_OK);
        PX_CHECK_STATUS(px_heightfield_rasterize_triangles(ref, v, nt * 3, NULL, areas, nt, thr), PX_OK);
        /* four windows, each with its own store, as parallel tiles would do */
        const int mx = rand_int(&r, 0, w), mz = rand_int(&r, 0, d);
        const pxi_column_window windows[4] = { { 0, 0, mx, mz }, { mx, 0, w, mz }, { 0, mz, mx, d }, { mx, mz, w, d } };
        for (int k = 0; k < 4; ++k)
        {
            pxi_span_store store;
            pxi_span_store_init(&store, &tiled->allocator);
            PX_CHECK_STATUS(pxi_heightfield_rasterize(tiled, &store, v, NULL, areas, 0, nt, thr, windows[k], NULL),
                            PX_OK);
            pxi_span_store_merge(&tiled->store, &store);
        }
        if (fields_equal(fast, ref) != 0 || fields_equal(fast, tiled) != 0 || field_valid(fast) != 0 ||
            field_valid(tiled) != 0)
        {
            fprintf(stderr, "soup %d: %dx%d cs %a ch %a origin %a, %d triangles\n", soup, w, d, (double)cs,
                    (double)ch, (double)o, nt);
            return 1;
        }
        spans += (long)px_heightfield_span_count(fast);
        px_heightfield_destroy(fast);
        px_heightfield_destroy(ref);
        px_heightfield_destroy(tiled);
    }
    PX_CHECK(spans > 10000);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Filters                                                                                                  */
/* ------------------------------------------------------------------------------------------------------ */

static int filters_known_cases(void)
{
    px_span s[8];
    /* low-hanging obstacles: a step of 2 on walkable ground becomes walkable with climb 2, not with 1; it
     * does not climb through two obstacles */
    px_heightfield* hf = make_field(3, 1, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 100.0f);
    PX_CHECK(hf != NULL);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 0, 10, 17, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 11, 12, PX_NULL_AREA, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 13, 14, PX_NULL_AREA, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 1, 0, 0, 10, 17, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 1, 0, 11, 12, PX_NULL_AREA, 0), PX_OK);
    PX_CHECK_STATUS(px_filter_low_hanging_walkable_obstacles(hf, 1), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 1, 0, s, 8) == 2 && s[1].area == PX_NULL_AREA);
    PX_CHECK_STATUS(px_filter_low_hanging_walkable_obstacles(hf, 2), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 1, 0, s, 8) == 2 && s[1].area == 17);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 8) == 3 && s[1].area == 17 && s[2].area == PX_NULL_AREA);
    px_heightfield_destroy(hf);

    /* low height: clearance next.smin - smax <= walkable_height is not enough; the top span always is */
    hf = make_field(1, 1, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 100.0f);
    PX_CHECK(hf != NULL);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 0, 10, 63, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 15, 16, 63, 0), PX_OK);
    PX_CHECK_STATUS(px_heightfield_add_span(hf, 0, 0, 22, 23, 63, 0), PX_OK);
    PX_CHECK_STATUS(px_filter_walkable_low_height_spans(hf, 5), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 8) == 3);
    PX_CHECK(s[0].area == PX_NULL_AREA && s[1].area == 63 && s[2].area == 63); /* gaps 5 and 6 */
    PX_CHECK_STATUS(px_filter_walkable_low_height_spans(hf, PX_SPAN_MAX_HEIGHT), PX_OK);
    PX_CHECK(px_heightfield_column(hf, 0, 0, s, 8) == 3 && s[1].area == PX_NULL_AREA && s[2].area == 63);
    px_heightfield_destroy(hf);

    /* ledges: a 5 x 5 floor at 10 with a pit at the centre column */
    hf = make_field(5, 5, 1.0f, 1.0f, 0.0f, 0.0f, 0.0f, 100.0f);
    PX_CHECK(hf != NULL);
    for (int z = 0; z < 5; ++z)
    {
        for (int x = 0; x < 5; ++x)
        {
            const uint32_t top = (x == 2 && z == 2) ? 3u : 10u;
            PX_CHECK_STATUS(px_heightfield_add_span(hf, x, z, 0, top, 63, 0), PX_OK);
        }
    }
    PX_CHECK_STATUS(px_filter_ledge_spans(hf, 4, 2), PX_OK);
    for (int z = 0; z < 5; ++z)
    {
        for (int x = 0; x < 5; ++x)
        {
            PX_CHECK(px_heightfield_column(hf, x, z, s, 8) == 1);
            const bool border = x == 0 || z == 0 || x == 4 || z == 4;
            const bool next_to_pit = abs(x - 2) + abs(z - 2) == 1;
            /* the border drops off the field; the pit's neighbours drop 7 > climb; the pit itself is lower
             * than all its neighbours, which are no drop (a climb of 7 up is a wall, not a ledge) */
            const uint8_t expected = (border || next_to_pit) ? PX_NULL_AREA : 63;
            if (s[0].area != expected)
            {
                fprintf(stderr, "ledge (%d, %d): area %u, expected %u\n", x, z, s[0].area, expected);
                return 1;
            }
        }
    }
    /* bad parameters */
    PX_CHECK_STATUS(px_filter_ledge_spans(hf, -1, 2), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_ledge_spans(hf, 4, PX_SPAN_MAX_HEIGHT + 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_ledge_spans(NULL, 4, 2), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_low_hanging_walkable_obstacles(hf, -1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_low_hanging_walkable_obstacles(NULL, 1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_walkable_low_height_spans(hf, -1), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_filter_walkable_low_height_spans(NULL, 1), PX_ERR_INVALID_ARGUMENT);
    px_heightfield_destroy(hf);
    return 0;
}


/* ------------------------------------------------------------------------------------------------------ */
/* Tiles through the mesh BVH                                                                               */
/* ------------------------------------------------------------------------------------------------------ */

/* fields_equal for columns of any height, and the span counts. */
static int fields_equal_any(const px_heightfield* a, const px_heightfield* b)
{
    PX_CHECK(px_heightfield_width(a) == px_heightfield_width(b) && px_heightfield_depth(a) == px_heightfield_depth(b));
    PX_CHECK(px_heightfield_span_count(a) == px_heightfield_span_count(b));
    int capacity = 0;
    px_span* sa = NULL;
    px_span* sb = NULL;
    int result = 0;
    for (int z = 0; z < px_heightfield_depth(a) && result == 0; ++z)
    {
        for (int x = 0; x < px_heightfield_width(a) && result == 0; ++x)
        {
            const int na = px_heightfield_column(a, x, z, NULL, 0);
            const int nb = px_heightfield_column(b, x, z, NULL, 0);
            if (na != nb)
            {
                fprintf(stderr, "column (%d, %d): %d spans vs %d\n", x, z, na, nb);
                result = 1;
                break;
            }
            if (na > capacity)
            {
                capacity = 2 * na;
                free(sa);
                free(sb);
                sa = malloc((size_t)capacity * sizeof(px_span));
                sb = malloc((size_t)capacity * sizeof(px_span));
                if (sa == NULL || sb == NULL)
                {
                    result = 1;
                    break;
                }
            }
            px_heightfield_column(a, x, z, sa, capacity);
            px_heightfield_column(b, x, z, sb, capacity);
            for (int i = 0; i < na; ++i)
            {
                if (sa[i].smin != sb[i].smin || sa[i].smax != sb[i].smax || sa[i].area != sb[i].area)
                {
                    fprintf(stderr, "column (%d, %d) span %d: [%u, %u) a%u vs [%u, %u) a%u\n", x, z, i, sa[i].smin,
                            sa[i].smax, sa[i].area, sb[i].smin, sb[i].smax, sb[i].area);
                    result = 1;
                    break;
                }
            }
        }
    }
    free(sa);
    free(sb);
    return result;
}

/* A field with the same bounds and cells as hf, empty. */
static px_heightfield* field_like(const px_heightfield* hf)
{
    px_heightfield_def def = px_heightfield_get_def(hf);
    px_heightfield* out = NULL;
    if (px_heightfield_create(&def, &out) != PX_OK)
    {
        return NULL;
    }
    return out;
}

/* Thread pools of 1, 2 and 3 workers, and no task system, as tile runners. */
typedef struct tile_runners
{
    px_thread_pool* pools[3];
    px_task_system systems[4];
} tile_runners;

static int runners_create(tile_runners* r)
{
    memset(r, 0, sizeof(*r));
    for (int i = 0; i < 3; ++i)
    {
        PX_CHECK_STATUS(px_thread_pool_create(i + 1, NULL, &r->pools[i]), PX_OK);
        r->systems[i + 1] = px_thread_pool_task_system(r->pools[i]);
    }
    return 0;
}

static void runners_destroy(tile_runners* r)
{
    for (int i = 0; i < 3; ++i)
    {
        px_thread_pool_destroy(r->pools[i]);
    }
}

/* The mesh rasterized in tiles of each size (square tiles for even entries of tile_sizes, bands of whole rows
 * for odd ones) with each runner, and through px_heightfield_rasterize_mesh with each runner, against one pass
 * of px_heightfield_rasterize_triangles into `one` (already rasterized). */
static int tiles_against_one_pass(const px_heightfield* one, const px_mesh* mesh, const uint8_t* areas, int thr,
                                  const tile_runners* runners, const int* tile_sizes, int tile_size_count)
{
    for (int k = 0; k < 4; ++k)
    {
        const px_task_system* tasks = k == 0 ? NULL : &runners->systems[k];
        for (int t = -1; t < tile_size_count; ++t)
        {
            px_heightfield* hf = field_like(one);
            PX_CHECK(hf != NULL);
            px_status s;
            if (t < 0)
            {
                s = px_heightfield_rasterize_mesh(hf, mesh, areas, thr, tasks);
            }
            else
            {
                /* square tiles, and bands of whole rows as px_heightfield_rasterize_mesh makes */
                const int tile_width = (t % 2 == 0) ? tile_sizes[t] : px_heightfield_width(one);
                s = pxi_heightfield_rasterize_mesh_tiled(hf, mesh, areas, thr, tasks, tile_width, tile_sizes[t],
                                                         NULL);
            }
            if (s != PX_OK || fields_equal_any(one, hf) != 0 || field_valid(hf) != 0)
            {
                fprintf(stderr, "tiles of %d columns, %d workers: %s\n", t < 0 ? 0 : tile_sizes[t], k,
                        px_status_string(s));
                px_heightfield_destroy(hf);
                return 1;
            }
            px_heightfield_destroy(hf);
        }
    }
    return 0;
}

/* Random soups, with many vertices exactly on (or an ulp off) the lines between tiles, as meshes: every tiling
 * and thread count gives the spans of one pass. */
static int tiles_random_soups(void)
{
    tile_runners runners;
    if (runners_create(&runners) != 0)
    {
        return 1;
    }
    px_rng r = px_rng_seeded(0x711E5ull);
    float v[9 * 120];
    int32_t idx[3 * 120];
    uint8_t areas[120];
    long spans = 0;
    int result = 0;
    for (int soup = 0; soup < 120 && result == 0; ++soup)
    {
        const int w = rand_int(&r, 1, 70), d = rand_int(&r, 1, 70);
        const float cs = rand_int(&r, 0, 1) ? (float)px_rng_range(&r, 0.05, 2.0) : 0.3f;
        const float ch = (float)px_rng_range(&r, 0.05, 0.5);
        const float o = rand_int(&r, 0, 2) == 0 ? 0.0f : (float)px_rng_range(&r, -5000.0, 5000.0);
        const float height = ch * (float)rand_int(&r, 5, 300);
        const int tile_sizes[4] = { 1, rand_int(&r, 2, 9), 16, 64 };
        /* the border lines of one of the tilings */
        const int border = tile_sizes[rand_int(&r, 0, 3)];
        const int nt = rand_int(&r, 1, 120);
        for (int t = 0; t < nt; ++t)
        {
            const int mode = rand_int(&r, 0, 3);
            for (int k = 0; k < 3; ++k)
            {
                float* p = &v[9 * t + 3 * k];
                if (mode == 0)
                {
                    p[0] = o + (float)px_rng_range(&r, -0.2, 1.2) * (float)w * cs;
                    p[2] = o + (float)px_rng_range(&r, -0.2, 1.2) * (float)d * cs;
                }
                else
                {
                    /* on a tile border (mode 1, 2) or any cell line (mode 3) */
                    const int step = mode == 3 ? 1 : border;
                    p[0] = grid_coord(&r, o, cs, step * rand_int(&r, 0, w / step + 1));
                    p[2] = grid_coord(&r, o, cs, step * rand_int(&r, 0, d / step + 1));
                    if (mode == 2 && k > 0)
                    {
                        /* a small triangle around a border corner */
                        p[0] = v[9 * t] + (float)px_rng_range(&r, -1.5, 1.5) * cs;
                        p[2] = v[9 * t + 2] + (float)px_rng_range(&r, -1.5, 1.5) * cs;
                    }
                }
                p[1] = o + (float)px_rng_range(&r, -0.1, 1.1) * height;
                idx[3 * t + k] = 3 * t + k;
            }
            areas[t] = (uint8_t)rand_int(&r, 0, 63);
        }
        const int thr = rand_int(&r, 0, 3);
        px_heightfield* one = make_field(w, d, cs, ch, o, o, o, height);
        px_mesh* mesh = NULL;
        if (one == NULL || px_mesh_create(v, 3 * nt, idx, nt, NULL, &mesh) != PX_OK ||
            px_heightfield_rasterize_triangles(one, v, 3 * nt, idx, areas, nt, thr) != PX_OK ||
            tiles_against_one_pass(one, mesh, areas, thr, &runners, tile_sizes, 4) != 0)
        {
            fprintf(stderr, "soup %d: %dx%d cs %a ch %a origin %a, %d triangles, borders every %d\n", soup, w, d,
                    (double)cs, (double)ch, (double)o, nt, border);
            result = 1;
        }
        spans += (long)px_heightfield_span_count(one);
        px_mesh_destroy(mesh);
        px_heightfield_destroy(one);
    }
    runners_destroy(&runners);
    PX_CHECK(result == 0);
    PX_CHECK(spans > 10000);
    return 0;
}

/* The shared meshes (RecastDemo's cells, or a few hundred columns across for the others), walkable marked at
 * 45 degrees, threshold 1: tiles of 7, 16 and 64 columns with every runner against one pass. */
static int tiles_shared_meshes(void)
{
    static const struct
    {
        const char* file;
        float cs, ch;
    } cases[] = {
        { "nav_test.obj", 0.3f, 0.2f }, { "dungeon.obj", 0.3f, 0.2f }, { "undulating.obj", 0.3f, 0.2f },
        { "bunny.obj", 0.03f, 0.02f },  { "env.obj", 20.0f, 13.33f },  { "rob.obj", 4.0f, 2.667f },
    };
    tile_runners runners;
    if (runners_create(&runners) != 0)
    {
        return 1;
    }
    const int tile_sizes[3] = { 7, 16, 64 };
    int found = 0;
    int result = 0;
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]) && result == 0; ++c)
    {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", PX_DATA_DIR, cases[c].file);
        px_mesh* mesh = NULL;
        if (px_mesh_load_obj(path, NULL, &mesh) != PX_OK)
        {
            printf("    %s not found in %s (set -DPROXIMA_DATA_DIR=...)\n", cases[c].file, PX_DATA_DIR);
            continue;
        }
        ++found;
        const int nt = px_mesh_triangle_count(mesh);
        uint8_t* areas = calloc((size_t)nt + 1, 1);
        const px_aabb box = px_mesh_bounds(mesh);
        px_heightfield_def def = px_heightfield_default_def();
        for (int k = 0; k < 3; ++k)
        {
            def.bmin[k] = box.min[k];
            def.bmax[k] = box.max[k];
        }
        def.cell_size = cases[c].cs;
        def.cell_height = cases[c].ch;
        px_heightfield* one = NULL;
        if (areas == NULL ||
            px_mark_walkable_triangles(45.0f, px_mesh_vertices(mesh), px_mesh_vertex_count(mesh),
                                       px_mesh_indices(mesh), nt, areas) != PX_OK ||
            px_heightfield_create(&def, &one) != PX_OK ||
            px_heightfield_rasterize_triangles(one, px_mesh_vertices(mesh), px_mesh_vertex_count(mesh),
                                               px_mesh_indices(mesh), areas, nt, 1) != PX_OK ||
            tiles_against_one_pass(one, mesh, areas, 1, &runners, tile_sizes, 3) != 0)
        {
            fprintf(stderr, "%s: tiles differ from one pass\n", cases[c].file);
            result = 1;
        }
        else
        {
            printf("    %-15s %4dx%-4d %8lld spans: tiles equal one pass\n", cases[c].file, px_heightfield_width(one),
                   px_heightfield_depth(one), (long long)px_heightfield_span_count(one));
        }
        px_heightfield_destroy(one);
        free(areas);
        px_mesh_destroy(mesh);
    }
    runners_destroy(&runners);
    PX_CHECK(result == 0);
    if (found == 0)
    {
        printf("    shared meshes not found: %s (set -DPROXIMA_DATA_DIR=...)\n", PX_DATA_DIR);
        return PX_TEST_SKIP;
    }
    return 0;
}

/* test_alloc for allocations from several threads: the counters are atomic. */
typedef struct shared_alloc
{
    atomic_int live;
    atomic_int calls;
    int fail_after;
} shared_alloc;

static void* shared_alloc_fn(size_t size, size_t alignment, void* user)
{
    shared_alloc* a = user;
    if (atomic_fetch_add(&a->calls, 1) >= a->fail_after)
    {
        return NULL;
    }
    atomic_fetch_add(&a->live, 1);
    return aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

static void shared_free_fn(void* p, size_t size, void* user)
{
    (void)size;
    atomic_fetch_sub(&((shared_alloc*)user)->live, 1);
    free(p);
}

/* Empty meshes, bad arguments, and allocation failure at every allocation of a tiled run on 2 threads. */
static int tiles_edge_cases(void)
{
    tile_runners runners;
    if (runners_create(&runners) != 0)
    {
        return 1;
    }
    px_heightfield* hf = make_field(40, 30, 0.5f, 0.25f, 0.0f, 0.0f, 0.0f, 10.0f);
    px_mesh* empty = NULL;
    PX_CHECK(hf != NULL);
    PX_CHECK_STATUS(px_mesh_create(NULL, 0, NULL, 0, NULL, &empty), PX_OK);
    for (int k = 0; k < 4; ++k)
    {
        const px_task_system* tasks = k == 0 ? NULL : &runners.systems[k];
        PX_CHECK_STATUS(px_heightfield_rasterize_mesh(hf, empty, NULL, 1, tasks), PX_OK);
        PX_CHECK_STATUS(pxi_heightfield_rasterize_mesh_tiled(hf, empty, NULL, 1, tasks, 4, 4, NULL), PX_OK);
    }
    PX_CHECK(px_heightfield_span_count(hf) == 0);

    /* a floor and a ramp across the whole field */
    const float v[] = { -1.0f, 1.0f, -1.0f, 21.0f, 1.0f, -1.0f, 21.0f, 1.0f, 16.0f, -1.0f, 1.0f, 16.0f,
                        3.0f,  0.0f, 2.0f,  17.0f, 8.0f, 2.0f,  10.0f, 4.0f, 13.0f };
    const int32_t idx[] = { 0, 1, 2, 0, 2, 3, 4, 5, 6 };
    const uint8_t areas[] = { PX_WALKABLE_AREA, PX_WALKABLE_AREA, 5 };
    px_mesh* mesh = NULL;
    PX_CHECK_STATUS(px_mesh_create(v, 7, idx, 3, NULL, &mesh), PX_OK);
    PX_CHECK_STATUS(px_heightfield_rasterize_mesh(NULL, mesh, areas, 1, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_mesh(hf, NULL, areas, 1, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_mesh(hf, mesh, NULL, 1, &runners.systems[2]), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_heightfield_rasterize_mesh(hf, mesh, areas, -1, &runners.systems[2]),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(pxi_heightfield_rasterize_mesh_tiled(hf, mesh, areas, 1, NULL, 0, 4, NULL),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(pxi_heightfield_rasterize_mesh_tiled(hf, mesh, areas, 1, NULL, 4, 0, NULL),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(px_heightfield_span_count(hf) == 0);
    PX_CHECK_STATUS(px_heightfield_rasterize_triangles(hf, v, 7, idx, areas, 3, 1), PX_OK);
    PX_CHECK(px_heightfield_span_count(hf) > 1200);

    /* every allocation of a tiled run failing in turn: a status, a valid field, nothing leaked; once enough
     * succeed, the spans of one pass */
    int reached_ok = 0;
    for (int fail_after = 0; fail_after < 64 && !reached_ok; ++fail_after)
    {
        shared_alloc ta;
        atomic_init(&ta.live, 0);
        atomic_init(&ta.calls, 0);
        ta.fail_after = INT32_MAX;
        px_heightfield_def def = px_heightfield_get_def(hf);
        def.allocator.alloc = shared_alloc_fn;
        def.allocator.free = shared_free_fn;
        def.allocator.user = &ta;
        px_heightfield* t = NULL;
        PX_CHECK_STATUS(px_heightfield_create(&def, &t), PX_OK);
        ta.fail_after = atomic_load(&ta.calls) + fail_after;
        const px_status s =
            pxi_heightfield_rasterize_mesh_tiled(t, mesh, areas, 1, &runners.systems[2], 4, 4, NULL);
        PX_CHECK(s == PX_OK || s == PX_ERR_OUT_OF_MEMORY);
        if (field_valid(t) != 0)
        {
            return 1;
        }
        if (s == PX_OK)
        {
            PX_CHECK(fields_equal_any(hf, t) == 0);
            reached_ok = 1;
        }
        px_heightfield_destroy(t);
        PX_CHECK(atomic_load(&ta.live) == 0);
    }
    PX_CHECK(reached_ok);
    px_mesh_destroy(mesh);
    px_mesh_destroy(empty);
    px_heightfield_destroy(hf);
    runners_destroy(&runners);
    return 0;
}

int test_heightfield(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(create_validation);
    PX_RUN_SUBTEST(too_large_and_out_of_memory);
    PX_RUN_SUBTEST(allocation_failure_in_rasterization);
    PX_RUN_SUBTEST(add_span_out_of_memory_keeps_column);
    PX_RUN_SUBTEST(add_span_random);
    PX_RUN_SUBTEST(slope_ties);
    PX_RUN_SUBTEST(rasterize_known_cases);
    PX_RUN_SUBTEST(rasterize_bad_input);
    PX_RUN_SUBTEST(rasterize_huge_coordinates);
    PX_RUN_SUBTEST(fast_vs_reference_and_tiles);
    PX_RUN_SUBTEST(filters_known_cases);
    PX_RUN_SUBTEST(tiles_random_soups);
    PX_RUN_SUBTEST(tiles_shared_meshes);
    PX_RUN_SUBTEST(tiles_edge_cases);
    PX_SUITE_END;
}
