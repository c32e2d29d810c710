// Sparse matrix-vector product y = A*x, A in CSR, one thread per row
// (scalar CSR kernel). Rows have very different lengths, so warps diverge
// on the trip count and the loads of x are irregular.

extern "C" __global__ void spmv_csr(const int *row_ptr, const int *col,
                                    const float *val, const float *x,
                                    float *y, int nrows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < nrows) {
        float sum = 0.0f;
        int end = row_ptr[row + 1];
        for (int i = row_ptr[row]; i < end; i++)
            sum += val[i] * x[col[i]];
        y[row] = sum;
    }
}
