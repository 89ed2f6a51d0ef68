/* Contact (signed distance, penetration depth) accuracy against exact long-double oracles, over random
 * and adversarial polytope pairs (KNOWN_FAILURES.md 4.2, 4.3a step 4; DESIGN.md "How sound":
 * "penetration depth within 1e-3 S of exact").
 *
 * Overlapping pairs (the depth oracle is tests/oracle/sat_depth: the minimum overlap over the face
 * normals of both hulls and the cross products of edge pairs), with tau = 1e-3 S + 16 FLT_EPSILON C:
 *   - status PX_OK or a warning contact.h documents (PX_WARN_MAX_ITERATIONS, PX_WARN_CAPACITY), no NaN;
 *   - |distance + depth*| <= tau;
 *   - unit normal; |point_b - point_a - distance normal| <= tau;
 *   - point_a on A's surface and point_b on B's surface (outside by <= tau, inside by <= tau);
 *   - the overlap of the reported normal o(n) <= depth* + tau (and o(n) >= depth*: the oracle is minimal);
 *   - Coal's check: B moved by (-distance + eta) normal is separated (px_gjk_distance_world > 0), moved
 *     by (-distance - eta) normal still overlaps (skipped when -distance - eta <= 0: the band of tiny
 *     depths), eta = 1e-4 S + 16 FLT_EPSILON C (the second term: float poses cannot move by less). When
 *     GJK's verdict disagrees with the distance oracle on the moved pair, the failure is GJK's (F_GJK);
 *   - the swapped query (B, A) and px_contact_relative agree with depth* within tau.
 * Separated pairs (the distance oracle tests/oracle/hull_distance): |distance - d*| <= 1e-5 S + 16 eps C,
 * the GJK suite's tolerance, with the same status, normal and gap checks.
 *
 * S = largest extent of either shape, C = largest absolute world coordinate. Samples whose oracles do not
 * certify are reported and skipped; more than a handful fail the suite. Failures print as C initializers
 * with %a floats, ready to freeze below. Environment: PX_TEST_SEED replays another stream;
 * PX_CONTACT_SAMPLES sets how many certified overlapping pairs to test (default 1e5; 2e4 under
 * AddressSanitizer), plus a tenth as many distance-targeted draws; PX_CONTACT_MINIMIZE=1 also prints each
 * failing case with hull points greedily removed while it still fails; PX_CONTACT_PRINT_METHOD (analytic,
 * gjk, epa), PX_CONTACT_PRINT_CHECK (a check name) and PX_CONTACT_MAX_PRINTED choose which failures print;
 * PX_CONTACT_WORST=1 prints each family's worst depth error as it grows; PX_CONTACT_ORACLE_SAMPLES sets the
 * oracle self-check's sample count (600), PX_CONTACT_VERBOSE=1 prints its odd cases. */
#include <float.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "oracle/hull_distance.h"
#include "oracle/sat_depth.h"
#include "proxima/proxima.h"
#include "support/pair_gen.h"
#include "support/rng.h"
#include "support/sanitize.h"
#include "test.h"

typedef long double ld;

#define PXT_DEPTH_REL 1.0e-3L             /* depth tolerance, relative to S */
#define PXT_DIST_REL 1.0e-5L              /* separated distance tolerance (the GJK suite's) */
#define PXT_ETA_REL 1.0e-4L               /* Coal's move margin, relative to S */
#define PXT_ROUND_TOL (16.0L * FLT_EPSILON) /* times C */
#define PXT_MAX_PRINTED 12
#define PXT_MAX_UNCERTIFIED 5

/* ------------------------------------------------------------------------------------------------ */
/* Cases: pairs from the shared generator (support/pair_gen.h)                                      */

typedef pxt_pair_case contact_case;

/* Target buckets of the signed distance, in units of S: the first PXT_DEPTH_BUCKETS are depths. */
static const double bucket_values[] = { -1e-9, -1e-6, -1e-3, -1e-1, -0.5, 1e-6, 1e-3, 1e-1 };
#define PXT_BUCKETS ((int)(sizeof(bucket_values) / sizeof(bucket_values[0])))
#define PXT_DEPTH_BUCKETS 5

/* ------------------------------------------------------------------------------------------------ */
/* Checks                                                                                            */

enum
{
    F_STATUS = 1 << 0,   /* error status, or a warning contact.h does not document */
    F_NAN = 1 << 1,      /* non-finite output */
    F_DEPTH = 1 << 2,    /* overlapping: |distance + depth*| > tau */
    F_DIST = 1 << 3,     /* separated: |distance - d*| > 1e-5 S + 16 eps C */
    F_UNIT = 1 << 4,     /* normal not unit */
    F_GAP = 1 << 5,      /* point_b != point_a + distance normal */
    F_ON_A = 1 << 6,     /* point_a not on A's surface */
    F_ON_B = 1 << 7,     /* point_b not on B's surface */
    F_AXIS = 1 << 8,     /* the overlap along the normal exceeds depth* + tau */
    F_SEPARATE = 1 << 9, /* Coal: B moved by (-distance + eta) normal still overlaps (oracle agrees) */
    F_STILL = 1 << 10,   /* Coal: B moved by (-distance - eta) normal is apart (oracle agrees) */
    F_GJK = 1 << 11,     /* Coal moves: px_gjk_distance_world contradicts the distance oracle */
    F_SYM = 1 << 12,     /* swapped query (B, A) off */
    F_REL = 1 << 13,     /* px_contact_relative off */
    F_ORACLE = 1 << 14,  /* o(normal) < depth*: the depth oracle missed an axis (a test bug) */
    F_COUNT_BITS = 15
};

static const char* const check_names[F_COUNT_BITS] = { "status", "nan",      "depth", "distance", "unit_normal",
                                                       "gap",    "on_a",     "on_b",  "axis",     "coal_separate",
                                                       "coal_overlap", "gjk", "symmetry", "relative", "oracle" };

typedef struct eval_out
{
    unsigned fails;
    int uncertified; /* 1: distance certificate open; 2: depth oracle overflow or inconsistent */
    int overlap;     /* the pair overlaps (or touches) per the distance oracle */
    ld err;          /* |distance - signed d*| */
    ld S, C, tol, dstar;
    int axis_kind;   /* PXO_AXIS_* of the oracle minimum */
    int coal_skipped;
    ld witness_err;  /* largest distance of a witness from its shape's surface (outside or inside) */
    px_status status;
    px_contact_method method;
    int iterations;
} eval_out;

static ld len3l(const ld v[3])
{
    return sqrtl(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static int finite3(const vec3 v)
{
    return isfinite(v[0]) && isfinite(v[1]) && isfinite(v[2]);
}

static int contact_finite(const px_contact* r)
{
    return isfinite(r->distance) && finite3(r->point_a) && finite3(r->point_b) && finite3(r->normal);
}

static int flag_index(unsigned flag)
{
    int i = 0;
    while (i < F_COUNT_BITS - 1 && !(flag & (1u << i)))
    {
        ++i;
    }
    return i;
}

#define REPORT(flag, ...)                                                                                       \
    do                                                                                                          \
    {                                                                                                           \
        out->fails |= (flag);                                                                                   \
        if (verbose)                                                                                            \
        {                                                                                                       \
            printf("    [%s] ", check_names[flag_index(flag)]);                                                \
            printf(__VA_ARGS__);                                                                                \
            printf("\n");                                                                                       \
        }                                                                                                       \
    } while (0)

static const char* const method_names[4] = { "none", "analytic", "gjk", "epa" };

/* Documented outcomes of px_contact_world (contact.h): PX_OK, PX_WARN_MAX_ITERATIONS, PX_WARN_CAPACITY. */
static int status_documented(px_status st)
{
    return st == PX_OK || st == PX_WARN_MAX_ITERATIONS || st == PX_WARN_CAPACITY;
}

static void check_basic(px_status st, const px_contact* r, const char* what, int verbose, eval_out* out)
{
    if (!status_documented(st))
    {
        REPORT(F_STATUS, "%s: status %d (%s), method %s", what, (int)st, px_status_string(st),
               method_names[(int)r->method & 3]);
    }
    if (!contact_finite(r))
    {
        REPORT(F_NAN, "%s: non-finite result d %a", what, (double)r->distance);
    }
}

/* Coal's check on B moved by amount along n: returns 1 when px_gjk_distance_world says separated. When
 * expect_sep differs from that verdict, the distance oracle is asked too: oracle_sep receives 1
 * (separated), 0 (overlapping) or -1 (uncertified), oracle_d its distance. */
static int moved_separated(const contact_case* c, const ld n[3], ld amount, int expect_sep, int* oracle_sep,
                           ld* oracle_d, float* gjk_d)
{
    static contact_case m;
    m = *c;
    pxt_move_b(&m, n, amount);
    px_shape sa, sb;
    pxt_make_shape(&m.a, &sa);
    pxt_make_shape(&m.b, &sb);
    px_gjk_result g;
    px_status st = px_gjk_distance_world(&sa, &m.ta, &sb, &m.tb, NULL, &g);
    int sep = st >= 0 && g.distance > 0.0f;
    *gjk_d = g.distance;
    *oracle_sep = -1;
    *oracle_d = 0.0L;
    if (sep != expect_sep)
    {
        static pxt_oracle_view om;
        pxt_oracle_eval(&m, &om);
        *oracle_sep = !om.d.certified ? -1 : !om.d.overlap;
        *oracle_d = om.d.distance;
    }
    return sep;
}

static void eval_case(const contact_case* c, int verbose, eval_out* out)
{
    memset(out, 0, sizeof(*out));
    static pxt_oracle_view o; /* large; the suite is single-threaded */
    static pxo_polytope poly_a, poly_b;
    static pxo_sat sat;
    pxt_oracle_eval(c, &o);
    out->S = o.S;
    out->C = o.C;
    if (!o.d.certified)
    {
        out->uncertified = 1;
        if (verbose)
        {
            printf("    distance oracle certificate open: U %.17Lg L %.17Lg S %.6Lg\n", o.d.upper, o.d.lower, o.S);
        }
        return;
    }
    const ld S = o.S;
    const int overlap = o.d.overlap;
    ld dstar;
    if (overlap)
    {
        pxo_polytope_build(o.wa, o.na, S, &poly_a);
        pxo_polytope_build(o.wb, o.nb, S, &poly_b);
        pxo_sat_depth_polytopes(&poly_a, &poly_b, 1, &sat);
        /* any axis's overlap is >= -distance, and the pair is within 1e-12 S of touching */
        if (!sat.ok || sat.depth < -2.0e-12L * S - 1.0e-30L)
        {
            out->uncertified = 2;
            if (verbose)
            {
                printf("    depth oracle: ok %d, depth %.17Lg although the distance oracle certified overlap\n",
                       sat.ok, sat.depth);
            }
            return;
        }
        dstar = sat.depth > 0.0L ? -sat.depth : 0.0L;
        out->axis_kind = sat.kind;
    }
    else
    {
        dstar = o.d.distance;
    }
    out->overlap = overlap;
    out->dstar = dstar;
    const ld tol = (overlap ? PXT_DEPTH_REL : PXT_DIST_REL) * S + PXT_ROUND_TOL * o.C;
    out->tol = tol;
    px_shape sa, sb;
    pxt_make_shape(&c->a, &sa);
    pxt_make_shape(&c->b, &sb);
    if (verbose)
    {
        if (overlap)
        {
            printf("    oracle: depth* %.17Lg (%La) = %.3Lg S along %.9Lg %.9Lg %.9Lg (kind %d, dims %d %d -> %d, "
                   "%d axes); S %.6Lg C %.6Lg tau %.6Lg\n",
                   -dstar, -dstar, -dstar / (S > 0.0L ? S : 1.0L), sat.axis[0], sat.axis[1], sat.axis[2], sat.kind,
                   sat.dim_a, sat.dim_b, sat.dim_diff, sat.candidates, S, o.C, tol);
        }
        else
        {
            printf("    oracle: separated, d* %.17Lg (%La); S %.6Lg C %.6Lg tol %.6Lg\n", dstar, dstar, S, o.C, tol);
        }
    }

    /* world query */
    px_contact r;
    px_status st = px_contact_world(&sa, &c->ta, &sb, &c->tb, NULL, &r);
    out->status = st;
    out->method = r.method;
    out->iterations = r.iterations;
    if (verbose)
    {
        printf("    contact: status %d (%s) method %s d %.9g (%a) iterations %d normal %a %a %a\n", (int)st,
               px_status_string(st), method_names[(int)r.method & 3], (double)r.distance, (double)r.distance,
               r.iterations, (double)r.normal[0], (double)r.normal[1], (double)r.normal[2]);
        printf("             point_a %a %a %a point_b %a %a %a\n", (double)r.point_a[0], (double)r.point_a[1],
               (double)r.point_a[2], (double)r.point_b[0], (double)r.point_b[1], (double)r.point_b[2]);
    }
    check_basic(st, &r, "world", verbose, out);
    if (st < 0 || !contact_finite(&r))
    {
        out->err = INFINITY;
        return;
    }
    const ld d = (ld)r.distance;
    out->err = fabsl(d - dstar);
    if (!(out->err <= tol))
    {
        REPORT(overlap ? F_DEPTH : F_DIST, "world: distance %.9Lg vs %.17Lg: error %.6Lg = %.3Lg S > tol %.6Lg (%s)", d,
               dstar, out->err, out->err / (S > 0.0L ? S : 1.0L), tol, method_names[(int)r.method & 3]);
    }
    ld n[3] = { r.normal[0], r.normal[1], r.normal[2] };
    ld nl = len3l(n);
    if (!(fabsl(nl - 1.0L) <= 1.0e-5L))
    {
        REPORT(F_UNIT, "world: |normal| = %.9Lg", nl);
    }
    ld pa[3], pb[3], g[3];
    pxt_world_to_oracle(&o, r.point_a, pa);
    pxt_world_to_oracle(&o, r.point_b, pb);
    for (int i = 0; i < 3; ++i)
    {
        g[i] = pb[i] - pa[i] - d * n[i];
    }
    if (!(len3l(g) <= tol))
    {
        REPORT(F_GAP, "world: |point_b - point_a - d n| = %.6Lg > tol %.6Lg", len3l(g), tol);
    }
    int cert = 0;
    ld da = pxo_point_hull_distance(pa, o.wa, o.na, S, NULL, &cert);
    ld db = pxo_point_hull_distance(pb, o.wb, o.nb, S, NULL, &cert);
    ld ia = overlap ? pxo_point_depth(&poly_a, pa) : 0.0L;
    ld ib = overlap ? pxo_point_depth(&poly_b, pb) : 0.0L;
    {
        ld w = da;
        w = db > w ? db : w;
        w = ia > w ? ia : w;
        w = ib > w ? ib : w;
        out->witness_err = w;
    }
    if (!(da <= tol) || !(ia <= tol))
    {
        REPORT(F_ON_A, "world: point_a is %.6Lg outside / %.6Lg inside A (tol %.6Lg)", da, ia, tol);
    }
    if (!(db <= tol) || !(ib <= tol))
    {
        REPORT(F_ON_B, "world: point_b is %.6Lg outside / %.6Lg inside B (tol %.6Lg)", db, ib, tol);
    }

    if (overlap && nl > 0.5L)
    {
        const ld depth = -dstar;
        ld on = pxo_overlap_along(o.wa, o.na, o.wb, o.nb, n);
        if (!(on <= depth + tol))
        {
            REPORT(F_AXIS, "world: overlap along the normal %.9Lg vs depth* %.9Lg (+ tau %.3Lg)", on, depth, tol);
        }
        if (on < depth - 1.0e-12L * S)
        {
            REPORT(F_ORACLE, "oracle: overlap %.17Lg along the returned normal is below depth* %.17Lg", on, depth);
        }
        /* Coal's check */
        const ld eta = PXT_ETA_REL * S + PXT_ROUND_TOL * o.C;
        const ld rep = -d;
        int osep = 0;
        ld od = 0.0L;
        float gd = 0.0f;
        /* GJK may call a pair within its own tolerance of contact either way; beyond it, GJK is wrong */
        const ld gjk_tol = PXT_DIST_REL * S + PXT_ROUND_TOL * o.C;
        if (!moved_separated(c, n, rep + eta, 1, &osep, &od, &gd))
        {
            if (osep == 1 && od > gjk_tol)
            {
                REPORT(F_GJK, "coal: B moved by depth + eta = %.9Lg: GJK distance %a but the oracle says %.9Lg", rep + eta,
                       (double)gd, od);
            }
            else
            {
                REPORT(F_SEPARATE,
                       "coal: B moved by depth + eta = %.9Lg along the normal still overlaps or touches (o(n) %.9Lg, "
                       "oracle distance after the move %.3Lg)",
                       rep + eta, on, osep == 1 ? od : 0.0L);
            }
        }
        if (rep - eta > 0.0L)
        {
            if (moved_separated(c, n, rep - eta, 0, &osep, &od, &gd))
            {
                if (osep == 0 && (ld)gd > gjk_tol)
                {
                    REPORT(F_GJK, "coal: B moved by depth - eta = %.9Lg: GJK distance %a but the oracle says overlap",
                           rep - eta, (double)gd);
                }
                else
                {
                    REPORT(F_STILL, "coal: B moved by depth - eta = %.9Lg is apart by %.9Lg (GJK %a; depth* %.9Lg)",
                           rep - eta, osep == 1 ? od : 0.0L, (double)gd, depth);
                }
            }
        }
        else
        {
            out->coal_skipped = 1;
        }
    }

    /* swapped */
    {
        px_contact rs;
        px_status s2 = px_contact_world(&sb, &c->tb, &sa, &c->ta, NULL, &rs);
        check_basic(s2, &rs, "swapped", verbose, out);
        if (s2 >= 0 && !(fabsl((ld)rs.distance - dstar) <= tol))
        {
            REPORT(F_SYM, "swapped: distance %.9g (%a) vs %.17Lg, method %s", (double)rs.distance, (double)rs.distance,
                   dstar, method_names[(int)rs.method & 3]);
        }
    }
    /* relative pose */
    {
        px_transform na, rel;
        if (px_transform_normalized(&c->ta, &na) == PX_OK)
        {
            px_transform_inv_mul(&na, &c->tb, &rel);
            px_gjk_input in;
            in.a = &sa;
            in.b = &sb;
            in.b_in_a = rel;
            px_contact rr;
            px_status s2 = px_contact_relative(&in, NULL, NULL, &rr);
            check_basic(s2, &rr, "relative", verbose, out);
            if (s2 >= 0 && !(fabsl((ld)rr.distance - dstar) <= tol))
            {
                REPORT(F_REL, "relative: distance %.9g vs %.17Lg", (double)rr.distance, dstar);
            }
        }
    }
}


/* ------------------------------------------------------------------------------------------------ */
/* Minimizer: drop hull points while the same checks still fail                                      */

static void minimize_case(const contact_case* c, unsigned fails)
{
    /* keep the most telling failure: a wrong depth or distance first, then the rest */
    static const unsigned priority[] = { F_DEPTH, F_DIST, F_STATUS, F_NAN, F_STILL, F_UNIT, F_ON_A, F_ON_B, F_AXIS };
    for (size_t k = 0; k < sizeof(priority) / sizeof(priority[0]); ++k)
    {
        if (fails & priority[k])
        {
            fails = priority[k];
            break;
        }
    }
    static contact_case best, trial;
    best = *c;
    int changed = 1;
    while (changed)
    {
        changed = 0;
        pxt_shape_case* sides[2] = { &best.a, &best.b };
        for (int k = 0; k < 2; ++k)
        {
            if (sides[k]->box)
            {
                continue;
            }
            for (int i = 0; i < sides[k]->count && sides[k]->count > 1; ++i)
            {
                trial = best;
                pxt_shape_case* t = k == 0 ? &trial.a : &trial.b;
                memmove(t->pts + 3 * i, t->pts + 3 * i + 3, sizeof(float) * 3 * (size_t)(t->count - i - 1));
                t->count--;
                eval_out e;
                eval_case(&trial, 0, &e);
                if (!e.uncertified && (e.fails & fails) != 0)
                {
                    best = trial;
                    changed = 1;
                    --i;
                }
            }
        }
    }
    printf("  minimized (hull points %d and %d):\n", best.a.box ? 8 : best.a.count, best.b.box ? 8 : best.b.count);
    pxt_print_case(&best, "minimized");
    eval_out e;
    eval_case(&best, 1, &e);
}

/* ------------------------------------------------------------------------------------------------ */
/* The depth oracle checked against analytic answers, its own unpruned variant, a direction sweep and  */
/* the certified inner-polytope lower bound of tests/oracle/hull_distance                             */

static void box_points(const double c[3], const double h[3], ld* out)
{
    for (int i = 0; i < 8; ++i)
    {
        out[3 * i] = (ld)(c[0] + ((i & 1) ? h[0] : -h[0]));
        out[3 * i + 1] = (ld)(c[1] + ((i & 2) ? h[1] : -h[1]));
        out[3 * i + 2] = (ld)(c[2] + ((i & 4) ? h[2] : -h[2]));
    }
}

/* Rotate points about the coordinate axis k by angle th, then translate by t. */
static void rotate_points(ld* pts, int n, int k, ld th, const ld t[3])
{
    ld c = cosl(th), s = sinl(th);
    int i1 = (k + 1) % 3, i2 = (k + 2) % 3;
    for (int i = 0; i < n; ++i)
    {
        ld* p = pts + 3 * i;
        ld u = c * p[i1] - s * p[i2], v = s * p[i1] + c * p[i2];
        p[i1] = u;
        p[i2] = v;
        for (int j = 0; j < 3; ++j)
        {
            p[j] += t[j];
        }
    }
}

typedef struct analytic_case
{
    const char* name;
    ld depth;
    ld axis[3]; /* expected axis (B moves along it); zero: any */
    int flat;   /* A - B flat: the axis must be +-normal of the plane z = 0 */
} analytic_case;

static int check_sat(const analytic_case* k, const ld* a, int na, const ld* b, int nb)
{
    pxo_sat s;
    ld S = pxo_extent(a, na);
    ld eb = pxo_extent(b, nb);
    S = eb > S ? eb : S;
    pxo_sat_depth(a, na, b, nb, S, &s);
    if (!s.ok || !(fabsl(s.depth - k->depth) <= 1.0e-15L * S))
    {
        printf("    %s: depth %.17Lg (ok %d, kind %d) expected %.17Lg\n", k->name, s.depth, s.ok, s.kind, k->depth);
        return 1;
    }
    ld e = fabsl(k->axis[0]) + fabsl(k->axis[1]) + fabsl(k->axis[2]);
    if (e > 0.0L)
    {
        ld dx = s.axis[0] - k->axis[0], dy = s.axis[1] - k->axis[1], dz = s.axis[2] - k->axis[2];
        if (!(sqrtl(dx * dx + dy * dy + dz * dz) <= 1.0e-12L))
        {
            printf("    %s: axis %.9Lg %.9Lg %.9Lg expected %.9Lg %.9Lg %.9Lg\n", k->name, s.axis[0], s.axis[1],
                   s.axis[2], k->axis[0], k->axis[1], k->axis[2]);
            return 1;
        }
    }
    if (k->flat && !(fabsl(fabsl(s.axis[2]) - 1.0L) <= 1.0e-12L))
    {
        printf("    %s: flat A - B but axis %.9Lg %.9Lg %.9Lg\n", k->name, s.axis[0], s.axis[1], s.axis[2]);
        return 1;
    }
    return 0;
}

static int oracle_analytic(void)
{
    const double h1[3] = { 1.0, 1.0, 1.0 }, c0[3] = { 0.0, 0.0, 0.0 };
    ld a[3 * 16], b[3 * 16];
    int bad = 0;
    /* face-face: unit cubes (side 2) offset by (1.5, 0.5, 0.25): depth 0.5, B moves along +x */
    {
        const double cb[3] = { 1.5, 0.5, 0.25 };
        box_points(c0, h1, a);
        box_points(cb, h1, b);
        analytic_case k = { "cubes face", 0.5L, { 1, 0, 0 }, 0 };
        bad |= check_sat(&k, a, 8, b, 8);
    }
    /* identical cubes: depth 2 (full width) along some face normal */
    {
        box_points(c0, h1, a);
        box_points(c0, h1, b);
        analytic_case k = { "identical cubes", 2.0L, { 0, 0, 0 }, 0 };
        bad |= check_sat(&k, a, 8, b, 8);
    }
    /* vertex-face: B turned 45 degrees about z at x = 2.2: its corner reaches x = 2.2 - sqrt 2 */
    {
        const ld t[3] = { 2.2L, 0.0L, 0.0L };
        box_points(c0, h1, a);
        box_points(c0, h1, b);
        rotate_points(b, 8, 2, 0.78539816339744830962L, t);
        analytic_case k = { "cube corner", sqrtl(2.0L) - 2.2L + 1.0L, { 1, 0, 0 }, 0 };
        bad |= check_sat(&k, a, 8, b, 8);
    }
    /* edge-edge: A turned 45 degrees about x (top edge along x at z = sqrt 2), B turned 45 degrees about y
     * at z = 2.6 (bottom edge along y at 2.6 - sqrt 2): depth 2 sqrt 2 - 2.6 along z */
    {
        const ld z0[3] = { 0.0L, 0.0L, 0.0L }, tb[3] = { 0.0L, 0.0L, 2.6L };
        box_points(c0, h1, a);
        box_points(c0, h1, b);
        rotate_points(a, 8, 0, 0.78539816339744830962L, z0);
        rotate_points(b, 8, 1, 0.78539816339744830962L, tb);
        analytic_case k = { "cubes edge-edge", 2.0L * sqrtl(2.0L) - 2.6L, { 0, 0, 1 }, 0 };
        bad |= check_sat(&k, a, 8, b, 8);
    }
    /* point inside a box (half 1, 2, 3) at (0.7, -1.5, 2): nearest face x = 1 (0.3), y = -2 (0.5),
     * z = 3 (1.0): depth 0.3, the point moves along +x */
    {
        const double hb[3] = { 1.0, 2.0, 3.0 };
        box_points(c0, hb, a);
        ld p[3] = { 0.7L, -1.5L, 2.0L };
        analytic_case k = { "point in box", 0.3L, { 1, 0, 0 }, 0 };
        bad |= check_sat(&k, a, 8, p, 1);
    }
    /* a vertical segment through a large triangle in z = 0, from z = -0.3 to 0.7: depth 0.3 along +z */
    {
        ld tri[9] = { -10, -10, 0, 10, -10, 0, 0, 10, 0 };
        ld seg[6] = { 0.1L, 0.2L, -0.3L, 0.1L, 0.2L, 0.7L };
        analytic_case k = { "segment through triangle", 0.3L, { 0, 0, 1 }, 0 };
        bad |= check_sat(&k, tri, 3, seg, 2);
    }
    /* coplanar overlapping squares (A - B flat): depth 0 across the plane */
    {
        ld sa[12] = { -1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0 };
        ld sb[12] = { 0, 0, 0, 2, 0, 0, 2, 2, 0, 0, 2, 0 };
        analytic_case k = { "coplanar squares", 0.0L, { 0, 0, 0 }, 1 };
        bad |= check_sat(&k, sa, 4, sb, 4);
    }
    /* crossing segments in z = 0, point on a segment, coincident points: depth 0 */
    {
        ld s1[6] = { -1, 0, 0, 1, 0, 0 }, s2[6] = { 0, -1, 0, 0, 1, 0 };
        analytic_case k = { "crossing segments", 0.0L, { 0, 0, 0 }, 1 };
        bad |= check_sat(&k, s1, 2, s2, 2);
        ld pt[3] = { 0.25L, 0.0L, 0.0L };
        analytic_case k2 = { "point on segment", 0.0L, { 0, 0, 0 }, 0 };
        bad |= check_sat(&k2, s1, 2, pt, 1);
        ld p0[3] = { 0.5L, -0.25L, 2.0L };
        analytic_case k3 = { "coincident points", 0.0L, { 0, 0, 0 }, 0 };
        bad |= check_sat(&k3, p0, 1, p0, 1);
    }
    /* a separated pair is flagged */
    {
        const double cb[3] = { 3.5, 0.0, 0.0 };
        box_points(c0, h1, a);
        box_points(cb, h1, b);
        pxo_sat s;
        pxo_sat_depth(a, 8, b, 8, 2.0L, &s);
        PX_CHECK(s.separated && fabsl(s.depth + 1.5L) <= 1e-18L);
    }
    return bad;
}

/* Smallest overlap a pattern search finds around axis (each is an upper bound of the depth). */
static ld local_min_overlap(const pxt_oracle_view* o, const ld axis[3])
{
    ld n[3] = { axis[0], axis[1], axis[2] };
    ld best = pxo_overlap_along(o->wa, o->na, o->wb, o->nb, n);
    for (ld e = 1.0e-2L; e >= 1.0e-18L; e *= 0.1L)
    {
        for (int rep = 0; rep < 40; ++rep)
        {
            /* two unit tangents of n */
            ld t1[3], t2[3];
            int k0 = (fabsl(n[0]) <= fabsl(n[1]) && fabsl(n[0]) <= fabsl(n[2])) ? 0 : (fabsl(n[1]) <= fabsl(n[2]) ? 1 : 2);
            ld ax[3] = { 0.0L, 0.0L, 0.0L };
            ax[k0] = 1.0L;
            t1[0] = n[1] * ax[2] - n[2] * ax[1];
            t1[1] = n[2] * ax[0] - n[0] * ax[2];
            t1[2] = n[0] * ax[1] - n[1] * ax[0];
            ld l1 = len3l(t1);
            for (int c = 0; c < 3; ++c)
            {
                t1[c] /= l1;
            }
            t2[0] = n[1] * t1[2] - n[2] * t1[1];
            t2[1] = n[2] * t1[0] - n[0] * t1[2];
            t2[2] = n[0] * t1[1] - n[1] * t1[0];
            int improved = 0;
            for (int k = 0; k < 8; ++k)
            {
                ld cs = cosl(0.78539816339744830962L * (ld)k), sn = sinl(0.78539816339744830962L * (ld)k);
                ld v[3];
                for (int c = 0; c < 3; ++c)
                {
                    v[c] = n[c] + e * (cs * t1[c] + sn * t2[c]);
                }
                ld on = pxo_overlap_along(o->wa, o->na, o->wb, o->nb, v);
                if (on < best)
                {
                    best = on;
                    ld l = len3l(v);
                    for (int c = 0; c < 3; ++c)
                    {
                        n[c] = v[c] / l;
                    }
                    improved = 1;
                }
            }
            if (!improved)
            {
                break;
            }
        }
    }
    return best;
}

/* Random overlapping pairs: pruned == unpruned, no swept direction below depth*, and the certified lower
 * bound of hull_distance's inner polytope never above depth* (and closing on it where it converges). */
static int oracle_random(void)
{
    const char* env = getenv("PX_CONTACT_ORACLE_SAMPLES");
    const int n = env != NULL && atoi(env) > 0 ? atoi(env) : PXT_ASAN ? 150 : 600;
    px_rng r = px_rng_seeded(0x5a7d3e11ull);
    static contact_case c;
    static pxt_oracle_view o;
    static pxo_polytope pa, pb;
    int overlapping = 0, closed = 0, bad = 0, lb_above = 0;
    long axes_pruned = 0, axes_all = 0;
    ld worst_gap = 0.0L;
    for (int i = 0; i < n; ++i)
    {
        pxt_gen_case(&r, i % PXT_K_COUNT, bucket_values, px_rng_int(&r, PXT_DEPTH_BUCKETS), &c);
        pxt_oracle_eval(&c, &o);
        if (!o.d.certified || !o.d.overlap)
        {
            continue;
        }
        ++overlapping;
        pxo_polytope_build(o.wa, o.na, o.S, &pa);
        pxo_polytope_build(o.wb, o.nb, o.S, &pb);
        pxo_sat s1, s0;
        pxo_sat_depth_polytopes(&pa, &pb, 1, &s1);
        pxo_sat_depth_polytopes(&pa, &pb, 0, &s0);
        axes_pruned += s1.candidates;
        axes_all += s0.candidates;
        const ld S = o.S;
        if (!s1.ok || !(fabsl(s1.depth - s0.depth) <= 1.0e-15L * S))
        {
            printf("    sample %d (%s): pruned depth %.17Lg, unpruned %.17Lg (ok %d)\n", i, pxt_kind_names[c.family],
                   s1.depth, s0.depth, s1.ok);
            bad = 1;
        }
        /* direction sweep: every direction's overlap is an upper bound */
        ld sweep = INFINITY;
        for (int k = 0; k < 1000; ++k)
        {
            double u[3];
            px_rng_unit_vector(&r, u);
            ld v[3] = { u[0], u[1], u[2] };
            ld on = pxo_overlap_along(o.wa, o.na, o.wb, o.nb, v);
            sweep = on < sweep ? on : sweep;
        }
        /* and a local pattern search around the oracle's axis, down to steps of 1e-18 */
        ld local = local_min_overlap(&o, s1.axis);
        sweep = local < sweep ? local : sweep;
        ld depth = s1.depth > 0.0L ? s1.depth : 0.0L;
        /* touching pairs (depth* < 0 within the distance oracle's 1e-12 S band) only need the sign */
        if (sweep < s1.depth - (s1.depth >= 0.0L ? 4.0L * PXO_SAT_FLAT_REL : 1.0e-12L) * S)
        {
            printf("    sample %d (%s): a swept direction overlaps by %.17Lg < depth* %.17Lg (dims %d %d -> %d, S %.6Lg)\n",
                   i, pxt_kind_names[c.family], sweep, s1.depth, s1.dim_a, s1.dim_b, s1.dim_diff, S);
            if (getenv("PX_CONTACT_VERBOSE") != NULL)
            {
                pxt_print_case(&c, "sweep_below");
            }
            bad = 1;
        }
        if (pa.dim == 3 && pb.dim == 3 && depth > 1.0e-9L * S)
        {
            ld lb = pxo_depth_lower_bound(o.wa, o.na, o.wb, o.nb, s1.axis, S, depth * (1.0L - 1.0e-9L), 40);
            if (lb > depth + 1.0e-12L * S)
            {
                /* o(axis) is evaluated directly (an upper bound of the depth), so this is the lower bound's
                 * fault: pxo_depth_lower_bound skips sliver facets of its inner polytope (near-parallel thin
                 * boxes) and can overshoot. Reported, not failed. */
                ++lb_above;
                if (lb_above <= 3)
                {
                    printf("    sample %d (%s): pxo_depth_lower_bound %.17Lg above depth* %.17Lg = o(axis) (S %.6Lg)\n",
                           i, pxt_kind_names[c.family], lb, depth, S);
                    if (getenv("PX_CONTACT_VERBOSE") != NULL)
                    {
                        pxt_print_case(&c, "lower_bound_above");
                    }
                }
            }
            ld gap = (depth - lb) / S;
            if (gap <= 1.0e-9L)
            {
                ++closed;
            }
            else
            {
                worst_gap = gap > worst_gap ? gap : worst_gap;
            }
        }
    }
    printf("    %d overlapping samples: Gauss-map pruning kept %ld of %ld axes; certified lower bound within "
           "1e-9 S of depth* on %d (largest open gap %.3Lg S), above depth* on %d\n",
           overlapping, axes_pruned, axes_all, closed, worst_gap, lb_above);
    return bad;
}

/* ------------------------------------------------------------------------------------------------ */
/* Random suite                                                                                      */

#define PXT_DEPTH_DECADES 12

typedef struct family_stats
{
    long samples, uncertified, fails, overlapping, separated, coal_skipped;
    long check_fails[F_COUNT_BITS];
    long methods[4];
    long warnings;
    ld max_err_s, max_err_tol;     /* overlapping */
    ld max_sep_s, max_sep_tol;     /* separated */
    ld max_witness_s;              /* largest witness distance from its surface, / tolerance */
} family_stats;

static long sample_count(void)
{
    const char* env = getenv("PX_CONTACT_SAMPLES");
    if (env != NULL && atol(env) > 0)
    {
        return atol(env);
    }
    return PXT_ASAN ? 20000 : 100000;
}

static int random_pairs(void)
{
    const long n = sample_count();
    const long n_sep = n / 10;
    const char* seed_env = getenv("PX_TEST_SEED");
    const int minimize = getenv("PX_CONTACT_MINIMIZE") != NULL;
    printf("  %ld overlapping pairs wanted (depth-targeted draws) + %ld distance-targeted draws%s, seed PX_TEST_SEED=%s\n", n, n_sep,
           PXT_ASAN ? " (AddressSanitizer build)" : "", seed_env != NULL ? seed_env : "0");
    px_rng r = px_rng_seeded(0x636f6e74616374ull);
    static family_stats st[PXT_K_COUNT];
    memset(st, 0, sizeof(st));
    long method_samples[4] = { 0 };
    static long method_checks[4][F_COUNT_BITS];
    memset(method_checks, 0, sizeof(method_checks));
    long method_fails[4] = { 0 };
    const char* print_method = getenv("PX_CONTACT_PRINT_METHOD");
    const char* print_check = getenv("PX_CONTACT_PRINT_CHECK");
    const long max_printed = getenv("PX_CONTACT_MAX_PRINTED") != NULL ? atol(getenv("PX_CONTACT_MAX_PRINTED")) : PXT_MAX_PRINTED;
    ld method_err[4] = { 0 };
    long status_count[8] = { 0 };
    long kind_count[6] = { 0 };
    long decades[PXT_DEPTH_DECADES + 1] = { 0 };
    long bucket_samples[PXT_BUCKETS] = { 0 }, bucket_overlap[PXT_BUCKETS] = { 0 }, bucket_fails[PXT_BUCKETS] = { 0 };
    long printed = 0, failures = 0, uncertified = 0;
    clock_t t0 = clock();
    static contact_case c;
    /* depth-targeted draws until n certified overlapping pairs (tiny targets and thin shapes sometimes
     * end apart: those count as separated samples), then n_sep distance-targeted draws */
    long overlapping_done = 0, depth_draws = 0, i = 0;
    for (; overlapping_done < n || i < depth_draws + n_sep; ++i)
    {
        const int depth_phase = overlapping_done < n && i < 3 * n;
        if (depth_phase)
        {
            depth_draws = i + 1;
        }
        else if (i >= depth_draws + n_sep)
        {
            break;
        }
        int family = (int)(i % PXT_K_COUNT);
        int bucket = depth_phase ? px_rng_int(&r, PXT_DEPTH_BUCKETS)
                                 : PXT_DEPTH_BUCKETS + px_rng_int(&r, PXT_BUCKETS - PXT_DEPTH_BUCKETS);
        pxt_gen_case(&r, family, bucket_values, bucket, &c);
        eval_out e;
        eval_case(&c, 0, &e);
        family_stats* fs = &st[family];
        fs->samples++;
        if (e.uncertified)
        {
            fs->uncertified++;
            uncertified++;
            if (uncertified <= PXT_MAX_PRINTED)
            {
                char name[48];
                snprintf(name, sizeof(name), "uncertified_%ld", i);
                printf("  sample %ld: oracle did not certify (%d); skipped\n", i, e.uncertified);
                pxt_print_case(&c, name);
                eval_case(&c, 1, &e);
            }
            continue;
        }
        bucket_samples[bucket]++;
        bucket_overlap[bucket] += e.overlap;
        fs->methods[(int)e.method & 3]++;
        fs->warnings += e.status > 0;
        status_count[e.status >= 0 && e.status < 4 ? e.status : e.status < 0 ? 4 : 5]++;
        {
            ld ws = e.tol > 0.0L ? e.witness_err / e.tol : (e.witness_err > 0.0L ? INFINITY : 0.0L);
            fs->max_witness_s = ws > fs->max_witness_s ? ws : fs->max_witness_s;
        }
        if (e.overlap)
        {
            overlapping_done++;
            fs->overlapping++;
            fs->coal_skipped += e.coal_skipped;
            kind_count[e.axis_kind >= 0 && e.axis_kind < 6 ? e.axis_kind : 0]++;
            ld es = e.S > 0.0L ? e.err / e.S : e.err, et = e.tol > 0.0L ? e.err / e.tol : (e.err > 0.0L ? INFINITY : 0.0L);
            if (es > fs->max_err_s && getenv("PX_CONTACT_WORST") != NULL)
            {
                char name[48];
                snprintf(name, sizeof(name), "worst_%ld", i);
                printf("  sample %ld: largest depth error of %s so far, %.3Lg S (%.3Lg tau)\n", i,
                       pxt_kind_names[family], es, et);
                pxt_print_case(&c, name);
                eval_case(&c, 1, &e);
            }
            fs->max_err_s = es > fs->max_err_s ? es : fs->max_err_s;
            fs->max_err_tol = et > fs->max_err_tol ? et : fs->max_err_tol;
            method_samples[(int)e.method & 3]++;
            method_err[(int)e.method & 3] = es > method_err[(int)e.method & 3] ? es : method_err[(int)e.method & 3];
            ld rel = e.S > 0.0L ? -e.dstar / e.S : 0.0L;
            int dk = rel <= 1.0e-12L ? 0 : (int)floorl(log10l(rel)) + 13;
            decades[dk < 0 ? 0 : dk > PXT_DEPTH_DECADES ? PXT_DEPTH_DECADES : dk]++;
        }
        else
        {
            fs->separated++;
            ld es = e.S > 0.0L ? e.err / e.S : e.err, et = e.tol > 0.0L ? e.err / e.tol : (e.err > 0.0L ? INFINITY : 0.0L);
            fs->max_sep_s = es > fs->max_sep_s ? es : fs->max_sep_s;
            fs->max_sep_tol = et > fs->max_sep_tol ? et : fs->max_sep_tol;
        }
        if (e.fails != 0)
        {
            fs->fails++;
            failures++;
            bucket_fails[bucket]++;
            for (int b = 0; b < F_COUNT_BITS; ++b)
            {
                fs->check_fails[b] += (e.fails >> b) & 1u;
            }
            method_fails[(int)e.method & 3]++;
            for (int b = 0; b < F_COUNT_BITS; ++b)
            {
                method_checks[(int)e.method & 3][b] += (e.fails >> b) & 1u;
            }
            int wanted = print_method == NULL || strcmp(print_method, method_names[(int)e.method & 3]) == 0;
            if (print_check != NULL)
            {
                int hit = 0;
                for (int b = 0; b < F_COUNT_BITS; ++b)
                {
                    hit |= ((e.fails >> b) & 1u) && strcmp(print_check, check_names[b]) == 0;
                }
                wanted = wanted && hit;
            }
            if (wanted && printed < max_printed)
            {
                ++printed;
                char name[48];
                snprintf(name, sizeof(name), "fail_%ld", i);
                printf("  sample %ld FAILED (bucket %g):\n", i, bucket_values[bucket]);
                pxt_print_case(&c, name);
                eval_case(&c, 1, &e);
                if (minimize)
                {
                    minimize_case(&c, e.fails);
                }
            }
        }
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;

    printf("  %-11s %7s %6s %6s %7s %6s %10s %10s %10s %10s %5s %6s %6s %5s  failed checks\n", "family", "samples",
           "uncert", "fails", "overlap", "apart", "deperr/S", "deperr/tau", "seperr/S", "seperr/tol", "anal", "gjk",
           "epa", "warn");
    for (int k = 0; k < PXT_K_COUNT; ++k)
    {
        family_stats* fs = &st[k];
        printf("  %-11s %7ld %6ld %6ld %7ld %6ld %10.3Le %10.3Le %10.3Le %10.3Le %5ld %6ld %6ld %5ld ",
               pxt_kind_names[k], fs->samples, fs->uncertified, fs->fails, fs->overlapping, fs->separated,
               fs->max_err_s, fs->max_err_tol, fs->max_sep_s, fs->max_sep_tol, fs->methods[PX_CONTACT_ANALYTIC],
               fs->methods[PX_CONTACT_GJK], fs->methods[PX_CONTACT_EPA], fs->warnings);
        for (int b = 0; b < F_COUNT_BITS; ++b)
        {
            if (fs->check_fails[b] > 0)
            {
                printf(" %s:%ld", check_names[b], fs->check_fails[b]);
            }
        }
        printf("\n");
    }
    printf("  largest witness distance from its shape's surface / tolerance:");
    for (int k = 0; k < PXT_K_COUNT; ++k)
    {
        printf(" %s %.3Le", pxt_kind_names[k], st[k].max_witness_s);
    }
    printf("\n");
    printf("  overlapping samples by method (max depth error / S): analytic %ld (%.3Le), gjk %ld (%.3Le), epa %ld "
           "(%.3Le)\n",
           method_samples[1], method_err[1], method_samples[2], method_err[2], method_samples[3], method_err[3]);
    printf("  failing samples by method:");
    for (int m = 1; m < 4; ++m)
    {
        printf(" %s %ld (", method_names[m], method_fails[m]);
        int first = 1;
        for (int b = 0; b < F_COUNT_BITS; ++b)
        {
            if (method_checks[m][b] > 0)
            {
                printf("%s%s:%ld", first ? "" : " ", check_names[b], method_checks[m][b]);
                first = 0;
            }
        }
        printf(")");
    }
    printf("\n");
    printf("  statuses: ok %ld, max_iterations %ld, degenerate %ld, capacity %ld, errors %ld\n", status_count[0],
           status_count[1], status_count[2], status_count[3], status_count[4]);
    printf("  oracle minimum on: face of A %ld, face of B %ld, edge x edge %ld, in-plane %ld, line %ld\n", kind_count[1],
           kind_count[2], kind_count[3], kind_count[4], kind_count[5]);
    printf("  achieved depth*/S: <=1e-12 %ld", decades[0]);
    for (int k = 1; k <= PXT_DEPTH_DECADES; ++k)
    {
        if (decades[k] > 0)
        {
            printf(", [1e%d,1e%d) %ld", k - 13, k - 12, decades[k]);
        }
    }
    printf("\n  by target bucket (signed distance / S aimed at: samples, overlapping, failing):");
    for (int b = 0; b < PXT_BUCKETS; ++b)
    {
        printf(" %g: %ld/%ld/%ld", bucket_values[b], bucket_samples[b], bucket_overlap[b], bucket_fails[b]);
    }
    long coal_skipped = 0, overlapping = 0;
    for (int k = 0; k < PXT_K_COUNT; ++k)
    {
        coal_skipped += st[k].coal_skipped;
        overlapping += st[k].overlapping;
    }
    printf("\n  %ld draws (%ld depth-targeted): %ld overlapping samples (%ld with depth <= eta: the still-overlapping "
           "move skipped)\n",
           i, depth_draws, overlapping, coal_skipped);
    printf("  oracles open on %ld samples (skipped); %ld failing samples; %.1f s\n", uncertified, failures, secs);
    int bad = 0;
    if (uncertified > PXT_MAX_UNCERTIFIED)
    {
        printf("  more than %d samples without a certified oracle\n", PXT_MAX_UNCERTIFIED);
        bad = 1;
    }
    return bad || failures > 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* Frozen regressions (printed by random_pairs and minimized with PX_CONTACT_MINIMIZE=1)             */

static int run_frozen(const pxt_frozen_case* fc)
{
    static contact_case c;
    pxt_from_frozen(fc, &c);
    eval_out e;
    eval_case(&c, 0, &e);
    if (e.uncertified || e.fails != 0)
    {
        printf("  %s:\n", fc->name);
        eval_case(&c, 1, &e);
        return 1;
    }
    return 0;
}

/* Shallow penetration inside GJK's touching band: a triangle and a segment near the origin, S 0.005,
 * depth* 1.35e-11 (2.7e-9 S). proxima takes the GJK path (cores "touching within rounding"): distance 0
 * is within tolerance, but the normal is the direction of GJK's rounding-sized v, whose overlap o(n) is
 * 0.0027 (0.54 S) against depth* + tau = 5e-6: moving B by -distance + eta along it does not separate. */
static const float reg_band_normal_a[] = {
    0x1.af677ep-9f, 0x1.423de4p-9f, -0x1.5a678ep-10f, 0x1.29e9fap-8f, -0x1.36caa6p-10f, 0x1.4d6d7ap-10f,
    0x1.94ec42p-9f, -0x1.1005ecp-10f, -0x1.8d3e14p-9f
};
static const float reg_band_normal_b[] = {
    -0x1.d6adaap-8f, 0x1.805bcap-9f, -0x1.a84478p-12f, -0x1.a8df2p-9f, -0x1.866446p-18f, -0x1.51aa9ap-10f
};
static const pxt_frozen_case reg_band_normal_case = { "reg_band_normal", PXT_K_ELLIPSOID,
    0, 3, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_band_normal_a,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_band_normal_b,
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { -0x1.a70094p-8f, -0x1.fa74fp-8f, -0x1.9e8746p-9f },
    { -0x1.599b2cp-1f, 0x1.bd718ep-5f, 0x1.ee66f6p-2f, -0x1.1c488p-1f },
    { -0x1.467deap-13f, -0x1.7317c4p-7f, -0x1.2fbc7ap-7f } };

/* The same, far from the origin: a triangle and a segment (minimized from box hulls) under near-identity
 * rotations at (-9.7e3, -8.9e3, 5.8e3), S 0.67, depth* 9.1e-9 (1.4e-8 S) along +y. proxima: GJK path,
 * distance 0, normal exactly -y (flipped: inside the band v points out of A - B, the code negates it as
 * for a separated pair); o(n) = 0.671 = S. */
static const float reg_band_flipped_normal_a[] = {
    0x1.371e1ep-6f, 0x1.021364p-15f, -0x1.efd16ap-3f, -0x1.371e1ep-6f, 0x1.021364p-15f, 0x1.efd16ap-3f,
    0x1.371e1ep-6f, 0x1.021364p-15f, 0x1.efd16ap-3f
};
static const float reg_band_flipped_normal_b[] = {
    0x1.4fbc12p-15f, -0x1.57f7fp-2f, 0x1.bf6bb2p-10f, 0x1.4fbc12p-15f, 0x1.572f3cp-2f, 0x1.bf6bb2p-10f
};
static const pxt_frozen_case reg_band_flipped_normal_case = { "reg_band_flipped_normal", PXT_K_BOX_HULL,
    0, 3, { 0x1.371e1ep-6f, 0x1.021364p-15f, 0x1.efd16ap-3f }, reg_band_flipped_normal_a,
    0, 2, { 0x1.4fbb3cp-15f, 0x1.579396p-2f, 0x1.c7086cp-10f }, reg_band_flipped_normal_b,
    { -0x1.d25f9cp-33f, -0x1.2d7acp-32f, 0x1.93257cp-32f, 0x1p+0f },
    { -0x1.2e25b4p+13f, -0x1.14afd6p+13f, 0x1.6918c4p+12f },
    { 0x1.b86deap-29f, 0x1.48cc0ap-29f, -0x1.55890cp-29f, 0x1p+0f },
    { -0x1.2e25ap+13f, -0x1.14ad26p+13f, 0x1.691b98p+12f } };

/* Depth dropped: a 4-point tetrahedron (three corners of a box face and one more) against a segment,
 * S 0.56, depth* 8.67e-4 (1.5e-3 S, tau 5.6e-4). proxima returns distance 0 by the GJK path (GJK stopped
 * with its OVERLAP exit but without a simplex enclosing the origin; the contact took that as touching and
 * never ran EPA); the swapped and relative-pose queries do the same. */
static const float reg_overlap_exit_depth_a[] = {
    0x1.14c8a4p-2f, -0x1.41e7a4p-11f, -0x1.3c3ddap-4f, -0x1.14c8a4p-2f, 0x1.41e7a4p-11f, -0x1.3c3ddap-4f,
    0x1.14c8a4p-2f, 0x1.41e7a4p-11f, -0x1.3c3ddap-4f, 0x1.14c8a4p-2f, 0x1.41e7a4p-11f, 0x1.3c3ddap-4f
};
static const float reg_overlap_exit_depth_b[] = {
    -0x1.ca0048p-4f, -0x1.9169dp-29f, 0x1.dfd24ap-31f, 0x1.6100a8p-5f, -0x1.9169dp-29f, 0x1.dfd24ap-31f
};
static const pxt_frozen_case reg_overlap_exit_depth_case = { "reg_overlap_exit_depth", PXT_K_SEGMENT,
    0, 4, { 0x1.14c8a4p-2f, 0x1.41e7a4p-11f, 0x1.3c3ddap-4f }, reg_overlap_exit_depth_a,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_overlap_exit_depth_b,
    { 0x1.97945cp-1f, 0x1.ff33aap-2f, 0x1.3cbd0ap-4f, 0x1.554ffep-2f },
    { 0x1.f2dd92p-10f, -0x1.e61d5p-5f, -0x1.7a2732p-10f },
    { 0x1.a88e2cp-4f, -0x1.ccdb98p-1f, -0x1.fdb7f4p-6f, 0x1.b0212ep-2f },
    { 0x1.69d0a2p-6f, 0x1.208a96p-4f, 0x1.1aef08p-5f } };

/* Touching (a point on a segment, depth* 0): the GJK path returns a normal of length 1.0038. */
static const float reg_band_normal_not_unit_a[] = {
    0x1.ad825ap-9f, 0x0p+0f, 0x0p+0f, -0x1.7c2d36p-9f, 0x0p+0f, 0x0p+0f
};
static const float reg_band_normal_not_unit_b[] = {
    -0x1.f93cp-58f, -0x1.065p-58f, -0x1.18ep-59f
};
static const pxt_frozen_case reg_band_normal_not_unit_case = { "reg_band_normal_not_unit", PXT_K_POINT,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_band_normal_not_unit_a,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_band_normal_not_unit_b,
    { -0x1.1cd338p-48f, 0x1.42be4ep-50f, -0x1.2d5f3ap-49f, 0x1p+0f },
    { 0x1.4fbf7p-9f, -0x1.55740cp-9f, -0x1.3d1b3p-8f },
    { -0x1.b10b16p-37f, 0x1.e8af72p-37f, 0x1.330886p-36f, 0x1p+0f },
    { 0x1.bf27d4p-9f, -0x1.55740cp-9f, -0x1.3d1b3p-8f } };

/* EPA witness off B: a flat hexagon against a segment, S 1446, depth* 119.4419: the depth and normal
 * are right (-119.441864), but point_b is 109 (0.075 S) outside B. */
static const float reg_epa_witness_b_a[] = {
    -0x1.2d1186p+9f, -0x1.0281cap+7f, 0x0p+0f, 0x1.33e41p+9f, -0x1.fc602ep+6f, 0x0p+0f,
    0x1.9e552ap+9f, 0x1.337ce8p+6f, 0x0p+0f, 0x1.f6d4b4p+8f, 0x1.1d63cep+7f, 0x0p+0f,
    0x1.5d1d4cp+7f, 0x1.4d48ap+7f, 0x0p+0f, 0x1.f1f87p+6f, 0x1.504368p+7f, 0x0p+0f
};
static const float reg_epa_witness_b_b[] = {
    -0x1.13f3e8p+9f, 0x1.b3935p+1f, -0x1.a859a8p+4f, 0x1.13f3e8p+9f, 0x1.b3935p+1f, -0x1.a859a8p+4f
};
static const pxt_frozen_case reg_epa_witness_b_case = { "reg_epa_witness_b", PXT_K_POLYGON,
    0, 6, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_witness_b_a,
    0, 2, { 0x1.13f3e8p+9f, 0x1.b39342p+1f, 0x1.a85998p+4f }, reg_epa_witness_b_b,
    { 0x1.830e78p-1f, 0x1.2f208ep-4f, -0x1.2cbd34p-1f, 0x1.1e048ep-2f },
    { -0x1.73b3cep+6f, 0x1.3eb734p+8f, 0x1.fabcacp+8f },
    { 0x1.8719a6p-13f, 0x1.ec1d82p-13f, 0x1.7f2d5cp-13f, 0x1.fffffep-1f },
    { 0x1.0cbf2p+6f, 0x1.f3db22p+7f, 0x1.6e842p+8f } };

/* EPA's flat exit on a solid pair: px_shape_box half (35.7, 0.547, 0.083) against a triangle with edges
 * of ~600, depth* 1.13e-6 (1.9e-9 S). EPA returns distance 0 (fine) with a normal whose overlap o(n) is
 * 62 (0.1 S) against tau 0.6. */
static const float reg_epa_flat_normal_b[] = {
    -0x1.170ad6p-3f, -0x1.b40abep+3f, -0x1.2cc19ep+8f, -0x1.170ad6p-3f, -0x1.b40abep+3f, 0x1.2cc19ep+8f,
    0x1.170b8ap-3f, -0x1.b40abep+3f, 0x1.2cc19ep+8f
};
static const pxt_frozen_case reg_epa_flat_normal_case = { "reg_epa_flat_normal", PXT_K_BOX_SHAPE,
    1, 0, { 0x1.1dedb2p+5f, 0x1.18177ap-2f, 0x1.51e266p-4f }, NULL,
    0, 3, { 0x1.170b3p-3f, 0x1.b40abcp+3f, 0x1.2cc19ep+8f }, reg_epa_flat_normal_b,
    { -0x1.9863dp-1f, -0x1.93ebc8p-3f, 0x1.056716p-1f, -0x1.037c92p-2f },
    { -0x1.093da6p+4f, 0x1.e6b3c6p+0f, 0x1.1efca6p+3f },
    { 0x1.eb4c54p-4f, 0x1.2262p-1f, -0x1.45d04ep-1f, 0x1.049176p-1f },
    { 0x1.6da686p+3f, 0x1.aeea02p-3f, -0x1.db4d96p+4f } };

/* Box-box closed form, witness off A: px_shape_box half (0.048, 75.1, 29.2) and (117.2, 0.62, 0.85),
 * near-identity rotations, ~1e3 from the origin, depth* 11.9294 (0.05 S) along +y: depth and normal are
 * right, but point_a is 117 outside A (B's deepest vertex carried onto A's face plane lands beyond A's
 * 0.1-wide face). */
static const pxt_frozen_case reg_box_box_witness_a_case = { "reg_box_box_witness_a", PXT_K_BOX_SHAPE,
    1, 0, { 0x1.89f032p-5f, 0x1.2c966cp+6f, 0x1.d39cccp+4f }, NULL,
    1, 0, { 0x1.d4f006p+6f, 0x1.3d13acp-1f, 0x1.b55102p-1f }, NULL,
    { -0x1.c231d6p-44f, 0x1.4f8aa2p-42f, -0x1.46814ep-40f, 0x1p+0f },
    { -0x1.c3f60ep+9f, 0x1.23f48ep+9f, 0x1.625924p+9f },
    { -0x1.b5e824p-44f, 0x1.51d362p-42f, -0x1.46f4d6p-40f, 0x1p+0f },
    { -0x1.c3fc36p+9f, 0x1.43dfaap+9f, 0x1.623aa4p+9f } };

/* Box-box closed form, witness off B: px_shape_box half (1575.6, 26.7, 6.6) and (0.54, 999.4, 14.5), their
 * long edges crossing nearly parallel (B's long axis 1.8e-6 rad off A's face plane), S 3152. The axis choice
 * prefers A's face (overlap 0.00283) to the edge pair (0.00247, smaller by less than 1e-6 S); over A's face
 * no pair of points realizes that overlap, and point_b came out 113 outside B (PX_TEST_SEED=28, sample
 * 89922). Such pairs now go to GJK and EPA. */
static const pxt_frozen_case reg_box_box_witness_b_case = { "reg_box_box_witness_b", PXT_K_BOX_SHAPE,
    1, 0, { 0x1.89e772p+10f, 0x1.ab81ccp+4f, 0x1.a74da2p+2f }, NULL,
    1, 0, { 0x1.14f9ccp-1f, 0x1.f3adf4p+9f, 0x1.d15044p+3f }, NULL,
    { 0x1.b7d76ep-2f, 0x1.49b474p-2f, 0x1.510cb6p-1f, -0x1.0e2f6cp-1f },
    { 0x1.57581p+8f, 0x1.7b4ep+9f, -0x1.01d53ap+9f },
    { -0x1.d2523ap-2f, -0x1.bf2adp-3f, -0x1.aa809ep-1f, -0x1.cea912p-3f },
    { 0x1.103a5p+7f, -0x1.e9d202p+8f, 0x1.4ebf2ep+10f } };

/* A point touching a box plate 3.9e-5 thick (half extents 2e-5, 0.016, 0.19; S 0.38) near its rim, depth*
 * 8e-11: GJK's normal had an overlap of 7.1e-4, and the refinement moved B off by a gap (9.5e-5) larger
 * than the plate's thickness, past its rim, where the closest points gave a normal 90 degrees from the
 * plate's, its overlap 3.9e-5 against eta 3.8e-5 (PX_TEST_SEED=80, sample 22795; helper-70). */
static const float reg_plate_rim_normal_a[] = { -0x1.79c758p-6f, 0x1.99cd72p-5f, 0x1.50224ep-5f };
static const pxt_frozen_case reg_plate_rim_normal_case = { "reg_plate_rim_normal", PXT_K_POINT,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_plate_rim_normal_a,
    1, 0, { 0x1.491e2cp-16f, 0x1.03fa08p-6f, 0x1.86c3cap-3f }, NULL,
    { 0x1.ecd36cp-3f, -0x1.c3d5b2p-1f, 0x1.317ee6p-2f, 0x1.171fdep-2f },
    { -0x1.b3553ep-5f, 0x1.4ee80cp-6f, 0x1.0c34bcp-5f },
    { -0x1.48252ep-3f, -0x1.127cc8p-1f, -0x1.a82784p-1f, -0x1.9984dap-6f },
    { -0x1.b28bfap-4f, -0x1.df94d2p-5f, -0x1.a719acp-5f } };

/* A needle's end touching a flat tetrahedron: px_shape_box half (3.0e-7, 2.1e-3, 5.9e-7) against a 4-point
 * hull 0.03 across, S 0.054, apart by 2e-11 (PX_TEST_SEED=40, sample 52814). EPA answers the touching depth
 * 1.9e-9 along a normal tilted 0.034 rad from the tetrahedron's face (every direction in a cone separates
 * a corner from a face); B moved off along it by the witness gap had its closest points 5.8e-7 apart
 * sideways, past the limit, and the contact kept EPA's own witness, 1.1e-6 outside the needle (tolerance
 * 5.9e-7). The witness is now taken again along the moved shapes' own direction (the face's normal). */
static const float reg_needle_end_witness_a[] = {
    -0x1.00bc3ep-11f, -0x1.814f7ep-7f, 0x1.ca575cp-8f, 0x1.a6eaccp-8f, 0x1.e91b28p-7f, -0x1.ee0864p-11f,
    -0x1.abfcbap-6f, 0x1.371302p-6f, -0x1.d7deb4p-6f, -0x1.72cf66p-6f, -0x1.8e16e2p-8f, -0x1.b727aep-7f
};
static const pxt_frozen_case reg_needle_end_witness_case = { "reg_needle_end_witness", PXT_K_FLAT_TETRA,
    0, 4, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_needle_end_witness_a,
    1, 0, { 0x1.43c536p-22f, 0x1.148372p-9f, 0x1.3ac90ep-21f }, NULL,
    { 0x1.8589dp-30f, 0x1.aa79b6p-28f, -0x1.8ffb34p-29f, 0x1p+0f },
    { -0x1.9ec3a2p-11f, -0x1.4845ap-7f, 0x1.70c7dcp-8f },
    { 0x1.d3510ap-2f, 0x1.1a357p-3f, 0x1.38b1bcp-2f, -0x1.a60cacp-1f },
    { -0x1.1667f8p-7f, 0x1.f7016ep-8f, -0x1.46a61cp-7f } };

/* Undocumented warning: a point against a 5-point hull ~200 from the origin, S 204, separated by 1.9e-7
 * (9e-10 S): the distance (0) is within tolerance, but the status is PX_WARN_DEGENERATE from EPA, which
 * contact.h does not list among px_contact_world's outcomes (seen on the working tree after the GJK-path
 * changes; HEAD a5b9e85 answers PX_OK). */
static const float reg_epa_degenerate_status_a[] = {
    0x1.1f312p+5f, -0x1.2e9254p+5f, 0x1.eb6806p+5f
};
static const float reg_epa_degenerate_status_b[] = {
    -0x1.f9b55cp+5f, -0x1.8715p+0f, -0x1.185ffcp-20f, -0x1.9b782p+6f, -0x1.7583f2p-3f, -0x1.185ffcp-20f,
    -0x1.1e2282p+6f, -0x1.64c34ep+0f, -0x1.185ffcp-20f, 0x1.95707p+6f, 0x1.803fcp-2f, -0x1.185ffcp-20f,
    -0x1.b615f4p+1f, -0x1.ee1ee4p+0f, -0x1.185ffcp-20f
};
static const pxt_frozen_case reg_epa_degenerate_status_case = { "reg_epa_degenerate_status", PXT_K_POINT,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_degenerate_status_a,
    0, 5, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_degenerate_status_b,
    { 0x1.7338fcp-3f, 0x1.4ae96cp-1f, -0x1.f929fap-2f, -0x1.1b401ep-1f },
    { -0x1.acead2p+7f, -0x1.c0667cp+4f, -0x1.e2367ep+5f },
    { 0x1.28249cp-1f, 0x1.516992p-1f, -0x1.dadbp-2f, -0x1.03fa4ap-3f },
    { -0x1.125a8ap+8f, -0x1.937186p+4f, -0x1.8fb1e6p+3f } };

/* Two triangles (minimized from polygons), S 3.9, overlapping by depth* 1.9e-10: the contact takes the GJK
 * path and reports them apart by 4.8e-5 (1.2e-5 S, beyond GJK's own 1e-5 S) with a normal whose overlap is
 * 0.0098 (2.5e-3 S) against depth* + tau = 0.0039. px_gjk_distance_world itself returns 4.8e-5 (exit
 * NO_PROGRESS): beyond the GJK suite's 1e-5 S + 16 eps C = 4.4e-5. */
static const float reg_gjk_triangles_apart_a[] = {
    -0x1.98eca4p-5f, 0x1.fd2e66p-5f, 0x0p+0f, -0x1.60c8cap-1f, 0x1.695c32p-6f, 0x0p+0f,
    0x1.7d455cp+0f, 0x1.77555ep-17f, 0x0p+0f
};
static const float reg_gjk_triangles_apart_b[] = {
    0x1.993ff4p+0f, 0x1.ca77a4p-2f, -0x1.dbe854p-26f, -0x1.224d9cp+1f, -0x1.98d886p-3f, -0x1.dbe854p-26f,
    0x1.7281aap+0f, -0x1.ea1694p-2f, -0x1.dbe854p-26f
};
static const pxt_frozen_case reg_gjk_triangles_apart_case = { "reg_gjk_triangles_apart", PXT_K_POLYGON,
    0, 3, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_gjk_triangles_apart_a,
    0, 3, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_gjk_triangles_apart_b,
    { -0x1.e5037cp-1f, -0x1.046798p-2f, -0x1.d2c982p-6f, 0x1.8ac5e2p-3f },
    { -0x1.48426ap-1f, 0x1.11a764p-1f, 0x1.7b78bcp-7f },
    { 0x1.c9f37p-1f, 0x1.23cffp-4f, 0x1.fe8046p-3f, 0x1.7520e4p-2f },
    { -0x1.69654p-1f, 0x1.101108p+0f, -0x1.646e1cp-1f } };

/* EPA too deep: two thin boxes as 8-point hulls (0.8 x 0.019 x 0.0009 and 0.45 x 0.0012 x 0.4), S 0.80,
 * depth* 1.54e-5 (1.9e-5 S): on the working tree (after the GJK-path and EPA edits) px_contact_world runs
 * EPA and returns -0.01696 (2.1e-2 S too deep, point_a 0.0085 off A); found by oracle_peers_contact. At
 * HEAD a5b9e85 it took the GJK path instead: distance 0 with a normal whose overlap is 0.0151. */
static const float reg_epa_too_deep_a[] = {
    -0x1.984b7p-2f, -0x1.3443f8p-7f, -0x1.c7cb1ap-12f, 0x1.984b7p-2f, -0x1.3443f8p-7f, -0x1.c7cb1ap-12f,
    -0x1.984b7p-2f, 0x1.3443f8p-7f, -0x1.c7cb1ap-12f, 0x1.984b7p-2f, 0x1.3443f8p-7f, -0x1.c7cb1ap-12f,
    -0x1.984b7p-2f, -0x1.3443f8p-7f, 0x1.c7cb1ap-12f, 0x1.984b7p-2f, -0x1.3443f8p-7f, 0x1.c7cb1ap-12f,
    -0x1.984b7p-2f, 0x1.3443f8p-7f, 0x1.c7cb1ap-12f, 0x1.984b7p-2f, 0x1.3443f8p-7f, 0x1.c7cb1ap-12f
};
static const float reg_epa_too_deep_b[] = {
    -0x1.c83812p-3f, -0x1.3b64a6p-11f, -0x1.9dc642p-3f, 0x1.c83812p-3f, -0x1.3b64a6p-11f, -0x1.9dc642p-3f,
    -0x1.c83812p-3f, 0x1.3b5886p-11f, -0x1.9dc642p-3f, 0x1.c83812p-3f, 0x1.3b5886p-11f, -0x1.9dc642p-3f,
    -0x1.c83812p-3f, -0x1.3b64a6p-11f, 0x1.9dc636p-3f, 0x1.c83812p-3f, -0x1.3b64a6p-11f, 0x1.9dc636p-3f,
    -0x1.c83812p-3f, 0x1.3b5886p-11f, 0x1.9dc636p-3f, 0x1.c83812p-3f, 0x1.3b5886p-11f, 0x1.9dc636p-3f
};
static const pxt_frozen_case reg_epa_too_deep_case = { "reg_epa_too_deep", PXT_K_BOX_HULL,
    0, 8, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_too_deep_a,
    0, 8, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_too_deep_b,
    { 0x1.19d596p-2f, -0x1.03374ap-3f, 0x1.5acc86p-2f, -0x1.c8176ap-1f },
    { -0x1.79d336p-2f, -0x1.8d1838p-2f, 0x1.3f3b74p-2f },
    { -0x1.f817f6p-1f, 0x1.c963c4p-4f, -0x1.328f14p-4f, -0x1.cb50ap-4f },
    { 0x1.c4a826p-4f, -0x1.51bbaep-1f, 0x1.11f79ap-1f } };

/* Touching, normal flipped: a segment lying on a quad's plane (both flat, crossing: depth* 0 along -z),
 * S 0.063. On the working tree EPA returns distance 0 with the normal +z, whose overlap is 0.024
 * (0.39 S): B moved along it does not separate. */
static const float reg_epa_touching_flipped_a[] = {
    -0x1.6aaa12p-6f, 0x1.19bb52p-13f, 0x0p+0f, 0x1.ea2a52p-8f, -0x1.69bf42p-12f, 0x0p+0f
};
static const float reg_epa_touching_flipped_b[] = {
    -0x1.0c358ep-5f, 0x1.da6a5cp-13f, -0x1.867692p-36f, 0x1.0f2c22p-7f, -0x1.e53176p-12f, -0x1.867692p-36f,
    0x1.03302cp-7f, -0x1.e647f2p-12f, -0x1.867692p-36f, 0x1.ebaf2cp-6f, 0x1.26b646p-12f, -0x1.867692p-36f
};
static const pxt_frozen_case reg_epa_touching_flipped_case = { "reg_epa_touching_flipped", PXT_K_POLYGON,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_touching_flipped_a,
    0, 4, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_touching_flipped_b,
    { 0x1.0be164p-4f, -0x1.0d735ep-1f, -0x1.f5402ap-3f, 0x1.9f9748p-1f },
    { 0x1.bdf9f6p-7f, -0x1.2feeacp-8f, 0x1.b57f5ap-7f },
    { 0x1.23f568p-26f, -0x1.6fca68p-26f, 0x1.92dcb6p-25f, 0x1p+0f },
    { -0x1.5a7eacp-6f, 0x1.6f03b6p-8f, -0x1.3abab4p-8f } };

/* A point 4e-9 S outside a box's side face, the box thin in another direction (half extents 2.07, 2.2e-3,
 * 1.4e-3; S 4.1): GJK ends "touching" (the gap is below its rounding), and EPA answered a depth of 2.7e-4
 * along a face the point is not near instead of the touching face's ~0 (contact_accuracy seed 4, sample
 * 7678, minimized). */
static const float reg_point_bar_apart_a[] = { 0x1.97377ap-2f, -0x1.4402b8p-3f, 0x1.13a0e2p-4f };
static const pxt_frozen_case reg_point_bar_apart_case = { "reg_point_bar_apart", PXT_K_REPEATED,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_point_bar_apart_a,
    1, 0, { 0x1.095036p+1f, 0x1.218a4cp-9f, 0x1.6c783ap-10f }, NULL,
    { 0x1.315344p-1f, -0x1.e52716p-2f, 0x1.6b7e0ap-2f, 0x1.15921ep-1f },
    { 0x1.fc29ap-1f, -0x1.86c6f2p-1f, -0x1.11823ap-2f },
    { 0x1.b3ed44p-1f, 0x1.1b172ep-2f, 0x1.6c526p-2f, -0x1.12e974p-2f },
    { 0x1.cbbe48p+0f, -0x1.4d5a7cp-1f, 0x1.78927ep-1f } };

/* The same with a plate (half extents 0.3, 0.07, 4.5e-5; S 0.61), the point 2.5e-9 outside a side face:
 * EPA answered the plate's half thickness (seed 4, sample 132225, minimized). */
static const float reg_point_plate_apart_a[] = { 0x1.5e674p-3f, 0x1.def32ap-4f, 0x1.9d2c36p-4f };
static const pxt_frozen_case reg_point_plate_apart_case = { "reg_point_plate_apart", PXT_K_POINT,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_point_plate_apart_a,
    1, 0, { 0x1.2f074p-2f, 0x1.21ff76p-4f, 0x1.79121p-15f }, NULL,
    { 0x1.b6c426p-4f, 0x1.f3b95ap-3f, -0x1.6b6bap-2f, 0x1.cad03p-1f },
    { -0x1.19069cp-4f, 0x1.2cb402p-7f, -0x1.6a515cp-2f },
    { 0x1.57fa38p-45f, 0x1.23970ep-49f, 0x1.48e996p-45f, 0x1p+0f },
    { 0x1.07040ep-5f, 0x1.cb855cp-6f, -0x1.6962aap-2f } };

/* Touching within rounding (d* 2.7e-7, S 80): a segment against a box 0.02 thick, at coordinates near 800.
 * EPA's witness came from a polytope as thin as the box and lay 2.6e-3 off B (tol 2.4e-3); the witness
 * is now GJK's, with B moved off by a gap above the rounding (seed 1, sample 30504, minimized). */
static const float reg_touching_witness_bar_a[] = {
    -0x1.cd6a2cp+3f, -0x1.0419fep+4f, -0x1.318c52p+4f, 0x1.0a3308p+5f, -0x1.80e938p+5f, 0x1.1ff4bap+5f
};
static const pxt_frozen_case reg_touching_witness_bar_case = { "reg_touching_witness_bar", PXT_K_FLAT_TETRA,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_touching_witness_bar_a,
    1, 0, { 0x1.68100ep+3f, 0x1.4c1b9ap-6f, 0x1.dc8c76p-7f }, NULL,
    { -0x1.bae072p-3f, -0x1.db0d1p-1f, -0x1.ea8eap-4f, -0x1.1e04cep-2f },
    { -0x1.8b7164p+9f, -0x1.251d96p+9f, -0x1.107b0ap+9f },
    { -0x1.5f57p-8f, -0x1.6a5cbep-3f, -0x1.b103fp-3f, -0x1.ec2638p-1f },
    { -0x1.95ca44p+9f, -0x1.32e902p+9f, -0x1.14e8f4p+9f } };

/* Two segments touching within rounding (d* 7.9e-7, S 244), one of them 0.013 long: EPA's witness was 1e-2
 * off B (tol 3e-3) (seed 1, sample 125328, minimized). */
static const float reg_touching_witness_segments_a[] = {
    0x1.241cp+6f, -0x1.5ca56cp+7f, -0x1.5bc5ap+5f, 0x1.d499bp+4f, 0x1.0401f2p+6f, -0x1.09d9a6p+5f
};
static const float reg_touching_witness_segments_b[] = {
    -0x1.7ae7f8p+5f, 0x1.907b6ep-1f, -0x1.ab9788p-8f, -0x1.7ae7f8p+5f, 0x1.907b6ep-1f, 0x1.ab1fbp-8f
};
static const pxt_frozen_case reg_touching_witness_segments_case = { "reg_touching_witness_segments",
    PXT_K_REPEATED, 0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_touching_witness_segments_a,
    0, 2, { 0x1.7ae7f8p+5f, 0x1.907c12p-1f, 0x1.ab5b9cp-8f }, reg_touching_witness_segments_b,
    { -0x1.99d9a8p-2f, -0x1.04e9fep-1f, -0x1.57207cp-5f, 0x1.85604p-1f },
    { 0x1.8a325ap+7f, 0x1.0ffa24p+8f, 0x1.5a9c86p+6f },
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { 0x1.0bbb5ep+8f, 0x1.b7ec0ap+7f, 0x1.40d90cp+7f } };

/* A point 1.1e-11 off a plate 1.4e-6 thick (a box hull, S 0.009), asked with the point as A: GJK's
 * tetrahedron encloses the origin within rounding and spans the plate's thickness, so every support along
 * its sliver faces was a vertex already (stuck faces), and EPA answered 5.5e-7 along a sliver's normal (tol
 * 1e-7). The swapped query answered 0. Now GJK with B moved off along that normal finds the plate's normal
 * and the contact touches (seed 2, sample 55295). */
static const float reg_point_plate_stuck_a[] = {
    -0x1.71e79p-21f, -0x1.113ba8p-9f, -0x1.04a6c6p-8f, 0x1.71e79p-21f, -0x1.113ba8p-9f, -0x1.04a6c6p-8f,
    -0x1.71e79p-21f, 0x1.113ba8p-9f, -0x1.04a6c6p-8f, 0x1.71e79p-21f, 0x1.113ba8p-9f, -0x1.04a6c6p-8f,
    -0x1.71e79p-21f, -0x1.113ba8p-9f, 0x1.04a6c6p-8f, 0x1.71e79p-21f, -0x1.113ba8p-9f, 0x1.04a6c6p-8f,
    -0x1.71e79p-21f, 0x1.113ba8p-9f, 0x1.04a6c6p-8f, 0x1.71e79p-21f, 0x1.113ba8p-9f, 0x1.04a6c6p-8f
};
static const float reg_point_plate_stuck_b[] = { 0x1.791778p-10f, 0x1.618426p-11f, 0x1.138726p-9f };
static const pxt_frozen_case reg_point_plate_stuck_case = { "reg_point_plate_stuck", PXT_K_POINT,
    0, 8, { 0x1.71e79p-21f, 0x1.113ba8p-9f, 0x1.04a6c6p-8f }, reg_point_plate_stuck_a,
    0, 1, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_point_plate_stuck_b,
    { 0x1.470ce2p-1f, 0x1.089f6cp-1f, -0x1.bc59d6p-2f, -0x1.7a641cp-2f },
    { 0x1.55d198p-9f, -0x1.761ee2p-10f, -0x1.452a8ap-10f },
    { -0x1.2304cap-1f, 0x1.e1ea88p-3f, 0x1.8284a8p-1f, 0x1.d174ccp-3f },
    { 0x1.ecd6e4p-8f, -0x1.03102ap-9f, 0x1.63aee6p-9f } };

/* Two thin box hulls (0.04 thick, S 39) overlapping by depth* 3.9e-5: EPA's first face was stuck with
 * overlap 2.6e-4, and it then converged on another face with overlap 7.1e-3, which it returned; moving B
 * by that depth left it apart along its normal (Coal's check). The smaller of the two upper bounds is now
 * the answer (seed 7, sample 11011). */
static const float reg_epa_stuck_smaller_a[] = {
    -0x1.55b2fap-6f, -0x1.c41664p+3f, -0x1.7d30d8p+0f, 0x1.55b2fap-6f, -0x1.c41664p+3f, -0x1.7d30d8p+0f,
    -0x1.55b2fap-6f, 0x1.c41664p+3f, -0x1.7d30d8p+0f, 0x1.55b2fap-6f, 0x1.c41664p+3f, -0x1.7d30d8p+0f,
    -0x1.55b2fap-6f, -0x1.c41664p+3f, 0x1.7d30d8p+0f, 0x1.55b2fap-6f, -0x1.c41664p+3f, 0x1.7d30d8p+0f,
    -0x1.55b2fap-6f, 0x1.c41664p+3f, 0x1.7d30d8p+0f, 0x1.55b2fap-6f, 0x1.c41664p+3f, 0x1.7d30d8p+0f
};
static const float reg_epa_stuck_smaller_b[] = {
    -0x1.01d186p+2f, -0x1.35131cp+4f, -0x1.583e08p-6f, 0x1.01d186p+2f, -0x1.35131cp+4f, -0x1.583e08p-6f,
    -0x1.01d186p+2f, 0x1.35131cp+4f, -0x1.583e08p-6f, 0x1.01d186p+2f, 0x1.35131cp+4f, -0x1.583e08p-6f,
    -0x1.01d186p+2f, -0x1.35131cp+4f, 0x1.583944p-6f, 0x1.01d186p+2f, -0x1.35131cp+4f, 0x1.583944p-6f,
    -0x1.01d186p+2f, 0x1.35131cp+4f, 0x1.583944p-6f, 0x1.01d186p+2f, 0x1.35131cp+4f, 0x1.583944p-6f
};
static const pxt_frozen_case reg_epa_stuck_smaller_case = { "reg_epa_stuck_smaller", PXT_K_BOX_HULL,
    0, 8, { 0x1.55b2fap-6f, 0x1.c41664p+3f, 0x1.7d30d8p+0f }, reg_epa_stuck_smaller_a,
    0, 8, { 0x1.01d186p+2f, 0x1.35131cp+4f, 0x1.583ba6p-6f }, reg_epa_stuck_smaller_b,
    { -0x1.ca264ap-2f, -0x1.58e124p-1f, -0x1.105476p-1f, -0x1.0165a8p-2f },
    { 0x1.3f189p+3f, 0x1.55e49p+3f, 0x1.d5187cp+2f },
    { -0x1.7cb11cp-2f, 0x1.9bb66cp-4f, 0x1.a7f3eep-1f, 0x1.a1444p-2f },
    { 0x1.d69a06p+3f, 0x1.5e2c42p+4f, -0x1.dc3216p+2f } };

/* A box 0.05 thin (S 760, coordinates near 400) and a segment, overlapping by depth* 5.3e-4, inside
 * the touching band's few hundred widths: GJK's distance 2.8e-3 was right within tolerance, but its
 * normal, the direction of a v that small, carried the simplex's rounding, and the overlap along it was
 * 0.82 (tau 0.76). Now GJK with B moved off along it gives the normal (seed 9, sample 76934, minimized). */
static const float reg_near_normal_gjk_b[] = {
    0x1.97b7d2p+7f, -0x1.980eb4p+8f, -0x1.862c4cp+6f, -0x1.b71726p+5f, 0x1.237808p+8f, 0x1.5013bap+5f
};
static const pxt_frozen_case reg_near_normal_gjk_case = { "reg_near_normal_gjk", PXT_K_FLAT_TETRA,
    1, 0, { 0x1.be9632p-5f, 0x1.824d3p+2f, 0x1.77b1d8p+7f }, NULL,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_near_normal_gjk_b,
    { -0x1.4488e6p-21f, 0x1.5038a8p-23f, 0x1.409baap-21f, 0x1p+0f },
    { 0x1.34f162p+6f, 0x1.f224c4p+7f, 0x1.6c7b1cp+6f },
    { -0x1.4488e4p-21f, 0x1.5038b6p-23f, 0x1.409bacp-21f, 0x1p+0f },
    { 0x1.ed162p+6f, -0x1.8930aap+3f, 0x1.e38576p+7f } };

/* A flat triangle and a segment touching within rounding (depth* 1.2e-9, S 5.1): EPA answered depth 0
 * along a normal whose overlap was 0.56 (tau 5.1e-3); now refined as above (seed 10, sample 90797,
 * minimized). */
static const float reg_near_normal_epa_a[] = {
    -0x1.b4a4a6p-1f, 0x1.36b4b8p-14f, 0x0p+0f, -0x1.b336acp-1f, 0x1.de4bdcp-11f, 0x0p+0f,
    -0x1.b4a5dcp-1f, 0x1.b8fda6p-15f, 0x0p+0f
};
static const float reg_near_normal_epa_b[] = {
    0x1.4b0172p-2f, -0x1.261e6ap+1f, -0x1.d92d0cp-4f, -0x1.4b53f8p+0f, 0x1.42c896p+1f, 0x1.c693fap-3f
};
static const pxt_frozen_case reg_near_normal_epa_case = { "reg_near_normal_epa", PXT_K_POLYGON,
    0, 3, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_near_normal_epa_a,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_near_normal_epa_b,
    { -0x1.28846cp-2f, -0x1.189bd4p-1f, 0x1.5bca88p-2f, -0x1.6a30f2p-1f },
    { 0x1.39cd94p-3f, -0x1.49fa74p-1f, -0x1.3e9836p-1f },
    { 0x1.c3241cp-2f, 0x1.5e334ap-2f, 0x1.17305p-3f, 0x1.a333aep-1f },
    { 0x1.060478p-5f, 0x1.2556b4p-1f, 0x1.21de02p+1f } };

/* A segment touching a segment 1e4 times shorter (or a sliver triangle), far from the origin: GJK and
 * EPA end on Minkowski slivers whose float barycentric weights put the two witness points up to 7e-3 apart
 * (2x the tolerance), so point_b (= point_a at depth 0) lay off B. The weights are now recomputed in
 * double wherever a touching witness comes from a simplex (pxi_simplex_witness_refined). Minimized from
 * seeds 5 (sample 127443: EPA's flat result), 10 (93973: separated_witness) and 12 (99793). */
static const float reg_sliver_witness_flat_a[] = {
    -0x1.84e7bep+6f, 0x1.7c4b0cp+3f, 0x1.06e246p+4f, 0x1.1cbcdcp+5f, 0x1.92cb94p+5f, -0x1.165df8p+4f
};
static const float reg_sliver_witness_flat_b[] = {
    -0x1.f67aap-8f, -0x1.e5201cp+1f, -0x1.9b14f2p+5f, 0x1.f7ff3p-8f, -0x1.e5201cp+1f, -0x1.9b14f2p+5f
};
static const pxt_frozen_case reg_sliver_witness_flat_case = { "reg_sliver_witness_flat", PXT_K_TETRA,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_witness_flat_a,
    0, 2, { 0x1.f73ce8p-8f, 0x1.e52078p+1f, 0x1.9b14fap+5f }, reg_sliver_witness_flat_b,
    { -0x1.443906p-1f, 0x1.04c4cep-1f, 0x1.1ad744p-1f, -0x1.7bfc1ep-3f },
    { 0x1.b096fap+9f, 0x1.a6b8ecp+9f, 0x1.8f5c42p+9f },
    { -0x1.443906p-1f, 0x1.04c4cep-1f, 0x1.1ad744p-1f, -0x1.7bfc1ep-3f },
    { 0x1.942814p+9f, 0x1.b09528p+9f, 0x1.9c295cp+9f } };
static const float reg_sliver_witness_moved_a[] = {
    0x1.90581cp+9f, -0x1.14a8c8p+8f, -0x1.766562p+8f, -0x1.86d20cp+8f, 0x1.33a8fp+7f, 0x1.df738ep+8f
};
static const float reg_sliver_witness_moved_b[] = {
    0x1.3d58bcp-4f, 0x1.6d6d9ep+9f, -0x1.6ec2dep-4f, 0x1.3d58bcp-4f, 0x1.6d6d9ep+9f, 0x1.6ee10ep-4f
};
static const pxt_frozen_case reg_sliver_witness_moved_case = { "reg_sliver_witness_moved", PXT_K_TETRA,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_witness_moved_a,
    0, 2, { 0x1.3d4b84p-4f, 0x1.6d6d9ep+9f, 0x1.6ed1f6p-4f }, reg_sliver_witness_moved_b,
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { -0x1.0c254ep+10f, 0x1.6e51fcp+9f, -0x1.5510d8p+10f },
    { 0x1.ef70bep-2f, -0x1.31e414p-1f, 0x1.3a83aep-1f, -0x1.6c337ap-3f },
    { -0x1.118c3cp+9f, 0x1.96a86cp+9f, -0x1.596bb4p+9f } };
static const float reg_sliver_witness_triangle_a[] = {
    -0x1.0557bep-1f, 0x1.d3daf4p+4f, 0x1.dd2de2p+1f, -0x1.292892p+4f, -0x1.97df66p+2f, -0x1.1ca714p+2f
};
static const float reg_sliver_witness_triangle_b[] = {
    -0x1.f1e168p-9f, -0x1.827612p+2f, 0x1.1710cep-3f, -0x1.f1e168p-9f, 0x1.827616p+2f, 0x1.1710cep-3f,
    0x1.f200e4p-9f, 0x1.827616p+2f, 0x1.1710cep-3f
};
static const pxt_frozen_case reg_sliver_witness_triangle_case = { "reg_sliver_witness_triangle", PXT_K_TETRA,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_sliver_witness_triangle_a,
    0, 3, { 0x1.f1f126p-9f, 0x1.827614p+2f, 0x1.1710dep-3f }, reg_sliver_witness_triangle_b,
    { -0x1.f7efep-7f, 0x1.961d98p-1f, -0x1.dc420cp-2f, 0x1.923a2ep-2f },
    { 0x1.b482aap+2f, 0x1.cefd68p+2f, 0x1.180f1p+1f },
    { -0x1.21925cp-2f, 0x1.4ad834p-8f, -0x1.837a2ap-1f, 0x1.2db8aep-1f },
    { 0x1.972d1ap+3f, 0x1.514facp+4f, -0x1.d188cp+2f } };

/* A segment touching one 8e-6 long (seed 17, sample 141603, minimized): the witness from B moved off along
 * EPA's normal had its two points 4.6e-6 apart (B's half length, as the move slid B's closest point along
 * it), just over the 4 bands separated_witness accepted, so EPA's own witness on the sliver polytope stood,
 * 12 tolerances off B. It accepts 8 bands now. */
static const float reg_tiny_segment_witness_a[] = {
    -0x1.0e9b6cp-1f, 0x1.776312p-2f, 0x1.73426cp-4f, 0x1.33b4fap-2f, -0x1.3208ap-2f, 0x1.eba494p-2f
};
static const float reg_tiny_segment_witness_b[] = {
    0x1.ad14ap-7f, -0x1.5dfbd4p-17f, -0x1.344432p-4f, 0x1.ad14ap-7f, 0x1.5d77bp-17f, -0x1.344432p-4f
};
static const pxt_frozen_case reg_tiny_segment_witness_case = { "reg_tiny_segment_witness", PXT_K_TETRA,
    0, 2, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_tiny_segment_witness_a,
    0, 2, { 0x1.ad14bep-7f, 0x1.5db9c2p-17f, 0x1.344432p-4f }, reg_tiny_segment_witness_b,
    { -0x1.19b76ap-28f, 0x1.3c89dcp-25f, 0x1.5c2e7ep-27f, 0x1p+0f },
    { -0x1.feb76p-4f, 0x1.a9399cp-3f, 0x1.532b3p-6f },
    { -0x1.cc522ap-21f, 0x1.136eeep-18f, 0x1.a2293cp-18f, 0x1p+0f },
    { -0x1.c2ca24p-2f, 0x1.922d8ap-2f, 0x1.2bd86p-2f } };

static int reg_sliver_witness(void)
{
    int fails = run_frozen(&reg_sliver_witness_flat_case);
    fails += run_frozen(&reg_tiny_segment_witness_case);
    fails += run_frozen(&reg_sliver_witness_moved_case);
    fails += run_frozen(&reg_sliver_witness_triangle_case);
    return fails;
}

/* Two thin box hulls (plates 1.4e-4 and 3.6e-5 thick) crossing, where EPA ends on a stuck face and
 * refine_stuck_face finds no better normal: the answer's witness is the fallback's (separated_witness with
 * the depth), a branch review 45 found no test reaching; this pair from seed 1 is the one of seeds 0-2
 * that does. It runs the branch (under the sanitizers in CI) and checks its answer; EPA's own witness
 * would also pass here, so it does not show the branch is needed. */
static const float reg_stuck_fallback_a[] = {
    -0x1.27f18p-14f, -0x1.95fa9cp-11f, -0x1.b98f44p-4f, 0x1.27f18p-14f, -0x1.95fa9cp-11f, -0x1.b98f44p-4f,
    -0x1.27f18p-14f, 0x1.95fa9cp-11f, -0x1.b98f44p-4f, 0x1.27f18p-14f, 0x1.95fa9cp-11f, -0x1.b98f44p-4f,
    -0x1.27f18p-14f, -0x1.95fa9cp-11f, 0x1.b98f44p-4f, 0x1.27f18p-14f, -0x1.95fa9cp-11f, 0x1.b98f44p-4f,
    -0x1.27f18p-14f, 0x1.95fa9cp-11f, 0x1.b98f44p-4f, 0x1.27f18p-14f, 0x1.95fa9cp-11f, 0x1.b98f44p-4f
};
static const float reg_stuck_fallback_b[] = {
    -0x1.2aada4p-16f, -0x1.01f796p-4f, -0x1.a01a44p-11f, 0x1.2ab924p-16f, -0x1.01f796p-4f, -0x1.a01a44p-11f,
    -0x1.2aada4p-16f, 0x1.01f796p-4f, -0x1.a01a44p-11f, 0x1.2ab924p-16f, 0x1.01f796p-4f, -0x1.a01a44p-11f,
    -0x1.2aada4p-16f, -0x1.01f796p-4f, 0x1.a01a44p-11f, 0x1.2ab924p-16f, -0x1.01f796p-4f, 0x1.a01a44p-11f,
    -0x1.2aada4p-16f, 0x1.01f796p-4f, 0x1.a01a44p-11f, 0x1.2ab924p-16f, 0x1.01f796p-4f, 0x1.a01a44p-11f
};
static const pxt_frozen_case reg_stuck_fallback_case = { "reg_stuck_fallback", PXT_K_BOX_HULL,
    0, 8, { 0x1.27f18p-14f, 0x1.95fa9cp-11f, 0x1.b98f44p-4f }, reg_stuck_fallback_a,
    0, 8, { 0x1.2ab364p-16f, 0x1.01f796p-4f, 0x1.a01a44p-11f }, reg_stuck_fallback_b,
    { 0x1.8e494ep-2f, -0x1.645a6cp-2f, -0x1.784d54p-2f, -0x1.8a213ap-1f },
    { -0x1.58df7cp-4f, 0x1.24459p-6f, -0x1.972e16p-5f },
    { -0x1.8a3c38p-32f, 0x1.1f342p-32f, 0x1.5ea984p-30f, 0x1p+0f },
    { -0x1.cfe106p-5f, 0x1.36c722p-4f, 0x1.fe6f16p-12f } };

static int reg_stuck_fallback(void)
{
    return run_frozen(&reg_stuck_fallback_case);
}

static int reg_near_normal_gjk(void)
{
    return run_frozen(&reg_near_normal_gjk_case);
}

static int reg_near_normal_epa(void)
{
    return run_frozen(&reg_near_normal_epa_case);
}

static int reg_point_plate_stuck(void)
{
    return run_frozen(&reg_point_plate_stuck_case);
}

static int reg_epa_stuck_smaller(void)
{
    return run_frozen(&reg_epa_stuck_smaller_case);
}

static int reg_band_normal(void)
{
    return run_frozen(&reg_band_normal_case);
}

static int reg_band_flipped_normal(void)
{
    return run_frozen(&reg_band_flipped_normal_case);
}

static int reg_overlap_exit_depth(void)
{
    return run_frozen(&reg_overlap_exit_depth_case);
}

static int reg_band_normal_not_unit(void)
{
    return run_frozen(&reg_band_normal_not_unit_case);
}

static int reg_epa_witness_b(void)
{
    return run_frozen(&reg_epa_witness_b_case);
}

static int reg_epa_flat_normal(void)
{
    return run_frozen(&reg_epa_flat_normal_case);
}

static int reg_box_box_witness_a(void)
{
    return run_frozen(&reg_box_box_witness_a_case);
}

static int reg_box_box_witness_b(void)
{
    return run_frozen(&reg_box_box_witness_b_case);
}

/* A rod (0.2 x 0.05 x 64) crossing a plate (46 x 62 x 0.03) as 8-point hulls at coordinates near 1000, S 77,
 * depth* 0.051: EPA's witness face was a sliver (its height 5e-4 of its length) and its weights put point_b
 * 0.109 outside B against a tolerance of 0.079 (1e-3 S) (PX_TEST_SEED=81, sample 56631). */
static const float reg_rod_plate_sliver_witness_a[] = {
    -0x1.8f808ep-4f, -0x1.8b6d9p-6f, -0x1.fdb138p+4f, 0x1.8f808ep-4f, -0x1.8b6d9p-6f, -0x1.fdb138p+4f,
    -0x1.8f808ep-4f, 0x1.8b6d9p-6f, -0x1.fdb138p+4f, 0x1.8f808ep-4f, 0x1.8b6d9p-6f, -0x1.fdb138p+4f,
    -0x1.8f808ep-4f, -0x1.8b6d9p-6f, 0x1.fdb138p+4f, 0x1.8f808ep-4f, -0x1.8b6d9p-6f, 0x1.fdb138p+4f,
    -0x1.8f808ep-4f, 0x1.8b6d9p-6f, 0x1.fdb138p+4f, 0x1.8f808ep-4f, 0x1.8b6d9p-6f, 0x1.fdb138p+4f
};
static const float reg_rod_plate_sliver_witness_b[] = {
    -0x1.7041ep+4f, -0x1.ef0b62p+4f, -0x1.ec38bp-7f, 0x1.7041cp+4f, -0x1.ef0b62p+4f, -0x1.ec38bp-7f,
    -0x1.7041ep+4f, 0x1.ef0b9ep+4f, -0x1.ec38bp-7f, 0x1.7041cp+4f, 0x1.ef0b9ep+4f, -0x1.ec38bp-7f,
    -0x1.7041ep+4f, -0x1.ef0b62p+4f, 0x1.eaf808p-7f, 0x1.7041cp+4f, -0x1.ef0b62p+4f, 0x1.eaf808p-7f,
    -0x1.7041ep+4f, 0x1.ef0b9ep+4f, 0x1.eaf808p-7f, 0x1.7041cp+4f, 0x1.ef0b9ep+4f, 0x1.eaf808p-7f
};
static const pxt_frozen_case reg_rod_plate_sliver_witness_case = { "reg_rod_plate_sliver_witness", PXT_K_BOX_HULL,
    0, 8, { 0x1.8f808ep-4f, 0x1.8b6d9p-6f, 0x1.fdb138p+4f }, reg_rod_plate_sliver_witness_a,
    0, 8, { 0x1.7041dp+4f, 0x1.ef0b8p+4f, 0x1.eb985cp-7f }, reg_rod_plate_sliver_witness_b,
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { 0x1.cf57f2p+9f, -0x1.a0eadep+9f, 0x1.7c99p+9f },
    { -0x1.5f3888p-1f, -0x1.680fbp-6f, 0x1.24c1p-1f, 0x1.cc3ed4p-2f },
    { 0x1.dac324p+9f, -0x1.91781p+9f, 0x1.6dcc6p+9f } };

static int reg_rod_plate_sliver_witness(void)
{
    return run_frozen(&reg_rod_plate_sliver_witness_case);
}

static int reg_plate_rim_normal(void)
{
    return run_frozen(&reg_plate_rim_normal_case);
}

static int reg_needle_end_witness(void)
{
    return run_frozen(&reg_needle_end_witness_case);
}

static int reg_epa_degenerate_status(void)
{
    return run_frozen(&reg_epa_degenerate_status_case);
}

static int reg_gjk_triangles_apart(void)
{
    return run_frozen(&reg_gjk_triangles_apart_case);
}

static int reg_epa_too_deep(void)
{
    return run_frozen(&reg_epa_too_deep_case);
}

static int reg_epa_touching_flipped(void)
{
    return run_frozen(&reg_epa_touching_flipped_case);
}

static int reg_point_bar_apart(void)
{
    return run_frozen(&reg_point_bar_apart_case);
}

static int reg_point_plate_apart(void)
{
    return run_frozen(&reg_point_plate_apart_case);
}

static int reg_touching_witness_bar(void)
{
    return run_frozen(&reg_touching_witness_bar_case);
}

static int reg_touching_witness_segments(void)
{
    return run_frozen(&reg_touching_witness_segments_case);
}


/* EPA's seed tetrahedron was called flat when its volume was below 1e-9 of the cube of its longest edge:
 * GJK's triangles and tetrahedra on thin shapes are slivers under a tall apex, well oriented but small
 * against that cube. A needle box (cross-section 9.3e-7 by 9.6e-7, S 0.022) touching a box hull, depth*
 * 1.6e-10: GJK's triangle 1.3e-6 across lies on a face of A - B (nothing beyond it on the origin's side),
 * its apex 0.027 away on the other; the tetrahedron had 0.55 of the product of its edges but 1e-9 of the
 * cube, and A - B was taken for flat along the triangle's normal, which points into the overlap (0.021
 * along it, 0.95 S: B moved along it stays inside) (contact_accuracy seed 47, sample 113342). */
static const float reg_epa_sliver_seed_needle_a[] = {
    -0x1.324a5cp-14f, -0x1.63dc6ep-7f, -0x1.9419d2p-11f, 0x1.324a5p-14f, -0x1.63dc6ep-7f, -0x1.9419d2p-11f,
    -0x1.324a5cp-14f, 0x1.63dc72p-7f, -0x1.9419d2p-11f, 0x1.324a5p-14f, 0x1.63dc72p-7f, -0x1.9419d2p-11f,
    -0x1.324a5cp-14f, -0x1.63dc6ep-7f, 0x1.9419d6p-11f, 0x1.324a5p-14f, -0x1.63dc6ep-7f, 0x1.9419d6p-11f,
    -0x1.324a5cp-14f, 0x1.63dc72p-7f, 0x1.9419d6p-11f, 0x1.324a5p-14f, 0x1.63dc72p-7f, 0x1.9419d6p-11f
};
static const pxt_frozen_case reg_epa_sliver_seed_needle_case = { "reg_epa_sliver_seed_needle", PXT_K_BOX_SHAPE,
    0, 8, { 0x1.324a56p-14f, 0x1.63dc7p-7f, 0x1.9419d4p-11f }, reg_epa_sliver_seed_needle_a,
    1, 0, { 0x1.f2fec8p-22f, 0x1.00de42p-21f, 0x1.e3636ap-9f }, NULL,
    { -0x1.3d5c9p-3f, 0x1.1d4adcp-3f, 0x1.f22834p-6f, 0x1.f484fep-1f },
    { -0x1.4ae9fap-12f, 0x1.5c2b24p-9f, -0x1.48807p-10f },
    { 0x1.b577bap-2f, 0x1.2580cep-2f, -0x1.0d718cp-4f, -0x1.b5c13p-1f },
    { -0x1.b23008p-9f, 0x1.025b04p-6f, -0x1.05119ap-9f } };

/* The same with a plate 4e-4 thick crossing a bar (S 20, depth* 3.1e-8): GJK's triangle 3.8e-3 across,
 * the apex 3.6 below it and 20 away; A - B taken for flat along a normal with the overlap 1.15 (seed 48,
 * sample 131901). */
static const float reg_epa_sliver_seed_plate_a[] = {
    -0x1.a5155cp-4f, -0x1.d1978ap-10f, -0x1.475eb2p+3f, 0x1.a5155cp-4f, -0x1.d1978ap-10f, -0x1.475eb2p+3f,
    -0x1.a5155cp-4f, 0x1.d1978ap-10f, -0x1.475eb2p+3f, 0x1.a5155cp-4f, 0x1.d1978ap-10f, -0x1.475eb2p+3f,
    -0x1.a5155cp-4f, -0x1.d1978ap-10f, 0x1.475eb2p+3f, 0x1.a5155cp-4f, -0x1.d1978ap-10f, 0x1.475eb2p+3f,
    -0x1.a5155cp-4f, 0x1.d1978ap-10f, 0x1.475eb2p+3f, 0x1.a5155cp-4f, 0x1.d1978ap-10f, 0x1.475eb2p+3f
};
static const float reg_epa_sliver_seed_plate_b[] = {
    -0x1.5839d4p+0f, -0x1.b198cep-13f, -0x1.eaf832p-4f, 0x1.5839dp+0f, -0x1.b198cep-13f, -0x1.eaf832p-4f,
    -0x1.5839d4p+0f, 0x1.b1b6d6p-13f, -0x1.eaf832p-4f, 0x1.5839dp+0f, 0x1.b1b6d6p-13f, -0x1.eaf832p-4f,
    -0x1.5839d4p+0f, -0x1.b198cep-13f, 0x1.eaf86ap-4f, 0x1.5839dp+0f, -0x1.b198cep-13f, 0x1.eaf86ap-4f,
    -0x1.5839d4p+0f, 0x1.b1b6d6p-13f, 0x1.eaf86ap-4f, 0x1.5839dp+0f, 0x1.b1b6d6p-13f, 0x1.eaf86ap-4f
};
static const pxt_frozen_case reg_epa_sliver_seed_plate_case = { "reg_epa_sliver_seed_plate", PXT_K_BOX_HULL,
    0, 8, { 0x1.a5155cp-4f, 0x1.d1978ap-10f, 0x1.475eb2p+3f }, reg_epa_sliver_seed_plate_a,
    0, 8, { 0x1.5839d2p+0f, 0x1.b1a7d2p-13f, 0x1.eaf84ep-4f }, reg_epa_sliver_seed_plate_b,
    { -0x1.d457p-2f, -0x1.82964p-2f, 0x1.7484e4p-1f, -0x1.6121dap-2f },
    { 0x1.592d7p+0f, 0x1.391e16p+3f, -0x1.ecba48p+2f },
    { 0x1.1c0b1p-42f, -0x1.51fdb4p-42f, -0x1.a4c22cp-41f, 0x1p+0f },
    { -0x1.0b6334p+2f, 0x1.d82ee2p-1f, -0x1.38472cp+2f } };

/* And GJK's own tetrahedron around the origin, edges 20, 1.6e-3 and 1.4e-3 long (0.08 of their product; a
 * needle hull 8.7e-4 by 1.4e-3 across against a tetrahedron, 4e-8 apart): dropped as flat, its face
 * nearest the origin grown on the far side left the origin 6.2e-4 outside the new tetrahedron, and EPA
 * answered a depth of 2.79e-4 (1.4e-5 S, past tau 2.4e-4) (seed 52, sample 92153). */
static const float reg_epa_sliver_gjk_tetra_a[] = {
    -0x1.ef865ep+1f, -0x1.c5e708p-12f, -0x1.62b948p-11f, 0x1.ef865ep+1f, -0x1.c5e708p-12f, -0x1.62b948p-11f,
    -0x1.ef865ep+1f, 0x1.c5e708p-12f, -0x1.62b948p-11f, 0x1.ef865ep+1f, 0x1.c5e708p-12f, -0x1.62b948p-11f,
    -0x1.ef865ep+1f, -0x1.c5e708p-12f, 0x1.62b948p-11f, 0x1.ef865ep+1f, -0x1.c5e708p-12f, 0x1.62b948p-11f,
    -0x1.ef865ep+1f, 0x1.c5e708p-12f, 0x1.62b948p-11f, 0x1.ef865ep+1f, 0x1.c5e708p-12f, 0x1.62b948p-11f
};
static const float reg_epa_sliver_gjk_tetra_b[] = {
    0x1.eab79ep+2f, 0x1.1a19a8p+1f, 0x1.a8aa7ep+2f, 0x1.9a50d4p+1f, -0x1.17154ep+2f, -0x1.9c5996p+2f,
    -0x1.d78f24p+0f, 0x1.9d529ap+0f, -0x1.e37a2ap+1f, -0x1.47144cp+3f, 0x1.dfaa98p+2f, -0x1.54813p-1f
};
static const pxt_frozen_case reg_epa_sliver_gjk_tetra_case = { "reg_epa_sliver_gjk_tetra", PXT_K_TETRA,
    0, 8, { 0x1.ef865ep+1f, 0x1.c5e708p-12f, 0x1.62b948p-11f }, reg_epa_sliver_gjk_tetra_a,
    0, 4, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_epa_sliver_gjk_tetra_b,
    { -0x1.c8ec84p-5f, 0x1.a4ced8p-1f, 0x1.5794c2p-2f, -0x1.d3eb58p-2f },
    { 0x1.8ac096p+2f, -0x1.3b7ebcp-2f, -0x1.31acf4p+2f },
    { 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p+0f },
    { 0x1.bcd748p+3f, -0x1.3763d6p+2f, -0x1.199926p+3f } };

static int reg_epa_sliver_seed(void)
{
    int fails = run_frozen(&reg_epa_sliver_seed_needle_case);
    fails += run_frozen(&reg_epa_sliver_seed_plate_case);
    fails += run_frozen(&reg_epa_sliver_gjk_tetra_case);
    return fails;
}

/* A flat tetrahedron 9.7e-11 from a plate 2.2e-6 thick (S 0.084), EPA's depth 9.3e-10 within the touching
 * band: separated_witness moves B off by 1.6e-5 along the normal, and GJK ends on a sliver triangle (A's
 * edge 0.083 long against the plate's two faces, 2.2e-6 high). Its double weights put the origin's
 * projection 1.7e-4 outside the short side, so the float weights were kept, 3.5e-5 off: the witnesses 2.9e-6
 * apart, the pair was refused and EPA's witness, 2.1e-6 off B (tol 9.1e-7), stood (seed 46, sample 36494).
 * pxi_simplex_witness_refined takes the nearest feature in double there (A's edge against one corner of B). */
static const float reg_plate_edge_witness_a[] = {
    -0x1.1d685p-5f, 0x1.13996p-6f, 0x1.da93f8p-7f, 0x1.4e1b2ap-6f, 0x1.2b9742p-6f, -0x1.644264p-7f,
    0x1.03c2e4p-5f, -0x1.9319dcp-8f, -0x1.fa5cep-6f, -0x1.ccfbe8p-6f, 0x1.65e096p-6f, 0x1.d4f4f4p-7f
};
static const pxt_frozen_case reg_plate_edge_witness_case = { "reg_plate_edge_witness", PXT_K_FLAT_TETRA,
    0, 4, { 0x0p+0f, 0x0p+0f, 0x0p+0f }, reg_plate_edge_witness_a,
    1, 0, { 0x1.eac0f4p-13f, 0x1.26e39ap-20f, 0x1.76b374p-8f }, NULL,
    { 0x1.e85f26p-20f, 0x1.bbf376p-18f, 0x1.179bf6p-16f, 0x1p+0f },
    { -0x1.1d531ep-8f, 0x1.ce94a2p-7f, -0x1.68cbecp-13f },
    { 0x1.3b2432p-2f, -0x1.f5218cp-2f, 0x1.9067bcp-1f, 0x1.dcca54p-3f },
    { 0x1.2bd7eep-8f, 0x1.6b7366p-7f, -0x1.9d049p-7f } };

static int reg_plate_edge_witness(void)
{
    return run_frozen(&reg_plate_edge_witness_case);
}


int test_contact_accuracy(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(oracle_analytic);
    PX_RUN_SUBTEST(oracle_random);
    PX_RUN_SUBTEST(reg_band_normal);
    PX_RUN_SUBTEST(reg_band_flipped_normal);
    PX_RUN_SUBTEST(reg_overlap_exit_depth);
    PX_RUN_SUBTEST(reg_band_normal_not_unit);
    PX_RUN_SUBTEST(reg_epa_witness_b);
    PX_RUN_SUBTEST(reg_epa_flat_normal);
    PX_RUN_SUBTEST(reg_box_box_witness_a);
    PX_RUN_SUBTEST(reg_box_box_witness_b);
    PX_RUN_SUBTEST(reg_needle_end_witness);
    PX_RUN_SUBTEST(reg_plate_rim_normal);
    PX_RUN_SUBTEST(reg_rod_plate_sliver_witness);
    PX_RUN_SUBTEST(reg_epa_degenerate_status);
    PX_RUN_SUBTEST(reg_gjk_triangles_apart);
    PX_RUN_SUBTEST(reg_epa_too_deep);
    PX_RUN_SUBTEST(reg_epa_touching_flipped);
    PX_RUN_SUBTEST(reg_point_bar_apart);
    PX_RUN_SUBTEST(reg_point_plate_apart);
    PX_RUN_SUBTEST(reg_touching_witness_bar);
    PX_RUN_SUBTEST(reg_touching_witness_segments);
    PX_RUN_SUBTEST(reg_point_plate_stuck);
    PX_RUN_SUBTEST(reg_epa_stuck_smaller);
    PX_RUN_SUBTEST(reg_near_normal_gjk);
    PX_RUN_SUBTEST(reg_near_normal_epa);
    PX_RUN_SUBTEST(reg_sliver_witness);
    PX_RUN_SUBTEST(reg_stuck_fallback);
    PX_RUN_SUBTEST(reg_epa_sliver_seed);
    PX_RUN_SUBTEST(reg_plate_edge_witness);
    PX_RUN_SUBTEST(random_pairs);
    PX_SUITE_END;
}
