// k-means assignment step: one thread per point finds the nearest of k
// centroids by squared Euclidean distance over nfeat features. Features are
// column-major (feat[f * npoints + p]); centroids are row-major
// (cent[c * nfeat + f]). The distance is accumulated feature by feature as
// d = fmaf(x - c, x - c, d) (one sub.rn and one fma.rn per feature), and
// the first centroid with the smallest distance wins, exactly as the CPU
// reference does. The host recomputes the centroids between launches.
// The thread writes its cluster index and whether it changed since the
// previous iteration (*changed is set when one did).
// Access pattern: a warp reads 32 consecutive words of each feature column
// (one line per feature, nfeat lines far apart, revisited k times) and all
// lanes read the same centroid word (a broadcast); the membership array is
// one 4-byte read and write per point.

extern "C" __global__ void kmeans_assign(const float *feat, const float *cent,
                                         int *member, int *changed,
                                         int npoints, int nfeat, int k)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = 0;
    float bestd = 0.0f;
    for (int c = 0; c < k; c++) {
        float d = 0.0f;
        for (int f = 0; f < nfeat; f++) {
            float diff = feat[(size_t)f * npoints + p] - cent[c * nfeat + f];
            d = fmaf(diff, diff, d);
        }
        if (c == 0 || d < bestd) {
            bestd = d;
            best = c;
        }
    }
    if (member[p] != best) {
        member[p] = best;
        *changed = 1;
    }
}
