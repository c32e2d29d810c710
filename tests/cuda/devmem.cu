// Device memory of the configured size, backed only where touched: the
// total is what run.sh says (the config's global_mem_bytes); an
// allocation of most of it succeeds and a kernel and copies use both ends
// of it; more than is left fails with cudaErrorMemoryAllocation and is
// not sticky. With a third argument the program touches that many MiB
// and expects the run to stop with cudaErrorMemoryAllocation (run.sh sets
// host_mem_limit below it).
// usage: devmem TOTAL_MIB [TOUCH_MIB]
#define TEST_NAME "devmem"
#include "ck.h"

// one int in every 4 KiB page of n bytes: thread i writes page i
__global__ void touch(int *p, size_t pages, int v)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pages)
        p[i * 1024] = v + (int)i;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        printf("FAIL %s: usage: devmem TOTAL_MIB [TOUCH_MIB]\n", TEST_NAME);
        return 1;
    }
    size_t want = (size_t)atoll(argv[1]) << 20;
    size_t fr = 0, tot = 0;
    CK(cudaMemGetInfo(&fr, &tot));
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(tot == want && p.totalGlobalMem == want, "total %zu (prop %zu), want %zu", tot,
           p.totalGlobalMem, want);
    if (argc > 2) {                 // over the host's budget: a clear failure
        size_t n = (size_t)atoll(argv[2]) << 20, pages = n / 4096;
        int *d;
        CK(cudaMalloc(&d, n));
        touch<<<(unsigned)((pages + 255) / 256), 256>>>(d, pages, 1);
        cudaError_t e = cudaGetLastError();
        EXPECT(e == cudaErrorMemoryAllocation, "touching %zu MiB: %s", n >> 20,
               cudaGetErrorName(e));
        return ck_done();
    }
    // most of the device in one allocation: 1 GiB and more fail on a 1 GiB device
    size_t n = fr / 4096 * 4096 - (64u << 20), pages = n / 4096;
    int *d;
    CK(cudaMalloc(&d, n));
    size_t fr2 = 0;
    CK(cudaMemGetInfo(&fr2, &tot));
    EXPECT(fr2 <= fr - n, "free %zu after allocating %zu of %zu", fr2, n, fr);
    // both ends: the first and last pages by kernel, copies and memset
    const size_t span = 512;        // pages per end
    touch<<<2, 256>>>(d, span, 100);
    touch<<<2, 256>>>(d + (pages - span) * 1024, span, 7000);
    CK(cudaGetLastError());
    int h[3] = { 0, 0, 0 };
    CK(cudaMemcpy(&h[0], d + 5 * 1024, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&h[1], d + (pages - 1) * 1024, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[0] == 105 && h[1] == 7000 + (int)span - 1, "touched values %d %d", h[0], h[1]);
    CK(cudaMemset(d + pages / 2 * 1024, 0x5a, 4096));
    CK(cudaMemcpy(&h[2], d + pages / 2 * 1024 + 1023, sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&h[0], d + pages / 3 * 1024, sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT(h[2] == 0x5a5a5a5a && h[0] == 0, "memset %x, untouched %d", h[2], h[0]);
    // what is left is not enough for another such block: refused, not sticky
    int *e2;
    EXPECT(cudaMalloc(&e2, n) == cudaErrorMemoryAllocation, "a second %zu bytes", n);
    EXPECT(cudaGetLastError() == cudaErrorMemoryAllocation, "last error");
    CK(cudaMalloc(&e2, 1 << 20));
    CK(cudaFree(e2));
    CK(cudaFree(d));
    CK(cudaMemGetInfo(&fr2, &tot));
    EXPECT(fr2 == fr, "free %zu after the frees, %zu before", fr2, fr);
    return ck_done();
}
