/* A CUDA host program built without nvcc (make test-cuda-env): what nvcc's
 * generated code does, written out. It wraps the PTX file argv[1] in a fat
 * binary (uncompressed PTX entry, the layout csim/cudart/cudart_fatbin.c
 * reads), registers it and the kernel `collatz` as nvcc's static
 * constructors would, runs the kernel over N inputs through the CUDA runtime
 * (build/libcudart.so.13, linked directly) and checks every output against
 * the CPU. Prints "sms N" (the device's SM count), then "PASS collatz" or
 * "FAIL ..." and exits 0 or 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The CUDA runtime entry points used here (the values CUDA defines). */
typedef int cudaError_t;
typedef struct { unsigned x, y, z; } dim3;
enum { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
       cudaDevAttrMultiProcessorCount = 16 };
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudaLaunchKernel(const void *fn, dim3 grid, dim3 block, void **args,
                             size_t shared, void *stream);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceGetAttribute(int *v, int attr, int dev);
const char *cudaGetErrorString(cudaError_t e);
void **__cudaRegisterFatBinary(void *fat);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *host, char *dev, const char *name,
                            int limit, void *tid, void *bid, void *bdim, void *gdim,
                            int *wsize);

#define N 1024
#define THREADS 128

/* nvcc's __fatBinC_Wrapper_t */
struct wrapper {
    uint32_t magic, version;
    const void *data;
    void *unused;
};

static void put(uint8_t *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* A fat binary with one uncompressed PTX entry for compute_75: a 16-byte
 * header, a 64-byte entry header, the NUL-padded text. */
static uint8_t *fatbin(const char *ptx, size_t len)
{
    size_t padded = (len + 8) & ~(size_t)7;
    uint8_t *fb = calloc(1, 16 + 64 + padded);
    if (!fb)
        return NULL;
    put(fb, 0xba55ed50u, 4);      /* magic */
    put(fb + 4, 1, 2);            /* version */
    put(fb + 6, 16, 2);           /* header bytes */
    put(fb + 8, 64 + padded, 8);  /* entries' bytes */
    uint8_t *e = fb + 16;
    put(e, 1, 2);                 /* kind: PTX */
    put(e + 4, 64, 4);            /* entry header bytes */
    put(e + 8, padded, 8);        /* payload bytes */
    put(e + 28, 75, 4);           /* architecture */
    memcpy(e + 64, ptx, len);
    return fb;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    *len = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[*len] = 0;
    return buf;
}

static void collatz_stub(void) {}

static unsigned cpu_steps(unsigned x)
{
    unsigned steps = 0;
    while (x != 1 && steps < 64) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    return steps;
}

#define CK(call) do { cudaError_t e_ = (call); if (e_) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

int main(int argc, char **argv)
{
    size_t len;
    char *ptx = argc > 1 ? read_file(argv[1], &len) : NULL;
    if (!ptx) {
        printf("FAIL usage: host FILE.ptx (cannot read the PTX)\n");
        return 1;
    }
    uint8_t *fb = fatbin(ptx, len);
    static struct wrapper w = { 0x466243b1u, 1, NULL, NULL };
    w.data = fb;
    void **h = __cudaRegisterFatBinary(&w);
    __cudaRegisterFunction(h, (const char *)(uintptr_t)collatz_stub, "collatz", "collatz",
                           -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("sms %d\n", sms);
    static unsigned in[N], out[N];
    for (unsigned i = 0; i < N; i++)
        in[i] = i * 2654435761u % 100000u + 1;
    void *din = NULL, *dout = NULL;
    CK(cudaMalloc(&din, sizeof in));
    CK(cudaMalloc(&dout, sizeof out));
    CK(cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice));
    int n = N;
    void *args[] = { &din, &dout, &n };
    dim3 grid = { N / THREADS, 1, 1 }, block = { THREADS, 1, 1 };
    CK(cudaLaunchKernel((const void *)(uintptr_t)collatz_stub, grid, block, args, 0, NULL));
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    for (unsigned i = 0; i < N; i++)
        if (out[i] != cpu_steps(in[i])) {
            printf("FAIL collatz: out[%u] = %u, want %u\n", i, out[i], cpu_steps(in[i]));
            return 1;
        }
    CK(cudaFree(din));
    CK(cudaFree(dout));
    printf("PASS collatz\n");
    free(fb);
    free(ptx);
    return 0;
}
