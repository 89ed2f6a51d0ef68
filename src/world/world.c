/* The collision world: body slots, the two broadphase trees, the persistent pair set and px_world_update.
 *
 * An update runs in four stages:
 *   1. Broadphase. Poses were already pushed into the trees by px_world_set_pose (so queries between
 *      updates see them). Every body reinserted into its tree since the last update (it left its fat box),
 *      created or refiltered looks for its partners in the trees, on the task system: a moving body in
 *      both trees, a static one among the moving bodies; a pair of two such bodies is reported by the lower
 *      index. The candidates are filtered, sorted and made unique.
 *   2. Merge. The pair set is an array sorted by key (low index << 32 | high index); the candidates are
 *      merged into it, new pairs starting fresh. A sorted array keeps the output order fixed and makes
 *      lookups unnecessary: nothing in a step needs to find one pair.
 *   3. Narrowphase, across the task system: each pair checks that its bodies still live, pass the filters
 *      and have overlapping fat boxes (otherwise it is marked for removal), then computes its manifold(s),
 *      unless neither body changed since the last update, when the last result stands. Each pair writes
 *      only its own record, so the outcome is the same for any number of threads.
 *   4. Compaction and output, in pair order on the calling thread.
 */
#include "world_internal.h"

#include "../broadphase/dynamic_tree_internal.h"
#include "../core/task_internal.h"
#include "../narrowphase/manifold_internal.h"
#include "../narrowphase/mesh_collide_internal.h"
#include "../narrowphase/mesh_edges_internal.h"
#include "../shapes/support_internal.h"

#include <stdlib.h>
#include <string.h>

/* Pairs handed to one task range at least (a manifold costs ~0.2-2 us). */
#define PXI_WORLD_MIN_RANGE 32

px_world_def px_world_default_def(void)
{
    px_world_def def;
    memset(&def, 0, sizeof(def));
    def.aabb_margin = 0.1f;
    def.contact_margin = 4.0f * PX_LINEAR_SLOP;
    def.rebuild_interval = 30;
    def.internal_value = PXI_WORLD_COOKIE;
    return def;
}

px_body_def px_body_default_def(void)
{
    px_body_def def;
    memset(&def, 0, sizeof(def));
    def.type = PX_BODY_MOVING;
    def.shape = px_shape_sphere(1.0f);
    def.mesh = NULL;
    px_transform_identity(&def.pose);
    def.category_bits = 1u;
    def.mask_bits = 0xFFFFFFFFu;
    def.internal_value = PXI_BODY_COOKIE;
    return def;
}

bool pxi_world_reserve(px_world* world, void** array, int* capacity, int need, size_t elem_size)
{
    if (need <= *capacity)
    {
        return true;
    }
    int cap = *capacity > 0 ? *capacity : 16;
    while (cap < need)
    {
        if (cap > INT32_MAX / 2)
        {
            return false;
        }
        cap *= 2;
    }
    size_t bytes, old_bytes;
    if (!pxi_size_mul((size_t)cap, elem_size, &bytes))
    {
        return false;
    }
    void* fresh = pxi_alloc(&world->allocator, bytes);
    if (fresh == NULL)
    {
        return false;
    }
    old_bytes = (size_t)*capacity * elem_size;
    if (*array != NULL)
    {
        memcpy(fresh, *array, old_bytes);
        pxi_free(&world->allocator, *array, old_bytes);
    }
    *array = fresh;
    *capacity = cap;
    return true;
}

#define PXI_RESERVE(world, array, capacity, need)                                                              \
    pxi_world_reserve((world), (void**)&(array), &(capacity), (need), sizeof(*(array)))

px_status px_world_create(const px_world_def* def, px_world** world)
{
    if (world == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *world = NULL;
    px_world_def d = def != NULL ? *def : px_world_default_def();
    if (d.internal_value != PXI_WORLD_COOKIE || !(d.aabb_margin >= 0.0f) || !px_is_finite(d.aabb_margin) ||
        !(d.contact_margin >= 0.0f) || !px_is_finite(d.contact_margin) || d.rebuild_interval < 0 ||
        (d.tasks.enqueue != NULL && (d.tasks.finish == NULL || d.tasks.worker_count < 1)))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_allocator allocator;
    px_status status = pxi_allocator_resolve(&d.allocator, &allocator);
    if (status != PX_OK)
    {
        return status;
    }
    px_world* w = (px_world*)pxi_alloc(&allocator, sizeof(px_world));
    if (w == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(w, 0, sizeof(*w));
    w->cookie = PXI_WORLD_COOKIE;
    w->allocator = allocator;
    w->def = d;
    w->free_body = PX_NULL_INDEX;
    w->free_mesh_block = PX_NULL_INDEX;
    px_dynamic_tree_def tree_def = px_dynamic_tree_default_def();
    tree_def.allocator = allocator;
    /* the fat box also has to hold the contact margin: pairs are kept while the shapes are that close */
    tree_def.margin = d.aabb_margin + d.contact_margin;
    /* a moving body's fat box reaches 4 of its last displacements ahead (Box2D v2's aabbMultiplier): a body
     * moving steadily leaves it about every 4 updates at most, and the extra pairs cost a box test each
     * (narrow_pair skips pairs whose tight boxes are apart). bench_world: ~1.1x per step. */
    tree_def.displacement_scale = 4.0f;
    for (int k = 0; k < 2; ++k)
    {
        status = px_dynamic_tree_create(&tree_def, &w->trees[k]);
        if (status != PX_OK)
        {
            px_world_destroy(w);
            return status;
        }
    }
    *world = w;
    return PX_OK;
}

#define PXI_FREE_ARRAY(world, array, capacity) pxi_free(&(world)->allocator, (array), (size_t)(capacity) * sizeof(*(array)))

void px_world_destroy(px_world* world)
{
    if (world == NULL || world->cookie != PXI_WORLD_COOKIE)
    {
        return;
    }
    px_dynamic_tree_destroy(world->trees[0]);
    px_dynamic_tree_destroy(world->trees[1]);
    PXI_FREE_ARRAY(world, world->bodies, world->body_capacity);
    PXI_FREE_ARRAY(world, world->moved, world->moved_capacity);
    PXI_FREE_ARRAY(world, world->pairs, world->pair_capacity);
    PXI_FREE_ARRAY(world, world->pairs_next, world->pairs_next_capacity);
    PXI_FREE_ARRAY(world, world->new_keys, world->new_key_capacity);
    PXI_FREE_ARRAY(world, world->seek_keys, world->seek_key_capacity);
    PXI_FREE_ARRAY(world, world->seek_counts, world->seek_count_capacity);
    PXI_FREE_ARRAY(world, world->mesh_blocks, world->mesh_block_capacity);
    PXI_FREE_ARRAY(world, world->contacts, world->contact_capacity);
    PXI_FREE_ARRAY(world, world->proximity, world->proximity_capacity);
    PXI_FREE_ARRAY(world, world->pose_items, world->pose_item_capacity);
    PXI_FREE_ARRAY(world, world->reinsert, world->reinsert_capacity);
    PXI_FREE_ARRAY(world, world->reinsert_fats, world->reinsert_fat_capacity);
    PXI_FREE_ARRAY(world, world->reinsert_siblings, world->reinsert_sibling_capacity);
    world->cookie = 0;
    px_allocator allocator = world->allocator;
    pxi_free(&allocator, world, sizeof(px_world));
}

/* ------------------------------------------------------------------------------------------------ */
/* Bodies                                                                                             */

/* World box of a mesh at a pose: its local bounds' box rotated (the box of the rotated box). */
static px_status mesh_world_aabb(const px_mesh* mesh, const px_transform* pose, px_aabb* out)
{
    px_aabb local = px_mesh_bounds(mesh);
    if (!(local.min[0] <= local.max[0] && local.min[1] <= local.max[1] && local.min[2] <= local.max[2]))
    {
        /* an empty mesh: a point at its origin, so the body still has a place in the tree */
        px_v3_copy(pose->p, out->min);
        px_v3_copy(pose->p, out->max);
        return PX_OK;
    }
    px_rot r;
    px_rot_from_quat(pose->q, &r);
    vec3 c, h, wc;
    for (int k = 0; k < 3; ++k)
    {
        c[k] = 0.5f * (local.min[k] + local.max[k]);
        h[k] = 0.5f * (local.max[k] - local.min[k]);
    }
    px_rot_mulv(&r, c, wc);
    px_v3_add(wc, pose->p, wc);
    for (int i = 0; i < 3; ++i)
    {
        float e = fabsf(r.c[0][i]) * h[0] + fabsf(r.c[1][i]) * h[1] + fabsf(r.c[2][i]) * h[2];
        /* one ulp-scale pad per side: the rotated corners are rounded too */
        e += 1.0e-6f * (fabsf(wc[i]) + e);
        out->min[i] = wc[i] - e;
        out->max[i] = wc[i] + e;
    }
    if (!px_is_finite(out->min[0] + out->min[1] + out->min[2] + out->max[0] + out->max[1] + out->max[2]))
    {
        return PX_ERR_NON_FINITE;
    }
    return PX_OK;
}

/* The tight box of a body's shape or mesh at a (normalized) pose. */
static px_status body_aabb(const px_shape* shape, const px_mesh* mesh, const px_transform* pose, px_aabb* out)
{
    if (mesh != NULL)
    {
        return mesh_world_aabb(mesh, pose, out);
    }
    return pxi_shape_aabb_normalized(shape, pose, out); /* validated at creation, pose normalized */
}

static bool push_moved(px_world* world, int32_t index)
{
    pxi_body* b = &world->bodies[index];
    if (b->moved)
    {
        return true;
    }
    if (!PXI_RESERVE(world, world->moved, world->moved_capacity, world->moved_count + 1))
    {
        return false;
    }
    world->moved[world->moved_count++] = index;
    b->moved = true;
    return true;
}

px_status px_world_create_body(px_world* world, const px_body_def* def, px_body_id* id)
{
    if (id != NULL)
    {
        id->index = 0;
        id->generation = 0;
    }
    if (world == NULL || world->cookie != PXI_WORLD_COOKIE || def == NULL || id == NULL ||
        def->internal_value != PXI_BODY_COOKIE || (def->type != PX_BODY_STATIC && def->type != PX_BODY_MOVING))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_transform pose;
    px_status status = px_transform_normalized(&def->pose, &pose);
    if (status != PX_OK)
    {
        return status;
    }
    if (def->mesh == NULL)
    {
        status = px_shape_validate(&def->shape);
        if (status != PX_OK)
        {
            return status;
        }
        /* A shape half as large as PX_MAX_PAIR_SIZE could pair with nothing of its own size (each pair
         * query would refuse the pair): refused here. Smaller bodies can still form pairs too large, far
         * apart with overlapping boxes; the world's queries then report PX_ERR_OUT_OF_RANGE. */
        const float bound = pxi_shape_bound(&def->shape);
        if (bound >= 0.0f && !(bound + def->shape.radius < 0.5f * PX_MAX_PAIR_SIZE))
        {
            return PX_ERR_OUT_OF_RANGE;
        }
    }
    px_aabb box;
    status = body_aabb(&def->shape, def->mesh, &pose, &box);
    if (status != PX_OK)
    {
        return status;
    }
    int32_t index = world->free_body;
    if (index == PX_NULL_INDEX)
    {
        if (world->body_high >= PX_WORLD_MAX_BODIES)
        {
            return PX_ERR_UNSUPPORTED;
        }
        if (!PXI_RESERVE(world, world->bodies, world->body_capacity, world->body_high + 1))
        {
            return PX_ERR_OUT_OF_MEMORY;
        }
        index = world->body_high;
        memset(&world->bodies[index], 0, sizeof(pxi_body));
    }
    /* Room in the moved list for every slot, so nothing below can fail after the tree has the proxy, and
     * px_world_set_pose and px_world_set_filter never need memory (a slot is in the list at most once). */
    if (!PXI_RESERVE(world, world->moved, world->moved_capacity, world->body_high + 1))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    int32_t proxy = PX_NULL_INDEX;
    status = px_dynamic_tree_create_proxy(world->trees[def->type], &box, (void*)(intptr_t)index, &proxy);
    if (status != PX_OK)
    {
        return status;
    }
    if (index == world->free_body)
    {
        world->free_body = world->bodies[index].next_free;
    }
    else
    {
        world->body_high++;
    }
    pxi_body* b = &world->bodies[index];
    uint32_t generation = b->generation + 1u;
    if (generation == 0u)
    {
        generation = 1u;
    }
    bool listed = b->moved; /* a destroyed body's slot may still be in the moved list: keep that entry */
    memset(b, 0, sizeof(*b));
    b->shape = def->shape;
    b->mesh = def->mesh;
    b->pose = pose;
    b->aabb = box;
    px_v3_copy(pose.p, b->last_p);
    b->user_data = def->user_data;
    b->category_bits = def->category_bits;
    b->mask_bits = def->mask_bits;
    b->generation = generation;
    b->proxy = proxy;
    b->next_free = PX_NULL_INDEX;
    b->type = (uint8_t)def->type;
    b->alive = true;
    b->touched = true;
    b->requery = true;
    b->reinserted = true;
    (void)!px_dynamic_tree_fat_aabb(world->trees[def->type], proxy, &b->fat); /* a live proxy */
    b->moved = listed;
    (void)push_moved(world, index); /* reserved above; nothing when already listed */
    world->body_count++;
    world->moving_count += def->type == PX_BODY_MOVING ? 1 : 0;
    *id = pxi_body_id(world, index);
    return PX_OK;
}

px_status px_world_destroy_body(px_world* world, px_body_id id)
{
    const pxi_body* cb = pxi_world_body(world, id);
    if (cb == NULL || world->cookie != PXI_WORLD_COOKIE)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_body* b = &world->bodies[id.index];
    px_status status = px_dynamic_tree_destroy_proxy(world->trees[b->type], b->proxy);
    if (status != PX_OK)
    {
        return status; /* not reached: a live body always has its proxy */
    }
    world->body_count--;
    world->moving_count -= b->type == PX_BODY_MOVING ? 1 : 0;
    b->alive = false;
    b->proxy = PX_NULL_INDEX;
    b->next_free = world->free_body;
    world->free_body = id.index;
    /* a moved-list entry of a dead body is skipped by the update; its pairs go stale */
    return PX_OK;
}

/* Normalize pose, compute the body's box there and whether it leaves its fat box (and the new fat box), then
 * give the body the pose and box. The tree is only read: bodies can be placed in parallel. The body is
 * unchanged on errors. */
static px_status place_body(const px_world* world, pxi_body* b, const px_transform* pose, px_aabb* fat,
                            bool* leaves)
{
    *leaves = false;
    px_transform np;
    px_status status = px_transform_normalized(pose, &np);
    if (status != PX_OK)
    {
        return status;
    }
    px_aabb box;
    status = body_aabb(&b->shape, b->mesh, &np, &box);
    if (status != PX_OK)
    {
        return status;
    }
    vec3 displacement;
    px_v3_sub(np.p, b->pose.p, displacement);
    const float* stretch = b->type == PX_BODY_MOVING ? displacement : NULL;
    status = pxi_dynamic_tree_moved_box(world->trees[b->type], b->proxy, &box, stretch, fat, leaves);
    if (status != PX_OK)
    {
        return status;
    }
    b->pose = np;
    b->aabb = box;
    b->touched = true;
    return PX_OK;
}

px_status px_world_set_pose(px_world* world, px_body_id id, const px_transform* pose)
{
    const pxi_body* cb = pxi_world_body(world, id);
    if (cb == NULL || pose == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_body* b = &world->bodies[id.index];
    px_aabb fat;
    bool leaves;
    px_status status = place_body(world, b, pose, &fat, &leaves);
    if (status != PX_OK)
    {
        return status;
    }
    if (leaves)
    {
        /* one proxy is reinserted on its own, as px_dynamic_tree_move_proxy does: no scratch needed */
        int32_t sibling;
        pxi_dynamic_tree_reinsert(world->trees[b->type], &b->proxy, &fat, 1, &sibling, NULL);
        b->fat = fat;
        b->reinserted = true;
    }
    (void)push_moved(world, id.index); /* cannot fail: create_body reserved a place for every slot */
    return PX_OK;
}

typedef struct pose_batch
{
    px_world* world;
    const px_body_id* ids;
    const px_transform* poses;
    pxi_pose_item* items;
} pose_batch;

static void pose_task(int begin, int end, int worker, void* context)
{
    (void)worker;
    const pose_batch* pb = context;
    for (int i = begin; i < end; ++i)
    {
        pxi_pose_item* it = &pb->items[i];
        if (it->claimed)
        {
            it->status = place_body(pb->world, &pb->world->bodies[pb->ids[i].index], &pb->poses[i], &it->fat,
                                    &it->leaves);
        }
    }
}

px_status px_world_set_poses(px_world* world, const px_body_id* ids, const px_transform* poses, int count)
{
    if (world == NULL || world->cookie != PXI_WORLD_COOKIE || count < 0 || (count > 0 && (ids == NULL || poses == NULL)))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (count == 0)
    {
        return PX_OK;
    }
    px_status first = PX_OK;
    if (!PXI_RESERVE(world, world->pose_items, world->pose_item_capacity, count) ||
        !PXI_RESERVE(world, world->reinsert, world->reinsert_capacity, count) ||
        !PXI_RESERVE(world, world->reinsert_fats, world->reinsert_fat_capacity, count) ||
        !PXI_RESERVE(world, world->reinsert_siblings, world->reinsert_sibling_capacity, count))
    {
        /* no scratch: the same, one body after the other (an id named again is refused all the same) */
        for (int i = 0; i < count; ++i)
        {
            const pxi_body* cb = pxi_world_body(world, ids[i]);
            px_status s = cb == NULL || cb->batched ? PX_ERR_INVALID_ARGUMENT : px_world_set_pose(world, ids[i], &poses[i]);
            if (cb != NULL)
            {
                world->bodies[ids[i].index].batched = true;
            }
            first = first == PX_OK ? s : first;
        }
        for (int i = 0; i < count; ++i)
        {
            if (pxi_world_body(world, ids[i]) != NULL)
            {
                world->bodies[ids[i].index].batched = false;
            }
        }
        return first;
    }
    /* claim the bodies: a dead id or one named twice is an error of its element */
    for (int i = 0; i < count; ++i)
    {
        pxi_pose_item* it = &world->pose_items[i];
        const pxi_body* cb = pxi_world_body(world, ids[i]);
        it->claimed = cb != NULL && !cb->batched;
        it->leaves = false;
        it->status = it->claimed ? PX_OK : PX_ERR_INVALID_ARGUMENT;
        if (it->claimed)
        {
            world->bodies[ids[i].index].batched = true;
        }
    }
    /* poses, boxes and fat boxes in parallel (the trees are only read) */
    pose_batch pb = {world, ids, poses, world->pose_items};
    pxi_run_tasks(&world->def.tasks, pose_task, count, PXI_WORLD_MIN_RANGE, &pb);
    /* the bodies that left their fat boxes: the moving tree's from the front of the scratch, the static
     * tree's from the back */
    int n_moving = 0, n_static = 0;
    for (int i = 0; i < count; ++i)
    {
        const pxi_pose_item* it = &world->pose_items[i];
        if (it->claimed)
        {
            pxi_body* b = &world->bodies[ids[i].index];
            b->batched = false;
            if (it->status == PX_OK)
            {
                (void)push_moved(world, ids[i].index); /* cannot fail: create_body reserved every slot */
            }
            if (it->status == PX_OK && it->leaves)
            {
                int slot = b->type == PXI_TREE_MOVING ? n_moving++ : count - 1 - n_static++;
                world->reinsert[slot] = b->proxy;
                world->reinsert_fats[slot] = it->fat;
                b->fat = it->fat;
                b->reinserted = true;
            }
        }
        first = first == PX_OK ? it->status : first;
    }
    pxi_dynamic_tree_reinsert(world->trees[PXI_TREE_MOVING], world->reinsert, world->reinsert_fats, n_moving,
                              world->reinsert_siblings, &world->def.tasks);
    pxi_dynamic_tree_reinsert(world->trees[PXI_TREE_STATIC], world->reinsert + (count - n_static),
                              world->reinsert_fats + (count - n_static), n_static, world->reinsert_siblings,
                              &world->def.tasks);
    return first;
}

px_status px_world_set_filter(px_world* world, px_body_id id, uint32_t category_bits, uint32_t mask_bits)
{
    const pxi_body* cb = pxi_world_body(world, id);
    if (cb == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_body* b = &world->bodies[id.index];
    b->category_bits = category_bits;
    b->mask_bits = mask_bits;
    b->touched = true;
    b->requery = true;
    (void)push_moved(world, id.index); /* cannot fail: create_body reserved a place for every slot */
    return PX_OK;
}

px_status px_world_get_pose(const px_world* world, px_body_id id, px_transform* pose)
{
    if (pose == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const pxi_body* b = pxi_world_body(world, id);
    if (b == NULL)
    {
        px_transform_identity(pose);
        return PX_ERR_INVALID_ARGUMENT;
    }
    *pose = b->pose;
    return PX_OK;
}

void* px_world_body_user_data(const px_world* world, px_body_id id)
{
    const pxi_body* b = pxi_world_body(world, id);
    return b != NULL ? b->user_data : NULL;
}

bool px_world_is_body(const px_world* world, px_body_id id)
{
    return pxi_world_body(world, id) != NULL;
}

int px_world_body_count(const px_world* world)
{
    return world != NULL ? world->body_count : 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Broadphase                                                                                         */

static inline uint64_t pair_key(int32_t a, int32_t b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return (uint64_t)lo << 32 | hi;
}

/* Whether a and b may form a pair (the checks that do not change between updates). */
static bool may_pair(const pxi_body* ba, const pxi_body* bb)
{
    return !(ba->mesh != NULL && bb->mesh != NULL) &&
           !(ba->type == PX_BODY_STATIC && bb->type == PX_BODY_STATIC) && pxi_filter_pass(ba, bb);
}

/* One body's search for new partners: up to PXI_SEEK_INLINE keys in its own slot; a body with more is
 * searched again on the calling thread after the parallel pass. */
#define PXI_SEEK_INLINE 8

typedef struct pxi_seek
{
    const px_world* world;
    const int32_t* bodies;  /* the seekers */
    uint64_t* keys;         /* PXI_SEEK_INLINE per seeker */
    int* counts;            /* partners found per seeker (may exceed PXI_SEEK_INLINE) */
} pxi_seek;

typedef struct pxi_seek_one
{
    const px_world* world;
    int32_t self;
    uint64_t* keys; /* NULL: count only beyond capacity */
    int capacity;
    int count;
} pxi_seek_one;

static bool on_seek(int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_seek_one* q = (pxi_seek_one*)context;
    int32_t other = pxi_proxy_body(user_data);
    const pxi_body* self = &q->world->bodies[q->self];
    const pxi_body* ob = &q->world->bodies[other];
    /* a pair of two seekers is reported by the lower index only */
    if (other == q->self || (ob->seeking && other < q->self) || !may_pair(self, ob))
    {
        return true;
    }
    if (q->count < q->capacity)
    {
        q->keys[q->count] = pair_key(q->self, other);
    }
    q->count++;
    return true;
}

/* The partners of one seeker: a moving body looks in both trees, a static one among the moving bodies. */
static void seek_partners(pxi_seek_one* q)
{
    const px_world* w = q->world;
    const pxi_body* b = &w->bodies[q->self];
    /* a finite fat box cannot make the queries fail */
    if (b->type == PX_BODY_MOVING)
    {
        (void)!px_dynamic_tree_query(w->trees[PXI_TREE_STATIC], &b->fat, on_seek, q);
    }
    (void)!px_dynamic_tree_query(w->trees[PXI_TREE_MOVING], &b->fat, on_seek, q);
}

static void seek_task(int begin, int end, int worker, void* context)
{
    (void)worker;
    const pxi_seek* s = (const pxi_seek*)context;
    for (int i = begin; i < end; ++i)
    {
        pxi_seek_one q = {s->world, s->bodies[i], &s->keys[(size_t)i * PXI_SEEK_INLINE], PXI_SEEK_INLINE, 0};
        seek_partners(&q);
        s->counts[i] = q.count;
    }
}

static int compare_keys(const void* x, const void* y)
{
    uint64_t a = *(const uint64_t*)x, b = *(const uint64_t*)y;
    return (a > b) - (a < b);
}

/* Stage 1: the candidate pairs of this update in world->new_keys, sorted and unique. The seekers are the
 * bodies reinserted into their tree since the last update (they left their fat boxes), and the bodies
 * created or refiltered; each queries the trees on the task system, writing only its own slot. */
static px_status find_new_pairs(px_world* w)
{
    w->new_key_count = 0;
    int seekers = 0;
    for (int i = 0; i < w->moved_count; ++i)
    {
        pxi_body* b = &w->bodies[w->moved[i]];
        if (b->alive && (b->reinserted || b->requery))
        {
            b->seeking = true;
            /* seekers to the front of the moved list (its order does not matter) */
            int32_t t = w->moved[seekers];
            w->moved[seekers] = w->moved[i];
            w->moved[i] = t;
            ++seekers;
        }
    }
    px_status status = PX_OK;
    size_t slots = (size_t)seekers * PXI_SEEK_INLINE;
    if (slots > (size_t)INT32_MAX ||
        !PXI_RESERVE(w, w->seek_keys, w->seek_key_capacity, (int)slots) ||
        !PXI_RESERVE(w, w->seek_counts, w->seek_count_capacity, seekers))
    {
        status = PX_ERR_OUT_OF_MEMORY;
    }
    if (status == PX_OK && seekers > 0)
    {
        pxi_seek s = {w, w->moved, w->seek_keys, w->seek_counts};
        pxi_run_tasks(&w->def.tasks, seek_task, seekers, PXI_WORLD_MIN_RANGE, &s);
        int total = 0;
        for (int i = 0; i < seekers; ++i)
        {
            total += w->seek_counts[i];
        }
        if (!PXI_RESERVE(w, w->new_keys, w->new_key_capacity, total))
        {
            status = PX_ERR_OUT_OF_MEMORY;
        }
        for (int i = 0; i < seekers && status == PX_OK; ++i)
        {
            uint64_t* out = &w->new_keys[w->new_key_count];
            if (w->seek_counts[i] == 0)
            {
                continue;
            }
            if (w->seek_counts[i] <= PXI_SEEK_INLINE)
            {
                memcpy(out, &w->seek_keys[(size_t)i * PXI_SEEK_INLINE], (size_t)w->seek_counts[i] * sizeof(uint64_t));
            }
            else
            {
                /* more partners than the slot holds: the same search again, into the output */
                pxi_seek_one q = {w, w->moved[i], out, w->seek_counts[i], 0};
                seek_partners(&q);
            }
            w->new_key_count += w->seek_counts[i];
        }
    }
    for (int i = 0; i < seekers; ++i)
    {
        w->bodies[w->moved[i]].seeking = false;
    }
    if (status != PX_OK)
    {
        w->new_key_count = 0;
        return status;
    }
    if (w->new_key_count > 1)
    {
        qsort(w->new_keys, (size_t)w->new_key_count, sizeof(uint64_t), compare_keys);
        int n = 1; /* each pair is reported once; unique all the same, the merge relies on it */
        for (int i = 1; i < w->new_key_count; ++i)
        {
            if (w->new_keys[i] != w->new_keys[n - 1])
            {
                w->new_keys[n++] = w->new_keys[i];
            }
        }
        w->new_key_count = n;
    }
    return PX_OK;
}

static void free_mesh_block(px_world* w, pxi_pair* p)
{
    if (p->mesh_block != PX_NULL_INDEX)
    {
        w->mesh_blocks[p->mesh_block].next_free = w->free_mesh_block;
        w->free_mesh_block = p->mesh_block;
        p->mesh_block = PX_NULL_INDEX;
    }
}

/* A fresh pair for key; a mesh pair gets a block of manifolds. False on allocation failure. */
static bool init_pair(px_world* w, pxi_pair* p, uint64_t key)
{
    int32_t a = (int32_t)(key >> 32), b = (int32_t)(key & 0xFFFFFFFFu);
    memset(p, 0, sizeof(*p));
    p->key = key;
    p->generation_a = w->bodies[a].generation;
    p->generation_b = w->bodies[b].generation;
    p->mesh_block = PX_NULL_INDEX;
    p->fresh = true;
    if (w->bodies[a].mesh != NULL || w->bodies[b].mesh != NULL)
    {
        int32_t block = w->free_mesh_block;
        if (block != PX_NULL_INDEX)
        {
            w->free_mesh_block = w->mesh_blocks[block].next_free;
        }
        else
        {
            if (!PXI_RESERVE(w, w->mesh_blocks, w->mesh_block_capacity, w->mesh_block_count + 1))
            {
                return false;
            }
            block = w->mesh_block_count++;
        }
        w->mesh_blocks[block].next_free = PX_NULL_INDEX;
        p->mesh_block = block;
    }
    return true;
}

static bool pair_is_stale(const px_world* w, const pxi_pair* p)
{
    const pxi_body* a = &w->bodies[p->key >> 32];
    const pxi_body* b = &w->bodies[p->key & 0xFFFFFFFFu];
    return !a->alive || !b->alive || a->generation != p->generation_a || b->generation != p->generation_b;
}

/* Stage 2: merge the sorted candidates into the sorted pair set. */
static px_status merge_pairs(px_world* w)
{
    int need = w->pair_count + w->new_key_count;
    if (!PXI_RESERVE(w, w->pairs_next, w->pairs_next_capacity, need))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    /* mesh blocks are the only other thing that grows: reserve the worst case so the merge cannot fail */
    if (!PXI_RESERVE(w, w->mesh_blocks, w->mesh_block_capacity, w->mesh_block_count + w->new_key_count))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    int i = 0, j = 0, n = 0;
    pxi_pair* out = w->pairs_next;
    while (i < w->pair_count || j < w->new_key_count)
    {
        if (j >= w->new_key_count || (i < w->pair_count && w->pairs[i].key < w->new_keys[j]))
        {
            out[n++] = w->pairs[i++];
        }
        else if (i >= w->pair_count || w->new_keys[j] < w->pairs[i].key)
        {
            (void)init_pair(w, &out[n++], w->new_keys[j++]);
        }
        else
        {
            /* already a pair; a slot reused since makes it a new pair */
            out[n] = w->pairs[i++];
            if (pair_is_stale(w, &out[n]))
            {
                free_mesh_block(w, &out[n]);
                (void)init_pair(w, &out[n], w->new_keys[j]);
            }
            ++n;
            ++j;
        }
    }
    pxi_pair* t = w->pairs;
    int tc = w->pair_capacity;
    w->pairs = w->pairs_next;
    w->pair_capacity = w->pairs_next_capacity;
    w->pairs_next = t;
    w->pairs_next_capacity = tc;
    w->pair_count = n;
    return PX_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* Narrowphase                                                                                        */

typedef struct pxi_narrow
{
    px_world* world;
    px_manifold_config config;
} pxi_narrow;

static float deepest(const px_manifold* m)
{
    float d = INFINITY;
    for (int i = 0; i < m->count; ++i)
    {
        d = fminf(d, m->points[i].separation);
    }
    return d;
}

typedef struct pxi_mesh_pair
{
    const pxi_narrow* narrow;
    const pxi_body* convex;
    const pxi_body* mesh_body;
    bool mesh_is_a;
    pxi_mesh_query query; /* the convex shape's frames (mesh_collide_internal.h) */
    pxi_mesh_block* block;
    float rank_step; /* depth step of the ranking: the contact margin (at least the linear slop) */
    int count;
    px_status status;
} pxi_mesh_pair;

/* When more than PX_WORLD_MAX_MESH_MANIFOLDS triangles touch, the kept ones are the deepest, with depths
 * compared in steps of the contact margin and ties going to the lower triangle index: a body lying flat on many
 * triangles keeps the same ones from step to step instead of swapping them with every tiny tilt (which would
 * lose a solver's warm start), and the result does not depend on the order the BVH reports triangles in. */
static float depth_rank(float deepest_separation, float step)
{
    return floorf(deepest_separation / step);
}

static bool ranks_before(float rank_a, int32_t triangle_a, float rank_b, int32_t triangle_b)
{
    return rank_a < rank_b || (rank_a == rank_b && triangle_a < triangle_b);
}

static bool on_mesh_triangle(int32_t triangle, void* context)
{
    pxi_mesh_pair* mp = (pxi_mesh_pair*)context;
    px_manifold m;
    px_status s = pxi_mesh_triangle_manifold(&mp->query, mp->mesh_body->mesh, triangle, mp->mesh_is_a,
                                             &mp->narrow->config, &m, NULL);
    if (s < 0 || m.count == 0)
    {
        return true; /* a degenerate triangle the contact query refuses is skipped */
    }
    if (s > 0 && mp->status == PX_OK)
    {
        mp->status = s;
    }
    pxi_mesh_block* blk = mp->block;
    int slot = mp->count;
    if (slot == PX_WORLD_MAX_MESH_MANIFOLDS)
    {
        /* replace the last-ranked kept one if this ranks before it */
        float step = mp->rank_step;
        int worst = 0;
        float worst_rank = depth_rank(deepest(&blk->manifolds[0]), step);
        for (int i = 1; i < slot; ++i)
        {
            float r = depth_rank(deepest(&blk->manifolds[i]), step);
            if (ranks_before(worst_rank, blk->triangles[worst], r, blk->triangles[i]))
            {
                worst = i;
                worst_rank = r;
            }
        }
        if (!ranks_before(depth_rank(deepest(&m), step), triangle, worst_rank, blk->triangles[worst]))
        {
            return true;
        }
        slot = worst;
    }
    else
    {
        mp->count++;
    }
    blk->manifolds[slot] = m;
    blk->triangles[slot] = triangle;
    return true;
}

static px_status narrow_mesh_pair(const pxi_narrow* n, pxi_pair* p, const pxi_body* a, const pxi_body* b)
{
    px_world* w = n->world;
    pxi_mesh_pair mp;
    mp.narrow = n;
    mp.mesh_is_a = a->mesh != NULL;
    mp.mesh_body = mp.mesh_is_a ? a : b;
    mp.convex = mp.mesh_is_a ? b : a;
    mp.block = &w->mesh_blocks[p->mesh_block];
    mp.rank_step = fmaxf(n->config.margin, PX_LINEAR_SLOP);
    mp.count = 0;
    mp.status = PX_OK;
    px_status qs = pxi_mesh_query_init(mp.mesh_body->mesh, &mp.mesh_body->pose, &mp.convex->shape, &mp.convex->pose,
                                       &mp.query);
    if (qs < 0)
    {
        mp.status = qs; /* not expected: the body's shape and poses were accepted */
    }
    else if (px_mesh_vertices(mp.mesh_body->mesh) != NULL && px_mesh_indices(mp.mesh_body->mesh) != NULL)
    {
        /* the convex shape's box in the mesh's frame, grown by the margin, as px_mesh_shape_contacts culls */
        px_aabb q;
        (void)pxi_mesh_query_reach(&mp.query, n->config.margin, &q);
        px_status s = px_mesh_query_aabb(mp.mesh_body->mesh, &q, on_mesh_triangle, &mp);
        if (s < 0)
        {
            mp.count = 0;
            mp.status = s;
        }
    }
    /* triangle order */
    pxi_mesh_block* blk = mp.block;
    for (int i = 1; i < mp.count; ++i)
    {
        px_manifold m = blk->manifolds[i];
        int32_t t = blk->triangles[i];
        int j = i - 1;
        while (j >= 0 && blk->triangles[j] > t)
        {
            blk->manifolds[j + 1] = blk->manifolds[j];
            blk->triangles[j + 1] = blk->triangles[j];
            --j;
        }
        blk->manifolds[j + 1] = m;
        blk->triangles[j + 1] = t;
    }
    p->contact_count = (int16_t)mp.count;
    return mp.status;
}

static void narrow_pair(const pxi_narrow* n, pxi_pair* p)
{
    px_world* w = n->world;
    p->remove = false;
    if (pair_is_stale(w, p))
    {
        p->remove = true;
        return;
    }
    const pxi_body* a = &w->bodies[p->key >> 32];
    const pxi_body* b = &w->bodies[p->key & 0xFFFFFFFFu];
    bool was_touching = p->touching;
    if (!p->fresh && !a->touched && !b->touched)
    {
        /* neither body moved nor changed filters: last update's result stands */
        p->touching = was_touching; /* began is recomputed false in the gather */
        p->status = PX_OK;
        return;
    }
    if (!pxi_filter_pass(a, b))
    {
        p->remove = true;
        return;
    }
    if (!px_aabb_overlap(&a->fat, &b->fat))
    {
        p->remove = true;
        return;
    }
    /* tight boxes farther apart than the margin along an axis: no contact, and no need to ask */
    float m = n->config.margin;
    for (int k = 0; k < 3; ++k)
    {
        if (a->aabb.min[k] > b->aabb.max[k] + m || b->aabb.min[k] > a->aabb.max[k] + m)
        {
            p->contact_count = 0;
            p->status = PX_OK;
            return;
        }
    }
    px_status s;
    if (p->mesh_block != PX_NULL_INDEX)
    {
        s = narrow_mesh_pair(n, p, a, b);
    }
    else
    {
        s = pxi_manifold_world_cached(&a->shape, &a->pose, &b->shape, &b->pose, &n->config, &p->cache,
                                      &p->manifold);
        p->contact_count = (int16_t)(s >= 0 && p->manifold.count > 0 ? 1 : 0);
    }
    p->status = s;
}

static void narrow_task(int begin, int end, int worker, void* context)
{
    (void)worker;
    const pxi_narrow* n = (const pxi_narrow*)context;
    for (int i = begin; i < end; ++i)
    {
        narrow_pair(n, &n->world->pairs[i]);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Update                                                                                             */

px_status px_world_update(px_world* world)
{
    if (world == NULL || world->cookie != PXI_WORLD_COOKIE)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_world* w = world;
    /* Trees grown by reinsertions drift from good SAH quality; a periodic top-down rebuild of the moving
     * bodies' tree (ids and fat boxes kept) pays for itself many times (bench_world: ~1.3x per step). */
    if (w->def.rebuild_interval > 0 && ++w->updates_since_rebuild >= w->def.rebuild_interval &&
        px_dynamic_tree_proxy_count(w->trees[PXI_TREE_MOVING]) > 64)
    {
        w->updates_since_rebuild = 0;
        (void)!px_dynamic_tree_rebuild(w->trees[PXI_TREE_MOVING]); /* out of memory: the tree stays as it is */
    }
    px_status status = find_new_pairs(w);
    if (status == PX_OK)
    {
        status = merge_pairs(w);
    }
    if (status != PX_OK)
    {
        /* The last contacts stand. The trees' moved marks may be gone, so the bodies moved since the last
         * update look for their pairs in both trees at the retry. */
        for (int i = 0; i < w->moved_count; ++i)
        {
            w->bodies[w->moved[i]].requery = true;
        }
        return status;
    }
    /* the output can hold every pair's contacts: reserve before the narrowphase changes anything */
    /* every mesh pair holds one of the mesh blocks ever made: a bound without a pass over the pairs */
    int64_t most64 = (int64_t)w->pair_count + (int64_t)(PX_WORLD_MAX_MESH_MANIFOLDS - 1) * w->mesh_block_count;
    int most = most64 > INT32_MAX ? INT32_MAX : (int)most64;
    if (!PXI_RESERVE(w, w->contacts, w->contact_capacity, most))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }

    pxi_narrow n;
    n.world = w;
    n.config = px_manifold_default_config();
    n.config.margin = w->def.contact_margin;
    pxi_run_tasks(&w->def.tasks, narrow_task, w->pair_count, PXI_WORLD_MIN_RANGE, &n);

    /* compaction and output, in key order */
    px_world_stats st;
    memset(&st, 0, sizeof(st));
    int kept = 0, nc = 0;
    for (int i = 0; i < w->pair_count; ++i)
    {
        pxi_pair* p = &w->pairs[i];
        if (p->remove)
        {
            free_mesh_block(w, p);
            continue;
        }
        if (p->status > 0)
        {
            st.warnings++;
            if (status == PX_OK)
            {
                status = p->status;
            }
        }
        st.new_pairs += p->fresh ? 1 : 0;
        bool began = !p->touching && p->contact_count > 0;
        p->touching = p->contact_count > 0;
        p->fresh = false;
        int32_t ia = (int32_t)(p->key >> 32), ib = (int32_t)(p->key & 0xFFFFFFFFu);
        px_body_id ida = {ia, p->generation_a}, idb = {ib, p->generation_b};
        for (int k = 0; k < p->contact_count; ++k)
        {
            px_world_contact* c = &w->contacts[nc++];
            c->body_a = ida;
            c->body_b = idb;
            c->began = began;
            if (p->mesh_block != PX_NULL_INDEX)
            {
                c->triangle = w->mesh_blocks[p->mesh_block].triangles[k];
                c->manifold = w->mesh_blocks[p->mesh_block].manifolds[k];
            }
            else
            {
                c->triangle = PX_NULL_INDEX;
                c->manifold = p->manifold;
            }
            st.point_count += c->manifold.count;
        }
        st.touching_pairs += p->contact_count > 0 ? 1 : 0;
        if (kept != i)
        {
            w->pairs[kept] = *p;
        }
        ++kept;
    }
    w->pair_count = kept;
    w->contact_count = nc;
    for (int i = 0; i < w->moved_count; ++i)
    {
        pxi_body* b = &w->bodies[w->moved[i]];
        b->moved = false;
        b->touched = false;
        b->requery = false;
        b->reinserted = false;
        px_v3_copy(b->pose.p, b->last_p);
    }
    w->moved_count = 0;
    st.body_count = w->body_count;
    st.moving_count = w->moving_count;
    st.pair_count = kept;
    st.contact_count = nc;
    st.tree_height_moving = px_dynamic_tree_height(w->trees[PXI_TREE_MOVING]);
    st.tree_height_static = px_dynamic_tree_height(w->trees[PXI_TREE_STATIC]);
    w->stats = st;
    return status;
}

const px_world_contact* px_world_contacts(const px_world* world, int* count)
{
    if (count != NULL)
    {
        *count = world != NULL ? world->contact_count : 0;
    }
    return world != NULL ? world->contacts : NULL;
}

px_world_stats px_world_get_stats(const px_world* world)
{
    px_world_stats st;
    if (world == NULL)
    {
        memset(&st, 0, sizeof(st));
        return st;
    }
    return world->stats;
}
