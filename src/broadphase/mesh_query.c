/* Queries on a mesh's 8-wide BVH: closest and any hit of a ray, closest point, box overlap.
 *
 * Each query tests the eight child boxes of a node at once (AVX2 or SSE where available, the same arithmetic
 * lane by lane elsewhere) and keeps a fixed stack sized for the deepest tree the builder can make
 * (PXI_MESH_STACK). Closest-hit and closest-point traversals visit children nearest first and skip children
 * that cannot beat the best result so far.
 *
 * Ray-box tests are conservative: the slab distances are computed in float, so the far distance is widened
 * by 2 gamma(3) (Ize, "Robust BVH Ray Traversal", JCGT 2013), and a NaN from a zero direction component with
 * the origin on a slab plane counts as inside. A box the exact ray touches is never skipped, which is what
 * keeps the watertight triangle test watertight through the tree. */
#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"
#include "../core/px_math.h"
#include "../geometry/ray_triangle_internal.h"
#include "../core/task_internal.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define MESH_SSE 1
#else
#define MESH_SSE 0
#endif
#if MESH_SSE && (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define MESH_AVX2 1
#else
#define MESH_AVX2 0
#endif

/* Widening of the bound a nearest search prunes boxes with (their float squared distances are a few roundings
 * off) */
#define NEAR_WIDEN 1.000001f

/* 1 + 2 gamma(3), rounded up: the widening of a ray's far slab distance */
#define FAR_WIDEN 1.0000006f

/* ------------------------------------------------------------------------------------------------------ */
/* The three node tests                                                                                    */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct ray_pre
{
#if MESH_SSE
    __m128 org4[3]; /* broadcasts for the box tests */
    __m128 inv4[3];
    __m128 wt_org4[3]; /* broadcasts for the packet tests: origin and shear in the (kx, ky, kz) frame */
    __m128 wt_shear4[3];
#endif
    pxi_watertight_ray wt;
    float org[3];
    float inv[3];
    size_t near_offset[3]; /* byte offsets in a node of the near and far planes' lanes on each axis */
    size_t far_offset[3];
} ray_pre;

static void ray_pre_init(ray_pre* r, const px_ray* ray)
{
    pxi_watertight_ray_init(&r->wt, ray->origin, ray->direction);
    for (int k = 0; k < 3; ++k)
    {
        r->org[k] = ray->origin[k];
        /* +-inf for a zero component (spelled out: a float division by zero is an error under UBSan) */
        float d = ray->direction[k];
        r->inv[k] = d != 0.0f ? 1.0f / d : copysignf(INFINITY, d);
        /* a negative direction (or -0) meets the box's max plane first */
        size_t lo = offsetof(pxi_mesh_node, bmin) + (size_t)k * PXI_MESH_WIDTH * sizeof(float);
        size_t hi = offsetof(pxi_mesh_node, bmax) + (size_t)k * PXI_MESH_WIDTH * sizeof(float);
        bool negative = signbit(ray->direction[k]) != 0;
        r->near_offset[k] = negative ? hi : lo;
        r->far_offset[k] = negative ? lo : hi;
    }
#if MESH_SSE
    const int axes[3] = { r->wt.kx, r->wt.ky, r->wt.kz };
    const float shear[3] = { r->wt.sx, r->wt.sy, r->wt.sz };
    for (int k = 0; k < 3; ++k)
    {
        r->org4[k] = _mm_set1_ps(r->org[k]);
        r->inv4[k] = _mm_set1_ps(r->inv[k]);
        r->wt_org4[k] = _mm_set1_ps(r->wt.org[axes[k]]);
        r->wt_shear4[k] = _mm_set1_ps(shear[k]);
    }
#endif
}

/* Which lanes the ray enters within [0, t_max], and at which distance (tnear[lane]). The SSE version tests the
 * eight lanes as two halves; mesh_ray.inc has the AVX2 one. */
static inline int node_ray(const pxi_mesh_node* node, const ray_pre* r, float t_max, float tnear[PXI_MESH_WIDTH])
{
#if MESH_SSE
    const char* base = (const char*)node;
    int mask = 0;
    for (int h = 0; h < PXI_MESH_WIDTH; h += 4)
    {
        __m128 t0 = _mm_setzero_ps();
        __m128 t1 = _mm_set1_ps(t_max);
        for (int k = 0; k < 3; ++k)
        {
            __m128 lo = _mm_load_ps((const float*)(base + r->near_offset[k]) + h);
            __m128 hi = _mm_load_ps((const float*)(base + r->far_offset[k]) + h);
            __m128 tn = _mm_mul_ps(_mm_sub_ps(lo, r->org4[k]), r->inv4[k]);
            __m128 tf = _mm_mul_ps(_mm_sub_ps(hi, r->org4[k]), r->inv4[k]);
            /* _mm_max_ps / _mm_min_ps return their second operand when either is NaN: the running bound wins */
            t0 = _mm_max_ps(tn, t0);
            t1 = _mm_min_ps(tf, t1);
        }
        /* widened once: a negative far distance stays behind the near one (>= 0) either way */
        t1 = _mm_mul_ps(t1, _mm_set1_ps(FAR_WIDEN));
        _mm_storeu_ps(tnear + h, t0);
        mask |= _mm_movemask_ps(_mm_cmple_ps(t0, t1)) << h;
    }
    return mask;
#else
    int mask = 0;
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        float t0 = 0.0f, t1 = t_max;
        for (int k = 0; k < 3; ++k)
        {
            float lo = *((const float*)((const char*)node + r->near_offset[k]) + lane);
            float hi = *((const float*)((const char*)node + r->far_offset[k]) + lane);
            float tn = (lo - r->org[k]) * r->inv[k];
            float tf = (hi - r->org[k]) * r->inv[k];
            t0 = tn > t0 ? tn : t0; /* NaN compares false: the running bound wins */
            t1 = tf < t1 ? tf : t1;
        }
        t1 *= FAR_WIDEN;
        tnear[lane] = t0;
        mask |= (t0 <= t1) << lane;
    }
    return mask;
#endif
}

/* Squared distance from each lane's box to the box [qmin, qmax]; lanes under limit in the mask. */
static inline int node_box_distance(const pxi_mesh_node* node, const float qmin[3], const float qmax[3], float limit,
                                    float d2[PXI_MESH_WIDTH])
{
#if MESH_SSE
    int mask = 0;
    for (int h = 0; h < PXI_MESH_WIDTH; h += 4)
    {
        __m128 acc = _mm_setzero_ps();
        __m128 zero = _mm_setzero_ps();
        for (int k = 0; k < 3; ++k)
        {
            __m128 below = _mm_sub_ps(_mm_load_ps(node->bmin[k] + h), _mm_set1_ps(qmax[k]));
            __m128 above = _mm_sub_ps(_mm_set1_ps(qmin[k]), _mm_load_ps(node->bmax[k] + h));
            __m128 gap = _mm_max_ps(_mm_max_ps(below, above), zero);
            acc = _mm_add_ps(acc, _mm_mul_ps(gap, gap));
        }
        _mm_storeu_ps(d2 + h, acc);
        mask |= _mm_movemask_ps(_mm_cmple_ps(acc, _mm_set1_ps(limit))) << h;
    }
    return mask & (int)node->lanes;
#else
    int mask = 0;
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        float acc = 0.0f;
        for (int k = 0; k < 3; ++k)
        {
            float below = node->bmin[k][lane] - qmax[k];
            float above = qmin[k] - node->bmax[k][lane];
            float gap = below > above ? below : above;
            gap = gap > 0.0f ? gap : 0.0f;
            acc += gap * gap;
        }
        d2[lane] = acc;
        mask |= (acc <= limit) << lane;
    }
    return mask & (int)node->lanes;
#endif
}

/* Lanes whose box overlaps [qmin, qmax] (closed). */
static inline int node_overlap(const pxi_mesh_node* node, const float qmin[3], const float qmax[3])
{
#if MESH_SSE
    int mask = 0;
    for (int h = 0; h < PXI_MESH_WIDTH; h += 4)
    {
        __m128 ok = _mm_castsi128_ps(_mm_set1_epi32(-1));
        for (int k = 0; k < 3; ++k)
        {
            ok = _mm_and_ps(ok, _mm_cmple_ps(_mm_load_ps(node->bmin[k] + h), _mm_set1_ps(qmax[k])));
            ok = _mm_and_ps(ok, _mm_cmpge_ps(_mm_load_ps(node->bmax[k] + h), _mm_set1_ps(qmin[k])));
        }
        mask |= _mm_movemask_ps(ok) << h;
    }
    return mask & (int)node->lanes;
#else
    int mask = 0;
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        bool ok = true;
        for (int k = 0; k < 3; ++k)
        {
            ok = ok && node->bmin[k][lane] <= qmax[k] && node->bmax[k][lane] >= qmin[k];
        }
        mask |= (int)ok << lane;
    }
    return mask & (int)node->lanes;
#endif
}

/* The packet test's results: lanes accepted by the float tests (finished with pxi_watertight_finish from
 * the edge functions below), and lanes with an edge function exactly zero (decided by pxi_watertight_hit,
 * which settles those signs in double). */
typedef struct packet_result
{
    int fast;
    int slow;
    _Alignas(16) float v[4], w[4], det[4], tz[4];
} packet_result;

/* Four triangles of a packet against the ray within [0, t_max]: the steps of pxi_watertight_hit with the
 * same float operations in the same order, so a lane's edge functions, det and scaled distance are the
 * floats the scalar test would compute, and a lane it rejects is one the scalar test rejects too. */
static inline void packet_test(const pxi_mesh_packet* p, const ray_pre* r, float t_max, int cull_back, int valid,
                               packet_result* out)
{
#if MESH_SSE
    const int kx = r->wt.kx, ky = r->wt.ky, kz = r->wt.kz;
    const __m128 ox = r->wt_org4[0], oy = r->wt_org4[1], oz = r->wt_org4[2];
    const __m128 sx = r->wt_shear4[0], sy = r->wt_shear4[1], sz = r->wt_shear4[2];
    const __m128 az = _mm_sub_ps(_mm_load_ps(p->v[0][kz]), oz);
    const __m128 bz = _mm_sub_ps(_mm_load_ps(p->v[1][kz]), oz);
    const __m128 cz = _mm_sub_ps(_mm_load_ps(p->v[2][kz]), oz);
    const __m128 ax = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[0][kx]), ox), _mm_mul_ps(sx, az));
    const __m128 ay = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[0][ky]), oy), _mm_mul_ps(sy, az));
    const __m128 bx = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[1][kx]), ox), _mm_mul_ps(sx, bz));
    const __m128 by = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[1][ky]), oy), _mm_mul_ps(sy, bz));
    const __m128 cx = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[2][kx]), ox), _mm_mul_ps(sx, cz));
    const __m128 cy = _mm_sub_ps(_mm_sub_ps(_mm_load_ps(p->v[2][ky]), oy), _mm_mul_ps(sy, cz));
    const __m128 u = _mm_sub_ps(_mm_mul_ps(cx, by), _mm_mul_ps(cy, bx));
    const __m128 v = _mm_sub_ps(_mm_mul_ps(ax, cy), _mm_mul_ps(ay, cx));
    const __m128 w = _mm_sub_ps(_mm_mul_ps(bx, ay), _mm_mul_ps(by, ax));
    const __m128 zero = _mm_setzero_ps();
    const __m128 any_zero =
        _mm_or_ps(_mm_or_ps(_mm_cmpeq_ps(u, zero), _mm_cmpeq_ps(v, zero)), _mm_cmpeq_ps(w, zero));
    const __m128 neg = _mm_or_ps(_mm_or_ps(_mm_cmplt_ps(u, zero), _mm_cmplt_ps(v, zero)), _mm_cmplt_ps(w, zero));
    const __m128 pos = _mm_or_ps(_mm_or_ps(_mm_cmpgt_ps(u, zero), _mm_cmpgt_ps(v, zero)), _mm_cmpgt_ps(w, zero));
    const __m128 reject = cull_back ? neg : _mm_and_ps(neg, pos);
    const __m128 det = _mm_add_ps(_mm_add_ps(u, v), w);
    const __m128 t = _mm_add_ps(_mm_add_ps(_mm_mul_ps(u, _mm_mul_ps(sz, az)), _mm_mul_ps(v, _mm_mul_ps(sz, bz))),
                                _mm_mul_ps(w, _mm_mul_ps(sz, cz)));
    const __m128 sign = _mm_set1_ps(-0.0f);
    const __m128 adet = _mm_andnot_ps(sign, det);
    const __m128 at = _mm_xor_ps(t, _mm_and_ps(det, sign));
    const __m128 in_range =
        _mm_and_ps(_mm_cmpge_ps(at, _mm_mul_ps(_mm_mul_ps(zero, adet), _mm_set1_ps(PXI_WATERTIGHT_SLACK_LO))),
                   _mm_cmple_ps(at, _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(t_max), adet), _mm_set1_ps(PXI_WATERTIGHT_SLACK_HI))));
    const __m128 ok = _mm_andnot_ps(reject, _mm_and_ps(in_range, _mm_cmpneq_ps(det, zero)));
    int zero_lanes = _mm_movemask_ps(any_zero) & valid;
    out->slow = zero_lanes;
    out->fast = _mm_movemask_ps(ok) & valid & (int)p->ray_lanes & ~zero_lanes;
    if (out->fast != 0)
    {
        _mm_store_ps(out->v, v);
        _mm_store_ps(out->w, w);
        _mm_store_ps(out->det, det);
        _mm_store_ps(out->tz, t);
    }
#else
    (void)p;
    (void)r;
    (void)t_max;
    (void)cull_back;
    out->fast = 0;
    out->slow = valid; /* every lane through the scalar test */
#endif
}

/* Ask for a pushed child's cache lines now: by the time it is popped they are (often) there. */
static inline void prefetch_link(const px_mesh* mesh, int32_t link)
{
#if defined(__GNUC__) || defined(__clang__)
    const char* p = link >= 0 ? (const char*)&mesh->nodes[link] : (const char*)&mesh->packets[pxi_mesh_leaf_packet(link)];
    __builtin_prefetch(p);
    __builtin_prefetch(p + 64);
    __builtin_prefetch(p + 128);
    __builtin_prefetch(p + 192);
#else
    (void)mesh;
    (void)link;
#endif
}

/* Order the set lanes of mask by key, nearest first; returns how many. */
static inline int sort_lanes(int mask, const float key[PXI_MESH_WIDTH], int order[PXI_MESH_WIDTH])
{
    int n = 0;
    while (mask != 0)
    {
        int lane = __builtin_ctz((unsigned)mask);
        mask &= mask - 1;
        int i = n++;
        while (i > 0 && key[order[i - 1]] > key[lane])
        {
            order[i] = order[i - 1];
            --i;
        }
        order[i] = lane;
    }
    return n;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Rays                                                                                                    */
/* ------------------------------------------------------------------------------------------------------ */

static px_status check_ray(const px_ray* ray)
{
    const float* o = ray->origin;
    const float* d = ray->direction;
    if (!isfinite(o[0]) || !isfinite(o[1]) || !isfinite(o[2]) || !isfinite(d[0]) || !isfinite(d[1]) ||
        !isfinite(d[2]) || isnan(ray->max_t))
    {
        return PX_ERR_NON_FINITE;
    }
    if (!(ray->max_t >= 0.0f))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f)
    {
        return PX_ERR_DEGENERATE_INPUT;
    }
    return PX_OK;
}

static void clear_hit(px_ray_hit* hit)
{
    memset(hit, 0, sizeof(*hit));
    hit->triangle = PX_NULL_INDEX;
}

typedef struct ray_best
{
    float t;
    float u, v;
    int32_t index; /* triangle hit, INT32_MAX when none */
    const pxi_mesh_packet* packet; /* and where its corners are */
    int lane;
} ray_best;

/* The closest-hit traversal, compiled twice: with the SSE node test for any x86-64 (or the lane loop
 * elsewhere), and with an AVX2 node test where the compiler can target it, chosen at run time. */
#define PXI_RAY_TRAVERSE ray_traverse_base
#define PXI_RAY_NODE_TEST(node, r, t_max, tn) node_ray(node, r, t_max, tn)
#define PXI_RAY_TARGET
#include "mesh_ray.inc"
#undef PXI_RAY_TRAVERSE
#undef PXI_RAY_NODE_TEST
#undef PXI_RAY_TARGET

#if MESH_AVX2
/* The AVX2 node test: the same arithmetic as node_ray, eight lanes in one register. */
__attribute__((target("avx2"))) static inline int node_ray_avx2(const pxi_mesh_node* node, const ray_pre* r,
                                                               float t_max, float tnear[PXI_MESH_WIDTH])
{
    const char* base = (const char*)node;
    __m256 t0 = _mm256_setzero_ps();
    __m256 t1 = _mm256_set1_ps(t_max);
    for (int k = 0; k < 3; ++k)
    {
        __m256 o = _mm256_set1_ps(r->org[k]);
        __m256 inv = _mm256_set1_ps(r->inv[k]);
        __m256 lo = _mm256_load_ps((const float*)(base + r->near_offset[k]));
        __m256 hi = _mm256_load_ps((const float*)(base + r->far_offset[k]));
        __m256 tn = _mm256_mul_ps(_mm256_sub_ps(lo, o), inv);
        __m256 tf = _mm256_mul_ps(_mm256_sub_ps(hi, o), inv);
        t0 = _mm256_max_ps(tn, t0); /* NaN: the running bound wins, as in node_ray */
        t1 = _mm256_min_ps(tf, t1);
    }
    t1 = _mm256_mul_ps(t1, _mm256_set1_ps(FAR_WIDEN));
    _mm256_storeu_ps(tnear, t0);
    return _mm256_movemask_ps(_mm256_cmp_ps(t0, t1, _CMP_LE_OQ));
}

#define PXI_RAY_TRAVERSE ray_traverse_avx2
#define PXI_RAY_NODE_TEST(node, r, t_max, tn) node_ray_avx2(node, r, t_max, tn)
#define PXI_RAY_TARGET __attribute__((target("avx2")))
#include "mesh_ray.inc"
#undef PXI_RAY_TRAVERSE
#undef PXI_RAY_NODE_TEST
#undef PXI_RAY_TARGET
#endif

bool pxi_mesh_cpu_has_avx2(void)
{
#if MESH_AVX2
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
#else
    return false;
#endif
}

/* Directions whose largest component lies in [2^-20, 2^20] are traversed as given; others are rescaled by a
 * power of two (exact), as px_ray_triangle_watertight does: the shear constant 1 / dir[kz] and the slab
 * inverses overflow for a subnormal direction, which then missed everything (a ray of direction (0, 0, 1e-39)
 * 1e-4 below a triangle hits it at t = 1e35). */
#define RAY_DIR_MIN 0x1p-20f
#define RAY_DIR_MAX 0x1p20f

static void ray_traverse(const px_mesh* mesh, const px_ray* ray, int cull_back, bool any_hit, ray_best* best)
{
    const float* d = ray->direction;
    const float m = fmaxf(fabsf(d[0]), fmaxf(fabsf(d[1]), fabsf(d[2])));
    int k = 0;
    px_ray scaled;
    const px_ray* traced = ray;
    if (m < RAY_DIR_MIN || m > RAY_DIR_MAX)
    {
        /* m = f 2^e, f in [0.5, 1): dir 2^(1 - e) has its largest component in [1, 2), and t 2^(e - 1) */
        int e;
        (void)frexpf(m, &e);
        k = 1 - e;
        scaled = *ray;
        for (int i = 0; i < 3; ++i)
        {
            scaled.direction[i] = ldexpf(d[i], k);
        }
        scaled.max_t = ldexpf(ray->max_t, -k);
        traced = &scaled;
    }
#if MESH_AVX2
    if (mesh->use_avx2)
    {
        ray_traverse_avx2(mesh, traced, cull_back, any_hit, best);
    }
    else
#endif
    {
        ray_traverse_base(mesh, traced, cull_back, any_hit, best);
    }
    if (k != 0 && best->index != INT32_MAX)
    {
        /* back to the caller's units; a t that overflows, or that a subnormal rescaled range let past max_t,
         * is no hit (and as it is the closest, neither is any other) */
        const float t = ldexpf(best->t, k);
        if (t <= FLT_MAX && t <= ray->max_t)
        {
            best->t = t;
        }
        else
        {
            best->index = INT32_MAX;
        }
    }
}

static void fill_hit(const px_ray* ray, const ray_best* best, px_ray_hit* hit)
{
    hit->hit = true;
    hit->t = best->t;
    for (int k = 0; k < 3; ++k)
    {
        hit->point[k] = ray->origin[k] + best->t * ray->direction[k];
    }
    hit->triangle = best->index;
    hit->u = best->u;
    hit->v = best->v;
    /* the geometric normal in double, so that slivers still get a unit vector */
    double e1[3], e2[3];
    for (int k = 0; k < 3; ++k)
    {
        e1[k] = (double)best->packet->v[1][k][best->lane] - (double)best->packet->v[0][k][best->lane];
        e2[k] = (double)best->packet->v[2][k][best->lane] - (double)best->packet->v[0][k][best->lane];
    }
    double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double facing = n[0] * ray->direction[0] + n[1] * ray->direction[1] + n[2] * ray->direction[2];
    double s = len > 0.0 ? (facing > 0.0 ? -1.0 : 1.0) / len : 0.0;
    for (int k = 0; k < 3; ++k)
    {
        hit->normal[k] = (float)(n[k] * s);
    }
}

px_status px_mesh_ray_cast_sided(const px_mesh* mesh, const px_ray* ray, px_triangle_sides sides, px_ray_hit* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    clear_hit(result);
    if (mesh == NULL || ray == NULL || (sides != PX_TRIANGLE_BOTH_SIDES && sides != PX_TRIANGLE_FRONT_ONLY))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = check_ray(ray);
    if (status != PX_OK)
    {
        return status;
    }
    ray_best best;
    ray_traverse(mesh, ray, sides == PX_TRIANGLE_FRONT_ONLY, false, &best);
    if (best.index != INT32_MAX)
    {
        fill_hit(ray, &best, result);
    }
    return PX_OK;
}

px_status px_mesh_ray_cast(const px_mesh* mesh, const px_ray* ray, px_ray_hit* result)
{
    return px_mesh_ray_cast_sided(mesh, ray, PX_TRIANGLE_BOTH_SIDES, result);
}

px_status px_mesh_ray_cast_any(const px_mesh* mesh, const px_ray* ray, bool* hit)
{
    if (hit == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *hit = false;
    if (mesh == NULL || ray == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = check_ray(ray);
    if (status != PX_OK)
    {
        return status;
    }
    ray_best best;
    ray_traverse(mesh, ray, 0, true, &best);
    *hit = best.index != INT32_MAX;
    return PX_OK;
}

typedef struct batch_job
{
    const px_mesh* mesh;
    const px_ray* rays;
    px_ray_hit* hits;
} batch_job;

static void batch_range(int begin, int end, int worker, void* context)
{
    (void)worker;
    batch_job* job = context;
    for (int i = begin; i < end; ++i)
    {
        /* a ray with bad input gets a cleared hit; its status was found before the tasks started */
        px_status status = px_mesh_ray_cast(job->mesh, &job->rays[i], &job->hits[i]);
        (void)status;
    }
}

px_status px_mesh_ray_cast_batch(const px_mesh* mesh, const px_ray* rays, int count, px_ray_hit* hits,
                                 const px_task_system* tasks)
{
    if (mesh == NULL || count < 0 || (count > 0 && (rays == NULL || hits == NULL)))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* the status is that of the lowest bad ray: checked here, in order, so no task needs to report one and
     * nothing is allocated */
    px_status status = PX_OK;
    for (int i = 0; i < count && status == PX_OK; ++i)
    {
        status = check_ray(&rays[i]);
    }
    batch_job job = { mesh, rays, hits };
    pxi_run_tasks(tasks, batch_range, count, 64, &job);
    return status;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Nearest search and overlap                                                                              */
/* ------------------------------------------------------------------------------------------------------ */

void pxi_mesh_nearest(const px_mesh* mesh, const float qmin[3], const float qmax[3], float* best_d2,
                      pxi_mesh_leaf_fn* fn, void* context)
{
    if (mesh->node_count == 0)
    {
        return;
    }
    int32_t stack[PXI_MESH_STACK];
    float stack_d2[PXI_MESH_STACK];
    int top = 0;
    stack[top] = 0;
    stack_d2[top++] = 0.0f;
    while (top > 0)
    {
        --top;
        if (stack_d2[top] > *best_d2 * NEAR_WIDEN)
        {
            continue;
        }
        const pxi_mesh_node* node = &mesh->nodes[stack[top]];
        float d2[PXI_MESH_WIDTH];
        /* the box distances are rounded floats: widened so that rounding never prunes a box at the bound */
        int mask = node_box_distance(node, qmin, qmax, *best_d2 * NEAR_WIDEN, d2);
        if (mask == 0)
        {
            continue;
        }
        int order[PXI_MESH_WIDTH];
        int n = sort_lanes(mask, d2, order);
        for (int i = 0; i < n; ++i)
        {
            int lane = order[i];
            int32_t link = node->link[lane];
            if (link < 0 && d2[lane] <= *best_d2 * NEAR_WIDEN)
            {
                if (!fn(&mesh->packets[pxi_mesh_leaf_packet(link)], pxi_mesh_leaf_count(link), best_d2, context))
                {
                    return;
                }
            }
        }
        for (int i = n - 1; i >= 0; --i)
        {
            int lane = order[i];
            if (node->link[lane] >= 0 && d2[lane] <= *best_d2 * NEAR_WIDEN)
            {
                stack[top] = node->link[lane];
                stack_d2[top++] = d2[lane];
            }
        }
    }
}

void pxi_mesh_overlap_leaves(const px_mesh* mesh, const float qmin[3], const float qmax[3], pxi_mesh_leaf_fn* fn,
                             void* context)
{
    if (mesh->node_count == 0)
    {
        return;
    }
    int32_t stack[PXI_MESH_STACK];
    int top = 0;
    stack[top++] = 0;
    float unused = 0.0f;
    while (top > 0)
    {
        const pxi_mesh_node* node = &mesh->nodes[stack[--top]];
        int mask = node_overlap(node, qmin, qmax);
        for (int lane = PXI_MESH_WIDTH - 1; lane >= 0; --lane)
        {
            if (!(mask & (1 << lane)))
            {
                continue;
            }
            int32_t link = node->link[lane];
            if (link >= 0)
            {
                stack[top++] = link;
            }
            else if (!fn(&mesh->packets[pxi_mesh_leaf_packet(link)], pxi_mesh_leaf_count(link), &unused, context))
            {
                return;
            }
        }
    }
}

typedef struct point_search
{
    float p[3];
    double best_d2;     /* squared distance of the best point, in double: float squares of tiny or huge
                           distances underflow or overflow */
    int32_t best_index; /* INT32_MAX when none */
    float best_point[3];
    float a[3], b[3], c[3]; /* corners of the best triangle */
} point_search;

/* A double squared distance as a float bound for the tree's pruning, rounded up so it never prunes too much. */
static float prune_bound(double d2)
{
    float f = (float)d2;
    return (double)f < d2 ? nextafterf(f, INFINITY) : f;
}

/* Squared distance from point to the bounding box of each triangle of a packet: a lower bound on the distance
 * to the triangle, exact up to three roundings. */
static inline void packet_box_distance(const pxi_mesh_packet* p, const float point[3], float d2[4])
{
#if MESH_SSE
    __m128 acc = _mm_setzero_ps();
    for (int k = 0; k < 3; ++k)
    {
        __m128 x = _mm_load_ps(p->v[0][k]), y = _mm_load_ps(p->v[1][k]), z = _mm_load_ps(p->v[2][k]);
        __m128 lo = _mm_min_ps(_mm_min_ps(x, y), z);
        __m128 hi = _mm_max_ps(_mm_max_ps(x, y), z);
        __m128 q = _mm_set1_ps(point[k]);
        __m128 gap = _mm_max_ps(_mm_max_ps(_mm_sub_ps(lo, q), _mm_sub_ps(q, hi)), _mm_setzero_ps());
        acc = _mm_add_ps(acc, _mm_mul_ps(gap, gap));
    }
    _mm_storeu_ps(d2, acc);
#else
    for (int lane = 0; lane < 4; ++lane)
    {
        float acc = 0.0f;
        for (int k = 0; k < 3; ++k)
        {
            float x = p->v[0][k][lane], y = p->v[1][k][lane], z = p->v[2][k][lane];
            float lo = x < y ? x : y, hi = x > y ? x : y;
            lo = z < lo ? z : lo;
            hi = z > hi ? z : hi;
            float gap = lo - point[k] > point[k] - hi ? lo - point[k] : point[k] - hi;
            gap = gap > 0.0f ? gap : 0.0f;
            acc += gap * gap;
        }
        d2[lane] = acc;
    }
#endif
}

/* Slack on the box bound before it rejects a triangle (its roundings are a few ulps) */
#define BOX_BOUND_SHRINK (1.0f - 64.0f * FLT_EPSILON)

static bool point_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    point_search* s = context;
    float bound[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    for (int i = 0; i < count; ++i)
    {
        const pxi_mesh_packet* p = &packets[i / 4];
        if (i % 4 == 0)
        {
            packet_box_distance(p, s->p, bound);
        }
        if (bound[i % 4] * BOX_BOUND_SHRINK > *best_d2)
        {
            continue; /* its box is already farther than the best triangle: so is the triangle */
        }
        float a[3], b[3], c[3];
        pxi_mesh_packet_triangle(p, i % 4, a, b, c);
        vec3 q;
        px_closest_point_triangle(s->p, a, b, c, NULL, q);
        double d[3] = { (double)q[0] - s->p[0], (double)q[1] - s->p[1], (double)q[2] - s->p[2] };
        double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        int32_t index = p->index[i % 4];
        if (d2 < s->best_d2 || (d2 == s->best_d2 && index < s->best_index))
        {
            s->best_d2 = d2;
            s->best_index = index;
            memcpy(s->best_point, q, sizeof(s->best_point));
            memcpy(s->a, a, sizeof(a));
            memcpy(s->b, b, sizeof(b));
            memcpy(s->c, c, sizeof(c));
            *best_d2 = prune_bound(d2);
        }
    }
    return true;
}

px_status px_mesh_closest_point(const px_mesh* mesh, const vec3 point, float max_distance, px_point_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    result->triangle = PX_NULL_INDEX;
    if (mesh == NULL || point == NULL || !(max_distance >= 0.0f))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (!isfinite(point[0]) || !isfinite(point[1]) || !isfinite(point[2]))
    {
        return PX_ERR_NON_FINITE;
    }
    point_search s;
    memset(&s, 0, sizeof(s));
    memcpy(s.p, point, sizeof(s.p));
    s.best_index = INT32_MAX;
    s.best_d2 = (double)max_distance * (double)max_distance; /* may be +inf */
    float best_d2 = prune_bound(s.best_d2);
    pxi_mesh_nearest(mesh, s.p, s.p, &best_d2, point_leaf, &s);
    if (s.best_index == INT32_MAX)
    {
        return PX_OK;
    }
    result->found = true;
    memcpy(result->point, s.best_point, sizeof(result->point));
    result->distance = (float)sqrt(s.best_d2);
    result->triangle = s.best_index;
    double e1[3], e2[3], off[3];
    for (int k = 0; k < 3; ++k)
    {
        e1[k] = (double)s.b[k] - (double)s.a[k];
        e2[k] = (double)s.c[k] - (double)s.a[k];
        off[k] = (double)point[k] - (double)s.best_point[k];
    }
    double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0] };
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double side = n[0] * off[0] + n[1] * off[1] + n[2] * off[2];
    double scale = len > 0.0 ? (side < 0.0 ? -1.0 : 1.0) / len : 0.0;
    for (int k = 0; k < 3; ++k)
    {
        result->normal[k] = (float)(n[k] * scale);
    }
    return PX_OK;
}

typedef struct aabb_search
{
    float qmin[3], qmax[3];
    px_mesh_triangle_fn* fn;
    void* context;
} aabb_search;

static bool aabb_leaf(const pxi_mesh_packet* packets, int count, float* best_d2, void* context)
{
    (void)best_d2;
    aabb_search* s = context;
    for (int i = 0; i < count; ++i)
    {
        const pxi_mesh_packet* p = &packets[i / 4];
        int lane = i % 4;
        bool overlap = true;
        for (int k = 0; k < 3 && overlap; ++k)
        {
            float x = p->v[0][k][lane], y = p->v[1][k][lane], z = p->v[2][k][lane];
            float lo = x < y ? x : y, hi = x > y ? x : y;
            lo = z < lo ? z : lo;
            hi = z > hi ? z : hi;
            overlap = lo <= s->qmax[k] && hi >= s->qmin[k];
        }
        if (overlap && !s->fn(p->index[lane], s->context))
        {
            return false;
        }
    }
    return true;
}

px_status px_mesh_query_aabb(const px_mesh* mesh, const px_aabb* box, px_mesh_triangle_fn* fn, void* context)
{
    if (mesh == NULL || box == NULL || fn == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int k = 0; k < 3; ++k)
    {
        if (isnan(box->min[k]) || isnan(box->max[k]))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        if (box->min[k] > box->max[k])
        {
            return PX_OK; /* an inverted box holds nothing */
        }
    }
    aabb_search s = { { box->min[0], box->min[1], box->min[2] }, { box->max[0], box->max[1], box->max[2] }, fn,
                      context };
    pxi_mesh_overlap_leaves(mesh, s.qmin, s.qmax, aabb_leaf, &s);
    return PX_OK;
}

/* The lowest `capacity` triangle indices found so far, kept as a max-heap in the caller's array. */
typedef struct collect
{
    int32_t* out;
    int capacity;
    int count;
} collect;

static void heap_sift_down(int32_t* h, int n, int i)
{
    for (;;)
    {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && h[l] > h[m])
        {
            m = l;
        }
        if (r < n && h[r] > h[m])
        {
            m = r;
        }
        if (m == i)
        {
            return;
        }
        int32_t t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

static bool collect_triangle(int32_t triangle, void* context)
{
    collect* c = context;
    int held = c->count < c->capacity ? c->count : c->capacity;
    if (held < c->capacity)
    {
        /* sift up */
        int i = held;
        c->out[i] = triangle;
        while (i > 0 && c->out[(i - 1) / 2] < c->out[i])
        {
            int32_t t = c->out[i];
            c->out[i] = c->out[(i - 1) / 2];
            c->out[(i - 1) / 2] = t;
            i = (i - 1) / 2;
        }
    }
    else if (held > 0 && triangle < c->out[0])
    {
        c->out[0] = triangle;
        heap_sift_down(c->out, held, 0);
    }
    c->count++;
    return true;
}

static int compare_int32(const void* a, const void* b)
{
    int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
    return (x > y) - (x < y);
}

px_status px_mesh_overlap_aabb(const px_mesh* mesh, const px_aabb* box, int32_t* triangles, int capacity, int* count)
{
    if (count != NULL)
    {
        *count = 0;
    }
    if (count == NULL || capacity < 0 || (capacity > 0 && triangles == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    collect c = { triangles, capacity, 0 };
    px_status status = px_mesh_query_aabb(mesh, box, collect_triangle, &c);
    if (status != PX_OK)
    {
        return status;
    }
    *count = c.count;
    int held = c.count < capacity ? c.count : capacity;
    if (held > 0)
    {
        qsort(triangles, (size_t)held, sizeof(int32_t), compare_int32);
    }
    return c.count > capacity ? PX_WARN_CAPACITY : PX_OK;
}
