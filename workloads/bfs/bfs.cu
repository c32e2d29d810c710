// Level-synchronous breadth-first search on a CSR graph (in the spirit of
// Rodinia bfs). One thread per node; the host relaunches the two kernels
// until a level adds no node.
//   bfs_expand: every node in the frontier (mask) visits its neighbours and
//               marks the unvisited ones for the next level.
//   bfs_update: marked nodes become the new frontier and visited; *over is
//               set when any node was added.
// Data-dependent branches (frontier, visited tests) and irregular loads.

extern "C" __global__ void bfs_expand(const int *row_ptr, const int *col,
                                      unsigned char *mask,
                                      unsigned char *updating,
                                      const unsigned char *visited,
                                      int *cost, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && mask[tid]) {
        mask[tid] = 0;
        int c = cost[tid] + 1;
        for (int i = row_ptr[tid]; i < row_ptr[tid + 1]; i++) {
            int id = col[i];
            if (!visited[id]) {
                cost[id] = c;          // every writer of a level writes c
                updating[id] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *mask,
                                      unsigned char *updating,
                                      unsigned char *visited, int *over,
                                      int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < n && updating[tid]) {
        mask[tid] = 1;
        visited[tid] = 1;
        *over = 1;
        updating[tid] = 0;
    }
}
