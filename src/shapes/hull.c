/* Convex hull of a point cloud (hull.h) and hill climbing over its vertex adjacency (hull_internal.h).
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
#include "hull_internal.h"

#include "../core/core_internal.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HULL_COOKIE 0x50584855 /* "PXHU" */
#define HULL_DEFAULT_TOLERANCE 1.0e-5f

/* Grid resolution: coordinates in [0, 2^30]. 30 bits keep every 2x2 minor of orient3d inside int64. */
#define HULL_GRID_BITS 30
#define HULL_GRID_SCALE ((double)(1 << HULL_GRID_BITS))

/* Largest accepted point count: keeps 3 x (2 x count) half-edge indices inside int32. */
#define HULL_MAX_POINTS (1 << 28)

/* ------------------------------------------------------------------------------------------------------
 * Exact predicates on grid points (coordinates in [0, 2^30])
 * ------------------------------------------------------------------------------------------------------ */

/* Split m = hi * 2^31 + lo with 0 <= lo < 2^31 (m may be negative). */
static void split31(int64_t m, int64_t* hi, int64_t* lo)
{
    *lo = (int64_t)((uint64_t)m & 0x7FFFFFFFu);
    *hi = (m - *lo) / 2147483648LL;
}

/* Sign of det[b - a, c - a, d - a]: +1 when d lies on the side (b - a) x (c - a) points to, -1 on the other
 * side, 0 when the four points are coplanar. Exact: the differences have 31 bits, the 2x2 minors 62 bits
 * (int64), and the three 92-bit products are summed as high x 2^31 + low parts that each stay in int64. */
static int orient3d(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d)
{
    int64_t ux = (int64_t)b[0] - a[0], uy = (int64_t)b[1] - a[1], uz = (int64_t)b[2] - a[2];
    int64_t vx = (int64_t)c[0] - a[0], vy = (int64_t)c[1] - a[1], vz = (int64_t)c[2] - a[2];
    int64_t w[3] = { (int64_t)d[0] - a[0], (int64_t)d[1] - a[1], (int64_t)d[2] - a[2] };
    int64_t m[3] = { uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx };
    int64_t hi = 0, lo = 0;
    for (int i = 0; i < 3; ++i)
    {
        int64_t mh, ml;
        split31(m[i], &mh, &ml);
        hi += w[i] * mh; /* |w| <= 2^30, |mh| <= 2^30 + 1: three terms < 2^62 */
        lo += w[i] * ml; /* 0 <= ml < 2^31: three terms < 3 x 2^61 */
    }
    int64_t lh, ll;
    split31(lo, &lh, &ll);
    hi += lh; /* det = hi * 2^31 + ll with 0 <= ll < 2^31 */
    if (hi != 0)
    {
        return hi > 0 ? 1 : -1;
    }
    return ll > 0 ? 1 : 0;
}

/* Exact normal (b - a) x (c - a) of grid points; each component fits int64 (< 2^62). */
static void cross_exact(const int32_t* a, const int32_t* b, const int32_t* c, double n[3])
{
    int64_t ux = (int64_t)b[0] - a[0], uy = (int64_t)b[1] - a[1], uz = (int64_t)b[2] - a[2];
    int64_t vx = (int64_t)c[0] - a[0], vy = (int64_t)c[1] - a[1], vz = (int64_t)c[2] - a[2];
    n[0] = (double)(uy * vz - uz * vy);
    n[1] = (double)(uz * vx - ux * vz);
    n[2] = (double)(ux * vy - uy * vx);
}

static double dot3(const double* a, const double* b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ------------------------------------------------------------------------------------------------------
 * Build state and growable arrays (all memory through the hull's allocator)
 * ------------------------------------------------------------------------------------------------------ */

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

static void* build_alloc(hull_build* b, size_t count, size_t elem, size_t* bytes)
{
    if (!pxi_size_mul(count, elem, bytes) || *bytes == 0)
    {
        b->status = PX_ERR_OUT_OF_MEMORY;
        return NULL;
    }
    void* p = pxi_alloc(&b->alloc, *bytes);
    if (p == NULL)
    {
        b->status = PX_ERR_OUT_OF_MEMORY;
    }
    return p;
}

/* Grow *data (capacity *cap elements of elem bytes) to hold need elements; geometric growth. */
static bool grow(hull_build* b, void** data, int* cap, size_t elem, int need)
{
    if (need <= *cap)
    {
        return true;
    }
    if (b->status != PX_OK)
    {
        return false;
    }
    int new_cap = *cap > 0 ? *cap : 16;
    while (new_cap < need)
    {
        if (new_cap > INT_MAX / 2)
        {
            b->status = PX_ERR_OUT_OF_MEMORY;
            return false;
        }
        new_cap *= 2;
    }
    size_t bytes;
    void* p = build_alloc(b, (size_t)new_cap, elem, &bytes);
    if (p == NULL)
    {
        return false;
    }
    if (*cap > 0)
    {
        memcpy(p, *data, (size_t)*cap * elem);
        pxi_free(&b->alloc, *data, (size_t)*cap * elem);
    }
    *data = p;
    *cap = new_cap;
    return true;
}

static void release(hull_build* b, void* data, int cap, size_t elem)
{
    if (data != NULL && cap > 0)
    {
        pxi_free(&b->alloc, data, (size_t)cap * elem);
    }
}

static bool ivec_push(hull_build* b, ivec* v, int32_t x)
{
    if (v->count == v->cap && !grow(b, (void**)&v->data, &v->cap, sizeof(int32_t), v->count + 1))
    {
        return false;
    }
    v->data[v->count++] = x;
    return true;
}

static bool heap_push(hull_build* b, heap_item item)
{
    if (b->heap_count == b->heap_cap &&
        !grow(b, (void**)&b->heap, &b->heap_cap, sizeof(heap_item), b->heap_count + 1))
    {
        return false;
    }
    int i = b->heap_count++;
    while (i > 0)
    {
        int parent = (i - 1) / 2;
        if (!(b->heap[parent].key < item.key))
        {
            break;
        }
        b->heap[i] = b->heap[parent];
        i = parent;
    }
    b->heap[i] = item;
    return true;
}

static bool heap_pop(hull_build* b, heap_item* top)
{
    if (b->heap_count == 0)
    {
        return false;
    }
    *top = b->heap[0];
    heap_item last = b->heap[--b->heap_count];
    int i = 0;
    for (;;)
    {
        int child = 2 * i + 1;
        if (child >= b->heap_count)
        {
            break;
        }
        if (child + 1 < b->heap_count && b->heap[child].key < b->heap[child + 1].key)
        {
            ++child;
        }
        if (!(last.key < b->heap[child].key))
        {
            break;
        }
        b->heap[i] = b->heap[child];
        i = child;
    }
    if (b->heap_count > 0)
    {
        b->heap[i] = last;
    }
    return true;
}

static const int32_t* gp(const hull_build* b, int32_t i)
{
    return b->q + 3 * (size_t)i;
}

/* Grid point as doubles. */
static void gpd(const hull_build* b, int32_t i, double dest[3])
{
    const int32_t* p = gp(b, i);
    dest[0] = (double)p[0];
    dest[1] = (double)p[1];
    dest[2] = (double)p[2];
}

/* ------------------------------------------------------------------------------------------------------
 * Quickhull (3D)
 * ------------------------------------------------------------------------------------------------------ */

static double face_dist(const hull_build* b, const qh_face* f, int32_t p)
{
    const int32_t* x = gp(b, p);
    return f->n[0] * (double)x[0] + f->n[1] * (double)x[1] + f->n[2] * (double)x[2] - f->off;
}

/* Exact side of point p with respect to face f (as orient3d), with a floating-point filter: the plane
 * distance in double is off by less than 1e-5 grid units (a normal rounded from exact integers, coordinates
 * below 2^31), so beyond HULL_FILTER its sign is the exact one and orient3d is skipped. */
#define HULL_FILTER 1.0e-3
static int face_side(const hull_build* b, const qh_face* f, int32_t p)
{
    double d = face_dist(b, f, p);
    if (d > HULL_FILTER || d < -HULL_FILTER)
    {
        return d > 0.0 ? 1 : -1;
    }
    return orient3d(gp(b, f->v[0]), gp(b, f->v[1]), gp(b, f->v[2]), gp(b, p));
}

/* A new triangle a b c (counter-clockwise from outside) in a recycled or new slot; -1 on failure. */
static int32_t face_new(hull_build* b, int32_t a, int32_t v1, int32_t v2)
{
    int32_t id;
    if (b->free_faces.count > 0)
    {
        id = b->free_faces.data[--b->free_faces.count];
    }
    else
    {
        if (b->face_count == b->face_cap &&
            !grow(b, (void**)&b->faces, &b->face_cap, sizeof(qh_face), b->face_count + 1))
        {
            return -1;
        }
        id = b->face_count++;
    }
    qh_face* f = &b->faces[id];
    memset(f, 0, sizeof(*f));
    f->v[0] = a;
    f->v[1] = v1;
    f->v[2] = v2;
    f->adj[0] = f->adj[1] = f->adj[2] = -1;
    f->head = -1;
    f->near = -1;
    f->far_point = -1;
    f->stamp = ++b->stamp;
    f->alive = 1;
    /* the exact normal keeps even a sliver's plane accurate (rounding only when converted to double) */
    double n[3];
    cross_exact(gp(b, a), gp(b, v1), gp(b, v2), n);
    double len = sqrt(dot3(n, n));
    if (len > 0.0)
    {
        f->n[0] = n[0] / len;
        f->n[1] = n[1] / len;
        f->n[2] = n[2] / len;
    }
    double pa[3];
    gpd(b, a, pa);
    f->off = dot3(f->n, pa);
    return id;
}

/* Index of the edge of face g that runs from vertex from to vertex to, or -1. */
static int edge_of(const qh_face* g, int32_t from, int32_t to)
{
    for (int k = 0; k < 3; ++k)
    {
        if (g->v[k] == from && g->v[(k + 1) % 3] == to)
        {
            return k;
        }
    }
    return -1;
}

/* Put point p, at distance d above face id, into its outside set. */
static void face_take_outside(hull_build* b, int32_t id, int32_t p, double d)
{
    qh_face* f = &b->faces[id];
    b->next[p] = f->head;
    f->head = p;
    if (f->far_point < 0 || d > f->far_dist)
    {
        f->far_dist = d;
        f->far_point = p;
    }
}

/* Put point p, at distance d above face id, into its near set (d <= eps) or its outside set. */
static void face_take(hull_build* b, int32_t id, int32_t p, double d)
{
    if (d > b->eps)
    {
        face_take_outside(b, id, p, d);
        return;
    }
    qh_face* f = &b->faces[id];
    b->next[p] = f->near;
    f->near = p;
}

static bool face_queue(hull_build* b, int32_t id)
{
    const qh_face* f = &b->faces[id];
    if (f->head < 0)
    {
        return true;
    }
    heap_item item = { f->far_dist, id, 0, 0, f->stamp };
    return heap_push(b, item);
}

/* The first tetrahedron: four faces, neighbours linked, every other point assigned to the face it is
 * farthest outside of, or dropped when inside all four. */
static bool qh_start(hull_build* b, const int32_t s[4])
{
    int32_t v0 = s[0], v1 = s[1], v2 = s[2], v3 = s[3];
    if (orient3d(gp(b, v0), gp(b, v1), gp(b, v2), gp(b, v3)) > 0)
    {
        int32_t t = v1; /* make v3 lie below v0 v1 v2 */
        v1 = v2;
        v2 = t;
    }
    const int32_t tri[4][3] = { { v0, v1, v2 }, { v0, v3, v1 }, { v1, v3, v2 }, { v2, v3, v0 } };
    int32_t ids[4];
    for (int i = 0; i < 4; ++i)
    {
        ids[i] = face_new(b, tri[i][0], tri[i][1], tri[i][2]);
        if (ids[i] < 0)
        {
            return false;
        }
    }
    for (int i = 0; i < 4; ++i)
    {
        qh_face* f = &b->faces[ids[i]];
        for (int k = 0; k < 3; ++k)
        {
            for (int j = 0; j < 4; ++j)
            {
                if (j != i && edge_of(&b->faces[ids[j]], f->v[(k + 1) % 3], f->v[k]) >= 0)
                {
                    f->adj[k] = ids[j];
                }
            }
        }
    }
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (p == v0 || p == v1 || p == v2 || p == v3)
        {
            continue;
        }
        int32_t best = -1;
        double bd = 0.0; /* inside every face: inside the hull for good */
        for (int i = 0; i < 4; ++i)
        {
            double d = face_dist(b, &b->faces[ids[i]], p);
            if (d > bd)
            {
                bd = d;
                best = ids[i];
            }
        }
        if (best >= 0)
        {
            face_take(b, best, p, bd);
        }
    }
    b->vertex_count = 4;
    for (int i = 0; i < 4; ++i)
    {
        if (!face_queue(b, ids[i]))
        {
            return false;
        }
    }
    return true;
}

/* Remove point p from the outside set of face id (only after an inconsistent horizon, see qh_add). */
static void face_drop_point(hull_build* b, int32_t id, int32_t p)
{
    qh_face* f = &b->faces[id];
    int32_t* link = &f->head;
    while (*link >= 0 && *link != p)
    {
        link = &b->next[*link];
    }
    if (*link == p)
    {
        *link = b->next[p];
    }
    f->far_point = -1;
    for (int32_t x = f->head; x >= 0; x = b->next[x])
    {
        double d = face_dist(b, f, x);
        if (f->far_point < 0 || d > f->far_dist)
        {
            f->far_dist = d;
            f->far_point = x;
        }
    }
}

/* Add point p, outside face f0: delete the faces it sees, connect their horizon to p, and hand their outside
 * points to the new faces. Returns false on allocation failure. */
static bool qh_add(hull_build* b, int32_t f0, int32_t p)
{
    uint32_t pass = ++b->pass;
    b->stack.count = 0;
    b->visible.count = 0;
    b->horizon.count = 0;
    qh_face* f = &b->faces[f0];
    f->pass = pass;
    f->visible = 1;
    if (!ivec_push(b, &b->stack, f0) || !ivec_push(b, &b->visible, f0))
    {
        return false;
    }
    /* visible region: flood fill from f0 over faces that see p strictly (exact sign); coplanar faces stay */
    while (b->stack.count > 0)
    {
        int32_t id = b->stack.data[--b->stack.count];
        for (int k = 0; k < 3; ++k)
        {
            int32_t gid = b->faces[id].adj[k];
            qh_face* g = &b->faces[gid];
            if (g->pass == pass)
            {
                continue;
            }
            g->pass = pass;
            g->visible = (uint8_t)(face_side(b, g, p) > 0);
            if (g->visible && (!ivec_push(b, &b->stack, gid) || !ivec_push(b, &b->visible, gid)))
            {
                return false;
            }
        }
    }
    /* horizon: edges from a visible to a hidden face; each start vertex must occur once (a simple cycle) */
    bool simple = true;
    for (int i = 0; i < b->visible.count; ++i)
    {
        int32_t id = b->visible.data[i];
        for (int k = 0; k < 3; ++k)
        {
            const qh_face* fv = &b->faces[id];
            if (b->faces[fv->adj[k]].visible)
            {
                continue;
            }
            int32_t start = fv->v[k];
            if (b->scratch[start] >= 0)
            {
                simple = false;
            }
            b->scratch[start] = b->horizon.count;
            if (!ivec_push(b, &b->horizon, id * 3 + k))
            {
                return false;
            }
        }
    }
    int hn = b->horizon.count;
    b->order.count = 0;
    int32_t cur = 0;
    for (int j = 0; simple && j < hn; ++j)
    {
        if (!ivec_push(b, &b->order, cur))
        {
            return false;
        }
        int32_t e = b->horizon.data[cur];
        int32_t end = b->faces[e / 3].v[(e % 3 + 1) % 3];
        cur = b->scratch[end];
        simple = cur >= 0 && (cur != 0 || j == hn - 1);
    }
    simple = simple && hn >= 3 && cur == 0;
    for (int i = 0; i < hn; ++i)
    {
        int32_t e = b->horizon.data[i];
        b->scratch[b->faces[e / 3].v[e % 3]] = -1;
    }
    if (!simple)
    {
        /* Cannot happen with exact predicates on a valid hull; if it ever does, skip the point rather than
         * corrupt the mesh (the hull then misses it by its distance to f0). */
        face_drop_point(b, f0, p);
        return face_queue(b, f0);
    }
    /* remember the horizon (a -> b across to hidden face g) and the outside sets, then recycle the faces */
    b->cone.count = 0;
    b->heads.count = 0;
    for (int j = 0; j < hn; ++j)
    {
        int32_t e = b->horizon.data[b->order.data[j]];
        const qh_face* fv = &b->faces[e / 3];
        if (!ivec_push(b, &b->cone, fv->v[e % 3]) || !ivec_push(b, &b->cone, fv->v[(e % 3 + 1) % 3]) ||
            !ivec_push(b, &b->cone, fv->adj[e % 3]))
        {
            return false;
        }
    }
    for (int i = 0; i < b->visible.count; ++i)
    {
        int32_t id = b->visible.data[i];
        if ((b->faces[id].head >= 0 && !ivec_push(b, &b->heads, b->faces[id].head)) ||
            (b->faces[id].near >= 0 && !ivec_push(b, &b->heads, b->faces[id].near)) ||
            !ivec_push(b, &b->free_faces, id))
        {
            return false;
        }
        b->faces[id].alive = 0;
    }
    /* the cone: one triangle a b p per horizon edge, neighbours across the horizon and to either side */
    int32_t first = -1, prev = -1;
    for (int j = 0; j < hn; ++j)
    {
        int32_t a = b->cone.data[3 * j], c = b->cone.data[3 * j + 1], g = b->cone.data[3 * j + 2];
        int32_t id = face_new(b, a, c, p);
        if (id < 0)
        {
            return false;
        }
        b->cone.data[3 * j + 2] = id; /* the slot now names the new face */
        qh_face* nf = &b->faces[id];
        nf->adj[0] = g;
        qh_face* gf = &b->faces[g];
        gf->adj[edge_of(gf, c, a)] = id;
        if (prev >= 0)
        {
            nf->adj[2] = prev;
            b->faces[prev].adj[1] = id;
        }
        else
        {
            first = id;
        }
        prev = id;
    }
    b->faces[prev].adj[1] = first;
    b->faces[first].adj[2] = prev;
    /* the cone's planes side by side for the loop below ([n, off] per face, in the slots of horizon) */
    double* planes = NULL;
    if (!grow(b, (void**)&b->planes, &b->planes_cap, 4 * sizeof(double), hn))
    {
        return false;
    }
    planes = b->planes;
    for (int j = 0; j < hn; ++j)
    {
        const qh_face* nf = &b->faces[b->cone.data[3 * j + 2]];
        memcpy(planes + 4 * j, nf->n, 3 * sizeof(double));
        planes[4 * j + 3] = nf->off;
    }
    /* hot loop: every orphaned point goes to the new face it is farthest outside of. One inside all of them
     * is inside the new hull (it was above a deleted face: quickhull's lemma) and is dropped for good. */
    for (int i = 0; i < b->heads.count; ++i)
    {
        int32_t x = b->heads.data[i];
        while (x >= 0)
        {
            int32_t nx = b->next[x];
            if (x != p)
            {
                const int32_t* px = gp(b, x);
                double xx = (double)px[0], xy = (double)px[1], xz = (double)px[2];
                int best = -1;
                double bd = 0.0;
                for (int j = 0; j < hn; ++j)
                {
                    const double* pl = planes + 4 * j;
                    double d = pl[0] * xx + pl[1] * xy + pl[2] * xz - pl[3];
                    if (d > bd)
                    {
                        bd = d;
                        best = j;
                    }
                }
                if (best >= 0)
                {
                    face_take(b, b->cone.data[3 * best + 2], x, bd);
                }
            }
            x = nx;
        }
    }
    for (int j = 0; j < hn; ++j)
    {
        if (!face_queue(b, b->cone.data[3 * j + 2]))
        {
            return false;
        }
    }
    b->vertex_count++;
    return true;
}

/* Squared distance from p to triangle abc: the closest point is a vertex, a point of an edge or of the face,
 * decided by the signs of the projections on the edges (the Voronoi regions of the features; Ericson, RTCD
 * 5.1.5). Double precision on grid coordinates. */
static double tri_dist2(const double p[3], const double a[3], const double b[3], const double c[3])
{
    double ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int k = 0; k < 3; ++k)
    {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
        bp[k] = p[k] - b[k];
        cp[k] = p[k] - c[k];
    }
    double d1 = dot3(ab, ap), d2 = dot3(ac, ap), d3 = dot3(ab, bp), d4 = dot3(ac, bp);
    double d5 = dot3(ab, cp), d6 = dot3(ac, cp);
    double s, t; /* closest point a + s ab + t ac */
    double vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d1 <= 0.0 && d2 <= 0.0)
    {
        s = t = 0.0; /* vertex a */
    }
    else if (d3 >= 0.0 && d4 <= d3)
    {
        s = 1.0; /* vertex b */
        t = 0.0;
    }
    else if (d6 >= 0.0 && d5 <= d6)
    {
        s = 0.0; /* vertex c */
        t = 1.0;
    }
    else if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0)
    {
        s = d1 / (d1 - d3); /* edge ab */
        t = 0.0;
    }
    else if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0)
    {
        s = 0.0; /* edge ac */
        t = d2 / (d2 - d6);
    }
    else if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    {
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6)); /* edge bc */
        s = 1.0 - t;
    }
    else
    {
        double sum = va + vb + vc; /* the face */
        s = vb / sum;
        t = vc / sum;
    }
    double r[3];
    for (int k = 0; k < 3; ++k)
    {
        r[k] = ap[k] - s * ab[k] - t * ac[k];
    }
    return dot3(r, r);
}

/* A near point is within eps of the plane of the face holding it, but that bounds neither its height above
 * the other faces nor, near sharp (sliver) edges, its distance to the hull: the corner of the region
 * "within eps of every plane" reaches much farther than eps. So when the outside sets are empty, each near
 * point's visible region (the faces it is above: a connected patch, searched from its face) gives its exact
 * distance to the hull, the nearest of those triangles. A point farther than eps becomes an outside point of
 * the face it is highest above, so the build goes on; *moved counts them. */
static bool qh_check_near(hull_build* b, int* moved)
{
    *moved = 0;
    double eps2 = b->eps * b->eps;
    for (int32_t id = 0; id < b->face_count; ++id)
    {
        if (!b->faces[id].alive)
        {
            continue;
        }
        int32_t x = b->faces[id].near;
        b->faces[id].near = -1;
        while (x >= 0)
        {
            int32_t nx = b->next[x];
            uint32_t pass = ++b->pass;
            double px[3], dist2 = INFINITY;
            gpd(b, x, px);
            int32_t best = id;
            double bd = face_dist(b, &b->faces[id], x);
            b->stack.count = 0;
            b->faces[id].pass = pass;
            if (!ivec_push(b, &b->stack, id))
            {
                return false;
            }
            while (b->stack.count > 0)
            {
                int32_t fid = b->stack.data[--b->stack.count];
                const qh_face* f = &b->faces[fid];
                double va[3], vb[3], vc[3];
                gpd(b, f->v[0], va);
                gpd(b, f->v[1], vb);
                gpd(b, f->v[2], vc);
                double t = tri_dist2(px, va, vb, vc);
                dist2 = t < dist2 ? t : dist2;
                for (int k = 0; k < 3; ++k)
                {
                    int32_t gid = f->adj[k];
                    qh_face* g = &b->faces[gid];
                    if (g->pass == pass)
                    {
                        continue;
                    }
                    g->pass = pass;
                    double d = face_dist(b, g, x);
                    if (d > 0.0 && !ivec_push(b, &b->stack, gid))
                    {
                        return false;
                    }
                    if (d > bd)
                    {
                        bd = d;
                        best = gid;
                    }
                }
            }
            if (dist2 > eps2)
            {
                bool queued = b->faces[best].head >= 0;
                face_take_outside(b, best, x, bd);
                ++*moved;
                if (!queued && !face_queue(b, best))
                {
                    return false;
                }
            }
            else
            {
                face_take(b, best, x, bd);
            }
            x = nx;
        }
    }
    return true;
}

/* Quickhull from the tetrahedron s: always the farthest outside point of any face next (a max-heap), so a
 * max_vertices limit keeps the most significant vertices. When no face has an outside point, the near
 * points are checked against every face they are above, which may add more. */
static bool qh_run(hull_build* b, const int32_t s[4])
{
    if (!qh_start(b, s))
    {
        return false;
    }
    for (;;)
    {
        heap_item top;
        while (heap_pop(b, &top))
        {
            const qh_face* f = &b->faces[top.a];
            if (!f->alive || f->stamp != top.tag || f->head < 0)
            {
                continue; /* stale: the face was deleted (and maybe its slot recycled) */
            }
            if (b->max_vertices > 0 && b->vertex_count >= b->max_vertices)
            {
                b->capacity_hit = true;
                return true;
            }
            if (!qh_add(b, top.a, f->far_point))
            {
                return false;
            }
        }
        int moved;
        if (!qh_check_near(b, &moved))
        {
            return false;
        }
        if (moved == 0)
        {
            return true;
        }
    }
}

/* ------------------------------------------------------------------------------------------------------
 * Merge phase: triangles -> convex polygons on a half-edge mesh
 * ------------------------------------------------------------------------------------------------------ */

static int32_t tri_next(int32_t h)
{
    return h % 3 == 2 ? h - 2 : h + 1;
}

/* Compact the live quickhull faces into a new array ordered by their lowest vertex index. The points are in
 * Morton order, so neighbouring faces end up near each other in memory, which the merge phase (random walks
 * over half-edges) needs more than anything: it is otherwise bound by cache misses. */
static bool reorder_faces(hull_build* b)
{
    int live = 0;
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        live += b->faces[t].alive;
    }
    size_t bytes, map_bytes, count_bytes;
    qh_face* faces = build_alloc(b, (size_t)live, sizeof(qh_face), &bytes);
    int32_t* map = faces != NULL ? build_alloc(b, (size_t)b->face_count, sizeof(int32_t), &map_bytes) : NULL;
    int32_t* count = map != NULL ? build_alloc(b, (size_t)b->n + 1, sizeof(int32_t), &count_bytes) : NULL;
    if (count == NULL)
    {
        if (faces != NULL)
        {
            pxi_free(&b->alloc, faces, bytes);
        }
        if (map != NULL)
        {
            pxi_free(&b->alloc, map, map_bytes);
        }
        return false;
    }
    /* counting sort on the lowest vertex */
    memset(count, 0, count_bytes);
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        const int32_t* v = b->faces[t].v;
        int32_t lo = v[0] < v[1] ? (v[0] < v[2] ? v[0] : v[2]) : (v[1] < v[2] ? v[1] : v[2]);
        map[t] = lo;
        count[lo + 1] += b->faces[t].alive;
    }
    for (int32_t p = 0; p < b->n; ++p)
    {
        count[p + 1] += count[p];
    }
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        map[t] = b->faces[t].alive ? count[map[t]]++ : -1;
    }
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        if (map[t] >= 0)
        {
            qh_face* f = &faces[map[t]];
            *f = b->faces[t];
            for (int k = 0; k < 3; ++k)
            {
                f->adj[k] = map[f->adj[k]];
            }
        }
    }
    pxi_free(&b->alloc, count, count_bytes);
    pxi_free(&b->alloc, map, map_bytes);
    release(b, b->faces, b->face_cap, sizeof(qh_face));
    b->faces = faces;
    b->face_count = b->face_cap = live;
    b->free_faces.count = 0;
    return true;
}

/* The vertex graph of the quickhull triangles: each vertex's successors along its faces (every edge is in
 * two faces, once each way, so these are all its neighbours). Merging removes edges and vertices, but the
 * planes' offsets are computed by climbing this graph: on the exactly convex triangulated hull a local
 * maximum is the global one, over every vertex ever kept, merged away or not. */
static bool exact_graph(hull_build* b)
{
    size_t bytes, edges = 0;
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        edges += b->faces[t].alive ? 3 : 0;
    }
    b->graph_offsets = build_alloc(b, (size_t)b->n + 1, sizeof(int32_t), &bytes);
    b->graph = b->graph_offsets != NULL ? build_alloc(b, edges, sizeof(int32_t), &b->graph_bytes) : NULL;
    if (b->graph == NULL)
    {
        return false;
    }
    int32_t* off = b->graph_offsets;
    memset(off, 0, bytes);
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        for (int i = 0; i < 3 && b->faces[t].alive; ++i)
        {
            off[b->faces[t].v[i] + 1]++;
        }
    }
    for (int32_t p = 0; p < b->n; ++p)
    {
        off[p + 1] += off[p];
    }
    int32_t* filled = b->scratch; /* -1 at rest: entries filled so far minus one */
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        const qh_face* f = &b->faces[t];
        for (int i = 0; i < 3 && f->alive; ++i)
        {
            b->graph[off[f->v[i]] + ++filled[f->v[i]]] = f->v[(i + 1) % 3];
        }
    }
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        for (int i = 0; i < 3; ++i)
        {
            filled[b->faces[t].v[i]] = -1;
        }
    }
    return true;
}

/* Largest n . x over the exact hull's vertices (the caller's coordinates, double), climbing from start. */
static double climb_exact(const hull_build* b, const double n[3], int32_t start)
{
    const float* p = b->points + 3 * (size_t)start;
    double best = n[0] * p[0] + n[1] * p[1] + n[2] * p[2];
    for (int32_t cur = start;;)
    {
        int32_t nx = cur;
        for (int32_t k = b->graph_offsets[cur]; k < b->graph_offsets[cur + 1]; ++k)
        {
            const float* q = b->points + 3 * (size_t)b->graph[k];
            double d = n[0] * q[0] + n[1] * q[1] + n[2] * q[2];
            if (d > best)
            {
                best = d;
                nx = b->graph[k];
            }
        }
        if (nx == cur)
        {
            break;
        }
        cur = nx;
    }
    return best;
}

/* The same in grid coordinates (the merge tests). */
static double climb_grid(const hull_build* b, const double n[3], int32_t start)
{
    double x[3];
    gpd(b, start, x);
    double best = dot3(n, x);
    for (int32_t cur = start;;)
    {
        int32_t nx = cur;
        for (int32_t k = b->graph_offsets[cur]; k < b->graph_offsets[cur + 1]; ++k)
        {
            gpd(b, b->graph[k], x);
            double d = dot3(n, x);
            if (d > best)
            {
                best = d;
                nx = b->graph[k];
            }
        }
        if (nx == cur)
        {
            break;
        }
        cur = nx;
    }
    return best;
}

/* Half-edge mesh of the quickhull triangles (dead slots keep face -1). */
static bool mesh_from_quickhull(hull_build* b)
{
    size_t bytes;
    b->mf_count = b->face_count;
    b->he_count = 3 * b->face_count;
    b->he = build_alloc(b, (size_t)b->he_count, sizeof(hm_edge), &bytes);
    b->mf = b->he != NULL ? build_alloc(b, (size_t)b->mf_count, sizeof(hm_face), &bytes) : NULL;
    if (b->mf == NULL)
    {
        return false;
    }
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        const qh_face* f = &b->faces[t];
        hm_face* m = &b->mf[t];
        memset(m, 0, sizeof(*m));
        m->edge = f->alive ? 3 * t : -1;
        m->count = f->alive ? 3 : 0;
        for (int i = 0; i < 3; ++i)
        {
            hm_edge* e = &b->he[3 * t + i];
            e->origin = f->v[i];
            e->next = tri_next(3 * t + i);
            e->prev = 3 * t + (i + 2) % 3;
            e->face = f->alive ? t : -1;
            e->twin = -1;
            if (f->alive)
            {
                int32_t g = f->adj[i];
                e->twin = 3 * g + edge_of(&b->faces[g], f->v[(i + 1) % 3], f->v[i]);
            }
        }
    }
    return true;
}

static int32_t he_dest(const hull_build* b, int32_t h)
{
    return b->he[b->he[h].next].origin;
}

/* Newell vector of a face loop (twice its vector area), summed as exact fan cross products. */
static void face_area(const hull_build* b, int32_t face, double area[3])
{
    area[0] = area[1] = area[2] = 0.0;
    int32_t h0 = b->mf[face].edge;
    const int32_t* o = gp(b, b->he[h0].origin);
    for (int32_t h = b->he[h0].next; b->he[h].next != h0; h = b->he[h].next)
    {
        double n[3];
        cross_exact(o, gp(b, b->he[h].origin), gp(b, he_dest(b, h)), n);
        area[0] += n[0];
        area[1] += n[1];
        area[2] += n[2];
    }
}

/* Merge every connected set of exactly coplanar triangles into one polygon. On a convex polytope such a set
 * is a convex facet, so its boundary is a single simple loop; interior vertices disappear with it. */
static bool merge_exact(hull_build* b)
{
    ivec* comp = &b->work;
    comp->count = 0;
    for (int32_t t = 0; t < b->mf_count; ++t)
    {
        if (!ivec_push(b, comp, -1))
        {
            return false;
        }
    }
    int32_t* c = comp->data;
    for (int32_t t = 0; t < b->mf_count; ++t)
    {
        if (b->mf[t].edge < 0 || c[t] >= 0)
        {
            continue;
        }
        c[t] = t;
        b->stack.count = 0;
        if (!ivec_push(b, &b->stack, t))
        {
            return false;
        }
        const qh_face* tf = &b->faces[t];
        while (b->stack.count > 0)
        {
            int32_t u = b->stack.data[--b->stack.count];
            for (int i = 0; i < 3; ++i)
            {
                int32_t tw = b->he[3 * u + i].twin;
                int32_t g = tw / 3;
                int32_t apex = b->he[tri_next(tri_next(tw))].origin;
                if (c[g] < 0 && face_side(b, tf, apex) == 0)
                {
                    c[g] = t;
                    if (!ivec_push(b, &b->stack, g))
                    {
                        return false;
                    }
                }
            }
        }
    }
    /* relink the boundary of each set: the next boundary edge is found by turning around the end vertex
     * through the set's interior edges (triangle links are implicit in the indices, so they stay valid) */
    for (int32_t h = 0; h < b->he_count; ++h)
    {
        int32_t t = h / 3;
        if (b->mf[t].edge < 0 || c[b->he[h].twin / 3] == c[t])
        {
            continue;
        }
        int32_t nx = tri_next(h);
        for (int guard = 0; c[b->he[nx].twin / 3] == c[t]; ++guard)
        {
            if (guard > b->he_count)
            {
                b->status = PX_ERR_DEGENERATE_INPUT; /* unreachable on a valid mesh */
                return false;
            }
            nx = tri_next(b->he[nx].twin);
        }
        b->he[h].next = nx;
        b->he[nx].prev = h;
    }
    for (int32_t h = 0; h < b->he_count; ++h)
    {
        int32_t t = h / 3;
        if (b->mf[t].edge >= 0)
        {
            b->he[h].face = c[b->he[h].twin / 3] == c[t] ? -1 : c[t];
        }
    }
    for (int32_t t = 0; t < b->mf_count; ++t)
    {
        b->mf[t].edge = -1;
    }
    for (int32_t h = 0; h < b->he_count; ++h)
    {
        if (b->he[h].face >= 0)
        {
            b->mf[b->he[h].face].edge = h;
        }
    }
    for (int32_t t = 0; t < b->mf_count; ++t)
    {
        hm_face* m = &b->mf[t];
        if (m->edge < 0)
        {
            continue;
        }
        m->count = 0;
        int32_t h = m->edge;
        do
        {
            m->count++;
            h = b->he[h].next;
        } while (h != m->edge);
        face_area(b, t, m->area);
    }
    for (int32_t h = 0; h < b->he_count; ++h)
    {
        if (b->he[h].face >= 0)
        {
            b->out[b->he[h].origin] = h;
        }
    }
    return true;
}

/* Number of faces around vertex v (stops counting at limit). */
static int vertex_faces(const hull_build* b, int32_t v, int limit)
{
    int32_t h0 = b->out[v], h = h0;
    int k = 0;
    do
    {
        ++k;
        h = b->he[b->he[h].twin].next;
    } while (h != h0 && k < limit);
    return k;
}

/* Record a change of a face: its merge candidates are stale, and its pairs are scored again next round. */
static bool face_changed(hull_build* b, int32_t face)
{
    hm_face* m = &b->mf[face];
    m->version++;
    if (m->changed != b->round)
    {
        m->changed = b->round;
        return ivec_push(b, &b->changed, face);
    }
    return true;
}

/* A face reduced to two edges (u -> w, w -> u) disappears; its two neighbours become twins. */
static bool collapse_face(hull_build* b, int32_t face)
{
    hm_edge* e = b->he;
    int32_t x = b->mf[face].edge, y = e[x].next;
    int32_t tx = e[x].twin, ty = e[y].twin;
    e[tx].twin = ty;
    e[ty].twin = tx;
    b->out[e[x].origin] = ty; /* ty runs from x's origin to y's origin */
    b->out[e[y].origin] = tx;
    e[x].face = e[y].face = -1;
    b->mf[face].edge = -1;
    b->mf[face].count = 0;
    return face_changed(b, face);
}

/* Whether grid point v lies within eps of the segment from u to w. */
static bool on_chord(const hull_build* b, int32_t v, int32_t u, int32_t w)
{
    double pv[3], pu[3], pw[3], uw[3], uv[3];
    gpd(b, v, pv);
    gpd(b, u, pu);
    gpd(b, w, pw);
    for (int k = 0; k < 3; ++k)
    {
        uw[k] = pw[k] - pu[k];
        uv[k] = pv[k] - pu[k];
    }
    double len2 = dot3(uw, uw), t = len2 > 0.0 ? dot3(uv, uw) / len2 : 0.0;
    t = t < 0.0 ? 0.0 : (t > 1.0 ? 1.0 : t);
    for (int k = 0; k < 3; ++k)
    {
        uv[k] -= t * uw[k];
    }
    return dot3(uv, uv) <= b->eps * b->eps;
}

/* Remove vertex v if it has only two faces and lies within eps of the segment between its neighbours (their
 * common edge): u -> v -> w becomes u -> w in both. A triangle so reduced to two edges collapses, which may
 * leave u or w with two faces: they are queued. */
static bool remove_if_on_edge(hull_build* b, int32_t v)
{
    if (b->out[v] < 0 || vertex_faces(b, v, 3) != 2)
    {
        return true;
    }
    hm_edge* e = b->he;
    int32_t h1 = b->out[v];  /* v -> w in face F */
    int32_t t1 = e[h1].twin; /* w -> v in face H */
    int32_t h2 = e[t1].next; /* v -> u in H */
    int32_t t2 = e[h2].twin; /* u -> v in F */
    int32_t ff = e[h1].face, hf = e[t1].face;
    int32_t u = he_dest(b, h2), w = e[t1].origin;
    if (ff == hf || e[t2].next != h1)
    {
        return true; /* not a plain two-face vertex (unreachable on a valid mesh) */
    }
    if (!on_chord(b, v, u, w))
    {
        /* Two faces nearly back to back (the rim of a very flat part, the tip of a needle): v is a real
         * corner, farther than eps from the chord, and stays. */
        return true;
    }
    e[t2].next = e[h1].next;
    e[e[h1].next].prev = t2;
    e[t1].next = e[h2].next;
    e[e[h2].next].prev = t1;
    e[t2].twin = t1;
    e[t1].twin = t2;
    e[h1].face = e[h2].face = -1;
    b->out[v] = -1;
    b->out[u] = t2;
    b->out[w] = t1;
    b->mf[ff].edge = t2;
    b->mf[hf].edge = t1;
    b->mf[ff].count--;
    b->mf[hf].count--;
    if (!face_changed(b, ff) || !face_changed(b, hf) || (b->mf[ff].count == 2 && !collapse_face(b, ff)) ||
        (b->mf[hf].count == 2 && !collapse_face(b, hf)))
    {
        return false;
    }
    /* the areas stay accurate enough: v was on the edge line, so the triangles removed are slivers */
    return ivec_push(b, &b->work, u) && ivec_push(b, &b->work, w);
}

static bool cleanup_vertices(hull_build* b)
{
    while (b->work.count > 0)
    {
        int32_t v = b->work.data[--b->work.count];
        if (!remove_if_on_edge(b, v))
        {
            return false;
        }
    }
    return true;
}

/* Thickness of faces f and g along unit normal n: from the exact hull's support along n (every vertex
 * quickhull kept, including those merged away earlier, so the face's plane will bound them) down to the
 * lowest vertex of f and g. A value > limit as soon as it exceeds limit; the smaller face is scanned first,
 * so a steep neighbour exits early. */
static double pair_thickness(const hull_build* b, int32_t f, int32_t g, const double n[3], double limit)
{
    if (b->mf[g].count > b->mf[f].count)
    {
        int32_t t = f;
        f = g;
        g = t;
    }
    double lo = INFINITY, hi = -INFINITY;
    int32_t top = -1;
    const int32_t faces[2] = { g, f };
    for (int k = 0; k < 2; ++k)
    {
        int32_t h0 = b->mf[faces[k]].edge, h = h0;
        do
        {
            double p[3];
            gpd(b, b->he[h].origin, p);
            double d = dot3(n, p);
            lo = d < lo ? d : lo;
            if (d > hi)
            {
                hi = d;
                top = b->he[h].origin;
            }
            if (!(hi - lo <= limit))
            {
                return INFINITY;
            }
            h = b->he[h].next;
        } while (h != h0);
    }
    /* the faces' own vertices pass (the cheap test first); now the support, climbing from their highest */
    hi = climb_grid(b, n, top);
    return hi - lo <= limit ? hi - lo : INFINITY;
}

/* Faces merge only when each one's normal is within this cosine of the union's (8 degrees), however thin
 * their union: otherwise faces nearly back to back (the two sides of a very flat part, met at its rim)
 * would pass the slab test along their cancelling normal and fold into one. */
#define HULL_MERGE_COS 0.99

/* Whether the face with vector area a faces along unit normal n (HULL_MERGE_COS). */
static bool faces_along(const double a[3], const double n[3])
{
    return dot3(a, n) >= HULL_MERGE_COS * sqrt(dot3(a, a));
}

/* Unit normal of the union of faces f and g (their vector areas add); false when it vanishes or when one
 * face does not face along it. */
static bool pair_normal(const hull_build* b, int32_t f, int32_t g, double n[3])
{
    const double* af = b->mf[f].area;
    const double* ag = b->mf[g].area;
    n[0] = af[0] + ag[0];
    n[1] = af[1] + ag[1];
    n[2] = af[2] + ag[2];
    double len = sqrt(dot3(n, n));
    if (!(len > 0.0))
    {
        return false;
    }
    n[0] /= len;
    n[1] /= len;
    n[2] /= len;
    return faces_along(af, n) && faces_along(ag, n);
}

/* Whether the polygon b->loop is convex within eps about normal n: no corner lies more than eps inside the
 * chord of its neighbours. */
static bool loop_convex(const hull_build* b, const double n[3])
{
    int lc = b->loop.count;
    for (int i = 0; i < lc; ++i)
    {
        double pu[3], pv[3], pw[3], uw[3], uv[3], cr[3];
        gpd(b, b->loop.data[(i + lc - 1) % lc], pu);
        gpd(b, b->loop.data[i], pv);
        gpd(b, b->loop.data[(i + 1) % lc], pw);
        for (int k = 0; k < 3; ++k)
        {
            uw[k] = pw[k] - pu[k];
            uv[k] = pv[k] - pu[k];
        }
        cr[0] = uw[1] * uv[2] - uw[2] * uv[1];
        cr[1] = uw[2] * uv[0] - uw[0] * uv[2];
        cr[2] = uw[0] * uv[1] - uw[1] * uv[0];
        if (!(dot3(cr, n) <= b->eps * sqrt(dot3(uw, uw))))
        {
            return false;
        }
    }
    return true;
}

/* Merge face g into face f if they share one chain of edges and their union is a simple polygon, convex
 * and inside a slab of thickness eps (force: the caller checked the geometry). *merged tells whether it
 * happened. */
static bool try_merge(hull_build* b, int32_t f, int32_t g, bool force, bool* merged)
{
    hm_edge* e = b->he;
    *merged = false;
    int fc = b->mf[f].count, gc = b->mf[g].count;
    int32_t h0 = b->mf[f].edge, h = h0, shared = -1;
    int shared_count = 0;
    do
    {
        if (e[e[h].twin].face == g)
        {
            shared = h;
            shared_count++;
        }
        h = e[h].next;
    } while (h != h0);
    if (shared < 0 || fc - shared_count < 1 || gc - shared_count < 1 || fc + gc - 2 * shared_count < 3)
    {
        return true;
    }
    int32_t first = shared;
    while (e[e[e[first].prev].twin].face == g)
    {
        first = e[first].prev;
    }
    int32_t last = first;
    int run = 1;
    while (e[e[e[last].next].twin].face == g)
    {
        last = e[last].next;
        run++;
    }
    if (run != shared_count)
    {
        return true; /* two separate contacts: the union would enclose other faces */
    }
    double n[3];
    if (!pair_normal(b, f, g, n) || (!force && !(pair_thickness(b, f, g, n, b->eps) <= b->eps)))
    {
        return true;
    }
    /* the union loop: f from the end of the chain round to its start, then g back to the chain's end */
    int32_t pf = e[first].prev, nf = e[last].next;
    int32_t gs = e[e[first].twin].next, ge = e[e[last].twin].prev;
    b->loop.count = 0;
    uint32_t pass = ++b->seen_pass;
    for (int part = 0; part < 2; ++part)
    {
        int32_t x = part == 0 ? nf : gs, stop = part == 0 ? pf : ge;
        for (;;)
        {
            int32_t o = e[x].origin;
            if (b->seen[o] == pass)
            {
                return true; /* the union would touch itself at a vertex */
            }
            b->seen[o] = pass;
            if (!ivec_push(b, &b->loop, o))
            {
                return false;
            }
            if (x == stop)
            {
                break;
            }
            x = e[x].next;
        }
    }
    if (!force && !loop_convex(b, n))
    {
        return true;
    }
    /* relink: f's remaining loop continues into g's, the chain (both sides) and its inner vertices go */
    int32_t a = e[first].origin, z = e[nf].origin;
    for (int32_t x = first;;)
    {
        int32_t nx = e[x].next;
        if (x != first)
        {
            b->out[e[x].origin] = -1; /* inside the union now */
        }
        e[e[x].twin].face = -1;
        e[x].face = -1;
        if (x == last)
        {
            break;
        }
        x = nx;
    }
    e[pf].next = gs;
    e[gs].prev = pf;
    e[ge].next = nf;
    e[nf].prev = ge;
    for (int32_t x = gs;; x = e[x].next)
    {
        e[x].face = f;
        if (x == ge)
        {
            break;
        }
    }
    b->out[a] = gs;
    b->out[z] = nf;
    hm_face* mf = &b->mf[f];
    mf->merged = 1;
    mf->edge = pf;
    mf->count = fc + gc - 2 * run;
    for (int k = 0; k < 3; ++k)
    {
        mf->area[k] += b->mf[g].area[k];
    }
    b->mf[g].edge = -1;
    b->mf[g].count = 0;
    *merged = true;
    /* the chain's ends may now lie on an edge between two faces: queued for cleanup_vertices, which the
     * caller runs (after a whole star for merge_star, whose checks assumed the faces unchanged meanwhile) */
    return face_changed(b, f) && face_changed(b, g) && ivec_push(b, &b->work, a) && ivec_push(b, &b->work, z);
}

/* Candidates by flatness (thickness in [0, eps]) into b->sorted: a stable counting sort on 1024 buckets of
 * eps / 1024. Pairs closer in flatness than that are equally good, and the order stays deterministic. */
#define HULL_MERGE_BUCKETS 1024
static bool sort_candidates(hull_build* b)
{
    int n = b->cand_count;
    if (!grow(b, (void**)&b->sorted, &b->sorted_cap, sizeof(merge_candidate), n))
    {
        return false;
    }
    int count[HULL_MERGE_BUCKETS + 1];
    memset(count, 0, sizeof(count));
    for (int i = 0; i < n; ++i)
    {
        double t = b->cand[i].score / b->eps * (HULL_MERGE_BUCKETS - 1);
        int k = t > 0.0 ? (t < HULL_MERGE_BUCKETS - 1 ? (int)t : HULL_MERGE_BUCKETS - 1) : 0;
        b->cand[i].bucket = k;
        count[k + 1]++;
    }
    for (int k = 0; k < HULL_MERGE_BUCKETS; ++k)
    {
        count[k + 1] += count[k];
    }
    for (int i = 0; i < n; ++i)
    {
        b->sorted[count[b->cand[i].bucket]++] = b->cand[i];
    }
    return true;
}

/* Merge nearly coplanar neighbours, flattest pair first, until no pair qualifies. The first round scores
 * the pairs of the faces in b->visible; later rounds only those of faces that changed (the others would
 * score the same). */
static bool merge_pairs(hull_build* b)
{
    ivec* faces = &b->visible;
    while (faces->count > 0)
    {
        uint32_t round = ++b->round;
        b->changed.count = 0;
        for (int i = 0; i < faces->count; ++i)
        {
            b->mf[faces->data[i]].round = round;
        }
        b->cand_count = 0;
        for (int i = 0; i < faces->count; ++i)
        {
            int32_t f = faces->data[i];
            int32_t h0 = b->mf[f].edge, h = h0;
            if (h0 < 0)
            {
                continue;
            }
            do
            {
                int32_t g = b->he[b->he[h].twin].face;
                /* each pair once: from the lower index when both are scored this round; and once per shared
                 * chain, at its start */
                bool skip = b->mf[g].round == round && g < f;
                if (!skip && b->he[b->he[b->he[h].prev].twin].face != g)
                {
                    double n[3];
                    double t = pair_normal(b, f, g, n) ? pair_thickness(b, f, g, n, b->eps) : INFINITY;
                    if (t <= b->eps)
                    {
                        if (b->cand_count == b->cand_cap && !grow(b, (void**)&b->cand, &b->cand_cap,
                                                                  sizeof(merge_candidate), b->cand_count + 1))
                        {
                            return false;
                        }
                        merge_candidate mc = { t, f, g, b->mf[f].version, b->mf[g].version, 0 };
                        b->cand[b->cand_count++] = mc;
                    }
                }
                h = b->he[h].next;
            } while (h != h0);
        }
        if (!sort_candidates(b))
        {
            return false;
        }
        for (int i = 0; i < b->cand_count; ++i)
        {
            const merge_candidate* mc = &b->sorted[i];
            if (b->mf[mc->f].version != mc->fv || b->mf[mc->g].version != mc->gv)
            {
                continue; /* changed since scored: scored again next round */
            }
            bool merged;
            if (!try_merge(b, mc->f, mc->g, false, &merged) || !cleanup_vertices(b))
            {
                return false;
            }
        }
        /* next round: the faces that changed */
        faces->count = 0;
        for (int i = 0; i < b->changed.count; ++i)
        {
            if (b->mf[b->changed.data[i]].edge >= 0 && !ivec_push(b, faces, b->changed.data[i]))
            {
                return false;
            }
        }
    }
    return true;
}

/* Merge all faces around vertex v into one when their union is a convex polygon flat within eps; v is then
 * inside it and disappears. This resolves a vertex raised by less than eps above a flat region: merging its
 * faces two at a time would make a reflex corner at v and is refused. */
static bool merge_star(hull_build* b, int32_t v)
{
    hm_edge* e = b->he;
    ivec* star = &b->horizon; /* outgoing half-edges of v, one per face, in rotation order */
    star->count = 0;
    uint32_t mark = ++b->mark_pass;
    int32_t h0 = b->out[v], h = h0;
    double n[3] = { 0.0, 0.0, 0.0 };
    do
    {
        hm_face* m = &b->mf[e[h].face];
        if (m->mark == mark || star->count > 64)
        {
            return true; /* a face twice around v, or too many to be flat in practice */
        }
        m->mark = mark;
        for (int k = 0; k < 3; ++k)
        {
            n[k] += m->area[k];
        }
        if (!ivec_push(b, star, h))
        {
            return false;
        }
        h = e[e[h].twin].next;
    } while (h != h0);
    int m = star->count;
    double len = sqrt(dot3(n, n));
    if (m < 3 || !(len > 0.0))
    {
        return true;
    }
    for (int k = 0; k < 3; ++k)
    {
        n[k] /= len;
    }
    for (int i = 0; i < m; ++i)
    {
        if (!faces_along(b->mf[e[star->data[i]].face].area, n))
        {
            return true; /* the star folds: not a flat region */
        }
    }
    /* flat: every vertex of the star within eps below the exact hull's support along n (the star's own
     * vertices first, the cheap test) */
    double lo = INFINITY, hi = -INFINITY;
    int32_t top = v;
    for (int i = 0; i < m; ++i)
    {
        int32_t x = star->data[i];
        do
        {
            double p[3];
            gpd(b, e[x].origin, p);
            double d = dot3(n, p);
            lo = d < lo ? d : lo;
            if (d > hi)
            {
                hi = d;
                top = e[x].origin;
            }
            if (!(hi - lo <= b->eps))
            {
                return true;
            }
            x = e[x].next;
        } while (x != star->data[i]);
    }
    if (!(climb_grid(b, n, top) - lo <= b->eps))
    {
        return true;
    }
    /* the union's boundary: the outer path of each face (without v), in reverse rotation order */
    b->loop.count = 0;
    uint32_t pass = ++b->seen_pass;
    b->seen[v] = pass;
    for (int i = m - 1; i >= 0; --i)
    {
        int32_t x = e[star->data[i]].next, stop = e[star->data[i]].prev;
        for (; x != stop; x = e[x].next)
        {
            int32_t o = e[x].origin;
            if (b->seen[o] == pass)
            {
                return true; /* the union would not be a simple polygon */
            }
            b->seen[o] = pass;
            if (!ivec_push(b, &b->loop, o))
            {
                return false;
            }
        }
    }
    if (!loop_convex(b, n))
    {
        return true;
    }
    /* v inside the union (within eps of it): it disappears into the face, and must not stick out of it */
    {
        double pv[3];
        gpd(b, v, pv);
        int lc0 = b->loop.count;
        for (int i = 0; i < lc0; ++i)
        {
            double pa[3], pb[3], ab[3], av[3], cr[3];
            gpd(b, b->loop.data[i], pa);
            gpd(b, b->loop.data[(i + 1) % lc0], pb);
            for (int k = 0; k < 3; ++k)
            {
                ab[k] = pb[k] - pa[k];
                av[k] = pv[k] - pa[k];
            }
            cr[0] = ab[1] * av[2] - ab[2] * av[1];
            cr[1] = ab[2] * av[0] - ab[0] * av[2];
            cr[2] = ab[0] * av[1] - ab[1] * av[0];
            if (!(dot3(cr, n) >= -b->eps * sqrt(dot3(ab, ab))))
            {
                return true;
            }
        }
    }
    /* the faces are then merged one by one around v (the geometry was checked for the whole union) */
    int32_t f = e[star->data[0]].face;
    int32_t faces[65];
    for (int i = 0; i < m; ++i)
    {
        faces[i] = e[star->data[i]].face;
    }
    for (int i = 1; i < m; ++i)
    {
        bool merged;
        if (!try_merge(b, f, faces[i], true, &merged))
        {
            return false;
        }
        if (!merged)
        {
            break; /* a face of the star went away while cleaning up after a merge (a collapsed sliver) */
        }
    }
    if (!cleanup_vertices(b))
    {
        return false;
    }
    /* the face's normal is the one its flatness was checked along, even if the star was only partly merged */
    if (b->mf[f].edge >= 0)
    {
        double* area = b->mf[f].area;
        double al = sqrt(dot3(area, area));
        for (int k = 0; k < 3; ++k)
        {
            area[k] = n[k] * al;
        }
    }
    return true;
}

/* Face merging after the exact pass: nearly coplanar pairs, then flat vertex stars, again until neither
 * changes anything. */
static bool merge_near(hull_build* b)
{
    ivec* faces = &b->visible;
    faces->count = 0;
    for (int32_t f = 0; f < b->mf_count; ++f)
    {
        if (b->mf[f].edge >= 0 && !ivec_push(b, faces, f))
        {
            return false;
        }
    }
    for (;;)
    {
        if (!merge_pairs(b))
        {
            return false;
        }
        ++b->round;
        b->changed.count = 0;
        for (int32_t v = 0; v < b->n; ++v)
        {
            if (b->out[v] >= 0 && !merge_star(b, v))
            {
                return false;
            }
        }
        faces->count = 0;
        for (int i = 0; i < b->changed.count; ++i)
        {
            if (b->mf[b->changed.data[i]].edge >= 0 && !ivec_push(b, faces, b->changed.data[i]))
            {
                return false;
            }
        }
        if (faces->count == 0)
        {
            return true;
        }
    }
}

/* ------------------------------------------------------------------------------------------------------
 * Results: the solid from the merged mesh, and the lower-dimensional hulls
 * ------------------------------------------------------------------------------------------------------ */

/* Vertices in input order, faces in slot order, edges once each (from their lower-index half-edge). */
static bool result_from_mesh(hull_build* b)
{
    int32_t* map = b->scratch;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (b->out[p] >= 0)
        {
            map[p] = b->res_vertices.count;
            if (!ivec_push(b, &b->res_vertices, p))
            {
                return false;
            }
        }
    }
    for (int32_t f = 0; f < b->mf_count; ++f)
    {
        int32_t h0 = b->mf[f].edge, h = h0;
        if (h0 < 0)
        {
            continue;
        }
        int out_face = b->res_counts.count;
        if (!ivec_push(b, &b->res_counts, b->mf[f].count) ||
            !ivec_push(b, &b->res_twisted, b->mf[f].merged && b->mf[f].count > 3) ||
            !grow(b, (void**)&b->planes, &b->planes_cap, 4 * sizeof(double), out_face + 1))
        {
            return false;
        }
        /* the normal the merges checked the face's flatness along (the loop's own Newell normal after a
         * vertex on an edge was dropped may differ slightly) */
        const double* area = b->mf[f].area;
        double len = sqrt(dot3(area, area));
        for (int k = 0; k < 3; ++k)
        {
            b->planes[4 * out_face + k] = len > 0.0 ? area[k] / len : 0.0;
        }
        do
        {
            int32_t i = map[b->he[h].origin], j = map[he_dest(b, h)];
            if (!ivec_push(b, &b->res_indices, i) ||
                (i < j && (!ivec_push(b, &b->res_edges, i) || !ivec_push(b, &b->res_edges, j))))
            {
                return false;
            }
            h = b->he[h].next;
        } while (h != h0);
    }
    for (int i = 0; i < b->res_vertices.count; ++i)
    {
        map[b->res_vertices.data[i]] = -1;
    }
    return true;
}

/* A flat convex polygon of k vertices (input indices, counter-clockwise about its normal): the vertices in
 * order, one face per side, k edges. k == 1 and k == 2 give a point and a segment. */
static bool result_polygon(hull_build* b, const int32_t* idx, int k)
{
    for (int i = 0; i < k; ++i)
    {
        if (!ivec_push(b, &b->res_vertices, idx[i]))
        {
            return false;
        }
    }
    if (k == 2)
    {
        return ivec_push(b, &b->res_edges, 0) && ivec_push(b, &b->res_edges, 1);
    }
    if (k < 3)
    {
        return true;
    }
    /* a polygon flat only within eps is listed for the climb (one face suffices: it holds every vertex) */
    bool planar = true;
    for (int i = 3; i < k && planar; ++i)
    {
        planar = orient3d(gp(b, idx[0]), gp(b, idx[1]), gp(b, idx[2]), gp(b, idx[i])) == 0;
    }
    if (!ivec_push(b, &b->res_counts, k) || !ivec_push(b, &b->res_counts, k) ||
        !ivec_push(b, &b->res_twisted, !planar) || !ivec_push(b, &b->res_twisted, 0))
    {
        return false;
    }
    for (int i = 0; i < k; ++i)
    {
        if (!ivec_push(b, &b->res_indices, i))
        {
            return false;
        }
    }
    for (int i = 0; i < k; ++i)
    {
        if (!ivec_push(b, &b->res_indices, (k - i) % k)) /* 0, k - 1, ..., 1: the other side */
        {
            return false;
        }
    }
    for (int i = 0; i < k; ++i)
    {
        if (!ivec_push(b, &b->res_edges, i) || !ivec_push(b, &b->res_edges, (i + 1) % k))
        {
            return false;
        }
    }
    return true;
}

/* The points extreme along direction a -> b (first index on ties): the segment of a collinear cloud. */
static bool result_segment(hull_build* b, int32_t a, int32_t c)
{
    double pa[3], pc[3], d[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    for (int k = 0; k < 3; ++k)
    {
        d[k] = pc[k] - pa[k];
    }
    int32_t lo = 0, hi = 0;
    double dlo = INFINITY, dhi = -INFINITY;
    for (int32_t p = 0; p < b->n; ++p)
    {
        double x[3];
        gpd(b, p, x);
        double t = dot3(d, x);
        if (t < dlo)
        {
            dlo = t;
            lo = p;
        }
        if (t > dhi)
        {
            dhi = t;
            hi = p;
        }
    }
    const int32_t idx[2] = { lo, hi };
    return result_polygon(b, idx, 2);
}

typedef struct pt2
{
    int32_t x, y, idx;
} pt2;

static int pt2_cmp(const void* pa, const void* pb)
{
    const pt2* a = pa;
    const pt2* c = pb;
    if (a->x != c->x)
    {
        return a->x < c->x ? -1 : 1;
    }
    if (a->y != c->y)
    {
        return a->y < c->y ? -1 : 1;
    }
    return a->idx < c->idx ? -1 : (a->idx > c->idx);
}

static int64_t orient2d(const pt2* a, const pt2* c, const pt2* d)
{
    return ((int64_t)c->x - a->x) * ((int64_t)d->y - a->y) - ((int64_t)c->y - a->y) * ((int64_t)d->x - a->x);
}

/* Distance of grid point p from the line through grid points a and c. */
static double line_dist(const hull_build* b, int32_t a, int32_t c, int32_t p)
{
    double pa[3], pc[3], pp[3], u[3], w[3], cr[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    gpd(b, p, pp);
    for (int k = 0; k < 3; ++k)
    {
        u[k] = pc[k] - pa[k];
        w[k] = pp[k] - pa[k];
    }
    cr[0] = u[1] * w[2] - u[2] * w[1];
    cr[1] = u[2] * w[0] - u[0] * w[2];
    cr[2] = u[0] * w[1] - u[1] * w[0];
    double uu = dot3(u, u);
    return uu > 0.0 ? sqrt(dot3(cr, cr) / uu) : sqrt(dot3(w, w));
}

/* The chain segment s -> e of polygon poly (cyclic positions) with its farthest inner vertex, if beyond eps.
 */
static bool push_segment(hull_build* b, const ivec* poly, int32_t s, int32_t e)
{
    int m = poly->count;
    double best = -1.0;
    int32_t far = -1;
    for (int32_t j = (s + 1) % m; j != e; j = (j + 1) % m)
    {
        double d = line_dist(b, poly->data[s], poly->data[e], poly->data[j]);
        if (d > best)
        {
            best = d;
            far = j;
        }
    }
    if (!(best > b->eps))
    {
        return true;
    }
    heap_item item = { best, s, e, far, 0 };
    return heap_push(b, item);
}

/* Flat cloud (within eps of the plane of a, c, d): the exact 2D hull of the points projected on the
 * coordinate plane most parallel to theirs (an affine map of the plane, so order and convexity are kept),
 * then simplified like quickhull: from the two extreme vertices along a -> c, add the vertex farthest from
 * its chord while it is more than eps away (and max_vertices allows). Returns the vertex count kept. */
static bool flat_hull(hull_build* b, int32_t a, int32_t c, int32_t d, int* kept_count)
{
    *kept_count = 0;
    double n[3];
    cross_exact(gp(b, a), gp(b, c), gp(b, d), n);
    int k = 0;
    for (int i = 1; i < 3; ++i)
    {
        k = fabs(n[i]) > fabs(n[k]) ? i : k;
    }
    int i1 = (k + 1) % 3, i2 = (k + 2) % 3;
    if (n[k] < 0.0)
    {
        int t = i1; /* keep counter-clockwise about +n */
        i1 = i2;
        i2 = t;
    }
    size_t bytes;
    pt2* pts = build_alloc(b, (size_t)b->n, sizeof(pt2), &bytes);
    if (pts == NULL)
    {
        return false;
    }
    for (int32_t p = 0; p < b->n; ++p)
    {
        pts[p].x = gp(b, p)[i1];
        pts[p].y = gp(b, p)[i2];
        pts[p].idx = p;
    }
    qsort(pts, (size_t)b->n, sizeof(pt2), pt2_cmp);
    int m = 0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (m == 0 || pts[p].x != pts[m - 1].x || pts[p].y != pts[m - 1].y)
        {
            pts[m++] = pts[p];
        }
    }
    /* Andrew's monotone chain, exact; collinear points are dropped */
    ivec* hullv = &b->stack;
    hullv->count = 0;
    for (int pass = 0; pass < 2 && m > 1; ++pass)
    {
        int base = hullv->count;
        for (int i = 0; i < m; ++i)
        {
            const pt2* p = &pts[pass == 0 ? i : m - 1 - i];
            while (hullv->count >= base + 2 &&
                   orient2d(&pts[hullv->data[hullv->count - 2]], &pts[hullv->data[hullv->count - 1]], p) <= 0)
            {
                hullv->count--;
            }
            if (!ivec_push(b, hullv, (int32_t)(p - pts)))
            {
                pxi_free(&b->alloc, pts, bytes);
                return false;
            }
        }
        hullv->count--; /* the last point starts the other chain */
    }
    ivec* poly = &b->order;
    poly->count = 0;
    for (int i = 0; i < hullv->count; ++i)
    {
        if (!ivec_push(b, poly, pts[hullv->data[i]].idx))
        {
            pxi_free(&b->alloc, pts, bytes);
            return false;
        }
    }
    pxi_free(&b->alloc, pts, bytes);
    m = poly->count;
    if (m < 3)
    {
        return true;
    }
    /* simplification, farthest vertex first (a heap), so a vertex limit keeps the most significant ones */
    double pa[3], pc[3], dir[3];
    gpd(b, a, pa);
    gpd(b, c, pc);
    for (int i = 0; i < 3; ++i)
    {
        dir[i] = pc[i] - pa[i];
    }
    int32_t lo = 0, hi = 0;
    double dlo = INFINITY, dhi = -INFINITY;
    for (int32_t i = 0; i < m; ++i)
    {
        double x[3];
        gpd(b, poly->data[i], x);
        double t = dot3(dir, x);
        if (t < dlo)
        {
            dlo = t;
            lo = i;
        }
        if (t > dhi)
        {
            dhi = t;
            hi = i;
        }
    }
    if (lo == hi)
    {
        return true;
    }
    ivec* keep = &b->visible;
    keep->count = 0;
    for (int i = 0; i < m; ++i)
    {
        if (!ivec_push(b, keep, i == lo || i == hi))
        {
            return false;
        }
    }
    int kept = 2;
    b->heap_count = 0;
    if (!push_segment(b, poly, lo, hi) || !push_segment(b, poly, hi, lo))
    {
        return false;
    }
    heap_item top;
    while (heap_pop(b, &top))
    {
        if (b->max_vertices > 0 && kept >= b->max_vertices)
        {
            b->capacity_hit = true;
            break;
        }
        keep->data[top.c] = 1;
        kept++;
        if (!push_segment(b, poly, top.a, top.c) || !push_segment(b, poly, top.c, top.b))
        {
            return false;
        }
    }
    int j = 0;
    for (int i = 0; i < m; ++i)
    {
        if (keep->data[i])
        {
            poly->data[j++] = poly->data[i];
        }
    }
    poly->count = j;
    *kept_count = j;
    return true;
}

/* ------------------------------------------------------------------------------------------------------
 * The hull object: one block holding the struct and every array
 * ------------------------------------------------------------------------------------------------------ */

static size_t align_up(size_t x)
{
    return (x + (PXI_ALLOC_ALIGNMENT - 1)) & ~(size_t)(PXI_ALLOC_ALIGNMENT - 1);
}

/* Write the result into a new hull: vertices (the caller's floats), faces with supporting planes, edges,
 * CSR adjacency, centroid and extent. */
static bool emit(hull_build* b, int dimension, px_hull** result)
{
    int vc = b->res_vertices.count, fc = b->res_counts.count, fi = b->res_indices.count;
    int ec = b->res_edges.count / 2;
    size_t off_vertices = align_up(sizeof(struct px_hull));
    size_t off_faces = align_up(off_vertices + 3 * sizeof(float) * (size_t)vc);
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
    /* a fine seed map where climbing is used, one seed per axis direction otherwise */
    const int seed_k = vc >= PX_HULL_HILL_CLIMB_MIN_VERTICES ? 8 : 1;
    size_t off_seeds = align_up(off_climb + sizeof(int32_t) * climb_count);
    size_t total = align_up(off_seeds + sizeof(int32_t) * 6 * (size_t)(seed_k * seed_k));
    unsigned char* block = pxi_alloc(&b->alloc, total);
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

    for (int i = 0; i < vc; ++i)
    {
        memcpy(h->vertices + 3 * (size_t)i, b->points + 3 * (size_t)b->res_vertices.data[i],
               3 * sizeof(float));
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
            w = climb_exact(b, nf, b->res_vertices.data[idx[0]]);
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
    /* the seed map, each cell's seed climbed from the previous cell's (a neighbouring direction) */
    h->seed_k = seed_k;
    h->seed_map = (int32_t*)(void*)(block + off_seeds);
    int32_t prev = 0;
    for (int face = 0; face < 6; ++face)
    {
        int axis = face / 2;
        for (int i = 0; i < seed_k; ++i)
        {
            for (int j = 0; j < seed_k; ++j)
            {
                vec3 d;
                d[axis] = face % 2 ? -1.0f : 1.0f;
                d[(axis + 1) % 3] = (float)(2 * i + 1) / (float)seed_k - 1.0f;
                d[(axis + 2) % 3] = (float)(2 * j + 1) / (float)seed_k - 1.0f;
                prev = pxi_hull_climb(h, d, prev);
                h->seed_map[(face * seed_k + i) * seed_k + j] = prev;
            }
        }
    }
    *result = h;
    return true;
}

/* ------------------------------------------------------------------------------------------------------
 * Driver
 * ------------------------------------------------------------------------------------------------------ */

static void build_free(hull_build* b)
{
    release(b, b->faces, b->face_cap, sizeof(qh_face));
    release(b, b->heap, b->heap_cap, sizeof(heap_item));
    release(b, b->planes, b->planes_cap, 4 * sizeof(double));
    release(b, b->cand, b->cand_cap, sizeof(merge_candidate));
    release(b, b->sorted, b->sorted_cap, sizeof(merge_candidate));
    ivec* vecs[] = { &b->free_faces,   &b->stack,      &b->visible,     &b->horizon,   &b->order,
                     &b->heads,        &b->cone,       &b->work,        &b->loop,      &b->changed,
                     &b->res_vertices, &b->res_counts, &b->res_indices, &b->res_edges, &b->res_twisted };
    for (size_t i = 0; i < sizeof(vecs) / sizeof(vecs[0]); ++i)
    {
        release(b, vecs[i]->data, vecs[i]->cap, sizeof(int32_t));
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
 * The points are also reordered along a Morton curve (a two-pass radix sort of 30-bit codes): quickhull
 * walks its outside sets point by point, and neighbours in space then sit near each other in memory. The
 * build works on the reordered copy; it holds the caller's values, so the hull's vertices are unchanged. */
static bool snap(hull_build* b, const double lo[3], double scale)
{
    size_t n = (size_t)b->n;
    size_t per_point = 3 * sizeof(int32_t) + 3 * sizeof(int32_t) + sizeof(uint32_t) + 3 * sizeof(float);
    b->point_block = build_alloc(b, n, per_point, &b->point_block_size);
    size_t sort_bytes;
    uint32_t* sort =
        b->point_block != NULL ? build_alloc(b, 4 * n + 2 * 32768, sizeof(uint32_t), &sort_bytes) : NULL;
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
    for (int pass = 0; pass < 2; ++pass)
    {
        const uint32_t* kin = pass == 0 ? key : key2;
        const uint32_t* iin = pass == 0 ? idx : idx2;
        uint32_t* kout = pass == 0 ? key2 : key;
        uint32_t* iout = pass == 0 ? idx2 : idx;
        uint32_t* c = count + 32768 * (size_t)pass;
        int shift = 15 * pass;
        memset(c, 0, 32768 * sizeof(uint32_t));
        for (size_t i = 0; i < n; ++i)
        {
            c[(kin[i] >> shift) & 32767u]++;
        }
        uint32_t sum = 0;
        for (int d = 0; d < 32768; ++d)
        {
            uint32_t t = c[d];
            c[d] = sum;
            sum += t;
        }
        for (size_t i = 0; i < n; ++i)
        {
            uint32_t slot = c[(kin[i] >> shift) & 32767u]++;
            kout[slot] = kin[i];
            iout[slot] = iin[i];
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
    /* C: farthest from the line AB; D: farthest from the plane ABC */
    int32_t d = -1, e = -1;
    double dist_line = -1.0, dist_plane = -1.0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        double t = line_dist(b, a, c, p);
        if (t > dist_line)
        {
            dist_line = t;
            d = p;
        }
    }
    if (dist_line > b->eps)
    {
        double n[3], pa[3];
        cross_exact(gp(b, a), gp(b, c), gp(b, d), n);
        double len = sqrt(dot3(n, n));
        gpd(b, a, pa);
        for (int32_t p = 0; p < b->n; ++p)
        {
            double x[3];
            gpd(b, p, x);
            double t = fabs(n[0] * (x[0] - pa[0]) + n[1] * (x[1] - pa[1]) + n[2] * (x[2] - pa[2])) / len;
            if (t > dist_plane)
            {
                dist_plane = t;
                e = p;
            }
        }
    }
    int dim = dist_line <= b->eps ? 1 : (dist_plane <= b->eps ? 2 : 3);
    int limit = b->max_vertices;
    if (limit == 1)
    {
        /* one vertex allowed: the first extreme point */
        *dimension = 0;
        b->capacity_hit = true;
        return result_polygon(b, &a, 1);
    }
    if (dim == 1)
    {
        *dimension = 1;
        return result_segment(b, a, c);
    }
    if (limit == 2)
    {
        const int32_t seg[2] = { a, c };
        *dimension = 1;
        b->capacity_hit = true;
        return result_polygon(b, seg, 2);
    }
    if (dim == 2 || limit == 3)
    {
        int kept;
        if (dim == 2)
        {
            if (!flat_hull(b, a, c, d, &kept))
            {
                return false;
            }
            if (kept < 3)
            {
                /* within eps of the chord after all (a borderline cloud): a segment */
                *dimension = 1;
                return result_segment(b, a, c);
            }
            *dimension = 2;
            return result_polygon(b, b->order.data, kept);
        }
        const int32_t tri[3] = { a, c, d };
        *dimension = 2;
        b->capacity_hit = true;
        return result_polygon(b, tri, 3);
    }
    const int32_t s[4] = { a, c, d, e };
    if (!qh_run(b, s) || !reorder_faces(b) || !exact_graph(b) || !mesh_from_quickhull(b) || !merge_exact(b))
    {
        return false;
    }
    b->work.count = 0;
    for (int32_t p = 0; p < b->n; ++p)
    {
        if (b->out[p] >= 0 && !ivec_push(b, &b->work, p))
        {
            return false;
        }
    }
    if (!cleanup_vertices(b) || !merge_near(b))
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
            if (!ivec_push(b, &b->loop, b->he[h].origin))
            {
                return false;
            }
            h = b->he[h].next;
        } while (h != h0);
        *dimension = 2;
        return result_polygon(b, b->loop.data, b->loop.count);
    }
    *dimension = 3;
    return result_from_mesh(b);
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
        d.max_vertices < 0)
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
        ok = result_polygon(&b, &first, 1);
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

int32_t pxi_hull_climb(const struct px_hull* hull, const vec3 d, int32_t start)
{
    const float* v = hull->vertices;
    const int32_t* off = hull->adjacency_offsets;
    const int32_t* adj = hull->adjacency;
    /* start from the seed of d's cell or from the warm start, whichever is higher */
    int32_t cur = pxi_hull_seed(hull, d);
    const float* p = v + 3 * (size_t)cur;
    /* same rounding as the scans: (x dx + y dy) + z dz */
    float best = (p[0] * d[0] + p[1] * d[1]) + p[2] * d[2];
    if (start >= 0)
    {
        p = v + 3 * (size_t)start;
        float warm = (p[0] * d[0] + p[1] * d[1]) + p[2] * d[2];
        if (!(warm < best))
        {
            cur = start; /* also for a NaN direction: the start comes back */
            best = warm;
        }
    }
    if (!(best == best))
    {
        return cur; /* NaN direction (every comparison below would fail anyway) */
    }
    for (;;)
    {
        /* hot loop: steepest ascent; a move needs a strictly larger dot product, so it cannot cycle */
        int32_t nx = cur;
        for (int32_t k = off[cur], end = off[cur + 1]; k < end; ++k)
        {
            const float* q = v + 3 * (size_t)adj[k];
            float dot = (q[0] * d[0] + q[1] * d[1]) + q[2] * d[2];
            if (dot > best)
            {
                best = dot;
                nx = adj[k];
            }
        }
        if (nx != cur)
        {
            cur = nx;
            continue;
        }
        /* a local maximum of the edges: on a slightly twisted merged face a corner can be one, so the other
         * vertices of such faces are checked before stopping */
        for (int32_t k = hull->climb_face_offsets[cur], end = hull->climb_face_offsets[cur + 1]; k < end; ++k)
        {
            const px_hull_face* f = &hull->faces[hull->climb_faces[k]];
            for (int i = 0; i < f->count; ++i)
            {
                int32_t w = hull->face_indices[f->first + i];
                const float* q = v + 3 * (size_t)w;
                float dot = (q[0] * d[0] + q[1] * d[1]) + q[2] * d[2];
                if (dot > best)
                {
                    best = dot;
                    nx = w;
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
