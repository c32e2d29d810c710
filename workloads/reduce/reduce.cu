// reduce: sum of n unsigned integers (mod 2^32). Each thread accumulates a
// grid-stride slice, warps reduce with shfl.sync.down, warp sums meet in
// shared memory and the first warp reduces them again. Launched twice: the
// grid writes per-block partial sums, then one block reduces the partials.
// A partial last warp (nvalid < 32 threads) reads only lanes that exist:
// a shfl from a lane with no thread returns an undefined value (PTX ISA;
// synccheck reports it, docs/checks.md), so out-of-range lanes read
// themselves (shfl.idx) and add nothing.
#define WARP 32

__device__ unsigned warp_sum(unsigned v, unsigned lane, unsigned nvalid)
{
    if (nvalid >= WARP) {
        for (int off = WARP / 2; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        return v;
    }
    unsigned mask = (1u << nvalid) - 1;
    for (unsigned off = WARP / 2; off > 0; off >>= 1) {
        unsigned src = lane + off < nvalid ? lane + off : lane;
        unsigned o = __shfl_sync(mask, v, src);
        if (src != lane)
            v += o;
    }
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
    unsigned nvalid = min(blockDim.x - warp * WARP, (unsigned)WARP);
    sum = warp_sum(sum, lane, nvalid);
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < nwarps ? warp_sums[lane] : 0;
        sum = warp_sum(sum, lane, min(blockDim.x, (unsigned)WARP));
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}
