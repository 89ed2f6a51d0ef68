/* The collision world's internals, shared by world.c (bodies, broadphase, px_world_update) and
 * world_query.c (ray casts, overlap, shape casts, proximity). */
#pragma once

#include "../core/core_internal.h"
#include "../core/px_math.h"

#include "proxima/dynamic_tree.h"
#include "proxima/world.h"

#define PXI_WORLD_COOKIE 0x57524C44 /* "WRLD" */
#define PXI_BODY_COOKIE 0x424F4459  /* "BODY" */

/* The two trees of a world, indexed by px_body_type. */
#define PXI_TREE_STATIC 0
#define PXI_TREE_MOVING 1

/* A body slot. Dead slots are chained through next_free and have alive == false; their generation is the
 * one the next body in the slot will get minus one. */
typedef struct pxi_body
{
    px_shape shape;        /* the convex shape (mesh == NULL) */
    const px_mesh* mesh;   /* or a mesh */
    px_transform pose;     /* normalized */
    px_aabb aabb;          /* tight world box of the shape or mesh at pose */
    px_aabb fat;           /* its fat box in the tree (a copy, refreshed when the proxy is reinserted) */
    vec3 last_p;           /* position at the last update (moving bodies: predictive displacement) */
    void* user_data;
    uint32_t category_bits;
    uint32_t mask_bits;
    uint32_t generation;   /* of the live body, or of the last one that had the slot */
    int32_t proxy;         /* leaf in trees[type] */
    int32_t next_free;     /* free chain, PX_NULL_INDEX at its end */
    uint8_t type;          /* px_body_type */
    bool alive;
    bool moved;            /* pose set since the last update: in the world's moved list */
    bool touched;          /* pose or filter changed since the last update: its pairs need a narrowphase */
    bool requery;          /* created or filter changed: look for its pairs in both trees */
    bool reinserted;       /* its proxy was reinserted (left its fat box) since the last update */
    bool seeking;          /* looking for partners in this update's broadphase */
    bool batched;          /* named by the px_world_set_poses call in progress */
} pxi_body;

/* One element of a px_world_set_poses call. */
typedef struct pxi_pose_item
{
    px_aabb fat;      /* the new fat box, when the body leaves its old one */
    px_status status; /* of the element */
    bool claimed;     /* its id named a live body not named before in the call */
    bool leaves;      /* the new box is not inside the fat box: the proxy is reinserted */
} pxi_pose_item;

/* A pair of bodies whose broadphase boxes overlap, kept from update to update. */
typedef struct pxi_pair
{
    uint64_t key;             /* (uint64_t)low index << 32 | high index */
    uint32_t generation_a;    /* generations of the two bodies when the pair was made: a slot reused */
    uint32_t generation_b;    /* since then makes the pair stale */
    px_simplex_cache cache;   /* GJK warm start of a convex pair */
    px_manifold manifold;     /* convex pair: this step's manifold */
    int32_t mesh_block;       /* mesh pair: index of its block in world->mesh_blocks, else PX_NULL_INDEX */
    int16_t contact_count;    /* contacts this pair produced at the last narrowphase (0 .. 8) */
    bool touching;            /* had contacts at the last narrowphase */
    bool remove;              /* set by the narrowphase: boxes apart, filters refuse, or a body is gone */
    bool fresh;               /* found by this update's broadphase: its narrowphase cannot be skipped */
    px_status status;         /* of the last narrowphase */
} pxi_pair;

/* Manifolds of one convex-vs-mesh pair. */
typedef struct pxi_mesh_block
{
    px_manifold manifolds[PX_WORLD_MAX_MESH_MANIFOLDS];
    int32_t triangles[PX_WORLD_MAX_MESH_MANIFOLDS];
    int32_t next_free;
} pxi_mesh_block;

struct px_world
{
    int cookie;
    px_allocator allocator;
    px_world_def def;
    px_dynamic_tree* trees[2];

    pxi_body* bodies;
    int body_capacity;
    int body_high;      /* slots [0, body_high) have been used */
    int body_count;     /* live */
    int moving_count;
    int32_t free_body;  /* head of the free chain */

    int32_t* moved;     /* bodies whose pose was set since the last update */
    int moved_count;
    int moved_capacity;

    pxi_pair* pairs;    /* sorted by key */
    int pair_count;
    int pair_capacity;
    pxi_pair* pairs_next; /* merge target, swapped with pairs */
    int pairs_next_capacity;

    uint64_t* seek_keys; /* PXI_SEEK_INLINE candidate keys per seeking body (world.c) */
    int seek_key_capacity;
    int* seek_counts;
    int seek_count_capacity;

    uint64_t* new_keys; /* candidate pairs of an update */
    int new_key_count;
    int new_key_capacity;

    pxi_mesh_block* mesh_blocks;
    int mesh_block_count;
    int mesh_block_capacity;
    int32_t free_mesh_block;

    px_world_contact* contacts;
    int contact_count;
    int contact_capacity;

    pxi_pose_item* pose_items; /* scratch of px_world_set_poses */
    int pose_item_capacity;
    int32_t* reinsert;         /* its proxies to reinsert, their fat boxes, and the trees' sibling scratch */
    px_aabb* reinsert_fats;
    int32_t* reinsert_siblings;
    int reinsert_capacity;
    int reinsert_fat_capacity;
    int reinsert_sibling_capacity;

    px_world_proximity_pair* proximity; /* scratch of px_world_proximity */
    int proximity_capacity;

    px_world_stats stats;
    int updates_since_rebuild;
};

/* The live body named by id, or NULL. */
static inline const pxi_body* pxi_world_body(const px_world* world, px_body_id id)
{
    if (world == NULL || id.index < 0 || id.index >= world->body_high)
    {
        return NULL;
    }
    const pxi_body* b = &world->bodies[id.index];
    return (b->alive && b->generation == id.generation) ? b : NULL;
}

static inline px_body_id pxi_body_id(const px_world* world, int32_t index)
{
    px_body_id id;
    id.index = index;
    id.generation = world->bodies[index].generation;
    return id;
}

/* Whether the filters of two bodies let them collide. */
static inline bool pxi_filter_pass(const pxi_body* a, const pxi_body* b)
{
    return (a->category_bits & b->mask_bits) != 0u && (b->category_bits & a->mask_bits) != 0u;
}

/* Body index stored as a proxy's user data. */
static inline int32_t pxi_proxy_body(void* user_data)
{
    return (int32_t)(intptr_t)user_data;
}

/* Grow an array of elem_size elements to hold at least need (doubling); false on allocation failure (the
 * array is then unchanged). */
bool pxi_world_reserve(px_world* world, void** array, int* capacity, int need, size_t elem_size);
