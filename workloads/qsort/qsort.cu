// Quicksort of many independent segments of 32-bit keys, one thread per
// segment, in place in global memory (segment s is keys[start[s] ..
// start[s+1])). Each thread keeps an explicit stack of (lo, hi) ranges in
// a local-memory array: it orders a[lo], a[mid], a[hi] (median of three,
// mid = lo + (hi - lo) / 2), runs Hoare's partition around the value at
// mid, pushes the larger part and goes on with the smaller one (so the
// stack holds at most log2(n) ranges); ranges of at most 8 keys are
// finished by insertion sort, after which a range is popped. parts[s]
// counts the partitions the thread made.
//
// Divergent: segment lengths differ (1 to 299 keys), and so do the
// numbers of partitions, the scan lengths of every partition loop, the
// swaps, the median-of-three exchanges, the insertion-sort shifts and the
// stack depth: every loop has a data-dependent trip count per lane.

#define QS_SMALL 8

extern "C" __global__ void qs_segments(unsigned *keys, const int *start,
                                       int nseg, int *parts)
{
    int s = blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg)
        return;
    unsigned *a = keys + start[s];
    int n = start[s + 1] - start[s];
    int stk[64];
    int sp = 0, np = 0, lo = 0, hi = n - 1;
    for (;;) {
        if (hi - lo < QS_SMALL) {
            for (int i = lo + 1; i <= hi; i++) {
                unsigned v = a[i];
                int j = i - 1;
                while (j >= lo && a[j] > v) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
            if (sp == 0)
                break;
            hi = stk[--sp];
            lo = stk[--sp];
            continue;
        }
        np++;
        int mid = lo + (hi - lo) / 2;
        unsigned t;
        if (a[mid] < a[lo]) { t = a[mid]; a[mid] = a[lo]; a[lo] = t; }
        if (a[hi] < a[lo]) { t = a[hi]; a[hi] = a[lo]; a[lo] = t; }
        if (a[hi] < a[mid]) { t = a[hi]; a[hi] = a[mid]; a[mid] = t; }
        unsigned p = a[mid];
        int i = lo - 1, j = hi + 1;
        for (;;) {
            do
                i++;
            while (a[i] < p);
            do
                j--;
            while (a[j] > p);
            if (i >= j)
                break;
            t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
        if (j - lo < hi - j) {      // [lo, j] is the smaller part
            stk[sp++] = j + 1;
            stk[sp++] = hi;
            hi = j;
        } else {
            stk[sp++] = lo;
            stk[sp++] = j;
            lo = j + 1;
        }
    }
    parts[s] = np;
}
