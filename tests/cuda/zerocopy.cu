// Mapped host memory (zero-copy): kernels read and write pinned host
// memory (cudaHostAllocMapped through cudaHostGetDevicePointer; with
// unified addressing, the host pointer itself, cudaMallocHost's too), and
// host memory the program registered with cudaHostRegister through its
// device pointer.
// The program and its kernels share the bytes: no copies, writes on
// either side seen by the other at the next launch or sync. Registration
// errors are CUDA's.
#define TEST_NAME "zerocopy"
#include <cstdlib>
#include <cstring>
#include "ck.h"

__global__ void scale(int *x, int n, int k)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * k + 1;
}

__global__ void sum(const int *x, int n, int *out)
{
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += x[i];
    atomicAdd(out, s);
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    EXPECT(p.canMapHostMemory == 1, "canMapHostMemory %d", p.canMapHostMemory);
    int v = 0;
    CK(cudaDeviceGetAttribute(&v, cudaDevAttrHostRegisterSupported, 0));
    EXPECT(v == 1, "cudaDevAttrHostRegisterSupported %d", v);
    CK(cudaSetDeviceFlags(cudaDeviceMapHost));

    // cudaHostAllocMapped: the kernel works on the program's own buffer
    const int n = 1000;
    int *h, *d;
    CK(cudaHostAlloc(&h, n * sizeof(int), cudaHostAllocMapped));
    for (int i = 0; i < n; i++)
        h[i] = i;
    CK(cudaHostGetDevicePointer(&d, h, 0));
    EXPECT(d == h, "unified addressing: device pointer %p for host %p", d, h);
    scale<<<(n + 127) / 128, 128>>>(d, n, 3);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++)
        EXPECT(h[i] == 3 * i + 1, "mapped h[%d] = %d, want %d", i, h[i], 3 * i + 1);
    h[7] = -5;                              // a host write the next launch sees
    scale<<<(n + 127) / 128, 128>>>(h, n, 2);   // the host pointer itself
    CK(cudaDeviceSynchronize());
    EXPECT(h[7] == -9 && h[8] == 2 * 25 + 1, "mapped after host write: %d %d", h[7], h[8]);
    unsigned fl = 0;
    CK(cudaHostGetFlags(&fl, h));
    EXPECT(fl == cudaHostAllocMapped, "cudaHostGetFlags 0x%x", fl);
    cudaPointerAttributes pa;
    CK(cudaPointerGetAttributes(&pa, h + 5));
    EXPECT(pa.type == cudaMemoryTypeHost && pa.devicePointer == h + 5,
           "pointer attributes: type %d, device %p", (int)pa.type, pa.devicePointer);

    // cudaMallocHost: pinned, so with unified addressing the kernels' too
    int *ph;
    CK(cudaMallocHost(&ph, 64 * sizeof(int)));
    for (int i = 0; i < 64; i++)
        ph[i] = i;
    scale<<<1, 64>>>(ph, 64, 4);
    CK(cudaDeviceSynchronize());
    EXPECT(ph[63] == 4 * 63 + 1, "cudaMallocHost memory after a kernel: %d", ph[63]);
    CK(cudaFreeHost(ph));

    // cudaHostRegister: page-aligned memory the program allocated itself
    const size_t bytes = 1 << 16;
    const int m = (int)(bytes / sizeof(int));
    int *r = (int *)aligned_alloc(4096, bytes), *rd = nullptr, *out;
    for (int i = 0; i < m; i++)
        r[i] = i % 100;
    CK(cudaHostRegister(r, bytes, cudaHostRegisterMapped));
    EXPECT(r[99] == 99, "registering changed the program's bytes: %d", r[99]);
    CK(cudaHostGetDevicePointer(&rd, r, 0));
    CK(cudaHostGetDevicePointer(&d, r + 10, 0));
    EXPECT(d == rd + 10, "device pointer inside the range %p, want %p", d, rd + 10);
    scale<<<m / 256, 256>>>(rd, m, 2);
    CK(cudaDeviceSynchronize());
    long want = 0;
    for (int i = 0; i < m; i++) {
        EXPECT(r[i] == 2 * (i % 100) + 1, "registered r[%d] = %d", i, r[i]);
        want += r[i];
    }
    r[0] += 1000;                           // seen by the next kernel
    want += 1000;
    CK(cudaMalloc(&out, sizeof(int)));
    CK(cudaMemset(out, 0, sizeof(int)));
    sum<<<1, 256>>>(rd, m, out);
    int got = 0;
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == want, "sum over registered memory %d, want %ld", got, want);
    // the pinned-staging pattern: async copies from registered memory
    int *dev;
    CK(cudaMalloc(&dev, bytes));
    CK(cudaMemcpyAsync(dev, r, bytes, cudaMemcpyHostToDevice, 0));
    CK(cudaMemset(out, 0, sizeof(int)));
    sum<<<1, 256>>>(dev, m, out);
    CK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == want, "sum over the copy %d, want %ld", got, want);
    EXPECT(cudaHostRegister(r + 1024, 4096, 0) == cudaErrorHostMemoryAlreadyRegistered,
           "an overlapping registration was accepted");
    CK(cudaHostUnregister(r));
    EXPECT(cudaHostUnregister(r) == cudaErrorHostMemoryNotRegistered,
           "a second unregister was accepted");
    EXPECT(cudaHostGetDevicePointer(&d, r, 0) == cudaErrorInvalidValue,
           "unregistered memory still has a device pointer");
    cudaGetLastError();
    EXPECT(r[5] == 11, "unregistering changed the program's bytes: %d", r[5]);
    free(r);
    CK(cudaFreeHost(h));
    return ck_done();
}
