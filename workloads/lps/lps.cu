// 3-D Laplace solver: one Jacobi sweep per launch on an nx x ny x nz grid
// (Dirichlet problem: the cells on the six faces keep their values, every
// interior cell becomes the mean of its six neighbours). Each 32x4 CTA owns
// a column of the grid and marches up through the z planes, keeping the
// cells below, at and above the current plane in registers and staging the
// current plane (plus a one-cell halo) in shared memory, two barriers per
// plane.
//
// Divergent: cells on the x/y faces of the grid (i == 0, i == nx-1, j == 0,
// j == ny-1) copy their value while their warp-mates average; only the CTA
// edge threads (tx == 0, tx == 31, ty == 0, ty == 3) fetch halo cells; nx and
// ny are not multiples of the tile, so the threads past the grid edge only
// take part in the barriers.

#define BX 32
#define BY 4

extern "C" __global__ void lps_sweep(const float *u, float *v, int nx, int ny,
                                     int nz)
{
    __shared__ float s[BY + 2][BX + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int i = blockIdx.x * BX + tx, j = blockIdx.y * BY + ty;
    bool in = i < nx && j < ny;
    bool face = i == 0 || i == nx - 1 || j == 0 || j == ny - 1;
    int plane = nx * ny;
    int idx = j * nx + i;          // cell (i, j, 0); used only when in
    float below = 0.0f, cur = 0.0f, above = 0.0f;
    if (in) {
        cur = u[idx];
        above = u[idx + plane];
    }
    for (int k = 0; k < nz; k++) {
        int at = idx + k * plane;
        __syncthreads();           // the previous plane's readers are done
        if (in) {
            s[ty + 1][tx + 1] = cur;
            if (!face) {           // halo cells for interior edge threads
                if (tx == 0)
                    s[ty + 1][0] = u[at - 1];
                if (tx == BX - 1)
                    s[ty + 1][BX + 1] = u[at + 1];
                if (ty == 0)
                    s[0][tx + 1] = u[at - nx];
                if (ty == BY - 1)
                    s[BY + 1][tx + 1] = u[at + nx];
            }
        }
        __syncthreads();
        if (in) {
            float r = cur;
            if (!face && k > 0 && k < nz - 1) {
                float sum = s[ty + 1][tx] + s[ty + 1][tx + 2];
                sum = sum + s[ty][tx + 1];
                sum = sum + s[ty + 2][tx + 1];
                sum = sum + below;
                sum = sum + above;
                r = sum * (1.0f / 6.0f);
            }
            v[at] = r;
            below = cur;
            cur = above;
            if (k + 2 < nz)
                above = u[at + 2 * plane];
        }
    }
}
