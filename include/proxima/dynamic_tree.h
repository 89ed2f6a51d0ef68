/// @file dynamic_tree.h
/// A dynamic AABB tree for moving proxies: the broadphase of a world.
///
/// Each proxy is a leaf holding a "fat" box: the caller's tight box grown by a margin, and stretched along
/// the proxy's predicted displacement when it moves. Moving a proxy whose tight box still fits in its fat box
/// costs nothing; only a proxy that leaves its fat box is taken out of the tree and inserted again. Insertion
/// walks down from the root towards the sibling of lowest surface-area (SAH) cost, then the path back to the
/// root is refitted and rebalanced by rotations that keep the two subtrees of every node within one level of
/// each other, so sorted, clustered or coincident boxes cannot degrade the tree into a list.
/// The path of a newly created proxy also gets rotations that shrink the surface area within that balance.
///
/// Nodes live in one pool with a free list; the pool doubles through the tree's allocator when it is full.
/// A proxy id is the index of its leaf in the pool: it stays valid, and keeps its meaning, until the proxy is
/// destroyed (a destroyed id may be given again to a later proxy). Queries allocate nothing and may run on
/// any number of threads at once while nobody changes the tree.
///
/// Pair finding: the tree marks every proxy created or reinserted since the last px_dynamic_tree_update_pairs.
/// That call reports each pair of proxies whose fat boxes overlap and of which at least one is marked, once,
/// in increasing (lower id, higher id) order, and clears the marks.
#pragma once

#include "proxima/base.h"
#include "proxima/geometry.h"

#ifdef __cplusplus
extern "C"
{
#endif

/// Largest number of live proxies in one tree (2^28).
#define PX_DYNAMIC_TREE_MAX_PROXIES (1 << 28)

    /// A dynamic AABB tree. Opaque.
    typedef struct px_dynamic_tree px_dynamic_tree;

    /// Options of px_dynamic_tree_create. Initialize with px_dynamic_tree_default_def().
    typedef struct px_dynamic_tree_def
    {
        px_allocator allocator; ///< Memory for the node pool and the pair buffer (all-zero: malloc/free)
        /// Distance a proxy's fat box extends beyond its tight box on every side. Default 0.1.
        /// [Limit: >= 0, finite] [Units: length]
        float margin;
        /// The fat box of a moved proxy is also stretched by displacement_scale times the displacement passed
        /// to px_dynamic_tree_move_proxy, on the side it points to (predictive enlargement). Default 1.
        /// [Limit: >= 0, finite]
        float displacement_scale;
        /// Nodes reserved at creation (a tree of n proxies uses 2n - 1). Default 16. [Limit: 1 .. 2^29]
        int initial_capacity;
        int internal_value; ///< Set by px_dynamic_tree_default_def(). Do not set.
    } px_dynamic_tree_def;

    /// Default options: malloc/free, margin 0.1, displacement scale 1, 16 nodes reserved.
    PX_API px_dynamic_tree_def px_dynamic_tree_default_def(void);

    /// Create an empty tree.
    /// @param[in]  def   Options, or NULL for defaults
    /// @param[out] tree  The new tree; NULL on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree, def not from px_dynamic_tree_default_def() or out of
    ///         its limits, half an allocator); PX_ERR_OUT_OF_MEMORY (nothing leaked).
    PX_API PX_NODISCARD px_status px_dynamic_tree_create(const px_dynamic_tree_def* def, px_dynamic_tree** tree);

    /// Free a tree and all its proxies. NULL is ignored.
    PX_API void px_dynamic_tree_destroy(px_dynamic_tree* tree);

    /// Add a proxy. Its fat box is aabb grown by the margin. It is marked as moved (see update_pairs).
    /// @param[in]  aabb       Tight box [Limit: finite, min <= max on every axis]
    /// @param[in]  user_data  Stored with the proxy and passed to query callbacks; may be NULL
    /// @param[out] proxy_id   The new id (>= 0); PX_NULL_INDEX on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL argument, min > max, too many proxies);
    ///         PX_ERR_NON_FINITE (NaN or Inf in the box or in its fat box); PX_ERR_OUT_OF_MEMORY (the pool
    ///         could not grow). On an error the tree is unchanged.
    PX_API PX_NODISCARD px_status px_dynamic_tree_create_proxy(px_dynamic_tree* tree, const px_aabb* aabb,
                                                               void* user_data, int32_t* proxy_id);

    /// Remove a proxy. Its id becomes invalid.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree, id not of a live proxy; the tree is unchanged).
    PX_API PX_NODISCARD px_status px_dynamic_tree_destroy_proxy(px_dynamic_tree* tree, int32_t proxy_id);

    /// Give a proxy a new tight box. When aabb is still inside the fat box nothing changes. Otherwise the new
    /// fat box is aabb grown by the margin and stretched by displacement_scale * displacement, the proxy is
    /// reinserted and marked as moved. Never allocates.
    /// @param[in]  aabb          New tight box [Limit: finite, min <= max]
    /// @param[in]  displacement  Expected motion until the next move, e.g. velocity * time step; may be NULL
    ///                           (no stretch) [Limit: finite]
    /// @param[out] reinserted    Whether the proxy was reinserted; may be NULL
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree or aabb, bad id, min > max); PX_ERR_NON_FINITE
    ///         (NaN or Inf in aabb, displacement or the new fat box). On an error the tree is unchanged.
    PX_API PX_NODISCARD px_status px_dynamic_tree_move_proxy(px_dynamic_tree* tree, int32_t proxy_id,
                                                             const px_aabb* aabb, const vec3 displacement,
                                                             bool* reinserted);

    /// The user data of a proxy (NULL for a NULL tree or a bad id).
    PX_API void* px_dynamic_tree_user_data(const px_dynamic_tree* tree, int32_t proxy_id);

    /// The fat box of a proxy.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL argument or bad id; *aabb is zeroed).
    PX_API PX_NODISCARD px_status px_dynamic_tree_fat_aabb(const px_dynamic_tree* tree, int32_t proxy_id,
                                                           px_aabb* aabb);

    /// Whether proxy_id names a live proxy of the tree.
    PX_API bool px_dynamic_tree_is_proxy(const px_dynamic_tree* tree, int32_t proxy_id);

    /// Number of live proxies (0 for NULL).
    PX_API int px_dynamic_tree_proxy_count(const px_dynamic_tree* tree);

    /// Height of the tree: the number of edges from the root to its deepest leaf. 0 for an empty tree, a
    /// single proxy or NULL.
    PX_API int px_dynamic_tree_height(const px_dynamic_tree* tree);

    /// Sum of the surface areas of the inner nodes divided by the root's area: a measure of tree quality
    /// (lower is better). 0 for a tree of fewer than two proxies, or a root of zero area.
    PX_API float px_dynamic_tree_area_ratio(const px_dynamic_tree* tree);

    /// Rebuild the inner nodes top-down from the leaves, splitting each set of leaves at the median of their
    /// centres along the axis where the centres spread most. Ids, fat boxes and moved marks are kept.
    /// Worth calling once after creating many proxies: a tree grown by insertion alone keeps near its top the
    /// splits chosen among its first boxes. On 10k random boxes (bench_broadphase) the area ratio falls from
    /// about 100 to 65 and px_dynamic_tree_update_pairs gets about twice as fast; reinsertions keep it so.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree); PX_ERR_OUT_OF_MEMORY (the scratch array; the tree
    ///         is unchanged).
    PX_API PX_NODISCARD px_status px_dynamic_tree_rebuild(px_dynamic_tree* tree);

    /// Check the whole structure: parent and child links, the free list, leaf count, heights, every inner box
    /// being the union of its children's boxes, no NaN. For tests; O(capacity).
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree, or the tree is corrupt).
    PX_API PX_NODISCARD px_status px_dynamic_tree_validate(const px_dynamic_tree* tree);

    /// Called for each proxy a box query finds. Return true to go on, false to stop the query.
    typedef bool px_dynamic_tree_query_fn(int32_t proxy_id, void* user_data, void* context);

    /// Every proxy whose fat box overlaps or touches aabb (closed intervals). Allocates nothing.
    /// @param[in] aabb      Query box [Limit: no NaN; infinite bounds are allowed; min > max finds nothing]
    /// @param[in] callback  Called once per proxy found, in no particular order
    /// @return PX_OK (also when the callback stopped early); PX_ERR_INVALID_ARGUMENT (NULL argument);
    ///         PX_ERR_NON_FINITE (NaN in aabb).
    PX_API PX_NODISCARD px_status px_dynamic_tree_query(const px_dynamic_tree* tree, const px_aabb* aabb,
                                                        px_dynamic_tree_query_fn* callback, void* context);

    /// Called for each proxy whose fat box a ray query's ray crosses. ray is the query ray with max_t clipped
    /// to what earlier calls returned. Return 0 to stop the query, a negative value to ignore this proxy, or
    /// a t in (0, ray->max_t] to clip the ray there (return ray->max_t to go on unclipped), typically the t of
    /// the proxy's actual hit for a closest-hit query.
    typedef float px_dynamic_tree_ray_fn(const px_ray* ray, int32_t proxy_id, void* user_data, void* context);

    /// Every proxy whose fat box the segment origin + t * direction, 0 <= t <= max_t, crosses or touches.
    /// Allocates nothing.
    /// @return PX_OK (also when the callback stopped early); PX_ERR_INVALID_ARGUMENT (NULL argument, negative
    ///         max_t); PX_ERR_NON_FINITE (NaN or Inf in origin or direction, NaN max_t);
    ///         PX_ERR_DEGENERATE_INPUT (zero direction).
    PX_API PX_NODISCARD px_status px_dynamic_tree_ray_query(const px_dynamic_tree* tree, const px_ray* ray,
                                                            px_dynamic_tree_ray_fn* callback, void* context);

    /// Called once per new pair by px_dynamic_tree_update_pairs, with proxy_a < proxy_b.
    typedef void px_dynamic_tree_pair_fn(int32_t proxy_a, int32_t proxy_b, void* context);

    /// Find the pairs of proxies whose fat boxes overlap (closed intervals) and of which at least one was
    /// created or reinserted since the last call, and report each once to callback, sorted by (proxy_a,
    /// proxy_b); then clear every moved mark. The pairs are gathered in a buffer the tree owns and grows
    /// through its allocator before the first callback, so the callback must not change the tree.
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL tree or callback); PX_ERR_OUT_OF_MEMORY (the pair buffer
    ///         could not grow: no callback was made and the marks are kept, so the call may be retried).
    PX_API PX_NODISCARD px_status px_dynamic_tree_update_pairs(px_dynamic_tree* tree,
                                                               px_dynamic_tree_pair_fn* callback, void* context);

    /// Whether a proxy is marked as moved (created or reinserted since the last update_pairs). False for a bad
    /// id.
    PX_API bool px_dynamic_tree_was_moved(const px_dynamic_tree* tree, int32_t proxy_id);

#ifdef __cplusplus
}
#endif
