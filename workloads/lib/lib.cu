// LIBOR market model Monte Carlo (after Giles' LIBOR benchmark; written
// here): one thread per path evolves LIB_N forward rates, each spanning
// delta = 0.25 years, over LIB_NMAT time steps under the forward measure
// (a one-factor model), then prices a portfolio of receiver swaptions
// that mature at step LIB_NMAT.
//   lib_path: forward rates L[0 .. LIB_N) start at 0.05 (a local-memory
//             array, indexed dynamically). At step n the rates i > n move:
//             v += delta lam L[i] / (1 + delta L[i]),
//             L[i] *= exp(delta lam v + lam (sqrt(delta) z_n - delta lam / 2))
//             with lam = c_lambda[i - n - 1] and z_n the path's n-th
//             normal draw (z[n * npath + p]). Then the discount factors
//             B[m] and annuities S[m] of the swaps starting at step
//             LIB_NMAT, and for each option j (c_mat[j], c_rate[j]) the
//             swap value B[m] + rate S[m] - 1: an option pays
//             -100 * value when the value is negative (in the money). The
//             sum is discounted back over the first LIB_NMAT rates.
//             A paying option also adds its pathwise sensitivity to the
//             rates of its swap, d(-100 value) / dL[LIB_NMAT + k] for
//             k = 0 .. m (a loop of m + 1 steps inside the payoff branch).
//             v[p] = the discounted payoff, g[p] = the discounted sum of
//             those sensitivities, itm[p] = how many options paid.
//   lib_sum:  one 256-thread CTA per 256 paths: the block's sum of v in
//             a fixed shared-memory tree (the price is their total / npath).
// Divergent on the payoff: whether each option pays depends on the path,
// so lanes take `value < 0` differently option by option, and the lanes
// that pay run the sensitivity loop while the others wait.

#define LIB_N 32
#define LIB_NMAT 16
#define LIB_NOPT 15
#define LIB_SUM_THREADS 256

__constant__ float c_lambda[LIB_N];
__constant__ int c_mat[LIB_NOPT];
__constant__ float c_rate[LIB_NOPT];

extern "C" __global__ void lib_path(const float *z, float *v, float *g,
                                    int *itm, int npath)
{
    const float delta = 0.25f;
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npath)
        return;
    float L[LIB_N], B[LIB_N - LIB_NMAT], S[LIB_N - LIB_NMAT];
    for (int i = 0; i < LIB_N; i++)
        L[i] = 0.05f;
    for (int n = 0; n < LIB_NMAT; n++) {
        float sqez = sqrtf(delta) * z[n * npath + p];
        float vs = 0.0f;
        for (int i = n + 1; i < LIB_N; i++) {
            float lam = c_lambda[i - n - 1];
            float con1 = delta * lam;
            vs += con1 * L[i] / (1.0f + delta * L[i]);
            L[i] = L[i] * expf(con1 * vs + lam * (sqez - 0.5f * con1));
        }
    }
    float b = 1.0f, s = 0.0f;
    for (int n = LIB_NMAT; n < LIB_N; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - LIB_NMAT] = b;
        S[n - LIB_NMAT] = s;
    }
    float pay = 0.0f, grad = 0.0f;
    int paid = 0;
    for (int j = 0; j < LIB_NOPT; j++) {
        int m = c_mat[j] - 1;
        float swapval = B[m] + c_rate[j] * S[m] - 1.0f;
        if (swapval < 0.0f) {
            pay += -100.0f * swapval;
            paid++;
            // d(-100 swapval) / dL[LIB_NMAT + k] for the swap's rates
            for (int k = 0; k <= m; k++) {
                float sk = k > 0 ? S[k - 1] : 0.0f;
                grad += 100.0f * delta / (1.0f + delta * L[LIB_NMAT + k]) *
                        (B[m] + c_rate[j] * (S[m] - sk));
            }
        }
    }
    for (int n = 0; n < LIB_NMAT; n++) {
        float df = 1.0f + delta * L[n];
        pay = pay / df;
        grad = grad / df;
    }
    v[p] = pay;
    g[p] = grad;
    itm[p] = paid;
}

extern "C" __global__ void lib_sum(const float *v, float *block_sum, int npath)
{
    __shared__ float sh[LIB_SUM_THREADS];
    int t = threadIdx.x, p = blockIdx.x * LIB_SUM_THREADS + t;
    sh[t] = p < npath ? v[p] : 0.0f;
    __syncthreads();
    for (int h = LIB_SUM_THREADS / 2; h > 0; h >>= 1) {
        if (t < h)
            sh[t] += sh[t + h];
        __syncthreads();
    }
    if (t == 0)
        block_sum[blockIdx.x] = sh[0];
}
