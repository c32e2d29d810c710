// Monte Carlo pricing of European call options. Each option's terminal
// price is S_T = S0 * exp(drift + vol * z) with z standard normal (drift =
// (r - sigma^2/2) T and vol = sigma sqrt(T), worked out by the host), and
// the price is exp(-r T) times the mean payoff max(S_T - K, 0) over many
// paths.
//
// mc_paths: grid (blocks per option, options), MC_NT threads. Every thread
// owns a PCG32 stream (64-bit LCG state, xorshift-rotate output; the stream
// is picked by the thread's index in the whole grid and the state starts
// from the host's seed), draws `pairs` pairs of uniforms, turns each pair
// into two normals (Box-Muller: r = sqrt(-2 log u1), angle 2 pi u2 through
// sincospif) and sums the payoff and the squared payoff of both paths.
// The block then adds its threads' sums in a shared-memory tree (active
// threads halve at each level, a barrier between levels) and thread 0
// stores the block's two sums.
//
// mc_finish: one thread per option adds its blocks' sums in order and
// writes the price and the 95% confidence half-width
// 1.96 exp(-r T) sqrt(var / n), var = (sum2 - sum * mean) / (n - 1).

#define MC_NT 128

__device__ __forceinline__ unsigned mc_pcg(unsigned long long *s,
                                           unsigned long long inc)
{
    unsigned long long old = *s;
    *s = old * 6364136223846793005ull + inc;
    unsigned x = (unsigned)(((old >> 18) ^ old) >> 27);
    unsigned rot = (unsigned)(old >> 59);
    return (x >> rot) | (x << ((32u - rot) & 31u));
}

extern "C" __global__ void mc_paths(const float *s0, const float *strike,
                                    const float *drift, const float *vol,
                                    float2 *partial, unsigned long long seed,
                                    int pairs)
{
    __shared__ float sum1[MC_NT];
    __shared__ float sum2[MC_NT];
    int t = threadIdx.x, opt = blockIdx.y;
    unsigned long long id =
        ((unsigned long long)opt * gridDim.x + blockIdx.x) * MC_NT + t;
    unsigned long long inc = 2ull * id + 1ull;
    unsigned long long st = seed + id * 0x9E3779B97F4A7C15ull;
    mc_pcg(&st, inc);
    float S = s0[opt], K = strike[opt], mu = drift[opt], sig = vol[opt];
    float a1 = 0.0f, a2 = 0.0f;
    for (int i = 0; i < pairs; i++) {
        float u1 = (float)((mc_pcg(&st, inc) >> 8) + 1u) * 0x1p-24f;   // (0, 1]
        float u2 = (float)(mc_pcg(&st, inc) >> 8) * 0x1p-24f;          // [0, 1)
        float r = sqrtf(-2.0f * logf(u1));
        float sn, cs;
        sincospif(2.0f * u2, &sn, &cs);
        float z[2] = { r * cs, r * sn };
        for (int k = 0; k < 2; k++) {
            float end = S * expf(fmaf(sig, z[k], mu));
            float p = fmaxf(end - K, 0.0f);
            a1 += p;
            a2 += p * p;
        }
    }
    sum1[t] = a1;
    sum2[t] = a2;
    __syncthreads();
    for (int half = MC_NT / 2; half > 0; half >>= 1) {
        if (t < half) {
            sum1[t] += sum1[t + half];
            sum2[t] += sum2[t + half];
        }
        __syncthreads();
    }
    if (t == 0)
        partial[opt * gridDim.x + blockIdx.x] = make_float2(sum1[0], sum2[0]);
}

extern "C" __global__ void mc_finish(const float2 *partial, const float *disc,
                                     float *price, float *conf, int nopt,
                                     int blocks, int npaths)
{
    int opt = blockIdx.x * blockDim.x + threadIdx.x;
    if (opt >= nopt)
        return;
    float s1 = 0.0f, s2 = 0.0f;
    for (int b = 0; b < blocks; b++) {
        float2 p = partial[opt * blocks + b];
        s1 += p.x;
        s2 += p.y;
    }
    float n = (float)npaths;
    float mean = s1 / n;
    float var = fmaxf((s2 - s1 * mean) / (n - 1.0f), 0.0f);
    float d = disc[opt];
    price[opt] = d * mean;
    conf[opt] = 1.96f * d * sqrtf(var / n);
}
