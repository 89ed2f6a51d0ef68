/* Convex hull builder, part 2: the quickhull triangles become convex polygons on a half-edge mesh, first
 * the exactly coplanar ones, then nearly coplanar neighbours and vertex stars within the tolerance (see
 * hull.c). */
#include "hull_build.h"

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
bool pxi_hull_reorder_faces(hull_build* b)
{
    int live = 0;
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        live += b->faces[t].alive;
    }
    size_t bytes, map_bytes, count_bytes;
    qh_face* faces = pxi_hull_build_alloc(b, (size_t)live, sizeof(qh_face), &bytes);
    int32_t* map = faces != NULL ? pxi_hull_build_alloc(b, (size_t)b->face_count, sizeof(int32_t), &map_bytes) : NULL;
    int32_t* count = map != NULL ? pxi_hull_build_alloc(b, (size_t)b->n + 1, sizeof(int32_t), &count_bytes) : NULL;
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
    pxi_hull_release(b, b->faces, b->face_cap, sizeof(qh_face));
    b->faces = faces;
    b->face_count = b->face_cap = live;
    b->free_faces.count = 0;
    return true;
}

/* The vertex graph of the quickhull triangles: each vertex's successors along its faces (every edge is in
 * two faces, once each way, so these are all its neighbours). Merging removes edges and vertices, but the
 * planes' offsets are computed by climbing this graph: on the exactly convex triangulated hull a local
 * maximum is the global one, over every vertex ever kept, merged away or not. */
bool pxi_hull_exact_graph(hull_build* b)
{
    size_t bytes, edges = 0;
    for (int32_t t = 0; t < b->face_count; ++t)
    {
        edges += b->faces[t].alive ? 3 : 0;
    }
    b->graph_offsets = pxi_hull_build_alloc(b, (size_t)b->n + 1, sizeof(int32_t), &bytes);
    b->graph = b->graph_offsets != NULL ? pxi_hull_build_alloc(b, edges, sizeof(int32_t), &b->graph_bytes) : NULL;
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
double pxi_hull_climb_exact(const hull_build* b, const double n[3], int32_t start)
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
bool pxi_hull_mesh_from_quickhull(hull_build* b)
{
    size_t bytes;
    b->mf_count = b->face_count;
    b->he_count = 3 * b->face_count;
    b->he = pxi_hull_build_alloc(b, (size_t)b->he_count, sizeof(hm_edge), &bytes);
    b->mf = b->he != NULL ? pxi_hull_build_alloc(b, (size_t)b->mf_count, sizeof(hm_face), &bytes) : NULL;
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
                e->twin = 3 * g + pxi_hull_edge_of(&b->faces[g], f->v[(i + 1) % 3], f->v[i]);
            }
        }
    }
    return true;
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
        pxi_hull_cross_exact(o, gp(b, b->he[h].origin), gp(b, he_dest(b, h)), n);
        area[0] += n[0];
        area[1] += n[1];
        area[2] += n[2];
    }
}

/* Merge every connected set of exactly coplanar triangles into one polygon. On a convex polytope such a set
 * is a convex facet, so its boundary is a single simple loop; interior vertices disappear with it. */
bool pxi_hull_merge_exact(hull_build* b)
{
    ivec* comp = &b->work;
    comp->count = 0;
    for (int32_t t = 0; t < b->mf_count; ++t)
    {
        if (!pxi_hull_ivec_push(b, comp, -1))
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
        if (!pxi_hull_ivec_push(b, &b->stack, t))
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
                if (c[g] < 0 && pxi_hull_face_side(b, tf, apex) == 0)
                {
                    c[g] = t;
                    if (!pxi_hull_ivec_push(b, &b->stack, g))
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
        return pxi_hull_ivec_push(b, &b->changed, face);
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
    return pxi_hull_ivec_push(b, &b->work, u) && pxi_hull_ivec_push(b, &b->work, w);
}

bool pxi_hull_cleanup_vertices(hull_build* b)
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
            if (!pxi_hull_ivec_push(b, &b->loop, o))
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
    return face_changed(b, f) && face_changed(b, g) && pxi_hull_ivec_push(b, &b->work, a) && pxi_hull_ivec_push(b, &b->work, z);
}

/* Candidates by flatness (thickness in [0, eps]) into b->sorted: a stable counting sort on 1024 buckets of
 * eps / 1024. Pairs closer in flatness than that are equally good, and the order stays deterministic. */
#define HULL_MERGE_BUCKETS 1024
static bool sort_candidates(hull_build* b)
{
    int n = b->cand_count;
    if (!pxi_hull_grow(b, (void**)&b->sorted, &b->sorted_cap, sizeof(merge_candidate), n))
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
                        if (b->cand_count == b->cand_cap && !pxi_hull_grow(b, (void**)&b->cand, &b->cand_cap,
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
            if (!try_merge(b, mc->f, mc->g, false, &merged) || !pxi_hull_cleanup_vertices(b))
            {
                return false;
            }
        }
        /* next round: the faces that changed */
        faces->count = 0;
        for (int i = 0; i < b->changed.count; ++i)
        {
            if (b->mf[b->changed.data[i]].edge >= 0 && !pxi_hull_ivec_push(b, faces, b->changed.data[i]))
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
        if (!pxi_hull_ivec_push(b, star, h))
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
            if (!pxi_hull_ivec_push(b, &b->loop, o))
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
    if (!pxi_hull_cleanup_vertices(b))
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
bool pxi_hull_merge_near(hull_build* b)
{
    ivec* faces = &b->visible;
    faces->count = 0;
    for (int32_t f = 0; f < b->mf_count; ++f)
    {
        if (b->mf[f].edge >= 0 && !pxi_hull_ivec_push(b, faces, f))
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
            if (b->mf[b->changed.data[i]].edge >= 0 && !pxi_hull_ivec_push(b, faces, b->changed.data[i]))
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
