/* The picture of `proxima demo`: a top view of the distance field on the plane y = DEMO_SLICE_Y.
 *
 * At each pixel: the distance from a point shape to the nearest body (px_gjk_distance_world), coloured on a
 * viridis scale with alternating bands and contour lines; the bodies' cross-sections (distance 0) in warm
 * colours with a dark outline; the closest-point segment of every pair; names and a legend. The floor is
 * left out: at that height its distance would be DEMO_SLICE_Y everywhere.
 *
 * The naive field needs one GJK query per pixel and body (~3.5 million). Two lower bounds skip most of
 * them: the distance to a body's bounding box, and the last exact distance to that body minus how far the
 * pixel moved since (a distance field is 1-Lipschitz). Bodies are visited in increasing bound order and
 * the scan stops once no bound can beat the current minimum, which leaves about one query per pixel. */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEMO_MAP_SIZE 512 /* map width, and largest height [pixels] */
#define DEMO_MAP_MIN_HEIGHT 320
#define DEMO_LEGEND_HEIGHT 72 /* strip under the map [pixels] */

typedef struct demo_view
{
    float x0, z0;      /* world coordinates of the map's top-left corner */
    float pixel;       /* world units per pixel */
    int width, height; /* map size [pixels]: DEMO_MAP_SIZE wide, as tall as the scene's depth needs */
} demo_view;

static demo_view make_view(const demo_scene* scene)
{
    float x0 = 1e30f, x1 = -1e30f, z0 = 1e30f, z1 = -1e30f;
    for (int i = 0; i < scene->count; ++i)
    {
        if (scene->bodies[i].in_map)
        {
            x0 = fminf(x0, scene->bodies[i].box.min[0]);
            x1 = fmaxf(x1, scene->bodies[i].box.max[0]);
            z0 = fminf(z0, scene->bodies[i].box.min[2]);
            z1 = fmaxf(z1, scene->bodies[i].box.max[2]);
        }
    }
    const float margin = 0.8f;
    float span_x = x1 - x0 + 2.0f * margin, span_z = z1 - z0 + 2.0f * margin;
    demo_view v;
    v.width = DEMO_MAP_SIZE;
    v.pixel = fmaxf(span_x, span_z) / (float)DEMO_MAP_SIZE;
    v.height = (int)ceilf(span_z / v.pixel);
    v.height = v.height < DEMO_MAP_MIN_HEIGHT ? DEMO_MAP_MIN_HEIGHT
               : v.height > DEMO_MAP_SIZE     ? DEMO_MAP_SIZE
                                              : v.height;
    v.x0 = 0.5f * (x0 + x1) - 0.5f * v.pixel * (float)v.width;
    v.z0 = 0.5f * (z0 + z1) - 0.5f * v.pixel * (float)v.height;
    return v;
}

static float aabb_distance(const px_aabb* box, const vec3 p)
{
    float d2 = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        float e = fmaxf(box->min[k] - p[k], fmaxf(0.0f, p[k] - box->max[k]));
        d2 += e * e;
    }
    return sqrtf(d2);
}

/* The field: distance from each pixel centre (on y = DEMO_SLICE_Y) to the nearest map body, and which
 * body that is. Returns the number of GJK queries, or -1 on a query error (printed). */
static long compute_field(const demo_scene* scene, const demo_view* view, float* field, int8_t* nearest)
{
    px_shape point = px_shape_point();
    float last_d[DEMO_MAX_BODIES];
    vec3 last_p[DEMO_MAX_BODIES];
    int order[DEMO_MAX_BODIES];
    float bound[DEMO_MAX_BODIES];
    for (int i = 0; i < scene->count; ++i)
    {
        last_d[i] = 0.0f;
        memset(last_p[i], 0, sizeof(vec3));
    }
    long queries = 0;
    for (int y = 0; y < view->height; ++y)
    {
        for (int x = 0; x < view->width; ++x)
        {
            px_transform at = PX_TRANSFORM_IDENTITY_INIT;
            at.p[0] = view->x0 + ((float)x + 0.5f) * view->pixel;
            at.p[1] = DEMO_SLICE_Y;
            at.p[2] = view->z0 + ((float)y + 0.5f) * view->pixel;
            /* lower bounds for each body, sorted ascending (insertion sort of at most 16) */
            int n = 0;
            for (int i = 0; i < scene->count; ++i)
            {
                if (!scene->bodies[i].in_map)
                {
                    continue;
                }
                float dx = at.p[0] - last_p[i][0], dy = at.p[1] - last_p[i][1], dz = at.p[2] - last_p[i][2];
                float lipschitz = last_d[i] - sqrtf(dx * dx + dy * dy + dz * dz);
                float b = fmaxf(aabb_distance(&scene->bodies[i].box, at.p), lipschitz);
                int j = n++;
                while (j > 0 && bound[j - 1] > b)
                {
                    bound[j] = bound[j - 1];
                    order[j] = order[j - 1];
                    --j;
                }
                bound[j] = b;
                order[j] = i;
            }
            float best = INFINITY;
            int best_body = -1;
            for (int k = 0; k < n && bound[k] < best; ++k)
            {
                const demo_body* body = &scene->bodies[order[k]];
                px_gjk_result r;
                px_status s = px_gjk_distance_world(&point, &at, &body->shape, &body->pose, NULL, &r);
                ++queries;
                if (PX_FAILED(s))
                {
                    cli_fail("distance field: query against '%s' failed: %s", body->name,
                             px_status_string(s));
                    return -1;
                }
                /* GJK's distance is accurate to a relative tolerance; shave it slightly so the bound stays
                 * a true lower bound */
                last_d[order[k]] = r.distance * (1.0f - 1e-4f);
                memcpy(last_p[order[k]], at.p, sizeof(vec3));
                if (r.distance < best)
                {
                    best = r.distance;
                    best_body = order[k];
                }
            }
            field[y * view->width + x] = best;
            nearest[y * view->width + x] = (int8_t)best_body;
        }
    }
    return queries;
}

/* Position of distance d on the colour scale: a square root spends more colours near the shapes, where
 * the field is interesting, than in the far corners. */
static float scale_position(float d, float d_max)
{
    return sqrtf(fminf(fmaxf(d / d_max, 0.0f), 1.0f));
}

/* Viridis, from its five quartile colours, interpolated linearly. t in [0, 1]. */
static cli_rgb colormap(float t)
{
    static const float stops[5][3] = {
        { 68, 1, 84 }, { 59, 82, 139 }, { 33, 145, 140 }, { 94, 201, 98 }, { 253, 231, 37 }
    };
    t = fminf(fmaxf(t, 0.0f), 1.0f) * 4.0f;
    int i = t >= 4.0f ? 3 : (int)t;
    float f = t - (float)i;
    cli_rgb c;
    c.r = (uint8_t)lroundf(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f);
    c.g = (uint8_t)lroundf(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f);
    c.b = (uint8_t)lroundf(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f);
    return c;
}

static cli_rgb shade(cli_rgb c, float factor)
{
    cli_rgb s = { (uint8_t)lroundf((float)c.r * factor), (uint8_t)lroundf((float)c.g * factor),
                  (uint8_t)lroundf((float)c.b * factor) };
    return s;
}

/* A contour spacing giving about 8 to 16 lines up to d_max: 0.1, 0.25, 0.5, 1, 2.5, 5, ... */
static float contour_step(float d_max)
{
    static const float steps[] = { 0.1f, 0.25f, 0.5f, 1.0f, 2.5f, 5.0f, 10.0f, 25.0f, 50.0f, 100.0f };
    for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); ++i)
    {
        if (d_max / steps[i] <= 16.0f)
        {
            return steps[i];
        }
    }
    return 100.0f;
}

static const cli_rgb shape_colors[3] = { { 236, 96, 82 }, { 240, 132, 74 }, { 222, 84, 118 } };
static const cli_rgb white = { 255, 255, 255 };
static const cli_rgb ink = { 20, 16, 24 };

static void project(const demo_view* view, const vec3 p, float* px, float* py)
{
    *px = (p[0] - view->x0) / view->pixel;
    *py = (p[2] - view->z0) / view->pixel;
}

static void text_with_shadow(cli_image* image, int x, int y, const char* text, cli_rgb color)
{
    cli_image_text(image, x + 1, y + 1, 1, text, ink);
    cli_image_text(image, x, y, 1, text, color);
}

static void draw_field(cli_image* image, const float* field, const int8_t* nearest, const demo_view* view,
                       float d_max, float step)
{
    const float px = view->pixel;
    for (int y = 0; y < view->height; ++y)
    {
        for (int x = 0; x < view->width; ++x)
        {
            float d = field[y * view->width + x];
            cli_rgb c;
            if (d <= 0.0f)
            {
                c = shape_colors[nearest[y * view->width + x] % 3];
            }
            else
            {
                /* bands alternate in brightness; thin contour lines at each step, darker every 4th.
                 * |grad d| = 1 in the plane at most, so d / px is a distance in pixels */
                int band = (int)(d / step);
                c = shade(colormap(scale_position(d, d_max)), (band & 1) ? 0.93f : 1.0f);
                float level = roundf(d / step);
                float off_px = fabsf(d - level * step) / px;
                bool major = ((long)level % 4) == 0;
                float coverage = (major ? 1.1f : 0.8f) - off_px;
                if (coverage > 0.0f && level > 0.0f)
                {
                    c = shade(c, 1.0f - (major ? 0.55f : 0.3f) * fminf(coverage, 1.0f));
                }
                /* dark outline just outside each cross-section, anti-aliased by the distance itself */
                float outline = 1.6f - d / px;
                if (outline > 0.0f)
                {
                    float a = fminf(outline, 1.0f);
                    c.r = (uint8_t)lroundf((float)c.r + ((float)ink.r - (float)c.r) * a);
                    c.g = (uint8_t)lroundf((float)c.g + ((float)ink.g - (float)c.g) * a);
                    c.b = (uint8_t)lroundf((float)c.b + ((float)ink.b - (float)c.b) * a);
                }
            }
            cli_image_set(image, x, y, c);
        }
    }
}

/* Every pair's closest-point segment. Long segments fade (full opacity up to 8% of the map width, faint
 * beyond 40%) so the near pairs, the interesting ones, stay readable among ~80 lines. */
static void draw_segments(cli_image* image, const demo_scene* scene, const demo_pair* pairs, int count,
                          const demo_view* view)
{
    const float width = view->pixel * (float)view->width;
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < count; ++i)
        {
            const demo_pair* p = &pairs[i];
            if (!scene->bodies[p->a].in_map || !scene->bodies[p->b].in_map || PX_FAILED(p->status) ||
                !(p->result.distance > 0.0f))
            {
                continue;
            }
            float ax, ay, bx, by;
            project(view, p->result.point_a, &ax, &ay);
            project(view, p->result.point_b, &bx, &by);
            float fade = (p->result.distance / width - 0.08f) / (0.40f - 0.08f);
            float alpha = 1.0f - 0.88f * fminf(fmaxf(fade, 0.0f), 1.0f);
            if (pass == 0)
            {
                /* a dark halo first, so the white lines read on light and dark backgrounds alike */
                cli_image_line(image, ax, ay, bx, by, 3.2f, ink, 0.45f * alpha);
            }
            else
            {
                cli_image_line(image, ax, ay, bx, by, 1.2f, white, 0.95f * alpha);
                cli_image_disc(image, ax, ay, 2.6f, ink, alpha);
                cli_image_disc(image, ax, ay, 1.7f, white, alpha);
                cli_image_disc(image, bx, by, 2.6f, ink, alpha);
                cli_image_disc(image, bx, by, 1.7f, white, alpha);
            }
        }
    }
}

static void draw_labels(cli_image* image, const demo_scene* scene, const demo_view* view)
{
    for (int i = 0; i < scene->count; ++i)
    {
        const demo_body* b = &scene->bodies[i];
        if (!b->in_map)
        {
            continue;
        }
        /* under the body's bounding box, centred */
        vec3 below = { 0.5f * (b->box.min[0] + b->box.max[0]), 0.0f, b->box.max[2] };
        float x, y;
        project(view, below, &x, &y);
        int width = 6 * (int)strlen(b->name);
        text_with_shadow(image, (int)x - width / 2, (int)y + 3, b->name, white);
    }
}

static void draw_legend(cli_image* image, float d_max, float step, const demo_view* view)
{
    const int top = view->height;
    const cli_rgb background = { 28, 26, 34 };
    cli_image_fill_rect(image, 0, top, image->width, image->height, background);
    const int x0 = 16, x1 = view->width - 16, bar_top = top + 8, bar_bottom = top + 20;
    for (int x = x0; x < x1; ++x)
    {
        float t = (float)(x - x0) / (float)(x1 - x0 - 1);
        float d = t * t * d_max;
        cli_rgb c = shade(colormap(t), ((int)(d / step) & 1) ? 0.93f : 1.0f);
        cli_image_fill_rect(image, x, bar_top, x + 1, bar_bottom, c);
    }
    /* ticks and labels at the major contours */
    for (int k = 0; (float)k * 4.0f * step <= d_max * 1.0001f; ++k)
    {
        float d = (float)k * 4.0f * step;
        int x = x0 + (int)lroundf(scale_position(d, d_max) * (float)(x1 - x0 - 1));
        cli_image_fill_rect(image, x, bar_top - 2, x + 1, bar_bottom + 3, white);
        char label[16];
        snprintf(label, sizeof(label), "%g", (double)d);
        cli_image_text(image, x - 3 * (int)strlen(label), bar_bottom + 5, 1, label, white);
    }
    char caption[160];
    snprintf(caption, sizeof(caption),
             "distance to the nearest shape on the plane y = %.2f, contours every %g", (double)DEMO_SLICE_Y,
             (double)step);
    cli_image_text(image, 8, top + 40, 1, caption, white);
    snprintf(caption, sizeof(caption),
             "top view (x right, z down), %.1f units wide; closest points of each pair",
             (double)(view->pixel * (float)view->width));
    cli_image_text(image, 8, top + 54, 1, caption, white);
}

/* Render and write the picture; returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
int demo_write_picture(const demo_scene* scene, const demo_pair* pairs, int pair_count, const char* out_dir)
{
    double t0 = demo_now_ns();
    demo_view view = make_view(scene);
    size_t pixels = (size_t)view.width * (size_t)view.height;
    float* field = malloc(sizeof(float) * pixels);
    int8_t* nearest = malloc(sizeof(int8_t) * pixels);
    cli_image image;
    memset(&image, 0, sizeof(image));
    int rc = CLI_EXIT_OK;
    if (field == NULL || nearest == NULL ||
        !cli_image_create(&image, view.width, view.height + DEMO_LEGEND_HEIGHT))
    {
        rc = cli_fail("out of memory for the %dx%d picture", view.width, view.height);
    }
    long queries = rc == CLI_EXIT_OK ? compute_field(scene, &view, field, nearest) : 0;
    if (queries < 0)
    {
        rc = CLI_EXIT_FAILURE;
    }
    char error[256];
    char path[4096];
    if (rc == CLI_EXIT_OK)
    {
        float max_d = 0.0f;
        for (size_t i = 0; i < pixels; ++i)
        {
            max_d = fmaxf(max_d, field[i]);
        }
        float step = contour_step(max_d);
        float d_max = fmaxf(ceilf(max_d / (4.0f * step)) * 4.0f * step, step);
        draw_field(&image, field, nearest, &view, d_max, step);
        draw_segments(&image, scene, pairs, pair_count, &view);
        draw_labels(&image, scene, &view);
        draw_legend(&image, d_max, step, &view);
        double t1 = demo_now_ns();
        printf(
            "distance field: %dx%d pixels on y = %.2f, %ld GJK point queries (%.2f per pixel instead of %d), "
            "%.0f ms\n",
            view.width, view.height, (double)DEMO_SLICE_Y, queries, (double)queries / (double)pixels,
            scene->count - 1, (t1 - t0) * 1e-6);

        snprintf(path, sizeof(path), "%s/demo_distance.%s", out_dir, cli_image_extension());
        if (!cli_image_write(&image, path, error, sizeof(error)))
        {
            rc = cli_fail("%s", error);
        }
        else
        {
            printf("wrote %s (%dx%d%s)\n", path, image.width, image.height,
                   strcmp(cli_image_extension(), "ppm") == 0
                       ? ", PPM: stb_image_write was not found at build time"
                       : "");
        }
    }
    free(field);
    free(nearest);
    cli_image_destroy(&image);
    return rc;
}
