// Kernels that wait for the host: a kernel spinning on a flag in mapped
// pinned memory runs at once when the host wrote the flag before the
// launch; when the host would write it only after the launch, the launch
// cannot finish (every launch runs to completion inside its launch call):
// it stops at the instruction budget with cudaErrorLaunchTimeout and the
// runtime names the host-mapped argument (run.sh checks the message).
#define TEST_NAME "hostwait"
#include "ck.h"

__global__ void spin(volatile unsigned *latch, unsigned *out)
{
    while (latch[0] < 1)
        ;
    out[0] = latch[0] + 1;
}

int main()
{
    unsigned *latch, *out;
    CK(cudaHostAlloc(&latch, sizeof *latch, cudaHostAllocMapped));
    CK(cudaMalloc(&out, sizeof *out));
    // released before the launch: the loop ends at its first test
    *latch = 1;
    spin<<<1, 1>>>(latch, out);
    CK(cudaDeviceSynchronize());
    unsigned got = 0;
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == 2, "released kernel wrote %u, want 2", got);
    // released after the launch: the launch cannot end
    *latch = 0;
    spin<<<1, 1>>>(latch, out);
    cudaError_t e = cudaGetLastError();
    *latch = 1;                 // what a GPU would see while the kernel spins
    cudaError_t s = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorLaunchTimeout && s == cudaErrorLaunchTimeout,
           "waiting kernel: launch %s, sync %s (want cudaErrorLaunchTimeout)",
           cudaGetErrorName(e), cudaGetErrorName(s));
    return ck_done();
}
