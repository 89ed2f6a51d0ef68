/* Pictures for the proxima tool: an RGB canvas with blending, anti-aliased lines and discs by distance to
 * the primitive (coverage = clamp(width / 2 + 0.5 - distance)), stb_easy_font text, PNG output through
 * stb_image_write (Debian's libstb-dev), and a binary PPM fallback when stb was not found at configure
 * time (PROXIMA_HAVE_STB undefined; then there is no text either). */
#define _POSIX_C_SOURCE 200809L

#include "image.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#ifdef PROXIMA_HAVE_STB
/* stb is third-party code written for brevity, not for -Wconversion: silence it here, only here. The
 * implementation is static, so it cannot clash with Debian's libstb.so or another copy. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>
#ifdef PROXIMA_HAVE_STB_FONT
#include <stb/stb_easy_font.h>
#endif
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

bool cli_image_create(cli_image* image, int width, int height)
{
    memset(image, 0, sizeof(*image));
    if (width <= 0 || height <= 0)
    {
        return false;
    }
    image->rgb = calloc((size_t)width * (size_t)height, 3);
    if (image->rgb == NULL)
    {
        return false;
    }
    image->width = width;
    image->height = height;
    return true;
}

void cli_image_destroy(cli_image* image)
{
    free(image->rgb);
    memset(image, 0, sizeof(*image));
}

void cli_image_set(cli_image* image, int x, int y, cli_rgb color)
{
    if (x < 0 || y < 0 || x >= image->width || y >= image->height)
    {
        return;
    }
    uint8_t* p = image->rgb + 3 * ((size_t)y * (size_t)image->width + (size_t)x);
    p[0] = color.r;
    p[1] = color.g;
    p[2] = color.b;
}

static uint8_t mix(uint8_t under, uint8_t over, float alpha)
{
    return (uint8_t)lroundf((float)under + ((float)over - (float)under) * alpha);
}

void cli_image_blend(cli_image* image, int x, int y, cli_rgb color, float alpha)
{
    if (x < 0 || y < 0 || x >= image->width || y >= image->height || !(alpha > 0.0f))
    {
        return;
    }
    alpha = alpha > 1.0f ? 1.0f : alpha;
    uint8_t* p = image->rgb + 3 * ((size_t)y * (size_t)image->width + (size_t)x);
    p[0] = mix(p[0], color.r, alpha);
    p[1] = mix(p[1], color.g, alpha);
    p[2] = mix(p[2], color.b, alpha);
}

void cli_image_fill_rect(cli_image* image, int x0, int y0, int x1, int y1, cli_rgb color)
{
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < image->height; ++y)
    {
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < image->width; ++x)
        {
            cli_image_set(image, x, y, color);
        }
    }
}

/* Distance from (px, py) to segment (x0, y0)-(x1, y1). */
static float segment_distance(float px, float py, float x0, float y0, float x1, float y1)
{
    float dx = x1 - x0, dy = y1 - y0;
    float len2 = dx * dx + dy * dy;
    float t = len2 > 0.0f ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0.0f;
    t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
    float ex = px - (x0 + t * dx), ey = py - (y0 + t * dy);
    return sqrtf(ex * ex + ey * ey);
}

/* Clamp a float pixel bound to the canvas, as an int. */
static int clamp_coord(float v, int limit)
{
    if (!(v > 0.0f))
    {
        return 0;
    }
    return v >= (float)limit ? limit : (int)v;
}

void cli_image_line(cli_image* image, float x0, float y0, float x1, float y1, float width, cli_rgb color,
                    float alpha)
{
    float pad = width * 0.5f + 1.0f;
    int xa = clamp_coord(fminf(x0, x1) - pad, image->width),
        xb = clamp_coord(fmaxf(x0, x1) + pad + 1.0f, image->width);
    int ya = clamp_coord(fminf(y0, y1) - pad, image->height),
        yb = clamp_coord(fmaxf(y0, y1) + pad + 1.0f, image->height);
    for (int y = ya; y < yb; ++y)
    {
        for (int x = xa; x < xb; ++x)
        {
            float d = segment_distance((float)x + 0.5f, (float)y + 0.5f, x0, y0, x1, y1);
            float coverage = width * 0.5f + 0.5f - d;
            if (coverage > 0.0f)
            {
                cli_image_blend(image, x, y, color, alpha * fminf(coverage, 1.0f));
            }
        }
    }
}

void cli_image_disc(cli_image* image, float cx, float cy, float radius, cli_rgb color, float alpha)
{
    cli_image_line(image, cx, cy, cx, cy, 2.0f * radius, color, alpha);
}

int cli_image_text(cli_image* image, int x, int y, int scale, const char* text, cli_rgb color)
{
#if defined(PROXIMA_HAVE_STB) && defined(PROXIMA_HAVE_STB_FONT)
    /* stb_easy_font emits axis-aligned quads (4 vertices of 16 bytes) in font pixels */
    static char vertices[64 * 1024];
    char copy[512];
    snprintf(copy, sizeof(copy), "%s", text);
    int quads = stb_easy_font_print(0.0f, 0.0f, copy, NULL, vertices, (int)sizeof(vertices));
    for (int q = 0; q < quads; ++q)
    {
        const float* v0 = (const float*)(const void*)(vertices + (size_t)q * 64);
        const float* v2 = (const float*)(const void*)(vertices + (size_t)q * 64 + 32);
        cli_image_fill_rect(image, x + (int)lroundf(v0[0] * (float)scale),
                            y + (int)lroundf(v0[1] * (float)scale), x + (int)lroundf(v2[0] * (float)scale),
                            y + (int)lroundf(v2[1] * (float)scale), color);
    }
    return stb_easy_font_width(copy) * scale;
#else
    (void)image;
    (void)x;
    (void)y;
    (void)scale;
    (void)text;
    (void)color;
    return 0;
#endif
}

const char* cli_image_extension(void)
{
#ifdef PROXIMA_HAVE_STB
    return "png";
#else
    return "ppm";
#endif
}

bool cli_image_write(const cli_image* image, const char* path, char* error, size_t error_size)
{
#ifdef PROXIMA_HAVE_STB
    errno = 0;
    if (stbi_write_png(path, image->width, image->height, 3, image->rgb, image->width * 3) == 0)
    {
        snprintf(error, error_size, "cannot write '%s': %s", path,
                 errno != 0 ? strerror(errno) : "PNG encoding failed");
        return false;
    }
    return true;
#else
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        snprintf(error, error_size, "cannot write '%s': %s", path, strerror(errno));
        return false;
    }
    size_t n = (size_t)image->width * (size_t)image->height * 3;
    bool ok =
        fprintf(f, "P6\n%d %d\n255\n", image->width, image->height) > 0 && fwrite(image->rgb, 1, n, f) == n;
    ok = (fclose(f) == 0) && ok;
    if (!ok)
    {
        snprintf(error, error_size, "cannot write '%s': %s", path, strerror(errno));
    }
    return ok;
#endif
}

bool cli_make_directories(const char* path, char* error, size_t error_size)
{
    char buffer[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(buffer))
    {
        snprintf(error, error_size, "invalid output directory '%s'", path);
        return false;
    }
    memcpy(buffer, path, n + 1);
    /* create each prefix ending before a '/', then the whole path; existing directories are fine */
    for (size_t i = 1; i <= n; ++i)
    {
        if (i < n && buffer[i] != '/')
        {
            continue;
        }
        char saved = buffer[i];
        buffer[i] = '\0';
        if (mkdir(buffer, 0777) != 0 && errno != EEXIST)
        {
            snprintf(error, error_size, "cannot create directory '%s': %s", buffer, strerror(errno));
            return false;
        }
        buffer[i] = saved;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
    {
        snprintf(error, error_size, "'%s' exists and is not a directory", path);
        return false;
    }
    return true;
}
