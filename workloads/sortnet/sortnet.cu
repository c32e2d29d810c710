// Batcher odd-even merge sort of (key, value) pairs (in the spirit of the
// CUDA samples sortingNetworks/oddEvenMergeSort), ascending by key.
// n is a power of two, a multiple of 2*TILE.
//   oem_sort_tile:   each CTA sorts a 2*TILE slice in shared memory.
//   oem_merge_global: one comparator stage (merge size `size`, stride
//                    `stride`) over the whole array in global memory.
// The swap is decided by the data, `if ((a > b) == dir) swap`, and in every
// stage but the first of a merge only comparators with
// (index mod size/2) >= stride work, so warps diverge twice.

#define TILE 256  // threads per CTA; each CTA owns 2*TILE pairs

__device__ __forceinline__ void comparator(unsigned &ka, unsigned &va,
                                           unsigned &kb, unsigned &vb,
                                           unsigned dir)
{
    if ((ka > kb) == dir) {
        unsigned t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
}

extern "C" __global__ void oem_sort_tile(unsigned *keys, unsigned *vals)
{
    __shared__ unsigned sk[2 * TILE];
    __shared__ unsigned sv[2 * TILE];
    unsigned base = blockIdx.x * 2 * TILE, t = threadIdx.x;
    sk[t] = keys[base + t];
    sv[t] = vals[base + t];
    sk[t + TILE] = keys[base + t + TILE];
    sv[t + TILE] = vals[base + t + TILE];
    for (unsigned size = 2; size <= 2 * TILE; size <<= 1) {
        unsigned stride = size / 2;
        unsigned offset = t & (stride - 1);
        __syncthreads();
        unsigned pos = 2 * t - (t & (stride - 1));
        comparator(sk[pos], sv[pos], sk[pos + stride], sv[pos + stride], 1);
        for (stride >>= 1; stride > 0; stride >>= 1) {
            __syncthreads();
            pos = 2 * t - (t & (stride - 1));
            if (offset >= stride)
                comparator(sk[pos - stride], sv[pos - stride], sk[pos],
                           sv[pos], 1);
        }
    }
    __syncthreads();
    keys[base + t] = sk[t];
    vals[base + t] = sv[t];
    keys[base + t + TILE] = sk[t + TILE];
    vals[base + t + TILE] = sv[t + TILE];
}

extern "C" __global__ void oem_merge_global(unsigned *keys, unsigned *vals,
                                            unsigned n, unsigned size,
                                            unsigned stride)
{
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;   // comparator
    if (c >= n / 2)
        return;
    unsigned pos = 2 * c - (c & (stride - 1));
    unsigned lo, hi;
    if (stride < size / 2) {
        unsigned offset = c & (size / 2 - 1);
        if (offset < stride)
            return;
        lo = pos - stride;
        hi = pos;
    } else {
        lo = pos;
        hi = pos + stride;
    }
    unsigned ka = keys[lo], kb = keys[hi];
    if (ka > kb) {
        unsigned va = vals[lo], vb = vals[hi];
        keys[lo] = kb;
        keys[hi] = ka;
        vals[lo] = vb;
        vals[hi] = va;
    }
}
