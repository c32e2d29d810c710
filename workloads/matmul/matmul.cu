// matmul: C[M][N] = A[M][K] * B[K][N], 16x16 tiles staged in shared memory
// (CUDA-samples style). Sizes need not be multiples of 16: the tile loads
// are guarded (out-of-range elements read as 0) and so is the store.
#define TILE 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C,
                                  int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        int ka = t + tx, kb = t + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = sum;
}
