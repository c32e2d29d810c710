// cudaMallocManaged: the host writes, kernels update in place, the host
// reads after cudaDeviceSynchronize; several launches in a row, a
// cudaMemcpy from managed memory, and a managed buffer freed and reused;
// a __managed__ variable with an initializer, written by both sides.
#define TEST_NAME "managed"
#include "ck.h"

__managed__ int m_count = 5;

__global__ void step(float *x, int n, float a)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] * a + 1.0f;
    if (i == 0)
        atomicAdd(&m_count, 1);
}

static void *plain_host_ptr(void)
{
    static int not_managed;
    return &not_managed;
}

int main()
{
    const int n = 5000;
    float *x = NULL;
    CK(cudaMallocManaged(&x, n * sizeof(float)));
    for (int i = 0; i < n; i++)
        x[i] = (float)i;
    for (int k = 0; k < 3; k++)
        step<<<(n + 255) / 256, 256>>>(x, n, 2.0f);
    CK(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) {
        float want = (((float)i * 2.0f + 1.0f) * 2.0f + 1.0f) * 2.0f + 1.0f;
        EXPECT(x[i] == want, "x[%d] = %g, want %g", i, x[i], want);
    }
    x[7] = -1.0f;               // host write between launches reaches the device
    cudaStream_t st;
    CK(cudaStreamCreate(&st));
    CK(cudaStreamAttachMemAsync(st, x, 0, cudaMemAttachSingle));
    EXPECT(cudaStreamAttachMemAsync(st, plain_host_ptr(), 0, cudaMemAttachGlobal) ==
           cudaErrorInvalidValue, "attaching host memory to a stream was accepted");
    cudaGetLastError();
    step<<<(n + 255) / 256, 256, 0, st>>>(x, n, 3.0f);
    CK(cudaStreamSynchronize(st));
    CK(cudaStreamDestroy(st));
    CK(cudaDeviceSynchronize());
    EXPECT(x[7] == -2.0f, "x[7] = %g after a host write, want -2", x[7]);
    float *d = NULL, back[4];
    CK(cudaMalloc(&d, 4 * sizeof(float)));
    CK(cudaMemcpy(d, x, 4 * sizeof(float), cudaMemcpyDefault));
    CK(cudaMemcpy(back, d, 4 * sizeof(float), cudaMemcpyDeviceToHost));
    EXPECT(back[3] == x[3], "copy from managed memory: %g, want %g", back[3], x[3]);
    CK(cudaFree(x));
    CK(cudaFree(d));
    int *y = NULL;
    CK(cudaMallocManaged(&y, 64 * sizeof(int)));
    CK(cudaMemset(y, 0, 64 * sizeof(int)));
    EXPECT(y[5] == 0, "cudaMemset of managed memory: %d", y[5]);
    CK(cudaFree(y));
    EXPECT(m_count == 5 + 4, "__managed__ m_count = %d after 4 launches, want 9", m_count);
    m_count += 100;
    step<<<1, 32>>>(x = NULL, 0, 1.0f);
    CK(cudaDeviceSynchronize());
    EXPECT(m_count == 110, "__managed__ m_count = %d, want 110", m_count);
    return ck_done();
}
