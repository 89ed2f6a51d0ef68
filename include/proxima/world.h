/// @file world.h
/// The collision world: many bodies, each a convex shape or a triangle mesh with a pose, and the questions a
/// physics engine, a robot planner or a game asks of them every step.
///
/// - px_world_update: which pairs of bodies touch, and where (contact manifolds with feature ids).
/// - px_world_ray_cast / px_world_ray_cast_all: what a ray hits.
/// - px_world_overlap: which bodies a posed shape overlaps.
/// - px_world_shape_cast: where a moving shape first hits something.
/// - px_world_proximity / px_world_body_proximity: every pair of bodies (or every body near a given one)
///   closer than a threshold, with the distance and the closest points: the robotics safety query.
///
/// Bodies are static (level geometry, the environment: they do not move, or rarely) or moving; each kind
/// lives in its own dynamic AABB tree (dynamic_tree.h), so a step only touches the tree of moving bodies.
/// Pairs are never formed between two static bodies, nor between two meshes. A mesh body may be static or
/// moving; its px_mesh is borrowed (the caller keeps it alive and unchanged while the body exists), and so
/// are the points of a hull shape.
///
/// Collision filtering: bodies A and B are paired only when (A.category_bits & B.mask_bits) != 0 and
/// (B.category_bits & A.mask_bits) != 0. Queries take a mask and consider the bodies whose category_bits
/// share a bit with it.
///
/// Determinism: every result comes in a fixed order (pairs by (lower body index, higher body index), hits by
/// distance then body index) and is bit-identical whatever the task system and its thread count. The
/// narrowphase of px_world_update and the proximity queries run their pairs through the world's task system
/// (task.h), each pair writing only its own output.
///
/// Threading: one thread at a time may change a world (create, destroy, set_pose, set_filter, update,
/// px_world_proximity, which keeps its candidate pairs in the world's scratch storage); the other queries (ray
/// casts, overlap, shape cast, px_world_body_proximity) allocate nothing and may run on any number of threads
/// at once while nobody changes the world. px_world_update and px_world_proximity allocate only when their
/// storage has to grow (and px_world_update for the periodic tree rebuild, see rebuild_interval).
#pragma once

#include "proxima/base.h"
#include "proxima/cast.h"
#include "proxima/manifold.h"
#include "proxima/mesh.h"
#include "proxima/shapes.h"
#include "proxima/task.h"
#include "proxima/transform.h"

#ifdef __cplusplus
extern "C"
{
#endif

/// Largest number of bodies in one world.
#define PX_WORLD_MAX_BODIES (1 << 24)
/// Most triangle manifolds a convex-vs-mesh pair keeps per step: when more triangles touch, the deepest, with
/// depths compared in steps of the world's contact margin (at least PX_LINEAR_SLOP) and ties going to the lower
/// triangle index, so a body lying on many triangles keeps the same ones from step to step.
#define PX_WORLD_MAX_MESH_MANIFOLDS 16

    /// A collision world. Opaque.
    typedef struct px_world px_world;

    /// Names a body. index is its slot (stable until the body is destroyed); generation tells a live body from
    /// an earlier one that had the slot, so an id of a destroyed body is refused rather than misread. An
    /// all-zero id is never a body (generations start at 1).
    typedef struct px_body_id
    {
        int32_t index;       ///< Slot of the body [Limit: 0 .. PX_WORLD_MAX_BODIES - 1]
        uint32_t generation; ///< Incremented each time the slot is reused; 0 = no body
    } px_body_id;

    /// Whether a body moves.
    typedef enum px_body_type
    {
        PX_BODY_STATIC = 0, ///< Level geometry; may be moved by px_world_set_pose, but it costs a reinsertion
        PX_BODY_MOVING = 1, ///< Moves every step
    } px_body_type;

    /// Options of px_world_create. Initialize with px_world_default_def().
    typedef struct px_world_def
    {
        px_allocator allocator; ///< Memory for the world, its trees and pairs (all-zero: malloc/free)
        /// How far a body's box in the broadphase extends beyond its shape's box. Larger: fewer tree updates,
        /// more pairs to test. Default 0.1. [Units: length] [Limit: >= 0, finite]
        float aabb_margin;
        /// Contact points are kept up to this separation (speculative contacts for a solver), and pairs are
        /// reported by px_world_update while their shapes are at most this far apart. Default 4 *
        /// PX_LINEAR_SLOP (2 cm). [Units: length] [Limit: >= 0, finite]
        float contact_margin;
        /// Runs the narrowphase of px_world_update and the proximity queries (all-zero: the calling thread).
        /// The world keeps the task system until it is destroyed.
        px_task_system tasks;
        /// Every this many updates, the moving bodies' tree is rebuilt top-down (px_dynamic_tree_rebuild), as
        /// trees grown by reinsertions lose quality; 0 never rebuilds. The rebuild allocates a scratch array
        /// (when that fails, the tree stays as it is). Default 30. [Limit: >= 0]
        int rebuild_interval;
        int internal_value; ///< Set by px_world_default_def(). Do not set.
    } px_world_def;

    /// Options of px_world_create_body. Initialize with px_body_default_def().
    typedef struct px_body_def
    {
        px_body_type type;       ///< Default PX_BODY_MOVING
        px_shape shape;          ///< The body's convex shape (used when mesh is NULL). Default a unit sphere.
        const px_mesh* mesh;     ///< A triangle mesh instead of a convex shape (borrowed). Default NULL.
        px_transform pose;       ///< World pose (any non-zero quaternion; normalized). Default identity.
        void* user_data;         ///< Returned by px_world_body_user_data. Default NULL.
        uint32_t category_bits;  ///< What the body is. Default 1.
        uint32_t mask_bits;      ///< What it collides with. Default all bits.
        int internal_value;      ///< Set by px_body_default_def(). Do not set.
    } px_body_def;

    /// Default world options: malloc/free, aabb margin 0.1, contact margin 4 * PX_LINEAR_SLOP, no threads,
    /// moving tree rebuilt every 30 updates.
    PX_API px_world_def px_world_default_def(void);

    /// Default body: a moving unit sphere at the origin, category 1, mask all.
    PX_API px_body_def px_body_default_def(void);

    /// Create an empty world.
    /// @param[in]  def    Options, or NULL for defaults
    /// @param[out] world  The new world; NULL on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world, def not from px_world_default_def() or out of its
    ///         limits, half an allocator, a task system with enqueue but no finish); PX_ERR_OUT_OF_MEMORY.
    PX_API PX_NODISCARD px_status px_world_create(const px_world_def* def, px_world** world);

    /// Destroy a world and everything in it (meshes and hull points are the caller's). NULL is ignored.
    PX_API void px_world_destroy(px_world* world);

    /// Add a body.
    /// @param[out] id  Its id; all-zero on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world, def or id, def not from px_body_default_def(), a bad
    ///         type, a shape that px_shape_validate refuses when mesh is NULL), PX_ERR_NON_FINITE (NaN or Inf
    ///         in the pose), PX_ERR_DEGENERATE_INPUT (zero quaternion), PX_ERR_OUT_OF_MEMORY,
    ///         PX_ERR_UNSUPPORTED (more than PX_WORLD_MAX_BODIES bodies), PX_ERR_OUT_OF_RANGE (a shape whose
    ///         extent and radius reach half of PX_MAX_PAIR_SIZE: it could pair with nothing of its size).
    ///         The world is unchanged on errors.
    PX_API PX_NODISCARD px_status px_world_create_body(px_world* world, const px_body_def* def, px_body_id* id);

    /// Remove a body; its pairs and contacts disappear at the next update.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world, an id that names no live body)
    PX_API PX_NODISCARD px_status px_world_destroy_body(px_world* world, px_body_id id);

    /// Move a body to a new pose. A moving body's broadphase box is stretched 4 times its displacement ahead,
    /// so a body that keeps moving the same way rarely needs a tree update. Never allocates.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world or pose, a dead id), PX_ERR_NON_FINITE,
    ///         PX_ERR_DEGENERATE_INPUT (zero quaternion). The body is unchanged on errors.
    PX_API PX_NODISCARD px_status px_world_set_pose(px_world* world, px_body_id id, const px_transform* pose);

    /// Move many bodies at once: what px_world_set_pose(world, ids[i], &poses[i]) does for the first element
    /// naming each body, with the poses, boxes and tree searches spread over the world's task system (a
    /// physics engine's end of step). Every valid element is applied; an invalid one (a dead id, an id named
    /// again later in the call, a non-finite or zero-quaternion pose) changes nothing. The contacts of the
    /// next update are those of that loop of px_world_set_pose; the trees' shapes may differ (when 32 or more
    /// bodies leave their fat boxes, each is placed against the tree without the others), never with the
    /// thread count. Allocates scratch on the first calls; without memory it falls back to the loop.
    /// @return PX_OK; the status of the first invalid element by index (PX_ERR_INVALID_ARGUMENT,
    ///         PX_ERR_NON_FINITE, PX_ERR_DEGENERATE_INPUT); PX_ERR_INVALID_ARGUMENT for a NULL world, count < 0,
    ///         or NULL arrays with count > 0 (nothing moved)
    PX_API PX_NODISCARD px_status px_world_set_poses(px_world* world, const px_body_id* ids,
                                                     const px_transform* poses, int count);

    /// Change a body's filter bits; pairs that no longer pass are dropped at the next update, and pairs that
    /// now pass are found. Never allocates.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world, a dead id)
    PX_API PX_NODISCARD px_status px_world_set_filter(px_world* world, px_body_id id, uint32_t category_bits,
                                                      uint32_t mask_bits);

    /// A body's pose (normalized quaternion).
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL world or pose, a dead id; the pose is then the identity)
    PX_API PX_NODISCARD px_status px_world_get_pose(const px_world* world, px_body_id id, px_transform* pose);

    /// A body's user data (NULL for a dead id).
    PX_API void* px_world_body_user_data(const px_world* world, px_body_id id);

    /// Whether id names a live body of the world.
    PX_API bool px_world_is_body(const px_world* world, px_body_id id);

    /// Number of live bodies (0 for NULL).
    PX_API int px_world_body_count(const px_world* world);

    /// One touching pair after px_world_update. For a convex pair there is one contact with its manifold; a
    /// convex shape against a mesh gives one contact per touching triangle (up to PX_WORLD_MAX_MESH_MANIFOLDS,
    /// chosen as that constant says), each with that triangle's manifold. A triangle manifold whose witness lies
    /// only on the triangle's inactive edges (px_mesh_active_edges) and whose normal is not the face normal
    /// takes the face normal instead, and one pointing over an edge's neighbour the normal
    /// px_mesh_shape_contacts gives it, the manifold then being made along that normal, so bodies slide
    /// over flat meshes without catching on the edges between triangles.
    typedef struct px_world_contact
    {
        px_body_id body_a;    ///< The body with the lower index (for a mesh pair: still the lower index)
        px_body_id body_b;    ///< The other body
        int32_t triangle;     ///< The mesh triangle for a mesh pair, PX_NULL_INDEX otherwise
        /// True when the pair had no contact at the previous update (contact began)
        bool began;
        /// Normal from body_a to body_b; points with separation <= contact_margin, feature ids stable while
        /// the same features touch
        px_manifold manifold;
    } px_world_contact;

    /// Counters of the last px_world_update.
    typedef struct px_world_stats
    {
        int body_count;          ///< Live bodies
        int moving_count;        ///< Moving bodies
        int pair_count;          ///< Pairs whose broadphase boxes overlap (tested by the narrowphase)
        int touching_pairs;      ///< Pairs with at least one contact point
        int contact_count;       ///< Entries of px_world_contacts
        int point_count;         ///< Contact points in all manifolds
        int new_pairs;           ///< Pairs found by this update's broadphase
        int warnings;            ///< Narrowphase calls that returned a warning (best result used)
        int tree_height_moving;  ///< Height of the moving bodies' tree
        int tree_height_static;  ///< Height of the static bodies' tree
    } px_world_stats;

    /// One step of collision detection: update the broadphase from the poses set since the last update, find
    /// the new pairs, drop the pairs whose boxes no longer overlap or that the filters now refuse, and compute
    /// the manifold of every pair (warm-started from the pair's previous step) across the task system.
    /// @return PX_OK; PX_WARN_MAX_ITERATIONS or PX_WARN_CAPACITY when some pair's narrowphase returned a
    ///         warning (its best result is used; see stats.warnings); PX_ERR_INVALID_ARGUMENT (NULL world);
    ///         PX_ERR_OUT_OF_MEMORY (the pair storage could not grow: the contacts of the previous update are
    ///         kept and the update may be retried).
    PX_API PX_NODISCARD px_status px_world_update(px_world* world);

    /// The contacts of the last px_world_update, sorted by (body_a index, body_b index, triangle). The array
    /// belongs to the world and is valid until the next update or body destruction.
    /// @param[out] count  Number of contacts (0 for NULL world)
    PX_API const px_world_contact* px_world_contacts(const px_world* world, int* count);

    /// Counters of the last update (all zero before the first one and for NULL).
    PX_API px_world_stats px_world_get_stats(const px_world* world);

    /// A ray hit on a body.
    typedef struct px_world_ray_hit
    {
        px_body_id body; ///< The body hit; all-zero on a miss
        px_ray_hit hit;  ///< t, point, normal (world); triangle for a mesh body, else PX_NULL_INDEX
    } px_world_ray_hit;

    /// The closest hit of a ray among the bodies whose category shares a bit with mask; among equal t, the lowest
    /// body index. A ray that starts inside a convex shape hits it at t = 0.
    /// @param[out] result  Always written; result->hit.hit == false on a miss
    /// @return PX_OK; PX_WARN_MAX_ITERATIONS when a GJK ray cast hit its bound (best estimate used);
    ///         PX_ERR_INVALID_ARGUMENT (NULL world, ray or result), PX_ERR_NON_FINITE, PX_ERR_DEGENERATE_INPUT
    ///         (zero direction) with a miss written.
    PX_API PX_NODISCARD px_status px_world_ray_cast(const px_world* world, const px_ray* ray, uint32_t mask,
                                                    px_world_ray_hit* result);

    /// Every body a ray hits (its closest hit on each body), sorted by t then body index.
    /// @param[out] hits      [capacity] hits; may be NULL when capacity is 0
    /// @param[out] count     Number of bodies hit (may exceed capacity: the capacity nearest are written)
    /// @return PX_OK; PX_WARN_CAPACITY when *count > capacity; the errors of px_world_ray_cast (count 0).
    PX_API PX_NODISCARD px_status px_world_ray_cast_all(const px_world* world, const px_ray* ray, uint32_t mask,
                                                        px_world_ray_hit* hits, int capacity, int* count);

    /// Every body that a posed convex shape touches or overlaps, in increasing body index.
    /// @param[out] bodies  [capacity] ids; may be NULL when capacity is 0
    /// @param[out] count   Number of bodies overlapped (may exceed capacity: the lowest indices are written)
    /// @return PX_OK; PX_WARN_CAPACITY; PX_WARN_MAX_ITERATIONS; PX_ERR_INVALID_ARGUMENT (NULL world, shape,
    ///         pose or count, bodies NULL with capacity > 0, a bad shape), PX_ERR_NON_FINITE,
    ///         PX_ERR_DEGENERATE_INPUT (count 0).
    PX_API PX_NODISCARD px_status px_world_overlap(const px_world* world, const px_shape* shape,
                                                   const px_transform* pose, uint32_t mask, px_body_id* bodies,
                                                   int capacity, int* count);

    /// First hit of a convex shape moving by a translation (orientation fixed).
    typedef struct px_world_cast_result
    {
        px_body_id body;      ///< The body hit; all-zero on a miss
        bool hit;             ///< Something is hit along the translation
        bool initial_overlap; ///< The shape already touches or overlaps a body at fraction 0
        float fraction;       ///< First contact at pose + fraction * translation [Limit: 0 .. 1]
        vec3 point;           ///< Contact point (world)
        vec3 normal;          ///< Unit, from the body hit towards the moving shape (zero on initial overlap)
        int32_t triangle;     ///< Triangle for a mesh body, else PX_NULL_INDEX
    } px_world_cast_result;

    /// Sweep a posed convex shape by a translation through the world; the first body hit (lowest fraction, then
    /// lowest body index) among those whose category shares a bit with mask. Tolerances as px_shape_cast_world
    /// and px_mesh_shape_cast: never past the contact.
    /// @return PX_OK; PX_WARN_MAX_ITERATIONS or PX_WARN_DEGENERATE from a cast (best estimate used);
    ///         PX_ERR_INVALID_ARGUMENT, PX_ERR_NON_FINITE, PX_ERR_DEGENERATE_INPUT with a miss written.
    PX_API PX_NODISCARD px_status px_world_shape_cast(const px_world* world, const px_shape* shape,
                                                      const px_transform* pose, const vec3 translation,
                                                      uint32_t mask, px_world_cast_result* result);

    /// A pair of bodies closer than a threshold.
    typedef struct px_world_proximity_pair
    {
        px_body_id body_a;  ///< Lower body index
        px_body_id body_b;  ///< Higher body index
        float distance;     ///< >= 0; 0 when touching or overlapping
        vec3 point_a;       ///< Closest point on body_a (world)
        vec3 point_b;       ///< Closest point on body_b (world)
        int32_t triangle;   ///< The closest triangle when one body is a mesh, else PX_NULL_INDEX
    } px_world_proximity_pair;

    /// Every pair of bodies that the filters allow to collide (at least one of them moving, not two meshes)
    /// whose distance is at most threshold, sorted by (body_a index, body_b index), with exact GJK distances
    /// and witness points. Runs its pairs across the world's task system. Poses are those last set (no
    /// px_world_update needed).
    /// @param[out] pairs  [capacity]; may be NULL when capacity is 0
    /// @param[out] count  Number of pairs within threshold (may exceed capacity: the first capacity in order)
    /// @return PX_OK; PX_WARN_CAPACITY; PX_WARN_MAX_ITERATIONS; PX_ERR_INVALID_ARGUMENT (NULL world or count,
    ///         threshold < 0 or NaN, pairs NULL with capacity > 0); PX_ERR_OUT_OF_MEMORY (scratch for the
    ///         candidate pairs); PX_ERR_OUT_OF_RANGE (a candidate pair larger than PX_MAX_PAIR_SIZE).
    PX_API PX_NODISCARD px_status px_world_proximity(px_world* world, float threshold,
                                                     px_world_proximity_pair* pairs, int capacity, int* count);

    /// Every body within threshold of the given body (filters as for pairs, any other body type, static
    /// ones included), sorted by the other body's index; body_a is always the given body.
    /// @return as px_world_proximity, plus PX_ERR_INVALID_ARGUMENT for a dead id.
    PX_API PX_NODISCARD px_status px_world_body_proximity(const px_world* world, px_body_id body, float threshold,
                                                          px_world_proximity_pair* pairs, int capacity,
                                                          int* count);

#ifdef __cplusplus
}
#endif
