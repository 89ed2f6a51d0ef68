/* Wavefront OBJ reader: positions and faces only, fan-triangulated like Recast's demo loader
 * (rcMeshLoaderObj), with the error reporting and limits a library needs.
 *
 * One pass over the text, line by line. Vertices and triangles go into arrays that grow geometrically
 * through the caller's px_allocator; at the end they are shrunk to their exact size so that the public
 * struct needs no capacity fields and px_obj_free knows the sizes to pass to the allocator. Any error frees
 * everything and zeroes the output: there is never a partial mesh.
 *
 * Numbers: the token syntax is checked here, so strtof only converts text already known to be a decimal
 * number. That rejects what strtof would accept but a mesh must not contain ("nan", "inf", hex floats)
 * and makes the reader independent of LC_NUMERIC (see parse_float). */
#include "../core/core_internal.h"

#include "proxima/io.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest number token converted; longer ones are reported rather than silently truncated. */
#define OBJ_MAX_NUMBER_CHARS 96

/* First capacities (elements) and the size of each read from a file. */
#define OBJ_INITIAL_VERTICES 256
#define OBJ_INITIAL_TRIANGLES 256
#define OBJ_READ_CHUNK ((size_t)1 << 16)

/* The state of one parse. */
typedef struct obj_builder
{
    px_allocator allocator;
    float* vertices;
    int vertex_count;
    int vertex_capacity;
    int32_t* indices;
    int triangle_count;
    int triangle_capacity;
    px_obj_error* error; /* never NULL: points at a local when the caller passed NULL */
    int line;
} obj_builder;

/* A token of a line: [begin, end). */
typedef struct obj_token
{
    const char* begin;
    const char* end;
} obj_token;

typedef enum number_result
{
    NUMBER_OK = 0,
    NUMBER_SYNTAX,     /* not a decimal number */
    NUMBER_NON_FINITE, /* nan or inf spelled out */
    NUMBER_OVERFLOW,   /* decimal number beyond the float range */
    NUMBER_TOO_LONG,   /* more than OBJ_MAX_NUMBER_CHARS characters */
} number_result;

static void set_error(px_obj_error* error, int line, const char* format, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static void set_error(px_obj_error* error, int line, const char* format, ...)
{
    error->line = line;
    int prefix = 0;
    if (line > 0)
    {
        prefix = snprintf(error->message, sizeof(error->message), "line %d: ", line);
        if (prefix < 0 || (size_t)prefix >= sizeof(error->message))
        {
            return;
        }
    }
    va_list args;
    va_start(args, format);
    vsnprintf(error->message + prefix, sizeof(error->message) - (size_t)prefix, format, args);
    va_end(args);
}

/* A token quoted in a message, cut to a readable length. */
static int quote_length(const obj_token* t)
{
    ptrdiff_t n = t->end - t->begin;
    return n > 32 ? 32 : (int)n;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Next whitespace-separated token of [*p, end), or false at the end of the line. */
static bool next_token(const char** p, const char* end, obj_token* token)
{
    const char* s = *p;
    while (s < end && is_space(*s))
    {
        ++s;
    }
    if (s == end)
    {
        *p = s;
        return false;
    }
    token->begin = s;
    while (s < end && !is_space(*s))
    {
        ++s;
    }
    token->end = s;
    *p = s;
    return true;
}

static bool token_is(const obj_token* t, const char* word)
{
    size_t n = strlen(word);
    return (size_t)(t->end - t->begin) == n && memcmp(t->begin, word, n) == 0;
}

/* Case-insensitive prefix test after an optional sign: "nan", "-inf", "Infinity". */
static bool spells_non_finite(const obj_token* t)
{
    const char* s = t->begin;
    if (s < t->end && (*s == '+' || *s == '-'))
    {
        ++s;
    }
    if (t->end - s < 3)
    {
        return false;
    }
    char w[4] = { (char)(s[0] | 0x20), (char)(s[1] | 0x20), (char)(s[2] | 0x20), 0 };
    return strcmp(w, "nan") == 0 || strcmp(w, "inf") == 0;
}

/* True when [begin, end) is a decimal number: [+-] (digits [. digits*] | . digits) [(e|E) [+-] digits]. */
static bool is_decimal(const char* s, const char* end)
{
    if (s < end && (*s == '+' || *s == '-'))
    {
        ++s;
    }
    int digits = 0;
    while (s < end && is_digit(*s))
    {
        ++s;
        ++digits;
    }
    if (s < end && *s == '.')
    {
        ++s;
        while (s < end && is_digit(*s))
        {
            ++s;
            ++digits;
        }
    }
    if (digits == 0)
    {
        return false;
    }
    if (s < end && (*s == 'e' || *s == 'E'))
    {
        ++s;
        if (s < end && (*s == '+' || *s == '-'))
        {
            ++s;
        }
        if (s == end || !is_digit(*s))
        {
            return false;
        }
        while (s < end && is_digit(*s))
        {
            ++s;
        }
    }
    return s == end;
}

/* Convert a number token to a finite float.
 * strtof is correctly rounded but reads the decimal separator from LC_NUMERIC. The CLI never calls
 * setlocale, so the separator is '.' there; a host program may have set a locale with ',' though. The
 * syntax was checked above, so if strtof stops early the separator is the only possible cause: retry with
 * '.' replaced by the locale's separator (localeconv is only consulted on that rare path). */
static number_result parse_float(const obj_token* t, float* dest)
{
    size_t n = (size_t)(t->end - t->begin);
    if (!is_decimal(t->begin, t->end))
    {
        return spells_non_finite(t) ? NUMBER_NON_FINITE : NUMBER_SYNTAX;
    }
    if (n > OBJ_MAX_NUMBER_CHARS)
    {
        return NUMBER_TOO_LONG;
    }
    /* room for the token with its '.' replaced by a locale's decimal point of up to 8 bytes (ps_AF's is
     * U+066B, two bytes in UTF-8) */
    char buffer[OBJ_MAX_NUMBER_CHARS + 8 + 1];
    memcpy(buffer, t->begin, n);
    buffer[n] = '\0';
    char* stop = NULL;
    float v = strtof(buffer, &stop);
    if (stop != buffer + n)
    {
        const char* point = localeconv()->decimal_point;
        char* dot = memchr(buffer, '.', n);
        const size_t point_len = point != NULL ? strlen(point) : 0;
        if (dot == NULL || point_len == 0 || point_len > 8)
        {
            return NUMBER_SYNTAX;
        }
        /* the digits after the '.' move to make room for the locale's point */
        const size_t after = n - (size_t)(dot - buffer) - 1;
        memmove(dot + point_len, dot + 1, after + 1); /* with the terminating NUL */
        memcpy(dot, point, point_len);
        const size_t length = n - 1 + point_len;
        v = strtof(buffer, &stop);
        if (stop != buffer + length)
        {
            return NUMBER_SYNTAX;
        }
    }
    /* strtof gives +-HUGE_VALF on overflow; underflow to a subnormal or zero is a usable value */
    if (!isfinite(v))
    {
        return NUMBER_OVERFLOW;
    }
    *dest = v;
    return NUMBER_OK;
}

/* Parse an optionally signed decimal integer of [begin, end). Returns false on a syntax error; sets
 * *overflow when the magnitude exceeds INT32_MAX. */
static bool parse_int(const char* s, const char* end, int64_t* dest, bool* overflow)
{
    bool negative = false;
    *overflow = false;
    if (s < end && (*s == '+' || *s == '-'))
    {
        negative = *s == '-';
        ++s;
    }
    if (s == end)
    {
        return false;
    }
    int64_t v = 0;
    for (; s < end; ++s)
    {
        if (!is_digit(*s))
        {
            return false;
        }
        if (v <= INT32_MAX)
        {
            /* keep accumulating only while small: v <= 2^31, so v * 10 + 9 cannot overflow int64 */
            v = v * 10 + (*s - '0');
        }
    }
    if (v > INT32_MAX)
    {
        *overflow = true;
    }
    *dest = negative ? -v : v;
    return true;
}

/* Grow an array of `elem` bytes per item from *capacity to at least need items (geometric, x2),
 * never beyond PX_OBJ_MAX_COUNT. Returns false on allocation failure (the old array is kept). */
static bool grow(const px_allocator* allocator, void** array, int* capacity, int count, int need, size_t elem,
                 int initial)
{
    if (need <= *capacity)
    {
        return true;
    }
    int cap = *capacity > 0 ? *capacity : initial;
    while (cap < need)
    {
        cap = cap > PX_OBJ_MAX_COUNT / 2 ? PX_OBJ_MAX_COUNT : cap * 2;
    }
    size_t bytes = 0;
    if (!pxi_size_mul((size_t)cap, elem, &bytes))
    {
        return false;
    }
    void* fresh = pxi_alloc(allocator, bytes);
    if (fresh == NULL)
    {
        return false;
    }
    if (*array != NULL)
    {
        memcpy(fresh, *array, (size_t)count * elem);
        pxi_free(allocator, *array, (size_t)*capacity * elem);
    }
    *array = fresh;
    *capacity = cap;
    return true;
}

static void builder_release(obj_builder* b)
{
    pxi_free(&b->allocator, b->vertices, (size_t)b->vertex_capacity * 3 * sizeof(float));
    pxi_free(&b->allocator, b->indices, (size_t)b->triangle_capacity * 3 * sizeof(int32_t));
    b->vertices = NULL;
    b->indices = NULL;
    b->vertex_capacity = 0;
    b->triangle_capacity = 0;
}

/* `v x y z [w] [more numbers]`; [p, end) is the rest of the line after the keyword. */
static px_status parse_vertex(obj_builder* b, const char* p, const char* end)
{
    float xyz[3];
    obj_token t;
    int n = 0;
    while (next_token(&p, end, &t))
    {
        float value = 0.0f;
        number_result r = parse_float(&t, &value);
        if (r == NUMBER_SYNTAX)
        {
            if (n < 3)
            {
                set_error(b->error, b->line, "vertex coordinate '%.*s' is not a number", quote_length(&t),
                          t.begin);
            }
            else
            {
                set_error(b->error, b->line, "unexpected '%.*s' after the vertex coordinates",
                          quote_length(&t), t.begin);
            }
            return PX_ERR_PARSE;
        }
        if (r == NUMBER_NON_FINITE)
        {
            set_error(b->error, b->line, "vertex coordinate '%.*s' is not finite", quote_length(&t), t.begin);
            return PX_ERR_PARSE;
        }
        if (r == NUMBER_OVERFLOW)
        {
            set_error(b->error, b->line, "vertex coordinate '%.*s' is out of the float range",
                      quote_length(&t), t.begin);
            return PX_ERR_PARSE;
        }
        if (r == NUMBER_TOO_LONG)
        {
            set_error(b->error, b->line, "vertex coordinate '%.*s...' is too long (over %d characters)",
                      quote_length(&t), t.begin, OBJ_MAX_NUMBER_CHARS);
            return PX_ERR_PARSE;
        }
        if (n < 3)
        {
            xyz[n] = value;
        }
        /* the 4th number is w, further ones are vertex colours: checked, then ignored */
        if (n < INT_MAX)
        {
            ++n;
        }
    }
    if (n < 3)
    {
        set_error(b->error, b->line, "vertex has %d coordinate%s, expected 3", n, n == 1 ? "" : "s");
        return PX_ERR_PARSE;
    }
    if (b->vertex_count == PX_OBJ_MAX_COUNT)
    {
        set_error(b->error, b->line, "too many vertices (limit %d)", PX_OBJ_MAX_COUNT);
        return PX_ERR_PARSE;
    }
    void* array = b->vertices;
    if (!grow(&b->allocator, &array, &b->vertex_capacity, b->vertex_count, b->vertex_count + 1,
              3 * sizeof(float), OBJ_INITIAL_VERTICES))
    {
        set_error(b->error, 0, "out of memory after %d vertices (line %d)", b->vertex_count, b->line);
        return PX_ERR_OUT_OF_MEMORY;
    }
    b->vertices = array;
    memcpy(b->vertices + 3 * (size_t)b->vertex_count, xyz, sizeof(xyz));
    b->vertex_count++;
    return PX_OK;
}

/* One face corner `v`, `v/vt`, `v//vn` or `v/vt/vn` (empty vt/vn fields are tolerated), resolved to a
 * 0-based vertex index. */
static px_status parse_corner(obj_builder* b, const obj_token* t, int32_t* dest)
{
    const char* slash = memchr(t->begin, '/', (size_t)(t->end - t->begin));
    const char* v_end = slash != NULL ? slash : t->end;
    int64_t v = 0;
    bool overflow = false;
    bool ok = parse_int(t->begin, v_end, &v, &overflow);
    /* the texture and normal fields are not stored, but a malformed one still means a broken file */
    for (int field = 0; ok && field < 2 && slash != NULL; ++field)
    {
        const char* begin = slash + 1;
        slash = memchr(begin, '/', (size_t)(t->end - begin));
        const char* end = slash != NULL ? slash : t->end;
        int64_t ignored = 0;
        bool ignored_overflow = false;
        ok = begin == end || parse_int(begin, end, &ignored, &ignored_overflow);
    }
    if (!ok || slash != NULL)
    {
        set_error(b->error, b->line, "malformed face corner '%.*s' (expected v, v/vt, v//vn or v/vt/vn)",
                  quote_length(t), t->begin);
        return PX_ERR_PARSE;
    }
    if (overflow)
    {
        obj_token digits = { t->begin, v_end };
        set_error(b->error, b->line, "face index '%.*s' is out of range", quote_length(&digits), t->begin);
        return PX_ERR_PARSE;
    }
    if (v == 0)
    {
        set_error(b->error, b->line, "face index 0 is invalid (OBJ indices start at 1)");
        return PX_ERR_PARSE;
    }
    /* positive: 1-based; negative: relative to the vertices read so far (-1 is the last one). A vertex
     * defined on a later line is out of range too: OBJ faces may only reference earlier vertices. */
    int64_t index = v > 0 ? v - 1 : (int64_t)b->vertex_count + v;
    if (index < 0 || index >= b->vertex_count)
    {
        set_error(b->error, b->line, "face index %lld out of range (%d vertices)", (long long)v,
                  b->vertex_count);
        return PX_ERR_PARSE;
    }
    *dest = (int32_t)index;
    return PX_OK;
}

/* `f c0 c1 c2 ...`: fan triangles (c0, ci, ci+1) are appended as the corners are read. */
static px_status parse_face(obj_builder* b, const char* p, const char* end)
{
    obj_token t;
    int corners = 0;
    int32_t first = 0, previous = 0;
    while (next_token(&p, end, &t))
    {
        int32_t index = 0;
        px_status status = parse_corner(b, &t, &index);
        if (status != PX_OK)
        {
            return status;
        }
        if (corners >= 2)
        {
            if (b->triangle_count == PX_OBJ_MAX_COUNT)
            {
                set_error(b->error, b->line, "too many triangles (limit %d)", PX_OBJ_MAX_COUNT);
                return PX_ERR_PARSE;
            }
            void* array = b->indices;
            if (!grow(&b->allocator, &array, &b->triangle_capacity, b->triangle_count, b->triangle_count + 1,
                      3 * sizeof(int32_t), OBJ_INITIAL_TRIANGLES))
            {
                set_error(b->error, 0, "out of memory after %d triangles (line %d)", b->triangle_count,
                          b->line);
                return PX_ERR_OUT_OF_MEMORY;
            }
            b->indices = array;
            int32_t* tri = b->indices + 3 * (size_t)b->triangle_count;
            tri[0] = first;
            tri[1] = previous;
            tri[2] = index;
            b->triangle_count++;
        }
        else if (corners == 0)
        {
            first = index;
        }
        previous = index;
        if (corners < INT_MAX)
        {
            ++corners;
        }
    }
    if (corners < 3)
    {
        set_error(b->error, b->line, "face has %d corner%s, at least 3 needed", corners,
                  corners == 1 ? "" : "s");
        return PX_ERR_PARSE;
    }
    return PX_OK;
}

/* True for a line made only of unsigned integers (FCL's "6540 2180" count header). */
static bool is_count_header(const char* p, const char* end)
{
    obj_token t;
    bool any = false;
    while (next_token(&p, end, &t))
    {
        for (const char* s = t.begin; s < t.end; ++s)
        {
            if (!is_digit(*s))
            {
                return false;
            }
        }
        any = true;
    }
    return any;
}

/* Dispatch one line [p, end) (line terminator and comment already removed). */
static px_status parse_line(obj_builder* b, const char* p, const char* end, bool* seen_data)
{
    obj_token keyword;
    if (!next_token(&p, end, &keyword))
    {
        return PX_OK; /* blank */
    }
    if (token_is(&keyword, "v"))
    {
        *seen_data = true;
        return parse_vertex(b, p, end);
    }
    if (token_is(&keyword, "f"))
    {
        *seen_data = true;
        return parse_face(b, p, end);
    }
    char c = keyword.begin[0];
    if (is_digit(c) || c == '-' || c == '+' || c == '.')
    {
        /* A number where a keyword belongs: only a leading count header is a known convention;
         * anywhere else it is more likely a broken line than something to skip silently. */
        if (!*seen_data && is_count_header(keyword.begin, end))
        {
            return PX_OK;
        }
        set_error(b->error, b->line, "line starts with '%.*s', expected a keyword such as v or f",
                  quote_length(&keyword), keyword.begin);
        return PX_ERR_PARSE;
    }
    /* vt, vn, vp, o, g, s, usemtl, mtllib, l, p and unknown keywords */
    return PX_OK;
}

/* Hot loop: split the text into lines, reject control bytes, strip comments. */
static px_status parse_text(obj_builder* b, const char* text, size_t length)
{
    const char* p = text;
    const char* end = text + length;
    bool seen_data = false;
    /* UTF-8 byte order mark, written by some Windows tools */
    if (length >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
    {
        p += 3;
    }
    b->line = 0;
    while (p < end)
    {
        if (b->line < INT_MAX)
        {
            b->line++;
        }
        const char* line_end = p;
        const char* content_end = NULL;
        while (line_end < end && *line_end != '\n' && *line_end != '\r')
        {
            unsigned char c = (unsigned char)*line_end;
            if (c < 0x20 && c != '\t' && c != '\v' && c != '\f')
            {
                set_error(b->error, b->line, "control byte 0x%02X: this is not a text OBJ file", c);
                return PX_ERR_PARSE;
            }
            if (c == '#' && content_end == NULL)
            {
                content_end = line_end;
            }
            ++line_end;
        }
        px_status status = parse_line(b, p, content_end != NULL ? content_end : line_end, &seen_data);
        if (status != PX_OK)
        {
            return status;
        }
        /* LF, CRLF or a lone CR (classic Mac OS) */
        p = line_end;
        if (p < end && *p == '\r')
        {
            ++p;
            if (p < end && *p == '\n')
            {
                ++p;
            }
        }
        else if (p < end)
        {
            ++p;
        }
    }
    return PX_OK;
}

/* Move a grown array into an exact-size block. Returns false on allocation failure (array unchanged). */
static bool shrink(const px_allocator* allocator, void** array, int* capacity, int count, size_t elem)
{
    if (count == *capacity)
    {
        return true;
    }
    void* exact = NULL;
    if (count > 0)
    {
        exact = pxi_alloc(allocator, (size_t)count * elem);
        if (exact == NULL)
        {
            return false;
        }
        memcpy(exact, *array, (size_t)count * elem);
    }
    pxi_free(allocator, *array, (size_t)*capacity * elem);
    *array = exact;
    *capacity = count;
    return true;
}

/* Shared entry checks: clear outputs, resolve the allocator. */
static px_status begin(const px_allocator* allocator, px_obj_data* data, px_obj_error* error,
                       px_allocator* resolved)
{
    if (error != NULL)
    {
        error->line = 0;
        error->message[0] = '\0';
    }
    if (data == NULL)
    {
        if (error != NULL)
        {
            set_error(error, 0, "data is NULL");
        }
        return PX_ERR_INVALID_ARGUMENT;
    }
    memset(data, 0, sizeof(*data));
    if (pxi_allocator_resolve(allocator, resolved) != PX_OK)
    {
        if (error != NULL)
        {
            set_error(error, 0, "the allocator sets only one of alloc and free");
        }
        return PX_ERR_INVALID_ARGUMENT;
    }
    return PX_OK;
}

static px_status parse_resolved(const char* text, size_t length, const px_allocator* allocator,
                                px_obj_data* data, px_obj_error* error)
{
    px_obj_error local;
    obj_builder b;
    memset(&b, 0, sizeof(b));
    b.allocator = *allocator;
    b.error = error != NULL ? error : &local;
    px_status status = parse_text(&b, text, length);
    if (status == PX_OK)
    {
        void* v = b.vertices;
        void* ix = b.indices;
        bool ok = shrink(&b.allocator, &v, &b.vertex_capacity, b.vertex_count, 3 * sizeof(float));
        b.vertices = v;
        ok = ok && shrink(&b.allocator, &ix, &b.triangle_capacity, b.triangle_count, 3 * sizeof(int32_t));
        b.indices = ix;
        if (!ok)
        {
            set_error(b.error, 0, "out of memory while finishing the mesh (%d vertices, %d triangles)",
                      b.vertex_count, b.triangle_count);
            status = PX_ERR_OUT_OF_MEMORY;
        }
    }
    if (status != PX_OK)
    {
        builder_release(&b);
        return status;
    }
    data->vertices = b.vertices;
    data->vertex_count = b.vertex_count;
    data->indices = b.indices;
    data->triangle_count = b.triangle_count;
    data->allocator = b.allocator;
    if (error != NULL)
    {
        error->line = 0;
        error->message[0] = '\0';
    }
    return PX_OK;
}

px_status px_obj_parse(const char* text, size_t length, const px_allocator* allocator, px_obj_data* data,
                       px_obj_error* error)
{
    px_allocator resolved;
    px_status status = begin(allocator, data, error, &resolved);
    if (status != PX_OK)
    {
        return status;
    }
    if (text == NULL)
    {
        if (error != NULL)
        {
            set_error(error, 0, "text is NULL");
        }
        return PX_ERR_INVALID_ARGUMENT;
    }
    return parse_resolved(text, length, &resolved, data, error);
}

px_status px_obj_load(const char* path, const px_allocator* allocator, px_obj_data* data, px_obj_error* error)
{
    px_allocator resolved;
    px_status status = begin(allocator, data, error, &resolved);
    if (status != PX_OK)
    {
        return status;
    }
    px_obj_error local;
    px_obj_error* err = error != NULL ? error : &local;
    if (path == NULL)
    {
        set_error(err, 0, "path is NULL");
        return PX_ERR_INVALID_ARGUMENT;
    }
    FILE* file = fopen(path, "rb");
    if (file == NULL)
    {
        set_error(err, 0, "cannot open '%s': %s", path, strerror(errno));
        return PX_ERR_IO;
    }
    /* Read to the end in chunks into a buffer that doubles: works for pipes and files whose size changes,
     * and never trusts ftell (meaningless on directories and some special files). */
    char* buffer = NULL;
    size_t capacity = 0;
    size_t length = 0;
    status = PX_OK;
    for (;;)
    {
        if (length == capacity)
        {
            size_t grown = capacity == 0 ? OBJ_READ_CHUNK : capacity * 2;
            char* fresh = grown > capacity ? pxi_alloc(&resolved, grown) : NULL;
            if (fresh == NULL)
            {
                set_error(err, 0, "out of memory reading '%s' (%zu bytes read)", path, length);
                status = PX_ERR_OUT_OF_MEMORY;
                break;
            }
            if (buffer != NULL)
            {
                memcpy(fresh, buffer, length);
                pxi_free(&resolved, buffer, capacity);
            }
            buffer = fresh;
            capacity = grown;
        }
        size_t got = fread(buffer + length, 1, capacity - length, file);
        const char* nul = got > 0 ? memchr(buffer + length, '\0', got) : NULL;
        length += got;
        if (nul != NULL)
        {
            /* not text: the parse reports the NUL byte's line, and a stream of them (/dev/zero) is not read to
             * the end of memory (review 52) */
            length = (size_t)(nul - buffer) + 1;
            break;
        }
        if (got == 0)
        {
            if (ferror(file))
            {
                set_error(err, 0, "cannot read '%s': %s", path, strerror(errno));
                status = PX_ERR_IO;
            }
            break;
        }
    }
    fclose(file);
    if (status == PX_OK)
    {
        status = parse_resolved(buffer, length, &resolved, data, error);
    }
    pxi_free(&resolved, buffer, capacity);
    return status;
}

void px_obj_free(px_obj_data* data)
{
    if (data == NULL)
    {
        return;
    }
    /* a zeroed struct has no arrays and may have no allocator: nothing to call */
    if (data->allocator.free != NULL)
    {
        pxi_free(&data->allocator, data->vertices, (size_t)data->vertex_count * 3 * sizeof(float));
        pxi_free(&data->allocator, data->indices, (size_t)data->triangle_count * 3 * sizeof(int32_t));
    }
    memset(data, 0, sizeof(*data));
}
