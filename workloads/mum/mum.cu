// MUMmer-style exact matching of many short queries (reads) against one
// reference string over {A, C, G, T} (bytes 0..3), one thread per query.
// The host builds the suffix array sa[] of the reference (the end of the
// string sorts before every character) and a table of the SA interval
// [tab_lo[k], tab_hi[k]) of the suffixes whose first MUM_K characters
// spell k (base 4, first character most significant).
//
// For every start i of its query q[0..m) the thread finds the longest
// prefix of q[i..m) that occurs in the reference:
//   1. if at least MUM_K characters remain and their table interval is
//      not empty, start at depth MUM_K in that interval, otherwise at
//      depth 0 in the whole array;
//   2. narrow the interval one character at a time (two binary searches
//      on the character at depth d: lower and upper bound) until it would
//      become empty or the query ends;
//   3. once a single suffix is left, extend the match by direct
//      comparison with the reference.
// It writes the match length, the reference position sa[lo] (the first
// occurrence in suffix order) and the number of occurrences for every
// start, and counts the query's maximal unique matches: matches of at
// least minlen characters that occur once and are left-maximal (i == 0,
// the reference position is 0, or the characters before them differ).
//
// Divergent and irregular: the table hit, the number of narrowing steps,
// every binary search's trip count and the extension length depend on
// the query (reads copied from the reference with mutations extend for
// tens of characters, random ones stop after a handful), query lengths
// differ per lane, and every step gathers from sa[] and the reference at
// unrelated addresses.

#define MUM_K 6

// Character of the suffix at p at depth 0 (-1 past the end of the string).
__device__ __forceinline__ int mum_ch(const unsigned char *ref, int n, int p)
{
    return p < n ? (int)ref[p] : -1;
}

extern "C" __global__ void mum_match(const unsigned char *ref, int n,
                                     const int *sa, const int *tab_lo,
                                     const int *tab_hi,
                                     const unsigned char *qs,
                                     const int *qstart, int nq, int minlen,
                                     int *len, int *pos, int *cnt, int *mums)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= nq)
        return;
    const unsigned char *q = qs + qstart[t];
    int m = qstart[t + 1] - qstart[t];
    int out = qstart[t], nmum = 0;
    for (int i = 0; i < m; i++) {
        int lo = 0, hi = n, d = 0;
        if (m - i >= MUM_K) {
            int k = 0;
            for (int j = 0; j < MUM_K; j++)
                k = k * 4 + q[i + j];
            if (tab_lo[k] < tab_hi[k]) {
                lo = tab_lo[k];
                hi = tab_hi[k];
                d = MUM_K;
            }
        }
        while (i + d < m) {
            int c = q[i + d];
            if (hi - lo == 1) {
                int p = sa[lo] + d;
                while (i + d < m && p < n && ref[p] == q[i + d]) {
                    d++;
                    p++;
                }
                break;
            }
            int a = lo, b = hi;
            while (a < b) {
                int mid = a + (b - a) / 2;
                if (mum_ch(ref, n, sa[mid] + d) < c)
                    a = mid + 1;
                else
                    b = mid;
            }
            int e = a, f = hi;
            while (e < f) {
                int mid = e + (f - e) / 2;
                if (mum_ch(ref, n, sa[mid] + d) <= c)
                    e = mid + 1;
                else
                    f = mid;
            }
            if (a == e)
                break;
            lo = a;
            hi = e;
            d++;
        }
        int p0 = sa[lo];
        len[out + i] = d;
        pos[out + i] = p0;
        cnt[out + i] = hi - lo;
        if (d >= minlen && hi - lo == 1 &&
            (i == 0 || p0 == 0 || ref[p0 - 1] != q[i - 1]))
            nmum++;
    }
    mums[t] = nmum;
}
