// Event times in both modes: positive for any launch (functional mode has
// no clock and measures the documented estimate, timing mode simulated
// cycles), additive over launches, zero with no launch between, and
// growing with the work: a kernel doing k times the iterations measures
// more than a kernel doing one. What programs that check `ms > 0` or
// divide by it need.
#define TEST_NAME "events"
#include "ck.h"

__global__ void work(float *x, int iters)
{
    float v = x[threadIdx.x];
    for (int i = 0; i < iters; i++)
        v = v * 0.999f + 1.0f;
    x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

static float timed(float *d, int blocks, int iters)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    work<<<blocks, 128>>>(d, iters);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = -1;
    CK(cudaEventElapsedTime(&ms, a, b));
    CK(cudaEventDestroy(a));
    CK(cudaEventDestroy(b));
    return ms;
}

int main()
{
    float *d;
    CK(cudaMalloc(&d, 64 * 128 * sizeof(float)));
    CK(cudaMemset(d, 0, 64 * 128 * sizeof(float)));
    float one = timed(d, 30, 100), four = timed(d, 30, 400);
    EXPECT(one > 0 && four > 2 * one, "100 iterations %g ms, 400 iterations %g ms", one,
           four);
    float wide = timed(d, 60, 100);     // twice the CTAs on the same SMs
    EXPECT(wide > one, "60 CTAs %g ms, 30 CTAs %g ms", wide, one);
    cudaEvent_t a, b, c;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventCreate(&c));
    CK(cudaEventRecord(a));
    work<<<30, 128>>>(d, 100);
    CK(cudaEventRecord(b));
    work<<<30, 128>>>(d, 400);
    CK(cudaEventRecord(c));
    CK(cudaEventSynchronize(c));
    float ab, bc, ac, none;
    CK(cudaEventElapsedTime(&ab, a, b));
    CK(cudaEventElapsedTime(&bc, b, c));
    CK(cudaEventElapsedTime(&ac, a, c));
    CK(cudaEventElapsedTime(&none, c, c));
    EXPECT(ab > 0 && bc > 0 && ac > 0 && (ac - ab - bc) < 1e-6f * ac && (ab + bc - ac) < 1e-6f * ac,
           "additive: %g + %g vs %g", ab, bc, ac);
    EXPECT(none == 0, "no launch between: %g ms", none);
    printf("events_ms %.9g %.9g\n", one, four);
    return ck_done();
}
