// Bad use, each answered with a CUDA error and a message, never a crash:
// an unsupported call, a launch of a function that is not a kernel, a
// kernel writing out of bounds (sticky, as on a GPU). run.sh checks the
// messages on stderr.
#define TEST_NAME "bad_use"
#include "ck.h"

__global__ void oob(int *x, int n) { x[threadIdx.x * 4096 + n] = 1; }
static void not_a_kernel(void) {}

int main()
{
    cudaIpcMemHandle_t ipc;         // one device, one process: no IPC
    int *p0;
    CK(cudaMalloc(&p0, 256));
    cudaError_t e = cudaIpcGetMemHandle(&ipc, p0);
    EXPECT(e == cudaErrorNotSupported, "cudaIpcGetMemHandle: %s", cudaGetErrorName(e));
    EXPECT(cudaGetLastError() == cudaErrorNotSupported, "last error after a stub");
    void *args[1] = { NULL };
    e = cudaLaunchKernel((const void *)not_a_kernel, dim3(1), dim3(1), args, 0, 0);
    EXPECT(e == cudaErrorInvalidDeviceFunction, "unregistered launch: %s", cudaGetErrorName(e));
    cudaGetLastError();
    int *d;
    CK(cudaMalloc(&d, 256));
    oob<<<1, 32>>>(d, 1);
    e = cudaDeviceSynchronize();
    EXPECT(e == cudaErrorIllegalAddress, "out-of-bounds kernel: %s", cudaGetErrorName(e));
    int h;
    e = cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    EXPECT(e == cudaErrorIllegalAddress, "call after a fault: %s", cudaGetErrorName(e));
    return ck_done();
}
