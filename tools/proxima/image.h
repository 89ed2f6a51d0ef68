/* A small RGB canvas for the tool's pictures: pixels, alpha blending, anti-aliased lines and discs, a
 * bitmap font, and writing PNG (stb_image_write) or, when stb was absent at build time, binary PPM. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_image
{
    int width;
    int height;
    uint8_t* rgb; /* width * height * 3 bytes, rows top to bottom */
} cli_image;

typedef struct cli_rgb
{
    uint8_t r, g, b;
} cli_rgb;

/* Allocate a canvas filled with black. Returns false when out of memory. */
bool cli_image_create(cli_image* image, int width, int height);

/* Release the pixels; safe on a zeroed or destroyed image. */
void cli_image_destroy(cli_image* image);

/* Set one pixel; coordinates outside the canvas are ignored. */
void cli_image_set(cli_image* image, int x, int y, cli_rgb color);

/* Blend color over one pixel with opacity alpha in [0, 1]. */
void cli_image_blend(cli_image* image, int x, int y, cli_rgb color, float alpha);

/* Fill the rectangle [x0, x1) x [y0, y1), clipped to the canvas. */
void cli_image_fill_rect(cli_image* image, int x0, int y0, int x1, int y1, cli_rgb color);

/* Anti-aliased line of the given width (pixels) between pixel-space points (pixel centres at +0.5). */
void cli_image_line(cli_image* image, float x0, float y0, float x1, float y1, float width, cli_rgb color,
                    float alpha);

/* Anti-aliased filled disc. */
void cli_image_disc(cli_image* image, float cx, float cy, float radius, cli_rgb color, float alpha);

/* Draw text with its top-left corner at (x, y), each font pixel a scale x scale block. Returns the width
 * drawn in pixels; draws nothing and returns 0 when the tool was built without stb. */
int cli_image_text(cli_image* image, int x, int y, int scale, const char* text, cli_rgb color);

/* The file extension the tool writes: "png", or "ppm" without stb. */
const char* cli_image_extension(void);

/* Write the image to path (PNG or PPM as cli_image_extension says). On failure, writes the reason into
 * error and returns false. */
bool cli_image_write(const cli_image* image, const char* path, char* error, size_t error_size);

/* Create directory path and its missing parents (like mkdir -p). On failure, writes the reason into
 * error and returns false. */
bool cli_make_directories(const char* path, char* error, size_t error_size);
