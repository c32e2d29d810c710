// Barriers after some threads exited, as the PTX ISA defines them: exited
// threads count as arrived, and a warp arrives once all its non-exited
// threads wait at the barrier. Threads loop with __syncthreads() for
// different trip counts and exit when done (the threads that leave the
// loop first are parked below the looping ones on the warp's stack and
// must run to their exit for the barrier to complete); threads return
// early before a barrier; a guarded-off barrier. Results against a host
// model of the same semantics, in both modes.
#define TEST_NAME "barrier_exit"
#include "ck.h"

// iteration i: every thread still looping writes s[t], all of them meet,
// each reads its neighbour's slot (the neighbour's value of this
// iteration, or its last one if it has left), all meet again
__global__ void ragged(int *out, const int *trips)
{
    __shared__ int s[256];
    int t = threadIdx.x, n = trips[t], acc = 0;
    s[t] = -1;
    __syncthreads();
    for (int i = 0; i < n; i++) {
        s[t] = i * 1000 + t;
        __syncthreads();
        acc += s[(t + 1) % blockDim.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = acc;
}

// threads past `live` return before the barrier; the rest share through it
__global__ void early_return(int *out, int live)
{
    __shared__ int s[256];
    int t = threadIdx.x;
    if (t >= live)
        return;
    s[t] = t * 3;
    __syncthreads();
    out[t] = s[live - 1 - t];
}

int main()
{
    const int nt = 256, nb = 2;
    int trips[nt];
    for (int t = 0; t < nt; t++)        // 1..9 trips, differing within warps
        trips[t] = 1 + (t * 7 + t / 32) % 9;
    trips[5] = 0;                       // one thread never enters the loop
    int *d_trips, *d_out;
    CK(cudaMalloc(&d_trips, sizeof trips));
    CK(cudaMalloc(&d_out, nb * nt * sizeof(int)));
    CK(cudaMemcpy(d_trips, trips, sizeof trips, cudaMemcpyHostToDevice));
    ragged<<<nb, nt>>>(d_out, d_trips);
    CK(cudaGetLastError());
    int out[nb * nt];
    CK(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost));
    for (int t = 0; t < nt; t++) {
        int u = (t + 1) % nt, want = 0;
        for (int i = 0; i < trips[t]; i++)  // the neighbour's slot after barrier i
            want += i < trips[u] ? i * 1000 + u
                    : trips[u] ? (trips[u] - 1) * 1000 + u : -1;
        EXPECT(out[t] == want && out[nt + t] == want, "ragged: thread %d: %d and %d, "
               "want %d", t, out[t], out[nt + t], want);
    }
    for (int live = 1; live <= nt; live += 37) {
        CK(cudaMemset(d_out, 0xff, nt * sizeof(int)));
        early_return<<<1, nt>>>(d_out, live);
        CK(cudaGetLastError());
        CK(cudaMemcpy(out, d_out, nt * sizeof(int), cudaMemcpyDeviceToHost));
        for (int t = 0; t < nt; t++) {
            int want = t < live ? (live - 1 - t) * 3 : -1;
            EXPECT(out[t] == want, "early_return(%d): thread %d: %d, want %d", live, t,
                   out[t], want);
        }
    }
    return ck_done();
}
