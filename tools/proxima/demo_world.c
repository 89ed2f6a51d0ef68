/* `proxima demo`, fifth section: the collision world at work.
 *
 * The section's mesh (the built-in level, or the --mesh file) becomes a static body of a px_world, and a
 * few hundred moving bodies (boxes, spheres, capsules and hulls) fly through it on straight paths, turning
 * as they go and bouncing off the mesh's bounds. Every step sets their poses (px_world_set_poses) and calls
 * px_world_update; the section prints bodies, pairs, contacts and the time per step (both calls), first with
 * everything on the calling thread, then on a thread pool, and checks that both runs gave the same contacts
 * bit for bit. Then the
 * queries of the last step: proximity (every pair closer than a body's size) and ray casts straight down.
 * The last step is drawn from above to DIR/demo_world.png: the mesh shaded by height, the bodies, and their
 * contact points. */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WORLD_BODIES 400
#define WORLD_STEPS 120
#define WORLD_DT (1.0f / 60.0f)
#define WORLD_PICTURE_WIDTH 720 /* [pixels]; the height follows the mesh's aspect */
#define WORLD_RAYS 2000
#define WORLD_HULL_POINTS 12

typedef struct flyer
{
    px_body_id id;
    px_transform pose;
    vec3 velocity; /* [Units: length / s] */
    vec3 axis;     /* spin axis (unit) */
    float spin;    /* [rad / s] */
} flyer;

typedef struct world_scene
{
    px_mesh* mesh;
    px_aabb bounds; /* where the flyers stay: the mesh's bounds, raised */
    float size;     /* typical body size [Units: length] */
    flyer flyers[WORLD_BODIES];
    float hull_points[3 * WORLD_HULL_POINTS];
} world_scene;

typedef struct world_run
{
    double step_ns;     /* total time in px_world_set_poses and px_world_update */
    uint64_t hash;      /* of every step's contacts */
    long pairs;         /* summed over steps */
    long contacts;
    long points;
    int warnings;
    px_status status;   /* first error, or PX_OK */
} world_run;

static void set3(vec3 v, float x, float y, float z)
{
    v[0] = x;
    v[1] = y;
    v[2] = z;
}

static float unit_random(uint32_t* state)
{
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) * (1.0f / 16777216.0f);
}

static void set_axis_angle(const vec3 axis, float angle, versor q)
{
    float s = sinf(0.5f * angle);
    q[0] = axis[0] * s;
    q[1] = axis[1] * s;
    q[2] = axis[2] * s;
    q[3] = cosf(0.5f * angle);
}

/* q = r * q (r applied after q), renormalized */
static void turn(versor q, const versor r)
{
    float x = r[3] * q[0] + r[0] * q[3] + r[1] * q[2] - r[2] * q[1];
    float y = r[3] * q[1] - r[0] * q[2] + r[1] * q[3] + r[2] * q[0];
    float z = r[3] * q[2] + r[0] * q[1] - r[1] * q[0] + r[2] * q[3];
    float w = r[3] * q[3] - r[0] * q[0] - r[1] * q[1] - r[2] * q[2];
    float n = 1.0f / sqrtf(x * x + y * y + z * z + w * w);
    q[0] = x * n;
    q[1] = y * n;
    q[2] = z * n;
    q[3] = w * n;
}

static px_shape flyer_shape(const world_scene* s, int i)
{
    float r = s->size * 0.5f;
    switch (i % 4)
    {
    case 0:
    {
        vec3 h = {r, 0.6f * r, 0.8f * r};
        return px_shape_box(h);
    }
    case 1:
        return px_shape_sphere(r);
    case 2:
        return px_shape_capsule(0.8f * r, 0.5f * r);
    default:
        return px_shape_hull(s->hull_points, WORLD_HULL_POINTS);
    }
}

/* The flyers' starting state, the same for every run. */
static void init_flyers(world_scene* s)
{
    uint32_t state = 12345u;
    for (int k = 0; k < WORLD_HULL_POINTS; ++k)
    {
        for (int j = 0; j < 3; ++j)
        {
            s->hull_points[3 * k + j] = (unit_random(&state) - 0.5f) * s->size;
        }
    }
    float speed = 0.15f * (s->bounds.max[0] - s->bounds.min[0]); /* crosses the field in ~7 s */
    for (int i = 0; i < WORLD_BODIES; ++i)
    {
        flyer* f = &s->flyers[i];
        px_transform_identity(&f->pose);
        for (int j = 0; j < 3; ++j)
        {
            f->pose.p[j] = s->bounds.min[j] + unit_random(&state) * (s->bounds.max[j] - s->bounds.min[j]);
            f->velocity[j] = (unit_random(&state) - 0.5f) * speed;
            f->axis[j] = unit_random(&state) - 0.5f;
        }
        float n = sqrtf(f->axis[0] * f->axis[0] + f->axis[1] * f->axis[1] + f->axis[2] * f->axis[2]);
        for (int j = 0; j < 3; ++j)
        {
            f->axis[j] = n > 0.0f ? f->axis[j] / n : (j == 1 ? 1.0f : 0.0f);
        }
        f->spin = (unit_random(&state) - 0.5f) * 4.0f;
    }
}

static void advance(world_scene* s)
{
    for (int i = 0; i < WORLD_BODIES; ++i)
    {
        flyer* f = &s->flyers[i];
        for (int j = 0; j < 3; ++j)
        {
            f->pose.p[j] += f->velocity[j] * WORLD_DT;
            if ((f->pose.p[j] < s->bounds.min[j] && f->velocity[j] < 0.0f) ||
                (f->pose.p[j] > s->bounds.max[j] && f->velocity[j] > 0.0f))
            {
                f->velocity[j] = -f->velocity[j];
            }
        }
        versor r;
        set_axis_angle(f->axis, f->spin * WORLD_DT, r);
        turn(f->pose.q, r);
    }
}

static uint64_t hash_bytes(uint64_t h, const void* data, size_t size)
{
    const unsigned char* p = (const unsigned char*)data;
    for (size_t i = 0; i < size; ++i)
    {
        h = (h ^ p[i]) * 1099511628211ull;
    }
    return h;
}

/* Hash of a step's contacts, field by field (struct padding is not part of the result). */
static uint64_t hash_contacts(uint64_t h, const px_world_contact* c, int count)
{
    for (int i = 0; i < count; ++i)
    {
        h = hash_bytes(h, &c[i].body_a.index, sizeof(int32_t));
        h = hash_bytes(h, &c[i].body_b.index, sizeof(int32_t));
        h = hash_bytes(h, &c[i].triangle, sizeof(int32_t));
        h = hash_bytes(h, &c[i].began, sizeof(bool));
        h = hash_bytes(h, c[i].manifold.normal, sizeof(vec3));
        h = hash_bytes(h, &c[i].manifold.count, sizeof(int));
        for (int k = 0; k < c[i].manifold.count; ++k)
        {
            const px_manifold_point* p = &c[i].manifold.points[k];
            h = hash_bytes(h, p->point_a, sizeof(vec3));
            h = hash_bytes(h, &p->separation, sizeof(float));
            h = hash_bytes(h, &p->id, sizeof(uint32_t));
        }
    }
    return h;
}

/* Build the world, run every step, and leave the world of the last step in *out (the caller destroys it). */
static world_run run_world(world_scene* s, const px_task_system* tasks, px_world** out)
{
    world_run run;
    memset(&run, 0, sizeof(run));
    run.hash = 1469598103934665603ull;
    *out = NULL;
    px_world_def def = px_world_default_def();
    def.aabb_margin = 0.1f * s->size;
    def.contact_margin = 0.02f * s->size;
    if (tasks != NULL)
    {
        def.tasks = *tasks;
    }
    px_world* world = NULL;
    run.status = px_world_create(&def, &world);
    if (run.status != PX_OK)
    {
        return run;
    }
    px_body_def bd = px_body_default_def();
    bd.type = PX_BODY_STATIC;
    bd.mesh = s->mesh;
    px_body_id level;
    run.status = px_world_create_body(world, &bd, &level);
    init_flyers(s);
    for (int i = 0; i < WORLD_BODIES && run.status == PX_OK; ++i)
    {
        bd = px_body_default_def();
        bd.shape = flyer_shape(s, i);
        bd.pose = s->flyers[i].pose;
        run.status = px_world_create_body(world, &bd, &s->flyers[i].id);
    }
    static px_body_id ids[WORLD_BODIES];
    static px_transform poses[WORLD_BODIES];
    for (int step = 0; step < WORLD_STEPS && run.status >= PX_OK; ++step)
    {
        double t0 = demo_now_ns();
        if (step > 0)
        {
            advance(s);
            t0 = demo_now_ns();
            for (int i = 0; i < WORLD_BODIES; ++i)
            {
                ids[i] = s->flyers[i].id;
                poses[i] = s->flyers[i].pose;
            }
            /* every body in one call: the poses and tree moves go over the world's task system too */
            run.status = px_world_set_poses(world, ids, poses, WORLD_BODIES);
            if (run.status != PX_OK)
            {
                break;
            }
        }
        px_status st = px_world_update(world);
        run.step_ns += demo_now_ns() - t0;
        if (st < 0)
        {
            run.status = st;
            break;
        }
        int count = 0;
        const px_world_contact* c = px_world_contacts(world, &count);
        px_world_stats stats = px_world_get_stats(world);
        run.hash = hash_contacts(run.hash, c, count);
        run.pairs += stats.pair_count;
        run.contacts += count;
        run.points += stats.point_count;
        run.warnings += stats.warnings;
    }
    *out = world;
    return run;
}

/* From above: the mesh shaded by height (rays straight down), the bodies as discs (lit when touching
 * something), their contact points in red. */
static int draw_world(const world_scene* s, const px_world* world, const char* out_dir)
{
    px_aabb b = px_mesh_bounds(s->mesh);
    float wx = b.max[0] - b.min[0], wz = b.max[2] - b.min[2];
    int width = WORLD_PICTURE_WIDTH;
    int height = (int)((float)width * wz / wx);
    height = height < 120 ? 120 : (height > 1200 ? 1200 : height);
    float scale = (float)width / wx;
    if ((float)height / wz < scale)
    {
        scale = (float)height / wz;
    }
    cli_image image;
    if (!cli_image_create(&image, width, height))
    {
        return cli_fail("world: out of memory for the picture");
    }
    float hy = b.max[1] - b.min[1];
    for (int y = 0; y < height; ++y)
    {
        for (int x = 0; x < width; ++x)
        {
            px_ray ray;
            set3(ray.origin, b.min[0] + ((float)x + 0.5f) / scale, b.max[1] + 1.0f,
                           b.min[2] + ((float)y + 0.5f) / scale);
            set3(ray.direction, 0.0f, -1.0f, 0.0f);
            ray.max_t = hy + 2.0f;
            px_ray_hit hit;
            if (px_mesh_ray_cast(s->mesh, &ray, &hit) == PX_OK && hit.hit)
            {
                float h = hy > 0.0f ? (hit.point[1] - b.min[1]) / hy : 0.5f;
                float light = 0.35f + 0.45f * fabsf(hit.normal[1]) + 0.2f * h;
                uint8_t v = (uint8_t)(fminf(light, 1.0f) * 200.0f);
                cli_image_set(&image, x, y, (cli_rgb){v, v, (uint8_t)(v + 20 > 255 ? 255 : v + 20)});
            }
            else
            {
                cli_image_set(&image, x, y, (cli_rgb){24, 24, 32});
            }
        }
    }
    int count = 0;
    const px_world_contact* c = px_world_contacts(world, &count);
    for (int i = 0; i < WORLD_BODIES; ++i)
    {
        const flyer* f = &s->flyers[i];
        bool touching = false;
        for (int k = 0; k < count && !touching; ++k)
        {
            touching = c[k].body_a.index == f->id.index || c[k].body_b.index == f->id.index;
        }
        float px = (f->pose.p[0] - b.min[0]) * scale, pz = (f->pose.p[2] - b.min[2]) * scale;
        cli_rgb color = touching ? (cli_rgb){255, 190, 60} : (cli_rgb){90, 160, 255};
        cli_image_disc(&image, px, pz, fmaxf(1.5f, 0.5f * s->size * scale), color, 0.75f);
    }
    for (int k = 0; k < count; ++k)
    {
        for (int p = 0; p < c[k].manifold.count; ++p)
        {
            const float* q = c[k].manifold.points[p].point_a;
            cli_image_disc(&image, (q[0] - b.min[0]) * scale, (q[2] - b.min[2]) * scale, 1.6f,
                           (cli_rgb){255, 40, 40}, 1.0f);
        }
    }
    char caption[96];
    snprintf(caption, sizeof(caption), "px_world: %d bodies, %d contacts", WORLD_BODIES + 1, count);
    cli_image_text(&image, 8, 8, 2, caption, (cli_rgb){255, 255, 255});
    char path[1024], error[256];
    snprintf(path, sizeof(path), "%s/demo_world.%s", out_dir, cli_image_extension());
    bool ok = cli_image_write(&image, path, error, sizeof(error));
    cli_image_destroy(&image);
    if (!ok)
    {
        return cli_fail("%s", error);
    }
    printf("  wrote %s\n", path);
    return CLI_EXIT_OK;
}

/* Proximity and ray queries on the world of the last step. */
static int print_queries(world_scene* s, px_world* world)
{
    static px_world_proximity_pair pairs[4096];
    int count = 0;
    double t0 = demo_now_ns();
    px_status st = px_world_proximity(world, 0.5f * s->size, pairs, 4096, &count);
    double prox_ns = demo_now_ns() - t0;
    if (st < 0)
    {
        return cli_fail("world: px_world_proximity failed: %s", px_status_string(st));
    }
    float closest = INFINITY;
    int closest_i = -1;
    for (int i = 0; i < count && i < 4096; ++i)
    {
        if (pairs[i].distance > 0.0f && pairs[i].distance < closest)
        {
            closest = pairs[i].distance;
            closest_i = i;
        }
    }
    printf("  proximity     %d pairs within %.3f (half a body), %.2f ms", count, 0.5 * s->size, prox_ns * 1e-6);
    if (closest_i >= 0)
    {
        printf("; nearest apart: bodies %d and %d at %.4f", pairs[closest_i].body_a.index,
               pairs[closest_i].body_b.index, closest);
    }
    printf("\n");

    px_aabb b = px_mesh_bounds(s->mesh);
    uint32_t state = 777u;
    int hits_level = 0, hits_body = 0;
    t0 = demo_now_ns();
    for (int i = 0; i < WORLD_RAYS; ++i)
    {
        px_ray ray;
        set3(ray.origin, b.min[0] + unit_random(&state) * (b.max[0] - b.min[0]), s->bounds.max[1] + 1.0f,
                       b.min[2] + unit_random(&state) * (b.max[2] - b.min[2]));
        set3(ray.direction, 0.0f, -1.0f, 0.0f);
        ray.max_t = s->bounds.max[1] - b.min[1] + 2.0f;
        px_world_ray_hit hit;
        st = px_world_ray_cast(world, &ray, 0xFFFFFFFFu, &hit);
        if (st < 0)
        {
            return cli_fail("world: px_world_ray_cast failed: %s", px_status_string(st));
        }
        if (hit.hit.hit)
        {
            *(hit.hit.triangle != PX_NULL_INDEX ? &hits_level : &hits_body) += 1;
        }
    }
    double ray_ns = (demo_now_ns() - t0) / WORLD_RAYS;
    printf("  ray casts     %d rays straight down: %d hit a body first, %d the level, %d nothing; %.0f ns per "
           "ray\n",
           WORLD_RAYS, hits_body, hits_level, WORLD_RAYS - hits_body - hits_level, ray_ns);
    return CLI_EXIT_OK;
}

int demo_world(const char* out_dir, const px_obj_data* file, const char* file_path)
{
    static world_scene scene; /* static: the flyers */
    memset(&scene, 0, sizeof(scene));
    if (file != NULL && file->triangle_count == 0)
    {
        printf("world: %s has no triangles: no world section\n", file_path);
        return CLI_EXIT_OK;
    }
    px_status st = demo_section_mesh(file, &scene.mesh);
    if (st != PX_OK)
    {
        return cli_fail("world: cannot build the mesh: %s", px_status_string(st));
    }
    px_aabb b = px_mesh_bounds(scene.mesh);
    float extent = fmaxf(b.max[0] - b.min[0], b.max[2] - b.min[2]);
    scene.size = extent / 48.0f;
    scene.bounds = b;
    scene.bounds.max[1] = fmaxf(b.max[1], b.min[1] + 0.25f * extent);
    printf("world: px_world with %s as a static mesh body and %d moving bodies (boxes, spheres, capsules,\n"
           "       hulls of size %.3f) flying through it for %d steps of %.4f s\n",
           file != NULL ? file_path : "the built-in level", WORLD_BODIES, scene.size, WORLD_STEPS,
           (double)WORLD_DT);

    px_world* world1 = NULL;
    world_run one = run_world(&scene, NULL, &world1);
    px_world_destroy(world1);
    if (one.status < 0)
    {
        px_mesh_destroy(scene.mesh);
        return cli_fail("world: the run failed: %s", px_status_string(one.status));
    }
    px_thread_pool* pool = NULL;
    st = px_thread_pool_create(0, NULL, &pool);
    if (st != PX_OK)
    {
        px_mesh_destroy(scene.mesh);
        return cli_fail("world: cannot start the thread pool: %s", px_status_string(st));
    }
    px_task_system tasks = px_thread_pool_task_system(pool);
    px_world* world = NULL;
    world_run many = run_world(&scene, &tasks, &world);
    int workers = px_thread_pool_worker_count(pool);
    int rc = CLI_EXIT_OK;
    if (many.status < 0)
    {
        rc = cli_fail("world: the run on the pool failed: %s", px_status_string(many.status));
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("  per step      %.0f pairs, %.0f contacts, %.0f contact points (average over the steps)\n",
               (double)one.pairs / WORLD_STEPS, (double)one.contacts / WORLD_STEPS,
               (double)one.points / WORLD_STEPS);
        printf("  time per step %.3f ms on 1 thread, %.3f ms on %d threads (%.2fx)\n",
               one.step_ns * 1e-6 / WORLD_STEPS, many.step_ns * 1e-6 / WORLD_STEPS, workers,
               many.step_ns > 0.0 ? one.step_ns / many.step_ns : 0.0);
        bool same = one.hash == many.hash && one.contacts == many.contacts;
        printf("  threads       same contacts on 1 and %d threads: %s\n", workers, same ? "yes" : "NO");
        if (one.warnings > 0)
        {
            printf("  warnings      %d narrowphase calls hit an iteration bound (best results used)\n",
                   one.warnings);
        }
        if (!same)
        {
            rc = cli_fail("world: the contacts differ between 1 and %d threads", workers);
        }
    }
    if (rc == CLI_EXIT_OK)
    {
        rc = print_queries(&scene, world);
    }
    if (rc == CLI_EXIT_OK)
    {
        rc = draw_world(&scene, world, out_dir);
    }
    px_world_destroy(world);
    px_thread_pool_destroy(pool);
    px_mesh_destroy(scene.mesh);
    return rc;
}
