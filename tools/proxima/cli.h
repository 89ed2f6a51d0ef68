/* The proxima command-line tool: declarations shared by its source files.
 *
 * main.c dispatches to one function per subcommand; args.c holds the strict number and option parsing
 * and the usage text; demo.c, distance_cmd.c, render.c and raster.c run the subcommands; image.h/image.c
 * draw and write pictures, render.h/render.c ray-cast pictures of meshes, raster.h/raster.c bake walkable
 * heightfields.
 *
 * Exit status: CLI_EXIT_OK on success, CLI_EXIT_FAILURE when a file cannot be read or a query fails,
 * CLI_EXIT_USAGE for bad command lines (the message and the usage go to stderr).
 *
 * Locale: the tool never calls setlocale, so it runs in the "C" locale and strtod/printf use '.' as the
 * decimal separator on the command line and in the output (the OBJ reader does not depend on it). */
#pragma once

#include "proxima/proxima.h"

#include <stdbool.h>
#include <stdio.h>

enum
{
    CLI_EXIT_OK = 0,
    CLI_EXIT_FAILURE = 1,
    CLI_EXIT_USAGE = 2,
};

/* Write the usage text to out. */
void cli_print_usage(FILE* out);

/* Print "proxima: <message>" and the usage to stderr; returns CLI_EXIT_USAGE. */
int cli_usage_error(const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Print "proxima: <message>" to stderr; returns CLI_EXIT_FAILURE. */
int cli_fail(const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/* Parse a whole argument as a finite float ("1.5", "-2e3"); false for "", "1.5x", "nan", "inf", "1e99". */
bool cli_parse_float(const char* text, float* dest);

/* Parse a whole argument as a decimal integer in [lo, hi]; false for "", "12x", "1.5" or out of range. */
bool cli_parse_int(const char* text, int lo, int hi, int* dest);

/* Parse the 7 numbers after option argv[*i] (x y z qx qy qz qw) into a pose and advance *i past them.
 * Returns CLI_EXIT_OK, or the CLI_EXIT_USAGE of a printed usage error (missing or non-numeric values,
 * a zero quaternion). The quaternion is normalized. */
int cli_parse_pose(int argc, char** argv, int* i, px_transform* dest);

/* One argument of a command that takes one OBJ file and options with a value; is_option tells whether
 * argv[*i] is one of the command's options. If it is, *value is the value after it and *i moves to that;
 * else argv[*i] is the OBJ file, stored in *mesh_path, and *value is NULL. Returns CLI_EXIT_OK, or the
 * CLI_EXIT_USAGE of a printed usage error ("<command>: ..."): an unknown option, a second file, a missing
 * or empty value. */
int cli_option_or_mesh(const char* command, bool is_option, int argc, char** argv, int* i,
                       const char** mesh_path, const char** value);

/* True when arg is "-h" or "--help". */
bool cli_is_help(const char* arg);

/* A short name of a GJK exit reason for tables ("converged", "overlap", ...). */
const char* cli_exit_name(px_gjk_exit exit);

/* Subcommands: argv[0] is the first argument after the subcommand name. Return the exit status. */
int cli_demo(int argc, char** argv);
int cli_distance(int argc, char** argv);
int cli_render(int argc, char** argv);
int cli_raster(int argc, char** argv);
