// The mini suite's failing program: its own check expects a sum the kernel
// does not compute (it drops the last element), so it prints FAILED and
// exits 1, as a program whose result is wrong would.
#include <cstdio>

__global__ void sum(int n, const int *in, int *out)
{
    int s = 0;
    for (int i = 0; i < n - 1; i++)   // the deliberate bug
        s += in[i];
    *out = s;
}

int main()
{
    const int n = 64;
    int *in, *out;
    cudaMallocManaged(&in, n * sizeof(int));
    cudaMallocManaged(&out, sizeof(int));
    for (int i = 0; i < n; i++)
        in[i] = i + 1;
    sum<<<1, 1>>>(n, in, out);
    cudaDeviceSynchronize();
    int want = n * (n + 1) / 2;
    printf("wrong: sum %d, expected %d: %s\n", *out, want, *out == want ? "PASSED" : "FAILED");
    return *out != want;
}
