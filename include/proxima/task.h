/// @file task.h
/// Running work across threads: a task-system interface any job scheduler can implement, and a small default
/// thread pool that implements it.
///
/// proxima never starts threads by itself. A query that can use several threads (batch ray casts, tiled
/// rasterization, a world step) takes a px_task_system. It splits its items into ranges and hands them to
/// `enqueue`, then waits for them with `finish`, the way Box2D v3 hands its solver work to the application's
/// scheduler. A NULL task system, or one whose enqueue returns NULL, runs the work on the calling thread.
///
/// Results never depend on how the work was split or how many threads ran it: every item writes only its own
/// output, and any reduction happens in item order after `finish`.
#pragma once

#include "proxima/base.h"

#ifdef __cplusplus
extern "C"
{
#endif

    /// A piece of work: process items [begin, end). worker is in [0, worker_count) and no two ranges run at the
    /// same time with the same worker index, so a task may keep per-worker scratch space indexed by it.
    typedef void px_task_fn(int begin, int end, int worker, void* task_context);

    /// Start running task over item_count items, split into ranges of at least min_range items (the last one
    /// may be shorter). Return a handle for finish, or NULL after running all of it on the calling thread (as
    /// task(0, item_count, 0, task_context)). The default pool treats min_range < 1 as 1 and does nothing for
    /// item_count <= 0 (returning NULL).
    typedef void* px_enqueue_task_fn(px_task_fn* task, int item_count, int min_range, void* task_context,
                                     void* user_context);

    /// Wait until the work behind a handle from enqueue has completed. Call it once per handle; the handle is
    /// invalid afterwards.
    typedef void px_finish_task_fn(void* user_task, void* user_context);

    /// A scheduler. All-zero (or a NULL pointer where one is taken) runs everything on the calling thread.
    typedef struct px_task_system
    {
        px_enqueue_task_fn* enqueue; ///< Starts work (NULL: the caller's thread does it)
        px_finish_task_fn* finish;   ///< Waits for work (required when enqueue is set)
        void* user_context;          ///< Passed to enqueue and finish
        int worker_count;            ///< Largest worker index + 1 that tasks may see [Limit: >= 1 when enqueue is set]
    } px_task_system;

    /// The default thread pool: worker_count - 1 threads plus the thread that calls finish, which works too.
    ///
    /// Idle threads sleep (they use no processor time). Enqueue cuts the items into about 4 ranges per worker
    /// (none smaller than min_range but the last) and wakes the threads; finish runs the ranges nobody has
    /// taken yet on the calling thread, as worker 0, then waits for the rest. Pool thread k is always worker
    /// k. Up to 64 enqueues may wait for their finish, in any order; beyond that, and whenever the items make
    /// a single range or the pool has one worker, enqueue runs the work on the calling thread and returns
    /// NULL. Enqueue never allocates.
    typedef struct px_thread_pool px_thread_pool;

    /// Start a pool of threads. thread_count <= 0 picks the number of online processors.
    /// @param[in]  thread_count  Workers including the caller's thread [Limit: <= 256]
    /// @param[in]  allocator     Memory for the pool (NULL: malloc/free)
    /// @param[out] pool          The new pool; NULL on error
    /// @return PX_OK; PX_ERR_INVALID_ARGUMENT (NULL pool, thread_count > 256, half an allocator);
    ///         PX_ERR_OUT_OF_MEMORY (also when a thread cannot be started; nothing leaked)
    PX_API PX_NODISCARD px_status px_thread_pool_create(int thread_count, const px_allocator* allocator,
                                                        px_thread_pool** pool);

    /// Stop the threads and free the pool. Work still queued is finished first. NULL is ignored.
    PX_API void px_thread_pool_destroy(px_thread_pool* pool);

    /// Number of workers, the caller's thread included (0 for NULL).
    PX_API int px_thread_pool_worker_count(const px_thread_pool* pool);

    /// The pool as a task system for the queries that take one (all-zero for a NULL pool: runs inline).
    /// One thread at a time may use it, and a task must not enqueue on the pool that runs it.
    PX_API px_task_system px_thread_pool_task_system(px_thread_pool* pool);

#ifdef __cplusplus
}
#endif
