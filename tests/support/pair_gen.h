/* Random convex pairs for the accuracy suites (test_gjk_accuracy, test_contact_accuracy), one copy of the
 * generator both draw from, so that they test the same families in the same way.
 *
 * pxt_gen_case draws a pair of shapes of a family (PXT_K_*) and a partner family, scaled over 1e-3 to 1e3
 * with aspects up to 1e4, under identity, near-identity or random rotations (B's sometimes A's times a
 * near-identity one), at offsets 0, ~1e3 or ~1e4 from the origin; then, when a target is given, moves B
 * along the oracle normal (tests/oracle/hull_distance) until the signed distance is the target times S,
 * the larger extent of the two (a depth for negative targets, capped at half the larger width so that thin
 * shapes overlap rather than pass through). Each suite passes its own table of targets; the stream drawn
 * from px_rng depends only on the seed, family and bucket, so a seed replays the same cases.
 *
 * Also here: the oracle's view of a case (world points in long double, shifted by A's position), and
 * frozen cases: failing cases print as C initializers with %a floats (pxt_print_case) and load back as
 * regressions (pxt_from_frozen). */
#pragma once

#include "oracle/hull_distance.h"
#include "proxima/proxima.h"
#include "support/rng.h"

#define PXT_MAXP 64 /* points of a hull at most */

/* Shape families */
enum
{
    PXT_K_ELLIPSOID,  /* hull of 4-64 points on an ellipsoid */
    PXT_K_BOX_HULL,   /* box as an 8-point hull, aspect up to 1e4 */
    PXT_K_BOX_SHAPE,  /* px_shape_box, aspect up to 1e4 (box pairs take the analytic SAT path of contacts) */
    PXT_K_TETRA,      /* random tetrahedron */
    PXT_K_FLAT_TETRA, /* tetrahedron of volume -> 0 */
    PXT_K_POINT,      /* single point */
    PXT_K_SEGMENT,    /* 2-6 collinear points */
    PXT_K_POLYGON,    /* flat polygon (local z = 0), with some interior points */
    PXT_K_REPEATED,   /* ellipsoid hull with every point repeated 1-3 times */
    PXT_K_INTERIOR,   /* ellipsoid hull plus interior points */
    PXT_K_COUNT
};

/* "ellipsoid", "box_hull", ...: the families' names in reports */
extern const char* const pxt_kind_names[PXT_K_COUNT];

typedef struct pxt_shape_case
{
    int box;   /* 1: px_shape_box(half); 0: hull of pts */
    int count; /* hull points */
    float half[3];
    float pts[3 * PXT_MAXP];
} pxt_shape_case;

typedef struct pxt_pair_case
{
    int family; /* PXT_K_*: the family the pair was drawn for */
    int bucket; /* index into the suite's target table, -1 when untargeted */
    pxt_shape_case a, b;
    px_transform ta, tb;
} pxt_pair_case;

/* A frozen case: what pxt_print_case writes. */
typedef struct pxt_frozen_case
{
    const char* name;
    int family;
    int box_a, count_a;
    float half_a[3];
    const float* pts_a;
    int box_b, count_b;
    float half_b[3];
    const float* pts_b;
    float qa[4], pa[3], qb[4], pb[3];
} pxt_frozen_case;

void pxt_from_frozen(const pxt_frozen_case* fz, pxt_pair_case* c);

/* Prints c as a pxt_frozen_case initializer named <name>_case (its points as <name>_a, <name>_b). */
void pxt_print_case(const pxt_pair_case* c, const char* name);

void pxt_make_shape(const pxt_shape_case* s, px_shape* out);

/* Local vertices of a shape (8 corners for a box); returns their count. */
int pxt_local_points(const pxt_shape_case* s, float* out);

/* ------------------------------------------------------------------------------------------------ */
/* Oracle view of a case: world points shifted by origin = pose_a.p (a translation, exact)            */

typedef struct pxt_oracle_view
{
    long double wa[3 * PXT_MAXP], wb[3 * PXT_MAXP];
    int na, nb;
    float origin[3];
    long double S, C; /* largest extent of either shape, largest absolute world coordinate */
    pxo_distance d;
} pxt_oracle_view;

void pxt_oracle_eval(const pxt_pair_case* c, pxt_oracle_view* o);

/* A world point in the oracle's frame. */
void pxt_world_to_oracle(const pxt_oracle_view* o, const float p[3], long double dest[3]);

/* ------------------------------------------------------------------------------------------------ */
/* Generation                                                                                        */

/* Move B by amount * n. The pose translation takes what float can hold at its magnitude (little, far
 * from the origin); the rest moves the local points of B's hull (or A's hull the other way), so that the
 * target distance is reached at every offset. */
void pxt_move_b(pxt_pair_case* c, const long double n[3], long double amount);

/* Draw a pair of the family and place B so that d* lands in targets[bucket] (a signed distance in units
 * of S; bucket -1: untargeted). c->bucket is left -1 when the target could not be aimed at (the drawn pair
 * overlaps, or the oracle does not certify). */
void pxt_gen_case(px_rng* r, int family, const double* targets, int bucket, pxt_pair_case* c);
