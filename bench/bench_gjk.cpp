// bench_gjk: GJK distance and boolean overlap, proxima against Bullet and libccd, one process, same inputs.
//
// What is measured
//   1. hull distance: pairs of convex hulls of N = 8 ... 1024 points (random points on the surface of
//      random ellipsoids, so every point is a hull vertex), randomly rotated and placed. About 80% of the
//      pairs are separated by an axis gap spread log-uniformly over [1e-3, 2] x size, the rest overlap
//      (B's centroid is placed inside A). Rows:
//        proxima px_gjk_distance_world (world poses in) and px_gjk_distance (relative pose precomputed),
//        Bullet btGjkPairDetector (btVoronoiSimplexSolver, no penetration solver: on overlapping pairs it
//        only runs GJK and bails out, as proxima reports distance 0 there) with btPointCollector,
//        Bullet btGjkEpaSolver2::Distance (guess = centre offset A - B).
//      Every hull is a btConvexHullShape with margin 0.
//   2. boolean overlap, same pairs: proxima px_gjk_overlap_world against libccd ccdGJKIntersect and
//      ccdMPRIntersect. libccd needs a support function from the caller: the one below rotates the
//      direction into the local frame, scans the points (a plain double loop) and maps the winner back.
//   3. warm-started repeats: every pair moves along a smooth path (B translates by 1e-3 x size and turns by
//      0.01 rad per step, 100 steps). proxima px_gjk_distance with one px_simplex_cache per pair kept
//      across steps ("warm"), the same without a cache ("cold"), and Bullet btGjkPairDetector (Bullet keeps
//      no state across queries: the detector resets its axis on every call). The proxima rows include
//      px_transform_inv_mul, since a caller holding world poses has to do it.
//
// How
//   Inputs come from splitmix64 with a fixed seed, so every run and every library sees the same pairs.
//   A batch is one pass over the 256 pairs (256 queries) timed with clock_gettime(CLOCK_MONOTONIC); the
//   libraries take turns batch by batch, in an order that rotates from round to round (so a clock-speed
//   drift hits all of them alike and none always runs first, on a cache the others filled); the reported
//   figure is the median over the batches of the batch time / 256. Ratios are paired: the median over the
//   rounds of (peer batch time / proxima batch time in the same round), which cancels drifts of the machine's
//   speed that outlast a round (so a ratio is not exactly the quotient of the two medians). Results go to a
//   volatile sink so the work cannot be optimised away. Nothing is pinned.
//   Before timing, one untimed pass checks agreement. For separated pairs the true distance is bracketed
//   in double precision: a lower bound from the gap of the hulls along each library's normal, an upper
//   bound from the distance between witness points (proxima's and btGjkEpa2's); a result outside that
//   bracket by more than 1e-4 x size is counted as wrong, whoever produced it.
//
// Usage: bench_gjk [--quick] [--csv FILE]
#include "proxima/proxima.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#if PXB_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#endif

#if PXB_HAVE_CCD
#include <ccd/ccd.h>
#endif

namespace
{

// ------------------------------------------------------------------------------------------------------
// Settings
// ------------------------------------------------------------------------------------------------------

const int kSizes[] = { 8, 16, 64, 256, 1024 };
const int kPairs = 256;                     // distinct pairs per N (one batch = one pass over them)
const double kOverlapFraction = 0.2;        // share of pairs built to overlap
const double kAgreeTolerance = 1.0e-4;      // disagreement threshold, times the pair's size
const int kWarmSteps = 100;                 // steps of the warm-start path
const double kWarmStepMove = 1.0e-3;        // translation per step, times the pair's size
const double kWarmStepTurn = 0.01;          // rotation per step [rad]
const uint64_t kSeed = 0x70726f78696d61ULL; // "proxima"
const double kPi = 3.14159265358979323846;

struct Options
{
    bool quick = false;
    std::string csv_path;
    int batches = 101;    // timed batches per row and N (workloads 1 and 2)
    int warm_repeats = 5; // times the 100-step path is replayed (workload 3)
};

#include "bench_common.hpp"

// ------------------------------------------------------------------------------------------------------
// Results
// ------------------------------------------------------------------------------------------------------

struct DistanceRow
{
    int n = 0;
    double px_world = NAN, px_rel = NAN; // median ns per query
    Timing bt_gjk, bt_epa;               // against px_world
    Timing bt_gjk_rel, bt_epa_rel;       // the same peers against px_rel
    double px_iters_mean = 0, bt_iters_mean = 0;
    int px_iters_max = 0;
    int separated = 0, overlapping = 0;
    int px_not_ok = 0;                                    // status != PX_OK (warnings)
    double world_vs_rel = 0;                              // max |d_world - d_rel| / size
    double max_diff_gjk = 0, max_diff_epa = 0;            // max |d_px - d_peer| / size, separated pairs
    int diff_gjk = 0, diff_epa = 0;                       // counts > kAgreeTolerance * size
    double bracket_width = 0;                             // max (upper - lower) / size
    int px_outside = 0, gjk_outside = 0, epa_outside = 0; // results outside the reference bracket
    double px_outside_max = 0, gjk_outside_max = 0, epa_outside_max = 0;
    int px_false_gap = 0, gjk_false_gap = 0, epa_false_gap = 0; // overlapping pairs reported separated
};

struct OverlapRow
{
    int n = 0;
    double px = NAN;
    Timing ccd_gjk, ccd_mpr;
    int wrong_px = 0, wrong_gjk = 0, wrong_mpr = 0; // answers differing from the construction
};

struct WarmRow
{
    int n = 0;
    double px_warm = NAN;
    Timing px_cold, bt_cold; // against px_warm
    double iters_warm = 0, iters_cold = 0;
    int iters_warm_max = 0;
    double max_warm_vs_cold = 0; // max |d_warm - d_cold| / size
    int warm_vs_cold = 0;        // count > kAgreeTolerance * size
    int bt_disagree = 0;         // Bullet vs proxima cold, both separated, > kAgreeTolerance * size
    int queries = 0;
};

void note_outside(double d, double lo, double hi, double size, int* count, double* worst)
{
    double err = std::max(0.0, std::max(lo - d, d - hi)) / size;
    *worst = std::max(*worst, err);
    *count += err > kAgreeTolerance;
}

// ------------------------------------------------------------------------------------------------------
// Workloads 1 and 2
// ------------------------------------------------------------------------------------------------------

void run_hull_workloads(const PairSet& s, const Options& opt, DistanceRow* drow, OverlapRow* orow)
{
    const int np = (int)s.pairs.size();
    drow->n = orow->n = s.n;
#if PXB_HAVE_BULLET
    std::unique_ptr<BulletSet> bt = make_bullet_set(s);
#endif
#if PXB_HAVE_CCD
    std::vector<CcdHull> ccd_hulls;
    for (int i = 0; i < np; ++i)
    {
        ccd_hulls.push_back(make_ccd_hull(s.hulls[2 * (size_t)i], s.pairs[(size_t)i].ta));
        ccd_hulls.push_back(make_ccd_hull(s.hulls[2 * (size_t)i + 1], s.pairs[(size_t)i].tb));
    }
    const ccd_t ccd = make_ccd_config();
#endif

    // --- agreement (untimed) ---
    long iters_sum = 0, bt_iters_sum = 0;
    for (int i = 0; i < np; ++i)
    {
        const Pair& p = s.pairs[(size_t)i];
        const Hull& ha = s.hulls[2 * (size_t)i];
        const Hull& hb = s.hulls[2 * (size_t)i + 1];
        px_gjk_result rw, rr;
        px_status st = px_gjk_distance_world(&s.shapes[2 * (size_t)i], &p.ta, &s.shapes[2 * (size_t)i + 1],
                                             &p.tb, nullptr, &rw);
        drow->px_not_ok += st != PX_OK;
        px_relative_distance(s, i, &rr);
        iters_sum += rw.iterations;
        drow->px_iters_max = std::max(drow->px_iters_max, rw.iterations);
        drow->world_vs_rel =
            std::max(drow->world_vs_rel, std::fabs((double)rw.distance - rr.distance) / p.size);

        double lower = axis_gap(ha, p.ta, hb, p.tb, v3(rw.normal));
        double upper = length(v3(rw.point_b) - v3(rw.point_a));
#if PXB_HAVE_BULLET
        BulletGjkOut g = bullet_gjk(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                    bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &bt->solver);
        bt_iters_sum += g.iterations;
        btGjkEpaSolver2::sResults e;
        bool e_separated = bullet_epa2_distance(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                                bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &e);
        if (g.has_result)
        {
            lower =
                std::max(lower, axis_gap(ha, p.ta, hb, p.tb, { g.normal.x(), g.normal.y(), g.normal.z() }));
        }
        if (e_separated)
        {
            lower =
                std::max(lower, axis_gap(ha, p.ta, hb, p.tb, { e.normal.x(), e.normal.y(), e.normal.z() }));
            V3 wa = { e.witnesses[0].x(), e.witnesses[0].y(), e.witnesses[0].z() };
            V3 wb = { e.witnesses[1].x(), e.witnesses[1].y(), e.witnesses[1].z() };
            upper = std::min(upper, length(wb - wa));
        }
#endif
        if (p.overlapping)
        {
            drow->overlapping++;
            drow->px_false_gap += rw.distance > 0.0f;
#if PXB_HAVE_BULLET
            drow->gjk_false_gap += g.has_result && g.distance > 0.0f;
            drow->epa_false_gap += e_separated;
#endif
            continue;
        }
        drow->separated++;
        drow->bracket_width = std::max(drow->bracket_width, (upper - lower) / p.size);
        note_outside(rw.distance, lower, upper, p.size, &drow->px_outside, &drow->px_outside_max);
#if PXB_HAVE_BULLET
        double dg = g.has_result ? g.distance : 0.0;
        double de = e_separated ? e.distance : 0.0;
        double diff_g = std::fabs(rw.distance - dg) / p.size, diff_e = std::fabs(rw.distance - de) / p.size;
        drow->max_diff_gjk = std::max(drow->max_diff_gjk, diff_g);
        drow->max_diff_epa = std::max(drow->max_diff_epa, diff_e);
        drow->diff_gjk += diff_g > kAgreeTolerance;
        drow->diff_epa += diff_e > kAgreeTolerance;
        note_outside(dg, lower, upper, p.size, &drow->gjk_outside, &drow->gjk_outside_max);
        note_outside(de, lower, upper, p.size, &drow->epa_outside, &drow->epa_outside_max);
#endif
    }
    drow->px_iters_mean = (double)iters_sum / np;
    drow->bt_iters_mean = (double)bt_iters_sum / np;

    for (int i = 0; i < np; ++i)
    {
        bool truth = s.pairs[(size_t)i].overlapping;
        orow->wrong_px += px_world_overlap(s, i) != truth;
#if PXB_HAVE_CCD
        orow->wrong_gjk +=
            (ccdGJKIntersect(&ccd_hulls[2 * (size_t)i], &ccd_hulls[2 * (size_t)i + 1], &ccd) != 0) != truth;
        orow->wrong_mpr +=
            (ccdMPRIntersect(&ccd_hulls[2 * (size_t)i], &ccd_hulls[2 * (size_t)i + 1], &ccd) != 0) != truth;
#endif
    }

    // --- timing, workload 1 ---
    auto q_px_world = [&](int i)
    {
        px_gjk_result r;
        return px_world_distance(s, i, &r);
    };
    auto q_px_rel = [&](int i)
    {
        px_gjk_result r;
        return px_relative_distance(s, i, &r);
    };
#if PXB_HAVE_BULLET
    auto q_bt_gjk = [&](int i)
    {
        return bullet_gjk(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                          bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &bt->solver)
            .distance;
    };
    auto q_bt_epa = [&](int i)
    {
        btGjkEpaSolver2::sResults e;
        bool sep = bullet_epa2_distance(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                        bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &e);
        return sep ? e.distance : 0.0f;
    };
    auto t1 = measure_interleaved(opt.batches, np, q_px_world, q_px_rel, q_bt_gjk, q_bt_epa);
    drow->bt_gjk = timing_of(t1[2], t1[0]);
    drow->bt_epa = timing_of(t1[3], t1[0]);
    drow->bt_gjk_rel = timing_of(t1[2], t1[1]);
    drow->bt_epa_rel = timing_of(t1[3], t1[1]);
#else
    auto t1 = measure_interleaved(opt.batches, np, q_px_world, q_px_rel);
#endif
    drow->px_world = median(t1[0]);
    drow->px_rel = median(t1[1]);

    // --- timing, workload 2 ---
    auto q_px_overlap = [&](int i) { return px_world_overlap(s, i); };
#if PXB_HAVE_CCD
    auto q_ccd_gjk = [&](int i)
    { return ccdGJKIntersect(&ccd_hulls[2 * (size_t)i], &ccd_hulls[2 * (size_t)i + 1], &ccd); };
    auto q_ccd_mpr = [&](int i)
    { return ccdMPRIntersect(&ccd_hulls[2 * (size_t)i], &ccd_hulls[2 * (size_t)i + 1], &ccd); };
    auto t2 = measure_interleaved(opt.batches, np, q_px_overlap, q_ccd_gjk, q_ccd_mpr);
    orow->ccd_gjk = timing_of(t2[1], t2[0]);
    orow->ccd_mpr = timing_of(t2[2], t2[0]);
#else
    auto t2 = measure_interleaved(opt.batches, np, q_px_overlap);
#endif
    orow->px = median(t2[0]);
}

// ------------------------------------------------------------------------------------------------------
// Workload 3: warm-started repeats along a path
// ------------------------------------------------------------------------------------------------------

void run_warm_workload(const PairSet& s, const Options& opt, WarmRow* row)
{
    const int np = (int)s.pairs.size();
    row->n = s.n;
    // Poses of B at every step, precomputed (untimed): tb[step * np + i].
    std::vector<px_transform> tb((size_t)kWarmSteps * np);
    for (int step = 0; step < kWarmSteps; ++step)
    {
        for (int i = 0; i < np; ++i)
        {
            tb[(size_t)step * np + i] = warm_pose_b(s.pairs[(size_t)i], step);
        }
    }
#if PXB_HAVE_BULLET
    std::unique_ptr<BulletSet> bt = make_bullet_set(s);
    std::vector<btTransform> bt_tb;
    for (const px_transform& t : tb)
    {
        bt_tb.push_back(to_bullet(t));
    }
#endif
    std::vector<px_simplex_cache> caches((size_t)np);
    auto reset_caches = [&]
    {
        const px_simplex_cache empty = PX_SIMPLEX_CACHE_INIT;
        std::fill(caches.begin(), caches.end(), empty);
    };

    // --- agreement (untimed): one pass along the path ---
    reset_caches();
    long warm_sum = 0, cold_sum = 0;
    for (int step = 0; step < kWarmSteps; ++step)
    {
        for (int i = 0; i < np; ++i)
        {
            const Pair& p = s.pairs[(size_t)i];
            const px_transform& b_pose = tb[(size_t)step * np + i];
            px_gjk_result warm, cold;
            px_path_distance(&s.shapes[2 * (size_t)i], p.ta, &s.shapes[2 * (size_t)i + 1], b_pose,
                             &caches[(size_t)i], &warm);
            px_path_distance(&s.shapes[2 * (size_t)i], p.ta, &s.shapes[2 * (size_t)i + 1], b_pose, nullptr,
                             &cold);
            warm_sum += warm.iterations;
            cold_sum += cold.iterations;
            row->iters_warm_max = std::max(row->iters_warm_max, warm.iterations);
            double diff = std::fabs((double)warm.distance - cold.distance) / p.size;
            row->max_warm_vs_cold = std::max(row->max_warm_vs_cold, diff);
            row->warm_vs_cold += diff > kAgreeTolerance;
#if PXB_HAVE_BULLET
            BulletGjkOut g =
                bullet_gjk(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                           bt->shapes[2 * (size_t)i + 1].get(), bt_tb[(size_t)step * np + i], &bt->solver);
            if (g.has_result && g.distance > 0.0f && cold.distance > 0.0f)
            {
                row->bt_disagree += std::fabs((double)g.distance - cold.distance) / p.size > kAgreeTolerance;
            }
#endif
            row->queries++;
        }
    }
    row->iters_warm = (double)warm_sum / row->queries;
    row->iters_cold = (double)cold_sum / row->queries;

    // --- timing: one batch = all pairs at one step; the caches carry from step to step ---
    std::vector<double> warm_ns, cold_ns, bt_ns;
    for (int rep = 0; rep < opt.warm_repeats; ++rep)
    {
        reset_caches();
        for (int step = 0; step < kWarmSteps; ++step)
        {
            const px_transform* b_poses = &tb[(size_t)step * np];
            auto q_warm = [&](int i)
            {
                px_gjk_result r;
                return px_path_distance(&s.shapes[2 * (size_t)i], s.pairs[(size_t)i].ta,
                                        &s.shapes[2 * (size_t)i + 1], b_poses[i], &caches[(size_t)i], &r);
            };
            auto q_cold = [&](int i)
            {
                px_gjk_result r;
                return px_path_distance(&s.shapes[2 * (size_t)i], s.pairs[(size_t)i].ta,
                                        &s.shapes[2 * (size_t)i + 1], b_poses[i], nullptr, &r);
            };
            // the three rows take turns, in an order rotating with the step
            for (int j = 0; j < 3; ++j)
            {
                switch ((j + step) % 3)
                {
                case 0:
                    warm_ns.push_back(time_batch(np, q_warm));
                    break;
                case 1:
                    cold_ns.push_back(time_batch(np, q_cold));
                    break;
                default:
#if PXB_HAVE_BULLET
                {
                    const btTransform* bt_poses = &bt_tb[(size_t)step * np];
                    bt_ns.push_back(time_batch(np,
                                               [&](int i)
                                               {
                                                   return bullet_gjk(bt->shapes[2 * (size_t)i].get(),
                                                                     bt->ta[(size_t)i],
                                                                     bt->shapes[2 * (size_t)i + 1].get(),
                                                                     bt_poses[i], &bt->solver)
                                                       .distance;
                                               }));
                }
#endif
                break;
                }
            }
        }
    }
    row->px_warm = median(warm_ns);
    row->px_cold = timing_of(cold_ns, warm_ns);
    row->bt_cold = timing_of(bt_ns, warm_ns);
}

// ------------------------------------------------------------------------------------------------------
// Report
// ------------------------------------------------------------------------------------------------------

std::string fmt_ns(double ns)
{
    char buf[32];
    if (std::isnan(ns))
    {
        return "skipped";
    }
    std::snprintf(buf, sizeof buf, ns < 100.0 ? "%.1f" : "%.0f", ns);
    return buf;
}

std::string fmt_ratio(double ratio)
{
    char buf[32];
    if (std::isnan(ratio))
    {
        return "-";
    }
    std::snprintf(buf, sizeof buf, "%.2fx", ratio);
    return buf;
}

struct Csv
{
    FILE* f = nullptr;
    void row(const char* workload, int n, const char* peer, Timing peer_t, double proxima_ns)
    {
        if (f != nullptr && !std::isnan(peer_t.ns))
        {
            std::fprintf(f, "%s,%d,%s,%.2f,%.2f,%.4f\n", workload, n, peer, peer_t.ns, proxima_ns,
                         peer_t.ratio);
        }
    }
};

void print_tables(const std::vector<DistanceRow>& drows, const std::vector<OverlapRow>& orows,
                  const std::vector<WarmRow>& wrows, Csv* csv)
{
    std::printf(
        "\n### 1. Hull distance (%d pairs per N; median ns per query; ratio = peer / proxima, paired, "
        "against proxima world / proxima relative pose)\n\n",
        kPairs);
    std::printf("| N | proxima world | proxima rel. pose | Bullet btGjkPairDetector | ratio world / rel | "
                "Bullet btGjkEpa2 Distance | ratio world / rel | proxima iters mean / max | Bullet GJK iters "
                "mean |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const DistanceRow& r : drows)
    {
        std::printf("| %d | %s | %s | %s | %s / %s | %s | %s / %s | %.1f / %d | %.1f |\n", r.n,
                    fmt_ns(r.px_world).c_str(), fmt_ns(r.px_rel).c_str(), fmt_ns(r.bt_gjk.ns).c_str(),
                    fmt_ratio(r.bt_gjk.ratio).c_str(), fmt_ratio(r.bt_gjk_rel.ratio).c_str(),
                    fmt_ns(r.bt_epa.ns).c_str(), fmt_ratio(r.bt_epa.ratio).c_str(),
                    fmt_ratio(r.bt_epa_rel.ratio).c_str(), r.px_iters_mean, r.px_iters_max, r.bt_iters_mean);
        csv->row("hull_distance", r.n, "bullet_gjk_pair_detector", r.bt_gjk, r.px_world);
        csv->row("hull_distance", r.n, "bullet_gjkepa2_distance", r.bt_epa, r.px_world);
        csv->row("hull_distance_relpose", r.n, "bullet_gjk_pair_detector", r.bt_gjk_rel, r.px_rel);
        csv->row("hull_distance_relpose", r.n, "bullet_gjkepa2_distance", r.bt_epa_rel, r.px_rel);
    }

    std::printf(
        "\nAgreement on the separated pairs (distances relative to the pair's size S; threshold %.0e S).\n"
        "\"outside\" = result outside the double-precision bracket [best axis gap, best witness distance].\n"
        "\"false gap\" = overlapping pair reported with a positive distance / as separated.\n\n",
        kAgreeTolerance);
    std::printf(
        "| N | separated / overlapping | max \\|px - btGjk\\| | # > thr | max \\|px - btEpa2\\| | # > thr | "
        "bracket width max | outside: px / btGjk / btEpa2 | worst outside: px / btGjk / btEpa2 | "
        "false gap: px / btGjk / btEpa2 | px status != OK | max \\|world - rel\\| |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const DistanceRow& r : drows)
    {
        std::printf("| %d | %d / %d | %.1e | %d | %.1e | %d | %.1e | %d / %d / %d | %.1e / %.1e / %.1e | %d "
                    "/ %d / %d | "
                    "%d | %.1e |\n",
                    r.n, r.separated, r.overlapping, r.max_diff_gjk, r.diff_gjk, r.max_diff_epa, r.diff_epa,
                    r.bracket_width, r.px_outside, r.gjk_outside, r.epa_outside, r.px_outside_max,
                    r.gjk_outside_max, r.epa_outside_max, r.px_false_gap, r.gjk_false_gap, r.epa_false_gap,
                    r.px_not_ok, r.world_vs_rel);
    }

    std::printf(
        "\n### 2. Boolean overlap (same pairs; median ns per query; ratio = peer / proxima, paired)\n\n");
    std::printf("| N | proxima px_gjk_overlap_world | libccd ccdGJKIntersect | ratio | libccd "
                "ccdMPRIntersect | ratio | "
                "wrong answers: px / ccdGJK / ccdMPR |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const OverlapRow& r : orows)
    {
        std::printf("| %d | %s | %s | %s | %s | %s | %d / %d / %d |\n", r.n, fmt_ns(r.px).c_str(),
                    fmt_ns(r.ccd_gjk.ns).c_str(), fmt_ratio(r.ccd_gjk.ratio).c_str(),
                    fmt_ns(r.ccd_mpr.ns).c_str(), fmt_ratio(r.ccd_mpr.ratio).c_str(), r.wrong_px, r.wrong_gjk,
                    r.wrong_mpr);
        csv->row("overlap", r.n, "ccd_gjk_intersect", r.ccd_gjk, r.px);
        csv->row("overlap", r.n, "ccd_mpr_intersect", r.ccd_mpr, r.px);
    }

    std::printf("\n### 3. Warm-started repeats (%d pairs x %d steps; median ns per query; ratio = x / "
                "proxima warm, paired per step)\n\n",
                kPairs, kWarmSteps);
    std::printf("| N | proxima warm | proxima cold | ratio | Bullet btGjkPairDetector (cold) | ratio | "
                "iters warm mean / max | iters cold mean | max \\|warm - cold\\| | # > thr | # Bullet vs px "
                "> thr |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const WarmRow& r : wrows)
    {
        std::printf("| %d | %s | %s | %s | %s | %s | %.2f / %d | %.2f | %.1e | %d | %d |\n", r.n,
                    fmt_ns(r.px_warm).c_str(), fmt_ns(r.px_cold.ns).c_str(),
                    fmt_ratio(r.px_cold.ratio).c_str(), fmt_ns(r.bt_cold.ns).c_str(),
                    fmt_ratio(r.bt_cold.ratio).c_str(), r.iters_warm, r.iters_warm_max, r.iters_cold,
                    r.max_warm_vs_cold, r.warm_vs_cold, r.bt_disagree);
        csv->row("warm_repeat", r.n, "bullet_gjk_pair_detector_cold", r.bt_cold, r.px_warm);
        csv->row("warm_repeat", r.n, "proxima_cold", r.px_cold, r.px_warm);
    }
}

int usage(const char* argv0, int code)
{
    std::fprintf(code ? stderr : stdout, "usage: %s [--quick] [--csv FILE]\n", argv0);
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    bool help = false;
    if (!parse_options(argc, argv, opt.quick, opt.csv_path, nullptr, [&](int& i) {
            help = std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
            return false;
        }))
    {
        return usage(argv[0], help ? 0 : 2);
    }
    if (opt.quick)
    {
        opt.batches = 7;
        opt.warm_repeats = 1;
    }

    Csv csv;
    if (!open_csv(opt.csv_path, "workload,N,peer,peer_ns,proxima_ns,ratio", &csv.f))
    {
        return 1;
    }

    const std::string command = command_line(argc, argv);
    char date[64];
    time_t now = time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));

    std::printf("## proxima GJK benchmark\n\n");
    std::printf("- command: `%s`\n", command.c_str());
    std::printf("- machine: %s\n", machine_description().c_str());
    std::printf("- /proc/loadavg at start: %s\n", load_average().c_str());
    std::printf("- date: %s\n", date);
    std::printf("- compiler: " __VERSION__ " (bench: -O2 -ffp-contract=off)\n");
    std::printf("- proxima %d.%d.%d, float\n", PX_VERSION_MAJOR, PX_VERSION_MINOR, PX_VERSION_PATCH);
#if PXB_HAVE_BULLET
    std::printf("- Bullet %d (%s precision)\n", btGetVersion(), sizeof(btScalar) == 8 ? "double" : "single");
#else
    std::printf("- Bullet: not found at configure time, its rows are skipped\n");
#endif
#if PXB_HAVE_CCD
    std::printf("- libccd (%s precision), max_iterations = 1000\n",
                sizeof(ccd_real_t) == 8 ? "double" : "single");
#else
    std::printf("- libccd: not found at configure time, its rows are skipped\n");
#endif
    std::printf("- %d batches of %d queries per row (%s), medians; warm path replayed %d time(s)\n",
                opt.batches, kPairs, opt.quick ? "quick" : "full", opt.warm_repeats);

    std::vector<DistanceRow> drows;
    std::vector<OverlapRow> orows;
    std::vector<WarmRow> wrows;
    for (int n : kSizes)
    {
        std::fprintf(stderr, "N = %d ...\n", n);
        PairSet set = make_pair_set(n);
        DistanceRow d;
        OverlapRow o;
        WarmRow w;
        run_hull_workloads(set, opt, &d, &o);
        run_warm_workload(set, opt, &w);
        drows.push_back(d);
        orows.push_back(o);
        wrows.push_back(w);
    }
    std::printf("- /proc/loadavg at end: %s\n", load_average().c_str());
    print_tables(drows, orows, wrows, &csv);
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses during timing\n", g_proxima_errors);
    }
    if (csv.f != nullptr)
    {
        std::fclose(csv.f);
    }
    return 0;
}
