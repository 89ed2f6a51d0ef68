/* Layout of a built convex hull (px_hull, hull.h) and its hill-climbing support. Shared by the builder
 * (hull.c), the support mapping (support_internal.h) and the manifold code (face clipping). */
#pragma once

#include "../core/px_math.h"

#include "proxima/hull.h"

struct px_hull
{
    px_allocator allocator; /* the resolved allocator that owns `block` */
    void* block;            /* one allocation holding every array below */
    size_t block_size;

    int dimension; /* 0 point, 1 segment, 2 flat polygon, 3 solid */

    int vertex_count;
    float* vertices; /* packed xyz [(x, y, z) * vertex_count] */

    int face_count;
    px_hull_face* faces;   /* planes are outward, unit normals */
    int32_t* face_indices; /* concatenated, counter-clockwise seen from outside */
    int face_index_count;

    int edge_count;
    int32_t* edges; /* undirected vertex pairs [(i, j) * edge_count] */

    /* vertex adjacency along hull edges, CSR: the neighbours of v are
     * adjacency[adjacency_offsets[v] .. adjacency_offsets[v + 1]) */
    int32_t* adjacency_offsets; /* [vertex_count + 1] */
    int32_t* adjacency;         /* [2 * edge_count] */

    vec3 centroid; /* mean of the vertices */
    float extent;  /* largest distance of a vertex from the centroid (the hull's scale) */
};

/* Index of a vertex maximizing dot(vertex, d), by hill climbing over the adjacency from vertex `start`
 * (0 <= start < vertex_count): move to any neighbour with a strictly larger dot product until none has
 * one. On a convex polytope the local maximum reached is global. Ties keep the current vertex. A NaN d
 * returns start. O(path length x degree); no allocation. */
int32_t pxi_hull_climb(const struct px_hull* hull, const vec3 d, int32_t start);
