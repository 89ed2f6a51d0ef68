/* Geometry: closest points on segments, triangles and tetrahedra (px_closest_point_*), feature masks,
 * barycentric weights, px_feature_kind_of, and the AABB helpers.
 *
 * Contract under test (geometry.h): the returned point is the point of the (solid) simplex nearest p; the
 * weights are each in [0, 1], sum to 1 and reconstruct the point; the mask names the vertices spanning the
 * feature the point lies on (weights of the other vertices are 0); degenerate inputs give the nearest
 * point of the lower-dimensional set and never NaN.
 *
 * Tolerances: "scale" is the largest |v - p| coordinate over the vertices (the library subtracts p first,
 * so that is where the rounding happens). Analytic cases and vertex-order permutations: 2e-5 * scale
 * (Jolt's ClosestPointTests use 2e-5). Random comparison against the long-double reference: 1e-5 * scale.
 * Failures print every input as %a so the case can be replayed. */
#include <float.h>
#include <stdbool.h>
#include <string.h>

#include "geometry/closest_point_internal.h"
#include "proxima/proxima.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

#define GEO_PERM_TOL 2.0e-5
#define GEO_RANDOM_TOL 1.0e-5

static const int k_perm3[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
static int g_perm4[24][4];

static void build_perm4(void)
{
    int n = 0;
    for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
            for (int c = 0; c < 4; ++c)
                for (int d = 0; d < 4; ++d)
                    if (a != b && a != c && a != d && b != c && b != d && c != d)
                    {
                        g_perm4[n][0] = a;
                        g_perm4[n][1] = b;
                        g_perm4[n][2] = c;
                        g_perm4[n][3] = d;
                        ++n;
                    }
}

static void dump_points(const char* label, const float* p, const float* const* v, int n)
{
    fprintf(stderr, "  [%s] p = {%a, %a, %a}", label, (double)p[0], (double)p[1], (double)p[2]);
    for (int i = 0; i < n; ++i)
    {
        fprintf(stderr, ", %c = {%a, %a, %a}", 'a' + i, (double)v[i][0], (double)v[i][1], (double)v[i][2]);
    }
    fprintf(stderr, "\n");
}

/* Largest |v_i - p| coordinate, floored so a fully degenerate input still gets a positive tolerance. */
static double scale_of(const float* p, const float* const* v, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
        {
            double d = fabs((double)v[i][k] - (double)p[k]);
            s = d > s ? d : s;
        }
    return s > 1e-30 ? s : 1e-30;
}

/* Rounding floor of a float answer: 4 ulps of the largest absolute input coordinate (the final p + q and
 * the float weights times the vertices round at that magnitude). */
static double round_floor(const float* p, const float* const* v, int n)
{
    double c = fmax(fabs((double)p[0]), fmax(fabs((double)p[1]), fabs((double)p[2])));
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k)
        {
            c = fmax(c, fabs((double)v[i][k]));
        }
    return 4.0 * FLT_EPSILON * c;
}

static double dist_fd(const float* a, const double* b)
{
    double x = (double)a[0] - b[0], y = (double)a[1] - b[1], z = (double)a[2] - b[2];
    return sqrt(x * x + y * y + z * z);
}

static double dist_ff(const float* a, const float* b)
{
    double x = (double)a[0] - (double)b[0], y = (double)a[1] - (double)b[1], z = (double)a[2] - (double)b[2];
    return sqrt(x * x + y * y + z * z);
}

/* Random sweeps print only their first few failing cases (then count the rest). */
static int g_print_budget = 1 << 30;

static bool valid_mask(uint32_t f, int n)
{
    return f != 0u && f < (1u << n);
}

/* The weight/mask/point contract of one answer over n vertices. Prints and returns 1 on a violation. */
static int check_answer(const char* label, const float* p, const float* const* v, int n, uint32_t f, const float* w,
                        const float* dest, double tol)
{
    bool ok = true;
    const char* why = "";
    if (!valid_mask(f, n))
    {
        ok = false;
        why = "mask out of range";
    }
    double sum = 0.0, rec[3] = { 0.0, 0.0, 0.0 };
    for (int i = 0; ok && i < n; ++i)
    {
        if (!isfinite(w[i]) || !(w[i] >= 0.0f && w[i] <= 1.0f))
        {
            ok = false;
            why = "weight not in [0, 1]";
        }
        if (!(f & (1u << i)) && w[i] != 0.0f)
        {
            ok = false;
            why = "non-zero weight outside the feature";
        }
        sum += (double)w[i];
        for (int k = 0; k < 3; ++k)
        {
            rec[k] += (double)w[i] * (double)v[i][k];
        }
    }
    if (ok && !(isfinite(dest[0]) && isfinite(dest[1]) && isfinite(dest[2])))
    {
        ok = false;
        why = "non-finite point";
    }
    if (ok && !(fabs(sum - 1.0) <= 8.0 * FLT_EPSILON))
    {
        ok = false;
        why = "weights do not sum to 1";
    }
    tol += round_floor(p, v, n);
    if (ok && !(dist_fd(dest, rec) <= tol))
    {
        ok = false;
        why = "weights do not reconstruct the point";
    }
    if (!ok && g_print_budget-- > 0)
    {
        fprintf(stderr, "%s: %s: mask %u, point {%a, %a, %a}, weights", label, why, f, (double)dest[0], (double)dest[1],
                (double)dest[2]);
        for (int i = 0; i < n; ++i)
        {
            fprintf(stderr, " %a", (double)w[i]);
        }
        fprintf(stderr, " (sum %.9g, reconstruction error %.3g, tol %.3g)\n", sum, dist_fd(dest, rec), tol);
        dump_points(label, p, v, n);
    }
    return ok ? 0 : 1;
}

/* Exact (long double) distance from p to the feature of a mask over n <= 4 vertices. */
static double feature_distance(const float* p, const float* const* v, uint32_t mask)
{
    ldv3 P, pts[4], q;
    int m = 0;
    ldv_from_f(p, P);
    for (int i = 0; i < 4; ++i)
    {
        if (mask & (1u << i))
        {
            ldv_from_f(v[i], pts[m++]);
        }
    }
    long double d2;
    bool inside;
    switch (m)
    {
    case 1:
        d2 = ldv_dist2(P, pts[0]);
        break;
    case 2:
        d2 = ld_closest_segment(P, pts[0], pts[1], q, NULL);
        break;
    case 3:
        d2 = ld_closest_triangle(P, pts[0], pts[1], pts[2], q);
        break;
    default:
        d2 = ld_closest_tetra(P, pts[0], pts[1], pts[2], pts[3], q, &inside);
        break;
    }
    return (double)sqrtl(d2);
}

/* Map a mask returned for permuted vertices back to the original vertex bits. */
static uint32_t unpermute(uint32_t f, const int* perm, int n)
{
    uint32_t r = 0;
    for (int i = 0; i < n; ++i)
    {
        if (f & (1u << i))
        {
            r |= 1u << perm[i];
        }
    }
    return r;
}

/* Run the triangle query for all 6 vertex orders: each answer satisfies the contract; the point is
 * within tol of expected (when expected != NULL) and of the identity order; the mask (unpermuted) is
 * expected_mask (when != 0) and the same for every order; the weights (unpermuted) agree within 1e-4
 * when check_weights (unique weights: the feature's vertices are affinely independent). */
#define GEO_WEIGHTS 1      /* the weights are unique: compare them across orders */
#define GEO_SAME_FEATURE 2 /* the feature is well defined: the same (unpermuted) for every order */

static int expect_triangle(const char* label, const float* p, const float* a, const float* b, const float* c,
                           const double* expected, uint32_t expected_mask, int flags)
{
    bool check_weights = (flags & GEO_WEIGHTS) != 0;
    bool same_feature = (flags & GEO_SAME_FEATURE) != 0 || expected_mask != 0u;
    const float* v[3] = { a, b, c };
    double tol = GEO_PERM_TOL * scale_of(p, v, 3) + round_floor(p, v, 3);
    float ref_point[3] = { 0, 0, 0 }, ref_w[3] = { 0, 0, 0 };
    uint32_t ref_mask = 0;
    for (int k = 0; k < 6; ++k)
    {
        const int* pm = k_perm3[k];
        const float* pv[3] = { v[pm[0]], v[pm[1]], v[pm[2]] };
        float w[3] = { -1, -1, -1 }, dest[3] = { NAN, NAN, NAN }, dest2[3] = { NAN, NAN, NAN };
        uint32_t f = px_closest_point_triangle(p, pv[0], pv[1], pv[2], w, dest);
        uint32_t f2 = px_closest_point_triangle(p, pv[0], pv[1], pv[2], NULL, dest2);
        if (check_answer(label, p, pv, 3, f, w, dest, tol))
        {
            fprintf(stderr, "  (vertex order %d%d%d)\n", pm[0], pm[1], pm[2]);
            return 1;
        }
        if (f2 != f || memcmp(dest, dest2, sizeof(dest)) != 0)
        {
            fprintf(stderr, "%s: NULL bary changes the answer (order %d%d%d)\n", label, pm[0], pm[1], pm[2]);
            dump_points(label, p, v, 3);
            return 1;
        }
        uint32_t fo = unpermute(f, pm, 3);
        float wo[3];
        for (int i = 0; i < 3; ++i)
        {
            wo[pm[i]] = w[i];
        }
        if (k == 0)
        {
            memcpy(ref_point, dest, sizeof(ref_point));
            memcpy(ref_w, wo, sizeof(ref_w));
            ref_mask = fo;
        }
        bool bad = false;
        if (expected != NULL && !(dist_fd(dest, expected) <= tol))
        {
            fprintf(stderr,
                    "%s: order %d%d%d: point {%.9g, %.9g, %.9g} expected {%.9g, %.9g, %.9g}, error %.3g > %.3g\n",
                    label, pm[0], pm[1], pm[2], (double)dest[0], (double)dest[1], (double)dest[2], expected[0],
                    expected[1], expected[2], dist_fd(dest, expected), tol);
            bad = true;
        }
        if (!(dist_ff(dest, ref_point) <= tol))
        {
            fprintf(stderr, "%s: order %d%d%d gives {%a, %a, %a}, order 012 gives {%a, %a, %a}\n", label, pm[0], pm[1],
                    pm[2], (double)dest[0], (double)dest[1], (double)dest[2], (double)ref_point[0],
                    (double)ref_point[1], (double)ref_point[2]);
            bad = true;
        }
        if (expected_mask != 0u && fo != expected_mask)
        {
            fprintf(stderr, "%s: order %d%d%d: feature %u (unpermuted), expected %u\n", label, pm[0], pm[1], pm[2], fo,
                    expected_mask);
            bad = true;
        }
        /* Orders may disagree on the feature only when the two features are equally near up to the
         * rounding floor (e.g. two edges of a needle whose distances differ in the 8th digit). */
        if (same_feature && fo != ref_mask &&
            !(fabs(feature_distance(p, v, fo) - feature_distance(p, v, ref_mask)) <= round_floor(p, v, 3)))
        {
            fprintf(
                stderr, "%s: order %d%d%d: feature %u (unpermuted, distance %.9g), order 012 gave %u (distance %.9g)\n",
                label, pm[0], pm[1], pm[2], fo, feature_distance(p, v, fo), ref_mask, feature_distance(p, v, ref_mask));
            bad = true;
        }
        for (int i = 0; check_weights && i < 3; ++i)
        {
            if (!(fabs((double)wo[i] - (double)ref_w[i]) <= 1e-4))
            {
                fprintf(stderr, "%s: order %d%d%d: weight of vertex %d is %.9g, order 012 gave %.9g\n", label, pm[0],
                        pm[1], pm[2], i, (double)wo[i], (double)ref_w[i]);
                bad = true;
            }
        }
        if (bad)
        {
            dump_points(label, p, v, 3);
            return 1;
        }
    }
    return 0;
}

/* expect_triangle against the long-double closest point of p on (a, b, c) (support/ref_geometry.h). */
static int expect_triangle_exact(const char* label, const float* p, const float* a, const float* b,
                                 const float* c, uint32_t expected_mask, int flags)
{
    ldv3 A, B, C, P, q;
    ldv_from_f(a, A);
    ldv_from_f(b, B);
    ldv_from_f(c, C);
    ldv_from_f(p, P);
    ld_closest_triangle(P, A, B, C, q);
    const double e[3] = { (double)q[0], (double)q[1], (double)q[2] };
    return expect_triangle(label, p, a, b, c, e, expected_mask, flags);
}

/* Same for the tetrahedron over all 24 vertex orders. */
static int expect_tetra(const char* label, const float* p, const float* const* v, const double* expected,
                        uint32_t expected_mask, const double* expected_w, int flags)
{
    bool same_feature = (flags & GEO_SAME_FEATURE) != 0 || expected_mask != 0u;
    double tol = GEO_PERM_TOL * scale_of(p, v, 4) + round_floor(p, v, 4);
    /* weights: 1e-5, plus the rounding of the inputs (p and the vertices are rounded to float in the
     * translated frames: relative to a unit tetrahedron that is 4 ulps of the largest coordinate) */
    double cmax = 0.0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 3; ++j)
        {
            cmax = fmax(cmax, fmax(fabs((double)v[i][j]), fabs((double)p[j])));
        }
    double wtol = 1e-5 + 4.0 * FLT_EPSILON * cmax;
    float ref_point[3] = { 0, 0, 0 };
    uint32_t ref_mask = 0;
    for (int k = 0; k < 24; ++k)
    {
        const int* pm = g_perm4[k];
        const float* pv[4] = { v[pm[0]], v[pm[1]], v[pm[2]], v[pm[3]] };
        float w[4] = { -1, -1, -1, -1 }, dest[3] = { NAN, NAN, NAN }, dest2[3] = { NAN, NAN, NAN };
        uint32_t f = px_closest_point_tetrahedron(p, pv[0], pv[1], pv[2], pv[3], w, dest);
        uint32_t f2 = px_closest_point_tetrahedron(p, pv[0], pv[1], pv[2], pv[3], NULL, dest2);
        if (check_answer(label, p, pv, 4, f, w, dest, tol))
        {
            fprintf(stderr, "  (vertex order %d%d%d%d)\n", pm[0], pm[1], pm[2], pm[3]);
            return 1;
        }
        if (f2 != f || memcmp(dest, dest2, sizeof(dest)) != 0)
        {
            fprintf(stderr, "%s: NULL bary changes the answer\n", label);
            return 1;
        }
        uint32_t fo = unpermute(f, pm, 4);
        float wo[4];
        for (int i = 0; i < 4; ++i)
        {
            wo[pm[i]] = w[i];
        }
        if (k == 0)
        {
            memcpy(ref_point, dest, sizeof(ref_point));
            ref_mask = fo;
        }
        bool bad = false;
        if (expected != NULL && !(dist_fd(dest, expected) <= tol))
        {
            fprintf(stderr, "%s: order %d%d%d%d: point {%.9g, %.9g, %.9g} expected {%.9g, %.9g, %.9g}\n", label, pm[0],
                    pm[1], pm[2], pm[3], (double)dest[0], (double)dest[1], (double)dest[2], expected[0], expected[1],
                    expected[2]);
            bad = true;
        }
        if (!(dist_ff(dest, ref_point) <= tol))
        {
            fprintf(stderr, "%s: order %d%d%d%d disagrees with order 0123\n", label, pm[0], pm[1], pm[2], pm[3]);
            bad = true;
        }
        if (expected_mask != 0u && fo != expected_mask)
        {
            fprintf(stderr, "%s: order %d%d%d%d: feature %u (unpermuted), expected %u\n", label, pm[0], pm[1], pm[2],
                    pm[3], fo, expected_mask);
            bad = true;
        }
        if (same_feature && fo != ref_mask &&
            !(fabs(feature_distance(p, v, fo) - feature_distance(p, v, ref_mask)) <= round_floor(p, v, 4)))
        {
            fprintf(stderr, "%s: order %d%d%d%d: feature %u, order 0123 gave %u\n", label, pm[0], pm[1], pm[2], pm[3],
                    fo, ref_mask);
            bad = true;
        }
        for (int i = 0; expected_w != NULL && i < 4; ++i)
        {
            if (!(fabs((double)wo[i] - expected_w[i]) <= wtol))
            {
                fprintf(stderr, "%s: order %d%d%d%d: weight of vertex %d is %.9g, expected %.9g\n", label, pm[0], pm[1],
                        pm[2], pm[3], i, (double)wo[i], expected_w[i]);
                bad = true;
            }
        }
        if (bad)
        {
            dump_points(label, p, v, 4);
            return 1;
        }
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Rigid frames: every analytic case is repeated in a few frames so that no coordinate is special. */

typedef struct geo_frame
{
    double r[3][3];
    double t[3];
} geo_frame;

static void frame_from_quat(const double q[4], const double t[3], geo_frame* f)
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    f->r[0][0] = 1 - 2 * (y * y + z * z);
    f->r[0][1] = 2 * (x * y - w * z);
    f->r[0][2] = 2 * (x * z + w * y);
    f->r[1][0] = 2 * (x * y + w * z);
    f->r[1][1] = 1 - 2 * (x * x + z * z);
    f->r[1][2] = 2 * (y * z - w * x);
    f->r[2][0] = 2 * (x * z - w * y);
    f->r[2][1] = 2 * (y * z + w * x);
    f->r[2][2] = 1 - 2 * (x * x + y * y);
    for (int i = 0; i < 3; ++i)
    {
        f->t[i] = t[i];
    }
}

static void frame_apply(const geo_frame* f, const double in[3], double out[3])
{
    for (int i = 0; i < 3; ++i)
    {
        out[i] = f->r[i][0] * in[0] + f->r[i][1] * in[1] + f->r[i][2] * in[2] + f->t[i];
    }
}

#define GEO_FRAMES 4
static void make_frames(geo_frame frames[GEO_FRAMES])
{
    static const double id[4] = { 0, 0, 0, 1 }, zero[3] = { 0, 0, 0 };
    static const double t1[3] = { 3.25, -7.5, 11.0 };
    static const double q2[4] = { 0.18257418583505536, 0.3651483716701107, 0.5477225575051661, 0.7302967433402214 };
    static const double t3[3] = { -120.0, 45.5, 300.25 };
    static const double q3[4] = { -0.5, 0.5, 0.5, 0.5 };
    frame_from_quat(id, zero, &frames[0]);
    frame_from_quat(id, t1, &frames[1]);
    frame_from_quat(q2, zero, &frames[2]);
    frame_from_quat(q3, t3, &frames[3]);
}

static void to_float3(const double in[3], float out[3])
{
    for (int i = 0; i < 3; ++i)
    {
        out[i] = (float)in[i];
    }
}

/* ----------------------------------------------------------------------------------------------------- */

static int segment_regions(void)
{
    const float a[3] = { 1, 2, 3 }, b[3] = { 5, 2, 3 };
    float w[2], d[3];
    uint32_t f;

    const float p0[3] = { 0, 0, 0 }; /* before a */
    f = px_closest_point_segment(p0, a, b, w, d);
    PX_CHECK(f == 1u);
    PX_CHECK(w[0] == 1.0f && w[1] == 0.0f);
    PX_CHECK(d[0] == 1.0f && d[1] == 2.0f && d[2] == 3.0f);

    const float p1[3] = { 7, 1, 1 }; /* past b */
    f = px_closest_point_segment(p1, a, b, w, d);
    PX_CHECK(f == 2u);
    PX_CHECK(w[0] == 0.0f && w[1] == 1.0f);
    PX_CHECK(d[0] == 5.0f && d[1] == 2.0f && d[2] == 3.0f);

    const float p2[3] = { 2, 5, -1 }; /* interior, t = 1/4 */
    f = px_closest_point_segment(p2, a, b, w, d);
    PX_CHECK(f == 3u);
    PX_CHECK_NEAR(w[0], 0.75, 1e-6);
    PX_CHECK_NEAR(w[1], 0.25, 1e-6);
    const float e2[3] = { 2, 2, 3 };
    PX_CHECK_NEAR3(d, e2, 1e-6);

    /* reversed segment: same point, mirrored mask and weights */
    f = px_closest_point_segment(p2, b, a, w, d);
    PX_CHECK(f == 3u);
    PX_CHECK_NEAR(w[0], 0.25, 1e-6);
    PX_CHECK_NEAR(w[1], 0.75, 1e-6);
    PX_CHECK_NEAR3(d, e2, 1e-6);
    f = px_closest_point_segment(p0, b, a, w, d);
    PX_CHECK(f == 2u && w[1] == 1.0f && d[0] == 1.0f);

    /* p exactly on the segment and exactly at a vertex */
    const float p3[3] = { 4, 2, 3 };
    f = px_closest_point_segment(p3, a, b, w, d);
    PX_CHECK(f == 3u);
    PX_CHECK_NEAR3(d, p3, 1e-6);
    f = px_closest_point_segment(a, a, b, w, d);
    PX_CHECK(f == 1u && d[0] == a[0] && d[1] == a[1] && d[2] == a[2]);

    /* weights reconstruct the point: dest == w0 a + w1 b, in a skew frame */
    px_rng r = px_rng_seeded(0x5e6);
    for (int k = 0; k < 2000; ++k)
    {
        float aa[3], bb[3], pp[3];
        for (int i = 0; i < 3; ++i)
        {
            aa[i] = (float)px_rng_range(&r, -10, 10);
            bb[i] = (float)px_rng_range(&r, -10, 10);
            pp[i] = (float)px_rng_range(&r, -15, 15);
        }
        f = px_closest_point_segment(pp, aa, bb, w, d);
        const float* v[2] = { aa, bb };
        if (check_answer("segment random", pp, v, 2, f, w, d, 1e-5 * scale_of(pp, v, 2)))
        {
            return 1;
        }
        ldv3 P, A, B, o;
        ldv_from_f(pp, P);
        ldv_from_f(aa, A);
        ldv_from_f(bb, B);
        ld_closest_segment(P, A, B, o, NULL);
        double od[3] = { (double)o[0], (double)o[1], (double)o[2] };
        PX_CHECK(dist_fd(d, od) <= 1e-5 * scale_of(pp, v, 2));
    }

    /* NULL weights are allowed */
    f = px_closest_point_segment(p2, a, b, NULL, d);
    PX_CHECK(f == 3u);
    PX_CHECK_NEAR3(d, e2, 1e-6);
    return 0;
}

static int segment_degenerate(void)
{
    const float a[3] = { 1, -2, 3 };
    const float p[3] = { 4, 0, -1 };
    float w[2] = { -1, -1 }, d[3] = { NAN, NAN, NAN };
    uint32_t f = px_closest_point_segment(p, a, a, w, d);
    PX_CHECK(px_feature_kind_of(f) == PX_FEATURE_VERTEX);
    PX_CHECK(d[0] == a[0] && d[1] == a[1] && d[2] == a[2]);
    PX_CHECK(w[0] >= 0.0f && w[1] >= 0.0f && w[0] + w[1] == 1.0f);
    PX_CHECK((f == 1u && w[1] == 0.0f) || (f == 2u && w[0] == 0.0f));
    /* p on the degenerate segment */
    f = px_closest_point_segment(a, a, a, w, d);
    PX_CHECK(px_feature_kind_of(f) == PX_FEATURE_VERTEX);
    PX_CHECK(d[0] == a[0] && d[1] == a[1] && d[2] == a[2]);
    /* a tiny segment far from p */
    const float b[3] = { 1.0f + 1e-6f, -2.0f, 3.0f };
    f = px_closest_point_segment(p, a, b, w, d);
    PX_CHECK(isfinite(d[0]) && isfinite(d[1]) && isfinite(d[2]) && isfinite(w[0]) && isfinite(w[1]));
    PX_CHECK_NEAR(d[0], 1.0 + 1e-6, 2e-6);
    return 0;
}

/* Triangle a(0,0,0) b(4,0,0) c(1,3,0): one query per Voronoi region, in four rigid frames. */
static int triangle_regions(void)
{
    static const double A[3] = { 0, 0, 0 }, B[3] = { 4, 0, 0 }, C[3] = { 1, 3, 0 };
    static const struct
    {
        const char* name;
        double p[3];
        double q[3];
        uint32_t mask;
        double w[3];
    } cases[] = {
        { "vertex a", { -1, -1, 0.5 }, { 0, 0, 0 }, 1u, { 1, 0, 0 } },
        { "vertex b", { 5, -1, 0.5 }, { 4, 0, 0 }, 2u, { 0, 1, 0 } },
        { "vertex c", { 1, 5, -0.5 }, { 1, 3, 0 }, 4u, { 0, 0, 1 } },
        { "edge ab", { 2, -1, 0.7 }, { 2, 0, 0 }, 3u, { 0.5, 0.5, 0 } },
        { "edge ac", { -2.5, 2.5, -0.3 }, { 0.5, 1.5, 0 }, 5u, { 0.5, 0, 0.5 } },
        { "edge bc", { 3.5, 2.5, 0.4 }, { 2.5, 1.5, 0 }, 6u, { 0, 0.5, 0.5 } },
        { "face above", { 1.5, 1, 2 }, { 1.5, 1, 0 }, 7u, { 9.0 / 24, 7.0 / 24, 8.0 / 24 } },
        { "face below", { 1.5, 1, -2 }, { 1.5, 1, 0 }, 7u, { 9.0 / 24, 7.0 / 24, 8.0 / 24 } },
        { "face, p in the plane", { 1.5, 1, 0 }, { 1.5, 1, 0 }, 7u, { 9.0 / 24, 7.0 / 24, 8.0 / 24 } },
        { "edge ab, p on the edge line", { 6, 0, 0 }, { 4, 0, 0 }, 2u, { 0, 1, 0 } },
    };
    geo_frame frames[GEO_FRAMES];
    make_frames(frames);
    for (int fr = 0; fr < GEO_FRAMES; ++fr)
    {
        double wa[3], wb[3], wc[3];
        frame_apply(&frames[fr], A, wa);
        frame_apply(&frames[fr], B, wb);
        frame_apply(&frames[fr], C, wc);
        float a[3], b[3], c[3];
        to_float3(wa, a);
        to_float3(wb, b);
        to_float3(wc, c);
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k)
        {
            double wp[3], wq[3];
            frame_apply(&frames[fr], cases[k].p, wp);
            frame_apply(&frames[fr], cases[k].q, wq);
            float p[3];
            to_float3(wp, p);
            char label[96];
            snprintf(label, sizeof(label), "triangle %s (frame %d)", cases[k].name, fr);
            if (expect_triangle(label, p, a, b, c, wq, cases[k].mask, GEO_WEIGHTS))
            {
                return 1;
            }
            /* the analytic weights */
            float w[3], d[3];
            px_closest_point_triangle(p, a, b, c, w, d);
            for (int i = 0; i < 3; ++i)
            {
                PX_CHECK_NEAR(w[i], cases[k].w[i], 2e-6);
            }
            /* an exact vertex answer returns the vertex bit for bit (frame 0, exact inputs) */
            if (fr == 0 && px_feature_kind_of(cases[k].mask) == PX_FEATURE_VERTEX)
            {
                PX_CHECK((float)wq[0] == d[0] && (float)wq[1] == d[1] && (float)wq[2] == d[2]);
            }
        }
    }
    return 0;
}

/* libccd vec3PointTriDist: a(-1,0,0) b(0,1,1) c(-1,0,1), P = 0 -> dist^2 = 2/3 (and more libccd cases). */
static int triangle_libccd_cases(void)
{
    const float a[3] = { -1, 0, 0 }, b[3] = { 0, 1, 1 }, c[3] = { -1, 0, 1 };
    const float o[3] = { 0, 0, 0 };
    float w[3], d[3];
    px_closest_point_triangle(o, a, b, c, w, d);
    PX_CHECK_NEAR(d[0] * d[0] + d[1] * d[1] + d[2] * d[2], 2.0 / 3.0, 1e-6);
    /* the point is the projection on the plane x - y = -1: (-1/2, 1/2, z) with z in [0, 1]; the closest
     * is on edge ab at t: a + t (1,1,1) -> minimise |(-1+t, t, t)|^2 -> t = 1/3 */
    const double e[3] = { -2.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0 };
    if (expect_triangle("libccd 1", o, a, b, c, e, 3u, GEO_WEIGHTS))
    {
        return 1;
    }
    const float p2[3] = { -0.7f, 0.3f, 0.7f }; /* on the face: a + 0.3 (b - a) + 0.4 (c - a) */
    const double e2[3] = { (double)-0.7f, (double)0.3f, (double)0.7f };
    if (expect_triangle("libccd 2", p2, a, b, c, e2, 7u, GEO_WEIGHTS))
    {
        return 1;
    }
    const float p3[3] = { -2, 0, 2 }; /* vertex c region */
    const double e3[3] = { -1, 0, 1 };
    return expect_triangle("libccd 3", p3, a, b, c, e3, 4u, GEO_WEIGHTS);
}

static int triangle_degenerate(void)
{
    int bad = 0;
    /* collinear: a, b, c on the x axis */
    {
        const float a[3] = { 0, 0, 0 }, b[3] = { 1, 0, 0 }, c[3] = { 2, 0, 0 };
        const float p1[3] = { 1.5f, 1, 0 }, p2[3] = { 3, 1, -1 }, p3[3] = { -1, 0, 0 }, p4[3] = { 0.25f, 0, 0 };
        const double e1[3] = { 1.5, 0, 0 }, e2[3] = { 2, 0, 0 }, e3[3] = { 0, 0, 0 }, e4[3] = { 0.25, 0, 0 };
        bad |= expect_triangle("collinear, inner point", p1, a, b, c, e1, 0u, 0);
        bad |= expect_triangle("collinear, past c", p2, a, b, c, e2, 4u, 0);
        bad |= expect_triangle("collinear, before a", p3, a, b, c, e3, 1u, 0);
        bad |= expect_triangle("collinear, p on the line", p4, a, b, c, e4, 0u, 0);
        float w[3], d[3];
        uint32_t f = px_closest_point_triangle(p1, a, b, c, w, d);
        PX_CHECK(px_feature_kind_of(f) == PX_FEATURE_EDGE || px_feature_kind_of(f) == PX_FEATURE_VERTEX);
    }
    /* two coincident vertices */
    {
        const float a[3] = { 1, 1, 0 }, b[3] = { 1, 1, 0 }, c[3] = { 3, 1, 0 };
        const float p1[3] = { 2, 2, 0 }, p2[3] = { 0, 0, 5 }, p3[3] = { 4, 1, 0 };
        const double e1[3] = { 2, 1, 0 }, e2[3] = { 1, 1, 0 }, e3[3] = { 3, 1, 0 };
        bad |= expect_triangle("a == b, edge", p1, a, b, c, e1, 0u, 0);
        bad |= expect_triangle("a == b, at the double vertex", p2, a, b, c, e2, 0u, 0);
        bad |= expect_triangle("a == b, past c", p3, a, b, c, e3, 4u, 0);
    }
    /* all coincident */
    {
        const float a[3] = { 1, 2, 3 };
        const float p1[3] = { -4, 5, 0.5f };
        const double e1[3] = { 1, 2, 3 };
        bad |= expect_triangle("a == b == c", p1, a, a, a, e1, 0u, 0);
        bad |= expect_triangle("a == b == c, p on it", a, a, a, a, e1, 0u, 0);
        float w[3], d[3];
        uint32_t f = px_closest_point_triangle(p1, a, a, a, w, d);
        PX_CHECK(px_feature_kind_of(f) == PX_FEATURE_VERTEX);
    }
    /* nearly collinear (relative height 1e-9) and tiny triangles: finite and nearest */
    {
        const float a[3] = { 0, 0, 0 }, b[3] = { 1, 0, 0 }, c[3] = { 0.5f, 1e-9f, 0 };
        const float p1[3] = { 0.5f, 0.5f, 0.5f }, p2[3] = { 0.3f, -0.2f, 0 };
        const double e1[3] = { 0.5, 1e-9, 0 }, e2[3] = { 0.3, 0, 0 };
        bad |= expect_triangle("near collinear, above", p1, a, b, c, e1, 0u, 0);
        /* edges ab and ac are equally near up to 6e-9 relative: the feature is not asserted */
        bad |= expect_triangle("near collinear, beside", p2, a, b, c, e2, 0u, 0);
        const float ta[3] = { 1e-6f, 0, 0 }, tb[3] = { 0, 1e-6f, 0 }, tc[3] = { 0, 0, 1e-6f };
        const double e3[3] = { (double)1e-6f / 3, (double)1e-6f / 3, (double)1e-6f / 3 };
        const float o[3] = { 1e-5f, 1e-5f, 1e-5f };
        bad |= expect_triangle("tiny triangle", o, ta, tb, tc, e3, 7u, GEO_WEIGHTS);
    }
    return bad;
}

/* KNOWN_FAILURES 1.6 (Jolt ClosestPointTests) and 2.3: long, nearly collinear, small-near-plane, slivers. */
static int triangle_known_failures(void)
{
    int bad = 0;
    /* Jolt TestLongTriangle: 200 x 1 */
    {
        const float a[3] = { 100, 1, 0 }, b[3] = { 100, 1, 1 }, c[3] = { -100, 1, 0 };
        const float pi[3] = { 0, 0, 0.1f }, pab[3] = { 101, 0, 0.5f }, pac[3] = { 0, 0, -0.1f };
        const float pbc[3] = { 0, 0, 1 }, pa[3] = { 101, 0, -1 }, pb[3] = { 101, 0, 2 }, pc[3] = { -101, 0, 0 };
        const double ei[3] = { 0, 1, 0.1 }, eab[3] = { 100, 1, 0.5 }, eac[3] = { 0, 1, 0 };
        /* closest on bc: b + t (c - b), t = (p - b).(c - b) / |c - b|^2 = 20000 / 40001 */
        const double t = 20000.0 / 40001.0;
        const double ebc[3] = { 100 - 200 * t, 1, 1 - t };
        bad |= expect_triangle("long interior", pi, a, b, c, ei, 7u, 0);
        bad |= expect_triangle("long edge ab", pab, a, b, c, eab, 3u, 0);
        bad |= expect_triangle("long edge ac", pac, a, b, c, eac, 5u, 0);
        bad |= expect_triangle("long edge bc", pbc, a, b, c, ebc, 6u, 0);
        bad |= expect_triangle("long vertex a", pa, a, b, c, (const double[3]){ 100, 1, 0 }, 1u, 0);
        bad |= expect_triangle("long vertex b", pb, a, b, c, (const double[3]){ 100, 1, 1 }, 2u, 0);
        bad |= expect_triangle("long vertex c", pc, a, b, c, (const double[3]){ -100, 1, 0 }, 4u, 0);
    }
    /* Jolt TestNearColinearTriangle: the closest point is on edge ac (mask 0b101) */
    {
        const float a[3] = { 99.9999847f, 0.946687222f, 99.9999847f };
        const float b[3] = { -100.010002f, 0.977360725f, -100.010002f };
        const float c[3] = { -100.000137f, 0.977310658f, -100.000137f };
        const float o[3] = { 0, 0, 0 };
        ldv3 A, C, O, q;
        ldv_from_f(a, A);
        ldv_from_f(c, C);
        ldv_from_f(o, O);
        ld_closest_segment(O, A, C, q, NULL);
        const double e[3] = { (double)q[0], (double)q[1], (double)q[2] };
        bad |= expect_triangle("near collinear 200", o, a, b, c, e, 5u, 0);
    }
    /* Jolt TestSmallTriangleWithPlaneGoingThroughOrigin: the projection of the origin on the plane is
     * outside the triangle, so the answer is on the boundary (vertex b, by the reference) */
    {
        const float a[3] = { -0.132395342f, -0.294095188f, -0.164812326f };
        const float b[3] = { -0.126054004f, -0.283950001f, -0.159065604f };
        const float c[3] = { -0.154956535f, -0.284792334f, -0.160523415f };
        const float o[3] = { 0, 0, 0 };
        bad |= expect_triangle_exact("small, plane near origin", o, a, b, c, 2u, 0);
        float w[3], d[3];
        uint32_t f = px_closest_point_triangle(o, a, b, c, w, d);
        PX_CHECK(f != 7u); /* not the face */
    }
    /* Jolt PR #2065 sliver: A(-0.228, -28.1, 0.140) B(-0.252, 173.4, 0.0938) C(-0.252, 172.4, 0.0938) */
    {
        const float a[3] = { -0.228f, -28.1f, 0.140f };
        const float b[3] = { -0.252f, 173.4f, 0.0938f };
        const float c[3] = { -0.252f, 172.4f, 0.0938f };
        const float queries[][3] = {
            { 0, 0, 0 },          { -0.24f, 100, 0.2f }, { -0.26f, 172.9f, 0.0938f },  { -0.25f, 172.8f, 5 },
            { -0.3f, 180, 0.1f }, { -0.2f, -30, 0.14f }, { -0.251f, 172.9f, 0.0939f }, { 1, 172.5f, -1 },
        };
        for (size_t k = 0; k < sizeof(queries) / sizeof(queries[0]); ++k)
        {
            char label[64];
            snprintf(label, sizeof(label), "sliver #2065 query %zu", k);
            bad |= expect_triangle_exact(label, queries[k], a, b, c, 0u, GEO_SAME_FEATURE);
        }
    }
    /* needle slivers: c within 1e-6 .. 1e-3 of the line ab, p above the interior and beside it */
    {
        const double hs[] = { 1e-3, 1e-5, 1e-6 };
        for (size_t k = 0; k < sizeof(hs) / sizeof(hs[0]); ++k)
        {
            const float a[3] = { -50, 0, 0 }, b[3] = { 50, 0, 0 };
            const float c[3] = { 10, (float)hs[k], 0 };
            const float p1[3] = { 10, (float)(0.5 * hs[k]), 2 };
            const float p2[3] = { -20, 3, 0 };
            const float p3[3] = { 10, -3, 0.5f };
            const float* ps[3] = { p1, p2, p3 };
            for (int j = 0; j < 3; ++j)
            {
                char label[64];
                snprintf(label, sizeof(label), "needle h=%g query %d", hs[k], j);
                bad |= expect_triangle_exact(label, ps[j], a, b, c, 0u, GEO_SAME_FEATURE);
            }
        }
    }
    /* A sliver (triangle_random_reference, PX_TEST_SEED=99, triangle 136) whose face answer's float weights,
     * ratios of cross products of the p-translated vertices, were off by about 1e-5: they rebuilt the point
     * 3.6e-4 from it (tol 2.1e-4, the random sweep's). The weights of a face answer now come from double.
     * Checked in every vertex order at the random sweep's tolerance. */
    {
        const float a[3] = { -0x1.73ac82p+1f, 0x1.a53278p+4f, -0x1.cc34bap+1f };
        const float b[3] = { 0x1.d1d53cp+2f, 0x1.b7301ep+1f, -0x1.b13a72p+0f };
        const float c[3] = { -0x1.c8e9cp-5f, 0x1.3f699ap+4f, -0x1.8779c8p+1f };
        const float p[3] = { -0x1.057b42p+2f, 0x1.3ac5c6p+3f, 0x1.e052fcp+3f };
        const float* v[3] = { a, b, c };
        double tol = GEO_RANDOM_TOL * scale_of(p, v, 3) + round_floor(p, v, 3);
        for (int k = 0; k < 6; ++k)
        {
            const int* pm = k_perm3[k];
            const float* pv[3] = { v[pm[0]], v[pm[1]], v[pm[2]] };
            float w[3], d[3];
            uint32_t f = px_closest_point_triangle(p, pv[0], pv[1], pv[2], w, d);
            char label[64];
            snprintf(label, sizeof(label), "sliver seed 99, vertex order %d%d%d", pm[0], pm[1], pm[2]);
            bad |= check_answer(label, p, pv, 3, f, w, d, tol);
            bad |= f != 7u;
        }
    }
    return bad;
}

/* Review 55: a point over the face of a sliver 2.5e4 long whose apex is 1.2 from its base line. The face point
 * was the projection on a float normal, which for so flat a triangle is off by eps / sin(angle) = 2.5e-4 in
 * every direction, tilted about an axis across the face: the answer came out 38.6 from p where the exact
 * distance is 0.0113 (error 1.5e-3 of the size; tolerance 2e-5). */
static int triangle_sliver_face_projection(void)
{
    const float a[3] = { -0x1.449704p+13f, -0x1.e88f7cp+12f, -0x1.2d1e94p+13f };
    const float b[3] = { 0x1.aec85ap+12f, 0x1.768db2p+13f, 0x1.6c76a6p+13f };
    const float c[3] = { -0x1.7e5b5p+8f, 0x1.c820bcp+11f, 0x1.5105d2p+11f };
    const float p[3] = { 0x1.9ee782p+11f, 0x1.ed2decp+12f, 0x1.c5a8d8p+12f };
    return expect_triangle_exact("sliver face projection", p, a, b, c, 7u, 0);
}

/* Review 55: a thin triangle (5.2 long, 1e-3 wide) seen from 6.3 away. Translated to p in float, its short
 * edge tilts by 3e-4 rad and moves p's projection onto its plane by 2e-3, two widths: the kernel called the
 * face (weights 0.03, 0.83, 0.14) where the exact projection's are (-1.94, 0.83, 2.11), and the answer, the
 * projection, lay 2e-3 off the triangle, its weights rebuilding a point 3.4e-3 away (tol 9e-5). */
static int triangle_thin_face_outside(void)
{
    const float a[3] = { -0x1.06eb9ap+1f, 0x1.a725d2p-1f, 0x1.7fa498p+0f };
    const float b[3] = { 0x1.702b3p-1f, -0x1.36a942p+1f, -0x1.7f558p+0f };
    const float c[3] = { -0x1.06d874p+1f, 0x1.a72ff2p-1f, 0x1.7f70fcp+0f };
    const float p[3] = { -0x1.3028bep+2f, -0x1.513432p+1f, -0x1.306d7cp+2f };
    return expect_triangle_exact("thin face outside", p, a, b, c, 0u, 0);
}

/* Whether an answer d farther than tol from the reference point is still as good as float can tell. Near
 * degenerate simplices make the closest point ill-conditioned while its distance is not: for any point q of
 * the convex simplex C and the exact closest point q*, |q - q*|^2 <= |q - p|^2 - |q* - p|^2 (the squared
 * distance is strongly convex). A float answer lies within r (its rounding) of a point q_c of C, so
 * |d - q*| <= r + sqrt(|d - p|^2 - |q* - p|^2 + 2 r |d - p| + r^2). An answer whose distance is the optimum's
 * within delta (rounding, either way) and whose error is within that bound plus tol is accepted. */
static bool optimal_within_rounding(const float* d, const ldv3 P, long double d2_ref, double err, double tol,
                                    double delta, double r)
{
    ldv3 D;
    ldv_from_f(d, D);
    long double d2 = ldv_dist2(P, D);
    long double dist = sqrtl(d2);
    if (!(fabsl(dist - sqrtl(d2_ref)) <= (long double)delta))
    {
        return false;
    }
    long double gap = d2 - d2_ref + 2.0L * (long double)r * dist + (long double)r * (long double)r;
    long double bound = (long double)r + sqrtl(gap > 0.0L ? gap : 0.0L) + (long double)tol;
    return (long double)err <= bound;
}

static int g_ill_conditioned; /* answers accepted by optimal_within_rounding */

/* Random triangles (10^4, seeded) against the long-double reference. */
static int triangle_random_reference(void)
{
    px_rng r = px_rng_seeded(0x7a1a9e);
    int kinds[5] = { 0 }, fails[5] = { 0 };
    g_ill_conditioned = 0;
    double worst = 0.0;
    g_print_budget = 4;
    for (int k = 0; k < 10000; ++k)
    {
        float a[3], b[3], c[3], p[3];
        int kind = k % 5;
        double s = pow(10.0, px_rng_range(&r, -3, 3));
        double off[3];
        for (int i = 0; i < 3; ++i)
        {
            off[i] = px_rng_range(&r, -1, 1) * s * (kind == 4 ? 100.0 : 1.0);
        }
        double da[3], db[3], dc[3], dp[3];
        for (int i = 0; i < 3; ++i)
        {
            da[i] = px_rng_range(&r, -1, 1);
            db[i] = px_rng_range(&r, -1, 1);
            dc[i] = px_rng_range(&r, -1, 1);
            dp[i] = px_rng_range(&r, -2, 2);
        }
        if (kind == 1)
        {
            /* sliver: c close to the line ab */
            double t = px_rng_range(&r, -0.5, 1.5), h = pow(10.0, px_rng_range(&r, -7, -2));
            for (int i = 0; i < 3; ++i)
            {
                dc[i] = da[i] + t * (db[i] - da[i]) + h * dc[i];
            }
        }
        else if (kind == 2)
        {
            /* p close to the plane, over the triangle or near it */
            double u = px_rng_unit(&r), v = px_rng_unit(&r) * (1 - u), h = pow(10.0, px_rng_range(&r, -8, -1));
            double n[3] = { (db[1] - da[1]) * (dc[2] - da[2]) - (db[2] - da[2]) * (dc[1] - da[1]),
                            (db[2] - da[2]) * (dc[0] - da[0]) - (db[0] - da[0]) * (dc[2] - da[2]),
                            (db[0] - da[0]) * (dc[1] - da[1]) - (db[1] - da[1]) * (dc[0] - da[0]) };
            double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]) + 1e-300;
            double sign = px_rng_unit(&r) < 0.5 ? -1 : 1;
            for (int i = 0; i < 3; ++i)
            {
                dp[i] = da[i] + 1.2 * u * (db[i] - da[i]) + 1.2 * v * (dc[i] - da[i]) + sign * h * n[i] / nl;
            }
        }
        else if (kind == 3)
        {
            /* long thin: stretch along a random axis by 1e2 .. 1e4 */
            int ax = px_rng_int(&r, 3);
            double st = pow(10.0, px_rng_range(&r, 2, 4));
            da[ax] *= st;
            db[ax] *= st;
            dc[ax] *= st;
            dp[ax] *= st * px_rng_unit(&r);
        }
        for (int i = 0; i < 3; ++i)
        {
            a[i] = (float)(da[i] * s + off[i]);
            b[i] = (float)(db[i] * s + off[i]);
            c[i] = (float)(dc[i] * s + off[i]);
            p[i] = (float)(dp[i] * s + off[i]);
        }
        kinds[kind]++;
        const float* v[3] = { a, b, c };
        double tol = GEO_RANDOM_TOL * scale_of(p, v, 3) + round_floor(p, v, 3);
        float w[3], d[3];
        uint32_t f = px_closest_point_triangle(p, a, b, c, w, d);
        char label[64];
        snprintf(label, sizeof(label), "random triangle %d (kind %d)", k, kind);
        if (check_answer(label, p, v, 3, f, w, d, tol))
        {
            fails[kind]++;
            continue;
        }
        ldv3 A, B, C, P, q;
        ldv_from_f(a, A);
        ldv_from_f(b, B);
        ldv_from_f(c, C);
        ldv_from_f(p, P);
        long double d2 = ld_closest_triangle(P, A, B, C, q);
        const double e[3] = { (double)q[0], (double)q[1], (double)q[2] };
        double err = dist_fd(d, e);
        double delta = round_floor(p, v, 3) + 4.0 * FLT_EPSILON * scale_of(p, v, 3);
        if (!(err <= tol) && optimal_within_rounding(d, P, d2, err, tol, delta, round_floor(p, v, 3)))
        {
            g_ill_conditioned++;
            continue;
        }
        if (!(err <= tol))
        {
            fails[kind]++;
            worst = fmax(worst, err / scale_of(p, v, 3));
            if (g_print_budget-- > 0)
            {
                ldv3 D;
                ldv_from_f(d, D);
                fprintf(stderr,
                        "%s: point {%.9g, %.9g, %.9g} (mask %u, distance %.9Lg), reference {%.9g, %.9g, %.9g} "
                        "(distance %.9Lg), error %.3g > %.3g\n",
                        label, (double)d[0], (double)d[1], (double)d[2], f, sqrtl(ldv_dist2(P, D)), e[0], e[1], e[2],
                        sqrtl(d2), err, tol);
                dump_points(label, p, v, 3);
            }
        }
    }
    printf("    10000 random triangles (seed 0x7a1a9e): %d generic, %d slivers, %d near-plane, %d long, %d offset; %d "
           "ill-conditioned answers off the reference point but optimal within rounding\n",
           kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], g_ill_conditioned);
    g_print_budget = 1 << 30;
    int total = fails[0] + fails[1] + fails[2] + fails[3] + fails[4];
    if (total > 0)
    {
        fprintf(stderr,
                "random triangles: %d of 10000 fail (generic %d, sliver %d, near-plane %d, long %d, offset %d); worst "
                "point error %.3g * scale (tolerance 1e-5)\n",
                total, fails[0], fails[1], fails[2], fails[3], fails[4], worst);
        return 1;
    }
    return 0;
}

/* Tetrahedron a(0,0,0) b(1,0,0) c(0,1,0) d(0,0,1): inside, 4 faces, 6 edges, 4 vertices, 24 orders, 4 frames. */
static int tetra_regions(void)
{
    static const double V[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    static const struct
    {
        const char* name;
        double p[3];
        double q[3];
        uint32_t mask;
        double w[4];
    } cases[] = {
        { "inside", { 0.1, 0.2, 0.3 }, { 0.1, 0.2, 0.3 }, 15u, { 0.4, 0.1, 0.2, 0.3 } },
        { "inside, centroid", { 0.25, 0.25, 0.25 }, { 0.25, 0.25, 0.25 }, 15u, { 0.25, 0.25, 0.25, 0.25 } },
        { "face abc", { 0.2, 0.2, -1 }, { 0.2, 0.2, 0 }, 7u, { 0.6, 0.2, 0.2, 0 } },
        { "face abd", { 0.2, -1, 0.2 }, { 0.2, 0, 0.2 }, 11u, { 0.6, 0.2, 0, 0.2 } },
        { "face acd", { -1, 0.2, 0.2 }, { 0, 0.2, 0.2 }, 13u, { 0.6, 0, 0.2, 0.2 } },
        { "face bcd", { 1, 1, 1 }, { 1.0 / 3, 1.0 / 3, 1.0 / 3 }, 14u, { 0, 1.0 / 3, 1.0 / 3, 1.0 / 3 } },
        { "edge ab", { 0.5, -1, -1 }, { 0.5, 0, 0 }, 3u, { 0.5, 0.5, 0, 0 } },
        { "edge ac", { -1, 0.5, -1 }, { 0, 0.5, 0 }, 5u, { 0.5, 0, 0.5, 0 } },
        { "edge ad", { -1, -1, 0.5 }, { 0, 0, 0.5 }, 9u, { 0.5, 0, 0, 0.5 } },
        { "edge bc", { 1, 1, -0.5 }, { 0.5, 0.5, 0 }, 6u, { 0, 0.5, 0.5, 0 } },
        { "edge bd", { 1, -0.5, 1 }, { 0.5, 0, 0.5 }, 10u, { 0, 0.5, 0, 0.5 } },
        { "edge cd", { -0.5, 1, 1 }, { 0, 0.5, 0.5 }, 12u, { 0, 0, 0.5, 0.5 } },
        { "vertex a", { -1, -1, -1 }, { 0, 0, 0 }, 1u, { 1, 0, 0, 0 } },
        { "vertex b", { 2, -1, -1 }, { 1, 0, 0 }, 2u, { 0, 1, 0, 0 } },
        { "vertex c", { -1, 2, -1 }, { 0, 1, 0 }, 4u, { 0, 0, 1, 0 } },
        { "vertex d", { -1, -1, 2 }, { 0, 0, 1 }, 8u, { 0, 0, 0, 1 } },
    };
    geo_frame frames[GEO_FRAMES];
    make_frames(frames);
    for (int fr = 0; fr < GEO_FRAMES; ++fr)
    {
        float v[4][3];
        for (int i = 0; i < 4; ++i)
        {
            double t[3];
            frame_apply(&frames[fr], V[i], t);
            to_float3(t, v[i]);
        }
        const float* pv[4] = { v[0], v[1], v[2], v[3] };
        for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k)
        {
            double wp[3], wq[3];
            frame_apply(&frames[fr], cases[k].p, wp);
            frame_apply(&frames[fr], cases[k].q, wq);
            float p[3];
            to_float3(wp, p);
            char label[96];
            snprintf(label, sizeof(label), "tetra %s (frame %d)", cases[k].name, fr);
            if (expect_tetra(label, p, pv, wq, cases[k].mask, cases[k].w, GEO_SAME_FEATURE))
            {
                return 1;
            }
            if (cases[k].mask == 15u)
            {
                float w[4], d[3];
                px_closest_point_tetrahedron(p, pv[0], pv[1], pv[2], pv[3], w, d);
                PX_CHECK(d[0] == p[0] && d[1] == p[1] && d[2] == p[2]); /* "p itself when p is inside" */
            }
        }
    }
    return 0;
}

static int tetra_degenerate(void)
{
    /* flat: d in the plane of abc (a unit square) */
    {
        const float a[3] = { 0, 0, 0 }, b[3] = { 1, 0, 0 }, c[3] = { 0, 1, 0 }, d[3] = { 1, 1, 0 };
        const float* v[4] = { a, b, c, d };
        const float p1[3] = { 0.5f, 0.75f, 1 }, p2[3] = { 0.25f, 0.5f, 0 }, p3[3] = { 2, 2, -1 },
                    p4[3] = { 0.5f, -1, 0 };
        const double e1[3] = { 0.5, 0.75, 0 }, e2[3] = { 0.25, 0.5, 0 }, e3[3] = { 1, 1, 0 }, e4[3] = { 0.5, 0, 0 };
        if (expect_tetra("flat square, above", p1, v, e1, 0u, NULL, 0) ||
            expect_tetra("flat square, p inside the flat set", p2, v, e2, 0u, NULL, 0) ||
            expect_tetra("flat square, vertex d region", p3, v, e3, 8u, NULL, 0) ||
            expect_tetra("flat square, edge ab region", p4, v, e4, 3u, NULL, 0))
        {
            return 1;
        }
    }
    /* nearly flat: d lifted by 1e-8 */
    {
        const float a[3] = { 0, 0, 0 }, b[3] = { 1, 0, 0 }, c[3] = { 0, 1, 0 }, d[3] = { 0.3f, 0.3f, 1e-8f };
        const float* v[4] = { a, b, c, d };
        const float p1[3] = { 0.2f, 0.2f, 3 }, p2[3] = { 0.2f, 0.2f, -3 };
        const double e1[3] = { 0.2, 0.2, 0.2 / 0.3 * 1e-8 }, e2[3] = { 0.2, 0.2, 0 };
        /* below: face abc is nearest, but edge ad is only 7e-9 farther (|p - q|^2 differs in the 17th digit),
         * so the feature is not asserted, only the point */
        if (expect_tetra("nearly flat, above", p1, v, e1, 0u, NULL, 0) ||
            expect_tetra("nearly flat, below", p2, v, e2, 0u, NULL, 0))
        {
            return 1;
        }
    }
    /* collinear: all four on a line */
    {
        const float a[3] = { 0, 0, 0 }, b[3] = { 1, 1, 1 }, c[3] = { 3, 3, 3 }, d[3] = { 2, 2, 2 };
        const float* v[4] = { a, b, c, d };
        const float p1[3] = { 2, 2, -1 }, p2[3] = { 5, 4, 6 };
        const double e1[3] = { 1, 1, 1 }, e2[3] = { 3, 3, 3 };
        if (expect_tetra("collinear tetra, inner", p1, v, e1, 0u, NULL, 0) ||
            expect_tetra("collinear tetra, past c", p2, v, e2, 4u, NULL, 0))
        {
            return 1;
        }
    }
    /* two coincident (a == b): the tetrahedron is the triangle acd */
    {
        const float a[3] = { 0, 0, 0 }, c[3] = { 2, 0, 0 }, d[3] = { 0, 2, 0 };
        const float* v[4] = { a, a, c, d };
        const float p1[3] = { 0.5f, 0.5f, 4 }, p2[3] = { -1, -1, 0 };
        const double e1[3] = { 0.5, 0.5, 0 }, e2[3] = { 0, 0, 0 };
        if (expect_tetra("a == b, face", p1, v, e1, 0u, NULL, 0) ||
            expect_tetra("a == b, vertex", p2, v, e2, 0u, NULL, 0))
        {
            return 1;
        }
    }
    /* all coincident */
    {
        const float a[3] = { -3, 2, 1 };
        const float* v[4] = { a, a, a, a };
        const float p1[3] = { 1, 1, 1 };
        const double e1[3] = { -3, 2, 1 };
        if (expect_tetra("all coincident", p1, v, e1, 0u, NULL, 0) ||
            expect_tetra("all coincident, p on it", a, v, e1, 0u, NULL, 0))
        {
            return 1;
        }
    }
    return 0;
}

/* Random tetrahedra (generic, near-flat, long thin; seeded) against the long-double reference. */
static int tetra_random_reference(void)
{
    px_rng r = px_rng_seeded(0x7e7a);
    int fails[3] = { 0, 0, 0 };
    g_ill_conditioned = 0;
    double worst = 0.0;
    g_print_budget = 3;
    for (int k = 0; k < 4000; ++k)
    {
        double dv[4][3], dp[3];
        double s = pow(10.0, px_rng_range(&r, -2, 2));
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j)
            {
                dv[i][j] = px_rng_range(&r, -1, 1);
            }
        for (int j = 0; j < 3; ++j)
        {
            dp[j] = px_rng_range(&r, -1.5, 1.5);
        }
        if (k % 3 == 2)
        {
            /* long thin: stretched along one axis by 10 .. 1000 */
            int ax = px_rng_int(&r, 3);
            double st = pow(10.0, px_rng_range(&r, 1, 3));
            for (int i = 0; i < 4; ++i)
            {
                dv[i][ax] *= st;
            }
            dp[ax] *= st * px_rng_unit(&r);
        }
        if (k % 3 == 1)
        {
            /* near-flat: d close to the plane of abc */
            double u = px_rng_unit(&r), v = px_rng_unit(&r), h = pow(10.0, px_rng_range(&r, -8, -2));
            for (int j = 0; j < 3; ++j)
            {
                dv[3][j] = dv[0][j] + u * (dv[1][j] - dv[0][j]) + v * (dv[2][j] - dv[0][j]) + h * dv[3][j];
            }
        }
        float v[4][3], p[3];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j)
            {
                v[i][j] = (float)(dv[i][j] * s);
            }
        for (int j = 0; j < 3; ++j)
        {
            p[j] = (float)(dp[j] * s);
        }
        const float* pv[4] = { v[0], v[1], v[2], v[3] };
        double tol = GEO_RANDOM_TOL * scale_of(p, pv, 4) + round_floor(p, pv, 4);
        float w[4], d[3];
        uint32_t f = px_closest_point_tetrahedron(p, pv[0], pv[1], pv[2], pv[3], w, d);
        char label[64];
        snprintf(label, sizeof(label), "random tetra %d (kind %d)", k, k % 3);
        if (check_answer(label, p, pv, 4, f, w, d, tol))
        {
            fails[k % 3]++;
            continue;
        }
        ldv3 A, B, C, D, P, q;
        ldv_from_f(v[0], A);
        ldv_from_f(v[1], B);
        ldv_from_f(v[2], C);
        ldv_from_f(v[3], D);
        ldv_from_f(p, P);
        bool inside;
        ld_closest_tetra(P, A, B, C, D, q, &inside);
        const double e[3] = { (double)q[0], (double)q[1], (double)q[2] };
        double delta = round_floor(p, pv, 4) + 4.0 * FLT_EPSILON * scale_of(p, pv, 4);
        if (!(dist_fd(d, e) <= tol) &&
            optimal_within_rounding(d, P, ldv_dist2(P, q), dist_fd(d, e), tol, delta, round_floor(p, pv, 4)))
        {
            g_ill_conditioned++;
            continue;
        }
        if (!(dist_fd(d, e) <= tol))
        {
            fails[k % 3]++;
            worst = fmax(worst, dist_fd(d, e) / scale_of(p, pv, 4));
            if (g_print_budget-- > 0)
            {
                fprintf(stderr,
                        "%s: point {%.9g, %.9g, %.9g} (mask %u), reference {%.9g, %.9g, %.9g}, error %.3g > %.3g\n",
                        label, (double)d[0], (double)d[1], (double)d[2], f, e[0], e[1], e[2], dist_fd(d, e), tol);
                dump_points(label, p, pv, 4);
            }
        }
    }
    g_print_budget = 1 << 30;
    printf("    4000 random tetrahedra: %d ill-conditioned answers off the reference point but optimal within "
           "rounding\n",
           g_ill_conditioned);
    if (fails[0] + fails[1] + fails[2] > 0)
    {
        fprintf(
            stderr,
            "random tetrahedra: %d of 4000 fail (generic %d, near-flat %d, long %d); worst point error %.3g * scale "
            "(tolerance 1e-5)\n",
            fails[0] + fails[1] + fails[2], fails[0], fails[1], fails[2], worst);
        return 1;
    }
    return 0;
}

/* Scale equivariance: scaling every input by 2^k is exact in float, so the answer must scale with it
 * (same mask, point within 2e-5 relative) for 2^-30 .. 2^30, where no intermediate product of up to four
 * lengths can leave the float range. One case per triangle region and per tetrahedron region. */
static int scale_equivariance(void)
{
    int failed = 0;
    const float a[3] = { 0.25f, -0.5f, 0.125f }, b[3] = { 3.5f, 0.75f, -0.25f }, c[3] = { 1, 2.5f, 0.5f };
    const float d[3] = { 1.25f, 0.5f, 2.75f };
    const float ps[][3] = { { -1, -2, 0 },      { 5, 1, 0 },         { 1, 4, 1 },
                            { 2, -1, 1 },       { -1, 1.5f, 0.5f },  { 3, 2.5f, 0 },
                            { 1.5f, 0.75f, 2 }, { 1.5f, 0.75f, -2 }, { 1.4f, 0.7f, 0.6f } };
    for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); ++k)
    {
        float w0[3], q0[3], t0[4], r0[3];
        uint32_t f0 = px_closest_point_triangle(ps[k], a, b, c, w0, q0);
        uint32_t g0 = px_closest_point_tetrahedron(ps[k], a, b, c, d, t0, r0);
        for (int e = -30; e <= 30; e += 3)
        {
            float s = ldexpf(1.0f, e);
            float sa[3], sb[3], sc[3], sd[3], sp[3];
            for (int i = 0; i < 3; ++i)
            {
                sa[i] = a[i] * s;
                sb[i] = b[i] * s;
                sc[i] = c[i] * s;
                sd[i] = d[i] * s;
                sp[i] = ps[k][i] * s;
            }
            float w[3], q[3], t[4], r[3];
            uint32_t f = px_closest_point_triangle(sp, sa, sb, sc, w, q);
            uint32_t g = px_closest_point_tetrahedron(sp, sa, sb, sc, sd, t, r);
            double err_t = 0.0, err_h = 0.0;
            for (int i = 0; i < 3; ++i)
            {
                err_t = fmax(err_t, fabs((double)q[i] / (double)s - (double)q0[i]));
                err_h = fmax(err_h, fabs((double)r[i] / (double)s - (double)r0[i]));
            }
            if (f != f0 || g != g0 || !(err_t <= 2e-5 * 5) || !(err_h <= 2e-5 * 5))
            {
                fprintf(
                    stderr,
                    "scale 2^%d, query %zu {%a, %a, %a}: triangle mask %u (unscaled %u) error %.3g; tetrahedron mask "
                    "%u (unscaled %u) error %.3g (relative to the unscaled answer, tolerance 1e-4)\n",
                    e, k, (double)sp[0], (double)sp[1], (double)sp[2], f, f0, err_t, g, g0, err_h);
                ++failed;
            }
        }
    }
    if (failed > 0)
    {
        fprintf(stderr,
                "scale equivariance: %d (scale, query) pairs fail; a = {%a, %a, %a}, b = {%a, %a, %a}, "
                "c = {%a, %a, %a}, d = {%a, %a, %a} (all times the scale)\n",
                failed, (double)a[0], (double)a[1], (double)a[2], (double)b[0], (double)b[1], (double)b[2],
                (double)c[0], (double)c[1], (double)c[2], (double)d[0], (double)d[1], (double)d[2]);
        return 1;
    }
    return 0;
}

static int feature_kind(void)
{
    static const px_feature_kind expected[16] = {
        PX_FEATURE_NONE, PX_FEATURE_VERTEX, PX_FEATURE_VERTEX, PX_FEATURE_EDGE,     PX_FEATURE_VERTEX, PX_FEATURE_EDGE,
        PX_FEATURE_EDGE, PX_FEATURE_FACE,   PX_FEATURE_VERTEX, PX_FEATURE_EDGE,     PX_FEATURE_EDGE,   PX_FEATURE_FACE,
        PX_FEATURE_EDGE, PX_FEATURE_FACE,   PX_FEATURE_FACE,   PX_FEATURE_INTERIOR,
    };
    for (uint32_t m = 0; m < 16u; ++m)
    {
        if (px_feature_kind_of(m) != expected[m])
        {
            fprintf(stderr, "px_feature_kind_of(%u) = %d, expected %d\n", m, (int)px_feature_kind_of(m),
                    (int)expected[m]);
            return 1;
        }
    }
    PX_CHECK((int)PX_FEATURE_NONE == 0 && (int)PX_FEATURE_VERTEX == 1 && (int)PX_FEATURE_EDGE == 2 &&
             (int)PX_FEATURE_FACE == 3 && (int)PX_FEATURE_INTERIOR == 4);
    return 0;
}

static int aabb_helpers(void)
{
    const px_aabb a = { { 0, 0, 0 }, { 1, 2, 3 } };
    const px_aabb apart = { { 1.5f, 0, 0 }, { 2, 1, 1 } };
    const px_aabb inter = { { 0.5f, 1, 2 }, { 4, 4, 4 } };
    const px_aabb face = { { 1, 0.5f, 0.5f }, { 2, 1, 1 } };       /* touches on the x = 1 face */
    const px_aabb corner = { { 1, 2, 3 }, { 5, 5, 5 } };           /* touches at one corner */
    const px_aabb inside = { { 0.25f, 0.5f, 1 }, { 0.5f, 1, 2 } }; /* contained */
    const px_aabb below = { { -1, -1, -1 }, { 2, 3, -0.001f } };   /* apart along z only */
    PX_CHECK(!px_aabb_overlap(&a, &apart) && !px_aabb_overlap(&apart, &a));
    PX_CHECK(px_aabb_overlap(&a, &inter) && px_aabb_overlap(&inter, &a));
    PX_CHECK(px_aabb_overlap(&a, &face) && px_aabb_overlap(&face, &a));
    PX_CHECK(px_aabb_overlap(&a, &corner) && px_aabb_overlap(&corner, &a));
    PX_CHECK(px_aabb_overlap(&a, &inside) && px_aabb_overlap(&inside, &a));
    PX_CHECK(!px_aabb_overlap(&a, &below) && !px_aabb_overlap(&below, &a));
    PX_CHECK(px_aabb_overlap(&a, &a));
    /* one ulp apart is apart */
    px_aabb ulp = corner;
    ulp.min[0] = nextafterf(1.0f, 2.0f);
    PX_CHECK(!px_aabb_overlap(&a, &ulp));

    const float in[3] = { 0.5f, 1, 1.5f }, on_face[3] = { 1, 1, 1 }, on_corner[3] = { 0, 2, 3 };
    const float out1[3] = { 0.5f, 1, 3.0001f }, out2[3] = { -1e-7f, 1, 1 };
    PX_CHECK(px_aabb_contains_point(&a, in));
    PX_CHECK(px_aabb_contains_point(&a, on_face));
    PX_CHECK(px_aabb_contains_point(&a, on_corner));
    PX_CHECK(!px_aabb_contains_point(&a, out1));
    PX_CHECK(!px_aabb_contains_point(&a, out2));

    px_aabb u;
    px_aabb_union(&a, &apart, &u);
    PX_CHECK(u.min[0] == 0 && u.min[1] == 0 && u.min[2] == 0 && u.max[0] == 2 && u.max[1] == 2 && u.max[2] == 3);
    px_aabb_union(&below, &corner, &u);
    PX_CHECK(u.min[0] == -1 && u.min[1] == -1 && u.min[2] == -1 && u.max[0] == 5 && u.max[1] == 5 && u.max[2] == 5);
    /* dest may alias a or b */
    px_aabb x = a;
    px_aabb_union(&x, &corner, &x);
    PX_CHECK(x.min[0] == 0 && x.max[0] == 5 && x.max[1] == 5 && x.max[2] == 5);
    x = a;
    px_aabb_union(&below, &x, &x);
    PX_CHECK(x.min[0] == -1 && x.min[2] == -1 && x.max[1] == 3 && x.max[2] == 3);

    PX_CHECK(px_aabb_surface_area(&a) == 22.0f); /* 2 (1*2 + 2*3 + 3*1) */
    const px_aabb flat = { { 0, 0, 5 }, { 2, 3, 5 } };
    PX_CHECK(px_aabb_surface_area(&flat) == 12.0f);
    const px_aabb point = { { 1, 1, 1 }, { 1, 1, 1 } };
    PX_CHECK(px_aabb_surface_area(&point) == 0.0f);
    const px_aabb inverted = { { 1, 1, 1 }, { 0, 2, 2 } };
    PX_CHECK(px_aabb_surface_area(&inverted) == 0.0f);
    const px_aabb inverted_all = { { 1, 1, 1 }, { -1, -1, -1 } }; /* two negative extents: positive products */
    PX_CHECK(px_aabb_surface_area(&inverted_all) == 0.0f);
    const px_aabb inverted_z = { { 0, 0, 1 }, { 2, 2, 0.5f } };
    PX_CHECK(px_aabb_surface_area(&inverted_z) == 0.0f);
    return 0;
}

/* The double-precision helpers GJK calls on request give NaN or false for degenerate input without dividing
 * by zero (the sanitizer build aborts on a float division by zero: a zero-length simplex edge of a
 * degenerate mesh triangle reached it, helper-43's sweep). */
static int double_helpers_degenerate(void)
{
    const double a[3] = { 1e30, 2.0, -3.0 }, b[3] = { 1e30, 2.0, -3.0 }, c[3] = { 0.0, 0.0, 0.0 };
    PX_CHECK(isnan(pxi_segment_param_double(a, b)));
    PX_CHECK(isnan(pxi_segment_param_double(c, c)));
    const double e[3] = { 2.0, 0.0, 0.0 };
    PX_CHECK(fabs(pxi_segment_param_double(e, c) - 1.0) == 0.0); /* the origin is b itself */
    double lam[3] = { 7.0, 7.0, 7.0 };
    const double p[3] = { 1.0, 1.0, 1.0 }, q[3] = { 2.0, 2.0, 2.0 }, r[3] = { 3.0, 3.0, 3.0 };
    PX_CHECK(!pxi_triangle_weights_double(p, q, r, lam)); /* collinear */
    PX_CHECK(lam[0] == 7.0 && lam[1] == 7.0 && lam[2] == 7.0);
    return 0;
}

int test_geometry(void)
{
    build_perm4();
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(segment_regions);
    PX_RUN_SUBTEST(segment_degenerate);
    PX_RUN_SUBTEST(triangle_regions);
    PX_RUN_SUBTEST(triangle_libccd_cases);
    PX_RUN_SUBTEST(triangle_degenerate);
    PX_RUN_SUBTEST(triangle_known_failures);
    PX_RUN_SUBTEST(triangle_sliver_face_projection);
    PX_RUN_SUBTEST(triangle_thin_face_outside);
    PX_RUN_SUBTEST(triangle_random_reference);
    PX_RUN_SUBTEST(tetra_regions);
    PX_RUN_SUBTEST(tetra_degenerate);
    PX_RUN_SUBTEST(tetra_random_reference);
    PX_RUN_SUBTEST(scale_equivariance);
    PX_RUN_SUBTEST(feature_kind);
    PX_RUN_SUBTEST(aabb_helpers);
    PX_RUN_SUBTEST(double_helpers_degenerate);
    PX_SUITE_END;
}
