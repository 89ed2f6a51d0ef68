/* Deterministic random numbers for tests and benchmarks (splitmix64). Seeds are fixed and printed;
 * PX_TEST_SEED in the environment overrides the base seed so a failure can be replayed. */
#pragma once

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

typedef struct px_rng
{
    uint64_t state;
} px_rng;

static inline uint64_t px_rng_next(px_rng* r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Seed from a fixed per-test value, mixed with PX_TEST_SEED when set. */
static inline px_rng px_rng_seeded(uint64_t seed)
{
    const char* env = getenv("PX_TEST_SEED");
    px_rng r;
    r.state = seed ^ (env != NULL ? strtoull(env, NULL, 0) * 0x9E3779B97F4A7C15ull : 0ull);
    return r;
}

/* Uniform double in [0, 1). */
static inline double px_rng_unit(px_rng* r)
{
    return (double)(px_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform double in [lo, hi). */
static inline double px_rng_range(px_rng* r, double lo, double hi)
{
    return lo + (hi - lo) * px_rng_unit(r);
}

/* Uniform integer in [0, n). */
static inline int px_rng_int(px_rng* r, int n)
{
    return (int)(px_rng_next(r) % (uint64_t)n);
}

/* Standard normal (Box-Muller). */
static inline double px_rng_normal(px_rng* r)
{
    double u = px_rng_unit(r), v = px_rng_unit(r);
    return sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

/* Uniform random unit quaternion (x, y, z, w) as doubles (Shoemake). */
static inline void px_rng_quat(px_rng* r, double q[4])
{
    double u1 = px_rng_unit(r), u2 = px_rng_unit(r), u3 = px_rng_unit(r);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    q[0] = a * sin(6.283185307179586 * u2);
    q[1] = a * cos(6.283185307179586 * u2);
    q[2] = b * sin(6.283185307179586 * u3);
    q[3] = b * cos(6.283185307179586 * u3);
}

/* Uniform random unit vector. */
static inline void px_rng_unit_vector(px_rng* r, double v[3])
{
    double x = px_rng_normal(r), y = px_rng_normal(r), z = px_rng_normal(r);
    double n = sqrt(x * x + y * y + z * z);
    if (n < 1e-12)
    {
        v[0] = 1.0;
        v[1] = 0.0;
        v[2] = 0.0;
        return;
    }
    v[0] = x / n;
    v[1] = y / n;
    v[2] = z / n;
}

/* n points on the ellipsoid of semi-axes (ax, ay, az) about the origin, packed xyz into out: unit vectors
 * scaled per axis, drawn in order from r. */
static inline void px_rng_ellipsoid_points(px_rng* r, int n, double ax, double ay, double az, float* out)
{
    for (int i = 0; i < n; ++i)
    {
        double v[3];
        px_rng_unit_vector(r, v);
        out[3 * i] = (float)(ax * v[0]);
        out[3 * i + 1] = (float)(ay * v[1]);
        out[3 * i + 2] = (float)(az * v[2]);
    }
}
