/* Convex hull builder, part 1: exact predicates on the snapped grid points, the build's growable arrays and
 * heap, and 3D quickhull with outside sets and farthest-point-first insertion (see hull.c for the whole
 * algorithm and its tolerance). */
#include "hull_build.h"

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
int pxi_hull_orient3d(const int32_t* a, const int32_t* b, const int32_t* c, const int32_t* d)
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
void pxi_hull_cross_exact(const int32_t* a, const int32_t* b, const int32_t* c, double n[3])
{
    int64_t ux = (int64_t)b[0] - a[0], uy = (int64_t)b[1] - a[1], uz = (int64_t)b[2] - a[2];
    int64_t vx = (int64_t)c[0] - a[0], vy = (int64_t)c[1] - a[1], vz = (int64_t)c[2] - a[2];
    n[0] = (double)(uy * vz - uz * vy);
    n[1] = (double)(uz * vx - ux * vz);
    n[2] = (double)(ux * vy - uy * vx);
}

/* ------------------------------------------------------------------------------------------------------
 * Growable arrays and the heap (all memory through the hull's allocator)
 * ------------------------------------------------------------------------------------------------------ */

void* pxi_hull_build_alloc(hull_build* b, size_t count, size_t elem, size_t* bytes)
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
bool pxi_hull_grow(hull_build* b, void** data, int* cap, size_t elem, int need)
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
    void* p = pxi_hull_build_alloc(b, (size_t)new_cap, elem, &bytes);
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

void pxi_hull_release(hull_build* b, void* data, int cap, size_t elem)
{
    if (data != NULL && cap > 0)
    {
        pxi_free(&b->alloc, data, (size_t)cap * elem);
    }
}

bool pxi_hull_ivec_push(hull_build* b, ivec* v, int32_t x)
{
    if (v->count == v->cap && !pxi_hull_grow(b, (void**)&v->data, &v->cap, sizeof(int32_t), v->count + 1))
    {
        return false;
    }
    v->data[v->count++] = x;
    return true;
}

bool pxi_hull_heap_push(hull_build* b, heap_item item)
{
    if (b->heap_count == b->heap_cap &&
        !pxi_hull_grow(b, (void**)&b->heap, &b->heap_cap, sizeof(heap_item), b->heap_count + 1))
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

bool pxi_hull_heap_pop(hull_build* b, heap_item* top)
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
int pxi_hull_face_side(const hull_build* b, const qh_face* f, int32_t p)
{
    double d = face_dist(b, f, p);
    if (d > HULL_FILTER || d < -HULL_FILTER)
    {
        return d > 0.0 ? 1 : -1;
    }
    return pxi_hull_orient3d(gp(b, f->v[0]), gp(b, f->v[1]), gp(b, f->v[2]), gp(b, p));
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
            !pxi_hull_grow(b, (void**)&b->faces, &b->face_cap, sizeof(qh_face), b->face_count + 1))
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
    pxi_hull_cross_exact(gp(b, a), gp(b, v1), gp(b, v2), n);
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
int pxi_hull_edge_of(const qh_face* g, int32_t from, int32_t to)
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
    return pxi_hull_heap_push(b, item);
}

/* The first tetrahedron: four faces, neighbours linked, every other point assigned to the face it is
 * farthest outside of, or dropped when inside all four. */
static bool qh_start(hull_build* b, const int32_t s[4])
{
    int32_t v0 = s[0], v1 = s[1], v2 = s[2], v3 = s[3];
    if (pxi_hull_orient3d(gp(b, v0), gp(b, v1), gp(b, v2), gp(b, v3)) > 0)
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
                if (j != i && pxi_hull_edge_of(&b->faces[ids[j]], f->v[(k + 1) % 3], f->v[k]) >= 0)
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

/* Remove point p from the outside set of face id (a point f0 does not see strictly, or an inconsistent
 * horizon: see qh_add). */
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

/* A face that sees p strictly (exact sign), searched from f0 over the faces p is on or above; -1 when there
 * is none (p lies on the hull, or inside it). */
static int32_t find_strictly_visible(hull_build* b, int32_t f0, int32_t p, bool* ok)
{
    *ok = true;
    uint32_t pass = ++b->pass;
    b->stack.count = 0;
    b->faces[f0].pass = pass;
    if (!pxi_hull_ivec_push(b, &b->stack, f0))
    {
        *ok = false;
        return -1;
    }
    while (b->stack.count > 0)
    {
        int32_t id = b->stack.data[--b->stack.count];
        int side = pxi_hull_face_side(b, &b->faces[id], p);
        if (side > 0)
        {
            return id;
        }
        if (side < 0)
        {
            continue;
        }
        for (int k = 0; k < 3; ++k)
        {
            int32_t gid = b->faces[id].adj[k];
            if (b->faces[gid].pass != pass)
            {
                b->faces[gid].pass = pass;
                if (!pxi_hull_ivec_push(b, &b->stack, gid))
                {
                    *ok = false;
                    return -1;
                }
            }
        }
    }
    return -1;
}

/* Add point p, outside face f0: delete the faces it sees, connect their horizon to p, and hand their outside
 * points to the new faces. Returns false on allocation failure. */
static bool qh_add(hull_build* b, int32_t f0, int32_t p)
{
    if (pxi_hull_face_side(b, &b->faces[f0], p) <= 0)
    {
        /* The outside sets are filled by plane distances in double, which put a point exactly on f0's plane
         * (a duplicate of one of its vertices, a lattice point in its plane) a hair outside. Taken as seen,
         * it made zero-area cone triangles on the duplicate, whose "plane" every point is on, and the merge
         * of coplanar triangles then flooded across half the hull (lattice clouds with a duplicate point:
         * PX_OK hulls missing half their vertices, or with none). The point goes to a face that sees it
         * strictly, or is dropped when none does: it is on the hull already. */
        bool ok = true;
        int32_t g = find_strictly_visible(b, f0, p, &ok);
        if (!ok)
        {
            return false;
        }
        face_drop_point(b, f0, p);
        if (!face_queue(b, f0))
        {
            return false;
        }
        if (g < 0)
        {
            return true;
        }
        f0 = g;
    }
    uint32_t pass = ++b->pass;
    b->stack.count = 0;
    b->visible.count = 0;
    b->horizon.count = 0;
    qh_face* f = &b->faces[f0];
    f->pass = pass;
    f->visible = 1;
    if (!pxi_hull_ivec_push(b, &b->stack, f0) || !pxi_hull_ivec_push(b, &b->visible, f0))
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
            g->visible = (uint8_t)(pxi_hull_face_side(b, g, p) > 0);
            if (g->visible && (!pxi_hull_ivec_push(b, &b->stack, gid) || !pxi_hull_ivec_push(b, &b->visible, gid)))
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
            if (!pxi_hull_ivec_push(b, &b->horizon, id * 3 + k))
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
        if (!pxi_hull_ivec_push(b, &b->order, cur))
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
        if (!pxi_hull_ivec_push(b, &b->cone, fv->v[e % 3]) || !pxi_hull_ivec_push(b, &b->cone, fv->v[(e % 3 + 1) % 3]) ||
            !pxi_hull_ivec_push(b, &b->cone, fv->adj[e % 3]))
        {
            return false;
        }
    }
    for (int i = 0; i < b->visible.count; ++i)
    {
        int32_t id = b->visible.data[i];
        if ((b->faces[id].head >= 0 && !pxi_hull_ivec_push(b, &b->heads, b->faces[id].head)) ||
            (b->faces[id].near >= 0 && !pxi_hull_ivec_push(b, &b->heads, b->faces[id].near)) ||
            !pxi_hull_ivec_push(b, &b->free_faces, id))
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
        gf->adj[pxi_hull_edge_of(gf, c, a)] = id;
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
    if (!pxi_hull_grow(b, (void**)&b->planes, &b->planes_cap, 4 * sizeof(double), hn))
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
            if (!pxi_hull_ivec_push(b, &b->stack, id))
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
                    if (d > 0.0 && !pxi_hull_ivec_push(b, &b->stack, gid))
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
bool pxi_hull_qh_run(hull_build* b, const int32_t s[4])
{
    if (!qh_start(b, s))
    {
        return false;
    }
    for (;;)
    {
        heap_item top;
        while (pxi_hull_heap_pop(b, &top))
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
