/* The dynamic AABB tree of moving proxies (see dynamic_tree.h for the contract).
 *
 * Layout: one pool of nodes. A node is free (height < 0, linked through `parent` into the free list), a leaf
 * (child1 == child2 == PX_NULL_INDEX; its index is the proxy id) or an inner node with exactly two children
 * whose box is the union of theirs. Leaves have height 0.
 *
 * Insertion picks the sibling greedily from the root down (the surface-area heuristic of Goldsmith and Salmon,
 * as popularised for broadphases by Catto): at each inner node it compares pairing the new leaf with the node
 * itself against descending into either child, where descending pays for every ancestor box that grows.
 * After the new inner node is linked, the path up is refitted and each node on it is rebalanced by a single
 * rotation when one subtree is more than one level taller than the other (the AVL condition), which keeps the
 * height logarithmic whatever the order of the boxes. The refit stops at the first ancestor whose box and
 * height come out unchanged: nothing above it can change. A new proxy's path also gets surface-area rotations
 * (swapping a child with a grandchild when that shrinks the grandchild's parent and keeps both nodes within
 * the AVL condition), so that a tree grown by creations alone ends with a smaller total area (a third smaller on
 * 10k random boxes); reinsertions of moved proxies skip them, as they cost more than the queries they save.
 *
 * Memory: the pool is split in a hot array, what traversals read (the box and the two child links: 32 bytes,
 * two nodes per cache line, never straddling one), and a cold array (parent, height, user data, move slot)
 * that only insertion, removal and the accessors touch; a third array is the move buffer, the ids of the
 * marked proxies, so that update_pairs visits only them. The three share one allocation, grown by doubling,
 * so a move never allocates.
 *
 * Box and ray queries use the parent links instead of a stack (down the first child, then across to the
 * second, then up), so they allocate nothing and have no depth limit. update_pairs, the hot path of a world,
 * queries the tree once per marked proxy with an explicit stack (sized by the root's height, kept by the tree),
 * testing a node's two children with SSE where available, and sorts its pairs by a radix sort on the 64-bit
 * (low, high) keys. (Colliding the tree with itself instead, restricted to subtrees holding a marked leaf, was
 * measured about three times slower on 10k boxes: the inner boxes overlap too much.) */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/dynamic_tree.h"

#include "../core/core_internal.h"
#include "../core/task_internal.h"
#include "dynamic_tree_internal.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define TREE_SSE 1
#else
#define TREE_SSE 0
#endif

#define TREE_COOKIE 0x44545245 /* "DTRE" */
#define TREE_MAX_NODES (1 << 29)

/* Hot part of a node: what the traversals read. The box comes first so that two 4-float loads at floats 0 and
 * 2 hold (min, max.x) and (min.z, max): the SSE box test reads only floats (see query_box). */
typedef struct tree_node
{
    px_aabb aabb;   /* fat box for leaves, union of the children for inner nodes */
    int32_t child1; /* PX_NULL_INDEX for leaves and free nodes */
    int32_t child2;
} tree_node;

_Static_assert(sizeof(tree_node) == 32, "two nodes per cache line");

/* Cold part of a node. */
typedef struct tree_info
{
    void* user_data;   /* leaves only */
    int32_t parent;    /* PX_NULL_INDEX at the root; for free nodes, the next free node */
    int32_t height;    /* 0 for leaves, -1 for free nodes */
    int32_t move_slot; /* leaves marked as moved: their index in the move buffer; else PX_NULL_INDEX */
} tree_info;

struct px_dynamic_tree
{
    px_allocator allocator;
    void* pool;        /* one block: nodes, then infos, then moves (capacity entries each) */
    tree_node* nodes;
    tree_info* infos;
    int32_t* moves;    /* the marked proxies, in no order; move_count of them */
    int32_t move_count;
    int32_t capacity;
    int32_t free_list;
    int32_t root;
    int32_t proxy_count;
    int32_t node_count; /* nodes in use: leaves and inner nodes */
    float margin;
    float displacement_scale;
    uint64_t* pairs;   /* update_pairs buffer: (low id << 32) | high id, then as much again for the sort */
    int32_t pair_capacity;
    int32_t* stack;    /* update_pairs traversal stack */
    int32_t stack_capacity;
};

static size_t pool_bytes(int64_t capacity)
{
    return (size_t)capacity * (sizeof(tree_node) + sizeof(tree_info) + sizeof(int32_t));
}

/* ------------------------------------------------------------------------------------------------------ */
/* Boxes                                                                                                   */

static inline float box_area(const px_aabb* b)
{
    float dx = b->max[0] - b->min[0], dy = b->max[1] - b->min[1], dz = b->max[2] - b->min[2];
    return 2.0f * (dx * dy + dy * dz + dz * dx);
}

static inline void box_union(const px_aabb* a, const px_aabb* b, px_aabb* dest)
{
    for (int i = 0; i < 3; ++i)
    {
        dest->min[i] = a->min[i] < b->min[i] ? a->min[i] : b->min[i];
        dest->max[i] = a->max[i] > b->max[i] ? a->max[i] : b->max[i];
    }
}

static inline float union_area(const px_aabb* a, const px_aabb* b)
{
    px_aabb u;
    box_union(a, b, &u);
    return box_area(&u);
}

static inline bool box_overlap(const px_aabb* a, const px_aabb* b)
{
    return a->min[0] <= b->max[0] && b->min[0] <= a->max[0] && a->min[1] <= b->max[1] && b->min[1] <= a->max[1] &&
           a->min[2] <= b->max[2] && b->min[2] <= a->max[2];
}

static inline bool box_contains(const px_aabb* outer, const px_aabb* inner)
{
    return outer->min[0] <= inner->min[0] && outer->min[1] <= inner->min[1] && outer->min[2] <= inner->min[2] &&
           inner->max[0] <= outer->max[0] && inner->max[1] <= outer->max[1] && inner->max[2] <= outer->max[2];
}

static inline bool box_equal(const px_aabb* a, const px_aabb* b)
{
    return box_contains(a, b) && box_contains(b, a);
}

/* A proxy's box: finite and not inverted. */
static px_status check_proxy_box(const px_aabb* b)
{
    for (int i = 0; i < 3; ++i)
    {
        if (!isfinite(b->min[i]) || !isfinite(b->max[i]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    for (int i = 0; i < 3; ++i)
    {
        if (b->min[i] > b->max[i])
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    return PX_OK;
}

/* The fat box of a tight box: grown by the margin, then stretched by scale * d on the side d points to. */
static px_status make_fat_box(const px_dynamic_tree* t, const px_aabb* tight, const float* d, px_aabb* fat)
{
    for (int i = 0; i < 3; ++i)
    {
        fat->min[i] = tight->min[i] - t->margin;
        fat->max[i] = tight->max[i] + t->margin;
        if (d != NULL)
        {
            float s = t->displacement_scale * d[i];
            if (s < 0.0f)
            {
                fat->min[i] += s;
            }
            else
            {
                fat->max[i] += s;
            }
        }
        if (!isfinite(fat->min[i]) || !isfinite(fat->max[i]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    return PX_OK;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Node pool                                                                                               */

static void clear_node(px_dynamic_tree* t, int32_t i, int32_t height)
{
    memset(&t->nodes[i], 0, sizeof(tree_node));
    t->nodes[i].child1 = PX_NULL_INDEX;
    t->nodes[i].child2 = PX_NULL_INDEX;
    memset(&t->infos[i], 0, sizeof(tree_info));
    t->infos[i].parent = PX_NULL_INDEX;
    t->infos[i].height = height;
    t->infos[i].move_slot = PX_NULL_INDEX;
}

static void link_free_range(px_dynamic_tree* t, int32_t first, int32_t end)
{
    for (int32_t i = end - 1; i >= first; --i)
    {
        clear_node(t, i, -1);
        t->infos[i].parent = t->free_list;
        t->free_list = i;
    }
}

/* Point nodes, infos and moves into a pool block of the given capacity. */
static void carve_pool(px_dynamic_tree* t, void* pool, int32_t capacity)
{
    char* base = pool;
    t->pool = pool;
    t->nodes = (tree_node*)(void*)base;
    t->infos = (tree_info*)(void*)(base + (size_t)capacity * sizeof(tree_node));
    t->moves = (int32_t*)(void*)(base + (size_t)capacity * (sizeof(tree_node) + sizeof(tree_info)));
}

/* Make sure `count` nodes can be taken without growing. On failure nothing changes. */
static px_status reserve_nodes(px_dynamic_tree* t, int32_t count)
{
    if (t->node_count + count <= t->capacity)
    {
        return PX_OK;
    }
    int64_t want = (int64_t)t->node_count + count;
    int64_t cap = t->capacity;
    while (cap < want)
    {
        cap *= 2;
    }
    if (cap > TREE_MAX_NODES)
    {
        cap = TREE_MAX_NODES;
    }
    if (cap < want)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    void* pool = pxi_alloc(&t->allocator, pool_bytes(cap));
    if (pool == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    void* old_pool = t->pool;
    const tree_node* old_nodes = t->nodes;
    const tree_info* old_infos = t->infos;
    const int32_t* old_moves = t->moves;
    int32_t old = t->capacity;
    carve_pool(t, pool, (int32_t)cap);
    memcpy(t->nodes, old_nodes, (size_t)old * sizeof(tree_node));
    memcpy(t->infos, old_infos, (size_t)old * sizeof(tree_info));
    memcpy(t->moves, old_moves, (size_t)t->move_count * sizeof(int32_t));
    pxi_free(&t->allocator, old_pool, pool_bytes(old));
    t->capacity = (int32_t)cap;
    /* the new nodes go in front of whatever old nodes are still free, lowest index first */
    link_free_range(t, old, t->capacity);
    return PX_OK;
}

/* Take a node from the free list (reserve_nodes must have made room). */
static int32_t take_node(px_dynamic_tree* t)
{
    int32_t i = t->free_list;
    t->free_list = t->infos[i].parent;
    clear_node(t, i, 0);
    t->node_count++;
    return i;
}

static void release_node(px_dynamic_tree* t, int32_t i)
{
    clear_node(t, i, -1);
    t->infos[i].parent = t->free_list;
    t->free_list = i;
    t->node_count--;
}

static inline bool is_leaf(const tree_node* n)
{
    return n->child1 == PX_NULL_INDEX;
}

static bool valid_proxy(const px_dynamic_tree* t, int32_t id)
{
    return t != NULL && id >= 0 && id < t->capacity && t->infos[id].height == 0 && is_leaf(&t->nodes[id]);
}

/* Mark a leaf as moved: append it to the move buffer unless it is there already (never allocates: the buffer
 * has one entry per node of the pool). */
static void mark_moved(px_dynamic_tree* t, int32_t leaf)
{
    if (t->infos[leaf].move_slot == PX_NULL_INDEX)
    {
        t->infos[leaf].move_slot = t->move_count;
        t->moves[t->move_count++] = leaf;
    }
}

/* Take a leaf out of the move buffer (the last entry fills its slot). */
static void unmark_moved(px_dynamic_tree* t, int32_t leaf)
{
    int32_t slot = t->infos[leaf].move_slot;
    if (slot == PX_NULL_INDEX)
    {
        return;
    }
    int32_t last = t->moves[--t->move_count];
    t->moves[slot] = last;
    t->infos[last].move_slot = slot;
    t->infos[leaf].move_slot = PX_NULL_INDEX;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Insertion, removal, balance                                                                             */

static void refit(px_dynamic_tree* t, int32_t i)
{
    tree_node* n = &t->nodes[i];
    box_union(&t->nodes[n->child1].aabb, &t->nodes[n->child2].aabb, &n->aabb);
    int32_t ha = t->infos[n->child1].height, hb = t->infos[n->child2].height;
    t->infos[i].height = 1 + (ha > hb ? ha : hb);
}

/* Replace child `old` of parent p (or the root when p is null) by `child`. */
static void replace_child(px_dynamic_tree* t, int32_t p, int32_t old, int32_t child)
{
    if (p == PX_NULL_INDEX)
    {
        t->root = child;
    }
    else if (t->nodes[p].child1 == old)
    {
        t->nodes[p].child1 = child;
    }
    else
    {
        t->nodes[p].child2 = child;
    }
    t->infos[child].parent = p;
}

/* If one child of inner node a is more than one level taller than the other, lift the taller child c into
 * a's place: a keeps the shorter of c's children and c takes a as its child. Returns the node now at a's
 * place, refitted. */
static int32_t balance(px_dynamic_tree* t, int32_t a)
{
    tree_node* na = &t->nodes[a];
    if (is_leaf(na) || t->infos[a].height < 2)
    {
        return a;
    }
    int32_t b = na->child1, c = na->child2;
    int32_t diff = t->infos[c].height - t->infos[b].height;
    if (diff >= -1 && diff <= 1)
    {
        return a;
    }
    /* tall: the taller child; short: the other one, which stays with a */
    int32_t tall = diff > 1 ? c : b;
    int32_t keep = diff > 1 ? b : c;
    tree_node* nt = &t->nodes[tall];
    int32_t f = nt->child1, g = nt->child2;
    int32_t hi = t->infos[f].height >= t->infos[g].height ? f : g; /* stays under tall */
    int32_t lo = hi == f ? g : f;                                 /* moves under a */

    replace_child(t, t->infos[a].parent, a, tall);
    /* tall's children: hi and a */
    nt->child1 = hi;
    nt->child2 = a;
    t->infos[hi].parent = tall;
    t->infos[a].parent = tall;
    /* a's children: keep and lo, in the old order of keep */
    if (keep == na->child1)
    {
        na->child2 = lo;
    }
    else
    {
        na->child1 = lo;
    }
    t->infos[lo].parent = a;
    refit(t, a);
    refit(t, tall);
    return tall;
}

/* Swap child x of inner node a with y, a child of a's other child o: y takes x's place under a and x takes
 * y's place under o. The leaves below a, so a's box, do not change. */
static void swap_down(px_dynamic_tree* t, int32_t a, int32_t x, int32_t o, int32_t y)
{
    tree_node* na = &t->nodes[a];
    tree_node* no = &t->nodes[o];
    if (na->child1 == x)
    {
        na->child1 = y;
    }
    else
    {
        na->child2 = y;
    }
    if (no->child1 == y)
    {
        no->child1 = x;
    }
    else
    {
        no->child2 = x;
    }
    t->infos[y].parent = a;
    t->infos[x].parent = o;
    refit(t, o);
    refit(t, a);
}

static inline int32_t abs_i32(int32_t v)
{
    return v < 0 ? -v : v;
}

/* The surface-area rotation of inner node a: of the four swaps of a child of a with a grandchild under its
 * other child, apply the one that shrinks the box of the grandchild's parent most, if any shrinks it and both
 * a and that parent stay within the balance condition (children heights at most one apart). */
static void rotate_area(px_dynamic_tree* t, int32_t a)
{
    const tree_node* na = &t->nodes[a];
    if (is_leaf(na) || t->infos[a].height < 2)
    {
        return;
    }
    float best = 0.0f;
    int32_t bx = PX_NULL_INDEX, bo = PX_NULL_INDEX, by = PX_NULL_INDEX;
    for (int side = 0; side < 2; ++side)
    {
        int32_t x = side == 0 ? na->child1 : na->child2;
        int32_t o = side == 0 ? na->child2 : na->child1;
        const tree_node* no = &t->nodes[o];
        if (is_leaf(no))
        {
            continue;
        }
        float area_o = box_area(&no->aabb);
        int32_t hx = t->infos[x].height;
        for (int k = 0; k < 2; ++k)
        {
            int32_t y = k == 0 ? no->child1 : no->child2;
            int32_t z = k == 0 ? no->child2 : no->child1;
            float gain = area_o - union_area(&t->nodes[x].aabb, &t->nodes[z].aabb);
            if (!(gain > best))
            {
                continue;
            }
            int32_t hz = t->infos[z].height, hy = t->infos[y].height;
            int32_t ho = 1 + (hx > hz ? hx : hz);
            if (abs_i32(hx - hz) <= 1 && abs_i32(hy - ho) <= 1)
            {
                best = gain;
                bx = x;
                bo = o;
                by = y;
            }
        }
    }
    if (bx != PX_NULL_INDEX)
    {
        swap_down(t, a, bx, bo, by);
    }
}

/* Refit and rebalance the nodes from i up towards the root. i's box or height may be stale (a child of it
 * changed); the walk stops at the first node that comes out with the box and height it had, untouched by a
 * rotation: its ancestors were the union of their children before and still are. */
static void fix_upwards(px_dynamic_tree* t, int32_t i, bool rotate)
{
    while (i != PX_NULL_INDEX)
    {
        px_aabb old_box = t->nodes[i].aabb;
        int32_t old_height = t->infos[i].height;
        refit(t, i);
        int32_t j = balance(t, i);
        if (rotate && j == i)
        {
            rotate_area(t, i);
        }
        if (j == i && t->infos[i].height == old_height && box_equal(&old_box, &t->nodes[i].aabb))
        {
            return;
        }
        i = t->infos[j].parent;
    }
}

/* Cheapest sibling for a new box by greedy SAH descent. */
static int32_t pick_sibling(const px_dynamic_tree* t, const px_aabb* box)
{
    int32_t i = t->root;
    float inherited = 0.0f; /* growth of the ancestors' areas so far */
    while (!is_leaf(&t->nodes[i]))
    {
        const tree_node* n = &t->nodes[i];
        float area = box_area(&n->aabb);
        float joined = union_area(&n->aabb, box);
        /* pairing with n: a new inner node of area `joined`, n's ancestors grow as they already did */
        float here = joined + inherited;
        float below = inherited + (joined - area);
        float cost[2];
        for (int k = 0; k < 2; ++k)
        {
            const tree_node* ch = &t->nodes[k == 0 ? n->child1 : n->child2];
            float ca = union_area(&ch->aabb, box);
            /* lower bound of descending: the new inner node above a leaf, or the growth of an inner child */
            cost[k] = below + (is_leaf(ch) ? ca : ca - box_area(&ch->aabb));
        }
        if (here <= cost[0] && here <= cost[1])
        {
            break;
        }
        inherited = below;
        i = cost[0] <= cost[1] ? n->child1 : n->child2;
    }
    return i;
}

/* Link leaf (already holding its box) into a non-empty tree as the sibling of node `sibling`. Needs one free
 * node (reserved by the caller). */
static void link_leaf(px_dynamic_tree* t, int32_t leaf, int32_t sibling, bool rotate)
{
    int32_t old_parent = t->infos[sibling].parent;
    int32_t p = take_node(t);
    tree_node* np = &t->nodes[p];
    np->child1 = sibling;
    np->child2 = leaf;
    replace_child(t, old_parent, sibling, p);
    t->infos[sibling].parent = p;
    t->infos[leaf].parent = p;
    /* p is new: always refit it, then go up from the node that now holds its place */
    refit(t, p);
    p = balance(t, p);
    fix_upwards(t, t->infos[p].parent, rotate);
}

/* Link leaf (already holding its box) into the tree. Needs one free node (reserved by the caller). */
static void insert_leaf(px_dynamic_tree* t, int32_t leaf, bool rotate)
{
    if (t->root == PX_NULL_INDEX)
    {
        t->root = leaf;
        t->infos[leaf].parent = PX_NULL_INDEX;
        return;
    }
    link_leaf(t, leaf, pick_sibling(t, &t->nodes[leaf].aabb), rotate);
}

/* Unlink leaf; its parent node is released and its sibling takes the parent's place. */
static void remove_leaf(px_dynamic_tree* t, int32_t leaf)
{
    if (leaf == t->root)
    {
        t->root = PX_NULL_INDEX;
        return;
    }
    int32_t p = t->infos[leaf].parent;
    int32_t grand = t->infos[p].parent;
    int32_t sibling = t->nodes[p].child1 == leaf ? t->nodes[p].child2 : t->nodes[p].child1;
    replace_child(t, grand, p, sibling);
    release_node(t, p);
    t->infos[leaf].parent = PX_NULL_INDEX;
    if (grand != PX_NULL_INDEX)
    {
        fix_upwards(t, grand, false);
    }
}

/* ------------------------------------------------------------------------------------------------------ */
/* Creation                                                                                                */

px_dynamic_tree_def px_dynamic_tree_default_def(void)
{
    px_dynamic_tree_def def;
    memset(&def, 0, sizeof(def));
    def.margin = 0.1f;
    def.displacement_scale = 1.0f;
    def.initial_capacity = 16;
    def.internal_value = TREE_COOKIE;
    return def;
}

px_status px_dynamic_tree_create(const px_dynamic_tree_def* def, px_dynamic_tree** tree)
{
    if (tree == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *tree = NULL;
    px_dynamic_tree_def d = def != NULL ? *def : px_dynamic_tree_default_def();
    px_allocator alloc;
    if (d.internal_value != TREE_COOKIE || !(d.margin >= 0.0f) || !isfinite(d.margin) ||
        !(d.displacement_scale >= 0.0f) || !isfinite(d.displacement_scale) || d.initial_capacity < 1 ||
        d.initial_capacity > TREE_MAX_NODES || pxi_allocator_resolve(&d.allocator, &alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_dynamic_tree* t = pxi_alloc(&alloc, sizeof(px_dynamic_tree));
    if (t == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(t, 0, sizeof(*t));
    t->allocator = alloc;
    void* pool = pxi_alloc(&alloc, pool_bytes(d.initial_capacity));
    if (pool == NULL)
    {
        pxi_free(&alloc, t, sizeof(px_dynamic_tree));
        return PX_ERR_OUT_OF_MEMORY;
    }
    carve_pool(t, pool, d.initial_capacity);
    t->capacity = d.initial_capacity;
    t->free_list = PX_NULL_INDEX;
    link_free_range(t, 0, t->capacity);
    t->root = PX_NULL_INDEX;
    t->margin = d.margin;
    t->displacement_scale = d.displacement_scale;
    *tree = t;
    return PX_OK;
}

void px_dynamic_tree_destroy(px_dynamic_tree* tree)
{
    if (tree == NULL)
    {
        return;
    }
    px_allocator alloc = tree->allocator;
    pxi_free(&alloc, tree->pairs, 2 * (size_t)tree->pair_capacity * sizeof(uint64_t));
    pxi_free(&alloc, tree->stack, (size_t)tree->stack_capacity * sizeof(int32_t));
    pxi_free(&alloc, tree->pool, pool_bytes(tree->capacity));
    pxi_free(&alloc, tree, sizeof(px_dynamic_tree));
}

/* ------------------------------------------------------------------------------------------------------ */
/* Proxies                                                                                                 */

px_status px_dynamic_tree_create_proxy(px_dynamic_tree* tree, const px_aabb* aabb, void* user_data,
                                       int32_t* proxy_id)
{
    if (proxy_id != NULL)
    {
        *proxy_id = PX_NULL_INDEX;
    }
    if (tree == NULL || aabb == NULL || proxy_id == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status s = check_proxy_box(aabb);
    if (s != PX_OK)
    {
        return s;
    }
    px_aabb fat;
    s = make_fat_box(tree, aabb, NULL, &fat);
    if (s != PX_OK)
    {
        return s;
    }
    if (tree->proxy_count >= PX_DYNAMIC_TREE_MAX_PROXIES)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    s = reserve_nodes(tree, 2); /* the leaf and its new parent */
    if (s != PX_OK)
    {
        return s;
    }
    int32_t leaf = take_node(tree);
    tree->nodes[leaf].aabb = fat;
    tree->infos[leaf].user_data = user_data;
    mark_moved(tree, leaf);
    insert_leaf(tree, leaf, true);
    tree->proxy_count++;
    *proxy_id = leaf;
    return PX_OK;
}

px_status px_dynamic_tree_destroy_proxy(px_dynamic_tree* tree, int32_t proxy_id)
{
    if (!valid_proxy(tree, proxy_id))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    unmark_moved(tree, proxy_id);
    remove_leaf(tree, proxy_id);
    release_node(tree, proxy_id);
    tree->proxy_count--;
    return PX_OK;
}

/* Whether proxy_id's new tight box leaves its fat box, and then the new fat box (stretched by displacement
 * when given): move_proxy's checks and decision, shared with the batch moves. Only reads the tree. */
static px_status proxy_fat_box(const px_dynamic_tree* tree, int32_t proxy_id, const px_aabb* aabb,
                               const float* displacement, px_aabb* fat, bool* leaves)
{
    *leaves = false;
    if (aabb == NULL || !valid_proxy(tree, proxy_id))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status s = check_proxy_box(aabb);
    if (s != PX_OK)
    {
        return s;
    }
    if (displacement != NULL &&
        (!isfinite(displacement[0]) || !isfinite(displacement[1]) || !isfinite(displacement[2])))
    {
        return PX_ERR_NON_FINITE;
    }
    if (box_contains(&tree->nodes[proxy_id].aabb, aabb))
    {
        return PX_OK;
    }
    s = make_fat_box(tree, aabb, displacement, fat);
    *leaves = s == PX_OK;
    return s;
}

px_status px_dynamic_tree_move_proxy(px_dynamic_tree* tree, int32_t proxy_id, const px_aabb* aabb,
                                     const vec3 displacement, bool* reinserted)
{
    if (reinserted != NULL)
    {
        *reinserted = false;
    }
    px_aabb fat;
    bool leaves;
    px_status s = proxy_fat_box(tree, proxy_id, aabb, displacement, &fat, &leaves);
    if (s != PX_OK || !leaves)
    {
        return s;
    }
    /* removal releases one inner node and insertion takes one back: no allocation */
    int32_t sibling;
    pxi_dynamic_tree_reinsert(tree, &proxy_id, &fat, 1, &sibling, NULL);
    if (reinserted != NULL)
    {
        *reinserted = true;
    }
    return PX_OK;
}

px_status pxi_dynamic_tree_moved_box(const px_dynamic_tree* tree, int32_t proxy_id, const px_aabb* aabb,
                                     const float* displacement, px_aabb* fat, bool* leaves)
{
    px_status s = proxy_fat_box(tree, proxy_id, aabb, displacement, fat, leaves);
    if (s == PX_ERR_NON_FINITE && displacement != NULL)
    {
        /* a displacement that is not finite or overflows the fat box: the box grown by the margin alone */
        s = proxy_fat_box(tree, proxy_id, aabb, NULL, fat, leaves);
    }
    return s;
}

typedef struct sibling_search
{
    const px_dynamic_tree* tree;
    const int32_t* proxies;
    int32_t* siblings;
} sibling_search;

static void sibling_task(int begin, int end, int worker, void* context)
{
    (void)worker;
    const sibling_search* s = context;
    for (int k = begin; k < end; ++k)
    {
        s->siblings[k] = pick_sibling(s->tree, &s->tree->nodes[s->proxies[k]].aabb);
    }
}

/* Below this many proxies a batch is reinserted one by one (each against the tree with the previous ones). */
#define TREE_BATCH_MIN 32
/* Sibling searches per task range. */
#define TREE_BATCH_RANGE 64

void pxi_dynamic_tree_reinsert(px_dynamic_tree* tree, const int32_t* proxies, const px_aabb* fats, int count,
                               int32_t* siblings, const px_task_system* tasks)
{
    /* unlink them all: each removal releases an inner node, each link below takes one back */
    for (int k = 0; k < count; ++k)
    {
        remove_leaf(tree, proxies[k]);
        tree->nodes[proxies[k]].aabb = fats[k];
        mark_moved(tree, proxies[k]);
    }
    if (count < TREE_BATCH_MIN || tree->root == PX_NULL_INDEX)
    {
        for (int k = 0; k < count; ++k)
        {
            insert_leaf(tree, proxies[k], false);
        }
        return;
    }
    /* the searches only read the tree without the batch; every node they pick stays a node of the tree
     * while the batch is linked (links and rotations move nodes, never free them) */
    sibling_search s = {tree, proxies, siblings};
    pxi_run_tasks(tasks, sibling_task, count, TREE_BATCH_RANGE, &s);
    for (int k = 0; k < count; ++k)
    {
        link_leaf(tree, proxies[k], siblings[k], false);
    }
}

void* px_dynamic_tree_user_data(const px_dynamic_tree* tree, int32_t proxy_id)
{
    return valid_proxy(tree, proxy_id) ? tree->infos[proxy_id].user_data : NULL;
}

px_status px_dynamic_tree_fat_aabb(const px_dynamic_tree* tree, int32_t proxy_id, px_aabb* aabb)
{
    if (aabb == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (!valid_proxy(tree, proxy_id))
    {
        memset(aabb, 0, sizeof(*aabb));
        return PX_ERR_INVALID_ARGUMENT;
    }
    *aabb = tree->nodes[proxy_id].aabb;
    return PX_OK;
}

bool px_dynamic_tree_is_proxy(const px_dynamic_tree* tree, int32_t proxy_id)
{
    return valid_proxy(tree, proxy_id);
}

bool px_dynamic_tree_was_moved(const px_dynamic_tree* tree, int32_t proxy_id)
{
    return valid_proxy(tree, proxy_id) && tree->infos[proxy_id].move_slot != PX_NULL_INDEX;
}

int px_dynamic_tree_proxy_count(const px_dynamic_tree* tree)
{
    return tree != NULL ? tree->proxy_count : 0;
}

int px_dynamic_tree_height(const px_dynamic_tree* tree)
{
    return tree != NULL && tree->root != PX_NULL_INDEX ? tree->infos[tree->root].height : 0;
}

float px_dynamic_tree_area_ratio(const px_dynamic_tree* tree)
{
    if (tree == NULL || tree->root == PX_NULL_INDEX || is_leaf(&tree->nodes[tree->root]))
    {
        return 0.0f;
    }
    float root_area = box_area(&tree->nodes[tree->root].aabb);
    if (!(root_area > 0.0f))
    {
        return 0.0f;
    }
    double sum = 0.0;
    for (int32_t i = 0; i < tree->capacity; ++i)
    {
        if (tree->infos[i].height > 0)
        {
            sum += (double)box_area(&tree->nodes[i].aabb);
        }
    }
    return (float)(sum / (double)root_area);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Traversal                                                                                               */

/* Next node of a depth-first walk after the subtree of i was visited or skipped: i's right sibling, or
 * the right sibling of the nearest ancestor that has one still to visit. PX_NULL_INDEX at the end. */
static int32_t walk_next(const px_dynamic_tree* t, int32_t i)
{
    while (i != t->root)
    {
        int32_t p = t->infos[i].parent;
        if (t->nodes[p].child1 == i)
        {
            return t->nodes[p].child2;
        }
        i = p;
    }
    return PX_NULL_INDEX;
}

/* A query box in the form the SSE test wants: hi = (max.x, max.y, max.z, +inf) and lo = (-inf, min.x, min.y,
 * min.z), against a node's floats 0..3 = (min, max.x) and 2..5 = (min.z, max). The extra lanes compare max.x
 * <= +inf and -inf <= min.z, true for any finite box, so the four lanes of (node_lo <= hi) & (lo <= node_hi)
 * are all set exactly when the closed boxes overlap. Only finite floats are compared (fat boxes are finite):
 * no exception flag is raised. */
typedef struct query_box
{
#if TREE_SSE
    __m128 hi;
    __m128 lo;
#else
    px_aabb box;
#endif
} query_box;

static inline query_box make_query_box(const px_aabb* b)
{
    query_box q;
#if TREE_SSE
    q.hi = _mm_setr_ps(b->max[0], b->max[1], b->max[2], INFINITY);
    q.lo = _mm_setr_ps(-INFINITY, b->min[0], b->min[1], b->min[2]);
#else
    q.box = *b;
#endif
    return q;
}

static inline bool node_overlaps(const tree_node* n, const query_box* q)
{
#if TREE_SSE
    const float* f = n->aabb.min;
    __m128 node_lo = _mm_loadu_ps(f);     /* min.x min.y min.z max.x */
    __m128 node_hi = _mm_loadu_ps(f + 2); /* min.z max.x max.y max.z */
    __m128 ok = _mm_and_ps(_mm_cmple_ps(node_lo, q->hi), _mm_cmple_ps(q->lo, node_hi));
    return _mm_movemask_ps(ok) == 15;
#else
    return box_overlap(&n->aabb, &q->box);
#endif
}

/* Nodes a query keeps on its own stack (a depth-first walk pushing at most two children per popped node holds
 * at most height + 1 nodes), so queries allocate nothing and may run on several threads at once. */
#define QUERY_STACK 96

/* px_dynamic_tree_query on a tree no taller than QUERY_STACK - 2: an explicit stack and the SSE box test. */
static px_status query_stack(const px_dynamic_tree* tree, const px_aabb* aabb, px_dynamic_tree_query_fn* callback,
                             void* context)
{
    const tree_node* nodes = tree->nodes;
    const int32_t root = tree->root;
    if (!box_overlap(&nodes[root].aabb, aabb))
    {
        return PX_OK;
    }
    if (is_leaf(&nodes[root]))
    {
        (void)callback(root, tree->infos[root].user_data, context);
        return PX_OK;
    }
    const query_box q = make_query_box(aabb);
    int32_t stack[QUERY_STACK];
    int top = 0;
    stack[top++] = root;
    while (top > 0)
    {
        const tree_node* n = &nodes[stack[--top]];
        const int32_t children[2] = { n->child1, n->child2 };
        for (int c = 0; c < 2; ++c)
        {
            const int32_t i = children[c];
            const tree_node* ch = &nodes[i];
            if (!node_overlaps(ch, &q))
            {
                continue;
            }
            if (!is_leaf(ch))
            {
                stack[top++] = i;
                continue;
            }
            if (!callback(i, tree->infos[i].user_data, context))
            {
                return PX_OK;
            }
        }
    }
    return PX_OK;
}

px_status px_dynamic_tree_query(const px_dynamic_tree* tree, const px_aabb* aabb, px_dynamic_tree_query_fn* callback,
                                void* context)
{
    if (tree == NULL || aabb == NULL || callback == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3; ++i)
    {
        if (isnan(aabb->min[i]) || isnan(aabb->max[i]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    int32_t root = tree->root;
    if (root == PX_NULL_INDEX)
    {
        return PX_OK;
    }
    if (tree->infos[root].height + 2 <= QUERY_STACK)
    {
        return query_stack(tree, aabb, callback, context);
    }
    /* a tree taller than the stack (not expected: heights stay near 1.44 log2 n): the parent-link walk */
    int32_t i = root;
    while (i != PX_NULL_INDEX)
    {
        const tree_node* n = &tree->nodes[i];
        if (box_overlap(&n->aabb, aabb))
        {
            if (!is_leaf(n))
            {
                i = n->child1;
                continue;
            }
            if (!callback(i, tree->infos[i].user_data, context))
            {
                return PX_OK;
            }
        }
        i = walk_next(tree, i);
    }
    return PX_OK;
}

/* 1 + 2 gamma(3), rounded up: each slab distance (bound - o) * inv is three roundings off the exact one, so
 * the far distance is widened by this before it is compared with the near one (Ize, "Robust BVH Ray
 * Traversal", JCGT 2013). Without it a segment ending exactly on a box face, or touching an edge, could be
 * reported as missing the box. */
#define RAY_FAR_WIDEN 1.0000006f

/* Slab test of the segment o + t d, 0 <= t <= max_t, against a box (closed), conservative: a box the exact
 * segment touches is never rejected. inv[k] is 1 / d[k] where d[k] is not zero; axes with d[k] == 0 only
 * check that o lies within the slab. */
static bool ray_box(const float o[3], const float d[3], const float inv[3], float max_t, const px_aabb* b)
{
    float lo = 0.0f, hi = max_t;
    for (int k = 0; k < 3; ++k)
    {
        if (d[k] == 0.0f)
        {
            if (o[k] < b->min[k] || o[k] > b->max[k])
            {
                return false;
            }
            continue;
        }
        /* an origin on a slab plane is there at t = 0, also when inv[k] overflowed to infinity (a direction
         * component below 1 / FLT_MAX, where 0 * inf would be NaN and miss the box; review 53) */
        const float d1 = b->min[k] - o[k], d2 = b->max[k] - o[k];
        float t1 = d1 != 0.0f ? d1 * inv[k] : 0.0f;
        float t2 = d2 != 0.0f ? d2 * inv[k] : 0.0f;
        float tn = t1 < t2 ? t1 : t2;
        float tf = t1 < t2 ? t2 : t1;
        lo = tn > lo ? tn : lo;
        hi = tf < hi ? tf : hi;
        if (lo > hi * RAY_FAR_WIDEN)
        {
            return false;
        }
    }
    return true;
}

px_status px_dynamic_tree_ray_query(const px_dynamic_tree* tree, const px_ray* ray, px_dynamic_tree_ray_fn* callback,
                                    void* context)
{
    if (tree == NULL || ray == NULL || callback == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < 3; ++k)
    {
        if (!isfinite(ray->origin[k]) || !isfinite(ray->direction[k]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    if (isnan(ray->max_t))
    {
        return PX_ERR_NON_FINITE;
    }
    if (ray->max_t < 0.0f)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (ray->direction[0] == 0.0f && ray->direction[1] == 0.0f && ray->direction[2] == 0.0f)
    {
        return PX_ERR_DEGENERATE_INPUT;
    }
    px_ray r = *ray;
    float inv[3];
    for (int k = 0; k < 3; ++k)
    {
        inv[k] = r.direction[k] != 0.0f ? 1.0f / r.direction[k] : 0.0f;
    }
    int32_t i = tree->root;
    while (i != PX_NULL_INDEX)
    {
        const tree_node* n = &tree->nodes[i];
        if (ray_box(r.origin, r.direction, inv, r.max_t, &n->aabb))
        {
            if (!is_leaf(n))
            {
                i = n->child1;
                continue;
            }
            float v = callback(&r, i, tree->infos[i].user_data, context);
            if (v == 0.0f)
            {
                return PX_OK;
            }
            if (v > 0.0f && v < r.max_t)
            {
                r.max_t = v;
            }
        }
        i = walk_next(tree, i);
    }
    return PX_OK;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Pairs                                                                                                   */

/* Grow the pair buffer (and its sort scratch, as large again) to hold more than `count` pairs. */
static px_status grow_pairs(px_dynamic_tree* t, int32_t count)
{
    int64_t cap = t->pair_capacity > 0 ? 2 * (int64_t)t->pair_capacity : 256;
    if (cap > INT32_MAX / 2)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    uint64_t* p = pxi_alloc(&t->allocator, 2 * (size_t)cap * sizeof(uint64_t));
    if (p == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    if (count > 0)
    {
        memcpy(p, t->pairs, (size_t)count * sizeof(uint64_t));
    }
    pxi_free(&t->allocator, t->pairs, 2 * (size_t)t->pair_capacity * sizeof(uint64_t));
    t->pairs = p;
    t->pair_capacity = (int32_t)cap;
    return PX_OK;
}

/* Sort keys[0..n) ascending: insertion sort for short runs, else a least-significant-digit radix sort on bytes
 * through scratch[0..n), skipping the bytes that are equal in every key (ids need far fewer than 32 bits). */
static void sort_keys(uint64_t* keys, uint64_t* scratch, int32_t n)
{
    if (n < 64)
    {
        for (int32_t i = 1; i < n; ++i)
        {
            uint64_t k = keys[i];
            int32_t j = i;
            for (; j > 0 && keys[j - 1] > k; --j)
            {
                keys[j] = keys[j - 1];
            }
            keys[j] = k;
        }
        return;
    }
    uint32_t count[8][256];
    memset(count, 0, sizeof(count));
    for (int32_t i = 0; i < n; ++i)
    {
        uint64_t k = keys[i];
        for (int d = 0; d < 8; ++d)
        {
            count[d][(k >> (8 * d)) & 0xffu]++;
        }
    }
    uint64_t* src = keys;
    uint64_t* dst = scratch;
    for (int d = 0; d < 8; ++d)
    {
        uint32_t* c = count[d];
        if (c[(src[0] >> (8 * d)) & 0xffu] == (uint32_t)n)
        {
            continue; /* every key has this byte */
        }
        uint32_t sum = 0;
        for (int b = 0; b < 256; ++b)
        {
            uint32_t v = c[b];
            c[b] = sum;
            sum += v;
        }
        for (int32_t i = 0; i < n; ++i)
        {
            uint64_t k = src[i];
            dst[c[(k >> (8 * d)) & 0xffu]++] = k;
        }
        uint64_t* tmp = src;
        src = dst;
        dst = tmp;
    }
    if (src != keys)
    {
        memcpy(keys, src, (size_t)n * sizeof(uint64_t));
    }
}

px_status px_dynamic_tree_update_pairs(px_dynamic_tree* tree, px_dynamic_tree_pair_fn* callback, void* context)
{
    if (tree == NULL || callback == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (tree->move_count == 0)
    {
        return PX_OK;
    }
    /* a depth-first walk that pushes at most two children per popped node holds at most height + 1 nodes */
    const tree_node* nodes = tree->nodes;
    const tree_info* infos = tree->infos;
    const int32_t root = tree->root;
    int32_t need = infos[root].height + 2;
    if (need > tree->stack_capacity)
    {
        int32_t* s = pxi_alloc(&tree->allocator, (size_t)need * sizeof(int32_t));
        if (s == NULL)
        {
            return PX_ERR_OUT_OF_MEMORY;
        }
        pxi_free(&tree->allocator, tree->stack, (size_t)tree->stack_capacity * sizeof(int32_t));
        tree->stack = s;
        tree->stack_capacity = need;
    }
    int32_t* stack = tree->stack;
    int32_t count = 0;
    if (!is_leaf(&nodes[root])) /* a lone leaf has no pair */
    {
        for (int32_t k = 0; k < tree->move_count; ++k)
        {
            /* every leaf overlapping a; a pair of two moved proxies is taken from the lower id only */
            const int32_t a = tree->moves[k];
            const query_box q = make_query_box(&nodes[a].aabb);
            int32_t top = 0;
            stack[top++] = root; /* the root contains a's box */
            while (top > 0)
            {
                const tree_node* n = &nodes[stack[--top]];
                const int32_t children[2] = { n->child1, n->child2 };
                for (int c = 0; c < 2; ++c)
                {
                    const int32_t i = children[c];
                    const tree_node* ch = &nodes[i];
                    if (!node_overlaps(ch, &q))
                    {
                        continue;
                    }
                    if (!is_leaf(ch))
                    {
                        stack[top++] = i;
                        continue;
                    }
                    if (i == a || (i < a && infos[i].move_slot != PX_NULL_INDEX))
                    {
                        continue;
                    }
                    if (count == tree->pair_capacity)
                    {
                        px_status s = grow_pairs(tree, count);
                        if (s != PX_OK)
                        {
                            return s;
                        }
                    }
                    uint32_t lo = (uint32_t)(a < i ? a : i), hi = (uint32_t)(a < i ? i : a);
                    tree->pairs[count++] = ((uint64_t)lo << 32) | hi;
                }
            }
        }
    }
    if (count > 1)
    {
        /* (with no pair ever found the buffer is NULL, and NULL + 0 is undefined: clang's UBSan, review 53) */
        sort_keys(tree->pairs, tree->pairs + tree->pair_capacity, count);
    }
    for (int32_t k = 0; k < count; ++k)
    {
        callback((int32_t)(tree->pairs[k] >> 32), (int32_t)(tree->pairs[k] & 0xffffffffu), context);
    }
    for (int32_t k = 0; k < tree->move_count; ++k)
    {
        tree->infos[tree->moves[k]].move_slot = PX_NULL_INDEX;
    }
    tree->move_count = 0;
    return PX_OK;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Rebuild                                                                                                 */

static float centre(const px_dynamic_tree* t, int32_t leaf, int axis)
{
    const px_aabb* b = &t->nodes[leaf].aabb;
    return 0.5f * b->min[axis] + 0.5f * b->max[axis];
}

/* Reorder leaves[0..n) so that leaves[k] has the k-th smallest centre on axis, smaller ones before it and
 * larger ones after (Hoare's selection; ties are broken by leaf index, so the order is a total one). */
static void select_kth(const px_dynamic_tree* t, int32_t* leaves, int32_t n, int32_t k, int axis)
{
    int32_t lo = 0, hi = n - 1;
    while (lo < hi)
    {
        int32_t pivot = leaves[lo + (hi - lo) / 2];
        float pc = centre(t, pivot, axis);
        int32_t i = lo, j = hi;
        while (i <= j)
        {
            while (centre(t, leaves[i], axis) < pc || (centre(t, leaves[i], axis) == pc && leaves[i] < pivot))
            {
                ++i;
            }
            while (centre(t, leaves[j], axis) > pc || (centre(t, leaves[j], axis) == pc && leaves[j] > pivot))
            {
                --j;
            }
            if (i <= j)
            {
                int32_t tmp = leaves[i];
                leaves[i] = leaves[j];
                leaves[j] = tmp;
                ++i;
                --j;
            }
        }
        if (k <= j)
        {
            hi = j;
        }
        else if (k >= i)
        {
            lo = i;
        }
        else
        {
            break;
        }
    }
}

/* Build a subtree over leaves[0..n) (n >= 1) from free nodes; returns its root. Depth is ceil(log2 n). */
static int32_t build_range(px_dynamic_tree* t, int32_t* leaves, int32_t n)
{
    if (n == 1)
    {
        return leaves[0];
    }
    float cmin[3] = { FLT_MAX, FLT_MAX, FLT_MAX }, cmax[3] = { -FLT_MAX, -FLT_MAX, -FLT_MAX };
    for (int32_t i = 0; i < n; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            float c = centre(t, leaves[i], k);
            cmin[k] = c < cmin[k] ? c : cmin[k];
            cmax[k] = c > cmax[k] ? c : cmax[k];
        }
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k)
    {
        if (cmax[k] - cmin[k] > cmax[axis] - cmin[axis])
        {
            axis = k;
        }
    }
    int32_t mid = n / 2;
    select_kth(t, leaves, n, mid, axis);
    int32_t left = build_range(t, leaves, mid);
    int32_t right = build_range(t, leaves + mid, n - mid);
    int32_t p = take_node(t);
    t->nodes[p].child1 = left;
    t->nodes[p].child2 = right;
    t->infos[left].parent = p;
    t->infos[right].parent = p;
    refit(t, p);
    return p;
}

px_status px_dynamic_tree_rebuild(px_dynamic_tree* tree)
{
    if (tree == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    int32_t n = tree->proxy_count;
    if (n < 3)
    {
        return PX_OK; /* zero, one or two leaves have only one shape */
    }
    int32_t* leaves = pxi_alloc(&tree->allocator, (size_t)n * sizeof(int32_t));
    if (leaves == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    int32_t count = 0;
    for (int32_t i = 0; i < tree->capacity; ++i)
    {
        if (tree->infos[i].height == 0)
        {
            leaves[count++] = i;
        }
        else if (tree->infos[i].height > 0)
        {
            release_node(tree, i); /* inner nodes go back to the pool; the build takes n - 1 of them again */
        }
    }
    tree->root = build_range(tree, leaves, count);
    tree->infos[tree->root].parent = PX_NULL_INDEX;
    pxi_free(&tree->allocator, leaves, (size_t)n * sizeof(int32_t));
    return PX_OK;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Validation                                                                                              */

px_status px_dynamic_tree_validate(const px_dynamic_tree* tree)
{
    if (tree == NULL || tree->capacity < 1 || tree->nodes == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const px_status bad = PX_ERR_INVALID_ARGUMENT;
    if (tree->move_count < 0 || tree->move_count > tree->capacity)
    {
        return bad;
    }
    /* free list: in range, only free nodes, no cycle (bounded by the capacity) */
    int32_t free_count = 0;
    for (int32_t i = tree->free_list; i != PX_NULL_INDEX; i = tree->infos[i].parent)
    {
        if (i < 0 || i >= tree->capacity || tree->infos[i].height != -1 || ++free_count > tree->capacity)
        {
            return bad;
        }
    }
    int32_t used = 0, leaves = 0, marked = 0;
    for (int32_t i = 0; i < tree->capacity; ++i)
    {
        const tree_node* n = &tree->nodes[i];
        const tree_info* ni = &tree->infos[i];
        if (ni->height < 0)
        {
            if (ni->height != -1 || ni->move_slot != PX_NULL_INDEX)
            {
                return bad;
            }
            continue;
        }
        used++;
        for (int k = 0; k < 3; ++k)
        {
            if (!(n->aabb.min[k] <= n->aabb.max[k]))
            {
                return bad; /* inverted or NaN */
            }
        }
        int32_t p = ni->parent;
        if (p == PX_NULL_INDEX)
        {
            if (i != tree->root)
            {
                return bad;
            }
        }
        else if (p < 0 || p >= tree->capacity || tree->infos[p].height <= 0 ||
                 (tree->nodes[p].child1 != i && tree->nodes[p].child2 != i))
        {
            return bad;
        }
        if (ni->height == 0)
        {
            if (n->child1 != PX_NULL_INDEX || n->child2 != PX_NULL_INDEX)
            {
                return bad;
            }
            int32_t slot = ni->move_slot;
            if (slot != PX_NULL_INDEX && (slot < 0 || slot >= tree->move_count || tree->moves[slot] != i))
            {
                return bad;
            }
            marked += slot != PX_NULL_INDEX;
            leaves++;
            continue;
        }
        if (ni->move_slot != PX_NULL_INDEX)
        {
            return bad;
        }
        int32_t c1 = n->child1, c2 = n->child2;
        if (c1 < 0 || c1 >= tree->capacity || c2 < 0 || c2 >= tree->capacity || c1 == c2)
        {
            return bad;
        }
        const tree_node* a = &tree->nodes[c1];
        const tree_node* b = &tree->nodes[c2];
        const tree_info* ai = &tree->infos[c1];
        const tree_info* bi = &tree->infos[c2];
        if (ai->height < 0 || bi->height < 0 || ai->parent != i || bi->parent != i)
        {
            return bad;
        }
        if (ni->height != 1 + (ai->height > bi->height ? ai->height : bi->height))
        {
            return bad;
        }
        px_aabb u;
        box_union(&a->aabb, &b->aabb, &u);
        if (!box_equal(&u, &n->aabb))
        {
            return bad;
        }
    }
    /* the move buffer holds each marked leaf once (every slot points back, so marked == move_count) */
    if (marked != tree->move_count)
    {
        return bad;
    }
    if (used + free_count != tree->capacity || used != tree->node_count || leaves != tree->proxy_count)
    {
        return bad;
    }
    if (leaves == 0 ? (tree->root != PX_NULL_INDEX || used != 0) : used != 2 * leaves - 1)
    {
        return bad;
    }
    if (tree->root != PX_NULL_INDEX && (tree->root < 0 || tree->root >= tree->capacity ||
                                        tree->infos[tree->root].height < 0 ||
                                        tree->infos[tree->root].parent != PX_NULL_INDEX))
    {
        return bad;
    }
    /* reachability: every used node lies below the root (walk counts what the root reaches) */
    int32_t reached = 0;
    for (int32_t i = tree->root; i != PX_NULL_INDEX;)
    {
        if (++reached > used)
        {
            return bad;
        }
        const tree_node* n = &tree->nodes[i];
        if (!is_leaf(n))
        {
            i = n->child1;
            continue;
        }
        i = walk_next(tree, i);
    }
    return reached == used ? PX_OK : bad;
}
