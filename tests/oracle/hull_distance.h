/* Independent reference for convex-hull distance, used by the accuracy suites. It shares no code with
 * proxima: everything is long double, the distance comes from a GJK whose sub-algorithm is a brute
 * force over every sub-simplex (no Voronoi-region logic, no tolerances that decide the answer), and the
 * answer is accepted only with a certificate (KNOWN_FAILURES.md 4.3 b):
 *
 *   P = sum la_i a_i in conv(A), Q = sum la_i b_i in conv(B) (weights checked >= 0, sum 1),
 *   U = |P - Q|                                   an upper bound of the distance,
 *   L = min_b n.b - max_a n.a, n = (Q - P) / U    a lower bound (brute force over every point),
 *
 * trusted when U - L <= PXO_CERT_REL * S. L is valid for any unit n (projection onto n is 1-Lipschitz);
 * besides (Q - P) / U the oracle also tries the better-conditioned directions of its final simplex (the
 * nearest point of the simplex, re-orthogonalized; a triangle's plane normal) and, only when those leave
 * the gap open, the plane normals of triples of support points GJK met (near-parallel faces fold by less
 * than long double resolves in |v|), and keeps the largest L. Overlap (or touching) is certified by
 * U <= PXO_CERT_REL * S from feasible P and Q. S is the caller's size scale (the largest extent of either
 * shape). Cross-checked against Bullet in double (tests/oracle_bullet): agreement to 3e-16 S.
 *
 * Point sets are packed xyz long doubles, already in the frame the caller wants (world, or world shifted
 * by a common origin so that large offsets cancel exactly). */
#pragma once

/* Certificate tolerance, relative to S. */
#define PXO_CERT_REL 1.0e-12L

typedef struct pxo_distance
{
    long double distance;  /* certified distance: 0 when overlap is certified, else U */
    long double upper;     /* U = |P - Q| */
    long double lower;     /* L, brute force over all points, best candidate n (0 when overlapping) */
    long double p[3];      /* P in conv(A) */
    long double q[3];      /* Q in conv(B) */
    long double normal[3]; /* the unit n that gave L, from A to B; zero when overlapping */
    long double scale;     /* S used for the certificate */
    int overlap;           /* 1 when U <= PXO_CERT_REL * S (intersecting or touching) */
    int certified;         /* 1 when the certificate closed (overlap, or U - L <= PXO_CERT_REL * S) */
    int weights_ok;        /* 1 when the convex weights passed the check */
    int iterations;        /* GJK iterations of the oracle */
    int simplex_count;     /* support pairs in the final simplex */
} pxo_distance;

/* Distance between conv(a[0..na)) and conv(b[0..nb)). scale <= 0 means "compute the extent here". */
void pxo_hull_distance(const long double* a, int na, const long double* b, int nb, long double scale,
                       pxo_distance* out);

/* Distance from point p to conv(pts[0..n)): returns U (an upper bound, exact within the certificate
 * when *certified is set). *lower receives L. Either output pointer may be NULL. */
long double pxo_point_hull_distance(const long double p[3], const long double* pts, int n, long double scale,
                                    long double* lower, int* certified);

/* Largest distance between two points of the set (its extent), O(n^2). */
long double pxo_extent(const long double* pts, int n);

/* Certified lower bound of the penetration depth of conv(a) and conv(b): the radius r of a ball around
 * the origin inside a polytope spanned by support points of A - B (an inner approximation of the
 * Minkowski difference), minus a safety margin of PXO_CERT_REL * scale. Expands the inner polytope at
 * most `rounds` times, stopping early once r > target. hint (may be NULL) is a direction to sample
 * first. Returns a negative value when the origin could not be shown inside. */
long double pxo_depth_lower_bound(const long double* a, int na, const long double* b, int nb,
                                  const long double hint[3], long double scale, long double target, int rounds);

/* world = R(q / |q|) x + (p - origin) for n local float points, rotation built in long double from the
 * float quaternion (x, y, z, w) normalized in long double. origin may be NULL (zero). */
void pxo_transform_points(const float* local, int n, const float q[4], const float p[3], const float origin[3],
                          long double* world);

/* Same for a single vector without translation (a direction). */
void pxo_rotate(const float q[4], const long double v[3], long double dest[3]);
