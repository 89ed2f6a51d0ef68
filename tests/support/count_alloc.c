/* The counting allocator of the out-of-memory tests (count_alloc.h). */
#include "count_alloc.h"

#include <stdlib.h>
#include <string.h>

void* pxt_count_alloc_fn(size_t size, size_t alignment, void* user)
{
    pxt_count_alloc* s = user;
    s->calls++;
    if (s->calls == s->fail_at || (s->fail_at < 0 && s->calls >= -s->fail_at))
    {
        return NULL;
    }
    void* p = aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
    if (p != NULL)
    {
        s->live++;
        s->bytes += (long long)size;
    }
    return p;
}

void pxt_count_free_fn(void* p, size_t size, void* user)
{
    pxt_count_alloc* s = user;
    s->live--;
    s->bytes -= (long long)size;
    free(p);
}

px_allocator pxt_count_allocator(pxt_count_alloc* state, int fail_at)
{
    memset(state, 0, sizeof(*state));
    state->fail_at = fail_at;
    px_allocator a = { pxt_count_alloc_fn, pxt_count_free_fn, state };
    return a;
}
