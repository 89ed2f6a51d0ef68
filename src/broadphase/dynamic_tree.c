/* The dynamic AABB tree of moving proxies (see dynamic_tree.h for the contract).
 *
 * Layout: one array of nodes. A node is free (height < 0, linked through `next` into the free list), a leaf
 * (child1 == PX_NULL_INDEX; its index is the proxy id) or an inner node with exactly two children whose box
 * is the union of theirs. Leaves have height 0.
 *
 * Insertion picks the sibling greedily from the root down (the surface-area heuristic of Goldsmith and Salmon,
 * as popularised for broadphases by Catto): at each inner node it compares pairing the new leaf with the node
 * itself against descending into either child, where descending pays for every ancestor box that grows.
 * After the new inner node is linked, the path to the root is refitted and each node on it is rebalanced by
 * a single rotation when one subtree is more than one level taller than the other (the AVL condition), which
 * keeps the height logarithmic whatever the order of the boxes.
 *
 * Traversals use the parent links instead of a stack (down the first child, then across to the second, then
 * up), so queries allocate nothing and have no depth limit. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/dynamic_tree.h"

#include "../core/core_internal.h"

#define TREE_COOKIE 0x44545245 /* "DTRE" */
#define TREE_MAX_NODES (1 << 29)

#define NODE_MOVED 1u

typedef struct tree_node
{
    px_aabb aabb;     /* fat box for leaves, union of the children for inner nodes */
    void* user_data;  /* leaves only */
    int32_t parent;   /* PX_NULL_INDEX at the root; for free nodes, the next free node */
    int32_t child1;   /* PX_NULL_INDEX for leaves */
    int32_t child2;
    int32_t height;   /* 0 for leaves, -1 for free nodes */
    uint32_t flags;   /* NODE_MOVED */
} tree_node;

struct px_dynamic_tree
{
    px_allocator allocator;
    tree_node* nodes;
    int32_t capacity;
    int32_t free_list;
    int32_t root;
    int32_t proxy_count;
    int32_t node_count; /* nodes in use: leaves and inner nodes */
    float margin;
    float displacement_scale;
    uint64_t* pairs; /* update_pairs buffer: (low id << 32) | high id */
    int32_t pair_capacity;
};

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

static void link_free_range(px_dynamic_tree* t, int32_t first, int32_t end)
{
    for (int32_t i = end - 1; i >= first; --i)
    {
        memset(&t->nodes[i], 0, sizeof(tree_node));
        t->nodes[i].height = -1;
        t->nodes[i].child1 = PX_NULL_INDEX;
        t->nodes[i].child2 = PX_NULL_INDEX;
        t->nodes[i].parent = t->free_list;
        t->free_list = i;
    }
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
    tree_node* nodes = pxi_alloc(&t->allocator, (size_t)cap * sizeof(tree_node));
    if (nodes == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memcpy(nodes, t->nodes, (size_t)t->capacity * sizeof(tree_node));
    pxi_free(&t->allocator, t->nodes, (size_t)t->capacity * sizeof(tree_node));
    int32_t old = t->capacity;
    t->nodes = nodes;
    t->capacity = (int32_t)cap;
    /* the new nodes go in front of whatever old nodes are still free, lowest index first */
    link_free_range(t, old, t->capacity);
    return PX_OK;
}

/* Take a node from the free list (reserve_nodes must have made room). */
static int32_t take_node(px_dynamic_tree* t)
{
    int32_t i = t->free_list;
    tree_node* n = &t->nodes[i];
    t->free_list = n->parent;
    memset(n, 0, sizeof(*n));
    n->parent = PX_NULL_INDEX;
    n->child1 = PX_NULL_INDEX;
    n->child2 = PX_NULL_INDEX;
    n->height = 0;
    t->node_count++;
    return i;
}

static void release_node(px_dynamic_tree* t, int32_t i)
{
    tree_node* n = &t->nodes[i];
    memset(n, 0, sizeof(*n));
    n->height = -1;
    n->child1 = PX_NULL_INDEX;
    n->child2 = PX_NULL_INDEX;
    n->parent = t->free_list;
    t->free_list = i;
    t->node_count--;
}

static inline bool is_leaf(const tree_node* n)
{
    return n->child1 == PX_NULL_INDEX;
}

static bool valid_proxy(const px_dynamic_tree* t, int32_t id)
{
    return t != NULL && id >= 0 && id < t->capacity && t->nodes[id].height == 0 && is_leaf(&t->nodes[id]);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Insertion, removal, balance                                                                             */

static void refit(px_dynamic_tree* t, int32_t i)
{
    tree_node* n = &t->nodes[i];
    const tree_node* a = &t->nodes[n->child1];
    const tree_node* b = &t->nodes[n->child2];
    box_union(&a->aabb, &b->aabb, &n->aabb);
    n->height = 1 + (a->height > b->height ? a->height : b->height);
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
    t->nodes[child].parent = p;
}

/* If one child of inner node a is more than one level taller than the other, lift the taller child c into
 * a's place: a keeps the shorter of c's children and c takes a as its child. Returns the node now at a's
 * place, refitted. */
static int32_t balance(px_dynamic_tree* t, int32_t a)
{
    tree_node* na = &t->nodes[a];
    if (is_leaf(na) || na->height < 2)
    {
        return a;
    }
    int32_t b = na->child1, c = na->child2;
    int32_t diff = t->nodes[c].height - t->nodes[b].height;
    if (diff >= -1 && diff <= 1)
    {
        return a;
    }
    /* tall: the taller child; short: the other one, which stays with a */
    int32_t tall = diff > 1 ? c : b;
    int32_t keep = diff > 1 ? b : c;
    tree_node* nt = &t->nodes[tall];
    int32_t f = nt->child1, g = nt->child2;
    int32_t hi = t->nodes[f].height >= t->nodes[g].height ? f : g; /* stays under tall */
    int32_t lo = hi == f ? g : f;                                 /* moves under a */

    replace_child(t, na->parent, a, tall);
    /* tall's children: hi and a */
    nt->child1 = hi;
    nt->child2 = a;
    t->nodes[hi].parent = tall;
    na->parent = tall;
    /* a's children: keep and lo, in the old order of keep */
    if (keep == na->child1)
    {
        na->child2 = lo;
    }
    else
    {
        na->child1 = lo;
    }
    t->nodes[lo].parent = a;
    refit(t, a);
    refit(t, tall);
    return tall;
}

/* Refit and rebalance every node from i up to the root. */
static void fix_upwards(px_dynamic_tree* t, int32_t i)
{
    while (i != PX_NULL_INDEX)
    {
        refit(t, i);
        i = balance(t, i);
        i = t->nodes[i].parent;
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

/* Link leaf (already holding its box) into the tree. Needs one free node (reserved by the caller). */
static void insert_leaf(px_dynamic_tree* t, int32_t leaf)
{
    if (t->root == PX_NULL_INDEX)
    {
        t->root = leaf;
        t->nodes[leaf].parent = PX_NULL_INDEX;
        return;
    }
    int32_t sibling = pick_sibling(t, &t->nodes[leaf].aabb);
    int32_t old_parent = t->nodes[sibling].parent;
    int32_t p = take_node(t);
    tree_node* np = &t->nodes[p];
    np->child1 = sibling;
    np->child2 = leaf;
    replace_child(t, old_parent, sibling, p);
    t->nodes[sibling].parent = p;
    t->nodes[leaf].parent = p;
    fix_upwards(t, p);
}

/* Unlink leaf; its parent node is released and its sibling takes the parent's place. */
static void remove_leaf(px_dynamic_tree* t, int32_t leaf)
{
    if (leaf == t->root)
    {
        t->root = PX_NULL_INDEX;
        return;
    }
    int32_t p = t->nodes[leaf].parent;
    int32_t grand = t->nodes[p].parent;
    int32_t sibling = t->nodes[p].child1 == leaf ? t->nodes[p].child2 : t->nodes[p].child1;
    replace_child(t, grand, p, sibling);
    release_node(t, p);
    t->nodes[leaf].parent = PX_NULL_INDEX;
    if (grand != PX_NULL_INDEX)
    {
        fix_upwards(t, grand);
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
    t->nodes = pxi_alloc(&alloc, (size_t)d.initial_capacity * sizeof(tree_node));
    if (t->nodes == NULL)
    {
        pxi_free(&alloc, t, sizeof(px_dynamic_tree));
        return PX_ERR_OUT_OF_MEMORY;
    }
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
    pxi_free(&alloc, tree->pairs, (size_t)tree->pair_capacity * sizeof(uint64_t));
    pxi_free(&alloc, tree->nodes, (size_t)tree->capacity * sizeof(tree_node));
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
    tree_node* n = &tree->nodes[leaf];
    n->aabb = fat;
    n->user_data = user_data;
    n->flags = NODE_MOVED;
    insert_leaf(tree, leaf);
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
    remove_leaf(tree, proxy_id);
    release_node(tree, proxy_id);
    tree->proxy_count--;
    return PX_OK;
}

px_status px_dynamic_tree_move_proxy(px_dynamic_tree* tree, int32_t proxy_id, const px_aabb* aabb,
                                     const vec3 displacement, bool* reinserted)
{
    if (reinserted != NULL)
    {
        *reinserted = false;
    }
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
    tree_node* n = &tree->nodes[proxy_id];
    if (box_contains(&n->aabb, aabb))
    {
        return PX_OK;
    }
    px_aabb fat;
    s = make_fat_box(tree, aabb, displacement, &fat);
    if (s != PX_OK)
    {
        return s;
    }
    /* removal releases one inner node and insertion takes one back: no allocation */
    remove_leaf(tree, proxy_id);
    tree->nodes[proxy_id].aabb = fat;
    tree->nodes[proxy_id].flags |= NODE_MOVED;
    insert_leaf(tree, proxy_id);
    if (reinserted != NULL)
    {
        *reinserted = true;
    }
    return PX_OK;
}

void* px_dynamic_tree_user_data(const px_dynamic_tree* tree, int32_t proxy_id)
{
    return valid_proxy(tree, proxy_id) ? tree->nodes[proxy_id].user_data : NULL;
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
    return valid_proxy(tree, proxy_id) && (tree->nodes[proxy_id].flags & NODE_MOVED) != 0;
}

int px_dynamic_tree_proxy_count(const px_dynamic_tree* tree)
{
    return tree != NULL ? tree->proxy_count : 0;
}

int px_dynamic_tree_height(const px_dynamic_tree* tree)
{
    return tree != NULL && tree->root != PX_NULL_INDEX ? tree->nodes[tree->root].height : 0;
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
        const tree_node* n = &tree->nodes[i];
        if (n->height > 0)
        {
            sum += (double)box_area(&n->aabb);
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
        int32_t p = t->nodes[i].parent;
        if (t->nodes[p].child1 == i)
        {
            return t->nodes[p].child2;
        }
        i = p;
    }
    return PX_NULL_INDEX;
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
    int32_t i = tree->root;
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
            if (!callback(i, n->user_data, context))
            {
                return PX_OK;
            }
        }
        i = walk_next(tree, i);
    }
    return PX_OK;
}

/* Slab test of the segment o + t d, 0 <= t <= max_t, against a box (closed). inv[k] is 1 / d[k] where d[k]
 * is not zero; axes with d[k] == 0 only check that o lies within the slab. */
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
        float t1 = (b->min[k] - o[k]) * inv[k];
        float t2 = (b->max[k] - o[k]) * inv[k];
        float tn = t1 < t2 ? t1 : t2;
        float tf = t1 < t2 ? t2 : t1;
        lo = tn > lo ? tn : lo;
        hi = tf < hi ? tf : hi;
        if (lo > hi)
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
            float v = callback(&r, i, n->user_data, context);
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

static int compare_u64(const void* a, const void* b)
{
    uint64_t x = *(const uint64_t*)a, y = *(const uint64_t*)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

px_status px_dynamic_tree_update_pairs(px_dynamic_tree* tree, px_dynamic_tree_pair_fn* callback, void* context)
{
    if (tree == NULL || callback == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    int32_t count = 0;
    for (int32_t a = 0; a < tree->capacity; ++a)
    {
        const tree_node* na = &tree->nodes[a];
        if (na->height != 0 || (na->flags & NODE_MOVED) == 0)
        {
            continue;
        }
        /* every leaf overlapping a; a pair of two moved proxies is taken from the lower id only */
        int32_t i = tree->root;
        while (i != PX_NULL_INDEX)
        {
            const tree_node* n = &tree->nodes[i];
            if (box_overlap(&n->aabb, &na->aabb))
            {
                if (!is_leaf(n))
                {
                    i = n->child1;
                    continue;
                }
                if (i != a && !((n->flags & NODE_MOVED) != 0 && i < a))
                {
                    if (count == tree->pair_capacity)
                    {
                        int64_t cap = tree->pair_capacity > 0 ? 2 * (int64_t)tree->pair_capacity : 64;
                        if (cap > INT32_MAX)
                        {
                            return PX_ERR_OUT_OF_MEMORY;
                        }
                        uint64_t* p = pxi_alloc(&tree->allocator, (size_t)cap * sizeof(uint64_t));
                        if (p == NULL)
                        {
                            return PX_ERR_OUT_OF_MEMORY;
                        }
                        if (count > 0)
                        {
                            memcpy(p, tree->pairs, (size_t)count * sizeof(uint64_t));
                        }
                        pxi_free(&tree->allocator, tree->pairs, (size_t)tree->pair_capacity * sizeof(uint64_t));
                        tree->pairs = p;
                        tree->pair_capacity = (int32_t)cap;
                    }
                    uint32_t lo = (uint32_t)(a < i ? a : i), hi = (uint32_t)(a < i ? i : a);
                    tree->pairs[count++] = ((uint64_t)lo << 32) | hi;
                }
            }
            i = walk_next(tree, i);
        }
    }
    if (count > 1)
    {
        qsort(tree->pairs, (size_t)count, sizeof(uint64_t), compare_u64);
    }
    for (int32_t k = 0; k < count; ++k)
    {
        if (k > 0 && tree->pairs[k] == tree->pairs[k - 1])
        {
            continue;
        }
        callback((int32_t)(tree->pairs[k] >> 32), (int32_t)(tree->pairs[k] & 0xffffffffu), context);
    }
    for (int32_t a = 0; a < tree->capacity; ++a)
    {
        tree->nodes[a].flags &= ~NODE_MOVED;
    }
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
    t->nodes[left].parent = p;
    t->nodes[right].parent = p;
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
        tree_node* node = &tree->nodes[i];
        if (node->height == 0)
        {
            leaves[count++] = i;
        }
        else if (node->height > 0)
        {
            release_node(tree, i); /* inner nodes go back to the pool; the build takes n - 1 of them again */
        }
    }
    tree->root = build_range(tree, leaves, count);
    tree->nodes[tree->root].parent = PX_NULL_INDEX;
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
    /* free list: in range, only free nodes, no cycle (bounded by the capacity) */
    int32_t free_count = 0;
    for (int32_t i = tree->free_list; i != PX_NULL_INDEX; i = tree->nodes[i].parent)
    {
        if (i < 0 || i >= tree->capacity || tree->nodes[i].height != -1 || ++free_count > tree->capacity)
        {
            return bad;
        }
    }
    int32_t used = 0, leaves = 0;
    for (int32_t i = 0; i < tree->capacity; ++i)
    {
        const tree_node* n = &tree->nodes[i];
        if (n->height < 0)
        {
            if (n->height != -1)
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
        int32_t p = n->parent;
        if (p == PX_NULL_INDEX)
        {
            if (i != tree->root)
            {
                return bad;
            }
        }
        else if (p < 0 || p >= tree->capacity || tree->nodes[p].height <= 0 ||
                 (tree->nodes[p].child1 != i && tree->nodes[p].child2 != i))
        {
            return bad;
        }
        if (n->height == 0)
        {
            if (n->child1 != PX_NULL_INDEX || n->child2 != PX_NULL_INDEX)
            {
                return bad;
            }
            leaves++;
            continue;
        }
        int32_t c1 = n->child1, c2 = n->child2;
        if (c1 < 0 || c1 >= tree->capacity || c2 < 0 || c2 >= tree->capacity || c1 == c2)
        {
            return bad;
        }
        const tree_node* a = &tree->nodes[c1];
        const tree_node* b = &tree->nodes[c2];
        if (a->height < 0 || b->height < 0 || a->parent != i || b->parent != i)
        {
            return bad;
        }
        if (n->height != 1 + (a->height > b->height ? a->height : b->height))
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
    if (used + free_count != tree->capacity || used != tree->node_count || leaves != tree->proxy_count)
    {
        return bad;
    }
    if (leaves == 0 ? (tree->root != PX_NULL_INDEX || used != 0) : used != 2 * leaves - 1)
    {
        return bad;
    }
    if (tree->root != PX_NULL_INDEX && (tree->root < 0 || tree->root >= tree->capacity ||
                                        tree->nodes[tree->root].height < 0 ||
                                        tree->nodes[tree->root].parent != PX_NULL_INDEX))
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
