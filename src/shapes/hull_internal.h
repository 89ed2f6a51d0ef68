/* Layout of a built convex hull (px_hull, hull.h) and its hill-climbing support. Shared by the builder
 * (hull.c), the support mapping (support_internal.h) and the manifold code (face clipping). */
#pragma once

#include "../core/px_math.h"

#include <stdint.h>

#include "proxima/hull.h"

/* The hill-climbing graph is an array of 16-byte nodes, one record per vertex, so that a climb step reads
 * one record (two or three adjacent cache lines) instead of a vertex, its adjacency list and then every
 * neighbour's coordinates in three arrays:
 *   node[r]            the vertex: its position and its index (link)
 *   node[r + 1]        its neighbour count and whether it lies on a twisted face (meta)
 *   node[r + 2 + k]    neighbour k: its position and the node offset of its own record (link)
 * Records start at even offsets, so the first two nodes share a cache line. */
typedef union pxi_climb_node
{
    struct
    {
        float p[3];
        int32_t link;
    } v;
    struct
    {
        int32_t count;
        int32_t twisted;
        int32_t unused[2];
    } meta;
} pxi_climb_node;

/* Hulls of up to this many vertices keep a compact copy for the separating-axis test (px_hull.sat). */
#define PXI_HULL_SAT_MAX_VERTICES 32

struct px_hull
{
    /* What every query reads first, in the first 64 bytes of the block (a query on a cold hull then takes one
     * miss for these and one run of consecutive lines for the separating-axis copy that follows them). */
    int dimension; /* 0 point, 1 segment, 2 flat polygon, 3 solid */
    int vertex_count;
    int face_count;
    int edge_count;
    float* vertices;        /* packed xyz [(x, y, z) * vertex_count] */
    /* The separating-axis test's copy of a small solid hull (narrowphase/hull_sat.c; hull.c writes it for
     * the hulls that qualify), right after this struct in the block, so that a query reads a few
     * consecutive cache lines and can ask for all of them at once:
     *   x[vs], y[vs], z[vs]            the vertices, vs = vertex_count rounded up to 4 (padding 0)
     *   nx[fs], ny[fs], nz[fs], w[fs]  the face planes, fs = face_count rounded up to 4 (padding 0, 0, 0, +inf)
     *   then, as bytes, 4 per edge     its two vertices (as edges), the face whose loop runs from the first
     *                                  to the second, and the other face
     * NULL for hulls that do not qualify. */
    float* sat;
    int sat_bytes;
    float extent;           /* largest distance of a vertex from the centroid (the hull's scale) */
    vec3 centroid;          /* mean of the vertices */
    /* Subtracted from every position in the climb's dot products (pxi_hull_climb_dot): the centroid for a
     * hull farther from the origin than 8 extents, zero (the same values as plain dot products) otherwise.
     * Far out, plain dot products round to the same float over many neighbours (an ulp of 2e5 is 0.016),
     * and the climb, which moves only to a strictly higher one, stalled 0.22 short on a unit sphere at 1e5
     * (review 50); relative to the centroid they carry the hull's own precision. */
    vec3 climb_origin;
    int climb_min_vertices; /* px_hull_def.climb_min_vertices: GJK climbs this hull from this many vertices */
    pxi_climb_node* climb_nodes; /* the climbing graph (below) */
    px_allocator allocator; /* the resolved allocator that owns `block` */
    void* block;            /* one allocation holding every array below */
    size_t block_size;

    px_hull_face* faces;   /* planes are outward, unit normals */
    int32_t* face_indices; /* concatenated, counter-clockwise seen from outside */
    int face_index_count;
    int32_t* edges; /* undirected vertex pairs [(i, j) * edge_count] */

    /* vertex adjacency along hull edges, CSR: the neighbours of v are
     * adjacency[adjacency_offsets[v] .. adjacency_offsets[v + 1]) */
    int32_t* adjacency_offsets; /* [vertex_count + 1] */
    int32_t* adjacency;         /* [2 * edge_count] */

    /* Faces that are flat only within the build tolerance (merged from nearly coplanar ones, or a polygon
     * that is not exactly planar), per vertex, CSR: the faces of v are
     * climb_faces[climb_face_offsets[v] .. climb_face_offsets[v + 1]). On such a face a corner can be a local
     * maximum of its edges alone (the face is slightly twisted), so pxi_hull_climb checks the other vertices
     * of these faces before it stops. Exactly planar faces (triangles, exact facets) are not listed. */
    int32_t* climb_face_offsets; /* [vertex_count + 1] */
    int32_t* climb_faces;

    /* the faces around each vertex, CSR: vertex_faces[vertex_face_offsets[v] .. vertex_face_offsets[v + 1]),
     * in increasing face order */
    int32_t* vertex_face_offsets; /* [vertex_count + 1] */
    int32_t* vertex_faces;        /* [face_index_count] */

    /* The climbing graph (see pxi_climb_node; climb_nodes is at the top) and the record of each vertex. */
    int32_t* climb_record; /* [vertex_count] */

    /* Where climbs begin: a cube map of directions. Each of the 6 cube faces (+x, -x, +y, -y, +z, -z) is
     * cut into seed_k x seed_k cells, and seed_map[(face * seed_k + i) * seed_k + j] is a vertex extreme
     * along the direction through the centre of cell (i, j): its position and its record (v.link). A climb
     * starts from the seed of the cell its direction falls in, or from its warm start if that is higher: a
     * step or two from the answer. The position is kept in the map so that choosing between the two reads
     * no record: on a cold hull every record read is a cache miss, and most climbs after the first start
     * warm. */
    int seed_k;
    pxi_climb_node* seed_map; /* [6 * seed_k * seed_k] */
};

/* Record (in climb_nodes) of a vertex maximizing dot(vertex, d), by hill climbing from the record `start`
 * (negative for none; the climb begins at the seed for d instead when that is higher, see seed_map): move
 * to any neighbour with a strictly larger dot product until none has one. On a convex polytope the local
 * maximum reached is global. Ties keep the current vertex. A NaN d returns the start (or a seed). O(path
 * length x degree); no allocation. climb_nodes[result].v holds the vertex and its index.
 *
 * The hull is convex and its faces flat within the build tolerance; at a local maximum the climb also looks
 * at the other vertices of the vertex's faces listed in climb_faces (slightly twisted merged faces), so the
 * result is within the tolerance (times |d|) of the maximum over all vertices.
 *
 * It is pxi_hull_climb_from(hull, d, pxi_hull_climb_start(hull, d, start, &best), best): callers that climb
 * two hulls at once (GJK's pairs) pick both starts first and prefetch their records, so that the two
 * climbs' cache misses overlap. */
int32_t pxi_hull_climb_record(const struct px_hull* hull, const vec3 d, int32_t start);

/* The seed entry (position and record) of the cube-map cell direction d falls in (see seed_map). Any
 * direction, zero or NaN included, gets a valid entry. */
static inline const pxi_climb_node* pxi_hull_seed(const struct px_hull* hull, const vec3 d)
{
    /* the dominant axis a (ties to the lower one) and the other two, u and w, in cyclic order */
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    int a = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    int u = a == 2 ? 0 : a + 1, w = a == 0 ? 2 : a - 1;
    float m = fabsf(d[a]);
    if (!(m > 0.0f))
    {
        return &hull->seed_map[0]; /* zero or NaN */
    }
    const int k = hull->seed_k;
    const float s = 0.5f * (float)k / m;
    /* the other two components over |d_a|, from [-1, 1] to cell coordinates; NaN lands in cell 0 */
    float fu = d[u] * s + 0.5f * (float)k;
    float fw = d[w] * s + 0.5f * (float)k;
    int i = fu > 0.0f ? (fu < (float)k ? (int)fu : k - 1) : 0;
    int j = fw > 0.0f ? (fw < (float)k ? (int)fw : k - 1) : 0;
    int face = 2 * a + (d[a] < 0.0f);
    return &hull->seed_map[(face * k + i) * k + j];
}

/* A position's dot product with d as the climb compares them: relative to the hull's climb_origin, in the
 * scans' order of rounding. */
static inline float pxi_hull_climb_dot(const struct px_hull* hull, const float* p, const vec3 d)
{
    const float* o = hull->climb_origin;
    return ((p[0] - o[0]) * d[0] + (p[1] - o[1]) * d[1]) + (p[2] - o[2]) * d[2];
}

/* Where a climb along d begins: the record of d's seed or of `start` (negative for none), whichever is
 * higher along d (the start on ties and for a NaN d), with its dot product in *best. Reads the seed map and
 * the start's record, not the seed's. */
static inline int32_t pxi_hull_climb_start(const struct px_hull* hull, const vec3 d, int32_t start, float* best)
{
    const pxi_climb_node* seed = pxi_hull_seed(hull, d);
    float b = pxi_hull_climb_dot(hull, seed->v.p, d);
    int32_t cur = seed->v.link;
    if (start >= 0)
    {
        float warm = pxi_hull_climb_dot(hull, hull->climb_nodes[start].v.p, d);
        if (!(warm < b))
        {
            cur = start; /* also for a NaN direction: the start comes back */
            b = warm;
        }
    }
    *best = b;
    return cur;
}

/* The climb itself, from record `cur` whose dot product along d is `best` (see pxi_hull_climb_record). */
int32_t pxi_hull_climb_from(const struct px_hull* hull, const vec3 d, int32_t cur, float best);

/* Ask for the two or three cache lines of a record before it is read (a hint, no effect on results). */
static inline void pxi_hull_prefetch_record(const struct px_hull* hull, int32_t record)
{
#if defined(__GNUC__) || defined(__clang__)
    const pxi_climb_node* n = &hull->climb_nodes[record];
    __builtin_prefetch(n);
    /* the next cache line, by address arithmetic: a short record at the end of the array has no n + 4 */
    __builtin_prefetch((const void*)((uintptr_t)n + 64u));
#else
    (void)hull;
    (void)record;
#endif
}

/* The same climb with vertex indices: the index of the support vertex, climbing from vertex `start`
 * (negative for none). */
static inline int32_t pxi_hull_climb(const struct px_hull* hull, const vec3 d, int32_t start)
{
    int32_t r = pxi_hull_climb_record(hull, d, start >= 0 ? hull->climb_record[start] : -1);
    return hull->climb_nodes[r].v.link;
}
