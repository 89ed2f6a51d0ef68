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

// ------------------------------------------------------------------------------------------------------
// Deterministic random numbers (splitmix64) and small double-precision vector helpers
// ------------------------------------------------------------------------------------------------------

class SplitMix64
{
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}

    uint64_t next()
    {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, 1).
    double uniform() { return (double)(next() >> 11) * 0x1.0p-53; }
    double range(double lo, double hi) { return lo + (hi - lo) * uniform(); }

private:
    uint64_t state_;
};

struct V3
{
    double x, y, z;
};

V3 operator+(V3 a, V3 b) { return { a.x + b.x, a.y + b.y, a.z + b.z }; }
V3 operator-(V3 a, V3 b) { return { a.x - b.x, a.y - b.y, a.z - b.z }; }
V3 operator*(double s, V3 a) { return { s * a.x, s * a.y, s * a.z }; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
V3 cross(V3 a, V3 b) { return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x }; }
double length(V3 a) { return std::sqrt(dot(a, a)); }
V3 normalize(V3 a) { return (1.0 / length(a)) * a; }
V3 v3(const float* f) { return { f[0], f[1], f[2] }; }

/// Unit quaternion (x, y, z, w) in double.
struct Quat
{
    double x, y, z, w;
};

Quat quat_mul(Quat a, Quat b)
{
    return { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
}

Quat quat_axis_angle(V3 axis, double angle)
{
    V3 u = normalize(axis);
    double s = std::sin(0.5 * angle);
    return { s * u.x, s * u.y, s * u.z, std::cos(0.5 * angle) };
}

/// Uniformly distributed rotation (Shoemake, "Uniform random rotations", Graphics Gems III).
Quat random_quat(SplitMix64& rng)
{
    double u1 = rng.uniform(), u2 = 2.0 * kPi * rng.uniform(), u3 = 2.0 * kPi * rng.uniform();
    double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return { a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3) };
}

V3 quat_rotate(Quat q, V3 v)
{
    V3 u = { q.x, q.y, q.z };
    V3 t = 2.0 * cross(u, v);
    return v + q.w * t + cross(u, t);
}

/// The float pose every library receives, read back in double (quaternion renormalised in double).
Quat pose_quat(const px_transform& t)
{
    double x = t.q[0], y = t.q[1], z = t.q[2], w = t.q[3];
    double s = 1.0 / std::sqrt(x * x + y * y + z * z + w * w);
    return { s * x, s * y, s * z, s * w };
}

px_transform make_pose(Quat q, V3 p)
{
    px_transform t;
    t.q[0] = (float)q.x;
    t.q[1] = (float)q.y;
    t.q[2] = (float)q.z;
    t.q[3] = (float)q.w;
    t.p[0] = (float)p.x;
    t.p[1] = (float)p.y;
    t.p[2] = (float)p.z;
    return t;
}

// ------------------------------------------------------------------------------------------------------
// Inputs: hulls on ellipsoids, and pairs of them placed in the world
// ------------------------------------------------------------------------------------------------------

struct Hull
{
    std::vector<float> points;    ///< Packed xyz, local frame: what proxima and Bullet read
    std::vector<double> points_d; ///< The same points in double: what the libccd support function reads
    V3 centroid;                  ///< Mean of the points (inside the hull)
    double radius;                ///< Largest |point|
};

/// n points uniform on the surface of an ellipsoid with random semi-axes in [0.5, 2]. A point u uniform on
/// the unit sphere maps to (a ux, b uy, c uz); that map stretches area by
/// g(u) = sqrt((bc ux)^2 + (ac uy)^2 + (ab uz)^2), so keeping u with probability g(u) / max g makes the
/// result uniform in area. Every point of a strictly convex surface is a vertex of the hull.
Hull make_ellipsoid_hull(SplitMix64& rng, int n)
{
    double a = rng.range(0.5, 2.0), b = rng.range(0.5, 2.0), c = rng.range(0.5, 2.0);
    double g_max = std::max(b * c, std::max(a * c, a * b));
    Hull h;
    h.points.reserve(3 * (size_t)n);
    V3 sum = { 0, 0, 0 };
    h.radius = 0.0;
    while ((int)h.points.size() < 3 * n)
    {
        double z = rng.range(-1.0, 1.0), phi = 2.0 * kPi * rng.uniform();
        double r = std::sqrt(1.0 - z * z);
        V3 u = { r * std::cos(phi), r * std::sin(phi), z };
        double g = std::sqrt((b * c * u.x) * (b * c * u.x) + (a * c * u.y) * (a * c * u.y) +
                             (a * b * u.z) * (a * b * u.z));
        if (rng.uniform() * g_max >= g)
        {
            continue;
        }
        float p[3] = { (float)(a * u.x), (float)(b * u.y), (float)(c * u.z) };
        h.points.insert(h.points.end(), p, p + 3);
        V3 pd = v3(p);
        sum = sum + pd;
        h.radius = std::max(h.radius, length(pd));
    }
    h.points_d.assign(h.points.begin(), h.points.end());
    h.centroid = (1.0 / n) * sum;
    return h;
}

/// Largest dot(direction, R x) over the hull's points, R the pose's rotation (double).
double support_extent(const Hull& h, Quat q, V3 direction)
{
    V3 d = quat_rotate({ -q.x, -q.y, -q.z, q.w }, direction);
    double best = -HUGE_VAL;
    for (size_t i = 0; i < h.points_d.size(); i += 3)
    {
        best = std::max(best, d.x * h.points_d[i] + d.y * h.points_d[i + 1] + d.z * h.points_d[i + 2]);
    }
    return best;
}

struct Pair
{
    px_transform ta, tb; ///< World poses (float): every library gets these
    px_transform b_in_a; ///< Relative pose, for the px_gjk_distance row
    double size;         ///< max(radius A, radius B): the scale of tolerances
    bool overlapping;    ///< By construction
    V3 drift;            ///< Warm-start path: unit translation direction of B
    V3 spin;             ///< Warm-start path: rotation axis of B
};

struct PairSet
{
    int n = 0;
    std::vector<Hull> hulls;      ///< hulls[2 i] is A of pair i, hulls[2 i + 1] is B
    std::vector<px_shape> shapes; ///< proxima shapes over the hulls, same indexing
    std::vector<Pair> pairs;
};

PairSet make_pair_set(int n)
{
    SplitMix64 rng(kSeed ^ ((uint64_t)n * 0x100000001B3ULL));
    PairSet set;
    set.n = n;
    set.hulls.reserve(2 * kPairs);
    for (int i = 0; i < kPairs; ++i)
    {
        set.hulls.push_back(make_ellipsoid_hull(rng, n));
        set.hulls.push_back(make_ellipsoid_hull(rng, n));
        const Hull& a = set.hulls[2 * (size_t)i];
        const Hull& b = set.hulls[2 * (size_t)i + 1];

        Quat qa = random_quat(rng), qb = random_quat(rng);
        V3 pa = { rng.range(-4.0, 4.0), rng.range(-4.0, 4.0), rng.range(-4.0, 4.0) };
        Pair pair;
        pair.size = std::max(a.radius, b.radius);
        pair.overlapping = rng.uniform() < kOverlapFraction;
        V3 pb;
        if (pair.overlapping)
        {
            // B's centroid goes to a point between A's centroid and one of A's vertices, inside A.
            size_t k = (size_t)(rng.uniform() * n);
            V3 vertex = { a.points_d[3 * k], a.points_d[3 * k + 1], a.points_d[3 * k + 2] };
            V3 inside_a = a.centroid + rng.range(0.0, 0.95) * (vertex - a.centroid);
            pb = pa + quat_rotate(qa, inside_a) - quat_rotate(qb, b.centroid);
        }
        else
        {
            // Separate along a random axis u with a gap log-uniform in [1e-3, 2] x size: the slab between
            // the support planes is exactly that wide, so the distance is at least the gap.
            V3 u = normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
            double gap = pair.size * std::pow(10.0, rng.range(-3.0, std::log10(2.0)));
            double offset = support_extent(a, qa, u) + support_extent(b, qb, -1.0 * u) + gap;
            pb = pa + offset * u;
        }
        pair.ta = make_pose(qa, pa);
        pair.tb = make_pose(qb, pb);
        px_transform_inv_mul(&pair.ta, &pair.tb, &pair.b_in_a);
        pair.drift = normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
        pair.spin = normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
        set.pairs.push_back(pair);
    }
    for (const Hull& h : set.hulls)
    {
        set.shapes.push_back(px_shape_hull(h.points.data(), n));
    }
    return set;
}

/// Pose of B after `step` steps of its warm-start path.
px_transform warm_pose_b(const Pair& pair, int step)
{
    Quat q = quat_mul(quat_axis_angle(pair.spin, kWarmStepTurn * step), pose_quat(pair.tb));
    V3 p = v3(pair.tb.p) + (kWarmStepMove * pair.size * step) * pair.drift;
    return make_pose(q, p);
}

// ------------------------------------------------------------------------------------------------------
// Reference bracket of the true distance (double precision, untimed)
// ------------------------------------------------------------------------------------------------------

/// Gap between the posed hulls along axis n, either sign: a lower bound of their distance.
double axis_gap(const Hull& a, const px_transform& ta, const Hull& b, const px_transform& tb, V3 n)
{
    if (!(dot(n, n) > 0.0))
    {
        return -HUGE_VAL;
    }
    n = normalize(n);
    Quat qa = pose_quat(ta), qb = pose_quat(tb);
    double oa = dot(n, v3(ta.p)), ob = dot(n, v3(tb.p));
    double a_hi = support_extent(a, qa, n) + oa, a_lo = -support_extent(a, qa, -1.0 * n) + oa;
    double b_hi = support_extent(b, qb, n) + ob, b_lo = -support_extent(b, qb, -1.0 * n) + ob;
    return std::max(b_lo - a_hi, a_lo - b_hi);
}

// ------------------------------------------------------------------------------------------------------
// The queries (the same calls are used to check and to time)
// ------------------------------------------------------------------------------------------------------

int g_proxima_errors = 0; // proxima statuses < 0 seen while timing (should stay 0)

inline float px_world_distance(const PairSet& s, int i, px_gjk_result* r)
{
    const Pair& p = s.pairs[(size_t)i];
    px_status st = px_gjk_distance_world(&s.shapes[2 * (size_t)i], &p.ta, &s.shapes[2 * (size_t)i + 1], &p.tb,
                                         nullptr, r);
    g_proxima_errors += st < 0;
    return r->distance;
}

inline float px_relative_distance(const PairSet& s, int i, px_gjk_result* r)
{
    px_gjk_input in;
    in.a = &s.shapes[2 * (size_t)i];
    in.b = &s.shapes[2 * (size_t)i + 1];
    in.b_in_a = s.pairs[(size_t)i].b_in_a;
    px_status st = px_gjk_distance(&in, nullptr, nullptr, r);
    g_proxima_errors += st < 0;
    return r->distance;
}

inline bool px_world_overlap(const PairSet& s, int i)
{
    const Pair& p = s.pairs[(size_t)i];
    bool overlap = false;
    px_status st = px_gjk_overlap_world(&s.shapes[2 * (size_t)i], &p.ta, &s.shapes[2 * (size_t)i + 1], &p.tb,
                                        nullptr, &overlap);
    g_proxima_errors += st < 0;
    return overlap;
}

/// Warm-start row: world poses in, relative pose formed here, optional per-pair cache.
inline float px_path_distance(const px_shape* a, const px_transform& ta, const px_shape* b,
                              const px_transform& tb, px_simplex_cache* cache, px_gjk_result* r)
{
    px_gjk_input in;
    in.a = a;
    in.b = b;
    px_transform_inv_mul(&ta, &tb, &in.b_in_a);
    px_status st = px_gjk_distance(&in, nullptr, cache, r);
    g_proxima_errors += st < 0;
    return r->distance;
}

#if PXB_HAVE_BULLET
struct BulletSet
{
    std::vector<std::unique_ptr<btConvexHullShape>> shapes; ///< Same indexing as PairSet::hulls
    std::vector<btTransform> ta, tb;
    btVoronoiSimplexSolver solver;
};

btTransform to_bullet(const px_transform& t)
{
    return btTransform(btQuaternion(t.q[0], t.q[1], t.q[2], t.q[3]), btVector3(t.p[0], t.p[1], t.p[2]));
}

std::unique_ptr<BulletSet> make_bullet_set(const PairSet& s)
{
    auto b = std::make_unique<BulletSet>();
    for (const Hull& h : s.hulls)
    {
        b->shapes.push_back(
            std::make_unique<btConvexHullShape>(h.points.data(), s.n, (int)(3 * sizeof(float))));
        b->shapes.back()->setMargin(0.0f);
    }
    for (const Pair& p : s.pairs)
    {
        b->ta.push_back(to_bullet(p.ta));
        b->tb.push_back(to_bullet(p.tb));
    }
    return b;
}

struct BulletGjkOut
{
    bool has_result; ///< false: Bullet found the shapes overlapping (and, without a depth solver, stopped)
    float distance;
    btVector3 normal; ///< Bullet's normal on B
    int iterations;   ///< btGjkPairDetector::m_curIter
};

/// A fresh detector per query: btGjkPairDetector resets its search axis on every call anyway.
inline BulletGjkOut bullet_gjk(const btConvexShape* a, const btTransform& ta, const btConvexShape* b,
                               const btTransform& tb, btVoronoiSimplexSolver* solver)
{
    btGjkPairDetector detector(a, b, solver, nullptr);
    btGjkPairDetector::ClosestPointInput input;
    input.m_transformA = ta;
    input.m_transformB = tb;
    btPointCollector collector;
    detector.getClosestPoints(input, collector, nullptr);
    return { collector.m_hasResult, collector.m_hasResult ? (float)collector.m_distance : 0.0f,
             collector.m_normalOnBInWorld, detector.m_curIter };
}

inline bool bullet_epa2_distance(const btConvexShape* a, const btTransform& ta, const btConvexShape* b,
                                 const btTransform& tb, btGjkEpaSolver2::sResults* r)
{
    return btGjkEpaSolver2::Distance(a, ta, b, tb, ta.getOrigin() - tb.getOrigin(), *r);
}
#endif

#if PXB_HAVE_CCD
/// A posed hull as libccd sees it: a caller-owned object behind a support callback.
struct CcdHull
{
    const double* points;
    int count;
    double r[3][3];   ///< Rotation matrix of the pose (rows)
    double p[3];      ///< Translation
    double center[3]; ///< World centroid (MPR's interior point)
};

void ccd_hull_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out)
{
    const CcdHull* h = static_cast<const CcdHull*>(obj);
    const double* d = dir->v;
    // local direction = R^T d
    double lx = h->r[0][0] * d[0] + h->r[1][0] * d[1] + h->r[2][0] * d[2];
    double ly = h->r[0][1] * d[0] + h->r[1][1] * d[1] + h->r[2][1] * d[2];
    double lz = h->r[0][2] * d[0] + h->r[1][2] * d[1] + h->r[2][2] * d[2];
    const double* pts = h->points;
    double best = -HUGE_VAL;
    int best_index = 0;
    for (int i = 0; i < h->count; ++i)
    {
        double v = pts[3 * i] * lx + pts[3 * i + 1] * ly + pts[3 * i + 2] * lz;
        if (v > best)
        {
            best = v;
            best_index = i;
        }
    }
    const double* x = pts + 3 * best_index;
    for (int k = 0; k < 3; ++k)
    {
        out->v[k] = (ccd_real_t)(h->r[k][0] * x[0] + h->r[k][1] * x[1] + h->r[k][2] * x[2] + h->p[k]);
    }
}

void ccd_hull_center(const void* obj, ccd_vec3_t* center)
{
    const CcdHull* h = static_cast<const CcdHull*>(obj);
    for (int k = 0; k < 3; ++k)
    {
        center->v[k] = (ccd_real_t)h->center[k];
    }
}

CcdHull make_ccd_hull(const Hull& h, const px_transform& t)
{
    CcdHull c;
    c.points = h.points_d.data();
    c.count = (int)(h.points_d.size() / 3);
    Quat q = pose_quat(t);
    V3 axes[3] = { quat_rotate(q, { 1, 0, 0 }), quat_rotate(q, { 0, 1, 0 }), quat_rotate(q, { 0, 0, 1 }) };
    for (int col = 0; col < 3; ++col)
    {
        c.r[0][col] = axes[col].x;
        c.r[1][col] = axes[col].y;
        c.r[2][col] = axes[col].z;
    }
    V3 center = quat_rotate(q, h.centroid) + v3(t.p);
    c.p[0] = t.p[0];
    c.p[1] = t.p[1];
    c.p[2] = t.p[2];
    c.center[0] = center.x;
    c.center[1] = center.y;
    c.center[2] = center.z;
    return c;
}

ccd_t make_ccd_config()
{
    ccd_t ccd;
    CCD_INIT(&ccd); // default first_dir (+x) and tolerances
    ccd.support1 = ccd_hull_support;
    ccd.support2 = ccd_hull_support;
    ccd.center1 = ccd_hull_center;
    ccd.center2 = ccd_hull_center;
    ccd.max_iterations = 1000;
    return ccd;
}
#endif

// ------------------------------------------------------------------------------------------------------
// Timing
// ------------------------------------------------------------------------------------------------------

volatile double g_sink = 0.0;

uint64_t now_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/// Time `count` queries query(0) ... query(count - 1); returns nanoseconds per query.
template <class F> double time_batch(int count, F&& query)
{
    double acc = 0.0;
    uint64_t t0 = now_ns();
    for (int i = 0; i < count; ++i)
    {
        acc += (double)query(i);
    }
    uint64_t t1 = now_ns();
    g_sink = g_sink + acc;
    return (double)(t1 - t0) / count;
}

double median(std::vector<double> v)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// time_batch of the k-th query of a tuple (k known only at run time; each query stays inlined).
template <size_t I = 0, class Tuple> double time_kth(size_t k, int count, Tuple& queries)
{
    if constexpr (I < std::tuple_size_v<Tuple>)
    {
        return k == I ? time_batch(count, std::get<I>(queries)) : time_kth<I + 1>(k, count, queries);
    }
    else
    {
        return NAN;
    }
}

/// Run one batch of each query in turn, `rounds` times after one untimed warm-up round; return the
/// nanoseconds per query of every batch, one series per query, in argument order. The order rotates from
/// round to round, so no query always runs first (right after the others have evicted its data).
template <class... F>
std::array<std::vector<double>, sizeof...(F)> measure_interleaved(int rounds, int count, F&... queries)
{
    constexpr size_t kinds = sizeof...(F);
    auto tuple = std::tie(queries...);
    std::array<std::vector<double>, kinds> samples;
    for (int round = -1; round < rounds; ++round)
    {
        for (size_t j = 0; j < kinds; ++j)
        {
            size_t k = (j + (size_t)(round + 1)) % kinds;
            double t = time_kth(k, count, tuple);
            if (round >= 0)
            {
                samples[k].push_back(t);
            }
        }
    }
    return samples;
}

/// Median over rounds of peer[i] / ours[i]: the speed ratio measured within each round.
double paired_ratio(const std::vector<double>& peer, const std::vector<double>& ours)
{
    std::vector<double> r;
    for (size_t i = 0; i < peer.size() && i < ours.size(); ++i)
    {
        r.push_back(peer[i] / ours[i]);
    }
    return median(r);
}

/// Median time and the paired ratio of series `peer` against series `ours`.
struct Timing
{
    double ns = NAN;    ///< median ns per query
    double ratio = NAN; ///< paired ratio against the proxima row it is compared with
};

Timing timing_of(const std::vector<double>& peer, const std::vector<double>& ours)
{
    return { median(peer), paired_ratio(peer, ours) };
}

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

std::string machine_description()
{
    std::string model = "unknown CPU";
    int cores = 0;
    if (FILE* f = std::fopen("/proc/cpuinfo", "r"))
    {
        char line[512];
        while (std::fgets(line, sizeof line, f))
        {
            if (std::strncmp(line, "processor", 9) == 0)
            {
                cores++;
            }
            else if (std::strncmp(line, "model name", 10) == 0 && model == "unknown CPU")
            {
                const char* colon = std::strchr(line, ':');
                if (colon != nullptr)
                {
                    model = colon + 1;
                    model.erase(0, model.find_first_not_of(" \t"));
                    model.erase(model.find_last_not_of(" \t\n") + 1);
                }
            }
        }
        std::fclose(f);
    }
    return model + ", " + std::to_string(cores) + " logical cores";
}

std::string load_average()
{
    char buf[128] = "unknown";
    if (FILE* f = std::fopen("/proc/loadavg", "r"))
    {
        if (std::fgets(buf, sizeof buf, f) == nullptr)
        {
            std::strcpy(buf, "unknown");
        }
        std::fclose(f);
    }
    std::string s = buf;
    s.erase(s.find_last_not_of(" \n") + 1);
    return s;
}

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
    for (int i = 1; i < argc; ++i)
    {
        if (std::strcmp(argv[i], "--quick") == 0)
        {
            opt.quick = true;
        }
        else if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
        {
            opt.csv_path = argv[++i];
        }
        else if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
        {
            return usage(argv[0], 0);
        }
        else
        {
            return usage(argv[0], 2);
        }
    }
    if (opt.quick)
    {
        opt.batches = 7;
        opt.warm_repeats = 1;
    }

    Csv csv;
    if (!opt.csv_path.empty())
    {
        csv.f = std::fopen(opt.csv_path.c_str(), "w");
        if (csv.f == nullptr)
        {
            std::fprintf(stderr, "cannot open %s for writing\n", opt.csv_path.c_str());
            return 1;
        }
        std::fprintf(csv.f, "workload,N,peer,peer_ns,proxima_ns,ratio\n");
    }

    std::string command;
    for (int i = 0; i < argc; ++i)
    {
        command += (i ? " " : "") + std::string(argv[i]);
    }
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
