// Bullet (double precision) as a second, independent oracle for proxima's GJK distance.
//
// Random separated hull pairs (ellipsoid hulls of 4-64 points, boxes as 8-point hulls with aspect up to
// 1e3, random tetrahedra; scales 1e-2..1e2; separations 1e-5..1 S placed with the long-double oracle)
// go through btGjkPairDetector + btVoronoiSimplexSolver (btConvexHullShape, margin 0; each pair scaled
// by a power of two to unit size first, because Bullet's thresholds are absolute) and through
// px_gjk_distance_world at the drawn scale. Bullet and proxima must agree within 1e-4 S on >= 99.5% of the pairs
// (KNOWN_FAILURES.md: Bullet double is right except on rare pairs). Every disagreement is settled by the
// certified long-double oracle of tests/oracle and printed with %a inputs.
//
// Exit status: 0 pass, 1 fail (CTest: SKIP_RETURN_CODE 77 is for the build without Bullet).
// PX_TEST_SEED replays another stream; PX_BULLET_PAIRS sets the pair count.
#include <btBulletCollisionCommon.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btPointCollector.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "proxima/proxima.h"
#include "support/rng.h"
extern "C" {
#include "oracle/hull_distance.h"
}

#ifndef BT_USE_DOUBLE_PRECISION
#error "px_oracle_bullet needs Bullet in double precision (bullet-float64)"
#endif

namespace
{

constexpr int kMaxPoints = 64;
constexpr double kAgreeRel = 1.0e-4;  // |d_bullet - d_proxima| <= 1e-4 S
constexpr double kMinAgreeing = 0.995; // fraction of pairs

struct Hull
{
    int count = 0;
    float pts[3 * kMaxPoints] = {};
};

struct Pair
{
    Hull a, b;
    px_transform ta = PX_TRANSFORM_IDENTITY_INIT, tb = PX_TRANSFORM_IDENTITY_INIT;
    int kind = 0;
};

const char* const kKindNames[3] = { "ellipsoid", "box", "tetra" };

double log_uniform(px_rng* r, double lo, double hi)
{
    return std::pow(10.0, px_rng_range(r, lo, hi));
}

void gen_hull(px_rng* r, int kind, double s, Hull* h)
{
    if (kind == 0)
    {
        double ax[3], ctr[3];
        for (int c = 0; c < 3; ++c)
        {
            ax[c] = s * log_uniform(r, -1.0, 0.0);
            ctr[c] = s * px_rng_range(r, -0.2, 0.2);
        }
        h->count = 4 + px_rng_int(r, 61);
        for (int i = 0; i < h->count; ++i)
        {
            double u[3];
            px_rng_unit_vector(r, u);
            for (int c = 0; c < 3; ++c)
            {
                h->pts[3 * i + c] = static_cast<float>(ctr[c] + ax[c] * u[c]);
            }
        }
    }
    else if (kind == 1)
    {
        double e[3] = { s, s * log_uniform(r, -3.0, 0.0), s * log_uniform(r, -3.0, 0.0) };
        int p = px_rng_int(r, 3);
        h->count = 8;
        for (int i = 0; i < 8; ++i)
        {
            for (int c = 0; c < 3; ++c)
            {
                double he = e[(c + p) % 3];
                h->pts[3 * i + c] = static_cast<float>((i >> c) & 1 ? he : -he);
            }
        }
    }
    else
    {
        h->count = 4;
        for (int i = 0; i < 12; ++i)
        {
            h->pts[i] = static_cast<float>(s * px_rng_normal(r));
        }
    }
}

struct OracleView
{
    long double wa[3 * kMaxPoints], wb[3 * kMaxPoints];
    long double S = 0.0L;
    pxo_distance d{};
};

void oracle_eval(const Pair& p, OracleView* o)
{
    pxo_transform_points(p.a.pts, p.a.count, p.ta.q, p.ta.p, p.ta.p, o->wa);
    pxo_transform_points(p.b.pts, p.b.count, p.tb.q, p.tb.p, p.ta.p, o->wb);
    long double ea = pxo_extent(o->wa, p.a.count), eb = pxo_extent(o->wb, p.b.count);
    o->S = ea > eb ? ea : eb;
    pxo_hull_distance(o->wa, p.a.count, o->wb, p.b.count, o->S, &o->d);
}

// A separated pair at distance about target * S (placed with the oracle). False if placement failed.
bool gen_pair(px_rng* r, Pair* p)
{
    *p = Pair();
    p->kind = px_rng_int(r, 10) < 6 ? 0 : (px_rng_int(r, 2) ? 1 : 2);
    double s = log_uniform(r, -2.0, 2.0);
    gen_hull(r, p->kind, s, &p->a);
    gen_hull(r, p->kind == 2 ? 0 : p->kind, s * px_rng_range(r, 0.5, 2.0), &p->b);
    double qa[4], qb[4];
    px_rng_quat(r, qa);
    px_rng_quat(r, qb);
    double dir[3];
    px_rng_unit_vector(r, dir);
    for (int i = 0; i < 4; ++i)
    {
        p->ta.q[i] = static_cast<float>(qa[i]);
        p->tb.q[i] = static_cast<float>(qb[i]);
    }
    for (int i = 0; i < 3; ++i)
    {
        p->ta.p[i] = static_cast<float>(s * px_rng_range(r, -10.0, 10.0));
        p->tb.p[i] = static_cast<float>(static_cast<double>(p->ta.p[i]) + 6.0 * s * dir[i]);
    }
    static OracleView o;
    oracle_eval(*p, &o);
    for (int k = 0; k < 6 && (o.d.overlap || !o.d.certified); ++k)
    {
        for (int i = 0; i < 3; ++i)
        {
            p->tb.p[i] = static_cast<float>(static_cast<double>(p->tb.p[i]) + 4.0 * s * dir[i]);
        }
        oracle_eval(*p, &o);
    }
    if (o.d.overlap || !o.d.certified)
    {
        return false;
    }
    long double target = static_cast<long double>(log_uniform(r, -5.0, 0.0)) * o.S;
    for (int i = 0; i < 3; ++i)
    {
        p->tb.p[i] = static_cast<float>(static_cast<long double>(p->tb.p[i]) + (target - o.d.distance) * o.d.normal[i]);
    }
    oracle_eval(*p, &o);
    return !o.d.overlap && o.d.certified;
}

void print_floats(const char* name, const float* v, int n)
{
    std::printf("    %s = {", name);
    for (int i = 0; i < n; ++i)
    {
        std::printf("%s%af", i == 0 ? " " : (i % 6 == 0 ? ",\n      " : ", "), static_cast<double>(v[i]));
    }
    std::printf(" }\n");
}

void print_pair(const Pair& p)
{
    std::printf("    kind %s, %d and %d points\n", kKindNames[p.kind], p.a.count, p.b.count);
    print_floats("a", p.a.pts, 3 * p.a.count);
    print_floats("b", p.b.pts, 3 * p.b.count);
    print_floats("qa", p.ta.q, 4);
    print_floats("pa", p.ta.p, 3);
    print_floats("qb", p.tb.q, 4);
    print_floats("pb", p.tb.p, 3);
}

struct BulletResult
{
    bool ok = false;
    double distance = 0.0;
    int degenerate = 0;
    int iterations = 0;
};

// Bullet's distance for the pair with every length multiplied by k (a power of two: exact).
BulletResult bullet_distance(const Pair& p, double k)
{
    btConvexHullShape ha, hb;
    for (int i = 0; i < p.a.count; ++i)
    {
        ha.addPoint(k * btVector3(p.a.pts[3 * i], p.a.pts[3 * i + 1], p.a.pts[3 * i + 2]), false);
    }
    for (int i = 0; i < p.b.count; ++i)
    {
        hb.addPoint(k * btVector3(p.b.pts[3 * i], p.b.pts[3 * i + 1], p.b.pts[3 * i + 2]), false);
    }
    ha.recalcLocalAabb();
    hb.recalcLocalAabb();
    ha.setMargin(0.0);
    hb.setMargin(0.0);
    btVoronoiSimplexSolver simplex;
    btGjkPairDetector gjk(&ha, &hb, &simplex, nullptr);
    btGjkPairDetector::ClosestPointInput in;
    // btQuaternion normalizes in the matrix conversion, as the oracle does
    in.m_transformA = btTransform(btQuaternion(p.ta.q[0], p.ta.q[1], p.ta.q[2], p.ta.q[3]),
                                  k * btVector3(p.ta.p[0], p.ta.p[1], p.ta.p[2]));
    in.m_transformB = btTransform(btQuaternion(p.tb.q[0], p.tb.q[1], p.tb.q[2], p.tb.q[3]),
                                  k * btVector3(p.tb.p[0], p.tb.p[1], p.tb.p[2]));
    in.m_maximumDistanceSquared = BT_LARGE_FLOAT;
    btPointCollector out;
    gjk.getClosestPoints(in, out, nullptr);
    BulletResult r;
    r.ok = out.m_hasResult && std::isfinite(out.m_distance);
    r.distance = out.m_distance / k;
    r.degenerate = gjk.m_degenerateSimplex;
    r.iterations = gjk.m_curIter;
    return r;
}

long pair_count()
{
    const char* env = std::getenv("PX_BULLET_PAIRS");
    if (env != nullptr && std::atol(env) > 0)
    {
        return std::atol(env);
    }
    return 2000;
}

} // namespace

int main()
{
    const long n = pair_count();
    const char* seed = std::getenv("PX_TEST_SEED");
    std::printf("oracle_bullet: %ld separated hull pairs, Bullet %d (double), seed PX_TEST_SEED=%s\n", n,
                btGetVersion(), seed != nullptr ? seed : "0");
    px_rng r = px_rng_seeded(0xb0117e7ull);
    long done = 0, placed_failed = 0, agree = 0, bullet_no_result = 0;
    long bullet_wrong = 0, proxima_wrong = 0, printed = 0, bullet_raw_wrong = 0, proxima_contract = 0;
    double max_bt = 0.0, max_px = 0.0, max_diff = 0.0;
    static OracleView o;
    Pair p;
    while (done < n)
    {
        if (!gen_pair(&r, &p))
        {
            ++placed_failed;
            continue;
        }
        ++done;
        oracle_eval(p, &o);
        const double S = static_cast<double>(o.S);
        const double dstar = static_cast<double>(o.d.distance);
        // Bullet's thresholds are absolute (btVoronoiSimplexSolver, btGjkPairDetector): it is a trusted
        // reference only near unit size. Run it on the pair scaled by a power of two to S in [1, 2)
        // (exact), and, for information, at the raw scale.
        const double k = std::ldexp(1.0, -std::ilogb(S));
        BulletResult bt = bullet_distance(p, k);
        BulletResult raw = bullet_distance(p, 1.0);
        bullet_raw_wrong += !raw.ok || std::fabs(raw.distance - dstar) / S > kAgreeRel;
        px_shape sa = px_shape_hull(p.a.pts, p.a.count), sb = px_shape_hull(p.b.pts, p.b.count);
        px_gjk_result pr;
        px_status st = px_gjk_distance_world(&sa, &p.ta, &sb, &p.tb, nullptr, &pr);
        const double dpx = static_cast<double>(pr.distance);
        const double ebt = bt.ok ? std::fabs(bt.distance - dstar) / S : INFINITY;
        const double epx = st == PX_OK ? std::fabs(dpx - dstar) / S : INFINITY;
        const double diff = bt.ok ? std::fabs(bt.distance - dpx) / S : INFINITY;
        if (!bt.ok)
        {
            ++bullet_no_result;
        }
        max_bt = bt.ok && ebt > max_bt ? ebt : max_bt;
        max_px = epx > max_px ? epx : max_px;
        max_diff = bt.ok && diff > max_diff ? diff : max_diff;
        bullet_wrong += ebt > kAgreeRel;
        proxima_wrong += epx > kAgreeRel;
        {
            // proxima's own contract (DESIGN.md): 1e-5 S + 16 FLT_EPSILON C; reported, not asserted here
            long double C = 0.0L;
            for (int i = 0; i < 3 * p.a.count; ++i)
            {
                C = std::fmax(C, std::fabs(o.wa[i] + static_cast<long double>(p.ta.p[i % 3])));
            }
            for (int i = 0; i < 3 * p.b.count; ++i)
            {
                C = std::fmax(C, std::fabs(o.wb[i] + static_cast<long double>(p.ta.p[i % 3])));
            }
            double tol = 1.0e-5 * S + 16.0 * FLT_EPSILON * static_cast<double>(C);
            proxima_contract += !(st == PX_OK && std::fabs(dpx - dstar) <= tol);
        }
        if (st == PX_OK && diff <= kAgreeRel)
        {
            ++agree;
        }
        else if (printed < 10)
        {
            ++printed;
            std::printf("  pair %ld disagrees: d* %.17Lg (S %.6g); bullet %.17g (ok %d, degenerate %d, %d iterations, "
                        "error %.3g S); proxima %.9g (status %d, exit %d, %d iterations, error %.3g S)\n",
                        done - 1, o.d.distance, S, bt.distance, bt.ok ? 1 : 0, bt.degenerate, bt.iterations, ebt,
                        dpx, static_cast<int>(st), static_cast<int>(pr.exit), pr.iterations, epx);
            print_pair(p);
        }
    }
    const double frac = static_cast<double>(agree) / static_cast<double>(n);
    std::printf("  agreement within 1e-4 S: %ld / %ld (%.2f%%, need %.1f%%); max |bullet - proxima| %.3g S\n", agree, n,
                100.0 * frac, 100.0 * kMinAgreeing, max_diff);
    std::printf("  against the certified oracle: bullet off by > 1e-4 S on %ld pairs (max %.3g S), no result on %ld; "
                "proxima off by > 1e-4 S on %ld pairs (max %.3g S)\n",
                bullet_wrong, max_bt, bullet_no_result, proxima_wrong, max_px);
    std::printf("  (proxima outside its own 1e-5 S + 16 eps C contract on %ld pairs; gjk_accuracy asserts that)\n",
                proxima_contract);
    std::printf("  (Bullet at the raw scale, not normalized to unit size: off by > 1e-4 S on %ld pairs)\n",
                bullet_raw_wrong);
    std::printf("  %ld draws rejected (could not place separated with a closed certificate)\n", placed_failed);
    if (frac < kMinAgreeing)
    {
        std::printf("oracle_bullet FAILED\n");
        return 1;
    }
    std::printf("oracle_bullet ok\n");
    return 0;
}
