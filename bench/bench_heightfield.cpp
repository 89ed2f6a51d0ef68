// proxima heightfield benchmark: rasterization of triangle meshes into span heightfields and the three
// filters, proxima against Debian's Recast (librecast-dev) on the same inputs in one process. Reports medians
// and the paired ratio peer / proxima (above 1: proxima is faster).
//
// Inputs: the six OBJ files of the shared data folder (--data DIR, else $PROXIMA_DATA_DIR, else the folder
// configured at build time; missing files are skipped) with RecastDemo's defaults (cells 0.3 x 0.2, slope 45,
// climb 0.9, agent height 2.0) for the Recast meshes and cells giving a few hundred columns across for the
// bunny and FCL's meshes (the agent scaled alike), and a generated terrain: a 725 x 725 height grid with 0.5
// spacing (1 048 352 triangles; wave trains plus hash noise) at RecastDemo's defaults. Triangles are marked
// walkable once (px_mark_walkable_triangles, which equals rcMarkWalkableTriangles); both libraries read the
// same float vertices, int indices and areas, and rasterize into fields over the mesh's bounds with the
// flag-merge threshold walkableClimb, as RecastDemo does.
//
// Jobs, per round, in an order that rotates from round to round, each on a fresh field (created untimed):
//   Recast:  rcRasterizeTriangles, then rcFilterLowHangingWalkableObstacles + rcFilterLedgeSpans +
//            rcFilterWalkableLowHeightSpans (timed apart: "raster" and "filters");
//   proxima: px_heightfield_rasterize_triangles on this thread, then the three px_filter_* functions;
//   proxima: px_heightfield_rasterize_mesh on a px_thread_pool of 2 workers (tiles through the mesh BVH, built
//            once beforehand and reported apart), then the filters.
// The tiled job's processor time over all threads (CLOCK_PROCESS_CPUTIME_ID; the pool's idle threads sleep)
// against the one-thread time measures the work the tiles add, apart from how busy the machine's cores are.
// After each job the spans are counted (and the walkable ones after the filters); every count must equal
// Recast's, or the row says so. Ratios are medians over rounds of the ratio within a round.
//
// --cpu-clock times the one-thread jobs by the thread's processor time (CLOCK_THREAD_CPUTIME_ID) instead of
// the wall clock, for a shared machine where other processes take the cores; the tiled job on 2 threads is
// timed by the wall clock either way.
//
// Usage: bench_heightfield [--quick] [--cpu-clock] [--csv FILE] [--data DIR] [--mesh NAME]

#include "proxima/proxima.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#if PXB_HAVE_RECAST
#include <Recast.h>
#endif

#ifndef PXB_DATA_DIR
#define PXB_DATA_DIR "../shared/data"
#endif

namespace
{

const double kPi = 3.14159265358979323846;

#include "bench_util.hpp" // random numbers, now_ns, median, paired_ratio, options

struct Options
{
    bool quick = false;
    std::string csv_path;
    std::string data_dir;
    std::string mesh_filter;
    int rounds_small = 15; // rounds for meshes under 200k triangles
    int rounds_large = 5;
};

// ------------------------------------------------------------------------------------------------------
// Inputs
// ------------------------------------------------------------------------------------------------------

struct Case
{
    std::string name;
    std::vector<float> vertices;
    std::vector<int> indices;
    std::vector<unsigned char> areas;
    float cs = 0.3f, ch = 0.2f;
    float agent_height = 2.0f, agent_climb = 0.9f;
    float bmin[3] = {}, bmax[3] = {};
    int width = 0, depth = 0;
    int climb = 0, height = 0; // in cells
    int vertex_count() const { return (int)vertices.size() / 3; }
    int triangle_count() const { return (int)indices.size() / 3; }
};

bool load_case(const std::string& path, const std::string& name, float cs, float ch, float agent_height,
               float agent_climb, Case& c)
{
    px_obj_data obj = {};
    if (px_obj_load(path.c_str(), nullptr, &obj, nullptr) != PX_OK)
    {
        std::printf("- %s not found, left out\n", path.c_str());
        return false;
    }
    c.name = name;
    c.vertices.assign(obj.vertices, obj.vertices + 3 * (size_t)obj.vertex_count);
    c.indices.assign(obj.indices, obj.indices + 3 * (size_t)obj.triangle_count);
    px_obj_free(&obj);
    c.cs = cs;
    c.ch = ch;
    c.agent_height = agent_height;
    c.agent_climb = agent_climb;
    return true;
}

/// n x n height grid with spacing 0.5, y up: three wave trains plus hash noise of amplitude 0.3.
Case make_terrain(int n)
{
    Case c;
    c.name = "terrain" + std::to_string(n);
    c.vertices.reserve(3 * (size_t)n * (size_t)n);
    for (int j = 0; j < n; ++j)
    {
        for (int i = 0; i < n; ++i)
        {
            const double x = 0.5 * i, z = 0.5 * j;
            uint64_t h = (uint64_t)(j * n + i) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 31;
            h *= 0xBF58476D1CE4E5B9ULL;
            h ^= h >> 29;
            const double noise = 0.3 * ((double)(h >> 11) / 9007199254740992.0 - 0.5);
            const double y = 6.0 * std::sin(x * 0.021) * std::cos(z * 0.017) + 1.5 * std::sin(0.11 * x + 0.07 * z) +
                             0.8 * std::cos(0.23 * z - 0.05 * x) + noise;
            c.vertices.push_back((float)x);
            c.vertices.push_back((float)y);
            c.vertices.push_back((float)z);
        }
    }
    for (int j = 0; j + 1 < n; ++j)
    {
        for (int i = 0; i + 1 < n; ++i)
        {
            const int a = j * n + i, b = a + 1, d = a + n, e = d + 1;
            // counter-clockwise seen from above (+y), so the normals point up
            c.indices.insert(c.indices.end(), { a, d, b, b, d, e });
        }
    }
    return c;
}

/// Bounds, field size in RecastDemo's way, walkable marks and the agent in cells.
void prepare(Case& c)
{
    for (int k = 0; k < 3; ++k)
    {
        c.bmin[k] = HUGE_VALF;
        c.bmax[k] = -HUGE_VALF;
    }
    for (size_t i = 0; i < c.vertices.size(); i += 3)
    {
        for (int k = 0; k < 3; ++k)
        {
            c.bmin[k] = std::min(c.bmin[k], c.vertices[i + (size_t)k]);
            c.bmax[k] = std::max(c.bmax[k], c.vertices[i + (size_t)k]);
        }
    }
    c.width = (int)((c.bmax[0] - c.bmin[0]) / c.cs + 0.5f);
    c.depth = (int)((c.bmax[2] - c.bmin[2]) / c.cs + 0.5f);
    c.climb = (int)std::floor(c.agent_climb / c.ch);
    c.height = (int)std::ceil(c.agent_height / c.ch);
    c.areas.assign((size_t)c.triangle_count(), 0);
    if (px_mark_walkable_triangles(45.0f, c.vertices.data(), c.vertex_count(), c.indices.data(), c.triangle_count(),
                                   c.areas.data()) != PX_OK)
    {
        std::fprintf(stderr, "%s: px_mark_walkable_triangles failed\n", c.name.c_str());
        std::exit(1);
    }
}

// ------------------------------------------------------------------------------------------------------
// The libraries
// ------------------------------------------------------------------------------------------------------

struct Counts
{
    long long spans = -1;    // after rasterization
    long long walkable = -1; // walkable spans after the filters
};

px_heightfield* px_field(const Case& c)
{
    px_heightfield_def def = px_heightfield_default_def();
    def.width = c.width;
    def.depth = c.depth;
    for (int k = 0; k < 3; ++k)
    {
        def.bmin[k] = c.bmin[k];
        def.bmax[k] = c.bmax[k];
    }
    def.cell_size = c.cs;
    def.cell_height = c.ch;
    px_heightfield* hf = nullptr;
    if (px_heightfield_create(&def, &hf) != PX_OK)
    {
        std::fprintf(stderr, "%s: px_heightfield_create failed\n", c.name.c_str());
        std::exit(1);
    }
    return hf;
}

long long px_walkable(const px_heightfield* hf)
{
    std::vector<px_span> buf(64);
    long long n = 0;
    for (int z = 0; z < px_heightfield_depth(hf); ++z)
    {
        for (int x = 0; x < px_heightfield_width(hf); ++x)
        {
            int count = px_heightfield_column(hf, x, z, buf.data(), (int)buf.size());
            if (count > (int)buf.size())
            {
                buf.resize((size_t)count);
                count = px_heightfield_column(hf, x, z, buf.data(), (int)buf.size());
            }
            for (int i = 0; i < count; ++i)
            {
                n += buf[(size_t)i].area != PX_NULL_AREA;
            }
        }
    }
    return n;
}

void px_check(px_status s, const char* what)
{
    if (s != PX_OK)
    {
        std::fprintf(stderr, "%s: %s\n", what, px_status_string(s));
        ++g_proxima_errors;
    }
}

/// proxima's filters on a rasterized field; returns their nanoseconds (this thread).
double px_filters(const Case& c, px_heightfield* hf)
{
    return time_ns([&] {
        px_check(px_filter_low_hanging_walkable_obstacles(hf, c.climb), "px_filter_low_hanging_walkable_obstacles");
        px_check(px_filter_ledge_spans(hf, c.height, c.climb), "px_filter_ledge_spans");
        px_check(px_filter_walkable_low_height_spans(hf, c.height), "px_filter_walkable_low_height_spans");
    });
}

#if PXB_HAVE_RECAST
rcContext g_rc(false);

void rc_count(const rcHeightfield& hf, long long* spans, long long* walkable)
{
    long long n = 0, w = 0;
    for (int i = 0; i < hf.width * hf.height; ++i)
    {
        for (const rcSpan* s = hf.spans[i]; s != nullptr; s = s->next)
        {
            ++n;
            w += s->area != RC_NULL_AREA;
        }
    }
    if (spans != nullptr)
    {
        *spans = n;
    }
    if (walkable != nullptr)
    {
        *walkable = w;
    }
}
#endif

// ------------------------------------------------------------------------------------------------------
// One input
// ------------------------------------------------------------------------------------------------------

enum Job
{
    kRecast,
    kProxima,
    kTiles,
    kJobs
};

struct Row
{
    std::string name;
    int triangles = 0, width = 0, depth = 0;
    double bvh_ms = NAN;
    std::array<std::vector<double>, kJobs> raster, filters;
    std::vector<double> tiles_cpu; // processor time of the tiled rasterization, all threads
    std::array<Counts, kJobs> counts;
    bool equal = true;
};

FILE* g_csv = nullptr;

Row run_case(const Options& opt, const Case& c, const px_task_system* tasks)
{
    Row row;
    row.name = c.name;
    row.triangles = c.triangle_count();
    row.width = c.width;
    row.depth = c.depth;
    px_mesh* mesh = nullptr;
    const uint64_t t0 = now_ns();
    if (px_mesh_create(c.vertices.data(), c.vertex_count(), c.indices.data(), c.triangle_count(), nullptr, &mesh) !=
        PX_OK)
    {
        std::fprintf(stderr, "%s: px_mesh_create failed\n", c.name.c_str());
        std::exit(1);
    }
    row.bvh_ms = (double)(now_ns() - t0) * 1e-6;
    const int rounds = c.triangle_count() > 200000 ? opt.rounds_large : opt.rounds_small;
    for (int round = -1; round < rounds; ++round)
    {
        for (int j = 0; j < kJobs; ++j)
        {
            const int job = (j + round + 1) % kJobs;
            double raster_ns = NAN, filter_ns = NAN;
            Counts counts;
            if (job == kRecast)
            {
#if PXB_HAVE_RECAST
                rcHeightfield* hf = rcAllocHeightfield();
                if (hf == nullptr || !rcCreateHeightfield(&g_rc, *hf, c.width, c.depth, c.bmin, c.bmax, c.cs, c.ch))
                {
                    std::fprintf(stderr, "rcCreateHeightfield failed\n");
                    std::exit(1);
                }
                raster_ns = time_ns([&] {
                    rcRasterizeTriangles(&g_rc, c.vertices.data(), c.vertex_count(), c.indices.data(),
                                         c.areas.data(), c.triangle_count(), *hf, c.climb);
                });
                rc_count(*hf, &counts.spans, nullptr);
                filter_ns = time_ns([&] {
                    rcFilterLowHangingWalkableObstacles(&g_rc, c.climb, *hf);
                    rcFilterLedgeSpans(&g_rc, c.height, c.climb, *hf);
                    rcFilterWalkableLowHeightSpans(&g_rc, c.height, *hf);
                });
                rc_count(*hf, nullptr, &counts.walkable);
                rcFreeHeightField(hf);
#endif
            }
            else
            {
                px_heightfield* hf = px_field(c);
                if (job == kProxima)
                {
                    raster_ns = time_ns([&] {
                        px_check(px_heightfield_rasterize_triangles(hf, c.vertices.data(), c.vertex_count(),
                                                                    c.indices.data(), c.areas.data(),
                                                                    c.triangle_count(), c.climb),
                                 "px_heightfield_rasterize_triangles");
                    });
                }
                else
                {
                    const uint64_t cpu0 = process_cpu_ns();
                    raster_ns = time_wall_ns([&] {
                        px_check(px_heightfield_rasterize_mesh(hf, mesh, c.areas.data(), c.climb, tasks),
                                 "px_heightfield_rasterize_mesh");
                    });
                    if (round >= 0)
                    {
                        row.tiles_cpu.push_back((double)(process_cpu_ns() - cpu0));
                    }
                }
                counts.spans = px_heightfield_span_count(hf);
                filter_ns = px_filters(c, hf);
                counts.walkable = px_walkable(hf);
                px_heightfield_destroy(hf);
            }
            if (round >= 0)
            {
                row.raster[(size_t)job].push_back(raster_ns);
                row.filters[(size_t)job].push_back(filter_ns);
                row.counts[(size_t)job] = counts;
            }
        }
    }
    px_mesh_destroy(mesh);
    for (int job = kProxima; job < kJobs; ++job)
    {
        row.equal = row.equal && row.counts[(size_t)job].spans == row.counts[kProxima].spans &&
                    row.counts[(size_t)job].walkable == row.counts[kProxima].walkable;
    }
#if PXB_HAVE_RECAST
    row.equal = row.equal && row.counts[kRecast].spans == row.counts[kProxima].spans &&
                row.counts[kRecast].walkable == row.counts[kProxima].walkable;
#endif
    std::printf("- %s: %d triangles, %d x %d columns, %lld spans, %lld walkable after the filters%s\n", c.name.c_str(),
                row.triangles, row.width, row.depth, row.counts[kProxima].spans, row.counts[kProxima].walkable,
                row.equal ? "" : " -- COUNTS DIFFER");
    std::fflush(stdout);
    return row;
}

std::vector<double> sums(const std::vector<double>& a, const std::vector<double>& b)
{
    std::vector<double> s(a.size());
    for (size_t i = 0; i < a.size(); ++i)
    {
        s[i] = a[i] + b[i];
    }
    return s;
}

void print_rows(const std::vector<Row>& rows)
{
    std::printf("\n### Rasterization and filters (median ms; ratio = Recast / proxima, paired per round)\n\n");
    std::printf("| mesh | triangles | columns | Recast raster | proxima raster | ratio | Recast filters | proxima "
                "filters | ratio | Recast total | proxima total | ratio | spans equal |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (const Row& r : rows)
    {
        const auto& rr = r.raster;
        const auto& rf = r.filters;
        const std::vector<double> rt = sums(rr[kRecast], rf[kRecast]), pt = sums(rr[kProxima], rf[kProxima]);
        std::printf("| %s | %d | %d x %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name.c_str(),
                    r.triangles, r.width, r.depth, fmt("%.2f", median(rr[kRecast]) * 1e-6).c_str(),
                    fmt("%.2f", median(rr[kProxima]) * 1e-6).c_str(),
                    fmt("%.2f", paired_ratio(rr[kRecast], rr[kProxima])).c_str(),
                    fmt("%.2f", median(rf[kRecast]) * 1e-6).c_str(), fmt("%.2f", median(rf[kProxima]) * 1e-6).c_str(),
                    fmt("%.2f", paired_ratio(rf[kRecast], rf[kProxima])).c_str(), fmt("%.2f", median(rt) * 1e-6).c_str(),
                    fmt("%.2f", median(pt) * 1e-6).c_str(), fmt("%.2f", paired_ratio(rt, pt)).c_str(),
                    r.equal ? "yes" : "NO");
        if (g_csv != nullptr)
        {
            std::fprintf(g_csv, "raster,%s,%d,recast,%.6g,%.6g,%.4f\n", r.name.c_str(), r.triangles,
                         median(rr[kRecast]), median(rr[kProxima]), paired_ratio(rr[kRecast], rr[kProxima]));
            std::fprintf(g_csv, "filters,%s,%d,recast,%.6g,%.6g,%.4f\n", r.name.c_str(), r.triangles,
                         median(rf[kRecast]), median(rf[kProxima]), paired_ratio(rf[kRecast], rf[kProxima]));
            std::fprintf(g_csv, "tiles2,%s,%d,proxima_1thread,%.6g,%.6g,%.4f\n", r.name.c_str(), r.triangles,
                         median(rr[kProxima]), median(rr[kTiles]), paired_ratio(rr[kProxima], rr[kTiles]));
            std::fprintf(g_csv, "tiles2,%s,%d,recast,%.6g,%.6g,%.4f\n", r.name.c_str(), r.triangles,
                         median(rr[kRecast]), median(rr[kTiles]), paired_ratio(rr[kRecast], rr[kTiles]));
        }
    }
    std::printf("\n### Tiled rasterization through the BVH on 2 threads (median ms, wall clock; the BVH is built "
                "once beforehand)\n\n");
    std::printf("| mesh | BVH build | proxima 1 thread | proxima tiles, pool of 2 | speed-up | Recast 1 thread / "
                "proxima tiles | tiles + filters | Recast total / proxima tiles total | tiles' processor time / 1 "
                "thread |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
    {
        const auto& rr = r.raster;
        const auto& rf = r.filters;
        const std::vector<double> rt = sums(rr[kRecast], rf[kRecast]), tt = sums(rr[kTiles], rf[kTiles]);
        std::printf("| %s | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", r.name.c_str(), r.bvh_ms,
                    fmt("%.2f", median(rr[kProxima]) * 1e-6).c_str(), fmt("%.2f", median(rr[kTiles]) * 1e-6).c_str(),
                    fmt("%.2f", paired_ratio(rr[kProxima], rr[kTiles])).c_str(),
                    fmt("%.2f", paired_ratio(rr[kRecast], rr[kTiles])).c_str(), fmt("%.2f", median(tt) * 1e-6).c_str(),
                    fmt("%.2f", paired_ratio(rt, tt)).c_str(),
                    fmt("%.2f", paired_ratio(r.tiles_cpu, rr[kProxima])).c_str());
    }
}

} // namespace

int main(int argc, char** argv)
{
    Options opt;
    if (!parse_options(argc, argv, opt.quick, opt.csv_path, nullptr,
                       [&](int& i) { return parse_mesh_option(argc, argv, i, opt.data_dir, opt.mesh_filter); }))
    {
        std::fprintf(stderr, "usage: %s [--quick] [--cpu-clock] [--csv FILE] [--data DIR] [--mesh NAME]\n", argv[0]);
        return 2;
    }
    if (opt.quick)
    {
        opt.rounds_small = 3;
        opt.rounds_large = 1;
    }
    opt.data_dir = data_dir_or_default(opt.data_dir, PXB_DATA_DIR);
    if (!open_csv(opt.csv_path, "workload,mesh,triangles,peer,peer_ns,proxima_ns,ratio", &g_csv))
    {
        return 1;
    }
    std::printf("## proxima heightfield benchmark\n\n- command: `%s`\n", command_line(argc, argv).c_str());
    std::printf("- data: %s\n- rounds: %d (%d above 200k triangles), after one warm-up round\n",
                opt.data_dir.c_str(), opt.rounds_small, opt.rounds_large);
    std::printf("- hardware threads: %u; clock: %s\n", std::thread::hardware_concurrency(),
                g_cpu_clock ? "thread processor time for one-thread jobs (--cpu-clock), wall for the tiles"
                            : "wall (CLOCK_MONOTONIC)");
#if !PXB_HAVE_RECAST
    std::printf("- Recast not found (librecast-dev): its columns are '-'\n");
#endif
    px_thread_pool* pool = nullptr;
    if (px_thread_pool_create(2, nullptr, &pool) != PX_OK)
    {
        std::fprintf(stderr, "px_thread_pool_create failed\n");
        return 1;
    }
    const px_task_system tasks = px_thread_pool_task_system(pool);
    struct MeshCase
    {
        const char* file;
        float cs, ch, agent_height, agent_climb;
    };
    const MeshCase meshes[] = {
        { "bunny", 0.03f, 0.02f, 0.2f, 0.09f },     { "dungeon", 0.3f, 0.2f, 2.0f, 0.9f },
        { "env", 20.0f, 13.33f, 133.3f, 60.0f },    { "nav_test", 0.3f, 0.2f, 2.0f, 0.9f },
        { "rob", 4.0f, 2.667f, 26.67f, 12.0f },     { "undulating", 0.3f, 0.2f, 2.0f, 0.9f },
    };
    auto wanted = [&](const std::string& name) { return opt.mesh_filter.empty() || opt.mesh_filter == name; };
    std::vector<Row> rows;
    for (const MeshCase& m : meshes)
    {
        Case c;
        if (wanted(m.file) &&
            load_case(opt.data_dir + "/" + m.file + ".obj", m.file, m.cs, m.ch, m.agent_height, m.agent_climb, c))
        {
            prepare(c);
            rows.push_back(run_case(opt, c, &tasks));
        }
    }
    if (wanted("terrain725"))
    {
        Case c = make_terrain(725);
        prepare(c);
        rows.push_back(run_case(opt, c, &tasks));
    }
    print_rows(rows);
    bool equal = true;
    for (const Row& r : rows)
    {
        equal = equal && r.equal;
    }
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses\n", g_proxima_errors);
    }
    px_thread_pool_destroy(pool);
    if (g_csv != nullptr)
    {
        std::fclose(g_csv);
    }
    return equal && g_proxima_errors == 0 ? 0 : 1;
}
