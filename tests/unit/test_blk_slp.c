/* Unit tests of the SLP C model (csim/blocks/slp.c): Fig 4.19(a) Balanced
 * masks for W = 8, the Fig 4.19(b)(c) examples for none, odd_even, rev_wid
 * and balanced, vertical balance, the per-slot table and its timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "blocks/slp.h"

static void test_params(void **st)
{
    (void)st;
    struct slp_state s;
    struct slp_cfg c = slp_cfg_default();
    assert_int_equal(c.W, 32);
    assert_int_equal(c.NWARPS, 32);
    assert_int_equal(slp_init(&s, &c), 0);
    c.ROT_EN = 0;
    assert_int_equal(slp_storage_bits(&c), 160); /* 32 masks x 5 bits */
    c.W = 12;
    assert_int_not_equal(slp_init(&s, &c), 0);
    c.W = 64;
    assert_int_not_equal(slp_init(&s, &c), 0);
    c.W = 8;
    c.NWARPS = 48;             /* gtx480: 48 warp slots per SM */
    assert_int_equal(slp_init(&s, &c), 0);
    assert_int_equal(slp_slot_bits(&c), 6);
    c.NWARPS = 65;             /* beyond CORE_MAX_SLOTS */
    assert_int_not_equal(slp_init(&s, &c), 0);
}

static void test_fig419a(void **st)
{
    (void)st;
    static const unsigned masks[8] = {0, 7, 1, 6, 2, 5, 3, 4};
    for (unsigned w = 0; w < 24; w++) {
        unsigned rot;
        assert_int_equal(slp_key(8, SLP_BALANCED, w, 1, &rot), masks[w % 8]);
        assert_int_equal(rot, 0);
    }
    /* odd = complement of its even pair, for every W */
    for (unsigned W = 4; W <= 32; W *= 2)
        for (unsigned w = 0; w < 2 * W; w += 2) {
            unsigned r;
            assert_int_equal(slp_key(W, SLP_BALANCED, w, 1, &r) ^
                                 slp_key(W, SLP_BALANCED, w + 1, 1, &r),
                             W - 1);
        }
}

static void render(unsigned mode, uint32_t mask, unsigned w, char *row)
{
    unsigned phys[SLP_MAX_W];
    assert_int_equal(slp_map(8, mode, w, 0, phys), 0);
    memset(row, '-', 8);
    row[8] = 0;
    for (unsigned l = 0; l < 8; l++)
        if (mask >> l & 1) {
            unsigned t = w * 8 + l;
            row[phys[l]] = (char)(t < 10 ? '0' + t : 'A' + (t - 10));
        }
}

static void check_rows(unsigned mode, uint32_t mask, const char *const want[4])
{
    char row[16];
    for (unsigned w = 0; w < 4; w++) {
        render(mode, mask, w, row);
        assert_string_equal(row, want[w]);
    }
}

static void test_fig419b(void **st)
{
    (void)st;
    static const char *const none[4] = {"0-2-4-6-", "8-A-C-E-", "G-I-K-M-", "O-Q-S-U-"};
    static const char *const oe[4] = {"0-2-4-6-", "-8-A-C-E", "G-I-K-M-", "-O-Q-S-U"};
    static const char *const rev[4] = {"0-2-4-6-", "C-E-8-A-", "I-G-M-K-", "U-S-Q-O-"};
    static const char *const bal[4] = {"0-2-4-6-", "-E-C-A-8", "-G-I-K-M", "U-S-Q-O-"};
    check_rows(SLP_NONE, 0x55, none);
    check_rows(SLP_ODD_EVEN, 0x55, oe);
    check_rows(SLP_REV_WID, 0x55, rev);
    check_rows(SLP_BALANCED, 0x55, bal);
}

static void test_fig419c(void **st)
{
    (void)st;
    static const char *const none[4] = {"0123----", "89AB----", "GHIJ----", "OPQR----"};
    static const char *const oe[4] = {"0123----", "98BA----", "GHIJ----", "PORQ----"};
    static const char *const rev[4] = {"0123----", "----89AB", "IJGH----", "----QROP"};
    static const char *const bal[4] = {"0123----", "----BA98", "HGJI----", "----QROP"};
    check_rows(SLP_NONE, 0x0F, none);
    check_rows(SLP_ODD_EVEN, 0x0F, oe);
    check_rows(SLP_REV_WID, 0x0F, rev);
    check_rows(SLP_BALANCED, 0x0F, bal);
}

/* Every mode is a permutation; Balanced is vertically balanced. */
static void test_permutations(void **st)
{
    (void)st;
    for (unsigned W = 4; W <= 32; W *= 2)
        for (unsigned mode = 0; mode <= SLP_RANDOM; mode++) {
            uint32_t col[SLP_MAX_W] = {0};
            for (unsigned w = 0; w < W; w++) {
                unsigned phys[SLP_MAX_W];
                uint32_t seen = 0;
                assert_int_equal(slp_map(W, mode, w, 42, phys), 0);
                for (unsigned l = 0; l < W; l++) {
                    assert_true(phys[l] < W);
                    seen |= 1u << phys[l];
                    col[phys[l]] |= 1u << l;
                }
                assert_int_equal(seen, W == 32 ? 0xFFFFFFFFu : (1u << W) - 1);
            }
            if (mode == SLP_BALANCED)
                for (unsigned p = 0; p < W; p++)
                    assert_int_equal(col[p], W == 32 ? 0xFFFFFFFFu : (1u << W) - 1);
        }
    unsigned a[SLP_MAX_W], b[SLP_MAX_W];
    slp_map(32, SLP_RANDOM, 3, 1, a);
    slp_map(32, SLP_RANDOM, 3, 2, b);
    assert_memory_not_equal(a, b, sizeof a); /* the seed matters */
    assert_int_equal(slp_map(32, 9, 0, 0, a), -1);
}

static struct slp_out req(struct slp_state *s, int launch, unsigned slot,
                          unsigned wid, unsigned mode, uint32_t mask)
{
    struct slp_in in;
    struct slp_out o;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.launch_i[0] = (uint32_t)launch;
    in.slot_i[0] = slot;
    in.wid_i[0] = wid;
    in.mode_i[0] = mode;
    in.mask_i[0] = mask;
    slp_step(s, &in, &o);
    return o;
}

static void test_table(void **st)
{
    (void)st;
    struct slp_state s;
    struct slp_cfg c = slp_cfg_default();
    c.W = 8;
    c.NWARPS = 8;
    assert_int_equal(slp_init(&s, &c), 0);
    struct slp_out o = req(&s, 1, 3, 3, SLP_BALANCED, 0x01);
    assert_int_equal(o.valid_o[0], 1);
    assert_int_equal(o.key_o[0], 6);
    assert_int_equal(o.mask_o[0], 1u << 6);
    o = req(&s, 0, 3, 0, SLP_NONE, 0x03); /* lookup ignores wid/mode */
    assert_int_equal(o.key_o[0], 6);
    assert_int_equal(o.mask_o[0], (1u << 6) | (1u << 7));
    o = req(&s, 1, 5, 1, SLP_ROTATE_ODD_1, 0x80);
    assert_int_equal(o.rot_o[0], 1);
    assert_int_equal(o.phys_o[7], 0);
    assert_int_equal(o.mask_o[0], 0x01);
    assert_int_equal(req(&s, 0, 4, 0, 0, 0xF0).mask_o[0], 0xF0); /* never launched */
    struct slp_in idle;
    memset(&idle, 0, sizeof idle);
    idle.launch_i[0] = 1; /* without valid_i: nothing happens */
    slp_step(&s, &idle, &o);
    assert_int_equal(o.valid_o[0], 0);
    assert_int_equal(o.mask_o[0], 0);
    assert_int_equal(req(&s, 0, 3, 0, 0, 1).key_o[0], 6);
    assert_int_equal(s.st.launches, 2);
    /* ROT_EN = 0: rotate_odd_1 acts as identity */
    c.ROT_EN = 0;
    assert_int_equal(slp_init(&s, &c), 0);
    o = req(&s, 1, 1, 1, SLP_ROTATE_ODD_1, 0x80);
    assert_int_equal(o.rot_o[0], 0);
    assert_int_equal(o.mask_o[0], 0x80);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_fig419a),
        cmocka_unit_test(test_fig419b),
        cmocka_unit_test(test_fig419c),
        cmocka_unit_test(test_permutations),
        cmocka_unit_test(test_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
