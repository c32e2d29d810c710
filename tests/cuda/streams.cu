// Streams and events: two streams, async copies and launches (executed
// in order), events around the work; prints the elapsed simulated time
// (run.sh compares it with the launches' cycles / core clock).
#define TEST_NAME "streams"
#include "ck.h"

__global__ void saxpy(float *y, const float *x, float a, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

int main()
{
    const int n = 1 << 14;
    cudaStream_t s[2];
    CK(cudaStreamCreate(&s[0]));
    CK(cudaStreamCreateWithFlags(&s[1], cudaStreamNonBlocking));
    float *hx, *hy, *dx, *dy;
    CK(cudaMallocHost(&hx, n * sizeof(float)));
    CK(cudaHostAlloc(&hy, n * sizeof(float), cudaHostAllocDefault));
    for (int i = 0; i < n; i++) {
        hx[i] = (float)(i % 97);
        hy[i] = 1.0f;
    }
    CK(cudaMalloc(&dx, n * sizeof(float)));
    CK(cudaMalloc(&dy, n * sizeof(float)));
    cudaEvent_t start, mid, stop;
    CK(cudaEventCreate(&start));
    CK(cudaEventCreate(&mid));
    CK(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
    CK(cudaEventRecord(start, s[0]));
    int h = n / 2;
    for (int k = 0; k < 2; k++) {
        CK(cudaMemcpyAsync(dx + k * h, hx + k * h, h * sizeof(float), cudaMemcpyHostToDevice, s[k]));
        CK(cudaMemcpyAsync(dy + k * h, hy + k * h, h * sizeof(float), cudaMemcpyHostToDevice, s[k]));
        saxpy<<<16, 128, 0, s[k]>>>(dy + k * h, dx + k * h, 2.0f, h);
        CK(cudaGetLastError());
        if (k == 0)
            CK(cudaEventRecord(mid, s[0]));
    }
    CK(cudaStreamWaitEvent(s[1], mid, 0));
    CK(cudaEventRecord(stop, s[1]));
    for (int k = 0; k < 2; k++)
        CK(cudaMemcpyAsync(hy + k * h, dy + k * h, h * sizeof(float), cudaMemcpyDeviceToHost, s[k]));
    CK(cudaStreamSynchronize(s[0]));
    CK(cudaStreamSynchronize(s[1]));
    CK(cudaEventSynchronize(stop));
    CK(cudaEventQuery(stop));
    CK(cudaStreamQuery(s[0]));
    for (int i = 0; i < n; i++)
        EXPECT(hy[i] == 2.0f * (float)(i % 97) + 1.0f, "y[%d] = %g", i, hy[i]);
    float ms_all = -1, ms_first = -1;
    CK(cudaEventElapsedTime(&ms_all, start, stop));
    CK(cudaEventElapsedTime(&ms_first, start, mid));
    EXPECT(ms_first >= 0 && ms_all >= ms_first, "elapsed %g then %g", ms_first, ms_all);
    printf("elapsed_ms %.9g first_ms %.9g\n", ms_all, ms_first);
    cudaEvent_t untimed;
    CK(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
    CK(cudaEventRecord(untimed, 0));
    float ms;
    EXPECT(cudaEventElapsedTime(&ms, start, untimed) == cudaErrorInvalidResourceHandle,
           "elapsed time of a cudaEventDisableTiming event was given");
    cudaGetLastError();
    CK(cudaEventDestroy(untimed));
    CK(cudaEventDestroy(start));
    CK(cudaEventDestroy(mid));
    CK(cudaEventDestroy(stop));
    CK(cudaStreamDestroy(s[0]));
    CK(cudaStreamDestroy(s[1]));
    CK(cudaFreeHost(hx));
    CK(cudaFreeHost(hy));
    CK(cudaFree(dx));
    CK(cudaFree(dy));
    return ck_done();
}
