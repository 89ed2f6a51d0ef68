/// @file mesh_collide.h
/// Convex shapes against triangle meshes: distance, contacts and shape casts, each a walk of the mesh's BVH
/// that hands the few triangles it cannot cull to the convex-convex queries (GJK, EPA, the GJK shape cast).
///
/// Every query takes the mesh's pose (NULL: the identity) and the shape's, both world space, and answers in
/// world space. Internally each triangle is moved into the shape's local frame before the convex query, so
/// coordinates stay of the shape's size however far the mesh is from its origin.
///
/// Triangles are two-sided and flat: a shape on either side of one is apart from it, a shape crossing it
/// overlaps it. Degenerate triangles (zero area, repeated vertices) count as the segment or point they are.
///
/// Results do not depend on the tree: among triangles at equal distance or fraction, the lowest triangle
/// index wins, and contacts come sorted by triangle index. (Each GJK is warm-started from the previous
/// triangle's, so two triangles whose distances differ only by rounding may swap with the visiting order;
/// the same query on the same mesh always gives the same bits.) Queries allocate nothing and are
/// reentrant; a mesh may be queried from any number of threads at once.
#pragma once

#include "proxima/base.h"
#include "proxima/mesh.h"
#include "proxima/shapes.h"
#include "proxima/transform.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Result of px_mesh_shape_distance. Always fully written; everything zero (triangle = PX_NULL_INDEX)
/// when nothing is found within max_distance and on errors.
typedef struct px_mesh_distance_result
{
    bool found;         ///< A triangle lies within max_distance of the shape
    bool overlap;       ///< The shape touches or overlaps that triangle (distance is then 0)
    float distance;     ///< Distance between the shape (rounding radius included) and the mesh [Limit: >= 0]
    vec3 point_mesh;    ///< Closest point on the mesh (world). On overlap, a point of both.
    vec3 point_shape;   ///< Closest point on the shape (world): point_mesh + distance * normal
    vec3 normal;        ///< Unit, from the mesh to the shape (world); zero on overlap
    int32_t triangle;   ///< Index of the closest triangle, PX_NULL_INDEX when not found
    /// Triangles that went through a full GJK distance (the others were culled by their bounds, their
    /// plane or a GJK overlap test against the shape grown by the best distance so far). For tuning.
    int gjk_calls;
} px_mesh_distance_result;

/// Distance between a posed convex shape and a mesh.
///
/// The BVH is visited nearest box first, measuring from the shape's bounding box in the mesh frame; a
/// node or triangle whose box (or plane) is farther than the best distance so far is skipped, and the rest
/// go through GJK against the shape, each warm-started from the previous triangle's result. Touching or
/// overlapping triangles give distance 0 and overlap = true (for the depth, use px_mesh_shape_contacts).
/// Among triangles at the same distance (several touching, or a shared edge or vertex closest), the lowest
/// index wins.
/// @param[in]  mesh          The mesh [Limit: not NULL]; an empty mesh finds nothing
/// @param[in]  mesh_pose     Pose of the mesh, or NULL for the identity
/// @param[in]  shape         The convex shape, in its local frame
/// @param[in]  shape_pose    Its world pose (quaternions of any non-zero length are normalized)
/// @param[in]  max_distance  Search radius: triangles farther than this are not reported (INFINITY:
///                           everywhere; values from PX_MAX_PAIR_SIZE on, FLT_MAX included, mean the
///                           same) [Units: length] [Limit: >= 0]
/// @param[out] result        Always written; found == false when nothing is within max_distance
/// @return PX_OK (found or not); PX_WARN_MAX_ITERATIONS when GJK hit its bound on a triangle (the best
///         result so far is returned); with the result cleared: PX_ERR_INVALID_ARGUMENT (NULL mesh, shape,
///         pose or result, a bad shape such as a negative size or an empty hull, max_distance < 0 or NaN),
///         PX_ERR_NON_FINITE (NaN or Inf in a pose, the shape or its hull points),
///         PX_ERR_DEGENERATE_INPUT (zero quaternion), PX_ERR_OUT_OF_RANGE (a triangle and the shape span
///         more than PX_MAX_PAIR_SIZE).
PX_API PX_NODISCARD px_status px_mesh_shape_distance(const px_mesh* mesh, const px_transform* mesh_pose,
                                                     const px_shape* shape, const px_transform* shape_pose,
                                                     float max_distance, px_mesh_distance_result* result);

/// One contact of px_mesh_shape_contacts: the shape against one triangle.
typedef struct px_mesh_contact
{
    int32_t triangle; ///< Index of the triangle
    float distance;   ///< Signed: > 0 apart, 0 touching, < 0 penetration depth [Units: length]
    vec3 point_mesh;  ///< Witness point on the triangle (world)
    vec3 point_shape; ///< Witness point on the shape (world): point_mesh + distance * normal
    vec3 normal;      ///< Unit, from the triangle to the shape (world); moving the shape by -distance *
                      ///< normal separates it from this triangle when distance < 0
} px_mesh_contact;

/// Contacts of a posed convex shape against a mesh: one per triangle within margin of the shape (but for
/// the vertex rule below).
///
/// Candidates are the triangles whose bounding boxes overlap the shape's box grown by the margin; a GJK
/// overlap test against the shape grown by the margin drops those that are farther, and each remaining
/// triangle gets the signed distance of px_contact_relative (GJK while apart, EPA when the shape crosses
/// it). A triangle is reported when its signed distance is <= margin.
///
/// Internal edges: a contact whose witness on the triangle lies only on edges that px_mesh_active_edges()
/// marks inactive (flat or concave), and whose normal is not the triangle's face normal, gets the face
/// normal on the shape's side instead, with distance the height of its point on the shape over the
/// triangle's plane (and is dropped if that exceeds the margin), so a shape sliding over a flat mesh never
/// catches on the edges between its triangles. A contact whose witness lies on one edge shared with one
/// neighbour, and whose normal points over that neighbour (past the normals an edge can have, which lie
/// between its two faces'), gets the neighbour's normal at a convex edge (the distance then the height of
/// the shape's deepest point over the plane through the edge) and the face normal at a concave one, where
/// that deepest point lies over the triangle or the neighbour (a neighbour narrower than the shape, a bevel,
/// leaves the contact as it was): a capsule on a floor touching a ridge's edge had got a normal leaning
/// away from the ridge. A contact that neither rule changes, whose witness lies at a vertex of its triangle
/// and whose normal is not the triangle's face normal (a face contact's witness is one of a tied face's
/// points), is dropped when an edge around that vertex (of the triangles sharing it, found across edge
/// neighbours) climbs towards the shape and a triangle on that edge has a contact deeper (or nearer) by more
/// than a tolerance: the vertex is then not where the shape meets the mesh, and that triangle reports the
/// contact (a sphere rolling along a roof's ridge had got, from the triangles past each ridge vertex, a
/// normal tilted back along the ridge by up to 12 degrees). The deepest contact around a vertex is never
/// dropped, and a vertex every edge falls away from (a peak) keeps its contacts.
///
/// When more than capacity triangles qualify, the capacity deepest ones are kept (smallest signed
/// distance; the lowest index among equals), so a small buffer still holds the contacts that matter most.
/// The written contacts are sorted by triangle index. The result depends only on the inputs.
/// @param[in]  mesh        The mesh [Limit: not NULL]; an empty mesh gives no contacts
/// @param[in]  mesh_pose   Pose of the mesh, or NULL for the identity
/// @param[in]  shape       The convex shape, in its local frame
/// @param[in]  shape_pose  Its world pose
/// @param[in]  margin      Contacts are reported up to this separation [Units: length]
///                         [Limit: >= 0, below PX_MAX_PAIR_SIZE]
/// @param[out] contacts    [capacity] contacts; may be NULL when capacity is 0 (count only)
/// @param[in]  capacity    Size of contacts [Limit: >= 0]
/// @param[out] count       Number of triangles within margin (may exceed capacity); 0 on errors
/// @return PX_OK; PX_WARN_CAPACITY when *count > capacity (the deepest capacity contacts are written);
///         PX_WARN_MAX_ITERATIONS when GJK or EPA hit a bound on a triangle (its best estimate is used);
///         with *count = 0: PX_ERR_INVALID_ARGUMENT (NULL mesh, shape, pose or count, contacts NULL with
///         capacity > 0, capacity < 0, a bad shape, margin < 0 or NaN), PX_ERR_NON_FINITE (NaN or Inf in a
///         pose, the margin, the shape or its hull points), PX_ERR_DEGENERATE_INPUT (zero quaternion),
///         PX_ERR_OUT_OF_RANGE (a margin of PX_MAX_PAIR_SIZE or more, or a triangle and the shape span
///         more than PX_MAX_PAIR_SIZE). A capacity shortfall and an iteration bound together report PX_WARN_CAPACITY.
PX_API PX_NODISCARD px_status px_mesh_shape_contacts(const px_mesh* mesh, const px_transform* mesh_pose,
                                                     const px_shape* shape, const px_transform* shape_pose,
                                                     float margin, px_mesh_contact* contacts, int capacity,
                                                     int* count);

/// Result of px_mesh_shape_cast. Always fully written; everything zero (triangle = PX_NULL_INDEX) on a
/// miss and on errors.
typedef struct px_mesh_cast_result
{
    bool hit;             ///< The shape touches the mesh somewhere along its translation
    bool initial_overlap; ///< It already touches or overlaps the mesh at fraction 0
    float fraction;       ///< First contact at shape_pose + fraction * translation [Limit: 0 .. 1]
    /// Contact point on the mesh at that fraction (world). On initial overlap, a point of both.
    vec3 point;
    /// Unit contact normal from the mesh to the shape (against the motion, or across it when the shape
    /// slides along the mesh); zero on initial overlap
    vec3 normal;
    int32_t triangle; ///< Index of the triangle hit, PX_NULL_INDEX on a miss
} px_mesh_cast_result;

/// Sweep a posed convex shape by a translation against a mesh and report the first contact: what a
/// character controller's capsule sweep calls.
///
/// The tree is walked along the sweep: each node's box, grown by the shape's box, is entered by the
/// motion at some fraction, and nodes are visited nearest entry first; a node or triangle entered later
/// than the best hit so far is skipped. Each remaining triangle goes through px_shape_cast_world with
/// the triangle static and the shape moving, so the tolerances of cast.h apply per triangle: the
/// reported fraction is never past the first contact, and short of it by at most the contact band
/// (about 1e-5 of the shape's and the triangle's size; a triangle more than 8 times larger than the box the
/// shape sweeps through is clipped to that box first, so a ground quad kilometres across is as precise as a
/// small one). A hit on a triangle's inactive (internal) edges takes the triangle's face normal, as
/// px_mesh_shape_contacts' contacts do. The shape's orientation does not change. Among
/// triangles hit at the same fraction, the lowest index wins.
/// @param[in]  mesh         The mesh [Limit: not NULL]; an empty mesh is never hit
/// @param[in]  mesh_pose    Pose of the mesh, or NULL for the identity
/// @param[in]  shape        The moving convex shape, in its local frame
/// @param[in]  shape_pose   Its world pose at fraction 0
/// @param[in]  translation  Its displacement over the sweep, world space [Limit: finite; may be zero: the
///                          result is then the overlap test at the start]
/// @param[out] result       Always written
/// @return PX_OK (hit or miss); PX_WARN_MAX_ITERATIONS or PX_WARN_DEGENERATE when a triangle's cast ran out
///         of iterations or stalled (its best estimate, never past the contact, is used); with the result
///         cleared: PX_ERR_INVALID_ARGUMENT (NULL mesh, shape, pose, translation or result, a bad shape),
///         PX_ERR_NON_FINITE (NaN or Inf in a pose, the translation, the shape or its hull points),
///         PX_ERR_DEGENERATE_INPUT (zero quaternion), PX_ERR_OUT_OF_RANGE (a triangle, the shape and the
///         translation span more than PX_MAX_PAIR_SIZE).
PX_API PX_NODISCARD px_status px_mesh_shape_cast(const px_mesh* mesh, const px_transform* mesh_pose,
                                                 const px_shape* shape, const px_transform* shape_pose,
                                                 const vec3 translation, px_mesh_cast_result* result);

#ifdef __cplusplus
}
#endif
