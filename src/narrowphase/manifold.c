/* Contact manifolds (manifold.h): up to four contact points sharing one normal, each with a feature id.
 *
 * Everything is computed in A's frame (B's pose relative to A) and mapped to world space at the end.
 *  1. px_contact_relative gives the normal n (A to B), the depth and a witness point on each shape. The
 *     normal is checked against the distance (repair_contact: along the true normal the shapes' gap equals
 *     the distance, along any other it is smaller) and replaced when it contradicts it. Farther apart than
 *     the margin: no points.
 *  2. Two polytopes (boxes, whose six faces are implicit, built hulls, and triangles, flat polytopes with a
 *     front and a back face): reference face against incident face. The reference face is the face, of A
 *     or of B, whose outward normal best matches the contact normal (A keeps it on near ties); the incident
 *     face is the face of the other shape most anti-parallel to it. Both are chosen among the faces around
 *     the shape's deepest vertex along the normal, so they are on the contact. The incident polygon is
 *     clipped to the prism over the reference face (Sutherland and Hodgman 1974, one side plane per
 *     reference edge), and the clipped points no farther than the margin from the reference plane are the
 *     contacts (the face-clipping scheme of Gregorius, "Robust contact creation for physics
 *     simulations", GDC 2015). More than four are reduced to four: the deepest, then the ones spanning the
 *     largest area. When deep penetration pushes the deepest feature out of the prism, the contact's own
 *     point is added, so the manifold never understates the depth by much.
 *  3. A capsule or segment against a polytope face it lies nearly parallel to: its core segment clipped to
 *     the same prism, two points. Two nearly parallel capsules: the overlap of their segments, two points.
 *  4. Everything else (spheres, cylinders, cones, raw point-cloud hulls, user shapes, degenerate triangles,
 *     and the paths above when they find nothing usable): the one point of the contact.
 * Rounded shapes are clipped on their cores; the radii then shift the points along the normal.
 *
 * Feature ids. A clipped point is where a feature of A's face meets a feature of B's face: a vertex of one
 * inside the other face, or an edge of one crossing an edge of the other. The id names both faces and both
 * features, so it does not depend on which shape supplied the reference face (the choice may flip between
 * frames while the same faces touch):
 *
 *     id = face_a << 24 | face_b << 16 | feature_a << 8 | feature_b
 *
 *   face_x     the face index (box: 2 * axis + (1 for the negative side); hull: index in px_hull_faces,
 *              low 8 bits; triangle: 0 for the front, whose vertex list is a, b, c, and 1 for the back,
 *              a, c, b); PXI_NO_FACE (0xFE) for the core segment of a capsule or segment shape. A vertex
 *              or an edge is named by the lowest-index face that has it, whichever face it was clipped
 *              on (pxi_manifold_canonical_feature): the incident face may flip between the two faces at
 *              an edge while that edge touches.
 *   feature_x  kind << 6 | index, index in 0..63:
 *                PXI_FEATURE_FACE   (0) the face's interior (index 0)
 *                PXI_FEATURE_VERTEX (1) vertex `index` of the face polygon (its position in the face's
 *                                       vertex list), or end `index` of a core segment
 *                PXI_FEATURE_EDGE   (2) edge `index` of the face polygon (from vertex index to index + 1);
 *                                       0 for a core segment
 *                PXI_FEATURE_OTHER  (3) degenerate crossings (index: the side planes), the contact point
 *                                       added for deep penetration (63 on both sides), and the tie-break
 *                                       below (32 + slot, on B's side)
 * A single-point manifold has id 0, which no clipped point can have (a clipped point never has two face
 * features). Faces with more than PXI_MAX_FACE_VERTICES vertices are not clipped (one point instead), so
 * indices never wrap and the points of one manifold have distinct ids; a final pass still guarantees it.
 * No allocation: the polygons live in fixed stack buffers that cannot overflow (a convex polygon gains at
 * most one vertex per clipping plane, and the clipper also bounds its writes). */
#include "manifold_internal.h"

#include "../gjk/epa_internal.h"
#include "../gjk/gjk_internal.h"
#include "../shapes/hull_internal.h"
#include "box_sat.h"

#include "proxima/constants.h"
#include "proxima/manifold.h"

#define PXI_MANIFOLD_COOKIE 0x50584d46 /* "PXMF" */

/* Largest face polygon that is clipped [vertices]. The clip buffers hold twice as many: the incident
 * polygon plus one vertex per reference side plane. */
#define PXI_MAX_FACE_VERTICES 64
#define PXI_CLIP_CAPACITY (2 * PXI_MAX_FACE_VERTICES)

/* A segment is nearly parallel to a face (or to another segment) when the sine of the angle is below this
 * (about 2.9 degrees). */
#define PXI_PARALLEL_SIN 0.05f
/* The manifold normal must lean at most this far from the reference face (cosine) for the projection onto
 * the face along it to be well conditioned. */
#define PXI_MIN_PROJECTION 0.2f

px_manifold_config px_manifold_default_config(void)
{
    px_manifold_config c;
    c.contact = px_contact_default_config();
    c.margin = PX_LINEAR_SLOP;
    c.internal_value = PXI_MANIFOLD_COOKIE;
    return c;
}

/* ------------------------------------------------------------------------------------------------ */
/* Polytopes: boxes, built hulls and triangles, seen through their faces in A's frame                 */

typedef enum pxi_poly_kind
{
    PXI_POLY_BOX,
    PXI_POLY_HULL,
    PXI_POLY_TRIANGLE
} pxi_poly_kind;

/* A triangle whose height over its longest edge is below this fraction of that edge is a sliver (or a
 * segment, or a point) and has no faces to clip: its normal would be mostly rounding. */
#define PXI_TRIANGLE_MIN_ASPECT 1.0e-4f

typedef struct pxi_poly
{
    const px_shape* shape;
    const struct px_hull* hull; /* PXI_POLY_HULL only */
    pxi_poly_kind kind;
    int face_count;
    px_rot rot; /* local -> frame A */
    vec3 pos;
    vec3 tri_n;  /* PXI_POLY_TRIANGLE: the unit front normal, along cross(b - a, c - a) (local) */
    float tri_d; /* and the front plane's offset */
} pxi_poly;

/* Vertex i (0..2) of a triangle shape: a, b, c. */
static const float* tri_vertex(const px_shape* s, int i)
{
    return i == 0 ? s->triangle.a : (i == 1 ? s->triangle.b : s->triangle.c);
}

/* The front plane of a triangle shape (unit n along cross(b - a, c - a), n . x = d), or false for a
 * degenerate triangle: repeated or collinear vertices, a sliver below PXI_TRIANGLE_MIN_ASPECT, or sizes
 * whose squares over- or underflow. */
static bool tri_plane(const px_shape* s, vec3 n, float* d)
{
    const float* a = s->triangle.a;
    const float* b = s->triangle.b;
    const float* c = s->triangle.c;
    vec3 ab, ac, bc, x;
    px_v3_sub(b, a, ab);
    px_v3_sub(c, a, ac);
    px_v3_sub(c, b, bc);
    px_v3_cross(ab, ac, x);
    float longest2 = px_maxf(px_v3_norm2(ab), px_maxf(px_v3_norm2(ac), px_v3_norm2(bc)));
    float area2x2 = px_v3_norm2(x); /* (twice the area)^2 = (height * longest)^2 */
    const float k = PXI_TRIANGLE_MIN_ASPECT;
    /* NaN and infinities fail here */
    if (!(area2x2 > k * k * longest2 * longest2) || !px_is_finite(area2x2) || !px_is_finite(longest2))
    {
        return false;
    }
    px_v3_scale(x, 1.0f / sqrtf(area2x2), n);
    /* the mean of the three vertices' offsets: each vertex is on the plane to a rounding */
    *d = (px_v3_dot(n, a) + px_v3_dot(n, b) + px_v3_dot(n, c)) * (1.0f / 3.0f);
    return px_is_finite(*d);
}

/* A polytope view of a shape, or false when the shape has no faces to clip (not a box, a raw point cloud,
 * a hull of dimension below 2, or a degenerate triangle). A triangle has two faces: 0 the front (vertices
 * a, b, c, outward normal along cross(b - a, c - a)) and 1 the back (vertices a, c, b, the opposite
 * normal), each counter-clockwise seen from its own side. */
static bool poly_init(pxi_poly* p, const px_shape* s, const px_rot* rot, const vec3 pos)
{
    p->shape = s;
    p->hull = NULL;
    p->rot = *rot;
    px_v3_copy(pos, p->pos);
    if (s->type == PX_SHAPE_BOX)
    {
        p->kind = PXI_POLY_BOX;
        p->face_count = 6;
        return true;
    }
    if (s->type == PX_SHAPE_HULL && s->hull.built != NULL && s->hull.built->dimension >= 2 &&
        s->hull.built->face_count > 0)
    {
        p->kind = PXI_POLY_HULL;
        p->hull = s->hull.built;
        p->face_count = p->hull->face_count;
        return true;
    }
    if (s->type == PX_SHAPE_TRIANGLE && tri_plane(s, p->tri_n, &p->tri_d))
    {
        p->kind = PXI_POLY_TRIANGLE;
        p->face_count = 2;
        return true;
    }
    return false;
}

/* Local outward normal and offset of face f (n . x = d on the face). */
static void poly_local_plane(const pxi_poly* p, int f, vec3 n, float* d)
{
    if (p->kind == PXI_POLY_BOX)
    {
        int k = f >> 1;
        px_v3_zero(n);
        n[k] = (f & 1) ? -1.0f : 1.0f;
        *d = p->shape->box.half_extents[k];
        return;
    }
    if (p->kind == PXI_POLY_TRIANGLE)
    {
        if (f == 0)
        {
            px_v3_copy(p->tri_n, n);
            *d = p->tri_d;
        }
        else
        {
            px_v3_negate(p->tri_n, n);
            *d = -p->tri_d;
        }
        return;
    }
    const float* plane = p->hull->faces[f].plane;
    px_v3_set(plane[0], plane[1], plane[2], n);
    *d = plane[3];
}

/* Plane of face f in frame A. */
static void poly_plane(const pxi_poly* p, int f, vec3 n, float* d)
{
    vec3 nl;
    float dl;
    poly_local_plane(p, f, nl, &dl);
    px_rot_mulv(&p->rot, nl, n);
    *d = dl + px_v3_dot(n, p->pos);
}

/* Index of the vertex of p farthest along the local direction d (box: the corner whose bit k is set for a
 * positive coordinate k, as in the support mapping; hull: by climbing where GJK would climb, else the first
 * maximum of a scan; triangle: 0, 1, 2 for a, b, c, the first maximum). */
static int poly_support_vertex(const pxi_poly* p, const vec3 d)
{
    if (p->kind == PXI_POLY_BOX)
    {
        return (d[0] >= 0.0f ? 1 : 0) | (d[1] >= 0.0f ? 2 : 0) | (d[2] >= 0.0f ? 4 : 0);
    }
    if (p->kind == PXI_POLY_TRIANGLE)
    {
        int best = 0;
        float best_dot = px_v3_dot(tri_vertex(p->shape, 0), d);
        for (int i = 1; i < 3; ++i)
        {
            float t = px_v3_dot(tri_vertex(p->shape, i), d);
            if (t > best_dot)
            {
                best_dot = t;
                best = i;
            }
        }
        return best;
    }
    if (p->hull->climb_nodes != NULL && p->hull->vertex_count >= p->hull->climb_min_vertices)
    {
        return pxi_hull_climb(p->hull, d, -1);
    }
    const float* v = p->hull->vertices;
    int best = 0;
    float best_dot = -INFINITY;
    for (int i = 0; i < p->hull->vertex_count; ++i) /* hot for large hulls: one dot product per vertex */
    {
        float t = v[3 * i] * d[0] + v[3 * i + 1] * d[1] + v[3 * i + 2] * d[2];
        if (t > best_dot)
        {
            best_dot = t;
            best = i;
        }
    }
    return best;
}

/* True when vertex v (as poly_support_vertex numbers it) is a corner of face f. */
static bool poly_face_has_vertex(const pxi_poly* p, int f, int v)
{
    if (p->kind == PXI_POLY_BOX)
    {
        int k = f >> 1;
        return ((v >> k) & 1) == ((f & 1) ? 0 : 1);
    }
    if (p->kind == PXI_POLY_TRIANGLE)
    {
        return f >= 0 && f < 2 && v >= 0 && v < 3; /* both faces have all three vertices */
    }
    const px_hull_face* face = &p->hull->faces[f];
    if (face->first < 0 || face->count < 0 || face->first > p->hull->face_index_count - face->count)
    {
        return false;
    }
    const int32_t* idx = p->hull->face_indices + face->first;
    for (int i = 0; i < face->count; ++i)
    {
        if (idx[i] == v)
        {
            return true;
        }
    }
    return false;
}

static int poly_face_vertices(const pxi_poly* p, int f, vec3* out);

/* How far face f falls back from its farthest vertex along dir (frame A): 0 for a face that lies flat
 * against a plane normal to dir, more for a tilted one; 0 when its vertices are not available. */
static float poly_face_spread(const pxi_poly* p, int f, const vec3 dir)
{
    vec3 corners[PXI_MAX_FACE_VERTICES];
    int count = poly_face_vertices(p, f, corners);
    float hi = -INFINITY, lo = INFINITY;
    for (int i = 0; i < count; ++i)
    {
        float h = px_v3_dot(corners[i], dir);
        hi = px_maxf(hi, h);
        lo = px_minf(lo, h);
    }
    return count > 0 && hi - lo >= 0.0f ? hi - lo : 0.0f;
}

/* The corners of polytope p tied with vertex v, its support along dl (local, unit), within PXI_SUPPORT_TIE
 * of the polytope's size: v first, then those of its neighbours as high as v within that (an edge nearly
 * normal to dl, whose two ends then trade places as the support with rounding of dl). The edge must also be
 * nearly normal to dl in angle (its slope along dl below PXI_PARALLEL_SIN): an edge shorter than the
 * tolerance ties by its length alone whatever its direction, and the thin side of a sheet (a box or hull
 * 1e-5 of its width thick) lying on a face tied its two faces' corners, so that a side face, standing on
 * the contact, won over the face lying on it (two points along one edge instead of four corners). Such an
 * edge is within the tolerance of its end v, so the face holding v covers it anyway. At most `cap`; returns
 * the count. Triangles list v alone (both their faces have every corner). */
static int poly_tied_corners(const pxi_poly* p, int v, const vec3 dl, int* tied, int cap)
{
    tied[0] = v;
    int n = 1;
    if (p->kind == PXI_POLY_BOX)
    {
        const float* he = p->shape->box.half_extents;
        const float tol = PXI_SUPPORT_TIE * 2.0f * px_maxf(he[0], px_maxf(he[1], he[2]));
        for (int k = 0; k < 3 && n < cap; ++k)
        {
            /* the neighbour across axis k lies 2 he[k] lower along dl, by |dl[k]| */
            if (2.0f * he[k] * fabsf(dl[k]) <= tol && fabsf(dl[k]) <= PXI_PARALLEL_SIN)
            {
                tied[n++] = v ^ (1 << k);
            }
        }
    }
    else if (p->kind == PXI_POLY_HULL && p->hull->adjacency_offsets != NULL && p->hull->adjacency != NULL)
    {
        const struct px_hull* h = p->hull;
        const float tol = PXI_SUPPORT_TIE * 2.0f * h->extent;
        const float* pv = h->vertices + 3 * (size_t)v;
        for (int32_t k = h->adjacency_offsets[v]; k < h->adjacency_offsets[v + 1] && n < cap; ++k)
        {
            const int32_t u = h->adjacency[k];
            vec3 e; /* along the edge, so that a hull far from its origin compares at its own scale */
            px_v3_sub(h->vertices + 3 * (size_t)u, pv, e);
            const float drop = -px_v3_dot(e, dl);
            if (drop <= tol && (drop <= 0.0f || drop * drop <= PXI_PARALLEL_SIN * PXI_PARALLEL_SIN * px_v3_norm2(e)))
            {
                tied[n++] = u;
            }
        }
    }
    return n;
}

/* The face whose outward normal is most aligned with direction dir (frame A), among the faces around the
 * vertex farthest along dir that hold the most of the corners tied with it (poly_tied_corners), and that
 * alignment (cosine). Restricting to that vertex's faces keeps the face on the contact: on a long thin
 * polytope the face best aligned overall can lie beside the deepest vertex and miss it. Preferring the faces
 * that hold the tied corners keeps it on the contact when the support is an edge: of the two ends of an edge
 * nearly normal to dir, rounding picks either, and the best aligned face around one end can hold that end
 * alone, its prism then missing the edge's middle where the other shape crosses it (a hull's edge across a
 * box's edge: one point 0.100 deep where a cold query found three, the deepest 0.102, seed 20 of
 * churn_filter_test). Faces within PXI_FACE_TIE of the best are tied, and the one with the smallest sum of two
 * lengths wins: how far its plane passes from the witness point w (at a 45-degree edge both faces qualify;
 * the one the contact is on is the better choice), plus how far the face falls back from its deepest vertex
 * along dir (a rock resting on a face, with a neighbour tilted by 1e-3 rad and both planes through the
 * witness on their shared edge: the face lying flat carries the contact, the tilted one would leave its
 * deepest corner out of the manifold); then the lower index. Returns -1 when nothing compares (NaN). The
 * work is in the shape's frame: a scan of the vertices and of the faces' index lists, a few dot products
 * each. A triangle's two faces both hold every vertex: the one facing dir wins (the front on an exact tie). */
static int poly_best_face(const pxi_poly* p, const vec3 dir, const vec3 w, float* align)
{
    vec3 dl, wl, t;
    px_rot_tmulv(&p->rot, dir, dl);
    px_v3_sub(w, p->pos, t);
    px_rot_tmulv(&p->rot, t, wl);
    int v = poly_support_vertex(p, dl);
    /* the candidate faces: those around v, from the hull's vertex-face lists when it has them, else every
     * face tested for v (boxes, hand-made hulls) */
    const int32_t* around = NULL;
    int count = p->face_count;
    if (p->kind == PXI_POLY_HULL && p->hull->vertex_face_offsets != NULL && p->hull->vertex_faces != NULL)
    {
        around = p->hull->vertex_faces + p->hull->vertex_face_offsets[v];
        count = p->hull->vertex_face_offsets[v + 1] - p->hull->vertex_face_offsets[v];
    }
    int tied[PXI_MAX_TIED_CORNERS];
    const int tied_count = poly_tied_corners(p, v, dl, tied, PXI_MAX_TIED_CORNERS);
    float best = -INFINITY;
    int most = 0;
    for (int k = 0; k < count; ++k)
    {
        int f = around != NULL ? around[k] : k;
        if (around == NULL && !poly_face_has_vertex(p, f, v))
        {
            continue;
        }
        int held = 1;
        for (int j = 1; j < tied_count; ++j)
        {
            held += poly_face_has_vertex(p, f, tied[j]) ? 1 : 0;
        }
        vec3 n;
        float d;
        poly_local_plane(p, f, n, &d);
        float a = px_v3_dot(n, dl);
        if (held > most || (held == most && a > best))
        {
            best = a;
            most = held;
        }
    }
    int face = -1;
    float best_gap = INFINITY;
    for (int k = 0; k < count; ++k)
    {
        int f = around != NULL ? around[k] : k;
        if (around == NULL && !poly_face_has_vertex(p, f, v))
        {
            continue;
        }
        int held = 1;
        for (int j = 1; j < tied_count && held <= most; ++j)
        {
            held += poly_face_has_vertex(p, f, tied[j]) ? 1 : 0;
        }
        vec3 n;
        float d;
        poly_local_plane(p, f, n, &d);
        if (held == most && px_v3_dot(n, dl) >= best - PXI_FACE_TIE)
        {
            float gap = fabsf(px_v3_dot(n, wl) - d) + poly_face_spread(p, f, dir);
            if (face < 0 || gap < best_gap)
            {
                face = f;
                best_gap = gap;
            }
        }
    }
    *align = best;
    return face;
}

/* Vertices of face f in frame A, counter-clockwise seen from outside. Returns their number, or 0 when the
 * face has more than PXI_MAX_FACE_VERTICES or its index data is out of range. */
static int poly_face_vertices(const pxi_poly* p, int f, vec3* out)
{
    if (p->kind == PXI_POLY_TRIANGLE)
    {
        /* the front face a, b, c; the back face a, c, b (counter-clockwise around the reversed normal) */
        static const int order[2][3] = {{0, 1, 2}, {0, 2, 1}};
        for (int i = 0; i < 3; ++i)
        {
            const float* c = tri_vertex(p->shape, order[f & 1][i]);
            vec3 local = {c[0], c[1], c[2]};
            px_rot_mulv(&p->rot, local, out[i]);
            px_v3_add(out[i], p->pos, out[i]);
        }
        return 3;
    }
    if (p->kind == PXI_POLY_BOX)
    {
        /* counter-clockwise seen from outside (pxi_box_face_corner) */
        for (int i = 0; i < 4; ++i)
        {
            vec3 c;
            pxi_box_face_corner(p->shape->box.half_extents, f, i, c);
            px_rot_mulv(&p->rot, c, out[i]);
            px_v3_add(out[i], p->pos, out[i]);
        }
        return 4;
    }
    const struct px_hull* hull = p->hull;
    const px_hull_face* face = &hull->faces[f];
    if (face->count < 3 || face->count > PXI_MAX_FACE_VERTICES || face->first < 0 ||
        face->first > hull->face_index_count - face->count)
    {
        return 0;
    }
    for (int i = 0; i < face->count; ++i)
    {
        int32_t index = hull->face_indices[face->first + i];
        if (index < 0 || index >= hull->vertex_count)
        {
            return 0;
        }
        const float* c = hull->vertices + 3 * (size_t)index;
        vec3 local = {c[0], c[1], c[2]};
        px_rot_mulv(&p->rot, local, out[i]);
        px_v3_add(out[i], p->pos, out[i]);
    }
    return face->count;
}

/* ------------------------------------------------------------------------------------------------ */
/* Reduction to four points                                                                           */

/* Twice the signed area of triangle abc seen along m. axis >= 0 says m = +-e_axis: the cross product's
 * other components then meet zeros in the dot product, and the (u, v) plane's formula gives the same value
 * with a third of the work (the box path's points, in the reference box's frame). */
PX_INLINE float area2(const vec3 a, const vec3 b, const vec3 c, const vec3 m, int axis)
{
    if (axis >= 0)
    {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        float abu = b[u] - a[u], abv = b[v] - a[v], acu = c[u] - a[u], acv = c[v] - a[v];
        return m[axis] * (abu * acv - abv * acu);
    }
    vec3 ab, ac, x;
    px_v3_sub(b, a, ab);
    px_v3_sub(c, a, ac);
    px_v3_cross(ab, ac, x);
    return px_v3_dot(x, m);
}

/* Squared distance of b from a across the plane normal to m (axis as for area2: m = +-e_axis when >= 0,
 * where the (u, v) plane's formula gives the same value). */
PX_INLINE float across2(const vec3 a, const vec3 b, const vec3 m, int axis)
{
    if (axis >= 0)
    {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        float du = b[u] - a[u], dv = b[v] - a[v];
        return du * du + dv * dv;
    }
    vec3 d;
    px_v3_sub(b, a, d);
    px_v3_mad(d, -px_v3_dot(d, m), m, d);
    return px_v3_norm2(d);
}

/* Choose at most 4 of n > 4 candidate points: the deepest (the first one within tie of the minimum
 * separation, so equal depths do not trade places with rounding), the one farthest from it across the
 * plane, the one making the largest triangle with those two, and the one adding the most area outside that
 * triangle. Writes the chosen indices in increasing order and returns how many there are. */
int pxi_manifold_reduce(const vec3* pts, const float* sep, int n, const vec3 m, int axis, float tie,
                        int keep[4])
{
    float min_sep = INFINITY;
    for (int i = 0; i < n; ++i)
    {
        min_sep = sep[i] < min_sep ? sep[i] : min_sep;
    }
    int i0 = 0;
    for (int i = 0; i < n; ++i)
    {
        if (sep[i] <= min_sep + tie)
        {
            i0 = i;
            break;
        }
    }
    int i1 = -1;
    float best = 0.0f;
    for (int i = 0; i < n; ++i)
    {
        float d2 = across2(pts[i0], pts[i], m, axis);
        if (d2 > best)
        {
            best = d2;
            i1 = i;
        }
    }
    int count = 0;
    keep[count++] = i0;
    if (i1 < 0)
    {
        return count;
    }
    keep[count++] = i1;
    int i2 = -1;
    float best_area = 0.0f, sign = 1.0f;
    for (int i = 0; i < n; ++i)
    {
        float a = area2(pts[i0], pts[i1], pts[i], m, axis);
        if (fabsf(a) > best_area)
        {
            best_area = fabsf(a);
            sign = a >= 0.0f ? 1.0f : -1.0f;
            i2 = i;
        }
    }
    if (i2 >= 0)
    {
        keep[count++] = i2;
        /* the point adding the most area outside triangle (i0, i1, i2): its area beyond the nearest edge,
         * measured with the triangle's orientation */
        int i3 = -1;
        float best_add = 0.0f;
        for (int i = 0; i < n; ++i)
        {
            float add = px_maxf(-sign * area2(pts[i0], pts[i1], pts[i], m, axis),
                                px_maxf(-sign * area2(pts[i1], pts[i2], pts[i], m, axis),
                                        -sign * area2(pts[i2], pts[i0], pts[i], m, axis)));
            if (add > best_add)
            {
                best_add = add;
                i3 = i;
            }
        }
        if (i3 >= 0)
        {
            keep[count++] = i3;
        }
    }
    /* increasing order keeps the polygon's winding in the output */
    for (int a = 1; a < count; ++a)
    {
        for (int b = a; b > 0 && keep[b - 1] > keep[b]; --b)
        {
            int t = keep[b];
            keep[b] = keep[b - 1];
            keep[b - 1] = t;
        }
    }
    return count;
}

/* ------------------------------------------------------------------------------------------------ */
/* Polytope against polytope                                                                          */

static float core_gap(const pxi_gjk_pair* pair, const vec3 n, vec3 sa, vec3 sb);

/* Whether the reference face's normal nr (frame A, out of the reference shape) may replace the contact
 * normal of a pair with a triangle: the shapes' separation along it must be the contact's distance within
 * rounding (1e-5 of the supports' reach). The distance is the largest separation over all directions,
 * reached along the contact normal; a face normal within the snap angle that separates the shapes less is
 * not a contact normal of theirs. A mesh's edge rules keep a contact's normal in the normal cone of the
 * triangle's feature, and a box lying across a mesh's ridge with its face leaning 2 degrees out of the
 * ridge's wedge had taken that face's normal, out of the cone (mesh_edges crease_normals, 8 of 31 seeds).
 * Pairs without a triangle snap as before: a face lying nearly flat on another keeps its exact normal. */
static bool snap_keeps_depth(const pxi_gjk_pair* pair, bool ref_is_a, const vec3 nr, const px_contact* contact)
{
    if (pair->a->type != PX_SHAPE_TRIANGLE && pair->b->type != PX_SHAPE_TRIANGLE)
    {
        return true;
    }
    vec3 n_ab, sa, sb;
    px_v3_scale(nr, ref_is_a ? 1.0f : -1.0f, n_ab);
    const float separation = core_gap(pair, n_ab, sa, sb) - (pair->a->radius + pair->b->radius);
    return separation >= contact->distance - 1.0e-5f * (px_v3_norm(sa) + px_v3_norm(sb));
}

/* Face clipping between two polytopes; false when it finds nothing usable (the caller then reports the
 * contact point). n is the contact normal (A to B), wa and wb the witness points on the cores. */
static bool manifold_polytopes(const pxi_gjk_pair* pair, const pxi_poly* pa, const pxi_poly* pb,
                               const px_contact* contact, const vec3 wa, const vec3 wb, float ra, float rb,
                               float margin, px_manifold* out)
{
    const float* n = contact->normal;
    vec3 neg_n;
    px_v3_negate(n, neg_n);
    float align_a, align_b;
    int face_a = poly_best_face(pa, n, wa, &align_a);
    int face_b = poly_best_face(pb, neg_n, wb, &align_b);
    if (face_a < 0 || face_b < 0)
    {
        return false;
    }
    /* A keeps the reference unless B's face is clearly better aligned (relative and absolute bias) */
    bool ref_is_a = !((1.0f - align_b) < PXI_REFERENCE_REL * (1.0f - align_a) - PXI_REFERENCE_ABS);
    const pxi_poly* ref = ref_is_a ? pa : pb;
    const pxi_poly* inc = ref_is_a ? pb : pa;
    int ref_face = ref_is_a ? face_a : face_b;
    vec3 n_ri; /* contact normal from the reference shape to the incident one */
    px_v3_copy(ref_is_a ? n : neg_n, n_ri);

    vec3 nr;
    float dr;
    poly_plane(ref, ref_face, nr, &dr);
    vec3 neg_nr;
    px_v3_negate(nr, neg_nr);
    float align_i;
    int inc_face = poly_best_face(inc, neg_nr, ref_is_a ? wb : wa, &align_i);
    if (inc_face < 0)
    {
        return false;
    }

    /* the manifold normal m (reference to incident): the face normal for face contacts, else the contact
     * normal, with the prism over the reference face swept along m */
    vec3 m;
    px_v3_copy(px_v3_dot(nr, n_ri) >= 1.0f - PXI_FACE_SNAP && snap_keeps_depth(pair, ref_is_a, nr, contact)
                   ? nr
                   : n_ri,
               m);
    float nm = px_v3_dot(nr, m);
    if (!(nm >= PXI_MIN_PROJECTION))
    {
        return false;
    }

    vec3 ref_v[PXI_MAX_FACE_VERTICES], inc_v[PXI_MAX_FACE_VERTICES];
    int ref_count = poly_face_vertices(ref, ref_face, ref_v);
    int inc_count = poly_face_vertices(inc, inc_face, inc_v);
    if (ref_count == 0 || inc_count == 0)
    {
        return false;
    }

    pxi_clip_vertex buffer[2][PXI_CLIP_CAPACITY];
    for (int i = 0; i < inc_count; ++i)
    {
        pxi_clip_vertex* v = &buffer[0][i];
        px_v3_copy(inc_v[i], v->p);
        v->feature_i = pxi_feature(PXI_FEATURE_VERTEX, i);
        v->feature_r = pxi_feature(PXI_FEATURE_FACE, 0);
        v->edge_on_ref = 0;
        v->edge_index = (uint8_t)i;
    }
    int count = inc_count, current = 0;
    float scale = 0.0f;
    for (int j = 0; j < ref_count && count > 0; ++j)
    {
        /* side plane through reference edge j containing m; e x m points out of a counter-clockwise face */
        vec3 e, s;
        px_v3_sub(ref_v[j + 1 < ref_count ? j + 1 : 0], ref_v[j], e);
        px_v3_cross(e, m, s);
        scale = px_maxf(scale, px_v3_distance2(ref_v[j], ref_v[0]));
        count = pxi_clip_side(buffer[current], count, s, px_v3_dot(s, ref_v[j]), j, ref_count, -1,
                              buffer[1 - current], PXI_CLIP_CAPACITY);
        current = 1 - current;
    }
    scale = sqrtf(scale);

    /* separations along m from the reference plane; keep those within the margin (radii included) */
    vec3 pts[PXI_CLIP_CAPACITY + 1];
    float sep[PXI_CLIP_CAPACITY + 1];
    int index[PXI_CLIP_CAPACITY + 1];
    const float radii = ra + rb;
    float min_core;
    int kept =
        pxi_clip_keep(buffer[current], count, nr, dr, nm, -1, radii, margin, pts, sep, index, &min_core);
    if (kept == 0)
    {
        return false;
    }
    const float min_sep = min_core - radii;
    /* deep penetration: the contact's own point joins the candidates (index -1), as its incident-side core
     * point with the contact's separation */
    if (pxi_clip_misses_contact(min_sep, contact->distance, margin))
    {
        if (ref_is_a)
        {
            px_v3_mad(contact->point_b, rb, n, pts[kept]);
        }
        else
        {
            px_v3_mad(contact->point_a, -ra, n, pts[kept]);
        }
        sep[kept] = contact->distance + radii;
        index[kept] = -1;
        ++kept;
    }
    int keep[PX_MANIFOLD_MAX_POINTS] = {0, 1, 2, 3};
    int chosen = kept;
    if (kept > PX_MANIFOLD_MAX_POINTS)
    {
        float tie = 0.05f * margin + 1.0e-6f * scale;
        chosen = pxi_manifold_reduce((const vec3*)pts, sep, kept, m, -1, tie, keep);
    }

    /* the manifold normal from A to B, and each point on A's surface */
    if (ref_is_a)
    {
        px_v3_copy(m, out->normal);
    }
    else
    {
        px_v3_negate(m, out->normal);
    }
    for (int k = 0; k < chosen; ++k)
    {
        int c = keep[k];
        vec3 point_a;
        if (index[c] < 0)
        {
            /* the contact's own point, as the contact has it (moving its core point along m, which may lean
             * from the contact's normal by up to PXI_FACE_SNAP, would put it off A's rounded surface) */
            pxi_add_clip_point(out, NULL, ref_is_a, ref->shape, ref_face, inc->shape, inc_face, contact->point_a,
                               contact->distance);
            continue;
        }
        if (ref_is_a)
        {
            /* the incident point projected along m onto A's face, then out by A's radius */
            px_v3_mad(pts[c], ra - sep[c], m, point_a);
        }
        else
        {
            /* the incident point is on A's face: out by A's radius towards B (-m) */
            px_v3_mad(pts[c], -ra, m, point_a);
        }
        pxi_add_clip_point(out, &buffer[current][index[c]], ref_is_a, ref->shape, ref_face, inc->shape, inc_face,
                           point_a, sep[c] - radii);
    }
    return true;
}

/* Position of hull vertex v in face g's vertex list, -1 when g does not have it. */
static int hull_vertex_in_face(const struct px_hull* h, int g, int32_t v)
{
    const px_hull_face* face = &h->faces[g];
    for (int j = 0; j < face->count; ++j)
    {
        if (h->face_indices[face->first + j] == v)
        {
            return j;
        }
    }
    return -1;
}

/* Built hull: the faces around a vertex from the hull's vertex-to-face lists. */
static void hull_canonical(const struct px_hull* h, int* face, uint8_t* feature)
{
    const unsigned kind = *feature >> 6;
    const int f = *face, i = *feature & 63;
    if (f < 0 || f >= h->face_count || i >= h->faces[f].count || h->vertex_faces == NULL)
    {
        return;
    }
    const px_hull_face* hf = &h->faces[f];
    const int32_t v0 = h->face_indices[hf->first + i];
    const int32_t v1 = h->face_indices[hf->first + (i + 1 < hf->count ? i + 1 : 0)];
    int best = f, best_pos = i;
    for (int32_t k = h->vertex_face_offsets[v0]; k < h->vertex_face_offsets[v0 + 1]; ++k)
    {
        const int g = h->vertex_faces[k];
        if (g >= best)
        {
            continue;
        }
        const int p0 = hull_vertex_in_face(h, g, v0);
        if (kind == PXI_FEATURE_VERTEX)
        {
            best = g;
            best_pos = p0;
            continue;
        }
        /* the edge v0 -> v1 of f runs v1 -> v0 in the face across it */
        const int p1 = hull_vertex_in_face(h, g, v1);
        if (p0 >= 0 && p1 >= 0 && (p1 + 1 == h->faces[g].count ? 0 : p1 + 1) == p0)
        {
            best = g;
            best_pos = p1;
        }
    }
    if (best_pos >= 0 && best_pos < 64)
    {
        *face = best;
        *feature = pxi_feature(kind, best_pos);
    }
}

/* Built hulls and triangles (boxes: pxi_canonical_feature's tables). */
void pxi_manifold_canonical_feature(const px_shape* shape, int* face, uint8_t* feature)
{
    const unsigned kind = *feature >> 6;
    if ((kind != PXI_FEATURE_VERTEX && kind != PXI_FEATURE_EDGE) || *face < 0 || (unsigned)*face == PXI_NO_FACE)
    {
        return;
    }
    if (shape->type == PX_SHAPE_HULL && shape->hull.built != NULL && shape->hull.built->face_count > 0)
    {
        hull_canonical(shape->hull.built, face, feature);
    }
    else if (shape->type == PX_SHAPE_TRIANGLE && *face == 1)
    {
        /* the back face lists a, c, b: its vertex i is the front's (3 - i) % 3, its edge i the front's 2 - i
         * (run the other way) */
        const int i = *feature & 63;
        if (i < 3)
        {
            *face = 0;
            *feature = pxi_feature(kind, kind == PXI_FEATURE_VERTEX ? (3 - i) % 3 : 2 - i);
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Capsules and segments                                                                              */

/* Core segment of a capsule or segment shape in its own frame; false for other shapes. */
static bool core_segment(const px_shape* s, vec3 p, vec3 q)
{
    if (s->type == PX_SHAPE_CAPSULE)
    {
        px_v3_set(0.0f, -s->capsule.half_height, 0.0f, p);
        px_v3_set(0.0f, s->capsule.half_height, 0.0f, q);
        return true;
    }
    if (s->type == PX_SHAPE_SEGMENT)
    {
        px_v3_copy(s->segment.a, p);
        px_v3_copy(s->segment.b, q);
        return true;
    }
    return false;
}

/* A core segment s0-s1 (frame A) lying on a polytope face: the segment clipped to the face's prism, two
 * points when both ends are within the margin. seg_is_a says which shape the segment belongs to; n_ps is the
 * contact normal from the polytope towards the segment, w the witness point on the polytope's core. */
static bool manifold_segment_poly(const vec3 s0, const vec3 s1, const pxi_poly* poly, bool seg_is_a,
                                  const vec3 n_ps, const vec3 w, float ra, float rb, float margin,
                                  px_manifold* out)
{
    float align;
    int face = poly_best_face(poly, n_ps, w, &align);
    if (face < 0 || !(align >= 1.0f - PXI_FACE_SNAP))
    {
        return false; /* the contact is on an edge or a vertex of the polytope */
    }
    vec3 nr, u;
    float dr;
    poly_plane(poly, face, nr, &dr);
    px_v3_sub(s1, s0, u);
    float len2 = px_v3_norm2(u);
    float un = px_v3_dot(u, nr);
    if (!(len2 > 0.0f) || !(un * un <= PXI_PARALLEL_SIN * PXI_PARALLEL_SIN * len2))
    {
        return false; /* a point-like or a standing segment */
    }
    vec3 ref_v[PXI_MAX_FACE_VERTICES];
    int ref_count = poly_face_vertices(poly, face, ref_v);
    if (ref_count == 0)
    {
        return false;
    }
    /* clip the parameter range [t0, t1] of the segment to each side plane, remembering which plane cut
     * each end (-1: the end itself) */
    float t0 = 0.0f, t1 = 1.0f;
    int cut0 = -1, cut1 = -1;
    for (int j = 0; j < ref_count; ++j)
    {
        vec3 e, s;
        px_v3_sub(ref_v[j + 1 < ref_count ? j + 1 : 0], ref_v[j], e);
        px_v3_cross(e, nr, s);
        float o = px_v3_dot(s, ref_v[j]);
        float d0 = px_v3_dot(s, s0) - o, d1 = px_v3_dot(s, s1) - o;
        if (d0 > 0.0f && d1 > 0.0f)
        {
            return false;
        }
        if (d0 > 0.0f)
        {
            float t = d0 / (d0 - d1);
            if (t > t0)
            {
                t0 = t;
                cut0 = j;
            }
        }
        else if (d1 > 0.0f)
        {
            float t = d0 / (d0 - d1);
            if (t < t1)
            {
                t1 = t;
                cut1 = j;
            }
        }
    }
    if (!(t1 > t0))
    {
        return false;
    }
    const float ts[2] = {t0, t1};
    const int cuts[2] = {cut0, cut1};
    vec3 c[2];
    float sep[2];
    for (int k = 0; k < 2; ++k)
    {
        px_v3_mad(s0, ts[k], u, c[k]);
        sep[k] = px_v3_dot(nr, c[k]) - dr - (ra + rb);
        if (!(sep[k] <= margin))
        {
            return false; /* one end lifts off: the contact point describes it better */
        }
    }
    /* normal A to B: from the polytope to the segment, or back */
    if (seg_is_a)
    {
        px_v3_negate(nr, out->normal);
    }
    else
    {
        px_v3_copy(nr, out->normal);
    }
    for (int k = 0; k < 2; ++k)
    {
        vec3 point_a;
        uint8_t f_seg = cuts[k] < 0 ? pxi_feature(PXI_FEATURE_VERTEX, k) : pxi_feature(PXI_FEATURE_EDGE, 0);
        uint8_t f_poly =
            cuts[k] < 0 ? pxi_feature(PXI_FEATURE_FACE, 0) : pxi_feature(PXI_FEATURE_EDGE, cuts[k]);
        int named_face = face;
        pxi_canonical_feature(poly->shape, &named_face, &f_poly);
        const unsigned face_byte = (unsigned)named_face;
        uint32_t id;
        if (seg_is_a)
        {
            px_v3_mad(c[k], -ra, nr, point_a); /* the segment's surface towards the face */
            id = pxi_make_id(PXI_NO_FACE, face_byte, f_seg, f_poly);
        }
        else
        {
            /* the segment point projected onto the face, out by the polytope's radius */
            px_v3_mad(c[k], ra - (sep[k] + ra + rb), nr, point_a);
            id = pxi_make_id(face_byte, PXI_NO_FACE, f_poly, f_seg);
        }
        pxi_add_point(out, point_a, sep[k], id);
    }
    return true;
}

/* Two core segments p0-p1 (A) and q0-q1 (B), frame A: when nearly parallel, the ends of their overlap
 * along A's segment, each paired with its closest point on B; n is the contact normal. */
static bool manifold_segments(const vec3 p0, const vec3 p1, const vec3 q0, const vec3 q1, const vec3 n,
                              float ra, float rb, float margin, px_manifold* out)
{
    vec3 da, db, x;
    px_v3_sub(p1, p0, da);
    px_v3_sub(q1, q0, db);
    float la2 = px_v3_norm2(da), lb2 = px_v3_norm2(db);
    px_v3_cross(da, db, x);
    if (!(la2 > 0.0f) || !(lb2 > 0.0f) ||
        !(px_v3_norm2(x) <= PXI_PARALLEL_SIN * PXI_PARALLEL_SIN * la2 * lb2))
    {
        return false;
    }
    vec3 t;
    px_v3_sub(q0, p0, t);
    float tq0 = px_v3_dot(t, da) / la2;
    px_v3_sub(q1, p0, t);
    float tq1 = px_v3_dot(t, da) / la2;
    int kmin = tq0 <= tq1 ? 0 : 1;
    float tmin = kmin == 0 ? tq0 : tq1, tmax = kmin == 0 ? tq1 : tq0;
    float lo = px_maxf(0.0f, tmin), hi = px_minf(1.0f, tmax);
    if (!(hi > lo))
    {
        return false; /* side by side without overlap: end against end */
    }
    const float ts[2] = {lo, hi};
    vec3 ca[2];
    float sep[2];
    for (int k = 0; k < 2; ++k)
    {
        vec3 cb, d;
        px_v3_mad(p0, ts[k], da, ca[k]);
        px_v3_sub(ca[k], q0, d);
        px_v3_mad(q0, px_clampf(px_v3_dot(d, db) / lb2, 0.0f, 1.0f), db, cb);
        px_v3_sub(cb, ca[k], d);
        sep[k] = px_v3_dot(d, n) - (ra + rb);
        if (!(sep[k] <= margin))
        {
            return false;
        }
    }
    px_v3_copy(n, out->normal);
    for (int k = 0; k < 2; ++k)
    {
        /* which end made this end of the overlap: A's own end k, or an end of B */
        bool from_a = k == 0 ? !(tmin > 0.0f) : !(tmax < 1.0f);
        int kb = k == 0 ? kmin : 1 - kmin;
        uint32_t id = from_a ? pxi_make_id(PXI_NO_FACE, PXI_NO_FACE, pxi_feature(PXI_FEATURE_VERTEX, k),
                                       pxi_feature(PXI_FEATURE_EDGE, 0))
                             : pxi_make_id(PXI_NO_FACE, PXI_NO_FACE, pxi_feature(PXI_FEATURE_EDGE, 0),
                                       pxi_feature(PXI_FEATURE_VERTEX, kb));
        vec3 point_a;
        px_v3_mad(ca[k], ra, n, point_a);
        pxi_add_point(out, point_a, sep[k], id);
    }
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* A check of the contact normal                                                                      */

/* Signed gap of the cores along unit n (frame A): min over B of n . y minus max over A of n . x. It is a
 * lower bound of the core distance for every n, equal to it along the true normal; sa and sb receive the
 * supporting points. */
static float core_gap(const pxi_gjk_pair* pair, const vec3 n, vec3 sa, vec3 sb)
{
    vec3 neg;
    px_v3_negate(n, neg);
    pxi_support_a(pair, n, sa);
    pxi_support_b(pair, neg, sb);
    return px_v3_dot(n, sb) - px_v3_dot(n, sa);
}

/* The best normal repair_contact has found: its gap and witness points on the cores. */
typedef struct pxi_candidate
{
    float gap;
    vec3 n, pa, pb;
} pxi_candidate;

/* Keep normal n in best when its gap beats it. The witness points: for a face of A (owner 0), B's support
 * point and its projection onto A's face plane; for a face of B (owner 1), the other way round; for any
 * other normal (owner 2), the given points pa and pb. */
static void consider_normal(const pxi_gjk_pair* pair, const vec3 n, int owner, const vec3 pa, const vec3 pb,
                            pxi_candidate* best)
{
    vec3 sa, sb;
    float gap = core_gap(pair, n, sa, sb);
    if (!(gap > best->gap))
    {
        return;
    }
    best->gap = gap;
    px_v3_copy(n, best->n);
    if (owner == 0)
    {
        px_v3_copy(sb, best->pb);
        px_v3_mad(sb, -gap, n, best->pa);
    }
    else if (owner == 1)
    {
        px_v3_copy(sa, best->pa);
        px_v3_mad(sa, gap, n, best->pb);
    }
    else
    {
        px_v3_copy(pa, best->pa);
        px_v3_copy(pb, best->pb);
    }
}

/* Replace a contact normal that contradicts the contact's own distance. Along any unit n the gap of the
 * cores is at most their signed distance, with equality along the true normal; so when the gap along the
 * contact normal falls clearly short of the contact distance, the normal is wrong. px_contact_relative
 * does this when the cores overlap but GJK stopped on a simplex that touches the origin without enclosing
 * it (a cylinder standing on a box gets a horizontal normal and distance 0; two boxes overlapping by less
 * than the rounding band get a reversed normal). The repair takes, among EPA's normal (run here on the
 * cores whatever GJK said) and, for polytopes, every face normal (A's outward, B's inward), the one with
 * the largest gap, which is the best estimate of the true normal, and the distance that gap proves.
 * Returns true when the contact was replaced. */
static bool repair_contact(const pxi_gjk_pair* pair, const pxi_poly* pa, bool poly_a, const pxi_poly* pb,
                           bool poly_b, const px_contact_config* config, px_contact* c)
{
    const float ra = pair->a->radius, rb = pair->b->radius;
    float nn = px_v3_norm2(c->normal);
    pxi_candidate best;
    memset(&best, 0, sizeof(best));
    best.gap = -INFINITY;
    if (nn > 0.99f && nn < 1.01f)
    {
        vec3 sa, sb;
        float gap = core_gap(pair, c->normal, sa, sb);
        float scale = px_maxf(px_v3_norm(pair->pos_b), px_maxf(px_v3_norm(sa), px_v3_norm(sb)));
        float tol = 2.0f * config->epa_rel_tolerance * fabsf(c->distance) + 1.0e-5f * scale;
        if (!(gap - (ra + rb) < c->distance - tol))
        {
            return false; /* consistent (or NaN: nothing better to offer) */
        }
        if (c->distance > tol)
        {
            /* Clearly apart: GJK's distance is certified, and a normal within its tolerance can fall short
             * of it by the tolerance times the size of the touching features (a warm-started query stops
             * earlier). The face normals below could only prove a smaller gap, down to a penetration that
             * is not there. */
            return false;
        }
        vec3 wa, wb;
        px_v3_mad(c->point_a, -ra, c->normal, wa);
        px_v3_mad(c->point_b, rb, c->normal, wb);
        consider_normal(pair, c->normal, 2, wa, wb, &best);
    }
    /* EPA on the cores, from GJK's final simplex */
    px_gjk_config gjk = config->gjk;
    gjk.use_radii = false;
    pxi_gjk_state st;
    pxi_epa_result epa;
    if (pxi_gjk_run(pair, &gjk, NULL, -1.0f, &st) >= 0 &&
        pxi_epa_run(pair, &st.simplex, config->epa_max_iterations, config->epa_rel_tolerance, &epa) >= 0)
    {
        float en = px_v3_norm2(epa.normal);
        if (en > 0.99f && en < 1.01f)
        {
            consider_normal(pair, epa.normal, 2, epa.point_a, epa.point_b, &best);
        }
    }
    for (int side = 0; side < 2; ++side)
    {
        const pxi_poly* p = side == 0 ? pa : pb;
        for (int f = 0; (side == 0 ? poly_a : poly_b) && f < p->face_count; ++f)
        {
            vec3 n;
            float d;
            poly_plane(p, f, n, &d);
            if (side == 1)
            {
                px_v3_negate(n, n); /* B's faces oppose the normal from A to B */
            }
            consider_normal(pair, n, side, n, n, &best);
        }
    }
    if (!(best.gap > -INFINITY))
    {
        return false;
    }
    px_v3_copy(best.n, c->normal);
    c->distance = best.gap - (ra + rb) + 0.0f;
    px_v3_mad(best.pa, ra, best.n, c->point_a);
    px_v3_mad(c->point_a, c->distance, best.n, c->point_b);
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* Dispatch                                                                                           */

/* The manifold in A's frame from the contact c (when check, checked and, for polytopes, repaired here first); rel is
 * B's normalized pose relative to A. Returns false when the shapes are farther apart than the margin
 * (out->normal is still set). */
static bool manifold_local(const px_shape* a, const px_shape* b, const px_transform* rel,
                           const px_contact_config* config, px_contact* c, bool check, float margin, px_manifold* out)
{
    const float ra = a->radius, rb = b->radius;
    out->count = 0;
    pxi_gjk_pair pair;
    pxi_gjk_pair_init(&pair, a, b, rel);
    px_rot identity = {{{1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 1.0f}}};
    vec3 zero = {0.0f, 0.0f, 0.0f};
    pxi_poly pa, pb;
    bool poly_a = poly_init(&pa, a, &identity, zero);
    bool poly_b = poly_init(&pb, b, &pair.rot_b, pair.pos_b);
    if (check)
    {
        (void)repair_contact(&pair, &pa, poly_a, &pb, poly_b, config, c);
    }
    px_v3_copy(c->normal, out->normal);
    if (!(c->distance <= margin))
    {
        return false; /* apart: no points, but the direction is known */
    }
    float nn = px_v3_norm2(c->normal);
    /* a unit normal is needed to clip; without one (never expected) only the contact point is known */
    if (nn > 0.99f && nn < 1.01f)
    {
        vec3 wa, wb; /* witness points on the cores */
        px_v3_mad(c->point_a, -ra, c->normal, wa);
        px_v3_mad(c->point_b, rb, c->normal, wb);
        vec3 sa0, sa1, sb0, sb1;
        bool seg_a = core_segment(a, sa0, sa1);
        bool seg_b = core_segment(b, sb0, sb1);
        if (seg_b)
        {
            px_rot_mulv(&pair.rot_b, sb0, sb0);
            px_rot_mulv(&pair.rot_b, sb1, sb1);
            px_v3_add(sb0, pair.pos_b, sb0);
            px_v3_add(sb1, pair.pos_b, sb1);
        }
        vec3 neg_n;
        px_v3_negate(c->normal, neg_n);
        bool done = false;
        if (poly_a && poly_b)
        {
            done = manifold_polytopes(&pair, &pa, &pb, c, wa, wb, ra, rb, margin, out);
        }
        else if (seg_a && poly_b)
        {
            done = manifold_segment_poly(sa0, sa1, &pb, true, neg_n, wb, ra, rb, margin, out);
        }
        else if (poly_a && seg_b)
        {
            done = manifold_segment_poly(sb0, sb1, &pa, false, c->normal, wa, ra, rb, margin, out);
        }
        else if (seg_a && seg_b)
        {
            done = manifold_segments(sa0, sa1, sb0, sb1, c->normal, ra, rb, margin, out);
        }
        if (done)
        {
            return true;
        }
        out->count = 0; /* a path that gave up may have written nothing, but be sure */
    }
    px_v3_copy(c->normal, out->normal);
    pxi_add_point(out, c->point_a, c->distance, 0u);
    return true;
}

/* Points closer than this fraction of the smaller shape's size are one contact (merge_coincident): points
 * within rounding of each other, not across a thin shape's width. 1e-3 had merged the two sides of a rod
 * 0.004 thick lying across a floor box 4.4 in size, and 2e-4 those of the same rod across a floor 60 wide
 * (review 68). Points a little farther apart, a sharp corner 1e-4 from a side plane of a rounded face and
 * the crossings of its edges with it (3e-5 to 1e-4 from the corner), stay apart: only their ids, features
 * of their own, tell them from a rod's two sides. */
#define PXI_MANIFOLD_MERGE_FRACTION 1.0e-5f

/* One point per place: a point within tol of a point kept before it is merged into that one, the deeper
 * of the two staying (its id with it). Where a rounded shape's core face has its prism edge pass through a
 * corner of the other shape, the clip gives the corner and the crossings of the corner's edges with that
 * side plane, within rounding of each other: three copies of one contact, which a block solver sees as a
 * singular system and warm starting splits three ways (a review found 2% of corners against rounded
 * boxes and hulls doing so). */
static void merge_coincident(px_manifold* m, float tol)
{
    const float tol2 = tol * tol;
    int kept = 0;
    for (int i = 0; i < m->count; ++i)
    {
        int j = 0;
        while (j < kept && !(px_v3_distance2(m->points[j].point_a, m->points[i].point_a) <= tol2))
        {
            ++j;
        }
        if (j == kept)
        {
            m->points[kept++] = m->points[i];
        }
        else if (m->points[i].separation < m->points[j].separation)
        {
            m->points[j] = m->points[i];
        }
    }
    m->count = kept;
}

/* A shape's size for the merge, rounding included: its own extent, not its reach from its origin
 * (pxi_shape_bound). A built hull's points or a triangle's corners can sit far from their frame's origin (the
 * pieces of a convex decomposition, a triangle in world coordinates), and their bound then measured that
 * offset: a bar 0.01 wide authored at x = 3000 over a floor box 2000 wide took the floor's size, 1414, and
 * its two sides 0.01 apart merged (1e-5 of 1414 is 0.014). */
static float merge_size(const px_shape* s)
{
    float size;
    if (s->type == PX_SHAPE_HULL && s->hull.built != NULL)
    {
        size = s->hull.built->extent;
    }
    else if (s->type == PX_SHAPE_TRIANGLE || s->type == PX_SHAPE_SEGMENT)
    {
        /* the largest distance of a corner from their mean */
        const int n = s->type == PX_SHAPE_TRIANGLE ? 3 : 2;
        const float* v[3] = { s->type == PX_SHAPE_TRIANGLE ? s->triangle.a : s->segment.a,
                              s->type == PX_SHAPE_TRIANGLE ? s->triangle.b : s->segment.b, s->triangle.c };
        vec3 mean = { 0.0f, 0.0f, 0.0f };
        for (int i = 0; i < n; ++i)
        {
            px_v3_mad(mean, 1.0f / (float)n, v[i], mean);
        }
        float far2 = 0.0f;
        for (int i = 0; i < n; ++i)
        {
            far2 = px_maxf(far2, px_v3_distance2(v[i], mean));
        }
        size = sqrtf(far2);
    }
    else
    {
        size = pxi_shape_bound(s);
    }
    return size + s->radius;
}

/* The least squared distance between two points of m (count >= 2); INFINITY, without measuring, when every
 * point is a vertex of the same shape in a face of the other (the ids' feature kinds: a resting box), since
 * distinct vertices of one face are never within rounding of each other. A vertex of A and a vertex of B
 * can be: a box's corner sunk into a rounded cube's rounding came out as the corner in the cube's face and
 * the cube's corner, clipped, at the same place in the box's face (rounded_corner_single_point at
 * PX_TEST_SEED 154 and 205). */
static float closest_pair2(const px_manifold* m)
{
    bool vertices_of_a = true, vertices_of_b = true;
    for (int i = 0; i < m->count; ++i)
    {
        const uint32_t id = m->points[i].id;
        const uint32_t kind_a = (id >> 14) & 3u, kind_b = (id >> 6) & 3u;
        vertices_of_a = vertices_of_a && kind_a == PXI_FEATURE_VERTEX && kind_b == PXI_FEATURE_FACE;
        vertices_of_b = vertices_of_b && kind_b == PXI_FEATURE_VERTEX && kind_a == PXI_FEATURE_FACE;
    }
    if (vertices_of_a || vertices_of_b)
    {
        return INFINITY;
    }
    float least = INFINITY;
    for (int i = 1; i < m->count; ++i)
    {
        for (int j = 0; j < i; ++j)
        {
            least = px_minf(least, px_v3_distance2(m->points[i].point_a, m->points[j].point_a));
        }
    }
    return least;
}

/* The square of a size no smaller than the smaller shape's pxi_shape_bound plus radius, without square roots
 * for boxes (the sum of the half extents bounds their norm): the merge test's cheap first step, so that
 * manifolds without close points (nearly all) cost no bound. INFINITY when unknown. */
static float size_above2(const px_shape* a, const px_shape* b)
{
    float s[2];
    const px_shape* shapes[2] = { a, b };
    for (int k = 0; k < 2; ++k)
    {
        const px_shape* x = shapes[k];
        s[k] = x->type == PX_SHAPE_BOX
                   ? x->box.half_extents[0] + x->box.half_extents[1] + x->box.half_extents[2] + x->radius
                   : INFINITY;
    }
    const float m = px_minf(s[0], s[1]);
    return m * m;
}

/* True when point i's id equals an earlier point's. */
static bool id_taken(const px_manifold* m, int i)
{
    for (int j = 0; j < i; ++j)
    {
        if (m->points[j].id == m->points[i].id)
        {
            return true;
        }
    }
    return false;
}

/* Distinct ids within the manifold. The encoding already gives distinct ids to distinct points; this only
 * guards degenerate clips (rounding may repeat a feature pair), by re-marking a repeat on B's side as an
 * OTHER feature numbered from 32 + its slot. At most three earlier ids can collide and there are 64
 * numbers, so the loop ends with a free one. */
static void make_ids_distinct(px_manifold* m)
{
    for (int i = 1; i < m->count; ++i)
    {
        for (int salt = 0; salt < 64 && id_taken(m, i); ++salt)
        {
            m->points[i].id = (m->points[i].id & 0xFFFFFF00u) | pxi_feature(PXI_FEATURE_OTHER, 32 + i + salt);
        }
    }
}

/* A box that pxi_shape_validate_fast accepts, in one test of its four sizes: finite and >= 0 (a NaN fails
 * the comparisons, an infinity the finite sum). */
static bool box_valid(const px_shape* s)
{
    const float* h = s->box.half_extents;
    return h[0] >= 0.0f && h[1] >= 0.0f && h[2] >= 0.0f && s->radius >= 0.0f &&
           px_is_finite(h[0] + h[1] + h[2] + s->radius);
}

/* True for a pose px_transform_normalized keeps bit for bit (its fast path: |q|^2 within 4 eps of 1, a
 * finite translation). */
static bool pose_is_unit(const px_transform* t)
{
    float n2 = t->q[0] * t->q[0] + t->q[1] * t->q[1] + t->q[2] * t->q[2] + t->q[3] * t->q[3];
    return fabsf(n2 - 1.0f) <= 4.0f * FLT_EPSILON && px_v3_is_finite(t->p);
}

/* Two boxes: the poses and checks of the general path, then the closed-form manifold (manifold_box.c).
 * The common case (unit quaternions) computes the poses inline with pxi_world_pair_poses' arithmetic
 * (px_transform_inv_mul's), so the relative pose is the one px_contact_world works with, bit for bit.
 * Returns the status of a bad input (the general path's, in its order: poses, config, shapes); *done is
 * false when the general path must build the manifold. */
static px_status box_pair_manifold(const px_shape* a, const px_transform* ta, const px_shape* b,
                                   const px_transform* tb, const px_manifold_config* config, px_transform* na,
                                   px_manifold* local, bool* done)
{
    *done = false;
    px_transform rel;
    if (ta != NULL && tb != NULL && pose_is_unit(ta) && pose_is_unit(tb))
    {
        versor conj_a = { -ta->q[0], -ta->q[1], -ta->q[2], ta->q[3] };
        vec3 d;
        px_quat_mul(conj_a, tb->q, rel.q);
        px_v3_sub(tb->p, ta->p, d);
        px_quat_rotate_fast(conj_a, d, rel.p);
        *na = *ta;
    }
    else
    {
        px_status status = pxi_world_pair_poses(ta, tb, na, &rel);
        if (status != PX_OK)
        {
            return status;
        }
    }
    const px_contact_config* contact = config != NULL ? &config->contact : NULL;
    px_status status = pxi_contact_config_status(contact);
    if (status == PX_OK && !(box_valid(a) && box_valid(b)))
    {
        status = pxi_shape_validate_fast(a); /* the exact status of a bad shape */
        status = status != PX_OK ? status : pxi_shape_validate_fast(b);
    }
    if (status == PX_OK && !pose_is_unit(&rel))
    {
        px_transform r = rel;
        status = px_transform_normalized(&r, &rel);
    }
    if (status != PX_OK)
    {
        return status;
    }
    /* the pair's size as pxi_gjk_pair_range measures it for the other paths; sums of absolute components
     * bound it from above, so the square roots run only for pairs near the limit (a review: the sums
     * alone refused box pairs px_contact_world accepts) */
    float size = a->radius + b->radius;
    for (int k = 0; k < 3; ++k)
    {
        size += (a->box.half_extents[k] + b->box.half_extents[k]) + fabsf(rel.p[k]);
    }
    if (PX_UNLIKELY(!(size < PX_MAX_PAIR_SIZE)) &&
        !(px_v3_norm(a->box.half_extents) + px_v3_norm(b->box.half_extents) + px_v3_norm(rel.p) + a->radius +
              b->radius <
          PX_MAX_PAIR_SIZE))
    {
        return PX_ERR_OUT_OF_RANGE;
    }
    float abs_tolerance = contact != NULL ? contact->gjk.abs_tolerance : PX_GJK_ABS_TOLERANCE;
    float margin = config != NULL ? config->margin : PX_LINEAR_SLOP;
    *done = pxi_manifold_box_box(a, b, &rel, abs_tolerance, margin, local);
    return PX_OK;
}

/* The end of both manifold paths: coincident points merged, ids made distinct, and the manifold local (frame
 * A, posed at na) written to result in world space. point_b is rebuilt from the world point_a so point_b =
 * point_a + separation * normal holds to one rounding. */
static void manifold_finish(const px_shape* a, const px_shape* b, const px_transform* na, px_manifold* local,
                            bool done, px_manifold* result)
{
    if (done && local->count > 1)
    {
        if (closest_pair2(local) <= PXI_MANIFOLD_MERGE_FRACTION * PXI_MANIFOLD_MERGE_FRACTION * size_above2(a, b))
        {
            const float size = px_minf(merge_size(a), merge_size(b));
            merge_coincident(local, size > 0.0f ? PXI_MANIFOLD_MERGE_FRACTION * size : 0.0f);
        }
        make_ids_distinct(local);
    }
    pxi_manifold_to_world(local, na, result);
}

void pxi_manifold_to_world(const px_manifold* local, const px_transform* pose, px_manifold* result)
{
    px_rot world;
    px_rot_from_quat(pose->q, &world);
    px_rot_mulv(&world, local->normal, result->normal);
    for (int i = 0; i < local->count; ++i)
    {
        px_manifold_point* p = &result->points[i];
        px_rot_mulv(&world, local->points[i].point_a, p->point_a);
        px_v3_add(p->point_a, pose->p, p->point_a);
        p->separation = local->points[i].separation;
        p->id = local->points[i].id;
        px_v3_mad(p->point_a, p->separation, result->normal, p->point_b);
    }
    result->count = local->count;
}

px_status px_manifold_world(const px_shape* a, const px_transform* ta, const px_shape* b,
                            const px_transform* tb, const px_manifold_config* config, px_manifold* result)
{
    return pxi_manifold_world_cached(a, ta, b, tb, config, NULL, result);
}

px_status pxi_manifold_world_cached(const px_shape* a, const px_transform* ta, const px_shape* b,
                                    const px_transform* tb, const px_manifold_config* config,
                                    px_simplex_cache* cache, px_manifold* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* zeroed by copy: a memset of this size becomes `rep stos`, whose start-up costs a tenth of a box pair */
    static const px_manifold zero;
    *result = zero;
    if (config != NULL && (!(config->margin >= 0.0f) || !px_is_finite(config->margin)))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_transform na;
    px_manifold local;
    bool done = false;
    px_status status = PX_OK;
    if (a != NULL && b != NULL && a->type == PX_SHAPE_BOX && b->type == PX_SHAPE_BOX &&
        (config == NULL || config->contact.analytic))
    {
        status = box_pair_manifold(a, ta, b, tb, config, &na, &local, &done);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (!done)
    {
        px_manifold_config defaults;
        config = pxi_manifold_config_or_default(config, &defaults);
        px_gjk_input input;
        input.a = a;
        input.b = b;
        status = pxi_world_pair_poses(ta, tb, &na, &input.b_in_a);
        if (status != PX_OK)
        {
            return status;
        }
        px_contact c;
        status = px_contact_relative(&input, &config->contact, cache, &c);
        if (status < 0)
        {
            return status;
        }
        /* the same normalized relative pose px_contact_relative worked with */
        px_transform rel;
        if (px_transform_normalized(&input.b_in_a, &rel) != PX_OK)
        {
            return PX_ERR_DEGENERATE_INPUT; /* not reached: the contact query accepted this pose */
        }
        memset(&local, 0, sizeof(local));
        done = manifold_local(a, b, &rel, &config->contact, &c, true, config->margin, &local);
    }
    manifold_finish(a, b, &na, &local, done, result);
    return status;
}

px_status pxi_manifold_world_along(const px_shape* a, const px_transform* ta, const px_shape* b,
                                   const px_transform* tb, const px_manifold_config* config, const vec3 normal,
                                   px_manifold* result)
{
    static const px_manifold zero;
    *result = zero;
    px_manifold_config defaults;
    config = pxi_manifold_config_or_default(config, &defaults);
    if (a == NULL || b == NULL || ta == NULL || tb == NULL || normal == NULL || !(config->margin >= 0.0f) ||
        !px_is_finite(config->margin))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (!px_is_finite(normal[0]) || !px_is_finite(normal[1]) || !px_is_finite(normal[2]))
    {
        return PX_ERR_NON_FINITE;
    }
    px_transform na, rel;
    px_status status = pxi_world_pair_poses(ta, tb, &na, &rel);
    if (status != PX_OK)
    {
        return status;
    }
    /* the contact along the normal: the cores' gap there and their supporting points (frame A) */
    px_contact c;
    memset(&c, 0, sizeof(c));
    vec3 n;
    px_quat_rotate_inv_fast(na.q, normal, n);
    if (!px_v3_normalize_any(n, c.normal))
    {
        return PX_ERR_DEGENERATE_INPUT;
    }
    pxi_gjk_pair pair;
    pxi_gjk_pair_init(&pair, a, b, &rel);
    vec3 sa, sb;
    const float gap = core_gap(&pair, c.normal, sa, sb);
    c.distance = gap - (a->radius + b->radius) + 0.0f;
    if (!px_is_finite(c.distance))
    {
        return PX_ERR_NON_FINITE;
    }
    /* The witness: the support point of the shape that is not a triangle, projected onto the other's support
     * plane. A triangle's support along its face normal is its whole face, so its support vertex says
     * nothing of where the contact is: with the triangle as B, projecting B's support put a sphere's point on
     * a corner of the triangle, far from the sphere. */
    if (a->type != PX_SHAPE_TRIANGLE && b->type == PX_SHAPE_TRIANGLE)
    {
        px_v3_mad(sa, a->radius, c.normal, c.point_a); /* A's support on its rounded surface */
    }
    else
    {
        px_v3_mad(sb, -(gap - a->radius), c.normal, c.point_a); /* B's support projected onto A's support plane */
    }
    px_v3_mad(c.point_a, c.distance, c.normal, c.point_b);
    px_manifold local;
    memset(&local, 0, sizeof(local));
    const bool done = manifold_local(a, b, &rel, &config->contact, &c, false, config->margin, &local);
    manifold_finish(a, b, &na, &local, done, result);
    return PX_OK;
}

px_status pxi_manifold_from_contact(const px_shape* a, const px_shape* b, const px_transform* rel,
                                    const px_manifold_config* config, const px_contact* contact, px_manifold* result)
{
    static const px_manifold zero;
    *result = zero;
    px_manifold_config defaults;
    config = pxi_manifold_config_or_default(config, &defaults);
    px_contact c = *contact;
    px_manifold local;
    memset(&local, 0, sizeof(local));
    const bool done = manifold_local(a, b, rel, &config->contact, &c, true, config->margin, &local);
    px_transform frame_a;
    px_transform_identity(&frame_a);
    manifold_finish(a, b, &frame_a, &local, done, result);
    return PX_OK;
}
