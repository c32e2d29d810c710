// Sobel edge filter on an 8-bit grey image: out = min(|Gx| + |Gy|, 255)
// with the 3x3 Sobel kernels, 0 on the one-pixel image border. Each 16x16
// CTA stages its tile plus a one-pixel halo (18 x 18 bytes, clamped to the
// image) in shared memory: 324 bytes for 256 threads, so the second pass of
// the cooperative load covers only 68 threads.
//
// Divergent: the pixels on the image border take the constant path while
// their warp-mates filter; the image is not a multiple of the tile, so the
// threads past the right and bottom edges leave after the barrier; and the
// halo load is partial in its second pass.

#define TW 16
#define TH 16

// Copies halo-tile byte k (row-major in the 18 x 18 tile whose top-left
// pixel is (x0, y0)) from the image, coordinates clamped to the image.
__device__ __forceinline__ void load_halo(unsigned char *tile,
                                          const unsigned char *img, int k,
                                          int x0, int y0, int w, int h)
{
    int lx = k % (TW + 2), ly = k / (TW + 2);
    int gx = min(max(x0 + lx, 0), w - 1);
    int gy = min(max(y0 + ly, 0), h - 1);
    tile[k] = img[gy * w + gx];
}

extern "C" __global__ void sobel_u8(const unsigned char *img,
                                    unsigned char *out, int w, int h)
{
    __shared__ unsigned char tile[TH + 2][TW + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TW - 1, y0 = blockIdx.y * TH - 1;
    int k = ty * TW + tx;
    load_halo(&tile[0][0], img, k, x0, y0, w, h);
    if (k < (TW + 2) * (TH + 2) - TW * TH)
        load_halo(&tile[0][0], img, k + TW * TH, x0, y0, w, h);
    __syncthreads();
    int x = x0 + 1 + tx, y = y0 + 1 + ty;
    if (x >= w || y >= h)
        return;
    int r = 0;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1) {
        int a = tile[ty][tx], b = tile[ty][tx + 1], c = tile[ty][tx + 2];
        int d = tile[ty + 1][tx], f = tile[ty + 1][tx + 2];
        int g = tile[ty + 2][tx], m = tile[ty + 2][tx + 1];
        int i = tile[ty + 2][tx + 2];
        int sx = (c + 2 * f + i) - (a + 2 * d + g);
        int sy = (g + 2 * m + i) - (a + 2 * b + c);
        r = min(abs(sx) + abs(sy), 255);
    }
    out[y * w + x] = (unsigned char)r;
}
