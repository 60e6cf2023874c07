#ifndef THEMELAB_PAIR_KERNEL_H
#define THEMELAB_PAIR_KERNEL_H

/// The loops of the pairwise statistics: counting values into equal bins by numpy's rule (`CoarseHistogram.BinCounter`),
/// a journal's centred similarities (`JournalGram.centredPairs`) and average linkage's scan of a row (`firstMaximum`).

/// Counting. Bin i holds edges[i] ≤ v < edges[i+1], the last bin also its upper edge; values outside fall into the end bins and a
/// NaN into bin 0. A value's bin is first ⌊(v − edges[0])·scale⌋ with scale = bins/(edges[bins] − edges[0]), then moved
/// one down or up by comparing v with its two edges, as `numpy.histogram` does. The SIMD paths compute those two edges
/// as i·step + edges[0] (step = (edges[bins] − edges[0])/bins, each operation rounded once) instead of loading them, so
/// they may run only where `tl_edges_are_even` holds; then every path gives the same counts.

#include <stddef.h>
#include <stdint.h>

#include "kernel_path.h"

/// Whether edges[i] = i·step + edges[0] for i = 0 … bins − 1 (step as above), bit for bit.
int tl_edges_are_even(const double *edges, int bins);

/// Adds one to lanes[(k mod 4)·bins + bin] for the k-th value of each run of 256, bin as above: four sets of counts, so
/// consecutive values in one bin do not wait on each other's increments (the caller adds the four). bins ≥ 2.
void tl_count_bins_f64(int path, const double *values, size_t n, const double *edges, int bins, int64_t *lanes);

/// The same for Float values (each converted to Float64 exactly first).
void tl_count_bins_f32(int path, const float *values, size_t n, const double *edges, int bins, int64_t *lanes);

/// Centring. out[b] = (((raw[b] − ha) − h[b])·wa)·w[b] for b < n, each operation rounded once (the same bits on every
/// path), and *lo, *hi lowered and raised to the row's extremes; an extreme of zero is taken as +0, so the sign of a zero
/// never depends on the order the lanes saw the values in.
void tl_centre_row(int path, const double *raw, const double *h, const double *w, double ha, double wa, size_t n, double *out,
                   double *lo, double *hi);

/// Average linkage's scan. The first index of the largest of n ≥ 1 values (finite or −∞, no NaN): the maximum, then the
/// first value equal to it (so a zero maximum finds the first zero of either sign on every path).
size_t tl_first_maximum(int path, const float *values, size_t n);

#endif
