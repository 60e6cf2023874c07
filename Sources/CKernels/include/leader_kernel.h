#ifndef THEMELAB_LEADER_KERNEL_H
#define THEMELAB_LEADER_KERNEL_H

/// The leader algorithm's inner loop (`LeaderAtThreshold`): an item's summed similarity to each group of several sweeps
/// at once. Sweep s adds row[b] to sums[s][labels[s][b]] for b = 0 … n − 1 in order, after zeroing its first groups[s]
/// sums: each sum is added in index order, as one sweep alone adds it, so the bits do not depend on how many sweeps share
/// the loop; sharing it gives the processor several independent chains of additions instead of one. Every label of sweep s
/// is below groups[s], and no two sweeps' sums overlap.

#include <stddef.h>
#include <stdint.h>

#include "kernel_path.h"

void tl_group_sums_f32(const float *row, size_t n, int sweeps, const int32_t *const *labels, double *const *sums, const int32_t *groups);
void tl_group_sums_f64(const double *row, size_t n, int sweeps, const int32_t *const *labels, double *const *sums, const int32_t *groups);

/// The group of highest similarity sums[k] / norms[k] (0 where norms[k] is not positive) over k < groups, the first of
/// equals, NaN never; −1 when there is none. Its similarity goes to *best. The quotients are those of the loop one at a
/// time (each rounded once) on every path (`tl_path`), so the choice is too.
int32_t tl_nearest_group(int path, const double *sums, const double *norms, int32_t groups, double *quotients, double *best);

#endif
