// fwt: fast Walsh-Hadamard transform (natural order, unnormalised) of a
// seeded integer vector of n = 2^log2n words, in the spirit of the CUDA
// samples' fastWalshTransform, written here. The transform is the product
// of log2n butterfly stages, one per index bit, and the stages commute:
//   fwt_shared:  each 256-thread CTA loads a 1024-word chunk into shared
//                memory (four coalesced loads per thread) and applies the
//                ten stages of the low index bits (strides 1 .. 512), two
//                butterflies per thread per stage, one bar.sync before each;
//   fwt_radix4:  two global stages (strides s and 2s) at once, one group of
//                four words per thread;
//   fwt_radix2:  one global stage (stride s), one butterfly per thread.
// Integer add/sub only (wrapping 32-bit arithmetic, exact). Coarse-grained:
// consecutive threads touch consecutive words in every stage (strides of at
// least 1024 words in the global ones), so each warp access is one full
// line; no branch depends on the data and every CTA does the same work.

#define FWT_CHUNK 1024
#define FWT_THREADS 256

extern "C" __global__ void fwt_shared(int *d)
{
    __shared__ int s[FWT_CHUNK];
    int t = threadIdx.x;
    int *base = d + (size_t)blockIdx.x * FWT_CHUNK;
    for (int q = 0; q < FWT_CHUNK; q += FWT_THREADS)
        s[t + q] = base[t + q];
    for (int stride = 1; stride < FWT_CHUNK; stride <<= 1) {
        __syncthreads();
        for (int q = 0; q < FWT_CHUNK / 2; q += FWT_THREADS) {
            int b = t + q;
            int lo = ((b & ~(stride - 1)) << 1) | (b & (stride - 1));
            int x = s[lo], y = s[lo + stride];
            s[lo] = (int)((unsigned)x + (unsigned)y);
            s[lo + stride] = (int)((unsigned)x - (unsigned)y);
        }
    }
    __syncthreads();
    for (int q = 0; q < FWT_CHUNK; q += FWT_THREADS)
        base[t + q] = s[t + q];
}

extern "C" __global__ void fwt_radix4(int *d, int stride)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;     // group index
    int i0 = ((g & ~(stride - 1)) << 2) | (g & (stride - 1));
    unsigned x0 = d[i0], x1 = d[i0 + stride];
    unsigned x2 = d[i0 + 2 * stride], x3 = d[i0 + 3 * stride];
    unsigned a0 = x0 + x1, a1 = x0 - x1, a2 = x2 + x3, a3 = x2 - x3;
    d[i0] = (int)(a0 + a2);
    d[i0 + stride] = (int)(a1 + a3);
    d[i0 + 2 * stride] = (int)(a0 - a2);
    d[i0 + 3 * stride] = (int)(a1 - a3);
}

extern "C" __global__ void fwt_radix2(int *d, int stride)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;     // butterfly index
    int lo = ((b & ~(stride - 1)) << 1) | (b & (stride - 1));
    unsigned x = d[lo], y = d[lo + stride];
    d[lo] = (int)(x + y);
    d[lo + stride] = (int)(x - y);
}
