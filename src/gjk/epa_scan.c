/* EPA's hull scans on transposed copies of point clouds (see epa_internal.h).
 *
 * EPA asks for a support of A - B once per iteration, 15 to 30 times per query on large hulls, and a
 * point-cloud hull answers by scanning all its points. The caller's points are packed xyz, which the
 * shape's own scan (hull_scan.c) transposes four or eight points at a time on every call. EPA transposes
 * them once per query into x[], y[], z[] blocks on its stack instead (PXI_EPA_SOA_POINTS for both shapes,
 * no allocation), and the scans here then only load, multiply, add and compare: about twice as fast from
 * 64 points on. The dot products are formed as the shapes' scan forms them, (x dx + y dy) + z dz without
 * fused multiply-adds, ties go to the lowest index, and a non-finite dot product is reported, so the index
 * found is the one pxi_hull_scan finds, bit for bit (tests/test_epa.c).
 *
 * Paths: AVX2 (eight points a step, chosen at run time), SSE2 (four, the x86-64 baseline), scalar. */
#include "epa_internal.h"

/* Define PX_EPA_SCALAR to build the scalar code alone (to test it). */
#if (defined(__SSE2__) || defined(_M_X64)) && !defined(PX_EPA_SCALAR)
#define PXI_EPA_SSE 1
#include <emmintrin.h>
#else
#define PXI_EPA_SSE 0
#endif
/* AVX2 through the target attribute and a cpu check (GCC and Clang). */
#if PXI_EPA_SSE && (defined(__GNUC__) || defined(__clang__))
#define PXI_EPA_AVX2 1
#include <immintrin.h>
#else
#define PXI_EPA_AVX2 0
#endif

bool pxi_epa_soa_from_packed(const float* points, int count, float* soa)
{
    float* xs = soa;
    float* ys = soa + count;
    float* zs = soa + 2 * count;
    int i = 0;
    float bad = 0.0f;
#if PXI_EPA_SSE
    __m128 bad4 = _mm_setzero_ps();
    for (; i + 4 <= count; i += 4)
    {
        /* a = (x0 y0 z0 x1), b = (y1 z1 x2 y2), c = (z2 x3 y3 z3) */
        const float* p = points + 3 * (size_t)i;
        const __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
        /* x - x is 0 for finite x, NaN otherwise */
        bad4 = _mm_or_ps(bad4, _mm_or_ps(_mm_sub_ps(a, a), _mm_or_ps(_mm_sub_ps(b, b), _mm_sub_ps(c, c))));
        const __m128 x2y2x3y3 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 1, 3, 2));
        const __m128 y0z0y1z1 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 0, 2, 1));
        _mm_storeu_ps(xs + i, _mm_shuffle_ps(a, x2y2x3y3, _MM_SHUFFLE(2, 0, 3, 0)));
        _mm_storeu_ps(ys + i, _mm_shuffle_ps(y0z0y1z1, x2y2x3y3, _MM_SHUFFLE(3, 1, 2, 0)));
        _mm_storeu_ps(zs + i, _mm_shuffle_ps(y0z0y1z1, c, _MM_SHUFFLE(3, 0, 3, 1)));
    }
    bad = _mm_movemask_ps(_mm_cmpneq_ps(bad4, _mm_setzero_ps())) != 0 ? NAN : 0.0f;
#endif
    for (; i < count; ++i)
    {
        xs[i] = points[3 * (size_t)i];
        ys[i] = points[3 * (size_t)i + 1];
        zs[i] = points[3 * (size_t)i + 2];
        bad += (xs[i] - xs[i]) + (ys[i] - ys[i]) + (zs[i] - zs[i]);
    }
    return bad == 0.0f;
}

/* Scalar scan of points [begin, count) continuing from (*best, *best_index); false on a non-finite dot. */
static bool soa_scan_tail(const float* soa, int count, int begin, const vec3 d, float* best, int32_t* best_index)
{
    const float* xs = soa;
    const float* ys = soa + count;
    const float* zs = soa + 2 * count;
    bool finite = true;
    for (int i = begin; i < count; ++i)
    {
        float dot = (xs[i] * d[0] + ys[i] * d[1]) + zs[i] * d[2];
        finite = finite && (dot - dot) == 0.0f;
        if (dot > *best)
        {
            *best = dot;
            *best_index = i;
        }
    }
    return finite;
}

#if PXI_EPA_SSE
/* Lane by lane, (value, index) of b where b beats a (larger, or equal with a lower index), else of a.
 * Branch-free: which lane wins is data, and branching on it would mispredict. */
static inline void soa_pick(__m128 a, __m128 ai, __m128 b, __m128 bi, __m128* dest, __m128* dest_index)
{
    const __m128 take = _mm_or_ps(_mm_cmpgt_ps(b, a), _mm_and_ps(_mm_cmpeq_ps(b, a), _mm_cmplt_ps(bi, ai)));
    *dest = _mm_or_ps(_mm_and_ps(take, b), _mm_andnot_ps(take, a));
    *dest_index = _mm_or_ps(_mm_and_ps(take, bi), _mm_andnot_ps(take, ai));
}

/* The best of four lanes (largest value, lowest index on ties). */
static inline void soa_reduce4(__m128 v, __m128 vi, float* best, int32_t* best_index)
{
    soa_pick(v, vi, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)), _mm_shuffle_ps(vi, vi, _MM_SHUFFLE(1, 0, 3, 2)), &v,
             &vi);
    soa_pick(v, vi, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)), _mm_shuffle_ps(vi, vi, _MM_SHUFFLE(2, 3, 0, 1)), &v,
             &vi);
    *best = _mm_cvtss_f32(v);
    *best_index = (int32_t)_mm_cvtss_f32(vi);
}
#endif

#if PXI_EPA_AVX2
/* Dot products of eight transposed points with d (broadcast in dx, dy, dz), as (x dx + y dy) + z dz. */
__attribute__((target("avx2"))) static inline __m256 soa_dot8(const float* xs, const float* ys, const float* zs,
                                                              __m256 dx, __m256 dy, __m256 dz)
{
    return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(xs), dx), _mm256_mul_ps(_mm256_loadu_ps(ys), dy)),
                         _mm256_mul_ps(_mm256_loadu_ps(zs), dz));
}

/* Copies of exactly eight points (a box's corners: EPA's most common small hull) in one vector: the maximum
 * in every lane, then the first lane that holds it (equal compares find it: +0 and -0 compare equal, as in
 * the one-pass scan). No index bookkeeping and no lane-by-lane reduction. (A two-pass version for 16 points,
 * the maximum and then a search for its first lane, lost more to the search's branch than it saved:
 * bench_contact, 1.83x -> 1.67x Bullet at N = 16.) */
__attribute__((target("avx2"))) static int32_t soa_scan8_avx2(const float* soa, int count, const vec3 d)
{
    (void)count;
    const __m256 dot =
        soa_dot8(soa, soa + 8, soa + 16, _mm256_set1_ps(d[0]), _mm256_set1_ps(d[1]), _mm256_set1_ps(d[2]));
    if (_mm256_movemask_ps(_mm256_cmp_ps(_mm256_sub_ps(dot, dot), _mm256_setzero_ps(), _CMP_NEQ_UQ)) != 0)
    {
        return PXI_SUPPORT_NON_FINITE; /* NaN lanes for non-finite dots */
    }
    /* the maximum in every lane, then the first lane holding it */
    __m256 m = _mm256_max_ps(dot, _mm256_permute2f128_ps(dot, dot, 1));
    m = _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    m = _mm256_max_ps(m, _mm256_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    return (int32_t)__builtin_ctz((unsigned)_mm256_movemask_ps(_mm256_cmp_ps(dot, m, _CMP_EQ_OQ)));
}

/* For copies whose dot products are known finite (GJK's, gjk.c: the copies are checked finite as they are
 * made, and the pair's size bounds every product): blocks of 32 points, each reduced to its maximum lane by lane, and a
 * lane's block number kept only when its maximum beats that lane's best so far; the first block holding the
 * overall maximum is then searched for its first point holding it. Per eight points that is loads, the dot
 * products and one maximum, against the one-pass scan's index bookkeeping and non-finite check; the index is
 * the same (the maximum's first occurrence, equal compares as in the one-pass scan). */
__attribute__((target("avx2"))) static int32_t soa_scan_finite_avx2(const float* soa, int count, const vec3 d)
{
    const float* xs = soa;
    const float* ys = soa + count;
    const float* zs = soa + 2 * count;
    const __m256 dx = _mm256_set1_ps(d[0]), dy = _mm256_set1_ps(d[1]), dz = _mm256_set1_ps(d[2]);
    const __m256 one = _mm256_set1_ps(1.0f);
    __m256 best = _mm256_set1_ps(-INFINITY), best_block = _mm256_setzero_ps(), block = _mm256_setzero_ps();
    const int n32 = count & ~31;
    for (int i = 0; i < n32; i += 32)
    {
        const __m256 m0 = soa_dot8(xs + i, ys + i, zs + i, dx, dy, dz);
        const __m256 m1 = soa_dot8(xs + i + 8, ys + i + 8, zs + i + 8, dx, dy, dz);
        const __m256 m2 = soa_dot8(xs + i + 16, ys + i + 16, zs + i + 16, dx, dy, dz);
        const __m256 m3 = soa_dot8(xs + i + 24, ys + i + 24, zs + i + 24, dx, dy, dz);
        const __m256 m = _mm256_max_ps(_mm256_max_ps(m0, m1), _mm256_max_ps(m2, m3));
        best_block = _mm256_blendv_ps(best_block, block, _mm256_cmp_ps(m, best, _CMP_GT_OQ));
        best = _mm256_max_ps(m, best);
        block = _mm256_add_ps(block, one);
    }
    float b = -INFINITY;
    int32_t bi = 0;
    if (n32 > 0)
    {
        /* the overall maximum, then the first block in which a lane holds it */
        __m256 mx = _mm256_max_ps(best, _mm256_permute2f128_ps(best, best, 1));
        mx = _mm256_max_ps(mx, _mm256_shuffle_ps(mx, mx, _MM_SHUFFLE(1, 0, 3, 2)));
        mx = _mm256_max_ps(mx, _mm256_shuffle_ps(mx, mx, _MM_SHUFFLE(2, 3, 0, 1)));
        const __m256 holds = _mm256_cmp_ps(best, mx, _CMP_EQ_OQ);
        __m256 blocks = _mm256_blendv_ps(_mm256_set1_ps(INFINITY), best_block, holds);
        blocks = _mm256_min_ps(blocks, _mm256_permute2f128_ps(blocks, blocks, 1));
        blocks = _mm256_min_ps(blocks, _mm256_shuffle_ps(blocks, blocks, _MM_SHUFFLE(1, 0, 3, 2)));
        blocks = _mm256_min_ps(blocks, _mm256_shuffle_ps(blocks, blocks, _MM_SHUFFLE(2, 3, 0, 1)));
        const int i = 32 * (int)_mm256_cvtss_f32(blocks);
        b = _mm256_cvtss_f32(mx);
        /* the block's 32 equal-compares in one word, without a branch on which eight hold it (a branch
         * there mispredicts when the directions jump, as EPA's do) */
        unsigned mask = 0;
        for (int k = 0; k < 4; ++k)
        {
            const int j = i + 8 * k;
            mask |= (unsigned)_mm256_movemask_ps(
                        _mm256_cmp_ps(soa_dot8(xs + j, ys + j, zs + j, dx, dy, dz), mx, _CMP_EQ_OQ))
                    << (8 * k);
        }
        if (mask == 0)
        {
            return PXI_SUPPORT_NON_FINITE; /* no finite maximum: dots the caller promised finite were not */
        }
        bi = i + __builtin_ctz(mask);
    }
    return soa_scan_tail(soa, count, n32, d, &b, &bi) ? bi : PXI_SUPPORT_NON_FINITE;
}

/* Hot: eight points per step. Lane indices are floats (exact below 2^24 points). */
__attribute__((target("avx2"))) static int32_t soa_scan_avx2(const float* soa, int count, const vec3 d)
{
    const float* xs = soa;
    const float* ys = soa + count;
    const float* zs = soa + 2 * count;
    const __m256 dx = _mm256_set1_ps(d[0]), dy = _mm256_set1_ps(d[1]), dz = _mm256_set1_ps(d[2]);
    const __m256 eight = _mm256_set1_ps(8.0f);
    __m256 best = _mm256_set1_ps(-INFINITY), best_index = _mm256_setzero_ps(), bad = _mm256_setzero_ps();
    __m256 index = _mm256_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f);
    const int n8 = count & ~7;
    for (int i = 0; i < n8; i += 8)
    {
        const __m256 dot = soa_dot8(xs + i, ys + i, zs + i, dx, dy, dz);
        bad = _mm256_or_ps(bad, _mm256_sub_ps(dot, dot)); /* NaN lanes for non-finite dots */
        const __m256 greater = _mm256_cmp_ps(dot, best, _CMP_GT_OQ);
        best = _mm256_max_ps(dot, best); /* a NaN dot keeps best */
        best_index = _mm256_blendv_ps(best_index, index, greater);
        index = _mm256_add_ps(index, eight);
    }
    const bool finite = _mm256_movemask_ps(_mm256_cmp_ps(bad, _mm256_setzero_ps(), _CMP_NEQ_UQ)) == 0;
    /* lanes k and k + 4 first, then the four */
    __m128 v, vi;
    soa_pick(_mm256_castps256_ps128(best), _mm256_castps256_ps128(best_index), _mm256_extractf128_ps(best, 1),
             _mm256_extractf128_ps(best_index, 1), &v, &vi);
    float b = -INFINITY;
    int32_t bi = 0;
    if (n8 > 0)
    {
        soa_reduce4(v, vi, &b, &bi);
    }
    return soa_scan_tail(soa, count, n8, d, &b, &bi) && finite ? bi : PXI_SUPPORT_NON_FINITE;
}
#endif

#if PXI_EPA_SSE
/* Four points per step (x86-64 without AVX2). */
static int32_t soa_scan_sse2(const float* soa, int count, const vec3 d)
{
    const float* xs = soa;
    const float* ys = soa + count;
    const float* zs = soa + 2 * count;
    const __m128 dx = _mm_set1_ps(d[0]), dy = _mm_set1_ps(d[1]), dz = _mm_set1_ps(d[2]);
    const __m128 four = _mm_set1_ps(4.0f);
    __m128 best = _mm_set1_ps(-INFINITY), best_index = _mm_setzero_ps(), bad = _mm_setzero_ps();
    __m128 index = _mm_setr_ps(0.0f, 1.0f, 2.0f, 3.0f);
    const int n4 = count & ~3;
    for (int i = 0; i < n4; i += 4)
    {
        const __m128 dot = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_loadu_ps(xs + i), dx), _mm_mul_ps(_mm_loadu_ps(ys + i), dy)),
                                      _mm_mul_ps(_mm_loadu_ps(zs + i), dz));
        bad = _mm_or_ps(bad, _mm_sub_ps(dot, dot));
        const __m128 greater = _mm_cmpgt_ps(dot, best);
        best = _mm_max_ps(dot, best);
        best_index = _mm_or_ps(_mm_and_ps(greater, index), _mm_andnot_ps(greater, best_index));
        index = _mm_add_ps(index, four);
    }
    const bool finite = _mm_movemask_ps(_mm_cmpneq_ps(bad, _mm_setzero_ps())) == 0;
    float b = -INFINITY;
    int32_t bi = 0;
    if (n4 > 0)
    {
        soa_reduce4(best, best_index, &b, &bi);
    }
    return soa_scan_tail(soa, count, n4, d, &b, &bi) && finite ? bi : PXI_SUPPORT_NON_FINITE;
}
#endif

int32_t pxi_epa_scan_soa(const float* soa, int count, const vec3 d)
{
    pxi_epa_scan_fn scan = pxi_epa_scan_select(count);
    if (scan != NULL)
    {
        return scan(soa, count, d);
    }
    float b = -INFINITY;
    int32_t bi = 0;
    return soa_scan_tail(soa, count, 0, d, &b, &bi) ? bi : PXI_SUPPORT_NON_FINITE;
}

pxi_epa_scan_fn pxi_epa_scan_finite_select(int count)
{
#if PXI_EPA_AVX2
    if (count >= 32 && __builtin_cpu_supports("avx2"))
    {
        return soa_scan_finite_avx2;
    }
#endif
    return pxi_epa_scan_select(count);
}

pxi_epa_scan_fn pxi_epa_scan_for(int count, bool known_finite)
{
    /* the scan without the check is the faster one from this many points */
    return known_finite && count >= 128 ? pxi_epa_scan_finite_select(count) : pxi_epa_scan_select(count);
}

pxi_epa_scan_fn pxi_epa_scan_select(int count)
{
#if PXI_EPA_AVX2
    if (__builtin_cpu_supports("avx2"))
    {
        return count == 8 ? soa_scan8_avx2 : soa_scan_avx2;
    }
#endif
#if PXI_EPA_SSE
    (void)count;
    return soa_scan_sse2;
#else
    (void)count;
    return NULL;
#endif
}
