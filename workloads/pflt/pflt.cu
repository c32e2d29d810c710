// Particle filter tracking a bright disk through a sequence of noisy
// frames (in the manner of Rodinia's particlefilter; written here). Per
// frame, five kernels:
//   pf_likelihood  each particle moves by (1, -2) plus Gaussian noise
//                  (Box-Muller on its own xorshift32 state; sd 5 in x, 2
//                  in y), sums ((I - 100)^2 - (I - 228)^2) over the pixels
//                  I of a disk of offsets around its rounded position
//                  (clamped to the frame), and multiplies its weight by
//                  exp(sum / (400 * npts));
//   pf_scan_blocks inclusive prefix sum of the weights per 512-particle
//                  block (Hillis-Steele in shared memory, double buffered),
//                  and each block's sum;
//   pf_scan_sums   one CTA scans the block sums the same way;
//   pf_normalise   cdf[i] = (local prefix + preceding blocks) / total;
//   pf_resample    particle i takes u = (u0 + i) / n and searches the CDF
//                  for the first j with cdf[j] >= u, starting at j = i and
//                  walking down or up one entry at a time, then copies
//                  particle j's position; weights reset to 1/n.
// All arithmetic is __f*_rn; the logarithm, cosine, sine and exponential
// are __log2f, __cosf, __sinf and __expf (lg2.approx, cos.approx,
// sin.approx and ex2.approx on a scaled argument).
//
// Divergent: the resampling walk is as long as the distance between a
// particle's index and the index it copies, which depends on how the
// weight is distributed (long walks where heavy particles sit, none
// elsewhere); the likelihood's clamping at the frame edges and the
// scan's `t >= d` steps also split warps.

#define PF_B 512
#define PF_S 256
#define PF_LN2 0.693147182f
#define PF_2PI 6.28318548f

__device__ __forceinline__ float pf_rnd(unsigned &r)
{
    r ^= r << 13;
    r ^= r >> 17;
    r ^= r << 5;
    return __fmul_rn((float)((r >> 8) + 1u), 5.96046448e-8f);
}

extern "C" __global__ void pf_likelihood(float *px, float *py, float *w,
                                         unsigned *rng, int n,
                                         const unsigned char *frame,
                                         int fw, int fh, const int *off,
                                         int npts)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned r = rng[i];
    float u1 = pf_rnd(r), u2 = pf_rnd(r);
    float rad = __fsqrt_rn(__fmul_rn(-2.0f, __fmul_rn(__log2f(u1), PF_LN2)));
    float ang = __fmul_rn(PF_2PI, u2);
    float x = __fadd_rn(__fadd_rn(px[i], 1.0f), __fmul_rn(5.0f, __fmul_rn(rad, __cosf(ang))));
    float y = __fadd_rn(__fsub_rn(py[i], 2.0f), __fmul_rn(2.0f, __fmul_rn(rad, __sinf(ang))));
    int cx = __float2int_rn(x), cy = __float2int_rn(y);
    int s = 0;
    for (int k = 0; k < npts; k++) {
        int ix = cx + off[2 * k], iy = cy + off[2 * k + 1];
        if (ix < 0)
            ix = 0;
        else if (ix >= fw)
            ix = fw - 1;
        if (iy < 0)
            iy = 0;
        else if (iy >= fh)
            iy = fh - 1;
        int v = frame[iy * fw + ix];
        s += (v - 100) * (v - 100) - (v - 228) * (v - 228);
    }
    float like = __fdiv_rn((float)s, (float)(400 * npts));
    w[i] = __fmul_rn(w[i], __expf(like));
    px[i] = x;
    py[i] = y;
    rng[i] = r;
}

extern "C" __global__ void pf_scan_blocks(const float *w, float *cdf,
                                          float *bsum, int n)
{
    __shared__ float buf[2][PF_B];
    int t = threadIdx.x, i = blockIdx.x * PF_B + t;
    buf[0][t] = i < n ? w[i] : 0.0f;
    __syncthreads();
    int in = 0;
    for (int d = 1; d < PF_B; d <<= 1) {
        float v = buf[in][t];
        if (t >= d)
            v = __fadd_rn(buf[in][t - d], v);
        buf[1 - in][t] = v;
        in = 1 - in;
        __syncthreads();
    }
    if (i < n)
        cdf[i] = buf[in][t];
    if (t == PF_B - 1)
        bsum[blockIdx.x] = buf[in][t];
}

extern "C" __global__ void pf_scan_sums(float *bsum, int nb)
{
    __shared__ float buf[2][PF_S];
    int t = threadIdx.x;
    buf[0][t] = t < nb ? bsum[t] : 0.0f;
    __syncthreads();
    int in = 0;
    for (int d = 1; d < PF_S; d <<= 1) {
        float v = buf[in][t];
        if (t >= d)
            v = __fadd_rn(buf[in][t - d], v);
        buf[1 - in][t] = v;
        in = 1 - in;
        __syncthreads();
    }
    if (t < nb)
        bsum[t] = buf[in][t];
}

extern "C" __global__ void pf_normalise(float *cdf, const float *bsum,
                                        int nb, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int b = i / PF_B;
    float total = bsum[nb - 1];
    float c = cdf[i];
    if (b > 0)
        c = __fadd_rn(c, bsum[b - 1]);
    cdf[i] = __fdiv_rn(c, total);
}

extern "C" __global__ void pf_resample(const float *cdf, const float *px,
                                       const float *py, float *nx, float *ny,
                                       float *w, int *idx, float u0, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float u = __fdiv_rn(__fadd_rn(u0, (float)i), (float)n);
    int j = i;
    while (j > 0 && cdf[j - 1] >= u)
        j--;
    while (j < n - 1 && cdf[j] < u)
        j++;
    nx[i] = px[j];
    ny[i] = py[j];
    w[i] = __fdiv_rn(1.0f, (float)n);
    idx[i] = j;
}
