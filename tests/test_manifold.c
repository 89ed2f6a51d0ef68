/* Contact manifolds (manifold.h): face-on boxes and their overlap rectangles, an octagon reduced to four
 * points, stacks, random tilts checked against a clip done here in double precision, random box pairs
 * checked against a double-precision separating-axis test, capsules and spheres on boxes, capsule pairs,
 * hulls filled by hand (independent of the hull builder) and hulls from px_hull_create (random rocks on a
 * floor), feature-id stability under small motions and under swapping the shapes, the margin, rounded
 * boxes, the contact repair (a cylinder standing on a box), and bad input. Two boxes take their own
 * closed-form path (manifold_box.c), checked against the general path on the same boxes, stacks against
 * rectangle overlaps clipped in double, crossing edges, rounded boxes, swapped order and random small
 * motions. Triangles (two faces, front and back): boxes resting on them, on their edges and over small
 * triangles, triangles leaning on boxes, the back side, capsules, rounded triangles, both orders, small
 * motions, degenerate triangles, and random boxes checked against the triangle's plane in double and
 * px_contact_world's depth. Seeds are fixed; PX_TEST_SEED replays another stream.
 *
 * Invariants checked on every manifold (check_invariants): unit normal; 0..4 points; distinct ids;
 * separation <= margin; point_b = point_a + separation * normal; point_a on A's surface and point_b on B's
 * surface (signed distance in double within 2e-5 of 0 at the unit scale used throughout). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "narrowphase/manifold_internal.h"
#include "shapes/hull_internal.h"
#include "support/dquat.h"
#include "support/ref_geometry.h"
#include "support/rng.h"
#include "test.h"

#define MF_PI 3.14159265358979323846
#define MF_POS_TOL 2e-5 /* positions and depths at the unit scale [Units: length] */

/* ----------------------------------------------------------------------------------------------------- */
/* Poses and double-precision helpers */

static px_transform make_pose(double x, double y, double z, const double q[4])
{
    px_transform t = PX_TRANSFORM_IDENTITY_INIT;
    t.p[0] = (float)x;
    t.p[1] = (float)y;
    t.p[2] = (float)z;
    if (q != NULL)
    {
        for (int i = 0; i < 4; ++i)
        {
            t.q[i] = (float)q[i];
        }
    }
    return t;
}

/* The float pose as doubles, quaternion normalized as the library does. */
static void pose_to_double(const px_transform* t, double q[4], double p[3])
{
    double n = 0.0;
    for (int i = 0; i < 4; ++i)
    {
        q[i] = (double)t->q[i];
        n += q[i] * q[i];
    }
    n = sqrt(n);
    for (int i = 0; i < 4; ++i)
    {
        q[i] /= n;
    }
    for (int i = 0; i < 3; ++i)
    {
        p[i] = (double)t->p[i];
    }
}

/* World position of a local point under a float pose, in double. */
static void pose_point(const px_transform* t, const double local[3], double world[3])
{
    double q[4], p[3];
    pose_to_double(t, q, p);
    dquat_rotate(q, local, world);
    for (int i = 0; i < 3; ++i)
    {
        world[i] += p[i];
    }
}

static void pose_vector(const px_transform* t, const double local[3], double world[3])
{
    double q[4], p[3];
    pose_to_double(t, q, p);
    dquat_rotate(q, local, world);
}

/* Overlap of two posed boxes along unit axis l: (extent of A + extent of B) - |centre offset| along l, in
 * double. Negative: separated along l. */
static double dbox_overlap(const float* ha, const px_transform* ta, const float* hb, const px_transform* tb,
                           const double l[3])
{
    double ext = 0.0, off = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        double ea[3] = {0, 0, 0}, eb[3] = {0, 0, 0}, wa[3], wb[3];
        ea[k] = 1.0;
        eb[k] = 1.0;
        pose_vector(ta, ea, wa);
        pose_vector(tb, eb, wb);
        ext += (double)ha[k] * fabs(wa[0] * l[0] + wa[1] * l[1] + wa[2] * l[2]) +
               (double)hb[k] * fabs(wb[0] * l[0] + wb[1] * l[1] + wb[2] * l[2]);
        off += ((double)tb->p[k] - (double)ta->p[k]) * l[k];
    }
    return ext - fabs(off);
}

/* Penetration depth of two posed boxes by the separating-axis test in double (the minimum overlap over the
 * 15 axes: exact when they overlap; when they do not, minus a lower bound of their distance). */
static double dbox_depth(const float* ha, const px_transform* ta, const float* hb, const px_transform* tb)
{
    double axes[6][3];
    for (int k = 0; k < 3; ++k)
    {
        double e[3] = {0, 0, 0};
        e[k] = 1.0;
        pose_vector(ta, e, axes[k]);
        pose_vector(tb, e, axes[3 + k]);
    }
    double best = INFINITY;
    for (int i = 0; i < 6; ++i)
    {
        best = fmin(best, dbox_overlap(ha, ta, hb, tb, axes[i]));
    }
    for (int i = 0; i < 3; ++i)
    {
        for (int j = 3; j < 6; ++j)
        {
            const double* u = axes[i];
            const double* v = axes[j];
            double l[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
            double n = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
            if (n > 1e-9)
            {
                for (int k = 0; k < 3; ++k)
                {
                    l[k] /= n;
                }
                best = fmin(best, dbox_overlap(ha, ta, hb, tb, l));
            }
        }
    }
    return best;
}

/* Distance from x to segment a-b. */
static double dsegment_distance(const double x[3], const double a[3], const double b[3])
{
    double ab[3], ax[3], dd = 0.0, t = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        ab[i] = b[i] - a[i];
        ax[i] = x[i] - a[i];
        dd += ab[i] * ab[i];
        t += ab[i] * ax[i];
    }
    t = dd > 0.0 ? fmin(fmax(t / dd, 0.0), 1.0) : 0.0;
    double e = 0.0;
    for (int i = 0; i < 3; ++i)
    {
        double c = ax[i] - t * ab[i];
        e += c * c;
    }
    return sqrt(e);
}

/* Signed distance of world point x to the posed shape (hulls: the largest face-plane distance, exact on
 * and inside the surface and a lower bound just outside). */
static double shape_sdf(const px_shape* s, const px_transform* t, const float xw[3])
{
    double q[4], p[3], d[3], x[3];
    pose_to_double(t, q, p);
    for (int i = 0; i < 3; ++i)
    {
        d[i] = (double)xw[i] - p[i];
    }
    double qc[4] = {-q[0], -q[1], -q[2], q[3]};
    dquat_rotate(qc, d, x);
    double r = (double)s->radius;
    switch (s->type)
    {
    case PX_SHAPE_BOX: {
        double outside = 0.0, inside = -INFINITY;
        for (int i = 0; i < 3; ++i)
        {
            double e = fabs(x[i]) - (double)s->box.half_extents[i];
            outside += e > 0.0 ? e * e : 0.0;
            inside = fmax(inside, e);
        }
        return sqrt(outside) + fmin(inside, 0.0) - r;
    }
    case PX_SHAPE_CAPSULE: {
        double a[3] = {0.0, -(double)s->capsule.half_height, 0.0},
               b[3] = {0.0, (double)s->capsule.half_height, 0.0};
        return dsegment_distance(x, a, b) - r;
    }
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        return sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) - r;
    case PX_SHAPE_CYLINDER: {
        double dr = sqrt(x[0] * x[0] + x[2] * x[2]) - (double)s->cylinder.radius;
        double dy = fabs(x[1]) - (double)s->cylinder.half_height;
        double outside = sqrt(fmax(dr, 0.0) * fmax(dr, 0.0) + fmax(dy, 0.0) * fmax(dy, 0.0));
        return outside + fmin(fmax(dr, dy), 0.0) - r;
    }
    case PX_SHAPE_TRIANGLE: {
        ldv3 lx = {x[0], x[1], x[2]}, va, vb, vc, closest;
        ldv_from_f(s->triangle.a, va);
        ldv_from_f(s->triangle.b, vb);
        ldv_from_f(s->triangle.c, vc);
        return (double)sqrtl(ld_closest_triangle(lx, va, vb, vc, closest)) - r;
    }
    case PX_SHAPE_HULL: {
        const struct px_hull* h = s->hull.built;
        double best = -INFINITY;
        for (int f = 0; f < h->face_count; ++f)
        {
            const float* pl = h->faces[f].plane;
            best = fmax(best,
                        (double)pl[0] * x[0] + (double)pl[1] * x[1] + (double)pl[2] * x[2] - (double)pl[3]);
        }
        return best - r;
    }
    default:
        return NAN;
    }
}

/* ----------------------------------------------------------------------------------------------------- */
/* Hulls filled by hand: prisms over a regular n-gon (a box is the 4-gon turned 45 degrees) */

#define MF_MAX_PRISM 16

typedef struct mf_hull
{
    struct px_hull hull;
    float vertices[3 * 2 * MF_MAX_PRISM];
    px_hull_face faces[MF_MAX_PRISM + 2];
    int32_t indices[2 * MF_MAX_PRISM + 4 * MF_MAX_PRISM];
} mf_hull;

/* Orient face f (vertex list already in cyclic order) counter-clockwise seen from outside and set its plane;
 * centre is a point inside the hull. */
static void orient_face(mf_hull* t, int f, const double centre[3])
{
    px_hull_face* face = &t->faces[f];
    int32_t* idx = t->indices + face->first;
    double n[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    for (int i = 0; i < face->count; ++i)
    {
        const float* a = t->vertices + 3 * idx[i];
        const float* b = t->vertices + 3 * idx[(i + 1) % face->count];
        /* Newell's normal */
        n[0] += ((double)a[1] - (double)b[1]) * ((double)a[2] + (double)b[2]);
        n[1] += ((double)a[2] - (double)b[2]) * ((double)a[0] + (double)b[0]);
        n[2] += ((double)a[0] - (double)b[0]) * ((double)a[1] + (double)b[1]);
        for (int k = 0; k < 3; ++k)
        {
            c[k] += (double)a[k] / face->count;
        }
    }
    double out = n[0] * (c[0] - centre[0]) + n[1] * (c[1] - centre[1]) + n[2] * (c[2] - centre[2]);
    if (out < 0.0)
    {
        for (int i = 0; i < face->count / 2; ++i)
        {
            int32_t tmp = idx[i];
            idx[i] = idx[face->count - 1 - i];
            idx[face->count - 1 - i] = tmp;
        }
        for (int k = 0; k < 3; ++k)
        {
            n[k] = -n[k];
        }
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k)
    {
        face->plane[k] = (float)(n[k] / len);
    }
    face->plane[3] = (float)((n[0] * c[0] + n[1] * c[1] + n[2] * c[2]) / len);
}

/* Prism along y from -hy to hy over the n-gon (rx cos a, rz sin a), a = phase + 2 pi i / n. */
static px_shape prism_hull(mf_hull* t, int n, double rx, double rz, double hy, double phase)
{
    memset(t, 0, sizeof(*t));
    for (int i = 0; i < n; ++i)
    {
        double a = phase + 2.0 * MF_PI * i / n;
        float x = (float)(rx * cos(a)), z = (float)(rz * sin(a));
        float* lo = t->vertices + 3 * i;
        float* hi = t->vertices + 3 * (n + i);
        lo[0] = hi[0] = x;
        lo[2] = hi[2] = z;
        lo[1] = (float)-hy;
        hi[1] = (float)hy;
    }
    int used = 0;
    double centre[3] = {0, 0, 0};
    /* caps */
    for (int cap = 0; cap < 2; ++cap)
    {
        px_hull_face* face = &t->faces[cap];
        face->first = used;
        face->count = n;
        for (int i = 0; i < n; ++i)
        {
            t->indices[used++] = cap * n + i;
        }
        orient_face(t, cap, centre);
    }
    for (int i = 0; i < n; ++i)
    {
        px_hull_face* face = &t->faces[2 + i];
        face->first = used;
        face->count = 4;
        int j = (i + 1) % n;
        t->indices[used++] = i;
        t->indices[used++] = j;
        t->indices[used++] = n + j;
        t->indices[used++] = n + i;
        orient_face(t, 2 + i, centre);
    }
    t->hull.dimension = 3;
    t->hull.vertex_count = 2 * n;
    t->hull.vertices = t->vertices;
    t->hull.face_count = n + 2;
    t->hull.faces = t->faces;
    t->hull.face_indices = t->indices;
    t->hull.face_index_count = used;
    t->hull.extent = (float)sqrt(fmax(rx, rz) * fmax(rx, rz) + hy * hy);
    px_shape s = px_shape_hull(t->vertices, 2 * n);
    s.hull.built = &t->hull;
    return s;
}

/* A box as a hand-filled hull. */
static px_shape box_hull(mf_hull* t, double hx, double hy, double hz)
{
    return prism_hull(t, 4, hx * sqrt(2.0), hz * sqrt(2.0), hy, 0.25 * MF_PI);
}

/* ----------------------------------------------------------------------------------------------------- */
/* Checks */

static int check_invariants(const char* label, const px_shape* a, const px_transform* ta, const px_shape* b,
                            const px_transform* tb, const px_manifold* m, float margin)
{
    if (m->count < 0 || m->count > PX_MANIFOLD_MAX_POINTS)
    {
        fprintf(stderr, "%s: count %d\n", label, m->count);
        return 1;
    }
    if (m->count == 0)
    {
        return 0;
    }
    double nn = (double)m->normal[0] * m->normal[0] + (double)m->normal[1] * m->normal[1] +
                (double)m->normal[2] * m->normal[2];
    if (!(fabs(nn - 1.0) <= 1e-5))
    {
        fprintf(stderr, "%s: |normal|^2 = %.9g\n", label, nn);
        return 1;
    }
    for (int i = 0; i < m->count; ++i)
    {
        const px_manifold_point* p = &m->points[i];
        for (int j = 0; j < i; ++j)
        {
            if (m->points[j].id == p->id)
            {
                fprintf(stderr, "%s: points %d and %d share id 0x%08x\n", label, j, i, p->id);
                return 1;
            }
        }
        double sa = shape_sdf(a, ta, p->point_a), sb = shape_sdf(b, tb, p->point_b);
        double gap = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            double e = (double)p->point_b[k] - ((double)p->point_a[k] + (double)p->separation * m->normal[k]);
            gap = fmax(gap, fabs(e));
        }
        if (!(p->separation <= margin + 1e-6f) || !(fabs(sa) <= MF_POS_TOL) || !(fabs(sb) <= MF_POS_TOL) ||
            !(gap <= 1e-6))
        {
            fprintf(stderr,
                    "%s: point %d (id 0x%08x): separation %.9g (margin %g), sdf A %.3g, sdf B %.3g, "
                    "|b - (a + s n)| %.3g\n",
                    label, i, p->id, (double)p->separation, (double)margin, sa, sb, gap);
            return 1;
        }
    }
    return 0;
}

/* Index of the manifold point whose `which` point (0: point_a, 1: point_b) is within tol of x, or -1. */
static int find_point(const px_manifold* m, int which, const double x[3], double tol)
{
    for (int i = 0; i < m->count; ++i)
    {
        const float* p = which == 0 ? m->points[i].point_a : m->points[i].point_b;
        if (fabs((double)p[0] - x[0]) <= tol && fabs((double)p[1] - x[1]) <= tol &&
            fabs((double)p[2] - x[2]) <= tol)
        {
            return i;
        }
    }
    return -1;
}

static void print_manifold(const char* label, const px_manifold* m)
{
    fprintf(stderr, "%s: count %d, normal (%.7g, %.7g, %.7g)\n", label, m->count, (double)m->normal[0],
            (double)m->normal[1], (double)m->normal[2]);
    for (int i = 0; i < m->count; ++i)
    {
        const px_manifold_point* p = &m->points[i];
        fprintf(stderr, "  [%d] a (%.7g, %.7g, %.7g) b (%.7g, %.7g, %.7g) sep %.7g id 0x%08x\n", i,
                (double)p->point_a[0], (double)p->point_a[1], (double)p->point_a[2], (double)p->point_b[0],
                (double)p->point_b[1], (double)p->point_b[2], (double)p->separation, p->id);
    }
}

/* The manifold must hold exactly the points of the rectangle [x0, x1] x [z0, z1] at height y (point_a), each
 * with the given separation, and the normal (0, ny, 0). */
static int check_rectangle(const char* label, const px_manifold* m, double x0, double x1, double z0,
                           double z1, double y, double separation, double ny)
{
    int bad = m->count != 4 || !(fabs((double)m->normal[1] - ny) <= 1e-6);
    const double xs[4] = {x0, x1, x1, x0}, zs[4] = {z0, z0, z1, z1};
    int found_mask = 0;
    for (int c = 0; c < 4 && !bad; ++c)
    {
        double corner[3] = {xs[c], y, zs[c]};
        int i = find_point(m, 0, corner, MF_POS_TOL);
        if (i < 0 || (found_mask & (1 << i)) ||
            !(fabs((double)m->points[i].separation - separation) <= MF_POS_TOL))
        {
            fprintf(stderr, "%s: corner (%g, %g, %g) missing or wrong\n", label, corner[0], corner[1],
                    corner[2]);
            bad = 1;
        }
        else
        {
            found_mask |= 1 << i;
        }
    }
    if (bad)
    {
        print_manifold(label, m);
    }
    return bad;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Boxes face-on */

static int box_on_box_face(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape top = px_shape_box((vec3){0.5f, 0.25f, 0.4f});
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tt = make_pose(0.1, 0.75 - 1e-3, -0.2, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &top, &tt, &config, &m), PX_OK);
    PX_CHECK(check_invariants("floor/top", &floor, &tf, &top, &tt, &m, config.margin) == 0);
    PX_CHECK(check_rectangle("floor/top", &m, -0.4, 0.6, -0.6, 0.2, 0.5, -1e-3, 1.0) == 0);
    /* swapped: the normal flips, point_a is now on the top box */
    PX_CHECK_STATUS(px_manifold_world(&top, &tt, &floor, &tf, &config, &m), PX_OK);
    PX_CHECK(check_invariants("top/floor", &top, &tt, &floor, &tf, &m, config.margin) == 0);
    PX_CHECK(check_rectangle("top/floor", &m, -0.4, 0.6, -0.6, 0.2, 0.5 - 1e-3, -1e-3, -1.0) == 0);
    return 0;
}

static int box_offset_overlap(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_transform ta = make_pose(0, 0, 0, NULL);
    px_transform tb = make_pose(0.6, 1.0 - 1e-3, 0.3, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &config, &m), PX_OK);
    PX_CHECK(check_invariants("offset", &cube, &ta, &cube, &tb, &m, config.margin) == 0);
    PX_CHECK(check_rectangle("offset", &m, 0.1, 0.5, -0.2, 0.5, 0.5, -1e-3, 1.0) == 0);
    return 0;
}

/* Exactly touching (gap 0): the cores touch, and the contact path must still give a face normal. */
static int box_touching(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_transform ta = make_pose(0, 0, 0, NULL);
    px_transform tb = make_pose(0.25, 1.0, -0.125, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &config, &m), PX_OK);
    PX_CHECK(check_invariants("touching", &cube, &ta, &cube, &tb, &m, config.margin) == 0);
    PX_CHECK(check_rectangle("touching", &m, -0.25, 0.5, -0.5, 0.375, 0.5, 0.0, 1.0) == 0);
    return 0;
}

/* Vertices of the polygon (B's bottom face, world) clipped to |x| <= h, |z| <= h, in double. */
static int dclip_square(const double* in, int n, double h, double* out)
{
    double buf[2][3 * 32];
    memcpy(buf[0], in, sizeof(double) * 3 * (size_t)n);
    int cur = 0;
    for (int plane = 0; plane < 4; ++plane)
    {
        int axis = plane < 2 ? 0 : 2;
        double sign = (plane & 1) ? -1.0 : 1.0;
        int m = 0;
        for (int i = 0; i < n; ++i)
        {
            const double* p = &buf[cur][3 * i];
            const double* q = &buf[cur][3 * ((i + 1) % n)];
            double dp = sign * p[axis] - h, dq = sign * q[axis] - h;
            if (dp <= 0.0)
            {
                memcpy(&buf[1 - cur][3 * m++], p, sizeof(double) * 3);
            }
            if ((dp < 0.0 && dq > 0.0) || (dp > 0.0 && dq < 0.0))
            {
                double t = dp / (dp - dq);
                for (int k = 0; k < 3; ++k)
                {
                    buf[1 - cur][3 * m + k] = p[k] + t * (q[k] - p[k]);
                }
                ++m;
            }
        }
        n = m;
        cur = 1 - cur;
    }
    memcpy(out, buf[cur], sizeof(double) * 3 * (size_t)n);
    return n;
}

/* Twice the area of the polygon through points (x, z) in the given order, by the shoelace formula. */
static double quad_area(const double (*p)[3], const int idx[4])
{
    /* order the four by angle around their centroid first */
    double cx = 0, cz = 0;
    for (int i = 0; i < 4; ++i)
    {
        cx += p[idx[i]][0] / 4;
        cz += p[idx[i]][2] / 4;
    }
    int o[4] = {idx[0], idx[1], idx[2], idx[3]};
    for (int i = 1; i < 4; ++i)
    {
        for (int j = i; j > 0 && atan2(p[o[j - 1]][2] - cz, p[o[j - 1]][0] - cx) >
                                     atan2(p[o[j]][2] - cz, p[o[j]][0] - cx);
             --j)
        {
            int t = o[j];
            o[j] = o[j - 1];
            o[j - 1] = t;
        }
    }
    double s = 0;
    for (int i = 0; i < 4; ++i)
    {
        s += p[o[i]][0] * p[o[(i + 1) % 4]][2] - p[o[(i + 1) % 4]][0] * p[o[i]][2];
    }
    return fabs(s);
}

/* The top cube turned 45 degrees about the vertical and tilted slightly, so the overlap is an octagon whose
 * vertices have different depths: four points, including the deepest octagon vertex, spanning nearly the
 * largest quadrilateral that contains it. */
static int box_rotated_octagon(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_transform ta = make_pose(0, 0, 0, NULL);
    double qy[4], qx[4], q[4];
    dquat_axis_angle(0, 1, 0, 0.25 * MF_PI, qy);
    dquat_axis_angle(1, 0, 0, 1.5e-3, qx);
    dquat_mul(qx, qy, q);
    px_transform tb = make_pose(0.0, 1.0 - 1e-3, 0.0, q);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &config, &m), PX_OK);
    PX_CHECK(check_invariants("octagon", &cube, &ta, &cube, &tb, &m, config.margin) == 0);
    PX_CHECK(m.count == 4);
    PX_CHECK(m.normal[1] > 0.99999f);
    /* B's bottom face in world (double), clipped to A's top square: the octagon */
    double face[12], oct[3 * 32];
    const double cs[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < 4; ++i)
    {
        double local[3] = {0.5 * cs[i][0], -0.5, 0.5 * cs[i][1]};
        pose_point(&tb, local, face + 3 * i);
    }
    int n = dclip_square(face, 4, 0.5, oct);
    PX_CHECK(n == 8);
    double(*v)[3] = (double(*)[3])oct;
    int deepest = 0;
    for (int i = 1; i < n; ++i)
    {
        deepest = v[i][1] < v[deepest][1] ? i : deepest;
    }
    /* the deepest vertex is kept, at its depth (point_b on B, separation = its height over A's top) */
    int k = find_point(&m, 1, v[deepest], 1e-4);
    if (k < 0)
    {
        print_manifold("octagon", &m);
    }
    PX_CHECK(k >= 0);
    PX_CHECK_NEAR(m.points[k].separation, v[deepest][1] - 0.5, MF_POS_TOL);
    /* every point is an octagon vertex; the area is at least 90% of the best quadrilateral with the
     * deepest vertex */
    int idx[4];
    for (int i = 0; i < 4; ++i)
    {
        double pb[3] = {m.points[i].point_b[0], m.points[i].point_b[1], m.points[i].point_b[2]};
        idx[i] = -1;
        for (int j = 0; j < n; ++j)
        {
            if (fabs(pb[0] - v[j][0]) <= 1e-4 && fabs(pb[2] - v[j][2]) <= 1e-4)
            {
                idx[i] = j;
            }
        }
        PX_CHECK(idx[i] >= 0);
    }
    double best = 0.0;
    for (int a = 0; a < n; ++a)
    {
        for (int b = a + 1; b < n; ++b)
        {
            for (int c = b + 1; c < n; ++c)
            {
                if (a != deepest && b != deepest && c != deepest)
                {
                    int s[4] = {deepest, a, b, c};
                    best = fmax(best, quad_area((const double(*)[3])v, s));
                }
            }
        }
    }
    double got = quad_area((const double(*)[3])v, idx);
    PX_CHECK(got >= 0.9 * best);
    return 0;
}

/* Three boxes stacked, the middle one turned 30 degrees: neighbours touch with four points, the bottom and
 * top boxes not at all. */
static int box_stack(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape boxes[3] = {px_shape_box((vec3){1.0f, 0.25f, 1.0f}), px_shape_box((vec3){0.4f, 0.3f, 0.3f}),
                         px_shape_box((vec3){0.2f, 0.2f, 0.2f})};
    double q30[4];
    dquat_axis_angle(0, 1, 0, MF_PI / 6.0, q30);
    px_transform poses[3] = {make_pose(0, 0, 0, NULL), make_pose(0.1, 0.25 + 0.3 - 1e-3, 0.05, q30),
                             make_pose(0.15, 0.25 + 0.6 + 0.2 - 2e-3, 0.0, NULL)};
    const int expect[3][3] = {{0, 4, 0}, {4, 0, 4}, {0, 4, 0}};
    for (int i = 0; i < 3; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            if (i == j)
            {
                continue;
            }
            px_manifold m;
            char label[32];
            snprintf(label, sizeof(label), "stack %d/%d", i, j);
            PX_CHECK_STATUS(px_manifold_world(&boxes[i], &poses[i], &boxes[j], &poses[j], &config, &m),
                            PX_OK);
            PX_CHECK(check_invariants(label, &boxes[i], &poses[i], &boxes[j], &poses[j], &m, config.margin) ==
                     0);
            if (m.count != expect[i][j])
            {
                print_manifold(label, &m);
            }
            PX_CHECK(m.count == expect[i][j]);
            for (int k = 0; k < m.count; ++k)
            {
                PX_CHECK_NEAR(m.points[k].separation, -1e-3, MF_POS_TOL);
            }
            if (m.count > 0)
            {
                PX_CHECK_NEAR(m.normal[1], j > i ? 1.0 : -1.0, 1e-6);
            }
        }
    }
    return 0;
}

/* A box with random half extents, random yaw and a random small tilt on a large floor box, its lowest
 * corner at a random depth: the points must be exactly the corners of its bottom face within the margin
 * (computed here in double), at their depths. */
static int box_random_tilts(void)
{
    px_rng rng = px_rng_seeded(0x6d616e31ull);
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){3.0f, 0.5f, 3.0f});
    px_transform tf = make_pose(0, 0, 0, NULL);
    int counts[5] = {0, 0, 0, 0, 0};
    for (int trial = 0; trial < 400; ++trial)
    {
        float h[3] = {(float)px_rng_range(&rng, 0.2, 0.6), (float)px_rng_range(&rng, 0.2, 0.6),
                      (float)px_rng_range(&rng, 0.2, 0.6)};
        px_shape box = px_shape_box(h);
        double yaw[4], tilt[4], q[4], axis[3];
        dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
        double phi = px_rng_range(&rng, 0, 2 * MF_PI);
        axis[0] = cos(phi);
        axis[1] = 0;
        axis[2] = sin(phi);
        /* a quarter of the trials tilt about one of the box's own horizontal axes: an edge rests */
        double angle = px_rng_range(&rng, 0.0, 0.02);
        if (trial % 4 == 0)
        {
            double local[3] = {trial % 8 == 0 ? 1.0 : 0.0, 0.0, trial % 8 == 0 ? 0.0 : 1.0};
            dquat_rotate(yaw, local, axis);
        }
        dquat_axis_angle(axis[0], axis[1], axis[2], angle, tilt);
        dquat_mul(tilt, yaw, q);
        px_transform tb = make_pose(0, 0, 0, q);
        /* the bottom face's corners, relative to the centre (the pose's float quaternion, in double) */
        double corner[4][3];
        double lowest = INFINITY;
        for (int c = 0; c < 4; ++c)
        {
            double local[3] = {(c & 1) ? h[0] : -h[0], -h[1], (c & 2) ? h[2] : -h[2]};
            pose_vector(&tb, local, corner[c]);
            lowest = fmin(lowest, corner[c][1]);
        }
        double depth = px_rng_range(&rng, 0.0, 2e-3);
        double cx = px_rng_range(&rng, -1, 1), cz = px_rng_range(&rng, -1, 1);
        tb = make_pose(cx, 0.5 - depth - lowest, cz, q);
        /* expected: the corners within the margin of the floor's top */
        int expected = 0;
        bool ambiguous = false;
        double sep[4];
        for (int c = 0; c < 4; ++c)
        {
            double local[3] = {(c & 1) ? h[0] : -h[0], -h[1], (c & 2) ? h[2] : -h[2]};
            pose_point(&tb, local, corner[c]);
            sep[c] = corner[c][1] - 0.5;
            expected += sep[c] <= (double)config.margin ? 1 : 0;
            ambiguous = ambiguous || fabs(sep[c] - (double)config.margin) <= 1e-5;
        }
        px_manifold m;
        char label[48];
        snprintf(label, sizeof(label), "tilt trial %d", trial);
        PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &box, &tb, &config, &m), PX_OK);
        PX_CHECK(check_invariants(label, &floor, &tf, &box, &tb, &m, config.margin) == 0);
        if (!(fabs((double)m.normal[1] - 1.0) <= 1e-6))
        {
            px_contact c;
            PX_CHECK(px_contact_world(&floor, &tf, &box, &tb, &config.contact, &c) >= 0);
            print_manifold(label, &m);
            fprintf(stderr,
                    "  contact distance %.7g normal (%.7g %.7g %.7g) method %d; B at (%a, %a, %a) q (%a, %a, "
                    "%a, %a) h (%a, %a, %a)\n",
                    (double)c.distance, (double)c.normal[0], (double)c.normal[1], (double)c.normal[2],
                    (int)c.method, (double)tb.p[0], (double)tb.p[1], (double)tb.p[2], (double)tb.q[0],
                    (double)tb.q[1], (double)tb.q[2], (double)tb.q[3], (double)h[0], (double)h[1],
                    (double)h[2]);
        }
        PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
        if (ambiguous)
        {
            continue;
        }
        if (m.count != expected)
        {
            print_manifold(label, &m);
        }
        PX_CHECK(m.count == expected);
        counts[expected]++;
        for (int c = 0; c < 4; ++c)
        {
            if (sep[c] <= (double)config.margin)
            {
                int k = find_point(&m, 1, corner[c], MF_POS_TOL);
                if (k < 0)
                {
                    print_manifold(label, &m);
                }
                PX_CHECK(k >= 0);
                PX_CHECK_NEAR(m.points[k].separation, sep[c], MF_POS_TOL);
            }
        }
    }
    /* the sweep must have covered every count */
    for (int c = 1; c <= 4; ++c)
    {
        if (counts[c] < 10)
        {
            fprintf(stderr, "only %d trials with %d points\n", counts[c], c);
        }
        PX_CHECK(counts[c] >= 10);
    }
    return 0;
}

/* A box on a randomly turned box's top face, both in arbitrary orientations, and random overlapping pairs
 * (edges and corners included): the invariants, and for the resting ones a normal along A's face normal and
 * the deepest point at the contact's depth. */
static int box_random_pairs(void)
{
    px_rng rng = px_rng_seeded(0x6d616e32ull);
    px_manifold_config config = px_manifold_default_config();
    for (int trial = 0; trial < 500; ++trial)
    {
        bool resting = trial % 2 == 0;
        float ha[3], hb[3];
        for (int k = 0; k < 3; ++k)
        {
            ha[k] = (float)px_rng_range(&rng, 0.2, 1.0);
            hb[k] = (float)px_rng_range(&rng, 0.1, 0.5);
        }
        px_shape a = px_shape_box(ha), b = px_shape_box(hb);
        double qa[4], qb[4];
        px_rng_quat(&rng, qa);
        px_transform ta =
            make_pose(px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), qa);
        px_transform tb;
        if (resting)
        {
            /* B in A's frame: on A's +y face, yawed, tilted a little, sunk by a small depth */
            double yaw[4], tilt[4], ql[4], qw[4];
            dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
            dquat_axis_angle(px_rng_range(&rng, -1, 1), 0, px_rng_range(&rng, -1, 1),
                             px_rng_range(&rng, 0, 0.01), tilt);
            dquat_mul(tilt, yaw, ql);
            double lowest = INFINITY;
            for (int c = 0; c < 8; ++c)
            {
                double local[3] = {(c & 1) ? hb[0] : -hb[0], (c & 2) ? hb[1] : -hb[1],
                                   (c & 4) ? hb[2] : -hb[2]};
                double r[3];
                dquat_rotate(ql, local, r);
                lowest = fmin(lowest, r[1]);
            }
            double centre_local[3] = {px_rng_range(&rng, -0.5, 0.5) * ha[0],
                                      (double)ha[1] - lowest - px_rng_range(&rng, 0, 2e-3),
                                      px_rng_range(&rng, -0.5, 0.5) * ha[2]};
            double centre[3];
            pose_point(&ta, centre_local, centre);
            double qad[4], pad[3];
            pose_to_double(&ta, qad, pad);
            dquat_mul(qad, ql, qw);
            tb = make_pose(centre[0], centre[1], centre[2], qw);
        }
        else
        {
            px_rng_quat(&rng, qb);
            double dir[3];
            px_rng_unit_vector(&rng, dir);
            double reach =
                px_rng_range(&rng, 0.2, 1.0) * (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]) / 2.0;
            tb = make_pose(ta.p[0] + reach * dir[0], ta.p[1] + reach * dir[1], ta.p[2] + reach * dir[2], qb);
        }
        px_manifold m;
        char label[48];
        snprintf(label, sizeof(label), "%s trial %d", resting ? "resting" : "random", trial);
        PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &config, &m), PX_OK);
        PX_CHECK(check_invariants(label, &a, &ta, &b, &tb, &m, config.margin) == 0);
        /* points exactly when the boxes overlap, none when the separating-axis bound puts them beyond the
         * margin (in between, a box's distance is not known exactly here) */
        double depth = dbox_depth(ha, &ta, hb, &tb);
        if ((depth > 1e-6 && m.count == 0) || (depth < -(double)config.margin - 1e-6 && m.count > 0))
        {
            fprintf(stderr, "%s: depth %.7g (double SAT) but %d points\n", label, depth, m.count);
            print_manifold(label, &m);
            return 1;
        }
        if (!resting && depth > 0.0 && m.count > 0)
        {
            /* deep overlaps: the deepest point within a twentieth of the depth (or the margin) of it; a
             * corner pushed out of the reference face's prism had been cut off with up to a quarter */
            float min_sep = INFINITY;
            for (int k = 0; k < m.count; ++k)
            {
                min_sep = fminf(min_sep, m.points[k].separation);
            }
            if (!((double)min_sep <= -depth + fmax((double)config.margin, 0.05 * depth) + 1e-5))
            {
                print_manifold(label, &m);
                fprintf(stderr, "  depth %.7g (double SAT): deepest point %.7g\n", depth, (double)min_sep);
                return 1;
            }
        }
        if (resting)
        {
            /* the normal is a face normal: A's (outward) or B's (inward) */
            bool face_normal = false;
            for (int f = 0; f < 12 && !face_normal; ++f)
            {
                double local[3] = {0, 0, 0}, w[3];
                local[(f % 6) >> 1] = ((f % 6) & 1) ? -1.0 : 1.0;
                pose_vector(f < 6 ? &ta : &tb, local, w);
                double sign = f < 6 ? 1.0 : -1.0, e = 0.0;
                for (int k = 0; k < 3; ++k)
                {
                    e = fmax(e, fabs((double)m.normal[k] - sign * w[k]));
                }
                face_normal = e <= 1e-5;
            }
            float min_sep = INFINITY;
            for (int k = 0; k < m.count; ++k)
            {
                min_sep = fminf(min_sep, m.points[k].separation);
            }
            /* the deepest point: no deeper than the boxes overlap along the manifold normal, and no shallower
             * than the margin above the true depth (a deepest corner hanging over an edge is cut off) */
            double n[3] = {m.normal[0], m.normal[1], m.normal[2]};
            double along = dbox_overlap(ha, &ta, hb, &tb, n);
            if (!(m.count >= 1) || !face_normal || !((double)min_sep >= -along - 1e-5) ||
                !((double)min_sep <= -depth + (double)config.margin))
            {
                print_manifold(label, &m);
                fprintf(stderr, "  depth %.7g (double SAT), overlap along the normal %.7g\n", depth, along);
                return 1;
            }
        }
    }
    return 0;
}

/* Deep overlaps of a box with a random built rock, and of two rocks (the general path): the deepest point
 * within a twentieth of px_contact_world's depth (or a tenth of the margin). A rock corner pushed through a
 * thin face's edge out of the reference face's prism was cut off with up to a quarter of the depth (box
 * against rock, depth 0.141 reported as 0.113; review 47). */
static int deep_hull_pairs(void)
{
    px_rng rng = px_rng_seeded(0x6d616e36ull);
    px_manifold_config config = px_manifold_default_config();
    int shortfalls = 0;
    for (int trial = 0; trial < 3000; ++trial)
    {
        float pts[2][3 * 24];
        int counts[2];
        px_hull* hulls[2] = {NULL, NULL};
        for (int h = 0; h < 2; ++h)
        {
            counts[h] = 4 + px_rng_int(&rng, 20);
            double axes[3];
            for (int k = 0; k < 3; ++k)
            {
                axes[k] = px_rng_range(&rng, 0.2, 1.0);
            }
            for (int i = 0; i < counts[h]; ++i)
            {
                double d[3];
                px_rng_unit_vector(&rng, d);
                for (int k = 0; k < 3; ++k)
                {
                    pts[h][3 * i + k] = (float)(axes[k] * d[k]);
                }
            }
            /* a few points can fall within the hull tolerance of a plane (four at 5e-6 of the size, at
             * PX_TEST_SEED=124): a flat hull, as hull.h documents, and no rock */
            const px_status built = px_hull_create(pts[h], counts[h], NULL, &hulls[h]);
            PX_CHECK(built == PX_OK || (built == PX_WARN_DEGENERATE && px_hull_dimension(hulls[h]) < 3));
        }
        if (px_hull_dimension(hulls[0]) < 3 || px_hull_dimension(hulls[1]) < 3)
        {
            px_hull_destroy(hulls[0]);
            px_hull_destroy(hulls[1]);
            continue;
        }
        px_shape a = px_shape_from_hull(hulls[0]), b = px_shape_from_hull(hulls[1]);
        if (trial % 2 == 0)
        {
            a = px_shape_box((vec3){(float)px_rng_range(&rng, 0.2, 1.0), (float)px_rng_range(&rng, 0.2, 1.0),
                                    (float)px_rng_range(&rng, 0.2, 1.0)});
        }
        double qa[4], qb[4], dir[3];
        px_rng_quat(&rng, qa);
        px_rng_quat(&rng, qb);
        px_rng_unit_vector(&rng, dir);
        const double reach = px_rng_range(&rng, 0.3, 1.2);
        px_transform ta = make_pose(0, 0, 0, qa);
        px_transform tb = make_pose(reach * dir[0], reach * dir[1], reach * dir[2], qb);
        px_contact c;
        px_manifold m;
        PX_CHECK(px_contact_world(&a, &ta, &b, &tb, &config.contact, &c) >= 0);
        PX_CHECK(px_manifold_world(&a, &ta, &b, &tb, &config, &m) >= 0);
        px_hull_destroy(hulls[0]);
        px_hull_destroy(hulls[1]);
        if (!(c.distance < 0.0f) || m.count == 0)
        {
            continue;
        }
        float min_sep = INFINITY;
        for (int k = 0; k < m.count; ++k)
        {
            min_sep = fminf(min_sep, m.points[k].separation);
        }
        const float allowed = fmaxf(0.1f * config.margin, 0.05f * -c.distance) + 1e-5f;
        if (!(min_sep <= c.distance + allowed))
        {
            fprintf(stderr, "trial %d: contact depth %.7g, deepest point %.7g\n", trial, (double)-c.distance,
                    (double)min_sep);
            print_manifold("deep hull pair", &m);
            ++shortfalls;
        }
    }
    PX_CHECK(shortfalls == 0);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Capsules and spheres */

static int capsule_lying_on_box(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape capsule = px_shape_capsule(0.6f, 0.2f);
    double qz[4];
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz); /* axis along x */
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tc = make_pose(0.1, 0.5 + 0.2 - 1e-3, 0.2, qz);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &capsule, &tc, &config, &m), PX_OK);
    PX_CHECK(check_invariants("floor/capsule", &floor, &tf, &capsule, &tc, &m, config.margin) == 0);
    PX_CHECK(m.count == 2);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
    const double ends[2][3] = {{-0.5, 0.5, 0.2}, {0.7, 0.5, 0.2}};
    for (int e = 0; e < 2; ++e)
    {
        int k = find_point(&m, 0, ends[e], MF_POS_TOL);
        PX_CHECK(k >= 0);
        PX_CHECK_NEAR(m.points[k].separation, -1e-3, MF_POS_TOL);
    }
    /* capsule first: the normal points down, point_a is on the capsule */
    PX_CHECK_STATUS(px_manifold_world(&capsule, &tc, &floor, &tf, &config, &m), PX_OK);
    PX_CHECK(check_invariants("capsule/floor", &capsule, &tc, &floor, &tf, &m, config.margin) == 0);
    PX_CHECK(m.count == 2);
    PX_CHECK_NEAR(m.normal[1], -1.0, 1e-6);
    for (int e = 0; e < 2; ++e)
    {
        int k = find_point(&m, 1, ends[e], MF_POS_TOL);
        PX_CHECK(k >= 0);
        PX_CHECK_NEAR(m.points[k].separation, -1e-3, MF_POS_TOL);
        PX_CHECK_NEAR(m.points[k].point_a[1], 0.5 - 1e-3, MF_POS_TOL);
    }
    /* hanging over the edge at x = 1: clipped there */
    tc = make_pose(0.8, 0.5 + 0.2 - 1e-3, 0.2, qz);
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &capsule, &tc, &config, &m), PX_OK);
    PX_CHECK(check_invariants("overhang", &floor, &tf, &capsule, &tc, &m, config.margin) == 0);
    PX_CHECK(m.count == 2);
    const double clipped[2][3] = {{0.2, 0.5, 0.2}, {1.0, 0.5, 0.2}};
    for (int e = 0; e < 2; ++e)
    {
        PX_CHECK(find_point(&m, 0, clipped[e], MF_POS_TOL) >= 0);
    }
    /* tilted so one end lifts beyond the margin: one point, at the low end */
    double tilt[4], q[4];
    dquat_axis_angle(0, 0, 1, 0.02, tilt);
    dquat_mul(tilt, qz, q);
    tc = make_pose(0.1, 0.5 + 0.2 - 1e-3 + 0.6 * sin(0.02), 0.2, q);
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &capsule, &tc, &config, &m), PX_OK);
    PX_CHECK(check_invariants("tilted", &floor, &tf, &capsule, &tc, &m, config.margin) == 0);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, 1e-4);
    return 0;
}

static int capsule_standing_and_sphere(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape capsule = px_shape_capsule(0.6f, 0.2f);
    px_shape sphere = px_shape_sphere(0.3f);
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tc = make_pose(0.3, 0.5 + 0.8 - 1e-3, -0.4, NULL);
    px_transform ts = make_pose(-0.3, 0.5 + 0.3 - 2e-3, 0.4, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &capsule, &tc, &config, &m), PX_OK);
    PX_CHECK(check_invariants("standing", &floor, &tf, &capsule, &tc, &m, config.margin) == 0);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, MF_POS_TOL);
    const double foot[3] = {0.3, 0.5, -0.4};
    PX_CHECK(find_point(&m, 0, foot, MF_POS_TOL) == 0);
    PX_CHECK_STATUS(px_manifold_world(&sphere, &ts, &floor, &tf, &config, &m), PX_OK);
    PX_CHECK(check_invariants("sphere", &sphere, &ts, &floor, &tf, &m, config.margin) == 0);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -2e-3, MF_POS_TOL);
    PX_CHECK_NEAR(m.normal[1], -1.0, 1e-6);
    const double under[3] = {-0.3, 0.5, 0.4};
    PX_CHECK(find_point(&m, 1, under, MF_POS_TOL) == 0);
    return 0;
}

static int capsule_pairs(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape lower = px_shape_capsule(0.6f, 0.2f), upper = px_shape_capsule(0.4f, 0.15f);
    double qz[4], qx[4], qcross[4];
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz);
    dquat_axis_angle(1, 0, 0, 0.5 * MF_PI, qx);
    memcpy(qcross, qx, sizeof(qx));
    px_transform tl = make_pose(0, 0, 0, qz);
    /* parallel, overlapping along x over [0.3 - 0.4, 0.6]: two points at the overlap's ends */
    px_transform tu = make_pose(0.3, 0.35 - 1e-3, 0, qz);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&lower, &tl, &upper, &tu, &config, &m), PX_OK);
    PX_CHECK(check_invariants("parallel", &lower, &tl, &upper, &tu, &m, config.margin) == 0);
    PX_CHECK(m.count == 2);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
    const double ends[2][3] = {{-0.1, 0.2, 0.0}, {0.6, 0.2, 0.0}};
    for (int e = 0; e < 2; ++e)
    {
        int k = find_point(&m, 0, ends[e], MF_POS_TOL);
        PX_CHECK(k >= 0);
        PX_CHECK_NEAR(m.points[k].separation, -1e-3, MF_POS_TOL);
    }
    /* crossing at right angles: one point */
    tu = make_pose(0.1, 0.35 - 1e-3, 0, qcross);
    PX_CHECK_STATUS(px_manifold_world(&lower, &tl, &upper, &tu, &config, &m), PX_OK);
    PX_CHECK(check_invariants("crossing", &lower, &tl, &upper, &tu, &m, config.margin) == 0);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, MF_POS_TOL);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Built hulls */

/* The same box as a box and as a hand-built hull, under a box: identical points and separations. */
static int box_on_hull_box(void)
{
    px_manifold_config config = px_manifold_default_config();
    static mf_hull floor_hull;
    px_shape floor_box = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape floor = box_hull(&floor_hull, 1.0, 0.5, 1.0);
    px_shape top = px_shape_box((vec3){0.3f, 0.2f, 0.25f});
    double q[4];
    dquat_axis_angle(0, 1, 0, 0.4, q);
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tt = make_pose(0.2, 0.7 - 1e-3, -0.1, q);
    px_manifold mh, mb;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &top, &tt, &config, &mh), PX_OK);
    PX_CHECK_STATUS(px_manifold_world(&floor_box, &tf, &top, &tt, &config, &mb), PX_OK);
    PX_CHECK(check_invariants("hull floor", &floor, &tf, &top, &tt, &mh, config.margin) == 0);
    PX_CHECK(mh.count == 4 && mb.count == 4);
    PX_CHECK_NEAR(mh.normal[1], 1.0, 1e-6);
    for (int i = 0; i < 4; ++i)
    {
        double pb[3] = {mb.points[i].point_b[0], mb.points[i].point_b[1], mb.points[i].point_b[2]};
        int k = find_point(&mh, 1, pb, MF_POS_TOL);
        PX_CHECK(k >= 0);
        PX_CHECK_NEAR(mh.points[k].separation, -1e-3, MF_POS_TOL);
    }
    /* and with the hull on top (B), turned: the hull supplies the incident face */
    static mf_hull top_hull;
    px_shape top_as_hull = box_hull(&top_hull, 0.3, 0.2, 0.25);
    PX_CHECK_STATUS(px_manifold_world(&floor_box, &tf, &top_as_hull, &tt, &config, &mh), PX_OK);
    PX_CHECK(check_invariants("hull top", &floor_box, &tf, &top_as_hull, &tt, &mh, config.margin) == 0);
    PX_CHECK(mh.count == 4);
    for (int i = 0; i < 4; ++i)
    {
        double pb[3] = {mb.points[i].point_b[0], mb.points[i].point_b[1], mb.points[i].point_b[2]};
        PX_CHECK(find_point(&mh, 1, pb, MF_POS_TOL) >= 0);
    }
    return 0;
}

/* A hexagonal prism standing on a hull box: six corners touch, four are kept, all at the hexagon's corners
 * and the depth; a capsule lying on the prism's top face gives two points. */
static int hull_on_hull(void)
{
    px_manifold_config config = px_manifold_default_config();
    static mf_hull base_hull, hex_hull;
    px_shape base = box_hull(&base_hull, 1.0, 0.5, 1.0);
    px_shape hex = prism_hull(&hex_hull, 6, 0.5, 0.5, 0.3, 0.1);
    px_transform tb = make_pose(0, 0, 0, NULL);
    px_transform th = make_pose(0.1, 0.8 - 1e-3, 0.05, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&base, &tb, &hex, &th, &config, &m), PX_OK);
    PX_CHECK(check_invariants("hex on box", &base, &tb, &hex, &th, &m, config.margin) == 0);
    PX_CHECK(m.count == 4);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
    double corners[6][3];
    for (int i = 0; i < 6; ++i)
    {
        double local[3] = {hex_hull.vertices[3 * i], hex_hull.vertices[3 * i + 1],
                           hex_hull.vertices[3 * i + 2]};
        pose_point(&th, local, corners[i]);
    }
    int idx[4];
    for (int k = 0; k < 4; ++k)
    {
        PX_CHECK_NEAR(m.points[k].separation, -1e-3, MF_POS_TOL);
        idx[k] = -1;
        for (int i = 0; i < 6; ++i)
        {
            double pb[3] = {m.points[k].point_b[0], m.points[k].point_b[1], m.points[k].point_b[2]};
            if (fabs(pb[0] - corners[i][0]) <= MF_POS_TOL && fabs(pb[1] - corners[i][1]) <= MF_POS_TOL &&
                fabs(pb[2] - corners[i][2]) <= MF_POS_TOL)
            {
                idx[k] = i;
            }
        }
        PX_CHECK(idx[k] >= 0);
    }
    /* four of six hexagon corners span at least 2/3 of the hexagon's area (the best is exactly 2/3) */
    double area = quad_area((const double(*)[3])corners, idx);
    double hexagon = 2.0 * 1.5 * sqrt(3.0) * 0.25; /* twice the area of a hexagon of radius 0.5 */
    PX_CHECK(area >= 0.66 * hexagon);

    px_shape capsule = px_shape_capsule(0.2f, 0.1f);
    double qz[4];
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz);
    px_transform tc = make_pose(0.15, 0.8 - 1e-3 + 0.3 + 0.1 - 5e-4, 0.1, qz);
    PX_CHECK_STATUS(px_manifold_world(&capsule, &tc, &hex, &th, &config, &m), PX_OK);
    PX_CHECK(check_invariants("capsule on hex", &capsule, &tc, &hex, &th, &m, config.margin) == 0);
    PX_CHECK(m.count == 2);
    PX_CHECK_NEAR(m.normal[1], -1.0, 1e-6);
    for (int k = 0; k < 2; ++k)
    {
        PX_CHECK_NEAR(m.points[k].separation, -5e-4, MF_POS_TOL);
    }
    return 0;
}

/* A rock lying on a triangle face whose neighbour across an edge is tilted by only 1.4e-3 rad (frozen from
 * built_hulls at PX_TEST_SEED=37, rock 243). The two faces tie on alignment with the floor's normal and the
 * contact's witness lies on their shared edge, so the plane-to-witness tie-break cannot tell them apart;
 * the tilted face left the rock's deepest corner out of the manifold (3 points, one 1.4e-4 too shallow).
 * The face lying flat must be the incident face: its three corners, all at the rock's depth. */
static int rock_on_face_tie(void)
{
    static const float points[27 * 3] = {
        -0x1.25c454p-2f, -0x1.7f6cb6p-4f, 0x1.362bb2p-2f,
        -0x1.803dp-2f, -0x1.5e8b62p-3f, -0x1.114544p-3f,
        0x1.d687ep-2f, -0x1.972c2p-4f, 0x1.5dfc72p-4f,
        -0x1.59cb1cp-4f, 0x1.2be478p-2f, -0x1.bdb416p-5f,
        -0x1.2fc696p-2f, -0x1.989b4ap-3f, -0x1.73882cp-3f,
        0x1.ab5d62p-3f, 0x1.618416p-5f, -0x1.6f87a2p-2f,
        0x1.a645d6p-2f, -0x1.079666p-3f, -0x1.2dce5ap-3f,
        -0x1.820bfp-2f, -0x1.703ba6p-3f, 0x1.b87d8cp-4f,
        -0x1.cd3b14p-4f, 0x1.33f0d8p-7f, 0x1.8edf02p-2f,
        0x1.05dc4p-3f, -0x1.72e636p-3f, 0x1.354a38p-2f,
        -0x1.3bda94p-6f, 0x1.33c316p-4f, -0x1.8c3bp-2f,
        0x1.810d18p-2f, -0x1.05ff1ap-6f, -0x1.0d158ap-2f,
        -0x1.47cae2p-3f, -0x1.0e577cp-4f, -0x1.79704ep-2f,
        -0x1.3e1baep-3f, -0x1.d79294p-3f, 0x1.cb53dcp-3f,
        -0x1.1e436p-2f, -0x1.e4ffcap-3f, 0x1.9f59acp-4f,
        -0x1.6ed01ep-2f, -0x1.15cdap-4f, -0x1.0e5736p-2f,
        -0x1.23518cp-3f, -0x1.10431p-2f, -0x1.2b6b46p-3f,
        -0x1.f91688p-3f, -0x1.5f0f4ap-3f, -0x1.0ca97cp-2f,
        -0x1.94bdecp-2f, 0x1.547a2cp-3f, 0x1.ab3accp-4f,
        0x1.cda8eap-6f, -0x1.ef072ep-4f, 0x1.762e48p-2f,
        0x1.5c378cp-3f, 0x1.15151ep-3f, 0x1.5201fep-2f,
        0x1.822c52p-2f, -0x1.862f8ep-3f, 0x1.11321ep-4f,
        0x1.f5da82p-3f, 0x1.32d9c2p-5f, -0x1.615adp-2f,
        0x1.8e5dap-2f, 0x1.b997ep-4f, -0x1.a61714p-3f,
        0x1.37ffap-2f, 0x1.8492b4p-5f, 0x1.3e3e26p-2f,
        0x1.8a4c34p-3f, 0x1.8e79fap-3f, 0x1.0cef8ap-2f,
        -0x1.0ed9c8p-3f, -0x1.be74dp-4f, 0x1.6de80cp-2f
    };
    const float corners[8 * 3] = {-2, -0.5f, -2, 2, -0.5f, -2, -2, 0.5f, -2, 2, 0.5f, -2,
                                  -2, -0.5f, 2,  2, -0.5f, 2,  -2, 0.5f, 2,  2, 0.5f, 2};
    px_hull* floor_hull = NULL;
    px_hull* rock_hull = NULL;
    PX_CHECK_STATUS(px_hull_create(corners, 8, NULL, &floor_hull), PX_OK);
    PX_CHECK_STATUS(px_hull_create(points, 27, NULL, &rock_hull), PX_OK);
    px_shape floor = px_shape_from_hull(floor_hull);
    px_shape rock = px_shape_from_hull(rock_hull);
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tr;
    tr.p[0] = 0x1.999bcep-3f;
    tr.p[1] = 0x1.c68ab8p-1f;
    tr.p[2] = -0x1.aa3cbcp-2f;
    tr.q[0] = 0x1.aed1dp-2f;
    tr.q[1] = 0x1.aee128p-2f;
    tr.q[2] = -0x1.0b6146p-3f;
    tr.q[3] = -0x1.960798p-1f;
    /* the rock's lowest vertices, in double: the three corners of the face it lies on */
    const float* verts = px_hull_vertices(rock_hull);
    int nv = px_hull_vertex_count(rock_hull);
    double lowest = INFINITY;
    double low[PX_MANIFOLD_MAX_POINTS][3];
    int low_count = 0;
    for (int i = 0; i < nv; ++i)
    {
        double local[3] = {verts[3 * i], verts[3 * i + 1], verts[3 * i + 2]}, w[3];
        pose_point(&tr, local, w);
        lowest = fmin(lowest, w[1]);
    }
    for (int i = 0; i < nv; ++i)
    {
        double local[3] = {verts[3 * i], verts[3 * i + 1], verts[3 * i + 2]}, w[3];
        pose_point(&tr, local, w);
        if (w[1] <= lowest + 1e-6 && low_count < PX_MANIFOLD_MAX_POINTS)
        {
            memcpy(low[low_count++], w, sizeof(w));
        }
    }
    PX_CHECK(low_count == 3);
    px_manifold_config config = px_manifold_default_config();
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &rock, &tr, &config, &m), PX_OK);
    PX_CHECK(check_invariants("rock on a face tie", &floor, &tf, &rock, &tr, &m, config.margin) == 0);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
    PX_CHECK(m.count == 3);
    for (int k = 0; k < low_count; ++k)
    {
        int i = find_point(&m, 1, low[k], MF_POS_TOL);
        PX_CHECK(i >= 0);
        PX_CHECK_NEAR(m.points[i].separation, lowest - 0.5, MF_POS_TOL);
    }
    px_hull_destroy(rock_hull);
    px_hull_destroy(floor_hull);
    return 0;
}

/* An edge of a hull crossing an edge of a rounded box, deep (world's churn_filter_test, seed 20). The
 * contact normal is normal to the hull's edge, so both its ends tie as the support along it and rounding
 * picks either; the best aligned face around one of them does not hold the edge, and when that face was the
 * reference its prism missed the edge's middle: one point 0.100 deep instead of three down to 0.102 (in
 * 1752 of 4000 turns of the box by 1e-7 to 1e-5 rad). The faces holding both ends now win, and every turn
 * gives the same three points, the deepest at the contact's depth. */
static int edge_support_tie(void)
{
    static const float points[9 * 3] = {
        -0x1.6ddefap-2f, -0x1.f224ccp-8f, -0x1.2d765cp-3f, -0x1.40e8fap-2f, 0x1.240026p-3f,  0x1.582d22p-5f,
        -0x1.f7578p-3f,  0x1.3d6508p-3f,  0x1.2f222ep-4f,  -0x1.03a728p-4f, 0x1.5fdd94p-6f,  0x1.c5bd64p-3f,
        -0x1.9ac3bep-5f, 0x1.33d5a4p-3f,  0x1.24b89p-3f,   0x1.783d04p-2f,  -0x1.f8b926p-4f, -0x1.c4befap-7f,
        0x1.1f14bep-2f,  -0x1.2d4bep-3f,  0x1.120856p-4f,  0x1.9f4e82p-2f,  -0x1.a1c86cp-5f, -0x1.99d328p-4f,
        0x1.3b76c8p-2f,  0x1.3163b8p-3f,  -0x1.e60eb6p-9f};
    px_hull* hull = NULL;
    PX_CHECK_STATUS(px_hull_create(points, 9, NULL, &hull), PX_OK);
    px_shape a = px_shape_from_hull(hull);
    px_shape b = px_shape_box((vec3){0x1.5662c2p+0f, 0x1.2c9d48p-2f, 0x1.9d7be8p+0f});
    b.radius = 0x1.df85dp-4f;
    const px_transform ta = {{0x1.8b6b1cp-2f, 0x1.2b696p-5f, 0x1.6f6c7ep-1f, -0x1.282652p-1f},
                             {-0x1.6082fp+1f, 0x1.e48606p+0f, 0x1.622aecp+0f}};
    const px_transform tb0 = {{0x1.a24502p-3f, 0x1.ff6e98p-3f, 0x1.2445bcp-2f, -0x1.ce113cp-1f},
                              {-0x1.7a1e04p+0f, 0x1.d3c99cp+0f, 0x1.03b22p+1f}};
    px_manifold_config config = px_manifold_default_config();
    px_manifold m0;
    PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb0, &config, &m0), PX_OK);
    PX_CHECK(m0.count == 3);
    px_rng rng = px_rng_seeded(0x7469652dull);
    for (int trial = 0; trial < 400; ++trial)
    {
        double axis[3];
        px_rng_unit_vector(&rng, axis);
        const double angle = 1e-7 * pow(100.0, px_rng_range(&rng, 0.0, 1.0));
        const double s = sin(0.5 * angle);
        const px_transform turn = {{(float)(s * axis[0]), (float)(s * axis[1]), (float)(s * axis[2]),
                                    (float)cos(0.5 * angle)},
                                   {0.0f, 0.0f, 0.0f}};
        px_transform tb;
        px_transform_mul(&turn, &tb0, &tb);
        px_contact c;
        px_manifold m;
        PX_CHECK(px_contact_world(&a, &ta, &b, &tb, &config.contact, &c) >= 0);
        PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &config, &m), PX_OK);
        float deepest = INFINITY;
        for (int k = 0; k < m.count; ++k)
        {
            deepest = fminf(deepest, m.points[k].separation);
        }
        if (m.count != 3 || !(fabsf(deepest - c.distance) <= 1e-5f))
        {
            fprintf(stderr, "turn %d (%.3g rad): contact depth %.9g, deepest point %.9g\n", trial, angle,
                    (double)-c.distance, (double)deepest);
            print_manifold("edge support tie", &m);
            return 1;
        }
        for (int k = 0; k < m.count; ++k)
        {
            PX_CHECK(m.points[k].id == m0.points[k].id);
        }
    }
    px_hull_destroy(hull);
    return 0;
}

/* A sheet 1 x 1 and 1e-5 thick (a box, and a hull 1.2e-5 thick) lying on a triangle, turned 1e-4 rad: its
 * four corners. Its thin edges, shorter than the tie tolerance (1e-5 of the size), tied their two ends as the
 * support whatever their direction, and a side face, standing on the contact, won as the face holding the
 * most tied corners: two points along one edge, the sheet free to roll. */
static int thin_sheet_lies_flat(void)
{
    const px_shape tri = px_shape_triangle((vec3){-4, -4, 0}, (vec3){4, -4, 0}, (vec3){0, 4, 0});
    const px_transform tt = PX_TRANSFORM_IDENTITY_INIT;
    const px_transform ts = {{0x1.f75106p-16f, 0x1.4f8b58p-15f, 0.0f, 1.0f},
                             {0x1.99999ap-4f, 0x1.99999ap-3f, -0x1.e4f768p-11f}};
    const float hz[2] = {5e-6f, 6e-6f};
    for (int kind = 0; kind < 2; ++kind)
    {
        px_hull* hull = NULL;
        px_shape sheet = px_shape_box((vec3){0.5f, 0.5f, hz[kind]});
        if (kind == 1)
        {
            float p[24];
            for (int i = 0; i < 8; ++i)
            {
                p[3 * i] = (i & 1) ? 0.5f : -0.5f;
                p[3 * i + 1] = (i & 2) ? 0.5f : -0.5f;
                p[3 * i + 2] = (i & 4) ? hz[kind] : -hz[kind];
            }
            PX_CHECK_STATUS(px_hull_create(p, 8, NULL, &hull), PX_OK);
            PX_CHECK(px_hull_dimension(hull) == 3);
            sheet = px_shape_from_hull(hull);
        }
        for (int order = 0; order < 2; ++order)
        {
            px_manifold m;
            PX_CHECK_STATUS(order ? px_manifold_world(&sheet, &ts, &tri, &tt, NULL, &m)
                                  : px_manifold_world(&tri, &tt, &sheet, &ts, NULL, &m),
                            PX_OK);
            /* the four corners: x and y both span the sheet's width */
            float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
            for (int i = 0; i < m.count; ++i)
            {
                for (int k = 0; k < 2; ++k)
                {
                    lo[k] = fminf(lo[k], m.points[i].point_a[k]);
                    hi[k] = fmaxf(hi[k], m.points[i].point_a[k]);
                }
            }
            if (m.count != 4 || !(hi[0] - lo[0] > 0.99f) || !(hi[1] - lo[1] > 0.99f))
            {
                fprintf(stderr, "sheet %s, order %d:\n", kind ? "hull" : "box", order);
                print_manifold("thin sheet", &m);
                return 1;
            }
        }
        px_hull_destroy(hull);
    }
    return 0;
}

/* Hulls from the builder (px_hull_create): random rocks (hulls of points on a squashed sphere, randomly
 * turned) resting on a box hull with a random depth. The deepest vertex must be a contact point at its
 * depth, every point within the margin, the normal the floor's; and a box's hull on a box must match the
 * box-box manifold. */
static int built_hulls(void)
{
    px_rng rng = px_rng_seeded(0x6d616e34ull);
    px_manifold_config config = px_manifold_default_config();
    const float corners[8 * 3] = {-2, -0.5f, -2, 2, -0.5f, -2, -2, 0.5f, -2, 2, 0.5f, -2,
                                  -2, -0.5f, 2,  2, -0.5f, 2,  -2, 0.5f, 2,  2, 0.5f, 2};
    px_hull* floor_hull = NULL;
    PX_CHECK_STATUS(px_hull_create(corners, 8, NULL, &floor_hull), PX_OK);
    px_shape floor = px_shape_from_hull(floor_hull);
    PX_CHECK(px_hull_face_count(floor_hull) == 6);
    px_transform tf = make_pose(0, 0, 0, NULL);
    int failures = 0, multi = 0;
    for (int trial = 0; trial < 300 && failures == 0; ++trial)
    {
        /* every tenth rock is large (600 points): its supports climb and its faces come from the
         * vertex-face lists */
        static float points[3 * 600];
        int n = trial % 10 == 9 ? 600 : 8 + px_rng_int(&rng, 32);
        px_rng_ellipsoid_points(&rng, n, 0.5, 0.3, 0.4, points);
        px_hull* rock_hull = NULL;
        if (px_hull_create(points, n, NULL, &rock_hull) != PX_OK)
        {
            fprintf(stderr, "rock %d: px_hull_create failed\n", trial);
            px_hull_destroy(floor_hull);
            return 1;
        }
        px_shape rock = px_shape_from_hull(rock_hull);
        const float* verts = px_hull_vertices(rock_hull);
        int nv = px_hull_vertex_count(rock_hull);
        double q[4];
        px_rng_quat(&rng, q);
        /* every third rock lies on one of its faces: turned so that face's normal looks straight down */
        int face = -1, face_count = 0;
        if (trial % 3 == 0)
        {
            face = px_rng_int(&rng, px_hull_face_count(rock_hull));
            const px_hull_face* f = &px_hull_faces(rock_hull)[face];
            face_count = f->count;
            double nl[3] = {f->plane[0], f->plane[1], f->plane[2]}, nw[3], down[3] = {0, -1, 0}, fix[4];
            dquat_rotate(q, nl, nw);
            dquat_from_to(nw, down, fix);
            dquat_mul(fix, q, q);
        }
        px_transform tr = make_pose(0, 0, 0, q);
        double lowest = INFINITY, lowest_v[3] = {0, 0, 0};
        for (int pass = 0; pass < 2; ++pass)
        {
            /* the lowest vertex; then the pose that sinks it by depth, and the lowest vertex again under the
             * final (float) pose */
            lowest = INFINITY;
            for (int i = 0; i < nv; ++i)
            {
                double local[3] = {verts[3 * i], verts[3 * i + 1], verts[3 * i + 2]}, w[3];
                pose_point(&tr, local, w);
                if (w[1] < lowest)
                {
                    lowest = w[1];
                    memcpy(lowest_v, w, sizeof(w));
                }
            }
            if (pass == 0)
            {
                double depth = px_rng_range(&rng, 0.0, 2e-3);
                double cx = px_rng_range(&rng, -1, 1), cz = px_rng_range(&rng, -1, 1);
                tr = make_pose(cx, 0.5 - depth - lowest, cz, q);
            }
        }
        px_manifold m;
        char label[48];
        snprintf(label, sizeof(label), "rock %d", trial);
        px_status st = px_manifold_world(&floor, &tf, &rock, &tr, &config, &m);
        int bad = st < 0 || check_invariants(label, &floor, &tf, &rock, &tr, &m, config.margin) != 0 ||
                  !(fabs((double)m.normal[1] - 1.0) <= 1e-6) || m.count < 1;
        int k = bad ? -1 : find_point(&m, 1, lowest_v, MF_POS_TOL);
        bad = bad || k < 0 || !(fabs((double)m.points[k].separation - (lowest - 0.5)) <= MF_POS_TOL);
        for (int i = 0; i < m.count && !bad; ++i)
        {
            bad = !(fabs((double)m.points[i].separation - ((double)m.points[i].point_b[1] - 0.5)) <=
                    MF_POS_TOL);
        }
        /* on a face: all its corners touch, reduced to at most four */
        bad = bad || (face >= 0 && m.count != (face_count < 4 ? face_count : 4));
        if (bad)
        {
            fprintf(stderr, "%s: status %d, deepest vertex (%.7g, %.7g, %.7g) at %.7g\n", label, (int)st,
                    lowest_v[0], lowest_v[1], lowest_v[2], lowest - 0.5);
            print_manifold(label, &m);
            ++failures;
        }
        multi += m.count > 1 ? 1 : 0;
        px_hull_destroy(rock_hull);
    }
    /* a box's hull on the box hull: the same points as box on box */
    const float small[8 * 3] = {-0.3f,  -0.2f, -0.25f, 0.3f,   -0.2f, -0.25f, -0.3f, 0.2f,
                                -0.25f, 0.3f,  0.2f,   -0.25f, -0.3f, -0.2f,  0.25f, 0.3f,
                                -0.2f,  0.25f, -0.3f,  0.2f,   0.25f, 0.3f,   0.2f,  0.25f};
    px_hull* small_hull = NULL;
    PX_CHECK_STATUS(px_hull_create(small, 8, NULL, &small_hull), PX_OK);
    px_shape top_hull = px_shape_from_hull(small_hull);
    px_shape top_box = px_shape_box((vec3){0.3f, 0.2f, 0.25f});
    px_shape floor_box = px_shape_box((vec3){2.0f, 0.5f, 2.0f});
    double q[4];
    dquat_axis_angle(0, 1, 0, 0.7, q);
    px_transform tt = make_pose(0.3, 0.7 - 1e-3, -0.4, q);
    px_manifold mh, mb;
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &top_hull, &tt, &config, &mh), PX_OK);
    PX_CHECK_STATUS(px_manifold_world(&floor_box, &tf, &top_box, &tt, &config, &mb), PX_OK);
    px_hull_destroy(small_hull);
    px_hull_destroy(floor_hull);
    PX_CHECK(failures == 0);
    PX_CHECK(multi >= 10); /* some rocks lie on an edge or a face */
    PX_CHECK(mh.count == 4 && mb.count == 4);
    for (int i = 0; i < 4; ++i)
    {
        double pb[3] = {mb.points[i].point_b[0], mb.points[i].point_b[1], mb.points[i].point_b[2]};
        int k = find_point(&mh, 1, pb, MF_POS_TOL);
        PX_CHECK(k >= 0);
        PX_CHECK_NEAR(mh.points[k].separation, mb.points[i].separation, MF_POS_TOL);
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Feature ids */

static bool same_id_set(const px_manifold* a, const px_manifold* b)
{
    if (a->count != b->count)
    {
        return false;
    }
    for (int i = 0; i < a->count; ++i)
    {
        bool found = false;
        for (int j = 0; j < b->count; ++j)
        {
            found = found || a->points[i].id == b->points[j].id;
        }
        if (!found)
        {
            return false;
        }
    }
    return true;
}

/* The built hull of the cube [-0.5, 0.5]^3 (NULL on failure). */
static px_hull* unit_cube_hull(void)
{
    float corners[24];
    for (int k = 0; k < 8; ++k)
    {
        corners[3 * k] = (k & 1) ? 0.5f : -0.5f;
        corners[3 * k + 1] = (k & 2) ? 0.5f : -0.5f;
        corners[3 * k + 2] = (k & 4) ? 0.5f : -0.5f;
    }
    px_hull* hull = NULL;
    return px_hull_create(corners, 8, NULL, &hull) == PX_OK ? hull : NULL;
}

/* The box tables of canonical feature names (manifold_internal.h) against the corners: a vertex's name is
 * the same corner in the lowest-index face that has it, an edge's the same two corners (run the other way
 * when the face changes) in the lower of its two faces. */
static int box_feature_name_tables(void)
{
    const float h[3] = {1.0f, 2.0f, 3.0f};
    for (int f = 0; f < 6; ++f)
    {
        for (int i = 0; i < 4; ++i)
        {
            vec3 c0, c1, d0, d1;
            pxi_box_face_corner(h, f, i, c0);
            pxi_box_face_corner(h, f, (i + 1) & 3, c1);
            const int vn = pxi_box_feature_names[0][f][i], en = pxi_box_feature_names[1][f][i];
            pxi_box_face_corner(h, vn >> 2, vn & 3, d0);
            PX_CHECK(px_v3_distance2(c0, d0) == 0.0f);
            /* the lowest face with the corner: its x face (faces 0 and 1) */
            PX_CHECK((vn >> 2) == (c0[0] > 0.0f ? 0 : 1));
            pxi_box_face_corner(h, en >> 2, en & 3, d0);
            pxi_box_face_corner(h, en >> 2, ((en & 3) + 1) & 3, d1);
            if ((en >> 2) == f)
            {
                PX_CHECK((en & 3) == i);
            }
            else
            {
                PX_CHECK((en >> 2) < f);
                PX_CHECK(px_v3_distance2(c0, d1) == 0.0f && px_v3_distance2(c1, d0) == 0.0f);
            }
            /* no face below the named one has this edge */
            for (int g = 0; g < (en >> 2); ++g)
            {
                int found = 0;
                for (int j = 0; j < 4; ++j)
                {
                    vec3 e0, e1;
                    pxi_box_face_corner(h, g, j, e0);
                    pxi_box_face_corner(h, g, (j + 1) & 3, e1);
                    found += px_v3_distance2(e0, c1) == 0.0f && px_v3_distance2(e1, c0) == 0.0f;
                }
                PX_CHECK(found == 0);
            }
        }
    }
    return 0;
}

/* A cube resting edge-on (turned 45 degrees about x) on a floor, sunk 1e-3, turned by -1e-4, 0 and +1e-4
 * rad, as a box (closed-form path) and as a built hull (general path): the same edge touches throughout,
 * so the two points keep their ids. The two faces at the edge tie as the incident face and the tie flips
 * with the turn; the ids named the edge's ends by their positions in whichever face won (7243 id changes
 * in 30000 perturbations of edge-on boxes, review 47). Vertices and edges are now named by the lowest-index
 * face that has them. */
static int edge_on_tie_ids(void)
{
    px_manifold_config config = px_manifold_default_config();
    const px_shape floor = px_shape_box((vec3){2.0f, 0.5f, 2.0f});
    const px_transform tf = PX_TRANSFORM_IDENTITY_INIT;
    px_hull* hull = unit_cube_hull();
    PX_CHECK(hull != NULL);
    for (int path = 0; path < 2; ++path)
    {
        const px_shape cube = path == 0 ? px_shape_box((vec3){0.5f, 0.5f, 0.5f}) : px_shape_from_hull(hull);
        uint32_t ids[2] = {0, 0};
        for (int s = -1; s <= 1; ++s)
        {
            const double angle = 0.25 * MF_PI + s * 1e-4;
            double q[4];
            dquat_axis_angle(1, 0, 0, angle, q);
            const double y = 0.5 - 1e-3 + 0.5 * (cos(angle) + sin(angle));
            const px_transform tb = make_pose(0.2, y, 0.1, q);
            px_manifold m;
            PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &cube, &tb, &config, &m), PX_OK);
            PX_CHECK(m.count == 2);
            uint32_t now[2]; /* by x: the end at x = -0.3 first */
            const int first = m.points[0].point_a[0] < m.points[1].point_a[0] ? 0 : 1;
            now[0] = m.points[first].id;
            now[1] = m.points[1 - first].id;
            if (s == -1)
            {
                ids[0] = now[0];
                ids[1] = now[1];
            }
            else if (now[0] != ids[0] || now[1] != ids[1])
            {
                fprintf(stderr, "path %d, turn %+d e-4: ids 0x%08x 0x%08x, were 0x%08x 0x%08x\n", path, s,
                        now[0], now[1], ids[0], ids[1]);
                print_manifold("edge on", &m);
                px_hull_destroy(hull);
                return 1;
            }
        }
    }
    px_hull_destroy(hull);
    return 0;
}

/* Small random motions around a resting pose (translations up to 1e-4 of the size, rotations up to 1e-3
 * rad): the count and the id set stay those of the rest pose. Three set-ups: a small box well inside the
 * face (vertex-in-face points), one hanging over a corner (vertex, edge-edge and reference-vertex points),
 * and the same with the shapes swapped. */
static int id_stability(void)
{
    px_rng rng = px_rng_seeded(0x6d616e33ull);
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape top = px_shape_box((vec3){0.4f, 0.3f, 0.3f});
    static mf_hull hull_storage;
    px_shape floor_hull = box_hull(&hull_storage, 1.0, 0.5, 1.0);
    double yaw[4];
    dquat_axis_angle(0, 1, 0, 0.35, yaw);
    const double centres[2][3] = {{0.1, 0.8 - 1e-3, -0.2}, {0.85, 0.8 - 1e-3, 0.8}};
    for (int setup = 0; setup < 6; ++setup)
    {
        const double* c = centres[setup % 2];
        bool swapped = (setup / 2) == 1;
        const px_shape* base = setup >= 4 ? &floor_hull : &floor;
        px_transform tf = make_pose(0, 0, 0, NULL);
        px_transform rest = make_pose(c[0], c[1], c[2], yaw);
        px_manifold m0;
        PX_CHECK_STATUS(swapped ? px_manifold_world(&top, &rest, base, &tf, &config, &m0)
                                : px_manifold_world(base, &tf, &top, &rest, &config, &m0),
                        PX_OK);
        if (m0.count != 4)
        {
            print_manifold("rest", &m0);
        }
        PX_CHECK(m0.count == 4);
        for (int step = 0; step < 100; ++step)
        {
            double axis[3], dq[4], q[4];
            px_rng_unit_vector(&rng, axis);
            dquat_axis_angle(axis[0], axis[1], axis[2], px_rng_range(&rng, -1e-3, 1e-3), dq);
            dquat_mul(dq, yaw, q);
            const double size = 0.8;
            px_transform t = make_pose(c[0] + 1e-4 * size * px_rng_range(&rng, -1, 1),
                                       c[1] + 1e-4 * size * px_rng_range(&rng, -1, 1),
                                       c[2] + 1e-4 * size * px_rng_range(&rng, -1, 1), q);
            px_manifold m;
            char label[48];
            snprintf(label, sizeof(label), "setup %d step %d", setup, step);
            PX_CHECK_STATUS(swapped ? px_manifold_world(&top, &t, base, &tf, &config, &m)
                                    : px_manifold_world(base, &tf, &top, &t, &config, &m),
                            PX_OK);
            int bad = swapped ? check_invariants(label, &top, &t, base, &tf, &m, config.margin)
                              : check_invariants(label, base, &tf, &top, &t, &m, config.margin);
            if (bad || !same_id_set(&m0, &m))
            {
                print_manifold("rest", &m0);
                print_manifold(label, &m);
                return 1;
            }
        }
    }
    return 0;
}

/* Swapping A and B swaps the face and feature halves of every id (faces A|B, features A|B), whichever shape
 * supplied the reference face. Set-ups: a box inside the floor's face, one over the floor's corner, an
 * offset overlap of two boxes; each also tilted by 4e-3 rad. Tilted inside the face, the floor is the
 * better aligned face and the reference in both orders (as B in the swapped query); tilted over an edge,
 * the contact normal (and so the reference) may be the tilted box's face in both orders. */
static int id_swap_symmetry(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape top = px_shape_box((vec3){0.4f, 0.3f, 0.3f});
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    double yaw[4], tilt[4], none[4] = {0, 0, 0, 1};
    dquat_axis_angle(0, 1, 0, 0.35, yaw);
    dquat_axis_angle(1, 0, 0.5, 4e-3, tilt);
    px_transform tf = make_pose(0, 0, 0, NULL);
    const px_shape* bases[3] = {&floor, &floor, &cube};
    const double centres[3][3] = {{0.1, 0.8 - 1e-3, -0.2}, {0.85, 0.8 - 1e-3, 0.8}, {0.6, 0.8 - 1e-3, 0.3}};
    for (int s = 0; s < 6; ++s)
    {
        double q[4];
        dquat_mul(s >= 3 ? tilt : none, s % 3 == 2 ? none : yaw, q);
        px_transform tt = make_pose(centres[s % 3][0], centres[s % 3][1], centres[s % 3][2], q);
        px_manifold ab, ba;
        PX_CHECK_STATUS(px_manifold_world(bases[s % 3], &tf, &top, &tt, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&top, &tt, bases[s % 3], &tf, &config, &ba), PX_OK);
        PX_CHECK(ab.count == ba.count && ab.count >= 3);
        if (s == 3)
        {
            /* the floor's face is the reference in both orders: its normal (to rounding; the swapped query
             * works in the tilted box's frame), not the tilted box's, which is 4e-3 rad away */
            const float up[3] = {0.0f, 1.0f, 0.0f}, down[3] = {0.0f, -1.0f, 0.0f};
            PX_CHECK_NEAR3(ab.normal, up, 1e-6);
            PX_CHECK_NEAR3(ba.normal, down, 1e-6);
        }
        for (int i = 0; i < ba.count; ++i)
        {
            uint32_t id = ba.points[i].id;
            ba.points[i].id =
                (id >> 24 & 0xFFu) << 16 | (id >> 16 & 0xFFu) << 24 | (id >> 8 & 0xFFu) | (id & 0xFFu) << 8;
        }
        if (!same_id_set(&ab, &ba))
        {
            fprintf(stderr, "set-up %d\n", s);
            print_manifold("A/B", &ab);
            print_manifold("B/A (halves swapped)", &ba);
            return 1;
        }
    }
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Margin, rounding, bad input */

static int margin_and_rounding(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_transform ta = make_pose(0, 0, 0, NULL);
    float margin = config.margin;
    px_transform near = make_pose(0.2, 1.0 + 0.5 * margin, 0.1, NULL);
    px_transform far = make_pose(0.2, 1.0 + 2.0 * margin, 0.1, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &near, &config, &m), PX_OK);
    PX_CHECK(check_invariants("near", &cube, &ta, &cube, &near, &m, margin) == 0);
    PX_CHECK(check_rectangle("near", &m, -0.3, 0.5, -0.4, 0.5, 0.5, 0.5 * margin, 1.0) == 0);
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &far, &config, &m), PX_OK);
    PX_CHECK(m.count == 0);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-5); /* apart: no points, the normal still known */
    /* a larger margin takes the far box too */
    config.margin = 3.0f * margin;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &far, &config, &m), PX_OK);
    PX_CHECK(m.count == 4);
    config.margin = margin;

    /* a rounded box (radius 0.05) on a box: the core's face clipped, shifted by the radius */
    px_shape rounded = px_shape_box((vec3){0.3f, 0.2f, 0.3f});
    rounded.radius = 0.05f;
    px_transform tr = make_pose(0.1, 0.5 + 0.25 - 1e-3, 0.0, NULL);
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &rounded, &tr, &config, &m), PX_OK);
    PX_CHECK(check_invariants("rounded", &cube, &ta, &rounded, &tr, &m, margin) == 0);
    PX_CHECK(check_rectangle("rounded", &m, -0.2, 0.4, -0.3, 0.3, 0.5, -1e-3, 1.0) == 0);
    return 0;
}

/* A rod 0.004 thick and 20 long lying across a floor box: four points, two at each side of the floor, on
 * both sides of the rod's width. Points within 1e-3 of the smaller shape's size merged, which took the
 * floor's size (4.4) and cut the rod's width away: two collinear points, no support against rolling
 * (review 51). The merge is now for points within rounding of each other (1e-5 of the size); review 68 found
 * 2e-4 merging them again under a floor 60 wide (2 points). */
static int thin_rod_keeps_width(void)
{
    const float floors[2][3] = { { 3.0f, 1.0f, 3.0f }, { 30.0f, 1.0f, 30.0f } };
    const float rods[2] = { 10.0f, 40.0f };
    for (int k = 0; k < 2; ++k)
    {
        const px_shape floor = px_shape_box(floors[k]);
        const px_shape rod = px_shape_box((vec3){rods[k], 0.002f, 0.002f});
        px_transform tf = PX_TRANSFORM_IDENTITY_INIT, tr = PX_TRANSFORM_IDENTITY_INIT;
        tf.p[1] = -1.0f;
        tr.p[1] = 0.001f;
        px_manifold m;
        PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &rod, &tr, NULL, &m), PX_OK);
        PX_CHECK(m.count == 4);
        int wide = 0;
        for (int i = 0; i < m.count; ++i)
        {
            PX_CHECK_NEAR(m.points[i].separation, -0.001, 1e-6);
            wide |= m.points[i].point_a[2] > 0.0f ? 1 : 2;
        }
        PX_CHECK(wide == 3);
    }
    return 0;
}

/* A bar 0.6 x 0.01 x 0.01, a hull whose points sit around x = 3000 in its own frame (as the pieces of a convex
 * decomposition do), over the edge of a floor box 2000 wide: both sides of its width at both ends. The merge
 * took its size from the shapes' reach from their origins, 3000 for the bar and 1414 for the floor, and
 * merged points within 1e-5 of 1414 = 0.014: two points along one side (review 68, with the bar at 300 on a
 * floor 100 wide under a merge fraction of 2e-4). */
static int offset_hull_keeps_width(void)
{
    float p[24];
    for (int i = 0; i < 8; ++i)
    {
        p[3 * i] = 3000.0f + ((i & 1) ? 0.3f : -0.3f);
        p[3 * i + 1] = (i & 2) ? 0.005f : -0.005f;
        p[3 * i + 2] = (i & 4) ? 0.005f : -0.005f;
    }
    px_hull* hull = NULL;
    PX_CHECK_STATUS(px_hull_create(p, 8, NULL, &hull), PX_OK);
    const px_shape bar = px_shape_from_hull(hull);
    const px_shape floor = px_shape_box((vec3){1000.0f, 1000.0f, 1.0f});
    px_transform tf = PX_TRANSFORM_IDENTITY_INIT, tb = PX_TRANSFORM_IDENTITY_INIT;
    tf.p[2] = -1.0f;
    tb.p[0] = -2000.1f;       /* the bar's middle at x = 999.9, reaching 0.2 past the floor's edge */
    tb.p[2] = 0x1.89374ap-9f; /* 0.002 deep */
    for (int order = 0; order < 2; ++order)
    {
        px_manifold m;
        PX_CHECK_STATUS(order ? px_manifold_world(&bar, &tb, &floor, &tf, NULL, &m)
                              : px_manifold_world(&floor, &tf, &bar, &tb, NULL, &m),
                        PX_OK);
        int sides = 0;
        for (int i = 0; i < m.count; ++i)
        {
            PX_CHECK_NEAR(m.points[i].separation, -0.002, 2e-4); /* coordinates of 3000 */
            sides |= m.points[i].point_a[1] > 0.0f ? 1 : 2;
        }
        if (m.count != 4 || sides != 3)
        {
            print_manifold("offset bar", &m);
            return 1;
        }
    }
    px_hull_destroy(hull);
    return 0;
}

/* Two boxes apart by 0.0013 (S 4.5), an edge pair's axis and a face of A separating them by 0.0013367 and
 * 0.0013356, 4.7 degrees apart (box_paths_agree at PX_TEST_SEED=57). The closed-form path's bias towards
 * faces took A's face, 2.8 degrees from the closest points' direction, past the 2.6 manifold.h allows; the
 * pair is now left to the general path: the normal is within the snap angle of the contact's. */
static int box_face_bias_lean(void)
{
    const px_shape a = px_shape_box((vec3){0x1.553b5cp+0f, 0x1.32dda2p+0f, 0x1.051a96p-2f});
    const px_shape b = px_shape_box((vec3){0x1.428e4ep-1f, 0x1.bc725ap-1f, 0x1.f04ef6p-3f});
    const px_transform ta = { { -0x1.a7cadep-3f, 0x1.af7226p-1f, 0x1.2c4f68p-3f, 0x1.e65c74p-2f },
                              { 0x1.03d24p+1f, 0x1.2902fep+0f, 0x1.622ddp+1f } };
    const px_transform tb = { { -0x1.2aa3aep-3f, 0x1.75a26cp-1f, 0x1.7740eap-3f, 0x1.48e2eap-1f },
                              { 0x1.44495cp-1f, 0x1.663cbp+1f, 0x1.46227ap+1f } };
    px_contact c;
    PX_CHECK_STATUS(px_contact_world(&a, &ta, &b, &tb, NULL, &c), PX_OK);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, NULL, &m), PX_OK);
    PX_CHECK(m.count >= 1);
    const double cosine = (double)m.normal[0] * c.normal[0] + (double)m.normal[1] * c.normal[1] +
                          (double)m.normal[2] * c.normal[2];
    PX_CHECK(cosine >= 1.0 - 1.0e-3);
    for (int i = 0; i < m.count; ++i)
    {
        PX_CHECK_NEAR(m.points[i].separation, c.distance, 2e-5);
    }
    return 0;
}

/* Boxes apart within the margin at an edge of A and a corner of B, the closed-form path's normal against
 * the contact's (GJK's, within 1.2e-5 of the exact one in these cases). The edge pair's axis, a cross
 * product, was the normal: with B's edge nearly parallel to A's it was 7.9e-4 rad off the exact normal
 * (long double) (0.0028 apart; box_paths_agree at PX_TEST_SEED=74), and where B's corner lay at the end of
 * the edge the axis was taken for, 4e-3 off (0.0045 apart; PX_TEST_SEED=323). The normal is now the
 * direction between the closest points, made normal to A's edge. */
static int box_parallel_edges_normal(void)
{
    const float halves[2][2][3] = {
        {{0x1.7aef28p-2f, 0x1.e7e984p-1f, 0x1.468674p+0f}, {0x1.27d81ep-3f, 0x1.ff3f8p-1f, 0x1.3592a6p-1f}},
        {{0x1.0a3acep+0f, 0x1.71bcb2p+0f, 0x1.87320ap-1f}, {0x1.b308dcp-2f, 0x1.8cab94p-1f, 0x1.94046p-3f}}};
    const px_transform poses[2][2] = {
        {{{0x1.a0affp-3f, 0x1.549fd2p-3f, -0x1.615c78p-1f, -0x1.593834p-1f},
          {0x1.4c098cp+1f, 0x1.5e33a8p+1f, -0x1.67879ap+1f}},
         {{-0x1.813e7cp-3f, 0x1.4fb72p-1f, -0x1.47f5d2p-1f, -0x1.6923c8p-2f},
          {0x1.024d52p+0f, 0x1.4daabcp+1f, -0x1.0ac60cp+2f}}},
        {{{0x1.54104p-4f, 0x1.b07e9ap-3f, -0x1.57aa44p-1f, -0x1.694ddap-1f},
          {0x1.309644p-1f, 0x1.296202p+1f, 0x1.02b288p-2f}},
         {{0x1.f28cf2p-4f, 0x1.b1739p-4f, -0x1.451e3cp-1f, -0x1.82cfaep-1f},
          {-0x1.73d91p+0f, 0x1.9550c4p+1f, -0x1.218bf2p-1f}}}};
    for (int k = 0; k < 2; ++k)
    {
        const px_shape a = px_shape_box(halves[k][0]), b = px_shape_box(halves[k][1]);
        px_contact c;
        PX_CHECK_STATUS(px_contact_world(&a, &poses[k][0], &b, &poses[k][1], NULL, &c), PX_OK);
        px_manifold m;
        PX_CHECK_STATUS(px_manifold_world(&a, &poses[k][0], &b, &poses[k][1], NULL, &m), PX_OK);
        PX_CHECK(m.count == 1);
        double e2 = 0.0;
        for (int i = 0; i < 3; ++i)
        {
            e2 += ((double)m.normal[i] - c.normal[i]) * ((double)m.normal[i] - c.normal[i]);
        }
        PX_CHECK(sqrt(e2) <= 2.0e-4); /* the rounding of a direction between points 0.003 apart at 4 */
        PX_CHECK_NEAR(m.points[0].separation, c.distance, 2e-5);
    }
    return 0;
}

/* A corner of a sharp box in the rounding of a rounded box (cores apart): one contact. Where the rounded
 * core's face prism passed through the corner, the clip gave the corner and the crossings of its edges with
 * that side plane, within rounding of each other: three points (2% of such contacts, box and hull paths)
 * with different ids, a singular block for a solver. Points within 1e-5 of the smaller shape's size now
 * merge into the deepest: none closer than that remains (the corner and its edges' crossings 3e-5 to 1e-4
 * apart are distinct points, as a thin rod's two sides must be: thin_rod_keeps_width). */
static int rounded_corner_single_point(void)
{
    px_shape a = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_shape b = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    b.radius = 0.1f;
    const px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    const px_transform tb = {{-0.30839774f, -0.279438049f, 0.895909548f, 0.155407026f},
                             {1.16202748f, 1.00748038f, -0.387674481f}};
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, NULL, &m), PX_OK);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -0.0311254, 1e-5);
    PX_CHECK(check_invariants("rounded corner", &a, &ta, &b, &tb, &m, PX_LINEAR_SLOP) == 0);

    /* random corners sunk into the rounding, through the box path, the hull path (a built cube) and
     * against a rounded built cube: no two points of a manifold closer than 1e-4 */
    px_hull* cube = unit_cube_hull();
    PX_CHECK(cube != NULL);
    px_rng rng = px_rng_seeded(0x6d616e35ull);
    int fails = 0;
    for (int trial = 0; trial < 3000 && fails == 0; ++trial)
    {
        const int mode = trial % 3;
        px_shape sa = mode == 1 ? px_shape_from_hull(cube) : px_shape_box((vec3){0.5f, 0.5f, 0.5f});
        px_shape sb = mode == 2 ? px_shape_from_hull(cube) : px_shape_box((vec3){0.5f, 0.5f, 0.5f});
        sb.radius = 0.1f;
        double q[4], d[3];
        px_rng_quat(&rng, q);
        px_rng_unit_vector(&rng, d);
        const double target = -px_rng_range(&rng, 0.0, 0.05);
        double lo = 0.0, hi = 4.0;
        px_transform tq = make_pose(0, 0, 0, q);
        for (int it = 0; it < 40; ++it)
        {
            const double t = 0.5 * (lo + hi);
            tq = make_pose(t * d[0], t * d[1], t * d[2], q);
            px_contact c;
            PX_CHECK(px_contact_world(&sa, &ta, &sb, &tq, NULL, &c) >= 0);
            if (c.distance < target)
            {
                lo = t;
            }
            else
            {
                hi = t;
            }
        }
        PX_CHECK_STATUS(px_manifold_world(&sa, &ta, &sb, &tq, NULL, &m), PX_OK);
        /* (not check_invariants: points on tilted rounded faces are inside B by r (1 / cos t - 1), as
         * manifold.h documents) */
        if (m.count < 1 || !(m.points[0].separation <= PX_LINEAR_SLOP))
        {
            fprintf(stderr, "trial %d (mode %d): %d points\n", trial, mode, m.count);
            ++fails;
        }
        for (int i = 0; i < m.count; ++i)
        {
            for (int j = 0; j < i; ++j)
            {
                const float d2 = px_v3_distance2(m.points[i].point_a, m.points[j].point_a);
                if (!(d2 > 0.8e-5f * 0.8e-5f)) /* 1e-5 of the box's size, sqrt(0.75) */
                {
                    fprintf(stderr, "trial %d (mode %d): points %d and %d %.3g apart\n", trial, mode, j, i,
                            (double)sqrtf(d2));
                    ++fails;
                }
            }
        }
    }
    px_hull_destroy(cube);
    PX_CHECK(fails == 0);
    return 0;
}

/* A box's corner in a rounded cube's rounding, through the box path (a rounded box) and the general path (a
 * rounded built cube): the corner in the cube's face and the cube's clipped corner in the box's face came out
 * as two points at one place, one a vertex of A and the other of B, which the merge's shortcut for vertices
 * took for distinct vertices (rounded_corner_single_point at PX_TEST_SEED 154 and 205). */
static int corner_merge_across_shapes(void)
{
    px_hull* cube = unit_cube_hull();
    PX_CHECK(cube != NULL);
    const px_shape box = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_shape rounded_box = box, rounded_cube = px_shape_from_hull(cube);
    rounded_box.radius = rounded_cube.radius = 0.1f;
    const px_transform ta = PX_TRANSFORM_IDENTITY_INIT;
    const px_transform poses[2] = {
        {{-0x1.0347f8p-2f, 0x1.72b64ap-5f, -0x1.56c23ep-2f, -0x1.d024dap-1f},
         {0x1.212d7p-1f, 0x1.72c4c2p+0f, 0x1.b68d4ap-2f}},
        {{-0x1.7925ep-1f, 0x1.340658p-1f, 0x1.5c4f62p-4f, -0x1.30294ep-2f},
         {-0x1.dd64b6p-2f, 0x1.c4b5e8p-1f, -0x1.5babd4p+0f}}};
    for (int k = 0; k < 2; ++k)
    {
        const px_shape* b = k == 0 ? &rounded_box : &rounded_cube;
        px_manifold m;
        PX_CHECK_STATUS(px_manifold_world(&box, &ta, b, &poses[k], NULL, &m), PX_OK);
        PX_CHECK(m.count == 1);
        px_contact c;
        PX_CHECK_STATUS(px_contact_world(&box, &ta, b, &poses[k], NULL, &c), PX_OK);
        PX_CHECK_NEAR(m.points[0].separation, c.distance, 1e-5);
    }
    px_hull_destroy(cube);
    return 0;
}

static int all_zero(const px_manifold* m)
{
    const unsigned char* p = (const unsigned char*)m;
    for (size_t i = 0; i < sizeof(*m); ++i)
    {
        if (p[i] != 0)
        {
            return 0;
        }
    }
    return 1;
}

static int bad_input(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape cube = px_shape_box((vec3){0.5f, 0.5f, 0.5f});
    px_transform ta = make_pose(0, 0, 0, NULL), tb = make_pose(0, 0.9, 0, NULL);
    px_manifold m;
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &config, NULL), PX_ERR_INVALID_ARGUMENT);

    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(NULL, &ta, &cube, &tb, &config, &m), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(all_zero(&m));
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(&cube, NULL, &cube, &tb, &config, &m), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(all_zero(&m));

    px_transform nan_pose = tb;
    nan_pose.p[1] = NAN;
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &nan_pose, &config, &m), PX_ERR_NON_FINITE);
    PX_CHECK(all_zero(&m));
    px_transform zero_q = tb;
    memset(zero_q.q, 0, sizeof(zero_q.q));
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(&cube, &zero_q, &cube, &tb, &config, &m), PX_ERR_DEGENERATE_INPUT);
    PX_CHECK(all_zero(&m));

    px_shape negative = px_shape_box((vec3){0.5f, -0.5f, 0.5f});
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &negative, &tb, &config, &m), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(all_zero(&m));
    px_shape nan_radius = px_shape_sphere(NAN);
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK(px_manifold_world(&cube, &ta, &nan_radius, &tb, &config, &m) < 0);
    PX_CHECK(all_zero(&m));

    const float margins[3] = {-1e-3f, NAN, INFINITY};
    for (int i = 0; i < 3; ++i)
    {
        px_manifold_config bad = config;
        bad.margin = margins[i];
        memset(&m, 0xAB, sizeof(m));
        PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &bad, &m), PX_ERR_INVALID_ARGUMENT);
        PX_CHECK(all_zero(&m));
    }
    px_manifold_config bad = config;
    bad.contact.epa_max_iterations = 0;
    memset(&m, 0xAB, sizeof(m));
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, &bad, &m), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(all_zero(&m));

    /* NULL config means defaults */
    PX_CHECK_STATUS(px_manifold_world(&cube, &ta, &cube, &tb, NULL, &m), PX_OK);
    PX_CHECK(m.count == 4);
    return 0;
}

/* Other pairs give one point from the contact: a cylinder on a box, a raw point-cloud hull on a box. */
static int single_point_pairs(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape floor = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_shape cylinder = px_shape_cylinder(0.3f, 0.2f);
    static mf_hull storage;
    px_shape raw = box_hull(&storage, 0.3, 0.2, 0.3);
    raw.hull.built = NULL;
    px_transform tf = make_pose(0, 0, 0, NULL);
    px_transform tc = make_pose(0.1, 0.8 - 1e-3, 0.0, NULL);
    px_transform th = make_pose(0.1, 0.7 - 1e-3, 0.0, NULL);
    px_manifold m;
    px_contact c;
    /* a cylinder standing on the box: one point at the true depth with the face normal (px_contact_world
     * reports distance 0 and a horizontal normal here; the manifold notices and repairs it) */
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &cylinder, &tc, &config, &m), PX_OK);
    PX_CHECK(check_invariants("cylinder", &floor, &tf, &cylinder, &tc, &m, config.margin) == 0);
    PX_CHECK(m.count == 1 && m.points[0].id == 0u);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, 1e-5);
    PX_CHECK_NEAR(m.normal[1], 1.0, 1e-6);
    PX_CHECK_NEAR(m.points[0].point_a[1], 0.5, 1e-5);
    /* a sphere on the cylinder's top: exactly the contact's point */
    px_shape ball = px_shape_sphere(0.1f);
    px_transform tball = make_pose(0.15, 0.8 - 1e-3 + 0.3 + 0.1 - 1e-3, 0.05, NULL);
    PX_CHECK_STATUS(px_manifold_world(&cylinder, &tc, &ball, &tball, &config, &m), PX_OK);
    PX_CHECK(check_invariants("ball", &cylinder, &tc, &ball, &tball, &m, config.margin) == 0);
    PX_CHECK(px_contact_world(&cylinder, &tc, &ball, &tball, &config.contact, &c) >= 0);
    PX_CHECK(m.count == 1 && m.points[0].id == 0u);
    PX_CHECK_NEAR(m.points[0].separation, c.distance, 0.0);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, 1e-5);
    PX_CHECK_NEAR3(m.points[0].point_a, c.point_a, 0.0);
    PX_CHECK_NEAR3(m.normal, c.normal, 0.0);
    PX_CHECK_STATUS(px_manifold_world(&floor, &tf, &raw, &th, &config, &m), PX_OK);
    PX_CHECK(m.count == 1);
    PX_CHECK_NEAR(m.points[0].separation, -1e-3, 1e-4);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Two boxes: the closed-form path (manifold_box.c) against independent expectations */

#define PXT_EDGE 2u /* feature kind of an edge (manifold.h) */

/* The world pose of a child given in a parent pose's frame (position and rotation in that frame), in
 * double, rounded to float at the end. */
static px_transform child_pose(const px_transform* parent, const double local_p[3], const double local_q[4])
{
    double qp[4], pp[3], p[3], q[4];
    pose_to_double(parent, qp, pp);
    dquat_rotate(qp, local_p, p);
    for (int k = 0; k < 3; ++k)
    {
        p[k] += pp[k];
    }
    dquat_mul(qp, local_q, q);
    return make_pose(p[0], p[1], p[2], q);
}

/* Unit world vector n is a face normal of the posed box t (either sign), within tol. */
static bool is_face_normal(const px_transform* t, const float n[3], double tol)
{
    for (int k = 0; k < 3; ++k)
    {
        double e[3] = {0, 0, 0}, w[3];
        e[k] = 1.0;
        pose_vector(t, e, w);
        double d = (double)n[0] * w[0] + (double)n[1] * w[1] + (double)n[2] * w[2];
        if (fabs(fabs(d) - 1.0) <= tol)
        {
            return true;
        }
    }
    return false;
}

/* The feature kinds of an id's two feature bytes (A's, B's). */
static unsigned id_kind_a(uint32_t id)
{
    return (id >> 14) & 3u;
}

static unsigned id_kind_b(uint32_t id)
{
    return (id >> 6) & 3u;
}

/* An id with its A and B halves exchanged: what the same point is called with the shapes swapped. */
static uint32_t id_swapped(uint32_t id)
{
    return (id >> 24 & 0xFFu) << 16 | (id >> 16 & 0xFFu) << 24 | (id >> 8 & 0xFFu) | (id & 0xFFu) << 8;
}

/* True when some point of m is within tol of the margin (its keeping is decided by rounding). */
static bool near_margin(const px_manifold* m, float margin, double tol)
{
    for (int i = 0; i < m->count; ++i)
    {
        if (fabs((double)m->points[i].separation - (double)margin) <= tol)
        {
            return true;
        }
    }
    return false;
}

static double deepest(const px_manifold* m)
{
    double d = INFINITY;
    for (int i = 0; i < m->count; ++i)
    {
        d = fmin(d, (double)m->points[i].separation);
    }
    return d;
}

/* Box B on A's +y face in A's frame: yawed, tilted by up to tilt_max about a random horizontal axis, at a
 * random offset over (and past) the face, its lowest point at gap from A's top (radii included). */
static px_transform box_on_face(px_rng* rng, const px_shape* a, const px_transform* ta, const px_shape* b,
                                double tilt_max, double gap, double overhang)
{
    const float* ha = a->box.half_extents;
    const float* hb = b->box.half_extents;
    double yaw[4], tilt[4], q[4];
    dquat_axis_angle(0, 1, 0, px_rng_range(rng, -MF_PI, MF_PI), yaw);
    dquat_axis_angle(px_rng_range(rng, -1, 1), 0, px_rng_range(rng, -1, 1), px_rng_range(rng, 0, tilt_max),
                     tilt);
    dquat_mul(tilt, yaw, q);
    double lowest = INFINITY;
    for (int c = 0; c < 8; ++c)
    {
        double l[3] = {(c & 1) ? hb[0] : -hb[0], (c & 2) ? hb[1] : -hb[1], (c & 4) ? hb[2] : -hb[2]}, r[3];
        dquat_rotate(q, l, r);
        lowest = fmin(lowest, r[1]);
    }
    double p[3] = {px_rng_range(rng, -overhang, overhang) * ha[0],
                   (double)ha[1] - lowest + gap + (double)a->radius + (double)b->radius,
                   px_rng_range(rng, -overhang, overhang) * ha[2]};
    return child_pose(ta, p, q);
}

/* The closed-form path against the general one on the same boxes (config.contact.analytic = false makes
 * px_manifold_world take the path every polytope takes: GJK or EPA for the normal, faces found by scanning).
 * Families: boxes resting with tilts up to 0.02 rad and up to 0.3 rad, from 3e-3 deep to 1.3 margins apart
 * (so the exact, the certified and the fallback cases all occur), offsets past the face edges; and rounded
 * boxes resting. The two must agree on the count, the deepest separation (after a reduction to four, to
 * the reduction's tie) and the normal, or else the closed-form path's normal is a face normal of A or B
 * within the snap angle of the general path's (see below; the faces clipped, and so the count, may then
 * differ, and the depths to 1e-4); ids agree whenever no reduction to four
 * took place (ties in the reduction's areas may pick another fourth point), and in 99% of all trials. The
 * closed-form path's single edge-edge point (an edge axis away from every face) is its own answer: where
 * the general path clips more points it is only counted (never in the near-flat family), and its id names
 * the edges canonically. */
static int box_paths_agree(void)
{
    px_rng rng = px_rng_seeded(0x6d616e34ull);
    px_manifold_config fast = px_manifold_default_config(), slow = fast;
    slow.contact.analytic = false;
    const char* names[3] = {"resting", "tilted", "rounded"};
    for (int family = 0; family < 3; ++family)
    {
        int compared = 0, ids_equal = 0, edge_points = 0, empty = 0;
        for (int trial = 0; trial < 3000; ++trial)
        {
            float ha[3], hb[3];
            for (int k = 0; k < 3; ++k)
            {
                ha[k] = (float)px_rng_range(&rng, 0.2, 1.5);
                hb[k] = (float)px_rng_range(&rng, 0.1, 1.0);
            }
            px_shape a = px_shape_box(ha), b = px_shape_box(hb);
            if (family == 2)
            {
                a.radius = (float)px_rng_range(&rng, 0.0, 0.1);
                b.radius = (float)px_rng_range(&rng, 0.0, 0.1);
            }
            double qa[4];
            px_rng_quat(&rng, qa);
            px_transform ta = make_pose(px_rng_range(&rng, -3, 3), px_rng_range(&rng, -3, 3),
                                        px_rng_range(&rng, -3, 3), qa);
            double gap = px_rng_range(&rng, -3e-3, 1.3 * (double)fast.margin);
            px_transform tb = box_on_face(&rng, &a, &ta, &b, family == 1 ? 0.3 : 0.02, gap, 1.0);
            px_manifold m1, m2;
            char label[48];
            snprintf(label, sizeof(label), "%s trial %d", names[family], trial);
            PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &fast, &m1), PX_OK);
            PX_CHECK(px_manifold_world(&a, &ta, &b, &tb, &slow, &m2) >= 0);
            PX_CHECK(check_invariants(label, &a, &ta, &b, &tb, &m1, fast.margin) == 0);
            if (near_margin(&m1, fast.margin, 1e-5) || near_margin(&m2, fast.margin, 1e-5))
            {
                continue;
            }
            /* the closed-form path's edge-edge point: its own answer when the general path clips more points;
             * when it finds the one point too, it names it by its clip faces, not by the edge's canonical
             * face */
            bool edge_point = m1.count == 1 && id_kind_a(m1.points[0].id) == PXT_EDGE &&
                              id_kind_b(m1.points[0].id) == PXT_EDGE;
            if (edge_point && m2.count != 1)
            {
                edge_points++;
                continue;
            }
            bool bad = false;
            double tol = family == 2 ? 1e-4 + 1e-3 * fabs(deepest(&m1)) : 2e-5;
            if (m1.count == 4)
            {
                tol +=
                    0.05 * (double)fast.margin; /* the reduction keeps a point within this of the deepest */
            }
            if (!bad && m1.count > 0)
            {
                double e = 0.0;
                for (int k = 0; k < 3; ++k)
                {
                    e = fmax(e, fabs((double)m1.normal[k] - (double)m2.normal[k]));
                }
                /* Another normal is fine when it is a face normal of A or B within the snap angle (1 - cos <=
                 * 1e-3) of the general path's: the reference choice near a tie of A's and B's faces, and the
                 * closed-form path preferring a face within the snap angle where the general path keeps A's
                 * face outside it and clips along the contact normal. */
                double cosine = (double)m1.normal[0] * m2.normal[0] + (double)m1.normal[1] * m2.normal[1] +
                                (double)m1.normal[2] * m2.normal[2];
                bool tie = e > 1e-5 &&
                           (is_face_normal(&ta, m1.normal, 1e-5) || is_face_normal(&tb, m1.normal, 1e-5)) &&
                           cosine >= 1.0 - 1.01e-3;
                /* apart at one point, the normal is a direction between points sep apart whose coordinates
                 * (C) each path rounds by eps C: the paths may differ by a few eps C / sep (two boxes 0.001
                 * apart at coordinates near 1.4: 5.3e-5; PX_TEST_SEED=199) */
                double e_tol = 1e-5;
                if (m1.count == 1 && m1.points[0].separation > 0.0f)
                {
                    double coord = 0.0;
                    for (int k = 0; k < 3; ++k)
                    {
                        coord = fmax(coord, fmax(fabs((double)m1.points[0].point_a[k]),
                                                 fabs((double)m1.points[0].point_b[k])));
                    }
                    e_tol += fmin(1e-3, 4.0 * FLT_EPSILON * coord / (double)m1.points[0].separation);
                }
                bad = (e > e_tol && !tie) || !(fabs(deepest(&m1) - deepest(&m2)) <= tol + (tie ? 1e-4 : 0.0));
                /* with the same reference face the clips agree; with another they may not */
                bool same = tie || same_id_set(&m1, &m2) || edge_point;
                ids_equal += same;
                bad = bad || (!tie && m1.count != m2.count) || (!same && m1.count < 4);
            }
            else
            {
                bad = m2.count != 0; /* apart for both */
            }
            empty += m1.count == 0;
            compared++;
            if (bad)
            {
                print_manifold(label, &m1);
                print_manifold("  general path", &m2);
                fprintf(stderr,
                        "  face normals: box path's of A %d of B %d, general path's of A %d of B %d\n",
                        is_face_normal(&ta, m1.normal, 1e-5), is_face_normal(&tb, m1.normal, 1e-5),
                        is_face_normal(&ta, m2.normal, 1e-5), is_face_normal(&tb, m2.normal, 1e-5));
                return 1;
            }
        }
        if (!(ids_equal >= (int)(0.99 * (compared - empty))) || !(compared > 2000))
        {
            fprintf(stderr, "%s: %d compared, %d empty, %d with equal ids\n", names[family], compared, empty,
                    ids_equal);
            return 1;
        }
        if (family == 0 && !(edge_points == 0))
        {
            fprintf(stderr, "%s: %d single edge points where the general path clips\n", names[family],
                    edge_points);
            return 1;
        }
    }
    return 0;
}

/* A convex polygon in (x, z) clipped to another, both counter-clockwise seen from +y, in double
 * (Sutherland-Hodgman). */
static int dclip_convex(const double (*in)[2], int n, const double (*clip)[2], int m, double (*out)[2])
{
    double buf[2][32][2];
    memcpy(buf[0], in, sizeof(double) * 2 * (size_t)n);
    int cur = 0;
    for (int e = 0; e < m && n > 0; ++e)
    {
        const double* p0 = clip[e];
        const double* p1 = clip[(e + 1) % m];
        /* inside: to the left of p0 -> p1 seen from +y, i.e. cross((p1 - p0), (x - p0)) . (+y) >= 0 with
         * cross_y(a, b) = a_z b_x - a_x b_z */
        int k = 0;
        for (int i = 0; i < n && k < 30; ++i)
        {
            const double* a = buf[cur][i];
            const double* b = buf[cur][(i + 1) % n];
            double da = (p1[1] - p0[1]) * (a[0] - p0[0]) - (p1[0] - p0[0]) * (a[1] - p0[1]);
            double db = (p1[1] - p0[1]) * (b[0] - p0[0]) - (p1[0] - p0[0]) * (b[1] - p0[1]);
            if (da >= 0.0)
            {
                buf[1 - cur][k][0] = a[0];
                buf[1 - cur][k][1] = a[1];
                ++k;
            }
            if ((da > 0.0 && db < 0.0) || (da < 0.0 && db > 0.0))
            {
                double t = da / (da - db);
                buf[1 - cur][k][0] = a[0] + t * (b[0] - a[0]);
                buf[1 - cur][k][1] = a[1] + t * (b[1] - a[1]);
                ++k;
            }
        }
        n = k;
        cur = 1 - cur;
    }
    memcpy(out, buf[cur], sizeof(double) * 2 * (size_t)n);
    return n;
}

/* The horizontal face of a yawed box (y_sign +1: top, -1: bottom) as an (x, z) polygon, counter-clockwise
 * seen from +y (the clipper's orientation). */
static void dface_xz(const float* h, const px_transform* t, double (*out)[2])
{
    const double cs[4][2] = {{-1, -1}, {-1, 1}, {1, 1}, {1, -1}}; /* counter-clockwise seen from +y */
    for (int i = 0; i < 4; ++i)
    {
        double l[3] = {cs[i][0] * h[0], 0.0, cs[i][1] * h[2]}, w[3];
        pose_point(t, l, w);
        out[i][0] = w[0];
        out[i][1] = w[2];
    }
}

/* Stacks of four yawed boxes of random sizes, each sunk a little into the one below, at three scales.
 * Neighbours: exactly min(4, n) points where n is the vertex count of the overlap of the two rectangles
 * (clipped here in double), each at one of its vertices, all at the sink depth, the normal exactly
 * vertical (neighbours side by side, with no overlap, may still be within the margin: no penetration then).
 * Boxes further apart: no points, and a normal along which they are separated (double). */
static int box_stacks(void)
{
    px_rng rng = px_rng_seeded(0x6d616e35ull);
    px_manifold_config config = px_manifold_default_config();
    const double scales[3] = {0.05, 1.0, 20.0};
    int by_count[5] = {0, 0, 0, 0, 0};
    for (int trial = 0; trial < 300; ++trial)
    {
        const double s = scales[trial % 3];
        px_shape boxes[4];
        px_transform poses[4];
        double y = 0.0, sink = 1e-3 * s;
        for (int i = 0; i < 4; ++i)
        {
            float h[3] = {(float)(s * px_rng_range(&rng, 0.2, 1.5)),
                          (float)(s * px_rng_range(&rng, 0.1, 0.6)),
                          (float)(s * px_rng_range(&rng, 0.2, 1.5))};
            boxes[i] = px_shape_box(h);
            double yaw[4];
            dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
            y += (i == 0 ? 0.0 : (double)h[1] - sink);
            double x = i == 0 ? 0.0 : px_rng_range(&rng, -0.6, 0.6) * s,
                   z = i == 0 ? 0.0 : px_rng_range(&rng, -0.6, 0.6) * s;
            poses[i] = make_pose(x, y, z, yaw);
            y = (double)poses[i].p[1] + (double)h[1];
        }
        const double tol = 2e-5 * s;
        for (int i = 0; i < 4; ++i)
        {
            for (int j = 0; j < 4; ++j)
            {
                if (i == j)
                {
                    continue;
                }
                px_manifold m;
                char label[64];
                snprintf(label, sizeof(label), "stack %d (scale %g) %d/%d", trial, s, i, j);
                PX_CHECK_STATUS(px_manifold_world(&boxes[i], &poses[i], &boxes[j], &poses[j], &config, &m),
                                PX_OK);
                if (s == 1.0)
                {
                    PX_CHECK(check_invariants(label, &boxes[i], &poses[i], &boxes[j], &poses[j], &m,
                                              config.margin) == 0);
                }
                if (abs(i - j) != 1)
                {
                    double n[3] = {m.normal[0], m.normal[1], m.normal[2]};
                    double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
                    double o = dbox_overlap(boxes[i].box.half_extents, &poses[i], boxes[j].box.half_extents,
                                            &poses[j], n);
                    if (m.count != 0 || !(fabs(nn - 1.0) <= 1e-5) || !(o < -(double)config.margin))
                    {
                        print_manifold(label, &m);
                        fprintf(stderr, "  overlap along the normal %.7g\n", o);
                        return 1;
                    }
                    continue;
                }
                /* the overlap polygon: the upper box's bottom face clipped to the lower box's top face */
                int lo = i < j ? i : j, up = i < j ? j : i;
                double top[4][2], bottom[4][2], poly[32][2];
                dface_xz(boxes[lo].box.half_extents, &poses[lo], top);
                dface_xz(boxes[up].box.half_extents, &poses[up], bottom);
                int n = dclip_convex((const double(*)[2])bottom, 4, (const double(*)[2])top, 4, poly);
                int expect = n < 4 ? n : 4;
                if (n == 0)
                {
                    /* side by side: no overlap, though they may be within the margin of each other */
                    PX_CHECK(m.count == 0 || deepest(&m) >= -tol);
                    continue;
                }
                /* a sliver of overlap, narrower than the sink: pushing sideways is shorter (the double
                 * separating-axis minimum is not the vertical), a contact of another kind */
                const double vertical[3] = {0, 1, 0};
                if (dbox_depth(boxes[i].box.half_extents, &poses[i], boxes[j].box.half_extents, &poses[j]) <
                    dbox_overlap(boxes[i].box.half_extents, &poses[i], boxes[j].box.half_extents, &poses[j],
                                 vertical) -
                        1e-9 * s)
                {
                    continue;
                }
                bool bad = m.count != expect || !(fabs((double)m.normal[1] - (i < j ? 1.0 : -1.0)) <= 1e-6);
                /* the depth of the float poses, in double */
                double surface = (double)poses[lo].p[1] + (double)boxes[lo].box.half_extents[1];
                double depth = surface - ((double)poses[up].p[1] - (double)boxes[up].box.half_extents[1]);
                for (int k = 0; k < m.count && !bad; ++k)
                {
                    const float* on_upper = i < j ? m.points[k].point_b : m.points[k].point_a;
                    bool vertex = false;
                    /* a crossing of nearly parallel edges is ill-conditioned along them: a looser match */
                    for (int v = 0; v < n; ++v)
                    {
                        vertex = vertex || (fabs((double)on_upper[0] - poly[v][0]) <= 10.0 * tol &&
                                            fabs((double)on_upper[2] - poly[v][1]) <= 10.0 * tol);
                    }
                    bad = !vertex || !(fabs((double)m.points[k].separation + depth) <= tol) ||
                          !(fabs((double)on_upper[1] - (surface - depth)) <= tol);
                }
                if (bad)
                {
                    print_manifold(label, &m);
                    fprintf(stderr, "  overlap polygon: %d vertices, depth %.7g\n", n, depth);
                    for (int v = 0; v < n; ++v)
                    {
                        fprintf(stderr, "    (%.7g, %.7g)\n", poly[v][0], poly[v][1]);
                    }
                    return 1;
                }
                by_count[expect]++;
            }
        }
    }
    /* both counts a rectangle overlap can give occurred (its polygon has 0 or 3 to 8 vertices) */
    for (int c = 3; c <= 4; ++c)
    {
        if (by_count[c] < 10)
        {
            fprintf(stderr, "only %d neighbour pairs with %d points\n", by_count[c], c);
            return 1;
        }
    }
    return 0;
}

/* Two edges crossing: A turned 45 degrees about z (its top is an edge along z), B turned 45 degrees about
 * x and then by an angle about y (its bottom is an edge crossing A's at that angle), the whole pair turned
 * and moved at random. Penetrating by d: one point, on A's edge, at separation -d, the normal along the
 * edges' common perpendicular, both features edges, the separation px_contact_world's distance exactly.
 * Apart by less than the margin: the same point at +d
 * (the edge pair certified as the closest features). Farther apart: no points, the normal still that axis.
 * Swapped: the same point from the other side, halves of the id exchanged. Small motions keep the id. */
static int box_edge_edge(void)
{
    px_rng rng = px_rng_seeded(0x6d616e36ull);
    px_manifold_config config = px_manifold_default_config();
    const double r2 = sqrt(2.0);
    for (int trial = 0; trial < 300; ++trial)
    {
        double a = px_rng_range(&rng, 0.2, 0.6), b = px_rng_range(&rng, 0.2, 0.6);
        float ha[3] = {(float)a, (float)a, (float)px_rng_range(&rng, 0.8, 1.5)};
        float hb[3] = {(float)px_rng_range(&rng, 0.8, 1.5), (float)b, (float)b};
        px_shape sa = px_shape_box(ha), sb = px_shape_box(hb);
        double d;
        int kind = trial % 3; /* 0 penetrating, 1 apart within the margin, 2 beyond it */
        if (kind == 0)
        {
            d = -px_rng_range(&rng, 1e-4, 0.05);
        }
        else if (kind == 1)
        {
            d = px_rng_range(&rng, 1e-4, 0.8 * (double)config.margin);
        }
        else
        {
            d = px_rng_range(&rng, 1.5, 3.0) * (double)config.margin;
        }
        /* in the pair's frame: A at the origin, its top edge along z at height a sqrt 2; B above */
        double qz[4], qx[4], qy[4], qb[4], world[4];
        dquat_axis_angle(0, 0, 1, 0.25 * MF_PI, qz);
        dquat_axis_angle(1, 0, 0, 0.25 * MF_PI, qx);
        dquat_axis_angle(0, 1, 0, px_rng_range(&rng, 0.3, 1.3) * (trial % 2 ? 1.0 : -1.0), qy);
        dquat_mul(qy, qx, qb);
        px_rng_quat(&rng, world);
        px_transform frame =
            make_pose(px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), world);
        double zero[3] = {0, 0, 0}, pb[3] = {0, a * r2 + b * r2 + d, 0};
        px_transform ta = child_pose(&frame, zero, qz), tb = child_pose(&frame, pb, qb);
        /* expected, from the float poses: the normal is A's edge direction crossed with B's */
        double ea[3], eb[3], n[3], ez[3] = {0, 0, 1}, ex[3] = {1, 0, 0};
        pose_vector(&ta, ez, ea);
        pose_vector(&tb, ex, eb);
        n[0] = ea[1] * eb[2] - ea[2] * eb[1];
        n[1] = ea[2] * eb[0] - ea[0] * eb[2];
        n[2] = ea[0] * eb[1] - ea[1] * eb[0];
        double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), up[3] = {0, 1, 0}, wup[3];
        pose_vector(&frame, up, wup);
        double sgn = (n[0] * wup[0] + n[1] * wup[1] + n[2] * wup[2]) < 0.0 ? -1.0 : 1.0;
        for (int k = 0; k < 3; ++k)
        {
            n[k] *= sgn / nl;
        }
        double expect_a[3];
        px_manifold m, s;
        char label[48];
        snprintf(label, sizeof(label), "edge trial %d", trial);
        PX_CHECK_STATUS(px_manifold_world(&sa, &ta, &sb, &tb, &config, &m), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&sb, &tb, &sa, &ta, &config, &s), PX_OK);
        PX_CHECK(check_invariants(label, &sa, &ta, &sb, &tb, &m, config.margin) == 0);
        PX_CHECK(check_invariants(label, &sb, &tb, &sa, &ta, &s, config.margin) == 0);
        double e = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            e = fmax(e, fabs((double)m.normal[k] - n[k]));
        }
        if (kind == 2)
        {
            if (m.count != 0 || s.count != 0 || !(e <= 1e-5))
            {
                print_manifold(label, &m);
                return 1;
            }
            continue;
        }
        /* the crossing: A's top edge point (in the pair's frame (0, a sqrt 2, 0)) */
        double top[3] = {0, a * r2, 0};
        pose_point(&frame, top, expect_a);
        bool bad = m.count != 1 || s.count != 1 || !(e <= 1e-5) || id_kind_a(m.points[0].id) != PXT_EDGE ||
                   id_kind_b(m.points[0].id) != PXT_EDGE ||
                   !(fabs((double)m.points[0].separation - d) <= 2e-5) ||
                   find_point(&m, 0, expect_a, 2e-5) != 0;
        if (!bad && kind == 0)
        {
            /* clearly penetrating: the contact px_contact_world reports, the same arithmetic on the same
             * relative pose (the separation bit for bit; the normal to the world mapping's rounding) */
            px_contact c;
            PX_CHECK_STATUS(px_contact_world(&sa, &ta, &sb, &tb, &config.contact, &c), PX_OK);
            float cn[3] = {c.normal[0], c.normal[1], c.normal[2]};
            bad = m.points[0].separation != c.distance || !(fabs((double)cn[0] - m.normal[0]) <= 1e-6 &&
                                                            fabs((double)cn[1] - m.normal[1]) <= 1e-6 &&
                                                            fabs((double)cn[2] - m.normal[2]) <= 1e-6);
        }
        if (!bad)
        {
            /* swapped: the same pair of points, the other way round */
            double pa_m[3] = {m.points[0].point_a[0], m.points[0].point_a[1], m.points[0].point_a[2]};
            bad = s.points[0].id != id_swapped(m.points[0].id) || find_point(&s, 1, pa_m, 2e-5) != 0 ||
                  !(fabs((double)s.points[0].separation - d) <= 2e-5);
        }
        for (int step = 0; step < 20 && !bad; ++step)
        {
            double axis[3], dq[4], q2[4], qw[4], pw[3];
            px_rng_unit_vector(&rng, axis);
            dquat_axis_angle(axis[0], axis[1], axis[2], px_rng_range(&rng, -1e-4, 1e-4), dq);
            pose_to_double(&tb, qw, pw);
            dquat_mul(dq, qw, q2);
            px_transform moved =
                make_pose(pw[0] + px_rng_range(&rng, -1e-5, 1e-5), pw[1] + px_rng_range(&rng, -1e-5, 1e-5),
                          pw[2] + px_rng_range(&rng, -1e-5, 1e-5), q2);
            px_manifold mm;
            PX_CHECK_STATUS(px_manifold_world(&sa, &ta, &sb, &moved, &config, &mm), PX_OK);
            bad = mm.count != 1 || mm.points[0].id != m.points[0].id;
            if (bad)
            {
                print_manifold("moved", &mm);
            }
        }
        if (bad)
        {
            print_manifold(label, &m);
            print_manifold("swapped", &s);
            fprintf(stderr, "  expected separation %.7g, normal (%.7g %.7g %.7g), point (%.7g %.7g %.7g)\n",
                    d, n[0], n[1], n[2], expect_a[0], expect_a[1], expect_a[2]);
            return 1;
        }
    }
    return 0;
}

/* Rounded boxes resting flat, yawed, the smaller one wholly over the larger one's face: four points at the
 * depth of the rounded surfaces, the normal vertical, each point on its rounded surface (invariants). The
 * cores are apart by the radii less that depth (the certified path), or overlap when the depth is larger
 * than the radii. */
static int box_rounded_resting(void)
{
    px_rng rng = px_rng_seeded(0x6d616e37ull);
    px_manifold_config config = px_manifold_default_config();
    for (int trial = 0; trial < 400; ++trial)
    {
        float ha[3] = {(float)px_rng_range(&rng, 1.0, 1.5), (float)px_rng_range(&rng, 0.2, 0.5),
                       (float)px_rng_range(&rng, 1.0, 1.5)};
        float hb[3] = {(float)px_rng_range(&rng, 0.1, 0.4), (float)px_rng_range(&rng, 0.1, 0.5),
                       (float)px_rng_range(&rng, 0.1, 0.4)};
        px_shape a = px_shape_box(ha), b = px_shape_box(hb);
        a.radius = (float)px_rng_range(&rng, 0.0, 0.1);
        b.radius = (float)px_rng_range(&rng, 0.0, 0.1);
        double depth = trial % 4 == 0 ? px_rng_range(&rng, 0.0, 0.3)
                                      : px_rng_range(&rng, -(double)config.margin * 0.8, 2e-3);
        double yaw[4], qa[4];
        dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
        px_rng_quat(&rng, qa);
        px_transform ta =
            make_pose(px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), qa);
        double p[3] = {px_rng_range(&rng, -0.3, 0.3),
                       (double)ha[1] + (double)hb[1] + (double)a.radius + (double)b.radius - depth,
                       px_rng_range(&rng, -0.3, 0.3)};
        px_transform tb = child_pose(&ta, p, yaw);
        px_manifold m;
        char label[48];
        snprintf(label, sizeof(label), "rounded trial %d", trial);
        PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &config, &m), PX_OK);
        PX_CHECK(check_invariants(label, &a, &ta, &b, &tb, &m, config.margin) == 0);
        double up[3] = {0, 1, 0}, n[3];
        pose_vector(&ta, up, n);
        double e = 0.0;
        for (int k = 0; k < 3; ++k)
        {
            e = fmax(e, fabs((double)m.normal[k] - n[k]));
        }
        bool bad = m.count != 4 || !(e <= 1e-5);
        for (int k = 0; k < m.count && !bad; ++k)
        {
            bad = !(fabs((double)m.points[k].separation + depth) <= 5e-5);
        }
        if (bad)
        {
            print_manifold(label, &m);
            fprintf(stderr, "  expected 4 points at %.7g\n", -depth);
            return 1;
        }
    }
    return 0;
}

/* Random box pairs, resting (tilted up to 0.02 rad, over and past the face) and overlapping at random:
 * swapping A and B gives the same points from the other side. Same count; when there are points, opposite
 * normals (or, on a near tie of the reference faces, each order's own A face normal: "A keeps near ties");
 * when no reduction to four took place (fewer than four points, or a flat pair whose overlap has
 * at most four vertices), the ids with their halves exchanged, and for the flat ones (faces parallel, so
 * the reference face does not matter) each swapped point's point_a at the original's point_b. (Beyond
 * four, which four are kept may depend on the order: equally deep points tie, and the clipped polygon
 * starts from the reference face's side.) */
/* Both orders' normals are face normals of A or B, and not the same direction (e > 1e-5): the reference near
 * tie box_swap_order allows, where each order keeps its own A's face. */
static bool face_normal_tie(const px_transform* ta, const px_transform* tb, const px_manifold* ab,
                            const px_manifold* ba)
{
    double e = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        e = fmax(e, fabs((double)ab->normal[k] + (double)ba->normal[k]));
    }
    return e > 1e-5 && (is_face_normal(ta, ab->normal, 1e-5) || is_face_normal(tb, ab->normal, 1e-5)) &&
           (is_face_normal(ta, ba->normal, 1e-5) || is_face_normal(tb, ba->normal, 1e-5));
}

static int box_swap_order(void)
{
    px_rng rng = px_rng_seeded(0x6d616e38ull);
    px_manifold_config config = px_manifold_default_config();
    int with_points = 0, ties = 0;
    for (int trial = 0; trial < 2000; ++trial)
    {
        float ha[3], hb[3];
        for (int k = 0; k < 3; ++k)
        {
            ha[k] = (float)px_rng_range(&rng, 0.2, 1.5);
            hb[k] = (float)px_rng_range(&rng, 0.1, 1.0);
        }
        px_shape a = px_shape_box(ha), b = px_shape_box(hb);
        double qa[4];
        px_rng_quat(&rng, qa);
        px_transform ta =
            make_pose(px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), px_rng_range(&rng, -2, 2), qa);
        int kind = trial % 3; /* 0 flat, 1 tilted, 2 random overlap */
        px_transform tb;
        if (kind < 2)
        {
            tb = box_on_face(&rng, &a, &ta, &b, kind == 0 ? 0.0 : 0.02, px_rng_range(&rng, -3e-3, 4e-3), 1.0);
        }
        else
        {
            double qb[4], dir[3];
            px_rng_quat(&rng, qb);
            px_rng_unit_vector(&rng, dir);
            double reach =
                px_rng_range(&rng, 0.2, 1.0) * (ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2]) / 2.0;
            tb = make_pose(ta.p[0] + reach * dir[0], ta.p[1] + reach * dir[1], ta.p[2] + reach * dir[2], qb);
        }
        px_manifold ab, ba;
        char label[48];
        snprintf(label, sizeof(label), "swap trial %d", trial);
        PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&b, &tb, &a, &ta, &config, &ba), PX_OK);
        if (near_margin(&ab, config.margin, 1e-5) || near_margin(&ba, config.margin, 1e-5))
        {
            continue;
        }
        /* with another reference face (a near tie, below) the clips, and their counts, may differ */
        bool bad = ab.count != ba.count && !(ab.count > 0 && ba.count > 0 && face_normal_tie(&ta, &tb, &ab, &ba));
        bool reduced = ab.count == 4;
        if (kind == 0 && ab.count == 4)
        {
            /* flat: the overlap of B's bottom and A's top in A's frame, where both are horizontal */
            double qa_d[4], pa_d[3], qb_d[4], pb_d[3], ca[4] = {0, 0, 0, 1}, qr[4], d[3], pr[3];
            pose_to_double(&ta, qa_d, pa_d);
            pose_to_double(&tb, qb_d, pb_d);
            double qa_c[4] = {-qa_d[0], -qa_d[1], -qa_d[2], qa_d[3]};
            dquat_mul(qa_c, qb_d, qr);
            for (int k = 0; k < 3; ++k)
            {
                d[k] = pb_d[k] - pa_d[k];
            }
            dquat_rotate(qa_c, d, pr);
            px_transform rel = make_pose(pr[0], pr[1], pr[2], qr);
            px_transform origin = make_pose(0, 0, 0, ca);
            double top[4][2], bottom[4][2], poly[32][2];
            dface_xz(ha, &origin, top);
            dface_xz(hb, &rel, bottom);
            reduced = dclip_convex((const double(*)[2])bottom, 4, (const double(*)[2])top, 4, poly) > 4;
        }
        if (!bad && ab.count > 0)
        {
            with_points++;
            double e = 0.0;
            for (int k = 0; k < 3; ++k)
            {
                e = fmax(e, fabs((double)ab.normal[k] + (double)ba.normal[k]));
            }
            /* a reference near tie: A keeps it, so each order may take its own A's face (both face normals)
             */
            bool tie = face_normal_tie(&ta, &tb, &ab, &ba);
            ties += tie;
            bad = !(e <= 1e-5) && !tie;
            for (int i = 0; i < ab.count && !bad && !reduced && !tie; ++i)
            {
                int j = -1;
                for (int k = 0; k < ba.count; ++k)
                {
                    j = ba.points[k].id == id_swapped(ab.points[i].id) ? k : j;
                }
                bad = j < 0;
                if (!bad && kind == 0)
                {
                    double pb[3] = {ab.points[i].point_b[0], ab.points[i].point_b[1],
                                    ab.points[i].point_b[2]};
                    bad = find_point(&ba, 0, pb, 2e-5) != j ||
                          !(fabs((double)ab.points[i].separation - (double)ba.points[j].separation) <= 2e-5);
                }
            }
        }
        if (bad)
        {
            print_manifold(label, &ab);
            print_manifold("  swapped", &ba);
            return 1;
        }
    }
    /* ties need the two faces within about 2e-3 rad (PXI_REFERENCE_ABS): a tenth of the tilted trials */
    if (!(with_points > 800 && ties < with_points / 8))
    {
        fprintf(stderr, "%d trials with points, %d reference ties\n", with_points, ties);
        return 1;
    }
    return 0;
}

/* Random flat resting pairs whose overlap is a polygon of at most four vertices (no reduction), none of
 * them within 4e-3 of another feature (so that the topology cannot change): a hundred small motions each
 * (rotations up to 1e-3 rad, translations up to 1e-4) keep the count and the ids. */
static int box_id_stability_random(void)
{
    px_rng rng = px_rng_seeded(0x6d616e39ull);
    px_manifold_config config = px_manifold_default_config();
    int tested = 0;
    for (int trial = 0; trial < 400 && tested < 60; ++trial)
    {
        float ha[3] = {(float)px_rng_range(&rng, 0.5, 1.5), (float)px_rng_range(&rng, 0.2, 0.5),
                       (float)px_rng_range(&rng, 0.5, 1.5)};
        float hb[3] = {(float)px_rng_range(&rng, 0.2, 0.8), (float)px_rng_range(&rng, 0.2, 0.5),
                       (float)px_rng_range(&rng, 0.2, 0.8)};
        px_shape a = px_shape_box(ha), b = px_shape_box(hb);
        px_transform ta = make_pose(0, 0, 0, NULL);
        double yaw[4];
        dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
        double p[3] = {px_rng_range(&rng, -1.2, 1.2) * ha[0], (double)ha[1] + (double)hb[1] - 1e-3,
                       px_rng_range(&rng, -1.2, 1.2) * ha[2]};
        px_transform tb = make_pose(p[0], p[1], p[2], yaw);
        /* the overlap polygon and its distance to a topology change: each rectangle's corners against the
         * other's edges */
        double top[4][2], bottom[4][2], poly[32][2];
        dface_xz(ha, &ta, top);
        dface_xz(hb, &tb, bottom);
        int n = dclip_convex((const double(*)[2])bottom, 4, (const double(*)[2])top, 4, poly);
        double clearance = INFINITY;
        for (int r = 0; r < 2; ++r)
        {
            const double(*c)[2] = r == 0 ? (const double(*)[2])top : (const double(*)[2])bottom;
            const double(*e)[2] = r == 0 ? (const double(*)[2])bottom : (const double(*)[2])top;
            for (int i = 0; i < 4; ++i)
            {
                for (int j = 0; j < 4; ++j)
                {
                    const double* p0 = e[j];
                    const double* p1 = e[(j + 1) % 4];
                    double ex = p1[0] - p0[0], ez = p1[1] - p0[1], len = sqrt(ex * ex + ez * ez);
                    double dist = fabs(ez * (c[i][0] - p0[0]) - ex * (c[i][1] - p0[1])) / len;
                    clearance = fmin(clearance, dist);
                }
            }
        }
        if (n == 0 || n > 4 || clearance < 4e-3)
        {
            continue;
        }
        tested++;
        px_manifold m0;
        PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &tb, &config, &m0), PX_OK);
        PX_CHECK(m0.count == n);
        for (int step = 0; step < 100; ++step)
        {
            double axis[3], dq[4], q[4];
            px_rng_unit_vector(&rng, axis);
            dquat_axis_angle(axis[0], axis[1], axis[2], px_rng_range(&rng, -1e-3, 1e-3), dq);
            dquat_mul(dq, yaw, q);
            px_transform t =
                make_pose(p[0] + px_rng_range(&rng, -1e-4, 1e-4), p[1] + px_rng_range(&rng, -1e-4, 1e-4),
                          p[2] + px_rng_range(&rng, -1e-4, 1e-4), q);
            px_manifold m;
            PX_CHECK_STATUS(px_manifold_world(&a, &ta, &b, &t, &config, &m), PX_OK);
            if (!same_id_set(&m0, &m))
            {
                fprintf(stderr, "trial %d step %d (%d-vertex overlap)\n", trial, step, n);
                print_manifold("rest", &m0);
                print_manifold("moved", &m);
                return 1;
            }
        }
    }
    PX_CHECK(tested == 60);
    return 0;
}

/* ----------------------------------------------------------------------------------------------------- */
/* Triangles: flat polytopes with a front face (0, vertices a, b, c) and a back face (1, vertices a, c, b) */

#define PXT_FACE 0u   /* feature kinds (manifold.h) */
#define PXT_VERTEX 1u

/* World vertices of a posed triangle and the unit normal along cross(b - a, c - a), in double. */
static void dtri_world(const px_shape* t, const px_transform* pose, double v[3][3], double n[3])
{
    const float* local[3] = {t->triangle.a, t->triangle.b, t->triangle.c};
    for (int i = 0; i < 3; ++i)
    {
        const double l[3] = {(double)local[i][0], (double)local[i][1], (double)local[i][2]};
        pose_point(pose, l, v[i]);
    }
    double e1[3], e2[3];
    for (int k = 0; k < 3; ++k)
    {
        e1[k] = v[1][k] - v[0][k];
        e2[k] = v[2][k] - v[0][k];
    }
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (int k = 0; k < 3; ++k)
    {
        n[k] /= len;
    }
}

/* Signed distance of world point x from the plane through v0 with unit normal n. */
static double dplane_distance(const double v0[3], const double n[3], const float x[3])
{
    return ((double)x[0] - v0[0]) * n[0] + ((double)x[1] - v0[1]) * n[1] + ((double)x[2] - v0[2]) * n[2];
}

/* The world pose of a point given in the frame (scene) of another pose, as child_pose with no rotation of
 * its own. */
static void scene_point(const px_transform* scene, double x, double y, double z, double out[3])
{
    const double local[3] = {x, y, z};
    pose_point(scene, local, out);
}

/* The checks every triangle manifold gets: the invariants (point_a on A's surface, point_b on B's, both in
 * double, so every separation is the exact gap along the normal at that point), and the deepest separation
 * against px_contact_world's distance within 1e-4 * size (plus the reduction's tie band, 0.05 margin, when
 * four points may have been chosen among more), when compare_depth. */
static int check_tri_manifold(const char* label, const px_shape* a, const px_transform* ta, const px_shape* b,
                              const px_transform* tb, const px_manifold* m, const px_manifold_config* config,
                              double size, bool compare_depth)
{
    if (check_invariants(label, a, ta, b, tb, m, config->margin) != 0)
    {
        print_manifold(label, m);
        return 1;
    }
    if (!compare_depth || m->count == 0)
    {
        return 0;
    }
    px_contact c;
    PX_CHECK(px_contact_world(a, ta, b, tb, &config->contact, &c) >= 0);
    double tol = 1e-4 * size + (m->count == 4 ? 0.05 * (double)config->margin : 0.0);
    if (!(fabs(deepest(m) - (double)c.distance) <= tol))
    {
        fprintf(stderr, "%s: deepest %.9g, contact distance %.9g (tol %.3g)\n", label, deepest(m),
                (double)c.distance, tol);
        print_manifold(label, m);
        return 1;
    }
    return 0;
}

/* ab and ba are the manifolds of (A, B) and (B, A): the same points (ab's point_a is ba's point_b), the
 * same separations, negated normals, and ids with their halves swapped. */
static int check_mirrored(const char* label, const px_manifold* ab, const px_manifold* ba, double tol)
{
    bool bad = ab->count != ba->count;
    for (int k = 0; k < 3 && !bad; ++k)
    {
        bad = !(fabs((double)ab->normal[k] + (double)ba->normal[k]) <= 1e-5);
    }
    for (int i = 0; i < ab->count && !bad; ++i)
    {
        int j = -1;
        for (int k = 0; k < ba->count; ++k)
        {
            j = ba->points[k].id == id_swapped(ab->points[i].id) ? k : j;
        }
        double pa[3] = {ab->points[i].point_a[0], ab->points[i].point_a[1], ab->points[i].point_a[2]};
        bad = j < 0 || find_point(ba, 1, pa, tol) != j ||
              !(fabs((double)ab->points[i].separation - (double)ba->points[j].separation) <= tol);
    }
    if (bad)
    {
        fprintf(stderr, "%s: not mirrored\n", label);
        print_manifold("  A/B", ab);
        print_manifold("  B/A", ba);
        return 1;
    }
    return 0;
}

/* A big triangle in the scene's y = 0 plane, front face up: cross(b - a, c - a) = +y. */
static px_shape big_triangle(void)
{
    return px_shape_triangle((vec3){-3.0f, 0.0f, -2.0f}, (vec3){0.0f, 0.0f, 4.0f}, (vec3){3.0f, 0.0f, -2.0f});
}

/* A box resting flat on a big triangle, under several scene poses and yaws, both orders, the triangle
 * rounded or not: four points at the box's bottom corners, depth 1e-3, the triangle's normal; ids name the
 * triangle's front face (0) with its interior and the box's bottom face with its corners. */
static int tri_box_resting(void)
{
    px_rng rng = px_rng_seeded(0x6d74720aull);
    px_manifold_config config = px_manifold_default_config();
    const float h[3] = {0.4f, 0.3f, 0.25f};
    px_shape box = px_shape_box(h);
    for (int trial = 0; trial < 40; ++trial)
    {
        px_shape tri = big_triangle();
        tri.radius = trial % 4 == 3 ? 0.05f : 0.0f;
        double qs[4], yaw[4];
        if (trial == 0)
        {
            qs[0] = qs[1] = qs[2] = 0.0;
            qs[3] = 1.0;
        }
        else
        {
            px_rng_quat(&rng, qs);
        }
        px_transform scene = make_pose(px_rng_range(&rng, -3, 3), px_rng_range(&rng, -3, 3),
                                       px_rng_range(&rng, -3, 3), qs);
        double angle = trial == 0 ? 0.0 : px_rng_range(&rng, -MF_PI, MF_PI);
        dquat_axis_angle(0, 1, 0, angle, yaw);
        double cx = px_rng_range(&rng, -0.5, 0.5), cz = px_rng_range(&rng, -0.5, 0.5);
        const double depth = 1e-3;
        const double lp[3] = {cx, (double)tri.radius + (double)h[1] - depth, cz};
        px_transform tb = child_pose(&scene, lp, yaw);
        double qsd[4], psd[3];
        pose_to_double(&scene, qsd, psd);
        double up[3] = {0.0, 1.0, 0.0}, n[3];
        dquat_rotate(qsd, up, n);
        px_manifold ab, ba;
        char label[48];
        snprintf(label, sizeof(label), "resting trial %d", trial);
        PX_CHECK_STATUS(px_manifold_world(&tri, &scene, &box, &tb, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&box, &tb, &tri, &scene, &config, &ba), PX_OK);
        PX_CHECK(check_tri_manifold(label, &tri, &scene, &box, &tb, &ab, &config, 1.0, true) == 0);
        PX_CHECK(check_tri_manifold(label, &box, &tb, &tri, &scene, &ba, &config, 1.0, true) == 0);
        if (ab.count != 4)
        {
            print_manifold(label, &ab);
        }
        PX_CHECK(ab.count == 4);
        PX_CHECK_NEAR3(ab.normal, n, 1e-5);
        for (int c = 0; c < 4; ++c)
        {
            /* corner c of the box's bottom, on the triangle's surface (point_a) */
            const double sx[4] = {-1, 1, 1, -1}, sz[4] = {-1, -1, 1, 1};
            double local[3] = {sx[c] * h[0], 0.0, sz[c] * h[2]}, r[3];
            dquat_rotate(yaw, local, r);
            double corner[3];
            scene_point(&scene, cx + r[0], (double)tri.radius, cz + r[2], corner);
            int i = find_point(&ab, 0, corner, 4.0 * MF_POS_TOL);
            if (i < 0)
            {
                print_manifold(label, &ab);
            }
            PX_CHECK(i >= 0);
            PX_CHECK_NEAR(ab.points[i].separation, -depth, 4.0 * MF_POS_TOL);
            uint32_t id = ab.points[i].id;
            /* the triangle's front face, and the box corner by its x face (its lowest-index face) */
            PX_CHECK((id >> 24) == 0u && ((id >> 16) & 0xFFu) <= 1u);
            PX_CHECK(id_kind_a(id) == PXT_FACE && id_kind_b(id) == PXT_VERTEX);
        }
        PX_CHECK(check_mirrored(label, &ab, &ba, 4.0 * MF_POS_TOL) == 0);
    }
    return 0;
}

/* A box over a triangle smaller than its bottom face: three points, at the triangle's vertices, named by
 * them (vertex j of face 0 is the triangle's vertex j); and the box's edge resting on a triangle: two. */
static int tri_small_and_edge(void)
{
    px_manifold_config config = px_manifold_default_config();
    const float h[3] = {0.5f, 0.3f, 0.5f};
    px_shape box = px_shape_box(h);
    const float va[3] = {-0.3f, 0.0f, -0.2f}, vb[3] = {0.1f, 0.0f, 0.35f}, vc[3] = {0.35f, 0.0f, -0.3f};
    px_shape tri = px_shape_triangle(va, vb, vc);
    px_transform tt = make_pose(0, 0, 0, NULL);
    px_transform tb = make_pose(0.05, 0.3 - 1e-3, -0.02, NULL);
    px_manifold ab, ba;
    PX_CHECK_STATUS(px_manifold_world(&tri, &tt, &box, &tb, &config, &ab), PX_OK);
    PX_CHECK_STATUS(px_manifold_world(&box, &tb, &tri, &tt, &config, &ba), PX_OK);
    PX_CHECK(check_tri_manifold("small", &tri, &tt, &box, &tb, &ab, &config, 1.0, true) == 0);
    PX_CHECK(check_tri_manifold("small swapped", &box, &tb, &tri, &tt, &ba, &config, 1.0, true) == 0);
    if (ab.count != 3)
    {
        print_manifold("small", &ab);
    }
    PX_CHECK(ab.count == 3);
    PX_CHECK_NEAR(ab.normal[1], 1.0, 1e-6);
    const float* v[3] = {va, vb, vc};
    for (int j = 0; j < 3; ++j)
    {
        const double x[3] = {(double)v[j][0], (double)v[j][1], (double)v[j][2]};
        int i = find_point(&ab, 0, x, MF_POS_TOL);
        PX_CHECK(i >= 0);
        PX_CHECK_NEAR(ab.points[i].separation, -1e-3, MF_POS_TOL);
        uint32_t id = ab.points[i].id;
        PX_CHECK((id >> 24) == 0u && ((id >> 16) & 0xFFu) == 3u);
        PX_CHECK(((id >> 8) & 0xFFu) == (PXT_VERTEX << 6 | (unsigned)j) && id_kind_b(id) == PXT_FACE);
    }
    PX_CHECK(check_mirrored("small", &ab, &ba, MF_POS_TOL) == 0);

    /* a box turned 0.7 rad about z (not 45 degrees, where its two lower faces tie as the incident face), on
     * its lower edge (along z): two points, the edge's ends */
    px_shape big = big_triangle();
    double qz[4];
    const double turn = 0.7;
    dquat_axis_angle(0, 0, 1, turn, qz);
    /* the lowest edge is corner (x, y) = (-0.5, -0.3) turned */
    const double reach = 0.5 * sin(turn) + 0.3 * cos(turn), shift = -0.5 * cos(turn) + 0.3 * sin(turn);
    px_transform te = make_pose(0.1, reach - 1e-3, 0.2, qz);
    PX_CHECK_STATUS(px_manifold_world(&big, &tt, &box, &te, &config, &ab), PX_OK);
    PX_CHECK_STATUS(px_manifold_world(&box, &te, &big, &tt, &config, &ba), PX_OK);
    PX_CHECK(check_tri_manifold("edge", &big, &tt, &box, &te, &ab, &config, 1.0, true) == 0);
    PX_CHECK(check_tri_manifold("edge swapped", &box, &te, &big, &tt, &ba, &config, 1.0, true) == 0);
    if (ab.count != 2)
    {
        print_manifold("edge", &ab);
    }
    PX_CHECK(ab.count == 2);
    PX_CHECK_NEAR(ab.normal[1], 1.0, 1e-6);
    for (int e = 0; e < 2; ++e)
    {
        const double end[3] = {0.1 + shift, 0.0, 0.2 + (e == 0 ? -0.5 : 0.5)};
        int i = find_point(&ab, 0, end, MF_POS_TOL);
        PX_CHECK(i >= 0);
        PX_CHECK_NEAR(ab.points[i].separation, -1e-3, MF_POS_TOL);
    }
    PX_CHECK(check_mirrored("edge", &ab, &ba, MF_POS_TOL) == 0);

    /* a triangle leaning on the top face of a box with its edge a-c, turned by -0.3 rad about x so that a
     * and c (z = -0.3) go down to y = -0.3 sin 0.3 and b (z = 0.5) goes up: two points, a and c, named by
     * the triangle's front face (0, the lower index of the two that have them), where a is vertex 0 and c
     * vertex 2 (in the back face, which touches, they are 0 and 1) */
    px_shape top = px_shape_box((vec3){1.0f, 0.5f, 1.0f});
    px_transform ttop = make_pose(0, -0.5, 0, NULL);
    double qx[4];
    dquat_axis_angle(1, 0, 0, -0.3, qx);
    const float ea[3] = {-0.4f, 0.0f, -0.3f}, eb[3] = {0.0f, 0.0f, 0.5f}, ec[3] = {0.4f, 0.0f, -0.3f};
    px_shape lean = px_shape_triangle(ea, eb, ec);
    const double lift = 0.3 * sin(0.3);
    px_transform tl = make_pose(0.1, lift - 1e-3, 0.05, qx);
    PX_CHECK_STATUS(px_manifold_world(&top, &ttop, &lean, &tl, &config, &ab), PX_OK);
    PX_CHECK_STATUS(px_manifold_world(&lean, &tl, &top, &ttop, &config, &ba), PX_OK);
    PX_CHECK(check_tri_manifold("leaning", &top, &ttop, &lean, &tl, &ab, &config, 1.0, true) == 0);
    PX_CHECK(check_tri_manifold("leaning swapped", &lean, &tl, &top, &ttop, &ba, &config, 1.0, true) == 0);
    if (ab.count != 2)
    {
        print_manifold("leaning", &ab);
    }
    PX_CHECK(ab.count == 2);
    PX_CHECK_NEAR(ab.normal[1], 1.0, 1e-6);
    for (int e = 0; e < 2; ++e)
    {
        const double x[3] = {0.1 + (e == 0 ? -0.4 : 0.4), -1e-3, 0.05 - 0.3 * cos(0.3)};
        int i = find_point(&ab, 1, x, MF_POS_TOL);
        PX_CHECK(i >= 0);
        PX_CHECK_NEAR(ab.points[i].separation, -1e-3, MF_POS_TOL);
        uint32_t id = ab.points[i].id;
        PX_CHECK((id >> 24) == 2u && ((id >> 16) & 0xFFu) == 0u); /* box face +y, triangle vertices */
        PX_CHECK(id_kind_a(id) == PXT_FACE && (id & 0xFFu) == (PXT_VERTEX << 6 | (e == 0 ? 0u : 2u)));
    }
    PX_CHECK(check_mirrored("leaning", &ab, &ba, MF_POS_TOL) == 0);
    return 0;
}

/* A box under the triangle (touching its back): the normal is the reversed triangle normal and the ids name
 * the back face (1); a rounded triangle (radius 0.05) from below too. */
static int tri_back_side(void)
{
    px_manifold_config config = px_manifold_default_config();
    const float h[3] = {0.4f, 0.3f, 0.25f};
    px_shape box = px_shape_box(h);
    double qs[4], yaw[4];
    dquat_axis_angle(1, 2, -0.5, 0.9, qs);
    dquat_axis_angle(0, 1, 0, 0.4, yaw);
    px_transform scene = make_pose(0.5, -1.0, 2.0, qs);
    double qsd[4], psd[3];
    pose_to_double(&scene, qsd, psd);
    const double down_l[3] = {0.0, -1.0, 0.0};
    double down[3];
    dquat_rotate(qsd, down_l, down);
    for (int rounded = 0; rounded < 2; ++rounded)
    {
        px_shape tri = big_triangle();
        tri.radius = rounded ? 0.05f : 0.0f;
        const double lp[3] = {0.2, -((double)tri.radius + (double)h[1] - 1e-3), -0.1};
        px_transform tb = child_pose(&scene, lp, yaw);
        px_manifold ab, ba;
        PX_CHECK_STATUS(px_manifold_world(&tri, &scene, &box, &tb, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&box, &tb, &tri, &scene, &config, &ba), PX_OK);
        PX_CHECK(check_tri_manifold("back", &tri, &scene, &box, &tb, &ab, &config, 1.0, true) == 0);
        PX_CHECK(check_tri_manifold("back swapped", &box, &tb, &tri, &scene, &ba, &config, 1.0, true) == 0);
        PX_CHECK(ab.count == 4);
        PX_CHECK_NEAR3(ab.normal, down, 1e-5);
        for (int i = 0; i < 4; ++i)
        {
            uint32_t id = ab.points[i].id;
            /* the triangle's back face, and a box corner by its x face */
            PX_CHECK((id >> 24) == 1u && ((id >> 16) & 0xFFu) <= 1u);
            PX_CHECK_NEAR(ab.points[i].separation, -1e-3, 4.0 * MF_POS_TOL);
        }
        PX_CHECK(check_mirrored("back", &ab, &ba, 4.0 * MF_POS_TOL) == 0);
    }
    return 0;
}

/* A capsule lying on a triangle: its core segment's ends, two points; over the triangle's edge a-b (from
 * (-3, 0, -2) to (0, 0, 4), so x = -3 + (z + 2) / 2 there), clipped at the edge. A rounded triangle adds its
 * radius. Both orders. */
static int tri_capsule(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape capsule = px_shape_capsule(0.6f, 0.2f);
    double qz[4];
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz); /* axis along x */
    px_transform tt = make_pose(0, 0, 0, NULL);
    for (int rounded = 0; rounded < 2; ++rounded)
    {
        px_shape tri = big_triangle();
        tri.radius = rounded ? 0.03f : 0.0f;
        const double r = (double)tri.radius;
        px_transform tc = make_pose(0.1, r + 0.2 - 1e-3, 0.2, qz);
        px_manifold ab, ba;
        PX_CHECK_STATUS(px_manifold_world(&tri, &tt, &capsule, &tc, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&capsule, &tc, &tri, &tt, &config, &ba), PX_OK);
        PX_CHECK(check_tri_manifold("capsule", &tri, &tt, &capsule, &tc, &ab, &config, 1.0, true) == 0);
        PX_CHECK(check_tri_manifold("capsule swapped", &capsule, &tc, &tri, &tt, &ba, &config, 1.0, true) ==
                 0);
        if (ab.count != 2)
        {
            print_manifold("capsule", &ab);
        }
        PX_CHECK(ab.count == 2);
        PX_CHECK_NEAR(ab.normal[1], 1.0, 1e-6);
        const double ends[2][3] = {{-0.5, r, 0.2}, {0.7, r, 0.2}};
        for (int e = 0; e < 2; ++e)
        {
            int k = find_point(&ab, 0, ends[e], MF_POS_TOL);
            PX_CHECK(k >= 0);
            PX_CHECK_NEAR(ab.points[k].separation, -1e-3, MF_POS_TOL);
            PX_CHECK(((ab.points[k].id >> 24) & 0xFFu) == 0u && ((ab.points[k].id >> 16) & 0xFFu) == 0xFEu);
        }
        PX_CHECK(check_mirrored("capsule", &ab, &ba, MF_POS_TOL) == 0);
        /* over the edge a-b: at z = 0.2 the edge is at x = -1.9; the capsule's core runs over [-2.3, -1.1] */
        tc = make_pose(-1.7, r + 0.2 - 1e-3, 0.2, qz);
        PX_CHECK_STATUS(px_manifold_world(&tri, &tt, &capsule, &tc, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&capsule, &tc, &tri, &tt, &config, &ba), PX_OK);
        PX_CHECK(check_tri_manifold("overhang", &tri, &tt, &capsule, &tc, &ab, &config, 1.0, true) == 0);
        PX_CHECK(ab.count == 2);
        const double clipped[2][3] = {{-1.9, r, 0.2}, {-1.1, r, 0.2}};
        for (int e = 0; e < 2; ++e)
        {
            int k = find_point(&ab, 0, clipped[e], MF_POS_TOL);
            PX_CHECK(k >= 0);
            PX_CHECK_NEAR(ab.points[k].separation, -1e-3, MF_POS_TOL);
        }
        PX_CHECK(check_mirrored("capsule overhang", &ab, &ba, MF_POS_TOL) == 0);
    }
    return 0;
}

/* Small random motions (translations up to 1e-4, rotations up to 1e-3 rad) keep the count and the ids: a
 * box inside a big triangle (vertex-in-face points), a box over a small triangle (the triangle's vertices),
 * a box hanging over a triangle's corner (vertex, edge-edge and reference-vertex points), a capsule, in
 * both orders. */
static int tri_id_stability(void)
{
    px_rng rng = px_rng_seeded(0x6d74720bull);
    px_manifold_config config = px_manifold_default_config();
    px_shape box = px_shape_box((vec3){0.4f, 0.3f, 0.3f});
    px_shape capsule = px_shape_capsule(0.6f, 0.2f);
    px_shape big = big_triangle();
    px_shape small = px_shape_triangle((vec3){-0.3f, 0.0f, -0.2f}, (vec3){0.1f, 0.0f, 0.25f},
                                       (vec3){0.3f, 0.0f, -0.2f});
    double yaw[4], qz[4], q_cap[4];
    const double none[4] = {0, 0, 0, 1};
    dquat_axis_angle(0, 1, 0, 0.35, yaw);
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz);
    dquat_mul(yaw, qz, q_cap);
    px_transform tt = make_pose(0, 0, 0, NULL);
    for (int setup = 0; setup < 8; ++setup)
    {
        bool swapped = setup >= 4;
        const px_shape* tri = (setup % 4) == 1 ? &small : &big;
        const px_shape* other = (setup % 4) == 3 ? &capsule : &box;
        const double* q0 = (setup % 4) == 3 ? q_cap : yaw;
        /* over the big triangle's corner c = (3, 0, -2), unturned, the box's footprint [2.4, 3.2] x
         * [-2.1, -1.5] holds c and one corner, (2.4, -1.5), inside the triangle; its sides cut the triangle's
         * edges at (2.4, -2) and (2.75, -1.5): four points, all at least 0.1 from a change of topology */
        const double centres[4][3] = {
            {0.1, 0.3 - 1e-3, -0.2}, {0.0, 0.3 - 1e-3, 0.0}, {2.8, 0.3 - 1e-3, -1.8}, {0.1, 0.2 - 1e-3, 0.3}};
        const double* c = centres[setup % 4];
        if ((setup % 4) == 2)
        {
            q0 = none;
        }
        px_transform rest = make_pose(c[0], c[1], c[2], q0);
        px_manifold m0;
        PX_CHECK_STATUS(swapped ? px_manifold_world(other, &rest, tri, &tt, &config, &m0)
                                : px_manifold_world(tri, &tt, other, &rest, &config, &m0),
                        PX_OK);
        const int expected[4] = {4, 3, 4, 2};
        if (m0.count != expected[setup % 4])
        {
            fprintf(stderr, "setup %d\n", setup);
            print_manifold("rest", &m0);
        }
        PX_CHECK(m0.count == expected[setup % 4]);
        for (int step = 0; step < 100; ++step)
        {
            double axis[3], dq[4], q[4];
            px_rng_unit_vector(&rng, axis);
            dquat_axis_angle(axis[0], axis[1], axis[2], px_rng_range(&rng, -1e-3, 1e-3), dq);
            dquat_mul(dq, q0, q);
            px_transform t = make_pose(c[0] + 1e-4 * px_rng_range(&rng, -1, 1),
                                       c[1] + 1e-4 * px_rng_range(&rng, -1, 1),
                                       c[2] + 1e-4 * px_rng_range(&rng, -1, 1), q);
            px_manifold m;
            char label[48];
            snprintf(label, sizeof(label), "setup %d step %d", setup, step);
            PX_CHECK_STATUS(swapped ? px_manifold_world(other, &t, tri, &tt, &config, &m)
                                    : px_manifold_world(tri, &tt, other, &t, &config, &m),
                            PX_OK);
            int bad = swapped ? check_invariants(label, other, &t, tri, &tt, &m, config.margin)
                              : check_invariants(label, tri, &tt, other, &t, &m, config.margin);
            if (bad || !same_id_set(&m0, &m))
            {
                print_manifold("rest", &m0);
                print_manifold(label, &m);
                return 1;
            }
        }
    }
    return 0;
}

/* Degenerate triangles are not polytopes: a point (all three vertices equal), repeated vertices, collinear
 * vertices, and a sliver whose height is 1e-6 of its length, under a box and a capsule, in both orders: the
 * one contact point (id 0) at the right depth. */
static int tri_degenerate(void)
{
    px_manifold_config config = px_manifold_default_config();
    px_shape box = px_shape_box((vec3){0.4f, 0.3f, 0.3f});
    px_shape capsule = px_shape_capsule(0.6f, 0.2f);
    const float p0[3] = {0.1f, 0.0f, 0.0f}, p1[3] = {-0.2f, 0.0f, 0.1f}, p2[3] = {0.3f, 0.0f, -0.1f};
    const float mid[3] = {0.05f, 0.0f, 0.0f}, thin[3] = {0.05f, 1e-6f, 0.0f};
    px_shape tris[5] = {px_shape_triangle(p0, p0, p0), px_shape_triangle(p1, p2, p1),
                        px_shape_triangle(p1, p1, p2), px_shape_triangle(p1, mid, p2),
                        px_shape_triangle(p1, p2, thin)};
    double qz[4];
    dquat_axis_angle(0, 0, 1, 0.5 * MF_PI, qz);
    px_transform tt = make_pose(0, 0, 0, NULL);
    for (int t = 0; t < 5; ++t)
    {
        for (int k = 0; k < 4; ++k)
        {
            const px_shape* other = k % 2 == 0 ? &box : &capsule;
            px_transform to =
                k % 2 == 0 ? make_pose(0.0, 0.3 - 1e-3, 0.0, NULL) : make_pose(0.0, 0.2 - 1e-3, 0.0, qz);
            px_manifold m;
            px_status s = k < 2 ? px_manifold_world(&tris[t], &tt, other, &to, &config, &m)
                                : px_manifold_world(other, &to, &tris[t], &tt, &config, &m);
            char label[48];
            snprintf(label, sizeof(label), "degenerate %d/%d", t, k);
            if (!(s == PX_OK && m.count == 1 && m.points[0].id == 0u))
            {
                fprintf(stderr, "%s: status %d\n", label, (int)s);
                print_manifold(label, &m);
                return 1;
            }
            PX_CHECK_NEAR(m.points[0].separation, -1e-3, 1e-4);
        }
    }
    return 0;
}

/* Random boxes (some rounded) over random triangles (some rounded) under random scene poses: yawed, tilted
 * by up to 0.3 rad, their lowest point between 3e-3 deep and just past the margin above the triangle, over
 * the interior (the box's footprint inside the triangle) or hanging over an edge. Every manifold passes the
 * invariants in both orders; over the interior the deepest separation is px_contact_world's distance (within
 * 1e-4 of the unit size) and the two orders mirror each other when the triangle is the clear reference; flat
 * boxes inside give four points. */
static int tri_random_boxes(void)
{
    px_rng rng = px_rng_seeded(0x6d74720cull);
    px_manifold_config config = px_manifold_default_config();
    int four = 0, flat_inside = 0, mirrored = 0;
    for (int trial = 0; trial < 3000; ++trial)
    {
        /* a triangle in the scene's y = 0 plane, vertices around a circle of radius 2 to 3, front up */
        double ang0 = px_rng_range(&rng, 0, 2 * MF_PI);
        float v[3][3];
        for (int i = 0; i < 3; ++i)
        {
            double a = ang0 - (2.0 * MF_PI / 3.0) * i + px_rng_range(&rng, -0.4, 0.4);
            double rad = px_rng_range(&rng, 2.0, 3.0);
            v[i][0] = (float)(rad * cos(a));
            v[i][1] = 0.0f;
            v[i][2] = (float)(rad * sin(a));
        }
        px_shape tri = px_shape_triangle(v[0], v[1], v[2]);
        int family = trial % 3; /* 0 flat inside, 1 tilted inside, 2 hanging over an edge */
        /* rounded shapes are clipped on their cores and the points shifted along the normal: off the surface
         * by about radius * tilt^2 / 2 at a tilted edge, so they get the flat family and small tilts */
        bool rounded = family < 2 && trial % 5 >= 3;
        tri.radius = rounded && trial % 2 == 0 ? (float)px_rng_range(&rng, 0.0, 0.05) : 0.0f;
        float h[3] = {(float)px_rng_range(&rng, 0.1, 0.5), (float)px_rng_range(&rng, 0.1, 0.5),
                      (float)px_rng_range(&rng, 0.1, 0.5)};
        px_shape box = px_shape_box(h);
        box.radius = rounded && trial % 3 != 0 ? (float)px_rng_range(&rng, 0.0, 0.05) : 0.0f;
        double qs[4], yaw[4], tilt[4], q[4];
        px_rng_quat(&rng, qs);
        px_transform scene =
            make_pose(px_rng_range(&rng, -3, 3), px_rng_range(&rng, -3, 3), px_rng_range(&rng, -3, 3), qs);
        dquat_axis_angle(0, 1, 0, px_rng_range(&rng, -MF_PI, MF_PI), yaw);
        double tilt_angle = family == 0 ? 0.0 : px_rng_range(&rng, 0.0, rounded ? 0.02 : 0.3);
        dquat_axis_angle(px_rng_range(&rng, -1, 1), 0, px_rng_range(&rng, -1, 1), tilt_angle, tilt);
        dquat_mul(tilt, yaw, q);
        /* a point of the triangle: inside by at least the box's reach, or on an edge */
        double reach = sqrt((double)h[0] * h[0] + (double)h[1] * h[1] + (double)h[2] * h[2]) + box.radius;
        double c[3] = {0, 0, 0};
        if (family < 2)
        {
            double w[3] = {px_rng_unit(&rng) + 0.2, px_rng_unit(&rng) + 0.2, px_rng_unit(&rng) + 0.2};
            double sum = w[0] + w[1] + w[2];
            for (int i = 0; i < 3; ++i)
            {
                for (int k = 0; k < 3; k += 2)
                {
                    c[k] += w[i] / sum * (double)v[i][k];
                }
            }
            /* the distance from c to each edge line, in the plane */
            bool inside = true;
            for (int i = 0; i < 3; ++i)
            {
                const float* p0 = v[i];
                const float* p1 = v[(i + 1) % 3];
                double ex = (double)p1[0] - p0[0], ez = (double)p1[2] - p0[2];
                double d = fabs(ez * (c[0] - p0[0]) - ex * (c[2] - p0[2])) / sqrt(ex * ex + ez * ez);
                inside = inside && d > reach;
            }
            if (!inside)
            {
                continue;
            }
        }
        else
        {
            int i = px_rng_int(&rng, 3);
            double t = px_rng_range(&rng, 0.2, 0.8);
            for (int k = 0; k < 3; k += 2)
            {
                c[k] = (1.0 - t) * (double)v[i][k] + t * (double)v[(i + 1) % 3][k];
            }
        }
        /* the box's lowest point along the scene's y at gap above the triangle's surface */
        double lowest = INFINITY;
        for (int k = 0; k < 8; ++k)
        {
            double corner[3] = {(k & 1 ? 1 : -1) * (double)h[0], (k & 2 ? 1 : -1) * (double)h[1],
                                (k & 4 ? 1 : -1) * (double)h[2]},
                   r[3];
            dquat_rotate(q, corner, r);
            lowest = fmin(lowest, r[1]);
        }
        double gap = px_rng_range(&rng, -3e-3, 1.2 * (double)config.margin);
        c[1] = (double)tri.radius + (double)box.radius - lowest + gap;
        px_transform tb = child_pose(&scene, c, q);
        px_manifold ab, ba;
        char label[64];
        snprintf(label, sizeof(label), "random trial %d (family %d)", trial, family);
        PX_CHECK_STATUS(px_manifold_world(&tri, &scene, &box, &tb, &config, &ab), PX_OK);
        PX_CHECK_STATUS(px_manifold_world(&box, &tb, &tri, &scene, &config, &ba), PX_OK);
        if (near_margin(&ab, config.margin, 1e-5) || near_margin(&ba, config.margin, 1e-5))
        {
            continue;
        }
        PX_CHECK(check_tri_manifold(label, &tri, &scene, &box, &tb, &ab, &config, 1.0, family < 2) == 0);
        PX_CHECK(check_tri_manifold(label, &box, &tb, &tri, &scene, &ba, &config, 1.0, family < 2) == 0);
        four += ab.count == 4;
        /* along the triangle's normal (its face the reference), each separation is the box point's height
         * above the triangle's plane, less the triangle's radius, in double */
        double tv[3][3], tn[3];
        dtri_world(&tri, &scene, tv, tn);
        double cosine =
            (double)ab.normal[0] * tn[0] + (double)ab.normal[1] * tn[1] + (double)ab.normal[2] * tn[2];
        for (int i = 0; i < ab.count && fabs(cosine) >= 1.0 - 1e-6; ++i)
        {
            double height = (cosine > 0.0 ? 1.0 : -1.0) * dplane_distance(tv[0], tn, ab.points[i].point_b);
            if (!(fabs(height - (double)tri.radius - (double)ab.points[i].separation) <= MF_POS_TOL))
            {
                fprintf(stderr, "%s: point %d: height %.9g above the triangle, separation %.9g\n", label, i,
                        height - (double)tri.radius, (double)ab.points[i].separation);
                return 1;
            }
        }
        if (family == 0)
        {
            flat_inside++;
            if (!(ab.count == 4 || (ab.count == 0 && gap > (double)config.margin)))
            {
                print_manifold(label, &ab);
                return 1;
            }
        }
        /* the triangle is the reference in both orders when the box is tilted clearly (1 - cos > 1e-5) */
        if (family == 1 && tilt_angle > 0.01 && ab.count > 0)
        {
            PX_CHECK(check_mirrored(label, &ab, &ba, 4.0 * MF_POS_TOL) == 0);
            mirrored++;
        }
    }
    if (!(flat_inside > 300 && mirrored > 300 && four > 300))
    {
        fprintf(stderr, "%d flat inside, %d mirrored, %d with four points\n", flat_inside, mirrored, four);
        return 1;
    }
    return 0;
}

int test_manifold(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(box_on_box_face);
    PX_RUN_SUBTEST(box_offset_overlap);
    PX_RUN_SUBTEST(box_touching);
    PX_RUN_SUBTEST(box_rotated_octagon);
    PX_RUN_SUBTEST(box_stack);
    PX_RUN_SUBTEST(box_random_tilts);
    PX_RUN_SUBTEST(box_random_pairs);
    PX_RUN_SUBTEST(capsule_lying_on_box);
    PX_RUN_SUBTEST(capsule_standing_and_sphere);
    PX_RUN_SUBTEST(capsule_pairs);
    PX_RUN_SUBTEST(box_on_hull_box);
    PX_RUN_SUBTEST(hull_on_hull);
    PX_RUN_SUBTEST(built_hulls);
    PX_RUN_SUBTEST(rock_on_face_tie);
    PX_RUN_SUBTEST(edge_support_tie);
    PX_RUN_SUBTEST(thin_sheet_lies_flat);
    PX_RUN_SUBTEST(id_stability);
    PX_RUN_SUBTEST(id_swap_symmetry);
    PX_RUN_SUBTEST(margin_and_rounding);
    PX_RUN_SUBTEST(bad_input);
    PX_RUN_SUBTEST(single_point_pairs);
    PX_RUN_SUBTEST(box_paths_agree);
    PX_RUN_SUBTEST(box_face_bias_lean);
    PX_RUN_SUBTEST(box_parallel_edges_normal);
    PX_RUN_SUBTEST(box_stacks);
    PX_RUN_SUBTEST(box_edge_edge);
    PX_RUN_SUBTEST(box_rounded_resting);
    PX_RUN_SUBTEST(box_swap_order);
    PX_RUN_SUBTEST(box_id_stability_random);
    PX_RUN_SUBTEST(tri_box_resting);
    PX_RUN_SUBTEST(tri_small_and_edge);
    PX_RUN_SUBTEST(tri_back_side);
    PX_RUN_SUBTEST(tri_capsule);
    PX_RUN_SUBTEST(tri_id_stability);
    PX_RUN_SUBTEST(tri_degenerate);
    PX_RUN_SUBTEST(tri_random_boxes);
    PX_RUN_SUBTEST(rounded_corner_single_point);
    PX_RUN_SUBTEST(corner_merge_across_shapes);
    PX_RUN_SUBTEST(thin_rod_keeps_width);
    PX_RUN_SUBTEST(offset_hull_keeps_width);
    PX_RUN_SUBTEST(deep_hull_pairs);
    PX_RUN_SUBTEST(edge_on_tie_ids);
    PX_RUN_SUBTEST(box_feature_name_tables);
    PX_SUITE_END;
}
