// reductions: static + dynamic shared, shfl, barriers, loops, atomics
extern __shared__ float dyn[];
__global__ void reduceShared(const float *in, float *out, int n)
{
    __shared__ float buf[256];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s)
            buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = buf[0];
}
__global__ void reduceWarp(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int o = 16; o > 0; o >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, o);
    unsigned ball = __ballot_sync(0xffffffffu, v > 3);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(out, v);
        atomicOr(out + 1, (int)ball);
    }
}
__global__ void reduceDyn(const double *in, double *out)
{
    double *d = (double *)dyn;
    d[threadIdx.x] = in[threadIdx.x] * 0.5 + 1.0;
    __syncthreads();
    if (threadIdx.x == 0) {
        double s = 0;
        for (unsigned k = 0; k < blockDim.x; k++)
            s += d[k];
        out[blockIdx.x] = s;
    }
}
