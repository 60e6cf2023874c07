#include "kernel_path.h"

int tl_best_path(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return TL_PATH_AVX512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return TL_PATH_AVX2;
    return TL_PATH_SCALAR;
}
