// One module, three kernels: a device-side launch (dynamic parallelism,
// not modelled), and a kernel with a printf on a branch it never takes
// (tests/unit/test_devrt.c). The module must load and `quiet` must run.
// PTX: nvcc -ptx -arch=sm_75 -O3 -rdc=true -o tests/devrt/devrt_dp.ptx tests/devrt/devrt_dp.cu
#include <cstdio>
__global__ void child(int *p) { p[threadIdx.x] = 7; }
__global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); }
__global__ void quiet(int *p, int n)
{
    int t = threadIdx.x;
    if (n < 0) printf("never %d\n", t);
    p[t] = t * 2;
}
