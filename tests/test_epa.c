/* EPA internals (src/gjk/epa.c): the scans of its transposed hull copies must find the index the shapes'
 * own scan (pxi_hull_scan) finds, bit for bit, since EPA swaps one for the other on hulls of 32 points or
 * more. Oracle: a double-precision brute force over the same float dot products (the float products and
 * sums, evaluated as the scans evaluate them, then compared exactly), with the lowest index on ties. The
 * penetration depths themselves are checked by the contact suites (contact, contact_accuracy). */
#include <float.h>
#include <stdint.h>
#include <string.h>

#include "gjk/epa_internal.h"
#include "support/rng.h"
#include "test.h"

#define PXT_EPA_MAX_POINTS 1100

/* The scans' dot product: (x dx + y dy) + z dz in float, no fused multiply-add. */
static float scan_dot(const float* p, const float* d)
{
    volatile float xy = p[0] * d[0] + p[1] * d[1]; /* volatile: no contraction whatever the flags */
    return xy + p[2] * d[2];
}

/* Brute force: the first index with the largest scan_dot. */
static int32_t brute_scan(const float* pts, int count, const float* d)
{
    int32_t best = 0;
    float b = scan_dot(pts, d);
    for (int i = 1; i < count; ++i)
    {
        float v = scan_dot(pts + 3 * i, d);
        if (v > b)
        {
            b = v;
            best = i;
        }
    }
    return best;
}

/* Random clouds of every size up to 200 and a few large ones, with exact ties (points on a small
 * integer grid, duplicated points, axis directions, the zero direction): the transposed scan, the
 * shapes' scan and the brute force agree on the index. */
static int soa_scan_matches_hull_scan(void)
{
    static float pts[3 * PXT_EPA_MAX_POINTS];
    static float soa[3 * PXT_EPA_MAX_POINTS];
    px_rng r = px_rng_seeded(0x657061u);
    long checked = 0, ties = 0;
    for (int trial = 0; trial < 600; ++trial)
    {
        int count = trial < 200 ? trial + 1 : (trial % 4 == 0 ? 1024 : 33 + px_rng_int(&r, 600));
        int style = trial % 3; /* 0: uniform, 1: integer grid (ties), 2: duplicates */
        for (int i = 0; i < count; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                pts[3 * i + k] = style == 1 ? (float)(px_rng_int(&r, 5) - 2) : (float)px_rng_range(&r, -3.0, 3.0);
            }
            if (style == 2 && i > 0 && px_rng_unit(&r) < 0.3)
            {
                int j = px_rng_int(&r, i);
                memcpy(pts + 3 * i, pts + 3 * j, 3 * sizeof(float));
            }
        }
        PX_CHECK(pxi_epa_soa_from_packed(pts, count, soa)); /* finite */
        for (int i = 0; i < count; ++i)
        {
            PX_CHECK(soa[i] == pts[3 * i] && soa[count + i] == pts[3 * i + 1] && soa[2 * count + i] == pts[3 * i + 2]);
        }
        /* the scan without the non-finite check, for copies known finite (GJK's, and EPA's large ones) */
        pxi_epa_scan_fn finite_scan = pxi_epa_scan_finite_select(count);
        for (int q = 0; q < 24; ++q)
        {
            float d[3];
            if (q < 6)
            {
                d[0] = d[1] = d[2] = 0.0f;
                d[q / 2] = (q & 1) ? -1.0f : 1.0f;
            }
            else if (q == 6)
            {
                d[0] = d[1] = d[2] = 0.0f;
            }
            else
            {
                for (int k = 0; k < 3; ++k)
                {
                    d[k] = (float)px_rng_range(&r, -1.0, 1.0) * (q % 5 == 0 ? 1.0e-20f : (q % 7 == 0 ? 1.0e6f : 1.0f));
                }
            }
            int32_t expect = brute_scan(pts, count, d);
            int32_t got = pxi_epa_scan_soa(soa, count, d);
            int32_t own = pxi_hull_scan(pts, count, d);
            int32_t unchecked = finite_scan != NULL ? finite_scan(soa, count, d) : expect;
            if (got != expect || own != expect || unchecked != expect)
            {
                fprintf(stderr,
                        "count %d style %d d (%a %a %a): transposed scan %d, unchecked %d, hull scan %d, brute "
                        "force %d\n",
                        count, style, d[0], d[1], d[2], got, unchecked, own, expect);
                return 1;
            }
            /* a tie: another point with the same dot product */
            for (int i = 0; i < count; ++i)
            {
                if (i != expect && scan_dot(pts + 3 * i, d) == scan_dot(pts + 3 * expect, d))
                {
                    ties++;
                    break;
                }
            }
            checked++;
        }
    }
    printf("    %ld scans agree (%ld with tied maxima)\n", checked, ties);
    PX_CHECK(ties > 1000); /* the tie-breaking was exercised */
    return 0;
}

/* A non-finite dot product (an infinite point, or finite ones whose product overflows) is reported, as
 * the shapes' scan reports it, wherever the point sits (vector body or scalar tail). */
static int soa_scan_non_finite(void)
{
    static float pts[3 * 64];
    static float soa[3 * 64];
    for (int count = 1; count <= 64; count += 7)
    {
        for (int where = 0; where < count; where += 5)
        {
            for (int kind = 0; kind < 3; ++kind)
            {
                for (int i = 0; i < 3 * count; ++i)
                {
                    pts[i] = (float)((i * 7) % 11) - 5.0f;
                }
                const float bad = kind == 0 ? INFINITY : (kind == 1 ? NAN : 3.0e38f);
                pts[3 * where] = bad;
                /* the copy reports NaN and Inf itself (then its unchecked scan is never used) */
                PX_CHECK(pxi_epa_soa_from_packed(pts, count, soa) == (kind == 2));
                const float d[3] = { 10.0f, 1.0f, -1.0f }; /* 3e38 * 10 overflows */
                int32_t got = pxi_epa_scan_soa(soa, count, d);
                int32_t own = pxi_hull_scan(pts, count, d);
                PX_CHECK(own == PXI_SUPPORT_NON_FINITE);
                PX_CHECK(got == PXI_SUPPORT_NON_FINITE);
            }
        }
    }
    return 0;
}

int test_epa(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(soa_scan_matches_hull_scan);
    PX_RUN_SUBTEST(soa_scan_non_finite);
    PX_SUITE_END;
}
