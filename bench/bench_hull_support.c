/* Hull support mapping: the SIMD scan (pxi_hull_scan, all vertices) against the direction table
 * (pxi_hull_support_vertex: one cell's eight candidates, a climb over the vertex adjacency where the cell
 * lists more), to choose PX_HULL_HILL_CLIMB_MIN_VERTICES.
 *
 * Hulls of N = 16 .. 4096 vertices: points on an ellipsoid (semi-axes 3, 1.5, 1), all of them hull vertices,
 * built with a table at every size (climb_min_vertices 1). For each hull, the time per support call of
 *   scan        the scan GJK uses (pxi_hull_scan_select(N), resolved once), over random directions;
 *   warm slow   the table, each direction a small random rotation of the last (about 1.5 degrees:
 *               successive GJK iterations, or the same pair one frame later), climbs starting from the
 *               previous call's vertex;
 *   warm fast   the same with about 12 degrees per step;
 *   cold        the table along random directions, climbs with no warm start;
 * and the table's size: cells per cube-face side, the share of its cells that settle a support without a
 * climb, and the share of random directions falling in one. The hull's data is warm in cache throughout
 * (bench_contact's workload 2 has the cold case). Directions are precomputed (8192 per sequence, cycled)
 * so only the support call is timed; each figure is the median of 7 runs of about 20 ms. Timing only: not
 * a test, nothing is asserted.
 *
 * Build: cmake -DPROXIMA_BUILD_BENCH=ON ..., then run bench/bench_hull_support. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime under -std=c11 */

#include "shapes/hull_internal.h"
#include "shapes/support_internal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DIRECTIONS 8192
#define RUNS 7

static uint64_t rng_state = 0x2545F4914F6CDD1Dull;

static double rng_unit(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static double rng_normal(void)
{
    double u = rng_unit(), v = rng_unit();
    return sqrt(-2.0 * log(u + 1e-300)) * cos(6.283185307179586 * v);
}

static void random_unit(double v[3])
{
    double n;
    do
    {
        v[0] = rng_normal();
        v[1] = rng_normal();
        v[2] = rng_normal();
        n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    } while (n < 1e-9);
    v[0] /= n;
    v[1] /= n;
    v[2] /= n;
}

/* Random directions, or a random walk on the sphere of about `step` radians per direction. */
static void make_directions(float* dirs, double step)
{
    double d[3];
    random_unit(d);
    for (int i = 0; i < DIRECTIONS; ++i)
    {
        if (step > 0.0)
        {
            double g[3];
            random_unit(g);
            /* the tangential part of g, scaled to the step */
            double along = g[0] * d[0] + g[1] * d[1] + g[2] * d[2];
            for (int k = 0; k < 3; ++k)
            {
                d[k] += step * (g[k] - along * d[k]);
            }
            double n = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            for (int k = 0; k < 3; ++k)
            {
                d[k] /= n;
            }
        }
        else
        {
            random_unit(d);
        }
        for (int k = 0; k < 3; ++k)
        {
            dirs[3 * i + k] = (float)d[k];
        }
    }
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

typedef enum mode
{
    MODE_SCAN,
    MODE_WARM,
    MODE_COLD,
} mode;

static volatile int32_t sink;

/* Nanoseconds per support call: median of RUNS runs of `calls` calls each. */
static double time_support(const px_hull* hull, const float* dirs, mode m, int calls)
{
    pxi_hull_scan_fn scan = pxi_hull_scan_select(hull->vertex_count);
    double runs[RUNS];
    for (int r = 0; r < RUNS; ++r)
    {
        int32_t v = -1, acc = 0;
        double t0 = now_ns();
        for (int i = 0; i < calls; ++i)
        {
            const float* d = dirs + 3 * (i & (DIRECTIONS - 1));
            if (m == MODE_SCAN)
            {
                acc += scan(hull->vertices, hull->vertex_count, d);
            }
            else
            {
                /* v: the record the next climb starts from (as GJK keeps it), -1 after a settled lookup */
                vec3 p;
                int32_t start = m == MODE_WARM ? v : -1;
                acc += pxi_hull_support_vertex(hull, pxi_hull_cell(hull, d), d, &start, p);
                v = start;
            }
        }
        runs[r] = (now_ns() - t0) / calls;
        sink = acc;
    }
    /* median */
    for (int i = 1; i < RUNS; ++i)
    {
        for (int j = i; j > 0 && runs[j - 1] > runs[j]; --j)
        {
            double t = runs[j];
            runs[j] = runs[j - 1];
            runs[j - 1] = t;
        }
    }
    return runs[RUNS / 2];
}

/* Calls for about 20 ms at the given cost estimate. */
static int calls_for(double ns)
{
    double c = 2e7 / (ns > 1.0 ? ns : 1.0);
    return c < 20000.0 ? 20000 : (c > 2e7 ? 20000000 : (int)c);
}

/* Share of the calls along these directions that the direction table settles (no climb). */
static double settled_share(const px_hull* hull, const float* dirs)
{
    int settled = 0;
    for (int i = 0; i < DIRECTIONS; ++i)
    {
        settled += pxi_hull_cell_settles(pxi_hull_cell(hull, dirs + 3 * i));
    }
    return (double)settled / DIRECTIONS;
}

int main(void)
{
    static const int sizes[] = { 16, 32, 48, 64, 96, 128, 256, 1024, 4096 };
    const int count = (int)(sizeof(sizes) / sizeof(sizes[0]));
    float* random_dirs = malloc(3 * sizeof(float) * DIRECTIONS);
    float* slow_dirs = malloc(3 * sizeof(float) * DIRECTIONS);
    float* fast_dirs = malloc(3 * sizeof(float) * DIRECTIONS);
    if (random_dirs == NULL || slow_dirs == NULL || fast_dirs == NULL)
    {
        return 1;
    }
    make_directions(random_dirs, 0.0);
    make_directions(slow_dirs, 0.025);
    make_directions(fast_dirs, 0.2);
    printf("hull support: ns per call (median of %d runs); the direction table's cells per side (k), the share\n"
           "of its cells that settle the support without a climb and the share of random directions that fall in one\n",
           RUNS);
    printf("%6s %6s %5s | %8s | %8s %8s %8s | %3s %6s %6s | %s\n", "N", "verts", "deg", "scan", "warm slow",
           "warm fast", "cold", "k", "cells", "dirs", "scan / warm slow, warm fast, cold");
    for (int s = 0; s < count; ++s)
    {
        int n = sizes[s];
        float* pts = malloc(3 * sizeof(float) * (size_t)n);
        if (pts == NULL)
        {
            return 1;
        }
        for (int i = 0; i < n; ++i)
        {
            double v[3];
            random_unit(v);
            pts[3 * i] = (float)(3.0 * v[0]);
            pts[3 * i + 1] = (float)(1.5 * v[1]);
            pts[3 * i + 2] = (float)(1.0 * v[2]);
        }
        px_hull* hull = NULL;
        px_hull_def def = px_hull_default_def();
        def.climb_min_vertices = 1; /* a full direction table at every size */
        px_status st = px_hull_create(pts, n, &def, &hull);
        if (PX_FAILED(st))
        {
            fprintf(stderr, "px_hull_create failed: %s\n", px_status_string(st));
            return 1;
        }
        double deg = 2.0 * hull->edge_count / hull->vertex_count;
        double scan = time_support(hull, random_dirs, MODE_SCAN, calls_for(1.0 * n));
        double slow = time_support(hull, slow_dirs, MODE_WARM, calls_for(30.0));
        double fast = time_support(hull, fast_dirs, MODE_WARM, calls_for(60.0));
        double cold = time_support(hull, random_dirs, MODE_COLD, calls_for(10.0 * sqrt((double)n)));
        int settled_cells = 0, cells = 6 * hull->cell_k * hull->cell_k;
        for (int c = 0; c < cells; ++c)
        {
            settled_cells += pxi_hull_cell_settles(&hull->cells[c]);
        }
        printf("%6d %6d %5.2f | %8.1f | %8.1f %8.1f %8.1f | %3d %5.1f%% %5.1f%% | %5.2f %5.2f %5.2f\n", n,
               hull->vertex_count, deg, scan, slow, fast, cold, hull->cell_k, 100.0 * settled_cells / cells,
               100.0 * settled_share(hull, random_dirs), scan / slow, scan / fast, scan / cold);
        px_hull_destroy(hull);
        free(pts);
    }
    free(random_dirs);
    free(slow_dirs);
    free(fast_dirs);
    return 0;
}
