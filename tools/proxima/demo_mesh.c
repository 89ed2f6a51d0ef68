/* `proxima demo`, third section: a triangle mesh and its BVH.
 *
 * The mesh is a small level built here (a floor grid, crates, a block, a wall, a pillar, a ramp up to a
 * platform and a flight of stairs up to another), or the --mesh file. The section prints the tree's
 * statistics, renders DIR/demo_render.png with render.h (one primary ray per pixel, on a thread pool),
 * then probes the mesh the way a character controller would: rays straight down (the ground under a
 * point), closest points (how far the nearest surface is), and the time per query over many random rays
 * and points, on one thread and batched on the pool; and, when the library has mesh_collide.h, capsule
 * sweeps (px_mesh_shape_cast) the way a character moves: falling onto the floor and a stair's edge,
 * walking into a wall and up the ramp. Fourth section (demo_raster): the same mesh baked into a walkable
 * heightfield with raster.h, drawn as DIR/demo_walkable.png. */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "raster.h"
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* the sweeps need px_mesh_shape_cast; a build whose library predates it shows the rest */
#if defined(__has_include)
#if __has_include("proxima/mesh_collide.h")
#include "proxima/mesh_collide.h"
#define DEMO_HAVE_SWEEPS 1
#endif
#endif

#define LEVEL_MAX_VERTICES 2048
#define LEVEL_MAX_TRIANGLES 4096
#define LEVEL_HALF_X 12.0f /* the floor spans [-12, 12] x [-8, 8] [Units: length] */
#define LEVEL_HALF_Z 8.0f
#define LEVEL_CELL 0.5f       /* floor grid cell [Units: length] */
#define LEVEL_STEPS 6         /* stairs */
#define LEVEL_STEP_RISE 0.25f /* [Units: length] */
#define LEVEL_STEP_RUN 0.4f
#define DEMO_RENDER_WIDTH 800 /* [pixels] */
#define DEMO_RENDER_HEIGHT 500
#define DEMO_TIMED_RAYS 100000   /* random rays per timing */
#define DEMO_TIMED_POINTS 20000  /* random closest-point queries */
#define DEMO_TIMED_SWEEPS 2000  /* random capsule sweeps */
#define DEMO_MAX_PROBES 8

/* ---------------------------------------------------------------------------------------------------- */
/* The built-in level */

typedef struct level
{
    float vertices[3 * LEVEL_MAX_VERTICES];
    int32_t indices[3 * LEVEL_MAX_TRIANGLES];
    int vertex_count;
    int triangle_count;
} level;

static int32_t level_vertex(level* l, float x, float y, float z)
{
    /* the capacities hold the level below with room to spare; a change that overflows them fails the
     * mesh creation through the index check rather than writing out of bounds */
    if (l->vertex_count >= LEVEL_MAX_VERTICES)
    {
        return LEVEL_MAX_VERTICES;
    }
    float* v = &l->vertices[3 * l->vertex_count];
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return l->vertex_count++;
}

static void level_triangle(level* l, int32_t a, int32_t b, int32_t c)
{
    if (l->triangle_count >= LEVEL_MAX_TRIANGLES)
    {
        return;
    }
    int32_t* t = &l->indices[3 * l->triangle_count++];
    t[0] = a;
    t[1] = b;
    t[2] = c;
}

/* A quad a, b, c, d counter-clockwise seen from its front. */
static void level_quad(level* l, int32_t a, int32_t b, int32_t c, int32_t d)
{
    level_triangle(l, a, b, c);
    level_triangle(l, a, c, d);
}

/* A closed box [x0, x1] x [y0, y1] x [z0, z1], its faces wound outwards. */
static void level_box(level* l, float x0, float y0, float z0, float x1, float y1, float z1)
{
    /* corner i has x1 when bit 0 is set, y1 for bit 1, z1 for bit 2 */
    int32_t c[8];
    for (int i = 0; i < 8; ++i)
    {
        c[i] = level_vertex(l, (i & 1) ? x1 : x0, (i & 2) ? y1 : y0, (i & 4) ? z1 : z0);
    }
    level_quad(l, c[0], c[4], c[6], c[2]); /* -x */
    level_quad(l, c[1], c[3], c[7], c[5]); /* +x */
    level_quad(l, c[0], c[1], c[5], c[4]); /* -y */
    level_quad(l, c[2], c[6], c[7], c[3]); /* +y */
    level_quad(l, c[0], c[2], c[3], c[1]); /* -z */
    level_quad(l, c[4], c[5], c[7], c[6]); /* +z */
}

static void build_level(level* l)
{
    memset(l, 0, sizeof(*l));
    /* the floor: a grid of LEVEL_CELL squares at y = 0, facing up */
    int nx = (int)(2.0f * LEVEL_HALF_X / LEVEL_CELL), nz = (int)(2.0f * LEVEL_HALF_Z / LEVEL_CELL);
    for (int j = 0; j <= nz; ++j)
    {
        for (int i = 0; i <= nx; ++i)
        {
            float x = -LEVEL_HALF_X + LEVEL_CELL * (float)i, z = -LEVEL_HALF_Z + LEVEL_CELL * (float)j;
            level_vertex(l, x, 0.0f, z);
        }
    }
    for (int j = 0; j < nz; ++j)
    {
        for (int i = 0; i < nx; ++i)
        {
            int32_t a = j * (nx + 1) + i;
            level_quad(l, a, a + nx + 1, a + nx + 2, a + 1);
        }
    }
    level_box(l, -9.0f, 0.0f, 2.0f, -8.0f, 1.0f, 3.0f);    /* crate */
    level_box(l, -7.8f, 0.0f, 1.8f, -6.6f, 1.2f, 3.0f);    /* a second crate */
    level_box(l, -4.0f, 0.0f, 3.0f, -1.0f, 1.5f, 6.0f);    /* block */
    level_box(l, -6.0f, 0.0f, -1.2f, 0.0f, 2.5f, -0.8f);   /* wall */
    level_box(l, 2.0f, 0.0f, -1.0f, 2.8f, 4.0f, -0.2f);    /* pillar */
    level_box(l, 8.0f, 0.0f, 1.0f, 11.0f, 1.5f, 5.0f);     /* platform at the top of the ramp */
    level_box(l, 4.0f, 0.0f, -7.5f, 9.0f, 1.5f, -4.4f);    /* platform at the top of the stairs */
    /* the ramp rises along +x from (4, 0) to the platform's edge at (8, 1.5), z in [2, 4]: its slope and
     * its two sides (the back is inside the platform) */
    int32_t r[6] = { level_vertex(l, 4.0f, 0.0f, 2.0f), level_vertex(l, 4.0f, 0.0f, 4.0f),
                     level_vertex(l, 8.0f, 1.5f, 4.0f), level_vertex(l, 8.0f, 1.5f, 2.0f),
                     level_vertex(l, 8.0f, 0.0f, 2.0f), level_vertex(l, 8.0f, 0.0f, 4.0f) };
    level_quad(l, r[0], r[1], r[2], r[3]);
    level_triangle(l, r[0], r[3], r[4]); /* z = 2, facing -z */
    level_triangle(l, r[1], r[5], r[2]); /* z = 4, facing +z */
    /* stairs rising along -z towards the second platform, x in [5, 7]: step k is a box up to its tread */
    for (int k = 0; k < LEVEL_STEPS; ++k)
    {
        float z1 = -2.0f - LEVEL_STEP_RUN * (float)k;
        level_box(l, 5.0f, 0.0f, z1 - LEVEL_STEP_RUN, 7.0f, LEVEL_STEP_RISE * (float)(k + 1), z1);
    }
}

/* The triangles a section runs on: the file's when there is one, else the built-in level's (built into
 * *built_in). */
static void section_triangles(const px_obj_data* file, level* built_in, const float** vertices,
                              const int32_t** indices, int* vertex_count, int* triangle_count)
{
    if (file != NULL)
    {
        *vertices = file->vertices;
        *indices = file->indices;
        *vertex_count = file->vertex_count;
        *triangle_count = file->triangle_count;
        return;
    }
    build_level(built_in);
    *vertices = built_in->vertices;
    *indices = built_in->indices;
    *vertex_count = built_in->vertex_count;
    *triangle_count = built_in->triangle_count;
}

px_status demo_section_mesh(const px_obj_data* file, px_mesh** mesh)
{
    static level built_in; /* static: about 60 KB */
    const float* vertices;
    const int32_t* indices;
    int vertex_count, triangle_count;
    section_triangles(file, &built_in, &vertices, &indices, &vertex_count, &triangle_count);
    return px_mesh_create(vertices, vertex_count, indices, triangle_count, NULL, mesh);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Probes */

typedef struct probe
{
    char name[24];
    float p[3];
} probe;

/* Ground probes (x, z) and closest-point probes (x, y, z) of the built-in level: named places. */
static int level_ground_probes(probe* probes)
{
    static const probe list[] = {
        { "floor", { -10.0f, 0.0f, 6.0f } },     { "crate", { -8.5f, 0.0f, 2.5f } },
        { "block", { -2.5f, 0.0f, 4.5f } },      { "ramp, halfway", { 6.0f, 0.0f, 2.6f } },
        { "stair 3", { 6.3f, 0.0f, -2.9f } },    { "platform", { 10.0f, 0.0f, 3.0f } },
        { "pillar", { 2.4f, 0.0f, -0.6f } },     { "off the level", { 14.0f, 0.0f, 0.0f } },
    };
    memcpy(probes, list, sizeof(list));
    return (int)(sizeof(list) / sizeof(list[0]));
}

static int level_point_probes(probe* probes)
{
    static const probe list[] = {
        { "above the floor", { -10.0f, 0.8f, 6.0f } },  { "beside the pillar", { 3.3f, 1.0f, -0.6f } },
        { "inside the block", { -2.0f, 0.6f, 4.5f } },  { "under the ramp", { 6.5f, 0.3f, 3.0f } },
        { "in the air", { 0.0f, 6.0f, 0.0f } },         { "far away", { 30.0f, 10.0f, 30.0f } },
    };
    memcpy(probes, list, sizeof(list));
    return (int)(sizeof(list) / sizeof(list[0]));
}

/* Probes of a file: the centre and four inner points of the bounds for ground rays; the centre, a point
 * above, one below a corner and one to the side for closest points. */
static int file_ground_probes(const px_aabb* b, probe* probes)
{
    static const float fractions[5][2] = { { 0.5f, 0.5f }, { 0.25f, 0.25f }, { 0.75f, 0.25f },
                                           { 0.25f, 0.75f }, { 0.75f, 0.75f } };
    for (int i = 0; i < 5; ++i)
    {
        probes[i].p[0] = b->min[0] + fractions[i][0] * (b->max[0] - b->min[0]);
        probes[i].p[1] = 0.0f;
        probes[i].p[2] = b->min[2] + fractions[i][1] * (b->max[2] - b->min[2]);
        snprintf(probes[i].name, sizeof(probes[i].name), "%s", i == 0 ? "centre" : "inner point");
    }
    return 5;
}

static int file_point_probes(const px_aabb* b, probe* probes)
{
    float c[3], e[3];
    for (int k = 0; k < 3; ++k)
    {
        c[k] = 0.5f * (b->min[k] + b->max[k]);
        e[k] = b->max[k] - b->min[k];
    }
    const char* names[4] = { "bounds centre", "above the top", "below a corner", "to the side" };
    const float at[4][3] = { { c[0], c[1], c[2] },
                             { c[0], b->max[1] + 0.25f * e[1], c[2] },
                             { b->min[0] - 0.1f * e[0], b->min[1] - 0.1f * e[1], b->min[2] - 0.1f * e[2] },
                             { b->max[0] + 0.5f * e[0], c[1], c[2] } };
    for (int i = 0; i < 4; ++i)
    {
        snprintf(probes[i].name, sizeof(probes[i].name), "%s", names[i]);
        memcpy(probes[i].p, at[i], sizeof(probes[i].p));
    }
    return 4;
}

static int print_ground_probes(const px_mesh* mesh, const probe* probes, int count)
{
    px_aabb b = px_mesh_bounds(mesh);
    float top = b.max[1] + 0.1f * (b.max[1] - b.min[1]) + 1.0f;
    printf("  ground probes: px_mesh_ray_cast straight down from y = %.2f\n", (double)top);
    printf("    %-18s  %9s  %9s  %9s  %8s  %s\n", "from", "x", "z", "ground y", "triangle", "normal");
    for (int i = 0; i < count; ++i)
    {
        px_ray ray = { { probes[i].p[0], top, probes[i].p[2] }, { 0.0f, -1.0f, 0.0f }, INFINITY };
        px_ray_hit hit;
        px_status status = px_mesh_ray_cast(mesh, &ray, &hit);
        if (PX_FAILED(status))
        {
            return cli_fail("mesh: ground probe '%s' failed: %s", probes[i].name, px_status_string(status));
        }
        printf("    %-18s  %9.3f  %9.3f  ", probes[i].name, (double)probes[i].p[0], (double)probes[i].p[2]);
        if (hit.hit)
        {
            printf("%9.3f  %8d  (%6.3f, %6.3f, %6.3f)\n", (double)hit.point[1], (int)hit.triangle,
                   (double)hit.normal[0], (double)hit.normal[1], (double)hit.normal[2]);
        }
        else
        {
            printf("%9s  %8s  no ground\n", "-", "-");
        }
    }
    return CLI_EXIT_OK;
}

static int print_point_probes(const px_mesh* mesh, const probe* probes, int count)
{
    printf("  closest points: px_mesh_closest_point\n");
    printf("    %-18s  %-26s  %9s  %8s  %s\n", "from", "point", "distance", "triangle", "closest point");
    for (int i = 0; i < count; ++i)
    {
        px_point_result r;
        px_status status = px_mesh_closest_point(mesh, probes[i].p, INFINITY, &r);
        if (PX_FAILED(status) || !r.found)
        {
            return cli_fail("mesh: closest point from '%s' failed: %s", probes[i].name,
                            PX_FAILED(status) ? px_status_string(status) : "nothing found");
        }
        printf("    %-18s  (%7.2f, %7.2f, %7.2f)  %9.4f  %8d  (%7.3f, %7.3f, %7.3f)\n", probes[i].name,
               (double)probes[i].p[0], (double)probes[i].p[1], (double)probes[i].p[2], (double)r.distance,
               (int)r.triangle, (double)r.point[0], (double)r.point[1], (double)r.point[2]);
    }
    return CLI_EXIT_OK;
}

#ifdef DEMO_HAVE_SWEEPS
/* ---------------------------------------------------------------------------------------------------- */
/* Capsule sweeps */

typedef struct sweep_probe
{
    char name[24];
    float from[3];
    float move[3];
} sweep_probe;

typedef struct capsule_size
{
    float half_height, radius;
} capsule_size;

/* A character's capsule on the built-in level (1.6 tall), and its sweeps: falls, walks, a clear path. */
static int level_sweeps(sweep_probe* sweeps, capsule_size* capsule)
{
    static const sweep_probe list[] = {
        { "fall to the floor", { -10.0f, 3.0f, 6.0f }, { 0.0f, -5.0f, 0.0f } },
        { "fall onto a stair edge", { 6.0f, 3.0f, -3.0f }, { 0.0f, -5.0f, 0.0f } },
        { "walk into the wall", { -3.0f, 1.0f, 2.0f }, { 0.0f, 0.0f, -6.0f } },
        { "walk up the ramp", { 2.0f, 0.9f, 3.0f }, { 8.0f, 0.0f, 0.0f } },
        { "walk along a clear path", { 0.0f, 0.81f, 7.0f }, { 10.0f, 0.0f, 0.0f } },
    };
    memcpy(sweeps, list, sizeof(list));
    capsule->half_height = 0.5f;
    capsule->radius = 0.3f;
    return (int)(sizeof(list) / sizeof(list[0]));
}

/* A capsule a twentieth of the file's largest extent tall, falling at the centre and at an inner point, and
 * moving across the bounds at mid height along x and along z. */
static int file_sweeps(const px_aabb* b, sweep_probe* sweeps, capsule_size* capsule)
{
    float c[3], e[3];
    for (int k = 0; k < 3; ++k)
    {
        c[k] = 0.5f * (b->min[k] + b->max[k]);
        e[k] = b->max[k] - b->min[k];
    }
    float largest = fmaxf(e[0], fmaxf(e[1], e[2]));
    capsule->radius = largest > 0.0f ? 0.0125f * largest : 0.1f;
    capsule->half_height = 1.5f * capsule->radius;
    float above = b->max[1] + 2.0f * (capsule->half_height + capsule->radius);
    float drop = above - b->min[1] + capsule->half_height + capsule->radius;
    const sweep_probe list[4] = {
        { "fall at the centre", { c[0], above, c[2] }, { 0.0f, -drop, 0.0f } },
        { "fall at an inner point", { b->min[0] + 0.25f * e[0], above, b->min[2] + 0.25f * e[2] },
          { 0.0f, -drop, 0.0f } },
        { "across along x", { b->min[0] - 0.1f * e[0], c[1], c[2] }, { 1.2f * e[0], 0.0f, 0.0f } },
        { "across along z", { c[0], c[1], b->min[2] - 0.1f * e[2] }, { 0.0f, 0.0f, 1.2f * e[2] } },
    };
    memcpy(sweeps, list, sizeof(list));
    return 4;
}

static int print_sweeps(const px_mesh* mesh, const sweep_probe* sweeps, int count, capsule_size size)
{
    px_shape capsule = px_shape_capsule(size.half_height, size.radius);
    printf("  capsule sweeps: px_mesh_shape_cast of an upright capsule, half height %.3g, radius %.3g\n",
           (double)size.half_height, (double)size.radius);
    printf("    %-23s  %-24s  %-24s  %8s  %-24s  %8s  %s\n", "sweep", "from (centre)", "move", "fraction",
           "stops at (centre)", "triangle", "normal");
    for (int i = 0; i < count; ++i)
    {
        const sweep_probe* s = &sweeps[i];
        px_transform pose;
        px_transform_set((vec3){ s->from[0], s->from[1], s->from[2] }, (versor){ 0.0f, 0.0f, 0.0f, 1.0f },
                         &pose);
        px_mesh_cast_result r;
        px_status status =
            px_mesh_shape_cast(mesh, NULL, &capsule, &pose, (vec3){ s->move[0], s->move[1], s->move[2] }, &r);
        if (PX_FAILED(status))
        {
            return cli_fail("mesh: sweep '%s' failed: %s", s->name, px_status_string(status));
        }
        printf("    %-23s  (%6.2f, %6.2f, %6.2f)  (%6.2f, %6.2f, %6.2f)  ", s->name, (double)s->from[0],
               (double)s->from[1], (double)s->from[2], (double)s->move[0], (double)s->move[1],
               (double)s->move[2]);
        if (!r.hit)
        {
            printf("%8s  %-24s  %8s  nothing in the way\n", "-", "-", "-");
            continue;
        }
        float f = r.fraction;
        printf("%8.4f  (%6.2f, %6.2f, %6.2f)  %8d  (%6.3f, %6.3f, %6.3f)%s\n", (double)f,
               (double)(s->from[0] + f * s->move[0]), (double)(s->from[1] + f * s->move[1]),
               (double)(s->from[2] + f * s->move[2]), (int)r.triangle, (double)r.normal[0],
               (double)r.normal[1], (double)r.normal[2],
               r.initial_overlap ? "  overlapping at the start" : "");
    }
    return CLI_EXIT_OK;
}
#endif

/* ---------------------------------------------------------------------------------------------------- */
/* Timing */

/* A deterministic uniform number in [0, 1) (xorshift32). */
static float next_unit(uint32_t* state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) * (1.0f / 16777216.0f);
}

/* A point of the bounds grown by a tenth of their extent on each side. */
static void random_point(const px_aabb* b, uint32_t* state, float* p)
{
    for (int k = 0; k < 3; ++k)
    {
        float e = b->max[k] - b->min[k];
        p[k] = b->min[k] - 0.1f * e + 1.2f * e * next_unit(state);
    }
}

typedef struct ray_timing
{
    double single_ns; /* per ray, px_mesh_ray_cast on this thread */
    double batch_ns;  /* per ray, px_mesh_ray_cast_batch on the pool */
    int hits;
} ray_timing;

static int time_rays(const px_mesh* mesh, const px_ray* rays, px_ray_hit* hits, int count,
                     const px_task_system* tasks, ray_timing* timing)
{
    px_status status = PX_OK;
    double t0 = demo_now_ns();
    for (int i = 0; i < count; ++i)
    {
        px_status s = px_mesh_ray_cast(mesh, &rays[i], &hits[i]);
        status = status == PX_OK ? s : status;
    }
    double t1 = demo_now_ns();
    px_status batch = px_mesh_ray_cast_batch(mesh, rays, count, hits, tasks);
    double t2 = demo_now_ns();
    status = status == PX_OK ? batch : status;
    if (PX_FAILED(status))
    {
        return cli_fail("mesh: a timed ray failed: %s", px_status_string(status));
    }
    timing->single_ns = (t1 - t0) / count;
    timing->batch_ns = (t2 - t1) / count;
    timing->hits = 0;
    for (int i = 0; i < count; ++i)
    {
        timing->hits += hits[i].hit ? 1 : 0;
    }
    return CLI_EXIT_OK;
}

static void print_ray_timing(const char* name, const ray_timing* t, int count)
{
    printf("    %-26s  %8.0f ns  %6.2f M/s  %8.0f ns  %6.2f M/s  %5.1f %% hit\n", name, t->single_ns,
           render_mega_per_second(1.0, t->single_ns), t->batch_ns, render_mega_per_second(1.0, t->batch_ns),
           100.0 * t->hits / count);
}

#ifdef DEMO_HAVE_SWEEPS
/* Capsules (sized as in file_sweeps) swept from random points by a random tenth of the bounds' size. */
static int time_sweeps(const px_mesh* mesh, const px_aabb* b, uint32_t* state)
{
    capsule_size size;
    sweep_probe unused[4];
    file_sweeps(b, unused, &size);
    px_shape capsule = px_shape_capsule(size.half_height, size.radius);
    float e[3] = { b->max[0] - b->min[0], b->max[1] - b->min[1], b->max[2] - b->min[2] };
    float reach = 0.1f * sqrtf(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
    double total = 0.0;
    int hits = 0;
    for (int i = 0; i < DEMO_TIMED_SWEEPS; ++i)
    {
        float p[3], move[3];
        random_point(b, state, p);
        for (int k = 0; k < 3; ++k)
        {
            move[k] = reach * (2.0f * next_unit(state) - 1.0f);
        }
        px_transform pose;
        px_transform_set((vec3){ p[0], p[1], p[2] }, (versor){ 0.0f, 0.0f, 0.0f, 1.0f }, &pose);
        px_mesh_cast_result r;
        double t0 = demo_now_ns();
        px_status status =
            px_mesh_shape_cast(mesh, NULL, &capsule, &pose, (vec3){ move[0], move[1], move[2] }, &r);
        total += demo_now_ns() - t0;
        if (PX_FAILED(status))
        {
            return cli_fail("mesh: a timed sweep failed: %s", px_status_string(status));
        }
        hits += r.hit ? 1 : 0;
    }
    double per = total / DEMO_TIMED_SWEEPS;
    printf("    %-26s  %8.0f ns  %6.2f M/s  %-20s  %5.1f %% hit (%d sweeps by up to %.3g)\n", "capsule sweep",
           per, render_mega_per_second(1.0, per), "", 100.0 * hits / DEMO_TIMED_SWEEPS, DEMO_TIMED_SWEEPS,
           (double)reach);
    return CLI_EXIT_OK;
}
#endif

static int print_timing(const px_mesh* mesh, const px_task_system* tasks, int workers)
{
    px_ray* rays = malloc(DEMO_TIMED_RAYS * sizeof(px_ray));
    px_ray_hit* hits = malloc(DEMO_TIMED_RAYS * sizeof(px_ray_hit));
    if (rays == NULL || hits == NULL)
    {
        free(rays);
        free(hits);
        return cli_fail("out of memory for %d timed rays", DEMO_TIMED_RAYS);
    }
    for (int i = 0; i < DEMO_TIMED_RAYS; ++i)
    {
        hits[i].hit = false; /* touch the pages before the timings */
    }
    px_aabb b = px_mesh_bounds(mesh);
    uint32_t state = 0x2545f491u;
    printf("  time per query: %d random rays or %d random points in the bounds (grown by 10 %%)\n",
           DEMO_TIMED_RAYS, DEMO_TIMED_POINTS);
    char batch[32];
    snprintf(batch, sizeof(batch), "batch, %d worker%s", workers, workers == 1 ? "" : "s");
    printf("    %-26s  %-22s  %s\n", "query", "one thread", batch);

    /* rays in random directions from random points */
    for (int i = 0; i < DEMO_TIMED_RAYS; ++i)
    {
        random_point(&b, &state, rays[i].origin);
        /* a uniform direction: a point of the unit ball, away from its centre */
        float d[3], len2;
        do
        {
            for (int k = 0; k < 3; ++k)
            {
                d[k] = 2.0f * next_unit(&state) - 1.0f;
            }
            len2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
        } while (len2 > 1.0f || len2 < 1e-4f);
        memcpy(rays[i].direction, d, sizeof(d));
        rays[i].max_t = INFINITY;
    }
    ray_timing t;
    int rc = time_rays(mesh, rays, hits, DEMO_TIMED_RAYS, tasks, &t);
    if (rc == CLI_EXIT_OK)
    {
        print_ray_timing("ray, random direction", &t, DEMO_TIMED_RAYS);
        /* ground rays: straight down from above the bounds */
        for (int i = 0; i < DEMO_TIMED_RAYS; ++i)
        {
            random_point(&b, &state, rays[i].origin);
            rays[i].origin[1] = b.max[1] + 1.0f;
            rays[i].direction[0] = 0.0f;
            rays[i].direction[1] = -1.0f;
            rays[i].direction[2] = 0.0f;
        }
        rc = time_rays(mesh, rays, hits, DEMO_TIMED_RAYS, tasks, &t);
    }
    if (rc == CLI_EXIT_OK)
    {
        print_ray_timing("ground ray (straight down)", &t, DEMO_TIMED_RAYS);
        px_status status = PX_OK;
        double total = 0.0;
        for (int i = 0; i < DEMO_TIMED_POINTS && status == PX_OK; ++i)
        {
            float p[3];
            random_point(&b, &state, p);
            px_point_result r;
            double t0 = demo_now_ns();
            status = px_mesh_closest_point(mesh, p, INFINITY, &r);
            total += demo_now_ns() - t0;
        }
        if (PX_FAILED(status))
        {
            rc = cli_fail("mesh: a timed closest-point query failed: %s", px_status_string(status));
        }
        else
        {
            double per = total / DEMO_TIMED_POINTS;
            printf("    %-26s  %8.0f ns  %6.2f M/s\n", "closest point", per,
                   render_mega_per_second(1.0, per));
        }
    }
#ifdef DEMO_HAVE_SWEEPS
    if (rc == CLI_EXIT_OK)
    {
        rc = time_sweeps(mesh, &b, &state);
    }
#endif
    free(rays);
    free(hits);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------- */

int demo_mesh(const char* out_dir, const px_obj_data* file, const char* file_path)
{
    static level built_in; /* static: about 60 KB */
    if (file != NULL && file->triangle_count == 0)
    {
        printf("mesh: %s has no triangles ('f' lines): no mesh section\n\n", file_path);
        return CLI_EXIT_OK;
    }
    if (file != NULL)
    {
        printf("mesh: px_mesh ray casts and closest points on %s\n", file_path);
    }
    else
    {
        printf("mesh: px_mesh ray casts and closest points on a built-in level (y up): a floor grid, crates, "
               "a block,\n      a wall, a pillar, a ramp up to a platform, and %d stairs up to another\n",
               LEVEL_STEPS);
    }
    const float* vertices;
    const int32_t* indices;
    int vertex_count, triangle_count;
    section_triangles(file, &built_in, &vertices, &indices, &vertex_count, &triangle_count);

    double t0 = demo_now_ns();
    px_mesh* mesh = NULL;
    px_status status = px_mesh_create(vertices, vertex_count, indices, triangle_count, NULL, &mesh);
    double build_ns = demo_now_ns() - t0;
    if (status != PX_OK)
    {
        return cli_fail("mesh: cannot build the mesh: %s", px_status_string(status));
    }
    render_print_mesh(mesh, build_ns, "  ");

    px_thread_pool* pool = NULL;
    status = px_thread_pool_create(0, NULL, &pool);
    if (status != PX_OK)
    {
        px_mesh_destroy(mesh);
        return cli_fail("mesh: cannot start the thread pool: %s", px_status_string(status));
    }
    px_task_system tasks = px_thread_pool_task_system(pool);
    int workers = px_thread_pool_worker_count(pool);

    /* the picture first: its timings are the section's headline */
    char caption[160];
    if (file != NULL)
    {
        const char* base = strrchr(file_path, '/');
        snprintf(caption, sizeof(caption), "%.80s  %d triangles", base != NULL ? base + 1 : file_path,
                 triangle_count);
    }
    else
    {
        snprintf(caption, sizeof(caption), "built-in level  %d triangles", triangle_count);
    }
    cli_image image;
    render_result result;
    int rc = render_mesh(mesh, RENDER_VIEW_ISO, DEMO_RENDER_WIDTH, DEMO_RENDER_HEIGHT, &tasks, true, caption,
                         &image, &result);
    if (rc == CLI_EXIT_OK)
    {
        printf("  picture: px_mesh_ray_cast_batch, %s view\n", render_view_name(RENDER_VIEW_ISO));
        render_print_result(&result, "    ");
        char path[4096], error[4200];
        snprintf(path, sizeof(path), "%s/demo_render.%s", out_dir, cli_image_extension());
        if (!cli_image_write(&image, path, error, sizeof(error)))
        {
            rc = cli_fail("%s", error);
        }
        else if (!result.identical)
        {
            rc = cli_fail("mesh: the batch's hits differ from the single-thread hits");
        }
        cli_image_destroy(&image);
        if (rc == CLI_EXIT_OK)
        {
            printf("    wrote %s (%dx%d)\n", path, DEMO_RENDER_WIDTH, DEMO_RENDER_HEIGHT);
        }
    }

    probe probes[DEMO_MAX_PROBES];
    px_aabb bounds = px_mesh_bounds(mesh);
    if (rc == CLI_EXIT_OK)
    {
        int count = file != NULL ? file_ground_probes(&bounds, probes) : level_ground_probes(probes);
        rc = print_ground_probes(mesh, probes, count);
    }
    if (rc == CLI_EXIT_OK)
    {
        int count = file != NULL ? file_point_probes(&bounds, probes) : level_point_probes(probes);
        rc = print_point_probes(mesh, probes, count);
    }
#ifdef DEMO_HAVE_SWEEPS
    if (rc == CLI_EXIT_OK)
    {
        sweep_probe sweeps[DEMO_MAX_PROBES];
        capsule_size size;
        int count = file != NULL ? file_sweeps(&bounds, sweeps, &size) : level_sweeps(sweeps, &size);
        rc = print_sweeps(mesh, sweeps, count, size);
    }
#else
    if (rc == CLI_EXIT_OK)
    {
        printf("  capsule sweeps: not in this build (the library has no px_mesh_shape_cast)\n");
    }
#endif
    if (rc == CLI_EXIT_OK)
    {
        rc = print_timing(mesh, &tasks, workers);
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("\n");
    }
    px_thread_pool_destroy(pool);
    px_mesh_destroy(mesh);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The heightfield section: the same mesh baked into walkable spans */

int demo_raster(const char* out_dir, const px_obj_data* file, const char* file_path)
{
    static level built_in;
    if (file != NULL && file->triangle_count == 0)
    {
        printf("heightfield: %s has no triangles ('f' lines): no heightfield section\n", file_path);
        return CLI_EXIT_OK;
    }
    if (file != NULL)
    {
        printf("heightfield: walkable spans of %s (RecastDemo's agent)\n", file_path);
    }
    else
    {
        printf("heightfield: walkable spans of the built-in level (RecastDemo's agent: cells 0.3 x 0.2, slope "
               "45,\n             climb 0.9, height 2.0)\n");
    }
    const float* vertices;
    const int32_t* indices;
    int vertex_count, triangle_count;
    section_triangles(file, &built_in, &vertices, &indices, &vertex_count, &triangle_count);
    const raster_params params = RASTER_DEFAULT_PARAMS;
    raster_result result;
    int rc = raster_run(vertices, vertex_count, indices, triangle_count, &params, 0, "  ", &result);
    if (rc != CLI_EXIT_OK)
    {
        return rc;
    }
    cli_image image;
    const bool drawn = raster_draw_map(result.field, &image);
    px_heightfield_destroy(result.field);
    if (!drawn)
    {
        return cli_fail("heightfield: out of memory drawing the map");
    }
    char path[4096], error[4200];
    snprintf(path, sizeof(path), "%s/demo_walkable.%s", out_dir, cli_image_extension());
    const bool written = cli_image_write(&image, path, error, sizeof(error));
    const int iw = image.width, ih = image.height;
    cli_image_destroy(&image);
    if (!written)
    {
        return cli_fail("%s", error);
    }
    printf("  wrote %s (%dx%d: top spans, green walkable, red not, brighter higher)\n", path, iw, ih);
    return CLI_EXIT_OK;
}
