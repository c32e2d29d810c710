// ub_alu: pipeline latency and throughput (tools/correlate.py).
//   alu_dep   one thread, 4096 dependent fma.rn.f32: cycles / 4096 = the
//             dependent-issue interval of an ALU instruction
//   sfu_dep   one thread, 1024 dependent sin.approx.f32 (SFU)
//   alu_tput  every SM full of warps, 4 independent FMA chains each:
//             the SMs' ALU issue throughput (IPC)
//   sfu_tput  the same with sin.approx.f32: SFU throughput
//   idiv_dep  one thread, 256 dependent div.u32 (a divisor from a parameter)
//   fdiv_dep  one thread, 256 dependent div.rn.f32
// The host checks every result against the same arithmetic on the CPU
// (alu_dep exactly, alu_tput to 1e-5 relative: a simulator may round a
// fused multiply-add twice; __sinf is checked for finiteness only).
#include <cmath>
#include <cstdio>

__global__ void alu_dep(float a, float b, unsigned n, float *out)
{
    float x = (float)threadIdx.x;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++)
            x = fmaf(x, a, b);
    }
    out[threadIdx.x] = x;
}

__global__ void sfu_dep(unsigned n, float *out)
{
    float x = 0.5f + threadIdx.x;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++)
            x = __sinf(x) + 1.0f;
    }
    out[threadIdx.x] = x;
}

__global__ void alu_tput(float a, float b, unsigned n, float *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = t, x1 = t + 1, x2 = t + 2, x3 = t + 3;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b);
            x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
        }
    }
    out[t] = x0 + x1 + x2 + x3;
}

__global__ void sfu_tput(unsigned n, float *out)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = t, x1 = t + 1, x2 = t + 2, x3 = t + 3;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 4; k++) {
            x0 = __sinf(x0); x1 = __sinf(x1); x2 = __sinf(x2); x3 = __sinf(x3);
        }
    }
    out[t] = x0 + x1 + x2 + x3;
}

__global__ void idiv_dep(unsigned d, unsigned n, unsigned *out)
{
    unsigned x = 0xffffffffu - threadIdx.x;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++)
            x = x / d + 0x80000000u;
    }
    out[threadIdx.x] = x;
}

__global__ void fdiv_dep(float d, unsigned n, float *out)
{
    float x = 1.0f + threadIdx.x;
    for (unsigned i = 0; i < n; i++) {
#pragma unroll
        for (int k = 0; k < 16; k++)
            x = x / d + 1.0f;
    }
    out[threadIdx.x] = x;
}

static float cpu_dep(float x, float a, float b, unsigned n)
{
    for (unsigned i = 0; i < n * 16; i++)
        x = fmaf(x, a, b);
    return x;
}

static float cpu_tput(unsigned t, float a, float b, unsigned n)
{
    float x0 = t, x1 = t + 1, x2 = t + 2, x3 = t + 3;
    for (unsigned i = 0; i < n * 8; i++) {
        x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b);
        x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
    }
    return x0 + x1 + x2 + x3;
}

int main()
{
    const float a = 0.999f, b = 0.25f;
    const unsigned grid = 60, block = 256, nt = grid * block;
    float *d, *h = new float[nt];
    int fails = 0;
    cudaMalloc(&d, nt * sizeof(float));
    alu_dep<<<1, 1>>>(a, b, 256, d);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    if (h[0] != cpu_dep(0.0f, a, b, 256)) { printf("FAIL ub_alu alu_dep\n"); fails++; }
    sfu_dep<<<1, 1>>>(64, d);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    if (!std::isfinite(h[0])) { printf("FAIL ub_alu sfu_dep\n"); fails++; }
    alu_tput<<<grid, block>>>(a, b, 8, d);
    cudaMemcpy(h, d, nt * sizeof(float), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t += 97)
        if (std::fabs(h[t] - cpu_tput(t, a, b, 8)) > 1e-5f * std::fabs(cpu_tput(t, a, b, 8))) { printf("FAIL ub_alu alu_tput %u\n", t); fails++; break; }
    sfu_tput<<<grid, block>>>(4, d);
    cudaMemcpy(h, d, nt * sizeof(float), cudaMemcpyDeviceToHost);
    for (unsigned t = 0; t < nt; t++)
        if (!std::isfinite(h[t])) { printf("FAIL ub_alu sfu_tput %u\n", t); fails++; break; }
    unsigned hu = 0, xu = 0xffffffffu;
    idiv_dep<<<1, 1>>>(3u, 16, (unsigned *)d);
    cudaMemcpy(&hu, d, 4, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < 16 * 16; i++)
        xu = xu / 3u + 0x80000000u;
    if (hu != xu) { printf("FAIL ub_alu idiv_dep\n"); fails++; }
    float xf = 1.0f;
    fdiv_dep<<<1, 1>>>(1.5f, 16, d);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    for (unsigned i = 0; i < 16 * 16; i++)
        xf = xf / 1.5f + 1.0f;
    if (std::fabs(h[0] - xf) > 1e-5f * std::fabs(xf)) { printf("FAIL ub_alu fdiv_dep\n"); fails++; }
    cudaFree(d);
    delete[] h;
    if (!fails)
        printf("PASS ub_alu\n");
    return fails ? 1 : 0;
}
