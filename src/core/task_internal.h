/* Internal side of task.h: the helper every batch query uses to spread its items over a px_task_system, and a
 * test seam of the default thread pool. */
#pragma once

#include "proxima/base.h"
#include "proxima/task.h"

/* Run fn over items [0, item_count) through tasks, and return when every item is done. The work runs on the
 * calling thread, as fn(0, item_count, 0, context), when tasks is NULL, has no enqueue or no finish, has a
 * worker_count below 1, or when item_count <= min_range; also when enqueue returns NULL (it ran the work
 * itself). Otherwise it is one enqueue followed by one finish. Nothing happens for item_count <= 0, and
 * min_range < 1 counts as 1. A batch query is then two lines: a px_task_fn over its items, and this call. */
void pxi_run_tasks(const px_task_system* tasks, px_task_fn* fn, int item_count, int min_range, void* context);

/* The number of worker indices fn may see through pxi_run_tasks(tasks, ...): tasks->worker_count when the
 * work may go to the task system, 1 when it runs on the calling thread. Size per-worker scratch with it. */
int pxi_task_worker_count(const px_task_system* tasks);

/* px_thread_pool_create with a simulated failure to start thread number fail_thread (1 .. thread_count - 1;
 * any other value: no simulated failure), so the tests can reach the clean-up path of a failed
 * pthread_create deterministically. */
px_status pxi_thread_pool_create_failing(int thread_count, const px_allocator* allocator, int fail_thread,
                                         px_thread_pool** pool);
