// Profiling driver for the penetration-depth workload of bench_contact (section 1): the same overlapping
// hull pairs, px_contact_world only, in a loop long enough for `perf record`. Not a benchmark (no peer,
// no timing statistics); it prints the mean time per query and the mean iteration count.
//
// Build (from the root, against a Release build of the library in build-X):
//   g++ -std=c++17 -O2 -g -ffp-contract=off -Iinclude bench/profile_penetration.cpp build-X/libproxima.a
//       -lm -o build-X/profile_penetration
// Run:  build-X/profile_penetration N [rounds] [built] [shallow]   (N hull points, rounds over the 256 pairs;
//       "built": the hulls built with px_hull_create; "shallow": resting contacts, as in the benchmark's rows;
//       APART=1 in the environment: the pairs separated instead, for the cost of contact queries that find a
//       distance; PAIRS=K: K distinct pairs instead of 256; SHUFFLE=1: a new order of the pairs every round)
//       perf record -e cpu-clock -g build-X/profile_penetration 64 2000
// The same 256 pairs round after round let the branch predictors learn every pair's branches by heart (the
// benchmark's peers, run between proxima's batches, erase that): PAIRS=1024 or more times what a new pair
// costs, the case of a physics step.

#include "proxima/proxima.h"

#include <algorithm>
#include <ctime>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#define PXB_HAVE_BULLET 0
#define PXB_HAVE_CCD 0

namespace
{

const int kPairs = getenv("PAIRS") ? atoi(getenv("PAIRS")) : 256;
double kOverlapFraction = getenv("APART") ? 0.0 : 1.0;
const uint64_t kSeed = 0x636f6e74616374ULL; // the seed of bench_contact: the same pairs
const double kPi = 3.14159265358979323846;
const double kWarmStepMove = 1.0e-3;
const double kWarmStepTurn = 0.01;

struct Options
{
    bool quick = false;
    int batches = 1;
};

#include "bench_common.hpp"

[[maybe_unused]] Timing (*const keep_timing_of)(const std::vector<double>&, const std::vector<double>&) = timing_of;

} // namespace

int main(int argc, char** argv)
{
    int n = argc > 1 ? std::atoi(argv[1]) : 64;
    int rounds = argc > 2 ? std::atoi(argv[2]) : 1000;
    if (n < 4 || rounds < 1 || kPairs < 1)
    {
        std::fprintf(stderr, "usage: %s N [rounds]\n", argv[0]);
        return 2;
    }
    // "shallow" in either of the last two arguments: resting contacts (depth <= 5% of the size)
    bool shallow = (argc > 3 && std::strcmp(argv[3], "shallow") == 0) || (argc > 4 && std::strcmp(argv[4], "shallow") == 0);
    PairSet s = make_pair_set(n, shallow ? 0.05 : 0.0);
    std::vector<px_hull*> built;
    if (argc > 3 && std::strcmp(argv[3], "built") == 0)
    {
        for (size_t k = 0; k < s.hulls.size(); ++k)
        {
            px_hull* hull = nullptr;
            if (px_hull_create(s.hulls[k].points.data(), n, nullptr, &hull) < 0)
            {
                std::fprintf(stderr, "hull build failed\n");
                return 1;
            }
            built.push_back(hull);
            s.shapes[k] = px_shape_from_hull(hull);
        }
    }
    double sum = 0.0;
    long iters = 0;
    int errors = 0;
    // process CPU time, not wall time: less sensitive to other jobs on a shared machine
    std::timespec t0, t1;
    double total_ns = 0.0;
    // EVICT=M in the environment: M MB of other data read between rounds (untimed), as the benchmark's
    // interleaved peers do between its batches
    std::vector<char> evict(getenv("EVICT") ? (size_t)atoi(getenv("EVICT")) << 20 : 0);
    long evict_sum = 0;
    // SHUFFLE=1 in the environment: the pairs in a new random order every round (drawn untimed), so that
    // the branch predictors cannot learn the round's sequence of outcomes by heart
    bool shuffle = getenv("SHUFFLE") != nullptr;
    std::vector<int> order((size_t)kPairs);
    for (int i = 0; i < kPairs; ++i)
    {
        order[(size_t)i] = i;
    }
    uint64_t rng = 0x9e3779b97f4a7c15ULL;
    for (int r = 0; r < rounds; ++r)
    {
        for (int i = kPairs - 1; shuffle && i > 0; --i)
        {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            std::swap(order[(size_t)i], order[(size_t)((rng >> 33) % (uint64_t)(i + 1))]);
        }
        for (size_t k = 0; k < evict.size(); k += 64)
        {
            evict[k] = (char)(evict[k] + 1);
            evict_sum += evict[k];
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        for (int q = 0; q < kPairs; ++q)
        {
            size_t i = (size_t)order[(size_t)q];
            const Pair& p = s.pairs[i];
            px_contact c;
            errors += px_contact_world(&s.shapes[2 * i], &p.ta, &s.shapes[2 * i + 1], &p.tb,
                                       nullptr, &c) < 0;
            sum += c.distance;
            iters += c.iterations;
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        total_ns += (double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec);
    }
    double ns = total_ns / ((double)rounds * kPairs);
    std::printf("N %d: %.0f ns per query, %.2f iterations (GJK + EPA) mean, %d errors, checksum %.6g\n", n, ns,
                (double)iters / ((double)rounds * kPairs), errors, sum / rounds);
    for (px_hull* h : built)
    {
        px_hull_destroy(h);
    }
    return evict_sum == 42 ? 3 : 0; // keeps the eviction pass from being optimized away

}
