// Kernels with one undefined behaviour each, for racecheck, synccheck and
// initcheck (tests/unit/test_checks.c, docs/checks.md), and a clean
// control. PTX: tests/check/checks.ptx (nvcc -ptx -arch=sm_75 -O3; make
// test-checks says when it is stale).
#define T 16

// Tiled transpose with the __syncthreads() between the tile store and the
// tile load missing: thread (x,y) reads tile[x][y], written by thread (y,x)
// of another warp in the same barrier interval (read-after-write race).
extern "C" __global__ void transpose_racy(const float *in, float *out, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    // __syncthreads() missing here
    int tx = blockIdx.y * T + threadIdx.x, ty = blockIdx.x * T + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

// The same with the barrier: no finding.
extern "C" __global__ void transpose_ok(const float *in, float *out, int n)
{
    __shared__ float tile[T][T + 1];
    int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    int tx = blockIdx.y * T + threadIdx.x, ty = blockIdx.x * T + threadIdx.y;
    out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

// Warp reduction with a wrong member mask: only the low half-warp is
// named, but all 32 lanes execute the shuffles (mask excludes the upper
// lanes; lanes 0..15 read lanes 16.. outside the mask).
extern "C" __global__ void reduce_badmask(const int *in, int *out)
{
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0x0000ffffu, v, off);
    if (threadIdx.x % 32 == 0)
        atomicAdd(out, v);
}

// Reads of never-written memory: a global buffer the host allocated but
// never wrote, a shared word no thread stored, a local array element the
// thread never set.
extern "C" __global__ void read_unwritten(const int *never, int *out, int k)
{
    __shared__ int s[64];
    int l[8];
    int t = threadIdx.x;
    s[t] = t;                   // s[32..63] never written (32 threads)
    for (int i = 0; i < k; i++) // k < 8: l[k..7] never written
        l[i] = i * t;
    __syncthreads();
    out[t] = never[t] + s[t + 32] + l[(t & 7)];
}

// A barrier in divergent code: bar.sync with a thread count (48 of the 64
// threads) reached by only half of the second warp.
extern "C" __global__ void divergent_barrier(int *out)
{
    int t = threadIdx.x;
    if (t < 48) {
        out[t] = t;
        asm volatile("bar.sync 1, 48;");
        out[t] += out[47 - t];
    }
}

// globalrace: every CTA stores its own index to out[0] (plain stores of
// different CTAs to the same bytes: the value left depends on CTA order),
// while out[1 + blockIdx.x] is each CTA's own word (no finding) and
// out[8] is only ever changed with atomicMax (atomics are not races).
extern "C" __global__ void cta_race(int *out)
{
    if (threadIdx.x == 0) {
        out[0] = blockIdx.x;
        out[1 + blockIdx.x] = blockIdx.x;
        atomicMax(&out[8], (int)blockIdx.x);
    }
}
