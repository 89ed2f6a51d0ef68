// proxima broadphase benchmark: the same moving boxes through proxima's dynamic tree and Bullet's
// btDbvtBroadphase in one process, frame by frame, reporting the median time per frame and the paired ratio
// Bullet / proxima (above 1: proxima is faster).
//
// Scenes (issue 6, item 3): boxes of half-extents uniform in [0.25, 1] on every axis, centres uniform in
// [0, 100]^3, velocities uniform in [-1, 1] units/s on every axis (--speed scales them), time step 1/60 s; a
// centre that leaves [0, 100] on an axis is mirrored back and that velocity component flips (bouncing walls).
// Everything comes from one seeded splitmix64 stream per scene, in float, so both libraries see the very
// same boxes every frame.
//   1. 10k moving boxes.
//   2. 10k boxes of which a fixed 10% (1k) move; the other 9k rest (asleep: never updated again).
//   3. 1k static boxes (never updated) + 10k moving boxes.
// Boxes that do not move are created like the others and then never touched (Bullet: the default filter
// group and mask for every proxy, so both libraries report the same kind of pairs; Bullet moves proxies not
// updated for two frames into its fixed tree by itself).
//
// One frame, per library (the simulation step that computes the new boxes is not timed):
//   proxima  px_dynamic_tree_move_proxy(tight box, displacement = velocity * dt) for every moving box, then
//            px_dynamic_tree_update_pairs, then the pair set update a world does: the set of every pair whose
//            fat boxes overlap, kept as a sorted vector of (low id << 32 | high id) keys. The pairs reported
//            are exactly the overlapping pairs touching a reinserted proxy, so a linear merge keeps the set
//            exact: an old pair touching a reinserted proxy stays only if it was reported again; every other
//            old pair keeps its (unchanged) fat boxes and stays; every reported pair is added.
//   Bullet   btDbvtBroadphase::setAabb(tight box) for every moving box, then calculateOverlappingPairs with
//            the broadphase's own btHashedOverlappingPairCache and a btCollisionDispatcher (no collision
//            algorithms are ever created): the normal btCollisionWorld usage. Bullet finds the pairs of a
//            reinserted leaf inside setAabb; calculateOverlappingPairs optimizes the trees incrementally,
//            moves proxies idle for two frames to the fixed tree, and removes stale pairs lazily: it tests
//            10% of the cached pairs per frame (m_cupdates = 10), so its cache also holds some pairs whose fat
//            boxes no longer overlap.
// Margins: Bullet's fat box is the tight box grown by gDbvtMargin = 0.05 with its velocity prediction at
// the default 0 (m_prediction; it would stretch by half the box size times the prediction). proxima runs
// twice on the same boxes: with margin 0.05 and its predictive stretch (displacement_scale 1, displacement =
// velocity * dt, the intended usage), and with margin 0.05 and no displacement ("no stretch"), which gives
// it Bullet's very fat boxes.
//
// Setup, untimed: the boxes are created one by one in each library and the first pairs found; then, as a world
// does after loading a scene, each library's tree is optimized once: px_dynamic_tree_rebuild (top-down,
// median split) and btDbvtBroadphase::optimize (btDbvt::optimizeTopDown of its two trees). Trees grown by
// insertion alone are much worse at the top (their first splits were chosen among a few boxes) and stay so:
// --no-rebuild skips this step in both libraries.
//
// Timing: every frame runs each library once (the order rotates from frame to frame) after --warmup untimed
// frames; reported: the median over frames of each library's frame time, and the median over frames of the
// per-frame ratio Bullet / proxima. The phases (moves, pairs, pair set) are timed inside the frame too.
// Validation after the last frame, untimed: every pair of boxes whose tight boxes overlap (closed intervals,
// brute force by a sweep along x) must be in each library's pair set; proxima's set must equal the brute-force
// set of fat-box overlaps exactly; px_dynamic_tree_validate must pass. The program fails (exit code 1) if not.
//
// --cpu-clock times the frames by this thread's processor time (CLOCK_THREAD_CPUTIME_ID) instead of the wall
// clock, for a shared machine where other processes take the core.
//
// --sides runs only some of the three (p: proxima, n: proxima no stretch, b: Bullet; default pnb), for
// profiling one of them alone (the validation of a side that did not run fails).
//
// Usage: bench_broadphase [--quick] [--cpu-clock] [--csv FILE] [--only 1|2|3] [--frames N] [--warmup N]
//                         [--speed S] [--sides pnb] [--no-rebuild]

#include "proxima/proxima.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#if PXB_HAVE_BULLET
#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btDefaultCollisionConfiguration.h>
#include <LinearMath/btScalar.h>
#endif

namespace
{

const double kPi = 3.14159265358979323846;
const uint64_t kSeed = 0x62726f6164ULL; // "broad"
const float kWorld = 100.0f;
const float kDt = 1.0f / 60.0f;
const float kMargin = 0.05f; // proxima's margin, Bullet's gDbvtMargin

struct Options
{
    bool quick = false;
    std::string csv_path;
    int only = 0;     // 0: every scene; 1..3: that one alone
    int frames = 301; // timed frames per scene
    int warmup = 60;  // untimed frames first
    float speed = 1.0f;
    std::string sides = "pnb"; // --sides: which of proxima (p), proxima no stretch (n), Bullet (b) run
    bool rebuild = true;       // optimize each library's tree once after the boxes are created
};

#include "bench_util.hpp"

FILE* g_csv = nullptr;

struct Scene
{
    const char* name;
    int moving;  // boxes updated every frame
    int resting; // boxes never updated after creation
};

const Scene kScenes[] = {
    { "10k moving", 10000, 0 },
    { "10k, 10% moving", 1000, 9000 },
    { "1k static + 10k moving", 10000, 1000 },
};

/// The boxes of a scene, in float: body i is proxy i of every library (the moving ones first).
struct World
{
    std::vector<float> c, h, v; // centre, half extents, velocity: 3 floats per body
    int moving = 0;
    int count = 0;

    void tight(int i, float* mn, float* mx) const
    {
        for (int k = 0; k < 3; ++k)
        {
            mn[k] = c[3 * i + k] - h[3 * i + k];
            mx[k] = c[3 * i + k] + h[3 * i + k];
        }
    }

    void step()
    {
        for (int i = 0; i < moving; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                float& x = c[3 * i + k];
                float& u = v[3 * i + k];
                x += u * kDt;
                if (x < 0.0f)
                {
                    x = -x;
                    u = -u;
                }
                else if (x > kWorld)
                {
                    x = 2.0f * kWorld - x;
                    u = -u;
                }
            }
        }
    }
};

World make_world(const Scene& s, float speed)
{
    SplitMix64 rng(kSeed + (uint64_t)s.moving * 31 + (uint64_t)s.resting);
    World w;
    w.moving = s.moving;
    w.count = s.moving + s.resting;
    w.c.resize(3 * (size_t)w.count);
    w.h.resize(3 * (size_t)w.count);
    w.v.resize(3 * (size_t)w.count);
    for (int i = 0; i < w.count; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            w.c[3 * i + k] = (float)rng.range(0.0, kWorld);
            w.h[3 * i + k] = (float)rng.range(0.25, 1.0);
            w.v[3 * i + k] = i < s.moving ? speed * (float)rng.range(-1.0, 1.0) : 0.0f;
        }
    }
    return w;
}

/// Nanoseconds of each phase of one frame (the last one is the whole frame).
struct FrameTimes
{
    double moves = 0.0, pairs = 0.0, set = 0.0, total = 0.0;
};

uint64_t tick()
{
    return g_cpu_clock ? thread_cpu_ns() : now_ns();
}

// ------------------------------------------------------------------------------------------------------
// proxima: the tree plus the set of overlapping pairs
// ------------------------------------------------------------------------------------------------------

struct ProximaSide
{
    px_dynamic_tree* tree = nullptr;
    bool stretch = true;
    std::vector<int32_t> ids;
    std::vector<uint8_t> reinserted; // by proxy id, this frame
    std::vector<int32_t> touched;    // proxy ids reinserted this frame
    std::vector<uint64_t> pairs;     // every pair with overlapping fat boxes, sorted
    std::vector<uint64_t> fresh;     // reported by update_pairs this frame, sorted
    std::vector<uint64_t> merged;
    long reinserts = 0; // over the timed frames

    ~ProximaSide() { px_dynamic_tree_destroy(tree); }

    static void on_pair(int32_t a, int32_t b, void* context)
    {
        static_cast<std::vector<uint64_t>*>(context)->push_back(((uint64_t)(uint32_t)a << 32) | (uint32_t)b);
    }

    bool create(const World& w, bool with_stretch, bool rebuild)
    {
        stretch = with_stretch;
        px_dynamic_tree_def def = px_dynamic_tree_default_def();
        def.margin = kMargin;
        def.displacement_scale = 1.0f;
        def.initial_capacity = 2 * w.count;
        if (px_dynamic_tree_create(&def, &tree) != PX_OK)
        {
            return false;
        }
        ids.resize((size_t)w.count);
        for (int i = 0; i < w.count; ++i)
        {
            px_aabb b;
            w.tight(i, b.min, b.max);
            if (px_dynamic_tree_create_proxy(tree, &b, nullptr, &ids[(size_t)i]) != PX_OK)
            {
                return false;
            }
        }
        reinserted.assign((size_t)px_dynamic_tree_proxy_count(tree) * 2 + 16, 0);
        fresh.clear();
        if (px_dynamic_tree_update_pairs(tree, on_pair, &fresh) != PX_OK)
        {
            return false;
        }
        pairs = fresh;
        return !rebuild || px_dynamic_tree_rebuild(tree) == PX_OK;
    }

    FrameTimes frame(const World& w)
    {
        FrameTimes t;
        uint64_t t0 = tick();
        for (int i = 0; i < w.moving; ++i)
        {
            px_aabb b;
            w.tight(i, b.min, b.max);
            vec3 d = { w.v[3 * i] * kDt, w.v[3 * i + 1] * kDt, w.v[3 * i + 2] * kDt };
            bool r = false;
            int32_t id = ids[(size_t)i];
            if (px_dynamic_tree_move_proxy(tree, id, &b, stretch ? d : nullptr, &r) != PX_OK)
            {
                g_proxima_errors++;
            }
            if (r)
            {
                reinserted[(size_t)id] = 1;
                touched.push_back(id);
            }
        }
        uint64_t t1 = tick();
        fresh.clear();
        if (px_dynamic_tree_update_pairs(tree, on_pair, &fresh) != PX_OK)
        {
            g_proxima_errors++;
        }
        uint64_t t2 = tick();
        // merge: old pairs not touching a reinserted proxy stay, the fresh pairs are the rest
        merged.clear();
        size_t j = 0;
        for (uint64_t p : pairs)
        {
            while (j < fresh.size() && fresh[j] < p)
            {
                merged.push_back(fresh[j++]);
            }
            if (j < fresh.size() && fresh[j] == p)
            {
                continue; // pushed with the fresh ones
            }
            if (reinserted[(size_t)(p >> 32)] == 0 && reinserted[(size_t)(p & 0xffffffffu)] == 0)
            {
                merged.push_back(p);
            }
        }
        merged.insert(merged.end(), fresh.begin() + (std::ptrdiff_t)j, fresh.end());
        pairs.swap(merged);
        for (int32_t id : touched)
        {
            reinserted[(size_t)id] = 0;
        }
        reinserts += (long)touched.size();
        touched.clear();
        uint64_t t3 = tick();
        t.moves = (double)(t1 - t0);
        t.pairs = (double)(t2 - t1);
        t.set = (double)(t3 - t2);
        t.total = (double)(t3 - t0);
        return t;
    }

    bool has_pair(int32_t a, int32_t b) const
    {
        uint64_t key = a < b ? ((uint64_t)(uint32_t)a << 32) | (uint32_t)b : ((uint64_t)(uint32_t)b << 32) | (uint32_t)a;
        return std::binary_search(pairs.begin(), pairs.end(), key);
    }
};

// ------------------------------------------------------------------------------------------------------
// Bullet: btDbvtBroadphase with its pair cache
// ------------------------------------------------------------------------------------------------------

#if PXB_HAVE_BULLET
struct BulletSide
{
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{ &config };
    btDbvtBroadphase broadphase;
    std::vector<btBroadphaseProxy*> proxies;
    long reinserts = 0;
    unsigned done_after_collide = 0;

    ~BulletSide()
    {
        for (btBroadphaseProxy* p : proxies)
        {
            broadphase.destroyProxy(p, &dispatcher);
        }
    }

    void create(const World& w, bool rebuild)
    {
        proxies.resize((size_t)w.count);
        for (int i = 0; i < w.count; ++i)
        {
            float mn[3], mx[3];
            w.tight(i, mn, mx);
            proxies[(size_t)i] = broadphase.createProxy(btVector3(mn[0], mn[1], mn[2]), btVector3(mx[0], mx[1], mx[2]),
                                                        BOX_SHAPE_PROXYTYPE, nullptr, btBroadphaseProxy::DefaultFilter,
                                                        btBroadphaseProxy::AllFilter, &dispatcher);
        }
        broadphase.calculateOverlappingPairs(&dispatcher);
        if (rebuild)
        {
            broadphase.optimize(); // optimizeTopDown of both trees
        }
        done_after_collide = broadphase.m_updates_done;
    }

    FrameTimes frame(const World& w)
    {
        FrameTimes t;
        uint64_t t0 = tick();
        for (int i = 0; i < w.moving; ++i)
        {
            float mn[3], mx[3];
            w.tight(i, mn, mx);
            broadphase.setAabb(proxies[(size_t)i], btVector3(mn[0], mn[1], mn[2]), btVector3(mx[0], mx[1], mx[2]),
                               &dispatcher);
        }
        uint64_t t1 = tick();
        unsigned done = broadphase.m_updates_done; // halved by every collide: count the increase since
        broadphase.calculateOverlappingPairs(&dispatcher);
        uint64_t t2 = tick();
        reinserts += (long)(done - done_after_collide);
        done_after_collide = broadphase.m_updates_done;
        t.moves = (double)(t1 - t0);
        t.pairs = (double)(t2 - t1);
        t.total = (double)(t2 - t0);
        return t;
    }

    int pair_count() { return broadphase.getOverlappingPairCache()->getNumOverlappingPairs(); }

    bool has_pair(int a, int b)
    {
        return broadphase.getOverlappingPairCache()->findPair(proxies[(size_t)a], proxies[(size_t)b]) != nullptr;
    }
};
#endif

// ------------------------------------------------------------------------------------------------------
// Brute force (a sweep along x)
// ------------------------------------------------------------------------------------------------------

/// Every pair (i < j) of boxes that overlap (closed intervals), as (i << 32 | j), sorted.
std::vector<uint64_t> overlapping_pairs(const std::vector<px_aabb>& boxes)
{
    std::vector<int> order(boxes.size());
    for (size_t i = 0; i < order.size(); ++i)
    {
        order[i] = (int)i;
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return boxes[(size_t)a].min[0] < boxes[(size_t)b].min[0]; });
    std::vector<uint64_t> out;
    for (size_t s = 0; s < order.size(); ++s)
    {
        const px_aabb& a = boxes[(size_t)order[s]];
        for (size_t u = s + 1; u < order.size() && boxes[(size_t)order[u]].min[0] <= a.max[0]; ++u)
        {
            const px_aabb& b = boxes[(size_t)order[u]];
            if (a.min[1] <= b.max[1] && b.min[1] <= a.max[1] && a.min[2] <= b.max[2] && b.min[2] <= a.max[2])
            {
                uint32_t i = (uint32_t)std::min(order[s], order[u]), j = (uint32_t)std::max(order[s], order[u]);
                out.push_back(((uint64_t)i << 32) | j);
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// ------------------------------------------------------------------------------------------------------
// One scene
// ------------------------------------------------------------------------------------------------------

struct Row
{
    std::string scene;
    int proxies = 0, moving = 0, frames = 0;
    double px_ms = NAN, pxn_ms = NAN, bt_ms = NAN;        // median frame
    double ratio = NAN, ratio_n = NAN;                    // paired Bullet / proxima
    double px_moves = NAN, px_pairs = NAN, px_set = NAN;  // median phases, ms
    double bt_moves = NAN, bt_pairs = NAN;
    double px_pair_mean = NAN, pxn_pair_mean = NAN, bt_pair_mean = NAN;
    double px_reinserts = NAN, pxn_reinserts = NAN, bt_reinserts = NAN; // per frame
    int tight_pairs = 0, fat_pairs = 0;
    bool px_ok = false, pxn_ok = false, bt_ok = false;
    int tree_height = 0;
    float area_ratio = 0.0f;
};

double ms(double ns)
{
    return ns * 1.0e-6;
}

std::vector<double> field(const std::vector<FrameTimes>& v, double FrameTimes::*f)
{
    std::vector<double> out;
    for (const FrameTimes& t : v)
    {
        out.push_back(t.*f);
    }
    return out;
}

/// proxima's pair set is exact and contains the tight pairs.
bool check_proxima(const ProximaSide& s, const World& w, const std::vector<uint64_t>& tight, int* fat_count)
{
    std::vector<px_aabb> fat((size_t)w.count);
    for (int i = 0; i < w.count; ++i)
    {
        if (px_dynamic_tree_fat_aabb(s.tree, s.ids[(size_t)i], &fat[(size_t)i]) != PX_OK)
        {
            return false;
        }
    }
    // ids are 0 .. count - 1 in creation order (a fresh tree hands out its pool in order); map anyway
    std::vector<uint64_t> want = overlapping_pairs(fat);
    for (uint64_t& p : want)
    {
        uint32_t a = (uint32_t)s.ids[(size_t)(p >> 32)], b = (uint32_t)s.ids[(size_t)(p & 0xffffffffu)];
        p = a < b ? ((uint64_t)a << 32) | b : ((uint64_t)b << 32) | a;
    }
    std::sort(want.begin(), want.end());
    *fat_count = (int)want.size();
    bool ok = want == s.pairs && px_dynamic_tree_validate(s.tree) == PX_OK;
    for (uint64_t p : tight)
    {
        ok = ok && s.has_pair(s.ids[(size_t)(p >> 32)], s.ids[(size_t)(p & 0xffffffffu)]);
    }
    return ok;
}

Row run_scene(const Scene& scene, const Options& opt)
{
    World w = make_world(scene, opt.speed);
    Row row;
    row.scene = scene.name;
    row.proxies = w.count;
    row.moving = w.moving;
    row.frames = opt.frames;

    ProximaSide px, pxn;
    if (!px.create(w, true, opt.rebuild) || !pxn.create(w, false, opt.rebuild))
    {
        std::fprintf(stderr, "proxima tree creation failed\n");
        std::exit(1);
    }
#if PXB_HAVE_BULLET
    BulletSide bt;
    bt.create(w, opt.rebuild);
#endif
    std::vector<FrameTimes> tp, tn, tb;
    double px_pairs = 0.0, pxn_pairs = 0.0, bt_pairs = 0.0;
    for (int f = -opt.warmup; f < opt.frames; ++f)
    {
        w.step();
        FrameTimes a, b, c;
        for (int k = 0; k < 3; ++k)
        {
            int side = (k + f + opt.warmup) % 3;
            if (opt.sides.find("pnb"[side]) == std::string::npos)
            {
                continue;
            }
            switch (side)
            {
            case 0:
                a = px.frame(w);
                break;
            case 1:
                b = pxn.frame(w);
                break;
            default:
#if PXB_HAVE_BULLET
                c = bt.frame(w);
#endif
                break;
            }
        }
        if (f == -1)
        {
            px.reinserts = pxn.reinserts = 0;
#if PXB_HAVE_BULLET
            bt.reinserts = 0;
#endif
        }
        if (f >= 0)
        {
            tp.push_back(a);
            tn.push_back(b);
            tb.push_back(c);
            px_pairs += (double)px.pairs.size();
            pxn_pairs += (double)pxn.pairs.size();
#if PXB_HAVE_BULLET
            bt_pairs += bt.pair_count();
#endif
        }
    }
    const double n = (double)opt.frames;
    row.px_ms = ms(median(field(tp, &FrameTimes::total)));
    row.pxn_ms = ms(median(field(tn, &FrameTimes::total)));
    row.px_moves = ms(median(field(tp, &FrameTimes::moves)));
    row.px_pairs = ms(median(field(tp, &FrameTimes::pairs)));
    row.px_set = ms(median(field(tp, &FrameTimes::set)));
    row.px_pair_mean = px_pairs / n;
    row.pxn_pair_mean = pxn_pairs / n;
    row.px_reinserts = (double)px.reinserts / n;
    row.pxn_reinserts = (double)pxn.reinserts / n;
    row.tree_height = px_dynamic_tree_height(px.tree);
    row.area_ratio = px_dynamic_tree_area_ratio(px.tree);

    // validation
    std::vector<px_aabb> tight_boxes((size_t)w.count);
    for (int i = 0; i < w.count; ++i)
    {
        w.tight(i, tight_boxes[(size_t)i].min, tight_boxes[(size_t)i].max);
    }
    std::vector<uint64_t> tight = overlapping_pairs(tight_boxes);
    row.tight_pairs = (int)tight.size();
    int fat_n = 0;
    row.px_ok = check_proxima(px, w, tight, &row.fat_pairs);
    row.pxn_ok = check_proxima(pxn, w, tight, &fat_n);
#if PXB_HAVE_BULLET
    row.bt_ms = ms(median(field(tb, &FrameTimes::total)));
    row.bt_moves = ms(median(field(tb, &FrameTimes::moves)));
    row.bt_pairs = ms(median(field(tb, &FrameTimes::pairs)));
    std::vector<double> r, rn;
    for (size_t i = 0; i < tp.size(); ++i)
    {
        r.push_back(tb[i].total / tp[i].total);
        rn.push_back(tb[i].total / tn[i].total);
    }
    row.ratio = median(r);
    row.ratio_n = median(rn);
    row.bt_pair_mean = bt_pairs / n;
    row.bt_reinserts = (double)bt.reinserts / n;
    row.bt_ok = true;
    for (uint64_t p : tight)
    {
        row.bt_ok = row.bt_ok && bt.has_pair((int)(p >> 32), (int)(p & 0xffffffffu));
    }
#else
    (void)bt_pairs;
    (void)tb;
#endif
    (void)fat_n;
    return row;
}

// ------------------------------------------------------------------------------------------------------
// Report
// ------------------------------------------------------------------------------------------------------

const char* ok_text(bool ok)
{
    return ok ? "ok" : "FAILED";
}

void print_rows(const std::vector<Row>& rows)
{
    std::printf("\n### Frame time (median ms per frame; ratio = Bullet / proxima, median of the per-frame ratios)\n\n");
    std::printf("| scene | proxies (moving) | proxima | Bullet btDbvtBroadphase | ratio | proxima, no stretch | ratio |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
    {
        std::printf("| %s | %d (%d) | %s | %s | %s | %s | %s |\n", r.scene.c_str(), r.proxies, r.moving,
                    fmt("%.3f", r.px_ms).c_str(), fmt("%.3f", r.bt_ms).c_str(), fmt("%.2f", r.ratio).c_str(),
                    fmt("%.3f", r.pxn_ms).c_str(), fmt("%.2f", r.ratio_n).c_str());
    }
    std::printf("\n### Phases (median ms per frame): moves = move_proxy / setAabb loop; pairs = update_pairs / "
                "calculateOverlappingPairs; set = proxima's pair set merge\n\n");
    std::printf("| scene | proxima moves | proxima pairs | proxima set | Bullet setAabb | Bullet calculateOverlappingPairs |\n");
    std::printf("|---|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
    {
        std::printf("| %s | %s | %s | %s | %s | %s |\n", r.scene.c_str(), fmt("%.3f", r.px_moves).c_str(),
                    fmt("%.3f", r.px_pairs).c_str(), fmt("%.3f", r.px_set).c_str(), fmt("%.3f", r.bt_moves).c_str(),
                    fmt("%.3f", r.bt_pairs).c_str());
    }
    std::printf("\n### Pairs and reinsertions (means per timed frame) and validation after the last frame\n\n");
    std::printf("| scene | pairs proxima / no stretch / Bullet | reinserts proxima / no stretch / Bullet | tight "
                "pairs | fat pairs (proxima) | tight pairs in set: proxima / no stretch / Bullet | tree height, area "
                "ratio |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
    {
        std::printf("| %s | %s / %s / %s | %s / %s / %s | %d | %d | %s / %s / %s | %d, %.1f |\n", r.scene.c_str(),
                    fmt("%.0f", r.px_pair_mean).c_str(), fmt("%.0f", r.pxn_pair_mean).c_str(),
                    fmt("%.0f", r.bt_pair_mean).c_str(), fmt("%.0f", r.px_reinserts).c_str(),
                    fmt("%.0f", r.pxn_reinserts).c_str(), fmt("%.0f", r.bt_reinserts).c_str(), r.tight_pairs,
                    r.fat_pairs, ok_text(r.px_ok), ok_text(r.pxn_ok),
#if PXB_HAVE_BULLET
                    ok_text(r.bt_ok),
#else
                    "-",
#endif
                    r.tree_height, (double)r.area_ratio);
    }
}

int usage(const char* argv0, int code)
{
    std::fprintf(code ? stderr : stdout,
                 "usage: %s [--quick] [--cpu-clock] [--csv FILE] [--only 1|2|3] [--frames N] [--warmup N] "
                 "[--speed S] [--sides pnb] [--no-rebuild]\n",
                 argv0);
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    bool help = false;
    if (!parse_options(argc, argv, opt.quick, opt.csv_path, &opt.only, [&](int& i) {
            if (std::strcmp(argv[i], "--cpu-clock") == 0)
            {
                g_cpu_clock = true;
                return true;
            }
            if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            {
                opt.frames = std::max(1, std::atoi(argv[++i]));
                return true;
            }
            if (std::strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
            {
                opt.warmup = std::max(0, std::atoi(argv[++i]));
                return true;
            }
            if (std::strcmp(argv[i], "--no-rebuild") == 0)
            {
                opt.rebuild = false;
                return true;
            }
            if (std::strcmp(argv[i], "--sides") == 0 && i + 1 < argc)
            {
                opt.sides = argv[++i];
                return true;
            }
            if (std::strcmp(argv[i], "--speed") == 0 && i + 1 < argc)
            {
                opt.speed = (float)std::atof(argv[++i]);
                return true;
            }
            help = std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
            return false;
        }))
    {
        return usage(argv[0], help ? 0 : 2);
    }
    if (opt.quick)
    {
        opt.frames = 61;
        opt.warmup = 20;
    }
    if (!open_csv(opt.csv_path,
                  "scene,proxies,moving,proxima_ms,bullet_ms,ratio,proxima_nostretch_ms,ratio_nostretch,"
                  "proxima_pairs,bullet_pairs,proxima_reinserts,bullet_reinserts",
                  &g_csv))
    {
        return 1;
    }
    char date[64];
    time_t now = time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));

    std::printf("## proxima broadphase benchmark\n\n");
    std::printf("- command: `%s`\n", command_line(argc, argv).c_str());
    std::printf("- machine: %s\n", machine_description().c_str());
    std::printf("- /proc/loadavg at start: %s\n", load_average().c_str());
    std::printf("- date: %s\n", date);
    std::printf("- compiler: " __VERSION__ " (bench: -O2 -ffp-contract=off)\n");
    std::printf("- proxima %d.%d.%d: margin %.2f, displacement_scale 1 (no stretch: displacement NULL)\n",
                PX_VERSION_MAJOR, PX_VERSION_MINOR, PX_VERSION_PATCH, (double)kMargin);
#if PXB_HAVE_BULLET
    {
        btDbvtBroadphase probe;
        std::printf("- Bullet %d (%s precision): btDbvtBroadphase, gDbvtMargin %.2f, velocity prediction %.2f\n",
                    btGetVersion(), sizeof(btScalar) == 8 ? "double" : "single", (double)gDbvtMargin,
                    (double)probe.getVelocityPrediction());
    }
#else
    std::printf("- Bullet: not found at configure time, its columns are '-'\n");
#endif
    std::printf("- world [0, %.0f]^3, half extents 0.25 .. 1, speed up to %.2f units/s per axis, dt 1/60\n",
                (double)kWorld, (double)opt.speed);
    std::printf("- %d warm-up + %d timed frames per scene; clock: %s\n", opt.warmup, opt.frames,
                g_cpu_clock ? "thread processor time (--cpu-clock)" : "wall (CLOCK_MONOTONIC)");
    std::printf("- trees optimized once after creation: %s\n",
                opt.rebuild ? "yes (px_dynamic_tree_rebuild, btDbvtBroadphase::optimize)" : "no (--no-rebuild)");

    std::vector<Row> rows;
    bool ok = true;
    for (int s = 0; s < (int)(sizeof kScenes / sizeof kScenes[0]); ++s)
    {
        if (opt.only != 0 && opt.only != s + 1)
        {
            continue;
        }
        std::fprintf(stderr, "%s ...\n", kScenes[s].name);
        Row r = run_scene(kScenes[s], opt);
        ok = ok && r.px_ok && r.pxn_ok;
#if PXB_HAVE_BULLET
        ok = ok && r.bt_ok;
#endif
        if (g_csv != nullptr)
        {
            std::fprintf(g_csv, "%s,%d,%d,%.4f,%.4f,%.3f,%.4f,%.3f,%.1f,%.1f,%.1f,%.1f\n", r.scene.c_str(),
                         r.proxies, r.moving, r.px_ms, r.bt_ms, r.ratio, r.pxn_ms, r.ratio_n, r.px_pair_mean,
                         r.bt_pair_mean, r.px_reinserts, r.bt_reinserts);
        }
        rows.push_back(r);
    }
    std::printf("- /proc/loadavg at end: %s\n", load_average().c_str());
    print_rows(rows);
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses during timing\n", g_proxima_errors);
        ok = false;
    }
    std::printf("\nvalidation: %s\n", ok ? "ok" : "FAILED");
    if (g_csv != nullptr)
    {
        std::fclose(g_csv);
    }
    return ok ? 0 : 1;
}
