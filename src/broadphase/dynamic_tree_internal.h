/* Internal side of dynamic_tree.h: moving many proxies at once (the world's px_world_set_poses).
 *
 * A batch move is two steps. First, for every proxy, pxi_dynamic_tree_moved_box tells whether its new box
 * leaves the fat box and gives the new fat box; it only reads the tree, so the proxies can be split over
 * threads. Then pxi_dynamic_tree_reinsert moves the proxies that left: all of them are unlinked, the sibling
 * of each is searched in the tree that remains (read only again: on the task system), and they are linked in
 * the order given (batches below 32 proxies go one by one, as move_proxy would). The tree then differs from
 * the one a loop of px_dynamic_tree_move_proxy would build (each leaf is placed against the tree without the
 * others), never the set of proxies, their fat boxes or the move marks; and it is the same whatever the
 * thread count. */
#pragma once

#include "proxima/dynamic_tree.h"
#include "proxima/task.h"

/* What px_dynamic_tree_move_proxy(tree, proxy_id, aabb, displacement) would decide, without changing
 * anything: *leaves is set when aabb is not inside the proxy's fat box, and then *fat is the new fat box
 * (stretched by the displacement; a displacement that is not finite or overflows the box is ignored, where
 * move_proxy would refuse it). PX_ERR_INVALID_ARGUMENT (NULL aabb, invalid proxy, min > max),
 * PX_ERR_NON_FINITE (a non-finite box, or one that overflows when grown by the margin). */
px_status pxi_dynamic_tree_moved_box(const px_dynamic_tree* tree, int32_t proxy_id, const px_aabb* aabb,
                                     const float* displacement, px_aabb* fat, bool* leaves);

/* Give each proxies[k] (valid and distinct, as the caller checked) the fat box fats[k], reinsert it and
 * mark it as moved. siblings: scratch of count entries. Never allocates. */
void pxi_dynamic_tree_reinsert(px_dynamic_tree* tree, const int32_t* proxies, const px_aabb* fats, int count,
                               int32_t* siblings, const px_task_system* tasks);
