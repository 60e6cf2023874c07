#ifndef THEMELAB_KERNEL_PATH_H
#define THEMELAB_KERNEL_PATH_H

/// The ways through the project's C kernels (`encoder_kernel.h`, `pair_kernel.h`): every path gives the same bits, only
/// the speed differs.
enum tl_path { TL_PATH_SCALAR = 0, TL_PATH_AVX2 = 1, TL_PATH_AVX512 = 2 };

/// The widest path this CPU runs (AVX-512F, else AVX2 with FMA, else scalar).
int tl_best_path(void);

#endif
