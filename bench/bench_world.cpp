// proxima world benchmark: a full collision step (broadphase + narrowphase contacts) of px_world against
// Bullet's btCollisionWorld::performDiscreteCollisionDetection, the same moving boxes in both, in one process,
// plus the same proxima step with its narrowphase on a px_thread_pool of 2 workers (issue 7).
//
// Scenes (deterministic, splitmix64):
//   1. sparse: 10 000 boxes in a 100^3 box (about 2% of the volume filled): few touching pairs.
//   2. dense: 10 000 boxes in a 50^3 box (about 16% filled): many touching pairs.
// Every box has half extents uniform in [0.25, 1.0] per axis, a uniformly random orientation turning about a
// random axis at 0.2 .. 0.6 rad/s, and a velocity of 0.5 .. 1.5 units/s per axis (random sign); boxes bounce
// off the walls (their bounding spheres stay inside) and pass through each other (there is no solver). The
// motion is integrated in double at 60 Hz outside the timed region; both libraries get the same float poses.
//
// One step, timed per frame on the wall clock (the 1-thread engines on this thread's processor time under
// --cpu-clock):
//   proxima:  px_world_set_poses with every body's pose (one call: poses, boxes and the tree searches of the
//             bodies that leave their fat boxes on the world's task system; --set-pose loop: a
//             px_world_set_pose call per body instead), then px_world_update.
//   Bullet:   btCollisionObject::setWorldTransform for every object, then performDiscreteCollisionDetection
//             (AABB update, btDbvtBroadphase pair update, dispatch of every overlapping pair).
// Every engine steps every frame (all keep state from frame to frame); the order of the engines rotates from
// frame to frame. After the warm-up frames, the report gives the median ms per frame of each engine and the
// median over frames of the per-frame ratios Bullet / proxima and proxima 1 thread / 2 threads. It also gives
// the calling thread's processor time during the 2-thread step (its share of the parallel stages plus the
// serial ones, and the time it spins waiting for the pool, up to 0.2 ms per job): on a saturated machine an
// upper bound of what the 2-thread step would take with a free core; on a quiet one it equals the wall clock.
//
// Making the two comparable:
//   - proxima: px_world_default_def(): aabb margin 0.1 (fat boxes also stretched along the displacement),
//     contact margin 0.02 (points kept up to 2 cm of separation: speculative contacts).
//   - Bullet: btDefaultCollisionConfiguration with the manifold and algorithm pools grown to 65536 (the
//     default 4096 would send the dense scene's pairs to the heap), btCollisionDispatcher, btDbvtBroadphase
//     (defaults: fat margin 0.05), btCollisionWorld. Box pairs go to btBoxBoxCollisionAlgorithm (ODE's
//     box-box, btBoxBoxDetector), which uses the full half extents whatever the collision margin
//     (btBoxShape keeps getHalfExtentsWithMargin equal to the size given, and the box-box detector reads
//     that), so the shapes are the same as proxima's; setMargin(0) changes nothing for box pairs and is not
//     used. Bullet grows every AABB by gContactBreakingThreshold (0.02, the same as proxima's contact margin),
//     and the dispatcher here sets every manifold's contact breaking threshold to 0.02 too (Bullet's default
//     is 0.02 times the shape's bounding radius). Its box-box detector only makes points for penetrating
//     boxes; persistent points are kept while they stay within the threshold.
//   - Counts: proxima's px_world_stats (pairs, touching pairs, points; every point has separation <= 0.02);
//     Bullet's overlapping pairs, manifolds, manifolds with a point at distance <= 0.02 and those points.
//     Because Bullet's detector makes no speculative points, both are also counted at separation <= 0
//     ("penetrating"), and on the last frame the penetrating pair sets of both libraries are compared with
//     each other and with an exact separating-axis test in double (ground truth: boxes whose interiors
//     overlap), so a reader can judge that both did the same work.
//
// Usage: bench_world [--quick] [--cpu-clock] [--csv FILE] [--only 1|2] [--frames N] [--warmup N]
//                    [--engine all|proxima|proxima2|bullet] [--set-pose batch|loop]
//   --engine runs that engine alone (for a profiler: perf record ./bench_world --only 1 --engine proxima).
//   --csv FILE writes scene,engine,ms_per_frame,ratio: ratio is Bullet / proxima 1 thread on the bullet rows and
//   proxima 1 thread / 2 threads on the proxima2 rows (above 1: the proxima row it is compared with is faster).

#include "proxima/proxima.h"
#include "proxima/task.h"
#include "proxima/world.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if PXB_HAVE_BULLET
#include <btBulletCollisionCommon.h>
#include <LinearMath/btScalar.h>
#endif

namespace
{

const double kPi = 3.14159265358979323846;
const double kDt = 1.0 / 60.0;
const float kContactMargin = 0.02f; // proxima's default contact margin, and Bullet's threshold here

#include "bench_util.hpp"

struct Options
{
    bool quick = false;
    std::string csv_path;
    int only = 0; // 0: every scene
    int frames = 300;
    int warmup = 30;
    bool run_px = true, run_px2 = true, run_bt = true;
};

// ------------------------------------------------------------------------------------------------------
// Scene: moving boxes in a walled cube
// ------------------------------------------------------------------------------------------------------

struct SceneDef
{
    const char* id; // for the CSV file
    const char* name;
    int count;
    double size; // edge of the cube [-size / 2, size / 2]^3
    uint64_t seed;
};

struct Box
{
    V3 half;
    double radius; // bounding sphere
    V3 p, v;
    Quat q;
    V3 axis;     // turning axis (unit)
    double rate; // rad/s
};

struct Scene
{
    SceneDef def;
    std::vector<Box> boxes;
    std::vector<px_transform> poses; // this frame's, float

    explicit Scene(const SceneDef& d) : def(d)
    {
        SplitMix64 rng(d.seed);
        double h = 0.5 * d.size;
        for (int i = 0; i < d.count; ++i)
        {
            Box b;
            b.half = { rng.range(0.25, 1.0), rng.range(0.25, 1.0), rng.range(0.25, 1.0) };
            b.radius = length(b.half);
            b.p = { rng.range(-h + b.radius, h - b.radius), rng.range(-h + b.radius, h - b.radius),
                    rng.range(-h + b.radius, h - b.radius) };
            auto speed = [&] { return (rng.uniform() < 0.5 ? -1.0 : 1.0) * rng.range(0.5, 1.5); };
            b.v = { speed(), speed(), speed() };
            b.q = random_quat(rng);
            b.axis = normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) + 1e-3 });
            b.rate = rng.range(0.2, 0.6);
            boxes.push_back(b);
        }
        poses.resize(boxes.size());
        write_poses();
    }

    void write_poses()
    {
        for (size_t i = 0; i < boxes.size(); ++i)
        {
            poses[i] = make_pose(boxes[i].q, boxes[i].p);
        }
    }

    /// One 60 Hz step of the motion (untimed).
    void advance()
    {
        double h = 0.5 * def.size;
        for (Box& b : boxes)
        {
            b.p = b.p + kDt * b.v;
            double* p = &b.p.x;
            double* v = &b.v.x;
            for (int k = 0; k < 3; ++k)
            {
                if ((p[k] > h - b.radius && v[k] > 0) || (p[k] < -h + b.radius && v[k] < 0))
                {
                    v[k] = -v[k];
                }
            }
            b.q = quat_mul(quat_axis_angle(b.axis, b.rate * kDt), b.q);
            double n = std::sqrt(b.q.x * b.q.x + b.q.y * b.q.y + b.q.z * b.q.z + b.q.w * b.q.w);
            b.q = { b.q.x / n, b.q.y / n, b.q.z / n, b.q.w / n };
        }
        write_poses();
    }
};

/// Unordered pair (lo, hi) as one key.
inline uint64_t key_of(int a, int b)
{
    return (uint64_t)(uint32_t)std::min(a, b) << 32 | (uint32_t)std::max(a, b);
}

// ------------------------------------------------------------------------------------------------------
// Ground truth: separating-axis test of two posed boxes, in double
// ------------------------------------------------------------------------------------------------------

/// The largest separation of the two boxes' projections over the 15 axes of the separating-axis test (a
/// lower bound of their distance when > 0; < 0 when the interiors overlap). Poses are the float ones.
double sat_separation(const Box& a, const px_transform& ta, const Box& b, const px_transform& tb)
{
    Quat qa = pose_quat(ta), qb = pose_quat(tb);
    V3 ax[3] = { quat_rotate(qa, { 1, 0, 0 }), quat_rotate(qa, { 0, 1, 0 }), quat_rotate(qa, { 0, 0, 1 }) };
    V3 bx[3] = { quat_rotate(qb, { 1, 0, 0 }), quat_rotate(qb, { 0, 1, 0 }), quat_rotate(qb, { 0, 0, 1 }) };
    double ha[3] = { a.half.x, a.half.y, a.half.z }, hb[3] = { b.half.x, b.half.y, b.half.z };
    V3 d = v3(tb.p) - v3(ta.p);
    double best = -HUGE_VAL;
    auto test = [&](V3 l) {
        double len = length(l);
        if (len < 1e-9)
        {
            return;
        }
        l = (1.0 / len) * l;
        double ra = 0, rb = 0;
        for (int k = 0; k < 3; ++k)
        {
            ra += ha[k] * std::fabs(dot(ax[k], l));
            rb += hb[k] * std::fabs(dot(bx[k], l));
        }
        best = std::max(best, std::fabs(dot(d, l)) - ra - rb);
    };
    for (int i = 0; i < 3; ++i)
    {
        test(ax[i]);
        test(bx[i]);
        for (int j = 0; j < 3; ++j)
        {
            test(cross(ax[i], bx[j]));
        }
    }
    return best;
}

/// Every pair whose separating-axis separation is <= limit (sweep along x over the bounding spheres).
std::vector<std::pair<uint64_t, double>> sat_pairs(const Scene& s, double limit)
{
    size_t n = s.boxes.size();
    std::vector<std::pair<double, int>> order;
    for (size_t i = 0; i < n; ++i)
    {
        order.push_back({ (double)s.poses[i].p[0] - s.boxes[i].radius, (int)i });
    }
    std::sort(order.begin(), order.end());
    std::vector<std::pair<uint64_t, double>> out;
    for (size_t u = 0; u < n; ++u)
    {
        int i = order[u].second;
        double right = (double)s.poses[(size_t)i].p[0] + s.boxes[(size_t)i].radius + limit;
        for (size_t w = u + 1; w < n && order[w].first <= right; ++w)
        {
            int j = order[w].second;
            V3 d = v3(s.poses[(size_t)j].p) - v3(s.poses[(size_t)i].p);
            double reach = s.boxes[(size_t)i].radius + s.boxes[(size_t)j].radius + limit;
            if (dot(d, d) > reach * reach)
            {
                continue;
            }
            double sep = sat_separation(s.boxes[(size_t)i], s.poses[(size_t)i], s.boxes[(size_t)j],
                                        s.poses[(size_t)j]);
            if (sep <= limit)
            {
                out.push_back({ key_of(i, j), sep });
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

// ------------------------------------------------------------------------------------------------------
// The engines
// ------------------------------------------------------------------------------------------------------

/// Counts of one frame, the same for both libraries.
struct Counts
{
    double pairs = 0;       // broadphase pairs tested (proxima: pair_count; Bullet: overlapping pairs)
    double manifolds = 0;   // Bullet: persistent manifolds (proxima: = pairs)
    double touching = 0;    // pairs with a point at separation <= 0.02
    double points = 0;      // those points
    double penetrating = 0; // pairs with a point at separation <= 0
    double pen_points = 0;  // points at separation <= 0

    void add(const Counts& c)
    {
        pairs += c.pairs;
        manifolds += c.manifolds;
        touching += c.touching;
        points += c.points;
        penetrating += c.penetrating;
        pen_points += c.pen_points;
    }
};

bool g_pose_loop = false; // --set-pose loop: px_world_set_pose per body instead of one px_world_set_poses

struct ProximaEngine
{
    px_world* world = nullptr;
    px_thread_pool* pool = nullptr;
    std::vector<px_body_id> ids;
    std::vector<double> set_pose_ns, update_ns; // per timed frame (part_clock)

    ProximaEngine(const Scene& s, int threads)
    {
        px_world_def def = px_world_default_def();
        def.contact_margin = kContactMargin;
        if (threads > 1)
        {
            if (px_thread_pool_create(threads, nullptr, &pool) != PX_OK)
            {
                std::fprintf(stderr, "px_thread_pool_create failed\n");
                std::exit(1);
            }
            def.tasks = px_thread_pool_task_system(pool);
        }
        if (px_world_create(&def, &world) != PX_OK)
        {
            std::fprintf(stderr, "px_world_create failed\n");
            std::exit(1);
        }
        for (size_t i = 0; i < s.boxes.size(); ++i)
        {
            px_body_def bd = px_body_default_def();
            vec3 half = { (float)s.boxes[i].half.x, (float)s.boxes[i].half.y, (float)s.boxes[i].half.z };
            bd.shape = px_shape_box(half);
            bd.pose = s.poses[i];
            px_body_id id;
            if (px_world_create_body(world, &bd, &id) != PX_OK)
            {
                std::fprintf(stderr, "px_world_create_body failed\n");
                std::exit(1);
            }
            ids.push_back(id);
        }
    }

    ~ProximaEngine()
    {
        px_world_destroy(world);
        px_thread_pool_destroy(pool);
    }

    ProximaEngine(const ProximaEngine&) = delete;
    ProximaEngine& operator=(const ProximaEngine&) = delete;

    /// The clock of the step's parts: as the step's (processor time for 1 thread under --cpu-clock, else wall).
    uint64_t part_clock() const { return g_cpu_clock && pool == nullptr ? thread_cpu_ns() : now_ns(); }

    void step(const Scene& s, bool record)
    {
        uint64_t t0 = part_clock();
        if (g_pose_loop)
        {
            for (size_t i = 0; i < ids.size(); ++i)
            {
                g_proxima_errors += px_world_set_pose(world, ids[i], &s.poses[i]) < 0;
            }
        }
        else
        {
            g_proxima_errors += px_world_set_poses(world, ids.data(), s.poses.data(), (int)ids.size()) < 0;
        }
        uint64_t t1 = part_clock();
        g_proxima_errors += px_world_update(world) < 0;
        uint64_t t2 = part_clock();
        if (record)
        {
            set_pose_ns.push_back((double)(t1 - t0));
            update_ns.push_back((double)(t2 - t1));
        }
    }

    Counts counts() const
    {
        px_world_stats st = px_world_get_stats(world);
        Counts c;
        c.pairs = st.pair_count;
        c.manifolds = st.pair_count;
        c.touching = st.touching_pairs;
        c.points = st.point_count;
        int n = 0;
        const px_world_contact* contacts = px_world_contacts(world, &n);
        for (int i = 0; i < n; ++i)
        {
            int pen = 0;
            for (int k = 0; k < contacts[i].manifold.count; ++k)
            {
                pen += contacts[i].manifold.points[k].separation <= 0.0f;
            }
            c.penetrating += pen > 0;
            c.pen_points += pen;
        }
        return c;
    }

    /// Pairs with a point at separation <= limit.
    std::set<uint64_t> pair_set(float limit) const
    {
        std::set<uint64_t> out;
        int n = 0;
        const px_world_contact* contacts = px_world_contacts(world, &n);
        for (int i = 0; i < n; ++i)
        {
            for (int k = 0; k < contacts[i].manifold.count; ++k)
            {
                if (contacts[i].manifold.points[k].separation <= limit)
                {
                    out.insert(key_of(contacts[i].body_a.index, contacts[i].body_b.index));
                    break;
                }
            }
        }
        return out;
    }
};

#if PXB_HAVE_BULLET
/// Sets every new manifold's contact breaking threshold to one value (Bullet's default scales it by the
/// shape's size).
class ThresholdDispatcher : public btCollisionDispatcher
{
public:
    ThresholdDispatcher(btCollisionConfiguration* config, btScalar threshold)
        : btCollisionDispatcher(config), threshold_(threshold)
    {
    }

    btPersistentManifold* getNewManifold(const btCollisionObject* b0, const btCollisionObject* b1) override
    {
        btPersistentManifold* m = btCollisionDispatcher::getNewManifold(b0, b1);
        m->setContactBreakingThreshold(threshold_);
        return m;
    }

private:
    btScalar threshold_;
};

struct BulletEngine
{
    std::unique_ptr<btDefaultCollisionConfiguration> config;
    std::unique_ptr<ThresholdDispatcher> dispatcher;
    std::unique_ptr<btDbvtBroadphase> broadphase;
    std::unique_ptr<btCollisionWorld> world;
    std::vector<std::unique_ptr<btBoxShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;

    static btTransform transform_of(const px_transform& t)
    {
        return btTransform(btQuaternion(t.q[0], t.q[1], t.q[2], t.q[3]), btVector3(t.p[0], t.p[1], t.p[2]));
    }

    explicit BulletEngine(const Scene& s)
    {
        btDefaultCollisionConstructionInfo info;
        info.m_defaultMaxPersistentManifoldPoolSize = 1 << 16;
        info.m_defaultMaxCollisionAlgorithmPoolSize = 1 << 16;
        config = std::make_unique<btDefaultCollisionConfiguration>(info);
        dispatcher = std::make_unique<ThresholdDispatcher>(config.get(), (btScalar)kContactMargin);
        broadphase = std::make_unique<btDbvtBroadphase>();
        world = std::make_unique<btCollisionWorld>(dispatcher.get(), broadphase.get(), config.get());
        for (size_t i = 0; i < s.boxes.size(); ++i)
        {
            const Box& b = s.boxes[i];
            shapes.push_back(std::make_unique<btBoxShape>(
                btVector3((btScalar)(float)b.half.x, (btScalar)(float)b.half.y, (btScalar)(float)b.half.z)));
            auto o = std::make_unique<btCollisionObject>();
            o->setCollisionShape(shapes.back().get());
            o->setWorldTransform(transform_of(s.poses[i]));
            o->setUserIndex((int)i);
            world->addCollisionObject(o.get());
            objects.push_back(std::move(o));
        }
    }

    ~BulletEngine()
    {
        for (auto& o : objects)
        {
            world->removeCollisionObject(o.get());
        }
    }

    BulletEngine(const BulletEngine&) = delete;
    BulletEngine& operator=(const BulletEngine&) = delete;

    void step(const Scene& s)
    {
        for (size_t i = 0; i < objects.size(); ++i)
        {
            objects[i]->setWorldTransform(transform_of(s.poses[i]));
        }
        world->performDiscreteCollisionDetection();
    }

    Counts counts() const
    {
        Counts c;
        c.pairs = world->getPairCache()->getNumOverlappingPairs();
        c.manifolds = dispatcher->getNumManifolds();
        for (int m = 0; m < dispatcher->getNumManifolds(); ++m)
        {
            const btPersistentManifold* pm = dispatcher->getManifoldByIndexInternal(m);
            int near = 0, pen = 0;
            for (int k = 0; k < pm->getNumContacts(); ++k)
            {
                btScalar d = pm->getContactPoint(k).getDistance();
                near += d <= kContactMargin;
                pen += d <= 0;
            }
            c.touching += near > 0;
            c.points += near;
            c.penetrating += pen > 0;
            c.pen_points += pen;
        }
        return c;
    }

    std::set<uint64_t> pair_set(float limit) const
    {
        std::set<uint64_t> out;
        for (int m = 0; m < dispatcher->getNumManifolds(); ++m)
        {
            const btPersistentManifold* pm = dispatcher->getManifoldByIndexInternal(m);
            for (int k = 0; k < pm->getNumContacts(); ++k)
            {
                if (pm->getContactPoint(k).getDistance() <= limit)
                {
                    out.insert(key_of(pm->getBody0()->getUserIndex(), pm->getBody1()->getUserIndex()));
                    break;
                }
            }
        }
        return out;
    }
};
#endif

// ------------------------------------------------------------------------------------------------------
// One scene
// ------------------------------------------------------------------------------------------------------

struct Result
{
    std::string id, scene;
    double px = NAN, px2 = NAN, bt = NAN;              // median ms per frame
    double px_set_pose = NAN, px_update = NAN;         // median ms of the two parts (1 thread)
    double px2_update = NAN;                           // median ms of px_world_update on 2 threads
    double ratio_bt = NAN, ratio_threads = NAN;        // medians of per-frame ratios
    double px2_caller = NAN;                           // median processor time of the calling thread, 2 threads
    double ratio_threads_caller = NAN;                 // median of per-frame 1-thread / 2-thread processor times
    Counts c_px, c_bt;                                 // per-frame means over the timed frames
    bool threads_identical = true;                     // 2-thread contacts equal the 1-thread ones every frame
    std::vector<std::string> check;                    // last-frame cross-check lines
};

size_t count_in(const std::set<uint64_t>& a, const std::set<uint64_t>& b)
{
    size_t n = 0;
    for (uint64_t k : a)
    {
        n += b.count(k);
    }
    return n;
}

bool same_contacts(const px_world* a, const px_world* b)
{
    int na = 0, nb = 0;
    const px_world_contact* ca = px_world_contacts(a, &na);
    const px_world_contact* cb = px_world_contacts(b, &nb);
    if (na != nb)
    {
        return false;
    }
    for (int i = 0; i < na; ++i)
    {
        const px_manifold& ma = ca[i].manifold;
        const px_manifold& mb = cb[i].manifold;
        if (ca[i].body_a.index != cb[i].body_a.index || ca[i].body_b.index != cb[i].body_b.index ||
            ma.count != mb.count ||
            std::memcmp(ma.points, mb.points, sizeof(px_manifold_point) * (size_t)ma.count) != 0 ||
            std::memcmp(ma.normal, mb.normal, sizeof(ma.normal)) != 0)
        {
            return false;
        }
    }
    return true;
}

std::string describe_range(const std::vector<double>& v)
{
    if (v.empty())
    {
        return "none";
    }
    auto mm = std::minmax_element(v.begin(), v.end());
    char buf[96];
    std::snprintf(buf, sizeof buf, "SAT separation %.2e .. %.2e", *mm.first, *mm.second);
    return buf;
}

/// The last frame's penetrating pairs of both libraries against each other and the separating-axis truth.
void cross_check(const Scene& s, const ProximaEngine* px, const void* bt_engine, Result& r)
{
    std::vector<std::pair<uint64_t, double>> truth_near = sat_pairs(s, kContactMargin);
    std::set<uint64_t> truth_pen, truth_margin;
    std::vector<std::pair<uint64_t, double>> sep_of;
    for (auto& e : truth_near)
    {
        truth_margin.insert(e.first);
        if (e.second < 0)
        {
            truth_pen.insert(e.first);
        }
    }
    auto sep_lookup = [&](uint64_t key) {
        int i = (int)(key >> 32), j = (int)(key & 0xFFFFFFFFu);
        return sat_separation(s.boxes[(size_t)i], s.poses[(size_t)i], s.boxes[(size_t)j], s.poses[(size_t)j]);
    };
    char line[512];
    std::snprintf(line, sizeof line,
                  "separating-axis truth (double): %zu overlapping pairs, %zu with separation <= %.2f",
                  truth_pen.size(), truth_margin.size(), (double)kContactMargin);
    r.check.push_back(line);
    std::set<uint64_t> p_pen, p_near;
    if (px != nullptr)
    {
        p_pen = px->pair_set(0.0f);
        p_near = px->pair_set(kContactMargin);
        std::vector<double> extra, missed;
        for (uint64_t k : p_pen)
        {
            if (!truth_pen.count(k))
            {
                extra.push_back(sep_lookup(k));
            }
        }
        for (uint64_t k : truth_pen)
        {
            if (!p_pen.count(k))
            {
                missed.push_back(sep_lookup(k));
            }
        }
        std::snprintf(line, sizeof line,
                      "proxima: %zu penetrating pairs, %zu of them overlap (SAT); %zu overlapping pairs missed "
                      "(%s); extra: %s; %zu pairs with a point <= %.2f, %zu of them within %.2f (SAT)",
                      p_pen.size(), p_pen.size() - extra.size(), missed.size(), describe_range(missed).c_str(),
                      describe_range(extra).c_str(), p_near.size(), (double)kContactMargin,
                      count_in(p_near, truth_margin), (double)kContactMargin);
        r.check.push_back(line);
    }
#if PXB_HAVE_BULLET
    if (bt_engine != nullptr)
    {
        const BulletEngine* bt = (const BulletEngine*)bt_engine;
        std::set<uint64_t> b_pen = bt->pair_set(0.0f), b_near = bt->pair_set(kContactMargin);
        std::vector<double> extra, missed;
        for (uint64_t k : b_pen)
        {
            if (!truth_pen.count(k))
            {
                extra.push_back(sep_lookup(k));
            }
        }
        for (uint64_t k : truth_pen)
        {
            if (!b_pen.count(k))
            {
                missed.push_back(sep_lookup(k));
            }
        }
        std::snprintf(line, sizeof line,
                      "Bullet: %zu penetrating pairs, %zu of them overlap (SAT); %zu overlapping pairs missed "
                      "(%s); extra: %s; %zu pairs with a point <= %.2f",
                      b_pen.size(), b_pen.size() - extra.size(), missed.size(), describe_range(missed).c_str(),
                      describe_range(extra).c_str(), b_near.size(), (double)kContactMargin);
        r.check.push_back(line);
        if (px != nullptr)
        {
            std::snprintf(line, sizeof line,
                          "penetrating pairs: %zu of proxima's are Bullet's, %zu of Bullet's are proxima's; pairs "
                          "with a point <= %.2f: %zu of proxima's %zu are Bullet's, %zu of Bullet's %zu are "
                          "proxima's",
                          count_in(p_pen, b_pen), count_in(b_pen, p_pen), (double)kContactMargin,
                          count_in(p_near, b_near), p_near.size(), count_in(b_near, p_near), b_near.size());
            r.check.push_back(line);
        }
    }
#else
    (void)bt_engine;
#endif
}

Result run_scene(const SceneDef& def, const Options& opt)
{
    Result r;
    r.id = def.id;
    r.scene = def.name;
    Scene scene(def);
    std::unique_ptr<ProximaEngine> px, px2;
    if (opt.run_px)
    {
        px = std::make_unique<ProximaEngine>(scene, 1);
    }
    if (opt.run_px2)
    {
        px2 = std::make_unique<ProximaEngine>(scene, 2);
    }
#if PXB_HAVE_BULLET
    std::unique_ptr<BulletEngine> bt;
    if (opt.run_bt)
    {
        bt = std::make_unique<BulletEngine>(scene);
    }
#endif
    std::vector<double> t_px, t_px2, t_bt, r_bt, r_threads, t_px2_caller, r_threads_caller;
    int timed = 0;
    for (int frame = -opt.warmup; frame < opt.frames; ++frame)
    {
        scene.advance();
        bool record = frame >= 0;
        double f_px = NAN, f_px2 = NAN, f_bt = NAN;
        double c_px = NAN, c_px2 = NAN; // this thread's processor time in the proxima steps
        for (int j = 0; j < 3; ++j)
        {
            int k = (j + frame + opt.warmup) % 3;
            if (k == 0 && px)
            {
                uint64_t c0 = thread_cpu_ns();
                f_px = time_ns([&] { px->step(scene, record); });
                c_px = (double)(thread_cpu_ns() - c0);
            }
            else if (k == 1 && px2)
            {
                uint64_t c0 = thread_cpu_ns();
                f_px2 = time_wall_ns([&] { px2->step(scene, record); });
                c_px2 = (double)(thread_cpu_ns() - c0);
            }
#if PXB_HAVE_BULLET
            else if (k == 2 && bt)
            {
                f_bt = time_ns([&] { bt->step(scene); });
            }
#endif
        }
        if (px && px2 && !same_contacts(px->world, px2->world))
        {
            r.threads_identical = false;
        }
        if (!record)
        {
            continue;
        }
        ++timed;
        t_px.push_back(f_px * 1e-6);
        t_px2.push_back(f_px2 * 1e-6);
        t_bt.push_back(f_bt * 1e-6);
        r_bt.push_back(f_bt / f_px);
        r_threads.push_back(f_px / f_px2);
        t_px2_caller.push_back(c_px2 * 1e-6);
        r_threads_caller.push_back(c_px / c_px2);
        if (px)
        {
            r.c_px.add(px->counts());
        }
        else if (px2)
        {
            r.c_px.add(px2->counts());
        }
#if PXB_HAVE_BULLET
        if (bt)
        {
            r.c_bt.add(bt->counts());
        }
#endif
    }
    auto scale = [&](Counts& c) {
        double s = timed > 0 ? 1.0 / timed : 0.0;
        c.pairs *= s;
        c.manifolds *= s;
        c.touching *= s;
        c.points *= s;
        c.penetrating *= s;
        c.pen_points *= s;
    };
    scale(r.c_px);
    scale(r.c_bt);
    r.px = px ? median(t_px) : NAN;
    r.px2 = px2 ? median(t_px2) : NAN;
    r.bt = median(t_bt);
    r.ratio_bt = px ? median(r_bt) : NAN;
    r.ratio_threads = px && px2 ? median(r_threads) : NAN;
    r.px2_caller = px2 ? median(t_px2_caller) : NAN;
    r.ratio_threads_caller = px && px2 ? median(r_threads_caller) : NAN;
    if (px)
    {
        r.px_set_pose = median(px->set_pose_ns) * 1e-6;
        r.px_update = median(px->update_ns) * 1e-6;
    }
    if (px2)
    {
        r.px2_update = median(px2->update_ns) * 1e-6;
    }
#if PXB_HAVE_BULLET
    cross_check(scene, px ? px.get() : px2.get(), bt.get(), r);
#else
    cross_check(scene, px ? px.get() : px2.get(), nullptr, r);
#endif
    return r;
}

// ------------------------------------------------------------------------------------------------------
// Report
// ------------------------------------------------------------------------------------------------------

int usage(const char* argv0, int code)
{
    std::fprintf(code == 0 ? stdout : stderr,
                 "usage: %s [--quick] [--cpu-clock] [--csv FILE] [--only 1|2] [--frames N] [--warmup N] "
                 "[--engine all|proxima|proxima2|bullet] [--set-pose batch|loop]\n",
                 argv0);
    return code;
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    bool help = false, frames_set = false;
    std::string engine = "all";
    if (!parse_options(argc, argv, opt.quick, opt.csv_path, &opt.only, [&](int& i) {
            if (std::strcmp(argv[i], "--cpu-clock") == 0)
            {
                g_cpu_clock = true;
                return true;
            }
            if (std::strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            {
                opt.frames = std::max(1, std::atoi(argv[++i]));
                frames_set = true;
                return true;
            }
            if (std::strcmp(argv[i], "--warmup") == 0 && i + 1 < argc)
            {
                opt.warmup = std::max(0, std::atoi(argv[++i]));
                return true;
            }
            if (std::strcmp(argv[i], "--set-pose") == 0 && i + 1 < argc)
            {
                ++i;
                g_pose_loop = std::strcmp(argv[i], "loop") == 0;
                return g_pose_loop || std::strcmp(argv[i], "batch") == 0;
            }
            if (std::strcmp(argv[i], "--engine") == 0 && i + 1 < argc)
            {
                engine = argv[++i];
                return engine == "all" || engine == "proxima" || engine == "proxima2" || engine == "bullet";
            }
            help = std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0;
            return false;
        }))
    {
        return usage(argv[0], help ? 0 : 2);
    }
    if (engine != "all")
    {
        opt.run_px = engine == "proxima";
        opt.run_px2 = engine == "proxima2";
        opt.run_bt = engine == "bullet";
    }
    if (opt.quick && !frames_set)
    {
        opt.frames = 60;
        opt.warmup = 10;
    }
    FILE* csv = nullptr;
    if (!open_csv(opt.csv_path, "scene,engine,ms_per_frame,ratio", &csv))
    {
        return 1;
    }
    const SceneDef scenes[] = {
        { "sparse", "sparse: 10k boxes, 100^3", 10000, 100.0, 0x776f726c64ULL },
        { "dense", "dense: 10k boxes, 50^3", 10000, 50.0, 0x64656e7365ULL },
    };

    const std::string command = command_line(argc, argv);
    char date[64];
    time_t now = time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
    std::printf("## proxima world benchmark: a full collision step against Bullet's btCollisionWorld\n\n");
    std::printf("- command: `%s`\n", command.c_str());
    std::printf("- machine: %s\n", machine_description().c_str());
    std::printf("- /proc/loadavg at start: %s\n", load_average().c_str());
    std::printf("- date: %s\n", date);
    std::printf("- compiler: " __VERSION__ " (bench: -O2 -ffp-contract=off)\n");
    std::printf("- proxima %d.%d.%d, float; aabb margin 0.1, contact margin %.2f\n", PX_VERSION_MAJOR,
                PX_VERSION_MINOR, PX_VERSION_PATCH, (double)kContactMargin);
#if PXB_HAVE_BULLET
    std::printf("- Bullet %d (%s precision): btDbvtBroadphase, btBoxBoxCollisionAlgorithm, breaking threshold "
                "%.2f, gContactBreakingThreshold %.2f\n",
                btGetVersion(), sizeof(btScalar) == 8 ? "double" : "single", (double)kContactMargin,
                (double)gContactBreakingThreshold);
#else
    std::printf("- Bullet: not found at configure time, its rows are skipped\n");
#endif
    std::printf("- proxima poses: %s\n", g_pose_loop ? "px_world_set_pose per body" : "one px_world_set_poses call");
    std::printf("- %d warm-up frames, then %d timed frames per scene (%s clock for 1-thread steps); medians\n",
                opt.warmup, opt.frames, g_cpu_clock ? "thread processor" : "wall");

    std::vector<Result> results;
    for (int k = 0; k < 2; ++k)
    {
        if (opt.only != 0 && opt.only != k + 1)
        {
            continue;
        }
        std::fprintf(stderr, "%s ...\n", scenes[k].name);
        results.push_back(run_scene(scenes[k], opt));
    }
    std::printf("- /proc/loadavg at end: %s\n", load_average().c_str());

    std::printf("\n### Step time (ms per frame, medians; ratio = median of per-frame ratios)\n\n");
    std::printf("| scene | proxima 1 thread | (set_pose / update) | proxima 2 threads | (update) | Bullet "
                "| Bullet / proxima | proxima 1T / 2T |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Result& r : results)
    {
        std::printf("| %s | %s | %s / %s | %s | %s | %s | %s | %s |\n", r.scene.c_str(), fmt("%.2f", r.px).c_str(),
                    fmt("%.2f", r.px_set_pose).c_str(), fmt("%.2f", r.px_update).c_str(), fmt("%.2f", r.px2).c_str(),
                    fmt("%.2f", r.px2_update).c_str(), fmt("%.2f", r.bt).c_str(),
                    (fmt("%.2f", r.ratio_bt) + (std::isnan(r.ratio_bt) ? "" : "x")).c_str(),
                    (fmt("%.2f", r.ratio_threads) + (std::isnan(r.ratio_threads) ? "" : "x")).c_str());
        if (csv != nullptr)
        {
            std::fprintf(csv, "%s,proxima,%.4f,\n%s,proxima2,%.4f,%.4f\n%s,bullet,%.4f,%.4f\n", r.id.c_str(), r.px,
                         r.id.c_str(), r.px2, r.ratio_threads, r.id.c_str(), r.bt, r.ratio_bt);
        }
    }
    std::printf("\n### 2 threads on a free core (an estimate)\n\n");
    std::printf("The calling thread's processor time during the 2-thread step: its share of the parallel stages, "
                "every serial stage, and its spins while it waits for the pool (the pool's threads spin up to "
                "0.2 ms before they sleep). On a saturated machine, where the wall-clock column above mostly "
                "measures waiting for a core, it bounds the step with a free core from above; on a quiet machine "
                "it equals the wall clock. Ratio: per-frame 1-thread processor time / this.\n\n");
    std::printf("| scene | proxima 2 threads, calling thread CPU (ms) | proxima 1T / 2T (CPU of the calling thread) |\n");
    std::printf("|---|---:|---:|\n");
    for (const Result& r : results)
    {
        std::printf("| %s | %s | %s |\n", r.scene.c_str(), fmt("%.2f", r.px2_caller).c_str(),
                    (fmt("%.2f", r.ratio_threads_caller) + (std::isnan(r.ratio_threads_caller) ? "" : "x")).c_str());
    }
    std::printf("\n### Work per frame (means over the timed frames)\n\n");
    std::printf("| scene | library | pairs tested | manifolds | touching pairs (point <= %.2f) | points | "
                "penetrating pairs (point <= 0) | penetrating points |\n",
                (double)kContactMargin);
    std::printf("|---|---|---:|---:|---:|---:|---:|---:|\n");
    for (const Result& r : results)
    {
        const Counts* cs[2] = { &r.c_px, &r.c_bt };
        const char* names[2] = { "proxima", "Bullet" };
        for (int k = 0; k < 2; ++k)
        {
            const Counts& c = *cs[k];
            std::printf("| %s | %s | %.0f | %.0f | %.1f | %.1f | %.1f | %.1f |\n", r.scene.c_str(), names[k], c.pairs,
                        c.manifolds, c.touching, c.points, c.penetrating, c.pen_points);
        }
    }
    std::printf("\n### Cross-check on the last frame\n\n");
    for (const Result& r : results)
    {
        std::printf("- %s\n", r.scene.c_str());
        for (const std::string& l : r.check)
        {
            std::printf("  - %s\n", l.c_str());
        }
        std::printf("  - proxima 2 threads gave the same contacts as 1 thread on every frame: %s\n",
                    r.threads_identical ? "yes" : "NO");
    }
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses during timing\n", g_proxima_errors);
    }
    if (csv != nullptr)
    {
        std::fclose(csv);
    }
    return 0;
}
