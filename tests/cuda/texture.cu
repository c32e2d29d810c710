// Texture objects: a linear resource read with tex1Dfetch (out-of-range
// fetches read 0) and a pitch2D resource read with tex2D (point sampling,
// clamp), channel descriptors from cudaCreateChannelDesc.
#define TEST_NAME "texture"
#include "ck.h"

__global__ void fetch1d(cudaTextureObject_t t, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n + 8)
        out[i] = tex1Dfetch<int>(t, i);
}

__global__ void fetch2d(cudaTextureObject_t t, float *out, int w, int h)
{
    int x = threadIdx.x, y = blockIdx.x;
    // one texel outside on each side: clamped to the edge
    out[y * (w + 2) + x] = tex2D<float>(t, (float)x - 1.0f + 0.5f, (float)y - 1.0f + 0.5f);
}

int main()
{
    const int n = 300;
    int *hin = (int *)malloc(n * sizeof(int)), *hout = (int *)malloc((n + 8) * sizeof(int));
    for (int i = 0; i < n; i++)
        hin[i] = i * 7 - 50;
    int *din, *dout;
    CK(cudaMalloc(&din, n * sizeof(int)));
    CK(cudaMalloc(&dout, (n + 8) * sizeof(int)));
    CK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = din;
    rd.res.linear.desc = cudaCreateChannelDesc<int>();
    rd.res.linear.sizeInBytes = n * sizeof(int);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t1 = 0;
    CK(cudaCreateTextureObject(&t1, &rd, &td, NULL));
    fetch1d<<<(n + 8 + 63) / 64, 64>>>(t1, dout, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hout, dout, (n + 8) * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n + 8; i++)
        EXPECT(hout[i] == (i < n ? hin[i] : 0), "tex1Dfetch(%d) = %d", i, hout[i]);

    const int w = 20, h = 12;
    float himg[w * h], hres[(w + 2) * (h + 2)];
    for (int i = 0; i < w * h; i++)
        himg[i] = (float)i * 0.25f;
    float *dimg, *dres;
    size_t pitch;
    CK(cudaMallocPitch((void **)&dimg, &pitch, w * sizeof(float), h));
    CK(cudaMemcpy2D(dimg, pitch, himg, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&dres, sizeof hres));
    cudaResourceDesc r2 = {};
    r2.resType = cudaResourceTypePitch2D;
    r2.res.pitch2D.devPtr = dimg;
    r2.res.pitch2D.desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    r2.res.pitch2D.width = w;
    r2.res.pitch2D.height = h;
    r2.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc t2d = {};
    t2d.addressMode[0] = t2d.addressMode[1] = cudaAddressModeClamp;
    t2d.filterMode = cudaFilterModePoint;
    t2d.readMode = cudaReadModeElementType;
    cudaTextureObject_t t2 = 0;
    CK(cudaCreateTextureObject(&t2, &r2, &t2d, NULL));
    fetch2d<<<h + 2, w + 2>>>(t2, dres, w, h);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hres, dres, sizeof hres, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h + 2; y++)
        for (int x = 0; x < w + 2; x++) {
            int cx = x - 1 < 0 ? 0 : x - 1 >= w ? w - 1 : x - 1;
            int cy = y - 1 < 0 ? 0 : y - 1 >= h ? h - 1 : y - 1;
            EXPECT(hres[y * (w + 2) + x] == himg[cy * w + cx], "tex2D(%d,%d) = %g, want %g",
                   x - 1, y - 1, hres[y * (w + 2) + x], himg[cy * w + cx]);
        }
    CK(cudaDestroyTextureObject(t1));
    CK(cudaDestroyTextureObject(t2));
    CK(cudaFree(din));
    CK(cudaFree(dout));
    CK(cudaFree(dimg));
    CK(cudaFree(dres));
    free(hin);
    free(hout);
    return ck_done();
}
