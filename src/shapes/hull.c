/* Convex hull of a point cloud (hull.h) and hill climbing over its vertex adjacency (hull_internal.h).
 * This file: the output block, the driver, the public API and the climb; the build itself is in
 * hull_quickhull.c, hull_merge.c and hull_result.c (hull_build.h).
 *
 * Algorithm: 3D quickhull (Barber, Dobkin & Huhdanpaa, "The Quickhull Algorithm for Convex Hulls", ACM TOMS
 * 22(4), 1996) with outside sets and farthest-point-first insertion (a max-heap over the faces), then a
 * merge of coplanar triangles into convex polygons. Flat clouds take a 2D path (Andrew's monotone chain,
 * then a farthest-point simplification of the chain); collinear clouds and single points are direct.
 *
 * Exactness. The points are snapped to an integer grid: a power-of-two scale brings the largest side of the
 * bounding box just under 2^30 steps, which keeps floats exact down to 2^-7 of the extent (so exactly
 * coplanar inputs stay exactly coplanar) and moves finer detail by at most 2^-31 of it. The hull keeps the
 * caller's own coordinates. On the grid the orientation predicate is exact in plain int64 arithmetic
 * (orient3d; a floating-point filter settles the easy cases), so visibility and coplanarity never disagree
 * between neighbouring faces: the triangulated hull is always a convex polytope, whatever the duplicates,
 * collinear points or large exactly-coplanar clusters (KNOWN_FAILURES 2.7).
 *
 * Tolerance. eps = tolerance x extent bounds the distance from any point to the hull. Half of it, e, goes to
 * each of two approximations:
 *   - dropping points: a point joins the hull only if it is more than e from it. Points within e of their
 *     face's plane are kept in a near set rather than dropped, and when no outside point is left their
 *     exact distance to the hull is checked (near sharp sliver edges, "within e of one plane" bounds neither
 *     the height above the next face nor the distance to the hull); the far ones are added after all. A
 *     cloud within e of a line or plane is a segment or a flat polygon.
 *   - merging faces: exactly coplanar triangles are merged first (region growing on exact orientation 0);
 *     then nearly coplanar neighbours, flattest pair first, when their union is convex, flat within e (from
 *     the exact hull's support along the union's normal down to its lowest vertex) and their normals agree
 *     within 8 degrees; then whole vertex stars the same way (a vertex raised less than e above a flat
 *     region: merged two at a time its faces would make a reflex corner). A vertex left on two faces goes
 *     when within e of the chord of its neighbours (a point on an edge), and stays otherwise (the rim of a
 *     part thinner than the tolerance).
 * So every point is within eps of the hull's vertices' convex hull, hence its support is within eps of the
 * cloud's in every direction.
 *
 * Planes are supporting planes: the normal is the one the face's flatness was checked along, w the largest
 * n . x over every vertex quickhull kept (climbing its exact triangulation, on which a local maximum is
 * global), so no hull vertex is above any face plane and no point more than e. The hill climb of the support
 * mapping runs on the merged hull's edges; at a local maximum it also looks at the other vertices of the
 * vertex's merged faces, which are flat only within e and can hide a higher corner behind a lower one.
 *
 * Memory locality matters at 10^5 points: the build walks outside sets point by point and the merge phase
 * walks half-edges, so the points are first reordered along a Morton curve and the quickhull faces renumbered
 * by their lowest vertex before the merge. */
#include "hull_build.h"

#define HULL_COOKIE 0x50584855 /* "PXHU" */
#define HULL_DEFAULT_TOLERANCE 1.0e-5f

/* Largest accepted point count: keeps 3 x (2 x count) half-edge indices inside int32. */
#define HULL_MAX_POINTS (1 << 28)

/* ------------------------------------------------------------------------------------------------------
 * The hull object: one block holding the struct and every array
 * ------------------------------------------------------------------------------------------------------ */

static size_t align_up(size_t x)
{
    return (x + (PXI_ALLOC_ALIGNMENT - 1)) & ~(size_t)(PXI_ALLOC_ALIGNMENT - 1);
}

/* The separating-axis copy of a small solid (hull_internal.h, px_hull.sat), written at `sat` when the hull
 * qualifies: every edge has two faces that are not nearly back to back (the Gauss-map arc of an edge between
 * almost opposite normals, a thin rim, is ill-conditioned), and every face is a facet of the vertices' own
 * hull: its vertices on the plane through the highest vertex along its normal, within a few roundings. (A
 * plane's offset is the support of every point quickhull kept, so near a vertex dropped within the
 * tolerance it floats above the face; a face merged within the tolerance is flat only within it; and a face
 * whose vertex on an edge was dropped keeps the normal its flatness was checked along.) The copy's offsets
 * are those highest vertices. Hulls that do not qualify go through GJK and EPA. */
static void emit_sat_copy(struct px_hull* h, float* sat, size_t sat_bytes)
{
    const int vc = h->vertex_count, fc = h->face_count, ec = h->edge_count;
    const int vs = (vc + 3) & ~3, fs = (fc + 3) & ~3;
    /* each edge's faces: the one whose loop runs i -> j, then the one running j -> i (V <= 32: E <= 90) */
    int32_t edge_faces[2 * 3 * PXI_HULL_SAT_MAX_VERTICES];
    for (int e = 0; e < ec; ++e)
    {
        int32_t i = h->edges[2 * e], j = h->edges[2 * e + 1];
        edge_faces[2 * e] = edge_faces[2 * e + 1] = -1;
        for (int32_t k = h->vertex_face_offsets[i]; k < h->vertex_face_offsets[i + 1]; ++k)
        {
            const px_hull_face* face = &h->faces[h->vertex_faces[k]];
            const int32_t* loop = h->face_indices + face->first;
            for (int m = 0; m < face->count; ++m)
            {
                int32_t u = loop[m], w = loop[(m + 1) % face->count];
                if (u == i && w == j)
                {
                    edge_faces[2 * e] = h->vertex_faces[k];
                }
                else if (u == j && w == i)
                {
                    edge_faces[2 * e + 1] = h->vertex_faces[k];
                }
            }
        }
        if (edge_faces[2 * e] < 0 || edge_faces[2 * e + 1] < 0)
        {
            return;
        }
        const float* n0 = h->faces[edge_faces[2 * e]].plane;
        const float* n1 = h->faces[edge_faces[2 * e + 1]].plane;
        if (!(n0[0] * n1[0] + n0[1] * n1[1] + n0[2] * n1[2] >= -1.0f + 1.0e-3f))
        {
            return;
        }
    }
    double coord = 0.0;
    for (int i = 0; i < 3 * vc; ++i)
    {
        coord = fabs((double)h->vertices[i]) > coord ? fabs((double)h->vertices[i]) : coord;
    }
    double top[2 * PXI_HULL_SAT_MAX_VERTICES]; /* a solid of V <= 32 vertices has at most 2 V - 4 faces */
    for (int f = 0; f < fc; ++f)
    {
        const float* pl = h->faces[f].plane;
        double hi = -INFINITY, lo = INFINITY;
        for (int i = 0; i < vc; ++i)
        {
            const float* v = h->vertices + 3 * (size_t)i;
            double t = (double)pl[0] * v[0] + (double)pl[1] * v[1] + (double)pl[2] * v[2];
            hi = t > hi ? t : hi;
        }
        for (int k = 0; k < h->faces[f].count; ++k)
        {
            const float* v = h->vertices + 3 * (size_t)h->face_indices[h->faces[f].first + k];
            double t = (double)pl[0] * v[0] + (double)pl[1] * v[1] + (double)pl[2] * v[2];
            lo = t < lo ? t : lo;
        }
        if (!(hi - lo <= 8.0 * FLT_EPSILON * coord))
        {
            return;
        }
        top[f] = hi;
    }
    for (int i = 0; i < vc; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            sat[k * vs + i] = h->vertices[3 * i + k];
        }
    }
    float* planes = sat + 3 * vs;
    for (int f = 0; f < fs; ++f)
    {
        for (int k = 0; k < 3; ++k)
        {
            planes[k * fs + f] = f < fc ? h->faces[f].plane[k] : 0.0f;
        }
        float w = f < fc ? (float)top[f] : INFINITY;
        planes[3 * fs + f] = f < fc && (double)w < top[f] ? nextafterf(w, INFINITY) : w; /* rounded up */
    }
    uint8_t* edges = (uint8_t*)(void*)(planes + 4 * fs);
    for (int e = 0; e < ec; ++e)
    {
        edges[4 * e + 0] = (uint8_t)h->edges[2 * e];
        edges[4 * e + 1] = (uint8_t)h->edges[2 * e + 1];
        edges[4 * e + 2] = (uint8_t)edge_faces[2 * e];
        edges[4 * e + 3] = (uint8_t)edge_faces[2 * e + 1];
    }
    h->sat = sat;
    h->sat_bytes = (int)sat_bytes;
}

/* Write the result into a new hull: vertices (the caller's floats), faces with supporting planes, edges,
 * CSR adjacency, centroid and extent. */
static bool emit(hull_build* b, int dimension, px_hull** result)
{
    int vc = b->res_vertices.count, fc = b->res_counts.count, fi = b->res_indices.count;
    int ec = b->res_edges.count / 2;
    if (vc < dimension + 1 || (dimension == 3 && fc < 4))
    {
        /* never reached since the build's duplicates fix; a hull short of its dimension's vertices is a
         * broken build, reported as such rather than as PX_OK (it had been a solid with no vertices) */
        b->status = PX_ERR_DEGENERATE_INPUT;
        return false;
    }
    /* the separating-axis copy (hull_internal.h), for small solids, right after the struct */
    const int sat_vs = (vc + 3) & ~3, sat_fs = (fc + 3) & ~3;
    const size_t sat_bytes = dimension == 3 && vc <= PXI_HULL_SAT_MAX_VERTICES
                                 ? sizeof(float) * (3 * (size_t)sat_vs + 4 * (size_t)sat_fs) + 4 * (size_t)ec
                                 : 0;
    size_t off_sat = align_up(sizeof(struct px_hull));
    size_t off_vertices = align_up(off_sat + sat_bytes);
    const size_t soa_floats =
        vc >= PXI_HULL_SOA_MIN_VERTICES && vc < PXI_HULL_SOA_MAX_VERTICES ? 3 * (size_t)vc : 0;
    size_t off_soa = align_up(off_vertices + 3 * sizeof(float) * (size_t)vc);
    size_t off_faces = align_up(off_soa + sizeof(float) * soa_floats);
    size_t off_indices = align_up(off_faces + sizeof(px_hull_face) * (size_t)fc);
    size_t off_edges = align_up(off_indices + sizeof(int32_t) * (size_t)fi);
    size_t off_offsets = align_up(off_edges + 2 * sizeof(int32_t) * (size_t)ec);
    size_t off_adjacency = align_up(off_offsets + sizeof(int32_t) * ((size_t)vc + 1));
    size_t climb_count = 0;
    for (int f = 0; f < fc; ++f)
    {
        climb_count += b->res_twisted.data[f] ? (size_t)b->res_counts.data[f] : 0;
    }
    size_t off_climb_offsets = align_up(off_adjacency + 2 * sizeof(int32_t) * (size_t)ec);
    size_t off_climb = align_up(off_climb_offsets + sizeof(int32_t) * ((size_t)vc + 1));
    /* the climbing graph: per vertex two nodes and one per neighbour, records at even offsets (at most one
     * node of padding each) */
    size_t node_bound = 3 * (size_t)vc + 2 * (size_t)ec;
    size_t off_vf_offsets = align_up(off_climb + sizeof(int32_t) * climb_count);
    size_t off_vf = align_up(off_vf_offsets + sizeof(int32_t) * ((size_t)vc + 1));
    size_t off_records = align_up(off_vf + sizeof(int32_t) * (size_t)fi);
    size_t off_nodes = align_up(off_records + sizeof(int32_t) * (size_t)vc);
    /* the direction table, on its own cache line pairs (128 bytes of slack to align it whatever the
     * block's alignment) */
    const int cell_k = pxi_hull_cell_k(vc, b->climb_min_vertices);
    size_t off_cells = align_up(off_nodes + sizeof(pxi_climb_node) * node_bound);
    size_t total = align_up(off_cells + 128 + sizeof(pxi_dir_cell) * 6 * (size_t)cell_k * (size_t)cell_k);
    /* on a cache line of its own: the struct's first 64 bytes are what a support reads (hull_internal.h) */
    unsigned char* block = pxi_alloc_aligned(&b->alloc, total, 64);
    if (block == NULL)
    {
        b->status = PX_ERR_OUT_OF_MEMORY;
        return false;
    }
    memset(block, 0, total);
    struct px_hull* h = (struct px_hull*)(void*)block;
    h->allocator = b->alloc;
    h->block = block;
    h->block_size = total;
    h->dimension = dimension;
    h->vertex_count = vc;
    h->vertices = (float*)(void*)(block + off_vertices);
    h->face_count = fc;
    h->faces = fc > 0 ? (px_hull_face*)(void*)(block + off_faces) : NULL;
    h->face_index_count = fi;
    h->face_indices = fi > 0 ? (int32_t*)(void*)(block + off_indices) : NULL;
    h->edge_count = ec;
    h->edges = ec > 0 ? (int32_t*)(void*)(block + off_edges) : NULL;
    h->adjacency_offsets = (int32_t*)(void*)(block + off_offsets);
    h->adjacency = ec > 0 ? (int32_t*)(void*)(block + off_adjacency) : NULL;
    h->climb_face_offsets = (int32_t*)(void*)(block + off_climb_offsets);
    h->climb_faces = climb_count > 0 ? (int32_t*)(void*)(block + off_climb) : NULL;
    h->vertex_face_offsets = (int32_t*)(void*)(block + off_vf_offsets);
    h->vertex_faces = fi > 0 ? (int32_t*)(void*)(block + off_vf) : NULL;

    for (int i = 0; i < vc; ++i)
    {
        memcpy(h->vertices + 3 * (size_t)i, b->points + 3 * (size_t)b->res_vertices.data[i],
               3 * sizeof(float));
    }
    if (soa_floats > 0)
    {
        h->soa = (float*)(void*)(block + off_soa);
        for (int i = 0; i < vc; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                h->soa[(size_t)k * (size_t)vc + (size_t)i] = h->vertices[3 * (size_t)i + (size_t)k];
            }
        }
    }
    if (fi > 0)
    {
        memcpy(h->face_indices, b->res_indices.data, sizeof(int32_t) * (size_t)fi);
    }
    if (ec > 0)
    {
        memcpy(h->edges, b->res_edges.data, 2 * sizeof(int32_t) * (size_t)ec);
    }
    /* adjacency: degrees, prefix sums, then fill */
    int32_t* off = h->adjacency_offsets;
    for (int i = 0; i < 2 * ec; ++i)
    {
        off[h->edges[i] + 1]++;
    }
    for (int i = 0; i < vc; ++i)
    {
        off[i + 1] += off[i];
    }
    int32_t* filled = b->scratch; /* -1 at rest: entries filled so far minus one */
    for (int i = 0; i < 2 * ec; ++i)
    {
        int32_t u = h->edges[i], w = h->edges[i ^ 1];
        h->adjacency[off[u] + ++filled[u]] = w;
    }
    for (int i = 0; i < 2 * ec; ++i)
    {
        filled[h->edges[i]] = -1;
    }
    /* the twisted faces of each vertex, the same way */
    int32_t* coff = h->climb_face_offsets;
    for (int f = 0, first = 0; f < fc; first += b->res_counts.data[f++])
    {
        for (int i = 0; i < b->res_counts.data[f] && b->res_twisted.data[f]; ++i)
        {
            coff[h->face_indices[first + i] + 1]++;
        }
    }
    for (int i = 0; i < vc; ++i)
    {
        coff[i + 1] += coff[i];
    }
    for (int f = 0, first = 0; f < fc; first += b->res_counts.data[f++])
    {
        for (int i = 0; i < b->res_counts.data[f] && b->res_twisted.data[f]; ++i)
        {
            int32_t v = h->face_indices[first + i];
            h->climb_faces[coff[v] + ++filled[v]] = f;
        }
    }
    for (int f = 0, first = 0; f < fc; first += b->res_counts.data[f++])
    {
        for (int i = 0; i < b->res_counts.data[f] && b->res_twisted.data[f]; ++i)
        {
            filled[h->face_indices[first + i]] = -1;
        }
    }
    /* the faces of each vertex, the same way */
    int32_t* vfo = h->vertex_face_offsets;
    for (int i = 0; i < fi; ++i)
    {
        vfo[h->face_indices[i] + 1]++;
    }
    for (int i = 0; i < vc; ++i)
    {
        vfo[i + 1] += vfo[i];
    }
    for (int f = 0, first = 0; f < fc; first += b->res_counts.data[f++])
    {
        for (int i = 0; i < b->res_counts.data[f]; ++i)
        {
            int32_t v = h->face_indices[first + i];
            h->vertex_faces[vfo[v] + ++filled[v]] = f;
        }
    }
    for (int i = 0; i < fi; ++i)
    {
        filled[h->face_indices[i]] = -1;
    }
    /* faces: a solid's normal is the one its flatness was checked along (b->planes, from result_from_mesh), a
     * polygon's its Newell normal. The offset is the support along it: for a solid, of the exact hull (every
     * vertex quickhull kept, those merged away included); for a flat hull, of all the points. Rounded up,
     * so none of them is outside the float plane by more than the dot product's own rounding. */
    int first = 0;
    for (int f = 0; f < fc; ++f)
    {
        px_hull_face* face = &h->faces[f];
        face->first = first;
        face->count = b->res_counts.data[f];
        first += face->count;
        const int32_t* idx = h->face_indices + face->first;
        double n[3] = { 0.0, 0.0, 0.0 };
        if (dimension == 3)
        {
            memcpy(n, b->planes + 4 * f, sizeof(n));
        }
        else
        {
            const float* o = h->vertices + 3 * (size_t)idx[0];
            for (int i = 1; i + 1 < face->count; ++i)
            {
                const float* p1 = h->vertices + 3 * (size_t)idx[i];
                const float* p2 = h->vertices + 3 * (size_t)idx[i + 1];
                double u[3] = { (double)p1[0] - o[0], (double)p1[1] - o[1], (double)p1[2] - o[2] };
                double w[3] = { (double)p2[0] - o[0], (double)p2[1] - o[1], (double)p2[2] - o[2] };
                n[0] += u[1] * w[2] - u[2] * w[1];
                n[1] += u[2] * w[0] - u[0] * w[2];
                n[2] += u[0] * w[1] - u[1] * w[0];
            }
        }
        double len = sqrt(dot3(n, n));
        if (!(len > 0.0))
        {
            continue; /* unreachable: faces have positive area */
        }
        double nf[3];
        for (int k = 0; k < 3; ++k)
        {
            /* a flat polygon's back face gets exactly the opposite normal */
            face->plane[k] = dimension == 2 && f == 1 ? -h->faces[0].plane[k] : (float)(n[k] / len);
            nf[k] = (double)face->plane[k];
        }
        double w = -INFINITY;
        if (dimension == 3)
        {
            w = pxi_hull_climb_exact(b, nf, b->res_vertices.data[idx[0]]);
        }
        else
        {
            /* a flat hull's two planes bound every point (the cloud is as thick as the flat test allowed) */
            for (int i = 0; i < b->n; ++i)
            {
                const float* p = b->points + 3 * (size_t)i;
                double t = nf[0] * p[0] + nf[1] * p[1] + nf[2] * p[2];
                w = t > w ? t : w;
            }
        }
        for (int i = 0; i < face->count; ++i)
        {
            const float* p = h->vertices + 3 * (size_t)idx[i];
            double t = nf[0] * p[0] + nf[1] * p[1] + nf[2] * p[2];
            w = t > w ? t : w;
        }
        float wf = (float)w;
        if ((double)wf < w)
        {
            wf = nextafterf(wf, INFINITY);
        }
        face->plane[3] = wf;
    }
    if (sat_bytes > 0)
    {
        emit_sat_copy(h, (float*)(void*)(block + off_sat), sat_bytes);
    }
    double c[3] = { 0.0, 0.0, 0.0 };
    for (int i = 0; i < vc; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            c[k] += h->vertices[3 * i + k];
        }
    }
    double r2 = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        c[k] /= vc;
        h->centroid[k] = (float)c[k];
    }
    for (int i = 0; i < vc; ++i)
    {
        double d2 = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            double d = h->vertices[3 * i + k] - c[k];
            d2 += d * d;
        }
        r2 = d2 > r2 ? d2 : r2;
    }
    double r = sqrt(r2);
    h->extent = r < (double)FLT_MAX ? (float)r : FLT_MAX;
    const float far = px_maxf(fabsf(h->centroid[0]), px_maxf(fabsf(h->centroid[1]), fabsf(h->centroid[2])));
    for (int k = 0; k < 3; ++k)
    {
        h->climb_origin[k] = far > 8.0f * h->extent ? h->centroid[k] : 0.0f;
    }
    /* the climbing graph: records in vertex order (the vertices are in Morton order, so neighbours' records
     * are mostly near), then each neighbour's link to its record */
    h->climb_record = (int32_t*)(void*)(block + off_records);
    h->climb_nodes = (pxi_climb_node*)(void*)(block + off_nodes);
    int32_t rec = 0;
    for (int i = 0; i < vc; ++i)
    {
        h->climb_record[i] = rec;
        int32_t degree = off[i + 1] - off[i];
        pxi_climb_node* n = &h->climb_nodes[rec];
        memcpy(n[0].v.p, h->vertices + 3 * (size_t)i, sizeof(n[0].v.p));
        n[0].v.link = i;
        n[1].meta.count = degree;
        n[1].meta.twisted = coff[i + 1] > coff[i];
        for (int32_t k = 0; k < degree; ++k)
        {
            memcpy(n[2 + k].v.p, h->vertices + 3 * (size_t)h->adjacency[off[i] + k], sizeof(n[2 + k].v.p));
        }
        rec = (rec + 2 + degree + 1) & ~1;
    }
    for (int i = 0; i < vc; ++i)
    {
        pxi_climb_node* n = &h->climb_nodes[h->climb_record[i]];
        for (int32_t k = 0; k < n[1].meta.count; ++k)
        {
            n[2 + k].v.link = h->climb_record[h->adjacency[off[i] + k]];
        }
    }
    h->cell_k = cell_k;
    h->cells = (pxi_dir_cell*)(void*)(((uintptr_t)(block + off_cells) + 127u) & ~(uintptr_t)127u);
    pxi_hull_build_cells(h);
    *result = h;
    return true;
}

/* ------------------------------------------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------------------------------------------ */

static void build_free(hull_build* b)
{
    pxi_hull_release(b, b->faces, b->face_cap, sizeof(qh_face));
    pxi_hull_release(b, b->heap, b->heap_cap, sizeof(heap_item));
    pxi_hull_release(b, b->planes, b->planes_cap, 4 * sizeof(double));
    pxi_hull_release(b, b->cand, b->cand_cap, sizeof(merge_candidate));
    pxi_hull_release(b, b->sorted, b->sorted_cap, sizeof(merge_candidate));
    ivec* vecs[] = { &b->free_faces,   &b->stack,      &b->visible,     &b->horizon,   &b->order,
                     &b->heads,        &b->cone,       &b->work,        &b->loop,      &b->changed,
                     &b->res_vertices, &b->res_counts, &b->res_indices, &b->res_edges, &b->res_twisted };
    for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); ++i)
    {
        pxi_hull_release(b, vecs[i]->data, vecs[i]->cap, sizeof(int32_t));
    }
    if (b->he != NULL)
    {
        pxi_free(&b->alloc, b->he, (size_t)b->he_count * sizeof(hm_edge));
    }
    if (b->mf != NULL)
    {
        pxi_free(&b->alloc, b->mf, (size_t)b->mf_count * sizeof(hm_face));
    }
    if (b->point_block != NULL)
    {
        pxi_free(&b->alloc, b->point_block, b->point_block_size);
    }
    if (b->graph_offsets != NULL)
    {
        pxi_free(&b->alloc, b->graph_offsets, ((size_t)b->n + 1) * sizeof(int32_t));
    }
    if (b->graph != NULL)
    {
        pxi_free(&b->alloc, b->graph, b->graph_bytes);
    }
}

/* The Morton sort of snap(): insertion sort up to this many points, radix digits of 15 bits from
 * HULL_SORT_WIDE_MIN points, of 10 bits between. */
#define HULL_SORT_INSERTION_MAX 64
#define HULL_SORT_WIDE_MIN 65536

/* Morton code of a grid point from the top 10 bits of each coordinate. */
static uint32_t morton(const int32_t g[3])
{
    uint32_t code = 0;
    for (int k = 0; k < 3; ++k)
    {
        uint32_t c = (uint32_t)g[k] >> (HULL_GRID_BITS - 10);
        c = c > 1023u ? 1023u : c;
        for (int bit = 0; bit < 10; ++bit)
        {
            code |= ((c >> bit) & 1u) << (3 * bit + k);
        }
    }
    return code;
}

/* Snap to the grid: coordinates (x - lo) * scale, scale the power of two that brings the largest
 * bounding-box side just below 2^30. A power of two keeps every float coordinate at least 2^-7 of the side
 * exact on the grid, so exactly coplanar inputs (lattices, axis-aligned boxes, dyadic data) stay exactly
 * coplanar; finer detail is rounded by at most 2^-31 of the side.
 *
 * The points are also reordered along a Morton curve (30-bit codes, radix sorted; insertion sorted for small
 * clouds, where the radix sort's counters would cost more than the build): quickhull
 * walks its outside sets point by point, and neighbours in space then sit near each other in memory. The
 * build works on the reordered copy; it holds the caller's values, so the hull's vertices are unchanged. */
static bool snap(hull_build* b, const double lo[3], double scale)
{
    size_t n = (size_t)b->n;
    size_t per_point = 3 * sizeof(int32_t) + 3 * sizeof(int32_t) + sizeof(uint32_t) + 3 * sizeof(float);
    b->point_block = pxi_hull_build_alloc(b, n, per_point, &b->point_block_size);
    size_t sort_bytes;
    const size_t counters = n <= HULL_SORT_INSERTION_MAX ? 0 : (n >= HULL_SORT_WIDE_MIN ? 32768 : 1024);
    uint32_t* sort = b->point_block != NULL ? pxi_hull_build_alloc(b, 4 * n + counters, sizeof(uint32_t), &sort_bytes)
                                            : NULL;
    if (sort == NULL)
    {
        return false;
    }
    int32_t* base = b->point_block;
    b->q = base;
    b->next = base + 3 * n;
    b->scratch = base + 4 * n;
    b->out = base + 5 * n;
    b->seen = (uint32_t*)(base + 6 * n);
    float* sorted_points = (float*)(void*)(base + 7 * n);
    uint32_t *key = sort, *idx = sort + n, *key2 = sort + 2 * n, *idx2 = sort + 3 * n, *count = sort + 4 * n;
    /* (key, idx) and (key2, idx2) swap roles after every radix pass */
    for (size_t i = 0; i < n; ++i)
    {
        int32_t g[3];
        for (size_t k = 0; k < 3; ++k)
        {
            double v = floor(((double)b->points[3 * i + k] - lo[k]) * scale + 0.5);
            v = v < 0.0 ? 0.0 : (v > HULL_GRID_SCALE ? HULL_GRID_SCALE : v);
            g[k] = (int32_t)v;
        }
        key[i] = morton(g);
        idx[i] = (uint32_t)i;
    }
    if (n <= HULL_SORT_INSERTION_MAX)
    {
        /* small clouds: an insertion sort (stable, as the radix sort is), without the counting arrays */
        for (size_t i = 1; i < n; ++i)
        {
            uint32_t k = key[i], v = idx[i];
            size_t j = i;
            for (; j > 0 && key[j - 1] > k; --j)
            {
                key[j] = key[j - 1];
                idx[j] = idx[j - 1];
            }
            key[j] = k;
            idx[j] = v;
        }
    }
    else
    {
        /* digits of 10 bits (3 passes, 1024 counters each) up to HULL_SORT_WIDE_MIN points, of 15 bits (2
         * passes, 32768 counters) above, where clearing and summing the counters costs less than a pass */
        const int bits = n >= HULL_SORT_WIDE_MIN ? 15 : 10;
        const int passes = 30 / bits;
        const uint32_t mask = (1u << bits) - 1u;
        for (int pass = 0; pass < passes; ++pass)
        {
            uint32_t* c = count;
            const int shift = bits * pass;
            memset(c, 0, ((size_t)mask + 1u) * sizeof(uint32_t));
            for (size_t i = 0; i < n; ++i)
            {
                c[(key[i] >> shift) & mask]++;
            }
            uint32_t sum = 0;
            for (uint32_t d = 0; d <= mask; ++d)
            {
                uint32_t t = c[d];
                c[d] = sum;
                sum += t;
            }
            for (size_t i = 0; i < n; ++i)
            {
                uint32_t slot = c[(key[i] >> shift) & mask]++;
                key2[slot] = key[i];
                idx2[slot] = idx[i];
            }
            uint32_t* t = key;
            key = key2;
            key2 = t;
            t = idx;
            idx = idx2;
            idx2 = t;
        }
    }
    for (size_t i = 0; i < n; ++i)
    {
        const float* p = b->points + 3 * (size_t)idx[i];
        memcpy(sorted_points + 3 * i, p, 3 * sizeof(float));
        for (size_t k = 0; k < 3; ++k)
        {
            double v = floor(((double)p[k] - lo[k]) * scale + 0.5);
            v = v < 0.0 ? 0.0 : (v > HULL_GRID_SCALE ? HULL_GRID_SCALE : v);
            b->q[3 * i + k] = (int32_t)v;
        }
        b->next[i] = -1;
        b->scratch[i] = -1;
        b->out[i] = -1;
        b->seen[i] = 0;
    }
    pxi_free(&b->alloc, sort, sort_bytes);
    b->points = sorted_points;
    return true;
}

/* The hull of a non-degenerate-extent cloud, after snapping: picks the dimension from the extreme points and
 * builds the matching result. *dimension and b->capacity_hit describe it. */
static bool build(hull_build* b, int* dimension)
{
    /* A, B: the farthest apart of the six axis-extreme points */
    int32_t ext[6] = { 0, 0, 0, 0, 0, 0 };
    for (int32_t p = 1; p < b->n; ++p)
    {
        for (int k = 0; k < 3; ++k)
        {
            ext[2 * k] = gp(b, p)[k] < gp(b, ext[2 * k])[k] ? p : ext[2 * k];
            ext[2 * k + 1] = gp(b, p)[k] > gp(b, ext[2 * k + 1])[k] ? p : ext[2 * k + 1];
        }
    }
    int32_t a = ext[0], c = ext[1];
    int64_t best = -1;
    for (int i = 0; i < 6; ++i)
    {
        for (int j = i + 1; j < 6; ++j)
        {
            int64_t d2 = 0;
            for (int k = 0; k < 3; ++k)
            {
                int64_t d = (int64_t)gp(b, ext[i])[k] - gp(b, ext[j])[k];
                d2 += d * d;
            }
            if (d2 > best)
            {
                best = d2;
                a = ext[i];
                c = ext[j];
            }
        }
    }
    /* C: farthest from the line AB; D: farthest from the plane ABC. The cloud is flat when it fits in a slab
     * of width 2 eps along ABC's normal: it is then within eps of the slab's mid-plane. (Within eps of ABC
     * itself is too strict: A, B, C carry their own offsets, so ABC can lean across the cloud, and a ring
     * 8e-5 thick with eps 1e-4 had a point 1.05e-4 from it.) */
    int32_t d = -1, e = -1;
    double dist_line = -1.0, dist_plane = -1.0, below = 0.0, above = 0.0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        double t = pxi_hull_line_dist(b, a, c, p);
        if (t > dist_line)
        {
            dist_line = t;
            d = p;
        }
    }
    if (dist_line > b->eps)
    {
        double n[3], pa[3];
        pxi_hull_cross_exact(gp(b, a), gp(b, c), gp(b, d), n);
        double len = sqrt(dot3(n, n));
        gpd(b, a, pa);
        for (int32_t p = 0; p < b->n; ++p)
        {
            double x[3];
            gpd(b, p, x);
            double t = (n[0] * (x[0] - pa[0]) + n[1] * (x[1] - pa[1]) + n[2] * (x[2] - pa[2])) / len;
            below = t < below ? t : below;
            above = t > above ? t : above;
            if (fabs(t) > dist_plane)
            {
                dist_plane = fabs(t);
                e = p;
            }
        }
    }
    int dim = dist_line <= b->eps ? 1 : (above - below <= 2.0 * b->eps ? 2 : 3);
    int limit = b->max_vertices;
    if (limit == 1)
    {
        /* one vertex allowed: the first extreme point */
        *dimension = 0;
        b->capacity_hit = true;
        return pxi_hull_result_polygon(b, &a, 1);
    }
    if (dim == 1)
    {
        *dimension = 1;
        return pxi_hull_result_segment(b, a, c);
    }
    if (limit == 2)
    {
        const int32_t seg[2] = { a, c };
        *dimension = 1;
        b->capacity_hit = true;
        return pxi_hull_result_polygon(b, seg, 2);
    }
    if (dim == 2 || limit == 3)
    {
        int kept;
        if (dim == 2)
        {
            if (!pxi_hull_flat_hull(b, a, c, d, &kept))
            {
                return false;
            }
            if (kept < 3)
            {
                /* within eps of the chord after all (a borderline cloud): a segment */
                *dimension = 1;
                return pxi_hull_result_segment(b, a, c);
            }
            *dimension = 2;
            return pxi_hull_result_polygon(b, b->order.data, kept);
        }
        const int32_t tri[3] = { a, c, d };
        *dimension = 2;
        b->capacity_hit = true;
        return pxi_hull_result_polygon(b, tri, 3);
    }
    const int32_t s[4] = { a, c, d, e };
    if (!pxi_hull_qh_run(b, s) || !pxi_hull_reorder_faces(b) || !pxi_hull_exact_graph(b) || !pxi_hull_mesh_from_quickhull(b) || !pxi_hull_merge_exact(b))
    {
        return false;
    }
    b->work.count = 0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (b->out[p] >= 0 && !pxi_hull_ivec_push(b, &b->work, p))
        {
            return false;
        }
    }
    if (!pxi_hull_cleanup_vertices(b) || !pxi_hull_merge_near(b))
    {
        return false;
    }
    int faces = 0;
    int32_t last = -1;
    for (int32_t f = 0; f < b->mf_count; ++f)
    {
        faces += b->mf[f].edge >= 0;
        last = b->mf[f].edge >= 0 ? f : last;
    }
    if (faces == 2)
    {
        /* Every face merged into one of two, back to back: the cloud is thinner than the tolerance (and
         * thicker than the half of it the flat test allows). A flat polygon, its vertices in order. */
        b->loop.count = 0;
        int32_t h0 = b->mf[last].edge, h = h0;
        do
        {
            if (!pxi_hull_ivec_push(b, &b->loop, b->he[h].origin))
            {
                return false;
            }
            h = b->he[h].next;
        } while (h != h0);
        *dimension = 2;
        return pxi_hull_result_polygon(b, b->loop.data, b->loop.count);
    }
    *dimension = 3;
    return pxi_hull_result_from_mesh(b);
}

/* ------------------------------------------------------------------------------------------------------
 * Public API
 * ------------------------------------------------------------------------------------------------------ */

px_hull_def px_hull_default_def(void)
{
    px_hull_def def;
    memset(&def, 0, sizeof(def));
    def.tolerance = HULL_DEFAULT_TOLERANCE;
    def.max_vertices = 0;
    def.climb_min_vertices = PX_HULL_HILL_CLIMB_MIN_VERTICES;
    def.internal_value = HULL_COOKIE;
    return def;
}

px_status px_hull_create(const float* points, int count, const px_hull_def* def, px_hull** hull)
{
    if (hull == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *hull = NULL;
    if (points == NULL || count <= 0 || count > HULL_MAX_POINTS)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_hull_def d = def != NULL ? *def : px_hull_default_def();
    if (d.internal_value != HULL_COOKIE || !(d.tolerance > 0.0f) || !px_is_finite(d.tolerance) ||
        d.max_vertices < 0 || d.climb_min_vertices < 1)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    hull_build b;
    memset(&b, 0, sizeof(b));
    if (pxi_allocator_resolve(&d.allocator, &b.alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    b.points = points;
    b.n = count;
    b.max_vertices = d.max_vertices;
    b.climb_min_vertices = d.climb_min_vertices;
    b.status = PX_OK;
    /* bounding box and magnitude, in double (float sides overflow for coordinates near FLT_MAX) */
    double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
    for (int i = 0; i < count; ++i)
    {
        const float* p = points + 3 * (size_t)i;
        if (!px_v3_is_finite(p))
        {
            return PX_ERR_NON_FINITE;
        }
        for (int k = 0; k < 3; ++k)
        {
            lo[k] = p[k] < lo[k] ? p[k] : lo[k];
            hi[k] = p[k] > hi[k] ? p[k] : hi[k];
        }
    }
    double side = 0.0, mag = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        side = hi[k] - lo[k] > side ? hi[k] - lo[k] : side;
        mag = fabs(lo[k]) > mag ? fabs(lo[k]) : mag;
        mag = fabs(hi[k]) > mag ? fabs(hi[k]) : mag;
    }
    int dimension = 0;
    /* One point when the spread is within float rounding of the coordinates (two ulps of the largest):
     * no relative tolerance can tell such points apart. */
    bool ok;
    if (side <= 2.0 * FLT_EPSILON * mag)
    {
        const int32_t first = 0;
        ok = pxi_hull_result_polygon(&b, &first, 1);
    }
    else
    {
        int exponent;
        frexp(side, &exponent); /* side < 2^exponent */
        double scale = ldexp(1.0, HULL_GRID_BITS - exponent);
        /* half the tolerance for each of the two approximations, dropping points and merging faces, so that
         * together they stay within it (see the file comment) */
        b.eps = 0.5 * (double)d.tolerance * side * scale;
        ok = snap(&b, lo, scale) && build(&b, &dimension);
    }
    px_hull* result = NULL;
    ok = ok && emit(&b, dimension, &result);
    px_status status = ok ? PX_OK : (b.status != PX_OK ? b.status : PX_ERR_OUT_OF_MEMORY);
    build_free(&b);
    if (status != PX_OK)
    {
        return status;
    }
    result->climb_min_vertices = d.climb_min_vertices;
    *hull = result;
    if (b.capacity_hit)
    {
        return PX_WARN_CAPACITY;
    }
    return dimension < 3 ? PX_WARN_DEGENERATE : PX_OK;
}

void px_hull_destroy(px_hull* hull)
{
    if (hull != NULL)
    {
        px_allocator a = hull->allocator; /* the block holds the allocator: copy it out first */
        pxi_free(&a, hull->block, hull->block_size);
    }
}

int px_hull_dimension(const px_hull* hull)
{
    return hull != NULL ? hull->dimension : 0;
}

int px_hull_vertex_count(const px_hull* hull)
{
    return hull != NULL ? hull->vertex_count : 0;
}

const float* px_hull_vertices(const px_hull* hull)
{
    return hull != NULL ? hull->vertices : NULL;
}

int px_hull_face_count(const px_hull* hull)
{
    return hull != NULL ? hull->face_count : 0;
}

const px_hull_face* px_hull_faces(const px_hull* hull)
{
    return hull != NULL ? hull->faces : NULL;
}

const int32_t* px_hull_face_indices(const px_hull* hull)
{
    return hull != NULL ? hull->face_indices : NULL;
}

int px_hull_edge_count(const px_hull* hull)
{
    return hull != NULL ? hull->edge_count : 0;
}

const int32_t* px_hull_edges(const px_hull* hull)
{
    return hull != NULL ? hull->edges : NULL;
}

int px_hull_vertex_neighbors(const px_hull* hull, int v, const int32_t** neighbors)
{
    if (hull == NULL || v < 0 || v >= hull->vertex_count)
    {
        if (neighbors != NULL)
        {
            *neighbors = NULL;
        }
        return 0;
    }
    int32_t begin = hull->adjacency_offsets[v];
    if (neighbors != NULL)
    {
        *neighbors = hull->adjacency != NULL ? hull->adjacency + begin : NULL;
    }
    return hull->adjacency_offsets[v + 1] - begin;
}

px_shape px_shape_from_hull(const px_hull* hull)
{
    px_shape s = px_shape_hull(hull != NULL ? hull->vertices : NULL, hull != NULL ? hull->vertex_count : 0);
    s.hull.built = hull;
    return s;
}

/* ------------------------------------------------------------------------------------------------------
 * Hill climbing
 * ------------------------------------------------------------------------------------------------------ */

int32_t pxi_hull_climb_cell(const struct px_hull* hull, const pxi_dir_cell* c, int k, float best, const vec3 d,
                            int32_t start)
{
    int32_t cur = hull->climb_record[pxi_hull_cell_vertex(c, k)];
    if (start >= 0)
    {
        float warm = pxi_hull_climb_dot(hull, hull->climb_nodes[start].v.p, d);
        if (!(warm < best))
        {
            cur = start; /* also for a NaN direction: the start comes back */
            best = warm;
        }
    }
    return pxi_hull_climb_from(hull, d, cur, best);
}

int32_t pxi_hull_climb_record(const struct px_hull* hull, const vec3 d, int32_t start)
{
    const pxi_dir_cell* c = pxi_hull_cell(hull, d);
    float best;
    int k = pxi_hull_cell_best(hull, c, d, &best);
    if (!pxi_hull_cell_settles(c))
    {
        return pxi_hull_climb_cell(hull, c, k, best, d, start);
    }
    if (start >= 0 && !(pxi_hull_climb_dot(hull, hull->climb_nodes[start].v.p, d) < best))
    {
        return start; /* as high as the best candidate (or a NaN direction): ties keep the start */
    }
    return hull->climb_record[c->index[k]];
}

/* The climb, specialized by relative: whether the hull's climb_origin is not zero (the plain dot products
 * of a hull near the origin skip its subtractions: 4% of a repeated GJK query on 512 vertices). */
PX_INLINE int32_t climb_from(const struct px_hull* hull, const vec3 d, int32_t cur, float best, bool relative)
{
    static const float zero[3] = { 0.0f, 0.0f, 0.0f };
    const float* o = relative ? hull->climb_origin : zero;
    const pxi_climb_node* nodes = hull->climb_nodes;
    if (!(best == best))
    {
        return cur; /* NaN direction (every comparison below would fail anyway) */
    }
    for (;;)
    {
        /* hot loop: steepest ascent over the neighbours stored in the record; a move needs a strictly
         * larger dot product, so it cannot cycle */
        int32_t nx = cur;
        const pxi_climb_node* e = &nodes[cur + 2];
        for (int32_t k = 0, count = nodes[cur + 1].meta.count; k < count; ++k)
        {
            const float* p = e[k].v.p;
            float dot = relative ? ((p[0] - o[0]) * d[0] + (p[1] - o[1]) * d[1]) + (p[2] - o[2]) * d[2]
                                 : (p[0] * d[0] + p[1] * d[1]) + p[2] * d[2];
            if (dot > best)
            {
                best = dot;
                nx = e[k].v.link;
            }
        }
        if (nx != cur)
        {
            cur = nx;
            continue;
        }
        if (!nodes[cur + 1].meta.twisted)
        {
            return cur;
        }
        /* a local maximum of the edges: on a slightly twisted merged face a corner can be one, so the other
         * vertices of such faces are checked before stopping */
        int32_t v = nodes[cur].v.link;
        for (int32_t k = hull->climb_face_offsets[v], end = hull->climb_face_offsets[v + 1]; k < end; ++k)
        {
            const px_hull_face* f = &hull->faces[hull->climb_faces[k]];
            for (int i = 0; i < f->count; ++i)
            {
                int32_t w = hull->face_indices[f->first + i];
                float dot = pxi_hull_climb_dot(hull, hull->vertices + 3 * (size_t)w, d);
                if (dot > best)
                {
                    best = dot;
                    nx = hull->climb_record[w];
                }
            }
        }
        if (nx == cur)
        {
            return cur;
        }
        cur = nx;
    }
}

int32_t pxi_hull_climb_from(const struct px_hull* hull, const vec3 d, int32_t cur, float best)
{
    const bool relative = hull->climb_origin[0] != 0.0f || hull->climb_origin[1] != 0.0f || hull->climb_origin[2] != 0.0f;
    return relative ? climb_from(hull, d, cur, best, true) : climb_from(hull, d, cur, best, false);
}
