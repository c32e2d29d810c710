/* iix host driver: inverted index of ndocs seeded documents of 8-40 word
 * ids each. A quarter of the tokens come from the vocab/32 "frequent" words
 * (ids 32 j; posting lists of about 48), the rest uniformly from the whole
 * vocabulary (vocab = 4 ndocs; lists of a few postings). A document lists a
 * word once per occurrence. Pipeline (iix.cu): iix_count (atomicAdd per
 * token into per-word and per-(partition, chunk) counters) -> host
 * exclusive prefix sums of the device's counts -> iix_partition (tokens
 * grouped by word partition) -> iix_scatter (one warp per partition fills
 * the posting lists).
 * Checks, exact: every count equals the CPU count (a wrong count stops the
 * run before the lists are built: they would overlap); every posting list,
 * sorted on the host, equals the CPU's (sorted) list of the documents
 * containing the word, as a multiset. The order inside a list is
 * deterministic (see iix.cu) but not sorted, so it is not compared. */
#include <stdlib.h>
#include <string.h>
#include "workloads/wl_common.h"

static int iix_cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Checks every posting list against the CPU lists (same offsets). */
static void iix_check_lists(struct wl_report *rep, unsigned vocab,
                            const uint32_t *offset, const uint32_t *got,
                            const uint32_t *want, uint32_t *scratch)
{
    for (unsigned wd = 0; wd < vocab; wd++) {
        uint32_t b = offset[wd], n = offset[wd + 1] - b;
        memcpy(scratch, got + b, n * sizeof(uint32_t));
        qsort(scratch, n, sizeof(uint32_t), iix_cmp_u32);
        for (uint32_t i = 0; i < n; i++)
            if (scratch[i] != want[b + i]) {
                wl_fail(rep, "iix: postings of word %u (%u of them) differ: "
                        "sorted entry %u = %u, want %u", wd, n, i,
                        scratch[i], want[b + i]);
                return;
            }
    }
}

#define IIX_PART 256   /* words per partition, as in iix.cu */

static int iix_run(ls_gpu *gpu, ls_module *mod, enum wl_size size,
                   uint64_t seed, struct wl_report *rep)
{
    unsigned ndocs = wl_pick(size, 1600, 16384, 81920);
    unsigned vocab = 4 * ndocs, nfreq = vocab / 32;
    unsigned nchunks = (ndocs + 31) / 32;
    unsigned nparts = (vocab + IIX_PART - 1) / IIX_PART;
    size_t npc = (size_t)nparts * nchunks;
    int *doc_ptr = malloc((ndocs + 1) * sizeof(int)), *words = NULL;
    uint32_t *count = malloc(vocab * sizeof(uint32_t));
    uint32_t *ref_count = calloc(vocab, sizeof(uint32_t));
    uint32_t *offset = malloc((vocab + 1) * sizeof(uint32_t));
    uint32_t *fill = malloc(vocab * sizeof(uint32_t));
    uint32_t *pcount = malloc(npc * sizeof(uint32_t));
    uint32_t *pbase = malloc((npc + 1) * sizeof(uint32_t));
    uint32_t *list = NULL, *ref = NULL, *scratch = NULL;
    ls_dptr dptr = 0, dwords = 0, dcount = 0, dpcount = 0, dpfill = 0,
            dpbase = 0, dptok = 0, dfill = 0, dlist = 0;
    ls_status st = LS_ERR_NOMEM;
    rep->pass = 1;
    struct wl_rng rng;
    wl_rng_seed(&rng, seed);
    if (!doc_ptr || !count || !ref_count || !offset || !fill || !pcount ||
        !pbase)
        goto nomem;
    doc_ptr[0] = 0;
    for (unsigned d = 0; d < ndocs; d++)
        doc_ptr[d + 1] = doc_ptr[d] + 8 + (int)wl_rng_below(&rng, 33);
    size_t ntok = (size_t)doc_ptr[ndocs];
    words = malloc(ntok * sizeof(int));
    list = malloc(ntok * sizeof(uint32_t));
    ref = malloc(ntok * sizeof(uint32_t));
    scratch = malloc(ntok * sizeof(uint32_t));
    if (!words || !list || !ref || !scratch)
        goto nomem;
    for (size_t t = 0; t < ntok; t++) {
        unsigned wd = wl_rng_below(&rng, 4) == 0
                          ? 32 * wl_rng_below(&rng, nfreq)
                          : wl_rng_below(&rng, vocab);
        words[t] = (int)wd;
        ref_count[wd]++;
    }
    /* CPU index: documents in increasing order, so every list is sorted */
    uint32_t acc = 0;
    for (unsigned wd = 0; wd < vocab; wd++) {
        fill[wd] = acc;
        acc += ref_count[wd];
    }
    for (unsigned d = 0; d < ndocs; d++)
        for (int t = doc_ptr[d]; t < doc_ptr[d + 1]; t++)
            ref[fill[words[t]]++] = d;
    if ((st = wl_upload(gpu, rep, "doc_ptr", &dptr, doc_ptr,
                        (ndocs + 1) * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "words", &dwords, words,
                        ntok * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "count", &dcount, NULL,
                        vocab * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "pcount", &dpcount, NULL,
                        npc * sizeof(uint32_t))))
        goto out;
    int nd = (int)ndocs, nc = (int)nchunks, np = (int)nparts;
    ls_dim3 block = { 128, 1, 1 }, grid = { (ndocs + 127) / 128, 1, 1 };
    void *cargs[] = { &dptr, &dwords, &dcount, &dpcount, &nd, &nc };
    if ((st = wl_launch(gpu, mod, rep, "iix_count", grid, block, 0, cargs)) ||
        (st = wl_download(gpu, rep, "count", count, dcount,
                          vocab * sizeof(uint32_t))) ||
        (st = wl_download(gpu, rep, "pcount", pcount, dpcount,
                          npc * sizeof(uint32_t))))
        goto out;
    if (!wl_check_u32(rep, "count", count, ref_count, vocab))
        goto out;
    /* host exclusive prefix sums; pcount is partition-major */
    offset[0] = 0;
    for (unsigned wd = 0; wd < vocab; wd++)
        offset[wd + 1] = offset[wd] + count[wd];
    pbase[0] = 0;
    for (size_t i = 0; i < npc; i++)
        pbase[i + 1] = pbase[i] + pcount[i];
    if (pbase[npc] != ntok) {
        wl_fail(rep, "iix: partition counts sum to %u, want %zu tokens",
                pbase[npc], ntok);
        goto out;
    }
    if ((st = wl_upload(gpu, rep, "pfill", &dpfill, pbase,
                        npc * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "pbase", &dpbase, pbase,
                        (npc + 1) * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "ptok", &dptok, NULL,
                        ntok * 2 * sizeof(int))) ||
        (st = wl_upload(gpu, rep, "fill", &dfill, offset,
                        vocab * sizeof(uint32_t))) ||
        (st = wl_upload(gpu, rep, "list", &dlist, NULL,
                        ntok * sizeof(uint32_t))))
        goto out;
    void *pargs[] = { &dptr, &dwords, &dpfill, &dptok, &nd, &nc };
    void *sargs[] = { &dptok, &dpbase, &dfill, &dlist, &np, &nc };
    ls_dim3 sgrid = { (nparts * 32 + 127) / 128, 1, 1 };
    if ((st = wl_launch(gpu, mod, rep, "iix_partition", grid, block, 0,
                        pargs)) ||
        (st = wl_launch(gpu, mod, rep, "iix_scatter", sgrid, block, 0,
                        sargs)) ||
        (st = wl_download(gpu, rep, "list", list, dlist,
                          ntok * sizeof(uint32_t))))
        goto out;
    iix_check_lists(rep, vocab, offset, list, ref, scratch);
    goto out;
nomem:
    wl_fail(rep, "iix: host allocation failed (ndocs = %u)", ndocs);
out:
    ls_free(gpu, dptr);
    ls_free(gpu, dwords);
    ls_free(gpu, dcount);
    ls_free(gpu, dpcount);
    ls_free(gpu, dpfill);
    ls_free(gpu, dpbase);
    ls_free(gpu, dptok);
    ls_free(gpu, dfill);
    ls_free(gpu, dlist);
    free(doc_ptr);
    free(words);
    free(count);
    free(ref_count);
    free(offset);
    free(fill);
    free(pcount);
    free(pbase);
    free(list);
    free(ref);
    free(scratch);
    return (int)st;
}

const struct workload wl_def_iix = { "iix", "irregular",
    "inverted index build: atomic posting counts, host prefix sums, "
    "partition and scatter of doc ids into posting lists", iix_run };
