/* Public closest-point queries: translate the query point to the origin, let the origin kernels of
 * closest_point_internal.h (the same code the GJK simplex solver runs) choose the feature, then compute
 * the point on that feature from the original coordinates. */
#include "closest_point_internal.h"

#include "proxima/geometry.h"

px_feature_kind px_feature_kind_of(uint32_t feature)
{
    uint32_t bits = feature & 15u;
    int n = 0;
    while (bits != 0u)
    {
        n += (int)(bits & 1u);
        bits >>= 1;
    }
    return (px_feature_kind)n;
}

/* Scale that brings translated vertices into [2^-8, 2^8] (1 when they already are), as a power of two
 * so the kernels see exactly the same problem at every scale: their degeneracy tests compare products of
 * up to six lengths, which under- or overflow otherwise. */
static float kernel_scale(const float* const* v, int n)
{
    float m = 0.0f;
    for (int i = 0; i < n; ++i)
    {
        m = px_maxf(m, px_maxf(fabsf(v[i][0]), px_maxf(fabsf(v[i][1]), fabsf(v[i][2]))));
    }
    if (!(m > 0.0f) || (m >= 0x1p-8f && m <= 0x1p8f))
    {
        return 1.0f;
    }
    int e;
    (void)frexpf(m, &e);
    return ldexpf(1.0f, -e);
}

/* Translate the vertices so p is the origin, scaled by kernel_scale. */
static void to_kernel_frame(const vec3 p, const float* const* v, int n, vec3* out, const float** ptrs)
{
    for (int i = 0; i < n; ++i)
    {
        px_v3_sub(v[i], p, out[i]);
        ptrs[i] = out[i];
    }
    float k = kernel_scale(ptrs, n);
    if (k != 1.0f)
    {
        for (int i = 0; i < n; ++i)
        {
            px_v3_scale(out[i], k, out[i]);
        }
    }
}

/* Closest point of the feature the kernel chose, recomputed from the original coordinates. The kernel
 * worked on p-translated vertices, whose differences carry eps |v - p| each: on a short edge far from p
 * that error tilts the edge by eps |v - p| / |edge| and moves the answer along it. Edges taken from the
 * original vertices are exact when the vertices are close (Sterbenz), so the recomputed point is
 * accurate to eps |v - p| instead. */
static void refine_feature(const vec3 p, const float* const* v, uint32_t f, float* bary, vec3 dest)
{
    int idx[4], n = 0;
    for (int i = 0; i < 4; ++i)
    {
        if (f & (1u << i))
        {
            idx[n++] = i;
        }
    }
    if (n == 1)
    {
        px_v3_copy(v[idx[0]], dest);
        return;
    }
    if (n == 2)
    {
        const float* a = v[idx[0]];
        const float* b = v[idx[1]];
        vec3 ab, ap;
        px_v3_sub(b, a, ab);
        px_v3_sub(p, a, ap);
        /* the ratio is scale-free: computed on vectors scaled by a power of two, so that squares of tiny or huge
         * lengths neither underflow nor overflow */
        const float* w[2] = { ab, ap };
        float k = kernel_scale(w, 2);
        vec3 abk, apk;
        px_v3_scale(ab, k, abk);
        px_v3_scale(ap, k, apk);
        float len2 = px_v3_norm2(abk);
        float t = len2 > 0.0f ? px_clampf(px_v3_dot(apk, abk) / len2, 0.0f, 1.0f) : 0.0f;
        px_v3_mad(a, t, ab, dest);
        bary[idx[0]] = 1.0f - t;
        bary[idx[1]] = t;
        return;
    }
    if (n == 3)
    {
        /* project onto the plane, in double; keep the kernel's weights (they only name the face). A float
         * normal of a sliver is off by eps / sin(its largest angle's supplement) in every direction, and
         * tilted so it moves a point |p - a| along the face by that much: a 2.5e4 x 1.2 sliver put the
         * projection of a point over its face 38.6 from it where it is 0.011 (review 55). In double the tilt
         * is 1e-16 / sin; differences of floats and their products neither overflow nor underflow there. */
        double ab[3], ac[3], ap[3], nrm[3];
        for (int i = 0; i < 3; ++i)
        {
            ab[i] = (double)v[idx[1]][i] - (double)v[idx[0]][i];
            ac[i] = (double)v[idx[2]][i] - (double)v[idx[0]][i];
            ap[i] = (double)p[i] - (double)v[idx[0]][i];
        }
        nrm[0] = ab[1] * ac[2] - ab[2] * ac[1];
        nrm[1] = ab[2] * ac[0] - ab[0] * ac[2];
        nrm[2] = ab[0] * ac[1] - ab[1] * ac[0];
        double nn = nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2];
        if (nn > 0.0)
        {
            double s = (ap[0] * nrm[0] + ap[1] * nrm[1] + ap[2] * nrm[2]) / nn;
            for (int i = 0; i < 3; ++i)
            {
                dest[i] = (float)((double)p[i] - s * nrm[i]);
            }
            return;
        }
        px_v3_zero(dest);
        for (int i = 0; i < 3; ++i)
        {
            px_v3_mad(dest, bary[idx[i]], v[idx[i]], dest);
        }
        return;
    }
    px_v3_copy(p, dest); /* inside the tetrahedron */
}

/* A face answer (three bits of f) checked in double from the original coordinates. The kernel chose the face
 * from p-translated float vertices, whose rounding, eps |v - p|, tilts the plane of a face with a short edge
 * by eps |v - p| / |edge|: seen from 6.3 away, a face 1e-3 wide projected p inside where the exact projection
 * is two widths outside it, and the answer (the projection) lay 2e-3 off the triangle (review 55). In double
 * the weights (pxi_triangle_weights_double) are exact but for 1e-16 |v - p|^2 / |n|: all >= 0, they are the
 * face answer's weights (the kernel's float ones only name the face and miss dest by eps |v - p|^2 / |n| on a
 * sliver); one below zero, the projection misses the face and the nearest of its edges, each from the
 * original coordinates, answers instead. Returns the feature, updating w and dest. */
static uint32_t settle_face(const vec3 p, const float* const* v, uint32_t f, float* w, vec3 dest)
{
    if (px_feature_kind_of(f) != PX_FEATURE_FACE)
    {
        return f;
    }
    int idx[3], n = 0;
    for (int i = 0; i < 4; ++i)
    {
        if (f & (1u << i))
        {
            idx[n++] = i;
        }
    }
    double t[3][3], lam[3];
    for (int i = 0; i < 3; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            t[i][k] = (double)v[idx[i]][k] - (double)p[k];
        }
    }
    if (!pxi_triangle_weights_double(t[0], t[1], t[2], lam))
    {
        return f;
    }
    if (lam[0] >= 0.0 && lam[1] >= 0.0 && lam[2] >= 0.0)
    {
        for (int i = 0; i < 3; ++i)
        {
            w[idx[i]] = (float)lam[i];
        }
        return f;
    }
    double best = INFINITY;
    uint32_t fbest = f;
    for (int e = 0; e < 3; ++e)
    {
        const int i0 = idx[e], i1 = idx[(e + 1) % 3];
        float we[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
        vec3 q;
        refine_feature(p, v, (1u << i0) | (1u << i1), we, q);
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            double d = (double)q[k] - (double)p[k];
            d2 += d * d;
        }
        if (d2 < best)
        {
            best = d2;
            fbest = we[i1] == 0.0f ? 1u << i0 : (we[i0] == 0.0f ? 1u << i1 : (1u << i0) | (1u << i1));
            for (int i = 0; i < 4; ++i)
            {
                w[i] = we[i];
            }
            px_v3_copy(q, dest);
        }
    }
    return fbest;
}

uint32_t px_closest_point_segment(const vec3 p, const vec3 a, const vec3 b, float bary[2], vec3 dest)
{
    const float* v[2] = { a, b };
    vec3 t[2], q;
    const float* tp[2];
    float w[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    to_kernel_frame(p, v, 2, t, tp);
    uint32_t f = pxi_closest_origin_segment(tp[0], tp[1], w, q);
    refine_feature(p, v, f, w, dest);
    if (bary != NULL)
    {
        bary[0] = w[0];
        bary[1] = w[1];
    }
    return f;
}

uint32_t px_closest_point_triangle(const vec3 p, const vec3 a, const vec3 b, const vec3 c, float bary[3],
                                   vec3 dest)
{
    const float* v[3] = { a, b, c };
    vec3 t[3], q;
    const float* tp[3];
    float w[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    to_kernel_frame(p, v, 3, t, tp);
    uint32_t f = pxi_closest_origin_triangle(tp[0], tp[1], tp[2], w, q);
    refine_feature(p, v, f, w, dest);
    f = settle_face(p, v, f, w, dest);
    if (bary != NULL)
    {
        bary[0] = w[0];
        bary[1] = w[1];
        bary[2] = w[2];
    }
    return f;
}

/* The barycentric weights of p in tetrahedron v[0..3], in double from the original coordinates (Cramer's
 * rule on the edges from v[0]): accurate where the kernel's ratios of translated cross products lose digits
 * (long thin tetrahedra). False when the tetrahedron is flat in double too. */
static bool tetra_weights_double(const vec3 p, const float* const* v, double w[4])
{
    double e[3][3], r[3];
    for (int k = 0; k < 3; ++k)
    {
        for (int i = 0; i < 3; ++i)
        {
            e[i][k] = (double)v[i + 1][k] - (double)v[0][k];
        }
        r[k] = (double)p[k] - (double)v[0][k];
    }
    return pxi_tetra_weights_double(e, r, 0.0, w);
}

uint32_t px_closest_point_tetrahedron(const vec3 p, const vec3 a, const vec3 b, const vec3 c, const vec3 d,
                                      float bary[4], vec3 dest)
{
    const float* v[4] = { a, b, c, d };
    vec3 t[4], q;
    const float* tp[4];
    float w[4] = { 0.0f, 0.0f, 0.0f, 0.0f };
    bool flat;
    to_kernel_frame(p, v, 4, t, tp);
    uint32_t f = pxi_closest_origin_tetrahedron(tp[0], tp[1], tp[2], tp[3], w, q, &flat);
    refine_feature(p, v, f, w, dest);
    double wd[4];
    if (f == 15u && tetra_weights_double(p, v, wd))
    {
        /* "inside" within the kernel's rounding: check in double. Outside a face after all (a long thin
         * tetrahedron rounds far in float), the nearest of the faces p is outside of answers; inside, the
         * weights are the double ones. */
        static const int opposite[4][3] = { { 1, 3, 2 }, { 0, 2, 3 }, { 0, 3, 1 }, { 0, 1, 2 } };
        float best = INFINITY;
        for (int i = 0; i < 4; ++i)
        {
            if (!(wd[i] < 0.0))
            {
                continue;
            }
            const int* o = opposite[i];
            float fw[3], fq[3];
            uint32_t ff = px_closest_point_triangle(p, v[o[0]], v[o[1]], v[o[2]], fw, fq);
            float d2 = px_v3_distance2(fq, p);
            if (d2 < best)
            {
                best = d2;
                f = pxi_remap_feature3(ff, o[0], o[1], o[2]);
                w[0] = w[1] = w[2] = w[3] = 0.0f;
                w[o[0]] = fw[0];
                w[o[1]] = fw[1];
                w[o[2]] = fw[2];
                px_v3_copy(fq, dest);
            }
        }
        if (f == 15u)
        {
            for (int i = 0; i < 4; ++i)
            {
                w[i] = (float)wd[i];
            }
        }
    }
    f = settle_face(p, v, f, w, dest);
    if (bary != NULL)
    {
        for (int i = 0; i < 4; ++i)
        {
            bary[i] = w[i];
        }
    }
    return f;
}

bool px_aabb_overlap(const px_aabb* a, const px_aabb* b)
{
    return a->min[0] <= b->max[0] && b->min[0] <= a->max[0] && a->min[1] <= b->max[1] && b->min[1] <= a->max[1] &&
           a->min[2] <= b->max[2] && b->min[2] <= a->max[2];
}

bool px_aabb_contains_point(const px_aabb* a, const vec3 p)
{
    return a->min[0] <= p[0] && p[0] <= a->max[0] && a->min[1] <= p[1] && p[1] <= a->max[1] && a->min[2] <= p[2] &&
           p[2] <= a->max[2];
}

void px_aabb_union(const px_aabb* a, const px_aabb* b, px_aabb* dest)
{
    px_v3_minv(a->min, b->min, dest->min);
    px_v3_maxv(a->max, b->max, dest->max);
}

float px_aabb_surface_area(const px_aabb* a)
{
    float x = a->max[0] - a->min[0];
    float y = a->max[1] - a->min[1];
    float z = a->max[2] - a->min[2];
    if (!(x >= 0.0f && y >= 0.0f && z >= 0.0f))
    {
        return 0.0f;
    }
    return 2.0f * (x * y + y * z + z * x);
}
