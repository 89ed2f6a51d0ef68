/* The internal-edge correction of convex-vs-mesh contacts (mesh_edges.c).
 *
 * A shape sliding over a flat floor made of many triangles also touches the triangles beside it, at their
 * shared edges, and a contact query against one triangle alone gives such an edge contact a normal that
 * points sideways (the "internal edge" or ghost collision problem): the body bumps or stops on a floor that
 * is flat. The mesh marks which edges are active (px_mesh_active_edges: boundaries, sharp convex edges);
 * when a contact's witness on the triangle lies only on inactive edges (or on a vertex both of whose edges
 * are inactive) and its normal is not the triangle's face normal, the normal becomes the face normal on the
 * convex shape's side and each point's separation is measured again along it: the point on the convex
 * shape against the triangle's plane. Contacts with a witness on an active edge that the normal leans out
 * across are left as they are; face contacts (a witness inside the triangle) are snapped to the exact face
 * normal when they are within GJK's and EPA's tolerances of it (PXI_EDGE_SNAP_COS), else left alone. This
 * is the idea of Jolt's active edges and Bullet's btAdjustInternalEdgeContacts, in its simplest form.
 *
 * A vertex lies on two edges: it counts as inactive when both are, and when only one is, unless the
 * normal leans out of the triangle across the active one (a shape on the mesh touching a vertex of the
 * boundary from inside, where the boundary goes on past the vertex, gets the face normal; one beyond the
 * boundary keeps its own). Known limitation: a triangle that touches a ledge (or a boundary) only with a
 * corner, both of its edges there flat, gets its face normal for a shape beside the ledge; the ledge's own
 * triangles keep the edge normal.
 *
 * The convex shape's side of the triangle is the side the middle of its extent along the face normal is
 * on (two support points: it does not depend on the frame), or, for a shape centred on the plane, the side
 * the contact normal leans to. An edge the normal leans out across (the shape is past the triangle there,
 * where the triangle's plane does not tell the sides apart: a box beside a ledge may be below the upper
 * floor's plane) counts as active when it is active from either side: only flat edges are corrected for
 * shapes past them. */
#pragma once

#include "../core/px_math.h"

#include "proxima/contact.h"
#include "proxima/manifold.h"
#include "proxima/mesh.h"
#include "proxima/shapes.h"
#include "proxima/transform.h"

/* A contact with a witness inside the triangle whose normal is within this misalignment (1 - cos, about
 * 0.8 degrees: GJK's and EPA's direction tolerances) of the face normal is snapped to it. */
#define PXI_EDGE_SNAP_COS 1.0e-4f
/* A witness within this fraction of the triangle's longest edge (plus the rounding of its coordinates) of
 * an edge's line lies on that edge. The witness of a contact whose normal is not the face normal is
 * always on the triangle's boundary (the triangle's support in any other direction is an edge or a
 * vertex): the tolerance only covers the rounding of GJK, EPA and the clipping, and tells a point on an
 * edge from one on a vertex. */
#define PXI_EDGE_ON_TOLERANCE 1.0e-4f

/* A normal leaning out across an active edge by less than this (the sine of the angle, 1e-3) does not
 * count as leaning out (the vertex rule above). */
#define PXI_EDGE_OUT_MIN 1.0e-3f
/* A contact whose normal is normal to an active edge at its witness's corner within this sine (0.3 degrees)
 * is an edge contact, not a vertex one (pxi_witness_vertex): its witness could lie anywhere along that edge. */
#define PXI_WITNESS_EDGE_SIN 5.0e-3f
/* A cast's hit inside a triangle takes the face normal when its own is within this (1 - cos, 2.6 degrees) of
 * it (pxi_interior_face_normal): the normal of an unrounded curved shape's hit is good to sqrt(tol / R). */
#define PXI_CAST_FACE_SNAP_COS 1.0e-3f

/* Whether a contact against triangle (a, b, c) is an internal-edge contact to correct, and the normal it
 * gets. flags: the triangle's byte of px_mesh_active_edges. shape, shape_pose: the convex shape and its
 * pose in the triangle's frame (NULL: the identity). normal: the contact normal from the triangle to the
 * shape. points: the contact's witnesses on the triangle, count of them. On true, face_normal is the
 * triangle's unit normal on the shape's side. */
bool pxi_edge_correction_normal(const float a[3], const float b[3], const float c[3], unsigned flags,
                                const px_shape* shape, const px_transform* shape_pose, const vec3 normal,
                                const vec3* points, int count, vec3 face_normal);

/* The face normal of triangle (a, b, c) on the side normal points to, into face_normal, when the witness lies
 * inside the triangle (on no edge's line, within the edge rules' tolerance), normal is within snap_cos
 * (1 - cos) of it, and the shape (posed by shape_pose in the triangle's frame, NULL: the identity) reaches
 * no deeper below the triangle's plane than that tolerance: a witness inside a triangle means the face's
 * normal in exact arithmetic, whatever the query's estimate, but a witness that only rounding put inside
 * (the edge of a triangle touching a shape's face tilted from it) leaves the shape reaching below the plane
 * past the edge. False otherwise. */
bool pxi_interior_face_normal(const float a[3], const float b[3], const float c[3], const px_shape* shape,
                               const px_transform* shape_pose, const vec3 witness, const vec3 normal, float snap_cos,
                               vec3 face_normal);

/* A contact re-made along unit normal n (from a triangle to the shape, all in one frame): point_b the shape's
 * support along -n (shape_pose NULL: the identity), distance its height over the plane through plane_point
 * with normal n, point_a its projection on that plane. False (unchanged) for a non-finite support. */
bool pxi_contact_along(px_contact* contact, const float plane_point[3], const vec3 n, const px_shape* shape,
                       const px_transform* shape_pose);

/* The neighbour rule, for contacts the flags leave alone. A contact whose witness lies on one edge of
 * triangle (a, b, c) (not at a vertex), with the normal (unit, from the triangle to the shape) pointing over
 * the neighbour across that edge (far[i]: the neighbour's vertex off edge i, NULL when the edge has no single
 * neighbour), belongs to the neighbour: an edge's contact normals lie between its two faces' normals. It gets
 *  - where the shape lies in the dihedral between the two faces (a valley seen from it), the triangle's face
 *    normal on that side, with plane_point a;
 *  - outside it (a convex edge), the neighbour's normal, with plane_point the edge's start: the triangle's
 *    support along that normal is the shared edge.
 * Returns true with out set (and *edge_out, when not NULL, the edge); pxi_contact_along (or a manifold along
 * out) then re-makes the contact, which pxi_edge_neighbour_holds must accept. */
bool pxi_edge_neighbour_normal(const float a[3], const float b[3], const float c[3], const float* const far[3],
                               const vec3 normal, const vec3 witness, vec3 out, const float** plane_point,
                               int* edge_out);

/* Whether the contact the neighbour rule re-made (turned, from pxi_contact_along, triangle (a, b, c) as A)
 * stands: the neighbour across `edge` (far: its far vertex) holds the shape there. The re-made contact
 * measures the shape's deepest point along the new normal against a plane (the neighbour's, or the
 * triangle's own); when the shape lies there, that point is within |distance| of the triangle or the
 * neighbour. A neighbour narrower than the shape is passed by it: a box 5 mm beside a step's wall, below a
 * 1 mm bevel between the wall and the floor, got from the floor the bevel's normal 0.42 deep (its corner
 * below the bevel's plane, 0.6 from it), where it is 5 mm from the mesh. original: the distance before the
 * rule (the tolerance's scale with the new one). All in one frame. */
bool pxi_edge_neighbour_holds(const float a[3], const float b[3], const float c[3], int edge, const float far[3],
                              const px_contact* turned, float original);

/* Correct a contact whose shape A is triangle (a, b, c) and B the convex shape (posed by shape_pose, NULL:
 * the identity), normal from the triangle to the shape, point_a on the triangle, all in one frame: the
 * normal becomes the face normal, point_b the shape's deepest point along it (its support towards the
 * plane), distance that point's height over the plane and point_a its projection. Returns true when it
 * changed. */
bool pxi_contact_correct_edges(px_contact* contact, const float a[3], const float b[3], const float c[3],
                               unsigned flags, const px_shape* shape, const px_transform* shape_pose);

/* The vertex rule, for contacts neither edge rule changed. A contact whose witness lies at a vertex v of its
 * triangle is a vertex contact, and v is the mesh's nearest point to the shape (or its deepest along the
 * normal) only if no edge leaving v climbs towards the shape: normal . (u - v) <= 0 for every vertex u of
 * the triangles around v (its one-ring). When an edge does climb (by more than PXI_EDGE_OUT_MIN, as a sine),
 * the contact may be a ghost: a sphere rolling along a ridge, just past one of its vertices, got from the
 * triangles beyond that vertex a normal tilted back along the ridge (12 degrees), while the triangles along
 * the ridge report the ridge's own contact, deeper. Such a contact is dropped when a triangle on the most
 * climbing edge has a contact deeper (or nearer) by more than a tolerance: so the deepest contact of a ring
 * is never dropped, and no shape loses all its contacts (a box corner pushed into a saddle gets a vertex
 * contact from every triangle around it, each with an edge climbing towards it).
 *
 * pxi_witness_vertex: the corner (0, 1, 2) of triangle (a, b, c) the witness lies at (on two edges' lines,
 * within the edge rules' tolerance), -1 otherwise, and -1 for a face contact: normal (unit, the contact's)
 * within PXI_EDGE_SNAP_COS of the face normal on either side. A shape lying on the triangle's plane touches
 * it across a face, whose points tie: the witness is one of them, at a vertex when the query's simplex
 * happens to end there (a warm start), and the contact is the surface's own, not a vertex's. (A box lying on
 * a floor, pressed 0.2 mm deeper into a wall rising from a floor vertex, had lost every floor contact.)
 * Also -1 for an edge contact: the normal normal to an edge at the corner within PXI_WITNESS_EDGE_SIN (the
 * edge's points tie, and a deep contact's witness lands at the corner or inside the edge depending on the
 * frame: env.obj at PX_TEST_SEED 34-36), for the edges in tie_edges (bit i: edge i) only: the callers pass
 * the active ones (PX_MESH_EDGE_FRONT | _BACK). A flat or concave edge gives no normal but its faces', so a
 * normal normal to it stays a vertex contact for the rule: a sphere on a ridge just behind a vertex, whose
 * fan triangle there has a flat slope edge running back along the ridge, got from it a normal tilted 10
 * degrees back along the ridge, normal to that edge, and kept it (ridge_fan_flat_edge_tie).
 * pxi_vertex_contact_climb: v the vertex, ring[count] the other vertices of the triangles around it (repeats
 * allowed), normal unit from the triangle to the shape, all in one frame; min_rise the threshold (the queries
 * take PXI_EDGE_OUT_MIN). Returns the index in ring of the vertex whose edge climbs most, -1 when none climbs
 * by more than min_rise. */
int pxi_witness_vertex(const float a[3], const float b[3], const float c[3], const vec3 witness, const vec3 normal,
                       unsigned tie_edges);
int pxi_vertex_contact_climb(const float v[3], const float (*ring)[3], int count, const vec3 normal, float min_rise);
