/// @file gjk.h
/// GJK distance and boolean overlap between two convex shapes (Gilbert, Johnson, Keerthi 1988; the
/// termination and robustness tests follow van den Bergen, "A Fast and Robust GJK Implementation for
/// Collision Detection of Convex Objects", 1999).
///
/// The query runs in A's frame with B's pose relative to A, so large world coordinates cancel before any
/// arithmetic (px_gjk_distance_world computes that relative pose for you). GJK runs on the shape cores;
/// rounding radii are subtracted at the end, so rounded shapes (spheres, capsules, rounded boxes) cost no
/// more than their cores. Queries allocate nothing and are reentrant.
#pragma once

#include "proxima/base.h"
#include "proxima/constants.h"
#include "proxima/shapes.h"
#include "proxima/simplex.h"
#include "proxima/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Why the GJK loop stopped. Diagnostic only; the px_status says whether the result is usable.
typedef enum px_gjk_exit
{
    PX_GJK_EXIT_NONE = 0,       ///< Not run (hard error)
    PX_GJK_EXIT_OVERLAP,        ///< The cores overlap or touch within rounding: core distance 0
    PX_GJK_EXIT_CONVERGED,      ///< The duality gap fell below the tolerance
    PX_GJK_EXIT_DUPLICATE,      ///< The new support point was already in the simplex (exact convergence)
    PX_GJK_EXIT_NO_PROGRESS,    ///< |v| stopped decreasing (rounding floor); the best simplex was kept
    PX_GJK_EXIT_SEPARATED,      ///< Overlap query only: a separating axis was found
    PX_GJK_EXIT_MAX_ITERATIONS, ///< Iteration bound hit; best result returned with a warning
} px_gjk_exit;

/// GJK tunables. Initialize with px_gjk_default_config(); a NULL config means defaults.
typedef struct px_gjk_config
{
    int max_iterations;  ///< Hard loop bound [Limit: > 0] Default PX_GJK_MAX_ITERATIONS
    float rel_tolerance; ///< Stop when the duality gap is below this fraction of |v|^2 [Limit: > 0]
    float abs_tolerance; ///< Distances below this count as touching [Units: length] [Limit: >= 0]
    bool use_radii;      ///< Subtract the rounding radii (true) or measure the cores only (false)
    int internal_value;  ///< Set by px_gjk_default_config(). Do not set.
} px_gjk_config;

/// Query input. Shapes are in their local frames; B is placed in A's frame by b_in_a.
typedef struct px_gjk_input
{
    const px_shape* a;   ///< Shape A [Limit: not NULL]
    const px_shape* b;   ///< Shape B [Limit: not NULL]
    px_transform b_in_a; ///< Pose of B in A's frame: px_transform_inv_mul(pose_a, pose_b)
} px_gjk_input;

/// Query result. Always fully written; zeroed on errors (status < 0).
typedef struct px_gjk_result
{
    vec3 point_a;     ///< Closest point on A (frame A for px_gjk_distance, world for the _world variant)
    vec3 point_b;     ///< Closest point on B, same frame
    vec3 normal;      ///< Unit vector from A to B; zero when the shapes overlap or touch
    float distance;   ///< >= 0; 0 when the shapes overlap or touch (radii included when use_radii)
    int iterations;   ///< GJK iterations used
    px_gjk_exit exit; ///< Why the loop stopped
} px_gjk_result;

/// Default configuration.
PX_API px_gjk_config px_gjk_default_config(void);

/// Closest points and distance between two convex shapes, in A's frame.
/// @param[in]     input   Shapes and the relative pose
/// @param[in]     config  Tunables, or NULL for defaults
/// @param[in,out] cache   Warm start for this pair: zero-initialize (PX_SIMPLEX_CACHE_INIT) before the first
///                        call, then pass the same cache each time the pair is queried. May be NULL. A warm
///                        start reads the cached hull points (NaN or Inf there: PX_ERR_NON_FINITE) and the
///                        points its scans reach; one that ends at once (the cached simplex still encloses
///                        the origin) does not see NaN elsewhere in a hull.
/// @param[out]    result  Always written
/// @return PX_OK; PX_WARN_MAX_ITERATIONS with the best result so far; PX_ERR_INVALID_ARGUMENT (NULL
///         pointer, bad shape or config), PX_ERR_NON_FINITE (NaN or Inf in a shape, hull point or pose),
///         PX_ERR_DEGENERATE_INPUT (zero quaternion) or PX_ERR_OUT_OF_RANGE (a pair larger than
///         PX_MAX_PAIR_SIZE) with the result zeroed.
PX_API PX_NODISCARD px_status px_gjk_distance(const px_gjk_input* input, const px_gjk_config* config,
                                              px_simplex_cache* cache, px_gjk_result* result);

/// px_gjk_distance for world poses: results in world space.
/// @param[in] a, b     Shapes in their local frames
/// @param[in] ta, tb   World poses (quaternions are normalized if they drifted)
/// @return as px_gjk_distance.
PX_API PX_NODISCARD px_status px_gjk_distance_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                                    const px_transform* tb, const px_gjk_config* config,
                                                    px_gjk_result* result);

/// Boolean overlap (radii included when config->use_radii), stopping at the first separating axis.
/// Touching within rounding counts as overlap.
/// @param[out] overlap  true when the shapes overlap or touch; false on error
/// @return as px_gjk_distance.
PX_API PX_NODISCARD px_status px_gjk_overlap(const px_gjk_input* input, const px_gjk_config* config,
                                             px_simplex_cache* cache, bool* overlap);

/// px_gjk_overlap for world poses.
PX_API PX_NODISCARD px_status px_gjk_overlap_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                                   const px_transform* tb, const px_gjk_config* config,
                                                   bool* overlap);

#ifdef __cplusplus
}
#endif
