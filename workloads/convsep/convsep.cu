// Separable convolution of a W x H float image with a (2R+1)-tap filter
// c_w[] (in __constant__ memory, written by the host): a row pass
// (conv_rows, in -> tmp) and a column pass (conv_cols, tmp -> out). Pixels
// outside the image count as zero. Each pass stages its tile plus an
// apron of R pixels on both sides in shared memory, one pixel per thread,
// so the apron threads only load: in conv_rows a CTA is 40 x 4 threads for
// 32 x 4 outputs (tx < R and tx >= 32 + R are apron), in conv_cols it is
// 32 x 24 threads for 32 x 16 outputs (ty < R and ty >= 16 + R are
// apron). Every output is sum = fma(s[i + k], c_w[k], sum) for k = 0..2R
// in that order, starting from 0.
//
// Divergent: in conv_rows a warp spans parts of two tile rows (40-thread
// rows), so apron lanes and computing lanes share warps; in conv_cols the
// apron rows are whole warps that skip the arithmetic; W and H are not
// multiples of the tile, so the CTAs at the right and bottom edges load
// zeros and leave lanes idle in the store.

#define CS_R 4
#define CS_TAPS (2 * CS_R + 1)
#define CS_RX 32                   // conv_rows outputs per CTA row
#define CS_RY 4
#define CS_CX 32
#define CS_CY 16                   // conv_cols outputs per CTA column

__constant__ float c_w[CS_TAPS];

extern "C" __global__ void conv_rows(const float *in, float *out, int w,
                                     int h)
{
    __shared__ float s[CS_RY][CS_RX + 2 * CS_R];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * CS_RX + tx - CS_R, y = blockIdx.y * CS_RY + ty;
    s[ty][tx] = (x >= 0 && x < w && y < h) ? in[y * w + x] : 0.0f;
    __syncthreads();
    if (tx >= CS_R && tx < CS_RX + CS_R && x < w && y < h) {
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < CS_TAPS; k++)
            sum = __fmaf_rn(s[ty][tx - CS_R + k], c_w[k], sum);
        out[y * w + x] = sum;
    }
}

extern "C" __global__ void conv_cols(const float *in, float *out, int w,
                                     int h)
{
    __shared__ float s[CS_CY + 2 * CS_R][CS_CX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * CS_CX + tx, y = blockIdx.y * CS_CY + ty - CS_R;
    s[ty][tx] = (y >= 0 && y < h && x < w) ? in[y * w + x] : 0.0f;
    __syncthreads();
    if (ty >= CS_R && ty < CS_CY + CS_R && x < w && y < h) {
        float sum = 0.0f;
#pragma unroll
        for (int k = 0; k < CS_TAPS; k++)
            sum = __fmaf_rn(s[ty - CS_R + k][tx], c_w[k], sum);
        out[y * w + x] = sum;
    }
}
