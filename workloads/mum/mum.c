/* mum host driver: MUMmer-style matching of nq short queries against a
 * seeded reference of n characters over {A, C, G, T} (bytes 0..3), one
 * thread per query (mum.cu gives the exact search: a 6-character table,
 * narrowing by two binary searches per character, then direct extension).
 * The reference is random with repeats: segments of 40-199 characters
 * copied from earlier in the string (about a tenth of it), so some
 * matches occur more than once. Queries are 24-63 characters long (24-31
 * at small size, which keeps the timing run short); about
 * three quarters are reads copied from a random reference position with
 * 4 % of the characters substituted, the rest random. The host builds the
 * suffix array (a merge sort of the suffixes; the end of the string sorts
 * first) and the table of 6-character SA intervals.
 * Check: exact. Every start's match length, reference position and
 * occurrence count, and every query's count of maximal unique matches
 * (minlen 12), must equal a CPU replay of the same search
 * (wl_check_i32). The replay itself is checked by brute force on the
 * first 96 starts: the match length must be the longest common prefix
 * with any reference position, the count the number of positions that
 * reach it, and the reported position one of them. */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

#define MUM_K 6
#define MUM_MINLEN 12
#define MUM_BRUTE 96

/* -1 when the suffix at a sorts before the one at b (the end of the
 * string sorts before every character), 1 when after. */
static int mum_suffix_cmp(const uint8_t *ref, int n, int a, int b)
{
    while (a < n && b < n && ref[a] == ref[b]) {
        a++;
        b++;
    }
    if (a >= n)
        return -1;          /* a != b, so only one of them ends here */
    if (b >= n)
        return 1;
    return ref[a] < ref[b] ? -1 : 1;
}

/* Merge sort of the suffix starts in sa[0..n) (tmp: n ints). */
static void mum_sort(const uint8_t *ref, int n, int *sa, int *tmp, int lo,
                     int hi)
{
    if (hi - lo < 2)
        return;
    int mid = lo + (hi - lo) / 2;
    mum_sort(ref, n, sa, tmp, lo, mid);
    mum_sort(ref, n, sa, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi)
        tmp[k++] = mum_suffix_cmp(ref, n, sa[i], sa[j]) < 0 ? sa[i++] : sa[j++];
    while (i < mid)
        tmp[k++] = sa[i++];
    while (j < hi)
        tmp[k++] = sa[j++];
    memcpy(sa + lo, tmp + lo, (size_t)(hi - lo) * sizeof(int));
}

static int mum_ch(const uint8_t *ref, int n, int p)
{
    return p < n ? (int)ref[p] : -1;
}

/* The kernel's search for query q[0..m), written to len/pos/cnt; returns
 * the query's count of maximal unique matches. */
static int mum_cpu(const uint8_t *ref, int n, const int *sa,
                   const int *tab_lo, const int *tab_hi, const uint8_t *q,
                   int m, int *len, int *pos, int *cnt)
{
    int nmum = 0;
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
        len[i] = d;
        pos[i] = p0;
        cnt[i] = hi - lo;
        if (d >= MUM_MINLEN && hi - lo == 1 &&
            (i == 0 || p0 == 0 || ref[p0 - 1] != q[i - 1]))
            nmum++;
    }
    return nmum;
}

/* Brute-force check of one start's (len, pos, cnt) for the query suffix
 * q[0..m); 1 when it holds. */
static int mum_brute_ok(const uint8_t *ref, int n, const uint8_t *q, int m,
                        int len, int pos, int cnt)
{
    int best = 0, nbest = 0, pos_lcp = -1;
    for (int p = 0; p < n; p++) {
        int l = 0;
        while (l < m && p + l < n && ref[p + l] == q[l])
            l++;
        if (p == pos)
            pos_lcp = l;
        if (l > best) {
            best = l;
            nbest = 1;
        } else if (l == best) {
            nbest++;
        }
    }
    return best == len && nbest == cnt && pos_lcp == len;
}

static int mum_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    int n = (int)wl_pick(size, 16384, 65536, 262144);
    int nq = (int)wl_pick(size, 96, 480, 2000);
    int mspan = (int)wl_pick(size, 8, 40, 40);  /* lengths 24 .. 23 + mspan */
    int ntab = 1 << (2 * MUM_K);
    uint8_t *ref = malloc((size_t)n), *qs = NULL;
    int *sa = malloc((size_t)n * sizeof(int)), *tmp = malloc((size_t)n * sizeof(int));
    int *tab_lo = calloc((size_t)ntab, sizeof(int)), *tab_hi = calloc((size_t)ntab, sizeof(int));
    int *qstart = malloc((size_t)(nq + 1) * sizeof(int));
    int *want = NULL, *got = NULL;
    int *wmums = malloc((size_t)nq * sizeof(int)), *gmums = malloc((size_t)nq * sizeof(int));
    ls_dptr dref = 0, dsa = 0, dlo = 0, dhi = 0, dqs = 0, dqst = 0, dlen = 0,
            dpos = 0, dcnt = 0, dmums = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    if (!ref || !sa || !tmp || !tab_lo || !tab_hi || !qstart || !wmums || !gmums) {
        wl_fail(rep, "mum: host allocation failed (n = %d, %d queries)", n, nq);
        goto out;
    }
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    for (int p = 0; p < n; p++)
        ref[p] = (uint8_t)wl_rng_below(&rng, 4);
    for (int r = 0; r < n / 1500; r++) {          /* repeats: ~1/10 of n */
        int l = 40 + (int)wl_rng_below(&rng, 160);
        int from = (int)wl_rng_below(&rng, (uint32_t)(n - l));
        int to = (int)wl_rng_below(&rng, (uint32_t)(n - l));
        memmove(ref + to, ref + from, (size_t)l);
    }
    for (int p = 0; p < n; p++)
        sa[p] = p;
    mum_sort(ref, n, sa, tmp, 0, n);
    for (int s = 0; s < n; s++) {
        int p = sa[s];
        if (n - p < MUM_K)
            continue;
        int k = 0;
        for (int j = 0; j < MUM_K; j++)
            k = k * 4 + ref[p + j];
        if (tab_lo[k] == tab_hi[k])
            tab_lo[k] = s;
        tab_hi[k] = s + 1;
    }
    qstart[0] = 0;
    for (int t = 0; t < nq; t++)
        qstart[t + 1] = qstart[t] + 24 + (int)wl_rng_below(&rng, (uint32_t)mspan);
    int total = qstart[nq];
    qs = malloc((size_t)total);
    want = malloc((size_t)total * 3 * sizeof(int));
    got = malloc((size_t)total * 3 * sizeof(int));
    if (!qs || !want || !got) {
        wl_fail(rep, "mum: host allocation for %d query characters failed", total);
        goto out;
    }
    for (int t = 0; t < nq; t++) {
        int m = qstart[t + 1] - qstart[t];
        uint8_t *q = qs + qstart[t];
        if (wl_rng_below(&rng, 4) != 0) {         /* a read with 4 % errors */
            int from = (int)wl_rng_below(&rng, (uint32_t)(n - m));
            for (int j = 0; j < m; j++) {
                q[j] = ref[from + j];
                if (wl_rng_below(&rng, 100) < 4)
                    q[j] = (uint8_t)((q[j] + 1 + wl_rng_below(&rng, 3)) & 3);
            }
        } else {
            for (int j = 0; j < m; j++)
                q[j] = (uint8_t)wl_rng_below(&rng, 4);
        }
    }
    size_t ob = (size_t)total * sizeof(int);
    if ((st = wl_upload(gpu, rep, "ref", &dref, ref, (size_t)n)) ||
        (st = wl_upload(gpu, rep, "sa", &dsa, sa, (size_t)n * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "tab_lo", &dlo, tab_lo, (size_t)ntab * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "tab_hi", &dhi, tab_hi, (size_t)ntab * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "queries", &dqs, qs, (size_t)total)) ||
        (st = wl_upload(gpu, rep, "qstart", &dqst, qstart, (size_t)(nq + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "len", &dlen, NULL, ob)) ||
        (st = wl_upload(gpu, rep, "pos", &dpos, NULL, ob)) ||
        (st = wl_upload(gpu, rep, "cnt", &dcnt, NULL, ob)) ||
        (st = wl_upload(gpu, rep, "mums", &dmums, NULL, (size_t)nq * sizeof(int))))
        goto out;
    int minlen = MUM_MINLEN;
    void *args[] = { &dref, &n, &dsa, &dlo, &dhi, &dqs, &dqst, &nq, &minlen,
                     &dlen, &dpos, &dcnt, &dmums };
    ls_dim3 grid = { (unsigned)(nq + 63) / 64, 1, 1 }, block = { 64, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "mum_match", grid, block, 0, args)))
        goto out;
    if ((st = wl_download(gpu, rep, "len", got, dlen, ob)) ||
        (st = wl_download(gpu, rep, "pos", got + total, dpos, ob)) ||
        (st = wl_download(gpu, rep, "cnt", got + 2 * total, dcnt, ob)) ||
        (st = wl_download(gpu, rep, "mums", gmums, dmums, (size_t)nq * sizeof(int))))
        goto out;
    long long nmum = 0;
    for (int t = 0; t < nq; t++) {
        int o = qstart[t], m = qstart[t + 1] - o;
        wmums[t] = mum_cpu(ref, n, sa, tab_lo, tab_hi, qs + o, m, want + o,
                           want + total + o, want + 2 * total + o);
        nmum += wmums[t];
    }
    for (int s = 0; s < MUM_BRUTE && s < total; s++) {
        int t = 0;
        while (qstart[t + 1] <= s)
            t++;
        if (!mum_brute_ok(ref, n, qs + s, qstart[t + 1] - s, want[s],
                          want[total + s], want[2 * total + s])) {
            wl_fail(rep, "mum: the CPU replay's match at start %d is not the "
                    "longest (reference bug)", s);
            goto out;
        }
    }
    if (nmum == 0) {
        wl_fail(rep, "mum: no maximal unique match in the input (generator bug)");
        goto out;
    }
    if (wl_check_i32(rep, "len", got, want, (size_t)total) &&
        wl_check_i32(rep, "pos", got + total, want + total, (size_t)total) &&
        wl_check_i32(rep, "cnt", got + 2 * total, want + 2 * total, (size_t)total))
        wl_check_i32(rep, "mums", gmums, wmums, (size_t)nq);
out:
    ls_free(gpu, dref);
    ls_free(gpu, dsa);
    ls_free(gpu, dlo);
    ls_free(gpu, dhi);
    ls_free(gpu, dqs);
    ls_free(gpu, dqst);
    ls_free(gpu, dlen);
    ls_free(gpu, dpos);
    ls_free(gpu, dcnt);
    ls_free(gpu, dmums);
    free(ref);
    free(sa);
    free(tmp);
    free(tab_lo);
    free(tab_hi);
    free(qstart);
    free(qs);
    free(want);
    free(got);
    free(wmums);
    free(gmums);
    return (int)st;
}

const struct workload wl_def_mum = { "mum", "irregular",
    "MUMmer-style suffix-array matching of short reads, one thread per query",
    mum_run };
