// proxima proximity benchmark: the minimum clearance per step between a robot of convex pieces and a static
// environment mesh, proxima's px_world against FCL 0.7's DynamicAABBTreeCollisionManager, the same scene and
// the same poses in one process.
//
// Scene: FCL's own distance benchmark meshes, env.obj (2180 triangles) and rob.obj (216 triangles; --data DIR,
// else $PROXIMA_DATA_DIR, else the folder configured at build time). The robot is cut into its connected
// components (welded by exact position: a desk top and three legs) and each is wrapped by px_hull_create; both
// libraries get these hulls, bit for bit: proxima as px_shape_from_hull bodies, FCL as fcl::Convex<double>
// (the hull's vertices and faces). The environment is one static body: a px_mesh in proxima, an
// fcl::BVHModel<OBBRSS<double>> in FCL (FCL computes convex-vs-mesh distance with an OBBRSS tree and GJK).
// The robot follows robot_example's path (61 poses between 6 waypoints: past the east wall, a table, chairs).
//
// Per step, each library moves the pieces and answers "how far is the robot from the environment":
//   - proxima, safety query: px_world_set_pose of every piece, then px_world_proximity(threshold 400): every
//     piece-environment pair within 400 with its distance and witness points; the clearance is their minimum.
//   - proxima, all pairs: the same with a threshold beyond the scene (20000): every piece's exact distance.
//   - FCL: setTransform + computeAABB of every piece, the robot manager's update(), then
//     robot_manager.distance(environment_manager, DefaultDistanceData, DefaultDistanceFunction) with nearest
//     points requested (proxima always computes them): the minimum over the pairs, pruned by FCL's broadphase.
// Agreement: each step's minimum from both must agree within 1e-4 relative (printed: the largest difference).
// Timing: every step is run by each library in turn (order rotating), 'rounds' times after one warm-up round;
// per step the median over rounds; the table gives the median over steps, the sum over the path and the
// paired ratio FCL / proxima (median over steps of the per-step ratio; above 1: proxima is faster).
//
// Usage: bench_proximity [--quick] [--cpu-clock] [--data DIR]

#include "proxima/proxima.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#if PXB_HAVE_FCL
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/broadphase/default_broadphase_callbacks.h>
#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/geometry/shape/convex.h>
#include <fcl/math/bv/OBBRSS.h>
#include <fcl/narrowphase/collision_object.h>
#endif

#ifndef PXB_DATA_DIR
#define PXB_DATA_DIR "../shared/data"
#endif

namespace
{

const double kPi = 3.14159265358979323846;
const double kAgreeRelative = 1e-4;
const float kSafetyThreshold = 400.0f;
const float kAllThreshold = 20000.0f;

#include "bench_util.hpp" // now_ns, time_ns, median, options

// robot_example's path: centre (x, y, z) and heading (degrees about z)
const float kWaypoints[][4] = {
    { 300.0f, -2200.0f, 500.0f, 0.0f }, { 420.0f, -1200.0f, 500.0f, 0.0f },  { -150.0f, -300.0f, 500.0f, 90.0f },
    { 0.0f, 250.0f, 520.0f, 135.0f },   { 150.0f, 250.0f, 500.0f, 180.0f }, { 180.0f, -900.0f, 500.0f, 270.0f },
};
const int kWaypointCount = (int)(sizeof kWaypoints / sizeof kWaypoints[0]);

px_transform path_pose(int step, int steps)
{
    float s = (float)step / (float)(steps - 1) * (float)(kWaypointCount - 1);
    int i = std::min((int)s, kWaypointCount - 2);
    float f = s - (float)i;
    const float* a = kWaypoints[i];
    const float* b = kWaypoints[i + 1];
    float yaw = ((1.0f - f) * a[3] + f * b[3]) * 3.14159265f / 180.0f;
    px_transform pose;
    for (int c = 0; c < 3; ++c)
    {
        pose.p[c] = (1.0f - f) * a[c] + f * b[c];
    }
    pose.q[0] = 0.0f;
    pose.q[1] = 0.0f;
    pose.q[2] = std::sin(0.5f * yaw);
    pose.q[3] = std::cos(0.5f * yaw);
    return pose;
}

/// The robot's triangles grouped by connected component (vertices welded by exact position).
std::vector<std::vector<float>> component_points(const px_mesh* mesh)
{
    const float* v = px_mesh_vertices(mesh);
    const int32_t* idx = px_mesh_indices(mesh);
    int nv = px_mesh_vertex_count(mesh), nt = px_mesh_triangle_count(mesh);
    std::vector<int> order(nv), weld(nv), parent(nv);
    for (int i = 0; i < nv; ++i)
    {
        order[i] = i;
        parent[i] = i;
    }
    auto less = [&](int a, int b) { return std::lexicographical_compare(v + 3 * a, v + 3 * a + 3, v + 3 * b, v + 3 * b + 3); };
    std::sort(order.begin(), order.end(), less);
    for (int i = 0; i < nv; ++i)
    {
        weld[order[i]] = (i > 0 && !less(order[i - 1], order[i])) ? weld[order[i - 1]] : order[i];
    }
    auto find = [&](int i) {
        while (parent[i] != i)
        {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        return i;
    };
    for (int t = 0; t < nt; ++t)
    {
        for (int k = 1; k < 3; ++k)
        {
            parent[find(weld[idx[3 * t + k]])] = find(weld[idx[3 * t]]);
        }
    }
    std::vector<int> label(nv, -1);
    std::vector<std::vector<float>> parts;
    for (int t = 0; t < nt; ++t)
    {
        int r = find(weld[idx[3 * t]]);
        if (label[r] < 0)
        {
            label[r] = (int)parts.size();
            parts.emplace_back();
        }
        for (int k = 0; k < 3; ++k)
        {
            const float* p = v + 3 * idx[3 * t + k];
            parts[label[r]].insert(parts[label[r]].end(), p, p + 3);
        }
    }
    return parts;
}

} // namespace

int main(int argc, char** argv)
{
    bool quick = false;
    std::string csv_path, data_dir, mesh_filter;
    if (!parse_options(argc, argv, quick, csv_path, nullptr,
                       [&](int& i) { return parse_mesh_option(argc, argv, i, data_dir, mesh_filter); }))
    {
        std::fprintf(stderr, "usage: %s [--quick] [--cpu-clock] [--data DIR]\n", argv[0]);
        return 2;
    }
    data_dir = data_dir_or_default(data_dir, PXB_DATA_DIR);
    const int steps = 61;
    const int rounds = quick ? 5 : 31;

    std::printf("## proxima proximity benchmark: robot pieces vs environment mesh, minimum clearance per step\n\n");
    std::printf("- command: `%s`\n- machine: %s\n- data: %s\n", command_line(argc, argv).c_str(),
                machine_description().c_str(), data_dir.c_str());
    std::printf("- clock: %s; %d steps, %d rounds per step after one warm-up round\n",
                g_cpu_clock ? "thread processor time (--cpu-clock)" : "wall (CLOCK_MONOTONIC)", steps, rounds);
#if !PXB_HAVE_FCL
    std::printf("- FCL not found (pkg-config fcl): its rows are '-'\n");
#endif

    px_mesh* env = nullptr;
    px_mesh* rob = nullptr;
    std::string env_path = data_dir + "/env.obj", rob_path = data_dir + "/rob.obj";
    if (px_mesh_load_obj(env_path.c_str(), nullptr, &env) != PX_OK ||
        px_mesh_load_obj(rob_path.c_str(), nullptr, &rob) != PX_OK)
    {
        std::printf("\ncannot read %s and %s: nothing to measure\n", env_path.c_str(), rob_path.c_str());
        px_mesh_destroy(env);
        return 0;
    }

    // --- the robot's convex pieces, shared by both libraries --------------------------------------------------
    std::vector<std::vector<float>> parts = component_points(rob);
    std::vector<px_hull*> hulls;
    for (const std::vector<float>& p : parts)
    {
        px_hull* h = nullptr;
        if (PX_FAILED(px_hull_create(p.data(), (int)p.size() / 3, nullptr, &h)))
        {
            std::fprintf(stderr, "px_hull_create failed\n");
            return 1;
        }
        hulls.push_back(h);
    }
    std::printf("- scene: env.obj %d triangles; rob.obj %d triangles in %zu connected components, each one convex "
                "hull (vertices:",
                px_mesh_triangle_count(env), px_mesh_triangle_count(rob), hulls.size());
    for (px_hull* h : hulls)
    {
        std::printf(" %d", px_hull_vertex_count(h));
    }
    std::printf(")\n");

    // --- proxima ------------------------------------------------------------------------------------------------
    px_world* world = nullptr;
    if (px_world_create(nullptr, &world) != PX_OK)
    {
        return 1;
    }
    px_body_def def = px_body_default_def();
    def.type = PX_BODY_STATIC;
    def.mesh = env;
    def.category_bits = 1u;
    def.mask_bits = 2u;
    px_body_id env_body;
    bool ok = px_world_create_body(world, &def, &env_body) == PX_OK;
    std::vector<px_body_id> bodies(hulls.size());
    px_transform start = path_pose(0, steps);
    for (size_t i = 0; i < hulls.size() && ok; ++i)
    {
        def = px_body_default_def();
        def.shape = px_shape_from_hull(hulls[i]);
        def.pose = start;
        def.category_bits = 2u;
        def.mask_bits = 1u;
        ok = px_world_create_body(world, &def, &bodies[i]) == PX_OK;
    }
    if (!ok)
    {
        std::fprintf(stderr, "px_world_create_body failed\n");
        return 1;
    }
    std::vector<px_world_proximity_pair> pairs(hulls.size());
    auto proxima_step = [&](const px_transform& pose, float threshold) -> double {
        for (px_body_id b : bodies)
        {
            if (px_world_set_pose(world, b, &pose) != PX_OK)
            {
                g_proxima_errors++;
            }
        }
        int count = 0;
        if (PX_FAILED(px_world_proximity(world, threshold, pairs.data(), (int)pairs.size(), &count)))
        {
            g_proxima_errors++;
        }
        double best = INFINITY;
        for (int i = 0; i < count && i < (int)pairs.size(); ++i)
        {
            best = std::min(best, (double)pairs[i].distance);
        }
        return best;
    };

#if PXB_HAVE_FCL
    // --- FCL ----------------------------------------------------------------------------------------------------
    using Vec = fcl::Vector3<double>;
    auto env_model = std::make_shared<fcl::BVHModel<fcl::OBBRSS<double>>>();
    {
        const float* v = px_mesh_vertices(env);
        const int32_t* idx = px_mesh_indices(env);
        std::vector<Vec> points;
        std::vector<fcl::Triangle> triangles;
        for (int i = 0; i < px_mesh_vertex_count(env); ++i)
        {
            points.emplace_back(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
        }
        for (int t = 0; t < px_mesh_triangle_count(env); ++t)
        {
            triangles.emplace_back(idx[3 * t], idx[3 * t + 1], idx[3 * t + 2]);
        }
        env_model->beginModel();
        env_model->addSubModel(points, triangles);
        env_model->endModel();
    }
    fcl::CollisionObject<double> env_object(env_model, fcl::Transform3<double>::Identity());
    env_object.computeAABB();
    std::vector<std::unique_ptr<fcl::CollisionObject<double>>> piece_objects;
    for (px_hull* h : hulls)
    {
        auto vertices = std::make_shared<std::vector<Vec>>();
        const float* hv = px_hull_vertices(h);
        for (int i = 0; i < px_hull_vertex_count(h); ++i)
        {
            vertices->emplace_back(hv[3 * i], hv[3 * i + 1], hv[3 * i + 2]);
        }
        auto faces = std::make_shared<std::vector<int>>();
        const px_hull_face* hf = px_hull_faces(h);
        const int32_t* fi = px_hull_face_indices(h);
        for (int f = 0; f < px_hull_face_count(h); ++f)
        {
            faces->push_back(hf[f].count);
            faces->insert(faces->end(), fi + hf[f].first, fi + hf[f].first + hf[f].count);
        }
        auto convex = std::make_shared<fcl::Convex<double>>(vertices, px_hull_face_count(h), faces);
        piece_objects.push_back(std::make_unique<fcl::CollisionObject<double>>(convex));
    }
    fcl::DynamicAABBTreeCollisionManager<double> robot_manager, env_manager;
    for (auto& o : piece_objects)
    {
        robot_manager.registerObject(o.get());
    }
    robot_manager.setup();
    env_manager.registerObject(&env_object);
    env_manager.setup();
    auto fcl_step = [&](const px_transform& pose) -> double {
        fcl::Transform3<double> tf = fcl::Transform3<double>::Identity();
        tf.linear() = fcl::Quaternion<double>(pose.q[3], pose.q[0], pose.q[1], pose.q[2]).normalized().toRotationMatrix();
        tf.translation() = Vec(pose.p[0], pose.p[1], pose.p[2]);
        for (auto& o : piece_objects)
        {
            o->setTransform(tf);
            o->computeAABB();
        }
        robot_manager.update();
        fcl::DefaultDistanceData<double> data;
        data.request.enable_nearest_points = true;
        robot_manager.distance(&env_manager, &data, fcl::DefaultDistanceFunction<double>);
        return std::max(0.0, data.result.min_distance);
    };
#endif

    // --- agreement ------------------------------------------------------------------------------------------
    std::vector<px_transform> poses;
    for (int s = 0; s < steps; ++s)
    {
        poses.push_back(path_pose(s, steps));
    }
    double worst_safety = 0.0, worst_fcl = 0.0, min_clearance = INFINITY;
    int within = 0;
    for (const px_transform& pose : poses)
    {
        double all = proxima_step(pose, kAllThreshold);
        double safety = proxima_step(pose, kSafetyThreshold);
        min_clearance = std::min(min_clearance, all);
        double scale = std::max(all, 1.0);
        if (all <= kSafetyThreshold)
        {
            within++;
            worst_safety = std::max(worst_safety, std::fabs(safety - all) / scale);
        }
#if PXB_HAVE_FCL
        worst_fcl = std::max(worst_fcl, std::fabs(fcl_step(pose) - all) / scale);
#endif
    }

    // --- timing -----------------------------------------------------------------------------------------------
    const int kinds = 3;
    std::vector<std::array<std::vector<double>, kinds>> samples(steps);
    for (int round = -1; round < rounds; ++round)
    {
        for (int s = 0; s < steps; ++s)
        {
            for (int j = 0; j < kinds; ++j)
            {
                int k = (j + s + round + 1) % kinds;
                double t = NAN;
                if (k == 0)
                {
                    t = time_ns([&] { g_sink = g_sink + proxima_step(poses[s], kSafetyThreshold); });
                }
                else if (k == 1)
                {
                    t = time_ns([&] { g_sink = g_sink + proxima_step(poses[s], kAllThreshold); });
                }
#if PXB_HAVE_FCL
                else
                {
                    t = time_ns([&] { g_sink = g_sink + fcl_step(poses[s]); });
                }
#endif
                if (round >= 0)
                {
                    samples[s][k].push_back(t);
                }
            }
        }
    }
    std::array<std::vector<double>, kinds> per_step; // median over rounds, per step
    std::array<double, kinds> total = { 0.0, 0.0, 0.0 };
    std::vector<double> ratio_safety, ratio_all;
    for (int s = 0; s < steps; ++s)
    {
        for (int k = 0; k < kinds; ++k)
        {
            per_step[k].push_back(median(samples[s][k]));
            total[k] += per_step[k].back();
        }
        ratio_safety.push_back(per_step[2][s] / per_step[0][s]);
        ratio_all.push_back(per_step[2][s] / per_step[1][s]);
    }
    std::printf("- agreement: %d of %d steps within %.0f; minimum clearance on the path %.4f; largest difference "
                "(relative to max(d, 1)): FCL vs proxima %s, proxima threshold %.0f vs %.0f %.2g (limit %.0e)\n\n",
                within, steps, (double)kSafetyThreshold, min_clearance, fmt("%.2g", PXB_HAVE_FCL ? worst_fcl : NAN).c_str(),
                (double)kSafetyThreshold, (double)kAllThreshold, worst_safety, kAgreeRelative);
    std::printf("| query per step (move %zu pieces + minimum clearance) | median us per step | path total ms | FCL / "
                "this (paired per step) |\n|---|---:|---:|---:|\n",
                hulls.size());
    std::printf("| proxima px_world_proximity, threshold %.0f | %.2f | %.3f | %s |\n", (double)kSafetyThreshold,
                median(per_step[0]) / 1e3, total[0] / 1e6, fmt("%.2f", PXB_HAVE_FCL ? median(ratio_safety) : NAN).c_str());
    std::printf("| proxima px_world_proximity, threshold %.0f (every pair) | %.2f | %.3f | %s |\n", (double)kAllThreshold,
                median(per_step[1]) / 1e3, total[1] / 1e6, fmt("%.2f", PXB_HAVE_FCL ? median(ratio_all) : NAN).c_str());
    std::printf("| FCL DynamicAABBTreeCollisionManager::distance (OBBRSS mesh, Convex pieces, libccd GJK) | %s | %s | 1 |\n",
                fmt("%.2f", PXB_HAVE_FCL ? median(per_step[2]) / 1e3 : NAN).c_str(),
                fmt("%.3f", PXB_HAVE_FCL ? total[2] / 1e6 : NAN).c_str());
    bool agree = worst_safety <= kAgreeRelative && (!PXB_HAVE_FCL || worst_fcl <= kAgreeRelative);
    if (g_proxima_errors != 0)
    {
        std::printf("\nproxima returned %d error statuses\n", g_proxima_errors);
    }
    if (!agree)
    {
        std::printf("\nthe minimum clearances disagree beyond %.0e\n", kAgreeRelative);
    }
    px_world_destroy(world);
    for (px_hull* h : hulls)
    {
        px_hull_destroy(h);
    }
    px_mesh_destroy(env);
    px_mesh_destroy(rob);
    return agree && g_proxima_errors == 0 ? 0 : 1;
}
