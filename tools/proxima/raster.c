/* `proxima raster MESH.obj --png FILE [--cell-size S] [--cell-height H] [--slope DEG] [--climb C]
 * [--agent-height A] [--threads N]`, and the baking that the demo's heightfield section shares (raster.h).
 *
 * The stages of Recast's first step, as RecastDemo runs them: triangles steeper than the slope are marked
 * not walkable (px_mark_walkable_triangles), the mesh is rasterized into a span field over its bounds, then
 * the three filters let the agent step over low obstacles, drop spans at ledges and spans without headroom.
 * Rasterization runs twice: one pass on one thread (px_heightfield_rasterize_triangles), then in tiles fed by
 * the BVH on N threads (px_heightfield_rasterize_mesh); both must give the same spans, and both are timed.
 * Each stage prints its line as soon as it is done, so a long bake shows where it is. */
#define _POSIX_C_SOURCE 200809L

#include "raster.h"
#include "demo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RASTER_MAX_THREADS 256
/* Bakes with more triangles or columns than this announce each stage before running it. */
#define RASTER_BIG_TRIANGLES 200000
#define RASTER_BIG_COLUMNS 4000000

bool raster_check_params(const raster_params* p, char* error, size_t error_size)
{
    if (!(p->cell_size > 0.0f))
    {
        snprintf(error, error_size, "--cell-size must be greater than 0, not %g", (double)p->cell_size);
        return false;
    }
    if (!(p->cell_height > 0.0f))
    {
        snprintf(error, error_size, "--cell-height must be greater than 0, not %g", (double)p->cell_height);
        return false;
    }
    if (!(p->slope >= 0.0f && p->slope <= 90.0f))
    {
        snprintf(error, error_size, "--slope must be from 0 to 90 degrees, not %g", (double)p->slope);
        return false;
    }
    if (!(p->climb >= 0.0f))
    {
        snprintf(error, error_size, "--climb must be 0 or more, not %g", (double)p->climb);
        return false;
    }
    if (!(p->agent_height > 0.0f))
    {
        snprintf(error, error_size, "--agent-height must be greater than 0, not %g", (double)p->agent_height);
        return false;
    }
    /* the filters take cells up to PX_SPAN_MAX_HEIGHT */
    if ((double)p->climb / (double)p->cell_height > PX_SPAN_MAX_HEIGHT ||
        (double)p->agent_height / (double)p->cell_height > PX_SPAN_MAX_HEIGHT)
    {
        snprintf(error, error_size, "--climb and --agent-height must be at most %d cells of --cell-height",
                 PX_SPAN_MAX_HEIGHT);
        return false;
    }
    return true;
}

/* A growing buffer for reading columns. */
typedef struct column_buffer
{
    px_span* spans;
    int capacity;
} column_buffer;

/* The spans of column (x, z) into buf; returns the count, or -1 when out of memory. */
static int read_column(const px_heightfield* hf, int x, int z, column_buffer* buf)
{
    int n = px_heightfield_column(hf, x, z, buf->spans, buf->capacity);
    if (n > buf->capacity)
    {
        int capacity = 2 * n;
        px_span* spans = realloc(buf->spans, (size_t)capacity * sizeof(px_span));
        if (spans == NULL)
        {
            return -1;
        }
        buf->spans = spans;
        buf->capacity = capacity;
        n = px_heightfield_column(hf, x, z, buf->spans, buf->capacity);
    }
    return n;
}

/* Whether two fields hold the same spans in every column. */
static bool same_spans(const px_heightfield* a, const px_heightfield* b)
{
    if (px_heightfield_span_count(a) != px_heightfield_span_count(b))
    {
        return false;
    }
    column_buffer ba = { NULL, 0 }, bb = { NULL, 0 };
    bool same = true;
    for (int z = 0; z < px_heightfield_depth(a) && same; ++z)
    {
        for (int x = 0; x < px_heightfield_width(a) && same; ++x)
        {
            const int na = read_column(a, x, z, &ba);
            const int nb = read_column(b, x, z, &bb);
            same = na >= 0 && na == nb;
            for (int i = 0; same && i < na; ++i)
            {
                same = ba.spans[i].smin == bb.spans[i].smin && ba.spans[i].smax == bb.spans[i].smax &&
                       ba.spans[i].area == bb.spans[i].area;
            }
        }
    }
    free(ba.spans);
    free(bb.spans);
    return same;
}

static px_status create_field(const px_mesh* mesh, const raster_params* p, px_heightfield** hf)
{
    const px_aabb box = px_mesh_bounds(mesh);
    px_heightfield_def def = px_heightfield_default_def();
    for (int k = 0; k < 3; ++k)
    {
        def.bmin[k] = box.min[k];
        def.bmax[k] = box.max[k];
    }
    def.cell_size = p->cell_size;
    def.cell_height = p->cell_height;
    return px_heightfield_create(&def, hf);
}

int raster_run(const float* vertices, int vertex_count, const int32_t* indices, int triangle_count,
               const raster_params* params, int threads, const char* indent, raster_result* r)
{
    memset(r, 0, sizeof(*r));
    r->triangles = triangle_count;
    r->walkable_climb = (int)floorf(params->climb / params->cell_height);
    r->walkable_height = (int)ceilf(params->agent_height / params->cell_height);

    double t0 = demo_now_ns();
    px_mesh* mesh = NULL;
    px_status status = px_mesh_create(vertices, vertex_count, indices, triangle_count, NULL, &mesh);
    r->bvh_ns = demo_now_ns() - t0;
    if (status != PX_OK)
    {
        return cli_fail("raster: cannot build the mesh: %s", px_status_string(status));
    }
    const px_aabb box = px_mesh_bounds(mesh);
    printf("%smesh       %d triangles, bounds (%.2f, %.2f, %.2f) to (%.2f, %.2f, %.2f), bvh in %.1f ms\n", indent,
           triangle_count, (double)box.min[0], (double)box.min[1], (double)box.min[2], (double)box.max[0],
           (double)box.max[1], (double)box.max[2], r->bvh_ns * 1e-6);
    fflush(stdout);

    uint8_t* areas = calloc((size_t)triangle_count + 1, 1);
    px_heightfield* one = NULL;
    px_heightfield* tiled = NULL;
    px_thread_pool* pool = NULL;
    int rc = CLI_EXIT_OK;
    if (areas == NULL)
    {
        rc = cli_fail("raster: out of memory");
        goto done;
    }
    t0 = demo_now_ns();
    status = px_mark_walkable_triangles(params->slope, vertices, vertex_count, indices, triangle_count, areas);
    r->mark_ns = demo_now_ns() - t0;
    if (status != PX_OK)
    {
        rc = cli_fail("raster: cannot mark walkable triangles: %s", px_status_string(status));
        goto done;
    }
    for (int i = 0; i < triangle_count; ++i)
    {
        r->walkable_triangles += areas[i] != PX_NULL_AREA;
    }
    printf("%swalkable   %d of %d triangles at most %g degrees steep, marked in %.2f ms\n", indent,
           r->walkable_triangles, triangle_count, (double)params->slope, r->mark_ns * 1e-6);

    status = create_field(mesh, params, &one);
    if (status == PX_OK)
    {
        status = create_field(mesh, params, &tiled);
    }
    if (status != PX_OK)
    {
        const double w = ((double)box.max[0] - box.min[0]) / params->cell_size;
        const double d = ((double)box.max[2] - box.min[2]) / params->cell_size;
        const double h = ((double)box.max[1] - box.min[1]) / params->cell_height;
        rc = cli_fail("raster: cannot create a field of %.0f x %.0f columns, %.0f cells tall (at most %d): %s", w,
                      d, h, PX_SPAN_MAX_HEIGHT - 1, px_status_string(status));
        goto done;
    }
    r->width = px_heightfield_width(one);
    r->depth = px_heightfield_depth(one);
    printf("%sfield      %d x %d columns of %g, cells %g high; agent: climb %d cells, height %d cells\n", indent,
           r->width, r->depth, (double)params->cell_size, (double)params->cell_height, r->walkable_climb,
           r->walkable_height);
    const bool big = triangle_count > RASTER_BIG_TRIANGLES || (int64_t)r->width * r->depth > RASTER_BIG_COLUMNS;
    fflush(stdout);

    status = px_thread_pool_create(threads, NULL, &pool);
    if (status != PX_OK)
    {
        rc = cli_fail("raster: cannot start %d threads: %s", threads, px_status_string(status));
        goto done;
    }
    r->workers = px_thread_pool_worker_count(pool);
    const px_task_system tasks = px_thread_pool_task_system(pool);

    if (big)
    {
        printf("%s  ... rasterizing on one thread\n", indent);
        fflush(stdout);
    }
    t0 = demo_now_ns();
    status = px_heightfield_rasterize_triangles(one, vertices, vertex_count, indices, areas, triangle_count,
                                                r->walkable_climb);
    r->single_ns = demo_now_ns() - t0;
    if (status != PX_OK)
    {
        rc = cli_fail("raster: rasterization failed: %s", px_status_string(status));
        goto done;
    }
    if (big)
    {
        printf("%s  ... done in %.0f ms; rasterizing in tiles on %d threads\n", indent, r->single_ns * 1e-6,
               r->workers);
        fflush(stdout);
    }
    t0 = demo_now_ns();
    status = px_heightfield_rasterize_mesh(tiled, mesh, areas, r->walkable_climb, &tasks);
    r->tiled_ns = demo_now_ns() - t0;
    if (status != PX_OK)
    {
        rc = cli_fail("raster: tiled rasterization failed: %s", px_status_string(status));
        goto done;
    }
    r->identical = same_spans(one, tiled);
    r->spans = px_heightfield_span_count(tiled);
    printf("%srasterize  one thread %.2f ms; tiles on %d worker%s %.2f ms (%.2fx); %s: %lld spans\n", indent,
           r->single_ns * 1e-6, r->workers, r->workers == 1 ? "" : "s", r->tiled_ns * 1e-6,
           r->single_ns / (r->tiled_ns > 0.0 ? r->tiled_ns : 1.0), r->identical ? "same spans" : "SPANS DIFFER",
           (long long)r->spans);
    fflush(stdout);

    t0 = demo_now_ns();
    status = px_filter_low_hanging_walkable_obstacles(tiled, r->walkable_climb);
    r->filter_ns[0] = demo_now_ns() - t0;
    if (status == PX_OK)
    {
        t0 = demo_now_ns();
        status = px_filter_ledge_spans(tiled, r->walkable_height, r->walkable_climb);
        r->filter_ns[1] = demo_now_ns() - t0;
    }
    if (status == PX_OK)
    {
        t0 = demo_now_ns();
        status = px_filter_walkable_low_height_spans(tiled, r->walkable_height);
        r->filter_ns[2] = demo_now_ns() - t0;
    }
    if (status != PX_OK)
    {
        rc = cli_fail("raster: filtering failed: %s", px_status_string(status));
        goto done;
    }
    printf("%sfilters    low-hanging obstacles %.2f ms, ledges %.2f ms, low height %.2f ms\n", indent,
           r->filter_ns[0] * 1e-6, r->filter_ns[1] * 1e-6, r->filter_ns[2] * 1e-6);

    column_buffer buf = { NULL, 0 };
    for (int z = 0; z < r->depth && rc == CLI_EXIT_OK; ++z)
    {
        for (int x = 0; x < r->width; ++x)
        {
            const int n = read_column(tiled, x, z, &buf);
            if (n < 0)
            {
                rc = cli_fail("raster: out of memory");
                break;
            }
            for (int i = 0; i < n; ++i)
            {
                r->walkable_spans += buf.spans[i].area != PX_NULL_AREA;
            }
            r->columns += n > 0;
            r->walkable_columns += n > 0 && buf.spans[n - 1].area != PX_NULL_AREA;
        }
    }
    free(buf.spans);
    printf("%sresult     %lld spans in %lld of %lld columns; %lld spans walkable, %lld columns walkable on top\n",
           indent, (long long)r->spans, (long long)r->columns, (long long)r->width * r->depth,
           (long long)r->walkable_spans, (long long)r->walkable_columns);
    fflush(stdout);
    if (rc == CLI_EXIT_OK && !r->identical)
    {
        rc = cli_fail("raster: the tiles' spans differ from one pass on one thread");
    }

done:
    px_thread_pool_destroy(pool);
    px_heightfield_destroy(one);
    if (rc == CLI_EXIT_OK)
    {
        r->field = tiled;
    }
    else
    {
        px_heightfield_destroy(tiled);
    }
    free(areas);
    px_mesh_destroy(mesh);
    return rc;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The map */

/* Columns per pixel and pixels per column for a field whose larger side has n columns. */
static void map_scale(int n, int* step, int* block)
{
    *step = n > RASTER_MAP_MAX ? (n + RASTER_MAP_MAX - 1) / RASTER_MAP_MAX : 1;
    *block = n < RASTER_MAP_SIZE ? RASTER_MAP_SIZE / n : 1;
}

void raster_map_size(int width, int depth, int* image_width, int* image_height)
{
    int step, block;
    map_scale(width > depth ? width : depth, &step, &block);
    *image_width = (width + step - 1) / step * block;
    *image_height = (depth + step - 1) / step * block;
}

bool raster_draw_map(const px_heightfield* field, cli_image* image)
{
    const int w = px_heightfield_width(field), d = px_heightfield_depth(field);
    int step, block, iw, ih;
    map_scale(w > d ? w : d, &step, &block);
    raster_map_size(w, d, &iw, &ih);
    const int cw = iw / block, ch = ih / block; /* sampled columns */
    /* the top of each sampled column (-1: empty) and its area */
    int* top = malloc((size_t)cw * (size_t)ch * sizeof(int));
    uint8_t* area = malloc((size_t)cw * (size_t)ch);
    column_buffer buf = { NULL, 0 };
    bool ok = top != NULL && area != NULL && cli_image_create(image, iw, ih);
    int lo = PX_SPAN_MAX_HEIGHT, hi = 0;
    for (int j = 0; ok && j < ch; ++j)
    {
        for (int i = 0; i < cw; ++i)
        {
            const int n = read_column(field, i * step, j * step, &buf);
            ok = n >= 0;
            if (!ok)
            {
                break;
            }
            const size_t k = (size_t)j * (size_t)cw + (size_t)i;
            top[k] = n > 0 ? (int)buf.spans[n - 1].smax : -1;
            area[k] = n > 0 ? buf.spans[n - 1].area : PX_NULL_AREA;
            if (n > 0)
            {
                lo = top[k] < lo ? top[k] : lo;
                hi = top[k] > hi ? top[k] : hi;
            }
        }
    }
    const float range = hi > lo ? (float)(hi - lo) : 1.0f;
    for (int j = 0; ok && j < ch; ++j)
    {
        for (int i = 0; i < cw; ++i)
        {
            const size_t k = (size_t)j * (size_t)cw + (size_t)i;
            cli_rgb c = { 28, 30, 36 };
            if (top[k] >= 0)
            {
                /* brighter when higher; lit from the upper left by the height step to that neighbour */
                float light = 0.45f + 0.55f * (float)(top[k] - lo) / range;
                const size_t nb = (i > 0 && j > 0) ? k - (size_t)cw - 1 : k;
                if (top[nb] >= 0)
                {
                    const float relief = 0.04f * (float)(top[k] - top[nb]);
                    light *= 1.0f + (relief < -0.3f ? -0.3f : relief > 0.3f ? 0.3f : relief);
                }
                light = light > 1.0f ? 1.0f : light;
                const float base[3] = { area[k] != PX_NULL_AREA ? 70.0f : 200.0f,
                                        area[k] != PX_NULL_AREA ? 200.0f : 70.0f,
                                        area[k] != PX_NULL_AREA ? 90.0f : 55.0f };
                c.r = (uint8_t)(base[0] * light + 0.5f);
                c.g = (uint8_t)(base[1] * light + 0.5f);
                c.b = (uint8_t)(base[2] * light + 0.5f);
            }
            cli_image_fill_rect(image, i * block, j * block, (i + 1) * block, (j + 1) * block, c);
        }
    }
    free(buf.spans);
    free(top);
    free(area);
    if (!ok)
    {
        cli_image_destroy(image);
    }
    return ok;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The subcommand */

typedef struct raster_args
{
    const char* mesh_path;
    const char* png_path;
    raster_params params;
    int threads;
} raster_args;

/* Returns CLI_EXIT_OK, a printed CLI_EXIT_USAGE, or -1 after printing the help. */
static int parse_raster_args(int argc, char** argv, raster_args* a)
{
    static const char* const float_options[5] = { "--cell-size", "--cell-height", "--slope", "--climb",
                                                  "--agent-height" };
    memset(a, 0, sizeof(*a));
    const raster_params defaults = RASTER_DEFAULT_PARAMS;
    a->params = defaults;
    float* float_values[5] = { &a->params.cell_size, &a->params.cell_height, &a->params.slope, &a->params.climb,
                               &a->params.agent_height };
    for (int i = 0; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cli_is_help(arg))
        {
            cli_print_usage(stdout);
            return -1;
        }
        int float_option = -1;
        for (int k = 0; k < 5; ++k)
        {
            float_option = strcmp(arg, float_options[k]) == 0 ? k : float_option;
        }
        const bool is_png = strcmp(arg, "--png") == 0, is_threads = strcmp(arg, "--threads") == 0;
        const bool is_option = is_png || is_threads || float_option >= 0;
        const char* value;
        const int rc = cli_option_or_mesh("raster", is_option, argc, argv, &i, &a->mesh_path, &value);
        if (rc != CLI_EXIT_OK)
        {
            return rc;
        }
        if (value == NULL)
        {
            continue; /* the OBJ file */
        }
        if (is_png)
        {
            a->png_path = value;
        }
        else if (is_threads)
        {
            if (!cli_parse_int(value, 0, RASTER_MAX_THREADS, &a->threads))
            {
                return cli_usage_error("raster: --threads must be a whole number from 0 to %d, not '%s'",
                                       RASTER_MAX_THREADS, value);
            }
        }
        else if (!cli_parse_float(value, float_values[float_option]))
        {
            return cli_usage_error("raster: %s: '%s' is not a finite number", arg, value);
        }
    }
    if (a->mesh_path == NULL)
    {
        return cli_usage_error("raster: expected an OBJ file");
    }
    if (a->png_path == NULL)
    {
        return cli_usage_error("raster: --png FILE is required (where to write the map)");
    }
    char error[160];
    if (!raster_check_params(&a->params, error, sizeof(error)))
    {
        return cli_usage_error("raster: %s", error);
    }
    return CLI_EXIT_OK;
}

int cli_raster(int argc, char** argv)
{
    raster_args args;
    int rc = parse_raster_args(argc, argv, &args);
    if (rc != CLI_EXIT_OK)
    {
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    double t0 = demo_now_ns();
    px_obj_data obj;
    px_obj_error error;
    px_status status = px_obj_load(args.mesh_path, NULL, &obj, &error);
    if (status != PX_OK)
    {
        return cli_fail("%s: %s", args.mesh_path,
                        error.message[0] != '\0' ? error.message : px_status_string(status));
    }
    printf("read       %s in %.1f ms\n", args.mesh_path, (demo_now_ns() - t0) * 1e-6);
    if (obj.triangle_count == 0)
    {
        px_obj_free(&obj);
        return cli_fail("%s: the file has no triangles ('f' lines)", args.mesh_path);
    }
    raster_result result;
    rc = raster_run(obj.vertices, obj.vertex_count, obj.indices, obj.triangle_count, &args.params, args.threads, "",
                    &result);
    px_obj_free(&obj);
    if (rc != CLI_EXIT_OK)
    {
        return rc;
    }
    t0 = demo_now_ns();
    cli_image image;
    const bool drawn = raster_draw_map(result.field, &image);
    px_heightfield_destroy(result.field);
    if (!drawn)
    {
        return cli_fail("raster: out of memory drawing the map");
    }
    /* without stb the tool writes PPM: FILE.png becomes FILE.ppm */
    char path[4096], message[4200];
    snprintf(path, sizeof(path), "%s", args.png_path);
    const size_t n = strlen(path);
    if (strcmp(cli_image_extension(), "png") != 0 && n >= 4 && strcmp(path + n - 4, ".png") == 0)
    {
        snprintf(path + n - 4, sizeof(path) - (n - 4), ".%s", cli_image_extension());
    }
    const bool written = cli_image_write(&image, path, message, sizeof(message));
    const int iw = image.width, ih = image.height;
    cli_image_destroy(&image);
    if (!written)
    {
        return cli_fail("%s", message);
    }
    printf("wrote      %s (%d x %d, map drawn in %.1f ms)\n", path, iw, ih, (demo_now_ns() - t0) * 1e-6);
    return CLI_EXIT_OK;
}
