// Hash join of S with R on a 32-bit key (R's keys unique). The table is
// open addressing with linear probing over 64-bit entries
// (key << 32 | payload), empty = all ones. It is split into regions of
// HJ_REGION slots; a key's home slot is hash & mask and its probe sequence
// wraps inside the home slot's region. R arrives partitioned by region
// (the host groups the tuples, keeping their order), and one warp builds
// one region, so every atomicCAS on a region comes from the same warp and
// its returned value (and so each thread's path and the table) does not
// depend on how warps interleave.
//   hj_build: one warp per region; each lane takes every 32nd tuple of the
//             region and claims the first empty slot of its probe sequence
//             with atomicCAS(slot, empty, entry).
//   hj_probe: one thread per S tuple walks its probe sequence until it
//             finds its key (writes the payload) or an empty slot (-1).
// Irregular and fine-grained: hash slots are random, so the lanes of a warp
// touch up to 32 unrelated lines per probe step and use 8 bytes of each;
// chains have different lengths, so lanes leave the loop at different trips.

#define HJ_EMPTY 0xffffffffffffffffull
#define HJ_REGION 256u

__device__ __forceinline__ unsigned hj_hash(unsigned key)
{
    key ^= key >> 16;
    key *= 0x7feb352du;
    key ^= key >> 15;
    key *= 0x846ca68bu;
    key ^= key >> 16;
    return key;
}

__device__ __forceinline__ unsigned hj_next(unsigned s)
{
    return (s & ~(HJ_REGION - 1)) | ((s + 1) & (HJ_REGION - 1));
}

extern "C" __global__ void hj_build(const unsigned *rkey, const int *rpay,
                                    const int *rbeg,
                                    unsigned long long *table, unsigned mask,
                                    int nregions)
{
    int region = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (region >= nregions)
        return;
    int end = rbeg[region + 1];
    for (int i = rbeg[region] + lane; i < end; i += 32) {
        unsigned k = rkey[i];
        unsigned long long e = ((unsigned long long)k << 32) | (unsigned)rpay[i];
        unsigned s = hj_hash(k) & mask;
        while (atomicCAS(&table[s], HJ_EMPTY, e) != HJ_EMPTY)
            s = hj_next(s);
    }
}

extern "C" __global__ void hj_probe(const unsigned *skey,
                                    const unsigned long long *table,
                                    unsigned mask, int *out, int ns)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ns)
        return;
    unsigned k = skey[i];
    unsigned s = hj_hash(k) & mask;
    int r = -1;
    for (;;) {
        unsigned long long t = table[s];
        if (t == HJ_EMPTY)
            break;
        if ((unsigned)(t >> 32) == k) {
            r = (int)(unsigned)t;
            break;
        }
        s = hj_next(s);
    }
    out[i] = r;
}
