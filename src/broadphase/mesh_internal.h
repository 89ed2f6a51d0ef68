/* The mesh and its 8-wide BVH, shared by the builder (mesh_build.c), the queries (mesh_query.c) and the
 * narrowphase's convex-vs-mesh queries.
 *
 * Layout. Inner nodes hold the boxes of their eight children in structure-of-arrays form (one AVX load per
 * bound per axis) and a link per child: >= 0 an inner node, < 0 a leaf (pxi_mesh_leaf_link) whose
 * triangles are in the packets from pxi_mesh_leaf_packet(link) on, pxi_mesh_leaf_count(link) triangles in
 * all (4 per packet, the last one possibly partial). Unused lanes have an inverted box (+inf / -inf), which every test rejects, and link
 * PXI_MESH_EMPTY. A packet holds four triangles' corners in structure-of-arrays form, so one leaf test
 * checks four triangles at once; lanes past the leaf's count have index PX_NULL_INDEX and zero corners. A
 * mesh whose root is a single leaf still has one node (one used lane). */
#pragma once

#include "../core/core_internal.h"
#include "proxima/mesh.h"

#define PXI_MESH_EMPTY INT32_MIN

/* Largest number of binary levels the builder makes with the surface area heuristic; deeper ranges are split
 * at the median, so no tree is deeper than this plus log2 of PX_MESH_MAX_COUNT, and the traversal stacks
 * below can never overflow. */
#define PXI_MESH_SAH_DEPTH 40
#define PXI_MESH_MAX_DEPTH (PXI_MESH_SAH_DEPTH + 30)
/* Children per node. */
#define PXI_MESH_WIDTH 8

/* A traversal pops one entry and pushes at most PXI_MESH_WIDTH, so it holds at most PXI_MESH_WIDTH - 1 per
 * level plus one. */
#define PXI_MESH_STACK ((PXI_MESH_WIDTH - 1) * PXI_MESH_MAX_DEPTH + PXI_MESH_WIDTH)

/* 256 bytes, allocated on 64-byte boundaries: a node is exactly four cache lines, and each bound of an axis is
 * one aligned 32-byte load. */
typedef struct pxi_mesh_node
{
    float bmin[3][PXI_MESH_WIDTH]; /* [axis][lane] */
    float bmax[3][PXI_MESH_WIDTH];
    int32_t link[PXI_MESH_WIDTH];
    uint32_t lanes; /* bit i set: lane i is used (box queries mask with it: an unused lane's inverted box
                       still passes an overlap test against an infinite query box) */
    uint32_t pad[PXI_MESH_WIDTH - 1];
} pxi_mesh_node;

#define PXI_MESH_NODE_ALIGNMENT 64

/* A leaf's link: its first packet and its triangle count (1 .. 8) in one negative int. Packets number at
 * most PX_MESH_MAX_COUNT = 2^28, so packet * 8 + 7 fits. */
static inline int32_t pxi_mesh_leaf_link(int32_t packet, int count)
{
    return ~((packet << 3) | (count - 1));
}

static inline int32_t pxi_mesh_leaf_packet(int32_t link)
{
    return (~link) >> 3;
}

static inline int pxi_mesh_leaf_count(int32_t link)
{
    return ((~link) & 7) + 1;
}

typedef struct pxi_mesh_packet
{
    float v[3][3][4]; /* [corner][axis][lane] */
    int32_t index[4]; /* triangle index in the caller's numbering, PX_NULL_INDEX for an unused lane */
    /* Lanes a ray can hit: used, and not exactly collinear (the test pxi_watertight_hit makes on every hit,
     * made once here so that the traversal can finish a hit from the packet test's own values). */
    uint32_t ray_lanes;
    uint32_t pad[3];
} pxi_mesh_packet;

/* Corners of lane `lane` of a packet. */
static inline void pxi_mesh_packet_triangle(const pxi_mesh_packet* p, int lane, float a[3], float b[3], float c[3])
{
    for (int k = 0; k < 3; ++k)
    {
        a[k] = p->v[0][k][lane];
        b[k] = p->v[1][k][lane];
        c[k] = p->v[2][k][lane];
    }
}

struct px_mesh
{
    px_allocator allocator;
    size_t block_size; /* one allocation holds the mesh */
    int vertex_count;
    int triangle_count;
    bool use_avx2; /* rays take the AVX2 traversal: set at creation from the CPU; tests clear it to check the
                      SSE / scalar one gives the same hits */
    int node_count;
    int leaf_count;
    int depth;
    float sah_cost;
    px_aabb bounds;
    float* vertices;      /* [3 * vertex_count] */
    int32_t* indices;     /* [3 * triangle_count] */
    pxi_mesh_node* nodes; /* [node_count], root at 0 */
    pxi_mesh_packet* packets; /* [packet_count], in leaf order */
    int packet_count;
    uint8_t* active_edges; /* [triangle_count]: PX_MESH_EDGE_FRONT / PX_MESH_EDGE_BACK bits (mesh.h) */
    /* [3 * triangle_count], with active_edges: for edge i of triangle t, the edge of the neighbour across it
     * (3 * neighbour + its edge index) when exactly two non-degenerate triangles share the edge; -1 otherwise
     * (boundary, three or more, degenerate) */
    int32_t* edge_adj;
};

/* The active-edge bits of every triangle (px_mesh_active_edges without the NULL check): what the internal
 * edge correction of the convex-vs-mesh contacts reads (narrowphase/mesh_edges_internal.h). NULL for an
 * empty mesh. */
static inline const uint8_t* pxi_mesh_active_edges(const px_mesh* mesh)
{
    return mesh->active_edges;
}

/* The neighbour across each edge (edge_adj above), or NULL without active edges. */
static inline const int32_t* pxi_mesh_edge_adj(const px_mesh* mesh)
{
    return mesh->edge_adj;
}

/* The neighbour's vertex off the shared edge, for an edge_adj entry adj >= 0 (edge e of triangle t: its
 * vertices are e and e + 1, the far one e + 2). */
static inline int32_t pxi_mesh_adj_far_vertex(const px_mesh* mesh, int32_t adj)
{
    const int32_t t = adj / 3, e = adj % 3;
    return mesh->indices[3 * t + (e + 2) % 3];
}

/* The triangles around corner k of triangle `triangle` (the one-ring of its vertex): the triangle first,
 * then those reached across edge neighbours (edge_adj) one way round and, where that way meets a boundary
 * (or an edge shared by more than two triangles), the other way; each as its two corners other than the
 * vertex (vertex indices), at most cap of them. Returns how many (0 for a mesh without edge neighbours). */
int pxi_mesh_vertex_ring(const px_mesh* mesh, int32_t triangle, int k, int32_t (*ring)[2], int cap);

/* Fill mesh->active_edges and mesh->edge_adj (allocated by the caller) from the vertices and indices
 * (mesh.c). Temporary memory comes from the mesh's allocator; PX_ERR_OUT_OF_MEMORY when it fails, with
 * nothing leaked. */
px_status pxi_mesh_find_active_edges(px_mesh* mesh);

/* Build the tree of a mesh whose vertices, indices, counts and allocator are set: allocates nodes and
 * packets (freed by pxi_mesh_free_tree) and fills the statistics. */
px_status pxi_mesh_build(px_mesh* mesh, int leaf_triangles, int sah_bins, const px_task_system* tasks);
void pxi_mesh_free_tree(px_mesh* mesh);

/* Whether this CPU runs the AVX2 traversal (and the compiler could build it). */
bool pxi_mesh_cpu_has_avx2(void);

/* Best-first search for the convex-vs-mesh queries: visits the leaves whose boxes are within sqrt(*best_d2)
 * of the box [qmin, qmax] (a point when qmin == qmax), nearest box first. The callback receives a leaf's
 * packets and its triangle count (lanes beyond it are unused) and may lower *best_d2 to prune the rest; it
 * returns false to stop the search. */
typedef bool pxi_mesh_leaf_fn(const pxi_mesh_packet* packets, int count, float* best_d2, void* context);
void pxi_mesh_nearest(const px_mesh* mesh, const float qmin[3], const float qmax[3], float* best_d2,
                      pxi_mesh_leaf_fn* fn, void* context);

/* Every leaf whose box overlaps [qmin, qmax]; the callback returns false to stop. */
void pxi_mesh_overlap_leaves(const px_mesh* mesh, const float qmin[3], const float qmax[3], pxi_mesh_leaf_fn* fn,
                             void* context);
