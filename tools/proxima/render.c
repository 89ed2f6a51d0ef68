/* `proxima render MESH.obj --png FILE [--width W] [--height H] [--threads N] [--view iso|top|front]`, and
 * the ray-cast pictures that `proxima demo` draws with the same code (render.h).
 *
 * The mesh is read with px_obj_load (a broken file is reported with its line) and its BVH built with
 * px_mesh_create, timed apart. A camera frames the mesh's bounds: the default is a perspective
 * three-quarter view from above, fitted so that every corner of the box is in the picture. One primary ray
 * per pixel is cast twice: one by one on this thread with px_mesh_ray_cast, and as one
 * px_mesh_ray_cast_batch on a px_thread_pool; the two must give the same hits, and both are reported in
 * rays per second.
 *
 * Shading: a base colour from the hit normal (its squared components weight three colours, so floors,
 * x-facing and z-facing walls differ), lit by a headlight and by a sun whose shadow is one more ray per
 * pixel (px_mesh_ray_cast_any), with world-space grid lines on every face to show the scale and dark
 * outlines where the depth jumps or the surface folds; misses get a dark gradient. */
#define _POSIX_C_SOURCE 200809L

#include "render.h"
#include "demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RENDER_DEFAULT_WIDTH 800
#define RENDER_DEFAULT_HEIGHT 600
#define RENDER_MAX_THREADS 256
#define RENDER_FOV_Y_DEGREES 40.0f /* vertical field of view of the iso view */
#define RENDER_FILL 0.92f          /* the framed box takes at most this part of the picture */
#define RENDER_GRID_LINES 24.0f    /* about this many grid lines across the largest extent */
#define RENDER_SHADE_RANGE 512     /* pixels per shading task, at least */

static const float render_pi = 3.14159265358979f;

/* ---------------------------------------------------------------------------------------------------- */
/* Small vector helpers (the tool works on plain float[3]) */

static float dot3(const float* a, const float* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross3(const float* a, const float* b, float* dest)
{
    float x = a[1] * b[2] - a[2] * b[1];
    float y = a[2] * b[0] - a[0] * b[2];
    float z = a[0] * b[1] - a[1] * b[0];
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}

static void normalize3(float* v)
{
    float len = sqrtf(dot3(v, v));
    if (len > 0.0f)
    {
        v[0] /= len;
        v[1] /= len;
        v[2] /= len;
    }
}

static void set3(float* dest, float x, float y, float z)
{
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}

static float clamp01(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Camera */

const char* render_view_name(render_view view)
{
    switch (view)
    {
    case RENDER_VIEW_ISO:
        return "iso";
    case RENDER_VIEW_TOP:
        return "top";
    case RENDER_VIEW_FRONT:
        return "front";
    }
    return "?";
}

bool render_parse_view(const char* text, render_view* view)
{
    const render_view views[3] = { RENDER_VIEW_ISO, RENDER_VIEW_TOP, RENDER_VIEW_FRONT };
    for (int i = 0; i < 3; ++i)
    {
        if (strcmp(text, render_view_name(views[i])) == 0)
        {
            *view = views[i];
            return true;
        }
    }
    return false;
}

/* Fit half extents (hw, hh) to the picture's aspect ratio by growing the smaller one. */
static void fit_aspect(float* hw, float* hh, int width, int height)
{
    float aspect = (float)width / (float)height;
    if (*hw < *hh * aspect)
    {
        *hw = *hh * aspect;
    }
    else
    {
        *hh = *hw / aspect;
    }
}

/* Point i of what the camera frames, relative to target: vertex i, or corner i of the box [lo, hi]. */
static void frame_point(const float* points, int point_count, const float* lo, const float* hi, int i,
                        const float* target, float* v)
{
    for (int k = 0; k < 3; ++k)
    {
        float p = point_count > 0 ? points[3 * i + k] : ((i >> k) & 1) ? hi[k] : lo[k];
        v[k] = p - target[k];
    }
}

render_camera render_frame(const px_aabb* bounds, const float* points, int point_count, render_view view,
                           int width, int height)
{
    render_camera c;
    memset(&c, 0, sizeof(c));
    c.width = width;
    c.height = height;

    /* a box with some size in every direction, so a flat mesh or a single point is still framed */
    float lo[3], hi[3], centre[3], largest = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        largest = fmaxf(largest, bounds->max[k] - bounds->min[k]);
    }
    float pad = largest > 0.0f ? 0.005f * largest : 0.5f;
    for (int k = 0; k < 3; ++k)
    {
        lo[k] = bounds->min[k] - pad;
        hi[k] = bounds->max[k] + pad;
        centre[k] = 0.5f * (lo[k] + hi[k]);
    }
    float size = sqrtf((hi[0] - lo[0]) * (hi[0] - lo[0]) + (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                       (hi[2] - lo[2]) * (hi[2] - lo[2]));

    if (view == RENDER_VIEW_TOP || view == RENDER_VIEW_FRONT)
    {
        c.orthographic = true;
        bool top = view == RENDER_VIEW_TOP;
        if (top)
        {
            set3(c.forward, 0.0f, -1.0f, 0.0f);
            set3(c.up, 0.0f, 0.0f, -1.0f);
        }
        else
        {
            set3(c.forward, 0.0f, 0.0f, -1.0f);
            set3(c.up, 0.0f, 1.0f, 0.0f);
        }
        cross3(c.forward, c.up, c.right);
        /* the rays start a little outside the box, on its side that faces the camera */
        memcpy(c.eye, centre, sizeof(c.eye));
        c.eye[top ? 1 : 2] = (top ? hi[1] : hi[2]) + 0.05f * size;
        c.half_width = 0.5f * (hi[0] - lo[0]) / RENDER_FILL;
        c.half_height = 0.5f * (top ? hi[2] - lo[2] : hi[1] - lo[1]) / RENDER_FILL;
        fit_aspect(&c.half_width, &c.half_height, width, height);
        return c;
    }

    /* iso: look down at the centre from azimuth 35 degrees (from +z towards +x) and elevation 35 degrees */
    const float azimuth = 35.0f * render_pi / 180.0f, elevation = 35.0f * render_pi / 180.0f;
    set3(c.forward, -cosf(elevation) * sinf(azimuth), -sinf(elevation), -cosf(elevation) * cosf(azimuth));
    const float world_up[3] = { 0.0f, 1.0f, 0.0f };
    cross3(c.forward, world_up, c.right);
    normalize3(c.right);
    cross3(c.right, c.forward, c.up);
    c.half_height = tanf(0.5f * RENDER_FOV_Y_DEGREES * render_pi / 180.0f);
    c.half_width = c.half_height * (float)width / (float)height;

    /* The eye at distance d behind the target: a point at (x, y) on the image axes and z along forward
     * from the target is inside the picture when |x| <= (d + z) * half_width, and the same for y. Fit d
     * to the mesh's vertices (or the box's corners), then move the target sideways so that their picture
     * is centred, and fit again. */
    float target[3] = { centre[0], centre[1], centre[2] };
    float distance = 0.0f;
    for (int pass = 0; pass < 3; ++pass)
    {
        distance = 0.0f;
        int n = point_count > 0 ? point_count : 8;
        for (int i = 0; i < n; ++i)
        {
            float v[3];
            frame_point(points, point_count, lo, hi, i, target, v);
            float x = fabsf(dot3(v, c.right)) / (c.half_width * RENDER_FILL);
            float y = fabsf(dot3(v, c.up)) / (c.half_height * RENDER_FILL);
            distance = fmaxf(distance, fmaxf(x, y) - dot3(v, c.forward));
        }
        distance += 1e-3f * size;
        if (pass == 2)
        {
            break;
        }
        float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
        for (int i = 0; i < n; ++i)
        {
            float v[3];
            frame_point(points, point_count, lo, hi, i, target, v);
            float depth = distance + dot3(v, c.forward);
            float x = dot3(v, c.right) / depth, y = dot3(v, c.up) / depth;
            x0 = fminf(x0, x);
            x1 = fmaxf(x1, x);
            y0 = fminf(y0, y);
            y1 = fmaxf(y1, y);
        }
        float shift_x = 0.5f * (x0 + x1) * distance, shift_y = 0.5f * (y0 + y1) * distance;
        for (int k = 0; k < 3; ++k)
        {
            target[k] += shift_x * c.right[k] + shift_y * c.up[k];
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        c.eye[k] = target[k] - distance * c.forward[k];
    }
    return c;
}

void render_primary_ray(const render_camera* camera, int x, int y, px_ray* ray)
{
    float sx = (2.0f * ((float)x + 0.5f) / (float)camera->width - 1.0f) * camera->half_width;
    float sy = (1.0f - 2.0f * ((float)y + 0.5f) / (float)camera->height) * camera->half_height;
    for (int k = 0; k < 3; ++k)
    {
        if (camera->orthographic)
        {
            ray->origin[k] = camera->eye[k] + sx * camera->right[k] + sy * camera->up[k];
            ray->direction[k] = camera->forward[k];
        }
        else
        {
            ray->origin[k] = camera->eye[k];
            ray->direction[k] = camera->forward[k] + sx * camera->right[k] + sy * camera->up[k];
        }
    }
    normalize3(ray->direction);
    ray->max_t = INFINITY;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Shading */

typedef struct shade_job
{
    const px_mesh* mesh;
    const render_camera* camera;
    const px_ray* rays;
    const px_ray_hit* hits;
    cli_image* image;
    float sun[3];       /* unit direction towards the sun */
    float grid_step;    /* world units between grid lines */
    float shadow_max_t; /* longer than any path through the bounds */
    float size;         /* diagonal of the bounds */
} shade_job;

/* A round grid spacing (1, 2 or 5 times a power of ten) of about size / RENDER_GRID_LINES. */
static float grid_step(float size)
{
    float raw = size / RENDER_GRID_LINES;
    if (!(raw > 0.0f) || !isfinite(raw))
    {
        return 1.0f;
    }
    float decade = powf(10.0f, floorf(log10f(raw)));
    float m = raw / decade;
    return decade * (m < 1.5f ? 1.0f : m < 3.5f ? 2.0f : m < 7.5f ? 5.0f : 10.0f);
}

/* How dark the grid lines make this hit, in [0, 1): anti-aliased lines about a pixel wide on the two axes
 * that lie most in the face's plane, faded out where they would be closer than a few pixels. pixel is the
 * size of a pixel at the hit [Units: length]. */
static float grid_darkening(const shade_job* job, const px_ray_hit* hit, float pixel)
{
    float step = job->grid_step;
    if (!(pixel > 0.0f))
    {
        return 0.0f;
    }
    float fade = clamp01((step / pixel - 4.0f) / 8.0f);
    if (fade <= 0.0f)
    {
        return 0.0f;
    }
    int skip = 0;
    for (int k = 1; k < 3; ++k)
    {
        skip = fabsf(hit->normal[k]) > fabsf(hit->normal[skip]) ? k : skip;
    }
    float coverage = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        if (k == skip)
        {
            continue;
        }
        float f = hit->point[k] / step;
        float d = fabsf(f - roundf(f)) * step;
        coverage = fmaxf(coverage, clamp01(1.0f - d / pixel));
    }
    return 0.28f * coverage * fade;
}

/* Whether pixel i = (x, y) lies on an outline: the rim of the mesh against the background, the near side of
 * a jump in depth (a neighbour's hit is off this pixel's plane by more than two pixels and farther away),
 * or a crease (the normal turns by more than about 30 degrees towards the right or lower neighbour). */
static bool on_outline(const shade_job* job, int i, int x, int y, float pixel)
{
    const px_ray_hit* hit = &job->hits[i];
    int width = job->camera->width, height = job->camera->height;
    const int dx[4] = { 1, 0, -1, 0 }, dy[4] = { 0, 1, 0, -1 };
    for (int k = 0; k < 4; ++k)
    {
        int nx = x + dx[k], ny = y + dy[k];
        if (nx < 0 || ny < 0 || nx >= width || ny >= height)
        {
            continue;
        }
        const px_ray_hit* other = &job->hits[ny * width + nx];
        if (!other->hit)
        {
            return true;
        }
        float d[3] = { other->point[0] - hit->point[0], other->point[1] - hit->point[1],
                       other->point[2] - hit->point[2] };
        if (fabsf(dot3(d, hit->normal)) > 2.0f * pixel && other->t > hit->t)
        {
            return true;
        }
        if (k < 2 && dot3(hit->normal, other->normal) < 0.85f)
        {
            return true;
        }
    }
    return false;
}

static cli_rgb to_rgb(float r, float g, float b)
{
    return (cli_rgb){ (uint8_t)lroundf(255.0f * clamp01(r)), (uint8_t)lroundf(255.0f * clamp01(g)),
                      (uint8_t)lroundf(255.0f * clamp01(b)) };
}

static cli_rgb shade_pixel(const shade_job* job, int i, int x, int y)
{
    const px_ray_hit* hit = &job->hits[i];
    if (!hit->hit)
    {
        float s = (float)y / (float)job->camera->height;
        return to_rgb(0.13f + 0.15f * s, 0.15f + 0.17f * s, 0.20f + 0.19f * s);
    }
    const float* n = hit->normal;
    /* squared normal components weight a terracotta (x), a sand (y) and a blue (z) */
    float nx = n[0] * n[0], ny = n[1] * n[1], nz = n[2] * n[2];
    float base[3] = { 0.86f * nx + 0.82f * ny + 0.48f * nz, 0.52f * nx + 0.78f * ny + 0.62f * nz,
                      0.42f * nx + 0.60f * ny + 0.84f * nz };

    float headlight = fmaxf(0.0f, -dot3(n, job->rays[i].direction));
    float sun = fmaxf(0.0f, dot3(n, job->sun));
    if (sun > 0.0f)
    {
        /* start the shadow ray off the surface by a little more than the float spacing at the hit */
        float reach = fmaxf(fabsf(hit->point[0]), fmaxf(fabsf(hit->point[1]), fabsf(hit->point[2])));
        float offset = 2e-4f * job->size + 4e-7f * reach;
        px_ray shadow;
        for (int k = 0; k < 3; ++k)
        {
            shadow.origin[k] = hit->point[k] + offset * n[k];
            shadow.direction[k] = job->sun[k];
        }
        shadow.max_t = job->shadow_max_t;
        bool blocked = false;
        if (px_mesh_ray_cast_any(job->mesh, &shadow, &blocked) == PX_OK && blocked)
        {
            sun = 0.0f;
        }
    }
    const render_camera* c = job->camera;
    float pixel = 2.0f * c->half_height / (float)c->height * (c->orthographic ? 1.0f : hit->t);
    float light = (0.20f + 0.32f * headlight + 0.60f * sun) * (1.0f - grid_darkening(job, hit, pixel));
    if (on_outline(job, i, x, y, pixel))
    {
        light *= 0.55f;
    }
    return to_rgb(base[0] * light, base[1] * light, base[2] * light);
}

static void shade_range(int begin, int end, int worker, void* context)
{
    (void)worker;
    shade_job* job = context;
    int width = job->image->width;
    for (int i = begin; i < end; ++i)
    {
        int y = i / width;
        cli_image_set(job->image, i - y * width, y, shade_pixel(job, i, i - y * width, y));
    }
}

/* Run task over count items on tasks (NULL or without enqueue: on this thread), as the library does. */
static void run_tasks(const px_task_system* tasks, px_task_fn* task, int count, int min_range, void* context)
{
    if (tasks == NULL || tasks->enqueue == NULL)
    {
        task(0, count, 0, context);
        return;
    }
    void* handle = tasks->enqueue(task, count, min_range, context, tasks->user_context);
    if (handle != NULL)
    {
        tasks->finish(handle, tasks->user_context);
    }
}

static bool same_hit(const px_ray_hit* a, const px_ray_hit* b)
{
    return a->hit == b->hit && a->t == b->t && a->triangle == b->triangle && a->u == b->u && a->v == b->v &&
           memcmp(a->point, b->point, sizeof(a->point)) == 0 &&
           memcmp(a->normal, b->normal, sizeof(a->normal)) == 0;
}

static void draw_caption(cli_image* image, const char* caption)
{
    int scale = image->width >= 640 ? 2 : 1;
    int width = cli_image_text(image, -100000, -100000, scale, caption, (cli_rgb){ 0, 0, 0 });
    if (width == 0)
    {
        return; /* built without the font */
    }
    int line = 9 * scale, x = 6 * scale, y = image->height - line - 8 * scale;
    for (int py = y - 4 * scale; py < image->height - 2 * scale; ++py)
    {
        for (int px = x - 4 * scale; px < x + width + 4 * scale; ++px)
        {
            cli_image_blend(image, px, py, (cli_rgb){ 12, 14, 20 }, 0.6f);
        }
    }
    cli_image_text(image, x, y, scale, caption, (cli_rgb){ 236, 236, 236 });
}

int render_mesh(const px_mesh* mesh, render_view view, int width, int height, const px_task_system* tasks,
                bool time_single, const char* caption, cli_image* image, render_result* result)
{
    memset(result, 0, sizeof(*result));
    memset(image, 0, sizeof(*image));
    if (px_mesh_triangle_count(mesh) == 0)
    {
        return cli_fail("the mesh has no triangles to render");
    }
    px_aabb bounds = px_mesh_bounds(mesh);
    /* px_mesh_ray_cast misses triangles farther than about 1e12 from the ray's origin (mesh.h: its products
     * of three coordinates overflow), and the camera's framing overflows later: such meshes get this reason,
     * not a blank picture or "NaN or infinity in the input" (reviews 52, 54) */
    const float limit = 1.0e11f;
    for (int k = 0; k < 3; ++k)
    {
        if (!(fabsf(bounds.min[k]) <= limit && fabsf(bounds.max[k]) <= limit))
        {
            return cli_fail("the mesh reaches coordinates beyond %g, too far out to frame a picture", (double)limit);
        }
    }
    render_camera camera =
        render_frame(&bounds, px_mesh_vertices(mesh), px_mesh_vertex_count(mesh), view, width, height);
    result->camera = camera;
    result->workers = tasks != NULL && tasks->enqueue != NULL ? tasks->worker_count : 1;
    result->identical = true;

    int count = width * height;
    px_ray* rays = malloc((size_t)count * sizeof(px_ray));
    px_ray_hit* hits = malloc((size_t)count * sizeof(px_ray_hit));
    px_ray_hit* single = time_single ? malloc((size_t)count * sizeof(px_ray_hit)) : NULL;
    if (rays == NULL || hits == NULL || (time_single && single == NULL) ||
        !cli_image_create(image, width, height))
    {
        free(rays);
        free(hits);
        free(single);
        return cli_fail("out of memory for a %d x %d picture", width, height);
    }
    for (int y = 0; y < height; ++y)
    {
        for (int x = 0; x < width; ++x)
        {
            int i = y * width + x;
            render_primary_ray(&camera, x, y, &rays[i]);
            /* touch the hits' pages now, so that neither timing pays for their first use */
            hits[i].hit = false;
            if (single != NULL)
            {
                single[i].hit = false;
            }
        }
    }
    result->ray_count = count;

    px_status status = PX_OK;
    if (time_single)
    {
        double t0 = demo_now_ns();
        for (int i = 0; i < count; ++i)
        {
            px_status s = px_mesh_ray_cast(mesh, &rays[i], &single[i]);
            status = status == PX_OK ? s : status;
        }
        result->single_ns = demo_now_ns() - t0;
    }
    double t1 = demo_now_ns();
    px_status batch_status = px_mesh_ray_cast_batch(mesh, rays, count, hits, tasks);
    result->batch_ns = demo_now_ns() - t1;
    status = status == PX_OK ? batch_status : status;
    for (int i = 0; i < count; ++i)
    {
        result->hit_count += hits[i].hit ? 1 : 0;
        if (time_single && result->identical && !same_hit(&hits[i], &single[i]))
        {
            result->identical = false;
        }
    }
    free(single);
    if (PX_FAILED(status))
    {
        free(rays);
        free(hits);
        cli_image_destroy(image);
        return cli_fail("a primary ray failed: %s", px_status_string(status));
    }

    shade_job job;
    memset(&job, 0, sizeof(job));
    job.mesh = mesh;
    job.camera = &camera;
    job.rays = rays;
    job.hits = hits;
    job.image = image;
    set3(job.sun, -0.45f, 0.85f, 0.30f);
    normalize3(job.sun);
    float diagonal[3] = { bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1],
                          bounds.max[2] - bounds.min[2] };
    job.size = sqrtf(dot3(diagonal, diagonal));
    job.grid_step = grid_step(fmaxf(diagonal[0], fmaxf(diagonal[1], diagonal[2])));
    job.shadow_max_t = 2.0f * job.size + 1.0f;
    double t2 = demo_now_ns();
    run_tasks(tasks, shade_range, count, RENDER_SHADE_RANGE, &job);
    result->shade_ns = demo_now_ns() - t2;
    if (caption != NULL)
    {
        draw_caption(image, caption);
    }
    free(rays);
    free(hits);
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Reports */

double render_mega_per_second(double count, double ns)
{
    return ns > 0.0 ? count / ns * 1e3 : 0.0;
}

static void format_bytes(size_t bytes, char* text, size_t size)
{
    if (bytes >= (size_t)1 << 20)
    {
        snprintf(text, size, "%.2f MiB", (double)bytes / (1024.0 * 1024.0));
    }
    else
    {
        snprintf(text, size, "%.1f KiB", (double)bytes / 1024.0);
    }
}

void render_print_mesh(const px_mesh* mesh, double build_ns, const char* indent)
{
    px_mesh_stats stats = px_mesh_get_stats(mesh);
    px_aabb b = px_mesh_bounds(mesh);
    char memory[32];
    format_bytes(stats.memory_bytes, memory, sizeof(memory));
    printf("%striangles  %d (%d vertices)\n", indent, px_mesh_triangle_count(mesh),
           px_mesh_vertex_count(mesh));
    if (px_mesh_triangle_count(mesh) > 0)
    {
        printf("%sbounds     (%.3f, %.3f, %.3f) to (%.3f, %.3f, %.3f)\n", indent, (double)b.min[0],
               (double)b.min[1], (double)b.min[2], (double)b.max[0], (double)b.max[1], (double)b.max[2]);
    }
    printf("%sbvh        built in %.2f ms: %d nodes, %d leaves, depth %d, SAH cost %.2f, %s\n", indent,
           build_ns * 1e-6, stats.node_count, stats.leaf_count, stats.depth, (double)stats.sah_cost, memory);
}

void render_print_result(const render_result* r, const char* indent)
{
    const render_camera* c = &r->camera;
    printf("%scamera     %s, %d x %d, eye (%.2f, %.2f, %.2f), looking (%.3f, %.3f, %.3f)\n", indent,
           c->orthographic ? "orthographic" : "perspective", c->width, c->height, (double)c->eye[0],
           (double)c->eye[1], (double)c->eye[2], (double)c->forward[0], (double)c->forward[1],
           (double)c->forward[2]);
    printf("%srays       %d primary rays, one per pixel\n", indent, r->ray_count);
    if (r->single_ns > 0.0)
    {
        printf("%s  one thread          %8.1f ms  %7.2f M rays/s  (px_mesh_ray_cast)\n", indent,
               r->single_ns * 1e-6, render_mega_per_second(r->ray_count, r->single_ns));
    }
    char label[32];
    snprintf(label, sizeof(label), "batch, %d worker%s", r->workers, r->workers == 1 ? "" : "s");
    printf("%s  %-18s  %8.1f ms  %7.2f M rays/s  (px_mesh_ray_cast_batch", indent, label, r->batch_ns * 1e-6,
           render_mega_per_second(r->ray_count, r->batch_ns));
    if (r->single_ns > 0.0 && r->batch_ns > 0.0)
    {
        printf(", %.2fx; %s", r->single_ns / r->batch_ns, r->identical ? "same hits" : "HITS DIFFER");
    }
    printf(")\n");
    printf("%shits       %d of %d (%.1f %%)\n", indent, r->hit_count, r->ray_count,
           r->ray_count > 0 ? 100.0 * r->hit_count / r->ray_count : 0.0);
    printf("%sshading    %.1f ms (normal tint, headlight, sun with a shadow ray per lit pixel)\n", indent,
           r->shade_ns * 1e-6);
}

/* ---------------------------------------------------------------------------------------------------- */
/* proxima render */

typedef struct render_args
{
    const char* mesh_path;
    const char* png_path;
    int width, height, threads;
    render_view view;
} render_args;

/* Returns CLI_EXIT_OK, the CLI_EXIT_USAGE of a printed usage error, or -1 after printing the help. */
static int parse_render_args(int argc, char** argv, render_args* a)
{
    memset(a, 0, sizeof(*a));
    a->width = RENDER_DEFAULT_WIDTH;
    a->height = RENDER_DEFAULT_HEIGHT;
    a->view = RENDER_VIEW_ISO;
    for (int i = 0; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cli_is_help(arg))
        {
            cli_print_usage(stdout);
            return -1;
        }
        bool is_png = strcmp(arg, "--png") == 0, is_width = strcmp(arg, "--width") == 0,
             is_height = strcmp(arg, "--height") == 0, is_threads = strcmp(arg, "--threads") == 0,
             is_view = strcmp(arg, "--view") == 0;
        const bool is_option = is_png || is_width || is_height || is_threads || is_view;
        const char* value;
        const int rc = cli_option_or_mesh("render", is_option, argc, argv, &i, &a->mesh_path, &value);
        if (rc != CLI_EXIT_OK)
        {
            return rc;
        }
        if (value == NULL)
        {
            continue; /* the OBJ file */
        }
        if (is_png)
        {
            a->png_path = value;
        }
        else if (is_view)
        {
            if (!render_parse_view(value, &a->view))
            {
                return cli_usage_error("render: --view must be iso, top or front, not '%s'", value);
            }
        }
        else
        {
            int lo = is_threads ? 0 : RENDER_MIN_SIZE, hi = is_threads ? RENDER_MAX_THREADS : RENDER_MAX_SIZE;
            int* dest = is_width ? &a->width : is_height ? &a->height : &a->threads;
            if (!cli_parse_int(value, lo, hi, dest))
            {
                return cli_usage_error("render: %s must be a whole number from %d to %d, not '%s'", arg, lo,
                                       hi, value);
            }
        }
    }
    if (a->mesh_path == NULL)
    {
        return cli_usage_error("render: expected an OBJ file");
    }
    if (a->png_path == NULL)
    {
        return cli_usage_error("render: --png FILE is required (where to write the picture)");
    }
    return CLI_EXIT_OK;
}

/* The path to write: the given one, or, when the tool writes PPM (built without stb), the same with a .ppm
 * extension in place of a .png one. */
static void picture_path(const char* requested, char* path, size_t size)
{
    snprintf(path, size, "%s", requested);
    size_t n = strlen(path);
    if (strcmp(cli_image_extension(), "png") != 0 && n >= 4 && strcmp(path + n - 4, ".png") == 0)
    {
        snprintf(path + n - 4, size - (n - 4), ".%s", cli_image_extension());
    }
}

int cli_render(int argc, char** argv)
{
    render_args args;
    int rc = parse_render_args(argc, argv, &args);
    if (rc != CLI_EXIT_OK)
    {
        return rc < 0 ? CLI_EXIT_OK : rc;
    }

    double t0 = demo_now_ns();
    px_obj_data obj;
    px_obj_error error;
    px_status status = px_obj_load(args.mesh_path, NULL, &obj, &error);
    if (status != PX_OK)
    {
        return cli_fail("%s: %s", args.mesh_path,
                        error.message[0] != '\0' ? error.message : px_status_string(status));
    }
    double t1 = demo_now_ns();
    printf("mesh       %s: read in %.1f ms\n", args.mesh_path, (t1 - t0) * 1e-6);
    fflush(stdout);
    if (obj.triangle_count == 0)
    {
        px_obj_free(&obj);
        return cli_fail("%s: the file has no triangles ('f' lines)", args.mesh_path);
    }
    px_mesh* mesh = NULL;
    status = px_mesh_create(obj.vertices, obj.vertex_count, obj.indices, obj.triangle_count, NULL, &mesh);
    double build_ns = demo_now_ns() - t1;
    px_obj_free(&obj);
    if (status != PX_OK)
    {
        return cli_fail("%s: cannot build the mesh: %s", args.mesh_path, px_status_string(status));
    }
    render_print_mesh(mesh, build_ns, "");
    fflush(stdout);

    px_thread_pool* pool = NULL;
    status = px_thread_pool_create(args.threads, NULL, &pool);
    if (status != PX_OK)
    {
        px_mesh_destroy(mesh);
        return cli_fail("cannot start %d threads: %s", args.threads, px_status_string(status));
    }
    px_task_system tasks = px_thread_pool_task_system(pool);

    const char* base = strrchr(args.mesh_path, '/');
    base = base != NULL ? base + 1 : args.mesh_path;
    char caption[160];
    snprintf(caption, sizeof(caption), "%.80s  %d triangles  %s view", base, px_mesh_triangle_count(mesh),
             render_view_name(args.view));
    cli_image image;
    render_result result;
    rc = render_mesh(mesh, args.view, args.width, args.height, &tasks, true, caption, &image, &result);
    px_thread_pool_destroy(pool);
    px_mesh_destroy(mesh);
    if (rc != CLI_EXIT_OK)
    {
        return rc;
    }
    render_print_result(&result, "");

    char path[4096], message[4200];
    picture_path(args.png_path, path, sizeof(path));
    bool written = cli_image_write(&image, path, message, sizeof(message));
    cli_image_destroy(&image);
    if (!written)
    {
        return cli_fail("%s", message);
    }
    printf("wrote      %s (%d x %d)\n", path, args.width, args.height);
    if (!result.identical)
    {
        return cli_fail("the batch's hits differ from the single-thread hits");
    }
    return CLI_EXIT_OK;
}
