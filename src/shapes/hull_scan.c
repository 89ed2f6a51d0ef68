/* Hull support by linear scan: the index of the point with the largest dot product with a direction.
 *
 * This is GJK's hot loop for point-cloud hulls. The caller's points are packed xyz (array of structures);
 * the SIMD paths transpose four points at a time into x, y, z registers with five shuffles and keep a
 * running maximum and its index per lane. Every path computes each dot product as (x dx + y dy) + z dz,
 * the same rounding as the scalar code, and breaks ties towards the lowest index, so all paths return
 * the same index bit for bit (the build uses -ffp-contract=off, so no path fuses multiply-adds).
 *
 * Non-finite detection is folded into the scan: (dot - dot) is 0 for finite values and NaN otherwise;
 * OR-ing those bits into an accumulator costs two instructions per vector and catches a NaN or Inf point
 * in any direction, even one that would never be selected.
 *
 * Paths: AVX2 (8 points per step, chosen at run time with __builtin_cpu_supports), SSE2 (4 points, the
 * x86-64 baseline), and scalar elsewhere. */
#include "support_internal.h"

#if defined(__x86_64__) || defined(_M_X64)
#define PXI_HAVE_X86 1
#include <immintrin.h>
#endif

/* Scalar scan of points [begin, count), continuing from (*best, *best_index). Returns false on a
 * non-finite dot product. */
static bool scan_scalar(const float* pts, int begin, int count, const vec3 d, float* best, int32_t* best_index)
{
    float b = *best;
    int32_t bi = *best_index;
    float acc = 0.0f;
    for (int i = begin; i < count; ++i)
    {
        const float* p = pts + 3 * (size_t)i;
        float dot = (p[0] * d[0] + p[1] * d[1]) + p[2] * d[2];
        acc += dot - dot;
        if (dot > b)
        {
            b = dot;
            bi = i;
        }
    }
    *best = b;
    *best_index = bi;
    return acc == 0.0f;
}

#if PXI_HAVE_X86

/* Overall maximum of four lanes and the lowest index that attains it (indices are exact floats). */
static int32_t reduce_sse(__m128 best, __m128 best_idx, float* best_value)
{
    __m128 m = _mm_max_ps(best, _mm_shuffle_ps(best, best, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    /* lanes holding the maximum keep their index, the others +inf; then take the smallest index */
    __m128 eq = _mm_cmpeq_ps(best, m);
    __m128 idx = _mm_or_ps(_mm_and_ps(eq, best_idx), _mm_andnot_ps(eq, _mm_set1_ps(INFINITY)));
    idx = _mm_min_ps(idx, _mm_shuffle_ps(idx, idx, _MM_SHUFFLE(2, 3, 0, 1)));
    idx = _mm_min_ps(idx, _mm_shuffle_ps(idx, idx, _MM_SHUFFLE(1, 0, 3, 2)));
    *best_value = _mm_cvtss_f32(m);
    return (int32_t)_mm_cvtss_f32(idx);
}

static int32_t scan_sse(const float* pts, int count, const vec3 d)
{
    const __m128 dx = _mm_set1_ps(d[0]);
    const __m128 dy = _mm_set1_ps(d[1]);
    const __m128 dz = _mm_set1_ps(d[2]);
    const __m128 four = _mm_set1_ps(4.0f);
    __m128 best = _mm_set1_ps(-INFINITY);
    __m128 best_idx = _mm_setzero_ps();
    __m128 cur_idx = _mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f);
    __m128 bad = _mm_setzero_ps();
    int n4 = count & ~3;
    /* hot loop */
    for (int i = 0; i < n4; i += 4)
    {
        const float* p = pts + 3 * (size_t)i;
        __m128 m0 = _mm_loadu_ps(p);     /* x0 y0 z0 x1 */
        __m128 m1 = _mm_loadu_ps(p + 4); /* y1 z1 x2 y2 */
        __m128 m2 = _mm_loadu_ps(p + 8); /* z2 x3 y3 z3 */
        __m128 xy = _mm_shuffle_ps(m1, m2, _MM_SHUFFLE(2, 1, 3, 2)); /* x2 y2 x3 y3 */
        __m128 yz = _mm_shuffle_ps(m0, m1, _MM_SHUFFLE(1, 0, 2, 1)); /* y0 z0 y1 z1 */
        __m128 x = _mm_shuffle_ps(m0, xy, _MM_SHUFFLE(2, 0, 3, 0));
        __m128 y = _mm_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));
        __m128 z = _mm_shuffle_ps(yz, m2, _MM_SHUFFLE(3, 0, 3, 1));
        __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(x, dx), _mm_mul_ps(y, dy)), _mm_mul_ps(z, dz));
        bad = _mm_or_ps(bad, _mm_sub_ps(dot, dot));
        __m128 gt = _mm_cmpgt_ps(dot, best);
        best = _mm_max_ps(dot, best); /* a NaN dot returns best: NaN is never selected */
        best_idx = _mm_or_ps(_mm_and_ps(gt, cur_idx), _mm_andnot_ps(gt, best_idx));
        cur_idx = _mm_add_ps(cur_idx, four);
    }
    float b;
    int32_t bi = reduce_sse(best, best_idx, &b);
    bool finite = _mm_movemask_ps(_mm_cmpneq_ps(bad, _mm_setzero_ps())) == 0;
    if (n4 < count)
    {
        finite = scan_scalar(pts, n4, count, d, &b, &bi) && finite;
    }
    return finite ? bi : PXI_SUPPORT_NON_FINITE;
}

/* Dot products of eight packed points with d (broadcast in dx, dy, dz): the points transposed per 128-bit
 * half, so lane k holds point k (points 0..3 in the low half, 4..7 in the high half), each dot formed as
 * (x dx + y dy) + z dz. */
__attribute__((target("avx2"))) static inline __m256 dot8_avx2(const float* p, __m256 dx, __m256 dy, __m256 dz)
{
    __m256 m03 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p)), _mm_loadu_ps(p + 12), 1);
    __m256 m14 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 4)), _mm_loadu_ps(p + 16), 1);
    __m256 m25 = _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(p + 8)), _mm_loadu_ps(p + 20), 1);
    __m256 xy = _mm256_shuffle_ps(m14, m25, _MM_SHUFFLE(2, 1, 3, 2));
    __m256 yz = _mm256_shuffle_ps(m03, m14, _MM_SHUFFLE(1, 0, 2, 1));
    __m256 x = _mm256_shuffle_ps(m03, xy, _MM_SHUFFLE(2, 0, 3, 0));
    __m256 y = _mm256_shuffle_ps(yz, xy, _MM_SHUFFLE(3, 1, 2, 0));
    __m256 z = _mm256_shuffle_ps(yz, m25, _MM_SHUFFLE(3, 0, 3, 1));
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(x, dx), _mm256_mul_ps(y, dy)), _mm256_mul_ps(z, dz));
}

__attribute__((target("avx2"))) static int32_t scan_avx2(const float* pts, int count, const vec3 d)
{
    const __m256 dx = _mm256_set1_ps(d[0]);
    const __m256 dy = _mm256_set1_ps(d[1]);
    const __m256 dz = _mm256_set1_ps(d[2]);
    const __m256 eight = _mm256_set1_ps(8.0f);
    __m256 best = _mm256_set1_ps(-INFINITY);
    __m256 best_idx = _mm256_setzero_ps();
    /* lane order after the per-128-bit transpose: points 0..3 in the low half, 4..7 in the high half */
    __m256 cur_idx = _mm256_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f);
    __m256 bad = _mm256_setzero_ps();
    int n8 = count & ~7;
    /* hot loop: 6 loads, 5 shuffles, 5 arithmetic, 5 bookkeeping per 8 points */
    for (int i = 0; i < n8; i += 8)
    {
        __m256 dot = dot8_avx2(pts + 3 * (size_t)i, dx, dy, dz);
        bad = _mm256_or_ps(bad, _mm256_sub_ps(dot, dot));
        __m256 gt = _mm256_cmp_ps(dot, best, _CMP_GT_OQ);
        best = _mm256_max_ps(dot, best); /* a NaN dot returns best: NaN is never selected */
        best_idx = _mm256_blendv_ps(best_idx, cur_idx, gt);
        cur_idx = _mm256_add_ps(cur_idx, eight);
    }
    /* fold the two halves lane by lane, lowest index on ties (either half may hold it), then reduce four */
    __m128 lo = _mm256_castps256_ps128(best), hi = _mm256_extractf128_ps(best, 1);
    __m128 lo_i = _mm256_castps256_ps128(best_idx), hi_i = _mm256_extractf128_ps(best_idx, 1);
    __m128 take_hi = _mm_or_ps(_mm_cmpgt_ps(hi, lo), _mm_and_ps(_mm_cmpeq_ps(hi, lo), _mm_cmplt_ps(hi_i, lo_i)));
    __m128 best4 = _mm_max_ps(hi, lo);
    __m128 idx4 = _mm_blendv_ps(lo_i, hi_i, take_hi);
    float b;
    int32_t bi = reduce_sse(best4, idx4, &b);
    bool finite = _mm256_movemask_ps(_mm256_cmp_ps(bad, _mm256_setzero_ps(), _CMP_NEQ_UQ)) == 0;
    if (n8 < count)
    {
        finite = scan_scalar(pts, n8, count, d, &b, &bi) && finite;
    }
    return finite ? bi : PXI_SUPPORT_NON_FINITE;
}

/* Exactly eight points (a box, a wedge pair: the most common small hull) in one vector: the maximum in
 * every lane, then the first lane that holds it. No index bookkeeping, no lane-by-lane reduction. */
__attribute__((target("avx2"))) static int32_t scan8_avx2(const float* pts, int count, const vec3 d)
{
    (void)count;
    __m256 dot = dot8_avx2(pts, _mm256_set1_ps(d[0]), _mm256_set1_ps(d[1]), _mm256_set1_ps(d[2]));
    if (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_sub_ps(dot, dot), _mm256_setzero_ps(), _CMP_NEQ_UQ)) != 0)
    {
        return PXI_SUPPORT_NON_FINITE;
    }
    __m256 m = _mm256_max_ps(dot, _mm256_permute2f128_ps(dot, dot, 1));
    m = _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    /* lane k holds point k (points 0..3 in the low half, 4..7 in the high half) */
    return (int32_t)__builtin_ctz((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(dot, m, _CMP_EQ_OQ)));
}

#endif /* PXI_HAVE_X86 */

pxi_hull_scan_fn pxi_hull_scan_select(int count)
{
#if PXI_HAVE_X86
    /* float lane indices are exact below 2^24 points */
    if (count >= 8 && count < (1 << 24))
    {
        if (__builtin_cpu_supports("avx2"))
        {
            return count == 8 ? scan8_avx2 : scan_avx2;
        }
        return scan_sse;
    }
#else
    (void)count;
#endif
    return pxi_hull_scan_scalar;
}

int32_t pxi_hull_scan_scalar(const float* points, int count, const vec3 d)
{
    float best = -INFINITY;
    int32_t best_index = 0;
    if (!scan_scalar(points, 0, count, d, &best, &best_index))
    {
        return PXI_SUPPORT_NON_FINITE;
    }
    return best_index;
}

int32_t pxi_hull_scan(const float* points, int count, const vec3 d)
{
    return pxi_hull_scan_select(count)(points, count, d);
}
