/* Exact penetration depth of two small built hulls, or of a box and such a hull, by their separating axes
 * (used by contact.c).
 *
 * For two convex polytopes the penetration depth is the smallest overlap over the face normals of either
 * and the cross products of those edge pairs that form a face of the Minkowski difference (Gregorius, "The
 * Separating Axis Test between Convex Polyhedra", GDC 2013). An edge pair forms such a face when the arcs
 * its two edges trace on the Gauss map (between the normals of each edge's two faces, B's negated)
 * intersect: four dot products decide it, with no square root, and only the few pairs that pass are
 * measured. The answer is exact (within float rounding) and costs no iteration, where EPA needs eight or
 * more polytope expansions for the same pair; but the edge pairs grow as the product of the two edge counts,
 * so this runs for small hulls only (PXI_HULL_SAT_MAX_EDGE_PAIRS, measured with bench/profile_penetration on
 * deep and resting pairs: at 16 points a query takes 0.65x the time of GJK + EPA deep and 0.85x resting, at
 * 24 points 0.9x deep but 1.3x resting). */
#pragma once

#include "../gjk/gjk_internal.h"

/* Largest vertex count of either hull, and largest product of the two edge counts (16-point hulls have 42
 * edges), the separating-axis test takes: beyond them GJK and EPA are faster. */
#define PXI_HULL_SAT_MAX_VERTICES 32
#define PXI_HULL_SAT_MAX_EDGE_PAIRS 2400

typedef struct pxi_hull_sat_result
{
    vec3 point_a; /* deepest point of A along the normal, on A's supporting plane [frame A] */
    vec3 normal;  /* unit, from A towards B [frame A] */
    float depth;  /* overlap of the cores along the normal: max over A minus min over B (> min_overlap) */
} pxi_hull_sat_result;

/* Whether both shapes of the pair are solid built hulls (px_shape_from_hull, dimension 3) within the limits
 * above, or one is such a hull and the other a box (two boxes have their own test, box_sat.h). */
bool pxi_hull_sat_applies(const pxi_gjk_pair* pair);

/* The penetration of the cores of a pair for which pxi_hull_sat_applies, in A's frame. Returns false,
 * leaving *out unspecified, when some axis shows an overlap of min_overlap or less (apart, touching, or too
 * close to touching to decide here: the caller's GJK and EPA handle those), and when the chosen axis fails
 * its final check (its edge pair's overlap, measured again over all vertices, exceeds the one the pair's
 * edges gave: a Gauss-map test misjudged within rounding). */
bool pxi_hull_sat_contact(const pxi_gjk_pair* pair, float min_overlap, pxi_hull_sat_result* out);
