// srad: speckle-reducing anisotropic diffusion (in the spirit of Rodinia
// SRAD, written here) of a rows x cols image J, one iteration = two
// launches over 32x8 CTAs, one pixel per thread (a warp is 32
// consecutive pixels of one row):
//   srad_coef:   the four differences to the clamped N/S/W/E neighbours,
//                the instantaneous coefficient of variation q^2 from the
//                normalised gradient and Laplacian, and the diffusion
//                coefficient c = 1 / (1 + (q^2 - q0^2) / (q0^2 (1 + q0^2))),
//                clamped to [0, 1];
//   srad_update: J += lambda/4 * (cN dN + cS dS + cW dW + cE dE), with cS and
//                cE read from the south and east neighbours' coefficients.
// q0^2 (the speckle scale of the whole image) comes from the host each
// iteration. Compute-bound and coarse-grained: every warp reads and writes
// whole 128-byte lines (cols is a multiple of 32; the N/S neighbours are
// the lines of the warps above and below, the W/E ones one sector of the
// lines beside), and each pixel costs about forty floating-point
// operations including five divisions; the only branch, the image-edge
// guard of the last CTA row, is uniform per warp. The arithmetic is
// spelled out with __f*_rn intrinsics so the PTX has no contracted fma and
// the CPU reference can repeat every rounding in the same order.

extern "C" __global__ void srad_coef(const float *J, float *dN, float *dS,
                                     float *dW, float *dE, float *C,
                                     int rows, int cols, float q0sqr)
{
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    int k = r * cols + c;
    float jc = J[k];
    float n = __fsub_rn(J[max(r - 1, 0) * cols + c], jc);
    float s = __fsub_rn(J[min(r + 1, rows - 1) * cols + c], jc);
    float w = __fsub_rn(J[r * cols + max(c - 1, 0)], jc);
    float e = __fsub_rn(J[r * cols + min(c + 1, cols - 1)], jc);
    float g2 = __fadd_rn(__fadd_rn(__fadd_rn(__fmul_rn(n, n), __fmul_rn(s, s)),
                                   __fmul_rn(w, w)), __fmul_rn(e, e));
    g2 = __fdiv_rn(g2, __fmul_rn(jc, jc));
    float l = __fdiv_rn(__fadd_rn(__fadd_rn(__fadd_rn(n, s), w), e), jc);
    float num = __fsub_rn(__fmul_rn(0.5f, g2), __fmul_rn(0.0625f, __fmul_rn(l, l)));
    float den = __fadd_rn(1.0f, __fmul_rn(0.25f, l));
    float qsqr = __fdiv_rn(num, __fmul_rn(den, den));
    den = __fdiv_rn(__fsub_rn(qsqr, q0sqr),
                    __fmul_rn(q0sqr, __fadd_rn(1.0f, q0sqr)));
    float coef = __fdiv_rn(1.0f, __fadd_rn(1.0f, den));
    coef = fminf(fmaxf(coef, 0.0f), 1.0f);
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;
    C[k] = coef;
}

extern "C" __global__ void srad_update(float *J, const float *dN,
                                       const float *dS, const float *dW,
                                       const float *dE, const float *C,
                                       int rows, int cols, float lambda4)
{
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
    if (r >= rows || c >= cols)
        return;
    int k = r * cols + c;
    float cn = C[k], cw = cn;
    float cs = C[min(r + 1, rows - 1) * cols + c];
    float ce = C[r * cols + min(c + 1, cols - 1)];
    float d = __fadd_rn(__fadd_rn(__fadd_rn(__fmul_rn(cn, dN[k]),
                                            __fmul_rn(cs, dS[k])),
                                  __fmul_rn(cw, dW[k])),
                        __fmul_rn(ce, dE[k]));
    J[k] = __fadd_rn(J[k], __fmul_rn(lambda4, d));
}
