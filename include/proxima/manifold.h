/// @file manifold.h
/// Contact manifolds for physics engines: up to four contact points between two convex shapes that touch
/// or nearly touch, sharing one normal, each with its separation and a feature id that stays the same
/// while the same pair of features touches (so a solver can warm start its impulses).
///
/// Face contacts are clipped (reference face against the incident face, Sutherland-Hodgman) for boxes
/// and built hulls; capsules against boxes and hulls give their segment clipped to the face; spheres and
/// everything else give one point from px_contact. A box resting on a box gives four points.
#pragma once

#include "proxima/contact.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Most points a manifold holds.
#define PX_MANIFOLD_MAX_POINTS 4

/// One contact point.
typedef struct px_manifold_point
{
    vec3 point_a;     ///< On A's surface (world)
    vec3 point_b;     ///< On B's surface: point_a + separation * normal
    float separation; ///< Signed distance along the manifold normal: < 0 penetrating
    uint32_t id;      ///< Feature id: equal ids between frames mean the same features touch
} px_manifold_point;

/// A contact manifold. count == 0 when the shapes are farther apart than the margin.
typedef struct px_manifold
{
    vec3 normal; ///< Unit, from A to B (world)
    px_manifold_point points[PX_MANIFOLD_MAX_POINTS];
    int count; ///< [Limit: 0..PX_MANIFOLD_MAX_POINTS]
} px_manifold;

/// Manifold tunables. Initialize with px_manifold_default_config(); NULL means defaults.
typedef struct px_manifold_config
{
    px_contact_config contact; ///< How the contact normal is found
    /// Points are kept up to this separation, so resting contacts do not flicker. [Units: length]
    /// [Limit: >= 0] Default PX_LINEAR_SLOP
    float margin;
    int internal_value; ///< Set by px_manifold_default_config(). Do not set.
} px_manifold_config;

/// Default configuration.
PX_API px_manifold_config px_manifold_default_config(void);

/// Contact manifold between posed shapes, world space.
/// @return PX_OK (count may be 0); warnings and errors as px_contact_relative, with the result zeroed.
PX_API PX_NODISCARD px_status px_manifold_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                                const px_transform* tb, const px_manifold_config* config,
                                                px_manifold* result);

#ifdef __cplusplus
}
#endif
