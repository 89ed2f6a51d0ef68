/* `proxima demo [--out DIR] [--mesh FILE.obj]`: the library's showcase.
 *
 * A built-in scene of posed convex shapes on a floor (spheres, capsules, boxes, a rounded box, a cylinder,
 * a cone and three point-cloud hulls built here), optionally with the convex hull of an OBJ file's
 * vertices. For every pair it runs px_gjk_distance_world and px_gjk_overlap_world, timing each over
 * repeated calls, and prints a table and a summary; demo_field.c then draws the distance-field picture,
 * demo_contacts.c runs the second section: contact manifolds of a small resting scene, with its picture, and
 * demo_mesh.c the third: a triangle mesh (a built-in level, or the --mesh file) with its BVH, a ray-cast
 * picture and probes, the fourth: that mesh's walkable heightfield and its map, and demo_world.c the fifth:
 * the mesh in a px_world with a few hundred moving bodies (pairs, contacts, threads, proximity, rays). */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DEMO_REPEAT 256     /* timed calls per pair and query */
#define DEMO_MESH_SIZE 2.2f /* the --mesh hull is scaled to this largest extent [Units: length] */

static const float demo_pi = 3.14159265358979f;

/* ---------------------------------------------------------------------------------------------------- */
/* Scene */

double demo_now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Rotation of angle degrees about an axis (normalized here). */
static void axis_angle(float ax, float ay, float az, float degrees, versor dest)
{
    float len = sqrtf(ax * ax + ay * ay + az * az);
    float half = 0.5f * degrees * demo_pi / 180.0f;
    float s = sinf(half) / len;
    dest[0] = ax * s;
    dest[1] = ay * s;
    dest[2] = az * s;
    dest[3] = cosf(half);
}

/* Rotation `second` applied after `first`. */
static void rotate_then(const versor first, const versor second, versor dest)
{
    px_transform a, b, ab;
    px_transform_set((vec3){ 0.0f, 0.0f, 0.0f }, second, &a);
    px_transform_set((vec3){ 0.0f, 0.0f, 0.0f }, first, &b);
    px_transform_mul(&a, &b, &ab);
    memcpy(dest, ab.q, sizeof(versor));
}

static demo_body* add_body(demo_scene* scene, const char* name, px_shape shape, float x, float y, float z,
                           const versor q)
{
    demo_body* b = &scene->bodies[scene->count++];
    memset(b, 0, sizeof(*b));
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->shape = shape;
    versor identity = { 0.0f, 0.0f, 0.0f, 1.0f };
    px_transform_set((vec3){ x, y, z }, q != NULL ? q : identity, &b->pose);
    b->in_map = true;
    return b;
}

/* Points on an ellipsoid with semi-axes (rx, ry, rz): rings of latitude plus the poles. */
static void make_ellipsoid(float rx, float ry, float rz, float* points)
{
    int n = 0;
    points[n++] = 0.0f;
    points[n++] = ry;
    points[n++] = 0.0f;
    for (int ring = 1; ring <= DEMO_ELLIPSOID_RINGS; ++ring)
    {
        float phi = demo_pi * (float)ring / (float)(DEMO_ELLIPSOID_RINGS + 1);
        for (int s = 0; s < DEMO_ELLIPSOID_SEGMENTS; ++s)
        {
            /* alternate rings are offset by half a segment so the hull has no long vertical edges */
            float theta =
                2.0f * demo_pi * ((float)s + 0.5f * (float)(ring & 1)) / (float)DEMO_ELLIPSOID_SEGMENTS;
            points[n++] = rx * sinf(phi) * cosf(theta);
            points[n++] = ry * cosf(phi);
            points[n++] = rz * sinf(phi) * sinf(theta);
        }
    }
    points[n++] = 0.0f;
    points[n++] = -ry;
    points[n++] = 0.0f;
}

static void build_scene(demo_scene* scene)
{
    versor q, q2, q3;
    demo_body* b;

    b = add_body(scene, "sphere", px_shape_sphere(0.8f), -4.5f, 0.8f, -3.0f, NULL);
    snprintf(b->description, sizeof(b->description), "radius 0.8");
    b = add_body(scene, "ball", px_shape_sphere(0.45f), -3.05f, 0.45f, -1.75f, NULL);
    snprintf(b->description, sizeof(b->description), "radius 0.45");
    b = add_body(scene, "capsule", px_shape_capsule(0.5f, 0.45f), -1.5f, 0.95f, -3.0f, NULL);
    snprintf(b->description, sizeof(b->description), "half height 0.5, radius 0.45, upright");

    axis_angle(0.0f, 0.0f, 1.0f, 90.0f, q);
    axis_angle(0.0f, 1.0f, 0.0f, 30.0f, q2);
    rotate_then(q, q2, q3);
    b = add_body(scene, "capsule-lying", px_shape_capsule(1.0f, 0.35f), 1.6f, 0.35f, -2.9f, q3);
    snprintf(b->description, sizeof(b->description), "half height 1.0, radius 0.35, lying, yaw 30");

    b = add_body(scene, "box", px_shape_box((vec3){ 0.7f, 0.5f, 0.6f }), 4.5f, 0.5f, -3.0f, NULL);
    snprintf(b->description, sizeof(b->description), "half extents 0.7 0.5 0.6");

    axis_angle(0.0f, 1.0f, 0.0f, 30.0f, q);
    b = add_body(scene, "box-yaw30", px_shape_box((vec3){ 1.0f, 0.4f, 0.35f }), -4.3f, 0.4f, 0.2f, q);
    snprintf(b->description, sizeof(b->description), "half extents 1.0 0.4 0.35, yaw 30");

    axis_angle(1.0f, 0.0f, 0.0f, 35.0f, q);
    axis_angle(0.0f, 0.0f, 1.0f, 20.0f, q2);
    rotate_then(q, q2, q3);
    b = add_body(scene, "box-tilted", px_shape_box((vec3){ 0.5f, 0.5f, 0.5f }), -1.3f, 0.8f, 0.1f, q3);
    snprintf(b->description, sizeof(b->description), "cube 0.5, tilted 35 about x, 20 about z");

    /* the cylinder leans into the tilted box: the one overlapping pair off the floor */
    b = add_body(scene, "cylinder", px_shape_cylinder(0.7f, 0.6f), -0.4f, 0.7f, 0.9f, NULL);
    snprintf(b->description, sizeof(b->description), "half height 0.7, radius 0.6");

    b = add_body(scene, "cone", px_shape_cone(0.75f, 0.7f), 1.9f, 0.75f, 0.3f, NULL);
    snprintf(b->description, sizeof(b->description), "half height 0.75, base radius 0.7");

    px_shape rounded = px_shape_box((vec3){ 0.5f, 0.3f, 0.5f });
    rounded.radius = 0.2f;
    axis_angle(0.0f, 1.0f, 0.0f, 15.0f, q);
    b = add_body(scene, "rounded-box", rounded, 4.4f, 0.5f, 0.1f, q);
    snprintf(b->description, sizeof(b->description), "half extents 0.5 0.3 0.5, rounding 0.2");

    make_ellipsoid(1.0f, 0.6f, 0.7f, scene->ellipsoid);
    axis_angle(0.0f, 1.0f, 0.0f, 40.0f, q);
    b = add_body(scene, "ellipsoid", px_shape_hull(scene->ellipsoid, DEMO_ELLIPSOID_POINTS), -3.4f, 0.6f,
                 3.0f, q);
    snprintf(b->description, sizeof(b->description), "hull of %d points, semi-axes 1.0 0.6 0.7",
             DEMO_ELLIPSOID_POINTS);

    const float tetra[12] = { -0.8f, 0.0f, -0.55f, 0.8f, 0.0f, -0.55f, 0.0f, 0.0f, 0.85f, 0.0f, 1.3f, 0.0f };
    memcpy(scene->tetrahedron, tetra, sizeof(tetra));
    axis_angle(0.0f, 1.0f, 0.0f, -20.0f, q);
    b = add_body(scene, "tetrahedron", px_shape_hull(scene->tetrahedron, 4), -1.9f, 0.0f, 2.35f, q);
    snprintf(b->description, sizeof(b->description), "hull of 4 points, height 1.3");

    /* the pebble almost touches the cone's slanted side: a gap of 0.03 */
    b = add_body(scene, "pebble", px_shape_sphere(0.3f), 2.824f, 0.3f, 0.3f, NULL);
    snprintf(b->description, sizeof(b->description), "radius 0.3");

    /* a ramp: the hull of a box's bottom and one raised edge */
    const float wedge[18] = { -0.9f, 0.0f, -0.6f, 0.9f,  0.0f, -0.6f, -0.9f, 0.0f, 0.6f,
                              0.9f,  0.0f, 0.6f,  -0.9f, 1.0f, -0.6f, 0.9f,  1.0f, -0.6f };
    memcpy(scene->wedge, wedge, sizeof(wedge));
    axis_angle(0.0f, 1.0f, 0.0f, -25.0f, q);
    b = add_body(scene, "wedge", px_shape_hull(scene->wedge, 6), 2.9f, 0.0f, 3.0f, q);
    snprintf(b->description, sizeof(b->description), "hull of 6 points: a ramp 1.8 x 1.2 x 1.0");
}

/* --mesh: load the file and add the hull of its vertices, centred and scaled to DEMO_MESH_SIZE, resting on
 * the floor in front of the scene. Returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
static int add_mesh(demo_scene* scene, const char* path)
{
    px_obj_error error;
    px_status status = px_obj_load(path, NULL, &scene->mesh, &error);
    if (status != PX_OK)
    {
        return cli_fail("%s: %s", path, error.message[0] != '\0' ? error.message : px_status_string(status));
    }
    const px_obj_data* m = &scene->mesh;
    if (m->vertex_count == 0)
    {
        return cli_fail("%s: the file has no vertices ('v' lines)", path);
    }
    float lo[3] = { m->vertices[0], m->vertices[1], m->vertices[2] };
    float hi[3] = { lo[0], lo[1], lo[2] };
    for (int i = 1; i < m->vertex_count; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            lo[k] = fminf(lo[k], m->vertices[3 * i + k]);
            hi[k] = fmaxf(hi[k], m->vertices[3 * i + k]);
        }
    }
    /* in doubles: a float extent overflows for coordinates near FLT_MAX and its inverse for tiny meshes
     * (a mesh 1e-40 across was scaled by inf into NaN points; review 52) */
    double extent = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        extent = fmax(extent, (double)hi[k] - (double)lo[k]);
    }
    const double scale = extent > 0.0 ? (double)DEMO_MESH_SIZE / extent : 1.0;
    scene->mesh_points = malloc((size_t)m->vertex_count * 3 * sizeof(float));
    if (scene->mesh_points == NULL)
    {
        return cli_fail("out of memory for %d mesh vertices", m->vertex_count);
    }
    /* centre in x and z, bottom at y = 0, in doubles so far-off meshes (undulating.obj at 5000) keep
     * their precision */
    for (int i = 0; i < m->vertex_count; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            double centre = k == 1 ? (double)lo[1] : 0.5 * ((double)lo[k] + (double)hi[k]);
            scene->mesh_points[3 * i + k] = (float)(((double)m->vertices[3 * i + k] - centre) * scale);
        }
    }
    const char* base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    char name[16];
    snprintf(name, sizeof(name), "%.*s", (int)strcspn(base, "."), base);
    demo_body* b =
        add_body(scene, name, px_shape_hull(scene->mesh_points, m->vertex_count), 0.0f, 0.0f, 5.6f, NULL);
    snprintf(b->description, sizeof(b->description), "hull of %d OBJ vertices, scaled %.3g", m->vertex_count,
             scale);
    printf(
        "mesh: %s: %d vertices, %d triangles; its vertices' convex hull is scaled by %.4g to %.1f units\n\n",
        path, m->vertex_count, m->triangle_count, scale, (double)DEMO_MESH_SIZE);
    return CLI_EXIT_OK;
}

/* The floor: a slab under everything, its top at y = 0. Added last so its extent covers the scene. */
static int add_floor(demo_scene* scene)
{
    float x0 = 1e30f, x1 = -1e30f, z0 = 1e30f, z1 = -1e30f;
    for (int i = 0; i < scene->count; ++i)
    {
        if (px_shape_aabb(&scene->bodies[i].shape, &scene->bodies[i].pose, &scene->bodies[i].box) != PX_OK)
        {
            return cli_fail("shape '%s' is invalid", scene->bodies[i].name);
        }
        x0 = fminf(x0, scene->bodies[i].box.min[0]);
        x1 = fmaxf(x1, scene->bodies[i].box.max[0]);
        z0 = fminf(z0, scene->bodies[i].box.min[2]);
        z1 = fmaxf(z1, scene->bodies[i].box.max[2]);
    }
    const float margin = 1.0f, thickness = 0.1f;
    demo_body* f =
        add_body(scene, "floor",
                 px_shape_box((vec3){ 0.5f * (x1 - x0) + margin, thickness, 0.5f * (z1 - z0) + margin }),
                 0.5f * (x0 + x1), -thickness, 0.5f * (z0 + z1), NULL);
    snprintf(f->description, sizeof(f->description), "box %.1f x %.1f, top at y = 0",
             (double)(x1 - x0 + 2 * margin), (double)(z1 - z0 + 2 * margin));
    f->in_map = false;
    if (px_shape_aabb(&f->shape, &f->pose, &f->box) != PX_OK)
    {
        return cli_fail("the floor is invalid");
    }
    return CLI_EXIT_OK;
}

static const char* type_name(px_shape_type type)
{
    static const char* names[PX_SHAPE_TYPE_COUNT] = { "point", "segment",  "triangle", "sphere", "capsule",
                                                      "box",   "cylinder", "cone",     "hull",   "user" };
    return (int)type >= 0 && type < PX_SHAPE_TYPE_COUNT ? names[type] : "?";
}

static void print_scene(const demo_scene* scene)
{
    printf("scene: %d shapes (y up; the floor's top is y = 0)\n", scene->count);
    printf("  %-2s  %-13s  %-8s  %-22s  %s\n", "#", "name", "type", "position", "size");
    for (int i = 0; i < scene->count; ++i)
    {
        const demo_body* b = &scene->bodies[i];
        const char* type = type_name(b->shape.type);
        if (b->shape.type == PX_SHAPE_BOX && b->shape.radius > 0.0f)
        {
            type = "rounded";
        }
        printf("  %-2d  %-13s  %-8s  (%5.2f, %5.2f, %5.2f)  %s\n", i + 1, b->name, type, (double)b->pose.p[0],
               (double)b->pose.p[1], (double)b->pose.p[2], b->description);
    }
    printf("\n");
}

/* ---------------------------------------------------------------------------------------------------- */
/* Pair queries */

/* Run and time both queries for one pair. The timed loops repeat the identical call: the result is the
 * same each time (queries are deterministic), so the last one is kept. */
static void run_pair(const demo_scene* scene, demo_pair* p)
{
    const demo_body* a = &scene->bodies[p->a];
    const demo_body* b = &scene->bodies[p->b];
    double t0 = demo_now_ns();
    for (int r = 0; r < DEMO_REPEAT; ++r)
    {
        p->status = px_gjk_distance_world(&a->shape, &a->pose, &b->shape, &b->pose, NULL, &p->result);
    }
    double t1 = demo_now_ns();
    for (int r = 0; r < DEMO_REPEAT; ++r)
    {
        p->overlap_status = px_gjk_overlap_world(&a->shape, &a->pose, &b->shape, &b->pose, NULL, &p->overlap);
    }
    double t2 = demo_now_ns();
    p->distance_ns = (t1 - t0) / DEMO_REPEAT;
    p->overlap_ns = (t2 - t1) / DEMO_REPEAT;
}

/* A distance for the table: fixed point, or scientific when it is tiny but not zero (resting contacts
 * separated only by float rounding) so it does not read as 0. */
static void format_distance(float d, char* text, size_t size)
{
    snprintf(text, size, d > 0.0f && d < 1e-4f ? "%.2e" : "%.5f", (double)d);
}

static void print_pair_table(const demo_scene* scene, const demo_pair* pairs, int count)
{
    printf("pairs: px_gjk_distance_world and px_gjk_overlap_world, time per query over %d calls\n",
           DEMO_REPEAT);
    printf("%4s  %-13s  %-13s  %9s  %-7s  %4s  %-11s  %7s  %7s  %-22s  %-22s  %s\n", "#", "shape A",
           "shape B", "distance", "overlap", "iter", "exit", "dist ns", "ovl ns", "point on A", "point on B",
           "normal A->B");
    for (int i = 0; i < count; ++i)
    {
        const demo_pair* p = &pairs[i];
        const px_gjk_result* r = &p->result;
        const char* overlap = PX_FAILED(p->overlap_status) ? "error" : p->overlap ? "yes" : "no";
        char distance[24];
        format_distance(r->distance, distance, sizeof(distance));
        printf("%4d  %-13s  %-13s  %9s  %-7s  %4d  %-11s  %7.0f  %7.0f  (%6.2f,%6.2f,%6.2f)  "
               "(%6.2f,%6.2f,%6.2f)  (%5.2f,%5.2f,%5.2f)",
               i + 1, scene->bodies[p->a].name, scene->bodies[p->b].name, distance, overlap, r->iterations,
               cli_exit_name(r->exit), p->distance_ns, p->overlap_ns, (double)r->point_a[0],
               (double)r->point_a[1], (double)r->point_a[2], (double)r->point_b[0], (double)r->point_b[1],
               (double)r->point_b[2], (double)r->normal[0], (double)r->normal[1], (double)r->normal[2]);
        if (p->status != PX_OK)
        {
            printf("  [%s]", px_status_string(p->status));
        }
        printf("\n");
    }
    printf("\n");
}

/* ---------------------------------------------------------------------------------------------------- */

static void print_summary(const demo_scene* scene, const demo_pair* pairs, int count, double query_ns)
{
    int overlapping = 0, failed = 0, min_pair = -1, max_iter = 0;
    double distance_ns = 0.0, overlap_ns = 0.0;
    for (int i = 0; i < count; ++i)
    {
        const demo_pair* p = &pairs[i];
        if (PX_FAILED(p->status) || PX_FAILED(p->overlap_status))
        {
            ++failed;
            continue;
        }
        overlapping += p->overlap ? 1 : 0;
        if (!p->overlap && (min_pair < 0 || p->result.distance < pairs[min_pair].result.distance))
        {
            min_pair = i;
        }
        max_iter = p->result.iterations > max_iter ? p->result.iterations : max_iter;
        distance_ns += p->distance_ns;
        overlap_ns += p->overlap_ns;
    }
    printf("summary\n");
    printf("  pairs              %d (%d shapes)\n", count, scene->count);
    printf("  overlapping pairs  %d (touching counts)\n", overlapping);
    if (min_pair >= 0)
    {
        char distance[24];
        format_distance(pairs[min_pair].result.distance, distance, sizeof(distance));
        printf("  min distance       %s between %s and %s (separated pairs)\n", distance,
               scene->bodies[pairs[min_pair].a].name, scene->bodies[pairs[min_pair].b].name);
    }
    printf("  max iterations     %d\n", max_iter);
    printf("  mean time          %.0f ns per distance query, %.0f ns per overlap query\n",
           count > 0 ? distance_ns / count : 0.0, count > 0 ? overlap_ns / count : 0.0);
    printf("  total time         %.2f ms for %d x %d timed queries\n", query_ns * 1e-6, 2 * count,
           DEMO_REPEAT);
    if (failed > 0)
    {
        printf("  failed queries     %d\n", failed);
    }
    printf("\n");
}

int cli_demo(int argc, char** argv)
{
    const char* out_dir = "out";
    const char* mesh_path = NULL;
    for (int i = 0; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cli_is_help(arg))
        {
            cli_print_usage(stdout);
            return CLI_EXIT_OK;
        }
        bool is_out = strcmp(arg, "--out") == 0, is_mesh = strcmp(arg, "--mesh") == 0;
        if (is_out || is_mesh)
        {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
            {
                return cli_usage_error("demo: %s needs a value", arg);
            }
            *(is_out ? &out_dir : &mesh_path) = argv[++i];
        }
        else
        {
            return cli_usage_error("demo: unexpected argument '%s'", arg);
        }
    }

    /* the output folder first, so a bad --out fails before any work */
    char error[256];
    if (!cli_make_directories(out_dir, error, sizeof(error)))
    {
        return cli_fail("%s", error);
    }

    double start = demo_now_ns();
    static demo_scene scene; /* static: ~1 KB of points, and zero-initialized */
    memset(&scene, 0, sizeof(scene));
    build_scene(&scene);
    int rc = CLI_EXIT_OK;
    if (mesh_path != NULL)
    {
        rc = add_mesh(&scene, mesh_path);
    }
    if (rc == CLI_EXIT_OK)
    {
        rc = add_floor(&scene);
    }
    if (rc != CLI_EXIT_OK)
    {
        px_obj_free(&scene.mesh);
        free(scene.mesh_points);
        return rc;
    }
    print_scene(&scene);

    demo_pair pairs[DEMO_MAX_BODIES * (DEMO_MAX_BODIES - 1) / 2];
    int pair_count = 0;
    double query_ns = 0.0;
    for (int a = 0; a < scene.count; ++a)
    {
        for (int b = a + 1; b < scene.count; ++b)
        {
            demo_pair* p = &pairs[pair_count++];
            memset(p, 0, sizeof(*p));
            p->a = a;
            p->b = b;
            run_pair(&scene, p);
            query_ns += (p->distance_ns + p->overlap_ns) * DEMO_REPEAT;
        }
    }
    print_pair_table(&scene, pairs, pair_count);
    print_summary(&scene, pairs, pair_count, query_ns);

    rc = demo_write_picture(&scene, pairs, pair_count, out_dir);
    for (int i = 0; i < pair_count && rc == CLI_EXIT_OK; ++i)
    {
        if (PX_FAILED(pairs[i].status) || PX_FAILED(pairs[i].overlap_status))
        {
            rc = cli_fail(
                "%s / %s: the query failed: %s", scene.bodies[pairs[i].a].name, scene.bodies[pairs[i].b].name,
                px_status_string(PX_FAILED(pairs[i].status) ? pairs[i].status : pairs[i].overlap_status));
        }
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("\n");
        rc = demo_contacts(out_dir);
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("\n");
        rc = demo_mesh(out_dir, mesh_path != NULL ? &scene.mesh : NULL, mesh_path);
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("\n");
        rc = demo_raster(out_dir, mesh_path != NULL ? &scene.mesh : NULL, mesh_path);
    }
    if (rc == CLI_EXIT_OK)
    {
        printf("\n");
        rc = demo_world(out_dir, mesh_path != NULL ? &scene.mesh : NULL, mesh_path);
    }
    printf("done in %.0f ms\n", (demo_now_ns() - start) * 1e-6);
    px_obj_free(&scene.mesh);
    free(scene.mesh_points);
    return rc;
}
