/* Layout of a built convex hull (px_hull, hull.h) and its hill-climbing support. Shared by the builder
 * (hull.c), the support mapping (support_internal.h) and the manifold code (face clipping). */
#pragma once

#include "../core/px_math.h"

#include <stdint.h>

#include "proxima/hull.h"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define PXI_HULL_CELL_SSE 1
#include <emmintrin.h>
#else
#define PXI_HULL_CELL_SSE 0
#endif

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

/* One cell of the direction table (px_hull.cells), two cache lines: up to eight vertices, their
 * coordinates transposed (x, y, z of all eight, then their indices) so that the eight dot products take a
 * few vector instructions. A cell with fewer candidates repeats its first. When a cell has more than eight,
 * the first eight are listed and the last one's index is stored complemented (~index, negative): the
 * support is then climbed from the best of them. */
#define PXI_CELL_SLOTS 8
typedef struct pxi_dir_cell
{
    float x[PXI_CELL_SLOTS], y[PXI_CELL_SLOTS], z[PXI_CELL_SLOTS];
    int32_t index[PXI_CELL_SLOTS];
} pxi_dir_cell;

/* Hulls of up to this many vertices keep a compact copy for the separating-axis test (px_hull.sat). */
#define PXI_HULL_SAT_MAX_VERTICES 32
/* Hulls of at least this many vertices keep a transposed copy of them (px_hull.soa): below, the scans of
 * such copies have no full vector step. Up to PXI_HULL_SOA_MAX_VERTICES: the copies' vector scans count
 * their indices in float lanes, exact below 2^24. */
#define PXI_HULL_SOA_MIN_VERTICES 8
#define PXI_HULL_SOA_MAX_VERTICES (1 << 24)

struct px_hull
{
    /* What a support reads, in the first 64 bytes of the block (a query on a cold hull takes one miss for
     * them; the separating-axis test's fields follow in the next line, then its copy: one run of consecutive
     * lines it can ask for at once). GJK's lookups in the direction table read nothing else of the struct
     * (with climb_origin in the second line they had taken one miss more per hull and query). */
    int dimension; /* 0 point, 1 segment, 2 flat polygon, 3 solid */
    int vertex_count;
    float* vertices; /* packed xyz [(x, y, z) * vertex_count] */
    /* The vertices transposed, x[vertex_count], then y[], then z[] (the layout of the scans of epa_scan.c),
     * for hulls of PXI_HULL_SOA_MIN_VERTICES to PXI_HULL_SOA_MAX_VERTICES vertices, NULL otherwise: GJK and
     * EPA scan it where they would otherwise make the same copy on every query (pxi_hull_shape_soa). */
    float* soa;
    pxi_dir_cell* cells; /* the direction table (below), [6 * cell_k * cell_k], 128-byte aligned */
    pxi_climb_node* climb_nodes; /* the climbing graph (below) */
    int cell_k;
    int climb_min_vertices; /* px_hull_def.climb_min_vertices: GJK climbs this hull from this many vertices */
    /* Subtracted from every position in the climb's dot products (pxi_hull_climb_dot): the centroid for a
     * hull farther from the origin than 8 extents, zero (the same values as plain dot products) otherwise.
     * Far out, plain dot products round to the same float over many neighbours (an ulp of 2e5 is 0.016),
     * and the climb, which moves only to a strictly higher one, stalled 0.22 short on a unit sphere at 1e5
     * (review 50); relative to the centroid they carry the hull's own precision. */
    vec3 climb_origin;
    float extent; /* largest distance of a vertex from the centroid (the hull's scale) */

    int face_count;
    int edge_count;
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
    vec3 centroid; /* mean of the vertices */
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

    /* The direction table: a cube map of directions. Each of the 6 cube faces (+x, -x, +y, -y, +z, -z) is
     * cut into cell_k x cell_k cells, and cells[(face * cell_k + i) * cell_k + j] lists the vertices whose
     * normal cone meets the directions of cell (i, j) (see pxi_dir_cell): the support along any direction of
     * the cell is one of them. A support reads one cell (two cache lines) and compares eight dot products; it
     * climbs only in the cells with more than eight candidates, from the best of those listed. */
    /* cell_k and cells: at the top */
};

/* The transposed copy of a hull shape's points (px_hull.soa) when the shape is a whole built hull that
 * keeps one, NULL otherwise (point clouds, a prefix of a hull's vertices, small hulls). */
static inline const float* pxi_hull_shape_soa(const px_shape* s)
{
    const struct px_hull* h = s->type == PX_SHAPE_HULL ? s->hull.built : NULL;
    return h != NULL && h->soa != NULL && s->hull.points == h->vertices && s->hull.count == h->vertex_count
               ? h->soa
               : NULL;
}

/* Record (in climb_nodes) of a vertex maximizing dot(vertex, d). The direction table settles it where d's
 * cell lists every candidate; elsewhere the climb starts from the best vertex the cell lists, or from the
 * record `start` (negative for none) when that is at least as high, and moves to any neighbour with a
 * strictly larger dot product until none has one. On a convex polytope the local maximum reached is
 * global. A start as high as the best candidate is returned (ties keep the start), also for a NaN d. O(1)
 * in a settled cell, O(path length x degree) otherwise; no allocation. climb_nodes[result].v holds the
 * vertex and its index.
 *
 * The hull is convex and its faces flat within the build tolerance; at a local maximum the climb also looks
 * at the other vertices of the vertex's faces listed in climb_faces (slightly twisted merged faces), so the
 * result is within the tolerance (times |d|) of the maximum over all vertices. The table's candidates are
 * the local maxima of those same comparisons (hull_cells.c), so a settled cell gives what a climb would. */
int32_t pxi_hull_climb_record(const struct px_hull* hull, const vec3 d, int32_t start);

/* The cell of the direction table that direction d falls in. Any direction, zero or NaN included, gets a
 * valid cell (cell 0 for those). */
static inline const pxi_dir_cell* pxi_hull_cell(const struct px_hull* hull, const vec3 d)
{
    /* the dominant axis a (ties to the lower one) and the other two, u and w, in cyclic order */
    float ax = fabsf(d[0]), ay = fabsf(d[1]), az = fabsf(d[2]);
    int a = ax >= ay ? (ax >= az ? 0 : 2) : (ay >= az ? 1 : 2);
    int u = a == 2 ? 0 : a + 1, w = a == 0 ? 2 : a - 1;
    float m = fabsf(d[a]), du = d[u], dw = d[w];
    if (!(m > 0.0f))
    {
        return &hull->cells[0]; /* zero or NaN */
    }
    if (m < 0x1p-100f)
    {
        /* k / 2m overflows to +inf below about 1e-38 (and 0 x inf is NaN), which would put a tiny
         * direction in a wrong cell of its face: scaled by a power of two, the ratios stay exact */
        m *= 0x1p100f;
        du *= 0x1p100f;
        dw *= 0x1p100f;
    }
    const int k = hull->cell_k;
    const float s = 0.5f * (float)k / m;
    /* the other two components over |d_a|, from [-1, 1] to cell coordinates; NaN lands in cell 0 */
    float fu = du * s + 0.5f * (float)k;
    float fw = dw * s + 0.5f * (float)k;
    int i = fu > 0.0f ? (fu < (float)k ? (int)fu : k - 1) : 0;
    int j = fw > 0.0f ? (fw < (float)k ? (int)fw : k - 1) : 0;
    int face = 2 * a + (d[a] < 0.0f);
    return &hull->cells[(face * k + i) * k + j];
}

/* A position's dot product with d as the climb compares them: relative to the hull's climb_origin, in the
 * scans' order of rounding. */
static inline float pxi_hull_climb_dot(const struct px_hull* hull, const float* p, const vec3 d)
{
    const float* o = hull->climb_origin;
    return ((p[0] - o[0]) * d[0] + (p[1] - o[1]) * d[1]) + (p[2] - o[2]) * d[2];
}

/* Whether a cell lists every candidate (the support along its directions is one of its entries). */
static inline bool pxi_hull_cell_settles(const pxi_dir_cell* c)
{
    return c->index[PXI_CELL_SLOTS - 1] >= 0;
}

/* The vertex index of entry k of a cell. */
static inline int32_t pxi_hull_cell_vertex(const pxi_dir_cell* c, int k)
{
    int32_t i = c->index[k];
    return i >= 0 ? i : ~i;
}

/* The entry of a cell highest along d (the first on ties; entry 0 for a NaN d), its dot product in *best.
 * Each dot product is the climb's (pxi_hull_climb_dot), rounded the same way on every path. */
static inline int pxi_hull_cell_best(const struct px_hull* hull, const pxi_dir_cell* c, const vec3 d, float* best)
{
    const float* o = hull->climb_origin;
#if PXI_HULL_CELL_SSE
    const __m128 dx = _mm_set1_ps(d[0]), dy = _mm_set1_ps(d[1]), dz = _mm_set1_ps(d[2]);
    const __m128 ox = _mm_set1_ps(o[0]), oy = _mm_set1_ps(o[1]), oz = _mm_set1_ps(o[2]);
    __m128 lo = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->x), ox), dx),
                                      _mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->y), oy), dy)),
                           _mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->z), oz), dz));
    __m128 hi = _mm_add_ps(_mm_add_ps(_mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->x + 4), ox), dx),
                                      _mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->y + 4), oy), dy)),
                           _mm_mul_ps(_mm_sub_ps(_mm_load_ps(c->z + 4), oz), dz));
    __m128 m = _mm_max_ps(lo, hi);
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(2, 3, 0, 1)));
    m = _mm_max_ps(m, _mm_shuffle_ps(m, m, _MM_SHUFFLE(1, 0, 3, 2)));
    int mask = _mm_movemask_ps(_mm_cmpeq_ps(lo, m)) | (_mm_movemask_ps(_mm_cmpeq_ps(hi, m)) << 4);
    *best = _mm_cvtss_f32(m);
    return mask != 0 ? __builtin_ctz((unsigned)mask) : 0;
#else
    int k = 0;
    float b = ((c->x[0] - o[0]) * d[0] + (c->y[0] - o[1]) * d[1]) + (c->z[0] - o[2]) * d[2];
    for (int i = 1; i < PXI_CELL_SLOTS; ++i)
    {
        float t = ((c->x[i] - o[0]) * d[0] + (c->y[i] - o[1]) * d[1]) + (c->z[i] - o[2]) * d[2];
        if (t > b)
        {
            b = t;
            k = i;
        }
    }
    *best = b;
    return k;
#endif
}

/* The climb out of a cell that does not settle its directions: from its entry k (dot product best along d)
 * or from the record `start` (negative for none) if that is at least as high. Returns the record reached. */
int32_t pxi_hull_climb_cell(const struct px_hull* hull, const pxi_dir_cell* c, int k, float best, const vec3 d,
                            int32_t start);

/* The support vertex along d of a hull with a direction table, given d's cell (pxi_hull_cell; callers with
 * two hulls look up both cells first, so that on cold hulls the two cache misses overlap): returns its
 * index and writes its position to dest. A settled cell answers from its own cache line and sets *start
 * to -1; otherwise the climb starts from the best entry or from the record *start (negative for none) if
 * that is higher, and *start becomes the record reached. */
static inline int32_t pxi_hull_support_vertex(const struct px_hull* hull, const pxi_dir_cell* c, const vec3 d,
                                              int32_t* start, vec3 dest)
{
    float best;
    int k = pxi_hull_cell_best(hull, c, d, &best);
    if (pxi_hull_cell_settles(c))
    {
        *start = -1;
        dest[0] = c->x[k];
        dest[1] = c->y[k];
        dest[2] = c->z[k];
        return c->index[k];
    }
    int32_t r = pxi_hull_climb_cell(hull, c, k, best, d, *start);
    *start = r;
    const pxi_climb_node* n = &hull->climb_nodes[r];
    dest[0] = n->v.p[0];
    dest[1] = n->v.p[1];
    dest[2] = n->v.p[2];
    return n->v.link;
}

/* The direction table of a hull: its size (cells per cube-face side) for a vertex count, and the build
 * (hull_cells.c), which fills hull->cells once the climbing graph is in place. */
int pxi_hull_cell_k(int vertex_count, int climb_min_vertices);
void pxi_hull_build_cells(struct px_hull* hull);

/* The climb itself, from record `cur` whose dot product along d is `best` (see pxi_hull_climb_record). */
int32_t pxi_hull_climb_from(const struct px_hull* hull, const vec3 d, int32_t cur, float best);

/* The same climb with vertex indices: the index of the support vertex, climbing from vertex `start`
 * (negative for none). */
static inline int32_t pxi_hull_climb(const struct px_hull* hull, const vec3 d, int32_t start)
{
    int32_t r = pxi_hull_climb_record(hull, d, start >= 0 ? hull->climb_record[start] : -1);
    return hull->climb_nodes[r].v.link;
}
