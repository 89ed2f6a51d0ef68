/* Exact penetration depth of two small built hulls, or a box and a hull, by their separating axes
 * (hull_sat.h). A box takes part as a hull of 8 vertices, 6 faces and 12 edges, its compact copy written per
 * query.
 *
 * Everything is in A's frame. One query:
 *   1. Bounding spheres about the centroids that do not meet, or the centres' direction separating the
 *      hulls, end the query (a pair queried without a cache may well be apart). B's vertices and face
 *      planes are posed in A's frame; both hulls' face planes are laid out four to a group (normals and
 *      offsets as separate x, y, z, w arrays).
 *   2. Face axes: for each face of either hull, the other hull's lowest vertex below its plane (the
 *      separation) and which vertex that is. Four faces at a time against one vertex at a time, so no
 *      horizontal reduction is needed. A face with no vertex of the other hull below it by more than
 *      min_overlap ends the query.
 *   3. Edge axes. An edge's Gauss-map arc (between the normals of its two faces) is the set of directions
 *      along which that edge supports its hull, so along any of them the overlap is at least the edge's
 *      vertex against the other hull's vertices found in step 2 (edges_below, from step 2's products).
 *      Edges whose bound exceeds the best face's overlap cannot give the minimum and are dropped: on the
 *      benchmark's pairs most are. The rest are paired, each edge of A against four of B at a time, by the Gauss-map test,
 *      and only the pairs that pass get a cross product, a square root and a separation.
 *   4. The best face of either hull and the best edge pair are measured again over all vertices of both,
 *      and the smallest overlap wins: the depth returned is the overlap of the hulls along the normal
 *      returned, an upper bound of the true depth whatever the rounding, and equal to it when the axes were
 *      judged right (an edge pair whose overlap over all vertices differs from its edges' is left to EPA).
 *   5. The witness: a point of the contact region (witness()).
 *
 * Which hulls take part (hull.c builds the compact copy only for them): solids of up to
 * PXI_HULL_SAT_MAX_VERTICES vertices whose faces are planes (none merged within the build tolerance: such a
 * face's normal is no facet normal of the vertices' hull) and whose edges' two faces are not nearly back to
 * back (a thin rim's Gauss-map arc is ill-conditioned). The face offsets are the builder's supporting planes;
 * each edge's Gauss-map arc lies in the plane perpendicular to the edge, which the edge's own direction gives
 * exactly; the edge pairs' axes are formed in double. Against the exact long-double oracle the depth is
 * within a few float roundings of the posed coordinates (tests/test_hull_sat.c). */
#include "hull_sat.h"

#include "../shapes/hull_internal.h"
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#define PXI_SAT_SSE 1
#include <emmintrin.h>
#endif

#define CAP_V PXI_HULL_SAT_MAX_VERTICES
#define CAP_F (2 * CAP_V) /* a solid's faces: at most 2 V - 4 */
#define CAP_E (3 * CAP_V) /* its edges: at most 3 V - 6 */

/* Edge pairs whose unit cross product is shorter than this (squared) are parallel: their direction is a
 * face axis of either hull, and the cross product's rounding would swamp it. */
#define SAT_PARALLEL 1.0e-10f

static int round4(int n)
{
    return (n + 3) & ~3;
}

/* Vertices of one hull in A's frame, as separate coordinate arrays (A's: its compact copy; B's: posed). */
typedef struct sat_points
{
    const float *x, *y, *z;
    int count;
} sat_points;

/* Face planes of one hull in A's frame, count rounded up to four; the padding planes have normal 0 and
 * offset +inf, so no point lies below them (separation -inf). */
typedef struct sat_faces
{
    const float *x, *y, *z, *w;
    int count;
} sat_faces;

/* B's edges for the Gauss-map test: c and d the negated normals of the edge's two faces, e = d x c; padded
 * to a multiple of four with zeros (which never pass the test's strict inequalities). */
typedef struct sat_edges
{
    float cx[CAP_E], cy[CAP_E], cz[CAP_E];
    float dx[CAP_E], dy[CAP_E], dz[CAP_E];
    float ex[CAP_E], ey[CAP_E], ez[CAP_E];
    int count;
} sat_edges;

/* What the test reads of a shape: a built hull's compact copy (hull_internal.h), or a box's, made per
 * query in the same layout. */
typedef struct sat_source
{
    const float* sat;
    int sat_bytes;
    int vertex_count, face_count, edge_count;
    float extent;
    const float* centroid;
} sat_source;

/* A built hull the test can take, or NULL: a small solid (with its compact copy) whose shape uses exactly
 * the built vertices. */
static const struct px_hull* sat_hull(const px_shape* s)
{
    if (s->type != PX_SHAPE_HULL)
    {
        return NULL;
    }
    const struct px_hull* h = s->hull.built;
    if (h == NULL || h->sat == NULL || s->hull.points != h->vertices || s->hull.count != h->vertex_count)
    {
        return NULL;
    }
    return h;
}

/* The box's edges in the compact layout: vertex i is (+-h0, +-h1, +-h2) with bit k of i set for +h_k; face
 * 2 k is +e_k and 2 k + 1 is -e_k; each edge's two vertices i, j, then its two faces, the first the one
 * whose loop runs i -> j counter-clockwise seen from outside (as in a built hull's copy). */
static const uint8_t box_edges[48] = { 0, 1, 3, 5, 4, 5, 4, 3, 2, 3, 5, 2, 6, 7, 2, 4, 0, 2, 5, 1, 4, 6, 1, 4,
                                       1, 3, 0, 5, 5, 7, 4, 0, 0, 4, 1, 3, 2, 6, 2, 1, 1, 5, 3, 0, 3, 7, 0, 2 };
static const float box_origin[3] = { 0.0f, 0.0f, 0.0f };

/* Floats of a box's compact copy: 8 vertices, 6 planes padded to 8, and the 48 bytes of its edges. */
#define SAT_BOX_FLOATS (3 * 8 + 4 * 8 + 12)

/* The shape's source: a small built hull's copy, or a box's written into box_store. False for other shapes. */
static bool sat_source_of(const px_shape* s, float* box_store, sat_source* out)
{
    if (s->type == PX_SHAPE_BOX)
    {
        const float* h = s->box.half_extents;
        for (int i = 0; i < 8; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                box_store[8 * k + i] = (i >> k) & 1 ? h[k] : -h[k];
            }
        }
        float* planes = box_store + 24;
        for (int f = 0; f < 8; ++f)
        {
            for (int k = 0; k < 3; ++k)
            {
                planes[8 * k + f] = f < 6 && f / 2 == k ? (f % 2 ? -1.0f : 1.0f) : 0.0f;
            }
            planes[24 + f] = f < 6 ? h[f / 2] : INFINITY;
        }
        memcpy(planes + 32, box_edges, sizeof(box_edges));
        out->sat = box_store;
        out->sat_bytes = (int)sizeof(float) * SAT_BOX_FLOATS;
        out->vertex_count = 8;
        out->face_count = 6;
        out->edge_count = 12;
        out->extent = px_v3_norm(h);
        out->centroid = box_origin;
        return true;
    }
    const struct px_hull* hull = sat_hull(s);
    if (hull == NULL)
    {
        return false;
    }
    out->sat = hull->sat;
    out->sat_bytes = hull->sat_bytes;
    out->vertex_count = hull->vertex_count;
    out->face_count = hull->face_count;
    out->edge_count = hull->edge_count;
    out->extent = hull->extent;
    out->centroid = hull->centroid;
    return true;
}

/* Edges of a shape the test can take, or -1. */
static int sat_edge_count(const px_shape* s)
{
    if (s->type == PX_SHAPE_BOX)
    {
        return 12;
    }
    const struct px_hull* h = sat_hull(s);
    return h != NULL ? h->edge_count : -1;
}

bool pxi_hull_sat_applies(const pxi_gjk_pair* pair)
{
    if (pair->a->type == PX_SHAPE_BOX && pair->b->type == PX_SHAPE_BOX)
    {
        return false; /* two boxes have their own closed form (box_sat.h) */
    }
    int ea = sat_edge_count(pair->a), eb = sat_edge_count(pair->b);
    return ea >= 0 && eb >= 0 && ea * eb <= PXI_HULL_SAT_MAX_EDGE_PAIRS;
}

/* Ask for every cache line of a hull's compact copy (a hint; no effect on results). */
static void prefetch_copy(const sat_source* h)
{
#if defined(__GNUC__) || defined(__clang__)
    for (int off = 0; off < h->sat_bytes; off += 64)
    {
        __builtin_prefetch((const char*)(const void*)h->sat + off);
    }
#else
    (void)h;
#endif
}

/* The edges of a hull's compact copy: 4 bytes each, its two vertices and its two faces. */
static const uint8_t* copy_edges(const sat_source* h)
{
    return (const uint8_t*)(const void*)(h->sat + 3 * round4(h->vertex_count) + 4 * round4(h->face_count));
}

/* A's vertices and planes: its compact copy as it is. */
static void view_a(const sat_source* h, sat_points* p, sat_faces* f)
{
    const int vs = round4(h->vertex_count), fs = round4(h->face_count);
    p->x = h->sat;
    p->y = h->sat + vs;
    p->z = h->sat + 2 * vs;
    p->count = h->vertex_count;
    f->x = h->sat + 3 * vs;
    f->y = f->x + fs;
    f->z = f->x + 2 * fs;
    f->w = f->x + 3 * fs;
    f->count = fs;
}

/* B's vertices and planes posed in A's frame, into store (3 CAP_V + 4 CAP_F floats). */
static void view_b(const sat_source* h, const pxi_gjk_pair* pair, float* store, sat_points* p, sat_faces* f)
{
    const int vs = round4(h->vertex_count), fs = round4(h->face_count);
    const float* src = h->sat;
    float* x = store;
    float* y = store + CAP_V;
    float* z = store + 2 * CAP_V;
    for (int i = 0; i < h->vertex_count; ++i)
    {
        vec3 v = { src[i], src[vs + i], src[2 * vs + i] };
        pxi_point_from_b(pair, v, v);
        x[i] = v[0];
        y[i] = v[1];
        z[i] = v[2];
    }
    p->x = x;
    p->y = y;
    p->z = z;
    p->count = h->vertex_count;
    const float* pl = src + 3 * vs;
    float* nx = store + 3 * CAP_V;
    float* ny = nx + CAP_F;
    float* nz = nx + 2 * CAP_F;
    float* w = nx + 3 * CAP_F;
    for (int i = 0; i < fs; ++i)
    {
        vec3 n = { pl[i], pl[fs + i], pl[2 * fs + i] };
        if (pair->b_rotated)
        {
            px_rot_mulv(&pair->rot_b, n, n);
        }
        nx[i] = n[0];
        ny[i] = n[1];
        nz[i] = n[2];
        w[i] = pl[3 * fs + i] + px_v3_dot(n, pair->pos_b); /* +inf stays +inf on the padding */
    }
    f->x = nx;
    f->y = ny;
    f->z = nz;
    f->w = w;
    f->count = fs;
}

static void point_of(const sat_points* p, int i, vec3 dest)
{
    px_v3_set(p->x[i], p->y[i], p->z[i], dest);
}

/* ------------------------------------------------------------------------------------------------ */
/* Face axes                                                                                         */

/* The separation of the points p below each face of f, sep[k] = (min over p of n . p) - w, the point
 * attaining the minimum (low[k], the first on ties), and the face with the largest separation (the first on
 * ties; -1 and -inf for no face). Every product n_k . p_j is kept too, in dots (face_dot() reads it). Stops
 * early, with the rest unset, once a face's separation reaches `stop`. */
static float face_queries(const sat_faces* f, const sat_points* p, float stop, float* sep, int* low, float* dots,
                          int* best_face)
{
#if PXI_SAT_SSE
    /* each point's coordinates and index broadcast once, for every group of faces */
    __m128 px[CAP_V], py[CAP_V], pz[CAP_V];
    __m128i pj[CAP_V];
    for (int j = 0; j < p->count; ++j)
    {
        px[j] = _mm_set1_ps(p->x[j]);
        py[j] = _mm_set1_ps(p->y[j]);
        pz[j] = _mm_set1_ps(p->z[j]);
        pj[j] = _mm_set1_epi32(j);
    }
    /* the best face so far per lane, kept without branches (which way a comparison of separations goes is
     * data, and mispredicted on every new pair): lane l holds the best of faces l, l + 4, ... seen so far */
    __m128 best4 = _mm_set1_ps(-INFINITY);
    __m128i face4 = _mm_set1_epi32(-1);
    const __m128 stop4 = _mm_set1_ps(stop);
    __m128i group = _mm_setr_epi32(0, 1, 2, 3);
    for (int g = 0; g < f->count; g += 4)
    {
        __m128 nx = _mm_loadu_ps(f->x + g), ny = _mm_loadu_ps(f->y + g), nz = _mm_loadu_ps(f->z + g);
        __m128 m = _mm_set1_ps(INFINITY);
        __m128i at = _mm_setzero_si128();
        for (int j = 0; j < p->count; ++j)
        {
            __m128 d = _mm_add_ps(_mm_add_ps(_mm_mul_ps(nx, px[j]), _mm_mul_ps(ny, py[j])), _mm_mul_ps(nz, pz[j]));
            _mm_storeu_ps(dots + 4 * (g / 4 * p->count + j), d);
            __m128i lower = _mm_castps_si128(_mm_cmplt_ps(d, m));
            at = _mm_or_si128(_mm_and_si128(lower, pj[j]), _mm_andnot_si128(lower, at));
            m = _mm_min_ps(m, d);
        }
        __m128 s4 = _mm_sub_ps(m, _mm_loadu_ps(f->w + g));
        _mm_storeu_ps(sep + g, s4);
        _mm_storeu_si128((__m128i*)(void*)(low + g), at);
        /* strictly greater: a lane keeps its first face on ties, and a NaN separation never wins */
        __m128i up = _mm_castps_si128(_mm_cmpgt_ps(s4, best4));
        best4 = _mm_max_ps(s4, best4); /* best4 when s4 is NaN, as up is then clear */
        face4 = _mm_or_si128(_mm_and_si128(up, group), _mm_andnot_si128(up, face4));
        group = _mm_add_epi32(group, _mm_set1_epi32(4));
        if (_mm_movemask_ps(_mm_cmpnlt_ps(best4, stop4)) != 0)
        {
            break; /* a face the points do not sink below by more than -stop: the query ends */
        }
    }
    /* the largest over the lanes, the lowest face on ties (the faces' order, as a scalar scan would have) */
    float bs[4];
    int bi[4];
    _mm_storeu_ps(bs, best4);
    _mm_storeu_si128((__m128i*)(void*)bi, face4);
    float best = bs[0];
    int bf = bi[0];
    for (int l = 1; l < 4; ++l)
    {
        bool take = bs[l] > best || (bs[l] == best && bi[l] >= 0 && (bf < 0 || bi[l] < bf));
        best = take ? bs[l] : best;
        bf = take ? bi[l] : bf;
    }
    *best_face = bf;
    return best;
#else
    float best = -INFINITY;
    int bf = -1;
    for (int g = 0; g < f->count; g += 4)
    {
        for (int l = 0; l < 4; ++l)
        {
            float m = INFINITY;
            int at = 0;
            for (int j = 0; j < p->count; ++j)
            {
                float d = (f->x[g + l] * p->x[j] + f->y[g + l] * p->y[j]) + f->z[g + l] * p->z[j];
                dots[4 * (g / 4 * p->count + j) + l] = d;
                if (d < m)
                {
                    m = d;
                    at = j;
                }
            }
            sep[g + l] = m - f->w[g + l];
            low[g + l] = at;
        }
        for (int l = 0; l < 4; ++l)
        {
            if (sep[g + l] > best)
            {
                best = sep[g + l];
                bf = g + l;
            }
        }
        if (!(best < stop))
        {
            break; /* a face the points do not sink below by more than -stop: the query ends */
        }
    }
    *best_face = bf;
    return best;
#endif
}

/* ------------------------------------------------------------------------------------------------ */
/* Edge axes                                                                                         */

/* v scaled to unit length; zero stays zero (a box's edge of zero length: its pairs never pass the test). */
static void unit_or_zero(vec3 v)
{
    /* by the largest component first: the squares of an edge some 1e-20 long underflow */
    float m = px_maxf(fabsf(v[0]), px_maxf(fabsf(v[1]), fabsf(v[2])));
    if (m > 0.0f)
    {
        px_v3_scale(v, 1.0f / m, v);
        px_v3_scale(v, 1.0f / px_v3_norm(v), v);
    }
}

/* n_f . p_v as face_queries() computed it, for face f of the faces and point v of the `count` points it was
 * given. */
static float face_dot(const float* dots, int count, int f, int v)
{
    return dots[4 * ((f >> 2) * count + v) + (f & 3)];
}

/* The edges of a hull that may beat an overlap of `bound`, their indices in index[] in increasing order;
 * returns their count.
 *
 * The test is a lower bound of the overlap along every direction of the edge's Gauss-map arc, the
 * directions between its faces' normals a and b (oriented from A to B). Along such a direction n the
 * edge's vertex p supports its hull (its normal cone is the arc) and the other hull reaches at least as far
 * as any of its vertices q, so the overlap is at least n . (p - q) up to sign: linear in n, so where
 * positive its minimum over the arc is at an end (n = alpha a + beta b has alpha + beta >= 1). With q_a and
 * q_b the other hull's vertices deepest below the two faces (face_queries' minimizers) the bound is
 *     max(min(a . (p - q_a), b . (p - q_a)), min(a . (p - q_b), b . (p - q_b))),
 * the same with both normals negated (B's edges). Each product is a face's offset (for n . p: p lies on
 * both faces) less a product face_queries already formed (dots), so the test is a few loads and
 * comparisons per edge. The offsets are the planes' (the vertices' support rounded up, posed with B), a
 * few roundings above n . p: the bound errs high by that much, which the caller's margin (64 roundings)
 * covers. Without branches on the test: which edges pass is data, and mispredicted on every new pair. */
static int edges_below(const sat_source* h, const sat_faces* f, const float* sep, const int* low,
                       const float* dots, int other_count, float bound, int* index)
{
    const uint8_t* edges = copy_edges(h);
    int k = 0;
    for (int i = 0; i < h->edge_count; ++i)
    {
        const int f0 = edges[4 * i + 2], f1 = edges[4 * i + 3];
        const int q0 = low[f0], q1 = low[f1];
        /* a . (p - q_a) = w_a - (sep_a + w_a) = -sep_a, and likewise along b for q_b */
        const float at_a = px_minf(-sep[f0], f->w[f1] - face_dot(dots, other_count, f1, q0));
        const float at_b = px_minf(f->w[f0] - face_dot(dots, other_count, f0, q1), -sep[f1]);
        index[k] = i;
        k += px_maxf(at_a, at_b) > bound ? 0 : 1;
    }
    return k;
}

/* The unit direction of the plane of edge i's Gauss-map arc: n1 x n0 points along p_j -> p_i (face f0's
 * loop runs i -> j, counter-clockwise seen from outside); the edge gives that direction exactly, where the
 * cross product would carry the rounding of two normals nearly parallel to each other, and unit it neither
 * underflows nor overflows in the test's products. */
static void edge_plane(const uint8_t* edges, const sat_points* own, int i, vec3 plane)
{
    vec3 p, q;
    point_of(own, edges[4 * i], p);
    point_of(own, edges[4 * i + 1], q);
    px_v3_sub(p, q, plane);
    unit_or_zero(plane);
}

/* A's edges that may beat an overlap of `bound`: the normals a, b of each one's faces, the direction of
 * b x a, and the edge's index. low_a[f] is B's vertex deepest below A's face f. */
typedef struct sat_edges_a
{
    vec3 a[CAP_E], b[CAP_E], bxa[CAP_E];
    int index[CAP_E];
    int count;
} sat_edges_a;

static void edges_a_below(const sat_source* h, const sat_faces* fa, const sat_points* pa, const float* sep_a,
                          const int* low_a, const float* dots_a, const sat_points* pb, float bound, sat_edges_a* e)
{
    e->count = edges_below(h, fa, sep_a, low_a, dots_a, pb->count, bound, e->index);
    const uint8_t* edges = copy_edges(h);
    for (int k = 0; k < e->count; ++k)
    {
        int i = e->index[k];
        int f0 = edges[4 * i + 2], f1 = edges[4 * i + 3];
        px_v3_set(fa->x[f0], fa->y[f0], fa->z[f0], e->a[k]);
        px_v3_set(fa->x[f1], fa->y[f1], fa->z[f1], e->b[k]);
        edge_plane(edges, pa, i, e->bxa[k]);
    }
}

/* B's edges that may beat an overlap of `bound`, for the Gauss-map test four at a time: c and d the negated
 * normals of the edge's faces, e along d x c (the zeros padding the last group never pass the test's strict
 * inequalities). low_b[g] is A's vertex deepest below B's face g. */
static void edges_b_below(const sat_source* h, const sat_faces* fb, const sat_points* pb, const float* sep_b,
                          const int* low_b, const float* dots_b, const sat_points* pa, float bound, sat_edges* e,
                          int* index)
{
    int count = edges_below(h, fb, sep_b, low_b, dots_b, pa->count, bound, index);
    const uint8_t* edges = copy_edges(h);
    int k = 0;
    for (; k < count; ++k)
    {
        int i = index[k];
        int f0 = edges[4 * i + 2], f1 = edges[4 * i + 3];
        vec3 x;
        edge_plane(edges, pb, i, x);
        e->cx[k] = -fb->x[f0];
        e->cy[k] = -fb->y[f0];
        e->cz[k] = -fb->z[f0];
        e->dx[k] = -fb->x[f1];
        e->dy[k] = -fb->y[f1];
        e->dz[k] = -fb->z[f1];
        e->ex[k] = x[0];
        e->ey[k] = x[1];
        e->ez[k] = x[2];
    }
    e->count = count;
    for (; k < round4(count); ++k)
    {
        e->cx[k] = e->cy[k] = e->cz[k] = e->dx[k] = e->dy[k] = e->dz[k] = e->ex[k] = e->ey[k] = e->ez[k] = 0.0f;
    }
}

/* Bit l set when B's edge g + l passes the Gauss-map test against A's edge (a, b, bxa = b x a). */
static unsigned gauss_mask(const sat_edges* e, int g, const vec3 a, const vec3 b, const vec3 bxa)
{
#if PXI_SAT_SSE
    const __m128 zero = _mm_setzero_ps();
    __m128 cx = _mm_loadu_ps(e->cx + g), cy = _mm_loadu_ps(e->cy + g), cz = _mm_loadu_ps(e->cz + g);
    __m128 dx = _mm_loadu_ps(e->dx + g), dy = _mm_loadu_ps(e->dy + g), dz = _mm_loadu_ps(e->dz + g);
    __m128 ex = _mm_loadu_ps(e->ex + g), ey = _mm_loadu_ps(e->ey + g), ez = _mm_loadu_ps(e->ez + g);
    __m128 ux = _mm_set1_ps(bxa[0]), uy = _mm_set1_ps(bxa[1]), uz = _mm_set1_ps(bxa[2]);
    __m128 cba = _mm_add_ps(_mm_add_ps(_mm_mul_ps(cx, ux), _mm_mul_ps(cy, uy)), _mm_mul_ps(cz, uz));
    __m128 dba = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, ux), _mm_mul_ps(dy, uy)), _mm_mul_ps(dz, uz));
    __m128 adc = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ex, _mm_set1_ps(a[0])), _mm_mul_ps(ey, _mm_set1_ps(a[1]))),
                            _mm_mul_ps(ez, _mm_set1_ps(a[2])));
    __m128 bdc = _mm_add_ps(_mm_add_ps(_mm_mul_ps(ex, _mm_set1_ps(b[0])), _mm_mul_ps(ey, _mm_set1_ps(b[1]))),
                            _mm_mul_ps(ez, _mm_set1_ps(b[2])));
    __m128 ok = _mm_and_ps(_mm_cmplt_ps(_mm_mul_ps(cba, dba), zero), _mm_cmplt_ps(_mm_mul_ps(adc, bdc), zero));
    ok = _mm_and_ps(ok, _mm_cmpgt_ps(_mm_mul_ps(cba, bdc), zero));
    return (unsigned)_mm_movemask_ps(ok);
#else
    unsigned mask = 0;
    for (int l = 0; l < 4; ++l)
    {
        int i = g + l;
        float cba = (e->cx[i] * bxa[0] + e->cy[i] * bxa[1]) + e->cz[i] * bxa[2];
        float dba = (e->dx[i] * bxa[0] + e->dy[i] * bxa[1]) + e->dz[i] * bxa[2];
        float adc = (e->ex[i] * a[0] + e->ey[i] * a[1]) + e->ez[i] * a[2];
        float bdc = (e->ex[i] * b[0] + e->ey[i] * b[1]) + e->ez[i] * b[2];
        if (cba * dba < 0.0f && adc * bdc < 0.0f && cba * bdc > 0.0f)
        {
            mask |= 1u << l;
        }
    }
    return mask;
#endif
}

typedef struct sat_edge_best
{
    float s;  /* separation (negative: overlap); -inf for none */
    int a, b; /* the edges (hull indices) */
    vec3 n;   /* unit axis, outward from A */
} sat_edge_best;

/* Separation along the edge pair's axis, or false for parallel edges. In double: the edges' differences
 * are exact there, so the axis keeps its direction even for edges a few degrees from parallel (in float its
 * error grows as the rounding over the sine of their angle), and no product overflows at any scale. */
static bool edge_separation(const vec3 pa, const vec3 ea, const vec3 pb, const vec3 eb, const float* centroid_a,
                            vec3 n, float* s)
{
    double a[3] = { ea[0], ea[1], ea[2] }, b[3] = { eb[0], eb[1], eb[2] };
    double x[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    double l2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    double aa = a[0] * a[0] + a[1] * a[1] + a[2] * a[2], bb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    if (!(l2 > (double)SAT_PARALLEL * aa * bb))
    {
        return false;
    }
    double inv = 1.0 / sqrt(l2);
    double r[3], t = 0.0, u = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        x[k] *= inv;
        r[k] = (double)pb[k] - (double)pa[k];
        t += x[k] * ((double)pa[k] - (double)centroid_a[k]);
    }
    double sign = t < 0.0 ? -1.0 : 1.0; /* outward from A */
    for (int k = 0; k < 3; ++k)
    {
        x[k] *= sign;
        u += x[k] * r[k];
        n[k] = (float)x[k];
    }
    *s = (float)u;
    return true;
}

/* Largest separation over the Minkowski-face edge pairs of the two lists. */
static void edge_queries(const sat_source* ha, const sat_edges_a* ea, const sat_points* pa,
                         const sat_source* hb, const sat_edges* eb, const int* index_b, const sat_points* pb,
                         sat_edge_best* best)
{
    best->s = -INFINITY;
    best->a = best->b = -1;
    px_v3_zero(best->n);
    const uint8_t* edges_a = copy_edges(ha);
    const uint8_t* edges_b = copy_edges(hb);
    for (int k = 0; k < ea->count; ++k)
    {
        int i = ea->index[k];
        vec3 a0, a1, e_a;
        point_of(pa, edges_a[4 * i], a0);
        point_of(pa, edges_a[4 * i + 1], a1);
        px_v3_sub(a1, a0, e_a);
        for (int g = 0; g < eb->count; g += 4)
        {
            unsigned mask = gauss_mask(eb, g, ea->a[k], ea->b[k], ea->bxa[k]);
            while (mask != 0u)
            {
                int l = __builtin_ctz(mask);
                mask &= mask - 1u;
                int j = index_b[g + l];
                vec3 b0, b1, e_b, n;
                point_of(pb, edges_b[4 * j], b0);
                point_of(pb, edges_b[4 * j + 1], b1);
                px_v3_sub(b1, b0, e_b);
                float s;
                if (edge_separation(a0, e_a, b0, e_b, ha->centroid, n, &s) && s > best->s)
                {
                    best->s = s;
                    best->a = i;
                    best->b = j;
                    px_v3_copy(n, best->n);
                }
            }
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Witness points                                                                                    */

/* How far x lies outside the planes of f (the largest excess; <= 0 inside), or any value above `enough` once
 * it is known to exceed it. */
static float outside_planes(const sat_faces* f, const vec3 x, float enough)
{
    float worst = -INFINITY;
    for (int i = 0; i < f->count && worst <= enough; ++i)
    {
        float e = (f->x[i] * x[0] + f->y[i] * x[1]) + f->z[i] * x[2] - f->w[i];
        worst = e > worst ? e : worst;
    }
    return worst;
}

/* The witness search's state: the best candidate so far and how far outside it lies. */
typedef struct sat_witness
{
    vec3 point_a;
    float excess;
} sat_witness;

static void witness_offer(sat_witness* w, const vec3 x, float excess)
{
    if (excess < w->excess)
    {
        w->excess = excess;
        px_v3_copy(x, w->point_a);
    }
}

/* B's low vertices lifted by depth, against A's planes. */
static void witness_low_b(const sat_points* pb, const bool* low_b, const sat_faces* fa, const vec3 n, float depth,
                          float accept, sat_witness* w)
{
    for (int i = 0; i < pb->count && w->excess > accept; ++i)
    {
        if (low_b[i])
        {
            vec3 x;
            point_of(pb, i, x);
            px_v3_mad(x, depth, n, x);
            witness_offer(w, x, outside_planes(fa, x, w->excess));
        }
    }
}

/* A's top vertices, the point depth below each against B's planes. */
static void witness_top_a(const sat_points* pa, const bool* top_a, const sat_faces* fb, const vec3 n, float depth,
                          float accept, sat_witness* w)
{
    for (int i = 0; i < pa->count && w->excess > accept; ++i)
    {
        if (top_a[i])
        {
            vec3 x, y;
            point_of(pa, i, x);
            px_v3_mad(x, -depth, n, y);
            witness_offer(w, x, outside_planes(fb, y, w->excess));
        }
    }
}

/* The closest points of A's edge i and B's edge j, x on A's edge against A's top and the point depth below
 * it against B's planes. */
/* The point of segment p1-q1 closest to segment p2-q2, in double (Ericson, RTCD 5.1.9): the crossing of two
 * nearly parallel edges, and edges far from unit length, keep their digits. */
static void closest_on_first_segment(const vec3 p1, const vec3 q1, const vec3 p2, const vec3 q2, vec3 dest)
{
    double d1[3], d2[3], r[3];
    for (int k = 0; k < 3; ++k)
    {
        d1[k] = (double)q1[k] - (double)p1[k];
        d2[k] = (double)q2[k] - (double)p2[k];
        r[k] = (double)p1[k] - (double)p2[k];
    }
    double a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
    double e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
    double f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2];
    double c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2];
    double b = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2];
    double s = 0.0, t;
    if (!(a > 0.0))
    {
        s = 0.0;
    }
    else if (!(e > 0.0))
    {
        s = c < 0.0 ? (-c < a ? -c / a : 1.0) : 0.0;
    }
    else
    {
        double denom = a * e - b * b;
        s = denom > 0.0 ? (b * f - c * e) / denom : 0.0;
        s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
        t = (b * s + f) / e;
        if (t < 0.0)
        {
            s = -c < 0.0 ? 0.0 : (-c > a ? 1.0 : -c / a);
        }
        else if (t > 1.0)
        {
            s = b - c < 0.0 ? 0.0 : (b - c > a ? 1.0 : (b - c) / a);
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        dest[k] = (float)((double)p1[k] + s * d1[k]);
    }
}

static void witness_edge_pair(const uint8_t* edges_a, const sat_points* pa, int i, const uint8_t* edges_b,
                              const sat_points* pb, int j, const sat_faces* fb, const vec3 n, float depth, float top,
                              sat_witness* w)
{
    vec3 a0, a1, b0, b1, x, y;
    point_of(pa, edges_a[4 * i], a0);
    point_of(pa, edges_a[4 * i + 1], a1);
    point_of(pb, edges_b[4 * j], b0);
    point_of(pb, edges_b[4 * j + 1], b1);
    closest_on_first_segment(a0, a1, b0, b1, x);
    px_v3_mad(x, -depth, n, y);
    float below = top - px_v3_dot(n, x); /* the edge may leave A's top */
    witness_offer(w, x, px_maxf(below, outside_planes(fb, y, w->excess)));
}

/* The closest points of an edge of A at its top and an edge of B at its low: both ends each (need: 2), or
 * at least one end each (need: 1). */
static void witness_edges(const sat_source* ha, const sat_points* pa, const bool* top_a, const sat_source* hb,
                          const sat_points* pb, const bool* low_b, const sat_faces* fb, const vec3 n, float depth,
                          float top, int need, float accept, sat_witness* w)
{
    const uint8_t* edges_a = copy_edges(ha);
    const uint8_t* edges_b = copy_edges(hb);
    for (int i = 0; i < ha->edge_count && w->excess > accept; ++i)
    {
        if ((int)top_a[edges_a[4 * i]] + (int)top_a[edges_a[4 * i + 1]] < need)
        {
            continue;
        }
        for (int j = 0; j < hb->edge_count && w->excess > accept; ++j)
        {
            if ((int)low_b[edges_b[4 * j]] + (int)low_b[edges_b[4 * j + 1]] >= need)
            {
                witness_edge_pair(edges_a, pa, i, edges_b, pb, j, fb, n, depth, top, w);
            }
        }
    }
}

/* A point x of A with x - depth n in B: the witness of the contact. The two shapes touch, once B moves by
 * depth along n, where A's top feature along n (its vertices within tol of top) meets B's low feature (its
 * vertices within tol of low); that contact region is a convex set whose corners are a vertex of one
 * feature inside the other, or an edge of one crossing an edge of the other. So the candidates: B's low
 * vertices lifted by depth (checked against A's planes), A's top vertices (the point below them checked
 * against B's), and the closest points of an edge of A at its top and an edge of B at its low (at least
 * one end each, so that a vertex against a face near its rim still finds the crossing). The likeliest come
 * first: for an edge-pair axis (edge_a and edge_b, else -1) its own two edges, for a face of B (kind 1) A's
 * top vertices. The first one inside within `accept` (the rounding of its plane tests) is taken, else the
 * least outside; false when even that is outside by more than tol (EPA decides). */
static bool witness(const sat_source* ha, const sat_points* pa, const sat_faces* fa, const sat_source* hb,
                    const sat_points* pb, const sat_faces* fb, int kind, int edge_a, int edge_b, const vec3 n,
                    float depth, float top, float low, float tol, float accept, vec3 point_a)
{
    bool top_a[CAP_V], low_b[CAP_V];
    for (int i = 0; i < pa->count; ++i)
    {
        top_a[i] = (n[0] * pa->x[i] + n[1] * pa->y[i]) + n[2] * pa->z[i] >= top - tol;
    }
    for (int i = 0; i < pb->count; ++i)
    {
        low_b[i] = (n[0] * pb->x[i] + n[1] * pb->y[i]) + n[2] * pb->z[i] <= low + tol;
    }
    sat_witness w;
    w.excess = INFINITY;
    px_v3_zero(w.point_a);
    if (kind == 2)
    {
        witness_edge_pair(copy_edges(ha), pa, edge_a, copy_edges(hb), pb, edge_b, fb, n, depth, top, &w);
    }
    if (kind == 1)
    {
        witness_top_a(pa, top_a, fb, n, depth, accept, &w);
    }
    witness_low_b(pb, low_b, fa, n, depth, accept, &w);
    witness_top_a(pa, top_a, fb, n, depth, accept, &w);
    witness_edges(ha, pa, top_a, hb, pb, low_b, fb, n, depth, top, 2, accept, &w);
    witness_edges(ha, pa, top_a, hb, pb, low_b, fb, n, depth, top, 1, accept, &w);
    px_v3_copy(w.point_a, point_a);
    return w.excess <= tol;
}

/* ------------------------------------------------------------------------------------------------ */
/* The query                                                                                         */

/* Largest sign * (n . p) over the points, and its index. */
static float extreme(const sat_points* p, const vec3 n, float sign, int* index)
{
    float best = -INFINITY;
    int bi = 0;
    for (int i = 0; i < p->count; ++i)
    {
        float d = sign * ((n[0] * p->x[i] + n[1] * p->y[i]) + n[2] * p->z[i]);
        if (d > best)
        {
            best = d;
            bi = i;
        }
    }
    *index = bi;
    return best;
}

bool pxi_hull_sat_contact(const pxi_gjk_pair* pair, float min_overlap, pxi_hull_sat_result* out)
{
    float box_a[SAT_BOX_FLOATS], box_b[SAT_BOX_FLOATS];
    sat_source source_a, source_b;
    if (!sat_source_of(pair->a, box_a, &source_a) || !sat_source_of(pair->b, box_b, &source_b))
    {
        return false;
    }
    const sat_source* ha = &source_a;
    const sat_source* hb = &source_b;
    /* 1. bounding spheres apart: no overlap */
    vec3 gap;
    pxi_point_from_b(pair, hb->centroid, gap);
    px_v3_sub(gap, ha->centroid, gap);
    const float reach = ha->extent + hb->extent;
    if (!(px_v3_norm2(gap) <= reach * reach))
    {
        return false;
    }
    prefetch_copy(ha);
    prefetch_copy(hb);
    sat_points pa, pb;
    sat_faces fa, fb;
    float store_b[3 * CAP_V + 4 * CAP_F];
    view_a(ha, &pa, &fa);
    view_b(hb, pair, store_b, &pb, &fb);
    /* the size the roundings are relative to: the coordinates, local and posed (a hull built far from its
     * own origin rounds with its local coordinates, not its extent) */
    const float scale = ha->extent + hb->extent + px_v3_norm(pair->pos_b) + px_v3_norm(ha->centroid) +
                        px_v3_norm(hb->centroid);
    int ia_c, ib_c; /* vertices extreme along the centres' direction (unused) */
    float gap_len = px_v3_norm(gap);
    if (gap_len > 0.0f)
    {
        /* the centres' direction separates most pairs that are apart, for two scans */
        px_v3_scale(gap, 1.0f / gap_len, gap);
        if (!(extreme(&pa, gap, 1.0f, &ia_c) + extreme(&pb, gap, -1.0f, &ib_c) > min_overlap))
        {
            return false;
        }
    }

    /* 2. face axes */
    float sep_a[CAP_F], sep_b[CAP_F];
    int low_a[CAP_F], low_b[CAP_F];
    float dots_a[CAP_F * CAP_V], dots_b[CAP_F * CAP_V]; /* face_queries' products (face_dot) */
    int face_a, face_b;
    float sa = face_queries(&fa, &pb, -min_overlap, sep_a, low_a, dots_a, &face_a);
    if (!(sa < -min_overlap) || face_a < 0)
    {
        return false;
    }
    float sb = face_queries(&fb, &pa, -min_overlap, sep_b, low_b, dots_b, &face_b);
    if (!(sb < -min_overlap) || face_b < 0)
    {
        return false;
    }
    float s_face = sa >= sb ? sa : sb;

    /* 3. edge axes, of the edges whose arcs may beat the best face */
    const float bound = -s_face + 64.0f * FLT_EPSILON * scale;
    sat_edges_a ea;
    sat_edges eb;
    int index_eb[CAP_E];
    edges_a_below(ha, &fa, &pa, sep_a, low_a, dots_a, &pb, bound, &ea);
    edges_b_below(hb, &fb, &pb, sep_b, low_b, dots_b, &pa, bound, &eb, index_eb);
    sat_edge_best edge;
    edge_queries(ha, &ea, &pa, hb, &eb, index_eb, &pb, &edge);
    if (!(edge.s < -min_overlap))
    {
        return false;
    }

    /* 4. the best axis, measured again over every vertex of both. The candidates' separations above
     * came from different arithmetic (planes posed with B, edge points), so their order can be off by a
     * rounding: the best face of each hull and the best edge pair are compared by their overlap over all
     * vertices, A's face winning exact ties with B's and either face an exact tie with the edge pair. (No
     * wider tie: an edge pair within rounding of a face is either the face's own direction, as for a box
     * resting on a box, or a different axis as deep within rounding; either is an answer, and a wider tie
     * would give up depth accuracy.) An edge pair in contention must show over all vertices the overlap its
     * edges gave, else the Gauss-map test misjudged it (and may have hidden the true one): EPA decides. */
    const float slack = 16.0f * FLT_EPSILON * scale;
    vec3 n;
    px_v3_set(fa.x[face_a], fa.y[face_a], fa.z[face_a], n);
    int kind = 0, ia, ib;
    float top = extreme(&pa, n, 1.0f, &ia), low = -extreme(&pb, n, -1.0f, &ib);
    float depth = top - low;
    {
        vec3 m = { -fb.x[face_b], -fb.y[face_b], -fb.z[face_b] };
        float top_m = extreme(&pa, m, 1.0f, &ia), low_m = -extreme(&pb, m, -1.0f, &ib);
        if (top_m - low_m < depth)
        {
            kind = 1;
            depth = top_m - low_m;
            top = top_m;
            low = low_m;
            px_v3_copy(m, n);
        }
    }
    if (edge.s > s_face - slack)
    {
        float top_e = extreme(&pa, edge.n, 1.0f, &ia), low_e = -extreme(&pb, edge.n, -1.0f, &ib);
        float depth_edge = top_e - low_e;
        if (!(depth_edge <= -edge.s + slack))
        {
            return false;
        }
        if (depth_edge < depth)
        {
            kind = 2;
            depth = depth_edge;
            top = top_e;
            low = low_e;
            px_v3_copy(edge.n, n);
        }
    }
    if (!(depth > min_overlap))
    {
        return false;
    }
    px_v3_copy(n, out->normal);
    out->depth = depth;
    /* the witness: on A's surface, with point_a - depth n on B's */
    return witness(ha, &pa, &fa, hb, &pb, &fb, kind, edge.a, edge.b, n, depth, top, low,
                   16.0f * FLT_EPSILON * scale, 4.0f * FLT_EPSILON * scale, out->point_a);
}
