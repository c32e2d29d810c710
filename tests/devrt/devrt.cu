// Kernels of the device-runtime tests (tests/unit/test_devrt.c): printf,
// assert, device malloc/free/new/delete, function pointers and virtual
// functions, as CUDA code uses them. PTX: nvcc -ptx -arch=sm_75 -O3
// (tools/make-ptx.sh does not cover tests/; regenerate by hand:
//  nvcc -ptx -arch=sm_75 -O3 -o tests/devrt/devrt.ptx tests/devrt/devrt.cu).
#include <cstdio>
#include <cassert>

__global__ void printf_all(const char *s, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) {
        printf("t%d i=%i u=%u x=%x X=%X o=%o c=%c s=%s\n", t, -t, 4000000000u, 255 + t, 0xabcu, 8, 'A' + t, s);
        printf("%5d|%-5d|%05d|%+d|% d|%.3d|%*d|%-*.*d|\n", t, t, t, t, t, t, 6, t, 7, 4, t);
        printf("%f %F %e %E %g %G %a %A\n", 1.5f * t, 2.25, 123456.789, -0.000123, 0.0001, 1e20, 1.0, -0.5);
        printf("%.2f %10.4e %-12g| %#x %#o %%\n", 3.14159, 2.5e-10, 100000.0, 255, 8);
        printf("hh=%hhd h=%hd l=%ld ll=%lld llu=%llu lx=%lx\n", (signed char)-3, (short)-300, -5000000000L, -7LL, 18446744073709551615ULL, 0xdeadbeefcafeULL);
        printf("p=%p nan=%f inf=%f ninf=%e\n", (void *)0x1234, __int_as_float(0x7fc00000), __int_as_float(0x7f800000), -__int_as_float(0x7f800000));
    }
}

__global__ void printf_order(int reps)
{
    for (int r = 0; r < reps; r++)
        printf("b%d t%d r%d\n", blockIdx.x, threadIdx.x, r);
}

__global__ void printf_ret(int *out)
{
    out[threadIdx.x] = printf("a %d %d %s\n", 1, 2, "x");
}

__global__ void assert_kernel(const int *a, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    assert(a[t] < n);
}

struct node { int v; node *next; };

__global__ void list_kernel(int *out, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    node *head = nullptr;
    for (int i = 0; i < n; i++) {
        node *x = new node;
        if (!x) { out[t] = -1; return; }
        x->v = t * 100 + i;
        x->next = head;
        head = x;
    }
    int s = 0;
    while (head) {
        node *nx = head->next;
        s += head->v;
        delete head;
        head = nx;
    }
    out[t] = s;
}

__global__ void malloc_kernel(int **ptrs, int bytes)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    int *p = (int *)malloc(bytes);
    if (p) p[0] = t;
    ptrs[t] = p;
}

__global__ void free_kernel(int **ptrs, int *out)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    out[t] = ptrs[t] ? ptrs[t][0] : -1;
    free(ptrs[t]);
}

__global__ void bad_free(int *p)
{
    free(p + threadIdx.x);
}

typedef int (*binop)(int, int);
__device__ int op_add(int a, int b) { return a + b; }
__device__ int op_sub(int a, int b) { return a - b; }
__device__ int op_mul(int a, int b) { return a * b; }
__device__ int op_xor(int a, int b) { return a ^ b; }
__device__ binop optab[4] = { op_add, op_sub, op_mul, op_xor };

__global__ void fptr_kernel(const int *a, const int *b, int *c, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) {
        binop f = optab[(a[t] ^ t) & 3];
        c[t] = f(a[t], b[t]);
    }
}

struct shape {
    __device__ virtual float area() const = 0;
    __device__ virtual int sides() const { return 0; }
    __device__ virtual ~shape() {}
};
struct square : shape {
    float s;
    __device__ square(float x) : s(x) {}
    __device__ float area() const override { return s * s; }
    __device__ int sides() const override { return 4; }
};
struct circle : shape {
    float r;
    __device__ circle(float x) : r(x) {}
    __device__ float area() const override { return 3.0f * r * r; }
};

__global__ void virt_kernel(const float *x, float *area, int *sides, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) {
        shape *s;
        if (t % 3 == 0) s = new square(x[t]);
        else s = new circle(x[t]);
        area[t] = s->area();
        sides[t] = s->sides();
        delete s;
    }
}

__global__ void switch_kernel(const int *a, int *c, int n)
{
    int t = threadIdx.x + blockIdx.x * blockDim.x;
    if (t < n) {
        int r;
        switch (a[t]) {
        case 0: r = 11; break;
        case 1: r = a[t] * 7 + 3; break;
        case 2: r = t - 5; break;
        case 3: r = t * t; break;
        case 4: r = 1234; break;
        case 5: r = t ^ 0x55; break;
        case 6: r = -t; break;
        case 7: r = t + 1000; break;
        default: r = 0; break;
        }
        c[t] = r;
    }
}

// more than 6 arguments: a direct call and calls through a table
__device__ __noinline__ int sum8(int a, int b, int c, int d, int e, int f, int g, int h)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
__device__ __noinline__ int alt8(int a, int b, int c, int d, int e, int f, int g, int h)
{
    return a - b + c - d + e - f + g - h * 3;
}
typedef int (*fn8)(int, int, int, int, int, int, int, int);
__device__ fn8 tab8[2] = { sum8, alt8 };

__global__ void many_args(const int *x, int *out)
{
    int t = threadIdx.x;
    int v = x[t];
    out[t] = tab8[t & 1](v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7) +
             100 * sum8(t, 1, 2, 3, 4, 5, 6, v);
}

// a function pointer table in constant memory
__constant__ binop ctab[2] = { op_mul, op_sub };

__global__ void const_fptr(const int *a, int *c)
{
    int t = threadIdx.x;
    c[t] = ctab[t & 1](a[t], 3);
}
