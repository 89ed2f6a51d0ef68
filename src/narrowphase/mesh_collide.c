/* Convex shapes against triangle meshes (mesh_collide.h): distance, contacts and shape casts.
 *
 * Each query is a walk of the mesh's BVH (mesh_internal.h) that culls by boxes in the mesh frame and hands
 * the surviving triangles, one at a time, to a convex-convex query with the triangle as shape A and the
 * caller's shape as B:
 *  - distance: best-first over the leaves by the distance between the shape's box and the node boxes
 *    (pxi_mesh_nearest), the best GJK distance so far as the pruning bound; a triangle whose plane is
 *    farther than that from the shape's box is dropped, then one whose GJK overlap test against the shape
 *    grown by the bound finds a separating plane; GJK on each remaining triangle is warm started from the
 *    previous triangle's simplex (the cache keeps support indices, and the triangles of one leaf are
 *    neighbours, so the shape's support vertices usually carry over);
 *  - contacts: every leaf overlapping the shape's box grown by the margin (pxi_mesh_overlap_leaves); a
 *    GJK overlap test against the shape grown by the margin drops the triangles that are farther, and the
 *    rest get px_contact_relative (GJK, or EPA when the shape crosses the triangle), corrected to the face
 *    normal when the witness lies on the triangle's inactive edges (mesh_edges_internal.h);
 *  - cast: a traversal along the sweep, nodes entered by the moving box nearest first (the slab test of
 *    the node box grown by the shape's box), pruned by the best fraction so far; px_shape_cast_world on
 *    each candidate triangle.
 *
 * Large triangles. A triangle more than PXI_MESH_PIECE_RATIO times larger than the region a query needs
 * of it is clipped to that region first (triangle_piece), and the convex query runs on the piece: the
 * queries' touching bands and rounding scale with the coordinates of their shapes, and a whole triangle's
 * with its far corners. The clip (and the world manifold's covering sub-triangle, cover_piece) works on the
 * triangle's corners moved into the shape's frame in double: moved in float, far corners carry the rounding
 * of their size, and so would the piece's edges near the shape.
 *
 * Frames. The triangle is moved into the shape's local frame (x_local = R^T (x_mesh - p), the translation
 * cancelling before the rotation) and the convex query runs there with the shape at the identity. So the
 * coordinates the convex queries see are of the size of the shape and its distance to the triangle, not of
 * the mesh's distance from its origin, and the per-iteration support of B needs no rotation. Results are
 * mapped to world space once, by the shape's world pose.
 *
 * Culling is conservative: the query boxes are grown by a pad that covers the rounding of the boxes and the
 * touching bands of the convex queries, so that a triangle the convex query would call nearer than (or as
 * near as) the best so far is never skipped. Ties go to the lowest triangle index, so the triangle chosen
 * does not depend on the tree's layout or the visiting order, except between triangles whose distances
 * (fractions) differ only by rounding: a warm-started GJK may end a few ulps from a cold one. The same
 * query on the same mesh always gives the same bits. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../broadphase/mesh_internal.h"
#include "../core/px_math.h"
#include "../shapes/support_internal.h"
#include "manifold_internal.h"
#include "mesh_collide_internal.h"
#include "mesh_edges_internal.h"

#include "proxima/cast.h"
#include "proxima/contact.h"
#include "proxima/geometry.h"
#include "proxima/gjk.h"
#include "proxima/mesh_collide.h"

/* The box culls grow their boxes by this many FLT_EPSILON times the size of the coordinates involved: the
 * rounding of the shape's box (px_shape_aabb), of the box distances and slab fractions, and of GJK's own
 * touching band (8 FLT_EPSILON, pxi_gjk_touch_radius), with room to spare. */
#define PXI_MESH_COLLIDE_PAD_EPS (64.0f * FLT_EPSILON)

/* Relative slack on a distance or fraction bound before a box is culled against it: the bound itself was
 * computed in float. */
#define PXI_MESH_COLLIDE_REL_SLACK (16.0f * FLT_EPSILON)

/* The shape casts stop up to their contact band short of first contact (cast.h: about PX_CAST_REL_TOLERANCE
 * of the shapes' size); the cast's boxes are grown by this many bands so that a triangle whose reported
 * fraction could win is never culled. */
#define PXI_MESH_CAST_BANDS 4.0f

/* ------------------------------------------------------------------------------------------------------ */
/* Shared set-up                                                                                           */
/* ------------------------------------------------------------------------------------------------------ */

typedef pxi_mesh_query mesh_query;

static float abs_max3(const float v[3])
{
    return px_maxf(fabsf(v[0]), px_maxf(fabsf(v[1]), fabsf(v[2])));
}

px_status pxi_mesh_query_init(const px_mesh* mesh, const px_transform* mesh_pose, const px_shape* shape,
                             const px_transform* shape_pose, pxi_mesh_query* q)
{
    if (mesh == NULL || shape == NULL || shape_pose == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = pxi_shape_validate_fast(shape);
    if (status != PX_OK)
    {
        return status;
    }
    const px_transform no_pose = PX_TRANSFORM_IDENTITY_INIT;
    status = pxi_world_pair_poses(mesh_pose != NULL ? mesh_pose : &no_pose, shape_pose, NULL, &q->rel);
    if (status == PX_OK)
    {
        status = px_transform_normalized(shape_pose, &q->shape_world);
    }
    if (status != PX_OK)
    {
        return status;
    }
    /* the box comes from supports of the shape, which also checks its hull points for NaN and Inf */
    status = px_shape_aabb(shape, &q->rel, &q->box);
    if (status != PX_OK)
    {
        return status;
    }
    q->shape = shape;
    px_rot_from_quat(q->rel.q, &q->rot);
    for (int k = 0; k < 3; ++k)
    {
        q->center[k] = 0.5f * (q->box.min[k] + q->box.max[k]);
        q->half[k] = 0.5f * (q->box.max[k] - q->box.min[k]);
    }
    q->size = px_v3_norm(q->half);
    q->coord = px_maxf(abs_max3(q->box.min), abs_max3(q->box.max));
    /* the local box from the mesh-frame one (no second pass over a hull's points): the box of that box
     * turned back into the shape's frame, which holds the shape; local = R^T (x - p) */
    vec3 c_rel, c_local;
    px_v3_sub(q->center, q->rel.p, c_rel);
    px_rot_tmulv(&q->rot, c_rel, c_local);
    for (int k = 0; k < 3; ++k)
    {
        /* column k of R is the local axis k in the mesh frame */
        const float h = fabsf(q->rot.c[k][0]) * q->half[0] + fabsf(q->rot.c[k][1]) * q->half[1] +
                        fabsf(q->rot.c[k][2]) * q->half[2];
        q->local.min[k] = c_local[k] - h;
        q->local.max[k] = c_local[k] + h;
    }
    /* a finite shape far out can still overflow its box's extent */
    return px_is_finite(q->size) && px_is_finite(q->coord) ? PX_OK : PX_ERR_NON_FINITE;
}

float pxi_mesh_query_reach(const pxi_mesh_query* q, float margin, px_aabb* box)
{
    const float pad = PXI_MESH_COLLIDE_PAD_EPS * (q->coord + q->size + margin);
    for (int k = 0; k < 3; ++k)
    {
        box->min[k] = q->box.min[k] - margin - pad;
        box->max[k] = q->box.max[k] + margin + pad;
    }
    return pad;
}

/* A point of the mesh frame in the shape's local frame: x_local = R^T (x_mesh - p), the translation
 * cancelling before the rotation. */
static void mesh_to_local(const mesh_query* q, const float x[3], vec3 local)
{
    vec3 d;
    px_v3_sub(x, q->rel.p, d);
    px_rot_tmulv(&q->rot, d, local);
}

/* mesh_to_local in double: the same transform without its rounding. The difference x_mesh - p is exact, and
 * the rotation is rounded to double, not to float: a corner 1e5 from the shape moved in float is off by up
 * to 4e-3, and a triangle's edge with it, near the shape too. */
static void mesh_to_local_d(const mesh_query* q, const float x[3], double local[3])
{
    const double d[3] = { (double)x[0] - (double)q->rel.p[0], (double)x[1] - (double)q->rel.p[1],
                          (double)x[2] - (double)q->rel.p[2] };
    for (int k = 0; k < 3; ++k)
    {
        /* column k of the rotation is the local axis k in the mesh frame */
        local[k] = (double)q->rot.c[k][0] * d[0] + (double)q->rot.c[k][1] * d[1] + (double)q->rot.c[k][2] * d[2];
    }
}

/* Longest walk over_flat_region takes: past it the region counts as flat (a large flat grid). */
#define PXI_FLAT_WALK_STEPS 32

/* Whether point p (the shape's frame) lies over the flat part of the mesh around triangle t: p projected
 * along n onto the triangles' planes falls in t, or in a triangle reached from t across flat edges (inactive
 * from both sides), walking each time across the edge p is farthest beyond. The face-normal correction
 * measures depth against t's plane as if it went on forever; that holds over the flat surface t belongs to,
 * not past a bend: a box 5 mm beside a step, its top under the floor's plane, read 0.42 deep on the
 * triangles of a 1 mm bevel between floor and wall (review 58). True when the mesh keeps no neighbours. */
static bool over_flat_region(const mesh_query* q, const px_mesh* mesh, int32_t t, const vec3 n, const vec3 p)
{
    const int32_t* adj = pxi_mesh_edge_adj(mesh);
    const uint8_t* active = pxi_mesh_active_edges(mesh);
    if (adj == NULL || active == NULL)
    {
        return true;
    }
    for (int step = 0; step < PXI_FLAT_WALK_STEPS; ++step)
    {
        vec3 v[3], e[3], cross;
        float len[3], longest = 0.0f;
        for (int i = 0; i < 3; ++i)
        {
            mesh_to_local(q, &mesh->vertices[3 * mesh->indices[3 * t + i]], v[i]);
        }
        for (int i = 0; i < 3; ++i)
        {
            px_v3_sub(v[i == 2 ? 0 : i + 1], v[i], e[i]);
            len[i] = px_v3_norm(e[i]);
            longest = px_maxf(longest, len[i]);
        }
        /* the edge tests' orientation: n with the triangle's winding or against it */
        px_v3_cross(e[0], e[1], cross);
        const float orient = px_v3_dot(cross, n) >= 0.0f ? 1.0f : -1.0f;
        int beyond = -1;
        float worst = -PXI_EDGE_ON_TOLERANCE * longest; /* within this of an edge counts as on it */
        for (int i = 0; i < 3; ++i)
        {
            vec3 r, x;
            px_v3_sub(p, v[i], r);
            px_v3_cross(e[i], r, x);
            const float inside = orient * px_v3_dot(x, n) / len[i]; /* signed distance in the plane */
            if (!(inside >= worst))
            {
                worst = inside; /* NaN takes it too, and then fails below */
                beyond = i;
            }
        }
        if (beyond < 0)
        {
            return true;
        }
        const unsigned both = PX_MESH_EDGE_FRONT(beyond) | PX_MESH_EDGE_BACK(beyond);
        const int32_t next = adj[3 * t + beyond];
        if ((active[t] & both) != 0u || next < 0 || !px_is_finite(worst))
        {
            return false; /* past a bend, a boundary or a fold */
        }
        t = next / 3;
    }
    return true;
}

/* Whether the shape's deepest points along -n (p: its support, a face contact's point_b) reach over the flat
 * part of the mesh around triangle t (over_flat_region), to the margin. The support of a shape lying flat
 * picks one point of a tied face or edge, maybe past the flat surface's edge while the rest of that face
 * lies over it: a box 0.1 deep in a floor, overhanging the floor's boundary, had its far corner chosen, and
 * the triangles beside its sides kept their sideways edge normals. So when p is not over the flat region,
 * the support along -n tilted toward t by eps (t's centroid, in the plane) is tried: its depth is within
 * eps times the shape's extent (2 size) of p's, and eps = margin / (2 size) keeps that within the margin
 * (a floor of 1e-4 breaks exact ties at a zero margin). */
static bool deep_over_flat(const mesh_query* q, const px_mesh* mesh, int32_t t, const vec3 n, const vec3 p,
                           float margin)
{
    if (over_flat_region(q, mesh, t, n, p))
    {
        return true;
    }
    vec3 centroid = { 0.0f, 0.0f, 0.0f }, u, dir, p2;
    for (int i = 0; i < 3; ++i)
    {
        vec3 v;
        mesh_to_local(q, &mesh->vertices[3 * mesh->indices[3 * t + i]], v);
        px_v3_mad(centroid, 1.0f / 3.0f, v, centroid);
    }
    px_v3_sub(centroid, p, u);
    px_v3_mad(u, -px_v3_dot(u, n), n, u); /* in the plane */
    const float len = px_v3_norm(u);
    if (!(len > 0.0f) || !px_is_finite(len))
    {
        return false;
    }
    const float eps = px_maxf(margin / (2.0f * q->size), 1.0e-4f);
    px_v3_scale(u, eps / len, u);
    px_v3_sub(u, n, dir);
    (void)px_shape_support(q->shape, dir, p2);
    return over_flat_region(q, mesh, t, n, p2);
}

/* Lane `lane` of a packet as a triangle shape in the shape's local frame; v gets its corners in the mesh frame
 * (for triangle_piece). */
static void packet_local_triangle(const mesh_query* q, const pxi_mesh_packet* p, int lane, px_shape* tri,
                                  float v[3][3])
{
    pxi_mesh_packet_triangle(p, lane, v[0], v[1], v[2]);
    /* filled in place (px_shape_triangle would build and copy a whole shape for every triangle) */
    tri->type = PX_SHAPE_TRIANGLE;
    tri->radius = 0.0f;
    float* local[3] = { tri->triangle.a, tri->triangle.b, tri->triangle.c };
    for (int i = 0; i < 3; ++i)
    {
        mesh_to_local(q, v[i], local[i]);
    }
}

/* A triangle larger than this many times the region a query needs of it is clipped to that region. */
#define PXI_MESH_PIECE_RATIO 8.0f

/* The part of a large triangle a query needs: tri (the shape's local frame) clipped to the shape's local box
 * grown by reach, into pts (at most 9 points, a convex polygon in the triangle's plane). The convex queries'
 * touching bands and rounding scale with the coordinates of their shapes, and a triangle's reach as far as
 * its far corners: a sphere 1 mm above a ground quad 2 km across read as touching, and a sweep over it as
 * an initial overlap (review 49). Its piece near the shape has the shape's scale, and holds every point of
 * the triangle within reach of the shape (of the box it sweeps through by `sweep`, when not NULL). Returns
 * the number of points (0: the triangle misses the region), or -1 when the triangle is not much larger than
 * the region (it is then used as it is).
 *
 * The clip runs in double on the triangle's corners moved from the mesh frame (mesh_v) in double
 * (mesh_to_local_d), written to corners when not NULL (for cover_piece), and only the piece's points, near
 * the shape, are rounded to float: tri's far corners carry the rounding of their own size, and a piece cut
 * from them had an edge 2e-3 to 4e-3 off the triangle's near a shape 1.5e4 from the corners of a 2e5 quad
 * (the world manifold's covering triangle then missed the witness on its inner edge, and kept a normal
 * tilted 14 degrees). */
static int triangle_piece(const mesh_query* q, const px_shape* tri, const float mesh_v[3][3], const float* sweep,
                          float reach, float pts[27], double corners[3][3])
{
    float lo[3], hi[3], span = 0.0f, tri_span = 0.0f;
    const float* v[3] = { tri->triangle.a, tri->triangle.b, tri->triangle.c };
    for (int k = 0; k < 3; ++k)
    {
        const float r = sweep != NULL ? sweep[k] : 0.0f;
        lo[k] = q->local.min[k] + px_minf(r, 0.0f) - reach;
        hi[k] = q->local.max[k] + px_maxf(r, 0.0f) + reach;
        span = px_maxf(span, hi[k] - lo[k]);
        const float tlo = px_minf(v[0][k], px_minf(v[1][k], v[2][k]));
        const float thi = px_maxf(v[0][k], px_maxf(v[1][k], v[2][k]));
        tri_span = px_maxf(tri_span, thi - tlo);
    }
    if (!(tri_span > PXI_MESH_PIECE_RATIO * span))
    {
        return -1; /* NaN too: the triangle as it is */
    }
    double buf[2][27];
    int n = 3;
    for (int i = 0; i < 3; ++i)
    {
        mesh_to_local_d(q, mesh_v[i], &buf[0][3 * i]);
        if (corners != NULL)
        {
            memcpy(corners[i], &buf[0][3 * i], sizeof(corners[i]));
        }
    }
    int cur = 0;
    /* Sutherland-Hodgman against the six planes x_k >= lo_k, x_k <= hi_k: a triangle gains at most one
     * vertex per plane */
    for (int plane = 0; plane < 6 && n > 0; ++plane)
    {
        const int k = plane >> 1;
        const double sign = (plane & 1) ? 1.0 : -1.0, bound = (plane & 1) ? hi[k] : lo[k];
        const double* in = buf[cur];
        double* out = buf[cur ^ 1];
        int m = 0;
        for (int i = 0; i < n; ++i)
        {
            const double* a = in + 3 * i;
            const double* b = in + 3 * (i + 1 < n ? i + 1 : 0);
            const double da = sign * (a[k] - bound), db = sign * (b[k] - bound); /* <= 0 inside */
            /* (a convex polygon gains at most one vertex per plane; the bound holds should rounding make it
             * a hair non-convex) */
            if (da <= 0.0 && m < 9)
            {
                memcpy(out + 3 * m++, a, 3 * sizeof(double));
            }
            if (((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) && m < 9)
            {
                const double t = da / (da - db);
                double* x = out + 3 * m++;
                for (int c = 0; c < 3; ++c)
                {
                    x[c] = a[c] + t * (b[c] - a[c]);
                }
                x[k] = bound; /* on the plane exactly */
            }
        }
        n = m;
        cur ^= 1;
    }
    for (int i = 0; i < 3 * n; ++i)
    {
        pts[i] = (float)buf[cur][i]; /* within the region: coordinates of the shape's size */
    }
    return n;
}

/* The triangle a convex query runs on: tri itself (mesh_v: its corners in the mesh frame), or its piece
 * (triangle_piece, the points written to pts, the shape to *piece) when tri is large; NULL when the piece is
 * empty (tri is beyond reach). */
static const px_shape* query_triangle(const mesh_query* q, const px_shape* tri, const float mesh_v[3][3],
                                      const float* sweep, float reach, float pts[27], px_shape* piece)
{
    const int count = triangle_piece(q, tri, mesh_v, sweep, reach, pts, NULL);
    if (count < 0)
    {
        return tri;
    }
    if (count == 0)
    {
        return NULL;
    }
    *piece = px_shape_hull(pts, count);
    return piece;
}

/* The vertices across the edges of mesh triangle `triangle` (pxi_mesh_edge_adj) in the shape's local frame,
 * written to pts; far[i] is NULL where edge i has no single neighbour. False when the mesh keeps no
 * neighbours (built without active edges) or the triangle has none. */
static bool local_far_vertices(const mesh_query* q, const px_mesh* mesh, int32_t triangle, float pts[3][3],
                               const float* far[3])
{
    const int32_t* adj = pxi_mesh_edge_adj(mesh);
    bool any = false;
    for (int i = 0; i < 3; ++i)
    {
        const int32_t across = adj != NULL ? adj[3 * triangle + i] : -1;
        const int32_t v = across >= 0 ? pxi_mesh_adj_far_vertex(mesh, across) : -1;
        far[i] = NULL;
        if (v >= 0)
        {
            mesh_to_local(q, &mesh->vertices[3 * v], pts[i]);
            far[i] = pts[i];
            any = true;
        }
    }
    return any;
}

/* Largest number of triangles around a vertex the vertex rule reads (a ring with more is cut short: its
 * edges are then a part of the ring's, and the rule can only miss a ghost, not make one). */
#define PXI_RING_MAX_TRIANGLES 16

/* The vertex rule (mesh_edges_internal.h) on contact c, which neither edge rule changed, of mesh triangle
 * `triangle` (whole: the triangle in the shape's frame) as A, normal its normal from the triangle to the shape
 * and witness its point on the triangle: whether it is a ghost to drop, its witness at a vertex with an edge
 * of the vertex's one-ring climbing towards the shape, and a triangle on that edge with a contact deeper by
 * more than the tolerance. */
static bool vertex_ghost(const mesh_query* q, const px_mesh* mesh, int32_t triangle, const px_shape* whole,
                         const px_contact* c, const vec3 normal, const vec3 witness)
{
    const float* corners[3] = { whole->triangle.a, whole->triangle.b, whole->triangle.c };
    const uint8_t* active = pxi_mesh_active_edges(mesh);
    const unsigned flags = active != NULL ? active[triangle] : 0x3Fu;
    const unsigned either = (flags | (flags >> 3)) & 7u; /* edges active from either side */
    const int k = pxi_witness_vertex(corners[0], corners[1], corners[2], witness, normal, either);
    if (k < 0)
    {
        return false;
    }
    int32_t ring[PXI_RING_MAX_TRIANGLES][2];
    const int count = pxi_mesh_vertex_ring(mesh, triangle, k, ring, PXI_RING_MAX_TRIANGLES);
    float local[2 * PXI_RING_MAX_TRIANGLES][3];
    for (int i = 0; i < count; ++i)
    {
        mesh_to_local(q, &mesh->vertices[3 * ring[i][0]], local[2 * i]);
        mesh_to_local(q, &mesh->vertices[3 * ring[i][1]], local[2 * i + 1]);
    }
    const int climb =
        pxi_vertex_contact_climb(corners[k], (const float(*)[3])local, 2 * count, normal, PXI_EDGE_OUT_MIN);
    if (climb < 0)
    {
        return false;
    }
    /* the triangles on the climbing edge (the ring's first is this one) */
    const int32_t u = ring[climb / 2][climb % 2];
    const float tol = PXI_EDGE_ON_TOLERANCE * (fabsf(c->distance) + q->size) +
                      64.0f * FLT_EPSILON * (q->size + fabsf(c->distance));
    for (int i = 1; i < count; ++i)
    {
        if (ring[i][0] != u && ring[i][1] != u)
        {
            continue;
        }
        px_shape other = px_shape_triangle(corners[k], local[2 * i], local[2 * i + 1]);
        px_gjk_input input;
        input.a = &other;
        input.b = q->shape;
        px_transform_identity(&input.b_in_a);
        px_contact oc;
        if (px_contact_relative(&input, NULL, NULL, &oc) >= 0 && oc.distance < c->distance - tol)
        {
            return true;
        }
    }
    return false;
}

/* The smallest triangle similar to tri (its edges parallel to tri's, vertex i for vertex i) that holds the
 * piece pts[0..count) of tri, written over tri; false when the piece is a point. It lies inside tri: its
 * edges are the lines, parallel to tri's, through the piece's extreme points (barycentric coordinate i of its
 * points is at least the piece's least, m_i), so an edge of tri the piece reaches stays where it is and the
 * others cut through tri where the piece ends, at the border of the region the piece was clipped to. Worked
 * in double, from tri's corners in double (corners, triangle_piece's): the piece's size is a small part of
 * tri's, and tri's float corners are off by their own rounding. */
static bool cover_piece(px_shape* tri, const double corners[3][3], const float* pts, int count)
{
    double v0[3], e1[3], e2[3], n[3];
    for (int k = 0; k < 3; ++k)
    {
        v0[k] = corners[0][k];
        e1[k] = corners[1][k] - v0[k];
        e2[k] = corners[2][k] - v0[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    const double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (!(nn > 0.0))
    {
        return false;
    }
    double m[3] = { INFINITY, INFINITY, INFINITY };
    for (int j = 0; j < count; ++j)
    {
        double d[3], c1[3], c2[3];
        for (int k = 0; k < 3; ++k)
        {
            d[k] = (double)pts[3 * j + k] - v0[k];
        }
        /* d = b1 e1 + b2 e2: d x e2 = b1 n and e1 x d = b2 n */
        c1[0] = d[1] * e2[2] - d[2] * e2[1];
        c1[1] = d[2] * e2[0] - d[0] * e2[2];
        c1[2] = d[0] * e2[1] - d[1] * e2[0];
        c2[0] = e1[1] * d[2] - e1[2] * d[1];
        c2[1] = e1[2] * d[0] - e1[0] * d[2];
        c2[2] = e1[0] * d[1] - e1[1] * d[0];
        const double b1 = (c1[0] * n[0] + c1[1] * n[1] + c1[2] * n[2]) / nn;
        const double b2 = (c2[0] * n[0] + c2[1] * n[1] + c2[2] * n[2]) / nn;
        m[0] = fmin(m[0], 1.0 - b1 - b2);
        m[1] = fmin(m[1], b1);
        m[2] = fmin(m[2], b2);
    }
    for (int i = 0; i < 3; ++i)
    {
        m[i] = fmax(m[i], 0.0); /* the piece's points are in tri, to rounding */
    }
    const double rest = 1.0 - m[0] - m[1] - m[2]; /* the sub-triangle's size, relative to tri's */
    if (!(rest > 0.0))
    {
        return false;
    }
    float* out[3] = { tri->triangle.a, tri->triangle.b, tri->triangle.c };
    for (int i = 0; i < 3; ++i)
    {
        /* vertex i: coordinate i is m_i + rest, the others are their least */
        const double b1 = m[1] + (i == 1 ? rest : 0.0), b2 = m[2] + (i == 2 ? rest : 0.0);
        for (int k = 0; k < 3; ++k)
        {
            out[i][k] = (float)(v0[k] + b1 * e1[k] + b2 * e2[k]);
        }
    }
    return true;
}

px_status pxi_mesh_triangle_manifold(const pxi_mesh_query* q, const px_mesh* mesh, int32_t triangle, bool mesh_is_a,
                                     const px_manifold_config* config, px_manifold* m, bool* corrected)
{
    static const px_manifold zero;
    *m = zero;
    if (corrected != NULL)
    {
        *corrected = false;
    }
    px_manifold_config defaults;
    config = pxi_manifold_config_or_default(config, &defaults);
    /* the triangle in the shape's frame, as the contact queries have it */
    px_shape tri;
    tri.type = PX_SHAPE_TRIANGLE;
    tri.radius = 0.0f;
    const int32_t* t = &mesh->indices[3 * triangle];
    float* local[3] = { tri.triangle.a, tri.triangle.b, tri.triangle.c };
    float mesh_v[3][3];
    for (int i = 0; i < 3; ++i)
    {
        memcpy(mesh_v[i], &mesh->vertices[3 * t[i]], sizeof(mesh_v[i]));
        mesh_to_local(q, mesh_v[i], local[i]);
    }
    const px_shape whole = tri; /* the triangle itself: the neighbour rule checks the shape against it */
    float pts[27];
    double corners[3][3];
    const int count = triangle_piece(q, &tri, (const float(*)[3])mesh_v, NULL, config->margin + 2.0f * q->size, pts,
                                     corners);
    if (count == 0 || (count > 0 && !cover_piece(&tri, (const double(*)[3])corners, pts, count)))
    {
        return PX_OK; /* beyond reach */
    }
    /* The contact first, and the edge rules on its witness (the decisions px_mesh_shape_contacts makes): a
     * corrected contact gets the manifold of its new normal, any other the manifold clipped from it.
     * (Deciding on a manifold's clipped points instead let a box's tilted face, clipped inside the triangle,
     * keep an inner edge's normal.) The contact runs on the piece itself, the manifold on the covering
     * sub-triangle: the piece of a long thin triangle spans its whole width, so the sub-triangle similar to
     * it reaches back to its far corner, and the contact query's touching band grows with it (a sphere 1 mm
     * over a strip 4 km x 1 m read as touching). */
    px_gjk_input input;
    px_shape piece;
    const px_shape* near = &tri;
    if (count > 0)
    {
        piece = px_shape_hull(pts, count);
        near = &piece;
    }
    input.a = mesh_is_a ? near : q->shape;
    input.b = mesh_is_a ? q->shape : near;
    px_transform_identity(&input.b_in_a);
    px_contact c;
    px_status status = px_contact_relative(&input, &config->contact, NULL, &c);
    input.a = mesh_is_a ? &tri : q->shape; /* the manifold's triangle (its witness lies in the piece, in tri) */
    input.b = mesh_is_a ? q->shape : &tri;
    if (status < 0)
    {
        return status;
    }
    if (!(c.distance <= config->margin))
    {
        return status; /* apart (the contact's distance is certified when they are) */
    }
    const uint8_t* active = pxi_mesh_active_edges(mesh);
    vec3 toward_shape, witness, fn;
    px_v3_scale(c.normal, mesh_is_a ? 1.0f : -1.0f, toward_shape);
    px_v3_copy(mesh_is_a ? c.point_a : c.point_b, witness);
    bool correct = active != NULL && pxi_edge_correction_normal(tri.triangle.a, tri.triangle.b, tri.triangle.c,
                                                                active[triangle], q->shape, NULL, toward_shape,
                                                                (const vec3*)&witness, 1, fn);
    if (correct)
    {
        /* as px_mesh_shape_contacts: a face contact much deeper than the triangle's own stands only over the
         * flat surface the triangle belongs to */
        px_contact face = c;
        px_v3_copy(toward_shape, face.normal);
        px_v3_copy(witness, face.point_a);
        correct = pxi_contact_along(&face, tri.triangle.a, fn, q->shape, NULL) &&
                  (!(face.distance < c.distance - config->margin) ||
                   deep_over_flat(q, mesh, triangle, fn, face.point_b, config->margin));
    }
    float far_pts[3][3];
    const float* far[3];
    const float* plane_point = NULL;
    int edge = -1;
    bool turn = !correct && local_far_vertices(q, mesh, triangle, far_pts, far) &&
                pxi_edge_neighbour_normal(tri.triangle.a, tri.triangle.b, tri.triangle.c, far, toward_shape, witness,
                                          fn, &plane_point, &edge);
    if (turn)
    {
        /* the contact the rule makes, with the triangle as A, stands only where the neighbour holds the shape */
        px_contact turned = c;
        px_v3_copy(toward_shape, turned.normal);
        px_v3_copy(witness, turned.point_a);
        turn = pxi_contact_along(&turned, plane_point, fn, q->shape, NULL) &&
               pxi_edge_neighbour_holds(whole.triangle.a, whole.triangle.b, whole.triangle.c, edge, far[edge], &turned,
                                        c.distance);
    }
    if (!correct && !turn && active != NULL && vertex_ghost(q, mesh, triangle, &whole, &c, toward_shape, witness))
    {
        return status; /* a ghost at a vertex: the ring's nearer triangles give this contact */
    }
    px_manifold lm;
    px_status ms;
    if (correct || turn)
    {
        px_transform identity;
        px_transform_identity(&identity);
        vec3 normal;
        px_v3_scale(fn, mesh_is_a ? 1.0f : -1.0f, normal);
        ms = mesh_is_a ? pxi_manifold_world_along(&tri, &identity, q->shape, &identity, config, normal, &lm)
                       : pxi_manifold_world_along(q->shape, &identity, &tri, &identity, config, normal, &lm);
    }
    else
    {
        ms = pxi_manifold_from_contact(input.a, input.b, &input.b_in_a, config, &c, &lm);
    }
    if (ms < 0)
    {
        return ms; /* not reached: the contact query accepted the pair */
    }
    if (corrected != NULL)
    {
        *corrected = correct || turn;
    }
    pxi_manifold_to_world(&lm, &q->shape_world, m); /* by the shape's pose */
    return status;
}

/* Bounds of lane `lane` of a packet. */
static void packet_box(const pxi_mesh_packet* p, int lane, float lo[3], float hi[3])
{
    for (int k = 0; k < 3; ++k)
    {
        float x = p->v[0][k][lane], y = p->v[1][k][lane], z = p->v[2][k][lane];
        lo[k] = px_minf(x, px_minf(y, z));
        hi[k] = px_maxf(x, px_maxf(y, z));
    }
}

/* Squared distance between two boxes (0 when they overlap). */
static float box_distance2(const float amin[3], const float amax[3], const float bmin[3], const float bmax[3])
{
    float acc = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        float gap = px_maxf(px_maxf(amin[k] - bmax[k], bmin[k] - amax[k]), 0.0f);
        acc += gap * gap;
    }
    return acc;
}

/* A point and a direction of the shape's local frame in world space. */
static void local_to_world(const mesh_query* q, const vec3 point, const vec3 dir, vec3 point_world,
                           vec3 dir_world)
{
    if (point != NULL)
    {
        px_transform_point(&q->shape_world, point, point_world);
    }
    if (dir != NULL)
    {
        px_transform_vector(&q->shape_world, dir, dir_world);
    }
}

/* Keep the more serious of two non-error statuses (PX_WARN_CAPACITY > PX_WARN_DEGENERATE > iterations). */
static px_status worse_warning(px_status a, px_status b)
{
    return b > a ? b : a;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Distance                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct distance_search
{
    const mesh_query* q;
    float qmin[3], qmax[3]; /* the shape's box, grown by pad */
    float pad;
    float max_distance;
    float best;         /* best distance so far (INFINITY: none) */
    int32_t best_index; /* its triangle, INT32_MAX when none */
    px_gjk_result best_result;
    px_simplex_cache cache; /* warm start, carried from triangle to triangle */
    px_status status;
    int gjk_calls;
} distance_search;

/* Sum of the absolute components. */
static float abs_sum3(const float v[3])
{
    return fabsf(v[0]) + fabsf(v[1]) + fabsf(v[2]);
}

/* True when the shape's box lies on one side of the triangle's plane, farther than sqrt(bound2) from it:
 * then so is the shape from the triangle. Big flat triangles (floors, walls) whose boxes are near the shape
 * but whose planes are not are dropped here without GJK.
 *
 * The slack covers the rounding of the plane. The cross product's components are only good to a few
 * FLT_EPSILON times |e1| |e2| (not times |n|): for a sliver or a degenerate triangle, whose computed n is
 * mostly rounding noise pointing anywhere, the slack swamps the gap and the triangle is kept for GJK. The
 * second term covers the rounding of the box itself (coordinates of the size of the mesh frame's). */
static bool beyond_plane(const mesh_query* q, const pxi_mesh_packet* p, int lane, float bound2)
{
    float a[3], b[3], c[3];
    pxi_mesh_packet_triangle(p, lane, a, b, c);
    vec3 e1, e2, n, d;
    px_v3_sub(b, a, e1);
    px_v3_sub(c, a, e2);
    px_v3_cross(e1, e2, n);
    px_v3_sub(q->center, a, d);
    float side = fabsf(px_v3_dot(n, d));
    float reach = fabsf(n[0]) * q->half[0] + fabsf(n[1]) * q->half[1] + fabsf(n[2]) * q->half[2];
    float slack = PXI_MESH_COLLIDE_PAD_EPS * (abs_sum3(e1) * abs_sum3(e2) * (abs_sum3(d) + abs_sum3(q->half)) +
                                              abs_sum3(n) * (abs_max3(a) + abs_max3(q->center) + q->size));
    float gap = side - reach - slack;
    /* NaN or overflow (coordinates beyond 1e19) keeps the triangle */
    return gap > 0.0f && gap * gap > bound2 * px_v3_norm2(n);
}

/* The squared pruning bound for a best distance: nodes and triangles whose boxes are farther are skipped. */
static float distance_bound2(const distance_search* s, float best)
{
    float b = best * (1.0f + PXI_MESH_COLLIDE_REL_SLACK) + s->pad;
    return b * b;
}

/* Hot: called for every leaf the best-first search reaches. Triangles are tested nearest box first, so
 * the bound tightens as early as possible. */
static bool distance_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    distance_search* s = context;
    float d2[PX_MESH_MAX_LEAF_TRIANGLES];
    int order[PX_MESH_MAX_LEAF_TRIANGLES];
    int n = 0;
    for (int i = 0; i < count; ++i)
    {
        float lo[3], hi[3];
        packet_box(&packets[i >> 2], i & 3, lo, hi);
        d2[i] = box_distance2(lo, hi, s->qmin, s->qmax);
        if (d2[i] <= *best_d2)
        {
            int j = n++;
            while (j > 0 && d2[order[j - 1]] > d2[i])
            {
                order[j] = order[j - 1];
                --j;
            }
            order[j] = i;
        }
    }
    for (int j = 0; j < n; ++j)
    {
        int i = order[j];
        if (!(d2[i] <= *best_d2))
        {
            continue; /* the bound tightened since */
        }
        const pxi_mesh_packet* p = &packets[i >> 2];
        int32_t index = p->index[i & 3];
        if (beyond_plane(s->q, p, i & 3, *best_d2))
        {
            continue;
        }
        px_shape tri;
        float mesh_v[3][3];
        packet_local_triangle(s->q, p, i & 3, &tri, mesh_v);
        px_gjk_input input;
        input.a = &tri;
        input.b = s->q->shape;
        px_transform_identity(&input.b_in_a);
        float limit = px_minf(s->best, s->max_distance);
        /* a large triangle: its piece within reach of the shape, with a cache of its own (the carried one
         * names triangle vertices) */
        float reach = limit;
        if (!(reach < INFINITY))
        {
            /* nothing yet: the distance from the shape's box centre to the triangle, plus the box's half
             * diagonal (the centre may lie outside the shape, within that of it), bounds it */
            vec3 centre, half, near_point;
            float bary[3];
            for (int k = 0; k < 3; ++k)
            {
                centre[k] = 0.5f * (s->q->local.min[k] + s->q->local.max[k]);
                half[k] = 0.5f * (s->q->local.max[k] - s->q->local.min[k]);
            }
            (void)px_closest_point_triangle(centre, tri.triangle.a, tri.triangle.b, tri.triangle.c, bary, near_point);
            reach = sqrtf(px_v3_distance2(centre, near_point)) + px_v3_norm(half);
        }
        float pts[27];
        px_shape piece;
        input.a = query_triangle(s->q, &tri, (const float(*)[3])mesh_v, NULL,
                                 reach * (1.0f + PXI_MESH_COLLIDE_REL_SLACK) + s->pad, pts, &piece);
        if (input.a == NULL)
        {
            continue; /* beyond the bound */
        }
        px_simplex_cache piece_cache = PX_SIMPLEX_CACHE_INIT;
        px_simplex_cache* cache = input.a == &tri ? &s->cache : &piece_cache;
        if (limit < INFINITY)
        {
            /* Cheap rejection first: an overlap test against the shape grown by the best distance (or by
             * max_distance before anything is found) stops at
             * the first plane that separates them by more (usually within an iteration or two), and when it
             * does not, its simplex warm-starts the distance. Measured on FCL's scene (a 64-vertex hull over
             * env.obj) it skips the full GJK on 60% of the candidates and saves 13% of the instructions;
             * carrying the simplex from triangle to triangle saves another 24%. A test that hit its
             * iteration bound proves nothing, so only a clean "apart" skips the triangle. */
            px_shape grown = *s->q->shape;
            grown.radius += limit * (1.0f + PXI_MESH_COLLIDE_REL_SLACK) + s->pad;
            input.b = &grown;
            bool overlap = true;
            px_status status = px_gjk_overlap(&input, NULL, cache, &overlap);
            input.b = s->q->shape;
            if (status < 0)
            {
                s->status = status;
                return false;
            }
            if (!overlap && status == PX_OK)
            {
                continue;
            }
        }
        px_gjk_result r;
        px_status status = px_gjk_distance(&input, NULL, cache, &r);
        s->gjk_calls++;
        if (status < 0)
        {
            s->status = status;
            return false;
        }
        s->status = worse_warning(s->status, status);
        bool better = r.distance < s->best || (r.distance == s->best && index < s->best_index);
        if (better && r.distance <= s->max_distance)
        {
            s->best = r.distance;
            s->best_index = index;
            s->best_result = r;
            *best_d2 = distance_bound2(s, r.distance);
        }
    }
    return true;
}

px_status px_mesh_shape_distance(const px_mesh* mesh, const px_transform* mesh_pose, const px_shape* shape,
                                 const px_transform* shape_pose, float max_distance,
                                 px_mesh_distance_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    result->triangle = PX_NULL_INDEX;
    if (!(max_distance >= 0.0f))
    {
        return PX_ERR_INVALID_ARGUMENT; /* negative or NaN */
    }
    mesh_query q;
    px_status status = pxi_mesh_query_init(mesh, mesh_pose, shape, shape_pose, &q);
    if (status != PX_OK)
    {
        return status;
    }
    if (!(max_distance < PX_MAX_PAIR_SIZE))
    {
        /* no pair query reaches that far (PX_ERR_OUT_OF_RANGE): the same as no limit. FLT_MAX, a common "no
         * limit", had overflowed the grown shape of the pruning test (PX_ERR_NON_FINITE). */
        max_distance = INFINITY;
    }
    distance_search s;
    memset(&s, 0, sizeof(s));
    s.q = &q;
    s.pad = PXI_MESH_COLLIDE_PAD_EPS * (q.coord + q.size);
    for (int k = 0; k < 3; ++k)
    {
        s.qmin[k] = q.box.min[k] - s.pad;
        s.qmax[k] = q.box.max[k] + s.pad;
    }
    s.max_distance = max_distance;
    s.best = INFINITY;
    s.best_index = INT32_MAX;
    s.status = PX_OK;
    float best_d2 = isinf(max_distance) ? INFINITY : distance_bound2(&s, max_distance);
    pxi_mesh_nearest(mesh, s.qmin, s.qmax, &best_d2, distance_leaf, &s);
    result->gjk_calls = s.gjk_calls;
    if (s.status < 0)
    {
        memset(result, 0, sizeof(*result));
        result->triangle = PX_NULL_INDEX;
        return s.status;
    }
    if (s.best_index == INT32_MAX)
    {
        return s.status;
    }
    const px_gjk_result* r = &s.best_result;
    result->found = true;
    result->distance = r->distance;
    result->overlap = r->distance == 0.0f;
    result->triangle = s.best_index;
    local_to_world(&q, r->point_a, r->normal, result->point_mesh, result->normal);
    local_to_world(&q, r->point_b, NULL, result->point_shape, NULL);
    return s.status;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Contacts                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct contact_search
{
    const mesh_query* q;
    float qmin[3], qmax[3]; /* the shape's box grown by the margin and the pad */
    float margin;
    float reach2; /* (margin + pad)^2: triangles whose planes are farther from the shape's box are skipped */
    px_shape grown; /* the shape with its radius grown by the margin and the pad: the overlap pre-test */
    const uint8_t* active; /* the mesh's active-edge bits (NULL: built without them) */
    const px_mesh* mesh;
    px_mesh_contact* out;
    int capacity;
    int kept;  /* contacts in out (min(count, capacity)) */
    int count; /* triangles within the margin */
    px_simplex_cache cache;
    px_status status;
} contact_search;

/* True when contact a is deeper than b (smaller signed distance, then lower index). */
static bool deeper(float da, int32_t ia, float db, int32_t ib)
{
    return da < db || (da == db && ia < ib);
}

/* Keep a contact: append while there is room, else replace the shallowest kept one if it is deeper. */
static void keep_contact(contact_search* s, const px_mesh_contact* c)
{
    s->count++;
    if (s->kept < s->capacity)
    {
        s->out[s->kept++] = *c;
        return;
    }
    int worst = -1;
    for (int i = 0; i < s->kept; ++i)
    {
        if (worst < 0 ||
            deeper(s->out[worst].distance, s->out[worst].triangle, s->out[i].distance, s->out[i].triangle))
        {
            worst = i;
        }
    }
    if (worst >= 0 && deeper(c->distance, c->triangle, s->out[worst].distance, s->out[worst].triangle))
    {
        s->out[worst] = *c;
    }
}

/* Hot: called for every leaf overlapping the grown box. */
static bool contact_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    (void)best_d2;
    contact_search* s = context;
    for (int i = 0; i < count; ++i)
    {
        const pxi_mesh_packet* p = &packets[i >> 2];
        int lane = i & 3;
        float lo[3], hi[3];
        packet_box(p, lane, lo, hi);
        if (!(lo[0] <= s->qmax[0] && hi[0] >= s->qmin[0] && lo[1] <= s->qmax[1] && hi[1] >= s->qmin[1] &&
              lo[2] <= s->qmax[2] && hi[2] >= s->qmin[2]) ||
            beyond_plane(s->q, p, lane, s->reach2))
        {
            continue;
        }
        px_shape tri;
        float mesh_v[3][3];
        packet_local_triangle(s->q, p, lane, &tri, mesh_v);
        px_gjk_input input;
        input.a = &tri;
        input.b = &s->grown;
        px_transform_identity(&input.b_in_a);
        /* a large triangle: its piece within the margin and twice the shape's size (so that no escape across
         * the piece's cut edges is shorter than one out of the triangle's plane), with its own cache */
        float pts[27];
        px_shape piece;
        input.a = query_triangle(s->q, &tri, (const float(*)[3])mesh_v, NULL, s->margin + 2.0f * s->q->size, pts,
                                 &piece);
        if (input.a == NULL)
        {
            continue;
        }
        px_simplex_cache piece_cache = PX_SIMPLEX_CACHE_INIT;
        px_simplex_cache* cache = input.a == &tri ? &s->cache : &piece_cache;
        /* Cheap rejection first: the overlap test stops at the first plane that separates the triangle from
         * the grown shape, usually within an iteration or two; its simplex then warm-starts the contact,
         * and the contact's the next triangle's test (13% fewer instructions than cold starts on FCL's
         * scene: neighbouring triangles share the shape's support vertices). */
        bool overlap = false;
        px_status status = px_gjk_overlap(&input, NULL, cache, &overlap);
        if (status < 0)
        {
            s->status = status;
            return false;
        }
        if (!overlap && status == PX_OK)
        {
            continue; /* a test that hit its iteration bound proves nothing: compute the contact */
        }
        input.b = s->q->shape;
        px_contact c;
        status = px_contact_relative(&input, NULL, cache, &c);
        if (status < 0)
        {
            s->status = status;
            return false;
        }
        s->status = worse_warning(s->status, status);
        unsigned flags = s->active != NULL ? s->active[p->index[lane]] : 0x3Fu; /* none: all edges active */
        if (c.distance <= s->margin)
        {
            /* an internal-edge contact takes the face normal, and one whose normal points over the neighbour
             * across its edge the normal that neighbour gives (mesh_edges_internal.h); its distance may then
             * pass the margin */
            const px_contact raw = c;
            bool fixed = (flags & 0x3Fu) != 0x3Fu &&
                         pxi_contact_correct_edges(&c, tri.triangle.a, tri.triangle.b, tri.triangle.c, flags,
                                                   s->q->shape, NULL);
            bool kept_raw = !fixed;
            if (fixed && c.distance < raw.distance - s->margin &&
                !deep_over_flat(s->q, s->mesh, p->index[lane], c.normal, c.point_b, s->margin))
            {
                c = raw; /* deeper than the triangle's own contact, measured past the flat surface: not a seam */
                kept_raw = true;
            }
            float far_pts[3][3];
            const float* far[3];
            vec3 n;
            const float* plane_point = NULL;
            int edge = -1;
            if (!fixed && local_far_vertices(s->q, s->mesh, p->index[lane], far_pts, far) &&
                pxi_edge_neighbour_normal(tri.triangle.a, tri.triangle.b, tri.triangle.c, far, c.normal, c.point_a,
                                          n, &plane_point, &edge))
            {
                /* re-made along the neighbour's normal (or the face's), where the neighbour holds the shape */
                px_contact turned = c;
                if (pxi_contact_along(&turned, plane_point, n, s->q->shape, NULL) &&
                    pxi_edge_neighbour_holds(tri.triangle.a, tri.triangle.b, tri.triangle.c, edge, far[edge], &turned,
                                             c.distance))
                {
                    c = turned;
                    kept_raw = false;
                }
            }
            if (kept_raw && s->active != NULL &&
                vertex_ghost(s->q, s->mesh, p->index[lane], &tri, &c, c.normal, c.point_a))
            {
                continue; /* a ghost at a vertex: the ring's nearer triangles give this contact */
            }
        }
        if (c.distance <= s->margin)
        {
            px_mesh_contact mc;
            mc.triangle = p->index[lane];
            mc.distance = c.distance;
            local_to_world(s->q, c.point_a, c.normal, mc.point_mesh, mc.normal);
            local_to_world(s->q, c.point_b, NULL, mc.point_shape, NULL);
            keep_contact(s, &mc);
        }
    }
    return true;
}

static int compare_contacts(const void* a, const void* b)
{
    int32_t x = ((const px_mesh_contact*)a)->triangle, y = ((const px_mesh_contact*)b)->triangle;
    return (x > y) - (x < y);
}

px_status px_mesh_shape_contacts(const px_mesh* mesh, const px_transform* mesh_pose, const px_shape* shape,
                                 const px_transform* shape_pose, float margin, px_mesh_contact* contacts,
                                 int capacity, int* count)
{
    if (count == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *count = 0;
    if (capacity < 0 || (capacity > 0 && contacts == NULL) || isnan(margin) || margin < 0.0f)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (!px_is_finite(margin))
    {
        return PX_ERR_NON_FINITE;
    }
    if (!(margin < PX_MAX_PAIR_SIZE))
    {
        return PX_ERR_OUT_OF_RANGE; /* (FLT_MAX had overflowed the grown shape: PX_ERR_NON_FINITE) */
    }
    mesh_query q;
    px_status status = pxi_mesh_query_init(mesh, mesh_pose, shape, shape_pose, &q);
    if (status != PX_OK)
    {
        return status;
    }
    contact_search s;
    memset(&s, 0, sizeof(s));
    s.q = &q;
    s.margin = margin;
    px_aabb reach;
    const float pad = pxi_mesh_query_reach(&q, margin, &reach);
    memcpy(s.qmin, reach.min, sizeof(s.qmin));
    memcpy(s.qmax, reach.max, sizeof(s.qmax));
    s.reach2 = (margin + pad) * (margin + pad);
    s.grown = *shape;
    s.grown.radius = shape->radius + margin + pad;
    s.active = pxi_mesh_active_edges(mesh);
    s.mesh = mesh;
    s.out = contacts;
    s.capacity = capacity;
    s.status = PX_OK;
    pxi_mesh_overlap_leaves(mesh, s.qmin, s.qmax, contact_leaf, &s);
    if (s.status < 0)
    {
        if (contacts != NULL && capacity > 0)
        {
            memset(contacts, 0, sizeof(*contacts) * (size_t)capacity);
        }
        return s.status;
    }
    if (s.kept > 1)
    {
        qsort(contacts, (size_t)s.kept, sizeof(*contacts), compare_contacts);
    }
    *count = s.count;
    return s.count > capacity ? PX_WARN_CAPACITY : s.status;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Shape cast                                                                                              */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct cast_search
{
    const mesh_query* q;
    vec3 r_mesh;  /* the translation in the mesh frame */
    vec3 r_local; /* the translation in the shape's local frame */
    float coord;  /* the size of the coordinates of the sweep: the scale of the slab tests' rounding */
    float best;   /* best fraction so far (INFINITY: none) */
    int32_t best_index;
    px_cast_result best_result;
    const uint8_t* active; /* the mesh's active-edge bits (NULL: built without them) */
    px_status status;
} cast_search;

/* Entry fraction of the shape's box, moving by r_mesh over [0, 1], into the box [lo - pad, hi + pad];
 * INFINITY when it never enters. A zero component of the motion makes that axis a static overlap test
 * (no division by zero, so no NaN from 0 / 0). */
static float sweep_entry(const cast_search* s, const float lo[3], const float hi[3], float pad)
{
    const px_aabb* b = &s->q->box;
    float enter = 0.0f, leave = 1.0f;
    for (int k = 0; k < 3; ++k)
    {
        float a = (lo[k] - pad) - b->max[k]; /* the motion must reach at least a ... */
        float c = (hi[k] + pad) - b->min[k]; /* ... and at most c along axis k */
        float r = s->r_mesh[k];
        if (r == 0.0f)
        {
            if (!(a <= 0.0f && c >= 0.0f))
            {
                return INFINITY;
            }
            continue;
        }
        float t0 = a / r, t1 = c / r;
        if (r < 0.0f)
        {
            float t = t0;
            t0 = t1;
            t1 = t;
        }
        enter = px_maxf(enter, t0);
        leave = px_minf(leave, t1);
    }
    /* written so that NaN gives INFINITY (no entry) */
    return enter <= leave ? enter : INFINITY;
}

/* The pad of a box for the sweep test: the contact band of a cast against anything inside it (relative to
 * the box's and the shape's size), plus the rounding of the coordinates. half_sum is half the sum of the
 * box's extents, which bounds the half diagonal of anything inside. */
static float sweep_pad(const cast_search* s, float half_sum)
{
    float size = half_sum + s->q->size;
    return PXI_MESH_CAST_BANDS * PX_CAST_REL_TOLERANCE * size + PXI_MESH_COLLIDE_PAD_EPS * (s->coord + size);
}

/* True when a box the sweep enters at fraction `entry` (sweep_entry) may hold a triangle that beats or ties
 * the best hit so far. */
static bool cast_may_beat(const cast_search* s, float entry)
{
    return entry <= 1.0f && entry <= s->best * (1.0f + PXI_MESH_COLLIDE_REL_SLACK);
}

/* True when a triangle at fraction f (index i) would beat the best so far. */
static bool cast_improves(const cast_search* s, float f, int32_t i)
{
    return f < s->best || (f == s->best && i < s->best_index);
}

/* Hot: one leaf's triangles. */
static bool cast_leaf(cast_search* s, const pxi_mesh_packet* packets, int count)
{
    for (int i = 0; i < count; ++i)
    {
        const pxi_mesh_packet* p = &packets[i >> 2];
        int lane = i & 3;
        int32_t index = p->index[lane];
        float lo[3], hi[3];
        packet_box(p, lane, lo, hi);
        float entry = sweep_entry(s, lo, hi,
                                  sweep_pad(s, 0.5f * ((hi[0] - lo[0]) + (hi[1] - lo[1]) + (hi[2] - lo[2]))));
        /* a triangle entered at the best fraction may still tie with it */
        if (!cast_may_beat(s, entry) || (entry > s->best && index > s->best_index))
        {
            continue;
        }
        px_shape tri;
        float mesh_v[3][3];
        packet_local_triangle(s->q, p, lane, &tri, mesh_v);
        const px_shape whole = tri; /* (tri's vertices are moved below) */
        /* a large triangle: its piece within the box the shape sweeps through (grown by twice its size) */
        float pts[27];
        const int piece_count =
            triangle_piece(s->q, &tri, (const float(*)[3])mesh_v, s->r_local, 2.0f * s->q->size, pts, NULL);
        if (piece_count == 0)
        {
            continue;
        }
        /* The triangle (or piece) about its centroid, posed there: the cast's contact band and rounding scale
         * with the coordinates of its shapes, and the triangle's would be as far as it lies from the sweep's
         * start (a box sliding 1e-4 over a floor hit it 23 units on, where the band had grown past the gap). */
        const int nv = piece_count > 0 ? piece_count : 3;
        float* v[9];
        for (int j = 0; j < nv; ++j)
        {
            v[j] = piece_count > 0 ? pts + 3 * j : (j == 0 ? tri.triangle.a : (j == 1 ? tri.triangle.b : tri.triangle.c));
        }
        px_transform at = PX_TRANSFORM_IDENTITY_INIT;
        for (int k = 0; k < 3; ++k)
        {
            float sum = 0.0f;
            for (int j = 0; j < nv; ++j)
            {
                sum += v[j][k];
            }
            at.p[k] = sum / (float)nv;
        }
        for (int j = 0; j < nv; ++j)
        {
            px_v3_sub(v[j], at.p, v[j]);
        }
        px_shape piece = tri;
        if (piece_count > 0)
        {
            piece = px_shape_hull(pts, piece_count);
        }
        px_transform identity = PX_TRANSFORM_IDENTITY_INIT;
        px_cast_result r;
        px_status status = px_shape_cast_world(&piece, &at, s->q->shape, &identity, s->r_local, NULL, &r);
        if (status < 0)
        {
            s->status = status;
            return false;
        }
        s->status = worse_warning(s->status, status);
        if (r.hit && cast_improves(s, r.fraction, index))
        {
            const unsigned flags = s->active != NULL ? s->active[index] : 0x3Fu;
            vec3 fn;
            px_transform at_hit = PX_TRANSFORM_IDENTITY_INIT;
            px_v3_scale(s->r_local, r.fraction, at_hit.p);
            if (!r.initial_overlap && (flags & 0x3Fu) != 0x3Fu)
            {
                /* a hit on the triangle's inactive (internal) edges takes its face normal, as the contacts do
                 * (mesh_edges_internal.h): a cylinder landing flat on a grid floor got a normal 85 degrees
                 * off vertical from a seam. Not a face normal along the motion: the correction takes the
                 * side of the plane the shape's middle is on, and a flat shape swept edge-on into the
                 * triangle's edge reaches across the plane (a triangle hitting an icosphere's seam got the
                 * face normal of the far side, 175 degrees from the cast's own, PX_TEST_SEED=152). */
                if (pxi_edge_correction_normal(whole.triangle.a, whole.triangle.b, whole.triangle.c, flags, s->q->shape,
                                               &at_hit, r.normal, (const vec3*)r.point, 1, fn) &&
                    px_v3_dot(fn, s->r_local) <= 0.0f)
                {
                    px_v3_copy(fn, r.normal);
                }
            }
            if (!r.initial_overlap &&
                pxi_interior_face_normal(whole.triangle.a, whole.triangle.b, whole.triangle.c, s->q->shape, &at_hit,
                                         r.point, r.normal, PXI_CAST_FACE_SNAP_COS, fn))
            {
                /* A hit inside the triangle is on its face. A cast of an unrounded curved shape (a cylinder's
                 * rim) reports the last separating plane's normal, good to about sqrt(tol / R): a cylinder
                 * landing flat on a grid floor got one 1 degree off vertical (landing_sweeps, PX_TEST_SEED
                 * 36), past the contacts' snap (PXI_EDGE_SNAP_COS). */
                px_v3_copy(fn, r.normal);
            }
            s->best = r.fraction;
            s->best_index = index;
            s->best_result = r;
        }
    }
    return true;
}

/* Order the lanes of mask by key, ascending (insertion sort: at most PXI_MESH_WIDTH). Returns how many. */
static int sort_lanes(int mask, const float key[PXI_MESH_WIDTH], int order[PXI_MESH_WIDTH])
{
    int n = 0;
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        if (mask & (1 << lane))
        {
            int i = n++;
            while (i > 0 && key[order[i - 1]] > key[lane])
            {
                order[i] = order[i - 1];
                --i;
            }
            order[i] = lane;
        }
    }
    return n;
}

/* Walk the tree along the sweep: the children of a node are visited in the order the moving box enters
 * them, and a subtree entered after the best hit so far is skipped. The stack is bounded by the tree's
 * depth (PXI_MESH_STACK, as for the mesh's own traversals). */
static void cast_traverse(const px_mesh* mesh, cast_search* s)
{
    if (mesh->node_count == 0)
    {
        return;
    }
    int32_t stack[PXI_MESH_STACK];
    float stack_t[PXI_MESH_STACK];
    int top = 0;
    stack[top] = 0;
    stack_t[top++] = 0.0f;
    while (top > 0)
    {
        --top;
        if (!cast_may_beat(s, stack_t[top]))
        {
            continue;
        }
        const pxi_mesh_node* node = &mesh->nodes[stack[top]];
        float entry[PXI_MESH_WIDTH];
        int mask = 0;
        for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
        {
            entry[lane] = INFINITY;
            if (node->link[lane] == PXI_MESH_EMPTY)
            {
                continue;
            }
            float lo[3] = { node->bmin[0][lane], node->bmin[1][lane], node->bmin[2][lane] };
            float hi[3] = { node->bmax[0][lane], node->bmax[1][lane], node->bmax[2][lane] };
            float half_sum = 0.5f * ((hi[0] - lo[0]) + (hi[1] - lo[1]) + (hi[2] - lo[2]));
            entry[lane] = sweep_entry(s, lo, hi, sweep_pad(s, half_sum));
            if (cast_may_beat(s, entry[lane]))
            {
                mask |= 1 << lane;
            }
        }
        int order[PXI_MESH_WIDTH];
        int n = sort_lanes(mask, entry, order);
        /* leaves now, nearest first (each may lower the bound for the rest); inner nodes onto the stack,
         * farthest first so the nearest is popped next */
        for (int i = 0; i < n; ++i)
        {
            int32_t link = node->link[order[i]];
            if (link < 0 && cast_may_beat(s, entry[order[i]]))
            {
                if (!cast_leaf(s, &mesh->packets[pxi_mesh_leaf_packet(link)], pxi_mesh_leaf_count(link)))
                {
                    return;
                }
            }
        }
        for (int i = n - 1; i >= 0; --i)
        {
            int32_t link = node->link[order[i]];
            if (link >= 0)
            {
                stack[top] = link;
                stack_t[top++] = entry[order[i]];
            }
        }
    }
}

px_status px_mesh_shape_cast(const px_mesh* mesh, const px_transform* mesh_pose, const px_shape* shape,
                             const px_transform* shape_pose, const vec3 translation,
                             px_mesh_cast_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    result->triangle = PX_NULL_INDEX;
    if (translation == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    mesh_query q;
    px_status status = pxi_mesh_query_init(mesh, mesh_pose, shape, shape_pose, &q);
    if (status != PX_OK)
    {
        return status;
    }
    if (!px_v3_is_finite(translation))
    {
        return PX_ERR_NON_FINITE;
    }
    cast_search s;
    memset(&s, 0, sizeof(s));
    s.q = &q;
    px_transform_vector_inverse(&q.shape_world, translation, s.r_local);
    px_rot_mulv(&q.rot, s.r_local, s.r_mesh);
    if (!px_v3_is_finite(s.r_local) || !px_v3_is_finite(s.r_mesh))
    {
        return PX_ERR_NON_FINITE; /* a finite translation too large to rotate without overflow */
    }
    s.coord = q.coord + abs_max3(s.r_mesh);
    s.active = pxi_mesh_active_edges(mesh);
    s.best = INFINITY;
    s.best_index = INT32_MAX;
    s.status = PX_OK;
    cast_traverse(mesh, &s);
    if (s.status < 0)
    {
        return s.status;
    }
    if (s.best_index == INT32_MAX)
    {
        return s.status;
    }
    const px_cast_result* r = &s.best_result;
    result->hit = true;
    result->initial_overlap = r->initial_overlap;
    result->fraction = r->fraction;
    result->triangle = s.best_index;
    local_to_world(&q, r->point, r->normal, result->point, result->normal);
    return s.status;
}
