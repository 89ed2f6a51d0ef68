/* The convex hull builder's shared state and the functions its files share (internal to the builder).
 *
 *   hull.c            the algorithm's description, the output block, the driver, the public API, climbing
 *   hull_quickhull.c  exact grid predicates, the build's memory, 3D quickhull
 *   hull_merge.c      triangles to convex polygons on a half-edge mesh (exact, then within the tolerance)
 *   hull_result.c     the result lists from the merged mesh, and the segment and flat-polygon hulls */
#pragma once

#include "hull_internal.h"

#include "../core/core_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Grid resolution: coordinates in [0, 2^30]. 30 bits keep every 2x2 minor of orient3d inside int64. */
#define HULL_GRID_BITS 30
#define HULL_GRID_SCALE ((double)(1 << HULL_GRID_BITS))

/* A triangle of the quickhull phase: counter-clockwise from outside, with its neighbours and outside set. */
typedef struct qh_face
{
    int32_t v[3];      /* vertices (point indices) */
    int32_t adj[3];    /* face across edge v[i] -> v[i + 1] */
    double n[3];       /* unit outward normal, grid units */
    double off;        /* n . v[0] */
    double far_dist;   /* distance of far_point */
    int32_t head;      /* first point of the outside set (linked through hull_build.next), -1 if empty */
    int32_t near;      /* first point of the near set: above the plane by at most eps (not an eye) */
    int32_t far_point; /* the outside point farthest from the plane */
    uint32_t stamp;    /* creation number: heap entries of a recycled slot are recognised as stale */
    uint32_t pass;     /* last visibility pass that classified this face */
    uint8_t visible;   /* classification of that pass */
    uint8_t alive;
} qh_face;

/* Max-heap entry: the quickhull face with the farthest outside point, or a 2D chain segment. */
typedef struct heap_item
{
    double key;
    int32_t a, b, c;
    uint32_t tag;
} heap_item;

typedef struct ivec
{
    int32_t* data;
    int count;
    int cap;
} ivec;

/* Half-edge mesh of the merge phase. Half-edge 3t + i starts as edge i of quickhull face slot t. */
typedef struct hm_edge
{
    int32_t origin; /* point index */
    int32_t twin;
    int32_t next;
    int32_t prev;
    int32_t face; /* -1: removed */
} hm_edge;

typedef struct hm_face
{
    int32_t edge;     /* a half-edge of the loop, -1: removed */
    int32_t count;    /* loop length */
    uint32_t version; /* bumped on every change (stale merge candidates) */
    uint32_t round;   /* merge round that scores this face's pairs */
    uint32_t changed; /* merge round in which it last changed */
    uint32_t mark;    /* visit mark (stars) */
    uint32_t merged;  /* merged with the tolerance: flat only within eps (the climb checks its vertices) */
    double area[3];   /* Newell vector (twice the vector area), grid units */
} hm_face;

typedef struct merge_candidate
{
    double score; /* union thickness */
    int32_t f, g;
    uint32_t fv, gv; /* face versions when scored */
    int32_t bucket;
} merge_candidate;

typedef struct hull_build
{
    px_allocator alloc;
    px_status status; /* first error */
    const float* points;
    int n;
    int max_vertices; /* 0: no limit */
    int climb_min_vertices; /* px_hull_def.climb_min_vertices: sizes the direction table */
    bool capacity_hit;
    double eps; /* tolerance in grid units */

    /* per-point arrays, one allocation */
    void* point_block;
    size_t point_block_size;
    int32_t* q;       /* grid coordinates [3n] */
    int32_t* next;    /* outside-set links [n] */
    int32_t* scratch; /* horizon starts, then the output index map [n], kept at -1 between uses */
    int32_t* out;     /* merge phase: an outgoing half-edge per vertex, -1 if not a vertex [n] */
    uint32_t* seen;   /* merge phase: visit marks [n] */
    uint32_t seen_pass;

    /* quickhull */
    qh_face* faces;
    int face_count;
    int face_cap;
    ivec free_faces;
    heap_item* heap;
    int heap_count;
    int heap_cap;
    double* planes; /* the cone's planes during redistribution */
    int planes_cap;
    ivec stack;
    ivec visible;
    ivec horizon;
    ivec order;
    ivec heads;
    ivec cone;
    uint32_t stamp;
    uint32_t pass;
    int vertex_count;

    /* the exact triangulated hull's vertex graph (CSR over point indices), for the planes' offsets */
    int32_t* graph_offsets; /* [n + 1] */
    int32_t* graph;
    size_t graph_bytes;

    /* merge phase */
    hm_edge* he;
    int he_count;
    hm_face* mf;
    int mf_count;
    ivec work;
    ivec loop;
    ivec changed; /* faces changed in the current merge round */
    uint32_t round;
    uint32_t mark_pass;
    merge_candidate* cand;
    int cand_count;
    int cand_cap;
    merge_candidate* sorted;
    int sorted_cap;

    /* the result before it is written into the hull's block (input indices, then output indices) */
    ivec res_vertices; /* input index of each hull vertex */
    ivec res_counts;   /* vertex count of each face */
    ivec res_indices;  /* face loops, output indices */
    ivec res_edges;    /* vertex pairs, output indices */
    ivec res_twisted;  /* per face: 1 if flat only within eps (listed for the climb) */
} hull_build;

static inline double dot3(const double* a, const double* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline const int32_t* gp(const hull_build* b, int32_t i)
{
    return b->q + 3 * (size_t)i;
}

/* Grid point as doubles. */
static inline void gpd(const hull_build* b, int32_t i, double dest[3])
{
    const int32_t* p = gp(b, i);
    dest[0] = (double)p[0];
    dest[1] = (double)p[1];
    dest[2] = (double)p[2];
}

static inline int32_t he_dest(const hull_build* b, int32_t h)
{
    return b->he[b->he[h].next].origin;
}

/* Exact predicates on grid points (hull_quickhull.c) */
int pxi_hull_orient3d(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d);
void pxi_hull_cross_exact(const int32_t* a, const int32_t* b, const int32_t* c, double n[3]);

/* Growable arrays and the heap, all memory through the hull's allocator (hull_quickhull.c); a failure
 * records PX_ERR_OUT_OF_MEMORY in b->status and returns false or NULL */
void* pxi_hull_build_alloc(hull_build* b, size_t count, size_t elem, size_t* bytes);
bool pxi_hull_grow(hull_build* b, void** data, int* cap, size_t elem, int need);
void pxi_hull_release(hull_build* b, void* data, int cap, size_t elem);
bool pxi_hull_ivec_push(hull_build* b, ivec* v, int32_t x);
bool pxi_hull_heap_push(hull_build* b, heap_item item);
bool pxi_hull_heap_pop(hull_build* b, heap_item* top);

/* Quickhull (hull_quickhull.c) */
int pxi_hull_face_side(const hull_build* b, const qh_face* f, int32_t p);
int pxi_hull_edge_of(const qh_face* g, int32_t from, int32_t to);
bool pxi_hull_qh_run(hull_build* b, const int32_t s[4]);

/* Merge phase (hull_merge.c) */
bool pxi_hull_reorder_faces(hull_build* b);
bool pxi_hull_exact_graph(hull_build* b);
double pxi_hull_climb_exact(const hull_build* b, const double n[3], int32_t start);
bool pxi_hull_mesh_from_quickhull(hull_build* b);
bool pxi_hull_merge_exact(hull_build* b);
bool pxi_hull_cleanup_vertices(hull_build* b);
bool pxi_hull_merge_near(hull_build* b);

/* Results (hull_result.c) */
bool pxi_hull_result_from_mesh(hull_build* b);
bool pxi_hull_result_polygon(hull_build* b, const int32_t* idx, int k);
bool pxi_hull_result_segment(hull_build* b, int32_t a, int32_t c);
double pxi_hull_line_dist(const hull_build* b, int32_t a, int32_t c, int32_t p);
bool pxi_hull_flat_hull(hull_build* b, int32_t a, int32_t c, int32_t d, int* kept_count);
