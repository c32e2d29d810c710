/* Unit tests of PCA, priority-based cache allocation (docs/pca.md,
 * dissertation 6.2.2): the token assignment (the N oldest resident warps;
 * a finished holder's token passes to the next oldest), and at the L1D:
 * a warp without a token allocates into a vacant way or over a line such
 * a warp allocated, bypasses the fill when its set holds only token
 * holders' lines (still through an MSHR), and a token holder evicts by LRU
 * as usual. With PCA off the same stream evicts a holder's line (so the
 * bypass assertions can fail); block reuse (Fig 6.6) counts a line's hits
 * when its life ends. Synthetic request streams, one SM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_mem_drv.h"
#include "core/core.h"
#include "core/core_mech.h"

/* gtx480's L1D: 32 sets of 4 ways of 128 B; lines 4 KB apart share a set */
#define SET_STRIDE 4096u

static void cfg_pca(struct cfg *c, int tokens)
{
    cfg_defaults(c);
    char err[256] = "";
    assert_int_equal(cfg_load_file(c, "configs/gtx480.conf", err, sizeof err), 0);
    c->l1d_set_index = CFG_L1D_SET_INDEX_LINEAR;  /* lines placed by line number */
    c->pca_tokens = tokens;
}

static void rd(struct mem_sys *m, uint64_t line, int prio, uint64_t *now)
{
    struct core_mem_req r = drv_req(0, line, 0x1, 0);
    r.prio = (uint8_t)prio;
    assert_int_equal(drv_run(m, &r, 1, 1, now), 1);
}

static ls_cache_stats l1(const struct mem_sys *m)
{
    ls_cache_stats s;
    mem_stats(m, &s, NULL, NULL);
    return s;
}

/* The four ways of set 0 filled by a token holder; a warp without a token
 * misses on a fifth line: bypassed, and the holder's four lines still hit.
 * Without PCA the fifth line evicts the LRU holder line (and the re-reads
 * thrash the set). */
static void test_bypass_when_set_prioritised(void **st)
{
    (void)st;
    for (int tokens = 0; tokens <= 1; tokens++) {
        struct cfg c;
        cfg_pca(&c, tokens);
        struct mem_sys *m = drv_make(&c, 1);
        assert_non_null(m);
        uint64_t now = 0;
        for (unsigned i = 0; i < 4; i++)
            rd(m, i * SET_STRIDE, 1, &now);
        rd(m, 4 * SET_STRIDE, 0, &now);              /* no token */
        ls_pca_stats p;
        mem_pca_stats(m, &p);
        uint64_t hits0 = l1(m).hits;
        for (unsigned i = 0; i < 4; i++)
            rd(m, i * SET_STRIDE, 1, &now);
        uint64_t hits = l1(m).hits - hits0;
        if (tokens) {
            assert_int_equal(p.bypassed, 1);
            assert_int_equal(p.prio_accesses, 4);
            assert_int_equal(p.deprio_accesses, 1);
            assert_int_equal(hits, 4);               /* the holder's set intact */
            /* the bypassed line was not allocated: it misses again */
            uint64_t mis = l1(m).misses;
            rd(m, 4 * SET_STRIDE, 0, &now);
            assert_int_equal(l1(m).misses, mis + 1);
        } else {
            assert_int_equal(p.bypassed, 0);
            assert_int_equal(p.prio_accesses + p.deprio_accesses, 0);  /* off: not counted */
            /* line 0 was evicted, and re-reading 0..3 in LRU order then
             * evicts each next one: no hit at all */
            assert_int_equal(hits, 0);
        }
        mem_sys_free(m);
    }
}

/* A warp without a token allocates into a vacant way; later, with the set
 * full, it replaces that line (allocated by a non-holder), never a
 * holder's. A holder then evicts by plain LRU, a holder's line included. */
static void test_deprio_replaces_only_deprio(void **st)
{
    (void)st;
    struct cfg c;
    cfg_pca(&c, 1);
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    rd(m, 0, 0, &now);                               /* vacant way: allocated */
    for (unsigned i = 1; i < 4; i++)
        rd(m, i * SET_STRIDE, 1, &now);
    rd(m, 4 * SET_STRIDE, 0, &now);                  /* replaces line 0 */
    ls_pca_stats p;
    mem_pca_stats(m, &p);
    assert_int_equal(p.bypassed, 0);
    uint64_t h = l1(m).hits;
    for (unsigned i = 1; i <= 4; i++)
        rd(m, i * SET_STRIDE, 0, &now);              /* all resident */
    assert_int_equal(l1(m).hits, h + 4);
    uint64_t mis = l1(m).misses;
    rd(m, 0, 1, &now);                               /* line 0 went */
    assert_int_equal(l1(m).misses, mis + 1);
    /* that holder miss evicted the LRU line (line 1, a holder's) */
    mis = l1(m).misses;
    rd(m, 1 * SET_STRIDE, 1, &now);
    assert_int_equal(l1(m).misses, mis + 1);
    mem_sys_free(m);
}

/* A bypassed fill still takes an MSHR: with one MSHR, a second miss in
 * the same cycle is refused until the bypassed read is back. */
static void test_bypass_takes_mshr(void **st)
{
    (void)st;
    struct cfg c;
    cfg_pca(&c, 1);
    c.l1d_mshrs = 1;
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    for (unsigned i = 0; i < 4; i++)
        rd(m, i * SET_STRIDE, 1, &now);
    uint64_t fails = l1(m).reservation_fails;
    struct core_mem_req r[2] = { drv_req(0, 4 * SET_STRIDE, 0x1, 0), drv_req(0, 64 * SET_STRIDE + 128, 0x1, 0) };
    r[0].prio = 0;
    r[1].prio = 1;
    assert_int_equal(drv_run(m, r, 2, 1, &now), 2);
    ls_pca_stats p;
    mem_pca_stats(m, &p);
    assert_int_equal(p.bypassed, 1);
    assert_true(l1(m).reservation_fails > fails);    /* the second waited */
    mem_sys_free(m);
}

/* Block reuse (Fig 6.6): a line read once and hit three times, then
 * evicted by four other lines of its set, ends with 3 reuse hits; the
 * four still resident have ended nothing, so l1d.reuse_hits is 3 over one
 * line ended. A hit on a line that has not ended is not counted yet. */
static void test_block_reuse(void **st)
{
    (void)st;
    struct cfg c;
    cfg_pca(&c, 0);
    struct mem_sys *m = drv_make(&c, 1);
    assert_non_null(m);
    uint64_t now = 0;
    for (unsigned k = 0; k < 4; k++)
        rd(m, 0, 0, &now);                           /* miss, then 3 hits */
    assert_int_equal(l1(m).reuse_hits, 0);           /* not ended yet */
    for (unsigned i = 1; i <= 4; i++)
        rd(m, i * SET_STRIDE, 0, &now);              /* the 4th evicts line 0 */
    rd(m, 4 * SET_STRIDE, 0, &now);                  /* a hit on a live line */
    ls_cache_stats s = l1(m);
    unsigned ended = 0;
    for (unsigned i = 0; i < sizeof s.used_sectors_hist / sizeof *s.used_sectors_hist; i++)
        ended += (unsigned)s.used_sectors_hist[i];
    assert_int_equal(ended, 1);
    assert_int_equal(s.reuse_hits, 3);
    mem_sys_free(m);
}

/* Tokens go to the N oldest resident warps; when a holder finishes (its
 * slot is freed) the oldest warp without a token gets it. */
static void test_token_assignment(void **st)
{
    (void)st;
    struct cfg c;
    cfg_pca(&c, 2);
    struct core_warp w[4];
    memset(w, 0, sizeof w);
    const uint64_t age[4] = { 5, 3, 9, 1 };
    for (int i = 0; i < 4; i++) {
        w[i].age = age[i];
        w[i].cta = 0;
    }
    struct core_view v;
    memset(&v, 0, sizeof v);
    v.c = &c;
    v.w = w;
    v.nslots = 4;
    const struct core_mech_ops *pca = core_mech_ops_of(CORE_MECH_PCA);
    assert_true(pca->on(&c));
    struct core_mech_env e = { &c, 0, 4, 1, 16, NULL };
    void *self = NULL;
    char err[128];
    assert_int_equal(pca->init(&self, &v, &e, err, sizeof err), 0);
    assert_int_equal(core_view_prio(&v, 0), 0);
    assert_int_equal(core_view_prio(&v, 1), 1);
    assert_int_equal(core_view_prio(&v, 2), 0);
    assert_int_equal(core_view_prio(&v, 3), 1);
    w[3].cta = -1;                                   /* the oldest finished */
    assert_int_equal(core_view_prio(&v, 0), 1);      /* age 5 inherits it   */
    assert_int_equal(core_view_prio(&v, 1), 1);
    assert_int_equal(core_view_prio(&v, 2), 0);
    pca->free(self);
    c.pca_tokens = 0;                                /* off: no holder */
    assert_false(pca->on(&c));
    struct core_view off;
    memset(&off, 0, sizeof off);
    assert_int_equal(core_view_prio(&off, 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bypass_when_set_prioritised),
        cmocka_unit_test(test_deprio_replaces_only_deprio),
        cmocka_unit_test(test_bypass_takes_mshr),
        cmocka_unit_test(test_token_assignment),
        cmocka_unit_test(test_block_reuse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
