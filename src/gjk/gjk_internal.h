/* GJK internals shared with the modules built on it (EPA, casts, contacts): the posed pair with its
 * support mapping in A's frame, and the GJK loop that exposes its final simplex. */
#pragma once

#include "../core/core_internal.h"
#include "../shapes/support_internal.h"
#include "../shapes/hull_internal.h"
#include "../simplex/simplex_internal.h"

#include "proxima/gjk.h"

/* A and B in A's frame: B's rotation as a matrix (both ways) and translation. */
typedef struct pxi_gjk_pair
{
    const px_shape* a;
    const px_shape* b;
    px_rot rot_b; /* B local -> frame A */
    vec3 pos_b;
    bool b_rotated;          /* false when b_in_a has the identity rotation: skip the matrix products */
    pxi_hull_scan_fn scan_a; /* hull scans resolved once per query (NULL: not a hull) */
    pxi_hull_scan_fn scan_b;
    /* What scan_a and scan_b read: the hulls' own points, or transposed copies (x[], y[], z[] blocks,
     * epa_scan.c) that GJK makes of large point clouds, scan_x then being the copies' scan. Both find the
     * same index. */
    const float* scanned_a;
    const float* scanned_b;
    uint8_t copies; /* hulls GJK scans through transposed copies (gjk.c): 1 for A, 2 for B */
    /* Set by contact queries (false from pxi_gjk_pair_init): a cold GJK run on hulls with direction tables
     * that its first step does not prove apart scans the hulls' kept copies instead (gjk_scanning_pair),
     * since EPA usually follows and scans them anyway. Casts and distance queries keep the tables, which
     * their repeated or converging runs find warm. */
    bool scan_when_close;
    /* Bound on |w| for every w of this pair (|p_b| plus the shapes' bounding radii; for triangles and
     * segments, the larger of that bound measured from their middles and their coordinates' reach), or -1
     * when a shape cannot tell (user support functions). It scales the touching band, so the band is the
     * same whatever path a query takes. */
    float w_bound;
    /* Built hulls with a direction table (NULL otherwise), and the record (pxi_climb_node) a climb starts
     * from where the table does not settle a support: the previous climbed support of that shape (-1 before
     * the first and after a settled lookup: the best vertex the cell lists). The starts are state in
     * a pair the queries otherwise treat as read-only, so they are reached through a pointer to the pair's
     * own storage (a pair must not be copied once initialized). */
    const struct px_hull* climb_a;
    const struct px_hull* climb_b;
    int32_t* climb_start; /* [2]: A, B; points at climb_storage */
    int32_t climb_storage[2];
} pxi_gjk_pair;

void pxi_gjk_pair_init(pxi_gjk_pair* pair, const px_shape* a, const px_shape* b, const px_transform* b_in_a);

/* B moved to pos_b (frame A, same rotation), with w_bound, which scales every touching band, made again for
 * it: a cast that starts a far ray or sweep on the shapes' bounding spheres must not keep the band of the
 * far start. */
void pxi_gjk_pair_move_b(pxi_gjk_pair* pair, const vec3 pos_b);

/* sign v / |v| into dest, given vv = |v|^2 > 0. A subnormal vv (pairs near 2^-60) is too rough for a unit
 * result, and then v's largest component is divided out first; otherwise the plain quotient, which is the
 * cheaper one on GJK's answers. */
static inline void pxi_unit_from(const vec3 v, float vv, float sign, vec3 dest)
{
    if (PX_LIKELY(vv >= 0x1p-100f))
    {
        px_v3_scale(v, sign / sqrtf(vv), dest);
        return;
    }
    px_v3_scale(v, sign, dest);
    (void)px_v3_normalize_any(dest, dest);
}

/* PX_ERR_OUT_OF_RANGE when the pair's size (its bound on |w| plus the radii and `extra`, a cast's
 * translation) reaches PX_MAX_PAIR_SIZE or overflowed: the squares GJK forms would overflow float. PX_OK
 * otherwise, also when the size is unknown (user shapes) or NaN (NaN hull points, which the scans report). */
static inline px_status pxi_gjk_pair_range(const pxi_gjk_pair* pair, float extra)
{
    float size = pair->w_bound + pair->a->radius + pair->b->radius + extra;
    return size >= PX_MAX_PAIR_SIZE ? PX_ERR_OUT_OF_RANGE : PX_OK;
}

/* Support of a shape in its own frame: the direction table for a large built hull (climbing from *start
 * where it does not settle), the resolved scan for other hulls, the shape's own mapping otherwise. */
static inline int32_t pxi_support_local(const px_shape* shape, pxi_hull_scan_fn scan, const float* scanned,
                                        const struct px_hull* climb, int32_t* start, const vec3 d, vec3 dest)
{
    if (climb != NULL)
    {
        return pxi_hull_support_vertex(climb, pxi_hull_cell(climb, d), d, start, dest);
    }
    return scan != NULL ? pxi_hull_support(shape, scan, scanned, d, dest) : pxi_support_core(shape, d, dest);
}

/* Support of A along d (frame A). */
static inline int32_t pxi_support_a(const pxi_gjk_pair* pair, const vec3 d, vec3 dest)
{
    return pxi_support_local(pair->a, pair->scan_a, pair->scanned_a, pair->climb_a, &pair->climb_start[0], d, dest);
}

/* A direction of frame A in B's frame (B's rotation transposed; the same vector when B is not rotated). */
static inline void pxi_direction_in_b(const pxi_gjk_pair* pair, const vec3 d, vec3 dest)
{
    if (pair->b_rotated)
    {
        px_rot_tmulv(&pair->rot_b, d, dest);
    }
    else
    {
        px_v3_copy(d, dest);
    }
}

/* A point of B's frame in frame A: B's rotation, then its translation. s and dest may be the same. */
static inline void pxi_point_from_b(const pxi_gjk_pair* pair, const vec3 s, vec3 dest)
{
    if (pair->b_rotated)
    {
        px_rot_mulv(&pair->rot_b, s, dest);
    }
    else
    {
        px_v3_copy(s, dest);
    }
    px_v3_add(dest, pair->pos_b, dest);
}

/* Support of B along d (frame A), returned in frame A. */
static inline int32_t pxi_support_b(const pxi_gjk_pair* pair, const vec3 d, vec3 dest)
{
    vec3 dl, s;
    pxi_direction_in_b(pair, d, dl);
    int32_t i = pxi_support_local(pair->b, pair->scan_b, pair->scanned_b, pair->climb_b, &pair->climb_start[1], dl, s);
    pxi_point_from_b(pair, s, dest);
    return i;
}

/* Supports of A along d and of B along v = -d (both in frame A): p, q and their indices. When both shapes
 * have direction tables, both cells are looked up before either is read, so that on cold hulls the two
 * cache misses overlap instead of following each other. The results are those of pxi_support_a and
 * pxi_support_b. */
static inline int32_t pxi_support_ab(const pxi_gjk_pair* pair, const vec3 d, const vec3 v, vec3 p, vec3 q,
                                     int32_t* ib)
{
    if (pair->climb_a == NULL || pair->climb_b == NULL)
    {
        int32_t ia = pxi_support_a(pair, d, p);
        *ib = pxi_support_b(pair, v, q);
        return ia;
    }
    vec3 vl, ql;
    pxi_direction_in_b(pair, v, vl);
    const pxi_dir_cell* ca = pxi_hull_cell(pair->climb_a, d);
    const pxi_dir_cell* cb = pxi_hull_cell(pair->climb_b, vl);
    int32_t ia = pxi_hull_support_vertex(pair->climb_a, ca, d, &pair->climb_start[0], p);
    *ib = pxi_hull_support_vertex(pair->climb_b, cb, vl, &pair->climb_start[1], ql);
    pxi_point_from_b(pair, ql, q);
    return ia;
}

/* Vertex of B by support index, in frame A. */
static inline bool pxi_vertex_b(const pxi_gjk_pair* pair, int32_t index, vec3 dest)
{
    vec3 s;
    if (!pxi_shape_vertex(pair->b, index, s))
    {
        return false;
    }
    pxi_point_from_b(pair, s, dest);
    return true;
}

/* State of a GJK run on the cores. */
typedef struct pxi_gjk_state
{
    px_simplex simplex; /* the best simplex found (its closest point is v) */
    vec3 v;             /* closest point of A - B found: point_a - point_b */
    float vv;           /* |v|^2 */
    float max_w2;       /* largest |w|^2 seen: the scale of the rounding tolerances */
    float max_w;        /* its square root */
    float band_w;       /* the size the touching band is relative to: pair->w_bound, or max_w if unknown */
    int iterations;
    px_gjk_exit exit;
} pxi_gjk_state;

/* Run GJK on the cores. When separation_radius >= 0 the loop stops early (PX_GJK_EXIT_SEPARATED) as soon
 * as a support plane proves the cores are farther apart than it, or (PX_GJK_EXIT_OVERLAP) as soon as
 * |v| <= separation_radius; pass a negative value for a full distance query.
 * Returns PX_OK, PX_WARN_MAX_ITERATIONS or PX_ERR_NON_FINITE. */
px_status pxi_gjk_run(const pxi_gjk_pair* pair, const px_gjk_config* config, px_simplex_cache* cache,
                      float separation_radius, pxi_gjk_state* state);

/* Radii sum plus the touching band (rounding floor or abs_tolerance): the one rule every query uses to
 * call a pair touching. max_w is the largest |w| GJK saw (pxi_gjk_state.max_w). */
float pxi_gjk_touch_radius(float radius_sum, float max_w, float abs_tolerance);

/* Validate a query's shapes and config. */
px_status pxi_gjk_validate(const px_gjk_input* input, const px_gjk_config* config);
