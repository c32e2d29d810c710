// memcheck = error | warn | off. A kernel stores one element past a
// cudaMalloc'd buffer and loads it back (an off-by-one a GPU hides: the
// allocation's 256-byte granule is there). error (the default): the
// launch fails with cudaErrorIllegalAddress, sticky. warn and off: the
// kernel runs as on a GPU, the padding keeps what was stored there, and
// warn names each site once on stderr (run.sh checks the lines). A
// stencil's halo a row before the first buffer and past the last one,
// outside every granule but inside the 2 MiB pages a GPU maps around the
// allocations, goes on in warn and off too; a store 64 MiB away fails in
// every mode.
// usage: memcheck error|warn|off
#define TEST_NAME "memcheck"
#include <cstring>
#include "ck.h"

__global__ void off_by_one(int *a, int n, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)                 // the bug: <= instead of <
        a[i] = 2 * i;
    __syncthreads();
    if (i == 0)
        *out = a[n];            // reads the element past the end back
}

__global__ void far_away(int *a, int at) { a[at] = 1; }

__global__ void halo(const int *first, int *last, int n, int *out)
{
    last[n + 256] = 7;                  // 1 KiB past the end of the last buffer
    out[0] = last[n + 256];             // and read back: the memory is there
    out[1] = first[-256];               // a row before the first buffer
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "error";
    const int n = 100;          // 400 bytes: the granule ends at 512
    int *a, *out, got = -1;
    CK(cudaMalloc(&a, n * sizeof(int)));
    CK(cudaMalloc(&out, sizeof(int)));
    CK(cudaMemset(out, 0, sizeof(int)));
    off_by_one<<<1, 128>>>(a, n, out);
    cudaError_t e = cudaDeviceSynchronize();
    if (!strcmp(mode, "error")) {
        EXPECT(e == cudaErrorIllegalAddress, "error mode: %s", cudaGetErrorName(e));
        EXPECT(cudaMalloc(&out, 4) == cudaErrorIllegalAddress, "the fault is not sticky");
        return ck_done();
    }
    EXPECT(e == cudaSuccess, "%s mode: %s", mode, cudaGetErrorName(e));
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 2 * n, "the element past the end reads %d, want %d", got, 2 * n);
    int h[n];
    CK(cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 2 * i, "a[%d] = %d", i, h[i]);
    off_by_one<<<1, 128>>>(a, n, out);      // the same site again: no new line
    CK(cudaDeviceSynchronize());
    int *last, o2[2] = { 0, 0 };
    CK(cudaMalloc(&last, n * sizeof(int)));
    CK(cudaMalloc(&out, 2 * sizeof(int)));
    halo<<<1, 1>>>(a, last, n, out);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(o2, out, sizeof o2, cudaMemcpyDeviceToHost));
    EXPECT(o2[0] == 7, "the halo past the last buffer reads %d, want 7", o2[0]);
    far_away<<<1, 1>>>(a, 1 << 24);         // 64 MiB away: nothing is mapped there
    EXPECT(cudaDeviceSynchronize() == cudaErrorIllegalAddress, "a store 64 MiB past the "
           "end did not fault");
    return ck_done();
}
