// ub_fetch: instruction fetch and the instruction cache (tools/correlate.py).
//   code_fits   two warps per CTA loop 72 times over a body of 8 steps
//               (a shift, an xor and a multiply-add each: not foldable):
//               a few hundred bytes of code, which every instruction
//               cache holds after its first pass
//   code_spills the same work as 3 passes over a body of 192 steps
//               (about 6 KB of code): larger than the instruction caches
//               of SM2_GTX480 (2 KB) and QuadroFX5800 (4 KB), so every
//               pass misses on every line
// Both do 576 steps a thread; the host checks every result against the
// same integer arithmetic on the CPU.
#include <cstdio>
#include <vector>

template <int BODY>
__device__ __forceinline__ unsigned body(unsigned x, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < BODY; k++)
            x = (x ^ (x >> 7)) * (2u * (unsigned)k + 3u) + (unsigned)k;
    }
    return x;
}

__global__ void code_fits(unsigned n, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = body<8>(t, n * 24u);
}

__global__ void code_spills(unsigned n, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    out[t] = body<192>(t, n);
}

static unsigned ref(unsigned x, unsigned n, int bodyn)
{
    for (unsigned i = 0; i < n; i++)
        for (int k = 0; k < bodyn; k++)
            x = (x ^ (x >> 7)) * (2u * (unsigned)k + 3u) + (unsigned)k;
    return x;
}

int main()
{
    const unsigned grid = 30, block = 64, nt = grid * block, n = 3;
    unsigned *d;
    int fails = 0;
    std::vector<unsigned> h(nt);
    cudaMalloc(&d, nt * 4);

    code_fits<<<grid, block>>>(n, d);
    cudaMemcpy(h.data(), d, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++)
        if (h[t] != ref(t, n * 24u, 8)) { printf("FAIL ub_fetch code_fits %u\n", t); fails++; break; }

    code_spills<<<grid, block>>>(n, d);
    cudaMemcpy(h.data(), d, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++)
        if (h[t] != ref(t, n, 192)) { printf("FAIL ub_fetch code_spills %u\n", t); fails++; break; }

    cudaFree(d);
    if (!fails)
        printf("PASS ub_fetch\n");
    return fails ? 1 : 0;
}
