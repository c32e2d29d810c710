// sprod: scalar products of npairs vector pairs of length n (in the spirit
// of the CUDA samples' scalarProd, written here). One 256-thread CTA per
// pair: thread t accumulates a[i] * b[i] for i = t, t + 256, ... with one
// fma per element (unit-stride, each warp reads two whole 128-byte lines
// per pass), stores its partial sum in shared memory, and the CTA reduces
// the 256 partials with a tree (stride 128, 64, ..., 1, one bar.sync before
// each step); thread 0 writes the product. Coarse-grained: every global
// access is a full coalesced line, the data are streamed once, and the
// work per CTA is large and uniform; the only divergence is the tree's
// last five steps inside warp 0 and the partial last pass when n is not a
// multiple of 256.

#define SP_THREADS 256

extern "C" __global__ void sprod(const float *a, const float *b, float *out,
                                 int n)
{
    __shared__ float part[SP_THREADS];
    int t = threadIdx.x;
    const float *pa = a + (size_t)blockIdx.x * n;
    const float *pb = b + (size_t)blockIdx.x * n;
    float sum = 0.0f;
    for (int i = t; i < n; i += SP_THREADS)
        sum = __fmaf_rn(pa[i], pb[i], sum);
    part[t] = sum;
    for (int stride = SP_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (t < stride)
            part[t] = __fadd_rn(part[t], part[t + stride]);
    }
    if (t == 0)
        out[blockIdx.x] = part[0];
}
