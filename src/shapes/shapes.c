/* Shape constructors, validation, public support and world bounding boxes. */
#include "support_internal.h"

static px_shape make_shape(px_shape_type type)
{
    px_shape s;
    memset(&s, 0, sizeof(s));
    s.type = type;
    return s;
}

px_shape px_shape_point(void)
{
    return make_shape(PX_SHAPE_POINT);
}

px_shape px_shape_segment(const vec3 a, const vec3 b)
{
    px_shape s = make_shape(PX_SHAPE_SEGMENT);
    px_v3_copy(a, s.segment.a);
    px_v3_copy(b, s.segment.b);
    return s;
}

px_shape px_shape_triangle(const vec3 a, const vec3 b, const vec3 c)
{
    px_shape s = make_shape(PX_SHAPE_TRIANGLE);
    px_v3_copy(a, s.triangle.a);
    px_v3_copy(b, s.triangle.b);
    px_v3_copy(c, s.triangle.c);
    return s;
}

px_shape px_shape_sphere(float radius)
{
    px_shape s = make_shape(PX_SHAPE_SPHERE);
    s.radius = radius;
    return s;
}

px_shape px_shape_capsule(float half_height, float radius)
{
    px_shape s = make_shape(PX_SHAPE_CAPSULE);
    s.capsule.half_height = half_height;
    s.radius = radius;
    return s;
}

px_shape px_shape_box(const vec3 half_extents)
{
    px_shape s = make_shape(PX_SHAPE_BOX);
    px_v3_copy(half_extents, s.box.half_extents);
    return s;
}

px_shape px_shape_cylinder(float half_height, float radius)
{
    px_shape s = make_shape(PX_SHAPE_CYLINDER);
    s.cylinder.half_height = half_height;
    s.cylinder.radius = radius;
    return s;
}

px_shape px_shape_cone(float half_height, float radius)
{
    px_shape s = make_shape(PX_SHAPE_CONE);
    s.cylinder.half_height = half_height;
    s.cylinder.radius = radius;
    return s;
}

px_shape px_shape_hull(const float* points, int count)
{
    px_shape s = make_shape(PX_SHAPE_HULL);
    s.hull.points = points;
    s.hull.count = count;
    s.hull.bound = pxi_points_bound(points, count);
    return s;
}

float pxi_points_bound(const float* points, int count)
{
    if (points == NULL || count <= 0)
    {
        return 0.0f;
    }
    float m = 0.0f, nan_check = 0.0f;
    for (int i = 0; i < count; ++i)
    {
        float n2 = px_v3_norm2(points + 3 * (size_t)i);
        m = px_maxf(m, n2);
        nan_check += n2 - n2; /* 0 unless a point is NaN or Inf */
    }
    return nan_check == 0.0f ? sqrtf(m) : NAN;
}

float pxi_shape_bound(const px_shape* s)
{
    switch (s->type)
    {
    case PX_SHAPE_SEGMENT:
        return sqrtf(px_maxf(px_v3_norm2(s->segment.a), px_v3_norm2(s->segment.b)));
    case PX_SHAPE_TRIANGLE:
        return sqrtf(px_maxf(px_v3_norm2(s->triangle.a),
                             px_maxf(px_v3_norm2(s->triangle.b), px_v3_norm2(s->triangle.c))));
    case PX_SHAPE_CAPSULE:
        return s->capsule.half_height;
    case PX_SHAPE_BOX:
        return px_v3_norm(s->box.half_extents);
    case PX_SHAPE_CYLINDER:
    case PX_SHAPE_CONE:
        return sqrtf(s->cylinder.half_height * s->cylinder.half_height + s->cylinder.radius * s->cylinder.radius);
    case PX_SHAPE_HULL:
        return s->hull.bound > 0.0f ? s->hull.bound : pxi_points_bound(s->hull.points, s->hull.count);
    case PX_SHAPE_USER:
        return -1.0f; /* unknown: the queries fall back to the support points they see */
    default:
        return 0.0f;
    }
}

px_shape px_shape_user(px_support_fn fn, const void* user_data)
{
    px_shape s = make_shape(PX_SHAPE_USER);
    s.user.fn = fn;
    s.user.user_data = user_data;
    return s;
}

/* A size: finite and >= 0. Returns the status for a failing value. */
static px_status check_size(float x)
{
    if (!px_is_finite(x))
    {
        return PX_ERR_NON_FINITE;
    }
    return x >= 0.0f ? PX_OK : PX_ERR_INVALID_ARGUMENT;
}

static px_status check_point(const vec3 p)
{
    return px_v3_is_finite(p) ? PX_OK : PX_ERR_NON_FINITE;
}

px_status pxi_shape_validate_fast(const px_shape* shape)
{
    if (shape == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = check_size(shape->radius);
    if (status != PX_OK)
    {
        return status;
    }
    switch (shape->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        return PX_OK;
    case PX_SHAPE_SEGMENT:
        status = check_point(shape->segment.a);
        return status != PX_OK ? status : check_point(shape->segment.b);
    case PX_SHAPE_TRIANGLE:
        status = check_point(shape->triangle.a);
        status = status != PX_OK ? status : check_point(shape->triangle.b);
        return status != PX_OK ? status : check_point(shape->triangle.c);
    case PX_SHAPE_CAPSULE:
        return check_size(shape->capsule.half_height);
    case PX_SHAPE_BOX:
        for (int i = 0; i < 3; ++i)
        {
            status = check_size(shape->box.half_extents[i]);
            if (status != PX_OK)
            {
                return status;
            }
        }
        return PX_OK;
    case PX_SHAPE_CYLINDER:
    case PX_SHAPE_CONE:
        status = check_size(shape->cylinder.half_height);
        return status != PX_OK ? status : check_size(shape->cylinder.radius);
    case PX_SHAPE_HULL:
        return (shape->hull.points != NULL && shape->hull.count > 0) ? PX_OK : PX_ERR_INVALID_ARGUMENT;
    case PX_SHAPE_USER:
        return shape->user.fn != NULL ? PX_OK : PX_ERR_INVALID_ARGUMENT;
    default:
        return PX_ERR_INVALID_ARGUMENT;
    }
}

px_status px_shape_validate(const px_shape* shape)
{
    px_status status = pxi_shape_validate_fast(shape);
    if (status != PX_OK || shape->type != PX_SHAPE_HULL)
    {
        return status;
    }
    for (int i = 0; i < shape->hull.count; ++i)
    {
        if (!px_v3_is_finite(shape->hull.points + 3 * (size_t)i))
        {
            return PX_ERR_NON_FINITE;
        }
    }
    return PX_OK;
}

int32_t px_shape_support(const px_shape* shape, const vec3 direction, vec3 dest)
{
    if (pxi_shape_validate_fast(shape) != PX_OK || !px_v3_is_finite(direction))
    {
        px_v3_zero(dest);
        return PX_NULL_INDEX;
    }
    int32_t index = pxi_support_core(shape, direction, dest);
    if (index == PXI_SUPPORT_NON_FINITE)
    {
        px_v3_zero(dest);
        return PX_NULL_INDEX;
    }
    if (shape->radius > 0.0f)
    {
        vec3 n;
        if (px_v3_normalize_any(direction, n))
        {
            px_v3_mad(dest, shape->radius, n, dest);
        }
    }
    return index;
}

/* Local-frame box of the core (radius excluded) for points, spheres, boxes, cylinders and cones. */
static bool core_local_aabb(const px_shape* s, px_aabb* box)
{
    switch (s->type)
    {
    case PX_SHAPE_POINT:
    case PX_SHAPE_SPHERE:
        px_v3_zero(box->min);
        px_v3_zero(box->max);
        return true;
    case PX_SHAPE_BOX:
        px_v3_negate(s->box.half_extents, box->min);
        px_v3_copy(s->box.half_extents, box->max);
        return true;
    case PX_SHAPE_CYLINDER:
    case PX_SHAPE_CONE:
        px_v3_set(-s->cylinder.radius, -s->cylinder.half_height, -s->cylinder.radius, box->min);
        px_v3_set(s->cylinder.radius, s->cylinder.half_height, s->cylinder.radius, box->max);
        return true;
    default: /* hulls and user shapes are bounded through their support functions */
        return false;
    }
}

px_status px_shape_aabb(const px_shape* shape, const px_transform* pose, px_aabb* dest)
{
    memset(dest, 0, sizeof(*dest));
    px_status status = pxi_shape_validate_fast(shape);
    px_transform t;
    if (status == PX_OK)
    {
        status = px_transform_normalized(pose, &t);
    }
    if (status != PX_OK)
    {
        return status;
    }
    return pxi_shape_aabb_normalized(shape, &t, dest);
}

px_status pxi_shape_aabb_normalized(const px_shape* shape, const px_transform* pose, px_aabb* dest)
{
    const px_transform t = *pose;
    px_rot r;
    px_rot_from_quat(t.q, &r);
    px_aabb box;
    if (shape->type == PX_SHAPE_USER || shape->type == PX_SHAPE_HULL || shape->type == PX_SHAPE_SEGMENT ||
        shape->type == PX_SHAPE_TRIANGLE || shape->type == PX_SHAPE_CAPSULE)
    {
        /* exact: the support in +-e_i of the posed shape, core only */
        for (int i = 0; i < 3; ++i)
        {
            vec3 axis = { 0.0f, 0.0f, 0.0f };
            vec3 dl, p;
            axis[i] = 1.0f;
            px_rot_tmulv(&r, axis, dl); /* world axis in the local frame */
            if (pxi_support_core(shape, dl, p) == PXI_SUPPORT_NON_FINITE)
            {
                return PX_ERR_NON_FINITE;
            }
            box.max[i] = px_v3_dot(dl, p);
            px_v3_negate(dl, dl);
            if (pxi_support_core(shape, dl, p) == PXI_SUPPORT_NON_FINITE)
            {
                return PX_ERR_NON_FINITE;
            }
            box.min[i] = -px_v3_dot(dl, p);
        }
    }
    else
    {
        px_aabb local;
        core_local_aabb(shape, &local);
        /* centre-extent form: |R| e bounds the rotated box */
        vec3 c, e;
        for (int i = 0; i < 3; ++i)
        {
            c[i] = 0.5f * (local.min[i] + local.max[i]);
            e[i] = 0.5f * (local.max[i] - local.min[i]);
        }
        vec3 wc;
        px_rot_mulv(&r, c, wc);
        for (int i = 0; i < 3; ++i)
        {
            float we = fabsf(r.c[0][i]) * e[0] + fabsf(r.c[1][i]) * e[1] + fabsf(r.c[2][i]) * e[2];
            box.min[i] = wc[i] - we;
            box.max[i] = wc[i] + we;
        }
    }
    for (int i = 0; i < 3; ++i)
    {
        box.min[i] += t.p[i] - shape->radius;
        box.max[i] += t.p[i] + shape->radius;
    }
    if (!px_v3_is_finite(box.min) || !px_v3_is_finite(box.max))
    {
        return PX_ERR_NON_FINITE;
    }
    *dest = box;
    return PX_OK;
}
