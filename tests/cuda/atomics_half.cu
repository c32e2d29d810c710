// Half-precision atomics: atomicAdd on __half2 and __half (nvcc emits
// atom.add.noftz.f16x2/.f16 for sm_75) and on __nv_bfloat162 and
// __nv_bfloat16 (a cas.b16/cas.b32 loop for sm_75), in global and shared
// memory. Adds in a fixed order by one thread check CUDA's rounding
// (nearest even, subnormals kept, overflow to infinity, each half of a
// pair on its own) against a host reference; many threads adding
// exactly representable values check atomicity; the returned old values
// are checked too.
#define TEST_NAME "atomics_half"
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstring>
#include "ck.h"

#define NV 12

// one thread: x[i] += v[i] for each i in order, keeping what atomicAdd returned
__global__ void seq(__half2 *h2, __half *h1, __nv_bfloat162 *b2, __nv_bfloat16 *b1,
                    const __half2 *vh2, const __half *vh1, const __nv_bfloat162 *vb2,
                    const __nv_bfloat16 *vb1, __half2 *old)
{
    for (int i = 0; i < NV; i++) {
        old[i] = atomicAdd(&h2[i], vh2[i]);
        atomicAdd(&h1[i], vh1[i]);
        atomicAdd(&b2[i], vb2[i]);
        atomicAdd(&b1[i], vb1[i]);
    }
}

// the same adds as the atom.add.noftz.bf16x2/.bf16 that atomicAdd emits
// for sm_90 targets (inline PTX: sm_75's atomicAdd is a CAS loop), and
// red.add.noftz.f16x2 (an atomic whose result is unused)
__global__ void seq_native(unsigned *b2, unsigned short *b1, const unsigned *vb2,
                           const unsigned short *vb1, unsigned *h2, const unsigned *vh2,
                           unsigned *old)
{
    for (int i = 0; i < NV; i++) {
        unsigned o;
        unsigned short o1;
        asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;"
                     : "=r"(o) : "l"(b2 + i), "r"(vb2[i]) : "memory");
        asm volatile("atom.global.add.noftz.bf16 %0, [%1], %2;"
                     : "=h"(o1) : "l"(b1 + i), "h"(vb1[i]) : "memory");
        asm volatile("red.global.add.noftz.f16x2 [%0], %1;" :: "l"(h2 + i), "r"(vh2[i])
                     : "memory");
        old[i] = o ^ o1;
    }
}

// every thread adds 1 (and 2 to the high half) to one of 4 counters, in
// global memory and in shared memory
__global__ void many(__half2 *g2, __half *g1, __nv_bfloat162 *gb2, __half2 *sout)
{
    __shared__ __half2 s2[4];
    if (threadIdx.x < 4)
        s2[threadIdx.x] = __halves2half2(__float2half(0.f), __float2half(0.f));
    __syncthreads();
    int k = threadIdx.x & 3;
    __half2 one = __halves2half2(__float2half(1.f), __float2half(2.f));
    atomicAdd(&g2[k], one);
    atomicAdd(&g1[k], __float2half(1.f));
    atomicAdd(&gb2[k], __floats2bfloat162_rn(1.f, 2.f));
    atomicAdd(&s2[k], one);
    __syncthreads();
    if (threadIdx.x < 4)
        atomicAdd(&sout[threadIdx.x], s2[threadIdx.x]);
}

static __half H(float f) { return __float2half_rn(f); }
static __nv_bfloat16 B(float f) { return __float2bfloat16_rn(f); }
static unsigned short bits(__half h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static unsigned short bits(__nv_bfloat16 h) { unsigned short u; memcpy(&u, &h, 2); return u; }
static __half hbits(unsigned short u) { __half h; memcpy(&h, &u, 2); return h; }
// the host reference: the exact sum rounded once (an f32 sum of two
// 16-bit floats rounds the same, 24 >= 2 x 11 + 2 bits)
static __half hadd(__half a, __half b) { return H(__half2float(a) + __half2float(b)); }
static __nv_bfloat16 badd(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return B(__bfloat162float(a) + __bfloat162float(b));
}

int main()
{
    // (start, addend) pairs: ties to even, a subnormal sum, overflow, NaN,
    // signed zeros, cancellation
    const float sub = 5.9604645e-8f;        // 2^-24, the least f16 subnormal
    float a0[NV] = { 2048, 2048, 1, 1, sub, 65504, 65504, 0, -0.f, 3, -1, 1e30f };
    float a1[NV] = { 1, 3, 0.00048828125f, 0.00146484375f, sub, 16, 8, -0.f, -0.f, -3,
                     0.333f, 1e30f };
    __half2 h2[NV], vh2[NV], old[NV];
    __half h1[NV], vh1[NV];
    __nv_bfloat162 b2[NV], vb2[NV];
    __nv_bfloat16 b1[NV], vb1[NV];
    for (int i = 0; i < NV; i++) {
        // the high halves get the pairs in the other order, and index 7 a NaN
        h2[i] = __halves2half2(H(a0[i]), H(i == 7 ? NAN : a1[i]));
        vh2[i] = __halves2half2(H(a1[i]), H(a0[i]));
        h1[i] = H(a0[i]);
        vh1[i] = H(a1[i]);
        // bf16: the same values scaled into its ties (8 bits: 256 + 1)
        float s = i < 2 ? 1.f / 8 : 1.f;
        b2[i] = __floats2bfloat162_rn(a0[i] * s, a1[i]);
        vb2[i] = __floats2bfloat162_rn(a1[i], a0[i] * s);
        b1[i] = B(a0[i] * s);
        vb1[i] = B(a1[i]);
    }
    __half2 *d_h2, *d_vh2, *d_old;
    __half *d_h1, *d_vh1;
    __nv_bfloat162 *d_b2, *d_vb2;
    __nv_bfloat16 *d_b1, *d_vb1;
    CK(cudaMalloc(&d_h2, sizeof h2)); CK(cudaMalloc(&d_vh2, sizeof vh2));
    CK(cudaMalloc(&d_old, sizeof old));
    CK(cudaMalloc(&d_h1, sizeof h1)); CK(cudaMalloc(&d_vh1, sizeof vh1));
    CK(cudaMalloc(&d_b2, sizeof b2)); CK(cudaMalloc(&d_vb2, sizeof vb2));
    CK(cudaMalloc(&d_b1, sizeof b1)); CK(cudaMalloc(&d_vb1, sizeof vb1));
    CK(cudaMemcpy(d_h2, h2, sizeof h2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vh2, vh2, sizeof vh2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_h1, h1, sizeof h1, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vh1, vh1, sizeof vh1, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b2, b2, sizeof b2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vb2, vb2, sizeof vb2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b1, b1, sizeof b1, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_vb1, vb1, sizeof vb1, cudaMemcpyHostToDevice));
    seq<<<1, 1>>>(d_h2, d_h1, d_b2, d_b1, d_vh2, d_vh1, d_vb2, d_vb1, d_old);
    CK(cudaGetLastError());
    __half2 r2[NV], ro[NV];
    __half r1[NV];
    __nv_bfloat162 rb2[NV];
    __nv_bfloat16 rb1[NV];
    CK(cudaMemcpy(r2, d_h2, sizeof r2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ro, d_old, sizeof ro, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r1, d_h1, sizeof r1, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rb2, d_b2, sizeof rb2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rb1, d_b1, sizeof rb1, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        __half wl = hadd(h2[i].x, vh2[i].x), wh = hadd(h2[i].y, vh2[i].y);
        if (i == 7)
            wh = hbits(0x7fff);     // a NaN sum: the canonical NaN
        EXPECT(bits(r2[i].x) == bits(wl) && bits(r2[i].y) == bits(wh),
               "f16x2[%d]: %04x %04x, want %04x %04x", i, bits(r2[i].x), bits(r2[i].y),
               bits(wl), bits(wh));
        EXPECT(bits(ro[i].x) == bits(h2[i].x) && bits(ro[i].y) == bits(h2[i].y),
               "f16x2[%d] old value %04x %04x", i, bits(ro[i].x), bits(ro[i].y));
        __half w1 = hadd(h1[i], vh1[i]);
        EXPECT(bits(r1[i]) == bits(w1), "f16[%d]: %04x, want %04x", i, bits(r1[i]), bits(w1));
        __nv_bfloat16 bl = badd(b2[i].x, vb2[i].x), bh = badd(b2[i].y, vb2[i].y);
        EXPECT(bits(rb2[i].x) == bits(bl) && bits(rb2[i].y) == bits(bh),
               "bf16x2[%d]: %04x %04x, want %04x %04x", i, bits(rb2[i].x), bits(rb2[i].y),
               bits(bl), bits(bh));
        __nv_bfloat16 w = badd(b1[i], vb1[i]);
        EXPECT(bits(rb1[i]) == bits(w), "bf16[%d]: %04x, want %04x", i, bits(rb1[i]),
               bits(w));
    }
    // the native bf16 atomics and red.f16x2, from the same start values
    CK(cudaMemcpy(d_h2, h2, sizeof h2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b2, b2, sizeof b2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b1, b1, sizeof b1, cudaMemcpyHostToDevice));
    seq_native<<<1, 1>>>((unsigned *)d_b2, (unsigned short *)d_b1, (const unsigned *)d_vb2,
                         (const unsigned short *)d_vb1, (unsigned *)d_h2,
                         (const unsigned *)d_vh2, (unsigned *)d_old);
    CK(cudaGetLastError());
    __half2 n2[NV];
    __nv_bfloat162 nb2[NV];
    __nv_bfloat16 nb1[NV];
    CK(cudaMemcpy(n2, d_h2, sizeof n2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(nb2, d_b2, sizeof nb2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(nb1, d_b1, sizeof nb1, cudaMemcpyDeviceToHost));
    for (int i = 0; i < NV; i++) {
        EXPECT(!memcmp(&n2[i], &r2[i], sizeof n2[i]), "red.f16x2[%d] differs from atom", i);
        EXPECT(!memcmp(&nb2[i], &rb2[i], sizeof nb2[i]) && bits(nb1[i]) == bits(rb1[i]),
               "native bf16 atomics[%d]: %04x %04x %04x, want %04x %04x %04x", i,
               bits(nb2[i].x), bits(nb2[i].y), bits(nb1[i]), bits(rb2[i].x),
               bits(rb2[i].y), bits(rb1[i]));
    }
    // the cases the table is there for, spelled out
    EXPECT(bits(r1[0]) == bits(H(2048)) && bits(r1[1]) == bits(H(2052)),
           "ties to even at 2048: %g %g", __half2float(r1[0]), __half2float(r1[1]));
    EXPECT(bits(r1[4]) == 0x0002, "subnormal sum %04x (flushed?)", bits(r1[4]));
    EXPECT(bits(r1[5]) == 0x7c00 && bits(r1[6]) == 0x7bff, "overflow %04x, %04x",
           bits(r1[5]), bits(r1[6]));

    // atomicity: 256 threads x 4 counters
    const int nt = 256;
    __half2 *d_g2, *d_s;
    __half *d_g1;
    __nv_bfloat162 *d_gb2;
    CK(cudaMalloc(&d_g2, 4 * sizeof(__half2)));
    CK(cudaMalloc(&d_s, 4 * sizeof(__half2)));
    CK(cudaMalloc(&d_g1, 4 * sizeof(__half)));
    CK(cudaMalloc(&d_gb2, 4 * sizeof(__nv_bfloat162)));
    CK(cudaMemset(d_g2, 0, 4 * sizeof(__half2)));
    CK(cudaMemset(d_s, 0, 4 * sizeof(__half2)));
    CK(cudaMemset(d_g1, 0, 4 * sizeof(__half)));
    CK(cudaMemset(d_gb2, 0, 4 * sizeof(__nv_bfloat162)));
    many<<<3, nt>>>(d_g2, d_g1, d_gb2, d_s);
    CK(cudaGetLastError());
    __half2 g2[4], s2[4];
    __half g1[4];
    __nv_bfloat162 gb2[4];
    CK(cudaMemcpy(g2, d_g2, sizeof g2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(s2, d_s, sizeof s2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(g1, d_g1, sizeof g1, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gb2, d_gb2, sizeof gb2, cudaMemcpyDeviceToHost));
    float want = 3.f * nt / 4;      // 192 per counter: exact in every format
    for (int k = 0; k < 4; k++) {
        EXPECT(__half2float(g2[k].x) == want && __half2float(g2[k].y) == 2 * want,
               "global f16x2 counter %d: %g %g", k, __half2float(g2[k].x),
               __half2float(g2[k].y));
        EXPECT(__half2float(s2[k].x) == want && __half2float(s2[k].y) == 2 * want,
               "shared f16x2 counter %d: %g %g", k, __half2float(s2[k].x),
               __half2float(s2[k].y));
        EXPECT(__half2float(g1[k]) == want, "f16 counter %d: %g", k, __half2float(g1[k]));
        EXPECT(__bfloat162float(gb2[k].x) == want && __bfloat162float(gb2[k].y) == 2 * want,
               "bf16x2 counter %d: %g %g", k, __bfloat162float(gb2[k].x),
               __bfloat162float(gb2[k].y));
    }
    return ck_done();
}
