/* Ray-cast pictures of triangle meshes, shared by `proxima render` (render.c) and the mesh section of
 * `proxima demo` (demo_mesh.c): a camera that frames a mesh's bounds, one primary ray per pixel through
 * px_mesh_ray_cast (timed on one thread) and px_mesh_ray_cast_batch (timed on a task system), and shading
 * by the hit normal with a sun and its shadows. */
#pragma once

#include "cli.h"
#include "image.h"

#define RENDER_MIN_SIZE 8    /* smallest picture width or height [pixels] */
#define RENDER_MAX_SIZE 4096 /* largest picture width or height [pixels] */

typedef enum render_view
{
    RENDER_VIEW_ISO = 0, /* perspective, three-quarter view from above (azimuth 35, elevation 35 degrees) */
    RENDER_VIEW_TOP,     /* orthographic, straight down the -y axis: x to the right, +z down the picture */
    RENDER_VIEW_FRONT,   /* orthographic, along -z: x to the right, y up */
} render_view;

/* A pinhole or orthographic camera. Pixel (x, y) looks through the point
 * centre + ((x + 0.5) / width * 2 - 1) * half_width * right + (1 - (y + 0.5) / height * 2) * half_height * up
 * of the image plane one unit in front of the eye (perspective) or starts on the plane through eye
 * (orthographic). */
typedef struct render_camera
{
    vec3 eye;          /* perspective: the eye; orthographic: the centre of the plane the rays start on */
    vec3 forward;      /* unit viewing direction */
    vec3 right, up;    /* unit image axes, right = forward x up */
    float half_width;  /* perspective: tan of half the horizontal field of view; orthographic: world units */
    float half_height; /* the same, vertically */
    bool orthographic;
    int width, height; /* [pixels] */
} render_camera;

/* What rendering did and how long it took. */
typedef struct render_result
{
    render_camera camera;
    int ray_count;    /* primary rays: one per pixel */
    int hit_count;    /* primary rays that hit the mesh */
    int workers;      /* workers of the task system (1 for none) */
    double single_ns; /* px_mesh_ray_cast on the calling thread, all primary rays (0 when not timed) */
    double batch_ns;  /* px_mesh_ray_cast_batch on the task system, all primary rays */
    double shade_ns;  /* shading, shadow rays included */
    bool identical;   /* the batch's hits equal the single-thread hits (true when not timed) */
} render_result;

/* Name of a view for messages ("iso", "top", "front"). */
const char* render_view_name(render_view view);

/* Parse "iso", "top" or "front"; false for anything else. */
bool render_parse_view(const char* text, render_view* view);

/* A camera of the given view whose picture of width x height pixels holds the whole box with a small
 * margin. The box must not be inverted; a flat or point-sized box is framed as if it had some size. The
 * perspective (iso) view is fitted to the points (packed xyz, all inside the box) when point_count > 0,
 * which frames a mesh more tightly than its box's corners, and centred on their picture. */
render_camera render_frame(const px_aabb* bounds, const float* points, int point_count, render_view view,
                           int width, int height);

/* The primary ray through the centre of pixel (x, y) (max_t INFINITY, direction of unit length). */
void render_primary_ray(const render_camera* camera, int x, int y, px_ray* ray);

/* Render the mesh into image (created here, width x height; destroy it with cli_image_destroy): frame its
 * bounds, cast the primary rays with px_mesh_ray_cast_batch on tasks (NULL: this thread), and, when
 * time_single is set, also one by one with px_mesh_ray_cast on this thread to time and compare them. Then
 * shade every pixel (on tasks too). caption, when not NULL, is written in the bottom-left corner.
 * Returns CLI_EXIT_OK, or a printed CLI_EXIT_FAILURE (out of memory, a failed query, an empty mesh). */
int render_mesh(const px_mesh* mesh, render_view view, int width, int height, const px_task_system* tasks,
                bool time_single, const char* caption, cli_image* image, render_result* result);

/* Print the mesh's triangle and vertex counts, bounds, BVH build time and tree statistics (nodes, leaves,
 * depth, SAH cost, memory), each line starting with indent. */
void render_print_mesh(const px_mesh* mesh, double build_ns, const char* indent);

/* Print the ray counts, rays per second (one thread, and the batch on result->workers workers), and hits of
 * a render_mesh call, each line starting with indent. */
void render_print_result(const render_result* result, const char* indent);

/* Millions of items per second for count items in ns nanoseconds (0 when ns is 0). */
double render_mega_per_second(double count, double ns);
