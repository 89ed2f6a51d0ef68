/// @file geometry.h
/// Closest points on segments, triangles and tetrahedra, with barycentric coordinates and the Voronoi
/// feature they lie on (Ericson, Real-Time Collision Detection, 5.1.2, 5.1.5 and 5.1.6), AABB tests, and
/// ray-triangle intersection (Moller-Trumbore, and the watertight test of Woop, Benthin and Wald).
///
/// A feature is a bit mask of the input vertices that span it: bit 0 = a, bit 1 = b, bit 2 = c,
/// bit 3 = d. One bit set is a vertex, two an edge, three a face, four the inside of a tetrahedron.
/// Degenerate inputs (coincident or collinear vertices, flat tetrahedra) give the nearest point of the
/// lower-dimensional set they span, never NaN. These helpers cannot fail: the caller passes finite values.
#pragma once

#include "proxima/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A ray: the points origin + t * direction for 0 <= t <= max_t. direction need not be unit length (t is
/// then in units of its length); it must not be zero.
typedef struct px_ray
{
    vec3 origin;    ///< Start point
    vec3 direction; ///< Direction [Limit: finite, not zero]
    float max_t;    ///< Largest t searched [Limit: >= 0; may be INFINITY]
} px_ray;

/// Result of a ray cast. hit == false (and everything else zero) when nothing is hit within max_t.
typedef struct px_ray_hit
{
    bool hit;         ///< Whether the ray hits
    float t;          ///< Hit parameter: point = origin + t * direction; 0 when the origin is inside
    vec3 point;       ///< Hit point
    vec3 normal;      ///< Unit surface normal at the hit, facing the ray; zero when the origin is inside
    int32_t triangle; ///< Triangle index for meshes, PX_NULL_INDEX for shapes
    float u, v;       ///< Barycentric coordinates of the hit in the triangle (meshes), else 0
} px_ray_hit;

/// Which sides of a triangle a ray may hit. The front is the side cross(b - a, c - a) points to: a ray with
/// dot(direction, cross(b - a, c - a)) < 0 meets the front face.
typedef enum px_triangle_sides
{
    PX_TRIANGLE_BOTH_SIDES = 0, ///< Hits on either side count
    PX_TRIANGLE_FRONT_ONLY = 1, ///< Hits on the back face are ignored (back-face culling)
} px_triangle_sides;

/// Kind of feature a mask describes.
typedef enum px_feature_kind
{
    PX_FEATURE_NONE = 0,     ///< Empty mask
    PX_FEATURE_VERTEX = 1,   ///< One vertex
    PX_FEATURE_EDGE = 2,     ///< Segment between two vertices
    PX_FEATURE_FACE = 3,     ///< Triangle of three vertices
    PX_FEATURE_INTERIOR = 4, ///< Inside the tetrahedron
} px_feature_kind;

/// Kind of feature spanned by a vertex mask (its number of set bits).
PX_API px_feature_kind px_feature_kind_of(uint32_t feature);

/// Closest point to p on segment ab.
/// @param[in]  p     Query point
/// @param[in]  a, b  Segment end points (may coincide)
/// @param[out] bary  Barycentric weights of a and b (sum 1, each in [0, 1]); may be NULL
/// @param[out] dest  Closest point, equal to bary[0] * a + bary[1] * b
/// @return The feature mask: 1 (a), 2 (b) or 3 (inside the segment)
PX_API uint32_t px_closest_point_segment(const vec3 p, const vec3 a, const vec3 b, float bary[2], vec3 dest);

/// Closest point to p on triangle abc (either winding).
/// @param[out] bary  Weights of a, b, c (sum 1, each in [0, 1]); may be NULL
/// @param[out] dest  Closest point
/// @return The feature mask: a vertex (1, 2, 4), an edge (3, 5, 6) or the face (7)
PX_API uint32_t px_closest_point_triangle(const vec3 p, const vec3 a, const vec3 b, const vec3 c, float bary[3],
                                          vec3 dest);

/// Closest point to p in the solid tetrahedron abcd (either orientation).
/// @param[out] bary  Weights of a, b, c, d (sum 1, each in [0, 1]); may be NULL
/// @param[out] dest  Closest point; p itself when p is inside
/// @return The feature mask: 15 when p is inside, else the mask of the closest boundary feature
PX_API uint32_t px_closest_point_tetrahedron(const vec3 p, const vec3 a, const vec3 b, const vec3 c, const vec3 d,
                                             float bary[4], vec3 dest);

/// True when the boxes overlap or touch (closed intervals on every axis).
PX_API bool px_aabb_overlap(const px_aabb* a, const px_aabb* b);

/// True when point p is inside or on box a.
PX_API bool px_aabb_contains_point(const px_aabb* a, const vec3 p);

/// Smallest box containing a and b. dest may alias a or b.
PX_API void px_aabb_union(const px_aabb* a, const px_aabb* b, px_aabb* dest);

/// Surface area of a box (the cost measure of SAH trees). 0 for an inverted box.
PX_API float px_aabb_surface_area(const px_aabb* a);

/// Ray against triangle abc by Moller and Trumbore ("Fast, Minimum Storage Ray/Triangle Intersection",
/// JGT 1997): with D the direction, E1 = b - a, E2 = c - a and S = origin - a, Cramer's rule on
/// origin + t D = a + u E1 + v E2 gives P = D x E2, Q = S x E1, det = P . E1, t = Q . E2 / det,
/// u = P . S / det and v = Q . D / det.
///
/// The ray counts as parallel to the triangle, and misses, when |det| <= 16 FLT_EPSILON |D| |E1| |E2|, a
/// bound relative to the sizes involved (det's own rounding error is a few FLT_EPSILON of that product), so
/// the test means the same at every scale; it also rejects degenerate (zero-area) triangles and slivers
/// whose smallest angle is below about 2e-6 radians. Edges shared by two triangles are not watertight: a
/// ray through the edge can miss both (use px_ray_triangle_watertight for meshes).
/// @param[in]  ray    Ray; hits with 0 <= t <= ray->max_t count
/// @param[in]  a, b, c Triangle vertices; the front face is the side cross(b - a, c - a) points to
/// @param[in]  sides  PX_TRIANGLE_BOTH_SIDES, or PX_TRIANGLE_FRONT_ONLY to ignore hits on the back face
/// @param[out] t      Hit parameter (point = origin + t * direction); may be NULL
/// @param[out] u, v   Barycentric weights of b and c (the point is (1-u-v) a + u b + v c), each in
///                    [0, 1]; may be NULL
/// @return true on a hit, with t, u, v written. false on a miss and for invalid input (NULL ray or vertex,
///         NaN or infinite coordinates, a zero direction, max_t NaN or negative, sides not one of the two
///         values); t, u and v are then left untouched.
PX_API bool px_ray_triangle(const px_ray* ray, const vec3 a, const vec3 b, const vec3 c, px_triangle_sides sides,
                            float* t, float* u, float* v);

/// Watertight ray against triangle abc (Woop, Benthin and Wald, "Watertight Ray/Triangle Intersection",
/// JCGT 2013): the triangle is sheared into the frame where the ray is an axis and hit-tested by the signs
/// of its three 2D edge functions, computed so that two triangles sharing an edge or a vertex agree on it
/// exactly. A ray through a shared edge or vertex of a closed mesh hits at least one of the triangles
/// around it; a ray exactly on an edge or vertex hits every triangle sharing it.
///
/// Misses: degenerate triangles (exactly collinear or coincident vertices), triangles so far from the origin (beyond
/// about 4e12: the distance is a product of three coordinates) or so small (below about 1e-24) that the
/// float arithmetic over- or underflows, and a ray in the triangle's plane when the
/// shear is exact (an axis-aligned plane, or direction ratios that are powers of two). Otherwise the
/// rounded shear can give an in-plane ray's view of the triangle a sliver of area and the ray a hit on the
/// triangle; that hit is what keeps a mesh closed for rays running along one of its faces. Directions of
/// any finite nonzero length work: tiny or huge ones are rescaled by a power of two, which changes nothing
/// but the range.
/// @param[in]  ray    Ray; hits with 0 <= t <= ray->max_t count
/// @param[in]  a, b, c Triangle vertices; the front face is the side cross(b - a, c - a) points to
/// @param[in]  sides  PX_TRIANGLE_BOTH_SIDES, or PX_TRIANGLE_FRONT_ONLY to ignore hits on the back face
/// @param[out] t      Hit parameter (point = origin + t * direction); may be NULL
/// @param[out] u, v   Barycentric weights of b and c, each in [0, 1]; may be NULL
/// @return true on a hit, with t, u, v written. false on a miss and for invalid input (as for
///         px_ray_triangle); t, u and v are then left untouched.
PX_API bool px_ray_triangle_watertight(const px_ray* ray, const vec3 a, const vec3 b, const vec3 c,
                                       px_triangle_sides sides, float* t, float* u, float* v);

#ifdef __cplusplus
}
#endif
