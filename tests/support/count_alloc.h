/* A counting allocator for the px_allocator hooks, for the out-of-memory tests (test_mesh, test_hull,
 * test_io): it counts calls, live blocks and live bytes, and fails the calls chosen by fail_at. One copy, so
 * that every suite fails allocations in the same way. */
#pragma once

#include <stddef.h>

#include "proxima/base.h"

typedef struct pxt_count_alloc
{
    int calls;       /* allocation calls so far, failed ones included */
    int fail_at;     /* 1-based call number that fails; 0 never; < 0 every call from -fail_at on */
    int live;        /* blocks allocated and not yet freed */
    long long bytes; /* bytes of those blocks: back to 0 only if every block was freed with its alloc size */
} pxt_count_alloc;

/* px_allocator.alloc over a pxt_count_alloc (user): aligned_alloc unless this call is to fail. */
void* pxt_count_alloc_fn(size_t size, size_t alignment, void* user);

/* px_allocator.free over a pxt_count_alloc (user). */
void pxt_count_free_fn(void* p, size_t size, void* user);

/* Reset state (counts zero, failing call fail_at) and return the allocator over it. */
px_allocator pxt_count_allocator(pxt_count_alloc* state, int fail_at);
