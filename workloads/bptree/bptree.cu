// B+ tree search: a static B+ tree of fanout 16 (built on the host from
// seeded keys) answers one query per thread. A node is 32 ints (128 bytes,
// one cache line): keys[16] then child[16] (internal nodes: 15 separators,
// padded with INT_MAX, and up to 16 child node indices; leaves: up to 16
// keys, padded with INT_MAX, and their values). At an internal node the
// thread takes child[i], i = the number of separators <= q; at the leaf it
// returns the value of the key equal to q, or -1 (a miss).
// Irregular and fine-grained: below the root the 32 lanes of a warp are in
// up to 32 different nodes, so each key load touches up to 32 lines and
// uses 4 bytes of each; a leaf's value is one more 4-byte access, taken
// only by the lanes that hit.

#define BPT_FAN 16

extern "C" __global__ void bptree_search(const int *nodes, int root,
                                         int height, const int *queries,
                                         int *result, int nq)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nq)
        return;
    int q = queries[i];
    const int *node = nodes + (size_t)root * 2 * BPT_FAN;
    for (int level = 0; level < height; level++) {
        int c = 0;
        for (int k = 0; k < BPT_FAN - 1; k++)
            c += q >= node[k];
        node = nodes + (size_t)node[BPT_FAN + c] * 2 * BPT_FAN;
    }
    int r = -1;
    for (int k = 0; k < BPT_FAN; k++)
        if (node[k] == q)
            r = node[BPT_FAN + k];
    result[i] = r;
}
