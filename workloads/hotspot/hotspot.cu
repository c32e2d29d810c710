// 2-D thermal simulation stencil (in the spirit of Rodinia hotspot): one
// explicit time step per launch, ping-pong buffers on the host side.
// Each 16x16 CTA stages its tile plus a one-cell halo in shared memory;
// cells outside the chip take the temperature of the nearest edge cell
// (clamped), and threads past the grid edge only help with the halo.

#define BS 16

extern "C" __global__ void hotspot_step(const float *power, const float *t_in,
                                        float *t_out, int rows, int cols,
                                        float step_div_cap, float rx_1,
                                        float ry_1, float rz_1, float amb)
{
    __shared__ float tile[BS + 2][BS + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * BS + tx, r = blockIdx.y * BS + ty;
    int cc = min(c, cols - 1), rc = min(r, rows - 1);

    tile[ty + 1][tx + 1] = t_in[rc * cols + cc];
    if (ty == 0)        // north halo
        tile[0][tx + 1] = t_in[max(rc - 1, 0) * cols + cc];
    // south/east halo: only the last row/column of the tile; in an edge
    // CTA the threads past the grid edge already hold the clamped edge
    // value in those cells (a second writer there would be a
    // write-after-write race, racecheck: docs/checks.md)
    if (ty == BS - 1)   // south halo
        tile[ty + 2][tx + 1] = t_in[min(rc + 1, rows - 1) * cols + cc];
    if (tx == 0)        // west halo
        tile[ty + 1][0] = t_in[rc * cols + max(cc - 1, 0)];
    if (tx == BS - 1)   // east halo
        tile[ty + 1][tx + 2] = t_in[rc * cols + min(cc + 1, cols - 1)];
    __syncthreads();

    if (r < rows && c < cols) {
        float t = tile[ty + 1][tx + 1];
        float tn = tile[ty][tx + 1], ts = tile[ty + 2][tx + 1];
        float tw = tile[ty + 1][tx], te = tile[ty + 1][tx + 2];
        // Clamp: at the chip edge the neighbour is the cell itself.
        if (r == 0) tn = t;
        if (r == rows - 1) ts = t;
        if (c == 0) tw = t;
        if (c == cols - 1) te = t;
        float delta = step_div_cap *
            (power[r * cols + c] + (ts + tn - 2.0f * t) * ry_1 +
             (te + tw - 2.0f * t) * rx_1 + (amb - t) * rz_1);
        t_out[r * cols + c] = t + delta;
    }
}
