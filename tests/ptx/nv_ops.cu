// Kernels of our own that use the intrinsics real CUDA code uses (bit
// tricks, byte permutes, integer dot products, SIMD video ops, warp
// match, block-wide predicate reductions, half2 arithmetic), the way the
// CUDA samples do. tests/unit/test_nv_ops.c runs the committed nv_ops.ptx
// (nvcc -ptx -arch=sm_75 -O3) in both modes against a CPU reference.
#include <cooperative_groups.h>
#include <cuda_fp16.h>
namespace cg = cooperative_groups;

#define NOPS 24

extern "C" __global__ void ops_int(const unsigned *a, const unsigned *b,
                                   unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = a[i], y = b[i];
    unsigned *o = out + i * NOPS;
    o[0] = __ffs(x);
    o[1] = __ffsll((long long)x << 20);
    o[2] = __clz(x);
    o[3] = __byte_perm(x, y, 0x5140);
    o[4] = __byte_perm(x, y, y & 0x7777);
    o[5] = __dp4a((int)x, (int)y, 7);
    o[6] = __dp4a(x, y, 9u);
    o[7] = __dp2a_lo((int)x, (int)y, 3);
    o[8] = __dp2a_hi(x, y, 5u);
    o[9] = __vabsdiffu4(x, y);
    o[10] = __vadd4(x, y) ^ __vsub2(x, y);
    o[11] = __vmaxu4(x, y) ^ __vavgs2(x, y);
    o[12] = __vcmpgtu4(x, y);
    o[13] = __fns(x, i & 31, (int)(y & 7) - 3);
    o[14] = __funnelshift_l(x, y, y & 63) ^ __funnelshift_rc(x, y, y & 63);
    o[15] = __brev(x) + __popc(y);
    o[16] = warpSize + (threadIdx.x & (warpSize - 1));
    o[17] = __match_any_sync(0xffffffffu, x & 3);
    int pred = 0;
    o[18] = __match_all_sync(0xffffffffu, y >> 28, &pred) + (pred ? 1000 : 0);
    o[19] = cg::tiled_partition<32>(cg::this_thread_block()).match_any(y & 7);
    o[20] = __syncthreads_count((x & 5) == 1);
    o[21] = __syncthreads_and(x != 0) + 2 * __syncthreads_or(x == 12345);
    unsigned am = 0;
    if (x & 1)
        am = __activemask();
    o[22] = am;
    o[23] = i < n ? __vsetgts2(x, y) : 0;
}

// Dot product of k half2 pairs per thread, accumulated with __hfma2, then
// a few more half2 operations on the result.
extern "C" __global__ void ops_half(const __half2 *x, const __half2 *y,
                                    float *out, __half2 *hout, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __half2 acc = __float2half2_rn(0.0f);
    for (int j = 0; j < k; j++)
        acc = __hfma2(x[i * k + j], y[i * k + j], acc);
    __half2 p = x[i * k], q = y[i * k];
    __half2 s = __hadd2(__hmul2(p, __habs2(q)), __hneg2(acc));
    hout[i * 3] = acc;
    hout[i * 3 + 1] = s;
    hout[i * 3 + 2] = __hmax2(p, q);
    __half2 c = __hgt2(p, q);
    out[i * 3] = __low2float(acc) + __high2float(acc);
    out[i * 3 + 1] = __low2float(c) - __high2float(c);
    out[i * 3 + 2] = __half2float(h2exp2(__floats2half2_rn(i & 7, -(float)(i & 3))).x) +
                     __high2float(h2exp2(__floats2half2_rn(i & 7, -(float)(i & 3))));
}
