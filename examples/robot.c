/* Robot proximity: a robot made of convex pieces moves through a static environment mesh, and every step asks
 * the world for the minimum clearance (px_world_proximity), which piece and which triangle are closest, and
 * the witness points; steps closer than a safety distance are flagged.
 *
 * The scene is FCL's distance benchmark: env.obj (a room with tables and chairs, 2180 triangles) and rob.obj
 * (a corner desk on three legs, 216 triangles), read from the two paths given on the command line, else from
 * the shared data folder the build points to (PROXIMA_DATA_DIR). When they are missing (or with --generated)
 * a stand-in of the same size is generated: a room with pillars and tables, and an L-shaped desk on legs.
 *
 * Convex pieces: the robot's triangles are welded by exact position and split into connected components (rob.obj
 * has four: the desk top, 120 triangles, and three legs, open 16-sided tubes of 32 triangles). A component
 * whose surface is not convex is cut, BSP-style, along the plane of its most concave triangle (the plane with
 * the most surface reaching to its less populated side), the triangles clipped into the two halves, until every
 * part is convex within 2% of the component's size or it has 16 parts; each part's corners are wrapped by
 * px_hull_create. Measured: rob.obj's desk top (concavity 539 over a size of 1608) becomes 8 pieces with 20
 * left (the 20-unit lip of its front edge), each leg one piece: 11 hulls. The pieces cover the robot's surface,
 * so the clearance they give never exceeds the robot's own. No test relies on a closed volume: the legs are open.
 *
 * Check: every step is also answered by brute force without the world (px_mesh_shape_distance of every piece
 * against the whole environment mesh), and px_world_body_proximity of every piece is compared with the pairs
 * of px_world_proximity. Any disagreement beyond 1e-4 relative makes the program exit with status 1.
 *
 * Usage: robot_example [--generated] [--steps N] [--quiet] [ENV.obj ROB.obj] */
#include <proxima/proxima.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef PROXIMA_DATA_DIR
#define PROXIMA_DATA_DIR "../shared/data"
#endif

#define MAX_CELLS 16           /* most convex pieces per component (and most cuts of one triangle) */
#define MAX_PIECES 64          /* most convex pieces of the robot */
#define CONCAVITY_TOLERANCE 0.02 /* accept k when every cell's concavity is within 2% of the component's size */
#define SAFETY_DISTANCE 50.0f  /* flag steps closer than this (the scenes are in millimetres) */
#define THRESHOLD 400.0f       /* proximity query radius */
#define AGREE_RELATIVE 1e-4    /* world against brute force */

/* ---------------------------------------------------------------------------------------------------------
 * Triangle lists (the generated stand-in, and the robot's components)
 * --------------------------------------------------------------------------------------------------------- */

typedef struct tri_list
{
    float* v;
    int32_t* idx;
    int vertex_count, vertex_capacity;
    int triangle_count, triangle_capacity;
} tri_list;

static bool grow(void** data, int* capacity, int need, size_t elem)
{
    if (need <= *capacity)
    {
        return true;
    }
    int cap = *capacity > 0 ? *capacity : 64;
    while (cap < need)
    {
        cap *= 2;
    }
    void* p = realloc(*data, (size_t)cap * elem);
    if (p == NULL)
    {
        return false;
    }
    *data = p;
    *capacity = cap;
    return true;
}

static int tl_vertex(tri_list* t, float x, float y, float z)
{
    void* data = t->v;
    if (!grow(&data, &t->vertex_capacity, t->vertex_count + 1, 3 * sizeof(float)))
    {
        return -1;
    }
    t->v = data;
    float* p = t->v + 3 * t->vertex_count;
    p[0] = x;
    p[1] = y;
    p[2] = z;
    return t->vertex_count++;
}

static bool tl_triangle(tri_list* t, int a, int b, int c)
{
    void* data = t->idx;
    if (a < 0 || b < 0 || c < 0 || !grow(&data, &t->triangle_capacity, t->triangle_count + 1, 3 * sizeof(int32_t)))
    {
        return false;
    }
    t->idx = data;
    int32_t* p = t->idx + 3 * t->triangle_count++;
    p[0] = a;
    p[1] = b;
    p[2] = c;
    return true;
}

/* A vertical prism over a simple polygon (counter-clockwise seen from +z) whose vertex 0 sees every other
 * vertex, so that a fan from it triangulates the caps. Outward winding. */
static bool tl_prism(tri_list* t, const float (*poly)[2], int n, float z0, float z1)
{
    int base = t->vertex_count;
    for (int i = 0; i < n; ++i)
    {
        if (tl_vertex(t, poly[i][0], poly[i][1], z0) < 0 || tl_vertex(t, poly[i][0], poly[i][1], z1) < 0)
        {
            return false;
        }
    }
    bool ok = true;
    for (int i = 1; i + 1 < n; ++i)
    {
        ok = ok && tl_triangle(t, base, base + 2 * (i + 1), base + 2 * i);                 /* bottom */
        ok = ok && tl_triangle(t, base + 1, base + 2 * i + 1, base + 2 * (i + 1) + 1);     /* top */
    }
    for (int i = 0; i < n; ++i)
    {
        int j = (i + 1) % n;
        int a0 = base + 2 * i, a1 = a0 + 1, b0 = base + 2 * j, b1 = b0 + 1;
        ok = ok && tl_triangle(t, a0, b0, b1) && tl_triangle(t, a0, b1, a1);
    }
    return ok;
}

static bool tl_box(tri_list* t, float x0, float y0, float z0, float x1, float y1, float z1)
{
    const float rect[4][2] = { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } };
    return tl_prism(t, rect, 4, z0, z1);
}

static void tl_free(tri_list* t)
{
    free(t->v);
    free(t->idx);
    memset(t, 0, sizeof(*t));
}

/* The stand-in environment, in the units and layout of env.obj: a 4 m x 6 m room (floor, four walls), pillars
 * and two tables along the robot's path. */
static bool make_room(tri_list* t)
{
    bool ok = tl_box(t, -3000.0f, -3000.0f, -14.0f, 1000.0f, 3000.0f, -6.0f);       /* floor */
    ok = ok && tl_box(t, -3004.0f, -3000.0f, 12.0f, -2996.0f, 3000.0f, 2988.0f);    /* walls */
    ok = ok && tl_box(t, 996.0f, -3000.0f, 12.0f, 1004.0f, 3000.0f, 2988.0f);
    ok = ok && tl_box(t, -3000.0f, -3004.0f, 12.0f, 1000.0f, -2996.0f, 2988.0f);
    ok = ok && tl_box(t, -3000.0f, 2996.0f, 12.0f, 1000.0f, 3004.0f, 2988.0f);
    const float pillars[][2] = { { -340.0f, -1700.0f }, { -960.0f, -300.0f }, { -300.0f, 1200.0f },
                                 { 800.0f, 1300.0f },   { -1700.0f, -900.0f } };
    for (size_t i = 0; i < sizeof pillars / sizeof pillars[0]; ++i)
    {
        ok = ok && tl_box(t, pillars[i][0] - 100.0f, pillars[i][1] - 100.0f, 0.0f, pillars[i][0] + 100.0f,
                          pillars[i][1] + 100.0f, 2400.0f);
    }
    const float tables[][2] = { { -1500.0f, -400.0f }, { -900.0f, 1500.0f } };
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; ++i)
    {
        float x = tables[i][0], y = tables[i][1];
        ok = ok && tl_box(t, x - 250.0f, y - 250.0f, 500.0f, x + 250.0f, y + 250.0f, 510.0f);
        for (int c = 0; c < 4; ++c)
        {
            float lx = x + ((c & 1) ? 200.0f : -220.0f), ly = y + ((c & 2) ? 200.0f : -220.0f);
            ok = ok && tl_box(t, lx, ly, 5.0f, lx + 20.0f, ly + 20.0f, 495.0f);
        }
    }
    return ok;
}

/* The stand-in robot, like rob.obj: an L-shaped desk top (one non-convex component) on three legs. */
static bool make_robot(tri_list* t)
{
    /* vertex 0 is the reflex corner, which sees the whole L */
    const float l_shape[6][2] = { { -100.0f, -205.0f }, { -100.0f, 605.0f }, { -500.0f, 605.0f },
                                  { -500.0f, -605.0f }, { 500.0f, -605.0f }, { 500.0f, -205.0f } };
    bool ok = tl_prism(t, l_shape, 6, 75.0f, 425.0f);
    ok = ok && tl_box(t, -470.0f, -515.0f, -425.0f, -430.0f, -475.0f, 75.0f);
    ok = ok && tl_box(t, 430.0f, -515.0f, -425.0f, 470.0f, -475.0f, 75.0f);
    ok = ok && tl_box(t, -420.0f, 485.0f, -425.0f, -380.0f, 525.0f, 75.0f);
    return ok;
}

/* ---------------------------------------------------------------------------------------------------------
 * Convex pieces: connected components, k-means cells, clipped triangles, hulls
 * --------------------------------------------------------------------------------------------------------- */

typedef struct piece
{
    px_hull* hull;
    px_shape shape;
    px_body_id body;
    int component;
} piece;

typedef struct robot
{
    piece pieces[MAX_PIECES];
    int piece_count;
    int component_count;
    float radius; /* largest |vertex| in the robot's frame */
} robot;

static const float* g_sort_vertices; /* qsort has no context argument */

static int compare_positions(const void* x, const void* y)
{
    const float* a = g_sort_vertices + 3 * *(const int*)x;
    const float* b = g_sort_vertices + 3 * *(const int*)y;
    for (int k = 0; k < 3; ++k)
    {
        if (a[k] != b[k])
        {
            return a[k] < b[k] ? -1 : 1;
        }
    }
    return 0;
}

static int find_root(int* parent, int i)
{
    while (parent[i] != i)
    {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

/* component[t] for every triangle (0 .. returned count - 1, numbered by first triangle); -1 on failure. */
static int triangle_components(const float* v, int vertex_count, const int32_t* idx, int triangle_count,
                               int* component)
{
    int* order = malloc((size_t)(vertex_count > 0 ? vertex_count : 1) * sizeof(int));
    int* weld = malloc((size_t)(vertex_count > 0 ? vertex_count : 1) * sizeof(int));
    int* parent = malloc((size_t)(vertex_count > 0 ? vertex_count : 1) * sizeof(int));
    int* label = malloc((size_t)(vertex_count > 0 ? vertex_count : 1) * sizeof(int));
    int count = -1;
    if (order != NULL && weld != NULL && parent != NULL && label != NULL)
    {
        for (int i = 0; i < vertex_count; ++i)
        {
            order[i] = i;
            parent[i] = i;
            label[i] = -1;
        }
        g_sort_vertices = v;
        qsort(order, (size_t)vertex_count, sizeof(int), compare_positions);
        for (int i = 0; i < vertex_count; ++i)
        {
            weld[order[i]] = (i > 0 && compare_positions(&order[i - 1], &order[i]) == 0) ? weld[order[i - 1]]
                                                                                        : order[i];
        }
        for (int t = 0; t < triangle_count; ++t)
        {
            int a = find_root(parent, weld[idx[3 * t]]);
            for (int k = 1; k < 3; ++k)
            {
                int b = find_root(parent, weld[idx[3 * t + k]]);
                parent[b] = a;
            }
        }
        count = 0;
        for (int t = 0; t < triangle_count; ++t)
        {
            int r = find_root(parent, weld[idx[3 * t]]);
            if (label[r] < 0)
            {
                label[r] = count++;
            }
            component[t] = label[r];
        }
    }
    free(order);
    free(weld);
    free(parent);
    free(label);
    return count;
}

/* A polygon of the robot's surface, clipped from one of its triangles, with that triangle's plane. */
#define POLY_MAX (3 + MAX_CELLS)
typedef struct polygon
{
    double v[POLY_MAX][3];
    double plane[4]; /* unit normal, offset; all zero for a degenerate triangle */
    int count;
} polygon;

static double dist2(const double* a, const double* b)
{
    double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return dx * dx + dy * dy + dz * dz;
}

/* Volume enclosed by a hull (0 below dimension 3): the divergence theorem over its faces. */
static double hull_volume(const px_hull* hull)
{
    if (px_hull_dimension(hull) < 3)
    {
        return 0.0;
    }
    const float* v = px_hull_vertices(hull);
    const px_hull_face* faces = px_hull_faces(hull);
    const int32_t* fi = px_hull_face_indices(hull);
    double volume = 0.0;
    for (int f = 0; f < px_hull_face_count(hull); ++f)
    {
        const float* p0 = v + 3 * fi[faces[f].first];
        double area[3] = { 0.0, 0.0, 0.0 };
        for (int i = 1; i + 1 < faces[f].count; ++i)
        {
            const float* p1 = v + 3 * fi[faces[f].first + i];
            const float* p2 = v + 3 * fi[faces[f].first + i + 1];
            double e1[3] = { (double)p1[0] - p0[0], (double)p1[1] - p0[1], (double)p1[2] - p0[2] };
            double e2[3] = { (double)p2[0] - p0[0], (double)p2[1] - p0[1], (double)p2[2] - p0[2] };
            area[0] += 0.5 * (e1[1] * e2[2] - e1[2] * e2[1]);
            area[1] += 0.5 * (e1[2] * e2[0] - e1[0] * e2[2]);
            area[2] += 0.5 * (e1[0] * e2[1] - e1[1] * e2[0]);
        }
        volume += ((double)p0[0] * area[0] + (double)p0[1] * area[1] + (double)p0[2] * area[2]) / 3.0;
    }
    return volume;
}

static double plane_distance(const double* plane, const double* x)
{
    return plane[0] * x[0] + plane[1] * x[1] + plane[2] * x[2] - plane[3];
}

/* Sutherland-Hodgman: the part of polygon in on the side of plane given by sign (+1: above, -1: below). */
static void clip_polygon(const polygon* in, const double* plane, double sign, polygon* out)
{
    out->count = 0;
    memcpy(out->plane, in->plane, sizeof out->plane);
    for (int i = 0; i < in->count; ++i)
    {
        const double* a = in->v[i];
        const double* b = in->v[(i + 1) % in->count];
        double da = sign * plane_distance(plane, a), db = sign * plane_distance(plane, b);
        if (da >= 0.0)
        {
            memcpy(out->v[out->count++], a, sizeof(double[3]));
        }
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0))
        {
            double s = da / (da - db);
            for (int k = 0; k < 3; ++k)
            {
                out->v[out->count][k] = a[k] + s * (b[k] - a[k]);
            }
            out->count++;
        }
    }
}

/* Concavity of a set of polygons: for each of their planes, how far the set's corners reach on its less
 * populated side (0 when every plane has all the corners on one side: a convex patch of surface). Writes the
 * polygon whose plane is the worst. */
static double concavity(const polygon* p, int n, int* worst)
{
    double result = 0.0;
    *worst = -1;
    for (int f = 0; f < n; ++f)
    {
        if (p[f].plane[0] == 0.0 && p[f].plane[1] == 0.0 && p[f].plane[2] == 0.0)
        {
            continue;
        }
        double above = 0.0, below = 0.0;
        for (int i = 0; i < n; ++i)
        {
            for (int c = 0; c < p[i].count; ++c)
            {
                double d = plane_distance(p[f].plane, p[i].v[c]);
                above = fmax(above, d);
                below = fmax(below, -d);
            }
        }
        if (fmin(above, below) > result)
        {
            result = fmin(above, below);
            *worst = f;
        }
    }
    return result;
}

typedef struct component_split
{
    int triangles;      /* of the component */
    double size;        /* diagonal of its bounding box */
    double concavity;   /* before the split */
    double remaining;   /* largest concavity of a piece after it */
    int pieces;
    double hull_volume; /* of its pieces */
} component_split;

/* Cut a set of polygons along the plane of its most concave polygon until every part is convex within
 * tolerance (or the pieces run out), and wrap each part in a hull. p is consumed. */
static bool split_polygons(polygon* p, int n, double tolerance, robot* r, int component, int budget,
                           component_split* s)
{
    int worst;
    double c = concavity(p, n, &worst);
    if (c > tolerance && budget > 1 && worst >= 0)
    {
        double plane[4];
        memcpy(plane, p[worst].plane, sizeof plane);
        polygon* halves[2] = { malloc((size_t)n * sizeof(polygon)), malloc((size_t)n * sizeof(polygon)) };
        int counts[2] = { 0, 0 };
        bool ok = halves[0] != NULL && halves[1] != NULL;
        for (int h = 0; h < 2 && ok; ++h)
        {
            for (int i = 0; i < n; ++i)
            {
                polygon* out = &halves[h][counts[h]];
                clip_polygon(&p[i], plane, h == 0 ? 1.0 : -1.0, out);
                /* a polygon on the plane goes to one side only */
                bool on_plane = true;
                for (int k = 0; k < p[i].count; ++k)
                {
                    on_plane = on_plane && plane_distance(plane, p[i].v[k]) == 0.0;
                }
                counts[h] += (out->count >= 3 && out->count <= POLY_MAX - 1 && !(on_plane && h == 1)) ? 1 : 0;
            }
        }
        /* the cut must make progress: each side keeps something */
        if (ok && counts[0] > 0 && counts[1] > 0)
        {
            int budget0 = budget / 2 > 0 ? budget / 2 : 1;
            ok = split_polygons(halves[0], counts[0], tolerance, r, component, budget0, s) &&
                 split_polygons(halves[1], counts[1], tolerance, r, component, budget - budget0, s);
            free(halves[0]);
            free(halves[1]);
            return ok;
        }
        free(halves[0]);
        free(halves[1]);
        if (!ok)
        {
            return false;
        }
    }
    s->remaining = fmax(s->remaining, c);
    int points = 0;
    for (int i = 0; i < n; ++i)
    {
        points += p[i].count;
    }
    float* xyz = malloc((size_t)points * 3 * sizeof(float));
    if (xyz == NULL || r->piece_count >= MAX_PIECES)
    {
        free(xyz);
        return false;
    }
    int m = 0;
    for (int i = 0; i < n; ++i)
    {
        for (int k = 0; k < p[i].count; ++k, ++m)
        {
            for (int x = 0; x < 3; ++x)
            {
                xyz[3 * m + x] = (float)p[i].v[k][x];
            }
        }
    }
    px_hull* hull = NULL;
    px_status status = px_hull_create(xyz, points, NULL, &hull);
    free(xyz);
    if (PX_FAILED(status))
    {
        fprintf(stderr, "px_hull_create: %s\n", px_status_string(status));
        return false;
    }
    piece* pc = &r->pieces[r->piece_count++];
    pc->hull = hull;
    pc->shape = px_shape_from_hull(hull);
    pc->component = component;
    s->pieces++;
    s->hull_volume += hull_volume(hull);
    return true;
}

/* Split the robot mesh into convex pieces (see the file comment). */
static bool build_pieces(const px_mesh* mesh, robot* r, component_split* splits, int max_components)
{
    const float* v = px_mesh_vertices(mesh);
    const int32_t* idx = px_mesh_indices(mesh);
    int vertex_count = px_mesh_vertex_count(mesh), triangle_count = px_mesh_triangle_count(mesh);
    int* component = malloc((size_t)triangle_count * sizeof(int));
    polygon* polys = malloc((size_t)triangle_count * sizeof(polygon));
    if (component == NULL || polys == NULL)
    {
        free(component);
        free(polys);
        return false;
    }
    r->component_count = triangle_components(v, vertex_count, idx, triangle_count, component);
    r->radius = 0.0f;
    for (int i = 0; i < vertex_count; ++i)
    {
        float d = sqrtf(v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
        r->radius = d > r->radius ? d : r->radius;
    }
    bool ok = r->component_count > 0 && r->component_count <= max_components;
    for (int comp = 0; comp < r->component_count && ok; ++comp)
    {
        int n = 0;
        double lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
        for (int t = 0; t < triangle_count; ++t)
        {
            if (component[t] != comp)
            {
                continue;
            }
            polygon* p = &polys[n++];
            p->count = 3;
            for (int c = 0; c < 9; ++c)
            {
                p->v[c / 3][c % 3] = v[3 * idx[3 * t + c / 3] + c % 3];
                lo[c % 3] = fmin(lo[c % 3], p->v[c / 3][c % 3]);
                hi[c % 3] = fmax(hi[c % 3], p->v[c / 3][c % 3]);
            }
            double e1[3], e2[3];
            for (int c = 0; c < 3; ++c)
            {
                e1[c] = p->v[1][c] - p->v[0][c];
                e2[c] = p->v[2][c] - p->v[0][c];
            }
            double nrm[3] = { e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                              e1[0] * e2[1] - e1[1] * e2[0] };
            double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
            memset(p->plane, 0, sizeof p->plane);
            for (int c = 0; c < 3 && len > 0.0; ++c)
            {
                p->plane[c] = nrm[c] / len;
                p->plane[3] += p->plane[c] * p->v[0][c];
            }
        }
        component_split* s = &splits[comp];
        memset(s, 0, sizeof(*s));
        s->triangles = n;
        s->size = sqrt(dist2(lo, hi));
        int worst;
        s->concavity = concavity(polys, n, &worst);
        ok = split_polygons(polys, n, CONCAVITY_TOLERANCE * s->size, r, comp, MAX_CELLS, s);
    }
    free(component);
    free(polys);
    return ok;
}

/* ---------------------------------------------------------------------------------------------------------
 * The path and the check
 * --------------------------------------------------------------------------------------------------------- */

/* Waypoints of the robot's centre (x, y, z) and heading (degrees about z), chosen from env.obj's layout: the
 * free floor east of the tables (x in -700 .. 1000, y in -3000 .. 1000), passing the east wall, a table's
 * corner and the chairs in front of the tables along y = 1100. The stand-in puts pillars along the same path. */
static const float g_waypoints[][4] = {
    { 300.0f, -2200.0f, 500.0f, 0.0f },  { 420.0f, -1200.0f, 500.0f, 0.0f },  { -150.0f, -300.0f, 500.0f, 90.0f },
    { 0.0f, 250.0f, 520.0f, 135.0f },    { 150.0f, 250.0f, 500.0f, 180.0f }, { 180.0f, -900.0f, 500.0f, 270.0f },
};
#define WAYPOINT_COUNT ((int)(sizeof g_waypoints / sizeof g_waypoints[0]))

static px_transform path_pose(int step, int steps)
{
    float s = (float)step / (float)(steps - 1) * (float)(WAYPOINT_COUNT - 1);
    int i = (int)s;
    i = i >= WAYPOINT_COUNT - 1 ? WAYPOINT_COUNT - 2 : i;
    float f = s - (float)i;
    const float* a = g_waypoints[i];
    const float* b = g_waypoints[i + 1];
    float yaw = ((1.0f - f) * a[3] + f * b[3]) * 3.14159265f / 180.0f;
    px_transform pose;
    for (int c = 0; c < 3; ++c)
    {
        pose.p[c] = (1.0f - f) * a[c] + f * b[c];
    }
    pose.q[0] = 0.0f;
    pose.q[1] = 0.0f;
    pose.q[2] = sinf(0.5f * yaw);
    pose.q[3] = cosf(0.5f * yaw);
    return pose;
}

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static float distance3(const float* a, const float* b)
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

typedef struct checker
{
    double tolerance_floor; /* absolute floor of the tolerance (distances near zero) */
    double worst;           /* largest |world - brute force| / tolerance seen */
    int failures;
} checker;

static bool agree(checker* c, double world, double reference, const char* what, int step)
{
    double tolerance = AGREE_RELATIVE * fmax(fabs(reference), c->tolerance_floor);
    double off = fabs(world - reference) / tolerance * AGREE_RELATIVE;
    c->worst = off > c->worst ? off : c->worst;
    if (fabs(world - reference) > tolerance)
    {
        fprintf(stderr, "step %d: %s: world %.9g, brute force %.9g\n", step, what, world, reference);
        c->failures++;
        return false;
    }
    return true;
}

int main(int argc, char** argv)
{
    const char* env_path = NULL;
    const char* rob_path = NULL;
    bool generated = false, quiet = false;
    int steps = 61;
    for (int i = 1; i < argc; ++i)
    {
        if (strcmp(argv[i], "--generated") == 0)
        {
            generated = true;
        }
        else if (strcmp(argv[i], "--quiet") == 0)
        {
            quiet = true;
        }
        else if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
        {
            steps = atoi(argv[++i]);
        }
        else if (env_path == NULL)
        {
            env_path = argv[i];
        }
        else if (rob_path == NULL)
        {
            rob_path = argv[i];
        }
        else
        {
            fprintf(stderr, "usage: %s [--generated] [--steps N] [--quiet] [ENV.obj ROB.obj]\n", argv[0]);
            return 2;
        }
    }
    if (steps < 2 || (env_path != NULL && rob_path == NULL))
    {
        fprintf(stderr, "usage: %s [--generated] [--steps N] [--quiet] [ENV.obj ROB.obj]\n", argv[0]);
        return 2;
    }

    /* --- the scene: the files, else the stand-in -------------------------------------------------------- */
    char env_default[1024], rob_default[1024];
    snprintf(env_default, sizeof env_default, "%s/env.obj", PROXIMA_DATA_DIR);
    snprintf(rob_default, sizeof rob_default, "%s/rob.obj", PROXIMA_DATA_DIR);
    px_mesh* env = NULL;
    px_mesh* rob = NULL;
    if (!generated)
    {
        bool given = env_path != NULL;
        env_path = given ? env_path : env_default;
        rob_path = given ? rob_path : rob_default;
        if (px_mesh_load_obj(env_path, NULL, &env) != PX_OK || px_mesh_load_obj(rob_path, NULL, &rob) != PX_OK)
        {
            px_mesh_destroy(env);
            env = NULL;
            if (given)
            {
                fprintf(stderr, "cannot read %s and %s\n", env_path, rob_path);
                return 1;
            }
            printf("no %s / %s: using the generated stand-in\n", env_default, rob_default);
        }
    }
    if (env == NULL)
    {
        tri_list room = { 0 }, desk = { 0 };
        bool ok = make_room(&room) && make_robot(&desk) &&
                  px_mesh_create(room.v, room.vertex_count, room.idx, room.triangle_count, NULL, &env) == PX_OK &&
                  px_mesh_create(desk.v, desk.vertex_count, desk.idx, desk.triangle_count, NULL, &rob) == PX_OK;
        tl_free(&room);
        tl_free(&desk);
        if (!ok)
        {
            fprintf(stderr, "cannot build the stand-in scene\n");
            return 1;
        }
        env_path = "generated room (floor, walls, 5 pillars, 2 tables)";
        rob_path = "generated L-shaped desk on 3 legs";
    }
    px_aabb eb = px_mesh_bounds(env);
    printf("environment: %s, %d triangles, bounds (%.1f %.1f %.1f) .. (%.1f %.1f %.1f)\n", env_path,
           px_mesh_triangle_count(env), eb.min[0], eb.min[1], eb.min[2], eb.max[0], eb.max[1], eb.max[2]);
    px_aabb rb = px_mesh_bounds(rob);
    printf("robot: %s, %d triangles, bounds (%.1f %.1f %.1f) .. (%.1f %.1f %.1f)\n", rob_path,
           px_mesh_triangle_count(rob), rb.min[0], rb.min[1], rb.min[2], rb.max[0], rb.max[1], rb.max[2]);

    /* --- convex pieces ------------------------------------------------------------------------------------ */
    static robot r;
    static component_split splits[MAX_PIECES];
    if (!build_pieces(rob, &r, splits, MAX_PIECES))
    {
        fprintf(stderr, "cannot split the robot into convex pieces\n");
        return 1;
    }
    printf("convex pieces: %d connected components -> %d hulls\n", r.component_count, r.piece_count);
    for (int c = 0; c < r.component_count; ++c)
    {
        printf("  component %d: %d triangles, size %.0f, concavity %.1f -> %d convex piece(s), largest concavity "
               "left %.2f, hull volume %.4g\n",
               c, splits[c].triangles, splits[c].size, splits[c].concavity, splits[c].pieces, splits[c].remaining,
               splits[c].hull_volume);
    }

    /* --- the world: the environment static, the pieces moving; pieces never pair with each other ---------- */
    px_world* world = NULL;
    if (px_world_create(NULL, &world) != PX_OK)
    {
        fprintf(stderr, "px_world_create failed\n");
        return 1;
    }
    px_body_def def = px_body_default_def();
    def.type = PX_BODY_STATIC;
    def.mesh = env;
    def.category_bits = 1u;
    def.mask_bits = 2u;
    px_body_id env_body;
    px_status status = px_world_create_body(world, &def, &env_body);
    px_transform pose = path_pose(0, steps);
    for (int i = 0; i < r.piece_count && status == PX_OK; ++i)
    {
        def = px_body_default_def();
        def.type = PX_BODY_MOVING;
        def.shape = r.pieces[i].shape;
        def.pose = pose;
        def.category_bits = 2u;
        def.mask_bits = 1u;
        def.user_data = &r.pieces[i];
        status = px_world_create_body(world, &def, &r.pieces[i].body);
    }
    if (status != PX_OK)
    {
        fprintf(stderr, "px_world_create_body: %s\n", px_status_string(status));
        return 1;
    }

    /* --- the path --------------------------------------------------------------------------------------- */
    checker check = { 1e-2 * (double)r.radius, 0.0, 0 };
    px_world_proximity_pair pairs[MAX_PIECES], body_pairs[4];
    float min_clearance = INFINITY;
    int min_step = -1, unsafe_steps = 0;
    double world_time = 0.0, brute_time = 0.0;
    printf("\nsafety distance %.0f, query threshold %.0f; per step: robot centre and heading, clearance, closest "
           "piece and environment triangle, witness points on the environment and on the robot\n",
           (double)SAFETY_DISTANCE, (double)THRESHOLD);
    for (int step = 0; step < steps; ++step)
    {
        pose = path_pose(step, steps);
        for (int i = 0; i < r.piece_count && status == PX_OK; ++i)
        {
            status = px_world_set_pose(world, r.pieces[i].body, &pose);
        }
        int count = 0;
        double t0 = now_seconds();
        if (PX_SUCCEEDED(status))
        {
            status = px_world_proximity(world, THRESHOLD, pairs, MAX_PIECES, &count);
        }
        world_time += now_seconds() - t0;
        if (!PX_SUCCEEDED(status) || count > MAX_PIECES)
        {
            fprintf(stderr, "step %d: px_world_proximity: %s (%d pairs)\n", step, px_status_string(status), count);
            return 1;
        }
        const px_world_proximity_pair* best = NULL;
        for (int i = 0; i < count; ++i)
        {
            best = (best == NULL || pairs[i].distance < best->distance) ? &pairs[i] : best;
        }

        /* brute force: every piece against the whole mesh, no world */
        double t1 = now_seconds();
        px_mesh_distance_result brute[MAX_PIECES];
        int brute_best = 0;
        for (int i = 0; i < r.piece_count; ++i)
        {
            px_status s = px_mesh_shape_distance(env, NULL, &r.pieces[i].shape, &pose, INFINITY, &brute[i]);
            if (!PX_SUCCEEDED(s) || !brute[i].found)
            {
                fprintf(stderr, "step %d: px_mesh_shape_distance: %s\n", step, px_status_string(s));
                return 1;
            }
            brute_best = brute[i].distance < brute[brute_best].distance ? i : brute_best;
        }
        brute_time += now_seconds() - t1;

        /* check: the minimum, every piece's pair, the witness points, and px_world_body_proximity */
        char what[96];
        if (brute[brute_best].distance <= THRESHOLD)
        {
            if (best == NULL)
            {
                fprintf(stderr, "step %d: the world found no pair, brute force %.9g\n", step,
                        (double)brute[brute_best].distance);
                check.failures++;
            }
            else
            {
                agree(&check, best->distance, brute[brute_best].distance, "minimum clearance", step);
            }
        }
        for (int i = 0; i < r.piece_count; ++i)
        {
            const px_world_proximity_pair* p = NULL;
            for (int j = 0; j < count; ++j)
            {
                bool a = pairs[j].body_a.index == r.pieces[i].body.index;
                bool b = pairs[j].body_b.index == r.pieces[i].body.index;
                p = (a || b) ? &pairs[j] : p;
            }
            double d = brute[i].distance;
            double tolerance = AGREE_RELATIVE * fmax(d, check.tolerance_floor);
            snprintf(what, sizeof what, "piece %d", i);
            if (p == NULL ? d < THRESHOLD - tolerance : d > THRESHOLD + tolerance)
            {
                fprintf(stderr, "step %d: piece %d at %.9g from the environment %s reported\n", step, i, d,
                        p == NULL ? "not" : "wrongly");
                check.failures++;
            }
            if (p != NULL)
            {
                agree(&check, p->distance, d, what, step);
                agree(&check, distance3(p->point_a, p->point_b), p->distance, "witness point distance", step);
            }
            int body_count = 0;
            status = px_world_body_proximity(world, r.pieces[i].body, THRESHOLD, body_pairs, 4, &body_count);
            if (!PX_SUCCEEDED(status) || body_count != (p != NULL ? 1 : 0))
            {
                fprintf(stderr, "step %d: px_world_body_proximity of piece %d: %s, %d bodies (%d pair)\n", step, i,
                        px_status_string(status), body_count, p != NULL ? 1 : 0);
                return 1;
            }
            if (p != NULL)
            {
                snprintf(what, sizeof what, "px_world_body_proximity of piece %d", i);
                agree(&check, body_pairs[0].distance, d, what, step);
            }
        }

        /* report */
        if (best != NULL)
        {
            bool env_first = best->body_a.index == env_body.index;
            const float* on_env = env_first ? best->point_a : best->point_b;
            const float* on_robot = env_first ? best->point_b : best->point_a;
            const piece* pc = px_world_body_user_data(world, env_first ? best->body_b : best->body_a);
            int piece_index = (int)(pc - r.pieces);
            bool unsafe = best->distance < SAFETY_DISTANCE;
            unsafe_steps += unsafe ? 1 : 0;
            if (best->distance < min_clearance)
            {
                min_clearance = best->distance;
                min_step = step;
            }
            if (!quiet || unsafe)
            {
                printf("step %2d (%6.0f %6.0f %4.0f, %5.1f deg): clearance %8.3f  piece %d (component %d)  "
                       "triangle %4d  env (%7.1f %7.1f %6.1f)  robot (%7.1f %7.1f %6.1f)%s\n",
                       step, (double)pose.p[0], (double)pose.p[1], (double)pose.p[2],
                       2.0 * atan2((double)pose.q[2], (double)pose.q[3]) * 180.0 / 3.14159265358979,
                       (double)best->distance, piece_index, pc->component, best->triangle, (double)on_env[0],
                       (double)on_env[1], (double)on_env[2], (double)on_robot[0], (double)on_robot[1],
                       (double)on_robot[2], unsafe ? "  ** below safety distance **" : "");
            }
        }
        else if (!quiet)
        {
            printf("step %2d (%6.0f %6.0f %4.0f): nothing within %.0f (brute force: %.3f)\n", step,
                   (double)pose.p[0], (double)pose.p[1], (double)pose.p[2], (double)THRESHOLD,
                   (double)brute[brute_best].distance);
        }
    }

    printf("\n%d steps, %d pieces: minimum clearance %.3f at step %d; %d step(s) below the safety distance %.0f\n",
           steps, r.piece_count, (double)min_clearance, min_step, unsafe_steps, (double)SAFETY_DISTANCE);
    printf("px_world_proximity %.1f us per step; brute force (every piece against the whole mesh) %.1f us per step\n",
           1e6 * world_time / steps, 1e6 * brute_time / steps);
    printf("check against brute force: %d disagreement(s); largest difference %.3g relative (limit %.0e)\n",
           check.failures, check.worst, AGREE_RELATIVE);

    px_world_destroy(world);
    for (int i = 0; i < r.piece_count; ++i)
    {
        px_hull_destroy(r.pieces[i].hull);
    }
    px_mesh_destroy(env);
    px_mesh_destroy(rob);
    return check.failures == 0 ? 0 : 1;
}
