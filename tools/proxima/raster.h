/* Walkable-surface baking for `proxima raster` and the demo's heightfield section (raster.c): walkable
 * marking, rasterization through the mesh BVH's tiles, the three filters, and a top-down map of the result. */
#pragma once

#include "cli.h"
#include "image.h"

/* The agent and the cells, in world units and degrees (RecastDemo's defaults). */
typedef struct raster_params
{
    float cell_size;    /* column width along x and z */
    float cell_height;  /* span height unit */
    float slope;        /* steepest walkable slope [Units: degrees] */
    float climb;        /* highest step the agent climbs */
    float agent_height; /* clearance the agent needs */
} raster_params;

#define RASTER_DEFAULT_PARAMS { 0.3f, 0.2f, 45.0f, 0.9f, 2.0f }

/* What a run found and how long each stage took. */
typedef struct raster_result
{
    px_heightfield* field; /* the filtered field; the caller destroys it */
    int width, depth;      /* columns */
    int walkable_climb;    /* floor(climb / cell_height) [Units: cells] */
    int walkable_height;   /* ceil(agent_height / cell_height) */
    int triangles;
    int walkable_triangles;
    int workers;              /* threads of the tiled rasterization */
    bool identical;           /* the tiles gave the spans of one pass on one thread */
    int64_t spans;            /* spans after rasterization (the filters change areas only) */
    int64_t walkable_spans;   /* spans walkable after the filters */
    int64_t columns;          /* columns holding spans */
    int64_t walkable_columns; /* columns whose top span is walkable */
    double bvh_ns, mark_ns, single_ns, tiled_ns, filter_ns[3];
} raster_result;

/* Check the parameters; on a bad one write why into error and return false. */
bool raster_check_params(const raster_params* params, char* error, size_t error_size);

/* Bake a mesh: build its BVH, mark walkable triangles, create a field over its bounds, rasterize it on one
 * thread and in tiles on `threads` workers (0: every processor) and compare, then run the three filters.
 * Prints a line per stage as it finishes, each starting with indent. Returns CLI_EXIT_OK (result->field
 * set), or a printed CLI_EXIT_FAILURE. */
int raster_run(const float* vertices, int vertex_count, const int32_t* indices, int triangle_count,
               const raster_params* params, int threads, const char* indent, raster_result* result);

/* The top-down map of a field: a pixel block per column (x to the right, z down), the top span's colour
 * green when walkable and red when not, brighter when higher, with relief shading; empty columns dark.
 * Blocks are RASTER_MAP_SIZE / max(width, depth) pixels wide (at least 1); fields wider than
 * RASTER_MAP_MAX columns show every k-th column. Returns false when out of memory. */
bool raster_draw_map(const px_heightfield* field, cli_image* image);

#define RASTER_MAP_SIZE 512
#define RASTER_MAP_MAX 4096

/* The size raster_draw_map gives a field of width x depth columns. */
void raster_map_size(int width, int depth, int* image_width, int* image_height);
