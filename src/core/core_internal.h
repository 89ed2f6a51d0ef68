/* Internal core helpers shared by all modules: allocation through px_allocator, input validation. */
#pragma once

#include "proxima/base.h"
#include "proxima/transform.h"

/* Default alignment of every block proxima allocates: enough for versor, vec4 and SSE/AVX loads. */
#define PXI_ALLOC_ALIGNMENT 32

/* Resolve a caller's allocator (NULL or all-zero = malloc/free) into a usable one.
 * Returns PX_ERR_INVALID_ARGUMENT when exactly one of the two functions is set. */
px_status pxi_allocator_resolve(const px_allocator* in, px_allocator* out);

/* Allocate size bytes (size > 0) aligned to PXI_ALLOC_ALIGNMENT; NULL on failure or size overflow. */
void* pxi_alloc(const px_allocator* allocator, size_t size);

/* pxi_alloc with a larger alignment (a power of two, >= PXI_ALLOC_ALIGNMENT), e.g. a cache line for nodes
 * that must not straddle one more line than their size needs. Freed with pxi_free. */
void* pxi_alloc_aligned(const px_allocator* allocator, size_t size, size_t alignment);

/* Free a block from pxi_alloc or pxi_alloc_aligned; size must be the requested size. NULL is ignored. */
void pxi_free(const px_allocator* allocator, void* ptr, size_t size);

/* The poses of a world-space pair query: both normalized (px_transform_normalized), and B's pose relative
 * to A. na may be NULL when the caller does not need A's normalized pose. Returns the first error. */
px_status pxi_world_pair_poses(const px_transform* ta, const px_transform* tb, px_transform* na, px_transform* rel);

/* Multiply two sizes, or return false on overflow. */
static inline bool pxi_size_mul(size_t a, size_t b, size_t* dest)
{
    if (a != 0 && b > SIZE_MAX / a)
    {
        return false;
    }
    *dest = a * b;
    return true;
}
