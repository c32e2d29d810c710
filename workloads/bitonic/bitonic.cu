// bitonic: each block sorts 1024 (key, value) pairs in shared memory with a
// bitonic network (CUDA-samples style, 512 threads, one comparator each per
// step). The swap is data dependent and the direction of a sub-sequence
// depends on the thread index, so warps diverge at every step. Even blocks
// sort ascending, odd blocks descending (dir_base flips that).
#define SEG 1024

__device__ void comparator(unsigned &ka, unsigned &va, unsigned &kb,
                           unsigned &vb, unsigned dir)
{
    if ((ka > kb) == dir) {
        unsigned t = ka; ka = kb; kb = t;
        t = va; va = vb; vb = t;
    }
}

extern "C" __global__ void bitonic_sort(unsigned *keys, unsigned *vals,
                                        unsigned dir_base)
{
    __shared__ unsigned sk[SEG];
    __shared__ unsigned sv[SEG];
    unsigned base = blockIdx.x * SEG;
    unsigned t = threadIdx.x;
    unsigned dir = (dir_base ^ blockIdx.x ^ 1u) & 1u;   // 1: ascending
    sk[t] = keys[base + t];
    sv[t] = vals[base + t];
    sk[t + SEG / 2] = keys[base + t + SEG / 2];
    sv[t + SEG / 2] = vals[base + t + SEG / 2];
    for (unsigned size = 2; size < SEG; size <<= 1) {
        unsigned ddd = dir ^ ((t & (size / 2)) != 0);
        for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned pos = 2 * t - (t & (stride - 1));
            comparator(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], ddd);
        }
    }
    for (unsigned stride = SEG / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned pos = 2 * t - (t & (stride - 1));
        comparator(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], dir);
    }
    __syncthreads();
    keys[base + t] = sk[t];
    vals[base + t] = sv[t];
    keys[base + t + SEG / 2] = sk[t + SEG / 2];
    vals[base + t + SEG / 2] = sv[t + SEG / 2];
}
