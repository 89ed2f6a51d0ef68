/// @file transform.h
/// Rigid poses. A rotation is a unit quaternion (x, y, z, w), w last as in cglm; a pose maps local to
/// world as x_world = rotate(q, x_local) + p.
#pragma once

#include "proxima/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A rigid pose: rotation q (unit quaternion x, y, z, w) then translation p. 32 bytes, 16-byte aligned.
typedef struct px_transform
{
    versor q; ///< Rotation, unit quaternion (x, y, z, w)
    vec3 p;   ///< Translation [Units: length]
} px_transform;

/// Static initializer of the identity pose.
#define PX_TRANSFORM_IDENTITY_INIT { { 0.0f, 0.0f, 0.0f, 1.0f }, { 0.0f, 0.0f, 0.0f } }

/// Reset a pose to the identity.
PX_API void px_transform_identity(px_transform* dest);

/// Build a pose from a translation and a quaternion (copied as given).
PX_API void px_transform_set(const vec3 p, const versor q, px_transform* dest);

/// Rotate a vector by a unit quaternion. dest may alias v.
PX_API void px_quat_rotate(const versor q, const vec3 v, vec3 dest);

/// Rotate a vector by the inverse (conjugate) of a unit quaternion. dest may alias v.
PX_API void px_quat_rotate_inverse(const versor q, const vec3 v, vec3 dest);

/// World point of a local point: rotate(t.q, v) + t.p. dest may alias v.
PX_API void px_transform_point(const px_transform* t, const vec3 v, vec3 dest);

/// Local point of a world point: rotate(conj(t.q), v - t.p). dest may alias v.
PX_API void px_transform_point_inverse(const px_transform* t, const vec3 v, vec3 dest);

/// World direction of a local direction (rotation only). dest may alias v.
PX_API void px_transform_vector(const px_transform* t, const vec3 v, vec3 dest);

/// Local direction of a world direction (inverse rotation only). dest may alias v.
PX_API void px_transform_vector_inverse(const px_transform* t, const vec3 v, vec3 dest);

/// Composition: dest = a * b, the pose that applies b first and then a. dest may alias a or b.
PX_API void px_transform_mul(const px_transform* a, const px_transform* b, px_transform* dest);

/// Inverse pose. dest may alias t.
PX_API void px_transform_inverse(const px_transform* t, px_transform* dest);

/// Relative pose dest = inverse(a) * b: the pose of b expressed in a's frame. Computed without forming
/// inverse(a) first, so large common translations cancel before rounding. dest may alias a or b.
PX_API void px_transform_inv_mul(const px_transform* a, const px_transform* b, px_transform* dest);

/// Check a pose given by a caller: finite, and a non-zero quaternion (any length: queries normalize it).
/// @return PX_OK; PX_ERR_INVALID_ARGUMENT for NULL; PX_ERR_NON_FINITE for NaN or Inf;
///         PX_ERR_DEGENERATE_INPUT for the zero quaternion (or one whose components are all below
///         FLT_MIN).
PX_API PX_NODISCARD px_status px_transform_validate(const px_transform* t);

/// Copy of t with its quaternion scaled to unit length (callers' quaternions drift; queries call this).
/// @return as px_transform_validate; dest is the identity on error.
PX_API PX_NODISCARD px_status px_transform_normalized(const px_transform* t, px_transform* dest);

#ifdef __cplusplus
}
#endif
