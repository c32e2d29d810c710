// gaussian: Gaussian elimination without pivoting of an n x n diagonally
// dominant system [A | b], in the spirit of Rodinia gaussian, written here.
// The augmented matrix is stored row-major with a row stride ld >= n + 1
// (a multiple of 32 words, so every row starts on a line); column n is b.
// For each pivot k = 0 .. n-2 the host launches
//   gauss_mult:   one thread per row i > k: m[i] = a[i][k] / a[k][k];
//   gauss_update: one thread per (i, j), k < i < n, k <= j <= n, in 32x8
//                 CTAs: a[i][j] = fma(-m[i], a[k][j], a[i][j]) for j > k,
//                 and a[i][k] = m[i] (the L factor, which no one reads in
//                 this launch).
// Back substitution runs on the host. Coarse-grained and compute-bound:
// the update kernel is the O(n^3) part, each warp reads a whole 128-byte
// segment of row k (shared by the CTA's eight rows) and of row i, and does
// one fma per element with no data-dependent branch; the guards of the
// last CTA row/column are the only divergence.

extern "C" __global__ void gauss_mult(float *a, float *m, int n, int ld,
                                      int k)
{
    int i = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    m[i] = __fdiv_rn(a[(size_t)i * ld + k], a[(size_t)k * ld + k]);
}

extern "C" __global__ void gauss_update(float *a, const float *m, int n,
                                        int ld, int k)
{
    int j = k + blockIdx.x * 32 + threadIdx.x;
    int i = k + 1 + blockIdx.y * 8 + threadIdx.y;
    if (i >= n || j > n)
        return;
    float mi = m[i];
    if (j == k)
        a[(size_t)i * ld + k] = mi;
    else
        a[(size_t)i * ld + j] = __fmaf_rn(-mi, a[(size_t)k * ld + j],
                                          a[(size_t)i * ld + j]);
}
