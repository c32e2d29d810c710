// mandelbrot: escape-time iteration count per pixel. The loop trip count is
// data dependent (1 .. max_iter), so lanes of a warp leave the loop at
// different times. __fmul_rn/__fadd_rn keep every operation a separately
// rounded IEEE op (no fma contraction), so the CPU reference is bit exact.
extern "C" __global__ void mandelbrot(unsigned *out, int width, int height,
                                      float x0, float y0, float step,
                                      int max_iter)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= width || py >= height)
        return;
    float cr = __fadd_rn(x0, __fmul_rn((float)px, step));
    float ci = __fadd_rn(y0, __fmul_rn((float)py, step));
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float zr2 = __fmul_rn(zr, zr), zi2 = __fmul_rn(zi, zi);
        if (__fadd_rn(zr2, zi2) > 4.0f)
            break;
        float nzi = __fadd_rn(__fmul_rn(__fmul_rn(2.0f, zr), zi), ci);
        zr = __fadd_rn(__fsub_rn(zr2, zi2), cr);
        zi = nzi;
        it++;
    }
    out[py * width + px] = (unsigned)it;
}
