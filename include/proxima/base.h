/// @file base.h
/// Export macros, status codes and the allocator hook shared by every proxima module.
///
/// Every function that can fail returns a px_status: PX_OK (0) on success, a positive warning when the
/// result is usable but approximate (an iteration or capacity bound was hit), a negative error when the
/// result was zeroed and must not be used. px_status_string() names each code.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cglm/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Marks a public symbol. The library is built with hidden visibility; only these are exported.
#if defined(_WIN32) && defined(PX_SHARED_BUILD)
#define PX_API __declspec(dllexport)
#elif defined(_WIN32) && defined(PX_SHARED_USE)
#define PX_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define PX_API __attribute__((visibility("default")))
#else
#define PX_API
#endif

/// Warns when the returned status of a function is ignored.
#if defined(__GNUC__) || defined(__clang__)
#define PX_NODISCARD __attribute__((warn_unused_result))
#else
#define PX_NODISCARD
#endif

/// The null value of a stored index (support vertex, triangle, proxy).
#define PX_NULL_INDEX (-1)

#define PX_VERSION_MAJOR 0
#define PX_VERSION_MINOR 1
#define PX_VERSION_PATCH 0

/// X-macro list of every status: name, value, message. The enum and px_status_string() are both
/// generated from it, so they cannot drift apart.
#define PX_STATUS_LIST(X)                                                                                    \
    X(PX_OK, 0, "ok")                                                                                        \
    X(PX_WARN_MAX_ITERATIONS, 1, "iteration bound reached; best result so far returned")                    \
    X(PX_WARN_DEGENERATE, 2, "degenerate configuration; best result so far returned")                       \
    X(PX_WARN_CAPACITY, 3, "fixed capacity reached; best result so far returned")                           \
    X(PX_ERR_INVALID_ARGUMENT, -1, "invalid argument (NULL pointer, bad count, negative size or bad index)") \
    X(PX_ERR_NON_FINITE, -2, "NaN or infinity in the input")                                                \
    X(PX_ERR_DEGENERATE_INPUT, -3, "degenerate input (empty shape, zero direction or zero quaternion)")      \
    X(PX_ERR_OUT_OF_MEMORY, -4, "allocation failed")                                                        \
    X(PX_ERR_PARSE, -5, "malformed input file")                                                             \
    X(PX_ERR_IO, -6, "file could not be opened or read")                                                    \
    X(PX_ERR_UNSUPPORTED, -7, "operation not supported for this shape type")                                \
    X(PX_ERR_OUT_OF_RANGE, -8, "shape pair too large for float: its size reaches PX_MAX_PAIR_SIZE (2^62)")

#define PX_STATUS_ENUM_ITEM(name, value, message) name = (value),

/// Result code of every fallible function. 0 is success, > 0 a warning with a usable result,
/// < 0 an error with a zeroed result.
typedef enum px_status
{
    PX_STATUS_LIST(PX_STATUS_ENUM_ITEM)
} px_status;

#undef PX_STATUS_ENUM_ITEM

/// True for PX_OK and for warnings: the result may be used.
#define PX_SUCCEEDED(status) ((status) >= 0)
/// True for errors: the result was zeroed.
#define PX_FAILED(status) ((status) < 0)

/// A short, static, human-readable description of a status. Never NULL; unknown values give
/// "unknown status".
PX_API const char* px_status_string(px_status status);

/// Memory hooks, stored per object (there is no global allocator).
/// All-zero means the default (aligned malloc/free). Setting only one of the two functions is an
/// error (PX_ERR_INVALID_ARGUMENT) at the call that receives it.
typedef struct px_allocator
{
    /// Allocate size bytes aligned to alignment (a power of two, >= 16). Return NULL on failure.
    void* (*alloc)(size_t size, size_t alignment, void* user);
    /// Release a block; size is the value passed to alloc.
    void (*free)(void* ptr, size_t size, void* user);
    /// Passed through to both functions.
    void* user;
} px_allocator;

/// An axis-aligned bounding box. Layout-compatible with cglm's vec3[2] box.
typedef struct px_aabb
{
    vec3 min; ///< Lower corner
    vec3 max; ///< Upper corner
} px_aabb;

#ifdef __cplusplus
}
#endif
