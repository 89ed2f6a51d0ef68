/* The direction table of a built hull (px_hull.cells, hull_internal.h): for each cell of a cube map of
 * directions, the vertices that are the support along some direction of the cell.
 *
 * A vertex v is the support along d when no neighbour is higher: d . (q - v) <= 0 for every q adjacent to
 * v (and, on slightly twisted merged faces, every other vertex of those faces: the comparisons the climb
 * makes, so the table lists exactly the climb's possible answers). Those half-spaces form v's normal cone.
 * On the cube face of dominant axis a and sign s, a direction is (s on a, x on u, y on w) with x and y in
 * [-1, 1], and each half-space becomes a half-plane in (x, y):
 *     s g_a + x g_u + y g_w <= 0,   g = q - v.
 * The square clipped by them (in double, Sutherland-Hodgman) is the cone's trace on the face; v is listed
 * in every cell whose square, grown by a thousandth of a cell on each side, meets the trace. The growth
 * covers the rounding of pxi_hull_cell's cell coordinates, and the half-planes keep a relative slack of
 * 1e-9, so a list can only be too long, never miss a vertex: one more candidate costs a dot product, a
 * missing one a wrong support.
 *
 * Cost: O(vertices x degree) clips plus one small clip per (vertex, cell) pair it meets; a 1024-vertex
 * hull takes well under a millisecond. */
#include "hull_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* Polygons of the clip: the square plus one vertex per half-plane at most. Half-planes beyond what fits
 * are skipped, which keeps a superset of the trace (safe: more candidates). */
#define CELLS_POLY_MAX 64
#define CELLS_EMPTY INT32_MIN

/* Clip the convex polygon (xy[2 n]) by c0 + c1 x + c2 y <= slack into out; returns the new count, or -1
 * when every corner is inside (out is then not written: the polygon is unchanged). A convex polygon gains
 * at most one corner from a clip; rounding noise around lines through one point can make the signs
 * alternate and add more, and such a clip is skipped (-1): a larger trace, never an overrun of out. */
static int clip_half_plane(const double* xy, int n, double c0, double c1, double c2, double slack, double* out)
{
    double f[CELLS_POLY_MAX + 4];
    int inside = 0;
    for (int i = 0; i < n; ++i)
    {
        f[i] = c0 + c1 * xy[2 * i] + c2 * xy[2 * i + 1] - slack;
        inside += f[i] <= 0.0;
    }
    if (inside == n)
    {
        return -1;
    }
    int m = 0;
    for (int i = 0; i < n && inside > 0; ++i)
    {
        int j = i + 1 == n ? 0 : i + 1;
        const bool keep = f[i] <= 0.0;
        const bool cross = (f[i] < 0.0 && f[j] > 0.0) || (f[i] > 0.0 && f[j] < 0.0);
        if (m + keep + cross > n + 1)
        {
            return -1; /* more corners than a convex clip makes: noise, skipped */
        }
        if (keep)
        {
            out[2 * m] = xy[2 * i];
            out[2 * m + 1] = xy[2 * i + 1];
            ++m;
        }
        if (cross)
        {
            double t = f[i] / (f[i] - f[j]);
            out[2 * m] = xy[2 * i] + t * (xy[2 * j] - xy[2 * i]);
            out[2 * m + 1] = xy[2 * i + 1] + t * (xy[2 * j + 1] - xy[2 * i + 1]);
            ++m;
        }
    }
    return m;
}

/* Whether the convex polygon (counter-clockwise, as the clips keep the square's order) meets the box
 * [x0, x1] x [y0, y1], given that their bounding boxes overlap: then only a polygon edge can separate
 * them, when every corner of the box is strictly outside it. A degenerate polygon (a point or a segment
 * after clipping) is taken to meet the box: a longer list is safe.
 *
 * Edges shorter than CELLS_EDGE_MIN are not tested: their direction is rounding noise. Many half-planes
 * of a cone can pass through one point (the slack makes the lines of all the neighbours on an
 * axis-aligned face, c0 = 0, touch the square [-1e-9, 1e-9]^2 at the corner of their signs), and a clip
 * through a corner that rounds to just outside it replaces it by two points 1e-16 apart. The normal of
 * that edge points anywhere: it rejected cells far along the cone (vertices went missing from settled
 * cells, supports short by 0.16% of a flat pyramid's size and 1.5% of a quantized ball's: test
 * direction_table_flat_pyramid). Skipping an edge only lengthens a list; a longer edge's direction errs
 * by at most about 1e-8, which the cells' growth covers. */
#define CELLS_EDGE_MIN 1e-6
static bool polygon_meets_box(const double* xy, int n, double x0, double x1, double y0, double y1)
{
    for (int i = 0; i < n && n >= 3; ++i)
    {
        int j = i + 1 == n ? 0 : i + 1;
        /* outward normal of the edge i -> j of a counter-clockwise polygon: (ey, -ex) */
        double ex = xy[2 * j] - xy[2 * i], ey = xy[2 * j + 1] - xy[2 * i + 1];
        if (ex * ex + ey * ey < CELLS_EDGE_MIN * CELLS_EDGE_MIN)
        {
            continue;
        }
        double px = xy[2 * i], py = xy[2 * i + 1];
        /* the box corner least along the normal */
        double cx = ey > 0.0 ? x0 : x1, cy = -ex > 0.0 ? y0 : y1;
        if ((cx - px) * ey - (cy - py) * ex > 0.0)
        {
            return false;
        }
    }
    return true;
}

/* List vertex v in cell c (see pxi_dir_cell; CELLS_EMPTY marks free entries while the table is built). */
static void cell_add(pxi_dir_cell* c, const float* p, int32_t v)
{
    for (int k = 0; k < PXI_CELL_SLOTS; ++k)
    {
        if (c->index[k] == CELLS_EMPTY)
        {
            c->x[k] = p[0];
            c->y[k] = p[1];
            c->z[k] = p[2];
            c->index[k] = v;
            return;
        }
    }
    if (c->index[PXI_CELL_SLOTS - 1] >= 0)
    {
        c->index[PXI_CELL_SLOTS - 1] = ~c->index[PXI_CELL_SLOTS - 1]; /* one candidate too many: it climbs */
    }
}

/* Entry k of cell c: the vertex of climbing record r. */
static void cell_set(pxi_dir_cell* c, int k, const pxi_climb_node* r)
{
    c->x[k] = r->v.p[0];
    c->y[k] = r->v.p[1];
    c->z[k] = r->v.p[2];
    c->index[k] = r->v.link;
}

/* The half-planes of v's cone on cube face (a, s): appends (g_a s, g_u, g_w) for neighbour q to g. */
static int cone_planes(const struct px_hull* h, int32_t v, double* g, int cap)
{
    const float* pv = h->vertices + 3 * (size_t)v;
    int n = 0;
    for (int32_t k = h->adjacency_offsets[v]; k < h->adjacency_offsets[v + 1] && n < cap; ++k)
    {
        const float* q = h->vertices + 3 * (size_t)h->adjacency[k];
        for (int i = 0; i < 3; ++i)
        {
            g[3 * n + i] = (double)q[i] - (double)pv[i];
        }
        ++n;
    }
    for (int32_t k = h->climb_face_offsets[v]; k < h->climb_face_offsets[v + 1]; ++k)
    {
        const px_hull_face* f = &h->faces[h->climb_faces[k]];
        for (int i = 0; i < f->count && n < cap; ++i)
        {
            int32_t w = h->face_indices[f->first + i];
            if (w == v)
            {
                continue;
            }
            const float* q = h->vertices + 3 * (size_t)w;
            for (int j = 0; j < 3; ++j)
            {
                g[3 * n + j] = (double)q[j] - (double)pv[j];
            }
            ++n;
        }
    }
    return n;
}

int pxi_hull_cell_k(int vertex_count, int climb_min_vertices)
{
    if (vertex_count < climb_min_vertices)
    {
        return 1; /* supports scan such hulls: six cells, seeds for the odd climb (manifold.c) */
    }
    /* about one and a half cells per vertex: on points spread over an ellipsoid of axes 3 : 1.5 : 1, 96% of
     * the cells then meet at most eight normal cones (bench_hull_support) */
    int k = (int)ceil(sqrt((double)vertex_count / 4.0));
    return k < 1 ? 1 : (k > 64 ? 64 : k);
}

/* The trace of a cone (planes half-spaces g) on cube face `face`, clipped to [-half, half]^2: its count of
 * corners in poly (tmp is scratch of the same size). */
static int face_trace(const double* g, int planes, int face, double half, double* poly, double* tmp)
{
    const int a = face / 2, u = a == 2 ? 0 : a + 1, w = a == 0 ? 2 : a - 1;
    const double s = face % 2 ? -1.0 : 1.0;
    double sq[8] = { -half, -half, half, -half, half, half, -half, half };
    memcpy(poly, sq, sizeof(sq));
    int n = 4;
    for (int i = 0; i < planes && n > 0; ++i)
    {
        const double* gi = g + 3 * i;
        double c0 = s * gi[a], c1 = gi[u], c2 = gi[w];
        double slack = 1e-9 * (fabs(c0) + fabs(c1) + fabs(c2));
        int m = clip_half_plane(poly, n, c0, c1, c2, slack, tmp);
        if (m >= 0)
        {
            n = m;
            memcpy(poly, tmp, sizeof(double) * 2 * (size_t)n);
        }
    }
    return n;
}

/* List vertex v (position pv) in every cell of cube face `face` whose grown square meets the trace. */
static void list_trace(struct px_hull* h, const float* pv, int32_t v, int face, const double* poly, int n)
{
    const int kk = h->cell_k;
    const double width = 2.0 / kk;       /* a cell's side, in face coordinates */
    const double grow = 1e-3 * width;    /* a thousandth of it */
    double x0 = poly[0], x1 = poly[0], y0 = poly[1], y1 = poly[1];
    for (int i = 1; i < n; ++i)
    {
        x0 = fmin(x0, poly[2 * i]);
        x1 = fmax(x1, poly[2 * i]);
        y0 = fmin(y0, poly[2 * i + 1]);
        y1 = fmax(y1, poly[2 * i + 1]);
    }
    /* the cells whose grown squares meet the trace's bounding box */
    const double scale = 0.5 * kk;
    int i0 = (int)floor((x0 + 1.0) * scale - 1e-3), i1 = (int)floor((x1 + 1.0) * scale + 1e-3);
    int j0 = (int)floor((y0 + 1.0) * scale - 1e-3), j1 = (int)floor((y1 + 1.0) * scale + 1e-3);
    i0 = i0 < 0 ? 0 : i0;
    j0 = j0 < 0 ? 0 : j0;
    i1 = i1 >= kk ? kk - 1 : i1;
    j1 = j1 >= kk ? kk - 1 : j1;
    for (int i = i0; i <= i1; ++i)
    {
        for (int j = j0; j <= j1; ++j)
        {
            double cx0 = i * width - 1.0 - grow, cx1 = (i + 1) * width - 1.0 + grow;
            double cy0 = j * width - 1.0 - grow, cy1 = (j + 1) * width - 1.0 + grow;
            if ((i0 == i1 && j0 == j1) || polygon_meets_box(poly, n, cx0, cx1, cy0, cy1))
            {
                cell_add(&h->cells[(face * kk + i) * kk + j], pv, v);
            }
        }
    }
}

/* The cube face of the mean normal of v's faces (a likely home of its cone), or -1 when they cancel. */
static int likely_face(const struct px_hull* h, int32_t v)
{
    double n[3] = { 0.0, 0.0, 0.0 };
    for (int32_t k = h->vertex_face_offsets[v]; k < h->vertex_face_offsets[v + 1]; ++k)
    {
        const float* pl = h->faces[h->vertex_faces[k]].plane;
        n[0] += pl[0];
        n[1] += pl[1];
        n[2] += pl[2];
    }
    double ax = fabs(n[0]), ay = fabs(n[1]), az = fabs(n[2]);
    int a = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    return fabs(n[a]) > 1e-3 ? 2 * a + (n[a] < 0.0) : -1;
}

void pxi_hull_build_cells(struct px_hull* h)
{
    const int kk = h->cell_k;
    const int cells = 6 * kk * kk;
    for (int c = 0; c < cells; ++c)
    {
        for (int k = 0; k < PXI_CELL_SLOTS; ++k)
        {
            h->cells[c].index[k] = CELLS_EMPTY;
        }
    }
    const double grow = 1e-3 * 2.0 / kk;
    double g[3 * CELLS_POLY_MAX];
    double poly[2 * (CELLS_POLY_MAX + 4)], tmp[2 * (CELLS_POLY_MAX + 4)];
    for (int32_t v = 0; v < h->vertex_count; ++v)
    {
        const float* pv = h->vertices + 3 * (size_t)v;
        int planes = cone_planes(h, v, g, CELLS_POLY_MAX - 4);
        /* Most cones lie within a few degrees of their faces' mean normal. Traced on a square twice as wide
         * as the cube face of that normal, a bounded trace shows the whole cone in the face's open
         * hemisphere (a cone reaching beyond it would join the traced part through directions of unbounded
         * face coordinates), so it meets only the faces its trace reaches: that face, and the neighbours
         * across the edges it comes within the growth of. */
        int face = likely_face(h, v);
        int n = face >= 0 ? face_trace(g, planes, face, 4.0, poly, tmp) : 0;
        double lo[2] = { 0.0, 0.0 }, hi[2] = { 0.0, 0.0 };
        for (int i = 0; i < 2 * n; ++i)
        {
            lo[i & 1] = fmin(lo[i & 1], poly[i]);
            hi[i & 1] = fmax(hi[i & 1], poly[i]);
        }
        if (n > 0 && lo[0] > -2.0 && lo[1] > -2.0 && hi[0] < 2.0 && hi[1] < 2.0)
        {
            list_trace(h, pv, v, face, poly, n);
            const int a = face / 2, axes[2] = { a == 2 ? 0 : a + 1, a == 0 ? 2 : a - 1 };
            for (int t = 0; t < 2; ++t)
            {
                /* across the edge at -1 and at +1 of face coordinate t (axis axes[t]) */
                for (int side = 0; side < 2; ++side)
                {
                    if (side == 0 ? lo[t] > -1.0 + grow : hi[t] < 1.0 - grow)
                    {
                        continue;
                    }
                    int other = 2 * axes[t] + (side == 0);
                    int m = face_trace(g, planes, other, 1.0 + grow, poly, tmp);
                    if (m > 0)
                    {
                        list_trace(h, pv, v, other, poly, m);
                    }
                }
            }
            continue;
        }
        for (face = 0; face < 6; ++face)
        {
            n = face_trace(g, planes, face, 1.0 + grow, poly, tmp);
            if (n > 0)
            {
                list_trace(h, pv, v, face, poly, n);
            }
        }
    }
    /* fill: a cell with fewer than eight candidates repeats its first; one with none (the cones cover
     * every direction, so only after rounding trouble) gets the climb's answer at its centre and climbs
     * from it */
    int32_t prev = 0;
    for (int c = 0; c < cells; ++c)
    {
        pxi_dir_cell* cell = &h->cells[c];
        if (cell->index[0] == CELLS_EMPTY)
        {
            const int face = c / (kk * kk), i = (c / kk) % kk, j = c % kk;
            const int a = face / 2, u = a == 2 ? 0 : a + 1, w = a == 0 ? 2 : a - 1;
            vec3 d;
            d[a] = face % 2 ? -1.0f : 1.0f;
            d[u] = (float)(2 * i + 1) / (float)kk - 1.0f;
            d[w] = (float)(2 * j + 1) / (float)kk - 1.0f;
            prev = pxi_hull_climb_from(h, d, prev, pxi_hull_climb_dot(h, h->climb_nodes[prev].v.p, d));
            for (int k = 0; k < PXI_CELL_SLOTS; ++k)
            {
                cell_set(cell, k, &h->climb_nodes[prev]);
            }
            cell->index[PXI_CELL_SLOTS - 1] = ~cell->index[PXI_CELL_SLOTS - 1];
            continue;
        }
        for (int k = 1; k < PXI_CELL_SLOTS; ++k)
        {
            if (cell->index[k] == CELLS_EMPTY)
            {
                cell->x[k] = cell->x[0];
                cell->y[k] = cell->y[0];
                cell->z[k] = cell->z[0];
                cell->index[k] = cell->index[0];
            }
        }
    }
}
