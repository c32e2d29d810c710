// Lattice-Boltzmann fluid flow, D3Q19 BGK, one time step per launch
// (fused stream and collide, pull scheme, double-buffered
// distributions). Cells are fluid, obstacle (the y and z walls plus
// scattered solid cells) or inflow (the fluid cells of the x = 0 plane,
// whose velocity is forced to (u0, 0, 0)); x is periodic.
//
// Layout: structure of arrays, population q of cell i at f[q * ncell + i],
// cell i = (z * ny + y) * nx + x. One thread per cell, 32x4 threads per
// CTA, one z plane per grid row.
//
// Step for a non-obstacle cell:
//  - stream: population q arrives from the cell x - c_q; if that cell is
//    an obstacle, the population this cell sent towards it in the last
//    step bounces back instead (src[opp(q)] of this cell);
//  - collide: density and velocity from the 19 populations (forced for
//    inflow cells), equilibrium feq_q = w_q rho (1 + 3 cu + 4.5 cu^2 -
//    1.5 u.u), relaxation f_q += omega (feq_q - f_q).
// Obstacle cells return at once, and each of the 18 streamed populations
// branches on its neighbour's flag, so warps that touch solid cells
// diverge; nx is not a multiple of 32, so the last CTA of a row has idle
// lanes. The arithmetic is written with explicit fmaf so that nothing is
// left for contraction and the host reference repeats it exactly.

#define LBM_FLUID 0
#define LBM_OBST 1
#define LBM_INFLOW 2

extern "C" __global__ void lbm_step(const float *src, float *dst,
                                    const unsigned char *flag, int nx, int ny,
                                    int nz, float omega, float u0)
{
    const int cx[19] = { 0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0 };
    const int cy[19] = { 0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1 };
    const int cz[19] = { 0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1 };
    const int opp[19] = { 0, 2, 1, 4, 3, 6, 5, 10, 9, 8, 7, 14, 13, 12, 11, 18, 17, 16, 15 };
    const float w[19] = { 1.0f / 3.0f,
                          1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                          1.0f / 18.0f, 1.0f / 18.0f, 1.0f / 18.0f,
                          1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                          1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f,
                          1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f, 1.0f / 36.0f };
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny)
        return;
    int n = nx * ny * nz;
    int i = (z * ny + y) * nx + x;
    int fl = flag[i];
    if (fl == LBM_OBST)
        return;
    int xm = x == 0 ? nx - 1 : x - 1, xp = x == nx - 1 ? 0 : x + 1;
    float f[19];
#pragma unroll
    for (int q = 0; q < 19; q++) {
        int sx = cx[q] > 0 ? xm : cx[q] < 0 ? xp : x;
        int s = ((z - cz[q]) * ny + (y - cy[q])) * nx + sx;
        f[q] = flag[s] == LBM_OBST ? src[opp[q] * n + i] : src[q * n + s];
    }
    float rho = f[0];
#pragma unroll
    for (int q = 1; q < 19; q++)
        rho += f[q];
    float ux, uy, uz;
    if (fl == LBM_INFLOW) {
        ux = u0;
        uy = 0.0f;
        uz = 0.0f;
    } else {
        float mx = f[1] - f[2] + f[7] - f[8] + f[9] - f[10] + f[11] - f[12] + f[13] - f[14];
        float my = f[3] - f[4] + f[7] + f[8] - f[9] - f[10] + f[15] - f[16] + f[17] - f[18];
        float mz = f[5] - f[6] + f[11] + f[12] - f[13] - f[14] + f[15] + f[16] - f[17] - f[18];
        ux = mx / rho;
        uy = my / rho;
        uz = mz / rho;
    }
    float usq = fmaf(uz, uz, fmaf(uy, uy, ux * ux));
    float base = fmaf(-1.5f, usq, 1.0f);
    const float cu[19] = { 0.0f, ux, -ux, uy, -uy, uz, -uz,
                           ux + uy, uy - ux, ux - uy, -ux - uy,
                           ux + uz, uz - ux, ux - uz, -ux - uz,
                           uy + uz, uz - uy, uy - uz, -uy - uz };
#pragma unroll
    for (int q = 0; q < 19; q++) {
        float poly = fmaf(4.5f * cu[q], cu[q], fmaf(3.0f, cu[q], base));
        float d = fmaf(w[q] * rho, poly, -f[q]);
        dst[q * n + i] = fmaf(omega, d, f[q]);
    }
}
