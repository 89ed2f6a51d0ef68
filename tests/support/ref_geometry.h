/* Independent long-double reference geometry for the unit suites (geometry, simplex, shapes, gjk). Its
 * vector helpers (ldv_*) also serve the accuracy suites' oracles (tests/oracle).
 *
 * Every routine takes the minimum over ALL candidate features (vertices, clamped edge projections, and the
 * face projection when an exact-sign inside test accepts it), so no Voronoi region test can lie: when a
 * region test is ambiguous the competing candidates are equally near and the minimum is still right.
 * Float inputs are widened to long double (64-bit mantissa): differences and single products of floats
 * are exact there, so the only roundings are in the final projections. None of this code is shared with
 * src/. */
#pragma once

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef long double ldv3[3];

static inline void ldv_from_f(const float* f, ldv3 d)
{
    d[0] = (long double)f[0];
    d[1] = (long double)f[1];
    d[2] = (long double)f[2];
}

static inline void ldv_from_d(const double* f, ldv3 d)
{
    d[0] = (long double)f[0];
    d[1] = (long double)f[1];
    d[2] = (long double)f[2];
}

static inline void ldv_copy(const ldv3 a, ldv3 d)
{
    d[0] = a[0];
    d[1] = a[1];
    d[2] = a[2];
}

static inline void ldv_sub(const ldv3 a, const ldv3 b, ldv3 d)
{
    d[0] = a[0] - b[0];
    d[1] = a[1] - b[1];
    d[2] = a[2] - b[2];
}

static inline void ldv_add(const ldv3 a, const ldv3 b, ldv3 d)
{
    d[0] = a[0] + b[0];
    d[1] = a[1] + b[1];
    d[2] = a[2] + b[2];
}

/* d = a + s b */
static inline void ldv_mad(const ldv3 a, long double s, const ldv3 b, ldv3 d)
{
    d[0] = a[0] + s * b[0];
    d[1] = a[1] + s * b[1];
    d[2] = a[2] + s * b[2];
}

static inline long double ldv_dot(const ldv3 a, const ldv3 b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline long double ldv_norm(const ldv3 a)
{
    return sqrtl(ldv_dot(a, a));
}

static inline void ldv_cross(const ldv3 a, const ldv3 b, ldv3 d)
{
    long double x = a[1] * b[2] - a[2] * b[1];
    long double y = a[2] * b[0] - a[0] * b[2];
    long double z = a[0] * b[1] - a[1] * b[0];
    d[0] = x;
    d[1] = y;
    d[2] = z;
}

static inline long double ldv_dist2(const ldv3 a, const ldv3 b)
{
    ldv3 d;
    ldv_sub(a, b, d);
    return ldv_dot(d, d);
}

/* Closest point to p on segment ab; returns the squared distance, *t the parameter (0 at a). */
static inline long double ld_closest_segment(const ldv3 p, const ldv3 a, const ldv3 b, ldv3 out, long double* t)
{
    ldv3 ab, ap;
    ldv_sub(b, a, ab);
    ldv_sub(p, a, ap);
    long double den = ldv_dot(ab, ab);
    long double s = den > 0.0L ? ldv_dot(ap, ab) / den : 0.0L;
    s = s < 0.0L ? 0.0L : (s > 1.0L ? 1.0L : s);
    ldv_mad(a, s, ab, out);
    if (t != NULL)
    {
        *t = s;
    }
    return ldv_dist2(p, out);
}

/* Closest point to p on triangle abc (solid, two-sided, possibly degenerate): minimum over the three
 * edges and, when the projection of p is inside by exact-sign tests, the face. */
static inline long double ld_closest_triangle(const ldv3 p, const ldv3 a, const ldv3 b, const ldv3 c, ldv3 out)
{
    const long double* v[3] = { a, b, c };
    long double best = INFINITY;
    ldv_copy(a, out);
    for (int i = 0; i < 3; ++i)
    {
        ldv3 q;
        long double d2 = ld_closest_segment(p, v[i], v[(i + 1) % 3], q, NULL);
        if (d2 < best)
        {
            best = d2;
            ldv_copy(q, out);
        }
    }
    ldv3 ab, ac, n;
    ldv_sub(b, a, ab);
    ldv_sub(c, a, ac);
    ldv_cross(ab, ac, n);
    long double nn = ldv_dot(n, n);
    if (nn > 0.0L)
    {
        /* inside when p is on the inner side of all three edges, measured along n (the n-component of
         * e x (p - v) is the same for p and its projection on the plane) */
        bool inside = true;
        for (int i = 0; i < 3; ++i)
        {
            ldv3 e, vp, x;
            ldv_sub(v[(i + 1) % 3], v[i], e);
            ldv_sub(p, v[i], vp);
            ldv_cross(e, vp, x);
            if (ldv_dot(n, x) < 0.0L)
            {
                inside = false;
            }
        }
        if (inside)
        {
            ldv3 ap, q;
            ldv_sub(p, a, ap);
            ldv_mad(p, -ldv_dot(n, ap) / nn, n, q);
            long double d2 = ldv_dist2(p, q);
            if (d2 <= best)
            {
                best = d2;
                ldv_copy(q, out);
            }
        }
    }
    return best;
}

/* Signed volume (times 6) of tetrahedron abcd. */
static inline long double ld_volume6(const ldv3 a, const ldv3 b, const ldv3 c, const ldv3 d)
{
    ldv3 ab, ac, ad, n;
    ldv_sub(b, a, ab);
    ldv_sub(c, a, ac);
    ldv_sub(d, a, ad);
    ldv_cross(ab, ac, n);
    return ldv_dot(n, ad);
}

/* Closest point to p in the solid tetrahedron abcd (possibly flat): p itself when inside (by the signs
 * of the four sub-volumes), else the minimum over the four faces. Returns the squared distance; *inside
 * reports the interior case. */
static inline long double ld_closest_tetra(const ldv3 p, const ldv3 a, const ldv3 b, const ldv3 c, const ldv3 d,
                                           ldv3 out, bool* inside)
{
    long double vol = ld_volume6(a, b, c, d);
    *inside = false;
    if (vol != 0.0L)
    {
        long double wa = ld_volume6(p, b, c, d) / vol;
        long double wb = ld_volume6(a, p, c, d) / vol;
        long double wc = ld_volume6(a, b, p, d) / vol;
        long double wd = ld_volume6(a, b, c, p) / vol;
        if (wa >= 0.0L && wb >= 0.0L && wc >= 0.0L && wd >= 0.0L)
        {
            ldv_copy(p, out);
            *inside = true;
            return 0.0L;
        }
    }
    const long double* v[4] = { a, b, c, d };
    static const int faces[4][3] = { { 0, 1, 2 }, { 0, 1, 3 }, { 0, 2, 3 }, { 1, 2, 3 } };
    long double best = INFINITY;
    ldv_copy(a, out);
    for (int f = 0; f < 4; ++f)
    {
        ldv3 q;
        long double d2 = ld_closest_triangle(p, v[faces[f][0]], v[faces[f][1]], v[faces[f][2]], q);
        if (d2 < best)
        {
            best = d2;
            ldv_copy(q, out);
        }
    }
    return best;
}

/* Closest points between segments p0p1 and q0q1: the minimum over the four end-point-vs-segment
 * candidates and the interior critical point (when both parameters are strictly inside and the
 * segments are not parallel). Returns the squared distance. */
static inline long double ld_segment_segment(const ldv3 p0, const ldv3 p1, const ldv3 q0, const ldv3 q1, ldv3 pa,
                                             ldv3 pb)
{
    long double best = INFINITY;
    ldv3 x;
    long double d2;
    ldv_copy(p0, pa);
    ldv_copy(q0, pb);
    d2 = ld_closest_segment(p0, q0, q1, x, NULL);
    if (d2 < best)
    {
        best = d2;
        ldv_copy(p0, pa);
        ldv_copy(x, pb);
    }
    d2 = ld_closest_segment(p1, q0, q1, x, NULL);
    if (d2 < best)
    {
        best = d2;
        ldv_copy(p1, pa);
        ldv_copy(x, pb);
    }
    d2 = ld_closest_segment(q0, p0, p1, x, NULL);
    if (d2 < best)
    {
        best = d2;
        ldv_copy(x, pa);
        ldv_copy(q0, pb);
    }
    d2 = ld_closest_segment(q1, p0, p1, x, NULL);
    if (d2 < best)
    {
        best = d2;
        ldv_copy(x, pa);
        ldv_copy(q1, pb);
    }
    ldv3 d1, d2v, r;
    ldv_sub(p1, p0, d1);
    ldv_sub(q1, q0, d2v);
    ldv_sub(p0, q0, r);
    long double a = ldv_dot(d1, d1), e = ldv_dot(d2v, d2v), b = ldv_dot(d1, d2v);
    long double c = ldv_dot(d1, r), f = ldv_dot(d2v, r);
    long double den = a * e - b * b;
    if (den > 0.0L)
    {
        long double s = (b * f - c * e) / den;
        long double t = (a * f - b * c) / den;
        if (s > 0.0L && s < 1.0L && t > 0.0L && t < 1.0L)
        {
            ldv3 xa, xb;
            ldv_mad(p0, s, d1, xa);
            ldv_mad(q0, t, d2v, xb);
            d2 = ldv_dist2(xa, xb);
            if (d2 < best)
            {
                best = d2;
                ldv_copy(xa, pa);
                ldv_copy(xb, pb);
            }
        }
    }
    return best;
}

/* Point of the convex hull of n <= 4 points nearest the origin, by brute force over the point set. */
static inline long double ld_closest_hull_origin(ldv3* w, int n, ldv3 out)
{
    ldv3 o = { 0.0L, 0.0L, 0.0L };
    bool inside;
    switch (n)
    {
    case 1:
        ldv_copy(w[0], out);
        return ldv_dot(w[0], w[0]);
    case 2:
        return ld_closest_segment(o, w[0], w[1], out, NULL);
    case 3:
        return ld_closest_triangle(o, w[0], w[1], w[2], out);
    default:
        return ld_closest_tetra(o, w[0], w[1], w[2], w[3], out, &inside);
    }
}
