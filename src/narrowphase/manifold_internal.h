/* Contact manifolds: the pieces shared by the general path (manifold.c) and the box-box path
 * (manifold_box.c). The feature-id scheme is described at the top of manifold.c; both paths build ids with
 * the same helpers so that a pair that moves from one path to the other keeps its ids. */
#pragma once

#include "../core/px_math.h"

#include "proxima/manifold.h"

#define PXI_NO_FACE 0xFEu
#define PXI_FEATURE_FACE 0u
#define PXI_FEATURE_VERTEX 1u
#define PXI_FEATURE_EDGE 2u
#define PXI_FEATURE_OTHER 3u

/* A reference face within this misalignment (1 - cos, about 2.6 degrees) of the contact normal gives its
 * own normal to the manifold: face contacts then report the exact face normal, free of EPA's and GJK's
 * rounding, and the same normal every frame. */
#define PXI_FACE_SNAP 1.0e-3f
/* B's face becomes the reference only when its misalignment (1 - cos) is below this fraction of A's, less
 * PXI_REFERENCE_ABS: near ties keep A, so the reference does not flip with rounding noise. */
#define PXI_REFERENCE_REL 0.5f
#define PXI_REFERENCE_ABS 1.0e-6f
/* Faces whose alignments differ by less than this count as tied; the witness point decides. */
#define PXI_FACE_TIE 1.0e-5f
/* Corners of a polytope whose heights along the contact normal differ by less than this fraction of the
 * polytope's size are tied as its support (an edge or a face normal to the contact normal within the
 * normal's rounding), and at most this many are gathered. */
#define PXI_SUPPORT_TIE 1.0e-5f
#define PXI_MAX_TIED_CORNERS 8

/* config, or the defaults written to storage when it is NULL. */
static inline const px_manifold_config* pxi_manifold_config_or_default(const px_manifold_config* config,
                                                                       px_manifold_config* storage)
{
    if (config != NULL)
    {
        return config;
    }
    *storage = px_manifold_default_config();
    return storage;
}

/* px_manifold_world with a warm-start cache for the pair's GJK (may be NULL), as the world keeps per pair.
 * The box-box closed form does not use it. */
px_status pxi_manifold_world_cached(const px_shape* a, const px_transform* ta, const px_shape* b,
                                    const px_transform* tb, const px_manifold_config* config,
                                    px_simplex_cache* cache, px_manifold* result);

/* The manifold of a pair along a given normal (world, from A to B; any length): the contact is the cores'
 * gap along it, not a search, and the clip runs from there as px_manifold_world's does. Its witness is the
 * support point of the shape that is not a triangle (B's when neither or both are): a triangle's support
 * along its face normal is the whole face. A mesh triangle whose contact the edge rules correct gets its
 * manifold this way (pxi_mesh_triangle_manifold, mesh_collide.c). Returns PX_OK or the errors of
 * px_manifold_world (PX_ERR_DEGENERATE_INPUT for a zero normal). */
px_status pxi_manifold_world_along(const px_shape* a, const px_transform* ta, const px_shape* b,
                                   const px_transform* tb, const px_manifold_config* config, const vec3 normal,
                                   px_manifold* result);

/* The manifold of a pair from its contact (px_contact_relative's, in A's frame; B posed by rel, normalized),
 * checked and clipped as px_manifold_world does, in A's frame. */
px_status pxi_manifold_from_contact(const px_shape* a, const px_shape* b, const px_transform* rel,
                                    const px_manifold_config* config, const px_contact* contact, px_manifold* result);

/* A manifold in a frame posed at pose (normalized), to world: normal and point_a moved, point_b rebuilt from
 * the world point_a so that point_b = point_a + separation * normal holds to one rounding. */
void pxi_manifold_to_world(const px_manifold* local, const px_transform* pose, px_manifold* result);

/* One byte of an id: kind << 6 | index (index taken modulo 64). */
static inline uint8_t pxi_feature(unsigned kind, int index)
{
    return (uint8_t)((kind << 6) | ((unsigned)index & 63u));
}

/* id = face_a << 24 | face_b << 16 | feature_a << 8 | feature_b */
static inline uint32_t pxi_make_id(unsigned face_a, unsigned face_b, uint8_t feature_a, uint8_t feature_b)
{
    return (face_a & 0xFFu) << 24 | (face_b & 0xFFu) << 16 | (uint32_t)feature_a << 8 | feature_b;
}

/* Append a point (frame A) to the manifold under construction (the caller keeps count below the maximum). */
static inline void pxi_add_point(px_manifold* m, const vec3 point_a, float separation, uint32_t id)
{
    px_manifold_point* p = &m->points[m->count++];
    px_v3_copy(point_a, p->point_a);
    p->separation = separation + 0.0f; /* + 0: a touching point reads 0, not -0 */
    p->id = id;
}

/* The corners of a box's faces. Face 2k is the + side of axis k and 2k + 1 the - side; (u, v) are the next
 * axes, e_u x e_v = e_k. Corner i of the face has u coordinate pxi_box_face_su[f & 1][i] * h[u] and v
 * coordinate pxi_box_face_sv[f & 1][i] * h[v]: the corners run counter-clockwise seen from outside the face
 * (around +e_k, and reversed around -e_k). Edge i of the face runs from corner i to corner i + 1 (mod 4). */
static const float pxi_box_face_su[2][4] = { { -1.0f, 1.0f, 1.0f, -1.0f }, { -1.0f, -1.0f, 1.0f, 1.0f } };
static const float pxi_box_face_sv[2][4] = { { -1.0f, -1.0f, 1.0f, 1.0f }, { -1.0f, 1.0f, 1.0f, -1.0f } };

/* Corner i (0..3) of face f of a box with half extents h, in the box's frame. */
static inline void pxi_box_face_corner(const float* h, int f, int i, vec3 dest)
{
    int k = f >> 1, u = (k + 1) % 3, v = (k + 2) % 3, neg = f & 1;
    dest[k] = neg ? -h[k] : h[k];
    dest[u] = pxi_box_face_su[neg][i] * h[u];
    dest[v] = pxi_box_face_sv[neg][i] * h[v];
}

/* A vertex of the polygon being clipped: where it is, which features of the incident (I) and reference (R)
 * faces meet there, and what the edge to the next vertex lies on (an incident edge, or a reference side
 * plane that cut the polygon). */
typedef struct pxi_clip_vertex
{
    vec3 p;
    uint8_t feature_i;
    uint8_t feature_r;
    uint8_t edge_on_ref; /* 1: the outgoing edge lies on reference side plane edge_index */
    uint8_t edge_index;
} pxi_clip_vertex;

/* Features of the point where the polygon edge leaving v crosses reference side plane j. An incident
 * edge crossing a reference edge is an edge-edge point; two reference side planes meet over the reference
 * vertex they share. */
static inline void pxi_crossing_features(const pxi_clip_vertex* v, int j, int ref_count, pxi_clip_vertex* x)
{
    if (!v->edge_on_ref)
    {
        x->feature_i = pxi_feature(PXI_FEATURE_EDGE, v->edge_index);
        x->feature_r = pxi_feature(PXI_FEATURE_EDGE, j);
        return;
    }
    int i = v->edge_index;
    if (j == (i + 1) % ref_count || i == (j + 1) % ref_count)
    {
        x->feature_i = pxi_feature(PXI_FEATURE_FACE, 0);
        x->feature_r = pxi_feature(PXI_FEATURE_VERTEX, j == (i + 1) % ref_count ? j : i);
        return;
    }
    /* non-adjacent side planes meeting inside the face: only in degenerate (rounding) cases */
    x->feature_i = pxi_feature(PXI_FEATURE_OTHER, i);
    x->feature_r = pxi_feature(PXI_FEATURE_OTHER, j);
}

/* Keep the part of polygon in[0..n) with s . p <= o (side plane j of a reference face with ref_count edges):
 * one step of Sutherland and Hodgman (1974) that tracks features. Returns the number of vertices written to
 * out, at most capacity. Vertices exactly on the plane are kept and make no crossing, so no duplicate
 * appears; a NaN distance drops the vertex. axis is -1, or k when s = +-e_k (the box path, in the reference
 * box's frame): distances then come from coordinate k alone (the same values) and crossings are put on the
 * plane exactly. */
static inline int pxi_clip_side(const pxi_clip_vertex* in, int n, const vec3 s, float o, int j, int ref_count,
                                int axis, pxi_clip_vertex* out, int capacity)
{
    int count = 0;
    for (int i = 0; i < n; ++i)
    {
        const pxi_clip_vertex* p = &in[i];
        const pxi_clip_vertex* q = &in[i + 1 < n ? i + 1 : 0];
        float dp = (axis >= 0 ? s[axis] * p->p[axis] : px_v3_dot(s, p->p)) - o;
        float dq = (axis >= 0 ? s[axis] * q->p[axis] : px_v3_dot(s, q->p)) - o;
        if (dp <= 0.0f && count < capacity)
        {
            out[count++] = *p;
        }
        if (((dp < 0.0f && dq > 0.0f) || (dp > 0.0f && dq < 0.0f)) && count < capacity)
        {
            pxi_clip_vertex* x = &out[count++];
            vec3 e;
            px_v3_sub(q->p, p->p, e);
            px_v3_mad(p->p, dp / (dp - dq), e, x->p);
            if (axis >= 0)
            {
                x->p[axis] = s[axis] * o; /* on the plane exactly */
            }
            pxi_crossing_features(p, j, ref_count, x);
            if (dp < 0.0f)
            {
                /* leaving the prism: the polygon runs along side plane j until it re-enters */
                x->edge_on_ref = 1;
                x->edge_index = (uint8_t)j;
            }
            else
            {
                /* entering: the rest of this edge is inside */
                x->edge_on_ref = p->edge_on_ref;
                x->edge_index = p->edge_index;
            }
        }
    }
    return count;
}

/* The candidates among the clipped polygon in[0..n): the vertices within the margin of the reference plane
 * nr . x = dr, radii included, their separation being measured along the manifold normal ((nr . p - dr) / nm,
 * nm the normal's component along nr). Copies them to pts, their separations to sep and their indices in in
 * to index; returns how many, and the least separation among them in min_core (INFINITY for none): the
 * least separation with the radii is then min_core - radii, exactly. axis as for pxi_clip_side (nr = +-e_k,
 * nm = 1 in the box path). */
PX_INLINE int pxi_clip_keep(const pxi_clip_vertex* in, int n, const vec3 nr, float dr, float nm, int axis,
                            float radii, float margin, vec3* pts, float* sep, int* index, float* min_core)
{
    int kept = 0;
    float least = INFINITY;
    for (int i = 0; i < n; ++i)
    {
        float s = ((axis >= 0 ? nr[axis] * in[i].p[axis] : px_v3_dot(nr, in[i].p)) - dr) / nm;
        if (s - radii <= margin) /* NaN: not kept */
        {
            px_v3_copy(in[i].p, pts[kept]);
            sep[kept] = s;
            index[kept] = i;
            least = px_minf(least, s);
            ++kept;
        }
    }
    *min_core = least;
    return kept;
}

/* Deep penetration can push the deepest feature out of the reference face's prism (a corner through a thin
 * face's edge), and the clip then understates the depth. True when the least separation min_sep of the
 * clipped points (radii included) falls short of the contact's distance by more than slack and a twentieth
 * of the depth: the contact's own point then joins the candidates (with a quarter, a rock corner through a
 * box's edge was reported 0.113 deep for 0.141). The box pair's closed form, whose reference
 * face comes from the exact separating axis, passes the margin as slack. */
static inline bool pxi_clip_misses_depth(float min_sep, float distance, float slack)
{
    return min_sep > distance + px_maxf(slack, 0.05f * fabsf(distance));
}

/* The same for the general polytope path, whose reference face is picked from the contact's normal and
 * witness points: on a near tie its prism can miss the contact's region (two hulls overlapping by 7 mm got
 * a single point 8 mm apart with a 2 cm margin). There the contact's point joins when the clip falls short
 * by more than a tenth of the margin (and a twentieth of the depth). */
static inline bool pxi_clip_misses_contact(float min_sep, float distance, float margin)
{
    return pxi_clip_misses_depth(min_sep, distance, 0.1f * margin);
}

/* The canonical name of a vertex or an edge of a polytope shape (box, built hull, triangle) given as
 * (face, feature) of one face that has it: the face with the lowest index among the faces that have it,
 * and its position there. A clipped point is named from the face it was clipped on, but an edge resting on
 * a face lies between two faces that tie as the incident face (a box edge-on at 45 degrees): without this,
 * its ids changed whenever the tie flipped (a review: a quarter of 1e-4 perturbations of edge-on boxes).
 * Face interiors, OTHER features and other shapes are left as they are (manifold.c). */
void pxi_manifold_canonical_feature(const px_shape* shape, int* face, uint8_t* feature);

/* The same for a box, from tables: the canonical name (4 * face + position) of vertex and of edge
 * `position` of box face `face` (faces and corners as pxi_box_face_corner numbers them; a corner's lowest
 * face is its x face, an edge's the lower of its two faces, where it runs the other way). test_manifold
 * checks them against the corners. */
static const uint8_t pxi_box_feature_names[2][6][4] = {
    { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 7, 6, 2, 1 }, { 4, 0, 3, 5 }, { 5, 3, 2, 6 }, { 4, 7, 1, 0 } },    /* vertices */
    { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 6, 9, 1, 11 }, { 12, 3, 14, 4 }, { 14, 2, 9, 5 }, { 7, 11, 0, 12 } } /* edges */
};

static inline void pxi_canonical_feature(const px_shape* shape, int* face, uint8_t* feature)
{
    const unsigned kind = (unsigned)*feature >> 6;
    if (kind - PXI_FEATURE_VERTEX > PXI_FEATURE_EDGE - PXI_FEATURE_VERTEX)
    {
        return; /* a face's interior or OTHER: as it is */
    }
    if (shape->type == PX_SHAPE_BOX)
    {
        const unsigned f = (unsigned)*face, i = (unsigned)*feature & 63u;
        if (f < 6u && i < 4u)
        {
            const unsigned name = pxi_box_feature_names[kind - PXI_FEATURE_VERTEX][f][i];
            *face = (int)(name >> 2);
            *feature = (uint8_t)((kind << 6) | (name & 3u));
        }
        return;
    }
    pxi_manifold_canonical_feature(shape, face, feature);
}

/* Append clipped point point_a (frame A, separation including the radii) to the manifold, its id naming the
 * features of clip vertex v (NULL: the contact's own point added for deep penetration) on the reference and
 * incident faces (of ref_shape and inc_shape, canonically: pxi_manifold_canonical_feature), A's first. */
static inline void pxi_add_clip_point(px_manifold* m, const pxi_clip_vertex* v, bool ref_is_a,
                                      const px_shape* ref_shape, int ref_face, const px_shape* inc_shape,
                                      int inc_face, const vec3 point_a, float separation)
{
    uint8_t feature_r = pxi_feature(PXI_FEATURE_OTHER, 63);
    uint8_t feature_i = feature_r;
    if (v != NULL)
    {
        feature_r = v->feature_r;
        feature_i = v->feature_i;
        pxi_canonical_feature(ref_shape, &ref_face, &feature_r);
        pxi_canonical_feature(inc_shape, &inc_face, &feature_i);
    }
    uint32_t id = ref_is_a ? pxi_make_id((unsigned)ref_face, (unsigned)inc_face, feature_r, feature_i)
                           : pxi_make_id((unsigned)inc_face, (unsigned)ref_face, feature_i, feature_r);
    pxi_add_point(m, point_a, separation, id);
}

/* Choose at most 4 of n > 4 candidate points pts (separations sep, manifold normal m): the deepest, then
 * the ones spanning the largest area (manifold.c). axis is -1, or k when m = +-e_k (the box path, in the
 * reference box's frame): the measures are then taken in the plane of the other two axes, with the same
 * values and less work. Writes the chosen indices in increasing order to keep and returns how many there
 * are. */
int pxi_manifold_reduce(const vec3* pts, const float* sep, int n, const vec3 m, int axis, float tie,
                        int keep[4]);

/* The manifold of two boxes in A's frame (manifold_box.c), rel being B's normalized pose relative to A, the
 * shapes validated, abs_tolerance the contact config's gjk.abs_tolerance (it sets the touching band) and
 * margin the manifold's. Sets out's count, normal and points, and nothing else. Returns false when this
 * pair needs the general path (no certified contact near touching, or a face choice that is not
 * clear-cut); out is then to be rebuilt from scratch. */
bool pxi_manifold_box_box(const px_shape* a, const px_shape* b, const px_transform* rel, float abs_tolerance,
                          float margin, px_manifold* out);
