// The configured GPU's limits, the same in both modes: every device
// attribute agrees with cudaGetDeviceProperties; the per-CTA limits are
// the --set values run.sh passes (threads, shared without and with
// opt-in, registers); a shared-memory histogram sized from
// cudaDevAttrMaxSharedMemoryPerBlock runs; launches over a limit fail as
// CUDA fails them (threads: cudaErrorInvalidConfiguration; dynamic shared
// memory over the kernel's limit, or an attribute over the opt-in limit:
// cudaErrorInvalidValue) and are not sticky.
// usage: limits THREADS SHARED OPTIN REGS
#define TEST_NAME "limits"
#include <cstring>
#include "ck.h"

extern __shared__ unsigned hist[];

__global__ void histogram(const unsigned char *in, int n, unsigned *out, int bins)
{
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&hist[(in[i] * 7919u) % bins], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x)
        if (hist[b])
            atomicAdd(&out[b], hist[b]);
}

__global__ void touch(int *x) { x[threadIdx.x] = 1; }

// 40 accumulators live around a loop: more registers per thread than a
// 1024-thread CTA of the gtx480 may hold (32)
#define NACC 40
__global__ void heavy(const float *in, int n, float *out)
{
    float a[NACC];
#pragma unroll
    for (int k = 0; k < NACC; k++)
        a[k] = in[k];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        float x = in[i];
#pragma unroll
        for (int k = 0; k < NACC; k++)
            a[k] = a[k] * x + in[(i + k) % n];
    }
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < NACC; k++)
        s += a[k];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        printf("FAIL %s: usage: limits THREADS SHARED OPTIN REGS\n", TEST_NAME);
        return 1;
    }
    int want_thr = atoi(argv[1]), want_shm = atoi(argv[2]), want_optin = atoi(argv[3]);
    int want_regs = atoi(argv[4]);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int thr, shm, optin, regs, dimx, v;
    CK(cudaDeviceGetAttribute(&thr, cudaDevAttrMaxThreadsPerBlock, 0));
    CK(cudaDeviceGetAttribute(&shm, cudaDevAttrMaxSharedMemoryPerBlock, 0));
    CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CK(cudaDeviceGetAttribute(&regs, cudaDevAttrMaxRegistersPerBlock, 0));
    CK(cudaDeviceGetAttribute(&dimx, cudaDevAttrMaxBlockDimX, 0));
    EXPECT(thr == want_thr && (int)p.maxThreadsPerBlock == thr && dimx == thr,
           "threads per block %d (prop %d, dim x %d), want %d", thr, p.maxThreadsPerBlock,
           dimx, want_thr);
    EXPECT(shm == want_shm && (int)p.sharedMemPerBlock == shm, "shared per block %d (prop "
           "%zu), want %d", shm, p.sharedMemPerBlock, want_shm);
    EXPECT(optin == want_optin && (int)p.sharedMemPerBlockOptin == optin, "opt-in shared %d "
           "(prop %zu), want %d", optin, p.sharedMemPerBlockOptin, want_optin);
    EXPECT(regs == want_regs && p.regsPerBlock == regs, "registers per block %d (prop %d), "
           "want %d", regs, p.regsPerBlock, want_regs);
    // every attribute with a property field agrees with it
    struct { cudaDeviceAttr a; long long prop; const char *name; } same[] = {
        { cudaDevAttrMultiProcessorCount, p.multiProcessorCount, "SMs" },
        { cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long long)p.sharedMemPerMultiprocessor,
          "shared per SM" },
        { cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor, "regs per SM" },
        { cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor,
          "threads per SM" },
        { cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor,
          "blocks per SM" },
        { cudaDevAttrL2CacheSize, p.l2CacheSize, "L2 bytes" },
        { cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth, "bus width" },
        { cudaDevAttrTotalConstantMemory, (long long)p.totalConstMem, "constant bytes" },
        { cudaDevAttrMaxTexture2DWidth, p.maxTexture2D[0], "2D texture width" },
        { cudaDevAttrMaxGridDimY, p.maxGridSize[1], "grid y" },
        { cudaDevAttrComputeCapabilityMajor, p.major, "major" },
    };
    for (auto &s : same) {
        CK(cudaDeviceGetAttribute(&v, s.a, 0));
        EXPECT(v == s.prop, "%s: attribute %d, property %lld", s.name, v, s.prop);
    }
    EXPECT(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)92, 0) == cudaErrorInvalidValue,
           "a reserved attribute answered");
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "the reserved attribute's error");

    // the histogram of the issue: as many bins as the shared memory allows
    const int n = 1 << 14, bins = shm / (int)sizeof(unsigned);
    unsigned char *d_in;
    unsigned *d_out;
    CK(cudaMalloc(&d_in, n));
    CK(cudaMalloc(&d_out, bins * sizeof(unsigned)));
    unsigned char *h_in = (unsigned char *)malloc(n);
    for (int i = 0; i < n; i++)
        h_in[i] = (unsigned char)(i * 31 + 7);
    CK(cudaMemcpy(d_in, h_in, n, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0, bins * sizeof(unsigned)));
    histogram<<<4, 256, bins * sizeof(unsigned)>>>(d_in, n, d_out, bins);
    CK(cudaGetLastError());
    unsigned *h_out = (unsigned *)calloc(bins, sizeof(unsigned));
    unsigned *ref = (unsigned *)calloc(bins, sizeof(unsigned));
    CK(cudaMemcpy(h_out, d_out, bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        ref[(h_in[i] * 7919u) % bins]++;
    EXPECT(!memcmp(h_out, ref, bins * sizeof(unsigned)), "histogram of %d bins differs", bins);

    // over the limits: the errors CUDA gives, not sticky
    histogram<<<1, 256, shm + 16>>>(d_in, n, d_out, bins);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "dynamic shared over the limit");
    int *d_x;
    CK(cudaMalloc(&d_x, 2048 * sizeof(int)));
    touch<<<1, thr + 32>>>(d_x);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration, "a block over the limit");
    touch<<<1, thr>>>(d_x);
    CK(cudaGetLastError());
    EXPECT(cudaFuncSetAttribute(histogram, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                optin + 4) == cudaErrorInvalidValue,
           "an attribute over the opt-in limit");
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "the refused attribute's error");
    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, histogram));
    EXPECT(fa.maxDynamicSharedSizeBytes == shm - (int)fa.sharedSizeBytes,
           "default max dynamic shared %d", fa.maxDynamicSharedSizeBytes);
    EXPECT(fa.maxThreadsPerBlock <= thr && fa.numRegs * fa.maxThreadsPerBlock <= regs,
           "function: %d threads x %d registers", fa.maxThreadsPerBlock, fa.numRegs);
    // a program's own occupancy calculation from numRegs (LonestarGPU's
    // maximum_residency sizes a grid-wide software barrier with it) plans
    // no more resident CTAs than the GPU holds (the occupancy API), or the
    // CTAs it waits for never start
    CK(cudaFuncGetAttributes(&fa, heavy));
    EXPECT(fa.numRegs * 1024 > regs && fa.numRegs * fa.maxThreadsPerBlock <= regs,
           "heavy: %d registers x %d threads (per CTA %d)", fa.numRegs,
           fa.maxThreadsPerBlock, regs);
    for (int b = 32; b <= fa.maxThreadsPerBlock; b += 32) {
        int api = -1;
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&api, heavy, b, 0));
        int plan = p.regsPerMultiprocessor / (fa.numRegs * b);
        if (p.maxThreadsPerMultiProcessor / b < plan)
            plan = p.maxThreadsPerMultiProcessor / b;
        if (p.maxBlocksPerMultiProcessor < plan)
            plan = p.maxBlocksPerMultiProcessor;
        EXPECT(plan <= api, "heavy, %d threads: %d CTAs per SM planned from numRegs %d, "
               "%d resident", b, plan, fa.numRegs, api);
        if (plan > api)
            break;
    }
    if (optin > shm) {              // opting in: the larger histogram runs
        int big = optin / (int)sizeof(unsigned);
        unsigned *d_big;
        CK(cudaMalloc(&d_big, big * sizeof(unsigned)));
        CK(cudaMemset(d_big, 0, big * sizeof(unsigned)));
        histogram<<<2, 128, optin>>>(d_in, n, d_big, big);
        EXPECT(cudaGetLastError() == cudaErrorInvalidValue, "opt-in size without opting in");
        CK(cudaFuncSetAttribute(histogram, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                optin));
        CK(cudaFuncGetAttributes(&fa, histogram));
        EXPECT(fa.maxDynamicSharedSizeBytes == optin, "set max dynamic shared %d",
               fa.maxDynamicSharedSizeBytes);
        histogram<<<2, 128, optin>>>(d_in, n, d_big, big);
        CK(cudaGetLastError());
        unsigned *hb = (unsigned *)calloc(big, sizeof(unsigned));
        CK(cudaMemcpy(hb, d_big, big * sizeof(unsigned), cudaMemcpyDeviceToHost));
        long long tot = 0;
        for (int b = 0; b < big; b++)
            tot += hb[b];
        EXPECT(tot == n, "opt-in histogram counted %lld of %d", tot, n);
        free(hb);
    }
    CK(cudaDeviceSynchronize());
    return ck_done();
}
