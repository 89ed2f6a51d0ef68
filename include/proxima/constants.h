/// @file constants.h
/// Default tolerances and capacities. They are defaults only: every query takes its tolerances through a
/// config struct (px_gjk_default_config() and friends) so callers can tune them per call.
#pragma once

#include <float.h>

/// Largest size of a shape pair the pair queries (distance, overlap, contact, manifold, casts) accept:
/// 2^62, about 4.6e18. The size is the bound on |a - b| over the pair's points (both shapes' extents and
/// radii plus the distance between their origins); the squares of such lengths stay within float's range,
/// while beyond it they overflow (two spheres 2^64 apart read as overlapping). Larger pairs get
/// PX_ERR_OUT_OF_RANGE. User support functions have no known size and are not checked. [Units: length]
#define PX_MAX_PAIR_SIZE 0x1p62f

/// Hard bound on GJK iterations. Reaching it returns the best result so far with
/// PX_WARN_MAX_ITERATIONS. Polytopes of <= 64 vertices need far fewer (the tests assert <= 32).
/// [Limit: > 0]
#define PX_GJK_MAX_ITERATIONS 64

/// GJK stops when the duality gap |v|^2 - v.w falls below this fraction of |v|^2, i.e. when the
/// distance is known to this relative accuracy (about half of it, in distance units).
/// [Units: none] [Limit: > 0]
#define PX_GJK_REL_TOLERANCE 1.0e-6f

/// Absolute distance below which two shapes count as touching. 0 (the default) means "only what float
/// rounding cannot tell apart", a bound proportional to the size of the shapes, so results are the same
/// at every scale. [Units: length] [Limit: >= 0]
#define PX_GJK_ABS_TOLERANCE 0.0f

/// Multiple of FLT_EPSILON * (size of the Minkowski points) under which GJK's gap and distance are
/// indistinguishable from rounding noise. [Units: none]
#define PX_GJK_ROUNDING_FACTOR 16.0f

/// Squared length, area or volume below eps * scale^k counts as degenerate in the simplex solver.
#define PX_DEGENERATE_REL_EPSILON FLT_EPSILON

/// EPA stops when the support along the nearest face's normal is within this fraction of the depth of that
/// face (libccd's epa_tolerance). [Units: none] [Limit: > 0]
#define PX_EPA_REL_TOLERANCE 1.0e-4f

/// Bound for EPA polytope expansion.
#define PX_EPA_MAX_ITERATIONS 128
/// EPA stack capacities.
#define PX_EPA_MAX_VERTICES 128
#define PX_EPA_MAX_FACES 256

/// Manifold and contact tolerance. [Units: length]
#define PX_LINEAR_SLOP 0.005f
