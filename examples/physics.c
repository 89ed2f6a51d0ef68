/* Boxes falling onto a triangle-mesh floor: how a rigid-body solver consumes px_world_contacts.
 *
 * proxima does the collision detection; this file is a deliberately small sequential-impulse solver (the
 * method of Erin Catto's GDC talks, with the soft contacts and substeps of Box2D v3) on top of it. Enough
 * to show stable stacking; not a physics engine: no sleeping, no joints, no continuous collision.
 *
 * The scene: a static mesh ground (a flat grid of 1 m cells with a gentle ramp), three stacks of five boxes
 * and four boxes dropped tilted from a few metres, two of them onto the ramp. Each 1/60 s step:
 *
 *   1. px_world_update finds every touching pair at the current poses. Each px_world_contact carries a
 *      manifold: a normal from body_a to body_b and up to four points, each with its separation (negative:
 *      penetrating; positive up to the world's contact margin: a speculative contact) and a feature id. A
 *      box on the mesh gives one contact per touching triangle.
 *   2. Every manifold point becomes a constraint: a normal impulse that keeps the bodies from approaching
 *      and two friction impulses along tangents of the normal, anchored midway between the surfaces.
 *   3. Warm start: each point starts from the impulses of last step's point with the same key
 *      (body_a, body_b, triangle, feature id), kept in a sorted array. Feature ids stay the same while the
 *      same features touch, which is what makes this work; a stack converges over steps, not iterations.
 *   4. Substeps (semi-implicit Euler): gravity, warm start, solve, move, relax. The solve iterations push
 *      penetrating points apart softly, the relax iterations then take the push-out speed back, so it
 *      corrects positions without turning into motion. Friction is clamped to mu times the normal impulse,
 *      the accumulated normal impulse stays >= 0, and restitution is 0. Orientations move with
 *      q += h/2 (w, 0) q and are renormalized.
 *   5. px_world_set_pose tells the world where every moving body went.
 *
 * Usage: physics_example [--threads N] [--check-determinism] [--quiet]
 *   --threads N            run the world's narrowphase on a px_thread_pool of N workers
 *   --check-determinism    run the scene again on the calling thread alone and require bit-identical poses
 *   --quiet                print only the summary
 * Exits 0 when, after four simulated seconds, the stacks stand (upright, touching, not slid), every box
 * rests (rms speed under 2 cm/s) on or above the ground, nothing penetrates by more than a centimetre and
 * nothing is NaN; 1 otherwise. */
#include <proxima/proxima.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------------------------------ */
/* Parameters                                                                                       */

#define TIME_STEP (1.0f / 60.0f)
#define STEP_COUNT 240 /* four simulated seconds */
#define PRINT_EVERY 30
#define SUBSTEPS 4               /* solver substeps per step (one collision update per step) */
#define ITERATIONS 2             /* solve and relax iterations per substep */
#define GRAVITY 9.81f            /* along -y [m/s^2] */
#define FRICTION 0.6f            /* the same for every pair */
#define CONTACT_HERTZ 30.0f      /* stiffness of the soft push-out of penetration [Hz] */
#define CONTACT_DAMPING_RATIO 10.0f
#define PENETRATION_SLOP 0.002f  /* penetration left alone, so resting contacts stay touching [m] */
#define MAX_PUSH_SPEED 3.0f      /* largest speed at which penetrating bodies are pushed apart [m/s] */
#define DENSITY 100.0f           /* [kg/m^3] */

#define STACK_COUNT 3
#define STACK_HEIGHT 5
#define DROP_COUNT 4
#define BODY_CAPACITY (1 + STACK_COUNT * STACK_HEIGHT + DROP_COUNT)

/* The ground: a grid of 20 x 20 cells of 1 m over [-10, 10]^2 at y = 0, rising along x at a slope of 0.2
 * from x = 4 on. A box rests on several triangles at once. */
#define GROUND_HALF_SIZE 10.0f
#define GROUND_CELLS 20
#define RAMP_START 4.0f
#define RAMP_SLOPE 0.2f

/* What "at rest" means for the final checks. */
#define CHECK_MAX_PENETRATION 0.01f  /* [m] */
#define CHECK_STACK_SLIDE 0.05f      /* how far a stacked box may slide on the one below (or the ground) [m] */
#define CHECK_STACK_GAP 0.02f        /* stacked boxes touch within this [m] */
#define CHECK_RMS_SPEED 0.02f        /* sqrt(2 kinetic energy / total mass) [m/s] */

/* ------------------------------------------------------------------------------------------------ */
/* Small vector helpers (cglm's take non-const pointers; these take const ones)                       */

static float v3_dot(const vec3 a, const vec3 b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void v3_cross(const vec3 a, const vec3 b, vec3 dest)
{
    vec3 c = { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    memcpy(dest, c, sizeof(vec3));
}

/* dest += a * s */
static void v3_add_scaled(const vec3 a, float s, vec3 dest)
{
    dest[0] += a[0] * s;
    dest[1] += a[1] * s;
    dest[2] += a[2] * s;
}

static void v3_set(float x, float y, float z, vec3 dest)
{
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}

/* ------------------------------------------------------------------------------------------------ */
/* Rigid bodies                                                                                     */

typedef struct body
{
    px_body_id id;
    px_transform pose;       /* centre of mass and orientation */
    vec3 velocity;           /* of the centre of mass [m/s] */
    vec3 angular_velocity;   /* world frame [rad/s] */
    float mass;              /* 0 for the static ground */
    float inv_mass;          /* 0: does not move */
    vec3 inv_inertia_local;  /* inverse principal moments of inertia (a box's axes are its principal axes) */
    vec3 axes[3];            /* world directions of its x, y, z axes: at the start of the step */
    vec3 half_extents;       /* of a box; zero for the ground */
    vec3 start;              /* where it started, for the final checks */
} body;

/* The world directions of the body's local axes, from its orientation. */
static void body_update_axes(body* b)
{
    static const vec3 unit[3] = { { 1.0f, 0.0f, 0.0f }, { 0.0f, 1.0f, 0.0f }, { 0.0f, 0.0f, 1.0f } };
    for (int k = 0; k < 3; ++k)
    {
        px_quat_rotate(b->pose.q, unit[k], b->axes[k]);
    }
}

/* dest = I^-1 v with the world inverse inertia R diag(inv_inertia_local) R^T, applied axis by axis. */
static void body_apply_inv_inertia(const body* b, const vec3 v, vec3 dest)
{
    vec3 r = { 0.0f, 0.0f, 0.0f };
    for (int k = 0; k < 3; ++k)
    {
        v3_add_scaled(b->axes[k], b->inv_inertia_local[k] * v3_dot(b->axes[k], v), r);
    }
    memcpy(dest, r, sizeof(vec3));
}

/* Velocity of the body's material point at offset r from its centre of mass. */
static void body_point_velocity(const body* b, const vec3 r, vec3 dest)
{
    v3_cross(b->angular_velocity, r, dest);
    v3_add_scaled(b->velocity, 1.0f, dest);
}

/* The equal and opposite impulses of a contact: p on b at offset r_b, -p on a at offset r_a. */
static void apply_contact_impulse(body* a, const vec3 r_a, body* b, const vec3 r_b, const vec3 p)
{
    vec3 torque, dw;
    v3_add_scaled(p, -a->inv_mass, a->velocity);
    v3_cross(r_a, p, torque);
    body_apply_inv_inertia(a, torque, dw);
    v3_add_scaled(dw, -1.0f, a->angular_velocity);

    v3_add_scaled(p, b->inv_mass, b->velocity);
    v3_cross(r_b, p, torque);
    body_apply_inv_inertia(b, torque, dw);
    v3_add_scaled(dw, 1.0f, b->angular_velocity);
}

/* Semi-implicit Euler for the pose, with the velocities already updated: x += dt v, and q += dt/2 (w, 0) q
 * (the quaternion derivative for an angular velocity w in the world frame), then renormalize q. */
static void body_integrate_pose(body* b, float dt)
{
    v3_add_scaled(b->velocity, dt, b->pose.p);
    const float* w = b->angular_velocity;
    float* q = b->pose.q; /* x, y, z, w */
    vec3 wxq;
    v3_cross(w, q, wxq);
    float h = 0.5f * dt;
    float dx = h * (q[3] * w[0] + wxq[0]);
    float dy = h * (q[3] * w[1] + wxq[1]);
    float dz = h * (q[3] * w[2] + wxq[2]);
    float dw = -h * v3_dot(w, q);
    q[0] += dx;
    q[1] += dy;
    q[2] += dz;
    q[3] += dw;
    float len = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int k = 0; k < 4; ++k)
    {
        q[k] /= len;
    }
}

static float body_kinetic_energy(const body* b)
{
    if (b->inv_mass == 0.0f)
    {
        return 0.0f;
    }
    /* the angular part in the body frame, where the inertia is diagonal */
    float e = 0.5f * b->mass * v3_dot(b->velocity, b->velocity);
    for (int k = 0; k < 3; ++k)
    {
        float wk = v3_dot(b->axes[k], b->angular_velocity);
        e += 0.5f * wk * wk / b->inv_inertia_local[k];
    }
    return e;
}

/* ------------------------------------------------------------------------------------------------ */
/* Contact constraints and the warm-starting cache                                                  */

typedef struct contact_point
{
    vec3 r_a, r_b;          /* anchor (midway between the surfaces) from each centre of mass, at step start */
    vec3 local_a, local_b;  /* the same offsets in each body's frame: they follow the bodies through substeps */
    float separation;       /* from the manifold, at step start: < 0 penetrating */
    float normal_mass;      /* effective mass along the normal */
    float tangent_mass[2];  /* and along each tangent */
    float normal_impulse;   /* accumulated, per substep, >= 0 */
    float tangent_impulse[2];
    uint32_t id;            /* manifold feature id */
} contact_point;

/* One manifold: one px_world_contact. */
typedef struct contact_constraint
{
    body* a;
    body* b;
    uint64_t pair;    /* body_a.index << 32 | body_b.index */
    int32_t triangle; /* mesh triangle or PX_NULL_INDEX */
    vec3 normal;      /* from a to b */
    vec3 tangent[2];
    int point_count;
    contact_point points[PX_MANIFOLD_MAX_POINTS];
} contact_constraint;

/* Last step's impulses of one contact point, found again by (pair, triangle, feature id). The friction
 * impulse is kept as a world vector, so it carries over even when the tangents turn a little. */
typedef struct cached_impulse
{
    uint64_t pair;
    int32_t triangle;
    uint32_t id;
    float normal;
    vec3 friction;
} cached_impulse;

static int compare_cached(const void* x, const void* y)
{
    const cached_impulse* a = (const cached_impulse*)x;
    const cached_impulse* b = (const cached_impulse*)y;
    if (a->pair != b->pair)
    {
        return a->pair < b->pair ? -1 : 1;
    }
    if (a->triangle != b->triangle)
    {
        return a->triangle < b->triangle ? -1 : 1;
    }
    if (a->id != b->id)
    {
        return a->id < b->id ? -1 : 1;
    }
    return 0;
}

/* Two unit tangents completing the normal into an orthonormal basis. They depend only on the normal, so a
 * resting contact keeps its tangents from step to step. */
static void tangent_basis(const vec3 n, vec3 t1, vec3 t2)
{
    if (fabsf(n[0]) >= 0.57735f)
    {
        v3_set(n[1], -n[0], 0.0f, t1);
    }
    else
    {
        v3_set(0.0f, n[2], -n[1], t1);
    }
    float len = sqrtf(v3_dot(t1, t1));
    for (int k = 0; k < 3; ++k)
    {
        t1[k] /= len;
    }
    v3_cross(n, t1, t2);
}

/* 1 / (m_a^-1 + m_b^-1 + (I_a^-1 (r_a x d) x r_a) . d + (I_b^-1 (r_b x d) x r_b) . d): the mass the two
 * bodies oppose to an impulse along d at the anchors. */
static float effective_mass(const body* a, const vec3 r_a, const body* b, const vec3 r_b, const vec3 d)
{
    vec3 rd, ird, c;
    float k = a->inv_mass + b->inv_mass;
    v3_cross(r_a, d, rd);
    body_apply_inv_inertia(a, rd, ird);
    v3_cross(ird, r_a, c);
    k += v3_dot(c, d);
    v3_cross(r_b, d, rd);
    body_apply_inv_inertia(b, rd, ird);
    v3_cross(ird, r_b, c);
    k += v3_dot(c, d);
    return k > 0.0f ? 1.0f / k : 0.0f;
}

/* Fill a constraint from a world contact, warm-starting its points from the cache. */
static void constraint_init(contact_constraint* c, const px_world* world, const px_world_contact* wc,
                            const cached_impulse* cache, int cache_count)
{
    c->a = (body*)px_world_body_user_data(world, wc->body_a);
    c->b = (body*)px_world_body_user_data(world, wc->body_b);
    c->pair = (uint64_t)(uint32_t)wc->body_a.index << 32 | (uint32_t)wc->body_b.index;
    c->triangle = wc->triangle;
    memcpy(c->normal, wc->manifold.normal, sizeof(vec3));
    tangent_basis(c->normal, c->tangent[0], c->tangent[1]);
    c->point_count = wc->manifold.count;
    for (int i = 0; i < c->point_count; ++i)
    {
        const px_manifold_point* mp = &wc->manifold.points[i];
        contact_point* cp = &c->points[i];
        for (int k = 0; k < 3; ++k)
        {
            float anchor = 0.5f * (mp->point_a[k] + mp->point_b[k]);
            cp->r_a[k] = anchor - c->a->pose.p[k];
            cp->r_b[k] = anchor - c->b->pose.p[k];
        }
        px_quat_rotate_inverse(c->a->pose.q, cp->r_a, cp->local_a);
        px_quat_rotate_inverse(c->b->pose.q, cp->r_b, cp->local_b);
        cp->separation = mp->separation;
        cp->id = mp->id;
        cp->normal_mass = effective_mass(c->a, cp->r_a, c->b, cp->r_b, c->normal);
        cp->tangent_mass[0] = effective_mass(c->a, cp->r_a, c->b, cp->r_b, c->tangent[0]);
        cp->tangent_mass[1] = effective_mass(c->a, cp->r_a, c->b, cp->r_b, c->tangent[1]);

        cached_impulse key = { .pair = c->pair, .triangle = c->triangle, .id = cp->id };
        const cached_impulse* old = NULL;
        if (cache_count > 0)
        {
            old = (const cached_impulse*)bsearch(&key, cache, (size_t)cache_count, sizeof(*cache), compare_cached);
        }
        cp->normal_impulse = old != NULL ? old->normal : 0.0f;
        cp->tangent_impulse[0] = old != NULL ? v3_dot(old->friction, c->tangent[0]) : 0.0f;
        cp->tangent_impulse[1] = old != NULL ? v3_dot(old->friction, c->tangent[1]) : 0.0f;
    }
}

/* The separation of a point now: the manifold's, plus how far the two material points that were at the
 * anchor have moved apart along the normal since the start of the step. */
static float current_separation(const contact_constraint* c, const contact_point* cp)
{
    vec3 wa, wb;
    px_quat_rotate(c->a->pose.q, cp->local_a, wa);
    px_quat_rotate(c->b->pose.q, cp->local_b, wb);
    float moved = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        moved += (c->b->pose.p[k] + wb[k] - c->a->pose.p[k] - wa[k]) * c->normal[k];
    }
    return cp->separation + moved;
}

/* The total impulse of a point (normal and friction) as a world vector. */
static void point_impulse(const contact_constraint* c, const contact_point* cp, vec3 dest)
{
    vec3 p = { 0.0f, 0.0f, 0.0f };
    v3_add_scaled(c->normal, cp->normal_impulse, p);
    v3_add_scaled(c->tangent[0], cp->tangent_impulse[0], p);
    v3_add_scaled(c->tangent[1], cp->tangent_impulse[1], p);
    memcpy(dest, p, sizeof(vec3));
}

/* Apply the accumulated impulses: each substep starts from what the constraint needed last time. */
static void constraint_warm_start(contact_constraint* c)
{
    for (int i = 0; i < c->point_count; ++i)
    {
        vec3 p;
        point_impulse(c, &c->points[i], p);
        apply_contact_impulse(c->a, c->points[i].r_a, c->b, c->points[i].r_b, p);
    }
}

/* Relative velocity of b with respect to a at a point. */
static void relative_velocity(const contact_constraint* c, const contact_point* cp, vec3 dest)
{
    vec3 va, vb;
    body_point_velocity(c->a, cp->r_a, va);
    body_point_velocity(c->b, cp->r_b, vb);
    for (int k = 0; k < 3; ++k)
    {
        dest[k] = vb[k] - va[k];
    }
}

/* A soft constraint (Catto, "Soft Constraints", GDC 2011, and the Solver2D posts): instead of removing all
 * of the penetration at once (which makes stacks jitter), the contact acts as a stiff, heavily damped spring
 * of the given frequency, integrated implicitly over the substep h. bias_rate turns a penetration into a
 * push-out speed; mass_scale and impulse_scale soften the impulse. As the frequency grows they tend to a
 * rigid constraint's 1/h, 1 and 0. */
typedef struct softness
{
    float bias_rate;
    float mass_scale;
    float impulse_scale;
} softness;

static softness make_softness(float hertz, float damping_ratio, float h)
{
    float omega = 2.0f * 3.14159265f * hertz;
    float a1 = 2.0f * damping_ratio + h * omega;
    float a2 = h * omega * a1;
    float a3 = 1.0f / (1.0f + a2);
    return (softness){ .bias_rate = omega / a1, .mass_scale = a2 * a3, .impulse_scale = a3 };
}

/* One Gauss-Seidel pass over a manifold. The normal impulse keeps the bodies from approaching:
 * - a point still apart (speculative contact) may close its gap within the substep, no more;
 * - a penetrating one, when use_bias, is pushed out softly by its depth beyond the slop; the relax pass
 *   (use_bias false) then removes the push-out speed so it does not turn into motion.
 * Friction comes after it, bounded by mu times the normal impulse. Each impulse is clamped as an accumulated
 * total, so an iteration may take back what an earlier one applied too much of. */
static void constraint_solve(contact_constraint* c, const softness* soft, float inv_h, bool use_bias)
{
    for (int i = 0; i < c->point_count; ++i)
    {
        contact_point* cp = &c->points[i];
        float s = current_separation(c, cp);
        float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
        if (s > 0.0f)
        {
            bias = s * inv_h;
        }
        else if (use_bias)
        {
            bias = fmaxf(soft->bias_rate * fminf(s + PENETRATION_SLOP, 0.0f), -MAX_PUSH_SPEED);
            mass_scale = soft->mass_scale;
            impulse_scale = soft->impulse_scale;
        }
        vec3 dv, p = { 0.0f, 0.0f, 0.0f };
        relative_velocity(c, cp, dv);
        float vn = v3_dot(dv, c->normal);
        float delta = -cp->normal_mass * mass_scale * (vn + bias) - impulse_scale * cp->normal_impulse;
        float total = fmaxf(cp->normal_impulse + delta, 0.0f);
        v3_add_scaled(c->normal, total - cp->normal_impulse, p);
        cp->normal_impulse = total;
        apply_contact_impulse(c->a, cp->r_a, c->b, cp->r_b, p);
    }
    for (int i = 0; i < c->point_count; ++i)
    {
        contact_point* cp = &c->points[i];
        float limit = FRICTION * cp->normal_impulse;
        for (int t = 0; t < 2; ++t)
        {
            vec3 dv, p = { 0.0f, 0.0f, 0.0f };
            relative_velocity(c, cp, dv);
            float delta = -cp->tangent_mass[t] * v3_dot(dv, c->tangent[t]);
            float total = fminf(fmaxf(cp->tangent_impulse[t] + delta, -limit), limit);
            v3_add_scaled(c->tangent[t], total - cp->tangent_impulse[t], p);
            cp->tangent_impulse[t] = total;
            apply_contact_impulse(c->a, cp->r_a, c->b, cp->r_b, p);
        }
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* The scene                                                                                        */

typedef struct scene
{
    px_world* world;
    px_mesh* ground_mesh;
    px_thread_pool* pool;
    body bodies[BODY_CAPACITY]; /* [0] is the ground; px_world user data points here */
    int body_count;
    int stacks[STACK_COUNT][STACK_HEIGHT]; /* body indices, bottom to top */

    contact_constraint* constraints; /* this step's, one per world contact */
    int constraint_capacity;
    cached_impulse* cache; /* last step's impulses, sorted */
    int cache_count;
    int cache_capacity;

    /* for the report */
    int contact_count;
    int point_count;
    float max_penetration;
    int warnings;
} scene;

/* Height of the ground at x (it does not depend on z). */
static float ground_height(float x)
{
    return x > RAMP_START ? RAMP_SLOPE * (x - RAMP_START) : 0.0f;
}

/* The ground: a grid of vertices at the ground height, two triangles per cell facing up. The mesh keeps
 * its own copy of the arrays. */
static px_status create_ground_mesh(px_mesh** mesh)
{
    enum { N = GROUND_CELLS + 1 };
    float* vertices = (float*)malloc(sizeof(float) * N * N * 3);
    int32_t* indices = (int32_t*)malloc(sizeof(int32_t) * GROUND_CELLS * GROUND_CELLS * 6);
    if (vertices == NULL || indices == NULL)
    {
        free(vertices);
        free(indices);
        return PX_ERR_OUT_OF_MEMORY;
    }
    const float cell = 2.0f * GROUND_HALF_SIZE / (float)GROUND_CELLS;
    for (int i = 0; i < N; ++i)
    {
        for (int j = 0; j < N; ++j)
        {
            float* v = &vertices[3 * (i * N + j)];
            v[0] = -GROUND_HALF_SIZE + cell * (float)i;
            v[2] = -GROUND_HALF_SIZE + cell * (float)j;
            v[1] = ground_height(v[0]);
        }
    }
    int32_t* t = indices;
    for (int i = 0; i < GROUND_CELLS; ++i)
    {
        for (int j = 0; j < GROUND_CELLS; ++j)
        {
            int32_t v00 = i * N + j, v10 = (i + 1) * N + j, v01 = i * N + j + 1, v11 = (i + 1) * N + j + 1;
            int32_t cell_triangles[6] = { v00, v01, v11, v00, v11, v10 };
            memcpy(t, cell_triangles, sizeof(cell_triangles));
            t += 6;
        }
    }
    px_status status = px_mesh_create(vertices, N * N, indices, GROUND_CELLS * GROUND_CELLS * 2, NULL, mesh);
    free(vertices);
    free(indices);
    return status;
}

/* Add a body to the world and the scene; its user data is its slot in scene->bodies, so a contact leads
 * straight to the solver's body. A box gets the mass and inertia of its half extents; NULL half extents
 * (the ground) mean infinite mass. index (may be NULL) receives the slot. */
static px_status add_body(scene* s, const px_body_def* def, const vec3 half_extents, int* index)
{
    if (s->body_count == BODY_CAPACITY)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    body* b = &s->bodies[s->body_count];
    memset(b, 0, sizeof(*b));
    b->pose = def->pose;
    memcpy(b->start, def->pose.p, sizeof(vec3));
    if (half_extents != NULL && def->type == PX_BODY_MOVING)
    {
        vec3 e; /* full edge lengths */
        for (int k = 0; k < 3; ++k)
        {
            b->half_extents[k] = half_extents[k];
            e[k] = 2.0f * half_extents[k];
        }
        b->mass = DENSITY * e[0] * e[1] * e[2];
        b->inv_mass = 1.0f / b->mass;
        /* a solid box: I_x = m (e_y^2 + e_z^2) / 12, and so on */
        b->inv_inertia_local[0] = 12.0f / (b->mass * (e[1] * e[1] + e[2] * e[2]));
        b->inv_inertia_local[1] = 12.0f / (b->mass * (e[0] * e[0] + e[2] * e[2]));
        b->inv_inertia_local[2] = 12.0f / (b->mass * (e[0] * e[0] + e[1] * e[1]));
    }
    body_update_axes(b);
    px_body_def d = *def;
    d.user_data = b;
    px_status status = px_world_create_body(s->world, &d, &b->id);
    if (status == PX_OK && index != NULL)
    {
        *index = s->body_count;
    }
    s->body_count += status == PX_OK ? 1 : 0;
    return status;
}

static px_status add_box(scene* s, const vec3 half_extents, const vec3 position, const versor orientation,
                         int* index)
{
    px_body_def def = px_body_default_def();
    def.type = PX_BODY_MOVING;
    def.shape = px_shape_box(half_extents);
    memcpy(def.pose.p, position, sizeof(vec3));
    memcpy(def.pose.q, orientation, sizeof(versor));
    px_status status = px_transform_normalized(&def.pose, &def.pose);
    return status == PX_OK ? add_body(s, &def, half_extents, index) : status;
}

static px_status scene_create(scene* s, int threads)
{
    memset(s, 0, sizeof(*s));
    px_world_def world_def = px_world_default_def();
    if (threads > 1)
    {
        px_status status = px_thread_pool_create(threads, NULL, &s->pool);
        if (status != PX_OK)
        {
            return status;
        }
        world_def.tasks = px_thread_pool_task_system(s->pool);
    }
    px_status status = px_world_create(&world_def, &s->world);
    if (status == PX_OK)
    {
        status = create_ground_mesh(&s->ground_mesh);
    }
    if (status == PX_OK)
    {
        px_body_def ground = px_body_default_def(); /* body 0 */
        ground.type = PX_BODY_STATIC;
        ground.mesh = s->ground_mesh;
        status = add_body(s, &ground, NULL, NULL);
    }

    /* three stacks of five unit cubes, each box shifted a little off the one below and started 1 cm
     * above it */
    const vec3 cube = { 0.5f, 0.5f, 0.5f };
    const versor upright = { 0.0f, 0.0f, 0.0f, 1.0f };
    for (int i = 0; i < STACK_COUNT && status == PX_OK; ++i)
    {
        for (int j = 0; j < STACK_HEIGHT && status == PX_OK; ++j)
        {
            float shift = 0.02f * (float)((i + j) % 3 - 1);
            vec3 p = { -7.0f + 2.0f * (float)i + shift, 0.51f + 1.01f * (float)j, -1.0f + shift };
            status = add_box(s, cube, p, upright, &s->stacks[i][j]);
        }
    }

    /* boxes dropped tilted from a few metres, two of them onto the ramp */
    static const struct
    {
        vec3 half_extents;
        vec3 position;
        versor orientation; /* normalized by add_box */
    } drops[DROP_COUNT] = {
        { { 0.4f, 0.3f, 0.6f }, { -4.0f, 4.0f, 3.5f }, { 0.3f, 0.2f, 0.1f, 1.0f } },
        { { 0.5f, 0.25f, 0.5f }, { -1.0f, 6.0f, -3.5f }, { -0.2f, 0.5f, 0.4f, 1.0f } },
        { { 0.6f, 0.3f, 0.4f }, { 6.5f, 3.0f, 2.0f }, { 0.1f, 0.7f, 0.0f, 1.0f } },
        { { 0.35f, 0.35f, 0.35f }, { 7.5f, 5.0f, -2.5f }, { 0.4f, 0.0f, 0.3f, 1.0f } },
    };
    for (int i = 0; i < DROP_COUNT && status == PX_OK; ++i)
    {
        status = add_box(s, drops[i].half_extents, drops[i].position, drops[i].orientation, NULL);
    }
    return status;
}

static void scene_destroy(scene* s)
{
    px_world_destroy(s->world);
    px_mesh_destroy(s->ground_mesh);
    px_thread_pool_destroy(s->pool);
    free(s->constraints);
    free(s->cache);
    memset(s, 0, sizeof(*s));
}

/* Make room for this step's constraints and points (realloc keeps last step's impulses in the cache). */
static bool scene_reserve(scene* s, int constraints, int points)
{
    if (constraints > s->constraint_capacity)
    {
        void* p = realloc(s->constraints, (size_t)constraints * sizeof(*s->constraints));
        if (p == NULL)
        {
            return false;
        }
        s->constraints = (contact_constraint*)p;
        s->constraint_capacity = constraints;
    }
    if (points > s->cache_capacity)
    {
        void* p = realloc(s->cache, (size_t)points * sizeof(*s->cache));
        if (p == NULL)
        {
            return false;
        }
        s->cache = (cached_impulse*)p;
        s->cache_capacity = points;
    }
    return true;
}

/* Remember this step's impulses for the next one, sorted for bsearch. */
static void store_impulses(scene* s, int constraint_count)
{
    int n = 0;
    for (int i = 0; i < constraint_count; ++i)
    {
        const contact_constraint* c = &s->constraints[i];
        for (int j = 0; j < c->point_count; ++j)
        {
            const contact_point* cp = &c->points[j];
            cached_impulse* e = &s->cache[n++];
            e->pair = c->pair;
            e->triangle = c->triangle;
            e->id = cp->id;
            e->normal = cp->normal_impulse;
            v3_set(0.0f, 0.0f, 0.0f, e->friction);
            v3_add_scaled(c->tangent[0], cp->tangent_impulse[0], e->friction);
            v3_add_scaled(c->tangent[1], cp->tangent_impulse[1], e->friction);
        }
    }
    if (n > 1)
    {
        qsort(s->cache, (size_t)n, sizeof(*s->cache), compare_cached);
    }
    s->cache_count = n;
}

/* One time step. */
static px_status scene_step(scene* s, float dt)
{
    /* 1. collision detection at the current poses */
    px_status status = px_world_update(s->world);
    if (status < 0)
    {
        return status;
    }
    s->warnings += status > 0 ? 1 : 0;
    int count = 0;
    const px_world_contact* contacts = px_world_contacts(s->world, &count);
    int points = 0;
    for (int i = 0; i < count; ++i)
    {
        points += contacts[i].manifold.count;
    }
    if (!scene_reserve(s, count, points))
    {
        return PX_ERR_OUT_OF_MEMORY;
    }

    /* 2 and 3. one constraint per manifold, its points warm-started from the cache */
    s->contact_count = count;
    s->point_count = 0;
    s->max_penetration = 0.0f;
    for (int i = 0; i < count; ++i)
    {
        contact_constraint* c = &s->constraints[i];
        constraint_init(c, s->world, &contacts[i], s->cache, s->cache_count);
        s->point_count += c->point_count;
        for (int j = 0; j < c->point_count; ++j)
        {
            s->max_penetration = fmaxf(s->max_penetration, -c->points[j].separation);
        }
    }

    /* 4. substeps: gravity, warm start, solve, move, relax. The contacts stay those of step 1; their
     * separations follow the bodies. Body 0, the ground, never moves. */
    float h = dt / (float)SUBSTEPS;
    softness soft = make_softness(CONTACT_HERTZ, CONTACT_DAMPING_RATIO, h);
    for (int sub = 0; sub < SUBSTEPS; ++sub)
    {
        for (int i = 1; i < s->body_count; ++i)
        {
            s->bodies[i].velocity[1] -= GRAVITY * h;
        }
        for (int i = 0; i < count; ++i)
        {
            constraint_warm_start(&s->constraints[i]);
        }
        for (int it = 0; it < ITERATIONS; ++it)
        {
            for (int i = 0; i < count; ++i)
            {
                constraint_solve(&s->constraints[i], &soft, 1.0f / h, true);
            }
        }
        for (int i = 1; i < s->body_count; ++i)
        {
            body_integrate_pose(&s->bodies[i], h);
        }
        for (int it = 0; it < ITERATIONS; ++it)
        {
            for (int i = 0; i < count; ++i)
            {
                constraint_solve(&s->constraints[i], &soft, 1.0f / h, false);
            }
        }
    }
    store_impulses(s, count);

    /* 5. tell the world where the bodies went */
    for (int i = 1; i < s->body_count; ++i)
    {
        body* b = &s->bodies[i];
        body_update_axes(b);
        status = px_world_set_pose(s->world, b->id, &b->pose);
        if (status != PX_OK)
        {
            return status; /* NaN or Inf: the simulation blew up */
        }
    }
    return PX_OK;
}

static float scene_kinetic_energy(const scene* s)
{
    float e = 0.0f;
    for (int i = 0; i < s->body_count; ++i)
    {
        e += body_kinetic_energy(&s->bodies[i]);
    }
    return e;
}

static float scene_total_mass(const scene* s)
{
    float m = 0.0f;
    for (int i = 0; i < s->body_count; ++i)
    {
        m += s->bodies[i].mass;
    }
    return m;
}

static float scene_highest(const scene* s)
{
    float y = -INFINITY;
    for (int i = 1; i < s->body_count; ++i)
    {
        y = fmaxf(y, s->bodies[i].pose.p[1]);
    }
    return y;
}

/* ------------------------------------------------------------------------------------------------ */
/* Checks                                                                                           */

static bool body_is_finite(const body* b)
{
    bool ok = true;
    for (int k = 0; k < 3; ++k)
    {
        ok = ok && isfinite(b->pose.p[k]) && isfinite(b->velocity[k]) && isfinite(b->angular_velocity[k]);
    }
    for (int k = 0; k < 4; ++k)
    {
        ok = ok && isfinite(b->pose.q[k]);
    }
    return ok;
}

/* How far the lowest corner of a posed box is above the ground under it (negative: below). */
static float box_height_above_ground(const body* b)
{
    float lowest = INFINITY;
    for (int corner = 0; corner < 8; ++corner)
    {
        vec3 p;
        memcpy(p, b->pose.p, sizeof(vec3));
        for (int k = 0; k < 3; ++k)
        {
            float sign = (corner >> k & 1) != 0 ? 1.0f : -1.0f;
            v3_add_scaled(b->axes[k], sign * b->half_extents[k], p);
        }
        lowest = fminf(lowest, p[1] - ground_height(p[0]));
    }
    return lowest;
}

/* Every failed check prints a line; returns the number of failures. */
static int check_resting(const scene* s)
{
    int failures = 0;
    for (int i = 1; i < s->body_count; ++i)
    {
        const body* b = &s->bodies[i];
        if (!body_is_finite(b))
        {
            printf("FAIL: body %d has a non-finite pose or velocity\n", i);
            ++failures;
            continue;
        }
        float height = box_height_above_ground(b);
        if (height < -CHECK_MAX_PENETRATION)
        {
            printf("FAIL: body %d is %.4f m below the ground\n", i, (double)-height);
            ++failures;
        }
    }
    /* a stack stands when every box is upright, sits on the one below, and has not slid on it */
    for (int i = 0; i < STACK_COUNT; ++i)
    {
        for (int j = 0; j < STACK_HEIGHT; ++j)
        {
            const body* box = &s->bodies[s->stacks[i][j]];
            const body* below = &s->bodies[j > 0 ? s->stacks[i][j - 1] : 0]; /* the ground never moves */
            float slide_x = (box->pose.p[0] - box->start[0]) - (below->pose.p[0] - below->start[0]);
            float slide_z = (box->pose.p[2] - box->start[2]) - (below->pose.p[2] - below->start[2]);
            float slide = sqrtf(slide_x * slide_x + slide_z * slide_z);
            float gap = j > 0 ? box->pose.p[1] - below->pose.p[1] - below->half_extents[1] - box->half_extents[1]
                              : box_height_above_ground(box);
            float up = box->axes[1][1];
            if (slide > CHECK_STACK_SLIDE || fabsf(gap) > CHECK_STACK_GAP || up < 0.99f)
            {
                printf("FAIL: stack %d box %d fell: slid %.4f m, gap %.4f m, up %.4f\n", i, j, (double)slide,
                       (double)gap, (double)up);
                ++failures;
            }
        }
    }
    if (s->max_penetration > CHECK_MAX_PENETRATION)
    {
        printf("FAIL: max penetration %.4f m > %.4f m\n", (double)s->max_penetration,
               (double)CHECK_MAX_PENETRATION);
        ++failures;
    }
    float rms_speed = sqrtf(2.0f * scene_kinetic_energy(s) / scene_total_mass(s));
    if (!(rms_speed < CHECK_RMS_SPEED))
    {
        printf("FAIL: not at rest: rms speed %.4f m/s >= %.4f\n", (double)rms_speed, (double)CHECK_RMS_SPEED);
        ++failures;
    }
    return failures;
}

/* ------------------------------------------------------------------------------------------------ */
/* Main                                                                                             */

static void print_row(const scene* s, int step)
{
    printf("%5d %6.3f %6d %8d %6d %10.5f %12.5f %8.3f\n", step, (double)((float)step * TIME_STEP), s->body_count,
           s->contact_count, s->point_count, (double)s->max_penetration, (double)scene_kinetic_energy(s),
           (double)scene_highest(s));
}

/* How much run() prints. */
typedef enum output
{
    OUTPUT_NONE,    /* nothing, and no checks (a reference run) */
    OUTPUT_SUMMARY, /* the summary and the failed checks */
    OUTPUT_ALL,     /* a row every PRINT_EVERY steps too */
} output;

/* Build the scene and run it; the final poses go to poses[BODY_CAPACITY]. Returns the number of failed
 * checks, or -1 when proxima reported an error. */
static int run(int threads, output out, px_transform* poses)
{
    scene* s = (scene*)calloc(1, sizeof(scene));
    if (s == NULL)
    {
        return -1;
    }
    px_status status = scene_create(s, threads);
    if (status != PX_OK)
    {
        fprintf(stderr, "scene creation failed: %s\n", px_status_string(status));
        scene_destroy(s);
        free(s);
        return -1;
    }
    if (out == OUTPUT_ALL)
    {
        printf("%d boxes on a mesh ground of %d triangles, %d narrowphase thread(s), %d substeps of %d + %d "
               "iterations\n",
               s->body_count - 1, px_mesh_triangle_count(s->ground_mesh), threads, SUBSTEPS, ITERATIONS,
               ITERATIONS);
        printf(" step   time bodies contacts points max_penetr  kinetic [J]  highest\n");
    }
    for (int step = 1; step <= STEP_COUNT && status == PX_OK; ++step)
    {
        status = scene_step(s, TIME_STEP);
        if (out == OUTPUT_ALL && (step % PRINT_EVERY == 0 || step == 1))
        {
            print_row(s, step);
        }
    }
    int failures = -1;
    if (status != PX_OK)
    {
        fprintf(stderr, "step failed: %s\n", px_status_string(status));
    }
    else
    {
        failures = out == OUTPUT_NONE ? 0 : check_resting(s);
        if (out != OUTPUT_NONE)
        {
            float energy = scene_kinetic_energy(s);
            printf("summary: %.2f s in %d steps, %d boxes, %d contacts, %d points, max penetration %.4f m, "
                   "kinetic energy %.3g J (rms speed %.2g m/s), highest box at %.3f m, %d narrowphase warnings: "
                   "%s\n",
                   (double)((float)STEP_COUNT * TIME_STEP), STEP_COUNT, s->body_count - 1, s->contact_count,
                   s->point_count, (double)s->max_penetration, (double)energy,
                   (double)sqrtf(2.0f * energy / scene_total_mass(s)), (double)scene_highest(s), s->warnings,
                   failures == 0 ? "at rest, stacks standing" : "FAILED");
        }
        for (int i = 0; i < s->body_count; ++i)
        {
            poses[i] = s->bodies[i].pose;
        }
    }
    scene_destroy(s);
    free(s);
    return failures;
}

int main(int argc, char** argv)
{
    int threads = 1;
    bool check_determinism = false;
    output out = OUTPUT_ALL;
    for (int i = 1; i < argc; ++i)
    {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
        {
            threads = atoi(argv[++i]);
        }
        else if (strcmp(argv[i], "--check-determinism") == 0)
        {
            check_determinism = true;
        }
        else if (strcmp(argv[i], "--quiet") == 0)
        {
            out = OUTPUT_SUMMARY;
        }
        else
        {
            threads = 0; /* usage */
            break;
        }
    }
    if (threads < 1 || threads > 256)
    {
        fprintf(stderr, "usage: %s [--threads N (1..256)] [--check-determinism] [--quiet]\n", argv[0]);
        return 2;
    }

    static px_transform poses[BODY_CAPACITY], reference[BODY_CAPACITY];
    if (run(threads, out, poses) != 0)
    {
        return 1;
    }
    if (check_determinism)
    {
        if (run(1, OUTPUT_NONE, reference) != 0)
        {
            return 1;
        }
        bool same = true;
        for (int i = 0; i < BODY_CAPACITY; ++i) /* bitwise, field by field (px_transform has padding) */
        {
            same = same && memcmp(poses[i].q, reference[i].q, sizeof(versor)) == 0 &&
                   memcmp(poses[i].p, reference[i].p, sizeof(vec3)) == 0;
        }
        if (!same)
        {
            printf("FAIL: the final poses with %d thread(s) differ from those on one thread\n", threads);
            return 1;
        }
        printf("determinism: the final poses with %d thread(s) and with one are bit-identical\n", threads);
    }
    return 0;
}
