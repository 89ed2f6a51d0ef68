/* Double-precision quaternions (x, y, z, w) for the oracles of the unit suites (cast, gjk, manifold):
 * construction, product and rotation, independent of the library's float code. */
#pragma once

#include <math.h>
#include <string.h>

/* Rotation by angle about the axis (ax, ay, az), which need not be unit. */
static inline void dquat_axis_angle(double ax, double ay, double az, double angle, double q[4])
{
    double n = sqrt(ax * ax + ay * ay + az * az);
    double s = sin(0.5 * angle) / n;
    q[0] = ax * s;
    q[1] = ay * s;
    q[2] = az * s;
    q[3] = cos(0.5 * angle);
}

/* a * b: b first, then a. d may alias a or b. */
static inline void dquat_mul(const double a[4], const double b[4], double d[4])
{
    double r[4];
    r[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    r[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    r[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    r[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    memcpy(d, r, sizeof(r));
}

/* d = q v q* for a unit q. */
static inline void dquat_rotate(const double q[4], const double v[3], double d[3])
{
    double u[3] = { q[0], q[1], q[2] }, w = q[3];
    double t[3] = { 2 * (u[1] * v[2] - u[2] * v[1]), 2 * (u[2] * v[0] - u[0] * v[2]), 2 * (u[0] * v[1] - u[1] * v[0]) };
    double ut[3] = { u[1] * t[2] - u[2] * t[1], u[2] * t[0] - u[0] * t[2], u[0] * t[1] - u[1] * t[0] };
    for (int i = 0; i < 3; ++i)
    {
        d[i] = v[i] + w * t[i] + ut[i];
    }
}

/* Rotation taking unit vector u to unit vector v. */
static inline void dquat_from_to(const double u[3], const double v[3], double q[4])
{
    double c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
    double d = u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    if (d < -0.999999)
    {
        /* opposite: half a turn about an axis orthogonal to u */
        double ax[3] = { 1, 0, 0 };
        if (fabs(u[0]) > 0.9)
        {
            ax[0] = 0;
            ax[1] = 1;
        }
        double o[3] = { u[1] * ax[2] - u[2] * ax[1], u[2] * ax[0] - u[0] * ax[2], u[0] * ax[1] - u[1] * ax[0] };
        dquat_axis_angle(o[0], o[1], o[2], 3.14159265358979323846, q);
        return;
    }
    q[0] = c[0];
    q[1] = c[1];
    q[2] = c[2];
    q[3] = 1.0 + d;
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; ++i)
    {
        q[i] /= n;
    }
}
