/* Convex-vs-mesh pieces shared with the world's mesh pairs (world.c): the frames of a query and the
 * manifold of one triangle, as px_mesh_shape_contacts computes its contacts. */
#pragma once

#include "../core/px_math.h"

#include "proxima/manifold.h"
#include "proxima/mesh.h"
#include "proxima/shapes.h"
#include "proxima/transform.h"

/* A query's poses and the shape's bounds in the mesh frame. */
typedef struct pxi_mesh_query
{
    const px_shape* shape;
    px_transform shape_world; /* normalized world pose of the shape: maps the results to world space */
    px_transform rel;         /* the shape's pose in the mesh frame */
    px_rot rot;               /* rel's rotation */
    px_aabb box;              /* the shape's bounds in the mesh frame, rounding radius included */
    vec3 center, half;        /* the same box as centre and half extents */
    float size;               /* half diagonal of box */
    float coord;              /* largest |coordinate| of box: the scale of its rounding */
    px_aabb local;            /* bounds of the shape in its own frame (where the convex queries run): box turned back */
} pxi_mesh_query;

/* Validate a shape and the poses, and set up the frames (the shape's box in the mesh frame, and in its own).
 * mesh_pose NULL: the identity. Returns the first error (px_shape_validate's, the poses', PX_ERR_NON_FINITE
 * for a box that overflows). */
px_status pxi_mesh_query_init(const px_mesh* mesh, const px_transform* mesh_pose, const px_shape* shape,
                              const px_transform* shape_pose, pxi_mesh_query* q);

/* The box in the mesh frame that holds every point within margin of the query's shape, grown by the pad that
 * covers its rounding (returned): the cull of the contact queries. */
float pxi_mesh_query_reach(const pxi_mesh_query* q, float margin, px_aabb* box);

/* The manifold between triangle `triangle` of the mesh and the query's shape, world space, the mesh as A when
 * mesh_is_a (config NULL: defaults). It runs in the shape's local frame, on the triangle's part near the
 * shape when the triangle is much larger than the shape (a sub-triangle similar to it, holding every point
 * of it within the margin and twice the shape's size). A contact whose witness lies on the triangle's
 * inactive edges gets the manifold of the face normal (mesh_edges_internal.h), and *corrected (when not
 * NULL) says so. m->count is 0 when they are farther apart than the margin. Returns the status of the
 * triangle's contact query (px_contact_relative). */
px_status pxi_mesh_triangle_manifold(const pxi_mesh_query* q, const px_mesh* mesh, int32_t triangle, bool mesh_is_a,
                                     const px_manifold_config* config, px_manifold* m, bool* corrected);
