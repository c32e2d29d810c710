// The three kinds of long run the runtime is profiled on: a CUB block
// scan (BlockLoad/BlockScan/BlockStore, launched repeatedly), a kernel of
// math library functions (sinf, expf, powf, erff, lgammaf, double sin
// and pow: long device-function code with local-memory tables), and a
// small CUDA graph launched many times. Results are checked on the host.
// The size argument scales the work; run.sh runs it small in both modes
// and large with LOCKSTEP_PROGRESS=1 to see the progress line.
// usage: longrun [SCALE]
#define TEST_NAME "longrun"
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cmath>
#include "ck.h"

const int BT = 128, IT = 4;

__global__ void scan(const int *in, int *out)
{
    typedef cub::BlockLoad<int, BT, IT, cub::BLOCK_LOAD_WARP_TRANSPOSE> Load;
    typedef cub::BlockStore<int, BT, IT, cub::BLOCK_STORE_WARP_TRANSPOSE> Store;
    typedef cub::BlockScan<int, BT> Scan;
    __shared__ union {
        typename Load::TempStorage l;
        typename Store::TempStorage s;
        typename Scan::TempStorage c;
    } tmp;
    int d[IT], off = blockIdx.x * BT * IT;
    Load(tmp.l).Load(in + off, d);
    __syncthreads();
    Scan(tmp.c).InclusiveSum(d, d);
    __syncthreads();
    Store(tmp.s).Store(out + off, d);
}

__global__ void maths(const float *x, float *y, double *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = sinf(v) + expf(-0.01f * v) + powf(v, 1.37f) + erff(0.1f * v) +
               lgammaf(0.01f * v + 1.0f);
        double d = v;
        z[i] = sin(d) * pow(d, 0.5);
    }
}

__global__ void axpb(float *x, float a, float b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

int main(int argc, char **argv)
{
    int scale = argc > 1 ? atoi(argv[1]) : 1;
    // CUB block scan, 8 blocks, 4 x scale launches
    const int ns = 8 * BT * IT;
    int *hi = new int[ns], *ho = new int[ns], *din, *dout;
    for (int i = 0; i < ns; i++)
        hi[i] = i % 13 - 6;
    CK(cudaMalloc(&din, ns * sizeof(int)));
    CK(cudaMalloc(&dout, ns * sizeof(int)));
    CK(cudaMemcpy(din, hi, ns * sizeof(int), cudaMemcpyHostToDevice));
    for (int r = 0; r < 4 * scale; r++)
        scan<<<8, BT>>>(din, dout);
    CK(cudaMemcpy(ho, dout, ns * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < 8; b++) {
        int acc = 0;
        for (int i = 0; i < BT * IT; i++) {
            acc += hi[b * BT * IT + i];
            EXPECT(ho[b * BT * IT + i] == acc, "scan block %d item %d: %d, want %d", b, i,
                   ho[b * BT * IT + i], acc);
        }
    }
    // math functions on 512 x scale values
    const int nm = 512 * scale;
    float *hx = new float[nm], *hy = new float[nm], *x, *y;
    double *hz = new double[nm], *z;
    for (int i = 0; i < nm; i++)
        hx[i] = 0.37f * (float)(i % 1000) + 0.01f;
    CK(cudaMalloc(&x, nm * sizeof(float)));
    CK(cudaMalloc(&y, nm * sizeof(float)));
    CK(cudaMalloc(&z, nm * sizeof(double)));
    CK(cudaMemcpy(x, hx, nm * sizeof(float), cudaMemcpyHostToDevice));
    maths<<<(nm + 127) / 128, 128>>>(x, y, z, nm);
    CK(cudaMemcpy(hy, y, nm * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hz, z, nm * sizeof(double), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nm; i += 7) {
        double v = hx[i];
        double want = sin(v) + exp(-0.01 * v) + pow(v, 1.37) + erf(0.1 * v) +
                      lgamma(0.01 * v + 1.0), wz = sin(v) * pow(v, 0.5);
        EXPECT(fabs(hy[i] - want) <= 1e-5 * (fabs(want) + 1) &&
               fabs(hz[i] - wz) <= 1e-12 * (fabs(wz) + 1),
               "maths(%g): %.9g %.17g, want %.9g %.17g", v, hy[i], hz[i], want, wz);
    }
    // a graph of three kernels launched 10 x scale times
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    for (int i = 0; i < nm; i++)            // integers: every step exact
        hx[i] = (float)(i % 1000);
    CK(cudaMemcpy(x, hx, nm * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    axpb<<<(nm + 127) / 128, 128, 0, s>>>(x, 1.0f, 1.0f, nm);
    axpb<<<(nm + 127) / 128, 128, 0, s>>>(x, 2.0f, 0.0f, nm);
    axpb<<<(nm + 127) / 128, 128, 0, s>>>(x, 0.5f, -1.0f, nm);
    cudaGraph_t g;
    CK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ge;
    CK(cudaGraphInstantiate(&ge, g, 0));
    for (int r = 0; r < 10 * scale; r++)     // each run: x = x (exact in floats)
        CK(cudaGraphLaunch(ge, s));
    CK(cudaStreamSynchronize(s));
    CK(cudaMemcpy(hy, x, nm * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < nm; i++)
        EXPECT(hy[i] == hx[i], "graph: x[%d] = %g, want %g", i, hy[i], hx[i]);
    return ck_done();
}
