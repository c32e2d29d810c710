// The kernel of tests/cuda/env (make test-cuda-env): Collatz step counts,
// data-dependent divergence in a loop plus one global load and store per
// thread, so every RTL block in the GPU loop has traffic under its
// mechanism (docs/cuda-programs.md). collatz.ptx beside it is committed:
//   nvcc -ptx -arch=sm_75 -O3 -o tests/cuda/env/collatz.ptx tests/cuda/env/collatz.cu
extern "C" __global__ void collatz(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned x = in[i], steps = 0;
    while (x != 1 && steps < 64) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    out[i] = steps;
}
