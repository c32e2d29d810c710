// Shared by the tests/cuda programs: CK(call) stops with the call, its
// line and the CUDA error; EXPECT(cond, ...) records a wrong result. Each
// program prints "PASS name" and exits 0, or "FAIL name: why" and exits 1.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

static int ck_failed;
#define CK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: line %d: %s: %s\n", TEST_NAME, __LINE__, #call, \
           cudaGetErrorName(e_)); exit(1); } } while (0)
#define EXPECT(cond, ...) do { if (!(cond)) { if (!ck_failed++) { \
    printf("FAIL %s: line %d: ", TEST_NAME, __LINE__); printf(__VA_ARGS__); \
    printf("\n"); } } } while (0)
static int ck_done(void)
{
    if (!ck_failed)
        printf("PASS %s\n", TEST_NAME);
    return ck_failed ? 1 : 0;
}
