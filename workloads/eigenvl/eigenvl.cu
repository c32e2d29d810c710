// Eigenvalues of a batch of symmetric tridiagonal matrices (matrix m =
// blockIdx.y: diagonal d[0..n), squared off-diagonal e2[i] = e[i]^2
// between rows i and i+1) by bisection on Sturm counts. The host cuts each
// matrix's Gershgorin interval into nint equal intervals (start glo[m],
// width width[m]); thread k owns interval [lo_k, hi_k), counts the eigenvalues
// below each end (Sturm count: the negative pivots of the LDL^T
// factorisation of T - xI) and bisects every eigenvalue inside its
// interval until the bracket is no wider than tol or the midpoint no
// longer splits it. Eigenvalue j (in ascending order) goes to lambda[j].
//
// Divergent: the number of eigenvalues in an interval varies from 0 to
// several with the data, so the outer loop's trip count differs per lane;
// each bisection stops at a data-dependent step (midpoint equal to an
// end); the pivot guard (|q| < pivmin) fires on a few lanes only.

__device__ static int sturm_count(const float *d, const float *e2, int n,
                                  float x, float pivmin)
{
    int c = 0;
    float q = __fsub_rn(d[0], x);
    for (int i = 0;;) {
        if (fabsf(q) < pivmin)
            q = -pivmin;
        if (q < 0.0f)
            c++;
        if (++i == n)
            break;
        q = __fsub_rn(__fsub_rn(d[i], x), __fdiv_rn(e2[i - 1], q));
    }
    return c;
}

extern "C" __global__ void eig_bisect(const float *d, const float *e2, int n,
                                      const float *glos, const float *widths,
                                      int nint, float tol, float pivmin,
                                      float *lambda, int *iters)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x, m = blockIdx.y;
    if (k >= nint)
        return;
    d += m * n;
    e2 += m * n;
    lambda += m * n;
    float glo = glos[m], width = widths[m];
    float lo = __fadd_rn(glo, __fmul_rn(width, (float)k));
    float hi = __fadd_rn(glo, __fmul_rn(width, (float)(k + 1)));
    int clo = sturm_count(d, e2, n, lo, pivmin);
    int chi = sturm_count(d, e2, n, hi, pivmin);
    int steps = 0;
    for (int j = clo; j < chi; j++) {
        float a = lo, b = hi;
        for (;;) {
            if (__fsub_rn(b, a) <= tol)
                break;
            float m = __fmul_rn(__fadd_rn(a, b), 0.5f);
            if (m == a || m == b)
                break;
            steps++;
            if (sturm_count(d, e2, n, m, pivmin) > j)
                b = m;
            else
                a = m;
        }
        lambda[j] = __fmul_rn(__fadd_rn(a, b), 0.5f);
    }
    iters[m * nint + k] = steps;
}
