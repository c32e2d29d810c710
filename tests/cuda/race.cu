// A shared-memory race a GPU's schedule hides: a block reduction that
// returns smem[0] after its last barrier, called twice in a row. Thread
// 0's next call overwrites smem[0] before slower warps have read it; on a
// GPU the warps run side by side, read smem[0] at about the same time and
// get the right sum. Functional mode's block schedule runs one warp to its
// next barrier first and exposes the race (wrong sums: the program fails,
// and `lockstep exec` points to --check racecheck); --schedule interleave
// and timing mode interleave the warps and pass. run.sh checks all of it.
#define TEST_NAME "race"
#include "ck.h"

__device__ int block_sum(int v)
{
    __shared__ int smem[256];
    int t = threadIdx.x;
    smem[t] = v;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            smem[t] += smem[t + s];
        __syncthreads();
    }
    return smem[0];             // the race: no barrier before the next call writes
}

__global__ void two_sums(const int *x, const int *y, int *out)
{
    int t = threadIdx.x;
    int a = block_sum(x[t]);
    int b = block_sum(y[t]);
    out[2 * t] = a;
    out[2 * t + 1] = b;
}

int main()
{
    const int n = 256;
    int hx[n], hy[n], out[2 * n], sx = 0, sy = 0;
    for (int i = 0; i < n; i++) {
        hx[i] = i + 1;
        hy[i] = 1000 * (i % 7);
        sx += hx[i];
        sy += hy[i];
    }
    int *x, *y, *o;
    CK(cudaMalloc(&x, sizeof hx));
    CK(cudaMalloc(&y, sizeof hy));
    CK(cudaMalloc(&o, sizeof out));
    CK(cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(y, hy, sizeof hy, cudaMemcpyHostToDevice));
    two_sums<<<1, n>>>(x, y, o);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < n; t++)
        bad += out[2 * t] != sx || out[2 * t + 1] != sy;
    EXPECT(bad == 0, "%d of %d threads got a wrong sum (thread %d: %d %d, want %d %d)", bad,
           n, n - 1, out[2 * n - 2], out[2 * n - 1], sx, sy);
    return ck_done();
}
