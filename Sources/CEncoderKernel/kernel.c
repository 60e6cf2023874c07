#include "encoder_kernel.h"

#include <immintrin.h>
#include <math.h>
#include <string.h>

#define PANEL 16
/// Rows a block of the product keeps in L2 with its slice of B.
#define ROW_BLOCK 96

int tl_best_path(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return TL_PATH_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return TL_PATH_AVX2;
    return TL_PATH_SCALAR;
}

static int panels(int n) { return (n + PANEL - 1) / PANEL; }

size_t tl_packed_size(int n, int k) { return (size_t)panels(n) * (size_t)k * PANEL; }

void tl_pack_transposed(const float *b, int ldb, int n, int k, float *packed) {
    memset(packed, 0, tl_packed_size(n, k) * sizeof(float));
    for (int j = 0; j < n; j++) {
        float *panel = packed + (size_t)(j / PANEL) * k * PANEL + j % PANEL;
        const float *row = b + (size_t)j * ldb;
        for (int kk = 0; kk < k; kk++) panel[(size_t)kk * PANEL] = row[kk];
    }
}

void tl_pack(const float *b, int ldb, int k, int n, float *packed) {
    memset(packed, 0, tl_packed_size(n, k) * sizeof(float));
    for (int kk = 0; kk < k; kk++) {
        const float *row = b + (size_t)kk * ldb;
        for (int j = 0; j < n; j++) packed[((size_t)(j / PANEL) * k + kk) * PANEL + j % PANEL] = row[j];
    }
}

/// The last step of every element, the same on every path: one rounded multiplication, one rounded addition.
static inline float finish(float acc, float scale, const float *bias, int j) {
    float v = acc * scale;
    return bias ? v + bias[j] : v;
}

// ---------------------------------------------------------------------------------------------------------------------
/// Stores `width` ≤ 16 finished lanes of a row's panel.
static inline void store_lanes(const float *lanes, int width, float scale, const float *bias, int j0, float *c) {
    for (int t = 0; t < width; t++) c[t] = finish(lanes[t], scale, bias, j0 + t);
}

// Scalar: the reference order, sixteen columns of a row at a time (each its own chain of fmaf). Compiled twice: with
// the FMA instruction where the CPU has it (the compiler may vectorise the lanes: the same bits), else libm's fmaf.

static inline __attribute__((always_inline)) void scalar_rows(int m, int n, int k, const float *a, int lda, const float *packed,
                                                               float scale, const float *bias, float *c, int ldc) {
    float acc[PANEL];
    for (int i = 0; i < m; i++) {
        const float *row = a + (size_t)i * lda;
        for (int p = 0; p < panels(n); p++) {
            const float *panel = packed + (size_t)p * k * PANEL;
            for (int t = 0; t < PANEL; t++) acc[t] = 0;
            for (int kk = 0; kk < k; kk++)
                for (int t = 0; t < PANEL; t++) acc[t] = fmaf(row[kk], panel[(size_t)kk * PANEL + t], acc[t]);
            int width = n - p * PANEL < PANEL ? n - p * PANEL : PANEL;
            store_lanes(acc, width, scale, bias, p * PANEL, c + (size_t)i * ldc + p * PANEL);
        }
    }
}

static void gemm_scalar(int m, int n, int k, const float *a, int lda, const float *packed, float scale, const float *bias,
                        float *c, int ldc) {
    scalar_rows(m, n, k, a, lda, packed, scale, bias, c, ldc);
}

__attribute__((target("fma"))) static void gemm_scalar_fma(int m, int n, int k, const float *a, int lda, const float *packed,
                                                            float scale, const float *bias, float *c, int ldc) {
    scalar_rows(m, n, k, a, lda, packed, scale, bias, c, ldc);
}

// ---------------------------------------------------------------------------------------------------------------------
// AVX2 + FMA: 6 rows × one panel (two 8-lane vectors) of accumulators.

#define AVX2_ROWS 6

__attribute__((target("avx2,fma"))) static void avx2_block(int rows, int k, const float *a, int lda, const float *panel,
                                                            __m256 acc[AVX2_ROWS][2]) {
    for (int r = 0; r < rows; r++) acc[r][0] = acc[r][1] = _mm256_setzero_ps();
    if (rows == AVX2_ROWS) {
        __m256 c00 = acc[0][0], c01 = acc[0][1], c10 = acc[1][0], c11 = acc[1][1], c20 = acc[2][0], c21 = acc[2][1];
        __m256 c30 = acc[3][0], c31 = acc[3][1], c40 = acc[4][0], c41 = acc[4][1], c50 = acc[5][0], c51 = acc[5][1];
        const float *a0 = a, *a1 = a + lda, *a2 = a + 2 * lda, *a3 = a + 3 * lda, *a4 = a + 4 * lda, *a5 = a + 5 * lda;
        for (int kk = 0; kk < k; kk++) {
            __m256 b0 = _mm256_loadu_ps(panel + (size_t)kk * PANEL), b1 = _mm256_loadu_ps(panel + (size_t)kk * PANEL + 8);
            __m256 x;
            x = _mm256_broadcast_ss(a0 + kk); c00 = _mm256_fmadd_ps(x, b0, c00); c01 = _mm256_fmadd_ps(x, b1, c01);
            x = _mm256_broadcast_ss(a1 + kk); c10 = _mm256_fmadd_ps(x, b0, c10); c11 = _mm256_fmadd_ps(x, b1, c11);
            x = _mm256_broadcast_ss(a2 + kk); c20 = _mm256_fmadd_ps(x, b0, c20); c21 = _mm256_fmadd_ps(x, b1, c21);
            x = _mm256_broadcast_ss(a3 + kk); c30 = _mm256_fmadd_ps(x, b0, c30); c31 = _mm256_fmadd_ps(x, b1, c31);
            x = _mm256_broadcast_ss(a4 + kk); c40 = _mm256_fmadd_ps(x, b0, c40); c41 = _mm256_fmadd_ps(x, b1, c41);
            x = _mm256_broadcast_ss(a5 + kk); c50 = _mm256_fmadd_ps(x, b0, c50); c51 = _mm256_fmadd_ps(x, b1, c51);
        }
        acc[0][0] = c00; acc[0][1] = c01; acc[1][0] = c10; acc[1][1] = c11; acc[2][0] = c20; acc[2][1] = c21;
        acc[3][0] = c30; acc[3][1] = c31; acc[4][0] = c40; acc[4][1] = c41; acc[5][0] = c50; acc[5][1] = c51;
        return;
    }
    for (int r = 0; r < rows; r++) {
        __m256 c0 = _mm256_setzero_ps(), c1 = _mm256_setzero_ps();
        const float *ar = a + (size_t)r * lda;
        for (int kk = 0; kk < k; kk++) {
            __m256 x = _mm256_broadcast_ss(ar + kk);
            c0 = _mm256_fmadd_ps(x, _mm256_loadu_ps(panel + (size_t)kk * PANEL), c0);
            c1 = _mm256_fmadd_ps(x, _mm256_loadu_ps(panel + (size_t)kk * PANEL + 8), c1);
        }
        acc[r][0] = c0;
        acc[r][1] = c1;
    }
}

__attribute__((target("avx2,fma"))) static void gemm_avx2(int m, int n, int k, const float *a, int lda, const float *packed,
                                                           float scale, const float *bias, float *c, int ldc) {
    __m256 acc[AVX2_ROWS][2];
    float lanes[PANEL];
    for (int i0 = 0; i0 < m; i0 += ROW_BLOCK) {
        int i1 = i0 + ROW_BLOCK < m ? i0 + ROW_BLOCK : m;
        for (int p = 0; p < panels(n); p++) {
            const float *panel = packed + (size_t)p * k * PANEL;
            int width = n - p * PANEL < PANEL ? n - p * PANEL : PANEL;
            for (int i = i0; i < i1; i += AVX2_ROWS) {
                int rows = i1 - i < AVX2_ROWS ? i1 - i : AVX2_ROWS;
                avx2_block(rows, k, a + (size_t)i * lda, lda, panel, acc);
                for (int r = 0; r < rows; r++) {
                    _mm256_storeu_ps(lanes, acc[r][0]);
                    _mm256_storeu_ps(lanes + 8, acc[r][1]);
                    store_lanes(lanes, width, scale, bias, p * PANEL, c + (size_t)(i + r) * ldc + p * PANEL);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// AVX-512: 8 rows × two panels (two 16-lane vectors) of accumulators.

#define AVX512_ROWS 8

__attribute__((target("avx512f"))) static void avx512_block(int rows, int two, int k, const float *a, int lda,
                                                             const float *p0, const float *p1, __m512 acc[AVX512_ROWS][2]) {
    if (rows == AVX512_ROWS && two) {
        __m512 c[AVX512_ROWS][2];
        for (int r = 0; r < AVX512_ROWS; r++) c[r][0] = c[r][1] = _mm512_setzero_ps();
        for (int kk = 0; kk < k; kk++) {
            __m512 b0 = _mm512_loadu_ps(p0 + (size_t)kk * PANEL), b1 = _mm512_loadu_ps(p1 + (size_t)kk * PANEL);
#pragma GCC unroll 8
            for (int r = 0; r < AVX512_ROWS; r++) {
                __m512 x = _mm512_set1_ps(a[(size_t)r * lda + kk]);
                c[r][0] = _mm512_fmadd_ps(x, b0, c[r][0]);
                c[r][1] = _mm512_fmadd_ps(x, b1, c[r][1]);
            }
        }
        for (int r = 0; r < AVX512_ROWS; r++) acc[r][0] = c[r][0], acc[r][1] = c[r][1];
        return;
    }
    for (int r = 0; r < rows; r++) {
        __m512 c0 = _mm512_setzero_ps(), c1 = _mm512_setzero_ps();
        const float *ar = a + (size_t)r * lda;
        for (int kk = 0; kk < k; kk++) {
            __m512 x = _mm512_set1_ps(ar[kk]);
            c0 = _mm512_fmadd_ps(x, _mm512_loadu_ps(p0 + (size_t)kk * PANEL), c0);
            if (two) c1 = _mm512_fmadd_ps(x, _mm512_loadu_ps(p1 + (size_t)kk * PANEL), c1);
        }
        acc[r][0] = c0;
        acc[r][1] = c1;
    }
}

__attribute__((target("avx512f"))) static void gemm_avx512(int m, int n, int k, const float *a, int lda, const float *packed,
                                                            float scale, const float *bias, float *c, int ldc) {
    __m512 acc[AVX512_ROWS][2];
    float lanes[PANEL];
    int count = panels(n);
    for (int i0 = 0; i0 < m; i0 += ROW_BLOCK) {
        int i1 = i0 + ROW_BLOCK < m ? i0 + ROW_BLOCK : m;
        for (int p = 0; p < count; p += 2) {
            int two = p + 1 < count;
            const float *p0 = packed + (size_t)p * k * PANEL, *p1 = two ? p0 + (size_t)k * PANEL : p0;
            for (int i = i0; i < i1; i += AVX512_ROWS) {
                int rows = i1 - i < AVX512_ROWS ? i1 - i : AVX512_ROWS;
                avx512_block(rows, two, k, a + (size_t)i * lda, lda, p0, p1, acc);
                for (int r = 0; r < rows; r++) {
                    for (int q = 0; q <= two; q++) {
                        int j0 = (p + q) * PANEL;
                        int width = n - j0 < PANEL ? n - j0 : PANEL;
                        _mm512_storeu_ps(lanes, acc[r][q]);
                        store_lanes(lanes, width, scale, bias, j0, c + (size_t)(i + r) * ldc + j0);
                    }
                }
            }
        }
    }
}

void tl_gemm(int path, int m, int n, int k, const float *a, int lda, const float *packed, float scale, const float *bias,
             float *c, int ldc) {
    switch (path) {
    case TL_PATH_AVX512: gemm_avx512(m, n, k, a, lda, packed, scale, bias, c, ldc); break;
    case TL_PATH_AVX2: gemm_avx2(m, n, k, a, lda, packed, scale, bias, c, ldc); break;
    default:
        __builtin_cpu_init();
        if (__builtin_cpu_supports("fma")) gemm_scalar_fma(m, n, k, a, lda, packed, scale, bias, c, ldc);
        else gemm_scalar(m, n, k, a, lda, packed, scale, bias, c, ldc);
        break;
    }
}
