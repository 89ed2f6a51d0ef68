/* Rigid poses: quaternion rotation plus translation. The relative pose inverse(a) * b subtracts the
 * translations before rotating so that large world coordinates cancel before any rounding grows. */
#include "core_internal.h"
#include "px_math.h"

void px_transform_identity(px_transform* dest)
{
    px_transform id = PX_TRANSFORM_IDENTITY_INIT;
    *dest = id;
}

void px_transform_set(const vec3 p, const versor q, px_transform* dest)
{
    memcpy(dest->q, q, sizeof(versor));
    px_v3_copy(p, dest->p);
}

void px_quat_rotate(const versor q, const vec3 v, vec3 dest)
{
    px_quat_rotate_fast(q, v, dest);
}

void px_quat_rotate_inverse(const versor q, const vec3 v, vec3 dest)
{
    px_quat_rotate_inv_fast(q, v, dest);
}

void px_transform_point(const px_transform* t, const vec3 v, vec3 dest)
{
    vec3 r;
    px_quat_rotate_fast(t->q, v, r);
    px_v3_add(r, t->p, dest);
}

void px_transform_point_inverse(const px_transform* t, const vec3 v, vec3 dest)
{
    vec3 d;
    px_v3_sub(v, t->p, d);
    px_quat_rotate_inv_fast(t->q, d, dest);
}

void px_transform_vector(const px_transform* t, const vec3 v, vec3 dest)
{
    px_quat_rotate_fast(t->q, v, dest);
}

void px_transform_vector_inverse(const px_transform* t, const vec3 v, vec3 dest)
{
    px_quat_rotate_inv_fast(t->q, v, dest);
}

void px_transform_mul(const px_transform* a, const px_transform* b, px_transform* dest)
{
    px_transform r;
    px_quat_mul(a->q, b->q, r.q);
    px_quat_rotate_fast(a->q, b->p, r.p);
    px_v3_add(r.p, a->p, r.p);
    *dest = r;
}

void px_transform_inverse(const px_transform* t, px_transform* dest)
{
    px_transform r;
    r.q[0] = -t->q[0];
    r.q[1] = -t->q[1];
    r.q[2] = -t->q[2];
    r.q[3] = t->q[3];
    px_quat_rotate_fast(r.q, t->p, r.p);
    px_v3_negate(r.p, r.p);
    *dest = r;
}

void px_transform_inv_mul(const px_transform* a, const px_transform* b, px_transform* dest)
{
    px_transform r;
    versor conj_a = { -a->q[0], -a->q[1], -a->q[2], a->q[3] };
    vec3 d;
    px_quat_mul(conj_a, b->q, r.q);
    px_v3_sub(b->p, a->p, d); /* the one rounding of the large coordinates happens here */
    px_quat_rotate_fast(conj_a, d, r.p);
    *dest = r;
}

/* Largest absolute quaternion component, or -1 when anything in the pose is NaN or Inf. */
static float checked_qmax(const px_transform* t)
{
    const float* q = t->q;
    float finite = (q[0] - q[0]) + (q[1] - q[1]) + (q[2] - q[2]) + (q[3] - q[3]) + (t->p[0] - t->p[0]) +
                   (t->p[1] - t->p[1]) + (t->p[2] - t->p[2]);
    if (!(finite == 0.0f))
    {
        return -1.0f;
    }
    return px_maxf(px_maxf(fabsf(q[0]), fabsf(q[1])), px_maxf(fabsf(q[2]), fabsf(q[3])));
}

/* Status of a pose from its checked largest component. Any finite non-zero quaternion names a rotation;
 * only the zero quaternion (or one whose components are all denormal) does not. */
static px_status qmax_status(float qmax)
{
    if (qmax < 0.0f)
    {
        return PX_ERR_NON_FINITE;
    }
    return qmax >= FLT_MIN ? PX_OK : PX_ERR_DEGENERATE_INPUT;
}

px_status px_transform_validate(const px_transform* t)
{
    if (t == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    return qmax_status(checked_qmax(t));
}

px_status px_transform_normalized(const px_transform* t, px_transform* dest)
{
    if (t == NULL)
    {
        px_transform_identity(dest);
        return PX_ERR_INVALID_ARGUMENT;
    }
    /* Fast path, the common case: a unit quaternion (within rounding) and a finite translation. NaN or
     * Inf in q makes n2 NaN or Inf, which fails the range test and takes the careful path below. */
    float n2 = t->q[0] * t->q[0] + t->q[1] * t->q[1] + t->q[2] * t->q[2] + t->q[3] * t->q[3];
    if (fabsf(n2 - 1.0f) <= 4.0f * FLT_EPSILON && px_v3_is_finite(t->p))
    {
        *dest = *t;
        return PX_OK;
    }
    float qmax = checked_qmax(t);
    px_status status = qmax_status(qmax);
    if (status != PX_OK)
    {
        px_transform_identity(dest);
        return status;
    }
    *dest = *t;
    /* A quaternion rounded to float from a unit one has |q|^2 within a few ulps of 1 and is kept bit for
     * bit (above); anything that drifted further is rescaled, dividing by the largest component first so
     * that the squares neither overflow nor underflow. */
    {
        float q[4];
        for (int i = 0; i < 4; ++i)
        {
            q[i] = t->q[i] / qmax;
        }
        float inv = 1.0f / sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        for (int i = 0; i < 4; ++i)
        {
            dest->q[i] = q[i] * inv;
        }
    }
    return PX_OK;
}

px_status pxi_world_pair_poses(const px_transform* ta, const px_transform* tb, px_transform* na, px_transform* rel)
{
    px_transform a, b;
    px_status status = px_transform_normalized(ta, &a);
    if (status == PX_OK)
    {
        status = px_transform_normalized(tb, &b);
    }
    if (status != PX_OK)
    {
        return status;
    }
    if (na != NULL)
    {
        *na = a;
    }
    px_transform_inv_mul(&a, &b, rel);
    return PX_OK;
}
