/* mesh: the triangle-mesh BVH (issue 4) against brute force over every triangle.
 *
 * Oracles:
 *  - rays: px_ray_triangle_watertight over all triangles, lowest t then lowest index, must give the BVH's
 *    triangle and t; where the hit is unambiguous (hit point away from the triangle's edges by more than
 *    the float kernel's error, next candidate clearly farther), a long-double Moller-Trumbore pass must
 *    agree too, and a ray that clearly misses every triangle must miss;
 *  - closest points: the long-double closest point on each triangle (support/ref_geometry.h);
 *  - box queries: the triangles' bounds.
 * Meshes: the six shared OBJ files, random soups, a subdivided icosphere, a height-field terrain, a closed
 * box of grid quads, and degenerate sets (copies, zero-area triangles, equal centroids, 1e-30, 1e30 and
 * near-FLT_MAX coordinates, triangles at 2^i). Rays aimed at shared edges and vertices of closed meshes at
 * offsets 0, 1e3 and 1e5 must all hit. Bad input, allocation failure on every allocation, and every leaf
 * size and bin count giving the same answers, on a tree whose structure is checked node by node.
 *
 * Sample counts are divided by 4 in Debug and sanitizer builds. PX_TEST_SEED changes the random cases. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "broadphase/mesh_internal.h"
#include "proxima/proxima.h"
#include "support/count_alloc.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "support/sanitize.h"
#include "test.h"

#if PXT_ASAN || !defined(NDEBUG)
#define MESH_SLOW 1
#else
#define MESH_SLOW 0
#endif

typedef long double ld;

static int scaled(int n)
{
    return MESH_SLOW ? (n + 3) / 4 : n;
}

/* Failures printed so far in the current subtest (the rest are only counted), and whether the last one
 * was printed (print_ray follows it). */
static int g_reported;
static bool g_printed;
#define MESH_MAX_PRINTED 24
#define REPORT(...)                                             \
    do                                                          \
    {                                                           \
        g_printed = g_reported++ < MESH_MAX_PRINTED;            \
        if (g_printed)                                          \
        {                                                       \
            fflush(stdout); /* keep the two streams in order */ \
            fprintf(stderr, "    ");                            \
            fprintf(stderr, __VA_ARGS__);                       \
            fputc('\n', stderr);                                \
        }                                                       \
    } while (0)

/* Kinds of failure, counted per subtest so that the summary shows every one, not only the first printed. */
enum
{
    K_STATUS,         /* a query returned an error on valid input */
    K_RAY_HIT,        /* hit / no hit differs from brute force (ray_cast, sided, any) */
    K_RAY_TRI,        /* both hit, another triangle or t */
    K_RAY_TIE,        /* both hit at the same t, the BVH not on the lowest-index triangle */
    K_RAY_LD,         /* the long-double oracle's clear hit or clear miss not found */
    K_RAY_CONTRACT,   /* hit point, normal, u, v, side, cleared miss */
    K_POINT_FOUND,    /* found / not found against max_distance */
    K_POINT_DISTANCE, /* distance off the brute-force minimum */
    K_POINT_TRI,      /* another triangle, not at the same distance */
    K_POINT_CONTRACT, /* point off its triangle, normal, cleared result */
    K_BOX_SET,        /* the set of triangles (or its order) differs from the bounds test */
    K_BOX_INVERTED,   /* an inverted box (min > max on an axis) found triangles */
    K_BOX_STOP,       /* the callback's false did not stop the query */
    K_BOX_CAPACITY,   /* PX_WARN_CAPACITY, count, or which triangles are written */
    K_BATCH,          /* batch casts differ from single casts */
    K_SIMD,           /* the SSE traversal differs from the AVX2 one */
    K_TREE,           /* tree structure, statistics, copy of the input */
    K_COUNT
};
static const char* const kind_names[K_COUNT] = { "status",
                                                 "ray hit/miss",
                                                 "ray triangle/t",
                                                 "ray tie (not lowest index)",
                                                 "ray vs long double",
                                                 "ray contract",
                                                 "point found",
                                                 "point distance",
                                                 "point triangle",
                                                 "point contract",
                                                 "box set",
                                                 "box inverted",
                                                 "box stop",
                                                 "box capacity",
                                                 "batch",
                                                 "simd path",
                                                 "tree" };
static long g_kind[K_COUNT];

/* While set, failures are only counted in g_quiet_count (for cases that show a limit of another module,
 * not of the BVH). */
static bool g_quiet;
static long g_quiet_count;

#define FAIL(kind, ...)               \
    do                                \
    {                                 \
        if (g_quiet)                  \
        {                             \
            g_quiet_count++;          \
            g_printed = false;        \
        }                             \
        else if (++g_kind[kind] <= 3) \
        {                             \
            REPORT(__VA_ARGS__);      \
        }                             \
        else                          \
        {                             \
            g_printed = false;        \
        }                             \
    } while (0)

/* Start a subtest: reset the printed and per-kind counts. */
static void subtest_begin(void)
{
    g_reported = 0;
    memset(g_kind, 0, sizeof(g_kind));
}

/* Print the per-kind failure counts of the subtest, if any. */
static void print_kinds(void)
{
    bool any = false;
    for (int k = 0; k < K_COUNT; ++k)
    {
        if (g_kind[k] != 0)
        {
            printf("%s %s %ld", any ? "," : "    failures by kind:", kind_names[k], g_kind[k]);
            any = true;
        }
    }
    if (any)
    {
        printf("\n");
    }
}

/* The thread pool of the batch tests (two workers), made by the suite. */
static px_thread_pool* g_pool;

/* The ray of the last failure reported (nothing once the reports are only counted). */
static void print_ray(const px_ray* r)
{
    if (!g_printed)
    {
        return;
    }
    fprintf(stderr, "      ray origin (%a, %a, %a) direction (%a, %a, %a) max_t %a\n", (double)r->origin[0],
            (double)r->origin[1], (double)r->origin[2], (double)r->direction[0], (double)r->direction[1],
            (double)r->direction[2], (double)r->max_t);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Generated geometry */

typedef struct geom
{
    float* v;
    int nv;
    int cap_v;
    int32_t* idx;
    int nt;
    int cap_t;
} geom;

static void* xrealloc(void* p, size_t n)
{
    void* q = realloc(p, n > 0 ? n : 1);
    if (q == NULL)
    {
        fprintf(stderr, "test_mesh: out of memory\n");
        abort();
    }
    return q;
}

static int geom_vertex(geom* g, double x, double y, double z)
{
    if (g->nv == g->cap_v)
    {
        g->cap_v = g->cap_v > 0 ? 2 * g->cap_v : 64;
        g->v = xrealloc(g->v, (size_t)g->cap_v * 3 * sizeof(float));
    }
    g->v[3 * g->nv + 0] = (float)x;
    g->v[3 * g->nv + 1] = (float)y;
    g->v[3 * g->nv + 2] = (float)z;
    return g->nv++;
}

static void geom_vertexf(geom* g, const float p[3])
{
    (void)geom_vertex(g, p[0], p[1], p[2]);
}

static void geom_triangle(geom* g, int a, int b, int c)
{
    if (g->nt == g->cap_t)
    {
        g->cap_t = g->cap_t > 0 ? 2 * g->cap_t : 64;
        g->idx = xrealloc(g->idx, (size_t)g->cap_t * 3 * sizeof(int32_t));
    }
    g->idx[3 * g->nt + 0] = a;
    g->idx[3 * g->nt + 1] = b;
    g->idx[3 * g->nt + 2] = c;
    g->nt++;
}

static void geom_free(geom* g)
{
    free(g->v);
    free(g->idx);
    memset(g, 0, sizeof(*g));
}

/* Append b's triangles to a. */
static void geom_append(geom* a, const geom* b)
{
    int base = a->nv;
    for (int i = 0; i < b->nv; ++i)
    {
        geom_vertexf(a, &b->v[3 * i]);
    }
    for (int t = 0; t < b->nt; ++t)
    {
        geom_triangle(a, base + b->idx[3 * t], base + b->idx[3 * t + 1], base + b->idx[3 * t + 2]);
    }
}

/* Turn every triangle so that its normal points away from center (closed convex generators). */
static void geom_orient_outward(geom* g, const double center[3])
{
    for (int t = 0; t < g->nt; ++t)
    {
        int32_t* f = &g->idx[3 * t];
        const float* a = &g->v[3 * f[0]];
        const float* b = &g->v[3 * f[1]];
        const float* c = &g->v[3 * f[2]];
        double e1[3], e2[3], m[3];
        for (int k = 0; k < 3; ++k)
        {
            e1[k] = (double)b[k] - (double)a[k];
            e2[k] = (double)c[k] - (double)a[k];
            m[k] = ((double)a[k] + (double)b[k] + (double)c[k]) / 3.0 - center[k];
        }
        double n[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                        e1[0] * e2[1] - e1[1] * e2[0] };
        if (n[0] * m[0] + n[1] * m[1] + n[2] * m[2] < 0.0)
        {
            int32_t tmp = f[1];
            f[1] = f[2];
            f[2] = tmp;
        }
    }
}

/* Random soup: n triangles of sizes log-uniform in [0.01, 1] size around centers uniform in [lo, hi]. */
static void geom_soup(geom* g, px_rng* r, int n, const double lo[3], const double hi[3], double size)
{
    for (int t = 0; t < n; ++t)
    {
        double c[3], s = size * exp(px_rng_range(r, log(0.01), 0.0));
        for (int k = 0; k < 3; ++k)
        {
            c[k] = px_rng_range(r, lo[k], hi[k]);
        }
        int first = g->nv;
        for (int j = 0; j < 3; ++j)
        {
            (void)geom_vertex(g, c[0] + s * px_rng_range(r, -1.0, 1.0), c[1] + s * px_rng_range(r, -1.0, 1.0),
                              c[2] + s * px_rng_range(r, -1.0, 1.0));
        }
        geom_triangle(g, first, first + 1, first + 2);
    }
}

/* Edge -> midpoint vertex cache of the icosphere subdivision (open addressing). */
typedef struct edge_cache
{
    uint64_t* keys; /* 0 = empty; key = (min + 1) << 32 | (max + 1) */
    int32_t* vals;
    size_t mask;
} edge_cache;

static int32_t edge_midpoint(edge_cache* c, double** unit, int* nu, int* cap_u, int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t key = ((uint64_t)(lo + 1) << 32) | (uint64_t)(hi + 1);
    size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & c->mask;
    while (c->keys[h] != 0 && c->keys[h] != key)
    {
        h = (h + 1) & c->mask;
    }
    if (c->keys[h] == key)
    {
        return c->vals[h];
    }
    if (*nu == *cap_u)
    {
        *cap_u *= 2;
        *unit = xrealloc(*unit, (size_t)*cap_u * 3 * sizeof(double));
    }
    double* u = *unit;
    double m[3] = { u[3 * a] + u[3 * b], u[3 * a + 1] + u[3 * b + 1], u[3 * a + 2] + u[3 * b + 2] };
    double len = sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    for (int k = 0; k < 3; ++k)
    {
        u[3 * *nu + k] = m[k] / len;
    }
    c->keys[h] = key;
    c->vals[h] = *nu;
    return (*nu)++;
}

/* Subdivided icosahedron on the sphere of radius `radius` around off, vertices shared between triangles. */
static void geom_icosphere(geom* g, int levels, double radius, const double off[3])
{
    const double p = (1.0 + sqrt(5.0)) / 2.0;
    const double base[12][3] = { { -1, p, 0 }, { 1, p, 0 }, { -1, -p, 0 }, { 1, -p, 0 },
                                 { 0, -1, p }, { 0, 1, p }, { 0, -1, -p }, { 0, 1, -p },
                                 { p, 0, -1 }, { p, 0, 1 }, { -p, 0, -1 }, { -p, 0, 1 } };
    static const int base_faces[20][3] = { { 0, 11, 5 },  { 0, 5, 1 },  { 0, 1, 7 },  { 0, 7, 10 },
                                           { 0, 10, 11 }, { 1, 5, 9 },  { 5, 11, 4 }, { 11, 10, 2 },
                                           { 10, 7, 6 },  { 7, 1, 8 },  { 3, 9, 4 },  { 3, 4, 2 },
                                           { 3, 2, 6 },   { 3, 6, 8 },  { 3, 8, 9 },  { 4, 9, 5 },
                                           { 2, 4, 11 },  { 6, 2, 10 }, { 8, 6, 7 },  { 9, 8, 1 } };
    int cap_u = 64, nu = 12;
    double* unit = xrealloc(NULL, (size_t)cap_u * 3 * sizeof(double));
    for (int i = 0; i < 12; ++i)
    {
        double len = sqrt(base[i][0] * base[i][0] + base[i][1] * base[i][1] + base[i][2] * base[i][2]);
        for (int k = 0; k < 3; ++k)
        {
            unit[3 * i + k] = base[i][k] / len;
        }
    }
    int nf = 20;
    int* faces = xrealloc(NULL, (size_t)nf * 3 * sizeof(int));
    memcpy(faces, base_faces, sizeof(base_faces));
    for (int level = 0; level < levels; ++level)
    {
        edge_cache c;
        size_t cap = 64;
        while (cap < (size_t)nf * 4)
        {
            cap *= 2;
        }
        c.keys = calloc(cap, sizeof(uint64_t));
        c.vals = calloc(cap, sizeof(int32_t));
        c.mask = cap - 1;
        if (c.keys == NULL || c.vals == NULL)
        {
            abort();
        }
        int* next = xrealloc(NULL, (size_t)nf * 4 * 3 * sizeof(int));
        for (int f = 0; f < nf; ++f)
        {
            int a = faces[3 * f], b = faces[3 * f + 1], d = faces[3 * f + 2];
            int ab = edge_midpoint(&c, &unit, &nu, &cap_u, a, b);
            int bd = edge_midpoint(&c, &unit, &nu, &cap_u, b, d);
            int da = edge_midpoint(&c, &unit, &nu, &cap_u, d, a);
            const int sub[4][3] = { { a, ab, da }, { ab, b, bd }, { da, bd, d }, { ab, bd, da } };
            memcpy(&next[12 * f], sub, sizeof(sub));
        }
        free(c.keys);
        free(c.vals);
        free(faces);
        faces = next;
        nf *= 4;
    }
    int first = g->nv;
    for (int i = 0; i < nu; ++i)
    {
        (void)geom_vertex(g, off[0] + radius * unit[3 * i], off[1] + radius * unit[3 * i + 1],
                          off[2] + radius * unit[3 * i + 2]);
    }
    for (int f = 0; f < nf; ++f)
    {
        geom_triangle(g, first + faces[3 * f], first + faces[3 * f + 1], first + faces[3 * f + 2]);
    }
    free(unit);
    free(faces);
    geom_orient_outward(g, off);
}

/* Height-field terrain: (nx + 1) x (nz + 1) vertices, two triangles per cell, faces up (+y). */
static void geom_terrain(geom* g, int nx, int nz, double cell, const double off[3], uint64_t seed)
{
    px_rng r = px_rng_seeded(seed);
    int first = g->nv;
    for (int j = 0; j <= nz; ++j)
    {
        for (int i = 0; i <= nx; ++i)
        {
            double h = cell * (2.0 * sin(0.3 * i) * cos(0.2 * j) + 0.5 * px_rng_range(&r, -1.0, 1.0));
            (void)geom_vertex(g, off[0] + i * cell, off[1] + h, off[2] + j * cell);
        }
    }
    for (int j = 0; j < nz; ++j)
    {
        for (int i = 0; i < nx; ++i)
        {
            int a = first + j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
            if ((i + j) % 2 != 0)
            {
                geom_triangle(g, a, c, b);
                geom_triangle(g, b, c, d);
            }
            else
            {
                geom_triangle(g, a, c, d);
                geom_triangle(g, a, d, b);
            }
        }
    }
}

/* Closed box [off - half, off + half] whose faces are n x n grids of quads (two triangles each), every
 * grid vertex shared by all the triangles around it, faces outward. */
static void geom_grid_box(geom* g, int n, double half, const double off[3])
{
    int side = n + 1;
    int* map = xrealloc(NULL, (size_t)side * (size_t)side * (size_t)side * sizeof(int));
    for (int i = 0; i < side * side * side; ++i)
    {
        map[i] = -1;
    }
    for (int axis = 0; axis < 3; ++axis)
    {
        int ua = (axis + 1) % 3, va = (axis + 2) % 3;
        for (int s = 0; s < 2; ++s)
        {
            for (int i = 0; i < n; ++i)
            {
                for (int j = 0; j < n; ++j)
                {
                    int q[4];
                    for (int corner = 0; corner < 4; ++corner)
                    {
                        int gc[3];
                        gc[axis] = s * n;
                        gc[ua] = i + (corner == 1 || corner == 2);
                        gc[va] = j + (corner >= 2);
                        int key = (gc[0] * side + gc[1]) * side + gc[2];
                        if (map[key] < 0)
                        {
                            map[key] = geom_vertex(g, off[0] - half + 2.0 * half * gc[0] / n,
                                                   off[1] - half + 2.0 * half * gc[1] / n,
                                                   off[2] - half + 2.0 * half * gc[2] / n);
                        }
                        q[corner] = map[key];
                    }
                    geom_triangle(g, q[0], q[1], q[2]);
                    geom_triangle(g, q[0], q[2], q[3]);
                }
            }
        }
    }
    free(map);
    geom_orient_outward(g, off);
}

static px_mesh* geom_mesh(const geom* g, const px_mesh_def* def)
{
    px_mesh* mesh = NULL;
    px_status s = px_mesh_create(g->v, g->nv, g->idx, g->nt, def, &mesh);
    if (s != PX_OK)
    {
        fprintf(stderr, "    px_mesh_create (%d vertices, %d triangles): %s\n", g->nv, g->nt,
                px_status_string(s));
        return NULL;
    }
    return mesh;
}

/* ---------------------------------------------------------------------------------------------------- */
/* A mesh under test and its flat copy for the brute-force oracles */

typedef struct tmesh
{
    const char* name;
    px_mesh* mesh;
    int nt;
    float* tri;  /* 9 floats per triangle: corners a, b, c */
    float* box;  /* 6 floats per triangle: lo xyz, hi xyz */
    float lo[3]; /* bounds of all triangles */
    float hi[3];
    double center[3];
    double extent; /* diagonal of the bounds */
} tmesh;

static void tmesh_init(tmesh* m, px_mesh* mesh, const char* name)
{
    memset(m, 0, sizeof(*m));
    m->name = name;
    m->mesh = mesh;
    m->nt = px_mesh_triangle_count(mesh);
    m->tri = xrealloc(NULL, (size_t)m->nt * 9 * sizeof(float));
    m->box = xrealloc(NULL, (size_t)m->nt * 6 * sizeof(float));
    const float* v = px_mesh_vertices(mesh);
    const int32_t* idx = px_mesh_indices(mesh);
    for (int k = 0; k < 3; ++k)
    {
        m->lo[k] = INFINITY;
        m->hi[k] = -INFINITY;
    }
    for (int t = 0; t < m->nt; ++t)
    {
        for (int c = 0; c < 3; ++c)
        {
            memcpy(&m->tri[9 * t + 3 * c], &v[3 * idx[3 * t + c]], 3 * sizeof(float));
        }
        for (int k = 0; k < 3; ++k)
        {
            float a = m->tri[9 * t + k], b = m->tri[9 * t + 3 + k], c = m->tri[9 * t + 6 + k];
            float lo = fminf(a, fminf(b, c)), hi = fmaxf(a, fmaxf(b, c));
            m->box[6 * t + k] = lo;
            m->box[6 * t + 3 + k] = hi;
            m->lo[k] = fminf(m->lo[k], lo);
            m->hi[k] = fmaxf(m->hi[k], hi);
        }
    }
    double e2 = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        m->center[k] = m->nt > 0 ? 0.5 * (double)m->lo[k] + 0.5 * (double)m->hi[k] : 0.0;
        double d = m->nt > 0 ? (double)m->hi[k] - (double)m->lo[k] : 0.0;
        e2 += d * d;
    }
    m->extent = sqrt(e2);
}

static void tmesh_free(tmesh* m)
{
    px_mesh_destroy(m->mesh);
    free(m->tri);
    free(m->box);
    memset(m, 0, sizeof(*m));
}

static const float* tri_corner(const tmesh* m, int t, int c)
{
    return &m->tri[9 * t + 3 * c];
}

/* Long-double normal of triangle t (not normalized). */
static void tri_normal_ld(const tmesh* m, int t, ldv3 n)
{
    ldv3 a, b, c, e1, e2;
    ldv_from_f(tri_corner(m, t, 0), a);
    ldv_from_f(tri_corner(m, t, 1), b);
    ldv_from_f(tri_corner(m, t, 2), c);
    ldv_sub(b, a, e1);
    ldv_sub(c, a, e2);
    ldv_cross(e1, e2, n);
}

/* Largest extent of triangle t's box. */
static double tri_size(const tmesh* m, int t)
{
    double s = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        s = fmax(s, (double)m->box[6 * t + 3 + k] - (double)m->box[6 * t + k]);
    }
    return s;
}

/* Largest |coordinate| of triangle t. */
static double tri_coord(const tmesh* m, int t)
{
    double c = 0.0;
    for (int i = 0; i < 9; ++i)
    {
        c = fmax(c, fabs((double)m->tri[9 * t + i]));
    }
    return c;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Ray oracles */

typedef struct bf_hit
{
    bool hit;
    float t, u, v;
    int32_t tri;
} bf_hit;

/* px_ray_triangle_watertight over every triangle: lowest t, lowest index among equal t. */
static bf_hit bf_ray(const tmesh* m, const px_ray* ray, px_triangle_sides sides)
{
    bf_hit h = { false, 0.0f, 0.0f, 0.0f, PX_NULL_INDEX };
    for (int i = 0; i < m->nt; ++i)
    {
        float t, u, v;
        if (px_ray_triangle_watertight(ray, tri_corner(m, i, 0), tri_corner(m, i, 1), tri_corner(m, i, 2),
                                       sides, &t, &u, &v) &&
            (!h.hit || t < h.t))
        {
            h.hit = true;
            h.t = t;
            h.u = u;
            h.v = v;
            h.tri = i;
        }
    }
    return h;
}

/* What the long-double Moller-Trumbore pass concluded about a ray. */
typedef enum ld_verdict
{
    LD_AMBIGUOUS = 0, /* a candidate too near an edge, the origin, max_t or another candidate */
    LD_HIT = 1,       /* one clear nearest hit */
    LD_MISS = 2,      /* no triangle anywhere near the ray */
} ld_verdict;

typedef struct ld_result
{
    ld_verdict verdict;
    int32_t tri;
    ld t;
    ld tol; /* tolerance on t for the float kernel */
} ld_result;

/* Whether the ray segment [0, far_t] passes through triangle t's box grown by the triangle's size (a cheap
 * filter for the long-double pass: a triangle it rejects is neither a candidate nor grazed). */
static bool ray_near_box(const tmesh* m, int t, const px_ray* ray, double far_t)
{
    double size = tri_size(m, t), t0 = 0.0, t1 = far_t;
    for (int k = 0; k < 3; ++k)
    {
        double o = (double)ray->origin[k], d = (double)ray->direction[k];
        double lo = (double)m->box[6 * t + k], hi = (double)m->box[6 * t + 3 + k];
        double grow = size + 1e-12 * (fabs(o) + fabs(lo) + fabs(hi));
        lo -= grow;
        hi += grow;
        if (d == 0.0)
        {
            if (o < lo || o > hi)
            {
                return false;
            }
            continue;
        }
        double ta = (lo - o) / d, tb = (hi - o) / d;
        t0 = fmax(t0, fmin(ta, tb));
        t1 = fmin(t1, fmax(ta, tb));
    }
    return t0 <= t1;
}

/* Long-double Moller-Trumbore over all triangles. A triangle is a candidate when its barycentric
 * coordinates are all >= -margin and t is in [-tol, max_t + tol]; margin and tol bound the float kernel's
 * error: it works on coordinates relative to the ray origin (error about FLT_EPSILON times the distance L
 * to the triangle), so its barycentric error is about FLT_EPSILON L / (altitude cos), where cos is the
 * cosine between the ray and the normal. The verdict is a hit when the nearest candidate is inside by
 * more than its margin with every other candidate clearly beyond it, a miss when there is no candidate. */
static ld_result ld_ray(const tmesh* m, const px_ray* ray)
{
    ld_result res = { LD_MISS, PX_NULL_INDEX, 0.0L, 0.0L };
    ldv3 o, d;
    ldv_from_f(ray->origin, o);
    ldv_from_f(ray->direction, d);
    ld dn = ldv_norm(d);
    ld max_t = (ld)ray->max_t;
    ld best_t = INFINITY, best_tol = 0.0L, second_lo = INFINITY;
    int32_t best = PX_NULL_INDEX;
    bool best_clear = false;
    const ld eps = (ld)FLT_EPSILON;
    double far_t = isinf(ray->max_t) ? INFINITY : (double)ray->max_t * (1.0 + 1e-6);
    for (int i = 0; i < m->nt; ++i)
    {
        if (!ray_near_box(m, i, ray, far_t))
        {
            continue;
        }
        ldv3 a, b, c, e1, e2, p, s, q, n;
        ldv_from_f(tri_corner(m, i, 0), a);
        ldv_from_f(tri_corner(m, i, 1), b);
        ldv_from_f(tri_corner(m, i, 2), c);
        ldv_sub(b, a, e1);
        ldv_sub(c, a, e2);
        ldv_cross(e1, e2, n);
        ld area2 = ldv_norm(n);
        if (area2 == 0.0L)
        {
            continue; /* degenerate: never hit */
        }
        ld l1 = ldv_norm(e1), l2 = ldv_norm(e2);
        ldv3 e3;
        ldv_sub(c, b, e3);
        ld l3 = ldv_norm(e3);
        ld longest = fmaxl(l1, fmaxl(l2, l3));
        ld altitude = area2 / longest;
        ld cosine = fabsl(ldv_dot(n, d)) / (area2 * dn);
        ldv3 oa, ob, oc;
        ldv_sub(a, o, oa);
        ldv_sub(b, o, ob);
        ldv_sub(c, o, oc);
        ld dist = fmaxl(ldv_norm(oa), fmaxl(ldv_norm(ob), ldv_norm(oc)));
        ldv_cross(d, e2, p);
        ld det = ldv_dot(p, e1);
        if (cosine < 1e-3L)
        {
            /* grazing or in the plane: the float kernel's answer is not predictable here. Ambiguous if
             * the ray passes anywhere near the triangle (within its size, by the segment-line distance
             * to each edge), else ignored. */
            ld near = 0.0L;
            for (int e = 0; e < 3 && near == 0.0L; ++e)
            {
                ldv3 pa, pb, qa, qb;
                const ld* x = e == 0 ? a : (e == 1 ? b : c);
                const ld* y = e == 0 ? b : (e == 1 ? c : a);
                ldv_copy(o, pa);
                ldv_mad(o, 2.0L * (dist + longest) / dn, d, pb);
                ld d2 = ld_segment_segment(pa, pb, x, y, qa, qb);
                if (d2 <= longest * longest)
                {
                    near = 1.0L;
                }
            }
            if (near != 0.0L)
            {
                res.verdict = LD_AMBIGUOUS;
                return res;
            }
            continue;
        }
        ld inv = 1.0L / det;
        ldv_sub(o, a, s);
        ld u = ldv_dot(p, s) * inv;
        ldv_cross(s, e1, q);
        ld v = ldv_dot(q, d) * inv;
        ld t = ldv_dot(q, e2) * inv;
        ld w = 1.0L - u - v;
        ld margin = 1e-4L + 1024.0L * eps * dist / (altitude * cosine);
        ld tol = 1e-6L * fabsl(t) + 256.0L * eps * dist / (cosine * dn);
        ld lowest = fminl(u, fminl(v, w));
        if (lowest < -margin || t < -tol || t > max_t + tol)
        {
            continue;
        }
        bool clear = lowest > margin && t > tol && t < max_t - tol;
        if (t < best_t)
        {
            second_lo = fminl(second_lo, best_t - best_tol);
            best_t = t;
            best_tol = tol;
            best = i;
            best_clear = clear;
        }
        else
        {
            second_lo = fminl(second_lo, t - tol);
        }
    }
    if (best == PX_NULL_INDEX)
    {
        return res;
    }
    if (best_clear && second_lo > best_t + best_tol)
    {
        res.verdict = LD_HIT;
        res.tri = best;
        res.t = best_t;
        res.tol = best_tol;
        return res;
    }
    res.verdict = LD_AMBIGUOUS;
    return res;
}

/* Tallies of one mesh's ray checks. */
typedef struct ray_tally
{
    long rays;
    long hits;
    long front_hits;
    long ld_hits;      /* rays the long-double pass settled as a hit */
    long ld_misses;    /* ... as a miss */
    long ld_disagree;  /* ... where the BVH said otherwise */
    double max_ld_rel; /* largest |t - t*| / tol seen */
    long failures;
} ray_tally;

/* Check one BVH result against brute force (same hit, triangle and t) and against the contract (hit
 * point, unit normal facing the ray, barycentrics, side). */
/* Whether the BVH's hit h on another triangle than brute force's b is a tie within the kernel's accuracy.
 * The kernel's t on a triangle errs by up to T_K eps cond_t relative, cond_t = (1 + farthest vertex from the
 * origin / hit distance) / (shape |cos incidence|) (test_ray_triangle measures at most 0.64 eps cond_t; T_K =
 * 4 there too). The BVH prunes a box whose entry distance, which is exact to a few roundings and at most the
 * exact t of any hit inside, lies beyond its best float t. So it may keep a hit whose float t exceeds
 * brute force's minimum, when that minimum came out below its exact value by rounding: at most
 * T_K eps cond_t(b) + 4 eps relative beyond it. (rob.obj at PX_TEST_SEED=7: a ray through the edge two
 * triangles share in the plane z = 75, hit distance 1.49 and vertices up to 667 away, cond_t about 7e3: the
 * kernel gave 0x1.6789d4p+0 on one triangle and 0x1.678a18p+0 on the other, 31 and 7 ulps below the exact
 * 0x1.678a2cp+0; the box entry at the exact t pruned the first.) The BVH's own hit must be the kernel's
 * answer on its triangle, bit for bit. */
static bool kernel_t_tie(const tmesh* m, const px_ray* ray, px_triangle_sides sides, const px_ray_hit* h,
                         const bf_hit* b)
{
    if (h->triangle < 0 || h->triangle >= m->nt || !(h->t >= b->t))
    {
        return false;
    }
    float t, u, v;
    if (!px_ray_triangle_watertight(ray, tri_corner(m, h->triangle, 0), tri_corner(m, h->triangle, 1),
                                    tri_corner(m, h->triangle, 2), sides, &t, &u, &v) ||
        t != h->t)
    {
        return false;
    }
    ldv3 o, d, n, p, e;
    ldv_from_f(ray->origin, o);
    ldv_from_f(ray->direction, d);
    tri_normal_ld(m, b->tri, n);
    long double far_o = 0.0L, longest = 0.0L;
    for (int c = 0; c < 3; ++c)
    {
        ldv_from_f(tri_corner(m, b->tri, c), p);
        ldv_sub(p, o, e);
        far_o = fmaxl(far_o, ldv_norm(e));
        ldv3 q;
        ldv_from_f(tri_corner(m, b->tri, (c + 1) % 3), q);
        ldv_sub(q, p, e);
        longest = fmaxl(longest, ldv_norm(e));
    }
    long double nn = ldv_norm(n), dn = ldv_norm(d), hd = (long double)b->t * dn;
    if (!(nn > 0.0L && dn > 0.0L && hd > 0.0L))
    {
        return false;
    }
    long double shape = nn / (longest * longest), cosi = fabsl(ldv_dot(n, d)) / (nn * dn);
    long double cond_t = (1.0L + far_o / hd) / (shape * cosi);
    long double eps = (long double)FLT_EPSILON;
    return (long double)h->t - (long double)b->t <= (4.0L * eps * cond_t + 4.0L * eps) * (long double)b->t;
}

static int compare_hit(const tmesh* m, const px_ray* ray, px_triangle_sides sides, px_status s,
                       const px_ray_hit* h, const bf_hit* b, const char* what)
{
    if (s != PX_OK)
    {
        FAIL(K_STATUS, "%s %s: status %s", m->name, what, px_status_string(s));
        print_ray(ray);
        return 1;
    }
    if (h->hit != b->hit)
    {
        FAIL(K_RAY_HIT, "%s %s: BVH hit %d (triangle %d, t %a), brute force hit %d (triangle %d, t %a)",
             m->name, what, (int)h->hit, (int)h->triangle, (double)h->t, (int)b->hit, (int)b->tri,
             (double)b->t);
        print_ray(ray);
        return 1;
    }
    if (!h->hit)
    {
        if (h->triangle != PX_NULL_INDEX || h->t != 0.0f)
        {
            FAIL(K_RAY_CONTRACT, "%s %s: a miss with triangle %d, t %g (should be cleared)", m->name, what,
                 (int)h->triangle, (double)h->t);
            return 1;
        }
        return 0;
    }
    if ((h->triangle != b->tri || !(fabsf(h->t - b->t) <= 1e-6f * fabsf(b->t))) && !kernel_t_tie(m, ray, sides, h, b))
    {
        /* the same t on another triangle: the lowest-index rule for ties (mesh.h) */
        FAIL(h->t == b->t ? K_RAY_TIE : K_RAY_TRI,
             "%s %s: BVH triangle %d t %a, brute force triangle %d t %a", m->name, what, (int)h->triangle,
             (double)h->t, (int)b->tri, (double)b->t);
        print_ray(ray);
        return 1;
    }
    if (!(h->t >= 0.0f && h->t <= ray->max_t) ||
        !(h->u >= 0.0f && h->v >= 0.0f && h->u + h->v <= 1.0f + 1e-6f))
    {
        FAIL(K_RAY_CONTRACT, "%s %s: t %g (max_t %g), u %g, v %g out of range", m->name, what, (double)h->t,
             (double)ray->max_t, (double)h->u, (double)h->v);
        return 1;
    }
    double scale = 0.0, err = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        double want = (double)ray->origin[k] + (double)h->t * (double)ray->direction[k];
        err = fmax(err, fabs((double)h->point[k] - want));
        scale = fmax(scale, fabs((double)ray->origin[k]) + fabs((double)h->t * (double)ray->direction[k]));
    }
    if (!(err <= 4.0 * FLT_EPSILON * scale))
    {
        FAIL(K_RAY_CONTRACT, "%s %s: hit point off origin + t direction by %g (scale %g)", m->name, what, err,
             scale);
        return 1;
    }
    ldv3 n, d;
    tri_normal_ld(m, h->triangle, n);
    ldv_from_f(ray->direction, d);
    double nlen = sqrt((double)h->normal[0] * h->normal[0] + (double)h->normal[1] * h->normal[1] +
                       (double)h->normal[2] * h->normal[2]);
    ld along = ((ld)h->normal[0] * n[0] + (ld)h->normal[1] * n[1] + (ld)h->normal[2] * n[2]) / ldv_norm(n);
    ld facing = (ld)h->normal[0] * d[0] + (ld)h->normal[1] * d[1] + (ld)h->normal[2] * d[2];
    if (!(fabs(nlen - 1.0) <= 1e-5) || !(fabsl(along) >= 1.0L - 1e-5L) || !(facing <= 0.0L))
    {
        FAIL(K_RAY_CONTRACT,
             "%s %s: normal (%g, %g, %g): length %g, |cos| to the triangle normal %g, dot with direction %g",
             m->name, what, (double)h->normal[0], (double)h->normal[1], (double)h->normal[2], nlen,
             (double)fabsl(along), (double)facing);
        return 1;
    }
    if (sides == PX_TRIANGLE_FRONT_ONLY && ldv_dot(n, d) > 0.0L)
    {
        FAIL(K_RAY_CONTRACT, "%s %s: front-only cast hit triangle %d from behind", m->name, what,
             (int)h->triangle);
        return 1;
    }
    return 0;
}

/* How the long-double oracle is used: not at all, asserted, or only counted (at scales where the float
 * kernel's range is the limit, not the BVH). */
enum
{
    LD_OFF = 0,
    LD_ASSERT = 1,
    LD_COUNT = 2
};

/* Every ray query on one ray, against the oracles. */
static int check_ray(const tmesh* m, const px_ray* ray, int ld_mode, ray_tally* tally)
{
    int fails = 0;
    tally->rays++;
    px_ray_hit h;
    px_status s = px_mesh_ray_cast(m->mesh, ray, &h);
    bf_hit b = bf_ray(m, ray, PX_TRIANGLE_BOTH_SIDES);
    fails += compare_hit(m, ray, PX_TRIANGLE_BOTH_SIDES, s, &h, &b, "ray_cast");
    tally->hits += b.hit;

    px_ray_hit hb;
    s = px_mesh_ray_cast_sided(m->mesh, ray, PX_TRIANGLE_BOTH_SIDES, &hb);
    if (s != PX_OK || memcmp(&hb.t, &h.t, sizeof(float)) != 0 || hb.hit != h.hit || hb.triangle != h.triangle)
    {
        FAIL(K_RAY_TRI, "%s: ray_cast_sided(BOTH_SIDES) differs from ray_cast", m->name);
        fails++;
    }

    px_ray_hit hf;
    s = px_mesh_ray_cast_sided(m->mesh, ray, PX_TRIANGLE_FRONT_ONLY, &hf);
    bf_hit bfront = bf_ray(m, ray, PX_TRIANGLE_FRONT_ONLY);
    fails += compare_hit(m, ray, PX_TRIANGLE_FRONT_ONLY, s, &hf, &bfront, "ray_cast_sided(FRONT_ONLY)");
    tally->front_hits += bfront.hit;

    bool any = !b.hit;
    s = px_mesh_ray_cast_any(m->mesh, ray, &any);
    if (s != PX_OK || any != b.hit)
    {
        FAIL(K_RAY_HIT, "%s: ray_cast_any %d (status %s), brute force hit %d", m->name, (int)any,
             px_status_string(s), (int)b.hit);
        print_ray(ray);
        fails++;
    }

    if (ld_mode != LD_OFF)
    {
        ld_result o = ld_ray(m, ray);
        if (o.verdict == LD_HIT)
        {
            tally->ld_hits++;
            ld err = h.hit ? fabsl((ld)h.t - o.t) : INFINITY;
            if (!h.hit || h.triangle != o.tri || !(err <= o.tol))
            {
                tally->ld_disagree++;
                if (ld_mode == LD_COUNT)
                {
                    tally->failures += fails;
                    return fails;
                }
                FAIL(K_RAY_LD,
                     "%s: long-double oracle: clear hit on triangle %d at t %.12Lg (tol %.3Lg); BVH hit %d "
                     "triangle "
                     "%d t %.9g",
                     m->name, (int)o.tri, o.t, o.tol, (int)h.hit, (int)h.triangle, (double)h.t);
                print_ray(ray);
                fails++;
            }
            else if (o.tol > 0.0L)
            {
                tally->max_ld_rel = fmax(tally->max_ld_rel, (double)(err / o.tol));
            }
        }
        else if (o.verdict == LD_MISS)
        {
            tally->ld_misses++;
            if (h.hit && ld_mode == LD_COUNT)
            {
                tally->ld_disagree++;
            }
            else if (h.hit)
            {
                tally->ld_disagree++;
                FAIL(K_RAY_LD, "%s: long-double oracle: clear miss; BVH hit triangle %d at t %.9g", m->name,
                     (int)h.triangle, (double)h.t);
                print_ray(ray);
                fails++;
            }
        }
    }
    tally->failures += fails;
    return fails;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Ray and point generators */

enum
{
    RK_INSIDE,      /* origin in the bounds, random direction */
    RK_TOWARD,      /* origin outside, toward a point in the bounds */
    RK_OUTSIDE,     /* origin outside, random direction */
    RK_ON_TRIANGLE, /* origin on a triangle, random direction */
    RK_AT_TRIANGLE, /* toward a point of a random triangle from a few triangle sizes away */
    RK_COUNT,
    RK_AXIS = RK_COUNT /* zero direction components, origin on triangle slab planes (separate pass) */
};

static void random_unit_f(px_rng* r, float d[3])
{
    double u[3];
    px_rng_unit_vector(r, u);
    for (int k = 0; k < 3; ++k)
    {
        d[k] = (float)u[k];
    }
    if (d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f)
    {
        d[0] = 1.0f;
    }
}

static void random_point_on_triangle(const tmesh* m, px_rng* r, int t, float p[3])
{
    float u = (float)px_rng_unit(r), v = (float)px_rng_unit(r);
    if (u + v > 1.0f)
    {
        u = 1.0f - u;
        v = 1.0f - v;
    }
    const float* a = tri_corner(m, t, 0);
    const float* b = tri_corner(m, t, 1);
    const float* c = tri_corner(m, t, 2);
    for (int k = 0; k < 3; ++k)
    {
        p[k] = a[k] + u * (b[k] - a[k]) + v * (c[k] - a[k]);
    }
}

static bool finite3(const float v[3])
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static void gen_ray(const tmesh* m, px_rng* r, int kind, px_ray* ray)
{
    double E = m->extent > 0.0 ? m->extent : 1.0;
    for (int attempt = 0;; ++attempt)
    {
        float u[3];
        random_unit_f(r, u);
        int t = m->nt > 0 ? px_rng_int(r, m->nt) : 0;
        switch (kind)
        {
        case RK_INSIDE:
            for (int k = 0; k < 3; ++k)
            {
                ray->origin[k] = (float)px_rng_range(r, (double)m->lo[k], (double)m->hi[k]);
            }
            random_unit_f(r, ray->direction);
            break;
        case RK_TOWARD:
        case RK_OUTSIDE:
            for (int k = 0; k < 3; ++k)
            {
                ray->origin[k] = (float)(m->center[k] + 0.8 * E * (double)u[k]);
            }
            if (kind == RK_OUTSIDE)
            {
                random_unit_f(r, ray->direction);
            }
            else
            {
                for (int k = 0; k < 3; ++k)
                {
                    double target = px_rng_range(r, (double)m->lo[k], (double)m->hi[k]);
                    ray->direction[k] = (float)(target - (double)ray->origin[k]);
                }
            }
            break;
        case RK_ON_TRIANGLE:
            random_point_on_triangle(m, r, t, ray->origin);
            random_unit_f(r, ray->direction);
            break;
        default: /* RK_AT_TRIANGLE */
        {
            float p[3];
            random_point_on_triangle(m, r, t, p);
            double dist = fmax(tri_size(m, t), 1e-30) * px_rng_range(r, 0.5, 20.0);
            for (int k = 0; k < 3; ++k)
            {
                ray->origin[k] = (float)((double)p[k] - dist * (double)u[k]);
                ray->direction[k] = (float)((double)p[k] - (double)ray->origin[k]);
            }
            break;
        }
        }
        /* a unit direction scaled by a power of two: inside the range px_ray_triangle_watertight takes as
         * given, so the brute force runs the BVH's kernel bit for bit (direction_scales tests the rest) */
        double len = sqrt((double)ray->direction[0] * ray->direction[0] +
                          (double)ray->direction[1] * ray->direction[1] +
                          (double)ray->direction[2] * ray->direction[2]);
        if (len > 0.0 && isfinite(len))
        {
            for (int k = 0; k < 3; ++k)
            {
                ray->direction[k] = (float)((double)ray->direction[k] / len);
            }
        }
        float scale = ldexpf(1.0f, px_rng_int(r, 17) - 8);
        bool nonzero = false;
        for (int k = 0; k < 3; ++k)
        {
            ray->direction[k] *= scale;
            nonzero = nonzero || ray->direction[k] != 0.0f;
        }
        double dlen = sqrt((double)ray->direction[0] * ray->direction[0] +
                           (double)ray->direction[1] * ray->direction[1] +
                           (double)ray->direction[2] * ray->direction[2]);
        int choice = px_rng_int(r, 10);
        ray->max_t = choice < 5   ? INFINITY
                     : choice < 9 ? (float)(px_rng_range(r, 0.0, 2.0 * E) / fmax(dlen, 1e-300))
                                  : 0.0f;
        if ((finite3(ray->origin) && finite3(ray->direction) && nonzero && !isnan(ray->max_t)) ||
            attempt > 20)
        {
            return;
        }
    }
}

/* Axis-aligned rays: one or two zero direction components, the origin's coordinates on those axes taken
 * from triangle corners or the mesh bounds, so that the origin lies exactly on box slab planes and the
 * slab test meets 0 * inf. */
static void gen_axis_ray(const tmesh* m, px_rng* r, px_ray* ray)
{
    double E = m->extent > 0.0 ? m->extent : 1.0;
    int t = m->nt > 0 ? px_rng_int(r, m->nt) : 0;
    int axis = px_rng_int(r, 3);
    int zeros = 1 + px_rng_int(r, 2); /* 2: the direction is a coordinate axis */
    float p[3];
    int pick = px_rng_int(r, 4);
    if (pick == 0 && m->nt > 0)
    {
        random_point_on_triangle(m, r, t, p);
    }
    else if (pick == 1 && m->nt > 0)
    {
        memcpy(p, tri_corner(m, t, px_rng_int(r, 3)), sizeof(p));
    }
    else
    {
        for (int k = 0; k < 3; ++k)
        {
            int src = px_rng_int(r, 4);
            p[k] = src == 0 ? m->lo[k]
                            : (src == 1 ? m->hi[k] : (m->nt > 0 ? tri_corner(m, t, src - 2)[k] : 0.0f));
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        ray->origin[k] = p[k];
        ray->direction[k] = 0.0f;
    }
    float sign = px_rng_int(r, 2) ? 1.0f : -1.0f;
    ray->direction[axis] = px_rng_int(r, 3) == 0 ? sign * -0.0f : sign;
    if (ray->direction[axis] == 0.0f)
    {
        ray->direction[axis] = sign;
    }
    if (zeros == 1)
    {
        int other = (axis + 1 + px_rng_int(r, 2)) % 3;
        ray->direction[other] = (float)px_rng_range(r, -1.0, 1.0);
    }
    /* start outside along the moving axes half the time; keep -0.0 components to test their sign bit */
    if (px_rng_int(r, 2) == 0)
    {
        for (int k = 0; k < 3; ++k)
        {
            if (ray->direction[k] != 0.0f)
            {
                ray->origin[k] =
                    (float)((double)p[k] - 0.7 * E * (double)(ray->direction[k] > 0.0f ? 1 : -1));
            }
        }
    }
    int kz = px_rng_int(r, 3);
    if (px_rng_int(r, 3) == 0 && ray->direction[kz] == 0.0f)
    {
        ray->direction[kz] = -0.0f;
    }
    ray->max_t = px_rng_int(r, 2) ? INFINITY : (float)(2.0 * E);
}

/* Camera rays: a pinhole camera outside the bounds looking at the center, w x h pixels. */
static void gen_camera_ray(const tmesh* m, int px, int py, int w, int h, px_ray* ray)
{
    double E = m->extent > 0.0 ? m->extent : 1.0;
    double eye[3] = { m->center[0] + 0.55 * E, m->center[1] + 0.35 * E, m->center[2] + 0.75 * E };
    double f[3], up[3] = { 0.0, 1.0, 0.0 }, right[3], u[3];
    for (int k = 0; k < 3; ++k)
    {
        f[k] = m->center[k] - eye[k];
    }
    double fl = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int k = 0; k < 3; ++k)
    {
        f[k] /= fl;
    }
    right[0] = f[1] * up[2] - f[2] * up[1];
    right[1] = f[2] * up[0] - f[0] * up[2];
    right[2] = f[0] * up[1] - f[1] * up[0];
    double rl = sqrt(right[0] * right[0] + right[1] * right[1] + right[2] * right[2]);
    for (int k = 0; k < 3; ++k)
    {
        right[k] /= rl;
    }
    u[0] = right[1] * f[2] - right[2] * f[1];
    u[1] = right[2] * f[0] - right[0] * f[2];
    u[2] = right[0] * f[1] - right[1] * f[0];
    double sx = (2.0 * (px + 0.5) / w - 1.0) * 0.6, sy = (1.0 - 2.0 * (py + 0.5) / h) * 0.6 * h / w;
    for (int k = 0; k < 3; ++k)
    {
        ray->origin[k] = (float)eye[k];
        ray->direction[k] = (float)(f[k] + sx * right[k] + sy * u[k]);
    }
    ray->max_t = INFINITY;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Closest-point oracle */

typedef struct point_tally
{
    long points;
    long found;
    long ties;      /* BVH picked another triangle at the same distance */
    double max_err; /* largest |d - d*| / tol */
    long failures;
} point_tally;

static ld ld_triangle_distance(const tmesh* m, int t, const float p[3], ldv3 out)
{
    ldv3 lp, a, b, c;
    ldv_from_f(p, lp);
    ldv_from_f(tri_corner(m, t, 0), a);
    ldv_from_f(tri_corner(m, t, 1), b);
    ldv_from_f(tri_corner(m, t, 2), c);
    return sqrtl(ld_closest_triangle(lp, a, b, c, out));
}

static int check_point(const tmesh* m, const float p[3], float max_distance, point_tally* tally)
{
    tally->points++;
    px_point_result r;
    memset(&r, 0x5a, sizeof(r));
    px_status s = px_mesh_closest_point(m->mesh, p, max_distance, &r);
    ld dmin = INFINITY;
    int best = PX_NULL_INDEX;
    for (int t = 0; t < m->nt; ++t)
    {
        /* skip triangles whose box is clearly farther than the best so far */
        ld box2 = 0.0L;
        for (int k = 0; k < 3; ++k)
        {
            ld gap = fmaxl((ld)m->box[6 * t + k] - (ld)p[k], (ld)p[k] - (ld)m->box[6 * t + 3 + k]);
            box2 += gap > 0.0L ? gap * gap : 0.0L;
        }
        if (sqrtl(box2) > dmin * (1.0L + 1e-9L))
        {
            continue;
        }
        ldv3 q;
        ld d = ld_triangle_distance(m, t, p, q);
        if (d < dmin)
        {
            dmin = d;
            best = t;
        }
    }
    double C = fmax(fabs((double)p[0]), fmax(fabs((double)p[1]), fabs((double)p[2])));
    if (best >= 0)
    {
        C = fmax(C, tri_coord(m, best));
    }
    ld tol = 1e-6L * dmin + 32.0L * (ld)FLT_EPSILON * (ld)C;
    int fails = 0;
    if (s != PX_OK)
    {
        FAIL(K_STATUS, "%s closest_point (%a, %a, %a) max %g: status %s", m->name, (double)p[0], (double)p[1],
             (double)p[2], (double)max_distance, px_status_string(s));
        tally->failures++;
        return 1;
    }
    bool must_find = best >= 0 && dmin < (ld)max_distance - tol;
    bool must_not = best < 0 || dmin > (ld)max_distance + tol;
    if ((must_find && !r.found) || (must_not && r.found))
    {
        FAIL(K_POINT_FOUND,
             "%s closest_point (%a, %a, %a) max %a: found %d, brute force distance %.9Lg (triangle %d)",
             m->name, (double)p[0], (double)p[1], (double)p[2], (double)max_distance, (int)r.found, dmin,
             best);
        fails++;
    }
    if (!r.found)
    {
        if (r.triangle != PX_NULL_INDEX || r.distance != 0.0f || r.point[0] != 0.0f || r.normal[0] != 0.0f)
        {
            FAIL(K_POINT_CONTRACT, "%s closest_point: not found but the result is not cleared (triangle %d)",
                 m->name, (int)r.triangle);
            fails++;
        }
        tally->failures += fails;
        return fails;
    }
    tally->found++;
    if (r.triangle < 0 || r.triangle >= m->nt)
    {
        FAIL(K_POINT_CONTRACT, "%s closest_point: triangle %d out of range", m->name, (int)r.triangle);
        tally->failures++;
        return 1;
    }
    ldv3 q;
    ld dr = ld_triangle_distance(m, r.triangle, p, q);
    ld err = fabsl((ld)r.distance - dmin);
    if (!(err <= tol) || !(r.distance <= max_distance * (1.0f + 1e-6f)))
    {
        FAIL(
            K_POINT_DISTANCE,
            "%s closest_point (%a, %a, %a) max %g: distance %.9g, brute force %.9Lg (error %.3Lg, tol %.3Lg)",
            m->name, (double)p[0], (double)p[1], (double)p[2], (double)max_distance, (double)r.distance, dmin,
            err, tol);
        fails++;
    }
    else if (tol > 0.0L)
    {
        tally->max_err = fmax(tally->max_err, (double)(err / tol));
    }
    if (r.triangle != best)
    {
        if (dr <= dmin + tol)
        {
            tally->ties++;
        }
        else
        {
            FAIL(K_POINT_TRI, "%s closest_point: triangle %d at %.9Lg, brute force triangle %d at %.9Lg",
                 m->name, (int)r.triangle, dr, best, dmin);
            fails++;
        }
    }
    /* the point is on the triangle and at the reported distance */
    ldv3 on;
    ld off_tri = ld_triangle_distance(m, r.triangle, r.point, on);
    ldv3 lp, lq;
    ldv_from_f(p, lp);
    ldv_from_f(r.point, lq);
    ld dpq = sqrtl(ldv_dist2(lp, lq));
    if (!(off_tri <= 32.0L * (ld)FLT_EPSILON * (ld)C) || !(fabsl(dpq - (ld)r.distance) <= tol))
    {
        FAIL(K_POINT_CONTRACT,
             "%s closest_point: point %.3Lg off its triangle, %.9Lg from the query (distance %.9g)", m->name,
             off_tri, dpq, (double)r.distance);
        fails++;
    }
    /* normal: unit, along the triangle's normal, facing the query point; zero for a degenerate triangle */
    ldv3 n;
    tri_normal_ld(m, r.triangle, n);
    ld nn = ldv_norm(n);
    ld len =
        sqrtl((ld)r.normal[0] * r.normal[0] + (ld)r.normal[1] * r.normal[1] + (ld)r.normal[2] * r.normal[2]);
    if (nn == 0.0L)
    {
        if (len != 0.0L)
        {
            FAIL(K_POINT_CONTRACT, "%s closest_point: degenerate triangle %d with a nonzero normal", m->name,
                 (int)r.triangle);
            fails++;
        }
    }
    else
    {
        ldv3 rn, pq;
        ldv_from_f(r.normal, rn);
        ldv_sub(lp, lq, pq);
        ld along = ldv_dot(rn, n) / nn;
        ld side = ldv_dot(rn, pq);
        ld plane_off = fabsl(ldv_dot(n, pq)) / nn;
        if (!(fabsl(len - 1.0L) <= 1e-5L) || !(fabsl(along) >= 1.0L - 1e-5L) ||
            (plane_off > tol && !(side > 0.0L)))
        {
            FAIL(K_POINT_CONTRACT,
                 "%s closest_point: normal (%g, %g, %g), length %.9Lg, |cos| %.9Lg, side %.3Lg (off plane "
                 "%.3Lg)",
                 m->name, (double)r.normal[0], (double)r.normal[1], (double)r.normal[2], len, fabsl(along),
                 side, plane_off);
            fails++;
        }
    }
    tally->failures += fails;
    return fails;
}

static void gen_point(const tmesh* m, px_rng* r, float p[3], float* max_distance)
{
    double E = m->extent > 0.0 ? m->extent : 1.0;
    int kind = px_rng_int(r, 5);
    int t = m->nt > 0 ? px_rng_int(r, m->nt) : 0;
    float u[3];
    random_unit_f(r, u);
    for (int attempt = 0; attempt < 20; ++attempt)
    {
        if (kind == 0 || m->nt == 0)
        {
            for (int k = 0; k < 3; ++k)
            {
                p[k] = (float)px_rng_range(r, (double)m->lo[k], (double)m->hi[k]);
            }
        }
        else if (kind == 1)
        {
            for (int k = 0; k < 3; ++k)
            {
                p[k] = (float)(m->center[k] + E * px_rng_range(r, 0.6, 2.0) * (double)u[k]);
            }
        }
        else if (kind == 2)
        {
            random_point_on_triangle(m, r, t, p);
        }
        else if (kind == 3)
        {
            memcpy(p, tri_corner(m, t, px_rng_int(r, 3)), 3 * sizeof(float));
        }
        else
        {
            float q[3];
            random_point_on_triangle(m, r, t, q);
            double off = fmax(tri_size(m, t), 1e-30) * exp(px_rng_range(r, log(1e-4), log(3.0)));
            for (int k = 0; k < 3; ++k)
            {
                p[k] = (float)((double)q[k] + off * (double)u[k]);
            }
        }
        if (finite3(p))
        {
            break;
        }
        kind = 0;
    }
    int md = px_rng_int(r, 10);
    *max_distance = md < 5 ? INFINITY : md == 5 ? 0.0f : (float)(E * pow(px_rng_unit(r), 3.0));
}

/* ---------------------------------------------------------------------------------------------------- */
/* Box queries */

/* Closed intervals; an inverted box (min > max on an axis) finds nothing (mesh.h). */
static bool box_overlaps(const tmesh* m, int t, const px_aabb* q)
{
    for (int k = 0; k < 3; ++k)
    {
        if (!(q->min[k] <= q->max[k] && m->box[6 * t + k] <= q->max[k] && m->box[6 * t + 3 + k] >= q->min[k]))
        {
            return false;
        }
    }
    return true;
}

typedef struct gather
{
    int32_t* items;
    int count;
    int capacity;
    int stop_after; /* 0: never stop */
} gather;

static bool gather_fn(int32_t triangle, void* context)
{
    gather* g = context;
    if (g->count < g->capacity)
    {
        g->items[g->count] = triangle;
    }
    g->count++;
    return g->stop_after == 0 || g->count < g->stop_after;
}

static int cmp_i32(const void* a, const void* b)
{
    int32_t x = *(const int32_t*)a, y = *(const int32_t*)b;
    return (x > y) - (x < y);
}

static bool box_has_nan(const px_aabb* q)
{
    for (int k = 0; k < 3; ++k)
    {
        if (isnan(q->min[k]) || isnan(q->max[k]))
        {
            return true;
        }
    }
    return false;
}

static int check_box(const tmesh* m, const px_aabb* q)
{
    int n = m->nt;
    if (box_has_nan(q))
    {
        /* generators near FLT_MAX can make inf - inf: a NaN box is an error, documented as such */
        int32_t one;
        int count = -1;
        px_status s1 = px_mesh_overlap_aabb(m->mesh, q, &one, 1, &count);
        gather g0 = { &one, 0, 1, 0 };
        px_status s2 = px_mesh_query_aabb(m->mesh, q, gather_fn, &g0);
        if (s1 != PX_ERR_NON_FINITE || s2 != PX_ERR_NON_FINITE || count != 0 || g0.count != 0)
        {
            FAIL(K_STATUS, "%s: a box with NaN gave statuses %s / %s, %d / %d triangles", m->name,
                 px_status_string(s1), px_status_string(s2), count, g0.count);
            return 1;
        }
        return 0;
    }
    int32_t* want = xrealloc(NULL, (size_t)(n + 1) * sizeof(int32_t));
    int32_t* got = xrealloc(NULL, (size_t)(n + 1) * sizeof(int32_t));
    int nw = 0;
    for (int t = 0; t < n; ++t)
    {
        if (box_overlaps(m, t, q))
        {
            want[nw++] = t;
        }
    }
    int fails = 0;
    int count = -1;
    bool inverted = !(q->min[0] <= q->max[0] && q->min[1] <= q->max[1] && q->min[2] <= q->max[2]);
    int set_kind = inverted ? K_BOX_INVERTED : K_BOX_SET;
    px_status s = px_mesh_overlap_aabb(m->mesh, q, got, n, &count);
    if (s != PX_OK || count != nw || memcmp(got, want, (size_t)nw * sizeof(int32_t)) != 0)
    {
        FAIL(set_kind,
             "%s overlap_aabb [(%a %a %a), (%a %a %a)]: status %s, %d triangles, brute force %d (or not in "
             "increasing order)",
             m->name, (double)q->min[0], (double)q->min[1], (double)q->min[2], (double)q->max[0],
             (double)q->max[1], (double)q->max[2], px_status_string(s), count, nw);
        fails++;
    }
    /* the callback form: the same set, each triangle once */
    gather g = { got, 0, n, 0 };
    s = px_mesh_query_aabb(m->mesh, q, gather_fn, &g);
    if (s == PX_OK && g.count == nw)
    {
        qsort(got, (size_t)nw, sizeof(int32_t), cmp_i32);
    }
    if (s != PX_OK || g.count != nw || memcmp(got, want, (size_t)nw * sizeof(int32_t)) != 0)
    {
        FAIL(set_kind, "%s query_aabb: status %s, %d calls, brute force %d triangles (or different ones)",
             m->name, px_status_string(s), g.count, nw);
        fails++;
    }
    if (nw > 0)
    {
        /* stopping: the callback returning false ends the query */
        gather one = { got, 0, n, 1 };
        s = px_mesh_query_aabb(m->mesh, q, gather_fn, &one);
        if (s != PX_OK || one.count != 1)
        {
            FAIL(K_BOX_STOP, "%s query_aabb: the callback returned false but was called %d times", m->name,
                 one.count);
            fails++;
        }
        /* capacity: the count of all, a warning, and the first `capacity` of the increasing list */
        int cap = nw / 2;
        count = -1;
        s = px_mesh_overlap_aabb(m->mesh, q, cap > 0 ? got : NULL, cap, &count);
        if (s != PX_WARN_CAPACITY || count != nw)
        {
            FAIL(K_BOX_CAPACITY, "%s overlap_aabb capacity %d of %d: status %s, count %d", m->name, cap, nw,
                 px_status_string(s), count);
            fails++;
        }
        else if (memcmp(got, want, (size_t)cap * sizeof(int32_t)) != 0)
        {
            FAIL(K_BOX_CAPACITY,
                 "%s overlap_aabb capacity %d of %d: the triangles written are not the %d lowest in "
                 "increasing "
                 "order (first written %d, expected %d)",
                 m->name, cap, nw, cap, cap > 0 ? (int)got[0] : -1, cap > 0 ? (int)want[0] : -1);
            fails++;
        }
    }
    free(want);
    free(got);
    return fails;
}

static void gen_box(const tmesh* m, px_rng* r, px_aabb* q)
{
    double E = m->extent > 0.0 ? m->extent : 1.0;
    int kind = px_rng_int(r, 6);
    int t = m->nt > 0 ? px_rng_int(r, m->nt) : 0;
    for (int k = 0; k < 3; ++k)
    {
        double c = px_rng_range(r, (double)m->lo[k] - 0.1 * E, (double)m->hi[k] + 0.1 * E);
        double h = E * pow(px_rng_unit(r), 3.0) * 0.3;
        q->min[k] = (float)(c - h);
        q->max[k] = (float)(c + h);
        if (kind == 1)
        {
            q->max[k] = q->min[k]; /* a point */
        }
    }
    if (kind == 2 && m->nt > 0)
    {
        /* faces exactly on a triangle's bounds: touching counts */
        for (int k = 0; k < 3; ++k)
        {
            float lo = m->box[6 * t + k], hi = m->box[6 * t + 3 + k];
            if (px_rng_int(r, 2))
            {
                q->min[k] = hi;
                q->max[k] = fmaxf(hi, q->max[k]);
            }
            else
            {
                q->max[k] = lo;
                q->min[k] = fminf(lo, q->min[k]);
            }
        }
    }
    if (kind == 3)
    {
        int k = px_rng_int(r, 3);
        float tmp = q->min[k];
        q->min[k] = q->max[k] + 1e-3f * (float)E + fabsf(q->max[k]) * 1e-6f;
        q->max[k] = tmp; /* inverted: nothing */
    }
    if (kind == 4)
    {
        /* unbounded below on every axis (the all-infinite box has its own subtest, infinite_box) */
        for (int k = 0; k < 3; ++k)
        {
            q->min[k] = -INFINITY;
        }
        q->max[px_rng_int(r, 3)] = INFINITY;
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* All queries on one mesh */

typedef struct query_plan
{
    int rays;   /* random rays of the RK_ kinds */
    int camera; /* camera is camera x camera * 2/3 pixels */
    int points;
    int boxes;
    int ld_mode;
} query_plan;

static bool same_hit(const px_ray_hit* a, const px_ray_hit* b)
{
    /* bytes, not values: an unwritten result may hold any bit pattern, which is no valid bool */
    return memcmp(&a->hit, &b->hit, sizeof(bool)) == 0 && a->triangle == b->triangle &&
           memcmp(&a->t, &b->t, sizeof(float)) == 0 && memcmp(a->point, b->point, sizeof(a->point)) == 0 &&
           memcmp(a->normal, b->normal, sizeof(a->normal)) == 0 && memcmp(&a->u, &b->u, sizeof(float)) == 0 &&
           memcmp(&a->v, &b->v, sizeof(float)) == 0;
}

/* Batch casts must equal single casts, with no task system and with the two-thread pool. */
static int check_batch(const tmesh* m, const px_ray* rays, int n)
{
    px_ray_hit* single = xrealloc(NULL, (size_t)n * sizeof(px_ray_hit));
    px_ray_hit* batch = xrealloc(NULL, (size_t)n * sizeof(px_ray_hit));
    int fails = 0;
    for (int i = 0; i < n; ++i)
    {
        px_status s = px_mesh_ray_cast(m->mesh, &rays[i], &single[i]);
        (void)s;
    }
    px_task_system pool = px_thread_pool_task_system(g_pool);
    for (int pass = 0; pass < 2; ++pass)
    {
        memset(batch, 0x77, (size_t)n * sizeof(px_ray_hit));
        px_status s = px_mesh_ray_cast_batch(m->mesh, rays, n, batch, pass == 0 ? NULL : &pool);
        int differ = 0, first = -1;
        for (int i = 0; i < n; ++i)
        {
            if (!same_hit(&single[i], &batch[i]))
            {
                differ++;
                first = first < 0 ? i : first;
            }
        }
        if (s != PX_OK || differ != 0)
        {
            FAIL(K_BATCH,
                 "%s ray_cast_batch (%s): status %s, %d of %d hits differ from single casts (first: ray %d)",
                 m->name, pass == 0 ? "no task system" : "thread pool", px_status_string(s), differ, n,
                 first);
            fails++;
        }
    }
    free(single);
    free(batch);
    return fails;
}

/* Where the CPU has AVX2 the mesh takes the 8-wide traversal; the SSE one must give the same hits. */
static int check_simd_paths(const tmesh* m, const px_ray* rays, int n)
{
    px_mesh* mesh = (px_mesh*)m->mesh;
    if (!mesh->use_avx2)
    {
        return 0;
    }
    int differ = 0, first = -1;
    for (int i = 0; i < n; ++i)
    {
        px_ray_hit a, b;
        bool any_a = false, any_b = false;
        px_status sa = px_mesh_ray_cast(mesh, &rays[i], &a);
        px_status qa = px_mesh_ray_cast_any(mesh, &rays[i], &any_a);
        mesh->use_avx2 = false;
        px_status sb = px_mesh_ray_cast(mesh, &rays[i], &b);
        px_status qb = px_mesh_ray_cast_any(mesh, &rays[i], &any_b);
        mesh->use_avx2 = true;
        if (sa != sb || qa != qb || any_a != any_b || !same_hit(&a, &b))
        {
            differ++;
            first = first < 0 ? i : first;
        }
    }
    if (differ != 0)
    {
        FAIL(K_SIMD, "%s: %d of %d rays differ between the AVX2 and the SSE traversal (first: ray %d)",
             m->name, differ, n, first);
        print_ray(&rays[first]);
        return 1;
    }
    return 0;
}

static int run_queries(const tmesh* m, uint64_t seed, const query_plan* plan)
{
    px_rng r = px_rng_seeded(seed);
    ray_tally rt;
    memset(&rt, 0, sizeof(rt));
    int cw = plan->camera, ch = plan->camera * 2 / 3;
    int nrays = plan->rays + cw * ch;
    px_ray* rays = xrealloc(NULL, (size_t)nrays * sizeof(px_ray));
    int fails = 0;
    for (int i = 0; i < plan->rays; ++i)
    {
        gen_ray(m, &r, i % RK_COUNT, &rays[i]);
    }
    for (int y = 0; y < ch; ++y)
    {
        for (int x = 0; x < cw; ++x)
        {
            gen_camera_ray(m, x, y, cw, ch, &rays[plan->rays + y * cw + x]);
        }
    }
    for (int i = 0; i < nrays; ++i)
    {
        fails += check_ray(m, &rays[i], plan->ld_mode, &rt) != 0;
    }
    fails += check_batch(m, rays, nrays);
    fails += check_simd_paths(m, rays, nrays);
    free(rays);

    point_tally pt;
    memset(&pt, 0, sizeof(pt));
    for (int i = 0; i < plan->points; ++i)
    {
        float p[3], md;
        gen_point(m, &r, p, &md);
        fails += check_point(m, p, md, &pt) != 0;
    }
    int box_fails = 0;
    for (int i = 0; i < plan->boxes; ++i)
    {
        px_aabb q;
        gen_box(m, &r, &q);
        box_fails += check_box(m, &q) != 0;
    }
    fails += box_fails;
    printf(
        "    %-22s %6d tris: %5d rays (%ld hit, %ld front; long double: %ld clear hits, %ld clear misses, "
        "%ld "
        "disagree%s, err/tol %.2g), %4d points (%ld found, %ld ties, err/tol %.2g), %3d boxes; %d failed\n",
        m->name, m->nt, nrays, rt.hits, rt.front_hits, rt.ld_hits, rt.ld_misses, rt.ld_disagree,
        plan->ld_mode == LD_COUNT ? " (counted only)" : "", rt.max_ld_rel, plan->points, pt.found, pt.ties,
        pt.max_err, plan->boxes, fails);
    return fails;
}

/* Tree structure through the internal layout: each triangle in exactly one leaf, leaves of 1 .. leaf_max
 * triangles, every child box containing its subtree, unused lanes empty, and the statistics matching. */
typedef struct tree_walk
{
    const px_mesh* mesh;
    int leaf_max;
    int* seen;
    int leaves;
    int nodes;
    int depth;
    int errors;
} tree_walk;

static void walk_leaf(tree_walk* w, const tmesh* m, int32_t link, const float lo[3], const float hi[3])
{
    const px_mesh* mesh = w->mesh;
    int count = pxi_mesh_leaf_count(link);
    int32_t packet = pxi_mesh_leaf_packet(link);
    w->leaves++;
    if (count < 1 || count > w->leaf_max || packet < 0 || packet + (count + 3) / 4 > mesh->packet_count)
    {
        w->errors++;
        return;
    }
    for (int i = 0; i < (count + 3) / 4 * 4; ++i)
    {
        const pxi_mesh_packet* p = &mesh->packets[packet + i / 4];
        int32_t t = p->index[i % 4];
        if (i >= count)
        {
            w->errors += t != PX_NULL_INDEX;
            continue;
        }
        if (t < 0 || t >= m->nt)
        {
            w->errors++;
            continue;
        }
        w->seen[t]++;
        float a[3], b[3], c[3];
        pxi_mesh_packet_triangle(p, i % 4, a, b, c);
        if (memcmp(a, tri_corner(m, t, 0), sizeof(a)) != 0 ||
            memcmp(b, tri_corner(m, t, 1), sizeof(b)) != 0 || memcmp(c, tri_corner(m, t, 2), sizeof(c)) != 0)
        {
            w->errors++;
        }
        for (int k = 0; k < 3; ++k)
        {
            if (!(m->box[6 * t + k] >= lo[k] && m->box[6 * t + 3 + k] <= hi[k]))
            {
                w->errors++;
            }
        }
    }
}

static void walk_node(tree_walk* w, const tmesh* m, int32_t index, int depth, const float lo[3],
                      const float hi[3])
{
    const px_mesh* mesh = w->mesh;
    if (index < 0 || index >= mesh->node_count || depth > PXI_MESH_MAX_DEPTH + 4)
    {
        w->errors++;
        return;
    }
    w->nodes++;
    w->depth = depth > w->depth ? depth : w->depth;
    const pxi_mesh_node* node = &mesh->nodes[index];
    for (int lane = 0; lane < PXI_MESH_WIDTH; ++lane)
    {
        float clo[3], chi[3];
        for (int k = 0; k < 3; ++k)
        {
            clo[k] = node->bmin[k][lane];
            chi[k] = node->bmax[k][lane];
        }
        int32_t link = node->link[lane];
        if (link == PXI_MESH_EMPTY)
        {
            for (int k = 0; k < 3; ++k)
            {
                w->errors += !(clo[k] > chi[k]);
            }
            continue;
        }
        for (int k = 0; k < 3; ++k)
        {
            /* a child's box inside its parent's lane box */
            w->errors += !(clo[k] >= lo[k] && chi[k] <= hi[k] && clo[k] <= chi[k]);
        }
        if (link >= 0)
        {
            walk_node(w, m, link, depth + 1, clo, chi);
        }
        else
        {
            walk_leaf(w, m, link, clo, chi);
        }
    }
}

static int check_tree(const tmesh* m, int leaf_max)
{
    const px_mesh* mesh = m->mesh;
    px_mesh_stats st = px_mesh_get_stats(mesh);
    if (m->nt == 0)
    {
        if (st.node_count != 0 || st.leaf_count != 0 || st.depth != 0)
        {
            FAIL(K_TREE, "%s: empty mesh with %d nodes, %d leaves, depth %d", m->name, st.node_count,
                 st.leaf_count, st.depth);
            return 1;
        }
        return 0;
    }
    tree_walk w;
    memset(&w, 0, sizeof(w));
    w.mesh = mesh;
    w.leaf_max = leaf_max;
    w.seen = calloc((size_t)m->nt, sizeof(int));
    float inf[3] = { INFINITY, INFINITY, INFINITY }, ninf[3] = { -INFINITY, -INFINITY, -INFINITY };
    walk_node(&w, m, 0, 1, ninf, inf);
    int once = 0;
    for (int t = 0; t < m->nt; ++t)
    {
        once += w.seen[t] == 1;
    }
    free(w.seen);
    px_aabb b = px_mesh_bounds(mesh);
    bool bounds_ok = memcmp(b.min, m->lo, sizeof(m->lo)) == 0 && memcmp(b.max, m->hi, sizeof(m->hi)) == 0;
    size_t floor_bytes = (size_t)m->nt * (9 * sizeof(float) + 3 * sizeof(int32_t));
    if (w.errors != 0 || once != m->nt || w.nodes != st.node_count || w.leaves != st.leaf_count ||
        w.depth != st.depth || st.node_count <= 0 || st.leaf_count * leaf_max < m->nt || !bounds_ok ||
        st.memory_bytes < floor_bytes || st.memory_bytes > 64 * 1024 + (size_t)m->nt * 256 ||
        !(st.sah_cost > 0.0f) || !isfinite(st.sah_cost))
    {
        FAIL(K_TREE,
             "%s tree: %d errors, %d of %d triangles in exactly one leaf, walked %d nodes / %d leaves / "
             "depth %d, "
             "stats %d / %d / %d, bounds %s, %zu bytes, sah %g",
             m->name, w.errors, once, m->nt, w.nodes, w.leaves, w.depth, st.node_count, st.leaf_count,
             st.depth, bounds_ok ? "ok" : "wrong", st.memory_bytes, (double)st.sah_cost);
        return 1;
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Shared meshes */

static const char* const shared_files[6] = { "bunny.obj",      "nav_test.obj", "dungeon.obj",
                                             "undulating.obj", "env.obj",      "rob.obj" };

static bool data_available(void)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/README.md", PX_DATA_DIR);
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        printf("    shared meshes not found: %s (set -DPROXIMA_DATA_DIR=...)\n", PX_DATA_DIR);
        return false;
    }
    fclose(f);
    return true;
}

static px_mesh* load_shared(const char* file)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", PX_DATA_DIR, file);
    px_mesh* mesh = NULL;
    px_obj_error e;
    px_status s = px_mesh_load_obj_report(path, NULL, &mesh, &e);
    if (s != PX_OK)
    {
        fprintf(stderr, "    %s: %s: %s\n", file, px_status_string(s), e.message);
        return NULL;
    }
    return mesh;
}

static int shared_meshes(void)
{
    subtest_begin();
    if (!data_available())
    {
        return PX_TEST_SKIP;
    }
    int fails = 0;
    for (int i = 0; i < 6; ++i)
    {
        px_mesh* mesh = NULL;
        px_status s = px_mesh_load_obj(NULL, NULL, &mesh);
        PX_CHECK(s == PX_ERR_INVALID_ARGUMENT);
        mesh = load_shared(shared_files[i]);
        PX_CHECK(mesh != NULL);
        tmesh m;
        tmesh_init(&m, mesh, shared_files[i]);
        query_plan plan = { scaled(800), MESH_SLOW ? 12 : 24, scaled(160), scaled(120), LD_ASSERT };
        fails += run_queries(&m, 0x5eed0100u + (uint64_t)i, &plan);
        fails += check_tree(&m, 4);
        tmesh_free(&m);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Generated meshes */

static int run_geom(const geom* g, const char* name, uint64_t seed, const query_plan* plan)
{
    px_mesh* mesh = geom_mesh(g, NULL);
    if (mesh == NULL)
    {
        return 1;
    }
    tmesh m;
    tmesh_init(&m, mesh, name);
    int fails = 0;
    /* the mesh keeps a copy of the input */
    if (px_mesh_vertex_count(mesh) != g->nv || px_mesh_triangle_count(mesh) != g->nt ||
        (g->nv > 0 && memcmp(px_mesh_vertices(mesh), g->v, (size_t)g->nv * 3 * sizeof(float)) != 0) ||
        (g->nt > 0 && memcmp(px_mesh_indices(mesh), g->idx, (size_t)g->nt * 3 * sizeof(int32_t)) != 0))
    {
        FAIL(K_TREE, "%s: the mesh's vertices or indices differ from the input", name);
        fails++;
    }
    fails += run_queries(&m, seed, plan);
    fails += check_tree(&m, 4);
    tmesh_free(&m);
    return fails;
}

static int generated_meshes(void)
{
    subtest_begin();
    int fails = 0;
    px_rng r = px_rng_seeded(0x9e4e0001u);
    query_plan plan = { scaled(600), MESH_SLOW ? 8 : 16, scaled(120), scaled(80), LD_ASSERT };
    const double lo[3] = { -10, -10, -10 }, hi[3] = { 10, 10, 10 }, zero[3] = { 0, 0, 0 };
    int soup_sizes[4] = { 3, 40, 700, 3000 };
    for (int i = 0; i < 4; ++i)
    {
        geom g = { 0 };
        geom_soup(&g, &r, soup_sizes[i], lo, hi, i == 3 ? 1.0 : 4.0);
        char name[32];
        snprintf(name, sizeof(name), "soup %d", soup_sizes[i]);
        fails += run_geom(&g, name, 0x9e4e0010u + (uint64_t)i, &plan);
        geom_free(&g);
    }
    {
        geom g = { 0 };
        geom_icosphere(&g, 3, 5.0, zero);
        fails += run_geom(&g, "icosphere", 0x9e4e0020u, &plan);
        geom_free(&g);
    }
    {
        geom g = { 0 };
        const double off[3] = { -20.0, -3.0, -15.0 };
        geom_terrain(&g, 40, 30, 1.0, off, 0x7e77a1u);
        fails += run_geom(&g, "terrain", 0x9e4e0030u, &plan);
        geom_free(&g);
    }
    {
        geom g = { 0 };
        geom_grid_box(&g, 6, 2.0, zero);
        fails += run_geom(&g, "grid box", 0x9e4e0040u, &plan);
        geom_free(&g);
    }
    {
        /* a mix: terrain under a sphere inside a box, all overlapping */
        geom g = { 0 }, part = { 0 };
        const double off[3] = { -6.0, -4.0, -6.0 };
        geom_terrain(&part, 12, 12, 1.0, off, 0x7e77a2u);
        geom_append(&g, &part);
        geom_free(&part);
        geom_icosphere(&part, 2, 3.0, zero);
        geom_append(&g, &part);
        geom_free(&part);
        geom_grid_box(&part, 4, 6.0, zero);
        geom_append(&g, &part);
        geom_free(&part);
        fails += run_geom(&g, "terrain+sphere+box", 0x9e4e0050u, &plan);
        geom_free(&g);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* Axis-aligned rays on every mesh (zero direction components: the slab test's 0 * inf). */
static int axis_aligned_rays(void)
{
    subtest_begin();
    int fails = 0;
    const double zero[3] = { 0, 0, 0 };
    geom gs[3] = { { 0 }, { 0 }, { 0 } };
    geom_grid_box(&gs[0], 8, 1.0, zero);
    const double off[3] = { -20.0, -3.0, -15.0 };
    geom_terrain(&gs[1], 20, 20, 1.0, off, 0x7e77a3u);
    geom_icosphere(&gs[2], 2, 2.0, zero);
    const char* names[3] = { "grid box", "terrain", "icosphere" };
    int n = scaled(1500);
    ray_tally rt;
    memset(&rt, 0, sizeof(rt));
    for (int i = 0; i < 3 + 6; ++i)
    {
        tmesh m;
        px_mesh* mesh = NULL;
        if (i < 3)
        {
            mesh = geom_mesh(&gs[i], NULL);
        }
        else
        {
            if (!data_available())
            {
                break;
            }
            mesh = load_shared(shared_files[i - 3]);
        }
        PX_CHECK(mesh != NULL);
        tmesh_init(&m, mesh, i < 3 ? names[i] : shared_files[i - 3]);
        px_rng r = px_rng_seeded(0xa715u + (uint64_t)i);
        px_ray* rays = xrealloc(NULL, (size_t)n * sizeof(px_ray));
        long before = rt.hits;
        for (int j = 0; j < n; ++j)
        {
            gen_axis_ray(&m, &r, &rays[j]);
            fails += check_ray(&m, &rays[j], LD_OFF, &rt) != 0;
        }
        fails += check_batch(&m, rays, n);
        printf("    %-22s %d axis-aligned rays, %ld hit\n", m.name, n, rt.hits - before);
        free(rays);
        tmesh_free(&m);
    }
    for (int i = 0; i < 3; ++i)
    {
        geom_free(&gs[i]);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* The ray axis_aligned_rays drew on rob.obj at PX_TEST_SEED=7 (see kernel_t_tie): along the shared edge of
 * triangles 4 and 23, brute force keeps triangle 4 (t 0x1.6789d4p+0, 31 ulps below the exact crossing) and the
 * BVH triangle 23 (0x1.678a18p+0, 7 ulps below), having pruned triangle 4's box at the exact t. */
static int shared_edge_t_tie(void)
{
    subtest_begin();
    if (!data_available())
    {
        return PX_TEST_SKIP;
    }
    px_mesh* mesh = load_shared("rob.obj");
    PX_CHECK(mesh != NULL);
    tmesh m;
    tmesh_init(&m, mesh, "rob.obj");
    const px_ray ray = { { -0x1.30d924p+8f, 0x1.09999ap+6f, 0x1.2df77cp+6f },
                         { 0x1p+0f, 0x0p+0f, -0x1.667ddep-2f },
                         0x1.be46b8p+11f };
    ray_tally rt;
    memset(&rt, 0, sizeof(rt));
    int fails = check_ray(&m, &ray, LD_OFF, &rt);
    px_ray_hit h;
    px_status s = px_mesh_ray_cast(m.mesh, &ray, &h);
    bf_hit b = bf_ray(&m, &ray, PX_TRIANGLE_BOTH_SIDES);
    tmesh_free(&m);
    print_kinds();
    PX_CHECK(fails == 0);
    /* still the tie it was frozen for (a change of the BVH may make the two agree; then this says so) */
    PX_CHECK(s == PX_OK && h.hit && b.hit && h.triangle == 23 && b.tri == 4);
    return 0;
}

/* Rays whose direction is far from unit length (2^-100 .. 2^100): the BVH must give the hit of the
 * unit-length ray (itself checked against brute force elsewhere), same triangle, t scaled by the inverse
 * length within 1e-6 relative. */
static int direction_scales(void)
{
    subtest_begin();
    geom g = { 0 };
    const double off[3] = { -8.0, -2.0, -8.0 };
    geom_terrain(&g, 16, 16, 1.0, off, 0x7e77a4u);
    px_mesh* mesh = geom_mesh(&g, NULL);
    PX_CHECK(mesh != NULL);
    tmesh m;
    tmesh_init(&m, mesh, "terrain");
    px_rng r = px_rng_seeded(0xd1c5u);
    const int exps[8] = { -100, -60, -40, -21, 21, 40, 60, 100 };
    int fails = 0;
    long hits = 0, n = 0;
    for (int s = 0; s < 8; ++s)
    {
        for (int i = 0; i < scaled(300); ++i)
        {
            px_ray ray, big;
            gen_ray(&m, &r, i % RK_COUNT, &ray);
            big = ray;
            for (int k = 0; k < 3; ++k)
            {
                big.direction[k] = ldexpf(ray.direction[k], exps[s]);
            }
            big.max_t = ldexpf(ray.max_t, -exps[s]);
            if (!finite3(big.direction) ||
                (big.direction[0] == 0.0f && big.direction[1] == 0.0f && big.direction[2] == 0.0f) ||
                isinf(big.max_t) != isinf(ray.max_t) || (ray.max_t > 0.0f && big.max_t == 0.0f))
            {
                continue; /* the scaled ray is not the same ray (overflow or underflow) */
            }
            n++;
            px_ray_hit h, hb;
            px_status st = px_mesh_ray_cast(m.mesh, &ray, &h);
            px_status sb = px_mesh_ray_cast(m.mesh, &big, &hb);
            hits += h.hit;
            float want = ldexpf(h.t, -exps[s]);
            if (st != PX_OK || sb != PX_OK || h.hit != hb.hit ||
                (h.hit && (h.triangle != hb.triangle || !(fabsf(hb.t - want) <= 1e-6f * want))))
            {
                REPORT("direction scaled by 2^%d: hit %d triangle %d t %a (status %s); unscaled hit %d "
                       "triangle %d t "
                       "%a scaled %a",
                       exps[s], (int)hb.hit, (int)hb.triangle, (double)hb.t, px_status_string(sb), (int)h.hit,
                       (int)h.triangle, (double)h.t, (double)want);
                print_ray(&big);
                fails++;
            }
        }
    }
    printf("    %ld rays with directions scaled by 2^-100 .. 2^100, %ld hit, %d differ from the unit-length "
           "ray\n",
           n, hits, fails);
    tmesh_free(&m);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Watertightness through the BVH */

typedef struct wt_mesh
{
    tmesh m;
    int* canon;  /* per triangle corner: welded vertex id */
    int nverts;  /* welded vertices */
    int* vstart; /* CSR: triangles around each welded vertex */
    int* vtris;
    uint8_t* vgood; /* every edge at the vertex manifold and consistently oriented, no degenerate triangle */
    /* manifold, consistently oriented edges: two triangles each */
    int nedges;
    int (*edges)[4];     /* welded a, welded b (in the first triangle's order), triangle 1, triangle 2 */
    double (*normal)[3]; /* unit normal per triangle (zero if degenerate) */
    bool coincident_ok;  /* other triangles may pass through the features (T-junctions, overlapping faces) */
} wt_mesh;

typedef struct vkey
{
    float p[3];
    int index;
} vkey;

static int cmp_vkey(const void* x, const void* y)
{
    const vkey* a = x;
    const vkey* b = y;
    for (int k = 0; k < 3; ++k)
    {
        if (a->p[k] != b->p[k])
        {
            return a->p[k] < b->p[k] ? -1 : 1;
        }
    }
    return (a->index > b->index) - (a->index < b->index);
}

typedef struct ekey
{
    int lo, hi;
    int tri;
    int forward; /* the triangle runs lo -> hi */
} ekey;

static int cmp_ekey(const void* x, const void* y)
{
    const ekey* a = x;
    const ekey* b = y;
    if (a->lo != b->lo)
    {
        return a->lo < b->lo ? -1 : 1;
    }
    if (a->hi != b->hi)
    {
        return a->hi < b->hi ? -1 : 1;
    }
    return (a->tri > b->tri) - (a->tri < b->tri);
}

/* Weld corners by exact position and find the manifold, consistently oriented edges and vertices. */
static void wt_init(wt_mesh* w, px_mesh* mesh, const char* name)
{
    memset(w, 0, sizeof(*w));
    tmesh_init(&w->m, mesh, name);
    const tmesh* m = &w->m;
    int nc = 3 * m->nt;
    vkey* keys = xrealloc(NULL, (size_t)nc * sizeof(vkey));
    for (int i = 0; i < nc; ++i)
    {
        memcpy(keys[i].p, &m->tri[3 * i], sizeof(keys[i].p));
        keys[i].index = i;
    }
    qsort(keys, (size_t)nc, sizeof(vkey), cmp_vkey);
    w->canon = xrealloc(NULL, (size_t)nc * sizeof(int));
    int id = -1;
    for (int i = 0; i < nc; ++i)
    {
        if (i == 0 || memcmp(keys[i].p, keys[i - 1].p, sizeof(keys[i].p)) != 0)
        {
            id++;
        }
        w->canon[keys[i].index] = id;
    }
    w->nverts = id + 1;
    free(keys);

    w->normal = xrealloc(NULL, (size_t)m->nt * sizeof(*w->normal));
    uint8_t* bad_tri = calloc((size_t)m->nt + 1, 1);
    for (int t = 0; t < m->nt; ++t)
    {
        ldv3 n;
        tri_normal_ld(m, t, n);
        ld len = ldv_norm(n);
        int* c = &w->canon[3 * t];
        bad_tri[t] = len == 0.0L || c[0] == c[1] || c[1] == c[2] || c[0] == c[2];
        for (int k = 0; k < 3; ++k)
        {
            w->normal[t][k] = len > 0.0L ? (double)(n[k] / len) : 0.0;
        }
    }
    ekey* e = xrealloc(NULL, (size_t)nc * sizeof(ekey));
    for (int t = 0; t < m->nt; ++t)
    {
        for (int j = 0; j < 3; ++j)
        {
            int a = w->canon[3 * t + j], b = w->canon[3 * t + (j + 1) % 3];
            ekey* k = &e[3 * t + j];
            k->lo = a < b ? a : b;
            k->hi = a < b ? b : a;
            k->tri = t;
            k->forward = a < b;
        }
    }
    qsort(e, (size_t)nc, sizeof(ekey), cmp_ekey);
    uint8_t* vbad = calloc((size_t)w->nverts + 1, 1);
    w->edges = xrealloc(NULL, (size_t)nc * sizeof(*w->edges));
    for (int i = 0; i < nc;)
    {
        int j = i;
        while (j < nc && e[j].lo == e[i].lo && e[j].hi == e[i].hi)
        {
            ++j;
        }
        bool good = j - i == 2 && e[i].forward != e[i + 1].forward && !bad_tri[e[i].tri] &&
                    !bad_tri[e[i + 1].tri] && e[i].lo != e[i].hi;
        if (good)
        {
            int* out = w->edges[w->nedges++];
            out[0] = e[i].forward ? e[i].lo : e[i].hi;
            out[1] = e[i].forward ? e[i].hi : e[i].lo;
            out[2] = e[i].tri;
            out[3] = e[i + 1].tri;
        }
        else
        {
            vbad[e[i].lo] = 1;
            vbad[e[i].hi] = 1;
        }
        i = j;
    }
    free(e);
    w->vstart = calloc((size_t)w->nverts + 2, sizeof(int));
    w->vtris = xrealloc(NULL, (size_t)nc * sizeof(int));
    for (int i = 0; i < nc; ++i)
    {
        w->vstart[w->canon[i] + 2]++;
    }
    for (int v = 0; v < w->nverts; ++v)
    {
        w->vstart[v + 2] += w->vstart[v + 1];
    }
    for (int i = 0; i < nc; ++i)
    {
        w->vtris[w->vstart[w->canon[i] + 1]++] = i / 3;
    }
    w->vgood = calloc((size_t)w->nverts + 1, 1);
    for (int v = 0; v < w->nverts; ++v)
    {
        bool good = !vbad[v] && w->vstart[v + 1] > w->vstart[v];
        for (int i = w->vstart[v]; i < w->vstart[v + 1] && good; ++i)
        {
            good = !bad_tri[w->vtris[i]];
        }
        w->vgood[v] = good;
    }
    free(vbad);
    free(bad_tri);
}

static void wt_free(wt_mesh* w)
{
    tmesh_free(&w->m);
    free(w->canon);
    free(w->vstart);
    free(w->vtris);
    free(w->vgood);
    free(w->edges);
    free(w->normal);
    memset(w, 0, sizeof(*w));
}

typedef struct wt_tally
{
    long rays;
    long exact; /* rays whose origin + 1 * direction is exactly the target */
    long misses;
    long beyond;     /* hit farther than the target */
    long nearer;     /* hit on a triangle not at the feature, before it */
    long coincident; /* hit on a triangle not at the feature, at it (T-junctions; only where allowed) */
    long skipped;    /* features with no direction that crosses the surface there */
    long bf_checked;
    long bf_differ;
} wt_tally;

/* An inward direction at a feature whose incident triangles have the given unit normals: the negated
 * mean normal, jittered, accepted when it makes an angle of more than ~3 degrees with every incident
 * face plane (then the ray crosses the surface at the feature). */
static bool wt_direction(px_rng* r, const double (*normal)[3], const int* tris, int n, double d[3])
{
    double mean[3] = { 0, 0, 0 };
    for (int i = 0; i < n; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            mean[k] -= normal[tris[i]][k];
        }
    }
    for (int attempt = 0; attempt < 12; ++attempt)
    {
        double j[3];
        px_rng_unit_vector(r, j);
        double amount = attempt < 8 ? 0.5 : 0.0;
        double len = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            d[k] = mean[k] / (double)n + amount * j[k];
            len += d[k] * d[k];
        }
        len = sqrt(len);
        if (!(len > 1e-6))
        {
            continue;
        }
        bool ok = true;
        for (int k = 0; k < 3; ++k)
        {
            d[k] /= len;
        }
        for (int i = 0; i < n && ok; ++i)
        {
            const double* nn = normal[tris[i]];
            ok = d[0] * nn[0] + d[1] * nn[1] + d[2] * nn[2] < -0.05;
        }
        if (ok)
        {
            return true;
        }
    }
    return false;
}

/* Cast a ray through target p (a float point on a shared edge, or a vertex) along inward direction d0,
 * from distance L before it: it must hit, not beyond the target, and on a triangle incident to the
 * feature unless the hit is nearer. */
static int wt_cast(const wt_mesh* w, px_rng* r, const float p[3], const double d0[3], double L,
                   const int* inc, int n_inc, bool bf_check, wt_tally* tally)
{
    const tmesh* m = &w->m;
    px_ray ray;
    bool exact = false;
    for (int attempt = 0; attempt < 8 && !exact; ++attempt)
    {
        double l = L * (1.0 + 0.37 * attempt);
        exact = true;
        for (int k = 0; k < 3; ++k)
        {
            ray.origin[k] = (float)((double)p[k] - l * d0[k]);
            ray.direction[k] = p[k] - ray.origin[k];
            exact = exact && (double)ray.origin[k] + (double)ray.direction[k] == (double)p[k];
        }
    }
    ray.max_t = px_rng_int(r, 2) ? INFINITY : 3.0f;
    tally->rays++;
    tally->exact += exact;
    double dd = 0.0, pd = 0.0, C = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        dd += (double)ray.direction[k] * ray.direction[k];
        pd += ((double)p[k] - (double)ray.origin[k]) * (double)ray.direction[k];
        C = fmax(C, fabs((double)p[k]));
    }
    double tp = exact ? 1.0 : pd / dd;
    double tol = 1e-5 * tp + 64.0 * FLT_EPSILON * C / sqrt(dd);
    px_ray_hit h;
    px_status s = px_mesh_ray_cast(m->mesh, &ray, &h);
    int fails = 0;
    if (s != PX_OK || !h.hit)
    {
        tally->misses++;
        bf_hit b = bf_ray(m, &ray, PX_TRIANGLE_BOTH_SIDES);
        REPORT("%s: ray through a shared feature missed (status %s, exact %d); brute force hit %d triangle "
               "%d t %a",
               m->name, px_status_string(s), (int)exact, (int)b.hit, (int)b.tri, (double)b.t);
        print_ray(&ray);
        return 1;
    }
    bool incident = false;
    for (int i = 0; i < n_inc; ++i)
    {
        incident = incident || inc[i] == h.triangle;
    }
    if ((double)h.t > tp + tol)
    {
        tally->beyond++;
        REPORT(
            "%s: ray through a shared feature hit triangle %d (incident %d) at t %.9g beyond the feature at "
            "%.9g",
            m->name, (int)h.triangle, (int)incident, (double)h.t, tp);
        print_ray(&ray);
        fails++;
    }
    else if (!incident)
    {
        if ((double)h.t < tp - tol)
        {
            tally->nearer++;
        }
        else if (w->coincident_ok)
        {
            tally->coincident++;
        }
        else
        {
            tally->beyond++;
            REPORT("%s: ray through a shared feature hit triangle %d, not incident, at the feature (t %.9g, "
                   "feature %.9g)",
                   m->name, (int)h.triangle, (double)h.t, tp);
            print_ray(&ray);
            fails++;
        }
    }
    if (bf_check)
    {
        tally->bf_checked++;
        bf_hit b = bf_ray(m, &ray, PX_TRIANGLE_BOTH_SIDES);
        if (!b.hit || b.tri != h.triangle || memcmp(&b.t, &h.t, sizeof(float)) != 0)
        {
            tally->bf_differ++;
            REPORT(
                "%s: ray through a shared feature: BVH triangle %d t %a, brute force hit %d triangle %d t %a",
                m->name, (int)h.triangle, (double)h.t, (int)b.hit, (int)b.tri, (double)b.t);
            print_ray(&ray);
            fails++;
        }
    }
    return fails;
}

/* Rays at shared edges (a + s (b - a) in float, s = 1/2, random, near the ends) and at shared vertices. */
static int wt_run(wt_mesh* w, uint64_t seed, int max_edges, int max_vertices, wt_tally* tally)
{
    px_rng r = px_rng_seeded(seed);
    const tmesh* m = &w->m;
    double L = 0.02 * m->extent;
    int fails = 0;
    int bf_every = MESH_SLOW ? 16 : 4;
    int ne = w->nedges < max_edges ? w->nedges : max_edges;
    for (int i = 0; i < ne; ++i)
    {
        const int* e = w->edges[w->nedges <= max_edges ? i : px_rng_int(&r, w->nedges)];
        /* the triangles around both end vertices: a point a + s (b - a) in float is within rounding of the
         * edge, so near the ends the ray must cross the whole star, not only the edge's two triangles */
        int inc[64];
        int n_inc = 0;
        bool stars_ok = w->vgood[e[0]] && w->vgood[e[1]];
        for (int end = 0; end < 2 && stars_ok; ++end)
        {
            for (int j = w->vstart[e[end]]; j < w->vstart[e[end] + 1]; ++j)
            {
                bool dup = false;
                for (int q = 0; q < n_inc; ++q)
                {
                    dup = dup || inc[q] == w->vtris[j];
                }
                if (!dup && n_inc < 64)
                {
                    inc[n_inc++] = w->vtris[j];
                }
            }
        }
        /* corners of the edge from the first triangle */
        const float* a = NULL;
        const float* b = NULL;
        for (int j = 0; j < 3; ++j)
        {
            if (w->canon[3 * e[2] + j] == e[0])
            {
                a = tri_corner(m, e[2], j);
            }
            if (w->canon[3 * e[2] + j] == e[1])
            {
                b = tri_corner(m, e[2], j);
            }
        }
        double d0[3];
        if (a == NULL || b == NULL || !stars_ok ||
            !wt_direction(&r, (const double(*)[3])w->normal, inc, n_inc, d0))
        {
            tally->skipped++;
            continue;
        }
        const float svals[4] = { 0.5f, (float)px_rng_unit(&r), ldexpf(1.0f, -1 - px_rng_int(&r, 20)),
                                 1.0f - ldexpf(1.0f, -2 - px_rng_int(&r, 20)) };
        for (int j = 0; j < 4; ++j)
        {
            float p[3];
            for (int k = 0; k < 3; ++k)
            {
                p[k] = a[k] + svals[j] * (b[k] - a[k]);
            }
            fails += wt_cast(w, &r, p, d0, L, inc, n_inc, (tally->rays % bf_every) == 0, tally);
        }
    }
    int nv = 0;
    for (int v = 0; v < w->nverts && nv < max_vertices; ++v)
    {
        int pick = w->nverts <= max_vertices ? v : px_rng_int(&r, w->nverts);
        if (!w->vgood[pick])
        {
            continue;
        }
        nv++;
        const int* inc = &w->vtris[w->vstart[pick]];
        int n_inc = w->vstart[pick + 1] - w->vstart[pick];
        double d0[3];
        if (!wt_direction(&r, (const double(*)[3])w->normal, inc, n_inc, d0))
        {
            tally->skipped++;
            continue;
        }
        const float* p = NULL;
        for (int j = 0; j < 3 && p == NULL; ++j)
        {
            if (w->canon[3 * inc[0] + j] == pick)
            {
                p = tri_corner(m, inc[0], j);
            }
        }
        fails += wt_cast(w, &r, p, d0, L, inc, n_inc, (tally->rays % bf_every) == 0, tally);
    }
    return fails;
}

static void print_wt(const char* name, double offset, const wt_mesh* w, const wt_tally* t)
{
    printf(
        "    %-14s offset %-6g %6d tris %6d manifold edges: %6ld rays (%ld exactly through), %ld misses, %ld "
        "beyond, %ld nearer, %ld coincident, %ld skipped, %ld/%ld differ from brute force\n",
        name, offset, w->m.nt, w->nedges, t->rays, t->exact, t->misses, t->beyond, t->nearer, t->coincident,
        t->skipped, t->bf_differ, t->bf_checked);
}

/* Axis-aligned rays exactly through the grid vertices and edge midpoints of a grid box's faces. */
static int wt_grid_axis(const wt_mesh* w, int n, double half, const double off[3], wt_tally* tally)
{
    const tmesh* m = &w->m;
    int fails = 0;
    for (int axis = 0; axis < 3; ++axis)
    {
        int ua = (axis + 1) % 3, va = (axis + 2) % 3;
        for (int s = 0; s < 2; ++s)
        {
            for (int i = 0; i <= 2 * n; ++i)
            {
                for (int j = 0; j <= 2 * n; ++j)
                {
                    px_ray ray;
                    ray.origin[axis] = (float)(off[axis] + (s == 0 ? -3.0 : 3.0) * half);
                    ray.origin[ua] = (float)(off[ua] - half + half * i / n);
                    ray.origin[va] = (float)(off[va] - half + half * j / n);
                    ray.direction[axis] = s == 0 ? 1.0f : -1.0f;
                    ray.direction[ua] = 0.0f;
                    ray.direction[va] = (i + j) % 3 == 0 ? -0.0f : 0.0f;
                    ray.max_t = (i + j) % 2 ? INFINITY : (float)(2.0 * half);
                    float face = (float)(off[axis] + (s == 0 ? -half : half));
                    double tp = fabs((double)face - (double)ray.origin[axis]);
                    tally->rays++;
                    px_ray_hit h;
                    px_status st = px_mesh_ray_cast(m->mesh, &ray, &h);
                    if (st != PX_OK || !h.hit || fabs((double)h.t - tp) > 1e-6 * tp)
                    {
                        tally->misses++;
                        REPORT("grid box offset %g: axis ray onto face %d/%d at grid (%d/2, %d/2): status %s "
                               "hit %d t %g "
                               "(face at %g)",
                               off[0], axis, s, i, j, px_status_string(st), (int)h.hit, (double)h.t, tp);
                        print_ray(&ray);
                        fails++;
                    }
                }
            }
        }
    }
    return fails;
}

static int watertight_generated(void)
{
    subtest_begin();
    int fails = 0;
    const double offsets[3] = { 0.0, 1e3, 1e5 };
    for (int o = 0; o < 3; ++o)
    {
        const double off[3] = { offsets[o], -0.75 * offsets[o], 0.5 * offsets[o] };
        for (int kind = 0; kind < 2; ++kind)
        {
            geom g = { 0 };
            int n = 12;
            double half = 8.0;
            if (kind == 0)
            {
                geom_icosphere(&g, MESH_SLOW ? 3 : 4, 10.0, off);
            }
            else
            {
                geom_grid_box(&g, n, half, off);
            }
            px_mesh* mesh = geom_mesh(&g, NULL);
            PX_CHECK(mesh != NULL);
            wt_mesh w;
            wt_init(&w, mesh, kind == 0 ? "icosphere" : "grid box");
            /* closed: every edge manifold */
            PX_CHECK(3 * w.m.nt == 2 * w.nedges);
            wt_tally t;
            memset(&t, 0, sizeof(t));
            fails += wt_run(&w, 0x3a7e0000u + (uint64_t)(o * 2 + kind), scaled(3000), scaled(1000), &t);
            if (kind == 1)
            {
                fails += wt_grid_axis(&w, n, half, off, &t);
            }
            print_wt(w.m.name, offsets[o], &w, &t);
            PX_CHECK(t.misses == 0 && t.beyond == 0 && t.skipped == 0);
            /* a convex closed mesh: nothing is in front of the feature */
            PX_CHECK(t.nearer == 0);
            wt_free(&w);
            geom_free(&g);
        }
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

static int watertight_shared(void)
{
    subtest_begin();
    if (!data_available())
    {
        return PX_TEST_SKIP;
    }
    int fails = 0;
    const char* files[2] = { "bunny.obj", "nav_test.obj" };
    const double offsets[3] = { 0.0, 1e3, 1e5 };
    for (int f = 0; f < 2; ++f)
    {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", PX_DATA_DIR, files[f]);
        px_obj_data d;
        px_obj_error e;
        px_status s = px_obj_load(path, NULL, &d, &e);
        PX_CHECK(s == PX_OK);
        for (int o = 0; o < 3; ++o)
        {
            float* v = xrealloc(NULL, (size_t)d.vertex_count * 3 * sizeof(float));
            for (int i = 0; i < d.vertex_count; ++i)
            {
                v[3 * i] = (float)((double)d.vertices[3 * i] + offsets[o]);
                v[3 * i + 1] = (float)((double)d.vertices[3 * i + 1] - 0.5 * offsets[o]);
                v[3 * i + 2] = (float)((double)d.vertices[3 * i + 2] + 0.25 * offsets[o]);
            }
            px_mesh* mesh = NULL;
            s = px_mesh_create(v, d.vertex_count, d.indices, d.triangle_count, NULL, &mesh);
            free(v);
            PX_CHECK(s == PX_OK);
            wt_mesh w;
            wt_init(&w, mesh, files[f]);
            g_reported = 0; /* print the first failures of every mesh */
            /* nav_test.obj has T-junctions and faces through other faces' edges: a triangle that is not
             * incident may be hit at the feature itself */
            w.coincident_ok = f == 1;
            wt_tally t;
            memset(&t, 0, sizeof(t));
            fails += wt_run(&w, 0x3a7e0100u + (uint64_t)(f * 3 + o), scaled(4000), scaled(1500), &t);
            print_wt(files[f], offsets[o], &w, &t);
            PX_CHECK(t.misses == 0 && t.beyond == 0);
            PX_CHECK(t.rays > 1000 / (MESH_SLOW ? 4 : 1));
            wt_free(&w);
        }
        px_obj_free(&d);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Degenerate inputs */

static int run_small(const geom* g, const char* name, uint64_t seed, int ld_mode)
{
    query_plan plan = { scaled(300), 8, scaled(100), scaled(60), ld_mode };
    return run_geom(g, name, seed, &plan);
}

static int degenerate_copies(void)
{
    subtest_begin();
    int fails = 0;
    for (int variant = 0; variant < 2; ++variant)
    {
        /* 1000 copies of one triangle: shared indices, or 3000 vertices at the same three places */
        geom g = { 0 };
        const float tri[9] = { -1.0f, -0.5f, 0.25f, 2.0f, 0.0f, -0.5f, 0.0f, 1.5f, 0.75f };
        for (int i = 0; i < 1000; ++i)
        {
            if (variant == 0 && i > 0)
            {
                geom_triangle(&g, 0, 1, 2);
                continue;
            }
            int a = g.nv;
            geom_vertexf(&g, &tri[0]);
            geom_vertexf(&g, &tri[3]);
            geom_vertexf(&g, &tri[6]);
            geom_triangle(&g, a, a + 1, a + 2);
        }
        fails += run_small(&g, variant == 0 ? "1000 copies (shared)" : "1000 copies",
                           0xc0b1u + (uint64_t)variant, LD_ASSERT);
        /* the lowest index wins every tie */
        px_mesh* mesh = geom_mesh(&g, NULL);
        PX_CHECK(mesh != NULL);
        px_ray ray = { { 0.25f, 0.25f, -5.0f }, { 0.0f, 0.0f, 1.0f }, INFINITY };
        px_ray_hit h;
        PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &ray, &h), PX_OK);
        PX_CHECK(h.hit && h.triangle == 0);
        px_point_result pr;
        const float p[3] = { 0.3f, 0.2f, 3.0f };
        PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, INFINITY, &pr), PX_OK);
        PX_CHECK(pr.found && pr.triangle == 0);
        px_mesh_stats st = px_mesh_get_stats(mesh);
        PX_CHECK(st.leaf_count >= 250 && st.depth <= 70);
        int32_t* all = xrealloc(NULL, 1000 * sizeof(int32_t));
        int count = 0;
        px_aabb everything = { { -10, -10, -10 }, { 10, 10, 10 } };
        PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &everything, all, 1000, &count), PX_OK);
        PX_CHECK(count == 1000);
        for (int i = 0; i < 1000; ++i)
        {
            PX_CHECK(all[i] == i);
        }
        free(all);
        px_mesh_destroy(mesh);
        geom_free(&g);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

static int degenerate_zero_area(void)
{
    subtest_begin();
    int fails = 0;
    px_rng r = px_rng_seeded(0x2e70u);
    for (int variant = 0; variant < 2; ++variant)
    {
        /* variant 0: degenerate triangles among good ones; variant 1: nothing but degenerate triangles */
        geom g = { 0 };
        if (variant == 0)
        {
            const double off[3] = { -4.0, -1.0, -4.0 };
            geom_terrain(&g, 8, 8, 1.0, off, 0x7e77a5u);
        }
        for (int i = 0; i < 200; ++i)
        {
            double a[3], d[3];
            for (int k = 0; k < 3; ++k)
            {
                a[k] = px_rng_range(&r, -4.0, 4.0);
                d[k] = px_rng_range(&r, -1.0, 1.0);
            }
            int kind = i % 5;
            int v0 = geom_vertex(&g, a[0], a[1], a[2]);
            if (kind == 0)
            {
                /* collinear in any direction: multiples of 1/1024 below 2^12, every sum exact in float */
                double q[3], st[3];
                for (int k = 0; k < 3; ++k)
                {
                    q[k] = floor(a[k] * 1024.0) / 1024.0;
                    st[k] = floor(d[k] * 1024.0) / 1024.0;
                }
                int v1 = geom_vertex(&g, q[0], q[1], q[2]);
                int v2 = geom_vertex(&g, q[0] + st[0], q[1] + st[1], q[2] + st[2]);
                int v3 = geom_vertex(&g, q[0] + 3.0 * st[0], q[1] + 3.0 * st[1], q[2] + 3.0 * st[2]);
                geom_triangle(&g, v1, v3, v2); /* v0 stays unused: unused vertices are allowed */
            }
            else if (kind == 1)
            {
                int v1 = geom_vertex(&g, a[0] + d[0], a[1] + d[1], a[2] + d[2]);
                geom_triangle(&g, v0, v0, v1); /* repeated index */
            }
            else if (kind == 2)
            {
                geom_triangle(&g, v0, v0, v0); /* a point */
            }
            else if (kind == 3)
            {
                int v1 = geom_vertex(&g, a[0], a[1], a[2]); /* same place, other index */
                int v2 = geom_vertex(&g, a[0], a[1], a[2]);
                geom_triangle(&g, v0, v1, v2);
            }
            else
            {
                /* axis-aligned collinear: exactly degenerate in float */
                int v1 = geom_vertex(&g, a[0] + 1.0, a[1], a[2]);
                int v2 = geom_vertex(&g, a[0] + 0.5, a[1], a[2]);
                geom_triangle(&g, v1, v0, v2);
            }
        }
        fails += run_small(&g, variant == 0 ? "terrain + degenerate" : "degenerate only",
                           0x2e71u + (uint64_t)variant, LD_ASSERT);
        if (variant == 1)
        {
            /* rays never hit a degenerate triangle, wherever they go */
            px_mesh* mesh = geom_mesh(&g, NULL);
            PX_CHECK(mesh != NULL);
            tmesh m;
            tmesh_init(&m, mesh, "degenerate only");
            for (int i = 0; i < scaled(400); ++i)
            {
                px_ray ray;
                gen_ray(&m, &r, i % RK_COUNT, &ray);
                px_ray_hit h;
                PX_CHECK_STATUS(px_mesh_ray_cast(m.mesh, &ray, &h), PX_OK);
                PX_CHECK(!h.hit);
            }
            tmesh_free(&m);
        }
        geom_free(&g);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

static int degenerate_small_meshes(void)
{
    subtest_begin();
    int fails = 0;
    geom g = { 0 };
    int a = geom_vertex(&g, 0, 0, 0), b = geom_vertex(&g, 1, 0, 0), c = geom_vertex(&g, 0, 1, 0);
    geom_triangle(&g, a, b, c);
    fails += run_small(&g, "one triangle", 0x5a11u, LD_ASSERT);
    int d = geom_vertex(&g, 1, 1, 0.5);
    geom_triangle(&g, b, d, c);
    fails += run_small(&g, "two triangles", 0x5a12u, LD_ASSERT);
    geom_free(&g);

    /* every box centroid the same point: each triangle's bounds are symmetric about the origin */
    px_rng r = px_rng_seeded(0xce47u);
    for (int i = 0; i < 300; ++i)
    {
        float x = (float)px_rng_range(&r, 0.01, 3.0), y = (float)px_rng_range(&r, 0.01, 3.0);
        float z = (float)px_rng_range(&r, 0.01, 3.0);
        int v0 = geom_vertex(&g, -x, -y, -z);
        int v1 = geom_vertex(&g, x, y, z);
        int sx = px_rng_int(&r, 2) ? 1 : -1, sy = px_rng_int(&r, 2) ? 1 : -1;
        int v2 = geom_vertex(&g, (double)sx * (double)x, -(double)sy * (double)y,
                             (double)z * px_rng_range(&r, -1.0, 1.0));
        geom_triangle(&g, v0, v1, v2);
    }
    fails += run_small(&g, "equal box centroids", 0x5a13u, LD_ASSERT);
    {
        px_mesh* mesh = geom_mesh(&g, NULL);
        PX_CHECK(mesh != NULL);
        px_mesh_stats st = px_mesh_get_stats(mesh);
        PX_CHECK(st.depth >= 1 && st.depth <= 70 && st.leaf_count >= 300 / 4);
        px_mesh_destroy(mesh);
    }
    geom_free(&g);
    /* equal true centroids: triangles rotated about the origin */
    for (int i = 0; i < 200; ++i)
    {
        double q[4];
        px_rng_quat(&r, q);
        double s = px_rng_range(&r, 0.1, 2.0);
        int first = g.nv;
        for (int j = 0; j < 3; ++j)
        {
            double ang = 2.0943951023931953 * j;
            double p[3] = { s * cos(ang), s * sin(ang), 0.0 };
            /* rotate by q: p + 2 w (v x p) + 2 v x (v x p) */
            double vx = q[0], vy = q[1], vz = q[2], w = q[3];
            double c1[3] = { vy * p[2] - vz * p[1], vz * p[0] - vx * p[2], vx * p[1] - vy * p[0] };
            double c2[3] = { vy * c1[2] - vz * c1[1], vz * c1[0] - vx * c1[2], vx * c1[1] - vy * c1[0] };
            (void)geom_vertex(&g, p[0] + 2.0 * (w * c1[0] + c2[0]), p[1] + 2.0 * (w * c1[1] + c2[1]),
                              p[2] + 2.0 * (w * c1[2] + c2[2]));
        }
        geom_triangle(&g, first, first + 1, first + 2);
    }
    fails += run_small(&g, "equal centroids", 0x5a14u, LD_ASSERT);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* Triangles at 2^i, i = 0 .. 120, each the size of its distance: SAH would peel one per level. */
static int degenerate_exponential(void)
{
    subtest_begin();
    geom g = { 0 };
    for (int i = 0; i <= 120; ++i)
    {
        double s = ldexp(1.0, i);
        int v0 = geom_vertex(&g, s, 0.0, 0.0);
        int v1 = geom_vertex(&g, 1.5 * s, 0.5 * s, 0.0);
        int v2 = geom_vertex(&g, s, 0.25 * s, 0.5 * s);
        geom_triangle(&g, v0, v1, v2);
    }
    px_mesh* mesh = geom_mesh(&g, NULL);
    PX_CHECK(mesh != NULL);
    px_mesh_stats st = px_mesh_get_stats(mesh);
    printf("    121 triangles at 2^0 .. 2^120: depth %d, %d nodes, %d leaves\n", st.depth, st.node_count,
           st.leaf_count);
    PX_CHECK(st.depth >= 1 && st.depth <= 70);
    tmesh m;
    tmesh_init(&m, mesh, "2^i triangles");
    int fails = check_tree(&m, 4);
    /* rays and points scaled to the triangles they aim at (the kernel itself gives up beyond ~1e19) */
    px_rng r = px_rng_seeded(0xe4b0u);
    ray_tally rt;
    memset(&rt, 0, sizeof(rt));
    point_tally pt;
    memset(&pt, 0, sizeof(pt));
    for (int i = 0; i < scaled(2000); ++i)
    {
        px_ray ray;
        gen_ray(&m, &r, i % 2 ? RK_AT_TRIANGLE : RK_ON_TRIANGLE, &ray);
        fails += check_ray(&m, &ray, LD_COUNT, &rt) != 0;
    }
    /* closest points: asserted up to 2^28, where px_closest_point_triangle is still exact enough (its
     * products of dot products overflow from triangles of about 2^32 on: it returns the query point itself,
     * then NaN from 2^44); counted only from there to 1e17 (squared distances overflow float at ~1.8e19) */
    long quiet_points = 0;
    g_quiet_count = 0;
    for (int i = 0; i < scaled(1000); ++i)
    {
        float p[3], md;
        gen_point(&m, &r, p, &md);
        float c = fmaxf(fabsf(p[0]), fmaxf(fabsf(p[1]), fabsf(p[2])));
        if (c > 1e17f)
        {
            continue;
        }
        g_quiet = c > 0x1p28f;
        quiet_points += g_quiet;
        int f = check_point(&m, p, md, &pt) != 0;
        fails += g_quiet ? 0 : f;
        g_quiet = false;
    }
    for (int i = 0; i < scaled(200); ++i)
    {
        px_aabb q;
        gen_box(&m, &r, &q);
        fails += check_box(&m, &q) != 0;
    }
    printf("    %ld rays (%ld hit; long double: %ld clear hits, %ld clear misses, %ld disagree, counted "
           "only), %ld "
           "points (%ld found; %ld beyond 2^28 counted only: %ld failures)\n",
           rt.rays, rt.hits, rt.ld_hits, rt.ld_misses, rt.ld_disagree, pt.points, pt.found, quiet_points,
           g_quiet_count);
    tmesh_free(&m);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* A soup of 300 triangles of size ~scale spread over 20 scale. */
static int run_scaled_soup(double scale, const char* name, uint64_t seed)
{
    px_rng r = px_rng_seeded(seed);
    geom g = { 0 };
    const double lo[3] = { -10 * scale, -10 * scale, -10 * scale };
    const double hi[3] = { 10 * scale, 10 * scale, 10 * scale };
    geom_soup(&g, &r, 300, lo, hi, 3.0 * scale);
    /* rays: brute force asserted, the long-double oracle only counted (the float kernel's own range) */
    int fails = run_small(&g, name, seed + 1, LD_COUNT);
    geom_free(&g);
    return fails;
}

/* Coordinates of 1e-30: every query against brute force. The long-double ray oracle is only counted:
 * px_ray_triangle_watertight misses every triangle below about 2^-80 (its edge functions underflow), and
 * returns t = 0 for hits at 2^-56. */
static int tiny_coordinates(void)
{
    subtest_begin();
    int fails = run_scaled_soup(1e-30, "soup at 1e-30", 0x5ca1u);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* Coordinates of 1e30: the same (the kernel misses everything beyond about 2^43 from the ray origin). */
static int huge_coordinates(void)
{
    subtest_begin();
    int fails = run_scaled_soup(1e30, "soup at 1e30", 0x5ca3u);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* Coordinates near FLT_MAX: every status PX_OK, every output finite or a clean miss, no NaN, and the
 * sanitizer build must not trip (overflowing float to int conversions, NaN from inf - inf). */
static int near_flt_max(void)
{
    subtest_begin();
    px_rng r = px_rng_seeded(0xf17au);
    geom g = { 0 };
    for (int i = 0; i < 400; ++i)
    {
        int first = g.nv;
        for (int j = 0; j < 3; ++j)
        {
            double x[3];
            for (int k = 0; k < 3; ++k)
            {
                x[k] = px_rng_range(&r, -1.0, 1.0) * (double)FLT_MAX;
            }
            (void)geom_vertex(&g, x[0], x[1], x[2]);
        }
        geom_triangle(&g, first, first + 1, first + 2);
    }
    /* and some spanning the whole range along one axis */
    int a = geom_vertex(&g, -FLT_MAX, 0.0, 0.0), b = geom_vertex(&g, FLT_MAX, 1.0, 0.0);
    int c = geom_vertex(&g, FLT_MAX, -FLT_MAX, FLT_MAX);
    geom_triangle(&g, a, b, c);
    px_mesh* mesh = geom_mesh(&g, NULL);
    PX_CHECK(mesh != NULL);
    tmesh m;
    tmesh_init(&m, mesh, "near FLT_MAX");
    int fails = check_tree(&m, 4);
    long hits = 0, found = 0, inf_distance = 0;
    for (int i = 0; i < scaled(1000); ++i)
    {
        px_ray ray;
        for (int k = 0; k < 3; ++k)
        {
            ray.origin[k] = (float)(px_rng_range(&r, -1.0, 1.0) * (double)FLT_MAX);
        }
        random_unit_f(&r, ray.direction);
        if (i % 3 == 0)
        {
            ray.direction[i % 2] = 0.0f;
            ray.direction[2] = 1.0f;
        }
        ray.max_t = i % 2 ? INFINITY : FLT_MAX;
        px_ray_hit h;
        PX_CHECK_STATUS(px_mesh_ray_cast(m.mesh, &ray, &h), PX_OK);
        bf_hit bh = bf_ray(&m, &ray, PX_TRIANGLE_BOTH_SIDES);
        if (h.hit != bh.hit || (h.hit && (h.triangle != bh.tri || !isfinite(h.t) || !isfinite(h.u) ||
                                          !isfinite(h.v) || !finite3(h.normal))))
        {
            REPORT("near FLT_MAX: ray hit %d triangle %d t %g (brute force %d, %d, %g)", (int)h.hit,
                   (int)h.triangle, (double)h.t, (int)bh.hit, (int)bh.tri, (double)bh.t);
            print_ray(&ray);
            fails++;
        }
        hits += h.hit;
        bool any = false;
        PX_CHECK_STATUS(px_mesh_ray_cast_any(m.mesh, &ray, &any), PX_OK);
        fails += any != bh.hit;
        px_point_result pr;
        PX_CHECK_STATUS(px_mesh_closest_point(m.mesh, ray.origin, i % 2 ? INFINITY : FLT_MAX, &pr), PX_OK);
        if (pr.found)
        {
            found++;
            inf_distance += isinf(pr.distance);
            if (isnan(pr.distance) || !finite3(pr.point) || !finite3(pr.normal) || pr.triangle < 0 ||
                pr.triangle >= m.nt)
            {
                REPORT("near FLT_MAX: closest point distance %g, triangle %d, non-finite point or normal",
                       (double)pr.distance, (int)pr.triangle);
                fails++;
            }
        }
        px_aabb q;
        gen_box(&m, &r, &q);
        fails += check_box(&m, &q) != 0;
    }
    printf("    %d rays (%ld hit), %ld closest points found (%ld with an infinite distance)\n", scaled(1000),
           hits, found, inf_distance);
    tmesh_free(&m);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* Directions whose every component is subnormal (review 56): the shear constant 1 / dir[kz] and the slab
 * inverses overflowed, and such rays missed everything; the single-triangle test (which rescales) hit. A ray
 * 1e-4 below a triangle with direction (0, 0, 1e-39) hits at t = 1e35; with 1e-45 the hit's t would be
 * 7e40, beyond float, so nothing is hit. */
static int subnormal_direction(void)
{
    const float v[9] = { 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f };
    const int32_t idx[3] = { 0, 1, 2 };
    px_mesh* mesh = NULL;
    PX_CHECK_STATUS(px_mesh_create(v, 3, idx, 1, NULL, &mesh), PX_OK);
    const float dirs[3][3] = { { 0.0f, 0.0f, 1e-39f }, { 1e-41f, -2e-41f, 3e-39f }, { 0.0f, 0.0f, -1e-39f } };
    for (int i = 0; i < 3; ++i)
    {
        const float oz = dirs[i][2] > 0.0f ? -1e-4f : 1e-4f;
        px_ray ray = { { 0.25f, 0.25f, oz }, { dirs[i][0], dirs[i][1], dirs[i][2] }, INFINITY };
        float t = 0.0f, u = 0.0f, w = 0.0f;
        PX_CHECK(px_ray_triangle_watertight(&ray, v, v + 3, v + 6, PX_TRIANGLE_BOTH_SIDES, &t, &u, &w));
        px_ray_hit h;
        PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &ray, &h), PX_OK);
        PX_CHECK(h.hit && h.triangle == 0);
        PX_CHECK_NEAR(h.t, t, 1e-6 * t);
        PX_CHECK(h.t <= ray.max_t);
        bool any = false;
        PX_CHECK_STATUS(px_mesh_ray_cast_any(mesh, &ray, &any), PX_OK);
        PX_CHECK(any);
        px_ray_hit hb;
        PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, &ray, 1, &hb, NULL), PX_OK);
        PX_CHECK(hb.hit && hb.t == h.t);
        /* a range that ends before the hit */
        ray.max_t = t * 0.5f;
        PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &ray, &h), PX_OK);
        PX_CHECK(!h.hit);
    }
    /* t beyond float: no hit */
    px_ray far = { { 0.25f, 0.25f, -1e-4f }, { 0.0f, 0.0f, 1e-45f }, INFINITY };
    px_ray_hit h;
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &far, &h), PX_OK);
    PX_CHECK(!h.hit);
    px_mesh_destroy(mesh);
    return 0;
}

static int empty_mesh(void)
{
    subtest_begin();
    for (int variant = 0; variant < 2; ++variant)
    {
        px_mesh* mesh = NULL;
        const float v[6] = { 0, 0, 0, 1, 1, 1 };
        /* no triangles: without vertices, or with unused ones */
        PX_CHECK_STATUS(px_mesh_create(variant ? v : NULL, variant ? 2 : 0, NULL, 0, NULL, &mesh), PX_OK);
        PX_CHECK(mesh != NULL);
        PX_CHECK(px_mesh_triangle_count(mesh) == 0 && px_mesh_vertex_count(mesh) == 2 * variant);
        PX_CHECK(px_mesh_indices(mesh) == NULL);
        px_aabb b = px_mesh_bounds(mesh);
        PX_CHECK(b.min[0] > b.max[0] && b.min[1] > b.max[1] && b.min[2] > b.max[2]);
        px_mesh_stats st = px_mesh_get_stats(mesh);
        PX_CHECK(st.node_count == 0 && st.leaf_count == 0 && st.depth == 0 && st.memory_bytes > 0);
        px_ray ray = { { 0, 0, -1 }, { 0, 0, 1 }, INFINITY };
        px_ray_hit h;
        PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &ray, &h), PX_OK);
        PX_CHECK(!h.hit && h.triangle == PX_NULL_INDEX);
        PX_CHECK_STATUS(px_mesh_ray_cast_sided(mesh, &ray, PX_TRIANGLE_FRONT_ONLY, &h), PX_OK);
        PX_CHECK(!h.hit);
        bool any = true;
        PX_CHECK_STATUS(px_mesh_ray_cast_any(mesh, &ray, &any), PX_OK);
        PX_CHECK(!any);
        px_ray_hit hits[3];
        px_ray rays[3] = { ray, ray, ray };
        PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, rays, 3, hits, NULL), PX_OK);
        PX_CHECK(!hits[0].hit && !hits[2].hit);
        px_point_result pr;
        const float p[3] = { 0, 0, 0 };
        PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, INFINITY, &pr), PX_OK);
        PX_CHECK(!pr.found && pr.triangle == PX_NULL_INDEX);
        px_aabb all = { { -INFINITY, -INFINITY, -INFINITY }, { INFINITY, INFINITY, INFINITY } };
        int count = -1;
        int32_t out[1];
        PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &all, out, 1, &count), PX_OK);
        PX_CHECK(count == 0);
        gather gt = { out, 0, 1, 0 };
        PX_CHECK_STATUS(px_mesh_query_aabb(mesh, &all, gather_fn, &gt), PX_OK);
        PX_CHECK(gt.count == 0);
        px_mesh_destroy(mesh);
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Bad input */

static bool hit_cleared(const px_ray_hit* h)
{
    px_ray_hit z;
    memset(&z, 0, sizeof(z));
    return !h->hit && h->triangle == PX_NULL_INDEX && h->t == 0.0f && h->u == 0.0f && h->v == 0.0f &&
           memcmp(h->point, z.point, sizeof(z.point)) == 0 &&
           memcmp(h->normal, z.normal, sizeof(z.normal)) == 0;
}

static bool point_cleared(const px_point_result* r)
{
    return !r->found && r->triangle == PX_NULL_INDEX && r->distance == 0.0f && r->point[0] == 0.0f &&
           r->point[1] == 0.0f && r->point[2] == 0.0f && r->normal[0] == 0.0f && r->normal[1] == 0.0f &&
           r->normal[2] == 0.0f;
}

/* px_mesh_create fails with `expected` and leaves *mesh NULL. */
static int create_fails(const float* v, int nv, const int32_t* idx, int nt, const px_mesh_def* def,
                        px_status expected, int line)
{
    px_mesh* mesh = (px_mesh*)&g_reported; /* a non-NULL sentinel that must be overwritten */
    px_status s = px_mesh_create(v, nv, idx, nt, def, &mesh);
    if (s != expected || mesh != NULL)
    {
        fprintf(stderr, "test_mesh.c:%d: px_mesh_create returned %s (mesh %s), expected %s\n", line,
                px_status_string(s), mesh == NULL ? "NULL" : "set", px_status_string(expected));
        if (s == PX_OK)
        {
            px_mesh_destroy(mesh);
        }
        return 1;
    }
    return 0;
}
#define CREATE_FAILS(v, nv, idx, nt, def, expected) \
    PX_CHECK(create_fails(v, nv, idx, nt, def, expected, __LINE__) == 0)

static void* dummy_alloc(size_t size, size_t alignment, void* user)
{
    (void)user;
    return aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
}

static void dummy_free(void* p, size_t size, void* user)
{
    (void)size;
    (void)user;
    free(p);
}

static int bad_create(void)
{
    subtest_begin();
    const float v[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 1 };
    const int32_t idx[6] = { 0, 1, 2, 1, 3, 2 };
    px_mesh* mesh = NULL;
    PX_CHECK_STATUS(px_mesh_create(v, 4, idx, 2, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(NULL, 4, idx, 2, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 4, NULL, 2, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, -1, idx, 2, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 4, idx, -1, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 4, idx, INT32_MIN, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, PX_MESH_MAX_COUNT + 1, idx, 2, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 4, idx, PX_MESH_MAX_COUNT + 1, NULL, PX_ERR_INVALID_ARGUMENT);
    const int32_t neg[3] = { 0, -1, 2 }, high[3] = { 0, 4, 2 };
    CREATE_FAILS(v, 4, neg, 1, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 4, high, 1, NULL, PX_ERR_INVALID_ARGUMENT);
    CREATE_FAILS(v, 0, idx, 1, NULL, PX_ERR_INVALID_ARGUMENT);
    /* NaN or Inf in a vertex a triangle uses */
    const float specials[3] = { NAN, INFINITY, -INFINITY };
    for (int i = 0; i < 3; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            float w[12];
            memcpy(w, v, sizeof(w));
            w[3 + k] = specials[i];
            CREATE_FAILS(w, 4, idx, 2, NULL, PX_ERR_NON_FINITE);
            /* vertex 3 is unused by the first triangle: fine for it alone */
            memcpy(w, v, sizeof(w));
            w[9 + k] = specials[i];
            PX_CHECK_STATUS(px_mesh_create(w, 4, idx, 1, NULL, &mesh), PX_OK);
            px_aabb b = px_mesh_bounds(mesh);
            PX_CHECK(b.min[0] == 0.0f && b.max[0] == 1.0f && b.max[2] == 0.0f);
            px_mesh_destroy(mesh);
        }
    }
    /* def */
    px_mesh_def def;
    memset(&def, 0, sizeof(def));
    CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
    def = px_mesh_default_def();
    PX_CHECK(def.leaf_triangles == 4 && def.sah_bins == 16);
    def.internal_value ^= 1;
    CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
    const int leaf[4] = { 0, 9, -1, 1000 }, bins[4] = { 3, 65, 0, -16 };
    for (int i = 0; i < 4; ++i)
    {
        def = px_mesh_default_def();
        def.leaf_triangles = leaf[i];
        CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
        def = px_mesh_default_def();
        def.sah_bins = bins[i];
        CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
    }
    const int ok_leaf[2] = { 1, PX_MESH_MAX_LEAF_TRIANGLES }, ok_bins[2] = { 4, 64 };
    for (int i = 0; i < 2; ++i)
    {
        def = px_mesh_default_def();
        def.leaf_triangles = ok_leaf[i];
        def.sah_bins = ok_bins[i];
        PX_CHECK_STATUS(px_mesh_create(v, 4, idx, 2, &def, &mesh), PX_OK);
        px_mesh_destroy(mesh);
    }
    def = px_mesh_default_def();
    def.allocator.alloc = dummy_alloc;
    CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
    def = px_mesh_default_def();
    def.allocator.free = dummy_free;
    CREATE_FAILS(v, 4, idx, 2, &def, PX_ERR_INVALID_ARGUMENT);
    def.allocator.alloc = dummy_alloc;
    PX_CHECK_STATUS(px_mesh_create(v, 4, idx, 2, &def, &mesh), PX_OK);
    px_mesh_destroy(mesh);

    /* NULL is harmless everywhere it is documented to be */
    px_mesh_destroy(NULL);
    PX_CHECK(px_mesh_triangle_count(NULL) == 0 && px_mesh_vertex_count(NULL) == 0);
    PX_CHECK(px_mesh_vertices(NULL) == NULL && px_mesh_indices(NULL) == NULL);
    px_aabb nb = px_mesh_bounds(NULL);
    PX_CHECK(nb.min[0] > nb.max[0]);
    px_mesh_stats ns = px_mesh_get_stats(NULL);
    PX_CHECK(ns.node_count == 0 && ns.leaf_count == 0 && ns.depth == 0 && ns.memory_bytes == 0 &&
             ns.sah_cost == 0.0f);
    return 0;
}

static int bad_queries(void)
{
    subtest_begin();
    const float v[12] = { -1, -1, 0, 1, -1, 0, 0, 1, 0, 0, 0, 1 };
    const int32_t idx[6] = { 0, 1, 2, 0, 1, 3 };
    px_mesh* mesh = NULL;
    PX_CHECK_STATUS(px_mesh_create(v, 4, idx, 2, NULL, &mesh), PX_OK);
    const px_ray good = { { 0, 0, -2 }, { 0, 0, 1 }, INFINITY };
    px_ray_hit h;
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &good, &h), PX_OK);
    PX_CHECK(h.hit && h.triangle == 0 && h.t == 2.0f);

    typedef struct bad_ray
    {
        px_ray ray;
        px_status expected;
    } bad_ray;
    const bad_ray bad[] = {
        { { { NAN, 0, -2 }, { 0, 0, 1 }, INFINITY }, PX_ERR_NON_FINITE },
        { { { 0, INFINITY, -2 }, { 0, 0, 1 }, INFINITY }, PX_ERR_NON_FINITE },
        { { { 0, 0, -INFINITY }, { 0, 0, 1 }, INFINITY }, PX_ERR_NON_FINITE },
        { { { 0, 0, -2 }, { NAN, 0, 1 }, INFINITY }, PX_ERR_NON_FINITE },
        { { { 0, 0, -2 }, { 0, 0, INFINITY }, INFINITY }, PX_ERR_NON_FINITE },
        { { { 0, 0, -2 }, { 0, 0, 1 }, NAN }, PX_ERR_NON_FINITE },
        { { { 0, 0, -2 }, { 0, 0, 0 }, INFINITY }, PX_ERR_DEGENERATE_INPUT },
        { { { 0, 0, -2 }, { -0.0f, 0, -0.0f }, INFINITY }, PX_ERR_DEGENERATE_INPUT },
        { { { 0, 0, -2 }, { 0, 0, 1 }, -1.0f }, PX_ERR_INVALID_ARGUMENT },
        { { { 0, 0, -2 }, { 0, 0, 1 }, -INFINITY }, PX_ERR_INVALID_ARGUMENT },
        { { { 0, 0, -2 }, { 0, 0, 1 }, -FLT_MIN }, PX_ERR_INVALID_ARGUMENT },
    };
    const int nbad = (int)(sizeof(bad) / sizeof(bad[0]));
    for (int i = 0; i < nbad; ++i)
    {
        memset(&h, 0xa5, sizeof(h));
        PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &bad[i].ray, &h), bad[i].expected);
        PX_CHECK(hit_cleared(&h));
        memset(&h, 0xa5, sizeof(h));
        PX_CHECK_STATUS(px_mesh_ray_cast_sided(mesh, &bad[i].ray, PX_TRIANGLE_FRONT_ONLY, &h),
                        bad[i].expected);
        PX_CHECK(hit_cleared(&h));
        bool any = true;
        PX_CHECK_STATUS(px_mesh_ray_cast_any(mesh, &bad[i].ray, &any), bad[i].expected);
        PX_CHECK(!any);
    }
    /* max_t = -0.0 and 0 are valid: only a hit at t = 0 counts */
    px_ray zero_t = good;
    zero_t.max_t = -0.0f;
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &zero_t, &h), PX_OK);
    PX_CHECK(!h.hit);
    zero_t.origin[2] = 0.0f;
    zero_t.max_t = 0.0f;
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &zero_t, &h), PX_OK);
    PX_CHECK(h.hit && h.t == 0.0f && h.triangle == 0);
    /* NULL arguments, bad sides */
    memset(&h, 0xa5, sizeof(h));
    PX_CHECK_STATUS(px_mesh_ray_cast(NULL, &good, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(hit_cleared(&h));
    memset(&h, 0xa5, sizeof(h));
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, NULL, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(hit_cleared(&h));
    PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &good, NULL), PX_ERR_INVALID_ARGUMENT);
    memset(&h, 0xa5, sizeof(h));
    PX_CHECK_STATUS(px_mesh_ray_cast_sided(mesh, &good, (px_triangle_sides)7, &h), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(hit_cleared(&h));
    bool any = true;
    PX_CHECK_STATUS(px_mesh_ray_cast_any(NULL, &good, &any), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(!any);
    any = true;
    PX_CHECK_STATUS(px_mesh_ray_cast_any(mesh, NULL, &any), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(!any);
    PX_CHECK_STATUS(px_mesh_ray_cast_any(mesh, &good, NULL), PX_ERR_INVALID_ARGUMENT);

    /* batch: argument errors, and the first failing ray's status with every other ray still cast */
    px_ray rays[8];
    px_ray_hit hits[8];
    for (int i = 0; i < 8; ++i)
    {
        rays[i] = good;
        rays[i].origin[0] = -0.5f + 0.125f * (float)i;
    }
    PX_CHECK_STATUS(px_mesh_ray_cast_batch(NULL, rays, 8, hits, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, NULL, 8, hits, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, rays, 8, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, rays, -1, hits, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, NULL, 0, NULL, NULL), PX_OK);
    rays[3].direction[2] = 0.0f; /* degenerate */
    rays[5].origin[1] = NAN;     /* non-finite */
    px_task_system pool = px_thread_pool_task_system(g_pool);
    for (int pass = 0; pass < 2; ++pass)
    {
        memset(hits, 0xa5, sizeof(hits));
        PX_CHECK_STATUS(px_mesh_ray_cast_batch(mesh, rays, 8, hits, pass ? &pool : NULL),
                        PX_ERR_DEGENERATE_INPUT);
        for (int i = 0; i < 8; ++i)
        {
            if (i == 3 || i == 5)
            {
                PX_CHECK(hit_cleared(&hits[i]));
            }
            else
            {
                PX_CHECK_STATUS(px_mesh_ray_cast(mesh, &rays[i], &h), PX_OK);
                PX_CHECK(hits[i].hit && same_hit(&hits[i], &h));
            }
        }
    }

    /* closest point */
    const float p[3] = { 0.1f, 0.2f, 3.0f };
    px_point_result pr;
    const float badp[3][3] = { { NAN, 0, 0 }, { 0, INFINITY, 0 }, { 0, 0, -INFINITY } };
    for (int i = 0; i < 3; ++i)
    {
        memset(&pr, 0xa5, sizeof(pr));
        PX_CHECK_STATUS(px_mesh_closest_point(mesh, badp[i], INFINITY, &pr), PX_ERR_NON_FINITE);
        PX_CHECK(point_cleared(&pr));
    }
    const float bad_md[3] = { -1.0f, NAN, -INFINITY };
    for (int i = 0; i < 3; ++i)
    {
        memset(&pr, 0xa5, sizeof(pr));
        PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, bad_md[i], &pr), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(point_cleared(&pr));
    }
    memset(&pr, 0xa5, sizeof(pr));
    PX_CHECK_STATUS(px_mesh_closest_point(NULL, p, INFINITY, &pr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(point_cleared(&pr));
    memset(&pr, 0xa5, sizeof(pr));
    PX_CHECK_STATUS(px_mesh_closest_point(mesh, NULL, INFINITY, &pr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(point_cleared(&pr));
    PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, INFINITY, NULL), PX_ERR_INVALID_ARGUMENT);
    /* reach: distance to triangle 1 (the one at z in [0, 1]) is below 3; nothing within 0.5 */
    memset(&pr, 0xa5, sizeof(pr));
    PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, 0.5f, &pr), PX_OK);
    PX_CHECK(point_cleared(&pr));
    PX_CHECK_STATUS(px_mesh_closest_point(mesh, p, 3.0f, &pr), PX_OK);
    PX_CHECK(pr.found && pr.triangle == 1 && pr.distance < 3.0f);

    /* boxes */
    px_aabb box = { { -2, -2, -2 }, { 2, 2, 2 } };
    int32_t out[4];
    int count = -1;
    gather gt = { out, 0, 4, 0 };
    PX_CHECK_STATUS(px_mesh_query_aabb(NULL, &box, gather_fn, &gt), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_query_aabb(mesh, NULL, gather_fn, &gt), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_query_aabb(mesh, &box, NULL, &gt), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(gt.count == 0);
    for (int k = 0; k < 6; ++k)
    {
        px_aabb nb = box;
        if (k < 3)
        {
            nb.min[k] = NAN;
        }
        else
        {
            nb.max[k - 3] = NAN;
        }
        PX_CHECK_STATUS(px_mesh_query_aabb(mesh, &nb, gather_fn, &gt), PX_ERR_NON_FINITE);
        PX_CHECK(gt.count == 0);
        count = -1;
        PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &nb, out, 4, &count), PX_ERR_NON_FINITE);
        PX_CHECK(count == 0);
    }
    count = -1;
    PX_CHECK_STATUS(px_mesh_overlap_aabb(NULL, &box, out, 4, &count), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    count = -1;
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, NULL, out, 4, &count), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &box, out, 4, NULL), PX_ERR_INVALID_ARGUMENT);
    count = -1;
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &box, out, -1, &count), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    count = -1;
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &box, NULL, 4, &count), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    /* capacity 0 only counts */
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &box, NULL, 0, &count), PX_WARN_CAPACITY);
    PX_CHECK(count == 2);
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &box, out, 4, &count), PX_OK);
    PX_CHECK(count == 2 && out[0] == 0 && out[1] == 1);
    /* touching the top vertex (0, 0, 1) exactly: only triangle 1 */
    px_aabb touch = { { 0, 0, 1 }, { 5, 5, 5 } };
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &touch, out, 4, &count), PX_OK);
    PX_CHECK(count == 1 && out[0] == 1);
    /* inverted boxes find nothing (mesh.h), also when a triangle spans the gap between max and min: here
     * both triangles' x range [-1, 1] meets min.x = 1 and max.x = -1 */
    px_aabb inv = { { 1, -2, -2 }, { -1, 2, 2 } };
    PX_CHECK_STATUS(px_mesh_overlap_aabb(mesh, &inv, out, 4, &count), PX_OK);
    int inverted_found = count;
    gt.count = 0;
    PX_CHECK_STATUS(px_mesh_query_aabb(mesh, &inv, gather_fn, &gt), PX_OK);
    px_mesh_destroy(mesh);
    if (inverted_found != 0 || gt.count != 0)
    {
        printf("    inverted box min.x 1 > max.x -1: overlap_aabb found %d triangles, query_aabb %d "
               "(expected 0)\n",
               inverted_found, gt.count);
    }
    PX_CHECK(inverted_found == 0 && gt.count == 0);
    return 0;
}

static const char* temp_obj = "px_test_mesh_tmp.obj";

static bool write_text(const char* path, const char* text)
{
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        return false;
    }
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

static int bad_obj(void)
{
    subtest_begin();
    typedef struct broken
    {
        const char* text;
        int line;
    } broken;
    const broken cases[] = {
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 4 },
        { "v 0 0 0\nv 1 x 0\nv 0 1 0\nf 1 2 3\n", 2 },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\n\n# comment\nf 1 2\n", 6 },
        { "v 0 0 0\r\nv 1 0 0\r\nv 0 1 nan\r\nf 1 2 3\r\n", 3 },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 0\n", 4 },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 3 2 -4\n", 5 },
        { "v 0 0 0\nv 1 0 0\nv 0 1 1e39\nf 1 2 3\n", 3 },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        PX_CHECK(write_text(temp_obj, cases[i].text));
        px_mesh* mesh = (px_mesh*)&g_reported;
        px_obj_error e;
        memset(&e, 0, sizeof(e));
        px_status s = px_mesh_load_obj_report(temp_obj, NULL, &mesh, &e);
        char prefix[32];
        snprintf(prefix, sizeof(prefix), "line %d:", cases[i].line);
        if (s != PX_ERR_PARSE || mesh != NULL || e.line != cases[i].line ||
            strncmp(e.message, prefix, strlen(prefix)) != 0)
        {
            fprintf(stderr, "    broken OBJ %zu: status %s, line %d, message \"%s\"; expected line %d\n", i,
                    px_status_string(s), e.line, e.message, cases[i].line);
            remove(temp_obj);
            return 1;
        }
        mesh = (px_mesh*)&g_reported;
        PX_CHECK_STATUS(px_mesh_load_obj(temp_obj, NULL, &mesh), PX_ERR_PARSE);
        PX_CHECK(mesh == NULL);
    }
    /* a good file with bad options: the mesh error, and no line */
    PX_CHECK(write_text(temp_obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"));
    px_mesh_def def = px_mesh_default_def();
    def.sah_bins = 100;
    px_mesh* mesh = NULL;
    px_obj_error e;
    PX_CHECK_STATUS(px_mesh_load_obj_report(temp_obj, &def, &mesh, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(mesh == NULL && e.line == 0 && e.message[0] != '\0');
    PX_CHECK_STATUS(px_mesh_load_obj_report(temp_obj, NULL, &mesh, &e), PX_OK);
    PX_CHECK(px_mesh_triangle_count(mesh) == 1 && e.line == 0);
    px_mesh_destroy(mesh);
    remove(temp_obj);
    /* missing file */
    mesh = (px_mesh*)&g_reported;
    PX_CHECK_STATUS(px_mesh_load_obj_report("px_test_mesh_does_not_exist.obj", NULL, &mesh, &e), PX_ERR_IO);
    PX_CHECK(mesh == NULL && e.line == 0 && e.message[0] != '\0');
    mesh = (px_mesh*)&g_reported;
    PX_CHECK_STATUS(px_mesh_load_obj("px_test_mesh_does_not_exist.obj", NULL, &mesh), PX_ERR_IO);
    PX_CHECK(mesh == NULL);
    PX_CHECK_STATUS(px_mesh_load_obj_report(NULL, NULL, &mesh, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_load_obj(temp_obj, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Allocation */

static px_mesh_def counting_def(pxt_count_alloc* state, int fail_at)
{
    px_mesh_def def = px_mesh_default_def();
    def.allocator = pxt_count_allocator(state, fail_at);
    return def;
}

static int allocation_failure(void)
{
    subtest_begin();
    geom g = { 0 };
    const double off[3] = { 0, 0, 0 };
    geom_terrain(&g, 12, 9, 1.0, off, 0x7e77a6u);
    geom empty = { 0 };
    const geom* inputs[2] = { &g, &empty };
    for (int in = 0; in < 2; ++in)
    {
        const geom* x = inputs[in];
        pxt_count_alloc state;
        px_mesh_def def = counting_def(&state, 0);
        px_mesh* mesh = NULL;
        PX_CHECK_STATUS(px_mesh_create(x->v, x->nv, x->idx, x->nt, &def, &mesh), PX_OK);
        int total = state.calls;
        /* the stats report exactly what the mesh holds */
        px_mesh_stats st = px_mesh_get_stats(mesh);
        PX_CHECK(state.bytes == (long long)st.memory_bytes);
        px_mesh_destroy(mesh);
        PX_CHECK(state.live == 0 && state.bytes == 0);
        PX_CHECK(total >= 1);
        for (int k = 1; k <= total; ++k)
        {
            def = counting_def(&state, k);
            mesh = (px_mesh*)&g_reported;
            px_status s = px_mesh_create(x->v, x->nv, x->idx, x->nt, &def, &mesh);
            if (s != PX_ERR_OUT_OF_MEMORY || mesh != NULL || state.live != 0 || state.bytes != 0)
            {
                fprintf(stderr,
                        "    failing allocation %d of %d: status %s, mesh %s, %d blocks / %lld bytes live\n",
                        k, total, px_status_string(s), mesh == NULL ? "NULL" : "set", state.live,
                        state.bytes);
                return 1;
            }
        }
        printf("    %d triangles: each of the %d allocations failed in turn, nothing leaked\n", x->nt, total);
    }
    /* through the OBJ loader too */
    char text[4096];
    int len = 0;
    for (int i = 0; i < 25; ++i)
    {
        len += snprintf(text + len, sizeof(text) - (size_t)len, "v %d %d %d\n", i % 5, i / 5, (i * 7) % 3);
    }
    for (int i = 0; i < 16; ++i)
    {
        int a = 1 + (i % 4) + 5 * (i / 4);
        len += snprintf(text + len, sizeof(text) - (size_t)len, "f %d %d %d %d\n", a, a + 1, a + 6, a + 5);
    }
    PX_CHECK(write_text(temp_obj, text));
    pxt_count_alloc state;
    px_mesh_def def = counting_def(&state, 0);
    px_mesh* mesh = NULL;
    px_obj_error e;
    PX_CHECK_STATUS(px_mesh_load_obj_report(temp_obj, &def, &mesh, &e), PX_OK);
    PX_CHECK(px_mesh_triangle_count(mesh) == 32);
    int total = state.calls;
    px_mesh_destroy(mesh);
    PX_CHECK(state.live == 0);
    for (int k = 1; k <= total; ++k)
    {
        def = counting_def(&state, k);
        mesh = (px_mesh*)&g_reported;
        px_status s = px_mesh_load_obj_report(temp_obj, &def, &mesh, &e);
        if (s != PX_ERR_OUT_OF_MEMORY || mesh != NULL || state.live != 0 || e.line != 0)
        {
            fprintf(stderr, "    OBJ load, failing allocation %d of %d: status %s, %d blocks live, line %d\n",
                    k, total, px_status_string(s), state.live, e.line);
            remove(temp_obj);
            return 1;
        }
    }
    remove(temp_obj);
    geom_free(&g);
    return 0;
}

/* DESIGN.md: queries never allocate. The batch cast is a query; with an allocator that fails from the
 * first call after the mesh is built it must still return what single casts return. */
static int batch_without_allocation(void)
{
    subtest_begin();
    geom g = { 0 };
    const double off[3] = { -8, -2, -8 };
    geom_terrain(&g, 16, 16, 1.0, off, 0x7e77a7u);
    pxt_count_alloc state;
    px_mesh_def def = counting_def(&state, 0);
    px_mesh* mesh = NULL;
    PX_CHECK_STATUS(px_mesh_create(g.v, g.nv, g.idx, g.nt, &def, &mesh), PX_OK);
    tmesh m;
    tmesh_init(&m, mesh, "terrain");
    px_rng r = px_rng_seeded(0xba7c4u);
    px_ray rays[200];
    for (int i = 0; i < 200; ++i)
    {
        gen_ray(&m, &r, i % RK_COUNT, &rays[i]);
    }
    state.fail_at = -(state.calls + 1);
    int calls_before = state.calls;
    int fails = check_batch(&m, rays, 200);
    int calls = state.calls - calls_before;
    state.fail_at = 0;
    tmesh_free(&m);
    PX_CHECK(state.live == 0);
    geom_free(&g);
    if (calls != 0)
    {
        printf("    px_mesh_ray_cast_batch called the mesh's allocator %d times\n", calls);
    }
    PX_CHECK(fails == 0 && calls == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Tree options: every leaf size and bin count gives the same answers */

typedef struct answers
{
    px_ray_hit* hits;
    px_point_result* points;
    int* box_counts;
    uint64_t box_hash;
} answers;

static void collect_answers(const px_mesh* mesh, const px_ray* rays, int nr, const float* pts, int np,
                            const px_aabb* boxes, int nb, answers* a)
{
    for (int i = 0; i < nr; ++i)
    {
        px_status s = px_mesh_ray_cast(mesh, &rays[i], &a->hits[i]);
        (void)s;
    }
    for (int i = 0; i < np; ++i)
    {
        px_status s = px_mesh_closest_point(mesh, &pts[3 * i], INFINITY, &a->points[i]);
        (void)s;
    }
    a->box_hash = 0;
    int32_t buf[4096];
    for (int i = 0; i < nb; ++i)
    {
        int count = 0;
        px_status s = px_mesh_overlap_aabb(mesh, &boxes[i], buf, 4096, &count);
        (void)s;
        a->box_counts[i] = count;
        for (int j = 0; j < count && j < 4096; ++j)
        {
            a->box_hash = a->box_hash * UINT64_C(0x100000001b3) + (uint64_t)(buf[j] + 1);
        }
    }
}

static int tree_options(void)
{
    subtest_begin();
    geom g = { 0 }, part = { 0 };
    const double off[3] = { -10, -3, -10 };
    geom_terrain(&g, 20, 20, 1.0, off, 0x7e77a8u);
    px_rng r = px_rng_seeded(0x7a11u);
    const double lo[3] = { -10, -5, -10 }, hi[3] = { 10, 5, 10 };
    geom_soup(&part, &r, 400, lo, hi, 1.5);
    geom_append(&g, &part);
    geom_free(&part);
    const double zero[3] = { 0, 0, 0 };
    geom_icosphere(&part, 2, 4.0, zero);
    geom_append(&g, &part);
    geom_free(&part);

    px_mesh* base = geom_mesh(&g, NULL);
    PX_CHECK(base != NULL);
    tmesh m;
    tmesh_init(&m, base, "options");
    const int nr = scaled(400), np = scaled(100), nb = scaled(60);
    px_ray* rays = xrealloc(NULL, (size_t)nr * sizeof(px_ray));
    float* pts = xrealloc(NULL, (size_t)np * 3 * sizeof(float));
    px_aabb* boxes = xrealloc(NULL, (size_t)nb * sizeof(px_aabb));
    for (int i = 0; i < nr; ++i)
    {
        gen_ray(&m, &r, i % RK_COUNT, &rays[i]);
    }
    for (int i = 0; i < np; ++i)
    {
        float md;
        gen_point(&m, &r, &pts[3 * i], &md);
    }
    for (int i = 0; i < nb; ++i)
    {
        gen_box(&m, &r, &boxes[i]);
    }
    answers want = { xrealloc(NULL, (size_t)nr * sizeof(px_ray_hit)),
                     xrealloc(NULL, (size_t)np * sizeof(px_point_result)),
                     xrealloc(NULL, (size_t)nb * sizeof(int)), 0 };
    answers got = { xrealloc(NULL, (size_t)nr * sizeof(px_ray_hit)),
                    xrealloc(NULL, (size_t)np * sizeof(px_point_result)),
                    xrealloc(NULL, (size_t)nb * sizeof(int)), 0 };
    collect_answers(base, rays, nr, pts, np, boxes, nb, &want);
    int fails = check_tree(&m, 4);
    int configs = 0;
    float min_sah = INFINITY, max_sah = 0.0f;
    for (int leaf = 1; leaf <= PX_MESH_MAX_LEAF_TRIANGLES; ++leaf)
    {
        for (int bins = 4; bins <= 64; bins += MESH_SLOW && bins > 6 && bins < 62 ? 5 : 1)
        {
            px_mesh_def def = px_mesh_default_def();
            def.leaf_triangles = leaf;
            def.sah_bins = bins;
            px_mesh* mesh = NULL;
            PX_CHECK_STATUS(px_mesh_create(g.v, g.nv, g.idx, g.nt, &def, &mesh), PX_OK);
            configs++;
            tmesh view = m;
            view.mesh = mesh;
            fails += check_tree(&view, leaf);
            px_mesh_stats st = px_mesh_get_stats(mesh);
            min_sah = fminf(min_sah, st.sah_cost);
            max_sah = fmaxf(max_sah, st.sah_cost);
            collect_answers(mesh, rays, nr, pts, np, boxes, nb, &got);
            int differ = 0;
            for (int i = 0; i < nr; ++i)
            {
                differ += !same_hit(&want.hits[i], &got.hits[i]);
            }
            for (int i = 0; i < np; ++i)
            {
                differ += memcmp(&want.points[i].distance, &got.points[i].distance, sizeof(float)) != 0 ||
                          want.points[i].triangle != got.points[i].triangle ||
                          memcmp(want.points[i].point, got.points[i].point, sizeof(vec3)) != 0;
            }
            differ += memcmp(want.box_counts, got.box_counts, (size_t)nb * sizeof(int)) != 0 ||
                      want.box_hash != got.box_hash;
            if (differ != 0)
            {
                REPORT("leaf_triangles %d, sah_bins %d: %d answers differ from the default tree's", leaf,
                       bins, differ);
                fails++;
            }
            px_mesh_destroy(mesh);
        }
    }
    printf("    %d triangles, %d option sets (leaf 1..8 x bins 4..64), SAH cost %.3g .. %.3g, all answers "
           "identical: "
           "%s\n",
           m.nt, configs, (double)min_sah, (double)max_sah, fails == 0 ? "yes" : "no");
    free(want.hits);
    free(want.points);
    free(want.box_counts);
    free(got.hits);
    free(got.points);
    free(got.box_counts);
    free(rays);
    free(pts);
    free(boxes);
    tmesh_free(&m);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */

/* The box of all space, (-inf, -inf, -inf) .. (inf, inf, inf), finds every triangle. */
static int infinite_box(void)
{
    subtest_begin();
    int fails = 0;
    px_rng r = px_rng_seeded(0x1bf0u);
    for (int n = 1; n <= 40; n += 13)
    {
        geom g = { 0 };
        const double lo[3] = { -5, -5, -5 }, hi[3] = { 5, 5, 5 };
        geom_soup(&g, &r, n, lo, hi, 1.0);
        px_mesh* mesh = geom_mesh(&g, NULL);
        PX_CHECK(mesh != NULL);
        tmesh m;
        tmesh_init(&m, mesh, "soup");
        px_aabb all = { { -INFINITY, -INFINITY, -INFINITY }, { INFINITY, INFINITY, INFINITY } };
        fails += check_box(&m, &all);
        tmesh_free(&m);
        geom_free(&g);
    }
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* px_mesh_def.tasks: a mesh big enough to build its subtrees as tasks gets the same tree, byte for byte,
 * as the one built on the calling thread. */
static int threaded_build(void)
{
    subtest_begin();
    geom g = { 0 }, part = { 0 };
    const double off[3] = { -60, -5, -40 };
    geom_terrain(&g, 120, 80, 1.0, off, 0x7e77a9u);
    px_rng r = px_rng_seeded(0x7b01u);
    const double lo[3] = { -60, -5, -40 }, hi[3] = { 60, 5, 40 };
    geom_soup(&part, &r, 2000, lo, hi, 2.0);
    geom_append(&g, &part);
    geom_free(&part);
    px_task_system pool = px_thread_pool_task_system(g_pool);
    px_mesh_def def = px_mesh_default_def();
    px_mesh* serial = NULL;
    px_mesh* threaded = NULL;
    PX_CHECK_STATUS(px_mesh_create(g.v, g.nv, g.idx, g.nt, &def, &serial), PX_OK);
    def.tasks = &pool;
    PX_CHECK_STATUS(px_mesh_create(g.v, g.nv, g.idx, g.nt, &def, &threaded), PX_OK);
    px_mesh_stats a = px_mesh_get_stats(serial), b = px_mesh_get_stats(threaded);
    printf(
        "    %d triangles: %d nodes, %d leaves, depth %d, SAH cost %.4g; threaded build: %d, %d, %d, %.4g\n",
        g.nt, a.node_count, a.leaf_count, a.depth, (double)a.sah_cost, b.node_count, b.leaf_count, b.depth,
        (double)b.sah_cost);
    PX_CHECK(a.node_count == b.node_count && a.leaf_count == b.leaf_count && a.depth == b.depth &&
             a.sah_cost == b.sah_cost && a.memory_bytes == b.memory_bytes);
    PX_CHECK(serial->packet_count == threaded->packet_count);
    PX_CHECK(memcmp(serial->nodes, threaded->nodes, (size_t)serial->node_count * sizeof(pxi_mesh_node)) == 0);
    PX_CHECK(memcmp(serial->packets, threaded->packets,
                    (size_t)serial->packet_count * sizeof(pxi_mesh_packet)) == 0);
    tmesh m;
    tmesh_init(&m, threaded, "threaded build");
    int fails = check_tree(&m, 4);
    query_plan plan = { scaled(150), 0, scaled(30), scaled(20), LD_OFF };
    fails += run_queries(&m, 0x7b02u, &plan);
    tmesh_free(&m);
    px_mesh_destroy(serial);
    geom_free(&g);
    print_kinds();
    PX_CHECK(fails == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */

/* Run a subtest and print how long it took. */
#define MESH_SUBTEST(fn)                                                         \
    do                                                                           \
    {                                                                            \
        clock_t mesh_c0_ = clock();                                              \
        PX_RUN_SUBTEST(fn);                                                      \
        printf("    (%.2f s)\n", (double)(clock() - mesh_c0_) / CLOCKS_PER_SEC); \
        fflush(stdout);                                                          \
    } while (0)

int test_mesh(void)
{
    PX_SUITE_BEGIN;
    if (px_thread_pool_create(2, NULL, &g_pool) != PX_OK)
    {
        printf("  px_thread_pool_create(2) failed\n");
        return 1;
    }
    printf("  sample counts %s\n", MESH_SLOW ? "divided by 4 (Debug or sanitizer build)" : "full (Release)");
    MESH_SUBTEST(bad_create);
    MESH_SUBTEST(bad_queries);
    MESH_SUBTEST(bad_obj);
    MESH_SUBTEST(allocation_failure);
    MESH_SUBTEST(empty_mesh);
    MESH_SUBTEST(shared_meshes);
    MESH_SUBTEST(generated_meshes);
    MESH_SUBTEST(degenerate_copies);
    MESH_SUBTEST(degenerate_zero_area);
    MESH_SUBTEST(degenerate_small_meshes);
    MESH_SUBTEST(degenerate_exponential);
    MESH_SUBTEST(direction_scales);
    MESH_SUBTEST(subnormal_direction);
    MESH_SUBTEST(tree_options);
    MESH_SUBTEST(threaded_build);
    MESH_SUBTEST(watertight_generated);
    MESH_SUBTEST(watertight_shared);
    MESH_SUBTEST(batch_without_allocation);
    MESH_SUBTEST(axis_aligned_rays);
    MESH_SUBTEST(shared_edge_t_tie);
    /* last: the subtests that currently stop the process (a crash, or UBSan in a sanitizer build) */
    MESH_SUBTEST(tiny_coordinates);
    MESH_SUBTEST(near_flt_max);
    MESH_SUBTEST(infinite_box);
    MESH_SUBTEST(huge_coordinates);
    px_thread_pool_destroy(g_pool);
    g_pool = NULL;
    PX_SUITE_END;
}
