/* Regression test for a GCC 12 miscompile: at -O2 its basic-block (SLP) vectorizer turned
 * "double -> float (stored) -> double" into the identity, so the widened value kept bits the float never
 * had. proxima's tests build exact oracles from the float poses every library receives, and the hull
 * builder widens float inputs to double; both rely on the rounding. The project's flags turn the
 * vectorizer off for GCC (CMakeLists.txt); this program, built with those flags, checks the round trip
 * and exits 1 if the rounding is lost. */
#include <stdint.h>
#include <stdio.h>

typedef struct pose
{
    float q[4];
    float p[3];
} pose;

typedef struct dpose
{
    double q[4];
    double p[3];
} dpose;

static uint64_t state = 12345;

static double urand(double lo, double hi)
{
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + (hi - lo) * (double)(state >> 11) * (1.0 / 9007199254740992.0);
}

static pose to_float(const dpose* d)
{
    pose r;
    for (int i = 0; i < 4; ++i)
    {
        r.q[i] = (float)d->q[i];
    }
    for (int i = 0; i < 3; ++i)
    {
        r.p[i] = (float)d->p[i];
    }
    return r;
}

__attribute__((noinline)) static int check(const pose* f, const double* widened)
{
    int bad = 0;
    for (int i = 0; i < 3; ++i)
    {
        bad += (double)f->p[i] != widened[i];
    }
    return bad;
}

int main(void)
{
    int bad = 0;
    for (int n = 0; n < 16; ++n)
    {
        dpose d;
        for (int i = 0; i < 4; ++i)
        {
            d.q[i] = urand(-1.0, 1.0);
        }
        for (int i = 0; i < 3; ++i)
        {
            d.p[i] = 1.0e3 + urand(-1.0, 1.0);
        }
        pose f = to_float(&d);
        double widened[3] = { f.p[0], f.p[1], f.p[2] };
        bad += check(&f, widened);
    }
    if (bad != 0)
    {
        printf("double -> float -> double lost the rounding %d times: the compiler flags miss "
               "-fno-tree-slp-vectorize\n",
               bad);
        return 1;
    }
    printf("round trip ok\n");
    return 0;
}
