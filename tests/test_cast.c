/* Ray casts and shape casts (cast.h) against independent double-precision oracles.
 *
 * Rays: for each shape kind, 10^4 seeded random rays (random poses, offsets up to 1e4, direction lengths
 * 0.25..4, max_t infinite, finite or zero) are compared with the exact interval of the line inside the
 * shape, computed in double in the shape's frame: closed forms for spheres, capsules, boxes, cylinders and
 * rounded boxes (a union of boxes and capsules), a breakpoint scan for cones, halfspace clipping for
 * polytopes (box and tetrahedron hulls, a user octahedron), Moller-Trumbore for triangles. Each ray is
 * checked against the shape grown and shrunk by a band delta (Jolt's tolerance band): a hit needs the
 * grown shape hit, with t between the grown and the shrunk entries; a miss needs the shrunk shape
 * missed; an origin inside the shrunk shape must give t = 0 with a zero normal. A hit's normal must be
 * unit, face the ray and be a supporting-plane normal at the hit point (support function check). The
 * strict comparison (hit/miss equal to the exact shape and |t - t_exact| <= 1e-4 max(t, S)) may fail only
 * inside the band, on at most 0.5% of the rays; hit rates are guarded to stay informative. Then: origins
 * before / on / inside / after the surface, forward and reversed, with the answers spelled out; origins
 * 1e2..1e4 sizes away in the shape's frame; recasting with max_t = the t found (a hit exactly at max_t
 * counts); rays tangent to curved surfaces (normals must still face the ray); slab-plane and denormal
 * direction edge cases (KNOWN_FAILURES #60/#61); flat and degenerate cores; bad input.
 *   delta: closed forms 1e-6 S, GJK shapes 2e-5 S (twice the cast band of 1e-5 S), plus 64 FLT_EPSILON
 *   times the size of the local coordinates.
 *
 * Shape casts: analytic times of impact (sphere-sphere, sphere-box through the rounded-box oracle,
 * box-box face-on, crossing and parallel capsules), random hull pairs against bisection on
 * px_gjk_distance_world (the distance along a sweep is convex in the fraction), parallel sliding, initial
 * overlap, misses, bad input, and the KNOWN_FAILURES.md 2.5 regressions (Bullet #596, Jolt #2049,
 * Jolt PR #217, Bullet #93). A shape-cast hit must not be past the first contact and the distance at the
 * reported fraction must be within the cast band tol = max(1e-5 S, 32 FLT_EPSILON C) (checked at 1.25 tol
 * plus GJK's own accuracy). Failures print the inputs in %a. Seeds: PX_TEST_SEED overrides. */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "support/dquat.h"
#include "support/rng.h"
#include "test.h"

#define CAST_PI 3.14159265358979323846
#define RAYS_PER_SHAPE 10000

/* ----------------------------------------------------------------------------------------------------- */
/* Double vectors and poses */

static double d3_dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static double d3_norm(const double a[3])
{
    return sqrt(d3_dot(a, a));
}

static void d3_sub(const double a[3], const double b[3], double d[3])
{
    d[0] = a[0] - b[0];
    d[1] = a[1] - b[1];
    d[2] = a[2] - b[2];
}

static void d3_mad(const double a[3], double s, const double b[3], double d[3])
{
    d[0] = a[0] + s * b[0];
    d[1] = a[1] + s * b[1];
    d[2] = a[2] + s * b[2];
}

static void d3_cross(const double a[3], const double b[3], double d[3])
{
    double r[3] = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    memcpy(d, r, sizeof(r));
}

/* Widen floats the library sees into the oracle's doubles. The loads are volatile because GCC 12.2's SLP
 * vectorizer (on at -O2) folds a vectorized double -> float -> double round trip into the identity: the
 * oracle then got the unrounded doubles the float poses were made from (seen in this file at -O3: oracle
 * and library disagreed by 5e-6 at coordinates 1e3). */
static void d3_from_f(const float* f, double d[3])
{
    const volatile float* vf = f;
    d[0] = vf[0];
    d[1] = vf[1];
    d[2] = vf[2];
}

static void d3_to_f(const double d[3], float* f)
{
    f[0] = (float)d[0];
    f[1] = (float)d[1];
    f[2] = (float)d[2];
}

typedef struct dpose
{
    double q[4]; /* x, y, z, w */
    double p[3];
} dpose;

static void dquat_rotate_inv(const double q[4], const double v[3], double d[3])
{
    double c[4] = { -q[0], -q[1], -q[2], q[3] };
    dquat_rotate(c, v, d);
}

static px_transform to_px(const dpose* t)
{
    px_transform r;
    for (int i = 0; i < 4; ++i)
    {
        r.q[i] = (float)t->q[i];
    }
    d3_to_f(t->p, r.p);
    return r;
}

/* The pose the library sees, in double (its float quaternion normalized in double). */
static dpose from_px(const px_transform* t)
{
    dpose r;
    double n = 0.0;
    const volatile float* vq = t->q; /* see d3_from_f */
    for (int i = 0; i < 4; ++i)
    {
        r.q[i] = vq[i];
        n += r.q[i] * r.q[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; ++i)
    {
        r.q[i] /= n;
    }
    d3_from_f(t->p, r.p);
    return r;
}

static void dpose_point(const dpose* t, const double v[3], double d[3])
{
    dquat_rotate(t->q, v, d);
    for (int i = 0; i < 3; ++i)
    {
        d[i] += t->p[i];
    }
}

static void dpose_point_inv(const dpose* t, const double w[3], double d[3])
{
    double r[3];
    d3_sub(w, t->p, r);
    dquat_rotate_inv(t->q, r, d);
}

static px_transform px_at(float x, float y, float z)
{
    px_transform t = PX_TRANSFORM_IDENTITY_INIT;
    t.p[0] = x;
    t.p[1] = y;
    t.p[2] = z;
    return t;
}

static bool finite3(const float* v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static void random_quat(px_rng* rng, double q[4])
{
    px_rng_quat(rng, q);
}

/* A random pose: uniform rotation; translation 0, +-10, +-1e3 or +-1e4 per component. */
static dpose random_pose(px_rng* rng)
{
    dpose t;
    random_quat(rng, t.q);
    int k = px_rng_int(rng, 10);
    double scale = k < 4 ? 0.0 : (k < 8 ? 10.0 : (k == 8 ? 1e3 : 1e4));
    for (int i = 0; i < 3; ++i)
    {
        t.p[i] = scale * px_rng_range(rng, -1.0, 1.0);
    }
    return t;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Line intervals: the set of t with o + t d inside a convex set, in double */

typedef struct ivl
{
    bool hit;
    double t0, t1;
} ivl;

static ivl iv_empty(void)
{
    ivl r = { false, 0.0, 0.0 };
    return r;
}

static ivl iv_all(void)
{
    ivl r = { true, -INFINITY, INFINITY };
    return r;
}

static ivl iv_make(double a, double b)
{
    ivl r = { true, fmin(a, b), fmax(a, b) };
    return r;
}

static ivl iv_and(ivl a, ivl b)
{
    if (!a.hit || !b.hit)
    {
        return iv_empty();
    }
    ivl r = { true, fmax(a.t0, b.t0), fmin(a.t1, b.t1) };
    return r.t0 <= r.t1 ? r : iv_empty();
}

/* Convex hull of two intervals: the interval of a convex union. */
static ivl iv_hull(ivl a, ivl b)
{
    if (!a.hit)
    {
        return b;
    }
    if (!b.hit)
    {
        return a;
    }
    ivl r = { true, fmin(a.t0, b.t0), fmax(a.t1, b.t1) };
    return r;
}

/* lo <= n . x <= hi (infinite bounds allowed). */
static ivl iv_slab(const double n[3], double lo, double hi, const double o[3], const double d[3])
{
    double no = d3_dot(n, o), nd = d3_dot(n, d);
    if (nd == 0.0)
    {
        return (no >= lo && no <= hi) ? iv_all() : iv_empty();
    }
    return iv_make((lo - no) / nd, (hi - no) / nd);
}

/* A t^2 + B t + C <= 0 with A > 0. */
static ivl iv_quad(double A, double B, double C)
{
    double disc = B * B - 4.0 * A * C;
    if (disc < 0.0)
    {
        return iv_empty();
    }
    double q = -0.5 * (B + copysign(sqrt(disc), B));
    if (q == 0.0)
    {
        return iv_make(0.0, 0.0);
    }
    return iv_make(q / A, C / q);
}

static ivl iv_ball(const double c[3], double r, const double o[3], const double d[3])
{
    if (r < 0.0)
    {
        return iv_empty();
    }
    double oc[3];
    d3_sub(o, c, oc);
    return iv_quad(d3_dot(d, d), 2.0 * d3_dot(oc, d), d3_dot(oc, oc) - r * r);
}

/* Infinite cylinder: distance to the line through a along unit e <= r. */
static ivl iv_cyl_inf(const double a[3], const double e[3], double r, const double o[3], const double d[3])
{
    double oa[3], op[3], dp[3];
    d3_sub(o, a, oa);
    d3_mad(oa, -d3_dot(oa, e), e, op);
    d3_mad(d, -d3_dot(d, e), e, dp);
    double A = d3_dot(dp, dp);
    if (A <= 1e-30 * d3_dot(d, d))
    {
        return d3_dot(op, op) <= r * r ? iv_all() : iv_empty();
    }
    return iv_quad(A, 2.0 * d3_dot(op, dp), d3_dot(op, op) - r * r);
}

/* Capsule around segment ab. */
static ivl iv_capsule(const double a[3], const double b[3], double r, const double o[3], const double d[3])
{
    if (r < 0.0)
    {
        return iv_empty();
    }
    double ab[3];
    d3_sub(b, a, ab);
    double len = d3_norm(ab);
    ivl res = iv_hull(iv_ball(a, r, o, d), iv_ball(b, r, o, d));
    if (len > 0.0)
    {
        double e[3] = { ab[0] / len, ab[1] / len, ab[2] / len };
        ivl side = iv_and(iv_cyl_inf(a, e, r, o, d), iv_slab(e, d3_dot(e, a), d3_dot(e, b), o, d));
        res = iv_hull(res, side);
    }
    return res;
}

static ivl iv_box(const double h[3], const double o[3], const double d[3])
{
    ivl r = iv_all();
    for (int i = 0; i < 3; ++i)
    {
        if (h[i] < 0.0)
        {
            return iv_empty();
        }
        double n[3] = { 0, 0, 0 };
        n[i] = 1.0;
        r = iv_and(r, iv_slab(n, -h[i], h[i], o, d));
    }
    return r;
}

/* Rounded box: three boxes each grown along one axis, and the twelve edge capsules. */
static ivl iv_rounded_box(const double h[3], double r, const double o[3], const double d[3])
{
    if (r <= 0.0)
    {
        double hh[3] = { h[0] + r, h[1] + r, h[2] + r };
        return iv_box(hh, o, d);
    }
    ivl res = iv_empty();
    for (int i = 0; i < 3; ++i)
    {
        double hh[3] = { h[0], h[1], h[2] };
        hh[i] += r;
        res = iv_hull(res, iv_box(hh, o, d));
        int j = (i + 1) % 3, k = (i + 2) % 3;
        for (int s = 0; s < 4; ++s)
        {
            double a[3], b[3];
            a[i] = -h[i];
            b[i] = h[i];
            a[j] = b[j] = (s & 1) ? h[j] : -h[j];
            a[k] = b[k] = (s & 2) ? h[k] : -h[k];
            res = iv_hull(res, iv_capsule(a, b, r, o, d));
        }
    }
    return res;
}

/* Cylinder along y: radius R, |y| <= h. */
static ivl iv_cylinder(double h, double R, const double o[3], const double d[3])
{
    if (h < 0.0 || R < 0.0)
    {
        return iv_empty();
    }
    const double zero[3] = { 0, 0, 0 }, ey[3] = { 0, 1, 0 };
    return iv_and(iv_cyl_inf(zero, ey, R, o, d), iv_slab(ey, -h, h, o, d));
}

/* Solid cone along y: apex at y = ya, base plane y = yb, radius k (ya - y) for yb <= y <= ya. Found by
 * scanning the pieces between the breakpoints (roots of the lateral quadric, the apex and base planes):
 * membership is constant on each piece. */
static bool cone_contains(double ya, double yb, double k, const double p[3])
{
    double Y = ya - p[1];
    return p[1] >= yb && Y >= 0.0 && p[0] * p[0] + p[2] * p[2] <= k * k * Y * Y;
}

static int cmp_double(const void* a, const void* b)
{
    double x = *(const double*)a, y = *(const double*)b;
    return x < y ? -1 : (x > y ? 1 : 0);
}

static ivl iv_cone(double ya, double yb, double k, const double o[3], const double d[3])
{
    if (!(ya > yb))
    {
        return iv_empty();
    }
    double bp[6];
    int n = 0;
    double Y0 = ya - o[1];
    double A = d[0] * d[0] + d[2] * d[2] - k * k * d[1] * d[1];
    double B = 2.0 * (o[0] * d[0] + o[2] * d[2] + k * k * Y0 * d[1]);
    double C = o[0] * o[0] + o[2] * o[2] - k * k * Y0 * Y0;
    if (A != 0.0)
    {
        double disc = B * B - 4.0 * A * C;
        if (disc >= 0.0)
        {
            double q = -0.5 * (B + copysign(sqrt(disc), B));
            if (q != 0.0)
            {
                bp[n++] = q / A;
                bp[n++] = C / q;
            }
            else
            {
                bp[n++] = 0.0;
            }
        }
    }
    else if (B != 0.0)
    {
        bp[n++] = -C / B;
    }
    if (d[1] != 0.0)
    {
        bp[n++] = (ya - o[1]) / d[1];
        bp[n++] = (yb - o[1]) / d[1];
    }
    if (n == 0)
    {
        double p[3] = { o[0], o[1], o[2] };
        return cone_contains(ya, yb, k, p) ? iv_all() : iv_empty();
    }
    qsort(bp, (size_t)n, sizeof(double), cmp_double);
    ivl res = iv_empty();
    for (int i = 0; i <= n; ++i)
    {
        double lo = i == 0 ? bp[0] - 1.0 - fabs(bp[0]) : bp[i - 1];
        double hi = i == n ? bp[n - 1] + 1.0 + fabs(bp[n - 1]) : bp[i];
        if (!(hi > lo))
        {
            continue;
        }
        double p[3];
        d3_mad(o, 0.5 * (lo + hi), d, p);
        if (cone_contains(ya, yb, k, p))
        {
            res = iv_hull(res, iv_make(i == 0 ? -INFINITY : lo, i == n ? INFINITY : hi));
        }
    }
    return res;
}

/* Halfspaces n_i . x <= c_i + delta (n_i unit). */
static ivl iv_planes(const double (*n)[3], const double* c, int count, double delta, const double o[3],
                     const double d[3])
{
    ivl r = iv_all();
    for (int i = 0; i < count; ++i)
    {
        r = iv_and(r, iv_slab(n[i], -INFINITY, c[i] + delta, o, d));
    }
    return r;
}

/* Line parameter of the plane hit of triangle abc (Moller-Trumbore, both sides), in double. */
static ivl iv_triangle(const double a[3], const double b[3], const double c[3], const double o[3],
                       const double d[3])
{
    double e1[3], e2[3], pv[3], tv[3], qv[3];
    d3_sub(b, a, e1);
    d3_sub(c, a, e2);
    d3_cross(d, e2, pv);
    double det = d3_dot(e1, pv);
    if (det == 0.0)
    {
        return iv_empty(); /* in the plane: measure zero, left to the band */
    }
    d3_sub(o, a, tv);
    double u = d3_dot(tv, pv) / det;
    d3_cross(tv, e1, qv);
    double v = d3_dot(d, qv) / det;
    if (!(u >= 0.0 && v >= 0.0 && u + v <= 1.0))
    {
        return iv_empty();
    }
    double t = d3_dot(e2, qv) / det;
    return iv_make(t, t);
}

/* ----------------------------------------------------------------------------------------------------- */
/* Test shapes: the library shape and what the oracles need */

enum
{
    TS_SPHERE,
    TS_POINT_ROUNDED,
    TS_CAPSULE,
    TS_BOX,
    TS_HULL_BOX,
    TS_HULL_TETRA,
    TS_CYLINDER,
    TS_CONE,
    TS_ROUNDED_BOX,
    TS_ROUNDED_SEGMENT,
    TS_TRIANGLE,
    TS_USER_OCTAHEDRON,
    TS_KIND_COUNT
};

static const char* const ts_names[TS_KIND_COUNT] = {
    "sphere", "rounded point", "capsule",         "box",      "hull box",       "hull tetra", "cylinder",
    "cone",   "rounded box",   "rounded segment", "triangle", "user octahedron"
};

typedef struct tshape
{
    int kind;
    px_shape shape;
    float pts[3 * 16];       /* hull points (kept alive with the shape) */
    float octa;              /* user octahedron half diagonal */
    double h[3];             /* box half extents; h[0], h[1] = half height, radius for cylinders and cones */
    double r;                /* rounding radius */
    double a[3], b[3], c[3]; /* segment / triangle vertices */
    double pn[8][3];         /* polytope planes */
    double pc[8];
    int np;
    double size; /* bounding radius about the local origin, radius included */
    bool gjk;    /* answered by the GJK ray cast (not a closed form) */
} tshape;

static int32_t octahedron_support(const void* user, const vec3 d, vec3 dest)
{
    float a = *(const float*)user;
    int best = 0;
    for (int i = 1; i < 3; ++i)
    {
        if (fabsf(d[i]) > fabsf(d[best]))
        {
            best = i;
        }
    }
    dest[0] = dest[1] = dest[2] = 0.0f;
    dest[best] = d[best] >= 0.0f ? a : -a;
    return 2 * best + (d[best] >= 0.0f ? 1 : 0);
}

/* Planes of the tetrahedron (a, b, c, d), outward. */
static void tetra_planes(tshape* ts, const double v[4][3])
{
    static const int f[4][4] = { { 0, 1, 2, 3 }, { 0, 1, 3, 2 }, { 0, 2, 3, 1 }, { 1, 2, 3, 0 } };
    for (int i = 0; i < 4; ++i)
    {
        double e1[3], e2[3], n[3], eo[3];
        d3_sub(v[f[i][1]], v[f[i][0]], e1);
        d3_sub(v[f[i][2]], v[f[i][0]], e2);
        d3_cross(e1, e2, n);
        d3_sub(v[f[i][3]], v[f[i][0]], eo);
        double s = d3_dot(n, eo) > 0.0 ? -1.0 : 1.0;
        double len = d3_norm(n);
        for (int k = 0; k < 3; ++k)
        {
            ts->pn[i][k] = s * n[k] / len;
        }
        ts->pc[i] = d3_dot(ts->pn[i], v[f[i][0]]);
    }
    ts->np = 4;
}

static double urand(px_rng* rng, double lo, double hi)
{
    return px_rng_range(rng, lo, hi);
}

/* A random shape of the given kind, of size about 0.2 to 3. */
static void make_shape(px_rng* rng, int kind, tshape* ts)
{
    memset(ts, 0, sizeof(*ts));
    ts->kind = kind;
    switch (kind)
    {
    case TS_SPHERE:
    case TS_POINT_ROUNDED:
    {
        float r = (float)urand(rng, 0.2, 2.0);
        ts->shape = kind == TS_SPHERE ? px_shape_sphere(r) : px_shape_point();
        ts->shape.radius = r;
        ts->r = r;
        ts->size = r;
        break;
    }
    case TS_CAPSULE:
    {
        float hh = px_rng_int(rng, 10) == 0 ? 0.0f : (float)urand(rng, 0.05, 2.0);
        float r = (float)urand(rng, 0.1, 1.0);
        ts->shape = px_shape_capsule(hh, r);
        ts->h[1] = hh;
        ts->r = r;
        ts->a[1] = -hh;
        ts->b[1] = hh;
        ts->size = hh + r;
        break;
    }
    case TS_BOX:
    case TS_HULL_BOX:
    case TS_ROUNDED_BOX:
    {
        float h[3];
        for (int i = 0; i < 3; ++i)
        {
            h[i] = (float)urand(rng, 0.05, 2.0);
            ts->h[i] = h[i];
        }
        if (kind == TS_BOX && px_rng_int(rng, 20) == 0)
        {
            int i = px_rng_int(rng, 3);
            h[i] = 0.0f; /* a flat box: rays in its plane hit, others cross it at one t */
            ts->h[i] = 0.0;
        }
        ts->size = sqrt(ts->h[0] * ts->h[0] + ts->h[1] * ts->h[1] + ts->h[2] * ts->h[2]);
        if (kind == TS_BOX || kind == TS_ROUNDED_BOX)
        {
            ts->shape = px_shape_box(h);
            if (kind == TS_ROUNDED_BOX)
            {
                ts->r = urand(rng, 0.02, 0.5);
                ts->shape.radius = (float)ts->r;
                ts->size += ts->r;
            }
            break;
        }
        /* the 8 corners, a few interior points and a duplicate, shuffled */
        int n = 0;
        for (int c = 0; c < 8; ++c)
        {
            for (int i = 0; i < 3; ++i)
            {
                ts->pts[3 * n + i] = (c >> i) & 1 ? h[i] : -h[i];
            }
            ++n;
        }
        for (int e = 0; e < 3; ++e)
        {
            for (int i = 0; i < 3; ++i)
            {
                ts->pts[3 * n + i] = (float)(0.9 * urand(rng, -1.0, 1.0)) * h[i];
            }
            ++n;
        }
        memcpy(&ts->pts[3 * n], &ts->pts[3 * px_rng_int(rng, 8)], 3 * sizeof(float));
        ++n;
        for (int i = n - 1; i > 0; --i)
        {
            int j = px_rng_int(rng, i + 1);
            float tmp[3];
            memcpy(tmp, &ts->pts[3 * i], sizeof(tmp));
            memcpy(&ts->pts[3 * i], &ts->pts[3 * j], sizeof(tmp));
            memcpy(&ts->pts[3 * j], tmp, sizeof(tmp));
        }
        ts->shape = px_shape_hull(ts->pts, n);
        for (int i = 0; i < 3; ++i)
        {
            for (int s = 0; s < 2; ++s)
            {
                double* nn = ts->pn[2 * i + s];
                nn[0] = nn[1] = nn[2] = 0.0;
                nn[i] = s ? 1.0 : -1.0;
                ts->pc[2 * i + s] = ts->h[i];
            }
        }
        ts->np = 6;
        break;
    }
    case TS_HULL_TETRA:
    {
        double v[4][3];
        for (;;)
        {
            for (int k = 0; k < 4; ++k)
            {
                for (int i = 0; i < 3; ++i)
                {
                    v[k][i] = (double)(float)urand(rng, -1.5, 1.5);
                }
            }
            double e1[3], e2[3], e3[3], n[3];
            d3_sub(v[1], v[0], e1);
            d3_sub(v[2], v[0], e2);
            d3_sub(v[3], v[0], e3);
            d3_cross(e1, e2, n);
            if (fabs(d3_dot(n, e3)) > 0.3)
            {
                break;
            }
        }
        double size = 0.0;
        for (int k = 0; k < 4; ++k)
        {
            d3_to_f(v[k], &ts->pts[3 * k]);
            size = fmax(size, d3_norm(v[k]));
        }
        /* the centroid as a fifth (interior) point */
        for (int i = 0; i < 3; ++i)
        {
            ts->pts[12 + i] = (float)(0.25 * (v[0][i] + v[1][i] + v[2][i] + v[3][i]));
        }
        ts->shape = px_shape_hull(ts->pts, 5);
        tetra_planes(ts, (const double(*)[3])v);
        ts->size = size;
        break;
    }
    case TS_CYLINDER:
    case TS_CONE:
    {
        float hh = (float)urand(rng, 0.1, 2.0), R = (float)urand(rng, 0.1, 2.0);
        ts->shape = kind == TS_CYLINDER ? px_shape_cylinder(hh, R) : px_shape_cone(hh, R);
        ts->h[0] = hh;
        ts->h[1] = R;
        ts->size = sqrt((double)hh * hh + (double)R * R);
        break;
    }
    case TS_ROUNDED_SEGMENT:
    {
        float a[3], b[3];
        for (int i = 0; i < 3; ++i)
        {
            a[i] = (float)urand(rng, -1.5, 1.5);
            b[i] = (float)urand(rng, -1.5, 1.5);
            ts->a[i] = a[i];
            ts->b[i] = b[i];
        }
        ts->shape = px_shape_segment(a, b);
        ts->r = (float)urand(rng, 0.05, 1.0);
        ts->shape.radius = (float)ts->r;
        ts->size = fmax(d3_norm(ts->a), d3_norm(ts->b)) + ts->r;
        break;
    }
    case TS_TRIANGLE:
    {
        float a[3], b[3], c[3];
        for (;;)
        {
            for (int i = 0; i < 3; ++i)
            {
                a[i] = (float)urand(rng, -1.5, 1.5);
                b[i] = (float)urand(rng, -1.5, 1.5);
                c[i] = (float)urand(rng, -1.5, 1.5);
            }
            d3_from_f(a, ts->a);
            d3_from_f(b, ts->b);
            d3_from_f(c, ts->c);
            double e1[3], e2[3], n[3];
            d3_sub(ts->b, ts->a, e1);
            d3_sub(ts->c, ts->a, e2);
            d3_cross(e1, e2, n);
            if (d3_norm(n) > 0.5)
            {
                break;
            }
        }
        ts->shape = px_shape_triangle(a, b, c);
        ts->size = fmax(d3_norm(ts->a), fmax(d3_norm(ts->b), d3_norm(ts->c)));
        break;
    }
    case TS_USER_OCTAHEDRON:
    {
        ts->octa = (float)urand(rng, 0.3, 2.0);
        ts->shape = px_shape_user(octahedron_support, &ts->octa);
        for (int s = 0; s < 8; ++s)
        {
            double k = 1.0 / sqrt(3.0);
            ts->pn[s][0] = (s & 1) ? k : -k;
            ts->pn[s][1] = (s & 2) ? k : -k;
            ts->pn[s][2] = (s & 4) ? k : -k;
            ts->pc[s] = ts->octa * k;
        }
        ts->np = 8;
        ts->size = ts->octa;
        break;
    }
    default:
        break;
    }
    ts->gjk = !(kind == TS_SPHERE || kind == TS_POINT_ROUNDED || kind == TS_CAPSULE || kind == TS_BOX);
}

/* The line's interval in the shape grown (delta > 0) or shrunk (delta < 0) by |delta|: a superset of the
 * shape's delta-neighbourhood, or a subset of its delta-erosion. */
static ivl oracle(const tshape* ts, double delta, const double o[3], const double d[3])
{
    switch (ts->kind)
    {
    case TS_SPHERE:
    case TS_POINT_ROUNDED:
    {
        const double zero[3] = { 0, 0, 0 };
        return iv_ball(zero, ts->r + delta, o, d);
    }
    case TS_CAPSULE:
    case TS_ROUNDED_SEGMENT:
        return iv_capsule(ts->a, ts->b, ts->r + delta, o, d);
    case TS_BOX:
    case TS_HULL_BOX:
    {
        double h[3] = { ts->h[0] + delta, ts->h[1] + delta, ts->h[2] + delta };
        return iv_box(h, o, d);
    }
    case TS_ROUNDED_BOX:
        return iv_rounded_box(ts->h, ts->r + delta, o, d);
    case TS_CYLINDER:
        return iv_cylinder(ts->h[0] + delta, ts->h[1] + delta, o, d);
    case TS_CONE:
    {
        double hh = ts->h[0], R = ts->h[1];
        double k = R / (2.0 * hh), sina = R / sqrt(R * R + 4.0 * hh * hh);
        return iv_cone(hh + delta / sina, -hh - delta, k, o, d);
    }
    case TS_HULL_TETRA:
    case TS_USER_OCTAHEDRON:
        return iv_planes((const double(*)[3])ts->pn, ts->pc, ts->np, delta, o, d);
    case TS_TRIANGLE:
    {
        if (delta > 0.0)
        {
            /* rounded triangle: the prism of half thickness delta and the three edge capsules */
            double e1[3], e2[3], n[3];
            d3_sub(ts->b, ts->a, e1);
            d3_sub(ts->c, ts->a, e2);
            d3_cross(e1, e2, n);
            double ln = d3_norm(n);
            n[0] /= ln;
            n[1] /= ln;
            n[2] /= ln;
            const double* v[3] = { ts->a, ts->b, ts->c };
            ivl prism = iv_slab(n, d3_dot(n, ts->a) - delta, d3_dot(n, ts->a) + delta, o, d);
            for (int i = 0; i < 3; ++i)
            {
                double e[3], m[3];
                d3_sub(v[(i + 1) % 3], v[i], e);
                d3_cross(e, n, m); /* in-plane edge normal; orient it away from the third vertex */
                double lm = d3_norm(m);
                double side = d3_dot(m, v[(i + 2) % 3]) - d3_dot(m, v[i]) > 0.0 ? -1.0 : 1.0;
                for (int k = 0; k < 3; ++k)
                {
                    m[k] *= side / lm;
                }
                prism = iv_and(prism, iv_slab(m, -INFINITY, d3_dot(m, v[i]), o, d));
            }
            ivl res = prism;
            for (int i = 0; i < 3; ++i)
            {
                res = iv_hull(res, iv_capsule(v[i], v[(i + 1) % 3], delta, o, d));
            }
            return res;
        }
        if (delta == 0.0)
        {
            return iv_triangle(ts->a, ts->b, ts->c, o, d);
        }
        /* inset triangle: scaled about the incentre by (rho - delta) / rho */
        double la = 0, lb = 0, lc = 0, ab[3], bc[3], ca[3];
        d3_sub(ts->b, ts->a, ab);
        d3_sub(ts->c, ts->b, bc);
        d3_sub(ts->a, ts->c, ca);
        la = d3_norm(bc);
        lb = d3_norm(ca);
        lc = d3_norm(ab);
        double per = la + lb + lc, inc[3], cr[3];
        for (int k = 0; k < 3; ++k)
        {
            inc[k] = (la * ts->a[k] + lb * ts->b[k] + lc * ts->c[k]) / per;
        }
        d3_cross(ab, ca, cr);
        double rho = d3_norm(cr) / per; /* area / semi-perimeter = |ab x ca| / 2 / (per / 2) */
        double s = (rho + delta) / rho;
        if (s <= 0.0)
        {
            return iv_empty();
        }
        double a[3], b[3], c[3];
        for (int k = 0; k < 3; ++k)
        {
            a[k] = inc[k] + s * (ts->a[k] - inc[k]);
            b[k] = inc[k] + s * (ts->b[k] - inc[k]);
            c[k] = inc[k] + s * (ts->c[k] - inc[k]);
        }
        return iv_triangle(a, b, c, o, d);
    }
    default:
        return iv_empty();
    }
}

/* Support function of the shape (radius included) along n, in double. */
static double support_value(const tshape* ts, const double n[3])
{
    double nl = d3_norm(n), nxz = sqrt(n[0] * n[0] + n[2] * n[2]);
    switch (ts->kind)
    {
    case TS_SPHERE:
    case TS_POINT_ROUNDED:
        return ts->r * nl;
    case TS_CAPSULE:
    case TS_ROUNDED_SEGMENT:
        return fmax(d3_dot(n, ts->a), d3_dot(n, ts->b)) + ts->r * nl;
    case TS_BOX:
    case TS_HULL_BOX:
    case TS_ROUNDED_BOX:
        return ts->h[0] * fabs(n[0]) + ts->h[1] * fabs(n[1]) + ts->h[2] * fabs(n[2]) + ts->r * nl;
    case TS_CYLINDER:
        return ts->h[0] * fabs(n[1]) + ts->h[1] * nxz;
    case TS_CONE:
        return fmax(ts->h[0] * n[1], -ts->h[0] * n[1] + ts->h[1] * nxz);
    case TS_HULL_TETRA:
    {
        double m = -INFINITY;
        for (int k = 0; k < 4; ++k)
        {
            double v[3];
            d3_from_f(&ts->pts[3 * k], v);
            m = fmax(m, d3_dot(n, v));
        }
        return m;
    }
    case TS_TRIANGLE:
        return fmax(d3_dot(n, ts->a), fmax(d3_dot(n, ts->b), d3_dot(n, ts->c)));
    case TS_USER_OCTAHEDRON:
        return ts->octa * fmax(fabs(n[0]), fmax(fabs(n[1]), fabs(n[2])));
    default:
        return 0.0;
    }
}

/* ----------------------------------------------------------------------------------------------------- */
/* One ray against the oracles */

/* What a ray should report given the line interval: -1 miss, 0 origin inside, 1 entry at t. */
typedef struct ref_hit
{
    int kind;
    double t;
} ref_hit;

static ref_hit ref_from(ivl iv, double max_t)
{
    ref_hit r = { -1, 0.0 };
    if (!iv.hit || iv.t1 < 0.0)
    {
        return r;
    }
    if (iv.t0 <= 0.0)
    {
        r.kind = 0;
        return r;
    }
    if (iv.t0 <= max_t)
    {
        r.kind = 1;
        r.t = iv.t0;
    }
    return r;
}

typedef struct ray_stats
{
    int rays, hits, inside, band, gjk_warnings;
} ray_stats;

static void print_ray(const char* label, const tshape* ts, const px_transform* pose, const px_ray* ray,
                      const px_ray_hit* h, px_status s)
{
    fprintf(stderr, "%s: %s shape, status %s\n", label, ts_names[ts->kind], px_status_string(s));
    fprintf(stderr, "  pose q (%a, %a, %a, %a) p (%a, %a, %a)\n", pose->q[0], pose->q[1], pose->q[2],
            pose->q[3], pose->p[0], pose->p[1], pose->p[2]);
    fprintf(stderr, "  ray o (%a, %a, %a) d (%a, %a, %a) max_t %a\n", ray->origin[0], ray->origin[1],
            ray->origin[2], ray->direction[0], ray->direction[1], ray->direction[2], ray->max_t);
    fprintf(stderr, "  shape h (%a %a %a) r %a a (%a %a %a) b (%a %a %a) size %g\n", ts->h[0], ts->h[1],
            ts->h[2], ts->r, ts->a[0], ts->a[1], ts->a[2], ts->b[0], ts->b[1], ts->b[2], ts->size);
    fprintf(stderr, "  result hit %d t %.9g point (%g %g %g) normal (%g %g %g)\n", h->hit, h->t, h->point[0],
            h->point[1], h->point[2], h->normal[0], h->normal[1], h->normal[2]);
}

#define RAY_FAIL(why)                                                                                        \
    do                                                                                                       \
    {                                                                                                        \
        fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, why);                                             \
        print_ray("ray", ts, pose, ray, &h, status);                                                         \
        fprintf(stderr, "  ref exact %d %.9g grown %d %.9g shrunk %d %.9g delta %g\n", re.kind, re.t,        \
                rg.kind, rg.t, rs.kind, rs.t, delta);                                                        \
        return 1;                                                                                            \
    } while (0)

static int check_ray(const tshape* ts, const px_transform* pose, const px_ray* ray, ray_stats* st)
{
    px_ray_hit h;
    memset(&h, 0x5a, sizeof(h));
    px_status status = px_ray_cast_shape(&ts->shape, pose, ray, &h);
    dpose P = from_px(pose);
    double o[3], d[3], wo[3], wd[3];
    d3_from_f(ray->origin, wo);
    d3_from_f(ray->direction, wd);
    dpose_point_inv(&P, wo, o);
    dquat_rotate_inv(P.q, wd, d);
    double dl = d3_norm(d);
    double delta = (ts->gjk ? 2e-5 : 1e-6) * ts->size + 64.0 * FLT_EPSILON * (d3_norm(o) + ts->size);
    double max_t = ray->max_t;
    ref_hit re = ref_from(oracle(ts, 0.0, o, d), max_t);
    ivl gi = oracle(ts, delta, o, d);
    ref_hit rg = ref_from(gi, max_t);
    ref_hit rs = ref_from(oracle(ts, -delta, o, d), max_t);
    st->rays++;

    if (status == PX_WARN_MAX_ITERATIONS || status == PX_WARN_DEGENERATE)
    {
        /* a best estimate: a hit within four bands of the shape (the band is 1e-5 S) */
        st->gjk_warnings++;
        delta = 5e-5 * ts->size + 64.0 * FLT_EPSILON * (d3_norm(o) + ts->size);
        gi = oracle(ts, delta, o, d);
        rg = ref_from(gi, max_t);
    }
    else if (status != PX_OK)
    {
        RAY_FAIL("unexpected status");
    }
    if (!finite3(h.point) || !finite3(h.normal) || !isfinite(h.t) || h.triangle != PX_NULL_INDEX ||
        h.u != 0.0f || h.v != 0.0f)
    {
        RAY_FAIL("non-finite or stray output");
    }
    if (h.hit)
    {
        st->hits++;
        if (rg.kind < 0)
        {
            RAY_FAIL("hit where the grown shape is missed");
        }
        if (!(h.t >= 0.0f && h.t <= ray->max_t))
        {
            RAY_FAIL("t outside [0, max_t]");
        }
        if (h.t == 0.0f)
        {
            st->inside++;
            if (rg.kind != 0)
            {
                RAY_FAIL("inside reported for an origin outside the grown shape");
            }
            if (h.normal[0] != 0.0f || h.normal[1] != 0.0f || h.normal[2] != 0.0f ||
                memcmp(h.point, ray->origin, sizeof(h.point)) != 0)
            {
                RAY_FAIL("inside hit needs point = origin and a zero normal");
            }
        }
        else
        {
            if (rs.kind == 0)
            {
                RAY_FAIL("origin inside the shrunk shape not reported at t = 0");
            }
            double slack = (1e-6 * ts->size + 16.0 * FLT_EPSILON * (d3_norm(o) + h.t * dl)) / dl;
            double lo = rg.kind == 1 ? rg.t : 0.0;
            /* grazing (the shrunk shape missed): anywhere the line is within the band */
            double hi = rs.kind == 1 ? rs.t : fmin(gi.t1, max_t);
            if (!(h.t >= lo - slack && h.t <= hi + slack))
            {
                RAY_FAIL("t outside [grown entry, shrunk entry]");
            }
            double n[3], nl[3], pl[3];
            d3_from_f(h.normal, n);
            if (!(fabs(d3_norm(n) - 1.0) <= 1e-5) || !(d3_dot(n, wd) <= 0.0))
            {
                RAY_FAIL("normal not unit or not facing the ray");
            }
            dquat_rotate_inv(P.q, n, nl);
            d3_mad(o, (double)h.t, d, pl);
            double gap = support_value(ts, nl) - d3_dot(nl, pl);
            if (!(gap <= 2e-3 * ts->size + delta && gap >= -2.0 * delta))
            {
                fprintf(stderr, "  support gap %g\n", gap);
                RAY_FAIL("normal is not a supporting-plane normal at the hit point");
            }
        }
    }
    else if (rs.kind >= 0)
    {
        RAY_FAIL("miss where the shrunk shape is hit");
    }
    /* strict agreement with the exact shape */
    bool strict;
    if (!h.hit)
    {
        strict = re.kind < 0;
    }
    else if (h.t == 0.0f)
    {
        strict = re.kind == 0;
    }
    else
    {
        strict = re.kind == 1 && fabs((double)h.t - re.t) * dl <= 1e-4 * fmax(re.t * dl, ts->size);
    }
    if (!strict)
    {
        st->band++;
    }
    return 0;
}

/* A point near the shape: inside its extent or up to about 20% beyond it, so that random rays aimed at
 * it hit about half the time whatever the shape's proportions. */
static void random_target(px_rng* rng, const tshape* ts, double t[3])
{
    double u[3];
    px_rng_unit_vector(rng, u);
    double k = urand(rng, 0.0, 1.25);
    switch (ts->kind)
    {
    case TS_CAPSULE:
    case TS_ROUNDED_SEGMENT:
    {
        double s = urand(rng, -0.1, 1.1);
        for (int i = 0; i < 3; ++i)
        {
            t[i] = ts->a[i] + s * (ts->b[i] - ts->a[i]) + k * ts->r * u[i];
        }
        return;
    }
    case TS_HULL_TETRA:
    case TS_TRIANGLE:
    {
        int nv = ts->kind == TS_TRIANGLE ? 3 : 4;
        double w[4], sum = 0.0;
        for (int j = 0; j < nv; ++j)
        {
            w[j] = urand(rng, -0.1, 1.0);
            sum += w[j];
        }
        for (int i = 0; i < 3; ++i)
        {
            t[i] = 0.05 * ts->size * u[i];
            for (int j = 0; j < nv; ++j)
            {
                double v = ts->kind == TS_TRIANGLE ? (j == 0 ? ts->a[i] : (j == 1 ? ts->b[i] : ts->c[i]))
                                                   : (double)ts->pts[3 * j + i];
                t[i] += w[j] / sum * v;
            }
        }
        return;
    }
    case TS_BOX:
    case TS_HULL_BOX:
    case TS_ROUNDED_BOX:
        for (int i = 0; i < 3; ++i)
        {
            t[i] = urand(rng, -1.15, 1.15) * (ts->h[i] + ts->r);
        }
        return;
    case TS_CYLINDER:
    case TS_CONE:
        t[0] = urand(rng, -1.1, 1.1) * ts->h[1];
        t[1] = urand(rng, -1.1, 1.1) * ts->h[0];
        t[2] = urand(rng, -1.1, 1.1) * ts->h[1];
        return;
    default:
        for (int i = 0; i < 3; ++i)
        {
            t[i] = k * ts->size * u[i];
        }
        return;
    }
}

/* A random ray about the shape: origin in a box of 3 sizes, aimed at a point near the shape. */
static void random_ray(px_rng* rng, const tshape* ts, const dpose* pose, px_ray* ray)
{
    double S = ts->size, o[3], target[3], d[3], wo[3], wd[3];
    for (int i = 0; i < 3; ++i)
    {
        o[i] = urand(rng, -3.0, 3.0) * S;
    }
    random_target(rng, ts, target);
    if (px_rng_int(rng, 10) == 0)
    {
        px_rng_unit_vector(rng, target); /* a few rays in a random direction */
        d3_mad(o, 1.0, target, target);
    }
    d3_sub(target, o, d);
    double scale = pow(2.0, urand(rng, -2.0, 2.0)) / d3_norm(d);
    dpose_point(pose, o, wo);
    dquat_rotate(pose->q, d, wd);
    for (int i = 0; i < 3; ++i)
    {
        wd[i] *= scale;
    }
    d3_to_f(wo, ray->origin);
    d3_to_f(wd, ray->direction);
    int k = px_rng_int(rng, 10);
    double len = d3_norm(wd);
    ray->max_t = k < 7 ? INFINITY : (k < 9 ? (float)(urand(rng, 0.3, 3.0) * S / len) : 0.0f);
}

static int random_rays(int kind, uint64_t seed)
{
    px_rng rng = px_rng_seeded(seed);
    ray_stats st;
    memset(&st, 0, sizeof(st));
    for (int i = 0; i < RAYS_PER_SHAPE; ++i)
    {
        tshape ts;
        if (i % 50 == 0 || true)
        {
            make_shape(&rng, kind, &ts);
        }
        dpose dp = random_pose(&rng);
        px_transform pose = to_px(&dp);
        dpose seen = from_px(&pose);
        px_ray ray;
        random_ray(&rng, &ts, &seen, &ray);
        if (check_ray(&ts, &pose, &ray, &st) != 0)
        {
            fprintf(stderr, "  seed %llu ray %d\n", (unsigned long long)seed, i);
            return 1;
        }
    }
    printf("    %-16s rays %d hits %d inside %d band %d warnings %d\n", ts_names[kind], st.rays, st.hits,
           st.inside, st.band, st.gjk_warnings);
    PX_CHECK(st.hits >= st.rays / 5 && st.hits <= st.rays * 4 / 5); /* informative: 20-80% hit */
    PX_CHECK(st.band * 200 <= st.rays);                             /* strict answers on >= 99.5% */
    PX_CHECK(st.gjk_warnings * 1000 <= st.rays);
    return 0;
}

static int rays_sphere(void)
{
    return random_rays(TS_SPHERE, 0xC0FFEE01) | random_rays(TS_POINT_ROUNDED, 0xC0FFEE02);
}

static int rays_capsule(void)
{
    return random_rays(TS_CAPSULE, 0xC0FFEE03);
}

static int rays_box(void)
{
    return random_rays(TS_BOX, 0xC0FFEE04);
}

static int rays_hulls(void)
{
    return random_rays(TS_HULL_BOX, 0xC0FFEE05) | random_rays(TS_HULL_TETRA, 0xC0FFEE06);
}

static int rays_cylinder_cone(void)
{
    return random_rays(TS_CYLINDER, 0xC0FFEE07) | random_rays(TS_CONE, 0xC0FFEE08);
}

static int rays_rounded(void)
{
    return random_rays(TS_ROUNDED_BOX, 0xC0FFEE09) | random_rays(TS_ROUNDED_SEGMENT, 0xC0FFEE0A);
}

static int rays_triangle_user(void)
{
    return random_rays(TS_TRIANGLE, 0xC0FFEE0B) | random_rays(TS_USER_OCTAHEDRON, 0xC0FFEE0C);
}

/* Ray origins 1e2 to 1e4 shape sizes away in the shape's frame (not through the pose): the cast starts
 * far from the shape, so its working coordinates must be brought back to the shape's size (normals
 * are checked against the support function at the hit). */
/* A ray from 4500 away onto a cone 1.2 across: the cast moves the ray's start onto the cone's bounding
 * sphere, but the pair kept the touching band of the far start (8e-3), and the full GJK run at a stalled
 * step called a point 5e-3 from the cone overlapping, its direction becoming the normal, 89 degrees off the
 * side's (rays_far_origins at PX_TEST_SEED=221). The normal is now the side's at the hit point. */
static int ray_far_cone_normal(void)
{
    const px_shape cone = px_shape_cone(0x1.f2870ap-1f, 0x1.3d71b8p-1f);
    const px_transform pose = { { -0x1.9bb5e4p-2f, -0x1.bed716p-1f, 0x1.19cbd2p-2f, -0x1.f925d8p-6f },
                                { 0.0f, 0.0f, 0.0f } };
    const px_ray ray = { { -0x1.499bfap+10f, 0x1.e1e316p+11f, -0x1.c6af52p+11f },
                         { 0x1.49a0b4p+10f, -0x1.e1e85ep+11f, 0x1.c6baa6p+11f },
                         INFINITY };
    px_ray_hit h;
    PX_CHECK_STATUS(px_ray_cast_shape(&cone, &pose, &ray, &h), PX_OK);
    PX_CHECK(h.hit);
    /* the side's normal at the hit point, in the cone's frame: (radial, r / (2 h)) normalized */
    dpose P = from_px(&pose);
    double wp[3], wn[3], p[3], n[3];
    d3_from_f(h.point, wp);
    d3_from_f(h.normal, wn);
    dpose_point_inv(&P, wp, p);
    dquat_rotate_inv(P.q, wn, n);
    const double rho = sqrt(p[0] * p[0] + p[2] * p[2]);
    double side[3] = { p[0] / rho, (double)cone.cylinder.radius / (2.0 * cone.cylinder.half_height), p[2] / rho };
    const double ls = d3_norm(side);
    PX_CHECK(d3_dot(n, side) / ls >= 1.0 - 1e-4);
    return 0;
}

/* A ray from 800 away passing 7e-5 (4 bands) by a cone's rim: the cast approaches the rim in small steps
 * and needed 65 of them to prove the miss, past the bound of 64 (PX_WARN_MAX_ITERATIONS with a hit as its
 * best estimate; rays_far_origins at PX_TEST_SEED=260). */
static int ray_cone_rim_steps(void)
{
    const px_shape cone = px_shape_cone(0x1.62aaeap+0f, 0x1.e99096p-1f);
    const px_transform pose = { { 0x1.5f5d6ep-4f, 0x1.0f54d4p-2f, -0x1.231f1ep-1f, -0x1.8c4e34p-1f },
                                { 0.0f, 0.0f, 0.0f } };
    const px_ray ray = { { -0x1.88e158p+9f, -0x1.f3d25ap+8f, 0x1.114f66p+6f },
                         { 0x1.88c07ep+9f, 0x1.f4981ep+8f, -0x1.13d0d4p+6f },
                         INFINITY };
    px_ray_hit h;
    PX_CHECK_STATUS(px_ray_cast_shape(&cone, &pose, &ray, &h), PX_OK);
    PX_CHECK(!h.hit);
    return 0;
}

static int rays_far_origins(void)
{
    px_rng rng = px_rng_seeded(0xFA12);
    const int kinds[6] = { TS_HULL_BOX, TS_CYLINDER, TS_ROUNDED_BOX, TS_CONE, TS_BOX, TS_SPHERE };
    ray_stats st;
    memset(&st, 0, sizeof(st));
    for (int n = 0; n < 6000; ++n)
    {
        tshape ts;
        make_shape(&rng, kinds[n % 6], &ts);
        dpose dp = { { 0, 0, 0, 1 }, { 0, 0, 0 } };
        if (n % 2)
        {
            random_quat(&rng, dp.q);
        }
        px_transform pose = to_px(&dp);
        dpose seen = from_px(&pose);
        double u[3], o[3], target[3], d[3], wo[3], wd[3];
        px_rng_unit_vector(&rng, u);
        double dist = pow(10.0, urand(&rng, 2.0, 4.0)) * ts.size;
        for (int i = 0; i < 3; ++i)
        {
            o[i] = dist * u[i];
        }
        random_target(&rng, &ts, target);
        d3_sub(target, o, d);
        dpose_point(&seen, o, wo);
        dquat_rotate(seen.q, d, wd);
        px_ray ray;
        d3_to_f(wo, ray.origin);
        d3_to_f(wd, ray.direction);
        ray.max_t = INFINITY;
        if (check_ray(&ts, &pose, &ray, &st) != 0)
        {
            fprintf(stderr, "  far origin case %d\n", n);
            return 1;
        }
    }
    printf("    far origins      rays %d hits %d band %d warnings %d\n", st.rays, st.hits, st.band,
           st.gjk_warnings);
    PX_CHECK(st.hits >= st.rays / 5 && st.hits <= st.rays * 19 / 20); /* aimed at the shape from afar */
    PX_CHECK(st.band * 200 <= st.rays && st.gjk_warnings == 0);
    return 0;
}

/* A hit exactly at max_t counts: recasting with max_t set to the t found must hit again there, whatever
 * the direction's length (max_t * |d| rounds); a closed form with max_t 1e-4 shorter must miss. */
static int rays_max_t_boundary(void)
{
    px_rng rng = px_rng_seeded(0x3A71);
    const int kinds[6] = { TS_SPHERE, TS_CAPSULE, TS_BOX, TS_HULL_TETRA, TS_CYLINDER, TS_ROUNDED_SEGMENT };
    int rehit = 0;
    for (int n = 0; n < 6000; ++n)
    {
        tshape ts;
        make_shape(&rng, kinds[n % 6], &ts);
        dpose dp = random_pose(&rng);
        px_transform pose = to_px(&dp);
        dpose seen = from_px(&pose);
        px_ray ray;
        random_ray(&rng, &ts, &seen, &ray);
        /* direction lengths that are not powers of two */
        float k = (float)urand(&rng, 0.3, 7.0);
        for (int i = 0; i < 3; ++i)
        {
            ray.direction[i] *= k;
        }
        ray.max_t = INFINITY;
        px_ray_hit h, h2;
        PX_CHECK_STATUS(px_ray_cast_shape(&ts.shape, &pose, &ray, &h), PX_OK);
        if (!h.hit || h.t == 0.0f)
        {
            continue;
        }
        ray.max_t = h.t;
        PX_CHECK_STATUS(px_ray_cast_shape(&ts.shape, &pose, &ray, &h2), PX_OK);
        PX_CHECK(h2.hit && h2.t <= h.t && h2.t >= h.t * (1.0f - 1e-6f));
        ++rehit;
        if (!ts.gjk)
        {
            ray.max_t = h.t * (1.0f - 1e-4f);
            PX_CHECK_STATUS(px_ray_cast_shape(&ts.shape, &pose, &ray, &h2), PX_OK);
            PX_CHECK(!h2.hit);
        }
    }
    PX_CHECK(rehit > 2000);
    return 0;
}

/* Rays tangent to curved surfaces (in double, then rounded to float): a hit's normal is perpendicular to
 * the ray up to rounding, and must still face it (dot(normal, direction) <= 0), never a NaN. */
static int rays_tangent_normals(void)
{
    px_rng rng = px_rng_seeded(0x7A9E);
    const int kinds[4] = { TS_SPHERE, TS_CAPSULE, TS_ROUNDED_SEGMENT, TS_CYLINDER };
    int hits = 0, warnings = 0;
    for (int n = 0; n < 8000; ++n)
    {
        tshape ts;
        make_shape(&rng, kinds[n % 4], &ts);
        dpose dp = random_pose(&rng);
        px_transform pose = to_px(&dp);
        dpose seen = from_px(&pose);
        /* a tangent line: a surface point of a sphere (the sphere itself, a capsule's end sphere) or of the
         * cylinder's side, with a direction perpendicular to the surface normal there */
        double nrm[3], p[3], u[3], t[3];
        px_rng_unit_vector(&rng, nrm);
        if (ts.kind == TS_CYLINDER)
        {
            nrm[1] = 0.0;
            double l = sqrt(nrm[0] * nrm[0] + nrm[2] * nrm[2]);
            nrm[0] /= l;
            nrm[2] /= l;
            p[0] = ts.h[1] * nrm[0];
            p[1] = urand(&rng, -0.9, 0.9) * ts.h[0];
            p[2] = ts.h[1] * nrm[2];
        }
        else
        {
            const double* c = px_rng_int(&rng, 2) ? ts.a : ts.b;
            d3_mad(c, ts.r, nrm, p);
        }
        px_rng_unit_vector(&rng, t);
        d3_cross(nrm, t, u);
        double ul = d3_norm(u);
        for (int i = 0; i < 3; ++i)
        {
            u[i] /= ul;
        }
        double o[3], wo[3], wd[3];
        d3_mad(p, -2.0 * ts.size, u, o);
        dpose_point(&seen, o, wo);
        dquat_rotate(seen.q, u, wd);
        px_ray ray;
        d3_to_f(wo, ray.origin);
        d3_to_f(wd, ray.direction);
        ray.max_t = INFINITY;
        px_ray_hit h;
        px_status status = px_ray_cast_shape(&ts.shape, &pose, &ray, &h);
        /* exact tangency is where conservative advancement converges slowest (linearly), and GJK on a
         * cylinder's side too: the bound may be hit or the loop stall, with a usable best estimate */
        PX_CHECK(status == PX_OK || status == PX_WARN_MAX_ITERATIONS || status == PX_WARN_DEGENERATE);
        warnings += status != PX_OK;
        PX_CHECK(finite3(h.normal) && isfinite(h.t));
        if (h.hit && h.t > 0.0f)
        {
            ++hits;
            double nw[3], dw[3];
            d3_from_f(h.normal, nw);
            d3_from_f(ray.direction, dw);
            PX_CHECK(d3_dot(nw, dw) <= 0.0);
            PX_CHECK_NEAR(d3_norm(nw), 1.0, 1e-5);
        }
    }
    PX_CHECK(hits > 1000);
    PX_CHECK(warnings * 200 <= 8000);
    return 0;
}

/* Origins before, on, inside and after the surface along lines through each shape kind, forward and
 * reversed (Jolt's RayShapeTests), with the expected answers spelled out. */
static int rays_origin_positions(void)
{
    px_rng rng = px_rng_seeded(0xB0A7);
    int checked[4][2] = { { 0 } };
    for (int kind = 0; kind < TS_KIND_COUNT; ++kind)
    {
        if (kind == TS_TRIANGLE)
        {
            continue; /* flat: no inside */
        }
        for (int n = 0; n < 300; ++n)
        {
            tshape ts;
            make_shape(&rng, kind, &ts);
            dpose dp = random_pose(&rng);
            px_transform pose = to_px(&dp);
            dpose seen = from_px(&pose);
            /* a line through an interior point (the local origin is inside every kind but the triangle) */
            double dir[3], zero[3] = { 0, 0, 0 };
            px_rng_unit_vector(&rng, dir);
            ivl iv = oracle(&ts, 0.0, zero, dir);
            if (!iv.hit || !(iv.t1 - iv.t0 > 0.05 * ts.size))
            {
                continue;
            }
            double ts_at[4] = { iv.t0 - urand(&rng, 0.1, 1.0) * ts.size, iv.t0, 0.5 * (iv.t0 + iv.t1),
                                iv.t1 + urand(&rng, 0.1, 1.0) * ts.size };
            for (int pos = 0; pos < 4; ++pos)
            {
                for (int rev = 0; rev < 2; ++rev)
                {
                    double lo[3],
                        ld[3] = { rev ? -dir[0] : dir[0], rev ? -dir[1] : dir[1], rev ? -dir[2] : dir[2] };
                    d3_mad(zero, ts_at[pos], dir, lo);
                    double wo[3], wd[3];
                    dpose_point(&seen, lo, wo);
                    dquat_rotate(seen.q, ld, wd);
                    px_ray ray;
                    d3_to_f(wo, ray.origin);
                    d3_to_f(wd, ray.direction);
                    ray.max_t = INFINITY;
                    ray_stats st;
                    memset(&st, 0, sizeof(st));
                    if (check_ray(&ts, &pose, &ray, &st) != 0)
                    {
                        fprintf(stderr, "  kind %s position %d reversed %d\n", ts_names[kind], pos, rev);
                        return 1;
                    }
                    px_ray_hit h;
                    PX_CHECK_STATUS(px_ray_cast_shape(&ts.shape, &pose, &ray, &h), PX_OK);
                    double chord = iv.t1 - iv.t0;
                    /* the entry of the ray actually cast (its origin is rounded to float), in its units */
                    double ro[3], rd[3], wof[3], wdf[3];
                    d3_from_f(ray.origin, wof);
                    d3_from_f(ray.direction, wdf);
                    dpose_point_inv(&seen, wof, ro);
                    dquat_rotate_inv(seen.q, wdf, rd);
                    ivl act = oracle(&ts, 0.0, ro, rd);
                    double slack = (1e-6 * ts.size + 16.0 * FLT_EPSILON * d3_norm(ro)) / d3_norm(rd);
                    double band = fmax(1e-4 * ts.size, 0.05 * chord) / d3_norm(rd);
                    /* spelled out: before + forward and after + reversed hit at the entry (GJK shapes up to
                     * the band over the crossing's cosine short of it), before + reversed and after +
                     * forward miss, inside hits at 0 */
                    if ((pos == 0 && !rev) || (pos == 3 && rev))
                    {
                        PX_CHECK(h.hit && act.hit);
                        PX_CHECK(h.t <= act.t0 + slack && h.t >= act.t0 - band);
                        if (!ts.gjk)
                        {
                            PX_CHECK(h.t >= act.t0 - 1e-4 * ts.size);
                        }
                    }
                    else if (pos == 0 || pos == 3)
                    {
                        PX_CHECK(!h.hit);
                    }
                    else if (pos == 2)
                    {
                        PX_CHECK(h.hit && h.t == 0.0f);
                    }
                    else
                    {
                        /* on the surface (rounded to float, so maybe just outside): inside, or the entry of
                         * the rounded ray, or a miss backward */
                        PX_CHECK(!h.hit || h.t <= fmax(act.hit ? act.t0 : 0.0, 0.0) + slack);
                    }
                    checked[pos][rev]++;
                }
            }
        }
    }
    for (int pos = 0; pos < 4; ++pos)
    {
        PX_CHECK(checked[pos][0] > 1000 && checked[pos][1] > 1000);
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Ray edge cases */

static int ray_hit(const px_shape* s, const px_transform* pose, float ox, float oy, float oz, float dx,
                   float dy, float dz, float max_t, px_ray_hit* h)
{
    px_ray ray = { { ox, oy, oz }, { dx, dy, dz }, max_t };
    return (int)px_ray_cast_shape(s, pose, &ray, h);
}

static int ray_edge_cases(void)
{
    const float he[3] = { 1, 2, 3 };
    px_shape box = px_shape_box(he);
    px_shape rbox = px_shape_box(he);
    rbox.radius = 0.25f;
    float cube[24];
    for (int c = 0; c < 8; ++c)
    {
        for (int i = 0; i < 3; ++i)
        {
            cube[3 * c + i] = (c >> i) & 1 ? he[i] : -he[i];
        }
    }
    px_shape hull = px_shape_hull(cube, 8);
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_ray_hit h;

    /* KNOWN_FAILURES #60/#61: zero direction components with the origin on slab planes. Along the face
     * x = 1 (in its plane): hits (closed slabs), with finite outputs. */
    PX_CHECK(ray_hit(&box, &id, 1, -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal) && isfinite(h.t));
    PX_CHECK_NEAR(h.t, 3.0f, 0.0f);
    PX_CHECK(h.normal[1] == -1.0f);
    /* along an edge (x = 1, z = 3) */
    PX_CHECK(ray_hit(&box, &id, 1, -5, 3, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 3.0f && h.normal[1] == -1.0f);
    /* off the face by one ulp: misses */
    PX_CHECK(ray_hit(&box, &id, nextafterf(1.0f, 2.0f), -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit);
    /* a denormal direction component with the origin on that slab plane: 0 / denormal is 0, while
     * 0 * (1 / denormal) would be 0 * inf = NaN and lose the hit */
    PX_CHECK(ray_hit(&box, &id, -1, -5, 0, 1e-40f, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 3.0f && h.normal[1] == -1.0f && finite3(h.point));
    PX_CHECK(ray_hit(&box, &id, 1, -5, 0, -1e-40f, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 3.0f && h.normal[1] == -1.0f);
    /* origin on the face plane, direction component zero, outside the other slabs: miss, no NaN */
    PX_CHECK(ray_hit(&box, &id, 1, 5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit && h.t == 0.0f && h.triangle == PX_NULL_INDEX);
    /* the same rays against the hull, the rounded box (GJK) : hit within the band, consistently */
    PX_CHECK(ray_hit(&hull, &id, 1, -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal));
    PX_CHECK_NEAR(h.t, 3.0f, 1e-4);
    PX_CHECK(ray_hit(&hull, &id, 1.001f, -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit);
    PX_CHECK(ray_hit(&rbox, &id, 0.9f, -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal) && h.normal[1] < -0.9999f);
    PX_CHECK_NEAR(h.t, 2.75f, 1e-4);
    /* in the plane of the rounded box's x face: tangent to its rounded edge at y = -2, where the normal
     * is perpendicular to the ray; a hit within the band, facing the ray */
    PX_CHECK(ray_hit(&rbox, &id, 1.25f, -5, 0, 0, 1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal) && h.normal[1] <= 0.0f && h.normal[0] > 0.99f);
    PX_CHECK(h.t <= 3.0f && h.t >= 2.99f);

    /* a hit exactly at max_t counts; just before it does not */
    PX_CHECK(ray_hit(&box, &id, -3, 0, 0, 1, 0, 0, 2.0f, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 2.0f && h.normal[0] == -1.0f);
    PX_CHECK(ray_hit(&box, &id, -3, 0, 0, 1, 0, 0, nextafterf(2.0f, 0.0f) * 0.9999f, &h) == PX_OK);
    PX_CHECK(!h.hit);
    px_shape sphere = px_shape_sphere(1.0f);
    PX_CHECK(ray_hit(&sphere, &id, 0, 0, -3, 0, 0, 4, 0.5f, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 0.5f);
    PX_CHECK(h.normal[2] == -1.0f);
    PX_CHECK(ray_hit(&hull, &id, -3, 0, 0, 0.5f, 0, 0, 4.0f, &h) == PX_OK);
    PX_CHECK(h.hit);
    PX_CHECK_NEAR(h.t, 4.0f, 1e-4);
    PX_CHECK(h.t <= 4.0f);
    /* zero-length rays: only an origin inside hits */
    PX_CHECK(ray_hit(&box, &id, 0.5f, 0, 0, 1, 0, 0, 0.0f, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 0.0f);
    PX_CHECK(ray_hit(&box, &id, -1.5f, 0, 0, 1, 0, 0, 0.0f, &h) == PX_OK);
    PX_CHECK(!h.hit);
    PX_CHECK(ray_hit(&hull, &id, 0.5f, 0, 0, 1, 0, 0, 0.0f, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 0.0f);
    PX_CHECK(ray_hit(&hull, &id, -1.5f, 0, 0, 1, 0, 0, 0.0f, &h) == PX_OK);
    PX_CHECK(!h.hit);
    /* inside: t = 0, point = origin, zero normal, for every path */
    const px_shape* all[4] = { &box, &rbox, &hull, &sphere };
    for (int i = 0; i < 4; ++i)
    {
        PX_CHECK(ray_hit(all[i], &id, 0.1f, 0.2f, 0.3f, 0, -1, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(h.hit && h.t == 0.0f && h.normal[0] == 0.0f && h.normal[1] == 0.0f && h.normal[2] == 0.0f);
        PX_CHECK(h.point[0] == 0.1f && h.point[1] == 0.2f && h.point[2] == 0.3f);
    }
    /* tangent to a sphere: grazing rays stay finite; exactly tangent in double hits or misses, but the
     * normal then is perpendicular to the ray, never facing along it */
    for (int k = -4; k <= 4; ++k)
    {
        float y = 1.0f + (float)k * FLT_EPSILON;
        PX_CHECK(ray_hit(&sphere, &id, -5, y, 0, 1, 0, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(finite3(h.normal) && isfinite(h.t));
        PX_CHECK(k <= 0 || !h.hit);
        if (h.hit)
        {
            PX_CHECK(h.normal[0] <= 0.0f);
            PX_CHECK_NEAR(h.t, 5.0f, 1e-3);
        }
    }
    /* direction lengths from 1e-20 to 1e20: same hit point */
    for (int e = -20; e <= 20; e += 5)
    {
        float s = powf(10.0f, (float)e);
        PX_CHECK(ray_hit(&hull, &id, -3, 0.5f, 0.5f, s, 0, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(h.hit);
        PX_CHECK_NEAR(h.point[0], -1.0f, 1e-4);
        PX_CHECK_NEAR(h.t * s, 2.0f, 2e-4);
        PX_CHECK(ray_hit(&box, &id, -3, 0.5f, 0.5f, s, 0, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(h.hit && h.point[0] == -1.0f);
    }
    /* far poses: the same local ray at offsets 1e3..1e5 */
    for (int e = 3; e <= 5; ++e)
    {
        float off = powf(10.0f, (float)e);
        px_transform far = px_at(off, -off, off);
        PX_CHECK(ray_hit(&hull, &far, off - 3.0f, -off + 0.5f, off + 0.5f, 1, 0, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(h.hit);
        PX_CHECK_NEAR(h.t, 2.0f, 1e-4);
        PX_CHECK(h.normal[0] < -0.9999f);
        PX_CHECK(ray_hit(&rbox, &far, off - 3.0f, -off + 0.5f, off + 0.5f, 1, 0, 0, INFINITY, &h) == PX_OK);
        PX_CHECK(h.hit);
        PX_CHECK_NEAR(h.t, 1.75f, 1e-4);
    }
    /* a far ray origin (1e4 away) against a unit shape at the origin */
    PX_CHECK(ray_hit(&hull, &id, -1e4f, 0.5f, 0.5f, 1, 0, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit);
    PX_CHECK_NEAR(h.t, 1e4 - 1.0, 1e-4 * 1e4);
    PX_CHECK_NEAR(h.point[0], -1.0f, 2e-3);
    return 0;
}

/* Flat and degenerate cores through the GJK path: triangles edge-on, segments, points. */
static int ray_degenerate_cores(void)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_ray_hit h;
    const float a[3] = { -1, 0, -1 }, b[3] = { 1, 0, -1 }, c[3] = { 0, 0, 1 };
    px_shape tri = px_shape_triangle(a, b, c);
    PX_CHECK(ray_hit(&tri, &id, 0, 3, 0, 0, -1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.normal[1] > 0.9999f);
    PX_CHECK_NEAR(h.t, 3.0f, 1e-4);
    PX_CHECK(ray_hit(&tri, &id, 0, -3, 0, 0, 1, 0, INFINITY, &h) == PX_OK); /* two-sided */
    PX_CHECK(h.hit && h.normal[1] < -0.9999f);
    /* in the triangle's plane, towards it: hits its edge (within the band), finite */
    PX_CHECK(ray_hit(&tri, &id, -5, 0, 0, 1, 0, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal));
    PX_CHECK_NEAR(h.t, 4.5f, 1e-4);
    /* just above the plane, parallel: misses */
    PX_CHECK(ray_hit(&tri, &id, -5, 1e-3f, 0, 1, 0, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit);
    /* a bare segment (no radius): hit only through it */
    px_shape seg = px_shape_segment(a, b);
    PX_CHECK(ray_hit(&seg, &id, 0, 3, -1, 0, -1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && finite3(h.normal));
    PX_CHECK_NEAR(h.t, 3.0f, 1e-4);
    PX_CHECK(ray_hit(&seg, &id, 0, 3, -0.99f, 0, -1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit);
    /* a zero-radius point and sphere */
    px_shape pt = px_shape_point();
    PX_CHECK(ray_hit(&pt, &id, -2, 0, 0, 1, 0, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.t == 2.0f && h.normal[0] == -1.0f);
    PX_CHECK(ray_hit(&pt, &id, -2, 1e-3f, 0, 1, 0, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(!h.hit);
    /* a hull of collinear and of coincident points */
    const float line[12] = { 0, 0, 0, 1, 0, 0, 2, 0, 0, 0.5f, 0, 0 };
    px_shape hl = px_shape_hull(line, 4);
    hl.radius = 0.5f;
    PX_CHECK(ray_hit(&hl, &id, 1, 3, 0, 0, -1, 0, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.normal[1] > 0.999f);
    PX_CHECK_NEAR(h.t, 2.5f, 1e-4);
    const float same[9] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
    px_shape hs = px_shape_hull(same, 3);
    hs.radius = 1.0f;
    PX_CHECK(ray_hit(&hs, &id, 1, 1, -4, 0, 0, 2, INFINITY, &h) == PX_OK);
    PX_CHECK(h.hit && h.normal[2] < -0.999f);
    PX_CHECK_NEAR(h.t, 2.0f, 1e-4);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Bad input */

static int32_t nan_support(const void* user, const vec3 d, vec3 dest)
{
    (void)user;
    (void)d;
    dest[0] = NAN;
    dest[1] = dest[2] = 0.0f;
    return 0;
}

static int ray_zeroed(const px_ray_hit* h)
{
    px_ray_hit z;
    memset(&z, 0, sizeof(z));
    z.triangle = PX_NULL_INDEX;
    return memcmp(h, &z, sizeof(z)) == 0;
}

static int ray_bad_input(void)
{
    px_shape s = px_shape_sphere(1.0f);
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_ray ray = { { -3, 0, 0 }, { 1, 0, 0 }, INFINITY };
    px_ray_hit h;
#define RAY_BAD(shape, pose, r, expected)                                                                    \
    do                                                                                                       \
    {                                                                                                        \
        memset(&h, 0x5a, sizeof(h));                                                                         \
        PX_CHECK_STATUS(px_ray_cast_shape(shape, pose, r, &h), expected);                                    \
        PX_CHECK(ray_zeroed(&h));                                                                            \
    } while (0)
    PX_CHECK_STATUS(px_ray_cast_shape(&s, &id, &ray, NULL), PX_ERR_INVALID_ARGUMENT);
    RAY_BAD(NULL, &id, &ray, PX_ERR_INVALID_ARGUMENT);
    RAY_BAD(&s, NULL, &ray, PX_ERR_INVALID_ARGUMENT);
    RAY_BAD(&s, &id, NULL, PX_ERR_INVALID_ARGUMENT);
    px_ray r2 = ray;
    r2.origin[1] = NAN;
    RAY_BAD(&s, &id, &r2, PX_ERR_NON_FINITE);
    r2 = ray;
    r2.direction[2] = INFINITY;
    RAY_BAD(&s, &id, &r2, PX_ERR_NON_FINITE);
    r2 = ray;
    r2.direction[0] = 0.0f;
    RAY_BAD(&s, &id, &r2, PX_ERR_DEGENERATE_INPUT);
    r2 = ray;
    r2.max_t = -1.0f;
    RAY_BAD(&s, &id, &r2, PX_ERR_INVALID_ARGUMENT);
    r2.max_t = NAN;
    RAY_BAD(&s, &id, &r2, PX_ERR_INVALID_ARGUMENT);
    r2.max_t = -INFINITY;
    RAY_BAD(&s, &id, &r2, PX_ERR_INVALID_ARGUMENT);
    px_transform bad = id;
    bad.p[0] = NAN;
    RAY_BAD(&s, &bad, &ray, PX_ERR_NON_FINITE);
    bad = id;
    bad.q[3] = INFINITY;
    RAY_BAD(&s, &bad, &ray, PX_ERR_NON_FINITE);
    bad = id;
    bad.q[3] = 0.0f;
    RAY_BAD(&s, &bad, &ray, PX_ERR_DEGENERATE_INPUT);
    px_shape neg = px_shape_sphere(-1.0f);
    RAY_BAD(&neg, &id, &ray, PX_ERR_INVALID_ARGUMENT);
    px_shape nanr = px_shape_sphere(NAN);
    RAY_BAD(&nanr, &id, &ray, PX_ERR_NON_FINITE);
    const float he[3] = { 1, -1, 1 };
    px_shape nb = px_shape_box(he);
    RAY_BAD(&nb, &id, &ray, PX_ERR_INVALID_ARGUMENT);
    px_shape empty = px_shape_hull(NULL, 0);
    RAY_BAD(&empty, &id, &ray, PX_ERR_INVALID_ARGUMENT);
    const float pts[6] = { 0, 0, 0, NAN, 1, 1 };
    px_shape nh = px_shape_hull(pts, 2);
    RAY_BAD(&nh, &id, &ray, PX_ERR_NON_FINITE);
    px_shape user = px_shape_user(nan_support, NULL);
    RAY_BAD(&user, &id, &ray, PX_ERR_NON_FINITE);
    px_shape nouser = px_shape_user(NULL, NULL);
    RAY_BAD(&nouser, &id, &ray, PX_ERR_INVALID_ARGUMENT);
    /* a drifted but valid quaternion is normalized, not rejected */
    px_transform big = id;
    big.q[3] = 3.0f;
    PX_CHECK_STATUS(px_ray_cast_shape(&s, &big, &ray, &h), PX_OK);
    PX_CHECK(h.hit && h.t == 2.0f);
#undef RAY_BAD
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Shape casts */

static px_transform pose_plus(const px_transform* t, const double tr[3], double fraction)
{
    px_transform r = *t;
    double p[3];
    d3_from_f(t->p, p);
    for (int i = 0; i < 3; ++i)
    {
        r.p[i] = (float)(p[i] + fraction * tr[i]);
    }
    return r;
}

/* Distance between the shapes (radii included) with B moved by fraction * translation. */
static double sweep_distance(const px_shape* a, const px_transform* ta, const px_shape* b,
                             const px_transform* tb, const double tr[3], double fraction)
{
    px_transform t = pose_plus(tb, tr, fraction);
    px_gjk_result g;
    px_status s = px_gjk_distance_world(a, ta, b, &t, NULL, &g);
    return s >= 0 ? (double)g.distance : NAN;
}

static void print_cast(const char* label, const px_shape* a, const px_transform* ta, const px_shape* b,
                       const px_transform* tb, const float tr[3], const px_cast_result* r, px_status s)
{
    fprintf(stderr, "%s: types %d %d radii %a %a, status %s\n", label, (int)a->type, (int)b->type, a->radius,
            b->radius, px_status_string(s));
    fprintf(stderr, "  ta q (%a %a %a %a) p (%a %a %a)\n", ta->q[0], ta->q[1], ta->q[2], ta->q[3], ta->p[0],
            ta->p[1], ta->p[2]);
    fprintf(stderr, "  tb q (%a %a %a %a) p (%a %a %a)\n", tb->q[0], tb->q[1], tb->q[2], tb->q[3], tb->p[0],
            tb->p[1], tb->p[2]);
    fprintf(stderr, "  translation (%a %a %a)\n", tr[0], tr[1], tr[2]);
    fprintf(stderr,
            "  result hit %d initial %d fraction %.9g point (%g %g %g) normal (%g %g %g) iterations %d\n",
            r->hit, r->initial_overlap, r->fraction, r->point[0], r->point[1], r->point[2], r->normal[0],
            r->normal[1], r->normal[2], r->iterations);
}

/* Half diagonal of a shape's core bounding box plus its radius: the library's size measure S. */
static double cast_size(const px_shape* s)
{
    double m[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; ++i)
    {
        vec3 dir = { 0, 0, 0 }, hi, lo;
        dir[i] = 1.0f;
        (void)px_shape_support(s, dir, hi);
        dir[i] = -1.0f;
        (void)px_shape_support(s, dir, lo);
        m[i] = 0.5 * ((double)hi[i] - lo[i]) - s->radius; /* px_shape_support includes the radius */
    }
    return d3_norm(m) + s->radius;
}

/* The cast band the library uses with the default config, for shapes centred near their origins. */
static double cast_tol(const px_shape* a, const px_shape* b)
{
    double S = cast_size(a) + cast_size(b);
    return fmax(1e-5 * S, 64.0 * FLT_EPSILON * S);
}

/* Common checks of a cast result: finite, fraction in [0, 1], unit normal or zero on initial overlap,
 * nothing but iterations on a miss. */
static int check_cast_shape(const px_cast_result* r)
{
    PX_CHECK(finite3(r->point) && finite3(r->normal) && isfinite(r->fraction));
    if (!r->hit)
    {
        PX_CHECK(!r->initial_overlap && r->fraction == 0.0f);
        PX_CHECK(r->point[0] == 0.0f && r->point[1] == 0.0f && r->point[2] == 0.0f);
        PX_CHECK(r->normal[0] == 0.0f && r->normal[1] == 0.0f && r->normal[2] == 0.0f);
        return 0;
    }
    PX_CHECK(r->fraction >= 0.0f && r->fraction <= 1.0f);
    double n = sqrt((double)r->normal[0] * r->normal[0] + (double)r->normal[1] * r->normal[1] +
                    (double)r->normal[2] * r->normal[2]);
    if (r->initial_overlap)
    {
        PX_CHECK(r->fraction == 0.0f && n == 0.0);
    }
    else
    {
        PX_CHECK_NEAR(n, 1.0, 1e-5);
    }
    return 0;
}

/* Check a cast against its exact first contact lambda_star (< 0: no contact, with dmin the closest
 * approach) using distances along the sweep: not past the contact, within the band of it. */
static int check_cast_against(const char* label, const px_shape* a, const px_transform* ta, const px_shape* b,
                              const px_transform* tb, const float trf[3], double lambda_star, double dmin,
                              const px_cast_result* r, px_status s)
{
    double tr[3];
    d3_from_f(trf, tr);
    /* the band, plus the rounding of the float world poses the sweep is evaluated at */
    double coord = 0.0, pa[3], pb[3];
    d3_from_f(ta->p, pa);
    d3_from_f(tb->p, pb);
    for (int i = 0; i < 3; ++i)
    {
        coord = fmax(coord, fmax(fabs(pa[i]), fabs(pb[i]) + fabs(tr[i])));
    }
    double tol_lib = cast_tol(a, b), slack = 16.0 * FLT_EPSILON * coord;
    double tol = tol_lib + slack;
    double len = d3_norm(tr);
    int fail = 0;
    if (s != PX_OK || check_cast_shape(r) != 0)
    {
        fail = 1;
    }
    else if (lambda_star < 0.0)
    {
        /* no contact: a hit only within the band of the closest approach */
        if (r->hit && dmin > tol)
        {
            fail = 2;
        }
        if (!r->hit && dmin <= 0.4 * tol_lib - slack)
        {
            fail = 3;
        }
    }
    else if (!r->hit)
    {
        fail = 4;
    }
    else if (lambda_star == 0.0)
    {
        if (!r->initial_overlap)
        {
            fail = 5;
        }
    }
    else
    {
        /* not past: the shapes are apart just before the reported fraction, and the fraction is not
         * beyond the exact contact; not short: the distance there is within the band */
        double d_at = sweep_distance(a, ta, b, tb, tr, r->fraction);
        double back = fmax((double)r->fraction - tol / len, 0.0);
        double d_back = sweep_distance(a, ta, b, tb, tr, back);
        double gjk_acc = 4e-6 * (cast_size(a) + cast_size(b)) + 1e-6 * d_at;
        if ((double)r->fraction >
            lambda_star + (1e-5 * tol + 16.0 * FLT_EPSILON * coord) / len + 4.0 * FLT_EPSILON)
        {
            fail = 6;
        }
        else if (!(d_at <= 1.25 * tol + gjk_acc))
        {
            fail = 7;
        }
        else if (r->fraction > 0.0f && 16.0 * FLT_EPSILON * coord <= 0.1 * tol && !(d_back > 0.0))
        {
            fail = 8;
        }
        else if (r->initial_overlap && lambda_star > 1e-5 * tol / len && !(d_at <= tol))
        {
            /* an initial overlap the exact contact does not have: shapes touching within the band at the
             * start count (cast.h), as a sphere 5.2e-6 from a user octahedron did against a band of
             * 2.8e-5 (PX_TEST_SEED=196) */
            fail = 9;
        }
    }
    if (fail != 0)
    {
        fprintf(stderr, "%s: check %d failed: lambda* %.9g dmin %.9g tol %.3g\n", label, fail, lambda_star,
                dmin, tol);
        print_cast(label, a, ta, b, tb, trf, r, s);
        if (r->hit)
        {
            fprintf(stderr, "  distance at fraction %.9g\n", sweep_distance(a, ta, b, tb, tr, r->fraction));
        }
        return 1;
    }
    return 0;
}

/* Exact first contact of the sweep by bisection on px_gjk_distance_world: the distance is convex in the
 * fraction, so the minimum comes from a ternary search and the first zero from bisection before it.
 * Returns lambda* (0 when touching at the start) or -1 with *dmin the closest approach. */
static double bisect_contact(const px_shape* a, const px_transform* ta, const px_shape* b,
                             const px_transform* tb, const double tr[3], double* dmin)
{
    double d0 = sweep_distance(a, ta, b, tb, tr, 0.0);
    *dmin = d0;
    if (d0 == 0.0)
    {
        return 0.0;
    }
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 80; ++i)
    {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (sweep_distance(a, ta, b, tb, tr, m1) <= sweep_distance(a, ta, b, tb, tr, m2))
        {
            hi = m2;
        }
        else
        {
            lo = m1;
        }
    }
    double lm = 0.5 * (lo + hi);
    double dm = sweep_distance(a, ta, b, tb, tr, lm);
    double d1 = sweep_distance(a, ta, b, tb, tr, 1.0);
    if (d1 < dm)
    {
        lm = 1.0;
        dm = d1;
    }
    *dmin = dm;
    if (dm > 0.0)
    {
        return -1.0;
    }
    lo = 0.0;
    hi = lm;
    for (int i = 0; i < 80; ++i)
    {
        double m = 0.5 * (lo + hi);
        if (sweep_distance(a, ta, b, tb, tr, m) > 0.0)
        {
            lo = m;
        }
        else
        {
            hi = m;
        }
    }
    return hi;
}

/* Random hull pairs (some rounded) vs bisection. */
static int cast_random_hulls(void)
{
    px_rng rng = px_rng_seeded(0xCA57);
    int hits = 0, misses = 0, initial = 0, n_pairs = 1500;
    for (int pair = 0; pair < n_pairs; ++pair)
    {
        float pa[3 * 12], pb[3 * 12];
        int na = 4 + px_rng_int(&rng, 9), nb = 4 + px_rng_int(&rng, 9);
        double ea[3], eb[3];
        for (int i = 0; i < 3; ++i)
        {
            ea[i] = urand(&rng, 0.2, 2.0);
            eb[i] = urand(&rng, 0.2, 2.0);
        }
        for (int k = 0; k < na; ++k)
        {
            double u[3];
            px_rng_unit_vector(&rng, u);
            for (int i = 0; i < 3; ++i)
            {
                pa[3 * k + i] = (float)(u[i] * ea[i]);
            }
        }
        for (int k = 0; k < nb; ++k)
        {
            double u[3];
            px_rng_unit_vector(&rng, u);
            for (int i = 0; i < 3; ++i)
            {
                pb[3 * k + i] = (float)(u[i] * eb[i]);
            }
        }
        px_shape a = px_shape_hull(pa, na), b = px_shape_hull(pb, nb);
        if (px_rng_int(&rng, 3) == 0)
        {
            a.radius = (float)urand(&rng, 0.0, 0.3);
            b.radius = (float)urand(&rng, 0.0, 0.3);
        }
        dpose da, db;
        random_quat(&rng, da.q);
        random_quat(&rng, db.q);
        double off = pair % 10 == 0 ? 1e3 : 0.0;
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = off + urand(&rng, -1.0, 1.0);
        }
        double dir[3];
        px_rng_unit_vector(&rng, dir);
        double dist = urand(&rng, 0.0, 8.0);
        for (int i = 0; i < 3; ++i)
        {
            db.p[i] = da.p[i] + dist * dir[i];
        }
        double target[3], tr[3];
        for (int i = 0; i < 3; ++i)
        {
            target[i] = da.p[i] + urand(&rng, -2.0, 2.0);
        }
        d3_sub(target, db.p, tr);
        double k = urand(&rng, 0.3, 2.5);
        for (int i = 0; i < 3; ++i)
        {
            tr[i] *= k;
        }
        px_transform ta = to_px(&da), tb = to_px(&db);
        float trf[3];
        d3_to_f(tr, trf);
        double trd[3];
        d3_from_f(trf, trd);
        px_cast_result r;
        px_status s = px_shape_cast_world(&a, &ta, &b, &tb, trf, NULL, &r);
        double dmin;
        double ls = bisect_contact(&a, &ta, &b, &tb, trd, &dmin);
        if (check_cast_against("random hulls", &a, &ta, &b, &tb, trf, ls, dmin, &r, s) != 0)
        {
            fprintf(stderr, "  pair %d\n", pair);
            return 1;
        }
        hits += r.hit && !r.initial_overlap;
        initial += r.initial_overlap;
        misses += !r.hit;
    }
    printf("    hull pairs %d: hits %d initial overlaps %d misses %d\n", n_pairs, hits, initial, misses);
    PX_CHECK(hits > n_pairs / 5 && misses > n_pairs / 5 && initial > n_pairs / 50);
    return 0;
}

/* Distance from p to the solid box of half extents h (0 inside). */
static double box_distance(const double h[3], const double p[3])
{
    double s = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        double e = fabs(p[i]) - h[i];
        s += e > 0.0 ? e * e : 0.0;
    }
    return sqrt(s);
}

/* Signed distance from p to the surface of the box (negative inside). */
static double box_signed_distance(const double h[3], const double p[3])
{
    double out = box_distance(h, p);
    if (out > 0.0)
    {
        return out;
    }
    double m = -INFINITY;
    for (int i = 0; i < 3; ++i)
    {
        m = fmax(m, fabs(p[i]) - h[i]);
    }
    return m;
}

/* Minimum over [0, 1] of a convex function of lambda, by ternary search. */
typedef double (*sweep_fn)(const void* ctx, double lambda);

static double convex_min(sweep_fn f, const void* ctx)
{
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 100; ++i)
    {
        double m1 = lo + (hi - lo) / 3.0, m2 = hi - (hi - lo) / 3.0;
        if (f(ctx, m1) <= f(ctx, m2))
        {
            hi = m2;
        }
        else
        {
            lo = m1;
        }
    }
    return fmin(f(ctx, 0.5 * (lo + hi)), fmin(f(ctx, 0.0), f(ctx, 1.0)));
}

typedef struct sphere_box_ctx
{
    double h[3], r, c0[3], tr[3]; /* in the box's frame */
} sphere_box_ctx;

static double sphere_box_distance(const void* ctx, double lambda)
{
    const sphere_box_ctx* c = (const sphere_box_ctx*)ctx;
    double p[3];
    d3_mad(c->c0, lambda, c->tr, p);
    return box_distance(c->h, p) - c->r;
}

/* Sphere-sphere: the contact is the entry of B's centre into the ball of radius rA + rB. */
static int cast_sphere_sphere(void)
{
    px_rng rng = px_rng_seeded(0x5F5F);
    int hits = 0;
    for (int n = 0; n < 2000; ++n)
    {
        float ra = (float)urand(&rng, 0.1, 2.0), rb = (float)urand(&rng, 0.1, 2.0);
        px_shape a = px_shape_sphere(ra), b = px_shape_sphere(rb);
        dpose da, db;
        random_quat(&rng, da.q);
        random_quat(&rng, db.q);
        double off = n % 4 == 0 ? 1e3 : 0.0;
        double tr[3];
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = off + urand(&rng, -1.0, 1.0);
            db.p[i] = da.p[i] + urand(&rng, -6.0, 6.0);
            tr[i] = (da.p[i] - db.p[i]) * urand(&rng, 0.2, 2.0) + urand(&rng, -2.0, 2.0);
        }
        px_transform ta = to_px(&da), tb = to_px(&db);
        float trf[3];
        d3_to_f(tr, trf);
        d3_from_f(trf, tr);
        double ca[3], cb[3];
        d3_from_f(ta.p, ca);
        d3_from_f(tb.p, cb);
        ref_hit ref = ref_from(iv_ball(ca, (double)ra + rb, cb, tr), 1.0);
        double rel[3];
        d3_sub(cb, ca, rel);
        double lc = fmin(fmax(-d3_dot(rel, tr) / d3_dot(tr, tr), 0.0), 1.0);
        double closest[3];
        d3_mad(rel, lc, tr, closest);
        double dmin = d3_norm(closest) - ra - rb;
        double ls = ref.kind < 0 ? -1.0 : ref.t;
        px_cast_result r;
        px_status s = px_shape_cast_world(&a, &ta, &b, &tb, trf, NULL, &r);
        if (check_cast_against("sphere-sphere", &a, &ta, &b, &tb, trf, ls, dmin, &r, s) != 0)
        {
            return 1;
        }
        if (r.hit && !r.initial_overlap)
        {
            ++hits;
            /* the normal is the centre line at the reported fraction; the point is on A's sphere */
            double cc[3], n_exp[3], nr[3], pt[3], pc[3];
            d3_mad(rel, (double)r.fraction, tr, cc);
            double lcc = d3_norm(cc);
            for (int i = 0; i < 3; ++i)
            {
                n_exp[i] = cc[i] / lcc;
            }
            d3_from_f(r.normal, nr);
            PX_CHECK(d3_dot(nr, n_exp) >= 1.0 - 1e-6);
            d3_from_f(r.point, pt);
            d3_sub(pt, ca, pc);
            double tol = cast_tol(&a, &b);
            PX_CHECK_NEAR(d3_norm(pc), ra, 2.0 * tol + 1e-6 * off);
            double cosang = -d3_dot(n_exp, tr) / d3_norm(tr);
            if (cosang > 0.1)
            {
                PX_CHECK_NEAR(r.fraction, ref.t, (tol / cosang) / d3_norm(tr) + 1e-7);
            }
        }
    }
    PX_CHECK(hits > 300);
    return 0;
}

/* Sphere-box: the sphere's centre enters the rounded box (box + sphere radius). */
static int cast_sphere_box(void)
{
    px_rng rng = px_rng_seeded(0x5B0C);
    int hits = 0;
    for (int n = 0; n < 2000; ++n)
    {
        float he[3];
        sphere_box_ctx ctx;
        for (int i = 0; i < 3; ++i)
        {
            he[i] = (float)urand(&rng, 0.1, 2.0);
            ctx.h[i] = he[i];
        }
        float rb = (float)urand(&rng, 0.05, 1.5);
        ctx.r = rb;
        px_shape a = px_shape_box(he), b = px_shape_sphere(rb);
        dpose da, db;
        random_quat(&rng, da.q);
        random_quat(&rng, db.q);
        double tr[3];
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = urand(&rng, -1.0, 1.0);
            db.p[i] = da.p[i] + urand(&rng, -6.0, 6.0);
            tr[i] = (da.p[i] - db.p[i]) * urand(&rng, 0.2, 2.0) + urand(&rng, -2.0, 2.0);
        }
        px_transform ta = to_px(&da), tb = to_px(&db);
        float trf[3];
        d3_to_f(tr, trf);
        d3_from_f(trf, tr);
        dpose sa = from_px(&ta);
        double cbw[3];
        d3_from_f(tb.p, cbw);
        dpose_point_inv(&sa, cbw, ctx.c0);
        dquat_rotate_inv(sa.q, tr, ctx.tr);
        ref_hit ref = ref_from(iv_rounded_box(ctx.h, ctx.r, ctx.c0, ctx.tr), 1.0);
        double dmin = convex_min(sphere_box_distance, &ctx);
        px_cast_result r;
        px_status s = px_shape_cast_world(&a, &ta, &b, &tb, trf, NULL, &r);
        if (check_cast_against("sphere-box", &a, &ta, &b, &tb, trf, ref.kind < 0 ? -1.0 : ref.t, dmin, &r,
                               s) != 0)
        {
            return 1;
        }
        if (r.hit && !r.initial_overlap)
        {
            ++hits;
            /* the point is on the box's surface, and within the sphere's reach at the fraction */
            double pw[3], pl[3], cl[3];
            d3_from_f(r.point, pw);
            dpose_point_inv(&sa, pw, pl);
            double tol = cast_tol(&a, &b);
            PX_CHECK(fabs(box_signed_distance(ctx.h, pl)) <= 2.0 * tol);
            d3_mad(ctx.c0, r.fraction, ctx.tr, cl);
            double dc[3];
            d3_sub(cl, pl, dc);
            PX_CHECK_NEAR(d3_norm(dc), rb, 2.0 * tol);
        }
    }
    PX_CHECK(hits > 300);
    return 0;
}

/* Box-box face-on: B moves along A's x axis towards it, faces parallel; contact after gap / speed. */
static int cast_box_box_face_on(void)
{
    px_rng rng = px_rng_seeded(0xB0B0);
    for (int n = 0; n < 500; ++n)
    {
        float ha[3], hb[3];
        for (int i = 0; i < 3; ++i)
        {
            ha[i] = (float)urand(&rng, 0.2, 2.0);
            hb[i] = (float)urand(&rng, 0.2, 2.0);
        }
        px_shape a = px_shape_box(ha), b = px_shape_box(hb);
        dpose da;
        random_quat(&rng, da.q);
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = n % 5 == 0 ? 1e3 : urand(&rng, -5.0, 5.0);
        }
        double gap = urand(&rng, 0.01, 4.0), speed = gap * urand(&rng, 0.5, 3.0);
        double side = px_rng_int(&rng, 2) ? 1.0 : -1.0;
        /* B's centre in A's frame: beyond A's x face, laterally within the face overlap */
        double cl[3] = { side * ((double)ha[0] + hb[0] + gap), urand(&rng, -0.9, 0.9) * fmin(ha[1], hb[1]),
                         urand(&rng, -0.9, 0.9) * fmin(ha[2], hb[2]) };
        double cw[3], tl[3] = { -side * speed, 0.0, 0.0 }, tw[3];
        dpose_point(&da, cl, cw);
        dquat_rotate(da.q, tl, tw);
        dpose db = da;
        memcpy(db.p, cw, sizeof(cw));
        px_transform ta = to_px(&da), tb = to_px(&db);
        float trf[3];
        d3_to_f(tw, trf);
        px_cast_result r;
        PX_CHECK_STATUS(px_shape_cast_world(&a, &ta, &b, &tb, trf, NULL, &r), PX_OK);
        PX_CHECK(check_cast_shape(&r) == 0);
        /* the gap and speed the float poses actually give (B's rotation equals A's) */
        {
            dpose sa = from_px(&ta);
            double pbw[3], pbl[3], trd[3], trl[3];
            d3_from_f(tb.p, pbw);
            dpose_point_inv(&sa, pbw, pbl);
            d3_from_f(trf, trd);
            dquat_rotate_inv(sa.q, trd, trl);
            gap = side * pbl[0] - ha[0] - hb[0];
            speed = -side * trl[0];
        }
        double ls = speed >= gap ? gap / speed : -1.0;
        double tol = cast_tol(&a, &b) + 8.0 * FLT_EPSILON * 1e3;
        if (ls < 0.0)
        {
            /* falling short: a miss, unless the end is within the band of the face */
            PX_CHECK(!r.hit || gap - speed <= tol);
            continue;
        }
        PX_CHECK(r.hit && !r.initial_overlap);
        /* never past, at most the band short (in fraction: tol / speed, face-on) */
        PX_CHECK(r.fraction <= ls + 1e-6);
        PX_CHECK(r.fraction >= ls - tol / speed - 1e-6);
        double nl[3], nw[3];
        d3_from_f(r.normal, nw);
        dquat_rotate_inv(da.q, nw, nl);
        PX_CHECK(nl[0] * side >= 1.0 - 1e-5);
        double pl[3], pw[3];
        d3_from_f(r.point, pw);
        dpose_point_inv(&da, pw, pl);
        PX_CHECK_NEAR(pl[0], side * ha[0], 2.0 * tol);
    }
    return 0;
}

/* Capsules crossing at right angles and parallel: the segment distance is the offset along x. */
static int cast_capsule_capsule(void)
{
    px_rng rng = px_rng_seeded(0xCAC0);
    for (int n = 0; n < 1000; ++n)
    {
        float hA = (float)urand(&rng, 0.1, 2.0), hB = (float)urand(&rng, 0.1, 2.0);
        float rA = (float)urand(&rng, 0.05, 1.0), rB = (float)urand(&rng, 0.05, 1.0);
        px_shape a = px_shape_capsule(hA, rA), b = px_shape_capsule(hB, rB);
        bool crossing = n % 2 == 0;
        dpose common;
        random_quat(&rng, common.q);
        for (int i = 0; i < 3; ++i)
        {
            common.p[i] = n % 7 == 0 ? -1e3 : urand(&rng, -3.0, 3.0);
        }
        double x0 = (double)rA + rB + urand(&rng, 0.01, 3.0);
        double side = px_rng_int(&rng, 2) ? 1.0 : -1.0;
        /* B in A's frame */
        dpose bl;
        if (crossing)
        {
            dquat_axis_angle(1, 0, 0, 0.5 * CAST_PI, bl.q); /* B's axis along z */
            bl.p[0] = side * x0;
            bl.p[1] = urand(&rng, -0.95, 0.95) * hA;
            bl.p[2] = urand(&rng, -0.95, 0.95) * hB;
        }
        else
        {
            bl.q[0] = bl.q[1] = bl.q[2] = 0.0;
            bl.q[3] = 1.0;
            bl.p[0] = side * x0;
            bl.p[1] = urand(&rng, -0.95, 0.95) * ((double)hA + hB);
            bl.p[2] = 0.0;
        }
        double speed = (x0 - rA - rB) * urand(&rng, 0.5, 3.0);
        double tl[3] = { -side * speed, 0.0, 0.0 }, tw[3];
        dpose db;
        dquat_mul(common.q, bl.q, db.q);
        dpose_point(&common, bl.p, db.p);
        dquat_rotate(common.q, tl, tw);
        px_transform ta = to_px(&common), tb = to_px(&db);
        float trf[3];
        d3_to_f(tw, trf);
        px_cast_result r;
        PX_CHECK_STATUS(px_shape_cast_world(&a, &ta, &b, &tb, trf, NULL, &r), PX_OK);
        PX_CHECK(check_cast_shape(&r) == 0);
        /* the offset and speed the float poses actually give */
        {
            dpose sa = from_px(&ta);
            double pbw[3], pbl[3], trd[3], trl[3];
            d3_from_f(tb.p, pbw);
            dpose_point_inv(&sa, pbw, pbl);
            d3_from_f(trf, trd);
            dquat_rotate_inv(sa.q, trd, trl);
            x0 = side * pbl[0];
            speed = -side * trl[0];
        }
        double gap = x0 - rA - rB;
        double tol = cast_tol(&a, &b) + 16.0 * FLT_EPSILON * 1e3;
        if (speed < gap)
        {
            /* falling short: a miss, unless the end is within the band */
            PX_CHECK(!r.hit || gap - speed <= tol);
            continue;
        }
        PX_CHECK(r.hit && !r.initial_overlap);
        PX_CHECK(r.fraction <= gap / speed + 1e-6);
        PX_CHECK(r.fraction >= (gap - tol) / speed - 1e-6);
        double nw[3], nl[3];
        d3_from_f(r.normal, nw);
        dquat_rotate_inv(common.q, nw, nl);
        PX_CHECK(nl[0] * side >= 1.0 - 1e-4);
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Sliding, overlap, misses */

/* Jolt #2049 / PR #2050: B sliding along a face of A. A normal perpendicular to the motion must not be
 * taken for a back face: touching at the start (within the band) is a hit, a gap beyond the band a miss,
 * and reaching A's edge while level with its face is a hit with a unit normal. */
static int cast_sliding(void)
{
    const float ha[3] = { 1, 1, 1 }, hb[3] = { 0.5f, 0.5f, 0.5f };
    px_shape a = px_shape_box(ha), b = px_shape_box(hb);
    px_shape hb_hull;
    float cube[24];
    for (int c = 0; c < 8; ++c)
    {
        for (int i = 0; i < 3; ++i)
        {
            cube[3 * c + i] = (c >> i) & 1 ? hb[i] : -hb[i];
        }
    }
    hb_hull = px_shape_hull(cube, 8);
    double tol = cast_tol(&a, &b);
    px_rng rng = px_rng_seeded(0x2049);
    /* fraction at which B (half 0.5), placed by the float pose tb, reaches A's x = -1 face */
#define EDGE_FRACTION(ta_, tb_, trf_, out_)                                                                  \
    do                                                                                                       \
    {                                                                                                        \
        dpose sa_ = from_px(&(ta_));                                                                         \
        double pw_[3], pl_[3], td_[3], tl_[3];                                                               \
        d3_from_f((tb_).p, pw_);                                                                             \
        dpose_point_inv(&sa_, pw_, pl_);                                                                     \
        d3_from_f(trf_, td_);                                                                                \
        dquat_rotate_inv(sa_.q, td_, tl_);                                                                      \
        out_ = (-1.0 - (pl_[0] + 0.5)) / tl_[0];                                                             \
    } while (0)
    for (int trial = 0; trial < 40; ++trial)
    {
        /* a common pose: identity first, then random rotations and offsets */
        dpose common = { { 0, 0, 0, 1 }, { 0, 0, 0 } };
        if (trial > 0)
        {
            random_quat(&rng, common.q);
            for (int i = 0; i < 3; ++i)
            {
                common.p[i] = trial % 3 == 0 ? 500.0 : urand(&rng, -5, 5);
            }
        }
        const px_shape* bs = trial % 2 ? &hb_hull : &b;
        /* gaps: exactly touching, a quarter of the band, ten bands, 1e-3 */
        const double gaps[4] = { 0.0, 0.25 * tol, 10.0 * tol, 1e-3 };
        for (int g = 0; g < 4; ++g)
        {
            double bl[3] = { -3.0, 1.5 + gaps[g], 0.2 }, tl[3] = { 6.0, 0.0, 0.0 };
            double bw[3], tw[3];
            dpose_point(&common, bl, bw);
            dquat_rotate(common.q, tl, tw);
            dpose db = common;
            memcpy(db.p, bw, sizeof(bw));
            px_transform ta = to_px(&common), tb = to_px(&db);
            float trf[3];
            d3_to_f(tw, trf);
            px_cast_result r;
            px_status s = px_shape_cast_world(&a, &ta, bs, &tb, trf, NULL, &r);
            PX_CHECK_STATUS(s, PX_OK);
            PX_CHECK(check_cast_shape(&r) == 0);
            double slack = trial % 3 == 0 ? 64.0 * FLT_EPSILON * 500.0 : 0.0;
            double fe;
            EDGE_FRACTION(ta, tb, trf, fe);
            if (gaps[g] + slack <= 0.25 * tol)
            {
                /* level with the face: the edge is reached at x-gap 1.5 of 6 */
                if (!(r.hit && !r.initial_overlap && r.fraction <= fe + 1e-6 && r.fraction >= fe - 1e-4))
                {
                    print_cast("sliding level", &a, &ta, bs, &tb, trf, &r, s);
                    return 1;
                }
            }
            else if (gaps[g] > 4.0 * tol + slack)
            {
                if (r.hit)
                {
                    print_cast("sliding above", &a, &ta, bs, &tb, trf, &r, s);
                    return 1;
                }
            }
            /* starting on the face (x overlapping), sliding along it */
            double bl2[3] = { -0.3, 1.5 + gaps[g], 0.2 };
            dpose_point(&common, bl2, bw);
            memcpy(db.p, bw, sizeof(bw));
            tb = to_px(&db);
            s = px_shape_cast_world(&a, &ta, bs, &tb, trf, NULL, &r);
            PX_CHECK_STATUS(s, PX_OK);
            PX_CHECK(check_cast_shape(&r) == 0);
            if (gaps[g] + slack <= 0.25 * tol)
            {
                PX_CHECK(r.hit && r.initial_overlap && r.fraction == 0.0f);
            }
            else if (gaps[g] > 4.0 * tol + slack)
            {
                PX_CHECK(!r.hit);
            }
            /* slightly lower than A's top: B meets A's side face, normal along -x (A to B) */
            double bl3[3] = { -3.0, 1.5 - 1e-3, 0.2 };
            dpose_point(&common, bl3, bw);
            memcpy(db.p, bw, sizeof(bw));
            tb = to_px(&db);
            s = px_shape_cast_world(&a, &ta, bs, &tb, trf, NULL, &r);
            PX_CHECK_STATUS(s, PX_OK);
            PX_CHECK(check_cast_shape(&r) == 0);
            PX_CHECK(r.hit && !r.initial_overlap);
            EDGE_FRACTION(ta, tb, trf, fe);
            PX_CHECK(r.fraction <= fe + 1e-6 && r.fraction >= fe - 1e-4);
            double nw[3], nl[3];
            d3_from_f(r.normal, nw);
            dquat_rotate_inv(common.q, nw, nl);
            PX_CHECK(nl[0] <= -0.999);
        }
    }
#undef EDGE_FRACTION
    return 0;
}

static int cast_overlap_and_misses(void)
{
    const float h[3] = { 1, 1, 1 };
    px_shape box = px_shape_box(h), sphere = px_shape_sphere(0.5f);
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_cast_result r;
    const float zero[3] = { 0, 0, 0 }, away[3] = { 5, 0, 0 }, towards[3] = { -5, 0, 0 };
    /* overlapping: hit at 0 whatever the motion, zero normal, a point inside both */
    px_transform tb = px_at(1.2f, 0.3f, 0);
    const float* motions[3] = { zero, away, towards };
    for (int m = 0; m < 3; ++m)
    {
        PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, motions[m], NULL, &r), PX_OK);
        PX_CHECK(check_cast_shape(&r) == 0);
        PX_CHECK(r.hit && r.initial_overlap && r.fraction == 0.0f);
        PX_CHECK(r.point[0] >= 0.7f - 1e-5f && r.point[0] <= 1.0f + 1e-5f);
    }
    /* exactly touching (face to sphere): initial overlap */
    tb = px_at(1.5f, 0.3f, 0);
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, away, NULL, &r), PX_OK);
    PX_CHECK(r.hit && r.initial_overlap);
    /* zero translation, apart: the overlap test says no */
    tb = px_at(1.6f, 0.3f, 0);
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, zero, NULL, &r), PX_OK);
    PX_CHECK(!r.hit && check_cast_shape(&r) == 0);
    /* moving away, passing by, falling short */
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, away, NULL, &r), PX_OK);
    PX_CHECK(!r.hit && check_cast_shape(&r) == 0);
    tb = px_at(5.0f, 2.0f, 0);
    const float past[3] = { -10, 0, 0 }, short_of[3] = { -3.45f, 0, 0 }, reach[3] = { -3.55f, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, past, NULL, &r), PX_OK);
    PX_CHECK(!r.hit);
    tb = px_at(5.0f, 0.0f, 0);
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, short_of, NULL, &r), PX_OK);
    PX_CHECK(!r.hit);
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, reach, NULL, &r), PX_OK);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK_NEAR(r.fraction, 3.5 / 3.55, 1e-4);
    PX_CHECK(r.iterations > 0);
    /* random overlapping hull pairs: initial overlap for any translation, zero included */
    px_rng rng = px_rng_seeded(0x0E0E);
    for (int n = 0; n < 300; ++n)
    {
        /* the six axis points make each hull contain a ball of radius 1/sqrt(3), so offsets below
         * 0.3 sqrt(3) overlap for sure; four random points on the unit sphere make them irregular */
        float pa[30], pb[30];
        for (int k = 0; k < 10; ++k)
        {
            double u[3] = { 0, 0, 0 }, w[3] = { 0, 0, 0 };
            if (k < 6)
            {
                u[k / 2] = w[k / 2] = k % 2 ? 1.0 : -1.0;
            }
            else
            {
                px_rng_unit_vector(&rng, u);
                px_rng_unit_vector(&rng, w);
            }
            d3_to_f(u, &pa[3 * k]);
            d3_to_f(w, &pb[3 * k]);
        }
        px_shape a = px_shape_hull(pa, 10), b = px_shape_hull(pb, 10);
        dpose da, db;
        random_quat(&rng, da.q);
        random_quat(&rng, db.q);
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = urand(&rng, -1, 1);
            db.p[i] = da.p[i] + urand(&rng, -0.3, 0.3);
        }
        px_transform ta = to_px(&da), tbb = to_px(&db);
        float tr[3] = { (float)urand(&rng, -3, 3), (float)urand(&rng, -3, 3), (float)urand(&rng, -3, 3) };
        if (n % 3 == 0)
        {
            tr[0] = tr[1] = tr[2] = 0.0f;
        }
        PX_CHECK_STATUS(px_shape_cast_world(&a, &ta, &b, &tbb, tr, NULL, &r), PX_OK);
        PX_CHECK(check_cast_shape(&r) == 0);
        PX_CHECK(r.hit && r.initial_overlap);
        /* the point is in both shapes (within the band) */
        px_shape pt = px_shape_point();
        px_transform tp = px_at(r.point[0], r.point[1], r.point[2]);
        px_gjk_result g1, g2;
        PX_CHECK_STATUS(px_gjk_distance_world(&a, &ta, &pt, &tp, NULL, &g1), PX_OK);
        PX_CHECK_STATUS(px_gjk_distance_world(&b, &tbb, &pt, &tp, NULL, &g2), PX_OK);
        PX_CHECK(g1.distance <= 1e-4f && g2.distance <= 1e-4f);
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* KNOWN_FAILURES.md 2.5 */

/* Bullet #596: a sphere swept past a box rotated by (-8, 70, 0) degrees near (100, 100, 100); the hit
 * point was 10 m off. It must be on the box, within the sphere's reach, at the exact fraction. */
static int bullet_596_rotated_box(void)
{
    double qx[4], qy[4], q[4];
    dquat_axis_angle(1, 0, 0, -8.0 * CAST_PI / 180.0, qx);
    dquat_axis_angle(0, 1, 0, 70.0 * CAST_PI / 180.0, qy);
    dquat_mul(qx, qy, q);
    const float he[3] = { 2.5f, 0.5f, 1.5f };
    px_shape box = px_shape_box(he);
    dpose da = { { q[0], q[1], q[2], q[3] }, { 100, 100, 100 } };
    px_transform ta = to_px(&da);
    dpose sa = from_px(&ta);
    double h[3] = { he[0], he[1], he[2] };
    int hits = 0;
    for (int i = -4; i <= 4; ++i)
    {
        for (int j = -4; j <= 4; ++j)
        {
            float r = 0.5f;
            px_shape sphere = px_shape_sphere(r);
            px_transform tb = px_at(100.0f + 0.6f * (float)i, 108.0f, 100.0f + 0.6f * (float)j);
            const float tr[3] = { 0.05f * (float)i, -16.0f, 0.0f };
            px_cast_result res;
            PX_CHECK_STATUS(px_shape_cast_world(&box, &ta, &sphere, &tb, tr, NULL, &res), PX_OK);
            PX_CHECK(check_cast_shape(&res) == 0);
            double c0w[3], c0[3], trd[3], trl[3];
            d3_from_f(tb.p, c0w);
            dpose_point_inv(&sa, c0w, c0);
            d3_from_f(tr, trd);
            dquat_rotate_inv(sa.q, trd, trl);
            ref_hit ref = ref_from(iv_rounded_box(h, r, c0, trl), 1.0);
            PX_CHECK(res.hit == (ref.kind == 1));
            if (!res.hit)
            {
                continue;
            }
            ++hits;
            double tol = cast_tol(&box, &sphere) + 64.0 * FLT_EPSILON * 100.0;
            PX_CHECK(res.fraction <= ref.t + 1e-6);
            PX_CHECK(res.fraction >= ref.t - 2.0 * tol / 16.0);
            double pw[3], pl[3], cl[3], dc[3];
            d3_from_f(res.point, pw);
            dpose_point_inv(&sa, pw, pl);
            PX_CHECK(fabs(box_signed_distance(h, pl)) <= 2.0 * tol);
            d3_mad(c0, res.fraction, trl, cl);
            d3_sub(cl, pl, dc);
            PX_CHECK_NEAR(d3_norm(dc), r, 2.0 * tol);
        }
    }
    PX_CHECK(hits > 40);
    return 0;
}

/* Jolt PR #217: the cast normal was zero when GJK stopped in its first iteration. Here the start guess is
 * already the contact axis, so one plane decides: the normal must still be unit and right. */
static int jolt_217_first_iteration_normal(void)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_cast_result r;
    px_shape s1 = px_shape_sphere(1.0f), s2 = px_shape_sphere(0.5f);
    px_transform tb = px_at(5, 0, 0);
    const float tr[3] = { -10, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&s1, &id, &s2, &tb, tr, NULL, &r), PX_OK);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK_NEAR(r.fraction, 0.35, 1e-5);
    PX_CHECK_NEAR(r.normal[0], 1.0, 1e-6);
    PX_CHECK(r.iterations <= 4);
    const float h[3] = { 1, 1, 1 };
    px_shape b1 = px_shape_box(h), b2 = px_shape_box(h);
    PX_CHECK_STATUS(px_shape_cast_world(&b1, &id, &b2, &tb, tr, NULL, &r), PX_OK);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK_NEAR(r.fraction, 0.3, 1e-5);
    PX_CHECK_NEAR(r.normal[0], 1.0, 1e-6);
    PX_CHECK(r.iterations <= 6);
    /* point against a face, and rays, the same way */
    px_shape pt = px_shape_point();
    PX_CHECK_STATUS(px_shape_cast_world(&b1, &id, &pt, &tb, tr, NULL, &r), PX_OK);
    PX_CHECK(r.hit);
    PX_CHECK_NEAR(r.fraction, 0.4, 1e-5);
    PX_CHECK_NEAR(r.normal[0], 1.0, 1e-6);
    PX_CHECK_NEAR(r.point[0], 1.0, 1e-5);
    return 0;
}

/* Bullet #93: degenerate simplices during the cast (flat or collinear Minkowski differences). */
static int bullet_93_degenerate_simplices(void)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_cast_result r;
    /* collinear segments: B slides along the line into A */
    const float a0[3] = { 0, 0, 0 }, a1[3] = { 1, 0, 0 }, b0[3] = { -1, 0, 0 }, b1[3] = { 0, 0, 0 };
    px_shape sa = px_shape_segment(a0, a1), sb = px_shape_segment(b0, b1);
    px_transform tb = px_at(-2, 0, 0);
    const float tr[3] = { 4, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&sa, &id, &sb, &tb, tr, NULL, &r), PX_OK);
    PX_CHECK(check_cast_shape(&r) == 0);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK(r.fraction <= 0.5f + 1e-6f && r.fraction >= 0.5f - 1e-4f);
    PX_CHECK_NEAR(r.normal[0], -1.0, 1e-5);
    /* coplanar triangles sliding into each other in their plane */
    const float t0[3] = { 0, 0, 0 }, t1[3] = { 1, 0, 0 }, t2[3] = { 0, 0, 1 };
    const float u0[3] = { 0, 0, 0 }, u1[3] = { -1, 0, 0 }, u2[3] = { 0, 0, -1 };
    px_shape ta = px_shape_triangle(t0, t1, t2), tb2 = px_shape_triangle(u0, u1, u2);
    tb = px_at(-1, 0, -1);
    const float tr2[3] = { 2, 0, 2 };
    PX_CHECK_STATUS(px_shape_cast_world(&ta, &id, &tb2, &tb, tr2, NULL, &r), PX_OK);
    PX_CHECK(check_cast_shape(&r) == 0);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK(r.fraction <= 0.5f + 1e-6f && r.fraction >= 0.5f - 1e-4f);
    /* a point through a point, and just past it */
    px_shape p = px_shape_point();
    tb = px_at(-1, 0, 0);
    const float tr3[3] = { 2, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&p, &id, &p, &tb, tr3, NULL, &r), PX_OK);
    PX_CHECK(r.hit && check_cast_shape(&r) == 0);
    PX_CHECK(r.fraction <= 0.5f + 1e-6f && r.fraction >= 0.5f - 1e-5f);
    tb = px_at(-1, 1e-3f, 0);
    PX_CHECK_STATUS(px_shape_cast_world(&p, &id, &p, &tb, tr3, NULL, &r), PX_OK);
    PX_CHECK(!r.hit);
    /* hulls of duplicate and collinear points against a box, and a flat box against a flat box */
    const float dup[12] = { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f };
    const float col[12] = { 0, -1, 0, 0, 1, 0, 0, 0.5f, 0, 0, -0.25f, 0 };
    const float h[3] = { 1, 1, 1 }, flat[3] = { 1, 0, 1 };
    px_shape box = px_shape_box(h), hd = px_shape_hull(dup, 4), hc = px_shape_hull(col, 4);
    px_shape fa = px_shape_box(flat), fb = px_shape_box(flat);
    tb = px_at(4, 0, 0);
    const float tr4[3] = { -4, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &hd, &tb, tr4, NULL, &r), PX_OK);
    PX_CHECK(r.hit && check_cast_shape(&r) == 0);
    PX_CHECK(r.fraction <= 3.5f / 4.0f + 1e-6f && r.fraction >= 3.5f / 4.0f - 1e-4f);
    PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &hc, &tb, tr4, NULL, &r), PX_OK);
    PX_CHECK(r.hit && check_cast_shape(&r) == 0);
    PX_CHECK(r.fraction <= 0.75f + 1e-6f && r.fraction >= 0.75f - 1e-4f);
    PX_CHECK_NEAR(r.normal[0], 1.0, 1e-5);
    PX_CHECK_STATUS(px_shape_cast_world(&fa, &id, &fb, &tb, tr4, NULL, &r), PX_OK);
    PX_CHECK(r.hit && check_cast_shape(&r) == 0);
    PX_CHECK(r.fraction <= 0.5f + 1e-6f && r.fraction >= 0.5f - 1e-4f);
    /* flat box falling onto a flat box (coplanar faces meet) */
    tb = px_at(0.5f, 3, 0.5f);
    const float down[3] = { 0, -6, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&fa, &id, &fb, &tb, down, NULL, &r), PX_OK);
    PX_CHECK(r.hit && check_cast_shape(&r) == 0);
    PX_CHECK(r.fraction <= 0.5f + 1e-6f && r.fraction >= 0.5f - 1e-4f);
    PX_CHECK_NEAR(r.normal[1], 1.0, 1e-5);
    return 0;
}

/* Rounded and curved shapes in casts, and a user shape. */
static int cast_mixed_shapes(void)
{
    px_rng rng = px_rng_seeded(0x3131);
    float octa = 1.0f;
    for (int n = 0; n < 600; ++n)
    {
        px_shape shapes[6];
        shapes[0] = px_shape_cylinder((float)urand(&rng, 0.2, 1.5), (float)urand(&rng, 0.2, 1.5));
        shapes[1] = px_shape_cone((float)urand(&rng, 0.2, 1.5), (float)urand(&rng, 0.2, 1.5));
        const float h[3] = { (float)urand(&rng, 0.1, 1.0), (float)urand(&rng, 0.1, 1.0),
                             (float)urand(&rng, 0.1, 1.0) };
        shapes[2] = px_shape_box(h);
        shapes[2].radius = (float)urand(&rng, 0.01, 0.4);
        shapes[3] = px_shape_capsule((float)urand(&rng, 0.0, 1.5), (float)urand(&rng, 0.1, 1.0));
        shapes[4] = px_shape_user(octahedron_support, &octa);
        shapes[5] = px_shape_sphere((float)urand(&rng, 0.1, 1.0));
        const px_shape* a = &shapes[px_rng_int(&rng, 6)];
        const px_shape* b = &shapes[px_rng_int(&rng, 6)];
        dpose da, db;
        random_quat(&rng, da.q);
        random_quat(&rng, db.q);
        double tr[3], dir[3];
        px_rng_unit_vector(&rng, dir);
        double dist = urand(&rng, 0.0, 6.0);
        for (int i = 0; i < 3; ++i)
        {
            da.p[i] = urand(&rng, -1, 1);
            db.p[i] = da.p[i] + dist * dir[i];
            tr[i] = (da.p[i] + urand(&rng, -1.5, 1.5) - db.p[i]) * urand(&rng, 0.3, 2.0);
        }
        px_transform ta = to_px(&da), tb = to_px(&db);
        float trf[3];
        d3_to_f(tr, trf);
        d3_from_f(trf, tr);
        px_cast_result r;
        px_status s = px_shape_cast_world(a, &ta, b, &tb, trf, NULL, &r);
        double dmin;
        double ls = bisect_contact(a, &ta, b, &tb, tr, &dmin);
        if (check_cast_against("mixed shapes", a, &ta, b, &tb, trf, ls, dmin, &r, s) != 0)
        {
            fprintf(stderr, "  case %d\n", n);
            return 1;
        }
    }
    return 0;
}

/* Small spheres swept at a unit box's corner, obliquely: the normal is the direction from the corner to
 * the sphere's centre at contact. The cast stops within its band of the contact, so the normal there is
 * off by about the band over the radius (as a distance query's at the same place); it was 0.055 rad off
 * for a radius of 0.005, whose cores' distance was below the margin that let a full GJK converge the
 * normal, and the last separating plane's normal, good to sqrt(band / radius), was reported (review 63). */
static int cast_small_sphere_corner_normal(void)
{
    const px_shape box = px_shape_box((vec3){ 1.0f, 1.0f, 1.0f });
    const px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    const float radii[] = { 2e-3f, 5e-3f, 1e-2f, 0.1f };
    for (int k = 0; k < 4; ++k)
    {
        const float r = radii[k];
        const px_shape sphere = px_shape_sphere(r);
        px_transform tb = id;
        tb.p[0] = 3.0f;
        tb.p[1] = 1.0f + 0.6f * r;
        tb.p[2] = 1.0f + 0.3f * r;
        const vec3 translation = { -4.0f, 0.0f, 0.0f };
        px_cast_result res;
        PX_CHECK_STATUS(px_shape_cast_world(&box, &id, &sphere, &tb, translation, NULL, &res), PX_OK);
        PX_CHECK(res.hit);
        /* the exact contact: the centre (x, 1 + 0.6 r, 1 + 0.3 r) at distance r from the corner (1, 1, 1) */
        const double dy = (double)tb.p[1] - 1.0, dz = (double)tb.p[2] - 1.0;
        const double dx = sqrt((double)r * r - dy * dy - dz * dz);
        const double dot = (res.normal[0] * dx + res.normal[1] * dy + res.normal[2] * dz) / r;
        const double angle = acos(fmin(1.0, dot));
        /* the band (1e-4 of the pair's size by default) over the radius, at the corner's curvature */
        if (!(angle <= 0.01))
        {
            fprintf(stderr, "radius %g: normal %.3g rad off\n", (double)r, angle);
            return 1;
        }
    }
    return 0;
}

/* A sphere swept into a box face from far away (translations of 10 to 1e8 sizes): the reported fraction is
 * never past the exact first contact (computed in double from the float inputs), and short of it by at most
 * the band plus one ulp of the fraction times the translation. Before, the start at the bounding spheres
 * was moved in float (an ulp of 900 is 6e-5, above the band) and the fraction rounded to nearest: from
 * 1000 sizes on, a quarter to a half of these casts ended past the contact (review 48). */
static int cast_long_translation(void)
{
    px_rng rng = px_rng_seeded(0x6c6f6e67ull);
    const px_shape box = px_shape_box((vec3){1.0f, 1.0f, 1.0f});
    const px_shape ball = px_shape_sphere(0.5f);
    const px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    int past = 0, short_of = 0;
    for (int e = 1; e <= 8; ++e)
    {
        const double length = pow(10.0, e);
        for (int trial = 0; trial < 300; ++trial)
        {
            px_transform tb = PX_TRANSFORM_IDENTITY_INIT;
            tb.p[0] = (float)(-1.5 - px_rng_range(&rng, 0.05, 0.95) * length);
            tb.p[1] = (float)px_rng_range(&rng, -0.9, 0.9);
            tb.p[2] = (float)px_rng_range(&rng, -0.9, 0.9);
            const vec3 translation = {(float)length, 0.0f, 0.0f};
            px_cast_result r;
            PX_CHECK_STATUS(px_shape_cast_world(&box, &ta, &ball, &tb, translation, NULL, &r), PX_OK);
            PX_CHECK(r.hit && !r.initial_overlap);
            /* first contact: the centre at x = -1.5 (the face x = -1, the radius 0.5) */
            const double exact = (-1.5 - (double)tb.p[0]) / (double)translation[0];
            const double band = 1e-5 * (sqrt(3.0) + 0.5) * 4.0;
            const double ulp = (double)nextafterf(r.fraction, 2.0f) - (double)r.fraction;
            if ((double)r.fraction > exact)
            {
                ++past;
            }
            else if ((exact - (double)r.fraction) * (double)translation[0] > band + ulp * (double)translation[0])
            {
                ++short_of;
            }
            if (((double)r.fraction > exact || (exact - (double)r.fraction) * (double)translation[0] >
                                                   band + ulp * (double)translation[0]) &&
                past + short_of <= 3)
            {
                fprintf(stderr, "length %g, start %.9g: fraction %.9g (%a), exact %.12g\n", length,
                        (double)tb.p[0], (double)r.fraction, (double)r.fraction, exact);
            }
        }
    }
    PX_CHECK(past == 0 && short_of == 0);
    return 0;
}

static int cast_bad_input(void)
{
    px_shape s = px_shape_sphere(1.0f), neg = px_shape_sphere(-1.0f);
    px_transform id = PX_TRANSFORM_IDENTITY_INIT, tb = px_at(3, 0, 0);
    const float tr[3] = { -3, 0, 0 };
    px_cast_result r, z;
    memset(&z, 0, sizeof(z));
#define CAST_BAD(a, ta, b, tb_, t, cfg, expected)                                                            \
    do                                                                                                       \
    {                                                                                                        \
        memset(&r, 0x5a, sizeof(r));                                                                         \
        PX_CHECK_STATUS(px_shape_cast_world(a, ta, b, tb_, t, cfg, &r), expected);                           \
        PX_CHECK(memcmp(&r, &z, sizeof(r)) == 0);                                                            \
    } while (0)
    PX_CHECK_STATUS(px_shape_cast_world(&s, &id, &s, &tb, tr, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(NULL, &id, &s, &tb, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&s, NULL, &s, &tb, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&s, &id, NULL, &tb, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&s, &id, &s, NULL, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&s, &id, &s, &tb, NULL, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&neg, &id, &s, &tb, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    CAST_BAD(&s, &id, &neg, &tb, tr, NULL, PX_ERR_INVALID_ARGUMENT);
    const float nan_tr[3] = { -3, NAN, 0 }, inf_tr[3] = { INFINITY, 0, 0 };
    CAST_BAD(&s, &id, &s, &tb, nan_tr, NULL, PX_ERR_NON_FINITE);
    CAST_BAD(&s, &id, &s, &tb, inf_tr, NULL, PX_ERR_NON_FINITE);
    px_transform bad = tb;
    bad.p[2] = NAN;
    CAST_BAD(&s, &id, &s, &bad, tr, NULL, PX_ERR_NON_FINITE);
    CAST_BAD(&s, &bad, &s, &tb, tr, NULL, PX_ERR_NON_FINITE);
    bad = tb;
    bad.q[0] = NAN;
    CAST_BAD(&s, &id, &s, &bad, tr, NULL, PX_ERR_NON_FINITE);
    bad = tb;
    bad.q[3] = 0.0f;
    CAST_BAD(&s, &id, &s, &bad, tr, NULL, PX_ERR_DEGENERATE_INPUT);
    px_cast_config cfg = px_cast_default_config();
    cfg.max_iterations = 0;
    CAST_BAD(&s, &id, &s, &tb, tr, &cfg, PX_ERR_INVALID_ARGUMENT);
    cfg = px_cast_default_config();
    cfg.rel_tolerance = NAN;
    CAST_BAD(&s, &id, &s, &tb, tr, &cfg, PX_ERR_INVALID_ARGUMENT);
    cfg.rel_tolerance = 0.0f;
    CAST_BAD(&s, &id, &s, &tb, tr, &cfg, PX_ERR_INVALID_ARGUMENT);
    cfg.rel_tolerance = INFINITY;
    CAST_BAD(&s, &id, &s, &tb, tr, &cfg, PX_ERR_INVALID_ARGUMENT);
    const float pts[6] = { 0, 0, 0, 1, NAN, 0 };
    px_shape nh = px_shape_hull(pts, 2);
    CAST_BAD(&nh, &id, &s, &tb, tr, NULL, PX_ERR_NON_FINITE);
    px_shape user = px_shape_user(nan_support, NULL);
    CAST_BAD(&s, &id, &user, &tb, tr, NULL, PX_ERR_NON_FINITE);
#undef CAST_BAD
    /* zero translation is valid: the overlap test */
    const float zero[3] = { 0, 0, 0 };
    PX_CHECK_STATUS(px_shape_cast_world(&s, &id, &s, &tb, zero, NULL, &r), PX_OK);
    PX_CHECK(!r.hit);
    tb = px_at(1.5f, 0, 0);
    PX_CHECK_STATUS(px_shape_cast_world(&s, &id, &s, &tb, zero, NULL, &r), PX_OK);
    PX_CHECK(r.hit && r.initial_overlap);
    /* rays whose origin and shape span more than PX_MAX_PAIR_SIZE: refused by every kind, the closed forms
     * (sphere, box, capsule) as the GJK ones (they had hit at t = 1e19 with the point rounded to 0) */
    const px_shape kinds[4] = { px_shape_sphere(1.0f), px_shape_box((vec3){ 1.0f, 1.0f, 1.0f }),
                                px_shape_capsule(1.0f, 0.5f), px_shape_cylinder(1.0f, 1.0f) };
    for (int k = 0; k < 4; ++k)
    {
        px_ray far_ray = { { -1.0e19f, 0.0f, 0.0f }, { 1.0f, 0.0f, 0.0f }, INFINITY };
        px_ray_hit hit;
        PX_CHECK_STATUS(px_ray_cast_shape(&kinds[k], &id, &far_ray, &hit), PX_ERR_OUT_OF_RANGE);
        PX_CHECK(!hit.hit);
        far_ray.origin[0] = -1.0e18f; /* within range: a hit */
        PX_CHECK_STATUS(px_ray_cast_shape(&kinds[k], &id, &far_ray, &hit), PX_OK);
        PX_CHECK(hit.hit);
    }
    /* the defaults */
    px_cast_config d = px_cast_default_config();
    PX_CHECK(d.max_iterations == PX_CAST_MAX_ITERATIONS && d.rel_tolerance == PX_CAST_REL_TOLERANCE);
    /* a one-iteration budget: a warning and a conservative estimate, never past the contact */
    cfg = px_cast_default_config();
    cfg.max_iterations = 1;
    const float h[3] = { 1, 1, 1 };
    px_shape box = px_shape_box(h);
    px_transform tr_b = px_at(4, 0.7f, 0.3f), ta = PX_TRANSFORM_IDENTITY_INIT;
    double qd[4];
    dquat_axis_angle(1, 2, 3, 0.7, qd);
    for (int i = 0; i < 4; ++i)
    {
        ta.q[i] = (float)qd[i];
    }
    px_status st = px_shape_cast_world(&box, &ta, &box, &tr_b, tr, &cfg, &r);
    PX_CHECK(st == PX_WARN_MAX_ITERATIONS || st == PX_OK);
    PX_CHECK(check_cast_shape(&r) == 0);
    px_cast_result full;
    PX_CHECK_STATUS(px_shape_cast_world(&box, &ta, &box, &tr_b, tr, NULL, &full), PX_OK);
    PX_CHECK(full.hit);
    if (r.hit)
    {
        PX_CHECK(r.fraction <= full.fraction + 1e-6f);
    }
    return 0;
}

int test_cast(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(rays_sphere);
    PX_RUN_SUBTEST(rays_capsule);
    PX_RUN_SUBTEST(rays_box);
    PX_RUN_SUBTEST(rays_hulls);
    PX_RUN_SUBTEST(rays_cylinder_cone);
    PX_RUN_SUBTEST(rays_rounded);
    PX_RUN_SUBTEST(rays_triangle_user);
    PX_RUN_SUBTEST(rays_origin_positions);
    PX_RUN_SUBTEST(rays_far_origins);
    PX_RUN_SUBTEST(ray_far_cone_normal);
    PX_RUN_SUBTEST(ray_cone_rim_steps);
    PX_RUN_SUBTEST(rays_max_t_boundary);
    PX_RUN_SUBTEST(rays_tangent_normals);
    PX_RUN_SUBTEST(ray_edge_cases);
    PX_RUN_SUBTEST(ray_degenerate_cores);
    PX_RUN_SUBTEST(ray_bad_input);
    PX_RUN_SUBTEST(cast_sphere_sphere);
    PX_RUN_SUBTEST(cast_sphere_box);
    PX_RUN_SUBTEST(cast_box_box_face_on);
    PX_RUN_SUBTEST(cast_capsule_capsule);
    PX_RUN_SUBTEST(cast_random_hulls);
    PX_RUN_SUBTEST(cast_mixed_shapes);
    PX_RUN_SUBTEST(cast_sliding);
    PX_RUN_SUBTEST(cast_overlap_and_misses);
    PX_RUN_SUBTEST(bullet_596_rotated_box);
    PX_RUN_SUBTEST(jolt_217_first_iteration_normal);
    PX_RUN_SUBTEST(bullet_93_degenerate_simplices);
    PX_RUN_SUBTEST(cast_long_translation);
    PX_RUN_SUBTEST(cast_small_sphere_corner_normal);
    PX_RUN_SUBTEST(cast_bad_input);
    PX_SUITE_END;
}
