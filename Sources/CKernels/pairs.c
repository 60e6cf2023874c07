#include "pair_kernel.h"

#include <immintrin.h>
#include <math.h>

/// Values indexed before their counts are added: the index loop stays in vector registers, the counting loop in
/// scalar ones (extracting each lane inside the vector loop ran at half the speed).
#define RUN 256

struct bins {
    const double *edges;
    int count;
    double first, step, scale, inner;
};

static struct bins bins_of(const double *edges, int count) {
    double width = edges[count] - edges[0];
    return (struct bins){edges, count, edges[0], width / count, count / width, count - 1};
}

int tl_edges_are_even(const double *edges, int count) {
    struct bins b = bins_of(edges, count);
    for (int i = 0; i < count; i++)
        if (!(edges[i] == (double)i * b.step + b.first)) return 0;
    return 1;
}

/// numpy's rule for one value, as `CoarseHistogram.bin(of:edges:scale:)`.
static int rule(double v, const struct bins *b) {
    const double *e = b->edges;
    double position = (v - b->first) * b->scale;
    if (isnan(position)) return 0;
    double clamped = position < 0 ? 0 : position;
    if (clamped > b->inner) clamped = b->inner;
    int i = (int)clamped;
    if (v < e[i]) i -= 1;
    else if (i < b->count - 1 && v >= e[i + 1]) i += 1;
    return i < 0 ? 0 : i;
}

/// Inside the first bins − 1 bins (never a NaN) the rule reduces to its two edge comparisons.
static inline int bin_of(double v, const struct bins *b) {
    double position = (v - b->first) * b->scale;
    if (!(position >= 0 && position < b->inner)) return rule(v, b);
    int i = (int)position;
    i = i - (v < b->edges[i]) + (v >= b->edges[i + 1]);
    return i < 0 ? 0 : i;
}

#define SCALAR_INDEX(NAME, T)                                                                                                   \
    static void NAME(const T *v, int n, const struct bins *b, int32_t *index) {                                                \
        for (int k = 0; k < n; k++) index[k] = bin_of((double)v[k], b);                                                        \
    }
SCALAR_INDEX(index_scalar_f64, double)
SCALAR_INDEX(index_scalar_f32, float)

/// Eight values a step: where all eight lie inside, the floor of the position, one down below its lower edge, one up
/// at or above its upper edge (both computed, i·step + first), clamped at 0; else each by `bin_of`.
#define AVX512_INDEX(NAME, T, LOAD)                                                                                            \
    __attribute__((target("avx512f"))) static void NAME(const T *v, int n, const struct bins *b, int32_t *index) {           \
        __m512d first = _mm512_set1_pd(b->first), step = _mm512_set1_pd(b->step), scale = _mm512_set1_pd(b->scale);           \
        __m512d inner = _mm512_set1_pd(b->inner), zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1);                         \
        int k = 0;                                                                                                              \
        for (; k + 8 <= n; k += 8) {                                                                                            \
            __m512d x = LOAD(v + k);                                                                                            \
            __m512d position = _mm512_mul_pd(_mm512_sub_pd(x, first), scale);                                                  \
            __mmask8 inside = _mm512_cmp_pd_mask(position, zero, _CMP_GE_OQ) & _mm512_cmp_pd_mask(position, inner, _CMP_LT_OQ); \
            if (inside != 0xff) {                                                                                               \
                for (int j = k; j < k + 8; j++) index[j] = bin_of((double)v[j], b);                                            \
                continue;                                                                                                       \
            }                                                                                                                   \
            __m512d i = _mm512_roundscale_pd(position, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);                             \
            __m512d low = _mm512_add_pd(_mm512_mul_pd(i, step), first);                                                        \
            __m512d high = _mm512_add_pd(_mm512_mul_pd(_mm512_add_pd(i, one), step), first);                                   \
            i = _mm512_mask_sub_pd(i, _mm512_cmp_pd_mask(x, low, _CMP_LT_OQ), i, one);                                         \
            i = _mm512_mask_add_pd(i, _mm512_cmp_pd_mask(x, high, _CMP_GE_OQ), i, one);                                        \
            _mm256_storeu_si256((__m256i *)(index + k), _mm512_cvttpd_epi32(_mm512_max_pd(i, zero)));                           \
        }                                                                                                                       \
        for (; k < n; k++) index[k] = bin_of((double)v[k], b);                                                                 \
    }

__attribute__((target("avx512f"))) static inline __m512d load8_f64(const double *p) { return _mm512_loadu_pd(p); }
__attribute__((target("avx512f"))) static inline __m512d load8_f32(const float *p) { return _mm512_cvtps_pd(_mm256_loadu_ps(p)); }
AVX512_INDEX(index_avx512_f64, double, load8_f64)
AVX512_INDEX(index_avx512_f32, float, load8_f32)

/// The same four values a step, the comparisons as all-ones lanes.
#define AVX2_INDEX(NAME, T, LOAD)                                                                                              \
    __attribute__((target("avx2"))) static void NAME(const T *v, int n, const struct bins *b, int32_t *index) {              \
        __m256d first = _mm256_set1_pd(b->first), step = _mm256_set1_pd(b->step), scale = _mm256_set1_pd(b->scale);           \
        __m256d inner = _mm256_set1_pd(b->inner), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1);                         \
        int k = 0;                                                                                                              \
        for (; k + 4 <= n; k += 4) {                                                                                            \
            __m256d x = LOAD(v + k);                                                                                            \
            __m256d position = _mm256_mul_pd(_mm256_sub_pd(x, first), scale);                                                  \
            __m256d inside = _mm256_and_pd(_mm256_cmp_pd(position, zero, _CMP_GE_OQ), _mm256_cmp_pd(position, inner, _CMP_LT_OQ)); \
            if (_mm256_movemask_pd(inside) != 0xf) {                                                                            \
                for (int j = k; j < k + 4; j++) index[j] = bin_of((double)v[j], b);                                            \
                continue;                                                                                                       \
            }                                                                                                                   \
            __m256d i = _mm256_floor_pd(position);                                                                              \
            __m256d low = _mm256_add_pd(_mm256_mul_pd(i, step), first);                                                        \
            __m256d high = _mm256_add_pd(_mm256_mul_pd(_mm256_add_pd(i, one), step), first);                                   \
            i = _mm256_sub_pd(i, _mm256_and_pd(_mm256_cmp_pd(x, low, _CMP_LT_OQ), one));                                       \
            i = _mm256_add_pd(i, _mm256_and_pd(_mm256_cmp_pd(x, high, _CMP_GE_OQ), one));                                      \
            _mm_storeu_si128((__m128i *)(index + k), _mm256_cvttpd_epi32(_mm256_max_pd(i, zero)));                              \
        }                                                                                                                       \
        for (; k < n; k++) index[k] = bin_of((double)v[k], b);                                                                 \
    }

__attribute__((target("avx2"))) static inline __m256d load4_f64(const double *p) { return _mm256_loadu_pd(p); }
__attribute__((target("avx2"))) static inline __m256d load4_f32(const float *p) { return _mm256_cvtps_pd(_mm_loadu_ps(p)); }
AVX2_INDEX(index_avx2_f64, double, load4_f64)
AVX2_INDEX(index_avx2_f32, float, load4_f32)

static void add_counts(const int32_t *index, int n, int bins, int64_t *lanes) {
    int k = 0;
    for (; k + 4 <= n; k += 4) {
        lanes[index[k]]++;
        lanes[bins + index[k + 1]]++;
        lanes[2 * bins + index[k + 2]]++;
        lanes[3 * bins + index[k + 3]]++;
    }
    for (; k < n; k++) lanes[(k & 3) * bins + index[k]]++;
}

#define COUNT_BINS(NAME, T, SCALAR, AVX2, AVX512)                                                                              \
    void NAME(int path, const T *values, size_t n, const double *edges, int count, int64_t *lanes) {                          \
        struct bins b = bins_of(edges, count);                                                                                  \
        int32_t index[RUN];                                                                                                     \
        for (size_t k = 0; k < n; k += RUN) {                                                                                   \
            int m = n - k < RUN ? (int)(n - k) : RUN;                                                                           \
            if (path == TL_PATH_AVX512) AVX512(values + k, m, &b, index);                                                       \
            else if (path == TL_PATH_AVX2) AVX2(values + k, m, &b, index);                                                      \
            else SCALAR(values + k, m, &b, index);                                                                              \
            add_counts(index, m, count, lanes);                                                                                 \
        }                                                                                                                       \
    }
COUNT_BINS(tl_count_bins_f64, double, index_scalar_f64, index_avx2_f64, index_avx512_f64)
COUNT_BINS(tl_count_bins_f32, float, index_scalar_f32, index_avx2_f32, index_avx512_f32)

static inline double centred(const double *raw, const double *h, const double *w, double ha, double wa, size_t b) {
    return (raw[b] - ha - h[b]) * wa * w[b];
}

static void centre_scalar(const double *raw, const double *h, const double *w, double ha, double wa, size_t n, double *out,
                          double *lo, double *hi) {
    for (size_t b = 0; b < n; b++) {
        double v = out[b] = centred(raw, h, w, ha, wa, b);
        if (v < *lo) *lo = v;
        if (v > *hi) *hi = v;
    }
}

/// Eight lanes of extremes, folded at the end of the row.
__attribute__((target("avx512f"))) static void centre_avx512(const double *raw, const double *h, const double *w, double ha,
                                                             double wa, size_t n, double *out, double *lo, double *hi) {
    __m512d low = _mm512_set1_pd(*lo), high = _mm512_set1_pd(*hi), vha = _mm512_set1_pd(ha), vwa = _mm512_set1_pd(wa);
    size_t b = 0;
    for (; b + 8 <= n; b += 8) {
        __m512d v = _mm512_sub_pd(_mm512_sub_pd(_mm512_loadu_pd(raw + b), vha), _mm512_loadu_pd(h + b));
        v = _mm512_mul_pd(_mm512_mul_pd(v, vwa), _mm512_loadu_pd(w + b));
        _mm512_storeu_pd(out + b, v);
        low = _mm512_min_pd(v, low);
        high = _mm512_max_pd(v, high);
    }
    *lo = _mm512_reduce_min_pd(low);
    *hi = _mm512_reduce_max_pd(high);
    centre_scalar(raw + b, h + b, w + b, ha, wa, n - b, out + b, lo, hi);
}

__attribute__((target("avx2"))) static void centre_avx2(const double *raw, const double *h, const double *w, double ha, double wa,
                                                        size_t n, double *out, double *lo, double *hi) {
    __m256d low = _mm256_set1_pd(*lo), high = _mm256_set1_pd(*hi), vha = _mm256_set1_pd(ha), vwa = _mm256_set1_pd(wa);
    size_t b = 0;
    for (; b + 4 <= n; b += 4) {
        __m256d v = _mm256_sub_pd(_mm256_sub_pd(_mm256_loadu_pd(raw + b), vha), _mm256_loadu_pd(h + b));
        v = _mm256_mul_pd(_mm256_mul_pd(v, vwa), _mm256_loadu_pd(w + b));
        _mm256_storeu_pd(out + b, v);
        low = _mm256_min_pd(v, low);
        high = _mm256_max_pd(v, high);
    }
    double l[4], u[4];
    _mm256_storeu_pd(l, low);
    _mm256_storeu_pd(u, high);
    for (int j = 0; j < 4; j++) {
        if (l[j] < *lo) *lo = l[j];
        if (u[j] > *hi) *hi = u[j];
    }
    centre_scalar(raw + b, h + b, w + b, ha, wa, n - b, out + b, lo, hi);
}

void tl_centre_row(int path, const double *raw, const double *h, const double *w, double ha, double wa, size_t n, double *out,
                   double *lo, double *hi) {
    if (path == TL_PATH_AVX512) centre_avx512(raw, h, w, ha, wa, n, out, lo, hi);
    else if (path == TL_PATH_AVX2) centre_avx2(raw, h, w, ha, wa, n, out, lo, hi);
    else centre_scalar(raw, h, w, ha, wa, n, out, lo, hi);
    if (*lo == 0) *lo = 0;
    if (*hi == 0) *hi = 0;
}

static size_t first_index_of(const float *v, size_t from, size_t n, float top) {
    while (from < n && v[from] != top) from++;
    return from;
}

static size_t first_maximum_scalar(const float *v, size_t n) {
    float top = v[0];
    for (size_t i = 1; i < n; i++)
        if (v[i] > top) top = v[i];
    return first_index_of(v, 0, n, top);
}

/// Sixteen lanes of maxima, folded; then the first block of sixteen holding the largest, and its first such lane.
__attribute__((target("avx512f"))) static size_t first_maximum_avx512(const float *v, size_t n) {
    size_t whole = n - n % 16;
    __m512 lanes = _mm512_set1_ps(-INFINITY);
    for (size_t i = 0; i < whole; i += 16) lanes = _mm512_max_ps(lanes, _mm512_loadu_ps(v + i));
    float top = _mm512_reduce_max_ps(lanes);
    for (size_t i = whole; i < n; i++)
        if (v[i] > top) top = v[i];
    __m512 wanted = _mm512_set1_ps(top);
    size_t block = 0;
    while (block < whole && !_mm512_cmp_ps_mask(_mm512_loadu_ps(v + block), wanted, _CMP_EQ_OQ)) block += 16;
    return first_index_of(v, block, n, top);
}

__attribute__((target("avx2"))) static size_t first_maximum_avx2(const float *v, size_t n) {
    size_t whole = n - n % 8;
    __m256 lanes = _mm256_set1_ps(-INFINITY);
    for (size_t i = 0; i < whole; i += 8) lanes = _mm256_max_ps(lanes, _mm256_loadu_ps(v + i));
    float l[8], top = -INFINITY;
    _mm256_storeu_ps(l, lanes);
    for (int j = 0; j < 8; j++)
        if (l[j] > top) top = l[j];
    for (size_t i = whole; i < n; i++)
        if (v[i] > top) top = v[i];
    __m256 wanted = _mm256_set1_ps(top);
    size_t block = 0;
    while (block < whole && !_mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(v + block), wanted, _CMP_EQ_OQ))) block += 8;
    return first_index_of(v, block, n, top);
}

size_t tl_first_maximum(int path, const float *values, size_t n) {
    if (path == TL_PATH_AVX512) return first_maximum_avx512(values, n);
    if (path == TL_PATH_AVX2) return first_maximum_avx2(values, n);
    return first_maximum_scalar(values, n);
}
