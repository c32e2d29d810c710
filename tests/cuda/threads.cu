// Several host threads making CUDA calls at once (the samples'
// simpleCallback and OpenMP programs do): each thread allocates, copies,
// launches on its own stream and checks its own result; the runtime runs
// the calls one at a time, in whatever order the threads make them.
#define TEST_NAME "threads"
#include <thread>
#include <vector>
#include "ck.h"

__global__ void scale(int *x, int k, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * k + i;
}

static int work(int id)
{
    const int n = 2000;
    std::vector<int> h(n), got(n);
    for (int i = 0; i < n; i++)
        h[i] = i * (id + 1);
    int *d;
    cudaStream_t s;
    if (cudaStreamCreate(&s) != cudaSuccess || cudaMalloc(&d, n * sizeof(int)) != cudaSuccess)
        return 1;
    for (int r = 0; r < 5; r++) {
        cudaMemcpyAsync(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice, s);
        scale<<<(n + 127) / 128, 128, 0, s>>>(d, id + 2, n);
        cudaMemcpyAsync(got.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
        if (cudaStreamSynchronize(s) != cudaSuccess)
            return 1;
        for (int i = 0; i < n; i++)
            if (got[i] != h[i] * (id + 2) + i)
                return 1;
    }
    cudaFree(d);
    cudaStreamDestroy(s);
    return 0;
}

int main()
{
    const int nt = 6;
    std::vector<int> bad(nt);
    std::vector<std::thread> t;
    for (int i = 0; i < nt; i++)
        t.emplace_back([&bad, i] { bad[i] = work(i); });
    for (auto &x : t)
        x.join();
    for (int i = 0; i < nt; i++)
        EXPECT(!bad[i], "host thread %d got a wrong result or a CUDA error", i);
    CK(cudaGetLastError());
    return ck_done();
}
