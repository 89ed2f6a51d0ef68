/// @file cast.h
/// Ray casts against posed convex shapes, and shape casts: where a convex shape moving along a straight
/// line first touches another.
///
/// Sphere, capsule and box rays are closed forms; every other shape (and every rounded core) goes
/// through the GJK ray cast (van den Bergen, "Ray Casting against General Convex Objects with Application
/// to Continuous Collision Detection", 2004), which the shape cast also uses on the Minkowski difference.
/// A ray that starts inside a shape hits at t = 0 with a zero normal; a shape cast that starts in contact
/// reports the initial overlap. Loops are bounded and report when they hit the bound.
#pragma once

#include "proxima/gjk.h"
#include "proxima/geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Cast a ray against a posed shape (world space).
/// @param[in]  shape   The shape, in its local frame
/// @param[in]  pose    Its world pose
/// @param[in]  ray     The ray, world space
/// @param[out] result  Always written: hit == false when the ray misses within max_t
/// @return PX_OK (hit or miss); PX_WARN_MAX_ITERATIONS when the GJK ray cast ran out of iterations (the
///         best estimate is returned); PX_ERR_INVALID_ARGUMENT (NULL, bad shape, max_t < 0 or NaN),
///         PX_ERR_NON_FINITE (NaN or Inf in the ray or pose), PX_ERR_DEGENERATE_INPUT (zero direction or
///         zero quaternion) with the result zeroed.
PX_API PX_NODISCARD px_status px_ray_cast_shape(const px_shape* shape, const px_transform* pose, const px_ray* ray,
                                                px_ray_hit* result);

/// Shape-cast tunables. Initialize with px_cast_default_config(); NULL means defaults.
typedef struct px_cast_config
{
    int max_iterations; ///< Bound on the cast loop [Limit: > 0] Default 64
    /// Contact is declared when the shapes are closer than this, relative to their size; the result
    /// never stops further than this short of first contact. [Units: none] [Limit: > 0]
    float rel_tolerance;
    int internal_value; ///< Set by px_cast_default_config(). Do not set.
} px_cast_config;

/// Result of a shape cast. Always fully written; zeroed on errors.
typedef struct px_cast_result
{
    bool hit;             ///< B touches A somewhere along its translation
    bool initial_overlap; ///< The shapes already touch or overlap at fraction 0
    float fraction;       ///< First contact at pose_b + fraction * translation_b, in [0, 1]
    vec3 point;           ///< Contact point (on A's surface) at that fraction, world space
    vec3 normal;          ///< Unit contact normal from A to B at that fraction; zero on initial overlap
    int iterations;       ///< Loop iterations used
} px_cast_result;

/// Default shape-cast configuration.
PX_API px_cast_config px_cast_default_config(void);

/// Sweep B by translation_b (world space) against A (static) and report the first contact.
/// @return PX_OK (hit or miss); PX_WARN_MAX_ITERATIONS (best estimate, never past the true contact);
///         PX_ERR_INVALID_ARGUMENT, PX_ERR_NON_FINITE or PX_ERR_DEGENERATE_INPUT with the result zeroed.
///         A zero translation is valid: the result is the overlap test at the start.
PX_API PX_NODISCARD px_status px_shape_cast_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                                  const px_transform* tb, const vec3 translation_b,
                                                  const px_cast_config* config, px_cast_result* result);

#ifdef __cplusplus
}
#endif
