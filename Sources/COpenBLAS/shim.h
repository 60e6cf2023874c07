// OpenBLAS's CBLAS (with openblas_get_corename) and LAPACKE, as Debian installs them.
#include <cblas.h>
#include <lapacke.h>
