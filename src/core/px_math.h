/* Internal math: const-correct inline wrappers over cglm 0.8.8 and the few operations it lacks.
 *
 * cglm takes non-const pointers everywhere, so passing const data to glm_* warns (and fails under
 * -Werror). This header is the one place allowed to cast const away; it is safe because glm_* never
 * writes its inputs. Library code calls vector math only through these px_v3_* helpers. */
#pragma once

#include <float.h>
#include <math.h>
#include <string.h>

#include <cglm/quat.h>
#include <cglm/vec3.h>

#if defined(__GNUC__) || defined(__clang__)
#define PX_LIKELY(x) __builtin_expect(!!(x), 1)
#define PX_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define PX_INLINE static inline __attribute__((always_inline))
#define PX_NOINLINE __attribute__((noinline))
#else
#define PX_LIKELY(x) (x)
#define PX_UNLIKELY(x) (x)
#define PX_INLINE static inline
#define PX_NOINLINE
#endif

#define PX_CV(v) ((float*)(v)) /* const vec3 -> vec3 for cglm; cglm does not write its inputs */

PX_INLINE void px_v3_set(float x, float y, float z, vec3 dest)
{
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}

PX_INLINE void px_v3_copy(const vec3 a, vec3 dest)
{
    glm_vec3_copy(PX_CV(a), dest);
}

PX_INLINE void px_v3_zero(vec3 dest)
{
    glm_vec3_zero(dest);
}

PX_INLINE float px_v3_dot(const vec3 a, const vec3 b)
{
    return glm_vec3_dot(PX_CV(a), PX_CV(b));
}

PX_INLINE float px_v3_norm2(const vec3 a)
{
    return glm_vec3_norm2(PX_CV(a));
}

PX_INLINE float px_v3_norm(const vec3 a)
{
    return sqrtf(px_v3_norm2(a));
}

PX_INLINE void px_v3_add(const vec3 a, const vec3 b, vec3 dest)
{
    glm_vec3_add(PX_CV(a), PX_CV(b), dest);
}

PX_INLINE void px_v3_sub(const vec3 a, const vec3 b, vec3 dest)
{
    glm_vec3_sub(PX_CV(a), PX_CV(b), dest);
}

PX_INLINE void px_v3_scale(const vec3 a, float s, vec3 dest)
{
    glm_vec3_scale(PX_CV(a), s, dest);
}

PX_INLINE void px_v3_negate(const vec3 a, vec3 dest)
{
    glm_vec3_negate_to(PX_CV(a), dest);
}

/* dest = a + s * b (not cglm's accumulating muladds) */
PX_INLINE void px_v3_mad(const vec3 a, float s, const vec3 b, vec3 dest)
{
    dest[0] = a[0] + s * b[0];
    dest[1] = a[1] + s * b[1];
    dest[2] = a[2] + s * b[2];
}

PX_INLINE void px_v3_cross(const vec3 a, const vec3 b, vec3 dest)
{
    /* glm_vec3_cross computes into a temporary, so dest may alias a or b */
    glm_vec3_cross(PX_CV(a), PX_CV(b), dest);
}

PX_INLINE void px_v3_minv(const vec3 a, const vec3 b, vec3 dest)
{
    glm_vec3_minv(PX_CV(a), PX_CV(b), dest);
}

PX_INLINE void px_v3_maxv(const vec3 a, const vec3 b, vec3 dest)
{
    glm_vec3_maxv(PX_CV(a), PX_CV(b), dest);
}

PX_INLINE float px_v3_distance2(const vec3 a, const vec3 b)
{
    return glm_vec3_distance2(PX_CV(a), PX_CV(b));
}

PX_INLINE bool px_v3_is_finite(const vec3 a)
{
    /* a - a is 0 for finite values and NaN for NaN or Inf; the comparison is false for NaN */
    float s = (a[0] - a[0]) + (a[1] - a[1]) + (a[2] - a[2]);
    return s == 0.0f;
}

PX_INLINE bool px_is_finite(float x)
{
    return (x - x) == 0.0f;
}

PX_INLINE bool px_v3_equal(const vec3 a, const vec3 b)
{
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

PX_INLINE float px_maxf(float a, float b)
{
    return a > b ? a : b;
}

PX_INLINE float px_minf(float a, float b)
{
    return a < b ? a : b;
}

PX_INLINE float px_clampf(float x, float lo, float hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Unit vector of v, or false (dest zeroed) when |v|^2 <= eps2. cglm 0.8.8's normalize only guards an
 * exact zero norm. */
PX_INLINE bool px_v3_normalize_safe(const vec3 v, vec3 dest, float eps2)
{
    float n2 = px_v3_norm2(v);
    if (n2 > eps2)
    {
        float inv = 1.0f / sqrtf(n2);
        px_v3_scale(v, inv, dest);
        return true;
    }
    px_v3_zero(dest);
    return false;
}

/* Unit vector of any non-zero finite v, whatever its magnitude: v is divided by its largest component
 * before squaring, so 1e-30 and 1e30 normalize like 1. False (dest zeroed) for the zero vector. */
PX_INLINE bool px_v3_normalize_any(const vec3 v, vec3 dest)
{
    float m = px_maxf(fabsf(v[0]), px_maxf(fabsf(v[1]), fabsf(v[2])));
    if (!(m > 0.0f))
    {
        px_v3_zero(dest);
        return false;
    }
    vec3 u = { v[0] / m, v[1] / m, v[2] / m }; /* divisions: 1 / m overflows for denormal m */
    px_v3_scale(u, 1.0f / sqrtf(px_v3_norm2(u)), dest);
    return true;
}

/* Rotation of v by unit quaternion q (x, y, z, w): v + 2w (u x v) + 2 u x (u x v). dest may alias v. */
PX_INLINE void px_quat_rotate_fast(const versor q, const vec3 v, vec3 dest)
{
    vec3 u = { q[0], q[1], q[2] };
    vec3 t, ut;
    px_v3_cross(u, v, t);
    px_v3_scale(t, 2.0f, t);
    px_v3_cross(u, t, ut);
    dest[0] = v[0] + q[3] * t[0] + ut[0];
    dest[1] = v[1] + q[3] * t[1] + ut[1];
    dest[2] = v[2] + q[3] * t[2] + ut[2];
}

/* Rotation by the conjugate of q. */
PX_INLINE void px_quat_rotate_inv_fast(const versor q, const vec3 v, vec3 dest)
{
    versor c = { -q[0], -q[1], -q[2], q[3] };
    px_quat_rotate_fast(c, v, dest);
}

/* Hamilton product dest = a * b (apply b, then a). dest may alias a or b. */
PX_INLINE void px_quat_mul(const versor a, const versor b, versor dest)
{
    versor r;
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(dest, r, sizeof(r));
}

/* A 3x3 rotation as three columns. A struct rather than cglm's mat3, because a mat3 cannot be passed
 * to a const parameter in ISO C before C2x (pointers to arrays with different qualifiers). */
typedef struct px_rot
{
    vec3 c[3]; /* c[j] = column j: the image of the j-th axis */
} px_rot;

/* Rotation matrix of a unit quaternion. Unlike glm_quat_mat3 it assumes |q| = 1 and takes no square
 * root. */
PX_INLINE void px_rot_from_quat(const versor q, px_rot* dest)
{
    float x = q[0], y = q[1], z = q[2], w = q[3];
    float xx = 2.0f * x * x, yy = 2.0f * y * y, zz = 2.0f * z * z;
    float xy = 2.0f * x * y, xz = 2.0f * x * z, yz = 2.0f * y * z;
    float wx = 2.0f * w * x, wy = 2.0f * w * y, wz = 2.0f * w * z;
    dest->c[0][0] = 1.0f - yy - zz;
    dest->c[0][1] = xy + wz;
    dest->c[0][2] = xz - wy;
    dest->c[1][0] = xy - wz;
    dest->c[1][1] = 1.0f - xx - zz;
    dest->c[1][2] = yz + wx;
    dest->c[2][0] = xz + wy;
    dest->c[2][1] = yz - wx;
    dest->c[2][2] = 1.0f - xx - yy;
}

/* dest = R v. dest may alias v. */
PX_INLINE void px_rot_mulv(const px_rot* r, const vec3 v, vec3 dest)
{
    float x = r->c[0][0] * v[0] + r->c[1][0] * v[1] + r->c[2][0] * v[2];
    float y = r->c[0][1] * v[0] + r->c[1][1] * v[1] + r->c[2][1] * v[2];
    float z = r->c[0][2] * v[0] + r->c[1][2] * v[1] + r->c[2][2] * v[2];
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}

/* dest = R^T v. dest may alias v. */
PX_INLINE void px_rot_tmulv(const px_rot* r, const vec3 v, vec3 dest)
{
    float x = px_v3_dot(r->c[0], v);
    float y = px_v3_dot(r->c[1], v);
    float z = px_v3_dot(r->c[2], v);
    dest[0] = x;
    dest[1] = y;
    dest[2] = z;
}
