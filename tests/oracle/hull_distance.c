/* Long-double GJK with a brute-force sub-algorithm and a duality-gap certificate. See hull_distance.h.
 *
 * The sub-algorithm enumerates every non-empty subset of the current simplex (at most 15), projects the
 * origin onto the affine hull of each affinely independent subset, keeps the projections whose
 * barycentric weights are all >= 0 (points of the convex hull) and returns the shortest one. That point
 * is the nearest point of the simplex: the nearest point lies in the relative interior of some face,
 * where it equals that face's projection, and every other candidate is a point of the hull too. A subset
 * skipped as degenerate only loses points already in the hull of its smaller subsets (Caratheodory), up
 * to slivers thinner than the skip threshold; the certificate, not the search, decides correctness. */
#include "oracle/hull_distance.h"

#include <math.h>
#include <stddef.h>

#include "support/ref_geometry.h"

#define PXO_MAX_ITERATIONS 512

typedef long double ld;

long double pxo_extent(const long double* pts, int n)
{
    ld best = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        for (int j = i + 1; j < n; ++j)
        {
            ld d[3];
            ldv_sub(pts + 3 * i, pts + 3 * j, d);
            ld l = ldv_dot(d, d);
            if (l > best)
            {
                best = l;
            }
        }
    }
    return sqrtl(best);
}

/* Index of the point maximizing d.x (first of equals). */
static int argmax_dot(const ld* pts, int n, const ld d[3])
{
    int best = 0;
    ld bv = ldv_dot(pts, d);
    for (int i = 1; i < n; ++i)
    {
        ld v = ldv_dot(pts + 3 * i, d);
        if (v > bv)
        {
            bv = v;
            best = i;
        }
    }
    return best;
}

typedef struct overt
{
    ld w[3];
    int ia, ib;
    ld lam;
} overt;

/* Projection of the origin onto the affine hull of the points selected by mask. Writes the weights
 * (indexed like the simplex) and the point. Returns 0 for a degenerate subset. */
static int project_subset(const overt* s, unsigned mask, ld lam[4], ld point[3])
{
    int idx[4];
    int k = 0;
    for (int i = 0; i < 4; ++i)
    {
        lam[i] = 0.0L;
        if (mask & (1u << i))
        {
            idx[k++] = i;
        }
    }
    const ld* y0 = s[idx[0]].w;
    if (k == 1)
    {
        lam[idx[0]] = 1.0L;
    }
    else if (k == 2)
    {
        ld e[3];
        ldv_sub(s[idx[1]].w, y0, e);
        ld ee = ldv_dot(e, e);
        if (!(ee > 0.0L))
        {
            return 0;
        }
        ld t = -ldv_dot(y0, e) / ee;
        lam[idx[0]] = 1.0L - t;
        lam[idx[1]] = t;
        /* the point, re-orthogonalized against the edge so that its direction stays accurate when it is
         * tiny (near contact): the cancellation error along e is removed */
        for (int c = 0; c < 3; ++c)
        {
            point[c] = y0[c] + t * e[c];
        }
        ld r = ldv_dot(point, e) / ee;
        for (int c = 0; c < 3; ++c)
        {
            point[c] -= r * e[c];
        }
        return 1;
    }
    else if (k == 3)
    {
        ld e1[3], e2[3], n[3];
        ldv_sub(s[idx[1]].w, y0, e1);
        ldv_sub(s[idx[2]].w, y0, e2);
        ldv_cross(e1, e2, n);
        ld nn = ldv_dot(n, n);
        if (!(nn > 1.0e-30L * ldv_dot(e1, e1) * ldv_dot(e2, e2)))
        {
            return 0;
        }
        /* p = projection of the origin on the plane; weights by signed sub-areas */
        ld t = ldv_dot(n, y0) / nn, p[3], u[3], v[3], c[3];
        p[0] = t * n[0];
        p[1] = t * n[1];
        p[2] = t * n[2];
        ldv_sub(s[idx[1]].w, p, u);
        ldv_sub(s[idx[2]].w, p, v);
        ldv_cross(u, v, c);
        ld l0 = ldv_dot(n, c) / nn;
        ldv_sub(s[idx[2]].w, p, u);
        ldv_sub(y0, p, v);
        ldv_cross(u, v, c);
        ld l1 = ldv_dot(n, c) / nn;
        lam[idx[0]] = l0;
        lam[idx[1]] = l1;
        lam[idx[2]] = 1.0L - l0 - l1;
        /* the plane point itself: its direction is the plane normal, accurate even when it is tiny */
        point[0] = p[0];
        point[1] = p[1];
        point[2] = p[2];
        return 1;
    }
    else
    {
        ld e1[3], e2[3], e3[3], c[3];
        ldv_sub(s[idx[1]].w, y0, e1);
        ldv_sub(s[idx[2]].w, y0, e2);
        ldv_sub(s[idx[3]].w, y0, e3);
        ldv_cross(e2, e3, c);
        ld det = ldv_dot(e1, c);
        if (!(fabsl(det) > 1.0e-17L * ldv_norm(e1) * ldv_norm(e2) * ldv_norm(e3)))
        {
            return 0;
        }
        /* solve [e1 e2 e3] mu = -y0 by Cramer's rule, then two steps of iterative refinement on the
         * residual y0 + E mu (Cramer alone is not backward stable on flat tetrahedra) */
        ld mu[3] = { 0.0L, 0.0L, 0.0L };
        for (int step = 0; step < 3; ++step)
        {
            ld r[3], m[3];
            for (int i = 0; i < 3; ++i)
            {
                r[i] = -(y0[i] + mu[0] * e1[i] + mu[1] * e2[i] + mu[2] * e3[i]);
            }
            mu[0] += ldv_dot(r, c) / det;
            ldv_cross(r, e3, m);
            mu[1] += ldv_dot(e1, m) / det;
            ldv_cross(e2, r, m);
            mu[2] += ldv_dot(e1, m) / det;
        }
        lam[idx[0]] = 1.0L - mu[0] - mu[1] - mu[2];
        lam[idx[1]] = mu[0];
        lam[idx[2]] = mu[1];
        lam[idx[3]] = mu[2];
        for (int i = 0; i < 3; ++i)
        {
            /* the residual: zero up to rounding when the solve is good; honest when it is not */
            point[i] = y0[i] + mu[0] * e1[i] + mu[1] * e2[i] + mu[2] * e3[i];
        }
        return 1;
    }
    point[0] = point[1] = point[2] = 0.0L;
    for (int i = 0; i < 4; ++i)
    {
        if (lam[i] != 0.0L)
        {
            point[0] += lam[i] * s[i].w[0];
            point[1] += lam[i] * s[i].w[1];
            point[2] += lam[i] * s[i].w[2];
        }
    }
    return 1;
}

static int popcount4(unsigned m)
{
    return (int)((m & 1u) + ((m >> 1) & 1u) + ((m >> 2) & 1u) + ((m >> 3) & 1u));
}

/* Nearest point of conv(s[0..k)) to the origin by brute force over all subsets. Keeps only the
 * vertices of the winning subset (compacted, weights set) and returns the new count. */
static int closest_subset(overt* s, int k, ld v[3])
{
    ld best_vv = INFINITY;
    unsigned best_mask = 0;
    ld best_lam[4] = { 0, 0, 0, 0 };
    ld best_p[3] = { 0, 0, 0 };
    for (unsigned mask = 1; mask < (1u << k); ++mask)
    {
        ld lam[4], p[3];
        if (!project_subset(s, mask, lam, p))
        {
            continue;
        }
        int ok = 1;
        for (int i = 0; i < k; ++i)
        {
            if ((mask & (1u << i)) && !(lam[i] >= 0.0L))
            {
                ok = 0;
            }
        }
        if (!ok)
        {
            continue;
        }
        ld vv = ldv_dot(p, p);
        if (vv < best_vv || (vv == best_vv && popcount4(mask) < popcount4(best_mask)))
        {
            best_vv = vv;
            best_mask = mask;
            for (int i = 0; i < 4; ++i)
            {
                best_lam[i] = lam[i];
            }
            best_p[0] = p[0];
            best_p[1] = p[1];
            best_p[2] = p[2];
        }
    }
    int m = 0;
    for (int i = 0; i < k; ++i)
    {
        if ((best_mask & (1u << i)) && best_lam[i] > 0.0L)
        {
            s[m] = s[i];
            s[m].lam = best_lam[i];
            ++m;
        }
    }
    if (m == 0)
    {
        /* cannot happen (singletons are always feasible); keep the first vertex */
        s[0].lam = 1.0L;
        m = 1;
        best_p[0] = s[0].w[0];
        best_p[1] = s[0].w[1];
        best_p[2] = s[0].w[2];
    }
    v[0] = best_p[0];
    v[1] = best_p[1];
    v[2] = best_p[2];
    return m;
}

static void centroid(const ld* pts, int n, ld c[3])
{
    c[0] = c[1] = c[2] = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        c[0] += pts[3 * i];
        c[1] += pts[3 * i + 1];
        c[2] += pts[3 * i + 2];
    }
    c[0] /= (ld)n;
    c[1] /= (ld)n;
    c[2] /= (ld)n;
}

#define PXO_HISTORY 24

/* Distinct support points met by a GJK run: candidate face normals for the certificate. */
typedef struct history
{
    ld w[PXO_HISTORY][3];
    int ia[PXO_HISTORY], ib[PXO_HISTORY];
    int count;
} history;

static void history_add(history* h, const ld w[3], int ia, int ib)
{
    for (int i = 0; i < h->count; ++i)
    {
        if (h->ia[i] == ia && h->ib[i] == ib)
        {
            return;
        }
    }
    if (h->count < PXO_HISTORY)
    {
        h->w[h->count][0] = w[0];
        h->w[h->count][1] = w[1];
        h->w[h->count][2] = w[2];
        h->ia[h->count] = ia;
        h->ib[h->count] = ib;
        h->count++;
    }
}

/* One GJK run from start direction v0. Returns the simplex size; s holds the final simplex. */
static int gjk_run(const ld* a, int na, const ld* b, int nb, const ld v0[3], ld scale, overt s[4], int* iters,
                   ld v[3], history* h)
{
    v[0] = v0[0];
    v[1] = v0[1];
    v[2] = v0[2];
    if (!(ldv_dot(v, v) > 0.0L))
    {
        v[0] = 1.0L;
        v[1] = v[2] = 0.0L;
    }
    ld vv = INFINITY;
    int k = 0;
    int it = 0;
    const ld gap_tol = 1.0e-16L * scale;
    const ld touch = 1.0e-15L * scale;
    for (; it < PXO_MAX_ITERATIONS; ++it)
    {
        ld d[3] = { -v[0], -v[1], -v[2] };
        int ia = argmax_dot(a, na, d);
        int ib = argmax_dot(b, nb, v);
        ld w[3];
        ldv_sub(a + 3 * ia, b + 3 * ib, w);
        history_add(h, w, ia, ib);
        if (k > 0)
        {
            ld gap = vv - ldv_dot(v, w);
            if (gap <= gap_tol * sqrtl(vv))
            {
                break;
            }
            int dup = 0;
            for (int i = 0; i < k; ++i)
            {
                dup |= s[i].ia == ia && s[i].ib == ib;
            }
            if (dup || k == 4)
            {
                break;
            }
        }
        overt backup[4];
        for (int i = 0; i < k; ++i)
        {
            backup[i] = s[i];
        }
        s[k].w[0] = w[0];
        s[k].w[1] = w[1];
        s[k].w[2] = w[2];
        s[k].ia = ia;
        s[k].ib = ib;
        s[k].lam = 0.0L;
        ld vn[3];
        int kn = closest_subset(s, k + 1, vn);
        ld vvn = ldv_dot(vn, vn);
        if (!(vvn < vv))
        {
            for (int i = 0; i < k; ++i)
            {
                s[i] = backup[i];
            }
            break;
        }
        k = kn;
        v[0] = vn[0];
        v[1] = vn[1];
        v[2] = vn[2];
        vv = vvn;
        if (vv <= touch * touch)
        {
            ++it;
            break;
        }
    }
    *iters = it;
    return k;
}

/* Witness points, U, L and the certificate for a final simplex. */
static ld lower_bound_along(const ld* a, int na, const ld* b, int nb, const ld n[3])
{
    ld max_a = -INFINITY, min_b = INFINITY;
    for (int i = 0; i < na; ++i)
    {
        ld t = ldv_dot(n, a + 3 * i);
        max_a = t > max_a ? t : max_a;
    }
    for (int i = 0; i < nb; ++i)
    {
        ld t = ldv_dot(n, b + 3 * i);
        min_b = t < min_b ? t : min_b;
    }
    return min_b - max_a;
}

static void certify(const ld* a, int na, const ld* b, int nb, const overt* s, int k, const ld v[3],
                    const history* h, ld scale, pxo_distance* out)
{
    ld sum = 0.0L;
    int ok = k > 0;
    for (int i = 0; i < k; ++i)
    {
        ok &= s[i].lam >= 0.0L && s[i].ia >= 0 && s[i].ia < na && s[i].ib >= 0 && s[i].ib < nb;
        sum += s[i].lam;
    }
    ok &= fabsl(sum - 1.0L) <= 1.0e-15L;
    out->weights_ok = ok;
    out->simplex_count = k;
    for (int c = 0; c < 3; ++c)
    {
        out->p[c] = 0.0L;
        out->q[c] = 0.0L;
    }
    for (int i = 0; i < k && ok; ++i)
    {
        ld l = s[i].lam / sum; /* exact convex combination (sum checked to be 1 within 1e-15) */
        for (int c = 0; c < 3; ++c)
        {
            out->p[c] += l * a[3 * s[i].ia + c];
            out->q[c] += l * b[3 * s[i].ib + c];
        }
    }
    ld d[3];
    ldv_sub(out->q, out->p, d);
    ld u = ldv_norm(d);
    out->upper = u;
    out->scale = scale;
    const ld tol = PXO_CERT_REL * scale;
    out->overlap = ok && u <= tol;
    if (!ok)
    {
        out->certified = 0;
        out->lower = 0.0L;
        out->distance = u;
        return;
    }
    if (out->overlap)
    {
        out->lower = 0.0L;
        out->distance = 0.0L;
        out->normal[0] = out->normal[1] = out->normal[2] = 0.0L;
        out->certified = 1;
        return;
    }
    /* Any unit n gives a lower bound; try (Q - P) / U, the direction of the simplex's nearest point v
     * (accurate even near contact, see project_subset) and, for a triangle, its plane normal. Keep the
     * best. */
    ld cand[3][3];
    int nc = 0;
    for (int c = 0; c < 3; ++c)
    {
        cand[nc][c] = d[c] / u;
    }
    ++nc;
    ld vl = ldv_norm(v);
    if (vl > 0.0L)
    {
        for (int c = 0; c < 3; ++c)
        {
            cand[nc][c] = -v[c] / vl;
        }
        ++nc;
    }
    if (k == 3)
    {
        ld e1[3], e2[3], pn[3];
        ldv_sub(s[1].w, s[0].w, e1);
        ldv_sub(s[2].w, s[0].w, e2);
        ldv_cross(e1, e2, pn);
        ld pl = ldv_norm(pn);
        if (pl > 0.0L)
        {
            ld sgn = ldv_dot(pn, d) < 0.0L ? -1.0L : 1.0L;
            for (int c = 0; c < 3; ++c)
            {
                cand[nc][c] = sgn * pn[c] / pl;
            }
            ++nc;
        }
    }
    out->lower = -INFINITY;
    for (int j = 0; j < nc; ++j)
    {
        ld l = lower_bound_along(a, na, b, nb, cand[j]);
        if (l > out->lower)
        {
            out->lower = l;
            out->normal[0] = cand[j][0];
            out->normal[1] = cand[j][1];
            out->normal[2] = cand[j][2];
        }
    }
    if (u - out->lower > tol && h != NULL)
    {
        /* Near-coplanar faces of A - B (parallel faces, near contact) can fold by less than long double
         * can resolve in |v|, so GJK stalls on a neighbouring triangle. The true face is spanned by
         * support points GJK met: try the plane normal of every triple of them. */
        for (int i = 0; i < h->count && u - out->lower > tol; ++i)
        {
            for (int j = i + 1; j < h->count; ++j)
            {
                for (int l = j + 1; l < h->count; ++l)
                {
                    ld e1[3], e2[3], pn[3];
                    ldv_sub(h->w[j], h->w[i], e1);
                    ldv_sub(h->w[l], h->w[i], e2);
                    ldv_cross(e1, e2, pn);
                    ld pl = ldv_norm(pn);
                    if (!(pl > 0.0L))
                    {
                        continue;
                    }
                    ld sgn = ldv_dot(pn, d) < 0.0L ? -1.0L : 1.0L;
                    ld n[3] = { sgn * pn[0] / pl, sgn * pn[1] / pl, sgn * pn[2] / pl };
                    ld lb = lower_bound_along(a, na, b, nb, n);
                    if (lb > out->lower)
                    {
                        out->lower = lb;
                        out->normal[0] = n[0];
                        out->normal[1] = n[1];
                        out->normal[2] = n[2];
                    }
                }
            }
        }
    }
    out->distance = u;
    out->certified = u - out->lower <= tol;
}

void pxo_hull_distance(const long double* a, int na, const long double* b, int nb, long double scale,
                       pxo_distance* out)
{
    if (!(scale > 0.0L))
    {
        ld ea = pxo_extent(a, na), eb = pxo_extent(b, nb);
        scale = ea > eb ? ea : eb;
        if (!(scale > 0.0L))
        {
            scale = 1.0L;
        }
    }
    ld ca[3], cb[3], v0[3];
    centroid(a, na, ca);
    centroid(b, nb, cb);
    ldv_sub(ca, cb, v0);
    overt s[4];
    int iters = 0;
    ld v[3];
    static _Thread_local history h;
    h.count = 0;
    int k = gjk_run(a, na, b, nb, v0, scale, s, &iters, v, &h);
    certify(a, na, b, nb, s, k, v, &h, scale, out);
    out->iterations = iters;
    if (!out->certified && out->weights_ok && out->upper > 0.0L)
    {
        /* restart from the best direction found: -(Q - P) */
        ld v1[3];
        ldv_sub(out->p, out->q, v1);
        pxo_distance second;
        int it2 = 0;
        k = gjk_run(a, na, b, nb, v1, scale, s, &it2, v, &h);
        certify(a, na, b, nb, s, k, v, &h, scale, &second);
        second.iterations = iters + it2;
        if (second.certified || (second.weights_ok && second.upper - second.lower < out->upper - out->lower))
        {
            *out = second;
        }
    }
}

long double pxo_point_hull_distance(const long double p[3], const long double* pts, int n, long double scale,
                                    long double* lower, int* certified)
{
    pxo_distance r;
    pxo_hull_distance(pts, n, p, 1, scale, &r);
    if (lower != NULL)
    {
        *lower = r.lower;
    }
    if (certified != NULL)
    {
        *certified = r.certified;
    }
    return r.weights_ok ? r.upper : INFINITY;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Depth lower bound: an inner polytope of A - B around the origin.                                     */

#define PXO_INNER_MAX 48

static void minkowski_support(const ld* a, int na, const ld* b, int nb, const ld u[3], ld w[3])
{
    ld nu[3] = { -u[0], -u[1], -u[2] };
    int ia = argmax_dot(a, na, u);
    int ib = argmax_dot(b, nb, nu);
    ldv_sub(a + 3 * ia, b + 3 * ib, w);
}

/* Smallest signed distance from the origin to a supporting plane of conv(w) (positive inside), and its
 * outward unit normal. Brute force over triples. Returns -INFINITY when no supporting plane exists. */
static ld inner_radius(const ld* w, int k, ld scale, ld normal[3])
{
    ld best = INFINITY;
    int found = 0;
    for (int i = 0; i < k; ++i)
    {
        for (int j = i + 1; j < k; ++j)
        {
            for (int l = j + 1; l < k; ++l)
            {
                ld e1[3], e2[3], n[3];
                ldv_sub(w + 3 * j, w + 3 * i, e1);
                ldv_sub(w + 3 * l, w + 3 * i, e2);
                ldv_cross(e1, e2, n);
                ld nl = ldv_norm(n);
                if (!(nl > 1.0e-14L * ldv_norm(e1) * ldv_norm(e2)))
                {
                    continue;
                }
                n[0] /= nl;
                n[1] /= nl;
                n[2] /= nl;
                ld h = ldv_dot(n, w + 3 * i);
                ld slack = 1.0e-16L * scale;
                int pos = 0, neg = 0;
                for (int m = 0; m < k; ++m)
                {
                    ld t = ldv_dot(n, w + 3 * m) - h;
                    pos |= t > slack;
                    neg |= t < -slack;
                }
                if (pos && neg)
                {
                    continue;
                }
                if (pos)
                {
                    n[0] = -n[0];
                    n[1] = -n[1];
                    n[2] = -n[2];
                    h = -h;
                }
                /* plane n.x = h with every point on n.x <= h: the origin is inside by h */
                found = 1;
                if (h < best)
                {
                    best = h;
                    normal[0] = n[0];
                    normal[1] = n[1];
                    normal[2] = n[2];
                }
            }
        }
    }
    return found ? best : -INFINITY;
}

long double pxo_depth_lower_bound(const long double* a, int na, const long double* b, int nb,
                                  const long double hint[3], long double scale, long double target, int rounds)
{
    ld w[3 * PXO_INNER_MAX];
    int k = 0;
    ld dirs[18][3] = {
        { 1, 0, 0 }, { -1, 0, 0 }, { 0, 1, 0 }, { 0, -1, 0 }, { 0, 0, 1 }, { 0, 0, -1 },
        { 1, 1, 1 }, { 1, 1, -1 }, { 1, -1, 1 }, { 1, -1, -1 }, { -1, 1, 1 }, { -1, 1, -1 },
        { -1, -1, 1 }, { -1, -1, -1 }, { 0, 0, 0 }, { 0, 0, 0 },
    };
    int nd = 14;
    if (hint != NULL && ldv_dot(hint, hint) > 0.0L)
    {
        for (int c = 0; c < 3; ++c)
        {
            dirs[14][c] = hint[c];
            dirs[15][c] = -hint[c];
        }
        nd = 16;
    }
    for (int i = 0; i < nd; ++i)
    {
        ld p[3];
        minkowski_support(a, na, b, nb, dirs[i], p);
        int dup = 0;
        for (int j = 0; j < k; ++j)
        {
            dup |= w[3 * j] == p[0] && w[3 * j + 1] == p[1] && w[3 * j + 2] == p[2];
        }
        if (!dup)
        {
            w[3 * k] = p[0];
            w[3 * k + 1] = p[1];
            w[3 * k + 2] = p[2];
            ++k;
        }
    }
    ld r = -INFINITY;
    for (int round = 0; round <= rounds; ++round)
    {
        ld n[3] = { 0, 0, 0 };
        r = k >= 4 ? inner_radius(w, k, scale, n) : -INFINITY;
        if (r > target + PXO_CERT_REL * scale || round == rounds || k >= PXO_INNER_MAX || r == -INFINITY)
        {
            break;
        }
        ld p[3];
        minkowski_support(a, na, b, nb, n, p);
        if (ldv_dot(n, p) <= r + 1.0e-15L * scale)
        {
            break; /* that face is a face of A - B: r is the depth */
        }
        w[3 * k] = p[0];
        w[3 * k + 1] = p[1];
        w[3 * k + 2] = p[2];
        ++k;
    }
    return r - PXO_CERT_REL * scale;
}

/* ---------------------------------------------------------------------------------------------------- */

static void rot_matrix(const float q[4], ld m[3][3])
{
    ld x = q[0], y = q[1], z = q[2], w = q[3];
    ld l = sqrtl(x * x + y * y + z * z + w * w);
    x /= l;
    y /= l;
    z /= l;
    w /= l;
    m[0][0] = 1.0L - 2.0L * (y * y + z * z);
    m[0][1] = 2.0L * (x * y - w * z);
    m[0][2] = 2.0L * (x * z + w * y);
    m[1][0] = 2.0L * (x * y + w * z);
    m[1][1] = 1.0L - 2.0L * (x * x + z * z);
    m[1][2] = 2.0L * (y * z - w * x);
    m[2][0] = 2.0L * (x * z - w * y);
    m[2][1] = 2.0L * (y * z + w * x);
    m[2][2] = 1.0L - 2.0L * (x * x + y * y);
}

void pxo_transform_points(const float* local, int n, const float q[4], const float p[3], const float origin[3],
                          long double* world)
{
    ld m[3][3];
    rot_matrix(q, m);
    ld t[3];
    for (int c = 0; c < 3; ++c)
    {
        /* exact when the two floats are within 2^40 of each other, else one long double rounding */
        t[c] = (ld)p[c] - (origin != NULL ? (ld)origin[c] : 0.0L);
    }
    for (int i = 0; i < n; ++i)
    {
        ld x = local[3 * i], y = local[3 * i + 1], z = local[3 * i + 2];
        for (int r = 0; r < 3; ++r)
        {
            world[3 * i + r] = m[r][0] * x + m[r][1] * y + m[r][2] * z + t[r];
        }
    }
}

void pxo_rotate(const float q[4], const long double v[3], long double dest[3])
{
    ld m[3][3];
    rot_matrix(q, m);
    ld r[3];
    for (int i = 0; i < 3; ++i)
    {
        r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
    }
    dest[0] = r[0];
    dest[1] = r[1];
    dest[2] = r[2];
}
