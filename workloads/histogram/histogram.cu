// 256-bin histogram of bytes (in the spirit of the CUDA samples
// histogram256): each CTA builds a private histogram in shared memory with
// shared atomics, then merges it into the global one with global atomics.
// Input is packed four bytes per 32-bit word; grid-stride loop over words.

#define BINS 256

extern "C" __global__ void histogram256(const unsigned *data, unsigned nwords,
                                        unsigned *hist)
{
    __shared__ unsigned s_hist[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        s_hist[b] = 0;
    __syncthreads();

    unsigned stride = blockDim.x * gridDim.x;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords;
         i += stride) {
        unsigned w = data[i];
        atomicAdd(&s_hist[w & 0xffu], 1u);
        atomicAdd(&s_hist[(w >> 8) & 0xffu], 1u);
        atomicAdd(&s_hist[(w >> 16) & 0xffu], 1u);
        atomicAdd(&s_hist[w >> 24], 1u);
    }
    __syncthreads();

    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x) {
        unsigned v = s_hist[b];
        if (v != 0)
            atomicAdd(&hist[b], v);
    }
}
