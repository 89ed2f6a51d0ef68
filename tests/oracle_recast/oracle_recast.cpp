// Debian's Recast (librecast-dev 1.5.1+git20210215) as the oracle of proxima's heightfields.
//
// The same inputs go through rcMarkWalkableTriangles, rcRasterizeTriangles and the three rcFilter* functions
// (in RecastDemo's order: low-hanging obstacles, ledges, low height) and through their proxima twins, and the
// whole heightfields are compared after every step, span for span: smin, smax and area, per column, in
// order. Inputs:
//   - every mesh of ../shared/data: the Recast meshes with RecastDemo's defaults (cs 0.3, ch 0.2, slope 45,
//     climb 0.9, height 2.0), the bunny and FCL's meshes with cell sizes giving a few hundred columns across
//     and the agent scaled alike; each over its whole bounds and over a cropped box (triangles cut by all six
//     faces), with flag-merge thresholds 0, 1 and walkableClimb;
//   - random triangle soups in random fields (offsets up to 5000): vertices uniform, exactly on cell lines
//     (the float values Recast's clipping computes), one ulp off them, on height-cell boundaries, small
//     triangles, slivers, degenerate and vertical ones; thresholds 0, 1 and more; random filter parameters;
//   - the same meshes and every third soup rasterized in tiles through the BVH on 2 and 3 threads
//     (px_heightfield_rasterize_mesh) against rcRasterizeTriangles, then filtered;
//   - rcAddSpan against px_heightfield_add_span under random insertions;
//   - rcMarkWalkableTriangles against px_mark_walkable_triangles on random triangles and slopes.
// Where Recast's own output is invalid the case is listed and left out of the comparison (see kRecastInvalid
// below); proxima's output is still checked for validity there.
//
// Also prints a single-thread timing of rcRasterizeTriangles vs px_heightfield_rasterize_triangles on
// dungeon.obj (same run, same field).
//
// Exit status: 0 pass, 1 fail, 77 skip (no shared meshes is not a skip: the random suites still run).
// PX_TEST_SEED replays another stream; PX_RECAST_SOUPS sets the number of random soups.
#include <Recast.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "proxima/heightfield.h"
#include "proxima/io.h"
#include "proxima/mesh.h"
#include "proxima/task.h"
#include "support/rng.h"

extern "C" int pxi_heightfield_triangle_clip_vertices(const px_heightfield* hf, const float* v0, const float* v1,
                                                      const float* v2);

namespace
{

// Cases where Recast's output is invalid or undefined, left out of the comparison:
const char* const kRecastInvalid[] = {
    "fields taller than 8191 cells: Recast's 13-bit span heights clamp smin to 8191 and wrap smax "
    "8192 to 0, giving spans [8191, 0) (issues #594, #395); proxima refuses fields beyond 65534 cells",
    "triangles whose clipping makes a polygon of more than 7 vertices (vertices within an ulp of cell "
    "lines): Recast's 7-vertex stack buffers overflow into each other (issue #687)",
    "coordinates whose arithmetic overflows (|v| ~ 1e30 and up): Recast converts out-of-range floats to "
    "int (undefined behaviour)",
    "filters with walkable_height >= 57344: Recast caps the open space above the top span at 65535",
    "rcMarkWalkableTriangles with slopes >= 90 degrees (marks vertical and, above 90, downward triangles "
    "walkable) and triangles whose normal underflows to zero length",
};

rcContext g_ctx(false);
int g_failures = 0;
int g_printed = 0; // differences printed so far (the first few only)
px_task_system g_tasks[2] = {}; // thread pools of 2 and 3 workers for the tiled rasterization

struct Span
{
    unsigned smin, smax, area;
    bool operator==(const Span& o) const { return smin == o.smin && smax == o.smax && area == o.area; }
};

struct Grid
{
    int w = 0, h = 0;
    float bmin[3] = {}, bmax[3] = {};
    float cs = 0.3f, ch = 0.2f;
};

rcHeightfield* make_rc(const Grid& g)
{
    rcHeightfield* hf = rcAllocHeightfield();
    if (hf == nullptr || !rcCreateHeightfield(&g_ctx, *hf, g.w, g.h, g.bmin, g.bmax, g.cs, g.ch))
    {
        std::fprintf(stderr, "rcCreateHeightfield failed\n");
        std::exit(1);
    }
    return hf;
}

px_heightfield* make_px(const Grid& g)
{
    px_heightfield_def def = px_heightfield_default_def();
    def.width = g.w;
    def.depth = g.h;
    for (int i = 0; i < 3; ++i)
    {
        def.bmin[i] = g.bmin[i];
        def.bmax[i] = g.bmax[i];
    }
    def.cell_size = g.cs;
    def.cell_height = g.ch;
    px_heightfield* hf = nullptr;
    px_status s = px_heightfield_create(&def, &hf);
    if (s != PX_OK)
    {
        std::fprintf(stderr, "px_heightfield_create failed: %s\n", px_status_string(s));
        std::exit(1);
    }
    return hf;
}

void rc_column(const rcHeightfield& hf, int x, int z, std::vector<Span>& out)
{
    out.clear();
    for (const rcSpan* s = hf.spans[x + z * hf.width]; s != nullptr; s = s->next)
    {
        out.push_back({ s->smin, s->smax, s->area });
    }
}

void px_column(const px_heightfield* hf, int x, int z, std::vector<Span>& out)
{
    static std::vector<px_span> buf;
    int n = px_heightfield_column(hf, x, z, nullptr, 0);
    buf.resize((size_t)std::max(n, 1));
    px_heightfield_column(hf, x, z, buf.data(), n);
    out.clear();
    for (int i = 0; i < n; ++i)
    {
        out.push_back({ buf[(size_t)i].smin, buf[(size_t)i].smax, buf[(size_t)i].area });
    }
}

std::string format_column(const std::vector<Span>& c)
{
    std::string s;
    char b[64];
    for (const Span& sp : c)
    {
        std::snprintf(b, sizeof(b), "[%u,%u)a%u ", sp.smin, sp.smax, sp.area);
        s += b;
    }
    return s.empty() ? "(empty)" : s;
}

// Whole-field comparison; returns the number of differing columns (and prints the first).
long compare(const rcHeightfield& rc, const px_heightfield* px, const char* what, long* spans)
{
    std::vector<Span> a, b;
    long diff = 0;
    long count = 0;
    for (int z = 0; z < rc.height; ++z)
    {
        for (int x = 0; x < rc.width; ++x)
        {
            rc_column(rc, x, z, a);
            px_column(px, x, z, b);
            count += (long)a.size();
            if (a != b)
            {
                if (diff == 0 && g_printed++ < 6)
                {
                    std::printf("    %s: first difference at column (%d, %d)\n      recast  %s\n      proxima %s\n",
                                what, x, z, format_column(a).c_str(), format_column(b).c_str());
                }
                ++diff;
            }
        }
    }
    if (spans != nullptr)
    {
        *spans = count;
    }
    if (px_heightfield_span_count(px) != count && diff == 0)
    {
        std::printf("    %s: span count %" PRId64 " but the columns hold %ld\n", what, px_heightfield_span_count(px),
                    count);
        ++diff;
    }
    return diff;
}

// Every span of a proxima field valid: smin < smax <= PX_SPAN_MAX_HEIGHT, sorted, not touching.
bool px_field_valid(const px_heightfield* px)
{
    std::vector<Span> c;
    for (int z = 0; z < px_heightfield_depth(px); ++z)
    {
        for (int x = 0; x < px_heightfield_width(px); ++x)
        {
            px_column(px, x, z, c);
            for (size_t i = 0; i < c.size(); ++i)
            {
                if (c[i].smin >= c[i].smax || c[i].smax > PX_SPAN_MAX_HEIGHT ||
                    (i > 0 && c[i].smin <= c[i - 1].smax))
                {
                    std::printf("    invalid proxima column (%d, %d): %s\n", x, z, format_column(c).c_str());
                    return false;
                }
            }
        }
    }
    return true;
}

struct Pipeline
{
    int flag_merge = 1;
    int climb = 4;
    int height = 10;
};

struct StageDiffs
{
    long raster = 0, low_hanging = 0, ledge = 0, low_height = 0;
    long spans = 0;
    long total() const { return raster + low_hanging + ledge + low_height; }
};

// Rasterize and filter on both sides, comparing after each step. With tasks, proxima rasterizes in tiles
// through a BVH over the triangles (px_heightfield_rasterize_mesh).
StageDiffs run_pipeline(const Grid& g, const float* verts, int nv, const int* tris, int nt, const unsigned char* areas,
                        const Pipeline& p, const px_task_system* tasks = nullptr)
{
    StageDiffs d;
    rcHeightfield* rc = make_rc(g);
    px_heightfield* px = make_px(g);
    if (!rcRasterizeTriangles(&g_ctx, verts, nv, tris, areas, nt, *rc, p.flag_merge))
    {
        std::fprintf(stderr, "rcRasterizeTriangles failed\n");
        std::exit(1);
    }
    px_status s = PX_OK;
    if (tasks != nullptr)
    {
        px_mesh* mesh = nullptr;
        s = px_mesh_create(verts, nv, tris, nt, nullptr, &mesh);
        if (s == PX_OK)
        {
            s = px_heightfield_rasterize_mesh(px, mesh, areas, p.flag_merge, tasks);
        }
        px_mesh_destroy(mesh);
    }
    else
    {
        s = px_heightfield_rasterize_triangles(px, verts, nv, tris, areas, nt, p.flag_merge);
    }
    if (s != PX_OK)
    {
        std::printf("    proxima rasterization%s: %s\n", tasks != nullptr ? " in tiles" : "", px_status_string(s));
        d.raster = 1;
    }
    d.raster += compare(*rc, px, "rasterize", &d.spans);
    rcFilterLowHangingWalkableObstacles(&g_ctx, p.climb, *rc);
    if (px_filter_low_hanging_walkable_obstacles(px, p.climb) != PX_OK)
    {
        d.low_hanging = 1;
    }
    d.low_hanging += compare(*rc, px, "low hanging obstacles", nullptr);
    rcFilterLedgeSpans(&g_ctx, p.height, p.climb, *rc);
    if (px_filter_ledge_spans(px, p.height, p.climb) != PX_OK)
    {
        d.ledge = 1;
    }
    d.ledge += compare(*rc, px, "ledge spans", nullptr);
    rcFilterWalkableLowHeightSpans(&g_ctx, p.height, *rc);
    if (px_filter_walkable_low_height_spans(px, p.height) != PX_OK)
    {
        d.low_height = 1;
    }
    d.low_height += compare(*rc, px, "low height spans", nullptr);
    if (!px_field_valid(px))
    {
        d.raster += 1;
    }
    rcFreeHeightField(rc);
    px_heightfield_destroy(px);
    return d;
}

// ---------------------------------------------------------------------------------------------------------
// Shared meshes
// ---------------------------------------------------------------------------------------------------------

struct MeshCase
{
    const char* file;
    float cs, ch;
    float agent_height, agent_climb;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

void time_dungeon(const Grid& g, const px_obj_data& m, const std::vector<unsigned char>& areas)
{
    const int reps = 15;
    std::vector<double> t_rc, t_px;
    for (int r = 0; r < reps; ++r)
    {
        rcHeightfield* rc = make_rc(g);
        px_heightfield* px = make_px(g);
        auto t0 = std::chrono::steady_clock::now();
        bool ok = rcRasterizeTriangles(&g_ctx, m.vertices, m.vertex_count, m.indices, areas.data(), m.triangle_count,
                                       *rc, 1);
        auto t1 = std::chrono::steady_clock::now();
        px_status s = px_heightfield_rasterize_triangles(px, m.vertices, m.vertex_count, m.indices, areas.data(),
                                                         m.triangle_count, 1);
        auto t2 = std::chrono::steady_clock::now();
        if (!ok || s != PX_OK)
        {
            std::printf("  timing run failed\n");
            ++g_failures;
        }
        t_rc.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        t_px.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
        rcFreeHeightField(rc);
        px_heightfield_destroy(px);
    }
    const double a = median(t_rc), b = median(t_px);
    std::printf("  timing dungeon.obj rasterization, one thread, median of %d: Recast %.3f ms, proxima %.3f ms "
                "(%.2fx)\n",
                reps, a, b, a / b);
}

bool run_meshes()
{
    const MeshCase cases[] = {
        { "nav_test.obj", 0.3f, 0.2f, 2.0f, 0.9f },   { "dungeon.obj", 0.3f, 0.2f, 2.0f, 0.9f },
        { "undulating.obj", 0.3f, 0.2f, 2.0f, 0.9f }, { "bunny.obj", 0.03f, 0.02f, 0.2f, 0.09f },
        { "env.obj", 20.0f, 13.33f, 133.3f, 60.0f },  { "rob.obj", 4.0f, 2.667f, 26.67f, 12.0f },
    };
    int found = 0;
    for (const MeshCase& mc : cases)
    {
        std::string path = std::string(PX_DATA_DIR) + "/" + mc.file;
        px_obj_data m = {};
        if (px_obj_load(path.c_str(), nullptr, &m, nullptr) != PX_OK)
        {
            std::printf("  %-15s not found, left out\n", mc.file);
            continue;
        }
        ++found;
        // slope marking
        std::vector<unsigned char> rc_areas((size_t)m.triangle_count, 0), px_areas((size_t)m.triangle_count, 0);
        rcMarkWalkableTriangles(&g_ctx, 45.0f, m.vertices, m.vertex_count, m.indices, m.triangle_count,
                                rc_areas.data());
        if (px_mark_walkable_triangles(45.0f, m.vertices, m.vertex_count, m.indices, m.triangle_count,
                                       px_areas.data()) != PX_OK ||
            rc_areas != px_areas)
        {
            std::printf("  %-15s walkable marks differ\n", mc.file);
            ++g_failures;
        }
        long walkable = (long)std::count(rc_areas.begin(), rc_areas.end(), (unsigned char)RC_WALKABLE_AREA);

        Pipeline p;
        p.climb = (int)std::floor(mc.agent_climb / mc.ch);
        p.height = (int)std::ceil(mc.agent_height / mc.ch);
        Grid full;
        full.cs = mc.cs;
        full.ch = mc.ch;
        rcCalcBounds(m.vertices, m.vertex_count, full.bmin, full.bmax);
        rcCalcGridSize(full.bmin, full.bmax, full.cs, &full.w, &full.h);
        // a box cut through the middle of the mesh on all three axes
        Grid crop = full;
        for (int i = 0; i < 3; ++i)
        {
            const float e = full.bmax[i] - full.bmin[i];
            crop.bmin[i] = full.bmin[i] + 0.23f * e;
            crop.bmax[i] = full.bmin[i] + 0.71f * e;
        }
        rcCalcGridSize(crop.bmin, crop.bmax, crop.cs, &crop.w, &crop.h);

        const int thresholds[3] = { 0, 1, p.climb };
        for (int field = 0; field < 2; ++field)
        {
            const Grid& g = field == 0 ? full : crop;
            std::string line;
            long spans = 0;
            bool ok = true;
            for (int thr : thresholds)
            {
                Pipeline q = p;
                q.flag_merge = thr;
                StageDiffs d = run_pipeline(g, m.vertices, m.vertex_count, m.indices, m.triangle_count,
                                            rc_areas.data(), q);
                if (thr == 1)
                {
                    spans = d.spans;
                }
                char b[96];
                std::snprintf(b, sizeof(b), " thr %d: %s", thr,
                              d.total() == 0 ? "equal" : "DIFFERENT");
                line += b;
                if (d.total() != 0)
                {
                    std::printf("    (%ld raster, %ld low-hanging, %ld ledge, %ld low-height columns differ)\n",
                                d.raster, d.low_hanging, d.ledge, d.low_height);
                    ok = false;
                }
            }
            std::printf("  %-15s %-4s %4dx%-4d cs %g ch %g climb %d height %d: %ld spans, %ld/%d walkable "
                        "triangles;%s\n",
                        mc.file, field == 0 ? "full" : "crop", g.w, g.h, (double)g.cs, (double)g.ch, p.climb,
                        p.height, spans, walkable, m.triangle_count, line.c_str());
            if (!ok)
            {
                ++g_failures;
            }
        }
        // tiles through the BVH on 2 and 3 threads, whole pipeline, threshold 1
        for (int pool = 0; pool < 2; ++pool)
        {
            Pipeline q = p;
            q.flag_merge = 1;
            StageDiffs d = run_pipeline(full, m.vertices, m.vertex_count, m.indices, m.triangle_count,
                                        rc_areas.data(), q, &g_tasks[pool]);
            std::printf("  %-15s full tiles on %d threads: %s\n", mc.file, pool + 2,
                        d.total() == 0 ? "equal" : "DIFFERENT");
            if (d.total() != 0)
            {
                ++g_failures;
            }
        }
        if (std::strcmp(mc.file, "dungeon.obj") == 0)
        {
            time_dungeon(full, m, rc_areas);
        }
        px_obj_free(&m);
    }
    return found > 0;
}

// ---------------------------------------------------------------------------------------------------------
// Random soups
// ---------------------------------------------------------------------------------------------------------

int rand_int(px_rng* r, int lo, int hi) // [lo, hi]
{
    return lo + (int)(px_rng_next(r) % (uint64_t)(hi - lo + 1));
}

float pick(px_rng* r, std::initializer_list<float> values)
{
    return *(values.begin() + rand_int(r, 0, (int)values.size() - 1));
}

// A grid line as Recast's clipping computes it (the far line of cell k - 1, or the near line of cell k).
float grid_line(px_rng* r, float origin, float cs, int k)
{
    float v = rand_int(r, 0, 1) == 0 ? (origin + (float)(k - 1) * cs) + cs : origin + (float)k * cs;
    switch (rand_int(r, 0, 3))
    {
    case 0:
        return std::nextafter(v, INFINITY);
    case 1:
        return std::nextafter(v, -INFINITY);
    default:
        return v;
    }
}

// One coordinate of a soup vertex along axis a (0 x, 1 y, 2 z).
float soup_coord(px_rng* r, const Grid& g, int a, int mode)
{
    const float lo = g.bmin[a], hi = g.bmax[a];
    const float ext = hi - lo;
    if (mode == 0 || (a == 1 && mode == 1))
    {
        return (float)px_rng_range(r, lo - 0.15 * ext, hi + 0.15 * ext);
    }
    if (a == 1)
    {
        // on a height-cell boundary (or an ulp off)
        const int cells = (int)(ext / g.ch);
        float v = lo + (float)rand_int(r, -2, cells + 2) * g.ch;
        const int o = rand_int(r, 0, 2);
        return o == 0 ? v : std::nextafter(v, o == 1 ? INFINITY : -INFINITY);
    }
    const int cells = a == 0 ? g.w : g.h;
    return grid_line(r, lo, g.cs, rand_int(r, -2, cells + 2));
}

void soup_triangle(px_rng* r, const Grid& g, float* v)
{
    const int shape = rand_int(r, 0, 5);
    const int mode = rand_int(r, 0, 2); // 0 uniform, 1 on x/z cell lines, 2 also on height cells
    for (int k = 0; k < 3; ++k)
    {
        for (int a = 0; a < 3; ++a)
        {
            v[3 * k + a] = soup_coord(r, g, a, mode);
        }
    }
    switch (shape)
    {
    case 0: // small: within about two cells of the first vertex
        for (int k = 1; k < 3; ++k)
        {
            for (int a = 0; a < 3; ++a)
            {
                const float s = a == 1 ? 4.0f * g.ch : 2.0f * g.cs;
                v[3 * k + a] = v[a] + (float)px_rng_range(r, -s, s);
                if (mode > 0 && rand_int(r, 0, 1) == 0)
                {
                    v[3 * k + a] = soup_coord(r, g, a, mode);
                }
            }
        }
        break;
    case 1: // degenerate: a repeated vertex or a collinear one
        if (rand_int(r, 0, 1) == 0)
        {
            std::memcpy(&v[6], &v[rand_int(r, 0, 1) * 3], 3 * sizeof(float));
        }
        else
        {
            for (int a = 0; a < 3; ++a)
            {
                v[6 + a] = v[a] + (v[3 + a] - v[a]) * 0.5f;
            }
        }
        break;
    case 2: // vertical wall along x or z
    {
        const int a = rand_int(r, 0, 1) * 2;
        v[3 + a] = v[a];
        v[6 + a] = v[a];
        break;
    }
    case 3: // sliver: the third vertex a hair off the first edge
        for (int a = 0; a < 3; ++a)
        {
            v[6 + a] = std::nextafter(v[a] + (v[3 + a] - v[a]) * 0.37f, INFINITY);
        }
        break;
    default:
        break;
    }
}

bool run_soups(int soups)
{
    px_rng r = px_rng_seeded(0x5EC0A57ull);
    long compared = 0, triangles = 0, excluded = 0, spans = 0, tiled = 0;
    int failed_soups = 0;
    long thr_counts[3] = { 0, 0, 0 };
    for (int soup = 0; soup < soups; ++soup)
    {
        Grid g;
        g.w = rand_int(&r, 1, 40);
        g.h = rand_int(&r, 1, 40);
        g.cs = rand_int(&r, 0, 2) == 0 ? (float)px_rng_range(&r, 0.05, 2.0) : pick(&r, { 0.3f, 0.25f, 1.0f, 0.1f, 0.7f });
        g.ch = rand_int(&r, 0, 2) == 0 ? (float)px_rng_range(&r, 0.02, 1.0) : pick(&r, { 0.2f, 0.1f, 0.5f });
        const float origin = pick(&r, { 0.0f, -3.7f, 1000.3f, 5000.0f, (float)px_rng_range(&r, -1e4, 1e4) });
        for (int a = 0; a < 3; ++a)
        {
            g.bmin[a] = origin + (float)px_rng_range(&r, -20.0, 20.0);
        }
        const int height_cells = rand_int(&r, 4, 400);
        // Recast does not require bmax to agree with the column counts: sometimes it does not
        const float slack = rand_int(&r, 0, 3) == 0 ? (float)px_rng_range(&r, -0.5, 0.5) * g.cs : 0.0f;
        g.bmax[0] = g.bmin[0] + (float)g.w * g.cs + slack;
        g.bmax[2] = g.bmin[2] + (float)g.h * g.cs - slack;
        g.bmax[1] = g.bmin[1] + (float)height_cells * g.ch;
        for (int a = 0; a < 3; ++a)
        {
            g.bmax[a] = std::max(g.bmax[a], g.bmin[a]);
        }

        const int nt = rand_int(&r, 1, 120);
        std::vector<float> verts;
        std::vector<int> tris;
        std::vector<unsigned char> areas;
        px_heightfield* probe = make_px(g);
        for (int t = 0; t < nt; ++t)
        {
            float v[9];
            soup_triangle(&r, g, v);
            ++triangles;
            if (pxi_heightfield_triangle_clip_vertices(probe, v, v + 3, v + 6) > 7)
            {
                ++excluded; // Recast's buffers overflow on it (kRecastInvalid[1])
                continue;
            }
            const int base = (int)verts.size() / 3;
            verts.insert(verts.end(), v, v + 9);
            tris.push_back(base);
            tris.push_back(base + 1);
            tris.push_back(base + 2);
            const int kind = rand_int(&r, 0, 3);
            areas.push_back(kind == 0 ? RC_NULL_AREA
                                      : kind == 1 ? RC_WALKABLE_AREA : (unsigned char)rand_int(&r, 1, 63));
        }
        px_heightfield_destroy(probe);
        Pipeline p;
        const int tk = rand_int(&r, 0, 2);
        p.flag_merge = tk == 0 ? 0 : tk == 1 ? 1 : rand_int(&r, 2, 6);
        thr_counts[tk]++;
        p.climb = rand_int(&r, 0, 8);
        p.height = rand_int(&r, 0, 24);
        const int n = (int)tris.size() / 3;
        StageDiffs d = run_pipeline(g, verts.data(), (int)verts.size() / 3, tris.data(), n, areas.data(), p);
        if (soup % 3 == 0)
        {
            // the same soup in tiles through the BVH, on 2 or 3 threads
            StageDiffs t = run_pipeline(g, verts.data(), (int)verts.size() / 3, tris.data(), n, areas.data(), p,
                                        &g_tasks[(soup / 3) % 2]);
            d.raster += t.total();
            ++tiled;
        }
        ++compared;
        spans += d.spans;
        if (d.total() != 0)
        {
            ++failed_soups;
            if (failed_soups <= 3)
            {
                std::printf("    soup %d: %dx%d cs %a ch %a bmin (%a, %a, %a) bmax (%a, %a, %a), %d triangles, "
                            "thr %d climb %d height %d\n",
                            soup, g.w, g.h, (double)g.cs, (double)g.ch, (double)g.bmin[0], (double)g.bmin[1],
                            (double)g.bmin[2], (double)g.bmax[0], (double)g.bmax[1], (double)g.bmax[2], n,
                            p.flag_merge, p.climb, p.height);
            }
        }
    }
    std::printf("  random soups: %ld soups (thresholds 0/1/2-6: %ld/%ld/%ld; %ld also in tiles on 2 or 3 threads), "
                "%ld triangles, %ld spans: %d soups differ; %ld triangles left out (clipped polygon > 7 vertices: "
                "Recast overflows)\n",
                compared, thr_counts[0], thr_counts[1], thr_counts[2], tiled, triangles - excluded, spans,
                failed_soups, excluded);
    return failed_soups == 0;
}

// ---------------------------------------------------------------------------------------------------------
// rcAddSpan, slope marking, invalid Recast cases
// ---------------------------------------------------------------------------------------------------------

bool run_add_span()
{
    px_rng r = px_rng_seeded(0xADD5BA7ull);
    Grid g;
    g.w = 4;
    g.h = 3;
    g.bmax[0] = 1.2f;
    g.bmax[1] = 100.0f;
    g.bmax[2] = 0.9f;
    long inserted = 0, differ = 0;
    for (int round = 0; round < 300; ++round)
    {
        rcHeightfield* rc = make_rc(g);
        px_heightfield* px = make_px(g);
        const int thr = rand_int(&r, 0, 4);
        const int top = rand_int(&r, 8, 200);
        const int count = rand_int(&r, 1, 120);
        for (int i = 0; i < count; ++i)
        {
            const int x = rand_int(&r, 0, g.w - 1), z = rand_int(&r, 0, g.h - 1);
            const int smin = rand_int(&r, 0, top - 1);
            const int smax = std::min(top, smin + rand_int(&r, 1, 12));
            const unsigned char area = (unsigned char)rand_int(&r, 0, 63);
            rcAddSpan(&g_ctx, *rc, x, z, (unsigned short)smin, (unsigned short)smax, area, thr);
            if (px_heightfield_add_span(px, x, z, (uint32_t)smin, (uint32_t)smax, area, thr) != PX_OK)
            {
                ++differ;
            }
            ++inserted;
        }
        differ += compare(*rc, px, "add span", nullptr);
        rcFreeHeightField(rc);
        px_heightfield_destroy(px);
    }
    std::printf("  rcAddSpan: %ld random insertions in 300 fields: %ld columns differ\n", inserted, differ);
    return differ == 0;
}

bool run_slopes()
{
    px_rng r = px_rng_seeded(0x51095ull);
    const int nt = 20000;
    std::vector<float> v((size_t)nt * 9);
    for (size_t i = 0; i < v.size(); ++i)
    {
        v[i] = (float)px_rng_range(&r, -1.0, 1.0);
    }
    // exact slopes: ramps of 45 degrees and others, vertical walls, flat floors and ceilings
    const float ramps[][9] = {
        { 0, 0, 0, 0, -1, 1, 1, 0, 0 }, { 0, 0, 0, 0, 0, 1, 1, 0, 0 }, { 0, 0, 0, 1, 0, 0, 0, 0, 1 },
        { 0, 0, 0, 0, 1, 0, 1, 0, 0 },  { 0, 0, 0, 0, -2, 2, 3, 0, 0 }, { 5, 1, 5, 5, 0, 6, 6, 1, 5 },
    };
    for (size_t k = 0; k < sizeof(ramps) / sizeof(ramps[0]); ++k)
    {
        std::memcpy(&v[k * 9], ramps[k], sizeof(ramps[k]));
    }
    const float slopes[] = { 0.0f, 10.0f, 30.0f, 45.0f, 60.0f, 89.0f, std::nextafter(90.0f, 0.0f),
                             (float)px_rng_range(&r, 0, 90), (float)px_rng_range(&r, 0, 90) };
    long differ = 0;
    for (float slope : slopes)
    {
        std::vector<unsigned char> a((size_t)nt, 7), b((size_t)nt, 7);
        std::vector<int> idx((size_t)nt * 3);
        for (int i = 0; i < nt * 3; ++i)
        {
            idx[(size_t)i] = i;
        }
        rcMarkWalkableTriangles(&g_ctx, slope, v.data(), nt * 3, idx.data(), nt, a.data());
        if (px_mark_walkable_triangles(slope, v.data(), nt * 3, idx.data(), nt, b.data()) != PX_OK)
        {
            ++differ;
        }
        for (int i = 0; i < nt; ++i)
        {
            differ += a[(size_t)i] != b[(size_t)i];
        }
    }
    // the 45-degree ramp with a 45-degree limit: a tie, not walkable on both sides
    unsigned char tie_rc = 0, tie_px = 0;
    const int tri[3] = { 0, 1, 2 };
    rcMarkWalkableTriangles(&g_ctx, 45.0f, ramps[0], 3, tri, 1, &tie_rc);
    if (px_mark_walkable_triangles(45.0f, ramps[0], 3, tri, 1, &tie_px) != PX_OK)
    {
        ++differ;
    }
    std::printf("  rcMarkWalkableTriangles: %d triangles x %zu slopes (45-degree ramp at 45: Recast %d, proxima "
                "%d): %ld differ\n",
                nt, sizeof(slopes) / sizeof(slopes[0]), tie_rc, tie_px, differ);
    return differ == 0 && tie_rc == tie_px;
}

// Recast invalid: a field taller than 8191 cells. Shown, not compared; proxima must stay valid.
bool run_invalid_cases()
{
    bool ok = true;
    Grid g;
    g.w = 2;
    g.h = 2;
    g.ch = 0.1f;
    g.bmax[0] = 0.6f;
    g.bmax[2] = 0.6f;
    g.bmax[1] = 1000.0f; // 10000 cells
    const float tri[9] = { 0.0f, 999.95f, 0.0f, 0.5f, 999.95f, 0.0f, 0.0f, 999.95f, 0.5f };
    const int idx[3] = { 0, 1, 2 };
    const unsigned char area = RC_WALKABLE_AREA;
    rcHeightfield* rc = make_rc(g);
    px_heightfield* px = make_px(g);
    rcRasterizeTriangles(&g_ctx, tri, 3, idx, &area, 1, *rc, 1);
    ok = px_heightfield_rasterize_triangles(px, tri, 3, idx, &area, 1, 1) == PX_OK && ok;
    std::vector<Span> a, b;
    rc_column(*rc, 0, 0, a);
    px_column(px, 0, 0, b);
    ok = px_field_valid(px) && b.size() == 1 && b[0].smin == 9999 && b[0].smax == 10000 && ok;
    std::printf("  left out (Recast invalid): 10000-cell-tall field, triangle at the top: Recast %s, proxima %s\n",
                format_column(a).c_str(), format_column(b).c_str());
    rcFreeHeightField(rc);
    px_heightfield_destroy(px);

    // huge coordinates: proxima only (Recast's conversions are undefined there); spans must stay valid
    Grid h;
    h.w = 16;
    h.h = 16;
    h.bmax[0] = 4.8f;
    h.bmax[1] = 10.0f;
    h.bmax[2] = 4.8f;
    const float huge[] = { -1e30f, 1.0f, -1e30f, 3e38f, 5.0f, 2.0f, 1.0f, -3e38f, 3e38f,
                           1.0f,   2.0f, 1.0f,   1e20f, 3.0f, -1e20f, 2.0f, 4.0f, 3.0f };
    const unsigned char areas[2] = { RC_WALKABLE_AREA, RC_WALKABLE_AREA };
    px_heightfield* hp = make_px(h);
    px_status s = px_heightfield_rasterize_triangles(hp, huge, 6, nullptr, areas, 2, 1);
    ok = (s == PX_OK || s == PX_WARN_CAPACITY) && px_field_valid(hp) && ok;
    std::printf("  left out (Recast undefined): coordinates up to 3e38: proxima %s, %" PRId64 " valid spans\n",
                px_status_string(s), px_heightfield_span_count(hp));
    px_heightfield_destroy(hp);
    return ok;
}

} // namespace

int main()
{
    std::printf("Recast oracle (librecast-dev 1.5.1+git20210215). Cases where Recast is invalid, left out:\n");
    for (const char* reason : kRecastInvalid)
    {
        std::printf("  - %s\n", reason);
    }
    const char* env = std::getenv("PX_RECAST_SOUPS");
    const int soups = env != nullptr ? std::atoi(env) : 3000;
    px_thread_pool* pools[2] = {};
    for (int i = 0; i < 2; ++i)
    {
        if (px_thread_pool_create(i + 2, nullptr, &pools[i]) != PX_OK)
        {
            std::fprintf(stderr, "px_thread_pool_create failed\n");
            return 1;
        }
        g_tasks[i] = px_thread_pool_task_system(pools[i]);
    }

    if (!run_meshes())
    {
        std::printf("  shared meshes not found in %s: mesh cases left out\n", PX_DATA_DIR);
    }
    if (!run_soups(soups))
    {
        ++g_failures;
    }
    if (!run_add_span())
    {
        ++g_failures;
    }
    if (!run_slopes())
    {
        ++g_failures;
    }
    if (!run_invalid_cases())
    {
        ++g_failures;
    }
    px_thread_pool_destroy(pools[0]);
    px_thread_pool_destroy(pools[1]);
    std::printf("%s\n", g_failures == 0 ? "oracle_recast: pass" : "oracle_recast: FAIL");
    return g_failures == 0 ? 0 : 1;
}
