/* Queries of the collision world: ray casts, overlap, shape casts and proximity.
 *
 * Every query walks the two broadphase trees (static and moving bodies) and hands the bodies it cannot cull
 * to the narrowphase of cast.h, gjk.h, mesh.h and mesh_collide.h. The trees hold fat boxes that contain the
 * bodies' tight boxes at their current poses (px_world_set_pose updates them at once), so a query never
 * needs a px_world_update first. A candidate is culled on its tight box (pxi_body.aabb) before any
 * narrowphase; the culling boxes are padded by a small relative amount so that rounding, and the contact
 * band of the GJK casts, never cull a body the narrowphase would report.
 *
 * Orders do not depend on the trees: every candidate is compared by (t or fraction, body index), or kept by
 * body index, so the visiting order changes only which bodies are culled, never the answer. The queries
 * that take a capacity keep the best `capacity` results in the caller's array as a max-heap while they
 * count all of them, then sort it (no allocation). A narrowphase warning is reported as the warning of the
 * lowest body index (pair order for px_world_proximity) that returned one; PX_WARN_CAPACITY takes
 * precedence. A narrowphase error (possible only from a user support function or hull points that turned
 * non-finite after the body was made) stops the query with that error and the documented empty result.
 *
 * Rays: the closest-hit walk is clipped to the best t so far (raised by a few parts in 1e5 so that a tie,
 * which the lower body index wins, is still visited), and every body is cast with the caller's full ray, so
 * its t never depends on the clipping. Rays see the trees' fat boxes: with the default aabb_margin these
 * cover the GJK ray cast's contact band, but with aabb_margin = 0 a GJK ray that passes within the band of
 * a shape (about 1e-5 of its size) yet outside its tight box is not reported.
 *
 * Shape cast pruning: the trees are queried with the union of the shape's box at the start and at the end
 * of the sweep. For each candidate, the fraction at which the moving box first meets the body's padded
 * tight box (a slab test) is a lower bound of the fraction at which the shapes can meet: a candidate whose
 * entry fraction is beyond the best hit so far is skipped without a cast.
 *
 * px_world_proximity gathers its candidate pairs serially into the world's scratch array, sorts them by
 * (lower index, higher index), computes their distances across the world's task system (each pair writing
 * only its own slot) and compacts them in order. Statuses from the tasks are combined through two atomic
 * minima over (pair position, status) keys, so the reported one is that of the first pair in order
 * whatever the number of threads.
 */
#include "world_internal.h"

#include "../core/task_internal.h"

#include "proxima/gjk.h"
#include "proxima/mesh_collide.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Candidate pairs handed to one task range at least (a GJK distance costs ~0.2-2 us). */
#define PXI_PROXIMITY_MIN_RANGE 32

/* Relative padding of the culling boxes: far above float rounding and the casts' contact band (1e-5 of the
 * shapes' size), far below anything that would let many more candidates through. */
#define PXI_PAD_SIZE 1.0e-4f
#define PXI_PAD_COORD 1.0e-5f

/* ------------------------------------------------------------------------------------------------ */
/* Helpers                                                                                            */

static bool world_valid(const px_world* world)
{
    return world != NULL && world->cookie == PXI_WORLD_COOKIE;
}

/* The live body behind a proxy's user data, or NULL. */
static const pxi_body* proxy_body(const px_world* world, void* user_data, int32_t* index)
{
    int32_t i = pxi_proxy_body(user_data);
    if (i < 0 || i >= world->body_high || !world->bodies[i].alive)
    {
        return NULL;
    }
    *index = i;
    return &world->bodies[i];
}

/* The largest edge of a box (0 for an inverted one). */
static float box_size(const px_aabb* box)
{
    float size = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        size = px_maxf(size, box->max[k] - box->min[k]);
    }
    return size;
}

/* Grow a box by extra, plus PXI_PAD_SIZE of size (the sizes of the shapes a test involves) and PXI_PAD_COORD
 * of the magnitude of its coordinates on each axis. extra may be INFINITY (every box then overlaps). */
static void pad_box(const px_aabb* box, float extra, float size, px_aabb* dest)
{
    for (int k = 0; k < 3; ++k)
    {
        float mag = px_maxf(fabsf(box->min[k]), fabsf(box->max[k]));
        float pad = extra + PXI_PAD_SIZE * size + PXI_PAD_COORD * mag + FLT_MIN;
        dest->min[k] = box->min[k] - pad;
        dest->max[k] = box->max[k] + pad;
    }
}

/* The warning (and error) of a serial query: the warning of the lowest body index, the first error. */
typedef struct pxi_query_status
{
    px_status warning;
    int32_t warning_body;
    px_status error;
} pxi_query_status;

static void query_status_init(pxi_query_status* s)
{
    s->warning = PX_OK;
    s->warning_body = PX_NULL_INDEX;
    s->error = PX_OK;
}

/* Record the status of a narrowphase call on body `body`; returns false on an error (stop the query). */
static bool query_status_note(pxi_query_status* s, px_status status, int32_t body)
{
    if (status < 0)
    {
        if (s->error == PX_OK)
        {
            s->error = status;
        }
        return false;
    }
    if (status > 0 && (s->warning_body == PX_NULL_INDEX || body < s->warning_body))
    {
        s->warning = status;
        s->warning_body = body;
    }
    return true;
}

/* The status a query returns on success: PX_WARN_CAPACITY first, then the narrowphase warning. */
static px_status query_status_final(const pxi_query_status* s, bool over_capacity)
{
    return over_capacity ? PX_WARN_CAPACITY : s->warning;
}

/* ------------------------------------------------------------------------------------------------ */
/* Bounded max-heap: the `capacity` smallest elements of a stream, in the caller's array                */

typedef bool pxi_less_fn(const void* a, const void* b);

static void elem_swap(unsigned char* a, unsigned char* b, size_t size)
{
    for (size_t k = 0; k < size; ++k)
    {
        unsigned char t = a[k];
        a[k] = b[k];
        b[k] = t;
    }
}

static void heap_sift_down(unsigned char* base, size_t size, int n, int i, pxi_less_fn* less)
{
    for (;;)
    {
        int l = 2 * i + 1;
        if (l >= n)
        {
            return;
        }
        int m = l;
        if (l + 1 < n && less(base + (size_t)l * size, base + (size_t)(l + 1) * size))
        {
            m = l + 1;
        }
        if (!less(base + (size_t)i * size, base + (size_t)m * size))
        {
            return;
        }
        elem_swap(base + (size_t)i * size, base + (size_t)m * size, size);
        i = m;
    }
}

static void heap_sift_up(unsigned char* base, size_t size, int i, pxi_less_fn* less)
{
    while (i > 0)
    {
        int p = (i - 1) / 2;
        if (!less(base + (size_t)p * size, base + (size_t)i * size))
        {
            return;
        }
        elem_swap(base + (size_t)p * size, base + (size_t)i * size, size);
        i = p;
    }
}

/* Offer elem to the heap base[0 .. *n) of at most capacity elements: it is kept when there is room or when
 * it is smaller than the largest kept (which it then replaces). */
static void heap_offer(void* base, size_t size, int capacity, int* n, const void* elem, pxi_less_fn* less)
{
    unsigned char* b = (unsigned char*)base;
    if (capacity <= 0)
    {
        return;
    }
    if (*n < capacity)
    {
        memcpy(b + (size_t)*n * size, elem, size);
        heap_sift_up(b, size, *n, less);
        (*n)++;
    }
    else if (less(elem, b))
    {
        memcpy(b, elem, size);
        heap_sift_down(b, size, *n, 0, less);
    }
}

/* Sort a heap made by heap_offer into increasing order. */
static void heap_sort(void* base, size_t size, int n, pxi_less_fn* less)
{
    unsigned char* b = (unsigned char*)base;
    for (int end = n - 1; end > 0; --end)
    {
        elem_swap(b, b + (size_t)end * size, size);
        heap_sift_down(b, size, end, 0, less);
    }
}

static bool ray_hit_less(const void* x, const void* y)
{
    const px_world_ray_hit* a = (const px_world_ray_hit*)x;
    const px_world_ray_hit* b = (const px_world_ray_hit*)y;
    return a->hit.t < b->hit.t || (a->hit.t == b->hit.t && a->body.index < b->body.index);
}

static bool body_id_less(const void* x, const void* y)
{
    return ((const px_body_id*)x)->index < ((const px_body_id*)y)->index;
}

static bool pair_other_less(const void* x, const void* y)
{
    return ((const px_world_proximity_pair*)x)->body_b.index < ((const px_world_proximity_pair*)y)->body_b.index;
}

/* ------------------------------------------------------------------------------------------------ */
/* Rays                                                                                               */

static px_status check_ray(const px_ray* ray)
{
    if (!px_v3_is_finite(ray->origin) || !px_v3_is_finite(ray->direction) || isnan(ray->max_t))
    {
        return PX_ERR_NON_FINITE;
    }
    if (ray->max_t < 0.0f)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (ray->direction[0] == 0.0f && ray->direction[1] == 0.0f && ray->direction[2] == 0.0f)
    {
        return PX_ERR_DEGENERATE_INPUT;
    }
    return PX_OK;
}

static void ray_miss(px_world_ray_hit* result)
{
    memset(result, 0, sizeof(*result));
    result->hit.triangle = PX_NULL_INDEX;
}

/* The closest hit of a world ray on one body. A mesh is hit in its local frame: the ray's direction is
 * rotated, not scaled, so t is the same in both frames. */
static px_status ray_body(const pxi_body* b, const px_ray* ray, px_ray_hit* hit)
{
    if (b->mesh == NULL)
    {
        px_status status = px_ray_cast_shape(&b->shape, &b->pose, ray, hit);
        hit->triangle = PX_NULL_INDEX;
        return status;
    }
    px_ray local;
    px_transform_point_inverse(&b->pose, ray->origin, local.origin);
    px_transform_vector_inverse(&b->pose, ray->direction, local.direction);
    local.max_t = ray->max_t;
    px_status status = px_mesh_ray_cast(b->mesh, &local, hit);
    if (status >= 0 && hit->hit)
    {
        px_transform_point(&b->pose, hit->point, hit->point);
        px_transform_vector(&b->pose, hit->normal, hit->normal);
    }
    return status;
}

typedef struct pxi_ray_closest
{
    const px_world* world;
    const px_ray* ray; /* the caller's ray: every body is cast with its full max_t */
    uint32_t mask;
    px_ray_hit best;
    int32_t best_index;
    pxi_query_status status;
} pxi_ray_closest;

/* The max_t the tree walk may be clipped to: the best t so far, raised by a few parts in 1e5 so that a box
 * whose entry t rounds a little above an equal t (a tie, which the lower body index wins) is still visited.
 * A hit at t = 0 cannot clip to 0 (that stops the walk, and a lower body index may also be hit at 0): it
 * clips to the smallest positive float, which still visits every box the origin is in. */
static float ray_closest_clip(const pxi_ray_closest* c, float max_t)
{
    if (c->best_index == PX_NULL_INDEX)
    {
        return -1.0f;
    }
    float clip = c->best.t + PXI_PAD_SIZE * c->best.t + FLT_TRUE_MIN;
    return clip < max_t ? clip : -1.0f; /* negative: go on unclipped */
}

static float ray_closest_fn(const px_ray* ray, int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_ray_closest* c = (pxi_ray_closest*)context;
    int32_t i;
    const pxi_body* b = proxy_body(c->world, user_data, &i);
    if (b == NULL || (b->category_bits & c->mask) == 0u)
    {
        return -1.0f;
    }
    px_ray_hit hit;
    if (!query_status_note(&c->status, ray_body(b, c->ray, &hit), i))
    {
        return 0.0f;
    }
    if (hit.hit && (c->best_index == PX_NULL_INDEX || hit.t < c->best.t ||
                    (hit.t == c->best.t && i < c->best_index)))
    {
        c->best = hit;
        c->best_index = i;
    }
    return ray_closest_clip(c, ray->max_t);
}

px_status px_world_ray_cast(const px_world* world, const px_ray* ray, uint32_t mask, px_world_ray_hit* result)
{
    if (result != NULL)
    {
        ray_miss(result);
    }
    if (!world_valid(world) || ray == NULL || result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = check_ray(ray);
    if (status != PX_OK)
    {
        return status;
    }
    pxi_ray_closest c;
    memset(&c, 0, sizeof(c));
    c.world = world;
    c.ray = ray;
    c.mask = mask;
    c.best_index = PX_NULL_INDEX;
    query_status_init(&c.status);
    px_ray walk = *ray;
    for (int k = 0; k < 2 && c.status.error == PX_OK; ++k)
    {
        float clip = ray_closest_clip(&c, walk.max_t);
        if (clip > 0.0f)
        {
            walk.max_t = clip;
        }
        status = px_dynamic_tree_ray_query(world->trees[k], &walk, ray_closest_fn, &c);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (c.status.error != PX_OK)
    {
        return c.status.error;
    }
    if (c.best_index != PX_NULL_INDEX)
    {
        result->body = pxi_body_id(world, c.best_index);
        result->hit = c.best;
    }
    return query_status_final(&c.status, false);
}

typedef struct pxi_ray_all
{
    const px_world* world;
    const px_ray* ray;
    uint32_t mask;
    px_world_ray_hit* hits;
    int capacity;
    int kept;
    int count;
    pxi_query_status status;
} pxi_ray_all;

static float ray_all_fn(const px_ray* ray, int32_t proxy_id, void* user_data, void* context)
{
    (void)ray;
    (void)proxy_id;
    pxi_ray_all* c = (pxi_ray_all*)context;
    int32_t i;
    const pxi_body* b = proxy_body(c->world, user_data, &i);
    if (b == NULL || (b->category_bits & c->mask) == 0u)
    {
        return -1.0f;
    }
    px_world_ray_hit h;
    if (!query_status_note(&c->status, ray_body(b, c->ray, &h.hit), i))
    {
        return 0.0f;
    }
    if (h.hit.hit)
    {
        h.body = pxi_body_id(c->world, i);
        c->count++;
        heap_offer(c->hits, sizeof(*c->hits), c->capacity, &c->kept, &h, ray_hit_less);
    }
    return -1.0f; /* every body counts: never clip */
}

px_status px_world_ray_cast_all(const px_world* world, const px_ray* ray, uint32_t mask, px_world_ray_hit* hits,
                                int capacity, int* count)
{
    if (count != NULL)
    {
        *count = 0;
    }
    if (!world_valid(world) || ray == NULL || count == NULL || capacity < 0 || (hits == NULL && capacity > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = check_ray(ray);
    if (status != PX_OK)
    {
        return status;
    }
    pxi_ray_all c;
    memset(&c, 0, sizeof(c));
    c.world = world;
    c.ray = ray;
    c.mask = mask;
    c.hits = hits;
    c.capacity = capacity;
    query_status_init(&c.status);
    for (int k = 0; k < 2 && c.status.error == PX_OK; ++k)
    {
        status = px_dynamic_tree_ray_query(world->trees[k], ray, ray_all_fn, &c);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (c.status.error != PX_OK)
    {
        return c.status.error;
    }
    heap_sort(hits, sizeof(*hits), c.kept, ray_hit_less);
    *count = c.count;
    return query_status_final(&c.status, c.count > capacity);
}

/* ------------------------------------------------------------------------------------------------ */
/* Overlap                                                                                            */

/* Validate a query shape and pose, normalize the pose and compute the shape's box there. */
static px_status check_shape_pose(const px_shape* shape, const px_transform* pose, px_transform* npose,
                                  px_aabb* box)
{
    px_status status = px_shape_validate(shape);
    if (status != PX_OK)
    {
        return status;
    }
    status = px_transform_normalized(pose, npose);
    if (status != PX_OK)
    {
        return status;
    }
    return px_shape_aabb(shape, npose, box);
}

typedef struct pxi_overlap
{
    const px_world* world;
    const px_shape* shape;
    px_transform pose;
    px_aabb box; /* the shape's box, padded */
    uint32_t mask;
    px_body_id* bodies;
    int capacity;
    int kept;
    int count;
    pxi_query_status status;
} pxi_overlap;

static bool overlap_fn(int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_overlap* c = (pxi_overlap*)context;
    int32_t i;
    const pxi_body* b = proxy_body(c->world, user_data, &i);
    if (b == NULL || (b->category_bits & c->mask) == 0u || !px_aabb_overlap(&b->aabb, &c->box))
    {
        return true;
    }
    bool overlap = false;
    px_status status;
    if (b->mesh != NULL)
    {
        px_mesh_distance_result r;
        status = px_mesh_shape_distance(b->mesh, &b->pose, c->shape, &c->pose, 0.0f, &r);
        overlap = r.found;
    }
    else
    {
        status = px_gjk_overlap_world(&b->shape, &b->pose, c->shape, &c->pose, NULL, &overlap);
    }
    if (!query_status_note(&c->status, status, i))
    {
        return false;
    }
    if (overlap)
    {
        px_body_id id = pxi_body_id(c->world, i);
        c->count++;
        heap_offer(c->bodies, sizeof(*c->bodies), c->capacity, &c->kept, &id, body_id_less);
    }
    return true;
}

px_status px_world_overlap(const px_world* world, const px_shape* shape, const px_transform* pose, uint32_t mask,
                           px_body_id* bodies, int capacity, int* count)
{
    if (count != NULL)
    {
        *count = 0;
    }
    if (!world_valid(world) || shape == NULL || pose == NULL || count == NULL || capacity < 0 ||
        (bodies == NULL && capacity > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_overlap c;
    memset(&c, 0, sizeof(c));
    px_aabb box;
    px_status status = check_shape_pose(shape, pose, &c.pose, &box);
    if (status != PX_OK)
    {
        return status;
    }
    c.world = world;
    c.shape = shape;
    pad_box(&box, 0.0f, box_size(&box), &c.box);
    c.mask = mask;
    c.bodies = bodies;
    c.capacity = capacity;
    query_status_init(&c.status);
    for (int k = 0; k < 2 && c.status.error == PX_OK; ++k)
    {
        status = px_dynamic_tree_query(world->trees[k], &c.box, overlap_fn, &c);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (c.status.error != PX_OK)
    {
        return c.status.error;
    }
    heap_sort(bodies, sizeof(*bodies), c.kept, body_id_less);
    *count = c.count;
    return query_status_final(&c.status, c.count > capacity);
}

/* ------------------------------------------------------------------------------------------------ */
/* Shape cast                                                                                         */

typedef struct pxi_shape_cast
{
    const px_world* world;
    const px_shape* shape;
    px_transform pose;
    vec3 translation;
    px_aabb start;  /* the shape's box at fraction 0 */
    px_aabb swept;  /* start united with the box at fraction 1, padded: the tree query box */
    uint32_t mask;
    px_world_cast_result best;
    int32_t best_index;
    pxi_query_status status;
} pxi_shape_cast;

/* The first fraction in [0, 1] at which the start box, moved by the translation, touches box; false when it
 * never does. A lower bound of the fraction at which the shapes inside the boxes can touch. */
static bool box_entry(const px_aabb* start, const vec3 d, const px_aabb* box, float* entry)
{
    float lo = 0.0f, hi = 1.0f;
    for (int k = 0; k < 3; ++k)
    {
        float a = box->min[k] - start->max[k]; /* the move must reach d * f >= a ... */
        float b = box->max[k] - start->min[k]; /* ... and d * f <= b */
        if (d[k] == 0.0f)
        {
            if (a > 0.0f || b < 0.0f)
            {
                return false;
            }
            continue;
        }
        float fa = a / d[k], fb = b / d[k];
        if (fa > fb)
        {
            float t = fa;
            fa = fb;
            fb = t;
        }
        lo = px_maxf(lo, fa);
        hi = px_minf(hi, fb);
        if (lo > hi)
        {
            return false;
        }
    }
    *entry = lo;
    return true;
}

static bool shape_cast_fn(int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_shape_cast* c = (pxi_shape_cast*)context;
    int32_t i;
    const pxi_body* b = proxy_body(c->world, user_data, &i);
    if (b == NULL || (b->category_bits & c->mask) == 0u || !px_aabb_overlap(&b->aabb, &c->swept))
    {
        return true;
    }
    /* the body's box padded by more than the casts' band (relative to both sizes) and rounding */
    px_aabb grown;
    pad_box(&b->aabb, 0.0f, box_size(&b->aabb) + box_size(&c->start), &grown);
    float entry;
    if (!box_entry(&c->start, c->translation, &grown, &entry))
    {
        return true;
    }
    if (c->best_index != PX_NULL_INDEX &&
        (entry > c->best.fraction || (entry == c->best.fraction && i > c->best_index)))
    {
        return true;
    }
    px_world_cast_result r;
    memset(&r, 0, sizeof(r));
    px_status status;
    if (b->mesh != NULL)
    {
        px_mesh_cast_result m;
        status = px_mesh_shape_cast(b->mesh, &b->pose, c->shape, &c->pose, c->translation, &m);
        r.hit = m.hit;
        r.initial_overlap = m.initial_overlap;
        r.fraction = m.fraction;
        px_v3_copy(m.point, r.point);
        px_v3_copy(m.normal, r.normal);
        r.triangle = m.triangle;
    }
    else
    {
        px_cast_result s;
        status = px_shape_cast_world(&b->shape, &b->pose, c->shape, &c->pose, c->translation, NULL, &s);
        r.hit = s.hit;
        r.initial_overlap = s.initial_overlap;
        r.fraction = s.fraction;
        px_v3_copy(s.point, r.point);
        px_v3_copy(s.normal, r.normal);
        r.triangle = PX_NULL_INDEX;
    }
    if (!query_status_note(&c->status, status, i))
    {
        return false;
    }
    if (r.hit && (c->best_index == PX_NULL_INDEX || r.fraction < c->best.fraction ||
                  (r.fraction == c->best.fraction && i < c->best_index)))
    {
        r.body = pxi_body_id(c->world, i);
        c->best = r;
        c->best_index = i;
    }
    return true;
}

static void cast_miss(px_world_cast_result* result)
{
    memset(result, 0, sizeof(*result));
    result->triangle = PX_NULL_INDEX;
}

px_status px_world_shape_cast(const px_world* world, const px_shape* shape, const px_transform* pose,
                              const vec3 translation, uint32_t mask, px_world_cast_result* result)
{
    if (result != NULL)
    {
        cast_miss(result);
    }
    if (!world_valid(world) || shape == NULL || pose == NULL || translation == NULL || result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_shape_cast c;
    memset(&c, 0, sizeof(c));
    px_status status = check_shape_pose(shape, pose, &c.pose, &c.start);
    if (status != PX_OK)
    {
        return status;
    }
    if (!px_v3_is_finite(translation))
    {
        return PX_ERR_NON_FINITE;
    }
    c.world = world;
    c.shape = shape;
    px_v3_copy(translation, c.translation);
    c.mask = mask;
    c.best_index = PX_NULL_INDEX;
    query_status_init(&c.status);
    px_aabb end;
    px_v3_add(c.start.min, translation, end.min);
    px_v3_add(c.start.max, translation, end.max);
    if (!px_v3_is_finite(end.min) || !px_v3_is_finite(end.max))
    {
        return PX_ERR_NON_FINITE;
    }
    px_aabb_union(&c.start, &end, &c.swept);
    pad_box(&c.swept, 0.0f, box_size(&c.start), &c.swept);
    for (int k = 0; k < 2 && c.status.error == PX_OK; ++k)
    {
        status = px_dynamic_tree_query(world->trees[k], &c.swept, shape_cast_fn, &c);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (c.status.error != PX_OK)
    {
        return c.status.error;
    }
    if (c.best_index != PX_NULL_INDEX)
    {
        *result = c.best;
    }
    return query_status_final(&c.status, false);
}

/* ------------------------------------------------------------------------------------------------ */
/* Proximity                                                                                          */

static bool check_threshold(float threshold)
{
    return threshold >= 0.0f; /* false for NaN */
}

/* Distance between bodies a and b (not both meshes) when at most threshold: out->distance, points and
 * triangle. When farther (or a mesh has nothing within threshold), out->distance = -1. */
static px_status pair_distance(const pxi_body* a, const pxi_body* b, float threshold, px_world_proximity_pair* out)
{
    px_status status;
    out->distance = -1.0f;
    out->triangle = PX_NULL_INDEX;
    px_v3_zero(out->point_a);
    px_v3_zero(out->point_b);
    if (a->mesh != NULL || b->mesh != NULL)
    {
        const pxi_body* m = a->mesh != NULL ? a : b;
        const pxi_body* s = a->mesh != NULL ? b : a;
        px_mesh_distance_result r;
        status = px_mesh_shape_distance(m->mesh, &m->pose, &s->shape, &s->pose, threshold, &r);
        if (status >= 0 && r.found && r.distance <= threshold)
        {
            out->distance = r.distance;
            out->triangle = r.triangle;
            px_v3_copy(m == a ? r.point_mesh : r.point_shape, out->point_a);
            px_v3_copy(m == a ? r.point_shape : r.point_mesh, out->point_b);
        }
        return status;
    }
    px_gjk_result r;
    status = px_gjk_distance_world(&a->shape, &a->pose, &b->shape, &b->pose, NULL, &r);
    if (status >= 0 && r.distance <= threshold)
    {
        out->distance = r.distance;
        px_v3_copy(r.point_a, out->point_a);
        px_v3_copy(r.point_b, out->point_b);
    }
    return status;
}

/* Whether two bodies may form a proximity pair (apart from the static-static rule). */
static bool pair_allowed(const pxi_body* a, const pxi_body* b)
{
    return pxi_filter_pass(a, b) && (a->mesh == NULL || b->mesh == NULL);
}

typedef struct pxi_gather
{
    px_world* world;
    int32_t self;   /* the moving body whose partners are looked for */
    px_aabb box;    /* its tight box grown by the threshold (and padded) */
    bool higher_only;
    int count;
    bool out_of_memory;
} pxi_gather;

static bool gather_fn(int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_gather* g = (pxi_gather*)context;
    px_world* w = g->world;
    int32_t i;
    const pxi_body* b = proxy_body(w, user_data, &i);
    if (b == NULL || i == g->self || (g->higher_only && i < g->self))
    {
        return true;
    }
    const pxi_body* s = &w->bodies[g->self];
    if (!pair_allowed(s, b) || !px_aabb_overlap(&b->aabb, &g->box))
    {
        return true;
    }
    void* scratch = w->proximity;
    if (!pxi_world_reserve(w, &scratch, &w->proximity_capacity, g->count + 1, sizeof(px_world_proximity_pair)))
    {
        g->out_of_memory = true;
        return false;
    }
    w->proximity = (px_world_proximity_pair*)scratch;
    px_world_proximity_pair* p = &w->proximity[g->count++];
    int32_t lo = i < g->self ? i : g->self, hi = i < g->self ? g->self : i;
    p->body_a = pxi_body_id(w, lo);
    p->body_b = pxi_body_id(w, hi);
    return true;
}

static int compare_candidates(const void* x, const void* y)
{
    const px_world_proximity_pair* a = (const px_world_proximity_pair*)x;
    const px_world_proximity_pair* b = (const px_world_proximity_pair*)y;
    if (a->body_a.index != b->body_a.index)
    {
        return a->body_a.index < b->body_a.index ? -1 : 1;
    }
    return (a->body_b.index > b->body_b.index) - (a->body_b.index < b->body_b.index);
}

/* The first (lowest key) status among the tasks: key = position * 16 + (status + 8). */
typedef struct pxi_proximity_job
{
    const px_world* world;
    px_world_proximity_pair* pairs;
    float threshold;
    atomic_llong first_warning;
    atomic_llong first_error;
} pxi_proximity_job;

static void atomic_min_ll(atomic_llong* target, long long value)
{
    long long seen = atomic_load_explicit(target, memory_order_relaxed);
    while (value < seen &&
           !atomic_compare_exchange_weak_explicit(target, &seen, value, memory_order_relaxed, memory_order_relaxed))
    {
    }
}

static void proximity_task(int begin, int end, int worker, void* context)
{
    (void)worker;
    pxi_proximity_job* job = (pxi_proximity_job*)context;
    const px_world* w = job->world;
    for (int i = begin; i < end; ++i)
    {
        px_world_proximity_pair* p = &job->pairs[i];
        px_status status =
            pair_distance(&w->bodies[p->body_a.index], &w->bodies[p->body_b.index], job->threshold, p);
        if (status != PX_OK)
        {
            long long key = (long long)i * 16 + (long long)((int)status + 8);
            atomic_min_ll(status < 0 ? &job->first_error : &job->first_warning, key);
        }
    }
}

static px_status key_status(long long key)
{
    return (px_status)((int)(key % 16) - 8);
}

px_status px_world_proximity(px_world* world, float threshold, px_world_proximity_pair* pairs, int capacity,
                             int* count)
{
    if (count != NULL)
    {
        *count = 0;
    }
    if (!world_valid(world) || count == NULL || !check_threshold(threshold) || capacity < 0 ||
        (pairs == NULL && capacity > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* gather, serially, in body order */
    pxi_gather g;
    memset(&g, 0, sizeof(g));
    g.world = world;
    for (int32_t i = 0; i < world->body_high; ++i)
    {
        const pxi_body* b = &world->bodies[i];
        if (!b->alive || b->type != PX_BODY_MOVING)
        {
            continue;
        }
        g.self = i;
        pad_box(&b->aabb, threshold, box_size(&b->aabb), &g.box);
        for (int k = 0; k < 2; ++k)
        {
            g.higher_only = k == PXI_TREE_MOVING;
            px_status status = px_dynamic_tree_query(world->trees[k], &g.box, gather_fn, &g);
            if (status != PX_OK)
            {
                return status;
            }
            if (g.out_of_memory)
            {
                return PX_ERR_OUT_OF_MEMORY;
            }
        }
    }
    int n = g.count;
    if (n == 0)
    {
        return PX_OK;
    }
    qsort(world->proximity, (size_t)n, sizeof(px_world_proximity_pair), compare_candidates);

    /* distances, each pair in its own slot */
    pxi_proximity_job job;
    job.world = world;
    job.pairs = world->proximity;
    job.threshold = threshold;
    atomic_init(&job.first_warning, LLONG_MAX);
    atomic_init(&job.first_error, LLONG_MAX);
    pxi_run_tasks(&world->def.tasks, proximity_task, n, PXI_PROXIMITY_MIN_RANGE, &job);
    long long first_error = atomic_load(&job.first_error);
    if (first_error != LLONG_MAX)
    {
        return key_status(first_error);
    }

    /* compaction in pair order */
    int found = 0;
    for (int i = 0; i < n; ++i)
    {
        const px_world_proximity_pair* p = &world->proximity[i];
        if (p->distance >= 0.0f && p->distance <= threshold)
        {
            if (found < capacity)
            {
                pairs[found] = *p;
            }
            found++;
        }
    }
    *count = found;
    if (found > capacity)
    {
        return PX_WARN_CAPACITY;
    }
    long long first_warning = atomic_load(&job.first_warning);
    return first_warning != LLONG_MAX ? key_status(first_warning) : PX_OK;
}

typedef struct pxi_body_proximity
{
    const px_world* world;
    int32_t self;
    px_aabb box;
    float threshold;
    px_world_proximity_pair* pairs;
    int capacity;
    int kept;
    int count;
    pxi_query_status status;
} pxi_body_proximity;

static bool body_proximity_fn(int32_t proxy_id, void* user_data, void* context)
{
    (void)proxy_id;
    pxi_body_proximity* c = (pxi_body_proximity*)context;
    int32_t i;
    const pxi_body* b = proxy_body(c->world, user_data, &i);
    if (b == NULL || i == c->self)
    {
        return true;
    }
    const pxi_body* s = &c->world->bodies[c->self];
    if (!pair_allowed(s, b) || !px_aabb_overlap(&b->aabb, &c->box))
    {
        return true;
    }
    px_world_proximity_pair p;
    p.body_a = pxi_body_id(c->world, c->self);
    p.body_b = pxi_body_id(c->world, i);
    if (!query_status_note(&c->status, pair_distance(s, b, c->threshold, &p), i))
    {
        return false;
    }
    if (p.distance >= 0.0f && p.distance <= c->threshold)
    {
        c->count++;
        heap_offer(c->pairs, sizeof(*c->pairs), c->capacity, &c->kept, &p, pair_other_less);
    }
    return true;
}

px_status px_world_body_proximity(const px_world* world, px_body_id body, float threshold,
                                  px_world_proximity_pair* pairs, int capacity, int* count)
{
    if (count != NULL)
    {
        *count = 0;
    }
    if (!world_valid(world) || count == NULL || !check_threshold(threshold) || capacity < 0 ||
        (pairs == NULL && capacity > 0))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    const pxi_body* self = pxi_world_body(world, body);
    if (self == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    pxi_body_proximity c;
    memset(&c, 0, sizeof(c));
    c.world = world;
    c.self = body.index;
    pad_box(&self->aabb, threshold, box_size(&self->aabb), &c.box);
    c.threshold = threshold;
    c.pairs = pairs;
    c.capacity = capacity;
    query_status_init(&c.status);
    for (int k = 0; k < 2 && c.status.error == PX_OK; ++k)
    {
        px_status status = px_dynamic_tree_query(world->trees[k], &c.box, body_proximity_fn, &c);
        if (status != PX_OK)
        {
            return status;
        }
    }
    if (c.status.error != PX_OK)
    {
        return c.status.error;
    }
    heap_sort(pairs, sizeof(*pairs), c.kept, pair_other_less);
    *count = c.count;
    return query_status_final(&c.status, c.count > capacity);
}
