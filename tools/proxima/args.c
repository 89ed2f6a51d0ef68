/* Command-line parsing for the proxima tool: usage text, error reporting, strict numbers and poses.
 * Numbers must use the whole argument and be finite, so "1.5x", "nan" or "1e99" are usage errors rather
 * than silently becoming 1.5, NaN or infinity. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void cli_print_usage(FILE* out)
{
    fprintf(
        out,
        "usage: proxima <command> [options]\n"
        "\n"
        "commands:\n"
        "  demo [--out DIR] [--mesh FILE.obj]\n"
        "      Distance and overlap (GJK) between every pair of a built-in scene of posed shapes, as a\n"
        "      table and a summary. Writes DIR/demo_distance.png, a top view of the distance field at one\n"
        "      height with the shapes' cross-sections and the closest-point segments (DIR defaults to\n"
        "      'out' and is created if missing). --mesh adds the convex hull of an OBJ file's vertices.\n"
        "      Then contact manifolds (px_manifold_world) of a small scene of resting bodies, as a table\n"
        "      of normals, points, separations and feature ids, drawn in DIR/demo_contacts.png.\n"
        "      Then a triangle mesh (px_mesh): a built-in level, or the --mesh file itself. Its BVH\n"
        "      statistics, a ray-cast picture DIR/demo_render.png, ground rays straight down, closest\n"
        "      points and capsule sweeps from a few places, and the time per ray, closest point and sweep.\n"
        "      Then its walkable surface (as `raster` does, RecastDemo's agent), drawn in\n"
        "      DIR/demo_walkable.png.\n"
        "  distance A.obj B.obj [--pose-a x y z qx qy qz qw] [--pose-b x y z qx qy qz qw]\n"
        "      Distance, closest points and overlap of the convex hulls of two OBJ files' vertices.\n"
        "      A pose is a translation and a quaternion (x, y, z, w); the default is the identity.\n"
        "  render MESH.obj --png FILE [--width W] [--height H] [--threads N] [--view iso|top|front]\n"
        "      Build the mesh's BVH and ray-cast a picture of it, one ray per pixel (default 800 x 600,\n"
        "      each 8 to 4096), shaded by the hit normal with a sun and shadows. Prints the BVH's build\n"
        "      time and statistics, rays per second on one thread and batched on N threads (default:\n"
        "      every processor), and the hits. Views: iso (three-quarter from above, the default), top\n"
        "      (straight down y), front (along -z). A tool built without stb writes FILE.ppm instead.\n"
        "  raster MESH.obj --png FILE [--cell-size 0.3] [--cell-height 0.2] [--slope 45] [--climb 0.9]\n"
        "         [--agent-height 2.0] [--threads N]\n"
        "      Walkable-surface baking, Recast's first stage: marks triangles at most --slope degrees steep\n"
        "      walkable, rasterizes the mesh into columns of solid spans over its bounds (one pass on one\n"
        "      thread, then in tiles fed by the BVH on N threads, default every processor; both must agree),\n"
        "      and runs the low-obstacle, ledge and headroom filters for an agent of that climb and height\n"
        "      (world units). Prints each stage's time and the span counts, and writes a top-down map of\n"
        "      the columns' top spans (green walkable, red not, brighter higher): one block of\n"
        "      512 / max(columns) pixels per column (at least 1; above 4096 columns every k-th column).\n"
        "      The demo's heightfield section runs the same on its level.\n"
        "  help, --help\n"
        "      Show this text.\n"
        "  --version\n"
        "      Show the version.\n"
        "\n"
        "exit status: 0 success, 1 a file could not be read or a query failed, 2 bad arguments\n");
}

int cli_usage_error(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("proxima: ", stderr);
    vfprintf(stderr, format, args);
    fputs("\n\n", stderr);
    va_end(args);
    cli_print_usage(stderr);
    return CLI_EXIT_USAGE;
}

int cli_fail(const char* format, ...)
{
    va_list args;
    va_start(args, format);
    fputs("proxima: ", stderr);
    vfprintf(stderr, format, args);
    fputc('\n', stderr);
    va_end(args);
    return CLI_EXIT_FAILURE;
}

bool cli_parse_float(const char* text, float* dest)
{
    if (text == NULL || text[0] == '\0')
    {
        return false;
    }
    char* end = NULL;
    double v = strtod(text, &end);
    /* the whole argument, a finite value that also fits a float */
    if (*end != '\0' || !isfinite(v) || fabs(v) > 3.4028234663852886e38)
    {
        return false;
    }
    *dest = (float)v;
    return true;
}

bool cli_parse_int(const char* text, int lo, int hi, int* dest)
{
    if (text == NULL || text[0] == '\0')
    {
        return false;
    }
    char* end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || errno != 0 || v < lo || v > hi)
    {
        return false;
    }
    *dest = (int)v;
    return true;
}

int cli_parse_pose(int argc, char** argv, int* i, px_transform* dest)
{
    const char* option = argv[*i];
    float v[7];
    int available = argc - *i - 1;
    for (int k = 0; k < 7; ++k)
    {
        /* a value that looks like an option means the list ended early */
        if (k >= available || (argv[*i + 1 + k][0] == '-' && argv[*i + 1 + k][1] == '-'))
        {
            return cli_usage_error("%s expects 7 numbers (x y z qx qy qz qw), got %d", option, k);
        }
        const char* arg = argv[*i + 1 + k];
        if (!cli_parse_float(arg, &v[k]))
        {
            return cli_usage_error("%s: '%s' is not a finite number", option, arg);
        }
    }
    px_transform raw;
    px_transform_set((vec3){ v[0], v[1], v[2] }, (versor){ v[3], v[4], v[5], v[6] }, &raw);
    if (px_transform_normalized(&raw, dest) != PX_OK)
    {
        return cli_usage_error("%s: the quaternion (%g %g %g %g) has zero length", option, (double)v[3],
                               (double)v[4], (double)v[5], (double)v[6]);
    }
    *i += 7;
    return CLI_EXIT_OK;
}

int cli_option_or_mesh(const char* command, bool is_option, int argc, char** argv, int* i,
                       const char** mesh_path, const char** value)
{
    const char* arg = argv[*i];
    *value = NULL;
    if (!is_option)
    {
        if (arg[0] == '-' && arg[1] != '\0')
        {
            return cli_usage_error("%s: unknown option '%s'", command, arg);
        }
        if (*mesh_path != NULL)
        {
            return cli_usage_error("%s: expected one OBJ file, got a second: '%s'", command, arg);
        }
        *mesh_path = arg;
        return CLI_EXIT_OK;
    }
    if (*i + 1 >= argc || argv[*i + 1][0] == '\0')
    {
        return cli_usage_error("%s: %s needs a value", command, arg);
    }
    *value = argv[++*i];
    return CLI_EXIT_OK;
}

bool cli_is_help(const char* arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

const char* cli_exit_name(px_gjk_exit exit)
{
    switch (exit)
    {
    case PX_GJK_EXIT_NONE:
        return "none";
    case PX_GJK_EXIT_OVERLAP:
        return "overlap";
    case PX_GJK_EXIT_CONVERGED:
        return "converged";
    case PX_GJK_EXIT_DUPLICATE:
        return "duplicate";
    case PX_GJK_EXIT_NO_PROGRESS:
        return "no-progress";
    case PX_GJK_EXIT_SEPARATED:
        return "separated";
    case PX_GJK_EXIT_MAX_ITERATIONS:
        return "max-iter";
    }
    return "?";
}
