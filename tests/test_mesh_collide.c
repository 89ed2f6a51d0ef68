/* mesh_collide: convex shapes against triangle meshes (distance, contacts, casts), each checked against
 * brute force over every triangle with the convex-convex queries (px_gjk_distance_world, px_contact_world,
 * px_shape_cast_world, px_gjk_overlap_world), and spheres also against a long-double closest point on every
 * triangle, which shares no code with GJK. Meshes: a terrain grid, an icosphere (queries inside and out), a
 * random triangle soup, FCL's env.obj with pieces of rob.obj as hulls, and Recast's dungeon.obj with a
 * capsule. The casts are also checked for tunnelling: just before the reported fraction, and along a
 * missed sweep, the shape overlaps no triangle.
 *
 * PX_MESH_COLLIDE_TIMING=1 adds a timing of px_mesh_shape_distance (a 64-vertex hull over env.obj) against
 * the brute-force loop, printed only (speed is not asserted in tests). */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "proxima/cast.h"
#include "proxima/contact.h"
#include "proxima/gjk.h"
#include "proxima/hull.h"
#include "proxima/io.h"
#include "proxima/mesh.h"
#include "proxima/mesh_collide.h"
#include "broadphase/mesh_internal.h"
#include "narrowphase/mesh_edges_internal.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

/* ------------------------------------------------------------------------------------------------------ */
/* Meshes and shapes                                                                                       */
/* ------------------------------------------------------------------------------------------------------ */

static px_mesh* make_mesh(const float* v, int nv, const int32_t* idx, int nt, int leaf)
{
    px_mesh_def def = px_mesh_default_def();
    def.leaf_triangles = leaf;
    px_mesh* m = NULL;
    if (px_mesh_create(v, nv, idx, nt, &def, &m) != PX_OK)
    {
        return NULL;
    }
    return m;
}

/* Terrain: an n x n grid of cells of the given size around the origin, y up, rolling hills. */
static px_mesh* make_terrain(int n, float cell, float amp, int leaf)
{
    int nv = (n + 1) * (n + 1), nt = 2 * n * n;
    float* v = malloc(sizeof(float) * 3 * (size_t)nv);
    int32_t* idx = malloc(sizeof(int32_t) * 3 * (size_t)nt);
    if (v == NULL || idx == NULL)
    {
        free(v);
        free(idx);
        return NULL;
    }
    for (int z = 0; z <= n; ++z)
    {
        for (int x = 0; x <= n; ++x)
        {
            float* p = v + 3 * (z * (n + 1) + x);
            p[0] = ((float)x - 0.5f * (float)n) * cell;
            p[2] = ((float)z - 0.5f * (float)n) * cell;
            p[1] = amp *
                   (sinf(0.37f * (float)x) * cosf(0.29f * (float)z) + 0.3f * sinf(1.3f * (float)(x + 2 * z)));
        }
    }
    int t = 0;
    for (int z = 0; z < n; ++z)
    {
        for (int x = 0; x < n; ++x)
        {
            int32_t a = z * (n + 1) + x, b = a + 1, c = a + n + 1, d = c + 1;
            int32_t tri[6] = { a, c, b, b, c, d };
            memcpy(idx + 3 * t, tri, sizeof(tri));
            t += 2;
        }
    }
    px_mesh* m = make_mesh(v, nv, idx, nt, leaf);
    free(v);
    free(idx);
    return m;
}

/* Icosphere of the given radius: an icosahedron subdivided `levels` times, vertices pushed to the sphere.
 * Vertices are not shared between triangles (a soup with exact shared positions). */
static px_mesh* make_icosphere(int levels, float radius)
{
    const float g = 1.6180339887f;
    float base[12][3] = { { -1, g, 0 }, { 1, g, 0 }, { -1, -g, 0 }, { 1, -g, 0 },
                          { 0, -1, g }, { 0, 1, g }, { 0, -1, -g }, { 0, 1, -g },
                          { g, 0, -1 }, { g, 0, 1 }, { -g, 0, -1 }, { -g, 0, 1 } };
    static const int faces[20][3] = { { 0, 11, 5 }, { 0, 5, 1 },  { 0, 1, 7 },   { 0, 7, 10 }, { 0, 10, 11 },
                                      { 1, 5, 9 },  { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 },
                                      { 3, 9, 4 },  { 3, 4, 2 },  { 3, 2, 6 },   { 3, 6, 8 },  { 3, 8, 9 },
                                      { 4, 9, 5 },  { 2, 4, 11 }, { 6, 2, 10 },  { 8, 6, 7 },  { 9, 8, 1 } };
    int nt = 20;
    for (int l = 0; l < levels; ++l)
    {
        nt *= 4;
    }
    float* tris = malloc(sizeof(float) * 9 * (size_t)nt);
    float* tmp = malloc(sizeof(float) * 9 * (size_t)nt);
    int32_t* idx = malloc(sizeof(int32_t) * 3 * (size_t)nt);
    if (tris == NULL || tmp == NULL || idx == NULL)
    {
        free(tris);
        free(tmp);
        free(idx);
        return NULL;
    }
    for (int f = 0; f < 20; ++f)
    {
        for (int c = 0; c < 3; ++c)
        {
            memcpy(tris + 9 * f + 3 * c, base[faces[f][c]], sizeof(float) * 3);
        }
    }
    int count = 20;
    for (int l = 0; l < levels; ++l)
    {
        for (int f = 0; f < count; ++f)
        {
            const float* a = tris + 9 * f;
            const float* b = a + 3;
            const float* c = a + 6;
            float ab[3], bc[3], ca[3];
            for (int k = 0; k < 3; ++k)
            {
                ab[k] = 0.5f * (a[k] + b[k]);
                bc[k] = 0.5f * (b[k] + c[k]);
                ca[k] = 0.5f * (c[k] + a[k]);
            }
            const float* out[4][3] = { { a, ab, ca }, { ab, b, bc }, { ca, bc, c }, { ab, bc, ca } };
            for (int o = 0; o < 4; ++o)
            {
                for (int i = 0; i < 3; ++i)
                {
                    memcpy(tmp + 9 * (4 * f + o) + 3 * i, out[o][i], sizeof(float) * 3);
                }
            }
        }
        count *= 4;
        memcpy(tris, tmp, sizeof(float) * 9 * (size_t)count);
    }
    for (int i = 0; i < 3 * nt; ++i)
    {
        float* p = tris + 3 * i;
        float len = sqrtf(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
        for (int k = 0; k < 3; ++k)
        {
            p[k] *= radius / len;
        }
        idx[i] = i;
    }
    px_mesh* m = make_mesh(tris, 3 * nt, idx, nt, 4);
    free(tris);
    free(tmp);
    free(idx);
    return m;
}

/* Random soup: nt triangles with corners around random centres in a cube of half side `extent`. */
static px_mesh* make_soup(px_rng* rng, int nt, float extent, float tri_size)
{
    float* v = malloc(sizeof(float) * 9 * (size_t)nt);
    int32_t* idx = malloc(sizeof(int32_t) * 3 * (size_t)nt);
    if (v == NULL || idx == NULL)
    {
        free(v);
        free(idx);
        return NULL;
    }
    for (int t = 0; t < nt; ++t)
    {
        float c[3];
        for (int k = 0; k < 3; ++k)
        {
            c[k] = (float)px_rng_range(rng, -extent, extent);
        }
        for (int i = 0; i < 3; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                v[9 * t + 3 * i + k] = c[k] + (float)px_rng_range(rng, -tri_size, tri_size);
            }
            idx[3 * t + i] = 3 * t + i;
        }
    }
    /* a few degenerate triangles: a repeated corner, and three collinear corners */
    if (nt > 2)
    {
        memcpy(v + 3, v, sizeof(float) * 3);
        for (int k = 0; k < 3; ++k)
        {
            v[9 + 6 + k] = 0.5f * (v[9 + k] + v[9 + 3 + k]);
        }
    }
    px_mesh* m = make_mesh(v, 3 * nt, idx, nt, 4);
    free(v);
    free(idx);
    return m;
}

/* Degenerate and nearly degenerate triangles only: collinear corners, repeated corners, a single point,
 * and slivers a millionth as wide as they are long, scattered in a cube of half side `extent`. */
static px_mesh* make_degenerate(px_rng* rng, int nt, float extent)
{
    float* v = malloc(sizeof(float) * 9 * (size_t)nt);
    int32_t* idx = malloc(sizeof(int32_t) * 3 * (size_t)nt);
    if (v == NULL || idx == NULL)
    {
        free(v);
        free(idx);
        return NULL;
    }
    for (int t = 0; t < nt; ++t)
    {
        float* a = v + 9 * t;
        float* b = a + 3;
        float* c = a + 6;
        double u[3];
        px_rng_unit_vector(rng, u);
        double len = px_rng_range(rng, 0.5, 3.0);
        for (int k = 0; k < 3; ++k)
        {
            a[k] = (float)px_rng_range(rng, -extent, extent);
            b[k] = a[k] + (float)(len * u[k]);
        }
        double w[3];
        px_rng_unit_vector(rng, w);
        for (int k = 0; k < 3; ++k)
        {
            switch (t % 4)
            {
            case 0: /* collinear: c between a and b */
                c[k] = a[k] + 0.3f * (b[k] - a[k]);
                break;
            case 1: /* a repeated corner */
                c[k] = b[k];
                break;
            case 2: /* a point */
                b[k] = a[k];
                c[k] = a[k];
                break;
            default: /* a sliver */
                c[k] = 0.5f * (a[k] + b[k]) + (float)(1e-6 * len * w[k]);
                break;
            }
        }
        for (int i = 0; i < 3; ++i)
        {
            idx[3 * t + i] = 3 * t + i;
        }
    }
    px_mesh* m = make_mesh(v, 3 * nt, idx, nt, 4);
    free(v);
    free(idx);
    return m;
}

static bool data_path(const char* file, char* path, size_t size)
{
    snprintf(path, size, "%s/%s", PX_DATA_DIR, file);
    FILE* f = fopen(path, "rb");
    if (f == NULL)
    {
        return false;
    }
    fclose(f);
    return true;
}

/* Load a shared mesh, or NULL (with a message) when the data directory is absent. */
static px_mesh* load_data_mesh(const char* file)
{
    char path[1024];
    if (!data_path(file, path, sizeof(path)))
    {
        printf("    %s not found in %s (set -DPROXIMA_DATA_DIR=...)\n", file, PX_DATA_DIR);
        return NULL;
    }
    px_mesh* m = NULL;
    if (px_mesh_load_obj(path, NULL, &m) != PX_OK)
    {
        return NULL;
    }
    return m;
}

/* A pose with a uniformly random rotation and a position in [lo, hi]. */
static px_transform random_pose(px_rng* r, const float lo[3], const float hi[3])
{
    double q[4];
    px_rng_quat(r, q);
    px_transform t;
    for (int k = 0; k < 4; ++k)
    {
        t.q[k] = (float)q[k];
    }
    for (int k = 0; k < 3; ++k)
    {
        t.p[k] = (float)px_rng_range(r, lo[k], hi[k]);
    }
    return t;
}

#define MAX_SHAPES 12

/* A set of shapes of about the given size; hulls own their built hull. */
typedef struct shape_set
{
    px_shape shapes[MAX_SHAPES];
    const char* names[MAX_SHAPES];
    int count;
    px_hull* hulls[2];
} shape_set;

static px_hull* random_hull(px_rng* r, int n, float size)
{
    float pts[3 * 96];
    for (int i = 0; i < n && i < 96; ++i)
    {
        double u[3];
        px_rng_unit_vector(r, u);
        double s = size * (0.5 + 0.5 * px_rng_unit(r));
        pts[3 * i + 0] = (float)(u[0] * s);
        pts[3 * i + 1] = (float)(u[1] * s * 0.7);
        pts[3 * i + 2] = (float)(u[2] * s);
    }
    px_hull* h = NULL;
    return px_hull_create(pts, n < 96 ? n : 96, NULL, &h) >= 0 ? h : NULL;
}

static void add_shape(shape_set* set, px_shape s, const char* name)
{
    if (set->count < MAX_SHAPES)
    {
        set->names[set->count] = name;
        set->shapes[set->count++] = s;
    }
}

static bool shape_set_init(shape_set* set, px_rng* r, float size)
{
    memset(set, 0, sizeof(*set));
    add_shape(set, px_shape_sphere(0.4f * size), "sphere");
    add_shape(set, px_shape_capsule(0.5f * size, 0.25f * size), "capsule");
    vec3 he = { 0.4f * size, 0.25f * size, 0.6f * size };
    add_shape(set, px_shape_box(he), "box");
    px_shape rb = px_shape_box(he);
    rb.radius = 0.1f * size;
    add_shape(set, rb, "rounded box");
    add_shape(set, px_shape_cylinder(0.4f * size, 0.3f * size), "cylinder");
    add_shape(set, px_shape_cone(0.4f * size, 0.35f * size), "cone");
    add_shape(set, px_shape_point(), "point");
    vec3 a = { -0.5f * size, 0.1f * size, 0.0f }, b = { 0.5f * size, -0.1f * size, 0.2f * size };
    vec3 c = { 0.0f, 0.4f * size, -0.3f * size };
    add_shape(set, px_shape_triangle(a, b, c), "triangle");
    set->hulls[0] = random_hull(r, 40, 0.6f * size);
    set->hulls[1] = random_hull(r, 12, 0.5f * size);
    if (set->hulls[0] == NULL || set->hulls[1] == NULL)
    {
        return false;
    }
    add_shape(set, px_shape_from_hull(set->hulls[0]), "hull");
    px_shape rh = px_shape_from_hull(set->hulls[1]);
    rh.radius = 0.05f * size;
    add_shape(set, rh, "rounded hull");
    return true;
}

static void shape_set_free(shape_set* set)
{
    px_hull_destroy(set->hulls[0]);
    px_hull_destroy(set->hulls[1]);
}

/* Half diagonal of the shape's bounding box and the largest |coordinate| of that box (world). */
static void shape_scale(const px_shape* s, const px_transform* pose, float* size, float* coord)
{
    px_aabb box;
    if (px_shape_aabb(s, pose, &box) != PX_OK)
    {
        *size = 0.0f;
        *coord = 0.0f;
        return;
    }
    float d2 = 0.0f;
    *coord = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        float e = box.max[k] - box.min[k];
        d2 += e * e;
        *coord = fmaxf(*coord, fmaxf(fabsf(box.min[k]), fabsf(box.max[k])));
    }
    *size = 0.5f * sqrtf(d2);
}

/* Triangle t of the mesh (mesh frame) as a shape. */
static px_shape mesh_triangle(const px_mesh* m, int t)
{
    const float* v = px_mesh_vertices(m);
    const int32_t* idx = px_mesh_indices(m);
    return px_shape_triangle(v + 3 * idx[3 * t], v + 3 * idx[3 * t + 1], v + 3 * idx[3 * t + 2]);
}

/* ------------------------------------------------------------------------------------------------------ */
/* Brute force                                                                                             */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct brute_distance
{
    float distance; /* INFINITY when no triangle */
    int32_t triangle;
    float* per_triangle; /* [triangle count] */
} brute_distance;

static px_status brute_force_distance(const px_mesh* m, const px_transform* mp, const px_shape* s,
                                      const px_transform* sp, brute_distance* out)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    out->distance = INFINITY;
    out->triangle = PX_NULL_INDEX;
    int nt = px_mesh_triangle_count(m);
    for (int t = 0; t < nt; ++t)
    {
        px_shape tri = mesh_triangle(m, t);
        px_gjk_result r;
        px_status st = px_gjk_distance_world(&tri, mp != NULL ? mp : &id, s, sp, NULL, &r);
        if (st < 0)
        {
            return st;
        }
        out->per_triangle[t] = r.distance;
        if (r.distance < out->distance)
        {
            out->distance = r.distance;
            out->triangle = t;
        }
    }
    return PX_OK;
}

/* Distance from a point to triangle t of the mesh (mesh frame), in long double. */
static long double ld_point_triangle(const px_mesh* m, int t, const float p[3])
{
    const float* v = px_mesh_vertices(m);
    const int32_t* idx = px_mesh_indices(m);
    ldv3 a, b, c, lp, q;
    ldv_from_f(v + 3 * idx[3 * t], a);
    ldv_from_f(v + 3 * idx[3 * t + 1], b);
    ldv_from_f(v + 3 * idx[3 * t + 2], c);
    ldv_from_f(p, lp);
    return sqrtl(ld_closest_triangle(lp, a, b, c, q));
}

/* Largest |distance - brute force| / (shape size + distance) seen, for the summary lines. */
static float max_rel_error;

/* Check one distance result against brute force (identity mesh pose). Returns 0 when it agrees. */
static int check_distance(const px_mesh* m, const px_shape* s, const px_transform* sp, float max_distance,
                          float* per_triangle, int* ties, const char* what)
{
    px_mesh_distance_result r;
    px_status st = px_mesh_shape_distance(m, NULL, s, sp, max_distance, &r);
    brute_distance bf = { 0.0f, 0, per_triangle };
    px_status sb = brute_force_distance(m, NULL, s, sp, &bf);
    if (st < 0 || sb < 0)
    {
        fprintf(stderr, "%s: status %s / brute force %s\n", what, px_status_string(st), px_status_string(sb));
        return 1;
    }
    float size, coord;
    shape_scale(s, sp, &size, &coord);
    float d_ref = bf.distance;
    float tol = 1e-5f * (size + (isinf(d_ref) ? 0.0f : d_ref)) + 64.0f * FLT_EPSILON * (coord + size);
    bool expect_found = d_ref <= max_distance;
    if (r.found != expect_found && fabsf(d_ref - max_distance) > tol)
    {
        fprintf(stderr, "%s: found %d, brute force distance %.9g, max_distance %.9g\n", what, r.found, d_ref,
                max_distance);
        return 1;
    }
    if (!r.found)
    {
        PX_CHECK(r.triangle == PX_NULL_INDEX && r.distance == 0.0f && !r.overlap);
        return 0;
    }
    if (!(fabsf(r.distance - d_ref) <= tol))
    {
        fprintf(stderr, "%s: distance %.9g, brute force %.9g (triangle %d vs %d), tol %.3g\n", what,
                r.distance, d_ref, r.triangle, bf.triangle, tol);
        return 1;
    }
    float rel = fabsf(r.distance - d_ref) / (size + d_ref);
    max_rel_error = rel > max_rel_error ? rel : max_rel_error;
    PX_CHECK(r.triangle >= 0 && r.triangle < px_mesh_triangle_count(m));
    if (r.triangle != bf.triangle)
    {
        /* a tie: the triangle reported must be as near as the brute-force one */
        if (!(fabsf(per_triangle[r.triangle] - d_ref) <= tol))
        {
            fprintf(stderr, "%s: triangle %d at %.9g, brute force %d at %.9g\n", what, r.triangle,
                    per_triangle[r.triangle], bf.triangle, d_ref);
            return 1;
        }
        ++*ties;
    }
    PX_CHECK(r.overlap == (r.distance == 0.0f));
    /* the witness points: on the triangle, distance apart along the normal */
    float ptol = tol + 1e-4f * size;
    PX_CHECK((float)ld_point_triangle(m, r.triangle, r.point_mesh) <= ptol);
    if (!r.overlap)
    {
        float nn = sqrtf(r.normal[0] * r.normal[0] + r.normal[1] * r.normal[1] + r.normal[2] * r.normal[2]);
        PX_CHECK_NEAR(nn, 1.0f, 1e-4f);
        for (int k = 0; k < 3; ++k)
        {
            PX_CHECK_NEAR(r.point_shape[k], r.point_mesh[k] + r.distance * r.normal[k], ptol);
        }
    }
    else
    {
        PX_CHECK(r.normal[0] == 0.0f && r.normal[1] == 0.0f && r.normal[2] == 0.0f);
    }
    /* spheres: an oracle that shares no code with GJK */
    if (s->type == PX_SHAPE_SPHERE || (s->type == PX_SHAPE_POINT))
    {
        long double best = INFINITY;
        for (int t = 0; t < px_mesh_triangle_count(m); ++t)
        {
            long double d = ld_point_triangle(m, t, sp->p);
            best = d < best ? d : best;
        }
        best -= s->radius;
        float exact = best > 0.0L ? (float)best : 0.0f;
        if (!(fabsf(r.distance - exact) <= tol))
        {
            fprintf(stderr, "%s: sphere distance %.9g, exact %.9g\n", what, r.distance, exact);
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Distance                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

/* Random queries around a mesh: poses in [lo, hi], every shape of the set, some with a finite max_distance.
 */
static int distance_queries(const px_mesh* m, shape_set* set, px_rng* rng, const float lo[3],
                            const float hi[3], int queries, const char* name)
{
    float* per = malloc(sizeof(float) * (size_t)px_mesh_triangle_count(m));
    PX_CHECK(per != NULL);
    int ties = 0, overlaps = 0, fails = 0, calls = 0;
    max_rel_error = 0.0f;
    for (int i = 0; i < queries && fails == 0; ++i)
    {
        const px_shape* s = &set->shapes[i % set->count];
        px_transform pose = random_pose(rng, lo, hi);
        float max_d = INFINITY;
        if (i % 5 == 3)
        {
            max_d = (float)px_rng_range(rng, 0.0, 0.5 * (hi[1] - lo[1]));
        }
        char what[128];
        snprintf(what, sizeof(what), "%s query %d (%s)", name, i, set->names[i % set->count]);
        fails += check_distance(m, s, &pose, max_d, per, &ties, what);
        px_mesh_distance_result r;
        if (px_mesh_shape_distance(m, NULL, s, &pose, max_d, &r) >= 0)
        {
            overlaps += r.overlap;
            calls += r.gjk_calls;
        }
    }
    free(per);
    printf("    %-10s %d queries: %d overlapping, %d ties, %.1f GJK calls per query (%d triangles), error <= "
           "%.1e (size + distance)\n",
           name, queries, overlaps, ties, (double)calls / queries, px_mesh_triangle_count(m),
           (double)max_rel_error);
    return fails;
}

/* distance_queries on a generated mesh m (destroyed here) with the shape set of size `size`, both drawn from
 * rng in that order (the mesh is made by the caller's argument). */
static int distance_generated(px_mesh* m, px_rng* rng, float size, const float lo[3], const float hi[3],
                              int queries, const char* name)
{
    PX_CHECK(m != NULL);
    shape_set set;
    PX_CHECK(shape_set_init(&set, rng, size));
    int fails = distance_queries(m, &set, rng, lo, hi, queries, name);
    shape_set_free(&set);
    px_mesh_destroy(m);
    return fails;
}

static int distance_terrain(void)
{
    px_rng rng = px_rng_seeded(101);
    const float lo[3] = { -17.0f, -2.5f, -17.0f }, hi[3] = { 17.0f, 4.0f, 17.0f };
    return distance_generated(make_terrain(32, 1.0f, 1.5f, 4), &rng, 1.0f, lo, hi, 400, "terrain");
}

static int distance_icosphere(void)
{
    px_rng rng = px_rng_seeded(102);
    const float lo[3] = { -14.0f, -14.0f, -14.0f }, hi[3] = { 14.0f, 14.0f, 14.0f };
    return distance_generated(make_icosphere(3, 10.0f), &rng, 1.5f, lo, hi, 300, "icosphere");
}

static int distance_soup(void)
{
    px_rng rng = px_rng_seeded(103);
    const float lo[3] = { -12.0f, -12.0f, -12.0f }, hi[3] = { 12.0f, 12.0f, 12.0f };
    return distance_generated(make_soup(&rng, 600, 10.0f, 1.5f), &rng, 1.0f, lo, hi, 300, "soup");
}

static int distance_degenerate(void)
{
    px_rng rng = px_rng_seeded(108);
    const float lo[3] = { -9.0f, -9.0f, -9.0f }, hi[3] = { 9.0f, 9.0f, 9.0f };
    return distance_generated(make_degenerate(&rng, 400, 8.0f), &rng, 1.0f, lo, hi, 300, "degenerate");
}

/* Pieces of rob.obj: the hulls of the k rob vertices nearest a random rob vertex. */
typedef struct rob_pieces
{
    px_hull* hulls[8];
    int count;
} rob_pieces;

static bool rob_pieces_init(rob_pieces* rp, px_rng* rng, int vertices_per_piece, int max_hull_vertices)
{
    memset(rp, 0, sizeof(*rp));
    char path[1024];
    if (!data_path("rob.obj", path, sizeof(path)))
    {
        return false;
    }
    px_obj_data d;
    if (px_obj_load(path, NULL, &d, NULL) != PX_OK)
    {
        return false;
    }
    int n = d.vertex_count;
    float* dist = malloc(sizeof(float) * (size_t)n);
    float* pts = malloc(sizeof(float) * 3 * (size_t)n);
    bool ok = dist != NULL && pts != NULL;
    for (int piece = 0; ok && piece < 8; ++piece)
    {
        const float* c = d.vertices + 3 * px_rng_int(rng, n);
        for (int i = 0; i < n; ++i)
        {
            const float* p = d.vertices + 3 * i;
            dist[i] =
                (p[0] - c[0]) * (p[0] - c[0]) + (p[1] - c[1]) * (p[1] - c[1]) + (p[2] - c[2]) * (p[2] - c[2]);
        }
        /* the k nearest by repeated selection (n is small) */
        int k = vertices_per_piece < n ? vertices_per_piece : n;
        for (int j = 0; j < k; ++j)
        {
            int best = -1;
            for (int i = 0; i < n; ++i)
            {
                if (dist[i] >= 0.0f && (best < 0 || dist[i] < dist[best]))
                {
                    best = i;
                }
            }
            memcpy(pts + 3 * j, d.vertices + 3 * best, sizeof(float) * 3);
            dist[best] = -1.0f;
        }
        px_hull_def def = px_hull_default_def();
        def.max_vertices = max_hull_vertices;
        ok = px_hull_create(pts, k, &def, &rp->hulls[piece]) >= 0;
        rp->count += ok;
    }
    free(dist);
    free(pts);
    px_obj_free(&d);
    return ok;
}

static void rob_pieces_free(rob_pieces* rp)
{
    for (int i = 0; i < rp->count; ++i)
    {
        px_hull_destroy(rp->hulls[i]);
    }
}

static int distance_env_rob(void)
{
    px_mesh* m = load_data_mesh("env.obj");
    if (m == NULL)
    {
        return PX_TEST_SKIP;
    }
    px_rng rng = px_rng_seeded(104);
    rob_pieces rp;
    bool ok = rob_pieces_init(&rp, &rng, 200, 0);
    int fails = ok ? 0 : 1;
    shape_set set;
    memset(&set, 0, sizeof(set));
    for (int i = 0; i < rp.count; ++i)
    {
        add_shape(&set, px_shape_from_hull(rp.hulls[i]), "rob piece");
    }
    add_shape(&set, px_shape_capsule(300.0f, 150.0f), "capsule");
    /* FCL's scene: the robot anywhere in the environment's box */
    float lo[3] = { -3000.0f, -3000.0f, -200.0f }, hi[3] = { 3000.0f, 3000.0f, 3000.0f };
    if (fails == 0)
    {
        fails = distance_queries(m, &set, &rng, lo, hi, 240, "env/rob");
    }
    rob_pieces_free(&rp);
    px_mesh_destroy(m);
    return fails;
}

static int distance_dungeon(void)
{
    px_mesh* m = load_data_mesh("dungeon.obj");
    if (m == NULL)
    {
        return PX_TEST_SKIP;
    }
    px_rng rng = px_rng_seeded(105);
    shape_set set;
    memset(&set, 0, sizeof(set));
    add_shape(&set, px_shape_capsule(0.5f, 0.4f), "capsule");
    add_shape(&set, px_shape_sphere(0.3f), "sphere");
    float lo[3] = { -25.0f, 0.0f, -90.0f }, hi[3] = { 49.0f, 40.0f, 9.0f };
    int fails = distance_queries(m, &set, &rng, lo, hi, 120, "dungeon");
    px_mesh_destroy(m);
    return fails;
}

/* Results do not depend on the tree: the same mesh built with leaves of 1 and of 8 triangles. */
static int distance_tree_independent(void)
{
    px_rng rng = px_rng_seeded(106);
    px_mesh* m1 = make_terrain(24, 1.0f, 1.5f, 1);
    px_mesh* m8 = make_terrain(24, 1.0f, 1.5f, 8);
    PX_CHECK(m1 != NULL && m8 != NULL);
    shape_set set;
    PX_CHECK(shape_set_init(&set, &rng, 1.0f));
    float lo[3] = { -13.0f, -2.0f, -13.0f }, hi[3] = { 13.0f, 4.0f, 13.0f };
    int fails = 0;
    for (int i = 0; i < 200 && fails == 0; ++i)
    {
        const px_shape* s = &set.shapes[i % set.count];
        px_transform pose = random_pose(&rng, lo, hi);
        px_mesh_distance_result a, b;
        PX_CHECK(px_mesh_shape_distance(m1, NULL, s, &pose, INFINITY, &a) >= 0);
        PX_CHECK(px_mesh_shape_distance(m8, NULL, s, &pose, INFINITY, &b) >= 0);
        float size, coord;
        shape_scale(s, &pose, &size, &coord);
        float tol = 1e-5f * (size + a.distance) + 64.0f * FLT_EPSILON * (coord + size);
        PX_CHECK_NEAR(a.distance, b.distance, tol);
        if (a.triangle != b.triangle && !(fabsf(a.distance - b.distance) <= tol))
        {
            fails++;
        }
        /* the same query twice: identical bits */
        px_mesh_distance_result c;
        PX_CHECK(px_mesh_shape_distance(m1, NULL, s, &pose, INFINITY, &c) >= 0);
        PX_CHECK(memcmp(&a, &c, sizeof(a)) == 0);
    }
    shape_set_free(&set);
    px_mesh_destroy(m1);
    px_mesh_destroy(m8);
    return fails;
}

/* A posed mesh gives the answers of the shape moved into the mesh frame. */
static int distance_mesh_pose(void)
{
    px_rng rng = px_rng_seeded(107);
    px_mesh* m = make_terrain(16, 1.0f, 1.5f, 4);
    PX_CHECK(m != NULL);
    shape_set set;
    PX_CHECK(shape_set_init(&set, &rng, 1.0f));
    float lo[3] = { -9.0f, -2.0f, -9.0f }, hi[3] = { 9.0f, 4.0f, 9.0f };
    float plo[3] = { -50.0f, -50.0f, -50.0f }, phi[3] = { 50.0f, 50.0f, 50.0f };
    for (int i = 0; i < 200; ++i)
    {
        const px_shape* s = &set.shapes[i % set.count];
        px_transform local = random_pose(&rng, lo, hi);
        px_transform mp = random_pose(&rng, plo, phi);
        px_transform world;
        px_transform_mul(&mp, &local, &world);
        px_mesh_distance_result a, b;
        PX_CHECK(px_mesh_shape_distance(m, NULL, s, &local, INFINITY, &a) >= 0);
        PX_CHECK(px_mesh_shape_distance(m, &mp, s, &world, INFINITY, &b) >= 0);
        float size, coord;
        shape_scale(s, &world, &size, &coord);
        float tol = 1e-5f * (size + a.distance) + 64.0f * FLT_EPSILON * (coord + size);
        PX_CHECK(a.found && b.found);
        PX_CHECK_NEAR(a.distance, b.distance, tol);
        PX_CHECK(a.triangle == b.triangle || fabsf(a.distance - b.distance) <= tol);
        /* the posed mesh's witness lies on its triangle, in the mesh's frame */
        vec3 pm;
        px_transform_point_inverse(&mp, b.point_mesh, pm);
        PX_CHECK((float)ld_point_triangle(m, b.triangle, pm) <= tol + 1e-4f * size);
        if (a.distance > 10.0f * tol)
        {
            /* apart, the closest points may not be unique (parallel faces) but their difference is: the
             * normal and the vector between the witnesses, carried by the mesh pose */
            vec3 nw, dw;
            px_transform_vector(&mp, a.normal, nw);
            vec3 da = { a.point_shape[0] - a.point_mesh[0], a.point_shape[1] - a.point_mesh[1],
                        a.point_shape[2] - a.point_mesh[2] };
            px_transform_vector(&mp, da, dw);
            /* GJK stops on a relative duality gap of 1e-6 in |v|^2: the direction is good to about 1e-3 */
            PX_CHECK_NEAR3(nw, b.normal, 4e-3f);
            for (int k = 0; k < 3; ++k)
            {
                PX_CHECK_NEAR(dw[k], b.point_shape[k] - b.point_mesh[k], 4.0f * tol + 4e-3f * a.distance);
            }
        }
    }
    shape_set_free(&set);
    px_mesh_destroy(m);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Contacts                                                                                                */
/* ------------------------------------------------------------------------------------------------------ */

/* A pose near the surface: on a random triangle, offset along its normal by [-depth, depth]. */
static px_transform surface_pose(const px_mesh* m, px_rng* rng, float depth)
{
    int t = px_rng_int(rng, px_mesh_triangle_count(m));
    const float* v = px_mesh_vertices(m);
    const int32_t* idx = px_mesh_indices(m);
    const float* a = v + 3 * idx[3 * t];
    const float* b = v + 3 * idx[3 * t + 1];
    const float* c = v + 3 * idx[3 * t + 2];
    double u = px_rng_unit(rng), w = px_rng_unit(rng);
    if (u + w > 1.0)
    {
        u = 1.0 - u;
        w = 1.0 - w;
    }
    double e1[3], e2[3], n[3];
    for (int k = 0; k < 3; ++k)
    {
        e1[k] = (double)b[k] - a[k];
        e2[k] = (double)c[k] - a[k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double off = px_rng_range(rng, -depth, depth) / (len > 0.0 ? len : 1.0);
    float lo[3] = { 0, 0, 0 };
    px_transform pose = random_pose(rng, lo, lo);
    for (int k = 0; k < 3; ++k)
    {
        pose.p[k] = (float)(a[k] + u * e1[k] + w * e2[k] + off * n[k]);
    }
    return pose;
}

typedef struct contact_stats
{
    int queries, contacts, penetrating, borderline, alternative, corrected;
} contact_stats;

/* Triangle t of mesh m posed by mp (NULL: the identity), its corners into w. */
static void posed_triangle(const px_mesh* m, const px_transform* mp, int t, vec3 w[3])
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_shape tri = mesh_triangle(m, t);
    px_transform_point(mp != NULL ? mp : &id, tri.triangle.a, w[0]);
    px_transform_point(mp != NULL ? mp : &id, tri.triangle.b, w[1]);
    px_transform_point(mp != NULL ? mp : &id, tri.triangle.c, w[2]);
}

/* What px_mesh_shape_contacts does to a triangle's contact on its inactive edges, or pointing over a
 * neighbour (mesh_edges_internal.h), on
 * a brute-force contact in world space: the triangle (shape A) posed by mp (NULL: identity), the shape s at
 * sp. */
static void correct_contact(const px_mesh* m, const px_transform* mp, int t, const px_shape* s,
                            const px_transform* sp, px_contact* c)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    vec3 w[3];
    posed_triangle(m, mp, t, w);
    px_transform spn;
    if (px_transform_normalized(sp, &spn) != PX_OK ||
        pxi_contact_correct_edges(c, w[0], w[1], w[2], px_mesh_active_edges(m)[t], s, &spn))
    {
        return;
    }
    /* the neighbour rule, from the far vertices across the edges */
    const int32_t* adj = pxi_mesh_edge_adj(m);
    vec3 fw[3];
    const float* far[3];
    for (int i = 0; i < 3; ++i)
    {
        far[i] = NULL;
        if (adj[3 * t + i] >= 0)
        {
            px_transform_point(mp != NULL ? mp : &id, &px_mesh_vertices(m)[3 * pxi_mesh_adj_far_vertex(m, adj[3 * t + i])], fw[i]);
            far[i] = fw[i];
        }
    }
    vec3 n;
    const float* plane_point = NULL;
    int edge = -1;
    if (pxi_edge_neighbour_normal(w[0], w[1], w[2], far, c->normal, c->point_a, n, &plane_point, &edge))
    {
        px_contact turned = *c;
        if (pxi_contact_along(&turned, plane_point, n, s, &spn) &&
            pxi_edge_neighbour_holds(w[0], w[1], w[2], edge, far[edge], &turned, c->distance))
        {
            *c = turned;
        }
    }
}

/* The brute force of a contact query: px_contact_world on a triangle, and the same with the internal-edge
 * correction (equal when it does not apply). */
typedef struct brute_contact
{
    px_contact raw;
    px_contact corrected;
    px_contact tied;  /* corrected from another witness on an edge normal to the raw normal (has_tied) */
    bool has_tied;
    bool optional; /* the vertex rule may drop it */
} brute_contact;

/* A deep contact whose normal is normal to an edge of the triangle has that edge (the part within the
 * shape) as its witness, and EPA returns any point of it: at an end that is also on an active edge, the
 * rules keep the raw normal; inside it, they may correct it (a capsule through a dungeon floor, its
 * witness at the end of an inactive edge where an active one meets it: -0.280 raw in the world, -0.600
 * corrected in the query's frame, PX_TEST_SEED 30). The correction from the witness moved to the middle of
 * such an edge, into b->tied when it differs from b->corrected. "Normal to the edge" is within EPA's
 * direction tolerance (about sqrt(2e-4) = 1.4e-2 rad from its relative depth tolerance): a cylinder 0.19
 * into a terrain vertex, one of whose edges is 0.0085 rad from normal to the world's EPA normal, had its
 * witness on that edge in the query's frame, and the neighbour rule turned the contact to the neighbour's
 * normal, 0.49 deep (PX_TEST_SEED 60). */
static void tied_alternative(const px_mesh* m, const px_transform* mp, int t, const px_shape* s,
                             const px_transform* sp, float tol, brute_contact* b)
{
    b->has_tied = false;
    vec3 w[3];
    posed_triangle(m, mp, t, w);
    for (int i = 0; i < 3 && !b->has_tied; ++i)
    {
        const float* p0 = w[i];
        const float* p1 = w[(i + 1) % 3];
        vec3 e, r, mid;
        px_v3_sub(p1, p0, e);
        const float len = px_v3_norm(e);
        px_v3_sub(b->raw.point_a, p0, r);
        const float along = len > 0.0f ? px_v3_dot(r, e) / (len * len) : -1.0f;
        vec3 foot;
        px_v3_mad(p0, along, e, foot);
        if (!(along >= 0.0f && along <= 1.0f) || !(px_v3_distance2(foot, b->raw.point_a) <= tol * tol) ||
            !(fabsf(px_v3_dot(e, b->raw.normal)) <= 1.5e-2f * len))
        {
            continue;
        }
        px_v3_add(p0, p1, mid);
        px_v3_scale(mid, 0.5f, mid);
        px_contact moved = b->raw;
        px_v3_copy(mid, moved.point_a);
        correct_contact(m, mp, t, s, sp, &moved);
        if (moved.distance != b->corrected.distance)
        {
            b->tied = moved;
            b->has_tied = true;
        }
    }
}

/* Whether the query may drop the contact of triangle t (raw, triangle as A, world frame) by the vertex rule
 * (mesh_edges_internal.h): its witness at a vertex an edge of whose one-ring climbs towards the shape, and a
 * triangle on that edge with a raw contact (bf) deeper by more than `deeper`. At half the query's climb
 * threshold, so that rounding on either side of it leaves the contact optional, never required; on the raw
 * contact, whether or not an edge rule then changes it. */
static bool vertex_ghost_contact(const px_mesh* m, const px_transform* mp, int t, const px_contact* c,
                                 const brute_contact* bf, float deeper)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    vec3 w[3];
    posed_triangle(m, mp, t, w);
    const uint8_t* active = px_mesh_active_edges(m);
    const unsigned flags = active != NULL ? active[t] : 0x3Fu;
    const unsigned either = (flags | (flags >> 3)) & 7u;
    int k = pxi_witness_vertex(w[0], w[1], w[2], c->point_a, c->normal, either);
    if (k < 0)
    {
        /* An edge contact by the tie with an active edge at the corner (its sine with the normal below
         * PXI_WITNESS_EDGE_SIN) is a vertex one in the query's frame when its EPA normal leans the other way
         * of the threshold: a robot piece 18 deep in env.obj, the sine 0.005 in the world, was dropped as a
         * ghost by the query (PX_TEST_SEED=82). Within half the threshold of it, the rule may go either way. */
        const int k0 = pxi_witness_vertex(w[0], w[1], w[2], c->point_a, c->normal, 0u);
        if (k0 < 0)
        {
            return false;
        }
        float least = INFINITY;
        const int at[2] = { k0, k0 == 0 ? 2 : k0 - 1 }; /* edge i runs from corner i to corner i + 1 */
        for (int j = 0; j < 2; ++j)
        {
            if ((either & (1u << at[j])) != 0u)
            {
                vec3 e;
                px_v3_sub(w[(at[j] + 1) % 3], w[at[j]], e);
                least = fminf(least, fabsf(px_v3_dot(e, c->normal)) / px_v3_norm(e));
            }
        }
        if (!(least >= 0.5f * PXI_WITNESS_EDGE_SIN))
        {
            return false;
        }
        k = k0;
    }
    int32_t ring[16][2];
    const int count = pxi_mesh_vertex_ring(m, t, k, ring, 16);
    vec3 rw[32];
    for (int i = 0; i < count; ++i)
    {
        for (int j = 0; j < 2; ++j)
        {
            px_transform_point(mp != NULL ? mp : &id, &px_mesh_vertices(m)[3 * ring[i][j]], rw[2 * i + j]);
        }
    }
    const int climb = pxi_vertex_contact_climb(w[k], (const float(*)[3])rw, 2 * count, c->normal, 0.5f * PXI_EDGE_OUT_MIN);
    if (climb < 0)
    {
        return false;
    }
    /* a triangle on the climbing edge (from v to u) with a deeper raw contact: the triangles holding both
     * positions, found by brute force over the mesh */
    const float* pv = &px_mesh_vertices(m)[3 * px_mesh_indices(m)[3 * t + k]];
    const float* pu = &px_mesh_vertices(m)[3 * ring[climb / 2][climb % 2]];
    for (int o = 0; o < px_mesh_triangle_count(m); ++o)
    {
        int has_v = 0, has_u = 0;
        for (int j = 0; j < 3; ++j)
        {
            const float* p = &px_mesh_vertices(m)[3 * px_mesh_indices(m)[3 * o + j]];
            has_v |= p[0] == pv[0] && p[1] == pv[1] && p[2] == pv[2];
            has_u |= p[0] == pu[0] && p[1] == pu[1] && p[2] == pu[2];
        }
        if (o != t && has_v && has_u && bf[o].raw.distance < c->distance - deeper)
        {
            return true;
        }
    }
    return false;
}


/* Smallest and largest distance the query may report for a triangle. */
static float brute_low(const brute_contact* b)
{
    return fminf(b->raw.distance, b->corrected.distance);
}

static float brute_high(const brute_contact* b)
{
    return b->optional ? INFINITY : fmaxf(b->raw.distance, b->corrected.distance);
}

/* One contact query against brute force (px_contact_world on every triangle, with the internal-edge
 * correction). The correction's decision depends on where the witness lies on the triangle, and a deep
 * contact's witness is not unique (EPA may end on either end of an edge when the normal is perpendicular
 * to it, and the query runs in the shape's frame, the brute force in world space), so a contact matches
 * the corrected brute force or, where the two decisions may differ, the raw one; stats->alternative counts
 * those. */
static int check_contacts(const px_mesh* m, const px_transform* mp, const px_shape* s, const px_transform* sp,
                          float margin, px_mesh_contact* buf, int cap, brute_contact* bf, contact_stats* stats,
                          const char* what)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    int count = -1;
    px_status st = px_mesh_shape_contacts(m, mp, s, sp, margin, buf, cap, &count);
    PX_CHECK(st >= 0);
    PX_CHECK(count <= cap || st == PX_WARN_CAPACITY);
    int nt = px_mesh_triangle_count(m);
    float size, coord;
    shape_scale(s, sp, &size, &coord);
    float tol = 1e-5f * size + 64.0f * FLT_EPSILON * (coord + size);
    /* penetration depths come from EPA, good to its relative tolerance (1e-4) of the depth */
    float depth_tol = tol + 2e-3f * size;
    int expected = 0, maybe = 0;
    for (int t = 0; t < nt; ++t)
    {
        px_shape tri = mesh_triangle(m, t);
        PX_CHECK(px_contact_world(&tri, mp != NULL ? mp : &id, s, sp, NULL, &bf[t].raw) >= 0);
        bf[t].corrected = bf[t].raw;
        bf[t].optional = false;
        bf[t].has_tied = false;
        if (bf[t].raw.distance <= margin + tol)
        {
            correct_contact(m, mp, t, s, sp, &bf[t].corrected);
            if (bf[t].raw.distance < 0.0f)
            {
                tied_alternative(m, mp, t, s, sp, tol, &bf[t]);
            }
        }
    }
    for (int t = 0; t < nt; ++t)
    {
        if (bf[t].raw.distance <= margin + tol && px_mesh_active_edges(m) != NULL)
        {
            /* with the ring's contacts known: a neighbour on the climbing edge must be deeper (by a tenth of
             * the query's tolerance, so that rounding leaves such a contact optional, not required) */
            bf[t].optional = vertex_ghost_contact(m, mp, t, &bf[t].raw, bf, 0.1f * tol);
        }
        if (brute_high(&bf[t]) <= margin - tol)
        {
            expected++;
        }
        else if (brute_low(&bf[t]) <= margin + tol)
        {
            maybe++;
        }
    }
    if (!(count >= expected && count <= expected + maybe))
    {
        fprintf(stderr, "%s: %d contacts, brute force %d (+%d borderline), margin %.9g\n", what, count, expected,
                maybe, margin);
        for (int t = 0; t < nt; ++t)
        {
            if (brute_low(&bf[t]) <= margin + tol)
            {
                fprintf(stderr, "    brute force: triangle %d at %.9g, corrected %.9g (method %d)\n", t,
                        bf[t].raw.distance, bf[t].corrected.distance, (int)bf[t].raw.method);
            }
        }
        for (int i = 0; i < count && i < cap; ++i)
        {
            fprintf(stderr, "    found: triangle %d at %.9g\n", buf[i].triangle, buf[i].distance);
        }
        return 1;
    }
    stats->queries++;
    stats->contacts += count;
    stats->borderline += maybe;
    int n = count < cap ? count : cap;
    for (int i = 0; i < n; ++i)
    {
        const px_mesh_contact* c = &buf[i];
        PX_CHECK(c->triangle >= 0 && c->triangle < nt);
        PX_CHECK(i == 0 || buf[i - 1].triangle < c->triangle);
        PX_CHECK(c->distance <= margin);
        const px_contact* b = &bf[c->triangle].corrected;
        /* a corrected distance is the height of a witness point, which is only as good as its position (GJK
         * and EPA pin a witness on a curved or flat-faced shape less tightly than the distance) */
        bool corrected = b->distance != bf[c->triangle].raw.distance;
        float dt = c->distance < 0.0f || b->distance < 0.0f || corrected ? depth_tol : tol;
        stats->corrected += corrected;
        /* the query's rules decide in the shape's frame, the brute force's in the world: near a rule's
         * threshold they can decide apart, and the query's contact is then the raw one (when it fits and is
         * the nearer of the two, its normal is the one compared below) */
        const px_contact* r = &bf[c->triangle].raw;
        const float rt = c->distance < 0.0f || r->distance < 0.0f ? depth_tol : tol;
        const bool raw_nearer = fabsf(c->distance - r->distance) <= rt &&
                                fabsf(c->distance - r->distance) < fabsf(c->distance - b->distance);
        const bool tied_fits = bf[c->triangle].has_tied && !(fabsf(c->distance - b->distance) <= dt) &&
                               fabsf(c->distance - bf[c->triangle].tied.distance) <= depth_tol;
        if (tied_fits)
        {
            b = &bf[c->triangle].tied;
            stats->alternative++;
        }
        else if (!(fabsf(c->distance - b->distance) <= dt) || raw_nearer)
        {
            if (!(fabsf(c->distance - r->distance) <= rt))
            {
                fprintf(stderr, "%s: triangle %d: distance %.9g, brute force %.9g, corrected %.9g\n", what,
                        c->triangle, c->distance, r->distance, b->distance);
                return 1;
            }
            b = r;
            stats->alternative++;
        }
        stats->penetrating += c->distance < 0.0f;
        if (c->distance > 10.0f * tol && b->distance > 10.0f * tol)
        {
            /* apart: GJK's normal is unique, so both must agree on it */
            PX_CHECK(c->normal[0] * b->normal[0] + c->normal[1] * b->normal[1] + c->normal[2] * b->normal[2] >
                     0.999f);
        }
        float nn =
            sqrtf(c->normal[0] * c->normal[0] + c->normal[1] * c->normal[1] + c->normal[2] * c->normal[2]);
        if (c->distance != 0.0f)
        {
            PX_CHECK_NEAR(nn, 1.0f, 1e-4f);
        }
        for (int k = 0; k < 3; ++k)
        {
            PX_CHECK_NEAR(c->point_shape[k], c->point_mesh[k] + c->distance * c->normal[k], depth_tol);
        }
    }
    /* every contact the brute force is sure of is there (when all fit) */
    if (count <= cap)
    {
        int j = 0;
        for (int t = 0; t < nt; ++t)
        {
            while (j < n && buf[j].triangle < t)
            {
                ++j;
            }
            bool present = j < n && buf[j].triangle == t;
            if (brute_high(&bf[t]) <= margin - tol && !present)
            {
                fprintf(stderr, "%s: triangle %d at %.9g (corrected %.9g) missing\n", what, t, bf[t].raw.distance,
                        bf[t].corrected.distance);
                return 1;
            }
        }
    }
    return 0;
}

/* The generated meshes of the contact and cast tests: terrain, icosphere, soup and degenerate soup (nt
 * triangles in extent), the soups drawn from rng in that order. */
static const char* const generated_names[4] = { "terrain", "icosphere", "soup", "degenerate" };

static void generated_meshes(px_rng* rng, int degenerate_nt, float degenerate_extent, px_mesh* out[4])
{
    out[0] = make_terrain(24, 1.0f, 1.5f, 4);
    out[1] = make_icosphere(3, 8.0f);
    out[2] = make_soup(rng, 400, 6.0f, 1.5f);
    out[3] = make_degenerate(rng, degenerate_nt, degenerate_extent);
}

static void destroy_meshes(px_mesh* meshes[4])
{
    for (int mi = 0; mi < 4; ++mi)
    {
        px_mesh_destroy(meshes[mi]);
    }
}

static int contacts_meshes(void)
{
    px_rng rng = px_rng_seeded(201);
    px_mesh* meshes[4];
    generated_meshes(&rng, 400, 5.0f, meshes);
    const char* const* names = generated_names;
    shape_set set;
    PX_CHECK(shape_set_init(&set, &rng, 1.0f));
    px_mesh_contact* buf = malloc(sizeof(px_mesh_contact) * 4096);
    brute_contact* bf = malloc(sizeof(brute_contact) * 4096);
    PX_CHECK(buf != NULL && bf != NULL);
    int fails = 0;
    for (int mi = 0; mi < 4 && fails == 0; ++mi)
    {
        PX_CHECK(meshes[mi] != NULL);
        contact_stats stats = { 0, 0, 0, 0, 0, 0 };
        for (int i = 0; i < 150 && fails == 0; ++i)
        {
            const px_shape* s = &set.shapes[i % set.count];
            px_transform pose = surface_pose(meshes[mi], &rng, 0.8f);
            float margin = i % 4 == 0 ? 0.0f : (float)px_rng_range(&rng, 0.0, 0.3);
            /* the mesh at the identity (NULL or given), or posed with the shape carried along */
            px_transform mp = PX_TRANSFORM_IDENTITY_INIT;
            if (i % 3 == 2)
            {
                float plo[3] = { -40.0f, -40.0f, -40.0f }, phi[3] = { 40.0f, 40.0f, 40.0f };
                mp = random_pose(&rng, plo, phi);
                px_transform_mul(&mp, &pose, &pose);
            }
            char what[128];
            snprintf(what, sizeof(what), "%s contacts %d (%s)", names[mi], i, set.names[i % set.count]);
            fails += check_contacts(meshes[mi], i % 3 == 0 ? NULL : &mp, s, &pose, margin, buf, 4096, bf,
                                    &stats, what);
        }
        printf("    %-10s %d queries: %.1f contacts per query, %d penetrating, %d borderline, %d on internal "
               "edges (%d decided the other way)\n",
               names[mi], stats.queries, (double)stats.contacts / stats.queries, stats.penetrating,
               stats.borderline, stats.corrected, stats.alternative);
    }
    free(buf);
    free(bf);
    shape_set_free(&set);
    destroy_meshes(meshes);
    return fails;
}

static int contacts_data_meshes(void)
{
    px_mesh* env = load_data_mesh("env.obj");
    px_mesh* dungeon = load_data_mesh("dungeon.obj");
    if (env == NULL || dungeon == NULL)
    {
        px_mesh_destroy(env);
        px_mesh_destroy(dungeon);
        return PX_TEST_SKIP;
    }
    px_rng rng = px_rng_seeded(202);
    rob_pieces rp;
    PX_CHECK(rob_pieces_init(&rp, &rng, 150, 0));
    int cap = px_mesh_triangle_count(dungeon);
    px_mesh_contact* buf = malloc(sizeof(px_mesh_contact) * (size_t)cap);
    brute_contact* bf = malloc(sizeof(brute_contact) * (size_t)cap);
    PX_CHECK(buf != NULL && bf != NULL);
    int fails = 0;
    contact_stats se = { 0, 0, 0, 0, 0, 0 }, sd = { 0, 0, 0, 0, 0, 0 };
    for (int i = 0; i < 60 && fails == 0; ++i)
    {
        px_shape s = px_shape_from_hull(rp.hulls[i % rp.count]);
        /* the piece's own vertices sit up to 600 from its origin: put the origin near the surface */
        px_transform pose = surface_pose(env, &rng, 300.0f);
        char what[64];
        snprintf(what, sizeof(what), "env contacts %d", i);
        fails += check_contacts(env, NULL, &s, &pose, 20.0f, buf, cap, bf, &se, what);
    }
    px_shape capsule = px_shape_capsule(0.6f, 0.35f);
    for (int i = 0; i < 60 && fails == 0; ++i)
    {
        px_transform pose = surface_pose(dungeon, &rng, 0.5f);
        char what[64];
        snprintf(what, sizeof(what), "dungeon contacts %d", i);
        fails += check_contacts(dungeon, NULL, &capsule, &pose, 0.05f, buf, cap, bf, &sd, what);
    }
    printf("    env/rob    %d queries: %.1f contacts per query, %d penetrating, %d on internal edges (%d decided "
           "the other way)\n",
           se.queries, (double)se.contacts / (se.queries > 0 ? se.queries : 1), se.penetrating, se.corrected,
           se.alternative);
    printf("    dungeon    %d queries: %.1f contacts per query, %d penetrating, %d on internal edges (%d decided "
           "the other way)\n",
           sd.queries, (double)sd.contacts / (sd.queries > 0 ? sd.queries : 1), sd.penetrating, sd.corrected,
           sd.alternative);
    free(buf);
    free(bf);
    rob_pieces_free(&rp);
    px_mesh_destroy(env);
    px_mesh_destroy(dungeon);
    return fails;
}

/* A buffer too small keeps the deepest contacts, sorted by triangle; counting only (capacity 0) works. */
static int contacts_capacity(void)
{
    px_rng rng = px_rng_seeded(203);
    px_mesh* m = make_terrain(16, 0.5f, 0.5f, 4);
    PX_CHECK(m != NULL);
    vec3 he = { 2.0f, 0.5f, 1.5f };
    px_shape box = px_shape_box(he);
    px_mesh_contact all[512], few[512];
    int checked = 0;
    for (int i = 0; i < 30; ++i)
    {
        px_transform pose = surface_pose(m, &rng, 0.3f);
        int n = 0;
        PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &box, &pose, 0.1f, all, 512, &n), PX_OK);
        int c0 = -1;
        PX_CHECK(px_mesh_shape_contacts(m, NULL, &box, &pose, 0.1f, NULL, 0, &c0) ==
                 (n > 0 ? PX_WARN_CAPACITY : PX_OK));
        PX_CHECK(c0 == n);
        if (n < 4)
        {
            continue;
        }
        int cap = n / 3;
        int c = -1;
        PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &box, &pose, 0.1f, few, cap, &c), PX_WARN_CAPACITY);
        PX_CHECK(c == n);
        /* the kept ones are the cap deepest of the full list: every one left out is shallower */
        for (int j = 0; j < cap; ++j)
        {
            PX_CHECK(j == 0 || few[j - 1].triangle < few[j].triangle);
            bool found = false;
            for (int k = 0; k < n; ++k)
            {
                if (all[k].triangle == few[j].triangle)
                {
                    PX_CHECK(memcmp(&all[k], &few[j], sizeof(few[j])) == 0);
                    found = true;
                }
            }
            PX_CHECK(found);
        }
        for (int k = 0; k < n; ++k)
        {
            bool kept = false;
            for (int j = 0; j < cap; ++j)
            {
                kept = kept || few[j].triangle == all[k].triangle;
            }
            if (!kept)
            {
                for (int j = 0; j < cap; ++j)
                {
                    PX_CHECK(few[j].distance < all[k].distance ||
                             (few[j].distance == all[k].distance && few[j].triangle < all[k].triangle));
                }
            }
        }
        checked++;
    }
    PX_CHECK(checked >= 10);
    px_mesh_destroy(m);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Casts                                                                                                   */
/* ------------------------------------------------------------------------------------------------------ */

typedef struct brute_cast
{
    bool hit;
    float fraction;
    int32_t triangle;
    bool initial_overlap;
} brute_cast;

static int brute_force_cast(const px_mesh* m, const px_transform* mp, const px_shape* s,
                            const px_transform* sp, const vec3 tr, float* per_triangle, brute_cast* out)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    memset(out, 0, sizeof(*out));
    out->fraction = INFINITY;
    out->triangle = PX_NULL_INDEX;
    for (int t = 0; t < px_mesh_triangle_count(m); ++t)
    {
        px_shape tri = mesh_triangle(m, t);
        px_cast_result r;
        PX_CHECK(px_shape_cast_world(&tri, mp != NULL ? mp : &id, s, sp, tr, NULL, &r) >= 0);
        per_triangle[t] = r.hit ? r.fraction : INFINITY;
        if (r.hit && r.fraction < out->fraction)
        {
            out->hit = true;
            out->fraction = r.fraction;
            out->triangle = t;
            out->initial_overlap = r.initial_overlap;
        }
    }
    return 0;
}

/* The deepest penetration of the shape at pose + f * tr into any triangle: px_gjk_overlap_world on every
 * triangle, and for those it calls overlapping, the signed distance of px_contact_world (INFINITY when
 * nothing overlaps). In world coordinates GJK calls shapes touching within its rounding band (eps times
 * the coordinates), so a shape the mesh-frame queries see a hair apart may overlap here by that much. */
static float deepest_overlap(const px_mesh* m, const px_shape* s, const px_transform* sp, const vec3 tr, float f)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    px_transform at = *sp;
    for (int k = 0; k < 3; ++k)
    {
        at.p[k] = sp->p[k] + f * tr[k];
    }
    float deepest = INFINITY;
    for (int t = 0; t < px_mesh_triangle_count(m); ++t)
    {
        px_shape tri = mesh_triangle(m, t);
        bool ov = false;
        if (px_gjk_overlap_world(&tri, &id, s, &at, NULL, &ov) >= 0 && ov)
        {
            px_contact c;
            if (px_contact_world(&tri, &id, s, &at, NULL, &c) >= 0)
            {
                deepest = fminf(deepest, c.distance);
            }
        }
    }
    return deepest;
}

/* The distance of the shape at pose + f * tr to the mesh (px_mesh_shape_distance, checked against brute
 * force by the distance subtests). */
static float gap_at(const px_mesh* m, const px_shape* s, const px_transform* sp, const vec3 tr, float f)
{
    px_transform at = *sp;
    for (int k = 0; k < 3; ++k)
    {
        at.p[k] = sp->p[k] + f * tr[k];
    }
    px_mesh_distance_result d;
    return px_mesh_shape_distance(m, NULL, s, &at, INFINITY, &d) >= 0 && d.found ? d.distance : INFINITY;
}

typedef struct cast_stats
{
    int queries, hits, initial, ties, grazing;
} cast_stats;

/* One cast against brute force, plus the tunnelling checks. */
static int check_cast(const px_mesh* m, const px_shape* s, const px_transform* sp, const vec3 tr, float* per,
                      cast_stats* stats, const char* what)
{
    px_mesh_cast_result r;
    px_status st = px_mesh_shape_cast(m, NULL, s, sp, tr, &r);
    PX_CHECK(st >= 0);
    brute_cast bf;
    if (brute_force_cast(m, NULL, s, sp, tr, per, &bf) != 0)
    {
        return 1;
    }
    float size, coord;
    shape_scale(s, sp, &size, &coord);
    float len = sqrtf(tr[0] * tr[0] + tr[1] * tr[1] + tr[2] * tr[2]);
    /* the casts stop within their band (1e-5 of the shapes' size) short of contact; in fraction that is
     * band / (|tr| cos): allow ten bands along the motion, and grazing hits by the check below */
    float band = 1e-5f * (size + 2.0f) + 64.0f * FLT_EPSILON * (coord + size + len);
    float ftol = len > 0.0f ? 10.0f * band / len : 0.0f;
    stats->queries++;
    if (getenv("PX_MESH_COLLIDE_TRACE") != NULL)
    {
        printf("%s: pose %a %a %a %a | %a %a %a, tr %a %a %a\n", what, (double)sp->q[0], (double)sp->q[1],
               (double)sp->q[2], (double)sp->q[3], (double)sp->p[0], (double)sp->p[1], (double)sp->p[2],
               (double)tr[0], (double)tr[1], (double)tr[2]);
    }
    if (r.hit != bf.hit)
    {
        /* Only a graze may differ: the brute force casts in world coordinates, whose contact band is wider
         * (eps times the coordinates) than that of the mesh query, which casts in the shape's frame. The
         * shape must pass within a few bands of the mesh, and where the hit is, touch it. */
        float f = r.hit ? r.fraction : bf.fraction;
        float gap = gap_at(m, s, sp, tr, f);
        if (!(gap <= 4.0f * band) || (!r.hit && !(gap > 0.0f)))
        {
            fprintf(stderr, "%s: hit %d, brute force %d (fraction %.9g, triangle %d); distance there %.3g\n", what,
                    r.hit, bf.hit, f, r.hit ? r.triangle : bf.triangle, gap);
            return 1;
        }
        stats->grazing++;
    }
    if (!r.hit)
    {
        PX_CHECK(r.triangle == PX_NULL_INDEX && r.fraction == 0.0f);
        /* no tunnelling: nothing overlaps along the sweep (beyond the world queries' rounding band) */
        for (int i = 0; i <= 8; ++i)
        {
            float depth = deepest_overlap(m, s, sp, tr, (float)i / 8.0f);
            if (!(depth >= -4.0f * band))
            {
                fprintf(stderr, "%s: a miss, but the shape overlaps the mesh by %.3g at fraction %g\n", what,
                        -depth, i / 8.0);
                return 1;
            }
        }
        return 0;
    }
    stats->hits++;
    stats->initial += r.initial_overlap;
    PX_CHECK(r.fraction >= 0.0f && r.fraction <= 1.0f);
    if (r.initial_overlap)
    {
        PX_CHECK(r.fraction == 0.0f);
    }
    bool close = bf.hit && fabsf(r.fraction - bf.fraction) <= ftol;
    PX_CHECK(r.initial_overlap == bf.initial_overlap || close || !bf.hit);
    if (bf.hit && !close)
    {
        /* a grazing contact: the fractions may differ more, but the shape must touch there (within a few
         * bands) */
        float gap = gap_at(m, s, sp, tr, r.fraction);
        stats->grazing++;
        if (!(gap <= 4.0f * band))
        {
            fprintf(stderr,
                    "%s: fraction %.9g (triangle %d), brute force %.9g (triangle %d); distance there %.3g\n",
                    what, r.fraction, r.triangle, bf.fraction, bf.triangle, gap);
            return 1;
        }
    }
    PX_CHECK(r.triangle >= 0 && r.triangle < px_mesh_triangle_count(m));
    if (r.triangle != bf.triangle)
    {
        /* a tie: the triangle reported is hit as early by the brute force, or (a graze of it) touches the
         * shape at the reported fraction */
        if (!(fabsf(per[r.triangle] - bf.fraction) <= ftol))
        {
            px_shape tri = mesh_triangle(m, r.triangle);
            px_transform id = PX_TRANSFORM_IDENTITY_INIT, at = *sp;
            for (int k = 0; k < 3; ++k)
            {
                at.p[k] = sp->p[k] + r.fraction * tr[k];
            }
            px_gjk_result g;
            PX_CHECK(px_gjk_distance_world(&tri, &id, s, &at, NULL, &g) >= 0);
            if (!(g.distance <= 4.0f * band))
            {
                fprintf(stderr, "%s: triangle %d at %.9g, brute force %d at %.9g; %d is %.3g away there\n", what,
                        r.triangle, r.fraction, bf.triangle, bf.fraction, r.triangle, g.distance);
                return 1;
            }
        }
        stats->ties++;
    }
    if (!r.initial_overlap)
    {
        float nn = sqrtf(r.normal[0] * r.normal[0] + r.normal[1] * r.normal[1] + r.normal[2] * r.normal[2]);
        PX_CHECK_NEAR(nn, 1.0f, 1e-4f);
        /* against the motion (or perpendicular to it: sliding) */
        PX_CHECK(r.normal[0] * tr[0] + r.normal[1] * tr[1] + r.normal[2] * tr[2] <= 1e-3f * len);
        PX_CHECK((float)ld_point_triangle(m, r.triangle, r.point) <= 4.0f * band + 1e-4f * size);
        /* never past the first contact: a little before it, the shape overlaps no triangle (beyond the world
         * queries' rounding band) */
        float back = r.fraction - 8.0f * band / len - 1e-6f;
        float depth = back > 0.0f ? deepest_overlap(m, s, sp, tr, back) : INFINITY;
        if (!(depth >= -4.0f * band))
        {
            fprintf(stderr, "%s: the shape already overlaps the mesh by %.3g at fraction %.9g (hit at %.9g)\n",
                    what, -depth, back, r.fraction);
            return 1;
        }
    }
    return 0;
}

static int cast_meshes(void)
{
    px_rng rng = px_rng_seeded(301);
    px_mesh* meshes[4];
    generated_meshes(&rng, 300, 6.0f, meshes);
    const char* const* names = generated_names;
    const float box[4][2][3] = { { { -12, -2, -12 }, { 12, 4, 12 } },
                                 { { -11, -11, -11 }, { 11, 11, 11 } },
                                 { { -8, -8, -8 }, { 8, 8, 8 } },
                                 { { -8, -8, -8 }, { 8, 8, 8 } } };
    shape_set set;
    PX_CHECK(shape_set_init(&set, &rng, 1.0f));
    float* per = malloc(sizeof(float) * 4096);
    PX_CHECK(per != NULL);
    int fails = 0;
    for (int mi = 0; mi < 4 && fails == 0; ++mi)
    {
        PX_CHECK(meshes[mi] != NULL);
        cast_stats stats = { 0, 0, 0, 0, 0 };
        for (int i = 0; i < 120 && fails == 0; ++i)
        {
            const px_shape* s = &set.shapes[i % set.count];
            px_transform pose = random_pose(&rng, box[mi][0], box[mi][1]);
            px_transform end = random_pose(&rng, box[mi][0], box[mi][1]);
            vec3 tr = { end.p[0] - pose.p[0], end.p[1] - pose.p[1], end.p[2] - pose.p[2] };
            char what[128];
            snprintf(what, sizeof(what), "%s cast %d (%s)", names[mi], i, set.names[i % set.count]);
            fails += check_cast(meshes[mi], s, &pose, tr, per, &stats, what);
        }
        printf("    %-10s %d casts: %d hits, %d initial overlaps, %d ties, %d grazing\n", names[mi],
               stats.queries, stats.hits, stats.initial, stats.ties, stats.grazing);
        PX_CHECK(fails != 0 || (stats.hits > 20 && stats.hits < stats.queries));
    }
    free(per);
    shape_set_free(&set);
    destroy_meshes(meshes);
    return fails;
}

/* A character controller's sweeps: a capsule across a terrain, down onto it, and through the dungeon. */
static int cast_capsule_terrain(void)
{
    px_rng rng = px_rng_seeded(302);
    px_mesh* m = make_terrain(32, 1.0f, 1.5f, 4);
    PX_CHECK(m != NULL);
    px_shape capsule = px_shape_capsule(0.5f, 0.3f);
    float* per = malloc(sizeof(float) * 4096);
    PX_CHECK(per != NULL);
    cast_stats stats = { 0, 0, 0, 0, 0 };
    int fails = 0;
    for (int i = 0; i < 150 && fails == 0; ++i)
    {
        px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
        pose.p[0] = (float)px_rng_range(&rng, -14.0, 14.0);
        pose.p[1] = (float)px_rng_range(&rng, -0.5, 3.5);
        pose.p[2] = (float)px_rng_range(&rng, -14.0, 14.0);
        vec3 tr;
        if (i % 3 == 0)
        {
            /* straight down, as a ground probe */
            tr[0] = 0.0f;
            tr[1] = -(float)px_rng_range(&rng, 1.0, 6.0);
            tr[2] = 0.0f;
        }
        else
        {
            double dir[3];
            px_rng_unit_vector(&rng, dir);
            float len = (float)px_rng_range(&rng, 0.5, 20.0);
            tr[0] = (float)dir[0] * len;
            tr[1] = 0.3f * (float)dir[1] * len;
            tr[2] = (float)dir[2] * len;
        }
        char what[64];
        snprintf(what, sizeof(what), "capsule sweep %d", i);
        fails += check_cast(m, &capsule, &pose, tr, per, &stats, what);
    }
    printf("    terrain    %d capsule sweeps: %d hits, %d initial overlaps, %d ties, %d grazing\n",
           stats.queries, stats.hits, stats.initial, stats.ties, stats.grazing);
    free(per);
    px_mesh_destroy(m);
    return fails;
}

static int cast_dungeon(void)
{
    px_mesh* m = load_data_mesh("dungeon.obj");
    if (m == NULL)
    {
        return PX_TEST_SKIP;
    }
    px_rng rng = px_rng_seeded(303);
    px_shape capsule = px_shape_capsule(0.5f, 0.4f);
    float* per = malloc(sizeof(float) * (size_t)px_mesh_triangle_count(m));
    PX_CHECK(per != NULL);
    cast_stats stats = { 0, 0, 0, 0, 0 };
    int fails = 0;
    for (int i = 0; i < 60 && fails == 0; ++i)
    {
        px_transform pose = surface_pose(m, &rng, 3.0f);
        pose.q[0] = pose.q[1] = pose.q[2] = 0.0f;
        pose.q[3] = 1.0f;
        double dir[3];
        px_rng_unit_vector(&rng, dir);
        float len = (float)px_rng_range(&rng, 0.5, 8.0);
        vec3 tr = { (float)dir[0] * len, (float)dir[1] * len, (float)dir[2] * len };
        char what[64];
        snprintf(what, sizeof(what), "dungeon sweep %d", i);
        fails += check_cast(m, &capsule, &pose, tr, per, &stats, what);
    }
    printf("    dungeon    %d capsule sweeps: %d hits, %d initial overlaps, %d ties, %d grazing\n",
           stats.queries, stats.hits, stats.initial, stats.ties, stats.grazing);
    free(per);
    px_mesh_destroy(m);
    return fails;
}

/* A flat floor: sliding just above it misses, touching or sunk into it is an initial overlap, a step ahead
 * is hit where it starts. */
static int cast_floor(void)
{
    /* floor of 8 x 8 quads at y = 0 from -4 to 4, and a step (a vertical quad at x = 2, 0.5 high) */
    float v[81 * 3 + 12];
    int32_t idx[128 * 3 + 6];
    int nv = 0, nt = 0;
    for (int z = 0; z <= 8; ++z)
    {
        for (int x = 0; x <= 8; ++x)
        {
            v[3 * nv + 0] = (float)x - 4.0f;
            v[3 * nv + 1] = 0.0f;
            v[3 * nv + 2] = (float)z - 4.0f;
            ++nv;
        }
    }
    for (int z = 0; z < 8; ++z)
    {
        for (int x = 0; x < 8; ++x)
        {
            int32_t a = z * 9 + x, b = a + 1, c = a + 9, d = c + 1;
            int32_t tri[6] = { a, c, b, b, c, d };
            memcpy(idx + 3 * nt, tri, sizeof(tri));
            nt += 2;
        }
    }
    px_mesh* floor_only = make_mesh(v, nv, idx, nt, 4);
    float step[12] = { 2.0f, 0.0f, -4.0f, 2.0f, 0.5f, -4.0f, 2.0f, 0.0f, 4.0f, 2.0f, 0.5f, 4.0f };
    memcpy(v + 3 * nv, step, sizeof(step));
    int32_t quad[6] = { nv, nv + 1, nv + 2, nv + 2, nv + 1, nv + 3 };
    memcpy(idx + 3 * nt, quad, sizeof(quad));
    px_mesh* with_step = make_mesh(v, nv + 4, idx, nt + 2, 4);
    PX_CHECK(floor_only != NULL && with_step != NULL);

    px_shape capsule = px_shape_capsule(0.5f, 0.3f); /* bottom at y - 0.8 */
    vec3 slide = { 3.0f, 0.0f, 1.0f };
    px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
    pose.p[0] = -2.0f;
    px_mesh_cast_result r;
    /* 1e-3 above: a miss along the whole slide */
    pose.p[1] = 0.8f + 1e-3f;
    PX_CHECK_STATUS(px_mesh_shape_cast(floor_only, NULL, &capsule, &pose, slide, &r), PX_OK);
    PX_CHECK(!r.hit && r.triangle == PX_NULL_INDEX);
    /* resting on it: an initial overlap, fraction 0 */
    pose.p[1] = 0.8f;
    PX_CHECK_STATUS(px_mesh_shape_cast(floor_only, NULL, &capsule, &pose, slide, &r), PX_OK);
    PX_CHECK(r.hit && r.initial_overlap && r.fraction == 0.0f);
    /* sunk in: the same, the lowest touching triangle index */
    pose.p[1] = 0.7f;
    PX_CHECK_STATUS(px_mesh_shape_cast(floor_only, NULL, &capsule, &pose, slide, &r), PX_OK);
    PX_CHECK(r.hit && r.initial_overlap && r.fraction == 0.0f);
    int lowest = -1;
    for (int t = 0; t < nt && lowest < 0; ++t)
    {
        px_shape tri = mesh_triangle(floor_only, t);
        px_transform id = PX_TRANSFORM_IDENTITY_INIT;
        bool ov = false;
        PX_CHECK(px_gjk_overlap_world(&tri, &id, &capsule, &pose, NULL, &ov) >= 0);
        lowest = ov ? t : -1;
    }
    PX_CHECK(r.triangle == lowest);
    /* above the floor, sliding into the step from x = 0: the capsule's side (x + 0.3) reaches x = 2 at
     * fraction 1.7 / 3, the step's top edge (0.5) being level with the capsule's core segment */
    pose.p[0] = 0.0f;
    pose.p[1] = 0.8f + 1e-2f;
    PX_CHECK_STATUS(px_mesh_shape_cast(with_step, NULL, &capsule, &pose, slide, &r), PX_OK);
    PX_CHECK(r.hit && !r.initial_overlap);
    PX_CHECK(r.triangle >= nt);
    PX_CHECK_NEAR(r.fraction, 1.7f / 3.0f, 1e-4f);
    PX_CHECK_NEAR(r.normal[0], -1.0f, 1e-4f);
    /* fast: 100 units in one step still stops at the step (no tunnelling through a single thin wall) */
    vec3 fast = { 100.0f, 0.0f, 0.0f };
    PX_CHECK_STATUS(px_mesh_shape_cast(with_step, NULL, &capsule, &pose, fast, &r), PX_OK);
    PX_CHECK(r.hit && !r.initial_overlap && r.triangle >= nt);
    PX_CHECK_NEAR(r.fraction, 1.7f / 100.0f, 1e-6f);
    /* a zero translation is the overlap test */
    vec3 zero = { 0.0f, 0.0f, 0.0f };
    PX_CHECK_STATUS(px_mesh_shape_cast(with_step, NULL, &capsule, &pose, zero, &r), PX_OK);
    PX_CHECK(!r.hit);
    pose.p[1] = 0.75f;
    PX_CHECK_STATUS(px_mesh_shape_cast(with_step, NULL, &capsule, &pose, zero, &r), PX_OK);
    PX_CHECK(r.hit && r.initial_overlap);
    px_mesh_destroy(floor_only);
    px_mesh_destroy(with_step);
    return 0;
}

/* A posed mesh gives the cast of the shape and motion moved into the mesh frame. */
/* Shapes sliding over a flat 48 x 48 grid floor (unit cells) at small gaps (3e-5 to 1e-3 of their size),
 * 20 to 40 units in random horizontal directions: no hit. The triangles were cast where they lay relative
 * to the sweep's start, so the contact band grew with their distance from it, past the gap 5 to 25 units
 * on (94-98% of slides at 3e-5 stopped early; review 49). */
static int cast_long_slide(void)
{
    px_mesh* m = make_terrain(48, 1.0f, 0.0f, 4);
    PX_CHECK(m != NULL);
    px_rng rng = px_rng_seeded(0x736c6964ull);
    const px_shape shapes[3] = { px_shape_sphere(0.5f), px_shape_box((vec3){ 0.4f, 0.25f, 0.3f }),
                                 px_shape_capsule(0.4f, 0.3f) };
    const float lowest[3] = { 0.5f, 0.25f, 0.7f }; /* lowest points below the centres (the capsule stands) */
    const float gaps[3] = { 3e-5f, 1e-4f, 1e-3f };
    int hits = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        const int k = trial % 3;
        const double yaw = px_rng_range(&rng, 0.0, 6.283185307179586);
        const double length = px_rng_range(&rng, 20.0, 40.0);
        px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
        pose.p[0] = (float)(-0.5 * length * cos(yaw) + px_rng_range(&rng, -1.0, 1.0));
        pose.p[1] = lowest[k] + gaps[trial / 3 % 3];
        pose.p[2] = (float)(-0.5 * length * sin(yaw) + px_rng_range(&rng, -1.0, 1.0));
        const vec3 tr = { (float)(length * cos(yaw)), 0.0f, (float)(length * sin(yaw)) };
        px_mesh_cast_result r;
        PX_CHECK(px_mesh_shape_cast(m, NULL, &shapes[k], &pose, tr, &r) >= 0);
        if (r.hit)
        {
            if (hits < 3)
            {
                fprintf(stderr, "shape %d gap %g: hit at fraction %g (triangle %d)\n", k,
                        (double)(pose.p[1] - lowest[k]), (double)r.fraction, (int)r.triangle);
            }
            ++hits;
        }
    }
    px_mesh_destroy(m);
    PX_CHECK(hits == 0);
    return 0;
}

/* A ground quad of two triangles 20 to 20000 units across under a sphere, a box and a standing capsule 1 mm
 * above it: the distance is the gap, there is no contact, and a sideways sweep misses; sunk into it, the
 * depth is the sinking, along the ground's normal. The queries had run on the whole triangles, whose
 * touching bands scale with their far corners: from 1000 units the gap read as touching (distance 0,
 * overlap) and sweeps as initial overlaps (review 49); they now run on the part of a large triangle near
 * the shape. */
static int large_ground(void)
{
    const px_shape shapes[3] = { px_shape_sphere(0.5f), px_shape_box((vec3){ 0.4f, 0.3f, 0.2f }),
                                 px_shape_capsule(0.5f, 0.3f) };
    const float lowest[3] = { 0.5f, 0.3f, 0.8f };
    for (int s = 0; s < 4; ++s)
    {
        const float h = s == 0 ? 10.0f : (s == 1 ? 100.0f : (s == 2 ? 1000.0f : 10000.0f));
        const float v[12] = { -h, 0, -h, h, 0, -h, -h, 0, h, h, 0, h };
        const int32_t idx[6] = { 0, 2, 1, 1, 2, 3 };
        px_mesh* m = make_mesh(v, 4, idx, 2, 4);
        PX_CHECK(m != NULL);
        for (int k = 0; k < 3; ++k)
        {
            px_transform t = PX_TRANSFORM_IDENTITY_INIT;
            t.p[0] = 3.3f;
            t.p[1] = lowest[k] + 1e-3f;
            t.p[2] = -7.1f;
            px_mesh_distance_result d;
            PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &shapes[k], &t, INFINITY, &d), PX_OK);
            PX_CHECK(d.found && !d.overlap);
            PX_CHECK_NEAR(d.distance, 1e-3, 2e-6);
            px_mesh_contact c[4];
            int n = -1;
            PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &shapes[k], &t, 0.0f, c, 4, &n), PX_OK);
            PX_CHECK(n == 0);
            const vec3 side = { 1.0f, 0.0f, 0.5f };
            px_mesh_cast_result r;
            PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &shapes[k], &t, side, &r), PX_OK);
            PX_CHECK(!r.hit);
            /* sunk by 0.01 and 0.2 */
            for (int j = 0; j < 2; ++j)
            {
                const float sink = j == 0 ? 0.01f : 0.2f;
                t.p[1] = lowest[k] - sink;
                PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &shapes[k], &t, 0.0f, c, 4, &n), PX_OK);
                PX_CHECK(n >= 1);
                float deepest = INFINITY;
                for (int i = 0; i < n; ++i)
                {
                    PX_CHECK_NEAR(c[i].normal[1], 1.0, 1e-5);
                    deepest = fminf(deepest, c[i].distance);
                }
                PX_CHECK_NEAR(deepest, -sink, 2e-6);
            }
        }
        px_mesh_destroy(m);
    }
    return 0;
}

/* A tetrahedron beside one triangle 1000 units across, in a plane through the tetrahedron's box centre
 * (which lies outside the tetrahedron): the distance is the plane's offset less the support along its
 * normal. The first triangle's piece was cut to the box grown by the distance from its centre alone, which
 * cut the nearest point away: 0.0962 for 0.0762 (review 51). */
static int large_triangle_distance(void)
{
    const float tet[12] = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
    const px_shape shape = px_shape_hull(tet, 4);
    float n[3] = { 1.0f, 0.6f, 0.6f };
    const float nl = sqrtf(1.72f);
    for (int k = 0; k < 3; ++k)
    {
        n[k] /= nl;
    }
    const float h = 0.5f * (n[0] + n[1] + n[2]); /* the plane through (0.5, 0.5, 0.5) */
    const float t1[3] = { 0.0f, 0.70710678f, -0.70710678f };
    const float t2[3] = { n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0] };
    float v[9];
    for (int k = 0; k < 3; ++k)
    {
        const float p0 = h * n[k];
        v[k] = p0 + 1000.0f * t1[k];
        v[3 + k] = p0 - 500.0f * t1[k] + 870.0f * t2[k];
        v[6 + k] = p0 - 500.0f * t1[k] - 870.0f * t2[k];
    }
    const int32_t idx[3] = { 0, 1, 2 };
    px_mesh* m = make_mesh(v, 3, idx, 1, 4);
    PX_CHECK(m != NULL);
    const px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    const double expected = (double)h - (double)n[0]; /* the vertex (1, 0, 0) is the nearest */
    const float limits[3] = { INFINITY, FLT_MAX, 10.0f };
    for (int i = 0; i < 3; ++i)
    {
        px_mesh_distance_result r;
        PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &shape, &id, limits[i], &r), PX_OK);
        PX_CHECK(r.found);
        PX_CHECK_NEAR(r.distance, expected, 5e-5);
    }
    px_mesh_destroy(m);
    return 0;
}

static int cast_mesh_pose(void)
{
    px_rng rng = px_rng_seeded(304);
    px_mesh* m = make_terrain(16, 1.0f, 1.5f, 4);
    PX_CHECK(m != NULL);
    shape_set set;
    PX_CHECK(shape_set_init(&set, &rng, 1.0f));
    float lo[3] = { -9.0f, -2.0f, -9.0f }, hi[3] = { 9.0f, 4.0f, 9.0f };
    float plo[3] = { -50.0f, -50.0f, -50.0f }, phi[3] = { 50.0f, 50.0f, 50.0f };
    int hits = 0;
    for (int i = 0; i < 150; ++i)
    {
        const px_shape* s = &set.shapes[i % set.count];
        px_transform local = random_pose(&rng, lo, hi);
        px_transform end = random_pose(&rng, lo, hi);
        vec3 tr = { end.p[0] - local.p[0], end.p[1] - local.p[1], end.p[2] - local.p[2] };
        px_transform mp = random_pose(&rng, plo, phi);
        px_transform world;
        px_transform_mul(&mp, &local, &world);
        vec3 tw;
        px_transform_vector(&mp, tr, tw);
        px_mesh_cast_result a, b;
        PX_CHECK(px_mesh_shape_cast(m, NULL, s, &local, tr, &a) >= 0);
        PX_CHECK(px_mesh_shape_cast(m, &mp, s, &world, tw, &b) >= 0);
        PX_CHECK(a.hit == b.hit);
        if (!a.hit)
        {
            continue;
        }
        hits++;
        float len = sqrtf(tr[0] * tr[0] + tr[1] * tr[1] + tr[2] * tr[2]);
        PX_CHECK(a.initial_overlap == b.initial_overlap);
        PX_CHECK_NEAR(a.fraction, b.fraction, 1e-3f / (len > 1e-3f ? len : 1e-3f));
        if (a.triangle == b.triangle && !a.initial_overlap)
        {
            vec3 nw;
            px_transform_vector(&mp, a.normal, nw);
            PX_CHECK(nw[0] * b.normal[0] + nw[1] * b.normal[1] + nw[2] * b.normal[2] > 0.99f);
        }
    }
    PX_CHECK(hits > 30);
    shape_set_free(&set);
    px_mesh_destroy(m);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Bad input, empty meshes                                                                                 */
/* ------------------------------------------------------------------------------------------------------ */

static bool distance_cleared(const px_mesh_distance_result* r)
{
    return !r->found && !r->overlap && r->distance == 0.0f && r->triangle == PX_NULL_INDEX &&
           r->gjk_calls == 0;
}

static bool cast_cleared(const px_mesh_cast_result* r)
{
    return !r->hit && !r->initial_overlap && r->fraction == 0.0f && r->triangle == PX_NULL_INDEX;
}

static int bad_input(void)
{
    px_mesh* m = make_terrain(4, 1.0f, 0.5f, 4);
    PX_CHECK(m != NULL);
    px_shape sphere = px_shape_sphere(0.5f);
    px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
    pose.p[1] = 2.0f;
    px_transform nan_pose = pose;
    nan_pose.p[0] = NAN;
    px_transform inf_pose = pose;
    inf_pose.q[2] = INFINITY;
    px_transform zero_q = pose;
    zero_q.q[3] = 0.0f;
    px_shape neg = px_shape_sphere(-1.0f);
    px_shape empty = px_shape_hull(NULL, 0);
    float nan_pts[6] = { 0.0f, 0.0f, 0.0f, NAN, 1.0f, 0.0f };
    px_shape nan_hull = px_shape_hull(nan_pts, 2);
    vec3 tr = { 1.0f, -3.0f, 0.0f }, nan_tr = { 0.0f, NAN, 0.0f }, inf_tr = { INFINITY, 0.0f, 0.0f };

    px_mesh_distance_result d;
    memset(&d, 0xAB, sizeof(d));
    PX_CHECK_STATUS(px_mesh_shape_distance(NULL, NULL, &sphere, &pose, INFINITY, &d),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(distance_cleared(&d));
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, INFINITY, NULL), PX_ERR_INVALID_ARGUMENT);
    memset(&d, 0xAB, sizeof(d));
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, NULL, &pose, INFINITY, &d), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(distance_cleared(&d));
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, NULL, INFINITY, &d), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, -1.0f, &d), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, NAN, &d), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &nan_pose, INFINITY, &d), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, &nan_pose, &sphere, &pose, INFINITY, &d), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &inf_pose, INFINITY, &d), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &zero_q, INFINITY, &d), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, &zero_q, &sphere, &pose, INFINITY, &d),
                    PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &neg, &pose, INFINITY, &d), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &empty, &pose, INFINITY, &d), PX_ERR_INVALID_ARGUMENT);
    memset(&d, 0xAB, sizeof(d));
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &nan_hull, &pose, INFINITY, &d), PX_ERR_NON_FINITE);
    PX_CHECK(distance_cleared(&d));

    px_mesh_contact c[4];
    int count = 7;
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, 0.1f, c, 4, NULL),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(NULL, NULL, &sphere, &pose, 0.1f, c, 4, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    count = 7;
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, -0.1f, c, 4, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(count == 0);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, NAN, c, 4, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, INFINITY, c, 4, &count),
                    PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, 0.1f, NULL, 4, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, 0.1f, c, -1, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &nan_pose, 0.1f, c, 4, &count),
                    PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &zero_q, 0.1f, c, 4, &count),
                    PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &empty, &pose, 0.1f, c, 4, &count),
                    PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &nan_hull, &pose, 0.1f, c, 4, &count), PX_ERR_NON_FINITE);
    PX_CHECK(count == 0);

    px_mesh_cast_result r;
    memset(&r, 0xAB, sizeof(r));
    PX_CHECK_STATUS(px_mesh_shape_cast(NULL, NULL, &sphere, &pose, tr, &r), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(cast_cleared(&r));
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &pose, tr, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &pose, NULL, &r), PX_ERR_INVALID_ARGUMENT);
    memset(&r, 0xAB, sizeof(r));
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &pose, nan_tr, &r), PX_ERR_NON_FINITE);
    PX_CHECK(cast_cleared(&r));
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &pose, inf_tr, &r), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &nan_pose, tr, &r), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, &inf_pose, &sphere, &pose, tr, &r), PX_ERR_NON_FINITE);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &zero_q, tr, &r), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &neg, &pose, tr, &r), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &empty, &pose, tr, &r), PX_ERR_INVALID_ARGUMENT);
    memset(&r, 0xAB, sizeof(r));
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &nan_hull, &pose, tr, &r), PX_ERR_NON_FINITE);
    PX_CHECK(cast_cleared(&r));
    /* the same queries with good input work */
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, INFINITY, &d), PX_OK);
    PX_CHECK(d.found);
    /* huge limits: FLT_MAX as "no limit" finds the same triangle (it had overflowed the pruning test's grown
     * shape: PX_ERR_NON_FINITE); a margin that large is out of range */
    px_mesh_distance_result d_max;
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, FLT_MAX, &d_max), PX_OK);
    PX_CHECK(d_max.found && d_max.triangle == d.triangle && d_max.distance == d.distance);
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &sphere, &pose, 1.0e19f, &d_max), PX_OK);
    PX_CHECK(d_max.found && d_max.triangle == d.triangle);
    count = 7;
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, FLT_MAX, c, 4, &count), PX_ERR_OUT_OF_RANGE);
    PX_CHECK(count == 0);
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &sphere, &pose, 1.0e18f, c, 4, &count), PX_WARN_CAPACITY);
    PX_CHECK(count > 4);
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &sphere, &pose, tr, &r), PX_OK);
    PX_CHECK(r.hit);
    px_mesh_destroy(m);
    return 0;
}

static int empty_mesh(void)
{
    px_mesh* m = NULL;
    PX_CHECK_STATUS(px_mesh_create(NULL, 0, NULL, 0, NULL, &m), PX_OK);
    px_shape capsule = px_shape_capsule(0.5f, 0.3f);
    px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
    px_mesh_distance_result d;
    PX_CHECK_STATUS(px_mesh_shape_distance(m, NULL, &capsule, &pose, INFINITY, &d), PX_OK);
    PX_CHECK(distance_cleared(&d));
    px_mesh_contact c[2];
    int count = 5;
    PX_CHECK_STATUS(px_mesh_shape_contacts(m, NULL, &capsule, &pose, 1.0f, c, 2, &count), PX_OK);
    PX_CHECK(count == 0);
    vec3 tr = { 0.0f, -10.0f, 0.0f };
    px_mesh_cast_result r;
    PX_CHECK_STATUS(px_mesh_shape_cast(m, NULL, &capsule, &pose, tr, &r), PX_OK);
    PX_CHECK(cast_cleared(&r));
    px_mesh_destroy(m);
    return 0;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Timing (printed only, with PX_MESH_COLLIDE_TIMING=1)                                                    */
/* ------------------------------------------------------------------------------------------------------ */

static double now_ns(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int timing_env(void)
{
    const char* env = getenv("PX_MESH_COLLIDE_TIMING");
    if (env == NULL || env[0] == '0')
    {
        return PX_TEST_SKIP;
    }
    px_mesh* m = load_data_mesh("env.obj");
    if (m == NULL)
    {
        return PX_TEST_SKIP;
    }
    px_rng rng = px_rng_seeded(401);
    /* rob.obj's own hull has 38 vertices: the 64-vertex hull is 64 points on an ellipsoid of rob's size */
    float pts[3 * 64];
    for (int i = 0; i < 64; ++i)
    {
        double u[3];
        px_rng_unit_vector(&rng, u);
        pts[3 * i + 0] = (float)(500.0 * u[0]);
        pts[3 * i + 1] = (float)(605.0 * u[1]);
        pts[3 * i + 2] = (float)(425.0 * u[2]);
    }
    px_hull* built = NULL;
    PX_CHECK(px_hull_create(pts, 64, NULL, &built) == PX_OK);
    px_shape hull = px_shape_from_hull(built);
    PX_CHECK(hull.hull.count == 64);
    enum
    {
        POSES = 2000
    };
    static px_transform poses[POSES];
    float lo[3] = { -3000.0f, -3000.0f, -200.0f }, hi[3] = { 3000.0f, 3000.0f, 3000.0f };
    for (int i = 0; i < POSES; ++i)
    {
        poses[i] = random_pose(&rng, lo, hi);
    }
    double sum = 0.0;
    long calls = 0;
    double t0 = now_ns();
    for (int rep = 0; rep < 5; ++rep)
    {
        for (int i = 0; i < POSES; ++i)
        {
            px_mesh_distance_result r;
            if (px_mesh_shape_distance(m, NULL, &hull, &poses[i], INFINITY, &r) >= 0)
            {
                sum += r.distance;
                calls += r.gjk_calls;
            }
        }
    }
    double per_query = (now_ns() - t0) / (5.0 * POSES);
    float* per = malloc(sizeof(float) * (size_t)px_mesh_triangle_count(m));
    PX_CHECK(per != NULL);
    double t1 = now_ns();
    int brute = 200;
    for (int i = 0; i < brute; ++i)
    {
        brute_distance bf = { 0.0f, 0, per };
        if (brute_force_distance(m, NULL, &hull, &poses[i], &bf) >= 0)
        {
            sum += bf.distance;
        }
    }
    double per_brute = (now_ns() - t1) / brute;
    printf(
        "    px_mesh_shape_distance, 64-vertex hull over env.obj (%d triangles): %.0f ns per query, %.1f GJK "
        "calls; brute force %.0f ns (%.0fx) [checksum %.3g]\n",
        px_mesh_triangle_count(m), per_query, (double)calls / (5.0 * POSES), per_brute, per_brute / per_query,
        sum);
    free(per);
    px_hull_destroy(built);
    px_mesh_destroy(m);

    /* a character controller's capsule sweeps through the dungeon, 1 to 4 units, against the brute force */
    m = load_data_mesh("dungeon.obj");
    if (m == NULL)
    {
        return 0;
    }
    px_shape capsule = px_shape_capsule(0.5f, 0.4f);
    vec3 moves[POSES];
    float dlo[3] = { -25.0f, 0.0f, -90.0f }, dhi[3] = { 49.0f, 40.0f, 9.0f };
    for (int i = 0; i < POSES; ++i)
    {
        poses[i] = random_pose(&rng, dlo, dhi);
        poses[i].q[0] = poses[i].q[1] = poses[i].q[2] = 0.0f;
        poses[i].q[3] = 1.0f;
        double u[3];
        px_rng_unit_vector(&rng, u);
        double len = px_rng_range(&rng, 1.0, 4.0);
        for (int k = 0; k < 3; ++k)
        {
            moves[i][k] = (float)(u[k] * len);
        }
    }
    int hits = 0;
    t0 = now_ns();
    for (int i = 0; i < POSES; ++i)
    {
        px_mesh_cast_result r;
        if (px_mesh_shape_cast(m, NULL, &capsule, &poses[i], moves[i], &r) >= 0)
        {
            hits += r.hit;
        }
    }
    double per_cast = (now_ns() - t0) / POSES;
    per = malloc(sizeof(float) * (size_t)px_mesh_triangle_count(m));
    PX_CHECK(per != NULL);
    t1 = now_ns();
    brute = 20;
    for (int i = 0; i < brute; ++i)
    {
        brute_cast bc;
        PX_CHECK(brute_force_cast(m, NULL, &capsule, &poses[i], moves[i], per, &bc) == 0);
    }
    per_brute = (now_ns() - t1) / brute;
    printf("    px_mesh_shape_cast, capsule sweeps of 1-4 units in dungeon.obj (%d triangles, %d%% hit): %.0f ns "
           "per sweep; brute force %.0f ns (%.0fx)\n",
           px_mesh_triangle_count(m), hits * 100 / POSES, per_cast, per_brute, per_brute / per_cast);
    free(per);
    px_mesh_destroy(m);
    return 0;
}

int test_mesh_collide(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(bad_input);
    PX_RUN_SUBTEST(empty_mesh);
    PX_RUN_SUBTEST(distance_terrain);
    PX_RUN_SUBTEST(distance_icosphere);
    PX_RUN_SUBTEST(distance_soup);
    PX_RUN_SUBTEST(distance_env_rob);
    PX_RUN_SUBTEST(distance_dungeon);
    PX_RUN_SUBTEST(distance_degenerate);
    PX_RUN_SUBTEST(distance_tree_independent);
    PX_RUN_SUBTEST(distance_mesh_pose);
    PX_RUN_SUBTEST(contacts_meshes);
    PX_RUN_SUBTEST(contacts_data_meshes);
    PX_RUN_SUBTEST(contacts_capacity);
    PX_RUN_SUBTEST(cast_floor);
    PX_RUN_SUBTEST(cast_meshes);
    PX_RUN_SUBTEST(cast_capsule_terrain);
    PX_RUN_SUBTEST(cast_dungeon);
    PX_RUN_SUBTEST(cast_mesh_pose);
    PX_RUN_SUBTEST(cast_long_slide);
    PX_RUN_SUBTEST(large_ground);
    PX_RUN_SUBTEST(large_triangle_distance);
    PX_RUN_SUBTEST(timing_env);
    PX_SUITE_END;
}
