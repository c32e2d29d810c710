// The mini suite's self-checking program: adds two vectors on the GPU and
// compares the sum with the host's; prints PASSED or FAILED.
#include <cstdio>
#include <cstdlib>

__global__ void add(int n, const float *a, const float *b, float *c)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    float *a, *b, *c;
    cudaMallocManaged(&a, n * sizeof(float));
    cudaMallocManaged(&b, n * sizeof(float));
    cudaMallocManaged(&c, n * sizeof(float));
    for (int i = 0; i < n; i++) {
        a[i] = (float)i;
        b[i] = 2.0f * i;
    }
    add<<<(n + 127) / 128, 128>>>(n, a, b, c);
    cudaError_t e = cudaDeviceSynchronize();
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += c[i] != 3.0f * i;
    printf("vecadd: n=%d, %s, %s\n", n, cudaGetErrorString(e), bad ? "FAILED" : "PASSED");
    return bad != 0 || e != cudaSuccess;
}
