/* Penetration depth by the Expanding Polytope Algorithm (van den Bergen 2001; Bullet's and Jolt's EPA
 * are the well-known implementations). The polytope lives on the stack with fixed capacities
 * (PX_EPA_MAX_VERTICES, PX_EPA_MAX_FACES): no allocation, and running out returns the best result with
 * PX_WARN_CAPACITY.
 *
 * The depth is bracketed: the polytope is inside A - B, so its nearest face plane is a lower bound, and
 * the support of A - B along that face's normal is an upper bound. The loop stops when they meet within
 * the tolerance, so a returned depth is never further from the truth than the final gap.
 *
 * What breaks other EPAs, and what this one does (KNOWN_FAILURES.md 2.2):
 *  - GJK ends on a point, segment or triangle (touching, or shapes sharing a face): the simplex is blown
 *    up to a tetrahedron with support points in directions chosen around it;
 *  - the origin on a face of the polytope (touching): that face's distance is 0, it is expanded first,
 *    and a depth of 0 with its normal is a valid answer, never "origin outside the polytope";
 *  - a flat Minkowski difference (no support off the plane): depth 0 with the plane's normal;
 *  - degenerate new faces (zero area) are kept for the topology but never chosen;
 *  - the witness points come from the nearest face's barycentric weights (FCL PR #302), never from the
 *    vertex nearest the origin.
 *
 * Where the time goes, and what keeps it down: every iteration is one support of A - B and the insertion of
 * its vertex (horizon search, a fan of new faces, the next nearest face). Faces keep their raw normal and
 * are ordered by the signed square of their plane distance, so a new face costs a division but no square
 * root; the picked face is made unit once per iteration, while its support is being scanned; the fan's
 * planes are computed four at a time (SSE, bit-identical to the scalar code); the nearest face is a
 * search over packed keys; and point-cloud hulls are scanned through transposed copies (epa_scan.c). */
#include "gjk_internal.h"

#include "epa_internal.h"

#include <stddef.h>

#define EPA_NO_FACE (-1)

/* SSE2 paths (the x86-64 baseline) for the face planes and the nearest-face search. They give the scalar
 * code's results bit for bit; define PX_EPA_SCALAR to build the scalar code alone (to test that). */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(PX_EPA_SCALAR)
#define PXI_EPA_SSE 1
#include <emmintrin.h>
#else
#define PXI_EPA_SSE 0
#endif

/* Define PX_EPA_TRACE when compiling this file to print the seed decisions (debugging only). */
#ifdef PX_EPA_TRACE
#include <stdio.h>
#define EPA_TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define EPA_TRACE(...) ((void)0)
#endif

typedef struct epa_vertex
{
    vec3 w, p, q;           /* w = p - q; p on A, q on B (frame A) */
    int32_t index_a, index_b; /* support indices, PX_NULL_INDEX when a shape has none */
} epa_vertex;

/* A face keeps its normal as the cross product of two edges, not unit: a face is normalized only when it
 * is picked as the nearest (once per iteration), while every expansion creates several faces. Its place in
 * the nearest-face order is the signed square of its plane distance, which needs a division but no
 * square root. */
typedef struct epa_face
{
    vec3 n;          /* outward normal, |n| = twice the area */
    float offset;    /* n . (v0 + v1 + v2) / 3: the plane's offset, for the visibility test */
    float sd;        /* dist |dist|, dist = n . v0 / |n|: the order of plane distances (INFINITY if degenerate) */
    int v[3];        /* counter-clockwise seen from outside the polytope */
    int adj[3];      /* across edge i = (v[i], v[i + 1]): the adjacent face * 4 + the edge's index in it */
    int pass;        /* horizon-search marker */
    bool alive;
    bool degenerate; /* too thin to have a normal: kept for the topology, never picked nor found visible */
} epa_face;

/* epa_fan_planes_sse writes a face's normal and offset with one 16-byte store */
_Static_assert(offsetof(epa_face, offset) == offsetof(epa_face, n) + 3 * sizeof(float),
               "epa_face: offset must follow n");

/* A picked face's plane, with a unit normal: kept by value, since the face's slot is reused once the
 * polytope grows over it. */
typedef struct epa_plane
{
    int v[3];
    vec3 n;     /* unit outward normal */
    float dist; /* n . v0 (the mean over the three vertices): the plane's distance from the origin */
} epa_plane;

typedef struct epa_poly
{
    /* One slot more than the capacity: the loop's support is written straight into the next free slot
     * (a vertex copy would read fields just written one by one, which stalls), and the spare slot takes it
     * when the polytope is full. */
    epa_vertex verts[PX_EPA_MAX_VERTICES + 1];
    float w4[PX_EPA_MAX_VERTICES][4];  /* the vertices' w again, padded with 0: one load each for SSE */
    uint64_t ids[PX_EPA_MAX_VERTICES]; /* the vertices' support index pairs, packed (epa_vertex_id) */
    epa_face faces[PX_EPA_MAX_FACES];
    /* Per face, its sd while it can still be picked (alive, not degenerate, not explored: its support is
     * not yet a vertex), INFINITY otherwise. Packed apart from the faces, so the nearest-face search reads
     * 4 bytes per face. */
    float key[PX_EPA_MAX_FACES];
    int vertex_count;
    int face_count;      /* high-water mark of faces[] */
    int free_faces[PX_EPA_MAX_FACES];
    int free_count;
    float scale;         /* largest |w|: the size for rounding tolerances */
} epa_poly;

typedef struct epa_horizon_edge
{
    int a, b;         /* vertex indices, in the order of the removed face */
    int face, edge;   /* the surviving face across this edge and the edge's index in it */
} epa_horizon_edge;

/* The pair and, for each hull with enough points, its transposed copy (epa_scan.c): EPA's supports then
 * scan x[], y[], z[] blocks instead of packed points, about twice as fast, with the same result. Built hulls
 * that GJK climbs are scanned here too: EPA's directions jump from face to face, so its climbs are long and
 * miss the cache (bench_contact, built hulls of 256 and 1024 points: 1.6x slower than scanning them). */
typedef struct epa_shapes
{
    const pxi_gjk_pair* pair;
    const float* soa_a; /* NULL: A's own support mapping */
    const float* soa_b;
    bool b_posed;       /* soa_b holds B's points posed in frame A (no rotation per support) */
    pxi_epa_scan_fn scan_a; /* the scans of the copies, chosen by their sizes */
    pxi_epa_scan_fn scan_b;
    float scale;            /* every support point is multiplied by this power of two (epa_scale_for) */
} epa_shapes;

/* Up to this many points B's copy is posed in frame A once per query; above, rotating two directions per
 * support is cheaper than posing every point (profile_penetration: 7% faster at 8 points, 4% slower at 256). */
#define EPA_POSED_MAX_POINTS 64

/* B's points posed in frame A (pxi_point_from_b, as pxi_support_b poses a support point), transposed into
 * x[], y[], z[] blocks. */
static void epa_soa_posed(const pxi_gjk_pair* pair, const float* points, int count, float* soa)
{
    float* xs = soa;
    float* ys = soa + count;
    float* zs = soa + 2 * count;
    for (int i = 0; i < count; ++i)
    {
        vec3 q;
        pxi_point_from_b(pair, points + 3 * (size_t)i, q);
        xs[i] = q[0];
        ys[i] = q[1];
        zs[i] = q[2];
    }
}

/* Below this many points the scans have no full vector step: the shape's own scan is as fast. */
#define EPA_SOA_MIN_POINTS 8

/* The pair, with no transposed copies yet: each shape's own support mapping. */
static void epa_shapes_init(epa_shapes* shapes, const pxi_gjk_pair* pair)
{
    shapes->pair = pair;
    shapes->soa_a = NULL;
    shapes->soa_b = NULL;
    shapes->b_posed = false;
    shapes->scan_a = NULL;
    shapes->scan_b = NULL;
    shapes->scale = 1.0f;
}

/* Transposed copies of the hulls that qualify, into buffer (PXI_EPA_SOA_POINTS points). Done once the
 * polytope is seeded, so that queries that end in the seed (flat or touching pairs) skip it. */
static void epa_shapes_transpose(epa_shapes* shapes, float* buffer)
{
    const pxi_gjk_pair* pair = shapes->pair;
    if (pxi_epa_scan_select(PXI_EPA_SOA_POINTS) == NULL)
    {
        return; /* no vector scan on this target: the shapes' own scans are as fast */
    }
    int used = 0;
    /* Copies checked finite, of a pair whose size bounds every product of a point and a direction below
     * overflow, take the scan without the non-finite check (as GJK's, gjk.c). */
    const bool bounded = pair->w_bound >= 0.0f && pair->w_bound < PX_MAX_PAIR_SIZE;
    /* built hulls keep their copy (px_hull.soa): nothing to make, and B's is scanned along directions
     * rotated into its frame. Not a B small enough to be posed (below): its posed copy is the faster one,
     * and the vertices it picks where supports tie within rounding are the ones its points pick as a plain
     * cloud, which a built hull's contacts must match (test_hull.c, kept_copy_small_b_is_posed). */
    const float* kept_a = pair->scan_a != NULL ? pxi_hull_shape_soa(pair->a) : NULL;
    const float* kept_b = pair->scan_b != NULL && pair->b->hull.count > EPA_POSED_MAX_POINTS
                              ? pxi_hull_shape_soa(pair->b)
                              : NULL;
    if (kept_a != NULL)
    {
        shapes->soa_a = kept_a;
        shapes->scan_a = pxi_epa_scan_for(pair->a->hull.count, bounded);
    }
    else if (pair->scan_a != NULL && pair->a->hull.count >= EPA_SOA_MIN_POINTS &&
             pair->a->hull.count <= PXI_EPA_SOA_POINTS)
    {
        const bool finite = pxi_epa_soa_from_packed(pair->a->hull.points, pair->a->hull.count, buffer);
        shapes->soa_a = buffer;
        shapes->scan_a = pxi_epa_scan_for(pair->a->hull.count, finite && bounded);
        used = pair->a->hull.count;
    }
    if (kept_b != NULL)
    {
        shapes->soa_b = kept_b;
        shapes->scan_b = pxi_epa_scan_for(pair->b->hull.count, bounded);
    }
    else if (pair->scan_b != NULL && pair->b->hull.count >= EPA_SOA_MIN_POINTS &&
             pair->b->hull.count <= PXI_EPA_SOA_POINTS - used)
    {
        shapes->b_posed = pair->b->hull.count <= EPA_POSED_MAX_POINTS;
        if (shapes->b_posed)
        {
            epa_soa_posed(pair, pair->b->hull.points, pair->b->hull.count, buffer + 3 * used);
        }
        bool finite = false;
        if (!shapes->b_posed)
        {
            finite = pxi_epa_soa_from_packed(pair->b->hull.points, pair->b->hull.count, buffer + 3 * used);
        }
        shapes->soa_b = buffer + 3 * used;
        shapes->scan_b = pxi_epa_scan_for(pair->b->hull.count, finite && bounded);
    }
}

/* Support of a hull from its transposed copy: the point (from the caller's array) and its index. */
static int32_t epa_soa_support(pxi_epa_scan_fn scan, const float* soa, const px_shape* s, const vec3 d,
                               vec3 dest)
{
    int32_t i = scan(soa, s->hull.count, d);
    if (PX_UNLIKELY(i == PXI_SUPPORT_NON_FINITE))
    {
        dest[0] = dest[1] = dest[2] = NAN;
        return i;
    }
    /* read back from the copy the scan has just brought into the cache (the same values) */
    const int count = s->hull.count;
    px_v3_set(soa[i], soa[count + i], soa[2 * count + i], dest);
    return i;
}

/* Support point of A - B along d (frame A): each shape's support as pxi_support_a and pxi_support_b
 * compute it, through the transposed copy when there is one. */
static int32_t epa_support(const epa_shapes* shapes, const vec3 d, epa_vertex* out)
{
    const pxi_gjk_pair* pair = shapes->pair;
    vec3 nd;
    px_v3_negate(d, nd);
    int32_t ia, ib;
    if (shapes->soa_a != NULL)
    {
        ia = epa_soa_support(shapes->scan_a, shapes->soa_a, pair->a, d, out->p);
    }
    else
    {
        ia = pxi_support_a(pair, d, out->p);
    }
    if (shapes->soa_b == NULL)
    {
        ib = pxi_support_b(pair, nd, out->q);
    }
    else if (!shapes->b_posed)
    {
        vec3 dl, s;
        pxi_direction_in_b(pair, nd, dl);
        ib = epa_soa_support(shapes->scan_b, shapes->soa_b, pair->b, dl, s);
        pxi_point_from_b(pair, s, out->q);
    }
    else
    {
        /* posed points: the scan along -d in frame A, the point read back from the copy */
        const int count = pair->b->hull.count;
        ib = shapes->scan_b(shapes->soa_b, count, nd);
        if (PX_LIKELY(ib != PXI_SUPPORT_NON_FINITE))
        {
            px_v3_set(shapes->soa_b[ib], shapes->soa_b[count + ib], shapes->soa_b[2 * count + ib], out->q);
        }
        else
        {
            out->q[0] = out->q[1] = out->q[2] = NAN;
        }
    }
    if (PX_UNLIKELY(shapes->scale != 1.0f))
    {
        px_v3_scale(out->p, shapes->scale, out->p);
        px_v3_scale(out->q, shapes->scale, out->q);
    }
    px_v3_sub(out->p, out->q, out->w);
    out->index_a = ia;
    out->index_b = ib;
    return (ia == PXI_SUPPORT_NON_FINITE || ib == PXI_SUPPORT_NON_FINITE || !px_v3_is_finite(out->w))
               ? PXI_SUPPORT_NON_FINITE
               : 0;
}

/* A vertex's two support indices in one word, for the duplicate search. */
static uint64_t epa_vertex_id(const epa_vertex* v)
{
    return ((uint64_t)(uint32_t)v->index_a << 32) | (uint64_t)(uint32_t)v->index_b;
}

/* Append v (or, when v is the next free slot already, keep it). Returns its index, or -1 when full. */
static int epa_add_vertex(epa_poly* poly, const epa_vertex* v)
{
    const int i = poly->vertex_count;
    if (i >= PX_EPA_MAX_VERTICES)
    {
        return -1;
    }
    if (v != &poly->verts[i])
    {
        poly->verts[i] = *v;
    }
    poly->ids[i] = epa_vertex_id(v);
#if PXI_EPA_SSE
    _mm_storeu_ps(poly->w4[i], _mm_setr_ps(v->w[0], v->w[1], v->w[2], 0.0f)); /* one store: later loads forward */
#else
    poly->w4[i][0] = v->w[0];
    poly->w4[i][1] = v->w[1];
    poly->w4[i][2] = v->w[2];
    poly->w4[i][3] = 0.0f;
#endif
    poly->scale = px_maxf(poly->scale, px_v3_norm(v->w));
    poly->vertex_count = i + 1;
    return i;
}

#if !PXI_EPA_SSE
/* Plane of a face from its vertices: the raw normal and the signed squared distance. A face too thin to
 * have a normal is marked degenerate. (On x86-64, epa_planes_sse computes the same four faces at a time,
 * bit for bit.) */
static void epa_face_plane(const epa_poly* poly, epa_face* f)
{
    const float* a = poly->verts[f->v[0]].w;
    const float* b = poly->verts[f->v[1]].w;
    const float* c = poly->verts[f->v[2]].w;
    vec3 ab, ac;
    px_v3_sub(b, a, ab);
    px_v3_sub(c, a, ac);
    px_v3_cross(ab, ac, f->n);
    float nn = px_v3_norm2(f->n);
    float lmax = px_maxf(px_v3_norm2(ab), px_v3_norm2(ac));
    float offset = (px_v3_dot(f->n, a) + px_v3_dot(f->n, b) + px_v3_dot(f->n, c)) * (1.0f / 3.0f);
    f->degenerate = !(nn > 1.0e-12f * lmax * lmax);
    /* The offset is the mean of the three (the rounding of each partly cancels; one offset alone ranks
     * faces of touching pairs differently enough to move witness points by a third of the tolerance).
     * (offset / nn) |offset| = dist |dist| is of degree 2 in length like the squared lengths around it. */
    f->offset = offset;
    f->sd = f->degenerate ? INFINITY : (offset / nn) * fabsf(offset);
}
#endif

#if PXI_EPA_SSE
/* Four faces' planes at once, their vertices transposed into x, y, z registers (a, b, w per face): what
 * epa_face_plane computes per lane, in the same order (bit-identical), without its horizontal sums. ok
 * marks the faces with a normal (sd is INFINITY for the others). */
typedef struct epa_planes4
{
    __m128 nx, ny, nz, offset, sd, ok;
} epa_planes4;

static inline epa_planes4 epa_planes4_of(__m128 ax, __m128 ay, __m128 az, __m128 bx, __m128 by, __m128 bz, __m128 wx,
                                         __m128 wy, __m128 wz)
{
    const __m128 third = _mm_set1_ps(1.0f / 3.0f), eps = _mm_set1_ps(1.0e-12f), inf = _mm_set1_ps(INFINITY);
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    epa_planes4 p;
    const __m128 abx = _mm_sub_ps(bx, ax), aby = _mm_sub_ps(by, ay), abz = _mm_sub_ps(bz, az);
    const __m128 acx = _mm_sub_ps(wx, ax), acy = _mm_sub_ps(wy, ay), acz = _mm_sub_ps(wz, az);
    p.nx = _mm_sub_ps(_mm_mul_ps(aby, acz), _mm_mul_ps(abz, acy));
    p.ny = _mm_sub_ps(_mm_mul_ps(abz, acx), _mm_mul_ps(abx, acz));
    p.nz = _mm_sub_ps(_mm_mul_ps(abx, acy), _mm_mul_ps(aby, acx));
#define EPA_DOT4(x0, y0, z0, x1, y1, z1)                                                                        \
    _mm_add_ps(_mm_add_ps(_mm_mul_ps(x0, x1), _mm_mul_ps(y0, y1)), _mm_mul_ps(z0, z1))
    const __m128 nn = EPA_DOT4(p.nx, p.ny, p.nz, p.nx, p.ny, p.nz);
    const __m128 lmax = _mm_max_ps(EPA_DOT4(abx, aby, abz, abx, aby, abz), EPA_DOT4(acx, acy, acz, acx, acy, acz));
    p.offset = _mm_mul_ps(_mm_add_ps(_mm_add_ps(EPA_DOT4(p.nx, p.ny, p.nz, ax, ay, az),
                                                EPA_DOT4(p.nx, p.ny, p.nz, bx, by, bz)),
                                     EPA_DOT4(p.nx, p.ny, p.nz, wx, wy, wz)),
                          third);
#undef EPA_DOT4
    p.ok = _mm_cmpgt_ps(nn, _mm_mul_ps(_mm_mul_ps(eps, lmax), lmax));
    const __m128 sd = _mm_mul_ps(_mm_div_ps(p.offset, nn), _mm_and_ps(p.offset, abs_mask));
    p.sd = _mm_or_ps(_mm_and_ps(p.ok, sd), _mm_andnot_ps(p.ok, inf));
    return p;
}

/* The planes of count faces (the seed tetrahedron's four; the loop's fans take epa_fan_planes_sse), four
 * faces per step: the vertices are transposed into x, y, z registers for epa_planes4_of. */
static void epa_planes_sse(epa_poly* poly, const int* fan, int count)
{
    epa_face* faces = poly->faces;
    for (int k0 = 0; k0 < count; k0 += 4)
    {
        /* a short last step repeats the last face in the spare lanes */
        const epa_face* f0 = &faces[fan[k0]];
        const epa_face* f1 = &faces[fan[k0 + 1 < count ? k0 + 1 : count - 1]];
        const epa_face* f2 = &faces[fan[k0 + 2 < count ? k0 + 2 : count - 1]];
        const epa_face* f3 = &faces[fan[k0 + 3 < count ? k0 + 3 : count - 1]];
        __m128 ax = _mm_loadu_ps(poly->w4[f0->v[0]]), ay = _mm_loadu_ps(poly->w4[f1->v[0]]);
        __m128 az = _mm_loadu_ps(poly->w4[f2->v[0]]), a3 = _mm_loadu_ps(poly->w4[f3->v[0]]);
        __m128 bx = _mm_loadu_ps(poly->w4[f0->v[1]]), by = _mm_loadu_ps(poly->w4[f1->v[1]]);
        __m128 bz = _mm_loadu_ps(poly->w4[f2->v[1]]), b3 = _mm_loadu_ps(poly->w4[f3->v[1]]);
        __m128 wx = _mm_loadu_ps(poly->w4[f0->v[2]]), wy = _mm_loadu_ps(poly->w4[f1->v[2]]);
        __m128 wz = _mm_loadu_ps(poly->w4[f2->v[2]]), w3 = _mm_loadu_ps(poly->w4[f3->v[2]]);
        _MM_TRANSPOSE4_PS(ax, ay, az, a3);
        _MM_TRANSPOSE4_PS(bx, by, bz, b3);
        _MM_TRANSPOSE4_PS(wx, wy, wz, w3);
        const epa_planes4 pl = epa_planes4_of(ax, ay, az, bx, by, bz, wx, wy, wz);
        float tx[4], ty[4], tz[4], to[4], ts[4];
        _mm_storeu_ps(tx, pl.nx);
        _mm_storeu_ps(ty, pl.ny);
        _mm_storeu_ps(tz, pl.nz);
        _mm_storeu_ps(to, pl.offset);
        _mm_storeu_ps(ts, pl.sd);
        const int ok_bits = _mm_movemask_ps(pl.ok);
        const int lanes = count - k0 < 4 ? count - k0 : 4;
        for (int j = 0; j < lanes; ++j)
        {
            const int index = fan[k0 + j];
            epa_face* f = &faces[index];
            f->n[0] = tx[j];
            f->n[1] = ty[j];
            f->n[2] = tz[j];
            f->offset = to[j];
            f->sd = ts[j];
            f->degenerate = ((ok_bits >> j) & 1) == 0;
            poly->key[index] = ts[j];
        }
    }
}
#endif

/* The planes and nearest-face keys of faces fan[0 .. count). */
static void epa_planes(epa_poly* poly, const int* fan, int count)
{
#if PXI_EPA_SSE
    epa_planes_sse(poly, fan, count);
#else
    for (int k = 0; k < count; ++k)
    {
        epa_face_plane(poly, &poly->faces[fan[k]]);
        poly->key[fan[k]] = poly->faces[fan[k]].sd;
    }
#endif
}

#if PXI_EPA_SSE
/* The planes of the fan's faces: face fan[k] is (horizon[k].a, horizon[k].b, iw). epa_planes_sse's
 * arithmetic, bit for bit, with the vertices read from the horizon and the shared apex broadcast rather than
 * gathered, and each face's normal and offset written by one store (they are adjacent in epa_face). */
static void epa_fan_planes_sse(epa_poly* poly, const int* fan, const epa_horizon_edge* horizon, int count, int iw)
{
    epa_face* faces = poly->faces;
    const float* apex = poly->w4[iw];
    const __m128 wx = _mm_set1_ps(apex[0]), wy = _mm_set1_ps(apex[1]), wz = _mm_set1_ps(apex[2]);
    for (int k0 = 0; k0 < count; k0 += 4)
    {
        /* a short last step repeats the last face in the spare lanes */
        const int k1 = k0 + 1 < count ? k0 + 1 : count - 1;
        const int k2 = k0 + 2 < count ? k0 + 2 : count - 1;
        const int k3 = k0 + 3 < count ? k0 + 3 : count - 1;
        __m128 ax = _mm_loadu_ps(poly->w4[horizon[k0].a]), ay = _mm_loadu_ps(poly->w4[horizon[k1].a]);
        __m128 az = _mm_loadu_ps(poly->w4[horizon[k2].a]), a3 = _mm_loadu_ps(poly->w4[horizon[k3].a]);
        __m128 bx = _mm_loadu_ps(poly->w4[horizon[k0].b]), by = _mm_loadu_ps(poly->w4[horizon[k1].b]);
        __m128 bz = _mm_loadu_ps(poly->w4[horizon[k2].b]), b3 = _mm_loadu_ps(poly->w4[horizon[k3].b]);
        _MM_TRANSPOSE4_PS(ax, ay, az, a3);
        _MM_TRANSPOSE4_PS(bx, by, bz, b3);
        epa_planes4 pl = epa_planes4_of(ax, ay, az, bx, by, bz, wx, wy, wz);
        float ts[4];
        _mm_storeu_ps(ts, pl.sd);
        const int ok_bits = _mm_movemask_ps(pl.ok);
        _MM_TRANSPOSE4_PS(pl.nx, pl.ny, pl.nz, pl.offset); /* now one face per register: n, offset */
        const __m128 rows[4] = { pl.nx, pl.ny, pl.nz, pl.offset };
        const int lanes = count - k0 < 4 ? count - k0 : 4;
        for (int j = 0; j < lanes; ++j)
        {
            const int index = fan[k0 + j];
            epa_face* f = &faces[index];
            _mm_storeu_ps(f->n, rows[j]); /* n[0..2] and offset */
            f->sd = ts[j];
            f->degenerate = ((ok_bits >> j) & 1) == 0;
            poly->key[index] = ts[j];
        }
    }
}
#endif

/* The picked face's unit normal and plane distance. */
static void epa_face_unit(const epa_poly* poly, int index, epa_plane* dest)
{
    const epa_face* f = &poly->faces[index];
    float inv = 1.0f / sqrtf(px_v3_norm2(f->n));
    dest->v[0] = f->v[0];
    dest->v[1] = f->v[1];
    dest->v[2] = f->v[2];
    px_v3_scale(f->n, inv, dest->n);
    dest->dist = (px_v3_dot(dest->n, poly->verts[f->v[0]].w) + px_v3_dot(dest->n, poly->verts[f->v[1]].w) +
                  px_v3_dot(dest->n, poly->verts[f->v[2]].w)) *
                 (1.0f / 3.0f);
}

static void epa_remove_face(epa_poly* poly, int index)
{
    poly->faces[index].alive = false;
    poly->key[index] = INFINITY;
    poly->free_faces[poly->free_count++] = index;
}

static int epa_new_face(epa_poly* poly, int a, int b, int c)
{
    int index;
    if (poly->free_count > 0)
    {
        index = poly->free_faces[--poly->free_count];
    }
    else if (poly->face_count < PX_EPA_MAX_FACES)
    {
        index = poly->face_count++;
    }
    else
    {
        return EPA_NO_FACE;
    }
    epa_face* f = &poly->faces[index];
    f->v[0] = a;
    f->v[1] = b;
    f->v[2] = c;
    f->adj[0] = f->adj[1] = f->adj[2] = EPA_NO_FACE;
    f->pass = 0;
    f->alive = true;
    return index;
}

static void epa_link(epa_poly* poly, int f0, int e0, int f1, int e1)
{
    poly->faces[f0].adj[e0] = 4 * f1 + e1;
    poly->faces[f1].adj[e1] = 4 * f0 + e0;
}

/* Build the tetrahedron v0..v3 with outward faces. False when it is flat: its volume below 1e-9 of the
 * product of the three edge lengths from v0, the volume of a box with those edges. That product, not the
 * cube of the longest edge, is the scale of the volume and of its rounding: a sliver base under a tall
 * apex is no flatter than a regular tetrahedron. (Against the cube, GJK's triangle 1.3e-6 across on a
 * needle with its apex 0.027 away had 0.55 of the product but 1e-9 of the cube, and A - B was taken for
 * flat along the base's normal, pointing into the overlap.) */
static bool epa_init_tetrahedron(epa_poly* poly, const int v[4])
{
    const float* a = poly->verts[v[0]].w;
    vec3 ab, ac, ad, n;
    px_v3_sub(poly->verts[v[1]].w, a, ab);
    px_v3_sub(poly->verts[v[2]].w, a, ac);
    px_v3_sub(poly->verts[v[3]].w, a, ad);
    px_v3_cross(ab, ac, n);
    float vol = px_v3_dot(n, ad);
    float edges = px_v3_norm(ab) * px_v3_norm(ac) * px_v3_norm(ad);
    if (!(fabsf(vol) > 1.0e-9f * edges))
    {
        return false;
    }
    /* with vol < 0, d lies below abc's counter-clockwise normal: abc faces outward as given */
    int i0 = v[0], i1 = vol < 0.0f ? v[1] : v[2], i2 = vol < 0.0f ? v[2] : v[1], i3 = v[3];
    int f0 = epa_new_face(poly, i0, i1, i2);
    int f1 = epa_new_face(poly, i0, i3, i1);
    int f2 = epa_new_face(poly, i1, i3, i2);
    int f3 = epa_new_face(poly, i2, i3, i0);
    const int seed_faces[4] = { f0, f1, f2, f3 };
    epa_planes(poly, seed_faces, 4);
    /* edges: f0 (i0 i1)(i1 i2)(i2 i0); f1 (i0 i3)(i3 i1)(i1 i0); f2 (i1 i3)(i3 i2)(i2 i1);
     * f3 (i2 i3)(i3 i0)(i0 i2) */
    epa_link(poly, f0, 0, f1, 2);
    epa_link(poly, f0, 1, f2, 2);
    epa_link(poly, f0, 2, f3, 2);
    epa_link(poly, f1, 0, f3, 1);
    epa_link(poly, f1, 1, f2, 0);
    epa_link(poly, f2, 1, f3, 0);
    return true;
}

/* A unit vector perpendicular to u (|u| > 0). */
static void any_perpendicular(const vec3 u, vec3 dest)
{
    vec3 axis = { 0.0f, 0.0f, 0.0f };
    int k = (fabsf(u[0]) <= fabsf(u[1]) && fabsf(u[0]) <= fabsf(u[2])) ? 0 : (fabsf(u[1]) <= fabsf(u[2]) ? 1 : 2);
    axis[k] = 1.0f;
    vec3 c;
    px_v3_cross(u, axis, c);
    px_v3_normalize_any(c, dest);
}

/* Result of a flat or point-like Minkowski difference: depth 0 along n, witness from the GJK simplex. */
static void epa_flat_result(const px_simplex* s, const vec3 n, pxi_epa_result* r)
{
    EPA_TRACE("epa flat result: n (%g %g %g), simplex of %d\n", n[0], n[1], n[2], s->count);
    pxi_simplex_witness_refined(s, r->point_a, r->point_b);
    px_v3_copy(n, r->normal);
    r->depth = 0.0f;
}

/* Grow GJK's simplex (1 to 4 vertices around the origin) into a tetrahedron containing the origin.
 * Returns 1 on success, 0 when A - B is flat (r is then filled with depth 0), -1 on non-finite support. */
static int epa_seed(const epa_shapes* pair, const px_simplex* s, epa_poly* poly, pxi_epa_result* r)
{
    int idx[4] = { -1, -1, -1, -1 };
    int n = 0;
    for (int i = 0; i < s->count && i < PX_SIMPLEX_MAX_VERTICES; ++i)
    {
        epa_vertex v;
        px_v3_copy(s->v[i].w, v.w);
        px_v3_copy(s->v[i].p, v.p);
        px_v3_copy(s->v[i].q, v.q);
        v.index_a = s->v[i].index_a;
        v.index_b = s->v[i].index_b;
        idx[n++] = epa_add_vertex(poly, &v);
    }
    /* Relative sizes below this are "nothing": scale-free blow-up decisions. */
    const float tiny = 1.0e-6f;

    if (n == 4)
    {
        if (epa_init_tetrahedron(poly, idx))
        {
            return 1;
        }
        /* GJK's tetrahedron is too thin to orient: keep its face nearest the origin and grow again */
        float best = INFINITY;
        int drop = 3;
        static const int faces[4][3] = { { 0, 1, 2 }, { 0, 1, 3 }, { 0, 2, 3 }, { 1, 2, 3 } };
        for (int f = 0; f < 4; ++f)
        {
            float w[3];
            vec3 q;
            bool degenerate = false;
            (void)pxi_closest_origin_triangle_ex(poly->verts[idx[faces[f][0]]].w, poly->verts[idx[faces[f][1]]].w,
                                                 poly->verts[idx[faces[f][2]]].w, false, w, q, &degenerate);
            float d2 = px_v3_norm2(q);
            if (d2 < best)
            {
                best = d2;
                drop = 3 - f;
            }
        }
        int kept[3], k = 0;
        for (int i = 0; i < 4; ++i)
        {
            if (i != drop)
            {
                kept[k++] = idx[i];
            }
        }
        idx[0] = kept[0];
        idx[1] = kept[1];
        idx[2] = kept[2];
        idx[3] = -1;
        n = 3;
    }

    if (n == 1)
    {
        /* a point: find the support farthest from it among the six axis directions */
        float best = 0.0f;
        epa_vertex bv = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f }, PX_NULL_INDEX, PX_NULL_INDEX };
        for (int k = 0; k < 6; ++k)
        {
            vec3 d = { 0.0f, 0.0f, 0.0f };
            d[k / 2] = (k & 1) ? -1.0f : 1.0f;
            epa_vertex v;
            if (epa_support(pair, d, &v) != 0)
            {
                return -1;
            }
            float l = px_v3_distance2(v.w, poly->verts[idx[0]].w);
            if (l > best)
            {
                best = l;
                bv = v;
            }
        }
        if (!(best > 0.0f))
        {
            /* both shapes are the same single point: no direction is better than another */
            vec3 up = { 0.0f, 1.0f, 0.0f };
            epa_flat_result(s, up, r);
            return 0;
        }
        idx[n++] = epa_add_vertex(poly, &bv);
    }
    if (n == 2)
    {
        /* a segment: supports around it, 120 degrees apart, for the one farthest off its line */
        vec3 u, e1, e2;
        px_v3_sub(poly->verts[idx[1]].w, poly->verts[idx[0]].w, u);
        float len = px_v3_norm(u);
        px_v3_normalize_any(u, u);
        any_perpendicular(u, e1);
        px_v3_cross(u, e1, e2);
        float best = 0.0f;
        epa_vertex bv = { { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f }, { 0.0f, 0.0f, 0.0f }, PX_NULL_INDEX, PX_NULL_INDEX };
        for (int k = 0; k < 3; ++k)
        {
            float ang = 2.0943951f * (float)k;
            vec3 d;
            for (int c = 0; c < 3; ++c)
            {
                d[c] = cosf(ang) * e1[c] + sinf(ang) * e2[c];
            }
            epa_vertex v;
            if (epa_support(pair, d, &v) != 0)
            {
                return -1;
            }
            vec3 rel, perp;
            px_v3_sub(v.w, poly->verts[idx[0]].w, rel);
            px_v3_cross(u, rel, perp);
            float off = px_v3_norm2(perp);
            if (off > best)
            {
                best = off;
                bv = v;
            }
        }
        if (!(best > tiny * tiny * len * len) || !(len > 0.0f))
        {
            /* A - B is a segment (collinear shapes): separate sideways by 0 */
            epa_flat_result(s, e1, r);
            return 0;
        }
        idx[n++] = epa_add_vertex(poly, &bv);
    }
    if (n == 3)
    {
        /* a triangle: the support on the side of its plane away from the origin makes a tetrahedron
         * that contains it; if the origin is on the plane, the taller side */
        const float* a = poly->verts[idx[0]].w;
        vec3 ab, ac, nrm;
        px_v3_sub(poly->verts[idx[1]].w, a, ab);
        px_v3_sub(poly->verts[idx[2]].w, a, ac);
        px_v3_cross(ab, ac, nrm);
        if (!px_v3_normalize_any(nrm, nrm))
        {
            /* the GJK triangle itself is degenerate: treat A - B as flat across its longest edge */
            vec3 side;
            any_perpendicular(ab, side);
            epa_flat_result(s, side, r);
            return 0;
        }
        float origin_h = -px_v3_dot(nrm, a); /* the origin's height above the plane */
        epa_vertex up, down;
        vec3 neg;
        px_v3_negate(nrm, neg);
        if (epa_support(pair, nrm, &up) != 0 || epa_support(pair, neg, &down) != 0)
        {
            return -1;
        }
        vec3 t;
        px_v3_sub(up.w, a, t);
        float h_up = px_v3_dot(nrm, t);
        px_v3_sub(down.w, a, t);
        float h_down = -px_v3_dot(nrm, t);
        float size = sqrtf(px_maxf(px_v3_norm2(ab), px_v3_norm2(ac)));
        EPA_TRACE("epa seed triangle: n (%g %g %g) origin_h %g h_up %g h_down %g size %g\n", nrm[0], nrm[1], nrm[2],
                  origin_h, h_up, h_down, size);
        if (!(h_up > tiny * size) && !(h_down > tiny * size))
        {
            /* A - B is flat: the origin lies in it, and any move off the plane separates */
            epa_flat_result(s, nrm, r);
            return 0;
        }
        /* The tetrahedron on the taller side. When the origin lies on the other, shallow side (a sliver
         * triangle with the origin 4e-4 below it and the shapes 62 deep above), the base face has a negative
         * distance, so it is the first face expanded, and the horizon search grows the polytope past the
         * origin the usual way. A tetrahedron on the shallow side could be too thin to orient, and a double
         * pyramid is not convex when its apexes are skewed against the base. */
        (void)origin_h;
        idx[n++] = epa_add_vertex(poly, h_up >= h_down ? &up : &down);
    }
    for (int i = 0; i < 4; ++i)
    {
        if (idx[i] < 0)
        {
            return -1;
        }
    }
    if (!epa_init_tetrahedron(poly, idx))
    {
        /* the seed is flat after all: treat A - B as flat along the seed's plane */
        vec3 ab, ac, nrm;
        px_v3_sub(poly->verts[idx[1]].w, poly->verts[idx[0]].w, ab);
        px_v3_sub(poly->verts[idx[2]].w, poly->verts[idx[0]].w, ac);
        px_v3_cross(ab, ac, nrm);
        if (!px_v3_normalize_any(nrm, nrm))
        {
            any_perpendicular(ab, nrm);
        }
        epa_flat_result(s, nrm, r);
        return 0;
    }
    return 1;
}

/* True when v is already a vertex of the polytope: by support indices when both shapes have them, else by
 * coordinates. The polytope cannot grow towards it, so the search is over (this also breaks the cycles
 * rounding can set up between faces just outside the origin). */
static bool epa_has_vertex(const epa_poly* poly, const epa_vertex* v)
{
    if (v->index_a != PX_NULL_INDEX && v->index_b != PX_NULL_INDEX)
    {
        const uint64_t id = epa_vertex_id(v);
        for (int i = 0; i < poly->vertex_count; ++i)
        {
            if (poly->ids[i] == id)
            {
                return true;
            }
        }
        return false;
    }
    for (int i = 0; i < poly->vertex_count; ++i)
    {
        if (px_v3_equal(poly->verts[i].w, v->w))
        {
            return true;
        }
    }
    return false;
}

/* The face with the smallest key (the nearest alive, unexplored face), first on ties; EPA_NO_FACE when
 * none is left. Hot: called once per iteration over every face slot, so it reads only the packed keys.
 * The loads are scalar on purpose: the fan and the horizon search have just written keys one by one, and
 * a wider load over fresh narrow stores waits for them to reach the cache. Four running minima keep the
 * loop from being one chain of dependent minima; then the first slot holding the minimum is found. */
static int epa_nearest_face(const epa_poly* poly)
{
    const float* key = poly->key;
    const int count = poly->face_count;
    float m0 = INFINITY, m1 = INFINITY, m2 = INFINITY, m3 = INFINITY;
    int i = 0;
    for (; i + 4 <= count; i += 4)
    {
        m0 = px_minf(m0, key[i]);
        m1 = px_minf(m1, key[i + 1]);
        m2 = px_minf(m2, key[i + 2]);
        m3 = px_minf(m3, key[i + 3]);
    }
    for (; i < count; ++i)
    {
        m0 = px_minf(m0, key[i]);
    }
    const float best = px_minf(px_minf(m0, m1), px_minf(m2, m3));
    if (!(best < INFINITY))
    {
        return EPA_NO_FACE;
    }
    /* keys are never NaN (a non-finite support ends the query first), so the minimum is found */
    for (i = 0; i < count; ++i)
    {
        if (key[i] == best)
        {
            break;
        }
    }
    return i;
}

/* Depth-first horizon search from a visible face: removes every face visible from w that is connected
 * to it and records the horizon edges in the order of the removed faces. Iterative (bounded stack).
 * Returns the number of horizon edges, or -1 when the polytope's topology or the capacity broke. */
static int epa_horizon(epa_poly* poly, int start, const float* w, int pass, epa_horizon_edge* horizon)
{
    int stack[3 * PX_EPA_MAX_FACES]; /* adjacency entries: face * 4 + edge */
    int top = 0;
    int count = 0;
    epa_face* faces = poly->faces;
    epa_face* f0 = &faces[start];
    f0->pass = pass;
    epa_remove_face(poly, start);
    /* push the three edges in reverse so they are handled in order 0, 1, 2 */
    stack[top++] = f0->adj[2];
    stack[top++] = f0->adj[1];
    stack[top++] = f0->adj[0];
    while (top > 0)
    {
        int entry = stack[--top];
        if (entry < 0)
        {
            return -1; /* an edge without a neighbour */
        }
        int gi = entry >> 2, edge = entry & 3;
        epa_face* g = &faces[gi];
        if (g->pass == pass)
        {
            continue; /* already removed */
        }
        /* w's height above g's plane, times |n|, against the same mean offset its distance comes from */
        float side = ((g->n[0] * w[0] + g->n[1] * w[1]) + g->n[2] * w[2]) - g->offset;
        if (g->degenerate || !(side > 0.0f))
        {
            /* not visible: the edge is on the horizon; as the removed face saw it, it runs opposite to g's */
            if (count >= PX_EPA_MAX_FACES)
            {
                return -1;
            }
            epa_horizon_edge* h = &horizon[count++];
            h->a = g->v[edge == 2 ? 0 : edge + 1];
            h->b = g->v[edge];
            h->face = gi;
            h->edge = edge;
            continue;
        }
        g->pass = pass;
        epa_remove_face(poly, gi);
        if (top + 2 > 3 * PX_EPA_MAX_FACES)
        {
            return -1;
        }
        stack[top++] = g->adj[edge == 0 ? 2 : edge - 1];
        stack[top++] = g->adj[edge == 2 ? 0 : edge + 1];
    }
    return count >= 3 ? count : -1;
}

/* Replace the removed faces by a fan from vertex iw over the horizon. False on capacity or when the
 * horizon is not a closed loop. */
static bool epa_fan(epa_poly* poly, int iw, const epa_horizon_edge* horizon, int count)
{
    int fan[PX_EPA_MAX_FACES];
    epa_face* faces = poly->faces;
    for (int k = 0; k < count; ++k)
    {
        int index;
        if (poly->free_count > 0)
        {
            index = poly->free_faces[--poly->free_count];
        }
        else if (poly->face_count < PX_EPA_MAX_FACES)
        {
            index = poly->face_count++;
        }
        else
        {
            return false;
        }
        fan[k] = index;
        epa_face* f = &faces[index];
        f->v[0] = horizon[k].a;
        f->v[1] = horizon[k].b;
        f->v[2] = iw;
        f->pass = 0;
        f->alive = true;
        /* edge 0 (a -> b) is the horizon edge, shared with the surviving face */
        f->adj[0] = 4 * horizon[k].face + horizon[k].edge;
        faces[horizon[k].face].adj[horizon[k].edge] = 4 * index;
    }
#if PXI_EPA_SSE
    epa_fan_planes_sse(poly, fan, horizon, count, iw);
#else
    epa_planes(poly, fan, count);
#endif
    /* Neighbouring fan faces share the edge from a horizon vertex to w: face k's edge 1 (b_k -> w) meets
     * the face whose edge 2 is (w -> a_m) with a_m == b_k. The depth-first search emits the horizon in
     * cyclic order, so that face is usually the next one; otherwise it is searched for. */
    for (int k = 0; k < count; ++k)
    {
        int m = k + 1 < count ? k + 1 : 0;
        if (horizon[m].a != horizon[k].b)
        {
            m = -1;
            for (int j = 0; j < count; ++j)
            {
                if (horizon[j].a == horizon[k].b)
                {
                    m = j;
                    break;
                }
            }
            if (m < 0)
            {
                return false; /* the horizon is not a closed loop: the polytope lost convexity to rounding */
            }
        }
        faces[fan[k]].adj[1] = 4 * fan[m] + 2;
        faces[fan[m]].adj[2] = 4 * fan[k] + 1;
    }
    return true;
}

/* Witness points from weights w of the vertices of face v. */
static void epa_witness_from(const epa_poly* poly, const int v[3], const float w[3], pxi_epa_result* r)
{
    const epa_vertex* va = &poly->verts[v[0]];
    const epa_vertex* vb = &poly->verts[v[1]];
    const epa_vertex* vc = &poly->verts[v[2]];
    for (int k = 0; k < 3; ++k)
    {
        r->point_a[k] = w[0] * va->p[k] + w[1] * vb->p[k] + w[2] * vc->p[k];
        r->point_b[k] = w[0] * va->q[k] + w[1] * vb->q[k] + w[2] * vc->q[k];
    }
    /* the face's height over its longest edge: |ab x ac| / lmax^2 */
    vec3 ab, ac, bc, n;
    px_v3_sub(vb->w, va->w, ab);
    px_v3_sub(vc->w, va->w, ac);
    px_v3_sub(vc->w, vb->w, bc);
    px_v3_cross(ab, ac, n);
    const float l2 = px_maxf(px_v3_norm2(ab), px_maxf(px_v3_norm2(ac), px_v3_norm2(bc)));
    r->witness_aspect = l2 > 0.0f ? px_v3_norm(n) / l2 : 0.0f;
}

/* Witness points and normal of a face: the origin's nearest point on it. */
static void epa_face_result(const epa_poly* poly, const epa_plane* f, pxi_epa_result* r)
{
    float bary[3];
    vec3 q;
    bool degenerate = false;
    (void)pxi_closest_origin_triangle_ex(poly->verts[f->v[0]].w, poly->verts[f->v[1]].w, poly->verts[f->v[2]].w,
                                         false, bary, q, &degenerate);
    epa_witness_from(poly, f->v, bary, r);
    px_v3_copy(f->n, r->normal);
    r->depth = px_maxf(f->dist, 0.0f);
}

/* Signed square x |x|: the order of plane distances in which the faces' sd are kept. */
static float signed_square(float x)
{
    return x * fabsf(x);
}

/* Witness points for the nearest face's result: the depth and normal come from that face (its plane was
 * verified against the support of A - B when the loop stopped), the points from the weights of
 * x = depth * n in the face that contains x. That is usually the same face, but on sliver faces (a long
 * segment against a thin slab makes a Minkowski prism of them) rounding can rank a neighbour's plane
 * first while x falls outside it; the weights of the nearest face would then describe an edge point
 * far from the contact. So the faces whose planes are as near are searched for the triangle nearest to
 * x (one that holds it, if any). */
static void epa_witness(const epa_poly* poly, const epa_plane* f, float gap, pxi_epa_result* r)
{
    px_v3_copy(f->n, r->normal);
    r->depth = px_maxf(f->dist, 0.0f);
    vec3 x;
    px_v3_scale(f->n, f->dist, x);
    /* candidates: faces whose plane is as near as the nearest one's, within the gap or 1e-3 of the depth
     * (compared as signed squares, the order the faces keep); the nearest face is one of them */
    float band = px_maxf(gap, 1.0e-3f * px_maxf(f->dist, 0.0f));
    float sd_lo = signed_square(f->dist - band), sd_hi = signed_square(f->dist + band);
    int chosen = -1;
    float chosen_d2 = INFINITY;
    float w_chosen[3] = { 0.0f, 0.0f, 0.0f };
    for (int i = 0; i < poly->face_count; ++i)
    {
        const epa_face* g = &poly->faces[i];
        if (!g->alive || !(g->sd >= sd_lo && g->sd <= sd_hi))
        {
            continue;
        }
        /* how far x is from g's triangle, and the weights of the nearest point */
        vec3 ra, rb, rc, q;
        float w[3];
        bool degenerate = false;
        px_v3_sub(poly->verts[g->v[0]].w, x, ra);
        px_v3_sub(poly->verts[g->v[1]].w, x, rb);
        px_v3_sub(poly->verts[g->v[2]].w, x, rc);
        (void)pxi_closest_origin_triangle_ex(ra, rb, rc, false, w, q, &degenerate);
        float d2 = px_v3_norm2(q);
        if (d2 < chosen_d2)
        {
            chosen_d2 = d2;
            chosen = i;
            w_chosen[0] = w[0];
            w_chosen[1] = w[1];
            w_chosen[2] = w[2];
        }
    }
    if (chosen >= 0)
    {
        epa_witness_from(poly, poly->faces[chosen].v, w_chosen, r);
    }
    else
    {
        epa_face_result(poly, f, r); /* rounding left even the nearest face outside the band */
    }
}

/* Move the witness points onto the shapes' support planes along the final normal, given the support s of
 * A - B along that normal (the one the loop computed for it). The face's weights give points inside A and
 * B that are off their surfaces by up to the termination gap; their support planes along n are the
 * surfaces there. The depth becomes the overlap of the two planes, an upper bound of the true depth within
 * the same gap, and point_a - point_b = depth * n holds exactly as constructed. */
static void epa_onto_surfaces(const epa_vertex* s, pxi_epa_result* r)
{
    float ha = px_v3_dot(r->normal, s->p);  /* A's support plane: n . x = ha */
    float hb = -px_v3_dot(r->normal, s->q); /* B's support plane along -n: -n . x = hb */
    float depth = ha + hb;
    if (!(depth >= 0.0f))
    {
        return; /* touching within rounding: keep the face's answer (depth 0) */
    }
    px_v3_mad(r->point_a, ha - px_v3_dot(r->normal, r->point_a), r->normal, r->point_a);
    px_v3_mad(r->point_a, -depth, r->normal, r->point_b);
    r->depth = depth;
}

/* EPA from a seeded pair of shapes: pxi_epa_run in the coordinates shapes->scale gives. */
static px_status epa_run(const epa_shapes* shapes_in, const px_simplex* simplex, int max_iterations, float rel_tolerance,
                         pxi_epa_result* result)
{
    epa_shapes shapes = *shapes_in;
    epa_poly poly;
    poly.vertex_count = 0;
    poly.face_count = 0;
    poly.free_count = 0;
    poly.scale = 0.0f;
    memset(result, 0, sizeof(*result));
    result->witness_aspect = 1.0f;

    int seeded = epa_seed(&shapes, simplex, &poly, result);
    if (seeded < 0)
    {
        return PX_ERR_NON_FINITE;
    }
    if (seeded == 0)
    {
        result->exit = PXI_EPA_EXIT_FLAT;
        return PX_OK;
    }
    /* the transposed hull copies (PXI_EPA_SOA_POINTS points for both shapes, 24 KB of stack) */
    float soa[3 * PXI_EPA_SOA_POINTS];
    epa_shapes_transpose(&shapes, soa);

    /* termination floor: rounding of support dot products, relative to the polytope's size */
    const float floor_abs = 16.0f * FLT_EPSILON;
    epa_horizon_edge horizon[PX_EPA_MAX_FACES];
    epa_plane nearest; /* the face picked last, with the support of A - B along its normal */
    const epa_vertex* nearest_support = NULL;
    bool have_nearest = false;
    int iter = 0;
    px_status status = PX_OK;
    /* A face whose support along its normal is already a vertex cannot grow: in exact arithmetic that
     * means the bracket is closed, but rounding can leave the polytope a hair non-convex, and then the
     * face is merely stuck. Its overlap along its normal is still a valid upper bound of the depth, so it
     * is kept as a candidate and the search goes on with the next face, until a face converges or the
     * lower bound reaches the best candidate. (Without this, rounding can set up a cycle that re-adds the
     * same vertices until the capacity runs out.) */
    bool have_candidate = false;
    float candidate_upper = INFINITY;
    epa_plane candidate;
    epa_vertex candidate_support;
    memset(&candidate, 0, sizeof(candidate));
    memset(&candidate_support, 0, sizeof(candidate_support));
    bool use_candidate = false;
    bool converged = false;
    for (; iter < max_iterations; ++iter)
    {
        int best = epa_nearest_face(&poly);
        if (best == EPA_NO_FACE)
        {
            have_nearest = false;
            if (have_candidate)
            {
                use_candidate = true;
                result->exit = PXI_EPA_EXIT_CONVERGED;
            }
            else
            {
                status = PX_WARN_DEGENERATE;
            }
            break;
        }
        /* The support along the face's raw normal (the same direction) does not wait for the square root
         * and division that make the normal unit: they run beside the support's scans. */
        epa_vertex* v = &poly.verts[poly.vertex_count]; /* the next free slot (or the spare one) */
        nearest_support = v;
        if (epa_support(&shapes, poly.faces[best].n, v) != 0)
        {
            return PX_ERR_NON_FINITE;
        }
        epa_face_unit(&poly, best, &nearest);
        have_nearest = true;
        float upper = px_v3_dot(nearest.n, v->w); /* support of A - B along n: an upper bound of the depth */
        float lower = nearest.dist;              /* nearest face plane: a lower bound */
        float tol = rel_tolerance * px_maxf(lower, 0.0f) + floor_abs * poly.scale;
        EPA_TRACE("epa %d: face %d lower %.9g upper %.9g faces %d verts %d n (%g %g %g)\n", iter, best, lower, upper,
                  poly.face_count, poly.vertex_count, nearest.n[0], nearest.n[1], nearest.n[2]);
        /* Written so that NaN takes the exit. */
        if (!(upper - lower > tol))
        {
            /* Converged on this face, unless a stuck face's overlap is smaller: both are upper bounds of
             * the depth, so the smaller one is the answer (rounding broke the polytope's convexity there,
             * and this face is a local minimum of the broken surface, not the global one). */
            if (have_candidate && candidate_upper < upper - tol)
            {
                use_candidate = true;
            }
            else
            {
                converged = true;
            }
            result->exit = PXI_EPA_EXIT_CONVERGED;
            break;
        }
        if (have_candidate && !(candidate_upper - lower > tol))
        {
            use_candidate = true;
            result->exit = PXI_EPA_EXIT_CONVERGED;
            break;
        }
        if (epa_has_vertex(&poly, v))
        {
            if (upper < candidate_upper)
            {
                candidate_upper = upper;
                candidate = nearest;
                candidate_support = *v;
                have_candidate = true;
            }
            poly.key[best] = INFINITY; /* explored: it cannot grow (its overlap is an upper bound) */
            continue;
        }
        int iw = epa_add_vertex(&poly, v);
        if (iw < 0)
        {
            status = PX_WARN_CAPACITY;
            break;
        }
        int horizon_count = epa_horizon(&poly, best, v->w, iter + 1, horizon);
        if (horizon_count < 0 || !epa_fan(&poly, iw, horizon, horizon_count))
        {
            /* Capacity, or a topology broken by rounding: report the nearest face we had (its depth is a
             * lower bound within the current gap), with a warning. */
            status = poly.face_count >= PX_EPA_MAX_FACES ? PX_WARN_CAPACITY : PX_WARN_DEGENERATE;
            result->iterations = iter + 1;
            epa_face_result(&poly, &nearest, result);
            result->exit = PXI_EPA_EXIT_BROKEN;
            return status;
        }
    }
    result->iterations = iter;
    if (iter >= max_iterations)
    {
        /* out of iterations: the nearest face now (the one picked last may have been expanded over) */
        int best = epa_nearest_face(&poly);
        have_nearest = best != EPA_NO_FACE;
        if (have_nearest)
        {
            epa_face_unit(&poly, best, &nearest);
        }
        else
        {
            use_candidate = have_candidate;
        }
    }
    if (use_candidate)
    {
        /* the witness points of the candidate face, moved onto the support planes along its normal: the
         * depth becomes the overlap along that normal */
        epa_face_result(&poly, &candidate, result);
        epa_onto_surfaces(&candidate_support, result);
        result->stuck_face = true;
        if (iter >= max_iterations)
        {
            result->exit = PXI_EPA_EXIT_MAX_ITERATIONS;
            return PX_WARN_MAX_ITERATIONS;
        }
        return status;
    }
    if (!have_nearest)
    {
        result->exit = PXI_EPA_EXIT_BROKEN;
        return PX_WARN_DEGENERATE;
    }
    float gap = rel_tolerance * px_maxf(nearest.dist, 0.0f) + floor_abs * poly.scale;
    epa_witness(&poly, &nearest, gap, result);
    if (converged)
    {
        epa_onto_surfaces(nearest_support, result);
    }
    if (iter >= max_iterations)
    {
        result->exit = PXI_EPA_EXIT_MAX_ITERATIONS;
        return PX_WARN_MAX_ITERATIONS;
    }
    return status;
}

/* EPA's arithmetic forms fourth powers of lengths: a face's normal is the cross product of two edges and
 * faces are ranked by its square. Those overflow float from sizes of about 2^31 and sink into subnormals
 * below about 2^-31 (zero normals, then wrong depths: a scale sweep of random hull pairs found both). Pairs
 * whose size lies outside [2^-EPA_SCALE_FREE_EXP, 2^EPA_SCALE_FREE_EXP] are therefore expanded in
 * coordinates multiplied by a power of two, which is exact: the answer is the one at a size near 1, scaled
 * back. */
#define EPA_SCALE_FREE_EXP 20

/* The power of two for a pair (1 inside the range): from the pair's bound of |w| when it has one, from
 * GJK's simplex otherwise (user support functions). */
static float epa_scale_for(const pxi_gjk_pair* pair, const px_simplex* s)
{
    float size = pair->w_bound;
    if (!(size >= 0.0f))
    {
        size = 0.0f;
        for (int i = 0; i < s->count && i < PX_SIMPLEX_MAX_VERTICES; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                size = px_maxf(size, fabsf(s->v[i].w[k]));
            }
        }
    }
    const float lo = ldexpf(1.0f, -EPA_SCALE_FREE_EXP), hi = ldexpf(1.0f, EPA_SCALE_FREE_EXP);
    if (!(size > 0.0f) || !px_is_finite(size) || (size >= lo && size <= hi))
    {
        return 1.0f;
    }
    int e = 0;
    (void)frexpf(size, &e); /* size = m 2^e, 0.5 <= m < 1 */
    /* within [-126, 126], so that both the scale and its inverse are normal floats */
    return ldexpf(1.0f, e > 126 ? -126 : (e > -126 ? -e : 126));
}

px_status pxi_epa_run(const pxi_gjk_pair* pair, const px_simplex* simplex, int max_iterations, float rel_tolerance,
                      pxi_epa_result* result)
{
    epa_shapes shapes;
    epa_shapes_init(&shapes, pair);
    shapes.scale = epa_scale_for(pair, simplex);
    if (PX_LIKELY(shapes.scale == 1.0f))
    {
        return epa_run(&shapes, simplex, max_iterations, rel_tolerance, result);
    }
    px_simplex scaled = *simplex;
    for (int i = 0; i < scaled.count && i < PX_SIMPLEX_MAX_VERTICES; ++i)
    {
        px_v3_scale(scaled.v[i].w, shapes.scale, scaled.v[i].w);
        px_v3_scale(scaled.v[i].p, shapes.scale, scaled.v[i].p);
        px_v3_scale(scaled.v[i].q, shapes.scale, scaled.v[i].q);
    }
    px_status status = epa_run(&shapes, &scaled, max_iterations, rel_tolerance, result);
    const float back = 1.0f / shapes.scale; /* a power of two too: exact */
    px_v3_scale(result->point_a, back, result->point_a);
    px_v3_scale(result->point_b, back, result->point_b);
    result->depth *= back;
    return status;
}
