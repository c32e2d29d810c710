/* Unit tests of the CAPT C model (csim/blocks/capt.c): the Fig 4.8 CAPRI
 * sequence in every history mode, LRU replacement, flush, saturation and
 * the same-cycle lookup/update rule of blocks.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "blocks/capt.h"

static struct capt_out step(struct capt_state *s, int lv, uint32_t lpc,
                            int uv, uint32_t upc, int adeq, int flush)
{
    struct capt_in in;
    struct capt_out o;
    memset(&in, 0, sizeof in);
    in.lookup_valid_i[0] = (uint32_t)lv;
    in.lookup_pc_i[0] = lpc;
    in.update_valid_i[0] = (uint32_t)uv;
    in.update_pc_i[0] = upc;
    in.update_adequate_i[0] = (uint32_t)adeq;
    in.flush_i[0] = (uint32_t)flush;
    capt_step(s, &in, &o);
    return o;
}

static struct capt_out lookup(struct capt_state *s, uint32_t pc)
{
    return step(s, 1, pc, 0, 0, 0, 0);
}

static struct capt_out update(struct capt_state *s, uint32_t pc, int adeq)
{
    return step(s, 0, 0, 1, pc, adeq, 0);
}

static void mk(struct capt_state *s, unsigned entries, unsigned hist)
{
    struct capt_cfg c = capt_cfg_default();
    c.ENTRIES = entries;
    c.HIST = hist;
    assert_int_equal(capt_init(s, &c), 0);
}

static void test_params(void **st)
{
    (void)st;
    struct capt_state s;
    struct capt_cfg c = capt_cfg_default();
    assert_int_equal(c.ENTRIES, 32);
    assert_int_equal(c.TAG_W, 32);
    assert_int_equal(c.HIST, CAPT_HIST_LATEST);
    assert_int_equal(capt_init(&s, &c), 0);
    assert_int_equal(capt_storage_bits(&c), 1088); /* 32 x (32+1+1) */
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
    struct capt_out o = step(&s, 0, br, 0, 0, 0, 0); /* (a) */
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
    o = step(&s, 1, 20, 0, 0, 0, 1); /* flush: lookup sees old state */
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
    struct capt_out o = step(&s, 1, 5, 1, 5, 0, 0);
    assert_int_equal(o.pred_stall_o[0], 1); /* old history */
    assert_int_equal(o.upd_hit_o[0], 1);
    capt_probe(&s, 5, &h);
    assert_int_equal(h, 0);
    o = step(&s, 1, 6, 1, 6, 0, 0);         /* miss + update of it */
    assert_int_equal(o.upd_hit_o[0], 0);
    capt_probe(&s, 6, &h);
    assert_int_equal(h, 1);                 /* allocated adequate */
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
        cmocka_unit_test(test_tag_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
