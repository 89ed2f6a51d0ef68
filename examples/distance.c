/* Distance between a box and a capsule: the README's first example. */
#include <proxima/proxima.h>
#include <stdio.h>

int main(void)
{
    px_shape box = px_shape_box((vec3){ 1.0f, 0.5f, 1.0f });
    px_shape capsule = px_shape_capsule(0.8f, 0.25f); /* axis along local y */
    px_transform box_pose = PX_TRANSFORM_IDENTITY_INIT;
    px_transform capsule_pose = { { 0.0f, 0.0f, 0.3826834f, 0.9238795f }, { 2.5f, 1.0f, 0.0f } }; /* 45 deg about z */

    px_gjk_result r;
    px_status status = px_gjk_distance_world(&box, &box_pose, &capsule, &capsule_pose, NULL, &r);
    if (status != PX_OK)
    {
        fprintf(stderr, "distance failed: %s\n", px_status_string(status));
        return 1;
    }
    printf("distance %.6f, on box (%.3f %.3f %.3f), on capsule (%.3f %.3f %.3f), %d iterations\n", r.distance,
           r.point_a[0], r.point_a[1], r.point_a[2], r.point_b[0], r.point_b[1], r.point_b[2], r.iterations);
    return r.distance > 0.0f ? 0 : 1;
}
