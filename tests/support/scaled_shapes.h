/* The shapes of the scale-equivariance tests (test_gjk.c, test_contact.c): one of each kind, every length
 * multiplied by sc (a power of two, so exact in float). */
#pragma once

#include "proxima/proxima.h"

/* Kinds 0 .. PXT_SCALED_KINDS - 1: box, sphere, capsule, cylinder, cone, rounded box, hull of the points
 * `hull` (already scaled by the caller, count of them). */
#define PXT_SCALED_KINDS 7

static inline px_shape pxt_scaled_shape(int kind, float sc, const float* hull, int count)
{
    const vec3 h = { 0.9f * sc, 0.4f * sc, 0.6f * sc };
    px_shape s;
    switch (kind)
    {
    case 0:
        return px_shape_box(h);
    case 1:
        return px_shape_sphere(0.7f * sc);
    case 2:
        return px_shape_capsule(0.6f * sc, 0.3f * sc);
    case 3:
        return px_shape_cylinder(0.5f * sc, 0.6f * sc);
    case 4:
        return px_shape_cone(0.7f * sc, 0.5f * sc);
    case 5:
        s = px_shape_box(h); /* rounded box */
        s.radius = 0.125f * sc;
        return s;
    default:
        return px_shape_hull(hull, count);
    }
}
