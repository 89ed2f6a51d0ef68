// proxima contact benchmark: the same deterministic inputs through proxima and the Debian peers in one
// process, reporting the median time per query and the paired ratio peer / proxima (higher is better for
// proxima).
//
// Workloads (issue 3):
//   1. Penetration depth on overlapping hull pairs, N = 8 ... 1024 points on ellipsoids, deep (B's centroid
//      inside A) and, in 1b, resting contacts (at most 5% of the size deep, N = 8 ... 256), each as point
//      clouds and as built hulls (small built pairs take the separating-axis test):
//      px_contact_world against libccd ccdGJKPenetration and ccdMPRPenetration and Bullet
//      btGjkEpaSolver2::Penetration. Accuracy: every library's normal n gives an upper bound of the true
//      depth, the overlap of the hulls along n (computed in double); the smallest of those bounds, o_min,
//      is what each depth is compared with. A depth more than 1e-3 S below o_min is "shallow" (libccd is
//      known to report too small depths), one above o_min is impossible ("deep").
//   2. GJK distance on 32- to 1024-vertex hulls: proxima with a built hull (direction table) and with the raw
//      point cloud (SIMD scan) against Bullet btGjkPairDetector and btGjkEpaSolver2::Distance, cycling over
//      256 pairs (cold caches) and repeating one pair 64 times (warm caches).
//   3. Ray casts against hulls (N = 64, 256): px_ray_cast_shape (raw and built) against Bullet's
//      btSubsimplexConvexCast of a point.
//   4. Box-box manifolds: px_manifold_world against Bullet's btBoxBoxDetector (ODE's box-box) on resting and
//      tilted box pairs.
// Timing is interleaved and paired as in bench_gjk.cpp (see bench_common.hpp).
//
// Usage: bench_contact [--quick] [--csv FILE] [--only 1|2|3|4]   (--only: run that workload alone)

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
#include <BulletCollision/CollisionDispatch/btBoxBoxDetector.h>
#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btSubSimplexConvexCast.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#endif

#if PXB_HAVE_CCD
#include <ccd/ccd.h>
#endif

namespace
{

const int kPairs = 256;
double kOverlapFraction = 1.0; // workload 1 wants every pair overlapping; workload 2 sets it to 0
const uint64_t kSeed = 0x636f6e74616374ULL; // "contact"
const double kPi = 3.14159265358979323846;
const double kWarmStepMove = 1.0e-3;
const double kWarmStepTurn = 0.01;
const double kShallow = 1.0e-3; // depth error threshold, times the pair's size
const int kRepeat = 64;         // queries in a row on one pair in the repeated access pattern

struct Options
{
    bool quick = false;
    std::string csv_path;
    int batches = 61;
    int only = 0; // 0: every workload; 1..4: that one alone
};

#include "bench_common.hpp"

FILE* g_csv = nullptr;

void csv_row(const char* workload, int n, const char* peer, double peer_ns, double px_ns, double ratio)
{
    if (g_csv != nullptr)
    {
        std::fprintf(g_csv, "%s,%d,%s,%.1f,%.1f,%.3f\n", workload, n, peer, peer_ns, px_ns, ratio);
    }
}

/// Overlap of the posed hulls along unit n (A towards B): an upper bound of the penetration depth.
double overlap_along(const Hull& a, const px_transform& ta, const Hull& b, const px_transform& tb, V3 n)
{
    n = normalize(n);
    double ha = support_extent(a, pose_quat(ta), n) + dot(n, v3(ta.p));
    double hb = support_extent(b, pose_quat(tb), -1.0 * n) - dot(n, v3(tb.p));
    return ha + hb;
}

// ------------------------------------------------------------------------------------------------------
// 1. Penetration depth
// ------------------------------------------------------------------------------------------------------

struct DepthCheck
{
    double max_shallow = 0.0; // max (o_min - depth) / S
    int shallow = 0;          // count > kShallow
    int deep = 0;             // depth > o_min + kShallow S
    int failed = 0;           // no result / failure status
};

void note_depth(DepthCheck& c, double depth, double o_min, double size, bool ok)
{
    if (!ok)
    {
        c.failed++;
        return;
    }
    double shallow = (o_min - depth) / size;
    c.max_shallow = std::max(c.max_shallow, shallow);
    c.shallow += shallow > kShallow;
    c.deep += (depth - o_min) / size > kShallow;
}

/// shallow = 0: deep pairs (B's centroid inside A); shallow > 0: resting contacts at most shallow x size deep.
void run_penetration(const Options& opt, double shallow)
{
    if (shallow > 0.0)
    {
        std::printf("\n### 1b. Penetration depth, resting contacts (depth at most %.0f%% of the size; median ns per "
                    "query; ratio = peer / proxima)\n\n",
                    100.0 * shallow);
    }
    else
    {
        std::printf("\n### 1. Penetration depth (overlapping hull pairs; median ns per query; ratio = peer / "
                    "proxima)\n\n");
    }
    std::printf("| N | proxima px_contact_world | libccd ccdGJKPenetration | ratio | libccd ccdMPRPenetration | ratio "
                "| Bullet btGjkEpaSolver2::Penetration | ratio | proxima EPA iters mean / max |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    std::vector<std::string> accuracy, accuracy_built, built_rows;
    for (int n : { 8, 16, 64, 256, 1024 })
    {
        if (shallow > 0.0 && n > 256)
        {
            break;
        }
        kOverlapFraction = 1.0;
        PairSet s = make_pair_set(n, shallow);
        // The same hulls built (px_hull_create): small pairs take the separating-axis test, larger ones EPA
        // over hill-climbed or scanned supports.
        std::vector<px_hull*> built;
        std::vector<px_shape> built_shapes;
        for (const Hull& h : s.hulls)
        {
            px_hull* hull = nullptr;
            if (px_hull_create(h.points.data(), n, nullptr, &hull) < 0)
            {
                std::printf("| %d | hull build failed |\n", n);
                return;
            }
            built.push_back(hull);
            built_shapes.push_back(px_shape_from_hull(hull));
        }
        // Accuracy, untimed: every library's normal bounds the depth from above.
        DepthCheck c_px, c_gjk, c_mpr, c_bt, c_built;
        long iters = 0;
        int iters_max = 0;
        int sat_count = 0;
#if PXB_HAVE_BULLET
        auto bt = make_bullet_set(s);
#endif
        for (int i = 0; i < kPairs; ++i)
        {
            const Pair& p = s.pairs[(size_t)i];
            const Hull& a = s.hulls[2 * (size_t)i];
            const Hull& b = s.hulls[2 * (size_t)i + 1];
            std::vector<std::pair<double, V3>> results; // (depth, normal A -> B) per library
            px_contact c;
            px_status st = px_contact_world(&s.shapes[2 * (size_t)i], &p.ta, &s.shapes[2 * (size_t)i + 1], &p.tb,
                                            nullptr, &c);
            iters += c.iterations;
            iters_max = std::max(iters_max, c.iterations);
            double d_px = -c.distance;
            V3 n_px = v3(c.normal);
            double o_min = dot(n_px, n_px) > 0 ? overlap_along(a, p.ta, b, p.tb, n_px) : HUGE_VAL;
            px_contact c_b;
            px_status st_built = px_contact_world(&built_shapes[2 * (size_t)i], &p.ta,
                                                  &built_shapes[2 * (size_t)i + 1], &p.tb, nullptr, &c_b);
            V3 n_built = v3(c_b.normal);
            if (st_built >= 0 && dot(n_built, n_built) > 0)
            {
                o_min = std::min(o_min, overlap_along(a, p.ta, b, p.tb, n_built));
            }
            sat_count += c_b.method == PX_CONTACT_ANALYTIC;
#if PXB_HAVE_CCD
            CcdHull ca = make_ccd_hull(a, p.ta), cb = make_ccd_hull(b, p.tb);
            ccd_t ccd = make_ccd_config();
            ccd_real_t depth_g = 0, depth_m = 0;
            ccd_vec3_t dir_g, dir_m, pos;
            int rg = ccdGJKPenetration(&ca, &cb, &ccd, &depth_g, &dir_g, &pos);
            int rm = ccdMPRPenetration(&ca, &cb, &ccd, &depth_m, &dir_m, &pos);
            // libccd's direction moves obj2 out of obj1, i.e. from A to B
            V3 n_g = { dir_g.v[0], dir_g.v[1], dir_g.v[2] }, n_m = { dir_m.v[0], dir_m.v[1], dir_m.v[2] };
            if (rg == 0 && dot(n_g, n_g) > 0)
            {
                o_min = std::min(o_min, overlap_along(a, p.ta, b, p.tb, n_g));
            }
            if (rm == 0 && dot(n_m, n_m) > 0)
            {
                o_min = std::min(o_min, overlap_along(a, p.ta, b, p.tb, n_m));
            }
#endif
#if PXB_HAVE_BULLET
            btGjkEpaSolver2::sResults r;
            bool okb = btGjkEpaSolver2::Penetration(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                                    bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i],
                                                    btVector3(1, 0, 0), r);
            // Bullet's normal points from A to B for penetration (witness on A minus witness on B along it)
            V3 n_b = { r.normal.x(), r.normal.y(), r.normal.z() };
            if (okb && dot(n_b, n_b) > 0)
            {
                o_min = std::min(o_min, overlap_along(a, p.ta, b, p.tb, n_b));
                o_min = std::min(o_min, overlap_along(a, p.ta, b, p.tb, -1.0 * n_b));
            }
#endif
            note_depth(c_px, d_px, o_min, p.size, st >= 0);
            note_depth(c_built, -c_b.distance, o_min, p.size, st_built >= 0);
#if PXB_HAVE_CCD
            note_depth(c_gjk, depth_g, o_min, p.size, rg == 0);
            note_depth(c_mpr, depth_m, o_min, p.size, rm == 0);
#endif
#if PXB_HAVE_BULLET
            note_depth(c_bt, -r.distance, o_min, p.size, okb);
#endif
        }
        auto q_px = [&](int i) {
            const Pair& p = s.pairs[(size_t)i];
            px_contact c;
            g_proxima_errors += px_contact_world(&s.shapes[2 * (size_t)i], &p.ta, &s.shapes[2 * (size_t)i + 1],
                                                 &p.tb, nullptr, &c) < 0;
            return c.distance;
        };
        auto q_built = [&](int i) {
            const Pair& p = s.pairs[(size_t)i];
            px_contact c;
            g_proxima_errors += px_contact_world(&built_shapes[2 * (size_t)i], &p.ta,
                                                 &built_shapes[2 * (size_t)i + 1], &p.tb, nullptr, &c) < 0;
            return c.distance;
        };
#if PXB_HAVE_CCD
        std::vector<CcdHull> cch;
        for (int i = 0; i < kPairs; ++i)
        {
            cch.push_back(make_ccd_hull(s.hulls[2 * (size_t)i], s.pairs[(size_t)i].ta));
            cch.push_back(make_ccd_hull(s.hulls[2 * (size_t)i + 1], s.pairs[(size_t)i].tb));
        }
        ccd_t ccd = make_ccd_config();
        auto q_gjk = [&](int i) {
            ccd_real_t depth = 0;
            ccd_vec3_t dir, pos;
            ccdGJKPenetration(&cch[2 * (size_t)i], &cch[2 * (size_t)i + 1], &ccd, &depth, &dir, &pos);
            return (float)depth;
        };
        auto q_mpr = [&](int i) {
            ccd_real_t depth = 0;
            ccd_vec3_t dir, pos;
            ccdMPRPenetration(&cch[2 * (size_t)i], &cch[2 * (size_t)i + 1], &ccd, &depth, &dir, &pos);
            return (float)depth;
        };
#else
        auto q_gjk = [&](int) { return 0.0f; };
        auto q_mpr = q_gjk;
#endif
#if PXB_HAVE_BULLET
        auto q_bt = [&](int i) {
            btGjkEpaSolver2::sResults r;
            btGjkEpaSolver2::Penetration(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                         bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i],
                                         btVector3(1, 0, 0), r);
            return (float)r.distance;
        };
#else
        auto q_bt = [&](int) { return 0.0f; };
#endif
        auto t = measure_interleaved(opt.batches, kPairs, q_px, q_gjk, q_mpr, q_bt, q_built);
        Timing gjk = timing_of(t[1], t[0]), mpr = timing_of(t[2], t[0]), btt = timing_of(t[3], t[0]);
        Timing gjk_b = timing_of(t[1], t[4]), btt_b = timing_of(t[3], t[4]);
        std::printf("| %d | %.0f | %.0f | %.2fx | %.0f | %.2fx | %.0f | %.2fx | %.1f / %d |\n", n, median(t[0]),
                    gjk.ns, gjk.ratio, mpr.ns, mpr.ratio, btt.ns, btt.ratio, (double)iters / kPairs, iters_max);
        char row_b[256];
        std::snprintf(row_b, sizeof row_b, "| %d | %.0f | %d / %d | %.2fx | %.2fx |", n, median(t[4]), sat_count,
                      kPairs, gjk_b.ratio, btt_b.ratio);
        built_rows.push_back(row_b);
        csv_row("penetration_built", n, "ccd_gjk_penetration", gjk_b.ns, median(t[4]), gjk_b.ratio);
        csv_row("penetration_built", n, "bullet_gjkepa2_penetration", btt_b.ns, median(t[4]), btt_b.ratio);
        for (px_hull* h : built)
        {
            px_hull_destroy(h);
        }
        csv_row("penetration", n, "ccd_gjk_penetration", gjk.ns, median(t[0]), gjk.ratio);
        csv_row("penetration", n, "ccd_mpr_penetration", mpr.ns, median(t[0]), mpr.ratio);
        csv_row("penetration", n, "bullet_gjkepa2_penetration", btt.ns, median(t[0]), btt.ratio);
        char line[512];
        std::snprintf(line, sizeof line,
                      "| %d | %.1e / %d / %d / %d | %.1e / %d / %d / %d | %.1e / %d / %d / %d | %.1e / %d / %d / %d |",
                      n, c_px.max_shallow, c_px.shallow, c_px.deep, c_px.failed, c_gjk.max_shallow, c_gjk.shallow,
                      c_gjk.deep, c_gjk.failed, c_mpr.max_shallow, c_mpr.shallow, c_mpr.deep, c_mpr.failed,
                      c_bt.max_shallow, c_bt.shallow, c_bt.deep, c_bt.failed);
        accuracy.push_back(line);
        std::snprintf(line, sizeof line, "| %d | %.1e / %d / %d / %d |", n, c_built.max_shallow, c_built.shallow,
                      c_built.deep, c_built.failed);
        accuracy_built.push_back(line);
    }
    std::printf("\nAccuracy against o_min, the smallest overlap along any library's normal (an upper bound of the "
                "true depth). Per library: max (o_min - depth) / S, # shallower than o_min by > %.0e S, # deeper "
                "than o_min, # failures.\n\n",
                kShallow);
    std::printf("| N | proxima | libccd GJK-EPA | libccd MPR | Bullet EPA |\n|---:|---|---|---|---|\n");
    for (const std::string& l : accuracy)
    {
        std::printf("%s\n", l.c_str());
    }
    std::printf("\nThe same pairs with proxima's hulls built (px_hull_create, px_shape_from_hull): the separating-axis "
                "test for small pairs, EPA otherwise. Median ns per query, pairs answered by the separating axes, "
                "and the ratios peer / proxima built in the same rounds as above.\n\n");
    std::printf("| N | proxima built hull | separating axes | libccd GJK-EPA ratio | Bullet ratio |\n"
                "|---:|---:|---:|---:|---:|\n");
    for (const std::string& l : built_rows)
    {
        std::printf("%s\n", l.c_str());
    }
    std::printf("\nAccuracy of the built hulls against the same o_min (which includes their own normal):\n\n"
                "| N | proxima built |\n|---:|---|\n");
    for (const std::string& l : accuracy_built)
    {
        std::printf("%s\n", l.c_str());
    }
}

// ------------------------------------------------------------------------------------------------------
// 2. Direction tables on large hulls
// ------------------------------------------------------------------------------------------------------

void run_hill_climbing(const Options& opt)
{
    std::printf("\n### 2. GJK distance on large hulls (separated pairs; median ns per query; ratio = peer / proxima "
                "built hull)\n\n");
    std::printf("Two access patterns: *cycling*, every query a different pair (256 pairs, so each hull's data is "
                "cold in cache, as in a physics step over many bodies), and *repeated*, %d queries in a row on "
                "the same pair (its data warm, as in a planner querying one robot link many times).\n\n",
                kRepeat);
    std::printf("| N | access | proxima built hull (direction table) | proxima point cloud (scan) | ratio | Bullet "
                "btGjkPairDetector | ratio | Bullet btGjkEpa2 Distance | ratio | max \\|built - cloud\\| / S |\n");
    std::printf("|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int n : { 32, 64, 128, 256, 512, 1024 })
    {
        kOverlapFraction = 0.0;
        PairSet s = make_pair_set(n);
        std::vector<px_hull*> built;
        std::vector<px_shape> shapes;
        // a direction table at every size measured here (the default threshold would scan the smaller ones)
        px_hull_def def = px_hull_default_def();
        def.climb_min_vertices = 1;
        for (const Hull& h : s.hulls)
        {
            px_hull* hull = nullptr;
            if (px_hull_create(h.points.data(), n, &def, &hull) < 0)
            {
                std::printf("| %d | | hull build failed | | | | | | | |\n", n);
                return;
            }
            built.push_back(hull);
            shapes.push_back(px_shape_from_hull(hull));
        }
        double max_diff = 0.0;
        for (int i = 0; i < kPairs; ++i)
        {
            const Pair& p = s.pairs[(size_t)i];
            px_gjk_result r1, r2;
            (void)!px_gjk_distance_world(&shapes[2 * (size_t)i], &p.ta, &shapes[2 * (size_t)i + 1], &p.tb, nullptr,
                                         &r1);
            px_world_distance(s, i, &r2);
            max_diff = std::max(max_diff, std::fabs((double)r1.distance - r2.distance) / p.size);
        }
#if PXB_HAVE_BULLET
        auto bt = make_bullet_set(s);
#endif
        for (int repeated = 0; repeated < 2; ++repeated)
        {
            // query k of a batch: pair k (cycling), or pair (k / kRepeat) * 61 mod kPairs, kRepeat times (repeated)
            auto pair_of = [&](int k) { return repeated ? (k / kRepeat) * 61 % kPairs : k; };
            auto q_built = [&](int k) {
                int i = pair_of(k);
                const Pair& p = s.pairs[(size_t)i];
                px_gjk_result r;
                g_proxima_errors += px_gjk_distance_world(&shapes[2 * (size_t)i], &p.ta, &shapes[2 * (size_t)i + 1],
                                                          &p.tb, nullptr, &r) < 0;
                return r.distance;
            };
            auto q_cloud = [&](int k) {
                px_gjk_result r;
                return px_world_distance(s, pair_of(k), &r);
            };
#if PXB_HAVE_BULLET
            auto q_gjk = [&](int k) {
                int i = pair_of(k);
                return bullet_gjk(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                  bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &bt->solver)
                    .distance;
            };
            auto q_epa = [&](int k) {
                int i = pair_of(k);
                btGjkEpaSolver2::sResults r;
                bullet_epa2_distance(bt->shapes[2 * (size_t)i].get(), bt->ta[(size_t)i],
                                     bt->shapes[2 * (size_t)i + 1].get(), bt->tb[(size_t)i], &r);
                return (float)r.distance;
            };
#else
            auto q_gjk = [&](int) { return 0.0f; };
            auto q_epa = q_gjk;
#endif
            auto t = measure_interleaved(opt.batches, kPairs, q_built, q_cloud, q_gjk, q_epa);
            Timing cloud = timing_of(t[1], t[0]), gjk = timing_of(t[2], t[0]), epa = timing_of(t[3], t[0]);
            const char* access = repeated ? "repeated" : "cycling";
            std::printf("| %d | %s | %.0f | %.0f | %.2fx | %.0f | %.2fx | %.0f | %.2fx | %.1e |\n", n, access,
                        median(t[0]), cloud.ns, cloud.ratio, gjk.ns, gjk.ratio, epa.ns, epa.ratio, max_diff);
            std::string row = std::string("hull_distance_built_") + access;
            csv_row(row.c_str(), n, "proxima_cloud", cloud.ns, median(t[0]), cloud.ratio);
            csv_row(row.c_str(), n, "bullet_gjk_pair_detector", gjk.ns, median(t[0]), gjk.ratio);
            csv_row(row.c_str(), n, "bullet_gjkepa2_distance", epa.ns, median(t[0]), epa.ratio);
        }
        for (px_hull* h : built)
        {
            px_hull_destroy(h);
        }
    }
}

// ------------------------------------------------------------------------------------------------------
// 3. Ray casts against hulls
// ------------------------------------------------------------------------------------------------------

/// The exact first hit (t in [0, max_t]) of a ray with a built hull posed at `pose`: the ray clipped by every
/// face plane, in double. False for a miss.
bool exact_ray_hull(const px_hull* hull, const px_transform& pose, const px_ray& ray, double* t_hit)
{
    Quat q = pose_quat(pose);
    Quat qi = { -q.x, -q.y, -q.z, q.w };
    V3 o = quat_rotate(qi, v3(ray.origin) - v3(pose.p)), d = quat_rotate(qi, v3(ray.direction));
    double t0 = 0.0, t1 = ray.max_t;
    const px_hull_face* f = px_hull_faces(hull);
    for (int k = 0; k < px_hull_face_count(hull); ++k)
    {
        V3 n = { f[k].plane[0], f[k].plane[1], f[k].plane[2] };
        double dn = n.x * d.x + n.y * d.y + n.z * d.z;
        double on = n.x * o.x + n.y * o.y + n.z * o.z - f[k].plane[3];
        if (dn == 0.0)
        {
            if (on > 0.0)
            {
                return false;
            }
            continue;
        }
        double t = -on / dn;
        if (dn < 0.0)
        {
            t0 = std::max(t0, t);
        }
        else
        {
            t1 = std::min(t1, t);
        }
    }
    *t_hit = t0;
    return t0 <= t1;
}

void run_rays(const Options& opt)
{
    std::printf("\n### 3. Ray casts against hulls (median ns per ray; ratio = peer / proxima built hull)\n\n");
    std::printf("Accuracy against the exact hit of each ray with the built hull (its face planes, in double): hits "
                "exact / proxima / Bullet, hit-or-miss disagreements with the exact answer (proxima / Bullet), and "
                "the largest error of the hit point along the ray over the size of the hull (proxima / "
                "Bullet).\n\n");
    std::printf("| N | proxima built hull | proxima point cloud | ratio | Bullet btSubsimplexConvexCast (point) | "
                "ratio | hits exact / px / Bullet | wrong px / Bullet | max error / S, px / Bullet |\n");
    std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (int n : { 64, 256 })
    {
        kOverlapFraction = 0.0;
        PairSet s = make_pair_set(n); // hull A of each pair is the target
        SplitMix64 rng(kSeed ^ 0x7261797300ULL ^ (uint64_t)n);
        std::vector<px_ray> rays;
        std::vector<px_hull*> built;
        std::vector<px_shape> shapes;
        for (int i = 0; i < kPairs; ++i)
        {
            const Hull& h = s.hulls[2 * (size_t)i];
            px_hull* hull = nullptr;
            if (px_hull_create(h.points.data(), n, nullptr, &hull) < 0)
            {
                return;
            }
            built.push_back(hull);
            shapes.push_back(px_shape_from_hull(hull));
            // from a random point at 3 radii towards a random point within 1.2 radii of the centre
            const Pair& p = s.pairs[(size_t)i];
            V3 c = v3(p.ta.p);
            V3 from = c + (3.0 * h.radius) * normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
            V3 to = c + (1.2 * h.radius * rng.uniform()) *
                            normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
            px_ray ray;
            V3 d = to - from;
            ray.origin[0] = (float)from.x;
            ray.origin[1] = (float)from.y;
            ray.origin[2] = (float)from.z;
            ray.direction[0] = (float)d.x;
            ray.direction[1] = (float)d.y;
            ray.direction[2] = (float)d.z;
            ray.max_t = 1.0f;
            rays.push_back(ray);
        }
        auto q_built = [&](int i) {
            px_ray_hit hit;
            g_proxima_errors += px_ray_cast_shape(&shapes[(size_t)i], &s.pairs[(size_t)i].ta, &rays[(size_t)i], &hit) < 0;
            return hit.t;
        };
        auto q_cloud = [&](int i) {
            px_ray_hit hit;
            g_proxima_errors +=
                px_ray_cast_shape(&s.shapes[2 * (size_t)i], &s.pairs[(size_t)i].ta, &rays[(size_t)i], &hit) < 0;
            return hit.t;
        };
        int hits_exact = 0, hits_px = 0, hits_bt = 0, wrong_px = 0, wrong_bt = 0;
        double err_px = 0.0, err_bt = 0.0;
#if PXB_HAVE_BULLET
        auto bt = make_bullet_set(s);
        btSphereShape point(0.0f);
        btVoronoiSimplexSolver solver;
        auto bullet_ray = [&](int i, btConvexCast::CastResult* res) {
            const px_ray& r = rays[(size_t)i];
            btTransform from(btQuaternion(0, 0, 0, 1), btVector3(r.origin[0], r.origin[1], r.origin[2]));
            btTransform to(btQuaternion(0, 0, 0, 1), btVector3(r.origin[0] + r.direction[0], r.origin[1] + r.direction[1],
                                                               r.origin[2] + r.direction[2]));
            btSubsimplexConvexCast cast(&point, bt->shapes[2 * (size_t)i].get(), &solver);
            return cast.calcTimeOfImpact(from, to, bt->ta[(size_t)i], bt->ta[(size_t)i], *res);
        };
        auto q_bt = [&](int i) {
            btConvexCast::CastResult res;
            return bullet_ray(i, &res) ? (float)res.m_fraction : 2.0f;
        };
#else
        auto q_bt = [&](int) { return 0.0f; };
#endif
        for (int i = 0; i < kPairs; ++i)
        {
            const px_ray& r = rays[(size_t)i];
            const Pair& p = s.pairs[(size_t)i];
            double t_exact = 0.0;
            bool hit_exact = exact_ray_hull(built[(size_t)i], p.ta, r, &t_exact);
            double scale = length(v3(r.direction)) / p.size; // t error -> distance error / S
            hits_exact += hit_exact;
            px_ray_hit hit;
            (void)!px_ray_cast_shape(&shapes[(size_t)i], &p.ta, &r, &hit);
            hits_px += hit.hit;
            wrong_px += (bool)hit.hit != hit_exact;
            if (hit.hit && hit_exact)
            {
                err_px = std::max(err_px, std::fabs(hit.t - t_exact) * scale);
            }
#if PXB_HAVE_BULLET
            btConvexCast::CastResult res;
            bool hb = bullet_ray(i, &res);
            hits_bt += hb;
            wrong_bt += hb != hit_exact;
            if (hb && hit_exact)
            {
                err_bt = std::max(err_bt, std::fabs(res.m_fraction - t_exact) * scale);
            }
#endif
        }
        auto t = measure_interleaved(opt.batches, kPairs, q_built, q_cloud, q_bt);
        Timing cloud = timing_of(t[1], t[0]), btt = timing_of(t[2], t[0]);
        std::printf("| %d | %.0f | %.0f | %.2fx | %.0f | %.2fx | %d / %d / %d | %d / %d | %.1e / %.1e |\n", n,
                    median(t[0]), cloud.ns, cloud.ratio, btt.ns, btt.ratio, hits_exact, hits_px, hits_bt, wrong_px,
                    wrong_bt, err_px, err_bt);
        csv_row("ray_hull", n, "proxima_cloud", cloud.ns, median(t[0]), cloud.ratio);
        csv_row("ray_hull", n, "bullet_subsimplex_cast", btt.ns, median(t[0]), btt.ratio);
        for (px_hull* h : built)
        {
            px_hull_destroy(h);
        }
    }
}

// ------------------------------------------------------------------------------------------------------
// 4. Box-box manifolds
// ------------------------------------------------------------------------------------------------------

#if PXB_HAVE_BULLET
struct CountingResult : public btDiscreteCollisionDetectorInterface::Result
{
    int count = 0;
    double deepest = 0.0;
    void setShapeIdentifiersA(int, int) override {}
    void setShapeIdentifiersB(int, int) override {}
    void addContactPoint(const btVector3&, const btVector3&, btScalar depth) override
    {
        count++;
        deepest = std::min(deepest, (double)depth);
    }
};
#endif

void run_box_manifolds(const Options& opt)
{
    std::printf("\n### 4. Box-box manifolds (median ns per pair; ratio = peer / proxima)\n\n");
    std::printf("| scene | proxima px_manifold_world | Bullet btBoxBoxDetector | ratio | mean points px / Bullet | "
                "max \\|deepest px - deepest bt\\| / S |\n|---|---:|---:|---:|---:|---:|\n");
    SplitMix64 rng(kSeed ^ 0x626f78ULL);
    struct BoxPair
    {
        px_shape a, b;
        px_transform ta, tb;
        double size;
    };
    for (int scene = 0; scene < 2; ++scene)
    {
        std::vector<BoxPair> pairs;
        for (int i = 0; i < kPairs; ++i)
        {
            BoxPair p;
            vec3 ha = { (float)rng.range(0.5, 2), (float)rng.range(0.2, 1), (float)rng.range(0.5, 2) };
            vec3 hb = { (float)rng.range(0.3, 1), (float)rng.range(0.2, 1), (float)rng.range(0.3, 1) };
            p.a = px_shape_box(ha);
            p.b = px_shape_box(hb);
            p.size = std::max(std::max(ha[0], ha[2]), std::max(hb[0], hb[2]));
            Quat qa = quat_axis_angle({ 0, 1, 0 }, rng.range(0, 2 * kPi));
            // scene 0: B resting flat on A (yawed, penetrating 1e-3); scene 1: B tilted up to 0.3 rad
            double tilt = scene == 0 ? 0.0 : rng.range(0.0, 0.3);
            Quat qb = quat_mul(quat_axis_angle({ rng.range(-1, 1), 0, rng.range(-1, 1) }, tilt),
                               quat_axis_angle({ 0, 1, 0 }, rng.range(0, 2 * kPi)));
            V3 pa = { rng.range(-5, 5), rng.range(-5, 5), rng.range(-5, 5) };
            double lift = ha[1] + hb[1] * std::cos(tilt) + (hb[0] + hb[2]) * std::sin(tilt) * 0.5 - 1.0e-3;
            V3 pb = pa + V3{ rng.range(-0.5, 0.5) * ha[0], lift, rng.range(-0.5, 0.5) * ha[2] };
            p.ta = make_pose(qa, pa);
            p.tb = make_pose(qb, pb);
            pairs.push_back(p);
        }
        auto q_px = [&](int i) {
            px_manifold m;
            g_proxima_errors += px_manifold_world(&pairs[(size_t)i].a, &pairs[(size_t)i].ta, &pairs[(size_t)i].b,
                                                  &pairs[(size_t)i].tb, nullptr, &m) < 0;
            return (float)m.count;
        };
        double mean_px = 0, mean_bt = 0, max_dd = 0;
#if PXB_HAVE_BULLET
        std::vector<std::unique_ptr<btBoxShape>> bshapes;
        for (const BoxPair& p : pairs)
        {
            bshapes.push_back(std::make_unique<btBoxShape>(
                btVector3(p.a.box.half_extents[0], p.a.box.half_extents[1], p.a.box.half_extents[2])));
            bshapes.back()->setMargin(0.0f);
            bshapes.push_back(std::make_unique<btBoxShape>(
                btVector3(p.b.box.half_extents[0], p.b.box.half_extents[1], p.b.box.half_extents[2])));
            bshapes.back()->setMargin(0.0f);
        }
        auto bullet_box = [&](int i, CountingResult* res) {
            btBoxBoxDetector det(bshapes[2 * (size_t)i].get(), bshapes[2 * (size_t)i + 1].get());
            btDiscreteCollisionDetectorInterface::ClosestPointInput in;
            in.m_transformA = to_bullet(pairs[(size_t)i].ta);
            in.m_transformB = to_bullet(pairs[(size_t)i].tb);
            det.getClosestPoints(in, *res, nullptr);
        };
        auto q_bt = [&](int i) {
            CountingResult res;
            bullet_box(i, &res);
            return (float)res.count;
        };
#else
        auto q_bt = [&](int) { return 0.0f; };
#endif
        for (int i = 0; i < kPairs; ++i)
        {
            px_manifold m;
            (void)!px_manifold_world(&pairs[(size_t)i].a, &pairs[(size_t)i].ta, &pairs[(size_t)i].b,
                                     &pairs[(size_t)i].tb, nullptr, &m);
            mean_px += m.count;
            double deepest = 0;
            for (int k = 0; k < m.count; ++k)
            {
                deepest = std::min(deepest, (double)m.points[k].separation);
            }
#if PXB_HAVE_BULLET
            CountingResult res;
            bullet_box(i, &res);
            mean_bt += res.count;
            max_dd = std::max(max_dd, std::fabs(deepest - res.deepest) / pairs[(size_t)i].size);
#endif
        }
        auto t = measure_interleaved(opt.batches, kPairs, q_px, q_bt);
        Timing btt = timing_of(t[1], t[0]);
        std::printf("| %s | %.0f | %.0f | %.2fx | %.2f / %.2f | %.1e |\n", scene == 0 ? "resting, yawed" : "tilted",
                    median(t[0]), btt.ns, btt.ratio, mean_px / kPairs, mean_bt / kPairs, max_dd);
        csv_row(scene == 0 ? "box_manifold_resting" : "box_manifold_tilted", 0, "bullet_box_box", btt.ns, median(t[0]),
                btt.ratio);
    }
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    for (int i = 1; i < argc; ++i)
    {
        if (!parse_shared_option(argc, argv, i, opt.quick, opt.csv_path, &opt.only))
        {
            std::fprintf(stderr, "usage: %s [--quick] [--csv FILE] [--only 1|2|3|4]\n", argv[0]);
            return 2;
        }
    }
    if (opt.quick)
    {
        opt.batches = 7;
    }
    if (!open_csv(opt.csv_path, "workload,N,peer,peer_ns,proxima_ns,ratio", &g_csv))
    {
        return 1;
    }
    std::printf("## proxima contact benchmark\n\n- command: `%s`\n", command_line(argc, argv).c_str());
    std::printf("- %d batches of %d queries per row, medians; ratios paired per round\n", opt.batches, kPairs);
#if !PXB_HAVE_BULLET
    std::printf("- Bullet not found: its columns are zeros\n");
#endif
#if !PXB_HAVE_CCD
    std::printf("- libccd not found: its columns are zeros\n");
#endif
    if (opt.only == 0 || opt.only == 1)
    {
        run_penetration(opt, 0.0);
        run_penetration(opt, 0.05);
    }
    if (opt.only == 0 || opt.only == 2)
    {
        run_hill_climbing(opt);
    }
    if (opt.only == 0 || opt.only == 3)
    {
        run_rays(opt);
    }
    if (opt.only == 0 || opt.only == 4)
    {
        run_box_manifolds(opt);
    }
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses while timed\n", g_proxima_errors);
    }
    if (g_csv != nullptr)
    {
        std::fclose(g_csv);
    }
    return 0;
}
