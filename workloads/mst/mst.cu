// Minimum spanning forest by Boruvka's algorithm (a LonestarGPU-style graph
// kernel). The undirected graph is an edge list (eu[e], ev[e], ew[e]);
// comp[v] is the label of v's component (a root vertex: comp[r] == r),
// parent[r] the root r links to in the current round (parent[r] == r
// otherwise). An edge's key is (weight << 32) | e, so keys are distinct
// and the forest is unique. Each round (the host relaunches the three
// kernels until a round links nothing):
//   mst_minedge: one thread per edge: an edge between two components
//                offers its key to both with 64-bit atomicMin on best[c];
//                an edge inside one component drops out.
//   mst_link:    one thread per vertex: a root c whose best edge leads to
//                component o links to it (parent[c] = o) unless o chose
//                the same edge and o > c (the pair's lower label stays
//                root); the linking root marks the edge in_mst, adds its
//                weight to *total and counts the link in *links.
//   mst_jump:    one thread per vertex: follows parent from comp[v] to
//                the new root (a data-dependent number of steps), writes
//                it to comp[v] and resets best[v] for the next round.
// Irregular: edges connect random vertices, so each lane's comp loads and
// atomics hit unrelated lines; edges drop out as components merge, and
// the pointer chase in mst_jump runs a different length per lane.

#define MST_NONE 0xffffffffffffffffull

extern "C" __global__ void mst_minedge(const int *eu, const int *ev,
                                       const int *ew, const int *comp,
                                       unsigned long long *best, int m)
{
    int e = blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= m)
        return;
    int cu = comp[eu[e]], cv = comp[ev[e]];
    if (cu != cv) {
        unsigned long long key = ((unsigned long long)(unsigned)ew[e] << 32) |
                                 (unsigned)e;
        atomicMin(&best[cu], key);
        atomicMin(&best[cv], key);
    }
}

extern "C" __global__ void mst_link(const int *eu, const int *ev,
                                    const int *ew, const int *comp,
                                    const unsigned long long *best,
                                    int *parent, unsigned char *in_mst,
                                    unsigned long long *total, int *links,
                                    int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || comp[c] != c || best[c] == MST_NONE)
        return;
    int e = (int)(unsigned)best[c];
    int cu = comp[eu[e]], cv = comp[ev[e]];
    int o = cu == c ? cv : cu;
    if (best[o] == best[c] && o > c)
        return;                     // o links to c through the same edge
    parent[c] = o;
    in_mst[e] = 1;
    atomicAdd(total, (unsigned long long)ew[e]);
    atomicAdd(links, 1);
}

extern "C" __global__ void mst_jump(int *comp, const int *parent,
                                    unsigned long long *best, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n)
        return;
    int r = comp[v];
    while (parent[r] != r)
        r = parent[r];
    comp[v] = r;
    best[v] = MST_NONE;
}
