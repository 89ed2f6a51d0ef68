/* EPA penetration depth on the cores of a GJK pair (epa.c), used by the contact query. */
#pragma once

#include "gjk_internal.h"

typedef enum pxi_epa_exit
{
    PXI_EPA_EXIT_NONE = 0,
    PXI_EPA_EXIT_CONVERGED,      /* the depth bracket closed within the tolerance */
    PXI_EPA_EXIT_FLAT,           /* A - B is flat (or a segment or point): depth 0 across it */
    PXI_EPA_EXIT_MAX_ITERATIONS, /* iteration bound: nearest face returned */
    PXI_EPA_EXIT_BROKEN,         /* capacity or rounding broke the polytope: nearest face returned */
} pxi_epa_exit;

typedef struct pxi_epa_result
{
    vec3 point_a;  /* on the surface of A's core (frame A) */
    vec3 point_b;  /* on B's core surface: point_a - depth * normal */
    vec3 normal;   /* unit, from A to B: moving B by depth * normal separates the cores */
    float depth;   /* >= 0 */
    int iterations;
    pxi_epa_exit exit;
    /* The answer is a stuck face's (one whose support was already a vertex: rounding broke the polytope's
     * convexity). Its depth is the overlap along its normal, but its witness comes from a triangle of the
     * broken surface and can lie off the shapes: callers that can should find a better one. */
    bool stuck_face;
    /* The witness face's height over its longest edge (1 for no face): its barycentric weights, and so the
     * witness points, carry the rounding of the coordinates divided by it. */
    float witness_aspect;
} pxi_epa_result;

/* Penetration depth of the cores, from GJK's final simplex (1 to 4 vertices around the origin).
 * Returns PX_OK; PX_WARN_MAX_ITERATIONS, PX_WARN_CAPACITY or PX_WARN_DEGENERATE with the best result;
 * PX_ERR_NON_FINITE when a support was not finite. */
px_status pxi_epa_run(const pxi_gjk_pair* pair, const px_simplex* simplex, int max_iterations, float rel_tolerance,
                      pxi_epa_result* result);

/* Capacity of EPA's transposed hull copies, for both shapes together (12 bytes a point on the stack).
 * Hulls that do not fit use their own scans. */
#define PXI_EPA_SOA_POINTS 2048

/* Transpose count packed xyz points into soa: x[count], then y[count], then z[count]. False when a
 * coordinate is NaN or Inf. */
bool pxi_epa_soa_from_packed(const float* points, int count, float* soa);

/* Index of the transposed point with the largest dot product with d, the lowest one on ties, or
 * PXI_SUPPORT_NON_FINITE when a dot product is not finite: the index pxi_hull_scan returns for the same
 * points packed (epa_scan.c). */
int32_t pxi_epa_scan_soa(const float* soa, int count, const vec3 d);

/* The fastest vector version of pxi_epa_scan_soa on this machine for count points, or NULL when there is
 * none (the shapes' own scans are then as fast as a scalar scan of the copy). */
typedef int32_t (*pxi_epa_scan_fn)(const float* soa, int count, const vec3 d);
pxi_epa_scan_fn pxi_epa_scan_select(int count);

/* A faster scan for copies whose dot products with the directions asked are known finite (no NaN or Inf
 * point, no overflowing product): the same index, without the check. GJK's copies (gjk.c) qualify. */
pxi_epa_scan_fn pxi_epa_scan_finite_select(int count);

/* The faster of the two for count points: known_finite when the copy holds no NaN or Inf and the pair's
 * size bounds every product (pxi_epa_scan_finite_select may then be taken). */
pxi_epa_scan_fn pxi_epa_scan_for(int count, bool known_finite);
