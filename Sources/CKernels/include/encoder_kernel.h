#ifndef THEMELAB_ENCODER_KERNEL_H
#define THEMELAB_ENCODER_KERNEL_H

/// The encoder's matrix products, in an arithmetic order fixed by this file rather than by a BLAS kernel.
///
/// C[i][j] = finish(Σₖ A[i][k]·B[k][j]), each element one chain of fused multiply-adds over k = 0, 1, …, K−1 from 0,
/// never split, then the steps of `tl_finish` (each rounded once, never fused).
/// The SIMD paths vectorise across output columns, one column a lane, so an element's bits do not depend on the
/// vector width, the row's place in the batch or its batch-mates: the AVX-512, AVX2+FMA and scalar paths give the same
/// bits, by construction (the file is compiled with -ffp-contract=off, so no other operation is fused).
///
/// B is packed once (a weight: at load time) into panels of 16 columns, k-major: panel p holds B[k][16p … 16p+15] for
/// k = 0…K−1, columns past N zero.

#include <stddef.h>

#include "kernel_path.h"


/// Floats a packed B of n columns and k rows needs.
size_t tl_packed_size(int n, int k);

/// Packs B given as rows of an [n][k] matrix (a weight stored [out, in]: C = A·Bᵀ), row stride ldb.
void tl_pack_transposed(const float *b, int ldb, int n, int k, float *packed);

/// Packs B given as a [k][n] matrix (C = A·B), row stride ldb.
void tl_pack(const float *b, int ldb, int k, int n, float *packed);

/// What every element of a product goes through after its chain over k, in this order, each step one rounded
/// operation, the same on every path: × scale; + bias[j] (when bias is not NULL); + residual[i][j] (when residual is not
/// NULL, row stride ldr: a residual connection added as the product is stored); GELU, x·½(1 + erf(x/√2)) with erf as
/// `tl_erf` (when gelu is not 0: the feed-forward layer's activation, applied before the element leaves the registers).
typedef struct tl_finish {
    float scale;
    const float *bias;
    const float *residual;
    int ldr;
    int gelu;
} tl_finish;

/// C = finish(A·B) for A [m][k] (row stride lda), packed B (n columns, k rows), C [m][n] (row stride ldc), which must
/// not overlap A or the residual. `path` one of tl_path; a path this CPU lacks must not be asked for.
void tl_gemm(int path, int m, int n, int k, const float *a, int lda, const float *packed, const tl_finish *finish, float *c, int ldc);

/// Runs `steps` steps of twelve independent chains of fused multiply-adds on `path`, registers only, and returns the
/// floating-point operations done: timed by the caller, the ceiling no product on that path passes on this core.
double tl_fma_ceiling(int path, long steps);

/// erf by the rational approximation of Eigen and XLA on [−4, 4] (absolute error below 5e-7).
float tl_erf(float x);

/// Softmax of each of `rows` rows of n scores in place, exp as `tl_exp`, each row's sum in index order: the same bits
/// on every path.
void tl_softmax(int path, float *s, int rows, int n);

/// eˣ for x ≤ 0 by Cephes's expf in single roundings (relative error about 2 ulp; below e⁻⁸⁷ it gives e⁻⁸⁷).
float tl_exp(float x);

/// Layer norm of each of `rows` rows of h in place, (x − mean)/√(var + ε)·γ + β, the statistics in Float64 as eight
/// partial sums in a fixed order: the same bits on every path.
void tl_layer_norm(int path, float *x, int rows, int h, const float *gamma, const float *beta, double eps);

#endif
