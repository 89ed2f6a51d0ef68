/* Exact penetration depth of two convex polytopes by the separating-axis theorem (KNOWN_FAILURES.md 4.3a
 * step 4), in long double, sharing no code with proxima.
 *
 * For a unit axis n (from A to B) the overlap o(n) = max_A n.x - min_B n.x is the translation of B along
 * n that makes the two sets touch; every o(n) is an upper bound of the penetration depth, and the depth
 * is the minimum of o over the facet normals of A - B. Those are among:
 *   - the 2-dimensional face normals of A and of B (a flat hull is its own two-sided face),
 *   - cross products of an edge of A and an edge of B (only pairs whose Gauss-map arcs cross are
 *     Minkowski facets; for two solid hulls the others are pruned by Gregorius' arc test, made
 *     conservative: near-ties are kept, an extra candidate never makes the minimum wrong),
 *   - when A - B is flat or lower-dimensional (points, segments, polygons sharing a plane), the in-plane
 *     edge normals, the line direction and its perpendiculars (4.3a step 3): A - B then has depth 0
 *     along its plane normal when it contains the origin, and these axes decide separation.
 * The depth is exact up to long-double rounding: depth = min o(n) over the candidates, both orientations,
 * with the axis that attains it. The cross product of two nearly parallel edges is formed from the exact
 * differences of their end points (two-sum, fmal two-product), so its direction does not lose the digits
 * that cancel (boxes a rounding error from axis-aligned).
 *
 * Hulls come from a brute force over point triples (a triple spans a face when every other point is on
 * one side, with a tolerance that grows with the triple's conditioning, so a true face is never missed);
 * faces with the same set of on-plane points are merged (coplanar points, duplicates), edges are the
 * lines two faces share. Sets whose extent, width or thickness is below PXO_SAT_FLAT_REL * scale are
 * treated as points, segments or flat polygons (the depth moves by at most that much).
 *
 * Separation: the minimum is negative when a candidate axis separates the sets (min o < 0: then -depth
 * is the largest gap over the candidates, a lower bound of the distance; use pxo_hull_distance for the
 * distance itself).
 *
 * Points are packed xyz long doubles in one frame (world, or world shifted by a common origin). */
#pragma once

#define PXO_SAT_MAX_POINTS 64
#define PXO_SAT_MAX_FACES 384
#define PXO_SAT_MAX_EDGES 768
/* Relative size below which a set counts as flat, a segment or a point. */
#define PXO_SAT_FLAT_REL 1.0e-15L

/* Which kind of candidate gave the minimum. */
enum
{
    PXO_AXIS_NONE = 0,
    PXO_AXIS_FACE_A,   /* face normal of A (or the plane of a flat A) */
    PXO_AXIS_FACE_B,   /* face normal of B */
    PXO_AXIS_EDGE,     /* edge of A x edge of B */
    PXO_AXIS_IN_PLANE, /* A - B flat: an edge direction x the plane normal */
    PXO_AXIS_LINE      /* A - B a segment or point: its direction, perpendiculars, the offset */
};

typedef struct pxo_polytope
{
    const long double* pts; /* the caller's points (not copied; keep them alive) */
    int n;
    int dim;                /* affine dimension 0..3 within the flatness tolerance */
    long double extent;     /* largest distance between two points */
    long double width;      /* dim >= 2: largest distance from the line of the extent pair */
    long double tol;        /* absolute flatness / coplanarity tolerance */
    long double dir[3];     /* dim >= 1: unit direction of the extent pair */
    long double normal[3];  /* dim == 2: unit plane normal */
    int face_count;         /* dim 3: merged facets; dim 2: 1 (the plane) */
    long double faces[PXO_SAT_MAX_FACES][3];       /* unit outward normals */
    long double face_h[PXO_SAT_MAX_FACES];         /* max over the points of face . x */
    unsigned long long face_mask[PXO_SAT_MAX_FACES]; /* points on the face */
    int edge_count;         /* dim 3: hull edges; dim 2: boundary edges; dim 1: the segment */
    long double edges[PXO_SAT_MAX_EDGES][3];       /* unit directions */
    int edge_ends[PXO_SAT_MAX_EDGES][2];           /* the two points the direction was taken from */
    long double edge_adj[PXO_SAT_MAX_EDGES][2][3]; /* dim 3: the normals of the two faces of the edge */
    long double edge_arc[PXO_SAT_MAX_EDGES][3];    /* dim 3: unit adj[1] x adj[0], the Gauss-map arc's plane */
    int edge_prunable[PXO_SAT_MAX_EDGES];          /* 0: arc too short or too long to test, never pruned */
    int overflow;           /* 1: capacity exceeded, the polytope is incomplete (do not trust it) */
} pxo_polytope;

typedef struct pxo_sat
{
    long double depth;   /* min over the candidates of o(n): the depth when >= 0; < 0 when separated */
    long double axis[3]; /* unit axis attaining it, from A to B: B moved by depth * axis touches A */
    int kind;            /* PXO_AXIS_* of the minimum */
    int separated;       /* 1 when depth < -tol (a candidate axis separates the sets) */
    int dim_a, dim_b;    /* affine dimensions of A and B */
    int dim_diff;        /* affine dimension of A - B */
    int candidates;      /* axes evaluated (each in both orientations) */
    int ok;              /* 0 when a polytope overflowed its capacity (result not exact) */
    long double tol;     /* rounding tolerance used for `separated` */
} pxo_sat;

/* Build the face and edge structure of conv(pts[0..n)), n <= PXO_SAT_MAX_POINTS. scale sets the
 * flatness tolerance (PXO_SAT_FLAT_REL * scale); scale <= 0 means the set's own extent. */
void pxo_polytope_build(const long double* pts, int n, long double scale, pxo_polytope* poly);

/* Depth of two built polytopes (same frame). prune: 1 uses the Gauss-map test for solid pairs, 0 tries
 * every edge pair (slower; the oracle self-check compares the two). */
void pxo_sat_depth_polytopes(const pxo_polytope* a, const pxo_polytope* b, int prune, pxo_sat* out);

/* Convenience: build both and compute the depth. Uses static storage: not reentrant. */
void pxo_sat_depth(const long double* a, int na, const long double* b, int nb, long double scale, pxo_sat* out);

/* Overlap along the direction n (any length; from A to B): max_A n.x - min_B n.x, divided by |n|. */
long double pxo_overlap_along(const long double* a, int na, const long double* b, int nb, const long double n[3]);

/* How deep p lies inside a solid polytope: min over its faces of (face_h - face . p); positive inside,
 * <= 0 on or outside the boundary. 0 for flat polytopes (every point of them is on their boundary). */
long double pxo_point_depth(const pxo_polytope* poly, const long double p[3]);
