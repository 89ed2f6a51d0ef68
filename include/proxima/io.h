/// @file io.h
/// Reading triangle meshes from Wavefront OBJ text.
///
/// The reader keeps positions and faces and ignores everything else, so it accepts the files that real
/// tools write:
/// - `v x y z [w]`: a vertex; w and any further numbers (vertex colours) are checked and ignored.
/// - `f a b c ...`: a face whose corners are `v`, `v/vt`, `v//vn` or `v/vt/vn`. Indices start at 1;
///   negative indices count back from the last vertex read (-1 is the latest). Faces of n > 3 corners are
///   fan-triangulated as (v0, vi, vi+1), the way Recast's demo loader does it.
/// - `vt`, `vn`, `vp`, `o`, `g`, `s`, `usemtl`, `mtllib`, `l`, `p` and unknown keywords are skipped.
/// - `#` starts a comment (at the start of a line or after a token); blank lines, leading and trailing
///   spaces or tabs, LF, CRLF and lone CR line ends and a UTF-8 byte order mark are accepted.
/// - A bare line of integers before the first vertex or face, such as FCL's `6540 2180` count header,
///   is skipped.
///
/// Numbers are parsed independently of the C locale: the reader checks the token syntax itself
/// (`[+-]digits[.digits][e[+-]digits]`) and converts with strtof, retrying with the locale's decimal
/// separator (of any length: ps_AF's is two bytes) if a program changed LC_NUMERIC. `nan`, `inf`,
/// hexadecimal floats and values that overflow a float are rejected. Reading stops at the first chunk that
/// holds a NUL byte (a binary file, /dev/zero): the parse reports it as a control byte.
///
/// Errors are reported with the 1-based line number and a readable message, for example
/// `line 12: face index 40 out of range (30 vertices)`. A face may only reference vertices defined on
/// earlier lines, as the OBJ format requires; a forward reference is reported as out of range.
///
/// Thread-safety: the functions keep no state; different px_obj_data may be loaded on different threads,
/// as long as no thread changes the C locale meanwhile (strtof and localeconv read it).
#pragma once

#include "proxima/base.h"

#ifdef __cplusplus
extern "C"
{
#endif

/// Largest vertex or triangle count the reader produces, so that 3 * count fits in an int.
#define PX_OBJ_MAX_COUNT (INT32_MAX / 3)

    /// Where and why reading an OBJ failed.
    typedef struct px_obj_error
    {
        /// 1-based line of the problem, or 0 when the error is not tied to a line (file cannot be opened or
        /// read, allocation failure, invalid argument).
        int line;
        /// NUL-terminated message. Line errors start with "line N: ". Empty on success.
        char message[160];
    } px_obj_error;

    /// A triangle mesh read from an OBJ file. Zero-initialize it (`= {0}`) or let px_obj_load /
    /// px_obj_parse fill it; release it with px_obj_free.
    ///
    /// Both arrays are allocated with exactly the size their counts imply (vertices: 3 * vertex_count
    /// floats, indices: 3 * triangle_count int32_t), so a caller that takes ownership of an array can release
    /// it through `allocator.free` with that size. An array is NULL when its count is 0.
    typedef struct px_obj_data
    {
        float* vertices;        ///< Packed xyz positions [(x, y, z) * vertex_count], in file order
        int vertex_count;       ///< Number of vertices [Limit: 0..PX_OBJ_MAX_COUNT]
        int32_t* indices;       ///< 3 vertex indices per triangle, 0-based [Limit: 0..vertex_count - 1]
        int triangle_count;     ///< Number of triangles after fan triangulation [Limit: 0..PX_OBJ_MAX_COUNT]
        px_allocator allocator; ///< The resolved allocator that owns both arrays
    } px_obj_data;

    /// Read an OBJ file.
    /// The whole file is read into a temporary buffer (allocated through the allocator), then parsed as by
    /// px_obj_parse.
    /// @param[in]  path       File name, passed to fopen [Limit: not NULL]
    /// @param[in]  allocator  Memory hooks, or NULL (or all-zero) for the default aligned malloc/free
    /// @param[out] data       The mesh; zeroed on every error. Release it with px_obj_free.
    /// @param[out] error      Line and message on error, cleared on success. May be NULL.
    /// @return PX_OK (an empty file gives an empty mesh);
    ///         PX_ERR_INVALID_ARGUMENT for a NULL path or data, or an allocator with only one function set;
    ///         PX_ERR_IO when the file cannot be opened or read (the message gives the system's reason);
    ///         PX_ERR_PARSE for malformed content (see px_obj_parse);
    ///         PX_ERR_OUT_OF_MEMORY when the allocator returns NULL (nothing is leaked).
    PX_API PX_NODISCARD px_status px_obj_load(const char* path, const px_allocator* allocator,
                                              px_obj_data* data, px_obj_error* error);

    /// Parse OBJ text held in memory.
    /// @param[in]  text       The file's bytes; need not be NUL-terminated [Limit: not NULL]
    /// @param[in]  length     Number of bytes in text
    /// @param[in]  allocator  Memory hooks, or NULL (or all-zero) for the default aligned malloc/free
    /// @param[out] data       The mesh; zeroed on every error. Release it with px_obj_free.
    /// @param[out] error      Line and message on error, cleared on success. May be NULL.
    /// @return PX_OK (text without vertices gives an empty mesh);
    ///         PX_ERR_INVALID_ARGUMENT for a NULL text or data, or an allocator with only one function set;
    ///         PX_ERR_PARSE for malformed content: a missing, non-numeric, NaN, infinite or float-overflowing
    ///         coordinate; a face with fewer than 3 corners; a face index of 0, out of range (including a
    ///         reference to a later vertex) or overflowing an int; a malformed face corner; more than
    ///         PX_OBJ_MAX_COUNT vertices or triangles; a control byte such as NUL (the input is not text);
    ///         PX_ERR_OUT_OF_MEMORY when the allocator returns NULL (nothing is leaked).
    PX_API PX_NODISCARD px_status px_obj_parse(const char* text, size_t length, const px_allocator* allocator,
                                               px_obj_data* data, px_obj_error* error);

    /// Release a mesh's arrays and zero the struct.
    /// Idempotent; safe on a zeroed struct, on a struct a failed load left behind, and on NULL.
    /// @param[in,out] data  The mesh to release
    PX_API void px_obj_free(px_obj_data* data);

#ifdef __cplusplus
}
#endif
