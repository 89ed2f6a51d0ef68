/* Convex hull builder, part 3: the result lists (vertices, faces, edges) from the merged mesh, and the
 * lower-dimensional hulls: a point, a segment, a flat convex polygon (see hull.c). */
#include "hull_build.h"

/* ------------------------------------------------------------------------------------------------------
 * Results: the solid from the merged mesh, and the lower-dimensional hulls
 * ------------------------------------------------------------------------------------------------------ */

/* Vertices in input order, faces in slot order, edges once each (from their lower-index half-edge). */
bool pxi_hull_result_from_mesh(hull_build* b)
{
    int32_t* map = b->scratch;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (b->out[p] >= 0)
        {
            map[p] = b->res_vertices.count;
            if (!pxi_hull_ivec_push(b, &b->res_vertices, p))
            {
                return false;
            }
        }
    }
    for (int32_t f = 0; f < b->mf_count; ++f)
    {
        int32_t h0 = b->mf[f].edge, h = h0;
        if (h0 < 0)
        {
            continue;
        }
        int out_face = b->res_counts.count;
        if (!pxi_hull_ivec_push(b, &b->res_counts, b->mf[f].count) ||
            !pxi_hull_ivec_push(b, &b->res_twisted, b->mf[f].merged && b->mf[f].count > 3) ||
            !pxi_hull_grow(b, (void**)&b->planes, &b->planes_cap, 4 * sizeof(double), out_face + 1))
        {
            return false;
        }
        /* the normal the merges checked the face's flatness along (the loop's own Newell normal after a
         * vertex on an edge was dropped may differ slightly) */
        const double* area = b->mf[f].area;
        double len = sqrt(dot3(area, area));
        for (int k = 0; k < 3; ++k)
        {
            b->planes[4 * out_face + k] = len > 0.0 ? area[k] / len : 0.0;
        }
        do
        {
            int32_t i = map[b->he[h].origin], j = map[he_dest(b, h)];
            if (!pxi_hull_ivec_push(b, &b->res_indices, i) ||
                (i < j && (!pxi_hull_ivec_push(b, &b->res_edges, i) || !pxi_hull_ivec_push(b, &b->res_edges, j))))
            {
                return false;
            }
            h = b->he[h].next;
        } while (h != h0);
    }
    for (int i = 0; i < b->res_vertices.count; ++i)
    {
        map[b->res_vertices.data[i]] = -1;
    }
    return true;
}

/* A flat convex polygon of k vertices (input indices, counter-clockwise about its normal): the vertices in
 * order, one face per side, k edges. k == 1 and k == 2 give a point and a segment. */
bool pxi_hull_result_polygon(hull_build* b, const int32_t* idx, int k)
{
    for (int i = 0; i < k; ++i)
    {
        if (!pxi_hull_ivec_push(b, &b->res_vertices, idx[i]))
        {
            return false;
        }
    }
    if (k == 2)
    {
        return pxi_hull_ivec_push(b, &b->res_edges, 0) && pxi_hull_ivec_push(b, &b->res_edges, 1);
    }
    if (k < 3)
    {
        return true;
    }
    /* a polygon flat only within eps is listed for the climb (one face suffices: it holds every vertex) */
    bool planar = true;
    for (int i = 3; i < k && planar; ++i)
    {
        planar = pxi_hull_orient3d(gp(b, idx[0]), gp(b, idx[1]), gp(b, idx[2]), gp(b, idx[i])) == 0;
    }
    if (!pxi_hull_ivec_push(b, &b->res_counts, k) || !pxi_hull_ivec_push(b, &b->res_counts, k) ||
        !pxi_hull_ivec_push(b, &b->res_twisted, !planar) || !pxi_hull_ivec_push(b, &b->res_twisted, 0))
    {
        return false;
    }
    for (int i = 0; i < k; ++i)
    {
        if (!pxi_hull_ivec_push(b, &b->res_indices, i))
        {
            return false;
        }
    }
    for (int i = 0; i < k; ++i)
    {
        if (!pxi_hull_ivec_push(b, &b->res_indices, (k - i) % k)) /* 0, k - 1, ..., 1: the other side */
        {
            return false;
        }
    }
    for (int i = 0; i < k; ++i)
    {
        if (!pxi_hull_ivec_push(b, &b->res_edges, i) || !pxi_hull_ivec_push(b, &b->res_edges, (i + 1) % k))
        {
            return false;
        }
    }
    return true;
}

/* The points extreme along direction a -> b (first index on ties): the segment of a collinear cloud. */
bool pxi_hull_result_segment(hull_build* b, int32_t a, int32_t c)
{
    double pa[3], pc[3], d[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    for (int k = 0; k < 3; ++k)
    {
        d[k] = pc[k] - pa[k];
    }
    int32_t lo = 0, hi = 0;
    double dlo = INFINITY, dhi = -INFINITY;
    for (int32_t p = 0; p < b->n; ++p)
    {
        double x[3];
        gpd(b, p, x);
        double t = dot3(d, x);
        if (t < dlo)
        {
            dlo = t;
            lo = p;
        }
        if (t > dhi)
        {
            dhi = t;
            hi = p;
        }
    }
    const int32_t idx[2] = { lo, hi };
    return pxi_hull_result_polygon(b, idx, 2);
}

typedef struct pt2
{
    int32_t x, y, idx;
} pt2;

static int pt2_cmp(const void* pa, const void* pb)
{
    const pt2* a = pa;
    const pt2* c = pb;
    if (a->x != c->x)
    {
        return a->x < c->x ? -1 : 1;
    }
    if (a->y != c->y)
    {
        return a->y < c->y ? -1 : 1;
    }
    return a->idx < c->idx ? -1 : (a->idx > c->idx);
}

static int64_t orient2d(const pt2* a, const pt2* c, const pt2* d)
{
    return ((int64_t)c->x - a->x) * ((int64_t)d->y - a->y) - ((int64_t)c->y - a->y) * ((int64_t)d->x - a->x);
}

/* Distance of grid point p from the line through grid points a and c. */
double pxi_hull_line_dist(const hull_build* b, int32_t a, int32_t c, int32_t p)
{
    double pa[3], pc[3], pp[3], u[3], w[3], cr[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    gpd(b, p, pp);
    for (int k = 0; k < 3; ++k)
    {
        u[k] = pc[k] - pa[k];
        w[k] = pp[k] - pa[k];
    }
    cr[0] = u[1] * w[2] - u[2] * w[1];
    cr[1] = u[2] * w[0] - u[0] * w[2];
    cr[2] = u[0] * w[1] - u[1] * w[0];
    double uu = dot3(u, u);
    return uu > 0.0 ? sqrt(dot3(cr, cr) / uu) : sqrt(dot3(w, w));
}

/* The chain segment s -> e of polygon poly (cyclic positions) with its farthest inner vertex, if beyond eps.
 */
static bool push_segment(hull_build* b, const ivec* poly, int32_t s, int32_t e)
{
    int m = poly->count;
    double best = -1.0;
    int32_t far = -1;
    for (int32_t j = (s + 1) % m; j != e; j = (j + 1) % m)
    {
        double d = pxi_hull_line_dist(b, poly->data[s], poly->data[e], poly->data[j]);
        if (d > best)
        {
            best = d;
            far = j;
        }
    }
    if (!(best > b->eps))
    {
        return true;
    }
    heap_item item = { best, s, e, far, 0 };
    return pxi_hull_heap_push(b, item);
}

/* Flat cloud (within eps of the plane of a, c, d): the exact 2D hull of the points projected on the
 * coordinate plane most parallel to theirs (an affine map of the plane, so order and convexity are kept),
 * then simplified like quickhull: from the two extreme vertices along a -> c, add the vertex farthest from
 * its chord while it is more than eps away (and max_vertices allows). Returns the vertex count kept. */
bool pxi_hull_flat_hull(hull_build* b, int32_t a, int32_t c, int32_t d, int* kept_count)
{
    *kept_count = 0;
    double n[3];
    pxi_hull_cross_exact(gp(b, a), gp(b, c), gp(b, d), n);
    int k = 0;
    for (int i = 1; i < 3; ++i)
    {
        k = fabs(n[i]) > fabs(n[k]) ? i : k;
    }
    int i1 = (k + 1) % 3, i2 = (k + 2) % 3;
    if (n[k] < 0.0)
    {
        int t = i1; /* keep counter-clockwise about +n */
        i1 = i2;
        i2 = t;
    }
    size_t bytes;
    pt2* pts = pxi_hull_build_alloc(b, (size_t)b->n, sizeof(pt2), &bytes);
    if (pts == NULL)
    {
        return false;
    }
    for (int32_t p = 0; p < b->n; ++p)
    {
        pts[p].x = gp(b, p)[i1];
        pts[p].y = gp(b, p)[i2];
        pts[p].idx = p;
    }
    qsort(pts, (size_t)b->n, sizeof(pt2), pt2_cmp);
    int m = 0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (m == 0 || pts[p].x != pts[m - 1].x || pts[p].y != pts[m - 1].y)
        {
            pts[m++] = pts[p];
        }
    }
    /* Andrew's monotone chain, exact; collinear points are dropped */
    ivec* hullv = &b->stack;
    hullv->count = 0;
    for (int pass = 0; pass < 2 && m > 1; ++pass)
    {
        int base = hullv->count;
        for (int i = 0; i < m; ++i)
        {
            const pt2* p = &pts[pass == 0 ? i : m - 1 - i];
            while (hullv->count >= base + 2 &&
                   orient2d(&pts[hullv->data[hullv->count - 2]], &pts[hullv->data[hullv->count - 1]], p) <= 0)
            {
                hullv->count--;
            }
            if (!pxi_hull_ivec_push(b, hullv, (int32_t)(p - pts)))
            {
                pxi_free(&b->alloc, pts, bytes);
                return false;
            }
        }
        hullv->count--; /* the last point starts the other chain */
    }
    ivec* poly = &b->order;
    poly->count = 0;
    for (int i = 0; i < hullv->count; ++i)
    {
        if (!pxi_hull_ivec_push(b, poly, pts[hullv->data[i]].idx))
        {
            pxi_free(&b->alloc, pts, bytes);
            return false;
        }
    }
    pxi_free(&b->alloc, pts, bytes);
    m = poly->count;
    if (m < 3)
    {
        return true;
    }
    /* simplification, farthest vertex first (a heap), so a vertex limit keeps the most significant ones */
    double pa[3], pc[3], dir[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    for (int i = 0; i < 3; ++i)
    {
        dir[i] = pc[i] - pa[i];
    }
    int32_t lo = 0, hi = 0;
    double dlo = INFINITY, dhi = -INFINITY;
    for (int32_t i = 0; i < m; ++i)
    {
        double x[3];
        gpd(b, poly->data[i], x);
        double t = dot3(dir, x);
        if (t < dlo)
        {
            dlo = t;
            lo = i;
        }
        if (t > dhi)
        {
            dhi = t;
            hi = i;
        }
    }
    if (lo == hi)
    {
        return true;
    }
    ivec* keep = &b->visible;
    keep->count = 0;
    for (int i = 0; i < m; ++i)
    {
        if (!pxi_hull_ivec_push(b, keep, i == lo || i == hi))
        {
            return false;
        }
    }
    int kept = 2;
    b->heap_count = 0;
    if (!push_segment(b, poly, lo, hi) || !push_segment(b, poly, hi, lo))
    {
        return false;
    }
    heap_item top;
    while (pxi_hull_heap_pop(b, &top))
    {
        if (b->max_vertices > 0 && kept >= b->max_vertices)
        {
            b->capacity_hit = true;
            break;
        }
        keep->data[top.c] = 1;
        kept++;
        if (!push_segment(b, poly, top.a, top.c) || !push_segment(b, poly, top.c, top.b))
        {
            return false;
        }
    }
    int j = 0;
    for (int i = 0; i < m; ++i)
    {
        if (keep->data[i])
        {
            poly->data[j++] = poly->data[i];
        }
    }
    poly->count = j;
    *kept_count = j;
    return true;
}
