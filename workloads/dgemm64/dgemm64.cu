// Double-precision workload: a shared-memory tiled DGEMM
//   C = alpha * A * B + beta * C      (A: MxK, B: KxN, C: MxN, row-major)
// with the inner product as fma.rn.f64, followed by a column normalisation
//   norms[j] = sqrt(sum_i C[i][j]^2);  C[i][j] /= norms[j]
// (sqrt.rn.f64, div.rn.f64). Sizes need not be multiples of the tile.

#define T 16

extern "C" __global__ void dgemm_tiled(const double *A, const double *B,
                                       double *C, int M, int N, int K,
                                       double alpha, double beta)
{
    __shared__ double As[T][T];
    __shared__ double Bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    double acc = 0.0;
    for (int k0 = 0; k0 < K; k0 += T) {
        As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0;
        Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < T; k++)
            acc = fma(As[ty][k], Bs[k][tx], acc);
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
}

extern "C" __global__ void dcol_normalize(double *C, double *norms, int M,
                                          int N)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= N)
        return;
    double s = 0.0;
    for (int i = 0; i < M; i++) {
        double c = C[i * N + col];
        s = fma(c, c, s);
    }
    double nrm = sqrt(s);
    norms[col] = nrm;       // random data: never 0 (0 would show as NaN)
    for (int i = 0; i < M; i++)
        C[i * N + col] = C[i * N + col] / nrm;
}
