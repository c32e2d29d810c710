// stencil3d: Jacobi sweeps of a 7-point 3-D stencil on an nx x ny x nz grid
// (in the spirit of Parboil stencil, written here). Each sweep is one
// launch, ping-pong buffers; the boundary cells (the six faces) hold fixed
// values that the host writes into both buffers and the kernel never
// touches. A 32x4 CTA owns a 32x4 column of (i, j) and marches k = 1 ..
// nz-2, keeping the cells below, at and above the current plane in
// registers (one new load per plane for the z direction); the four
// in-plane neighbours are loaded from global memory (the W/E ones hit the
// line of the centre row, the N/S ones the rows of the neighbouring warps).
// Each interior cell becomes
//   c0 * centre + c1 * (((((w + e) + s) + n) + below) + above)
// as fma(c1, sum, c0 * centre). Coarse-grained and regular: each warp
// reads and writes whole 128-byte rows, every thread of an interior warp
// does the same work for nz - 2 planes, and the only branch is the
// face/outside guard at the grid edges (warps of the first and last CTA
// column and the j faces).

extern "C" __global__ void stencil7(const float *in, float *out, int nx,
                                    int ny, int nz, float c0, float c1)
{
    int i = blockIdx.x * 32 + threadIdx.x;
    int j = blockIdx.y * 4 + threadIdx.y;
    if (i < 1 || i >= nx - 1 || j < 1 || j >= ny - 1)
        return;
    size_t plane = (size_t)nx * ny;
    size_t idx = (size_t)j * nx + i;
    float below = in[idx];
    float centre = in[idx + plane];
    for (int k = 1; k < nz - 1; k++) {
        size_t p = idx + (size_t)k * plane;
        float above = in[p + plane];
        float sum = __fadd_rn(in[p - 1], in[p + 1]);
        sum = __fadd_rn(sum, in[p + nx]);
        sum = __fadd_rn(sum, in[p - nx]);
        sum = __fadd_rn(sum, below);
        sum = __fadd_rn(sum, above);
        out[p] = __fmaf_rn(c1, sum, __fmul_rn(c0, centre));
        below = centre;
        centre = above;
    }
}
