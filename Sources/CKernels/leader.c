#include "leader_kernel.h"

#include <math.h>

/// Sweeps handled by one pass over the row: their label and sum pointers stay in registers.
#define LANES 4

#define GROUP_SUMS(NAME, T)                                                                                               \
    void NAME(const T *row, size_t n, int sweeps, const int32_t *const *labels, double *const *sums, const int32_t *groups) { \
        for (int s = 0; s < sweeps; s++)                                                                                   \
            for (int32_t k = 0; k < groups[s]; k++) sums[s][k] = 0;                                                        \
        int s = 0;                                                                                                         \
        for (; s + LANES <= sweeps; s += LANES) {                                                                          \
            const int32_t *l0 = labels[s], *l1 = labels[s + 1], *l2 = labels[s + 2], *l3 = labels[s + 3];                  \
            double *d0 = sums[s], *d1 = sums[s + 1], *d2 = sums[s + 2], *d3 = sums[s + 3];                                 \
            for (size_t b = 0; b < n; b++) {                                                                               \
                double v = (double)row[b];                                                                                 \
                d0[l0[b]] += v;                                                                                            \
                d1[l1[b]] += v;                                                                                            \
                d2[l2[b]] += v;                                                                                            \
                d3[l3[b]] += v;                                                                                            \
            }                                                                                                              \
        }                                                                                                                  \
        for (; s < sweeps; s++) {                                                                                          \
            const int32_t *l = labels[s];                                                                                  \
            double *d = sums[s];                                                                                           \
            for (size_t b = 0; b < n; b++) d[l[b]] += (double)row[b];                                                      \
        }                                                                                                                  \
    }

GROUP_SUMS(tl_group_sums_f32, float)
GROUP_SUMS(tl_group_sums_f64, double)

#define QUOTIENTS(NAME, TARGET)                                                                                 \
    TARGET static void NAME(const double *sums, const double *norms, int32_t groups, double *quotients) {      \
        for (int32_t k = 0; k < groups; k++) quotients[k] = norms[k] > 0 ? sums[k] / norms[k] : 0;           \
    }

QUOTIENTS(quotients_avx512, __attribute__((target("avx512f"))))
QUOTIENTS(quotients_avx2, __attribute__((target("avx2"))))
QUOTIENTS(quotients_scalar, )

int32_t tl_nearest_group(int path, const double *sums, const double *norms, int32_t groups, double *quotients, double *best) {
    if (path == TL_PATH_AVX512) quotients_avx512(sums, norms, groups, quotients);
    else if (path == TL_PATH_AVX2) quotients_avx2(sums, norms, groups, quotients);
    else quotients_scalar(sums, norms, groups, quotients);
    int32_t found = -1;
    double top = -INFINITY;
    for (int32_t k = 0; k < groups; k++)
        if (quotients[k] > top) found = k, top = quotients[k];
    *best = top;
    return found;
}
