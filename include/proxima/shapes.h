/// @file shapes.h
/// Convex shapes as small values: a core (point, segment, triangle, box, cylinder, cone, hull, or a user
/// support function) plus a rounding radius added to the core in every direction. A sphere is a rounded
/// point and a capsule a rounded segment; giving a box a radius makes a rounded box.
///
/// Shapes are described in their local frame; a px_transform places them. A hull references the caller's
/// points (packed xyz), which must stay alive and unchanged while the shape is in use.
///
/// Constructors never fail: they store what they are given. Queries validate the shapes they receive
/// (px_shape_validate) and return a status for negative sizes, NaN, Inf, NULL points or count <= 0.
#pragma once

#include "proxima/base.h"
#include "proxima/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The kind of core a shape has.
typedef enum px_shape_type
{
    PX_SHAPE_POINT = 0, ///< The local origin
    PX_SHAPE_SEGMENT,   ///< Segment a-b
    PX_SHAPE_TRIANGLE,  ///< Triangle a-b-c (two-sided, flat)
    PX_SHAPE_SPHERE,    ///< Point core; its radius is the rounding radius
    PX_SHAPE_CAPSULE,   ///< Segment core from (0, -h, 0) to (0, h, 0); its radius is the rounding radius
    PX_SHAPE_BOX,       ///< Box centred on the origin with half extents along x, y, z
    PX_SHAPE_CYLINDER,  ///< Cylinder along local y, from -h to h, of radius cylinder.radius
    PX_SHAPE_CONE,      ///< Cone along local y: apex (0, h, 0), base circle at y = -h of radius cone.radius
    PX_SHAPE_HULL,      ///< Convex hull of a point set (interior and duplicate points allowed)
    PX_SHAPE_USER,      ///< Convex set given by a user support function
    PX_SHAPE_TYPE_COUNT ///< Number of shape types
} px_shape_type;

/// User support function: write the point of the convex set farthest along direction (local frame, not
/// necessarily unit length) into dest, and return a stable vertex index for it, or PX_NULL_INDEX.
/// It must be deterministic and thread-safe (queries may run on several threads).
typedef int32_t (*px_support_fn)(const void* user_data, const vec3 direction, vec3 dest);

/// Core of PX_SHAPE_SEGMENT.
typedef struct px_segment_data
{
    vec3 a, b; ///< End points
} px_segment_data;

/// Core of PX_SHAPE_TRIANGLE.
typedef struct px_triangle_data
{
    vec3 a, b, c; ///< Vertices
} px_triangle_data;

/// Core of PX_SHAPE_CAPSULE.
typedef struct px_capsule_data
{
    float half_height; ///< Half length of the core segment along y [Units: length] [Limit: >= 0]
} px_capsule_data;

/// Core of PX_SHAPE_BOX.
typedef struct px_box_data
{
    vec3 half_extents; ///< [Units: length] [Limit: >= 0 each]
} px_box_data;

/// Core of PX_SHAPE_CYLINDER and PX_SHAPE_CONE.
typedef struct px_cylinder_data
{
    float half_height; ///< Half of the length along y [Units: length] [Limit: >= 0]
    float radius;      ///< Radius of the circle(s), not the rounding radius [Units: length] [Limit: >= 0]
} px_cylinder_data;

struct px_hull;

/// Core of PX_SHAPE_HULL.
typedef struct px_hull_data
{
    const float* points; ///< Packed xyz [(x, y, z) * count]; owned by the caller
    int count;           ///< Number of points [Limit: > 0]
    /// The built hull these points are the vertices of (px_shape_from_hull), or NULL for a raw point
    /// cloud. With it, large hulls look supports up in a direction table, manifolds use the hull's faces,
    /// and overlapping small hulls get exact separating-axis depths.
    const struct px_hull* built;
    /// Largest |point|, set by px_shape_hull and px_shape_from_hull (0: unknown, computed by each query).
    /// It scales the rounding band within which shapes count as touching; rebuild the shape if you move
    /// its points.
    float bound;
} px_hull_data;

/// Core of PX_SHAPE_USER.
typedef struct px_user_data
{
    px_support_fn fn;      ///< Support function [Limit: not NULL]
    const void* user_data; ///< Passed to fn
} px_user_data;

/// A convex shape. Build one with a px_shape_* constructor; set `radius` afterwards to round any core.
typedef struct px_shape
{
    px_shape_type type; ///< Which member of the union is valid
    float radius;       ///< Rounding radius added to the core in every direction [Units: length] [Limit: >= 0]
    union
    {
        px_segment_data segment;   ///< PX_SHAPE_SEGMENT
        px_triangle_data triangle; ///< PX_SHAPE_TRIANGLE
        px_capsule_data capsule;   ///< PX_SHAPE_CAPSULE
        px_box_data box;           ///< PX_SHAPE_BOX
        px_cylinder_data cylinder; ///< PX_SHAPE_CYLINDER and PX_SHAPE_CONE
        px_hull_data hull;         ///< PX_SHAPE_HULL
        px_user_data user;         ///< PX_SHAPE_USER
    };
} px_shape;

/// The local origin (give it a radius to make a sphere).
PX_API px_shape px_shape_point(void);
/// Segment from a to b.
PX_API px_shape px_shape_segment(const vec3 a, const vec3 b);
/// Triangle abc.
PX_API px_shape px_shape_triangle(const vec3 a, const vec3 b, const vec3 c);
/// Sphere of the given radius centred on the local origin.
PX_API px_shape px_shape_sphere(float radius);
/// Capsule along local y: segment from (0, -half_height, 0) to (0, half_height, 0) rounded by radius.
PX_API px_shape px_shape_capsule(float half_height, float radius);
/// Box with the given half extents, centred on the local origin.
PX_API px_shape px_shape_box(const vec3 half_extents);
/// Cylinder along local y from -half_height to half_height.
PX_API px_shape px_shape_cylinder(float half_height, float radius);
/// Cone along local y: apex at (0, half_height, 0), base of the given radius at y = -half_height.
PX_API px_shape px_shape_cone(float half_height, float radius);
/// Convex hull of count points, packed xyz. The points are referenced, not copied (one pass over them
/// records their bounding radius).
PX_API px_shape px_shape_hull(const float* points, int count);
/// Convex set defined by a support function.
PX_API px_shape px_shape_user(px_support_fn fn, const void* user_data);

/// Check a shape's parameters. Hull points are scanned for NaN and Inf too (O(count)); the queries
/// themselves detect non-finite hull points during their support scans instead.
/// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL shape or points, count <= 0, unknown type, negative
///         radius or size, NULL support function); PX_ERR_NON_FINITE (NaN or Inf anywhere).
PX_API PX_NODISCARD px_status px_shape_validate(const px_shape* shape);

/// Support point of the shape in its local frame, rounding radius included: the point farthest along
/// direction. A zero direction gives a point of the core.
/// @param[out] dest  Support point
/// @return The support vertex index (hull point, box corner, segment or triangle vertex), or
///         PX_NULL_INDEX for curved supports and on invalid input.
PX_API int32_t px_shape_support(const px_shape* shape, const vec3 direction, vec3 dest);

/// World-space bounding box of the posed shape, rounding radius included. Tight for every type except
/// cylinders and cones under rotation, where it bounds the rotated box of their circles.
/// @return PX_OK, or the px_shape_validate / px_transform_validate error with dest zeroed.
PX_API PX_NODISCARD px_status px_shape_aabb(const px_shape* shape, const px_transform* pose, px_aabb* dest);

#ifdef __cplusplus
}
#endif
