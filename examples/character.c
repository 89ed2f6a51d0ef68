/* A kinematic character controller, as a game would build one on proxima: a capsule walking over a level.
 *
 *   usage: character_example [LEVEL.obj | --generated] [--png FILE | --ppm FILE]
 *
 * The level is the OBJ file given, else dungeon.obj from the shared data folder when it is there, else (and
 * always with --generated) a small level built below: a floor with walls, a 20-degree ramp up to a platform,
 * a 55-degree slope, 0.3 m steps and a 0.6 m block. The character is a capsule of radius 0.4 and half height
 * 0.5 (1.8 m tall, its axis along y). It walks to a list of waypoints at 4 m/s, one tick of 1/60 s at a
 * time, and the program prints where it is every half second, then a summary. With --png or --ppm it also
 * draws the path in red over a top-down picture of the level's walkable surface: the level rasterized into a
 * heightfield (px_heightfield_rasterize_mesh and Recast's filters for this character), each column green
 * where a character can stand, red where not, brighter when higher. On a level read from a file the
 * waypoints are chosen on that heightfield.
 *
 * The controller is the classic one. The character has a position (the capsule's centre), a vertical speed
 * and a ground state; every query is a capsule against the level mesh. One tick (character_update):
 *
 *  1. Depenetration. px_mesh_shape_contacts gives every triangle closer than a skin of 1 cm with its signed
 *     distance and normal; the capsule is pushed out along the deepest contact's normal until it is a skin
 *     away from everything. Sweeps never end in contact, so this only acts on bad starts.
 *  2. Collide and slide. The capsule is swept (px_mesh_shape_cast) along the motion asked for; it stops a
 *     skin short of the first contact, the rest of the motion is projected onto the surface it hit, and the
 *     sweep is repeated (at most 4 times; in a corner between two surfaces it follows their crease). While
 *     walking, a surface too steep to stand on (more than 45 degrees from +y) counts as a vertical wall: the
 *     character slides along it and never up it. On the ground the motion follows the ground's slope.
 *  3. Step climbing. When a wall stops it, the capsule is moved up by the largest step (0.35 m), forward,
 *     then down again. The step is kept only if that gets it further and it lands on walkable ground no
 *     higher than a step above its feet.
 *  4. Ground. A short downward sweep (the ground probe) finds the floor under the capsule, its normal and
 *     whether it is walkable. A character on the ground is snapped down onto it (walking down slopes and
 *     steps); without walkable ground within a step it falls under gravity, sliding down steep slopes,
 *     until it lands. A capsule resting on the edge of a ledge or a step touches it with a slanted normal:
 *     a short ray just beyond the contact tells whether there is a walkable face there to stand on (without
 *     this the rounded bottom slides back off every step it climbs).
 *
 * The program checks the controller: it fails (exit status 1) when the character falls through the floor
 * or off the level (its centre below the level's lowest point), ends overlapping the level
 * (px_mesh_shape_distance), a query fails, or, on the generated level, when it misses a waypoint it must
 * reach, reaches one it must not (the top of the steep slope, the top of the high block), or stands at the
 * wrong height there. Bad arguments give exit status 2. */
#include <proxima/proxima.h>

#include <cglm/vec3.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef CHARACTER_HAVE_STB
/* stb is third-party code that does not compile cleanly with our warnings: silence them for it only */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

/* Where dungeon.obj is looked for when no level is given (CMake passes PROXIMA_DATA_DIR) */
#ifndef CHARACTER_DATA_DIR
#define CHARACTER_DATA_DIR "../shared/data"
#endif

/* The character [Units: metres, seconds] */
#define CAPSULE_RADIUS 0.4f
#define CAPSULE_HALF_HEIGHT 0.5f
#define FEET (CAPSULE_HALF_HEIGHT + CAPSULE_RADIUS) /* from the capsule's centre down to its lowest point */
#define SKIN 0.01f              /* gap kept between the capsule and the level */
#define MAX_SLOPE_DEGREES 45.0f /* steepest walkable ground */
#define MAX_STEP 0.35f          /* highest step climbed, and how far the ground probe snaps down */
#define WALK_SPEED 4.0f
#define GRAVITY 9.81f
#define MAX_FALL_SPEED 50.0f
#define TICK (1.0f / 60.0f)
#define SLIDE_ITERATIONS 4
#define DEPENETRATION_ITERATIONS 4
#define MAX_CONTACTS 16
#define LEDGE_PROBE 0.05f /* how far beyond a ledge's edge the ground must go on to be stood on */

/* Following waypoints */
#define REACH_RADIUS 0.2f  /* a waypoint is reached within this horizontal distance */
#define STUCK_TICKS 45     /* give up a waypoint after this many ticks without getting 5 cm closer */
#define MAX_LEG_TICKS 1200 /* and after 20 s in any case */
#define PRINT_EVERY 30     /* ticks between two lines of the path */
#define MAX_WAYPOINTS 16

/* Report a broken expectation (after what the path printed so far). */
static void fail(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    fflush(stdout);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, format, args);
    fflush(stderr);
    va_end(args);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Vectors: cglm takes non-const arrays, so these small helpers work on floats */

static float horizontal_distance(const float* a, const float* b)
{
    const float dx = b[0] - a[0], dz = b[2] - a[2];
    return sqrtf(dx * dx + dz * dz);
}

static px_transform capsule_pose(const float* centre)
{
    px_transform pose = PX_TRANSFORM_IDENTITY_INIT;
    pose.p[0] = centre[0];
    pose.p[1] = centre[1];
    pose.p[2] = centre[2];
    return pose;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The controller */

/* What every query needs: the level, the capsule, and counts of what went wrong */
typedef struct controller
{
    const px_mesh* mesh;
    px_shape capsule;
    float min_ground_normal_y; /* cos(MAX_SLOPE_DEGREES) */
    int query_errors;          /* queries that failed (the controller's checks fail with them) */
    int query_warnings;        /* queries that hit an iteration bound (their result is still used) */
} controller;

/* The character's state between ticks */
typedef struct character
{
    vec3 position;        /* centre of the capsule */
    float vertical_speed; /* while falling */
    bool grounded;
    vec3 ground_normal; /* of the ground it stands on (+y in the air) */
} character;

/* What one tick did */
typedef struct tick_report
{
    float asked;       /* horizontal length of the motion asked for */
    float moved;       /* horizontal length of the motion done */
    bool hit_wall;     /* the move met a wall or a steep slope */
    bool stepped;      /* it climbed a step */
    bool depenetrated; /* it had to be pushed out of the level */
} tick_report;

static bool query_ok(controller* c, px_status status, const char* query)
{
    if (PX_FAILED(status))
    {
        fprintf(stderr, "%s failed: %s\n", query, px_status_string(status));
        c->query_errors++;
        return false;
    }
    c->query_warnings += status != PX_OK;
    return true;
}

static bool is_walkable(const controller* c, const float* normal)
{
    return normal[1] >= c->min_ground_normal_y;
}

/* Sweep the capsule from centre along motion. False (and *hit cleared) when the query failed. */
static bool sweep(controller* c, const float* centre, const float* motion, px_mesh_cast_result* hit)
{
    const px_transform pose = capsule_pose(centre);
    return query_ok(c, px_mesh_shape_cast(c->mesh, NULL, &c->capsule, &pose, motion, hit), "px_mesh_shape_cast");
}

/* Contacts of the capsule at centre closer than margin (negative distances: penetration). */
static int contacts_at(controller* c, const float* centre, float margin, px_mesh_contact* contacts)
{
    const px_transform pose = capsule_pose(centre);
    int count = 0;
    if (!query_ok(c, px_mesh_shape_contacts(c->mesh, NULL, &c->capsule, &pose, margin, contacts, MAX_CONTACTS, &count),
                  "px_mesh_shape_contacts"))
    {
        return 0;
    }
    return count < MAX_CONTACTS ? count : MAX_CONTACTS; /* the deepest MAX_CONTACTS were kept */
}

/* Step 1: push the capsule out along the deepest contact's normal until it is a skin away from the level.
 * *pushed tells whether it moved, *penetrated whether it really overlapped (not just closer than the skin).
 * Returns false when it still overlaps after DEPENETRATION_ITERATIONS pushes. */
static bool depenetrate(controller* c, float* centre, bool* pushed, bool* penetrated)
{
    px_mesh_contact contacts[MAX_CONTACTS];
    for (int iteration = 0; iteration < DEPENETRATION_ITERATIONS; ++iteration)
    {
        const int count = contacts_at(c, centre, 0.5f * SKIN, contacts);
        int deepest = -1;
        for (int i = 0; i < count; ++i)
        {
            if (deepest < 0 || contacts[i].distance < contacts[deepest].distance)
            {
                deepest = i;
            }
        }
        if (deepest < 0)
        {
            return true;
        }
        glm_vec3_muladds(contacts[deepest].normal, SKIN - contacts[deepest].distance, centre);
        *pushed = true;
        *penetrated = *penetrated || contacts[deepest].distance < 0.0f;
    }
    const int count = contacts_at(c, centre, 0.0f, contacts);
    for (int i = 0; i < count; ++i)
    {
        if (contacts[i].distance < 0.0f)
        {
            return false;
        }
    }
    return true;
}

typedef enum slide_mode
{
    SLIDE_WALK, /* surfaces too steep to stand on deflect the motion as vertical walls */
    SLIDE_FALL  /* every surface deflects the motion as it is: steep slopes are slid down */
} slide_mode;

/* Step 2: collide and slide. Moves centre along motion, sliding along what it meets; returns whether a
 * wall (or a surface too steep to walk on) was met. */
static bool slide(controller* c, float* centre, const float* motion, slide_mode mode)
{
    vec3 asked = { motion[0], motion[1], motion[2] };
    vec3 remaining = { motion[0], motion[1], motion[2] };
    vec3 planes[2];
    int plane_count = 0;
    bool hit_wall = false;
    for (int iteration = 0; iteration < SLIDE_ITERATIONS; ++iteration)
    {
        const float length = glm_vec3_norm(remaining);
        px_mesh_cast_result hit;
        if (length < 1e-5f || !sweep(c, centre, remaining, &hit))
        {
            break;
        }
        if (!hit.hit)
        {
            glm_vec3_add(centre, remaining, centre);
            break;
        }
        if (hit.initial_overlap)
        {
            /* touching at the start: push out, then try the rest of the motion again */
            bool pushed = false, penetrated = false;
            if (!depenetrate(c, centre, &pushed, &penetrated) || !pushed)
            {
                break;
            }
            continue;
        }

        /* stop a skin short of the contact, measured along its normal (capped for grazing hits) */
        vec3 direction;
        glm_vec3_scale(remaining, 1.0f / length, direction);
        const float approach = fmaxf(-glm_vec3_dot(hit.normal, direction), 0.25f);
        const float advance = fmaxf(hit.fraction * length - SKIN / approach, 0.0f);
        glm_vec3_muladds(direction, advance, centre);
        glm_vec3_scale(direction, length - advance, remaining);

        /* the plane to slide on: a steep surface met while walking is a vertical wall */
        vec3 normal = { hit.normal[0], hit.normal[1], hit.normal[2] };
        if (!is_walkable(c, normal) && normal[1] > -0.99f)
        {
            hit_wall = true;
            if (mode == SLIDE_WALK)
            {
                normal[1] = 0.0f;
                glm_vec3_normalize(normal);
            }
        }
        const float into = glm_vec3_dot(remaining, normal);
        if (into < 0.0f)
        {
            glm_vec3_muladds(normal, -into, remaining);
        }
        if (plane_count == 1 && glm_vec3_dot(remaining, planes[0]) < 0.0f)
        {
            /* pushed back into the first surface: follow the crease between the two */
            vec3 crease;
            glm_vec3_cross(planes[0], normal, crease);
            const float crease_length = glm_vec3_norm(crease);
            if (crease_length < 1e-4f)
            {
                break;
            }
            glm_vec3_scale(crease, 1.0f / crease_length, crease);
            glm_vec3_scale(crease, glm_vec3_dot(remaining, crease), remaining);
        }
        else if (plane_count == 2)
        {
            break; /* a third surface: a corner, stop there */
        }
        if (plane_count < 2)
        {
            glm_vec3_copy(normal, planes[plane_count++]);
        }
        /* never turn back against the motion asked for (that jitters in corners) */
        if (glm_vec3_dot(remaining, asked) <= 0.0f)
        {
            break;
        }
    }
    return hit_wall;
}

/* The ground under the capsule, as the ground probe finds it */
typedef struct ground
{
    bool found;    /* something within the probe's distance */
    bool walkable; /* it can be stood on */
    float drop;    /* how far down the capsule can move and keep a skin from it */
    float height;  /* y of the contact */
    vec3 normal;   /* normal of the surface stood on */
} ground;

/* A capsule resting on the edge of a ledge touches it with a slanted normal. It stands on the ledge when a
 * short ray just beyond the contact (away from the capsule's axis) hits a walkable face there. */
static bool ledge_support(controller* c, const float* centre, const px_mesh_cast_result* contact, float* normal)
{
    float out[2] = { contact->point[0] - centre[0], contact->point[2] - centre[2] };
    const float length = sqrtf(out[0] * out[0] + out[1] * out[1]);
    if (length < 1e-4f)
    {
        return false;
    }
    px_ray ray = { { contact->point[0] + out[0] / length * LEDGE_PROBE, contact->point[1] + LEDGE_PROBE,
                     contact->point[2] + out[1] / length * LEDGE_PROBE },
                   { 0.0f, -1.0f, 0.0f },
                   2.0f * LEDGE_PROBE };
    px_ray_hit hit;
    if (!query_ok(c, px_mesh_ray_cast(c->mesh, &ray, &hit), "px_mesh_ray_cast") || !hit.hit ||
        !is_walkable(c, hit.normal))
    {
        return false;
    }
    glm_vec3_copy(hit.normal, normal);
    return true;
}

/* Step 4: the ground probe, a downward sweep of the capsule by distance. */
static ground probe_ground(controller* c, const float* centre, float distance)
{
    ground g = { false, false, 0.0f, 0.0f, { 0.0f, 1.0f, 0.0f } };
    const vec3 down = { 0.0f, -distance, 0.0f };
    px_mesh_cast_result hit;
    if (!sweep(c, centre, down, &hit) || !hit.hit)
    {
        return g;
    }
    g.found = true;
    g.height = hit.point[1];
    if (hit.initial_overlap)
    {
        return g; /* in contact: not standing; the next slide or tick pushes it out */
    }
    g.drop = fmaxf(hit.fraction * distance - SKIN, 0.0f);
    glm_vec3_copy(hit.normal, g.normal);
    g.walkable = is_walkable(c, g.normal) || ledge_support(c, centre, &hit, g.normal);
    return g;
}

/* Step 3: up, forward, down. from is where the tick started, move the horizontal motion asked for and
 * moved_before how far the plain slide got. Writes the new centre and returns true when stepping is better. */
static bool step_up(controller* c, const float* from, const float* move, float moved_before, float* to)
{
    vec3 p = { from[0], from[1], from[2] };
    const vec3 up = { 0.0f, MAX_STEP, 0.0f };
    px_mesh_cast_result hit;
    if (!sweep(c, p, up, &hit) || hit.initial_overlap)
    {
        return false;
    }
    const float rise = hit.hit ? fmaxf(hit.fraction * MAX_STEP - SKIN, 0.0f) : MAX_STEP;
    if (rise < 2.0f * SKIN)
    {
        return false; /* no headroom */
    }
    p[1] += rise;
    slide(c, p, move, SLIDE_WALK);
    if (horizontal_distance(from, p) <= moved_before + 1e-4f)
    {
        return false; /* stepping does not get further */
    }
    const ground g = probe_ground(c, p, rise + SKIN);
    const float feet = from[1] - FEET;
    if (!g.found || !g.walkable || g.height - feet > MAX_STEP + SKIN)
    {
        return false; /* nothing to stand on up there, too steep, or too high */
    }
    p[1] -= g.drop;
    glm_vec3_copy(p, to);
    return true;
}

/* One tick: move the character by velocity (horizontal, what the player or the AI asks for) for dt. */
static tick_report character_update(controller* c, character* ch, const float* velocity, float dt)
{
    tick_report report = { 0.0f, 0.0f, false, false, false };
    float* p = ch->position;

    /* 1. out of the level, should it have started inside */
    bool pushed = false;
    depenetrate(c, p, &pushed, &report.depenetrated);

    /* 2. the horizontal move, following the slope of the ground */
    const vec3 start = { p[0], p[1], p[2] };
    vec3 move = { velocity[0] * dt, 0.0f, velocity[2] * dt };
    report.asked = sqrtf(move[0] * move[0] + move[2] * move[2]);
    vec3 along = { move[0], move[1], move[2] };
    if (ch->grounded)
    {
        glm_vec3_muladds(ch->ground_normal, -glm_vec3_dot(along, ch->ground_normal), along);
        const float flat = sqrtf(along[0] * along[0] + along[2] * along[2]);
        if (flat > 1e-6f)
        {
            glm_vec3_scale(along, fminf(report.asked / flat, 2.0f), along); /* keep the walking speed */
        }
    }
    report.hit_wall = slide(c, p, along, SLIDE_WALK);

    /* 3. blocked by a wall while on the ground: maybe it is a step */
    const float moved = horizontal_distance(start, p);
    if (ch->grounded && report.hit_wall && moved < 0.99f * report.asked)
    {
        vec3 stepped;
        if (step_up(c, start, move, moved, stepped))
        {
            glm_vec3_copy(stepped, p);
            report.stepped = true;
        }
    }

    /* 4. the ground: snap down onto it, or fall */
    if (ch->grounded)
    {
        ground g = probe_ground(c, p, MAX_STEP + SKIN);
        if (g.found && g.walkable)
        {
            p[1] -= g.drop;
            glm_vec3_copy(g.normal, ch->ground_normal);
        }
        else
        {
            ch->grounded = false; /* walked off a ledge or onto a steep slope */
            ch->vertical_speed = 0.0f;
        }
    }
    if (!ch->grounded)
    {
        ch->vertical_speed = fmaxf(ch->vertical_speed - GRAVITY * dt, -MAX_FALL_SPEED);
        const vec3 fall = { 0.0f, ch->vertical_speed * dt, 0.0f };
        slide(c, p, fall, SLIDE_FALL);
        ground g = probe_ground(c, p, 2.0f * SKIN);
        ch->grounded = g.found && g.walkable;
        if (ch->grounded)
        {
            p[1] -= g.drop;
            ch->vertical_speed = 0.0f;
        }
        glm_vec3_copy(g.normal, ch->ground_normal);
    }
    report.moved = horizontal_distance(start, p);
    return report;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The generated level */

#define LEVEL_MAX_VERTICES 1024
#define LEVEL_MAX_TRIANGLES 1536
#define LEVEL_HALF_X 12.0f /* the floor spans [-12, 12] x [-8, 8] */
#define LEVEL_HALF_Z 8.0f
#define WALL_HEIGHT 2.5f

typedef struct level_builder
{
    float vertices[3 * LEVEL_MAX_VERTICES];
    int32_t indices[3 * LEVEL_MAX_TRIANGLES];
    int vertex_count, triangle_count;
} level_builder;

static int32_t add_vertex(level_builder* b, float x, float y, float z)
{
    float* v = &b->vertices[3 * b->vertex_count];
    v[0] = x;
    v[1] = y;
    v[2] = z;
    return b->vertex_count++;
}

/* Two triangles; the corners go counter-clockwise seen from the side the quad faces. */
static void add_quad(level_builder* b, int32_t v0, int32_t v1, int32_t v2, int32_t v3)
{
    const int32_t quad[6] = { v0, v1, v2, v0, v2, v3 };
    memcpy(&b->indices[3 * b->triangle_count], quad, sizeof(quad));
    b->triangle_count += 2;
}

static void add_triangle(level_builder* b, int32_t v0, int32_t v1, int32_t v2)
{
    const int32_t triangle[3] = { v0, v1, v2 };
    memcpy(&b->indices[3 * b->triangle_count], triangle, sizeof(triangle));
    b->triangle_count += 1;
}

/* A closed box from (x0, y0, z0) to (x1, y1, z1), faces outward. */
static void add_box(level_builder* b, float x0, float y0, float z0, float x1, float y1, float z1)
{
    int32_t v[8]; /* corner i is at x1 when bit 0 is set, y1 for bit 1, z1 for bit 2 */
    for (int i = 0; i < 8; ++i)
    {
        v[i] = add_vertex(b, (i & 1) ? x1 : x0, (i & 2) ? y1 : y0, (i & 4) ? z1 : z0);
    }
    add_quad(b, v[2], v[6], v[7], v[3]); /* top */
    add_quad(b, v[0], v[1], v[5], v[4]); /* bottom */
    add_quad(b, v[1], v[3], v[7], v[5]); /* +x */
    add_quad(b, v[0], v[4], v[6], v[2]); /* -x */
    add_quad(b, v[4], v[5], v[7], v[6]); /* +z */
    add_quad(b, v[0], v[2], v[3], v[1]); /* -z */
}

/* A ramp from the floor at x0 up to height at x1 (a wedge over z0 .. z1), steepness in degrees. */
static float add_ramp(level_builder* b, float x0, float z0, float z1, float height, float degrees)
{
    const float x1 = x0 + height / tanf(degrees * (float)GLM_PI / 180.0f);
    const int32_t a = add_vertex(b, x0, 0.0f, z0), bb = add_vertex(b, x0, 0.0f, z1);
    const int32_t top1 = add_vertex(b, x1, height, z1), top0 = add_vertex(b, x1, height, z0);
    const int32_t e = add_vertex(b, x1, 0.0f, z0), f = add_vertex(b, x1, 0.0f, z1);
    add_quad(b, a, bb, top1, top0); /* the slope */
    add_quad(b, e, top0, top1, f);  /* its back, +x */
    add_triangle(b, a, top0, e);    /* the sides */
    add_triangle(b, bb, f, top1);
    add_quad(b, a, e, f, bb); /* bottom */
    return x1;
}

/* The waypoints' purpose on the generated level */
typedef enum waypoint_goal
{
    GOAL_REACH,   /* must be reached */
    GOAL_BLOCKED, /* must not be: the character may not climb there */
    GOAL_TRY      /* a file's waypoint: reached or not, both are fine */
} waypoint_goal;

typedef struct waypoint
{
    float x, z;
    waypoint_goal goal;
    float feet; /* GOAL_REACH: height of the character's feet there (NAN: unchecked) */
    const char* what;
} waypoint;

typedef struct level
{
    px_mesh* mesh;
    char name[256];
    bool generated;
    vec3 start;
    waypoint waypoints[MAX_WAYPOINTS];
    int waypoint_count;
} level;

/* The level: a floor of 1 m quads inside walls; on its south side a 20-degree ramp up to a 1.2 m platform
 * and a 55-degree slope up to a block; a wall across the middle; on the north side a 0.6 m block and two
 * 0.3 m steps. Deterministic: the same triangles every run. */
static bool build_level(level* lv)
{
    level_builder* b = malloc(sizeof(*b));
    if (b == NULL)
    {
        fprintf(stderr, "out of memory\n");
        return false;
    }
    b->vertex_count = b->triangle_count = 0;
    const int columns = 2 * (int)LEVEL_HALF_X, rows = 2 * (int)LEVEL_HALF_Z; /* the floor: 1 m quads */
    for (int x = 0; x <= columns; ++x)
    {
        for (int z = 0; z <= rows; ++z)
        {
            add_vertex(b, (float)x - LEVEL_HALF_X, 0.0f, (float)z - LEVEL_HALF_Z); /* vertex x * (rows + 1) + z */
        }
    }
    for (int x = 0; x < columns; ++x)
    {
        for (int z = 0; z < rows; ++z)
        {
            const int32_t v = x * (rows + 1) + z;
            add_quad(b, v, v + 1, v + rows + 2, v + rows + 1);
        }
    }
    const float hx = LEVEL_HALF_X, hz = LEVEL_HALF_Z, t = 0.5f; /* walls around, 0.5 m thick */
    add_box(b, -hx - t, 0.0f, -hz - t, hx + t, WALL_HEIGHT, -hz);
    add_box(b, -hx - t, 0.0f, hz, hx + t, WALL_HEIGHT, hz + t);
    add_box(b, -hx - t, 0.0f, -hz, -hx, WALL_HEIGHT, hz);
    add_box(b, hx, 0.0f, -hz, hx + t, WALL_HEIGHT, hz);

    const float platform_x = add_ramp(b, -7.0f, -7.5f, -3.5f, 1.2f, 20.0f); /* walkable */
    add_box(b, platform_x, 0.0f, -7.5f, 0.0f, 1.2f, -3.5f);
    const float block_x = add_ramp(b, 4.0f, -7.5f, -3.5f, 2.0f, 55.0f); /* too steep */
    add_box(b, block_x, 0.0f, -7.5f, 8.0f, 2.0f, -3.5f);
    add_box(b, -2.0f, 0.0f, -0.25f, 3.6f, WALL_HEIGHT, 0.25f); /* the wall across the middle */
    add_box(b, 0.0f, 0.0f, 3.0f, 3.0f, 0.6f, 7.5f);            /* a step too high */
    add_box(b, -8.0f, 0.0f, 3.0f, -3.0f, 0.3f, 7.5f);          /* two steps climbable */
    add_box(b, -7.0f, 0.0f, 4.5f, -4.0f, 0.6f, 7.5f);

    const px_status status =
        px_mesh_create(b->vertices, b->vertex_count, b->indices, b->triangle_count, NULL, &lv->mesh);
    free(b);
    if (status != PX_OK)
    {
        fprintf(stderr, "px_mesh_create failed: %s\n", px_status_string(status));
        return false;
    }
    snprintf(lv->name, sizeof(lv->name), "generated level");
    lv->generated = true;

    /* the tour: up the ramp, off the platform, into the steep slope, round the wall's end (sliding along
     * it), into the high block, up the two steps and down again */
    static const waypoint tour[] = {
        { -1.0f, -5.5f, GOAL_REACH, 1.2f, "up the 20-degree ramp onto the platform" },
        { 2.0f, -5.5f, GOAL_REACH, 0.0f, "off the platform's edge (a 1.2 m fall)" },
        { 6.5f, -5.5f, GOAL_BLOCKED, NAN, "up the 55-degree slope (too steep)" },
        { 3.0f, -2.0f, GOAL_REACH, 0.0f, "back from the slope" },
        { 4.4f, 2.0f, GOAL_REACH, 0.0f, "round the wall's end (sliding along it)" },
        { 1.5f, 5.25f, GOAL_BLOCKED, NAN, "onto the 0.6 m block (too high a step)" },
        { -1.0f, 1.5f, GOAL_REACH, 0.0f, "away from the block" },
        { -5.5f, 3.75f, GOAL_REACH, 0.3f, "up a 0.3 m step" },
        { -5.5f, 6.0f, GOAL_REACH, 0.6f, "up another 0.3 m step" },
        { -10.0f, 6.0f, GOAL_REACH, 0.0f, "down both steps" },
        { -10.0f, -1.0f, GOAL_REACH, 0.0f, "home" },
    };
    lv->waypoint_count = (int)(sizeof(tour) / sizeof(tour[0]));
    memcpy(lv->waypoints, tour, sizeof(tour));
    lv->start[0] = -10.0f;
    lv->start[1] = FEET + SKIN;
    lv->start[2] = -5.5f;
    return true;
}

/* ---------------------------------------------------------------------------------------------------- */
/* A top-down map of where one can stand: the level rasterized into a heightfield */

typedef struct walk_map
{
    int width, depth;  /* columns along x and z */
    float cell;        /* column width */
    float x0, z0;      /* corner of column (0, 0) */
    float* top;        /* height of each column's highest walkable span, else of its top span; NAN when empty */
    uint8_t* walkable; /* whether the column has a walkable span */
} walk_map;

static void walk_map_free(walk_map* map)
{
    free(map->top);
    free(map->walkable);
    memset(map, 0, sizeof(*map));
}

/* Recast's pipeline: mark walkable triangles, rasterize, then filter for the character's climb and height. */
static bool build_walk_map(const px_mesh* mesh, walk_map* map)
{
    memset(map, 0, sizeof(*map));
    const px_aabb bounds = px_mesh_bounds(mesh);
    const int triangles = px_mesh_triangle_count(mesh);
    px_heightfield_def def = px_heightfield_default_def();
    glm_vec3_copy((float*)bounds.min, def.bmin);
    glm_vec3_copy((float*)bounds.max, def.bmax);
    def.bmax[1] += 2.0f * FEET; /* room above the highest floor */
    def.cell_size = fmaxf(fmaxf(bounds.max[0] - bounds.min[0], bounds.max[2] - bounds.min[2]) / 256.0f, 0.05f);
    def.cell_height = fmaxf(fminf(0.5f * def.cell_size, 0.25f * MAX_STEP), (def.bmax[1] - def.bmin[1]) / 60000.0f);
    const int climb = (int)floorf(MAX_STEP / def.cell_height);
    const int height = (int)ceilf(2.0f * FEET / def.cell_height);

    uint8_t* areas = calloc((size_t)(triangles > 0 ? triangles : 1), 1);
    px_heightfield* field = NULL;
    px_status status = areas == NULL ? PX_ERR_OUT_OF_MEMORY : PX_OK;
    if (status == PX_OK)
    {
        status = px_mark_walkable_triangles(MAX_SLOPE_DEGREES, px_mesh_vertices(mesh), px_mesh_vertex_count(mesh),
                                            px_mesh_indices(mesh), triangles, areas);
    }
    if (status == PX_OK)
    {
        status = px_heightfield_create(&def, &field);
    }
    if (status == PX_OK)
    {
        status = px_heightfield_rasterize_mesh(field, mesh, areas, climb, NULL);
    }
    if (status == PX_OK)
    {
        status = px_filter_low_hanging_walkable_obstacles(field, climb);
    }
    if (status == PX_OK)
    {
        status = px_filter_ledge_spans(field, height, climb);
    }
    if (status == PX_OK)
    {
        status = px_filter_walkable_low_height_spans(field, height);
    }
    free(areas);
    if (status != PX_OK)
    {
        fprintf(stderr, "cannot build the walkable map: %s\n", px_status_string(status));
        px_heightfield_destroy(field);
        return false;
    }

    def = px_heightfield_get_def(field);
    map->width = def.width;
    map->depth = def.depth;
    map->cell = def.cell_size;
    map->x0 = def.bmin[0];
    map->z0 = def.bmin[2];
    const size_t n = (size_t)map->width * (size_t)map->depth;
    map->top = malloc(n * sizeof(float));
    map->walkable = malloc(n);
    px_span* spans = NULL;
    int capacity = 0;
    bool ok = map->top != NULL && map->walkable != NULL;
    for (int z = 0; ok && z < map->depth; ++z)
    {
        for (int x = 0; ok && x < map->width; ++x)
        {
            const int count = px_heightfield_column(field, x, z, spans, capacity);
            if (count > capacity)
            {
                free(spans);
                capacity = count;
                spans = malloc((size_t)capacity * sizeof(px_span));
                ok = spans != NULL && px_heightfield_column(field, x, z, spans, capacity) == count;
            }
            /* the highest walkable span (under a roof, the floor), else the top span */
            int shown = ok ? count - 1 : -1;
            while (shown > 0 && spans[shown].area == PX_NULL_AREA)
            {
                shown--;
            }
            if (shown >= 0 && spans[shown].area == PX_NULL_AREA)
            {
                shown = count - 1;
            }
            const size_t k = (size_t)z * (size_t)map->width + (size_t)x;
            map->top[k] = shown >= 0 ? def.bmin[1] + (float)spans[shown].smax * def.cell_height : NAN;
            map->walkable[k] = shown >= 0 && spans[shown].area != PX_NULL_AREA;
        }
    }
    free(spans);
    px_heightfield_destroy(field);
    if (!ok)
    {
        fprintf(stderr, "out of memory\n");
        walk_map_free(map);
    }
    return ok;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Waypoints on a level read from a file */

static uint32_t next_random(uint32_t* state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

/* Whether a character could probably walk straight from a to b (capsule centres): nothing in the way of a
 * ray between the two, and walkable columns under the whole line at about the heights in between. */
static bool walkable_line(controller* c, const walk_map* map, const float* a, const float* b)
{
    const float length = glm_vec3_distance((float*)a, (float*)b);
    px_ray ray = { { a[0], a[1], a[2] }, { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, 1.0f };
    bool blocked = true;
    if (length < 1e-3f || !query_ok(c, px_mesh_ray_cast_any(c->mesh, &ray, &blocked), "px_mesh_ray_cast_any") ||
        blocked)
    {
        return false;
    }
    const int samples = (int)(length / map->cell) + 1;
    for (int i = 0; i <= samples; ++i)
    {
        const float f = (float)i / (float)samples;
        const int x = (int)floorf((a[0] + f * (b[0] - a[0]) - map->x0) / map->cell);
        const int z = (int)floorf((a[2] + f * (b[2] - a[2]) - map->z0) / map->cell);
        if (x < 0 || z < 0 || x >= map->width || z >= map->depth)
        {
            return false;
        }
        const int k = z * map->width + x;
        if (!map->walkable[k] || fabsf(map->top[k] + FEET + SKIN - (a[1] + f * (b[1] - a[1]))) > 0.6f)
        {
            return false;
        }
    }
    return true;
}

/* Centre of column k, a capsule standing there */
static void column_spot(const walk_map* map, int k, float* centre)
{
    centre[0] = map->x0 + ((float)(k % map->width) + 0.5f) * map->cell;
    centre[1] = map->top[k] + FEET + SKIN;
    centre[2] = map->z0 + ((float)(k / map->width) + 0.5f) * map->cell;
}

/* Start on the walkable column nearest the middle of the map, then choose up to 10 waypoints in turn, each
 * 3 to 14 m from the previous one, at most 2.5 m higher or lower, with walkable ground all the way and
 * nothing in the way of a ray from there (the capsule, wider, may have to slide past corners): of 400 random
 * walkable columns, the one farthest from the start and the waypoints so far, so the tour spreads out. */
static void choose_waypoints(controller* c, const walk_map* map, level* lv)
{
    const int n = map->width * map->depth;
    int start = -1;
    float nearest = INFINITY;
    for (int k = 0; k < n; ++k)
    {
        const float dx = (float)(k % map->width) - 0.5f * (float)map->width;
        const float dz = (float)(k / map->width) - 0.5f * (float)map->depth;
        if (map->walkable[k] && dx * dx + dz * dz < nearest)
        {
            nearest = dx * dx + dz * dz;
            start = k;
        }
    }
    lv->waypoint_count = 0;
    if (start < 0)
    {
        return;
    }
    column_spot(map, start, lv->start);
    vec3 previous = { lv->start[0], lv->start[1], lv->start[2] };
    uint32_t seed = 12345u;
    while (lv->waypoint_count < 10)
    {
        float best_score = 0.0f;
        vec3 best = { 0.0f, 0.0f, 0.0f };
        for (int attempt = 0; attempt < 400; ++attempt)
        {
            const int k = (int)(next_random(&seed) % (uint32_t)n);
            vec3 next;
            column_spot(map, k, next);
            const float distance = horizontal_distance(previous, next);
            if (!map->walkable[k] || distance < 3.0f || distance > 14.0f || fabsf(next[1] - previous[1]) > 2.5f)
            {
                continue;
            }
            float score = horizontal_distance(lv->start, next);
            for (int i = 0; i < lv->waypoint_count; ++i)
            {
                const float spot[3] = { lv->waypoints[i].x, 0.0f, lv->waypoints[i].z };
                score = fminf(score, horizontal_distance(spot, next));
            }
            if (score > best_score && walkable_line(c, map, previous, next))
            {
                best_score = score;
                glm_vec3_copy(next, best);
            }
        }
        if (best_score == 0.0f)
        {
            break;
        }
        waypoint* w = &lv->waypoints[lv->waypoint_count++];
        w->x = best[0];
        w->z = best[2];
        w->goal = GOAL_TRY;
        w->feet = NAN;
        w->what = "a walkable spot";
        glm_vec3_copy(best, previous);
    }
}

/* ---------------------------------------------------------------------------------------------------- */
/* Following the waypoints */

typedef struct walk_stats
{
    int ticks;
    float walked;       /* length of the path (3D) */
    int steps_climbed;  /* step climbs (consecutive step-up ticks count once) */
    int blocked_moves;  /* ticks that moved less than half the motion asked for */
    int wall_slides;    /* ticks that met a wall and still moved more than half */
    int depenetrations; /* ticks that started inside the level */
    int air_ticks;      /* ticks ending in the air */
    int overlap_ticks;  /* ticks ending overlapping the level (should stay 0) */
    int reached;        /* waypoints reached */
    int failures;       /* broken expectations of the generated level */
    bool fell_through;
    float* path; /* xyz per tick, for the picture */
} walk_stats;

static bool overlaps_level(controller* c, const float* centre)
{
    const px_transform pose = capsule_pose(centre);
    px_mesh_distance_result d;
    return query_ok(c, px_mesh_shape_distance(c->mesh, NULL, &c->capsule, &pose, SKIN, &d), "px_mesh_shape_distance") &&
           d.overlap;
}

static float slope_degrees(const float* normal)
{
    return acosf(fminf(fmaxf(normal[1], -1.0f), 1.0f)) * 180.0f / (float)GLM_PI;
}

static void print_state(const walk_stats* s, const character* ch, const tick_report* r, int target)
{
    const char* state = r->stepped                   ? "step"
                        : !ch->grounded              ? "air"
                        : r->moved < 0.5f * r->asked ? "blocked"
                        : r->hit_wall                ? "slide"
                                                     : "ground";
    printf("  %6.2f  %7.2f %7.3f %7.2f  %-7s  %5.1f  %2d\n", (double)((float)s->ticks * TICK), (double)ch->position[0],
           (double)ch->position[1], (double)ch->position[2], state, (double)slope_degrees(ch->ground_normal),
           target + 1);
}

/* Walk to waypoint w until it is reached, or no progress is made for STUCK_TICKS ticks. */
static bool walk_to(controller* c, character* ch, const waypoint* w, int index, float min_y, float max_y, int max_ticks,
                    walk_stats* s)
{
    const vec3 target = { w->x, 0.0f, w->z };
    float best = INFINITY, highest_feet = -INFINITY;
    int last_progress = 0, last_step = -100;
    for (int leg = 0; leg < MAX_LEG_TICKS && s->ticks < max_ticks; ++leg)
    {
        const float distance = horizontal_distance(ch->position, target);
        if ((distance < REACH_RADIUS && ch->grounded) || leg - last_progress > STUCK_TICKS)
        {
            break;
        }
        if (distance < best - 0.05f)
        {
            best = distance;
            last_progress = leg;
        }
        /* full speed towards the waypoint, slowing down to stop on it */
        const float speed = distance > 1e-4f ? fminf(WALK_SPEED, distance / TICK) / distance : 0.0f;
        const vec3 velocity = { (target[0] - ch->position[0]) * speed, 0.0f, (target[2] - ch->position[2]) * speed };
        const vec3 before = { ch->position[0], ch->position[1], ch->position[2] };
        const tick_report r = character_update(c, ch, velocity, TICK);

        s->path[3 * s->ticks + 0] = ch->position[0];
        s->path[3 * s->ticks + 1] = ch->position[1];
        s->path[3 * s->ticks + 2] = ch->position[2];
        s->ticks++;
        s->walked += glm_vec3_distance((float*)before, ch->position);
        s->blocked_moves += r.moved < 0.5f * r.asked;
        s->wall_slides += r.hit_wall && r.moved >= 0.5f * r.asked;
        s->depenetrations += r.depenetrated;
        s->air_ticks += !ch->grounded;
        s->overlap_ticks += overlaps_level(c, ch->position);
        if (r.stepped)
        {
            if (s->ticks - last_step > 10)
            {
                s->steps_climbed++;
                printf("  %6.2f  step up at (%.2f, %.2f), feet from %.2f to %.2f\n", (double)((float)s->ticks * TICK),
                       (double)ch->position[0], (double)ch->position[2], (double)(before[1] - FEET),
                       (double)(ch->position[1] - FEET));
            }
            last_step = s->ticks;
        }
        highest_feet = fmaxf(highest_feet, ch->position[1] - FEET);
        if (s->ticks % PRINT_EVERY == 0)
        {
            print_state(s, ch, &r, index);
        }
        if (ch->position[1] < min_y)
        {
            /* below the whole level: through a floor, or off its edge where nothing is under it? */
            px_ray down = { { ch->position[0], max_y, ch->position[2] }, { 0.0f, -1.0f, 0.0f }, max_y - min_y };
            px_ray_hit floor;
            const bool had_floor =
                query_ok(c, px_mesh_ray_cast(c->mesh, &down, &floor), "px_mesh_ray_cast") && floor.hit;
            fail("the character %s at (%.2f, %.2f, %.2f)\n",
                 had_floor ? "fell through the floor" : "walked off the edge of the level", (double)ch->position[0],
                 (double)ch->position[1], (double)ch->position[2]);
            s->fell_through = true;
            return false;
        }
    }

    const float feet = ch->position[1] - FEET;
    const bool reached = horizontal_distance(ch->position, target) < REACH_RADIUS && ch->grounded;
    s->reached += reached;
    printf("  %6.2f  waypoint %d (%.2f, %.2f) %s: %s, feet at %.2f\n", (double)((float)s->ticks * TICK), index + 1,
           (double)w->x, (double)w->z, w->what, reached ? "reached" : "not reached", (double)feet);
    bool ok = true;
    if (w->goal == GOAL_REACH && !reached)
    {
        fail("waypoint %d (%s) must be reachable\n", index + 1, w->what);
        ok = false;
    }
    if (w->goal == GOAL_REACH && reached && !isnan(w->feet) && fabsf(feet - w->feet) > 0.1f)
    {
        fail("waypoint %d (%s): feet at %.3f, expected %.2f\n", index + 1, w->what, (double)feet, (double)w->feet);
        ok = false;
    }
    if (w->goal == GOAL_BLOCKED && (reached || highest_feet > MAX_STEP))
    {
        fail("waypoint %d (%s) must not be reachable; the feet went up to %.2f\n", index + 1, w->what,
             (double)highest_feet);
        ok = false;
    }
    s->failures += !ok;
    return true;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The picture */

typedef struct image
{
    int width, height;
    uint8_t* rgb;
} image;

static void put_pixel(image* im, int x, int y, const uint8_t* color)
{
    if (x >= 0 && y >= 0 && x < im->width && y < im->height)
    {
        memcpy(&im->rgb[3 * ((size_t)y * (size_t)im->width + (size_t)x)], color, 3);
    }
}

static void fill_square(image* im, int cx, int cy, int half, const uint8_t* color)
{
    for (int y = cy - half; y <= cy + half; ++y)
    {
        for (int x = cx - half; x <= cx + half; ++x)
        {
            put_pixel(im, x, y, color);
        }
    }
}

/* The map, a block of scale pixels per column: the highest walkable span green, else the top span red,
 * brighter when higher; empty columns dark. */
static bool draw_map(const walk_map* map, int scale, image* im)
{
    im->width = map->width * scale;
    im->height = map->depth * scale;
    im->rgb = malloc((size_t)im->width * (size_t)im->height * 3);
    if (im->rgb == NULL)
    {
        return false;
    }
    float lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < map->width * map->depth; ++k)
    {
        if (!isnan(map->top[k]))
        {
            lo = fminf(lo, map->top[k]);
            hi = fmaxf(hi, map->top[k]);
        }
    }
    for (int z = 0; z < map->depth; ++z)
    {
        for (int x = 0; x < map->width; ++x)
        {
            const int k = z * map->width + x;
            uint8_t color[3] = { 24, 26, 32 };
            if (!isnan(map->top[k]))
            {
                const float light = 0.4f + 0.6f * (hi > lo ? (map->top[k] - lo) / (hi - lo) : 1.0f);
                color[0] = (uint8_t)((map->walkable[k] ? 60.0f : 190.0f) * light);
                color[1] = (uint8_t)((map->walkable[k] ? 190.0f : 60.0f) * light);
                color[2] = (uint8_t)((map->walkable[k] ? 80.0f : 50.0f) * light);
            }
            for (int j = 0; j < scale; ++j)
            {
                for (int i = 0; i < scale; ++i)
                {
                    put_pixel(im, x * scale + i, z * scale + j, color);
                }
            }
        }
    }
    return true;
}

/* Pixel of a world point (x, z): x to the right, z down, as seen from above. */
static void to_pixel(const walk_map* map, int scale, const float* p, float* px)
{
    px[0] = (p[0] - map->x0) / map->cell * (float)scale;
    px[1] = (p[2] - map->z0) / map->cell * (float)scale;
}

static void draw_path(const walk_map* map, int scale, const walk_stats* s, const level* lv, image* im)
{
    static const uint8_t red[3] = { 255, 30, 30 }, white[3] = { 255, 255, 255 }, yellow[3] = { 255, 220, 0 },
                         blue[3] = { 60, 140, 255 };
    float a[2], b[2];
    to_pixel(map, scale, lv->start, a);
    for (int t = 0; t < s->ticks; ++t)
    {
        to_pixel(map, scale, &s->path[3 * t], b);
        const int steps = (int)ceilf(fmaxf(fabsf(b[0] - a[0]), fabsf(b[1] - a[1]))) + 1;
        for (int i = 0; i <= steps; ++i)
        {
            const float f = (float)i / (float)steps;
            fill_square(im, (int)(a[0] + f * (b[0] - a[0])), (int)(a[1] + f * (b[1] - a[1])), 1, red);
        }
        a[0] = b[0];
        a[1] = b[1];
    }
    to_pixel(map, scale, lv->start, a);
    fill_square(im, (int)a[0], (int)a[1], 4, blue);
    for (int i = 0; i < lv->waypoint_count; ++i)
    {
        const float p[3] = { lv->waypoints[i].x, 0.0f, lv->waypoints[i].z };
        to_pixel(map, scale, p, a);
        fill_square(im, (int)a[0], (int)a[1], 3, lv->waypoints[i].goal == GOAL_BLOCKED ? yellow : white);
    }
}

static bool write_image(const image* im, const char* path, bool png)
{
    if (png)
    {
#ifdef CHARACTER_HAVE_STB
        return stbi_write_png(path, im->width, im->height, 3, im->rgb, im->width * 3) != 0;
#else
        return false;
#endif
    }
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        return false;
    }
    const size_t n = (size_t)im->width * (size_t)im->height * 3;
    bool ok = fprintf(f, "P6\n%d %d\n255\n", im->width, im->height) > 0 && fwrite(im->rgb, 1, n, f) == n;
    return (fclose(f) == 0) && ok;
}

static bool save_picture(const walk_map* map, const walk_stats* s, const level* lv, const char* path, bool png)
{
    const int larger = map->width > map->depth ? map->width : map->depth;
    const int scale = larger < 720 ? 720 / larger : 1;
    image im = { 0, 0, NULL };
    if (!draw_map(map, scale, &im))
    {
        fprintf(stderr, "out of memory\n");
        return false;
    }
    draw_path(map, scale, s, lv, &im);
    const bool ok = write_image(&im, path, png);
    if (ok)
    {
        printf("wrote %s (%d x %d: walkable green, not walkable red, brighter higher; path red, start blue)\n", path,
               im.width, im.height);
    }
    else
    {
        fprintf(stderr, "cannot write '%s'\n", path);
    }
    free(im.rgb);
    return ok;
}

/* ---------------------------------------------------------------------------------------------------- */

typedef struct options
{
    const char* level_path; /* NULL: the generated level */
    const char* image_path;
    bool png;
} options;

static bool file_exists(const char* path)
{
    FILE* f = fopen(path, "rb");
    if (f != NULL)
    {
        fclose(f);
    }
    return f != NULL;
}

static bool parse_options(int argc, char** argv, options* opt)
{
    static char default_level[512];
    bool generated = false;
    memset(opt, 0, sizeof(*opt));
    for (int i = 1; i < argc; ++i)
    {
        if (strcmp(argv[i], "--generated") == 0)
        {
            generated = true;
        }
        else if ((strcmp(argv[i], "--png") == 0 || strcmp(argv[i], "--ppm") == 0) && i + 1 < argc)
        {
            opt->png = strcmp(argv[i], "--png") == 0;
            opt->image_path = argv[++i];
        }
        else if (argv[i][0] != '-' && opt->level_path == NULL)
        {
            opt->level_path = argv[i];
        }
        else
        {
            fprintf(stderr, "usage: %s [LEVEL.obj | --generated] [--png FILE | --ppm FILE]\n", argv[0]);
            return false;
        }
    }
#ifndef CHARACTER_HAVE_STB
    if (opt->png)
    {
        fprintf(stderr, "built without stb_image_write (Debian: libstb-dev): use --ppm\n");
        return false;
    }
#endif
    if (generated)
    {
        opt->level_path = NULL;
    }
    else if (opt->level_path == NULL)
    {
        snprintf(default_level, sizeof(default_level), "%s/dungeon.obj", CHARACTER_DATA_DIR);
        opt->level_path = file_exists(default_level) ? default_level : NULL;
    }
    return true;
}

static bool load_level(const char* path, level* lv)
{
    px_obj_error error;
    const px_status status = px_mesh_load_obj_report(path, NULL, &lv->mesh, &error);
    if (status != PX_OK)
    {
        fprintf(stderr, "%s: %s\n", path, error.message[0] != '\0' ? error.message : px_status_string(status));
        return false;
    }
    snprintf(lv->name, sizeof(lv->name), "%s", path);
    lv->generated = false;
    return true;
}

int main(int argc, char** argv)
{
    options opt;
    if (!parse_options(argc, argv, &opt))
    {
        return 2;
    }
    level lv;
    memset(&lv, 0, sizeof(lv));
    if (!(opt.level_path != NULL ? load_level(opt.level_path, &lv) : build_level(&lv)))
    {
        return 1;
    }
    controller c = { lv.mesh, px_shape_capsule(CAPSULE_HALF_HEIGHT, CAPSULE_RADIUS),
                     cosf(MAX_SLOPE_DEGREES * (float)GLM_PI / 180.0f), 0, 0 };
    const px_aabb bounds = px_mesh_bounds(lv.mesh);
    printf("level: %s, %d triangles, (%.2f %.2f %.2f) to (%.2f %.2f %.2f)\n", lv.name, px_mesh_triangle_count(lv.mesh),
           (double)bounds.min[0], (double)bounds.min[1], (double)bounds.min[2], (double)bounds.max[0],
           (double)bounds.max[1], (double)bounds.max[2]);
    printf("character: capsule of radius %.2f, half height %.2f; slope limit %.0f degrees, step %.2f m, "
           "%.1f m/s, ticks of 1/%.0f s\n",
           (double)CAPSULE_RADIUS, (double)CAPSULE_HALF_HEIGHT, (double)MAX_SLOPE_DEGREES, (double)MAX_STEP,
           (double)WALK_SPEED, (double)(1.0f / TICK));

    walk_map map = { 0, 0, 0.0f, 0.0f, 0.0f, NULL, NULL };
    int rc = 0;
    if ((opt.image_path != NULL || !lv.generated) && !build_walk_map(lv.mesh, &map))
    {
        rc = 1;
    }
    if (rc == 0 && !lv.generated)
    {
        choose_waypoints(&c, &map, &lv);
        if (lv.waypoint_count == 0)
        {
            fprintf(stderr, "%s: no walkable place found\n", lv.name);
            rc = 1;
        }
    }

    const int max_ticks = lv.waypoint_count * MAX_LEG_TICKS;
    walk_stats stats;
    memset(&stats, 0, sizeof(stats));
    stats.path = malloc((size_t)(max_ticks > 0 ? max_ticks : 1) * 3 * sizeof(float));
    if (rc == 0 && stats.path == NULL)
    {
        fprintf(stderr, "out of memory\n");
        rc = 1;
    }
    if (rc == 0)
    {
        character ch = { { lv.start[0], lv.start[1], lv.start[2] }, 0.0f, false, { 0.0f, 1.0f, 0.0f } };
        printf("start at (%.2f, %.2f, %.2f), %d waypoints\n", (double)ch.position[0], (double)ch.position[1],
               (double)ch.position[2], lv.waypoint_count);
        printf("  time(s)      x       y       z  state    slope  waypoint\n");
        const float min_y = bounds.min[1]; /* a standing capsule's centre is FEET higher */
        for (int i = 0; i < lv.waypoint_count; ++i)
        {
            if (!walk_to(&c, &ch, &lv.waypoints[i], i, min_y, bounds.max[1] + 1.0f, max_ticks, &stats))
            {
                break;
            }
        }
        const bool inside = overlaps_level(&c, ch.position);
        printf("summary: %d ticks (%.2f s), walked %.2f m, %d steps climbed, %d blocked moves, %d wall slides, "
               "%d ticks in the air\n",
               stats.ticks, (double)((float)stats.ticks * TICK), (double)stats.walked, stats.steps_climbed,
               stats.blocked_moves, stats.wall_slides, stats.air_ticks);
        int unreachable = 0;
        for (int i = 0; i < lv.waypoint_count; ++i)
        {
            unreachable += lv.waypoints[i].goal == GOAL_BLOCKED;
        }
        printf("         waypoints: %d of %d reached (%d out of reach by design)\n", stats.reached, lv.waypoint_count,
               unreachable);
        printf("         final position (%.2f, %.2f, %.2f): %s, %s\n", (double)ch.position[0], (double)ch.position[1],
               (double)ch.position[2], ch.grounded ? "on the ground" : "in the air",
               inside ? "INSIDE the level" : "clear of the level");
        printf("         %d depenetrations, %d ticks overlapping, %d query warnings, %d query errors\n",
               stats.depenetrations, stats.overlap_ticks, c.query_warnings, c.query_errors);
        if (inside)
        {
            fail("the character ends inside the level\n");
        }
        if (c.query_errors > 0)
        {
            fail("%d queries failed\n", c.query_errors);
        }
        if (inside || stats.fell_through || stats.failures > 0 || c.query_errors > 0)
        {
            rc = 1;
        }
        if (opt.image_path != NULL && !save_picture(&map, &stats, &lv, opt.image_path, opt.png))
        {
            rc = 1;
        }
    }
    free(stats.path);
    walk_map_free(&map);
    px_mesh_destroy(lv.mesh);
    printf("%s\n", rc == 0 ? "ok" : "FAILED");
    return rc;
}
