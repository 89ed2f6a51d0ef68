/// @file contact.h
/// Signed distance and contact between two convex shapes: the separation when they are apart (GJK), the
/// penetration depth when they overlap (EPA, Expanding Polytope Algorithm, van den Bergen 2001), with one
/// normal and a witness point on each shape.
///
/// Conventions: distance < 0 is penetration; normal is a unit vector from A to B (moving B along it by
/// -distance separates the shapes when they overlap); point_b = point_a + distance * normal. Rounded shapes
/// are handled on their cores while the cores are apart, so shallow contacts between rounded shapes never
/// need EPA. Exact analytic paths answer sphere, capsule and box pairs, and overlapping small built hulls
/// (px_shape_from_hull, up to 32 vertices: hull-hull pairs whose edge counts multiply to at most 2400, and
/// boxes against them) by the separating-axis test over face normals and Minkowski-face edge pairs; every
/// other pair goes through GJK and EPA. Queries allocate nothing.
///
/// Scale: results are scale-equivariant (shapes and poses multiplied by a power of two give the same
/// contact multiplied by it) for pairs whose size lies between about 2^-60 and PX_MAX_PAIR_SIZE (2^62,
/// beyond which pairs are refused with PX_ERR_OUT_OF_RANGE); below, squared distances are subnormal floats. EPA runs pairs far from
/// unit size in coordinates scaled by a power of two.
#pragma once

#include "proxima/gjk.h"

#ifdef __cplusplus
extern "C" {
#endif

/// How a contact was computed. Diagnostic only.
typedef enum px_contact_method
{
    PX_CONTACT_NONE = 0,     ///< Not computed (error)
    PX_CONTACT_ANALYTIC,     ///< Closed form (sphere, capsule, box pairs; separating axes of small hulls)
    PX_CONTACT_GJK,          ///< Separated (or rounded cores apart): GJK distance
    PX_CONTACT_EPA,          ///< Cores overlap: EPA penetration depth
} px_contact_method;

/// Tunables. Initialize with px_contact_default_config(); a NULL config means defaults.
typedef struct px_contact_config
{
    px_gjk_config gjk;       ///< GJK settings (use_radii is ignored: contacts always include radii)
    int epa_max_iterations;  ///< EPA expansion bound [Limit: > 0] Default PX_EPA_MAX_ITERATIONS
    float epa_rel_tolerance; ///< Stop when the support gap is below this fraction of the depth [Limit: > 0]
    bool analytic;           ///< Use the closed forms for sphere, capsule and box pairs (default true)
    int internal_value;      ///< Set by px_contact_default_config(). Do not set.
} px_contact_config;

/// A contact. Always fully written; zeroed on errors.
typedef struct px_contact
{
    vec3 point_a;             ///< Witness point on A's surface
    vec3 point_b;             ///< Witness point on B's surface: point_a + distance * normal
    vec3 normal;              ///< Unit, from A to B; along the minimum translation when overlapping
    float distance;           ///< Signed: > 0 apart, 0 touching, < 0 penetration depth
    int iterations;           ///< GJK plus EPA iterations
    px_contact_method method; ///< Which path computed it
} px_contact;

/// Default configuration.
PX_API px_contact_config px_contact_default_config(void);

/// Contact in A's frame, with B's pose relative to A (see px_gjk_input).
/// @param[in,out] cache  Warm start for the GJK part, as for px_gjk_distance. May be NULL.
/// @return PX_OK; PX_WARN_MAX_ITERATIONS or PX_WARN_CAPACITY when GJK or EPA ran out of iterations or
///         polytope capacity (the best result is returned); PX_ERR_INVALID_ARGUMENT, PX_ERR_NON_FINITE,
///         PX_ERR_DEGENERATE_INPUT or PX_ERR_OUT_OF_RANGE (a pair larger than PX_MAX_PAIR_SIZE) with the
///         result zeroed.
PX_API PX_NODISCARD px_status px_contact_relative(const px_gjk_input* input, const px_contact_config* config,
                                                  px_simplex_cache* cache, px_contact* result);

/// Contact between posed shapes, in world space.
/// @return as px_contact_relative.
PX_API PX_NODISCARD px_status px_contact_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                                               const px_transform* tb, const px_contact_config* config,
                                               px_contact* result);

#ifdef __cplusplus
}
#endif
