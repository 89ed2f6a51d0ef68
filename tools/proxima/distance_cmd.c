/* `proxima distance A.obj B.obj [--pose-a ...] [--pose-b ...]`: GJK distance between the convex hulls of
 * two OBJ files' vertices (px_obj_load, px_shape_hull, px_gjk_distance_world, px_gjk_overlap_world). */
#include "cli.h"

#include <string.h>

/* Load path and report any failure with its reason and line; returns CLI_EXIT_OK or CLI_EXIT_FAILURE. */
static int load_points(const char* path, px_obj_data* data)
{
    px_obj_error error;
    px_status status = px_obj_load(path, NULL, data, &error);
    if (status != PX_OK)
    {
        return cli_fail("%s: %s", path, error.message[0] != '\0' ? error.message : px_status_string(status));
    }
    if (data->vertex_count == 0)
    {
        px_obj_free(data);
        return cli_fail("%s: the file has no vertices ('v' lines)", path);
    }
    return CLI_EXIT_OK;
}

static void print_vec(const char* label, const vec3 v)
{
    printf("%-12s (%.6f, %.6f, %.6f)\n", label, (double)v[0], (double)v[1], (double)v[2]);
}

static void print_input(const char* label, const char* path, const px_obj_data* data,
                        const px_transform* pose)
{
    printf("%s: %s (%d vertices, %d triangles), position (%g, %g, %g), rotation (%g, %g, %g, %g)\n", label,
           path, data->vertex_count, data->triangle_count, (double)pose->p[0], (double)pose->p[1],
           (double)pose->p[2], (double)pose->q[0], (double)pose->q[1], (double)pose->q[2],
           (double)pose->q[3]);
}

int cli_distance(int argc, char** argv)
{
    const char* paths[2] = { NULL, NULL };
    int path_count = 0;
    px_transform poses[2] = { PX_TRANSFORM_IDENTITY_INIT, PX_TRANSFORM_IDENTITY_INIT };
    for (int i = 0; i < argc; ++i)
    {
        const char* arg = argv[i];
        if (cli_is_help(arg))
        {
            cli_print_usage(stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(arg, "--pose-a") == 0 || strcmp(arg, "--pose-b") == 0)
        {
            int rc = cli_parse_pose(argc, argv, &i, &poses[arg[7] == 'a' ? 0 : 1]);
            if (rc != CLI_EXIT_OK)
            {
                return rc;
            }
        }
        else if (arg[0] == '-' && arg[1] != '\0')
        {
            return cli_usage_error("distance: unknown option '%s'", arg);
        }
        else if (path_count < 2)
        {
            paths[path_count++] = arg;
        }
        else
        {
            return cli_usage_error("distance: expected two OBJ files, got a third: '%s'", arg);
        }
    }
    if (path_count < 2)
    {
        return cli_usage_error("distance: expected two OBJ files, got %d", path_count);
    }

    px_obj_data data[2];
    memset(data, 0, sizeof(data));
    for (int k = 0; k < 2; ++k)
    {
        if (load_points(paths[k], &data[k]) != CLI_EXIT_OK)
        {
            px_obj_free(&data[0]);
            return CLI_EXIT_FAILURE;
        }
    }
    px_shape a = px_shape_hull(data[0].vertices, data[0].vertex_count);
    px_shape b = px_shape_hull(data[1].vertices, data[1].vertex_count);

    px_gjk_result r;
    bool overlap = false;
    px_status status = px_gjk_distance_world(&a, &poses[0], &b, &poses[1], NULL, &r);
    px_status overlap_status = px_gjk_overlap_world(&a, &poses[0], &b, &poses[1], NULL, &overlap);

    print_input("A", paths[0], &data[0], &poses[0]);
    print_input("B", paths[1], &data[1], &poses[1]);
    printf("%-12s %.6f\n", "distance", (double)r.distance);
    print_vec("point on A", r.point_a);
    print_vec("point on B", r.point_b);
    print_vec("normal A->B", r.normal);
    printf("%-12s %d\n", "iterations", r.iterations);
    printf("%-12s %s\n", "exit", cli_exit_name(r.exit));
    printf("%-12s %s\n", "status", px_status_string(status));
    printf("%-12s %s\n", "overlap", PX_FAILED(overlap_status) ? "error" : overlap ? "yes" : "no");

    px_obj_free(&data[0]);
    px_obj_free(&data[1]);
    if (PX_FAILED(status) || PX_FAILED(overlap_status))
    {
        return cli_fail("the query failed: %s",
                        px_status_string(PX_FAILED(status) ? status : overlap_status));
    }
    return CLI_EXIT_OK;
}
