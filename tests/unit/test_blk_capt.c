/* Unit tests of the CAPT C model (csim/blocks/capt.c): the Fig 4.8 CAPRI
 * sequence in every history mode, true-LRU and tree-PLRU replacement,
 * flush, saturation, the index-carrying update (a stale update does
 * nothing) and the same-cycle lookup/update rule of blocks.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "blocks/capt.h"

static struct capt_out step(struct capt_state *s, int lv, uint32_t lpc,
                            int uv, uint32_t uidx, uint32_t upc, int adeq,
                            int flush)
{
    struct capt_in in;
    struct capt_out o;
    memset(&in, 0, sizeof in);
    in.lookup_valid_i[0] = (uint32_t)lv;
    in.lookup_pc_i[0] = lpc;
    in.update_valid_i[0] = (uint32_t)uv;
    in.update_idx_i[0] = uidx;
    in.update_pc_i[0] = upc;
    in.update_adequate_i[0] = (uint32_t)adeq;
    in.flush_i[0] = (uint32_t)flush;
    capt_step(s, &in, &o);
    return o;
}

static struct capt_out lookup(struct capt_state *s, uint32_t pc)
{
    return step(s, 1, pc, 0, 0, 0, 0, 0);
}

/* An update of branch pc at the entry its lookup returned (the index
 * capt_probe finds now; 0 if pc is not in the table). */
static struct capt_out update(struct capt_state *s, uint32_t pc, int adeq)
{
    int i = capt_probe(s, pc, NULL);
    return step(s, 0, 0, 1, i < 0 ? 0u : (uint32_t)i, pc, adeq, 0);
}

static struct capt_out update_at(struct capt_state *s, uint32_t idx,
                                 uint32_t pc, int adeq)
{
    return step(s, 0, 0, 1, idx, pc, adeq, 0);
}

static void mk_lru(struct capt_state *s, unsigned entries, unsigned hist,
                   unsigned lru)
{
    struct capt_cfg c = capt_cfg_default();
    c.ENTRIES = entries;
    c.HIST = hist;
    c.LRU = lru;
    assert_int_equal(capt_init(s, &c), 0);
}

static void mk(struct capt_state *s, unsigned entries, unsigned hist)
{
    mk_lru(s, entries, hist, CAPT_LRU_TRUE);
}

static void test_params(void **st)
{
    (void)st;
    struct capt_state s;
    struct capt_cfg c = capt_cfg_default();
    assert_int_equal(c.ENTRIES, 32);
    assert_int_equal(c.TAG_W, 32);
    assert_int_equal(c.HIST, CAPT_HIST_LATEST);
    assert_int_equal(c.LRU, CAPT_LRU_TREE);
    assert_null(capt_cfg_error(&c));
    assert_int_equal(capt_init(&s, &c), 0);
    assert_int_equal(capt_storage_bits(&c), 1088); /* 32 x (32+1+1) */
    assert_int_equal(capt_lru_bits(&c), 31);       /* tree: ENTRIES - 1 */
    c.LRU = CAPT_LRU_TRUE;
    assert_int_equal(capt_lru_bits(&c), 32 * 5);   /* ages */
    c.ENTRIES = 6;                                 /* true LRU: any size */
    assert_int_equal(capt_init(&s, &c), 0);
    c.LRU = CAPT_LRU_TREE;                         /* tree: powers of two */
    assert_int_not_equal(capt_init(&s, &c), 0);
    assert_non_null(strstr(capt_cfg_error(&c), "power of two"));
    c.ENTRIES = 8;
    c.LRU = 2;
    assert_int_not_equal(capt_init(&s, &c), 0);
    assert_non_null(strstr(capt_cfg_error(&c), "LRU"));
    c.LRU = CAPT_LRU_TREE;
    c.ENTRIES = 1;
    assert_int_not_equal(capt_init(&s, &c), 0);
    c.ENTRIES = 65;
    assert_int_not_equal(capt_init(&s, &c), 0);
    c.ENTRIES = 8;
    c.HIST = 3;
    assert_int_not_equal(capt_init(&s, &c), 0);
    c.HIST = 0;
    c.TAG_W = 33;
    assert_int_not_equal(capt_init(&s, &c), 0);
}

/* Fig 4.8 with 1b-latest: (a) non-divergent warp never looks up; (b) W2
 * diverges, miss -> stall, entry allocated adequate; (c) W1 hits, stalls;
 * (d) the WCU finds BR_B-C ineffective, history bit reset. */
static void test_fig48_latest(void **st)
{
    (void)st;
    struct capt_state s;
    unsigned h = 9;
    const uint32_t br = 0x400B0C0u;
    mk(&s, 32, CAPT_HIST_LATEST);
    struct capt_out o = step(&s, 0, br, 0, 0, 0, 0, 0); /* (a) */
    assert_int_equal(o.pred_valid_o[0], 0);
    assert_int_equal(capt_probe(&s, br, NULL), -1);
    o = lookup(&s, br); /* (b) */
    assert_int_equal(o.pred_valid_o[0], 1);
    assert_int_equal(o.pred_hit_o[0], 0);
    assert_int_equal(o.pred_stall_o[0], 1);
    assert_int_equal(capt_probe(&s, br, &h), 0);
    assert_int_equal(h, 1);
    o = lookup(&s, br); /* (c) */
    assert_int_equal(o.pred_hit_o[0], 1);
    assert_int_equal(o.pred_stall_o[0], 1);
    o = update(&s, br, 0); /* (d) */
    assert_int_equal(o.upd_hit_o[0], 1);
    capt_probe(&s, br, &h);
    assert_int_equal(h, 0);
    o = lookup(&s, br); /* later warps bypass */
    assert_int_equal(o.pred_hit_o[0], 1);
    assert_int_equal(o.pred_stall_o[0], 0);
    assert_int_equal(s.st.lookups, 3);
    assert_int_equal(s.st.misses, 1);
    assert_int_equal(s.st.bypasses, 1);
}

static void test_sticky_and_ctr2(void **st)
{
    (void)st;
    struct capt_state s;
    unsigned h;
    mk(&s, 4, CAPT_HIST_STICKY);
    lookup(&s, 7);
    update(&s, 7, 0);
    capt_probe(&s, 7, &h);
    assert_int_equal(h, 1); /* sticky: stays set */
    assert_int_equal(lookup(&s, 7).pred_stall_o[0], 1);

    mk(&s, 4, CAPT_HIST_CTR2);
    lookup(&s, 7);
    capt_probe(&s, 7, &h);
    assert_int_equal(h, 2);
    for (int i = 0; i < 5; i++)
        update(&s, 7, 1);
    capt_probe(&s, 7, &h);
    assert_int_equal(h, 3); /* saturates high */
    update(&s, 7, 0);
    assert_int_equal(lookup(&s, 7).pred_stall_o[0], 1); /* 2 >= 2 */
    update(&s, 7, 0);
    assert_int_equal(lookup(&s, 7).pred_stall_o[0], 0); /* 1 */
    for (int i = 0; i < 5; i++)
        update(&s, 7, 0);
    capt_probe(&s, 7, &h);
    assert_int_equal(h, 0); /* saturates low */
}

static void test_lru_and_flush(void **st)
{
    (void)st;
    struct capt_state s;
    mk(&s, 4, CAPT_HIST_LATEST);
    for (uint32_t pc = 10; pc < 14; pc++) {
        struct capt_out o = lookup(&s, pc);
        assert_int_equal(o.pred_evict_o[0], 0);
        assert_int_equal(o.pred_idx_o[0], pc - 10);
    }
    lookup(&s, 10);                  /* 10 most recent, 11 is LRU */
    update(&s, 11, 0);               /* updates do not touch LRU   */
    struct capt_out o = lookup(&s, 20);
    assert_int_equal(o.pred_evict_o[0], 1);
    assert_int_equal(o.pred_idx_o[0], 1);
    assert_int_equal(capt_probe(&s, 11, NULL), -1);
    assert_int_equal(lookup(&s, 21).pred_idx_o[0], 2);
    o = step(&s, 1, 20, 0, 0, 0, 0, 1); /* flush: lookup sees old state */
    assert_int_equal(o.pred_hit_o[0], 1);
    for (uint32_t pc = 10; pc < 22; pc++)
        assert_int_equal(capt_probe(&s, pc, NULL), -1);
    assert_int_equal(update(&s, 20, 1).upd_hit_o[0], 0); /* not in table */
    assert_int_equal(lookup(&s, 30).pred_idx_o[0], 0);
}

/* Lookup and update in one cycle: the lookup sees the state before the
 * edge; an update to a PC being allocated in that cycle does nothing. */
static void test_same_cycle(void **st)
{
    (void)st;
    struct capt_state s;
    unsigned h;
    mk(&s, 8, CAPT_HIST_LATEST);
    lookup(&s, 5);
    struct capt_out o = step(&s, 1, 5, 1, 0, 5, 0, 0);
    assert_int_equal(o.pred_stall_o[0], 1); /* old history */
    assert_int_equal(o.upd_hit_o[0], 1);
    capt_probe(&s, 5, &h);
    assert_int_equal(h, 0);
    o = step(&s, 1, 6, 1, 1, 6, 0, 0);      /* miss + update of it */
    assert_int_equal(o.upd_hit_o[0], 0);
    capt_probe(&s, 6, &h);
    assert_int_equal(h, 1);                 /* allocated adequate */
    /* full table: a miss allocating the entry that the same-cycle update
     * hits (old PC, old index): the update reports its hit, the
     * allocation wins */
    mk_lru(&s, 2, CAPT_HIST_LATEST, CAPT_LRU_TREE);
    lookup(&s, 1);                          /* entry 0 */
    lookup(&s, 2);                          /* entry 1; victim now 0 */
    o = step(&s, 1, 3, 1, 0, 1, 0, 0);
    assert_int_equal(o.pred_idx_o[0], 0);
    assert_int_equal(o.pred_evict_o[0], 1);
    assert_int_equal(o.upd_hit_o[0], 1);
    assert_int_equal(capt_probe(&s, 3, &h), 0);
    assert_int_equal(h, 1);
}

/* The update carries (index, PC): it changes the entry only if it is
 * valid and still holds the PC. A's entry is flushed, then re-used by B:
 * both updates of A do nothing and B keeps its history; the same after an
 * eviction in a full table; an index beyond ENTRIES (true LRU, 6 entries,
 * 3 index bits) never hits. */
static void test_stale_update(void **st)
{
    (void)st;
    struct capt_state s;
    unsigned h;
    mk_lru(&s, 4, CAPT_HIST_LATEST, CAPT_LRU_TREE);
    assert_int_equal(lookup(&s, 0xA).pred_idx_o[0], 0);
    step(&s, 0, 0, 0, 0, 0, 0, 1);                      /* flush */
    assert_int_equal(update_at(&s, 0, 0xA, 0).upd_hit_o[0], 0);
    assert_int_equal(lookup(&s, 0xB).pred_idx_o[0], 0); /* B in entry 0 */
    struct capt_out o = update_at(&s, 0, 0xA, 0);
    assert_int_equal(o.upd_valid_o[0], 1);
    assert_int_equal(o.upd_hit_o[0], 0);
    capt_probe(&s, 0xB, &h);
    assert_int_equal(h, 1);                             /* untouched */
    assert_int_equal(s.st.update_hits, 0);
    assert_int_equal(update_at(&s, 1, 0xB, 0).upd_hit_o[0], 0); /* wrong idx */
    assert_int_equal(update_at(&s, 0, 0xB, 0).upd_hit_o[0], 1);
    capt_probe(&s, 0xB, &h);
    assert_int_equal(h, 0);

    for (uint32_t pc = 0x10; pc < 0x13; pc++)           /* entries 1..3 */
        lookup(&s, pc);
    o = lookup(&s, 0x20);                               /* full: evicts */
    assert_int_equal(o.pred_evict_o[0], 1);
    uint32_t v = o.pred_idx_o[0];
    uint32_t old = v == 0 ? 0xB : 0x10 + v - 1;
    assert_int_equal(capt_probe(&s, old, NULL), -1);
    assert_int_equal(update_at(&s, v, old, 0).upd_hit_o[0], 0);
    assert_int_equal(update_at(&s, v, 0x20, 0).upd_hit_o[0], 1);

    mk(&s, 6, CAPT_HIST_LATEST);
    assert_int_equal(capt_idx_bits(&s.cfg), 3);
    for (uint32_t pc = 1; pc <= 6; pc++)
        lookup(&s, pc);
    for (uint32_t i = 6; i < 8; i++)
        for (uint32_t pc = 0; pc <= 6; pc++)
            assert_int_equal(update_at(&s, i, pc, 0).upd_hit_o[0], 0);
    assert_int_equal(update_at(&s, 5, 6, 0).upd_hit_o[0], 1);
}

/* Tree PLRU, 8 entries (nodes 1..7 in heap order, leaves 8..15 = entries
 * 0..7, bit 1 = victim in the upper half), worked out by hand. Sequential
 * fills leave every node 0 (each node's last touch came from its upper
 * half): victim 0. Hit 0 -> nodes 1,2,4 = 1: victim 1->3->6->entry 4.
 * Allocate 4 -> node 6 = 1, 3 = 1, 1 = 0: victim 1->2->5->entry 2.
 * Allocate 2 -> node 5 = 1, 2 = 0, 1 = 1. Hit 0 -> nodes 1,2,4 = 1:
 * victim 1->3->7->entry 6 (true LRU would pick entry 1). Allocate 6 ->
 * node 7 = 1, 3 = 0, 1 = 0: victim 1->2->5->entry 3. */
static void test_plru_order(void **st)
{
    (void)st;
    struct capt_state s;
    mk_lru(&s, 8, CAPT_HIST_LATEST, CAPT_LRU_TREE);
    for (uint32_t pc = 0; pc < 8; pc++)
        assert_int_equal(lookup(&s, 100 + pc).pred_idx_o[0], pc);
    for (unsigned k = 1; k < 8; k++)
        assert_int_equal(s.plru[k], 0);
    assert_int_equal(lookup(&s, 100).pred_hit_o[0], 1);
    struct capt_out o = lookup(&s, 200);
    assert_int_equal(o.pred_evict_o[0], 1);
    assert_int_equal(o.pred_idx_o[0], 4);
    assert_int_equal(lookup(&s, 201).pred_idx_o[0], 2);
    assert_int_equal(lookup(&s, 100).pred_hit_o[0], 1);
    assert_int_equal(lookup(&s, 202).pred_idx_o[0], 6);
    assert_int_equal(lookup(&s, 203).pred_idx_o[0], 3);
    assert_int_equal(s.st.evictions, 4);
    step(&s, 0, 0, 0, 0, 0, 0, 1);                 /* flush resets the tree */
    for (unsigned k = 1; k < 8; k++)
        assert_int_equal(s.plru[k], 0);
}

static void test_tag_width(void **st)
{
    (void)st;
    struct capt_state s;
    struct capt_cfg c = capt_cfg_default();
    c.TAG_W = 16;
    assert_int_equal(capt_init(&s, &c), 0);
    lookup(&s, 0x12345678u);
    assert_int_equal(lookup(&s, 0xABCD5678u).pred_hit_o[0], 1); /* low 16 */
    assert_int_equal(lookup(&s, 0x5679u).pred_hit_o[0], 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_fig48_latest),
        cmocka_unit_test(test_sticky_and_ctr2),
        cmocka_unit_test(test_lru_and_flush),
        cmocka_unit_test(test_same_cycle),
        cmocka_unit_test(test_stale_update),
        cmocka_unit_test(test_plru_order),
        cmocka_unit_test(test_tag_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
