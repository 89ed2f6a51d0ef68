/* Exact penetration depth by the separating-axis theorem. See sat_depth.h. */
#include "oracle/sat_depth.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "support/ref_geometry.h"

typedef long double ld;

/* Rounding of a long-double dot product or cross product, as a multiple of LDBL_EPSILON. */
#define PXO_SAT_ROUND 64.0L
/* Gauss-map arc test: values within this of a sign change count as crossing (unit vectors). */
#define PXO_SAT_ARC_SLACK 1.0e-12L
/* Arcs shorter than this (adjacent faces nearly parallel or opposite) are not pruned. */
#define PXO_SAT_ARC_MIN 1.0e-9L

static int normalize3(ld v[3])
{
    ld l = ldv_norm(v);
    if (!(l > 0.0L) || !isfinite(l))
    {
        return 0;
    }
    v[0] /= l;
    v[1] /= l;
    v[2] /= l;
    return 1;
}

/* A unit vector perpendicular to the unit vector u. */
static void any_perpendicular(const ld u[3], ld out[3])
{
    ld axis[3] = { 0.0L, 0.0L, 0.0L };
    int k = (fabsl(u[0]) <= fabsl(u[1]) && fabsl(u[0]) <= fabsl(u[2])) ? 0 : (fabsl(u[1]) <= fabsl(u[2]) ? 1 : 2);
    axis[k] = 1.0L;
    ldv_cross(u, axis, out);
    normalize3(out);
}

static void extremes(const ld* pts, int n, const ld d[3], ld* lo, ld* hi)
{
    ld l = INFINITY, h = -INFINITY;
    for (int i = 0; i < n; ++i)
    {
        ld t = ldv_dot(pts + 3 * i, d);
        l = t < l ? t : l;
        h = t > h ? t : h;
    }
    *lo = l;
    *hi = h;
}

static int popcount64(unsigned long long m)
{
    int c = 0;
    while (m != 0ull)
    {
        m &= m - 1ull;
        ++c;
    }
    return c;
}

/* ------------------------------------------------------------------------------------------------ */
/* Polytope structure                                                                                */

static void add_edge(pxo_polytope* poly, int i, int j, const ld* adj0, const ld* adj1)
{
    if (poly->edge_count >= PXO_SAT_MAX_EDGES)
    {
        poly->overflow = 1;
        return;
    }
    int k = poly->edge_count++;
    ldv_sub(poly->pts + 3 * j, poly->pts + 3 * i, poly->edges[k]);
    normalize3(poly->edges[k]);
    poly->edge_ends[k][0] = i;
    poly->edge_ends[k][1] = j;
    for (int c = 0; c < 3; ++c)
    {
        poly->edge_adj[k][0][c] = adj0 != NULL ? adj0[c] : 0.0L;
        poly->edge_adj[k][1][c] = adj1 != NULL ? adj1[c] : 0.0L;
    }
    poly->edge_prunable[k] = 0;
    if (adj0 != NULL && adj1 != NULL)
    {
        ldv_cross(adj1, adj0, poly->edge_arc[k]);
        ld l = ldv_dot(adj0, adj1);
        poly->edge_prunable[k] = normalize3(poly->edge_arc[k]) && 1.0L - fabsl(l) >= PXO_SAT_ARC_MIN;
    }
}

/* a - b as the unevaluated sum hi + lo (Knuth's two-sum: exact). */
static void two_diff(ld a, ld b, ld* hi, ld* lo)
{
    ld c = -b;
    ld s = a + c;
    ld bb = s - a;
    *hi = s;
    *lo = (a - (s - bb)) + (c - bb);
}

/* (p1 - p0) x (q1 - q0) with the differences and the products kept exact until the last additions: the
 * direction stays accurate when the two edges are nearly parallel. */
static void cross_precise(const ld p0[3], const ld p1[3], const ld q0[3], const ld q1[3], ld out[3])
{
    ld eh[3], el[3], fh[3], fl[3];
    for (int c = 0; c < 3; ++c)
    {
        two_diff(p1[c], p0[c], &eh[c], &el[c]);
        two_diff(q1[c], q0[c], &fh[c], &fl[c]);
    }
    for (int c = 0; c < 3; ++c)
    {
        int y = (c + 1) % 3, z = (c + 2) % 3;
        ld a = eh[y] * fh[z], ae = fmal(eh[y], fh[z], -a);
        ld b = eh[z] * fh[y], be = fmal(eh[z], fh[y], -b);
        ld small = eh[y] * fl[z] + el[y] * fh[z] - eh[z] * fl[y] - el[z] * fh[y];
        out[c] = (a - b) + ((ae - be) + small);
    }
}

/* Boundary edges of a flat set with unit plane normal m: pairs with every other point on one side of
 * their line, within the plane. Parallel directions are kept once (only directions matter). */
static void build_flat_edges(pxo_polytope* poly, ld S)
{
    const ld* p = poly->pts;
    const ld t = poly->tol + PXO_SAT_ROUND * LDBL_EPSILON * S;
    for (int i = 0; i < poly->n; ++i)
    {
        for (int j = i + 1; j < poly->n; ++j)
        {
            ld e[3];
            ldv_sub(p + 3 * j, p + 3 * i, e);
            ld el = ldv_norm(e);
            if (!(el > poly->tol))
            {
                continue;
            }
            int pos = 0, neg = 0;
            for (int l = 0; l < poly->n && !(pos && neg); ++l)
            {
                ld r[3], c[3];
                ldv_sub(p + 3 * l, p + 3 * i, r);
                ldv_cross(e, r, c);
                ld s = ldv_dot(poly->normal, c) / el;
                pos |= s > t;
                neg |= s < -t;
            }
            if (pos && neg)
            {
                continue;
            }
            ld u[3] = { e[0] / el, e[1] / el, e[2] / el };
            int dup = 0;
            for (int k = 0; k < poly->edge_count && !dup; ++k)
            {
                ld c[3];
                ldv_cross(u, poly->edges[k], c);
                dup = ldv_norm(c) <= 1.0e-18L;
            }
            if (!dup)
            {
                add_edge(poly, i, j, NULL, NULL);
            }
        }
    }
}

/* Facets of a solid set: triples spanning a supporting plane, merged by their on-plane point sets. */
static void build_solid(pxo_polytope* poly, ld S)
{
    const ld* p = poly->pts;
    const int n = poly->n;
    ld best_q[PXO_SAT_MAX_FACES];
    /* A cheap first test in double rejects most triples: with the plane's unnormalized normal m, every
     * true threshold t |m| is below tol S^2 (|m| <= S^2; the rounding term is far smaller), and the double
     * evaluation of m . (p_l - p_i) on coordinates relative to p_0 errs by a few 1e-16 S^3, far below
     * crude = 16 tol S^2: a point beyond +-crude on both sides proves the triple spans no face. The exact
     * test below (long double, with the triple's own tolerance) decides the rest. */
    const ld Sx = S > poly->extent ? S : poly->extent;
    const double crude = (double)(16.0L * (poly->tol + PXO_SAT_ROUND * LDBL_EPSILON * Sx) * Sx * Sx);
    double qd[3 * PXO_SAT_MAX_POINTS];
    for (int l = 0; l < n; ++l)
    {
        for (int c = 0; c < 3; ++c)
        {
            qd[3 * l + c] = (double)(p[3 * l + c] - p[c]);
        }
    }
    for (int i = 0; i < n; ++i)
    {
        for (int j = i + 1; j < n; ++j)
        {
            ld e1[3];
            ldv_sub(p + 3 * j, p + 3 * i, e1);
            ld l1 = ldv_norm(e1);
            if (!(l1 > 0.0L))
            {
                continue;
            }
            const double f1[3] = { qd[3 * j] - qd[3 * i], qd[3 * j + 1] - qd[3 * i + 1], qd[3 * j + 2] - qd[3 * i + 2] };
            for (int k = j + 1; k < n; ++k)
            {
                {
                    const double f2[3] = { qd[3 * k] - qd[3 * i], qd[3 * k + 1] - qd[3 * i + 1],
                                           qd[3 * k + 2] - qd[3 * i + 2] };
                    const double m[3] = { f1[1] * f2[2] - f1[2] * f2[1], f1[2] * f2[0] - f1[0] * f2[2],
                                          f1[0] * f2[1] - f1[1] * f2[0] };
                    const double hi = m[0] * qd[3 * i] + m[1] * qd[3 * i + 1] + m[2] * qd[3 * i + 2];
                    int qpos = 0, qneg = 0;
                    for (int l = 0; l < n && !(qpos && qneg); ++l)
                    {
                        double d = m[0] * qd[3 * l] + m[1] * qd[3 * l + 1] + m[2] * qd[3 * l + 2] - hi;
                        qpos |= d > crude;
                        qneg |= d < -crude;
                    }
                    if (qpos && qneg)
                    {
                        continue;
                    }
                }
                ld e2[3], nrm[3];
                ldv_sub(p + 3 * k, p + 3 * i, e2);
                ldv_cross(e1, e2, nrm);
                ld l2 = ldv_norm(e2), nl = ldv_norm(nrm);
                if (!(nl > PXO_SAT_ROUND * LDBL_EPSILON * l1 * l2))
                {
                    continue; /* collinear within rounding: spans no plane */
                }
                /* signed distances of the other points; their rounding grows as the triple thins */
                const ld t = poly->tol + PXO_SAT_ROUND * LDBL_EPSILON * S * (1.0L + l1 * l2 / nl);
                int pos = 0, neg = 0;
                for (int l = 0; l < n && !(pos && neg); ++l)
                {
                    ld r[3];
                    ldv_sub(p + 3 * l, p + 3 * i, r);
                    ld d = ldv_dot(nrm, r) / nl;
                    pos |= d > t;
                    neg |= d < -t;
                }
                if (pos && neg)
                {
                    continue;
                }
                ld f[3] = { nrm[0] / nl, nrm[1] / nl, nrm[2] / nl };
                if (pos)
                {
                    f[0] = -f[0];
                    f[1] = -f[1];
                    f[2] = -f[2];
                }
                unsigned long long mask = 0ull;
                for (int l = 0; l < n; ++l)
                {
                    ld r[3];
                    ldv_sub(p + 3 * l, p + 3 * i, r);
                    if (fabsl(ldv_dot(f, r)) <= t)
                    {
                        mask |= 1ull << l;
                    }
                }
                ld q = nl / (l1 * l2); /* sine of the triple's angle: its normal's conditioning */
                int found = -1;
                for (int g = 0; g < poly->face_count; ++g)
                {
                    if (poly->face_mask[g] == mask && ldv_dot(poly->faces[g], f) > 0.0L)
                    {
                        found = g;
                        break;
                    }
                }
                if (found >= 0)
                {
                    if (q > best_q[found])
                    {
                        best_q[found] = q;
                        ldv_copy(f, poly->faces[found]);
                    }
                    continue;
                }
                if (poly->face_count >= PXO_SAT_MAX_FACES)
                {
                    poly->overflow = 1;
                    return;
                }
                int g = poly->face_count++;
                ldv_copy(f, poly->faces[g]);
                poly->face_mask[g] = mask;
                best_q[g] = q;
            }
        }
    }
    for (int g = 0; g < poly->face_count; ++g)
    {
        ld lo, hi;
        extremes(p, n, poly->faces[g], &lo, &hi);
        poly->face_h[g] = hi;
    }
    /* edges: lines shared by two faces (their on-plane sets share two distinct points) */
    for (int f = 0; f < poly->face_count; ++f)
    {
        for (int g = f + 1; g < poly->face_count; ++g)
        {
            unsigned long long common = poly->face_mask[f] & poly->face_mask[g];
            if (popcount64(common) < 2)
            {
                continue;
            }
            int bi = -1, bj = -1;
            ld bl = 0.0L;
            for (int i = 0; i < n; ++i)
            {
                if (!(common & (1ull << i)))
                {
                    continue;
                }
                for (int j = i + 1; j < n; ++j)
                {
                    if (!(common & (1ull << j)))
                    {
                        continue;
                    }
                    ld e[3];
                    ldv_sub(p + 3 * j, p + 3 * i, e);
                    ld l = ldv_dot(e, e);
                    if (l > bl)
                    {
                        bl = l;
                        bi = i;
                        bj = j;
                    }
                }
            }
            if (bi < 0 || !(sqrtl(bl) > poly->tol))
            {
                continue;
            }
            add_edge(poly, bi, bj, poly->faces[f], poly->faces[g]);
            if (poly->overflow)
            {
                return;
            }
        }
    }
}

void pxo_polytope_build(const long double* pts, int n, long double scale, pxo_polytope* poly)
{
    poly->pts = pts;
    poly->n = n;
    poly->dim = 0;
    poly->extent = 0.0L;
    poly->width = 0.0L;
    poly->face_count = 0;
    poly->edge_count = 0;
    poly->overflow = 0;
    for (int c = 0; c < 3; ++c)
    {
        poly->dir[c] = 0.0L;
        poly->normal[c] = 0.0L;
    }
    if (n < 1 || n > PXO_SAT_MAX_POINTS)
    {
        poly->overflow = 1;
        poly->n = n < 1 ? 0 : PXO_SAT_MAX_POINTS;
        poly->tol = 0.0L;
        return;
    }
    /* extent pair */
    int i0 = 0, i1 = 0;
    ld best = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        for (int j = i + 1; j < n; ++j)
        {
            ld d[3];
            ldv_sub(pts + 3 * j, pts + 3 * i, d);
            ld l = ldv_dot(d, d);
            if (l > best)
            {
                best = l;
                i0 = i;
                i1 = j;
            }
        }
    }
    poly->extent = sqrtl(best);
    const ld S = scale > 0.0L ? scale : poly->extent;
    poly->tol = PXO_SAT_FLAT_REL * S;
    if (!(poly->extent > poly->tol))
    {
        poly->dim = 0;
        return;
    }
    ldv_sub(pts + 3 * i1, pts + 3 * i0, poly->dir);
    normalize3(poly->dir);
    /* farthest point from the line: the width */
    int i2 = i0;
    ld h2 = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        ld r[3], c[3];
        ldv_sub(pts + 3 * i, pts + 3 * i0, r);
        ldv_cross(poly->dir, r, c);
        ld h = ldv_norm(c);
        if (h > h2)
        {
            h2 = h;
            i2 = i;
        }
    }
    poly->width = h2;
    if (!(h2 > poly->tol))
    {
        poly->dim = 1;
        add_edge(poly, i0, i1, NULL, NULL);
        return;
    }
    ld r2[3];
    ldv_sub(pts + 3 * i2, pts + 3 * i0, r2);
    ldv_cross(poly->dir, r2, poly->normal);
    normalize3(poly->normal);
    ld h3 = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        ld r[3];
        ldv_sub(pts + 3 * i, pts + 3 * i0, r);
        ld h = fabsl(ldv_dot(poly->normal, r));
        h3 = h > h3 ? h : h3;
    }
    if (!(h3 > poly->tol))
    {
        poly->dim = 2;
        poly->face_count = 1;
        ldv_copy(poly->normal, poly->faces[0]);
        ld lo, hi;
        extremes(pts, n, poly->normal, &lo, &hi);
        poly->face_h[0] = hi;
        poly->face_mask[0] = n == 64 ? ~0ull : ((1ull << n) - 1ull);
        build_flat_edges(poly, S);
        return;
    }
    poly->dim = 3;
    build_solid(poly, S);
}

/* ------------------------------------------------------------------------------------------------ */
/* Depth                                                                                             */

typedef struct sat_best
{
    ld depth;
    ld axis[3];
    int kind;
    int count;
} sat_best;

static void try_axis(const pxo_polytope* a, const pxo_polytope* b, const ld dir[3], int kind, sat_best* best)
{
    ld n[3];
    ldv_copy(dir, n);
    if (!normalize3(n))
    {
        return;
    }
    ld loa, hia, lob, hib;
    extremes(a->pts, a->n, n, &loa, &hia);
    extremes(b->pts, b->n, n, &lob, &hib);
    best->count++;
    ld o_pos = hia - lob; /* B moved along +n by this touches A */
    ld o_neg = hib - loa; /* B moved along -n */
    if (o_pos < best->depth)
    {
        best->depth = o_pos;
        ldv_copy(n, best->axis);
        best->kind = kind;
    }
    if (o_neg < best->depth)
    {
        best->depth = o_neg;
        best->axis[0] = -n[0];
        best->axis[1] = -n[1];
        best->axis[2] = -n[2];
        best->kind = kind;
    }
}

/* Gregorius' test: do the Gauss-map arcs of edge i of A (normals a1, a2) and edge j of -B (normals -b1,
 * -b2) cross? With the arcs' plane normals precomputed (unit a2 x a1, and b2 x b1 = (-b2) x (-b1)).
 * Conservative: near-ties and arcs too short or too long to test answer yes. */
static int arcs_cross(const pxo_polytope* a, int i, const pxo_polytope* b, int j)
{
    if (!a->edge_prunable[i] || !b->edge_prunable[j])
    {
        return 1;
    }
    const ld* a1 = a->edge_adj[i][0];
    const ld* a2 = a->edge_adj[i][1];
    const ld* b1 = b->edge_adj[j][0];
    const ld* b2 = b->edge_adj[j][1];
    const ld* bxa = a->edge_arc[i];
    const ld* dxc = b->edge_arc[j];
    ld cba = -ldv_dot(b1, bxa), dba = -ldv_dot(b2, bxa), adc = ldv_dot(a1, dxc), bdc = ldv_dot(a2, dxc);
    const ld e = PXO_SAT_ARC_SLACK;
    int opp1 = cba * dba < 0.0L || fabsl(cba) <= e || fabsl(dba) <= e;
    int opp2 = adc * bdc < 0.0L || fabsl(adc) <= e || fabsl(bdc) <= e;
    int same = cba * bdc > 0.0L || fabsl(cba) <= e || fabsl(bdc) <= e;
    return opp1 && opp2 && same;
}

void pxo_sat_depth_polytopes(const pxo_polytope* a, const pxo_polytope* b, int prune, pxo_sat* out)
{
    sat_best best;
    best.depth = INFINITY;
    best.axis[0] = 0.0L;
    best.axis[1] = 0.0L;
    best.axis[2] = 1.0L;
    best.kind = PXO_AXIS_NONE;
    best.count = 0;
    out->dim_a = a->dim;
    out->dim_b = b->dim;
    out->ok = !a->overflow && !b->overflow && a->n > 0 && b->n > 0;
    out->tol = a->tol > b->tol ? a->tol : b->tol;
    if (a->n <= 0 || b->n <= 0)
    {
        out->depth = 0.0L;
        out->separated = 0;
        out->kind = PXO_AXIS_NONE;
        out->dim_diff = 0;
        out->candidates = 0;
        ldv_copy(best.axis, out->axis);
        return;
    }

    /* faces */
    for (int f = 0; f < a->face_count; ++f)
    {
        try_axis(a, b, a->faces[f], PXO_AXIS_FACE_A, &best);
    }
    for (int f = 0; f < b->face_count; ++f)
    {
        try_axis(a, b, b->faces[f], PXO_AXIS_FACE_B, &best);
    }
    /* edge pairs */
    const int solid = a->dim == 3 && b->dim == 3;
    for (int i = 0; i < a->edge_count; ++i)
    {
        for (int j = 0; j < b->edge_count; ++j)
        {
            if (prune && solid && !arcs_cross(a, i, b, j))
            {
                continue;
            }
            ld n[3];
            ldv_cross(a->edges[i], b->edges[j], n);
            if (ldv_norm(n) < 1.0e-3L)
            {
                const int* ea = a->edge_ends[i];
                const int* eb = b->edge_ends[j];
                cross_precise(a->pts + 3 * ea[0], a->pts + 3 * ea[1], b->pts + 3 * eb[0], b->pts + 3 * eb[1], n);
            }
            try_axis(a, b, n, PXO_AXIS_EDGE, &best);
        }
    }

    /* dimension of A - B: Gram-Schmidt over the sets' spanning directions, weighted by their sizes */
    int dim_diff = 3;
    ld basis[3][3];
    if (a->dim < 3 && b->dim < 3)
    {
        ld span[4][3];
        int ns = 0;
        const pxo_polytope* sets[2] = { a, b };
        for (int s = 0; s < 2; ++s)
        {
            const pxo_polytope* p = sets[s];
            if (p->dim >= 1)
            {
                for (int c = 0; c < 3; ++c)
                {
                    span[ns][c] = p->dir[c] * p->extent;
                }
                ++ns;
            }
            if (p->dim >= 2)
            {
                ld w[3];
                ldv_cross(p->normal, p->dir, w);
                for (int c = 0; c < 3; ++c)
                {
                    span[ns][c] = w[c] * p->width;
                }
                ++ns;
            }
        }
        dim_diff = 0;
        for (int s = 0; s < ns && dim_diff < 3; ++s)
        {
            ld r[3];
            ldv_copy(span[s], r);
            for (int k = 0; k < dim_diff; ++k)
            {
                ld t = ldv_dot(r, basis[k]);
                for (int c = 0; c < 3; ++c)
                {
                    r[c] -= t * basis[k][c];
                }
            }
            if (ldv_norm(r) > out->tol)
            {
                normalize3(r);
                ldv_copy(r, basis[dim_diff]);
                ++dim_diff;
            }
        }
    }
    out->dim_diff = dim_diff;
    if (dim_diff == 2)
    {
        /* flat A - B: its plane normal and the in-plane normals of every edge */
        ld m[3];
        ldv_cross(basis[0], basis[1], m);
        normalize3(m);
        try_axis(a, b, m, PXO_AXIS_IN_PLANE, &best);
        const pxo_polytope* sets[2] = { a, b };
        for (int s = 0; s < 2; ++s)
        {
            for (int e = 0; e < sets[s]->edge_count; ++e)
            {
                ld n[3];
                ldv_cross(sets[s]->edges[e], m, n);
                try_axis(a, b, n, PXO_AXIS_IN_PLANE, &best);
            }
        }
    }
    else if (dim_diff <= 1)
    {
        /* A - B is a segment or a point */
        ld w0[3];
        ldv_sub(a->pts, b->pts, w0);
        if (dim_diff == 1)
        {
            const ld* u = basis[0];
            ld perp[3], p1[3], p2[3];
            ld t = ldv_dot(w0, u);
            for (int c = 0; c < 3; ++c)
            {
                perp[c] = w0[c] - t * u[c];
            }
            try_axis(a, b, u, PXO_AXIS_LINE, &best);
            try_axis(a, b, perp, PXO_AXIS_LINE, &best);
            any_perpendicular(u, p1);
            ldv_cross(u, p1, p2);
            try_axis(a, b, p1, PXO_AXIS_LINE, &best);
            try_axis(a, b, p2, PXO_AXIS_LINE, &best);
        }
        else
        {
            static const ld axes[3][3] = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
            try_axis(a, b, w0, PXO_AXIS_LINE, &best);
            for (int k = 0; k < 3; ++k)
            {
                try_axis(a, b, axes[k], PXO_AXIS_LINE, &best);
            }
        }
    }

    if (!isfinite(best.depth))
    {
        /* no candidate (cannot happen for non-empty sets); report touching along z */
        out->ok = 0;
        best.depth = 0.0L;
    }
    out->depth = best.depth;
    ldv_copy(best.axis, out->axis);
    out->kind = best.kind;
    out->candidates = best.count;
    out->separated = best.depth < -out->tol;
}

void pxo_sat_depth(const long double* a, int na, const long double* b, int nb, long double scale, pxo_sat* out)
{
    static pxo_polytope pa, pb;
    pxo_polytope_build(a, na, scale, &pa);
    pxo_polytope_build(b, nb, scale, &pb);
    pxo_sat_depth_polytopes(&pa, &pb, 1, out);
}

long double pxo_overlap_along(const long double* a, int na, const long double* b, int nb, const long double n[3])
{
    ld u[3];
    ldv_copy(n, u);
    if (!normalize3(u))
    {
        return NAN;
    }
    ld loa, hia, lob, hib;
    extremes(a, na, u, &loa, &hia);
    extremes(b, nb, u, &lob, &hib);
    (void)loa;
    (void)hib;
    return hia - lob;
}

long double pxo_point_depth(const pxo_polytope* poly, const long double p[3])
{
    if (poly->dim < 3)
    {
        return 0.0L;
    }
    ld best = INFINITY;
    for (int f = 0; f < poly->face_count; ++f)
    {
        ld d = poly->face_h[f] - ldv_dot(poly->faces[f], p);
        best = d < best ? d : best;
    }
    return best;
}
