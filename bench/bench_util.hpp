// The GJK-free machinery every proxima benchmark shares: deterministic random numbers, double-precision
// vectors and rotations, interleaved paired timing, and the command-line options and report lines common to
// all of them. bench_common.hpp adds the convex-pair workloads on top of it; bench_mesh.cpp and
// bench_heightfield.cpp use it alone.
// Included inside `namespace {` after the standard headers it uses (<algorithm>, <array>, <cmath>,
// <cstdint>, <cstdio>, <cstdlib>, <cstring>, <ctime>, <string>, <tuple>, <vector>) and proxima.h; random_quat needs the
// includer's kPi.
#pragma once

// ------------------------------------------------------------------------------------------------------
// Deterministic random numbers (splitmix64) and small double-precision vector helpers
// ------------------------------------------------------------------------------------------------------

class SplitMix64
{
public:
    explicit SplitMix64(uint64_t seed) : state_(seed) {}

    uint64_t next()
    {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, 1).
    double uniform() { return (double)(next() >> 11) * 0x1.0p-53; }
    double range(double lo, double hi) { return lo + (hi - lo) * uniform(); }

private:
    uint64_t state_;
};

struct V3
{
    double x, y, z;
};

inline V3 operator+(V3 a, V3 b) { return { a.x + b.x, a.y + b.y, a.z + b.z }; }
inline V3 operator-(V3 a, V3 b) { return { a.x - b.x, a.y - b.y, a.z - b.z }; }
inline V3 operator*(double s, V3 a) { return { s * a.x, s * a.y, s * a.z }; }
inline double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline V3 cross(V3 a, V3 b) { return { a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x }; }
inline double length(V3 a) { return std::sqrt(dot(a, a)); }
inline V3 normalize(V3 a) { return (1.0 / length(a)) * a; }
inline V3 v3(const float* f) { return { f[0], f[1], f[2] }; }

/// Unit quaternion (x, y, z, w) in double.
struct Quat
{
    double x, y, z, w;
};

inline Quat quat_mul(Quat a, Quat b)
{
    return { a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y, a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
             a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w, a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z };
}

inline Quat quat_axis_angle(V3 axis, double angle)
{
    V3 u = normalize(axis);
    double s = std::sin(0.5 * angle);
    return { s * u.x, s * u.y, s * u.z, std::cos(0.5 * angle) };
}

/// Uniformly distributed rotation (Shoemake, "Uniform random rotations", Graphics Gems III).
inline Quat random_quat(SplitMix64& rng)
{
    double u1 = rng.uniform(), u2 = 2.0 * kPi * rng.uniform(), u3 = 2.0 * kPi * rng.uniform();
    double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
    return { a * std::sin(u2), a * std::cos(u2), b * std::sin(u3), b * std::cos(u3) };
}

inline V3 quat_rotate(Quat q, V3 v)
{
    V3 u = { q.x, q.y, q.z };
    V3 t = 2.0 * cross(u, v);
    return v + q.w * t + cross(u, t);
}

/// The float pose every library receives, read back in double (quaternion renormalised in double).
inline Quat pose_quat(const px_transform& t)
{
    double x = t.q[0], y = t.q[1], z = t.q[2], w = t.q[3];
    double s = 1.0 / std::sqrt(x * x + y * y + z * z + w * w);
    return { s * x, s * y, s * z, s * w };
}

inline px_transform make_pose(Quat q, V3 p)
{
    px_transform t;
    t.q[0] = (float)q.x;
    t.q[1] = (float)q.y;
    t.q[2] = (float)q.z;
    t.q[3] = (float)q.w;
    t.p[0] = (float)p.x;
    t.p[1] = (float)p.y;
    t.p[2] = (float)p.z;
    return t;
}

// ------------------------------------------------------------------------------------------------------
// Timing
// ------------------------------------------------------------------------------------------------------

volatile double g_sink = 0.0;
int g_proxima_errors = 0; // proxima statuses < 0 seen while timing (should stay 0)

inline uint64_t now_ns()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/// --cpu-clock: single-thread jobs are timed by this thread's processor time, so that the time another
/// process holds the core is not counted (use it on a shared, loaded machine; the default is the wall clock).
/// Jobs that run on several threads are always timed by the wall clock.
bool g_cpu_clock = false;

inline uint64_t thread_cpu_ns()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

inline uint64_t process_cpu_ns()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/// Nanoseconds taken by f(), which runs on this thread only (processor time under --cpu-clock, else wall).
template <class F> double time_ns(F&& f)
{
    if (g_cpu_clock)
    {
        uint64_t t0 = thread_cpu_ns();
        f();
        return (double)(thread_cpu_ns() - t0);
    }
    uint64_t t0 = now_ns();
    f();
    return (double)(now_ns() - t0);
}

/// Nanoseconds taken by f(), wall clock (f may use several threads).
template <class F> double time_wall_ns(F&& f)
{
    uint64_t t0 = now_ns();
    f();
    return (double)(now_ns() - t0);
}

/// Time `count` queries query(0) ... query(count - 1); returns nanoseconds per query.
template <class F> double time_batch(int count, F&& query)
{
    double acc = 0.0;
    uint64_t t0 = now_ns();
    for (int i = 0; i < count; ++i)
    {
        acc += (double)query(i);
    }
    uint64_t t1 = now_ns();
    g_sink = g_sink + acc;
    return (double)(t1 - t0) / count;
}

inline double median(std::vector<double> v)
{
    if (v.empty())
    {
        return NAN;
    }
    std::sort(v.begin(), v.end());
    size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

/// time_batch of the k-th query of a tuple (k known only at run time; each query stays inlined).
template <size_t I = 0, class Tuple> double time_kth(size_t k, int count, Tuple& queries)
{
    if constexpr (I < std::tuple_size_v<Tuple>)
    {
        return k == I ? time_batch(count, std::get<I>(queries)) : time_kth<I + 1>(k, count, queries);
    }
    else
    {
        return NAN;
    }
}

/// Run one batch of each query in turn, `rounds` times after one untimed warm-up round; return the
/// nanoseconds per query of every batch, one series per query, in argument order. The order rotates from
/// round to round, so no query always runs first (right after the others have evicted its data).
template <class... F>
std::array<std::vector<double>, sizeof...(F)> measure_interleaved(int rounds, int count, F&... queries)
{
    constexpr size_t kinds = sizeof...(F);
    auto tuple = std::tie(queries...);
    std::array<std::vector<double>, kinds> samples;
    for (int round = -1; round < rounds; ++round)
    {
        for (size_t j = 0; j < kinds; ++j)
        {
            size_t k = (j + (size_t)(round + 1)) % kinds;
            double t = time_kth(k, count, tuple);
            if (round >= 0)
            {
                samples[k].push_back(t);
            }
        }
    }
    return samples;
}

/// Median over rounds of peer[i] / ours[i]: the speed ratio measured within each round.
inline double paired_ratio(const std::vector<double>& peer, const std::vector<double>& ours)
{
    std::vector<double> r;
    for (size_t i = 0; i < peer.size() && i < ours.size(); ++i)
    {
        r.push_back(peer[i] / ours[i]);
    }
    return median(r);
}

/// Median time and the paired ratio of series `peer` against series `ours`.
struct Timing
{
    double ns = NAN;    ///< median ns per query
    double ratio = NAN; ///< paired ratio against the proxima row it is compared with
};

inline Timing timing_of(const std::vector<double>& peer, const std::vector<double>& ours)
{
    return { median(peer), paired_ratio(peer, ours) };
}

// ------------------------------------------------------------------------------------------------------
// Command line and report
// ------------------------------------------------------------------------------------------------------

/// The options every benchmark takes: --quick, --csv FILE and, when only is not null, --only N. When argv[i]
/// is one of them, stores its value, moves i past it and returns true.
inline bool parse_shared_option(int argc, char** argv, int& i, bool& quick, std::string& csv_path, int* only)
{
    if (std::strcmp(argv[i], "--quick") == 0)
    {
        quick = true;
        return true;
    }
    if (std::strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
    {
        csv_path = argv[++i];
        return true;
    }
    if (only != nullptr && std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
    {
        *only = std::atoi(argv[++i]);
        return true;
    }
    return false;
}

/// Reads the command line: the shared options above (only as in parse_shared_option), and every other
/// argument through other(i), which takes argv[i] (moving i past any value of it) and returns true, or returns
/// false for an argument it does not know. False, at the first such argument, when one is not known.
template <class F>
bool parse_options(int argc, char** argv, bool& quick, std::string& csv_path, int* only, F&& other)
{
    for (int i = 1; i < argc; ++i)
    {
        if (!parse_shared_option(argc, argv, i, quick, csv_path, only) && !other(i))
        {
            return false;
        }
    }
    return true;
}

/// The options of the benchmarks on the mesh files: --cpu-clock (sets g_cpu_clock), --data DIR and
/// --mesh NAME. When argv[i] is one of them, stores its value, moves i past it and returns true.
inline bool parse_mesh_option(int argc, char** argv, int& i, std::string& data_dir, std::string& mesh_filter)
{
    if (std::strcmp(argv[i], "--cpu-clock") == 0)
    {
        g_cpu_clock = true;
        return true;
    }
    if (std::strcmp(argv[i], "--data") == 0 && i + 1 < argc)
    {
        data_dir = argv[++i];
        return true;
    }
    if (std::strcmp(argv[i], "--mesh") == 0 && i + 1 < argc)
    {
        mesh_filter = argv[++i];
        return true;
    }
    return false;
}

/// The data folder: dir when given (--data), else $PROXIMA_DATA_DIR when set, else built_in.
inline std::string data_dir_or_default(const std::string& dir, const char* built_in)
{
    if (!dir.empty())
    {
        return dir;
    }
    const char* env = std::getenv("PROXIMA_DATA_DIR");
    return env != nullptr && env[0] != '\0' ? env : built_in;
}

/// printf of one number into a table cell; "-" for NaN (a row the peer is missing from).
inline std::string fmt(const char* format, double value)
{
    if (std::isnan(value))
    {
        return "-";
    }
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

/// Opens the CSV file at path (none when path is empty) and writes its header line. False, with a message,
/// when the file cannot be written.
inline bool open_csv(const std::string& path, const char* header, FILE** out)
{
    *out = nullptr;
    if (path.empty())
    {
        return true;
    }
    *out = std::fopen(path.c_str(), "w");
    if (*out == nullptr)
    {
        std::fprintf(stderr, "cannot write %s\n", path.c_str());
        return false;
    }
    std::fprintf(*out, "%s\n", header);
    return true;
}

/// The command line as typed, for the report's "- command:" line.
inline std::string command_line(int argc, char** argv)
{
    std::string command;
    for (int i = 0; i < argc; ++i)
    {
        command += (i ? " " : "") + std::string(argv[i]);
    }
    return command;
}

/// The CPU model and the number of logical cores, from /proc/cpuinfo (for the report's machine line).
inline std::string machine_description()
{
    std::string model = "unknown CPU";
    int cores = 0;
    if (FILE* f = std::fopen("/proc/cpuinfo", "r"))
    {
        char line[512];
        while (std::fgets(line, sizeof line, f))
        {
            if (std::strncmp(line, "processor", 9) == 0)
            {
                cores++;
            }
            else if (std::strncmp(line, "model name", 10) == 0 && model == "unknown CPU")
            {
                const char* colon = std::strchr(line, ':');
                if (colon != nullptr)
                {
                    model = colon + 1;
                    model.erase(0, model.find_first_not_of(" \t"));
                    model.erase(model.find_last_not_of(" \t\n") + 1);
                }
            }
        }
        std::fclose(f);
    }
    return model + ", " + std::to_string(cores) + " logical cores";
}

/// /proc/loadavg as one line ("unknown" when it cannot be read): how busy the machine was.
inline std::string load_average()
{
    char buf[128] = "unknown";
    if (FILE* f = std::fopen("/proc/loadavg", "r"))
    {
        if (std::fgets(buf, sizeof buf, f) == nullptr)
        {
            std::strcpy(buf, "unknown");
        }
        std::fclose(f);
    }
    std::string s = buf;
    s.erase(s.find_last_not_of(" \n") + 1);
    return s;
}
