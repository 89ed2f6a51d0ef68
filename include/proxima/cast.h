/// @file cast.h
/// Ray casts against posed convex shapes, and shape casts: where a convex shape moving along a straight
/// line first touches another.
///
/// Sphere, capsule and box rays are closed forms; every other shape (and every rounded core) goes
/// through the GJK ray cast (van den Bergen, "Ray Casting against General Convex Objects with Application
/// to Continuous Collision Detection", 2004), which the shape cast also uses on the Minkowski difference.
/// A ray that starts inside a shape hits at t = 0 with a zero normal; a shape cast that starts in contact
/// reports the initial overlap. Loops are bounded and report when they hit the bound.
///
/// Tolerance. The GJK casts work to a contact band tol = max(rel_tolerance * S, 32 FLT_EPSILON * C), where
/// S is the size of the shapes (half diagonals of their core bounding boxes plus the rounding radii) and C
/// the size of their local coordinates (2 S plus the distances of the bounding boxes' centres from the
/// local origins, twice that distance for a ray's shape):
/// a ray or a moving shape that comes within tol / 2 of the target counts as touching it, one that stays
/// farther than tol does not, and in between either may happen. A GJK hit is reported where the gap has
/// just fallen below tol: never past the first contact, and never more than tol short of it (in distance;
/// in t or fraction that is tol / cos(angle between the motion and the contact normal)). The closed forms
/// (spheres, capsules, boxes without rounding) are exact up to float rounding and treat the shape as a
/// closed set: a ray in the plane of a box face hits it, one passing off it by any amount misses.
/// A shape cast's fraction is rounded down to a float, so a long sweep never ends past the contact; it may
/// end short of it by the band plus one float step of the fraction times the translation (6e-5 for a
/// translation of 1000 at a fraction near 0.5). Scale: results are scale-equivariant for shapes and
/// sweeps between about 2^-50 and PX_MAX_PAIR_SIZE (2^62, beyond which queries are refused with
/// PX_ERR_OUT_OF_RANGE, closed forms included); below about 2^-60 squared lengths are subnormal floats and
/// the band no longer holds. Queries allocate nothing and are reentrant.
#pragma once

#include "proxima/gjk.h"
#include "proxima/geometry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Hard bound on the cast loop (support steps, GJK refinements included). Ray casts always use it;
/// shape casts take it from px_cast_config. A ray passing close by a cylinder's or cone's rim approaches
/// it in small steps: 400000 random rays at them took 7.7 steps on average and up to 62 (one ray from
/// 800 away onto a cone's rim needed 65 to prove its miss), so the bound is twice that. [Limit: > 0]
#define PX_CAST_MAX_ITERATIONS 128

/// Default relative contact band of the GJK casts (see the file comment). Ray casts always use it.
/// [Units: none] [Limit: > 0]
#define PX_CAST_REL_TOLERANCE 1.0e-5f

/// Cast a ray against a posed shape (world space).
///
/// The ray is transformed into the shape's frame, so a pose far from the origin costs no accuracy beyond
/// the rounding of the ray's origin there. A hit within 4 FLT_EPSILON (relative) beyond max_t counts and
/// is reported at t = max_t; a hit exactly at max_t counts. An origin inside the shape or on its surface
/// (closed forms), or within the contact band of it (GJK shapes), gives hit at t = 0, point = origin, a
/// zero normal. A ray parallel to a face and grazing it hits or misses as the tolerance above says,
/// never with a NaN. A t that does not fit a float (a direction of denormal length) is a miss.
/// @param[in]  shape   The shape, in its local frame
/// @param[in]  pose    Its world pose (the quaternion is normalized if it drifted)
/// @param[in]  ray     The ray, world space; direction of any non-zero length, t in units of it
/// @param[out] result  Always written: hit == false when the ray misses within max_t. On a hit: t, the
///                     point origin + t * direction, and the unit normal of the surface, facing the ray
///                     (dot(normal, direction) <= 0). triangle = PX_NULL_INDEX, u = v = 0 always.
/// @return PX_OK (hit or miss); PX_WARN_MAX_ITERATIONS or PX_WARN_DEGENERATE when the GJK ray cast ran
///         out of iterations or stalled (the best estimate is returned: the t reached, never past the
///         surface, a hit if the ray is within four bands of the shape there); with the result zeroed
///         (triangle = PX_NULL_INDEX): PX_ERR_INVALID_ARGUMENT (NULL, a bad shape such as a negative
///         size, max_t < 0 or NaN), PX_ERR_NON_FINITE (NaN or Inf in the ray, the pose, the shape's
///         parameters or hull points, or from a user support function), PX_ERR_DEGENERATE_INPUT (zero
///         direction or zero quaternion), PX_ERR_OUT_OF_RANGE (the shape and the ray's origin span more
///         than PX_MAX_PAIR_SIZE; a user support shape, whose size is unknown, is not checked: keep it
///         and the ray within that range).
PX_API PX_NODISCARD px_status px_ray_cast_shape(const px_shape* shape, const px_transform* pose,
                                                const px_ray* ray, px_ray_hit* result);

/// Shape-cast tunables. Initialize with px_cast_default_config(); NULL means defaults.
typedef struct px_cast_config
{
    int max_iterations; ///< Bound on the cast loop [Limit: > 0] Default PX_CAST_MAX_ITERATIONS
    /// Contact is declared when the shapes are closer than this, relative to their size; the result
    /// never stops further than this short of first contact (see the file comment for the exact band).
    /// [Units: none] [Limit: > 0, finite] Default PX_CAST_REL_TOLERANCE
    float rel_tolerance;
    int internal_value; ///< Set by px_cast_default_config(). Do not set.
} px_cast_config;

/// Result of a shape cast. Always fully written; zeroed on errors; on a miss everything but iterations is
/// zero.
typedef struct px_cast_result
{
    bool hit;             ///< B touches A somewhere along its translation
    bool initial_overlap; ///< The shapes already touch (within the band) or overlap at fraction 0
    float fraction;       ///< First contact at pose_b + fraction * translation_b, in [0, 1]
    /// Contact point on A's surface at that fraction, world space. On initial overlap, a point of both
    /// shapes instead (between the cores, at the radii's ratio, as px_gjk_distance reports overlap).
    vec3 point;
    vec3 normal;    ///< Unit contact normal from A to B at that fraction; zero on initial overlap
    int iterations; ///< Loop iterations used
} px_cast_result;

/// Default shape-cast configuration.
PX_API px_cast_config px_cast_default_config(void);

/// Sweep B by translation_b (world space) against A (static) and report the first contact.
///
/// B's orientation does not change during the sweep. The contact is the first fraction at which the
/// shapes, rounding radii included, come within the band (file comment): never past the true first
/// contact, at most the band short of it, also when B slides along a face of A (a contact normal
/// perpendicular to the motion is a hit when within the band, a miss only when provably farther).
/// @param[in]  a, b           Shapes in their local frames
/// @param[in]  ta, tb         World poses at fraction 0 (quaternions are normalized if they drifted)
/// @param[in]  translation_b  B's displacement over the sweep, world space [Limit: finite; may be zero]
/// @param[in]  config         Tunables, or NULL for defaults
/// @param[out] result         Always written
/// @return PX_OK (hit or miss); PX_WARN_MAX_ITERATIONS or PX_WARN_DEGENERATE (best estimate, never past
///         the true contact: the fraction reached, a hit if the shapes are within four bands there);
///         with the result zeroed: PX_ERR_INVALID_ARGUMENT (NULL, bad shape or config),
///         PX_ERR_NON_FINITE (NaN or Inf in a pose, the translation, a shape or a support point),
///         PX_ERR_DEGENERATE_INPUT (zero quaternion) or PX_ERR_OUT_OF_RANGE (the pair and the translation
///         span more than PX_MAX_PAIR_SIZE; not checked for user support shapes, whose size is unknown).
///         A zero translation is valid: the result is the overlap test at the start (hit, with
///         initial_overlap, exactly when the shapes touch).
PX_API PX_NODISCARD px_status px_shape_cast_world(const px_shape* a, const px_transform* ta,
                                                  const px_shape* b, const px_transform* tb,
                                                  const vec3 translation_b, const px_cast_config* config,
                                                  px_cast_result* result);

#ifdef __cplusplus
}
#endif
