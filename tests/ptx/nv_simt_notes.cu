// The example kernel of simt-stack-reconvergence-notes.txt.
__device__ int *a, *b, *c;
__global__ void kern()
{
    int t = threadIdx.x;
    if (t < 5) {
        a[t] = 1;
        b[t] = 2;
        c[t] = 3;
    } else {
        a[t + 6] = 5;
        b[t + 6] = 7;
        c[t + 6] = 9;
    }
    a[6] = 99;
}
