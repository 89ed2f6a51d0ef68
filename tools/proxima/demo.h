/* The `proxima demo` scene and pair results, shared by demo.c (scene, queries, table, summary),
 * demo_field.c (the distance-field picture), demo_contacts.c (the contact-manifold section) and demo_mesh.c
 * (the triangle-mesh and heightfield sections). */
#pragma once

#include "cli.h"

#define DEMO_MAX_BODIES 16
#define DEMO_SLICE_Y 0.5f      /* height of the distance-field slice [Units: length] */
#define DEMO_ELLIPSOID_RINGS 7 /* latitude rings of the ellipsoid hull (plus the two poles) */
#define DEMO_ELLIPSOID_SEGMENTS 12
#define DEMO_ELLIPSOID_POINTS (DEMO_ELLIPSOID_RINGS * DEMO_ELLIPSOID_SEGMENTS + 2)

typedef struct demo_body
{
    char name[16];
    char description[48];
    px_shape shape;
    px_transform pose;
    px_aabb box; /* world bounds */
    bool in_map; /* drawn and included in the distance field (everything but the floor) */
} demo_body;

typedef struct demo_scene
{
    demo_body bodies[DEMO_MAX_BODIES];
    int count;
    float ellipsoid[3 * DEMO_ELLIPSOID_POINTS];
    float tetrahedron[12];
    float wedge[18];
    px_obj_data mesh;   /* --mesh: the loaded file */
    float* mesh_points; /* its vertices centred and scaled (the hull references them) */
} demo_scene;

typedef struct demo_pair
{
    int a, b;
    px_status status;
    px_gjk_result result;
    px_status overlap_status;
    bool overlap;
    double distance_ns; /* per query */
    double overlap_ns;
} demo_pair;

/* Monotonic clock in nanoseconds. */
double demo_now_ns(void);

/* Render the distance field of the scene's map bodies on y = DEMO_SLICE_Y with the pairs' closest-point
 * segments, and write it to out_dir/demo_distance.png (or .ppm). Returns CLI_EXIT_OK or a printed
 * CLI_EXIT_FAILURE. */
int demo_write_picture(const demo_scene* scene, const demo_pair* pairs, int pair_count, const char* out_dir);

/* The "contacts" section: contact manifolds of a small scene of resting bodies, printed as a table and
 * drawn to out_dir/demo_contacts.png (or .ppm). Returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
int demo_contacts(const char* out_dir);

/* The "mesh" section: a triangle mesh's BVH statistics, its ray-cast picture out_dir/demo_render.png (or
 * .ppm), ground-ray and closest-point probes and the time per query. The mesh is file (loaded from
 * file_path) when not NULL, else a level built in. Returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
int demo_mesh(const char* out_dir, const px_obj_data* file, const char* file_path);

/* The "heightfield" section (demo_mesh.c): the same mesh (file, or the built-in level) baked into walkable
 * spans with RecastDemo's agent (raster.h), the counts and timings printed and the top-down map written to
 * out_dir/demo_walkable.png (or .ppm). Returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
int demo_raster(const char* out_dir, const px_obj_data* file, const char* file_path);

/* The mesh of the mesh, heightfield and world sections: the file's triangles when file is not NULL, else
 * the built-in level's. Returns px_mesh_create's status. */
px_status demo_section_mesh(const px_obj_data* file, px_mesh** mesh);

/* The "world" section (demo_world.c): that mesh as a static body of a px_world with a few hundred moving
 * bodies flying through it; per step bodies, pairs, contacts and time, on one thread and on a pool (same
 * contacts), proximity and world ray casts; the last step drawn to out_dir/demo_world.png (or .ppm).
 * Returns CLI_EXIT_OK or a printed CLI_EXIT_FAILURE. */
int demo_world(const char* out_dir, const px_obj_data* file, const char* file_path);
