/* Building a mesh's BVH: a binary tree by binned SAH (Wald 2007), collapsed into 8-wide nodes.
 *
 * The binary build works on an array of triangle references, partitioned in place, with an explicit stack
 * of ranges. Each range is binned along the three axes of its centroids' bounds; the split between bins with
 * the lowest surface-area cost wins, unless a leaf is cheaper (and the range fits in one). Ranges whose
 * centroids coincide, splits that leave a side empty and ranges deeper than PXI_MESH_SAH_DEPTH are split at
 * the median instead, so the build always terminates with bounded depth, whatever the input.
 *
 * The collapse turns every binary inner node into an 8-wide node by opening its largest inner descendants
 * until it has eight children or only leaves. The result is deterministic: no threads, no hashing. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mesh_internal.h"
#include "../core/task_internal.h"
#include "../geometry/ray_triangle_internal.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define BUILD_SSE 1
#else
#define BUILD_SSE 0
#endif

#define MAX_BINS 64
#define TRAVERSAL_COST 1.0f
#define TRIANGLE_COST 1.0f

/* Four floats (x, y, z, unused): SSE registers where available, the same arithmetic lane by lane elsewhere. */
#if BUILD_SSE
typedef __m128 f4;
static inline f4 f4_min(f4 a, f4 b) { return _mm_min_ps(a, b); }
static inline f4 f4_max(f4 a, f4 b) { return _mm_max_ps(a, b); }
static inline f4 f4_add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 f4_set1(float x) { return _mm_set1_ps(x); }
static inline f4 f4_load(const float* p) { return _mm_load_ps(p); }
static inline void f4_store(float* p, f4 a) { _mm_store_ps(p, a); }
#else
typedef struct f4
{
    float v[4];
} f4;
static inline f4 f4_min(f4 a, f4 b)
{
    for (int i = 0; i < 4; ++i)
    {
        a.v[i] = b.v[i] < a.v[i] ? b.v[i] : a.v[i];
    }
    return a;
}
static inline f4 f4_max(f4 a, f4 b)
{
    for (int i = 0; i < 4; ++i)
    {
        a.v[i] = b.v[i] > a.v[i] ? b.v[i] : a.v[i];
    }
    return a;
}
static inline f4 f4_add(f4 a, f4 b)
{
    for (int i = 0; i < 4; ++i)
    {
        a.v[i] += b.v[i];
    }
    return a;
}
static inline f4 f4_sub(f4 a, f4 b)
{
    for (int i = 0; i < 4; ++i)
    {
        a.v[i] -= b.v[i];
    }
    return a;
}
static inline f4 f4_mul(f4 a, f4 b)
{
    for (int i = 0; i < 4; ++i)
    {
        a.v[i] *= b.v[i];
    }
    return a;
}
static inline f4 f4_set1(float x)
{
    f4 a = { { x, x, x, x } };
    return a;
}
static inline f4 f4_load(const float* p)
{
    f4 a = { { p[0], p[1], p[2], p[3] } };
    return a;
}
static inline void f4_store(float* p, f4 a)
{
    memcpy(p, a.v, sizeof(a.v));
}
#endif

/* A box as two f4 (lane 3 unused, kept at 0 so it never holds a NaN or a denormal). */
typedef struct box4
{
    f4 lo, hi;
} box4;

typedef struct box3
{
    float lo[3], hi[3];
} box3;

/* A triangle's box, 32-byte records that the partition moves around with their index in refs. */
typedef struct prim
{
    _Alignas(16) float lo[4];
    float hi[4];
} prim;

typedef struct bnode
{
    box3 box;
    int32_t left; /* -1 for a leaf */
    int32_t right;
    int32_t first, count; /* leaf range */
} bnode;

typedef struct range_task
{
    int32_t node;
    int32_t begin, end;
    int32_t depth;
    box3 box;  /* bounds of the triangles */
    box3 cbox; /* bounds of their centroids */
} range_task;

typedef struct builder
{
    prim* prims;    /* per reference, partitioned */
    int32_t* refs;  /* triangle index of each prim */
    bnode* bnodes;  /* node slots (see pxi_mesh_build) */
    int leaf_max;
    int bins;
} builder;

/* Leaves are tested four triangles at a time (one packet), so the cost of n triangles is that of their packets. */
static inline double blocks(int32_t n)
{
    return (double)((n + 3) / 4);
}

typedef struct bin
{
    box4 box;
    int32_t count;
} bin;

static inline box4 box4_empty(void)
{
    box4 b = { f4_set1(FLT_MAX), f4_set1(-FLT_MAX) };
    return b;
}

static inline void box4_grow(box4* b, f4 lo, f4 hi)
{
    b->lo = f4_min(b->lo, lo);
    b->hi = f4_max(b->hi, hi);
}

static void box4_to3(box4 b, box3* out)
{
    _Alignas(16) float lo[4], hi[4];
    f4_store(lo, b.lo);
    f4_store(hi, b.hi);
    for (int k = 0; k < 3; ++k)
    {
        out->lo[k] = lo[k];
        out->hi[k] = hi[k];
    }
}

/* Half the surface area (the factor 2 cancels in every ratio); 0 for an empty box. Computed in double: a
 * sum of products of extents up to 2^128 would overflow float. */
static double box_half_area(const box3* b)
{
    double dx = (double)b->hi[0] - (double)b->lo[0];
    double dy = (double)b->hi[1] - (double)b->lo[1];
    double dz = (double)b->hi[2] - (double)b->lo[2];
    if (!(dx >= 0.0) || !(dy >= 0.0) || !(dz >= 0.0))
    {
        return 0.0;
    }
    return dx * dy + dy * dz + dz * dx;
}

static double box4_half_area(box4 b)
{
    _Alignas(16) float d[4];
    f4_store(d, f4_sub(b.hi, b.lo));
    double dx = d[0], dy = d[1], dz = d[2];
    if (!(dx >= 0.0) || !(dy >= 0.0) || !(dz >= 0.0))
    {
        return 0.0;
    }
    return dx * dy + dy * dz + dz * dx;
}

static inline f4 prim_centroid(const prim* p)
{
    /* halves first, so that huge coordinates cannot overflow */
    f4 half = f4_set1(0.5f);
    return f4_add(f4_mul(f4_load(p->lo), half), f4_mul(f4_load(p->hi), half));
}

/* Binning of a range: the bin of a centroid c on each axis is (c - lo) * scale, truncated and clamped. The
 * same arithmetic decides the split and the partition, so they always agree. */
typedef struct binning
{
    f4 lo;
    f4 scale; /* 0 on an axis whose centroids coincide */
    int bins;
} binning;

static binning binning_make(const box3* cbox, int bins)
{
    _Alignas(16) float lo[4] = { 0 }, scale[4] = { 0 };
    for (int k = 0; k < 3; ++k)
    {
        double extent = (double)cbox->hi[k] - (double)cbox->lo[k];
        lo[k] = cbox->lo[k];
        scale[k] = extent > 0.0 ? (float)((double)bins / extent * (1.0 - 1e-6)) : 0.0f;
    }
    binning b = { f4_load(lo), f4_load(scale), bins };
    return b;
}

static inline void bin_indices(const binning* b, f4 c, int out[4])
{
    /* x >= 0 up to rounding and < bins + 1: clamped into [0, bins - 1], then truncated */
#if BUILD_SSE
    __m128 x = _mm_mul_ps(_mm_sub_ps(c, b->lo), b->scale);
    x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), _mm_set1_ps((float)(b->bins - 1)));
    _mm_storeu_si128((__m128i*)out, _mm_cvttps_epi32(x));
#else
    _Alignas(16) float x[4];
    f4_store(x, f4_mul(f4_sub(c, b->lo), b->scale));
    for (int k = 0; k < 3; ++k)
    {
        int i = x[k] > 0.0f ? (int)x[k] : 0;
        out[k] = i < b->bins ? i : b->bins - 1;
    }
#endif
}

/* Median split of [begin, end) along axis by centroid (quickselect; the loop shrinks the range each pass). */
static int32_t split_median(builder* b, int32_t begin, int32_t end, int axis)
{
    int32_t mid = begin + (end - begin) / 2;
    int32_t lo = begin, hi = end - 1;
    while (lo < hi)
    {
        _Alignas(16) float c[4];
        f4_store(c, prim_centroid(&b->prims[lo + (hi - lo) / 2]));
        float pivot = c[axis];
        int32_t i = lo, j = hi;
        while (i <= j)
        {
            for (;;)
            {
                f4_store(c, prim_centroid(&b->prims[i]));
                if (!(c[axis] < pivot))
                {
                    break;
                }
                ++i;
            }
            for (;;)
            {
                f4_store(c, prim_centroid(&b->prims[j]));
                if (!(c[axis] > pivot))
                {
                    break;
                }
                --j;
            }
            if (i <= j)
            {
                prim tp = b->prims[i];
                b->prims[i] = b->prims[j];
                b->prims[j] = tp;
                int32_t tr = b->refs[i];
                b->refs[i] = b->refs[j];
                b->refs[j] = tr;
                ++i;
                --j;
            }
        }
        if (mid <= j)
        {
            hi = j;
        }
        else if (mid >= i)
        {
            lo = i;
        }
        else
        {
            break;
        }
    }
    return mid;
}

static void range_bounds(const builder* b, int32_t begin, int32_t end, box3* box, box3* cbox)
{
    box4 bb = box4_empty(), cb = box4_empty();
    for (int32_t i = begin; i < end; ++i)
    {
        const prim* p = &b->prims[i];
        f4 c = prim_centroid(p);
        box4_grow(&bb, f4_load(p->lo), f4_load(p->hi));
        box4_grow(&cb, c, c);
    }
    box4_to3(bb, box);
    box4_to3(cb, cbox);
}

/* Choose the split of a range: returns the axis (-1: make a leaf, -2: median split) and the first bin of
 * the right side. */
static int choose_split(const builder* b, const range_task* task, const binning* bn, int* split_bin)
{
    int32_t count = task->end - task->begin;
    int bins = bn->bins;
    bin grid[3][MAX_BINS];
    for (int axis = 0; axis < 3; ++axis)
    {
        for (int i = 0; i < bins; ++i)
        {
            grid[axis][i].box = box4_empty();
            grid[axis][i].count = 0;
        }
    }
    for (int32_t i = task->begin; i < task->end; ++i)
    {
        const prim* p = &b->prims[i];
        f4 lo = f4_load(p->lo), hi = f4_load(p->hi);
        int k[4];
        bin_indices(bn, prim_centroid(p), k);
        for (int axis = 0; axis < 3; ++axis)
        {
            bin* g = &grid[axis][k[axis]];
            box4_grow(&g->box, lo, hi);
            g->count++;
        }
    }

    double leaf_cost = (double)TRIANGLE_COST * blocks(count);
    double best_cost = INFINITY;
    int best_axis = -2;
    for (int axis = 0; axis < 3; ++axis)
    {
        if (!(task->cbox.hi[axis] > task->cbox.lo[axis]))
        {
            continue;
        }
        /* right-to-left sweep: area and count of bins [i, bins) */
        double right_area[MAX_BINS];
        int32_t right_count[MAX_BINS];
        box4 acc = box4_empty();
        int32_t n = 0;
        for (int i = bins - 1; i > 0; --i)
        {
            box4_grow(&acc, grid[axis][i].box.lo, grid[axis][i].box.hi);
            n += grid[axis][i].count;
            right_area[i] = n > 0 ? box4_half_area(acc) : 0.0;
            right_count[i] = n;
        }
        acc = box4_empty();
        n = 0;
        for (int i = 1; i < bins; ++i)
        {
            box4_grow(&acc, grid[axis][i - 1].box.lo, grid[axis][i - 1].box.hi);
            n += grid[axis][i - 1].count;
            if (n == 0 || right_count[i] == 0)
            {
                continue;
            }
            double cost = box4_half_area(acc) * blocks(n) + right_area[i] * blocks(right_count[i]);
            if (cost < best_cost)
            {
                best_cost = cost;
                best_axis = axis;
                *split_bin = i;
            }
        }
    }
    if (best_axis >= 0)
    {
        double parent_area = box_half_area(&task->box);
        double split_cost = parent_area > 0.0 ? TRAVERSAL_COST + TRIANGLE_COST * best_cost / parent_area
                                              : TRAVERSAL_COST + leaf_cost;
        if (count <= b->leaf_max && leaf_cost <= split_cost)
        {
            return -1;
        }
        return best_axis;
    }
    return count <= b->leaf_max ? -1 : -2;
}

static int32_t new_bnode(builder* b, int32_t* counter)
{
    int32_t i = (*counter)++;
    b->bnodes[i].left = -1;
    b->bnodes[i].right = -1;
    b->bnodes[i].first = 0;
    b->bnodes[i].count = 0;
    return i;
}

/* Partition [begin, end) by the bin on axis (left: bins below split_bin), computing both sides' bounds. */
static int32_t partition(builder* b, const range_task* task, const binning* bn, int axis, int split_bin,
                         range_task* left, range_task* right)
{
    box4 lb = box4_empty(), lc = box4_empty(), rb = box4_empty(), rc = box4_empty();
    int32_t i = task->begin, j = task->end - 1;
    while (i <= j)
    {
        prim* p = &b->prims[i];
        f4 lo = f4_load(p->lo), hi = f4_load(p->hi);
        f4 c = prim_centroid(p);
        int k[4];
        bin_indices(bn, c, k);
        if (k[axis] < split_bin)
        {
            box4_grow(&lb, lo, hi);
            box4_grow(&lc, c, c);
            ++i;
        }
        else
        {
            box4_grow(&rb, lo, hi);
            box4_grow(&rc, c, c);
            prim tp = *p;
            *p = b->prims[j];
            b->prims[j] = tp;
            int32_t tr = b->refs[i];
            b->refs[i] = b->refs[j];
            b->refs[j] = tr;
            --j;
        }
    }
    box4_to3(lb, &left->box);
    box4_to3(lc, &left->cbox);
    box4_to3(rb, &right->box);
    box4_to3(rc, &right->cbox);
    return i;
}

/* Ranges the serial top of a threaded build leaves for the tasks. */
typedef struct deferral
{
    range_task* ranges;
    int count;
    int capacity;
    int32_t max_count; /* ranges of at most this many triangles ... */
    int32_t min_count; /* ... and at least this many are deferred */
} deferral;

/* Build the binary subtree of root (whose node exists) depth first, taking node slots from *counter on and
 * counting leaf packets into *packets. With a deferral, ranges in its size window are set aside instead. */
static void build_range(builder* b, range_task root, int32_t* counter, int32_t* packets, deferral* d)
{
    /* explicit stack, depth first: at most one pending sibling per level */
    range_task stack[PXI_MESH_MAX_DEPTH + 4];
    int top = 0;
    stack[top++] = root;
    while (top > 0)
    {
        range_task task = stack[--top];
        bnode* node = &b->bnodes[task.node];
        node->box = task.box;
        int32_t count = task.end - task.begin;
        if (d != NULL && count <= d->max_count && count >= d->min_count && d->count < d->capacity)
        {
            d->ranges[d->count++] = task;
            continue;
        }
        int split_bin = 0;
        int axis = count <= 1 ? -1 : -2;
        /* small ranges get fewer bins: the sweeps over the bins would otherwise cost more than the binning */
        int bins = count / 2 < b->bins ? (count / 2 > 4 ? count / 2 : 4) : b->bins;
        binning bn = binning_make(&task.cbox, bins);
        if (count <= 4 && count <= b->leaf_max)
        {
            /* one packet: no split can be cheaper than the leaf (a split costs a traversal step plus at least
             * one packet on each side, weighted by areas that sum to at least the parent's) */
            axis = -1;
        }
        else if (count > 1 && task.depth < PXI_MESH_SAH_DEPTH)
        {
            axis = choose_split(b, &task, &bn, &split_bin);
        }
        else if (count <= b->leaf_max)
        {
            axis = -1;
        }
        if (axis == -1)
        {
            node->first = task.begin;
            node->count = count;
            *packets += (count + 3) / 4;
            continue;
        }
        range_task left = task, right = task;
        left.depth = right.depth = task.depth + 1;
        int32_t mid = task.begin;
        if (axis >= 0)
        {
            mid = partition(b, &task, &bn, axis, split_bin, &left, &right);
        }
        if (mid <= task.begin || mid >= task.end)
        {
            /* median along the longest centroid axis; when every centroid coincides, any half will do */
            int longest = 0;
            for (int k = 1; k < 3; ++k)
            {
                if (task.cbox.hi[k] - task.cbox.lo[k] > task.cbox.hi[longest] - task.cbox.lo[longest])
                {
                    longest = k;
                }
            }
            mid = split_median(b, task.begin, task.end, longest);
            range_bounds(b, task.begin, mid, &left.box, &left.cbox);
            range_bounds(b, mid, task.end, &right.box, &right.cbox);
        }
        left.end = mid;
        right.begin = mid;
        left.node = new_bnode(b, counter);
        right.node = new_bnode(b, counter);
        node->left = left.node;
        node->right = right.node;
        /* right first, so the left subtree is built (and numbered) first */
        stack[top++] = right;
        stack[top++] = left;
    }
}

/* A deferred range builds in the node slots [base + 2 begin, base + 2 end): ranges are disjoint, and a
 * binary tree over m triangles has at most 2 m - 1 nodes, so the regions are too. */
typedef struct subtree_job
{
    builder* b;
    const deferral* d;
    int32_t base;
    int32_t* used;    /* [d->count] node slots used */
    int32_t* packets; /* [d->count] leaf packets */
} subtree_job;

static void build_subtrees(int begin, int end, int worker, void* context)
{
    (void)worker;
    subtree_job* job = context;
    for (int i = begin; i < end; ++i)
    {
        const range_task* r = &job->d->ranges[i];
        int32_t start = job->base + 2 * r->begin;
        int32_t counter = start;
        job->packets[i] = 0;
        build_range(job->b, *r, &counter, &job->packets[i], NULL);
        job->used[i] = counter - start;
    }
}

/* A node with every lane unused: inverted boxes, no links. */
static void node_clear(pxi_mesh_node* node)
{
    memset(node, 0, sizeof(*node));
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        for (int k = 0; k < 3; ++k)
        {
            node->bmin[k][lane] = INFINITY;
            node->bmax[k][lane] = -INFINITY;
        }
        node->link[lane] = PXI_MESH_EMPTY;
    }
}

static void lane_set(pxi_mesh_node* node, int lane, const box3* box)
{
    for (int k = 0; k < 3; ++k)
    {
        node->bmin[k][lane] = box->lo[k];
        node->bmax[k][lane] = box->hi[k];
    }
}

typedef struct collapse_state
{
    const builder* b;
    px_mesh* mesh;        /* packets are written here */
    pxi_mesh_node* nodes; /* the scratch node array */
    int32_t node_count;
    int32_t leaf_count;
    int32_t packet_count;
    int depth;
    double cost; /* sum of area-weighted costs */
} collapse_state;

/* Lane `lane` of node becomes the leaf of binary node c: its triangles go to the next packets. */
static void emit_leaf(collapse_state* s, pxi_mesh_node* node, int lane, const bnode* c)
{
    px_mesh* mesh = s->mesh;
    node->link[lane] = pxi_mesh_leaf_link(s->packet_count, c->count);
    for (int32_t i = 0; i < c->count; i += 4)
    {
        pxi_mesh_packet* p = &mesh->packets[s->packet_count++];
        memset(p, 0, sizeof(*p));
        for (int lane_t = 0; lane_t < 4; ++lane_t)
        {
            int32_t r = c->first + i + lane_t;
            if (i + lane_t >= c->count)
            {
                p->index[lane_t] = PX_NULL_INDEX;
                continue;
            }
            int32_t t = s->b->refs[r];
            p->index[lane_t] = t;
            const float* v[3];
            for (int corner = 0; corner < 3; ++corner)
            {
                v[corner] = &mesh->vertices[3 * mesh->indices[3 * t + corner]];
                for (int k = 0; k < 3; ++k)
                {
                    p->v[corner][k][lane_t] = v[corner][k];
                }
            }
            if (!pxi_triangle_collinear(v[0], v[1], v[2]))
            {
                p->ray_lanes |= 1u << lane_t;
            }
        }
    }
    s->leaf_count++;
    s->cost += TRIANGLE_COST * blocks(c->count) * box_half_area(&c->box);
}

/* Wide node for binary inner node bi at depth; returns its index. Recursion depth is bounded by the tree
 * depth (PXI_MESH_MAX_DEPTH). */
static int32_t collapse(collapse_state* s, int32_t bi, int depth)
{
    const bnode* bn = s->b->bnodes;
    int32_t kids[PXI_MESH_WIDTH] = { bn[bi].left, bn[bi].right };
    int nk = 2;
    while (nk < PXI_MESH_WIDTH)
    {
        int pick = -1;
        double best = -1.0;
        for (int i = 0; i < nk; ++i)
        {
            if (bn[kids[i]].left >= 0)
            {
                double a = box_half_area(&bn[kids[i]].box);
                if (a > best)
                {
                    best = a;
                    pick = i;
                }
            }
        }
        if (pick < 0)
        {
            break;
        }
        int32_t open = kids[pick];
        kids[pick] = bn[open].left;
        kids[nk++] = bn[open].right;
    }
    int32_t index = s->node_count++;
    if (depth > s->depth)
    {
        s->depth = depth;
    }
    pxi_mesh_node* node = &s->nodes[index];
    node_clear(node);
    s->cost += TRAVERSAL_COST * box_half_area(&bn[bi].box);
    node->lanes = (1u << nk) - 1u;
    for (int i = 0; i < nk; ++i)
    {
        const bnode* c = &bn[kids[i]];
        lane_set(node, i, &c->box);
        if (c->left < 0)
        {
            emit_leaf(s, node, i, c);
        }
    }
    for (int i = 0; i < nk; ++i)
    {
        if (bn[kids[i]].left >= 0)
        {
            int32_t child = collapse(s, kids[i], depth + 1);
            s->nodes[index].link[i] = child;
        }
    }
    return index;
}

px_status pxi_mesh_build(px_mesh* mesh, int leaf_triangles, int sah_bins, const px_task_system* tasks)
{
    int32_t n = mesh->triangle_count;
    const px_allocator* alloc = &mesh->allocator;
    mesh->nodes = NULL;
    mesh->node_count = 0;
    mesh->packets = NULL;
    mesh->packet_count = 0;
    mesh->bounds.min[0] = INFINITY;
    mesh->bounds.min[1] = INFINITY;
    mesh->bounds.min[2] = INFINITY;
    mesh->bounds.max[0] = -INFINITY;
    mesh->bounds.max[1] = -INFINITY;
    mesh->bounds.max[2] = -INFINITY;

    size_t nn = (size_t)(n > 0 ? n : 1);
    builder b = { NULL, NULL, NULL, leaf_triangles, sah_bins };

    /* A threaded build splits serially until ranges have at most max_count triangles, then builds those
     * subtrees as tasks. The top can split at most n / max_count ranges per level, so it makes fewer than
     * top_cap nodes and defers fewer than top_cap ranges; subtree j then owns the node slots
     * [top_cap + 2 begin_j, top_cap + 2 end_j). The tree is the same whatever the threads. */
    int workers = pxi_task_worker_count(tasks);
    bool threaded = workers > 1 && n >= 16384;
    deferral d = { NULL, 0, 0, 0, 0 };
    size_t top_cap = 0;
    if (threaded)
    {
        d.max_count = n / (4 * workers) > 1024 ? n / (4 * workers) : 1024;
        d.min_count = 1;
        top_cap = 2 * (size_t)PXI_MESH_MAX_DEPTH * ((size_t)(n / d.max_count) + 1) + 2;
        d.capacity = (int)top_cap;
        d.ranges = pxi_alloc(alloc, top_cap * sizeof(range_task));
    }
    size_t bnode_slots = top_cap + 2 * nn;
    b.prims = pxi_alloc(alloc, nn * sizeof(prim));
    b.refs = pxi_alloc(alloc, nn * sizeof(int32_t));
    b.bnodes = pxi_alloc(alloc, bnode_slots * sizeof(bnode));
    int32_t* sub_used = NULL;
    int32_t* sub_packets = NULL;
    pxi_mesh_node* scratch = NULL; /* wide nodes before the exact-size copy */
    size_t scratch_count = 0;
    px_status status = PX_OK;
    if (b.prims == NULL || b.refs == NULL || b.bnodes == NULL || (threaded && d.ranges == NULL))
    {
        status = PX_ERR_OUT_OF_MEMORY;
        goto done;
    }

    for (int32_t t = 0; t < n; ++t)
    {
        const float* v0 = &mesh->vertices[3 * mesh->indices[3 * t]];
        const float* v1 = &mesh->vertices[3 * mesh->indices[3 * t + 1]];
        const float* v2 = &mesh->vertices[3 * mesh->indices[3 * t + 2]];
        prim* p = &b.prims[t];
        for (int k = 0; k < 3; ++k)
        {
            float lo = v0[k] < v1[k] ? v0[k] : v1[k];
            float hi = v0[k] > v1[k] ? v0[k] : v1[k];
            p->lo[k] = v2[k] < lo ? v2[k] : lo;
            p->hi[k] = v2[k] > hi ? v2[k] : hi;
        }
        p->lo[3] = 0.0f;
        p->hi[3] = 0.0f;
        b.refs[t] = t;
    }

    mesh->node_count = 0;
    mesh->leaf_count = 0;
    mesh->depth = 0;
    mesh->sah_cost = 0.0f;
    if (n == 0)
    {
        goto done;
    }
    range_task whole;
    memset(&whole, 0, sizeof(whole));
    int32_t used = 0;
    int32_t packets = 0;
    whole.node = new_bnode(&b, &used);
    whole.end = n;
    range_bounds(&b, 0, n, &whole.box, &whole.cbox);
    build_range(&b, whole, &used, &packets, threaded ? &d : NULL);
    if (d.count > 0)
    {
        sub_used = pxi_alloc(alloc, (size_t)d.count * sizeof(int32_t));
        sub_packets = pxi_alloc(alloc, (size_t)d.count * sizeof(int32_t));
        if (sub_used == NULL || sub_packets == NULL)
        {
            status = PX_ERR_OUT_OF_MEMORY;
            goto done;
        }
        subtree_job job = { &b, &d, (int32_t)top_cap, sub_used, sub_packets };
        pxi_run_tasks(tasks, build_subtrees, d.count, 1, &job);
        for (int i = 0; i < d.count; ++i)
        {
            used += sub_used[i];
            packets += sub_packets[i];
        }
    }
    /* at most one wide node per binary inner node, and one for a lone leaf */
    scratch_count = (size_t)(used - 1) / 2 + 1;
    scratch = pxi_alloc(alloc, scratch_count * sizeof(pxi_mesh_node));
    if (scratch == NULL)
    {
        status = PX_ERR_OUT_OF_MEMORY;
        goto done;
    }
    mesh->packets = pxi_alloc_aligned(alloc, (size_t)packets * sizeof(pxi_mesh_packet), PXI_MESH_NODE_ALIGNMENT);
    if (mesh->packets == NULL)
    {
        status = PX_ERR_OUT_OF_MEMORY;
        goto done;
    }
    mesh->packet_count = packets;
    const bnode* root = &b.bnodes[0];
    for (int k = 0; k < 3; ++k)
    {
        mesh->bounds.min[k] = root->box.lo[k];
        mesh->bounds.max[k] = root->box.hi[k];
    }

    collapse_state s = { &b, mesh, scratch, 0, 0, 0, 0, 0.0 };
    if (root->left < 0)
    {
        /* a single leaf: one node with one used lane */
        pxi_mesh_node* node = &scratch[0];
        node_clear(node);
        lane_set(node, 0, &root->box);
        node->lanes = 1u;
        s.node_count = 1;
        s.depth = 1;
        s.cost = TRAVERSAL_COST * box_half_area(&root->box);
        emit_leaf(&s, node, 0, root);
    }
    else
    {
        collapse(&s, 0, 1);
    }
    mesh->nodes = pxi_alloc_aligned(alloc, (size_t)s.node_count * sizeof(pxi_mesh_node), PXI_MESH_NODE_ALIGNMENT);
    mesh->node_count = mesh->nodes != NULL ? s.node_count : 0;
    if (mesh->nodes == NULL)
    {
        status = PX_ERR_OUT_OF_MEMORY;
        goto done;
    }
    memcpy(mesh->nodes, scratch, (size_t)s.node_count * sizeof(pxi_mesh_node));
    mesh->leaf_count = s.leaf_count;
    mesh->depth = s.depth;
    double root_area = box_half_area(&root->box);
    mesh->sah_cost = root_area > 0.0 ? (float)(s.cost / root_area) : 0.0f;

done:
    pxi_free(alloc, scratch, scratch_count * sizeof(pxi_mesh_node));
    pxi_free(alloc, b.prims, nn * sizeof(prim));
    pxi_free(alloc, b.refs, nn * sizeof(int32_t));
    pxi_free(alloc, b.bnodes, bnode_slots * sizeof(bnode));
    pxi_free(alloc, d.ranges, top_cap * sizeof(range_task));
    pxi_free(alloc, sub_used, (size_t)d.count * sizeof(int32_t));
    pxi_free(alloc, sub_packets, (size_t)d.count * sizeof(int32_t));
    if (status != PX_OK)
    {
        pxi_mesh_free_tree(mesh);
    }
    return status;
}

void pxi_mesh_free_tree(px_mesh* mesh)
{
    pxi_free(&mesh->allocator, mesh->nodes, (size_t)mesh->node_count * sizeof(pxi_mesh_node));
    pxi_free(&mesh->allocator, mesh->packets, (size_t)mesh->packet_count * sizeof(pxi_mesh_packet));
    mesh->nodes = NULL;
    mesh->node_count = 0;
    mesh->packets = NULL;
    mesh->packet_count = 0;
}
