/* Mesh objects: creation with validation, OBJ loading, accessors. The tree is built in mesh_build.c and
 * queried in mesh_query.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_internal.h"

#define MESH_COOKIE 0x4d455348 /* "MESH" */

px_mesh_def px_mesh_default_def(void)
{
    px_mesh_def def;
    memset(&def, 0, sizeof(def));
    def.leaf_triangles = 4;
    def.sah_bins = 16;
    def.find_active_edges = true;
    def.internal_value = MESH_COOKIE;
    return def;
}

static void mesh_free_arrays(px_mesh* m)
{
    pxi_free(&m->allocator, m->vertices, (size_t)m->vertex_count * 3 * sizeof(float));
    pxi_free(&m->allocator, m->indices, (size_t)m->triangle_count * 3 * sizeof(int32_t));
    pxi_free(&m->allocator, m->active_edges, (size_t)m->triangle_count);
    pxi_free(&m->allocator, m->edge_adj, (size_t)m->triangle_count * 3 * sizeof(int32_t));
    m->vertices = NULL;
    m->indices = NULL;
    m->active_edges = NULL;
    m->edge_adj = NULL;
}

/* ------------------------------------------------------------------------------------------------------ */
/* Active edges                                                                                            */
/* ------------------------------------------------------------------------------------------------------ */

/* Which edges are active (mesh.h, px_mesh_active_edges), in three passes over the triangles:
 *  1. Weld: every vertex a triangle uses gets a canonical id, the first vertex (in index order of the
 *     triangles) at exactly its position (+0 and -0 alike), found with an open-addressing hash table of the
 *     positions' bits. Expected O(n).
 *  2. Bucket the triangles' edges by their lower canonical end (a counting sort), then sort each bucket by
 *     the higher end (insertion sort for the usual handful, qsort beyond): equal ends are one edge. O(n)
 *     for ordinary meshes, O(n log n) whatever the valences.
 *  3. An edge of one triangle is a boundary (active); of three or more, active; of two, active from the
 *     side it is convex to when their normals (the neighbour's reversed when it winds the other way) differ
 *     by more than PX_MESH_ACTIVE_EDGE_ANGLE.
 * The normals and the convexity test are computed in double from the float positions. Degenerate triangles
 * (repeated positions, or a height over the longest edge below EDGE_MIN_ASPECT of it) have all their
 * edges active and take no part in the matching. Temporary memory: 4 bytes per vertex for the ids, the
 * hash table (8 to 16 bytes per used vertex, freed before the rest), 4 bytes per vertex for the buckets
 * and 8 bytes per edge, 24 bytes per triangle for the normals (each computed once). */

/* A triangle whose height over its longest edge is below this fraction of it is degenerate here (the
 * manifolds' sliver test, PXI_TRIANGLE_MIN_ASPECT, uses the same bound). */
#define EDGE_MIN_ASPECT 1.0e-4
#define EDGE_DEGENERATE 0x80u /* temporary mark of a degenerate triangle in active_edges */
#define EDGE_ALL 0x3Fu        /* every edge active from both sides */

/* One edge of a triangle in a bucket: its higher canonical end and which it is (3 * triangle + edge). */
typedef struct edge_ref
{
    int32_t hi;
    int32_t he;
} edge_ref;

static uint32_t float_key(float f)
{
    uint32_t u = 0u;
    if (f != 0.0f) /* +0 and -0 weld */
    {
        memcpy(&u, &f, sizeof(u));
    }
    return u;
}

static uint64_t position_hash(const uint32_t k[3])
{
    uint64_t h = (uint64_t)k[0] * 0x9E3779B97F4A7C15ull ^ (uint64_t)k[1] * 0xC2B2AE3D27D4EB4Full ^
                 (uint64_t)k[2] * 0x165667B19E3779F9ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return h;
}

/* Pass 1: canon[v] for every vertex a triangle uses (others stay -1). table has mask + 1 slots. */
static void weld_vertices(const px_mesh* m, int32_t* canon, int32_t* table, uint64_t mask)
{
    for (int32_t v = 0; v < m->vertex_count; ++v)
    {
        canon[v] = -1;
    }
    for (uint64_t s = 0; s <= mask; ++s)
    {
        table[s] = -1;
    }
    int32_t n = 3 * m->triangle_count;
    for (int32_t j = 0; j < n; ++j)
    {
        int32_t v = m->indices[j];
        if (canon[v] >= 0)
        {
            continue;
        }
        const float* p = &m->vertices[3 * v];
        uint32_t k[3] = { float_key(p[0]), float_key(p[1]), float_key(p[2]) };
        uint64_t s = position_hash(k) & mask;
        for (;;)
        {
            int32_t u = table[s];
            if (u < 0)
            {
                table[s] = v;
                canon[v] = v;
                break;
            }
            const float* q = &m->vertices[3 * u];
            if (float_key(q[0]) == k[0] && float_key(q[1]) == k[1] && float_key(q[2]) == k[2])
            {
                canon[v] = u;
                break;
            }
            s = (s + 1u) & mask;
        }
    }
}

/* Unit normal of triangle t in double, or false when it is degenerate. */
static bool triangle_normal(const px_mesh* m, int32_t t, double n[3])
{
    const float* p[3];
    for (int i = 0; i < 3; ++i)
    {
        p[i] = &m->vertices[3 * m->indices[3 * t + i]];
    }
    double e[3][3];
    double longest2 = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        const float* a = p[i];
        const float* b = p[i == 2 ? 0 : i + 1];
        e[i][0] = (double)b[0] - a[0];
        e[i][1] = (double)b[1] - a[1];
        e[i][2] = (double)b[2] - a[2];
        double l2 = e[i][0] * e[i][0] + e[i][1] * e[i][1] + e[i][2] * e[i][2];
        longest2 = l2 > longest2 ? l2 : longest2;
    }
    /* e0 x (-e2) = (b - a) x (c - a) */
    n[0] = e[2][1] * e[0][2] - e[2][2] * e[0][1];
    n[1] = e[2][2] * e[0][0] - e[2][0] * e[0][2];
    n[2] = e[2][0] * e[0][1] - e[2][1] * e[0][0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    /* |n| = longest * height */
    if (!(len > EDGE_MIN_ASPECT * longest2) || !isfinite(len))
    {
        return false;
    }
    n[0] /= len;
    n[1] /= len;
    n[2] /= len;
    return true;
}

/* Signed distance of the vertex opposite edge `edge` of triangle `other` from the plane through vertex `edge`
 * of triangle t with unit normal n, and the distance of that vertex from the edge's start (its scale). */
static double opposite_side(const px_mesh* m, int32_t t, int edge, const double* n, int32_t other,
                            int other_edge, double* scale)
{
    const float* p = &m->vertices[3 * m->indices[3 * t + edge]];
    const float* w = &m->vertices[3 * m->indices[3 * other + (other_edge + 2) % 3]];
    double d[3] = { (double)w[0] - p[0], (double)w[1] - p[1], (double)w[2] - p[2] };
    *scale = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
}

/* The bits of edge `edge` of triangle t (unit normal n) for the neighbour across it: active from the front
 * when the neighbour's far vertex is behind t's plane (convex seen from the front), from the back when it
 * is in front; both for a fold back onto the plane. */
static unsigned convex_bits(const px_mesh* m, int32_t t, int edge, const double* n, int32_t other,
                            int other_edge)
{
    double scale;
    double side = opposite_side(m, t, edge, n, other, other_edge, &scale);
    double eps = 1.0e-9 * scale;
    unsigned bits = 0u;
    if (side <= eps)
    {
        bits |= PX_MESH_EDGE_FRONT(edge);
    }
    if (side >= -eps)
    {
        bits |= PX_MESH_EDGE_BACK(edge);
    }
    return bits;
}

/* Pass 3 for an edge shared by exactly two triangles (edge refs x and y, canonical ids canon, the unit
 * normals of pass 2: only non-degenerate triangles have edge refs). */
static void classify_pair(px_mesh* m, const int32_t* canon, const double (*normals)[3], int32_t x, int32_t y)
{
    int32_t t1 = x / 3, t2 = y / 3;
    int e1 = (int)(x % 3), e2 = (int)(y % 3);
    const double* n1 = normals[t1];
    const double* n2 = normals[t2];
    if (t1 != t2)
    {
        m->edge_adj[x] = y;
        m->edge_adj[y] = x;
    }
    else
    {
        m->active_edges[t1] |= (uint8_t)(PX_MESH_EDGE_FRONT(e1) | PX_MESH_EDGE_BACK(e1));
        m->active_edges[t2] |= (uint8_t)(PX_MESH_EDGE_FRONT(e2) | PX_MESH_EDGE_BACK(e2));
        return;
    }
    /* consistently wound neighbours run the shared edge in opposite directions */
    bool same_winding = canon[m->indices[3 * t1 + e1]] != canon[m->indices[3 * t2 + e2]];
    double c = n1[0] * n2[0] + n1[1] * n2[1] + n1[2] * n2[2];
    if (!same_winding)
    {
        c = -c;
    }
    const double flat_cos = cos((double)PX_MESH_ACTIVE_EDGE_ANGLE * 3.14159265358979323846 / 180.0);
    if (c >= flat_cos)
    {
        return; /* flat: inactive from both sides */
    }
    m->active_edges[t1] |= (uint8_t)convex_bits(m, t1, e1, n1, t2, e2);
    m->active_edges[t2] |= (uint8_t)convex_bits(m, t2, e2, n2, t1, e1);
}

static int compare_edge_refs(const void* a, const void* b)
{
    const edge_ref* x = a;
    const edge_ref* y = b;
    if (x->hi != y->hi)
    {
        return x->hi < y->hi ? -1 : 1;
    }
    return (x->he > y->he) - (x->he < y->he);
}

static void sort_bucket(edge_ref* r, int32_t n)
{
    if (n > 16)
    {
        qsort(r, (size_t)n, sizeof(*r), compare_edge_refs);
        return;
    }
    for (int32_t i = 1; i < n; ++i)
    {
        edge_ref x = r[i];
        int32_t j = i;
        while (j > 0 && compare_edge_refs(&r[j - 1], &x) > 0)
        {
            r[j] = r[j - 1];
            --j;
        }
        r[j] = x;
    }
}

px_status pxi_mesh_find_active_edges(px_mesh* m)
{
    int32_t nt = m->triangle_count;
    int32_t nv = m->vertex_count;
    if (nt == 0)
    {
        return PX_OK;
    }
    const px_allocator* alloc = &m->allocator;
    /* pass 1 */
    uint64_t used = (uint64_t)(3 * (int64_t)nt < (int64_t)nv ? 3 * (int64_t)nt : (int64_t)nv);
    uint64_t slots = 16u;
    while (slots < 2u * used)
    {
        slots *= 2u;
    }
    int32_t* canon = pxi_alloc(alloc, (size_t)nv * sizeof(int32_t));
    int32_t* table = pxi_alloc(alloc, (size_t)slots * sizeof(int32_t));
    if (canon == NULL || table == NULL)
    {
        pxi_free(alloc, table, (size_t)slots * sizeof(int32_t));
        pxi_free(alloc, canon, (size_t)nv * sizeof(int32_t));
        return PX_ERR_OUT_OF_MEMORY;
    }
    weld_vertices(m, canon, table, slots - 1u);
    pxi_free(alloc, table, (size_t)slots * sizeof(int32_t));

    /* pass 2 */
    size_t edge_count = 3 * (size_t)nt;
    int32_t* start = pxi_alloc(alloc, ((size_t)nv + 1) * sizeof(int32_t));
    edge_ref* refs = pxi_alloc(alloc, edge_count * sizeof(edge_ref));
    double (*normals)[3] = pxi_alloc(alloc, (size_t)nt * sizeof(*normals));
    if (start == NULL || refs == NULL || normals == NULL)
    {
        pxi_free(alloc, normals, (size_t)nt * sizeof(*normals));
        pxi_free(alloc, refs, edge_count * sizeof(edge_ref));
        pxi_free(alloc, start, ((size_t)nv + 1) * sizeof(int32_t));
        pxi_free(alloc, canon, (size_t)nv * sizeof(int32_t));
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(start, 0, ((size_t)nv + 1) * sizeof(int32_t));
    for (size_t i = 0; i < edge_count; ++i)
    {
        m->edge_adj[i] = -1;
    }
    for (int32_t t = 0; t < nt; ++t)
    {
        const int32_t* ix = &m->indices[3 * t];
        int32_t c0 = canon[ix[0]], c1 = canon[ix[1]], c2 = canon[ix[2]];
        if (c0 == c1 || c1 == c2 || c2 == c0 || !triangle_normal(m, t, normals[t]))
        {
            m->active_edges[t] = (uint8_t)(EDGE_ALL | EDGE_DEGENERATE);
            continue;
        }
        m->active_edges[t] = 0u;
        int32_t c[3] = { c0, c1, c2 };
        for (int i = 0; i < 3; ++i)
        {
            int32_t a = c[i], b = c[i == 2 ? 0 : i + 1];
            start[(a < b ? a : b) + 1]++;
        }
    }
    for (int32_t v = 0; v < nv; ++v)
    {
        start[v + 1] += start[v];
    }
    /* fill: start[lo] advances to the end of bucket lo, which is the start of bucket lo + 1 */
    for (int32_t t = 0; t < nt; ++t)
    {
        if (m->active_edges[t] & EDGE_DEGENERATE)
        {
            continue;
        }
        const int32_t* ix = &m->indices[3 * t];
        int32_t c[3] = { canon[ix[0]], canon[ix[1]], canon[ix[2]] };
        for (int i = 0; i < 3; ++i)
        {
            int32_t a = c[i], b = c[i == 2 ? 0 : i + 1];
            edge_ref* r = &refs[start[a < b ? a : b]++];
            r->hi = a < b ? b : a;
            r->he = 3 * t + i;
        }
    }

    /* pass 3: bucket v now spans [start[v - 1], start[v]) (bucket 0 from 0) */
    int32_t begin = 0;
    for (int32_t v = 0; v < nv; ++v)
    {
        int32_t end = start[v];
        sort_bucket(&refs[begin], end - begin);
        for (int32_t i = begin; i < end;)
        {
            int32_t j = i + 1;
            while (j < end && refs[j].hi == refs[i].hi)
            {
                ++j;
            }
            if (j - i == 2)
            {
                classify_pair(m, canon, (const double (*)[3])normals, refs[i].he, refs[i + 1].he);
            }
            else
            {
                for (int32_t k = i; k < j; ++k)
                {
                    int e = (int)(refs[k].he % 3);
                    m->active_edges[refs[k].he / 3] |= (uint8_t)(PX_MESH_EDGE_FRONT(e) | PX_MESH_EDGE_BACK(e));
                }
            }
            i = j;
        }
        begin = end;
    }
    for (int32_t t = 0; t < nt; ++t)
    {
        m->active_edges[t] &= (uint8_t)EDGE_ALL;
    }
    pxi_free(alloc, normals, (size_t)nt * sizeof(*normals));
    pxi_free(alloc, refs, edge_count * sizeof(edge_ref));
    pxi_free(alloc, start, ((size_t)nv + 1) * sizeof(int32_t));
    pxi_free(alloc, canon, (size_t)nv * sizeof(int32_t));
    return PX_OK;
}

px_status px_mesh_create(const float* vertices, int vertex_count, const int32_t* indices, int triangle_count,
                         const px_mesh_def* def, px_mesh** mesh)
{
    if (mesh == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *mesh = NULL;
    px_mesh_def d = def != NULL ? *def : px_mesh_default_def();
    px_allocator alloc;
    if (d.internal_value != MESH_COOKIE || d.leaf_triangles < 1 || d.leaf_triangles > PX_MESH_MAX_LEAF_TRIANGLES ||
        d.sah_bins < 4 || d.sah_bins > 64 || pxi_allocator_resolve(&d.allocator, &alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (vertex_count < 0 || vertex_count > PX_MESH_MAX_COUNT || triangle_count < 0 ||
        triangle_count > PX_MESH_MAX_COUNT || (vertices == NULL && vertex_count > 0) ||
        (indices == NULL && triangle_count > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < 3 * triangle_count; ++i)
    {
        if (indices[i] < 0 || indices[i] >= vertex_count)
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    for (int i = 0; i < 3 * triangle_count; ++i)
    {
        const float* v = &vertices[3 * indices[i]];
        if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
        {
            return PX_ERR_NON_FINITE;
        }
    }

    px_mesh* m = pxi_alloc(&alloc, sizeof(px_mesh));
    if (m == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(m, 0, sizeof(*m));
    m->allocator = alloc;
    m->use_avx2 = pxi_mesh_cpu_has_avx2();
    m->vertex_count = vertex_count;
    m->triangle_count = triangle_count;
    if (vertex_count > 0)
    {
        m->vertices = pxi_alloc(&alloc, (size_t)vertex_count * 3 * sizeof(float));
    }
    if (triangle_count > 0)
    {
        m->indices = pxi_alloc(&alloc, (size_t)triangle_count * 3 * sizeof(int32_t));
        if (d.find_active_edges)
        {
            m->active_edges = pxi_alloc(&alloc, (size_t)triangle_count);
            m->edge_adj = pxi_alloc(&alloc, (size_t)triangle_count * 3 * sizeof(int32_t));
        }
    }
    if ((vertex_count > 0 && m->vertices == NULL) ||
        (triangle_count > 0 &&
         (m->indices == NULL || (d.find_active_edges && (m->active_edges == NULL || m->edge_adj == NULL)))))
    {
        mesh_free_arrays(m);
        pxi_free(&alloc, m, sizeof(px_mesh));
        return PX_ERR_OUT_OF_MEMORY;
    }
    if (vertex_count > 0)
    {
        memcpy(m->vertices, vertices, (size_t)vertex_count * 3 * sizeof(float));
    }
    if (triangle_count > 0)
    {
        memcpy(m->indices, indices, (size_t)triangle_count * 3 * sizeof(int32_t));
    }
    px_status status = m->active_edges != NULL ? pxi_mesh_find_active_edges(m) : PX_OK;
    if (status == PX_OK)
    {
        status = pxi_mesh_build(m, d.leaf_triangles, d.sah_bins, d.tasks);
    }
    if (status != PX_OK)
    {
        mesh_free_arrays(m);
        pxi_free(&alloc, m, sizeof(px_mesh));
        return status;
    }
    *mesh = m;
    return PX_OK;
}

px_status px_mesh_load_obj_report(const char* path, const px_mesh_def* def, px_mesh** mesh, px_obj_error* error)
{
    if (mesh != NULL)
    {
        *mesh = NULL;
    }
    if (path == NULL || mesh == NULL)
    {
        if (error != NULL)
        {
            error->line = 0;
            strcpy(error->message, "invalid argument");
        }
        return PX_ERR_INVALID_ARGUMENT;
    }
    const px_allocator* alloc = def != NULL ? &def->allocator : NULL;
    px_obj_data data = { 0 };
    px_obj_error local;
    px_obj_error* err = error != NULL ? error : &local;
    px_status status = px_obj_load(path, alloc, &data, err);
    if (PX_FAILED(status))
    {
        return status;
    }
    status = px_mesh_create(data.vertices, data.vertex_count, data.indices, data.triangle_count, def, mesh);
    px_obj_free(&data);
    if (PX_FAILED(status))
    {
        err->line = 0;
        strcpy(err->message, status == PX_ERR_OUT_OF_MEMORY ? "out of memory" : "invalid mesh or options");
    }
    return status;
}

px_status px_mesh_load_obj(const char* path, const px_mesh_def* def, px_mesh** mesh)
{
    return px_mesh_load_obj_report(path, def, mesh, NULL);
}

void px_mesh_destroy(px_mesh* mesh)
{
    if (mesh == NULL)
    {
        return;
    }
    px_allocator alloc = mesh->allocator;
    pxi_mesh_free_tree(mesh);
    mesh_free_arrays(mesh);
    pxi_free(&alloc, mesh, sizeof(px_mesh));
}

int px_mesh_triangle_count(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->triangle_count : 0;
}

int px_mesh_vertex_count(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->vertex_count : 0;
}

const float* px_mesh_vertices(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->vertices : NULL;
}

const int32_t* px_mesh_indices(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->indices : NULL;
}

const uint8_t* px_mesh_active_edges(const px_mesh* mesh)
{
    return mesh != NULL ? mesh->active_edges : NULL;
}

px_aabb px_mesh_bounds(const px_mesh* mesh)
{
    if (mesh != NULL)
    {
        return mesh->bounds;
    }
    px_aabb box = { { INFINITY, INFINITY, INFINITY }, { -INFINITY, -INFINITY, -INFINITY } };
    return box;
}

px_mesh_stats px_mesh_get_stats(const px_mesh* mesh)
{
    px_mesh_stats s;
    memset(&s, 0, sizeof(s));
    if (mesh == NULL)
    {
        return s;
    }
    s.node_count = mesh->node_count;
    s.leaf_count = mesh->leaf_count;
    s.depth = mesh->depth;
    s.sah_cost = mesh->sah_cost;
    s.memory_bytes = sizeof(px_mesh) + (size_t)mesh->vertex_count * 3 * sizeof(float) +
                     (size_t)mesh->triangle_count * 3 * sizeof(int32_t) +
                     (mesh->active_edges != NULL ? (size_t)mesh->triangle_count * (1 + 3 * sizeof(int32_t)) : 0) +
                     (size_t)mesh->node_count * sizeof(pxi_mesh_node) +
                     (size_t)mesh->packet_count * sizeof(pxi_mesh_packet);
    return s;
}

/* Whether vertex i of the mesh sits at position p (welded vertices share positions, not indices). */
static bool vertex_at(const px_mesh* mesh, int32_t i, const float* p)
{
    const float* q = &mesh->vertices[3 * i];
    return q[0] == p[0] && q[1] == p[1] && q[2] == p[2];
}

int pxi_mesh_vertex_ring(const px_mesh* mesh, int32_t triangle, int k, int32_t (*ring)[2], int cap)
{
    const int32_t* adj = mesh->edge_adj;
    if (adj == NULL || cap <= 0 || triangle < 0 || triangle >= mesh->triangle_count || k < 0 || k > 2)
    {
        return 0;
    }
    const int32_t* own = &mesh->indices[3 * triangle];
    const float* vp = &mesh->vertices[3 * own[k]];
    ring[0][0] = own[(k + 1) % 3];
    ring[0][1] = own[(k + 2) % 3];
    int count = 1;
    /* edge i runs from corner i to corner i + 1: the vertex's edges are k (leaving it) and k + 2 (entering) */
    for (int way = 0; way < 2; ++way)
    {
        int32_t t = triangle;
        int edge = way == 0 ? k : (k + 2) % 3;
        while (count < cap)
        {
            const int32_t across = adj[3 * t + edge];
            if (across < 0)
            {
                break; /* a boundary: the other way round next */
            }
            const int32_t tn = across / 3;
            const int en = (int)(across % 3);
            if (tn == triangle)
            {
                return count; /* round the vertex */
            }
            const int32_t* ix = &mesh->indices[3 * tn];
            int kn;
            if (vertex_at(mesh, ix[en], vp))
            {
                kn = en;
            }
            else if (vertex_at(mesh, ix[(en + 1) % 3], vp))
            {
                kn = (en + 1) % 3;
            }
            else
            {
                break; /* not reached: the shared edge holds the vertex */
            }
            ring[count][0] = ix[(kn + 1) % 3];
            ring[count][1] = ix[(kn + 2) % 3];
            ++count;
            /* the vertex's other edge in tn (corner kn lies on edges kn and kn + 2; en is one of them) */
            edge = en == kn ? (kn + 2) % 3 : kn;
            t = tn;
        }
    }
    return count;
}
