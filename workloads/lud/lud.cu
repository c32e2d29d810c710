// LU decomposition without pivoting, in place, of an n x n matrix
// (n a multiple of 16; L unit lower triangular below the diagonal, U on
// and above it), right-looking and blocked by 16 x 16 tiles. Step s
// (o = 16 s) runs three kernels:
//   lud_diag     one CTA factors the diagonal tile at (o, o);
//   lud_perim    CTA (b, 0) solves the U tile right of it (rows o..o+15,
//                tile column s+1+b), CTA (b, 1) the L tile below it;
//   lud_internal CTA (bx, by) updates the trailing tile (s+1+by, s+1+bx)
//                with the L tile on its left and the U tile above it.
// Every element receives exactly the operations of the textbook unblocked
// elimination, in the same order: a -= l * u (one rounded multiply, one
// rounded subtract) for k = 0, 1, ... and, in L, one rounded divide by the
// pivot after its last update (__fmul_rn, __fsub_rn, __fdiv_rn: no fma).
//
// Divergent: in lud_diag and lud_perim the active part of the 16 x 16
// tile shrinks with k (rows below the pivot, columns right of it), so
// lanes and warps drop out step by step, and the pivot column's divide is
// done by one lane per row; each step needs two barriers. lud_internal is
// the regular part (no divergence), and its grid shrinks every step.

#define LB 16

extern "C" __global__ void lud_diag(float *a, int n, int o)
{
    __shared__ float s[LB][LB];
    int tx = threadIdx.x, ty = threadIdx.y;
    s[ty][tx] = a[(o + ty) * n + o + tx];
    for (int k = 0; k < LB - 1; k++) {
        __syncthreads();
        if (ty > k && tx == k)
            s[ty][k] = __fdiv_rn(s[ty][k], s[k][k]);
        __syncthreads();
        if (ty > k && tx > k)
            s[ty][tx] = __fsub_rn(s[ty][tx], __fmul_rn(s[ty][k], s[k][tx]));
    }
    a[(o + ty) * n + o + tx] = s[ty][tx];
}

extern "C" __global__ void lud_perim(float *a, int n, int o)
{
    __shared__ float d[LB][LB], t[LB][LB];
    int tx = threadIdx.x, ty = threadIdx.y;
    int tile = o + LB * (1 + blockIdx.x);
    int row = blockIdx.y ? tile + ty : o + ty;     // the tile this CTA solves
    int col = blockIdx.y ? o + tx : tile + tx;
    d[ty][tx] = a[(o + ty) * n + o + tx];
    t[ty][tx] = a[row * n + col];
    __syncthreads();
    if (blockIdx.y == 0) {
        // U tile: row ty subtracts l(ty, k) * u(k, col) for every k < ty.
        for (int k = 0; k < LB - 1; k++) {
            if (ty > k)
                t[ty][tx] = __fsub_rn(t[ty][tx], __fmul_rn(d[ty][k], t[k][tx]));
            __syncthreads();
        }
    } else {
        // L tile: column tx subtracts l(row, k) * u(k, tx) for k < tx, then
        // divides by the pivot u(tx, tx).
        for (int k = 0; k < LB; k++) {
            if (tx == k)
                t[ty][k] = __fdiv_rn(t[ty][k], d[k][k]);
            __syncthreads();
            if (tx > k)
                t[ty][tx] = __fsub_rn(t[ty][tx], __fmul_rn(t[ty][k], d[k][tx]));
            __syncthreads();
        }
    }
    a[row * n + col] = t[ty][tx];
}

extern "C" __global__ void lud_internal(float *a, int n, int o)
{
    __shared__ float l[LB][LB], u[LB][LB];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = o + LB * (1 + blockIdx.y) + ty, col = o + LB * (1 + blockIdx.x) + tx;
    l[ty][tx] = a[row * n + o + tx];
    u[ty][tx] = a[(o + ty) * n + col];
    __syncthreads();
    float v = a[row * n + col];
#pragma unroll
    for (int k = 0; k < LB; k++)
        v = __fsub_rn(v, __fmul_rn(l[ty][k], u[k][tx]));
    a[row * n + col] = v;
}
