// Shared machinery of proxima's convex-pair benchmarks: hulls on ellipsoids and pair sets, the queries, and
// the Bullet and libccd adapters, on top of bench_util.hpp (random numbers, vectors, timing, options).
// Each benchmark defines its settings (kPairs, kOverlapFraction, kSeed, kWarmStepMove, kWarmStepTurn,
// kPi) before including this header, inside `namespace {`.
#pragma once

#include "bench_util.hpp"

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

/// The point of the hull (in its own frame) extreme along the posed direction: the first on ties.
V3 support_point(const Hull& h, Quat q, V3 direction)
{
    V3 d = quat_rotate({ -q.x, -q.y, -q.z, q.w }, direction);
    double best = -HUGE_VAL;
    size_t bi = 0;
    for (size_t i = 0; i < h.points_d.size(); i += 3)
    {
        double t = d.x * h.points_d[i] + d.y * h.points_d[i + 1] + d.z * h.points_d[i + 2];
        if (t > best)
        {
            best = t;
            bi = i;
        }
    }
    return { h.points_d[bi], h.points_d[bi + 1], h.points_d[bi + 2] };
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

/// Pairs of n-point hulls. Overlapping pairs (a share kOverlapFraction of them) are deep by default: B's
/// centroid inside A. With shallow > 0 they are resting contacts instead: B's extreme vertex along -u (u a
/// random axis) is put on A's extreme vertex along u and pushed into A along -u by a depth log-uniform in
/// [0.01, 1] x shallow x size, so the penetration depth is at most that.
PairSet make_pair_set(int n, double shallow = 0.0)
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
        if (pair.overlapping && shallow > 0.0)
        {
            // B's extreme point along -u is put on A's extreme point along u, then pushed in by the depth
            V3 u = normalize({ rng.range(-1, 1), rng.range(-1, 1), rng.range(-1, 1) });
            double depth = shallow * pair.size * std::pow(10.0, rng.range(-2.0, 0.0));
            V3 top_a = quat_rotate(qa, support_point(a, qa, u));
            V3 low_b = quat_rotate(qb, support_point(b, qb, -1.0 * u));
            pb = pa + top_a - low_b - depth * u;
        }
        else if (pair.overlapping)
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
[[maybe_unused]] px_transform warm_pose_b(const Pair& pair, int step)
{
    Quat q = quat_mul(quat_axis_angle(pair.spin, kWarmStepTurn * step), pose_quat(pair.tb));
    V3 p = v3(pair.tb.p) + (kWarmStepMove * pair.size * step) * pair.drift;
    return make_pose(q, p);
}

// ------------------------------------------------------------------------------------------------------
// Reference bracket of the true distance (double precision, untimed)
// ------------------------------------------------------------------------------------------------------

/// Gap between the posed hulls along axis n, either sign: a lower bound of their distance.
[[maybe_unused]] double axis_gap(const Hull& a, const px_transform& ta, const Hull& b, const px_transform& tb, V3 n)
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
