/* Closest point to the ORIGIN on a segment, a triangle and a tetrahedron, with barycentric weights and
 * the Voronoi feature (a bit mask of the vertices spanning it).
 *
 * Region tests follow Ericson, Real-Time Collision Detection, 5.1.5 (triangle) and 5.1.6 (tetrahedron)
 * with the query point at the origin, changed where float rounding makes them lie:
 *  - Triangle: Ericson's vertex tests (dot products) are kept; his edge tests (differences of products)
 *    are replaced by the weights of the origin's projection onto the plane, whose normal comes from the
 *    two shortest edges. Outside the face, the nearest of the three edges is taken.
 *  - Face and edge points are computed so that their direction is accurate: the face point is the plane
 *    projection n (n . a) / |n|^2, independent of the ill-conditioned weights of a sliver; the edge point
 *    is re-orthogonalized against its edge (see pxi_edge_point). GJK's next search direction is v, so its
 *    direction matters more than its position.
 *  - Tetrahedron: faces whose side test is within rounding, and every face of a flat tetrahedron, are
 *    evaluated and the nearest taken, which is right whichever way rounding went.
 *
 * The GJK simplex solver calls these directly (the origin is what it needs); the public functions in
 * closest_point.c translate the query point to the origin first. Hot code: keep it branch-light. */
#pragma once

#include "../core/px_math.h"

/* A triangle whose squared normal length is below this fraction of (longest edge)^2 * (second edge)^2
 * is treated as a segment set. */
#define PXI_TRIANGLE_DEGENERATE_REL 1.0e-10f

/* Rounding bound of the side test -p0 . n, as a multiple of FLT_EPSILON * |p0| * |n|. */
#define PXI_SIDE_NOISE (8.0f * FLT_EPSILON)

/* A tetrahedron is flat when a vertex lies within this angle (radians) of the plane of its opposite face,
 * seen from that face's first vertex. */
#define PXI_TETRA_FLAT_REL 1.0e-6f

/* Rounding bound of a candidate's squared distance to the origin, as a multiple of the largest squared
 * vertex norm: a candidate point errs by a few FLT_EPSILON * |v|, and |q|^2 doubles that times |q| <= |v|. */
#define PXI_CANDIDATE_SLACK_REL (16.0f * FLT_EPSILON)

/* The point a + s ab of an edge, corrected to be orthogonal to the edge (denom = |ab|^2).
 *
 * a + s ab carries a rounding error of about eps |a| along ab, which on a long edge close to the origin
 * can dwarf the true distance: GJK's next search direction then leans along the edge and picks the
 * edge's own end points again instead of the vertex that would make progress (a point against a sliver
 * triangle stops 3e-5 away instead of 1e-9). One Gram-Schmidt step removes the component along ab,
 * leaving an error of eps |v| instead. */
static inline void pxi_edge_point(const vec3 a, const vec3 ab, float s, float denom, vec3 dest)
{
    vec3 v;
    px_v3_mad(a, s, ab, v);
    float k = px_v3_dot(v, ab) / denom;
    px_v3_mad(v, -k, ab, dest);
}

/* Closest point of segment ab to the origin. */
static inline uint32_t pxi_closest_origin_segment(const vec3 a, const vec3 b, float bary[2], vec3 dest)
{
    vec3 ab;
    px_v3_sub(b, a, ab);
    float t = -px_v3_dot(a, ab); /* ab . (0 - a) */
    float denom = px_v3_norm2(ab);
    if (t <= 0.0f)
    {
        bary[0] = 1.0f;
        bary[1] = 0.0f;
        px_v3_copy(a, dest);
        return 1u;
    }
    if (t >= denom)
    {
        /* also reached for a == b only when t <= 0 fails, which needs denom > 0 */
        bary[0] = 0.0f;
        bary[1] = 1.0f;
        px_v3_copy(b, dest);
        return 2u;
    }
    float s = t / denom; /* 0 < t < denom, so s is in (0, 1) */
    bary[0] = 1.0f - s;
    bary[1] = s;
    pxi_edge_point(a, ab, s, denom, dest);
    return 3u;
}

/* Whether a candidate answer (feature mask f, squared distance d2) beats the best so far (fb, db).
 *
 * Every answer a kernel returns claims that the nearest point of the hull of its feature lies in that
 * hull's relative interior, and the claim was decided by first-order tests: a segment's projection
 * parameter strictly inside (0, 1), a triangle's projection weights >= 0. So when one answer's feature is
 * a proper subset of the other's, the larger feature is the nearer in exact arithmetic: the smaller one
 * lies on its relative boundary. The squared distances cannot tell them apart near a shared edge or
 * vertex, where they differ only at second order (a face point 0.023 from its edge, 45 from the origin,
 * is nearer by 6e-6, about one float ulp of 45), so the subset relation decides there. It decides only
 * within the distances' rounding, slack: a larger feature whose point is clearly farther is a wrong one
 * (the plane of a sliver) and loses as before. Otherwise the nearer answer wins. */
static inline bool pxi_candidate_wins(uint32_t f, float d2, uint32_t fb, float db, float slack)
{
    if (isnan(db))
    {
        return true; /* a NaN best (from overflowing input) gives way to any candidate */
    }
    if (f != fb && (fb & ~f) == 0u)
    {
        return d2 <= db + slack; /* the best answer's feature is a face of this one's */
    }
    if (f != fb && (f & ~fb) == 0u)
    {
        return d2 + slack < db; /* this answer's feature is a face of the best one's */
    }
    return d2 < db;
}

/* Closest of the edges of a triangle, when the origin does not project into the face. With newest set,
 * edge ab is skipped: only features containing c are candidates. */
static inline uint32_t pxi_closest_origin_triangle_edges(const vec3 a, const vec3 b, const vec3 c, bool newest,
                                                         float bary[3], vec3 dest)
{
    float wab[2] = { 1.0f, 0.0f }, wac[2], wbc[2];
    vec3 pab = { 0.0f, 0.0f, 0.0f }, pac, pbc;
    uint32_t fab = 1u;
    float dab = INFINITY;
    if (!newest)
    {
        fab = pxi_closest_origin_segment(a, b, wab, pab);
        dab = px_v3_norm2(pab);
    }
    uint32_t fac = pxi_closest_origin_segment(a, c, wac, pac);
    uint32_t fbc = pxi_closest_origin_segment(b, c, wbc, pbc);
    float dac = px_v3_norm2(pac), dbc = px_v3_norm2(pbc);
    /* feature masks in the triangle's vertex bits (the b-slot of segment ac is c) */
    uint32_t mac = (fac & 1u) | ((fac & 2u) << 1);
    uint32_t mbc = fbc << 1;
    /* Ties near a shared vertex go to an edge interior (see pxi_candidate_wins): when an edge's end vertex
     * and an interior point of the adjacent edge round to nearly the same distance, the interior point is
     * the true answer, closer by a second-order amount that float cannot see. */
    float m2 = px_maxf(px_v3_norm2(a), px_maxf(px_v3_norm2(b), px_v3_norm2(c)));
    float slack = PXI_CANDIDATE_SLACK_REL * m2;
    int best = 0;
    uint32_t fbest = fab;
    float dbest = dab;
    if (newest || pxi_candidate_wins(mac, dac, fbest, dbest, slack))
    {
        best = 1;
        fbest = mac;
        dbest = dac;
    }
    if (pxi_candidate_wins(mbc, dbc, fbest, dbest, slack))
    {
        best = 2;
    }
    if (best == 0)
    {
        bary[0] = wab[0];
        bary[1] = wab[1];
        bary[2] = 0.0f;
        px_v3_copy(pab, dest);
        return fab; /* bits 1, 2 map to a, b */
    }
    if (best == 1)
    {
        bary[0] = wac[0];
        bary[1] = 0.0f;
        bary[2] = wac[1];
        px_v3_copy(pac, dest);
        return mac;
    }
    bary[0] = 0.0f;
    bary[1] = wbc[0];
    bary[2] = wbc[1];
    px_v3_copy(pbc, dest);
    return mbc;
}

/* Normal of a triangle from its edges ab, ac, bc (bc = ac - ab): ab x ac in exact arithmetic, as are
 * ab x bc and ac x bc, and the cross product of the two shortest edges is taken because it loses the
 * least. Crossing two long edges of a sliver cancels: their product's rounding, eps |ab| |ac|, is then
 * a large part of |n| = |ab| |ac| sin(angle), and the normal's direction is off by eps / sin(angle).
 * lmax and lmid receive the largest and second largest squared edge lengths. */
static inline void pxi_triangle_normal(const vec3 ab, const vec3 ac, const vec3 bc, vec3 n, float* lmax, float* lmid)
{
    float lab = px_v3_norm2(ab), lac = px_v3_norm2(ac), lbc = px_v3_norm2(bc);
    if (lbc >= lab && lbc >= lac)
    {
        px_v3_cross(ab, ac, n);
        *lmax = lbc;
        *lmid = px_maxf(lab, lac);
    }
    else if (lac >= lab)
    {
        px_v3_cross(ab, bc, n);
        *lmax = lac;
        *lmid = px_maxf(lab, lbc);
    }
    else
    {
        px_v3_cross(ac, bc, n);
        *lmax = lab;
        *lmid = px_maxf(lac, lbc);
    }
}

/* Closest point of triangle abc to the origin.
 *
 * Vertex regions first, with Ericson's tests (5.1.5): they are plain dot products, reliable in float.
 * Ericson's edge tests are not: vc = d1 d4 - d3 d2 and its siblings are differences of products that
 * cancel catastrophically on sliver triangles (a 4800 x 0.2 triangle picks the wrong edge and stalls
 * GJK 0.08 away from contact). Instead the origin is projected onto the plane, with the normal taken
 * from the two shortest edges (that cross product loses the least), and its barycentric weights decide:
 * all >= 0 is the face; otherwise the nearest of the three edges, each computed robustly, is the answer.
 * Taking the minimum over all three edges cannot be wrong, whatever rounding did to the weights.
 *
 * With newest set (the GJK step after adding c), only features containing c are candidates: vertex c,
 * edges ac and bc, the face. In exact arithmetic GJK's new closest feature always contains the point it
 * just added (its support plane lies beyond v's), so this is exact, cheaper, and it keeps rounding from
 * choosing an old edge within noise of the new one, which would stall the loop. */
static inline uint32_t pxi_closest_origin_triangle_ex(const vec3 a, const vec3 b, const vec3 c, bool newest,
                                                      float bary[3], vec3 dest, bool* degenerate)
{
    vec3 ab, ac, bc;
    px_v3_sub(b, a, ab);
    px_v3_sub(c, a, ac);
    px_v3_sub(c, b, bc);

    if (!newest)
    {
        float d1 = -px_v3_dot(ab, a);
        float d2 = -px_v3_dot(ac, a);
        if (d1 <= 0.0f && d2 <= 0.0f)
        {
            bary[0] = 1.0f;
            bary[1] = 0.0f;
            bary[2] = 0.0f;
            px_v3_copy(a, dest);
            return 1u;
        }
        float d3 = -px_v3_dot(ab, b);
        float d4 = -px_v3_dot(bc, b);
        if (d3 >= 0.0f && d4 <= 0.0f)
        {
            bary[0] = 0.0f;
            bary[1] = 1.0f;
            bary[2] = 0.0f;
            px_v3_copy(b, dest);
            return 2u;
        }
    }
    float d5 = -px_v3_dot(ac, c);
    float d6 = -px_v3_dot(bc, c);
    if (d5 >= 0.0f && d6 >= 0.0f)
    {
        bary[0] = 0.0f;
        bary[1] = 0.0f;
        bary[2] = 1.0f;
        px_v3_copy(c, dest);
        return 4u;
    }

    vec3 n;
    float lmax, lmid;
    pxi_triangle_normal(ab, ac, bc, n, &lmax, &lmid);
    float nn = px_v3_norm2(n);
    if (!(nn > PXI_TRIANGLE_DEGENERATE_REL * lmax * lmid))
    {
        *degenerate = true; /* collinear or coincident vertices: the edges decide */
    }
    else
    {
        /* Weights of the origin's projection: signed areas of the sub-triangles against n. (b - q) x (c - q)
         * with q on the line of n through the origin has the same n-component as b x c. */
        vec3 t;
        px_v3_cross(b, c, t);
        float wa = px_v3_dot(n, t);
        px_v3_cross(c, a, t);
        float wb = px_v3_dot(n, t);
        px_v3_cross(a, b, t);
        float wc = px_v3_dot(n, t);
        /* the sum is 0 only when the products underflow (a triangle some 1e-10 across): the edges decide */
        if (wa >= 0.0f && wb >= 0.0f && wc >= 0.0f && wa + wb + wc > 0.0f)
        {
            float inv = 1.0f / (wa + wb + wc);
            bary[0] = wa * inv;
            bary[1] = wb * inv;
            bary[2] = wc * inv;
            /* the plane offset from the vertex nearest the origin rounds the least */
            float da = px_v3_norm2(a), db = px_v3_norm2(b), dc = px_v3_norm2(c);
            const float* base = (da <= db && da <= dc) ? a : (db <= dc ? b : c);
            px_v3_scale(n, px_v3_dot(n, base) / nn, dest);
            return 7u;
        }
    }
    return pxi_closest_origin_triangle_edges(a, b, c, newest, bary, dest);
}

/* The origin's projection on the line through a and b, in double: t of a + t (b - a) (NaN for a zero-length
 * segment, without dividing by zero: UBSan's float-divide-by-zero check is on in the sanitizer build). Like
 * pxi_triangle_weights_double, for checks on request, not the hot path. */
static inline double pxi_segment_param_double(const double* a, const double* b)
{
    double e[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    double den = e[0] * e[0] + e[1] * e[1] + e[2] * e[2];
    if (!(den > 0.0))
    {
        return NAN;
    }
    return -(a[0] * e[0] + a[1] * e[1] + a[2] * e[2]) / den;
}

/* Barycentric weights of the origin's projection onto the plane of triangle abc, in double.
 *
 * The float kernels' weights are ratios of areas, n . (b x c) / |n|^2, and each cross product of vertices
 * rounds by eps |b| |c|: the weights err by about eps |v|^2 / |n|, which on a sliver (aspect 200) is 1e-5 and
 * moves a point rebuilt from them by 1e-5 of the triangle's length. In double the same formula errs by
 * 1e-16 |v|^2 / |n|, and the normal from the two edges at a, off by 1e-16 times the aspect ratio, needs no
 * choice of edges. Float inputs cannot overflow or underflow these products in double. False (lam untouched)
 * when the triangle is degenerate even in double. Not for the hot path: it runs on request (public queries
 * that return weights, the final simplex of GJK, a stalled GJK step). */
static inline bool pxi_triangle_weights_double(const double* a, const double* b, const double* c, double lam[3])
{
    double ab[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] };
    double ac[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
    double n[3] = { ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2], ab[0] * ac[1] - ab[1] * ac[0] };
    double nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if (!(nn > 0.0))
    {
        return false;
    }
    const double* v[3] = { a, b, c };
    for (int i = 0; i < 3; ++i)
    {
        const double* p = v[(i + 1) % 3];
        const double* q = v[(i + 2) % 3];
        double t[3] = { p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2], p[0] * q[1] - p[1] * q[0] };
        lam[i] = (n[0] * t[0] + n[1] * t[1] + n[2] * t[2]) / nn;
    }
    return true;
}

/* Weights of a point in a tetrahedron by Cramer's rule, in double: e holds the edges from vertex 0 and r the
 * point minus vertex 0, and lam[1..3] solve r = sum lam[i] e[i - 1], lam[0] = 1 - lam[1] - lam[2] - lam[3].
 * False (lam untouched) when |det| (six times the volume) is not above min_det, or nothing is finite. Not
 * for the hot path: it checks float answers on request (public queries, GJK's double re-solve). */
static inline bool pxi_tetra_weights_double(double e[3][3], const double r[3], double min_det, double lam[4])
{
#define PXI_DET3(x, y, z)                                                                                       \
    ((x)[0] * ((y)[1] * (z)[2] - (y)[2] * (z)[1]) - (x)[1] * ((y)[0] * (z)[2] - (y)[2] * (z)[0]) +            \
     (x)[2] * ((y)[0] * (z)[1] - (y)[1] * (z)[0]))
    double det = PXI_DET3(e[0], e[1], e[2]);
    if (!(fabs(det) > min_det) || !isfinite(det))
    {
        return false;
    }
    double l1 = PXI_DET3(r, e[1], e[2]) / det, l2 = PXI_DET3(e[0], r, e[2]) / det;
    double l3 = PXI_DET3(e[0], e[1], r) / det;
#undef PXI_DET3
    double l0 = 1.0 - l1 - l2 - l3;
    if (!isfinite(l0))
    {
        return false;
    }
    lam[0] = l0;
    lam[1] = l1;
    lam[2] = l2;
    lam[3] = l3;
    return true;
}

/* Closest point of triangle abc to the origin. */
static inline uint32_t pxi_closest_origin_triangle(const vec3 a, const vec3 b, const vec3 c, float bary[3],
                                                   vec3 dest)
{
    bool degenerate = false;
    return pxi_closest_origin_triangle_ex(a, b, c, false, bary, dest, &degenerate);
}

/* Map a triangle-local feature mask (bits 0..2 = vertices i0, i1, i2) to tetrahedron vertex bits. */
static inline uint32_t pxi_remap_feature3(uint32_t f, int i0, int i1, int i2)
{
    return ((f & 1u) << i0) | (((f >> 1) & 1u) << i1) | (((f >> 2) & 1u) << i2);
}

/* Closest point of the solid tetrahedron abcd to the origin (Ericson 5.1.6 with p = 0).
 * Returns 15 and dest = 0 when the origin is inside (or on the boundary of) a non-flat tetrahedron.
 * *flat is set when the tetrahedron is too flat for its side tests; then every face is evaluated.
 * With newest set only the three faces containing d are candidates (see pxi_closest_origin_triangle_ex);
 * the origin is then known to be on d's side of abc. */
/* Side test of face (p0, p1, p2) with opposite vertex po: so is the origin's signed offset and sd the
 * opposite vertex's, both times |n| (their ratio is the origin's barycentric weight of po). near: the
 * origin is within rounding of the plane, so its side is unknown. flat: po is within PXI_TETRA_FLAT_REL
 * radians of the plane, too close for the sign of sd to be trusted. */
static inline void pxi_tetra_side(const float* p0, const float* p1, const float* p2, const float* po, float* so,
                                  float* sd, bool* near, bool* flat)
{
    /* The normal from the face's two shortest edges (pxi_triangle_normal), not from the two edges at p0:
     * a face of a long thin tetrahedron has two long, nearly parallel edges at one vertex, and their cross
     * product's direction rounds so far that the side test's sign flips (a Minkowski simplex 2e5 long
     * and 14 wide, the origin inside, found outside a face by 17 and GJK stopped 5.4 short of contact). */
    vec3 e1, e2, e12, n, eo;
    px_v3_sub(p1, p0, e1);
    px_v3_sub(p2, p0, e2);
    px_v3_sub(p2, p1, e12);
    float lmax, lmid;
    pxi_triangle_normal(e1, e2, e12, n, &lmax, &lmid);
    px_v3_sub(po, p0, eo);
    *so = -px_v3_dot(n, p0);
    *sd = px_v3_dot(n, eo);
    float nn = px_v3_norm2(n);
    *near = *so * *so <= PXI_SIDE_NOISE * PXI_SIDE_NOISE * nn * px_v3_norm2(p0);
    *flat = *sd * *sd <= PXI_TETRA_FLAT_REL * PXI_TETRA_FLAT_REL * nn * px_v3_norm2(eo);
}

/* Nearest point over the faces from `first` on that the origin is (or may be) outside of. Returns false
 * when there is none, that is, when the origin is inside. */
static inline bool pxi_tetra_nearest_face(const float* const* v, const int face[4][4], int first, const float* so,
                                          const float* sd, const bool* near, bool all, bool newest, float bary[4],
                                          vec3 dest, uint32_t* feature)
{
    /* Outside a face when the origin and the opposite vertex are strictly on opposite sides. When no face
     * is clearly outside (only faces within rounding of their plane, or none), the origin is inside within
     * rounding: a near face's triangle can be far from the origin when its projection misses it, so its
     * closest point would be wrong. When some face is clearly outside, the near faces are evaluated with it:
     * the minimum is then right whichever way the rounding went. */
    bool clearly_outside = all;
    for (int f = first; f < 4 && !clearly_outside; ++f)
    {
        clearly_outside = !near[f] && so[f] * sd[f] < 0.0f;
    }
    if (!clearly_outside)
    {
        return false;
    }
    /* The nearest of the candidate faces' answers; near a shared edge the larger feature wins (see
     * pxi_candidate_wins: a face interior over its edge found from the neighbouring face) */
    float m2 = 0.0f;
    for (int i = 0; i < 4; ++i)
    {
        m2 = px_maxf(m2, px_v3_norm2(v[i]));
    }
    float slack = PXI_CANDIDATE_SLACK_REL * m2;
    float best = INFINITY;
    bool any = false;
    for (int f = first; f < 4; ++f)
    {
        if (!(all || near[f] || so[f] * sd[f] < 0.0f))
        {
            continue;
        }
        float w[3];
        vec3 q;
        int i0 = face[f][0], i1 = face[f][1], i2 = face[f][2];
        bool face_degenerate = false;
        uint32_t fl = pxi_closest_origin_triangle_ex(v[i0], v[i1], v[i2], newest, w, q, &face_degenerate);
        uint32_t fm = pxi_remap_feature3(fl, i0, i1, i2);
        float d2 = px_v3_norm2(q);
        if (!any || pxi_candidate_wins(fm, d2, *feature, best, slack))
        {
            best = d2;
            *feature = fm;
            bary[0] = bary[1] = bary[2] = bary[3] = 0.0f;
            bary[i0] = w[0];
            bary[i1] = w[1];
            bary[i2] = w[2];
            px_v3_copy(q, dest);
        }
        any = true;
    }
    return any;
}

static inline uint32_t pxi_closest_origin_tetrahedron_ex(const vec3 a, const vec3 b, const vec3 c, const vec3 d,
                                                         bool newest, float bary[4], vec3 dest, bool* flat)
{
    const float* v[4] = { a, b, c, d };
    /* faces with the opposite vertex last; d is the last vertex of every face that contains it */
    static const int face[4][4] = { { 0, 1, 2, 3 }, { 0, 2, 3, 1 }, { 1, 0, 3, 2 }, { 2, 1, 3, 0 } };

    /* Side tests. With newest set, face abc is not a candidate (the origin is on d's side of it, see
     * above) and its test is only needed for the weights when the origin is inside: it is done last. */
    float so[4], sd[4];
    bool near[4];
    bool is_flat = false;
    for (int f = newest ? 1 : 0; f < 4; ++f)
    {
        bool face_flat;
        pxi_tetra_side(v[face[f][0]], v[face[f][1]], v[face[f][2]], v[face[f][3]], &so[f], &sd[f], &near[f],
                       &face_flat);
        is_flat = is_flat || face_flat;
    }

    uint32_t best_feature = 0;
    bool inside = !pxi_tetra_nearest_face(v, face, newest ? 1 : 0, so, sd, near, is_flat, newest, bary, dest,
                                          &best_feature);
    if (inside && newest)
    {
        bool near0, flat0;
        pxi_tetra_side(a, b, c, d, &so[0], &sd[0], &near0, &flat0);
        if (flat0)
        {
            /* too flat to be sure of "inside" after all: take the nearest of the other faces */
            is_flat = true;
            inside = !pxi_tetra_nearest_face(v, face, 1, so, sd, near, true, newest, bary, dest, &best_feature);
        }
    }
    *flat = is_flat;
    if (inside)
    {
        float sum = 0.0f;
        for (int f = 0; f < 4; ++f)
        {
            float w = so[f] / sd[f]; /* sd != 0: the tetrahedron is not flat */
            w = w > 0.0f ? w : 0.0f;
            bary[face[f][3]] = w;
            sum += w;
        }
        if (sum > 0.0f)
        {
            for (int i = 0; i < 4; ++i)
            {
                bary[i] /= sum;
            }
        }
        else
        {
            bary[0] = bary[1] = bary[2] = bary[3] = 0.25f;
        }
        px_v3_zero(dest);
        return 15u;
    }
    return best_feature;
}

/* Closest point of the solid tetrahedron abcd to the origin. */
static inline uint32_t pxi_closest_origin_tetrahedron(const vec3 a, const vec3 b, const vec3 c, const vec3 d,
                                                      float bary[4], vec3 dest, bool* flat)
{
    return pxi_closest_origin_tetrahedron_ex(a, b, c, d, false, bary, dest, flat);
}
