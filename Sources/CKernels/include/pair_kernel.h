#ifndef THEMELAB_PAIR_KERNEL_H
#define THEMELAB_PAIR_KERNEL_H

/// The loops of the pairwise statistics: counting values into equal bins by numpy's rule (`CoarseHistogram.BinCounter`),
/// a journal's centred similarities (`JournalGram.centredPairs`), average linkage's scan of a row (`firstMaximum`), and
/// the pass's readers of tile rows: the fine histogram (`WorkerTotals.add`), the spanning forest's test
/// (`SpanningForest.consume`), a row's heaviest pair (`SpanningForest.heaviest`) and Prim on a diagonal tile
/// (`SpanningForest.prim`).

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

/// The fine histogram. For the n values at p: counts[b] += 1 (wrapping) for b = ⌊v⌋ of v = (s + 1)·scale clamped to
/// [0, top] (NaN to 0); *lo and *hi lowered and raised by each non-NaN value (eight lanes, lane q taking values 8m + q, a
/// lane moving only on a strict comparison, then folded as Swift's `SIMD8.min()` and `.max()` fold); and *sum, *squares
/// raised by the values and their squares in Float64 (four lanes, lane j taking values 4m + j of the first n − n mod 4,
/// from 0; folded from −0 in lane order; then the last n mod 4 values in order, from 0). Each operation is rounded once,
/// so every path gives the same bits. top < 2³¹.
void tl_fine_add(int path, const float *p, size_t n, float scale, float top, uint32_t *counts, float *lo, float *hi,
                 double *sum, double *squares);

/// The spanning forest's snapshot: `levels` (strictly descending, `level_count` of them) and `labels[k·items + v]`, item
/// v's component when the forest is cut at levels[k]; `reach` is read by the caller, column by column.
struct tl_forest_snapshot {
    const float *levels;
    int level_count;
    const int32_t *labels;
    size_t items;
};

/// The spanning forest's test of one tile row: the pairs (item, column_item[b]) for b < n that the snapshot does not
/// prove out of the forest, their b written to `kept` in order, their number returned. A pair of weight w (row[b], or
/// min(min(row[b], row_cap), column_cap[b]) when column_cap is not NULL) is out when it is NaN or below both reaches
/// (column_reach[b], row_reach), or when the lightest level strictly above w joins its two items. Every path keeps the
/// same pairs.
size_t tl_forest_row(int path, const float *row, size_t n, int32_t item, const int32_t *column_item, float row_reach,
                     const float *column_reach, float row_cap, const float *column_cap, const struct tl_forest_snapshot *snapshot,
                     int32_t *kept);

/// The first b < n of the heaviest pair weight in one tile row (weights as in `tl_forest_row`, NaN never the heaviest),
/// if heavier than *best, which it then becomes; else n. Every path the same index.
size_t tl_heaviest_row(int path, const float *row, size_t n, float row_cap, const float *column_cap, float *best);

/// Dense Prim over a diagonal tile of t ≥ 2 items whose pairs are upper[a·stride + b], a < b, as `SpanningForest.prim`
/// runs it (from item 0; the open items scanned in the order their swap-removal leaves them; a strictly heavier weight
/// wins), each weight capped by caps[a] and caps[b] as in `tl_forest_row` when caps is not NULL, with `lower` (room for
/// t·(t − 1)/2 floats) holding the tile's columns as rows: the t − 1 edges, in the order added, as (parent[e], child[e],
/// weight[e]) in tile positions; every path the same tree. Returns 0, writing nothing, when out of memory.
int tl_prim(int path, const float *upper, size_t stride, int t, const float *caps, float *lower, int32_t *parent, int32_t *child,
            float *weight);

#endif
