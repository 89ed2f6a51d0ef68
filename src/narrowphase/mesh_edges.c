/* The internal-edge correction of convex-vs-mesh contacts (mesh_edges_internal.h).
 *
 * A contact against one triangle is an internal-edge contact when
 *  - its normal is not exactly the triangle's face normal, and
 *  - every witness point on the triangle lies on its boundary, and on no active edge that the normal
 *    leans out across: on inactive edges (one, or both at a vertex), or on an active edge the normal does
 *    not point out of (a vertex of the boundary touched from the mesh's side).
 * Such a contact gets the face normal on the shape's side: a contact's witness becomes the shape's deepest
 * point below the plane, and a manifold is made again along that normal (the shape's points facing the
 * plane, clipped to the triangle): the shape then rests on (or is pushed out along) the smooth surface
 * the triangle belongs to, as its face contacts with the neighbours already say. A witness on an active
 * edge (a boundary, a sharp convex edge) that the normal leans out across keeps the contact as the query
 * found it. (The callers, mesh_collide.c, keep a correction much deeper than the triangle's own contact only
 * over the flat surface the triangle belongs to.)
 *
 * The neighbour rule (pxi_edge_neighbour_normal), for contacts the flags leave alone: an edge's contact
 * normals lie between its two faces' normals, and a normal pointing over the neighbour beyond them belongs
 * to the neighbour: it becomes the neighbour's normal at a convex edge, the face normal at a concave one,
 * where the shape's deepest point along it lies over the triangle or the neighbour
 * (pxi_edge_neighbour_holds).
 *
 * A witness in the triangle's interior means the face normal in exact arithmetic, but GJK stops within
 * about 1.4e-3 rad of it and EPA within about 1.4e-2 (their tolerances): such a contact (on a triangle with
 * an inactive edge) whose normal is within PXI_EDGE_SNAP_COS of the face normal is snapped to it the same
 * way, so a shape lying on a flat mesh gets exactly its normal; one further off is left alone.
 *
 * Why the vertex rule looks at the normal: a mesh's boundary runs through vertices whose triangles have
 * one boundary edge and one inner edge there (a flat grid's side). A box lying on the grid beside such a
 * triangle touches it at that vertex with a normal along the boundary, into the mesh's side of it, which
 * no edge of the boundary could give; a shape beyond the boundary gets a normal leaning out across it.
 *
 * Active edges seen from the front and from the back are kept apart (PX_MESH_EDGE_FRONT / _BACK): a
 * floor-wall corner is concave seen from the room (inactive) and convex seen from behind (active). */
#include "mesh_edges_internal.h"

#include <float.h>

#include "../broadphase/mesh_internal.h"
#include "../shapes/support_internal.h"

#include "proxima/geometry.h"

/* The middle of the shape's extent along unit direction n (in the triangle's frame), measured from the
 * plane through a, and the half extent. */
static float shape_middle(const px_shape* shape, const px_transform* pose, const vec3 n, const float a[3],
                          float* half)
{
    vec3 d, nd, hi, lo, mid, mid_world, rel;
    if (pose != NULL)
    {
        px_quat_rotate_inv_fast(pose->q, n, d);
    }
    else
    {
        px_v3_copy(n, d);
    }
    px_v3_negate(d, nd);
    pxi_support_core(shape, d, hi);
    pxi_support_core(shape, nd, lo);
    for (int k = 0; k < 3; ++k)
    {
        mid[k] = 0.5f * (hi[k] + lo[k]);
    }
    *half = 0.5f * px_v3_dot(d, hi) - 0.5f * px_v3_dot(d, lo);
    if (pose != NULL)
    {
        px_transform_point(pose, mid, mid_world);
    }
    else
    {
        px_v3_copy(mid, mid_world);
    }
    px_v3_sub(mid_world, a, rel);
    return px_v3_dot(n, rel);
}

/* A triangle's edges and plane, as both edge rules read them: e[i] = v[i + 1] - v[i], its length, the unit
 * normal nu (the vertices run counter-clockwise around it) and the tolerance within which a point lies on an
 * edge's line. False for a degenerate or non-finite triangle. */
typedef struct tri_frame
{
    const float* v[3];
    vec3 e[3];
    float len[3];
    vec3 nu;
    float longest; /* the longest edge's length */
    float coord;   /* the largest |coordinate| of the vertices */
    float on_tol;  /* PXI_EDGE_ON_TOLERANCE of the longest edge, plus the rounding of the coordinates */
} tri_frame;

static bool tri_frame_init(tri_frame* t, const float a[3], const float b[3], const float c[3])
{
    t->v[0] = a;
    t->v[1] = b;
    t->v[2] = c;
    float longest = 0.0f, coord = 0.0f;
    for (int i = 0; i < 3; ++i)
    {
        const float* p = t->v[i];
        px_v3_sub(t->v[i == 2 ? 0 : i + 1], p, t->e[i]);
        t->len[i] = px_v3_norm(t->e[i]);
        longest = px_maxf(longest, t->len[i]);
        coord = px_maxf(coord, px_maxf(fabsf(p[0]), px_maxf(fabsf(p[1]), fabsf(p[2]))));
    }
    vec3 n;
    px_v3_cross(t->e[0], t->e[1], n); /* (b - a) x (c - b) = (b - a) x (c - a) */
    t->longest = longest;
    t->coord = coord;
    t->on_tol = PXI_EDGE_ON_TOLERANCE * longest + 16.0f * FLT_EPSILON * coord;
    return px_v3_normalize_any(n, t->nu) && px_is_finite(longest);
}

/* The edges whose lines p lies on (bit i for edge i): its signed distance from each, in the plane, positive
 * inside, within the tolerance. NaN counts as on. */
static unsigned tri_edges_at(const tri_frame* t, const vec3 p)
{
    unsigned on = 0u;
    for (int i = 0; i < 3; ++i)
    {
        vec3 r, x;
        px_v3_sub(p, t->v[i], r);
        px_v3_cross(t->e[i], r, x);
        if (!(px_v3_dot(x, t->nu) > t->on_tol * t->len[i]))
        {
            on |= 1u << i;
        }
    }
    return on;
}

bool pxi_edge_correction_normal(const float a[3], const float b[3], const float c[3], unsigned flags,
                                const px_shape* shape, const px_transform* shape_pose, const vec3 normal,
                                const vec3* points, int count, vec3 face_normal)
{
    tri_frame t;
    if (count <= 0 || count > PX_MANIFOLD_MAX_POINTS || !tri_frame_init(&t, a, b, c))
    {
        return false; /* degenerate: the mesh marks all its edges active anyway */
    }
    const float* nu = t.nu;
    /* the shape's side: the middle of its extent, or the normal's lean for a shape centred on the plane */
    float half = 0.0f;
    float side = shape_middle(shape, shape_pose, nu, a, &half);
    float round = 16.0f * FLT_EPSILON * (t.coord + t.longest + fabsf(half) + fabsf(side));
    if (!(fabsf(side) > round))
    {
        side = px_v3_dot(nu, normal);
    }
    if (!(side != 0.0f))
    {
        return false; /* no side (or NaN) */
    }
    unsigned side_active = side > 0.0f ? flags & 7u : (flags >> 3) & 7u;
    unsigned either_active = (flags | (flags >> 3)) & 7u;
    if (side_active == 7u)
    {
        return false;
    }
    vec3 fn;
    px_v3_scale(nu, side > 0.0f ? 1.0f : -1.0f, fn);
    const float cosn = px_v3_dot(normal, fn);
    if (!px_is_finite(cosn))
    {
        return false;
    }
    const bool near_face = cosn >= 1.0f - PXI_EDGE_SNAP_COS;
    /* Whether the normal leans out across each edge: cross(e_i, nu) points out of the triangle across edge i
     * (the vertices run counter-clockwise around nu). A shape the normal points to beyond an edge is past
     * the triangle, where its plane does not tell which side the shape is on (beside a ledge, the shape may
     * be below the upper floor's plane and still outside the step): such an edge counts as active when it
     * is active from either side, so only flat edges are corrected there. */
    unsigned out = 0u;
    for (int i = 0; i < 3; ++i)
    {
        vec3 o;
        px_v3_cross(t.e[i], nu, o);
        if (px_v3_dot(normal, o) > PXI_EDGE_OUT_MIN * t.len[i])
        {
            out |= 1u << i;
        }
    }
    unsigned active = (side_active & ~out) | (either_active & out);
    /* the witnesses on the edges */
    bool any_interior = false;
    for (int j = 0; j < count; ++j)
    {
        const unsigned on = tri_edges_at(&t, points[j]);
        any_interior = any_interior || on == 0u;
        if ((on & active & out) != 0u)
        {
            return false; /* a witness on an active edge the normal leans out across */
        }
    }
    if (any_interior && !near_face)
    {
        /* An interior witness means the face normal in exact arithmetic (a triangle's support is a vertex
         * or an edge in any other direction): a normal within PXI_EDGE_SNAP_COS of it (GJK's and EPA's
         * tolerances) is snapped to it, one further off is left as the query found it. */
        return false;
    }
    if (normal[0] == fn[0] && normal[1] == fn[1] && normal[2] == fn[2])
    {
        return false; /* already the face normal */
    }
    px_v3_copy(fn, face_normal);
    return true;
}

bool pxi_contact_along(px_contact* contact, const float plane_point[3], const vec3 n, const px_shape* shape,
                       const px_transform* shape_pose)
{
    /* The shape's point deepest below the plane: its support along -n. The query's own witness on the shape
     * belongs to its sideways normal: EPA's, across the seam of a flat floor, was a point on a box edge, and
     * its height over the plane gave a box corner 0.122 below the floor 0.089 deep (review 49). */
    vec3 down, local, deepest;
    px_v3_negate(n, down);
    if (shape_pose != NULL)
    {
        px_quat_rotate_inv_fast(shape_pose->q, down, local);
    }
    else
    {
        px_v3_copy(down, local);
    }
    (void)px_shape_support(shape, local, deepest);
    if (shape_pose != NULL)
    {
        px_transform_point(shape_pose, deepest, deepest);
    }
    vec3 d;
    px_v3_sub(deepest, plane_point, d);
    float sep = px_v3_dot(n, d) + 0.0f;
    if (!(sep < INFINITY))
    {
        return false; /* not reached for a validated shape */
    }
    px_v3_copy(deepest, contact->point_b);
    px_v3_mad(contact->point_b, -sep, n, contact->point_a);
    px_v3_copy(n, contact->normal);
    contact->distance = sep;
    return true;
}

bool pxi_contact_correct_edges(px_contact* contact, const float a[3], const float b[3], const float c[3],
                               unsigned flags, const px_shape* shape, const px_transform* shape_pose)
{
    vec3 fn;
    if (!pxi_edge_correction_normal(a, b, c, flags, shape, shape_pose, contact->normal,
                                    (const vec3*)contact->point_a, 1, fn))
    {
        return false;
    }
    return pxi_contact_along(contact, a, fn, shape, shape_pose);
}

bool pxi_edge_neighbour_normal(const float a[3], const float b[3], const float c[3], const float* const far[3],
                               const vec3 normal, const vec3 witness, vec3 out, const float** plane_point,
                               int* edge_out)
{
    tri_frame t;
    if (!tri_frame_init(&t, a, b, c))
    {
        return false;
    }
    const float* const* v = t.v;
    const float* nu = t.nu;
    /* the one edge the witness lies on (none, or two at a vertex: nothing to do) */
    const unsigned on = tri_edges_at(&t, witness);
    const int edge = on == 1u ? 0 : (on == 2u ? 1 : (on == 4u ? 2 : -1));
    if (edge < 0 || far[edge] == NULL)
    {
        return false;
    }
    /* unit directions perpendicular to the edge: into the triangle (u) and into the neighbour (w) */
    vec3 eu, u, f, w, across;
    px_v3_scale(t.e[edge], 1.0f / t.len[edge], eu);
    px_v3_cross(nu, eu, u); /* the vertices run counter-clockwise around nu: nu x edge points inside */
    px_v3_sub(far[edge], v[edge], f);
    px_v3_mad(f, -px_v3_dot(f, eu), eu, across);
    if (!px_v3_normalize_any(across, w))
    {
        return false;
    }
    if (!(px_v3_dot(normal, w) > PXI_EDGE_OUT_MIN))
    {
        return false; /* the normal does not point over the neighbour: an edge normal, or the face's */
    }
    /* Over the neighbour: is the shape in the dihedral between the two faces (a concave corner seen from
     * it), or outside it (a convex edge)? In the first case the face normal on that side answers, in the
     * second the neighbour's normal, whose support on this triangle is the shared edge. */
    vec3 uw, ud, dw;
    px_v3_cross(u, w, uw);
    px_v3_cross(u, normal, ud);
    px_v3_cross(normal, w, dw);
    const float k2 = px_v3_norm2(uw);
    const bool between = k2 > FLT_EPSILON && px_v3_dot(ud, uw) >= 0.0f && px_v3_dot(dw, uw) >= 0.0f;
    if (between || !(k2 > FLT_EPSILON))
    {
        /* concave (or flat): the face normal on the dihedral's side */
        px_v3_scale(nu, px_v3_dot(nu, w) >= 0.0f ? 1.0f : -1.0f, out);
        *plane_point = a;
    }
    else
    {
        /* convex: the neighbour's normal, away from the dihedral (its inside is where u points) */
        vec3 m, mu;
        px_v3_cross(eu, w, m);
        if (!px_v3_normalize_any(m, mu))
        {
            return false;
        }
        px_v3_scale(mu, px_v3_dot(mu, u) <= 0.0f ? 1.0f : -1.0f, out);
        *plane_point = v[edge];
    }
    if (edge_out != NULL)
    {
        *edge_out = edge;
    }
    return px_is_finite(out[0]) && px_is_finite(out[1]) && px_is_finite(out[2]);
}

/* Distance from p to triangle (a, b, c). */
static float triangle_distance(const vec3 p, const float a[3], const float b[3], const float c[3])
{
    vec3 q, d;
    (void)px_closest_point_triangle(p, a, b, c, NULL, q);
    px_v3_sub(p, q, d);
    return px_v3_norm(d);
}

bool pxi_edge_neighbour_holds(const float a[3], const float b[3], const float c[3], int edge, const float far[3],
                              const px_contact* turned, float original)
{
    const float* v[3] = { a, b, c };
    const float* p = turned->point_b;
    float coord = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        coord = px_maxf(coord, px_maxf(fabsf(p[k]), fabsf(far[k])));
        for (int i = 0; i < 3; ++i)
        {
            coord = px_maxf(coord, fabsf(v[i][k]));
        }
    }
    const float depth = fabsf(turned->distance);
    const float tol = PXI_EDGE_ON_TOLERANCE * (depth + fabsf(original)) + 64.0f * FLT_EPSILON * coord;
    const float near = px_minf(triangle_distance(p, a, b, c),
                               triangle_distance(p, v[edge], v[edge == 2 ? 0 : edge + 1], far));
    return near <= depth + tol; /* NaN: false */
}

bool pxi_interior_face_normal(const float a[3], const float b[3], const float c[3], const px_shape* shape,
                               const px_transform* shape_pose, const vec3 witness, const vec3 normal, float snap_cos,
                               vec3 face_normal)
{
    tri_frame t;
    if (!tri_frame_init(&t, a, b, c) || tri_edges_at(&t, witness) != 0u)
    {
        return false;
    }
    const float cosn = px_v3_dot(normal, t.nu);
    if (!(fabsf(cosn) >= 1.0f - snap_cos))
    {
        return false; /* NaN too */
    }
    vec3 fn;
    px_v3_scale(t.nu, cosn > 0.0f ? 1.0f : -1.0f, fn);
    /* The face's normal is the contact's only when the shape lies on the face: nothing of it below the
     * triangle's plane. A shape whose face is tilted from the triangle's by a degree or two and touches its
     * edge (or a small triangle's corner) reaches below the plane beyond that edge; its witness, from a
     * simplex with a CSO face nearly parallel to the triangle, can land inside the triangle by the query's
     * tolerance over the sine of the tilt (a box 1.8 degrees off flat, landing across an edge, had its
     * witness 1.3e-4 inside it, past the edge tolerance, and took the face normal, 1.8 degrees off). */
    float half = 0.0f;
    const float low = shape_middle(shape, shape_pose, fn, a, &half) - half - shape->radius;
    const float tol =
        PXI_EDGE_ON_TOLERANCE * (t.longest + 2.0f * (half + shape->radius)) + 16.0f * FLT_EPSILON * t.coord;
    if (!(low >= -tol))
    {
        return false; /* NaN too */
    }
    px_v3_copy(fn, face_normal);
    return true;
}

int pxi_witness_vertex(const float a[3], const float b[3], const float c[3], const vec3 witness, const vec3 normal,
                       unsigned tie_edges)
{
    tri_frame t;
    if (!tri_frame_init(&t, a, b, c))
    {
        return -1;
    }
    /* a face contact: the shape lies on the triangle's plane, and its witness is one point of a tied face (a
     * box on a floor), at a vertex only by the tie's pick; it is the surface's own contact, not a vertex's
     * (a box on a floor pressed into a wall had lost every floor contact) */
    if (fabsf(px_v3_dot(normal, t.nu)) >= 1.0f - PXI_EDGE_SNAP_COS)
    {
        return -1;
    }
    /* edge i runs from corner i to corner i + 1: corner k lies on edges k and k + 2 */
    int k;
    switch (tri_edges_at(&t, witness))
    {
    case 5u:
        k = 0;
        break;
    case 3u:
        k = 1;
        break;
    case 6u:
        k = 2;
        break;
    default:
        return -1;
    }
    /* an edge contact: the normal is normal to an edge at the corner (within PXI_WITNESS_EDGE_SIN; an active
     * one, in tie_edges), whose points tie as the triangle's support; the witness is one of them, at the corner by EPA's pick (a deep
     * contact's witness lands anywhere along the edge: the world's frame put it inside the edge where the
     * query's put it at the corner and dropped the contact as a ghost) */
    const int edges[2] = { k, k == 0 ? 2 : k - 1 };
    for (int j = 0; j < 2; ++j)
    {
        if ((tie_edges & (1u << edges[j])) != 0u &&
            fabsf(px_v3_dot(t.e[edges[j]], normal)) <= PXI_WITNESS_EDGE_SIN * t.len[edges[j]])
        {
            return -1;
        }
    }
    return k;
}

int pxi_vertex_contact_climb(const float v[3], const float (*ring)[3], int count, const vec3 normal, float min_rise)
{
    /* an edge whose direction the rounding of the coordinates (about eps C each) could tilt by a quarter of
     * the threshold has no direction to speak of */
    float coord = px_maxf(fabsf(v[0]), px_maxf(fabsf(v[1]), fabsf(v[2])));
    for (int i = 0; i < count; ++i)
    {
        coord = px_maxf(coord, px_maxf(fabsf(ring[i][0]), px_maxf(fabsf(ring[i][1]), fabsf(ring[i][2]))));
    }
    const float short_edge = 8.0f * FLT_EPSILON * coord / PXI_EDGE_OUT_MIN;
    int best = -1;
    float best_rise = min_rise;
    for (int i = 0; i < count; ++i)
    {
        vec3 e;
        px_v3_sub(ring[i], v, e);
        const float len = px_v3_norm(e);
        if (len > short_edge)
        {
            const float rise = px_v3_dot(normal, e) / len;
            if (rise > best_rise)
            {
                best_rise = rise;
                best = i;
            }
        }
    }
    return best;
}
