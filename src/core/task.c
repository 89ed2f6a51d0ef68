/* The default thread pool behind task.h, on POSIX threads, and pxi_run_tasks, the helper of the batch queries.
 *
 * State. One mutex guards everything the threads share. Two condition variables go with it: idle threads sleep
 * on `wake` until a range is waiting or the pool stops, and the owner's thread sleeps on `done` in finish until
 * the last range of its job has completed. Before sleeping, a thread that has run out of work spins for up to
 * PXI_POOL_SPIN_NS on an atomic counter (pool threads on one that every enqueue bumps, finish on one that
 * every completed job bumps): a step of a world
 * is a few jobs of a fraction of a millisecond each with serial work between them, and waking a sleeping
 * thread costs tens of microseconds on a virtual machine, about what the second thread would save. An idle
 * pool sleeps: a thread spins once per idle period, never longer than that bound.
 *
 * Jobs. A job is one enqueue: a task and its items cut into range_count ranges of range_size items (the last
 * one shorter). Ranges are taken in order by bumping next_range under the lock, so each runs exactly once, and
 * done_count counts the completed ones. The jobs live in a fixed table inside the pool's single allocation, so
 * enqueue never allocates; when every slot is taken (that many enqueues without their finish), enqueue runs
 * the work on the calling thread and returns NULL, which task.h allows. The jobs that still have ranges to
 * hand out form a FIFO list through next_pending; pool threads take from the oldest, and finish takes the
 * remaining ranges of its own job, whatever its place in the list.
 *
 * Worker indices. The thread that enqueues and finishes (one at a time, says task.h) is worker 0, and pool
 * thread k is worker k for its whole life. An index thus belongs to a single thread, and no two ranges can run
 * at the same time with the same index.
 *
 * Cost. A range costs one lock round trip to take and one to count done. Enqueue cuts about
 * PXI_POOL_RANGES_PER_WORKER ranges per worker (enough to even out uneven ranges), so a job costs a few
 * dozen lock operations however many items it has.
 */
#define _POSIX_C_SOURCE 200809L

#include "core_internal.h"
#include "task_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Largest worker count (task.h: thread_count [Limit: <= 256]). */
#define PXI_POOL_MAX_WORKERS 256
/* Jobs enqueued and not yet finished; beyond this enqueue runs the work on the calling thread. */
#define PXI_POOL_MAX_JOBS 64
/* Ranges per worker when the items allow it: more balances uneven ranges better, fewer locks less. */
#define PXI_POOL_RANGES_PER_WORKER 4
/* How long a thread out of work spins before it sleeps. [Units: ns] */
#define PXI_POOL_SPIN_NS 200000

/* One enqueue, from enqueue to finish. Every field is read and written under the pool's mutex. */
typedef struct pool_job
{
    px_task_fn* task;
    void* context;
    int item_count;
    int range_size;
    int range_count;
    int next_range;   /* first range no thread has taken */
    int done_count;   /* ranges completed */
    int next_pending; /* next job in the pending list, or PX_NULL_INDEX */
    bool in_use;      /* enqueued and not yet finished */
} pool_job;

/* A started thread and the worker index it runs ranges with. */
typedef struct pool_thread
{
    pthread_t thread;
    px_thread_pool* pool;
    int worker;
} pool_thread;

struct px_thread_pool
{
    px_allocator allocator;
    size_t block_size;    /* bytes of the single allocation holding the pool and its thread records */
    int worker_count;     /* threads + the owner's thread */
    int thread_count;     /* threads started (worker_count - 1 once created) */
    bool stopping;        /* destroy was called: threads leave once no range is pending */
    int pending_head;     /* oldest job with ranges to hand out, or PX_NULL_INDEX */
    int pending_tail;     /* newest such job, or PX_NULL_INDEX */
    pthread_mutex_t mutex;
    pthread_cond_t wake;  /* a range is pending, or stopping */
    pthread_cond_t done;  /* some job completed its last range */
    atomic_uint enqueued;  /* bumped by every enqueue: what idle pool threads spin on */
    atomic_uint completed; /* bumped by every completed job: what finish spins on */
    pool_thread* threads; /* thread_count records, after the struct in the same block */
    pool_job jobs[PXI_POOL_MAX_JOBS];
};

/* Cut item_count > 0 items into ranges: about PXI_POOL_RANGES_PER_WORKER per worker, none smaller than
 * min_range >= 1 except the last. 64-bit arithmetic: item_count + size - 1 may exceed INT_MAX. */
static void split_items(int item_count, int min_range, int worker_count, int* range_size, int* range_count)
{
    int64_t target = (int64_t)worker_count * PXI_POOL_RANGES_PER_WORKER;
    int64_t size = ((int64_t)item_count + target - 1) / target;
    if (size < min_range)
    {
        size = min_range;
    }
    *range_size = (int)size;
    *range_count = (int)(((int64_t)item_count + size - 1) / size);
}

/* Remove job j from the pending list (it is in it). Lock held. */
static void unlink_pending(px_thread_pool* pool, int j)
{
    int prev = PX_NULL_INDEX;
    for (int k = pool->pending_head; k != j; k = pool->jobs[k].next_pending)
    {
        prev = k;
    }
    int next = pool->jobs[j].next_pending;
    if (prev == PX_NULL_INDEX)
    {
        pool->pending_head = next;
    }
    else
    {
        pool->jobs[prev].next_pending = next;
    }
    if (pool->pending_tail == j)
    {
        pool->pending_tail = prev;
    }
    pool->jobs[j].next_pending = PX_NULL_INDEX;
}

/* Take the next range of job j (which has one), run it unlocked with the given worker index, and count it
 * done. Lock held on entry and on return. */
static void run_next_range(px_thread_pool* pool, int j, int worker)
{
    pool_job* job = &pool->jobs[j];
    int range = job->next_range++;
    if (job->next_range == job->range_count)
    {
        unlink_pending(pool, j);
    }
    /* copies: the slot's fields stay put until finish sees this range done, but read them under the lock */
    px_task_fn* task = job->task;
    void* context = job->context;
    int begin = range * job->range_size; /* < item_count: no overflow */
    int end = range == job->range_count - 1 ? job->item_count : begin + job->range_size;

    pthread_mutex_unlock(&pool->mutex);
    task(begin, end, worker, context);
    pthread_mutex_lock(&pool->mutex);

    if (++job->done_count == job->range_count)
    {
        atomic_fetch_add_explicit(&pool->completed, 1u, memory_order_release);
        pthread_cond_broadcast(&pool->done);
    }
}

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

static int64_t monotonic_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

/* Spin, with the lock released, until *counter is no longer `seen` or PXI_POOL_SPIN_NS have passed. Lock
 * held on entry and on return. */
static void spin_unlocked(px_thread_pool* pool, atomic_uint* counter, unsigned seen)
{
    pthread_mutex_unlock(&pool->mutex);
    int64_t start = monotonic_ns();
    for (unsigned k = 1;; ++k)
    {
        if (atomic_load_explicit(counter, memory_order_acquire) != seen)
        {
            break;
        }
        cpu_relax();
        if ((k & 255u) == 0u && monotonic_ns() - start >= PXI_POOL_SPIN_NS)
        {
            break;
        }
    }
    pthread_mutex_lock(&pool->mutex);
}

/* A pool thread: run pending ranges, oldest job first; sleep when there are none; leave when stopping and
 * nothing is pending (so work queued before destroy still completes). */
static void* thread_main(void* arg)
{
    pool_thread* self = arg;
    px_thread_pool* pool = self->pool;
    pthread_mutex_lock(&pool->mutex);
    bool spun = false; /* this idle period has had its spin */
    for (;;)
    {
        if (pool->pending_head != PX_NULL_INDEX)
        {
            run_next_range(pool, pool->pending_head, self->worker);
            spun = false;
        }
        else if (pool->stopping)
        {
            break;
        }
        else if (!spun)
        {
            spin_unlocked(pool, &pool->enqueued, atomic_load_explicit(&pool->enqueued, memory_order_relaxed));
            spun = true;
        }
        else
        {
            pthread_cond_wait(&pool->wake, &pool->mutex);
            spun = false; /* woken: the next idle period spins again, even if others took the work */
        }
    }
    pthread_mutex_unlock(&pool->mutex);
    return NULL;
}

/* px_enqueue_task_fn of the pool (user_context is the pool). */
static void* pool_enqueue(px_task_fn* task, int item_count, int min_range, void* task_context, void* user_context)
{
    px_thread_pool* pool = user_context;
    if (task == NULL || item_count <= 0)
    {
        return NULL;
    }
    min_range = min_range < 1 ? 1 : min_range;
    if (pool == NULL || pool->thread_count == 0)
    {
        task(0, item_count, 0, task_context);
        return NULL;
    }
    int range_size, range_count;
    split_items(item_count, min_range, pool->worker_count, &range_size, &range_count);
    if (range_count == 1)
    {
        task(0, item_count, 0, task_context);
        return NULL;
    }

    pthread_mutex_lock(&pool->mutex);
    int j = 0;
    while (j < PXI_POOL_MAX_JOBS && pool->jobs[j].in_use)
    {
        ++j;
    }
    if (j == PXI_POOL_MAX_JOBS)
    {
        /* every slot is waiting for its finish: this thread (worker 0) does the work */
        pthread_mutex_unlock(&pool->mutex);
        task(0, item_count, 0, task_context);
        return NULL;
    }
    pool_job* job = &pool->jobs[j];
    job->task = task;
    job->context = task_context;
    job->item_count = item_count;
    job->range_size = range_size;
    job->range_count = range_count;
    job->next_range = 0;
    job->done_count = 0;
    job->next_pending = PX_NULL_INDEX;
    job->in_use = true;
    if (pool->pending_tail == PX_NULL_INDEX)
    {
        pool->pending_head = j;
    }
    else
    {
        pool->jobs[pool->pending_tail].next_pending = j;
    }
    pool->pending_tail = j;
    atomic_fetch_add_explicit(&pool->enqueued, 1u, memory_order_release);
    /* a thread per range, at most all of them: the work progresses even before finish is called (the
     * caller may enqueue more first), and finish takes whatever they have not started */
    if (range_count >= pool->thread_count)
    {
        pthread_cond_broadcast(&pool->wake);
    }
    else
    {
        for (int k = 0; k < range_count; ++k)
        {
            pthread_cond_signal(&pool->wake);
        }
    }
    pthread_mutex_unlock(&pool->mutex);
    return job;
}

/* px_finish_task_fn of the pool: run what is left of the job as worker 0, then wait for the ranges other
 * threads are running. A handle that is not an unfinished job of this pool is ignored. */
static void pool_finish(void* user_task, void* user_context)
{
    px_thread_pool* pool = user_context;
    if (pool == NULL || user_task == NULL)
    {
        return;
    }
    uintptr_t first = (uintptr_t)&pool->jobs[0];
    uintptr_t at = (uintptr_t)user_task;
    if (at < first || at >= first + sizeof(pool->jobs) || (at - first) % sizeof(pool_job) != 0)
    {
        return;
    }
    int j = (int)((at - first) / sizeof(pool_job));
    pool_job* job = &pool->jobs[j];

    pthread_mutex_lock(&pool->mutex);
    if (job->in_use)
    {
        while (job->next_range < job->range_count)
        {
            run_next_range(pool, j, 0);
        }
        bool spun = false;
        while (job->done_count < job->range_count)
        {
            if (!spun)
            {
                spin_unlocked(pool, &pool->completed, atomic_load_explicit(&pool->completed, memory_order_relaxed));
                spun = true;
            }
            else
            {
                pthread_cond_wait(&pool->done, &pool->mutex);
            }
        }
        job->in_use = false;
    }
    pthread_mutex_unlock(&pool->mutex);
}

/* Stop and join the started threads, release the synchronization objects and the block. */
static void pool_free(px_thread_pool* pool)
{
    pthread_mutex_lock(&pool->mutex);
    pool->stopping = true;
    pthread_cond_broadcast(&pool->wake);
    pthread_mutex_unlock(&pool->mutex);
    for (int k = 0; k < pool->thread_count; ++k)
    {
        pthread_join(pool->threads[k].thread, NULL);
    }
    pthread_cond_destroy(&pool->done);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->mutex);
    px_allocator allocator = pool->allocator; /* the block holds the allocator: copy it out first */
    pxi_free(&allocator, pool, pool->block_size);
}

static int online_processors(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
    {
        return 1;
    }
    return n > PXI_POOL_MAX_WORKERS ? PXI_POOL_MAX_WORKERS : (int)n;
}

px_status pxi_thread_pool_create_failing(int thread_count, const px_allocator* allocator, int fail_thread,
                                         px_thread_pool** pool)
{
    if (pool == NULL)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    *pool = NULL;
    px_allocator alloc;
    if (thread_count > PXI_POOL_MAX_WORKERS || pxi_allocator_resolve(allocator, &alloc) != PX_OK)
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    int worker_count = thread_count > 0 ? thread_count : online_processors();

    size_t threads_offset = (sizeof(px_thread_pool) + PXI_ALLOC_ALIGNMENT - 1) & ~(size_t)(PXI_ALLOC_ALIGNMENT - 1);
    size_t block_size = threads_offset + (size_t)(worker_count - 1) * sizeof(pool_thread);
    px_thread_pool* p = pxi_alloc(&alloc, block_size);
    if (p == NULL)
    {
        return PX_ERR_OUT_OF_MEMORY;
    }
    memset(p, 0, block_size);
    p->allocator = alloc;
    p->block_size = block_size;
    p->worker_count = worker_count;
    p->pending_head = PX_NULL_INDEX;
    p->pending_tail = PX_NULL_INDEX;
    atomic_init(&p->enqueued, 0u);
    atomic_init(&p->completed, 0u);
    p->threads = (pool_thread*)((unsigned char*)p + threads_offset);
    for (int j = 0; j < PXI_POOL_MAX_JOBS; ++j)
    {
        p->jobs[j].next_pending = PX_NULL_INDEX;
    }

    /* the init functions fail only for lack of resources */
    if (pthread_mutex_init(&p->mutex, NULL) != 0)
    {
        pxi_free(&alloc, p, block_size);
        return PX_ERR_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0)
    {
        pthread_mutex_destroy(&p->mutex);
        pxi_free(&alloc, p, block_size);
        return PX_ERR_OUT_OF_MEMORY;
    }
    if (pthread_cond_init(&p->done, NULL) != 0)
    {
        pthread_cond_destroy(&p->wake);
        pthread_mutex_destroy(&p->mutex);
        pxi_free(&alloc, p, block_size);
        return PX_ERR_OUT_OF_MEMORY;
    }

    for (int k = 1; k < worker_count; ++k)
    {
        pool_thread* t = &p->threads[k - 1];
        t->pool = p;
        t->worker = k;
        int err = k == fail_thread ? EAGAIN : pthread_create(&t->thread, NULL, thread_main, t);
        if (err != 0)
        {
            pool_free(p); /* joins the threads started so far */
            return PX_ERR_OUT_OF_MEMORY;
        }
        p->thread_count = k;
    }
    *pool = p;
    return PX_OK;
}

px_status px_thread_pool_create(int thread_count, const px_allocator* allocator, px_thread_pool** pool)
{
    return pxi_thread_pool_create_failing(thread_count, allocator, 0, pool);
}

void px_thread_pool_destroy(px_thread_pool* pool)
{
    if (pool != NULL)
    {
        pool_free(pool);
    }
}

int px_thread_pool_worker_count(const px_thread_pool* pool)
{
    return pool != NULL ? pool->worker_count : 0;
}

px_task_system px_thread_pool_task_system(px_thread_pool* pool)
{
    px_task_system tasks;
    memset(&tasks, 0, sizeof(tasks));
    if (pool != NULL)
    {
        tasks.enqueue = pool_enqueue;
        tasks.finish = pool_finish;
        tasks.user_context = pool;
        tasks.worker_count = pool->worker_count;
    }
    return tasks;
}

/* The conditions under which pxi_run_tasks may hand work to the task system. */
static bool tasks_usable(const px_task_system* tasks)
{
    return tasks != NULL && tasks->enqueue != NULL && tasks->finish != NULL && tasks->worker_count >= 1;
}

void pxi_run_tasks(const px_task_system* tasks, px_task_fn* fn, int item_count, int min_range, void* context)
{
    if (fn == NULL || item_count <= 0)
    {
        return;
    }
    min_range = min_range < 1 ? 1 : min_range;
    if (!tasks_usable(tasks) || item_count <= min_range)
    {
        fn(0, item_count, 0, context);
        return;
    }
    void* handle = tasks->enqueue(fn, item_count, min_range, context, tasks->user_context);
    if (handle != NULL)
    {
        tasks->finish(handle, tasks->user_context);
    }
}

int pxi_task_worker_count(const px_task_system* tasks)
{
    return tasks_usable(tasks) ? tasks->worker_count : 1;
}
