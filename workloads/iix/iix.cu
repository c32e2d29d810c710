// Inverted index build: documents are lists of word ids (CSR: doc_ptr,
// words); the index gives, for every word, the list of the documents that
// contain it (a document once per occurrence). Words are grouped into
// partitions of IIX_PART consecutive ids; documents into chunks of 32 (one
// warp). Every atomic whose returned value is used touches counters that
// only one warp updates in that launch, so the returned values, and so
// every thread's path and the final memory, do not depend on how warps
// interleave (the lanes of one warp instruction apply in lane order).
//   iix_count:     one thread per document; per token atomicAdd(&count[w], 1)
//                  and atomicAdd(&pcount[part * nchunks + chunk], 1) (return
//                  values unused).
//   (host)         exclusive prefix sums: offset[w] over count, pbase over
//                  pcount in partition-major order; fill = offset,
//                  pfill = pbase.
//   iix_partition: one thread per document; per token
//                  pos = atomicAdd(&pfill[part * nchunks + chunk], 1) (only
//                  this chunk's warp touches that counter) and
//                  ptok[pos] = (word, doc).
//   iix_scatter:   one warp per partition walks its tokens (chunk order) 32
//                  at a time; slot = atomicAdd(&fill[w], 1) (only this warp
//                  owns the partition's words) and list[slot] = doc.
// Irregular and fine-grained: word ids are random, so the lanes of a warp
// update 32 unrelated counters and write into 32 unrelated posting lists,
// 4 bytes in each line; documents have different lengths, so lanes leave
// the token loop at different trips.

#define IIX_PART 256   /* words per partition */

extern "C" __global__ void iix_count(const int *doc_ptr, const int *words,
                                     unsigned *count, unsigned *pcount,
                                     int ndocs, int nchunks)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d < ndocs) {
        int chunk = d / 32, end = doc_ptr[d + 1];
        for (int t = doc_ptr[d]; t < end; t++) {
            int w = words[t];
            atomicAdd(&count[w], 1u);
            atomicAdd(&pcount[(w / IIX_PART) * nchunks + chunk], 1u);
        }
    }
}

extern "C" __global__ void iix_partition(const int *doc_ptr, const int *words,
                                         unsigned *pfill, int2 *ptok,
                                         int ndocs, int nchunks)
{
    int d = blockIdx.x * blockDim.x + threadIdx.x;
    if (d < ndocs) {
        int chunk = d / 32, end = doc_ptr[d + 1];
        for (int t = doc_ptr[d]; t < end; t++) {
            int w = words[t];
            unsigned pos = atomicAdd(&pfill[(w / IIX_PART) * nchunks + chunk], 1u);
            ptok[pos] = make_int2(w, d);
        }
    }
}

extern "C" __global__ void iix_scatter(const int2 *ptok, const unsigned *pbase,
                                       unsigned *fill, unsigned *list,
                                       int nparts, int nchunks)
{
    int part = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (part < nparts) {
        unsigned beg = pbase[part * nchunks];
        unsigned end = pbase[(part + 1) * nchunks];
        for (unsigned i = beg + lane; i < end; i += 32) {
            int2 tok = ptok[i];
            unsigned slot = atomicAdd(&fill[tok.x], 1u);
            list[slot] = (unsigned)tok.y;
        }
    }
}
