#include "encoder_kernel.h"

#include <immintrin.h>
#include <math.h>
#include <string.h>

#define PANEL 16
/// Rows a block of the product keeps in L2 with its slice of B.
#define ROW_BLOCK 96
/// Steps of k a block runs before the next block of rows: a slice of B that stays in L1 while a row block goes by. The
/// accumulators are kept in memory between slices, so each element is still one unbroken chain over k.
#define K_BLOCK 128

static int panels(int n) { return (n + PANEL - 1) / PANEL; }

size_t tl_packed_size(int n, int k) { return (size_t)panels(n) * (size_t)k * PANEL; }

static int panel_width(int n, int p) { return n - p * PANEL < PANEL ? n - p * PANEL : PANEL; }

/// Clears one k step of a partial panel, all sixteen columns: a fixed size, so no call per step (a memset of the padding
/// alone per step cost more than packing a sentence's keys, a few hundred values per head).
static inline void clear_row(float *out) { memset(out, 0, PANEL * sizeof(float)); }

void tl_pack_transposed(const float *b, int ldb, int n, int k, float *packed) {
    for (int p = 0; p < panels(n); p++) {
        float *panel = packed + (size_t)p * k * PANEL;
        const float *rows = b + (size_t)p * PANEL * ldb;
        int width = panel_width(n, p);
        for (int kk = 0; kk < k; kk++) {
            float *out = panel + (size_t)kk * PANEL;
            if (width < PANEL) clear_row(out);
            for (int t = 0; t < width; t++) out[t] = rows[(size_t)t * ldb + kk];
        }
    }
}

void tl_pack(const float *b, int ldb, int k, int n, float *packed) {
    for (int p = 0; p < panels(n); p++) {
        float *panel = packed + (size_t)p * k * PANEL;
        int width = panel_width(n, p);
        for (int kk = 0; kk < k; kk++) {
            float *out = panel + (size_t)kk * PANEL;
            const float *in = b + (size_t)kk * ldb + p * PANEL;
            if (width == PANEL) {
                memcpy(out, in, PANEL * sizeof(float));
                continue;
            }
            clear_row(out);
            for (int t = 0; t < width; t++) out[t] = in[t];
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// GELU, x·½(1 + erf(x/√2)), with erf by the rational approximation of Eigen and XLA: clamp to [−4, 4], an odd degree-13
// numerator over an even degree-8 denominator, each step one rounded multiplication and one rounded addition, then
// (x·p)/q; absolute error below 5e-7 (4.2e-7 measured against libm). Every path does these operations lane by lane.

static const float ERF_P[7] = {-2.72614225801306e-10f, 2.77068142495902e-08f,  -2.10102402082508e-06f, -5.69250639462346e-05f,
                               -7.34990630326855e-04f, -2.95459980854025e-03f, -1.60960333262415e-02f};
static const float ERF_Q[5] = {-1.45660718464996e-05f, -2.13374055278905e-04f, -1.68282697438203e-03f, -7.37332916720468e-03f,
                               -1.42647390514189e-02f};
#define SQRT_HALF 0.70710678118654752f

float tl_erf(float v) {
    float x = v > -4.0f ? v : -4.0f;  // a NaN becomes −4, as the vector max does
    x = x < 4.0f ? x : 4.0f;
    float x2 = x * x, p = ERF_P[0], q = ERF_Q[0];
    for (int i = 1; i < 7; i++) p = p * x2 + ERF_P[i];
    for (int i = 1; i < 5; i++) q = q * x2 + ERF_Q[i];
    return x * p / q;
}

static inline float gelu(float x) { return 0.5f * x * (1.0f + tl_erf(x * SQRT_HALF)); }

/// GELU of a vector of W bits: the operations of `gelu` lane by lane.
#define VECTOR_GELU(W, TARGET)                                                                                                 \
    __attribute__((target(TARGET))) static inline __m##W gelu_##W(__m##W v) {                                                \
        __m##W e = _mm##W##_mul_ps(v, _mm##W##_set1_ps(SQRT_HALF));                                                           \
        e = _mm##W##_min_ps(_mm##W##_max_ps(e, _mm##W##_set1_ps(-4)), _mm##W##_set1_ps(4));                                   \
        __m##W e2 = _mm##W##_mul_ps(e, e), p = _mm##W##_set1_ps(ERF_P[0]), q = _mm##W##_set1_ps(ERF_Q[0]);                    \
        for (int j = 1; j < 7; j++) p = _mm##W##_add_ps(_mm##W##_mul_ps(p, e2), _mm##W##_set1_ps(ERF_P[j]));                  \
        for (int j = 1; j < 5; j++) q = _mm##W##_add_ps(_mm##W##_mul_ps(q, e2), _mm##W##_set1_ps(ERF_Q[j]));                  \
        __m##W erf = _mm##W##_div_ps(_mm##W##_mul_ps(e, p), q);                                                               \
        __m##W half = _mm##W##_mul_ps(_mm##W##_set1_ps(0.5f), v);                                                             \
        return _mm##W##_mul_ps(half, _mm##W##_add_ps(_mm##W##_set1_ps(1), erf));                                             \
    }

VECTOR_GELU(256, "avx2,fma")
VECTOR_GELU(512, "avx512f")

// ---------------------------------------------------------------------------------------------------------------------
/// The residual's row i (NULL when there is none).
static inline const float *residual_row(const tl_finish *f, int i) { return f->residual ? f->residual + (size_t)i * f->ldr : NULL; }

/// The last steps of an element in column j (`tl_finish`), the same on every path; `residual` is its row's.
static inline float finish(float acc, const tl_finish *f, int j, const float *residual) {
    float v = acc * f->scale;
    if (f->bias) v = v + f->bias[j];
    if (residual) v = v + residual[j];
    return f->gelu ? gelu(v) : v;
}

/// Stores `width` finished lanes of row i from column j0.
static inline void store_lanes(const float *lanes, int width, const tl_finish *f, int i, int j0, float *c, int ldc) {
    const float *residual = residual_row(f, i);
    for (int t = 0; t < width; t++) c[(size_t)i * ldc + j0 + t] = finish(lanes[t], f, j0 + t, residual);
}

// Scalar: the reference order, sixteen columns of a row at a time (each its own chain of fmaf). Compiled twice: with
// the FMA instruction where the CPU has it (the compiler may vectorise the lanes: the same bits), else libm's fmaf.

static inline __attribute__((always_inline)) void scalar_rows(int m, int n, int k, const float *a, int lda, const float *packed,
                                                               const tl_finish *f, float *c, int ldc) {
    float acc[PANEL];
    for (int i = 0; i < m; i++) {
        const float *row = a + (size_t)i * lda;
        for (int p = 0; p < panels(n); p++) {
            const float *panel = packed + (size_t)p * k * PANEL;
            for (int t = 0; t < PANEL; t++) acc[t] = 0;
            for (int kk = 0; kk < k; kk++)
                for (int t = 0; t < PANEL; t++) acc[t] = fmaf(row[kk], panel[(size_t)kk * PANEL + t], acc[t]);
            int width = panel_width(n, p);
            store_lanes(acc, width, f, i, p * PANEL, c, ldc);
        }
    }
}

/// Whether the scalar path may use the FMA instruction (else libm's fmaf: the same bits, slower).
static int has_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("fma");
}

static void gemm_scalar(int m, int n, int k, const float *a, int lda, const float *packed, const tl_finish *f, float *c, int ldc) {
    scalar_rows(m, n, k, a, lda, packed, f, c, ldc);
}

__attribute__((target("fma"))) static void gemm_scalar_fma(int m, int n, int k, const float *a, int lda, const float *packed,
                                                            const tl_finish *f, float *c, int ldc) {
    scalar_rows(m, n, k, a, lda, packed, f, c, ldc);
}

// ---------------------------------------------------------------------------------------------------------------------
// AVX2 + FMA: 6 rows × one panel (two 8-lane vectors) of accumulators.

#define AVX2_ROWS 6

/// One step of k for `rows` rows × one panel: rows 0–2 read at p, p + l, p + 2l, rows 3–5 at q, q + l, q + 2l.
__attribute__((target("avx2,fma"))) static inline __attribute__((always_inline)) void avx2_step(int rows, __m256 c[][2], const float *p,
                                                                                                const float *q, size_t l, const float *b) {
    __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
    for (int r = 0; r < rows; r++) {
        __m256 x = _mm256_broadcast_ss(r < 3 ? p + r * l : q + (r - 3) * l);
        c[r][0] = _mm256_fmadd_ps(x, b0, c[r][0]);
        c[r][1] = _mm256_fmadd_ps(x, b1, c[r][1]);
    }
}

/// Continues the chains of R rows × one panel by k steps, every accumulator in a register (R a constant: the compiler
/// unrolls the rows). Four steps a turn: the rows' addresses and the loop's own work are paid once per four steps, not
/// per step (the projections ran 1.04–1.14× faster in a C harness).
#define AVX2_ROWS_OF(R)                                                                                                        \
    __attribute__((target("avx2,fma"))) static void avx2_rows_##R(int k, int first, const float *a, int lda,                  \
                                                                 const float *panel, __m256 acc[AVX2_ROWS][2]) {              \
        __m256 c[R][2];                                                                                                       \
        for (int r = 0; r < R; r++)                                                                                           \
            for (int h = 0; h < 2; h++) c[r][h] = first ? _mm256_setzero_ps() : acc[r][h];                                   \
        size_t l = (size_t)lda;                                                                                               \
        const float *p = a, *q = a + (R > 3 ? 3 * l : 0);                                                                     \
        int kk = 0;                                                                                                           \
        for (; kk + 4 <= k; kk += 4, p += 4, q += 4, panel += 4 * PANEL)                                                      \
            for (int o = 0; o < 4; o++) avx2_step(R, c, p + o, q + o, l, panel + o * PANEL);                                  \
        for (; kk < k; kk++, p++, q++, panel += PANEL) avx2_step(R, c, p, q, l, panel);                                       \
        for (int r = 0; r < R; r++) acc[r][0] = c[r][0], acc[r][1] = c[r][1];                                                \
    }

AVX2_ROWS_OF(1)
AVX2_ROWS_OF(2)
AVX2_ROWS_OF(3)
AVX2_ROWS_OF(4)
AVX2_ROWS_OF(5)
AVX2_ROWS_OF(6)

/// Continues the chains of `rows` ≤ 6 rows × one panel by k steps (from zero when `first`).
__attribute__((target("avx2,fma"))) static void avx2_block(int rows, int k, int first, const float *a, int lda, const float *panel,
                                                            __m256 acc[AVX2_ROWS][2]) {
    switch (rows) {
    case 1: avx2_rows_1(k, first, a, lda, panel, acc); break;
    case 2: avx2_rows_2(k, first, a, lda, panel, acc); break;
    case 3: avx2_rows_3(k, first, a, lda, panel, acc); break;
    case 4: avx2_rows_4(k, first, a, lda, panel, acc); break;
    case 5: avx2_rows_5(k, first, a, lda, panel, acc); break;
    default: avx2_rows_6(k, first, a, lda, panel, acc); break;
    }
}

/// Stores row i's panel from column j0 finished: the operations of `finish` on whole vectors where all 8 lanes are
/// columns (each lane rounds as the scalar path does), `finish` itself on a partial panel.
__attribute__((target("avx2,fma"))) static inline void avx2_store(__m256 acc[2], int width, const tl_finish *f, int i, int j0, float *c,
                                                                   int ldc) {
    const float *residual = residual_row(f, i);
    for (int h = 0; h < 2; h++) {
        int j = j0 + 8 * h;
        if (width < 8 * (h + 1)) {
            float lanes[8];
            _mm256_storeu_ps(lanes, acc[h]);
            store_lanes(lanes, width - 8 * h, f, i, j, c, ldc);
            return;
        }
        __m256 v = _mm256_mul_ps(acc[h], _mm256_set1_ps(f->scale));
        if (f->bias) v = _mm256_add_ps(v, _mm256_loadu_ps(f->bias + j));
        if (residual) v = _mm256_add_ps(v, _mm256_loadu_ps(residual + j));
        if (f->gelu) v = gelu_256(v);
        _mm256_storeu_ps(c + (size_t)i * ldc + j, v);
    }
}

__attribute__((target("avx2,fma"))) static void gemm_avx2(int m, int n, int k, const float *a, int lda, const float *packed,
                                                           const tl_finish *f, float *c, int ldc) {
    __m256 acc[ROW_BLOCK / AVX2_ROWS][AVX2_ROWS][2];
    for (int i0 = 0; i0 < m; i0 += ROW_BLOCK) {
        int i1 = i0 + ROW_BLOCK < m ? i0 + ROW_BLOCK : m;
        for (int p = 0; p < panels(n); p++) {
            const float *panel = packed + (size_t)p * k * PANEL;
            int width = panel_width(n, p);
            for (int k0 = 0; k0 < k; k0 += K_BLOCK) {
                int steps = k - k0 < K_BLOCK ? k - k0 : K_BLOCK;
                for (int i = i0; i < i1; i += AVX2_ROWS) {
                    int rows = i1 - i < AVX2_ROWS ? i1 - i : AVX2_ROWS;
                    avx2_block(rows, steps, k0 == 0, a + (size_t)i * lda + k0, lda, panel + (size_t)k0 * PANEL, acc[(i - i0) / AVX2_ROWS]);
                }
            }
            for (int i = i0; i < i1; i++)
                avx2_store(acc[(i - i0) / AVX2_ROWS][(i - i0) % AVX2_ROWS], width, f, i, p * PANEL, c, ldc);
        }
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// AVX-512: 8 rows × two panels (two 16-lane vectors) of accumulators.

#define AVX512_ROWS 8

/// Continues the chains of `rows` rows × one or `two` panels by k steps (from zero when `first`).
__attribute__((target("avx512f"))) static void avx512_block(int rows, int two, int k, int first, const float *a, int lda,
                                                             const float *p0, const float *p1, __m512 acc[AVX512_ROWS][2]) {
    if (rows == AVX512_ROWS && two) {
        __m512 c[AVX512_ROWS][2];
        for (int r = 0; r < AVX512_ROWS; r++)
            for (int h = 0; h < 2; h++) c[r][h] = first ? _mm512_setzero_ps() : acc[r][h];
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
        __m512 c0 = first ? _mm512_setzero_ps() : acc[r][0], c1 = first ? _mm512_setzero_ps() : acc[r][1];
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

/// Stores `width` ≤ 16 finished lanes of row i from column j0: the operations of `finish` on a whole vector (each lane
/// rounds as the scalar path does), masked to the panel's columns.
__attribute__((target("avx512f"))) static inline void avx512_store(__m512 acc, int width, const tl_finish *f, int i, int j0, float *c,
                                                                    int ldc) {
    __mmask16 mask = (__mmask16)((1u << width) - 1);
    const float *residual = residual_row(f, i);
    __m512 v = _mm512_mul_ps(acc, _mm512_set1_ps(f->scale));
    if (f->bias) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, f->bias + j0));
    if (residual) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(mask, residual + j0));
    if (f->gelu) v = gelu_512(v);
    _mm512_mask_storeu_ps(c + (size_t)i * ldc + j0, mask, v);
}

__attribute__((target("avx512f"))) static void gemm_avx512(int m, int n, int k, const float *a, int lda, const float *packed,
                                                            const tl_finish *f, float *c, int ldc) {
    __m512 acc[ROW_BLOCK / AVX512_ROWS][AVX512_ROWS][2];
    int count = panels(n);
    for (int i0 = 0; i0 < m; i0 += ROW_BLOCK) {
        int i1 = i0 + ROW_BLOCK < m ? i0 + ROW_BLOCK : m;
        for (int p = 0; p < count; p += 2) {
            int two = p + 1 < count;
            const float *p0 = packed + (size_t)p * k * PANEL, *p1 = two ? p0 + (size_t)k * PANEL : p0;
            for (int k0 = 0; k0 < k; k0 += K_BLOCK) {
                int steps = k - k0 < K_BLOCK ? k - k0 : K_BLOCK;
                for (int i = i0; i < i1; i += AVX512_ROWS) {
                    int rows = i1 - i < AVX512_ROWS ? i1 - i : AVX512_ROWS;
                    avx512_block(rows, two, steps, k0 == 0, a + (size_t)i * lda + k0, lda, p0 + (size_t)k0 * PANEL,
                                 p1 + (size_t)k0 * PANEL, acc[(i - i0) / AVX512_ROWS]);
                }
            }
            for (int i = i0; i < i1; i++)
                for (int q = 0; q <= two; q++) {
                    int j0 = (p + q) * PANEL;
                    avx512_store(acc[(i - i0) / AVX512_ROWS][(i - i0) % AVX512_ROWS][q], n - j0 < PANEL ? n - j0 : PANEL, f, i, j0, c,
                                 ldc);
                }
        }
    }
}

void tl_gemm(int path, int m, int n, int k, const float *a, int lda, const float *packed, const tl_finish *f, float *c, int ldc) {
    if (k <= 0) {  // an empty sum: every element is finish(0), as the scalar path gives
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) c[(size_t)i * ldc + j] = finish(0, f, j, residual_row(f, i));
        return;
    }
    switch (path) {
    case TL_PATH_AVX512: gemm_avx512(m, n, k, a, lda, packed, f, c, ldc); break;
    case TL_PATH_AVX2: gemm_avx2(m, n, k, a, lda, packed, f, c, ldc); break;
    default:
        if (has_fma()) gemm_scalar_fma(m, n, k, a, lda, packed, f, c, ldc);
        else gemm_scalar(m, n, k, a, lda, packed, f, c, ldc);
        break;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// The ceiling: twelve independent chains of fused multiply-adds per step, registers only, the most a path's products can
// reach on this core (two FMA units: 64 flops a cycle on AVX-512, 32 on AVX2).

static volatile float ceiling_sink;

#define VECTOR_CEILING(W, LANES, TARGET)                                                                                       \
    __attribute__((target(TARGET))) static double ceiling_##W(long steps) {                                                 \
        __m##W c[12], x = _mm##W##_set1_ps(0.999999f), y = _mm##W##_set1_ps(1e-7f);                                         \
        for (int j = 0; j < 12; j++) c[j] = _mm##W##_set1_ps((float)j);                                                      \
        for (long i = 0; i < steps; i++)                                                                                      \
            for (int j = 0; j < 12; j++) c[j] = _mm##W##_fmadd_ps(c[j], x, y);                                               \
        for (int j = 1; j < 12; j++) c[0] = _mm##W##_add_ps(c[0], c[j]);                                                     \
        float lanes[LANES];                                                                                                   \
        _mm##W##_storeu_ps(lanes, c[0]);                                                                                      \
        ceiling_sink = lanes[0];                                                                                              \
        return 24.0 * LANES * (double)steps;                                                                                  \
    }

VECTOR_CEILING(256, 8, "avx2,fma")
VECTOR_CEILING(512, 16, "avx512f")

static inline __attribute__((always_inline)) double scalar_ceiling(long steps) {
    float c[12];
    for (int j = 0; j < 12; j++) c[j] = (float)j;
    for (long i = 0; i < steps; i++)
        for (int j = 0; j < 12; j++) c[j] = fmaf(c[j], 0.999999f, 1e-7f);
    for (int j = 1; j < 12; j++) c[0] += c[j];
    ceiling_sink = c[0];
    return 24.0 * (double)steps;
}

static double ceiling_scalar(long steps) { return scalar_ceiling(steps); }

__attribute__((target("fma"))) static double ceiling_scalar_fma(long steps) { return scalar_ceiling(steps); }

double tl_fma_ceiling(int path, long steps) {
    switch (path) {
    case TL_PATH_AVX512: return ceiling_512(steps);
    case TL_PATH_AVX2: return ceiling_256(steps);
    default: return has_fma() ? ceiling_scalar_fma(steps) : ceiling_scalar(steps);
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Softmax over rows: exp by Cephes's expf (Moshier), every step one rounded operation (no FMA) so each lane computes
// what the scalar path computes: n = round(x·log₂e) by adding and subtracting 1.5·2²³; r = x − n·C₁ − n·C₂ (ln 2 in two
// parts); eʳ ≈ 1 + r + r²·P(r), degree 5; times 2ⁿ built in the exponent bits. Inputs are clamped to [−87, 0] (a
// softmax's x − max; e⁻⁸⁷ ≈ 1.6e-38 stands for anything smaller). Relative error about 2 ulp. The row's sum is taken
// in index order on every path.

#define EXP_ROUND 12582912.0f
static const float EXP_P[6] = {1.9875691500e-4f, 1.3981999507e-3f, 8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f,
                               5.0000001201e-1f};
#define EXP_LOG2E 1.44269504088896341f
#define EXP_C1 0.693359375f
#define EXP_C2 -2.12194440e-4f

float tl_exp(float v) {
    float x = v > -87.0f ? v : -87.0f;  // a NaN becomes −87, as the vector max does
    x = x < 0.0f ? x : 0.0f;
    float n = (x * EXP_LOG2E + EXP_ROUND) - EXP_ROUND;
    float r = (x - n * EXP_C1) - n * EXP_C2;
    float p = EXP_P[0];
    for (int i = 1; i < 6; i++) p = p * r + EXP_P[i];
    float e = (p * (r * r) + r) + 1.0f;
    union { float f; int i; } scale = {.i = ((int)n + 127) << 23};
    return e * scale.f;
}

/// Divides a row of exponentials by their sum, taken in index order.
static inline void normalise_row(float *p, int n) {
    float sum = 0;
    for (int i = 0; i < n; i++) sum += p[i];
    float inverse = 1 / sum;
    for (int i = 0; i < n; i++) p[i] *= inverse;
}

static void softmax_scalar(float *s, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        float *p = s + (size_t)r * n, top = -INFINITY;
        for (int i = 0; i < n; i++) top = p[i] > top ? p[i] : top;
        for (int i = 0; i < n; i++) p[i] = tl_exp(p[i] - top);
        normalise_row(p, n);
    }
}

/// eˣ of a vector of W bits, the operations of `tl_exp` lane by lane.
#define VECTOR_EXP(W, TARGET)                                                                                                  \
    __attribute__((target(TARGET))) static __m##W exp_##W(__m##W v) {                                                       \
        __m##W x = _mm##W##_min_ps(_mm##W##_max_ps(v, _mm##W##_set1_ps(-87.0f)), _mm##W##_setzero_ps());                      \
        __m##W round = _mm##W##_set1_ps(EXP_ROUND);                                                                           \
        __m##W n = _mm##W##_sub_ps(_mm##W##_add_ps(_mm##W##_mul_ps(x, _mm##W##_set1_ps(EXP_LOG2E)), round), round);          \
        __m##W r = _mm##W##_sub_ps(x, _mm##W##_mul_ps(n, _mm##W##_set1_ps(EXP_C1)));                                         \
        r = _mm##W##_sub_ps(r, _mm##W##_mul_ps(n, _mm##W##_set1_ps(EXP_C2)));                                                 \
        __m##W p = _mm##W##_set1_ps(EXP_P[0]);                                                                                \
        for (int i = 1; i < 6; i++) p = _mm##W##_add_ps(_mm##W##_mul_ps(p, r), _mm##W##_set1_ps(EXP_P[i]));                 \
        __m##W e = _mm##W##_add_ps(_mm##W##_add_ps(_mm##W##_mul_ps(p, _mm##W##_mul_ps(r, r)), r), _mm##W##_set1_ps(1));        \
        __m##W##i bits = _mm##W##_slli_epi32(_mm##W##_add_epi32(_mm##W##_cvtps_epi32(n), _mm##W##_set1_epi32(127)), 23);    \
        return _mm##W##_mul_ps(e, _mm##W##_castsi##W##_ps(bits));                                                             \
    }

VECTOR_EXP(256, "avx2,fma")
VECTOR_EXP(512, "avx512f")

__attribute__((target("avx2,fma"))) static void softmax_avx2(float *s, int rows, int n) {
    int whole = n - n % 8;
    for (int r = 0; r < rows; r++) {
        float *p = s + (size_t)r * n, top = -INFINITY;
        for (int i = 0; i < n; i++) top = p[i] > top ? p[i] : top;
        for (int i = 0; i < whole; i += 8) _mm256_storeu_ps(p + i, exp_256(_mm256_sub_ps(_mm256_loadu_ps(p + i), _mm256_set1_ps(top))));
        if (whole < n) {  // the last lanes masked: each still computes what tl_exp computes
            __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(n - whole), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            __m256 x = _mm256_sub_ps(_mm256_maskload_ps(p + whole, mask), _mm256_set1_ps(top));
            _mm256_maskstore_ps(p + whole, mask, exp_256(x));
        }
        normalise_row(p, n);
    }
}

__attribute__((target("avx512f"))) static void softmax_avx512(float *s, int rows, int n) {
    for (int r = 0; r < rows; r++) {
        float *p = s + (size_t)r * n, top = -INFINITY;
        for (int i = 0; i < n; i++) top = p[i] > top ? p[i] : top;
        for (int i = 0; i < n; i += 16) {
            __mmask16 mask = (__mmask16)(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
            __m512 x = _mm512_sub_ps(_mm512_maskz_loadu_ps(mask, p + i), _mm512_set1_ps(top));
            _mm512_mask_storeu_ps(p + i, mask, exp_512(x));
        }
        normalise_row(p, n);
    }
}

void tl_softmax(int path, float *s, int rows, int n) {
    switch (path) {
    case TL_PATH_AVX512: softmax_avx512(s, rows, n); break;
    case TL_PATH_AVX2: softmax_avx2(s, rows, n); break;
    default: softmax_scalar(s, rows, n); break;
    }
}

// ---------------------------------------------------------------------------------------------------------------------
// Layer norm: (x − mean)/√(var + ε)·γ + β over each row of h, the statistics in Float64 as eight partial sums (lane j
// adds the elements k ≡ j mod 8 in k order; every path keeps the same eight), added ((s₀+s₁)+(s₂+s₃))+((s₄+s₅)+(s₆+s₇)).

static inline double add_lanes(const double s[8]) { return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7])); }

/// 1/√(var + ε) from the eight lanes of squared deviations from the mean.
static inline double inverse_deviation(const double deviations[8], int h, double eps) {
    return 1 / sqrt(add_lanes(deviations) / h + eps);
}

static void layer_norm_scalar(float *x, int rows, int h, const float *gamma, const float *beta, double eps) {
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * h;
        double s[8] = {0}, d[8] = {0};
        for (int k = 0; k < h; k++) s[k % 8] += (double)row[k];
        double mean = add_lanes(s) / h;
        for (int k = 0; k < h; k++) d[k % 8] += ((double)row[k] - mean) * ((double)row[k] - mean);
        double inverse = inverse_deviation(d, h, eps);
        for (int k = 0; k < h; k++) row[k] = (float)(((double)row[k] - mean) * inverse) * gamma[k] + beta[k];
    }
}

__attribute__((target("avx512f"))) static void layer_norm_avx512(float *x, int rows, int h, const float *gamma, const float *beta,
                                                                  double eps) {
    int whole = h - h % 8;
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * h;
        double s[8], d[8];
        __m512d acc = _mm512_setzero_pd();
        for (int k = 0; k < whole; k += 8) acc = _mm512_add_pd(acc, _mm512_cvtps_pd(_mm256_loadu_ps(row + k)));
        _mm512_storeu_pd(s, acc);
        for (int k = whole; k < h; k++) s[k % 8] += (double)row[k];
        double mean = add_lanes(s) / h;
        __m512d mu = _mm512_set1_pd(mean);
        acc = _mm512_setzero_pd();
        for (int k = 0; k < whole; k += 8) {
            __m512d v = _mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(row + k)), mu);
            acc = _mm512_add_pd(acc, _mm512_mul_pd(v, v));
        }
        _mm512_storeu_pd(d, acc);
        for (int k = whole; k < h; k++) d[k % 8] += ((double)row[k] - mean) * ((double)row[k] - mean);
        double inverse = inverse_deviation(d, h, eps);
        __m512d scale = _mm512_set1_pd(inverse);
        for (int k = 0; k < whole; k += 8) {
            __m256 v = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_sub_pd(_mm512_cvtps_pd(_mm256_loadu_ps(row + k)), mu), scale));
            _mm256_storeu_ps(row + k, _mm256_add_ps(_mm256_mul_ps(v, _mm256_loadu_ps(gamma + k)), _mm256_loadu_ps(beta + k)));
        }
        for (int k = whole; k < h; k++) row[k] = (float)(((double)row[k] - mean) * inverse) * gamma[k] + beta[k];
    }
}

/// Eight Float64 lanes as two vectors of four: lanes 0–3 and 4–7 of `layer_norm_avx512`'s one.
__attribute__((target("avx2,fma"))) static void layer_norm_avx2(float *x, int rows, int h, const float *gamma, const float *beta,
                                                                 double eps) {
    int whole = h - h % 8;
    for (int r = 0; r < rows; r++) {
        float *row = x + (size_t)r * h;
        double s[8], d[8];
        __m256d lo = _mm256_setzero_pd(), hi = _mm256_setzero_pd();
        for (int k = 0; k < whole; k += 8) {
            lo = _mm256_add_pd(lo, _mm256_cvtps_pd(_mm_loadu_ps(row + k)));
            hi = _mm256_add_pd(hi, _mm256_cvtps_pd(_mm_loadu_ps(row + k + 4)));
        }
        _mm256_storeu_pd(s, lo);
        _mm256_storeu_pd(s + 4, hi);
        for (int k = whole; k < h; k++) s[k % 8] += (double)row[k];
        double mean = add_lanes(s) / h;
        __m256d mu = _mm256_set1_pd(mean);
        lo = hi = _mm256_setzero_pd();
        for (int k = 0; k < whole; k += 8) {
            __m256d u = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(row + k)), mu);
            __m256d v = _mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(row + k + 4)), mu);
            lo = _mm256_add_pd(lo, _mm256_mul_pd(u, u));
            hi = _mm256_add_pd(hi, _mm256_mul_pd(v, v));
        }
        _mm256_storeu_pd(d, lo);
        _mm256_storeu_pd(d + 4, hi);
        for (int k = whole; k < h; k++) d[k % 8] += ((double)row[k] - mean) * ((double)row[k] - mean);
        double inverse = inverse_deviation(d, h, eps);
        __m256d scale = _mm256_set1_pd(inverse);
        for (int k = 0; k < whole; k += 8) {
            __m128 u = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(row + k)), mu), scale));
            __m128 v = _mm256_cvtpd_ps(_mm256_mul_pd(_mm256_sub_pd(_mm256_cvtps_pd(_mm_loadu_ps(row + k + 4)), mu), scale));
            __m256 w = _mm256_set_m128(v, u);
            _mm256_storeu_ps(row + k, _mm256_add_ps(_mm256_mul_ps(w, _mm256_loadu_ps(gamma + k)), _mm256_loadu_ps(beta + k)));
        }
        for (int k = whole; k < h; k++) row[k] = (float)(((double)row[k] - mean) * inverse) * gamma[k] + beta[k];
    }
}

void tl_layer_norm(int path, float *x, int rows, int h, const float *gamma, const float *beta, double eps) {
    switch (path) {
    case TL_PATH_AVX512: layer_norm_avx512(x, rows, h, gamma, beta, eps); break;
    case TL_PATH_AVX2: layer_norm_avx2(x, rows, h, gamma, beta, eps); break;
    default: layer_norm_scalar(x, rows, h, gamma, beta, eps); break;
    }
}
