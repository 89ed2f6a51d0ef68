// proxima mesh benchmark: BVH build, closest-hit ray casts, closest points and batched ray casts on triangle
// meshes, the same meshes and the same rays through proxima, Embree 3 and Bullet in one process. Reports
// medians and the paired ratio peer / proxima (above 1: proxima is faster).
//
// Meshes: the six OBJ files of the shared data folder (--data DIR, else $PROXIMA_DATA_DIR, else the folder
// configured at build time; missing files are skipped), a generated 725 x 725 height grid (1 048 352 triangles,
// a few sines plus hash noise) and a subdivided icosahedron projected on a sphere (1 310 720 triangles).
// All three libraries read the same float vertices and int32 indices.
//
// Workloads (issue 4):
//   1. (printed with 2) The meshes and proxima's tree statistics (px_mesh_get_stats).
//   2. BVH build: px_mesh_create (a copy of the arrays plus the tree) on this thread, with and without the
//      active-edge pass (px_mesh_def.find_active_edges; the peers build a BVH alone, so they are compared
//      with the BVH-only builds), and on a px_thread_pool of 2 workers (px_mesh_def.tasks), against Embree rtcNewScene .. rtcCommitScene over shared buffers
//      (RTC_SCENE_FLAG_NONE, RTC_BUILD_QUALITY_MEDIUM) on a default device (all hardware threads) and on a
//      "threads=1" device, and Bullet's btBvhTriangleMeshShape over a btTriangleIndexVertexArray (quantized
//      AABBs; one thread). Embree's thread count is a process-wide TBB limit, set to the largest of the live
//      devices' (a threads=1 device next to a default one builds on every thread), so each mesh's threads=1
//      rounds run first, with no other device alive, against proxima timed again beside them; then comes the
//      mesh's default device. The structures of the last round serve the queries.
//   3. Closest-hit rays on one thread: coherent (a pinhole camera framing the bounds, 512 x 512 primary rays
//      in scanline order) and incoherent (origins uniform in the bounds, directions uniform on the sphere).
//      Every ray is the same segment in every library: unit direction, max_t = distance to the far side of
//      the bounding sphere (Bullet needs an end point). px_mesh_ray_cast against rtcIntersect1 (a fresh
//      RTCIntersectContext per ray) and btBvhTriangleMeshShape::performRaycast with a callback keeping the
//      closest hit. Agreement with proxima, untimed: rays where hit / miss differs, and rays hit by both whose
//      t differs by more than 1e-4 of the larger t plus 1e-6 of (bounding radius + |centre|), the float
//      rounding of a hit close to an origin far from the world origin.
//   4. Closest points: px_mesh_closest_point (unbounded) on points uniform in the bounds grown by 10% of the
//      diagonal on every side, against Embree's rtcPointQuery with this file's point-triangle callback that
//      shrinks the query radius. Agreement: distances apart by more than the same tolerance.
//   5. Threads: px_mesh_ray_cast_batch on the incoherent rays with no task system against a px_thread_pool of
//      2 workers; rtcIntersect1 on this thread against this thread plus one std::thread (started per batch of
//      16384 rays), each casting half.
//
// Timing: the rays (points) are cut into batches; every library runs the same batch in turn, in an order that
// rotates from batch to batch, after one untimed warm-up batch, and the whole set is run several times
// (passes). Throughput = rays / the sum over batches of each batch's median time over the passes; ratio =
// median over every batch of every pass of (peer batch time / proxima batch time). Builds: median over rounds
// of one build per library, ratios paired per round. "Pass spread" = (fastest - slowest) / median whole-pass
// rate of proxima: how noisy the machine was.
//
// --cpu-clock times the one-thread jobs by the thread's processor time (CLOCK_THREAD_CPUTIME_ID) instead of
// the wall clock, for a shared machine where other processes take the cores; the jobs on several threads
// (Embree's default build, proxima's build on the pool, workload 5) are timed by the wall clock either way.
//
// Usage: bench_mesh [--quick] [--cpu-clock] [--csv FILE] [--data DIR] [--mesh NAME] [--only 2|3|4|5]

#include "proxima/proxima.h"
#include "proxima/mesh.h"
#include "proxima/task.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#if PXB_HAVE_BULLET
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#endif

#if PXB_HAVE_EMBREE
#include <embree3/rtcore.h>
#endif

#ifndef PXB_DATA_DIR
#define PXB_DATA_DIR "../shared/data"
#endif

namespace
{

const uint64_t kSeed = 0x6d657368ULL; // "mesh"
const double kPi = 3.14159265358979323846;
const int kImage = 512;             // coherent rays: kImage x kImage pixels
const double kFieldOfView = 50.0;   // degrees, vertical and horizontal
const double kAgreeRelative = 1e-4; // t or distance differing by more than this fraction of the larger

struct Options
{
    bool quick = false;
    std::string csv_path;
    std::string data_dir;
    std::string mesh_filter; // run only the mesh of this name
    int only = 0;            // 0: every workload; 2..5: that one alone (the meshes are always listed)
    int ray_batch = 4096;    // rays per timed batch
    int ray_passes = 5;      // passes over each ray set
    int incoherent_rays = 65536;
    int point_queries = 4096;
    int point_batch = 512;
    int point_passes = 5;
    int build_rounds_small = 21;
    int build_rounds_large = 3;
};

#include "bench_util.hpp" // random numbers, vectors, now_ns, median, paired_ratio, options

// ------------------------------------------------------------------------------------------------------
// Timing jobs
// ------------------------------------------------------------------------------------------------------

/// A timed job: runs item `round` and returns the nanoseconds it measured (a build leaves its clean-up out).
using Job = std::function<double(int)>;

/// Runs each job on the same item (round) in turn, `rounds` times after one untimed warm-up on item 0 (unless
/// warm_up is false); the order rotates from round to round. Returns the nanoseconds of every job in every
/// round: times[job][round].
std::vector<std::vector<double>> run_interleaved(int rounds, const std::vector<Job>& jobs, bool warm_up = true)
{
    size_t kinds = jobs.size();
    std::vector<std::vector<double>> times(kinds);
    for (int round = warm_up ? -1 : 0; round < rounds; ++round)
    {
        for (size_t j = 0; j < kinds; ++j)
        {
            size_t k = (j + (size_t)(round + 1)) % kinds;
            double ns = jobs[k](std::max(round, 0));
            if (round >= 0)
            {
                times[k].push_back(ns);
            }
        }
    }
    return times;
}

/// Rounds are batches: round r times batch r % batches, pass r / batches. Items per second of a pass made of
/// every batch's median time over the passes (a batch slowed down by another process in one pass does not
/// count).
double pass_rate(const std::vector<double>& times, int batches, double items_per_pass)
{
    size_t passes = times.size() / (size_t)batches;
    if (passes == 0)
    {
        return NAN;
    }
    double sum = 0.0;
    for (int b = 0; b < batches; ++b)
    {
        std::vector<double> t;
        for (size_t p = 0; p < passes; ++p)
        {
            t.push_back(times[p * (size_t)batches + (size_t)b]);
        }
        sum += median(t);
    }
    return items_per_pass / (sum * 1e-9);
}

/// Spread of the rates of the whole passes, (max - min) / median: how noisy the machine was.
double pass_spread(const std::vector<double>& times, int batches, double items_per_pass)
{
    std::vector<double> rates;
    for (size_t p = 0; (p + 1) * (size_t)batches <= times.size(); ++p)
    {
        double sum = 0.0;
        for (int b = 0; b < batches; ++b)
        {
            sum += times[p * (size_t)batches + (size_t)b];
        }
        rates.push_back(items_per_pass / (sum * 1e-9));
    }
    if (rates.size() < 2)
    {
        return NAN;
    }
    auto mm = std::minmax_element(rates.begin(), rates.end());
    return (*mm.second - *mm.first) / median(rates);
}

FILE* g_csv = nullptr;

void csv_row(const char* workload, const std::string& mesh, int triangles, const char* peer, double peer_ns,
             double px_ns, double ratio)
{
    if (g_csv != nullptr)
    {
        std::fprintf(g_csv, "%s,%s,%d,%s,%.6g,%.6g,%.4f\n", workload, mesh.c_str(), triangles, peer, peer_ns, px_ns,
                     ratio);
    }
}

// ------------------------------------------------------------------------------------------------------
// Meshes
// ------------------------------------------------------------------------------------------------------

struct MeshData
{
    std::string name;
    std::vector<float> vertices;  ///< Packed xyz, plus one padding float (Embree reads 16 bytes per vertex)
    std::vector<int32_t> indices; ///< 3 per triangle
    int vertex_count = 0;
    int triangle_count = 0;
    V3 lo{ 0, 0, 0 }, hi{ 0, 0, 0 }; ///< Bounds of the vertices used by triangles
    V3 center{ 0, 0, 0 };
    double radius = 0.0; ///< Half the bounds' diagonal
};

void finish_mesh(MeshData& m)
{
    m.vertex_count = (int)(m.vertices.size() / 3);
    m.triangle_count = (int)(m.indices.size() / 3);
    m.lo = { HUGE_VAL, HUGE_VAL, HUGE_VAL };
    m.hi = { -HUGE_VAL, -HUGE_VAL, -HUGE_VAL };
    for (int32_t i : m.indices)
    {
        const float* p = &m.vertices[3 * (size_t)i];
        m.lo = { std::min(m.lo.x, (double)p[0]), std::min(m.lo.y, (double)p[1]), std::min(m.lo.z, (double)p[2]) };
        m.hi = { std::max(m.hi.x, (double)p[0]), std::max(m.hi.y, (double)p[1]), std::max(m.hi.z, (double)p[2]) };
    }
    m.center = 0.5 * (m.lo + m.hi);
    m.radius = 0.5 * length(m.hi - m.lo);
    m.vertices.push_back(0.0f);
}

bool load_obj_mesh(const std::string& path, const std::string& name, MeshData& m)
{
    px_obj_data data = {};
    px_obj_error error = {};
    if (px_obj_load(path.c_str(), nullptr, &data, &error) != PX_OK)
    {
        std::printf("- %s: skipped (%s)\n", path.c_str(), error.message);
        return false;
    }
    m.name = name;
    m.vertices.assign(data.vertices, data.vertices + 3 * (size_t)data.vertex_count);
    m.indices.assign(data.indices, data.indices + 3 * (size_t)data.triangle_count);
    px_obj_free(&data);
    finish_mesh(m);
    return m.triangle_count > 0;
}

/// Uniform in [0, 1) from two grid coordinates (a finaliser of a 64-bit hash).
double grid_hash(uint64_t i, uint64_t j)
{
    uint64_t z = (i * 0x9E3779B97F4A7C15ULL) ^ (j + 0x632BE59BD9B4E019ULL) ^ kSeed;
    z = (z ^ (z >> 31)) * 0xD6E8FEB86659FD93ULL;
    z = (z ^ (z >> 29)) * 0xBF58476D1CE4E5B9ULL;
    z ^= z >> 32;
    return (double)(z >> 11) * 0x1.0p-53;
}

/// n x n height grid with unit spacing, y up: three wave trains plus noise of amplitude 0.4.
MeshData make_terrain(int n)
{
    MeshData m;
    m.name = "terrain" + std::to_string(n);
    double half = 0.5 * (n - 1);
    m.vertices.reserve(3 * (size_t)n * n + 1);
    for (int j = 0; j < n; ++j)
    {
        for (int i = 0; i < n; ++i)
        {
            double x = i - half, z = j - half;
            double h = 14.0 * std::sin(0.019 * x) * std::cos(0.023 * z) + 5.0 * std::sin(0.061 * x + 0.7) *
                       std::sin(0.047 * z + 0.3) + 1.2 * std::sin(0.23 * x + 0.17 * z) +
                       0.8 * (grid_hash((uint64_t)i, (uint64_t)j) - 0.5);
            m.vertices.push_back((float)x);
            m.vertices.push_back((float)h);
            m.vertices.push_back((float)z);
        }
    }
    m.indices.reserve(6 * (size_t)(n - 1) * (n - 1));
    for (int j = 0; j + 1 < n; ++j)
    {
        for (int i = 0; i + 1 < n; ++i)
        {
            int32_t a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            const int32_t quad[6] = { a, c, b, b, c, d }; // counter-clockwise seen from +y
            m.indices.insert(m.indices.end(), quad, quad + 6);
        }
    }
    finish_mesh(m);
    return m;
}

/// Icosahedron subdivided `levels` times (each triangle into four, midpoints pushed onto the sphere), radius
/// 10: 20 * 4^levels triangles, every edge shared by two of them.
MeshData make_sphere(int levels)
{
    const double g = (1.0 + std::sqrt(5.0)) / 2.0;
    std::vector<V3> points = { { -1, g, 0 }, { 1, g, 0 },   { -1, -g, 0 }, { 1, -g, 0 },
                               { 0, -1, g }, { 0, 1, g },   { 0, -1, -g }, { 0, 1, -g },
                               { g, 0, -1 }, { g, 0, 1 },   { -g, 0, -1 }, { -g, 0, 1 } };
    for (V3& p : points)
    {
        p = normalize(p);
    }
    std::vector<int32_t> tris = { 0, 11, 5, 0, 5,  1, 0, 1, 7, 0, 7,  10, 0, 10, 11, 1, 5, 9, 5, 11,
                                  4, 11, 10, 2, 10, 7, 6, 7, 1, 8, 3, 9,  4, 3, 4,  2,  3, 2, 6, 3,
                                  6, 8,  3, 8, 9, 4, 9, 5, 2, 4, 11, 6, 2,  10, 8, 6,  7, 9, 8, 1 };
    for (int level = 0; level < levels; ++level)
    {
        std::unordered_map<uint64_t, int32_t> midpoints;
        midpoints.reserve(tris.size());
        auto midpoint = [&](int32_t a, int32_t b) {
            uint64_t key = ((uint64_t)std::min(a, b) << 32) | (uint64_t)std::max(a, b);
            auto it = midpoints.find(key);
            if (it != midpoints.end())
            {
                return it->second;
            }
            points.push_back(normalize(points[(size_t)a] + points[(size_t)b]));
            int32_t index = (int32_t)points.size() - 1;
            midpoints.emplace(key, index);
            return index;
        };
        std::vector<int32_t> next;
        next.reserve(4 * tris.size());
        for (size_t t = 0; t < tris.size(); t += 3)
        {
            int32_t a = tris[t], b = tris[t + 1], c = tris[t + 2];
            int32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
            const int32_t four[12] = { a, ab, ca, b, bc, ab, c, ca, bc, ab, bc, ca };
            next.insert(next.end(), four, four + 12);
        }
        tris.swap(next);
    }
    MeshData m;
    m.name = "sphere" + std::to_string(tris.size() / 3);
    m.vertices.reserve(3 * points.size() + 1);
    for (const V3& p : points)
    {
        m.vertices.push_back((float)(10.0 * p.x));
        m.vertices.push_back((float)(10.0 * p.y));
        m.vertices.push_back((float)(10.0 * p.z));
    }
    m.indices = std::move(tris);
    finish_mesh(m);
    return m;
}

// ------------------------------------------------------------------------------------------------------
// Rays and query points
// ------------------------------------------------------------------------------------------------------

px_ray make_ray(V3 origin, V3 direction, double max_t)
{
    px_ray r;
    r.origin[0] = (float)origin.x;
    r.origin[1] = (float)origin.y;
    r.origin[2] = (float)origin.z;
    r.direction[0] = (float)direction.x;
    r.direction[1] = (float)direction.y;
    r.direction[2] = (float)direction.z;
    r.max_t = (float)max_t;
    return r;
}

/// Pinhole camera looking at the centre of the bounds from above and to the side, as close as it can be with
/// all eight corners of the bounds in view; kImage x kImage rays in scanline order.
std::vector<px_ray> camera_rays(const MeshData& m)
{
    double tan_half = std::tan(0.5 * kFieldOfView * kPi / 180.0);
    V3 back = normalize({ 0.5, 0.7, 0.6 }); // from the centre towards the eye
    V3 forward = -1.0 * back;
    V3 right = normalize(cross(forward, { 0, 1, 0 }));
    V3 up = cross(right, forward);
    double distance = 0.0;
    for (int corner = 0; corner < 8; ++corner)
    {
        V3 c = V3{ corner & 1 ? m.hi.x : m.lo.x, corner & 2 ? m.hi.y : m.lo.y, corner & 4 ? m.hi.z : m.lo.z } -
               m.center;
        double lateral = std::max(std::fabs(dot(c, right)), std::fabs(dot(c, up)));
        distance = std::max(distance, dot(c, back) + lateral / tan_half);
    }
    V3 eye = m.center + distance * back;
    double max_t = 1.001 * (distance + m.radius);
    std::vector<px_ray> rays;
    rays.reserve((size_t)kImage * kImage);
    for (int y = 0; y < kImage; ++y)
    {
        for (int x = 0; x < kImage; ++x)
        {
            double sx = (2.0 * (x + 0.5) / kImage - 1.0) * tan_half;
            double sy = (1.0 - 2.0 * (y + 0.5) / kImage) * tan_half;
            rays.push_back(make_ray(eye, normalize(forward + sx * right + sy * up), max_t));
        }
    }
    return rays;
}

/// Origins uniform in the bounds, directions uniform on the sphere.
std::vector<px_ray> random_rays(const MeshData& m, int count, uint64_t seed)
{
    SplitMix64 rng(seed);
    std::vector<px_ray> rays;
    rays.reserve((size_t)count);
    for (int i = 0; i < count; ++i)
    {
        V3 o = { rng.range(m.lo.x, m.hi.x), rng.range(m.lo.y, m.hi.y), rng.range(m.lo.z, m.hi.z) };
        double z = rng.range(-1.0, 1.0), phi = 2.0 * kPi * rng.uniform(), s = std::sqrt(1.0 - z * z);
        V3 d = { s * std::cos(phi), s * std::sin(phi), z };
        rays.push_back(make_ray(o, d, 1.001 * (length(o - m.center) + m.radius)));
    }
    return rays;
}

/// Points uniform in the bounds grown by 10% of the diagonal on every side.
std::vector<V3> random_points(const MeshData& m, int count, uint64_t seed)
{
    SplitMix64 rng(seed);
    double grow = 0.2 * m.radius;
    std::vector<V3> points;
    points.reserve((size_t)count);
    for (int i = 0; i < count; ++i)
    {
        points.push_back({ (double)(float)rng.range(m.lo.x - grow, m.hi.x + grow),
                           (double)(float)rng.range(m.lo.y - grow, m.hi.y + grow),
                           (double)(float)rng.range(m.lo.z - grow, m.hi.z + grow) });
    }
    return points;
}

// ------------------------------------------------------------------------------------------------------
// The three libraries (the same calls are used to check and to time)
// ------------------------------------------------------------------------------------------------------

struct Hit
{
    bool hit = false;
    float t = 0.0f;
    int triangle = -1;
};

inline Hit px_cast(const px_mesh* mesh, const px_ray& ray)
{
    px_ray_hit h;
    px_status st = px_mesh_ray_cast(mesh, &ray, &h);
    g_proxima_errors += st < 0;
    return { h.hit, h.t, h.triangle };
}

/// px_mesh_create with the default options, on this thread (tasks NULL) or on a task system; edges false:
/// without the active-edge pass (the BVH alone, what Embree and Bullet build).
px_mesh* px_build(const MeshData& m, const px_task_system* tasks = nullptr, bool edges = true)
{
    px_mesh_def def = px_mesh_default_def();
    def.tasks = tasks;
    def.find_active_edges = edges;
    px_mesh* mesh = nullptr;
    px_status st = px_mesh_create(m.vertices.data(), m.vertex_count, m.indices.data(), m.triangle_count, &def,
                                  &mesh);
    if (st != PX_OK)
    {
        std::fprintf(stderr, "px_mesh_create(%s): %s\n", m.name.c_str(), px_status_string(st));
        std::exit(1);
    }
    return mesh;
}

#if PXB_HAVE_EMBREE
void embree_error(void*, RTCError code, const char* message)
{
    std::fprintf(stderr, "Embree error %d: %s\n", (int)code, message ? message : "");
}

RTCDevice embree_device(const char* config)
{
    RTCDevice device = rtcNewDevice(config);
    if (device == nullptr)
    {
        std::fprintf(stderr, "rtcNewDevice(%s) failed\n", config ? config : "NULL");
        std::exit(1);
    }
    rtcSetDeviceErrorFunction(device, embree_error, nullptr);
    return device;
}

/// A scene of one triangle geometry over the mesh's own arrays (shared buffers: no copy).
RTCScene embree_build(RTCDevice device, const MeshData& m)
{
    RTCScene scene = rtcNewScene(device);
    rtcSetSceneFlags(scene, RTC_SCENE_FLAG_NONE);
    rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_MEDIUM);
    RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, m.vertices.data(), 0,
                               3 * sizeof(float), (size_t)m.vertex_count);
    rtcSetSharedGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, m.indices.data(), 0,
                               3 * sizeof(int32_t), (size_t)m.triangle_count);
    rtcCommitGeometry(geometry);
    rtcAttachGeometry(scene, geometry);
    rtcReleaseGeometry(geometry);
    rtcCommitScene(scene);
    return scene;
}

inline Hit embree_cast(RTCScene scene, const px_ray& ray)
{
    RTCIntersectContext context;
    rtcInitIntersectContext(&context);
    RTCRayHit rh;
    rh.ray.org_x = ray.origin[0];
    rh.ray.org_y = ray.origin[1];
    rh.ray.org_z = ray.origin[2];
    rh.ray.tnear = 0.0f;
    rh.ray.dir_x = ray.direction[0];
    rh.ray.dir_y = ray.direction[1];
    rh.ray.dir_z = ray.direction[2];
    rh.ray.time = 0.0f;
    rh.ray.tfar = ray.max_t;
    rh.ray.mask = 0xFFFFFFFFu;
    rh.ray.id = 0;
    rh.ray.flags = 0;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(scene, &context, &rh);
    bool hit = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
    return { hit, hit ? rh.ray.tfar : 0.0f, hit ? (int)rh.hit.primID : -1 };
}

/// Closest point on triangle abc to p, by the region of the triangle's plane p projects to (vertex, edge or
/// face). Returns the squared distance; a zero-area triangle falls through to its closest edge or vertex.
inline float point_triangle_d2(const float p[3], const float a[3], const float b[3], const float c[3])
{
    float ab[3], ac[3], ap[3], bp[3], cp[3];
    for (int k = 0; k < 3; ++k)
    {
        ab[k] = b[k] - a[k];
        ac[k] = c[k] - a[k];
        ap[k] = p[k] - a[k];
        bp[k] = p[k] - b[k];
        cp[k] = p[k] - c[k];
    }
    auto d3 = [](const float* u, const float* v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; };
    auto dist2 = [&](const float* q) {
        float d[3] = { p[0] - q[0], p[1] - q[1], p[2] - q[2] };
        return d3(d, d);
    };
    float s1 = d3(ab, ap), s2 = d3(ac, ap);
    if (s1 <= 0.0f && s2 <= 0.0f)
    {
        return dist2(a); // behind a on both edges
    }
    float s3 = d3(ab, bp), s4 = d3(ac, bp);
    if (s3 >= 0.0f && s4 <= s3)
    {
        return dist2(b);
    }
    float s5 = d3(ab, cp), s6 = d3(ac, cp);
    if (s6 >= 0.0f && s5 <= s6)
    {
        return dist2(c);
    }
    float wc = s1 * s4 - s3 * s2; // signed area opposite c: p is beyond edge ab when <= 0
    if (wc <= 0.0f && s1 >= 0.0f && s3 <= 0.0f)
    {
        float f = s1 / (s1 - s3);
        float q[3] = { a[0] + f * ab[0], a[1] + f * ab[1], a[2] + f * ab[2] };
        return dist2(q);
    }
    float wb = s5 * s2 - s1 * s6; // beyond edge ac
    if (wb <= 0.0f && s2 >= 0.0f && s6 <= 0.0f)
    {
        float f = s2 / (s2 - s6);
        float q[3] = { a[0] + f * ac[0], a[1] + f * ac[1], a[2] + f * ac[2] };
        return dist2(q);
    }
    float wa = s3 * s6 - s5 * s4; // beyond edge bc
    if (wa <= 0.0f && s4 - s3 >= 0.0f && s5 - s6 >= 0.0f)
    {
        float f = (s4 - s3) / ((s4 - s3) + (s5 - s6));
        float q[3] = { b[0] + f * (c[0] - b[0]), b[1] + f * (c[1] - b[1]), b[2] + f * (c[2] - b[2]) };
        return dist2(q);
    }
    float sum = wa + wb + wc;
    if (!(sum > 0.0f))
    {
        return INFINITY; // degenerate: the edge and vertex regions above cover it unless it is a point set
    }
    float v = wb / sum, w = wc / sum;
    float q[3] = { a[0] + v * ab[0] + w * ac[0], a[1] + v * ab[1] + w * ac[1], a[2] + v * ab[2] + w * ac[2] };
    return dist2(q);
}

struct PointQueryState
{
    const MeshData* mesh;
    float p[3];
    float best_d2;
    int best;
};

bool embree_point_callback(RTCPointQueryFunctionArguments* args)
{
    PointQueryState* s = static_cast<PointQueryState*>(args->userPtr);
    const int32_t* t = &s->mesh->indices[3 * (size_t)args->primID];
    const float* v = s->mesh->vertices.data();
    float d2 = point_triangle_d2(s->p, v + 3 * (size_t)t[0], v + 3 * (size_t)t[1], v + 3 * (size_t)t[2]);
    if (d2 < s->best_d2 || (d2 == s->best_d2 && (int)args->primID < s->best))
    {
        s->best_d2 = d2;
        s->best = (int)args->primID;
        args->query->radius = std::sqrt(d2);
        return true;
    }
    return false;
}

inline float embree_closest(RTCScene scene, const MeshData& m, const V3& p)
{
    PointQueryState s = { &m, { (float)p.x, (float)p.y, (float)p.z }, INFINITY, -1 };
    RTCPointQuery query;
    query.x = s.p[0];
    query.y = s.p[1];
    query.z = s.p[2];
    query.time = 0.0f;
    query.radius = INFINITY;
    RTCPointQueryContext context;
    rtcInitPointQueryContext(&context);
    rtcPointQuery(scene, &query, &context, embree_point_callback, &s);
    return std::sqrt(s.best_d2);
}
#endif

inline float px_closest(const px_mesh* mesh, const V3& p)
{
    vec3 q = { (float)p.x, (float)p.y, (float)p.z };
    px_point_result r;
    px_status st = px_mesh_closest_point(mesh, q, INFINITY, &r);
    g_proxima_errors += st < 0;
    return r.distance;
}

#if PXB_HAVE_BULLET
/// Keeps the closest hit: returning the hit's fraction makes it the new end of the search.
struct ClosestTriangleHit : public btTriangleRaycastCallback
{
    int triangle = -1;
    float fraction = 1.0f;

    ClosestTriangleHit(const btVector3& from, const btVector3& to) : btTriangleRaycastCallback(from, to, kF_None) {}

    btScalar reportHit(const btVector3&, btScalar hit_fraction, int, int triangle_index) override
    {
        fraction = hit_fraction;
        triangle = triangle_index;
        return hit_fraction;
    }
};

struct BulletMesh
{
    std::unique_ptr<btTriangleIndexVertexArray> array;
    std::unique_ptr<btBvhTriangleMeshShape> shape;
};

BulletMesh bullet_build(const MeshData& m)
{
    BulletMesh b;
    b.array = std::make_unique<btTriangleIndexVertexArray>(
        m.triangle_count, const_cast<int*>(reinterpret_cast<const int*>(m.indices.data())), (int)(3 * sizeof(int)),
        m.vertex_count, const_cast<btScalar*>(m.vertices.data()), (int)(3 * sizeof(float)));
    b.shape = std::make_unique<btBvhTriangleMeshShape>(b.array.get(), true, true);
    return b;
}

inline Hit bullet_cast(btBvhTriangleMeshShape* shape, const px_ray& ray)
{
    btVector3 from(ray.origin[0], ray.origin[1], ray.origin[2]);
    btVector3 to(ray.origin[0] + ray.max_t * ray.direction[0], ray.origin[1] + ray.max_t * ray.direction[1],
                 ray.origin[2] + ray.max_t * ray.direction[2]);
    ClosestTriangleHit callback(from, to);
    shape->performRaycast(&callback, from, to);
    bool hit = callback.triangle >= 0;
    return { hit, hit ? callback.fraction * ray.max_t : 0.0f, callback.triangle };
}
#endif

/// Disagreements with proxima's answers: hit against miss, and (both hit) t apart by more than kAgreeRelative
/// of the larger t plus 1e-6 of the mesh's reach from the world origin (float rounding of hits near the origin
/// of a ray far from the world origin).
struct Disagreement
{
    int hit_miss = 0;
    int t = 0;

    void add(const Hit& ours, const Hit& peer, double floor)
    {
        if (ours.hit != peer.hit)
        {
            ++hit_miss;
        }
        else if (ours.hit && std::fabs((double)ours.t - (double)peer.t) >
                                 kAgreeRelative * std::max((double)ours.t, (double)peer.t) + floor)
        {
            ++t;
        }
    }
};

double agreement_floor(const MeshData& m) { return 1e-6 * (m.radius + length(m.center)); }

// ------------------------------------------------------------------------------------------------------
// Workloads
// ------------------------------------------------------------------------------------------------------

struct Context
{
    const Options* opt;
    px_thread_pool* pool = nullptr;
#if PXB_HAVE_EMBREE
    RTCDevice device = nullptr; ///< Default configuration (all hardware threads), one per mesh
#endif
    std::vector<std::string> build_rows, ray_rows, point_rows, thread_rows, stat_rows;
};

/// The built structures of every library on one mesh, shared by workloads 3 to 5.
struct Built
{
    px_mesh* px = nullptr;
#if PXB_HAVE_EMBREE
    RTCScene embree = nullptr;
#endif
#if PXB_HAVE_BULLET
    BulletMesh bullet;
#endif

    Built() = default;
    Built(const Built&) = delete;
    Built& operator=(const Built&) = delete;
    ~Built()
    {
        px_mesh_destroy(px);
#if PXB_HAVE_EMBREE
        if (embree != nullptr)
        {
            rtcReleaseScene(embree);
        }
#endif
    }
};

/// Times the builds; the structures of the last round stay in `b` for the queries.
void run_builds(Context& ctx, const MeshData& m, Built& b)
{
    const Options& opt = *ctx.opt;
    bool large = m.triangle_count > 200000;
    int rounds = large ? opt.build_rounds_large : opt.build_rounds_small;
    bool warm_up = !large; // a large build touches fresh memory every time anyway
    double em1_ms = NAN, em1_ratio = NAN;

#if PXB_HAVE_EMBREE
    // Embree sets TBB's process-wide thread limit to the largest of its live devices' thread counts, so the
    // threads=1 rounds run first, while no other device exists; proxima is timed again beside them for the
    // paired ratio. The processor time of the whole process shows whether Embree kept to one thread.
    {
        RTCDevice device1 = embree_device("threads=1");
        double process_ns = 0.0, thread_ns = 0.0;
        std::vector<Job> jobs1;
        jobs1.push_back([&](int) {
            px_mesh* mesh = nullptr;
            double ns = time_ns([&] { mesh = px_build(m, nullptr, false); });
            px_mesh_destroy(mesh);
            return ns;
        });
        jobs1.push_back([&](int) {
            RTCScene scene = nullptr;
            uint64_t p0 = process_cpu_ns(), c0 = thread_cpu_ns();
            double ns = time_ns([&] { scene = embree_build(device1, m); });
            process_ns += (double)(process_cpu_ns() - p0);
            thread_ns += (double)(thread_cpu_ns() - c0);
            rtcReleaseScene(scene);
            return ns;
        });
        auto t1 = run_interleaved(rounds, jobs1, warm_up);
        em1_ms = median(t1[1]) * 1e-6;
        em1_ratio = paired_ratio(t1[1], t1[0]);
        csv_row("build", m.name, m.triangle_count, "embree_threads1", median(t1[1]), median(t1[0]), em1_ratio);
        rtcReleaseDevice(device1);
        if (process_ns > 1.2 * thread_ns)
        {
            std::printf("- %s: the Embree threads=1 builds took %.1fx their thread's processor time in the "
                        "process: more than one thread worked\n",
                        m.name.c_str(), process_ns / thread_ns);
        }
    }
    ctx.device = embree_device(nullptr);
#endif

    px_task_system tasks = px_thread_pool_task_system(ctx.pool);
    std::vector<Job> jobs;
    jobs.push_back([&](int) {
        px_mesh_destroy(b.px);
        b.px = nullptr;
        return time_ns([&] { b.px = px_build(m); });
    });
    jobs.push_back([&](int) {
        px_mesh* mesh = nullptr;
        double ns = time_ns([&] { mesh = px_build(m, nullptr, false); });
        px_mesh_destroy(mesh);
        return ns;
    });
    jobs.push_back([&](int) {
        px_mesh* mesh = nullptr;
        double ns = time_wall_ns([&] { mesh = px_build(m, &tasks, false); });
        px_mesh_stats one = px_mesh_get_stats(b.px), two = px_mesh_get_stats(mesh);
        if (b.px != nullptr && (one.node_count != two.node_count || one.sah_cost != two.sah_cost))
        {
            std::printf("- %s: the tree built on the pool differs from the one-thread tree\n", m.name.c_str());
        }
        px_mesh_destroy(mesh);
        return ns;
    });
#if PXB_HAVE_EMBREE
    jobs.push_back([&](int) {
        if (b.embree != nullptr)
        {
            rtcReleaseScene(b.embree);
        }
        b.embree = nullptr;
        return time_wall_ns([&] { b.embree = embree_build(ctx.device, m); });
    });
#endif
#if PXB_HAVE_BULLET
    jobs.push_back([&](int) {
        b.bullet = BulletMesh();
        return time_ns([&] { b.bullet = bullet_build(m); });
    });
#endif
    auto t = run_interleaved(rounds, jobs, warm_up);
    double px_ms = median(t[0]) * 1e-6, bvh_ms = median(t[1]) * 1e-6, px2_ms = median(t[2]) * 1e-6;
    double em_ms = NAN, em_ratio = NAN, bt_ms = NAN, bt_ratio = NAN;
    csv_row("build_edges", m.name, m.triangle_count, "proxima_bvh_only", median(t[1]), median(t[0]),
            paired_ratio(t[1], t[0]));
    // The pool's build is timed by the wall clock: against the one-thread build only when that one is too.
    csv_row("build", m.name, m.triangle_count, "proxima_pool2", median(t[2]), median(t[1]),
            g_cpu_clock ? NAN : paired_ratio(t[2], t[1]));
    size_t k = 3;
#if PXB_HAVE_EMBREE
    em_ms = median(t[k]) * 1e-6;
    em_ratio = paired_ratio(t[k], t[2]);
    csv_row("build_vs_pool2", m.name, m.triangle_count, "embree_default", median(t[k]), median(t[2]), em_ratio);
    ++k;
#endif
#if PXB_HAVE_BULLET
    bt_ms = median(t[k]) * 1e-6;
    bt_ratio = paired_ratio(t[k], t[1]);
    csv_row("build", m.name, m.triangle_count, "bullet", median(t[k]), median(t[1]), bt_ratio);
#endif

    char row[512];
    std::snprintf(row, sizeof row, "| %s | %d | %.2f | %.2f | %.2f | %s | %s | %s | %s | %s | %s |", m.name.c_str(),
                  m.triangle_count, px_ms, bvh_ms, px2_ms, fmt("%.2f", em_ms).c_str(), fmt("%.2fx", em_ratio).c_str(),
                  fmt("%.2f", em1_ms).c_str(), fmt("%.2fx", em1_ratio).c_str(), fmt("%.2f", bt_ms).c_str(),
                  fmt("%.2fx", bt_ratio).c_str());
    ctx.build_rows.push_back(row);
}

void run_rays(Context& ctx, const MeshData& m, Built& b, const char* kind, const std::vector<px_ray>& rays)
{
    const Options& opt = *ctx.opt;
    int batch = opt.ray_batch;
    int batches = (int)(rays.size() / (size_t)batch);
    int count = batches * batch;

    // Agreement, untimed.
    std::vector<Hit> px_hits((size_t)count);
    int px_hit_count = 0;
    for (int i = 0; i < count; ++i)
    {
        px_hits[(size_t)i] = px_cast(b.px, rays[(size_t)i]);
        px_hit_count += px_hits[(size_t)i].hit;
    }
    std::string embree_differ = "-", bullet_differ = "-";
    double floor = agreement_floor(m);
#if PXB_HAVE_EMBREE
    {
        Disagreement d;
        for (int i = 0; i < count; ++i)
        {
            d.add(px_hits[(size_t)i], embree_cast(b.embree, rays[(size_t)i]), floor);
        }
        embree_differ = std::to_string(d.hit_miss) + " / " + std::to_string(d.t);
    }
#endif
#if PXB_HAVE_BULLET
    {
        Disagreement d;
        for (int i = 0; i < count; ++i)
        {
            d.add(px_hits[(size_t)i], bullet_cast(b.bullet.shape.get(), rays[(size_t)i]), floor);
        }
        bullet_differ = std::to_string(d.hit_miss) + " / " + std::to_string(d.t);
    }
#endif

    std::vector<Job> jobs;
    auto batch_job = [&](auto cast) {
        return Job([&, cast](int round) {
            const px_ray* r = rays.data() + (size_t)(round % batches) * (size_t)batch;
            double acc = 0.0;
            double ns = time_ns([&] {
                for (int i = 0; i < batch; ++i)
                {
                    acc += cast(r[i]).t;
                }
            });
            g_sink = g_sink + acc;
            return ns;
        });
    };
    jobs.push_back(batch_job([&](const px_ray& r) { return px_cast(b.px, r); }));
#if PXB_HAVE_EMBREE
    jobs.push_back(batch_job([&](const px_ray& r) { return embree_cast(b.embree, r); }));
#endif
#if PXB_HAVE_BULLET
    jobs.push_back(batch_job([&](const px_ray& r) { return bullet_cast(b.bullet.shape.get(), r); }));
#endif
    auto t = run_interleaved(batches * opt.ray_passes, jobs);
    double px_rate = pass_rate(t[0], batches, count);
    double px_spread = pass_spread(t[0], batches, count);
    double em_rate = NAN, em_ratio = NAN, bt_rate = NAN, bt_ratio = NAN;
    size_t k = 1;
    std::string workload = std::string("rays_") + kind;
#if PXB_HAVE_EMBREE
    em_rate = pass_rate(t[k], batches, count);
    em_ratio = paired_ratio(t[k], t[0]);
    csv_row(workload.c_str(), m.name, m.triangle_count, "embree", 1e9 / em_rate, 1e9 / px_rate, em_ratio);
    ++k;
#endif
#if PXB_HAVE_BULLET
    bt_rate = pass_rate(t[k], batches, count);
    bt_ratio = paired_ratio(t[k], t[0]);
    csv_row(workload.c_str(), m.name, m.triangle_count, "bullet", 1e9 / bt_rate, 1e9 / px_rate, bt_ratio);
#endif
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %s | %.2f | %s | %s | %s | %s | %d / %d | %s | %s | %s |", m.name.c_str(),
                  kind, px_rate * 1e-6, fmt("%.2f", em_rate * 1e-6).c_str(), fmt("%.2fx", em_ratio).c_str(),
                  fmt("%.3f", bt_rate * 1e-6).c_str(), fmt("%.1fx", bt_ratio).c_str(), px_hit_count, count,
                  embree_differ.c_str(), bullet_differ.c_str(), fmt("%.0f%%", 100.0 * px_spread).c_str());
    ctx.ray_rows.push_back(row);
}

void run_points(Context& ctx, const MeshData& m, Built& b)
{
    const Options& opt = *ctx.opt;
    std::vector<V3> points = random_points(m, opt.point_queries, kSeed ^ 0x706f696e74ULL ^ (uint64_t)m.triangle_count);
    int batch = opt.point_batch;
    int batches = (int)(points.size() / (size_t)batch);
    int count = batches * batch;
    int differ = -1;
#if PXB_HAVE_EMBREE
    differ = 0;
    for (int i = 0; i < count; ++i)
    {
        double a = px_closest(b.px, points[(size_t)i]), e = embree_closest(b.embree, m, points[(size_t)i]);
        differ += std::fabs(a - e) > kAgreeRelative * std::max(a, e) + agreement_floor(m);
    }
#endif
    std::vector<Job> jobs;
    auto batch_job = [&](auto query) {
        return Job([&, query](int round) {
            const V3* p = points.data() + (size_t)(round % batches) * (size_t)batch;
            double acc = 0.0;
            double ns = time_ns([&] {
                for (int i = 0; i < batch; ++i)
                {
                    acc += query(p[i]);
                }
            });
            g_sink = g_sink + acc;
            return ns;
        });
    };
    jobs.push_back(batch_job([&](const V3& p) { return px_closest(b.px, p); }));
#if PXB_HAVE_EMBREE
    jobs.push_back(batch_job([&](const V3& p) { return embree_closest(b.embree, m, p); }));
#endif
    auto t = run_interleaved(batches * opt.point_passes, jobs);
    double px_rate = pass_rate(t[0], batches, count);
    double em_rate = NAN, em_ratio = NAN;
#if PXB_HAVE_EMBREE
    em_rate = pass_rate(t[1], batches, count);
    em_ratio = paired_ratio(t[1], t[0]);
    csv_row("closest_point", m.name, m.triangle_count, "embree_point_query", 1e9 / em_rate, 1e9 / px_rate, em_ratio);
#endif
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %.3f | %s | %s | %s / %d | %s |", m.name.c_str(), px_rate * 1e-6,
                  fmt("%.3f", em_rate * 1e-6).c_str(), fmt("%.2fx", em_ratio).c_str(),
                  fmt("%.0f", differ < 0 ? NAN : differ).c_str(), count,
                  fmt("%.0f%%", 100.0 * pass_spread(t[0], batches, count)).c_str());
    ctx.point_rows.push_back(row);
}

void run_threads(Context& ctx, const MeshData& m, Built& b, const std::vector<px_ray>& rays)
{
    const Options& opt = *ctx.opt;
    int batch = 4 * opt.ray_batch;
    int batches = (int)(rays.size() / (size_t)batch);
    if (batches == 0)
    {
        return;
    }
    int count = batches * batch;
    px_task_system tasks = px_thread_pool_task_system(ctx.pool);
    std::vector<px_ray_hit> hits((size_t)batch);

    // The batch must give px_mesh_ray_cast's answers whatever the threads: check once, untimed.
    int batch_differ = 0;
    {
        std::vector<px_ray_hit> one((size_t)count);
        px_status st = px_mesh_ray_cast_batch(b.px, rays.data(), count, one.data(), &tasks);
        g_proxima_errors += st < 0;
        for (int i = 0; i < count; ++i)
        {
            px_ray_hit h;
            g_proxima_errors += px_mesh_ray_cast(b.px, &rays[(size_t)i], &h) < 0;
            batch_differ += h.hit != one[(size_t)i].hit || h.t != one[(size_t)i].t ||
                            h.triangle != one[(size_t)i].triangle;
        }
    }

    auto px_batch = [&](const px_task_system* ts) {
        return Job([&, ts](int round) {
            const px_ray* r = rays.data() + (size_t)(round % batches) * (size_t)batch;
            double ns = time_wall_ns([&] {
                px_status st = px_mesh_ray_cast_batch(b.px, r, batch, hits.data(), ts);
                g_proxima_errors += st < 0;
            });
            g_sink = g_sink + hits[(size_t)batch - 1].t;
            return ns;
        });
    };
    std::vector<Job> jobs;
    jobs.push_back(px_batch(nullptr));
    jobs.push_back(px_batch(&tasks));
#if PXB_HAVE_EMBREE
    auto embree_range = [&](const px_ray* r, int n) {
        double acc = 0.0;
        for (int i = 0; i < n; ++i)
        {
            acc += embree_cast(b.embree, r[i]).t;
        }
        return acc;
    };
    jobs.push_back([&](int round) {
        const px_ray* r = rays.data() + (size_t)(round % batches) * (size_t)batch;
        double acc = 0.0;
        double ns = time_wall_ns([&] { acc = embree_range(r, batch); });
        g_sink = g_sink + acc;
        return ns;
    });
    jobs.push_back([&](int round) {
        const px_ray* r = rays.data() + (size_t)(round % batches) * (size_t)batch;
        double acc0 = 0.0, acc1 = 0.0;
        double ns = time_wall_ns([&] {
            std::thread helper([&] { acc1 = embree_range(r + batch / 2, batch - batch / 2); });
            acc0 = embree_range(r, batch / 2);
            helper.join();
        });
        g_sink = g_sink + acc0 + acc1;
        return ns;
    });
#endif
    auto t = run_interleaved(batches * opt.ray_passes, jobs);
    double px1 = pass_rate(t[0], batches, count), px2 = pass_rate(t[1], batches, count);
    double px_speedup = paired_ratio(t[0], t[1]);
    csv_row("threads2", m.name, m.triangle_count, "proxima_1thread", 1e9 / px1, 1e9 / px2, px_speedup);
    double em1 = NAN, em2 = NAN, em_speedup = NAN, em2_ratio = NAN;
#if PXB_HAVE_EMBREE
    em1 = pass_rate(t[2], batches, count);
    em2 = pass_rate(t[3], batches, count);
    em_speedup = paired_ratio(t[2], t[3]);
    em2_ratio = paired_ratio(t[3], t[1]);
    csv_row("threads2", m.name, m.triangle_count, "embree_1thread", 1e9 / em1, 1e9 / px1, paired_ratio(t[2], t[0]));
    csv_row("threads2", m.name, m.triangle_count, "embree_2threads", 1e9 / em2, 1e9 / px2, em2_ratio);
#endif
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %.2f | %.2f | %.2fx | %s | %s | %s | %s | %d |", m.name.c_str(), px1 * 1e-6,
                  px2 * 1e-6, px_speedup, fmt("%.2f", em1 * 1e-6).c_str(), fmt("%.2f", em2 * 1e-6).c_str(),
                  fmt("%.2fx", em_speedup).c_str(), fmt("%.2fx", em2_ratio).c_str(), batch_differ);
    ctx.thread_rows.push_back(row);
}

void run_mesh(Context& ctx, const MeshData& m)
{
    const Options& opt = *ctx.opt;
    std::fprintf(stderr, "bench_mesh: %s (%d triangles)\n", m.name.c_str(), m.triangle_count);
    Built b;
    if (opt.only == 0 || opt.only == 2)
    {
        run_builds(ctx, m, b); // creates ctx.device
    }
    else
    {
        b.px = px_build(m);
#if PXB_HAVE_EMBREE
        ctx.device = embree_device(nullptr);
        b.embree = embree_build(ctx.device, m);
#endif
#if PXB_HAVE_BULLET
        b.bullet = bullet_build(m);
#endif
    }
    px_mesh_stats st = px_mesh_get_stats(b.px);
    char row[512];
    std::snprintf(row, sizeof row, "| %s | %d | %d | %.4g | %d | %d | %d | %.1f | %.1f |", m.name.c_str(),
                  m.vertex_count, m.triangle_count, 2.0 * m.radius, st.node_count, st.leaf_count, st.depth,
                  (double)st.sah_cost, (double)st.memory_bytes / (1024.0 * 1024.0));
    ctx.stat_rows.push_back(row);
    std::vector<px_ray> incoherent =
        random_rays(m, opt.incoherent_rays, kSeed ^ 0x72617973ULL ^ (uint64_t)m.triangle_count);
    if (opt.only == 0 || opt.only == 3)
    {
        run_rays(ctx, m, b, "coherent", camera_rays(m));
        run_rays(ctx, m, b, "incoherent", incoherent);
    }
    if (opt.only == 0 || opt.only == 4)
    {
        run_points(ctx, m, b);
    }
    if (opt.only == 0 || opt.only == 5)
    {
        run_threads(ctx, m, b, incoherent);
    }
#if PXB_HAVE_EMBREE
    // The default device goes with the mesh (its scene holds a reference until b is destroyed), so that the
    // next mesh's threads=1 rounds run with no other device alive.
    rtcReleaseDevice(ctx.device);
    ctx.device = nullptr;
#endif
}

void print_table(const char* title, const char* header, const std::vector<std::string>& rows)
{
    if (rows.empty())
    {
        return;
    }
    std::printf("\n### %s\n\n%s\n", title, header);
    int columns = (int)std::count(header, header + std::strlen(header), '|') - 1;
    std::printf("|---|");
    for (int i = 1; i < columns; ++i)
    {
        std::printf("---:|");
    }
    std::printf("\n");
    for (const std::string& r : rows)
    {
        std::printf("%s\n", r.c_str());
    }
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    if (!parse_options(argc, argv, opt.quick, opt.csv_path, &opt.only,
                       [&](int& i) { return parse_mesh_option(argc, argv, i, opt.data_dir, opt.mesh_filter); }))
    {
        std::fprintf(stderr, "usage: %s [--quick] [--cpu-clock] [--csv FILE] [--data DIR] [--mesh NAME] "
                     "[--only 2|3|4|5]\n",
                     argv[0]);
        return 2;
    }
    if (opt.quick)
    {
        opt.ray_passes = 1;
        opt.incoherent_rays = 32768;
        opt.point_queries = 1024;
        opt.point_passes = 1;
        opt.build_rounds_small = 5;
        opt.build_rounds_large = 1;
    }
    opt.data_dir = data_dir_or_default(opt.data_dir, PXB_DATA_DIR);
    if (!open_csv(opt.csv_path, "workload,mesh,triangles,peer,peer_ns,proxima_ns,ratio", &g_csv))
    {
        return 1;
    }

    std::printf("## proxima mesh benchmark\n\n- command: `%s`\n", command_line(argc, argv).c_str());
    std::printf("- data: %s\n", opt.data_dir.c_str());
    std::printf("- rays: batches of %d, %d pass(es) per set; closest points: %d in batches of %d, %d pass(es); "
                "builds: %d rounds (%d above 200k triangles)\n",
                opt.ray_batch, opt.ray_passes, opt.point_queries, opt.point_batch, opt.point_passes,
                opt.build_rounds_small, opt.build_rounds_large);
    std::printf("- hardware threads: %u; clock: %s\n", std::thread::hardware_concurrency(),
                g_cpu_clock ? "thread processor time for one-thread jobs (--cpu-clock), wall for the others"
                            : "wall (CLOCK_MONOTONIC)");
#if !PXB_HAVE_EMBREE
    std::printf("- Embree not found: its columns are '-'\n");
#endif
#if !PXB_HAVE_BULLET
    std::printf("- Bullet not found: its columns are '-'\n");
#endif

    Context ctx;
    ctx.opt = &opt;
    if (px_thread_pool_create(2, nullptr, &ctx.pool) != PX_OK)
    {
        std::fprintf(stderr, "px_thread_pool_create failed\n");
        return 1;
    }
    const char* files[] = { "bunny", "dungeon", "env", "nav_test", "rob", "undulating" };
    auto wanted = [&](const std::string& name) { return opt.mesh_filter.empty() || opt.mesh_filter == name; };
    for (const char* f : files)
    {
        if (!wanted(f))
        {
            continue;
        }
        MeshData m;
        if (load_obj_mesh(opt.data_dir + "/" + f + ".obj", f, m))
        {
            run_mesh(ctx, m);
        }
    }
    if (wanted("terrain725"))
    {
        run_mesh(ctx, make_terrain(725));
    }
    if (wanted("sphere1310720"))
    {
        run_mesh(ctx, make_sphere(8));
    }

    print_table("Meshes and proxima's trees (px_mesh_get_stats)",
                "| mesh | vertices | triangles | diagonal | nodes | leaves | depth | SAH cost | memory MiB |",
                ctx.stat_rows);
    print_table("2. BVH build (median ms per build; ratio = peer / proxima, paired per round)",
                "| mesh | triangles | proxima px_mesh_create (BVH + active edges), 1 thread | proxima BVH only, 1 thread "
                "| proxima BVH only, pool of 2 | Embree default device | ratio to proxima pool | Embree threads=1 "
                "| ratio to proxima BVH 1 thread | Bullet btBvhTriangleMeshShape | ratio to proxima BVH 1 thread |",
                ctx.build_rows);
    print_table("3. Closest-hit rays, one thread (million rays/s, batch medians over passes; ratio = peer time / proxima "
                "time, paired per batch)",
                "| mesh | rays | proxima px_mesh_ray_cast | Embree rtcIntersect1 | ratio | Bullet performRaycast | "
                "ratio | proxima hits / rays | Embree differs: hit-miss / t | Bullet differs: hit-miss / t | proxima pass "
                "spread |",
                ctx.ray_rows);
    print_table("4. Closest points, one thread (million queries/s; ratio = peer / proxima)",
                "| mesh | proxima px_mesh_closest_point | Embree rtcPointQuery + callback | ratio | differ / queries "
                "| proxima pass spread |",
                ctx.point_rows);
    print_table("5. Incoherent rays on 2 threads (million rays/s; speed-up = 1-thread time / 2-thread time)",
                "| mesh | proxima 1 thread | proxima batch, pool of 2 | speed-up | Embree 1 thread | Embree 2 "
                "std::threads | speed-up | Embree 2 threads / proxima pool | batch != single-ray |",
                ctx.thread_rows);
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses\n", g_proxima_errors);
    }
    px_thread_pool_destroy(ctx.pool);
    if (g_csv != nullptr)
    {
        std::fclose(g_csv);
    }
    return 0;
}
