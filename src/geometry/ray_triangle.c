/* Ray-triangle intersection (geometry.h): Moller and Trumbore, "Fast, Minimum Storage Ray/Triangle
 * Intersection", JGT 2(1), 1997, and the watertight test of Woop, Benthin and Wald, JCGT 2(1), 2013, whose
 * kernel lives in ray_triangle_internal.h so the mesh BVH can inline it.
 *
 * Both public functions validate the ray and the vertices, and bring the direction to a largest component in
 * [1, 2) when it is far from 1 (tiny directions overflow the shear constants and the Moller-Trumbore
 * products). The rescaling is by a power of two, so it is exact: it changes t by the same power of two and
 * nothing else, and the range max_t with it. */
#include "ray_triangle_internal.h"

#include "proxima/geometry.h"

/* Moller-Trumbore's parallel test: |det| <= this * |D| |E1| |E2| is a miss. det = -D . (E1 x E2) is a
 * triple product whose float rounding error is a few FLT_EPSILON of |D| |E1| |E2| (the rounding of E1 and
 * E2, of the cross product, of the dot product); below that bound its sign, and so t, u and v, are noise.
 * Exactly degenerate triangles, whose float edges are parallel to within rounding, fall under it too. */
#define PXI_RAY_PARALLEL_REL (16.0f * FLT_EPSILON)

/* Directions whose largest component lies in [2^-20, 2^20] are used as given (so the public watertight test
 * gives bit for bit what the inline kernel gives); others are rescaled. */
#define PXI_RAY_DIR_MIN 0x1p-20f
#define PXI_RAY_DIR_MAX 0x1p20f

/* A validated ray: the direction after rescaling, the range in the rescaled units, and the power of two that
 * turns a rescaled t back into the caller's. */
typedef struct ray_setup
{
    vec3 dir;
    float max_t;
    int exponent; /* caller's t = ldexpf(rescaled t, exponent) */
} ray_setup;

/* Validate the inputs and rescale the direction; false for anything the functions document as invalid. */
static bool ray_setup_init(const px_ray* ray, const float* a, const float* b, const float* c, px_triangle_sides sides,
                           ray_setup* setup)
{
    if (ray == NULL || a == NULL || b == NULL || c == NULL)
    {
        return false;
    }
    if (sides != PX_TRIANGLE_BOTH_SIDES && sides != PX_TRIANGLE_FRONT_ONLY)
    {
        return false;
    }
    if (!px_v3_is_finite(ray->origin) || !px_v3_is_finite(ray->direction) || !px_v3_is_finite(a) ||
        !px_v3_is_finite(b) || !px_v3_is_finite(c))
    {
        return false;
    }
    /* NaN fails this too; +inf is a valid range */
    if (!(ray->max_t >= 0.0f))
    {
        return false;
    }
    const float* d = ray->direction;
    float m = px_maxf(fabsf(d[0]), px_maxf(fabsf(d[1]), fabsf(d[2])));
    if (m == 0.0f)
    {
        return false;
    }
    px_v3_copy(d, setup->dir);
    setup->max_t = ray->max_t;
    setup->exponent = 0;
    if (m < PXI_RAY_DIR_MIN || m > PXI_RAY_DIR_MAX)
    {
        /* m = f 2^e with f in [0.5, 1): dir 2^(1 - e) has its largest component in [1, 2). With
         * dir' = dir 2^k the same point has t' = t 2^-k, so the range scales the other way. */
        int e;
        (void)frexpf(m, &e);
        int k = 1 - e;
        for (int i = 0; i < 3; ++i)
        {
            setup->dir[i] = ldexpf(d[i], k);
        }
        setup->max_t = ldexpf(ray->max_t, -k);
        setup->exponent = k;
    }
    return true;
}

/* Back to the caller's t; false when it leaves [0, max_t] (the rescaled range can round up by an ulp when it
 * is subnormal) or overflows. */
static bool ray_setup_finish(const px_ray* ray, const ray_setup* setup, float t_scaled, float* t)
{
    float tt = setup->exponent != 0 ? ldexpf(t_scaled, setup->exponent) : t_scaled;
    if (!(tt >= 0.0f && tt <= ray->max_t && tt <= FLT_MAX))
    {
        return false;
    }
    *t = tt;
    return true;
}

bool px_ray_triangle(const px_ray* ray, const vec3 a, const vec3 b, const vec3 c, px_triangle_sides sides, float* t,
                     float* u, float* v)
{
    ray_setup rs;
    if (!ray_setup_init(ray, a, b, c, sides, &rs))
    {
        return false;
    }
    const float* d = rs.dir;
    vec3 e1, e2, p;
    px_v3_sub(b, a, e1);
    px_v3_sub(c, a, e2);
    px_v3_cross(d, e2, p);
    const float det = px_v3_dot(p, e1);

    /* det = -D . (E1 x E2): positive when the ray meets the front face. The tolerance overflows to +inf for
     * coordinates beyond about 1e19, which then miss instead of giving inf - inf. */
    const float tol = PXI_RAY_PARALLEL_REL * (px_v3_norm(d) * px_v3_norm(e1) * px_v3_norm(e2));
    if (sides == PX_TRIANGLE_FRONT_ONLY)
    {
        if (!(det > tol))
        {
            return false;
        }
    }
    else if (!(fabsf(det) > tol))
    {
        return false;
    }

    vec3 s, q;
    px_v3_sub(ray->origin, a, s);
    px_v3_cross(s, e1, q);
    float un = px_v3_dot(p, s);
    float vn = px_v3_dot(q, d);
    float tn = px_v3_dot(q, e2);
    /* fold det's sign into the numerators so that every range test is a comparison with |det|: no division
     * before the hit is certain */
    if (det < 0.0f)
    {
        un = -un;
        vn = -vn;
        tn = -tn;
    }
    const float adet = fabsf(det);
    if (!(un >= 0.0f && vn >= 0.0f && un + vn <= adet))
    {
        return false;
    }
    if (!(tn >= 0.0f && tn <= rs.max_t * adet))
    {
        return false;
    }
    /* the one division, in double: adet may be subnormal, whose float reciprocal overflows */
    const double rcp = 1.0 / (double)adet;
    const double td = (double)tn * rcp;
    if (!(td <= (double)rs.max_t && td <= (double)FLT_MAX))
    {
        return false;
    }
    float tt;
    if (!ray_setup_finish(ray, &rs, (float)td, &tt))
    {
        return false;
    }
    if (t != NULL)
    {
        *t = tt;
    }
    if (u != NULL)
    {
        *u = (float)((double)un * rcp);
    }
    if (v != NULL)
    {
        *v = (float)((double)vn * rcp);
    }
    return true;
}

bool px_ray_triangle_watertight(const px_ray* ray, const vec3 a, const vec3 b, const vec3 c, px_triangle_sides sides,
                                float* t, float* u, float* v)
{
    ray_setup rs;
    if (!ray_setup_init(ray, a, b, c, sides, &rs))
    {
        return false;
    }
    pxi_watertight_ray wr;
    pxi_watertight_ray_init(&wr, ray->origin, rs.dir);
    float ts, us, vs;
    if (!pxi_watertight_hit(&wr, a, b, c, sides == PX_TRIANGLE_FRONT_ONLY, 0.0f, rs.max_t, &ts, &us, &vs))
    {
        return false;
    }
    float tt;
    if (!ray_setup_finish(ray, &rs, ts, &tt))
    {
        return false;
    }
    if (t != NULL)
    {
        *t = tt;
    }
    if (u != NULL)
    {
        *u = us;
    }
    if (v != NULL)
    {
        *v = vs;
    }
    return true;
}
