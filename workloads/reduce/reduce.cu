// reduce: sum of n unsigned integers (mod 2^32). Each thread accumulates a
// grid-stride slice, warps reduce with shfl.sync.down, warp sums meet in
// shared memory and the first warp reduces them again. Launched twice: the
// grid writes per-block partial sums, then one block reduces the partials.
#define WARP 32

__device__ unsigned warp_sum(unsigned v)
{
    for (int off = WARP / 2; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

extern "C" __global__ void reduce_sum(const unsigned *in, unsigned *out,
                                      unsigned n)
{
    __shared__ unsigned warp_sums[32];
    unsigned tid = threadIdx.x;
    unsigned lane = tid % WARP, warp = tid / WARP;
    unsigned nwarps = (blockDim.x + WARP - 1) / WARP;
    unsigned sum = 0;
    for (unsigned i = blockIdx.x * blockDim.x + tid; i < n;
         i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warp_sum(sum);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < nwarps ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}
