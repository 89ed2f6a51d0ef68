/* proxima: command-line front end of the proxima collision library. Dispatches to the subcommands
 * (demo.c, distance_cmd.c, render.c, raster.c); see cli_print_usage in args.c for the command line. */
#include "cli.h"

#include <string.h>

int main(int argc, char** argv)
{
    if (argc < 2)
    {
        return cli_usage_error("no command given");
    }
    const char* command = argv[1];
    if (strcmp(command, "help") == 0 || cli_is_help(command))
    {
        cli_print_usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(command, "--version") == 0 || strcmp(command, "version") == 0)
    {
        printf("proxima %d.%d.%d\n", PX_VERSION_MAJOR, PX_VERSION_MINOR, PX_VERSION_PATCH);
        return CLI_EXIT_OK;
    }
    if (strcmp(command, "demo") == 0)
    {
        return cli_demo(argc - 2, argv + 2);
    }
    if (strcmp(command, "distance") == 0)
    {
        return cli_distance(argc - 2, argv + 2);
    }
    if (strcmp(command, "render") == 0)
    {
        return cli_render(argc - 2, argv + 2);
    }
    if (strcmp(command, "raster") == 0)
    {
        return cli_raster(argc - 2, argv + 2);
    }
    if (command[0] == '-')
    {
        return cli_usage_error("unknown option '%s'", command);
    }
    return cli_usage_error("unknown command '%s'", command);
}
