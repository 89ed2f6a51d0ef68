/* Box-box contact manifolds: the dedicated path px_manifold_world (manifold.h) takes for two boxes.
 *
 * The general path (manifold.c) asks px_contact_relative for the contact, checks its normal against the
 * shapes, and finds the faces by scanning them. For two boxes all of it has closed forms. Everything is in
 * A's frame with B's normalized relative pose, as in the general path:
 *  1. The 15 separating axes, with the arithmetic px_contact_world uses for boxes (box_sat.h).
 *     - An axis separating the cores by more than the margin plus the radii ends the query: no points. The
 *       normal is that axis, the one of largest separation: a separating direction, though not always the
 *       closest-points direction the general path's GJK would give.
 *     - Cores that overlap by more than two touching bands along every axis: the contact is the axis of
 *       least overlap (faces preferred on near ties), its depth and witness points, bit for bit the contact
 *       px_contact_world reports. It needs no check: along the separating-axis minimum the gap of the
 *       shapes is the contact distance, which is what the general path's repair_contact verifies.
 *     - Anything in between (cores touching, or apart by less than the margin): the axis of least biased
 *       overlap only bounds the distance from below. The manifold below stands when a pair of surface
 *       points realizes that bound (a clipped point, or the closest points of the two edges), which makes
 *       it the exact distance; otherwise the general path, where GJK decides, builds the manifold.
 *  2. The contact normal near a face normal (within PXI_FACE_SNAP of the reference face, always so for a
 *     face axis): reference and incident faces chosen by the general path's rules, the incident face's
 *     four corners clipped to the prism over the reference face (Sutherland and Hodgman 1974). The work is
 *     in the reference box's own frame, where the prism's side planes are coordinate planes and a point's
 *     separation is one coordinate. Points within the margin are kept and, beyond four, reduced as the
 *     general path does; the contact's own point is added when deep penetration pushes the deepest feature
 *     out of the prism. Feature ids are the ones the general path gives, so a pair that moves between the
 *     two paths keeps them.
 *  3. An edge-pair axis away from every face normal: one point, the closest points of the two supporting
 *     edges (as ODE's box-box test does), its id naming each edge as an edge of one of its faces (the one
 *     with the lower index, whatever the normal).
 * Radii: the cores are clipped and the radii shift the points along the normal, as in the general path.
 * No allocation; every loop has a fixed bound. */
#include "manifold_internal.h"

#include "../gjk/gjk_internal.h"
#include "box_sat.h"

/* The clip buffers: 4 corners, and each of the 4 side planes adds at most one vertex to a convex polygon
 * (rounding can break convexity; the clipper also bounds its writes). */
#define PXI_BOX_CLIP_CAPACITY 16

/* The face of a box best aligned with direction d (the box's frame) among the three faces around the
 * corner farthest along d, and that alignment (cosine, when d is unit): the choice poly_best_face makes in
 * manifold.c, in closed form. Faces within PXI_FACE_TIE of the best are tied; the one whose plane passes
 * closest to the witness point w wins, then the lower index. Returns -1 when nothing compares (NaN), and
 * -2 when faces tie and w is NULL (the caller computes the witness point and asks again). */
PX_INLINE int box_best_face(const float* h, const vec3 d, const float* w, float* align)
{
    const float a0 = fabsf(d[0]), a1 = fabsf(d[1]), a2 = fabsf(d[2]);
    const float best = px_maxf(a0, px_maxf(a1, a2));
    *align = best;
    const float cut = best - PXI_FACE_TIE;
    const int tied = (a0 >= cut) + (a1 >= cut) + (a2 >= cut);
    if (tied == 1)
    {
        int k = a0 >= cut ? 0 : (a1 >= cut ? 1 : 2);
        return 2 * k + (d[k] >= 0.0f ? 0 : 1);
    }
    if (tied == 0)
    {
        return -1; /* NaN */
    }
    if (w == NULL)
    {
        return -2;
    }
    int face = -1;
    float best_gap = INFINITY;
    for (int k = 0; k < 3; ++k)
    {
        bool pos = d[k] >= 0.0f; /* the corner's side, as the support mapping picks it */
        if (fabsf(d[k]) >= cut)
        {
            float gap = fabsf((pos ? w[k] : -w[k]) - h[k]);
            if (face < 0 || gap < best_gap)
            {
                face = 2 * k + (pos ? 0 : 1);
                best_gap = gap;
            }
        }
    }
    return face;
}

/* The outward normal of face f of a box in the box's frame: +-e_k. Written lane by lane (a store at a
 * variable index into a zeroed vector stalls the loads that follow it). */
static void axis_vector(int f, vec3 dest)
{
    const int k = f >> 1;
    const float s = (f & 1) ? -1.0f : 1.0f;
    dest[0] = k == 0 ? s : 0.0f;
    dest[1] = k == 1 ? s : 0.0f;
    dest[2] = k == 2 ? s : 0.0f;
}

/* Side plane j of a face (the plane through edge j, pxi_box_face_corner's numbering, containing the face
 * normal): a point p of the box's frame is inside when sign * p[axis] <= h[axis], axis being the face's u
 * axis (0) or v axis (1), whichever stays fixed along the edge. Indexed by the face's side (f & 1) and j. */
static const int side_uv[2][4] = { { 1, 0, 1, 0 }, { 0, 1, 0, 1 } };
static const float side_sign[2][4] = { { -1.0f, 1.0f, 1.0f, -1.0f }, { -1.0f, 1.0f, 1.0f, -1.0f } };

/* Index of the edge of face f that runs along axis `along` (one of the face's u and v axes) through the
 * corner with coordinate signs s: the edge whose side plane is the other axis's, on s's side. */
static int box_face_edge(int f, int along, const vec3 s)
{
    const int k = f >> 1, u = (k + 1) % 3, v = (k + 2) % 3, neg = f & 1;
    const int fixed_is_v = along == u ? 1 : 0; /* running along u, the edge keeps v fixed */
    const float sign = s[fixed_is_v ? v : u];
    for (int j = 0; j < 4; ++j)
    {
        if (side_uv[neg][j] == fixed_is_v && side_sign[neg][j] == sign)
        {
            return j;
        }
    }
    return 0; /* not reached for an edge of the face */
}

/* The contact along the chosen axis, as px_contact_world computes it (contact_box_box and contact_from_cores
 * in contact.c). Its normal and distance are known at once; the witness points (only needed for face ties,
 * the deep-penetration point and one-point manifolds) are computed on first use. */
typedef struct pxi_box_contact
{
    const pxi_box_sat* sat;
    int kind;  /* the separating-axis number */
    float depth;
    float ra, rb;
    px_contact c;   /* normal and distance always; points once ready */
    vec3 wa;        /* witness on A's core, frame A */
    vec3 wb_local;  /* witness on B's core, frame B */
    bool ready;
} pxi_box_contact;

/* Fill the contact's points from the witness points pa, pb on the cores. */
static void box_contact_from_witness(pxi_box_contact* bc, const vec3 pa, const vec3 pb)
{
    const float* n = bc->c.normal;
    vec3 wb;
    (void)pb; /* as contact_from_cores: point_b is rebuilt from point_a */
    px_v3_mad(pa, bc->ra, n, bc->c.point_a);
    px_v3_mad(bc->c.point_a, bc->c.distance, n, bc->c.point_b);
    /* the witness points on the cores as the general path recovers them from the contact */
    px_v3_mad(bc->c.point_a, -bc->ra, n, bc->wa);
    px_v3_mad(bc->c.point_b, bc->rb, n, wb);
    px_v3_sub(wb, bc->sat->t, wb);
    px_rot_tmulv(bc->sat->rb, wb, bc->wb_local);
    bc->ready = true;
}

/* Fill the contact's points (once). */
static void box_contact_points(pxi_box_contact* bc)
{
    if (bc->ready)
    {
        return;
    }
    vec3 pa, pb;
    pxi_box_witness(bc->sat, bc->kind, bc->c.normal, bc->depth, pa, pb);
    box_contact_from_witness(bc, pa, pb);
}

/* box_best_face with the witness point of the contact on that box (A: is_a) fetched only for a tie. */
PX_INLINE int box_face_for(pxi_box_contact* bc, bool is_a, const vec3 d, float* align)
{
    const float* h = is_a ? bc->sat->ha : bc->sat->hb;
    int f = box_best_face(h, d, NULL, align);
    if (f == -2)
    {
        box_contact_points(bc);
        f = box_best_face(h, d, is_a ? bc->wa : bc->wb_local, align);
    }
    return f;
}

/* Face clipping: the incident face inc_face against the reference face ref_face, whose normal is the
 * manifold normal. c is the contact (frame A, normal n from A to B). False when no point is within the
 * margin (the caller then reports the contact's point, as the general path does). min_core receives the
 * least separation of the cores among the clipped points kept (a pair of surface points that far apart
 * along the normal). */
/* A box for the canonical feature names (pxi_manifold_canonical_feature), which depend on its topology
 * alone. */
static const px_shape k_box_topology = { .type = PX_SHAPE_BOX };

static bool box_clip(pxi_box_contact* bc, bool ref_is_a, int ref_face, int inc_face, float margin,
                     px_manifold* out, float* min_core)
{
    const pxi_box_sat* sat = bc->sat;
    const px_contact* c = &bc->c;
    const float ra = bc->ra, rb = bc->rb;
    const float* hr = ref_is_a ? sat->ha : sat->hb;
    const float* hi = ref_is_a ? sat->hb : sat->ha;
    const px_rot* rot = sat->rb;
    const float* t = sat->t;
    const int kr = ref_face >> 1, ur = (kr + 1) % 3, vr = (kr + 2) % 3, neg_r = ref_face & 1;
    const float sr = neg_r ? -1.0f : 1.0f;

    /* The incident face in the reference box's frame: its centre ce and the half edges eu, ev along its u
     * and v axes. Incident B in A's frame: B's axes are the columns of the rotation, its centre t. Incident
     * A in B's frame: A's axes are the rows of the rotation, its centre -t_b. */
    const int ki = inc_face >> 1, ui = (ki + 1) % 3, vi = (ki + 2) % 3, neg_i = inc_face & 1;
    vec3 ce, eu, ev;
    const float hk = neg_i ? -hi[ki] : hi[ki];
    if (ref_is_a)
    {
        px_v3_mad(t, hk, rot->c[ki], ce);
        px_v3_scale(rot->c[ui], hi[ui], eu);
        px_v3_scale(rot->c[vi], hi[vi], ev);
    }
    else
    {
        vec3 neg_tb, row_k, row_u, row_v;
        px_v3_set(rot->c[0][ki], rot->c[1][ki], rot->c[2][ki], row_k);
        px_v3_set(rot->c[0][ui], rot->c[1][ui], rot->c[2][ui], row_u);
        px_v3_set(rot->c[0][vi], rot->c[1][vi], rot->c[2][vi], row_v);
        px_v3_negate(sat->t_b, neg_tb);
        px_v3_mad(neg_tb, hk, row_k, ce);
        px_v3_scale(row_u, hi[ui], eu);
        px_v3_scale(row_v, hi[vi], ev);
    }
    pxi_clip_vertex buffer[2][PXI_BOX_CLIP_CAPACITY];
    float lo_u = INFINITY, hi_u = -INFINITY, lo_v = INFINITY, hi_v = -INFINITY;
    for (int i = 0; i < 4; ++i)
    {
        pxi_clip_vertex* x = &buffer[0][i];
        px_v3_mad(ce, pxi_box_face_su[neg_i][i], eu, x->p);
        px_v3_mad(x->p, pxi_box_face_sv[neg_i][i], ev, x->p);
        x->feature_i = pxi_feature(PXI_FEATURE_VERTEX, i);
        x->feature_r = pxi_feature(PXI_FEATURE_FACE, 0);
        x->edge_on_ref = 0;
        x->edge_index = (uint8_t)i;
        lo_u = px_minf(lo_u, x->p[ur]);
        hi_u = px_maxf(hi_u, x->p[ur]);
        lo_v = px_minf(lo_v, x->p[vr]);
        hi_v = px_maxf(hi_v, x->p[vr]);
    }
    /* Sutherland-Hodgman against the side planes that some corner is outside of: a plane every corner is
     * inside keeps the polygon as it is (its vertices are convex combinations of the corners). A NaN
     * corner fails every "inside" test, so it is clipped. */
    const bool inside_u = lo_u >= -hr[ur] && hi_u <= hr[ur], inside_v = lo_v >= -hr[vr] && hi_v <= hr[vr];
    const bool in_plus_u = hi_u <= hr[ur], in_minus_u = lo_u >= -hr[ur];
    const bool in_plus_v = hi_v <= hr[vr], in_minus_v = lo_v >= -hr[vr];
    int count = 4, current = 0;
    for (int j = 0; j < 4 && count > 0 && !(inside_u && inside_v); ++j)
    {
        const bool on_v = side_uv[neg_r][j] != 0;
        const float sign = side_sign[neg_r][j];
        if (on_v ? (sign > 0.0f ? in_plus_v : in_minus_v) : (sign > 0.0f ? in_plus_u : in_minus_u))
        {
            continue;
        }
        /* the plane sign * p[axis] = hr[axis]: s = sign * e_axis, written lane by lane (axis_vector) */
        const int axis = on_v ? vr : ur;
        const vec3 s = { axis == 0 ? sign : 0.0f, axis == 1 ? sign : 0.0f, axis == 2 ? sign : 0.0f };
        count = pxi_clip_side(buffer[current], count, s, hr[axis], j, 4, axis, buffer[1 - current],
                              PXI_BOX_CLIP_CAPACITY);
        current = 1 - current;
    }

    /* separations along the reference normal; keep those within the margin (radii included) */
    vec3 pts[PXI_BOX_CLIP_CAPACITY + 1];
    float sep[PXI_BOX_CLIP_CAPACITY + 1];
    int index[PXI_BOX_CLIP_CAPACITY + 1];
    /* in the reference box's frame the reference plane is m_ref . x = hr[kr], m_ref = sr * e_kr being the
     * manifold normal: a point's separation is sr * p[kr] - hr[kr] */
    vec3 m_ref;
    axis_vector(ref_face, m_ref);
    const float radii = ra + rb;
    int kept = pxi_clip_keep(buffer[current], count, m_ref, hr[kr], 1.0f, kr, radii, margin, pts, sep, index,
                             min_core);
    if (kept == 0)
    {
        return false;
    }
    const float min_sep = *min_core - radii;
    /* deep penetration: the contact's own point joins when the clip understates the depth (manifold.c) */
    if (pxi_clip_misses_depth(min_sep, c->distance, margin))
    {
        box_contact_points(bc);
        if (ref_is_a)
        {
            px_v3_mad(c->point_b, rb, c->normal, pts[kept]);
        }
        else
        {
            vec3 w;
            px_v3_mad(c->point_a, -ra, c->normal, w);
            px_v3_sub(w, t, w);
            px_rot_tmulv(rot, w, pts[kept]);
        }
        sep[kept] = c->distance + radii;
        index[kept] = -1;
        ++kept;
    }
    int keep[PX_MANIFOLD_MAX_POINTS] = { 0, 1, 2, 3 };
    int chosen = kept;
    if (kept > PX_MANIFOLD_MAX_POINTS)
    {
        float diagonal = 2.0f * sqrtf(hr[ur] * hr[ur] + hr[vr] * hr[vr]);
        float tie = 0.05f * margin + 1.0e-6f * diagonal;
        chosen = pxi_manifold_reduce((const vec3*)pts, sep, kept, m_ref, kr, tie, keep);
    }

    /* to A's frame: the manifold normal m_a from A to B, and each point on A's surface */
    vec3 m_a;
    if (ref_is_a)
    {
        axis_vector(ref_face, m_a);
        px_v3_copy(m_a, out->normal);
    }
    else
    {
        px_v3_scale(rot->c[kr], sr, m_a);
        px_v3_negate(m_a, out->normal);
    }
    for (int k = 0; k < chosen; ++k)
    {
        int i = keep[k];
        vec3 point_a;
        if (ref_is_a)
        {
            /* the incident point projected along m onto A's face, then out by A's radius */
            px_v3_copy(pts[i], point_a);
            point_a[kr] = pts[i][kr] + (ra - sep[i]) * sr;
        }
        else
        {
            /* the incident point is on A's face: back to A's frame, out by A's radius towards B */
            px_rot_mulv(rot, pts[i], point_a);
            px_v3_add(point_a, t, point_a);
            px_v3_mad(point_a, -ra, m_a, point_a);
        }
        pxi_add_clip_point(out, index[i] >= 0 ? &buffer[current][index[i]] : NULL, ref_is_a, &k_box_topology,
                           ref_face, &k_box_topology, inc_face, point_a, sep[i] - radii);
    }
    return true;
}

/* The name of a box's edge along axis `along` through the corner farthest along d (the box's frame): of
 * the edge's two faces the one with the lower index, and the edge's index in that face. The name does not
 * depend on how the normal leans between the two faces (the face better aligned with it would flip under
 * small motions when the normal bisects them). */
static int box_edge_face(const vec3 d, int along, int* edge)
{
    vec3 s;
    const float one[3] = { 1.0f, 1.0f, 1.0f };
    pxi_box_support(one, d, s);
    int k1 = (along + 1) % 3, k2 = (along + 2) % 3;
    int f1 = 2 * k1 + (s[k1] > 0.0f ? 0 : 1), f2 = 2 * k2 + (s[k2] > 0.0f ? 0 : 1);
    int f = f1 < f2 ? f1 : f2;
    *edge = box_face_edge(f, along, s);
    return f;
}

/* The axis choices over the slots of pxi_box_sat_overlaps: the least overlap and the first axis that has
 * it, and the least biased overlap (pxi_box_sat_biased: the face axes as they are, the edge pairs times
 * (1 + 1e-5) plus edge_bias) and the first axis that has it. False when an overlap is NaN. (A scalar scan:
 * measured faster than a vector minimum and mask search.) */
static bool box_sat_choose(const float o[PXI_BOX_SAT_SLOTS], float edge_bias, float* least, int* least_kind,
                           int* best_kind)
{
    bool finite = true;
    float l = INFINITY, b = INFINITY;
    int lk = 0, bk = 0;
    for (int k = 0; k < 15; ++k)
    {
        float x = o[k + k / 3];
        finite = finite && x == x;
        float biased = k < 6 ? x : x * (1.0f + 1.0e-5f) + edge_bias;
        if (x < l)
        {
            l = x;
            lk = k;
        }
        if (biased < b)
        {
            b = biased;
            bk = k;
        }
    }
    *least = l;
    *least_kind = lk;
    *best_kind = bk;
    return finite;
}

/* True when the supporting edges of the contact's edge axis realize its separation s = -depth along the
 * normal: their closest points cb - ca equal s n within tol. The separating-axis value is a lower bound of
 * the distance and the two points an upper bound, so the edge pair is then exactly the closest features.
 * The contact's points are filled on the way (the closest points are its witness points, as
 * pxi_box_witness computes them).
 *
 * Apart by more than tol, the normal is taken from the closest points rather than the axis. The separation
 * along a direction near the normal falls only with the square of the angle, so the certificate above
 * leaves the axis free by up to sqrt(tol / s): two boxes 0.0045 apart had their edge pair's axis 4e-3 rad
 * off the exact normal (long double), GJK's 1.2e-5 (box_paths_agree at PX_TEST_SEED=323); and the axis, a
 * cross product of the two edges, carries a rounding of eps over the sine of their angle (two boxes 0.0028
 * apart, their edges nearly parallel: 7.9e-4 rad off, GJK's 8.5e-5; PX_TEST_SEED=74). The direction from
 * ca to cb is normal to each edge whose interior holds its point, good to eps C / s; where only one does,
 * rounding tilts it along the edges and the separation falls by an edge's length times the tilt, so that
 * edge's component is removed. */
static bool edge_certified(pxi_box_contact* bc, float tol)
{
    float* n = bc->c.normal;
    vec3 a0, a1, b0, b1, ca, cb, pb, e;
    pxi_box_edge_segments(bc->sat, bc->kind, n, a0, a1, b0, b1);
    pxi_closest_segment_segment(a0, a1, b0, b1, ca, cb);
    px_v3_mad(ca, -bc->depth, n, pb);
    px_v3_sub(cb, pb, e);
    if (!(px_v3_norm2(e) <= tol * tol))
    {
        return false;
    }
    vec3 ea, eb, cross, d, m;
    px_v3_sub(a1, a0, ea);
    px_v3_sub(b1, b0, eb);
    const float ta = px_v3_dot(ea, ca) - px_v3_dot(ea, a0), la = px_v3_norm2(ea);
    const float tb = px_v3_dot(eb, cb) - px_v3_dot(eb, b0), lb = px_v3_norm2(eb);
    /* (within 1e-4 of the length of an end, the closest point is that end: the segment solve rounds the
     * parameter of an end that is the closest feature into the segment) */
    const bool inside_a = ta > 1.0e-4f * la && ta < (1.0f - 1.0e-4f) * la;
    const bool inside_b = tb > 1.0e-4f * lb && tb < (1.0f - 1.0e-4f) * lb;
    px_v3_sub(cb, ca, d);
    const float dist = px_v3_norm(d);
    /* both inside: the axis is the exact normal, but its rounding (eps / sin) beats the points' (eps C / s)
     * only while C sin > s */
    const bool apart = -bc->depth > tol;
    bool points = apart && !(inside_a && inside_b);
    if (apart && !points)
    {
        px_v3_cross(ea, eb, cross);
        float coord = 0.0f;
        for (int k = 0; k < 3; ++k)
        {
            coord = px_maxf(coord, px_maxf(fabsf(ca[k]), fabsf(cb[k])));
        }
        points = coord * coord * px_v3_norm2(cross) < dist * dist * la * lb;
    }
    if (points)
    {
        if (inside_a && !inside_b)
        {
            px_v3_mad(d, -px_v3_dot(d, ea) / la, ea, d);
        }
        else if (inside_b && !inside_a)
        {
            px_v3_mad(d, -px_v3_dot(d, eb) / lb, eb, d);
        }
        /* the points' distance is the separation (the axis' overlap along a direction near a kink of the
         * separation, an edge nearly normal to it, is off by the edge's length times the direction's
         * rounding) */
        if (px_v3_normalize_any(d, m) && pxi_box_overlap(bc->sat, m) <= bc->depth + tol)
        {
            bc->c.distance += bc->depth + dist; /* (-depth - radii, as the caller set it) */
            bc->depth = -dist;
            px_v3_copy(m, n);
            px_v3_mad(ca, dist, n, pb);
        }
    }
    box_contact_from_witness(bc, ca, pb);
    return true;
}

bool pxi_manifold_box_box(const px_shape* a, const px_shape* b, const px_transform* rel, float abs_tolerance,
                          float margin, px_manifold* out)
{
    const float* ha = a->box.half_extents;
    const float* hb = b->box.half_extents;
    const float ra = a->radius, rb = b->radius, radii = ra + rb;
    out->count = 0;
    px_rot rot;
    px_rot_from_quat(rel->q, &rot);
    pxi_box_sat sat;
#if PXI_BOX_SAT_VECTOR
    pxi_box_sat_init_base(ha, hb, &rot, rel->p, &sat); /* the vector overlaps need no R tables */
#else
    pxi_box_sat_init(ha, hb, &rot, rel->p, &sat);
#endif
    /* the touching band exactly as the contact query computes it for this pair (pxi_gjk_pair_init, with
     * pxi_shape_bound's bound of a box) */
    float w_bound = px_v3_norm(ha) + px_v3_norm(hb) + px_v3_norm(rel->p);
    float clear = 2.0f * pxi_gjk_touch_radius(0.0f, w_bound, abs_tolerance);

    /* hot: the 15 axes, all of them. The least overlap decides "apart" (and "clearly overlapping" when it
     * exceeds two touching bands); the least biased one (faces preferred, as contact.c chooses) is the
     * contact axis. */
    float o[PXI_BOX_SAT_SLOTS];
    pxi_box_sat_overlaps(&sat, o);
    float least;
    int least_kind, best_kind;
    if (!box_sat_choose(o, pxi_box_sat_biased(&sat, 6, 0.0f), &least, &least_kind, &best_kind))
    {
        return false; /* NaN (overflowing sizes): the general path reports what it can */
    }
    if (-least - radii > margin)
    {
        /* separated by more than the margin: no points, the separating axis as the normal */
        pxi_box_sat_axis(&sat, least_kind, out->normal);
        if (px_v3_dot(out->normal, rel->p) < 0.0f)
        {
            px_v3_negate(out->normal, out->normal);
        }
        return true;
    }
    /* The contact along the chosen axis, as contact_box_box computes it (depth rechecked along the unit
     * axis). When the cores overlap clearly it is exactly px_contact_world's contact ("exact"). Otherwise
     * (touching, or apart within the margin) the axis only bounds the distance from below, and a pair of
     * surface points at that separation must certify it: a clipped point, or the closest points of the
     * two edges. Without one the general path decides. */
    pxi_box_contact bc;
    bc.sat = &sat;
    bc.kind = best_kind;
    bc.ra = ra;
    bc.rb = rb;
    bc.ready = false;
    float* n = bc.c.normal;
    pxi_box_sat_axis(&sat, best_kind, n);
    bc.depth = pxi_box_overlap(&sat, n);
    const float depth = bc.depth;
    const bool exact = least > clear && depth > clear;
    const float tol = 32.0f * FLT_EPSILON * w_bound;
    if (!exact && best_kind != least_kind)
    {
        /* A face preferred to the least overlap's axis by the bias (1e-6 of the size) can lie further
         * from it than the snap angle: an edge pair's axis and A's face separating two boxes by 0.0013367
         * and 0.0013356 (S 4.5) lay 4.7 degrees apart, and the face's normal 2.8 degrees from the closest
         * points' direction (manifold.h allows 2.6). Apart or touching, such pairs go to the general path,
         * which decides with GJK's normal. (Overlapping, the box contact query makes the same choice.) */
        vec3 least_axis;
        pxi_box_sat_axis(&sat, least_kind, least_axis);
        if (!(fabsf(px_v3_dot(least_axis, n)) >= 1.0f - PXI_FACE_SNAP))
        {
            return false;
        }
    }
    if (px_v3_dot(n, rel->p) < 0.0f)
    {
        px_v3_negate(n, n);
    }
    bc.c.distance = -depth - radii + 0.0f;

    /* reference and incident faces (manifold_polytopes' rules); B's directions in B's frame */
    vec3 neg_n, dir_b;
    px_v3_negate(n, neg_n);
    px_rot_tmulv(&rot, neg_n, dir_b);
    float align_a, align_b;
    int face_a = box_face_for(&bc, true, n, &align_a);
    int face_b = box_face_for(&bc, false, dir_b, &align_b);
    if (face_a < 0 || face_b < 0)
    {
        return false;
    }
    bool ref_is_a = !((1.0f - align_b) < PXI_REFERENCE_REL * (1.0f - align_a) - PXI_REFERENCE_ABS);
    /* Unlike the general path, a face within the snap angle is preferred to one outside it: otherwise the
     * bias towards A could make the manifold of (A, B) a face clip and that of (B, A) an edge point. (The
     * alignments are the cosines the snap test below computes.) */
    const bool snap_a = align_a >= 1.0f - PXI_FACE_SNAP, snap_b = align_b >= 1.0f - PXI_FACE_SNAP;
    ref_is_a = ref_is_a ? (snap_a || !snap_b) : (snap_a && !snap_b);
    int ref_face = ref_is_a ? face_a : face_b;
    vec3 nr; /* the reference face's outward normal, frame A */
    if (ref_is_a)
    {
        axis_vector(ref_face, nr);
    }
    else
    {
        px_v3_scale(rot.c[ref_face >> 1], (ref_face & 1) ? -1.0f : 1.0f, nr);
    }
    /* n_ri . nr: the contact normal from the reference shape to the incident one, against the face */
    float along = px_v3_dot(nr, n) * (ref_is_a ? 1.0f : -1.0f);
    if (along >= 1.0f - PXI_FACE_SNAP)
    {
        vec3 neg_nr, dir_i;
        px_v3_negate(nr, neg_nr);
        float align_i;
        int inc_face;
        /* when the reference normal is the contact normal itself (the contact axis is the reference
         * face's), the incident direction is one already evaluated: reuse that face */
        if (ref_is_a)
        {
            px_rot_tmulv(&rot, neg_nr, dir_i);
            inc_face = px_v3_equal(dir_i, dir_b) ? face_b : box_face_for(&bc, false, dir_i, &align_i);
        }
        else
        {
            inc_face = px_v3_equal(neg_nr, n) ? face_a : box_face_for(&bc, true, neg_nr, &align_i);
        }
        if (inc_face < 0)
        {
            return false;
        }
        float min_core = INFINITY;
        if (!box_clip(&bc, ref_is_a, ref_face, inc_face, margin, out, &min_core))
        {
            if (!exact)
            {
                return false; /* nothing within the margin in the prism: other features may be */
            }
            /* nothing within the margin in the prism: the contact's point, id 0 */
            box_contact_points(&bc);
            out->count = 0;
            px_v3_copy(n, out->normal);
            pxi_add_point(out, bc.c.point_a, bc.c.distance, 0u);
            return true;
        }
        return exact || min_core <= -depth + tol;
    }
    if (best_kind < 6 || !(exact || edge_certified(&bc, tol)))
    {
        return false; /* a face axis away from the faces' normals (not expected), or uncertified edges */
    }
    /* edge against edge: the closest points of the two edges, named by their faces */
    box_contact_points(&bc);
    int ia = (best_kind - 6) / 3, ib = (best_kind - 6) % 3;
    int edge_a, edge_b;
    int fa = box_edge_face(n, ia, &edge_a);
    int fb = box_edge_face(dir_b, ib, &edge_b);
    px_v3_copy(n, out->normal);
    pxi_add_point(out, bc.c.point_a, bc.c.distance,
                  pxi_make_id((unsigned)fa, (unsigned)fb, pxi_feature(PXI_FEATURE_EDGE, edge_a),
                              pxi_feature(PXI_FEATURE_EDGE, edge_b)));
    return true;
}
