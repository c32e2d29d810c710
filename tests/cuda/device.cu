// Device queries and errors: count, properties and attributes from the
// simulated configuration (run.sh passes the SM count and clock it set),
// versions, error names and strings, cudaGetLastError/cudaPeekAtLastError,
// a bad launch geometry, cudaMemset/cudaMemcpyDefault/device-to-device.
#define TEST_NAME "device"
#include <cstring>
#include "ck.h"

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }

int main(int argc, char **argv)
{
    int want_sms = argc > 1 ? atoi(argv[1]) : -1, want_khz = argc > 2 ? atoi(argv[2]) : -1;
    int n = 0, dev = -1;
    CK(cudaGetDeviceCount(&n));
    EXPECT(n == 1, "%d devices", n);
    CK(cudaSetDevice(0));
    CK(cudaGetDevice(&dev));
    EXPECT(dev == 0, "device %d", dev);
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice, "device 1 accepted");
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice, "last error not kept");
    EXPECT(cudaGetLastError() == cudaSuccess, "last error not cleared");
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.major == 7 && p.minor == 5, "compute capability %d.%d", p.major, p.minor);
    EXPECT(p.warpSize == 32, "warp size %d", p.warpSize);
    EXPECT(p.multiProcessorCount == want_sms, "%d SMs, want %d", p.multiProcessorCount, want_sms);
    EXPECT(p.sharedMemPerMultiprocessor > 0 && p.regsPerMultiprocessor > 0 &&
           p.maxThreadsPerMultiProcessor > 0, "SM resources");
    EXPECT(strstr(p.name, "Lockstep") != NULL, "name '%s'", p.name);
    int khz = 0, sms = 0;
    CK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(khz == want_khz && sms == want_sms, "clock %d kHz, %d SMs", khz, sms);
    // what the samples' findCudaDevice() asks before anything else
    int mode = -1, conc = -1, uva = -1;
    CK(cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0));
    CK(cudaDeviceGetAttribute(&conc, cudaDevAttrConcurrentKernels, 0));
    CK(cudaDeviceGetAttribute(&uva, cudaDevAttrUnifiedAddressing, 0));
    EXPECT(mode == cudaComputeModeDefault && conc == 0 && uva == 1,
           "compute mode %d, concurrent kernels %d, unified addressing %d", mode, conc, uva);
    int v = 0;
    CK(cudaRuntimeGetVersion(&v));
    EXPECT(v == 13000, "runtime version %d", v);
    CK(cudaDriverGetVersion(&v));
    EXPECT(v >= 13000, "driver version %d", v);
    EXPECT(!strcmp(cudaGetErrorName(cudaErrorIllegalAddress), "cudaErrorIllegalAddress"),
           "error name");
    EXPECT(!strcmp(cudaGetErrorString(cudaSuccess), "no error"), "error string");
    int *d;
    CK(cudaMalloc(&d, 64 * sizeof(int)));
    fill<<<1, 2048>>>(d, 1);       // more threads than a block may have
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration, "bad block accepted");
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration, "peek cleared the error");
    EXPECT(cudaGetLastError() == cudaSuccess, "error not cleared");
    CK(cudaMemset(d, 0, 64 * sizeof(int)));
    fill<<<1, 32>>>(d, 9);
    CK(cudaDeviceSynchronize());
    int *e, h[64];
    CK(cudaMalloc(&e, sizeof h));
    CK(cudaMemcpy(e, d, sizeof h, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(h, e, sizeof h, cudaMemcpyDefault));
    for (int i = 0; i < 64; i++)
        EXPECT(h[i] == (i < 32 ? 9 : 0), "h[%d] = %d", i, h[i]);
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    EXPECT(fr > 0 && fr < tot, "memory %zu of %zu free", fr, tot);
    CK(cudaFree(d));
    CK(cudaFree(e));
    CK(cudaDeviceReset());
    CK(cudaMalloc(&d, 16));          // a fresh GPU after the reset
    CK(cudaFree(d));
    return ck_done();
}
