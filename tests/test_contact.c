/* Contact query (contact.h): analytic cases, the EPA regressions of KNOWN_FAILURES.md 2.2 that apply to
 * proxima's shapes, and bad input.
 *
 * Expected values come from closed forms or, for polytopes in general position, from the exact
 * separating-axis oracle (tests/oracle/sat_depth) on the same float inputs. Every call is also checked for
 * the invariants of contact.h: status PX_OK (or a warning the header documents, where curved shapes
 * allow it), finite output, unit normal, point_b = point_a + distance normal. Tolerances: 1e-5 S for
 * polytopes (EPA converges on their faces), 1e-3 S (DESIGN.md) for curved shapes, plus 16 FLT_EPSILON C. */
#include <float.h>
#include <string.h>

#include "oracle/hull_distance.h"
#include "oracle/sat_depth.h"
#include "proxima/proxima.h"
#include "support/rng.h"
#include "support/scaled_shapes.h"
#include "test.h"

typedef long double ld;

#define PXC_PI 3.14159265358979323846

/* ------------------------------------------------------------------------------------------------ */
/* Helpers                                                                                           */

/* Pose from an axis-angle rotation (axis need not be unit) and a position. */
static px_transform pose(double ax, double ay, double az, double angle, double x, double y, double z)
{
    px_transform t;
    double n = sqrt(ax * ax + ay * ay + az * az);
    double s = n > 0.0 ? sin(0.5 * angle) / n : 0.0;
    t.q[0] = (float)(ax * s);
    t.q[1] = (float)(ay * s);
    t.q[2] = (float)(az * s);
    t.q[3] = (float)cos(0.5 * angle);
    t.p[0] = (float)x;
    t.p[1] = (float)y;
    t.p[2] = (float)z;
    return t;
}

static px_transform at(double x, double y, double z)
{
    return pose(0.0, 0.0, 1.0, 0.0, x, y, z);
}

static px_shape box(double hx, double hy, double hz)
{
    vec3 h = { (float)hx, (float)hy, (float)hz };
    return px_shape_box(h);
}

static void box_corners(double hx, double hy, double hz, float* out)
{
    for (int i = 0; i < 8; ++i)
    {
        out[3 * i] = (float)((i & 1) ? hx : -hx);
        out[3 * i + 1] = (float)((i & 2) ? hy : -hy);
        out[3 * i + 2] = (float)((i & 4) ? hz : -hz);
    }
}

/* Local vertices of a polytope shape (box, hull, triangle, segment, point). 0 for curved shapes. */
static int shape_points(const px_shape* s, float* out)
{
    switch (s->type)
    {
    case PX_SHAPE_BOX:
        box_corners(s->box.half_extents[0], s->box.half_extents[1], s->box.half_extents[2], out);
        return 8;
    case PX_SHAPE_HULL:
        memcpy(out, s->hull.points, sizeof(float) * 3 * (size_t)s->hull.count);
        return s->hull.count;
    case PX_SHAPE_TRIANGLE:
        memcpy(out, s->triangle.a, sizeof(float) * 3);
        memcpy(out + 3, s->triangle.b, sizeof(float) * 3);
        memcpy(out + 6, s->triangle.c, sizeof(float) * 3);
        return 3;
    case PX_SHAPE_SEGMENT:
        memcpy(out, s->segment.a, sizeof(float) * 3);
        memcpy(out + 3, s->segment.b, sizeof(float) * 3);
        return 2;
    case PX_SHAPE_POINT:
        out[0] = out[1] = out[2] = 0.0f;
        return 1;
    default:
        return 0;
    }
}

/* Exact signed distance of two posed polytopes (radius 0) from the oracles: -depth when they overlap. S
 * and C receive the size and the coordinate scale; axis (may be NULL) the depth axis (B moves along it). */
typedef struct exact
{
    ld signed_distance, S, C;
    ld axis[3];
    ld wa[3 * 64], wb[3 * 64];
    int na, nb;
    float origin[3];
} exact;

static void exact_eval(const px_shape* a, const px_transform* ta, const px_shape* b, const px_transform* tb, exact* e)
{
    float la[3 * 64], lb[3 * 64];
    e->na = shape_points(a, la);
    e->nb = shape_points(b, lb);
    memcpy(e->origin, ta->p, sizeof(e->origin));
    pxo_transform_points(la, e->na, ta->q, ta->p, e->origin, e->wa);
    pxo_transform_points(lb, e->nb, tb->q, tb->p, e->origin, e->wb);
    ld ea = pxo_extent(e->wa, e->na), eb = pxo_extent(e->wb, e->nb);
    e->S = ea > eb ? ea : eb;
    e->C = 0.0L;
    for (int i = 0; i < 3; ++i)
    {
        ld ca = fabsl((ld)ta->p[i]) + ea, cb = fabsl((ld)tb->p[i]) + eb;
        e->C = ca > e->C ? ca : e->C;
        e->C = cb > e->C ? cb : e->C;
    }
    pxo_distance d;
    pxo_hull_distance(e->wa, e->na, e->wb, e->nb, e->S, &d);
    e->axis[0] = e->axis[1] = e->axis[2] = 0.0L;
    if (!d.overlap)
    {
        e->signed_distance = d.distance;
        for (int i = 0; i < 3; ++i)
        {
            e->axis[i] = d.normal[i];
        }
        return;
    }
    pxo_sat sat;
    pxo_sat_depth(e->wa, e->na, e->wb, e->nb, e->S, &sat);
    e->signed_distance = sat.depth > 0.0L ? -sat.depth : 0.0L;
    for (int i = 0; i < 3; ++i)
    {
        e->axis[i] = sat.axis[i];
    }
}

static int finite_contact(const px_contact* r)
{
    int ok = isfinite(r->distance);
    for (int i = 0; i < 3; ++i)
    {
        ok = ok && isfinite(r->point_a[i]) && isfinite(r->point_b[i]) && isfinite(r->normal[i]);
    }
    return ok;
}

static const char* method_name(px_contact_method m)
{
    return m == PX_CONTACT_ANALYTIC ? "analytic" : m == PX_CONTACT_GJK ? "gjk" : m == PX_CONTACT_EPA ? "epa" : "none";
}

/* px_contact_world plus the universal checks. allow_warning: curved shapes may return the warnings
 * contact.h documents (PX_WARN_MAX_ITERATIONS, PX_WARN_CAPACITY). Returns 1 (after printing) on failure. */
static int run_contact(const char* what, const px_shape* a, const px_transform* ta, const px_shape* b,
                       const px_transform* tb, int allow_warning, double size, px_contact* r)
{
    px_status st = px_contact_world(a, ta, b, tb, NULL, r);
    int documented = st == PX_OK || (allow_warning && (st == PX_WARN_MAX_ITERATIONS || st == PX_WARN_CAPACITY));
    double nl = sqrt((double)r->normal[0] * r->normal[0] + (double)r->normal[1] * r->normal[1] +
                     (double)r->normal[2] * r->normal[2]);
    double gap = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        double g = (double)r->point_b[i] - (double)r->point_a[i] - (double)r->distance * (double)r->normal[i];
        gap += g * g;
    }
    gap = sqrt(gap);
    double C = size;
    for (int i = 0; i < 3; ++i)
    {
        C = fabs((double)ta->p[i]) + size > C ? fabs((double)ta->p[i]) + size : C;
        C = fabs((double)tb->p[i]) + size > C ? fabs((double)tb->p[i]) + size : C;
    }
    int bad = !documented || !finite_contact(r) || !(fabs(nl - 1.0) <= 1e-5) ||
              !(gap <= 1e-5 * size + 16.0 * FLT_EPSILON * C);
    if (bad || st != PX_OK)
    {
        printf("    %s: status %d (%s) method %s distance %.9g (%a) normal %.9g %.9g %.9g |n| %.9g gap %.3g%s\n", what,
               (int)st, px_status_string(st), method_name(r->method), (double)r->distance, (double)r->distance,
               (double)r->normal[0], (double)r->normal[1], (double)r->normal[2], nl, gap,
               bad ? "  <-- FAILED (status, finite, unit normal, point_b = point_a + d n)" : "");
    }
    return bad;
}

/* Expected distance and (optionally) normal. n_expect may be NULL; sign_free: the normal's sign is free. */
static int expect(const char* what, const px_contact* r, double d_expect, double tol, const double* n_expect,
                  double n_tol)
{
    int bad = 0;
    if (!(fabs((double)r->distance - d_expect) <= tol))
    {
        printf("    %s: distance %.9g (%a) expected %.9g (tol %.3g), method %s\n", what, (double)r->distance,
               (double)r->distance, d_expect, tol, method_name(r->method));
        bad = 1;
    }
    if (n_expect != NULL)
    {
        double e = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            double t = (double)r->normal[i] - n_expect[i];
            e += t * t;
        }
        if (!(sqrt(e) <= n_tol))
        {
            printf("    %s: normal %.9g %.9g %.9g expected %.9g %.9g %.9g (tol %.3g), method %s\n", what,
                   (double)r->normal[0], (double)r->normal[1], (double)r->normal[2], n_expect[0], n_expect[1],
                   n_expect[2], n_tol, method_name(r->method));
            bad = 1;
        }
    }
    return bad;
}

static int expect_method(const char* what, const px_contact* r, px_contact_method m)
{
    if (r->method != m)
    {
        printf("    %s: method %s, expected %s\n", what, method_name(r->method), method_name(m));
        return 1;
    }
    return 0;
}

/* Overlap of the two posed polytopes along the returned normal must not exceed the depth by more than tol
 * (it is never below it): the normal is a minimum-translation direction. */
static int expect_axis(const char* what, const exact* e, const px_contact* r, ld tol)
{
    ld n[3] = { r->normal[0], r->normal[1], r->normal[2] };
    ld on = pxo_overlap_along(e->wa, e->na, e->wb, e->nb, n);
    ld depth = -e->signed_distance;
    if (!(on <= depth + tol))
    {
        printf("    %s: overlap along the returned normal %.9Lg, depth* %.9Lg (tol %.3Lg)\n", what, on, depth, tol);
        return 1;
    }
    return 0;
}

/* Polytope pair against the oracles: distance within 1e-5 S + 16 eps C (or tol_rel S), normal's overlap. */
static int check_exact(const char* what, const px_shape* a, const px_transform* ta, const px_shape* b,
                       const px_transform* tb, double tol_rel)
{
    static exact e;
    exact_eval(a, ta, b, tb, &e);
    px_contact r;
    int bad = run_contact(what, a, ta, b, tb, 0, (double)e.S, &r);
    ld tol = (ld)tol_rel * e.S + 16.0L * FLT_EPSILON * e.C;
    bad |= expect(what, &r, (double)e.signed_distance, (double)tol, NULL, 0.0);
    if (e.signed_distance <= 0.0L)
    {
        bad |= expect_axis(what, &e, &r, tol);
    }
    if (bad)
    {
        printf("    %s: exact %.17Lg along %.9Lg %.9Lg %.9Lg, S %.6Lg\n", what, e.signed_distance, e.axis[0], e.axis[1],
               e.axis[2], e.S);
    }
    return bad;
}

/* The same pair as px_shape_box (analytic path) and as 8-point hulls (EPA path). */
static int check_boxes(const char* what, const double ha[3], const px_transform* ta, const double hb[3],
                       const px_transform* tb, double tol_rel)
{
    px_shape sa = box(ha[0], ha[1], ha[2]), sb = box(hb[0], hb[1], hb[2]);
    float pa[24], pb[24];
    box_corners(ha[0], ha[1], ha[2], pa);
    box_corners(hb[0], hb[1], hb[2], pb);
    px_shape qa = px_shape_hull(pa, 8), qb = px_shape_hull(pb, 8);
    char name[96];
    snprintf(name, sizeof(name), "%s (boxes)", what);
    int bad = check_exact(name, &sa, ta, &sb, tb, tol_rel);
    snprintf(name, sizeof(name), "%s (hulls)", what);
    bad |= check_exact(name, &qa, ta, &qb, tb, tol_rel);
    snprintf(name, sizeof(name), "%s (box, hull)", what);
    bad |= check_exact(name, &sa, ta, &qb, tb, tol_rel);
    return bad;
}

/* ------------------------------------------------------------------------------------------------ */
/* Analytic cases                                                                                    */

static int cube_in_cube(void)
{
    /* half 2 and half 0.5, B's centre at (0.3, 0.1, -0.2): leave along +x by 2 + 0.5 - 0.3 = 2.2 */
    const double ha[3] = { 2, 2, 2 }, hb[3] = { 0.5, 0.5, 0.5 };
    px_transform ta = at(0, 0, 0), tb = at(0.3, 0.1, -0.2);
    px_shape sa = box(2, 2, 2), sb = box(0.5, 0.5, 0.5);
    px_contact r;
    const double nx[3] = { 1, 0, 0 };
    int bad = run_contact("cube in cube", &sa, &ta, &sb, &tb, 0, 4.0, &r);
    bad |= expect("cube in cube", &r, -2.2, 1e-5, nx, 1e-5);
    bad |= expect_method("cube in cube", &r, PX_CONTACT_ANALYTIC);
    bad |= check_boxes("cube in cube", ha, &ta, hb, &tb, 1e-5);
    /* rotated frame: the same answer, rotated */
    px_transform ra = pose(1, 2, 3, 0.7, 5, -3, 2);
    px_transform rb = ra;
    const float off[3] = { 0.3f, 0.1f, -0.2f };
    px_transform_point(&ra, off, rb.p);
    bad |= run_contact("cube in cube, rotated frame", &sa, &ra, &sb, &rb, 0, 4.0, &r);
    bad |= expect("cube in cube, rotated frame", &r, -2.2, 1e-5, NULL, 0.0);
    bad |= check_boxes("cube in cube, rotated frame", ha, &ra, hb, &rb, 1e-5);
    return bad;
}

static int sphere_in_box(void)
{
    px_shape b = box(1, 2, 3), s = px_shape_sphere(0.5f);
    px_transform tb = at(0, 0, 0);
    struct
    {
        const char* name;
        double c[3], d, n[3];
    } cases[] = {
        { "centre inside", { 0.2, 0.3, 0.4 }, -1.3, { 1, 0, 0 } },
        { "near a corner, inside", { 0.95, 1.9, 2.8 }, -0.55, { 1, 0, 0 } },
        { "centre on a face", { 1.0, 0.0, 0.0 }, -0.5, { 1, 0, 0 } },
        { "centre on a -z face", { 0.1, -0.2, -3.0 }, -0.5, { 0, 0, -1 } },
        { "outside a corner, cores apart", { 1.3, 2.3, 0.0 }, 0.42426406871192851 - 0.5,
          { 0.70710678118654752, 0.70710678118654752, 0 } },
    };
    int bad = 0;
    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k)
    {
        px_transform ts = at(cases[k].c[0], cases[k].c[1], cases[k].c[2]);
        px_contact r;
        bad |= run_contact(cases[k].name, &b, &tb, &s, &ts, 0, 6.0, &r);
        bad |= expect(cases[k].name, &r, cases[k].d, 1e-5, cases[k].n, 1e-5);
        bad |= expect_method(cases[k].name, &r, PX_CONTACT_ANALYTIC);
        /* the sphere's witness is on its surface, the box's on the box */
        double dc = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            double t = (double)r.point_b[i] - cases[k].c[i];
            dc += t * t;
        }
        if (!(fabs(sqrt(dc) - 0.5) <= 1e-5))
        {
            printf("    %s: point_b is %.9g from the sphere's centre (radius 0.5)\n", cases[k].name, sqrt(dc));
            bad = 1;
        }
        /* swapped: sphere first, normal reversed */
        px_contact rs;
        bad |= run_contact(cases[k].name, &s, &ts, &b, &tb, 0, 6.0, &rs);
        const double nn[3] = { -cases[k].n[0], -cases[k].n[1], -cases[k].n[2] };
        bad |= expect(cases[k].name, &rs, cases[k].d, 1e-5, nn, 1e-5);
    }
    return bad;
}

static int coincident_shapes(void)
{
    int bad = 0;
    px_contact r;
    /* identical cubes: depth 2 (the full width) along a face normal */
    {
        px_shape c = box(1, 1, 1);
        px_transform t = pose(1, 1, 0, 0.3, 2, 3, 4);
        bad |= run_contact("identical cubes", &c, &t, &c, &t, 0, 2.0, &r);
        bad |= expect("identical cubes", &r, -2.0, 1e-5, NULL, 0.0);
        static exact e;
        exact_eval(&c, &t, &c, &t, &e);
        bad |= expect_axis("identical cubes", &e, &r, 1e-5L);
        float pts[24];
        box_corners(1, 1, 1, pts);
        px_shape h = px_shape_hull(pts, 8);
        bad |= run_contact("identical cube hulls", &h, &t, &h, &t, 0, 2.0, &r);
        bad |= expect("identical cube hulls", &r, -2.0, 1e-5, NULL, 0.0);
        bad |= expect_axis("identical cube hulls", &e, &r, 1e-5L);
    }
    /* identical spheres (Jolt's worst case): depth 2 r, any unit normal, witnesses on the surfaces */
    {
        px_shape s = px_shape_sphere(2.0f);
        px_transform t = at(1, -2, 3);
        bad |= run_contact("identical spheres", &s, &t, &s, &t, 0, 4.0, &r);
        bad |= expect("identical spheres", &r, -4.0, 1e-5, NULL, 0.0);
        for (int k = 0; k < 2; ++k)
        {
            const float* p = k == 0 ? r.point_a : r.point_b;
            double dc = sqrt(((double)p[0] - 1) * ((double)p[0] - 1) + ((double)p[1] + 2) * ((double)p[1] + 2) +
                             ((double)p[2] - 3) * ((double)p[2] - 3));
            if (!(fabs(dc - 2.0) <= 1e-5))
            {
                printf("    identical spheres: point_%c is %.9g from the centre (radius 2)\n", k == 0 ? 'a' : 'b', dc);
                bad = 1;
            }
        }
    }
    /* identical hulls: depth = the hull's minimum width */
    {
        static const float pts[] = { 1.0f, 0.1f, 0.2f,  -0.9f, 0.3f, -0.1f, 0.2f, 1.3f, 0.1f,  0.1f, -1.1f, 0.3f,
                                     0.3f, 0.2f, 0.7f,  -0.2f, -0.1f, -0.8f, 0.6f, 0.6f, 0.4f, -0.5f, -0.6f, 0.2f,
                                     0.4f, -0.5f, -0.5f, -0.6f, 0.7f, 0.5f };
        px_shape h = px_shape_hull(pts, 10);
        px_transform t = pose(0.3, -1, 0.5, 1.1, -4, 1, 2);
        bad |= check_exact("identical hulls", &h, &t, &h, &t, 1e-5);
    }
    /* identical capsules: depth 2 r across the axis */
    {
        px_shape c = px_shape_capsule(1.5f, 0.25f);
        px_transform t = pose(1, 0, 0, 0.4, 0, 0, 0);
        bad |= run_contact("identical capsules", &c, &t, &c, &t, 0, 3.5, &r);
        bad |= expect("identical capsules", &r, -0.5, 1e-5, NULL, 0.0);
        /* the normal is across the axis (local y rotated) */
        float y[3] = { 0.0f, 1.0f, 0.0f }, ay[3];
        px_transform_vector(&t, y, ay);
        double along = fabs((double)ay[0] * r.normal[0] + (double)ay[1] * r.normal[1] + (double)ay[2] * r.normal[2]);
        if (!(along <= 1e-5))
        {
            printf("    identical capsules: normal has %.9g along the axis\n", along);
            bad = 1;
        }
    }
    return bad;
}

static int touching_faces(void)
{
    int bad = 0;
    const double h[3] = { 1, 1, 1 }, nx[3] = { 1, 0, 0 };
    /* cubes of side 2 face to face, exactly touching, with a partial face overlap */
    px_transform ta = at(0, 0, 0), tb = at(2, 0.5, -0.25);
    px_shape a = box(1, 1, 1);
    px_contact r;
    bad |= run_contact("touching cubes", &a, &ta, &a, &tb, 0, 2.0, &r);
    bad |= expect("touching cubes", &r, 0.0, 1e-6, nx, 1e-5);
    float pts[24];
    box_corners(1, 1, 1, pts);
    px_shape hl = px_shape_hull(pts, 8);
    bad |= run_contact("touching cube hulls", &hl, &ta, &hl, &tb, 0, 2.0, &r);
    bad |= expect("touching cube hulls", &r, 0.0, 1e-6, nx, 1e-5);
    bad |= check_boxes("touching cubes", h, &ta, h, &tb, 1e-5);
    /* rotated frame and far from the origin */
    px_transform fa = pose(2, -1, 1, 0.9, 1000, -500, 250);
    px_transform fb = fa;
    const float off[3] = { 2.0f, 0.5f, -0.25f };
    px_transform_point(&fa, off, fb.p);
    bad |= check_boxes("touching cubes, rotated at 1e3", h, &fa, h, &fb, 1e-5);
    /* a triangle lying on a face */
    px_shape tri = px_shape_triangle((vec3){ -0.5f, -0.5f, 0.0f }, (vec3){ 0.5f, -0.5f, 0.0f }, (vec3){ 0.0f, 0.5f, 0.0f });
    px_transform tt = at(0, 0, 1);
    bad |= check_exact("triangle on a face", &a, &ta, &tri, &tt, 1e-5);
    return bad;
}

static int edge_edge_boxes(void)
{
    /* A turned 45 degrees about x (top edge along x at z = sqrt 2), B turned 45 degrees about y at z = 2.6
     * (bottom edge along y at 2.6 - sqrt 2): depth 2 sqrt 2 - 2.6 along +z */
    const double h[3] = { 1, 1, 1 }, nz[3] = { 0, 0, 1 };
    px_transform ta = pose(1, 0, 0, PXC_PI / 4, 0, 0, 0), tb = pose(0, 1, 0, PXC_PI / 4, 0, 0, 2.6);
    px_shape a = box(1, 1, 1);
    px_contact r;
    int bad = run_contact("edge-edge boxes", &a, &ta, &a, &tb, 0, 2.0, &r);
    bad |= expect("edge-edge boxes", &r, 2.6 - 2.0 * sqrt(2.0), 1e-5, nz, 1e-4);
    bad |= check_boxes("edge-edge boxes", h, &ta, h, &tb, 1e-5);
    /* skewed by 30 degrees instead of 90 */
    px_transform tc = pose(0, 0.5, 0.866, PXC_PI / 4, 0.1, -0.2, 2.55);
    bad |= check_boxes("edge-edge boxes, skewed", h, &ta, h, &tc, 1e-5);
    return bad;
}

static int capsules(void)
{
    int bad = 0;
    px_shape c = px_shape_capsule(1.0f, 0.5f);
    px_contact r;
    const double nz[3] = { 0, 0, 1 }, nx[3] = { 1, 0, 0 };
    /* crossing at right angles, cores 0.8 apart: -0.2 along z, closed form */
    px_transform ta = at(0, 0, 0), tb = pose(0, 0, 1, PXC_PI / 2, 0, 0, 0.8);
    bad |= run_contact("crossing capsules", &c, &ta, &c, &tb, 0, 3.0, &r);
    bad |= expect("crossing capsules", &r, -0.2, 1e-5, nz, 1e-5);
    bad |= expect_method("crossing capsules", &r, PX_CONTACT_ANALYTIC);
    /* parallel, cores 0.7 apart: -0.3 along x */
    px_transform tp = at(0.7, 0.3, 0);
    bad |= run_contact("parallel capsules", &c, &ta, &c, &tp, 0, 3.0, &r);
    bad |= expect("parallel capsules", &r, -0.3, 1e-5, nx, 1e-5);
    bad |= expect_method("parallel capsules", &r, PX_CONTACT_ANALYTIC);
    /* crossing with intersecting cores: A - B of the cores is a flat square, depth = the radii (1) along z */
    px_transform tx = pose(0, 0, 1, PXC_PI / 2, 0, 0, 0);
    bad |= run_contact("crossing capsules, cores intersect", &c, &ta, &c, &tx, 0, 3.0, &r);
    bad |= expect("crossing capsules, cores intersect", &r, -1.0, 1e-5, NULL, 0.0);
    if (!(fabs(fabs((double)r.normal[2]) - 1.0) <= 1e-5))
    {
        printf("    crossing capsules, cores intersect: normal %.9g %.9g %.9g, expected +-z\n", (double)r.normal[0],
               (double)r.normal[1], (double)r.normal[2]);
        bad = 1;
    }
    /* collinear overlapping cores: depth = the radii across the axis */
    px_transform tc = at(0, 0.5, 0);
    bad |= run_contact("collinear capsules", &c, &ta, &c, &tc, 0, 3.0, &r);
    bad |= expect("collinear capsules", &r, -1.0, 1e-5, NULL, 0.0);
    if (!(fabs((double)r.normal[1]) <= 1e-5))
    {
        printf("    collinear capsules: normal %.9g %.9g %.9g has a component along the axis\n", (double)r.normal[0],
               (double)r.normal[1], (double)r.normal[2]);
        bad = 1;
    }
    return bad;
}

/* Closest points of two segments in long double (Ericson's clamped solve, exact enough for float inputs). */
static long double ld_segment_distance(const float* p1, const float* q1, const float* p2, const float* q2)
{
    long double d1[3], d2[3], r[3], a = 0, e = 0, f = 0, c = 0, b = 0;
    for (int k = 0; k < 3; ++k)
    {
        d1[k] = (long double)q1[k] - p1[k];
        d2[k] = (long double)q2[k] - p2[k];
        r[k] = (long double)p1[k] - p2[k];
        a += d1[k] * d1[k];
        e += d2[k] * d2[k];
        f += d2[k] * r[k];
        c += d1[k] * r[k];
        b += d1[k] * d2[k];
    }
    const long double denom = a * e - b * b;
    long double s = denom > 0 ? (b * f - c * e) / denom : 0, t;
    s = s < 0 ? 0 : (s > 1 ? 1 : s);
    t = (b * s + f) / e;
    if (t < 0 || t > 1)
    {
        t = t < 0 ? 0 : 1;
        s = (b * t - c) / a;
        s = s < 0 ? 0 : (s > 1 ? 1 : s);
    }
    long double d2sum = 0;
    for (int k = 0; k < 3; ++k)
    {
        const long double x = p1[k] + d1[k] * s - (p2[k] + d2[k] * t);
        d2sum += x * x;
    }
    return sqrtl(d2sum);
}

/* Capsules lying nearly parallel, their cores 0 to 1e-3 apart, 1e-4 to 0.1 rad between them, coordinates up
 * to 40: the closed form's distance within 1e-6 of the size of the long double one (cores within the
 * touching band go to EPA, whose answer is good to the band: 1e-5 of the size). In float, a e - b^2 of two
 * nearly parallel segments keeps a relative error of eps / sin^2 of their angle: crossing segments 31 and
 * 12 long, 0.006 rad apart, read 4.5e-4 apart (contact_sign at PX_TEST_SEED=234), and one such pair in five
 * was off by more than 1e-5 of the size, up to 2.8e-4 of it. */
static int parallel_capsules(void)
{
    px_rng rng = px_rng_seeded(0x70617261ull);
    const px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    double worst = 0.0, worst_band = 0.0; /* closed form; cores within the band (EPA) */
    for (int trial = 0; trial < 20000; ++trial)
    {
        const double angle = pow(10.0, px_rng_range(&rng, -4.0, -1.0));
        const double l1 = px_rng_range(&rng, 1.0, 30.0), l2 = px_rng_range(&rng, 1.0, 30.0);
        double u[3], w[3], side[3], v[3], o[3];
        px_rng_unit_vector(&rng, u);
        /* w: a unit vector normal to u; side normal to both */
        const double t0[3] = { -u[1], u[0], 0.0 };
        const double n0 = sqrt(t0[0] * t0[0] + t0[1] * t0[1]);
        for (int k = 0; k < 3; ++k)
        {
            w[k] = t0[k] / n0;
            o[k] = px_rng_range(&rng, -10.0, 10.0);
        }
        side[0] = u[1] * w[2] - u[2] * w[1];
        side[1] = u[2] * w[0] - u[0] * w[2];
        side[2] = u[0] * w[1] - u[1] * w[0];
        const double gap = px_rng_range(&rng, 0.0, 1e-3), s0 = px_rng_range(&rng, 0.0, l1),
                     s1 = px_rng_range(&rng, 0.0, l2);
        float p1[3], q1[3], p2[3], q2[3];
        for (int k = 0; k < 3; ++k)
        {
            v[k] = cos(angle) * u[k] + sin(angle) * w[k];
            p1[k] = (float)(o[k] - s0 * u[k]);
            q1[k] = (float)(o[k] + (l1 - s0) * u[k]);
            p2[k] = (float)(o[k] + gap * side[k] - s1 * v[k]);
            q2[k] = (float)(o[k] + gap * side[k] + (l2 - s1) * v[k]);
        }
        px_shape a = px_shape_segment(p1, q1), b = px_shape_segment(p2, q2);
        a.radius = 0.25f;
        b.radius = 0.5f;
        px_contact r;
        PX_CHECK_STATUS(px_contact_world(&a, &id, &b, &id, NULL, &r), PX_OK);
        const double expected = (double)ld_segment_distance(p1, q1, p2, q2) - 0.75;
        const double error = fabs((double)r.distance - expected) / 40.0;
        if (r.method == PX_CONTACT_ANALYTIC)
        {
            worst = fmax(worst, error);
        }
        else
        {
            worst_band = fmax(worst_band, error);
        }
    }
    if (!(worst <= 1e-6) || !(worst_band <= 1e-5))
    {
        printf("    parallel capsules: worst distance error %.3g of the size (closed form), %.3g (EPA)\n", worst,
               worst_band);
        return 1;
    }
    return 0;
}

static int rounded_shapes(void)
{
    int bad = 0;
    px_contact r;
    const double nx[3] = { 1, 0, 0 };
    /* rounded boxes (half 1, radius 0.2) 2.3 apart: cores 0.3 apart, radii 0.4: -0.1, no EPA */
    px_shape rb = box(1, 1, 1);
    rb.radius = 0.2f;
    px_transform ta = at(0, 0, 0), tb = at(2.3, 0.1, -0.2);
    bad |= run_contact("rounded boxes", &rb, &ta, &rb, &tb, 0, 2.4, &r);
    bad |= expect("rounded boxes", &r, -0.1, 1e-5, nx, 1e-5);
    bad |= expect_method("rounded boxes", &r, PX_CONTACT_GJK);
    /* spheres 1.5 apart with radius 1: -0.5, closed form */
    px_shape s = px_shape_sphere(1.0f);
    px_transform ts = at(1.5, 0, 0);
    bad |= run_contact("spheres", &s, &ta, &s, &ts, 0, 2.0, &r);
    bad |= expect("spheres", &r, -0.5, 1e-5, nx, 1e-5);
    bad |= expect_method("spheres", &r, PX_CONTACT_ANALYTIC);
    /* rounded hull (tetrahedron, radius 0.3) against a box, cores 0.2 apart along x */
    static const float tet[] = { 0, -1, -1, 0, 1, -1, 0, 0, 1, 1, 0, 0 };
    px_shape th = px_shape_hull(tet, 4);
    th.radius = 0.3f;
    px_shape b = box(1, 1, 1);
    px_transform tt = at(1.2, 0, 0); /* the tetrahedron's face x = 0 is 0.2 from the box face x = 1 */
    bad |= run_contact("rounded hull and box", &b, &ta, &th, &tt, 0, 2.6, &r);
    bad |= expect("rounded hull and box", &r, -0.1, 1e-5, nx, 1e-5);
    bad |= expect_method("rounded hull and box", &r, PX_CONTACT_GJK);
    /* rounded cores overlapping: EPA on the cores plus the radii (rounded boxes 1.9 apart: -0.5) */
    px_transform tc = at(1.9, 0, 0);
    bad |= run_contact("rounded boxes, cores overlap", &rb, &ta, &rb, &tc, 0, 2.4, &r);
    bad |= expect("rounded boxes, cores overlap", &r, -0.5, 1e-5, nx, 1e-5);
    return bad;
}

/* ------------------------------------------------------------------------------------------------ */
/* KNOWN_FAILURES.md 2.2                                                                             */

/* libccd #25: cubes of side 2 at (0,0,0) and (0,0,1.9): depth 0.1 along +z (libccd: depth 0, NaN). */
static int reg_libccd_25(void)
{
    const double h[3] = { 1, 1, 1 }, nz[3] = { 0, 0, 1 };
    px_transform ta = at(0, 0, 0), tb = at(0, 0, 1.9);
    px_shape a = box(1, 1, 1);
    float pts[24];
    box_corners(1, 1, 1, pts);
    px_shape hl = px_shape_hull(pts, 8);
    px_contact r;
    int bad = run_contact("libccd #25 boxes", &a, &ta, &a, &tb, 0, 2.0, &r);
    bad |= expect("libccd #25 boxes", &r, -0.1, 1e-5, nz, 1e-5);
    bad |= run_contact("libccd #25 hulls", &hl, &ta, &hl, &tb, 0, 2.0, &r);
    bad |= expect("libccd #25 hulls", &r, -0.1, 1e-5, nz, 1e-5);
    bad |= check_boxes("libccd #25", h, &ta, h, &tb, 1e-5);
    return bad;
}

/* libccd #68, fcl #408: touching boxes; a sphere exactly touching a box (powers of two: exact). Depth 0,
 * a valid normal, never NaN. */
static int reg_libccd_68_fcl_408(void)
{
    int bad = 0;
    px_contact r;
    const double nx[3] = { 1, 0, 0 }, nd[3] = { 0.70710678118654752, 0.70710678118654752, 0 };
    float pts[24];
    box_corners(1, 1, 1, pts);
    px_shape hl = px_shape_hull(pts, 8);
    px_transform ta = at(0, 0, 0), tb = at(2, 0, 0);
    bad |= run_contact("libccd #68 touching cube hulls", &hl, &ta, &hl, &tb, 0, 2.0, &r);
    bad |= expect("libccd #68 touching cube hulls", &r, 0.0, 1e-6, nx, 1e-5);
    /* touching along an edge only (B shifted diagonally) */
    px_transform te = at(2, 2, 0);
    bad |= run_contact("touching cube hulls, edge", &hl, &ta, &hl, &te, 0, 2.0, &r);
    bad |= expect("touching cube hulls, edge", &r, 0.0, 1e-6, NULL, 0.0);
    /* fcl #408: sphere r = 0.0625 exactly touching a box of half 0.125 */
    px_shape b = box(0.125, 0.125, 0.125), s = px_shape_sphere(0.0625f);
    px_transform ts = at(0.1875, 0, 0);
    bad |= run_contact("fcl #408 sphere touching a box", &b, &ta, &s, &ts, 0, 0.25, &r);
    bad |= expect("fcl #408 sphere touching a box", &r, 0.0, 1e-7, nx, 1e-5);
    px_transform tc = at(0.125 + 0.0625 * 0.70710678118654752, 0.125 + 0.0625 * 0.70710678118654752, 0.0);
    bad |= run_contact("sphere touching a box edge", &b, &ta, &s, &tc, 0, 0.25, &r);
    bad |= expect("sphere touching a box edge", &r, 0.0, 1e-7, nd, 1e-4);
    /* the same sphere as a rounded point against the box as a hull (GJK path) */
    float bp[24];
    box_corners(0.125, 0.125, 0.125, bp);
    px_shape bh = px_shape_hull(bp, 8);
    bad |= run_contact("sphere touching a box hull", &bh, &ta, &s, &ts, 0, 0.25, &r);
    bad |= expect("sphere touching a box hull", &r, 0.0, 1e-7, nx, 1e-5);
    return bad;
}

/* fcl #319 / #390: box 0.05 x 0.39 x 1.47 against a cylinder whose axis is 6e-6 rad from axis-aligned,
 * its round side 0.01 into the box's large face. */
static int reg_fcl_390_box_cylinder(void)
{
    int bad = 0;
    px_shape b = box(0.025, 0.195, 0.735), c = px_shape_cylinder(0.2f, 0.05f);
    px_transform ta = at(0, 0, 0);
    /* cylinder axis (local y) along world z, tilted 6e-6 */
    px_transform tc = pose(1, 6e-6, 0, PXC_PI / 2, 0.025 + 0.05 - 0.01, 0.02, 0.1);
    px_contact r;
    const double nx[3] = { 1, 0, 0 };
    bad |= run_contact("fcl #390 box-cylinder", &b, &ta, &c, &tc, 1, 1.47, &r);
    bad |= expect("fcl #390 box-cylinder", &r, -0.01, 1e-3 * 1.47, nx, 1e-2);
    /* and the cylinder's flat end into the large face, axis 6e-6 from the face normal */
    px_transform te = pose(0, 6e-6, 1, PXC_PI / 2, 0.025 + 0.2 - 0.004, -0.05, 0.3);
    bad |= run_contact("fcl #390 cylinder end", &b, &ta, &c, &te, 1, 1.47, &r);
    bad |= expect("fcl #390 cylinder end", &r, -0.004, 1e-3 * 1.47, nx, 1e-2);
    return bad;
}

/* fcl #395: a thin box 0.46 x 0.48 x 0.01 against a rotated small box through its face. */
static int reg_fcl_395_thin_box(void)
{
    const double ha[3] = { 0.23, 0.24, 0.005 }, hb[3] = { 0.03, 0.05, 0.02 };
    px_transform ta = at(0, 0, 0);
    int bad = 0;
    for (int k = 0; k < 4; ++k)
    {
        /* small box turned obliquely, its lowest corner 0.002 + k 0.003 below the top face */
        px_transform tb = pose(0.3, 0.8, 0.5, 0.9 + 0.4 * k, 0.05 - 0.02 * k, -0.03, 0.0);
        /* lift so that the lowest point of B is at z = 0.005 - depth */
        float pts[24];
        box_corners(hb[0], hb[1], hb[2], pts);
        double lo = INFINITY;
        for (int i = 0; i < 8; ++i)
        {
            float w[3];
            px_transform_point(&tb, pts + 3 * i, w);
            lo = (double)w[2] < lo ? (double)w[2] : lo;
        }
        tb.p[2] = (float)(0.005 - (0.002 + 0.003 * k) - lo);
        char name[64];
        snprintf(name, sizeof(name), "fcl #395 thin box %d", k);
        bad |= check_boxes(name, ha, &ta, hb, &tb, 1e-5);
    }
    return bad;
}

/* A point touching a box thin against the rounding (half extents down to 2.8e-6 of the others), from a
 * review's fuzzer: the contact must stay on the point (point_a at A's position) and point_b on the box.
 * A witness taken from GJK with B moved off along a normal that was not a touching one put point_a 2e-4
 * (R1) and 1.8e-5 (R2) away; the box's thickness is 1.3e-6 (R1). */
static int touching_thin_box_witness(void)
{
    static const float he[2][3] = { { 0x1.c6f3p-15f, 0x1.a4826ap-1f, 0x1.71ffa8p-19f },
                                    { 0x1.7a12cap-16f, 0x1.7ae54ap-2f, 0x1.3b312ap-7f } };
    static const px_transform ta[2] = {
        { { 0x1.6f0262p-1f, -0x1.dd428ep-3f, -0x1.338bb4p-1f, -0x1.10f78ap-2f },
          { 0x1.4e7eb2p+2f, 0x1.c72bcep+0f, -0x1.912348p+2f } },
        { { -0x1.6a27fp-1f, -0x1.4b72c2p-1f, -0x1.207a92p-2f, -0x1.20084p-5f },
          { 0x1.cad1f4p+0f, 0x1.79b4bep-1f, 0x1.07f86ep+2f } }
    };
    static const px_transform tb[2] = {
        { { 0x1.4093dap-2f, -0x1.d07586p-1f, 0x1.11614ep-2f, 0x1.69c884p-4f },
          { 0x1.2e2876p+2f, 0x1.291e06p+1f, -0x1.a7b0a8p+2f } },
        { { -0x1.2ac29p-3f, 0x1.b04e56p-2f, 0x1.4ac784p-1f, 0x1.3ce77cp-1f },
          { 0x1.b1913ep+0f, 0x1.84354p-1f, 0x1.0aeb2ep+2f } }
    };
    for (int k = 0; k < 2; ++k)
    {
        px_shape a = px_shape_point();
        px_shape b = px_shape_box(he[k]);
        px_contact c;
        PX_CHECK(px_contact_world(&a, &ta[k], &b, &tb[k], NULL, &c) >= 0);
        PX_CHECK(finite_contact(&c));
        /* within rounding of touching: |distance| and both witnesses within 1e-5 of the scale (about 7) */
        PX_CHECK(fabsf(c.distance) <= 1e-5f);
        PX_CHECK_NEAR3(c.point_a, ta[k].p, 1e-5);
        /* point_b in B's frame lies on the box within the same tolerance */
        float d[3], l[3];
        for (int i = 0; i < 3; ++i)
        {
            d[i] = c.point_b[i] - tb[k].p[i];
        }
        px_quat_rotate_inverse(tb[k].q, d, l);
        for (int i = 0; i < 3; ++i)
        {
            PX_CHECK(fabsf(l[i]) <= he[k][i] + 1e-5f);
        }
    }
    return 0;
}

/* fcl #398 / #399 / #428 / #445: 0.01-thick plates, axis-aligned or nearly, overlapping or stacked. */
static int reg_fcl_398_plates(void)
{
    const double ha[3] = { 0.5, 0.5, 0.005 }, hb[3] = { 0.3, 0.2, 0.005 };
    static const double tilts[] = { 0.0, 1e-9, 4.9e-12, 3e-8, 1e-6, 1e-3 };
    static const double dz[] = { 0.0, 0.006, 0.0099, 0.00999 };
    int bad = 0;
    px_transform ta = at(0, 0, 0);
    for (size_t i = 0; i < sizeof(tilts) / sizeof(tilts[0]); ++i)
    {
        for (size_t j = 0; j < sizeof(dz) / sizeof(dz[0]); ++j)
        {
            px_transform tb = pose(0.6, -0.8, 0.1, tilts[i], 0.1, -0.05, dz[j]);
            char name[80];
            snprintf(name, sizeof(name), "fcl #398 plates tilt %g dz %g", tilts[i], dz[j]);
            bad |= check_boxes(name, ha, &ta, hb, &tb, 1e-5);
        }
    }
    return bad;
}

/* fcl #493 / #495: identical boxes under a fixed oblique rotation, stacked with separations of
 * +-1e-16..1e-15 max(1, size) (below float resolution: effectively touching). No error, finite, the sign
 * agrees with GJK, |distance| within 1e-5 S + 16 eps C. */
static int reg_fcl_493_kissing(void)
{
    static const double sizes[] = { 0.01, 0.25, 0.5, 10.0, 1000.0 };
    static const double seps[] = { -1e-15, -2.5e-16, -1e-16, 0.0, 1e-16, 2.5e-16, 1e-15 };
    int bad = 0;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i)
    {
        for (size_t j = 0; j < sizeof(seps) / sizeof(seps[0]); ++j)
        {
            double h = 0.5 * sizes[i], sep = seps[j] * (sizes[i] > 1.0 ? sizes[i] : 1.0);
            px_transform ta = pose(0.2, 0.7, -0.4, 0.8, 0.3, -0.1, 0.2);
            px_transform tb = ta;
            const float up[3] = { 0.0f, 0.0f, (float)(2.0 * h + sep) };
            px_transform_point(&ta, up, tb.p);
            px_shape a = box(h, h, h);
            float pts[24];
            box_corners(h, h, h, pts);
            px_shape hl = px_shape_hull(pts, 8);
            const px_shape* shapes[2] = { &a, &hl };
            for (int k = 0; k < 2; ++k)
            {
                char name[96];
                snprintf(name, sizeof(name), "fcl #493 size %g sep %g (%s)", sizes[i], seps[j], k == 0 ? "boxes" : "hulls");
                px_contact r;
                bad |= run_contact(name, shapes[k], &ta, shapes[k], &tb, 0, 2.0 * h, &r);
                px_gjk_result g;
                bool ov = false;
                px_status s1 = px_gjk_distance_world(shapes[k], &ta, shapes[k], &tb, NULL, &g);
                px_status s2 = px_gjk_overlap_world(shapes[k], &ta, shapes[k], &tb, NULL, &ov);
                double tol = 1e-5 * 2.0 * h + 16.0 * FLT_EPSILON * (fabs((double)tb.p[2]) + 4.0 * h);
                int sign_ok = ((r.distance > 0.0f) == (g.distance > 0.0f)) && ((r.distance <= 0.0f) == ov);
                if (s1 != PX_OK || s2 != PX_OK || !sign_ok || !(fabs((double)r.distance) <= tol))
                {
                    printf("    %s: contact %.9g (%a, %s), gjk %.9g (%a) overlap %d (statuses %d %d), tol %.3g\n", name,
                           (double)r.distance, (double)r.distance, method_name(r.method), (double)g.distance,
                           (double)g.distance, ov, (int)s1, (int)s2, tol);
                    bad = 1;
                }
            }
        }
    }
    return bad;
}

/* mujoco_warp #1526: stacked boxes concentric in xy, penetration 2.5e-4: the origin lies on a face of GJK's
 * tetrahedron (the contact was silently dropped). */
static int reg_mujoco_warp_1526(void)
{
    int bad = 0;
    const double h[3] = { 0.5, 0.5, 0.5 }, nz[3] = { 0, 0, 1 };
    px_transform ta = at(0, 0, 0), tb = at(0, 0, 1.0 - 2.5e-4);
    float pts[24];
    box_corners(0.5, 0.5, 0.5, pts);
    px_shape hl = px_shape_hull(pts, 8), b = box(0.5, 0.5, 0.5);
    px_contact r;
    bad |= run_contact("mujoco_warp #1526 hulls", &hl, &ta, &hl, &tb, 0, 1.0, &r);
    bad |= expect("mujoco_warp #1526 hulls", &r, -2.5e-4, 1e-7, nz, 1e-5);
    bad |= run_contact("mujoco_warp #1526 boxes", &b, &ta, &b, &tb, 0, 1.0, &r);
    bad |= expect("mujoco_warp #1526 boxes", &r, -2.5e-4, 1e-7, nz, 1e-5);
    /* a flatter slab and a different size on top */
    const double hb[3] = { 0.3, 0.3, 0.05 };
    px_transform tc = at(0, 0, 0.5 + 0.05 - 2.5e-4);
    bad |= check_boxes("mujoco_warp #1526 slab", h, &ta, hb, &tc, 1e-6);
    return bad;
}

/* fcl #628: a box fully inside another sharing three faces: depth 1; both scaled by 2 along z: still 1
 * (FCL: 0). */
static int reg_fcl_628(void)
{
    int bad = 0;
    for (int k = 0; k < 2; ++k)
    {
        double sz = k == 0 ? 1.0 : 2.0;
        const double ha[3] = { 1, 1, sz }, hb[3] = { 0.5, 0.5, 0.5 * sz };
        px_transform ta = at(0, 0, 0), tb = at(0.5, 0.5, 0.5 * sz);
        px_shape a = box(ha[0], ha[1], ha[2]), b = box(hb[0], hb[1], hb[2]);
        px_contact r;
        const char* name = k == 0 ? "fcl #628" : "fcl #628 scaled along z";
        bad |= run_contact(name, &a, &ta, &b, &tb, 0, 2.0 * sz, &r);
        bad |= expect(name, &r, -1.0, 1e-5, NULL, 0.0);
        bad |= check_boxes(name, ha, &ta, hb, &tb, 1e-5);
    }
    return bad;
}

/* Jolt PR #2065: a long sliver triangle against a small box penetrating it: the witness on the triangle
 * must lie on the triangle (Jolt's barycentric v came out far outside [0, 1]). */
static int reg_jolt_2065_sliver(void)
{
    int bad = 0;
    const double A[3] = { -0.228, -28.1, 0.140 }, B[3] = { -0.252, 173.4, 0.0938 }, C[3] = { -0.252, 172.4, 0.0938 };
    vec3 fa = { (float)A[0], (float)A[1], (float)A[2] }, fb = { (float)B[0], (float)B[1], (float)B[2] },
         fc = { (float)C[0], (float)C[1], (float)C[2] };
    px_shape tri = px_shape_triangle(fa, fb, fc);
    px_shape b = box(0.1, 0.1, 0.1);
    px_transform tt = at(0, 0, 0);
    static const double bary[][3] = { { 0.5, 0.25, 0.25 }, { 0.1, 0.45, 0.45 }, { 0.9, 0.05, 0.05 }, { 0.02, 0.9, 0.08 } };
    for (size_t k = 0; k < sizeof(bary) / sizeof(bary[0]); ++k)
    {
        double p[3];
        for (int i = 0; i < 3; ++i)
        {
            p[i] = bary[k][0] * A[i] + bary[k][1] * B[i] + bary[k][2] * C[i];
        }
        /* the box centre 0.07 below the triangle's plane (roughly -z): penetrating by about 0.03 */
        px_transform tb = pose(0.2, 0.1, 1, 0.3 + 0.2 * (double)k, p[0] + 0.001, p[1], p[2] - 0.07);
        char name[64];
        snprintf(name, sizeof(name), "Jolt #2065 sliver %zu", k);
        bad |= check_exact(name, &tri, &tt, &b, &tb, 1e-5);
        px_contact r;
        bad |= run_contact(name, &tri, &tt, &b, &tb, 0, 201.5, &r);
        /* point_a on the triangle */
        ld pa[3] = { r.point_a[0], r.point_a[1], r.point_a[2] };
        ld tp[9];
        for (int i = 0; i < 3; ++i)
        {
            tp[i] = fa[i];
            tp[3 + i] = fb[i];
            tp[6 + i] = fc[i];
        }
        int cert = 0;
        ld d = pxo_point_hull_distance(pa, tp, 3, 201.5L, NULL, &cert);
        if (!(d <= 1e-5L * 201.5L))
        {
            printf("    %s: point_a is %.6Lg from the triangle\n", name, d);
            bad = 1;
        }
    }
    return bad;
}

/* coal PR #325 (#144): vertex-vertex contact hands EPA a rank-1 simplex (Coal: distance -inf). */
static int reg_coal_325_vertex_vertex(void)
{
    static const float ta_pts[] = { 0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, -1 };
    static const float tb_pts[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    px_shape a = px_shape_hull(ta_pts, 4), b = px_shape_hull(tb_pts, 4);
    px_transform t0 = at(0, 0, 0);
    int bad = check_exact("coal #325 vertex-vertex touching", &a, &t0, &b, &t0, 1e-5);
    px_transform t1 = at(-1e-3, -1e-3, -1e-3);
    bad |= check_exact("coal #325 vertex-vertex penetrating 1e-3", &a, &t0, &b, &t1, 1e-5);
    px_transform t2 = at(-1e-7, -2e-7, -1e-7);
    bad |= check_exact("coal #325 vertex-vertex penetrating 1e-7", &a, &t0, &b, &t2, 1e-5);
    /* cubes corner to corner */
    px_shape c = box(1, 1, 1);
    px_transform tc = at(2, 2, 2);
    bad |= check_exact("cubes corner to corner", &c, &t0, &c, &tc, 1e-5);
    return bad;
}

/* Curved shapes through EPA: cylinders and cones. Depth within 1e-3 S; a warning status is accepted only
 * if contact.h documents it (PX_WARN_MAX_ITERATIONS, PX_WARN_CAPACITY). */
static int curved_epa(void)
{
    int bad = 0;
    px_contact r;
    const double nx[3] = { 1, 0, 0 }, ny[3] = { 0, 1, 0 };
    /* parallel cylinders r 1 side by side 1.5 apart: depth 0.5 along x */
    px_shape cy = px_shape_cylinder(1.0f, 1.0f);
    px_transform ta = at(0, 0, 0), tb = at(1.5, 0.2, 0);
    bad |= run_contact("parallel cylinders", &cy, &ta, &cy, &tb, 1, 2.0, &r);
    bad |= expect("parallel cylinders", &r, -0.5, 2e-3, nx, 2e-2);
    /* a cone's apex 0.1 into a box's top face: depth 0.1 along +y (B moves up) */
    px_shape b = box(1, 1, 1), co = px_shape_cone(0.5f, 0.4f);
    px_transform tc = pose(1, 0, 0, PXC_PI, 0.1, 1.0 + 0.5 - 0.1, -0.2); /* apex pointing down at y = 0.9 */
    bad |= run_contact("cone apex into a box", &b, &ta, &co, &tc, 1, 2.0, &r);
    bad |= expect("cone apex into a box", &r, -0.1, 2e-3, ny, 2e-2);
    /* a cylinder lying on a box face, 0.01 into it (line contact) */
    px_shape cz = px_shape_cylinder(0.5f, 0.2f);
    px_transform tl = pose(0, 0, 1, PXC_PI / 2, 0.1, 1.0 + 0.2 - 0.01, 0.3);
    bad |= run_contact("cylinder lying on a box", &b, &ta, &cz, &tl, 1, 2.0, &r);
    bad |= expect("cylinder lying on a box", &r, -0.01, 2e-3, ny, 2e-2);
    /* cylinder against cylinder crossing at right angles, 0.05 deep */
    px_transform tx = pose(1, 0, 0, PXC_PI / 2, 0.0, 0.0, 2.0 - 0.05);
    px_transform tz = pose(0, 0, 1, PXC_PI / 2, 0.0, 0.0, 0.0);
    bad |= run_contact("crossing cylinders", &cy, &tz, &cy, &tx, 1, 2.0, &r);
    const double nz[3] = { 0, 0, 1 };
    bad |= expect("crossing cylinders", &r, -0.05, 2e-3, nz, 2e-2);
    return bad;
}

/* Scale equivariance: shapes and poses multiplied by 2^e (exact in float) must give the contact at
 * e = 0 multiplied by 2^e. EPA forms fourth powers of lengths (face normals squared), which overflowed float
 * from sizes of about 2^31 and fell into subnormals below about 2^-31: zero normals with PX_OK, then
 * wrong depths (0.8 S at 2^60). Pairs of every kind, overlapping (mostly EPA) and apart (GJK), over
 * 2^-50 .. 2^56 (below, squared distances themselves are subnormal; above, the pairs approach
 * PX_MAX_PAIR_SIZE). The distance is compared to 1e-6 of the size; the normal must be unit and
 * point_b = point_a + distance normal. Then the range: a pair larger than PX_MAX_PAIR_SIZE is refused
 * with PX_ERR_OUT_OF_RANGE (two spheres 2^64 apart used to read as overlapping). */
static int scale_equivariance(void)
{
    px_rng r = px_rng_seeded(0x5ca1ec);
    float cloud[3 * 16];
    for (int i = 0; i < 3 * 16; ++i)
    {
        cloud[i] = (float)px_rng_range(&r, -1, 1);
    }
    /* the last ones only must give a valid contact: below 2^-52 distances differ by more than 1e-6 S */
    static const int exps[] = { 0, -50, -40, -35, -30, -25, -20, 20, 25, 30, 35, 40, 50, 56, -56, -60, -64 };
    int failed = 0;
    for (int k = 0; k < 98; ++k)
    {
        double qa[4], qb[4], u[3];
        px_rng_quat(&r, qa);
        px_rng_quat(&r, qb);
        px_rng_unit_vector(&r, u);
        double dist = (k % 3 == 2) ? 2.5 : 0.3 + 0.2 * (k % 3);
        int types[2] = { k % PXT_SCALED_KINDS, (k / PXT_SCALED_KINDS) % PXT_SCALED_KINDS };
        px_contact ref;
        memset(&ref, 0, sizeof(ref));
        for (size_t ei = 0; ei < sizeof(exps) / sizeof(exps[0]); ++ei)
        {
            const float sc = ldexpf(1.0f, exps[ei]);
            float hs[3 * 16];
            for (int i = 0; i < 3 * 16; ++i)
            {
                hs[i] = cloud[i] * sc;
            }
            px_shape sh[2] = { pxt_scaled_shape(types[0], sc, hs, 16), pxt_scaled_shape(types[1], sc, hs, 16) };
            px_transform ta = pose(qa[0], qa[1], qa[2], 2.0 * acos(qa[3]), 0, 0, 0);
            px_transform tb = pose(qb[0], qb[1], qb[2], 2.0 * acos(qb[3]), dist * u[0], dist * u[1], dist * u[2]);
            for (int c = 0; c < 3; ++c)
            {
                ta.p[c] *= sc;
                tb.p[c] *= sc;
            }
            px_contact res;
            px_status st = px_contact_world(&sh[0], &ta, &sh[1], &tb, NULL, &res);
            double dn = (double)res.distance / sc;
            double nn = (double)res.normal[0] * res.normal[0] + (double)res.normal[1] * res.normal[1] +
                        (double)res.normal[2] * res.normal[2];
            double gap = 0.0;
            for (int c = 0; c < 3; ++c)
            {
                double e = ((double)res.point_b[c] - res.point_a[c] - (double)res.distance * res.normal[c]) / sc;
                gap = fmax(gap, fabs(e));
            }
            bool ok = st >= 0 && fabs(nn - 1.0) < 1e-5 && gap < 1e-5;
            if (ok && ei == 0)
            {
                ref = res;
                continue;
            }
            if (!ok || (exps[ei] >= -50 && !(fabs(dn - (double)ref.distance) <= 1e-6 * 3.0)))
            {
                if (failed < 6)
                {
                    fprintf(stderr,
                            "contact scale 2^%d pair %d (types %d/%d): status %d distance / scale %.9g (at scale 1: "
                            "%.9g), |normal|^2 %.9g, witness gap %.3g\n",
                            exps[ei], k, types[0], types[1], (int)st, dn, (double)ref.distance, nn, gap);
                }
                ++failed;
            }
        }
    }
    px_shape sphere = px_shape_sphere(1.0f), huge = px_shape_sphere(0x1p63f);
    px_transform origin = at(0, 0, 0), far = at(0x1p64, 0, 0);
    px_contact res;
    px_gjk_result g;
    if (px_contact_world(&sphere, &origin, &sphere, &far, NULL, &res) != PX_ERR_OUT_OF_RANGE ||
        px_gjk_distance_world(&sphere, &origin, &sphere, &far, NULL, &g) != PX_ERR_OUT_OF_RANGE ||
        px_contact_world(&huge, &origin, &sphere, &origin, NULL, &res) != PX_ERR_OUT_OF_RANGE)
    {
        fprintf(stderr, "contact scale: pairs beyond PX_MAX_PAIR_SIZE not refused\n");
        ++failed;
    }
    if (failed > 0)
    {
        fprintf(stderr, "contact scale equivariance: %d (pair, scale) queries differ\n", failed);
        return 1;
    }
    return 0;
}

/* Inconsistent user support functions (helper-44's sweep): every contact and manifold query must return
 * an error, or a finite answer with a unit normal and point_b = point_a + distance normal; never a success
 * with NaN or a zero normal. Before, a support that returns its direction grew EPA's polytope until its
 * cross products overflowed (zero normal, PX_OK), and a cube of half size FLT_MAX / 2 scaled EPA's answer
 * back by 2^128 (infinite depth, NaN points). */
static int32_t garbage_direction(const void* user, const vec3 d, vec3 dest)
{
    (void)user;
    dest[0] = d[0];
    dest[1] = d[1];
    dest[2] = d[2];
    return PX_NULL_INDEX;
}

static int32_t garbage_huge_cube(const void* user, const vec3 d, vec3 dest)
{
    (void)user;
    for (int i = 0; i < 3; ++i)
    {
        dest[i] = d[i] >= 0.0f ? 0.5f * FLT_MAX : -0.5f * FLT_MAX;
    }
    return PX_NULL_INDEX;
}

static int32_t garbage_anti(const void* user, const vec3 d, vec3 dest)
{
    (void)user;
    float n = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    float k = n > 0.0f ? -0.5f / n : 0.0f;
    dest[0] = d[0] * k;
    dest[1] = d[1] * k;
    dest[2] = d[2] * k;
    return PX_NULL_INDEX;
}

static int32_t garbage_counter(const void* user, const vec3 d, vec3 dest)
{
    /* a different point at every call: a box whose size jumps around */
    int* calls = (int*)(uintptr_t)user;
    float h = 0.1f + 0.37f * (float)((*calls)++ % 7);
    for (int i = 0; i < 3; ++i)
    {
        dest[i] = d[i] >= 0.0f ? h : -h;
    }
    return PX_NULL_INDEX;
}

static int garbage_user_support(void)
{
    int calls = 0;
    px_shape users[4] = { px_shape_user(garbage_direction, NULL), px_shape_user(garbage_huge_cube, NULL),
                          px_shape_user(garbage_anti, NULL), px_shape_user(garbage_counter, &calls) };
    const float pts[12] = { 0.3f, 0, 0, -0.2f, 0.25f, 0, 0, -0.1f, 0.35f, 0.05f, 0.1f, -0.3f };
    px_shape others[4] = { px_shape_sphere(0.5f), box(0.4, 0.3, 0.2), px_shape_capsule(0.3f, 0.1f),
                           px_shape_hull(pts, 4) };
    int bad = 0;
    for (int u = 0; u < 4; ++u)
    {
        for (int o = 0; o < 4; ++o)
        {
            for (int k = 0; k < 6; ++k)
            {
                px_transform ta = at(0, 0, 0), tb = pose(1, 2, 3, 0.7 * k, 0.2 - 0.1 * k, 0.1, 0.05 * k);
                const px_shape* a = (k % 2) ? &users[u] : &others[o];
                const px_shape* b = (k % 2) ? &others[o] : &users[u];
                px_contact r;
                px_status st = px_contact_world(a, &ta, b, &tb, NULL, &r);
                px_manifold m;
                px_status sm = px_manifold_world(a, &ta, b, &tb, NULL, &m);
                double nn = (double)r.normal[0] * r.normal[0] + (double)r.normal[1] * r.normal[1] +
                            (double)r.normal[2] * r.normal[2];
                double mag = fmax(1.0, fabs((double)r.distance));
                double gap = 0.0;
                for (int c = 0; c < 3; ++c)
                {
                    gap = fmax(gap, fabs((double)r.point_b[c] - r.point_a[c] - (double)r.distance * r.normal[c]));
                }
                bool ok_contact = st < 0 || (isfinite(r.distance) && fabs(nn - 1.0) < 1e-3 && gap <= 1e-4 * mag);
                double mn = (double)m.normal[0] * m.normal[0] + (double)m.normal[1] * m.normal[1] +
                            (double)m.normal[2] * m.normal[2];
                bool ok_manifold = sm < 0 || m.count == 0 || fabs(mn - 1.0) < 1e-3;
                for (int i = 0; sm >= 0 && i < m.count; ++i)
                {
                    ok_manifold = ok_manifold && isfinite(m.points[i].separation) &&
                                  isfinite(m.points[i].point_a[0] + m.points[i].point_a[1] + m.points[i].point_a[2]);
                }
                if (!ok_contact || !ok_manifold)
                {
                    fprintf(stderr,
                            "garbage user support %d against shape %d, pose %d: contact status %d distance %g "
                            "|n|^2 %g gap %g; manifold status %d count %d |n|^2 %g\n",
                            u, o, k, (int)st, (double)r.distance, nn, gap, (int)sm, m.count, mn);
                    bad = 1;
                }
            }
        }
    }
    return bad;
}

/* ------------------------------------------------------------------------------------------------ */
/* Bad input: an error status and a zeroed result                                                    */

static int zeroed(const px_contact* r)
{
    px_contact z;
    memset(&z, 0, sizeof(z));
    return r->distance == 0.0f && r->iterations == 0 && r->method == PX_CONTACT_NONE &&
           memcmp(r->point_a, z.point_a, sizeof(z.point_a)) == 0 && memcmp(r->point_b, z.point_b, sizeof(z.point_b)) == 0 &&
           memcmp(r->normal, z.normal, sizeof(z.normal)) == 0;
}

static int bad_call(const char* what, px_status st, const px_contact* r)
{
    if (st >= 0 || !zeroed(r))
    {
        printf("    %s: status %d (%s), result %szeroed\n", what, (int)st, px_status_string(st), zeroed(r) ? "" : "NOT ");
        return 1;
    }
    return 0;
}

static int bad_input(void)
{
    int bad = 0;
    px_shape a = box(1, 1, 1), s = px_shape_sphere(1.0f);
    px_transform t = at(0, 0, 0), t2 = at(1, 0, 0);
    px_contact r;
#define FILL() memset(&r, 0xAB, sizeof(r))
    FILL();
    bad |= bad_call("NULL shape a", px_contact_world(NULL, &t, &s, &t2, NULL, &r), &r);
    FILL();
    bad |= bad_call("NULL shape b", px_contact_world(&a, &t, NULL, &t2, NULL, &r), &r);
    FILL();
    bad |= bad_call("NULL pose a", px_contact_world(&a, NULL, &s, &t2, NULL, &r), &r);
    FILL();
    bad |= bad_call("NULL pose b", px_contact_world(&a, &t, &s, NULL, NULL, &r), &r);
    if (px_contact_world(&a, &t, &s, &t2, NULL, NULL) >= 0)
    {
        printf("    NULL result: not an error\n");
        bad = 1;
    }
    px_transform tn = t2;
    tn.p[1] = NAN;
    FILL();
    bad |= bad_call("NaN position", px_contact_world(&a, &t, &s, &tn, NULL, &r), &r);
    tn = t2;
    tn.q[2] = INFINITY;
    FILL();
    bad |= bad_call("Inf quaternion", px_contact_world(&a, &t, &s, &tn, NULL, &r), &r);
    tn = t2;
    tn.q[0] = tn.q[1] = tn.q[2] = tn.q[3] = 0.0f;
    FILL();
    bad |= bad_call("zero quaternion", px_contact_world(&a, &tn, &s, &t2, NULL, &r), &r);
    /* shapes */
    px_shape sn = px_shape_sphere(NAN);
    FILL();
    bad |= bad_call("NaN radius", px_contact_world(&a, &t, &sn, &t2, NULL, &r), &r);
    px_shape sneg = px_shape_sphere(-1.0f);
    FILL();
    bad |= bad_call("negative radius", px_contact_world(&a, &t, &sneg, &t2, NULL, &r), &r);
    px_shape bn = box(1, INFINITY, 1);
    FILL();
    bad |= bad_call("Inf half extent", px_contact_world(&bn, &t, &s, &t2, NULL, &r), &r);
    static float hp[] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    hp[4] = NAN;
    px_shape hn = px_shape_hull(hp, 4);
    FILL();
    bad |= bad_call("NaN hull point", px_contact_world(&hn, &t, &a, &t2, NULL, &r), &r);
    hp[4] = 0.0f;
    px_shape h0 = px_shape_hull(hp, 0);
    FILL();
    bad |= bad_call("hull of 0 points", px_contact_world(&h0, &t, &a, &t2, NULL, &r), &r);
    px_shape hnull = px_shape_hull(NULL, 4);
    FILL();
    bad |= bad_call("hull with NULL points", px_contact_world(&hnull, &t, &a, &t2, NULL, &r), &r);
    /* overlapping NaN hull (EPA must not swallow a NaN support) */
    static float hq[] = { -1, -1, -1, 1, -1, -1, 0, 1, -1, 0, 0, 1, 0, 0, 0 };
    hq[13] = NAN;
    px_shape hqn = px_shape_hull(hq, 5);
    FILL();
    bad |= bad_call("NaN interior hull point", px_contact_world(&hqn, &t, &a, &t, NULL, &r), &r);
    /* configs */
    px_contact_config c = px_contact_default_config();
    c.epa_max_iterations = 0;
    FILL();
    bad |= bad_call("epa_max_iterations 0", px_contact_world(&a, &t, &s, &t2, &c, &r), &r);
    c = px_contact_default_config();
    c.epa_rel_tolerance = 0.0f;
    FILL();
    bad |= bad_call("epa_rel_tolerance 0", px_contact_world(&a, &t, &s, &t2, &c, &r), &r);
    c = px_contact_default_config();
    c.epa_rel_tolerance = NAN;
    FILL();
    bad |= bad_call("epa_rel_tolerance NaN", px_contact_world(&a, &t, &s, &t2, &c, &r), &r);
    c = px_contact_default_config();
    c.gjk.max_iterations = -1;
    FILL();
    bad |= bad_call("gjk max_iterations -1", px_contact_world(&a, &t, &s, &t2, &c, &r), &r);
    c = px_contact_default_config();
    c.gjk.abs_tolerance = -1.0f;
    FILL();
    bad |= bad_call("gjk abs_tolerance -1", px_contact_world(&a, &t, &s, &t2, &c, &r), &r);
    /* relative-pose entry point */
    FILL();
    bad |= bad_call("relative: NULL input", px_contact_relative(NULL, NULL, NULL, &r), &r);
    if (px_contact_relative(NULL, NULL, NULL, NULL) >= 0)
    {
        printf("    relative: NULL result not an error\n");
        bad = 1;
    }
    px_gjk_input in;
    in.a = &a;
    in.b = &s;
    in.b_in_a = t2;
    in.b_in_a.p[0] = NAN;
    FILL();
    bad |= bad_call("relative: NaN pose", px_contact_relative(&in, NULL, NULL, &r), &r);
    in.b_in_a = t2;
    in.b = NULL;
    FILL();
    bad |= bad_call("relative: NULL shape", px_contact_relative(&in, NULL, NULL, &r), &r);
#undef FILL
    /* the defaults work, and a valid call after all this still does */
    c = px_contact_default_config();
    px_status st = px_contact_world(&a, &t, &s, &t2, &c, &r);
    if (st != PX_OK || !(fabs((double)r.distance + 1.0) <= 1e-6))
    {
        printf("    default config: status %d distance %.9g (expected -1)\n", (int)st, (double)r.distance);
        bad = 1;
    }
    return bad;
}

int test_contact(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(cube_in_cube);
    PX_RUN_SUBTEST(sphere_in_box);
    PX_RUN_SUBTEST(coincident_shapes);
    PX_RUN_SUBTEST(touching_faces);
    PX_RUN_SUBTEST(edge_edge_boxes);
    PX_RUN_SUBTEST(capsules);
    PX_RUN_SUBTEST(parallel_capsules);
    PX_RUN_SUBTEST(rounded_shapes);
    PX_RUN_SUBTEST(reg_libccd_25);
    PX_RUN_SUBTEST(reg_libccd_68_fcl_408);
    PX_RUN_SUBTEST(reg_fcl_390_box_cylinder);
    PX_RUN_SUBTEST(reg_fcl_395_thin_box);
    PX_RUN_SUBTEST(reg_fcl_398_plates);
    PX_RUN_SUBTEST(touching_thin_box_witness);
    PX_RUN_SUBTEST(reg_fcl_493_kissing);
    PX_RUN_SUBTEST(reg_mujoco_warp_1526);
    PX_RUN_SUBTEST(reg_fcl_628);
    PX_RUN_SUBTEST(reg_jolt_2065_sliver);
    PX_RUN_SUBTEST(reg_coal_325_vertex_vertex);
    PX_RUN_SUBTEST(curved_epa);
    PX_RUN_SUBTEST(scale_equivariance);
    PX_RUN_SUBTEST(garbage_user_support);
    PX_RUN_SUBTEST(bad_input);
    PX_SUITE_END;
}
