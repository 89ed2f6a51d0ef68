/* Random convex pairs for the accuracy suites: see pair_gen.h. */
#include "support/pair_gen.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef long double ld;

const char* const pxt_kind_names[PXT_K_COUNT] = { "ellipsoid", "box_hull", "box_shape", "tetra",    "flat_tetra",
                                                  "point",     "segment",  "polygon",   "repeated", "interior" };

/* ------------------------------------------------------------------------------------------------ */
/* Frozen cases                                                                                      */

void pxt_from_frozen(const pxt_frozen_case* fz, pxt_pair_case* c)
{
    memset(c, 0, sizeof(*c));
    c->family = fz->family;
    c->bucket = -1;
    c->a.box = fz->box_a;
    c->a.count = fz->count_a;
    c->b.box = fz->box_b;
    c->b.count = fz->count_b;
    for (int i = 0; i < 3; ++i)
    {
        c->a.half[i] = fz->half_a[i];
        c->b.half[i] = fz->half_b[i];
        c->ta.p[i] = fz->pa[i];
        c->tb.p[i] = fz->pb[i];
    }
    for (int i = 0; i < 4; ++i)
    {
        c->ta.q[i] = fz->qa[i];
        c->tb.q[i] = fz->qb[i];
    }
    if (!fz->box_a)
    {
        memcpy(c->a.pts, fz->pts_a, sizeof(float) * 3 * (size_t)fz->count_a);
    }
    if (!fz->box_b)
    {
        memcpy(c->b.pts, fz->pts_b, sizeof(float) * 3 * (size_t)fz->count_b);
    }
}

static void print_floats(const float* v, int n)
{
    for (int i = 0; i < n; ++i)
    {
        printf("%s%af", i == 0 ? "" : (i % 6 == 0 ? ",\n    " : ", "), (double)v[i]);
    }
}

/* The families' enumerators, as the printed initializers name them */
static const char* const family_enum[PXT_K_COUNT] = { "PXT_K_ELLIPSOID", "PXT_K_BOX_HULL",  "PXT_K_BOX_SHAPE",
                                                      "PXT_K_TETRA",     "PXT_K_FLAT_TETRA", "PXT_K_POINT",
                                                      "PXT_K_SEGMENT",   "PXT_K_POLYGON",    "PXT_K_REPEATED",
                                                      "PXT_K_INTERIOR" };

void pxt_print_case(const pxt_pair_case* c, const char* name)
{
    printf("/* ---- case %s: family %s ---- */\n", name, pxt_kind_names[c->family]);
    const pxt_shape_case* s[2] = { &c->a, &c->b };
    for (int k = 0; k < 2; ++k)
    {
        if (!s[k]->box)
        {
            printf("static const float %s_%c[] = {\n    ", name, k == 0 ? 'a' : 'b');
            print_floats(s[k]->pts, 3 * s[k]->count);
            printf("\n};\n");
        }
    }
    printf("static const pxt_frozen_case %s_case = { \"%s\", %s,\n", name, name, family_enum[c->family]);
    for (int k = 0; k < 2; ++k)
    {
        printf("    %d, %d, { ", s[k]->box, s[k]->box ? 0 : s[k]->count);
        print_floats(s[k]->half, 3);
        if (s[k]->box)
        {
            printf(" }, NULL,\n");
        }
        else
        {
            printf(" }, %s_%c,\n", name, k == 0 ? 'a' : 'b');
        }
    }
    printf("    { ");
    print_floats(c->ta.q, 4);
    printf(" },\n    { ");
    print_floats(c->ta.p, 3);
    printf(" },\n    { ");
    print_floats(c->tb.q, 4);
    printf(" },\n    { ");
    print_floats(c->tb.p, 3);
    printf(" } };\n");
}

void pxt_make_shape(const pxt_shape_case* s, px_shape* out)
{
    *out = s->box ? px_shape_box(s->half) : px_shape_hull(s->pts, s->count);
}

int pxt_local_points(const pxt_shape_case* s, float* out)
{
    if (!s->box)
    {
        memcpy(out, s->pts, sizeof(float) * 3 * (size_t)s->count);
        return s->count;
    }
    for (int i = 0; i < 8; ++i)
    {
        out[3 * i] = (i & 1) ? s->half[0] : -s->half[0];
        out[3 * i + 1] = (i & 2) ? s->half[1] : -s->half[1];
        out[3 * i + 2] = (i & 4) ? s->half[2] : -s->half[2];
    }
    return 8;
}

/* ------------------------------------------------------------------------------------------------ */
/* Oracle view                                                                                       */

void pxt_oracle_eval(const pxt_pair_case* c, pxt_oracle_view* o)
{
    float la[3 * PXT_MAXP], lb[3 * PXT_MAXP];
    o->na = pxt_local_points(&c->a, la);
    o->nb = pxt_local_points(&c->b, lb);
    for (int i = 0; i < 3; ++i)
    {
        o->origin[i] = c->ta.p[i];
    }
    pxo_transform_points(la, o->na, c->ta.q, c->ta.p, o->origin, o->wa);
    pxo_transform_points(lb, o->nb, c->tb.q, c->tb.p, o->origin, o->wb);
    ld ea = pxo_extent(o->wa, o->na), eb = pxo_extent(o->wb, o->nb);
    o->S = ea > eb ? ea : eb;
    ld C = 0.0L;
    for (int i = 0; i < 3 * o->na; ++i)
    {
        ld v = fabsl(o->wa[i] + (ld)o->origin[i % 3]);
        C = v > C ? v : C;
    }
    for (int i = 0; i < 3 * o->nb; ++i)
    {
        ld v = fabsl(o->wb[i] + (ld)o->origin[i % 3]);
        C = v > C ? v : C;
    }
    for (int i = 0; i < 3; ++i)
    {
        C = fabsl((ld)c->ta.p[i]) > C ? fabsl((ld)c->ta.p[i]) : C;
        C = fabsl((ld)c->tb.p[i]) > C ? fabsl((ld)c->tb.p[i]) : C;
    }
    o->C = C;
    pxo_hull_distance(o->wa, o->na, o->wb, o->nb, o->S, &o->d);
}

void pxt_world_to_oracle(const pxt_oracle_view* o, const float p[3], ld dest[3])
{
    for (int i = 0; i < 3; ++i)
    {
        dest[i] = (ld)p[i] - (ld)o->origin[i];
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* Generation                                                                                        */

static float f(double x)
{
    return (float)x;
}

static double log_uniform(px_rng* r, double lo_exp, double hi_exp)
{
    return pow(10.0, px_rng_range(r, lo_exp, hi_exp));
}

static void shuffle_points(px_rng* r, float* pts, int n)
{
    for (int i = n - 1; i > 0; --i)
    {
        int j = px_rng_int(r, i + 1);
        for (int c = 0; c < 3; ++c)
        {
            float t = pts[3 * i + c];
            pts[3 * i + c] = pts[3 * j + c];
            pts[3 * j + c] = t;
        }
    }
}

static void ellipsoid_point(px_rng* r, const double ax[3], const double ctr[3], double shrink, float* out)
{
    double u[3];
    px_rng_unit_vector(r, u);
    for (int c = 0; c < 3; ++c)
    {
        out[c] = f(ctr[c] + shrink * ax[c] * u[c]);
    }
}

static void random_axes(px_rng* r, double s, double ax[3], double ctr[3])
{
    for (int c = 0; c < 3; ++c)
    {
        ax[c] = s * log_uniform(r, -1.0, 0.0);
        ctr[c] = s * px_rng_range(r, -0.2, 0.2);
    }
}

static void gen_shape(px_rng* r, int kind, double s, pxt_shape_case* out)
{
    memset(out, 0, sizeof(*out));
    double ax[3], ctr[3];
    switch (kind)
    {
    case PXT_K_ELLIPSOID:
    {
        random_axes(r, s, ax, ctr);
        out->count = 4 + px_rng_int(r, 61);
        for (int i = 0; i < out->count; ++i)
        {
            ellipsoid_point(r, ax, ctr, 1.0, out->pts + 3 * i);
        }
        break;
    }
    case PXT_K_BOX_HULL:
    case PXT_K_BOX_SHAPE:
    {
        double h[3] = { s, s * log_uniform(r, -4.0, 0.0), s * log_uniform(r, -4.0, 0.0) };
        int p = px_rng_int(r, 3);
        for (int c = 0; c < 3; ++c)
        {
            out->half[c] = f(h[(c + p) % 3]);
        }
        out->box = 1;
        if (kind == PXT_K_BOX_HULL)
        {
            float corners[24];
            out->count = pxt_local_points(out, corners);
            memcpy(out->pts, corners, sizeof(corners));
            out->box = 0;
        }
        break;
    }
    case PXT_K_TETRA:
    {
        out->count = 4;
        for (int i = 0; i < 12; ++i)
        {
            out->pts[i] = f(s * px_rng_normal(r));
        }
        break;
    }
    case PXT_K_FLAT_TETRA:
    {
        double p[3][3];
        for (int i = 0; i < 3; ++i)
        {
            for (int c = 0; c < 3; ++c)
            {
                p[i][c] = s * px_rng_normal(r);
            }
        }
        double e1[3], e2[3], n[3];
        for (int c = 0; c < 3; ++c)
        {
            e1[c] = p[1][c] - p[0][c];
            e2[c] = p[2][c] - p[0][c];
        }
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        double nl = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        double al = px_rng_range(r, -0.5, 1.5), be = px_rng_range(r, -0.5, 1.5);
        double h = s * log_uniform(r, -12.0, -2.0) * (px_rng_int(r, 2) ? 1.0 : -1.0);
        out->count = 4;
        for (int i = 0; i < 3; ++i)
        {
            for (int c = 0; c < 3; ++c)
            {
                out->pts[3 * i + c] = f(p[i][c]);
            }
        }
        for (int c = 0; c < 3; ++c)
        {
            out->pts[9 + c] = f(p[0][c] + al * e1[c] + be * e2[c] + (nl > 0.0 ? h * n[c] / nl : 0.0));
        }
        shuffle_points(r, out->pts, 4);
        break;
    }
    case PXT_K_POINT:
    {
        out->count = 1;
        if (px_rng_int(r, 3) != 0)
        {
            for (int c = 0; c < 3; ++c)
            {
                out->pts[c] = f(s * px_rng_range(r, -0.5, 0.5));
            }
        }
        break;
    }
    case PXT_K_SEGMENT:
    {
        out->count = 2 + px_rng_int(r, 5);
        if (px_rng_int(r, 10) < 7)
        {
            /* exactly collinear in the local frame */
            for (int i = 0; i < out->count; ++i)
            {
                double t = i == 0 ? -1.0 : i == 1 ? 1.0 : px_rng_range(r, -1.0, 1.0);
                out->pts[3 * i] = f(s * t);
            }
            shuffle_points(r, out->pts, out->count);
        }
        else
        {
            out->count = 2;
            for (int i = 0; i < 6; ++i)
            {
                out->pts[i] = f(s * px_rng_normal(r));
            }
        }
        break;
    }
    case PXT_K_POLYGON:
    {
        double a = s, b = s * log_uniform(r, -2.0, 0.0);
        int m = 3 + px_rng_int(r, 14), interior = px_rng_int(r, 5);
        out->count = m + interior;
        for (int i = 0; i < m; ++i)
        {
            double th = px_rng_range(r, 0.0, 6.283185307179586);
            out->pts[3 * i] = f(a * cos(th));
            out->pts[3 * i + 1] = f(b * sin(th));
        }
        for (int i = m; i < out->count; ++i)
        {
            double th = px_rng_range(r, 0.0, 6.283185307179586), rr = px_rng_range(r, 0.0, 0.9);
            out->pts[3 * i] = f(rr * a * cos(th));
            out->pts[3 * i + 1] = f(rr * b * sin(th));
        }
        shuffle_points(r, out->pts, out->count);
        break;
    }
    case PXT_K_REPEATED:
    {
        random_axes(r, s, ax, ctr);
        int k = 4 + px_rng_int(r, 17);
        int n = 0;
        for (int i = 0; i < k && n < PXT_MAXP; ++i)
        {
            float p[3];
            ellipsoid_point(r, ax, ctr, 1.0, p);
            int rep = 1 + px_rng_int(r, 3);
            for (int j = 0; j < rep && n < PXT_MAXP; ++j, ++n)
            {
                memcpy(out->pts + 3 * n, p, sizeof(p));
            }
        }
        out->count = n;
        shuffle_points(r, out->pts, n);
        break;
    }
    default: /* PXT_K_INTERIOR */
    {
        random_axes(r, s, ax, ctr);
        int k = 4 + px_rng_int(r, 29);
        int m = 1 + px_rng_int(r, PXT_MAXP - k);
        out->count = k + m;
        for (int i = 0; i < k; ++i)
        {
            ellipsoid_point(r, ax, ctr, 1.0, out->pts + 3 * i);
        }
        for (int i = k; i < k + m; ++i)
        {
            ellipsoid_point(r, ax, ctr, px_rng_range(r, 0.0, 0.95), out->pts + 3 * i);
        }
        shuffle_points(r, out->pts, out->count);
        break;
    }
    }
}

static void quat_mul(const double a[4], const double b[4], double d[4])
{
    double x = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    double y = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    double z = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    double w = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
    d[0] = x;
    d[1] = y;
    d[2] = z;
    d[3] = w;
}

static void near_identity(px_rng* r, double q[4])
{
    double th = log_uniform(r, -15.0, -3.0), ax[3];
    px_rng_unit_vector(r, ax);
    for (int c = 0; c < 3; ++c)
    {
        q[c] = sin(0.5 * th) * ax[c];
    }
    q[3] = cos(0.5 * th);
}

/* mode: 0 identity, 1 near identity, 2 random, 3 `base` times a near-identity rotation */
static void gen_rotation(px_rng* r, int mode, const double base[4], double q[4])
{
    if (mode == 0)
    {
        q[0] = q[1] = q[2] = 0.0;
        q[3] = 1.0;
    }
    else if (mode == 1)
    {
        near_identity(r, q);
    }
    else if (mode == 2)
    {
        px_rng_quat(r, q);
    }
    else
    {
        double s[4];
        near_identity(r, s);
        quat_mul(base, s, q);
    }
}

static double local_radius(const pxt_shape_case* s)
{
    float pts[3 * PXT_MAXP];
    int n = pxt_local_points(s, pts);
    double m = 0.0;
    for (int i = 0; i < n; ++i)
    {
        double l = sqrt((double)pts[3 * i] * pts[3 * i] + (double)pts[3 * i + 1] * pts[3 * i + 1] +
                        (double)pts[3 * i + 2] * pts[3 * i + 2]);
        m = l > m ? l : m;
    }
    return m;
}

static void shift_hull(pxt_shape_case* s, const float q[4], const ld world_shift[3])
{
    float cq[4] = { -q[0], -q[1], -q[2], q[3] };
    ld local[3];
    pxo_rotate(cq, world_shift, local);
    for (int i = 0; i < s->count; ++i)
    {
        for (int c = 0; c < 3; ++c)
        {
            s->pts[3 * i + c] = (float)((ld)s->pts[3 * i + c] + local[c]);
        }
    }
}

void pxt_move_b(pxt_pair_case* c, const ld n[3], ld amount)
{
    ld r[3];
    for (int i = 0; i < 3; ++i)
    {
        ld want = (ld)c->tb.p[i] + amount * n[i];
        c->tb.p[i] = (float)want;
        r[i] = want - (ld)c->tb.p[i];
    }
    if (!c->b.box)
    {
        shift_hull(&c->b, c->tb.q, r);
    }
    else if (!c->a.box)
    {
        ld m[3] = { -r[0], -r[1], -r[2] };
        shift_hull(&c->a, c->ta.q, m);
    }
}

static int pick_partner(px_rng* r, int family)
{
    switch (family)
    {
    case PXT_K_ELLIPSOID:
        return PXT_K_ELLIPSOID;
    case PXT_K_BOX_HULL:
        return PXT_K_BOX_HULL;
    case PXT_K_BOX_SHAPE:
        return px_rng_int(r, 2) ? PXT_K_BOX_SHAPE : PXT_K_BOX_HULL;
    case PXT_K_TETRA:
    {
        static const int k[4] = { PXT_K_TETRA, PXT_K_TETRA, PXT_K_ELLIPSOID, PXT_K_BOX_HULL };
        return k[px_rng_int(r, 4)];
    }
    case PXT_K_FLAT_TETRA:
    {
        static const int k[4] = { PXT_K_FLAT_TETRA, PXT_K_FLAT_TETRA, PXT_K_TETRA, PXT_K_BOX_SHAPE };
        return k[px_rng_int(r, 4)];
    }
    default:
    {
        int k;
        do
        {
            k = px_rng_int(r, PXT_K_COUNT);
        } while (k == PXT_K_POINT && family == PXT_K_POINT);
        return k;
    }
    }
}

static ld width_along(const ld* pts, int n, const ld dir[3])
{
    ld lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < n; ++i)
    {
        ld t = pts[3 * i] * dir[0] + pts[3 * i + 1] * dir[1] + pts[3 * i + 2] * dir[2];
        lo = t < lo ? t : lo;
        hi = t > hi ? t : hi;
    }
    return hi - lo;
}

void pxt_gen_case(px_rng* r, int family, const double* targets, int bucket, pxt_pair_case* c)
{
    memset(c, 0, sizeof(*c));
    c->family = family;
    c->bucket = bucket;
    double s = log_uniform(r, -3.0, 3.0);
    double sb = px_rng_int(r, 10) < 3 ? s * log_uniform(r, -1.0, 1.0) : s * px_rng_range(r, 0.5, 2.0);
    int partner = pick_partner(r, family);
    pxt_shape_case* first = &c->a;
    pxt_shape_case* second = &c->b;
    if (px_rng_int(r, 2))
    {
        first = &c->b;
        second = &c->a;
    }
    gen_shape(r, family, s, first);
    gen_shape(r, partner, sb, second);

    double qa[4], qb[4];
    int ma = px_rng_int(r, 10), mb = px_rng_int(r, 10);
    gen_rotation(r, ma == 0 ? 0 : ma < 3 ? 1 : 2, NULL, qa);
    gen_rotation(r, mb == 0 ? 0 : mb < 3 ? 1 : mb < 8 ? 2 : 3, qa, qb);
    for (int i = 0; i < 4; ++i)
    {
        c->ta.q[i] = f(qa[i]);
        c->tb.q[i] = f(qb[i]);
    }
    int oc = px_rng_int(r, 4);
    double offset = oc < 2 ? 0.0 : oc == 2 ? 1.0e3 : 1.0e4;
    double ra = local_radius(&c->a), rb = local_radius(&c->b);
    double dir[3];
    px_rng_unit_vector(r, dir);
    double dist = (ra + rb) * px_rng_range(r, 0.6, 1.5);
    for (int i = 0; i < 3; ++i)
    {
        double o = offset * (px_rng_int(r, 2) ? 1.0 : -1.0) * px_rng_range(r, 0.5, 1.0);
        double pa = o + s * px_rng_range(r, -1.0, 1.0);
        c->ta.p[i] = f(pa);
        c->tb.p[i] = f((double)c->ta.p[i] + dist * dir[i]);
    }

    static pxt_oracle_view o;
    pxt_oracle_eval(c, &o);
    for (int k = 0; k < 8 && o.d.overlap; ++k)
    {
        for (int i = 0; i < 3; ++i)
        {
            c->tb.p[i] = f((double)c->ta.p[i] + 2.0 * ((double)c->tb.p[i] - (double)c->ta.p[i]) + s * dir[i]);
        }
        pxt_oracle_eval(c, &o);
    }
    if (bucket < 0 || o.d.overlap || !o.d.certified)
    {
        c->bucket = -1;
        return;
    }
    const ld T = (ld)targets[bucket] * o.S;
    const ld Tpos = T > 0.0L ? T : 0.0L;
    ld n[3] = { o.d.normal[0], o.d.normal[1], o.d.normal[2] };
    for (int it = 0; it < 3; ++it)
    {
        ld d = o.d.distance;
        if (fabsl(d - Tpos) <= 1.0e-3L * Tpos)
        {
            break;
        }
        pxt_move_b(c, n, Tpos - d);
        pxt_oracle_eval(c, &o);
        if (o.d.overlap || !o.d.certified)
        {
            break;
        }
        for (int i = 0; i < 3; ++i)
        {
            n[i] = o.d.normal[i];
        }
    }
    if (T < 0.0L)
    {
        /* Penetrate along n by |T|, but by at most half the larger width of the two shapes along n, so
         * that thin shapes (plates, needles, points) end up overlapping rather than passed through. */
        ld wa = width_along(o.wa, o.na, n), wb = width_along(o.wb, o.nb, n);
        ld cap = 0.5L * (wa > wb ? wa : wb);
        pxt_move_b(c, n, -T > cap ? -cap : T);
    }
}

