/* The separating-axis path of px_contact_world for small built hulls (src/narrowphase/hull_sat.c): random
 * pairs of hulls from px_hull_create, deep and resting, against the exact long-double separating-axis
 * oracle (tests/oracle/sat_depth.h) on the hulls' own vertices; the reported depth against the overlap
 * along the reported normal; the witness point on A's support plane; boxes against hulls, either order; the EPA path (config.analytic =
 * false) agreeing within its tolerance; a cube resting on a cube (exact face normal and depth); coincident
 * hulls; touching hulls (no separating-axis answer, depth 0 from GJK/EPA); a pair's cache that was apart;
 * hulls above the size limit going through EPA. Seeds are fixed; PX_TEST_SEED replays another stream. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "narrowphase/hull_sat.h"
#include "oracle/hull_distance.h"
#include "oracle/sat_depth.h"
#include "proxima/proxima.h"
#include "shapes/hull_internal.h"
#include "support/dquat.h"
#include "support/rng.h"
#include "test.h"

typedef long double ld;

#define HS_MAX_POINTS 40

/* The pose applied to a float point in long double (the quaternion normalized in long double). */
static void pose_ld(const px_transform* t, const float* v, ld* out)
{
    ld q[4] = { t->q[0], t->q[1], t->q[2], t->q[3] };
    ld n = sqrtl(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
    {
        q[k] /= n;
    }
    ld p[3] = { v[0], v[1], v[2] };
    ld c1[3] = { q[1] * p[2] - q[2] * p[1], q[2] * p[0] - q[0] * p[2], q[0] * p[1] - q[1] * p[0] };
    ld c2[3] = { q[1] * c1[2] - q[2] * c1[1], q[2] * c1[0] - q[0] * c1[2], q[0] * c1[1] - q[1] * c1[0] };
    for (int k = 0; k < 3; ++k)
    {
        out[k] = p[k] + 2.0L * q[3] * c1[k] + 2.0L * c2[k] + (ld)t->p[k];
    }
}

/* The hull's vertices posed, packed xyz long doubles; returns the count. */
static int posed_vertices(const px_hull* h, const px_transform* t, ld* out)
{
    int n = px_hull_vertex_count(h);
    const float* v = px_hull_vertices(h);
    for (int i = 0; i < n; ++i)
    {
        pose_ld(t, v + 3 * i, out + 3 * i);
    }
    return n;
}

static px_transform random_pose(px_rng* r, double spread)
{
    px_transform t;
    double q[4];
    px_rng_quat(r, q);
    for (int k = 0; k < 4; ++k)
    {
        t.q[k] = (float)q[k];
    }
    for (int k = 0; k < 3; ++k)
    {
        t.p[k] = (float)px_rng_range(r, -spread, spread);
    }
    return t;
}

/* A random small hull: points on an ellipsoid (some pulled inside), a box's corners, a prism, a jittered
 * box, a lens or a thin slab. A build may warn (a degenerate cloud): only a solid hull is kept. */
static px_status random_hull(px_rng* r, px_hull** out)
{
    float pts[3 * HS_MAX_POINTS];
    int kind = px_rng_int(r, 7), n;
    double ax[3] = { px_rng_range(r, 0.3, 1.5), px_rng_range(r, 0.3, 1.5), px_rng_range(r, 0.3, 1.5) };
    if (kind == 0)
    {
        n = 8;
        for (int i = 0; i < 8; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                pts[3 * i + k] = (float)((i >> k) & 1 ? ax[k] : -ax[k]);
            }
        }
    }
    else if (kind == 1)
    {
        int m = 3 + px_rng_int(r, 6); /* a prism over an m-gon: coplanar caps, parallel side edges */
        n = 2 * m;
        for (int i = 0; i < m; ++i)
        {
            double a = 2.0 * 3.14159265358979323846 * (i + px_rng_range(r, -0.2, 0.2)) / m;
            for (int s = 0; s < 2; ++s)
            {
                pts[3 * (2 * i + s) + 0] = (float)(ax[0] * cos(a));
                pts[3 * (2 * i + s) + 1] = (float)(ax[1] * sin(a));
                pts[3 * (2 * i + s) + 2] = (float)(s ? ax[2] : -ax[2]);
            }
        }
    }
    else if (kind == 4)
    {
        /* a box with its corners jittered by 1e-7 to 1e-3 of its size: faces merged within the tolerance */
        n = 8;
        double jitter = pow(10.0, px_rng_range(r, -7.0, -3.0));
        for (int i = 0; i < 8; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                pts[3 * i + k] = (float)(((i >> k) & 1 ? ax[k] : -ax[k]) + jitter * px_rng_range(r, -1.0, 1.0));
            }
        }
    }
    else if (kind == 5)
    {
        /* a lens: a hexagonal rim and two apexes 1e-5 to 1e-2 of its size above and below (thin rims) */
        n = 8;
        double h = pow(10.0, px_rng_range(r, -5.0, -2.0));
        for (int i = 0; i < 6; ++i)
        {
            double a = 2.0 * 3.14159265358979323846 * (i + px_rng_range(r, -0.1, 0.1)) / 6.0;
            pts[3 * i + 0] = (float)(ax[0] * cos(a));
            pts[3 * i + 1] = (float)(ax[1] * sin(a));
            pts[3 * i + 2] = 0.0f;
        }
        pts[18] = pts[19] = pts[21] = pts[22] = 0.0f;
        pts[20] = (float)(h * ax[0]);
        pts[23] = (float)(-h * ax[0]);
    }
    else
    {
        n = 4 + px_rng_int(r, 13);
        /* kind 6: a thin slab of points (1e-4 to 1e-2 of its size thick) */
        double squash = kind == 6 ? pow(10.0, px_rng_range(r, -4.0, -2.0)) : 1.0;
        ax[2] *= squash;
        for (int i = 0; i < n; ++i)
        {
            double u[3];
            px_rng_unit_vector(r, u);
            double shrink = kind == 3 && px_rng_unit(r) < 0.3 ? px_rng_range(r, 0.2, 1.0) : 1.0;
            for (int k = 0; k < 3; ++k)
            {
                pts[3 * i + k] = (float)(ax[k] * u[k] * shrink);
            }
        }
    }
    px_status st = px_hull_create(pts, n, NULL, out);
    if (st >= 0 && px_hull_dimension(*out) == 3)
    {
        return PX_OK;
    }
    if (st >= 0)
    {
        px_hull_destroy(*out);
        *out = NULL;
    }
    return st >= 0 ? PX_WARN_DEGENERATE : st;
}

/* A random small solid hull (degenerate clouds are drawn again, a bounded number of times). */
static px_status random_solid(px_rng* r, px_hull** out)
{
    px_status st = PX_WARN_DEGENERATE;
    for (int attempt = 0; attempt < 20 && st == PX_WARN_DEGENERATE; ++attempt)
    {
        st = random_hull(r, out);
    }
    return st;
}

/* A quarter of the time, B's rotation made A's turned by 1e-7 to 1e-3 rad: nearly parallel faces and
 * edges. */
static void nearly_aligned(px_rng* r, const px_transform* ta, px_transform* tb)
{
    if (px_rng_int(r, 4) != 0)
    {
        return;
    }
    double axis[3], turn[4], qa[4] = { ta->q[0], ta->q[1], ta->q[2], ta->q[3] }, q[4];
    px_rng_unit_vector(r, axis);
    dquat_axis_angle(axis[0], axis[1], axis[2], pow(10.0, px_rng_range(r, -7.0, -3.0)), turn);
    dquat_mul(qa, turn, q);
    for (int k = 0; k < 4; ++k)
    {
        tb->q[k] = (float)q[k];
    }
}

/* The overlap of the posed hulls along the reported normal, A's highest point along it, and the oracle. */
typedef struct hs_check
{
    ld exact;      /* oracle depth */
    ld along;      /* overlap of the vertex sets along the reported normal */
    ld top_a;      /* max over A of n . x */
    ld size;       /* the pair's scale */
    ld coords;     /* the largest coordinate magnitude (size and positions: what float rounding scales with) */
    ld in_a, in_b; /* how deep point_a lies in A and point_b in B (negative: outside by that much) */
} hs_check;

static void evaluate(const px_hull* ha, const px_transform* ta, const px_hull* hb, const px_transform* tb,
                     const px_contact* c, hs_check* out)
{
    static ld a[3 * 64], b[3 * 64];
    int na = posed_vertices(ha, ta, a), nb = posed_vertices(hb, tb, b);
    pxo_sat sat;
    pxo_sat_depth(a, na, b, nb, 0.0L, &sat);
    out->exact = sat.depth;
    ld n[3] = { c->normal[0], c->normal[1], c->normal[2] };
    out->along = pxo_overlap_along(a, na, b, nb, n);
    ld len = sqrtl(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    out->top_a = -INFINITY;
    ld size = 0.0L;
    for (int i = 0; i < na; ++i)
    {
        ld t = (n[0] * a[3 * i] + n[1] * a[3 * i + 1] + n[2] * a[3 * i + 2]) / len;
        out->top_a = t > out->top_a ? t : out->top_a;
    }
    for (int i = 0; i < 3 * na; ++i)
    {
        size = fabsl(a[i] - ta->p[i % 3]) > size ? fabsl(a[i] - ta->p[i % 3]) : size;
    }
    for (int i = 0; i < 3 * nb; ++i)
    {
        size = fabsl(b[i] - tb->p[i % 3]) > size ? fabsl(b[i] - tb->p[i % 3]) : size;
    }
    out->size = size;
    ld pos = 0.0L;
    for (int k = 0; k < 3; ++k)
    {
        pos = fabsl((ld)ta->p[k]) > pos ? fabsl((ld)ta->p[k]) : pos;
        pos = fabsl((ld)tb->p[k]) > pos ? fabsl((ld)tb->p[k]) : pos;
    }
    out->coords = size + pos;
    static pxo_polytope poly;
    ld p[3] = { c->point_a[0], c->point_a[1], c->point_a[2] };
    pxo_polytope_build(a, na, 0.0L, &poly);
    out->in_a = pxo_point_depth(&poly, p);
    for (int k = 0; k < 3; ++k)
    {
        p[k] = c->point_b[k];
    }
    pxo_polytope_build(b, nb, 0.0L, &poly);
    out->in_b = pxo_point_depth(&poly, p);
}

/* B's pose moved so that its lowest vertex along -u sits `depth` inside A's highest along u. */
static void rest_b_on_a(const px_hull* ha, const px_transform* ta, const px_hull* hb, px_transform* tb,
                        const double u[3], double depth)
{
    static ld a[3 * 64], b[3 * 64];
    int na = posed_vertices(ha, ta, a), nb = posed_vertices(hb, tb, b);
    ld top = -INFINITY, low = INFINITY;
    int it = 0, il = 0;
    for (int i = 0; i < na; ++i)
    {
        ld t = u[0] * a[3 * i] + u[1] * a[3 * i + 1] + u[2] * a[3 * i + 2];
        if (t > top)
        {
            top = t;
            it = i;
        }
    }
    for (int i = 0; i < nb; ++i)
    {
        ld t = u[0] * b[3 * i] + u[1] * b[3 * i + 1] + u[2] * b[3 * i + 2];
        if (t < low)
        {
            low = t;
            il = i;
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        tb->p[k] = (float)((ld)tb->p[k] + a[3 * it + k] - b[3 * il + k] - (ld)(depth * u[k]));
    }
}

static int random_pairs_vs_oracle(void)
{
    px_rng r = px_rng_seeded(0x5a7u);
    int sat_answers = 0, pairs = 0, apart = 0, eligible = 0, declined = 0;
    ld worst = 0.0L;
    for (int iter = 0; iter < 2000; ++iter)
    {
        px_hull *ha = NULL, *hb = NULL;
        if (random_solid(&r, &ha) != PX_OK || random_solid(&r, &hb) != PX_OK)
        {
            px_hull_destroy(ha);
            px_hull_destroy(hb);
            fprintf(stderr, "hull build failed at %d\n", iter);
            return 1;
        }
        px_shape sa = px_shape_from_hull(ha), sb = px_shape_from_hull(hb);
        px_transform ta = random_pose(&r, 3.0), tb = random_pose(&r, 0.0);
        nearly_aligned(&r, &ta, &tb);
        int mode = px_rng_int(&r, 3), deep = mode == 0;
        if (mode == 2)
        {
            /* apart: A's and B's extremes along u a gap apart (the separating axes give way to GJK) */
            double u[3];
            px_rng_unit_vector(&r, u);
            rest_b_on_a(ha, &ta, hb, &tb, u, -0.5 * pow(10.0, px_rng_range(&r, -3.0, 0.0)));
        }
        else if (deep)
        {
            tb.p[0] = ta.p[0] + (float)px_rng_range(&r, -0.4, 0.4);
            tb.p[1] = ta.p[1] + (float)px_rng_range(&r, -0.4, 0.4);
            tb.p[2] = ta.p[2] + (float)px_rng_range(&r, -0.4, 0.4);
        }
        else
        {
            double u[3];
            px_rng_unit_vector(&r, u);
            rest_b_on_a(ha, &ta, hb, &tb, u, 0.2 * pow(10.0, px_rng_range(&r, -3.0, 0.0)));
        }
        px_contact c, e;
        px_contact_config epa_only = px_contact_default_config();
        epa_only.analytic = false;
        px_status st = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
        px_status se = px_contact_world(&sa, &ta, &sb, &tb, &epa_only, &e);
        hs_check k;
        evaluate(ha, &ta, hb, &tb, &c, &k);
        int fail = 0;
        /* the separating axes are exact up to float rounding of the posed coordinates; EPA (hulls it does
         * not take) is held to the 1e-3 of the size */
        ld tol = c.method == PX_CONTACT_ANALYTIC ? 4.0L * FLT_EPSILON * k.coords : 1e-3L * k.size;
        if (st < 0 || se < 0)
        {
            fprintf(stderr, "status %d / %d\n", (int)st, (int)se);
            fail = 1;
        }
        else if (mode == 2)
        {
            static ld a[3 * 64], b[3 * 64];
            int na = posed_vertices(ha, &ta, a), nb = posed_vertices(hb, &tb, b);
            pxo_distance d;
            pxo_hull_distance(a, na, b, nb, 0.0L, &d);
            apart++;
            fail = c.method != PX_CONTACT_GJK || fabsl((ld)c.distance - d.distance) > tol ||
                   c.distance != e.distance;
        }
        else if (k.exact > 4.0L * tol)
        {
            /* a clear overlap: small hulls take the separating axes, and the answer is the exact depth */
            pairs++;
            ld err = fabsl(-(ld)c.distance - k.exact);
            if (c.method == PX_CONTACT_ANALYTIC)
            {
                worst = err / k.coords > worst ? err / k.coords : worst;
            }
            int small = ha->sat != NULL && hb->sat != NULL &&
                        px_hull_edge_count(ha) * px_hull_edge_count(hb) <= PXI_HULL_SAT_MAX_EDGE_PAIRS;
            sat_answers += c.method == PX_CONTACT_ANALYTIC;
            eligible += small;
            declined += small && c.method != PX_CONTACT_ANALYTIC;
            ld tol_w = c.method == PX_CONTACT_ANALYTIC ? 16.0L * FLT_EPSILON * k.coords : tol;
            if (err > tol || fabsl(k.along - (-(ld)c.distance)) > tol ||
                fabsl(k.top_a - (ld)px_v3_dot(c.normal, c.point_a) / (ld)px_v3_norm(c.normal)) > tol_w ||
                fabsl((ld)px_v3_norm(c.normal) - 1.0L) > 1e-6L)
            {
                fail = 1;
            }
            /* EPA's depth is within its relative tolerance of the exact one */
            if (fabsl(-(ld)e.distance - k.exact) > 1e-3L * k.size)
            {
                fail = 1;
            }
            for (int d = 0; d < 3; ++d)
            {
                fail |= fabsf(c.point_b[d] - (c.point_a[d] + c.distance * c.normal[d])) > 1e-5f;
            }
            /* the witnesses lie on the shapes (on A's surface, point_b = point_a - depth n in B), within a few
             * roundings of the posed coordinates */
            fail |= k.in_a < -tol_w || k.in_b < -tol_w;
        }
        if (fail)
        {
            fprintf(stderr,
                    "pair %d (%s, %d x %d vertices, %d x %d faces): status %d method %d depth %.9g, exact %.9Lg, along normal "
                    "%.9Lg, top_a %.9Lg vs %.9g, EPA %.9g, witness depths %.3Lg / %.3Lg\n",
                    iter, mode == 2 ? "apart" : deep ? "deep" : "resting", px_hull_vertex_count(ha), px_hull_vertex_count(hb),
                    px_hull_face_count(ha), px_hull_face_count(hb), (int)st,
                    (int)c.method, -c.distance, k.exact, k.along, k.top_a, px_v3_dot(c.normal, c.point_a),
                    -e.distance, k.in_a, k.in_b);
        }
        if (fail && getenv("HS_DUMP") != NULL)
        {
            const px_hull* hs[2] = { ha, hb };
            const px_transform* ts[2] = { &ta, &tb };
            for (int h = 0; h < 2; ++h)
            {
                printf("static const float pts_%c[] = {", "ab"[h]);
                for (int i = 0; i < 3 * px_hull_vertex_count(hs[h]); ++i)
                {
                    printf("%a%s", (double)px_hull_vertices(hs[h])[i], i + 1 < 3 * px_hull_vertex_count(hs[h]) ? ", " : "};\n");
                }
                printf("static const px_transform t_%c = { { %a, %a, %a, %a }, { %a, %a, %a } };\n", "ab"[h],
                       (double)ts[h]->q[0], (double)ts[h]->q[1], (double)ts[h]->q[2], (double)ts[h]->q[3],
                       (double)ts[h]->p[0], (double)ts[h]->p[1], (double)ts[h]->p[2]);
            }
        }
        px_hull_destroy(ha);
        px_hull_destroy(hb);
        PX_CHECK(!fail);
    }
    printf("    %d clear overlaps, %d answered by the separating axes, worst |depth - exact| over the coordinates' size %.2Le; %d apart\n",
           pairs, sat_answers, worst, apart);
    printf("    %d pairs of hulls with separating-axis copies, %d of them left to EPA\n", eligible, declined);
    PX_CHECK(pairs > 900 && apart > 400);
    PX_CHECK(eligible > pairs / 3 && declined * 100 <= eligible);
    return 0;
}

/* Random boxes against random small hulls, either order, deep and resting, against the same oracle (the
 * box's 8 corners posed in long double). */
static int box_against_hull(void)
{
    px_rng r = px_rng_seeded(0xb0c5u);
    int sat_answers = 0, pairs = 0, eligible = 0, declined = 0;
    for (int iter = 0; iter < 800; ++iter)
    {
        px_hull* h = NULL;
        if (random_solid(&r, &h) != PX_OK)
        {
            return 1;
        }
        vec3 half = { (float)px_rng_range(&r, 0.05, 1.2), (float)px_rng_range(&r, 0.05, 1.2),
                      (float)px_rng_range(&r, 0.05, 1.2) };
        float corners[24];
        for (int i = 0; i < 8; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                corners[3 * i + k] = (i >> k) & 1 ? half[k] : -half[k];
            }
        }
        px_hull* box_hull = NULL; /* the box as a hull, for the oracle's posing helpers */
        if (px_hull_create(corners, 8, NULL, &box_hull) != PX_OK)
        {
            px_hull_destroy(h);
            return 1;
        }
        px_shape box = px_shape_box(half), hull = px_shape_from_hull(h);
        int box_first = px_rng_int(&r, 2);
        const px_hull* ha = box_first ? box_hull : h;
        const px_hull* hb = box_first ? h : box_hull;
        const px_shape* sa = box_first ? &box : &hull;
        const px_shape* sb = box_first ? &hull : &box;
        px_transform ta = random_pose(&r, 3.0), tb = random_pose(&r, 0.0);
        nearly_aligned(&r, &ta, &tb);
        double u[3];
        px_rng_unit_vector(&r, u);
        rest_b_on_a(ha, &ta, hb, &tb, u, px_rng_int(&r, 2) ? 0.3 * pow(10.0, px_rng_range(&r, -3.0, 0.0)) : 0.5);
        px_contact c;
        px_status st = px_contact_world(sa, &ta, sb, &tb, NULL, &c);
        hs_check k;
        evaluate(ha, &ta, hb, &tb, &c, &k);
        ld tol = 4.0L * FLT_EPSILON * k.coords;
        int fail = st < 0;
        if (!fail && k.exact > 4.0L * tol)
        {
            pairs++;
            sat_answers += c.method == PX_CONTACT_ANALYTIC;
            ld tol_depth = c.method == PX_CONTACT_ANALYTIC ? tol : 1e-3L * k.size;
            ld tol_w = c.method == PX_CONTACT_ANALYTIC ? 16.0L * FLT_EPSILON * k.coords : tol_depth;
            eligible += h->sat != NULL;
            declined += h->sat != NULL && c.method != PX_CONTACT_ANALYTIC;
            fail =
                   fabsl(-(ld)c.distance - k.exact) > tol_depth || fabsl(k.along - (-(ld)c.distance)) > tol_depth ||
                   k.in_a < -tol_w || k.in_b < -tol_w;
        }
        if (fail)
        {
            fprintf(stderr,
                    "pair %d (box %s, hull of %d vertices, copy %d): status %d method %d depth %.9g exact %.9Lg "
                    "along %.9Lg, witness depths %.3Lg / %.3Lg\n",
                    iter, box_first ? "first" : "second", px_hull_vertex_count(h), h->sat != NULL, (int)st,
                    (int)c.method, -c.distance, k.exact, k.along, k.in_a, k.in_b);
        }
        px_hull_destroy(h);
        px_hull_destroy(box_hull);
        PX_CHECK(!fail);
    }
    printf("    %d clear overlaps, %d answered by the separating axes; %d with a copy, %d of them left to EPA\n",
           pairs, sat_answers, eligible, declined);
    PX_CHECK(pairs > 600 && eligible > pairs / 3 && declined * 100 <= eligible);
    return 0;
}

static px_status box_corners_hull(float hx, float hy, float hz, px_hull** out)
{
    float p[24];
    for (int i = 0; i < 8; ++i)
    {
        p[3 * i + 0] = (i & 1) ? hx : -hx;
        p[3 * i + 1] = (i & 2) ? hy : -hy;
        p[3 * i + 2] = (i & 4) ? hz : -hz;
    }
    return px_hull_create(p, 8, NULL, out);
}

/* Two cube hulls of half sizes h_a and h_b, A at the identity and B at tb: their px_contact_world. */
static px_status cube_contact(float h_a, float h_b, const px_transform* tb, px_contact* c)
{
    px_hull *a = NULL, *b = NULL;
    px_status st = box_corners_hull(h_a, h_a, h_a, &a);
    if (st == PX_OK)
    {
        st = box_corners_hull(h_b, h_b, h_b, &b);
    }
    if (st == PX_OK)
    {
        px_shape sa = px_shape_from_hull(a), sb = px_shape_from_hull(b);
        px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
        st = px_contact_world(&sa, &ta, &sb, tb, NULL, c);
    }
    px_hull_destroy(a);
    px_hull_destroy(b);
    return st;
}

static int resting_cube(void)
{
    px_transform tb = PX_TRANSFORM_IDENTITY_INIT;
    tb.p[0] = 0.3f;
    tb.p[1] = 0.999f; /* resting on A's top face, 1e-3 deep, shifted sideways */
    px_contact c;
    PX_CHECK_STATUS(cube_contact(0.5f, 0.5f, &tb, &c), PX_OK);
    PX_CHECK(c.method == PX_CONTACT_ANALYTIC);
    PX_CHECK_NEAR(c.distance, -1.0e-3, 1e-6);
    /* the face normal itself, not an edge axis tied with it */
    PX_CHECK(c.normal[0] == 0.0f && c.normal[1] == 1.0f && c.normal[2] == 0.0f);
    PX_CHECK_NEAR(c.point_a[1], 0.5, 1e-6);
    PX_CHECK_NEAR(c.point_b[1], 0.499, 1e-6);
    return 0;
}

static int coincident(void)
{
    const float tet[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(tet, 4, NULL, &h), PX_OK);
    px_shape s = px_shape_from_hull(h);
    px_transform t = PX_TRANSFORM_IDENTITY_INIT;
    px_contact c;
    px_status st = px_contact_world(&s, &t, &s, &t, NULL, &c);
    px_hull_destroy(h);
    PX_CHECK_STATUS(st, PX_OK);
    /* the tetrahedron's smallest width: the height over the slanted face, 1 / sqrt(3) */
    PX_CHECK_NEAR(-c.distance, 1.0 / sqrt(3.0), 1e-6);
    PX_CHECK_NEAR(px_v3_norm(c.normal), 1.0, 1e-6);
    return 0;
}

static int touching(void)
{
    px_transform tb = PX_TRANSFORM_IDENTITY_INIT;
    tb.p[1] = 1.0f; /* face on face, exactly touching */
    tb.p[2] = 0.25f;
    px_contact c;
    PX_CHECK(cube_contact(0.5f, 0.5f, &tb, &c) >= 0);
    PX_CHECK(c.method != PX_CONTACT_ANALYTIC); /* too close to touching for the separating axes */
    PX_CHECK_NEAR(c.distance, 0.0, 1e-6);
    PX_CHECK_NEAR(fabs(c.normal[1]), 1.0, 1e-5);
    return 0;
}

/* A pair that was apart (its cache says so) runs GJK first, then the separating axes once GJK reports an
 * overlap: the same depth as without a cache. */
static int cache_apart_then_overlap(void)
{
    px_hull *a = NULL, *b = NULL;
    PX_CHECK_STATUS(box_corners_hull(0.5f, 0.5f, 0.5f, &a), PX_OK);
    PX_CHECK_STATUS(box_corners_hull(0.4f, 0.4f, 0.4f, &b), PX_OK);
    px_shape sa = px_shape_from_hull(a), sb = px_shape_from_hull(b);
    px_simplex_cache cache;
    memset(&cache, 0, sizeof(cache));
    px_gjk_input in;
    in.a = &sa;
    in.b = &sb;
    px_transform_identity(&in.b_in_a);
    in.b_in_a.p[0] = 1.2f;
    px_contact c;
    PX_CHECK(px_contact_relative(&in, NULL, &cache, &c) >= 0);
    PX_CHECK(c.method == PX_CONTACT_GJK);
    PX_CHECK_NEAR(c.distance, 0.3, 1e-6);
    PX_CHECK(cache.count > 0 && cache.metric > 0.0f);
    in.b_in_a.p[0] = 0.85f;
    px_contact warm, cold;
    PX_CHECK(px_contact_relative(&in, NULL, &cache, &warm) >= 0);
    PX_CHECK(px_contact_relative(&in, NULL, NULL, &cold) >= 0);
    px_hull_destroy(a);
    px_hull_destroy(b);
    PX_CHECK(warm.method == PX_CONTACT_ANALYTIC && cold.method == PX_CONTACT_ANALYTIC);
    PX_CHECK(warm.iterations > 0 && cold.iterations == 0); /* GJK ran first only for the warm pair */
    PX_CHECK_NEAR(warm.distance, -0.05, 1e-6);
    PX_CHECK(warm.distance == cold.distance);
    PX_CHECK(warm.normal[0] == 1.0f && cold.normal[0] == 1.0f);
    return 0;
}

/* Hulls above the limit go through EPA, with the same depth within EPA's tolerance. */
static int large_hulls_use_epa(void)
{
    px_rng r = px_rng_seeded(0x1a76eu);
    float pts[3 * 64];
    px_hull* h[2] = { NULL, NULL };
    for (int s = 0; s < 2; ++s)
    {
        for (int i = 0; i < 64; ++i)
        {
            double u[3];
            px_rng_unit_vector(&r, u);
            for (int k = 0; k < 3; ++k)
            {
                pts[3 * i + k] = (float)u[k];
            }
        }
        PX_CHECK_STATUS(px_hull_create(pts, 64, NULL, &h[s]), PX_OK);
    }
    int edges = px_hull_edge_count(h[0]) * px_hull_edge_count(h[1]);
    px_shape sa = px_shape_from_hull(h[0]), sb = px_shape_from_hull(h[1]);
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT, tb = PX_TRANSFORM_IDENTITY_INIT;
    tb.p[0] = 1.5f;
    px_contact c;
    px_status st = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
    hs_check k;
    evaluate(h[0], &ta, h[1], &tb, &c, &k);
    px_hull_destroy(h[0]);
    px_hull_destroy(h[1]);
    PX_CHECK(edges > PXI_HULL_SAT_MAX_EDGE_PAIRS);
    PX_CHECK(st >= 0);
    PX_CHECK(c.method == PX_CONTACT_EPA);
    PX_CHECK_NEAR((double)-c.distance, (double)k.exact, 1e-3 * (double)k.size);
    return 0;
}

/* The exact depth of a frozen pair by the oracle, on the hulls' posed vertices. */
static ld oracle_depth(const px_hull* ha, const px_transform* ta, const px_hull* hb, const px_transform* tb)
{
    static ld a[3 * 64], b[3 * 64];
    int na = posed_vertices(ha, ta, a), nb = posed_vertices(hb, tb, b);
    pxo_sat sat;
    pxo_sat_depth(a, na, b, nb, 0.0L, &sat);
    return sat.depth;
}

/* Review finding: a 6-point hull 2.5e-4 from a hull 2e-4 thick whose merged quad's normal leaves its plane
 * by 6.8e-5: the separating axes reported -2.8e-4 while GJK, EPA and the oracle say apart. Thin hulls with
 * merged faces now go through GJK and EPA, and the sign agrees. */
static int reg_thin_merged_apart(void)
{
    static const float pa[] = { 0x1.0ccf2ep-1f,  -0x1.386d9ep+0f, 0x1.317b1p-2f,   0x1.82316p-2f,   0x1.18560ap+0f,
                                0x1.8e58f8p-1f,  -0x1.49d11p-2f,  -0x1.5e1ec6p+0f, 0x1.f6ae94p-3f,  0x1.578bbp-4f,
                                -0x1.0afb22p+0f, -0x1.f5d6e6p-1f, 0x1.0cf39p-1f,   -0x1.f1fcaap-1f, -0x1.8897b4p-1f,
                                -0x1.471764p-3f, 0x1.06980ap-1f,  0x1.4c37fap+0f };
    static const float pb[] = { 0x1.cd265cp-14f, -0x1.2bfcf4p-2f, 0x1.1054dcp-2f,  0x1.5812bep-14f, 0x1.15eba8p-1f,
                                0x1.13710cp-3f,  -0x1.4b698ep-14f, -0x1.7a75f2p-2f, -0x1.1dfc3p+0f, 0x1.879d2cp-18f,
                                0x1.e72704p-3f,  0x1.da5462p+0f,  0x1.16f43ep-16f, -0x1.ec15ap-2f,  0x1.77a8ecp+0f,
                                -0x1.9c5d9p-14f, -0x1.908554p-3f, -0x1.04bacap+0f };
    px_hull *ha = NULL, *hb = NULL;
    PX_CHECK(px_hull_create(pa, 6, NULL, &ha) >= 0 && px_hull_create(pb, 6, NULL, &hb) >= 0);
    px_shape sa = px_shape_from_hull(ha), sb = px_shape_from_hull(hb);
    px_transform ta = { { -0x1.b663aap-1f, 0x1.ed883cp-5f, 0x1.4ace7ap-6f, -0x1.067d2ep-1f }, { 0.0f, 0.0f, 0.0f } };
    px_transform tb = { { -0x1.89d24ep-3f, -0x1.314f7ap-2f, -0x1.bfe236p-1f, -0x1.51eb1p-2f },
                        { -0x1.72329ap+5f + 0x1.774572p+5f, -0x1.75f91ep+12f + 0x1.75e8ccp+12f,
                          -0x1.a17886p+10f + 0x1.a1e3fap+10f } };
    px_contact c;
    px_gjk_result g;
    bool overlap = true;
    px_status st = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
    px_status sg = px_gjk_distance_world(&sa, &ta, &sb, &tb, NULL, &g);
    px_status so = px_gjk_overlap_world(&sa, &ta, &sb, &tb, NULL, &overlap);
    px_hull_destroy(ha);
    px_hull_destroy(hb);
    PX_CHECK(st >= 0 && sg >= 0 && so >= 0);
    PX_CHECK(!overlap && g.distance > 2e-4f);
    PX_CHECK_NEAR(c.distance, g.distance, 1e-7);
    return 0;
}

/* Review finding: a cube (A) resting 0.01 deep under a slab ten times wider (B). The witness was B's first
 * deepest corner moved onto A's plane, 4.5 outside A's face; it must lie in the contact region (A's top
 * face), for a built cube and a box alike. */
static int reg_face_on_wider_face_witness(void)
{
    px_hull *a = NULL, *b = NULL;
    PX_CHECK_STATUS(box_corners_hull(0.5f, 0.5f, 0.5f, &a), PX_OK);
    PX_CHECK_STATUS(box_corners_hull(5.0f, 0.5f, 5.0f, &b), PX_OK);
    vec3 half = { 0.5f, 0.5f, 0.5f };
    px_shape shapes[2] = { px_shape_from_hull(a), px_shape_box(half) };
    px_shape sb = px_shape_from_hull(b);
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT, tb = PX_TRANSFORM_IDENTITY_INIT;
    tb.p[0] = 0.2f;
    tb.p[1] = 0.99f;
    int fail = 0;
    for (int k = 0; k < 2; ++k)
    {
        px_contact c;
        fail |= px_contact_world(&shapes[k], &ta, &sb, &tb, NULL, &c) != PX_OK || c.method != PX_CONTACT_ANALYTIC ||
                fabsf(c.distance + 0.01f) > 1e-6f || fabsf(c.point_a[1] - 0.5f) > 1e-6f ||
                fabsf(c.point_a[0]) > 0.5f + 1e-6f || fabsf(c.point_a[2]) > 0.5f + 1e-6f;
        if (fail)
        {
            fprintf(stderr, "shape %d: distance %.9g point_a %.9g %.9g %.9g method %d\n", k, c.distance, c.point_a[0],
                    c.point_a[1], c.point_a[2], (int)c.method);
        }
    }
    px_hull_destroy(a);
    px_hull_destroy(b);
    PX_CHECK(!fail);
    return 0;
}

/* Review finding: a hexagonal lens (apexes 2e-5 above and below a rim of radius 1; the builder merges some
 * of its faces) under a unit cube: the separating axes gave 5.7 times the true depth. Such a hull keeps no
 * separating-axis copy; the depth (EPA's) matches the oracle. */
static int reg_lens_against_cube(void)
{
    float lens[24];
    for (int i = 0; i < 6; ++i)
    {
        lens[3 * i] = (float)cos(i * 3.14159265358979323846 / 3.0);
        lens[3 * i + 1] = (float)sin(i * 3.14159265358979323846 / 3.0);
        lens[3 * i + 2] = 0.0f;
    }
    lens[18] = lens[19] = lens[21] = lens[22] = 0.0f;
    lens[20] = 2e-5f;
    lens[23] = -2e-5f;
    px_hull *a = NULL, *b = NULL;
    PX_CHECK(px_hull_create(lens, 8, NULL, &a) >= 0);
    PX_CHECK_STATUS(box_corners_hull(0.5f, 0.5f, 0.5f, &b), PX_OK);
    px_shape sa = px_shape_from_hull(a), sb = px_shape_from_hull(b);
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    px_transform tb = { { -0x1.26575p-2f, -0x1.2caae4p-3f, -0x1.c77704p-2f, 0x1.abc0cap-1f },
                        { 0x1.32afbep+0f, 0x1.0ea988p+0f, 0x1.dbba6cp-2f } };
    px_contact c;
    px_status st = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
    ld exact = oracle_depth(a, &ta, b, &tb);
    bool no_copy = a->sat == NULL;
    px_hull_destroy(a);
    px_hull_destroy(b);
    PX_CHECK(st >= 0 && no_copy);
    PX_CHECK_NEAR(-c.distance, (double)exact, 1e-6);
    return 0;
}

/* Two cubes crossing edge on edge, 1% of their size deep, at sizes 1e-30 to 1e10: the edge pair's axis
 * (formed in double, its arc planes unit) gives the exact depth at every scale. (Before the second review
 * the Gauss-map products underflowed below about 1e-19 and a face axis 46% too deep won.) */
static int crossing_edges_scales(void)
{
    const double scales[] = { 1e-30, 1e-24, 1e-12, 1e-4, 1e-2, 1.0, 1e2, 1e4, 1e10 };
    for (int si = 0; si < 9; ++si)
    {
        double s = scales[si];
        px_hull* h = NULL;
        PX_CHECK_STATUS(box_corners_hull((float)s, (float)s, (float)s, &h), PX_OK);
        px_shape sh = px_shape_from_hull(h);
        const double c8 = cos(3.14159265358979323846 / 8.0), s8 = sin(3.14159265358979323846 / 8.0);
        px_transform ta = { { (float)s8, 0.0f, 0.0f, (float)c8 }, { 0.0f, 0.0f, 0.0f } };
        px_transform tb = { { 0.0f, 0.0f, (float)s8, (float)c8 }, { 0.0f, (float)((2.0 * sqrt(2.0) - 0.01) * s), 0.0f } };
        px_contact c;
        px_status st = px_contact_world(&sh, &ta, &sh, &tb, NULL, &c);
        ld exact = oracle_depth(h, &ta, h, &tb);
        px_hull_destroy(h);
        PX_CHECK(st == PX_OK && c.method == PX_CONTACT_ANALYTIC);
        PX_CHECK_NEAR(-c.distance / s, (double)(exact / s), 1e-5);
        PX_CHECK_NEAR(fabs(c.normal[1]), 1.0, 1e-5);
    }
    return 0;
}

/* Second review: an 18-point hull (default tolerance) keeps a triangle, left by a merge, whose stored plane
 * lies 9.3e-6 above its own vertices (a plane's offset is the support of every point quickhull kept). A box
 * corner pressed into it: the depth was 7.6e-5 against an exact 6.73e-5. The copy's offsets are now the
 * vertices' own support, and a hull with a face off its vertices' plane keeps no copy. */
static int reg_plane_above_its_vertices(void)
{
    static const float pts[] = {
        -0x1.fffe22p-1f, 0x1.ad8844p-1f,  0x1.03216p-2f,   0x1.000008p+0f,  0x1.41afap-1f,   0x1.9a53bcp-1f,
        0x1.3e68f4p-1f,  -0x1.ec0b58p-3f, -0x1.00006ap+0f, -0x1.00006ep+0f, -0x1.c5b9f4p-5f, 0x1.5f66eap-4f,
        -0x1.382c62p-8f, -0x1.fffd76p-1f, 0x1.4a60dap-1f,  -0x1.d2337ap-1f, -0x1.fffdfp-1f,  0x1.aff72ep-1f,
        -0x1.000006p+0f, 0x1.afa84ep-3f,  0x1.7b4cp-2f,    -0x1.00011ap+0f, -0x1.871c1ep-1f, 0x1.472156p-1f,
        0x1.0000acp+0f,  0x1.6d0de4p-3f,  0x1.4d37bap-5f,  -0x1.fffd98p-1f, -0x1.952fd4p-2f, -0x1.802f74p-5f,
        0x1.0000d4p+0f,  0x1.34512cp-1f,  -0x1.b6e262p-2f, -0x1.2ba6e8p-1f, -0x1.e42594p-1f, -0x1.00011cp+0f,
        -0x1.3f8c16p-1f, -0x1.ffff84p-1f, -0x1.b8d9f2p-1f, 0x1.fffe66p-1f,  -0x1.653ecp-4f,  0x1.57a4a8p-1f,
        -0x1.7e263ep-3f, -0x1.0000cep+0f, -0x1.424804p-1f, 0x1.fffd4ap-1f,  -0x1.7ece3cp-1f, 0x1.27a832p-2f,
        0x1.000044p+0f,  0x1.45904ap-1f,  -0x1.6fdde2p-1f, 0x1.00002cp+0f,  -0x1.61f24cp-1f, 0x1.654f54p-2f
    };
    px_hull* ha = NULL;
    PX_CHECK(px_hull_create(pts, 18, NULL, &ha) >= 0);
    vec3 half = { 0x1.03684ap-2f, 0x1.14577cp-2f, 0x1.28d9f4p-1f };
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    px_transform tb = { { 0x1.922312p-1f, -0x1.3b9508p-1f, -0x1.04be88p-5f, 0x1.7eb7a8p-5f },
                        { 0x1.6214eep+0f, -0x1.30afa4p-1f, 0x1.7445aap-1f } };
    px_shape sa = px_shape_from_hull(ha), sb = px_shape_box(half);
    px_contact c;
    px_status st = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
    px_hull_destroy(ha);
    PX_CHECK(st == PX_OK);
    PX_CHECK_NEAR(-c.distance, 6.72587536932e-05, 1e-6);
    return 0;
}

/* Second review: two equal boxes (as hulls and as boxes), B a quarter turn about z nudged 1e-4 rad, crossing
 * edge on edge with nearly parallel vertical edges. The depth was exact, but the witness (float closest
 * points of the two edges) lay 5.1e-5 outside A, nearly the whole depth. */
static int reg_parallel_edges_witness(void)
{
    vec3 half = { 0x1.ebf5e4p-2f, 0x1.a81124p-1f, 0x1.a6f41ep-1f };
    px_hull* h = NULL;
    PX_CHECK_STATUS(box_corners_hull(half[0], half[1], half[2], &h), PX_OK);
    px_shape shapes[2] = { px_shape_from_hull(h), px_shape_box(half) };
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    px_transform tb = { { -0x1.c92708p-13f, 0x1.2770ap-12f, 0x1.6a01eap-1f, 0x1.6a11ep-1f },
                        { -0x1.4efb78p+0f, 0x1.4f1b26p+0f, -0x1.15dbcp-12f } };
    int fail = 0;
    for (int k = 0; k < 3; ++k)
    {
        const px_shape* sa = &shapes[k == 1 ? 1 : 0];
        const px_shape* sb = &shapes[k == 2 ? 1 : 0];
        px_contact c;
        hs_check e;
        if (px_contact_world(sa, &ta, sb, &tb, NULL, &c) != PX_OK)
        {
            fail = 1;
            continue;
        }
        evaluate(h, &ta, h, &tb, &c, &e);
        ld tol = 16.0L * FLT_EPSILON * e.coords;
        fail |= fabsl(-(ld)c.distance - e.exact) > tol || e.in_a < -tol || e.in_b < -tol;
        if (fail)
        {
            fprintf(stderr, "order %d: depth %.9g exact %.9Lg witness depths %.3Lg / %.3Lg\n", k, -c.distance, e.exact,
                    e.in_a, e.in_b);
        }
    }
    px_hull_destroy(h);
    PX_CHECK(!fail);
    return 0;
}

/* Review finding (outside the separating axes): at a scale of 1e-11 the closest point on a GJK triangle
 * divided by a sum of weights that had underflowed to 0 (undefined under UBSan's float checks). Random
 * small hulls 1e-11 across, deep, resting and apart: every query returns a finite answer or an error, with
 * no undefined behaviour (the sanitizer build is the check that catches it). */
static int tiny_scale_queries(void)
{
    px_rng r = px_rng_seeded(0x7171u);
    int bad = 0;
    for (int iter = 0; iter < 300; ++iter)
    {
        px_hull *ha = NULL, *hb = NULL;
        float pts[3 * HS_MAX_POINTS];
        px_hull** hs[2] = { &ha, &hb };
        for (int h = 0; h < 2; ++h)
        {
            int n = 4 + px_rng_int(&r, 12);
            for (int i = 0; i < 3 * n; ++i)
            {
                pts[i] = (float)(1e-11 * px_rng_range(&r, -1.0, 1.0));
            }
            if (px_hull_create(pts, n, NULL, hs[h]) < 0)
            {
                *hs[h] = NULL;
            }
        }
        if (ha != NULL && hb != NULL)
        {
            px_shape sa = px_shape_from_hull(ha), sb = px_shape_from_hull(hb);
            px_transform ta = random_pose(&r, 3e-11), tb = random_pose(&r, 3e-11);
            px_contact c, e;
            px_gjk_result g;
            px_contact_config epa = px_contact_default_config();
            epa.analytic = false;
            px_status s1 = px_contact_world(&sa, &ta, &sb, &tb, NULL, &c);
            px_status s2 = px_gjk_distance_world(&sa, &ta, &sb, &tb, NULL, &g);
            px_status s3 = px_contact_world(&sa, &ta, &sb, &tb, &epa, &e);
            bad += (s1 >= 0 && !isfinite(c.distance)) || (s2 >= 0 && !isfinite(g.distance)) ||
                   (s3 >= 0 && !isfinite(e.distance));
        }
        px_hull_destroy(ha);
        px_hull_destroy(hb);
    }
    PX_CHECK(bad == 0);
    return 0;
}

int test_hull_sat(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(random_pairs_vs_oracle);
    PX_RUN_SUBTEST(box_against_hull);
    PX_RUN_SUBTEST(resting_cube);
    PX_RUN_SUBTEST(coincident);
    PX_RUN_SUBTEST(touching);
    PX_RUN_SUBTEST(cache_apart_then_overlap);
    PX_RUN_SUBTEST(large_hulls_use_epa);
    PX_RUN_SUBTEST(reg_thin_merged_apart);
    PX_RUN_SUBTEST(reg_face_on_wider_face_witness);
    PX_RUN_SUBTEST(reg_lens_against_cube);
    PX_RUN_SUBTEST(crossing_edges_scales);
    PX_RUN_SUBTEST(tiny_scale_queries);
    PX_RUN_SUBTEST(reg_plane_above_its_vertices);
    PX_RUN_SUBTEST(reg_parallel_edges_witness);
    PX_SUITE_END;
}
