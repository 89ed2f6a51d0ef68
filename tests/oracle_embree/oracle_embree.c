/* Embree 3 as a second, independent oracle for proxima's mesh ray casts (px_mesh_ray_cast).
 *
 * Every mesh of ../shared/data and a generated height-field terrain of about 200k triangles go into an
 * Embree scene (one triangle geometry, default build) and a proxima mesh. Random rays (origins inside and
 * outside the bounds, toward the mesh or anywhere, finite and infinite max_t) and pinhole-camera rays are
 * cast through rtcIntersect1 and px_mesh_ray_cast. Asserted: every ray Embree hits, proxima hits too, at t
 * within 1e-5 relative (plus a floor of 1e-7 of the mesh's extent, for hits next to the origin); on slivers
 * and grazing hits, where the float kernel's own error is larger, within 4 FLT_EPSILON cond_t of the exact t
 * (cond_t as tests/test_ray_triangle.c defines it); where the two pick different triangles, t must agree
 * within 1e-6 relative (a tie at a shared edge or coincident faces). Counted, not failed: rays proxima hits
 * and Embree misses, or where proxima's hit is nearer than Embree's (Embree's default triangle test is not
 * watertight, KNOWN_FAILURES.md). Each failure is printed with its ray in hex floats and a long-double
 * Moller-Trumbore verdict on both triangles.
 *
 * Exit status: 0 pass, 1 fail (77, CTest's skip code, comes from CMake when Embree is absent).
 * PX_TEST_SEED replays another stream; PX_EMBREE_RAYS sets the random rays per mesh (default 12000). */
#include <embree3/rtcore.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "support/rng.h"

#define REL_T 1.0e-5   /* t agreement when both hit */
#define REL_TIE 1.0e-6 /* t agreement when the triangles differ */
#define FLOOR_T 1.0e-7 /* absolute floor on |t - t'|, times the extent over |direction| */
#define T_K \
    4.0L /* slivers, grazing hits: |t - t*| <= T_K FLT_EPSILON cond_t t* (test_ray_triangle.c's bound) */
#define CAMERA_W 64
#define CAMERA_H 48
#define MAX_PRINTED 10

typedef struct mesh_in
{
    const char* name;
    float* vertices;
    int vertex_count;
    int32_t* indices;
    int triangle_count;
    px_obj_data obj; /* owner of the arrays when read from a file */
} mesh_in;

typedef struct tally
{
    long rays;
    long embree_hits;
    long both;
    long failures;        /* Embree hits, proxima misses or is farther or disagrees */
    long proxima_only;    /* proxima hits, Embree misses */
    long proxima_nearer;  /* both hit, proxima's hit clearly nearer */
    long ties;            /* different triangles at the same t */
    long ill_conditioned; /* same triangle, t beyond 1e-5 but within the kernel's bound T_K eps cond_t */
    double max_rel;       /* largest |t - t'| / t among agreeing hits */
} tally;

static int g_printed;

/* ---------------------------------------------------------------------------------------------------- */

static void* xmalloc(size_t n)
{
    void* p = malloc(n > 0 ? n : 1);
    if (p == NULL)
    {
        fprintf(stderr, "oracle_embree: out of memory\n");
        exit(1);
    }
    return p;
}

/* A (nx x nz)-cell height field, two triangles per cell: about 200k triangles for 317 x 317. */
static void make_terrain(mesh_in* m, int nx, int nz, uint64_t seed)
{
    px_rng r = px_rng_seeded(seed);
    memset(m, 0, sizeof(*m));
    m->name = "terrain 200k";
    m->vertex_count = (nx + 1) * (nz + 1);
    m->triangle_count = 2 * nx * nz;
    m->vertices = xmalloc((size_t)m->vertex_count * 3 * sizeof(float));
    m->indices = xmalloc((size_t)m->triangle_count * 3 * sizeof(int32_t));
    for (int j = 0; j <= nz; ++j)
    {
        for (int i = 0; i <= nx; ++i)
        {
            float* v = &m->vertices[3 * (j * (nx + 1) + i)];
            double h = 6.0 * sin(0.05 * i) * cos(0.04 * j) + 2.0 * sin(0.31 * i + 0.17 * j) +
                       px_rng_range(&r, -0.5, 0.5);
            v[0] = (float)(i * 0.5 - 80.0);
            v[1] = (float)h;
            v[2] = (float)(j * 0.5 - 80.0);
        }
    }
    int t = 0;
    for (int j = 0; j < nz; ++j)
    {
        for (int i = 0; i < nx; ++i)
        {
            int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
            /* alternate diagonals; both triangles face up (+y) */
            const int odd[6] = { a, c, b, b, c, d }, even[6] = { a, c, d, a, d, b };
            memcpy(&m->indices[3 * t], (i + j) % 2 != 0 ? odd : even, sizeof(odd));
            t += 2;
        }
    }
}

static void free_mesh_in(mesh_in* m)
{
    if (m->obj.vertices != NULL || m->obj.indices != NULL)
    {
        px_obj_free(&m->obj);
    }
    else
    {
        free(m->vertices);
        free(m->indices);
    }
    memset(m, 0, sizeof(*m));
}

static RTCScene embree_scene(RTCDevice device, const mesh_in* m)
{
    RTCScene scene = rtcNewScene(device);
    RTCGeometry geom = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    float* v = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                       (size_t)m->vertex_count);
    unsigned* idx = rtcSetNewGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                            3 * sizeof(unsigned), (size_t)m->triangle_count);
    if (v == NULL || idx == NULL)
    {
        fprintf(stderr, "oracle_embree: rtcSetNewGeometryBuffer failed (error %d)\n",
                (int)rtcGetDeviceError(device));
        exit(1);
    }
    memcpy(v, m->vertices, (size_t)m->vertex_count * 3 * sizeof(float));
    for (int i = 0; i < 3 * m->triangle_count; ++i)
    {
        idx[i] = (unsigned)m->indices[i];
    }
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene, geom);
    rtcReleaseGeometry(geom);
    rtcCommitScene(scene);
    if (rtcGetDeviceError(device) != RTC_ERROR_NONE)
    {
        fprintf(stderr, "oracle_embree: building the Embree scene of %s failed\n", m->name);
        exit(1);
    }
    return scene;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Rays */

typedef struct bounds
{
    double lo[3], hi[3], center[3], extent;
} bounds;

static bounds mesh_bounds(const mesh_in* m)
{
    bounds b;
    for (int k = 0; k < 3; ++k)
    {
        b.lo[k] = INFINITY;
        b.hi[k] = -INFINITY;
    }
    for (int i = 0; i < 3 * m->triangle_count; ++i)
    {
        const float* v = &m->vertices[3 * m->indices[i]];
        for (int k = 0; k < 3; ++k)
        {
            b.lo[k] = fmin(b.lo[k], (double)v[k]);
            b.hi[k] = fmax(b.hi[k], (double)v[k]);
        }
    }
    double e2 = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        b.center[k] = 0.5 * (b.lo[k] + b.hi[k]);
        e2 += (b.hi[k] - b.lo[k]) * (b.hi[k] - b.lo[k]);
    }
    b.extent = sqrt(e2);
    return b;
}

static void random_ray(const bounds* b, px_rng* r, int kind, px_ray* ray)
{
    double u[3], d[3];
    px_rng_unit_vector(r, u);
    px_rng_unit_vector(r, d);
    for (int k = 0; k < 3; ++k)
    {
        if (kind == 0)
        {
            /* inside the bounds, any direction */
            ray->origin[k] = (float)px_rng_range(r, b->lo[k], b->hi[k]);
            ray->direction[k] = (float)d[k];
        }
        else
        {
            /* outside, toward a point of the bounds (kind 1) or anywhere (kind 2) */
            ray->origin[k] = (float)(b->center[k] + 0.8 * b->extent * u[k]);
            double target = px_rng_range(r, b->lo[k], b->hi[k]);
            ray->direction[k] = kind == 1 ? (float)(target - (double)ray->origin[k]) : (float)d[k];
        }
    }
    ray->max_t = px_rng_int(r, 4) == 0 ? (float)(px_rng_unit(r) * b->extent) : INFINITY;
    if (kind == 1 && isfinite(ray->max_t))
    {
        ray->max_t /= (float)(0.8 * b->extent); /* the direction is about extent long */
    }
}

static void camera_ray(const bounds* b, int px, int py, px_ray* ray)
{
    double eye[3] = { b->center[0] + 0.55 * b->extent, b->center[1] + 0.35 * b->extent,
                      b->center[2] + 0.75 * b->extent };
    double f[3], right[3], up[3];
    double fl = 0.0;
    for (int k = 0; k < 3; ++k)
    {
        f[k] = b->center[k] - eye[k];
        fl += f[k] * f[k];
    }
    fl = sqrt(fl);
    for (int k = 0; k < 3; ++k)
    {
        f[k] /= fl;
    }
    /* right = f x (0, 1, 0), up = right x f */
    double rl = sqrt(f[2] * f[2] + f[0] * f[0]);
    right[0] = -f[2] / rl;
    right[1] = 0.0;
    right[2] = f[0] / rl;
    up[0] = right[1] * f[2] - right[2] * f[1];
    up[1] = right[2] * f[0] - right[0] * f[2];
    up[2] = right[0] * f[1] - right[1] * f[0];
    double sx = (2.0 * (px + 0.5) / CAMERA_W - 1.0) * 0.6;
    double sy = (1.0 - 2.0 * (py + 0.5) / CAMERA_H) * 0.6 * CAMERA_H / CAMERA_W;
    for (int k = 0; k < 3; ++k)
    {
        ray->origin[k] = (float)eye[k];
        ray->direction[k] = (float)(f[k] + sx * right[k] + sy * up[k]);
    }
    ray->max_t = INFINITY;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Comparison */

/* Long-double Moller-Trumbore on one triangle: t, and the smallest barycentric coordinate (negative:
 * outside; its size says how clearly). Returns false for a ray parallel to the plane. */
static int ld_triangle(const mesh_in* m, int tri, const px_ray* ray, long double* t, long double* lowest)
{
    long double a[3], b[3], c[3], o[3], d[3], e1[3], e2[3], p[3], s[3], q[3];
    for (int k = 0; k < 3; ++k)
    {
        a[k] = m->vertices[3 * m->indices[3 * tri] + k];
        b[k] = m->vertices[3 * m->indices[3 * tri + 1] + k];
        c[k] = m->vertices[3 * m->indices[3 * tri + 2] + k];
        o[k] = ray->origin[k];
        d[k] = ray->direction[k];
        e1[k] = b[k] - a[k];
        e2[k] = c[k] - a[k];
        s[k] = o[k] - a[k];
    }
    p[0] = d[1] * e2[2] - d[2] * e2[1];
    p[1] = d[2] * e2[0] - d[0] * e2[2];
    p[2] = d[0] * e2[1] - d[1] * e2[0];
    long double det = p[0] * e1[0] + p[1] * e1[1] + p[2] * e1[2];
    if (det == 0.0L)
    {
        return 0;
    }
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    long double u = (p[0] * s[0] + p[1] * s[1] + p[2] * s[2]) / det;
    long double v = (q[0] * d[0] + q[1] * d[1] + q[2] * d[2]) / det;
    *t = (q[0] * e2[0] + q[1] * e2[1] + q[2] * e2[2]) / det;
    *lowest = fminl(u, fminl(v, 1.0L - u - v));
    return 1;
}

/* The exact t of the ray on triangle tri and the condition number of the float kernel's t there, as
 * tests/test_ray_triangle.c defines it: cond_t = (1 + farthest vertex from the origin / hit distance) /
 * (shape |cos incidence|), shape = |E1 x E2| / (longest edge)^2. */
static int ld_condition(const mesh_in* m, int tri, const px_ray* ray, long double* t, long double* cond)
{
    long double lowest;
    if (!ld_triangle(m, tri, ray, t, &lowest))
    {
        return 0;
    }
    long double v[3][3], e[3][3], n[3], d[3], dn = 0.0L, far_o = 0.0L, longest = 0.0L;
    for (int k = 0; k < 3; ++k)
    {
        d[k] = ray->direction[k];
        dn += d[k] * d[k];
        for (int c = 0; c < 3; ++c)
        {
            v[c][k] = m->vertices[3 * m->indices[3 * tri + c] + k];
        }
    }
    dn = sqrtl(dn);
    for (int c = 0; c < 3; ++c)
    {
        long double len = 0.0L, far = 0.0L;
        for (int k = 0; k < 3; ++k)
        {
            e[c][k] = v[(c + 1) % 3][k] - v[c][k];
            len += e[c][k] * e[c][k];
            far += (v[c][k] - ray->origin[k]) * (v[c][k] - ray->origin[k]);
        }
        longest = fmaxl(longest, sqrtl(len));
        far_o = fmaxl(far_o, sqrtl(far));
    }
    n[0] = e[0][1] * e[1][2] - e[0][2] * e[1][1];
    n[1] = e[0][2] * e[1][0] - e[0][0] * e[1][2];
    n[2] = e[0][0] * e[1][1] - e[0][1] * e[1][0];
    long double area2 = sqrtl(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    long double cosi = fabsl(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) / (area2 * dn);
    long double hd = fabsl(*t) * dn;
    if (!(area2 > 0.0L && cosi > 0.0L && hd > 0.0L))
    {
        return 0;
    }
    *cond = (1.0L + far_o / hd) / (area2 / (longest * longest) * cosi);
    return 1;
}

static void print_failure(const mesh_in* m, const px_ray* ray, const char* what, const px_ray_hit* h,
                          const struct RTCRayHit* e)
{
    if (g_printed++ >= MAX_PRINTED)
    {
        return;
    }
    printf("    FAIL %s %s: proxima hit %d triangle %d t %.9g; Embree triangle %u t %.9g\n", m->name, what,
           (int)h->hit, (int)h->triangle, (double)h->t, e->hit.primID, (double)e->ray.tfar);
    printf("      ray origin (%a, %a, %a) direction (%a, %a, %a) max_t %a\n", (double)ray->origin[0],
           (double)ray->origin[1], (double)ray->origin[2], (double)ray->direction[0],
           (double)ray->direction[1], (double)ray->direction[2], (double)ray->max_t);
    long double t, lowest;
    if (ld_triangle(m, (int)e->hit.primID, ray, &t, &lowest))
    {
        printf("      long double on Embree's triangle: t %.12Lg, smallest barycentric %.3Lg\n", t, lowest);
    }
    if (h->hit && ld_triangle(m, h->triangle, ray, &t, &lowest))
    {
        printf("      long double on proxima's triangle: t %.12Lg, smallest barycentric %.3Lg\n", t, lowest);
    }
}

static void compare(const mesh_in* m, const bounds* b, RTCScene scene, const px_mesh* mesh, const px_ray* ray,
                    tally* tl)
{
    struct RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    struct RTCRayHit e;
    memset(&e, 0, sizeof(e));
    e.ray.org_x = ray->origin[0];
    e.ray.org_y = ray->origin[1];
    e.ray.org_z = ray->origin[2];
    e.ray.dir_x = ray->direction[0];
    e.ray.dir_y = ray->direction[1];
    e.ray.dir_z = ray->direction[2];
    e.ray.tnear = 0.0f;
    e.ray.tfar = ray->max_t;
    e.ray.mask = 0xFFFFFFFFu;
    e.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    e.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &context, &e);
    bool embree_hit = e.hit.geomID != RTC_INVALID_GEOMETRY_ID;

    px_ray_hit h;
    px_status s = px_mesh_ray_cast(mesh, ray, &h);
    tl->rays++;
    if (s != PX_OK)
    {
        tl->failures++;
        printf("    FAIL %s: px_mesh_ray_cast returned %s\n", m->name, px_status_string(s));
        return;
    }
    if (!embree_hit)
    {
        tl->proxima_only += h.hit;
        return;
    }
    tl->embree_hits++;
    if (!h.hit)
    {
        tl->failures++;
        print_failure(m, ray, "Embree hits, proxima misses", &h, &e);
        return;
    }
    tl->both++;
    double dlen =
        sqrt((double)ray->direction[0] * ray->direction[0] + (double)ray->direction[1] * ray->direction[1] +
             (double)ray->direction[2] * ray->direction[2]);
    double te = (double)e.ray.tfar, tp = (double)h.t;
    double floor_t = FLOOR_T * b->extent / dlen;
    double diff = fabs(tp - te);
    bool same = (unsigned)h.triangle == e.hit.primID;
    if (same && diff <= REL_T * te + floor_t)
    {
        tl->max_rel = fmax(tl->max_rel, te > 0.0 ? diff / te : 0.0);
        return;
    }
    if (!same && diff <= REL_TIE * te + floor_t)
    {
        tl->ties++;
        return;
    }
    if (!same && tp < te)
    {
        tl->proxima_nearer++; /* Embree passed through a triangle proxima hits first */
        return;
    }
    long double t_exact, cond;
    if (same && ld_condition(m, h.triangle, ray, &t_exact, &cond) &&
        fabsl((long double)tp - t_exact) <=
            T_K * (long double)FLT_EPSILON * cond * t_exact + (long double)floor_t)
    {
        tl->ill_conditioned++; /* a sliver or a grazing hit: within the kernel's own error bound */
        return;
    }
    tl->failures++;
    print_failure(m, ray, same ? "t differs" : "proxima's hit is farther", &h, &e);
}

static void run_mesh(RTCDevice device, mesh_in* m, px_rng* r, int n_random, tally* total)
{
    px_mesh* mesh = NULL;
    px_status s = px_mesh_create(m->vertices, m->vertex_count, m->indices, m->triangle_count, NULL, &mesh);
    if (s != PX_OK)
    {
        printf("    FAIL %s: px_mesh_create returned %s\n", m->name, px_status_string(s));
        total->failures++;
        return;
    }
    RTCScene scene = embree_scene(device, m);
    bounds b = mesh_bounds(m);
    tally tl;
    memset(&tl, 0, sizeof(tl));
    for (int i = 0; i < n_random; ++i)
    {
        px_ray ray;
        random_ray(&b, r, i % 3, &ray);
        if (ray.direction[0] == 0.0f && ray.direction[1] == 0.0f && ray.direction[2] == 0.0f)
        {
            continue;
        }
        compare(m, &b, scene, mesh, &ray, &tl);
    }
    for (int y = 0; y < CAMERA_H; ++y)
    {
        for (int x = 0; x < CAMERA_W; ++x)
        {
            px_ray ray;
            camera_ray(&b, x, y, &ray);
            compare(m, &b, scene, mesh, &ray, &tl);
        }
    }
    printf("  %-16s %7d tris: %6ld rays, Embree hits %6ld, both %6ld, failures %ld; proxima only %ld, "
           "proxima nearer %ld, ties %ld, ill-conditioned %ld; max |dt|/t %.2g\n",
           m->name, m->triangle_count, tl.rays, tl.embree_hits, tl.both, tl.failures, tl.proxima_only,
           tl.proxima_nearer, tl.ties, tl.ill_conditioned, tl.max_rel);
    total->rays += tl.rays;
    total->embree_hits += tl.embree_hits;
    total->both += tl.both;
    total->failures += tl.failures;
    total->proxima_only += tl.proxima_only;
    total->proxima_nearer += tl.proxima_nearer;
    total->ties += tl.ties;
    total->ill_conditioned += tl.ill_conditioned;
    total->max_rel = fmax(total->max_rel, tl.max_rel);
    rtcReleaseScene(scene);
    px_mesh_destroy(mesh);
}

int main(void)
{
    const char* env = getenv("PX_EMBREE_RAYS");
    int n_random = env != NULL && atoi(env) > 0 ? atoi(env) : 12000;
    RTCDevice device = rtcNewDevice(NULL);
    if (device == NULL)
    {
        printf("oracle_embree: rtcNewDevice failed (error %d)\n", (int)rtcGetDeviceError(NULL));
        return 1;
    }
    px_rng r = px_rng_seeded(0xe3b7ee01u);
    tally total;
    memset(&total, 0, sizeof(total));
    printf("oracle_embree: proxima px_mesh_ray_cast against Embree %d.%d.%d rtcIntersect1, %d random + %d "
           "camera "
           "rays per mesh\n",
           RTC_VERSION_MAJOR, RTC_VERSION_MINOR, RTC_VERSION_PATCH, n_random, CAMERA_W * CAMERA_H);

    static const char* const files[6] = { "bunny.obj",      "nav_test.obj", "dungeon.obj",
                                          "undulating.obj", "env.obj",      "rob.obj" };
    for (int i = 0; i < 6; ++i)
    {
        char path[1024];
        snprintf(path, sizeof(path), "%s/%s", PX_DATA_DIR, files[i]);
        mesh_in m;
        memset(&m, 0, sizeof(m));
        px_obj_error err;
        px_status s = px_obj_load(path, NULL, &m.obj, &err);
        if (s != PX_OK)
        {
            printf("  %-16s skipped: %s (%s)\n", files[i], px_status_string(s), err.message);
            continue;
        }
        m.name = files[i];
        m.vertices = m.obj.vertices;
        m.vertex_count = m.obj.vertex_count;
        m.indices = m.obj.indices;
        m.triangle_count = m.obj.triangle_count;
        run_mesh(device, &m, &r, n_random, &total);
        free_mesh_in(&m);
    }
    mesh_in terrain;
    make_terrain(&terrain, 317, 317, 0x7e77a200u);
    run_mesh(device, &terrain, &r, n_random, &total);
    free_mesh_in(&terrain);
    rtcReleaseDevice(device);

    printf("oracle_embree: %ld rays, Embree hits %ld, both hit %ld; %ld failures (Embree hits and proxima "
           "misses, "
           "is farther, or t differs by more than %g relative and more than 4 eps cond_t); proxima-only hits "
           "%ld, "
           "proxima nearer %ld, ties %ld, ill-conditioned hits within 4 eps cond_t %ld; max |dt|/t %.2g\n",
           total.rays, total.embree_hits, total.both, total.failures, REL_T, total.proxima_only,
           total.proxima_nearer, total.ties, total.ill_conditioned, total.max_rel);
    return total.failures == 0 ? 0 : 1;
}
