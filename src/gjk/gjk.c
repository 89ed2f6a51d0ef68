/* GJK distance and overlap (Gilbert, Johnson, Keerthi 1988), with van den Bergen's (1999) termination:
 * v is the point of the current simplex nearest the origin, w = s_A(-v) - s_B(v) the support point of
 * A - B against it. |v| is an upper bound of the distance and v.w / |v| a lower bound, so the loop stops
 * when their gap |v|^2 - v.w is small, relatively (rel_tolerance) or against the rounding noise of the
 * float products (a multiple of FLT_EPSILON times |v| times the size of the Minkowski points).
 *
 * Robustness, each from a failure catalogued in KNOWN_FAILURES.md:
 *  - every comparison is written so NaN takes the exit branch (Jolt's fix for GJK looping on NaN);
 *  - a support point already in the simplex stops the loop (cycling guard), by vertex index when both
 *    shapes have indices, else by exact coordinates;
 *  - when |v| stops decreasing the previous, better simplex is restored rather than a worse one returned;
 *  - the witness points are the barycentric combination of the simplex (FCL PR #215), never the last
 *    support points;
 *  - touching within rounding is reported as overlap with a zero normal, never a NaN normal;
 *  - a hard iteration bound returns the best result with PX_WARN_MAX_ITERATIONS. */
#include "gjk_internal.h"
#include "epa_internal.h" /* the transposed copies and their scans (epa_scan.c) */

/* Define PX_GJK_TRACE when compiling this file to print every iteration (debugging only). */
#ifdef PX_GJK_TRACE
#include <stdio.h>
#define GJK_TRACE(...) fprintf(stderr, __VA_ARGS__)
#else
#define GJK_TRACE(...) ((void)0)
#endif

#define PXI_CONFIG_COOKIE 0x50584743 /* "PXGC" */

/* How many touching bands a separating plane must clear for the overlap query to stop early. */
#define PXI_GJK_EARLY_OUT_BANDS 2.0f

/* Steps that do not shorten v (within rounding) allowed per query before the loop gives up on them. */
#define PXI_GJK_MAX_STALLS 2

/* Accelerated search directions from this many hull points (either shape) on; see pxi_gjk_run. */
#define PXI_GJK_ACCEL_MIN_POINTS 32

/* An accelerated step must shrink |v|^2 below this fraction of its value (|v| by 2.5%), or the
 * momentum ends (pxi_gjk_run). */
#define PXI_GJK_ACCEL_MIN_GAIN 0.95f

/* Whether a cold run on this pair may take accelerated directions: a hull of many points (a polytope of a
 * few vertices is done in a handful of iterations, which the momentum only lengthens: 8-point clouds
 * 5.0 -> 5.4 iterations). */
static bool gjk_accelerates(const pxi_gjk_pair* pair)
{
    const int na = pair->a->type == PX_SHAPE_HULL ? pair->a->hull.count : 0;
    const int nb = pair->b->type == PX_SHAPE_HULL ? pair->b->hull.count : 0;
    return na >= PXI_GJK_ACCEL_MIN_POINTS || nb >= PXI_GJK_ACCEL_MIN_POINTS;
}

px_gjk_config px_gjk_default_config(void)
{
    px_gjk_config c;
    c.max_iterations = PX_GJK_MAX_ITERATIONS;
    c.rel_tolerance = PX_GJK_REL_TOLERANCE;
    c.abs_tolerance = PX_GJK_ABS_TOLERANCE;
    c.use_radii = true;
    c.internal_value = PXI_CONFIG_COOKIE;
    return c;
}

/* Large point clouds are scanned through transposed copies (epa_scan.c) from a cold distance run's first
 * iteration: a copy costs about one scan of the packed points and makes every later scan about twice as
 * fast (GJK on 1024-point clouds: 29% faster from the third iteration on, 40% from the first; runs of one
 * or two iterations lose, so warm-started runs and overlap queries keep the packed scans). */
#define GJK_SOA_MIN_POINTS 128

/* Which of the pair's hulls take transposed copies: large, unclimbed point clouds that fit the buffer
 * (PXI_EPA_SOA_POINTS points for both), on a target with a vector scan, in a pair whose size bounds every
 * product of a point and a direction (a point of A - B) below overflow. */
static void gjk_copies_wanted(const pxi_gjk_pair* pair, bool* ta, bool* tb)
{
    const int na = pair->a->type == PX_SHAPE_HULL ? pair->a->hull.count : 0;
    const int nb = pair->b->type == PX_SHAPE_HULL ? pair->b->hull.count : 0;
    *ta = pair->scan_a != NULL && pair->climb_a == NULL && pair->scanned_a == pair->a->hull.points &&
          na >= GJK_SOA_MIN_POINTS &&
          na <= PXI_EPA_SOA_POINTS;
    *tb = pair->scan_b != NULL && pair->climb_b == NULL && pair->scanned_b == pair->b->hull.points &&
          nb >= GJK_SOA_MIN_POINTS &&
          nb <= PXI_EPA_SOA_POINTS - (*ta ? na : 0);
    if ((*ta || *tb) && (!(pair->w_bound >= 0.0f && pair->w_bound < PX_MAX_PAIR_SIZE) ||
                         pxi_epa_scan_select(GJK_SOA_MIN_POINTS) == NULL))
    {
        *ta = *tb = false;
    }
}

/* The built hull of a shape when it is to be climbed (px_hull_def.climb_min_vertices). */
static const struct px_hull* pxi_climbing_hull(const px_shape* s)
{
    if (s->type == PX_SHAPE_HULL && s->hull.built != NULL && s->hull.built->climb_nodes != NULL &&
        s->hull.count >= s->hull.built->climb_min_vertices &&
        s->hull.points == s->hull.built->vertices && s->hull.count == s->hull.built->vertex_count)
    {
        return s->hull.built;
    }
    return NULL;
}

/* Side 0 (A) or 1 (B) of the pair scanned through the transposed copy its built hull keeps (px_hull.soa)
 * instead of its own scan or its direction table; false, the pair unchanged, when it keeps none. The
 * vertices are finite, so the scan checks for non-finite products only when the pair's size does not bound
 * them. */
static bool gjk_scan_kept_copy(pxi_gjk_pair* pair, int side)
{
    const px_shape* s = side == 0 ? pair->a : pair->b;
    const float* kept = pxi_hull_shape_soa(s);
    const bool bounded = pair->w_bound >= 0.0f && pair->w_bound < PX_MAX_PAIR_SIZE;
    pxi_epa_scan_fn scan = kept != NULL ? pxi_epa_scan_for(s->hull.count, bounded) : NULL;
    if (scan == NULL)
    {
        return false;
    }
    if (side == 0)
    {
        pair->climb_a = NULL;
        pair->scan_a = scan;
        pair->scanned_a = kept;
    }
    else
    {
        pair->climb_b = NULL;
        pair->scan_b = scan;
        pair->scanned_b = kept;
    }
    return true;
}

/* Whether a shape is given by its points where it lies (a triangle or segment), not about its origin. */
static bool pxi_is_placed(const px_shape* s)
{
    return s->type == PX_SHAPE_TRIANGLE || s->type == PX_SHAPE_SEGMENT;
}

/* The middle of a shape (a triangle's or segment's centroid, any other shape's origin) into m, and its core's
 * radius about it (bound: the radius about the origin). */
static float pxi_placed_middle(const px_shape* s, float bound, vec3 m)
{
    if (s->type == PX_SHAPE_TRIANGLE)
    {
        for (int k = 0; k < 3; ++k)
        {
            m[k] = (s->triangle.a[k] + s->triangle.b[k] + s->triangle.c[k]) * (1.0f / 3.0f);
        }
        vec3 da, db, dc;
        px_v3_sub(s->triangle.a, m, da);
        px_v3_sub(s->triangle.b, m, db);
        px_v3_sub(s->triangle.c, m, dc);
        /* a hair over the exact radius: m and the differences are rounded */
        return sqrtf(px_maxf(px_v3_norm2(da), px_maxf(px_v3_norm2(db), px_v3_norm2(dc)))) * (1.0f + 4.0f * FLT_EPSILON);
    }
    if (s->type == PX_SHAPE_SEGMENT)
    {
        vec3 d;
        for (int k = 0; k < 3; ++k)
        {
            m[k] = 0.5f * (s->segment.a[k] + s->segment.b[k]);
        }
        px_v3_sub(s->segment.b, s->segment.a, d);
        return 0.5f * px_v3_norm(d) * (1.0f + 4.0f * FLT_EPSILON);
    }
    m[0] = m[1] = m[2] = 0.0f;
    return bound;
}

/* The pair's bound on |w| (pxi_gjk_pair.w_bound) for B at pair->pos_b. */
static void gjk_pair_bound(pxi_gjk_pair* pair)
{
    const px_shape* a = pair->a;
    const px_shape* b = pair->b;
    float ra = pxi_shape_bound(a), rb = pxi_shape_bound(b);
    pair->w_bound = (ra >= 0.0f && rb >= 0.0f) ? ra + rb + px_v3_norm(pair->pos_b) : -1.0f;
    if (pair->w_bound >= 0.0f && (pxi_is_placed(a) || pxi_is_placed(b)))
    {
        /* Triangles and segments are given in coordinates far from their own middles (a mesh's triangles):
         * measured from their middles, |w| is bounded by their radii and the distance between the middles,
         * and every coordinate by the middles' reach. The larger of the two scales the band, not their sum
         * of distances from the origins, which is up to twice the coordinates (a point 3e-3 over a triangle
         * at 1000 had read as touching, past the design's 16 eps C). The reach counts B's own coordinates
         * too (rb): B's supports are picked from them before they are moved into A's frame, and a product
         * with them rounds by eps times their size. A point posed at 3e6 touching the end of a segment 0.125
         * long given in world coordinates had a band of 1e-8 against that rounding's 0.4: B's support
         * picked the wrong end, and the overlap query's early out called the pair separated where the
         * distance query read 0. */
        vec3 ca, cb, cb_in_a, d;
        const float sa = pxi_placed_middle(a, ra, ca), sb = pxi_placed_middle(b, rb, cb);
        px_rot_mulv(&pair->rot_b, cb, cb_in_a);
        px_v3_add(cb_in_a, pair->pos_b, cb_in_a);
        px_v3_sub(cb_in_a, ca, d);
        const float spread = sa + sb + px_v3_norm(d);
        const float reach = px_maxf(px_maxf(px_v3_norm(ca) + sa, px_v3_norm(cb_in_a) + sb), rb);
        pair->w_bound = px_minf(pair->w_bound, px_maxf(spread, reach));
    }
}

void pxi_gjk_pair_move_b(pxi_gjk_pair* pair, const vec3 pos_b)
{
    px_v3_copy(pos_b, pair->pos_b);
    gjk_pair_bound(pair);
}

void pxi_gjk_pair_init(pxi_gjk_pair* pair, const px_shape* a, const px_shape* b, const px_transform* b_in_a)
{
    pair->a = a;
    pair->b = b;
    px_v3_copy(b_in_a->p, pair->pos_b);
    pair->b_rotated = !(b_in_a->q[0] == 0.0f && b_in_a->q[1] == 0.0f && b_in_a->q[2] == 0.0f);
    px_rot_from_quat(b_in_a->q, &pair->rot_b);
    pair->scan_a = a->type == PX_SHAPE_HULL ? pxi_hull_scan_select(a->hull.count) : NULL;
    pair->scan_b = b->type == PX_SHAPE_HULL ? pxi_hull_scan_select(b->hull.count) : NULL;
    pair->scanned_a = a->type == PX_SHAPE_HULL ? a->hull.points : NULL;
    pair->scanned_b = b->type == PX_SHAPE_HULL ? b->hull.points : NULL;
    gjk_pair_bound(pair);
    pair->climb_a = pxi_climbing_hull(a);
    pair->climb_b = pxi_climbing_hull(b);
    pair->scan_when_close = false;
    /* built hulls that are scanned, not climbed, scan the copy they keep: nothing to make per query */
    if (pair->climb_a == NULL && a->type == PX_SHAPE_HULL && a->hull.built != NULL)
    {
        (void)gjk_scan_kept_copy(pair, 0);
    }
    if (pair->climb_b == NULL && b->type == PX_SHAPE_HULL && b->hull.built != NULL)
    {
        (void)gjk_scan_kept_copy(pair, 1);
    }
    pair->climb_storage[0] = -1; /* cold: each climb starts from its hull's seed for the direction */
    pair->climb_storage[1] = -1;
    pair->climb_start = pair->climb_storage;
    pair->copies = 0;
    if (PX_UNLIKELY((a->type == PX_SHAPE_HULL && a->hull.count >= GJK_SOA_MIN_POINTS) ||
                    (b->type == PX_SHAPE_HULL && b->hull.count >= GJK_SOA_MIN_POINTS)))
    {
        bool ta, tb;
        gjk_copies_wanted(pair, &ta, &tb);
        pair->copies = (uint8_t)((ta ? 1 : 0) | (tb ? 2 : 0));
    }
}

/* Validate the shapes and the config of a query (not the pose). */
static px_status validate_shapes_config(const px_shape* a, const px_shape* b, const px_gjk_config* config)
{
    if (config != NULL)
    {
        if (config->max_iterations <= 0 || !(config->rel_tolerance > 0.0f) || !(config->abs_tolerance >= 0.0f) ||
            !px_is_finite(config->rel_tolerance) || !px_is_finite(config->abs_tolerance))
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    px_status status = pxi_shape_validate_fast(a);
    return status != PX_OK ? status : pxi_shape_validate_fast(b);
}

px_status pxi_gjk_validate(const px_gjk_input* input, const px_gjk_config* config)
{
    if (input == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = validate_shapes_config(input->a, input->b, config);
    return status != PX_OK ? status : px_transform_validate(&input->b_in_a);
}

static inline float pxi_square(float x)
{
    return x * x;
}

/* The touching band: radii sum plus the rounding floor of the whole computation (8 eps times the size of
 * the Minkowski points and the radii, the noise of the simplex solver's side tests), or the caller's
 * abs_tolerance if larger. Shapes closer than this touch. The distance, overlap and contact queries all
 * decide with this one function, so they agree on every pair. */
float pxi_gjk_touch_radius(float radius_sum, float max_w, float abs_tolerance)
{
    return radius_sum + px_maxf(8.0f * FLT_EPSILON * (max_w + radius_sum), abs_tolerance);
}

/* Rebuild the cached simplex from support indices. False (simplex left empty) when the cache is empty or
 * does not fit these shapes. */
static bool warm_start(const pxi_gjk_pair* pair, const px_simplex_cache* cache, px_simplex* s, bool* non_finite)
{
    s->count = 0;
    *non_finite = false;
    if (cache == NULL || cache->count < 1 || cache->count > PX_SIMPLEX_MAX_VERTICES)
    {
        return false;
    }
    for (int i = 0; i < cache->count; ++i)
    {
        vec3 p, q;
        if (!pxi_shape_vertex(pair->a, cache->index_a[i], p) || !pxi_vertex_b(pair, cache->index_b[i], q))
        {
            s->count = 0;
            return false;
        }
        vec3 w;
        px_v3_sub(p, q, w);
        if (!px_v3_is_finite(w))
        {
            /* a cached vertex gone NaN or Inf (the caller's hull points changed): the error a cold run's scans
             * report, not a simplex that reads as enclosing the origin (review 53: PX_OK with a NaN point) */
            s->count = 0;
            *non_finite = true;
            return false;
        }
        if (!pxi_simplex_contains(s, w, cache->index_a[i], cache->index_b[i]))
        {
            pxi_simplex_push(s, p, q, cache->index_a[i], cache->index_b[i]);
        }
    }
    return s->count > 0;
}

/* The run on a copy of the pair whose large clouds are scanned through transposed copies in this frame's
 * buffer. The copies' scans skip the non-finite check of the packed scans: the copies are checked for NaN
 * and Inf as they are made (a cloud with one keeps its packed scan, which reports it), and the pair's size
 * bounds every product (gjk_copies_wanted). The pair copy shares the pair's climb state. Kept out of line,
 * so that runs without copies do not set up its 24 KB frame. */
static PX_NOINLINE px_status gjk_run_transposed(const pxi_gjk_pair* pair, const px_gjk_config* config,
                                                px_simplex_cache* cache, float separation_radius,
                                                pxi_gjk_state* st)
{
    float buffer[3 * PXI_EPA_SOA_POINTS];
    const bool ta = (pair->copies & 1) != 0, tb = (pair->copies & 2) != 0;
    pxi_gjk_pair copy = *pair;
    copy.copies = 0;
    const int na = ta ? pair->a->hull.count : 0;
    if (ta && pxi_epa_soa_from_packed(pair->a->hull.points, na, buffer))
    {
        copy.scanned_a = buffer;
        copy.scan_a = pxi_epa_scan_finite_select(na);
    }
    if (tb && pxi_epa_soa_from_packed(pair->b->hull.points, pair->b->hull.count, buffer + 3 * na))
    {
        copy.scanned_b = buffer + 3 * na;
        copy.scan_b = pxi_epa_scan_finite_select(pair->b->hull.count);
    }
    return pxi_gjk_run(&copy, config, cache, separation_radius, st);
}

/* A final triangle simplex that is a sliver has its float closest point off by eps |w| times the product of
 * its two shortest edges over twice its area, in distance as in direction: a point 7e-7 from a sliver 100
 * long read 1.7e-3, another 8.2e-5 away read 1.8e-5 (review 55's sweep: 71 in 1e5 pairs of slivers against
 * points, segments and triangles beyond the design's 1e-5 S + 16 eps C). When GJK is about to stop on such
 * a triangle (that product over four times the area), it is solved again in double; an answer that differs
 * beyond rounding replaces v (true: the run goes on from it, once). */
static PX_NOINLINE bool sliver_recheck(px_simplex* s, vec3 v, float* vv)
{
    if (s->count != 3)
    {
        return false;
    }
    /* the edges scaled by their largest coordinate, so the sixth powers below stay near 1 */
    vec3 e[3];
    px_v3_sub(s->v[1].w, s->v[0].w, e[0]);
    px_v3_sub(s->v[2].w, s->v[1].w, e[1]);
    px_v3_sub(s->v[0].w, s->v[2].w, e[2]);
    float m = 0.0f;
    for (int k = 0; k < 3; ++k)
    {
        m = px_maxf(m, px_maxf(fabsf(e[0][k]), fabsf(e[1][k])));
    }
    if (!(m > 0.0f) || !(m < INFINITY))
    {
        return false;
    }
    const float inv = 1.0f / m;
    float l2[3];
    for (int i = 0; i < 3; ++i)
    {
        px_v3_scale(e[i], inv, e[i]);
        l2[i] = px_v3_norm2(e[i]);
    }
    vec3 n;
    px_v3_cross(e[0], e[1], n);
    const float nn = px_v3_norm2(n); /* (twice the area)^2 */
    const float longest = px_maxf(l2[0], px_maxf(l2[1], l2[2]));
    /* the two shortest edges' product squared: the product of all three over the longest */
    if (!(l2[0] * l2[1] * l2[2] > 16.0f * nn * longest))
    {
        return false; /* well shaped (or NaN) */
    }
    float bary[4];
    vec3 vd;
    const uint32_t f = pxi_simplex_solve_double(s, false, bary, vd);
    const float vvd = px_v3_norm2(vd);
    if (!(fabsf(vvd - *vv) > 64.0f * FLT_EPSILON * *vv) || !px_is_finite(vvd))
    {
        return false;
    }
    pxi_simplex_commit(s, f, bary);
    px_v3_copy(vd, v);
    *vv = vvd;
    return true;
}

/* A cold run on built hulls with direction tables takes a cache miss on a cell at every support. That pays
 * while the pair is apart, where GJK converges in a few steps along slowly turning directions; in a contact
 * query, a pair that overlaps or nearly touches takes steps in every direction and then usually EPA, which
 * scans the hulls' transposed copies (px_hull.soa) from end to end anyway. So a contact query's cold run
 * whose first step does not prove the pair apart scans those copies from its second support on: the hulls'
 * data streams into the cache once (bench_contact's overlapping built hulls, cycling: 256 vertices 6.9 -> 5.3
 * us, 1024 vertices 12.8 -> 10.6 us). Not for casts: their runs follow one another on the same hull, whose
 * table is then warm (a ray cast against a 256-vertex hull: 1.7 -> 2.8 us with the switch). Only hulls of up
 * to GJK_SCAN_SWITCH_MAX_VERTICES: above, a scan loses to the table even on cold data (hull.h), and a pair
 * apart that the first step does not prove so (elongated hulls side by side) paid a whole scan per support
 * (4077 vertices 1.1 -> 10.6 us a distance query, 15371 vertices 1.7 -> 30 us, the overlap query 0.8 -> 7.4
 * us, before casts and distance queries kept the tables). Both find a support vertex. True with the copy of
 * the pair in *scanning; false when no hull of the pair is climbed with a copy kept and at most that many
 * vertices. */
#define GJK_SCAN_SWITCH_MAX_VERTICES 1024
static bool gjk_scanning_pair(const pxi_gjk_pair* pair, pxi_gjk_pair* scanning)
{
    const bool sa = pair->climb_a != NULL && pair->a->hull.count <= GJK_SCAN_SWITCH_MAX_VERTICES;
    const bool sb = pair->climb_b != NULL && pair->b->hull.count <= GJK_SCAN_SWITCH_MAX_VERTICES;
    if (!sa && !sb)
    {
        return false;
    }
    *scanning = *pair;
    const bool a = sa && gjk_scan_kept_copy(scanning, 0);
    const bool b = sb && gjk_scan_kept_copy(scanning, 1);
    return a || b;
}

/* One run of GJK (pxi_gjk_run); allow_accel: accelerated directions may be taken (a distance or contact
 * query on a pair gjk_accelerates accepts), and *accelerated tells whether any step took one. */
static px_status gjk_run_pass(const pxi_gjk_pair* pair_in, const px_gjk_config* config, px_simplex_cache* cache,
                              float separation_radius, pxi_gjk_state* st, bool allow_accel, bool* accelerated)
{
    const pxi_gjk_pair* pair = pair_in;
    pxi_gjk_pair scanning; /* the pair with its climbed hulls scanned instead (gjk_scanning_pair) */
    px_simplex* s = &st->simplex;
    const float rel = config->rel_tolerance;
    const float abs_tol = config->abs_tolerance;
    /* Rounding floors, as multiples of FLT_EPSILON times the size of the Minkowski points |w|. Every test
     * below compares quantities of degree at most 2 in length, so nothing under- or overflows for shapes
     * of any size a float can describe. */
    const float k_gap = PX_GJK_ROUNDING_FACTOR * FLT_EPSILON;
    /* The early out decides with the touching band of the supports seen so far when a shape cannot bound
     * its size (user support functions); px_gjk_distance, running on, can meet larger ones and widen its
     * band, so the two queries could disagree on a pair within a band of touching (helper-44's sweep: 13 of
     * 18000 near-touching checks). Such pairs run on as the distance query does. */
    const bool early_out = separation_radius >= 0.0f;
    const bool separating_axis_exit = early_out && pair->w_bound >= 0.0f;

    float vv = FLT_MAX;
    float max_w2 = 0.0f, max_w = 0.0f;
    st->exit = PX_GJK_EXIT_NONE;
    st->iterations = 0;

    bool degenerate = false;
    if (cache != NULL && cache->count > 0)
    {
        /* climbs (where a direction table does not settle a support) start from the cached vertices */
        if (pair->climb_a != NULL && cache->index_a[0] >= 0 && cache->index_a[0] < pair->a->hull.count)
        {
            pair->climb_start[0] = pair->climb_a->climb_record[cache->index_a[0]];
        }
        if (pair->climb_b != NULL && cache->index_b[0] >= 0 && cache->index_b[0] < pair->b->hull.count)
        {
            pair->climb_start[1] = pair->climb_b->climb_record[cache->index_b[0]];
        }
    }
    bool cached_non_finite = false;
    const bool warm = warm_start(pair, cache, s, &cached_non_finite);
    if (PX_UNLIKELY(cached_non_finite))
    {
        return PX_ERR_NON_FINITE;
    }
    if (warm)
    {
        uint32_t f = pxi_simplex_reduce(s, st->v, &degenerate);
        vv = px_v3_norm2(st->v);
        max_w2 = pxi_simplex_max_norm2(s);
        max_w = sqrtf(max_w2);
        if (f == 15u)
        {
            /* the cached tetrahedron still encloses the origin */
            px_v3_zero(st->v);
            vv = 0.0f;
            st->exit = PX_GJK_EXIT_OVERLAP;
        }
    }
    else
    {
        /* Start direction: the cached axis, else from B's origin towards A's (A - B sits around -p_b). */
        if (cache != NULL && px_v3_norm2(cache->axis) > 0.0f && px_v3_is_finite(cache->axis))
        {
            /* only its direction counts, and the caller sets its length: made unit, so that the first
             * supports' products stay bounded as the pair's size bounds the later ones (the transposed
             * copies' scan relies on that: a review's axis of 3e38 overflowed them) */
            (void)px_v3_normalize_any(cache->axis, st->v);
        }
        else
        {
            px_v3_negate(pair->pos_b, st->v);
        }
        if (!(px_v3_norm2(st->v) > 0.0f))
        {
            px_v3_set(1.0f, 0.0f, 0.0f, st->v);
        }
    }

    /* Accelerated directions (Nesterov momentum on GJK's Frank-Wolfe view, after Montaut et al., "Collision
     * Detection Accelerated: An Optimization Perspective", RSS 2022): on large hulls GJK's directions zigzag
     * towards the closest points, one support plane at a time. The support is looked up along a running
     * average y of the points between v and the previous support, weighted (k + 1) / (k + 3) at step k, which
     * damps the zigzag: 1024-point pairs take 7.6 iterations instead of 9.5 and touch fewer cells of the
     * direction tables. Only the search direction changes: a support along y proves nothing about v's
     * duality gap, so when that gap looks closed (or the support is already in the simplex) the run drops
     * the momentum and goes on with plain steps, which alone decide the exits. Only runs whose first plain
     * step proves the shapes apart (a separating plane) take it: an overlapping pair's last simplex seeds
     * EPA, and the momentum's blended supports made that seed worse (resting contacts on 256-point clouds
     * took 18.4 EPA iterations instead of 15.0). Not for warm starts (already near the answer) nor the
     * overlap query (its early out wants v's own plane). */
    const bool accel_allowed = allow_accel && !warm; /* (pxi_gjk_run checked the query and the shapes) */
    bool accel = false;
    vec3 w_prev, y_prev;
    px_v3_copy(st->v, w_prev);
    px_v3_copy(st->v, y_prev);

    int iter = 0;
    int stalls = 0;
    bool sliver_rechecked = false;
iterate:
    while (st->exit == PX_GJK_EXIT_NONE && iter < config->max_iterations)
    {
        ++iter;
        vec3 d, p, q, w, y;
        px_v3_copy(st->v, y);
        if (accel)
        {
            const float m = (float)iter / (float)(iter + 2);
            vec3 avg;
            for (int k = 0; k < 3; ++k)
            {
                const float between = m * st->v[k] + (1.0f - m) * w_prev[k];
                avg[k] = m * y_prev[k] + (1.0f - m) * between;
            }
            if (px_v3_norm2(avg) > 0.0f && px_v3_is_finite(avg))
            {
                px_v3_copy(avg, y);
            }
            px_v3_copy(y, y_prev);
        }
        px_v3_negate(y, d);
        int32_t ib;
        int32_t ia = pxi_support_ab(pair, d, y, p, q, &ib);
        px_v3_sub(p, q, w);
        if (PX_UNLIKELY(ia == PXI_SUPPORT_NON_FINITE || ib == PXI_SUPPORT_NON_FINITE || !px_v3_is_finite(w)))
        {
            st->iterations = iter;
            return PX_ERR_NON_FINITE;
        }
        float ww = px_v3_norm2(w);
        if (ww > max_w2)
        {
            max_w2 = ww;
            max_w = sqrtf(ww);
        }
        const float band_w = pair->w_bound >= 0.0f ? pair->w_bound : max_w;
        float vw = px_v3_dot(st->v, w);
        px_v3_copy(w, w_prev);
        if (accel_allowed && !accel && vw > 0.0f && s->count == 0 && iter == 1)
        {
            accel = true; /* proven apart: the momentum from the next step on */
            *accelerated = true;
        }
        if (iter == 1 && pair_in->scan_when_close && !warm && !(vw > 0.0f) && gjk_scanning_pair(pair_in, &scanning))
        {
            pair = &scanning; /* not proven apart by the first step: scan from the next support on */
        }
        if (accel && s->count > 0)
        {
            /* the plain test below, on a support that is not v's: a gap that looks closed, or a support
             * already in the simplex, means the momentum has done its work (or overshot); w is not pushed
             * (it need not lie beyond v's plane) and the next step is plain */
            const float gap = vv - vw;
            if (gap <= rel * vv || gap <= px_maxf(k_gap * max_w, abs_tol) * sqrtf(vv) ||
                pxi_simplex_contains(s, w, ia, ib))
            {
                accel = false;
                continue;
            }
        }
        if (separating_axis_exit && vw > 0.0f)
        {
            /* The support plane of A - B against v separates by more than the radii. Any direction v
             * proves it, not only a closest point: on the first iteration the guess often suffices. It must
             * clear the touching band with room to spare for rounding, so that px_gjk_distance, whose |v|
             * can only be larger than this lower bound, never calls the same pair touching. */
            float band = pxi_gjk_touch_radius(separation_radius, band_w, abs_tol) - separation_radius;
            float clear = separation_radius + PXI_GJK_EARLY_OUT_BANDS * band;
            if (vw * vw > px_v3_norm2(st->v) * pxi_square(clear))
            {
                st->exit = PX_GJK_EXIT_SEPARATED;
                break;
            }
        }
        float vlen = sqrtf(vv);

        if (s->count > 0)
        {
            /* |v| is an upper bound of the core distance and v.w / |v| a lower bound */
            GJK_TRACE("gjk %d: vw %.9g vv %.9g\n", iter, vw, vv);
            float gap = vv - vw;
            if (gap <= rel * vv || gap <= px_maxf(k_gap * max_w, abs_tol) * vlen)
            {
                st->exit = PX_GJK_EXIT_CONVERGED;
                break;
            }
            if (pxi_simplex_contains(s, w, ia, ib))
            {
                st->exit = PX_GJK_EXIT_DUPLICATE;
                break;
            }
        }

        pxi_simplex_push(s, p, q, ia, ib);
        vec3 v_new;
        float bary[4];
        uint32_t f = pxi_simplex_solve_newest(s, max_w, bary, v_new, &degenerate);
        float vv_new = px_v3_norm2(v_new);
        if (PX_UNLIKELY(f != 15u && !(vv_new < vv)))
        {
            /* The gap test above showed w beyond v's plane, so in exact arithmetic the new simplex is nearer
             * than v. A float solve that says otherwise may be wrong rather than at the rounding floor: on a
             * sliver its plane is lost. A Minkowski triangle 5808 long and 0.35 high, its nearest vertex
             * 1386 from the origin, has its normal's direction off by up to eps times the product of its two
             * shortest edges over twice its area (4e-4): the face came out 0.142 from the origin where it is
             * 1.9e-4, and GJK stopped at 0.114 with the shapes touching. So the same simplex is solved again
             * in double, which such a sliver does not defeat. Only this rare step pays for it (the common
             * path costs the one comparison), and only a nearer answer is taken, so every step still
             * shortens v and the loop stays bounded. */
            float bary_d[4];
            vec3 v_d;
            uint32_t fd = pxi_simplex_solve_double(s, true, bary_d, v_d);
            float vv_d = px_v3_norm2(v_d);
            if (fd == 15u || vv_d < vv)
            {
                GJK_TRACE("gjk %d: float solve %u vv %.9g, double solve %u vv %.9g\n", iter, f, vv_new, fd, vv_d);
                f = fd;
                memcpy(bary, bary_d, sizeof(bary_d));
                px_v3_copy(v_d, v_new);
                vv_new = vv_d;
            }
        }
        if (f == 15u)
        {
            pxi_simplex_commit(s, f, bary);
            px_v3_zero(st->v);
            vv = 0.0f;
            st->exit = PX_GJK_EXIT_OVERLAP;
            break;
        }
        /* A step that does not shorten v is either the rounding floor (stop, keep the better previous
         * simplex) or a support plane tangent to a face of A - B, where the new simplex is no nearer but
         * points its next search somewhere new: a point beside a thin box gains 1e-7 relative and rounds
         * to "no progress" while the duality gap still says the lower bound is 0. Steps equal within the
         * rounding noise of |v|^2 (about eps |v| |w|) that keep the new vertex are therefore taken, a few
         * times at most, since the gap test above already showed that w lies well beyond v's plane.
         * Written so that NaN fails the test and takes the exit. */
        bool stalled = !(vv_new < vv);
        if (stalled && (f & (1u << (s->count - 1))) && stalls < PXI_GJK_MAX_STALLS &&
            vv_new <= vv + k_gap * vlen * max_w)
        {
            ++stalls;
            stalled = false;
        }
        if (stalled && accel)
        {
            /* a step along the momentum's direction proves nothing about v: drop it and go on plainly */
            s->count--;
            accel = false;
            continue;
        }
        if (stalled)
        {
            /* rounding floor: drop the new vertex and keep the previous, better simplex as it was */
            GJK_TRACE("gjk %d: w (%.9g %.9g %.9g) ia %d ib %d -> feature %u, no progress: vv %.9g -> %.9g\n", iter,
                      w[0], w[1], w[2], ia, ib, f, vv, vv_new);
            for (int k = 0; k < s->count; ++k)
            {
                GJK_TRACE("    simplex w%d = (%a, %a, %a)\n", k, s->v[k].w[0], s->v[k].w[1], s->v[k].w[2]);
            }
            s->count--;
            st->exit = sqrtf(vv) <= pxi_gjk_touch_radius(0.0f, band_w, abs_tol) ? PX_GJK_EXIT_OVERLAP
                                                                                  : PX_GJK_EXIT_NO_PROGRESS;
            break;
        }
        GJK_TRACE("gjk %d: w (%.9g %.9g %.9g) ia %d ib %d -> feature %u count %d vv %.9g -> %.9g%s\n", iter, w[0],
                  w[1], w[2], ia, ib, f, s->count, vv, vv_new, degenerate ? " (flat)" : "");
        if (accel && !(vv_new < PXI_GJK_ACCEL_MIN_GAIN * vv))
        {
            /* The momentum's average keeps its old points (the first supports, far corners of A - B) for
             * tens of steps, at weights falling as 1 / k^2: once |v| is small against them, y points along
             * them rather than towards the closest points, and each step shortens v by a percent or two
             * while a plain step would halve it (elliptic cylinder clouds 4e-10 apart: 33 iterations,
             * plain steps 5). A step that does not shorten |v| by 2.5% ends the momentum (a tenth cost
             * the smooth 1024-point pairs of bench_contact 2 a sixth of their speed); the step itself is
             * kept (it shortened v). */
            accel = false;
        }
        pxi_simplex_commit(s, f, bary);
        px_v3_copy(v_new, st->v);
        vv = vv_new;
        /* touching within rounding, within the caller's tolerance, or (overlap query) within the radii */
        if (sqrtf(vv) <= pxi_gjk_touch_radius(early_out ? separation_radius : 0.0f, band_w, abs_tol))
        {
            st->exit = PX_GJK_EXIT_OVERLAP;
            break;
        }
    }
    if (PX_UNLIKELY(!sliver_rechecked && s->count == 3 &&
                    (st->exit == PX_GJK_EXIT_CONVERGED || st->exit == PX_GJK_EXIT_DUPLICATE ||
                     st->exit == PX_GJK_EXIT_OVERLAP || st->exit == PX_GJK_EXIT_NO_PROGRESS)) &&
        sliver_recheck(s, st->v, &vv))
    {
        /* GJK stopped on a sliver whose double answer differs: the run goes on from it, once */
        sliver_rechecked = true;
        const float band_w = pair->w_bound >= 0.0f ? pair->w_bound : max_w;
        if (sqrtf(vv) <= pxi_gjk_touch_radius(early_out ? separation_radius : 0.0f, band_w, abs_tol))
        {
            st->exit = PX_GJK_EXIT_OVERLAP;
        }
        else if (iter < config->max_iterations)
        {
            st->exit = PX_GJK_EXIT_NONE;
            goto iterate;
        }
        /* (at the iteration bound the double answer stands with the exit it stopped on) */
    }
    st->iterations = iter;
    st->vv = vv;
    st->max_w2 = max_w2;
    st->max_w = max_w;
    st->band_w = pair->w_bound >= 0.0f ? pair->w_bound : max_w;
    if (cache != NULL)
    {
        px_simplex_store_cache(s, cache);
        cache->metric = vv;
        if (vv > 0.0f)
        {
            px_v3_copy(st->v, cache->axis);
        }
    }
    if (st->exit == PX_GJK_EXIT_NONE)
    {
        st->exit = PX_GJK_EXIT_MAX_ITERATIONS;
        return PX_WARN_MAX_ITERATIONS;
    }
    return PX_OK;
}

/* Whether a run ended within a few convergence slacks of touching (or overlapping), for either threshold
 * the queries decide with: the cores' (distance) or the radii's sum (overlap, contact). */
static bool gjk_near_touching(const pxi_gjk_pair* pair, const px_gjk_config* config, const pxi_gjk_state* st)
{
    const float vlen = sqrtf(st->vv);
    const float slack = px_maxf(config->rel_tolerance * vlen,
                                px_maxf(PX_GJK_ROUNDING_FACTOR * FLT_EPSILON * st->max_w, config->abs_tolerance));
    const float radii = pair->a->radius + pair->b->radius;
    return !(vlen > pxi_gjk_touch_radius(radii, st->band_w, config->abs_tolerance) + 4.0f * slack);
}

px_status pxi_gjk_run(const pxi_gjk_pair* pair, const px_gjk_config* config, px_simplex_cache* cache,
                      float separation_radius, pxi_gjk_state* st)
{
    /* Not for runs that usually end in an iteration or two, too few to pay for the copies: warm starts
     * (bench_gjk's warm repeats at 1024 points: 1.1 iterations, 3.3 us with copies, 1.5 without) and
     * overlap queries, which stop at the first separating axis (1.3 -> 2.0 us at 1024 points). */
    if (PX_UNLIKELY(pair->copies != 0) && (cache == NULL || cache->count == 0) && separation_radius < 0.0f)
    {
        return gjk_run_transposed(pair, config, cache, separation_radius, st);
    }
    const bool may_accelerate = separation_radius < 0.0f && gjk_accelerates(pair);
    if (!may_accelerate)
    {
        bool unused = false;
        return gjk_run_pass(pair, config, cache, separation_radius, st, false, &unused);
    }
    /* what a plain run again would start from (below) */
    const int32_t starts[2] = { pair->climb_start[0], pair->climb_start[1] };
    px_simplex_cache saved;
    if (cache != NULL)
    {
        saved = *cache;
    }
    bool accelerated = false;
    px_status status = gjk_run_pass(pair, config, cache, separation_radius, st, true, &accelerated);
    if (PX_UNLIKELY(accelerated && status >= 0 && gjk_near_touching(pair, config, st)))
    {
        /* Near touching, the side of the band a run ends on depends on its path within the tolerance, and
         * the overlap query takes plain steps: an accelerated distance run ended 4.75e-12 apart where the
         * overlap query said touching (review 64; the true distance 2.3e-13). Such runs are made again with
         * plain steps, from the same start, so that the queries decide alike. */
        pair->climb_start[0] = starts[0];
        pair->climb_start[1] = starts[1];
        if (cache != NULL)
        {
            *cache = saved;
        }
        status = gjk_run_pass(pair, config, cache, separation_radius, st, false, &accelerated);
    }
    return status;
}

/* Turn a core state into the public result (frame A). */
static void fill_result(const pxi_gjk_pair* pair, const pxi_gjk_state* st, const px_gjk_config* config,
                        px_gjk_result* r)
{
    vec3 pa, pb;
    pxi_simplex_witness_refined(&st->simplex, pa, pb);
    float ra = config->use_radii ? pair->a->radius : 0.0f;
    float rb = config->use_radii ? pair->b->radius : 0.0f;
    r->iterations = st->iterations;
    r->exit = st->exit;
    px_v3_zero(r->normal);
    if (st->exit == PX_GJK_EXIT_OVERLAP || !(st->vv > 0.0f))
    {
        /* cores overlap: pa and pb coincide up to rounding; report their midpoint on both */
        vec3 m;
        px_v3_add(pa, pb, m);
        px_v3_scale(m, 0.5f, m);
        px_v3_copy(m, r->point_a);
        px_v3_copy(m, r->point_b);
        r->distance = 0.0f;
        return;
    }
    float dist = sqrtf(st->vv);
    vec3 n;
    pxi_unit_from(st->v, st->vv, -1.0f, n); /* v = pa - pb points from B to A */
    float r_sum = ra + rb;
    if (dist > pxi_gjk_touch_radius(r_sum, st->band_w, config->abs_tolerance))
    {
        px_v3_mad(pa, ra, n, r->point_a);
        px_v3_mad(pb, -rb, n, r->point_b);
        px_v3_copy(n, r->normal);
        r->distance = dist - r_sum;
        return;
    }
    /* the (rounded) shapes overlap or touch: one point of both, on the segment between the cores */
    vec3 m;
    px_v3_mad(pa, dist * (r_sum > 0.0f ? ra / r_sum : 0.5f), n, m);
    px_v3_copy(m, r->point_a);
    px_v3_copy(m, r->point_b);
    r->distance = 0.0f;
}

/* Resolve a NULL config to the defaults. */
static const px_gjk_config* config_or_default(const px_gjk_config* config, px_gjk_config* storage)
{
    if (config != NULL)
    {
        return config;
    }
    *storage = px_gjk_default_config();
    return storage;
}

/* Distance on validated shapes and config, with a normalized relative pose. */
static px_status distance_core(const px_shape* a, const px_shape* b, const px_transform* b_in_a,
                               const px_gjk_config* config, px_simplex_cache* cache, px_gjk_result* result)
{
    pxi_gjk_pair pair;
    pxi_gjk_pair_init(&pair, a, b, b_in_a);
    pxi_gjk_state st;
    px_status status = pxi_gjk_pair_range(&pair, 0.0f);
    if (status == PX_OK)
    {
        status = pxi_gjk_run(&pair, config, cache, -1.0f, &st);
    }
    if (status < 0)
    {
        if (cache != NULL)
        {
            memset(cache, 0, sizeof(*cache));
        }
        return status;
    }
    fill_result(&pair, &st, config, result);
    return status;
}

/* Overlap on validated shapes and config, with a normalized relative pose. */
static px_status overlap_core(const px_shape* a, const px_shape* b, const px_transform* b_in_a,
                              const px_gjk_config* config, px_simplex_cache* cache, bool* overlap)
{
    pxi_gjk_pair pair;
    pxi_gjk_pair_init(&pair, a, b, b_in_a);
    float radius = config->use_radii ? a->radius + b->radius : 0.0f;
    pxi_gjk_state st;
    px_status status = pxi_gjk_pair_range(&pair, 0.0f);
    if (status == PX_OK)
    {
        status = pxi_gjk_run(&pair, config, cache, radius, &st);
    }
    if (status < 0)
    {
        if (cache != NULL)
        {
            memset(cache, 0, sizeof(*cache));
        }
        return status;
    }
    /* Without a separating plane or an enclosing simplex the loop stopped on its tolerance or on the
     * rounding floor; then |v| decides, as it does for px_gjk_distance, so both queries always agree. (The
     * last support plane is no proof: on long shapes a direction off by a rounding error puts it far
     * beyond the origin even when the shapes are apart.) */
    float touch = pxi_gjk_touch_radius(radius, st.band_w, config->abs_tolerance);
    *overlap = st.exit == PX_GJK_EXIT_OVERLAP || (st.exit != PX_GJK_EXIT_SEPARATED && st.vv <= touch * touch);
    return status;
}

/* Validate a relative-pose query and normalize its pose. */
static px_status prepare_relative(const px_gjk_input* input, const px_gjk_config* config, px_transform* rel)
{
    if (input == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = validate_shapes_config(input->a, input->b, config);
    if (status != PX_OK)
    {
        return status;
    }
    return px_transform_normalized(&input->b_in_a, rel);
}

/* Validate a world-space query: shapes, config, poses; build the relative pose. */
static px_status prepare_world(const px_shape* a, const px_transform* ta, const px_shape* b, const px_transform* tb,
                               const px_gjk_config* config, px_transform* na, px_transform* rel)
{
    px_status status = validate_shapes_config(a, b, config);
    return status != PX_OK ? status : pxi_world_pair_poses(ta, tb, na, rel);
}

px_status px_gjk_distance(const px_gjk_input* input, const px_gjk_config* config, px_simplex_cache* cache,
                          px_gjk_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    px_transform rel;
    px_status status = prepare_relative(input, config, &rel);
    if (status != PX_OK)
    {
        return status;
    }
    px_gjk_config defaults;
    return distance_core(input->a, input->b, &rel, config_or_default(config, &defaults), cache, result);
}

px_status px_gjk_distance_world(const px_shape* a, const px_transform* ta, const px_shape* b, const px_transform* tb,
                                const px_gjk_config* config, px_gjk_result* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    px_transform na, rel;
    px_status status = prepare_world(a, ta, b, tb, config, &na, &rel);
    if (status != PX_OK)
    {
        return status;
    }
    px_gjk_config defaults;
    status = distance_core(a, b, &rel, config_or_default(config, &defaults), NULL, result);
    if (status < 0)
    {
        return status;
    }
    px_transform_point(&na, result->point_a, result->point_a);
    px_transform_point(&na, result->point_b, result->point_b);
    px_transform_vector(&na, result->normal, result->normal);
    return status;
}

px_status px_gjk_overlap(const px_gjk_input* input, const px_gjk_config* config, px_simplex_cache* cache,
                         bool* overlap)
{
    if (overlap == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *overlap = false;
    px_transform rel;
    px_status status = prepare_relative(input, config, &rel);
    if (status != PX_OK)
    {
        return status;
    }
    px_gjk_config defaults;
    return overlap_core(input->a, input->b, &rel, config_or_default(config, &defaults), cache, overlap);
}

px_status px_gjk_overlap_world(const px_shape* a, const px_transform* ta, const px_shape* b, const px_transform* tb,
                               const px_gjk_config* config, bool* overlap)
{
    if (overlap == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *overlap = false;
    px_transform na, rel;
    px_status status = prepare_world(a, ta, b, tb, config, &na, &rel);
    if (status != PX_OK)
    {
        return status;
    }
    px_gjk_config defaults;
    return overlap_core(a, b, &rel, config_or_default(config, &defaults), NULL, overlap);
}
