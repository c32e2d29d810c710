// The mini suite's output-compared program: a divergent histogram of a
// pseudo-random sequence, written to hist.txt; prints a host timer (a line
// its descriptor ignores) and, with "pid", its process id (an output that
// differs from run to run). Calls cudaThreadSynchronize, which CUDA 13
// removed: it builds with the compatibility header.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>

__global__ void histo(int n, const unsigned *in, unsigned *bins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned v = in[i];
    if (v & 1)                       // divergent: odd values take a longer path
        for (int k = 0; k < 4; k++)
            v = v * 1103515245u + 12345u;
    atomicAdd(&bins[v % 16], 1u);
}

int main(int argc, char **argv)
{
    int n = 4096;
    unsigned *in, *bins;
    cudaMallocManaged(&in, n * sizeof(unsigned));
    cudaMallocManaged(&bins, 16 * sizeof(unsigned));
    unsigned x = 7;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u;
        in[i] = x >> 8;
    }
    memset(bins, 0, 16 * sizeof(unsigned));
    clock_t t0 = clock();
    histo<<<(n + 255) / 256, 256>>>(n, in, bins);
    cudaError_t e = cudaThreadSynchronize();
    printf("Time: %.3f ms\n", 1000.0 * (clock() - t0) / CLOCKS_PER_SEC);
    if (argc > 1 && strcmp(argv[1], "pid") == 0)
        printf("pid %d\n", (int)getpid());
    FILE *f = fopen("hist.txt", "w");
    for (int b = 0; b < 16; b++)
        fprintf(f, "%d %u\n", b, bins[b]);
    fclose(f);
    printf("histo: %s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
