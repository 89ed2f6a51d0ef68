/* world: the collision world (world.h) against brute force over every body pair.
 *
 * A shadow of every live body (shape or mesh, normalized pose, type, filter bits, user data) is kept next to
 * the world. Random scenes of spheres, boxes, rounded boxes, capsules, built hulls, raw point clouds, a
 * static terrain mesh and moving meshes move at random for many steps, with bodies destroyed and created
 * (slot reuse) and filters changed on the way; after every px_world_update the contacts are compared with
 * brute force over all body pairs: px_manifold_world with the world's contact margin for convex pairs, and
 * for a convex body against a mesh px_manifold_world against every triangle (px_shape_triangle posed by the
 * mesh pose) with the internal-edge correction (mesh_edges_internal.h), keeping PX_WORLD_MAX_MESH_MANIFOLDS of them as world.h ranks them (depth in steps of the
 * margin, then triangle index). Same pairs, same order, the `began` flags
 * against the world's previous update, the same manifolds (bit-identical for mesh pairs; within 1e-4 of the
 * size for convex pairs, whose GJK the world warm-starts), stats consistent with the contacts array. The
 * same scene runs with a 2-thread pool and inline: contacts and proximity pairs bit for bit the same.
 * Queries (ray casts, overlap, shape cast, proximity) are compared with brute force over all bodies with
 * px_ray_cast_shape / px_mesh_ray_cast, px_gjk_overlap_world / px_mesh_shape_distance,
 * px_shape_cast_world / px_mesh_shape_cast and px_gjk_distance_world / px_mesh_shape_distance. Bad input
 * gives the documented statuses and leaves the world valid; failing allocations give
 * PX_ERR_OUT_OF_MEMORY, leak nothing, and the world gives the brute-force answer once memory is back.
 * PX_TEST_SEED changes the random cases. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "proxima/world.h"
#include "narrowphase/mesh_collide_internal.h"
#include "world/world_internal.h"
#include "support/count_alloc.h"
#include "support/rng.h"
#include "test.h"

/* The query tests (world_query.c); 0 only while that file is being written. */
#ifndef WORLD_TEST_QUERIES
#define WORLD_TEST_QUERIES 1
#endif

#define MAX_SLOTS 1024
#define MAX_HULLS 6
#define CLOUD_POINTS 10

/* The region bodies move in; the terrain lies under it. */
#define REGION_X 5.0
#define REGION_Y_LO -3.2
#define REGION_Y_HI 2.5
#define REGION_Z 5.0

typedef enum kind
{
    K_SPHERE,
    K_BOX,
    K_ROUNDED_BOX,
    K_CAPSULE,
    K_HULL,
    K_CLOUD,
    K_MESH,
} kind;

typedef struct tmesh
{
    px_mesh* mesh;
    float* vertices;
    int32_t* indices;
    int vertex_count;
    int triangle_count;
} tmesh;

typedef struct sbody
{
    bool live;
    px_body_id id;
    kind k;
    px_body_type type;
    px_shape shape;
    const tmesh* mesh;
    px_transform pose; /* normalized, as the world keeps it */
    uint32_t category;
    uint32_t mask;
    void* user;
    double vel[3];
    double spin[3];
    float size; /* bounding radius about the pose origin (meshes: 0, unused) */
} sbody;

typedef struct scene
{
    px_world* world;
    sbody b[MAX_SLOTS];
    int high;
    tmesh terrain;
    tmesh blob;
    px_hull* hulls[MAX_HULLS];
    float clouds[MAX_HULLS][3 * CLOUD_POINTS];
    px_rng rng;
    float margin;
    bool filters; /* random filter bits and px_world_set_filter on the way */
    bool churn;   /* destroy and create bodies on the way */
    uint64_t* prev; /* touching pairs (keys) of the world's last update */
    uint64_t* prev_gen; /* their generations (a, b): a slot reused since makes another pair */
    int prev_count;
    int prev_capacity;
    int serial;
    bool batch; /* scene_move moves the bodies with one px_world_set_poses call */
    int batch_count;
    px_body_id batch_ids[MAX_SLOTS];
    px_transform batch_poses[MAX_SLOTS];
} scene;

static char g_user[4096];

/* Statistics of the comparisons, printed by the random test. */
typedef struct cmp_stats
{
    long pairs;          /* contacts compared */
    long borderline;     /* pairs in one set only, within the tolerance of the margin */
    long count_mismatch; /* same pair, different point count (hulls, capsules near a degenerate case) */
    long point_mismatch; /* same pair and count, other points: another reference face at a near tie */
    double max_sep;      /* largest separation difference / tolerance seen */
    double max_normal;   /* largest normal difference seen */
    long mesh_pairs;
    long mesh_truncated; /* oracle mesh pairs with more than PX_WORLD_MAX_MESH_MANIFOLDS touching triangles */
    long queries;
    long query_ties;     /* a different body at a tied t / fraction */
    long query_border;   /* a body in one set only, within the tolerance of the threshold */
} cmp_stats;

static cmp_stats g_cmp;

/* ------------------------------------------------------------------------------------------------ */
/* Small helpers                                                                                      */

static uint64_t key_of(int32_t a, int32_t b)
{
    uint32_t lo = (uint32_t)(a < b ? a : b), hi = (uint32_t)(a < b ? b : a);
    return (uint64_t)lo << 32 | hi;
}

static bool id_equal(px_body_id a, px_body_id b)
{
    return a.index == b.index && a.generation == b.generation;
}

static bool pose_equal(const px_transform* a, const px_transform* b)
{
    return memcmp(a->q, b->q, sizeof(versor)) == 0 && memcmp(a->p, b->p, sizeof(vec3)) == 0;
}

static bool fbits_equal(float a, float b)
{
    return memcmp(&a, &b, sizeof(float)) == 0;
}

static double v3_dist(const float* a, const float* b)
{
    double dx = (double)a[0] - (double)b[0], dy = (double)a[1] - (double)b[1], dz = (double)a[2] - (double)b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

static double v3_len(const float* a)
{
    return sqrt((double)a[0] * a[0] + (double)a[1] * a[1] + (double)a[2] * a[2]);
}

static bool filter_pass(const sbody* a, const sbody* b)
{
    return (a->category & b->mask) != 0u && (b->category & a->mask) != 0u;
}

/* Whether the world may pair two bodies at all (not counting boxes). */
static bool pair_allowed(const sbody* a, const sbody* b)
{
    return !(a->type == PX_BODY_STATIC && b->type == PX_BODY_STATIC) && !(a->mesh != NULL && b->mesh != NULL) &&
           filter_pass(a, b);
}

static void q_normalize_d(double q[4])
{
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
    {
        q[k] /= n;
    }
}

/* r = a * b (x, y, z, w) */
static void q_mul_d(const double a[4], const double b[4], double r[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    r[0] = x;
    r[1] = y;
    r[2] = z;
    r[3] = w;
}

static void random_pose(px_rng* r, double x, double ylo, double yhi, double z, px_transform* t)
{
    double q[4];
    px_rng_quat(r, q);
    for (int k = 0; k < 4; ++k)
    {
        t->q[k] = (float)q[k];
    }
    t->p[0] = (float)px_rng_range(r, -x, x);
    t->p[1] = (float)px_rng_range(r, ylo, yhi);
    t->p[2] = (float)px_rng_range(r, -z, z);
}

/* World box of a mesh at a pose from its own vertices (the oracle's own box, not px_mesh_bounds). */
static void mesh_box(const tmesh* m, const px_transform* pose, px_aabb* box)
{
    for (int k = 0; k < 3; ++k)
    {
        box->min[k] = INFINITY;
        box->max[k] = -INFINITY;
    }
    for (int i = 0; i < m->vertex_count; ++i)
    {
        vec3 w;
        px_transform_point(pose, &m->vertices[3 * i], w);
        for (int k = 0; k < 3; ++k)
        {
            box->min[k] = fminf(box->min[k], w[k]);
            box->max[k] = fmaxf(box->max[k], w[k]);
        }
    }
}

static bool boxes_near(const px_aabb* a, const px_aabb* b, float pad)
{
    for (int k = 0; k < 3; ++k)
    {
        if (a->min[k] - pad > b->max[k] || b->min[k] - pad > a->max[k])
        {
            return false;
        }
    }
    return true;
}

/* Smallest gap between two boxes along any axis (a lower bound of the distance of what they hold). */
static double box_gap(const px_aabb* a, const px_aabb* b)
{
    double g = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        double d = fmax((double)a->min[k] - (double)b->max[k], (double)b->min[k] - (double)a->max[k]);
        g = fmax(g, d);
    }
    return g;
}

/* ------------------------------------------------------------------------------------------------ */
/* Meshes and shapes                                                                                  */

static void tmesh_free(tmesh* m)
{
    px_mesh_destroy(m->mesh);
    free(m->vertices);
    free(m->indices);
    memset(m, 0, sizeof(*m));
}

static int tmesh_build(tmesh* m)
{
    px_status s = px_mesh_create(m->vertices, m->vertex_count, m->indices, m->triangle_count, NULL, &m->mesh);
    if (s != PX_OK)
    {
        fprintf(stderr, "px_mesh_create: %s\n", px_status_string(s));
        return 1;
    }
    return 0;
}

/* A height field of n x n cells over [-half, half]^2 at height y0 with bumps of amplitude amp, in its own frame
 * (the body pose places it). */
static int make_terrain(tmesh* m, px_rng* r, int n, double half, double y0, double amp)
{
    memset(m, 0, sizeof(*m));
    m->vertex_count = (n + 1) * (n + 1);
    m->triangle_count = 2 * n * n;
    m->vertices = (float*)malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    m->indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m->triangle_count);
    if (m->vertices == NULL || m->indices == NULL)
    {
        return 1;
    }
    double ph = px_rng_range(r, 0.0, 6.0);
    for (int i = 0; i <= n; ++i)
    {
        for (int j = 0; j <= n; ++j)
        {
            float* v = &m->vertices[3 * (i * (n + 1) + j)];
            double x = -half + 2.0 * half * i / n, z = -half + 2.0 * half * j / n;
            v[0] = (float)x;
            v[1] = (float)(y0 + amp * sin(0.9 * x + ph) * cos(0.7 * z) + 0.3 * amp * px_rng_range(r, -1.0, 1.0));
            v[2] = (float)z;
        }
    }
    int t = 0;
    for (int i = 0; i < n; ++i)
    {
        for (int j = 0; j < n; ++j)
        {
            int32_t a = i * (n + 1) + j, b = a + 1, c = a + n + 1, d = c + 1;
            int32_t* idx = &m->indices[3 * t];
            idx[0] = a;
            idx[1] = b;
            idx[2] = d;
            idx[3] = a;
            idx[4] = d;
            idx[5] = c;
            t += 2;
        }
    }
    return tmesh_build(m);
}

/* A closed lumpy ball (latitude-longitude) of radius about rad: a small moving mesh. */
static int make_blob(tmesh* m, px_rng* r, double rad)
{
    memset(m, 0, sizeof(*m));
    const int lat = 6, lon = 8;
    m->vertex_count = 2 + (lat - 1) * lon;
    m->triangle_count = 2 * lon * (lat - 1);
    m->vertices = (float*)malloc(sizeof(float) * 3 * (size_t)m->vertex_count);
    m->indices = (int32_t*)malloc(sizeof(int32_t) * 3 * (size_t)m->triangle_count);
    if (m->vertices == NULL || m->indices == NULL)
    {
        return 1;
    }
    m->vertices[0] = 0.0f;
    m->vertices[1] = (float)rad;
    m->vertices[2] = 0.0f;
    m->vertices[3] = 0.0f;
    m->vertices[4] = (float)-rad;
    m->vertices[5] = 0.0f;
    for (int i = 1; i < lat; ++i)
    {
        double th = 3.141592653589793 * i / lat;
        for (int j = 0; j < lon; ++j)
        {
            double ph = 6.283185307179586 * j / lon;
            double rr = rad * px_rng_range(r, 0.8, 1.2);
            float* v = &m->vertices[3 * (2 + (i - 1) * lon + j)];
            v[0] = (float)(rr * sin(th) * cos(ph));
            v[1] = (float)(rr * cos(th));
            v[2] = (float)(rr * sin(th) * sin(ph));
        }
    }
    int t = 0;
    for (int j = 0; j < lon; ++j)
    {
        int32_t j1 = (j + 1) % lon;
        int32_t* idx = &m->indices[3 * t++];
        idx[0] = 0;
        idx[1] = 2 + j1;
        idx[2] = 2 + j;
        idx = &m->indices[3 * t++];
        idx[0] = 1;
        idx[1] = 2 + (lat - 2) * lon + j;
        idx[2] = 2 + (lat - 2) * lon + j1;
    }
    for (int i = 1; i < lat - 1; ++i)
    {
        for (int j = 0; j < lon; ++j)
        {
            int32_t j1 = (j + 1) % lon;
            int32_t a = 2 + (i - 1) * lon + j, b = 2 + (i - 1) * lon + j1, c = 2 + i * lon + j, d = 2 + i * lon + j1;
            int32_t* idx = &m->indices[3 * t++];
            idx[0] = a;
            idx[1] = b;
            idx[2] = d;
            idx = &m->indices[3 * t++];
            idx[0] = a;
            idx[1] = d;
            idx[2] = c;
        }
    }
    return tmesh_build(m);
}

static float shape_size(const px_shape* s)
{
    switch (s->type)
    {
    case PX_SHAPE_SPHERE:
        return s->radius;
    case PX_SHAPE_BOX:
        return (float)v3_len(s->box.half_extents) + s->radius;
    case PX_SHAPE_CAPSULE:
        return s->capsule.half_height + s->radius;
    case PX_SHAPE_HULL:
    {
        double m = 0.0;
        for (int i = 0; i < s->hull.count; ++i)
        {
            m = fmax(m, v3_len(&s->hull.points[3 * i]));
        }
        return (float)m + s->radius;
    }
    default:
        return 1.0f;
    }
}

/* A random convex shape of one of the convex kinds (hulls from the scene's sets). */
static px_shape random_shape(scene* s, kind k)
{
    px_rng* r = &s->rng;
    switch (k)
    {
    case K_SPHERE:
        return px_shape_sphere((float)px_rng_range(r, 0.15, 0.55));
    case K_BOX:
    case K_ROUNDED_BOX:
    {
        vec3 h = {(float)px_rng_range(r, 0.08, 0.5), (float)px_rng_range(r, 0.08, 0.5), (float)px_rng_range(r, 0.08, 0.5)};
        if (px_rng_int(r, 30) == 0)
        {
            /* a slab: lying on the terrain it touches many triangles */
            h[0] = (float)px_rng_range(r, 1.0, 1.8);
            h[2] = (float)px_rng_range(r, 1.0, 1.8);
        }
        px_shape sh = px_shape_box(h);
        if (k == K_ROUNDED_BOX)
        {
            sh.radius = (float)px_rng_range(r, 0.02, 0.15);
        }
        return sh;
    }
    case K_CAPSULE:
        return px_shape_capsule((float)px_rng_range(r, 0.05, 0.5), (float)px_rng_range(r, 0.1, 0.35));
    case K_HULL:
        return px_shape_from_hull(s->hulls[px_rng_int(r, MAX_HULLS)]);
    default:
    {
        int c = px_rng_int(r, MAX_HULLS);
        px_shape sh = px_shape_hull(s->clouds[c], CLOUD_POINTS);
        return sh;
    }
    }
}

static kind random_convex_kind(px_rng* r)
{
    int u = px_rng_int(r, 100);
    return u < 25 ? K_SPHERE : u < 48 ? K_BOX : u < 58 ? K_ROUNDED_BOX : u < 74 ? K_CAPSULE : u < 92 ? K_HULL : K_CLOUD;
}

/* ------------------------------------------------------------------------------------------------ */
/* The scene: a world and its shadow                                                                  */

static void random_filter(px_rng* r, uint32_t* category, uint32_t* mask)
{
    *category = 1u << px_rng_int(r, 3);
    int u = px_rng_int(r, 4);
    *mask = u == 0 ? 0xFFFFFFFFu : (uint32_t)px_rng_int(r, 8) | (u == 1 ? 0xF0u : 0u);
}

static void random_velocity(px_rng* r, sbody* b)
{
    double v[3];
    px_rng_unit_vector(r, v);
    double speed = px_rng_range(r, 0.0, 0.12);
    for (int k = 0; k < 3; ++k)
    {
        b->vel[k] = speed * v[k];
    }
    px_rng_unit_vector(r, v);
    double w = px_rng_range(r, 0.0, 0.15);
    for (int k = 0; k < 3; ++k)
    {
        b->spin[k] = w * v[k];
    }
}

/* Create a body from def and record it; the def's pose is normalized here as the world does. */
static int scene_add(scene* s, const px_body_def* def, kind k, const tmesh* mesh)
{
    px_body_id id;
    px_status st = px_world_create_body(s->world, def, &id);
    if (st != PX_OK)
    {
        fprintf(stderr, "px_world_create_body: %s\n", px_status_string(st));
        return 1;
    }
    if (id.index < 0 || id.index >= MAX_SLOTS || s->b[id.index].live || id.generation == 0u)
    {
        fprintf(stderr, "px_world_create_body: bad id %d/%u\n", (int)id.index, (unsigned)id.generation);
        return 1;
    }
    if (s->b[id.index].id.generation != 0u && id.generation == s->b[id.index].id.generation)
    {
        fprintf(stderr, "slot %d reused with the same generation %u\n", (int)id.index, (unsigned)id.generation);
        return 1;
    }
    sbody* b = &s->b[id.index];
    memset(b, 0, sizeof(*b));
    b->live = true;
    b->id = id;
    b->k = k;
    b->type = def->type;
    b->shape = def->shape;
    b->mesh = mesh;
    PX_CHECK_STATUS(px_transform_normalized(&def->pose, &b->pose), PX_OK);
    b->category = def->category_bits;
    b->mask = def->mask_bits;
    b->user = def->user_data;
    b->size = mesh != NULL ? 0.0f : shape_size(&def->shape);
    random_velocity(&s->rng, b);
    if (id.index >= s->high)
    {
        s->high = id.index + 1;
    }
    return 0;
}

static px_body_def random_body_def(scene* s, kind* k)
{
    px_rng* r = &s->rng;
    px_body_def def = px_body_default_def();
    *k = random_convex_kind(r);
    def.shape = random_shape(s, *k);
    def.type = px_rng_int(r, 100) < 15 ? PX_BODY_STATIC : PX_BODY_MOVING;
    random_pose(r, REGION_X, REGION_Y_LO, REGION_Y_HI, REGION_Z, &def.pose);
    if (px_rng_int(r, 4) == 0)
    {
        /* a quaternion of another length: the world normalizes it */
        float f = (float)px_rng_range(r, 0.5, 2.0);
        for (int c = 0; c < 4; ++c)
        {
            def.pose.q[c] *= f;
        }
    }
    if (s->filters)
    {
        random_filter(r, &def.category_bits, &def.mask_bits);
    }
    def.user_data = &g_user[(s->serial++) % (int)sizeof(g_user)];
    return def;
}

static void scene_free(scene* s)
{
    if (s == NULL)
    {
        return;
    }
    px_world_destroy(s->world);
    tmesh_free(&s->terrain);
    tmesh_free(&s->blob);
    for (int i = 0; i < MAX_HULLS; ++i)
    {
        px_hull_destroy(s->hulls[i]);
    }
    free(s->prev);
    free(s->prev_gen);
    free(s);
}

/* Shared resources of a scene: terrain, blob, hulls and clouds (no world). */
static scene* scene_alloc(uint64_t seed)
{
    scene* s = (scene*)calloc(1, sizeof(scene));
    if (s == NULL)
    {
        return NULL;
    }
    s->rng = px_rng_seeded(seed);
    if (make_terrain(&s->terrain, &s->rng, 20, 6.5, 0.0, 0.35) != 0 || make_blob(&s->blob, &s->rng, 0.7) != 0)
    {
        scene_free(s);
        return NULL;
    }
    for (int h = 0; h < MAX_HULLS; ++h)
    {
        float pts[3 * 24];
        int n = 6 + px_rng_int(&s->rng, 18);
        double ax = px_rng_range(&s->rng, 0.15, 0.5), ay = px_rng_range(&s->rng, 0.15, 0.5),
               az = px_rng_range(&s->rng, 0.15, 0.5);
        for (int i = 0; i < n; ++i)
        {
            double d[3];
            px_rng_unit_vector(&s->rng, d);
            pts[3 * i] = (float)(ax * d[0]);
            pts[3 * i + 1] = (float)(ay * d[1]);
            pts[3 * i + 2] = (float)(az * d[2]);
        }
        if (px_hull_create(pts, n, NULL, &s->hulls[h]) < 0)
        {
            scene_free(s);
            return NULL;
        }
        for (int i = 0; i < CLOUD_POINTS; ++i)
        {
            double d[3];
            px_rng_unit_vector(&s->rng, d);
            double rr = px_rng_range(&s->rng, 0.1, 0.4);
            for (int k = 0; k < 3; ++k)
            {
                s->clouds[h][3 * i + k] = (float)(rr * d[k]);
            }
        }
    }
    return s;
}

/* Populate: the terrain (static mesh) at the bottom, `blobs` moving meshes, then n random convex bodies. */
static int scene_populate(scene* s, int n, int blobs)
{
    px_body_def def = px_body_default_def();
    def.type = PX_BODY_STATIC;
    def.mesh = s->terrain.mesh;
    px_transform_identity(&def.pose);
    def.pose.p[1] = (float)(REGION_Y_LO - 0.1);
    /* a slight tilt: the mesh pose is not the identity */
    def.pose.q[0] = 0.02f;
    def.pose.q[3] = 1.0f;
    def.user_data = &g_user[0];
    if (scene_add(s, &def, K_MESH, &s->terrain) != 0)
    {
        return 1;
    }
    for (int i = 0; i < blobs; ++i)
    {
        def = px_body_default_def();
        def.mesh = s->blob.mesh;
        def.shape.radius = -1.0f; /* ignored for a mesh body */
        random_pose(&s->rng, REGION_X - 1.0, REGION_Y_LO + 0.5, REGION_Y_HI - 1.0, REGION_Z - 1.0, &def.pose);
        if (s->filters)
        {
            random_filter(&s->rng, &def.category_bits, &def.mask_bits);
        }
        def.user_data = &g_user[1 + i];
        if (scene_add(s, &def, K_MESH, &s->blob) != 0)
        {
            return 1;
        }
    }
    for (int i = 0; i < n; ++i)
    {
        kind k;
        def = random_body_def(s, &k);
        if (scene_add(s, &def, k, NULL) != 0)
        {
            return 1;
        }
    }
    return 0;
}

static scene* scene_create(uint64_t seed, const px_world_def* wdef, int n, int blobs, bool filters, bool churn)
{
    scene* s = scene_alloc(seed);
    if (s == NULL)
    {
        return NULL;
    }
    s->filters = filters;
    s->churn = churn;
    px_world_def d = wdef != NULL ? *wdef : px_world_default_def();
    s->margin = d.contact_margin;
    if (px_world_create(&d, &s->world) != PX_OK || scene_populate(s, n, blobs) != 0)
    {
        scene_free(s);
        return NULL;
    }
    return s;
}

static int live_count(const scene* s, int* moving)
{
    int n = 0, m = 0;
    for (int i = 0; i < s->high; ++i)
    {
        n += s->b[i].live ? 1 : 0;
        m += s->b[i].live && s->b[i].type == PX_BODY_MOVING ? 1 : 0;
    }
    if (moving != NULL)
    {
        *moving = m;
    }
    return n;
}

static int random_live(scene* s, bool allow_mesh)
{
    if (s->high == 0)
    {
        return -1;
    }
    for (int tries = 0; tries < 1000; ++tries)
    {
        int i = px_rng_int(&s->rng, s->high);
        if (s->b[i].live && (allow_mesh || s->b[i].mesh == NULL))
        {
            return i;
        }
    }
    return -1;
}

static int set_pose_checked(scene* s, int i, const px_transform* pose)
{
    if (s->batch)
    {
        s->batch_ids[s->batch_count] = s->b[i].id;
        s->batch_poses[s->batch_count++] = *pose;
    }
    else
    {
        PX_CHECK_STATUS(px_world_set_pose(s->world, s->b[i].id, pose), PX_OK);
    }
    PX_CHECK_STATUS(px_transform_normalized(pose, &s->b[i].pose), PX_OK);
    return 0;
}

/* The poses scene_move collected in batch mode, set with one call. */
static int flush_poses(scene* s)
{
    if (s->batch)
    {
        PX_CHECK_STATUS(px_world_set_poses(s->world, s->batch_ids, s->batch_poses, s->batch_count), PX_OK);
        s->batch_count = 0;
    }
    return 0;
}

/* One step of motion: most moving bodies drift and turn (bouncing off the region's walls), a few jump,
 * rarely a static body moves; with churn some bodies die and others are born; with filters some change
 * their bits. */
static int scene_move(scene* s)
{
    px_rng* r = &s->rng;
    for (int i = 0; i < s->high; ++i)
    {
        sbody* b = &s->b[i];
        if (!b->live)
        {
            continue;
        }
        px_transform t = b->pose;
        if (b->type == PX_BODY_STATIC)
        {
            if (b->mesh != NULL || px_rng_int(r, 60) != 0)
            {
                continue;
            }
            random_pose(r, REGION_X, REGION_Y_LO, REGION_Y_HI, REGION_Z, &t);
            if (set_pose_checked(s, i, &t) != 0)
            {
                return 1;
            }
            continue;
        }
        int u = px_rng_int(r, 100);
        if (u < 25)
        {
            continue; /* resting this step: its pairs keep their last result */
        }
        if (u < 27)
        {
            random_pose(r, REGION_X, REGION_Y_LO, REGION_Y_HI, REGION_Z, &t);
        }
        else
        {
            const double lo[3] = {-REGION_X, REGION_Y_LO, -REGION_Z}, hi[3] = {REGION_X, REGION_Y_HI, REGION_Z};
            for (int k = 0; k < 3; ++k)
            {
                double p = (double)t.p[k] + b->vel[k];
                if (p < lo[k] || p > hi[k])
                {
                    b->vel[k] = -b->vel[k];
                    p = (double)t.p[k] + b->vel[k];
                }
                t.p[k] = (float)p;
            }
            double w = sqrt(b->spin[0] * b->spin[0] + b->spin[1] * b->spin[1] + b->spin[2] * b->spin[2]);
            if (w > 0.0)
            {
                double dq[4], q[4] = {t.q[0], t.q[1], t.q[2], t.q[3]}, nq[4];
                double sn = sin(0.5 * w) / w;
                dq[0] = b->spin[0] * sn;
                dq[1] = b->spin[1] * sn;
                dq[2] = b->spin[2] * sn;
                dq[3] = cos(0.5 * w);
                q_mul_d(dq, q, nq);
                q_normalize_d(nq);
                for (int k = 0; k < 4; ++k)
                {
                    t.q[k] = (float)nq[k];
                }
            }
        }
        if (set_pose_checked(s, i, &t) != 0)
        {
            return 1;
        }
    }
    if (flush_poses(s) != 0)
    {
        return 1;
    }
    if (s->churn)
    {
        int kill = px_rng_int(r, 4);
        for (int c = 0; c < kill; ++c)
        {
            int i = random_live(s, false);
            if (i >= 0)
            {
                PX_CHECK_STATUS(px_world_destroy_body(s->world, s->b[i].id), PX_OK);
                s->b[i].live = false;
                PX_CHECK(!px_world_is_body(s->world, s->b[i].id));
            }
        }
        int born = px_rng_int(r, 4);
        for (int c = 0; c < born; ++c)
        {
            kind k;
            px_body_def def = random_body_def(s, &k);
            if (scene_add(s, &def, k, NULL) != 0)
            {
                return 1;
            }
        }
    }
    if (s->filters)
    {
        for (int c = 0; c < 3; ++c)
        {
            int i = random_live(s, true);
            if (i >= 0)
            {
                uint32_t cat, mask;
                random_filter(r, &cat, &mask);
                PX_CHECK_STATUS(px_world_set_filter(s->world, s->b[i].id, cat, mask), PX_OK);
                s->b[i].category = cat;
                s->b[i].mask = mask;
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Brute-force contacts                                                                               */

typedef struct ref_contact
{
    int32_t a, b;
    int32_t triangle;
    px_manifold m;
} ref_contact;

typedef struct ref_list
{
    ref_contact* items;
    int count;
    int capacity;
} ref_list;

static int ref_push(ref_list* l, int32_t a, int32_t b, int32_t triangle, const px_manifold* m)
{
    if (l->count == l->capacity)
    {
        int cap = l->capacity > 0 ? 2 * l->capacity : 256;
        ref_contact* n = (ref_contact*)realloc(l->items, sizeof(ref_contact) * (size_t)cap);
        if (n == NULL)
        {
            return 1;
        }
        l->items = n;
        l->capacity = cap;
    }
    ref_contact* c = &l->items[l->count++];
    c->a = a;
    c->b = b;
    c->triangle = triangle;
    c->m = *m;
    return 0;
}

static float deepest(const px_manifold* m)
{
    float d = INFINITY;
    for (int i = 0; i < m->count; ++i)
    {
        d = fminf(d, m->points[i].separation);
    }
    return d;
}

typedef struct tri_manifold
{
    int32_t triangle;
    float rank; /* deepest separation in steps of the contact margin (world.h, PX_WORLD_MAX_MESH_MANIFOLDS) */
    px_manifold m;
} tri_manifold;

/* The world's choice among too many touching triangles: rank, then the lower triangle index. */
static int compare_depth(const void* x, const void* y)
{
    const tri_manifold* a = (const tri_manifold*)x;
    const tri_manifold* b = (const tri_manifold*)y;
    if (a->rank != b->rank)
    {
        return a->rank < b->rank ? -1 : 1;
    }
    return (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

static int compare_triangle(const void* x, const void* y)
{
    const tri_manifold* a = (const tri_manifold*)x;
    const tri_manifold* b = (const tri_manifold*)y;
    return (a->triangle > b->triangle) - (a->triangle < b->triangle);
}

/* World boxes of every live body (meshes from their vertices). */
static void body_boxes(const scene* s, px_aabb* boxes)
{
    for (int i = 0; i < s->high; ++i)
    {
        const sbody* b = &s->b[i];
        if (!b->live)
        {
            continue;
        }
        if (b->mesh != NULL)
        {
            mesh_box(b->mesh, &b->pose, &boxes[i]);
        }
        else
        {
            px_status st = px_shape_aabb(&b->shape, &b->pose, &boxes[i]);
            (void)st;
        }
    }
}

/* Triangle t of a mesh body as a world box (oracle's own transform). */
static void triangle_box(const sbody* mb, int32_t t, px_aabb* box)
{
    const int32_t* idx = &mb->mesh->indices[3 * t];
    for (int k = 0; k < 3; ++k)
    {
        box->min[k] = INFINITY;
        box->max[k] = -INFINITY;
    }
    for (int v = 0; v < 3; ++v)
    {
        vec3 w;
        px_transform_point(&mb->pose, &mb->mesh->vertices[3 * idx[v]], w);
        for (int k = 0; k < 3; ++k)
        {
            box->min[k] = fminf(box->min[k], w[k]);
            box->max[k] = fmaxf(box->max[k], w[k]);
        }
    }
}

/* Every touching pair of the scene by brute force, sorted by (a, b, triangle). */
static int ref_contacts(const scene* s, ref_list* out)
{
    out->count = 0;
    px_manifold_config cfg = px_manifold_default_config();
    cfg.margin = s->margin;
    px_aabb* boxes = (px_aabb*)calloc((size_t)s->high + 1, sizeof(px_aabb));
    int tri_cap = s->terrain.triangle_count + s->blob.triangle_count + 16;
    tri_manifold* tris = (tri_manifold*)malloc(sizeof(tri_manifold) * (size_t)tri_cap);
    if (boxes == NULL || tris == NULL)
    {
        free(boxes);
        free(tris);
        return 1;
    }
    body_boxes(s, boxes);
    /* boxes within the margin (padded for rounding) are the only pairs that can have points */
    const float pad = s->margin + 1.0e-3f;
    int fail = 0;
    for (int i = 0; i < s->high && fail == 0; ++i)
    {
        const sbody* bi = &s->b[i];
        if (!bi->live)
        {
            continue;
        }
        for (int j = i + 1; j < s->high && fail == 0; ++j)
        {
            const sbody* bj = &s->b[j];
            if (!bj->live || !pair_allowed(bi, bj) || !boxes_near(&boxes[i], &boxes[j], pad))
            {
                continue;
            }
            if (bi->mesh == NULL && bj->mesh == NULL)
            {
                px_manifold m;
                px_status st = px_manifold_world(&bi->shape, &bi->pose, &bj->shape, &bj->pose, &cfg, &m);
                if (st < 0)
                {
                    fprintf(stderr, "oracle px_manifold_world(%d, %d): %s\n", i, j, px_status_string(st));
                    fail = 1;
                }
                else if (m.count > 0)
                {
                    fail = ref_push(out, i, j, PX_NULL_INDEX, &m);
                }
                continue;
            }
            const sbody* mb = bi->mesh != NULL ? bi : bj;
            const sbody* cb = bi->mesh != NULL ? bj : bi;
            const px_aabb* cbox = bi->mesh != NULL ? &boxes[j] : &boxes[i];
            int n = 0;
            for (int32_t t = 0; t < mb->mesh->triangle_count; ++t)
            {
                px_aabb tb;
                triangle_box(mb, t, &tb);
                if (!boxes_near(&tb, cbox, pad))
                {
                    continue;
                }
                /* the world's per-triangle manifold (mesh_collide_internal.h), from the test's own poses */
                pxi_mesh_query q;
                px_manifold m;
                px_status st = pxi_mesh_query_init(mb->mesh->mesh, &mb->pose, &cb->shape, &cb->pose, &q);
                if (st >= 0)
                {
                    st = pxi_mesh_triangle_manifold(&q, mb->mesh->mesh, t, bi->mesh != NULL, &cfg, &m, NULL);
                }
                if (st < 0)
                {
                    continue;
                }
                if (m.count == 0)
                {
                    continue;
                }
                tris[n].triangle = t;
                tris[n].rank = floorf(deepest(&m) / fmaxf(s->margin, PX_LINEAR_SLOP));
                tris[n].m = m;
                n++;
            }
            if (n > PX_WORLD_MAX_MESH_MANIFOLDS)
            {
                g_cmp.mesh_truncated++;
                qsort(tris, (size_t)n, sizeof(tri_manifold), compare_depth);
                n = PX_WORLD_MAX_MESH_MANIFOLDS;
            }
            qsort(tris, (size_t)n, sizeof(tri_manifold), compare_triangle);
            for (int k = 0; k < n && fail == 0; ++k)
            {
                fail = ref_push(out, i, j, tris[k].triangle, &tris[k].m);
            }
        }
    }
    free(boxes);
    free(tris);
    return fail;
}

/* ------------------------------------------------------------------------------------------------ */
/* Checking an update                                                                                 */

static uint64_t gen_of(px_body_id a, px_body_id b)
{
    return (uint64_t)a.generation << 32 | b.generation;
}

static bool prev_has(const scene* s, uint64_t key, uint64_t gen)
{
    int lo = 0, hi = s->prev_count;
    while (lo < hi)
    {
        int mid = (lo + hi) / 2;
        if (s->prev[mid] < key)
        {
            lo = mid + 1;
        }
        else
        {
            hi = mid;
        }
    }
    return lo < s->prev_count && s->prev[lo] == key && s->prev_gen[lo] == gen;
}

static bool simple_kind(kind k)
{
    return k == K_SPHERE || k == K_BOX;
}

/* Separation tolerance of a pair: 1e-4 of its size. */
static double pair_tol(const sbody* a, const sbody* b)
{
    double sa = a->mesh != NULL ? 1.0 : (double)a->size, sb = b->mesh != NULL ? 1.0 : (double)b->size;
    return 1.0e-4 * (sa + sb);
}

/* The invariants of one world contact that need no oracle. */
static int check_contact_shape(const scene* s, const px_world_contact* c, int index)
{
    int32_t a = c->body_a.index, b = c->body_b.index;
    if (!(a >= 0 && a < b && b < s->high && s->b[a].live && s->b[b].live && id_equal(s->b[a].id, c->body_a) &&
          id_equal(s->b[b].id, c->body_b)))
    {
        fprintf(stderr, "contact %d: bad bodies %d/%u %d/%u\n", index, (int)a, (unsigned)c->body_a.generation,
                (int)b, (unsigned)c->body_b.generation);
        return 1;
    }
    const sbody* ba = &s->b[a];
    const sbody* bb = &s->b[b];
    PX_CHECK(pair_allowed(ba, bb));
    if (ba->mesh != NULL || bb->mesh != NULL)
    {
        const tmesh* m = ba->mesh != NULL ? ba->mesh : bb->mesh;
        PX_CHECK(c->triangle >= 0 && c->triangle < m->triangle_count);
    }
    else
    {
        PX_CHECK(c->triangle == PX_NULL_INDEX);
    }
    PX_CHECK(c->manifold.count >= 1 && c->manifold.count <= PX_MANIFOLD_MAX_POINTS);
    PX_CHECK_NEAR(v3_len(c->manifold.normal), 1.0, 1.0e-4);
    for (int k = 0; k < c->manifold.count; ++k)
    {
        const px_manifold_point* p = &c->manifold.points[k];
        PX_CHECK(p->separation <= s->margin * (1.0f + 1.0e-5f) + 1.0e-6f);
        vec3 pb;
        for (int q = 0; q < 3; ++q)
        {
            pb[q] = p->point_a[q] + p->separation * c->manifold.normal[q];
        }
        PX_CHECK(v3_dist(pb, p->point_b) <= 1.0e-4 * (1.0 + v3_len(p->point_a)));
    }
    return 0;
}

static void print_manifolds(const px_manifold* w, const px_manifold* r)
{
    const px_manifold* m[2] = {w, r};
    for (int q = 0; q < 2; ++q)
    {
        fprintf(stderr, "  %s: normal (%.9g %.9g %.9g), %d points:", q == 0 ? "world" : "oracle", (double)m[q]->normal[0],
                (double)m[q]->normal[1], (double)m[q]->normal[2], m[q]->count);
        for (int k = 0; k < m[q]->count; ++k)
        {
            fprintf(stderr, " [%.6g %.6g %.6g sep %.6g id %08x]", (double)m[q]->points[k].point_a[0],
                    (double)m[q]->points[k].point_a[1], (double)m[q]->points[k].point_a[2],
                    (double)m[q]->points[k].separation, (unsigned)m[q]->points[k].id);
        }
        fprintf(stderr, "\n");
    }
}

/* Compare the manifolds of one pair (world w, oracle r). Returns 1 on a failure. */
static int compare_manifold(const sbody* ba, const sbody* bb, const px_manifold* w, const px_manifold* r,
                            bool exact, const char* what)
{
    g_cmp.pairs++;
    double tol = pair_tol(ba, bb);
    if (exact)
    {
        if (memcmp(w, r, sizeof(px_manifold)) != 0)
        {
            fprintf(stderr, "%s: mesh manifold differs from px_manifold_world (count %d vs %d, sep %.9g vs %.9g)\n",
                    what, w->count, r->count, (double)deepest(w), (double)deepest(r));
            return 1;
        }
        return 0;
    }
    double nd = v3_dist(w->normal, r->normal);
    bool simple = simple_kind(ba->k) && simple_kind(bb->k);
    if (w->count != r->count)
    {
        if (simple)
        {
            fprintf(stderr, "%s: sphere/box pair point count %d vs oracle %d\n", what, w->count, r->count);
            return 1;
        }
        g_cmp.count_mismatch++;
        /* the normal and the deepest point still agree */
        if (fabs((double)deepest(w) - (double)deepest(r)) > tol || nd > 1.0e-3)
        {
            fprintf(stderr, "%s: point count %d vs %d and deepest %.9g vs %.9g, normal diff %.3g (kinds %d, %d)\n",
                    what, w->count, r->count, (double)deepest(w), (double)deepest(r), nd, (int)ba->k, (int)bb->k);
            print_manifolds(w, r);
            return 1;
        }
        return 0;
    }
    g_cmp.max_normal = fmax(g_cmp.max_normal, nd);
    if (nd > 1.0e-3)
    {
        fprintf(stderr, "%s (kinds %d, %d): normal (%.9g %.9g %.9g) vs oracle (%.9g %.9g %.9g), diff %.3g\n", what,
                (int)ba->k, (int)bb->k, (double)w->normal[0], (double)w->normal[1], (double)w->normal[2],
                (double)r->normal[0], (double)r->normal[1], (double)r->normal[2], nd);
        return 1;
    }
    /* same normal and depth, other points: the reference face flipped at a near tie (the warm-started GJK/EPA
     * witness differs in its last bits); counted, and bounded per scene by run_scene */
    bool same_depth = fabs((double)deepest(w) - (double)deepest(r)) <= tol;
    for (int k = 0; k < w->count; ++k)
    {
        double d = fabs((double)w->points[k].separation - (double)r->points[k].separation);
        if (!simple && same_depth &&
            (d > tol || v3_dist(w->points[k].point_a, r->points[k].point_a) > 1.0e-3 * (1.0 + tol * 1e4)))
        {
            g_cmp.point_mismatch++;
            return 0;
        }
        g_cmp.max_sep = fmax(g_cmp.max_sep, d / tol);
        if (d > tol)
        {
            fprintf(stderr, "%s (kinds %d, %d): point %d separation %.9g vs oracle %.9g (tol %.3g)\n", what,
                    (int)ba->k, (int)bb->k, k, (double)w->points[k].separation, (double)r->points[k].separation, tol);
            print_manifolds(w, r);
            return 1;
        }
        if (v3_dist(w->points[k].point_a, r->points[k].point_a) > 1.0e-3 * (1.0 + tol * 1e4))
        {
            fprintf(stderr, "%s: point %d moved by %.3g\n", what, k, v3_dist(w->points[k].point_a, r->points[k].point_a));
            return 1;
        }
        if (simple && w->points[k].id != r->points[k].id)
        {
            fprintf(stderr, "%s: sphere/box pair point %d id %08x vs oracle %08x\n", what, k,
                    (unsigned)w->points[k].id, (unsigned)r->points[k].id);
            return 1;
        }
    }
    return 0;
}

static int compare_key(int32_t a1, int32_t b1, int32_t t1, int32_t a2, int32_t b2, int32_t t2)
{
    if (a1 != a2)
    {
        return a1 < a2 ? -1 : 1;
    }
    if (b1 != b2)
    {
        return b1 < b2 ? -1 : 1;
    }
    return t1 == t2 ? 0 : (t1 < t2 ? -1 : 1);
}

/* A contact in one set only: fine only when its deepest point is at the margin (within the tolerance), or for
 * a mesh pair, the triangle lies next to a kept one (the 8 deepest of more). */
static int one_sided(const scene* s, const char* side, int32_t a, int32_t b, int32_t tri, const px_manifold* m)
{
    const sbody* ba = &s->b[a];
    const sbody* bb = &s->b[b];
    double tol = pair_tol(ba, bb);
    if ((double)deepest(m) >= (double)s->margin - tol && !(simple_kind(ba->k) && simple_kind(bb->k)))
    {
        g_cmp.borderline++;
        return 0;
    }
    fprintf(stderr, "contact (%d, %d, tri %d) kinds (%d, %d) only in the %s: %d points, deepest %.9g (margin %.9g)\n",
            (int)a, (int)b, (int)tri, (int)ba->k, (int)bb->k, side, m->count, (double)deepest(m), (double)s->margin);
    return 1;
}

/* px_world_update, then everything about its result. */
static int update_and_check(scene* s, ref_list* ref)
{
    px_status st = px_world_update(s->world);
    if (st < 0)
    {
        fprintf(stderr, "px_world_update: %s\n", px_status_string(st));
        return 1;
    }
    int n = -1;
    const px_world_contact* c = px_world_contacts(s->world, &n);
    PX_CHECK(n >= 0 && (n == 0 || c != NULL));
    px_world_stats stats = px_world_get_stats(s->world);
    PX_CHECK(st == PX_OK || stats.warnings > 0);
    PX_CHECK(st != PX_OK || stats.warnings == 0);

    /* order and shape of the contacts; pairs of the update */
    uint64_t* keys = (uint64_t*)malloc(sizeof(uint64_t) * ((size_t)n + 1));
    uint64_t* gens = (uint64_t*)malloc(sizeof(uint64_t) * ((size_t)n + 1));
    PX_CHECK(keys != NULL && gens != NULL);
    int nk = 0, points = 0, fail = 0;
    for (int i = 0; i < n && fail == 0; ++i)
    {
        fail = check_contact_shape(s, &c[i], i);
        if (fail == 0 && i > 0 &&
            compare_key(c[i - 1].body_a.index, c[i - 1].body_b.index, c[i - 1].triangle, c[i].body_a.index,
                        c[i].body_b.index, c[i].triangle) >= 0)
        {
            fprintf(stderr, "contacts %d and %d out of order\n", i - 1, i);
            fail = 1;
        }
        if (fail != 0)
        {
            break;
        }
        points += c[i].manifold.count;
        uint64_t key = key_of(c[i].body_a.index, c[i].body_b.index);
        bool first = nk == 0 || keys[nk - 1] != key;
        uint64_t gen = gen_of(c[i].body_a, c[i].body_b);
        if (first)
        {
            gens[nk] = gen;
            keys[nk++] = key;
        }
        else if (c[i].began != c[i - 1].began)
        {
            fprintf(stderr, "contact %d: began differs within one pair\n", i);
            fail = 1;
        }
        if (c[i].began != !prev_has(s, key, gen))
        {
            fprintf(stderr, "contact %d (%d, %d): began %d but the pair %s touching at the last update\n", i,
                    (int)c[i].body_a.index, (int)c[i].body_b.index, (int)c[i].began,
                    prev_has(s, key, gen) ? "was" : "was not");
            fail = 1;
        }
    }
    if (fail == 0)
    {
        int run = 1;
        for (int i = 1; i < n; ++i)
        {
            run = key_of(c[i].body_a.index, c[i].body_b.index) == key_of(c[i - 1].body_a.index, c[i - 1].body_b.index)
                      ? run + 1
                      : 1;
            if (run > PX_WORLD_MAX_MESH_MANIFOLDS || (run > 1 && c[i].triangle == PX_NULL_INDEX))
            {
                fprintf(stderr, "pair (%d, %d): too many contacts\n", (int)c[i].body_a.index, (int)c[i].body_b.index);
                fail = 1;
                break;
            }
        }
    }
    /* stats */
    int moving = 0, live = live_count(s, &moving);
    if (fail == 0 &&
        !(stats.contact_count == n && stats.point_count == points && stats.touching_pairs == nk &&
          stats.body_count == live && stats.moving_count == moving && px_world_body_count(s->world) == live &&
          stats.pair_count >= nk && stats.new_pairs >= 0 && stats.new_pairs <= stats.pair_count &&
          stats.warnings >= 0 && stats.tree_height_moving >= 0 && stats.tree_height_static >= 0))
    {
        fprintf(stderr,
                "stats: contacts %d (%d), points %d (%d), touching %d (%d), bodies %d (%d), moving %d (%d), pairs %d, "
                "new %d, warnings %d, heights %d %d\n",
                stats.contact_count, n, stats.point_count, points, stats.touching_pairs, nk, stats.body_count, live,
                stats.moving_count, moving, stats.pair_count, stats.new_pairs, stats.warnings,
                stats.tree_height_moving, stats.tree_height_static);
        fail = 1;
    }

    /* against brute force */
    if (fail == 0)
    {
        fail = ref_contacts(s, ref);
    }
    int i = 0, j = 0;
    while (fail == 0 && (i < n || j < ref->count))
    {
        int cmp = i >= n             ? 1
                  : j >= ref->count ? -1
                                     : compare_key(c[i].body_a.index, c[i].body_b.index, c[i].triangle, ref->items[j].a,
                                                   ref->items[j].b, ref->items[j].triangle);
        if (cmp < 0)
        {
            fail = one_sided(s, "world", c[i].body_a.index, c[i].body_b.index, c[i].triangle, &c[i].manifold);
            ++i;
        }
        else if (cmp > 0)
        {
            const ref_contact* r = &ref->items[j];
            fail = one_sided(s, "oracle", r->a, r->b, r->triangle, &r->m);
            ++j;
        }
        else
        {
            char what[96];
            snprintf(what, sizeof(what), "pair (%d, %d, tri %d)", (int)c[i].body_a.index, (int)c[i].body_b.index,
                     (int)c[i].triangle);
            const sbody* ba = &s->b[c[i].body_a.index];
            const sbody* bb = &s->b[c[i].body_b.index];
            bool mesh = ba->mesh != NULL || bb->mesh != NULL;
            g_cmp.mesh_pairs += mesh ? 1 : 0;
            fail = compare_manifold(ba, bb, &c[i].manifold, &ref->items[j].m, mesh, what);
            ++i;
            ++j;
        }
    }
    if (fail == 0)
    {
        /* the world's touching pairs become the previous set of the next update */
        if (nk > s->prev_capacity)
        {
            uint64_t* p = (uint64_t*)realloc(s->prev, sizeof(uint64_t) * (size_t)nk);
            if (p != NULL)
            {
                s->prev = p;
            }
            uint64_t* g = (uint64_t*)realloc(s->prev_gen, sizeof(uint64_t) * (size_t)nk);
            if (g != NULL)
            {
                s->prev_gen = g;
            }
            if (p == NULL || g == NULL)
            {
                fail = 1;
            }
            else
            {
                s->prev_capacity = nk;
            }
        }
        if (fail == 0)
        {
            if (nk > 0)
            {
                memcpy(s->prev, keys, sizeof(uint64_t) * (size_t)nk);
                memcpy(s->prev_gen, gens, sizeof(uint64_t) * (size_t)nk);
            }
            s->prev_count = nk;
        }
    }
    free(keys);
    free(gens);
    return fail;
}

/* The world's current touching pairs become the previous set (for `began` at the next update). */
static int set_prev_from_world(scene* s)
{
    int n = 0;
    const px_world_contact* c = px_world_contacts(s->world, &n);
    s->prev_count = 0;
    for (int k = 0; k < n; ++k)
    {
        uint64_t key = key_of(c[k].body_a.index, c[k].body_b.index);
        if (s->prev_count > 0 && s->prev[s->prev_count - 1] == key)
        {
            continue;
        }
        if (s->prev_count == s->prev_capacity)
        {
            int cap = s->prev_capacity > 0 ? 2 * s->prev_capacity : 64;
            uint64_t* p = (uint64_t*)realloc(s->prev, sizeof(uint64_t) * (size_t)cap);
            PX_CHECK(p != NULL);
            s->prev = p;
            uint64_t* g = (uint64_t*)realloc(s->prev_gen, sizeof(uint64_t) * (size_t)cap);
            PX_CHECK(g != NULL);
            s->prev_gen = g;
            s->prev_capacity = cap;
        }
        s->prev_gen[s->prev_count] = gen_of(c[k].body_a, c[k].body_b);
        s->prev[s->prev_count++] = key;
    }
    return 0;
}

/* Every body's accessors against the shadow. */
static int check_bodies(const scene* s)
{
    for (int i = 0; i < s->high; ++i)
    {
        const sbody* b = &s->b[i];
        if (b->id.generation == 0u)
        {
            continue;
        }
        px_transform t;
        if (b->live)
        {
            PX_CHECK(px_world_is_body(s->world, b->id));
            PX_CHECK_STATUS(px_world_get_pose(s->world, b->id, &t), PX_OK);
            PX_CHECK(pose_equal(&t, &b->pose));
            PX_CHECK(px_world_body_user_data(s->world, b->id) == b->user);
        }
        else
        {
            PX_CHECK(!px_world_is_body(s->world, b->id));
            PX_CHECK_STATUS(px_world_get_pose(s->world, b->id, &t), PX_ERR_INVALID_ARGUMENT);
            PX_CHECK(px_world_body_user_data(s->world, b->id) == NULL);
        }
    }
    PX_CHECK(px_world_body_count(s->world) == live_count(s, NULL));
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Brute-force queries                                                                                */

#if WORLD_TEST_QUERIES

static bool mask_pass(const sbody* b, uint32_t mask)
{
    return (b->category & mask) != 0u;
}

/* Hit of a ray on one body (meshes: the ray taken into the mesh's frame). */
static px_status ref_ray_body(const sbody* b, const px_ray* ray, px_ray_hit* hit)
{
    if (b->mesh == NULL)
    {
        return px_ray_cast_shape(&b->shape, &b->pose, ray, hit);
    }
    px_ray local;
    px_transform_point_inverse(&b->pose, ray->origin, local.origin);
    px_transform_vector_inverse(&b->pose, ray->direction, local.direction);
    local.max_t = ray->max_t;
    px_status st = px_mesh_ray_cast(b->mesh->mesh, &local, hit);
    if (st >= 0 && hit->hit)
    {
        for (int k = 0; k < 3; ++k)
        {
            hit->point[k] = ray->origin[k] + hit->t * ray->direction[k];
        }
        vec3 n;
        px_transform_vector(&b->pose, hit->normal, n);
        memcpy(hit->normal, n, sizeof(vec3));
    }
    return st;
}

typedef struct ref_hit
{
    int32_t index;
    px_ray_hit hit;
} ref_hit;

static int compare_ref_hit(const void* x, const void* y)
{
    const ref_hit* a = (const ref_hit*)x;
    const ref_hit* b = (const ref_hit*)y;
    if (a->hit.t != b->hit.t)
    {
        return a->hit.t < b->hit.t ? -1 : 1;
    }
    return (a->index > b->index) - (a->index < b->index);
}

/* Every body the ray hits, sorted by t then index; returns the count, -1 on an oracle error. */
static int ref_ray_all(const scene* s, const px_ray* ray, uint32_t mask, ref_hit* hits)
{
    int n = 0;
    for (int i = 0; i < s->high; ++i)
    {
        const sbody* b = &s->b[i];
        if (!b->live || !mask_pass(b, mask))
        {
            continue;
        }
        px_ray_hit h;
        px_status st = ref_ray_body(b, ray, &h);
        if (st < 0)
        {
            fprintf(stderr, "oracle ray cast on %d: %s\n", i, px_status_string(st));
            return -1;
        }
        if (h.hit)
        {
            hits[n].index = i;
            hits[n].hit = h;
            n++;
        }
    }
    qsort(hits, (size_t)n, sizeof(ref_hit), compare_ref_hit);
    return n;
}

static double ray_tol(const px_ray* ray, double t)
{
    return 1.0e-6 * (1.0 + fabs(t) + v3_len(ray->origin) / fmax(v3_len(ray->direction), 1e-30));
}

static void random_ray(px_rng* r, px_ray* ray)
{
    int u = px_rng_int(r, 10);
    ray->origin[0] = (float)px_rng_range(r, -REGION_X - 1.0, REGION_X + 1.0);
    ray->origin[1] = (float)px_rng_range(r, REGION_Y_LO - 0.5, REGION_Y_HI + 1.5);
    ray->origin[2] = (float)px_rng_range(r, -REGION_Z - 1.0, REGION_Z + 1.0);
    double d[3];
    px_rng_unit_vector(r, d);
    if (u < 3)
    {
        d[1] = -fabs(d[1]) - 0.5; /* downwards, towards the terrain */
    }
    double len = px_rng_range(r, 0.3, 3.0);
    for (int k = 0; k < 3; ++k)
    {
        ray->direction[k] = (float)(d[k] * len);
    }
    ray->max_t = u == 9 ? INFINITY : (float)(px_rng_range(r, 1.0, 12.0) / len);
}

static uint32_t random_mask(px_rng* r)
{
    int u = px_rng_int(r, 4);
    return u < 2 ? 0xFFFFFFFFu : u == 2 ? (uint32_t)(1 + px_rng_int(r, 7)) : 0u;
}

/* px_world_ray_cast and px_world_ray_cast_all against the oracle for one ray. */
static int check_ray(scene* s, const px_ray* ray, uint32_t mask, ref_hit* ref, px_world_ray_hit* hits)
{
    g_cmp.queries++;
    int n = ref_ray_all(s, ray, mask, ref);
    PX_CHECK(n >= 0);
    px_world_ray_hit h;
    memset(&h, 0xAB, sizeof(h));
    px_status st = px_world_ray_cast(s->world, ray, mask, &h);
    if (st < 0)
    {
        fprintf(stderr, "px_world_ray_cast: %s\n", px_status_string(st));
        return 1;
    }
    if (n == 0)
    {
        if (h.hit.hit || h.body.index != 0 || h.body.generation != 0u)
        {
            fprintf(stderr, "px_world_ray_cast: hit body %d at t %.9g, oracle: miss\n", (int)h.body.index,
                    (double)h.hit.t);
            return 1;
        }
    }
    else
    {
        if (!h.hit.hit)
        {
            fprintf(stderr, "px_world_ray_cast: miss, oracle: body %d at t %.9g\n", (int)ref[0].index,
                    (double)ref[0].hit.t);
            return 1;
        }
        double tol = ray_tol(ray, (double)ref[0].hit.t);
        if (!(fabs((double)h.hit.t - (double)ref[0].hit.t) <= tol))
        {
            fprintf(stderr, "px_world_ray_cast: body %d t %.9g, oracle body %d t %.9g\n", (int)h.body.index,
                    (double)h.hit.t, (int)ref[0].index, (double)ref[0].hit.t);
            return 1;
        }
        if (h.body.index != ref[0].index)
        {
            /* a tie within the rounding of the mesh ray's transform */
            int k = 1;
            while (k < n && ref[k].index != h.body.index)
            {
                ++k;
            }
            if (k == n || !(fabs((double)ref[k].hit.t - (double)ref[0].hit.t) <= tol))
            {
                fprintf(stderr, "px_world_ray_cast: body %d at %.9g, oracle body %d at %.9g\n", (int)h.body.index,
                        (double)h.hit.t, (int)ref[0].index, (double)ref[0].hit.t);
                return 1;
            }
            g_cmp.query_ties++;
        }
        PX_CHECK(id_equal(h.body, s->b[h.body.index].id));
        const sbody* b = &s->b[h.body.index];
        PX_CHECK(b->mesh != NULL ? (h.hit.triangle >= 0 && h.hit.triangle < b->mesh->triangle_count)
                                 : h.hit.triangle == PX_NULL_INDEX);
        vec3 expect;
        for (int k = 0; k < 3; ++k)
        {
            expect[k] = ray->origin[k] + h.hit.t * ray->direction[k];
        }
        PX_CHECK(v3_dist(expect, h.hit.point) <= 1.0e-4 * (1.0 + v3_len(expect)));
        if (h.hit.t > 0.0f)
        {
            PX_CHECK_NEAR(v3_len(h.hit.normal), 1.0, 1.0e-3);
        }
    }

    /* all hits, then the capacity cases */
    int count = -1;
    st = px_world_ray_cast_all(s->world, ray, mask, hits, MAX_SLOTS, &count);
    if (st < 0)
    {
        fprintf(stderr, "px_world_ray_cast_all: %s\n", px_status_string(st));
        return 1;
    }
    if (count != n)
    {
        fprintf(stderr, "px_world_ray_cast_all: %d hits, oracle %d\n", count, n);
        return 1;
    }
    PX_CHECK(st == PX_OK);
    for (int k = 0; k < n; ++k)
    {
        if (k > 0)
        {
            bool ordered = hits[k - 1].hit.t < hits[k].hit.t ||
                           (hits[k - 1].hit.t == hits[k].hit.t && hits[k - 1].body.index < hits[k].body.index);
            PX_CHECK(ordered);
        }
        int m = 0;
        while (m < n && ref[m].index != hits[k].body.index)
        {
            ++m;
        }
        if (m == n)
        {
            fprintf(stderr, "px_world_ray_cast_all: body %d is not hit by the oracle\n", (int)hits[k].body.index);
            return 1;
        }
        PX_CHECK(id_equal(hits[k].body, s->b[hits[k].body.index].id));
        PX_CHECK(hits[k].hit.hit);
        PX_CHECK_NEAR(hits[k].hit.t, ref[m].hit.t, ray_tol(ray, (double)ref[m].hit.t));
        if (m != k)
        {
            /* an order that differs from the oracle's only among t tied within the tolerance */
            PX_CHECK_NEAR(ref[k].hit.t, ref[m].hit.t, 2.0 * ray_tol(ray, (double)ref[m].hit.t));
            g_cmp.query_ties++;
        }
    }
    if (n > 0)
    {
        PX_CHECK(id_equal(hits[0].body, h.body) && fbits_equal(hits[0].hit.t, h.hit.t));
    }
    if (n >= 2)
    {
        static px_world_ray_hit few[MAX_SLOTS];
        int cap = px_rng_int(&s->rng, n);
        int c2 = -1;
        st = px_world_ray_cast_all(s->world, ray, mask, few, cap, &c2);
        PX_CHECK_STATUS(st, PX_WARN_CAPACITY);
        PX_CHECK(c2 == n);
        for (int k = 0; k < cap; ++k)
        {
            PX_CHECK(id_equal(few[k].body, hits[k].body) && fbits_equal(few[k].hit.t, hits[k].hit.t));
        }
        c2 = -1;
        PX_CHECK_STATUS(px_world_ray_cast_all(s->world, ray, mask, NULL, 0, &c2), PX_WARN_CAPACITY);
        PX_CHECK(c2 == n);
    }
    return 0;
}

/* A random query shape and pose in the region. */
static px_shape random_query_shape(scene* s, px_transform* pose)
{
    kind k = random_convex_kind(&s->rng);
    px_shape sh = random_shape(s, k);
    if (px_rng_int(&s->rng, 3) == 0)
    {
        /* something bigger */
        if (sh.type == PX_SHAPE_SPHERE)
        {
            sh.radius *= 3.0f;
        }
        else if (sh.type == PX_SHAPE_BOX)
        {
            for (int c = 0; c < 3; ++c)
            {
                sh.box.half_extents[c] *= 3.0f;
            }
        }
    }
    random_pose(&s->rng, REGION_X, REGION_Y_LO - 0.3, REGION_Y_HI, REGION_Z, pose);
    return sh;
}

/* Signed distance between a body and a posed convex shape (< 0: penetration depth; meshes: the deepest
 * triangle), for telling a touching pair (|d| within a tolerance) from a real overlap. NAN on an oracle error. */
static double ref_signed(const px_shape* bshape, const px_transform* bpose, const tmesh* mesh, const px_shape* shape,
                         const px_transform* pose)
{
    if (mesh == NULL)
    {
        px_contact c;
        px_status st = px_contact_world(bshape, bpose, shape, pose, NULL, &c);
        return st < 0 ? NAN : (double)c.distance;
    }
    px_mesh_contact mc[64];
    int n = 0;
    px_status st = px_mesh_shape_contacts(mesh->mesh, bpose, shape, pose, 1.0e-3f, mc, 64, &n);
    if (st < 0)
    {
        return NAN;
    }
    if (n == 0)
    {
        return 1.0e-3;
    }
    double d = INFINITY;
    for (int k = 0; k < n && k < 64; ++k)
    {
        d = fmin(d, (double)mc[k].distance);
    }
    return d;
}

static double body_signed(const sbody* b, const px_shape* shape, const px_transform* pose)
{
    return ref_signed(&b->shape, &b->pose, b->mesh, shape, pose);
}

/* Signed distance of a body pair (the mesh, if any, first). */
static double pair_signed(const sbody* a, const sbody* b)
{
    if (b->mesh != NULL)
    {
        const sbody* t = a;
        a = b;
        b = t;
    }
    return body_signed(a, &b->shape, &b->pose);
}

static int check_overlap(scene* s, const px_shape* shape, const px_transform* pose, uint32_t mask)
{
    g_cmp.queries++;
    static px_body_id got[MAX_SLOTS];
    static bool in_ref[MAX_SLOTS];
    int count = -1;
    px_status st = px_world_overlap(s->world, shape, pose, mask, got, MAX_SLOTS, &count);
    if (st < 0)
    {
        fprintf(stderr, "px_world_overlap: %s\n", px_status_string(st));
        return 1;
    }
    PX_CHECK(st == PX_OK || st == PX_WARN_MAX_ITERATIONS);
    PX_CHECK(count >= 0 && count <= MAX_SLOTS);
    px_aabb qbox;
    PX_CHECK_STATUS(px_shape_aabb(shape, pose, &qbox), PX_OK);
    px_aabb* boxes = (px_aabb*)calloc((size_t)s->high + 1, sizeof(px_aabb));
    PX_CHECK(boxes != NULL);
    body_boxes(s, boxes);
    int n = 0;
    for (int i = 0; i < s->high; ++i)
    {
        const sbody* b = &s->b[i];
        in_ref[i] = false;
        if (!b->live || !mask_pass(b, mask) || !boxes_near(&boxes[i], &qbox, 1.0e-3f))
        {
            continue;
        }
        bool ov = false;
        if (b->mesh == NULL)
        {
            px_status os = px_gjk_overlap_world(&b->shape, &b->pose, shape, pose, NULL, &ov);
            if (os < 0)
            {
                free(boxes);
                fprintf(stderr, "oracle px_gjk_overlap_world: %s\n", px_status_string(os));
                return 1;
            }
        }
        else
        {
            px_mesh_distance_result mr;
            px_status os = px_mesh_shape_distance(b->mesh->mesh, &b->pose, shape, pose, 0.0f, &mr);
            if (os < 0)
            {
                free(boxes);
                fprintf(stderr, "oracle px_mesh_shape_distance: %s\n", px_status_string(os));
                return 1;
            }
            ov = mr.found && mr.overlap;
        }
        in_ref[i] = ov;
        n += ov ? 1 : 0;
    }
    free(boxes);
    int fail = 0;
    for (int k = 0; k < count && fail == 0; ++k)
    {
        int32_t i = got[k].index;
        if (!(i >= 0 && i < s->high && s->b[i].live && id_equal(got[k], s->b[i].id)) ||
            (k > 0 && got[k - 1].index >= i))
        {
            fprintf(stderr, "px_world_overlap: bad or unsorted body %d at %d\n", (int)i, k);
            return 1;
        }
        if (!mask_pass(&s->b[i], mask))
        {
            fprintf(stderr, "px_world_overlap: body %d fails the mask\n", (int)i);
            return 1;
        }
        if (!in_ref[i])
        {
            /* only a body that touches the shape (within the tolerance) may be decided either way */
            double d = body_signed(&s->b[i], shape, pose);
            if (!(fabs(d) <= 1.0e-5 * (1.0 + (double)shape_size(shape) + (double)s->b[i].size)))
            {
                fprintf(stderr, "px_world_overlap: body %d (kind %d) reported, oracle: signed distance %.9g\n", (int)i,
                        (int)s->b[i].k, d);
                fail = 1;
            }
            g_cmp.query_border++;
        }
        in_ref[i] = false;
    }
    for (int i = 0; i < s->high && fail == 0; ++i)
    {
        if (in_ref[i])
        {
            double d = body_signed(&s->b[i], shape, pose);
            if (!(fabs(d) <= 1.0e-5 * (1.0 + (double)shape_size(shape) + (double)s->b[i].size)))
            {
                fprintf(stderr, "px_world_overlap: body %d (kind %d) missing (signed distance %.9g)\n", i,
                        (int)s->b[i].k, d);
                fail = 1;
            }
            g_cmp.query_border++;
        }
    }
    if (fail != 0)
    {
        return 1;
    }
    if (count >= 2)
    {
        px_body_id few[MAX_SLOTS];
        int cap = px_rng_int(&s->rng, count);
        int c2 = -1;
        PX_CHECK_STATUS(px_world_overlap(s->world, shape, pose, mask, few, cap, &c2), PX_WARN_CAPACITY);
        PX_CHECK(c2 == count);
        for (int k = 0; k < cap; ++k)
        {
            PX_CHECK(id_equal(few[k], got[k]));
        }
        c2 = -1;
        PX_CHECK_STATUS(px_world_overlap(s->world, shape, pose, mask, NULL, 0, &c2), PX_WARN_CAPACITY);
        PX_CHECK(c2 == count);
    }
    (void)n;
    return 0;
}

static int check_shape_cast(scene* s, const px_shape* shape, const px_transform* pose, const vec3 translation,
                            uint32_t mask)
{
    g_cmp.queries++;
    px_world_cast_result w;
    memset(&w, 0xCD, sizeof(w));
    px_status st = px_world_shape_cast(s->world, shape, pose, translation, mask, &w);
    if (st < 0)
    {
        fprintf(stderr, "px_world_shape_cast: %s\n", px_status_string(st));
        return 1;
    }
    /* oracle: every body */
    int best = -1;
    float best_f = INFINITY;
    static float fr[MAX_SLOTS];
    static bool hit[MAX_SLOTS];
    px_cast_result best_c;
    px_mesh_cast_result best_m;
    memset(&best_c, 0, sizeof(best_c));
    memset(&best_m, 0, sizeof(best_m));
    for (int i = 0; i < s->high; ++i)
    {
        const sbody* b = &s->b[i];
        hit[i] = false;
        if (!b->live || !mask_pass(b, mask))
        {
            continue;
        }
        if (b->mesh == NULL)
        {
            px_cast_result c;
            px_status cs = px_shape_cast_world(&b->shape, &b->pose, shape, pose, translation, NULL, &c);
            if (cs < 0)
            {
                fprintf(stderr, "oracle px_shape_cast_world: %s\n", px_status_string(cs));
                return 1;
            }
            hit[i] = c.hit;
            fr[i] = c.fraction;
            if (c.hit && c.fraction < best_f)
            {
                best = i;
                best_f = c.fraction;
                best_c = c;
            }
        }
        else
        {
            px_mesh_cast_result c;
            px_status cs = px_mesh_shape_cast(b->mesh->mesh, &b->pose, shape, pose, translation, &c);
            if (cs < 0)
            {
                fprintf(stderr, "oracle px_mesh_shape_cast: %s\n", px_status_string(cs));
                return 1;
            }
            hit[i] = c.hit;
            fr[i] = c.fraction;
            if (c.hit && c.fraction < best_f)
            {
                best = i;
                best_f = c.fraction;
                best_m = c;
            }
        }
    }
    if (best < 0)
    {
        if (w.hit || w.body.index != 0 || w.body.generation != 0u)
        {
            fprintf(stderr, "px_world_shape_cast: hit body %d at %.9g, oracle: miss\n", (int)w.body.index,
                    (double)w.fraction);
            return 1;
        }
        return 0;
    }
    if (!w.hit)
    {
        fprintf(stderr, "px_world_shape_cast: miss, oracle: body %d at %.9g\n", best, (double)best_f);
        return 1;
    }
    PX_CHECK(w.body.index >= 0 && w.body.index < s->high && id_equal(w.body, s->b[w.body.index].id));
    double len = v3_len(translation);
    double tol = 1.0e-6 + 1.0e-5 * (1.0 + (double)shape_size(shape)) / fmax(len, 1e-3);
    if (!(fabs((double)w.fraction - (double)best_f) <= tol))
    {
        fprintf(stderr, "px_world_shape_cast: body %d at %.9g, oracle body %d at %.9g\n", (int)w.body.index,
                (double)w.fraction, best, (double)best_f);
        return 1;
    }
    if (w.body.index != best)
    {
        if (!(hit[w.body.index] && fabs((double)fr[w.body.index] - (double)best_f) <= tol))
        {
            fprintf(stderr, "px_world_shape_cast: body %d at %.9g, oracle body %d at %.9g\n", (int)w.body.index,
                    (double)w.fraction, best, (double)best_f);
            return 1;
        }
        g_cmp.query_ties++;
        return 0;
    }
    const sbody* b = &s->b[best];
    bool initial = b->mesh == NULL ? best_c.initial_overlap : best_m.initial_overlap;
    PX_CHECK(w.initial_overlap == initial);
    PX_CHECK(w.fraction >= 0.0f && w.fraction <= 1.0f);
    if (b->mesh == NULL)
    {
        PX_CHECK(w.triangle == PX_NULL_INDEX);
        if (!initial)
        {
            PX_CHECK(v3_dist(w.normal, best_c.normal) <= 1.0e-4);
            PX_CHECK(v3_dist(w.point, best_c.point) <= 1.0e-4 * (1.0 + v3_len(best_c.point)));
        }
    }
    else
    {
        PX_CHECK(w.triangle == best_m.triangle);
        if (!initial)
        {
            PX_CHECK(v3_dist(w.normal, best_m.normal) <= 1.0e-4);
            PX_CHECK(v3_dist(w.point, best_m.point) <= 1.0e-4 * (1.0 + v3_len(best_m.point)));
        }
    }
    return 0;
}

/* Distance between two bodies for the proximity oracle (a lower index first). */
static int ref_pair_distance(const sbody* a, const sbody* b, float threshold, double* d, int32_t* tri,
                             float* pa, float* pb)
{
    *tri = PX_NULL_INDEX;
    if (a->mesh == NULL && b->mesh == NULL)
    {
        px_gjk_result g;
        px_status st = px_gjk_distance_world(&a->shape, &a->pose, &b->shape, &b->pose, NULL, &g);
        if (st < 0)
        {
            fprintf(stderr, "oracle px_gjk_distance_world: %s\n", px_status_string(st));
            return 1;
        }
        *d = g.distance;
        memcpy(pa, g.point_a, sizeof(vec3));
        memcpy(pb, g.point_b, sizeof(vec3));
        return 0;
    }
    const sbody* mb = a->mesh != NULL ? a : b;
    const sbody* cb = a->mesh != NULL ? b : a;
    px_mesh_distance_result mr;
    px_status st = px_mesh_shape_distance(mb->mesh->mesh, &mb->pose, &cb->shape, &cb->pose, threshold * 2.0f + 0.1f, &mr);
    if (st < 0)
    {
        fprintf(stderr, "oracle px_mesh_shape_distance: %s\n", px_status_string(st));
        return 1;
    }
    *d = mr.found ? (double)mr.distance : INFINITY;
    *tri = mr.triangle;
    memcpy(a->mesh != NULL ? pa : pb, mr.point_mesh, sizeof(vec3));
    memcpy(a->mesh != NULL ? pb : pa, mr.point_shape, sizeof(vec3));
    return 0;
}

typedef struct ref_prox
{
    int32_t a, b;
    double d;
    int32_t tri;
    vec3 pa, pb;
} ref_prox;

/* Oracle over every candidate pair (boxes within threshold + pad). body < 0: all pairs; else pairs with body. */
static int ref_proximity(const scene* s, int body, float threshold, ref_prox* out, int* count)
{
    px_aabb* boxes = (px_aabb*)calloc((size_t)s->high + 1, sizeof(px_aabb));
    if (boxes == NULL)
    {
        return 1;
    }
    body_boxes(s, boxes);
    int n = 0, fail = 0;
    for (int i = 0; i < s->high && fail == 0; ++i)
    {
        if (!s->b[i].live)
        {
            continue;
        }
        for (int j = i + 1; j < s->high && fail == 0; ++j)
        {
            if (!s->b[j].live || (body >= 0 && i != body && j != body))
            {
                continue;
            }
            const sbody* a = &s->b[i];
            const sbody* b = &s->b[j];
            bool allowed = body >= 0 ? (!(a->mesh != NULL && b->mesh != NULL) && filter_pass(a, b)) : pair_allowed(a, b);
            if (!allowed || box_gap(&boxes[i], &boxes[j]) > (double)threshold * 1.01 + 1.0e-3)
            {
                continue;
            }
            ref_prox* p = &out[n];
            fail = ref_pair_distance(a, b, threshold, &p->d, &p->tri, p->pa, p->pb);
            if (fail == 0 && p->d <= (double)threshold * 1.01 + 1.0e-3)
            {
                p->a = i;
                p->b = j;
                n++;
            }
        }
    }
    free(boxes);
    *count = n;
    return fail;
}

static int compare_prox(const scene* s, const px_world_proximity_pair* w, int count, const ref_prox* r, int n,
                        float threshold)
{
    int i = 0, j = 0;
    while (i < count || j < n)
    {
        /* keys in (lower, higher) order for the merge */
        int32_t wlo = 0, whi = 0;
        if (i < count)
        {
            wlo = w[i].body_a.index < w[i].body_b.index ? w[i].body_a.index : w[i].body_b.index;
            whi = w[i].body_a.index < w[i].body_b.index ? w[i].body_b.index : w[i].body_a.index;
        }
        int cmp = i >= count ? 1 : j >= n ? -1 : compare_key(wlo, whi, 0, r[j].a, r[j].b, 0);
        if (cmp < 0)
        {
            if (!(w[i].distance <= threshold))
            {
                fprintf(stderr, "proximity pair (%d, %d) at %.9g beyond threshold %.9g\n", (int)wlo, (int)whi,
                        (double)w[i].distance, (double)threshold);
                return 1;
            }
            fprintf(stderr, "proximity pair (%d, %d) at %.9g (kinds %d, %d) unknown to the oracle\n", (int)wlo,
                    (int)whi, (double)w[i].distance, (int)s->b[wlo].k, (int)s->b[whi].k);
            return 1;
        }
        if (cmp > 0)
        {
            if (r[j].d > (double)threshold)
            {
                ++j; /* beyond the threshold: the oracle keeps a band above it */
                continue;
            }
            double tol = 1.0e-5 * (1.0 + (double)s->b[r[j].a].size + (double)s->b[r[j].b].size);
            /* at the threshold; at a zero threshold, touching rather than overlapping */
            if (r[j].d >= (double)threshold - tol &&
                (r[j].d > 0.0 || pair_signed(&s->b[r[j].a], &s->b[r[j].b]) >= -tol))
            {
                g_cmp.query_border++;
                ++j;
                continue;
            }
            fprintf(stderr, "proximity pair (%d, %d) kinds (%d, %d) at %.9g missing (threshold %.9g)\n", (int)r[j].a,
                    (int)r[j].b, (int)s->b[r[j].a].k, (int)s->b[r[j].b].k, r[j].d, (double)threshold);
            return 1;
        }
        const px_world_proximity_pair* p = &w[i];
        const ref_prox* q = &r[j];
        double tol = 1.0e-5 * (1.0 + (double)s->b[q->a].size + (double)s->b[q->b].size);
        if (!(fabs((double)p->distance - q->d) <= tol) || !(p->distance >= 0.0f) || !(p->distance <= threshold))
        {
            fprintf(stderr, "proximity pair (%d, %d) kinds (%d, %d): distance %.9g, oracle %.9g (threshold %.9g)\n",
                    (int)q->a, (int)q->b, (int)s->b[q->a].k, (int)s->b[q->b].k, (double)p->distance, q->d,
                    (double)threshold);
            return 1;
        }
        PX_CHECK(id_equal(s->b[p->body_a.index].id, p->body_a) && id_equal(s->b[p->body_b.index].id, p->body_b));
        bool mesh = s->b[q->a].mesh != NULL || s->b[q->b].mesh != NULL;
        if (mesh)
        {
            const tmesh* m = s->b[q->a].mesh != NULL ? s->b[q->a].mesh : s->b[q->b].mesh;
            PX_CHECK(p->triangle >= 0 && p->triangle < m->triangle_count);
            if (p->triangle != q->tri && q->d > 0.0)
            {
                g_cmp.query_ties++;
            }
        }
        else
        {
            PX_CHECK(p->triangle == PX_NULL_INDEX);
        }
        /* witness points: as far apart as the distance, and on the right bodies */
        if (p->distance > 0.0f)
        {
            PX_CHECK_NEAR(v3_dist(p->point_a, p->point_b), p->distance, 1.0e-4 * (1.0 + v3_len(p->point_a)));
        }
        bool swapped = p->body_a.index != q->a;
        const float* ra = swapped ? q->pb : q->pa;
        const float* rb = swapped ? q->pa : q->pb;
        if (q->d > 1.0e-3 && !mesh)
        {
            PX_CHECK(v3_dist(p->point_a, ra) <= 1.0e-3 * (1.0 + v3_len(ra)));
            PX_CHECK(v3_dist(p->point_b, rb) <= 1.0e-3 * (1.0 + v3_len(rb)));
        }
        ++i;
        ++j;
    }
    return 0;
}

static int check_proximity(scene* s, float threshold, ref_prox* ref, px_world_proximity_pair* pairs, int pairs_cap)
{
    g_cmp.queries++;
    int count = -1;
    px_status st = px_world_proximity(s->world, threshold, pairs, pairs_cap, &count);
    if (st < 0 || count > pairs_cap)
    {
        fprintf(stderr, "px_world_proximity: %s, count %d\n", px_status_string(st), count);
        return 1;
    }
    PX_CHECK(st == PX_OK || st == PX_WARN_MAX_ITERATIONS);
    for (int k = 1; k < count; ++k)
    {
        PX_CHECK(pairs[k].body_a.index < pairs[k].body_b.index);
        PX_CHECK(compare_key(pairs[k - 1].body_a.index, pairs[k - 1].body_b.index, 0, pairs[k].body_a.index,
                             pairs[k].body_b.index, 0) < 0);
    }
    int n = 0;
    PX_CHECK(ref_proximity(s, -1, threshold, ref, &n) == 0);
    if (compare_prox(s, pairs, count, ref, n, threshold) != 0)
    {
        return 1;
    }
    if (count >= 2)
    {
        px_world_proximity_pair* few = (px_world_proximity_pair*)malloc(sizeof(px_world_proximity_pair) * (size_t)count);
        PX_CHECK(few != NULL);
        int cap = px_rng_int(&s->rng, count);
        int c2 = -1;
        st = px_world_proximity(s->world, threshold, few, cap, &c2);
        int bad = st != PX_WARN_CAPACITY || c2 != count || (cap > 0 && memcmp(few, pairs, sizeof(*few) * (size_t)cap) != 0);
        free(few);
        if (bad)
        {
            fprintf(stderr, "px_world_proximity capacity %d: %s, count %d of %d\n", cap, px_status_string(st), c2, count);
            return 1;
        }
        c2 = -1;
        PX_CHECK_STATUS(px_world_proximity(s->world, threshold, NULL, 0, &c2), PX_WARN_CAPACITY);
        PX_CHECK(c2 == count);
    }
    /* one body against the rest */
    int body = random_live(s, true);
    if (body >= 0)
    {
        count = -1;
        st = px_world_body_proximity(s->world, s->b[body].id, threshold, pairs, pairs_cap, &count);
        if (st < 0 || count > pairs_cap)
        {
            fprintf(stderr, "px_world_body_proximity: %s, count %d\n", px_status_string(st), count);
            return 1;
        }
        for (int k = 0; k < count; ++k)
        {
            PX_CHECK(id_equal(pairs[k].body_a, s->b[body].id));
            PX_CHECK(pairs[k].body_b.index != body);
            if (k > 0)
            {
                PX_CHECK(pairs[k - 1].body_b.index < pairs[k].body_b.index);
            }
        }
        PX_CHECK(ref_proximity(s, body, threshold, ref, &n) == 0);
        /* the world's list is by the other body's index; so is the oracle's once it is keyed (low, high) */
        if (compare_prox(s, pairs, count, ref, n, threshold) != 0)
        {
            fprintf(stderr, "(px_world_body_proximity of body %d, kind %d, type %d)\n", body, (int)s->b[body].k,
                    (int)s->b[body].type);
            return 1;
        }
    }
    return 0;
}

/* A batch of random queries of every kind. */
static int run_queries(scene* s, int rays, int shapes, bool proximity)
{
    static ref_hit ref[MAX_SLOTS];
    static px_world_ray_hit hits[MAX_SLOTS];
    for (int q = 0; q < rays; ++q)
    {
        px_ray ray;
        random_ray(&s->rng, &ray);
        if (check_ray(s, &ray, random_mask(&s->rng), ref, hits) != 0)
        {
            fprintf(stderr, "ray (%a %a %a) dir (%a %a %a) max_t %a\n", (double)ray.origin[0], (double)ray.origin[1],
                    (double)ray.origin[2], (double)ray.direction[0], (double)ray.direction[1],
                    (double)ray.direction[2], (double)ray.max_t);
            return 1;
        }
    }
    for (int q = 0; q < shapes; ++q)
    {
        px_transform pose;
        px_shape shape = random_query_shape(s, &pose);
        uint32_t mask = random_mask(&s->rng);
        if (check_overlap(s, &shape, &pose, mask) != 0)
        {
            return 1;
        }
        double d[3];
        px_rng_unit_vector(&s->rng, d);
        double len = px_rng_int(&s->rng, 8) == 0 ? 0.0 : px_rng_range(&s->rng, 0.5, 8.0);
        vec3 tr = {(float)(d[0] * len), (float)(d[1] * len), (float)(d[2] * len)};
        if (check_shape_cast(s, &shape, &pose, tr, mask) != 0)
        {
            fprintf(stderr, "shape cast of a shape of type %d, translation (%.9g %.9g %.9g)\n", (int)shape.type,
                    (double)tr[0], (double)tr[1], (double)tr[2]);
            return 1;
        }
    }
    if (proximity)
    {
        int cap = 4 * MAX_SLOTS;
        ref_prox* ref_p = (ref_prox*)malloc(sizeof(ref_prox) * (size_t)MAX_SLOTS * 64);
        px_world_proximity_pair* pairs = (px_world_proximity_pair*)malloc(sizeof(px_world_proximity_pair) * (size_t)cap);
        int fail = ref_p == NULL || pairs == NULL;
        float threshold = px_rng_int(&s->rng, 5) == 0 ? 0.0f : (float)px_rng_range(&s->rng, 0.01, 0.4);
        if (fail == 0)
        {
            fail = check_proximity(s, threshold, ref_p, pairs, cap);
        }
        free(ref_p);
        free(pairs);
        if (fail != 0)
        {
            return 1;
        }
    }
    return 0;
}

#endif /* WORLD_TEST_QUERIES */

/* ------------------------------------------------------------------------------------------------ */
/* Tests                                                                                              */

static void print_cmp(const char* name)
{
    printf("    %s: %ld contacts compared (%ld mesh, %ld mesh pairs over the limit), %ld borderline, %ld point-count and %ld point mismatches, max sep diff "
           "%.3g tol, max normal diff %.3g; %ld queries, %ld ties, %ld at the threshold\n",
           name, g_cmp.pairs, g_cmp.mesh_pairs, g_cmp.mesh_truncated, g_cmp.borderline, g_cmp.count_mismatch, g_cmp.point_mismatch, g_cmp.max_sep,
           g_cmp.max_normal, g_cmp.queries, g_cmp.query_ties, g_cmp.query_border);
}

/* Random scene, random motion: contacts against brute force after every update. */
static int run_scene(uint64_t seed, int bodies, int blobs, int steps, bool filters, bool churn, int query_every)
{
    memset(&g_cmp, 0, sizeof(g_cmp));
    scene* s = scene_create(seed, NULL, bodies, blobs, filters, churn);
    PX_CHECK(s != NULL);
    ref_list ref = {NULL, 0, 0};
    int fail = 0;
    for (int step = 0; step < steps && fail == 0; ++step)
    {
        if (step > 0)
        {
            fail = scene_move(s);
        }
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
        if (fail == 0 && step % 5 == 0)
        {
            fail = check_bodies(s);
        }
#if WORLD_TEST_QUERIES
        if (fail == 0 && query_every > 0 && step % query_every == 0)
        {
            fail = run_queries(s, 40, 12, true);
        }
#else
        (void)query_every;
#endif
        if (fail != 0)
        {
            fprintf(stderr, "seed %#llx, step %d\n", (unsigned long long)seed, step);
        }
    }
    print_cmp("scene");
    /* manifolds that differ beyond rounding: near ties of hulls and capsules only, and rare */
    long odd = g_cmp.count_mismatch + g_cmp.point_mismatch + g_cmp.borderline;
    if (fail == 0 && odd > 2 + g_cmp.pairs / 500)
    {
        fprintf(stderr, "%ld of %ld manifolds differ from the oracle beyond rounding\n", odd, g_cmp.pairs);
        fail = 1;
    }
    free(ref.items);
    scene_free(s);
    return fail;
}

static int contacts_test(void)
{
    /* a crowded scene without filters, then one with filters and churn */
    return run_scene(0xA11CE1, 260, 2, 36, false, false, 0);
}

static int churn_filter_test(void)
{
    return run_scene(0xA11CE2, 220, 2, 36, true, true, 0);
}

/* A few bodies whose filters decide everything: all overlap; pairs follow the bits at the next update. */
static int filter_test(void)
{
    px_world* w = NULL;
    PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
    enum { N = 6 };
    px_body_id id[N];
    const uint32_t cat[N] = {1u, 2u, 4u, 1u, 2u, 8u};
    const uint32_t mask[N] = {0xFFFFFFFFu, 1u | 2u, 0xFFFFFFFFu, 2u, 0u, 0xFFFFFFFFu};
    for (int i = 0; i < N; ++i)
    {
        px_body_def def = px_body_default_def();
        def.shape = px_shape_sphere(1.0f);
        def.pose.p[0] = 0.1f * (float)i; /* all overlapping */
        def.category_bits = cat[i];
        def.mask_bits = mask[i];
        def.type = i == 5 ? PX_BODY_STATIC : PX_BODY_MOVING;
        PX_CHECK_STATUS(px_world_create_body(w, &def, &id[i]), PX_OK);
    }
    uint32_t c[N], m[N];
    memcpy(c, cat, sizeof(c));
    memcpy(m, mask, sizeof(m));
    px_rng r = px_rng_seeded(0xF117E5);
    for (int round = 0; round < 40; ++round)
    {
        PX_CHECK(px_world_update(w) >= 0);
        int n = 0;
        const px_world_contact* con = px_world_contacts(w, &n);
        int k = 0;
        for (int i = 0; i < N; ++i)
        {
            for (int j = i + 1; j < N; ++j)
            {
                bool pass = (c[i] & m[j]) != 0u && (c[j] & m[i]) != 0u;
                bool present = k < n && con[k].body_a.index == id[i].index && con[k].body_b.index == id[j].index;
                if (pass != present)
                {
                    fprintf(stderr, "round %d: pair (%d, %d) %s, filters say %s\n", round, i, j,
                            present ? "present" : "absent", pass ? "pass" : "refuse");
                    return 1;
                }
                k += present ? 1 : 0;
            }
        }
        PX_CHECK(k == n);
        /* change one or two bodies' bits */
        for (int t = 0; t < 2; ++t)
        {
            int i = px_rng_int(&r, N);
            c[i] = 1u << px_rng_int(&r, 4);
            m[i] = px_rng_int(&r, 3) == 0 ? 0xFFFFFFFFu : (uint32_t)px_rng_int(&r, 16);
            PX_CHECK_STATUS(px_world_set_filter(w, id[i], c[i], m[i]), PX_OK);
        }
    }
    px_world_destroy(w);
    return 0;
}

/* Ids: destroyed bodies are refused everywhere, slots are reused with a new generation, contacts of a
 * destroyed body vanish at the next update, user data round-trips. */
static int lifecycle_test(void)
{
    memset(&g_cmp, 0, sizeof(g_cmp));
    scene* s = scene_create(0x11FEC1, NULL, 60, 1, false, false);
    PX_CHECK(s != NULL);
    ref_list ref = {NULL, 0, 0};
    int fail = update_and_check(s, &ref);
    for (int round = 0; round < 30 && fail == 0; ++round)
    {
        /* destroy a body that has contacts */
        int n = 0;
        const px_world_contact* c = px_world_contacts(s->world, &n);
        int victim = n > 0 ? c[px_rng_int(&s->rng, n)].body_b.index : random_live(s, false);
        if (s->b[victim].mesh != NULL)
        {
            victim = random_live(s, false);
        }
        px_body_id old = s->b[victim].id;
        PX_CHECK_STATUS(px_world_destroy_body(s->world, old), PX_OK);
        s->b[victim].live = false;
        PX_CHECK(!px_world_is_body(s->world, old));
        PX_CHECK(px_world_body_user_data(s->world, old) == NULL);
        px_transform t = PX_TRANSFORM_IDENTITY_INIT;
        px_transform got;
        PX_CHECK_STATUS(px_world_get_pose(s->world, old, &got), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(pose_equal(&got, &t));
        PX_CHECK_STATUS(px_world_set_pose(s->world, old, &t), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_filter(s->world, old, 1u, 1u), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_destroy_body(s->world, old), PX_ERR_INVALID_ARGUMENT);
        if (round % 3 == 0)
        {
            /* its contacts vanish at the next update (checked against brute force without it) */
            fail = update_and_check(s, &ref);
            c = px_world_contacts(s->world, &n);
            for (int k = 0; k < n && fail == 0; ++k)
            {
                if (c[k].body_a.index == victim || c[k].body_b.index == victim)
                {
                    fprintf(stderr, "a contact of destroyed body %d remains\n", victim);
                    fail = 1;
                }
            }
        }
        /* a new body takes the slot (the free list is last-in first-out or not: any free slot, new generation) */
        kind k;
        px_body_def def = random_body_def(s, &k);
        /* where the old one was, often: it meets the old one's partners, a new pair on a used key */
        if (round % 2 == 0)
        {
            def.pose = s->b[victim].pose;
        }
        px_body_id fresh;
        PX_CHECK_STATUS(px_world_create_body(s->world, &def, &fresh), PX_OK);
        PX_CHECK(!(fresh.index == old.index && fresh.generation == old.generation));
        if (fresh.index == old.index)
        {
            PX_CHECK(fresh.generation != old.generation);
        }
        /* the old id still refused even though its slot is live again */
        PX_CHECK(!px_world_is_body(s->world, old));
        PX_CHECK(px_world_body_user_data(s->world, old) == NULL);
        PX_CHECK_STATUS(px_world_get_pose(s->world, old, &got), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_pose(s->world, old, &t), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_destroy_body(s->world, old), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(px_world_is_body(s->world, fresh));
        PX_CHECK(px_world_body_user_data(s->world, fresh) == def.user_data);
        /* record it in the shadow */
        sbody* b = &s->b[fresh.index];
        PX_CHECK(!b->live);
        memset(b, 0, sizeof(*b));
        b->live = true;
        b->id = fresh;
        b->k = k;
        b->type = def.type;
        b->shape = def.shape;
        PX_CHECK_STATUS(px_transform_normalized(&def.pose, &b->pose), PX_OK);
        b->category = def.category_bits;
        b->mask = def.mask_bits;
        b->user = def.user_data;
        b->size = shape_size(&def.shape);
        if (fresh.index >= s->high)
        {
            s->high = fresh.index + 1;
        }
        if (fail == 0)
        {
            fail = scene_move(s);
        }
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
        if (fail == 0)
        {
            fail = check_bodies(s);
        }
    }
    /* every slot reused: destroy all convex bodies, create as many, all with new generations */
    if (fail == 0)
    {
        px_body_id olds[MAX_SLOTS];
        int no = 0;
        for (int i = 0; i < s->high; ++i)
        {
            if (s->b[i].live && s->b[i].mesh == NULL)
            {
                olds[no++] = s->b[i].id;
                PX_CHECK_STATUS(px_world_destroy_body(s->world, s->b[i].id), PX_OK);
                s->b[i].live = false;
            }
        }
        PX_CHECK(px_world_body_count(s->world) == live_count(s, NULL));
        fail = update_and_check(s, &ref);
        int n = -1;
        (void)px_world_contacts(s->world, &n);
        PX_CHECK(n == 0 || fail != 0); /* the meshes never pair with each other */
        for (int i = 0; i < no && fail == 0; ++i)
        {
            kind k;
            px_body_def def = random_body_def(s, &k);
            fail = scene_add(s, &def, k, NULL);
        }
        int reused = 0;
        for (int i = 0; i < no && fail == 0; ++i)
        {
            PX_CHECK(!px_world_is_body(s->world, olds[i]));
            PX_CHECK(px_world_body_user_data(s->world, olds[i]) == NULL);
            reused += s->b[olds[i].index].live ? 1 : 0;
        }
        if (fail == 0)
        {
            PX_CHECK(reused > 0); /* freed slots are taken again, with new generations (scene_add checks) */
            fail = update_and_check(s, &ref);
        }
        if (fail == 0)
        {
            fail = check_bodies(s);
        }
    }
    free(ref.items);
    scene_free(s);
    return fail;
}

/* Stats before the first update and for NULL; body counts; an empty world. */
static int stats_test(void)
{
    px_world_stats st = px_world_get_stats(NULL);
    px_world_stats zero;
    memset(&zero, 0, sizeof(zero));
    PX_CHECK(memcmp(&st, &zero, sizeof(st)) == 0);
    PX_CHECK(px_world_body_count(NULL) == 0);
    int n = 7;
    PX_CHECK(px_world_contacts(NULL, &n) == NULL && n == 0);
    px_world* w = NULL;
    PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
    st = px_world_get_stats(w);
    PX_CHECK(memcmp(&st, &zero, sizeof(st)) == 0);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    n = 7;
    (void)px_world_contacts(w, &n);
    PX_CHECK(n == 0);
    px_body_def def = px_body_default_def();
    px_body_id a, b;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &a), PX_OK);
    def.pose.p[0] = 1.5f;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &b), PX_OK);
    PX_CHECK(px_world_body_count(w) == 2);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    const px_world_contact* c = px_world_contacts(w, &n);
    PX_CHECK(n == 1 && c[0].began && c[0].manifold.count == 1);
    PX_CHECK_NEAR(c[0].manifold.points[0].separation, -0.5, 1e-6);
    PX_CHECK_NEAR(c[0].manifold.normal[0], 1.0, 1e-6);
    st = px_world_get_stats(w);
    PX_CHECK(st.body_count == 2 && st.moving_count == 2 && st.pair_count == 1 && st.touching_pairs == 1 &&
             st.contact_count == 1 && st.point_count == 1 && st.new_pairs == 1);
    /* unchanged: same contact, no longer beginning */
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    c = px_world_contacts(w, &n);
    PX_CHECK(n == 1 && !c[0].began);
    st = px_world_get_stats(w);
    PX_CHECK(st.new_pairs == 0 && st.pair_count == 1);
    /* apart by more than the margin, but boxes still overlapping: no contact, pair kept */
    px_transform t = PX_TRANSFORM_IDENTITY_INIT;
    t.p[0] = 2.0f + 1.5f * px_world_default_def().contact_margin;
    PX_CHECK_STATUS(px_world_set_pose(w, b, &t), PX_OK);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    (void)px_world_contacts(w, &n);
    PX_CHECK(n == 0);
    st = px_world_get_stats(w);
    PX_CHECK(st.touching_pairs == 0 && st.contact_count == 0);
    /* within the margin: a speculative contact that begins again */
    t.p[0] = 2.0f + 0.5f * px_world_default_def().contact_margin;
    PX_CHECK_STATUS(px_world_set_pose(w, b, &t), PX_OK);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    c = px_world_contacts(w, &n);
    PX_CHECK(n == 1 && c[0].began && c[0].manifold.points[0].separation > 0.0f);
    /* the body destroyed and another made in its slot, touching the same partner: a new pair, began again */
    PX_CHECK_STATUS(px_world_destroy_body(w, b), PX_OK);
    def = px_body_default_def();
    memcpy(def.pose.p, t.p, sizeof(vec3));
    px_body_id b2;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &b2), PX_OK);
    PX_CHECK(b2.index == b.index && b2.generation != b.generation);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    c = px_world_contacts(w, &n);
    PX_CHECK(n == 1 && c[0].began && id_equal(c[0].body_b, b2));
    PX_CHECK(px_world_get_stats(w).new_pairs == 1);
    b = b2;
    /* far away: the pair goes */
    t.p[0] = 50.0f;
    PX_CHECK_STATUS(px_world_set_pose(w, b, &t), PX_OK);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    st = px_world_get_stats(w);
    PX_CHECK(st.pair_count == 0 && st.contact_count == 0);
    /* two static bodies never pair */
    px_body_id s1, s2;
    def = px_body_default_def();
    def.type = PX_BODY_STATIC;
    def.pose.p[1] = 10.0f;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &s1), PX_OK);
    def.pose.p[1] = 10.5f;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &s2), PX_OK);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    st = px_world_get_stats(w);
    PX_CHECK(st.pair_count == 0 && st.body_count == 4 && st.moving_count == 2);
    /* a moving body there pairs with both */
    t = (px_transform)PX_TRANSFORM_IDENTITY_INIT;
    t.p[1] = 10.25f;
    PX_CHECK_STATUS(px_world_set_pose(w, a, &t), PX_OK);
    PX_CHECK_STATUS(px_world_update(w), PX_OK);
    c = px_world_contacts(w, &n);
    PX_CHECK(n == 2 && c[0].body_a.index == a.index && c[0].body_b.index == s1.index &&
             c[1].body_b.index == s2.index);
    px_world_destroy(w);
    px_world_destroy(NULL);
    return 0;
}

/* Whether two worlds report the same contacts and stats, bit for bit (but the trees' heights). */
static bool same_contacts(const px_world* w1, const px_world* w2)
{
    int n1 = -1, n2 = -2;
    const px_world_contact* c1 = px_world_contacts(w1, &n1);
    const px_world_contact* c2 = px_world_contacts(w2, &n2);
    px_world_stats st1 = px_world_get_stats(w1), st2 = px_world_get_stats(w2);
    /* the trees' heights may differ: the batch places its bodies another way */
    st1.tree_height_moving = st2.tree_height_moving;
    st1.tree_height_static = st2.tree_height_static;
    if (n1 != n2 || memcmp(&st1, &st2, sizeof(st1)) != 0)
    {
        return false;
    }
    for (int i = 0; i < n1; ++i)
    {
        if (!id_equal(c1[i].body_a, c2[i].body_a) || !id_equal(c1[i].body_b, c2[i].body_b) ||
            c1[i].triangle != c2[i].triangle || c1[i].began != c2[i].began ||
            memcmp(&c1[i].manifold, &c2[i].manifold, sizeof(px_manifold)) != 0)
        {
            return false;
        }
    }
    return true;
}

/* One step of two copies of a scene (moved, except at step 0, then updated): 1 when they fail or differ. */
static int step_both(scene* s1, scene* s2, int step, const char* what)
{
    if (step > 0 && (scene_move(s1) | scene_move(s2)) != 0)
    {
        return 1;
    }
    px_status u1 = px_world_update(s1->world);
    px_status u2 = px_world_update(s2->world);
    if (u1 < 0 || u1 != u2 || !same_contacts(s1->world, s2->world))
    {
        fprintf(stderr, "step %d: %s: status %d/%d, contacts or stats differ\n", step, what, (int)u1, (int)u2);
        return 1;
    }
    return 0;
}

/* Move a scene once more and check its update against brute force. */
static int move_and_check(scene* s)
{
    ref_list ref = {NULL, 0, 0};
    memset(&g_cmp, 0, sizeof(g_cmp));
    int fail = set_prev_from_world(s) | scene_move(s);
    if (fail == 0)
    {
        fail = update_and_check(s, &ref);
    }
    free(ref.items);
    return fail;
}

/* Same scene with a 2-thread pool and inline: bit-identical contacts, stats and proximity pairs. The
 * threaded world gets its poses from px_world_set_poses, the other from px_world_set_pose. */
static int threads_test(void)
{
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(2, NULL, &pool), PX_OK);
    px_world_def d1 = px_world_default_def();
    px_world_def d2 = px_world_default_def();
    d2.tasks = px_thread_pool_task_system(pool);
    scene* s1 = scene_create(0x7A5C, &d1, 240, 2, true, true);
    scene* s2 = scene_create(0x7A5C, &d2, 240, 2, true, true);
    int fail = s1 == NULL || s2 == NULL;
    if (fail == 0)
    {
        s2->batch = true; /* and its poses set in one call on the pool */
    }
#if WORLD_TEST_QUERIES
    int cap = 8192;
    px_world_proximity_pair* p1 = (px_world_proximity_pair*)malloc(sizeof(px_world_proximity_pair) * (size_t)cap);
    px_world_proximity_pair* p2 = (px_world_proximity_pair*)malloc(sizeof(px_world_proximity_pair) * (size_t)cap);
    fail |= p1 == NULL || p2 == NULL;
#endif
    px_rng qr = px_rng_seeded(0x7A5D);
    for (int step = 0; step < 25 && fail == 0; ++step)
    {
        fail = step_both(s1, s2, step, "2 threads and set_poses against inline and set_pose");
        if (fail != 0)
        {
            break;
        }
#if WORLD_TEST_QUERIES
        if (fail == 0 && step % 4 == 0)
        {
            float threshold = (float)px_rng_range(&qr, 0.0, 0.5);
            int m1 = -1, m2 = -2;
            px_status q1 = px_world_proximity(s1->world, threshold, p1, cap, &m1);
            px_status q2 = px_world_proximity(s2->world, threshold, p2, cap, &m2);
            if (q1 < 0 || q1 != q2 || m1 != m2 || m1 > cap || memcmp(p1, p2, sizeof(*p1) * (size_t)m1) != 0)
            {
                fprintf(stderr, "step %d: proximity differs with threads (%d/%d, %d/%d)\n", step, (int)q1, (int)q2,
                        m1, m2);
                fail = 1;
            }
            int body = px_rng_int(&qr, s1->high);
            if (fail == 0 && s1->b[body].live)
            {
                q1 = px_world_body_proximity(s1->world, s1->b[body].id, threshold, p1, cap, &m1);
                q2 = px_world_body_proximity(s2->world, s2->b[body].id, threshold, p2, cap, &m2);
                if (q1 < 0 || q1 != q2 || m1 != m2 || memcmp(p1, p2, sizeof(*p1) * (size_t)m1) != 0)
                {
                    fprintf(stderr, "step %d: body proximity differs with threads\n", step);
                    fail = 1;
                }
            }
        }
#endif
    }
    if (fail == 0)
    {
        fail = move_and_check(s2); /* and the threaded world is right, too */
    }
#if WORLD_TEST_QUERIES
    free(p1);
    free(p2);
#endif
    scene_free(s1);
    scene_free(s2);
    px_thread_pool_destroy(pool);
    return fail;
}

#if WORLD_TEST_QUERIES
/* Queries of every kind against brute force in a moving scene with filters. */
static int queries_test(void)
{
    memset(&g_cmp, 0, sizeof(g_cmp));
    scene* s = scene_create(0x0E1234, NULL, 200, 2, true, true);
    PX_CHECK(s != NULL);
    ref_list ref = {NULL, 0, 0};
    int fail = 0;
    for (int step = 0; step < 6 && fail == 0; ++step)
    {
        if (step > 0)
        {
            fail = scene_move(s);
        }
        /* poses set but no update yet: queries see them */
        if (fail == 0)
        {
            fail = run_queries(s, 80, 25, true);
        }
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
        if (fail != 0)
        {
            fprintf(stderr, "queries_test step %d\n", step);
        }
    }
    print_cmp("queries");
    free(ref.items);
    scene_free(s);
    return fail;
}

/* Exact ties: two bodies with the same shape and pose, the lower index in the moving tree and the higher one in
 * the static tree (which the queries may visit first), in a world with zero margins (fat box = tight box):
 * every ray or cast that hits them hits both at the same t, and the lower index must win. */
static int ties_test(void)
{
    px_rng r = px_rng_seeded(0x71E5);
    px_world_def d = px_world_default_def();
    d.aabb_margin = 0.0f;
    d.contact_margin = 0.0f;
    int wrong_ray = 0, wrong_cast = 0, hits = 0, casts = 0;
    for (int trial = 0; trial < 300; ++trial)
    {
        px_world* w = NULL;
        PX_CHECK_STATUS(px_world_create(&d, &w), PX_OK);
        px_body_def def = px_body_default_def();
        int u = trial % 3;
        vec3 h = {(float)px_rng_range(&r, 0.1, 2.0), (float)px_rng_range(&r, 0.1, 2.0), (float)px_rng_range(&r, 0.1, 2.0)};
        def.shape = u == 0 ? px_shape_box(h) : u == 1 ? px_shape_sphere(h[0]) : px_shape_capsule(h[0], h[1]);
        for (int k = 0; k < 3; ++k)
        {
            def.pose.p[k] = (float)px_rng_range(&r, -50.0, 50.0);
        }
        px_body_id lo, hi;
        def.type = PX_BODY_MOVING;
        PX_CHECK_STATUS(px_world_create_body(w, &def, &lo), PX_OK);
        def.type = PX_BODY_STATIC;
        PX_CHECK_STATUS(px_world_create_body(w, &def, &hi), PX_OK);
        PX_CHECK(lo.index < hi.index);
        /* axis-aligned rays at a face (where the box's bounds and its surface coincide) and random ones */
        px_ray ray;
        int axis = px_rng_int(&r, 3);
        double sign = px_rng_int(&r, 2) == 0 ? -1.0 : 1.0;
        for (int k = 0; k < 3; ++k)
        {
            ray.origin[k] = def.pose.p[k] + (float)px_rng_range(&r, -0.5, 0.5) * h[k];
            ray.direction[k] = 0.0f;
        }
        ray.origin[axis] = def.pose.p[axis] + (float)(sign * px_rng_range(&r, 3.0, 20.0));
        ray.direction[axis] = (float)(-sign * px_rng_range(&r, 0.2, 3.0));
        if (trial % 4 == 3)
        {
            double dv[3];
            px_rng_unit_vector(&r, dv);
            for (int k = 0; k < 3; ++k)
            {
                ray.origin[k] = def.pose.p[k] - (float)(10.0 * dv[k]);
                ray.direction[k] = (float)dv[k] + (float)px_rng_range(&r, -0.05, 0.05);
            }
        }
        ray.max_t = INFINITY;
        px_world_ray_hit wh;
        PX_CHECK(px_world_ray_cast(w, &ray, 0xFFFFFFFFu, &wh) >= 0);
        if (wh.hit.hit)
        {
            hits++;
            if (!id_equal(wh.body, lo))
            {
                if (wrong_ray++ == 0)
                {
                    fprintf(stderr, "tie: px_world_ray_cast hit body %d, not the lower index %d (shape type %d, t %.9g)\n",
                            (int)wh.body.index, (int)lo.index, (int)def.shape.type, (double)wh.hit.t);
                }
            }
        }
        /* a shape cast along the same line */
        px_shape q = px_shape_sphere(0.25f);
        px_transform qp = PX_TRANSFORM_IDENTITY_INIT;
        memcpy(qp.p, ray.origin, sizeof(vec3));
        vec3 tr;
        for (int k = 0; k < 3; ++k)
        {
            tr[k] = ray.direction[k] * 30.0f;
        }
        px_world_cast_result cr;
        PX_CHECK(px_world_shape_cast(w, &q, &qp, tr, 0xFFFFFFFFu, &cr) >= 0);
        if (cr.hit)
        {
            casts++;
            if (!id_equal(cr.body, lo))
            {
                if (wrong_cast++ == 0)
                {
                    fprintf(stderr, "tie: px_world_shape_cast hit body %d, not the lower index %d (fraction %.9g)\n",
                            (int)cr.body.index, (int)lo.index, (double)cr.fraction);
                }
            }
        }
        px_world_destroy(w);
    }
    if (wrong_ray > 0 || wrong_cast > 0)
    {
        fprintf(stderr, "ties: %d of %d ray hits and %d of %d casts went to the higher index\n", wrong_ray, hits,
                wrong_cast, casts);
        return 1;
    }
    PX_CHECK(hits > 100 && casts > 100);
    return 0;
}

/* Hand-made cases with known answers: ties, t = 0 inside, masks, static bodies, meshes. */
static int query_cases_test(void)
{
    px_world* w = NULL;
    PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
    px_body_def def = px_body_default_def();
    px_body_id a, b, c;
    def.pose.p[0] = 5.0f; /* unit sphere at x = 5 */
    def.category_bits = 1u;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &a), PX_OK);
    def.pose.p[0] = 5.0f; /* the same sphere again, a higher index: a tie */
    def.category_bits = 2u;
    def.type = PX_BODY_STATIC;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &b), PX_OK);
    vec3 h = {0.5f, 0.5f, 0.5f};
    def.shape = px_shape_box(h);
    def.pose.p[0] = 10.0f;
    def.category_bits = 4u;
    def.type = PX_BODY_MOVING;
    PX_CHECK_STATUS(px_world_create_body(w, &def, &c), PX_OK);
    px_ray ray = {{0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, 100.0f};
    px_world_ray_hit hit;
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 0xFFFFFFFFu, &hit), PX_OK);
    PX_CHECK(hit.hit.hit && id_equal(hit.body, a) && hit.hit.t == 4.0f && hit.hit.normal[0] == -1.0f);
    PX_CHECK(hit.hit.triangle == PX_NULL_INDEX);
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 2u | 4u, &hit), PX_OK);
    PX_CHECK(hit.hit.hit && id_equal(hit.body, b) && hit.hit.t == 4.0f);
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 4u, &hit), PX_OK);
    PX_CHECK(hit.hit.hit && id_equal(hit.body, c) && hit.hit.t == 9.5f);
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 8u, &hit), PX_OK);
    PX_CHECK(!hit.hit.hit && hit.body.index == 0 && hit.body.generation == 0u);
    px_world_ray_hit all[4];
    int n = -1;
    PX_CHECK_STATUS(px_world_ray_cast_all(w, &ray, 0xFFFFFFFFu, all, 4, &n), PX_OK);
    PX_CHECK(n == 3 && id_equal(all[0].body, a) && id_equal(all[1].body, b) && id_equal(all[2].body, c));
    PX_CHECK_STATUS(px_world_ray_cast_all(w, &ray, 0xFFFFFFFFu, all, 1, &n), PX_WARN_CAPACITY);
    PX_CHECK(n == 3 && id_equal(all[0].body, a));
    /* max_t short of everything */
    ray.max_t = 3.9f;
    PX_CHECK_STATUS(px_world_ray_cast_all(w, &ray, 0xFFFFFFFFu, all, 4, &n), PX_OK);
    PX_CHECK(n == 0);
    /* starting inside: t = 0 */
    ray.origin[0] = 5.0f;
    ray.max_t = 100.0f;
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 0xFFFFFFFFu, &hit), PX_OK);
    PX_CHECK(hit.hit.hit && hit.hit.t == 0.0f && id_equal(hit.body, a));
    /* overlap and cast */
    px_shape q = px_shape_sphere(0.5f);
    px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
    pose.p[0] = 6.2f;
    px_body_id ids[4];
    PX_CHECK_STATUS(px_world_overlap(w, &q, &pose, 0xFFFFFFFFu, ids, 4, &n), PX_OK);
    PX_CHECK(n == 2 && id_equal(ids[0], a) && id_equal(ids[1], b));
    PX_CHECK_STATUS(px_world_overlap(w, &q, &pose, 2u, ids, 4, &n), PX_OK);
    PX_CHECK(n == 1 && id_equal(ids[0], b));
    PX_CHECK_STATUS(px_world_overlap(w, &q, &pose, 0xFFFFFFFFu, ids, 1, &n), PX_WARN_CAPACITY);
    PX_CHECK(n == 2 && id_equal(ids[0], a));
    pose.p[0] = 0.0f;
    vec3 tr = {20.0f, 0.0f, 0.0f};
    px_world_cast_result cr;
    PX_CHECK(px_world_shape_cast(w, &q, &pose, tr, 0xFFFFFFFFu, &cr) >= 0);
    PX_CHECK(cr.hit && id_equal(cr.body, a) && !cr.initial_overlap);
    PX_CHECK_NEAR(cr.fraction, 3.5 / 20.0, 1e-5);
    PX_CHECK_NEAR(cr.normal[0], -1.0, 1e-4);
    PX_CHECK(px_world_shape_cast(w, &q, &pose, tr, 4u, &cr) >= 0);
    PX_CHECK(cr.hit && id_equal(cr.body, c));
    PX_CHECK_NEAR(cr.fraction, 9.0 / 20.0, 1e-5);
    tr[0] = 1.0f;
    PX_CHECK(px_world_shape_cast(w, &q, &pose, tr, 0xFFFFFFFFu, &cr) >= 0);
    PX_CHECK(!cr.hit && cr.body.generation == 0u);
    /* proximity: a and c are 3.5 apart, a and b overlap but are... b is static and a moving: a pair */
    px_world_proximity_pair pp[4];
    PX_CHECK_STATUS(px_world_proximity(w, 0.1f, pp, 4, &n), PX_OK);
    PX_CHECK(n == 1 && id_equal(pp[0].body_a, a) && id_equal(pp[0].body_b, b) && pp[0].distance == 0.0f);
    PX_CHECK_STATUS(px_world_proximity(w, 3.6f, pp, 4, &n), PX_OK);
    PX_CHECK(n == 3 && id_equal(pp[1].body_a, a) && id_equal(pp[1].body_b, c) && id_equal(pp[2].body_a, b) &&
             id_equal(pp[2].body_b, c));
    PX_CHECK_NEAR(pp[1].distance, 3.5, 1e-5);
    PX_CHECK(pp[1].triangle == PX_NULL_INDEX);
    PX_CHECK_STATUS(px_world_proximity(w, 3.6f, pp, 2, &n), PX_WARN_CAPACITY);
    PX_CHECK(n == 3);
    PX_CHECK_STATUS(px_world_body_proximity(w, c, 3.6f, pp, 4, &n), PX_OK);
    PX_CHECK(n == 2 && id_equal(pp[0].body_a, c) && id_equal(pp[0].body_b, a) && id_equal(pp[1].body_b, b));
    PX_CHECK_NEAR(pp[0].distance, 3.5, 1e-5);
    PX_CHECK_NEAR(pp[0].point_a[0], 9.5, 1e-5);
    PX_CHECK_NEAR(pp[0].point_b[0], 6.0, 1e-5);
    /* an infinite threshold is valid: every allowed pair */
    n = -1;
    PX_CHECK_STATUS(px_world_proximity(w, INFINITY, pp, 4, &n), PX_OK);
    PX_CHECK(n == 3);
    n = -1;
    PX_CHECK_STATUS(px_world_body_proximity(w, c, INFINITY, pp, 4, &n), PX_OK);
    PX_CHECK(n == 2);
    n = -1;
    PX_CHECK_STATUS(px_world_proximity(w, FLT_MAX, pp, 4, &n), PX_OK);
    PX_CHECK(n == 3);
    /* a mask of no bits finds nothing */
    ray.origin[0] = 0.0f;
    PX_CHECK_STATUS(px_world_ray_cast(w, &ray, 0u, &hit), PX_OK);
    PX_CHECK(!hit.hit.hit);
    px_world_destroy(w);
    return 0;
}
#endif

/* px_world_set_poses: a crowded scene moved by one call per step on a 2-thread pool (so that many bodies
 * leave their fat boxes at once and the trees take them in parallel) gives the contacts of the same scene
 * moved by px_world_set_pose, bit for bit; both trees stay valid; the batched world agrees with brute force;
 * invalid elements change nothing and the valid ones still move. */
static int set_poses_test(void)
{
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(2, NULL, &pool), PX_OK);
    px_world_def d1 = px_world_default_def();
    px_world_def d2 = px_world_default_def();
    d2.tasks = px_thread_pool_task_system(pool);
    scene* s1 = scene_create(0xBA7C, &d1, 900, 2, true, true);
    scene* s2 = scene_create(0xBA7C, &d2, 900, 2, true, true);
    int fail = s1 == NULL || s2 == NULL;
    if (fail == 0)
    {
        s2->batch = true;
    }
    for (int step = 0; step < 12 && fail == 0; ++step)
    {
        fail = step_both(s1, s2, step, "px_world_set_poses against px_world_set_pose");
        for (int t = 0; t < 2 && fail == 0; ++t)
        {
            if (px_dynamic_tree_validate(s2->world->trees[t]) != PX_OK ||
                px_dynamic_tree_proxy_count(s2->world->trees[t]) != px_dynamic_tree_proxy_count(s1->world->trees[t]))
            {
                fprintf(stderr, "step %d: tree %d invalid after px_world_set_poses\n", step, t);
                fail = 1;
            }
        }
    }
    if (fail == 0)
    {
        fail = move_and_check(s2);
    }
    if (fail == 0)
    {
        /* bad elements among good ones */
        px_world* w = s2->world;
        int a = random_live(s2, false), b = random_live(s2, false);
        PX_CHECK(a >= 0 && b >= 0 && a != b);
        px_body_id dead = s2->b[a].id;
        dead.generation += 1u;
        px_transform ta = s2->b[a].pose, tb = s2->b[b].pose, nan_pose = ta;
        ta.p[0] += 0.125f;
        tb.p[2] -= 0.25f;
        nan_pose.p[1] = NAN;
        px_transform zero_q = ta;
        memset(zero_q.q, 0, sizeof(zero_q.q));
        px_body_id ids[5] = {dead, s2->b[a].id, s2->b[b].id, s2->b[a].id, s2->b[b].id};
        px_transform poses[5] = {ta, ta, tb, tb, nan_pose};
        PX_CHECK_STATUS(px_world_set_poses(w, ids, poses, 5), PX_ERR_INVALID_ARGUMENT);
        /* a takes its first element's pose (the second names it again: refused), b its own */
        PX_CHECK_STATUS(px_transform_normalized(&ta, &s2->b[a].pose), PX_OK);
        PX_CHECK_STATUS(px_transform_normalized(&tb, &s2->b[b].pose), PX_OK);
        PX_CHECK(check_bodies(s2) == 0);
        px_body_id one[2] = {s2->b[b].id, s2->b[a].id};
        px_transform bad[2] = {nan_pose, zero_q};
        PX_CHECK_STATUS(px_world_set_poses(w, one, bad, 2), PX_ERR_NON_FINITE);
        PX_CHECK_STATUS(px_world_set_poses(w, one + 1, bad + 1, 1), PX_ERR_DEGENERATE_INPUT);
        PX_CHECK_STATUS(px_world_set_poses(w, one, NULL, 1), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_poses(w, NULL, bad, 1), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_poses(w, one, bad, -1), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_poses(NULL, one, bad, 1), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_poses(w, NULL, NULL, 0), PX_OK);
        px_world* fresh = NULL; /* no scratch yet: nothing to do, nothing touched */
        PX_CHECK_STATUS(px_world_create(NULL, &fresh), PX_OK);
        PX_CHECK_STATUS(px_world_set_poses(fresh, NULL, NULL, 0), PX_OK);
        PX_CHECK_STATUS(px_world_set_poses(fresh, one, bad, 1), PX_ERR_INVALID_ARGUMENT); /* not its bodies */
        px_world_destroy(fresh);
        PX_CHECK(check_bodies(s2) == 0);
        PX_CHECK_STATUS(px_dynamic_tree_validate(w->trees[0]), PX_OK);
        PX_CHECK_STATUS(px_dynamic_tree_validate(w->trees[1]), PX_OK);
        ref_list ref = {NULL, 0, 0};
        fail = set_prev_from_world(s2);
        if (fail == 0)
        {
            fail = update_and_check(s2, &ref);
        }
        free(ref.items);
    }
    scene_free(s1);
    scene_free(s2);
    px_thread_pool_destroy(pool);
    return fail;
}

/* Degenerate and extreme broadphase input (KNOWN_FAILURES.md 2.6: equal centroids, huge and overflowing
 * boxes), on a 2-thread pool with the moving tree rebuilt every update: 150 unit spheres at one point, 20
 * spheres 1e30 apart, two at +-3e38 and one at FLT_MAX jumping around, moved by px_world_set_poses. Every
 * update succeeds, the trees stay valid, the coincident spheres make exactly their 11175 pairs, each one
 * point 1 deep, and nothing else touches; a pose at infinity is refused alone. */
static int extreme_test(void)
{
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(2, NULL, &pool), PX_OK);
    px_world_def d = px_world_default_def();
    d.tasks = px_thread_pool_task_system(pool);
    d.rebuild_interval = 1;
    px_world* w = NULL;
    PX_CHECK_STATUS(px_world_create(&d, &w), PX_OK);
    enum { CLUSTER = 150, FAR = 20, EXTREME = 3, N = CLUSTER + FAR + EXTREME };
    static px_body_id ids[N];
    static px_transform poses[N];
    px_body_def bd = px_body_default_def();
    bd.shape = px_shape_sphere(0.5f);
    const float extreme_x[EXTREME] = {3.0e38f, -3.0e38f, FLT_MAX};
    for (int i = 0; i < N; ++i)
    {
        px_transform t = PX_TRANSFORM_IDENTITY_INIT;
        if (i >= CLUSTER && i < CLUSTER + FAR)
        {
            t.p[0] = 1.0e30f * (float)(i - CLUSTER + 1);
            t.p[2] = -1.0e30f * (float)(i - CLUSTER);
        }
        else if (i >= CLUSTER + FAR)
        {
            t.p[0] = extreme_x[i - CLUSTER - FAR];
        }
        bd.pose = t;
        poses[i] = t;
        PX_CHECK_STATUS(px_world_create_body(w, &bd, &ids[i]), PX_OK);
    }
    for (int step = 0; step < 6; ++step)
    {
        if (step > 0)
        {
            for (int i = 0; i < N; ++i)
            {
                if (i < CLUSTER)
                {
                    poses[i].p[1] = 0.001f * (float)step; /* all together: equal centres again */
                }
                else if (i >= CLUSTER + FAR)
                {
                    poses[i].p[0] = (step % 2 == 0 ? 1.0f : -1.0f) * extreme_x[i - CLUSTER - FAR];
                    poses[i].p[1] = (step % 3 == 0) ? 3.0e38f : 0.0f;
                }
            }
            PX_CHECK_STATUS(px_world_set_poses(w, ids, poses, N), PX_OK);
        }
        PX_CHECK(px_world_update(w) >= 0);
        PX_CHECK_STATUS(px_dynamic_tree_validate(w->trees[0]), PX_OK);
        PX_CHECK_STATUS(px_dynamic_tree_validate(w->trees[1]), PX_OK);
        int n = 0;
        const px_world_contact* c = px_world_contacts(w, &n);
        PX_CHECK(n == CLUSTER * (CLUSTER - 1) / 2);
        for (int k = 0; k < n; ++k)
        {
            PX_CHECK(c[k].body_a.index < CLUSTER && c[k].body_b.index < CLUSTER);
            PX_CHECK(c[k].manifold.count == 1);
            PX_CHECK_NEAR(c[k].manifold.points[0].separation, -1.0, 1e-5);
        }
    }
    /* a pose at infinity: that element refused, the others moved */
    px_transform inf_pose = poses[CLUSTER];
    inf_pose.p[0] = INFINITY;
    px_transform moved = poses[0];
    moved.p[0] = 5.0f;
    px_body_id two[2] = {ids[CLUSTER], ids[0]};
    px_transform two_poses[2] = {inf_pose, moved};
    PX_CHECK_STATUS(px_world_set_poses(w, two, two_poses, 2), PX_ERR_NON_FINITE);
    px_transform got;
    PX_CHECK_STATUS(px_world_get_pose(w, ids[CLUSTER], &got), PX_OK);
    PX_CHECK(got.p[0] == poses[CLUSTER].p[0]);
    PX_CHECK_STATUS(px_world_get_pose(w, ids[0], &got), PX_OK);
    PX_CHECK(got.p[0] == 5.0f);
    PX_CHECK(px_world_update(w) >= 0);
    int n = 0;
    (void)px_world_contacts(w, &n);
    PX_CHECK(n == (CLUSTER - 1) * (CLUSTER - 2) / 2);
    px_world_destroy(w);
    px_thread_pool_destroy(pool);
    return 0;
}

/* Bad input: documented statuses, the world untouched (the next update still matches brute force). */
static int bad_input_test(void)
{
    /* px_world_create */
    px_world* w = (px_world*)&g_user[0];
    PX_CHECK_STATUS(px_world_create(NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    px_world_def d;
    memset(&d, 0, sizeof(d));
    PX_CHECK_STATUS(px_world_create(&d, &w), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(w == NULL);
    const float bad_margins[] = {-1.0f, NAN, INFINITY, -0.0001f};
    for (int i = 0; i < 4; ++i)
    {
        d = px_world_default_def();
        d.aabb_margin = bad_margins[i];
        w = (px_world*)&g_user[0];
        PX_CHECK_STATUS(px_world_create(&d, &w), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(w == NULL);
        d = px_world_default_def();
        d.contact_margin = bad_margins[i];
        PX_CHECK_STATUS(px_world_create(&d, &w), PX_ERR_INVALID_ARGUMENT);
    }
    d = px_world_default_def();
    d.allocator.alloc = pxt_count_alloc_fn;
    PX_CHECK_STATUS(px_world_create(&d, &w), PX_ERR_INVALID_ARGUMENT);
    d = px_world_default_def();
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(2, NULL, &pool), PX_OK);
    d.tasks = px_thread_pool_task_system(pool);
    d.tasks.finish = NULL;
    PX_CHECK_STATUS(px_world_create(&d, &w), PX_ERR_INVALID_ARGUMENT);
    px_thread_pool_destroy(pool);
    /* zero margins are valid */
    d = px_world_default_def();
    d.aabb_margin = 0.0f;
    d.contact_margin = 0.0f;
    PX_CHECK_STATUS(px_world_create(&d, &w), PX_OK);
    px_world_destroy(w);

    memset(&g_cmp, 0, sizeof(g_cmp));
    scene* s = scene_create(0xBAD1, NULL, 40, 1, false, false);
    PX_CHECK(s != NULL);
    ref_list ref = {NULL, 0, 0};
    int fail = update_and_check(s, &ref);
    px_world* sw = s->world;
    int live = px_world_body_count(sw);
    px_body_id id;
    px_body_def def = px_body_default_def();
    /* create_body */
    PX_CHECK_STATUS(px_world_create_body(NULL, &def, &id), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(id.index == 0 && id.generation == 0u);
    PX_CHECK_STATUS(px_world_create_body(sw, NULL, &id), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_create_body(sw, &def, NULL), PX_ERR_INVALID_ARGUMENT);
    px_body_def bad = def;
    bad.internal_value = 0;
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.type = (px_body_type)7;
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.shape = px_shape_sphere(-1.0f);
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    vec3 nh = {0.5f, -0.5f, 0.5f};
    bad.shape = px_shape_box(nh);
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_INVALID_ARGUMENT);
    bad = def;
    bad.pose.p[1] = NAN;
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_NON_FINITE);
    bad = def;
    bad.pose.q[2] = INFINITY;
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_NON_FINITE);
    bad = def;
    memset(bad.pose.q, 0, sizeof(versor));
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_DEGENERATE_INPUT);
    /* a sphere no pair query could take (helper-43: one made px_world_proximity fail for every threshold) */
    bad = def;
    bad.mesh = NULL;
    bad.shape = px_shape_sphere(0x1p61f);
    PX_CHECK_STATUS(px_world_create_body(sw, &bad, &id), PX_ERR_OUT_OF_RANGE);
    PX_CHECK(id.index == 0 && id.generation == 0u);
    PX_CHECK(px_world_body_count(sw) == live);

    /* ids and poses */
    int i0 = random_live(s, false);
    px_body_id good = s->b[i0].id;
    px_transform t = s->b[i0].pose, got;
    px_body_id zero_id = {0, 0};
    px_body_id far_id = {MAX_SLOTS * 4, 1};
    px_body_id neg_id = {-1, 1};
    px_body_id wrong_gen = good;
    wrong_gen.generation += 1u;
    px_body_id dead[] = {zero_id, far_id, neg_id, wrong_gen};
    for (int k = 0; k < 4; ++k)
    {
        PX_CHECK_STATUS(px_world_set_pose(sw, dead[k], &t), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_get_pose(sw, dead[k], &got), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_destroy_body(sw, dead[k]), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK_STATUS(px_world_set_filter(sw, dead[k], 1u, 1u), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(!px_world_is_body(sw, dead[k]));
        PX_CHECK(px_world_body_user_data(sw, dead[k]) == NULL);
    }
    PX_CHECK_STATUS(px_world_set_pose(NULL, good, &t), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_set_pose(sw, good, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_get_pose(NULL, good, &got), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_get_pose(sw, good, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_destroy_body(NULL, good), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_set_filter(NULL, good, 1u, 1u), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(!px_world_is_body(NULL, good));
    PX_CHECK(px_world_body_user_data(NULL, good) == NULL);
    PX_CHECK_STATUS(px_world_update(NULL), PX_ERR_INVALID_ARGUMENT);
    px_transform bp = t;
    bp.p[0] = NAN;
    PX_CHECK_STATUS(px_world_set_pose(sw, good, &bp), PX_ERR_NON_FINITE);
    bp = t;
    bp.p[2] = -INFINITY;
    PX_CHECK_STATUS(px_world_set_pose(sw, good, &bp), PX_ERR_NON_FINITE);
    bp = t;
    bp.q[3] = NAN;
    PX_CHECK_STATUS(px_world_set_pose(sw, good, &bp), PX_ERR_NON_FINITE);
    bp = t;
    memset(bp.q, 0, sizeof(versor));
    PX_CHECK_STATUS(px_world_set_pose(sw, good, &bp), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK_STATUS(px_world_get_pose(sw, good, &got), PX_OK);
    PX_CHECK(pose_equal(&got, &s->b[i0].pose));
    /* a huge pose: finite, but its box may not be; either accepted (and then right) or refused as non-finite */
    bp = t;
    bp.p[0] = 3.0e38f;
    px_status hs = px_world_set_pose(sw, good, &bp);
    PX_CHECK(hs == PX_OK || hs == PX_ERR_NON_FINITE);
    if (hs == PX_OK)
    {
        PX_CHECK_STATUS(px_transform_normalized(&bp, &s->b[i0].pose), PX_OK);
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
        PX_CHECK(set_pose_checked(s, i0, &t) == 0);
    }
    if (fail == 0)
    {
        fail = update_and_check(s, &ref);
    }
    if (fail == 0)
    {
        fail = check_bodies(s);
    }
#if WORLD_TEST_QUERIES
    /* queries */
    px_ray ray = {{0.0f, 5.0f, 0.0f}, {0.0f, -1.0f, 0.0f}, INFINITY};
    px_world_ray_hit rh;
    px_world_ray_hit rhs[4];
    int n = 7;
    PX_CHECK_STATUS(px_world_ray_cast(NULL, &ray, 1u, &rh), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(!rh.hit.hit);
    PX_CHECK_STATUS(px_world_ray_cast(sw, NULL, 1u, &rh), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_ray_cast(sw, &ray, 1u, NULL), PX_ERR_INVALID_ARGUMENT);
    px_ray br = ray;
    br.origin[0] = NAN;
    memset(&rh, 0xAB, sizeof(rh));
    PX_CHECK_STATUS(px_world_ray_cast(sw, &br, 1u, &rh), PX_ERR_NON_FINITE);
    PX_CHECK(!rh.hit.hit && rh.body.generation == 0u);
    br = ray;
    br.direction[2] = INFINITY;
    PX_CHECK_STATUS(px_world_ray_cast(sw, &br, 1u, &rh), PX_ERR_NON_FINITE);
    br = ray;
    br.max_t = NAN;
    {
        px_status ms = px_world_ray_cast(sw, &br, 1u, &rh);
        PX_CHECK(ms == PX_ERR_NON_FINITE || ms == PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(!rh.hit.hit);
    }
    br = ray;
    br.max_t = -1.0f;
    PX_CHECK(px_world_ray_cast(sw, &br, 1u, &rh) < 0);
    br = ray;
    memset(br.direction, 0, sizeof(vec3));
    memset(&rh, 0xAB, sizeof(rh));
    PX_CHECK_STATUS(px_world_ray_cast(sw, &br, 1u, &rh), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(!rh.hit.hit && rh.body.generation == 0u);
    n = 7;
    PX_CHECK_STATUS(px_world_ray_cast_all(sw, &br, 1u, rhs, 4, &n), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(n == 0);
    br.direction[1] = NAN;
    n = 7;
    PX_CHECK_STATUS(px_world_ray_cast_all(sw, &br, 1u, rhs, 4, &n), PX_ERR_NON_FINITE);
    PX_CHECK(n == 0);
    n = 7;
    PX_CHECK_STATUS(px_world_ray_cast_all(NULL, &ray, 1u, rhs, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    PX_CHECK(px_world_ray_cast_all(sw, &ray, 1u, rhs, 4, NULL) == PX_ERR_INVALID_ARGUMENT);
    n = 7;
    PX_CHECK_STATUS(px_world_ray_cast_all(sw, &ray, 1u, NULL, 4, &n), PX_ERR_INVALID_ARGUMENT);
    n = 7;
    PX_CHECK_STATUS(px_world_ray_cast_all(sw, &ray, 1u, rhs, -1, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    /* overlap */
    px_shape qs = px_shape_sphere(0.5f);
    px_transform qp = PX_TRANSFORM_IDENTITY_INIT;
    px_body_id ids[4];
    n = 7;
    PX_CHECK_STATUS(px_world_overlap(NULL, &qs, &qp, 1u, ids, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    PX_CHECK_STATUS(px_world_overlap(sw, NULL, &qp, 1u, ids, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, NULL, 1u, ids, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, &qp, 1u, ids, 4, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, &qp, 1u, NULL, 4, &n), PX_ERR_INVALID_ARGUMENT);
    n = 7;
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, &qp, 1u, ids, -1, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    px_shape bs = px_shape_sphere(-0.5f);
    n = 7;
    PX_CHECK_STATUS(px_world_overlap(sw, &bs, &qp, 1u, ids, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    px_transform bq = qp;
    bq.p[1] = NAN;
    n = 7;
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, &bq, 1u, ids, 4, &n), PX_ERR_NON_FINITE);
    PX_CHECK(n == 0);
    bq = qp;
    memset(bq.q, 0, sizeof(versor));
    n = 7;
    PX_CHECK_STATUS(px_world_overlap(sw, &qs, &bq, 1u, ids, 4, &n), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(n == 0);
    /* shape cast */
    px_world_cast_result cr;
    vec3 tr = {1.0f, 0.0f, 0.0f};
    vec3 ntr = {1.0f, NAN, 0.0f};
    memset(&cr, 0xAB, sizeof(cr));
    PX_CHECK_STATUS(px_world_shape_cast(NULL, &qs, &qp, tr, 1u, &cr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(!cr.hit && cr.body.generation == 0u);
    PX_CHECK_STATUS(px_world_shape_cast(sw, NULL, &qp, tr, 1u, &cr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_shape_cast(sw, &qs, NULL, tr, 1u, &cr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_shape_cast(sw, &qs, &qp, NULL, 1u, &cr), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_shape_cast(sw, &qs, &qp, tr, 1u, NULL), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_shape_cast(sw, &bs, &qp, tr, 1u, &cr), PX_ERR_INVALID_ARGUMENT);
    memset(&cr, 0xAB, sizeof(cr));
    PX_CHECK_STATUS(px_world_shape_cast(sw, &qs, &qp, ntr, 1u, &cr), PX_ERR_NON_FINITE);
    PX_CHECK(!cr.hit && cr.body.generation == 0u);
    PX_CHECK_STATUS(px_world_shape_cast(sw, &qs, &bq, tr, 1u, &cr), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(!cr.hit);
    /* proximity */
    px_world_proximity_pair pp[4];
    n = 7;
    PX_CHECK_STATUS(px_world_proximity(NULL, 0.1f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    PX_CHECK_STATUS(px_world_proximity(sw, 0.1f, pp, 4, NULL), PX_ERR_INVALID_ARGUMENT);
    n = 7;
    PX_CHECK_STATUS(px_world_proximity(sw, -0.1f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    n = 7;
    PX_CHECK_STATUS(px_world_proximity(sw, NAN, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    PX_CHECK_STATUS(px_world_proximity(sw, 0.1f, NULL, 4, &n), PX_ERR_INVALID_ARGUMENT);
    n = 7;
    PX_CHECK_STATUS(px_world_proximity(sw, 0.1f, pp, -1, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    n = 7;
    PX_CHECK_STATUS(px_world_body_proximity(sw, wrong_gen, 0.1f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(n == 0);
    PX_CHECK_STATUS(px_world_body_proximity(sw, zero_id, 0.1f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(NULL, good, 0.1f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(sw, good, -1.0f, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(sw, good, NAN, pp, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(sw, good, 0.1f, NULL, 4, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(sw, good, 0.1f, pp, -1, &n), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_world_body_proximity(sw, good, 0.1f, pp, 4, NULL), PX_ERR_INVALID_ARGUMENT);
    /* the world still answers right */
    if (fail == 0)
    {
        fail = run_queries(s, 20, 6, true);
    }
#endif
    if (fail == 0)
    {
        fail = scene_move(s);
    }
    if (fail == 0)
    {
        fail = update_and_check(s, &ref);
    }
    free(ref.items);
    scene_free(s);
    return fail;
}

/* One run of the allocation scenario: a world over the counting allocator, then (fail_at: as for
 * pxt_count_alloc) the terrain, a blob and convex bodies created with an update every ten, four steps of
 * motion with updates; then memory comes back and the next update must equal brute force. Bodies that fail
 * to be made are left out of the shadow; a failed update must keep the last contacts. */
static int alloc_scenario(int trial, int fail_at, int* calls, int* ooms, int* pose_ooms)
{
    pxt_count_alloc state;
    scene* s = scene_alloc(0xA110C + (uint64_t)trial);
    PX_CHECK(s != NULL);
    s->filters = true;
    px_world_def d = px_world_default_def();
    d.allocator = pxt_count_allocator(&state, 0);
    s->margin = d.contact_margin;
    PX_CHECK_STATUS(px_world_create(&d, &s->world), PX_OK);
    state.fail_at = fail_at;
    ref_list ref = {NULL, 0, 0};
    int fail = 0;
    for (int i = 0; i < 70 && fail == 0; ++i)
    {
        kind k = K_MESH;
        px_body_def def = px_body_default_def();
        const tmesh* mesh = NULL;
        if (i == 0)
        {
            def.type = PX_BODY_STATIC;
            def.mesh = s->terrain.mesh;
            def.pose.p[1] = (float)(REGION_Y_LO - 0.1);
            mesh = &s->terrain;
        }
        else if (i == 1)
        {
            def.mesh = s->blob.mesh;
            def.pose.p[1] = (float)REGION_Y_LO;
            mesh = &s->blob;
        }
        else
        {
            def = random_body_def(s, &k);
            /* crowd them so that there are many pairs */
            for (int c = 0; c < 3; ++c)
            {
                def.pose.p[c] *= 0.4f;
            }
            def.pose.p[1] += -1.5f;
        }
        int before = px_world_body_count(s->world);
        px_body_id id;
        px_status st = px_world_create_body(s->world, &def, &id);
        if (st == PX_ERR_OUT_OF_MEMORY)
        {
            (*ooms)++;
            PX_CHECK(id.index == 0 && id.generation == 0u);
            PX_CHECK(px_world_body_count(s->world) == before);
            continue;
        }
        PX_CHECK_STATUS(st, PX_OK);
        sbody* b = &s->b[id.index];
        PX_CHECK(!b->live);
        memset(b, 0, sizeof(*b));
        b->live = true;
        b->id = id;
        b->k = k;
        b->type = def.type;
        b->shape = def.shape;
        b->mesh = mesh;
        PX_CHECK_STATUS(px_transform_normalized(&def.pose, &b->pose), PX_OK);
        b->category = def.category_bits;
        b->mask = def.mask_bits;
        b->user = def.user_data;
        b->size = mesh != NULL ? 0.0f : shape_size(&def.shape);
        random_velocity(&s->rng, b);
        if (id.index >= s->high)
        {
            s->high = id.index + 1;
        }
        if (i % 10 == 9)
        {
            /* an update now and then; on failure the last contacts stand */
            int n0 = 0;
            const px_world_contact* c0 = px_world_contacts(s->world, &n0);
            px_world_contact* copy = (px_world_contact*)malloc(sizeof(px_world_contact) * ((size_t)n0 + 1));
            PX_CHECK(copy != NULL);
            if (n0 > 0)
            {
                memcpy(copy, c0, sizeof(px_world_contact) * (size_t)n0);
            }
            px_world_stats st0 = px_world_get_stats(s->world);
            px_status us = px_world_update(s->world);
            if (us == PX_ERR_OUT_OF_MEMORY)
            {
                (*ooms)++;
                int n1 = -1;
                const px_world_contact* c1 = px_world_contacts(s->world, &n1);
                px_world_stats st1 = px_world_get_stats(s->world);
                bool same = n1 == n0 && memcmp(&st0, &st1, sizeof(st0)) == 0;
                for (int k2 = 0; k2 < n0 && same; ++k2)
                {
                    same = id_equal(c1[k2].body_a, copy[k2].body_a) && id_equal(c1[k2].body_b, copy[k2].body_b) &&
                           c1[k2].triangle == copy[k2].triangle && c1[k2].began == copy[k2].began &&
                           memcmp(&c1[k2].manifold, &copy[k2].manifold, sizeof(px_manifold)) == 0;
                }
                if (!same)
                {
                    fprintf(stderr, "a failed update changed the contacts (%d -> %d)\n", n0, n1);
                    fail = 1;
                }
            }
            else if (us < 0)
            {
                fprintf(stderr, "update: %s\n", px_status_string(us));
                fail = 1;
            }
            free(copy);
        }
    }
    /* motion under the failing allocator; on odd steps with px_world_set_poses, which falls back to the
     * loop when its scratch cannot grow */
    for (int step = 0; step < 4 && fail == 0; ++step)
    {
        s->batch = step % 2 == 1;
        for (int i = 0; i < s->high; ++i)
        {
            sbody* b = &s->b[i];
            if (!b->live || b->type != PX_BODY_MOVING)
            {
                continue;
            }
            px_transform t = b->pose;
            t.p[0] += (float)px_rng_range(&s->rng, -0.4, 0.4);
            t.p[2] += (float)px_rng_range(&s->rng, -0.4, 0.4);
            if (s->batch)
            {
                PX_CHECK(set_pose_checked(s, i, &t) == 0);
                continue;
            }
            px_status ps = px_world_set_pose(s->world, b->id, &t);
            if (ps == PX_ERR_OUT_OF_MEMORY)
            {
                /* not among set_pose's documented statuses; the body must be unchanged (check_bodies) */
                (*pose_ooms)++;
                continue;
            }
            PX_CHECK_STATUS(ps, PX_OK);
            PX_CHECK_STATUS(px_transform_normalized(&t, &b->pose), PX_OK);
        }
        PX_CHECK(flush_poses(s) == 0);
        s->batch = false;
        px_status us = px_world_update(s->world);
        PX_CHECK(us >= 0 || us == PX_ERR_OUT_OF_MEMORY);
        *ooms += us == PX_ERR_OUT_OF_MEMORY ? 1 : 0;
    }
    /* memory is back: the next update gives the brute-force answer */
    state.fail_at = 0;
    if (fail == 0)
    {
        /* began is relative to the last successful update, whose contacts a failed one keeps */
        fail = set_prev_from_world(s);
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
        if (fail == 0)
        {
            fail = check_bodies(s);
        }
        if (fail == 0)
        {
            fail = scene_move(s);
        }
        if (fail == 0)
        {
            fail = update_and_check(s, &ref);
        }
    }
    *calls = state.calls;
    free(ref.items);
    scene_free(s);
    if (fail == 0 && !(state.live == 0 && state.bytes == 0))
    {
        fprintf(stderr, "leak: %d blocks, %lld bytes\n", state.live, state.bytes);
        fail = 1;
    }
    if (fail != 0)
    {
        fprintf(stderr, "allocation trial %d, fail_at %d\n", trial, fail_at);
    }
    return fail;
}

/* Failing allocations: px_world_create fails cleanly; with every allocation from the N-th on failing, or only
 * the N-th, for every N up to the number of allocations the scenario makes, bodies are created or refused
 * (world unchanged), updates succeed or keep the last contacts; once memory is back an update gives the
 * brute-force answer; nothing leaks. */
static int allocation_test(void)
{
    pxt_count_alloc state;
    int created_at = 0;
    for (int fail_at = 1; fail_at < 20 && created_at == 0; ++fail_at)
    {
        px_world_def d = px_world_default_def();
        d.allocator = pxt_count_allocator(&state, fail_at);
        px_world* w = (px_world*)&g_user[0];
        px_status st = px_world_create(&d, &w);
        if (st == PX_OK)
        {
            created_at = fail_at;
            PX_CHECK(w != NULL);
            px_world_destroy(w);
        }
        else
        {
            PX_CHECK_STATUS(st, PX_ERR_OUT_OF_MEMORY);
            PX_CHECK(w == NULL);
        }
        PX_CHECK(state.live == 0 && state.bytes == 0);
    }
    PX_CHECK(created_at > 1);

    memset(&g_cmp, 0, sizeof(g_cmp));
    int calls = 0, ooms = 0, pose_ooms = 0;
    PX_CHECK(alloc_scenario(0, 0, &calls, &ooms, &pose_ooms) == 0);
    PX_CHECK(ooms == 0 && pose_ooms == 0 && calls > created_at);
    int runs = 0;
    for (int nth = created_at; nth <= calls; ++nth)
    {
        int c = 0;
        PX_CHECK(alloc_scenario(nth, -nth, &c, &ooms, &pose_ooms) == 0);
        PX_CHECK(alloc_scenario(nth, nth, &c, &ooms, &pose_ooms) == 0);
        runs += 2;
    }
    PX_CHECK(ooms > 0);
    printf("    allocation: %d runs over %d allocation calls, %d out-of-memory results (%d more from set_pose)\n",
           runs, calls, ooms, pose_ooms);
    return 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Bodies on a ground quad                                                                            */

/* Rotation matrix (rows) of a float quaternion, normalized in double. */
static void quat_matrix(const versor q, double m[3][3])
{
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double n = sqrt(x * x + y * y + z * z + w * w);
    x /= n, y /= n, z /= n, w /= n;
    m[0][0] = 1 - 2 * (y * y + z * z), m[0][1] = 2 * (x * y - z * w), m[0][2] = 2 * (x * z + y * w);
    m[1][0] = 2 * (x * y + z * w), m[1][1] = 1 - 2 * (x * x + z * z), m[1][2] = 2 * (y * z - x * w);
    m[2][0] = 2 * (x * z - y * w), m[2][1] = 2 * (y * z + x * w), m[2][2] = 1 - 2 * (x * x + y * y);
}

/* Height of a shape's lowest point over the plane z = 0 of a frame posed at `frame`, in double from the
 * float poses: sphere, capsule (along local y) and box, rounded by their radius. */
static double lowest_over_plane(const px_shape* shape, const px_transform* pose, const px_transform* frame)
{
    double rf[3][3], rb[3][3];
    quat_matrix(frame->q, rf);
    quat_matrix(pose->q, rb);
    /* the frame's z axis (column 2 of rf), in world and in the shape's frame */
    const double up[3] = { rf[0][2], rf[1][2], rf[2][2] };
    double h = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        h += up[k] * ((double)pose->p[k] - (double)frame->p[k]);
    }
    double local[3]; /* up in the shape's frame: rb^T up */
    for (int k = 0; k < 3; ++k)
    {
        local[k] = rb[0][k] * up[0] + rb[1][k] * up[1] + rb[2][k] * up[2];
    }
    double reach = shape->radius;
    if (shape->type == PX_SHAPE_CAPSULE)
    {
        reach += fabs(local[1]) * shape->capsule.half_height;
    }
    else if (shape->type == PX_SHAPE_BOX)
    {
        for (int k = 0; k < 3; ++k)
        {
            reach += fabs(local[k]) * shape->box.half_extents[k];
        }
    }
    return h - reach;
}

/* A square ground quad in the plane z = 0, 2 half across, as two triangles sharing the diagonal x = y. */
static px_mesh* quad_mesh(float half)
{
    const float v[12] = { -half, -half, 0.0f, half, -half, 0.0f, half, half, 0.0f, -half, half, 0.0f };
    const int32_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    px_mesh* mesh = NULL;
    return px_mesh_create(v, 4, idx, 2, NULL, &mesh) == PX_OK ? mesh : NULL;
}

/* A sphere, a capsule, boxes (sharp and rounded) lying on a quad of two triangles, from 20 to 2e5 across,
 * flat at the origin and tilted and moved: every contact point's separation against the exact height of
 * the shape's lowest point (which all of a lying shape's points share), and the plane's normal. Two faults
 * this caught: a shape over one triangle near the diagonal touched the other one's inner edge, whose
 * manifold was corrected to the face normal by projecting its points, a sphere's sideways point (0.006
 * deep read as 0.0002 apart, 0.015 off); and the whole 2 km triangle in the contact query, whose touching
 * band grows with its corners (a sphere 2.4e-3 off at 1000, 0.016 at 1e5). */
static int ground_quad_test(void)
{
    px_rng rng = px_rng_seeded(0x71A5u);
    int samples = 0, points = 0;
    double worst = 0.0;
    for (int setup = 0; setup < 4; ++setup)
    {
        const float half = setup == 0 ? 10.0f : (setup == 1 ? 1000.0f : (setup == 2 ? 1.0e5f : 50.0f));
        px_mesh* mesh = quad_mesh(half);
        PX_CHECK(mesh != NULL);
        px_world* w = NULL;
        PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
        px_body_def gd = px_body_default_def();
        gd.type = PX_BODY_STATIC;
        gd.mesh = mesh;
        if (setup == 3)
        {
            /* tilted 0.3 rad about (1, 1, 0) and moved */
            const float s = sinf(0.15f) * 0.70710678f;
            gd.pose.q[0] = s, gd.pose.q[1] = s, gd.pose.q[2] = 0.0f, gd.pose.q[3] = cosf(0.15f);
            gd.pose.p[0] = 3.0f, gd.pose.p[1] = -2.0f, gd.pose.p[2] = 1.0f;
        }
        px_body_id ground;
        PX_CHECK_STATUS(px_world_create_body(w, &gd, &ground), PX_OK);
        /* the tolerance: the float rounding of coordinates of the size of the tilted quad's world positions;
         * a quad's triangle at most 8 times the region a shape needs of it (about 3 across here) is used
         * whole, with the touching band of its own corners (8 eps of them; a sphere 6e-6 over the 20 m
         * quad read as touching, within the contract's 1e-5 of the triangle's size, at PX_TEST_SEED 7
         * and 9), larger ones are clipped to the region */
        const double whole_band = 2.0f * half <= 8.0f * 3.5f ? 8.0 * FLT_EPSILON * 3.0 * half : 0.0;
        /* a clipped piece has the touching band of its own size (16 eps of about 3.5): spheres 2.4e-6 over
         * the 2 km quad and 3.0e-6 and 3.6e-6 over the 2e5 one read as touching (PX_TEST_SEED 173, 114 and
         * 463), within the contract's 1e-5 of the shape's size */
        const double piece_band = 16.0 * FLT_EPSILON * 3.5;
        const double tol = fmax(setup == 3 ? 2.0e-5 : fmax(2.0e-6, piece_band), whole_band);
        for (int i = 0; i < 400; ++i)
        {
            const int shape_kind = i % 4;
            px_shape shape;
            const float hbox[3] = { 0.5f, 0.3f, 0.4f }, hround[3] = { 0.4f, 0.4f, 0.2f };
            shape = shape_kind == 0 ? px_shape_sphere(0.5f)
                              : (shape_kind == 1 ? px_shape_capsule(0.4f, 0.3f) : px_shape_box(shape_kind == 2 ? hbox : hround));
            if (shape_kind == 3)
            {
                shape.radius = 0.1f;
            }
            /* half the places within 0.3 of the diagonal x = y (over either triangle), half anywhere */
            const double x = px_rng_range(&rng, -0.9, 0.9) * half;
            const double y = i % 8 < 4 ? x + px_rng_range(&rng, -0.3, 0.3) : px_rng_range(&rng, -0.9, 0.9) * half;
            const double sep = px_rng_range(&rng, -0.02, 0.015);
            const double yaw = px_rng_range(&rng, 0.0, 6.283185307179586);
            /* lying: the capsule's axis and the boxes' faces level, any yaw; the centre's height gives sep */
            double centre = shape_kind == 0 ? 0.5 : (shape_kind == 1 ? 0.3 : (shape_kind == 2 ? 0.4 : 0.3));
            px_transform local;
            local.q[0] = 0.0f, local.q[1] = 0.0f, local.q[2] = (float)sin(0.5 * yaw), local.q[3] = (float)cos(0.5 * yaw);
            local.p[0] = (float)x, local.p[1] = (float)y, local.p[2] = (float)(centre + sep);
            px_transform pose;
            px_transform_mul(&gd.pose, &local, &pose);
            px_body_def bd = px_body_default_def();
            bd.shape = shape;
            bd.pose = pose;
            px_body_id body;
            PX_CHECK_STATUS(px_world_create_body(w, &bd, &body), PX_OK);
            PX_CHECK(px_world_update(w) >= 0);
            px_transform got;
            PX_CHECK_STATUS(px_world_get_pose(w, body, &got), PX_OK);
            const double exact = lowest_over_plane(&shape, &got, &gd.pose);
            double rf[3][3];
            quat_matrix(gd.pose.q, rf);
            int count = 0;
            const px_world_contact* c = px_world_contacts(w, &count);
            int n_points = 0;
            for (int k = 0; k < count; ++k)
            {
                const px_manifold* m = &c[k].manifold;
                const double cosn = m->normal[0] * rf[0][2] + m->normal[1] * rf[1][2] + m->normal[2] * rf[2][2];
                for (int j = 0; j < m->count; ++j)
                {
                    const double err = fabs((double)m->points[j].separation - exact);
                    worst = fmax(worst, err);
                    if (!(err <= tol) || !(cosn >= 1.0 - 1.0e-6))
                    {
                        fprintf(stderr, "quad %g kind %d at (%g, %g) sep %g: triangle %d point %d separation %.9g "
                                        "(exact %.9g), normal . up %.9g\n",
                                (double)half, shape_kind, x, y, sep, c[k].triangle, j, (double)m->points[j].separation,
                                exact, cosn);
                        PX_CHECK(err <= tol && cosn >= 1.0 - 1.0e-6);
                    }
                }
                n_points += m->count;
            }
            /* every sample touches (within the margin); a lying box rests on its four corners at least */
            PX_CHECK(count >= 1 && n_points >= (shape_kind >= 2 ? 4 : 1));
            PX_CHECK_STATUS(px_world_destroy_body(w, body), PX_OK);
            points += n_points;
            samples++;
        }
        px_world_destroy(w);
        px_mesh_destroy(mesh);
    }
    printf("    %d bodies on quads, %d points, worst separation error %.3g\n", samples, points, worst);
    return 0;
}

/* One sphere r 0.5 on the quad of half size 1e5 (two triangles, diagonal x = y) at pose: the world's contacts
 * (the ground created first or second) and px_mesh_shape_contacts against the face normal (0, 0, 1) and the
 * exact separation p.z - 0.5. Returns the worst separation error, or -1 after printing a failure. */
static double huge_quad_sphere(const px_mesh* mesh, const px_transform* pose, const char* what)
{
    const px_shape sphere = px_shape_sphere(0.5f);
    const double exact = (double)pose->p[2] - 0.5;
    double worst = 0.0;
    bool bad = false;
    for (int order = 0; order < 2 && !bad; ++order)
    {
        px_world* w = NULL;
        if (px_world_create(NULL, &w) != PX_OK)
        {
            return -1.0;
        }
        px_body_def gd = px_body_default_def();
        gd.type = PX_BODY_STATIC;
        gd.mesh = mesh;
        px_body_def bd = px_body_default_def();
        bd.shape = sphere;
        bd.pose = *pose;
        px_body_id ground, body;
        bool ok = px_world_create_body(w, order == 0 ? &gd : &bd, order == 0 ? &ground : &body) == PX_OK &&
                  px_world_create_body(w, order == 0 ? &bd : &gd, order == 0 ? &body : &ground) == PX_OK &&
                  px_world_update(w) >= 0;
        int count = 0;
        const px_world_contact* c = px_world_contacts(w, &count);
        int points = 0;
        for (int k = 0; ok && k < count && !bad; ++k)
        {
            const px_manifold* m = &c[k].manifold;
            /* the normal runs from body A to body B: up from the ground, down from the sphere */
            const double up = (c[k].body_a.index == ground.index ? 1.0 : -1.0) * (double)m->normal[2];
            for (int j = 0; j < m->count; ++j)
            {
                const double err = fabs((double)m->points[j].separation - exact);
                worst = fmax(worst, err);
                if (!(err <= 2.0e-6) || !(up >= 1.0 - 1.0e-6))
                {
                    fprintf(stderr,
                            "%s, %s first: triangle %d point %d separation %.9g (exact %.9g), normal (%.6f %.6f %.6f)\n",
                            what, order == 0 ? "ground" : "sphere", c[k].triangle, j, (double)m->points[j].separation,
                            exact, (double)m->normal[0], (double)m->normal[1], (double)m->normal[2]);
                    bad = true;
                }
            }
            points += m->count;
        }
        px_world_destroy(w);
        if (!ok || points < 1)
        {
            fprintf(stderr, "%s, %s first: %s, %d points\n", what, order == 0 ? "ground" : "sphere",
                    ok ? "updated" : "failed", points);
            bad = true;
        }
    }
    px_mesh_contact mc[4];
    int n = 0;
    if (!bad && (px_mesh_shape_contacts(mesh, NULL, &sphere, pose, 0.02f, mc, 4, &n) != PX_OK || n < 1))
    {
        fprintf(stderr, "%s: px_mesh_shape_contacts gave %d contacts\n", what, n);
        bad = true;
    }
    for (int k = 0; k < n && !bad; ++k)
    {
        const double err = fabs((double)mc[k].distance - exact);
        worst = fmax(worst, err);
        if (!(err <= 2.0e-6) || !((double)mc[k].normal[2] >= 1.0 - 1.0e-6))
        {
            fprintf(stderr, "%s, query: triangle %d distance %.9g (exact %.9g), normal (%.6f %.6f %.6f)\n", what,
                    mc[k].triangle, (double)mc[k].distance, exact, (double)mc[k].normal[0], (double)mc[k].normal[1],
                    (double)mc[k].normal[2]);
            bad = true;
        }
    }
    return bad ? -1.0 : worst;
}

/* ground_quad_test's failures at PX_TEST_SEED=1 to 5 and 20, frozen, and a sweep along the diagonal of the
 * same quad: a sphere r 0.5 lying on the quad 2e5 across, 0.05 to 0.3 from its diagonal, far from the quad's
 * centre (1e3 to 9e4). The world manifold's triangle was cut to the part near the sphere in float from corners
 * moved into the sphere's frame in float, off by up to 4e-3 at 1e5; its covering sub-triangle's inner edge
 * then missed the contact's witness on the cut piece's edge by 2e-3 to 4e-3, the inner-edge correction did not
 * fire, and the manifold kept a normal tilted up to 16 degrees (cos 0.9688 at PX_TEST_SEED=3) with its
 * separation up to 0.019 off, where px_mesh_shape_contacts gave the face normal. */
static int huge_quad_diagonal_test(void)
{
    static const float frozen[6][7] = {
        /* p, q (a yaw) */
        { -0x1.24f52cp+16f, -0x1.24f526p+16f, 0x1.f3dfd2p-2f, 0.0f, 0.0f, 0x1.933a9cp-1f, 0x1.3b842p-1f },   /* 1 */
        { -0x1.21d342p+13f, -0x1.21d262p+13f, 0x1.04e1f4p-1f, 0.0f, 0.0f, 0x1.578c1ap-1f, 0x1.7ba164p-1f },  /* 2 */
        { -0x1.d050bep+13f, -0x1.d04f66p+13f, 0x1.ef2b02p-2f, 0.0f, 0.0f, 0x1.f01f4ep-2f, 0x1.bfe50cp-1f },  /* 3 */
        { 0x1.322936p+16f, 0x1.322926p+16f, 0x1.ec253cp-2f, 0.0f, 0.0f, 0x1.41fe84p-1f, -0x1.8e1334p-1f },   /* 4 */
        { 0x1.6f007ap+15f, 0x1.6f00bcp+15f, 0x1.04d41cp-1f, 0.0f, 0.0f, 0x1.1377f2p-4f, 0x1.fed74p-1f },     /* 5 */
        { -0x1.22f21cp+15f, -0x1.22f1bcp+15f, 0x1.f58482p-2f, 0.0f, 0.0f, 0x1.24042ep-1f, 0x1.a48f48p-1f },  /* 20 */
    };
    px_mesh* mesh = quad_mesh(1.0e5f);
    PX_CHECK(mesh != NULL);
    double worst = 0.0;
    char what[160];
    for (int i = 0; i < 6; ++i)
    {
        px_transform pose;
        memcpy(pose.p, frozen[i], sizeof(pose.p));
        memcpy(pose.q, frozen[i] + 3, sizeof(pose.q));
        snprintf(what, sizeof(what), "frozen case %d at (%.9g, %.9g, %.9g)", i, (double)pose.p[0], (double)pose.p[1],
                 (double)pose.p[2]);
        const double err = huge_quad_sphere(mesh, &pose, what);
        PX_CHECK(err >= 0.0);
        worst = fmax(worst, err);
    }
    int samples = 0;
    for (int i = 0; i < 96; ++i)
    {
        /* coordinates 1e3 to 9e4, either sign, either side of the diagonal, any yaw, -0.02 to 0.015 apart */
        const double t = (double)(i % 12) / 11.0, along = (i % 2 ? -1.0 : 1.0) * 1.0e3 * pow(90.0, t);
        const double off = (i % 4 < 2 ? 1.0 : -1.0) * (0.05 + 0.25 * (double)((i * 7) % 13) / 12.0);
        const double sep = -0.02 + 0.035 * (double)((i * 5) % 17) / 16.0, yaw = 0.37 + 0.61 * (double)i;
        px_transform pose;
        pose.p[0] = (float)(along + 0.5 * off), pose.p[1] = (float)(along - 0.5 * off);
        pose.p[2] = (float)(0.5 + sep);
        pose.q[0] = 0.0f, pose.q[1] = 0.0f, pose.q[2] = (float)sin(0.5 * yaw), pose.q[3] = (float)cos(0.5 * yaw);
        snprintf(what, sizeof(what), "sweep %d at (%.9g, %.9g, %.9g) yaw %.9g", i, (double)pose.p[0],
                 (double)pose.p[1], (double)pose.p[2], yaw);
        const double err = huge_quad_sphere(mesh, &pose, what);
        PX_CHECK(err >= 0.0);
        worst = fmax(worst, err);
        samples++;
    }
    px_mesh_destroy(mesh);
    printf("    6 frozen spheres and %d along the diagonal of a 2e5 quad, worst separation error %.3g\n", samples,
           worst);
    return 0;
}

/* A shape created before the ground is body A of its mesh pair (mesh_is_a false). Near the diagonal of a quad
 * it touches the other triangle's inner edge, whose manifold is made again along the face normal: the point
 * on the shape there was the triangle's support vertex moved to the shape's height, a corner of the quad
 * (a sphere at (3, 2.9) got point_a (-10, -10, -0.01), 15 off the sphere). Every point must lie on the shape
 * (point_a) and on the quad's plane (point_b), with the separation of the shape's lowest point. */
static int shape_first_quad_test(void)
{
    px_mesh* mesh = quad_mesh(10.0f);
    PX_CHECK(mesh != NULL);
    const float hull_points[18] = { 0.5f, 0.0f, 0.0f, -0.4f, 0.1f, 0.0f, 0.0f, 0.45f, 0.0f,
                                    0.1f, -0.5f, 0.0f, 0.0f, 0.0f, 0.4f, 0.0f, 0.0f, -0.35f };
    const float s45 = 0.70710678f;
    int points = 0;
    double worst = 0.0;
    for (int form = 0; form < 3; ++form)
    {
        /* a sphere, a standing cylinder (axis y turned to z), a hull on its vertex (0, 0, -0.35) */
        px_shape shape = form == 0 ? px_shape_sphere(0.5f)
                                   : (form == 1 ? px_shape_cylinder(0.3f, 0.4f) : px_shape_hull(hull_points, 6));
        const float low = form == 0 ? 0.5f : (form == 1 ? 0.3f : 0.35f);
        for (int i = 0; i < 8; ++i)
        {
            px_world* w = NULL;
            PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
            px_body_def bd = px_body_default_def();
            bd.shape = shape;
            if (form == 1)
            {
                bd.pose.q[0] = s45, bd.pose.q[3] = s45;
            }
            const float x = -6.0f + 1.7f * (float)i, sep = -0.01f + 0.003f * (float)i;
            const float off_diagonal = form == 2 ? 0.002f : 0.1f; /* the hull's vertex within the margin of both */
            bd.pose.p[0] = x, bd.pose.p[1] = x - off_diagonal, bd.pose.p[2] = low + sep;
            px_body_id body, ground;
            PX_CHECK_STATUS(px_world_create_body(w, &bd, &body), PX_OK);
            px_body_def gd = px_body_default_def();
            gd.type = PX_BODY_STATIC;
            gd.mesh = mesh;
            PX_CHECK_STATUS(px_world_create_body(w, &gd, &ground), PX_OK);
            PX_CHECK(px_world_update(w) >= 0);
            int count = 0;
            const px_world_contact* c = px_world_contacts(w, &count);
            PX_CHECK(count == 2); /* both triangles, the far one through its inner edge */
            for (int k = 0; k < count; ++k)
            {
                PX_CHECK(c[k].body_a.index == body.index);
                const px_manifold* m = &c[k].manifold;
                for (int j = 0; j < m->count; ++j)
                {
                    const px_manifold_point* p = &m->points[j];
                    px_shape pt = px_shape_point();
                    px_transform tp = PX_TRANSFORM_IDENTITY_INIT;
                    px_v3_copy(p->point_a, tp.p);
                    px_contact on;
                    PX_CHECK(px_contact_world(&pt, &tp, &shape, &bd.pose, NULL, &on) >= 0);
                    const double off = fabs((double)on.distance);
                    const double sep_err = fabs((double)p->separation - (double)bd.pose.p[2] + (double)low);
                    worst = fmax(worst, fmax(off, sep_err));
                    if (!(off <= 1.0e-5) || !(sep_err <= 1.0e-5) || !(fabsf(p->point_b[2]) <= 1.0e-5f))
                    {
                        fprintf(stderr, "shape %d at (%g, %g) triangle %d point %d: point_a (%g, %g, %g) %g off the "
                                        "shape, separation %.9g (exact %.9g), point_b.z %g\n",
                                form, (double)x, (double)(x - off_diagonal), c[k].triangle, j, (double)p->point_a[0],
                                (double)p->point_a[1], (double)p->point_a[2], off, (double)p->separation,
                                (double)bd.pose.p[2] - (double)low, (double)p->point_b[2]);
                        PX_CHECK(off <= 1.0e-5 && sep_err <= 1.0e-5 && fabsf(p->point_b[2]) <= 1.0e-5f);
                    }
                    points++;
                }
            }
            px_world_destroy(w);
        }
    }
    px_mesh_destroy(mesh);
    printf("    %d points of shapes before the ground, worst error %.3g\n", points, worst);
    return 0;
}

/* A sphere 1 mm over a long thin triangle (a strip 4 km x 1 m, and a needle), the sphere created before and
 * after the ground: the separation is 1 mm and every point lies on the sphere. The piece of such a triangle
 * near the sphere spans its whole width, so the sub-triangle similar to it that covers the piece reaches back
 * to its far corner: the contact query on it had a touching band as wide as the triangle is long, and read
 * the sphere as touching (separation 0; with the mesh first, point_a 2 km from the sphere). */
static int long_strip_test(void)
{
    int points = 0;
    for (int form = 0; form < 2; ++form)
    {
        const float half = 2000.0f;
        const float strip[9] = { -half, -0.5f, 0.0f, half, -0.5f, 0.0f, half, 0.5f, 0.0f };
        const float needle[9] = { -half, 0.0f, 0.0f, half, -0.5f, 0.0f, half, 0.5f, 0.0f };
        const int32_t idx[3] = { 0, 1, 2 };
        px_mesh_def md = px_mesh_default_def();
        px_mesh* mesh = NULL;
        PX_CHECK_STATUS(px_mesh_create(form == 0 ? strip : needle, 3, idx, 1, &md, &mesh), PX_OK);
        for (int order = 0; order < 2; ++order)
        {
            px_world* w = NULL;
            PX_CHECK_STATUS(px_world_create(NULL, &w), PX_OK);
            px_body_def bd = px_body_default_def();
            bd.shape = px_shape_sphere(0.1f);
            bd.pose.p[2] = 0.101f;
            px_body_def gd = px_body_default_def();
            gd.type = PX_BODY_STATIC;
            gd.mesh = mesh;
            px_body_id body, ground;
            if (order == 0)
            {
                PX_CHECK_STATUS(px_world_create_body(w, &bd, &body), PX_OK);
                PX_CHECK_STATUS(px_world_create_body(w, &gd, &ground), PX_OK);
            }
            else
            {
                PX_CHECK_STATUS(px_world_create_body(w, &gd, &ground), PX_OK);
                PX_CHECK_STATUS(px_world_create_body(w, &bd, &body), PX_OK);
            }
            PX_CHECK(px_world_update(w) >= 0);
            int count = 0;
            const px_world_contact* c = px_world_contacts(w, &count);
            PX_CHECK(count == 1);
            const px_manifold* m = &c[0].manifold;
            PX_CHECK(m->count >= 1);
            for (int j = 0; j < m->count; ++j)
            {
                const px_manifold_point* p = &m->points[j];
                const float* on_sphere = order == 0 ? p->point_a : p->point_b;
                const double off = fabs(sqrt((double)on_sphere[0] * on_sphere[0] + (double)on_sphere[1] * on_sphere[1] +
                                             ((double)on_sphere[2] - 0.101) * ((double)on_sphere[2] - 0.101)) -
                                        0.1);
                if (!(fabs((double)p->separation - 0.001) <= 1.0e-5) || !(off <= 1.0e-5))
                {
                    fprintf(stderr, "form %d order %d point %d: separation %.9g (exact 0.001), %g off the sphere\n",
                            form, order, j, (double)p->separation, off);
                    PX_CHECK(fabs((double)p->separation - 0.001) <= 1.0e-5 && off <= 1.0e-5);
                }
                points++;
            }
            px_world_destroy(w);
        }
        px_mesh_destroy(mesh);
    }
    printf("    %d points over long strips\n", points);
    return 0;
}

int test_world(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(stats_test);
    PX_RUN_SUBTEST(filter_test);
    PX_RUN_SUBTEST(contacts_test);
    PX_RUN_SUBTEST(churn_filter_test);
    PX_RUN_SUBTEST(lifecycle_test);
    PX_RUN_SUBTEST(threads_test);
    PX_RUN_SUBTEST(set_poses_test);
#if WORLD_TEST_QUERIES
    PX_RUN_SUBTEST(query_cases_test);
    PX_RUN_SUBTEST(ties_test);
    PX_RUN_SUBTEST(queries_test);
#endif
    PX_RUN_SUBTEST(ground_quad_test);
    PX_RUN_SUBTEST(huge_quad_diagonal_test);
    PX_RUN_SUBTEST(shape_first_quad_test);
    PX_RUN_SUBTEST(long_strip_test);
    PX_RUN_SUBTEST(extreme_test);
    PX_RUN_SUBTEST(bad_input_test);
    PX_RUN_SUBTEST(allocation_test);
    PX_SUITE_END;
}
