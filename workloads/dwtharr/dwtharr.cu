// Haar wavelet decomposition: every CTA owns one segment of 2*T samples of
// the signal and decomposes it completely (log2(2T) levels) in shared
// memory. At a level with n pairs, thread t < n forms the pair
// (s[2t], s[2t+1]) into the approximation (a + b) * c and the detail
// (a - b) * c, c = 1/sqrt(2) rounded to float; the details go to the
// output at [n, 2n) of the segment (the usual in-place Haar layout), the
// approximations go back to s[0, n) for the next level, and the last
// approximation goes to position 0.
//
// Divergent: the number of active threads halves every level (T, T/2, ...,
// 1), so whole warps go idle first and then, once n < 32, lanes drop out
// of the last active warp one level after the other; every level still
// needs the CTA's two barriers.

#define DWT_T 256
#define DWT_C 0.70710678118654752f

extern "C" __global__ void dwt_haar(const float *in, float *out)
{
    __shared__ float s[2 * DWT_T];
    int t = threadIdx.x;
    long base = (long)blockIdx.x * (2 * DWT_T);
    s[t] = in[base + t];
    s[t + DWT_T] = in[base + t + DWT_T];
    __syncthreads();
    for (int n = DWT_T; n >= 1; n >>= 1) {
        float a = 0.0f;
        if (t < n) {
            float x = s[2 * t], y = s[2 * t + 1];
            a = __fmul_rn(__fadd_rn(x, y), DWT_C);
            out[base + n + t] = __fmul_rn(__fsub_rn(x, y), DWT_C);
        }
        __syncthreads();           // every pair of this level is read
        if (t < n)
            s[t] = a;
        __syncthreads();
    }
    if (t == 0)
        out[base] = s[0];
}
