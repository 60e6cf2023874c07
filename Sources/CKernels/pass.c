#include "pair_kernel.h"

#include <immintrin.h>
#include <math.h>
#include <stdlib.h>

// MARK: the fine histogram

/// Eight lanes of extremes and four of sums, as `WorkerTotals.add` keeps them.
struct fine_lanes {
    float low[8], high[8];
    double sum[4], squares[4];
};

static inline uint32_t fine_bin(float s, float scale, float top) {
    float v = (s + 1) * scale;
    return (uint32_t)(v > 0 ? (v < top ? v : top) : 0);
}

static void fine_scalar(const float *p, size_t whole, float scale, float top, uint32_t *counts, struct fine_lanes *l) {
    for (size_t k = 0; k < whole; k += 8)
        for (int q = 0; q < 8; q++) {
            float s = p[k + q];
            counts[fine_bin(s, scale, top)] += 1;
            if (s < l->low[q]) l->low[q] = s;
            if (s > l->high[q]) l->high[q] = s;
            l->sum[q & 3] += (double)s;
            l->squares[q & 3] += (double)s * (double)s;
        }
}

/// Eight values a step from one load; the AVX-512 path runs it too (the scattered increments bound the loop, not the
/// arithmetic).
__attribute__((target("avx2"))) static void fine_avx2(const float *p, size_t whole, float scale, float top, uint32_t *counts,
                                                      struct fine_lanes *l) {
    __m256 one = _mm256_set1_ps(1), vscale = _mm256_set1_ps(scale), vtop = _mm256_set1_ps(top), zero = _mm256_setzero_ps();
    __m256 low = _mm256_loadu_ps(l->low), high = _mm256_loadu_ps(l->high);
    __m256d sum = _mm256_loadu_pd(l->sum), squares = _mm256_loadu_pd(l->squares);
    int32_t bin[8];
    for (size_t k = 0; k < whole; k += 8) {
        __m256 s = _mm256_loadu_ps(p + k);
        __m256 v = _mm256_mul_ps(_mm256_add_ps(s, one), vscale);
        v = _mm256_and_ps(v, _mm256_cmp_ps(v, zero, _CMP_GT_OQ));
        v = _mm256_blendv_ps(v, vtop, _mm256_cmp_ps(v, vtop, _CMP_GT_OQ));
        _mm256_storeu_si256((__m256i *)bin, _mm256_cvttps_epi32(v));
        for (int q = 0; q < 8; q++) counts[bin[q]] += 1;
        low = _mm256_blendv_ps(low, s, _mm256_cmp_ps(s, low, _CMP_LT_OQ));
        high = _mm256_blendv_ps(high, s, _mm256_cmp_ps(s, high, _CMP_GT_OQ));
        __m256d first = _mm256_cvtps_pd(_mm256_castps256_ps128(s)), second = _mm256_cvtps_pd(_mm256_extractf128_ps(s, 1));
        sum = _mm256_add_pd(sum, first);
        squares = _mm256_add_pd(squares, _mm256_mul_pd(first, first));
        sum = _mm256_add_pd(sum, second);
        squares = _mm256_add_pd(squares, _mm256_mul_pd(second, second));
    }
    _mm256_storeu_ps(l->low, low);
    _mm256_storeu_ps(l->high, high);
    _mm256_storeu_pd(l->sum, sum);
    _mm256_storeu_pd(l->squares, squares);
}

void tl_fine_add(int path, const float *p, size_t n, float scale, float top, uint32_t *counts, float *lo, float *hi,
                 double *sum, double *squares) {
    if (n == 0) return;
    struct fine_lanes l = {.sum = {0}, .squares = {0}};
    for (int q = 0; q < 8; q++) l.low[q] = *lo, l.high[q] = *hi;
    size_t whole = n - n % 8, quads = n - n % 4;
    if (path == TL_PATH_SCALAR) fine_scalar(p, whole, scale, top, counts, &l);
    else fine_avx2(p, whole, scale, top, counts, &l);
    double tail = 0, tail_squares = 0;
    for (size_t r = whole; r < n; r++) {
        float s = p[r];
        counts[fine_bin(s, scale, top)] += 1;
        if (s < l.low[0]) l.low[0] = s;
        if (s >= l.high[0]) l.high[0] = s;
        if (r < quads) {
            l.sum[r & 3] += (double)s;
            l.squares[r & 3] += (double)s * (double)s;
        } else {
            tail += (double)s;
            tail_squares += (double)s * (double)s;
        }
    }
    // Swift's folds: Float.minimum keeps the first of equal lanes, Float.maximum the last; sum() from −0 in lane order.
    float fold_low = l.low[0], fold_high = l.high[0];
    double fold_sum = -0.0, fold_squares = -0.0;
    for (int q = 0; q < 8; q++) {
        if (!(fold_low <= l.low[q] || isnan(l.low[q]))) fold_low = l.low[q];
        if (!(fold_high > l.high[q] || isnan(l.high[q]))) fold_high = l.high[q];
    }
    for (int j = 0; j < 4; j++) fold_sum += l.sum[j], fold_squares += l.squares[j];
    *lo = fold_low;
    *hi = fold_high;
    *sum += fold_sum + tail;
    *squares += fold_squares + tail_squares;
}

// MARK: the spanning forest's test

/// The first 32 levels padded with −∞ (never above a weight), and (for the AVX-512 path) the row item's label at each.
struct forest_row {
    const struct tl_forest_snapshot *s;
    float levels[32];
    int32_t labels[32];
    int32_t item;
};

static struct forest_row forest_row_of(const struct tl_forest_snapshot *s, int32_t item, int with_labels) {
    struct forest_row r = {.s = s, .item = item};
    for (int k = 0; k < 32; k++) {
        r.levels[k] = k < s->level_count ? s->levels[k] : -INFINITY;
        r.labels[k] = with_labels && k < s->level_count ? s->labels[(size_t)k * s->items + (size_t)item] : 0;
    }
    return r;
}

/// The levels strictly above w (a lower bound on the descending levels).
static int levels_above(const struct forest_row *r, float w) {
    int lo = 0, hi = r->s->level_count;
    if (hi <= 32) {
        for (int step = 16; step > 0; step >>= 1) lo += r->levels[lo + step - 1] > w ? step : 0;
        return lo + (r->levels[lo] > w);
    }
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->s->levels[mid] > w) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/// Whether the lightest level strictly above w joins the row's item and item j.
static inline int joined_above(const struct forest_row *r, int32_t j, float w) {
    int above = levels_above(r, w);
    if (above == 0) return 0;
    const int32_t *level = r->s->labels + (size_t)(above - 1) * r->s->items;
    return level[j] == level[r->item];
}

static inline float capped(float s, float row_cap, const float *column_cap, size_t b) {
    if (!column_cap) return s;
    float w = row_cap < s ? row_cap : s;
    return column_cap[b] < w ? column_cap[b] : w;
}

/// capped on sixteen lanes (those of `live` loaded).
__attribute__((target("avx512f"))) static inline __m512 capped16(__m512 w, __m512 row_cap, const float *column_cap, __mmask16 live) {
    if (!column_cap) return w;
    w = _mm512_mask_mov_ps(w, _mm512_cmp_ps_mask(row_cap, w, _CMP_LT_OQ), row_cap);
    __m512 c = _mm512_maskz_loadu_ps(live, column_cap);
    return _mm512_mask_mov_ps(w, _mm512_cmp_ps_mask(c, w, _CMP_LT_OQ), c);
}

static size_t forest_scalar(const struct forest_row *r, const float *row, size_t from, size_t n, const int32_t *column_item,
                            float row_reach, const float *column_reach, float row_cap, const float *column_cap, int32_t *kept) {
    size_t count = 0;
    for (size_t b = from; b < n; b++) {
        float w = capped(row[b], row_cap, column_cap, b);
        if (!(w >= column_reach[b] || w >= row_reach)) continue;
        if (!joined_above(r, column_item[b], w)) kept[count++] = (int32_t)b;
    }
    return count;
}

/// Eight pairs a step below both reaches are dropped at once (nearly all, once the forest spans); the rest one by one.
__attribute__((target("avx2"))) static size_t forest_avx2(const struct forest_row *r, const float *row, size_t n,
                                                         const int32_t *column_item, float row_reach, const float *column_reach,
                                                         float row_cap, const float *column_cap, int32_t *kept) {
    __m256 reach = _mm256_set1_ps(row_reach), cap = _mm256_set1_ps(row_cap);
    size_t count = 0, b = 0;
    for (; b + 8 <= n; b += 8) {
        __m256 w = _mm256_loadu_ps(row + b);
        if (column_cap) {
            w = _mm256_blendv_ps(w, cap, _mm256_cmp_ps(cap, w, _CMP_LT_OQ));
            __m256 c = _mm256_loadu_ps(column_cap + b);
            w = _mm256_blendv_ps(w, c, _mm256_cmp_ps(c, w, _CMP_LT_OQ));
        }
        __m256 pass = _mm256_or_ps(_mm256_cmp_ps(w, _mm256_loadu_ps(column_reach + b), _CMP_GE_OQ), _mm256_cmp_ps(w, reach, _CMP_GE_OQ));
        unsigned mask = (unsigned)_mm256_movemask_ps(pass);
        float lanes[8];
        if (mask) _mm256_storeu_ps(lanes, w);
        for (; mask; mask &= mask - 1) {
            int q = __builtin_ctz(mask);
            if (!joined_above(r, column_item[b + q], lanes[q])) kept[count++] = (int32_t)(b + q);
        }
    }
    return count + forest_scalar(r, row, b, n, column_item, row_reach, column_reach, row_cap, column_cap, kept + count);
}

/// Sixteen pairs a step, the exact test vectorised too: the levels above each weight by a branch-free search of the 32
/// padded levels held in two registers, the row's labels likewise, the column items' labels gathered.
__attribute__((target("avx512f"))) static size_t forest_avx512(const struct forest_row *r, const float *row, size_t n,
                                                             const int32_t *column_item, float row_reach,
                                                             const float *column_reach, float row_cap, const float *column_cap,
                                                             int32_t *kept) {
    __m512 levels0 = _mm512_loadu_ps(r->levels), levels1 = _mm512_loadu_ps(r->levels + 16);
    __m512i labels0 = _mm512_loadu_si512(r->labels), labels1 = _mm512_loadu_si512(r->labels + 16);
    __m512 reach = _mm512_set1_ps(row_reach), cap = _mm512_set1_ps(row_cap);
    __m512i one = _mm512_set1_epi32(1), items = _mm512_set1_epi32((int32_t)r->s->items);
    __m512i lane = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    size_t count = 0;
    for (size_t b = 0; b < n; b += 16) {
        __mmask16 live = n - b >= 16 ? 0xffff : (__mmask16)((1u << (n - b)) - 1);
        __m512 w = capped16(_mm512_maskz_loadu_ps(live, row + b), cap, column_cap ? column_cap + b : NULL, live);
        __m512 columns = _mm512_maskz_loadu_ps(live, column_reach + b);
        __mmask16 pass = live & (_mm512_cmp_ps_mask(w, columns, _CMP_GE_OQ) | _mm512_cmp_ps_mask(w, reach, _CMP_GE_OQ));
        if (!pass) continue;
        __m512i above = _mm512_setzero_si512();
        for (int step = 16; step > 0; step >>= 1) {
            __m512i next = _mm512_add_epi32(above, _mm512_set1_epi32(step));
            __m512 level = _mm512_permutex2var_ps(levels0, _mm512_sub_epi32(next, one), levels1);
            above = _mm512_mask_mov_epi32(above, _mm512_cmp_ps_mask(level, w, _CMP_GT_OQ), next);
        }
        __m512 last = _mm512_permutex2var_ps(levels0, above, levels1);
        above = _mm512_mask_add_epi32(above, _mm512_cmp_ps_mask(last, w, _CMP_GT_OQ), above, one);
        __mmask16 joinable = pass & _mm512_cmpgt_epi32_mask(above, _mm512_setzero_si512());
        __m512i k = _mm512_sub_epi32(above, one);
        __m512i index = _mm512_add_epi32(_mm512_mullo_epi32(k, items), _mm512_maskz_loadu_epi32(joinable, column_item + b));
        __m512i theirs = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), joinable, index, r->s->labels, 4);
        __m512i ours = _mm512_permutex2var_epi32(labels0, k, labels1);
        __mmask16 keep = pass & ~(joinable & _mm512_cmpeq_epi32_mask(theirs, ours));
        _mm512_mask_compressstoreu_epi32(kept + count, keep, _mm512_add_epi32(lane, _mm512_set1_epi32((int32_t)b)));
        count += (size_t)__builtin_popcount(keep);
    }
    return count;
}

size_t tl_forest_row(int path, const float *row, size_t n, int32_t item, const int32_t *column_item, float row_reach,
                     const float *column_reach, float row_cap, const float *column_cap, const struct tl_forest_snapshot *snapshot,
                     int32_t *kept) {
    int gathers = path == TL_PATH_AVX512 && snapshot->level_count <= 32 && snapshot->items * 32 <= INT32_MAX;
    struct forest_row r = forest_row_of(snapshot, item, gathers);
    if (gathers)
        return forest_avx512(&r, row, n, column_item, row_reach, column_reach, row_cap, column_cap, kept);
    if (path != TL_PATH_SCALAR) return forest_avx2(&r, row, n, column_item, row_reach, column_reach, row_cap, column_cap, kept);
    return forest_scalar(&r, row, 0, n, column_item, row_reach, column_reach, row_cap, column_cap, kept);
}

// MARK: the heaviest pair of a tile row

/// Pair b's weight: row[b], capped as in `capped`; NaN never the heaviest.
static size_t heaviest_scalar(const float *row, size_t from, size_t n, float row_cap, const float *column_cap, float *best) {
    size_t at = n;
    for (size_t b = from; b < n; b++) {
        float w = capped(row[b], row_cap, column_cap, b);
        if (w > *best) *best = w, at = b;
    }
    return at;
}

/// The largest weight by sixteen lanes that move only on a strict comparison (so NaN never enters), then the scalar
/// loop from the first block that holds it, which finds its first index.
__attribute__((target("avx512f"))) static size_t heaviest_avx512(const float *row, size_t n, float row_cap, const float *column_cap,
                                                               float *best) {
    __m512 top = _mm512_set1_ps(*best), cap = _mm512_set1_ps(row_cap);
    size_t whole = n - n % 16;
    for (size_t b = 0; b < whole; b += 16) {
        __m512 w = capped16(_mm512_loadu_ps(row + b), cap, column_cap ? column_cap + b : NULL, 0xffff);
        top = _mm512_mask_mov_ps(top, _mm512_cmp_ps_mask(w, top, _CMP_GT_OQ), w);
    }
    float lanes[16], largest = *best;
    _mm512_storeu_ps(lanes, top);
    for (int q = 0; q < 16; q++)
        if (lanes[q] > largest) largest = lanes[q];
    if (!(largest > *best)) return heaviest_scalar(row, whole, n, row_cap, column_cap, best);
    __m512 wanted = _mm512_set1_ps(largest);
    size_t from = 0;
    for (; from < whole; from += 16) {
        __m512 w = capped16(_mm512_loadu_ps(row + from), cap, column_cap ? column_cap + from : NULL, 0xffff);
        if (_mm512_cmp_ps_mask(w, wanted, _CMP_EQ_OQ)) break;
    }
    return heaviest_scalar(row, from, n, row_cap, column_cap, best);
}

size_t tl_heaviest_row(int path, const float *row, size_t n, float row_cap, const float *column_cap, float *best) {
    if (path == TL_PATH_AVX512) return heaviest_avx512(row, n, row_cap, column_cap, best);
    return heaviest_scalar(row, 0, n, row_cap, column_cap, best);
}

// MARK: a diagonal tile's maximum spanning tree

/// The start of row v of the strict lower triangle packed by rows.
static inline size_t lower_row(int v) { return v > 0 ? (size_t)v * (size_t)(v - 1) / 2 : 0; }

/// lower[lower_row(v) + u] = upper[u·stride + v] for u < v (so Prim reads column v of the upper triangle as a row), by
/// 32 × 32 blocks through a local block: every load and store a run of up to 32 floats.
static void transpose_upper(const float *upper, size_t stride, int t, float *lower) {
    float block[32][32];
    for (int ub = 0; ub < t; ub += 32)
        for (int vb = ub; vb < t; vb += 32) {
            int us = t - ub < 32 ? t - ub : 32, vs = t - vb < 32 ? t - vb : 32;
            for (int u = 0; u < us; u++)  // on a diagonal block only the cells above the diagonal (the rest undefined)
                for (int v = ub == vb ? u + 1 : 0; v < vs; v++) block[v][u] = upper[(size_t)(ub + u) * stride + (size_t)(vb + v)];
            for (int v = 0; v < vs; v++)
                for (int u = 0; u < us && ub + u < vb + v; u++) lower[lower_row(vb + v) + (size_t)(ub + u)] = block[v][u];
        }
}

/// The items not yet in the tree, in the order their swap-removal leaves them, with their keys (the heaviest weight to
/// the tree so far) and where that weight comes from.
struct open_items {
    int32_t *item, *from;
    float *key;
    int count;
};

/// One step of Prim from the newest tree item v (its weights: up[u] to items u > v, low[u] to items u < v): each open
/// key raised to a strictly heavier weight; then the first open position of the heaviest key.
static int prim_step_scalar(struct open_items *o, const float *up, const float *low, int v, const float *caps) {
    int best = 0;
    for (int k = 0; k < o->count; k++) {
        int u = o->item[k];
        float s = u > v ? up[u] : low[u];
        if (caps) s = capped(s, caps[v], caps, (size_t)u);
        if (s > o->key[k]) o->key[k] = s, o->from[k] = v;
        if (o->key[k] > o->key[best]) best = k;
    }
    return best;
}

/// Sixteen open items a step, their weights gathered from the row; the heaviest key by lanes that move only on a strict
/// comparison, then its first position.
__attribute__((target("avx512f"))) static int prim_step_avx512(struct open_items *o, const float *up, const float *low, int v,
                                                              const float *caps) {
    __m512 top = _mm512_set1_ps(-INFINITY), cap = _mm512_set1_ps(caps ? caps[v] : INFINITY);
    __m512i from = _mm512_set1_epi32(v);
    for (int k = 0; k < o->count; k += 16) {
        __mmask16 live = o->count - k >= 16 ? 0xffff : (__mmask16)((1u << (o->count - k)) - 1);
        __m512i u = _mm512_maskz_loadu_epi32(live, o->item + k);
        __mmask16 above = live & _mm512_cmpgt_epi32_mask(u, from);
        __m512 s = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), above, u, up, 4);
        s = _mm512_mask_i32gather_ps(s, live & ~above, u, low, 4);
        if (caps) {
            s = _mm512_mask_mov_ps(s, _mm512_cmp_ps_mask(cap, s, _CMP_LT_OQ), cap);
            __m512 c = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), live, u, caps, 4);
            s = _mm512_mask_mov_ps(s, _mm512_cmp_ps_mask(c, s, _CMP_LT_OQ), c);
        }
        __m512 key = _mm512_maskz_loadu_ps(live, o->key + k);
        __mmask16 raised = live & _mm512_cmp_ps_mask(s, key, _CMP_GT_OQ);
        key = _mm512_mask_mov_ps(key, raised, s);
        _mm512_mask_storeu_ps(o->key + k, raised, key);
        _mm512_mask_storeu_epi32(o->from + k, raised, from);
        top = _mm512_mask_mov_ps(top, live & _mm512_cmp_ps_mask(key, top, _CMP_GT_OQ), key);
    }
    float lanes[16], largest = o->key[0];
    _mm512_storeu_ps(lanes, top);
    for (int q = 0; q < 16; q++)
        if (lanes[q] > largest) largest = lanes[q];
    __m512 wanted = _mm512_set1_ps(largest);
    int k = 0;
    while (k + 16 <= o->count && !_mm512_cmp_ps_mask(_mm512_loadu_ps(o->key + k), wanted, _CMP_EQ_OQ)) k += 16;
    while (!(o->key[k] == largest)) k++;
    return k;
}

int tl_prim(int path, const float *upper, size_t stride, int t, const float *caps, float *lower, int32_t *parent, int32_t *child,
            float *weight) {
    float *key = malloc(sizeof(float) * (size_t)t);
    int32_t *item = malloc(sizeof(int32_t) * (size_t)t), *from = malloc(sizeof(int32_t) * (size_t)t);
    int ok = key && item && from;
    if (ok) {
        transpose_upper(upper, stride, t, lower);
        struct open_items o = {item, from, key, t - 1};
        for (int k = 0; k < o.count; k++) item[k] = k + 1, from[k] = 0, key[k] = -INFINITY;
        for (int e = 0, v = 0; o.count > 0; e++) {
            const float *up = upper + (size_t)v * stride, *low = lower + lower_row(v);
            int best = path == TL_PATH_AVX512 ? prim_step_avx512(&o, up, low, v, caps) : prim_step_scalar(&o, up, low, v, caps);
            parent[e] = from[best], child[e] = v = item[best], weight[e] = key[best];
            o.count -= 1;
            item[best] = item[o.count], from[best] = from[o.count], key[best] = key[o.count];
        }
    }
    free(key), free(item), free(from);
    return ok;
}
