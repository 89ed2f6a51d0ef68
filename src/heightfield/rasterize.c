/* Walkable-slope marking and triangle rasterization into span columns, computing exactly what Debian's
 * Recast (1.5.1+git20210215: rcMarkWalkableTriangles, rcRasterizeTriangles with its rasterizeTri and
 * dividePoly) computes, float operation for float operation, with three differences that only matter where
 * Recast misbehaves: the clipping buffers cannot overflow (Recast issue #687), every float-to-int conversion
 * is range-checked first (Recast's are undefined for huge coordinates), and the field is never taller than
 * the span heights can hold (heightfield.c), so no span is clamped into an invalid one.
 *
 * How a triangle is rasterized (Recast's algorithm): the rows z0..z1 its bounding box covers are visited in
 * order; at each row the polygon left over from the previous rows is split along the row's far grid line
 * z = bmin.z + (z + 1) cs into the part inside the row and the rest. The row's part is split the same way
 * along the far line of each column x0..x1 of its own x range; each cell's piece that still has three or
 * more vertices gives the span of its y range. A split keeps vertices on the line in both halves and puts
 * the crossing point of each edge that changes side in both, computed as a + (b - a) s with
 * s = d_a / (d_a - d_b) along the edge from its previous vertex a to its next vertex b. Because the rest of a
 * split is split again, every intersection depends on the ones before it: the rows and columns are visited
 * from the triangle's first one even when only a window of columns is written.
 *
 * The row pass keeps x, y and z (the rest is split again along z); the row's part keeps only x and y, and a
 * cell's piece only its y range, which is all Recast reads of them. */
#include <math.h>
#include <string.h>

#include "heightfield_internal.h"

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define RASTER_SSE 1
#else
#define RASTER_SSE 0
#endif

/* Recast's RC_PI, the float constant of its slope threshold */
#define RECAST_PI 3.14159265f

/* clamp((int)f, lo, hi) for 0 <= lo <= hi < 2^24, as Recast computes it when (int)f is defined, and lo for
 * NaN: the float is compared before it is converted, so the conversion is always in range. */
static inline int trunc_clamp(float f, int lo, int hi)
{
    if (f >= (float)hi)
    {
        return hi;
    }
    if (f > (float)lo)
    {
        return (int)f;
    }
    return lo;
}

/* The splits below make the same outputs as Recast's dividePoly, in the same order, without branching on
 * the data. Per vertex i (its edge comes from j = i - 1): when d_j and d_i lie on different sides of 0 (>= 0
 * counts as near) the edge's crossing point goes to both halves; then the vertex goes to the near half when
 * d_i > 0 (crossing) or d_i >= 0 (no crossing), and to the far half when d_i < 0 (crossing) or not d_i > 0 (no
 * crossing; so a vertex on the line goes to both). Every edge computes a crossing point, with a denominator
 * of 1 where it does not cross (the value is then unused), and every output slot is written, then kept or
 * overwritten by advancing its count by 0 or 1.
 *
 * Polygons are stored as separate x, y (and z) arrays: slot 0 holds a copy of the last vertex (the start of
 * the first edge) and slots 1..n the vertices, so that the SSE version reads four vertices and their four
 * predecessors with two unaligned loads; it divides in every lane (lanes that do not cross may divide by
 * zero: their values are unused), so the division need not wait for the masks. Either version produces the
 * same floats: the SSE lanes do the scalar operations in the same order. */
/* Slots: the copy of the last vertex, up to PXI_CLIP_CAPACITY vertices, and room for the four-lane groups
 * of the SSE splits to read and write past the last vertex (a split of at most PXI_CLIP_CAPACITY / 2
 * vertices reads slots up to 19 and writes up to 2 * 16 + 8). */
#define POLY_SLOTS (PXI_CLIP_CAPACITY + 12)

typedef struct polygon
{
    float x[POLY_SLOTS];
    float y[POLY_SLOTS];
    float z[POLY_SLOTS];
} polygon;

/* Set slot 0 to the last of n vertices (the start of the first edge). */
static inline void close_polygon(polygon* p, int n, bool with_z)
{
    p->x[0] = p->x[n];
    p->y[0] = p->y[n];
    if (with_z)
    {
        p->z[0] = p->z[n];
    }
}

/* Split polygon in (n vertices, xyz) along z = line: the near part (d = line - z >= 0, this row) goes to row
 * (xy), the far part to rest (xyz). Returns the row's count; writes the rest's, the x range of the row and the
 * largest z of the rest. Scalar version. */
static int split_row_scalar(const polygon* in, int n, float line, polygon* row, polygon* rest, int* rest_count,
                            float* row_min_x, float* row_max_x, float* rest_max_z)
{
    int m = 0;
    int k = 0;
    float lo = INFINITY;
    float hi = -INFINITY;
    float zhi = -INFINITY;
    float dj = line - in->z[0];
    for (int i = 1; i <= n; ++i)
    {
        const float ax = in->x[i - 1], ay = in->y[i - 1], az = in->z[i - 1];
        const float bx = in->x[i], by = in->y[i], bz = in->z[i];
        const float di = line - bz;
        const bool cross = (dj >= 0.0f) != (di >= 0.0f);
        const float s = dj / (cross ? dj - di : 1.0f);
        const float x = ax + (bx - ax) * s;
        const float y = ay + (by - ay) * s;
        const float z = az + (bz - az) * s;
        const bool near = cross ? di > 0.0f : di >= 0.0f;
        const bool far = cross ? di < 0.0f : !(di > 0.0f);
        const float cx_lo = cross ? x : INFINITY;
        const float cx_hi = cross ? x : -INFINITY;
        const float cz_hi = cross ? z : -INFINITY;
        const float vx_lo = near ? bx : INFINITY;
        const float vx_hi = near ? bx : -INFINITY;
        const float vz_hi = far ? bz : -INFINITY;
        row->x[1 + m] = x;
        row->y[1 + m] = y;
        m += cross;
        row->x[1 + m] = bx;
        row->y[1 + m] = by;
        m += near;
        rest->x[1 + k] = x;
        rest->y[1 + k] = y;
        rest->z[1 + k] = z;
        k += cross;
        rest->x[1 + k] = bx;
        rest->y[1 + k] = by;
        rest->z[1 + k] = bz;
        k += far;
        lo = cx_lo < lo ? cx_lo : lo;
        lo = vx_lo < lo ? vx_lo : lo;
        hi = cx_hi > hi ? cx_hi : hi;
        hi = vx_hi > hi ? vx_hi : hi;
        zhi = cz_hi > zhi ? cz_hi : zhi;
        zhi = vz_hi > zhi ? vz_hi : zhi;
        dj = di;
    }
    *rest_count = k;
    *row_min_x = lo;
    *row_max_x = hi;
    *rest_max_z = zhi;
    return m;
}

/* Split the row part in (n vertices, xy) along x = line: the cell's piece (x <= line) is reduced to its vertex
 * count (returned) and y range; the rest goes to rest (xy), with its largest x. Scalar version. */
static int split_column_scalar(const polygon* in, int n, float line, polygon* rest, int* rest_count,
                               float* cell_min_y, float* cell_max_y, float* rest_max_x)
{
    int m = 0;
    int k = 0;
    float lo = INFINITY;
    float hi = -INFINITY;
    float xhi = -INFINITY;
    float dj = line - in->x[0];
    for (int i = 1; i <= n; ++i)
    {
        const float ax = in->x[i - 1], ay = in->y[i - 1];
        const float bx = in->x[i], by = in->y[i];
        const float di = line - bx;
        const bool cross = (dj >= 0.0f) != (di >= 0.0f);
        const float s = dj / (cross ? dj - di : 1.0f);
        const float x = ax + (bx - ax) * s;
        const float y = ay + (by - ay) * s;
        const bool near = cross ? di > 0.0f : di >= 0.0f;
        const bool far = cross ? di < 0.0f : !(di > 0.0f);
        const float cy_lo = cross ? y : INFINITY;
        const float cy_hi = cross ? y : -INFINITY;
        const float cx_hi = cross ? x : -INFINITY;
        const float vy_lo = near ? by : INFINITY;
        const float vy_hi = near ? by : -INFINITY;
        const float vx_hi = far ? bx : -INFINITY;
        m += cross;
        m += near;
        rest->x[1 + k] = x;
        rest->y[1 + k] = y;
        k += cross;
        rest->x[1 + k] = bx;
        rest->y[1 + k] = by;
        k += far;
        lo = cy_lo < lo ? cy_lo : lo;
        lo = vy_lo < lo ? vy_lo : lo;
        hi = cy_hi > hi ? cy_hi : hi;
        hi = vy_hi > hi ? vy_hi : hi;
        xhi = cx_hi > xhi ? cx_hi : xhi;
        xhi = vx_hi > xhi ? vx_hi : xhi;
        dj = di;
    }
    *rest_count = k;
    *cell_min_y = lo;
    *cell_max_y = hi;
    *rest_max_x = xhi;
    return m;
}

#if RASTER_SSE
/* Bits set in a 4-bit lane mask. */
static const uint8_t popcount4[16] = { 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4 };

/* All-ones in the first `count` lanes (count clamped to 0..4). */
static inline __m128 lane_mask(int count)
{
    static const int32_t masks[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };
    const int c = count < 4 ? count : 4;
    return _mm_castsi128_ps(_mm_loadu_si128((const __m128i*)(const void*)&masks[4 - c]));
}

static inline __m128 select_ps(__m128 mask, __m128 a, __m128 b)
{
    return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b));
}

static inline float hmin_ps(__m128 v)
{
    v = _mm_min_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
    v = _mm_min_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(v);
}

static inline float hmax_ps(__m128 v)
{
    v = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)));
    v = _mm_max_ps(v, _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 0, 3, 2)));
    return _mm_cvtss_f32(v);
}

/* The lane masks of one group of four edges: crossing, near and far (only lanes < valid count set). */
typedef struct split_masks
{
    __m128 cross, near, far;
} split_masks;

static inline split_masks classify(__m128 dj, __m128 di, __m128 valid)
{
    const __m128 zero = _mm_setzero_ps();
    const __m128 ge_i = _mm_cmpge_ps(di, zero);
    const __m128 gt_i = _mm_cmpgt_ps(di, zero);
    split_masks sm;
    sm.cross = _mm_and_ps(_mm_xor_ps(_mm_cmpge_ps(dj, zero), ge_i), valid);
    sm.near = _mm_and_ps(select_ps(sm.cross, gt_i, ge_i), valid);
    /* not crossing: far unless d_i > 0 (andnot keeps valid lanes where gt_i is clear) */
    sm.far = select_ps(sm.cross, _mm_cmplt_ps(di, zero), _mm_andnot_ps(gt_i, valid));
    return sm;
}

static int split_row_sse(const polygon* in, int n, float line, polygon* row, polygon* rest, int* rest_count,
                         float* row_min_x, float* row_max_x, float* rest_max_z)
{
    const __m128 l4 = _mm_set1_ps(line);
    const __m128 pinf = _mm_set1_ps(INFINITY);
    const __m128 ninf = _mm_set1_ps(-INFINITY);
    __m128 lo = pinf, hi = ninf, zhi = ninf;
    int m = 0;
    int k = 0;
    for (int i = 0; i < n; i += 4)
    {
        const __m128 ax = _mm_loadu_ps(&in->x[i]), ay = _mm_loadu_ps(&in->y[i]), az = _mm_loadu_ps(&in->z[i]);
        const __m128 bx = _mm_loadu_ps(&in->x[i + 1]), by = _mm_loadu_ps(&in->y[i + 1]);
        const __m128 bz = _mm_loadu_ps(&in->z[i + 1]);
        const __m128 dj = _mm_sub_ps(l4, az);
        const __m128 di = _mm_sub_ps(l4, bz);
        const split_masks sm = classify(dj, di, lane_mask(n - i));
        /* every lane divides (lanes that do not cross may divide by zero; their values are never used), so
         * the division does not wait for the masks */
        const __m128 s = _mm_div_ps(dj, _mm_sub_ps(dj, di));
        const __m128 cx = _mm_add_ps(ax, _mm_mul_ps(_mm_sub_ps(bx, ax), s));
        const __m128 cy = _mm_add_ps(ay, _mm_mul_ps(_mm_sub_ps(by, ay), s));
        const __m128 cz = _mm_add_ps(az, _mm_mul_ps(_mm_sub_ps(bz, az), s));
        lo = _mm_min_ps(lo, select_ps(sm.cross, cx, pinf));
        lo = _mm_min_ps(lo, select_ps(sm.near, bx, pinf));
        hi = _mm_max_ps(hi, select_ps(sm.cross, cx, ninf));
        hi = _mm_max_ps(hi, select_ps(sm.near, bx, ninf));
        zhi = _mm_max_ps(zhi, select_ps(sm.cross, cz, ninf));
        zhi = _mm_max_ps(zhi, select_ps(sm.far, bz, ninf));
        const int cm = _mm_movemask_ps(sm.cross);
        const int nm = _mm_movemask_ps(sm.near);
        const int fm = _mm_movemask_ps(sm.far);
        float tx[4], ty[4], tz[4];
        _mm_storeu_ps(tx, cx);
        _mm_storeu_ps(ty, cy);
        _mm_storeu_ps(tz, cz);
        /* all four lanes: the masks of lanes past n are clear, so they only write slots that are then
         * overwritten or lie past the end */
        for (int l = 0; l < 4; ++l)
        {
            const float vx = in->x[i + 1 + l], vy = in->y[i + 1 + l], vz = in->z[i + 1 + l];
            const int c = (cm >> l) & 1;
            row->x[1 + m] = tx[l];
            row->y[1 + m] = ty[l];
            m += c;
            row->x[1 + m] = vx;
            row->y[1 + m] = vy;
            m += (nm >> l) & 1;
            rest->x[1 + k] = tx[l];
            rest->y[1 + k] = ty[l];
            rest->z[1 + k] = tz[l];
            k += c;
            rest->x[1 + k] = vx;
            rest->y[1 + k] = vy;
            rest->z[1 + k] = vz;
            k += (fm >> l) & 1;
        }
    }
    *rest_count = k;
    *row_min_x = hmin_ps(lo);
    *row_max_x = hmax_ps(hi);
    *rest_max_z = hmax_ps(zhi);
    return m;
}

static int split_column_sse(const polygon* in, int n, float line, polygon* rest, int* rest_count,
                            float* cell_min_y, float* cell_max_y, float* rest_max_x)
{
    const __m128 l4 = _mm_set1_ps(line);
    const __m128 pinf = _mm_set1_ps(INFINITY);
    const __m128 ninf = _mm_set1_ps(-INFINITY);
    __m128 lo = pinf, hi = ninf, xhi = ninf;
    int m = 0;
    int k = 0;
    for (int i = 0; i < n; i += 4)
    {
        /* x from scalar loads: the previous split just stored these slots one float at a time, and a 16-byte
         * load spanning several such stores cannot be forwarded from them (it waits for them to retire) */
        const float* xs = &in->x[i];
        const __m128 ax = _mm_setr_ps(xs[0], xs[1], xs[2], xs[3]);
        const __m128 bx = _mm_setr_ps(xs[1], xs[2], xs[3], xs[4]);
        const __m128 ay = _mm_loadu_ps(&in->y[i]);
        const __m128 by = _mm_loadu_ps(&in->y[i + 1]);
        const __m128 dj = _mm_sub_ps(l4, ax);
        const __m128 di = _mm_sub_ps(l4, bx);
        const split_masks sm = classify(dj, di, lane_mask(n - i));
        /* every lane divides (lanes that do not cross may divide by zero; their values are never used), so
         * the division does not wait for the masks */
        const __m128 s = _mm_div_ps(dj, _mm_sub_ps(dj, di));
        const __m128 cx = _mm_add_ps(ax, _mm_mul_ps(_mm_sub_ps(bx, ax), s));
        const __m128 cy = _mm_add_ps(ay, _mm_mul_ps(_mm_sub_ps(by, ay), s));
        lo = _mm_min_ps(lo, select_ps(sm.cross, cy, pinf));
        lo = _mm_min_ps(lo, select_ps(sm.near, by, pinf));
        hi = _mm_max_ps(hi, select_ps(sm.cross, cy, ninf));
        hi = _mm_max_ps(hi, select_ps(sm.near, by, ninf));
        xhi = _mm_max_ps(xhi, select_ps(sm.cross, cx, ninf));
        xhi = _mm_max_ps(xhi, select_ps(sm.far, bx, ninf));
        const int cm = _mm_movemask_ps(sm.cross);
        const int fm = _mm_movemask_ps(sm.far);
        m += popcount4[cm] + popcount4[_mm_movemask_ps(sm.near)];
        float tx[4], ty[4];
        _mm_storeu_ps(tx, cx);
        _mm_storeu_ps(ty, cy);
        for (int l = 0; l < 4; ++l)
        {
            rest->x[1 + k] = tx[l];
            rest->y[1 + k] = ty[l];
            k += (cm >> l) & 1;
            rest->x[1 + k] = in->x[i + 1 + l];
            rest->y[1 + k] = in->y[i + 1 + l];
            k += (fm >> l) & 1;
        }
    }
    *rest_count = k;
    *cell_min_y = hmin_ps(lo);
    *cell_max_y = hmax_ps(hi);
    *rest_max_x = hmax_ps(xhi);
    return m;
}
#endif

/* y range of a polygon's n vertices. */
static void polygon_y_range(const polygon* p, int n, float* min_y, float* max_y)
{
    float lo = INFINITY;
    float hi = -INFINITY;
    for (int i = 1; i <= n; ++i)
    {
        const float y = p->y[i];
        lo = y < lo ? y : lo;
        hi = y > hi ? y : hi;
    }
    *min_y = lo;
    *max_y = hi;
}

/* A column sweep: the splits of one row polygon along x = line_x0, line_x0 + 1, ... in their common form,
 * without storing the polygons in between. Whenever no vertex lies exactly on the line, a split of a
 * polygon whose far vertices (d < 0) form one run between two near ones (d > 0) does this: the crossing point
 * C1 of the edge entering the run and C2 of the edge leaving it go to both halves, the near vertices to the
 * cell, the run to the rest, in cyclic order. So the rest is always [C1, run, C2], with the run a stretch of
 * the row polygon's own vertices. At the next line C1 and C2 are near again (they lie on the previous line),
 * the vertices that became near leave the run from either end, and the new crossing points come from the
 * edges (C1 or the run's previous vertex -> its new first vertex) and (its new last vertex -> the next vertex
 * or C2), in that direction, as the general split would compute them. The polygon stays in registers and the
 * dependency from one cell to the next is a subtraction, a division, a multiplication and an addition per
 * crossing point; the general split goes through memory. Anything else (a vertex on the line, C1 or C2 not
 * near, more than one run) hands the rest, [C1, run, C2], to the general split. */
typedef struct column_sweep
{
    float x[2 * PXI_CLIP_CAPACITY]; /* the row polygon, vertex k at k and k + n (runs may wrap around) */
    float y[2 * PXI_CLIP_CAPACITY];
    int n;
    int fs, fe;       /* the far run fs..fe (fe < fs + n), when crossing */
    bool crossing;    /* false: the rest is still the whole row polygon */
    float c1x, c1y;   /* crossing point entering the run */
    float c2x, c2y;   /* crossing point leaving it */
} column_sweep;

static void sweep_start(column_sweep* sw, const polygon* row, int n)
{
    for (int k = 0; k < n; ++k)
    {
        sw->x[k] = sw->x[k + n] = row->x[1 + k];
        sw->y[k] = sw->y[k + n] = row->y[1 + k];
    }
    sw->n = n;
    sw->crossing = false;
    sw->fs = sw->fe = 0;
    sw->c1x = sw->c1y = sw->c2x = sw->c2y = 0.0f;
}

/* One split of the sweep. Returns false (and changes nothing) when the split is not in the sweep's form;
 * otherwise the cell's vertex count and y range, and whether the rest is now empty. */
static bool sweep_step(column_sweep* sw, float line, int* cell_count, float* cell_min_y, float* cell_max_y,
                       bool* rest_empty)
{
    const int n = sw->n;
    float d[2 * PXI_CLIP_CAPACITY];
    float lo, hi;
    int m;
    int a, b; /* the new run a..b */
    int fs, fe;
    float px, py, pd; /* the start of the edge entering the new run */
    float qx, qy, qd; /* the end of the edge leaving it */
    if (!sw->crossing)
    {
        /* the whole row polygon: one near run and one far run, or all on one side */
        int near = 0;
        for (int k = 0; k < n; ++k)
        {
            d[k] = d[k + n] = line - sw->x[k];
            if (!(d[k] != 0.0f))
            {
                return false; /* on the line */
            }
            near += d[k] > 0.0f;
        }
        if (near == 0)
        {
            *cell_count = 0; /* everything beyond the line: the rest is the same polygon */
            *cell_min_y = INFINITY;
            *cell_max_y = -INFINITY;
            *rest_empty = false;
            return true;
        }
        lo = INFINITY;
        hi = -INFINITY;
        if (near == n)
        {
            for (int k = 0; k < n; ++k)
            {
                lo = sw->y[k] < lo ? sw->y[k] : lo;
                hi = sw->y[k] > hi ? sw->y[k] : hi;
            }
            *cell_count = n;
            *cell_min_y = lo;
            *cell_max_y = hi;
            *rest_empty = true;
            return true;
        }
        /* the far run starts after a near vertex and must hold every far vertex */
        a = 1;
        while (!(d[a - 1] > 0.0f && d[a] < 0.0f))
        {
            ++a;
        }
        b = a;
        while (d[b + 1] < 0.0f)
        {
            ++b;
        }
        if (b - a + 1 != n - near)
        {
            return false; /* more than one far run */
        }
        for (int k = b + 1; k <= a - 1 + n; ++k)
        {
            lo = sw->y[k] < lo ? sw->y[k] : lo;
            hi = sw->y[k] > hi ? sw->y[k] : hi;
        }
        m = near + 2;
        px = sw->x[a - 1];
        py = sw->y[a - 1];
        pd = d[a - 1];
        qx = sw->x[b + 1];
        qy = sw->y[b + 1];
        qd = d[b + 1];
        if (a >= n)
        {
            a -= n;
            b -= n;
        }
    }
    else
    {
        fs = sw->fs;
        fe = sw->fe;
        const float d1 = line - sw->c1x;
        const float d2 = line - sw->c2x;
        if (!(d1 > 0.0f && d2 > 0.0f))
        {
            return false;
        }
        lo = sw->c1y < sw->c2y ? sw->c1y : sw->c2y;
        hi = sw->c1y > sw->c2y ? sw->c1y : sw->c2y;
        for (int k = fs; k <= fe; ++k)
        {
            d[k - fs] = line - sw->x[k];
            if (!(d[k - fs] != 0.0f))
            {
                return false;
            }
        }
        a = fs;
        while (a <= fe && d[a - fs] > 0.0f)
        {
            lo = sw->y[a] < lo ? sw->y[a] : lo;
            hi = sw->y[a] > hi ? sw->y[a] : hi;
            ++a;
        }
        if (a > fe)
        {
            /* the whole rest is near: it is the last cell */
            *cell_count = fe - fs + 3;
            *cell_min_y = lo;
            *cell_max_y = hi;
            *rest_empty = true;
            return true;
        }
        b = fe;
        while (d[b - fs] > 0.0f)
        {
            lo = sw->y[b] < lo ? sw->y[b] : lo;
            hi = sw->y[b] > hi ? sw->y[b] : hi;
            --b;
        }
        for (int k = a + 1; k < b; ++k)
        {
            if (!(d[k - fs] < 0.0f))
            {
                return false; /* a near vertex inside the run: two runs */
            }
        }
        m = (a - fs) + (fe - b) + 4;
        if (a == fs)
        {
            px = sw->c1x;
            py = sw->c1y;
            pd = d1;
        }
        else
        {
            px = sw->x[a - 1];
            py = sw->y[a - 1];
            pd = d[a - 1 - fs];
        }
        if (b == fe)
        {
            qx = sw->c2x;
            qy = sw->c2y;
            qd = d2;
        }
        else
        {
            qx = sw->x[b + 1];
            qy = sw->y[b + 1];
            qd = d[b + 1 - fs];
        }
        const float da = d[a - fs];
        const float db = d[b - fs];
        /* the edges p -> run[a] and run[b] -> q, as a + (b - a) s with s = d_a / (d_a - d_b) */
        const float s1 = pd / (pd - da);
        const float s2 = db / (db - qd);
        sw->c1x = px + (sw->x[a] - px) * s1;
        sw->c1y = py + (sw->y[a] - py) * s1;
        sw->c2x = sw->x[b] + (qx - sw->x[b]) * s2;
        sw->c2y = sw->y[b] + (qy - sw->y[b]) * s2;
        sw->fs = a;
        sw->fe = b;
        lo = sw->c1y < lo ? sw->c1y : lo;
        hi = sw->c1y > hi ? sw->c1y : hi;
        lo = sw->c2y < lo ? sw->c2y : lo;
        hi = sw->c2y > hi ? sw->c2y : hi;
        *cell_count = m;
        *cell_min_y = lo;
        *cell_max_y = hi;
        *rest_empty = false;
        return true;
    }
    /* first crossing of the row polygon: edges (a - 1 -> a) and (b -> b + 1) */
    {
        const float da = line - sw->x[a];
        const float db = line - sw->x[b];
        const float s1 = pd / (pd - da);
        const float s2 = db / (db - qd);
        sw->c1x = px + (sw->x[a] - px) * s1;
        sw->c1y = py + (sw->y[a] - py) * s1;
        sw->c2x = sw->x[b] + (qx - sw->x[b]) * s2;
        sw->c2y = sw->y[b] + (qy - sw->y[b]) * s2;
        sw->fs = a;
        sw->fe = b;
        sw->crossing = true;
        lo = sw->c1y < lo ? sw->c1y : lo;
        hi = sw->c1y > hi ? sw->c1y : hi;
        lo = sw->c2y < lo ? sw->c2y : lo;
        hi = sw->c2y > hi ? sw->c2y : hi;
        *cell_count = m;
        *cell_min_y = lo;
        *cell_max_y = hi;
        *rest_empty = false;
        return true;
    }
}

/* Write the sweep's rest into a general polygon (the row polygon itself before the first crossing); returns
 * its vertex count and largest x. */
static int sweep_materialize(const column_sweep* sw, polygon* out, float* max_x)
{
    int n = 0;
    float hi = -INFINITY;
    if (!sw->crossing)
    {
        for (int k = 0; k < sw->n; ++k)
        {
            out->x[1 + n] = sw->x[k];
            out->y[1 + n] = sw->y[k];
            hi = sw->x[k] > hi ? sw->x[k] : hi;
            ++n;
        }
    }
    else
    {
        out->x[1 + n] = sw->c1x;
        out->y[1 + n] = sw->c1y;
        hi = sw->c1x > hi ? sw->c1x : hi;
        ++n;
        for (int k = sw->fs; k <= sw->fe; ++k)
        {
            out->x[1 + n] = sw->x[k];
            out->y[1 + n] = sw->y[k];
            hi = sw->x[k] > hi ? sw->x[k] : hi;
            ++n;
        }
        out->x[1 + n] = sw->c2x;
        out->y[1 + n] = sw->c2y;
        hi = sw->c2x > hi ? sw->c2x : hi;
        ++n;
    }
    close_polygon(out, n, false);
    *max_x = hi;
    return n;
}

/* The row sweep: the same as the column sweep for the splits of the triangle along z = line_z0, line_z0 + 1,
 * ..., in three dimensions, writing out each row's part (the near half) for the columns:
 * [near run of the triangle, C1, C2] at the first crossing, then [C1, near vertices of the run, C1', C2',
 * near vertices of the run, C2], which is the order the general split produces. */
typedef struct row_sweep
{
    float x[6], y[6], z[6]; /* the triangle, vertex k at k and k + 3 */
    int fs, fe;
    bool crossing;
    float c1[3], c2[3];
} row_sweep;

static void row_sweep_start(row_sweep* sw, const float* v0, const float* v1, const float* v2)
{
    const float* v[3] = { v0, v1, v2 };
    for (int k = 0; k < 3; ++k)
    {
        sw->x[k] = sw->x[k + 3] = v[k][0];
        sw->y[k] = sw->y[k + 3] = v[k][1];
        sw->z[k] = sw->z[k + 3] = v[k][2];
    }
    sw->crossing = false;
    sw->fs = sw->fe = 0;
    for (int i = 0; i < 3; ++i)
    {
        sw->c1[i] = sw->c2[i] = 0.0f;
    }
}

/* Append a vertex to a row polygon (slots from 1), tracking its x range. */
static inline void row_put(polygon* row, int* n, float x, float y, float* lo, float* hi)
{
    ++*n;
    row->x[*n] = x;
    row->y[*n] = y;
    *lo = x < *lo ? x : *lo;
    *hi = x > *hi ? x : *hi;
}

/* The crossing point of the edge from p to q (d_p and d_q its distances): p + (q - p) s, s = d_p / (d_p - d_q). */
static inline void crossing_point(const float* p, const float* q, float dp, float dq, float* out)
{
    const float s = dp / (dp - dq);
    out[0] = p[0] + (q[0] - p[0]) * s;
    out[1] = p[1] + (q[1] - p[1]) * s;
    out[2] = p[2] + (q[2] - p[2]) * s;
}

/* One row split of the sweep. Returns false (changing nothing) when it is not in the sweep's form; otherwise
 * writes the row's part (n_row vertices, possibly 0) and its x range, and the count of the rest (0: empty). */
static bool row_sweep_step(row_sweep* sw, float line, polygon* row, int* n_row, float* min_x, float* max_x,
                           int* rest_count)
{
    float d[6];
    float lo = INFINITY;
    float hi = -INFINITY;
    int m = 0;
    if (!sw->crossing)
    {
        int near = 0;
        for (int k = 0; k < 3; ++k)
        {
            d[k] = d[k + 3] = line - sw->z[k];
            if (!(d[k] != 0.0f))
            {
                return false;
            }
            near += d[k] > 0.0f;
        }
        if (near == 0)
        {
            *n_row = 0;
            *rest_count = 3;
            return true;
        }
        if (near == 3)
        {
            for (int k = 0; k < 3; ++k)
            {
                row_put(row, &m, sw->x[k], sw->y[k], &lo, &hi);
            }
            *n_row = m;
            *min_x = lo;
            *max_x = hi;
            *rest_count = 0;
            return true;
        }
        int a = 1;
        while (!(d[a - 1] > 0.0f && d[a] < 0.0f))
        {
            ++a;
        }
        int b = a;
        while (d[b + 1] < 0.0f)
        {
            ++b;
        }
        /* with three vertices and no zero, the far ones always form one run */
        for (int k = b + 1; k <= a - 1 + 3; ++k)
        {
            row_put(row, &m, sw->x[k], sw->y[k], &lo, &hi);
        }
        const float pa[3] = { sw->x[a - 1], sw->y[a - 1], sw->z[a - 1] };
        const float qa[3] = { sw->x[a], sw->y[a], sw->z[a] };
        const float pb[3] = { sw->x[b], sw->y[b], sw->z[b] };
        const float qb[3] = { sw->x[b + 1], sw->y[b + 1], sw->z[b + 1] };
        crossing_point(pa, qa, d[a - 1], d[a], sw->c1);
        crossing_point(pb, qb, d[b], d[b + 1], sw->c2);
        row_put(row, &m, sw->c1[0], sw->c1[1], &lo, &hi);
        row_put(row, &m, sw->c2[0], sw->c2[1], &lo, &hi);
        if (a >= 3)
        {
            a -= 3;
            b -= 3;
        }
        sw->fs = a;
        sw->fe = b;
        sw->crossing = true;
        *n_row = m;
        *min_x = lo;
        *max_x = hi;
        *rest_count = b - a + 3;
        return true;
    }
    const int fs = sw->fs;
    const int fe = sw->fe;
    const float d1 = line - sw->c1[2];
    const float d2 = line - sw->c2[2];
    if (!(d1 > 0.0f && d2 > 0.0f))
    {
        return false;
    }
    for (int k = fs; k <= fe; ++k)
    {
        d[k - fs] = line - sw->z[k];
        if (!(d[k - fs] != 0.0f))
        {
            return false;
        }
    }
    int a = fs;
    while (a <= fe && d[a - fs] > 0.0f)
    {
        ++a;
    }
    row_put(row, &m, sw->c1[0], sw->c1[1], &lo, &hi);
    if (a > fe)
    {
        /* the whole rest lies in this row */
        for (int k = fs; k <= fe; ++k)
        {
            row_put(row, &m, sw->x[k], sw->y[k], &lo, &hi);
        }
        row_put(row, &m, sw->c2[0], sw->c2[1], &lo, &hi);
        *n_row = m;
        *min_x = lo;
        *max_x = hi;
        *rest_count = 0;
        return true;
    }
    int b = fe;
    while (d[b - fs] > 0.0f)
    {
        --b;
    }
    for (int k = a + 1; k < b; ++k)
    {
        if (!(d[k - fs] < 0.0f))
        {
            return false;
        }
    }
    for (int k = fs; k < a; ++k)
    {
        row_put(row, &m, sw->x[k], sw->y[k], &lo, &hi);
    }
    float p[3], pd;
    if (a == fs)
    {
        p[0] = sw->c1[0];
        p[1] = sw->c1[1];
        p[2] = sw->c1[2];
        pd = d1;
    }
    else
    {
        p[0] = sw->x[a - 1];
        p[1] = sw->y[a - 1];
        p[2] = sw->z[a - 1];
        pd = d[a - 1 - fs];
    }
    float q[3], qd;
    if (b == fe)
    {
        q[0] = sw->c2[0];
        q[1] = sw->c2[1];
        q[2] = sw->c2[2];
        qd = d2;
    }
    else
    {
        q[0] = sw->x[b + 1];
        q[1] = sw->y[b + 1];
        q[2] = sw->z[b + 1];
        qd = d[b + 1 - fs];
    }
    const float va[3] = { sw->x[a], sw->y[a], sw->z[a] };
    const float vb[3] = { sw->x[b], sw->y[b], sw->z[b] };
    float c1[3], c2[3];
    crossing_point(p, va, pd, d[a - fs], c1);
    crossing_point(vb, q, d[b - fs], qd, c2);
    row_put(row, &m, c1[0], c1[1], &lo, &hi);
    row_put(row, &m, c2[0], c2[1], &lo, &hi);
    for (int k = b + 1; k <= fe; ++k)
    {
        row_put(row, &m, sw->x[k], sw->y[k], &lo, &hi);
    }
    row_put(row, &m, sw->c2[0], sw->c2[1], &lo, &hi);
    for (int i = 0; i < 3; ++i)
    {
        sw->c1[i] = c1[i];
        sw->c2[i] = c2[i];
    }
    sw->fs = a;
    sw->fe = b;
    *n_row = m;
    *min_x = lo;
    *max_x = hi;
    *rest_count = b - a + 3;
    return true;
}

/* Write the row sweep's rest into a general polygon; returns its count and largest z. */
static int row_sweep_materialize(const row_sweep* sw, polygon* out, float* max_z)
{
    int n = 0;
    float hi = -INFINITY;
    if (!sw->crossing)
    {
        for (int k = 0; k < 3; ++k)
        {
            ++n;
            out->x[n] = sw->x[k];
            out->y[n] = sw->y[k];
            out->z[n] = sw->z[k];
            hi = sw->z[k] > hi ? sw->z[k] : hi;
        }
    }
    else
    {
        ++n;
        out->x[n] = sw->c1[0];
        out->y[n] = sw->c1[1];
        out->z[n] = sw->c1[2];
        hi = sw->c1[2] > hi ? sw->c1[2] : hi;
        for (int k = sw->fs; k <= sw->fe; ++k)
        {
            ++n;
            out->x[n] = sw->x[k];
            out->y[n] = sw->y[k];
            out->z[n] = sw->z[k];
            hi = sw->z[k] > hi ? sw->z[k] : hi;
        }
        ++n;
        out->x[n] = sw->c2[0];
        out->y[n] = sw->c2[1];
        out->z[n] = sw->c2[2];
        hi = sw->c2[2] > hi ? sw->c2[2] : hi;
    }
    close_polygon(out, n, true);
    *max_z = hi;
    return n;
}

/* The four polygons a triangle's clipping works in, and the column sweep. Zeroed once per rasterization: the
 * slots past a polygon's vertices then hold zeros or earlier finite values, which the SSE lanes past n read
 * and ignore. */
typedef struct clip_buffers
{
    polygon in, rest, row, row_rest;
    column_sweep sweep;
    row_sweep rows;
} clip_buffers;

/* The per-triangle constants of a field. */
typedef struct raster_frame
{
    const float* bmin;
    const float* bmax;
    float cs, ics, ich;
    float by; /* bmax.y - bmin.y */
    int w, h;
    bool fast; /* shortcuts and sweeps allowed: the field's bounds and grid lines are within TAME_LIMIT, and
                * this is not the reference path */
    bool sse;  /* split with SSE (else the scalar version: same results) */
} raster_frame;

/* Coordinates up to this magnitude (2^100) cannot overflow in the clipping arithmetic. */
#define TAME_LIMIT 1.2676506e30f

/* Outcome of one triangle. */
enum
{
    TRI_DONE = 0,
    TRI_CAPACITY = 1,
    TRI_OUT_OF_MEMORY = 2
};

/* Rasterize one triangle (Recast's rasterizeTri) into the columns of window. With store == NULL nothing is
 * added (a dry run that only measures the polygons). max_vertices is raised to the largest polygon seen. */
static int rasterize_triangle(px_heightfield* hf, const raster_frame* f, pxi_span_store* store, clip_buffers* buf,
                              const float* v0, const float* v1, const float* v2, uint8_t area,
                              int flag_merge_threshold, const pxi_column_window* window, int* max_vertices)
{
    float tmin[3], tmax[3];
    for (int i = 0; i < 3; ++i)
    {
        tmin[i] = v0[i];
        tmax[i] = v0[i];
        tmin[i] = tmin[i] < v1[i] ? tmin[i] : v1[i];
        tmin[i] = tmin[i] < v2[i] ? tmin[i] : v2[i];
        tmax[i] = tmax[i] > v1[i] ? tmax[i] : v1[i];
        tmax[i] = tmax[i] > v2[i] ? tmax[i] : v2[i];
    }
    /* skip triangles whose box misses the field's box (boxes that touch overlap) */
    for (int i = 0; i < 3; ++i)
    {
        if (f->bmin[i] > tmax[i] || f->bmax[i] < tmin[i])
        {
            return TRI_DONE;
        }
    }
    const int z0 = trunc_clamp((tmin[2] - f->bmin[2]) * f->ics, 0, f->h - 1);
    const int z1 = trunc_clamp((tmax[2] - f->bmin[2]) * f->ics, 0, f->h - 1);
    /* With coordinates of at most 2^100 no arithmetic below overflows, so there is no NaN, and a split whose
     * line lies beyond every vertex (all d > 0) keeps the whole polygon on its near side: the shortcuts below
     * give what the split would, and so do the sweeps. */
    bool fast = f->fast;
    for (int i = 0; i < 3; ++i)
    {
        fast = fast && tmin[i] >= -TAME_LIMIT && tmax[i] <= TAME_LIMIT;
    }

    polygon* in = &buf->in;
    polygon* rest = &buf->rest;
    const float* tri[3] = { v0, v1, v2 };
    for (int i = 0; i < 3; ++i)
    {
        in->x[1 + i] = tri[i][0];
        in->y[1 + i] = tri[i][1];
        in->z[1 + i] = tri[i][2];
    }
    close_polygon(in, 3, true);
    int n_in = 3;
    float in_max_z = tmax[2];
    /* triangles over several rows sweep (the same results, faster) */
    bool row_sweeping = fast && z1 > z0;
    if (row_sweeping)
    {
        row_sweep_start(&buf->rows, v0, v1, v2);
    }
    int most = *max_vertices;

    for (int z = z0; z <= z1; ++z)
    {
        if (z >= window->z1 || n_in < 2)
        {
            /* past the window, or nothing left that could still make a polygon (a split of a single vertex
             * gives at most one vertex per side) */
            break;
        }
        if (n_in > PXI_CLIP_CAPACITY / 2)
        {
            *max_vertices = most;
            return TRI_CAPACITY;
        }
        const float line_z = (f->bmin[2] + (float)z * f->cs) + f->cs;
        polygon* row = &buf->row;
        polygon* row_rest = &buf->row_rest;
        int n_row;
        float min_x, max_x;
        if (row_sweeping)
        {
            if (row_sweep_step(&buf->rows, line_z, row, &n_row, &min_x, &max_x, &n_in))
            {
                goto row_ready;
            }
            row_sweeping = false;
            n_in = row_sweep_materialize(&buf->rows, in, &in_max_z);
        }
        if (fast && line_z - in_max_z > 0.0f)
        {
            /* the rest of the triangle lies in this row */
            min_x = INFINITY;
            max_x = -INFINITY;
            for (int i = 1; i <= n_in; ++i)
            {
                const float x = in->x[i];
                row->x[i] = x;
                row->y[i] = in->y[i];
                min_x = x < min_x ? x : min_x;
                max_x = x > max_x ? x : max_x;
            }
            n_row = n_in;
            n_in = 0;
        }
        else
        {
            int n_rest;
            n_row = f->sse ? split_row_sse(in, n_in, line_z, row, rest, &n_rest, &min_x, &max_x, &in_max_z)
                           : split_row_scalar(in, n_in, line_z, row, rest, &n_rest, &min_x, &max_x, &in_max_z);
            polygon* t = in;
            in = rest;
            rest = t;
            n_in = n_rest;
            close_polygon(in, n_in, true);
            most = n_in > most ? n_in : most;
        }
    row_ready:
        most = n_row > most ? n_row : most;
        most = n_in > most ? n_in : most;
        if (n_row < 3 || z < window->z0)
        {
            continue;
        }
        close_polygon(row, n_row, false);
        const int x0 = trunc_clamp((min_x - f->bmin[0]) * f->ics, 0, f->w - 1);
        const int x1 = trunc_clamp((max_x - f->bmin[0]) * f->ics, 0, f->w - 1);
        pxi_span* columns = hf->columns + (size_t)z * (size_t)f->w;
        float row_max_x = max_x;
        /* long rows sweep (the same results, faster); short ones split directly */
        bool sweeping = fast && x1 - x0 >= 2 && n_row < PXI_CLIP_CAPACITY / 2;
        if (sweeping)
        {
            sweep_start(&buf->sweep, row, n_row);
        }

        for (int x = x0; x <= x1; ++x)
        {
            if (x >= window->x1 || n_row < 2)
            {
                break;
            }
            const float line_x = (f->bmin[0] + (float)x * f->cs) + f->cs;
            int n_cell;
            float ymin, ymax;
            if (sweeping)
            {
                bool rest_empty;
                if (sweep_step(&buf->sweep, line_x, &n_cell, &ymin, &ymax, &rest_empty))
                {
                    const column_sweep* sw = &buf->sweep;
                    n_row = rest_empty ? 0 : sw->crossing ? sw->fe - sw->fs + 3 : sw->n;
                    most = n_row > most ? n_row : most;
                    goto emit;
                }
                sweeping = false;
                n_row = sweep_materialize(&buf->sweep, row, &row_max_x);
            }
            if (n_row > PXI_CLIP_CAPACITY / 2)
            {
                *max_vertices = most;
                return TRI_CAPACITY;
            }
            if (fast && line_x - row_max_x > 0.0f)
            {
                /* the rest of the row lies in this cell */
                polygon_y_range(row, n_row, &ymin, &ymax);
                n_cell = n_row;
                n_row = 0;
            }
            else
            {
                int n_row_rest;
                n_cell = f->sse ? split_column_sse(row, n_row, line_x, row_rest, &n_row_rest, &ymin, &ymax,
                                                   &row_max_x)
                                : split_column_scalar(row, n_row, line_x, row_rest, &n_row_rest, &ymin, &ymax,
                                                      &row_max_x);
                polygon* t = row;
                row = row_rest;
                row_rest = t;
                n_row = n_row_rest;
                close_polygon(row, n_row, false);
                most = n_row > most ? n_row : most;
            }
        emit:
            most = n_cell > most ? n_cell : most;
            if (n_cell < 3 || x < window->x0)
            {
                continue;
            }
            float smin = ymin - f->bmin[1];
            float smax = ymax - f->bmin[1];
            if (smax < 0.0f || smin > f->by)
            {
                continue; /* below or above the field */
            }
            if (smin != smin || smax != smax)
            {
                continue; /* NaN from overflowing arithmetic on huge coordinates (undefined in Recast) */
            }
            if (smin < 0.0f)
            {
                smin = 0.0f;
            }
            if (smax > f->by)
            {
                smax = f->by;
            }
            /* Recast: clamp((int)floorf(smin * ich), 0, max) and clamp((int)ceilf(smax * ich), ismin + 1, max).
             * Here 0 <= smin, smax <= by and by * ich < PX_SPAN_MAX_HEIGHT (checked at creation), so truncation
             * is floor, truncation plus one where it dropped a fraction is ceil, and the upper clamps never
             * act. */
            const float fmin = smin * f->ich;
            const float fmax = smax * f->ich;
            const int ismin = (int)fmin;
            int ismax = (int)fmax;
            ismax += (float)ismax < fmax;
            if (ismax < ismin + 1)
            {
                ismax = ismin + 1;
            }
            if (store != NULL && !pxi_column_add_span(&columns[x], store, (uint32_t)ismin, (uint32_t)ismax, area,
                                                      flag_merge_threshold))
            {
                *max_vertices = most;
                return TRI_OUT_OF_MEMORY;
            }
        }
    }
    *max_vertices = most;
    return TRI_DONE;
}

static raster_frame make_frame(const px_heightfield* hf)
{
    raster_frame f;
    f.bmin = hf->bmin;
    f.bmax = hf->bmax;
    f.cs = hf->cell_size;
    f.ics = hf->inv_cell_size;
    f.ich = hf->inv_cell_height;
    f.by = hf->bmax[1] - hf->bmin[1];
    f.w = hf->width;
    f.h = hf->depth;
    f.fast = true;
    f.sse = RASTER_SSE && !hf->reference_clipping;
    for (int i = 0; i < 3; ++i)
    {
        f.fast = f.fast && hf->bmin[i] >= -TAME_LIMIT && hf->bmax[i] <= TAME_LIMIT;
    }
    /* the far lines of the last row and column */
    f.fast = f.fast && (hf->bmin[0] + (float)hf->width * hf->cell_size) <= TAME_LIMIT &&
             (hf->bmin[2] + (float)hf->depth * hf->cell_size) <= TAME_LIMIT;
    /* the shortcuts and sweeps need tame coordinates; the reference path takes none of them */
    f.fast = f.fast && !hf->reference_clipping;
    return f;
}

/* The loop behind pxi_heightfield_rasterize and pxi_heightfield_rasterize_list: triangles[0 .. count) when
 * triangles is not NULL, else first .. first + count - 1. */
static px_status rasterize_range(px_heightfield* hf, pxi_span_store* store, const float* vertices,
                                 const int32_t* indices, const uint8_t* areas, const int32_t* triangles, int first,
                                 int count, int flag_merge_threshold, pxi_column_window window,
                                 pxi_raster_stats* stats)
{
    const raster_frame f = make_frame(hf);
    window.x0 = window.x0 > 0 ? window.x0 : 0;
    window.z0 = window.z0 > 0 ? window.z0 : 0;
    window.x1 = window.x1 < hf->width ? window.x1 : hf->width;
    window.z1 = window.z1 < hf->depth ? window.z1 : hf->depth;
    px_status status = PX_OK;
    int most = 0;
    int capacity_hits = 0;
    if (window.x0 < window.x1 && window.z0 < window.z1)
    {
        clip_buffers buf;
        memset(&buf, 0, sizeof(buf));
        for (int k = 0; k < count; ++k)
        {
            const int i = triangles != NULL ? triangles[k] : first + k;
            const float* v0;
            const float* v1;
            const float* v2;
            if (indices != NULL)
            {
                v0 = &vertices[3 * (size_t)indices[3 * (size_t)i + 0]];
                v1 = &vertices[3 * (size_t)indices[3 * (size_t)i + 1]];
                v2 = &vertices[3 * (size_t)indices[3 * (size_t)i + 2]];
            }
            else
            {
                v0 = &vertices[9 * (size_t)i];
                v1 = v0 + 3;
                v2 = v0 + 6;
            }
            const int r = rasterize_triangle(hf, &f, store, &buf, v0, v1, v2, areas[i], flag_merge_threshold,
                                             &window, &most);
            if (r == TRI_OUT_OF_MEMORY)
            {
                status = PX_ERR_OUT_OF_MEMORY;
                break;
            }
            if (r == TRI_CAPACITY)
            {
                ++capacity_hits;
                status = PX_WARN_CAPACITY;
            }
        }
    }
    if (stats != NULL)
    {
        stats->max_polygon_vertices = most > stats->max_polygon_vertices ? most : stats->max_polygon_vertices;
        stats->clip_capacity_hits += capacity_hits;
    }
    return status;
}

px_status pxi_heightfield_rasterize(px_heightfield* hf, pxi_span_store* store, const float* vertices,
                                    const int32_t* indices, const uint8_t* areas, int first, int count,
                                    int flag_merge_threshold, pxi_column_window window, pxi_raster_stats* stats)
{
    return rasterize_range(hf, store, vertices, indices, areas, NULL, first, count, flag_merge_threshold, window,
                           stats);
}

px_status pxi_heightfield_rasterize_list(px_heightfield* hf, pxi_span_store* store, const float* vertices,
                                         const int32_t* indices, const uint8_t* areas, const int32_t* triangles,
                                         int count, int flag_merge_threshold, pxi_column_window window,
                                         pxi_raster_stats* stats)
{
    return rasterize_range(hf, store, vertices, indices, areas, triangles, 0, count, flag_merge_threshold, window,
                           stats);
}

int pxi_heightfield_triangle_clip_vertices(const px_heightfield* hf, const float* v0, const float* v1,
                                           const float* v2)
{
    const raster_frame f = make_frame(hf);
    const pxi_column_window all = { 0, 0, hf->width, hf->depth };
    int most = 0;
    clip_buffers buf;
    memset(&buf, 0, sizeof(buf));
    /* a dry run never writes to the field */
    (void)rasterize_triangle((px_heightfield*)hf, &f, NULL, &buf, v0, v1, v2, 0, 0, &all, &most);
    return most;
}

/* Check indices (or the soup size) and the finiteness of every vertex a triangle uses. */
static px_status validate_triangles(const float* vertices, int vertex_count, const int32_t* indices,
                                    int triangle_count, bool check_finite)
{
    if (vertex_count < 0 || triangle_count < 0 || (triangle_count > 0 && vertices == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    if (indices == NULL)
    {
        if ((int64_t)triangle_count * 3 > (int64_t)vertex_count)
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
        if (check_finite)
        {
            for (size_t i = 0; i < 9 * (size_t)triangle_count; ++i)
            {
                if (!isfinite(vertices[i]))
                {
                    return PX_ERR_NON_FINITE;
                }
            }
        }
        return PX_OK;
    }
    const size_t n = 3 * (size_t)triangle_count;
    for (size_t i = 0; i < n; ++i)
    {
        if (indices[i] < 0 || indices[i] >= vertex_count)
        {
            return PX_ERR_INVALID_ARGUMENT;
        }
    }
    if (check_finite)
    {
        for (size_t i = 0; i < n; ++i)
        {
            const float* v = &vertices[3 * (size_t)indices[i]];
            if (!isfinite(v[0]) || !isfinite(v[1]) || !isfinite(v[2]))
            {
                return PX_ERR_NON_FINITE;
            }
        }
    }
    return PX_OK;
}

px_status px_heightfield_rasterize_triangles(px_heightfield* hf, const float* vertices, int vertex_count,
                                             const int32_t* indices, const uint8_t* areas, int triangle_count,
                                             int flag_merge_threshold)
{
    if (hf == NULL || flag_merge_threshold < 0 || (triangle_count > 0 && areas == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = validate_triangles(vertices, vertex_count, indices, triangle_count, true);
    if (status != PX_OK)
    {
        return status;
    }
    const pxi_column_window all = { 0, 0, hf->width, hf->depth };
    return pxi_heightfield_rasterize(hf, &hf->store, vertices, indices, areas, 0, triangle_count,
                                     flag_merge_threshold, all, NULL);
}

px_status px_mark_walkable_triangles(float walkable_slope_degrees, const float* vertices, int vertex_count,
                                     const int32_t* indices, int triangle_count, uint8_t* areas)
{
    if (isnan(walkable_slope_degrees) || isinf(walkable_slope_degrees))
    {
        return PX_ERR_NON_FINITE;
    }
    if (walkable_slope_degrees < 0.0f || (triangle_count > 0 && areas == NULL))
    {
        return PX_ERR_INVALID_ARGUMENT;
    }
    px_status status = validate_triangles(vertices, vertex_count, indices, triangle_count, false);
    if (status != PX_OK)
    {
        return status;
    }
    /* Recast's threshold, then never below 0: a vertical or downward-facing triangle is never walkable */
    float threshold = cosf(walkable_slope_degrees / 180.0f * RECAST_PI);
    threshold = threshold > 0.0f ? threshold : 0.0f;
    for (int i = 0; i < triangle_count; ++i)
    {
        const float* v0;
        const float* v1;
        const float* v2;
        if (indices != NULL)
        {
            v0 = &vertices[3 * (size_t)indices[3 * (size_t)i + 0]];
            v1 = &vertices[3 * (size_t)indices[3 * (size_t)i + 1]];
            v2 = &vertices[3 * (size_t)indices[3 * (size_t)i + 2]];
        }
        else
        {
            v0 = &vertices[9 * (size_t)i];
            v1 = v0 + 3;
            v2 = v0 + 6;
        }
        /* Recast's calcTriNormal: e0 = v1 - v0, e1 = v2 - v0, n = e0 x e1, n *= 1 / sqrt(|n|^2) */
        const float e0[3] = { v1[0] - v0[0], v1[1] - v0[1], v1[2] - v0[2] };
        const float e1[3] = { v2[0] - v0[0], v2[1] - v0[1], v2[2] - v0[2] };
        float nx = e0[1] * e1[2] - e0[2] * e1[1];
        float ny = e0[2] * e1[0] - e0[0] * e1[2];
        float nz = e0[0] * e1[1] - e0[1] * e1[0];
        float length2 = nx * nx + ny * ny + nz * nz;
        if (length2 == INFINITY && isfinite(nx) && isfinite(ny) && isfinite(nz))
        {
            /* edges of 2^32 and more: |n|^2 overflows where Recast's would too (a flat floor read as a
             * wall). Scaled by a power of two, exactly, the normal's direction is the same; by 2^-66 every
             * finite component is below 2^62, so the sum of squares stays below 2^126. */
            nx *= 0x1p-66f;
            ny *= 0x1p-66f;
            nz *= 0x1p-66f;
            length2 = nx * nx + ny * ny + nz * nz;
        }
        if (!(length2 > 0.0f))
        {
            continue; /* zero, underflowing or NaN normal */
        }
        const float d = 1.0f / sqrtf(length2);
        if (ny * d > threshold)
        {
            areas[i] = PX_WALKABLE_AREA;
        }
    }
    return PX_OK;
}
