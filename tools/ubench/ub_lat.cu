// ub_lat: load-to-use latency of each level, one thread chasing pointers
// (tools/correlate.py; docs/results/correlation.md). Each kernel runs one
// thread, so the kernel's cycles / loads is the latency of one dependent
// global load at that level:
//   chase_l1    a 32-line ring (4 KB), re-read: L1 hits after the first lap
//   chase_l2    a 1024-line ring (128 KB: more than any L1, less than any
//               L2) warmed by warm_l2, so every load misses L1 and hits L2
//   chase_dram  a ring of lines 4 KB + 128 B apart over 32 MB: L2 misses
//   chase_shared the same ring in shared memory (shared-memory latency)
// The ring order is a seeded random cycle; the host checks the final index.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define STRIDE 32u      // words between ring elements (128 B)

__global__ void warm_l2(const unsigned *a, unsigned nwords, unsigned *sink)
{
    unsigned s = 0;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords;
         i += gridDim.x * blockDim.x)
        s += a[i];
    if (s == 0xdeadbeefu)
        *sink = s;
}

__device__ unsigned chase(const unsigned *a, unsigned n)
{
    unsigned p = 0;
    for (unsigned i = 0; i < n; i++)
        p = a[p];
    return p;
}

__global__ void chase_l1(const unsigned *a, unsigned n, unsigned *out) { *out = chase(a, n); }
__global__ void chase_l2(const unsigned *a, unsigned n, unsigned *out) { *out = chase(a, n); }
__global__ void chase_dram(const unsigned *a, unsigned n, unsigned *out) { *out = chase(a, n); }

__global__ void chase_shared(const unsigned *a, unsigned ring, unsigned n, unsigned *out)
{
    __shared__ unsigned s[32 * STRIDE];
    for (unsigned k = 0; k < ring; k++)
        s[k * STRIDE] = a[k * STRIDE];
    unsigned p = 0;
    for (unsigned i = 0; i < n; i++)
        p = s[p];
    *out = p;
}

/* A random cyclic ring of m elements, element k at word k * stride. */
static std::vector<unsigned> ring(unsigned m, unsigned stride, unsigned seed)
{
    std::vector<unsigned> perm(m), a((size_t)m * stride, 0);
    for (unsigned i = 0; i < m; i++)
        perm[i] = i;
    srand(seed);
    for (unsigned i = m - 1; i > 0; i--) {
        unsigned j = (unsigned)rand() % (i + 1);
        unsigned t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (unsigned i = 0; i < m; i++)
        a[(size_t)perm[i] * stride] = perm[(i + 1) % m] * stride;
    return a;
}

static unsigned walk(const std::vector<unsigned> &a, unsigned n)
{
    unsigned p = 0;
    for (unsigned i = 0; i < n; i++)
        p = a[p];
    return p;
}

static int fails;

static void check(const char *what, unsigned *d_out, unsigned want)
{
    unsigned got = 0;
    cudaError_t e = cudaMemcpy(&got, d_out, 4, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess || got != want) {
        printf("FAIL ub_lat %s: got %u want %u (%s)\n", what, got, want, cudaGetErrorString(e));
        fails++;
    }
}

int main()
{
    const unsigned n_l1 = 2048, n_l2 = 2048, n_dram = 512, n_sh = 2048;
    unsigned *d_out, *d_a;
    cudaMalloc(&d_out, 4);
    // L1 and shared: a 32-element ring, 128 B apart
    std::vector<unsigned> a1 = ring(32, STRIDE, 1);
    cudaMalloc(&d_a, a1.size() * 4);
    cudaMemcpy(d_a, a1.data(), a1.size() * 4, cudaMemcpyHostToDevice);
    chase_l1<<<1, 1>>>(d_a, n_l1, d_out);
    check("chase_l1", d_out, walk(a1, n_l1));
    chase_shared<<<1, 1>>>(d_a, 32, n_sh, d_out);
    check("chase_shared", d_out, walk(a1, n_sh));
    cudaFree(d_a);
    // L2: 1024 lines (128 KB), warmed into the L2 first
    std::vector<unsigned> a2 = ring(1024, STRIDE, 2);
    cudaMalloc(&d_a, a2.size() * 4);
    cudaMemcpy(d_a, a2.data(), a2.size() * 4, cudaMemcpyHostToDevice);
    warm_l2<<<30, 256>>>(d_a, (unsigned)a2.size(), d_out);
    chase_l2<<<1, 1>>>(d_a, n_l2, d_out);
    check("chase_l2", d_out, walk(a2, n_l2));
    cudaFree(d_a);
    // DRAM: 8192 lines 4 KB + 128 B apart (33 MB), far beyond any L2
    const unsigned dstride = 1024 + 32;
    std::vector<unsigned> a3 = ring(8192, dstride, 3);
    cudaMalloc(&d_a, a3.size() * 4);
    cudaMemcpy(d_a, a3.data(), a3.size() * 4, cudaMemcpyHostToDevice);
    chase_dram<<<1, 1>>>(d_a, n_dram, d_out);
    check("chase_dram", d_out, walk(a3, n_dram));
    cudaFree(d_a);
    cudaFree(d_out);
    if (!fails)
        printf("PASS ub_lat\n");
    return fails ? 1 : 0;
}
