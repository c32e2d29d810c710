// Binomial option pricing: one CTA per European call option, the backward
// induction over a Cox-Ross-Rubinstein tree of nsteps steps held in shared
// memory (two ping-pong levels, one barrier per step). Leaf i (i up moves)
// pays max(S * growth[i] - X, 0); each step replaces node i of level n by
// the discounted expectation pu * V[i + 1] + pd * V[i] for i < n.
//
// Divergent: at level n only the threads with threadIdx.x < n have a node
// to update, so once the level drops below the CTA width a growing number
// of lanes sit idle until the barrier (the last warps go idle entirely,
// then lanes of the last active warp drop out one per step); while the
// level is wider than the CTA, the second pass of the node loop covers
// only part of the threads.

#define MAXN 1024

extern "C" __global__ void binom_price(const float *spot, const float *strike,
                                       const float *growth, float *price,
                                       int nsteps, float pu, float pd)
{
    __shared__ float v[2][MAXN + 1];
    int t = threadIdx.x, nt = blockDim.x;
    float s = spot[blockIdx.x], x = strike[blockIdx.x];
    for (int i = t; i <= nsteps; i += nt)
        v[0][i] = fmaxf(__fmaf_rn(s, growth[i], -x), 0.0f);
    __syncthreads();
    int cur = 0;
    for (int n = nsteps; n > 0; n--) {
        for (int i = t; i < n; i += nt)
            v[cur ^ 1][i] = __fmaf_rn(pu, v[cur][i + 1],
                                      __fmul_rn(pd, v[cur][i]));
        cur ^= 1;
        __syncthreads();
    }
    if (t == 0)
        price[blockIdx.x] = v[cur][0];
}
