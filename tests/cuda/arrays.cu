// Textures and surfaces on CUDA arrays, as the CUDA programming guide
// writes them: cudaMallocArray + cudaMemcpy2DToArray + a linear-filtered,
// normalised, wrapping texture object (the guide's example), the
// deprecated cudaMemcpyToArray with a uchar4 normalised-float read,
// cudaMalloc3DArray + cudaMemcpy3D (3-D and layered), a surface written by
// a kernel and read back with cudaMemcpy2DFromArray, a mipmapped array
// sampled per level, cudaArrayGetInfo and array-to-array copies. Sample
// points are texel centres and midpoints, where the hardware's 8-bit
// filter weights are exact, so the expected values are exact too.
#define TEST_NAME "arrays"
#include <cstring>
#include "ck.h"

const int W = 16, H = 8;

static float texel(int x, int y) { return (float)(y * 100 + x); }

// the guide's example: (u, v) normalised, linear filtering, wrap
__global__ void sample2d(float *out, cudaTextureObject_t t, const float2 *uv, int n)
{
    int i = threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, uv[i].x, uv[i].y);
}

__global__ void sample_uchar4(float4 *out, cudaTextureObject_t t)
{
    int x = threadIdx.x;
    out[x] = tex1D<float4>(t, x + 0.5f);
}

__global__ void sample3d(float *out, cudaTextureObject_t t, int w, int h, int d)
{
    int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
    out[(z * h + y) * w + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void sample_layered(float *out, cudaTextureObject_t t, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y, l = blockIdx.x;
    out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

__global__ void surf_fill(cudaSurfaceObject_t s, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) {
        int v;
        surf2Dread(&v, s, x * 4, y);
        surf2Dwrite(v * 2 + 1, s, x * 4, y);
    }
}

__global__ void sample_lod(float *out, cudaTextureObject_t t, float lod, int w, int h)
{
    int x = threadIdx.x, y = threadIdx.y;
    out[y * w + x] = tex2DLod<float>(t, (x + 0.5f) / w, (y + 0.5f) / h, lod);
}

int main()
{
    // ---- the guide's example ----
    float h_data[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            h_data[y][x] = texel(x, y);
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t arr;
    CK(cudaMallocArray(&arr, &cd, W, H));
    CK(cudaMemcpy2DToArray(arr, 0, 0, h_data, W * sizeof(float), W * sizeof(float), H,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
    // (texel x, texel y) in texel units: centres, a horizontal midpoint,
    // a vertical one, and centres past the right edge (wrap)
    const float pts[][2] = { { 0.5f, 0.5f }, { 3.5f, 2.5f }, { 4.0f, 2.5f }, { 7.5f, 5.0f },
                             { 15.5f, 7.5f }, { 16.5f, 1.5f }, { 33.5f, 9.5f } };
    const int np = sizeof pts / sizeof pts[0];
    float2 uv[np];
    float want[np];
    for (int i = 0; i < np; i++) {
        uv[i] = make_float2(pts[i][0] / W, pts[i][1] / H);
        int x0 = (int)(pts[i][0] - 0.5f), y0 = (int)(pts[i][1] - 0.5f);
        float ax = pts[i][0] - 0.5f - x0, ay = pts[i][1] - 0.5f - y0;
        float v = 0;
        for (int dy = 0; dy < 2; dy++)
            for (int dx = 0; dx < 2; dx++) {
                float wgt = (dx ? ax : 1 - ax) * (dy ? ay : 1 - ay);
                if (wgt != 0)
                    v += wgt * texel((x0 + dx) % W, (y0 + dy) % H);
            }
        want[i] = v;
    }
    float2 *d_uv;
    float *d_out;
    CK(cudaMalloc(&d_uv, sizeof uv));
    CK(cudaMalloc(&d_out, 4096 * sizeof(float)));
    CK(cudaMemcpy(d_uv, uv, sizeof uv, cudaMemcpyHostToDevice));
    sample2d<<<1, 32>>>(d_out, tex, d_uv, np);
    CK(cudaGetLastError());
    float got[4096];
    CK(cudaMemcpy(got, d_out, np * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < np; i++)
        EXPECT(got[i] == want[i], "tex2D at (%g, %g) texels: %g, want %g", pts[i][0],
               pts[i][1], got[i], want[i]);
    cudaChannelFormatDesc gd;
    cudaExtent ge;
    unsigned gf = 99;
    CK(cudaArrayGetInfo(&gd, &ge, &gf, arr));
    EXPECT(gd.x == 32 && gd.f == cudaChannelFormatKindFloat && ge.width == W &&
           ge.height == H && ge.depth == 0 && gf == 0, "cudaArrayGetInfo");
    // back out of the array, and array to array
    float back[H][W];
    cudaArray_t arr2;
    CK(cudaMallocArray(&arr2, &cd, W, H));
    CK(cudaMemcpy2DArrayToArray(arr2, 0, 0, arr, 0, 0, W * sizeof(float), H,
                                cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy2DFromArray(back, W * sizeof(float), arr2, 0, 0, W * sizeof(float), H,
                             cudaMemcpyDeviceToHost));
    EXPECT(!memcmp(back, h_data, sizeof back), "array round trip");
    CK(cudaDestroyTextureObject(tex));

    // ---- uchar4, the deprecated linear copy, normalised-float reads ----
    uchar4 px[W];
    for (int x = 0; x < W; x++)
        px[x] = make_uchar4(x, 255 - x, 17 * x, 255);
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a4;
    CK(cudaMallocArray(&a4, &c4, W, 0));
    CK(cudaMemcpyToArray(a4, 0, 0, px, sizeof px, cudaMemcpyHostToDevice));
    rd.res.array.array = a4;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeNormalizedFloat;
    td.normalizedCoords = 0;
    td.addressMode[0] = cudaAddressModeClamp;
    CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
    float4 *d4;
    CK(cudaMalloc(&d4, W * sizeof(float4)));
    sample_uchar4<<<1, W>>>(d4, tex);
    CK(cudaGetLastError());
    float4 g4[W];
    CK(cudaMemcpy(g4, d4, sizeof g4, cudaMemcpyDeviceToHost));
    for (int x = 0; x < W; x++)
        EXPECT(g4[x].x == x / 255.f && g4[x].y == (255 - x) / 255.f &&
               g4[x].z == (17 * x) / 255.f && g4[x].w == 1.f, "uchar4 texel %d: %g %g %g %g",
               x, g4[x].x, g4[x].y, g4[x].z, g4[x].w);
    CK(cudaDestroyTextureObject(tex));

    // ---- 3-D and layered arrays through cudaMemcpy3D ----
    const int D = 3, n3 = W * H * D;
    float h3[n3];
    for (int i = 0; i < n3; i++)
        h3[i] = (float)(i * 3 + 1);
    for (int layered = 0; layered < 2; layered++) {
        cudaArray_t a3;
        CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(W, H, D),
                             layered ? cudaArrayLayered : 0));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(h3, W * sizeof(float), W, H);
        p.dstArray = a3;
        p.extent = make_cudaExtent(W, H, D);
        p.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&p));
        rd.res.array.array = a3;
        td.readMode = cudaReadModeElementType;
        CK(cudaCreateTextureObject(&tex, &rd, &td, NULL));
        if (layered)
            sample_layered<<<D, dim3(W, H)>>>(d_out, tex, W, H);
        else
            sample3d<<<D, dim3(W, H)>>>(d_out, tex, W, H, D);
        CK(cudaGetLastError());
        CK(cudaMemcpy(got, d_out, n3 * sizeof(float), cudaMemcpyDeviceToHost));
        EXPECT(!memcmp(got, h3, sizeof h3), "%s array: texel 5 = %g, want %g",
               layered ? "layered" : "3-D", got[5], h3[5]);
        // a slice back out: array -> host, at an offset
        float slice[W];
        memset(&p, 0, sizeof p);
        p.srcArray = a3;
        p.srcPos = make_cudaPos(0, 2, 1);
        p.dstPtr = make_cudaPitchedPtr(slice, sizeof slice, W, 1);
        p.extent = make_cudaExtent(W, 1, 1);
        p.kind = cudaMemcpyDeviceToHost;
        CK(cudaMemcpy3D(&p));
        EXPECT(!memcmp(slice, h3 + (1 * H + 2) * W, sizeof slice), "3-D copy back");
        CK(cudaDestroyTextureObject(tex));
        CK(cudaFreeArray(a3));
    }

    // ---- a surface: read, write, copy back ----
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t as;
    CK(cudaMallocArray(&as, &ci, W, H, cudaArraySurfaceLoadStore));
    int hi[H][W], ho[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            hi[y][x] = y * W + x;
    CK(cudaMemcpy2DToArray(as, 0, 0, hi, sizeof hi[0], sizeof hi[0], H,
                           cudaMemcpyHostToDevice));
    cudaResourceDesc sd;
    memset(&sd, 0, sizeof sd);
    sd.resType = cudaResourceTypeArray;
    sd.res.array.array = as;
    cudaSurfaceObject_t surf;
    CK(cudaCreateSurfaceObject(&surf, &sd));
    surf_fill<<<1, dim3(W, H)>>>(surf, W, H);
    CK(cudaGetLastError());
    CK(cudaMemcpy2DFromArray(ho, sizeof ho[0], as, 0, 0, sizeof ho[0], H,
                             cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            EXPECT(ho[y][x] == 2 * hi[y][x] + 1, "surface (%d, %d): %d", x, y, ho[y][x]);
    CK(cudaDestroySurfaceObject(surf));
    sd.res.array.array = arr;       // not allocated for surfaces
    EXPECT(cudaCreateSurfaceObject(&surf, &sd) == cudaErrorInvalidValue,
           "a surface over an array without cudaArraySurfaceLoadStore");
    (void)cudaGetLastError();

    // ---- mipmapped: each level its own values, sampled with tex2DLod ----
    cudaMipmappedArray_t mm;
    const int L = 3;
    CK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(W, H, 0), L));
    for (int k = 0; k < L; k++) {
        cudaArray_t lv;
        CK(cudaGetMipmappedArrayLevel(&lv, mm, k));
        int lw = W >> k, lh = H >> k;
        float lvl[H * W];
        for (int i = 0; i < lw * lh; i++)
            lvl[i] = (float)(1000 * k + i);
        CK(cudaMemcpy2DToArray(lv, 0, 0, lvl, lw * sizeof(float), lw * sizeof(float), lh,
                               cudaMemcpyHostToDevice));
    }
    cudaResourceDesc md;
    memset(&md, 0, sizeof md);
    md.resType = cudaResourceTypeMipmappedArray;
    md.res.mipmap.mipmap = mm;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModePoint;
    td.normalizedCoords = 1;
    td.maxMipmapLevelClamp = L - 1;
    CK(cudaCreateTextureObject(&tex, &md, &td, NULL));
    for (int k = 0; k < L; k++) {
        int lw = W >> k, lh = H >> k;
        sample_lod<<<1, dim3(lw, lh)>>>(d_out, tex, (float)k, lw, lh);
        CK(cudaGetLastError());
        CK(cudaMemcpy(got, d_out, lw * lh * sizeof(float), cudaMemcpyDeviceToHost));
        for (int i = 0; i < lw * lh; i++)
            EXPECT(got[i] == (float)(1000 * k + i), "level %d texel %d: %g", k, i, got[i]);
    }
    CK(cudaDestroyTextureObject(tex));
    CK(cudaFreeMipmappedArray(mm));
    CK(cudaFreeArray(arr));
    CK(cudaFreeArray(arr2));
    CK(cudaFreeArray(a4));
    CK(cudaFreeArray(as));
    return ck_done();
}
