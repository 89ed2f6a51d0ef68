/* Signed distance and contact between convex shapes (contact.h).
 *
 * The dispatch, cheapest exact path first:
 *  1. Closed forms. Spheres and capsules are rounded points and segments: their contact is the closest
 *     points of two segments (Ericson, RTCD 5.1.9) minus the radii. A sphere against a (rounded) box is a
 *     clamp in the box's frame. Two overlapping boxes take the separating-axis minimum over the 15 axes,
 *     which is the exact penetration depth of two boxes (box_sat.h, shared with the box-box manifold).
 *     Two small built hulls do the same over their face normals and Minkowski-face edge pairs (hull_sat.h).
 *     Both go before GJK, as a clear overlap needs no GJK run, unless the pair's cache says it was apart.
 *  2. GJK on the cores. While the cores are apart the contact is their distance minus the radii, also when
 *     that is negative: shallow contacts between rounded shapes never need EPA.
 *  3. EPA on the cores when they overlap, plus the radii.
 * Everything is computed in A's frame (B's pose relative to A) and mapped to world space at the end. */
#include "box_sat.h"
#include "hull_sat.h"

#include "../gjk/epa_internal.h"
#include "../gjk/gjk_internal.h"

#include "proxima/contact.h"

#define PXI_CONTACT_COOKIE 0x50584343 /* "PXCC" */

px_contact_config px_contact_default_config(void)
{
    px_contact_config c;
    c.gjk = px_gjk_default_config();
    c.epa_max_iterations = PX_EPA_MAX_ITERATIONS;
    c.epa_rel_tolerance = PX_EPA_REL_TOLERANCE;
    c.analytic = true;
    c.internal_value = PXI_CONTACT_COOKIE;
    return c;
}

static px_status validate_config(const px_contact_config* config)
{
    return pxi_contact_config_status(config);
}

/* Fill a contact from core witness points pa, pb, a unit normal n (A to B) and the core distance (signed:
 * negative when the cores overlap), adding the radii. */
static void contact_from_cores(const vec3 pa, const vec3 pb, const vec3 n, float core_distance, float ra, float rb,
                               px_contact* r)
{
    px_v3_mad(pa, ra, n, r->point_a);
    r->distance = core_distance - (ra + rb) + 0.0f; /* + 0: a touching contact reads 0, not -0 */
    px_v3_mad(r->point_a, r->distance, n, r->point_b);
    (void)pb;
    px_v3_copy(n, r->normal);
}

/* ------------------------------------------------------------------------------------------------ */
/* Closed forms                                                                                      */

/* Core segment of a point-like or segment-like shape in its own frame. False for other shapes. */
static bool core_segment(const px_shape* s, vec3 p, vec3 q)
{
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        px_v3_zero(p);
        px_v3_zero(q);
        return true;
    case PX_SHAPE_CAPSULE:
        px_v3_set(0.0f, -s->capsule.half_height, 0.0f, p);
        px_v3_set(0.0f, s->capsule.half_height, 0.0f, q);
        return true;
    case PX_SHAPE_SEGMENT:
        px_v3_copy(s->segment.a, p);
        px_v3_copy(s->segment.b, q);
        return true;
    default:
        return false;
    }
}

/* Rounded point or segment against another: closest points of the cores. False (not handled) when the
 * cores touch, where the normal needs EPA's care. */
static bool contact_segments(const px_shape* a, const px_shape* b, const pxi_gjk_pair* pair, px_contact* r)
{
    vec3 pa, qa, pb, qb;
    if (!core_segment(a, pa, qa) || !core_segment(b, pb, qb))
    {
        return false;
    }
    pxi_point_from_b(pair, pb, pb);
    pxi_point_from_b(pair, qb, qb);
    vec3 ca, cb, d, n;
    pxi_closest_segment_segment(pa, qa, pb, qb, ca, cb);
    px_v3_sub(cb, ca, d);
    float len = px_v3_norm(d);
    float size = px_maxf(px_v3_norm(pair->pos_b), px_maxf(sqrtf(px_v3_distance2(pa, qa)), sqrtf(px_v3_distance2(pb, qb))));
    if (!(len > 64.0f * FLT_EPSILON * px_maxf(size, 1.0e-30f)))
    {
        return false;
    }
    (void)px_v3_normalize_any(d, n); /* largest component first: len^2 can be subnormal on tiny pairs */
    contact_from_cores(ca, cb, n, len, a->radius, b->radius, r);
    r->method = PX_CONTACT_ANALYTIC;
    return true;
}

/* Rounded point (A) against a rounded box (B), in A's frame. */
static bool contact_point_box(const px_shape* point, const px_shape* box, const pxi_gjk_pair* pair, bool swapped,
                              px_contact* r)
{
    /* the point (A's origin when not swapped, else B's position) in the box's frame */
    vec3 c;
    if (!swapped)
    {
        vec3 t;
        px_v3_negate(pair->pos_b, t);
        px_rot_tmulv(&pair->rot_b, t, c);
    }
    else
    {
        px_v3_copy(pair->pos_b, c);
    }
    const float* h = box->box.half_extents;
    vec3 cp, n_local;
    bool inside = true;
    for (int i = 0; i < 3; ++i)
    {
        cp[i] = px_clampf(c[i], -h[i], h[i]);
        inside = inside && cp[i] == c[i];
    }
    float core_distance;
    if (!inside)
    {
        vec3 d;
        px_v3_sub(c, cp, d); /* from the box towards the point */
        core_distance = px_v3_norm(d);
        if (!(core_distance > 0.0f))
        {
            return false;
        }
        (void)px_v3_normalize_any(d, n_local); /* largest component first, as in contact_segments */
    }
    else
    {
        /* inside the core box: leave through the nearest face */
        int best = 0;
        float best_pen = INFINITY;
        for (int i = 0; i < 3; ++i)
        {
            float pen = h[i] - fabsf(c[i]);
            if (pen < best_pen)
            {
                best_pen = pen;
                best = i;
            }
        }
        px_v3_zero(n_local);
        n_local[best] = c[best] >= 0.0f ? 1.0f : -1.0f;
        cp[best] = n_local[best] * h[best];
        core_distance = -best_pen;
    }
    /* n_local points from the box to the point; express witnesses and normal in A's frame */
    vec3 box_pt, pt, n;
    if (!swapped)
    {
        /* A is the point at the origin, B the box: normal A -> B is -n_local mapped to frame A */
        vec3 t;
        px_rot_mulv(&pair->rot_b, cp, t);
        px_v3_add(t, pair->pos_b, box_pt);
        px_rot_mulv(&pair->rot_b, n_local, n);
        px_v3_negate(n, n);
        px_v3_zero(pt);
        contact_from_cores(pt, box_pt, n, core_distance, point->radius, box->radius, r);
    }
    else
    {
        /* A is the box (identity frame), B the point at pos_b: normal A -> B is n_local */
        contact_from_cores(cp, pair->pos_b, n_local, core_distance, box->radius, point->radius, r);
    }
    r->method = PX_CONTACT_ANALYTIC;
    return true;
}

/* Two boxes whose cores overlap: the separating-axis minimum (exact depth; box_sat.h). Returns false when
 * the cores overlap by no more than min_overlap along some axis (apart, touching, or too close to touching
 * to decide here: GJK handles those exactly), and when the witness pair does not lie on the boxes
 * (pxi_box_witness_on_boxes). */
static bool contact_box_box(const px_shape* a, const px_shape* b, const pxi_gjk_pair* pair, float min_overlap,
                            px_contact* r)
{
    pxi_box_sat sat;
    pxi_box_sat_init(a->box.half_extents, b->box.half_extents, &pair->rot_b, pair->pos_b, &sat);
    float best = INFINITY;
    int best_kind = -1;
    for (int k = 0; k < 15; ++k)
    {
        float o = pxi_box_sat_overlap(&sat, k); /* +INFINITY for parallel edges: neither stops nor wins */
        if (!(o > min_overlap))
        {
            return false; /* a separating, touching or nearly touching axis */
        }
        float biased = pxi_box_sat_biased(&sat, k, o);
        if (biased < best)
        {
            best = biased;
            best_kind = k;
        }
    }
    vec3 n;
    pxi_box_sat_axis(&sat, best_kind, n);
    /* the depth along the chosen axis, recomputed from the unit axis (the per-axis formulas above round
     * differently): the caller's threshold holds for the depth returned */
    float depth = pxi_box_overlap(&sat, n);
    if (!(depth > min_overlap))
    {
        return false;
    }
    if (px_v3_dot(n, pair->pos_b) < 0.0f)
    {
        px_v3_negate(n, n); /* from A towards B */
    }
    vec3 pa, pb;
    pxi_box_witness(&sat, best_kind, n, depth, pa, pb);
    if (!pxi_box_witness_on_boxes(&sat, n, depth, pa))
    {
        return false; /* a face axis that no pair of points over the face realizes: GJK and EPA */
    }
    contact_from_cores(pa, pb, n, -depth, a->radius, b->radius, r);
    r->method = PX_CONTACT_ANALYTIC;
    return true;
}

/* Two small built hulls whose cores overlap: the separating-axis minimum (exact depth; hull_sat.h). False
 * under the same conditions as contact_box_box, and when the test does not decide. */
static bool contact_hull_sat(const pxi_gjk_pair* pair, float min_overlap, px_contact* r)
{
    pxi_hull_sat_result sat;
    if (!pxi_hull_sat_contact(pair, min_overlap, &sat))
    {
        return false;
    }
    contact_from_cores(sat.point_a, sat.point_a, sat.normal, -sat.depth, pair->a->radius, pair->b->radius, r);
    r->method = PX_CONTACT_ANALYTIC;
    return true;
}

/* Largest distance of a core point from the shape's origin, for the analytic shapes. */
static float shape_extent(const px_shape* s)
{
    switch (s->type)
    {
    case PX_SHAPE_CAPSULE:
        return s->capsule.half_height;
    case PX_SHAPE_SEGMENT:
        return px_maxf(px_v3_norm(s->segment.a), px_v3_norm(s->segment.b));
    case PX_SHAPE_BOX:
        return px_v3_norm(s->box.half_extents);
    default:
        return 0.0f;
    }
}

static bool is_point_or_segment(px_shape_type t)
{
    return t == PX_SHAPE_POINT || t == PX_SHAPE_SPHERE || t == PX_SHAPE_CAPSULE || t == PX_SHAPE_SEGMENT;
}

static bool is_point(px_shape_type t)
{
    return t == PX_SHAPE_POINT || t == PX_SHAPE_SPHERE;
}

/* Closed-form contact when one exists for this pair; false to fall through to GJK/EPA. A closed form
 * whose distance lands within a few rounding bands of 0 is dropped too: GJK decides touching there, so
 * that the contact's sign always matches px_gjk_distance and px_gjk_overlap. */
static bool contact_analytic(const pxi_gjk_pair* pair, px_contact* r)
{
    px_shape_type ta = pair->a->type, tb = pair->b->type;
    bool done = false;
    if (is_point_or_segment(ta) && is_point_or_segment(tb))
    {
        done = contact_segments(pair->a, pair->b, pair, r);
    }
    else if (is_point(ta) && tb == PX_SHAPE_BOX)
    {
        done = contact_point_box(pair->a, pair->b, pair, false, r);
    }
    else if (ta == PX_SHAPE_BOX && is_point(tb))
    {
        done = contact_point_box(pair->b, pair->a, pair, true, r);
    }
    if (!done)
    {
        return false;
    }
    float scale = px_v3_norm(pair->pos_b) + pair->a->radius + pair->b->radius + shape_extent(pair->a) +
                  shape_extent(pair->b);
    return fabsf(r->distance) > 64.0f * FLT_EPSILON * scale;
}

/* ------------------------------------------------------------------------------------------------ */
/* GJK and EPA                                                                                       */

/* The overlap of the cores along the unit direction n (A to B): A's support along n less B's along -n, an
 * upper bound of the depth (negative: apart along n). */
static float overlap_along(const pxi_gjk_pair* pair, const vec3 n)
{
    vec3 m, sa, sb;
    px_v3_negate(n, m);
    pxi_support_a(pair, n, sa);
    pxi_support_b(pair, m, sb);
    return px_v3_dot(n, sa) - px_v3_dot(n, sb);
}

/* A box's face normals are exact axes, and EPA's are not on a box thin across one of them: the polytope's
 * triangles there span the box's thickness, so their normals carry the rounding of the vertices over that
 * thickness (a plate 1e-4 thick at coordinates near 1 tilts them by 1e-4, and the overlap along them errs by
 * as much). When the cores touch along a box axis (overlap at most `margin`, rounding) EPA can thus answer a
 * depth of the plate's thickness instead of 0. True, with that axis in `normal` (A to B), when some box
 * axis shows the cores touching. Only boxes thin against the rounding (a half extent within 1024 margins)
 * are asked: EPA's normals on the others are good. */
static bool box_axis_touching(const pxi_gjk_pair* pair, float margin, vec3 normal)
{
    for (int side = 0; side < 2; ++side)
    {
        const px_shape* s = side == 0 ? pair->a : pair->b;
        if (s->type != PX_SHAPE_BOX)
        {
            continue;
        }
        const float* h = s->box.half_extents;
        if (!(px_minf(h[0], px_minf(h[1], h[2])) <= 1024.0f * margin))
        {
            continue;
        }
        for (int k = 0; k < 3; ++k)
        {
            vec3 axis = { 0.0f, 0.0f, 0.0f };
            axis[k] = 1.0f;
            if (side == 1 && pair->b_rotated)
            {
                px_v3_copy(pair->rot_b.c[k], axis);
            }
            for (int sign = -1; sign <= 1; sign += 2)
            {
                vec3 n;
                px_v3_scale(axis, (float)sign, n);
                if (overlap_along(pair, n) <= margin)
                {
                    px_v3_copy(n, normal);
                    return true;
                }
            }
        }
    }
    return false;
}

/* GJK on the pair with B moved by `move` along n (A to B): true when it ran and found the cores apart, its
 * state in st. The refinements below use it: apart by a gap well above the rounding, GJK's closest points
 * and direction are well conditioned where a touching simplex's are not. */
static bool gjk_moved_apart(const pxi_gjk_pair* pair, const px_gjk_config* gjk, const vec3 n, float move,
                            pxi_gjk_state* st)
{
    pxi_gjk_pair moved = *pair;
    moved.climb_start = moved.climb_storage; /* a copied pair must use its own climb state */
    px_v3_mad(moved.pos_b, move, n, moved.pos_b);
    return pxi_gjk_run(&moved, gjk, NULL, -1.0f, st) >= 0 && st->exit != PX_GJK_EXIT_OVERLAP && st->vv > 0.0f;
}

/* Gap for separated_witness, in touching bands: well above the band, far below any feature that matters (a
 * sweep of 32, 256 and 2048 over seven seeds of contact_accuracy: 256 best). */
#define PXI_TOUCH_WITNESS_GAP 256.0f

/* An EPA witness face lower than this over its longest edge has its witness made again by separated_witness
 * (one GJK run more). */
#define PXI_SLIVER_WITNESS_ASPECT 1.0e-2f

/* A witness for a contact of depth `depth` (0: touching within rounding) along n (A to B), into `point`: the
 * midpoint of GJK's closest points with B moved away along n by the depth and `gap` more, B's point moved
 * back by the gap. A touching simplex or polytope gives witness points through barycentric weights as
 * ill-conditioned as its thinness, and a stuck EPA face (pxi_epa_result.stuck_face) is a triangle of a
 * polytope that rounding broke; apart by a gap well above the rounding, the closest points are well
 * conditioned, and moving B along the contact normal leaves them where they were. Unchanged (false) when
 * that GJK run fails, does not find the cores apart, or gives points that do not meet when B is moved
 * back. */
static bool separated_witness(const pxi_gjk_pair* pair, const px_gjk_config* gjk, const vec3 n, float depth,
                              float gap, vec3 point)
{
    const float nn = px_v3_norm2(n);
    const float move = depth + gap;
    if (!(nn > 0.5f && nn < 2.0f && gap > 0.0f && depth >= 0.0f && move < INFINITY))
    {
        return false; /* no normal (a degenerate EPA answer), or no usable gap */
    }
    /* Kept only when the two points, B's moved back, coincide within a few bands (8: a segment 8e-6 long
     * touching another had them 4.6e-6 apart, its closest point sliding along it with the move): n may be
     * no contact normal (EPA's at depth 0 often is not, and moving B along it barely separates the cores),
     * and the moved simplex's own weights can be off on a thin shape. */
    const float lim = 8.0f * gap / PXI_TOUCH_WITNESS_GAP;
    vec3 dir, pa, pb;
    px_v3_copy(n, dir);
    for (int attempt = 0; attempt < 2; ++attempt)
    {
        pxi_gjk_state st;
        if (!gjk_moved_apart(pair, gjk, dir, move, &st))
        {
            return false;
        }
        pxi_simplex_witness_refined(&st.simplex, pa, pb);
        px_v3_mad(pb, -move + depth, dir, pb); /* back to where B touches A along dir */
        if (px_v3_distance2(pa, pb) <= lim * lim)
        {
            break;
        }
        if (attempt == 1 || depth > 0.0f)
        {
            return false; /* (a depth measured along n is no depth along another direction) */
        }
        /* The points slid apart sideways: where only a corner or an edge end touches (a needle's end on
         * a face), every direction in a cone separates the cores, and moving along one tilted from the
         * face's normal by t shifts the closest points by the move times sin t, more than the limit on a
         * needle thinner than that. The direction between the moved shapes' closest points is the face's
         * normal: moved along it, the points meet. */
        pxi_unit_from(st.v, st.vv, -1.0f, dir); /* v = pa - pb: from A to B */
    }
    vec3 mid;
    px_v3_add(pa, pb, mid);
    px_v3_scale(mid, 0.5f, mid);
    if (!(px_v3_norm2(mid) < INFINITY))
    {
        return false;
    }
    px_v3_copy(mid, point);
    return true;
}

/* EPA's answer from a stuck face (pxi_epa_result.stuck_face): rounding broke the polytope, typically across
 * a shape thin against it, and the normals of its faces are tilted by it (a point 1e-11 off a 1.4e-6 thick
 * plate got the depth 5.5e-7 along a sliver's normal). GJK with B moved off along the answer's normal by
 * the depth and `gap` more finds the cores apart by about the gap, where its closest points are well
 * conditioned: the direction between them is a second normal, and its overlap a second upper bound of the
 * depth. True when that one is smaller: the answer becomes it (0 within `touch`), with the witness from
 * those closest points. */
static bool refine_stuck_face(const pxi_gjk_pair* pair, const px_gjk_config* gjk, float gap, float touch,
                              pxi_epa_result* epa)
{
    const float move = epa->depth + gap;
    if (!(px_v3_norm2(epa->normal) > 0.5f && gap > 0.0f && move < INFINITY))
    {
        return false;
    }
    pxi_gjk_state st;
    if (!gjk_moved_apart(pair, gjk, epa->normal, move, &st))
    {
        return false;
    }
    vec3 pa, pb, m;
    pxi_simplex_witness_refined(&st.simplex, pa, pb);
    pxi_unit_from(st.v, st.vv, -1.0f, m); /* v = pa - pb: m points from A to B */
    const float om = overlap_along(pair, m);
    if (!(om < epa->depth) || !px_v3_is_finite(pa))
    {
        return false;
    }
    epa->depth = om > touch ? om : 0.0f;
    px_v3_copy(m, epa->normal);
    px_v3_copy(pa, epa->point_a);
    px_v3_mad(pa, -epa->depth, m, epa->point_b);
    return true;
}

/* A normal from a simplex within a few hundred touching bands of the origin carries that simplex's
 * rounding relative to its tiny |v|, and can be tilted enough that the overlap along it exceeds the depth
 * by more than any tolerance (seed 9, sample 76934: 0.82 along GJK's normal, S 760, depth* 5.7e-4). When
 * the overlap along n contradicts the expected one (-distance, or the depth) by more than `slack`, GJK with
 * B moved off along n by `gap` finds the cores apart by about the gap, where the direction between its
 * closest points is well conditioned; n becomes that direction when the overlap along it is smaller. */
static bool refine_near_normal(const pxi_gjk_pair* pair, const px_gjk_config* gjk, float expected_overlap,
                               float slack, float gap, vec3 n)
{
    const float on = overlap_along(pair, n);
    if (!(on > expected_overlap + slack) || !(gap > 0.0f && gap < INFINITY))
    {
        return false; /* consistent (or NaN: left to the result guard) */
    }
    pxi_gjk_state st;
    if (!gjk_moved_apart(pair, gjk, n, gap, &st))
    {
        return false;
    }
    vec3 m;
    pxi_unit_from(st.v, st.vv, -1.0f, m); /* v = pa - pb: m points from A to B */
    if (!(overlap_along(pair, m) < on))
    {
        return false;
    }
    px_v3_copy(m, n);
    return true;
}

static px_status contact_core(const pxi_gjk_pair* pair, const px_contact_config* config, px_simplex_cache* cache,
                              px_contact* r)
{
    if (config->analytic && contact_analytic(pair, r))
    {
        return PX_OK;
    }
    const bool box_box = config->analytic && pair->a->type == PX_SHAPE_BOX && pair->b->type == PX_SHAPE_BOX;
    const bool hull_sat = config->analytic && pxi_hull_sat_applies(pair);
    /* a cache whose last answer was a distance: the pair is most likely still apart, and GJK goes first */
    const bool was_apart = cache != NULL && cache->count > 0 && cache->metric > 0.0f;
    if ((box_box || (hull_sat && !was_apart)) && pair->w_bound >= 0.0f)
    {
        /* Boxes, or small built hulls, overlapping along every axis by more than two touching bands: GJK
         * would report an overlap too, so the separating axes answer alone (a box resting on a box, without
         * a GJK run). */
        float band = pxi_gjk_touch_radius(0.0f, pair->w_bound, config->gjk.abs_tolerance);
        if (box_box ? contact_box_box(pair->a, pair->b, pair, 2.0f * band, r)
                    : contact_hull_sat(pair, 2.0f * band, r))
        {
            r->iterations = 0;
            return PX_OK;
        }
    }
    px_gjk_config gjk = config->gjk;
    gjk.use_radii = false;
    pxi_gjk_state st;
    px_status status = pxi_gjk_run(pair, &gjk, cache, -1.0f, &st);
    if (status < 0)
    {
        return status;
    }
    r->iterations = st.iterations;
    float ra = pair->a->radius, rb = pair->b->radius;
    if (st.exit != PX_GJK_EXIT_OVERLAP && st.vv > 0.0f)
    {
        /* The cores are apart: GJK's answer, minus the radii (negative for overlapping rounded shapes).
         * Within the touching band the distance is clamped to 0 at most, so the sign agrees with
         * px_gjk_distance and px_gjk_overlap, which decide with the same band. */
        vec3 pa, pb, n;
        pxi_simplex_witness_refined(&st.simplex, pa, pb);
        float core = sqrtf(st.vv);
        pxi_unit_from(st.v, st.vv, -1.0f, n); /* v = pa - pb points from B to A */
        const float band = pxi_gjk_touch_radius(0.0f, st.band_w, gjk.abs_tolerance);
        if (core <= PXI_TOUCH_WITNESS_GAP * band)
        {
            (void)refine_near_normal(pair, &gjk, -core, 4.0f * band, PXI_TOUCH_WITNESS_GAP * band, n);
            /* A box thinner than the refinement's gap: B moved off along a wrong normal passes beside it,
             * and the closest points there give another wrong one (a point touching a plate 3.9e-5 thick
             * near its rim: overlap 3.9e-5 along the refined normal, 90 degrees from the plate's;
             * contact_accuracy at PX_TEST_SEED=80). Its axis, when they touch along it, is the normal. */
            vec3 axis;
            if (overlap_along(pair, n) > -core + 4.0f * band && box_axis_touching(pair, 2.0f * band, axis))
            {
                px_v3_copy(axis, n);
            }
        }
        contact_from_cores(pa, pb, n, core, ra, rb, r);
        if (core <= pxi_gjk_touch_radius(ra + rb, st.band_w, gjk.abs_tolerance) && r->distance > 0.0f)
        {
            r->distance = 0.0f;
            px_v3_copy(r->point_a, r->point_b);
        }
        r->method = PX_CONTACT_GJK;
        return status;
    }
    /* The cores overlap or touch (GJK's simplex encloses the origin or passes within rounding of it; the
     * latter does not tell touching from a real overlap, so EPA decides, and a touching pair gets depth 0
     * with a valid normal): two boxes by their separating axes, everything else by EPA. */
    if (box_box && contact_box_box(pair->a, pair->b, pair, 0.0f, r))
    {
        r->iterations = st.iterations;
        return status;
    }
    if (hull_sat && contact_hull_sat(pair, 0.0f, r))
    {
        r->iterations = st.iterations;
        return status;
    }
    pxi_epa_result epa;
    px_status epa_status =
        pxi_epa_run(pair, &st.simplex, config->epa_max_iterations, config->epa_rel_tolerance, &epa);
    if (epa_status < 0)
    {
        return epa_status;
    }
    bool enclosed = st.simplex.count == 4 && st.simplex.feature == 15u;
    float band = pxi_gjk_touch_radius(0.0f, st.band_w, config->gjk.abs_tolerance);
    bool touching = false; /* along `axis` */
    vec3 axis;
    if (!enclosed && st.vv > 0.0f)
    {
        /* GJK stopped within the touching band without enclosing the origin. The cores touch when the
         * polytope grown from that thin simplex degenerated with no depth beyond the band, or when GJK's
         * direction shows them touching and EPA found more depth than that direction allows: the depth is
         * the least overlap over all directions, and on thin shapes rounding tilts the normals of EPA's
         * faces enough to miss the touching one (see box_axis_touching). */
        pxi_unit_from(st.v, st.vv, -1.0f, axis); /* GJK's direction, a valid normal if they touch */
        touching = epa.depth > 2.0f * band ? overlap_along(pair, axis) <= 2.0f * band
                                           : epa.exit == PXI_EPA_EXIT_BROKEN && epa.depth <= 2.0f * band;
    }
    /* touching along a box axis, EPA's depth notwithstanding (box_axis_touching) */
    const bool box_axis = !touching && epa.depth > 2.0f * band && box_axis_touching(pair, 2.0f * band, axis);
    if (touching || box_axis)
    {
        vec3 pa, pb;
        pxi_simplex_witness_refined(&st.simplex, pa, pb);
        (void)separated_witness(pair, &gjk, axis, 0.0f, PXI_TOUCH_WITNESS_GAP * band, pa);
        contact_from_cores(pa, pb, axis, 0.0f, ra, rb, r);
        r->iterations = st.iterations + epa.iterations;
        r->method = touching ? PX_CONTACT_GJK : PX_CONTACT_EPA;
        return touching || status != PX_OK ? status : epa_status;
    }
    if (epa.depth <= 2.0f * band)
    {
        /* touching within rounding: EPA's normal and witness are the polytope's, as ill-conditioned as it
         * is thin */
        (void)refine_near_normal(pair, &gjk, epa.depth, 4.0f * band, PXI_TOUCH_WITNESS_GAP * band, epa.normal);
        (void)separated_witness(pair, &gjk, epa.normal, 0.0f, PXI_TOUCH_WITNESS_GAP * band, epa.point_a);
    }
    else if (epa.stuck_face ? !refine_stuck_face(pair, &gjk, PXI_TOUCH_WITNESS_GAP * band, 2.0f * band, &epa)
                            : epa.witness_aspect < PXI_SLIVER_WITNESS_ASPECT)
    {
        /* A stuck face that a second normal did not improve, or a sliver witness face (a rod crossing a plate
         * 0.03 thick and 60 wide at coordinates near 1000: height 5e-4 of its length, whose weights carry
         * the rounding of the coordinates over that ratio; point_b had been 0.109 outside B against a
         * tolerance of 1e-3 S, contact_accuracy at PX_TEST_SEED=81): B moved off along the normal by the
         * depth and the gap gives well-conditioned closest points. */
        (void)separated_witness(pair, &gjk, epa.normal, epa.depth, PXI_TOUCH_WITNESS_GAP * band, epa.point_a);
    }
    contact_from_cores(epa.point_a, epa.point_b, epa.normal, epa.depth > 0.0f ? -epa.depth : 0.0f, ra, rb, r);
    r->iterations = st.iterations + epa.iterations;
    r->method = PX_CONTACT_EPA;
    return status != PX_OK ? status : epa_status;
}

/* The last guard: a result that is not finite or has no normal is an error, never a success. Valid shapes
 * do not get here (their normals are unit within rounding; the bounds below are loose on purpose); an
 * inconsistent user support function can (one that returns its direction grows EPA's polytope until its
 * cross products overflow, and the normal comes out zero). */
static px_status result_status(const px_contact* r, px_status status)
{
    float nn = px_v3_norm2(r->normal);
    bool finite = px_is_finite(r->distance) && px_v3_is_finite(r->point_a) && px_v3_is_finite(r->point_b);
    if (finite && nn > 0.98f && nn < 1.02f)
    {
        return status;
    }
    return finite && px_is_finite(nn) ? PX_ERR_DEGENERATE_INPUT : PX_ERR_NON_FINITE;
}

static const px_contact_config* config_or_default(const px_contact_config* config, px_contact_config* storage)
{
    if (config != NULL)
    {
        return config;
    }
    *storage = px_contact_default_config();
    return storage;
}

px_status px_contact_relative(const px_gjk_input* input, const px_contact_config* config, px_simplex_cache* cache,
                              px_contact* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    if (input == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = validate_config(config);
    if (status == PX_OK)
    {
        status = pxi_shape_validate_fast(input->a);
    }
    if (status == PX_OK)
    {
        status = pxi_shape_validate_fast(input->b);
    }
    px_transform rel;
    if (status == PX_OK)
    {
        status = px_transform_normalized(&input->b_in_a, &rel);
    }
    if (status != PX_OK)
    {
        return status;
    }
    px_contact_config defaults;
    pxi_gjk_pair pair;
    pxi_gjk_pair_init(&pair, input->a, input->b, &rel);
    pair.scan_when_close = true; /* EPA may follow: gjk_scanning_pair */
    status = pxi_gjk_pair_range(&pair, 0.0f);
    if (status == PX_OK)
    {
        status = contact_core(&pair, config_or_default(config, &defaults), cache, result);
    }
    if (status >= 0)
    {
        status = result_status(result, status);
    }
    if (status < 0)
    {
        memset(result, 0, sizeof(*result));
        if (cache != NULL)
        {
            memset(cache, 0, sizeof(*cache));
        }
    }
    return status;
}

px_status px_contact_world(const px_shape* a, const px_transform* ta, const px_shape* b, const px_transform* tb,
                           const px_contact_config* config, px_contact* result)
{
    if (result == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(result, 0, sizeof(*result));
    px_transform na;
    px_gjk_input input;
    input.a = a;
    input.b = b;
    px_status status = pxi_world_pair_poses(ta, tb, &na, &input.b_in_a);
    if (status != PX_OK)
    {
        return status;
    }
    status = px_contact_relative(&input, config, NULL, result);
    if (status < 0)
    {
        return status;
    }
    px_transform_point(&na, result->point_a, result->point_a);
    px_transform_point(&na, result->point_b, result->point_b);
    px_transform_vector(&na, result->normal, result->normal);
    return status;
}
