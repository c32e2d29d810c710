// math helpers: pow/sin on double (calls, .local depot), expf, rounding cvts
__constant__ float coef[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, 3.0f, 2.5e10f, 1e-20f};
__device__ int table[4] = {1, -2, 3, -4};
__global__ void mathKernel(const double *x, double *y, float *z, int *w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    y[i] = pow(v, 1.7) + sin(v * 3.0);
    float f = (float)v;
    z[i] = expf(f) * coef[i & 7] + sqrtf(fabsf(f)) / (f + 2.0f);
    w[i] = __float2int_rn(f) + (int)rint(v) + table[i & 3] + (int)floor(v);
}
__global__ void carry(unsigned long long *a, const unsigned long long *b)
{
    unsigned i = threadIdx.x;
    a[i] = __umul64hi(a[i], b[i]) + a[i] * b[i];
}
