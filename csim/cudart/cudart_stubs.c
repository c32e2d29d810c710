/* Every other entry point of NVIDIA's libcudart.so.13 (cudart_stubs.def):
 * a program that calls one gets cudaErrorNotSupported and a one-line
 * message naming the call, never a missing-symbol abort or a silent
 * no-op. The stubs take no arguments: under the x86-64 SysV ABI a caller
 * passing any may call them, and every one of these calls returns a
 * cudaError_t (or nothing) in the CUDA API. */
#include <stdio.h>
#include "cudart/cudart_int.h"

static int unsupported(const char *name)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    fprintf(stderr, "lockstep cudart: %s is not supported by Lockstep's CUDA "
            "runtime (cudaErrorNotSupported; docs/cuda-programs.md lists the "
            "supported calls)\n", name);
    if (rt)
        cudart_ret(rt, cudaErrorNotSupported);
    return cudaErrorNotSupported;
}

#define CUDART_STUB(name) CUDART_API int name(void); \
    int name(void) { return unsupported(#name); }
#include "cudart/cudart_stubs.def"
#undef CUDART_STUB

/* Every implemented call of the table (cudart_api.def) by address: a row
 * naming a function the library does not define fails the link. */
#define CUDART_CALL(name, group, notes) extern const char name[];
#include "cudart/cudart_api.def"
#undef CUDART_CALL
__attribute__((used)) static const void *const implemented[] = {
#define CUDART_CALL(name, group, notes) name,
#include "cudart/cudart_api.def"
#undef CUDART_CALL
};
