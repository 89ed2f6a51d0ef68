/* Task system: the default thread pool (task.h) and pxi_run_tasks. Sums and per-item counters against the
 * serial answer, range bounds, exclusive worker indices (atomic busy flags per worker), several jobs in
 * flight, the inline paths, create/destroy cycles, allocation and thread-start failures, invalid arguments. */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/task_internal.h"
#include "proxima/task.h"
#include "test.h"

#define MAX_TEST_WORKERS 8

/* A value per item that no split can fake: a 64-bit mix of the index. */
static uint64_t item_value(int i)
{
    uint64_t z = (uint64_t)i * UINT64_C(0x9e3779b97f4a7c15) + UINT64_C(0x632be59bd9b4e5);
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Run tasks through the pool's task system directly (enqueue, then finish when a handle comes back). */
static void enqueue_and_finish(const px_task_system* tasks, px_task_fn* fn, int item_count, int min_range,
                               void* context)
{
    void* handle = tasks->enqueue(fn, item_count, min_range, context, tasks->user_context);
    if (handle != NULL)
    {
        tasks->finish(handle, tasks->user_context);
    }
}

/* ---------------------------------------------------------------------------------------------------------
 * Sums: per-worker accumulators, plain (not atomic) so that a worker index shared by two running ranges
 * would be a data race (ThreadSanitizer) and usually a wrong sum.
 * --------------------------------------------------------------------------------------------------------- */

typedef struct padded_sum
{
    _Alignas(64) uint64_t value;
} padded_sum;

typedef struct sum_context
{
    padded_sum sums[MAX_TEST_WORKERS];
    int worker_count;
    atomic_int bad_worker;
} sum_context;

static void sum_task(int begin, int end, int worker, void* context)
{
    sum_context* c = context;
    if (worker < 0 || worker >= c->worker_count)
    {
        atomic_store(&c->bad_worker, 1);
        return;
    }
    uint64_t s = 0;
    for (int i = begin; i < end; ++i)
    {
        s += item_value(i);
    }
    c->sums[worker].value += s;
}

static uint64_t sum_total(const sum_context* c)
{
    uint64_t total = 0;
    for (int w = 0; w < MAX_TEST_WORKERS; ++w)
    {
        total += c->sums[w].value;
    }
    return total;
}

static int sums_match_serial(void)
{
    const int n = 1000000;
    uint64_t serial = 0;
    for (int i = 0; i < n; ++i)
    {
        serial += item_value(i);
    }
    const int worker_counts[] = { 1, 2, 3, 8 };
    for (size_t k = 0; k < sizeof(worker_counts) / sizeof(worker_counts[0]); ++k)
    {
        px_thread_pool* pool = NULL;
        PX_CHECK_STATUS(px_thread_pool_create(worker_counts[k], NULL, &pool), PX_OK);
        PX_CHECK(px_thread_pool_worker_count(pool) == worker_counts[k]);
        px_task_system tasks = px_thread_pool_task_system(pool);
        PX_CHECK(tasks.worker_count == worker_counts[k] && tasks.enqueue != NULL && tasks.finish != NULL);
        for (int round = 0; round < 3; ++round)
        {
            static sum_context c;
            memset(&c, 0, sizeof(c));
            c.worker_count = worker_counts[k];
            if (round == 0)
            {
                pxi_run_tasks(&tasks, sum_task, n, 1000, &c);
            }
            else
            {
                enqueue_and_finish(&tasks, sum_task, n, round == 1 ? 1 : 50000, &c);
            }
            PX_CHECK(atomic_load(&c.bad_worker) == 0);
            PX_CHECK(sum_total(&c) == serial);
        }
        px_thread_pool_destroy(pool);
    }
    return 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Exactly once: a counter per item, and every range checked against the split rules.
 * --------------------------------------------------------------------------------------------------------- */

typedef struct count_context
{
    atomic_int* counters;
    int item_count;
    int min_range; /* as passed; values < 1 mean 1 */
    int worker_count;
    atomic_int ranges;
    atomic_int bad_range;
} count_context;

static void count_task(int begin, int end, int worker, void* context)
{
    count_context* c = context;
    atomic_fetch_add(&c->ranges, 1);
    int min_range = c->min_range < 1 ? 1 : c->min_range;
    if (begin < 0 || end <= begin || end > c->item_count || worker < 0 || worker >= c->worker_count ||
        (end - begin < min_range && end != c->item_count))
    {
        atomic_store(&c->bad_range, 1);
        return;
    }
    for (int i = begin; i < end; ++i)
    {
        atomic_fetch_add_explicit(&c->counters[i], 1, memory_order_relaxed);
    }
}

static void count_init(count_context* c, atomic_int* counters, int item_count, int min_range, int worker_count)
{
    for (int i = 0; i < item_count; ++i)
    {
        atomic_init(&counters[i], 0);
    }
    c->counters = counters;
    c->item_count = item_count;
    c->min_range = min_range;
    c->worker_count = worker_count;
    atomic_init(&c->ranges, 0);
    atomic_init(&c->bad_range, 0);
}

/* 0 when every item was counted once and every range was valid. */
static int count_verify(count_context* c)
{
    PX_CHECK(atomic_load(&c->bad_range) == 0);
    for (int i = 0; i < c->item_count; ++i)
    {
        if (atomic_load(&c->counters[i]) != 1)
        {
            fprintf(stderr, "item %d of %d (min_range %d, %d workers) counted %d times\n", i, c->item_count,
                    c->min_range, c->worker_count, atomic_load(&c->counters[i]));
            return 1;
        }
    }
    return 0;
}

static int every_item_once(void)
{
    const int item_counts[] = { 0, 1, 2, 7, 1000, 100003 };
    const int min_ranges[] = { -3, 0, 1, 3, 64, 1000, 200000 };
    const int worker_counts[] = { 1, 2, 3, 8 };
    atomic_int* counters = malloc(100003 * sizeof(atomic_int));
    PX_CHECK(counters != NULL);
    int failed = 0;
    for (size_t w = 0; w < sizeof(worker_counts) / sizeof(worker_counts[0]) && !failed; ++w)
    {
        int workers = worker_counts[w];
        px_thread_pool* pool = NULL;
        if (px_thread_pool_create(workers, NULL, &pool) != PX_OK)
        {
            failed = 1;
            break;
        }
        px_task_system tasks = px_thread_pool_task_system(pool);
        for (size_t n = 0; n < sizeof(item_counts) / sizeof(item_counts[0]) && !failed; ++n)
        {
            for (size_t m = 0; m < sizeof(min_ranges) / sizeof(min_ranges[0]) && !failed; ++m)
            {
                int count = item_counts[n], min_range = min_ranges[m];
                int effective_min = min_range < 1 ? 1 : min_range;
                for (int path = 0; path < 2 && !failed; ++path)
                {
                    count_context c;
                    count_init(&c, counters, count, min_range, workers);
                    void* handle = NULL;
                    if (path == 0)
                    {
                        pxi_run_tasks(&tasks, count_task, count, min_range, &c);
                    }
                    else
                    {
                        handle = tasks.enqueue(count_task, count, min_range, &c, tasks.user_context);
                        if (handle != NULL)
                        {
                            tasks.finish(handle, tasks.user_context);
                        }
                    }
                    int ranges = atomic_load(&c.ranges);
                    failed = count_verify(&c);
                    /* nothing to do: no call; one worker or one range: inline, no handle; otherwise split
                     * into 2 .. 4 ranges per worker */
                    bool single = workers == 1 || count <= effective_min;
                    bool ok = count == 0 ? ranges == 0 : (single ? ranges == 1 : ranges >= 2 && ranges <= 4 * workers);
                    ok = ok && (path == 0 || (handle == NULL) == (count == 0 || single));
                    if (!ok)
                    {
                        fprintf(stderr, "%d items, min_range %d, %d workers, path %d: %d ranges, handle %p\n", count,
                                min_range, workers, path, ranges, handle);
                        failed = 1;
                    }
                }
            }
        }
        px_thread_pool_destroy(pool);
    }
    free(counters);
    return failed;
}

/* ---------------------------------------------------------------------------------------------------------
 * Worker indices: atomic busy flags catch two running ranges with the same index; worker 0 is the thread
 * that calls finish, and the pool's threads are the others.
 * --------------------------------------------------------------------------------------------------------- */

typedef struct exclusive_context
{
    atomic_int busy[MAX_TEST_WORKERS];
    atomic_int shared;       /* a busy flag was already set */
    atomic_int wrong_thread; /* worker 0 off the caller's thread, or another worker on it */
    atomic_int seen;         /* bit w: worker w ran a range */
    atomic_uint_least64_t checksum;
    pthread_t caller;
    int worker_count;
} exclusive_context;

static void exclusive_task(int begin, int end, int worker, void* context)
{
    exclusive_context* c = context;
    if (worker < 0 || worker >= c->worker_count)
    {
        atomic_store(&c->shared, 1);
        return;
    }
    if (atomic_exchange(&c->busy[worker], 1) != 0)
    {
        atomic_store(&c->shared, 1);
    }
    if ((worker == 0) != (pthread_equal(pthread_self(), c->caller) != 0))
    {
        atomic_store(&c->wrong_thread, 1);
    }
    atomic_fetch_or(&c->seen, 1 << worker);
    uint64_t s = 0;
    for (int i = begin; i < end; ++i)
    {
        /* long enough that ranges overlap in time */
        uint64_t v = (uint64_t)i;
        for (int k = 0; k < 64; ++k)
        {
            v = item_value((int)(v & 0x7fffffff));
        }
        s += v;
    }
    atomic_fetch_add(&c->checksum, s);
    atomic_store(&c->busy[worker], 0);
}

static int worker_indices_exclusive(void)
{
    const int workers = MAX_TEST_WORKERS;
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(workers, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    static exclusive_context c;
    memset(&c, 0, sizeof(c));
    c.caller = pthread_self();
    c.worker_count = workers;
    for (int round = 0; round < 10; ++round)
    {
        /* three jobs in flight at once share the threads: indices must stay exclusive across jobs too */
        void* handles[3];
        for (int j = 0; j < 3; ++j)
        {
            handles[j] = tasks.enqueue(exclusive_task, 3000, 1, &c, tasks.user_context);
        }
        for (int j = 2; j >= 0; --j)
        {
            PX_CHECK(handles[j] != NULL);
            tasks.finish(handles[j], tasks.user_context);
        }
    }
    px_thread_pool_destroy(pool);
    PX_CHECK(atomic_load(&c.shared) == 0);
    PX_CHECK(atomic_load(&c.wrong_thread) == 0);
    PX_CHECK((atomic_load(&c.seen) & ~((1 << workers) - 1)) == 0);
    PX_CHECK(atomic_load(&c.checksum) != 0);
    return 0;
}

/* Two ranges on a two-worker pool run at the same time: each waits (up to 20 s) for the other to start.
 * Passes only if a pool thread takes a range while the caller runs the other in finish. The pool thread's
 * range then lingers 50 ms: finish must wait for it. */
typedef struct rendezvous_context
{
    atomic_int started;
    atomic_int met;
    atomic_int workers_seen;
} rendezvous_context;

static void rendezvous_task(int begin, int end, int worker, void* context)
{
    (void)begin;
    (void)end;
    rendezvous_context* c = context;
    atomic_fetch_or(&c->workers_seen, 1 << worker);
    atomic_fetch_add(&c->started, 1);
    struct timespec nap = { 0, 200000 };
    for (int k = 0; k < 100000 && atomic_load(&c->started) < 2; ++k)
    {
        nanosleep(&nap, NULL);
    }
    if (atomic_load(&c->started) >= 2)
    {
        if (worker != 0)
        {
            struct timespec linger = { 0, 50000000 };
            nanosleep(&linger, NULL);
        }
        atomic_fetch_add(&c->met, 1);
    }
}

static int ranges_run_in_parallel(void)
{
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(2, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    rendezvous_context c;
    atomic_init(&c.started, 0);
    atomic_init(&c.met, 0);
    atomic_init(&c.workers_seen, 0);
    void* handle = tasks.enqueue(rendezvous_task, 2, 1, &c, tasks.user_context);
    PX_CHECK(handle != NULL);
    tasks.finish(handle, tasks.user_context);
    int started = atomic_load(&c.started), met = atomic_load(&c.met), seen = atomic_load(&c.workers_seen);
    px_thread_pool_destroy(pool);
    PX_CHECK(started == 2);
    PX_CHECK(met == 2);
    PX_CHECK(seen == 3); /* workers 0 and 1 */
    return 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Several jobs in flight; more than the pool's job table; destroy with work still queued.
 * --------------------------------------------------------------------------------------------------------- */

static int several_enqueues(void)
{
    enum { JOBS = 10, ITEMS = 4000 };
    static atomic_int counters[JOBS][ITEMS];
    count_context c[JOBS];
    void* handles[JOBS];
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(3, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    for (int j = 0; j < JOBS; ++j)
    {
        int count = 100 + j * 390;
        count_init(&c[j], counters[j], count, j % 4 + 1, 3);
        handles[j] = tasks.enqueue(count_task, count, c[j].min_range, &c[j], tasks.user_context);
        PX_CHECK(handles[j] != NULL);
        for (int k = 0; k < j; ++k)
        {
            PX_CHECK(handles[k] != handles[j]);
        }
    }
    /* finish out of order: last, first, second to last, second, ... */
    for (int k = 0; k < JOBS; ++k)
    {
        int j = k % 2 == 0 ? JOBS - 1 - k / 2 : k / 2;
        tasks.finish(handles[j], tasks.user_context);
        PX_CHECK(count_verify(&c[j]) == 0);
    }
    px_thread_pool_destroy(pool);
    return 0;
}

static int more_jobs_than_slots(void)
{
    enum { JOBS = 100, ITEMS = 500, SLOTS = 64 };
    static atomic_int counters[JOBS][ITEMS];
    static count_context c[JOBS];
    void* handles[JOBS];
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(4, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    for (int round = 0; round < 2; ++round)
    {
        for (int j = 0; j < JOBS; ++j)
        {
            count_init(&c[j], counters[j], ITEMS, 10, 4);
            handles[j] = tasks.enqueue(count_task, ITEMS, 10, &c[j], tasks.user_context);
            /* the first SLOTS get handles; the rest ran on this thread before enqueue returned */
            PX_CHECK((handles[j] != NULL) == (j < SLOTS));
            if (handles[j] == NULL)
            {
                PX_CHECK(count_verify(&c[j]) == 0);
                PX_CHECK(atomic_load(&c[j].ranges) == 1);
            }
        }
        for (int j = JOBS - 1; j >= 0; --j)
        {
            if (handles[j] != NULL)
            {
                tasks.finish(handles[j], tasks.user_context);
            }
            PX_CHECK(count_verify(&c[j]) == 0);
        }
    }
    px_thread_pool_destroy(pool);
    return 0;
}

/* Ranges that hold their thread until a gate opens. */
typedef struct gate_context
{
    atomic_int started;
    atomic_int open;
} gate_context;

static void gate_task(int begin, int end, int worker, void* context)
{
    (void)begin;
    (void)end;
    (void)worker;
    gate_context* g = context;
    atomic_fetch_add(&g->started, 1);
    struct timespec nap = { 0, 200000 };
    for (int k = 0; k < 100000 && atomic_load(&g->open) == 0; ++k)
    {
        nanosleep(&nap, NULL);
    }
}

static void* open_gate_later(void* arg)
{
    gate_context* g = arg;
    struct timespec delay = { 0, 50000000 };
    nanosleep(&delay, NULL);
    atomic_store(&g->open, 1);
    return NULL;
}

static int destroy_finishes_queued_work(void)
{
    enum { ITEMS = 20000 };
    static atomic_int counters[ITEMS];
    count_context c;
    gate_context g;
    atomic_init(&g.started, 0);
    atomic_init(&g.open, 0);
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(3, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    /* both pool threads held by the gate's two ranges, so the counting job is still queued at destroy */
    PX_CHECK(tasks.enqueue(gate_task, 2, 1, &g, tasks.user_context) != NULL);
    struct timespec nap = { 0, 200000 };
    for (int k = 0; k < 100000 && atomic_load(&g.started) < 2; ++k)
    {
        nanosleep(&nap, NULL);
    }
    PX_CHECK(atomic_load(&g.started) == 2);
    count_init(&c, counters, ITEMS, 1, 3);
    PX_CHECK(tasks.enqueue(count_task, ITEMS, 1, &c, tasks.user_context) != NULL);
    PX_CHECK(atomic_load(&c.ranges) == 0);
    pthread_t opener;
    PX_CHECK(pthread_create(&opener, NULL, open_gate_later, &g) == 0);
    px_thread_pool_destroy(pool); /* no finish: the threads complete the queued work before they leave */
    pthread_join(opener, NULL);
    PX_CHECK(count_verify(&c) == 0);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Inline paths of pxi_run_tasks and a user scheduler.
 * --------------------------------------------------------------------------------------------------------- */

typedef struct call_log
{
    int calls;
    int begin, end, worker;
    bool on_caller;
    pthread_t caller;
} call_log;

static void log_task(int begin, int end, int worker, void* context)
{
    call_log* log = context;
    log->calls++;
    log->begin = begin;
    log->end = end;
    log->worker = worker;
    log->on_caller = pthread_equal(pthread_self(), log->caller) != 0;
}

typedef struct fake_scheduler
{
    int enqueues;
    int finishes;
    bool return_handle; /* run the task in two halves and hand back a handle, or run it and return NULL */
    void* last_handle;
    void* finished_handle;
} fake_scheduler;

static void* fake_enqueue(px_task_fn* task, int item_count, int min_range, void* task_context, void* user_context)
{
    (void)min_range;
    fake_scheduler* s = user_context;
    s->enqueues++;
    if (!s->return_handle)
    {
        task(0, item_count, 0, task_context);
        return NULL;
    }
    task(0, item_count / 2, 1, task_context);
    task(item_count / 2, item_count, 0, task_context);
    s->last_handle = &s->last_handle;
    return s->last_handle;
}

static void fake_finish(void* user_task, void* user_context)
{
    fake_scheduler* s = user_context;
    s->finishes++;
    s->finished_handle = user_task;
}

/* 0 when pxi_run_tasks ran fn once, inline, over all n items as worker 0. */
static int expect_inline(const px_task_system* tasks, int n, int min_range)
{
    call_log log;
    memset(&log, 0, sizeof(log));
    log.caller = pthread_self();
    log.worker = -1;
    pxi_run_tasks(tasks, log_task, n, min_range, &log);
    PX_CHECK(log.calls == 1 && log.begin == 0 && log.end == n && log.worker == 0 && log.on_caller);
    return 0;
}

static int inline_paths(void)
{
    PX_CHECK(expect_inline(NULL, 1000, 1) == 0);
    PX_CHECK(pxi_task_worker_count(NULL) == 1);
    px_task_system zero;
    memset(&zero, 0, sizeof(zero));
    PX_CHECK(expect_inline(&zero, 1000, 1) == 0);
    PX_CHECK(pxi_task_worker_count(&zero) == 1);

    /* nothing to do: fn is not called; a NULL fn is ignored */
    call_log log;
    memset(&log, 0, sizeof(log));
    pxi_run_tasks(NULL, log_task, 0, 1, &log);
    pxi_run_tasks(NULL, log_task, -5, 1, &log);
    PX_CHECK(log.calls == 0);
    pxi_run_tasks(NULL, NULL, 10, 1, &log);

    fake_scheduler s;
    memset(&s, 0, sizeof(s));
    px_task_system user = { fake_enqueue, fake_finish, &s, 2 };
    PX_CHECK(pxi_task_worker_count(&user) == 2);
    /* enqueue returns NULL: it ran the work, finish is not called */
    PX_CHECK(expect_inline(&user, 1000, 1) == 0);
    PX_CHECK(s.enqueues == 1 && s.finishes == 0);
    /* few items (one range): inline, enqueue not called */
    PX_CHECK(expect_inline(&user, 16, 16) == 0);
    PX_CHECK(expect_inline(&user, 1, 0) == 0);
    PX_CHECK(s.enqueues == 1);
    /* a handle comes back: finish gets exactly it, once */
    s.return_handle = true;
    memset(&log, 0, sizeof(log));
    pxi_run_tasks(&user, log_task, 1000, 10, &log);
    PX_CHECK(s.enqueues == 2 && s.finishes == 1 && s.finished_handle == s.last_handle);
    PX_CHECK(log.calls == 2);

    /* enqueue without finish, or a worker count below 1: not usable, inline */
    px_task_system no_finish = { fake_enqueue, NULL, &s, 2 };
    PX_CHECK(expect_inline(&no_finish, 1000, 1) == 0);
    PX_CHECK(pxi_task_worker_count(&no_finish) == 1);
    px_task_system no_workers = { fake_enqueue, fake_finish, &s, 0 };
    PX_CHECK(expect_inline(&no_workers, 1000, 1) == 0);
    PX_CHECK(s.enqueues == 2 && s.finishes == 1);

    /* a one-worker pool runs everything inline in enqueue */
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(1, NULL, &pool), PX_OK);
    px_task_system one = px_thread_pool_task_system(pool);
    PX_CHECK(one.worker_count == 1 && pxi_task_worker_count(&one) == 1);
    PX_CHECK(expect_inline(&one, 100000, 1) == 0);
    memset(&log, 0, sizeof(log));
    log.caller = pthread_self();
    PX_CHECK(one.enqueue(log_task, 5000, 1, &log, one.user_context) == NULL);
    PX_CHECK(log.calls == 1 && log.begin == 0 && log.end == 5000 && log.worker == 0 && log.on_caller);
    px_thread_pool_destroy(pool);
    return 0;
}

/* ---------------------------------------------------------------------------------------------------------
 * Lifetime: many pools, allocation and thread-start failures, invalid arguments.
 * --------------------------------------------------------------------------------------------------------- */

static int create_destroy_many(void)
{
    static atomic_int counters[300];
    for (int k = 0; k < 100; ++k)
    {
        int workers = k % 8 + 1;
        px_thread_pool* pool = NULL;
        PX_CHECK_STATUS(px_thread_pool_create(workers, NULL, &pool), PX_OK);
        PX_CHECK(px_thread_pool_worker_count(pool) == workers);
        if (k % 3 == 0)
        {
            px_task_system tasks = px_thread_pool_task_system(pool);
            count_context c;
            count_init(&c, counters, 300, 1, workers);
            pxi_run_tasks(&tasks, count_task, 300, 1, &c);
            PX_CHECK(count_verify(&c) == 0);
        }
        px_thread_pool_destroy(pool);
    }
    /* thread_count <= 0: one worker per online processor */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int expected = online < 1 ? 1 : (online > 256 ? 256 : (int)online);
    const int automatic[] = { 0, -1 };
    for (int k = 0; k < 2; ++k)
    {
        px_thread_pool* pool = NULL;
        PX_CHECK_STATUS(px_thread_pool_create(automatic[k], NULL, &pool), PX_OK);
        PX_CHECK(px_thread_pool_worker_count(pool) == expected);
        px_thread_pool_destroy(pool);
    }
    /* the largest pool */
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(px_thread_pool_create(256, NULL, &pool), PX_OK);
    PX_CHECK(px_thread_pool_worker_count(pool) == 256);
    px_task_system tasks = px_thread_pool_task_system(pool);
    count_context c;
    count_init(&c, counters, 300, 1, 256);
    pxi_run_tasks(&tasks, count_task, 300, 1, &c);
    PX_CHECK(count_verify(&c) == 0);
    px_thread_pool_destroy(pool);
    return 0;
}

typedef struct failing_allocator
{
    int calls;   /* allocations asked for */
    int fail_at; /* the one that fails (1-based); 0: none */
    int live;    /* blocks not yet freed */
    size_t live_bytes;
} failing_allocator;

static void* failing_alloc(size_t size, size_t alignment, void* user)
{
    failing_allocator* a = user;
    if (++a->calls == a->fail_at)
    {
        return NULL;
    }
    void* p = aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
    if (p != NULL)
    {
        a->live++;
        a->live_bytes += size;
    }
    return p;
}

static void failing_free(void* p, size_t size, void* user)
{
    failing_allocator* a = user;
    a->live--;
    a->live_bytes -= size;
    free(p);
}

static int allocation_failure(void)
{
    static atomic_int counters[1000];
    int failures = 0;
    bool created = false;
    for (int k = 1; k <= 16 && !created; ++k)
    {
        failing_allocator fa = { 0, k, 0, 0 };
        px_allocator allocator = { failing_alloc, failing_free, &fa };
        px_thread_pool* pool = (px_thread_pool*)&fa; /* must be overwritten */
        px_status status = px_thread_pool_create(4, &allocator, &pool);
        if (status == PX_ERR_OUT_OF_MEMORY)
        {
            ++failures;
            PX_CHECK(pool == NULL);
            PX_CHECK(fa.live == 0 && fa.live_bytes == 0);
            continue;
        }
        PX_CHECK_STATUS(status, PX_OK);
        PX_CHECK(fa.live > 0);
        created = true;
        px_task_system tasks = px_thread_pool_task_system(pool);
        count_context c;
        count_init(&c, counters, 1000, 1, 4);
        pxi_run_tasks(&tasks, count_task, 1000, 1, &c);
        PX_CHECK(count_verify(&c) == 0);
        int calls = fa.calls;
        px_thread_pool_destroy(pool);
        PX_CHECK(fa.calls == calls); /* enqueue, finish and destroy never allocate */
        PX_CHECK(fa.live == 0 && fa.live_bytes == 0);
    }
    PX_CHECK(created && failures >= 1);

    /* a thread that cannot start: the threads started before it are stopped and joined, nothing leaks */
    for (int k = 1; k < 6; ++k)
    {
        failing_allocator fa = { 0, 0, 0, 0 };
        px_allocator allocator = { failing_alloc, failing_free, &fa };
        px_thread_pool* pool = (px_thread_pool*)&fa;
        PX_CHECK_STATUS(pxi_thread_pool_create_failing(6, &allocator, k, &pool), PX_ERR_OUT_OF_MEMORY);
        PX_CHECK(pool == NULL);
        PX_CHECK(fa.calls >= 1 && fa.live == 0 && fa.live_bytes == 0);
    }
    /* out of range: no simulated failure */
    px_thread_pool* pool = NULL;
    PX_CHECK_STATUS(pxi_thread_pool_create_failing(6, NULL, 6, &pool), PX_OK);
    PX_CHECK(px_thread_pool_worker_count(pool) == 6);
    px_thread_pool_destroy(pool);
    return 0;
}

static int invalid_arguments(void)
{
    PX_CHECK_STATUS(px_thread_pool_create(4, NULL, NULL), PX_ERR_INVALID_ARGUMENT);
    int dummy = 0;
    px_thread_pool* pool = (px_thread_pool*)&dummy;
    PX_CHECK_STATUS(px_thread_pool_create(257, NULL, &pool), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(pool == NULL);
    failing_allocator fa = { 0, 0, 0, 0 };
    px_allocator half = { failing_alloc, NULL, &fa };
    pool = (px_thread_pool*)&dummy;
    PX_CHECK_STATUS(px_thread_pool_create(2, &half, &pool), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(pool == NULL && fa.calls == 0);
    px_allocator other_half = { NULL, failing_free, &fa };
    PX_CHECK_STATUS(px_thread_pool_create(2, &other_half, &pool), PX_ERR_INVALID_ARGUMENT);
    PX_CHECK(pool == NULL);

    PX_CHECK(px_thread_pool_worker_count(NULL) == 0);
    px_task_system none = px_thread_pool_task_system(NULL);
    PX_CHECK(none.enqueue == NULL && none.finish == NULL && none.user_context == NULL && none.worker_count == 0);
    px_thread_pool_destroy(NULL);

    /* a real pool: NULL task and empty work give no handle; finish ignores NULL and foreign handles */
    PX_CHECK_STATUS(px_thread_pool_create(3, NULL, &pool), PX_OK);
    px_task_system tasks = px_thread_pool_task_system(pool);
    PX_CHECK(tasks.enqueue(NULL, 1000, 1, NULL, tasks.user_context) == NULL);
    call_log log;
    memset(&log, 0, sizeof(log));
    PX_CHECK(tasks.enqueue(log_task, 0, 1, &log, tasks.user_context) == NULL);
    PX_CHECK(tasks.enqueue(log_task, -7, 1, &log, tasks.user_context) == NULL);
    PX_CHECK(log.calls == 0);
    tasks.finish(NULL, tasks.user_context);
    tasks.finish(&dummy, tasks.user_context);
    static atomic_int counters[5000];
    count_context c;
    count_init(&c, counters, 5000, 1, 3);
    void* handle = tasks.enqueue(count_task, 5000, 1, &c, tasks.user_context);
    PX_CHECK(handle != NULL);
    tasks.finish(handle, tasks.user_context);
    tasks.finish(handle, tasks.user_context); /* a second finish of the same handle does nothing */
    PX_CHECK(count_verify(&c) == 0);
    px_thread_pool_destroy(pool);
    return 0;
}

int test_task(void)
{
    PX_SUITE_BEGIN;
    PX_RUN_SUBTEST(sums_match_serial);
    PX_RUN_SUBTEST(every_item_once);
    PX_RUN_SUBTEST(worker_indices_exclusive);
    PX_RUN_SUBTEST(ranges_run_in_parallel);
    PX_RUN_SUBTEST(several_enqueues);
    PX_RUN_SUBTEST(more_jobs_than_slots);
    PX_RUN_SUBTEST(destroy_finishes_queued_work);
    PX_RUN_SUBTEST(inline_paths);
    PX_RUN_SUBTEST(create_destroy_many);
    PX_RUN_SUBTEST(allocation_failure);
    PX_RUN_SUBTEST(invalid_arguments);
    PX_SUITE_END;
}
