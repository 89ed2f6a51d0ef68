/* `proxima demo`, second section: contact manifolds.
 *
 * A small scene of bodies at rest on a floor, each sunk DEMO_SINK into what carries it: a stack of three
 * boxes (the middle one turned), a capsule lying on a pedestal box, a sphere, a box tilted onto one edge, a
 * hexagonal prism built with px_hull_create, and a box hovering inside the margin. px_manifold_world runs
 * on every pair; the touching ones are printed as a table (normal, points, separations, feature ids) and
 * drawn in demo_contacts.png: an oblique orthographic view with the bodies shaded (painter's order), the
 * contact points as dots and the normals as short lines. */
#define _POSIX_C_SOURCE 200809L

#include "demo.h"
#include "image.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONTACT_MAX_BODIES 10
#define DEMO_SINK 0.002f           /* how far each body sinks into its support [Units: length] */
#define DEMO_HOVER 0.003f          /* the hovering box's gap, inside the default margin [Units: length] */
#define CONTACT_IMAGE_WIDTH 960    /* [pixels] */
#define CONTACT_VIEW_HEIGHT 520    /* the view, above the caption strip [pixels] */
#define CONTACT_CAPTION_HEIGHT 58  /* [pixels] */
#define CONTACT_NORMAL_LENGTH 0.3f /* drawn length of a normal [Units: length] */
#define HEX_SIDES 6

static const float contact_pi = 3.14159265358979f;

typedef struct contact_body
{
    char name[16];
    px_shape shape;
    px_transform pose;
    cli_rgb color;
} contact_body;

typedef struct contact_scene
{
    contact_body bodies[CONTACT_MAX_BODIES];
    int count;
    px_hull* hex; /* the prism's built hull (owned) */
} contact_scene;

typedef struct contact_pair
{
    int a, b;
    px_status status;
    px_manifold manifold;
} contact_pair;

/* ---------------------------------------------------------------------------------------------------- */
/* Scene */

static void yaw_pitch_roll(float yaw_deg, float roll_deg, versor dest)
{
    /* roll about z first, then yaw about y: q = q_yaw * q_roll */
    float y = 0.5f * yaw_deg * contact_pi / 180.0f, r = 0.5f * roll_deg * contact_pi / 180.0f;
    versor qy = {0.0f, sinf(y), 0.0f, cosf(y)}, qr = {0.0f, 0.0f, sinf(r), cosf(r)};
    dest[0] = qy[3] * qr[0] + qy[0] * qr[3] + qy[1] * qr[2] - qy[2] * qr[1];
    dest[1] = qy[3] * qr[1] - qy[0] * qr[2] + qy[1] * qr[3] + qy[2] * qr[0];
    dest[2] = qy[3] * qr[2] + qy[0] * qr[1] - qy[1] * qr[0] + qy[2] * qr[3];
    dest[3] = qy[3] * qr[3] - qy[0] * qr[0] - qy[1] * qr[1] - qy[2] * qr[2];
}

static contact_body* add(contact_scene* s, const char* name, px_shape shape, float x, float y, float z,
                         float yaw, float roll, cli_rgb color)
{
    contact_body* b = &s->bodies[s->count++];
    memset(b, 0, sizeof(*b));
    snprintf(b->name, sizeof(b->name), "%s", name);
    b->shape = shape;
    versor q;
    yaw_pitch_roll(yaw, roll, q);
    px_transform_set((vec3){x, y, z}, q, &b->pose);
    b->color = color;
    return b;
}

/* Lowest world y of a body (its bounding box is tight for boxes, capsules, spheres and hulls). */
static float bottom(const contact_body* b)
{
    px_aabb box;
    return px_shape_aabb(&b->shape, &b->pose, &box) == PX_OK ? box.min[1] : 0.0f;
}

static float top(const contact_body* b)
{
    px_aabb box;
    return px_shape_aabb(&b->shape, &b->pose, &box) == PX_OK ? box.max[1] : 0.0f;
}

/* Move b vertically so its lowest point is `gap` above height y (negative: sunk). */
static void rest_on(contact_body* b, float y, float gap)
{
    b->pose.p[1] += y + gap - bottom(b);
}

/* Returns CLI_EXIT_OK or a printed failure. */
static int build_contact_scene(contact_scene* s)
{
    const cli_rgb stone = {150, 146, 140}, blue = {84, 132, 196}, teal = {64, 168, 156},
                  amber = {222, 160, 64}, rose = {206, 96, 116}, violet = {140, 110, 196},
                  green = {120, 176, 88}, sand = {196, 176, 128};
    contact_body* floor =
        add(s, "floor", px_shape_box((vec3){3.3f, 0.2f, 1.35f}), 0.0f, -0.2f, 0.0f, 0, 0, stone);
    (void)floor;

    contact_body* base =
        add(s, "base", px_shape_box((vec3){0.6f, 0.3f, 0.5f}), -2.3f, 0.0f, 0.0f, 0, 0, blue);
    rest_on(base, 0.0f, -DEMO_SINK);
    contact_body* middle =
        add(s, "middle", px_shape_box((vec3){0.42f, 0.22f, 0.34f}), -2.2f, 0.0f, 0.05f, 30.0f, 0, teal);
    rest_on(middle, top(base), -DEMO_SINK);
    contact_body* cube =
        add(s, "cube", px_shape_box((vec3){0.2f, 0.2f, 0.2f}), -2.3f, 0.0f, 0.0f, -10.0f, 0, sand);
    rest_on(cube, top(middle), -DEMO_SINK);

    contact_body* pedestal =
        add(s, "pedestal", px_shape_box((vec3){0.55f, 0.2f, 0.35f}), -0.7f, 0.0f, 0.0f, 0, 0, violet);
    rest_on(pedestal, 0.0f, -DEMO_SINK);
    /* lying: the capsule's axis (local y) turned onto x by a 90-degree roll, then yawed */
    contact_body* capsule =
        add(s, "capsule", px_shape_capsule(0.38f, 0.14f), -0.72f, 0.0f, 0.02f, 15.0f, 90.0f, amber);
    rest_on(capsule, top(pedestal), -DEMO_SINK);

    contact_body* sphere = add(s, "sphere", px_shape_sphere(0.3f), 0.5f, 0.0f, 0.55f, 0, 0, rose);
    rest_on(sphere, 0.0f, -DEMO_SINK);

    contact_body* tilted =
        add(s, "tilted", px_shape_box((vec3){0.3f, 0.22f, 0.28f}), 1.35f, 0.0f, -0.45f, 10.0f, 18.0f, green);
    rest_on(tilted, 0.0f, -DEMO_SINK);

    /* a hexagonal prism from px_hull_create: six bottom corners, reduced to four contact points */
    static float hex_points[2 * HEX_SIDES * 3];
    for (int i = 0; i < HEX_SIDES; ++i)
    {
        float a = 2.0f * contact_pi * (float)i / HEX_SIDES;
        for (int level = 0; level < 2; ++level)
        {
            float* p = hex_points + 3 * (level * HEX_SIDES + i);
            p[0] = 0.4f * cosf(a);
            p[1] = level == 0 ? -0.18f : 0.18f;
            p[2] = 0.4f * sinf(a);
        }
    }
    px_status status = px_hull_create(hex_points, 2 * HEX_SIDES, NULL, &s->hex);
    if (status != PX_OK)
    {
        return cli_fail("contacts: px_hull_create failed: %s", px_status_string(status));
    }
    contact_body* prism =
        add(s, "hex-prism", px_shape_from_hull(s->hex), 2.45f, 0.0f, -0.55f, 12.0f, 0, teal);
    rest_on(prism, 0.0f, -DEMO_SINK);

    contact_body* hover =
        add(s, "hovering", px_shape_box((vec3){0.25f, 0.15f, 0.25f}), 2.55f, 0.0f, 0.75f, -20.0f, 0, blue);
    rest_on(hover, 0.0f, DEMO_HOVER);
    return CLI_EXIT_OK;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Table */

static void print_contacts(const contact_scene* s, const contact_pair* pairs, int pair_count, float margin)
{
    int touching = 0, points = 0;
    for (int i = 0; i < pair_count; ++i)
    {
        touching += pairs[i].manifold.count > 0 ? 1 : 0;
        points += pairs[i].manifold.count;
    }
    printf(
        "contacts: px_manifold_world on %d pairs of %d bodies (each sunk %.3g into its support, one hovering "
        "%.3g above the floor), margin %.3g\n",
        pair_count, s->count, (double)DEMO_SINK, (double)DEMO_HOVER, (double)margin);
    printf("  %-22s  %-24s  %1s  %-26s  %10s  %s\n", "pair A / B", "normal A->B", "#", "point on A",
           "separation", "feature id");
    for (int i = 0; i < pair_count; ++i)
    {
        const contact_pair* p = &pairs[i];
        const px_manifold* m = &p->manifold;
        if (m->count == 0 && !PX_FAILED(p->status))
        {
            continue;
        }
        char names[48];
        snprintf(names, sizeof(names), "%s / %s", s->bodies[p->a].name, s->bodies[p->b].name);
        if (PX_FAILED(p->status))
        {
            printf("  %-22s  query failed: %s\n", names, px_status_string(p->status));
            continue;
        }
        for (int k = 0; k < m->count; ++k)
        {
            const px_manifold_point* pt = &m->points[k];
            char normal[32] = "", count[4] = "";
            if (k == 0)
            {
                snprintf(normal, sizeof(normal), "(%6.3f, %6.3f, %6.3f)", (double)m->normal[0],
                         (double)m->normal[1], (double)m->normal[2]);
                snprintf(count, sizeof(count), "%d", m->count);
            }
            printf("  %-22s  %-24s  %1s  (%7.3f, %6.3f, %7.3f)  %10.5f  0x%08x\n", k == 0 ? names : "",
                   normal, count, (double)pt->point_a[0], (double)pt->point_a[1], (double)pt->point_a[2],
                   (double)pt->separation, pt->id);
        }
    }
    printf("  %d touching pairs, %d contact points\n", touching, points);
    printf("  feature id = face A << 24 | face B << 16 | feature A << 8 | feature B; feature = kind << 6 | "
           "index "
           "(kind 0 face, 1 vertex, 2 edge); 0xfe: a capsule's core; 0 for single-point manifolds\n\n");
}

/* ---------------------------------------------------------------------------------------------------- */
/* Picture: an oblique orthographic view */

typedef struct contact_view
{
    vec3 right, up, back; /* camera axes; back points towards the viewer */
    float scale;          /* pixels per unit */
    float cx, cy;         /* pixel of the world origin */
} contact_view;

static void view_project(const contact_view* v, const vec3 p, float* x, float* y)
{
    *x = v->cx + v->scale * (p[0] * v->right[0] + p[1] * v->right[1] + p[2] * v->right[2]);
    *y = v->cy - v->scale * (p[0] * v->up[0] + p[1] * v->up[1] + p[2] * v->up[2]);
}

static float view_depth(const contact_view* v, const vec3 p)
{
    return p[0] * v->back[0] + p[1] * v->back[1] + p[2] * v->back[2];
}

/* Camera from the front right, looking down 28 degrees; scale and centre fit every body's bounding box. */
static contact_view make_contact_view(const contact_scene* s)
{
    contact_view v;
    float yaw = -24.0f * contact_pi / 180.0f, pitch = 28.0f * contact_pi / 180.0f;
    float sy = sinf(yaw), cyw = cosf(yaw), sp = sinf(pitch), cp = cosf(pitch);
    v.back[0] = sy * cp;
    v.back[1] = sp;
    v.back[2] = cyw * cp;
    v.right[0] = cyw;
    v.right[1] = 0.0f;
    v.right[2] = -sy;
    v.up[0] = -sp * sy;
    v.up[1] = cp;
    v.up[2] = -sp * cyw;
    v.scale = 1.0f;
    v.cx = 0.0f;
    v.cy = 0.0f;
    float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f;
    for (int i = 0; i < s->count; ++i)
    {
        px_aabb box;
        if (px_shape_aabb(&s->bodies[i].shape, &s->bodies[i].pose, &box) != PX_OK)
        {
            continue;
        }
        for (int c = 0; c < 8; ++c)
        {
            vec3 p = {(c & 1) ? box.max[0] : box.min[0], (c & 2) ? box.max[1] : box.min[1],
                      (c & 4) ? box.max[2] : box.min[2]};
            float x, y;
            view_project(&v, p, &x, &y);
            x0 = fminf(x0, x);
            x1 = fmaxf(x1, x);
            y0 = fminf(y0, y);
            y1 = fmaxf(y1, y);
        }
    }
    const float pad = 24.0f;
    v.scale = fminf(((float)CONTACT_IMAGE_WIDTH - 2.0f * pad) / (x1 - x0),
                    ((float)CONTACT_VIEW_HEIGHT - 2.0f * pad) / (y1 - y0));
    v.cx = 0.5f * (float)CONTACT_IMAGE_WIDTH - v.scale * 0.5f * (x0 + x1);
    v.cy = 0.5f * (float)CONTACT_VIEW_HEIGHT - v.scale * 0.5f * (y0 + y1);
    return v;
}

static cli_rgb scaled(cli_rgb c, float f)
{
    f = fmaxf(0.0f, fminf(f, 1.2f));
    cli_rgb r = {(uint8_t)fminf(255.0f, (float)c.r * f), (uint8_t)fminf(255.0f, (float)c.g * f),
                 (uint8_t)fminf(255.0f, (float)c.b * f)};
    return r;
}

/* Anti-aliased fill of a convex polygon (pixel coordinates, either winding): 4x4 samples per edge pixel. */
static void fill_convex(cli_image* image, const float* xs, const float* ys, int n, cli_rgb color)
{
    float x0 = 1e30f, x1 = -1e30f, y0 = 1e30f, y1 = -1e30f, area = 0.0f;
    for (int i = 0; i < n; ++i)
    {
        x0 = fminf(x0, xs[i]);
        x1 = fmaxf(x1, xs[i]);
        y0 = fminf(y0, ys[i]);
        y1 = fmaxf(y1, ys[i]);
        int j = (i + 1) % n;
        area += xs[i] * ys[j] - xs[j] * ys[i];
    }
    if (!(fabsf(area) > 1e-6f))
    {
        return;
    }
    float sign = area > 0.0f ? 1.0f : -1.0f;
    for (int py = (int)fmaxf(0.0f, floorf(y0)); py <= (int)fminf((float)image->height - 1.0f, ceilf(y1));
         ++py)
    {
        for (int px = (int)fmaxf(0.0f, floorf(x0)); px <= (int)fminf((float)image->width - 1.0f, ceilf(x1));
             ++px)
        {
            int inside = 0;
            for (int sample = 0; sample < 16; ++sample)
            {
                float sx = (float)px + ((float)(sample & 3) + 0.5f) / 4.0f;
                float sy = (float)py + ((float)(sample >> 2) + 0.5f) / 4.0f;
                bool in = true;
                for (int i = 0; i < n && in; ++i)
                {
                    int j = (i + 1) % n;
                    float e = (xs[j] - xs[i]) * (sy - ys[i]) - (ys[j] - ys[i]) * (sx - xs[i]);
                    in = sign * e >= 0.0f;
                }
                inside += in ? 1 : 0;
            }
            cli_image_blend(image, px, py, color, (float)inside / 16.0f);
        }
    }
}

/* A capsule or sphere in an orthographic view: the 2D stadium of the projected core segment, shaded as if
 * lit from the upper left (brighter near the axis and on the lit side). */
static void fill_rounded(cli_image* image, float ax, float ay, float bx, float by, float r, cli_rgb color)
{
    float dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy;
    int x0 = (int)fmaxf(0.0f, fminf(ax, bx) - r - 2.0f),
        x1 = (int)fminf((float)image->width - 1, fmaxf(ax, bx) + r + 2.0f);
    int y0 = (int)fmaxf(0.0f, fminf(ay, by) - r - 2.0f),
        y1 = (int)fminf((float)image->height - 1, fmaxf(ay, by) + r + 2.0f);
    for (int py = y0; py <= y1; ++py)
    {
        for (int px = x0; px <= x1; ++px)
        {
            float qx = (float)px + 0.5f, qy = (float)py + 0.5f;
            float t = len2 > 0.0f ? ((qx - ax) * dx + (qy - ay) * dy) / len2 : 0.0f;
            t = fmaxf(0.0f, fminf(1.0f, t));
            float ex = qx - (ax + t * dx), ey = qy - (ay + t * dy);
            float d = sqrtf(ex * ex + ey * ey);
            float coverage = fminf(1.0f, r + 0.5f - d);
            if (coverage <= 0.0f)
            {
                continue;
            }
            float nz = sqrtf(fmaxf(0.0f, 1.0f - (d / r) * (d / r)));
            float lit = 0.5f + 0.5f * fmaxf(0.0f, (-ex - ey) / (1.414f * r));
            cli_image_blend(image, px, py, scaled(color, 0.35f + 0.55f * nz + 0.3f * lit * nz), coverage);
            if (d > r - 1.2f)
            {
                cli_image_blend(image, px, py, (cli_rgb){24, 20, 28}, 0.8f * coverage);
            }
        }
    }
}

/* World positions of a polytope face's vertices: a box face (k = face >> 1, negative side when face is odd)
 * or a built hull's face. Returns the vertex count, at most 32. */
static int face_world(const contact_body* b, int face, vec3* out, vec3 normal)
{
    vec3 local[32], n_local = {0.0f, 0.0f, 0.0f};
    int count = 0;
    if (b->shape.type == PX_SHAPE_BOX)
    {
        const float* h = b->shape.box.half_extents;
        int k = face >> 1, u = (k + 1) % 3, v = (k + 2) % 3;
        float side = (face & 1) ? -1.0f : 1.0f;
        const float su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
        for (int i = 0; i < 4; ++i)
        {
            local[i][k] = side * h[k];
            local[i][u] = su[i] * h[u];
            local[i][v] = sv[i] * h[v];
        }
        n_local[k] = side;
        count = 4;
    }
    else
    {
        const px_hull* hull = b->shape.hull.built;
        const px_hull_face* f = &px_hull_faces(hull)[face];
        const int32_t* idx = px_hull_face_indices(hull) + f->first;
        const float* verts = px_hull_vertices(hull);
        count = f->count < 32 ? f->count : 32;
        for (int i = 0; i < count; ++i)
        {
            memcpy(local[i], verts + 3 * idx[i], sizeof(vec3));
        }
        memcpy(n_local, f->plane, sizeof(vec3));
    }
    for (int i = 0; i < count; ++i)
    {
        px_transform_point(&b->pose, local[i], out[i]);
    }
    px_transform_vector(&b->pose, n_local, normal);
    return count;
}

static void draw_body(cli_image* image, const contact_view* v, const contact_body* b)
{
    const cli_rgb ink = {24, 20, 28};
    const vec3 light = {-0.45f, 0.8f, 0.4f}; /* unit enough: shading only */
    if (b->shape.type == PX_SHAPE_BOX || (b->shape.type == PX_SHAPE_HULL && b->shape.hull.built != NULL))
    {
        int faces = b->shape.type == PX_SHAPE_BOX ? 6 : px_hull_face_count(b->shape.hull.built);
        for (int f = 0; f < faces; ++f)
        {
            vec3 pts[32], n;
            int count = face_world(b, f, pts, n);
            if (!(n[0] * v->back[0] + n[1] * v->back[1] + n[2] * v->back[2] > 1e-4f))
            {
                continue; /* facing away: hidden behind the body's front faces */
            }
            float xs[32], ys[32];
            for (int i = 0; i < count; ++i)
            {
                view_project(v, pts[i], &xs[i], &ys[i]);
            }
            float diffuse = fmaxf(0.0f, n[0] * light[0] + n[1] * light[1] + n[2] * light[2]);
            fill_convex(image, xs, ys, count, scaled(b->color, 0.45f + 0.6f * diffuse));
            for (int i = 0; i < count; ++i)
            {
                int j = (i + 1) % count;
                cli_image_line(image, xs[i], ys[i], xs[j], ys[j], 1.2f, ink, 0.85f);
            }
        }
        return;
    }
    /* capsule or sphere: the projected core segment, widened by the radius */
    vec3 a = {0.0f, 0.0f, 0.0f}, c = {0.0f, 0.0f, 0.0f};
    if (b->shape.type == PX_SHAPE_CAPSULE)
    {
        a[1] = -b->shape.capsule.half_height;
        c[1] = b->shape.capsule.half_height;
    }
    vec3 wa, wc;
    px_transform_point(&b->pose, a, wa);
    px_transform_point(&b->pose, c, wc);
    float ax, ay, cx, cy;
    view_project(v, wa, &ax, &ay);
    view_project(v, wc, &cx, &cy);
    fill_rounded(image, ax, ay, cx, cy, b->shape.radius * v->scale, b->color);
}

static void draw_contacts(cli_image* image, const contact_view* v, const contact_pair* pairs, int pair_count)
{
    const cli_rgb ink = {20, 16, 24}, normal_color = {255, 226, 64}, dot_color = {255, 72, 48};
    for (int pass = 0; pass < 2; ++pass)
    {
        for (int i = 0; i < pair_count; ++i)
        {
            const px_manifold* m = &pairs[i].manifold;
            for (int k = 0; k < m->count; ++k)
            {
                const float* p = m->points[k].point_a;
                vec3 tip;
                tip[0] = p[0] + CONTACT_NORMAL_LENGTH * m->normal[0];
                tip[1] = p[1] + CONTACT_NORMAL_LENGTH * m->normal[1];
                tip[2] = p[2] + CONTACT_NORMAL_LENGTH * m->normal[2];
                float x, y, tx, ty;
                view_project(v, p, &x, &y);
                view_project(v, tip, &tx, &ty);
                if (pass == 0)
                {
                    cli_image_line(image, x, y, tx, ty, 4.0f, ink, 0.7f);
                    cli_image_line(image, x, y, tx, ty, 1.8f, normal_color, 1.0f);
                }
                else
                {
                    cli_image_disc(image, x, y, 4.6f, ink, 1.0f);
                    cli_image_disc(image, x, y, 3.2f, dot_color, 1.0f);
                }
            }
        }
    }
}

static int write_contacts_picture(const contact_scene* s, const contact_pair* pairs, int pair_count,
                                  const char* out_dir)
{
    contact_view v = make_contact_view(s);
    cli_image image;
    if (!cli_image_create(&image, CONTACT_IMAGE_WIDTH, CONTACT_VIEW_HEIGHT + CONTACT_CAPTION_HEIGHT))
    {
        return cli_fail("out of memory for the contacts picture");
    }
    /* background: a vertical gradient */
    for (int y = 0; y < CONTACT_VIEW_HEIGHT; ++y)
    {
        float t = (float)y / (float)CONTACT_VIEW_HEIGHT;
        cli_rgb c = {(uint8_t)(46 + 30 * t), (uint8_t)(52 + 32 * t), (uint8_t)(66 + 30 * t)};
        cli_image_fill_rect(&image, 0, y, image.width, y + 1, c);
    }
    /* painter's order: farthest body centre first (the floor is below everything, so first too) */
    int order[CONTACT_MAX_BODIES];
    float depth[CONTACT_MAX_BODIES];
    for (int i = 0; i < s->count; ++i)
    {
        int j = i;
        float d = i == 0 ? -1e30f : view_depth(&v, s->bodies[i].pose.p);
        while (j > 0 && depth[j - 1] > d)
        {
            depth[j] = depth[j - 1];
            order[j] = order[j - 1];
            --j;
        }
        depth[j] = d;
        order[j] = i;
    }
    for (int i = 0; i < s->count; ++i)
    {
        draw_body(&image, &v, &s->bodies[order[i]]);
    }
    draw_contacts(&image, &v, pairs, pair_count);
    /* names above each body */
    for (int i = 1; i < s->count; ++i)
    {
        const contact_body* b = &s->bodies[i];
        px_aabb box;
        if (px_shape_aabb(&b->shape, &b->pose, &box) != PX_OK)
        {
            continue;
        }
        vec3 above = {b->pose.p[0], box.max[1] + 0.06f, b->pose.p[2]};
        float x, y;
        view_project(&v, above, &x, &y);
        /* the drawn width, measured by drawing off the canvas (0 without the font: nothing to frame) */
        int width = cli_image_text(&image, -100000, -100000, 1, b->name, (cli_rgb){0, 0, 0});
        if (width == 0)
        {
            continue;
        }
        /* a translucent dark tag behind the name keeps it legible over any body */
        for (int ty = (int)y - 13; ty < (int)y; ++ty)
        {
            for (int tx = (int)x - width / 2 - 3; tx < (int)x - width / 2 + width + 2; ++tx)
            {
                cli_image_blend(&image, tx, ty, (cli_rgb){16, 14, 20}, 0.55f);
            }
        }
        cli_image_text(&image, (int)x - width / 2, (int)y - 11, 1, b->name, (cli_rgb){250, 250, 250});
    }
    /* caption */
    int pairs_touching = 0, points = 0;
    for (int i = 0; i < pair_count; ++i)
    {
        pairs_touching += pairs[i].manifold.count > 0 ? 1 : 0;
        points += pairs[i].manifold.count;
    }
    cli_image_fill_rect(&image, 0, CONTACT_VIEW_HEIGHT, image.width, image.height, (cli_rgb){28, 26, 34});
    char caption[200];
    snprintf(caption, sizeof(caption),
             "contact manifolds (px_manifold_world): %d touching pairs, %d points; red dots: contact points, "
             "yellow: normals A->B",
             pairs_touching, points);
    cli_image_text(&image, 10, CONTACT_VIEW_HEIGHT + 12, 1, caption, (cli_rgb){240, 240, 240});
    snprintf(caption, sizeof(caption),
             "oblique orthographic view from the front right; bodies sunk %.3g into their supports, the "
             "hovering box %.3g above the floor",
             (double)DEMO_SINK, (double)DEMO_HOVER);
    cli_image_text(&image, 10, CONTACT_VIEW_HEIGHT + 32, 1, caption, (cli_rgb){240, 240, 240});

    char path[4096], error[256];
    snprintf(path, sizeof(path), "%s/demo_contacts.%s", out_dir, cli_image_extension());
    int rc = CLI_EXIT_OK;
    if (!cli_image_write(&image, path, error, sizeof(error)))
    {
        rc = cli_fail("%s", error);
    }
    else
    {
        printf("wrote %s (%dx%d)\n", path, image.width, image.height);
    }
    cli_image_destroy(&image);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------- */

int demo_contacts(const char* out_dir)
{
    static contact_scene scene; /* static: zero-initialized, and the hull points live as long */
    memset(&scene, 0, sizeof(scene));
    int rc = build_contact_scene(&scene);
    contact_pair pairs[CONTACT_MAX_BODIES * (CONTACT_MAX_BODIES - 1) / 2];
    int pair_count = 0;
    px_manifold_config config = px_manifold_default_config();
    for (int a = 0; a < scene.count && rc == CLI_EXIT_OK; ++a)
    {
        for (int b = a + 1; b < scene.count; ++b)
        {
            contact_pair* p = &pairs[pair_count++];
            p->a = a;
            p->b = b;
            p->status =
                px_manifold_world(&scene.bodies[a].shape, &scene.bodies[a].pose, &scene.bodies[b].shape,
                                  &scene.bodies[b].pose, &config, &p->manifold);
        }
    }
    if (rc == CLI_EXIT_OK)
    {
        print_contacts(&scene, pairs, pair_count, config.margin);
        rc = write_contacts_picture(&scene, pairs, pair_count, out_dir);
    }
    for (int i = 0; i < pair_count && rc == CLI_EXIT_OK; ++i)
    {
        if (PX_FAILED(pairs[i].status))
        {
            rc = cli_fail("contacts: %s / %s: the query failed: %s", scene.bodies[pairs[i].a].name,
                          scene.bodies[pairs[i].b].name, px_status_string(pairs[i].status));
        }
    }
    px_hull_destroy(scene.hex);
    return rc;
}
