/* Per-object allocator hooks. There is no global allocator: every object that allocates stores the
 * px_allocator of its definition. The default aligns to PXI_ALLOC_ALIGNMENT with C11 aligned_alloc. */
#include "core_internal.h"

#include <stdlib.h>

static void* default_alloc(size_t size, size_t alignment, void* user)
{
    (void)user;
    /* aligned_alloc wants a size that is a multiple of the alignment */
    size_t rounded = (size + alignment - 1) & ~(alignment - 1);
    if (rounded < size)
    {
        return NULL;
    }
    return aligned_alloc(alignment, rounded);
}

static void default_free(void* ptr, size_t size, void* user)
{
    (void)size;
    (void)user;
    free(ptr);
}

px_status pxi_allocator_resolve(const px_allocator* in, px_allocator* out)
{
    if (in == NULL || (in->alloc == NULL && in->free == NULL))
    {
        out->alloc = default_alloc;
        out->free = default_free;
        out->user = NULL;
        return PX_OK;
    }
    if (in->alloc == NULL || in->free == NULL)
    {
        /* both or neither (the stb rule): a lone free could release memory it never saw */
        out->alloc = NULL;
        out->free = NULL;
        out->user = NULL;
        return PX_ERR_INVALID_ARGUMENT;
    }
    *out = *in;
    return PX_OK;
}

void* pxi_alloc(const px_allocator* allocator, size_t size)
{
    if (size == 0 || size > SIZE_MAX / 2)
    {
        return NULL;
    }
    return allocator->alloc(size, PXI_ALLOC_ALIGNMENT, allocator->user);
}

void* pxi_alloc_aligned(const px_allocator* allocator, size_t size, size_t alignment)
{
    if (size == 0 || size > SIZE_MAX / 2 || alignment < PXI_ALLOC_ALIGNMENT || (alignment & (alignment - 1)) != 0)
    {
        return NULL;
    }
    return allocator->alloc(size, alignment, allocator->user);
}

void pxi_free(const px_allocator* allocator, void* ptr, size_t size)
{
    if (ptr != NULL)
    {
        allocator->free(ptr, size, allocator->user);
    }
}
