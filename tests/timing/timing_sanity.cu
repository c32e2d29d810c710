// Kernels for the timing-model sanity tests (tests/unit/test_timing_sanity.c).
// Regenerate the committed PTX from the repository root with
//   nvcc -ptx -arch=sm_75 -O3 -o tests/timing/timing_sanity.ptx tests/timing/timing_sanity.cu

// Compute-bound: four independent FMA chains per thread, no memory traffic
// inside the loop (one load, one store per thread).
extern "C" __global__ void fma_loop(float *out, const float *in, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    float a = x, b = x + 1.0f, c = x + 2.0f, d = x + 3.0f;
    for (int k = 0; k < iters; k++) {
        a = fmaf(a, 0.999f, 0.5f);
        b = fmaf(b, 0.998f, 0.25f);
        c = fmaf(c, 0.997f, 0.125f);
        d = fmaf(d, 0.996f, 0.0625f);
    }
    out[i] = a + b + c + d;
}

// Streaming copy, 16 bytes per thread per iteration, grid-stride: every
// byte is read once and written once (DRAM bandwidth bound).
extern "C" __global__ void stream_copy(float4 *dst, const float4 *src, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = src[i];
}

// Re-reads a small array (len floats, a power of two) many times: after
// the first touch every access should hit in L1.
extern "C" __global__ void reread(float *out, const float *small, int len, int iters)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < iters; k++)
        s += small[(threadIdx.x + 32 * k) & (len - 1)];
    out[i] = s;
}
