// Peers as second oracles for the penetration depth (DESIGN.md "How we know it is right").
//
// Random overlapping hull pairs (ellipsoid hulls of 4-64 points, boxes as 8-point hulls with aspect up to
// 1e3, random tetrahedra; scales 1e-2..1e2; random rotations; depths from 1e-4 S to 0.3 S, placed with the
// long-double distance oracle) go through
//   - px_contact_world at the drawn scale, float shapes and poses as drawn;
//   - libccd ccdGJKPenetration and ccdMPRPenetration (double) and Bullet btGjkEpaSolver2::Penetration
//     (double, btConvexHullShape with margin 0), on the same world points in double, each pair scaled by a
//     power of two to unit size first (exact; the peers' tolerances are absolute);
// and are compared with the exact depth of tests/oracle/sat_depth (minimum overlap over face normals and
// edge cross products). A depth agrees when it is within 1e-3 S (+ 16 FLT_EPSILON C for proxima's float
// inputs). proxima must agree on every pair; the peers' agreement rates are printed, with how often their
// depth is too small, too large or missing and whether their normal is a minimum-translation direction.
// KNOWN_FAILURES.md: "libccd 2.1 ccdGJKPenetration: depths smaller than the exact minimum translation
// distance by more than 1e-3 L on 7-10% of overlapping pairs".
//
// Exit status: 0 pass, 1 proxima failed, 77 (CTest SKIP) when a peer is absent and proxima passed.
// PX_TEST_SEED replays another stream; PX_PEERS_PAIRS sets the pair count (default 2000).
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
#include "oracle/sat_depth.h"
}

#if PXP_HAVE_CCD
#include <ccd/ccd.h>
#endif
#if PXP_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <LinearMath/btTransform.h>
#ifndef BT_USE_DOUBLE_PRECISION
#error "px_oracle_peers_contact needs Bullet in double precision (bullet-float64)"
#endif
#endif

namespace
{

typedef long double ld;

constexpr int kMaxPoints = 64;
constexpr double kAgreeRel = 1.0e-3;
constexpr int kMaxPrinted = 4;

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
    int bucket = 0;
};

const char* const kKindNames[3] = { "ellipsoid", "box", "tetra" };
const double kDepths[5] = { 1e-4, 1e-3, 1e-2, 0.1, 0.3 };

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

struct View
{
    ld wa[3 * kMaxPoints], wb[3 * kMaxPoints];
    ld S = 0.0L, C = 0.0L;
    pxo_distance d{};
};

void view_eval(const Pair& p, View* v)
{
    pxo_transform_points(p.a.pts, p.a.count, p.ta.q, p.ta.p, p.ta.p, v->wa);
    pxo_transform_points(p.b.pts, p.b.count, p.tb.q, p.tb.p, p.ta.p, v->wb);
    ld ea = pxo_extent(v->wa, p.a.count), eb = pxo_extent(v->wb, p.b.count);
    v->S = ea > eb ? ea : eb;
    v->C = 0.0L;
    for (int c = 0; c < 3; ++c)
    {
        ld x = fabsl((ld)p.ta.p[c]) + v->S, y = fabsl((ld)p.tb.p[c]) + v->S;
        v->C = x > v->C ? x : v->C;
        v->C = y > v->C ? y : v->C;
    }
    pxo_hull_distance(v->wa, p.a.count, v->wb, p.b.count, v->S, &v->d);
}

// Move B by amount along n: the float pose takes what it can, the rest shifts B's local points.
void move_b(Pair* p, const ld n[3], ld amount)
{
    ld r[3];
    for (int c = 0; c < 3; ++c)
    {
        ld want = (ld)p->tb.p[c] + amount * n[c];
        p->tb.p[c] = static_cast<float>(want);
        r[c] = want - (ld)p->tb.p[c];
    }
    float cq[4] = { -p->tb.q[0], -p->tb.q[1], -p->tb.q[2], p->tb.q[3] };
    ld local[3];
    pxo_rotate(cq, r, local);
    for (int i = 0; i < p->b.count; ++i)
    {
        for (int c = 0; c < 3; ++c)
        {
            p->b.pts[3 * i + c] = static_cast<float>((ld)p->b.pts[3 * i + c] + local[c]);
        }
    }
}

ld width_along(const ld* pts, int n, const ld d[3])
{
    ld lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; ++i)
    {
        ld t = pts[3 * i] * d[0] + pts[3 * i + 1] * d[1] + pts[3 * i + 2] * d[2];
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    return hi - lo;
}

// Draw an overlapping pair: touching first (distance oracle's normal), then pushed in by the bucket's
// depth times S (at most half the larger width along the normal).
bool gen_pair(px_rng* r, Pair* p)
{
    *p = Pair();
    double s = log_uniform(r, -2.0, 2.0);
    p->kind = px_rng_int(r, 3);
    p->bucket = px_rng_int(r, 5);
    gen_hull(r, p->kind, s, &p->a);
    gen_hull(r, px_rng_int(r, 3) == 0 ? px_rng_int(r, 3) : p->kind, s * log_uniform(r, -0.5, 0.5), &p->b);
    double qa[4], qb[4];
    px_rng_quat(r, qa);
    px_rng_quat(r, qb);
    for (int i = 0; i < 4; ++i)
    {
        p->ta.q[i] = static_cast<float>(qa[i]);
        p->tb.q[i] = static_cast<float>(qb[i]);
    }
    double dir[3];
    px_rng_unit_vector(r, dir);
    for (int c = 0; c < 3; ++c)
    {
        p->ta.p[c] = static_cast<float>(s * px_rng_range(r, -1.0, 1.0));
        p->tb.p[c] = static_cast<float>((double)p->ta.p[c] + 4.0 * s * dir[c]);
    }
    static View v;
    view_eval(*p, &v);
    if (v.d.overlap || !v.d.certified)
    {
        return false;
    }
    ld n[3] = { v.d.normal[0], v.d.normal[1], v.d.normal[2] };
    for (int it = 0; it < 3 && !v.d.overlap && v.d.certified; ++it)
    {
        move_b(p, n, -v.d.distance);
        view_eval(*p, &v);
        if (!v.d.overlap)
        {
            for (int c = 0; c < 3; ++c)
            {
                n[c] = v.d.normal[c];
            }
        }
    }
    ld wa = width_along(v.wa, p->a.count, n), wb = width_along(v.wb, p->b.count, n);
    ld cap = 0.5L * (wa > wb ? wa : wb);
    ld push = (ld)kDepths[p->bucket] * v.S;
    move_b(p, n, -(push > cap ? cap : push));
    return true;
}

void print_floats(const float* v, int n)
{
    for (int i = 0; i < n; ++i)
    {
        std::printf("%s%af", i == 0 ? "" : (i % 6 == 0 ? ",\n    " : ", "), (double)v[i]);
    }
}

void print_pair(const Pair& p, long index)
{
    std::printf("    pair %ld (%s, depth bucket %g S):\n    a[%d] = { ", index, kKindNames[p.kind], kDepths[p.bucket],
                p.a.count);
    print_floats(p.a.pts, 3 * p.a.count);
    std::printf(" }\n    b[%d] = { ", p.b.count);
    print_floats(p.b.pts, 3 * p.b.count);
    std::printf(" }\n    qa { ");
    print_floats(p.ta.q, 4);
    std::printf(" } pa { ");
    print_floats(p.ta.p, 3);
    std::printf(" } qb { ");
    print_floats(p.tb.q, 4);
    std::printf(" } pb { ");
    print_floats(p.tb.p, 3);
    std::printf(" }\n");
}

// ------------------------------------------------------------------------------------------------------
// Peer adapters on world points in double (unit-scaled)

struct Cloud
{
    std::vector<double> pts;
    double center[3] = { 0.0, 0.0, 0.0 };
    int count() const
    {
        return static_cast<int>(pts.size() / 3);
    }
};

Cloud make_cloud(const ld* w, int n, double scale)
{
    Cloud c;
    c.pts.resize(3 * static_cast<size_t>(n));
    for (int i = 0; i < 3 * n; ++i)
    {
        c.pts[static_cast<size_t>(i)] = static_cast<double>(w[i] * (ld)scale);
    }
    for (int i = 0; i < n; ++i)
    {
        for (int k = 0; k < 3; ++k)
        {
            c.center[k] += c.pts[3 * static_cast<size_t>(i) + static_cast<size_t>(k)] / n;
        }
    }
    return c;
}

struct PeerResult
{
    bool ok = false;   // returned a penetration
    double depth = 0;  // unit-scaled
    double n[3] = { 0, 0, 0 }; // B moves along n to separate (unit)
};

#if PXP_HAVE_CCD
void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out)
{
    const Cloud* c = static_cast<const Cloud*>(obj);
    int best = 0;
    double bv = -HUGE_VAL;
    for (int i = 0; i < c->count(); ++i)
    {
        const double* p = &c->pts[3 * static_cast<size_t>(i)];
        double v = p[0] * dir->v[0] + p[1] * dir->v[1] + p[2] * dir->v[2];
        if (v > bv)
        {
            bv = v;
            best = i;
        }
    }
    for (int k = 0; k < 3; ++k)
    {
        out->v[k] = c->pts[3 * static_cast<size_t>(best) + static_cast<size_t>(k)];
    }
}

void ccd_center(const void* obj, ccd_vec3_t* center)
{
    const Cloud* c = static_cast<const Cloud*>(obj);
    for (int k = 0; k < 3; ++k)
    {
        center->v[k] = c->center[k];
    }
}

PeerResult run_ccd(const Cloud& a, const Cloud& b, bool mpr)
{
    ccd_t ccd;
    CCD_INIT(&ccd);
    ccd.support1 = ccd_support;
    ccd.support2 = ccd_support;
    ccd.center1 = ccd_center;
    ccd.center2 = ccd_center;
    ccd.max_iterations = 1000;
    ccd_real_t depth = 0;
    ccd_vec3_t dir, pos;
    std::memset(&dir, 0, sizeof(dir));
    std::memset(&pos, 0, sizeof(pos));
    int rc = mpr ? ccdMPRPenetration(&a, &b, &ccd, &depth, &dir, &pos) : ccdGJKPenetration(&a, &b, &ccd, &depth, &dir, &pos);
    PeerResult r;
    // libccd: translating obj2 by depth along dir makes the objects touch (dir from A to B)
    r.ok = rc == 0 && std::isfinite(depth) && std::isfinite(dir.v[0]) && std::isfinite(dir.v[1]) && std::isfinite(dir.v[2]);
    r.depth = depth;
    double l = std::sqrt(dir.v[0] * dir.v[0] + dir.v[1] * dir.v[1] + dir.v[2] * dir.v[2]);
    for (int k = 0; k < 3; ++k)
    {
        r.n[k] = l > 0.0 ? dir.v[k] / l : 0.0;
    }
    return r;
}
#endif

#if PXP_HAVE_BULLET
PeerResult run_bullet(const Cloud& a, const Cloud& b)
{
    btConvexHullShape sa, sb;
    for (int i = 0; i < a.count(); ++i)
    {
        const double* p = &a.pts[3 * static_cast<size_t>(i)];
        sa.addPoint(btVector3(p[0], p[1], p[2]), false);
    }
    for (int i = 0; i < b.count(); ++i)
    {
        const double* p = &b.pts[3 * static_cast<size_t>(i)];
        sb.addPoint(btVector3(p[0], p[1], p[2]), false);
    }
    sa.recalcLocalAabb();
    sb.recalcLocalAabb();
    sa.setMargin(0);
    sb.setMargin(0);
    btTransform id;
    id.setIdentity();
    btGjkEpaSolver2::sResults res;
    btVector3 guess(b.center[0] - a.center[0], b.center[1] - a.center[1], b.center[2] - a.center[2]);
    if (guess.length2() == 0)
    {
        guess = btVector3(1, 0, 0);
    }
    bool pen = btGjkEpaSolver2::Penetration(&sa, id, &sb, id, guess, res);
    PeerResult r;
    r.ok = pen && std::isfinite(res.distance);
    r.depth = -res.distance;
    // witnesses[1] = witnesses[0] - depth m with m the direction that separates B: m = -normal
    double l = res.normal.length();
    for (int k = 0; k < 3; ++k)
    {
        r.n[k] = l > 0.0 ? -res.normal[k] / l : 0.0;
    }
    return r;
}
#endif

struct Tally
{
    const char* name = "";
    bool present = false;
    long agree = 0, too_small = 0, too_large = 0, failed = 0, bad_normal = 0;
    double max_short = 0.0, max_long = 0.0; // (depth* - depth) / S, (depth - depth*) / S
    long by_kind_fail[3] = { 0, 0, 0 }, by_kind[3] = { 0, 0, 0 };
    long by_bucket_fail[5] = { 0, 0, 0, 0, 0 }, by_bucket[5] = { 0, 0, 0, 0, 0 };
    int printed = 0;
};

// Record one peer's answer: depth and normal in unit-scaled coordinates against the exact depth.
void note(Tally* t, const Pair& p, long index, const PeerResult& r, ld depth_star, ld tol, const ld* wa, int na,
          const ld* wb, int nb)
{
    t->by_kind[p.kind]++;
    t->by_bucket[p.bucket]++;
    bool fail = false;
    if (!r.ok)
    {
        t->failed++;
        fail = true;
    }
    else
    {
        double e = static_cast<double>((ld)r.depth - depth_star);
        if (e < -(double)tol)
        {
            t->too_small++;
            fail = true;
        }
        else if (e > (double)tol)
        {
            t->too_large++;
            fail = true;
        }
        else
        {
            t->agree++;
        }
        t->max_short = -e > t->max_short ? -e : t->max_short;
        t->max_long = e > t->max_long ? e : t->max_long;
        ld n[3] = { r.n[0], r.n[1], r.n[2] };
        ld on = pxo_overlap_along(wa, na, wb, nb, n);
        if (!(on <= depth_star + tol))
        {
            t->bad_normal++;
        }
    }
    if (fail)
    {
        t->by_kind_fail[p.kind]++;
        t->by_bucket_fail[p.bucket]++;
        if (t->printed < kMaxPrinted && std::getenv("PX_PEERS_VERBOSE") != nullptr)
        {
            ++t->printed;
            std::printf("  %s: pair %ld depth %.9g vs exact %.9Lg (ok %d)\n", t->name, index, r.depth, depth_star,
                        (int)r.ok);
            print_pair(p, index);
        }
    }
}

void report(const Tally& t, long pairs)
{
    if (!t.present)
    {
        return;
    }
    double n = static_cast<double>(pairs > 0 ? pairs : 1);
    std::printf("  %-26s agree %6.2f%% | too small %5.2f%% (max %.3g S) | too large %5.2f%% (max %.3g S) | no result "
                "%5.2f%% | normal not a min-translation axis %5.2f%%\n",
                t.name, 100.0 * (double)t.agree / n, 100.0 * (double)t.too_small / n, t.max_short,
                100.0 * (double)t.too_large / n, t.max_long, 100.0 * (double)t.failed / n,
                100.0 * (double)t.bad_normal / n);
    std::printf("  %-26s failures by kind:", "");
    for (int k = 0; k < 3; ++k)
    {
        std::printf(" %s %ld/%ld", kKindNames[k], t.by_kind_fail[k], t.by_kind[k]);
    }
    std::printf("; by depth:");
    for (int b = 0; b < 5; ++b)
    {
        std::printf(" %g S %ld/%ld", kDepths[b], t.by_bucket_fail[b], t.by_bucket[b]);
    }
    std::printf("\n");
}

// Conventions of the peers on a case with a known answer: cubes of side 2, B at (1.5, 0.3, 0.2): depth 0.5,
// B leaves along +x.
int self_check()
{
    ld a[24], b[24];
    for (int i = 0; i < 8; ++i)
    {
        for (int c = 0; c < 3; ++c)
        {
            ld h = ((i >> c) & 1) ? 1.0L : -1.0L;
            a[3 * i + c] = h;
            b[3 * i + c] = h + (c == 0 ? 1.5L : c == 1 ? 0.3L : 0.2L);
        }
    }
    int bad = 0;
    Cloud ca = make_cloud(a, 8, 1.0), cb = make_cloud(b, 8, 1.0);
    (void)ca;
    (void)cb;
#if PXP_HAVE_CCD
    for (int m = 0; m < 2; ++m)
    {
        PeerResult r = run_ccd(ca, cb, m == 1);
        if (!r.ok || std::fabs(r.depth - 0.5) > 1e-3 || r.n[0] < 0.999)
        {
            std::printf("  self-check: libccd %s depth %.9g dir %.6g %.6g %.6g (expected 0.5 along +x)\n",
                        m ? "MPR" : "GJK", r.depth, r.n[0], r.n[1], r.n[2]);
            bad = 1;
        }
    }
#endif
#if PXP_HAVE_BULLET
    PeerResult r = run_bullet(ca, cb);
    if (!r.ok || std::fabs(r.depth - 0.5) > 1e-6 || r.n[0] < 0.999)
    {
        std::printf("  self-check: Bullet depth %.9g dir %.6g %.6g %.6g (expected 0.5 along +x)\n", r.depth, r.n[0],
                    r.n[1], r.n[2]);
        bad = 1;
    }
#endif
    return bad;
}

} // namespace

int main()
{
    const char* env = std::getenv("PX_PEERS_PAIRS");
    const long pairs = env != nullptr && std::atol(env) > 0 ? std::atol(env) : 2000;
    const char* seed_env = std::getenv("PX_TEST_SEED");
    std::printf("oracle_peers_contact: %ld overlapping hull pairs against the exact SAT depth, seed PX_TEST_SEED=%s\n",
                pairs, seed_env != nullptr ? seed_env : "0");
    int missing = 0;
#if !PXP_HAVE_CCD
    std::printf("  libccd (pkg-config ccd, libccd-dev) not found: its columns are skipped\n");
    missing = 1;
#endif
#if !PXP_HAVE_BULLET
    std::printf("  Bullet in double (pkg-config bullet-float64, libbullet-dev) not found: its column is skipped\n");
    missing = 1;
#endif
    if (self_check() != 0)
    {
        std::printf("  peer self-check failed: the peers' conventions are not what this test assumes\n");
        return 1;
    }
    Tally px, gjk, mpr, bt;
    px.name = "proxima px_contact_world";
    px.present = true;
    gjk.name = "libccd ccdGJKPenetration";
    mpr.name = "libccd ccdMPRPenetration";
    bt.name = "Bullet btGjkEpaSolver2";
#if PXP_HAVE_CCD
    gjk.present = mpr.present = true;
#endif
#if PXP_HAVE_BULLET
    bt.present = true;
#endif
    px_rng r = px_rng_seeded(0x7065657273ull);
    static Pair p;
    static View v;
    static pxo_polytope pa, pb;
    long done = 0, redrawn = 0, printed = 0;
    while (done < pairs)
    {
        if (!gen_pair(&r, &p))
        {
            ++redrawn;
            continue;
        }
        view_eval(p, &v);
        if (!v.d.certified || !v.d.overlap)
        {
            ++redrawn;
            continue;
        }
        pxo_polytope_build(v.wa, p.a.count, v.S, &pa);
        pxo_polytope_build(v.wb, p.b.count, v.S, &pb);
        pxo_sat sat;
        pxo_sat_depth_polytopes(&pa, &pb, 1, &sat);
        if (!sat.ok || sat.depth < 1.0e-6L * v.S)
        {
            ++redrawn; // flat or barely touching: the peers' tolerances are absolute, keep to clear overlaps
            continue;
        }
        const ld depth_star = sat.depth;
        // proxima at the drawn scale
        {
            px_shape sa = px_shape_hull(p.a.pts, p.a.count), sb = px_shape_hull(p.b.pts, p.b.count);
            px_contact c;
            px_status st = px_contact_world(&sa, &p.ta, &sb, &p.tb, nullptr, &c);
            PeerResult pr;
            pr.ok = (st == PX_OK || st == PX_WARN_MAX_ITERATIONS || st == PX_WARN_CAPACITY) && std::isfinite(c.distance);
            pr.depth = -(double)c.distance;
            for (int k = 0; k < 3; ++k)
            {
                pr.n[k] = c.normal[k];
            }
            ld tol = (ld)kAgreeRel * v.S + 16.0L * FLT_EPSILON * v.C;
            long before = px.agree;
            note(&px, p, done, pr, depth_star, tol, v.wa, p.a.count, v.wb, p.b.count);
            if (px.agree == before && printed < kMaxPrinted)
            {
                ++printed;
                std::printf("  proxima disagrees: status %d method %d depth %.9g (%a) vs exact %.17Lg (S %.6Lg, tol %.3Lg)\n",
                            (int)st, (int)c.method, pr.depth, pr.depth, depth_star, v.S, tol);
                print_pair(p, done);
            }
        }
        // peers on unit-scaled double points
        const double scale = std::ldexp(1.0, -(ilogbl(v.S) + 1));
        Cloud ca = make_cloud(v.wa, p.a.count, scale), cb = make_cloud(v.wb, p.b.count, scale);
        static ld sa_pts[3 * kMaxPoints], sb_pts[3 * kMaxPoints];
        for (int i = 0; i < 3 * p.a.count; ++i)
        {
            sa_pts[i] = (ld)ca.pts[static_cast<size_t>(i)];
        }
        for (int i = 0; i < 3 * p.b.count; ++i)
        {
            sb_pts[i] = (ld)cb.pts[static_cast<size_t>(i)];
        }
        const ld depth_unit = depth_star * (ld)scale, tol_unit = (ld)kAgreeRel * v.S * (ld)scale;
        (void)depth_unit;
        (void)tol_unit;
#if PXP_HAVE_CCD
        note(&gjk, p, done, run_ccd(ca, cb, false), depth_unit, tol_unit, sa_pts, p.a.count, sb_pts, p.b.count);
        note(&mpr, p, done, run_ccd(ca, cb, true), depth_unit, tol_unit, sa_pts, p.a.count, sb_pts, p.b.count);
#endif
#if PXP_HAVE_BULLET
        note(&bt, p, done, run_bullet(ca, cb), depth_unit, tol_unit, sa_pts, p.a.count, sb_pts, p.b.count);
#endif
        ++done;
    }
    std::printf("  %ld pairs (%ld draws redrawn: not overlapping by 1e-6 S); agreement = |depth - exact| <= 1e-3 S\n",
                done, redrawn);
    report(px, done);
    report(gjk, done);
    report(mpr, done);
    report(bt, done);
    bool px_ok = px.agree == done;
    std::printf("  proxima agrees with the exact depth on %ld of %ld pairs: %s\n", px.agree, done, px_ok ? "ok" : "FAILED");
    if (!px_ok)
    {
        return 1;
    }
    if (missing)
    {
        std::printf("  skipped: a peer is absent (see above)\n");
        return 77;
    }
    return 0;
}
