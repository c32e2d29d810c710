// Needleman-Wunsch global alignment score matrix (in the spirit of Rodinia
// nw). The (n+1)x(n+1) score matrix is cut in 16x16 tiles; one launch
// handles one anti-diagonal of tiles (tiles are independent there), one CTA
// of 16 threads per tile. Inside a tile the cells are filled along
// anti-diagonals in shared memory, one __syncthreads per diagonal.
//   score[i][j] = max(score[i-1][j-1] + ref[i][j],
//                     score[i][j-1] - penalty, score[i-1][j] - penalty)

#define BS 16

__device__ __forceinline__ int max3(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

// Tiles (ty, tx) with ty + tx == diag; first tile column tx0; cols = n + 1.
extern "C" __global__ void nw_diag(const int *ref, int *score, int cols,
                                   int penalty, int diag, int tx0)
{
    __shared__ int tmp[BS + 1][BS + 1];
    __shared__ int rs[BS][BS];
    int t = threadIdx.x;
    int bx = tx0 + blockIdx.x, by = diag - bx;
    int base = cols * BS * by + BS * bx;        // north-west corner cell

    if (t == 0)
        tmp[0][0] = score[base];
    for (int y = 0; y < BS; y++)
        rs[y][t] = ref[base + cols * (y + 1) + t + 1];
    tmp[t + 1][0] = score[base + cols * (t + 1)];
    tmp[0][t + 1] = score[base + t + 1];
    __syncthreads();

    for (int m = 0; m < BS; m++) {              // upper-left triangle
        if (t <= m) {
            int x = t + 1, y = m - t + 1;
            tmp[y][x] = max3(tmp[y - 1][x - 1] + rs[y - 1][x - 1],
                             tmp[y][x - 1] - penalty,
                             tmp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int m = BS - 2; m >= 0; m--) {         // lower-right triangle
        if (t <= m) {
            int x = t + BS - m, y = BS - t;
            tmp[y][x] = max3(tmp[y - 1][x - 1] + rs[y - 1][x - 1],
                             tmp[y][x - 1] - penalty,
                             tmp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int y = 0; y < BS; y++)
        score[base + cols * (y + 1) + t + 1] = tmp[y + 1][t + 1];
}
