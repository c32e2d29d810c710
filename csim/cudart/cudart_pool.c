/* Stream-ordered allocation and memory pools: cudaMallocAsync and
 * cudaMallocFromPoolAsync allocate at once (every stream runs in order),
 * from the device's default pool or one the program created; a pool keeps
 * its attributes and the bytes allocated from it (used and reserved are
 * the same: freed memory goes back to the device at once), so programs
 * that size or report their pools run. Captured into a graph, an
 * allocation is made at capture and stays the graph's for every launch
 * (a captured free releases nothing), so the graph's nodes find the same
 * memory each time (docs/cuda-programs.md). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "cudart/cudart_int.h"

#define POOL_MAGIC 0x706f6f6cu
enum { cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic,
       cudaMemPoolReuseAllowInternalDependencies, cudaMemPoolAttrReleaseThreshold,
       cudaMemPoolAttrReservedMemCurrent, cudaMemPoolAttrReservedMemHigh,
       cudaMemPoolAttrUsedMemCurrent, cudaMemPoolAttrUsedMemHigh };

struct cudart_pool {
    uint32_t magic;
    int reuse[4];               /* the three reuse flags (1..3), int      */
    uint64_t threshold;         /* cudaMemPoolAttrReleaseThreshold        */
    uint64_t used, high, reserved_high;
};

/* One live allocation of a pool. */
struct cudart_poolalloc {
    void *p;
    size_t n;
    struct cudart_pool *pool;
};

CUDART_API cudaError_t cudaMalloc(void **p, size_t n);
CUDART_API cudaError_t cudaFree(void *p);
CUDART_API cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s);
CUDART_API cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
CUDART_API cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t pool,
                                               cudaStream_t s);
CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev);
CUDART_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev);
CUDART_API cudaError_t cudaDeviceSetMemPool(int dev, cudaMemPool_t pool);
CUDART_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const void *props);
CUDART_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
CUDART_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *v);
CUDART_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *v);
CUDART_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep);
CUDART_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const void *desc, size_t n);

static struct cudart_pool *pool_new(void)
{
    struct cudart_pool *p = calloc(1, sizeof *p);
    if (p) {
        p->magic = POOL_MAGIC;
        for (int i = 1; i < 4; i++)
            p->reuse[i] = 1;    /* CUDA's defaults: every reuse allowed */
    }
    return p;
}

/* The default pool, made at first use; NULL when out of host memory. */
static struct cudart_pool *pool_default(struct cudart_rt *rt)
{
    if (!rt->pool_default)
        rt->pool_default = pool_new();
    if (!rt->pool_current)
        rt->pool_current = rt->pool_default;
    return rt->pool_default;
}

static bool pool_ok(const struct cudart_pool *p)
{
    return p && p->magic == POOL_MAGIC;
}

/* Allocates n bytes from pool (stream order holds: at once). */
static cudaError_t pool_alloc(struct cudart_rt *rt, void **p, size_t n,
                              struct cudart_pool *pool, cudaStream_t s, const char *fn)
{
    /* captured: allocated now, the graph's (cudart_gmem_add) */
    if (!p || !pool_ok(pool))
        return cudart_fail(rt, cudaErrorInvalidValue, fn, p ? "not a memory pool"
                                                            : "null pointer");
    if (rt->npalloc == rt->cappalloc) {
        size_t nc = rt->cappalloc ? rt->cappalloc * 2 : 16;
        struct cudart_poolalloc *na = realloc(rt->palloc, nc * sizeof *na);
        if (!na)
            return cudart_fail(rt, cudaErrorMemoryAllocation, fn, "out of host memory");
        rt->palloc = na;
        rt->cappalloc = nc;
    }
    cudaError_t e = cudaMalloc(p, n);
    if (e != cudaSuccess)
        return e;
    if (cudart_capturing(rt, s) && (e = cudart_gmem_add(rt, *p, n, fn)) != cudaSuccess)
        return e;
    rt->palloc[rt->npalloc++] = (struct cudart_poolalloc){ *p, n, pool };
    pool->used += n;
    if (pool->used > pool->high)
        pool->high = pool->used;
    if (pool->used > pool->reserved_high)
        pool->reserved_high = pool->used;
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool_default(rt))
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaMallocAsync",
                           "out of host memory");
    return pool_alloc(rt, p, n, rt->pool_current, s, "cudaMallocAsync");
}

cudaError_t cudaMallocFromPoolAsync(void **p, size_t n, cudaMemPool_t pool, cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    return pool_alloc(rt, p, n, pool, s, "cudaMallocFromPoolAsync");
}

cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (cudart_capturing(rt, s))
        return cudaSuccess;     /* the memory stays the graph's */
    for (size_t i = 0; p && i < rt->npalloc; i++)
        if (rt->palloc[i].p == p) {
            rt->palloc[i].pool->used -= rt->palloc[i].n;
            rt->palloc[i] = rt->palloc[--rt->npalloc];
            break;
        }
    return cudaFree(p);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int dev)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool || dev != 0)
        return cudart_fail(rt, pool ? cudaErrorInvalidDevice : cudaErrorInvalidValue,
                           "cudaDeviceGetDefaultMemPool", "device %d", dev);
    if (!(*pool = pool_default(rt)))
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaDeviceGetDefaultMemPool",
                           "out of host memory");
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int dev)
{
    cudaError_t e = cudaDeviceGetDefaultMemPool(pool, dev);
    if (e != cudaSuccess)
        return e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (rt)
        *pool = rt->pool_current;
    return e;
}

cudaError_t cudaDeviceSetMemPool(int dev, cudaMemPool_t pool)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (dev != 0 || !pool_ok(pool) || !pool_default(rt))
        return cudart_fail(rt, dev ? cudaErrorInvalidDevice : cudaErrorInvalidValue,
                           "cudaDeviceSetMemPool", "device %d, pool %p", dev, (void *)pool);
    rt->pool_current = pool;
    return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const void *props)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool || !props)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolCreate", "null pointer");
    if (!(*pool = pool_new()))
        return cudart_fail(rt, cudaErrorMemoryAllocation, "cudaMemPoolCreate",
                           "out of host memory");
    return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool_ok(pool) || pool == rt->pool_default)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolDestroy", "%s",
                           pool_ok(pool) ? "the default pool cannot be destroyed"
                                         : "not a memory pool");
    if (rt->pool_current == pool)
        rt->pool_current = rt->pool_default;
    for (size_t i = 0; i < rt->npalloc;)   /* live allocations stay valid */
        if (rt->palloc[i].pool == pool)
            rt->palloc[i] = rt->palloc[--rt->npalloc];
        else
            i++;
    pool->magic = 0;
    free(pool);
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, int attr, void *v)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool_ok(pool) || !v)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolSetAttribute",
                           "not a memory pool, or a null value");
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        pool->reuse[attr] = *(const int *)v != 0;
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold:
        pool->threshold = *(const uint64_t *)v;
        return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh: case cudaMemPoolAttrUsedMemHigh:
        if (*(const uint64_t *)v != 0)
            break;              /* CUDA: only a reset to 0 */
        if (attr == cudaMemPoolAttrUsedMemHigh)
            pool->high = pool->used;
        else
            pool->reserved_high = pool->used;
        return cudaSuccess;
    default:
        break;
    }
    return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolSetAttribute",
                       "attribute %d cannot be set to that value", attr);
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, int attr, void *v)
{
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    if (!pool_ok(pool) || !v)
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolGetAttribute",
                           "not a memory pool, or a null value");
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies:
        *(int *)v = pool->reuse[attr];
        return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *(uint64_t *)v = pool->threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:
    case cudaMemPoolAttrUsedMemCurrent: *(uint64_t *)v = pool->used; break;
    case cudaMemPoolAttrReservedMemHigh: *(uint64_t *)v = pool->reserved_high; break;
    case cudaMemPoolAttrUsedMemHigh: *(uint64_t *)v = pool->high; break;
    default:
        return cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolGetAttribute",
                           "attribute %d", attr);
    }
    return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep)
{
    (void)keep;                 /* freed memory is returned at once */
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    return pool_ok(pool) ? cudaSuccess
                         : cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolTrimTo",
                                       "not a memory pool");
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const void *desc, size_t n)
{
    (void)desc; (void)n;        /* one device: it has access */
    cudaError_t e;
    CUDART_ENTER(rt, cudart_get(&e));
    if (!rt)
        return e;
    return pool_ok(pool) ? cudaSuccess
                         : cudart_fail(rt, cudaErrorInvalidValue, "cudaMemPoolSetAccess",
                                       "not a memory pool");
}
