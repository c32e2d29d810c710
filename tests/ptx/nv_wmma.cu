// Tensor-core kernels of our own, written the way CUDA code uses them:
// a tiled half GEMM with float accumulate (nvcuda::wmma, one warp per
// 16x16 tile, C loaded and scaled element-wise), an int8 GEMM with int
// accumulate, the other sm_75 shapes with a half accumulator, the 4-bit
// and 1-bit experimental fragments, and mma.sync m16n8k8 / m8n8k16 from
// inline PTX with the per-lane fragments the PTX ISA defines.
// tests/unit/test_nv_wmma.c runs the committed nv_wmma.ptx
// (nvcc -ptx -arch=sm_75 -O3) in both modes against a CPU reference.
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// D[MxN] (row-major float) = alpha * (A[MxK] row-major x B[KxN] stored
// column-major) + C[MxN] (row-major float). One warp per 16x16 tile.
extern "C" __global__ void wmma_gemm_f16(const half *a, const half *b, const float *c,
                                         float *d, int M, int N, int K, float alpha)
{
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, fc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k = 0; k < K; k += 16) {
        wmma::load_matrix_sync(fa, a + tm * K + k, K);
        wmma::load_matrix_sync(fb, b + tn * K + k, K);
        wmma::mma_sync(acc, fa, fb, acc);
    }
    wmma::load_matrix_sync(fc, c + tm * N + tn, N, wmma::mem_row_major);
    for (int i = 0; i < acc.num_elements; i++)
        acc.x[i] = alpha * acc.x[i] + fc.x[i];
    wmma::store_matrix_sync(d + tm * N + tn, acc, N, wmma::mem_row_major);
}

// D[MxN] (column-major int) = A[MxK] (row-major int8) x B[KxN] (row-major
// int8), one warp per 16x16 tile, staged through shared memory.
extern "C" __global__ void wmma_gemm_s8(const signed char *a, const signed char *b, int *d,
                                        int M, int N, int K)
{
    __shared__ __align__(32) signed char sa[16 * 16], sb[16 * 16];
    int tm = blockIdx.y * 16, tn = blockIdx.x * 16, l = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
    wmma::fill_fragment(acc, 0);
    for (int k = 0; k < K; k += 16) {
        for (int i = l; i < 256; i += 32) {
            sa[i] = a[(tm + i / 16) * K + k + i % 16];
            sb[i] = b[(k + i / 16) * N + tn + i % 16];
        }
        __syncwarp();
        wmma::load_matrix_sync(fa, sa, 16);
        wmma::load_matrix_sync(fb, sb, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(d + tn * M + tm, acc, M, wmma::mem_col_major);
}

// u8 x u8 with saturation: d[16x16] row-major = sat(a x b + c).
extern "C" __global__ void wmma_u8_sat(const unsigned char *a, const unsigned char *b,
                                       const int *c, int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::col_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc, true);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// The two other f16 shapes with a half accumulator: d = a x b + c,
// m32n8k16 (a 32x16 row, b 16x8 row) then m8n32k16 (a 8x16 col, b 16x32 col).
extern "C" __global__ void wmma_shapes_f16(const half *a, const half *b, const half *c,
                                           half *d, const half *a2, const half *b2,
                                           const half *c2, half *d2)
{
    {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 32, 8, 16, half> fc;
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 8);
        wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
    }
    {
        wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::col_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 32, 16, half> fc;
        wmma::load_matrix_sync(fa, a2, 8);
        wmma::load_matrix_sync(fb, b2, 16);
        wmma::load_matrix_sync(fc, c2, 8, wmma::mem_col_major);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d2, fc, 8, wmma::mem_col_major);
    }
}

// 4-bit (m8n8k32, s4 row x s4 col) and 1-bit (m8n8k128, xor-popc) tiles.
extern "C" __global__ void wmma_subbyte(const void *a4, const void *b4, int *d4,
                                        const void *a1, const void *b1, int *d1)
{
    {
        using namespace wmma::experimental;
        wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
        wmma::load_matrix_sync(fa, a4, 32);
        wmma::load_matrix_sync(fb, b4, 32);
        wmma::fill_fragment(fc, 100);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d4, fc, 8, wmma::mem_row_major);
    }
    {
        using namespace wmma::experimental;
        wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
        wmma::load_matrix_sync(fa, a1, 128);
        wmma::load_matrix_sync(fb, b1, 128);
        wmma::fill_fragment(fc, 0);
        wmma::bmma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d1, fc, 8, wmma::mem_row_major);
    }
}

// mma.sync.aligned.m16n8k8.row.col with f32 and with f16 accumulate, and
// m8n8k16 s8: each lane builds its own fragment from memory with the
// PTX ISA's per-lane layout (groupID = lane >> 2, tig = lane & 3).
// a: 16x8 half row-major, b: 8x8 half (b[k * 8 + n]), c: 16x8 float,
// d: 16x8 float, dh: 16x8 half (c converted to half for the f16 form).
extern "C" __global__ void mma_sync_f16(const half *a, const half *b, const float *c,
                                        float *d, half *dh)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    __half2 a01 = __halves2half2(a[g * 8 + 2 * t], a[g * 8 + 2 * t + 1]);
    __half2 a23 = __halves2half2(a[(g + 8) * 8 + 2 * t], a[(g + 8) * 8 + 2 * t + 1]);
    __half2 b01 = __halves2half2(b[(2 * t) * 8 + g], b[(2 * t + 1) * 8 + g]);
    unsigned ra0 = *(unsigned *)&a01, ra1 = *(unsigned *)&a23, rb = *(unsigned *)&b01;
    float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
    float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(ra0), "r"(ra1), "r"(rb), "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
    d[(g + 8) * 8 + 2 * t] = d2;
    d[(g + 8) * 8 + 2 * t + 1] = d3;
    __half2 h01 = __floats2half2_rn(c0, c1), h23 = __floats2half2_rn(c2, c3);
    unsigned rc0 = *(unsigned *)&h01, rc1 = *(unsigned *)&h23, rd0, rd1;
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 "
                 "{%0, %1}, {%2, %3}, {%4}, {%5, %6};"
                 : "=r"(rd0), "=r"(rd1)
                 : "r"(ra0), "r"(ra1), "r"(rb), "r"(rc0), "r"(rc1));
    *(unsigned *)&dh[g * 8 + 2 * t] = rd0;
    *(unsigned *)&dh[(g + 8) * 8 + 2 * t] = rd1;
}

// a: 8x16 s8 row-major, b: 16x8 s8 (b[k * 8 + n]), c, d: 8x8 int.
extern "C" __global__ void mma_sync_s8(const signed char *a, const signed char *b,
                                       const int *c, int *d)
{
    int l = threadIdx.x, g = l >> 2, t = l & 3;
    unsigned ra = 0, rb = 0;
    for (int i = 0; i < 4; i++) {
        ra |= (unsigned)(unsigned char)a[g * 16 + 4 * t + i] << (8 * i);
        rb |= (unsigned)(unsigned char)b[(4 * t + i) * 8 + g] << (8 * i);
    }
    int c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 "
                 "{%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=r"(d0), "=r"(d1) : "r"(ra), "r"(rb), "r"(c0), "r"(c1));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
}
