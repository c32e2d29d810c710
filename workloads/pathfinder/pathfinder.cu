// Minimum path cost through a grid of non-negative weights, top row to
// bottom row, each step going to one of the three cells below (down-left,
// down, down-right): cost[r][c] = wall[r][c] + min(cost[r-1][c-1],
// cost[r-1][c], cost[r-1][c+1]), neighbours outside the grid left out.
// One launch advances `height` rows (a pyramid): a CTA of PF_BS threads
// loads PF_BS consecutive costs of the previous row into shared memory
// and keeps only the middle PF_BS - 2*height of them, because after step s
// a cost is correct only where its whole 2s+1 wide cone of ancestors lay
// inside the CTA's window. CTAs overlap by 2*height columns.
//
// Divergent: in step s the threads at window positions < s+1 or
// > PF_BS-2-s drop out (their cone left the window), so every step idles
// one more lane at each end; the threads on grid columns 0 and cols-1 take
// the edge path; the window of the last CTA hangs over the grid edge, so
// those threads only take part in the barriers.

#define PF_BS 256

extern "C" __global__ void pf_rows(const int *wall, const int *src, int *dst,
                                   int cols, int row0, int height)
{
    __shared__ int prev[PF_BS], next[PF_BS];
    int tx = threadIdx.x;
    int keep = PF_BS - 2 * height;           // columns this CTA outputs
    int c = blockIdx.x * keep - height + tx; // grid column of this thread
    bool inside = c >= 0 && c < cols;
    if (inside)
        prev[tx] = src[c];
    __syncthreads();
    for (int s = 0; s < height; s++) {
        bool live = inside && tx > s && tx < PF_BS - 1 - s;
        if (live) {
            int mid = prev[tx];
            int best = mid;
            if (c > 0)
                best = min(best, prev[tx - 1]);
            if (c < cols - 1)
                best = min(best, prev[tx + 1]);
            next[tx] = wall[(row0 + s) * cols + c] + best;
        }
        __syncthreads();
        if (live)
            prev[tx] = next[tx];
        __syncthreads();
    }
    if (inside && tx >= height && tx < PF_BS - height)
        dst[c] = prev[tx];
}
