// Streamcluster's gain step (as Rodinia's pgain does it, written here):
// for a candidate centre x, what would opening x (and closing the centres
// it makes redundant) save? n points of dim features, column-major
// (coord[f * n + i]), weight w[i]; each point is assigned to a centre
// (assign[i], a point index) at cost[i]; ctab[c] is centre c's slot in
// 0 .. k-1 (k open centres). The host draws the candidates, decides from
// the reduced gains and updates the centre set (Rodinia's host part).
//   sc_cost:  one thread per point: xc = dist^2(i, x) * w[i] (sub.rn and
//             fma.rn per feature, then mul.rn); a point that would be
//             cheaper at x switches (sw[i] = 1) and puts xc - cost[i] in
//             slot k, the others put cost[i] - xc in their centre's slot
//             (the price of moving them if that centre closed). Row s of
//             work (work[s * n + i]) holds slot s, zero elsewhere.
//   sc_gain:  one 256-thread CTA per slot s in 0 .. k: the sum of row s,
//             a strided add.rn per thread then a shared-memory tree, in a
//             fixed order (so the sum is deterministic) into lower[s].
//   sc_apply: (only when x opens) one thread per point: a switching point,
//             or one whose centre closes (close[ctab[assign[i]]]), moves
//             to x at cost xc.
// Divergent on the data (switch or not, which slot), coalesced over the
// points, and the gain rows are re-read once per slot.

#define SC_GAIN_THREADS 256

extern "C" __global__ void sc_cost(const float *coord, const float *w,
                                   const float *cost, const int *assign,
                                   const int *ctab, int x, int n, int dim,
                                   int k, float *work, float *xcost,
                                   unsigned char *sw)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float d = 0.0f;
    for (int f = 0; f < dim; f++) {
        float diff = __fsub_rn(coord[(size_t)f * n + i], coord[(size_t)f * n + x]);
        d = __fmaf_rn(diff, diff, d);
    }
    float xc = __fmul_rn(d, w[i]);
    float cur = cost[i];
    xcost[i] = xc;
    int slot;
    float v;
    if (xc < cur) {
        sw[i] = 1;
        slot = k;
        v = __fsub_rn(xc, cur);
    } else {
        sw[i] = 0;
        slot = ctab[assign[i]];
        v = __fsub_rn(cur, xc);
    }
    for (int s = 0; s <= k; s++)
        work[(size_t)s * n + i] = s == slot ? v : 0.0f;
}

extern "C" __global__ void sc_gain(const float *work, float *lower, int n)
{
    __shared__ float sh[SC_GAIN_THREADS];
    int s = blockIdx.x, t = threadIdx.x;
    float acc = 0.0f;
    for (int i = t; i < n; i += SC_GAIN_THREADS)
        acc = __fadd_rn(acc, work[(size_t)s * n + i]);
    sh[t] = acc;
    __syncthreads();
    for (int h = SC_GAIN_THREADS / 2; h > 0; h >>= 1) {
        if (t < h)
            sh[t] = __fadd_rn(sh[t], sh[t + h]);
        __syncthreads();
    }
    if (t == 0)
        lower[s] = sh[0];
}

extern "C" __global__ void sc_apply(float *cost, int *assign, const int *ctab,
                                    const unsigned char *close,
                                    const unsigned char *sw,
                                    const float *xcost, int x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    if (sw[i] || close[ctab[assign[i]]]) {
        cost[i] = xcost[i];
        assign[i] = x;
    }
}
