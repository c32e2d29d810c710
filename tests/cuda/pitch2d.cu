// 2-D pitched memory: cudaMallocPitch, cudaMemcpy2D both ways, cudaMemset2D,
// a kernel addressing rows by pitch, a device-to-device 2-D copy.
#define TEST_NAME "pitch2d"
#include "ck.h"

__global__ void transpose_add(float *dst, size_t dpitch, const float *src, size_t spitch,
                              int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        const float *srow = (const float *)((const char *)src + y * spitch);
        float *drow = (float *)((char *)dst + y * dpitch);
        drow[x] = srow[x] + (float)(x * 1000 + y);
    }
}

int main()
{
    const int w = 77, h = 45;
    float *hsrc = (float *)malloc(w * h * sizeof(float)), *hdst = (float *)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; i++)
        hsrc[i] = (float)(i % 13) * 0.5f;
    float *dsrc, *ddst, *dcopy;
    size_t sp, dp, cp;
    CK(cudaMallocPitch((void **)&dsrc, &sp, w * sizeof(float), h));
    CK(cudaMallocPitch((void **)&ddst, &dp, w * sizeof(float), h));
    CK(cudaMallocPitch((void **)&dcopy, &cp, w * sizeof(float), h));
    EXPECT(sp >= w * sizeof(float) && sp % 32 == 0, "pitch %zu", sp);
    CK(cudaMemset2D(ddst, dp, 0xff, w * sizeof(float), h));
    CK(cudaMemcpy2D(dsrc, sp, hsrc, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    transpose_add<<<grid, block>>>(ddst, dp, dsrc, sp, w, h);
    CK(cudaGetLastError());
    CK(cudaMemcpy2D(dcopy, cp, ddst, dp, w * sizeof(float), h, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2D(hdst, w * sizeof(float), dcopy, cp, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float want = hsrc[y * w + x] + (float)(x * 1000 + y);
            EXPECT(hdst[y * w + x] == want, "(%d,%d) = %g, want %g", x, y, hdst[y * w + x], want);
        }
    EXPECT(cudaMemcpy2D(hdst, 4, dcopy, cp, 8, 1, cudaMemcpyDeviceToHost) == cudaErrorInvalidPitchValue,
           "a width over the pitch was accepted");
    cudaGetLastError();
    CK(cudaFree(dsrc));
    CK(cudaFree(ddst));
    CK(cudaFree(dcopy));
    free(hsrc);
    free(hdst);
    return ck_done();
}
