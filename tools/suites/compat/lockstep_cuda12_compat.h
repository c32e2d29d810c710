/* CUDA runtime entry points CUDA 13 removed from its headers, declared
 * again as calls to the replacements NVIDIA's documentation names, so that
 * a suite written for CUDA <= 12 builds unchanged. The toolkit shim
 * (tools/sweeplib/programs.py) includes it first when a descriptor says
 * `compat = true`; `tools/suite.py list` shows which programs need it.
 * Only functions whose replacement has the same meaning are here: removed
 * struct members (cudaDeviceProp::clockRate) and texture references have
 * none, so programs using them are listed as not building. */
#ifndef LOCKSTEP_CUDA12_COMPAT_H
#define LOCKSTEP_CUDA12_COMPAT_H
#include <cuda_runtime_api.h>

/* cudaThreadSynchronize: "deprecated ... use cudaDeviceSynchronize" */
static inline cudaError_t cudaThreadSynchronize(void)
{
    return cudaDeviceSynchronize();
}

/* cudaThreadExit: "deprecated ... use cudaDeviceReset" */
static inline cudaError_t cudaThreadExit(void)
{
    return cudaDeviceReset();
}

/* cudaThreadSetLimit / cudaThreadGetLimit: "use cudaDeviceSetLimit/GetLimit" */
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit, size_t value)
{
    return cudaDeviceSetLimit(limit, value);
}

static inline cudaError_t cudaThreadGetLimit(size_t *value, enum cudaLimit limit)
{
    return cudaDeviceGetLimit(value, limit);
}

/* cudaThreadSetCacheConfig / GetCacheConfig: "use cudaDeviceSet/GetCacheConfig" */
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config)
{
    return cudaDeviceSetCacheConfig(config);
}

static inline cudaError_t cudaThreadGetCacheConfig(enum cudaFuncCache *config)
{
    return cudaDeviceGetCacheConfig(config);
}
#endif
