/* Two boxes by their separating axes, shared by the contact query (contact.c) and the box-box manifold
 * (manifold_box.c), so that both read the same depth, axis and witness points off the same arithmetic.
 *
 * Everything is in A's frame: A is centred at the origin with its axes e_i, B is at t with its axes c_j
 * (the columns of B's rotation). The 15 candidate axes are numbered as follows:
 *   0..2   A's face normals e_k
 *   3..5   B's face normals c_(k - 3)
 *   6..14  edge pairs e_i x c_j, k = 6 + 3 i + j
 * Along each, the overlap is (extent of A + extent of B) - |separation of the centres|, in closed form
 * (Gottschalk's OBB test, as in Ericson, RTCD 4.4.1), divided by the axis length for the edge pairs. It is
 * the depth of the overlap along that axis when positive and a separation (a lower bound of the distance)
 * when negative. Also here: the contact query's config check, which the manifold's box path needs too
 * because it answers without calling px_contact_relative. */
#pragma once

#include "../core/px_math.h"

#include "proxima/contact.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#endif

/* Edge axes e_i x c_j shorter than this (squared, unit axes) are parallel edges: the face axes cover their
 * direction, and dividing by the length would blow up the rounding. */
#define PXI_BOX_PARALLEL_EDGES 1.0e-10f

/* The set-up of one pair of boxes. */
typedef struct pxi_box_sat
{
    const float* ha;   /* A's half extents */
    const float* hb;   /* B's half extents */
    const px_rot* rb;  /* B's axes in A's frame (columns) */
    const float* t;    /* B's centre in A's frame */
    float R[3][3];     /* R[i][j] = e_i . c_j: B's axes c_j in A's frame */
    float abs_r[3][3]; /* |R[i][j]| */
    float t_b[3];      /* B's centre along B's axes */
    float scale;       /* largest half extent of either box [Units: length] */
} pxi_box_sat;

/* Fill the set-up but for R and abs_r (what pxi_box_sat_overlaps needs with SSE2). */
static inline void pxi_box_sat_init_base(const float* ha, const float* hb, const px_rot* rb, const float* t,
                                         pxi_box_sat* s)
{
    s->ha = ha;
    s->hb = hb;
    s->rb = rb;
    s->t = t;
    s->scale = px_maxf(px_maxf(ha[0], px_maxf(ha[1], ha[2])), px_maxf(hb[0], px_maxf(hb[1], hb[2])));
    for (int j = 0; j < 3; ++j)
    {
        s->t_b[j] = px_v3_dot(t, rb->c[j]);
    }
}

/* Fill the set-up. The pointers must outlive it. */
static inline void pxi_box_sat_init(const float* ha, const float* hb, const px_rot* rb, const float* t,
                                    pxi_box_sat* s)
{
    pxi_box_sat_init_base(ha, hb, rb, t, s);
    for (int i = 0; i < 3; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            s->R[i][j] = rb->c[j][i];
            s->abs_r[i][j] = fabsf(s->R[i][j]);
        }
    }
}

/* Overlap of the boxes along axis k (0..14, numbered as above), per unit length of the axis; +INFINITY for
 * an edge pair whose edges are parallel (no axis: nothing to test). Always inlined: called with a constant
 * k, the index arithmetic and the branches fold away. */
PX_INLINE float pxi_box_sat_overlap(const pxi_box_sat* s, int k)
{
    const float* ha = s->ha;
    const float* hb = s->hb;
    const float* t = s->t;
    if (k < 3)
    {
        return ha[k] + (hb[0] * s->abs_r[k][0] + hb[1] * s->abs_r[k][1] + hb[2] * s->abs_r[k][2]) -
               fabsf(t[k]);
    }
    if (k < 6)
    {
        int j = k - 3;
        return (ha[0] * s->abs_r[0][j] + ha[1] * s->abs_r[1][j] + ha[2] * s->abs_r[2][j]) + hb[j] -
               fabsf(s->t_b[j]);
    }
    int i = (k - 6) / 3, j = (k - 6) % 3;
    int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    /* |e_i x c_j|^2 */
    float ll = s->R[i1][j] * s->R[i1][j] + s->R[i2][j] * s->R[i2][j];
    if (!(ll > PXI_BOX_PARALLEL_EDGES))
    {
        return INFINITY;
    }
    float ra = ha[i1] * s->abs_r[i2][j] + ha[i2] * s->abs_r[i1][j];
    float rbe = hb[j1] * s->abs_r[i][j2] + hb[j2] * s->abs_r[i][j1];
    float sep = fabsf(t[i2] * s->R[i1][j] - t[i1] * s->R[i2][j]);
    return (ra + rbe - sep) / sqrtf(ll);
}

/* 1 when pxi_box_sat_overlaps uses SSE2 (it then needs only pxi_box_sat_init_base), else 0. */
#if defined(__SSE2__) || defined(_M_X64)
#define PXI_BOX_SAT_VECTOR 1
#else
#define PXI_BOX_SAT_VECTOR 0
#endif

/* Slots of pxi_box_sat_overlaps: five groups of four, group g holding axes 3 g .. 3 g + 2 in its first three
 * slots and +INFINITY (padding) in the fourth. Axis k is in slot k + k / 3; slot i holds axis i - i / 4. */
#define PXI_BOX_SAT_SLOTS 20

/* The overlaps along all 15 axes in slots (above): the axis-k slot holds pxi_box_sat_overlap(s, k) bit for
 * bit. Hot: the box-box manifold needs every axis. With SSE2 each group is one vector (A's faces, B's faces,
 * the edge pairs of e_0, e_1, e_2), each lane doing the scalar formula's operations in the scalar order;
 * IEEE arithmetic rounds each lane as it rounds the scalar, so the results are identical. One aligned-size
 * store per group lets a reader load the groups back as vectors without stalling. */
static inline void pxi_box_sat_overlaps(const pxi_box_sat* s, float o[PXI_BOX_SAT_SLOTS])
{
#if PXI_BOX_SAT_VECTOR
    const px_rot* rb = s->rb;
    const __m128 sign = _mm_set1_ps(-0.0f), inf = _mm_set1_ps(INFINITY);
    const __m128 pad = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1)); /* the fourth lane */
    /* the columns c_j of B's rotation (B's axes in A's frame), lanes x, y, z */
    __m128 c0 = _mm_setr_ps(rb->c[0][0], rb->c[0][1], rb->c[0][2], 0.0f);
    __m128 c1 = _mm_setr_ps(rb->c[1][0], rb->c[1][1], rb->c[1][2], 0.0f);
    __m128 c2 = _mm_setr_ps(rb->c[2][0], rb->c[2][1], rb->c[2][2], 0.0f);
    __m128 c3 = _mm_setzero_ps();
    const __m128 ac0 = _mm_andnot_ps(sign, c0), ac1 = _mm_andnot_ps(sign, c1), ac2 = _mm_andnot_ps(sign, c2);
    const __m128 ha = _mm_setr_ps(s->ha[0], s->ha[1], s->ha[2], 0.0f);
    const __m128 hb = _mm_setr_ps(s->hb[0], s->hb[1], s->hb[2], 0.0f);
    /* A's faces, lane k: ha[k] + (hb0 |R[k][0]| + hb1 |R[k][1]| + hb2 |R[k][2]|) - |t[k]| */
    __m128 sum = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(s->hb[0]), ac0), _mm_mul_ps(_mm_set1_ps(s->hb[1]), ac1));
    sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(s->hb[2]), ac2));
    __m128 t = _mm_setr_ps(s->t[0], s->t[1], s->t[2], 0.0f);
    __m128 v = _mm_sub_ps(_mm_add_ps(ha, sum), _mm_andnot_ps(sign, t));
    _mm_storeu_ps(o, _mm_or_ps(_mm_andnot_ps(pad, v), _mm_and_ps(pad, inf)));
    /* the rows of R (lane j: R[i][j]) */
    _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
    const __m128 r[3] = { c0, c1, c2 };
    const __m128 ar[3] = { _mm_andnot_ps(sign, c0), _mm_andnot_ps(sign, c1), _mm_andnot_ps(sign, c2) };
    /* B's faces, lane j: (ha0 |R[0][j]| + ha1 |R[1][j]| + ha2 |R[2][j]|) + hb[j] - |t_b[j]| */
    sum = _mm_add_ps(_mm_mul_ps(_mm_set1_ps(s->ha[0]), ar[0]), _mm_mul_ps(_mm_set1_ps(s->ha[1]), ar[1]));
    sum = _mm_add_ps(sum, _mm_mul_ps(_mm_set1_ps(s->ha[2]), ar[2]));
    __m128 tb = _mm_setr_ps(s->t_b[0], s->t_b[1], s->t_b[2], 0.0f);
    v = _mm_sub_ps(_mm_add_ps(sum, hb), _mm_andnot_ps(sign, tb));
    _mm_storeu_ps(o + 4, _mm_or_ps(_mm_andnot_ps(pad, v), _mm_and_ps(pad, inf)));
    /* edge pairs e_i x c_j, lane j; (j1, j2) = (j + 1, j + 2) mod 3 are lane rotations */
    const __m128 hb1 = _mm_shuffle_ps(hb, hb, _MM_SHUFFLE(3, 0, 2, 1)); /* hb[j1] */
    const __m128 hb2 = _mm_shuffle_ps(hb, hb, _MM_SHUFFLE(3, 1, 0, 2)); /* hb[j2] */
    const __m128 parallel = _mm_set1_ps(PXI_BOX_PARALLEL_EDGES);
    for (int i = 0; i < 3; ++i)
    {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        __m128 ll = _mm_add_ps(_mm_mul_ps(r[i1], r[i1]), _mm_mul_ps(r[i2], r[i2]));
        __m128 ra = _mm_mul_ps(_mm_set1_ps(s->ha[i1]), ar[i2]);
        ra = _mm_add_ps(ra, _mm_mul_ps(_mm_set1_ps(s->ha[i2]), ar[i1]));
        __m128 arj1 = _mm_shuffle_ps(ar[i], ar[i], _MM_SHUFFLE(3, 0, 2, 1)); /* |R[i][j1]| */
        __m128 arj2 = _mm_shuffle_ps(ar[i], ar[i], _MM_SHUFFLE(3, 1, 0, 2)); /* |R[i][j2]| */
        __m128 rbe = _mm_add_ps(_mm_mul_ps(hb1, arj2), _mm_mul_ps(hb2, arj1));
        __m128 sep = _mm_andnot_ps(sign, _mm_sub_ps(_mm_mul_ps(_mm_set1_ps(s->t[i2]), r[i1]),
                                                    _mm_mul_ps(_mm_set1_ps(s->t[i1]), r[i2])));
        v = _mm_div_ps(_mm_sub_ps(_mm_add_ps(ra, rbe), sep), _mm_sqrt_ps(ll));
        __m128 ok = _mm_cmpgt_ps(ll, parallel); /* false for parallel edges, NaN and the padding lane */
        _mm_storeu_ps(o + 8 + 4 * i, _mm_or_ps(_mm_and_ps(ok, v), _mm_andnot_ps(ok, inf)));
    }
#else
    for (int i = 0; i < PXI_BOX_SAT_SLOTS; ++i)
    {
        o[i] = (i & 3) == 3 ? INFINITY : pxi_box_sat_overlap(s, i - i / 4);
    }
#endif
}

/* The overlap of axis k as the axis choice compares it: faces win ties, an edge axis must be smaller by a
 * relative margin (and an absolute one at the boxes' scale) to be chosen, so that a face contact is not
 * taken for an edge one by rounding. */
static inline float pxi_box_sat_biased(const pxi_box_sat* s, int k, float overlap)
{
    return k < 6 ? overlap : overlap * (1.0f + 1.0e-5f) + 1.0e-6f * s->scale;
}

/* Unit axis k in A's frame (not oriented). */
static inline void pxi_box_sat_axis(const pxi_box_sat* s, int k, vec3 dest)
{
    if (k < 3)
    {
        /* lane by lane: a store at a variable index into a zeroed vector stalls the loads that follow */
        dest[0] = k == 0 ? 1.0f : 0.0f;
        dest[1] = k == 1 ? 1.0f : 0.0f;
        dest[2] = k == 2 ? 1.0f : 0.0f;
    }
    else if (k < 6)
    {
        px_v3_copy(s->rb->c[k - 3], dest);
    }
    else
    {
        vec3 ea = { 0.0f, 0.0f, 0.0f };
        ea[(k - 6) / 3] = 1.0f;
        px_v3_cross(ea, s->rb->c[(k - 6) % 3], dest);
        px_v3_scale(dest, 1.0f / px_v3_norm(dest), dest);
    }
}

/* Overlap of the boxes along any axis l (frame A): (extent of A + extent of B) - |separation of centres|,
 * all along l (unnormalized). */
static inline float pxi_box_overlap(const pxi_box_sat* s, const vec3 l)
{
    const float* ha = s->ha;
    const float* hb = s->hb;
    const px_rot* rb = s->rb;
    float ra = ha[0] * fabsf(l[0]) + ha[1] * fabsf(l[1]) + ha[2] * fabsf(l[2]);
    float rbx = hb[0] * fabsf(px_v3_dot(rb->c[0], l)) + hb[1] * fabsf(px_v3_dot(rb->c[1], l)) +
                hb[2] * fabsf(px_v3_dot(rb->c[2], l));
    return ra + rbx - fabsf(px_v3_dot(s->t, l));
}

/* Vertex of a box (frame of the box) extreme along d; coordinates with d = 0 take the + side. */
static inline void pxi_box_support(const float* h, const vec3 d, vec3 dest)
{
    for (int i = 0; i < 3; ++i)
    {
        dest[i] = d[i] >= 0.0f ? h[i] : -h[i];
    }
}

/* pxi_closest_segment_segment with its parameters solved in double. */
static inline void pxi_closest_segment_segment_double(const vec3 p1, const vec3 q1, const vec3 p2, const vec3 q2,
                                               vec3 c1, vec3 c2)
{
    vec3 d1, d2;
    px_v3_sub(q1, p1, d1);
    px_v3_sub(q2, p2, d2);
    double dd1[3], dd2[3], r[3];
    for (int k = 0; k < 3; ++k)
    {
        dd1[k] = d1[k];
        dd2[k] = d2[k];
        r[k] = (double)p1[k] - (double)p2[k];
    }
    double a = dd1[0] * dd1[0] + dd1[1] * dd1[1] + dd1[2] * dd1[2];
    double e = dd2[0] * dd2[0] + dd2[1] * dd2[1] + dd2[2] * dd2[2];
    double f = dd2[0] * r[0] + dd2[1] * r[1] + dd2[2] * r[2];
    double s, t;
    if (!(a > 0.0) && !(e > 0.0))
    {
        s = t = 0.0;
    }
    else if (!(a > 0.0))
    {
        s = 0.0;
        t = fmin(fmax(f / e, 0.0), 1.0);
    }
    else
    {
        double c = dd1[0] * r[0] + dd1[1] * r[1] + dd1[2] * r[2];
        if (!(e > 0.0))
        {
            t = 0.0;
            s = fmin(fmax(-c / a, 0.0), 1.0);
        }
        else
        {
            double b = dd1[0] * dd2[0] + dd1[1] * dd2[1] + dd1[2] * dd2[2];
            double denom = a * e - b * b; /* >= 0; 0 when parallel */
            /* parallel (within float's rounding of the inputs): any s works; take 0 and let t and the
             * re-clamp of s decide */
            s = denom > 1.0e-12 * a * e ? fmin(fmax((b * f - c * e) / denom, 0.0), 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0)
            {
                t = 0.0;
                s = fmin(fmax(-c / a, 0.0), 1.0);
            }
            else if (t > 1.0)
            {
                t = 1.0;
                s = fmin(fmax((b - c) / a, 0.0), 1.0);
            }
        }
    }
    px_v3_mad(p1, (float)s, d1, c1);
    px_v3_mad(p2, (float)t, d2, c2);
}


/* pxi_closest_segment_segment in float, for segments whose fourth powers of lengths stay normal floats.
 * The unclamped s is -(d2 x n) . r / |n|^2 with n = d1 x d2, which is Ericson's (b f - c e) / (a e - b^2)
 * rearranged: for nearly parallel segments the products b f, c e, a e and b^2 cancel to sin^2 of their
 * angle, and in float kept a relative error of eps / sin^2, which moved s along the segment by as much and
 * the points apart sideways by that times the sine; the cross products lose only eps / sin, and the points
 * then eps of the coordinates. Crossing segments 31 and 12 long, 0.006 rad apart, had read 4.5e-4 apart
 * (1.6e-5 of the size; contact_sign at PX_TEST_SEED=234), and one pair in five of random nearly parallel
 * capsules more than 1e-5 of the size off (parallel_capsules: now within 1e-6 of it). */
static inline void pxi_closest_segment_segment_float(const vec3 p1, const vec3 q1, const vec3 p2, const vec3 q2,
                                               vec3 c1, vec3 c2)
{
    vec3 d1, d2, r;
    px_v3_sub(q1, p1, d1);
    px_v3_sub(q2, p2, d2);
    px_v3_sub(p1, p2, r);
    float a = px_v3_norm2(d1), e = px_v3_norm2(d2), f = px_v3_dot(d2, r);
    float s, t;
    if (!(a > 0.0f) && !(e > 0.0f))
    {
        s = t = 0.0f;
    }
    else if (!(a > 0.0f))
    {
        s = 0.0f;
        t = px_clampf(f / e, 0.0f, 1.0f);
    }
    else
    {
        float c = px_v3_dot(d1, r);
        if (!(e > 0.0f))
        {
            t = 0.0f;
            s = px_clampf(-c / a, 0.0f, 1.0f);
        }
        else
        {
            float b = px_v3_dot(d1, d2);
            vec3 n, m;
            px_v3_cross(d1, d2, n);
            px_v3_cross(d2, n, m);
            const float denom = px_v3_norm2(n); /* a e - b^2: 0 when parallel */
            /* parallel (within rounding): any s works; take 0 and let t and the re-clamp of s decide */
            s = denom > 1.0e-12f * a * e ? px_clampf(-px_v3_dot(m, r) / denom, 0.0f, 1.0f) : 0.0f;
            t = (b * s + f) / e;
            if (t < 0.0f)
            {
                t = 0.0f;
                s = px_clampf(-c / a, 0.0f, 1.0f);
            }
            else if (t > 1.0f)
            {
                t = 1.0f;
                s = px_clampf((b - c) / a, 0.0f, 1.0f);
            }
        }
    }
    px_v3_mad(p1, s, d1, c1);
    px_v3_mad(p2, t, d2, c2);
}

/* Closest points c1 on segment p1-q1 and c2 on p2-q2 (Ericson, RTCD 5.1.9, with the parallel and
 * degenerate cases taken explicitly). Either segment may be a point. The parallel test compares fourth
 * powers of lengths, which in float overflow from lengths of about 2^31 and vanish below about 2^-31 (a
 * scale sweep of capsule pairs met both: crossing segments taken for parallel ones), so segments longer
 * than 2^24 or shorter than 2^-24 (but not points), or farther apart than 2^24, are solved in double; the
 * float code, as fast as before, takes the rest. */
static inline void pxi_closest_segment_segment(const vec3 p1, const vec3 q1, const vec3 p2, const vec3 q2,
                                               vec3 c1, vec3 c2)
{
    float l1 = 0.0f, l2 = 0.0f, o = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        l1 = px_maxf(l1, fabsf(q1[k] - p1[k]));
        l2 = px_maxf(l2, fabsf(q2[k] - p2[k]));
        o = px_maxf(o, fabsf(p1[k] - p2[k]));
    }
    const bool l1_ok = l1 == 0.0f || (l1 >= 0x1p-24f && l1 <= 0x1p24f);
    const bool l2_ok = l2 == 0.0f || (l2 >= 0x1p-24f && l2 <= 0x1p24f);
    if (PX_LIKELY(l1_ok && l2_ok && o <= 0x1p24f))
    {
        pxi_closest_segment_segment_float(p1, q1, p2, q2, c1, c2);
    }
    else
    {
        pxi_closest_segment_segment_double(p1, q1, p2, q2, c1, c2);
    }
}

/* The supporting edges of edge axis k (6..14) for unit normal n (A to B), frame A: A's edge a0-a1 along e_i
 * through A's corner farthest along n, and B's edge b0-b1 along c_j through B's corner farthest along -n. */
static inline void pxi_box_edge_segments(const pxi_box_sat* s, int k, const vec3 n, vec3 a0, vec3 a1, vec3 b0,
                                         vec3 b1)
{
    const float* ha = s->ha;
    const float* hb = s->hb;
    const px_rot* rb = s->rb;
    int ia = (k - 6) / 3, ib = (k - 6) % 3;
    vec3 va, nb, vb, d;
    pxi_box_support(ha, n, va);
    px_v3_copy(va, a0);
    px_v3_copy(va, a1);
    a0[ia] = -ha[ia];
    a1[ia] = ha[ia];
    px_v3_negate(n, d);
    px_rot_tmulv(rb, d, nb);
    pxi_box_support(hb, nb, vb);
    vec3 lb0, lb1;
    px_v3_copy(vb, lb0);
    px_v3_copy(vb, lb1);
    lb0[ib] = -hb[ib];
    lb1[ib] = hb[ib];
    px_rot_mulv(rb, lb0, b0);
    px_rot_mulv(rb, lb1, b1);
    px_v3_add(b0, s->t, b0);
    px_v3_add(b1, s->t, b1);
}

/* Witness points on the cores for overlapping boxes, axis k, unit normal n (A to B) and depth (> 0 when
 * the cores overlap; the formulas hold for a separation, depth < 0, too):
 * pa on A's surface, pb = pa - depth * n on B's.
 *  - face of A: B's deepest vertex, lifted onto A's face plane and kept within the face (when B overhangs
 *    A's edge the lifted vertex would leave A's surface);
 *  - face of B: A's deepest vertex into B, kept within B's face the same way;
 *  - edge pair: the closest points of the two supporting edges. */
static inline void pxi_box_witness(const pxi_box_sat* s, int k, const vec3 n, float depth, vec3 pa, vec3 pb)
{
    const float* ha = s->ha;
    const float* hb = s->hb;
    const px_rot* rb = s->rb;
    const float* t = s->t;
    if (k < 3)
    {
        vec3 d, nb, v;
        px_v3_negate(n, d);
        px_rot_tmulv(rb, d, nb);
        pxi_box_support(hb, nb, v);
        px_rot_mulv(rb, v, pb);
        px_v3_add(pb, t, pb);
        px_v3_mad(pb, depth, n, pa);
        for (int i = 0; i < 3; ++i)
        {
            pa[i] = px_clampf(pa[i], -ha[i], ha[i]);
        }
    }
    else if (k < 6)
    {
        pxi_box_support(ha, n, pa);
        vec3 local, rel;
        px_v3_sub(pa, t, rel);
        px_rot_tmulv(rb, rel, local);
        vec3 lifted;
        px_rot_tmulv(rb, n, rel); /* n in B's frame */
        px_v3_mad(local, -depth, rel, lifted);
        for (int i = 0; i < 3; ++i)
        {
            lifted[i] = px_clampf(lifted[i], -hb[i], hb[i]);
        }
        px_rot_mulv(rb, lifted, pb);
        px_v3_add(pb, t, pb);
        px_v3_mad(pb, depth, n, pa);
    }
    else
    {
        vec3 a0, a1, b0, b1, cb;
        pxi_box_edge_segments(s, k, n, a0, a1, b0, b1);
        pxi_closest_segment_segment(a0, a1, b0, b1, pa, cb);
        px_v3_mad(pa, -depth, n, pb);
    }
}

/* Whether the witness pair pxi_box_witness gave lies on the boxes: pa within A (frame A) and pa - depth n
 * within B, to 1e-5 of the boxes' scale (rounding, and the pair's few ulps of clamping, stay far below it).
 * The axis choice prefers a face to an edge pair whose overlap is smaller by less than 1e-6 of the scale;
 * along such a face axis the depth is realized by no pair of points over the face, and the witness is then
 * clamped away from the other box: two boxes 3151 and 2000 long, their long edges crossing nearly
 * parallel, read 0.00283 deep for the true 0.00247 (1e-7 of the scale, as designed) with point_b 113 units
 * outside B (contact_accuracy at PX_TEST_SEED 28). The caller then leaves the pair to GJK and EPA. */
static inline bool pxi_box_witness_on_boxes(const pxi_box_sat* s, const vec3 n, float depth, const vec3 pa)
{
    const float tol = 1.0e-5f * s->scale;
    vec3 pb, local;
    px_v3_mad(pa, -depth, n, pb);
    px_v3_sub(pb, s->t, pb);
    px_rot_tmulv(s->rb, pb, local);
    for (int i = 0; i < 3; ++i)
    {
        if (!(fabsf(pa[i]) <= s->ha[i] + tol) || !(fabsf(local[i]) <= s->hb[i] + tol))
        {
            return false; /* NaN too */
        }
    }
    return true;
}

/* Status of a contact config: PX_OK for NULL (defaults) or a usable one, else PX_ERR_INVALID_ARGUMENT. */
static inline px_status pxi_contact_config_status(const px_contact_config* config)
{
    if (config == NULL)
    {
        return PX_OK;
    }
    const px_gjk_config* g = &config->gjk;
    if (g->max_iterations <= 0 || !(g->rel_tolerance > 0.0f) || !(g->abs_tolerance >= 0.0f) ||
        !px_is_finite(g->rel_tolerance) || !px_is_finite(g->abs_tolerance) ||
        config->epa_max_iterations <= 0 || !(config->epa_rel_tolerance > 0.0f) ||
        !px_is_finite(config->epa_rel_tolerance))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    return PX_OK;
}
