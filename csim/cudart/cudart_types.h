/* The CUDA runtime ABI that programs built with nvcc 13 (-cudart shared)
 * bind to: the types, values and struct layouts of the calls
 * libcudart.so.13 implements, written out here so the library builds
 * without a CUDA installation. Layouts are those of CUDA 13.0's
 * driver_types.h / texture_types.h (tests/cuda/layout.c compares them
 * field by field where nvcc is installed). */
#ifndef CUDART_TYPES_H
#define CUDART_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int cudaError_t;          /* enum cudaError */
typedef struct cudart_stream *cudaStream_t;
typedef struct cudart_event *cudaEvent_t;
typedef struct cudart_graph *cudaGraph_t;       /* cudart_graph.c */
typedef struct cudart_node *cudaGraphNode_t;
typedef struct cudart_gexec *cudaGraphExec_t;
typedef void (*cudaHostFn_t)(void *user);
typedef void *cudaKernel_t;       /* here: the registered host stub */
typedef unsigned long long cudaTextureObject_t;
typedef struct cudart_array *cudaArray_t;       /* cudart_array.c */
typedef struct cudart_mipmap *cudaMipmappedArray_t;
typedef struct cudart_pool *cudaMemPool_t;      /* cudart_pool.c */
typedef unsigned long long cudaSurfaceObject_t;

typedef struct dim3 { unsigned x, y, z; } dim3;

enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidPtx = 218,
    cudaErrorFileNotFound = 301,
    cudaErrorSharedObjectSymbolNotFound = 302,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorGraphExecUpdateFailure = 910,
    cudaErrorUnknown = 999
};

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
    int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA;
    int maxDynamicSharedSizeBytes, preferredShmemCarveout;
    int clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight;
    int requiredClusterDepth, clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

struct cudaChannelFormatDesc { int x, y, z, w; int f; };
enum { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
       cudaChannelFormatKindFloat = 2 };
enum { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
       cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };

struct cudaResourceDesc {
    int resType;
    union {
        struct { cudaArray_t array; } array;
        struct { cudaMipmappedArray_t mipmap; } mipmap;
        struct { void *devPtr; struct cudaChannelFormatDesc desc;
                 size_t sizeInBytes; } linear;
        struct { void *devPtr; struct cudaChannelFormatDesc desc;
                 size_t width, height, pitchInBytes; } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned flags;
};

struct cudaExtent { size_t width, height, depth; };
struct cudaPos { size_t x, y, z; };
struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; };
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    int kind;                   /* enum cudaMemcpyKind */
};

struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned value, elementSize;
    size_t width, height;
};
struct cudaHostNodeParams { cudaHostFn_t fn; void *userData; };
struct cudaGraphEdgeData { unsigned char from_port, to_port, type, reserved[5]; };
typedef unsigned long long cudaGraphConditionalHandle;
/* cudaMemPoolProps (CUDA 13: 88 bytes) and a graph memory node's parameters */
struct cudaMemPoolProps {
    int allocType, handleTypes;
    struct { int type, id; } location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const void *accessDescs;    /* const struct cudaMemAccessDesc * */
    size_t accessDescCount, bytesize;
    void *dptr;                 /* out */
};
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    int type;                   /* enum cudaGraphConditionalNodeType */
    unsigned size;
    cudaGraph_t *phGraph_out;   /* out: the runtime's body graphs */
};
/* cudaGraphAddNode's parameters (CUDA 12.2+): 256 bytes, a union by type */
struct cudaGraphNodeParams {
    int type;                   /* enum cudaGraphNodeType */
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParams kernel;         /* cudaKernelNodeParamsV2 */
        struct { int flags, reserved[3]; struct cudaMemcpy3DParms copyParams; } memcpy;
        struct cudaMemsetParams memset;             /* cudaMemsetParamsV2 */
        struct cudaHostNodeParams host;             /* cudaHostNodeParamsV2 */
        struct { cudaGraph_t graph; int ownership; } graph;
        struct { cudaEvent_t event; } eventWait, eventRecord;
        struct cudaMemAllocNodeParams alloc;        /* cudaMemAllocNodeParamsV2 */
        struct { void *dptr; } free;
        struct cudaConditionalNodeParams conditional;
    } u;
    long long reserved2;
};
_Static_assert(sizeof(struct cudaGraphNodeParams) == 256, "cudaGraphNodeParams ABI");
_Static_assert(sizeof(struct cudaMemPoolProps) == 88, "cudaMemPoolProps ABI");
struct cudaGraphExecUpdateResultInfo {
    int result;                 /* enum cudaGraphExecUpdateResult */
    cudaGraphNode_t errorNode, errorFromNode;
};

/* cudaLaunchKernelExC's configuration (cudaLaunchConfig_t) */
struct cudaLaunchAttribute {
    int id;                     /* cudaLaunchAttributeID */
    char pad[4];
    union { char pad[64]; int cooperative; } val;
};
struct cudaLaunchConfig {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    struct cudaLaunchAttribute *attrs;
    unsigned numAttrs;
};

struct cudaTextureDesc {
    int addressMode[3];
    int filterMode, readMode, sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization, seamlessCubemap;
};

/* CUDA 13's cudaDeviceProp (no clockRate: cudaDeviceGetAttribute). */
struct cudaDeviceProp {
    char name[256];
    char uuid[16];
    char luid[8];
    unsigned luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock;
    int regsPerBlock, warpSize;
    size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
    size_t totalConstMem;
    int major, minor;
    size_t textureAlignment, texturePitchAlignment;
    int multiProcessorCount, integrated, canMapHostMemory;
    int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2];
    int maxTexture2DLinear[3], maxTexture2DGather[2], maxTexture3D[3];
    int maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2];
    int maxTexture2DLayered[3], maxTextureCubemapLayered[2], maxSurface1D;
    int maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2];
    int maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID;
    int tccDriver, asyncEngineCount, unifiedAddressing, memoryBusWidth;
    int l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor, managedMemory, isMultiGpuBoard;
    int multiGpuBoardGroupID, hostNativeAtomicSupported, pageableMemoryAccess;
    int concurrentManagedAccess, computePreemptionSupported;
    int canUseHostPointerForRegisteredMem, cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported, sparseCudaArraySupported;
    int hostRegisterReadOnlySupported, timelineSemaphoreInteropSupported;
    int memoryPoolsSupported, gpuDirectRDMASupported;
    unsigned gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch;
    int unifiedFunctionPointers, deviceNumaConfig, deviceNumaId, mpsEnabled;
    int hostNumaId;
    unsigned gpuPciDeviceID, gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

#endif
