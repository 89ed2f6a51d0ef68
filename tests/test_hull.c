/* Convex hulls (hull.h): px_hull_create on boxes, random clouds (spheres, ellipsoids, boxes, Gaussians,
 * balls, 10 to 10^5 points), needles and slivers, lattices and quantized clouds, degenerate and nearly
 * degenerate inputs (a point, segments, flat polygons, a thin box, huge and tiny coordinates, large offsets),
 * the hull inputs of KNOWN_FAILURES 2.7 (nearly collinear points, duplicated vertices, large exactly-coplanar
 * clusters), max_vertices, bad input and allocation failure; and the hill-climbing support pxi_hull_climb
 * against brute force from many starts, along random, axis-aligned and diagonal directions.
 *
 * Every solid hull goes through check_hull, which verifies the structure independently of the builder:
 * V - E + F = 2; every vertex is an input point and a corner (on three faces or more, or on the rim of a part
 * thinner than the tolerance); every face has >= 3 distinct vertices, a unit normal, is planar and convex
 * within the tolerance and counter-clockwise from outside; every edge is shared by exactly two faces, once
 * in each direction, and the edge list is exactly that set; adjacency is symmetric and matches the edges; no
 * hull vertex is above any face plane; every input point is inside every face plane within the tolerance; no
 * two neighbouring faces are coplanar and mergeable; and the hull's support equals the cloud's within the
 * tolerance in 1000 random directions. The tolerance is def.tolerance x the largest side of the cloud's
 * bounding box, plus float rounding of the stored planes (a few ulps of the coordinates). */
#include <float.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "shapes/hull_internal.h"
#include "shapes/support_internal.h"
#include "support/count_alloc.h"
#include "support/rng.h"
#include "test.h"

#define HULL_TOL 1.0e-5

/* ------------------------------------------------------------------------------------------------------
 * Point clouds
 * ------------------------------------------------------------------------------------------------------ */

typedef enum cloud_kind
{
    CLOUD_SPHERE,
    CLOUD_ELLIPSOID,
    CLOUD_BOX,
    CLOUD_GAUSSIAN,
    CLOUD_BALL,
} cloud_kind;

static const char* cloud_name(cloud_kind k)
{
    static const char* names[] = { "sphere", "ellipsoid", "box", "gaussian", "ball" };
    return names[k];
}

static float* make_cloud(cloud_kind kind, int n, uint64_t seed)
{
    px_rng r = px_rng_seeded(seed);
    float* p = malloc(3 * (size_t)n * sizeof(float));
    for (int i = 0; i < n; ++i)
    {
        double v[3];
        switch (kind)
        {
        case CLOUD_SPHERE:
            px_rng_unit_vector(&r, v);
            break;
        case CLOUD_ELLIPSOID:
            px_rng_unit_vector(&r, v);
            v[0] *= 3.0;
            v[1] *= 1.5;
            v[2] *= 0.5;
            break;
        case CLOUD_BOX:
            for (int k = 0; k < 3; ++k)
            {
                v[k] = px_rng_range(&r, -1.0, 1.0) * (k + 1);
            }
            break;
        case CLOUD_GAUSSIAN:
            for (int k = 0; k < 3; ++k)
            {
                v[k] = px_rng_normal(&r);
            }
            break;
        default:
        {
            px_rng_unit_vector(&r, v);
            double s = cbrt(px_rng_unit(&r));
            v[0] *= s;
            v[1] *= s;
            v[2] *= s;
            break;
        }
        }
        for (int k = 0; k < 3; ++k)
        {
            p[3 * i + k] = (float)v[k];
        }
    }
    return p;
}

static double cloud_side(const float* p, int n)
{
    double side = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        double lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < n; ++i)
        {
            lo = fmin(lo, p[3 * i + k]);
            hi = fmax(hi, p[3 * i + k]);
        }
        side = fmax(side, hi - lo);
    }
    return side;
}

static double cloud_magnitude(const float* p, int n)
{
    double m = 0.0;
    for (int i = 0; i < 3 * n; ++i)
    {
        m = fmax(m, fabs(p[i]));
    }
    return m;
}

static double ddot(const float* a, const double* d)
{
    return (double)a[0] * d[0] + (double)a[1] * d[1] + (double)a[2] * d[2];
}

/* ------------------------------------------------------------------------------------------------------
 * Structure checks
 * ------------------------------------------------------------------------------------------------------ */

static int cmp_point(const void* pa, const void* pb)
{
    const float* a = pa;
    const float* b = pb;
    for (int k = 0; k < 3; ++k)
    {
        if (a[k] != b[k])
        {
            return a[k] < b[k] ? -1 : 1;
        }
    }
    return 0;
}

typedef struct keyed_edge
{
    uint64_t key;
    int32_t face;
} keyed_edge;

static int cmp_keyed(const void* pa, const void* pb)
{
    uint64_t a = ((const keyed_edge*)pa)->key, b = ((const keyed_edge*)pb)->key;
    return a < b ? -1 : (a > b);
}

/* Face holding directed edge key, or -1. */
static int keyed_face(const keyed_edge* e, int n, uint64_t key)
{
    keyed_edge k = { key, -1 };
    const keyed_edge* hit = bsearch(&k, e, (size_t)n, sizeof(keyed_edge), cmp_keyed);
    return hit != NULL ? hit->face : -1;
}

static int cmp_u64(const void* pa, const void* pb)
{
    uint64_t a = *(const uint64_t*)pa, b = *(const uint64_t*)pb;
    return a < b ? -1 : (a > b);
}

static uint64_t edge_key(int32_t i, int32_t j)
{
    return ((uint64_t)(uint32_t)i << 32) | (uint32_t)j;
}

static bool key_present(const uint64_t* keys, int n, uint64_t k)
{
    return bsearch(&k, keys, (size_t)n, sizeof(uint64_t), cmp_u64) != NULL;
}

/* Newell normal of a face loop (double, unnormalized). */
static void face_newell(const px_hull* h, const px_hull_face* f, double n[3])
{
    const float* v = px_hull_vertices(h);
    const int32_t* idx = px_hull_face_indices(h) + f->first;
    n[0] = n[1] = n[2] = 0.0;
    for (int i = 0; i < f->count; ++i)
    {
        const float* a = v + 3 * idx[i];
        const float* b = v + 3 * idx[(i + 1) % f->count];
        n[0] += ((double)a[1] - b[1]) * ((double)a[2] + b[2]);
        n[1] += ((double)a[2] - b[2]) * ((double)a[0] + b[0]);
        n[2] += ((double)a[0] - b[0]) * ((double)a[1] + b[1]);
    }
}

/* Signed distance of p above face f's plane, in double. */
static double plane_dist(const px_hull_face* f, const float* p)
{
    return (double)f->plane[0] * p[0] + (double)f->plane[1] * p[1] + (double)f->plane[2] * p[2] - f->plane[3];
}

/* Distance by which a face-loop corner v (between u and w) lies inside the chord u -> w (positive: reflex).
 */
static double corner_reflex(const float* u, const float* v, const float* w, const float* n)
{
    double uw[3], uv[3];
    for (int k = 0; k < 3; ++k)
    {
        uw[k] = (double)w[k] - u[k];
        uv[k] = (double)v[k] - u[k];
    }
    double c[3] = { uw[1] * uv[2] - uw[2] * uv[1], uw[2] * uv[0] - uw[0] * uv[2],
                    uw[0] * uv[1] - uw[1] * uv[0] };
    double len = sqrt(uw[0] * uw[0] + uw[1] * uw[1] + uw[2] * uw[2]);
    return (c[0] * n[0] + c[1] * n[1] + c[2] * n[2]) / len;
}

/* Whether faces f and g, sharing the edge a -> b of f, form a convex polygon within tol (about f's normal).
 * False when they share more than that edge (the union is then not a simple polygon). */
static bool union_convex(const px_hull* h, int f, int g, int32_t a, int32_t b, double tol)
{
    const px_hull_face* faces = px_hull_faces(h);
    const int32_t* idx = px_hull_face_indices(h);
    const float* v = px_hull_vertices(h);
    int32_t loop[512];
    int n = 0, fc = faces[f].count, gc = faces[g].count;
    if (fc + gc - 2 > 512)
    {
        return false;
    }
    int ib = 0, ia = 0;
    while (idx[faces[f].first + ib] != b)
    {
        ++ib;
    }
    for (int i = 0; i < fc; ++i) /* f from b round to a */
    {
        loop[n++] = idx[faces[f].first + (ib + i) % fc];
    }
    while (idx[faces[g].first + ia] != a)
    {
        ++ia;
    }
    for (int i = 1; i < gc - 1; ++i) /* g after a, up to before b */
    {
        loop[n++] = idx[faces[g].first + (ia + i) % gc];
    }
    for (int i = 0; i < n; ++i)
    {
        for (int j = 0; j < i; ++j)
        {
            if (loop[i] == loop[j])
            {
                return false;
            }
        }
    }
    for (int i = 0; i < n; ++i)
    {
        const float* pu = v + 3 * loop[(i + n - 1) % n];
        const float* pw = v + 3 * loop[(i + 1) % n];
        if (!(corner_reflex(pu, v + 3 * loop[i], pw, faces[f].plane) <= tol))
        {
            return false;
        }
    }
    return true;
}

typedef struct check_opts
{
    double tolerance;    /* def.tolerance */
    bool all_inside;     /* every input point inside (false after a max_vertices stop) */
    bool check_coplanar; /* no two adjacent faces coplanar */
} check_opts;

#define HC_FAIL(...)                                                                                         \
    do                                                                                                       \
    {                                                                                                        \
        fprintf(stderr, "%s:%d: ", __FILE__, __LINE__);                                                      \
        fprintf(stderr, __VA_ARGS__);                                                                        \
        fprintf(stderr, "\n");                                                                               \
        goto fail;                                                                                           \
    } while (0)

/* The invariants of a solid hull of points[n] (see the file comment). */
static int check_hull(const float* points, int n, const px_hull* h, const check_opts* o, uint64_t seed)
{
    int status = 1;
    const int V = px_hull_vertex_count(h), F = px_hull_face_count(h), E = px_hull_edge_count(h);
    const float* v = px_hull_vertices(h);
    const px_hull_face* faces = px_hull_faces(h);
    const int32_t* idx = px_hull_face_indices(h);
    const int32_t* edges = px_hull_edges(h);
    const double side = cloud_side(points, n);
    const double eps = o->tolerance * side;
    /* float planes: n . p rounds at a few ulps of |p| and of w */
    const double fround = 8.0 * FLT_EPSILON * (cloud_magnitude(points, n) + side);
    float* sorted = NULL;
    keyed_edge* directed = NULL;
    uint64_t* undirected = NULL;
    int32_t* vertex_faces = NULL;

    if (px_hull_dimension(h) != 3 || V < 4 || F < 4 || E < 6)
    {
        HC_FAIL("not a solid: dimension %d, V %d, F %d, E %d", px_hull_dimension(h), V, F, E);
    }
    if (V - E + F != 2)
    {
        HC_FAIL("Euler: V %d - E %d + F %d != 2", V, E, F);
    }
    /* every vertex is an input point, and no vertex repeats */
    sorted = malloc(3 * sizeof(float) * (size_t)n);
    memcpy(sorted, points, 3 * sizeof(float) * (size_t)n);
    qsort(sorted, (size_t)n, 3 * sizeof(float), cmp_point);
    for (int i = 0; i < V; ++i)
    {
        if (!isfinite(v[3 * i]) || !isfinite(v[3 * i + 1]) || !isfinite(v[3 * i + 2]) ||
            bsearch(v + 3 * i, sorted, (size_t)n, 3 * sizeof(float), cmp_point) == NULL)
        {
            HC_FAIL("vertex %d (%g %g %g) is not an input point", i, v[3 * i], v[3 * i + 1], v[3 * i + 2]);
        }
    }
    /* faces: size, distinct indices, unit normal, planar, convex, counter-clockwise from outside */
    int total = 0;
    vertex_faces = calloc((size_t)V, sizeof(int32_t));
    for (int f = 0; f < F; ++f)
    {
        const px_hull_face* face = &faces[f];
        if (face->count < 3 || face->first != total)
        {
            HC_FAIL("face %d: count %d, first %d (expected %d)", f, face->count, face->first, total);
        }
        total += face->count;
        const float* nrm = face->plane;
        double len = sqrt((double)nrm[0] * nrm[0] + (double)nrm[1] * nrm[1] + (double)nrm[2] * nrm[2]);
        if (!(fabs(len - 1.0) <= 1e-6) || !isfinite(face->plane[3]))
        {
            HC_FAIL("face %d: normal length %.9g, w %g", f, len, face->plane[3]);
        }
        double nw[3];
        face_newell(h, face, nw);
        if (!(nw[0] * nrm[0] + nw[1] * nrm[1] + nw[2] * nrm[2] > 0.0))
        {
            HC_FAIL("face %d: not counter-clockwise from outside (or zero area)", f);
        }
        for (int i = 0; i < face->count; ++i)
        {
            int32_t a = idx[face->first + i];
            if (a < 0 || a >= V)
            {
                HC_FAIL("face %d: index %d out of range", f, a);
            }
            vertex_faces[a]++;
            for (int j = 0; j < i; ++j)
            {
                if (idx[face->first + j] == a)
                {
                    HC_FAIL("face %d: vertex %d repeated", f, a);
                }
            }
            double d = plane_dist(face, v + 3 * a);
            if (!(d <= fround && d >= -(eps + fround)))
            {
                HC_FAIL("face %d: vertex %d off the plane by %.3g (eps %.3g)", f, a, d, eps);
            }
            const float* pu = v + 3 * idx[face->first + (i + face->count - 1) % face->count];
            const float* pw = v + 3 * idx[face->first + (i + 1) % face->count];
            double reflex = corner_reflex(pu, v + 3 * a, pw, nrm);
            if (!(reflex <= eps + fround))
            {
                HC_FAIL("face %d: corner %d reflex by %.3g (eps %.3g)", f, a, reflex, eps);
            }
        }
    }
    if (total != (int)(px_hull_edge_count(h) * 2))
    {
        HC_FAIL("face index count %d != 2 E %d", total, 2 * E);
    }
    /* every vertex is a corner: on three faces or more, or on two faces back to back (the rim of a very flat
     * part, where a vertex farther than the tolerance from the chord of its two neighbours must stay) */
    for (int i = 0; i < V; ++i)
    {
        const int32_t* nb;
        bool rim = false;
        if (vertex_faces[i] == 2 && px_hull_vertex_neighbors(h, i, &nb) == 2)
        {
            double uw[3], uv[3];
            for (int k = 0; k < 3; ++k)
            {
                uw[k] = (double)v[3 * nb[1] + k] - v[3 * nb[0] + k];
                uv[k] = (double)v[3 * i + k] - v[3 * nb[0] + k];
            }
            double c[3] = { uw[1] * uv[2] - uw[2] * uv[1], uw[2] * uv[0] - uw[0] * uv[2],
                            uw[0] * uv[1] - uw[1] * uv[0] };
            double dist = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) /
                          sqrt(uw[0] * uw[0] + uw[1] * uw[1] + uw[2] * uw[2]);
            rim = dist > 0.5 * eps - fround;
        }
        if (vertex_faces[i] < 3 && !rim)
        {
            HC_FAIL("vertex %d is on %d faces (a corner has >= 3)", i, vertex_faces[i]);
        }
    }
    /* every directed face edge once; its reverse present; undirected set == the edge list */
    directed = malloc(sizeof(keyed_edge) * (size_t)total);
    for (int f = 0, k = 0; f < F; ++f)
    {
        for (int i = 0; i < faces[f].count; ++i, ++k)
        {
            directed[k].key =
                edge_key(idx[faces[f].first + i], idx[faces[f].first + (i + 1) % faces[f].count]);
            directed[k].face = f;
        }
    }
    qsort(directed, (size_t)total, sizeof(keyed_edge), cmp_keyed);
    for (int k = 0; k < total; ++k)
    {
        uint64_t key = directed[k].key;
        if (k > 0 && key == directed[k - 1].key)
        {
            HC_FAIL("directed edge %d -> %d in two faces", (int)(key >> 32), (int)(uint32_t)key);
        }
        if (keyed_face(directed, total, edge_key((int32_t)(uint32_t)key, (int32_t)(key >> 32))) < 0)
        {
            HC_FAIL("edge %d -> %d has no twin (not shared by two faces)", (int)(key >> 32),
                    (int)(uint32_t)key);
        }
    }
    undirected = malloc(sizeof(uint64_t) * (size_t)(E > 0 ? E : 1));
    for (int e = 0; e < E; ++e)
    {
        int32_t a = edges[2 * e], b = edges[2 * e + 1];
        if (a < 0 || a >= V || b < 0 || b >= V || a == b || keyed_face(directed, total, edge_key(a, b)) < 0)
        {
            HC_FAIL("edge %d (%d, %d) is not a face edge", e, a, b);
        }
        undirected[e] = a < b ? edge_key(a, b) : edge_key(b, a);
    }
    qsort(undirected, (size_t)E, sizeof(uint64_t), cmp_u64);
    for (int e = 1; e < E; ++e)
    {
        if (undirected[e] == undirected[e - 1])
        {
            HC_FAIL("edge listed twice");
        }
    }
    /* adjacency: symmetric, and exactly the edge partners */
    int adjacency_total = 0;
    for (int i = 0; i < V; ++i)
    {
        const int32_t* nb;
        int c = px_hull_vertex_neighbors(h, i, &nb);
        adjacency_total += c;
        for (int j = 0; j < c; ++j)
        {
            int32_t w = nb[j];
            uint64_t key = i < w ? edge_key(i, w) : edge_key(w, i);
            if (w == i || !key_present(undirected, E, key))
            {
                HC_FAIL("neighbor %d of %d is not an edge partner", w, i);
            }
        }
    }
    if (adjacency_total != 2 * E)
    {
        HC_FAIL("adjacency holds %d entries, expected 2 E = %d", adjacency_total, 2 * E);
    }
    /* the faces around each vertex (internal, for manifolds): increasing, each contains the vertex, and
     * every corner of every face is listed once */
    {
        const int32_t* vfo = h->vertex_face_offsets;
        if (vfo[0] != 0 || vfo[V] != h->face_index_count)
        {
            HC_FAIL("vertex-face lists hold %d entries, expected %d", vfo[V], h->face_index_count);
        }
        for (int i = 0; i < V; ++i)
        {
            for (int32_t k = vfo[i]; k < vfo[i + 1]; ++k)
            {
                int32_t f = h->vertex_faces[k];
                bool has = false;
                for (int j = 0; f >= 0 && f < F && j < faces[f].count; ++j)
                {
                    has = has || idx[faces[f].first + j] == i;
                }
                if (!has || (k > vfo[i] && !(h->vertex_faces[k - 1] < f)))
                {
                    HC_FAIL("vertex-face list of %d: face %d", i, f);
                }
            }
        }
    }
    /* supporting planes: no hull vertex above any face plane (beyond the plane's float rounding) */
    {
        int stride = (double)F * V <= 2e7 ? 1 : 1 + (int)((double)F * V / 2e7);
        for (int f = 0; f < F; f += stride)
        {
            for (int i = 0; i < V; ++i)
            {
                double d = plane_dist(&faces[f], v + 3 * i);
                if (!(d <= fround))
                {
                    HC_FAIL("vertex %d is %.3g above face %d's plane", i, d, f);
                }
            }
        }
    }
    /* convexity: input points inside every face plane (all faces x a sample of points, and a sample of
     * faces x all points, when the full product is large) */
    if (o->all_inside)
    {
        px_rng r = px_rng_seeded(seed ^ 0x1234);
        bool full = (double)F * n <= 2e7;
        int stride = full ? 1 : 1 + (int)((double)F * n / 2e7);
        for (int f = 0; f < F; ++f)
        {
            bool all_points = full || px_rng_int(&r, F) < 64;
            for (int i = 0; i < n; i += all_points ? 1 : stride)
            {
                double d = plane_dist(&faces[f], points + 3 * i);
                if (!(d <= eps + fround))
                {
                    HC_FAIL("point %d is %.3g outside face %d (eps %.3g)", i, d, f, eps);
                }
            }
        }
    }
    /* merged: no two neighbours are coplanar and mergeable. The builder merges faces whose union is flat
     * within half the tolerance, convex within it and whose normals agree within 8 degrees; unmerged
     * neighbours measured here go down to about a quarter of the tolerance in depth, so pairs within a tenth
     * of it (the far side of each face that close to the other's plane), with normals within 8 degrees and a
     * convex union are flagged. (Faces back to back, the two sides of a very thin part, are within the
     * tolerance of each other's planes; two coplanar faces whose union is not convex cannot merge.) */
    if (o->check_coplanar)
    {
        for (int k = 0; k < total; ++k)
        {
            uint64_t key = directed[k].key;
            int f = directed[k].face;
            int g = keyed_face(directed, total, edge_key((int32_t)(uint32_t)key, (int32_t)(key >> 32)));
            if (g < f)
            {
                continue; /* each pair once */
            }
            double depth_g = 0.0, depth_f = 0.0;
            for (int j = 0; j < faces[g].count; ++j)
            {
                depth_g = fmax(depth_g, -plane_dist(&faces[f], v + 3 * idx[faces[g].first + j]));
            }
            for (int j = 0; j < faces[f].count; ++j)
            {
                depth_f = fmax(depth_f, -plane_dist(&faces[g], v + 3 * idx[faces[f].first + j]));
            }
            const float* nf = faces[f].plane;
            const float* ng = faces[g].plane;
            double agree = (double)nf[0] * ng[0] + (double)nf[1] * ng[1] + (double)nf[2] * ng[2];
            if (!(fmax(depth_f, depth_g) > 0.1 * eps) && agree >= 0.99 &&
                union_convex(h, f, g, (int32_t)(key >> 32), (int32_t)(uint32_t)key, 0.5 * eps + fround))
            {
                HC_FAIL("faces %d and %d are coplanar (depths %.3g, %.3g; eps %.3g)", f, g, depth_f, depth_g,
                        eps);
            }
        }
    }
    /* support: the hull's equals the cloud's in random directions */
    {
        px_rng r = px_rng_seeded(seed ^ 0x5678);
        int directions = n > 20000 ? 200 : 1000;
        for (int t = 0; t < directions; ++t)
        {
            double d[3];
            px_rng_unit_vector(&r, d);
            double hv = -INFINITY, cv = -INFINITY;
            for (int i = 0; i < V; ++i)
            {
                hv = fmax(hv, ddot(v + 3 * i, d));
            }
            for (int i = 0; i < n; ++i)
            {
                cv = fmax(cv, ddot(points + 3 * i, d));
            }
            if ((o->all_inside && !(cv - hv <= eps + fround)) || hv > cv)
            {
                HC_FAIL("support along (%g %g %g): hull %.9g, cloud %.9g, eps %.3g", d[0], d[1], d[2], hv, cv,
                        eps);
            }
            if (!o->all_inside)
            {
                break;
            }
        }
    }
    status = 0;
fail:
    free(sorted);
    free(directed);
    free(undirected);
    free(vertex_faces);
    return status;
}

/* Build the hull of points[n] with the default options, expecting status `expect`. */
static px_hull* build_hull(const float* points, int n, px_status expect)
{
    px_hull* h = NULL;
    px_status s = px_hull_create(points, n, NULL, &h);
    if (s != expect)
    {
        fprintf(stderr, "px_hull_create(%d points) returned %d (%s), expected %d\n", n, (int)s,
                px_status_string(s), (int)expect);
        px_hull_destroy(h);
        return NULL;
    }
    return h;
}

static const check_opts default_check = { HULL_TOL, true, true };

/* ------------------------------------------------------------------------------------------------------
 * Boxes and random clouds
 * ------------------------------------------------------------------------------------------------------ */

static void put(float* p, int i, double x, double y, double z)
{
    p[3 * i] = (float)x;
    p[3 * i + 1] = (float)y;
    p[3 * i + 2] = (float)z;
}

/* Point i = c + s * (u0, u1, u2), u uniform in [-1, 1) drawn in order (never several draws in one argument
 * list: their order would be unspecified). */
static void put_random(float* p, int i, px_rng* r, const double c[3], const double s[3])
{
    double u[3];
    for (int k = 0; k < 3; ++k)
    {
        u[k] = px_rng_range(r, -1.0, 1.0);
    }
    put(p, i, c[0] + s[0] * u[0], c[1] + s[1] * u[1], c[2] + s[2] * u[2]);
}

/* The 8 corners of [-hx, hx] x [-hy, hy] x [-hz, hz] + offset at p[0..7]. */
static void box_corners(float* p, double hx, double hy, double hz, const double* offset)
{
    for (int i = 0; i < 8; ++i)
    {
        put(p, i, offset[0] + ((i & 1) ? hx : -hx), offset[1] + ((i & 2) ? hy : -hy),
            offset[2] + ((i & 4) ? hz : -hz));
    }
}

static int expect_box(const px_hull* h)
{
    if (px_hull_vertex_count(h) != 8 || px_hull_face_count(h) != 6)
    {
        fprintf(stderr, "box: V %d F %d E %d\n", px_hull_vertex_count(h), px_hull_face_count(h),
                px_hull_edge_count(h));
        for (int f = 0; f < px_hull_face_count(h); ++f)
        {
            const px_hull_face* face = &px_hull_faces(h)[f];
            fprintf(stderr, "  face %d: %d vertices, plane %g %g %g %g\n", f, face->count, face->plane[0],
                    face->plane[1], face->plane[2], face->plane[3]);
        }
    }
    PX_CHECK(px_hull_dimension(h) == 3);
    PX_CHECK(px_hull_vertex_count(h) == 8);
    PX_CHECK(px_hull_face_count(h) == 6);
    PX_CHECK(px_hull_edge_count(h) == 12);
    for (int f = 0; f < 6; ++f)
    {
        PX_CHECK(px_hull_faces(h)[f].count == 4);
    }
    for (int i = 0; i < 8; ++i)
    {
        const int32_t* nb;
        PX_CHECK(px_hull_vertex_neighbors(h, i, &nb) == 3);
    }
    return 0;
}

static int cube_interior_duplicates(void)
{
    px_rng r = px_rng_seeded(11);
    const int n = 8 + 500 + 40;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(p, 1.0, 1.0, 1.0, zero);
    for (int i = 8; i < 508; ++i)
    {
        const double s3[3] = { 0.99, 0.99, 0.99 };
        put_random(p, i, &r, zero, s3);
    }
    for (int i = 508; i < n; ++i)
    {
        memcpy(p + 3 * i, p + 3 * px_rng_int(&r, 508), 3 * sizeof(float)); /* duplicates of anything */
    }
    /* shuffle so the corners are not first */
    for (int i = n - 1; i > 0; --i)
    {
        int j = px_rng_int(&r, i + 1);
        float t[3];
        memcpy(t, p + 3 * i, sizeof(t));
        memcpy(p + 3 * i, p + 3 * j, sizeof(t));
        memcpy(p + 3 * j, t, sizeof(t));
    }
    px_hull* h = build_hull(p, n, PX_OK);
    PX_CHECK(h != NULL);
    int rc = expect_box(h) || check_hull(p, n, h, &default_check, 11);
    /* every face is an axis plane at distance 1 */
    for (int f = 0; f < 6 && rc == 0; ++f)
    {
        const float* pl = px_hull_faces(h)[f].plane;
        int axes = (fabsf(pl[0]) == 1.0f) + (fabsf(pl[1]) == 1.0f) + (fabsf(pl[2]) == 1.0f);
        rc = !(axes == 1 && pl[3] == 1.0f);
    }
    /* centroid at the origin, extent sqrt(3) */
    PX_CHECK_NEAR(px_v3_norm(h->centroid), 0.0, 1e-6);
    PX_CHECK_NEAR(h->extent, sqrt(3.0), 1e-6);
    px_hull_destroy(h);
    free(p);
    return rc;
}

static int random_clouds(void)
{
    static const int sizes[] = { 10, 31, 100, 1000, 10000 };
    for (int kind = 0; kind <= CLOUD_BALL; ++kind)
    {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s)
        {
            for (int rep = 0; rep < (sizes[s] <= 100 ? 20 : 2); ++rep)
            {
                uint64_t seed = 1000u * (uint64_t)kind + 17u * s + (uint64_t)rep;
                float* p = make_cloud((cloud_kind)kind, sizes[s], seed);
                px_hull* h = build_hull(p, sizes[s], PX_OK);
                int rc = h == NULL || check_hull(p, sizes[s], h, &default_check, seed);
                if (rc != 0)
                {
                    fprintf(stderr, "  %s cloud of %d points, seed %llu\n", cloud_name((cloud_kind)kind),
                            sizes[s], (unsigned long long)seed);
                }
                px_hull_destroy(h);
                free(p);
                PX_CHECK(rc == 0);
            }
        }
    }
    return 0;
}

static int large_clouds(void)
{
    for (int kind = 0; kind <= CLOUD_BALL; ++kind)
    {
        const int n = 100000;
        uint64_t seed = 77u + (uint64_t)kind;
        float* p = make_cloud((cloud_kind)kind, n, seed);
        px_hull* h = build_hull(p, n, PX_OK);
        int rc = h == NULL || check_hull(p, n, h, &default_check, seed);
        if (rc != 0)
        {
            fprintf(stderr, "  %s cloud of %d points\n", cloud_name((cloud_kind)kind), n);
        }
        px_hull_destroy(h);
        free(p);
        PX_CHECK(rc == 0);
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------
 * KNOWN_FAILURES 2.7: exactly coplanar clusters, duplicated vertices, nearly collinear points
 * ------------------------------------------------------------------------------------------------------ */

/* Dense grids on the six faces of a box, its edges and corners included: 8 vertices, 6 quads. */
static int coplanar_box_faces(void)
{
    const int g = 40;
    const double half[3] = { 2.0, 1.0, 0.5 };
    int n = 6 * g * g;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    int k = 0;
    for (int axis = 0; axis < 3; ++axis)
    {
        for (int side = 0; side < 2; ++side)
        {
            for (int i = 0; i < g; ++i)
            {
                for (int j = 0; j < g; ++j)
                {
                    int a1 = (axis + 1) % 3, a2 = (axis + 2) % 3;
                    double c[3];
                    c[axis] = side ? half[axis] : -half[axis];
                    c[a1] = half[a1] * (-1.0 + 2.0 * i / (g - 1));
                    c[a2] = half[a2] * (-1.0 + 2.0 * j / (g - 1));
                    put(p, k++, c[0], c[1], c[2]);
                }
            }
        }
    }
    px_hull* h = build_hull(p, n, PX_OK);
    PX_CHECK(h != NULL);
    int rc = expect_box(h) || check_hull(p, n, h, &default_check, 3);
    px_hull_destroy(h);
    free(p);
    return rc;
}

/* A prism over a regular 64-gon, its caps filled with grid points (large exactly coplanar clusters on
 * every face, KNOWN_FAILURES 83): 128 vertices, 64 quads and two 64-gons, all outward and non-degenerate. */
static int coplanar_prism(void)
{
    const int sides = 64, g = 30;
    int n = 2 * sides + 2 * g * g + 2 * sides * 8;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    int k = 0;
    for (int cap = 0; cap < 2; ++cap)
    {
        double z = cap ? 1.5 : -1.5;
        for (int i = 0; i < sides; ++i)
        {
            double a = 6.283185307179586 * i / sides;
            put(p, k++, cos(a), sin(a), z);
            for (int t = 1; t <= 8; ++t) /* points along the side edges' lines, inside the segment */
            {
                put(p, k++, cos(a), sin(a), z * t / 9.0);
            }
        }
        for (int i = 0; i < g; ++i)
        {
            for (int j = 0; j < g; ++j)
            {
                put(p, k++, 1.3 * (i - (g - 1) / 2.0) / g, 1.3 * (j - (g - 1) / 2.0) / g, z);
            }
        }
    }
    PX_CHECK(k == n);
    px_hull* h = build_hull(p, n, PX_OK);
    PX_CHECK(h != NULL);
    int rc = check_hull(p, n, h, &default_check, 4);
    PX_CHECK(px_hull_vertex_count(h) == 2 * sides);
    PX_CHECK(px_hull_face_count(h) == sides + 2);
    PX_CHECK(px_hull_edge_count(h) == 3 * sides);
    int quads = 0, caps = 0;
    for (int f = 0; f < px_hull_face_count(h); ++f)
    {
        const px_hull_face* face = &px_hull_faces(h)[f];
        quads += face->count == 4 && fabsf(face->plane[2]) < 1e-6f;
        caps += face->count == sides && fabsf(face->plane[2]) == 1.0f && face->plane[3] == 1.5f;
        /* outward: the plane normal points away from the centroid */
        const float* c = h->centroid;
        PX_CHECK(plane_dist(face, c) < -0.5);
    }
    PX_CHECK(quads == sides && caps == 2);
    px_hull_destroy(h);
    free(p);
    return rc;
}

/* The 24 face-corners of a cube (each corner once per face), three times over: 8 vertices
 * (KNOWN_FAILURES 82: 24 instead of 8 in other libraries). */
static int duplicated_vertices(void)
{
    float p[72 * 3];
    int k = 0;
    for (int copy = 0; copy < 3; ++copy)
    {
        for (int axis = 0; axis < 3; ++axis)
        {
            for (int side = 0; side < 2; ++side)
            {
                for (int c = 0; c < 4; ++c)
                {
                    double v[3];
                    v[axis] = side ? 0.5 : -0.5;
                    v[(axis + 1) % 3] = (c & 1) ? 0.5 : -0.5;
                    v[(axis + 2) % 3] = (c & 2) ? 0.5 : -0.5;
                    put(p, k++, v[0], v[1], v[2]);
                }
            }
        }
    }
    px_hull* h = build_hull(p, 72, PX_OK);
    PX_CHECK(h != NULL);
    int rc = expect_box(h) || check_hull(p, 72, h, &default_check, 5);
    px_hull_destroy(h);
    return rc;
}

/* Points on a line with noise below the tolerance: a segment between the extreme points. With noise above
 * it: a thin but valid solid (KNOWN_FAILURES 81). */
static int nearly_collinear(void)
{
    px_rng r = px_rng_seeded(6);
    const int n = 500;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    const double o[3] = { 1.0, -2.0, 0.5 }, d[3] = { 0.48, 0.6, -0.64 };
    for (int pass = 0; pass < 2; ++pass)
    {
        double noise = pass == 0 ? 0.05 * HULL_TOL : 20.0 * HULL_TOL;
        int lo = 0, hi = 0;
        for (int i = 0; i < n; ++i)
        {
            double t = px_rng_range(&r, -3.0, 3.0);
            if (i == 7)
            {
                t = -3.0;
            }
            if (i == 100)
            {
                t = 3.0;
            }
            lo = i == 7 ? i : lo;
            hi = i == 100 ? i : hi;
            double e[3];
            for (int k = 0; k < 3; ++k)
            {
                e[k] = noise * px_rng_range(&r, -1.0, 1.0);
            }
            put(p, i, o[0] + t * d[0] + e[0], o[1] + t * d[1] + e[1], o[2] + t * d[2] + e[2]);
        }
        px_hull* h = NULL;
        px_status s = px_hull_create(p, n, NULL, &h);
        PX_CHECK(h != NULL);
        if (pass == 0)
        {
            PX_CHECK_STATUS(s, PX_WARN_DEGENERATE);
            PX_CHECK(px_hull_dimension(h) == 1 && px_hull_vertex_count(h) == 2 && px_hull_edge_count(h) == 1);
            PX_CHECK(px_hull_face_count(h) == 0);
            const float* v = px_hull_vertices(h);
            /* the extreme points, ends of the single edge */
            bool ends = (memcmp(v, p + 3 * lo, 12) == 0 && memcmp(v + 3, p + 3 * hi, 12) == 0) ||
                        (memcmp(v, p + 3 * hi, 12) == 0 && memcmp(v + 3, p + 3 * lo, 12) == 0);
            PX_CHECK(ends);
            PX_CHECK(px_hull_edges(h)[0] + px_hull_edges(h)[1] == 1);
        }
        else
        {
            PX_CHECK(s == PX_OK || s == PX_WARN_DEGENERATE);
            PX_CHECK(px_hull_dimension(h) >= 2);
            if (px_hull_dimension(h) == 3)
            {
                int rc = check_hull(p, n, h, &default_check, 6);
                if (rc != 0)
                {
                    px_hull_destroy(h);
                    free(p);
                    return rc;
                }
            }
        }
        px_hull_destroy(h);
    }
    free(p);
    return 0;
}

/* Needles and slivers: thin clouds whose hulls are made of long sliver faces meeting at shallow angles, where
 * a point within the tolerance of one face's plane can be well outside another's (quickhull must recheck
 * such points against every face they are above). */
static int slivers(void)
{
    float* p = malloc(3 * sizeof(float) * 400);
    for (int seed = 0; seed < 300; ++seed)
    {
        px_rng r = px_rng_seeded(700 + (uint64_t)seed);
        double d[3], o[3] = { 0.5, -1.0, 2.0 };
        px_rng_unit_vector(&r, d);
        double width = (seed % 3 == 0 ? 5.0 : (seed % 3 == 1 ? 20.0 : 80.0)) * HULL_TOL;
        for (int i = 0; i < 400; ++i)
        {
            double t = px_rng_range(&r, -3.0, 3.0);
            const double c[3] = { o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2] };
            const double s3[3] = { width, width, width };
            put_random(p, i, &r, c, s3);
        }
        px_hull* h = NULL;
        px_status s = px_hull_create(p, 400, NULL, &h);
        PX_CHECK(s == PX_OK || s == PX_WARN_DEGENERATE);
        int rc = px_hull_dimension(h) == 3 ? check_hull(p, 400, h, &default_check, 700 + (uint64_t)seed) : 0;
        px_hull_destroy(h);
        if (rc != 0)
        {
            fprintf(stderr, "  needle seed %d, width %g\n", seed, width);
            free(p);
            return 1;
        }
    }
    free(p);
    return 0;
}

/* Integer lattice points in a ball: a cloud full of exactly coplanar and cocircular subsets. */
static int lattice_ball(void)
{
    float* p = malloc(3 * sizeof(float) * 20000);
    int n = 0;
    for (int r2 = 2; r2 <= 12; r2 += 5)
    {
        n = 0;
        for (int x = -r2; x <= r2; ++x)
        {
            for (int y = -r2; y <= r2; ++y)
            {
                for (int z = -r2; z <= r2; ++z)
                {
                    if (x * x + y * y + z * z <= r2 * r2)
                    {
                        put(p, n++, x, y, z);
                    }
                }
            }
        }
        px_hull* h = build_hull(p, n, PX_OK);
        PX_CHECK(h != NULL);
        int rc = check_hull(p, n, h, &default_check, 7);
        px_hull_destroy(h);
        PX_CHECK(rc == 0);
    }
    free(p);
    return 0;
}

/* Integer clouds with one point given twice (review 50). The outside sets are filled by plane distances in
 * double, which put a point exactly on a face's plane a hair outside; taken as seen, it made zero-area
 * triangles on the duplicate, and the merge of coplanar triangles flooded across them: PX_OK hulls missing
 * five of eleven vertices, with none at all (and a division by zero), or with the duplicate twice. Then
 * random lattice balls with duplicates (1 in 1500 failed). */
static int lattice_with_duplicate(void)
{
    static const float missing_half[13][3] = { { 4, 0, -3 }, { 2, -4, -2 }, { 0, 0, -5 }, { 1, -3, 3 },
                                               { 2, -2, -4 }, { 3, -2, -3 }, { -5, 0, 0 }, { 3, -4, 0 },
                                               { 4, -2, -2 }, { 0, -4, -3 }, { 0, -3, -4 }, { 4, -2, -2 },
                                               { 5, 0, 0 } };
    static const float empty_solid[15][3] = { { -4, 2, -2 }, { 0, 4, -3 },  { -3, -3, -2 }, { -3, 0, -4 },
                                              { -2, -2, -4 }, { -2, -2, -4 }, { 0, 0, -5 },   { -2, 1, 3 },
                                              { -2, -4, 2 },  { -2, -3, -3 }, { -4, 0, -3 },  { 0, -3, -4 },
                                              { -2, -4, -2 }, { -3, -4, 0 },  { -5, 0, 0 } };
    static const float twice[12][3] = { { 3, 5, 1 }, { -6, 0, 0 }, { 2, 4, -4 }, { 0, 0, -6 },
                                        { 6, 0, 0 }, { 4, 4, -2 }, { 0, 6, 0 },  { 3, 4, -3 },
                                        { 0, -6, 0 }, { 4, -2, 4 }, { 2, 4, -4 }, { 3, 5, -1 } };
    const struct
    {
        const float* p;
        int n, vertices;
    } cases[3] = { { &missing_half[0][0], 13, 11 }, { &empty_solid[0][0], 15, 13 }, { &twice[0][0], 12, 10 } };
    for (int k = 0; k < 3; ++k)
    {
        px_hull* h = build_hull(cases[k].p, cases[k].n, PX_OK);
        PX_CHECK(h != NULL);
        const int vertices = px_hull_vertex_count(h);
        int rc = check_hull(cases[k].p, cases[k].n, h, &default_check, 11);
        px_hull_destroy(h);
        PX_CHECK(rc == 0);
        PX_CHECK(vertices == cases[k].vertices);
    }
    px_rng rng = px_rng_seeded(0x6c617474ull);
    float* p = malloc(3 * sizeof(float) * 400);
    PX_CHECK(p != NULL);
    for (int trial = 0; trial < 1500; ++trial)
    {
        const int r = 3 + px_rng_int(&rng, 4), n = 10 + px_rng_int(&rng, 390);
        for (int i = 0; i < n; ++i)
        {
            int x, y, z;
            do
            {
                x = px_rng_int(&rng, 2 * r + 1) - r;
                y = px_rng_int(&rng, 2 * r + 1) - r;
                z = px_rng_int(&rng, 2 * r + 1) - r;
            } while (x * x + y * y + z * z > r * r);
            put(p, i, x, y, z);
        }
        px_hull* h = build_hull(p, n, PX_OK);
        int rc = h != NULL && px_hull_dimension(h) == 3 ? check_hull(p, n, h, &default_check, (uint64_t)trial) : 0;
        px_hull_destroy(h);
        if (rc != 0)
        {
            fprintf(stderr, "lattice trial %d (r %d, %d points)\n", trial, r, n);
            free(p);
            return 1;
        }
    }
    free(p);
    return 0;
}

/* Sphere points rounded to a coarse grid (many exactly coplanar and duplicate points), and a cube whose
 * faces carry grids perturbed below the tolerance (nearly coplanar clusters: still 6 faces). */
static int quantized_and_noisy(void)
{
    px_rng r = px_rng_seeded(8);
    const int n = 5000;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    for (int i = 0; i < n; ++i)
    {
        double v[3];
        px_rng_unit_vector(&r, v);
        put(p, i, round(v[0] * 16.0) / 16.0, round(v[1] * 16.0) / 16.0, round(v[2] * 16.0) / 16.0);
    }
    px_hull* h = build_hull(p, n, PX_OK);
    PX_CHECK(h != NULL);
    int rc = check_hull(p, n, h, &default_check, 8);
    px_hull_destroy(h);
    PX_CHECK(rc == 0);
    /* noisy cube faces: 8 exact corners, then grid points up to 0.2 tolerance outside the faces */
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(p, 1.0, 1.0, 1.0, zero);
    int k = 8;
    for (int face = 0; face < 6; ++face)
    {
        for (int i = 0; i < 15; ++i)
        {
            for (int j = 0; j < 15; ++j)
            {
                double c[3];
                int axis = face / 2;
                c[axis] = (face & 1 ? 1.0 : -1.0) * (1.0 + 0.2 * HULL_TOL * 2.0 * px_rng_unit(&r));
                c[(axis + 1) % 3] = -0.95 + 1.9 * i / 14.0;
                c[(axis + 2) % 3] = -0.95 + 1.9 * j / 14.0;
                put(p, k++, c[0], c[1], c[2]);
            }
        }
    }
    h = build_hull(p, k, PX_OK);
    PX_CHECK(h != NULL);
    rc = expect_box(h) || check_hull(p, k, h, &default_check, 9);
    px_hull_destroy(h);
    free(p);
    return rc;
}

/* ------------------------------------------------------------------------------------------------------
 * Degenerate and extreme inputs
 * ------------------------------------------------------------------------------------------------------ */

static bool finite_hull(const px_hull* h)
{
    for (int i = 0; i < 3 * px_hull_vertex_count(h); ++i)
    {
        if (!isfinite(px_hull_vertices(h)[i]))
        {
            return false;
        }
    }
    for (int f = 0; f < px_hull_face_count(h); ++f)
    {
        for (int k = 0; k < 4; ++k)
        {
            if (!isfinite(px_hull_faces(h)[f].plane[k]))
            {
                return false;
            }
        }
    }
    return isfinite(h->centroid[0]) && isfinite(h->centroid[1]) && isfinite(h->centroid[2]) &&
           isfinite(h->extent);
}

static int expect_point(const float* p, int n, const float* expected)
{
    px_hull* h = build_hull(p, n, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL);
    PX_CHECK(px_hull_dimension(h) == 0);
    PX_CHECK(px_hull_vertex_count(h) == 1 && px_hull_face_count(h) == 0 && px_hull_edge_count(h) == 0);
    PX_CHECK(memcmp(px_hull_vertices(h), expected, 3 * sizeof(float)) == 0);
    const int32_t* nb = NULL;
    PX_CHECK(px_hull_vertex_neighbors(h, 0, &nb) == 0);
    PX_CHECK(finite_hull(h) && h->extent == 0.0f);
    vec3 d = { 1.0f, 2.0f, 3.0f };
    PX_CHECK(pxi_hull_climb(h, d, 0) == 0);
    px_hull_destroy(h);
    return 0;
}

static int degenerate_points(void)
{
    float p[3 * 100];
    put(p, 0, 1.0, -2.0, 3.0);
    PX_CHECK(expect_point(p, 1, p) == 0);
    put(p, 1, 1.0, -2.0, 3.0);
    PX_CHECK(expect_point(p, 2, p) == 0);
    /* 100 copies jittered by one ulp: float noise, one point */
    for (int i = 0; i < 100; ++i)
    {
        put(p, i, 1000.0, 1000.0, -1000.0);
        p[3 * i + (i % 3)] = nextafterf(p[3 * i + (i % 3)], (i & 4) ? INFINITY : -INFINITY);
    }
    PX_CHECK(expect_point(p, 100, p) == 0);
    /* the origin, also with signed zeros */
    memset(p, 0, sizeof(p));
    p[4] = -0.0f;
    PX_CHECK(expect_point(p, 7, p) == 0);
    return 0;
}

static int expect_segment(const float* p, int n, int lo, int hi)
{
    px_hull* h = build_hull(p, n, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL);
    PX_CHECK(px_hull_dimension(h) == 1);
    PX_CHECK(px_hull_vertex_count(h) == 2 && px_hull_face_count(h) == 0 && px_hull_edge_count(h) == 1);
    const float* v = px_hull_vertices(h);
    bool ends = (memcmp(v, p + 3 * lo, 12) == 0 && memcmp(v + 3, p + 3 * hi, 12) == 0) ||
                (memcmp(v, p + 3 * hi, 12) == 0 && memcmp(v + 3, p + 3 * lo, 12) == 0);
    PX_CHECK(ends);
    for (int i = 0; i < 2; ++i)
    {
        const int32_t* nb;
        PX_CHECK(px_hull_vertex_neighbors(h, i, &nb) == 1 && nb[0] == 1 - i);
    }
    PX_CHECK(finite_hull(h));
    /* climbing a segment: the end along d */
    vec3 d = { v[3] - v[0], v[4] - v[1], v[5] - v[2] };
    PX_CHECK(pxi_hull_climb(h, d, 0) == 1);
    PX_CHECK(pxi_hull_climb(h, d, 1) == 1);
    px_hull_destroy(h);
    return 0;
}

static int degenerate_segments(void)
{
    px_rng r = px_rng_seeded(21);
    float p[3 * 200];
    put(p, 0, 0.0, 0.0, 0.0);
    put(p, 1, 1.0, 2.0, 3.0);
    PX_CHECK(expect_segment(p, 2, 0, 1) == 0);
    /* points on an axis line with duplicates: exactly collinear */
    for (int i = 0; i < 200; ++i)
    {
        put(p, i, 5.0, -1.0, (double)(px_rng_int(&r, 50) - 20));
    }
    put(p, 33, 5.0, -1.0, -21.0);
    put(p, 150, 5.0, -1.0, 30.0);
    PX_CHECK(expect_segment(p, 200, 33, 150) == 0);
    /* a skew line in float: collinear up to rounding */
    for (int i = 0; i < 200; ++i)
    {
        double t = px_rng_range(&r, 0.01, 0.99);
        t = i == 3 ? 0.0 : (i == 4 ? 1.0 : t);
        put(p, i, 0.3 + 7.0 * t, -1.1 + 3.0 * t, 2.2 - 5.0 * t);
    }
    PX_CHECK(expect_segment(p, 200, 3, 4) == 0);
    return 0;
}

/* A flat convex polygon: vertices in order, two faces of opposite winding and normals, the polygon's edges,
 * a cyclic adjacency; every input point within the tolerance of the plane and inside every edge. */
static int check_polygon(const float* p, int n, const px_hull* h, int expected_vertices)
{
    int k = px_hull_vertex_count(h);
    PX_CHECK(px_hull_dimension(h) == 2);
    PX_CHECK(expected_vertices <= 0 || k == expected_vertices);
    PX_CHECK(k >= 3 && px_hull_face_count(h) == 2 && px_hull_edge_count(h) == k);
    const px_hull_face* f = px_hull_faces(h);
    const int32_t* idx = px_hull_face_indices(h);
    const float* v = px_hull_vertices(h);
    PX_CHECK(f[0].count == k && f[1].count == k && f[0].first == 0 && f[1].first == k);
    for (int i = 0; i < k; ++i)
    {
        PX_CHECK(idx[i] == i);                       /* face 0: the vertices in order */
        PX_CHECK(idx[k + i] == idx[(k - i) % k]);    /* face 1: the same loop reversed */
        const int32_t* e = px_hull_edges(h) + 2 * i; /* edges join consecutive vertices */
        PX_CHECK((e[0] + 1) % k == e[1] || (e[1] + 1) % k == e[0]);
        const int32_t* nb;
        PX_CHECK(px_hull_vertex_neighbors(h, i, &nb) == 2);
        PX_CHECK((nb[0] == (i + 1) % k && nb[1] == (i + k - 1) % k) ||
                 (nb[1] == (i + 1) % k && nb[0] == (i + k - 1) % k));
    }
    for (int c = 0; c < 3; ++c)
    {
        PX_CHECK(f[0].plane[c] == -f[1].plane[c]);
    }
    double nw[3];
    face_newell(h, &f[0], nw);
    PX_CHECK(nw[0] * f[0].plane[0] + nw[1] * f[0].plane[1] + nw[2] * f[0].plane[2] > 0.0);
    double side = cloud_side(p, n), eps = HULL_TOL * side;
    double fround = 8.0 * FLT_EPSILON * (cloud_magnitude(p, n) + side);
    /* slab: between the two planes, no thicker than eps */
    PX_CHECK(f[0].plane[3] + f[1].plane[3] <= eps + fround);
    for (int i = 0; i < n; ++i)
    {
        const float* x = p + 3 * i;
        PX_CHECK(plane_dist(&f[0], x) <= eps + fround && plane_dist(&f[1], x) <= eps + fround);
        /* inside every edge (in the plane): left of i -> i + 1 seen from +n, within eps */
        for (int j = 0; j < k; ++j)
        {
            const float* a = v + 3 * j;
            const float* b = v + 3 * ((j + 1) % k);
            double outside = -corner_reflex(a, x, b, f[0].plane);
            if (!(outside <= eps + fround))
            {
                fprintf(stderr, "point %d outside edge %d by %.3g (eps %.3g)\n", i, j, outside, eps);
                return 1;
            }
        }
    }
    /* convex: every vertex a corner (inside its neighbours' chord by at most eps); vertices are input points
     */
    for (int i = 0; i < k; ++i)
    {
        double reflex =
            corner_reflex(v + 3 * ((i + k - 1) % k), v + 3 * i, v + 3 * ((i + 1) % k), f[0].plane);
        PX_CHECK(reflex <= eps + fround);
        bool found = false;
        for (int j = 0; j < n && !found; ++j)
        {
            found = memcmp(v + 3 * i, p + 3 * j, 12) == 0;
        }
        PX_CHECK(found);
    }
    PX_CHECK(finite_hull(h));
    return 0;
}

static int degenerate_polygons(void)
{
    px_rng r = px_rng_seeded(22);
    const int g = 20;
    float* p = malloc(3 * sizeof(float) * 4000);
    /* a square grid on a tilted plane, noise (along the normal and in the plane) below the tolerance */
    const double u[3] = { 0.6, 0.8, 0.0 }, w[3] = { -0.48, 0.36, 0.8 }, o[3] = { 3.0, -2.0, 1.0 };
    const double nrm[3] = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };
    int n = 0;
    for (int i = 0; i < g; ++i)
    {
        for (int j = 0; j < g; ++j)
        {
            double a = 10.0 * i / (g - 1), b = 10.0 * j / (g - 1);
            double z = 0.1 * HULL_TOL * 10.0 * px_rng_range(&r, -1.0, 1.0);
            put(p, n++, o[0] + a * u[0] + b * w[0] + z * nrm[0], o[1] + a * u[1] + b * w[1] + z * nrm[1],
                o[2] + a * u[2] + b * w[2] + z * nrm[2]);
        }
    }
    px_hull* h = build_hull(p, n, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL);
    int rc = check_polygon(p, n, h, 4);
    px_hull_destroy(h);
    PX_CHECK(rc == 0);
    /* random points in a disc on z = 2, and a regular 50-gon on x = -1 with its centre points */
    for (int pass = 0; pass < 2; ++pass)
    {
        n = pass == 0 ? 3000 : 150;
        for (int i = 0; i < n; ++i)
        {
            if (pass == 0)
            {
                double a = px_rng_range(&r, 0.0, 6.283185307179586), rad = sqrt(px_rng_unit(&r));
                put(p, i, rad * cos(a), rad * sin(a), 2.0);
            }
            else
            {
                double a = 6.283185307179586 * (i % 50) / 50.0, rad = i < 50 ? 1.0 : 0.5;
                put(p, i, -1.0, rad * cos(a), rad * sin(a));
            }
        }
        h = build_hull(p, n, PX_WARN_DEGENERATE);
        PX_CHECK(h != NULL);
        rc = check_polygon(p, n, h, pass == 0 ? 0 : 50);
        px_hull_destroy(h);
        PX_CHECK(rc == 0);
    }
    free(p);
    return 0;
}

/* A box 1e-7 of its size thick is flat within the tolerance: its 4-corner rectangle. */
static int thin_box(void)
{
    px_rng r = px_rng_seeded(23);
    float p[3 * 108];
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(p, 2.0, 1.0, 1e-7, zero);
    for (int i = 8; i < 108; ++i)
    {
        const double s3[3] = { 2.0, 1.0, 1e-7 };
        put_random(p, i, &r, zero, s3);
    }
    px_hull* h = build_hull(p, 108, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL);
    int rc = check_polygon(p, 108, h, 4);
    px_hull_destroy(h);
    return rc;
}

/* Cubes (with interior points) at scales 1e20 and 1e-20, near FLT_MAX, and offset by 1e6; a random cloud
 * offset by 1e6. Same combinatorics, finite planes. */
static int extreme_scales(void)
{
    px_rng r = px_rng_seeded(24);
    float p[3 * 208];
    const double scales[] = { 1e20, 1e-20, 1.5e38, 1.0, 0.5 };
    const double offsets[] = { 0.0, 0.0, 0.0, 1e6, -1e6 };
    for (size_t t = 0; t < sizeof(scales) / sizeof(scales[0]); ++t)
    {
        const double off[3] = { offsets[t], -offsets[t], 0.5 * offsets[t] };
        box_corners(p, scales[t], scales[t], scales[t], off);
        for (int i = 8; i < 208; ++i)
        {
            const double s3[3] = { 0.9 * scales[t], 0.9 * scales[t], 0.9 * scales[t] };
            put_random(p, i, &r, off, s3);
        }
        px_hull* h = build_hull(p, 208, PX_OK);
        PX_CHECK(h != NULL);
        int rc = expect_box(h) || !finite_hull(h) || check_hull(p, 208, h, &default_check, 24 + t);
        if (rc != 0)
        {
            fprintf(stderr, "  scale %g offset %g\n", scales[t], offsets[t]);
        }
        px_hull_destroy(h);
        PX_CHECK(rc == 0);
    }
    /* a random cloud of size 100 at offset 1e6 (float spacing there: 0.0625) */
    float* q = make_cloud(CLOUD_BALL, 2000, 25);
    for (int i = 0; i < 2000; ++i)
    {
        q[3 * i] = (float)(1e6 + 50.0 * q[3 * i]);
        q[3 * i + 1] = (float)(-1e6 + 50.0 * q[3 * i + 1]);
        q[3 * i + 2] = (float)(5e5 + 50.0 * q[3 * i + 2]);
    }
    px_hull* h = build_hull(q, 2000, PX_OK);
    PX_CHECK(h != NULL);
    int rc = !finite_hull(h) || check_hull(q, 2000, h, &default_check, 25);
    px_hull_destroy(h);
    free(q);
    return rc;
}

/* max_vertices stops the build with a valid convex polytope of at most that many vertices. */
static int max_vertices_limit(void)
{
    float* p = make_cloud(CLOUD_SPHERE, 1000, 26);
    const int limits[] = { 1, 2, 3, 4, 5, 8, 20, 100, 5000 };
    for (size_t t = 0; t < sizeof(limits) / sizeof(limits[0]); ++t)
    {
        px_hull_def def = px_hull_default_def();
        def.max_vertices = limits[t];
        px_hull* h = NULL;
        px_status s = px_hull_create(p, 1000, &def, &h);
        PX_CHECK(h != NULL);
        int v = px_hull_vertex_count(h);
        if (limits[t] < 1000)
        {
            PX_CHECK_STATUS(s, PX_WARN_CAPACITY);
            PX_CHECK(v <= limits[t] && v >= (limits[t] < 4 ? limits[t] : 4));
            PX_CHECK(px_hull_dimension(h) == (limits[t] < 4 ? limits[t] - 1 : 3));
        }
        else
        {
            PX_CHECK_STATUS(s, PX_OK);
            PX_CHECK(v == 1000);
        }
        if (px_hull_dimension(h) == 3)
        {
            const check_opts o = { HULL_TOL, limits[t] >= 1000, true };
            PX_CHECK(check_hull(p, 1000, h, &o, 26) == 0);
        }
        if (px_hull_dimension(h) == 2)
        {
            PX_CHECK(px_hull_face_count(h) == 2 && px_hull_edge_count(h) == 3);
        }
        px_hull_destroy(h);
    }
    free(p);
    /* a flat cloud limited to 3 vertices: a triangle */
    float q[3 * 50];
    for (int i = 0; i < 50; ++i)
    {
        double a = 6.283185307179586 * i / 50.0;
        put(q, i, cos(a), sin(a), 0.0);
    }
    px_hull_def def = px_hull_default_def();
    def.max_vertices = 3;
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(q, 50, &def, &h), PX_WARN_CAPACITY);
    PX_CHECK(px_hull_dimension(h) == 2 && px_hull_vertex_count(h) == 3);
    px_hull_destroy(h);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------
 * API: bad input, allocation failure, defaults, shapes
 * ------------------------------------------------------------------------------------------------------ */

static int bad_input(void)
{
    float p[3 * 8];
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(p, 1.0, 1.0, 1.0, zero);
    px_hull* dummy = (px_hull*)(void*)p; /* any non-NULL value: an error must reset it */
    px_hull* h = dummy;
    PX_CHECK_STATUS(px_hull_create(NULL, 8, NULL, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(h == NULL);
    h = dummy;
    PX_CHECK_STATUS(px_hull_create(p, 0, NULL, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(h == NULL);
    h = dummy;
    PX_CHECK_STATUS(px_hull_create(p, -3, NULL, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(h == NULL);
    PX_CHECK_STATUS(px_hull_create(p, 8, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    /* bad definitions */
    px_hull_def defs[8];
    for (int i = 0; i < 8; ++i)
    {
        defs[i] = px_hull_default_def();
    }
    memset(&defs[0], 0, sizeof(defs[0])); /* not from px_hull_default_def */
    defs[1].tolerance = 0.0f;
    defs[2].tolerance = -1e-5f;
    defs[3].tolerance = NAN;
    defs[4].tolerance = INFINITY;
    defs[5].max_vertices = -1;
    defs[6].allocator.free = pxt_count_free_fn; /* one hook without the other */
    defs[7].climb_min_vertices = 0;
    for (int i = 0; i < 8; ++i)
    {
        h = dummy;
        PX_CHECK_STATUS(px_hull_create(p, 8, &defs[i], &h), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(h == NULL);
    }
    /* NaN and Inf anywhere */
    for (int i = 0; i < 24; i += 7)
    {
        float q[3 * 8];
        memcpy(q, p, sizeof(q));
        q[i] = (i & 1) ? NAN : -INFINITY;
        h = dummy;
        PX_CHECK_STATUS(px_hull_create(q, 8, NULL, &h), PX_ERR_NON_FINITE);
        PX_CHECK(h == NULL);
    }
    /* accessors on NULL and out-of-range vertices */
    PX_CHECK(px_hull_dimension(NULL) == 0 && px_hull_vertex_count(NULL) == 0 &&
             px_hull_vertices(NULL) == NULL);
    PX_CHECK(px_hull_face_count(NULL) == 0 && px_hull_faces(NULL) == NULL &&
             px_hull_face_indices(NULL) == NULL);
    PX_CHECK(px_hull_edge_count(NULL) == 0 && px_hull_edges(NULL) == NULL);
    const int32_t* nb = (const int32_t*)p;
    PX_CHECK(px_hull_vertex_neighbors(NULL, 0, &nb) == 0 && nb == NULL);
    px_hull_destroy(NULL);
    h = build_hull(p, 8, PX_OK);
    PX_CHECK(h != NULL);
    nb = (const int32_t*)p;
    PX_CHECK(px_hull_vertex_neighbors(h, 8, &nb) == 0 && nb == NULL);
    PX_CHECK(px_hull_vertex_neighbors(h, -1, &nb) == 0 && nb == NULL);
    PX_CHECK(px_hull_vertex_neighbors(h, 0, NULL) == 3);
    px_hull_destroy(h);
    return 0;
}

/* Fail the 1st, 2nd, ... allocation until the build succeeds: each failure reports PX_ERR_OUT_OF_MEMORY,
 * leaves *hull NULL and no block live; the success holds one block, freed by px_hull_destroy. */
static int allocation_failure(void)
{
    float* sphere = make_cloud(CLOUD_SPHERE, 3000, 31);
    float flat[3 * 300], line[3 * 20], point[3];
    px_rng r = px_rng_seeded(32);
    for (int i = 0; i < 300; ++i)
    {
        const double c[3] = { 0.0, 0.0, 0.25 }, s3[3] = { 1.0, 1.0, 0.0 };
        put_random(flat, i, &r, c, s3);
    }
    for (int i = 0; i < 20; ++i)
    {
        put(line, i, i, 2.0 * i, -1.0);
    }
    put(point, 0, 1, 2, 3);
    const float* clouds[4] = { sphere, flat, line, point };
    const int counts[4] = { 3000, 300, 20, 1 };
    const px_status expect[4] = { PX_OK, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE, PX_WARN_DEGENERATE };
    for (int c = 0; c < 4; ++c)
    {
        int failures = 0;
        for (int fail_at = 1;; ++fail_at)
        {
            pxt_count_alloc st;
            px_hull_def def = px_hull_default_def();
            def.allocator = pxt_count_allocator(&st, fail_at);
            px_hull* h = (px_hull*)(void*)point;
            px_status s = px_hull_create(clouds[c], counts[c], &def, &h);
            if (s != PX_ERR_OUT_OF_MEMORY)
            {
                PX_CHECK_STATUS(s, expect[c]);
                PX_CHECK(st.calls < fail_at); /* succeeded because no call failed */
                PX_CHECK(h != NULL && st.live == 1);
                px_hull_destroy(h);
                PX_CHECK(st.live == 0 && st.bytes == 0);
                break;
            }
            ++failures;
            if (h != NULL || st.live != 0 || st.bytes != 0)
            {
                fprintf(stderr, "cloud %d, fail_at %d: hull %p, live %d, bytes %lld\n", c, fail_at, (void*)h,
                        st.live, st.bytes);
                free(sphere);
                return 1;
            }
            PX_CHECK(fail_at < 10000);
        }
        PX_CHECK(failures >= (c == 0 ? 20 : 2)); /* the growth paths were exercised */
    }
    free(sphere);
    return 0;
}

static int default_def(void)
{
    px_hull_def d = px_hull_default_def();
    PX_CHECK(d.tolerance == 1e-5f && d.max_vertices == 0 && d.internal_value != 0);
    PX_CHECK(d.climb_min_vertices == PX_HULL_HILL_CLIMB_MIN_VERTICES);
    PX_CHECK(d.allocator.alloc == NULL && d.allocator.free == NULL && d.allocator.user == NULL);
    /* a larger tolerance welds more: points 1e-3 outside a cube's faces are dropped at 1e-3, kept at 1e-5 */
    float p[3 * 14];
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(p, 1.0, 1.0, 1.0, zero);
    for (int i = 0; i < 6; ++i)
    {
        double c[3] = { 0.0, 0.0, 0.0 };
        c[i / 2] = (i & 1) ? 1.0005 : -1.0005;
        put(p, 8 + i, c[0], c[1], c[2]);
    }
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(p, 14, NULL, &h), PX_OK);
    PX_CHECK(px_hull_vertex_count(h) == 14);
    px_hull_destroy(h);
    d.tolerance = 1e-3f;
    PX_CHECK_STATUS(px_hull_create(p, 14, &d, &h), PX_OK);
    PX_CHECK(expect_box(h) == 0);
    px_hull_destroy(h);
    return 0;
}

static int shape_from_hull(void)
{
    float* p = make_cloud(CLOUD_ELLIPSOID, 500, 33);
    px_hull* h = build_hull(p, 500, PX_OK);
    PX_CHECK(h != NULL);
    px_shape s = px_shape_from_hull(h);
    PX_CHECK(s.type == PX_SHAPE_HULL && s.radius == 0.0f);
    PX_CHECK(s.hull.points == px_hull_vertices(h) && s.hull.count == px_hull_vertex_count(h) &&
             s.hull.built == h);
    PX_CHECK_STATUS(px_shape_validate(&s), PX_OK);
    px_rng r = px_rng_seeded(34);
    double side = cloud_side(p, 500);
    for (int t = 0; t < 200; ++t)
    {
        double d[3];
        px_rng_unit_vector(&r, d);
        vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
        vec3 x;
        PX_CHECK(px_shape_support(&s, df, x) >= 0);
        double best = -INFINITY;
        for (int i = 0; i < 500; ++i)
        {
            best = fmax(best, ddot(p + 3 * i, d));
        }
        PX_CHECK_NEAR(ddot(x, d), best, HULL_TOL * side + 1e-6);
    }
    /* a shape over a prefix of the hull's vertices is that many points: its support is among them, not
     * the hull's (the table lists every vertex) */
    px_shape prefix = s;
    prefix.hull.count = 300;
    for (int t = 0; t < 200; ++t)
    {
        double d[3];
        px_rng_unit_vector(&r, d);
        vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
        vec3 x;
        int32_t i = px_shape_support(&prefix, df, x);
        PX_CHECK(i >= 0 && i < 300);
        double best = -INFINITY;
        for (int k = 0; k < 300; ++k)
        {
            best = fmax(best, ddot(px_hull_vertices(h) + 3 * k, d));
        }
        PX_CHECK_NEAR(ddot(x, d), best, 1e-6);
    }
    px_hull_destroy(h);
    free(p);
    PX_CHECK(px_shape_from_hull(NULL).hull.built == NULL);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------
 * Hill climbing
 * ------------------------------------------------------------------------------------------------------ */

/* pxi_hull_climb from many starts agrees with the brute-force maximum over the vertices, for random
 * directions and for axis-aligned and diagonal ones (ties across whole faces). */
static int climb_hull(const px_hull* h, uint64_t seed, double eps)
{
    px_rng r = px_rng_seeded(seed);
    const int V = px_hull_vertex_count(h);
    const float* v = px_hull_vertices(h);
    const int starts = V <= 300 ? V : 300;
    for (int t = 0; t < 150; ++t)
    {
        double d[3];
        if (t < 26)
        {
            /* the 26 directions with components in {-1, 0, 1} */
            int code = t < 13 ? t : t + 1;
            d[0] = code % 3 - 1;
            d[1] = (code / 3) % 3 - 1;
            d[2] = code / 9 - 1;
        }
        else
        {
            px_rng_unit_vector(&r, d);
        }
        vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
        double best = -INFINITY;
        for (int i = 0; i < V; ++i)
        {
            best = fmax(best, ddot(v + 3 * i, d));
        }
        double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        double scale = fabs(best) + eps;
        for (int k = -1; k < starts; ++k)
        {
            /* k = -1: a cold start from the hull's seed for the direction */
            int s = k < 0 ? -1 : (V <= 300 ? k : px_rng_int(&r, V));
            int32_t got = pxi_hull_climb(h, df, s);
            if (got < 0 || got >= V)
            {
                fprintf(stderr, "climb returned %d\n", got);
                return 1;
            }
            double gap = best - ddot(v + 3 * got, d);
            if (!(gap <= eps * dn + 4.0 * FLT_EPSILON * scale))
            {
                fprintf(stderr, "climb from %d along (%g %g %g): %d short by %.3g (eps %.3g)\n", s, d[0],
                        d[1], d[2], got, gap, eps);
                return 1;
            }
        }
    }
    return 0;
}

static int climb_solids(void)
{
    const cloud_kind kinds[] = { CLOUD_SPHERE,   CLOUD_BOX,    CLOUD_ELLIPSOID,
                                 CLOUD_GAUSSIAN, CLOUD_SPHERE, CLOUD_ELLIPSOID };
    const int sizes[] = { 200, 1000, 10000, 5000, 100000, 100000 };
    for (int t = 0; t < 6; ++t)
    {
        float* p = make_cloud(kinds[t], sizes[t], 40 + (uint64_t)t);
        px_hull* h = build_hull(p, sizes[t], PX_OK);
        PX_CHECK(h != NULL);
        int rc = climb_hull(h, 50 + (uint64_t)t, HULL_TOL * cloud_side(p, sizes[t]));
        px_hull_destroy(h);
        free(p);
        PX_CHECK(rc == 0);
    }
    /* a cube with face grids: every axis direction ties on a whole face */
    float q[3 * 8];
    const double zero[3] = { 0.0, 0.0, 0.0 };
    box_corners(q, 1.0, 2.0, 3.0, zero);
    px_hull* h = build_hull(q, 8, PX_OK);
    PX_CHECK(h != NULL);
    int rc = climb_hull(h, 60, 0.0);
    /* ties keep the current vertex: from a corner of the +x face, +x stays put */
    vec3 px = { 1.0f, 0.0f, 0.0f };
    for (int i = 0; i < 8; ++i)
    {
        if (px_hull_vertices(h)[3 * i] > 0.0f)
        {
            PX_CHECK(pxi_hull_climb(h, px, i) == i);
        }
    }
    /* NaN direction: the start */
    vec3 nan_d = { NAN, 0.0f, 1.0f };
    PX_CHECK(pxi_hull_climb(h, nan_d, 5) == 5);
    int32_t cold = pxi_hull_climb(h, nan_d, -1); /* a seed, not an out-of-range index */
    PX_CHECK(cold >= 0 && cold < px_hull_vertex_count(h));
    px_hull_destroy(h);
    return rc;
}

/* Flat polygons: an exact one, and a 1000-gon whose vertices are off its plane by up to a fifth of the
 * tolerance (directions near its normal then see a nearly constant, slightly bumpy function along the
 * boundary). */
/* Rings 8 HULL_TOL * 20 thick (the flat test allows 2 eps of slab, eps = HULL_TOL * 20 here), drawn as
 * climb_flat draws its second ring with the seeds that found the bug: the plane through the builder's three
 * extreme points leaned across the ring (their own offsets tilt it), a point fell 1.05 eps from that plane,
 * and the cloud took the 3D path, whose merge left 202 faces. A ring this thin is a flat polygon. */
static int flat_ring_leaning_extremes(void)
{
    static const uint64_t seeds[] = { 19, 20, 37, 47, 54 };
    float* p = malloc(3 * sizeof(float) * 1000);
    int rc = p == NULL;
    for (size_t k = 0; k < sizeof(seeds) / sizeof(seeds[0]) && rc == 0; ++k)
    {
        px_rng r;
        r.state = 62u ^ (seeds[k] * 0x9E3779B97F4A7C15ull); /* px_rng_seeded(62) under PX_TEST_SEED=seeds[k] */
        for (int i = 0; i < 1000; ++i)
        {
            double a = 6.283185307179586 * i / 1000.0;
            put(p, i, 10.0 * cos(a), 10.0 * sin(a), 0.2 * HULL_TOL * 20.0 * px_rng_range(&r, -1.0, 1.0));
        }
        px_hull* h = build_hull(p, 1000, PX_WARN_DEGENERATE);
        if (h == NULL || px_hull_dimension(h) != 2)
        {
            fprintf(stderr, "ring %d: %s, dimension %d, %d faces\n", (int)seeds[k], h == NULL ? "no hull" : "built",
                    h != NULL ? px_hull_dimension(h) : -1, h != NULL ? px_hull_face_count(h) : -1);
            rc = 1;
        }
        px_hull_destroy(h);
    }
    free(p);
    return rc;
}

static int climb_flat(void)
{
    float* p = malloc(3 * sizeof(float) * 1000);
    for (int i = 0; i < 40; ++i)
    {
        double a = 6.283185307179586 * i / 40.0;
        put(p, i, 2.0 * cos(a), 0.5, sin(a));
    }
    px_hull* h = build_hull(p, 40, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL && px_hull_dimension(h) == 2 && px_hull_vertex_count(h) == 40);
    int rc = climb_hull(h, 61, 0.0);
    px_hull_destroy(h);
    PX_CHECK(rc == 0);
    px_rng r = px_rng_seeded(62);
    for (int i = 0; i < 1000; ++i)
    {
        double a = 6.283185307179586 * i / 1000.0;
        put(p, i, 10.0 * cos(a), 10.0 * sin(a), 0.2 * HULL_TOL * 20.0 * px_rng_range(&r, -1.0, 1.0));
    }
    h = build_hull(p, 1000, PX_WARN_DEGENERATE);
    PX_CHECK(h != NULL && px_hull_dimension(h) == 2);
    rc = climb_hull(h, 63, HULL_TOL * 20.0);
    /* directions within a degree of the normal */
    const int V = px_hull_vertex_count(h);
    const float* v = px_hull_vertices(h);
    for (int t = 0; t < 200 && rc == 0; ++t)
    {
        double d[3];
        px_rng_unit_vector(&r, d);
        d[0] *= 0.01;
        d[1] *= 0.01;
        d[2] = t & 1 ? 1.0 : -1.0;
        vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
        double best = -INFINITY;
        for (int i = 0; i < V; ++i)
        {
            best = fmax(best, ddot(v + 3 * i, d));
        }
        int32_t got = pxi_hull_climb(h, df, px_rng_int(&r, V));
        rc = !(best - ddot(v + 3 * got, d) <= HULL_TOL * 20.0 * 1.01 + 1e-6);
    }
    px_hull_destroy(h);
    free(p);
    return rc;
}

/* GJK on a built hull gives the same distance whether it climbs (climb_min_vertices 1) or scans (INT_MAX),
 * and the same as on the raw point cloud, warm-started from a simplex cache along a path of small motions
 * (the climbs then start from the cached vertices) and cold. */
/* A unit sphere's points centred at (1e5, -1e5, 3e4), hill climbed (every built hull climbs here): the
 * support along random directions is the input's within the hull's tolerance. The climb compared plain dot
 * products, which round to the same float (an ulp of 2e5 is 0.016) over many neighbours, and stalled up to
 * 0.53 short (review 50); it now compares them relative to the centroid. */
static int climb_far_from_origin(void)
{
    const int n = 20000;
    float* p = malloc(3 * sizeof(float) * (size_t)n);
    PX_CHECK(p != NULL);
    px_rng r = px_rng_seeded(0x666172ull);
    for (int i = 0; i < n; ++i)
    {
        double u[3];
        px_rng_unit_vector(&r, u);
        put(p, i, 1.0e5 + u[0], -1.0e5 + u[1], 3.0e4 + u[2]);
    }
    px_hull_def def = px_hull_default_def();
    def.climb_min_vertices = 1;
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(p, n, &def, &h), PX_OK);
    const px_shape shape = px_shape_from_hull(h);
    double worst = 0.0;
    for (int t = 0; t < 2000; ++t)
    {
        double u[3];
        px_rng_unit_vector(&r, u);
        const vec3 d = { (float)u[0], (float)u[1], (float)u[2] };
        /* the input's support, relative to the sphere's centre in double (exact differences) */
        double best = -INFINITY;
        for (int i = 0; i < n; ++i)
        {
            const double x = ((double)p[3 * i] - 1.0e5) * d[0] + ((double)p[3 * i + 1] + 1.0e5) * d[1] +
                             ((double)p[3 * i + 2] - 3.0e4) * d[2];
            best = fmax(best, x);
        }
        vec3 s;
        px_shape_support(&shape, d, s);
        const double got = ((double)s[0] - 1.0e5) * d[0] + ((double)s[1] + 1.0e5) * d[1] + ((double)s[2] - 3.0e4) * d[2];
        worst = fmax(worst, best - got);
    }
    px_hull_destroy(h);
    free(p);
    if (!(worst <= 1.0e-4))
    {
        fprintf(stderr, "climbed support short of the input's by %.3g\n", worst);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------
 * The direction table (hull_cells.c)
 * ------------------------------------------------------------------------------------------------------ */

/* The brute-force maximum of dot(vertex, d) over the hull's vertices, in double. */
static double brute_max(const px_hull* h, const double d[3])
{
    const float* v = px_hull_vertices(h);
    double best = -INFINITY;
    for (int i = 0; i < px_hull_vertex_count(h); ++i)
    {
        best = fmax(best, ddot(v + 3 * i, d));
    }
    return best;
}

/* The table's support along df (pxi_hull_support_vertex from df's cell, cold): its index, its position in q. */
static int32_t table_support(const px_hull* h, const vec3 df, vec3 q)
{
    int32_t start = -1;
    return pxi_hull_support_vertex(h, pxi_hull_cell(h, df), df, &start, q);
}

/* The gap between the brute-force maximum along d and the table's support (pxi_hull_support_vertex from
 * d's cell, cold), or +inf when the answer is not a vertex or its position is not that vertex's. */
static double table_gap(const px_hull* h, const double d[3], bool* settled)
{
    const int V = px_hull_vertex_count(h);
    const float* v = px_hull_vertices(h);
    vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
    const double best = brute_max(h, d);
    *settled = pxi_hull_cell_settles(pxi_hull_cell(h, df));
    vec3 p;
    int32_t got = table_support(h, df, p);
    if (got < 0 || got >= V || memcmp(p, v + 3 * got, sizeof(vec3)) != 0 || pxi_hull_climb(h, df, -1) < 0)
    {
        return INFINITY;
    }
    /* the cold climb (pxi_hull_climb_record through the same table) answers as high */
    double via_climb = ddot(v + 3 * pxi_hull_climb(h, df, -1), d);
    return fmax(best - ddot(v + 3 * got, d), best - via_climb);
}

/* The table against the brute-force maximum: along directions on the cells' corners and one float step
 * to either side in each coordinate (where the rounding of pxi_hull_cell's cell coordinates decides the
 * cell, and across the cube's edges and corners, where it decides the face), at three scales, and along
 * random directions. Returns the share of random directions whose cell settled the support in *settled. */
static int table_hull(const px_hull* h, uint64_t seed, double eps, double* settled_share)
{
    const int k = h->cell_k;
    const float* v = px_hull_vertices(h);
    double mag = 0.0;
    for (int i = 0; i < 3 * px_hull_vertex_count(h); ++i)
    {
        mag = fmax(mag, fabs(v[i]));
    }
    int checked = 0;
    for (int face = 0; face < 6; ++face)
    {
        const int a = face / 2, u = a == 2 ? 0 : a + 1, w = a == 0 ? 2 : a - 1;
        for (int i = 0; i <= k; ++i)
        {
            for (int j = 0; j <= k; ++j)
            {
                for (int nudge = 0; nudge < 9; ++nudge)
                {
                    for (int scale = 0; scale < 3; ++scale)
                    {
                        const float m = scale == 0 ? 1.0f : (scale == 1 ? 1.0e-3f : 1.0e3f);
                        float x = (float)(2 * i) / (float)k - 1.0f, y = (float)(2 * j) / (float)k - 1.0f;
                        x = nudge % 3 == 0 ? x : nextafterf(x, nudge % 3 == 1 ? -2.0f : 2.0f);
                        y = nudge / 3 == 0 ? y : nextafterf(y, nudge / 3 == 1 ? -2.0f : 2.0f);
                        double d[3];
                        d[a] = (face % 2 ? -1.0 : 1.0) * m;
                        d[u] = (double)(x * m);
                        d[w] = (double)(y * m);
                        double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
                        bool settled;
                        double gap = table_gap(h, d, &settled);
                        ++checked;
                        if (!(gap <= eps * dn + 4.0 * FLT_EPSILON * mag * dn))
                        {
                            fprintf(stderr, "table: face %d corner (%d %d) nudge %d scale %g: short by %.3g (%s)\n",
                                    face, i, j, nudge, (double)m, gap, settled ? "settled" : "climbed");
                            return 1;
                        }
                    }
                }
            }
        }
    }
    px_rng r = px_rng_seeded(seed);
    int settled_count = 0;
    const int random = 3000;
    for (int t = 0; t < random; ++t)
    {
        double d[3];
        px_rng_unit_vector(&r, d);
        bool settled;
        double gap = table_gap(h, d, &settled);
        settled_count += settled;
        if (!(gap <= eps + 4.0 * FLT_EPSILON * mag))
        {
            fprintf(stderr, "table: random direction (%g %g %g): short by %.3g (%s)\n", d[0], d[1], d[2], gap,
                    settled ? "settled" : "climbed");
            return 1;
        }
    }
    *settled_share = (double)settled_count / random;
    return checked == 6 * (k + 1) * (k + 1) * 27 ? 0 : 1;
}

/* Hulls built to use their tables at every size (climb_min_vertices 1): random clouds, a cube (cones of a
 * quarter sphere, every cell of a face settled by one vertex), a cylinder whose caps are merged from
 * slightly bumpy rings (twisted faces), a flat ring, a segment, a point, and a ball far from the origin. */
static int direction_table(void)
{
    px_hull_def def = px_hull_default_def();
    def.climb_min_vertices = 1;
    const cloud_kind kinds[] = { CLOUD_SPHERE, CLOUD_ELLIPSOID, CLOUD_BOX, CLOUD_GAUSSIAN, CLOUD_BALL };
    const int sizes[] = { 1000, 3000, 2000, 500, 2000 };
    for (int t = 0; t < 5; ++t)
    {
        float* p = make_cloud(kinds[t], sizes[t], 70 + (uint64_t)t);
        px_hull* h = NULL;
        PX_CHECK_STATUS(px_hull_create(p, sizes[t], &def, &h), PX_OK);
        double share = 0.0;
        int rc = table_hull(h, 80 + (uint64_t)t, HULL_TOL * cloud_side(p, sizes[t]), &share);
        if (rc == 0 && px_hull_vertex_count(h) >= 500 && !(share >= 0.85))
        {
            /* the table is sized so that most directions need no climb: a table that settles little works
             * but has lost its point */
            fprintf(stderr, "%s: the table settles %.0f%% of the directions\n", cloud_name(kinds[t]), 100.0 * share);
            rc = 1;
        }
        px_hull_destroy(h);
        free(p);
        if (rc != 0)
        {
            fprintf(stderr, "cloud %s\n", cloud_name(kinds[t]));
        }
        PX_CHECK(rc == 0);
    }
    /* a cube, a bumpy cylinder, a flat ring, a segment, a point, a far ball */
    float* p = malloc(3 * sizeof(float) * 2000);
    PX_CHECK(p != NULL);
    px_rng r = px_rng_seeded(90);
    for (int shape = 0; shape < 6; ++shape)
    {
        int n = 0;
        double eps = 0.0;
        px_status expect = shape <= 1 || shape == 5 ? PX_OK : PX_WARN_DEGENERATE;
        switch (shape)
        {
        case 0:
        {
            const double zero[3] = { 0.0, 0.0, 0.0 };
            box_corners(p, 1.0, 2.0, 3.0, zero);
            n = 8;
            break;
        }
        case 1:
            for (int i = 0; i < 400; ++i)
            {
                double ang = 6.283185307179586 * (i / 2) / 200.0;
                double bump = 0.3 * HULL_TOL * 4.0 * px_rng_range(&r, -1.0, 1.0);
                put(p, n++, 2.0 * cos(ang), 2.0 * sin(ang), (i & 1 ? 2.0 : -2.0) + bump);
            }
            eps = HULL_TOL * 4.0;
            break;
        case 2:
            for (int i = 0; i < 64; ++i)
            {
                double ang = 6.283185307179586 * i / 64.0;
                put(p, n++, 3.0 * cos(ang), 0.25, sin(ang));
            }
            break;
        case 3:
            put(p, n++, -1.0, 2.0, 0.5);
            put(p, n++, 3.0, -1.0, 0.25);
            put(p, n++, 1.0, 0.5, 0.375); /* the segment's midpoint */
            break;
        case 4:
            put(p, n++, 1.5, -2.5, 4.0);
            break;
        default:
            for (int i = 0; i < 2000; ++i)
            {
                double d[3];
                px_rng_unit_vector(&r, d);
                double s = cbrt(px_rng_unit(&r));
                put(p, n++, 1.0e5 + s * d[0], -1.0e5 + s * d[1], 3.0e4 + s * d[2]);
            }
            eps = HULL_TOL * 2.0;
            break;
        }
        px_hull* h = NULL;
        PX_CHECK_STATUS(px_hull_create(p, n, &def, &h), expect);
        double share = 0.0;
        int rc = table_hull(h, 100 + (uint64_t)shape, eps, &share);
        if (rc != 0)
        {
            fprintf(stderr, "shape %d (%d vertices, table %d)\n", shape, px_hull_vertex_count(h), h->cell_k);
        }
        px_hull_destroy(h);
        PX_CHECK(rc == 0);
    }
    free(p);
    return 0;
}

/* Tiny directions (below about 1e-38, as GJK can meet between touching shapes or on large hulls) fall in the
 * same cell as the same direction scaled up by a power of two, and their table support is the maximum: the
 * lookup's k / 2|d_a| overflowed to +inf there, which put them in a wrong cell (0 x inf, NaN, in cell 0 of
 * their face), a settled one whose entries missed the support. The hull is scaled to 1e20 so that the dot
 * products keep float precision. */
static int direction_table_tiny(void)
{
    const int n = 1000;
    float* p = make_cloud(CLOUD_SPHERE, n, 120);
    for (int i = 0; i < 3 * n; ++i)
    {
        p[i] *= 1.0e20f;
    }
    px_hull_def def = px_hull_default_def();
    def.climb_min_vertices = 1;
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(p, n, &def, &h), PX_OK);
    const float* v = px_hull_vertices(h);
    px_rng r = px_rng_seeded(121);
    int failures = 0;
    for (int t = 0; t < 500; ++t)
    {
        double u[3];
        px_rng_unit_vector(&r, u);
        const vec3 unit = { (float)u[0], (float)u[1], (float)u[2] };
        const float scales[] = { 0x1p-124f, 0x1p-127f, 0x1p-130f, 0x1p-140f };
        for (int s = 0; s < 4; ++s)
        {
            const vec3 df = { unit[0] * scales[s], unit[1] * scales[s], unit[2] * scales[s] };
            const double d[3] = { df[0], df[1], df[2] };
            const double best = brute_max(h, d);
            vec3 q;
            int32_t got = table_support(h, df, q);
            const double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            /* denormal components keep fewer digits: the cell is compared only for normal ones */
            bool normal = true;
            for (int i = 0; i < 3; ++i)
            {
                normal = normal && (fabsf(df[i]) >= FLT_MIN || df[i] == 0.0f);
            }
            if ((normal && pxi_hull_cell(h, df) != pxi_hull_cell(h, unit)) ||
                !(best - ddot(v + 3 * got, d) <= 4.0 * FLT_EPSILON * 1.0e20 * dn))
            {
                if (++failures <= 5)
                {
                    fprintf(stderr, "direction (%.9g %.9g %.9g) x %g: support short by %.3g of %.3g\n", u[0], u[1], u[2],
                            (double)scales[s], best - ddot(v + 3 * got, d), best);
                }
            }
        }
    }
    px_hull_destroy(h);
    free(p);
    return failures == 0 ? 0 : 1;
}

/* The largest shortfall of the table's support (cold, pxi_hull_support_vertex) below the brute-force
 * maximum, over |d|, along random directions and directions across the cube face of -x. */
static double table_worst_gap(const px_hull* h, uint64_t seed)
{
    const float* v = px_hull_vertices(h);
    px_rng r = px_rng_seeded(seed);
    double worst = 0.0;
    for (int t = 0; t < 20000; ++t)
    {
        double d[3];
        if (t % 2 == 0)
        {
            px_rng_unit_vector(&r, d);
        }
        else
        {
            d[0] = -1.0;
            d[1] = px_rng_range(&r, -1.0, 1.0);
            d[2] = px_rng_range(&r, -1.0, 1.0);
        }
        const vec3 df = { (float)d[0], (float)d[1], (float)d[2] };
        const double dd[3] = { df[0], df[1], df[2] };
        const double best = brute_max(h, dd);
        vec3 q;
        int32_t got = table_support(h, df, q);
        worst = fmax(worst, (best - ddot(v + 3 * got, dd)) / sqrt(dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2]));
    }
    return worst;
}

/* Hulls with axis-aligned faces merged from many triangles, where each vertex's cone has dozens of
 * half-planes through one corner of the clips' slack square: a flat pyramid (a regular 110-gon in the
 * plane x = 0 and an apex 0.001 above it) and a ball of lattice points (a quantized sphere). Rounding
 * noise in those clips once dropped vertices from settled cells along their cones (polygon_meets_box):
 * supports 0.0016 short on the unit pyramid, 0.019 on the ball (radius 1.33). */
static int direction_table_flat_pyramid(void)
{
    px_hull_def def = px_hull_default_def();
    def.climb_min_vertices = 1;
    float* p = malloc(3 * sizeof(float) * 3000);
    PX_CHECK(p != NULL);
    px_rng r = px_rng_seeded(131);
    for (int shape = 0; shape < 2; ++shape)
    {
        int n = 0;
        if (shape == 0)
        {
            for (; n < 110; ++n)
            {
                double a = 6.283185307179586 * n / 110.0;
                put(p, n, 0.0, cos(a), sin(a));
            }
            put(p, n++, 1.0e-3, 0.0, 0.0);
        }
        else
        {
            for (; n < 3000; ++n)
            {
                double d[3];
                px_rng_unit_vector(&r, d);
                put(p, n, round(d[0] * 20.0) / 15.0, round(d[1] * 20.0) / 15.0, round(d[2] * 20.0) / 15.0);
            }
        }
        px_hull* h = NULL;
        PX_CHECK_STATUS(px_hull_create(p, n, &def, &h), PX_OK);
        double worst = table_worst_gap(h, 130 + (uint64_t)shape);
        px_hull_destroy(h);
        if (!(worst <= 4.0 * FLT_EPSILON * 1.4))
        {
            fprintf(stderr, "shape %d: table support short by %.3g\n", shape, worst);
            free(p);
            return 1;
        }
    }
    free(p);
    return 0;
}

static int climb_threshold(void)
{
    const int n = 3000;
    float* p = make_cloud(CLOUD_ELLIPSOID, n, 77);
    px_hull_def climb = px_hull_default_def(), scan = px_hull_default_def();
    climb.climb_min_vertices = 1;
    scan.climb_min_vertices = INT_MAX;
    px_hull *hc = NULL, *hs = NULL;
    PX_CHECK_STATUS(px_hull_create(p, n, &climb, &hc), PX_OK);
    PX_CHECK_STATUS(px_hull_create(p, n, &scan, &hs), PX_OK);
    px_shape shapes[3] = { px_shape_from_hull(hc), px_shape_from_hull(hs), px_shape_hull(p, n) };
    const vec3 half = { 0.5f, 1.0f, 0.25f };
    px_shape box = px_shape_box(half);
    px_rng r = px_rng_seeded(78);
    px_simplex_cache cache[3];
    memset(cache, 0, sizeof(cache));
    const double side = cloud_side(p, n);
    int failures = 0;
    for (int t = 0; t < 400; ++t)
    {
        px_gjk_input in;
        in.a = NULL;
        in.b = &box;
        double u[3], q[4];
        px_rng_unit_vector(&r, u);
        px_rng_quat(&r, q);
        double dist = t % 2 ? px_rng_range(&r, 3.5, 6.0) : px_rng_range(&r, 0.0, 2.0); /* apart or overlapping */
        for (int k = 0; k < 3; ++k)
        {
            in.b_in_a.p[k] = (float)(u[k] * dist);
        }
        for (int k = 0; k < 4; ++k)
        {
            in.b_in_a.q[k] = (float)q[k];
        }
        float d[3];
        for (int s = 0; s < 3; ++s)
        {
            in.a = &shapes[s];
            px_gjk_result res;
            px_status st = px_gjk_distance(&in, NULL, t % 4 < 2 ? &cache[s] : NULL, &res);
            PX_CHECK(!PX_FAILED(st));
            d[s] = res.distance;
        }
        if (!(fabs((double)d[0] - d[2]) <= 1e-5 * side && fabs((double)d[1] - d[2]) <= 1e-5 * side))
        {
            fprintf(stderr, "pose %d: climb %.9g scan %.9g cloud %.9g\n", t, d[0], d[1], d[2]);
            ++failures;
        }
    }
    px_hull_destroy(hc);
    px_hull_destroy(hs);
    free(p);
    return failures == 0 ? 0 : 1;
}

/* A random rotation and a translation in a random direction, of a length uniform in [0, reach]. */
static px_transform random_pose_within(px_rng* r, double reach)
{
    px_transform pose;
    double u[3], q[4];
    px_rng_unit_vector(r, u);
    px_rng_quat(r, q);
    const double len = px_rng_range(r, 0.0, reach);
    for (int k = 0; k < 3; ++k)
    {
        pose.p[k] = (float)(u[k] * len);
    }
    for (int k = 0; k < 4; ++k)
    {
        pose.q[k] = (float)q[k];
    }
    return pose;
}

/* Built hulls keep a transposed copy of their vertices (px_hull.soa) that GJK and EPA scan, and a cold GJK
 * run on hulls with direction tables switches to scanning those copies when its first step does not prove
 * the pair apart. Every path must give the contact the same points give as a plain cloud: for scanned and
 * for climbed hulls of several sizes, against each other and against a box, apart, touching and overlapping,
 * cold and warm (a cache), with A and B swapped. A shape over a prefix of a hull's vertices has no copy and
 * must not read one. */
static int kept_copy_contacts(void)
{
    const int sizes[3] = { 8, 40, 300 };
    int failures = 0;
    for (int si = 0; si < 3; ++si)
    {
        const int n = sizes[si];
        float* pa = make_cloud(CLOUD_ELLIPSOID, n, 90 + (uint64_t)si);
        float* pb = make_cloud(CLOUD_ELLIPSOID, n, 190 + (uint64_t)si);
        px_hull_def climb = px_hull_default_def(), scan = px_hull_default_def();
        climb.climb_min_vertices = 1;
        scan.climb_min_vertices = INT_MAX;
        px_hull *hac = NULL, *has = NULL, *hbc = NULL, *hbs = NULL;
        PX_CHECK_STATUS(px_hull_create(pa, n, &climb, &hac), PX_OK);
        PX_CHECK_STATUS(px_hull_create(pa, n, &scan, &has), PX_OK);
        PX_CHECK_STATUS(px_hull_create(pb, n, &climb, &hbc), PX_OK);
        PX_CHECK_STATUS(px_hull_create(pb, n, &scan, &hbs), PX_OK);
        /* the copy is the vertices, transposed */
        const int va = px_hull_vertex_count(has);
        PX_CHECK(has->soa != NULL && hac->soa != NULL);
        for (int i = 0; i < va; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                PX_CHECK(has->soa[k * va + i] == px_hull_vertices(has)[3 * i + k]);
            }
        }
        /* A: climbed, scanned, cloud of the hull's vertices; B likewise, or a box */
        px_shape as[3] = { px_shape_from_hull(hac), px_shape_from_hull(has),
                           px_shape_hull(px_hull_vertices(has), px_hull_vertex_count(has)) };
        px_shape bs[3] = { px_shape_from_hull(hbc), px_shape_from_hull(hbs),
                           px_shape_hull(px_hull_vertices(hbs), px_hull_vertex_count(hbs)) };
        const vec3 half = { 0.4f, 0.7f, 0.3f };
        const px_shape box = px_shape_box(half);
        const double side = fmax(cloud_side(pa, n), cloud_side(pb, n));
        px_rng r = px_rng_seeded(91 + (uint64_t)si);
        px_simplex_cache caches[3];
        memset(caches, 0, sizeof(caches));
        for (int t = 0; t < 300; ++t)
        {
            px_transform tb;
            double u[3], q[4];
            px_rng_unit_vector(&r, u);
            px_rng_quat(&r, q);
            /* overlapping, near touching (the support distance), apart */
            const double reach = t % 3 == 0 ? px_rng_range(&r, 0.0, 0.6) : t % 3 == 1 ? 1.0 : px_rng_range(&r, 1.5, 3.0);
            for (int k = 0; k < 3; ++k)
            {
                tb.p[k] = (float)(u[k] * reach * side);
            }
            for (int k = 0; k < 4; ++k)
            {
                tb.q[k] = (float)q[k];
            }
            const bool with_box = t % 4 == 3, swapped = t % 5 == 4, warm = t % 2 == 1;
            px_contact c[3];
            for (int k = 0; k < 3; ++k)
            {
                const px_shape* a = &as[k];
                const px_shape* b = with_box ? &box : &bs[k];
                if (swapped)
                {
                    const px_shape* x = a;
                    a = b;
                    b = x;
                }
                px_gjk_input in;
                in.a = a;
                in.b = b;
                in.b_in_a = tb;
                px_status st = px_contact_relative(&in, NULL, warm ? &caches[k] : NULL, &c[k]);
                PX_CHECK(!PX_FAILED(st));
            }
            for (int k = 0; k < 2; ++k)
            {
                const double dd = fabs((double)c[k].distance - c[2].distance);
                const double dn = 1.0 - ((double)c[k].normal[0] * c[2].normal[0] + (double)c[k].normal[1] * c[2].normal[1] +
                                         (double)c[k].normal[2] * c[2].normal[2]);
                const bool clear = fabs((double)c[2].distance) > 1e-3 * side;
                if (!(dd <= 1e-5 * side) || (clear && !(dn <= 1e-4)))
                {
                    fprintf(stderr, "n %d pose %d path %d: distance %.9g vs cloud %.9g, normal off %.3g\n", n, t, k,
                            c[k].distance, c[2].distance, dn);
                    ++failures;
                }
            }
        }
        /* a prefix of a built hull's vertices: its own points, no copy (the copy's scan would read past them) */
        px_shape prefix = px_shape_from_hull(has);
        prefix.hull.count = px_hull_vertex_count(has) - 1;
        px_shape prefix_cloud = px_shape_hull(px_hull_vertices(has), prefix.hull.count);
        PX_CHECK(pxi_hull_shape_soa(&prefix) == NULL && pxi_hull_shape_soa(&as[1]) == has->soa);
        for (int t = 0; t < 50; ++t)
        {
            px_gjk_input in;
            in.b_in_a = random_pose_within(&r, 2.0 * side);
            in.b = &bs[1];
            px_contact c0, c1;
            in.a = &prefix;
            PX_CHECK(!PX_FAILED(px_contact_relative(&in, NULL, NULL, &c0)));
            in.a = &prefix_cloud;
            PX_CHECK(!PX_FAILED(px_contact_relative(&in, NULL, NULL, &c1)));
            PX_CHECK_NEAR(c0.distance, c1.distance, 1e-5 * side);
        }
        px_hull_destroy(hac);
        px_hull_destroy(has);
        px_hull_destroy(hbc);
        px_hull_destroy(hbs);
        free(pa);
        free(pb);
    }
    return failures == 0 ? 0 : 1;
}

/* A built hull of 8 to 64 vertices as B of an EPA query: EPA poses such a B in A's frame once per query
 * (its copy of B's points, moved by B's pose) and scans it along -d, where a larger B is scanned in its own
 * frame along the rotated direction. The two pick different vertices where supports tie within rounding (a
 * face towards the direction), so the built hull must take the path its points take as a plain cloud: the
 * kept copy (px_hull.soa) is only for B's that are not posed. The contacts must then be the cloud's, bit for
 * bit (hulls over 32 vertices: no separating-axis path; both scanned, not climbed). Before, overlapping
 * pairs differed by up to EPA's tolerance (1e-4 of the depth: 1.17864668 against the cloud's 1.17876172). */
static int kept_copy_small_b_is_posed(void)
{
    int failures = 0;
    const int sizes[3] = { 40, 64, 65 };
    for (int si = 0; si < 3; ++si)
    {
        const int n = sizes[si];
        float* pa = make_cloud(CLOUD_BALL, 200, 6090 + (uint64_t)si);
        float* pb = make_cloud(CLOUD_ELLIPSOID, n, 6190 + (uint64_t)si);
        px_hull_def scan = px_hull_default_def();
        scan.climb_min_vertices = INT_MAX;
        px_hull* hb = NULL;
        PX_CHECK_STATUS(px_hull_create(pb, n, &scan, &hb), PX_OK);
        PX_CHECK(px_hull_vertex_count(hb) >= PXI_HULL_SOA_MIN_VERTICES && px_hull_vertex_count(hb) > 32);
        const px_shape a = px_shape_hull(pa, 200);
        const px_shape built = px_shape_from_hull(hb);
        const px_shape cloud = px_shape_hull(px_hull_vertices(hb), px_hull_vertex_count(hb));
        const double side = cloud_side(pb, n);
        px_rng r = px_rng_seeded(6091 + (uint64_t)si);
        int differ = 0;
        for (int t = 0; t < 400; ++t)
        {
            px_gjk_input in;
            in.b_in_a = random_pose_within(&r, 0.6 * side);
            in.a = &a;
            px_contact cb, cc;
            in.b = &built;
            PX_CHECK(!PX_FAILED(px_contact_relative(&in, NULL, NULL, &cb)));
            in.b = &cloud;
            PX_CHECK(!PX_FAILED(px_contact_relative(&in, NULL, NULL, &cc)));
            if (cb.distance != cc.distance || cb.normal[0] != cc.normal[0] || cb.normal[1] != cc.normal[1] ||
                cb.normal[2] != cc.normal[2])
            {
                if (differ++ < 3)
                {
                    fprintf(stderr, "n %d pose %d: built B %.9g (%a), cloud B %.9g (%a)\n", n, t, cb.distance,
                            cb.distance, cc.distance, cc.distance);
                }
            }
        }
        if (differ > 0)
        {
            fprintf(stderr, "n %d: %d of 400 contacts differ from the cloud's\n", n, differ);
            ++failures;
        }
        px_hull_destroy(hb);
        free(pa);
        free(pb);
    }
    return failures == 0 ? 0 : 1;
}

/* Elongated built hulls of a few thousand vertices, side by side 0.05 apart (a twentieth of their width):
 * the first GJK step, along the line between their origins, does not prove them apart. A cold run that then
 * scans the hulls' kept copies (px_hull.soa) instead of climbing pays a whole scan per support, which above
 * about 1024 vertices loses to the direction table even on cold data (hull.h): 4077 vertices 1.1 -> 10.6 us
 * a distance query, 15371 vertices 1.7 -> 30 us, the overlap query 0.8 -> 7.4 us. Such hulls keep climbing.
 * Checked through the copy: it is replaced by the vertices halved, which a scan would return as supports;
 * the climbs read the vertices, so the distances must stay the plain clouds'. */
static int large_climbed_hulls_keep_climbing(void)
{
    const int n = 4096;
    float* p = malloc(3 * (size_t)n * sizeof(float));
    px_rng r = px_rng_seeded(4077);
    px_rng_ellipsoid_points(&r, n, 4.0, 0.5, 0.5, p);
    px_hull* h = NULL;
    PX_CHECK_STATUS(px_hull_create(p, n, NULL, &h), PX_OK);
    const int vc = px_hull_vertex_count(h);
    PX_CHECK(vc > 1024 && vc >= PX_HULL_HILL_CLIMB_MIN_VERTICES && h->soa != NULL);
    float* poison = malloc(3 * (size_t)vc * sizeof(float));
    for (int i = 0; i < 3 * vc; ++i)
    {
        poison[i] = 0.5f * h->soa[i];
    }
    float* kept = h->soa;
    const px_shape built = px_shape_from_hull(h);
    const px_shape cloud = px_shape_hull(px_hull_vertices(h), vc);
    int failures = 0;
    for (int t = 0; t < 20; ++t)
    {
        px_gjk_input in;
        in.b_in_a.p[0] = 4.0f - 0.2f * (float)t;
        in.b_in_a.p[1] = 1.05f;
        in.b_in_a.p[2] = 0.01f * (float)t;
        in.b_in_a.q[0] = in.b_in_a.q[1] = in.b_in_a.q[2] = 0.0f;
        in.b_in_a.q[3] = 1.0f;
        px_gjk_result rb, rc;
        in.a = in.b = &cloud;
        PX_CHECK(!PX_FAILED(px_gjk_distance(&in, NULL, NULL, &rc)));
        PX_CHECK(rc.distance > 0.01f);
        h->soa = poison;
        in.a = in.b = &built;
        const px_status st = px_gjk_distance(&in, NULL, NULL, &rb);
        bool overlap = true;
        const px_status so = px_gjk_overlap(&in, NULL, NULL, &overlap);
        /* the contact query, the one whose cold runs may switch (to hulls of at most 1024 vertices) */
        px_contact cb;
        const px_status sc = px_contact_relative(&in, NULL, NULL, &cb);
        h->soa = kept;
        PX_CHECK(!PX_FAILED(st) && !PX_FAILED(so) && !PX_FAILED(sc));
        if (!(fabsf(rb.distance - rc.distance) <= 1e-5f) || overlap || !(fabsf(cb.distance - rc.distance) <= 1e-5f))
        {
            fprintf(stderr, "pose %d: built %.9g (overlap %d, contact %.9g), cloud %.9g: the kept copy was scanned\n", t,
                    rb.distance, (int)overlap, cb.distance, rc.distance);
            ++failures;
        }
    }
    px_hull_destroy(h);
    free(poison);
    free(p);
    return failures == 0 ? 0 : 1;
}

int test_hull(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(cube_interior_duplicates);
    PX_RUN_SUBTEST(random_clouds);
    PX_RUN_SUBTEST(large_clouds);
    PX_RUN_SUBTEST(coplanar_box_faces);
    PX_RUN_SUBTEST(coplanar_prism);
    PX_RUN_SUBTEST(duplicated_vertices);
    PX_RUN_SUBTEST(nearly_collinear);
    PX_RUN_SUBTEST(slivers);
    PX_RUN_SUBTEST(lattice_ball);
    PX_RUN_SUBTEST(lattice_with_duplicate);
    PX_RUN_SUBTEST(quantized_and_noisy);
    PX_RUN_SUBTEST(degenerate_points);
    PX_RUN_SUBTEST(degenerate_segments);
    PX_RUN_SUBTEST(degenerate_polygons);
    PX_RUN_SUBTEST(thin_box);
    PX_RUN_SUBTEST(extreme_scales);
    PX_RUN_SUBTEST(max_vertices_limit);
    PX_RUN_SUBTEST(bad_input);
    PX_RUN_SUBTEST(allocation_failure);
    PX_RUN_SUBTEST(default_def);
    PX_RUN_SUBTEST(shape_from_hull);
    PX_RUN_SUBTEST(climb_solids);
    PX_RUN_SUBTEST(climb_flat);
    PX_RUN_SUBTEST(flat_ring_leaning_extremes);
    PX_RUN_SUBTEST(climb_threshold);
    PX_RUN_SUBTEST(climb_far_from_origin);
    PX_RUN_SUBTEST(direction_table);
    PX_RUN_SUBTEST(direction_table_tiny);
    PX_RUN_SUBTEST(direction_table_flat_pyramid);
    PX_RUN_SUBTEST(kept_copy_contacts);
    PX_RUN_SUBTEST(kept_copy_small_b_is_posed);
    PX_RUN_SUBTEST(large_climbed_hulls_keep_climbing);
    PX_SUITE_END;
}
