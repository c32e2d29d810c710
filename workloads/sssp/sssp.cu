// Single-source shortest paths, Bellman-Ford style, on a CSR graph with
// positive integer weights. One thread per node; the host relaunches the two
// kernels until a round lowers no distance (or a round limit is hit).
//   sssp_relax:  every node whose distance fell in the previous round (its
//                frontier flag is set) relaxes its out-edges into dist_new
//                with atomicMin; it reads its own distance from dist (the
//                previous round), so a round never sees its own updates and
//                the result of a round does not depend on the order of the
//                atomics.
//   sssp_update: a node whose dist_new is below dist joins the next
//                frontier, dist takes dist_new and *changed is set.
// Irregular and fine-grained: the neighbour ids are random, so the 32 lanes
// of a warp send their atomicMin (4 bytes each) to 32 unrelated cache lines,
// and lanes with short adjacency lists or no frontier flag sit idle.

extern "C" __global__ void sssp_relax(const int *row_ptr, const int *col,
                                      const int *weight, const int *dist,
                                      int *dist_new,
                                      const unsigned char *frontier, int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n && frontier[v]) {
        int d = dist[v];
        int end = row_ptr[v + 1];
        for (int e = row_ptr[v]; e < end; e++)
            atomicMin(&dist_new[col[e]], d + weight[e]);
    }
}

extern "C" __global__ void sssp_update(int *dist, const int *dist_new,
                                       unsigned char *frontier, int *changed,
                                       int n)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < n) {
        int nd = dist_new[v];
        unsigned char f = nd < dist[v];
        frontier[v] = f;
        if (f) {
            dist[v] = nd;
            *changed = 1;
        }
    }
}
