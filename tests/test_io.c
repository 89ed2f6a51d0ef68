/* io: the OBJ reader. Every accepted quirk (face corner forms, relative indices, line ends, comments,
 * ignored keywords, FCL's count header), every malformed case with its line number, allocation failure on
 * every call in turn, random corruption of a valid file, and the shared meshes against their README. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, setenv: the locales built for the locale tests */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proxima/proxima.h"
#include "support/count_alloc.h"
#include "support/rng.h"
#include "test.h"

/* ---------------------------------------------------------------------------------------------------- */
/* Helpers */

static px_status parse_str(const char* text, px_obj_data* data, px_obj_error* error)
{
    return px_obj_parse(text, strlen(text), NULL, data, error);
}

static bool is_zeroed(const px_obj_data* d)
{
    px_obj_data zero;
    memset(&zero, 0, sizeof(zero));
    return memcmp(d, &zero, sizeof(zero)) == 0;
}

/* Temporary file in the working directory (CTest runs in the build tree). */
static const char* temp_path = "px_test_io_tmp.obj";

static bool write_file(const char* path, const char* bytes, size_t n)
{
    FILE* f = fopen(path, "wb");
    if (f == NULL)
    {
        return false;
    }
    bool ok = fwrite(bytes, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Accepted input */

static int triangle_and_quad(void)
{
    const char* text = "v 0 0 0\n"
                       "v 1 0 0\n"
                       "v 1 1 0\n"
                       "v 0 1 0\n"
                       "v -2.5 +3.25e1 .5\n"
                       "f 1 2 3\n"
                       "f 1 2 3 4\n";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(e.line == 0 && e.message[0] == '\0');
    PX_CHECK(d.vertex_count == 5 && d.triangle_count == 3);
    PX_CHECK(d.vertices[12] == -2.5f && d.vertices[13] == 32.5f && d.vertices[14] == 0.5f);
    const int32_t expect[9] = { 0, 1, 2, 0, 1, 2, 0, 2, 3 };
    PX_CHECK(memcmp(d.indices, expect, sizeof(expect)) == 0);
    PX_CHECK(d.allocator.alloc != NULL && d.allocator.free != NULL);
    px_obj_free(&d);
    PX_CHECK(is_zeroed(&d));
    px_obj_free(&d); /* idempotent */
    PX_CHECK(is_zeroed(&d));
    return 0;
}

static int fan_triangulation_of_ngons(void)
{
    /* a hexagon: fan (v0, vi, vi+1) as Recast's loader, 4 triangles */
    const char* text = "v 0 0 0\nv 1 0 0\nv 2 1 0\nv 1 2 0\nv 0 2 0\nv -1 1 0\nf 1 2 3 4 5 6\n";
    px_obj_data d;
    PX_CHECK_STATUS(parse_str(text, &d, NULL), PX_OK);
    PX_CHECK(d.triangle_count == 4);
    const int32_t expect[12] = { 0, 1, 2, 0, 2, 3, 0, 3, 4, 0, 4, 5 };
    PX_CHECK(memcmp(d.indices, expect, sizeof(expect)) == 0);
    px_obj_free(&d);
    return 0;
}

static int face_corner_forms(void)
{
    const char* text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                       "vt 0 0\nvt 1 0\nvt 0 1\n"
                       "vn 0 0 1\n"
                       "f 1 2 3\n"
                       "f 1/1 2/2 3/3\n"
                       "f 1//1 2//1 3//1\n"
                       "f 1/1/1 2/2/1 3/3/1\n"
                       "f 1/1/1 2//1 3\n" /* mixed forms in one face */
                       "f 1/ 2// 3/1/\n"; /* empty fields are tolerated */
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 3 && d.triangle_count == 6);
    for (int t = 0; t < 6; ++t)
    {
        PX_CHECK(d.indices[3 * t] == 0 && d.indices[3 * t + 1] == 1 && d.indices[3 * t + 2] == 2);
    }
    px_obj_free(&d);
    return 0;
}

static int negative_indices(void)
{
    /* -1 is the last vertex read so far, so the same face text means different vertices later on */
    const char* text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                       "f -3 -2 -1\n"
                       "v 0 0 1\n"
                       "f -4/-1/-1 -2//-1 -1\n"
                       "f 1 -1 2\n";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.triangle_count == 3);
    const int32_t expect[9] = { 0, 1, 2, 0, 2, 3, 0, 3, 1 };
    PX_CHECK(memcmp(d.indices, expect, sizeof(expect)) == 0);
    px_obj_free(&d);
    return 0;
}

static int line_ends_comments_and_spaces(void)
{
    /* CRLF, a lone CR, tabs, trailing spaces and comments, blank lines, no final newline, a BOM */
    const char* text = "\xEF\xBB\xBF# exported by hand\r\n"
                       "\r\n"
                       "   \t\r\n"
                       "v 0 0 0 \r\n"
                       "\tv\t1\t0\t0\t\r\n"
                       "v 0 1 0   # trailing comment\r"
                       "#v 9 9 9\n"
                       "\n"
                       "f 1 2 3 \t# the face\r\n"
                       "f 3 2 1";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 3 && d.triangle_count == 2);
    PX_CHECK(d.vertices[3] == 1.0f && d.vertices[7] == 1.0f);
    PX_CHECK(d.indices[3] == 2 && d.indices[5] == 0);
    px_obj_free(&d);

    /* line numbers count CRLF, LF and lone CR line ends alike */
    PX_CHECK_STATUS(parse_str("v 0 0 0\r\nv 1 0 0\rv 0 1 0\n\r\nf 1 2 9\n", &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 5);
    return 0;
}

static int ignored_keywords(void)
{
    const char* text = "mtllib scene.mtl\n"
                       "o thing\n"
                       "g group one\n"
                       "s off\n"
                       "s 1\n"
                       "usemtl stone\n"
                       "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                       "vt 0.5 0.5\n"
                       "vn 0 0 1\n"
                       "vp 0.1 0.2\n"
                       "l 1 2\n"
                       "p 1\n"
                       "curv 0 1 1 2\n"
                       "v1 this is not a vertex keyword\n"
                       "cstype bspline\n"
                       "f 1 2 3\n";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 3 && d.triangle_count == 1);
    px_obj_free(&d);
    return 0;
}

static int w_and_vertex_colours(void)
{
    const char* text = "v 1 2 3 1.0\nv 4 5 6 0.5 0.25 1\nv 7 8 9\nf 1 2 3\n";
    px_obj_data d;
    PX_CHECK_STATUS(parse_str(text, &d, NULL), PX_OK);
    PX_CHECK(d.vertex_count == 3);
    const float expect[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
    PX_CHECK(memcmp(d.vertices, expect, sizeof(expect)) == 0);
    px_obj_free(&d);
    return 0;
}

static int fcl_count_header(void)
{
    const char* text = "3 1\r\nv 0 0 0\r\nv 1 0 0\r\nv 0 1 0\r\nf 1 2 3\r\n";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 3 && d.triangle_count == 1);
    px_obj_free(&d);
    /* after a comment too; but a number line after the data starts is an error */
    PX_CHECK_STATUS(parse_str("# header\n3\nv 0 0 0\n", &d, &e), PX_OK);
    px_obj_free(&d);
    PX_CHECK_STATUS(parse_str("v 0 0 0\n1 2\n", &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 2 && strstr(e.message, "expected a keyword") != NULL);
    PX_CHECK_STATUS(parse_str("1.5 2\nv 0 0 0\n", &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 1);
    return 0;
}

static int precise_numbers(void)
{
    /* strtof rounding (correct rounding, not digit-by-digit accumulation), subnormals, exponents */
    const char* text = "v 0.1 16777217 1e-40\nv -0 1E+2 3.4028234663852886e38\n";
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_OK);
    PX_CHECK(d.vertices[0] == 0.1f);
    PX_CHECK(d.vertices[1] == 16777216.0f);
    PX_CHECK(d.vertices[2] > 0.0f && d.vertices[2] < 1.2e-38f);
    PX_CHECK(d.vertices[3] == 0.0f && signbit(d.vertices[3]));
    PX_CHECK(d.vertices[4] == 100.0f && d.vertices[5] == 3.4028234663852886e38f);
    px_obj_free(&d);
    return 0;
}

static int empty_input(void)
{
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(px_obj_parse("", 0, NULL, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 0 && d.triangle_count == 0 && d.vertices == NULL && d.indices == NULL);
    px_obj_free(&d);
    PX_CHECK_STATUS(parse_str("# nothing\n\n", &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 0);
    px_obj_free(&d);
    /* vertices without faces: a point cloud (what the CLI's hulls use) */
    PX_CHECK_STATUS(parse_str("v 1 2 3\n", &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 1 && d.triangle_count == 0 && d.indices == NULL);
    px_obj_free(&d);
    /* length is honoured: the text need not be NUL-terminated */
    const char text[] = { 'v', ' ', '1', ' ', '2', ' ', '3', 'x' };
    PX_CHECK_STATUS(px_obj_parse(text, 7, NULL, &d, &e), PX_OK);
    PX_CHECK(d.vertex_count == 1 && d.vertices[2] == 3.0f);
    px_obj_free(&d);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Malformed input */

typedef struct bad_case
{
    const char* text;
    size_t length; /* 0: strlen */
    int line;
    const char* message; /* expected substring */
} bad_case;

static int malformed_inputs(void)
{
    static const bad_case cases[] = {
        { "v 1 2\n", 0, 1, "vertex has 2 coordinates, expected 3" },
        { "v\n", 0, 1, "vertex has 0 coordinates" },
        { "v 0 0 0\nv 1 x 3\n", 0, 2, "vertex coordinate 'x' is not a number" },
        { "v 1,5 2 3\n", 0, 1, "'1,5' is not a number" },
        { "v 1 2 3 w\n", 0, 1, "unexpected 'w' after the vertex coordinates" },
        { "v 1e 2 3\n", 0, 1, "'1e' is not a number" },
        { "v 0x1p3 2 3\n", 0, 1, "'0x1p3' is not a number" },
        { "v . 2 3\n", 0, 1, "'.' is not a number" },
        { "v - 2 3\n", 0, 1, "'-' is not a number" },
        { "\n\nv nan 2 3\n", 0, 3, "'nan' is not finite" },
        { "v 1 -inf 3\n", 0, 1, "'-inf' is not finite" },
        { "v 1 2 Infinity\n", 0, 1, "'Infinity' is not finite" },
        { "v 1 2 NaN\n", 0, 1, "'NaN' is not finite" },
        { "v 1e39 2 3\n", 0, 1, "'1e39' is out of the float range" },
        { "v 1 -4e38 3\n", 0, 1, "'-4e38' is out of the float range" },
        { "v 0 0 0\nv 1 0 0\nf 1 2\n", 0, 3, "face has 2 corners, at least 3 needed" },
        { "v 0 0 0\nf\n", 0, 2, "face has 0 corners" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", 0, 4, "face index 0 is invalid" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", 0, 4, "face index 4 out of range (3 vertices)" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -4\n", 0, 4, "face index -4 out of range (3 vertices)" },
        /* a forward reference: vertex 3 exists only after the face */
        { "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 1 0\n", 0, 3, "face index 3 out of range (2 vertices)" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3000000000\n", 0, 4, "face index '3000000000' is out of range" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999999999999999\n", 0, 4, "is out of range" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3a\n", 0, 4, "malformed face corner '3a'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/x\n", 0, 4, "malformed face corner '3/x'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3/1/1/1\n", 0, 4, "malformed face corner" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 /1\n", 0, 4, "malformed face corner '/1'" },
        { "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3.0\n", 0, 4, "malformed face corner '3.0'" },
        { "v 0 0 0\nv 1 \0 0\n", 16, 2, "control byte 0x00: this is not a text OBJ file" },
        { "\x89PNG\r\n\x1a\n", 0, 2, "control byte 0x1A" },
        { "v 1 2 3\n-1 2 3\n", 0, 2, "line starts with '-1'" },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
    {
        const bad_case* c = &cases[i];
        size_t n = c->length != 0 ? c->length : strlen(c->text);
        px_obj_data d;
        px_obj_error e;
        memset(&d, 0xAB, sizeof(d)); /* garbage in: must be zeroed on error */
        px_status s = px_obj_parse(c->text, n, NULL, &d, &e);
        char expected_prefix[32];
        snprintf(expected_prefix, sizeof(expected_prefix), "line %d: ", c->line);
        if (s != PX_ERR_PARSE || e.line != c->line || strstr(e.message, c->message) == NULL ||
            strncmp(e.message, expected_prefix, strlen(expected_prefix)) != 0 || !is_zeroed(&d))
        {
            fprintf(stderr, "case %zu: status %d, line %d, message \"%s\"; expected line %d, \"%s\"\n", i,
                    (int)s, e.line, e.message, c->line, c->message);
            return 1;
        }
        px_obj_free(&d);
    }
    return 0;
}

static int message_example(void)
{
    /* the documented example: 30 vertices, a face on line 12... here on line 31 */
    char text[1024];
    size_t n = 0;
    for (int i = 0; i < 30; ++i)
    {
        n += (size_t)snprintf(text + n, sizeof(text) - n, "v %d 0 0\n", i);
    }
    snprintf(text + n, sizeof(text) - n, "f 1 2 40\n");
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 31);
    PX_CHECK(strcmp(e.message, "line 31: face index 40 out of range (30 vertices)") == 0);
    return 0;
}

static int long_tokens(void)
{
    /* a number longer than the reader converts is reported, not truncated; quoted tokens are cut */
    char text[512];
    char digits[201];
    memset(digits, '1', 200);
    digits[200] = '\0';
    snprintf(text, sizeof(text), "v 0.%s 0 0\n", digits);
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 1 && strstr(e.message, "too long") != NULL);
    snprintf(text, sizeof(text), "v 0 0 0\nv %sx 0 0\n", digits);
    PX_CHECK_STATUS(parse_str(text, &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 2 && strlen(e.message) < sizeof(e.message) - 1);
    return 0;
}

static int invalid_arguments(void)
{
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(px_obj_parse(NULL, 3, NULL, &d, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(is_zeroed(&d) && e.line == 0 && e.message[0] != '\0');
    PX_CHECK_STATUS(px_obj_parse("v 0 0 0\n", 8, NULL, NULL, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_obj_load(NULL, NULL, &d, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK_STATUS(px_obj_load("x.obj", NULL, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    pxt_count_alloc st = { 0, 0, 0, 0 };
    px_allocator half = { pxt_count_alloc_fn, NULL, &st };
    PX_CHECK_STATUS(px_obj_parse("v 0 0 0\n", 8, &half, &d, &e), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(is_zeroed(&d) && st.calls == 0);
    /* the error struct is optional */
    PX_CHECK_STATUS(px_obj_parse("v 0 0\n", 6, NULL, &d, NULL), PX_ERR_PARSE);
    PX_CHECK(is_zeroed(&d));
    px_obj_free(NULL);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Files */

static int load_errors(void)
{
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(px_obj_load("/nonexistent/dir/mesh.obj", NULL, &d, &e), PX_ERR_IO);
    PX_CHECK(e.line == 0 && strstr(e.message, "cannot open '/nonexistent/dir/mesh.obj'") != NULL);
    PX_CHECK(is_zeroed(&d));
    /* a directory opens on POSIX but cannot be read */
    PX_CHECK_STATUS(px_obj_load(".", NULL, &d, &e), PX_ERR_IO);
    PX_CHECK(e.line == 0 && strstr(e.message, "cannot") != NULL && is_zeroed(&d));
    return 0;
}

static int load_file(void)
{
    const char text[] = "# tiny\r\nv 0 0 0\r\nv 2 0 0\r\nv 0 2 0\r\nv 0 0 2\r\nf 1 3 2\r\nf 1 2 4\r\n";
    PX_CHECK(write_file(temp_path, text, sizeof(text) - 1));
    px_obj_data d;
    px_obj_error e;
    px_status s = px_obj_load(temp_path, NULL, &d, &e);
    PX_CHECK_STATUS(s, PX_OK);
    PX_CHECK(d.vertex_count == 4 && d.triangle_count == 2 && d.vertices[3] == 2.0f);
    px_obj_free(&d);
    /* a parse error from a file keeps its line */
    const char bad[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n";
    PX_CHECK(write_file(temp_path, bad, sizeof(bad) - 1));
    PX_CHECK_STATUS(px_obj_load(temp_path, NULL, &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 4 && strcmp(e.message, "line 4: face index 7 out of range (3 vertices)") == 0);
    remove(temp_path);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* Allocation failure */

/* A grid of quads big enough that both arrays and the file buffer grow several times. */
static char* make_grid_obj(int n, size_t* length)
{
    size_t cap = (size_t)(n + 1) * (size_t)(n + 1) * 40 + (size_t)n * (size_t)n * 40 + 64;
    char* text = malloc(cap);
    if (text == NULL)
    {
        return NULL;
    }
    size_t len = 0;
    len += (size_t)snprintf(text + len, cap - len, "o grid\n");
    for (int z = 0; z <= n; ++z)
    {
        for (int x = 0; x <= n; ++x)
        {
            len += (size_t)snprintf(text + len, cap - len, "v %d 0 %d\n", x, z);
        }
    }
    for (int z = 0; z < n; ++z)
    {
        for (int x = 0; x < n; ++x)
        {
            int a = z * (n + 1) + x + 1;
            len += (size_t)snprintf(text + len, cap - len, "f %d %d %d %d\n", a, a + n + 1, a + n + 2, a + 1);
        }
    }
    *length = len;
    return text;
}

/* Fail the 1st, 2nd, ... allocation until the call succeeds: every failure must report
 * PX_ERR_OUT_OF_MEMORY, zero the output and leave no block live. */
static int fail_every_allocation(bool from_file)
{
    const int n = 60; /* 3721 vertices, 7200 triangles, ~140 KB: several doublings of every buffer */
    size_t length = 0;
    char* text = make_grid_obj(n, &length);
    PX_CHECK(text != NULL);
    if (from_file)
    {
        PX_CHECK(write_file(temp_path, text, length));
    }
    int failures = 0;
    for (int fail_at = 1;; ++fail_at)
    {
        pxt_count_alloc st;
        px_allocator a = pxt_count_allocator(&st, fail_at);
        px_obj_data d;
        px_obj_error e;
        px_status s = from_file ? px_obj_load(temp_path, &a, &d, &e) : px_obj_parse(text, length, &a, &d, &e);
        if (s == PX_OK)
        {
            PX_CHECK(st.calls < fail_at); /* succeeded because no call was failed */
            PX_CHECK(d.vertex_count == (n + 1) * (n + 1) && d.triangle_count == 2 * n * n);
            PX_CHECK(st.live == 2);
            PX_CHECK(st.bytes == (long long)(d.vertex_count * 3 * 4 + d.triangle_count * 3 * 4));
            px_obj_free(&d);
            PX_CHECK(st.live == 0 && st.bytes == 0);
            break;
        }
        ++failures;
        if (s != PX_ERR_OUT_OF_MEMORY || !is_zeroed(&d) || st.live != 0 || st.bytes != 0 || e.line != 0 ||
            strstr(e.message, "out of memory") == NULL)
        {
            fprintf(stderr, "fail_at %d: status %d, live %d, bytes %lld, line %d, \"%s\"\n", fail_at, (int)s,
                    st.live, st.bytes, e.line, e.message);
            free(text);
            return 1;
        }
        PX_CHECK(fail_at < 1000);
    }
    free(text);
    if (from_file)
    {
        remove(temp_path);
    }
    PX_CHECK(failures >= 8); /* the test really exercised the growth paths */
    return 0;
}

static int allocation_failure_parse(void)
{
    return fail_every_allocation(false);
}

static int allocation_failure_load(void)
{
    return fail_every_allocation(true);
}

/* ---------------------------------------------------------------------------------------------------- */
/* Locale and corruption */

/* Set LC_NUMERIC to locale `name` (e.g. "de_DE.UTF-8"), building it from glibc's sources (`source`, e.g.
 * "de_DE") with localedef into a temporary LOCPATH when it is not installed. Returns false (LC_NUMERIC left
 * "C") when neither works. dir names the temporary directory, if one was made: call restore_locale(dir)
 * either way. */
static bool use_locale(const char* name, const char* source, char dir[64])
{
    dir[0] = '\0';
    if (setlocale(LC_NUMERIC, name) != NULL)
    {
        return true;
    }
    strcpy(dir, "/tmp/px_test_locale_XXXXXX");
    if (mkdtemp(dir) == NULL)
    {
        dir[0] = '\0';
        return false;
    }
    char command[256];
    snprintf(command, sizeof(command), "localedef -i %s -f UTF-8 %s/%s >/dev/null 2>&1", source, dir, name);
    if (system(command) == 0 && setenv("LOCPATH", dir, 1) == 0 && setlocale(LC_NUMERIC, name) != NULL)
    {
        return true;
    }
    setlocale(LC_NUMERIC, "C");
    return false;
}

/* Back to the "C" locale, and the temporary locale directory removed. */
static void restore_locale(const char* dir)
{
    setlocale(LC_NUMERIC, "C");
    if (dir[0] != '\0')
    {
        unsetenv("LOCPATH");
        char command[128];
        snprintf(command, sizeof(command), "rm -rf %s", dir);
        (void)!system(command);
    }
}

static int decimal_comma_locale(void)
{
    /* A host program may set a locale whose decimal separator is ','. The reader must still read '.'. */
    char dir[64];
    if (!use_locale("de_DE.UTF-8", "de_DE", dir) || strcmp(localeconv()->decimal_point, ",") != 0)
    {
        restore_locale(dir);
        printf("    no locale with a decimal comma (de_DE.UTF-8 not installed, localedef could not build it)\n");
        return PX_TEST_SKIP;
    }
    px_obj_data d;
    px_obj_error e;
    px_status s = parse_str("v 1.5 -2.25 3e-1\n", &d, &e);
    px_status s_comma = PX_OK;
    px_obj_data d2;
    s_comma = parse_str("v 1,5 0 0\n", &d2, &e);
    restore_locale(dir);
    PX_CHECK_STATUS(s, PX_OK);
    PX_CHECK(d.vertices[0] == 1.5f && d.vertices[1] == -2.25f && d.vertices[2] == 0.3f);
    px_obj_free(&d);
    PX_CHECK_STATUS(s_comma, PX_ERR_PARSE);
    return 0;
}

/* A locale whose decimal point is two bytes (ps_AF: U+066B): numbers with a '.' still read. The retry with
 * the locale's point only took one-byte points, so every "1.5" failed (review 52). */
static int multibyte_point_locale(void)
{
    char dir[64];
    if (!use_locale("ps_AF.UTF-8", "ps_AF", dir) || strlen(localeconv()->decimal_point) < 2)
    {
        restore_locale(dir);
        printf("    no locale with a multi-byte decimal point (ps_AF.UTF-8 not installed, localedef could not "
               "build it)\n");
        return PX_TEST_SKIP;
    }
    px_obj_data d;
    px_obj_error e;
    px_status s = parse_str("v 1.5 -2.25 3e-1\nv 0.125 1. .5\nv 0 0 1\nf 1 2 3\n", &d, &e);
    restore_locale(dir);
    PX_CHECK_STATUS(s, PX_OK);
    PX_CHECK(d.vertex_count == 3);
    PX_CHECK(d.vertices[0] == 1.5f && d.vertices[1] == -2.25f && d.vertices[2] == 0.3f);
    PX_CHECK(d.vertices[3] == 0.125f && d.vertices[4] == 1.0f && d.vertices[5] == 0.5f);
    px_obj_free(&d);
    return 0;
}

/* An endless stream of NUL bytes (/dev/zero) is not a text file: the loader stops at the first chunk with a
 * NUL and reports its line, where it had read on until memory ran out (review 52). */
static int endless_binary_stream(void)
{
    FILE* probe = fopen("/dev/zero", "rb");
    if (probe == NULL)
    {
        printf("    no /dev/zero on this system\n");
        return PX_TEST_SKIP;
    }
    fclose(probe);
    px_obj_data d;
    px_obj_error e;
    PX_CHECK_STATUS(px_obj_load("/dev/zero", NULL, &d, &e), PX_ERR_PARSE);
    PX_CHECK(e.line == 1 && is_zeroed(&d));
    return 0;
}

static int random_corruption(void)
{
    /* Flip, insert and delete bytes of a valid file: the reader must never crash (ASan/UBSan builds catch
     * out-of-bounds reads), and every result must be either a valid mesh or a zeroed error. */
    const char* base = "# corruption\r\nv 0 0 0\r\nv 1.5 0 0\r\nv 0 1 -2e1\r\nv 0 0 1\r\n"
                       "vt 0 0\nvn 0 0 1\nf 1/1/1 2/1/1 3/1/1\nf -4 -3 -1\nf 1//1 3//1 4//1 2//1\n";
    const char alphabet[] = "0123456789 -+.eE/#vfnaix\r\n\t\0";
    size_t base_len = strlen(base);
    px_rng r = px_rng_seeded(4242);
    int ok = 0, errors = 0;
    for (int iter = 0; iter < 20000; ++iter)
    {
        char buf[256];
        size_t len = base_len;
        memcpy(buf, base, len);
        int edits = 1 + (int)(px_rng_next(&r) % 4);
        for (int k = 0; k < edits; ++k)
        {
            size_t pos = (size_t)(px_rng_next(&r) % (len + 1));
            char c = alphabet[px_rng_next(&r) % (sizeof(alphabet) - 1)];
            int op = (int)(px_rng_next(&r) % 3);
            if (op == 0 && pos < len)
            {
                buf[pos] = c;
            }
            else if (op == 1 && len < sizeof(buf))
            {
                memmove(buf + pos + 1, buf + pos, len - pos);
                buf[pos] = c;
                ++len;
            }
            else if (pos < len)
            {
                memmove(buf + pos, buf + pos + 1, len - pos - 1);
                --len;
            }
        }
        /* copy to an exact-size heap block so ASan sees any read past the end */
        char* exact = malloc(len + 1);
        PX_CHECK(exact != NULL);
        memcpy(exact, buf, len);
        px_obj_data d;
        px_obj_error e;
        px_status s = px_obj_parse(exact, len, NULL, &d, &e);
        free(exact);
        if (s == PX_OK)
        {
            ++ok;
            for (int i = 0; i < 3 * d.vertex_count; ++i)
            {
                PX_CHECK(isfinite(d.vertices[i]));
            }
            for (int i = 0; i < 3 * d.triangle_count; ++i)
            {
                PX_CHECK(d.indices[i] >= 0 && d.indices[i] < d.vertex_count);
            }
            px_obj_free(&d);
        }
        else
        {
            ++errors;
            PX_CHECK(s == PX_ERR_PARSE && is_zeroed(&d) && e.line > 0 && e.message[0] != '\0');
        }
    }
    PX_CHECK(ok > 1000 && errors > 1000); /* both outcomes were exercised */
    return 0;
}

/* ---------------------------------------------------------------------------------------------------- */
/* The shared meshes (../shared/data, README.md) */

typedef struct mesh_expect
{
    const char* file;
    int vertices;
    int triangles;
    float min[3], max[3];
} mesh_expect;

static int shared_meshes(void)
{
    static const mesh_expect meshes[] = {
        { "nav_test.obj", 884, 1612, { -28.889f, -4.870f, -46.300f }, { 62.495f, 17.011f, 31.053f } },
        { "dungeon.obj", 5101, 10133, { -25.015f, -0.003f, -90.041f }, { 49.305f, 40.177f, 8.891f } },
        { "undulating.obj", 2800, 5202, { 4999.106f, -4.055f, 4999.552f }, { 5098.000f, 6.814f, 5098.797f } },
        { "env.obj", 6540, 2180, { -3004.5f, -3004.5f, -14.5f }, { 2987.5f, 3004.5f, 2987.5f } },
        { "rob.obj", 648, 216, { -500.0f, -605.0f, -425.0f }, { 500.0f, 605.0f, 425.0f } },
        { "bunny.obj", 1839, 3674, { -4.958f, -0.003f, -3.730f }, { 4.949f, 9.655f, 3.811f } },
    };
    char path[1024];
    snprintf(path, sizeof(path), "%s/README.md", PX_DATA_DIR);
    FILE* probe = fopen(path, "rb");
    if (probe == NULL)
    {
        printf("    shared meshes not found: %s (set -DPROXIMA_DATA_DIR=...)\n", PX_DATA_DIR);
        return PX_TEST_SKIP;
    }
    fclose(probe);
    for (size_t m = 0; m < sizeof(meshes) / sizeof(meshes[0]); ++m)
    {
        const mesh_expect* x = &meshes[m];
        snprintf(path, sizeof(path), "%s/%s", PX_DATA_DIR, x->file);
        px_obj_data d;
        px_obj_error e;
        px_status s = px_obj_load(path, NULL, &d, &e);
        if (s != PX_OK)
        {
            fprintf(stderr, "%s: %s: %s\n", x->file, px_status_string(s), e.message);
            return 1;
        }
        if (d.vertex_count != x->vertices || d.triangle_count != x->triangles)
        {
            fprintf(stderr, "%s: %d vertices, %d triangles; README says %d, %d\n", x->file, d.vertex_count,
                    d.triangle_count, x->vertices, x->triangles);
            px_obj_free(&d);
            return 1;
        }
        float lo[3] = { INFINITY, INFINITY, INFINITY }, hi[3] = { -INFINITY, -INFINITY, -INFINITY };
        for (int i = 0; i < d.vertex_count; ++i)
        {
            for (int k = 0; k < 3; ++k)
            {
                lo[k] = fminf(lo[k], d.vertices[3 * i + k]);
                hi[k] = fmaxf(hi[k], d.vertices[3 * i + k]);
            }
        }
        int bad_index = 0;
        for (int i = 0; i < 3 * d.triangle_count; ++i)
        {
            bad_index += d.indices[i] < 0 || d.indices[i] >= d.vertex_count;
        }
        px_obj_free(&d);
        PX_CHECK(bad_index == 0);
        /* the README rounds to 3 decimals */
        PX_CHECK_NEAR3(lo, x->min, 6e-4);
        PX_CHECK_NEAR3(hi, x->max, 6e-4);
    }
    return 0;
}

int test_io(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(triangle_and_quad);
    PX_RUN_SUBTEST(fan_triangulation_of_ngons);
    PX_RUN_SUBTEST(face_corner_forms);
    PX_RUN_SUBTEST(negative_indices);
    PX_RUN_SUBTEST(line_ends_comments_and_spaces);
    PX_RUN_SUBTEST(ignored_keywords);
    PX_RUN_SUBTEST(w_and_vertex_colours);
    PX_RUN_SUBTEST(fcl_count_header);
    PX_RUN_SUBTEST(precise_numbers);
    PX_RUN_SUBTEST(empty_input);
    PX_RUN_SUBTEST(malformed_inputs);
    PX_RUN_SUBTEST(message_example);
    PX_RUN_SUBTEST(long_tokens);
    PX_RUN_SUBTEST(invalid_arguments);
    PX_RUN_SUBTEST(load_errors);
    PX_RUN_SUBTEST(load_file);
    PX_RUN_SUBTEST(allocation_failure_parse);
    PX_RUN_SUBTEST(allocation_failure_load);
    PX_RUN_SUBTEST(decimal_comma_locale);
    PX_RUN_SUBTEST(multibyte_point_locale);
    PX_RUN_SUBTEST(endless_binary_stream);
    PX_RUN_SUBTEST(random_corruption);
    PX_RUN_SUBTEST(shared_meshes);
    PX_SUITE_END;
}
