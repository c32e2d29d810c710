// Similarity score (a MapReduce-style benchmark): cosine similarity of
// sparse document feature vectors. Document d holds nnz(d) (term, weight)
// pairs, term ids strictly increasing, at term[start[d] .. start[d+1]) and
// weight[...] (CSR). The first nq documents are also the queries.
//   ssc_norms:  one thread per document: norm[d] = sqrt of the sum of its
//               squared weights (fma.rn in term order, sqrt.rn).
//   ssc_scores: one thread per (query q = blockIdx.y, document d): a merge
//               of the two sorted term lists, dot = fma(wq, wd, dot) for
//               every common term in increasing term order, then
//               score[q * nd + d] = dot / (norm[q] * norm[d]) (mul.rn,
//               div.rn), 0 when either norm is 0.
//   ssc_best:   one 128-thread CTA per query: the most similar other
//               document (highest score, ties to the lower index), by a
//               strided scan and a shared-memory tree; best[q] = index,
//               best_score[q] = its score.
// Irregular: every lane walks a different document's list (32 unrelated
// cache lines per warp load, a few bytes used of each), and the merge loop
// runs nnz(q) + nnz(d) - common steps at most, a different trip count and
// a different branch (advance q, advance d, or both) per lane.

#define SSC_BEST_THREADS 128

extern "C" __global__ void ssc_norms(const int *start, const float *weight,
                                     float *norm, int nd)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= nd)
        return;
    float s = 0.0f;
    for (int k = start[d]; k < start[d + 1]; k++)
        s = __fmaf_rn(weight[k], weight[k], s);
    norm[d] = __fsqrt_rn(s);
}

extern "C" __global__ void ssc_scores(const int *start, const int *term,
                                      const float *weight, const float *norm,
                                      float *score, int nd)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    int q = blockIdx.y;
    if (d >= nd)
        return;
    int iq = start[q], eq = start[q + 1];
    int id = start[d], ed = start[d + 1];
    float dot = 0.0f;
    while (iq < eq && id < ed) {
        int tq = term[iq], td = term[id];
        if (tq == td) {
            dot = __fmaf_rn(weight[iq], weight[id], dot);
            iq++;
            id++;
        } else if (tq < td) {
            iq++;
        } else {
            id++;
        }
    }
    float den = __fmul_rn(norm[q], norm[d]);
    score[(size_t)q * nd + d] = den > 0.0f ? __fdiv_rn(dot, den) : 0.0f;
}

extern "C" __global__ void ssc_best(const float *score, int *best,
                                    float *best_score, int nd)
{
    __shared__ float ss[SSC_BEST_THREADS];
    __shared__ int si[SSC_BEST_THREADS];
    int q = blockIdx.x, t = threadIdx.x;
    float bs = -1.0f;
    int bi = -1;
    for (int d = t; d < nd; d += SSC_BEST_THREADS) {
        float s = score[(size_t)q * nd + d];
        if (d != q && s > bs) {     // d increases: ties keep the lower index
            bs = s;
            bi = d;
        }
    }
    ss[t] = bs;
    si[t] = bi;
    __syncthreads();
    for (int h = SSC_BEST_THREADS / 2; h > 0; h >>= 1) {
        if (t < h) {
            float os = ss[t + h];
            int oi = si[t + h];
            if (os > ss[t] || (os == ss[t] && oi >= 0 && (si[t] < 0 || oi < si[t]))) {
                ss[t] = os;
                si[t] = oi;
            }
        }
        __syncthreads();
    }
    if (t == 0) {
        best[q] = si[0];
        best_score[q] = ss[0];
    }
}
