// ub_misc: divergence, atomics and barriers (tools/correlate.py).
//   diverge   each lane of a warp takes one of 32 paths (a switch on the
//             lane id), 8 times: the cost of serialised divergent paths
//   atom_hot  every thread adds to one of 32 counters (heavy contention at
//             the L2's atomic unit)
//   atom_spread every thread adds to its own line: atomics throughput
//   barrier   512-thread CTAs alternating shared-memory writes and
//             __syncthreads 64 times
// The host checks every output.
#include <cstdio>
#include <vector>

__global__ void diverge(unsigned iters, unsigned *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x, x = t;
    for (unsigned k = 0; k < iters; k++) {
        switch (threadIdx.x & 31u) {
#define C(n) case n: x = x * (2u * n + 1u) + n; break;
        C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13) C(14) C(15)
        C(16) C(17) C(18) C(19) C(20) C(21) C(22) C(23) C(24) C(25) C(26) C(27) C(28) C(29) C(30) C(31)
#undef C
        }
    }
    out[t] = x;
}

__global__ void atom_hot(unsigned iters, unsigned *ctr)
{
    for (unsigned k = 0; k < iters; k++)
        atomicAdd(&ctr[threadIdx.x & 31u], 1u);
}

__global__ void atom_spread(unsigned iters, unsigned *ctr)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    for (unsigned k = 0; k < iters; k++)
        atomicAdd(&ctr[t * 32u], k);
}

__global__ void barrier(unsigned iters, unsigned *out)
{
    __shared__ unsigned s[512];
    unsigned v = threadIdx.x;
    for (unsigned k = 0; k < iters; k++) {
        s[threadIdx.x] = v;
        __syncthreads();
        v += s[(threadIdx.x + 1) & 511u];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main()
{
    const unsigned grid = 60, block = 256, nt = grid * block;
    unsigned *d;
    int fails = 0;
    std::vector<unsigned> h(nt * 32);
    cudaMalloc(&d, nt * 32 * 4);

    const unsigned di = 8;
    diverge<<<grid, block>>>(di, d);
    cudaMemcpy(h.data(), d, nt * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++) {
        unsigned x = t, n = t % block & 31u;
        for (unsigned k = 0; k < di; k++) x = x * (2u * n + 1u) + n;
        if (h[t] != x) { printf("FAIL ub_misc diverge %u\n", t); fails++; break; }
    }

    cudaMemset(d, 0, 32 * 4);
    const unsigned hi = 8;
    atom_hot<<<grid, block>>>(hi, d);
    cudaMemcpy(h.data(), d, 32 * 4, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < 32; i++)
        if (h[i] != nt / 32 * hi) { printf("FAIL ub_misc atom_hot %u\n", i); fails++; break; }

    cudaMemset(d, 0, nt * 32 * 4);
    const unsigned si = 8;
    atom_spread<<<grid, block>>>(si, d);
    cudaMemcpy(h.data(), d, nt * 32 * 4, cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++)
        if (h[t * 32] != si * (si - 1) / 2) { printf("FAIL ub_misc atom_spread %u\n", t); fails++; break; }

    const unsigned bi = 64, bgrid = 30;
    barrier<<<bgrid, 512>>>(bi, d);
    std::vector<unsigned> b(bgrid * 512);
    cudaMemcpy(b.data(), d, b.size() * 4, cudaMemcpyDeviceToHost);
    std::vector<unsigned> v(512), nv(512);
    for (unsigned i = 0; i < 512; i++) v[i] = i;
    for (unsigned k = 0; k < bi; k++) {
        for (unsigned i = 0; i < 512; i++) nv[i] = v[i] + v[(i + 1) & 511u];
        v = nv;
    }
    for (unsigned c = 0; c < bgrid && !fails; c++)
        for (unsigned i = 0; i < 512; i++)
            if (b[c * 512 + i] != v[i]) { printf("FAIL ub_misc barrier %u\n", i); fails++; break; }
    cudaFree(d);
    if (!fails)
        printf("PASS ub_misc\n");
    return fails ? 1 : 0;
}
