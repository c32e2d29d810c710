// bindless texture fetch and 2-D grid
__global__ void texFetch(cudaTextureObject_t t, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float4>(t, i);
}
struct P { int a; float b; double c; };
__global__ void __launch_bounds__(128, 2) byValue(P p, float *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * w + x] = p.a + p.b + (float)p.c;
}
