/// @file manifold.h
/// Contact manifolds for physics engines: up to four contact points between two convex shapes that touch
/// or nearly touch, sharing one normal, each with its separation and a feature id that stays the same
/// while the same pair of features touches (so a solver can warm start its impulses).
///
/// Face contacts are clipped (reference face against the incident face, Sutherland-Hodgman) for boxes,
/// built hulls and triangles; capsules against boxes, hulls and triangles give their segment clipped to
/// the face; spheres and everything else (degenerate triangles included: zero area, collinear or repeated
/// vertices, slivers) give one point from px_contact. A box resting on a box, or flat on a triangle larger
/// than its face, gives four points.
///
/// Rounded shapes (radius > 0) are clipped on their cores and the points then moved by the radii along the
/// normal, as Box2D and Jolt do with convex radii. Where the incident face is tilted by an angle t against
/// the reference face, the rounded surface lies r (1 / cos t - 1) further along the normal than the moved
/// point, so such a point's separation is larger than the true gap by up to that much (0.019 for r = 0.3 and
/// t = 20 degrees); for faces resting on each other (t near 0) the difference vanishes.
///
/// Feature ids: `face_a << 24 | face_b << 16 | feature_a << 8 | feature_b`, where feature_x is
/// `kind << 6 | index` with kind 0 a face's interior, 1 a vertex, 2 an edge, 3 anything else, and face_x
/// the face that names it: for an interior, the touching face; for a vertex or an edge, the lowest-index
/// face that has it, index being its position in that face's vertex list (an edge runs from vertex index
/// to index + 1), so the name does not depend on which face was clipped (a box edge resting on a face
/// lies between two faces that tie). Face numbers: a box's are 2 * axis + 1 for the negative side; a
/// built hull's its px_hull_faces() indices, low 8 bits; a triangle's 0 for the front, the side
/// cross(b - a, c - a) points to, with vertex list a, b, c, and 1 for the back, with vertex list a, c, b;
/// 0xFE for a capsule's or segment's core. A clipped point is always a vertex of one face inside the
/// other, or an edge of each crossing, so the id does not depend on which shape supplied the reference
/// face, and swapping A and B swaps its halves. A box-box edge-edge contact is one point whose id names the two
/// edges (each by the lower-index face it borders). A single point from px_contact (spheres, curved shapes,
/// fallbacks) has id 0. Queries allocate nothing.
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
///
/// All points share the normal (unit, from A to B); point_b = point_a + separation * normal; every
/// separation is <= config->margin. The deepest point's separation is within a twentieth of the depth (or
/// a tenth of the margin; the margin for two boxes) of px_contact_world's distance: where the clip cuts the
/// deepest feature off, the contact's own point joins. For face contacts the normal is the reference face's own normal (to the
/// rounding of the mapping to world space), not the contact query's estimate of it: a face within 2.6 degrees
/// of the contact normal is taken as the reference, so between convex shapes the normal may lean up to that
/// much from the minimum translation direction. Against a triangle the face's normal is taken only when the
/// shapes separate along it as much as along the contact normal (a mesh's edge rules keep a contact's
/// normal in the normal cone of the triangle's feature). The contact normal is checked against the contact distance and repaired when the two contradict
/// each other (see manifold.c). Points farther apart than the margin are dropped; when the shapes are
/// farther apart than the margin, count is 0 and normal is the separating direction.
/// @param[in]  a, b      Shapes (validated as for px_contact_relative)
/// @param[in]  ta, tb    Their poses (any non-zero quaternion; normalized here)
/// @param[in]  config    Tunables, or NULL for px_manifold_default_config()
/// @param[out] result    Always written; zeroed on errors
/// @return PX_OK (count may be 0); PX_WARN_MAX_ITERATIONS or PX_WARN_CAPACITY from the contact query (the
///         manifold is still built); PX_ERR_INVALID_ARGUMENT (NULL result, shape or pose, a negative or
///         non-finite margin, a bad contact config), PX_ERR_NON_FINITE, PX_ERR_DEGENERATE_INPUT or
///         PX_ERR_OUT_OF_RANGE (as px_contact_relative), with the result zeroed.
PX_API PX_NODISCARD px_status px_manifold_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                                const px_transform* tb, const px_manifold_config* config,
                                                px_manifold* result);

#ifdef __cplusplus
}
#endif
