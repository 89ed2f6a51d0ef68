/* Simplex solver (simplex.h): push, reduce, witness points, duplicate test, max |w|^2, cache store,
 * encloses-origin.
 *
 * Contract under test: w = p - q for every pushed vertex; reduce keeps the sub-simplex whose Voronoi
 * region holds the origin, in the original order, with weights that sum to 1 and reproduce the closest
 * point; feature bits name the kept vertices in the pre-reduce order; collinear, coplanar and duplicate
 * vertices give the nearest point of the hull and never NaN, with PX_WARN_DEGENERATE "when a flat
 * tetrahedron or degenerate triangle forced the fallback"; a 5th push is PX_WARN_CAPACITY (nothing added);
 * reduce on an empty simplex is PX_ERR_INVALID_ARGUMENT with dest zeroed.
 *
 * Witness points are checked against an independent brute force: the nearest point of the hull of the
 * w's, found by solving the affine projection of the origin on every subset in long double and keeping
 * the nearest subset whose weights are all >= 0; those weights applied to p and q give the reference
 * witnesses. */
#include <float.h>
#include <string.h>

#include "proxima/proxima.h"
#include "simplex/simplex_internal.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

static bool finite3(const float* v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static double len3(const float* v)
{
    return sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
}

/* Push p_i = w_i + q_i with a fixed, exactly representable q_i, so that w = p - q exactly. */
static int push_w(px_simplex* s, const float* w, int i)
{
    float q[3] = { 0.5f * (float)(i + 1), -0.25f * (float)(i + 1), 1.0f + (float)i };
    float p[3] = { w[0] + q[0], w[1] + q[1], w[2] + q[2] };
    return px_simplex_push(s, p, q, 10 + i, 20 + i) == PX_OK ? 0 : 1;
}

static void dump_simplex(const char* label, const px_simplex* s)
{
    fprintf(stderr, "  [%s] count %d feature %u\n", label, s->count, s->feature);
    for (int i = 0; i < s->count && i < 4; ++i)
    {
        fprintf(stderr, "    v[%d] w {%a, %a, %a} p {%a, %a, %a} q {%a, %a, %a} bary %a idx %d %d\n", i,
                (double)s->v[i].w[0], (double)s->v[i].w[1], (double)s->v[i].w[2], (double)s->v[i].p[0],
                (double)s->v[i].p[1], (double)s->v[i].p[2], (double)s->v[i].q[0], (double)s->v[i].q[1],
                (double)s->v[i].q[2], (double)s->v[i].bary, s->v[i].index_a, s->v[i].index_b);
    }
}

/* ----------------------------------------------------------------------------------------------------- */
/* Brute force: nearest point of conv{w_i} to the origin, with its weights. */

/* Solve the m x m system a x = b (m <= 3) by Gaussian elimination with partial pivoting. False when
 * singular. */
static bool ld_solve(long double a[3][3], long double b[3], int m, long double x[3])
{
    for (int c = 0; c < m; ++c)
    {
        int piv = c;
        for (int r = c + 1; r < m; ++r)
        {
            if (fabsl(a[r][c]) > fabsl(a[piv][c]))
            {
                piv = r;
            }
        }
        if (fabsl(a[piv][c]) < 1e-300L)
        {
            return false;
        }
        if (piv != c)
        {
            for (int k = 0; k < m; ++k)
            {
                long double t = a[c][k];
                a[c][k] = a[piv][k];
                a[piv][k] = t;
            }
            long double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < m; ++r)
        {
            long double f = a[r][c] / a[c][c];
            for (int k = c; k < m; ++k)
            {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    for (int r = m - 1; r >= 0; --r)
    {
        long double t = b[r];
        for (int k = r + 1; k < m; ++k)
        {
            t -= a[r][k] * x[k];
        }
        x[r] = t / a[r][r];
    }
    return true;
}

/* Weights lambda (over all n points, 0 outside the chosen subset) of the nearest point of the hull. */
static long double brute_force_weights(ldv3* w, int n, long double lambda[4])
{
    long double best = INFINITY;
    for (uint32_t mask = 1; mask < (1u << n); ++mask)
    {
        int idx[4], m = 0;
        for (int i = 0; i < n; ++i)
        {
            if (mask & (1u << i))
            {
                idx[m++] = i;
            }
        }
        long double mu[3] = { 0, 0, 0 };
        if (m > 1)
        {
            long double g[3][3], rhs[3];
            ldv3 e[3];
            for (int j = 1; j < m; ++j)
            {
                ldv_sub(w[idx[j]], w[idx[0]], e[j - 1]);
            }
            for (int j = 0; j < m - 1; ++j)
            {
                for (int k = 0; k < m - 1; ++k)
                {
                    g[j][k] = ldv_dot(e[j], e[k]);
                }
                rhs[j] = -ldv_dot(e[j], w[idx[0]]);
            }
            if (!ld_solve(g, rhs, m - 1, mu))
            {
                continue; /* affinely dependent subset: a smaller subset covers it */
            }
        }
        long double lam[4] = { 0, 0, 0, 0 };
        long double l0 = 1.0L;
        for (int j = 1; j < m; ++j)
        {
            lam[idx[j]] = mu[j - 1];
            l0 -= mu[j - 1];
        }
        lam[idx[0]] = l0;
        bool ok = true;
        for (int i = 0; i < n; ++i)
        {
            ok = ok && lam[i] >= -1e-12L;
        }
        if (!ok)
        {
            continue;
        }
        ldv3 x = { 0, 0, 0 };
        for (int i = 0; i < n; ++i)
        {
            ldv_mad(x, lam[i], w[i], x);
        }
        long double d2 = ldv_dot(x, x);
        if (d2 < best)
        {
            best = d2;
            for (int i = 0; i < 4; ++i)
            {
                lambda[i] = i < n ? lam[i] : 0.0L;
            }
        }
    }
    return best;
}

/* ----------------------------------------------------------------------------------------------------- */

static int push_fields_and_reset(void)
{
    px_simplex s;
    memset(&s, 0x5a, sizeof(s));
    px_simplex_reset(&s);
    PX_CHECK(s.count == 0);
    px_simplex zero;
    memset(&zero, 0, sizeof(zero));
    PX_CHECK(memcmp(&s, &zero, sizeof(s)) == 0);

    const float p[3] = { 1.5f, -2, 3 }, q[3] = { 0.25f, 4, -1 };
    PX_CHECK_STATUS(px_simplex_push(&s, p, q, 7, 9), PX_OK);
    PX_CHECK(s.count == 1);
    PX_CHECK(s.v[0].w[0] == 1.25f && s.v[0].w[1] == -6.0f && s.v[0].w[2] == 4.0f);
    PX_CHECK(memcmp(s.v[0].p, p, sizeof(p)) == 0 && memcmp(s.v[0].q, q, sizeof(q)) == 0);
    PX_CHECK(s.v[0].index_a == 7 && s.v[0].index_b == 9);
    PX_CHECK(px_simplex_has_vertex(&s, 7, 9));
    PX_CHECK(!px_simplex_has_vertex(&s, 9, 7));
    PX_CHECK(!px_simplex_has_vertex(&s, 7, 8));
    PX_CHECK(!px_simplex_has_vertex(&s, PX_NULL_INDEX, 9));
    PX_CHECK(!px_simplex_has_vertex(&s, 7, PX_NULL_INDEX));

    /* indices with PX_NULL_INDEX are stored but never reported as present */
    PX_CHECK_STATUS(px_simplex_push(&s, q, p, PX_NULL_INDEX, 3), PX_OK);
    PX_CHECK(s.count == 2 && s.v[1].index_a == PX_NULL_INDEX && s.v[1].index_b == 3);
    PX_CHECK(!px_simplex_has_vertex(&s, PX_NULL_INDEX, 3));
    PX_CHECK(s.v[1].w[0] == -1.25f && s.v[1].w[1] == 6.0f && s.v[1].w[2] == -4.0f);

    px_simplex_reset(&s);
    PX_CHECK(s.count == 0);
    PX_CHECK(!px_simplex_has_vertex(&s, 7, 9));
    return 0;
}

static int capacity_warning(void)
{
    px_simplex s;
    px_simplex_reset(&s);
    const float pts[5][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 }, { 1, 1, 1 }, { 5, 5, 5 } };
    const float zero[3] = { 0, 0, 0 };
    for (int i = 0; i < 4; ++i)
    {
        PX_CHECK_STATUS(px_simplex_push(&s, pts[i], zero, i, 0), PX_OK);
    }
    PX_CHECK(s.count == 4);
    px_simplex before = s;
    PX_CHECK_STATUS(px_simplex_push(&s, pts[4], zero, 4, 0), PX_WARN_CAPACITY);
    PX_CHECK(s.count == 4);
    PX_CHECK(memcmp(&s, &before, sizeof(s)) == 0);
    PX_CHECK(!px_simplex_has_vertex(&s, 4, 0));
    PX_CHECK_STATUS(px_simplex_push(&s, pts[4], zero, 4, 0), PX_WARN_CAPACITY);
    PX_CHECK(memcmp(&s, &before, sizeof(s)) == 0);
    return 0;
}

static int reduce_empty_is_error(void)
{
    px_simplex s;
    px_simplex_reset(&s);
    float dest[3] = { NAN, 1, -1 };
    PX_CHECK_STATUS(px_simplex_reduce(&s, dest), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(dest[0] == 0.0f && dest[1] == 0.0f && dest[2] == 0.0f);
    PX_CHECK(!signbit(dest[0]) && !signbit(dest[1]) && !signbit(dest[2]));
    PX_CHECK(s.count == 0);
    PX_CHECK(!px_simplex_encloses_origin(&s));
    float pa[3] = { 1, 1, 1 }, pb[3] = { 1, 1, 1 };
    px_simplex_witness_points(&s, pa, pb);
    PX_CHECK(pa[0] == 0 && pa[1] == 0 && pa[2] == 0 && pb[0] == 0 && pb[1] == 0 && pb[2] == 0);
    PX_CHECK(px_simplex_max_norm2(&s) == 0.0f);
    return 0;
}

/* Reduce a simplex built from ws (w_i exactly), and check the kept vertices (original indices, in order),
 * their weights, the feature, the point and the witnesses. */
static int expect_reduce(const char* label, const float (*ws)[3], int n, const int* kept, int nkept,
                         const double* weights, const double* point, px_status expected_status)
{
    px_simplex s;
    px_simplex_reset(&s);
    for (int i = 0; i < n; ++i)
    {
        if (push_w(&s, ws[i], i))
        {
            fprintf(stderr, "%s: push %d failed\n", label, i);
            return 1;
        }
    }
    px_simplex orig = s;
    float dest[3] = { NAN, NAN, NAN };
    px_status st = px_simplex_reduce(&s, dest);
    bool bad = false;
    if (st != expected_status)
    {
        fprintf(stderr, "%s: status %d (%s), expected %d\n", label, (int)st, px_status_string(st),
                (int)expected_status);
        bad = true;
    }
    uint32_t mask = 0;
    for (int i = 0; i < nkept; ++i)
    {
        mask |= 1u << kept[i];
    }
    if (s.count != nkept || s.feature != mask)
    {
        fprintf(stderr, "%s: kept %d vertices (feature %u), expected %d (feature %u)\n", label, s.count, s.feature,
                nkept, mask);
        bad = true;
    }
    for (int i = 0; !bad && i < nkept; ++i)
    {
        const px_simplex_vertex* v = &s.v[i];
        const px_simplex_vertex* o = &orig.v[kept[i]];
        if (memcmp(v->w, o->w, sizeof(v->w)) != 0 || memcmp(v->p, o->p, sizeof(v->p)) != 0 ||
            memcmp(v->q, o->q, sizeof(v->q)) != 0 || v->index_a != o->index_a || v->index_b != o->index_b)
        {
            fprintf(stderr, "%s: kept vertex %d is not original vertex %d\n", label, i, kept[i]);
            bad = true;
        }
        if (!(fabs((double)v->bary - weights[i]) <= 2e-6))
        {
            fprintf(stderr, "%s: weight of kept vertex %d is %.9g, expected %.9g\n", label, i, (double)v->bary,
                    weights[i]);
            bad = true;
        }
    }
    if (!bad && !(fabs((double)dest[0] - point[0]) <= 2e-6 && fabs((double)dest[1] - point[1]) <= 2e-6 &&
                  fabs((double)dest[2] - point[2]) <= 2e-6))
    {
        fprintf(stderr, "%s: closest point {%.9g, %.9g, %.9g}, expected {%.9g, %.9g, %.9g}\n", label, (double)dest[0],
                (double)dest[1], (double)dest[2], point[0], point[1], point[2]);
        bad = true;
    }
    /* witnesses: the weights applied to p and q; their difference is the closest point */
    float pa[3], pb[3];
    px_simplex_witness_points(&s, pa, pb);
    double ea[3] = { 0, 0, 0 }, eb[3] = { 0, 0, 0 };
    for (int i = 0; i < nkept; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            ea[k] += weights[i] * (double)orig.v[kept[i]].p[k];
            eb[k] += weights[i] * (double)orig.v[kept[i]].q[k];
        }
    }
    for (int k = 0; !bad && k < 3; ++k)
    {
        if (!(fabs((double)pa[k] - ea[k]) <= 1e-5 && fabs((double)pb[k] - eb[k]) <= 1e-5 &&
              fabs((double)(pa[k] - pb[k]) - point[k]) <= 1e-5))
        {
            fprintf(stderr,
                    "%s: witness a {%.9g, %.9g, %.9g} b {%.9g, %.9g, %.9g}, expected {%.9g, %.9g, %.9g} and "
                    "{%.9g, %.9g, %.9g}\n",
                    label, (double)pa[0], (double)pa[1], (double)pa[2], (double)pb[0], (double)pb[1], (double)pb[2],
                    ea[0], ea[1], ea[2], eb[0], eb[1], eb[2]);
            bad = true;
        }
    }
    bool encloses = nkept == 4;
    if (!bad && px_simplex_encloses_origin(&s) != encloses)
    {
        fprintf(stderr, "%s: encloses_origin %d, expected %d\n", label, (int)px_simplex_encloses_origin(&s),
                (int)encloses);
        bad = true;
    }
    if (bad)
    {
        dump_simplex(label, &orig);
        return 1;
    }
    return 0;
}

static int reduce_point_and_segment(void)
{
    int bad = 0;
    {
        const float w[1][3] = { { 3, -4, 12 } };
        const int k[1] = { 0 };
        const double wt[1] = { 1 }, pt[3] = { 3, -4, 12 };
        bad |= expect_reduce("one vertex", w, 1, k, 1, wt, pt, PX_OK);
    }
    {
        const float w[2][3] = { { 1, 0, 0 }, { 2, 0, 1 } };
        const int k[1] = { 0 };
        const double wt[1] = { 1 }, pt[3] = { 1, 0, 0 };
        bad |= expect_reduce("segment, keeps v0", w, 2, k, 1, wt, pt, PX_OK);
    }
    {
        const float w[2][3] = { { 2, 0, 1 }, { 1, 0, 0 } };
        const int k[1] = { 1 };
        const double wt[1] = { 1 }, pt[3] = { 1, 0, 0 };
        bad |= expect_reduce("segment, keeps v1", w, 2, k, 1, wt, pt, PX_OK);
    }
    {
        const float w[2][3] = { { -1, 1, 0 }, { 3, 1, 0 } };
        const int k[2] = { 0, 1 };
        const double wt[2] = { 0.75, 0.25 }, pt[3] = { 0, 1, 0 };
        bad |= expect_reduce("segment, interior", w, 2, k, 2, wt, pt, PX_OK);
    }
    {
        /* the origin on the segment: distance 0, both kept */
        const float w[2][3] = { { -1, 0, 0 }, { 3, 0, 0 } };
        const int k[2] = { 0, 1 };
        const double wt[2] = { 0.75, 0.25 }, pt[3] = { 0, 0, 0 };
        bad |= expect_reduce("segment through the origin", w, 2, k, 2, wt, pt, PX_OK);
    }
    return bad;
}

/* Triangle a(0,0,0) b(4,0,0) c(1,3,0) seen from query point P: w_i = v_i - P, the origin is P's image. */
static int reduce_triangle_regions(void)
{
    static const float V[3][3] = { { 0, 0, 0 }, { 4, 0, 0 }, { 1, 3, 0 } };
    static const struct
    {
        const char* name;
        float p[3];
        int kept[3];
        int nkept;
        double w[3];
        double q[3];
    } cases[] = {
        { "vertex a", { -1, -1, 0.5f }, { 0 }, 1, { 1 }, { 0, 0, 0 } },
        { "vertex b", { 5, -1, 0.5f }, { 1 }, 1, { 1 }, { 4, 0, 0 } },
        { "vertex c", { 1, 5, -0.5f }, { 2 }, 1, { 1 }, { 1, 3, 0 } },
        { "edge ab", { 2, -1, 0.75f }, { 0, 1 }, 2, { 0.5, 0.5 }, { 2, 0, 0 } },
        { "edge ac", { -2.5f, 2.5f, -0.25f }, { 0, 2 }, 2, { 0.5, 0.5 }, { 0.5, 1.5, 0 } },
        { "edge bc", { 3.5f, 2.5f, 0.5f }, { 1, 2 }, 2, { 0.5, 0.5 }, { 2.5, 1.5, 0 } },
        { "face above", { 1.5f, 1, 2 }, { 0, 1, 2 }, 3, { 9.0 / 24, 7.0 / 24, 8.0 / 24 }, { 1.5, 1, 0 } },
        { "face below", { 1.5f, 1, -2 }, { 0, 1, 2 }, 3, { 9.0 / 24, 7.0 / 24, 8.0 / 24 }, { 1.5, 1, 0 } },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k)
    {
        float w[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
            {
                w[i][j] = V[i][j] - cases[k].p[j];
            }
        double pt[3];
        for (int j = 0; j < 3; ++j)
        {
            pt[j] = cases[k].q[j] - (double)cases[k].p[j];
        }
        char label[64];
        snprintf(label, sizeof(label), "triangle %s", cases[k].name);
        bad |= expect_reduce(label, (const float(*)[3])w, 3, cases[k].kept, cases[k].nkept, cases[k].w, pt, PX_OK);
    }
    return bad;
}

/* Tetrahedron a(0,0,0) b(1,0,0) c(0,1,0) d(0,0,1), query points in each region. */
static int reduce_tetra_regions(void)
{
    static const float V[4][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
    static const struct
    {
        const char* name;
        float p[3];
        int kept[4];
        int nkept;
        double w[4];
        double q[3];
    } cases[] = {
        { "inside",
          { 0.125f, 0.25f, 0.375f },
          { 0, 1, 2, 3 },
          4,
          { 0.25, 0.125, 0.25, 0.375 },
          { 0.125, 0.25, 0.375 } },
        { "face abc", { 0.25f, 0.25f, -1 }, { 0, 1, 2 }, 3, { 0.5, 0.25, 0.25 }, { 0.25, 0.25, 0 } },
        { "face abd", { 0.25f, -1, 0.25f }, { 0, 1, 3 }, 3, { 0.5, 0.25, 0.25 }, { 0.25, 0, 0.25 } },
        { "face acd", { -1, 0.25f, 0.25f }, { 0, 2, 3 }, 3, { 0.5, 0.25, 0.25 }, { 0, 0.25, 0.25 } },
        { "face bcd", { 1, 1, 1 }, { 1, 2, 3 }, 3, { 1.0 / 3, 1.0 / 3, 1.0 / 3 }, { 1.0 / 3, 1.0 / 3, 1.0 / 3 } },
        { "edge ab", { 0.5f, -1, -1 }, { 0, 1 }, 2, { 0.5, 0.5 }, { 0.5, 0, 0 } },
        { "edge ac", { -1, 0.5f, -1 }, { 0, 2 }, 2, { 0.5, 0.5 }, { 0, 0.5, 0 } },
        { "edge ad", { -1, -1, 0.5f }, { 0, 3 }, 2, { 0.5, 0.5 }, { 0, 0, 0.5 } },
        { "edge bc", { 1, 1, -0.5f }, { 1, 2 }, 2, { 0.5, 0.5 }, { 0.5, 0.5, 0 } },
        { "edge bd", { 1, -0.5f, 1 }, { 1, 3 }, 2, { 0.5, 0.5 }, { 0.5, 0, 0.5 } },
        { "edge cd", { -0.5f, 1, 1 }, { 2, 3 }, 2, { 0.5, 0.5 }, { 0, 0.5, 0.5 } },
        { "vertex a", { -1, -1, -1 }, { 0 }, 1, { 1 }, { 0, 0, 0 } },
        { "vertex b", { 2, -1, -1 }, { 1 }, 1, { 1 }, { 1, 0, 0 } },
        { "vertex c", { -1, 2, -1 }, { 2 }, 1, { 1 }, { 0, 1, 0 } },
        { "vertex d", { -1, -1, 2 }, { 3 }, 1, { 1 }, { 0, 0, 1 } },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k)
    {
        float w[4][3];
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j)
            {
                w[i][j] = V[i][j] - cases[k].p[j];
            }
        double pt[3];
        for (int j = 0; j < 3; ++j)
        {
            pt[j] = cases[k].nkept == 4 ? 0.0 : cases[k].q[j] - (double)cases[k].p[j];
        }
        char label[64];
        snprintf(label, sizeof(label), "tetra %s", cases[k].name);
        bad |= expect_reduce(label, (const float(*)[3])w, 4, cases[k].kept, cases[k].nkept, cases[k].w, pt, PX_OK);
    }
    /* inside: dest is exactly 0 ("0 when a tetrahedron encloses it"), the witnesses coincide */
    {
        px_simplex s;
        px_simplex_reset(&s);
        for (int i = 0; i < 4; ++i)
        {
            float w[3] = { V[i][0] - 0.2f, V[i][1] - 0.3f, V[i][2] - 0.1f };
            PX_CHECK(push_w(&s, w, i) == 0);
        }
        float dest[3] = { NAN, NAN, NAN };
        PX_CHECK_STATUS(px_simplex_reduce(&s, dest), PX_OK);
        PX_CHECK(dest[0] == 0.0f && dest[1] == 0.0f && dest[2] == 0.0f);
        PX_CHECK(px_simplex_encloses_origin(&s));
        PX_CHECK(s.feature == 15u && s.count == 4);
        float pa[3], pb[3];
        px_simplex_witness_points(&s, pa, pb);
        PX_CHECK_NEAR3(pa, pb, 1e-6);
        double sum = 0.0;
        for (int i = 0; i < 4; ++i)
        {
            PX_CHECK(s.v[i].bary >= 0.0f && s.v[i].bary <= 1.0f);
            sum += s.v[i].bary;
        }
        PX_CHECK_NEAR(sum, 1.0, 4 * FLT_EPSILON);
        /* a non-enclosing reduce afterwards clears encloses_origin */
        float far[3] = { 5, 5, 5 };
        px_simplex_reset(&s);
        PX_CHECK(push_w(&s, far, 0) == 0);
        PX_CHECK_STATUS(px_simplex_reduce(&s, dest), PX_OK);
        PX_CHECK(!px_simplex_encloses_origin(&s));
    }
    return bad;
}

/* The nearest point of the hull (brute force) for a simplex given by its w's; dest must match, no NaN. */
static int expect_nearest(const char* label, const float (*ws)[3], int n, px_status s1, px_status s2)
{
    px_simplex s;
    px_simplex_reset(&s);
    for (int i = 0; i < n; ++i)
    {
        PX_CHECK(push_w(&s, ws[i], i) == 0);
    }
    px_simplex orig = s;
    float dest[3] = { NAN, NAN, NAN };
    px_status st = px_simplex_reduce(&s, dest);
    ldv3 w[4], ref;
    double scale = 0.0;
    for (int i = 0; i < n; ++i)
    {
        ldv_from_f(ws[i], w[i]);
        scale = fmax(scale, len3(ws[i]));
    }
    long double d2 = ld_closest_hull_origin(w, n, ref);
    double err = sqrt(pow((double)dest[0] - (double)ref[0], 2) + pow((double)dest[1] - (double)ref[1], 2) +
                      pow((double)dest[2] - (double)ref[2], 2));
    bool bad = false;
    if (st != s1 && st != s2)
    {
        fprintf(stderr, "%s: status %d (%s), expected %d or %d\n", label, (int)st, px_status_string(st), (int)s1,
                (int)s2);
        bad = true;
    }
    if (!finite3(dest) || !(err <= 1e-5 * fmax(scale, 1e-30)))
    {
        fprintf(stderr, "%s: closest point {%a, %a, %a}, reference {%.9Lg, %.9Lg, %.9Lg} (distance %.9Lg)\n", label,
                (double)dest[0], (double)dest[1], (double)dest[2], ref[0], ref[1], ref[2], sqrtl(d2));
        bad = true;
    }
    double sum = 0.0;
    for (int i = 0; i < s.count; ++i)
    {
        if (!(s.v[i].bary >= 0.0f && s.v[i].bary <= 1.0f))
        {
            fprintf(stderr, "%s: weight %d = %a\n", label, i, (double)s.v[i].bary);
            bad = true;
        }
        sum += s.v[i].bary;
    }
    if (s.count < 1 || s.count > 4 || !(fabs(sum - 1.0) <= 8 * FLT_EPSILON))
    {
        fprintf(stderr, "%s: %d vertices kept, weight sum %.9g\n", label, s.count, sum);
        bad = true;
    }
    float pa[3], pb[3];
    px_simplex_witness_points(&s, pa, pb);
    if (!finite3(pa) || !finite3(pb))
    {
        fprintf(stderr, "%s: non-finite witness points\n", label);
        bad = true;
    }
    if (bad)
    {
        dump_simplex(label, &orig);
        return 1;
    }
    return 0;
}

static int reduce_degenerate(void)
{
    int bad = 0;
    /* duplicate vertices in a segment */
    {
        const float w[2][3] = { { 1, 2, 2 }, { 1, 2, 2 } };
        bad |= expect_nearest("segment, duplicate", w, 2, PX_OK, PX_WARN_DEGENERATE);
    }
    /* exactly collinear triangles, the origin beside the line and on it */
    {
        const float w1[3][3] = { { -1, 1, 0 }, { 0, 1, 0 }, { 1, 1, 0 } };
        const float w2[3][3] = { { -1, 1, 0 }, { 2, 1, 0 }, { 1, 1, 0 } };
        const float w3[3][3] = { { 1, 1, 0 }, { 2, 2, 0 }, { 3, 3, 0 } };
        const float w4[3][3] = { { -3, 0, 0 }, { 1, 0, 0 }, { 2, 0, 0 } };
        bad |= expect_nearest("collinear triangle, middle vertex nearest", w1, 3, PX_OK, PX_WARN_DEGENERATE);
        bad |= expect_nearest("collinear triangle, interior nearest", w2, 3, PX_OK, PX_WARN_DEGENERATE);
        bad |= expect_nearest("collinear triangle, end vertex nearest", w3, 3, PX_OK, PX_WARN_DEGENERATE);
        bad |= expect_nearest("collinear triangle through the origin", w4, 3, PX_OK, PX_WARN_DEGENERATE);
    }
    /* duplicate vertices in triangles: every position of the pair, origin in several places */
    {
        const float d[3] = { 1, 1, 0 }, o[3] = { 3, 1, 0 };
        const float shifts[4][3] = { { -2, -2, 0 }, { -1, -2, 0.5f }, { -4, -1, 0 }, { 0.5f, 0.5f, 0.5f } };
        for (int sh = 0; sh < 4; ++sh)
        {
            for (int pos = 0; pos < 3; ++pos)
            {
                float w[3][3];
                for (int i = 0; i < 3; ++i)
                {
                    const float* src = (i == pos) ? o : d;
                    for (int j = 0; j < 3; ++j)
                    {
                        w[i][j] = src[j] + shifts[sh][j];
                    }
                }
                char label[64];
                snprintf(label, sizeof(label), "triangle with a duplicate (shift %d, odd one %d)", sh, pos);
                bad |= expect_nearest(label, (const float(*)[3])w, 3, PX_OK, PX_WARN_DEGENERATE);
            }
        }
        const float all[3][3] = { { 1, -2, 3 }, { 1, -2, 3 }, { 1, -2, 3 } };
        bad |= expect_nearest("triangle, all coincident", all, 3, PX_OK, PX_WARN_DEGENERATE);
    }
    /* flat tetrahedra must warn ("a flat tetrahedron ... forced the fallback to its faces") */
    {
        const float coplanar[4][3] = { { -1, -1, 1 }, { 2, -1, 1 }, { -1, 2, 1 }, { 1, 1, 1 } };
        const float coplanar_around[4][3] = { { -1, -1, 0 }, { 2, -1, 0 }, { -1, 2, 0 }, { 1, 1, 0 } };
        const float collinear[4][3] = { { 1, 1, 1 }, { 2, 2, 2 }, { 4, 4, 4 }, { 3, 3, 3 } };
        const float dup[4][3] = { { 1, 0, 1 }, { 1, 0, 1 }, { -1, 2, 1 }, { 0, -2, 1 } };
        const float all[4][3] = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } };
        bad |= expect_nearest("coplanar tetrahedron", coplanar, 4, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE);
        bad |= expect_nearest("coplanar tetrahedron around the origin", coplanar_around, 4, PX_WARN_DEGENERATE,
                              PX_WARN_DEGENERATE);
        bad |= expect_nearest("collinear tetrahedron", collinear, 4, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE);
        bad |= expect_nearest("tetrahedron with a duplicate", dup, 4, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE);
        bad |= expect_nearest("tetrahedron, all coincident", all, 4, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE);
    }
    return bad;
}

/* Frozen tetrahedra from witness_brute_force where the nearest point sits near an edge shared by two
 * candidates, so that their squared distances differ only at second order, below float resolution:
 *  - PX_TEST_SEED=36, simplex 811: faces 013 and 213 are both outside; 013's interior point (0.023 from
 *    edge 13, 45 from the origin) is nearer than edge 13 by 6e-6 in distance, but its |q|^2 rounded 4 ulp
 *    above the edge's, and the edge was returned (point off by 0.023, tolerance 1.3e-3).
 *  - PX_TEST_SEED=194, simplex 5371: face 012's solve returns vertex 1 (its |q|^2 and that of edge 12's
 *    interior point, at weight 1.0e-4, round to the same float) and face 213's returns the edge point:
 *    vertex 1 would be 1.1e-3 off, with tolerance 1.1e-4. A rule that let face 012 keep its answer
 *    because the edge lies on it fails here.
 * The larger feature must win in both (pxi_candidate_wins). */
static int reduce_shared_edge_ties(void)
{
    int bad = 0;
    const float t36[4][3] = { { 0x1.2aa474p+4f, 0x1.b581fp+5f, -0x1.0efc3ep+6f },
                              { 0x1.39972p+3f, 0x1.280e7ep+4f, -0x1.2a416p+6f },
                              { -0x1.0253b8p+7f, -0x1.981d6p+6f, -0x1.e07d5ap+3f },
                              { -0x1.bd717ep+6f, 0x1.bd8d2p+1f, 0x1.d1800ap+5f } };
    const float t194[4][3] = { { -0x1.5bb09cp+3f, -0x1.63007ap+3f, -0x1.3a9a86p+2f },
                               { -0x1.035064p+2f, -0x1.165618p-2f, -0x1.f02e78p+1f },
                               { -0x1.605d6ap+3f, -0x1.eef786p+1f, 0x1.d39ee2p+1f },
                               { -0x1.b2c94cp+2f, -0x1.324144p-1f, -0x1.074a5ep+1f } };
    bad |= expect_nearest("face beside its edge (seed 36)", t36, 4, PX_OK, PX_OK);
    bad |= expect_nearest("edge beside its vertex (seed 194)", t194, 4, PX_OK, PX_OK);
    return bad;
}

/* A triangle of relative height 1e-6 whose face region holds the origin's projection: the face test is
 * degenerate, so the solver falls back to the edges and must say so (PX_WARN_DEGENERATE). The point is
 * still the nearest within the triangle's height. */
static int degenerate_triangle_warns(void)
{
    const float w[3][3] = { { -1, 1, -1e-6f }, { 1, 1, -1e-6f }, { 0, 1, 1e-6f } };
    px_simplex s;
    px_simplex_reset(&s);
    for (int i = 0; i < 3; ++i)
    {
        PX_CHECK(push_w(&s, w[i], i) == 0);
    }
    float dest[3] = { NAN, NAN, NAN };
    px_status st = px_simplex_reduce(&s, dest);
    PX_CHECK(finite3(dest));
    PX_CHECK_NEAR(dest[0], 0.0, 1e-6);
    PX_CHECK_NEAR(dest[1], 1.0, 1e-6);
    PX_CHECK_NEAR(dest[2], 0.0, 2e-6);
    if (st != PX_WARN_DEGENERATE)
    {
        fprintf(stderr,
                "degenerate triangle (normal^2 %.3g of edge^2 product) reduced to feature %u with status %d (%s), "
                "documented: PX_WARN_DEGENERATE\n",
                1.6e-11 / 4.0, s.feature, (int)st, px_status_string(st));
        dump_simplex("degenerate triangle", &s);
        return 1;
    }
    return 0;
}

/* Random simplices of 1..4 vertices: closest point, weights and witnesses against the brute force. */
/* One simplex of witness_brute_force: the reduced point and the witnesses against the long-double brute
 * force, within 1e-5 of the largest |p|, |q|. Returns 1 (and prints, if print) on a violation. */
static int witness_case(const char* label, int n, float p[4][3], float q[4][3], bool print)
{
    px_simplex s;
    px_simplex_reset(&s);
    for (int i = 0; i < n; ++i)
    {
        PX_CHECK_STATUS(px_simplex_push(&s, p[i], q[i], i, 100 + i), PX_OK);
    }
    px_simplex orig = s;
    float dest[3];
    px_status st = px_simplex_reduce(&s, dest);
    ldv3 w[4];
    double scale = 0.0;
    for (int i = 0; i < n; ++i)
    {
        ldv_from_f(orig.v[i].w, w[i]);
        scale = fmax(scale, fmax(len3(p[i]), len3(q[i])));
    }
    long double lam[4];
    brute_force_weights(w, n, lam);
    double ea[3] = { 0, 0, 0 }, eb[3] = { 0, 0, 0 }, ev[3] = { 0, 0, 0 };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < 3; ++j)
        {
            ea[j] += (double)lam[i] * p[i][j];
            eb[j] += (double)lam[i] * q[i][j];
            ev[j] += (double)(lam[i] * w[i][j]);
        }
    float pa[3], pb[3];
    px_simplex_witness_points(&s, pa, pb);
    double tol = 1e-5 * scale;
    bool bad = !(st == PX_OK || st == PX_WARN_DEGENERATE);
    for (int j = 0; j < 3; ++j)
    {
        bad = bad || !(fabs((double)dest[j] - ev[j]) <= tol) || !(fabs((double)pa[j] - ea[j]) <= tol) ||
              !(fabs((double)pb[j] - eb[j]) <= tol) || !(fabs((double)(pa[j] - pb[j]) - (double)dest[j]) <= tol);
    }
    /* the kept vertices are the ones with positive reference weight, in order */
    uint32_t ref_mask = 0;
    for (int i = 0; i < n; ++i)
    {
        if (lam[i] > 1e-4L)
        {
            ref_mask |= 1u << i;
        }
    }
    bad = bad || (s.feature & ref_mask) != ref_mask;
    if (n == 4 && lam[0] > 1e-4L && lam[1] > 1e-4L && lam[2] > 1e-4L && lam[3] > 1e-4L)
    {
        bad = bad || !px_simplex_encloses_origin(&s);
    }
    if (bad && print)
    {
        fprintf(stderr,
                "%s (n = %d): status %d, feature %u (reference support %u), point {%.9g, %.9g, "
                "%.9g} vs {%.9g, %.9g, %.9g}, witness a {%.9g, %.9g, %.9g} vs {%.9g, %.9g, %.9g}, b {%.9g, %.9g, "
                "%.9g} vs {%.9g, %.9g, %.9g}, tol %.3g\n",
                label, n, (int)st, s.feature, ref_mask, (double)dest[0], (double)dest[1], (double)dest[2], ev[0],
                ev[1], ev[2], (double)pa[0], (double)pa[1], (double)pa[2], ea[0], ea[1], ea[2], (double)pb[0],
                (double)pb[1], (double)pb[2], eb[0], eb[1], eb[2], tol);
        dump_simplex(label, &orig);
    }
    return bad ? 1 : 0;
}

static int witness_brute_force(void)
{
    px_rng r = px_rng_seeded(0x51e7);
    int failures = 0;
    for (int k = 0; k < 8000; ++k)
    {
        int n = 1 + k % 4;
        double sc = pow(10.0, px_rng_range(&r, -2, 2));
        float p[4][3], q[4][3];
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < 3; ++j)
            {
                p[i][j] = (float)(px_rng_range(&r, -1, 1) * sc);
                q[i][j] = (float)((px_rng_range(&r, -1, 1) + (k % 8 < 4 ? 0.6 : 0.0)) * sc);
            }
        char label[48];
        snprintf(label, sizeof(label), "random simplex %d", k);
        failures += witness_case(label, n, p, q, failures < 3);
    }
    if (failures > 0)
    {
        fprintf(stderr, "witness brute force: %d of 8000 random simplices fail\n", failures);
        return 1;
    }
    return 0;
}

/* witness_brute_force at PX_TEST_SEED=10, simplex 4623: the origin nearest face 123 of a tetrahedron, a
 * sliver of aspect 201 (edges 24, 79, 103; 0.51 high over the longest) 8.6 from the origin. Its float
 * weights, ratios of cross products of vertices 18 to 64 long, were off by 1.7e-5 and put the witnesses
 * 3.8e-4 from the reference (tol 3.71e-4). px_simplex_reduce now recomputes a segment's or a triangle's
 * weights in double. */
static int reg_sliver_face_witness(void)
{
    float p[4][3] = { { -0x1.34p+4f, -0x1.20c1cp+4f, -0x1.1de4e8p+3f },
                      { 0x1.fe7732p+2f, -0x1.3d0f72p+4f, 0x1.7af236p+0f },
                      { -0x1.5cefe6p+3f, -0x1.e88e1cp+3f, 0x1.07a2d2p+3f },
                      { -0x1.6c2226p+4f, 0x1.1fbdecp+4f, -0x1.7295fap+4f } };
    float q[4][3] = { { -0x1.cbb086p+2f, 0x1.df0768p+2f, 0x1.c32cb4p+4f },
                      { 0x1.83521ap+2f, -0x1.67cc7ep+2f, -0x1.1ab638p+3f },
                      { -0x1.9d1f26p+4f, 0x1.85c5ccp+3f, -0x1.1f7676p+4f },
                      { 0x1.047516p+4f, -0x1.35408cp+3f, 0x1.38488p+4f } };
    return witness_case("sliver face witness (seed 10)", 4, p, q, true);
}

/* pxi_simplex_solve_double, GJK's fallback for a step its float solve got wrong, against the long-double
 * brute force on the random simplices of witness_brute_force and on slivers (a third vertex 1e-3 .. 1e-6
 * of the length off the line of the other two): the point within rounding of the reference (float dest:
 * 2 eps of the largest |w|), the feature holding every vertex of reference weight above 1e-6, weights
 * summing to 1. */
static int solve_double_brute_force(void)
{
    px_rng r = px_rng_seeded(0xd0b1e);
    int failures = 0;
    for (int k = 0; k < 8000; ++k)
    {
        int n = 1 + k % 4;
        double sc = pow(10.0, px_rng_range(&r, -2, 2));
        float p[4][3], q[4][3] = { { 0 } };
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < 3; ++j)
            {
                p[i][j] = (float)((px_rng_range(&r, -1, 1) + 0.3) * sc);
            }
        if (n >= 3 && k % 8 >= 4)
        {
            /* sliver: the third vertex near the line of the first two */
            double t = px_rng_unit(&r), h = pow(10.0, px_rng_range(&r, -6, -3));
            for (int j = 0; j < 3; ++j)
            {
                p[2][j] = (float)((double)p[0][j] + t * ((double)p[1][j] - (double)p[0][j]) +
                                  h * sc * px_rng_range(&r, -1, 1));
            }
        }
        px_simplex s;
        px_simplex_reset(&s);
        for (int i = 0; i < n; ++i)
        {
            PX_CHECK_STATUS(px_simplex_push(&s, p[i], q[i], i, 100 + i), PX_OK);
        }
        float bary[4], dest[3];
        uint32_t f = pxi_simplex_solve_double(&s, false, bary, dest);
        ldv3 w[4];
        double scale = 0.0;
        for (int i = 0; i < n; ++i)
        {
            ldv_from_f(s.v[i].w, w[i]);
            scale = fmax(scale, len3(s.v[i].w));
        }
        long double lam[4];
        brute_force_weights(w, n, lam);
        long double ev[3] = { 0, 0, 0 };
        uint32_t ref_mask = 0;
        double sum = 0.0;
        for (int i = 0; i < n; ++i)
        {
            for (int j = 0; j < 3; ++j)
            {
                ev[j] += lam[i] * w[i][j];
            }
            ref_mask |= lam[i] > 1e-6L ? 1u << i : 0u;
            sum += (double)bary[i];
        }
        double err = sqrt((double)((dest[0] - ev[0]) * (dest[0] - ev[0]) + (dest[1] - ev[1]) * (dest[1] - ev[1]) +
                                   (dest[2] - ev[2]) * (dest[2] - ev[2])));
        bool bad = !(err <= 2.0 * FLT_EPSILON * scale) || (f & ref_mask) != ref_mask || !(fabs(sum - 1.0) <= 1e-6);
        if (bad)
        {
            if (failures < 3)
            {
                fprintf(stderr,
                        "solve_double %d (n = %d): feature %u (reference support %u), point error %.3g (tol %.3g), "
                        "weight sum %.9g\n",
                        k, n, f, ref_mask, err, 2.0 * FLT_EPSILON * scale, sum);
                dump_simplex("solve_double", &s);
            }
            ++failures;
        }
    }
    if (failures > 0)
    {
        fprintf(stderr, "solve_double brute force: %d of 8000 simplices fail\n", failures);
        return 1;
    }
    return 0;
}

static int max_norm2_and_cache(void)
{
    px_simplex s;
    px_simplex_reset(&s);
    const float z[3] = { 0, 0, 0 };
    const float a[3] = { 1, 2, 2 }, b[3] = { 3, -4, 0 }, c[3] = { 0, 0.5f, 0 };
    PX_CHECK_STATUS(px_simplex_push(&s, a, z, 1, 2), PX_OK);
    PX_CHECK(px_simplex_max_norm2(&s) == 9.0f);
    PX_CHECK_STATUS(px_simplex_push(&s, z, b, 3, 4), PX_OK); /* w = -b = (-3, 4, 0), |w|^2 = 25 */
    PX_CHECK_STATUS(px_simplex_push(&s, c, z, 5, 6), PX_OK);
    PX_CHECK(px_simplex_max_norm2(&s) == 25.0f);

    px_simplex_cache cache = PX_SIMPLEX_CACHE_INIT;
    px_simplex_store_cache(&s, &cache);
    PX_CHECK(cache.count == 3);
    PX_CHECK(cache.index_a[0] == 1 && cache.index_a[1] == 3 && cache.index_a[2] == 5);
    PX_CHECK(cache.index_b[0] == 2 && cache.index_b[1] == 4 && cache.index_b[2] == 6);

    /* after a reduce the cache holds the kept vertices only, in order */
    float dest[3];
    PX_CHECK_STATUS(px_simplex_reduce(&s, dest), PX_OK);
    PX_CHECK(s.count == 1 && s.v[0].index_a == 5); /* vertex c = (0, 0.5, 0) is nearest */
    px_simplex_store_cache(&s, &cache);
    PX_CHECK(cache.count == 1 && cache.index_a[0] == 5 && cache.index_b[0] == 6);
    PX_CHECK(px_simplex_max_norm2(&s) == 0.25f);

    /* a missing index empties the cache */
    px_simplex_reset(&s);
    PX_CHECK_STATUS(px_simplex_push(&s, a, z, 1, 2), PX_OK);
    PX_CHECK_STATUS(px_simplex_push(&s, b, z, PX_NULL_INDEX, 4), PX_OK);
    px_simplex_store_cache(&s, &cache);
    PX_CHECK(cache.count == 0);
    px_simplex_reset(&s);
    PX_CHECK_STATUS(px_simplex_push(&s, a, z, 1, PX_NULL_INDEX), PX_OK);
    cache.count = 3;
    px_simplex_store_cache(&s, &cache);
    PX_CHECK(cache.count == 0);
    /* an empty simplex stores an empty cache */
    px_simplex_reset(&s);
    cache.count = 2;
    px_simplex_store_cache(&s, &cache);
    PX_CHECK(cache.count == 0);
    return 0;
}

int test_simplex(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(push_fields_and_reset);
    PX_RUN_SUBTEST(capacity_warning);
    PX_RUN_SUBTEST(reduce_empty_is_error);
    PX_RUN_SUBTEST(reduce_point_and_segment);
    PX_RUN_SUBTEST(reduce_triangle_regions);
    PX_RUN_SUBTEST(reduce_tetra_regions);
    PX_RUN_SUBTEST(reduce_degenerate);
    PX_RUN_SUBTEST(reduce_shared_edge_ties);
    PX_RUN_SUBTEST(degenerate_triangle_warns);
    PX_RUN_SUBTEST(witness_brute_force);
    PX_RUN_SUBTEST(reg_sliver_face_witness);
    PX_RUN_SUBTEST(solve_double_brute_force);
    PX_RUN_SUBTEST(max_norm2_and_cache);
    PX_SUITE_END;
}
