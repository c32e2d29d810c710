// Filtered and layered textures and a surface, as the CUDA samples use
// them (simpleTexture, simpleLayeredTexture, simpleSurfaceWrite):
// compiled with `nvcc -ptx -arch=sm_75 -O3 nv_texfilter.cu`; the PTX is
// committed next to this file and run by tests/unit/test_tex_cuda.c
// against a CPU reference of the 9-bit-weight formula.
#include <cuda_runtime.h>

// bilinear, normalised coordinates, wrap: a rotated, scaled lookup (the
// rotation's cosine and sine come from the host, so that the CPU
// reference computes the same coordinates)
__global__ void warpLinear(cudaTextureObject_t t, float *out, int w, int h, float c, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float u = (float)x / (float)w - 0.5f, v = (float)y / (float)h - 0.5f;
    float tu = u * c - v * s + 0.5f;
    float tv = v * c + u * s + 0.5f;
    out[y * w + x] = tex2D<float>(t, 1.5f * tu, 1.5f * tv);
}

// layered, unnormalised, linear, uchar4 read as normalised float
__global__ void layeredSum(cudaTextureObject_t t, float4 *out, int w, int h, int layers)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 s = make_float4(0, 0, 0, 0);
    for (int l = 0; l < layers; l++) {
        float4 v = tex2DLayered<float4>(t, x + 0.25f * l, y + 0.5f, l);
        s.x += v.x; s.y += v.y; s.z += v.z; s.w += v.w;
    }
    out[y * w + x] = s;
}

// surface read-modify-write: out(x, y) = 2 * in(x, y) + x
__global__ void surfScale(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    int v = surf2Dread<int>(in, x * 4, y);
    surf2Dwrite(2 * v + x, out, x * 4, y);
}
