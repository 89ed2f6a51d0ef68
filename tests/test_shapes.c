/* Shapes (shapes.h): constructors, px_shape_support against brute force for every type (incl. rounding
 * radius, zero and axis-aligned directions), support index semantics, the SIMD hull scan (every count
 * 1..40 and large hulls, ties, non-finite points anywhere), px_shape_validate statuses, and px_shape_aabb
 * against brute force for random poses (contains the shape; tight where documented), with errors zeroing
 * dest.
 *
 * A support point x of shape S along d is checked by its defining property rather than against one
 * formula: x . d equals the support value h_S(d) = max_{y in S} y . d (analytic per type, max over the
 * points for hulls) and x lies in S (distance to the core <= radius). Tolerances: 1e-6 relative to
 * |d| * size for the value, 1e-6 * size for membership. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

static double dot3d(const float* a, const double* d)
{
    return (double)a[0] * d[0] + (double)a[1] * d[1] + (double)a[2] * d[2];
}

static double norm3d(const double* d)
{
    return sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* Bitwise equal for an unrounded shape; within tol when the core point was recovered by subtracting the
 * radius (which rounds). */
static bool same_point(const float* a, const float* b, double tol)
{
    if (tol == 0.0)
    {
        return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
    }
    return fabs((double)a[0] - b[0]) + fabs((double)a[1] - b[1]) + fabs((double)a[2] - b[2]) <= tol;
}

static bool finite3(const float* v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

/* Support value of the core (radius excluded) along d, analytic. Hulls: max over the points. */
static double core_support_value(const px_shape* s, const double* d)
{
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        return 0.0;
    case PX_SHAPE_SEGMENT:
        return fmax(dot3d(s->segment.a, d), dot3d(s->segment.b, d));
    case PX_SHAPE_TRIANGLE:
        return fmax(dot3d(s->triangle.a, d), fmax(dot3d(s->triangle.b, d), dot3d(s->triangle.c, d)));
    case PX_SHAPE_CAPSULE:
        return (double)s->capsule.half_height * fabs(d[1]);
    case PX_SHAPE_BOX:
        return (double)s->box.half_extents[0] * fabs(d[0]) + (double)s->box.half_extents[1] * fabs(d[1]) +
               (double)s->box.half_extents[2] * fabs(d[2]);
    case PX_SHAPE_CYLINDER:
        return (double)s->cylinder.half_height * fabs(d[1]) + (double)s->cylinder.radius * hypot(d[0], d[2]);
    case PX_SHAPE_CONE: {
        double h = s->cylinder.half_height, r = s->cylinder.radius;
        return fmax(h * d[1], -h * d[1] + r * hypot(d[0], d[2]));
    }
    case PX_SHAPE_HULL: {
        double m = -INFINITY;
        for (int i = 0; i < s->hull.count; ++i)
        {
            m = fmax(m, dot3d(s->hull.points + 3 * i, d));
        }
        return m;
    }
    default:
        return NAN;
    }
}

/* Distance from x to the core (radius excluded). Hulls and user shapes are not handled (NAN). */
static double core_distance(const px_shape* s, const float* x)
{
    ldv3 X, a, b, c, q;
    ldv_from_f(x, X);
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        return (double)sqrtl(ldv_dot(X, X));
    case PX_SHAPE_SEGMENT:
        ldv_from_f(s->segment.a, a);
        ldv_from_f(s->segment.b, b);
        return (double)sqrtl(ld_closest_segment(X, a, b, q, NULL));
    case PX_SHAPE_TRIANGLE:
        ldv_from_f(s->triangle.a, a);
        ldv_from_f(s->triangle.b, b);
        ldv_from_f(s->triangle.c, c);
        return (double)sqrtl(ld_closest_triangle(X, a, b, c, q));
    case PX_SHAPE_CAPSULE: {
        const float fa[3] = { 0, -s->capsule.half_height, 0 }, fb[3] = { 0, s->capsule.half_height, 0 };
        ldv_from_f(fa, a);
        ldv_from_f(fb, b);
        return (double)sqrtl(ld_closest_segment(X, a, b, q, NULL));
    }
    case PX_SHAPE_BOX: {
        double t = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            double e = fmax(fabs((double)x[i]) - (double)s->box.half_extents[i], 0.0);
            t += e * e;
        }
        return sqrt(t);
    }
    case PX_SHAPE_CYLINDER: {
        double rho = hypot((double)x[0], (double)x[2]);
        double dr = fmax(rho - (double)s->cylinder.radius, 0.0);
        double dy = fmax(fabs((double)x[1]) - (double)s->cylinder.half_height, 0.0);
        return hypot(dr, dy);
    }
    case PX_SHAPE_CONE: {
        /* the solid cone is the revolution of the triangle (0, h), (r, -h), (0, -h) in the (rho, y) plane */
        double h = s->cylinder.half_height, r = s->cylinder.radius;
        double fa[3] = { 0, h, 0 }, fb[3] = { r, -h, 0 }, fc[3] = { 0, -h, 0 };
        double px[3] = { hypot((double)x[0], (double)x[2]), (double)x[1], 0 };
        ldv3 P;
        ldv_from_d(fa, a);
        ldv_from_d(fb, b);
        ldv_from_d(fc, c);
        ldv_from_d(px, P);
        return (double)sqrtl(ld_closest_triangle(P, a, b, c, q));
    }
    default:
        return NAN;
    }
}

/* Largest extent of the core (for tolerances). */
static double core_size(const px_shape* s)
{
    double d[3] = { 1, 0, 0 }, m = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        d[0] = d[1] = d[2] = 0.0;
        d[i] = 1.0;
        m = fmax(m, fabs(core_support_value(s, d)));
        d[i] = -1.0;
        m = fmax(m, fabs(core_support_value(s, d)));
    }
    return fmax(m + (double)s->radius, 1e-30);
}

static void print_shape(const px_shape* s)
{
    fprintf(stderr, "  shape type %d radius %a", (int)s->type, (double)s->radius);
    switch (s->type)
    {
    case PX_SHAPE_SEGMENT:
        fprintf(stderr, " a {%a, %a, %a} b {%a, %a, %a}", (double)s->segment.a[0], (double)s->segment.a[1],
                (double)s->segment.a[2], (double)s->segment.b[0], (double)s->segment.b[1], (double)s->segment.b[2]);
        break;
    case PX_SHAPE_CAPSULE:
        fprintf(stderr, " half_height %a", (double)s->capsule.half_height);
        break;
    case PX_SHAPE_BOX:
        fprintf(stderr, " half extents {%a, %a, %a}", (double)s->box.half_extents[0], (double)s->box.half_extents[1],
                (double)s->box.half_extents[2]);
        break;
    case PX_SHAPE_CYLINDER:
    case PX_SHAPE_CONE:
        fprintf(stderr, " half_height %a radius %a", (double)s->cylinder.half_height, (double)s->cylinder.radius);
        break;
    case PX_SHAPE_HULL:
        fprintf(stderr, " hull of %d points", s->hull.count);
        break;
    default:
        break;
    }
    fprintf(stderr, "\n");
}

/* Check one support answer by its defining property. Returns 1 (after printing) on a violation. */
static int check_support(const char* label, const px_shape* s, const float* dirf)
{
    double d[3] = { (double)dirf[0], (double)dirf[1], (double)dirf[2] };
    double dn = norm3d(d);
    float x[3] = { NAN, NAN, NAN };
    int32_t idx = px_shape_support(s, dirf, x);
    double size = core_size(s);
    double r = (double)s->radius;
    bool bad = !finite3(x);
    const char* why = bad ? "non-finite point" : "";
    /* the core point: x minus the radius along the unit direction */
    float core[3] = { x[0], x[1], x[2] };
    if (!bad && dn > 0.0 && r > 0.0)
    {
        for (int i = 0; i < 3; ++i)
        {
            core[i] = (float)((double)x[i] - r * d[i] / dn);
        }
    }
    if (!bad)
    {
        double value = dot3d(x, d), expected = core_support_value(s, d) + r * dn;
        double vtol = 1e-6 * dn * size;
        if (!(fabs(value - expected) <= vtol))
        {
            bad = true;
            why = "x . d is not the support value";
            fprintf(stderr, "%s: x . d = %.9g, support value %.9g (tol %.3g)\n", label, value, expected, vtol);
        }
        if (s->type != PX_SHAPE_HULL && s->type != PX_SHAPE_USER)
        {
            double cd = core_distance(s, core);
            if (!(cd <= 1e-6 * size))
            {
                bad = true;
                why = "point not in the shape";
                fprintf(stderr, "%s: core point {%.9g, %.9g, %.9g} is %.3g from the core\n", label, (double)core[0],
                        (double)core[1], (double)core[2], cd);
            }
        }
    }
    /* index semantics */
    double ptol = r > 0.0 ? 1e-6 * size : 0.0;
    if (!bad)
    {
        switch (s->type)
        {
        case PX_SHAPE_SEGMENT:
            bad = !((idx == 0 && same_point(core, s->segment.a, ptol)) ||
                    (idx == 1 && same_point(core, s->segment.b, ptol)));
            why = "segment index does not name the returned end point";
            break;
        case PX_SHAPE_TRIANGLE:
            bad = !((idx == 0 && same_point(core, s->triangle.a, ptol)) ||
                    (idx == 1 && same_point(core, s->triangle.b, ptol)) ||
                    (idx == 2 && same_point(core, s->triangle.c, ptol)));
            why = "triangle index does not name the returned vertex";
            break;
        case PX_SHAPE_BOX:
            for (int i = 0; i < 3 && r == 0.0; ++i)
            {
                float want = (idx >> i) & 1 ? s->box.half_extents[i] : -s->box.half_extents[i];
                bad = bad || x[i] != want;
            }
            bad = bad || idx < 0 || idx > 7;
            why = "box index bits do not name the returned corner (bit i set = +half extent i)";
            break;
        case PX_SHAPE_CAPSULE:
            bad = !(idx == PX_NULL_INDEX || idx == 0 || idx == 1);
            if (!bad && idx != PX_NULL_INDEX)
            {
                float want = idx == 1 ? s->capsule.half_height : -s->capsule.half_height;
                bad = !(fabs((double)core[1] - (double)want) <= 1e-6 * size);
            }
            why = "capsule index is not its end point (0 = bottom, 1 = top)";
            break;
        case PX_SHAPE_CYLINDER:
            bad = idx != PX_NULL_INDEX && hypot(d[0], d[2]) > 0.0;
            why = "cylinder rim support has an index (curved supports give PX_NULL_INDEX)";
            break;
        case PX_SHAPE_CONE:
            if ((double)core[1] < (double)s->cylinder.half_height - 1e-6 * size)
            {
                bad = idx != PX_NULL_INDEX;
                why = "cone rim support has an index (curved supports give PX_NULL_INDEX)";
            }
            break;
        case PX_SHAPE_HULL:
            bad = !(idx >= 0 && idx < s->hull.count);
            if (!bad)
            {
                bad = !same_point(core, s->hull.points + 3 * idx, ptol);
            }
            why = "hull index does not name the returned point";
            break;
        default:
            break;
        }
    }
    if (bad)
    {
        fprintf(stderr, "%s: %s: direction {%a, %a, %a} -> index %d, point {%a, %a, %a}\n", label, why, d[0], d[1],
                d[2], idx, (double)x[0], (double)x[1], (double)x[2]);
        print_shape(s);
        return 1;
    }
    return 0;
}

/* Directions: the 26 axis/diagonal directions, and n random ones. */
static int for_directions(const char* label, const px_shape* s, px_rng* r, int n)
{
    int bad = 0;
    for (int x = -1; x <= 1; ++x)
        for (int y = -1; y <= 1; ++y)
            for (int z = -1; z <= 1; ++z)
            {
                if (x == 0 && y == 0 && z == 0)
                {
                    continue;
                }
                const float d[3] = { (float)x, (float)y, (float)z };
                bad |= check_support(label, s, d);
            }
    for (int k = 0; k < n; ++k)
    {
        double u[3];
        px_rng_unit_vector(r, u);
        double m = pow(10.0, px_rng_range(r, -3, 3));
        const float d[3] = { (float)(u[0] * m), (float)(u[1] * m), (float)(u[2] * m) };
        bad |= check_support(label, s, d);
    }
    return bad;
}

/* ----------------------------------------------------------------------------------------------------- */

static int32_t user_box_support(const void* user, const vec3 d, vec3 dest)
{
    const float* h = (const float*)user;
    int32_t index = 0;
    for (int i = 0; i < 3; ++i)
    {
        bool pos = d[i] >= 0.0f;
        dest[i] = pos ? h[i] : -h[i];
        index |= (int32_t)pos << i;
    }
    return index + 100;
}

static int32_t user_nan_support(const void* user, const vec3 d, vec3 dest)
{
    (void)user;
    (void)d;
    dest[0] = NAN;
    dest[1] = 0.0f;
    dest[2] = 0.0f;
    return PX_NULL_INDEX;
}

static int constructors(void)
{
    const float a[3] = { 1, 2, 3 }, b[3] = { -4, 5, -6 }, c[3] = { 7, -8, 9 };
    px_shape s = px_shape_point();
    PX_CHECK(s.type == PX_SHAPE_POINT && s.radius == 0.0f);
    s = px_shape_segment(a, b);
    PX_CHECK(s.type == PX_SHAPE_SEGMENT && s.radius == 0.0f);
    PX_CHECK(memcmp(s.segment.a, a, sizeof(a)) == 0 && memcmp(s.segment.b, b, sizeof(b)) == 0);
    s = px_shape_triangle(a, b, c);
    PX_CHECK(s.type == PX_SHAPE_TRIANGLE && s.radius == 0.0f);
    PX_CHECK(memcmp(s.triangle.a, a, sizeof(a)) == 0 && memcmp(s.triangle.b, b, sizeof(b)) == 0 &&
             memcmp(s.triangle.c, c, sizeof(c)) == 0);
    s = px_shape_sphere(2.5f);
    PX_CHECK(s.type == PX_SHAPE_SPHERE && s.radius == 2.5f);
    s = px_shape_capsule(1.5f, 0.25f);
    PX_CHECK(s.type == PX_SHAPE_CAPSULE && s.capsule.half_height == 1.5f && s.radius == 0.25f);
    s = px_shape_box(a);
    PX_CHECK(s.type == PX_SHAPE_BOX && s.radius == 0.0f && memcmp(s.box.half_extents, a, sizeof(a)) == 0);
    s = px_shape_cylinder(2.0f, 0.5f);
    PX_CHECK(s.type == PX_SHAPE_CYLINDER && s.cylinder.half_height == 2.0f && s.cylinder.radius == 0.5f &&
             s.radius == 0.0f);
    s = px_shape_cone(3.0f, 1.25f);
    PX_CHECK(s.type == PX_SHAPE_CONE && s.cylinder.half_height == 3.0f && s.cylinder.radius == 1.25f &&
             s.radius == 0.0f);
    const float pts[6] = { 0, 0, 0, 1, 1, 1 };
    s = px_shape_hull(pts, 2);
    PX_CHECK(s.type == PX_SHAPE_HULL && s.hull.points == pts && s.hull.count == 2 && s.radius == 0.0f);
    const float h[3] = { 1, 2, 3 };
    s = px_shape_user(user_box_support, h);
    PX_CHECK(s.type == PX_SHAPE_USER && s.user.fn == user_box_support && s.user.user_data == h && s.radius == 0.0f);
    /* constructors never fail: they store what they are given, even invalid values */
    s = px_shape_sphere(-1.0f);
    PX_CHECK(s.type == PX_SHAPE_SPHERE && s.radius == -1.0f);
    s = px_shape_hull(NULL, -3);
    PX_CHECK(s.type == PX_SHAPE_HULL && s.hull.points == NULL && s.hull.count == -3);
    s = px_shape_capsule(NAN, 1.0f);
    PX_CHECK(s.type == PX_SHAPE_CAPSULE && isnan(s.capsule.half_height));
    return 0;
}

static int support_analytic_types(void)
{
    px_rng r = px_rng_seeded(0x5a9);
    int bad = 0;
    const float a[3] = { -1, 0.5f, 2 }, b[3] = { 3, -1, 0.25f }, c[3] = { 0.5f, 4, -1 };
    const float he[3] = { 0.5f, 2, 1.25f }, flat[3] = { 2, 0, 1 };
    px_shape shapes[] = {
        px_shape_point(),          px_shape_sphere(1.5f),       px_shape_segment(a, b),  px_shape_triangle(a, b, c),
        px_shape_capsule(2, 0.5f), px_shape_capsule(0, 1),      px_shape_box(he),        px_shape_box(flat),
        px_shape_cylinder(1, 2),   px_shape_cylinder(0.25f, 3), px_shape_cylinder(2, 0), px_shape_cone(1.5f, 1),
        px_shape_cone(0.5f, 4),    px_shape_cone(2, 0),
    };
    const size_t n = sizeof(shapes) / sizeof(shapes[0]);
    for (size_t i = 0; i < n; ++i)
    {
        char label[64];
        snprintf(label, sizeof(label), "support type %d (#%zu)", (int)shapes[i].type, i);
        bad |= for_directions(label, &shapes[i], &r, 300);
        /* the same core, rounded */
        px_shape rounded = shapes[i];
        rounded.radius += 0.375f;
        snprintf(label, sizeof(label), "support type %d (#%zu) rounded", (int)shapes[i].type, i);
        bad |= for_directions(label, &rounded, &r, 300);
    }
    return bad;
}

/* Exact values: a few supports whose answer is a known point. */
static int support_exact_points(void)
{
    float x[3];
    const float dx[3] = { 1, 0, 0 }, dy[3] = { 0, 1, 0 }, dny[3] = { 0, -2, 0 }, dxy[3] = { 3, 4, 0 };
    px_shape s = px_shape_sphere(2);
    px_shape_support(&s, dxy, x);
    PX_CHECK_NEAR(x[0], 1.2, 1e-6);
    PX_CHECK_NEAR(x[1], 1.6, 1e-6);
    PX_CHECK_NEAR(x[2], 0.0, 1e-6);
    s = px_shape_capsule(1, 0.5f);
    px_shape_support(&s, dny, x);
    PX_CHECK(x[0] == 0.0f && x[1] == -1.5f && x[2] == 0.0f);
    px_shape_support(&s, dxy, x);
    PX_CHECK_NEAR(x[0], 0.3, 1e-6);
    PX_CHECK_NEAR(x[1], 1.4, 1e-6);
    const float he[3] = { 1, 2, 3 };
    s = px_shape_box(he);
    const float d1[3] = { -1, 2, -3 };
    int32_t i = px_shape_support(&s, d1, x);
    PX_CHECK(x[0] == -1.0f && x[1] == 2.0f && x[2] == -3.0f && i == 2); /* only bit 1 (+y) set */
    const float d2[3] = { 5, 6, 7 };
    i = px_shape_support(&s, d2, x);
    PX_CHECK(i == 7 && x[0] == 1.0f && x[1] == 2.0f && x[2] == 3.0f);
    const float d3[3] = { -5, -6, -7 };
    i = px_shape_support(&s, d3, x);
    PX_CHECK(i == 0 && x[0] == -1.0f && x[1] == -2.0f && x[2] == -3.0f);
    s.radius = 1.0f; /* rounded box along a diagonal direction: corner + r d/|d| */
    i = px_shape_support(&s, d2, x);
    double dn = sqrt(25.0 + 36.0 + 49.0);
    PX_CHECK(i == 7);
    PX_CHECK_NEAR(x[0], 1.0 + 5.0 / dn, 1e-6);
    PX_CHECK_NEAR(x[1], 2.0 + 6.0 / dn, 1e-6);
    PX_CHECK_NEAR(x[2], 3.0 + 7.0 / dn, 1e-6);
    s = px_shape_cylinder(2, 1);
    px_shape_support(&s, dxy, x);
    PX_CHECK_NEAR(x[0], 1.0, 1e-6);
    PX_CHECK_NEAR(x[1], 2.0, 1e-6);
    PX_CHECK_NEAR(x[2], 0.0, 1e-6);
    s = px_shape_cone(1, 1);
    px_shape_support(&s, dy, x);
    PX_CHECK(x[0] == 0.0f && x[1] == 1.0f && x[2] == 0.0f);
    px_shape_support(&s, dx, x);
    PX_CHECK(x[0] == 1.0f && x[1] == -1.0f && x[2] == 0.0f);
    /* user shape: the function is called and its index passed through */
    s = px_shape_user(user_box_support, he);
    i = px_shape_support(&s, d1, x);
    PX_CHECK(i == 102 && x[0] == -1.0f && x[1] == 2.0f && x[2] == -3.0f);
    s.radius = 2.0f;
    i = px_shape_support(&s, dx, x);
    PX_CHECK(i == 107 && x[0] == 3.0f && x[1] == 2.0f && x[2] == 3.0f);
    return 0;
}

/* A zero direction gives a point of the core (radius not added), never NaN. */
static int support_zero_direction(void)
{
    const float a[3] = { -1, 0.5f, 2 }, b[3] = { 3, -1, 0.25f }, c[3] = { 0.5f, 4, -1 }, he[3] = { 0.5f, 2, 1.25f };
    const float pts[9] = { 1, 2, 3, -1, 0, 2, 4, 4, 4 };
    px_shape shapes[] = {
        px_shape_point(),           px_shape_sphere(1.5f),  px_shape_segment(a, b),
        px_shape_triangle(a, b, c), px_shape_capsule(2, 1), px_shape_box(he),
        px_shape_cylinder(1, 2),    px_shape_cone(1.5f, 1), px_shape_hull(pts, 3),
    };
    const float zero[3] = { 0, 0, 0 }, nzero[3] = { -0.0f, -0.0f, -0.0f };
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i)
    {
        for (int rr = 0; rr < 2; ++rr)
        {
            px_shape s = shapes[i];
            s.radius += rr ? 0.5f : 0.0f;
            for (int z = 0; z < 2; ++z)
            {
                float x[3] = { NAN, NAN, NAN };
                int32_t idx = px_shape_support(&s, z ? nzero : zero, x);
                PX_CHECK(finite3(x));
                if (s.type == PX_SHAPE_HULL)
                {
                    PX_CHECK(idx >= 0 && idx < 3);
                    PX_CHECK(x[0] == pts[3 * idx] && x[1] == pts[3 * idx + 1] && x[2] == pts[3 * idx + 2]);
                }
                else
                {
                    double cd = core_distance(&s, x);
                    if (!(cd <= 1e-6))
                    {
                        fprintf(stderr, "zero direction: type %d radius %g gives {%g, %g, %g}, %.3g from the core\n",
                                (int)s.type, (double)s.radius, (double)x[0], (double)x[1], (double)x[2], cd);
                        return 1;
                    }
                }
            }
        }
    }
    return 0;
}

/* "direction (local frame, not necessarily unit length)": the support may not depend on |d|. Directions
 * from 1e-30 to 1e30 (all finite, normal floats) must give the support of d / |d|. */
static int support_direction_scale(void)
{
    const float he[3] = { 0.5f, 2, 1.25f };
    px_shape shapes[] = { px_shape_sphere(1.5f), px_shape_capsule(2, 0.5f), px_shape_cylinder(1, 2),
                          px_shape_cone(1.5f, 1), px_shape_box(he) };
    shapes[4].radius = 0.25f;
    const double scales[] = { 1e-30, 1e-25, 1e-20, 1e-15, 1e-10, 1e-5, 1, 1e5, 1e10, 1e15, 1e20, 1e25, 1e30 };
    const double dirs[][3] = { { 0.6, 0, 0.8 }, { 0.48, 0.6, 0.64 }, { 1, 0, 0 }, { 0, -1, 0 }, { -0.36, 0.48, 0.8 } };
    int failed = 0;
    int fail_at[5][13];
    memset(fail_at, 0, sizeof(fail_at));
    for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i)
    {
        for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); ++k)
        {
            float unit[3] = { (float)dirs[k][0], (float)dirs[k][1], (float)dirs[k][2] }, x0[3];
            px_shape_support(&shapes[i], unit, x0);
            for (size_t j = 0; j < sizeof(scales) / sizeof(scales[0]); ++j)
            {
                float d[3] = { (float)(dirs[k][0] * scales[j]), (float)(dirs[k][1] * scales[j]),
                               (float)(dirs[k][2] * scales[j]) };
                float x[3] = { NAN, NAN, NAN };
                px_shape_support(&shapes[i], d, x);
                double err = fabs((double)x[0] - x0[0]) + fabs((double)x[1] - x0[1]) + fabs((double)x[2] - x0[2]);
                if (!(err <= 1e-5))
                {
                    fail_at[i][j]++;
                    if (failed < 6)
                    {
                        fprintf(stderr,
                                "type %d radius %g: direction {%a, %a, %a} (|d| = %g) gives {%.9g, %.9g, %.9g}, unit "
                                "direction gives {%.9g, %.9g, %.9g}\n",
                                (int)shapes[i].type, (double)shapes[i].radius, (double)d[0], (double)d[1], (double)d[2],
                                scales[j], (double)x[0], (double)x[1], (double)x[2], (double)x0[0], (double)x0[1],
                                (double)x0[2]);
                    }
                    ++failed;
                }
            }
        }
    }
    if (failed > 0)
    {
        fprintf(stderr,
                "support direction scale: %d (shape, direction, scale) triples differ from the unit direction\n",
                failed);
        for (size_t i = 0; i < sizeof(shapes) / sizeof(shapes[0]); ++i)
        {
            fprintf(stderr, "  type %d radius %g fails at |d| =", (int)shapes[i].type, (double)shapes[i].radius);
            for (size_t j = 0; j < sizeof(scales) / sizeof(scales[0]); ++j)
            {
                if (fail_at[i][j] > 0)
                {
                    fprintf(stderr, " %g (%d of 5 directions)", scales[j], fail_at[i][j]);
                }
            }
            fprintf(stderr, "\n");
        }
        return 1;
    }
    return 0;
}

static int support_invalid_input(void)
{
    float x[3];
    const float d[3] = { 1, 2, 3 };
    PX_CHECK(px_shape_support(NULL, d, x) == PX_NULL_INDEX);
    const float he[3] = { 1, 1, 1 };
    px_shape s = px_shape_box(he);
    const float dn[3] = { NAN, 0, 0 }, di[3] = { 0, INFINITY, 0 }, dm[3] = { 0, 0, -INFINITY };
    PX_CHECK(px_shape_support(&s, dn, x) == PX_NULL_INDEX);
    PX_CHECK(px_shape_support(&s, di, x) == PX_NULL_INDEX);
    PX_CHECK(px_shape_support(&s, dm, x) == PX_NULL_INDEX);
    s.radius = -1.0f;
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    s = px_shape_box(he);
    s.box.half_extents[1] = -0.5f;
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    s = px_shape_hull(NULL, 3);
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    const float pts[3] = { 1, 2, 3 };
    s = px_shape_hull(pts, 0);
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    s = px_shape_user(NULL, NULL);
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    s = px_shape_box(he);
    s.type = PX_SHAPE_TYPE_COUNT;
    PX_CHECK(px_shape_support(&s, d, x) == PX_NULL_INDEX);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Hull scan (SIMD paths) */

/* Reference: the returned index must be a maximiser of x . d (within the rounding of the dot products)
 * and the lowest index among the points bitwise equal to it. */
static int check_hull_index(const char* label, const float* pts, int n, const float* d, int32_t idx)
{
    double dd[3] = { (double)d[0], (double)d[1], (double)d[2] };
    double best = -INFINITY, mag = 0.0;
    for (int i = 0; i < n; ++i)
    {
        best = fmax(best, dot3d(pts + 3 * i, dd));
        mag = fmax(mag, fabs((double)pts[3 * i] * dd[0]) + fabs((double)pts[3 * i + 1] * dd[1]) +
                            fabs((double)pts[3 * i + 2] * dd[2]));
    }
    bool bad = !(idx >= 0 && idx < n);
    if (!bad)
    {
        double v = dot3d(pts + 3 * idx, dd);
        bad = !(v >= best - 4.0 * FLT_EPSILON * mag);
        for (int j = 0; j < idx && !bad; ++j)
        {
            bad = memcmp(pts + 3 * j, pts + 3 * idx, 3 * sizeof(float)) == 0;
        }
    }
    if (bad)
    {
        fprintf(stderr, "%s: hull of %d points, direction {%a, %a, %a}: index %d (max dot %.9g)\n", label, n,
                (double)d[0], (double)d[1], (double)d[2], idx, best);
        return 1;
    }
    return 0;
}

static float* alloc_points(int n)
{
    /* exactly n points on the heap, so that ASan sees any read past the end */
    return (float*)malloc(sizeof(float) * 3 * (size_t)n);
}

static int hull_scan_counts(void)
{
    px_rng r = px_rng_seeded(0x4b11);
    static const int big[] = { 41, 47, 48, 63, 64, 65, 100, 127, 1000, 1001, 1003, 1007 };
    int counts[40 + sizeof(big) / sizeof(big[0])];
    int nc = 0;
    for (int n = 1; n <= 40; ++n)
    {
        counts[nc++] = n;
    }
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); ++i)
    {
        counts[nc++] = big[i];
    }
    for (int ci = 0; ci < nc; ++ci)
    {
        int n = counts[ci];
        float* pts = alloc_points(n);
        for (int i = 0; i < 3 * n; ++i)
        {
            pts[i] = (float)px_rng_range(&r, -10, 10);
        }
        px_shape s = px_shape_hull(pts, n);
        PX_CHECK_STATUS(px_shape_validate(&s), PX_OK);
        char label[48];
        snprintf(label, sizeof(label), "hull count %d", n);
        for (int k = 0; k < 200; ++k)
        {
            double u[3];
            px_rng_unit_vector(&r, u);
            const float d[3] = { (float)u[0], (float)u[1], (float)u[2] };
            float x[3];
            int32_t idx = px_shape_support(&s, d, x);
            if (check_hull_index(label, pts, n, d, idx) || check_support(label, &s, d))
            {
                free(pts);
                return 1;
            }
        }
        /* the maximiser at every position in turn (each SIMD lane and the scalar tail) */
        for (int pos = 0; pos < n; ++pos)
        {
            float saved[3] = { pts[3 * pos], pts[3 * pos + 1], pts[3 * pos + 2] };
            pts[3 * pos] = 100.0f;
            pts[3 * pos + 1] = 100.0f;
            pts[3 * pos + 2] = 100.0f;
            const float d[3] = { 1, 1, 1 };
            float x[3];
            int32_t idx = px_shape_support(&s, d, x);
            if (idx != pos)
            {
                fprintf(stderr, "%s: the unique maximiser is point %d, got %d\n", label, pos, idx);
                free(pts);
                return 1;
            }
            pts[3 * pos] = saved[0];
            pts[3 * pos + 1] = saved[1];
            pts[3 * pos + 2] = saved[2];
        }
        /* an unaligned start (points + 1 float): same answers */
        if (n >= 2)
        {
            float* buf = (float*)malloc(sizeof(float) * (3 * (size_t)n + 1));
            memcpy(buf + 1, pts, sizeof(float) * 3 * (size_t)n);
            px_shape su = px_shape_hull(buf + 1, n);
            for (int k = 0; k < 20; ++k)
            {
                double u[3];
                px_rng_unit_vector(&r, u);
                const float d[3] = { (float)u[0], (float)u[1], (float)u[2] };
                float x1[3], x2[3];
                int32_t i1 = px_shape_support(&s, d, x1), i2 = px_shape_support(&su, d, x2);
                if (i1 != i2 || memcmp(x1, x2, sizeof(x1)) != 0)
                {
                    fprintf(stderr, "%s: unaligned points give index %d, aligned %d\n", label, i2, i1);
                    free(buf);
                    free(pts);
                    return 1;
                }
            }
            free(buf);
        }
        free(pts);
    }
    return 0;
}

/* Ties: the lowest index must win, for exact duplicates and for exact dot ties along axis directions. */
static int hull_scan_ties(void)
{
    int minimal_bad = 0;
    /* minimal case: 16 points (8-wide path), all at x = -1 except points 5 and 9 at x = 1; along +x the
     * lowest maximiser is 5 (point 5 sits in the upper half of the first 8-block, point 9 in the lower
     * half of the second) */
    {
        float pts[48];
        for (int i = 0; i < 16; ++i)
        {
            pts[3 * i] = (i == 5 || i == 9) ? 1.0f : -1.0f;
            pts[3 * i + 1] = (float)i;
            pts[3 * i + 2] = 0.5f * (float)i;
        }
        px_shape s = px_shape_hull(pts, 16);
        const float dx[3] = { 1, 0, 0 };
        float x[3];
        int32_t idx = px_shape_support(&s, dx, x);
        if (idx != 5)
        {
            fprintf(stderr, "16 points, maximisers 5 and 9 (exact tie along +x): index %d, expected 5\n", idx);
            minimal_bad = 1;
        }
    }
    px_rng r = px_rng_seeded(0x71e5);
    for (int n = 2; n <= 72; ++n)
    {
        float* pts = alloc_points(n);
        for (int trial = 0; trial < 30; ++trial)
        {
            for (int i = 0; i < 3 * n; ++i)
            {
                pts[i] = (float)px_rng_range(&r, -10, 10);
            }
            /* duplicates of one point at 2..4 random positions, made the maximiser along a random d */
            double u[3];
            px_rng_unit_vector(&r, u);
            const float d[3] = { (float)u[0], (float)u[1], (float)u[2] };
            const float top[3] = { 20.0f * d[0], 20.0f * d[1], 20.0f * d[2] };
            int copies = 2 + px_rng_int(&r, 3), lowest = n;
            for (int c = 0; c < copies; ++c)
            {
                int pos = px_rng_int(&r, n);
                memcpy(pts + 3 * pos, top, sizeof(top));
                lowest = pos < lowest ? pos : lowest;
            }
            px_shape s = px_shape_hull(pts, n);
            float x[3];
            int32_t idx = px_shape_support(&s, d, x);
            if (idx != lowest)
            {
                fprintf(stderr, "ties: %d points, %d copies of the maximiser, lowest at %d, got %d\n", n, copies,
                        lowest, idx);
                free(pts);
                return 1;
            }
            /* exact ties along +x: several points share the largest x, differ in y and z */
            int ax = px_rng_int(&r, 3);
            float dax[3] = { 0, 0, 0 };
            dax[ax] = px_rng_unit(&r) < 0.5 ? 1.0f : -1.0f;
            lowest = n;
            for (int c = 0; c < copies; ++c)
            {
                int pos = px_rng_int(&r, n);
                pts[3 * pos + ax] = 50.0f * dax[ax];
                lowest = pos < lowest ? pos : lowest;
            }
            idx = px_shape_support(&s, dax, x);
            if (idx != lowest)
            {
                fprintf(stderr, "axis ties: %d points, axis %d, lowest maximiser %d, got %d\n", n, ax, lowest, idx);
                free(pts);
                return 1;
            }
        }
        /* all points equal: index 0 */
        for (int i = 0; i < n; ++i)
        {
            pts[3 * i] = 1.0f;
            pts[3 * i + 1] = -2.0f;
            pts[3 * i + 2] = 3.0f;
        }
        px_shape s = px_shape_hull(pts, n);
        const float d[3] = { 0.3f, -0.4f, 0.5f };
        float x[3];
        PX_CHECK(px_shape_support(&s, d, x) == 0);
        /* +0 and -0 tie: all points have x = -1 except two with x = -0 and +0 */
        for (int i = 0; i < n; ++i)
        {
            pts[3 * i] = -1.0f;
        }
        int p1 = n / 3, p2 = (2 * n) / 3;
        if (p1 != p2)
        {
            pts[3 * p2] = 0.0f;
            pts[3 * p1] = -0.0f;
            const float dx[3] = { 1, 0, 0 };
            int32_t idx = px_shape_support(&s, dx, x);
            if (idx != p1)
            {
                fprintf(stderr, "signed zero tie: %d points, -0 at %d, +0 at %d, got %d\n", n, p1, p2, idx);
                free(pts);
                return 1;
            }
        }
        free(pts);
    }
    return minimal_bad;
}

/* One NaN or Inf point anywhere (first, middle, tail, every position for small counts): PX_NULL_INDEX,
 * in every direction, including directions whose zero components meet the bad coordinate. */
static int hull_scan_non_finite(void)
{
    px_rng r = px_rng_seeded(0x4a4);
    static const int big[] = { 41, 64, 100, 1000, 1003 };
    const float bad_values[3] = { NAN, INFINITY, -INFINITY };
    int failed = 0;
    for (int ci = 1; ci <= 40 + (int)(sizeof(big) / sizeof(big[0])); ++ci)
    {
        int n = ci <= 40 ? ci : big[ci - 41];
        float* pts = alloc_points(n);
        for (int i = 0; i < 3 * n; ++i)
        {
            pts[i] = (float)px_rng_range(&r, -10, 10);
        }
        px_shape s = px_shape_hull(pts, n);
        int positions[64], np = 0;
        if (n <= 40)
        {
            for (int i = 0; i < n; ++i)
            {
                positions[np++] = i;
            }
        }
        else
        {
            const int pos[] = { 0, 1, 7, 8, n / 2, n - 9, n - 8, n - 2, n - 1 };
            for (size_t i = 0; i < sizeof(pos) / sizeof(pos[0]); ++i)
            {
                positions[np++] = pos[i];
            }
        }
        for (int pi = 0; pi < np; ++pi)
        {
            int pos = positions[pi];
            for (int bv = 0; bv < 3; ++bv)
            {
                for (int coord = 0; coord < 3; ++coord)
                {
                    float saved = pts[3 * pos + coord];
                    pts[3 * pos + coord] = bad_values[bv];
                    float dirs[4][3] = { { 0.3f, -0.5f, 0.8f }, { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, -1 } };
                    for (int k = 0; k < 4; ++k)
                    {
                        float x[3];
                        int32_t idx = px_shape_support(&s, dirs[k], x);
                        if (idx != PX_NULL_INDEX)
                        {
                            if (failed < 10)
                            {
                                fprintf(
                                    stderr,
                                    "hull of %d points, point %d coordinate %d = %f, direction {%g, %g, %g}: index %d, "
                                    "expected PX_NULL_INDEX\n",
                                    n, pos, coord, (double)bad_values[bv], (double)dirs[k][0], (double)dirs[k][1],
                                    (double)dirs[k][2], idx);
                            }
                            ++failed;
                        }
                    }
                    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
                    pts[3 * pos + coord] = saved;
                }
            }
        }
        PX_CHECK_STATUS(px_shape_validate(&s), PX_OK);
        free(pts);
    }
    if (failed > 0)
    {
        fprintf(stderr, "non-finite hull points: %d queries did not return PX_NULL_INDEX\n", failed);
        return 1;
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */

static int validate_statuses(void)
{
    const float he[3] = { 1, 2, 3 }, a[3] = { 0, 0, 0 }, b[3] = { 1, 1, 1 }, c[3] = { 0, 1, 0 };
    const float pts[6] = { 0, 0, 0, 1, 2, 3 };
    px_shape good[] = { px_shape_point(),          px_shape_sphere(1),
                        px_shape_segment(a, b),    px_shape_triangle(a, b, c),
                        px_shape_capsule(1, 0.5f), px_shape_box(he),
                        px_shape_cylinder(1, 2),   px_shape_cone(1, 2),
                        px_shape_hull(pts, 2),     px_shape_user(user_box_support, he),
                        px_shape_sphere(0),        px_shape_capsule(0, 0) };
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); ++i)
    {
        PX_CHECK_STATUS(px_shape_validate(&good[i]), PX_OK);
    }
    PX_CHECK_STATUS(px_shape_validate(NULL), PX_ERR_INVALID_ARGUMENT);

    px_shape s;
    /* radius: negative -> invalid, NaN/Inf -> non-finite, for every type */
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); ++i)
    {
        s = good[i];
        s.radius = -0.5f;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
        s.radius = -FLT_MIN;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
        s.radius = NAN;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
        s.radius = INFINITY;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    }
    /* sizes */
    s = px_shape_capsule(-1, 0.5f);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    s = px_shape_capsule(NAN, 0.5f);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_capsule(INFINITY, 0.5f);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    for (int i = 0; i < 3; ++i)
    {
        s = px_shape_box(he);
        s.box.half_extents[i] = -1e-3f;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
        s.box.half_extents[i] = NAN;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
        s.box.half_extents[i] = -INFINITY;
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    }
    s = px_shape_box((const float[3]){ 0, 0, 0 }); /* a zero box is a point: valid */
    PX_CHECK_STATUS(px_shape_validate(&s), PX_OK);
    for (int t = 0; t < 2; ++t)
    {
        s = t ? px_shape_cone(-1, 1) : px_shape_cylinder(-1, 1);
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
        s = t ? px_shape_cone(1, -1) : px_shape_cylinder(1, -1);
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
        s = t ? px_shape_cone(NAN, 1) : px_shape_cylinder(NAN, 1);
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
        s = t ? px_shape_cone(1, INFINITY) : px_shape_cylinder(1, INFINITY);
        PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    }
    /* points */
    const float nanp[3] = { 0, NAN, 0 }, infp[3] = { INFINITY, 0, 0 };
    s = px_shape_segment(a, nanp);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_segment(infp, b);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_triangle(a, b, nanp);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_triangle(infp, b, c);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_triangle(a, nanp, c);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    /* hulls */
    s = px_shape_hull(NULL, 2);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    s = px_shape_hull(pts, 0);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    s = px_shape_hull(pts, -1);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    s = px_shape_hull(pts, INT32_MIN);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    const float badpts[9] = { 0, 0, 0, 1, 2, 3, 4, 5, NAN };
    s = px_shape_hull(badpts, 3);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_NON_FINITE);
    s = px_shape_hull(badpts, 2); /* the bad point is beyond count */
    PX_CHECK_STATUS(px_shape_validate(&s), PX_OK);
    /* user */
    s = px_shape_user(NULL, he);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    /* bad type */
    s = px_shape_box(he);
    s.type = PX_SHAPE_TYPE_COUNT;
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    s.type = (px_shape_type)99;
    PX_CHECK_STATUS(px_shape_validate(&s), PX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* World AABB */

typedef struct shp_pose
{
    double r[3][3]; /* rotation of the normalized quaternion, in double */
    double t[3];
    px_transform pose;
} shp_pose;

static void random_pose(px_rng* r, double offset, double drift, shp_pose* p)
{
    double q[4];
    px_rng_quat(r, q);
    for (int i = 0; i < 4; ++i)
    {
        p->pose.q[i] = (float)(q[i] * drift);
    }
    for (int i = 0; i < 3; ++i)
    {
        p->pose.p[i] = (float)(offset + px_rng_range(r, -10, 10));
        p->t[i] = (double)p->pose.p[i];
    }
    double x = p->pose.q[0], y = p->pose.q[1], z = p->pose.q[2], w = p->pose.q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n;
    y /= n;
    z /= n;
    w /= n;
    p->r[0][0] = 1 - 2 * (y * y + z * z);
    p->r[0][1] = 2 * (x * y - w * z);
    p->r[0][2] = 2 * (x * z + w * y);
    p->r[1][0] = 2 * (x * y + w * z);
    p->r[1][1] = 1 - 2 * (x * x + z * z);
    p->r[1][2] = 2 * (y * z - w * x);
    p->r[2][0] = 2 * (x * z - w * y);
    p->r[2][1] = 2 * (y * z + w * x);
    p->r[2][2] = 1 - 2 * (x * x + y * y);
}

static void pose_point(const shp_pose* p, const double* x, double* out)
{
    for (int i = 0; i < 3; ++i)
    {
        out[i] = p->r[i][0] * x[0] + p->r[i][1] * x[1] + p->r[i][2] * x[2] + p->t[i];
    }
}

/* Exact world box of the posed core (radius excluded), and for cylinders and cones the documented loose
 * bound (the world box of the rotated local box). */
static void exact_world_box(const px_shape* s, const shp_pose* p, double lo[3], double hi[3], double loose_lo[3],
                            double loose_hi[3])
{
    for (int i = 0; i < 3; ++i)
    {
        lo[i] = INFINITY;
        hi[i] = -INFINITY;
    }
    double pts[1024][3];
    int n = 0;
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        pts[n][0] = pts[n][1] = pts[n][2] = 0.0;
        ++n;
        break;
    case PX_SHAPE_SEGMENT:
        for (int i = 0; i < 3; ++i)
        {
            pts[0][i] = s->segment.a[i];
            pts[1][i] = s->segment.b[i];
        }
        n = 2;
        break;
    case PX_SHAPE_TRIANGLE:
        for (int i = 0; i < 3; ++i)
        {
            pts[0][i] = s->triangle.a[i];
            pts[1][i] = s->triangle.b[i];
            pts[2][i] = s->triangle.c[i];
        }
        n = 3;
        break;
    case PX_SHAPE_CAPSULE:
        pts[0][0] = pts[0][2] = pts[1][0] = pts[1][2] = 0.0;
        pts[0][1] = -(double)s->capsule.half_height;
        pts[1][1] = (double)s->capsule.half_height;
        n = 2;
        break;
    case PX_SHAPE_BOX:
        for (int k = 0; k < 8; ++k, ++n)
        {
            for (int i = 0; i < 3; ++i)
            {
                pts[n][i] = ((k >> i) & 1 ? 1.0 : -1.0) * (double)s->box.half_extents[i];
            }
        }
        break;
    case PX_SHAPE_HULL:
        for (int k = 0; k < s->hull.count && k < 1024; ++k, ++n)
        {
            for (int i = 0; i < 3; ++i)
            {
                pts[n][i] = (double)s->hull.points[3 * k + i];
            }
        }
        break;
    default:
        break;
    }
    for (int k = 0; k < n; ++k)
    {
        double w[3];
        pose_point(p, pts[k], w);
        for (int i = 0; i < 3; ++i)
        {
            lo[i] = fmin(lo[i], w[i]);
            hi[i] = fmax(hi[i], w[i]);
        }
    }
    if (s->type == PX_SHAPE_CYLINDER || s->type == PX_SHAPE_CONE)
    {
        double h = s->cylinder.half_height, rad = s->cylinder.radius;
        for (int i = 0; i < 3; ++i)
        {
            double ay = p->r[i][1];                             /* world axis i . local y */
            double disc = rad * sqrt(fmax(0.0, 1.0 - ay * ay)); /* half extent of a circle of radius rad */
            double top = h * ay, bottom = -h * ay;
            if (s->type == PX_SHAPE_CYLINDER)
            {
                lo[i] = fmin(top, bottom) - disc + p->t[i];
                hi[i] = fmax(top, bottom) + disc + p->t[i];
            }
            else
            {
                lo[i] = fmin(top, bottom - disc) + p->t[i];
                hi[i] = fmax(top, bottom + disc) + p->t[i];
            }
            double e = fabs(p->r[i][0]) * rad + fabs(p->r[i][1]) * h + fabs(p->r[i][2]) * rad;
            loose_lo[i] = p->t[i] - e;
            loose_hi[i] = p->t[i] + e;
        }
    }
    else
    {
        for (int i = 0; i < 3; ++i)
        {
            loose_lo[i] = lo[i];
            loose_hi[i] = hi[i];
        }
    }
}

static int aabb_random_poses(void)
{
    px_rng r = px_rng_seeded(0xab0);
    const float a[3] = { -1, 0.5f, 2 }, b[3] = { 3, -1, 0.25f }, c[3] = { 0.5f, 4, -1 }, he[3] = { 0.5f, 2, 1.25f };
    enum
    {
        NH = 57
    };
    static float hull_pts[3 * NH];
    for (int i = 0; i < 3 * NH; ++i)
    {
        hull_pts[i] = (float)px_rng_range(&r, -3, 3);
    }
    px_shape shapes[] = {
        px_shape_point(),
        px_shape_sphere(1.5f),
        px_shape_segment(a, b),
        px_shape_triangle(a, b, c),
        px_shape_capsule(2, 1),
        px_shape_box(he),
        px_shape_cylinder(1, 2),
        px_shape_cone(1.5f, 1),
        px_shape_hull(hull_pts, NH),
        px_shape_cylinder(3, 0.25f),
        px_shape_cone(0.25f, 3),
    };
    int failed = 0;
    int per_type[PX_SHAPE_TYPE_COUNT][2];
    memset(per_type, 0, sizeof(per_type));
    for (size_t si = 0; si < sizeof(shapes) / sizeof(shapes[0]); ++si)
    {
        for (int rr = 0; rr < 2; ++rr)
        {
            px_shape s = shapes[si];
            s.radius += rr ? 0.625f : 0.0f;
            double size = core_size(&s);
            for (int k = 0; k < 200; ++k)
            {
                shp_pose p;
                double offset = (k % 4 == 3) ? 1000.0 : 0.0;
                random_pose(&r, offset, (k % 5 == 4) ? 3.0 : 1.0, &p);
                if (k == 0)
                {
                    /* identity rotation: tight for every type */
                    p.pose.q[0] = p.pose.q[1] = p.pose.q[2] = 0.0f;
                    p.pose.q[3] = 1.0f;
                    for (int i = 0; i < 3; ++i)
                        for (int j = 0; j < 3; ++j)
                        {
                            p.r[i][j] = i == j ? 1.0 : 0.0;
                        }
                }
                px_aabb box;
                PX_CHECK_STATUS(px_shape_aabb(&s, &p.pose, &box), PX_OK);
                double lo[3], hi[3], llo[3], lhi[3];
                exact_world_box(&s, &p, lo, hi, llo, lhi);
                double cmax = fabs(p.t[0]) + fabs(p.t[1]) + fabs(p.t[2]) + size;
                double tol_round = 8.0 * FLT_EPSILON * cmax; /* containment: rounding only */
                double tol_tight = 1e-5 * size + tol_round;
                bool rotated = k != 0;
                bool loose = rotated && (s.type == PX_SHAPE_CYLINDER || s.type == PX_SHAPE_CONE);
                for (int i = 0; i < 3; ++i)
                {
                    double elo = lo[i] - (double)s.radius, ehi = hi[i] + (double)s.radius;
                    double blo = (loose ? llo[i] : lo[i]) - (double)s.radius;
                    double bhi = (loose ? lhi[i] : hi[i]) + (double)s.radius;
                    bool contains = (double)box.min[i] <= elo + tol_round && (double)box.max[i] >= ehi - tol_round;
                    bool tight = (double)box.min[i] >= blo - tol_tight && (double)box.max[i] <= bhi + tol_tight;
                    if (!contains || !tight)
                    {
                        per_type[s.type][contains ? 1 : 0]++;
                        if (failed < 8)
                        {
                            fprintf(stderr,
                                    "aabb type %d radius %g pose %d axis %d: [%.9g, %.9g], shape spans [%.9g, %.9g]%s "
                                    "(%s)\n",
                                    (int)s.type, (double)s.radius, k, i, (double)box.min[i], (double)box.max[i], elo,
                                    ehi, loose ? ", bound of the rotated local box" : "",
                                    !contains ? "does not contain the shape" : "not tight");
                            fprintf(stderr, "  pose q {%a, %a, %a, %a} p {%a, %a, %a}\n", (double)p.pose.q[0],
                                    (double)p.pose.q[1], (double)p.pose.q[2], (double)p.pose.q[3], (double)p.pose.p[0],
                                    (double)p.pose.p[1], (double)p.pose.p[2]);
                        }
                        ++failed;
                    }
                }
            }
        }
    }
    /* a user shape is bounded through its support function: a user box equals the box */
    {
        px_shape ub = px_shape_user(user_box_support, he), bb = px_shape_box(he);
        ub.radius = bb.radius = 0.25f;
        for (int k = 0; k < 100; ++k)
        {
            shp_pose p;
            random_pose(&r, 0.0, 1.0, &p);
            px_aabb x1, x2;
            PX_CHECK_STATUS(px_shape_aabb(&ub, &p.pose, &x1), PX_OK);
            PX_CHECK_STATUS(px_shape_aabb(&bb, &p.pose, &x2), PX_OK);
            PX_CHECK_NEAR3(x1.min, x2.min, 1e-5);
            PX_CHECK_NEAR3(x1.max, x2.max, 1e-5);
        }
    }
    if (failed > 0)
    {
        fprintf(stderr, "aabb: %d (shape, pose, axis) bounds fail; by type (not containing / not tight):", failed);
        for (int t = 0; t < PX_SHAPE_TYPE_COUNT; ++t)
        {
            if (per_type[t][0] + per_type[t][1] > 0)
            {
                fprintf(stderr, " type %d: %d / %d;", t, per_type[t][0], per_type[t][1]);
            }
        }
        fprintf(stderr, "\n");
        return 1;
    }
    return 0;
}

static int aabb_errors_zero_dest(void)
{
    const float he[3] = { 1, 2, 3 };
    px_shape s = px_shape_box(he);
    px_transform t = PX_TRANSFORM_IDENTITY_INIT;
    px_aabb zero, box;
    memset(&zero, 0, sizeof(zero));
#define SHP_AABB_ERR(shape, pose, status)                                                                              \
    do                                                                                                                 \
    {                                                                                                                  \
        memset(&box, 0xab, sizeof(box));                                                                               \
        PX_CHECK_STATUS(px_shape_aabb((shape), (pose), &box), status);                                                 \
        PX_CHECK(memcmp(&box, &zero, sizeof(box)) == 0);                                                               \
    } while (0)
    t.p[1] = NAN;
    SHP_AABB_ERR(&s, &t, PX_ERR_NON_FINITE);
    t.p[1] = INFINITY;
    SHP_AABB_ERR(&s, &t, PX_ERR_NON_FINITE);
    t.p[1] = 0.0f;
    t.q[0] = NAN;
    SHP_AABB_ERR(&s, &t, PX_ERR_NON_FINITE);
    t.q[0] = -INFINITY;
    SHP_AABB_ERR(&s, &t, PX_ERR_NON_FINITE);
    t.q[0] = t.q[1] = t.q[2] = t.q[3] = 0.0f;
    SHP_AABB_ERR(&s, &t, PX_ERR_DEGENERATE_INPUT);
    SHP_AABB_ERR(&s, NULL, PX_ERR_INVALID_ARGUMENT);
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    SHP_AABB_ERR(NULL, &id, PX_ERR_INVALID_ARGUMENT);
    s.radius = -1.0f;
    SHP_AABB_ERR(&s, &id, PX_ERR_INVALID_ARGUMENT);
    s.radius = NAN;
    SHP_AABB_ERR(&s, &id, PX_ERR_NON_FINITE);
    s = px_shape_box(he);
    s.box.half_extents[2] = -1.0f;
    SHP_AABB_ERR(&s, &id, PX_ERR_INVALID_ARGUMENT);
    const float badpts[9] = { 0, 0, 0, 1, NAN, 3, 4, 5, 6 };
    s = px_shape_hull(badpts, 3);
    SHP_AABB_ERR(&s, &id, PX_ERR_NON_FINITE);
    const float infpts[6] = { 0, 0, 0, 1, 2, -INFINITY };
    s = px_shape_hull(infpts, 2);
    SHP_AABB_ERR(&s, &id, PX_ERR_NON_FINITE);
    s = px_shape_hull(NULL, 2);
    SHP_AABB_ERR(&s, &id, PX_ERR_INVALID_ARGUMENT);
    s = px_shape_user(NULL, NULL);
    SHP_AABB_ERR(&s, &id, PX_ERR_INVALID_ARGUMENT);
    s = px_shape_user(user_nan_support, NULL);
    SHP_AABB_ERR(&s, &id, PX_ERR_NON_FINITE);
    s = px_shape_sphere(1);
    s.type = PX_SHAPE_TYPE_COUNT;
    SHP_AABB_ERR(&s, &id, PX_ERR_INVALID_ARGUMENT);
    /* a finite shape whose world box overflows */
    s = px_shape_sphere(3e38f);
    t = id;
    t.p[0] = 3e38f;
    SHP_AABB_ERR(&s, &t, PX_ERR_NON_FINITE);
#undef SHP_AABB_ERR
    /* a drifted quaternion is normalized: same box as the unit one */
    s = px_shape_box(he);
    px_transform u = PX_TRANSFORM_IDENTITY_INIT, v;
    u.q[0] = 0.6f;
    u.q[3] = 0.8f;
    u.p[2] = 5.0f;
    v = u;
    for (int i = 0; i < 4; ++i)
    {
        v.q[i] *= 7.0f;
    }
    px_aabb b1, b2;
    PX_CHECK_STATUS(px_shape_aabb(&s, &u, &b1), PX_OK);
    PX_CHECK_STATUS(px_shape_aabb(&s, &v, &b2), PX_OK);
    PX_CHECK_NEAR3(b1.min, b2.min, 1e-5);
    PX_CHECK_NEAR3(b1.max, b2.max, 1e-5);
    return 0;
}

int test_shapes(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(constructors);
    PX_RUN_SUBTEST(support_analytic_types);
    PX_RUN_SUBTEST(support_exact_points);
    PX_RUN_SUBTEST(support_zero_direction);
    PX_RUN_SUBTEST(support_direction_scale);
    PX_RUN_SUBTEST(support_invalid_input);
    PX_RUN_SUBTEST(hull_scan_counts);
    PX_RUN_SUBTEST(hull_scan_ties);
    PX_RUN_SUBTEST(hull_scan_non_finite);
    PX_RUN_SUBTEST(validate_statuses);
    PX_RUN_SUBTEST(aabb_random_poses);
    PX_RUN_SUBTEST(aabb_errors_zero_dest);
    PX_SUITE_END;
}
