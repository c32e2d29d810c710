// ub_bw: bandwidth of each level with every SM full of warps
// (tools/correlate.py). Grid-stride loops over float arrays:
//   stream_copy  b = a over 2^19 floats (2 MB each way): DRAM bandwidth,
//                reads and write-backs
//   stream_read  a sum over 2^20 floats (4 MB): DRAM read bandwidth
//   l2_read      4 passes over 2^16 floats (256 KB: L2-resident, more than
//                an L1): L2 and interconnect bandwidth
//   l1_read      each CTA re-reads its own 2 KB 16 times: L1 bandwidth
//   scatter      every lane of a warp reads a different line (32 lines per
//                warp instruction): coalescer, L1 MSHR and miss throughput
// The host checks every output.
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void stream_copy(const float *a, float *b, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        b[i] = a[i];
}

__global__ void stream_read(const float *a, unsigned n, float *out)
{
    float s = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void l2_read(const float *a, unsigned n, unsigned passes, float *out)
{
    float s = 0;
    for (unsigned p = 0; p < passes; p++)
        for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            s += a[(i + p * 4096u) & (n - 1)];  // n is a power of two
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void l1_read(const float *a, unsigned passes, float *out)
{
    const float *mine = a + blockIdx.x * 512u;
    float s = 0;
    for (unsigned p = 0; p < passes; p++)
        for (unsigned i = threadIdx.x; i < 512u; i += blockDim.x)
            s += mine[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

__global__ void scatter(const float *a, unsigned nlines, unsigned iters, float *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0;
    for (unsigned k = 0; k < iters; k++) {
        unsigned line = (t * 97u + k * 7919u) & (nlines - 1);  // a power of two
        s += a[line * 32u];
    }
    out[t] = s;
}

int main()
{
    const unsigned grid = 60, block = 256, nt = grid * block;
    const unsigned n = 1u << 20;
    std::vector<float> h(n), o(nt);
    for (unsigned i = 0; i < n; i++)
        h[i] = (float)(i % 17);          // small integers: every sum is exact
    float *a, *b, *out;
    int fails = 0;
    cudaMalloc(&a, n * 4);
    cudaMalloc(&b, n * 4);
    cudaMalloc(&out, nt * 4);
    cudaMemcpy(a, h.data(), n * 4, cudaMemcpyHostToDevice);

    stream_copy<<<grid, block>>>(a, b, n / 2);
    std::vector<float> c(n / 2);
    cudaMemcpy(c.data(), b, n / 2 * 4, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < n / 2; i++)
        if (c[i] != h[i]) { printf("FAIL ub_bw stream_copy %u\n", i); fails++; break; }

    stream_read<<<grid, block>>>(a, n, out);
    cudaMemcpy(o.data(), out, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++) {
        float s = 0;
        for (unsigned i = t; i < n; i += nt) s += h[i];
        if (o[t] != s) { printf("FAIL ub_bw stream_read %u\n", t); fails++; break; }
    }

    const unsigned n2 = 1u << 16, passes = 4;
    l2_read<<<grid, block>>>(a, n2, passes, out);
    cudaMemcpy(o.data(), out, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t += 13) {
        float s = 0;
        for (unsigned p = 0; p < passes; p++)
            for (unsigned i = t; i < n2; i += nt) s += h[(i + p * 4096u) & (n2 - 1)];
        if (o[t] != s) { printf("FAIL ub_bw l2_read %u\n", t); fails++; break; }
    }

    l1_read<<<grid, block>>>(a, 16, out);
    cudaMemcpy(o.data(), out, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t += 7) {
        unsigned cta = t / block, tid = t % block;
        float s = 0;
        for (unsigned p = 0; p < 16; p++)
            for (unsigned i = tid; i < 512u; i += block) s += h[cta * 512u + i];
        if (o[t] != s) { printf("FAIL ub_bw l1_read %u\n", t); fails++; break; }
    }

    const unsigned nlines = n / 32, iters = 8;
    scatter<<<grid, block>>>(a, nlines, iters, out);
    cudaMemcpy(o.data(), out, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t += 11) {
        float s = 0;
        for (unsigned k = 0; k < iters; k++) s += h[((t * 97u + k * 7919u) & (nlines - 1)) * 32u];
        if (o[t] != s) { printf("FAIL ub_bw scatter %u\n", t); fails++; break; }
    }
    cudaFree(a); cudaFree(b); cudaFree(out);
    if (!fails)
        printf("PASS ub_bw\n");
    return fails ? 1 : 0;
}
