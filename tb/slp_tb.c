/* SLP stimulus hooks for the generic lockstep driver (tb/README.md):
 * random launches over every RTL mode and slot (including slots beyond a
 * non-power-of-two table), lookups with all-ones / empty / half / random
 * masks, idle stretches and back-to-back requests; plus the Fig 4.19(a)
 * Balanced masks and the Fig 4.19(b)(c) examples for none (TBC), odd_even,
 * rev_wid and balanced. */
#include <stdio.h>
#include <string.h>

#include "blocks/slp.h"
#include "lockstep.h"

int slp_tb_param(struct slp_cfg *cfg, const char *name, long value);
void slp_tb_dims(const struct slp_cfg *cfg, const char *name, unsigned *bits,
                 unsigned *count);
void slp_tb_stim(struct tb_rng *r, const struct slp_cfg *cfg,
                 const struct slp_out *prev, struct slp_in *in);
int slp_tb_directed(struct ls_ctx *ls, const struct slp_cfg *cfg);

int slp_tb_param(struct slp_cfg *cfg, const char *name, long value)
{
    return slp_set_param(cfg, name, value);
}

void slp_tb_dims(const struct slp_cfg *cfg, const char *name, unsigned *bits,
                 unsigned *count)
{
    slp_port_dims(cfg, name, bits, count);
}

static uint32_t rand_mask(struct tb_rng *r, unsigned W)
{
    uint32_t all = W >= 32 ? 0xFFFFFFFFu : (1u << W) - 1;
    switch (tb_below(r, 6)) {
    case 0: return all;
    case 1: return 0;
    case 2: return all & 0x55555555u;          /* even lanes        */
    case 3: return all & ((1u << (W / 2)) - 1); /* first half        */
    case 4: return all & (uint32_t)(1u << tb_below(r, W));
    default: return all & (uint32_t)tb_rand(r);
    }
}

/* user[0]: cycles left in the phase, user[1]: activity percent,
 * user[2]: launch percent. */
void slp_tb_stim(struct tb_rng *r, const struct slp_cfg *cfg,
                 const struct slp_out *prev, struct slp_in *in)
{
    (void)prev;
    if (r->user[0] == 0) {
        static const unsigned act[] = {0, 10, 50, 100, 100};
        static const unsigned lau[] = {0, 20, 50, 100};
        r->user[0] = 20 + tb_below(r, 1000);
        r->user[1] = act[tb_below(r, 5)];
        r->user[2] = lau[tb_below(r, 4)];
    }
    r->user[0]--;
    unsigned sb = slp_slot_bits(cfg);
    in->slot_i[0] = (uint32_t)tb_below(r, 1u << sb);
    in->wid_i[0] = (uint32_t)tb_below(r, cfg->W);
    in->mode_i[0] = (uint32_t)tb_below(r, 8);
    in->mask_i[0] = rand_mask(r, cfg->W);
    if (tb_below(r, 100) < r->user[1]) {
        in->valid_i[0] = 1;
        in->launch_i[0] = tb_below(r, 100) < r->user[2];
    } else if (tb_chance(r, 1, 2)) {
        in->launch_i[0] = 1; /* launch without valid: must do nothing */
    }
}

/* Thread-id character of Fig 4.19: 0-9 then A-Z. */
static char tid_char(unsigned t)
{
    return (char)(t < 10 ? '0' + t : 'A' + (t - 10));
}

/* Launches warps 0..n-1 under mode with logical mask `mask` and renders
 * each warp's physical lanes as in Fig 4.19 (thread id or '-'). */
static void render(struct ls_ctx *ls, unsigned W, unsigned mode,
                   uint32_t mask, unsigned n, char rows[][40],
                   uint32_t pmask[])
{
    struct slp_in in;
    struct slp_out o;
    for (unsigned w = 0; w < n; w++) {
        memset(&in, 0, sizeof in);
        in.valid_i[0] = 1;
        in.launch_i[0] = 1;
        in.slot_i[0] = w;
        in.wid_i[0] = w;
        in.mode_i[0] = mode;
        in.mask_i[0] = mask;
        ls_step(ls, &in, &o);
        for (unsigned p = 0; p < W; p++)
            rows[w][p] = '-';
        rows[w][W] = 0;
        for (unsigned l = 0; l < W; l++)
            if (mask >> l & 1)
                rows[w][o.phys_o[l]] = tid_char(w * W + l);
        pmask[w] = o.mask_o[0];
    }
}

/* NW_min of a set of physical masks: the largest per-lane count. */
static unsigned nw_min(const uint32_t *pm, unsigned n, unsigned W)
{
    unsigned best = 0;
    for (unsigned l = 0; l < W; l++) {
        unsigned c = 0;
        for (unsigned w = 0; w < n; w++)
            c += pm[w] >> l & 1;
        if (c > best)
            best = c;
    }
    return best;
}

static int expect_rows(struct ls_ctx *ls, const char *what, char rows[][40],
                       const char *const want[4])
{
    int bad = 0;
    for (unsigned w = 0; w < 4; w++)
        if (strcmp(rows[w], want[w]) != 0) {
            printf("%s W%u: got %s expected %s\n", what, w, rows[w], want[w]);
            bad = 1;
        }
    LS_EXPECT(ls, 0, bad);
    return bad;
}

static void fig419a(struct ls_ctx *ls)
{
    static const unsigned masks[8] = {0, 7, 1, 6, 2, 5, 3, 4};
    struct slp_in in;
    struct slp_out o;
    ls_case(ls, "fig4.19a");
    ls_reset(ls);
    for (unsigned w = 0; w < 16; w++) { /* W0..W7, then repeat */
        memset(&in, 0, sizeof in);
        in.valid_i[0] = 1;
        in.launch_i[0] = 1;
        in.slot_i[0] = w % 8;
        in.wid_i[0] = w % 8; /* wid_i carries WID mod W */
        in.mode_i[0] = SLP_BALANCED;
        in.mask_i[0] = 0xFF;
        ls_step(ls, &in, &o);
        LS_EXPECT(ls, masks[w % 8], o.key_o[0]);
        LS_EXPECT(ls, 0xFF, o.mask_o[0]);
        for (unsigned l = 0; l < 8; l++)
            LS_EXPECT(ls, l ^ masks[w % 8], o.phys_o[l]);
    }
    /* the table keeps them: look every slot up again (fixed for life) */
    for (unsigned w = 0; w < 8; w++) {
        memset(&in, 0, sizeof in);
        in.valid_i[0] = 1;
        in.slot_i[0] = w;
        in.mask_i[0] = 0x01;
        ls_step(ls, &in, &o);
        LS_EXPECT(ls, masks[w], o.key_o[0]);
        LS_EXPECT(ls, 1u << masks[w], o.mask_o[0]);
    }
    /* vertical balance: each physical lane holds each logical lane once */
    for (unsigned p = 0; p < 8; p++) {
        unsigned seen = 0;
        for (unsigned w = 0; w < 8; w++)
            seen |= 1u << (p ^ masks[w]);
        LS_EXPECT(ls, 0xFF, seen);
    }
    printf("directed fig4.19a: ok\n");
}

static void fig419bc(struct ls_ctx *ls)
{
    /* (b) even lanes active: 0-2-4-6- */
    static const char *const b_none[4] = {"0-2-4-6-", "8-A-C-E-", "G-I-K-M-", "O-Q-S-U-"};
    static const char *const b_oe[4] = {"0-2-4-6-", "-8-A-C-E", "G-I-K-M-", "-O-Q-S-U"};
    static const char *const b_rev[4] = {"0-2-4-6-", "C-E-8-A-", "I-G-M-K-", "U-S-Q-O-"};
    static const char *const b_bal[4] = {"0-2-4-6-", "-E-C-A-8", "-G-I-K-M", "U-S-Q-O-"};
    /* (c) first half active: 0123---- */
    static const char *const c_none[4] = {"0123----", "89AB----", "GHIJ----", "OPQR----"};
    static const char *const c_oe[4] = {"0123----", "98BA----", "GHIJ----", "PORQ----"};
    static const char *const c_rev[4] = {"0123----", "----89AB", "IJGH----", "----QROP"};
    static const char *const c_bal[4] = {"0123----", "----BA98", "HGJI----", "----QROP"};
    char rows[4][40];
    uint32_t pm[4];
    ls_case(ls, "fig4.19b");
    ls_reset(ls);
    render(ls, 8, SLP_NONE, 0x55, 4, rows, pm);
    expect_rows(ls, "fig4.19b TBC", rows, b_none);
    LS_EXPECT(ls, 4, nw_min(pm, 4, 8)); /* aligned: no compaction */
    render(ls, 8, SLP_ODD_EVEN, 0x55, 4, rows, pm);
    expect_rows(ls, "fig4.19b Odd_Even", rows, b_oe);
    LS_EXPECT(ls, 2, nw_min(pm, 4, 8));
    render(ls, 8, SLP_REV_WID, 0x55, 4, rows, pm);
    expect_rows(ls, "fig4.19b Rev_WID", rows, b_rev);
    LS_EXPECT(ls, 4, nw_min(pm, 4, 8)); /* Rev_WID does not compact */
    render(ls, 8, SLP_BALANCED, 0x55, 4, rows, pm);
    expect_rows(ls, "fig4.19b Balanced", rows, b_bal);
    LS_EXPECT(ls, 2, nw_min(pm, 4, 8));
    printf("directed fig4.19b: ok\n");
    ls_case(ls, "fig4.19c");
    render(ls, 8, SLP_NONE, 0x0F, 4, rows, pm);
    expect_rows(ls, "fig4.19c TBC", rows, c_none);
    LS_EXPECT(ls, 4, nw_min(pm, 4, 8));
    render(ls, 8, SLP_ODD_EVEN, 0x0F, 4, rows, pm);
    expect_rows(ls, "fig4.19c Odd_Even", rows, c_oe);
    LS_EXPECT(ls, 4, nw_min(pm, 4, 8)); /* Odd_Even does not compact */
    render(ls, 8, SLP_REV_WID, 0x0F, 4, rows, pm);
    expect_rows(ls, "fig4.19c Rev_WID", rows, c_rev);
    LS_EXPECT(ls, 2, nw_min(pm, 4, 8));
    render(ls, 8, SLP_BALANCED, 0x0F, 4, rows, pm);
    expect_rows(ls, "fig4.19c Balanced", rows, c_bal);
    LS_EXPECT(ls, 2, nw_min(pm, 4, 8));
    printf("directed fig4.19c: ok\n");
}

/* Any W: Balanced is vertically balanced over W warps, every RTL mode
 * gives a permutation, and rotate_odd_1 rotates odd warps by one lane. */
static void modes_any_w(struct ls_ctx *ls, const struct slp_cfg *cfg)
{
    unsigned W = cfg->W;
    uint32_t all = W >= 32 ? 0xFFFFFFFFu : (1u << W) - 1;
    struct slp_in in;
    struct slp_out o;
    ls_case(ls, "modes");
    ls_reset(ls);
    for (unsigned mode = 0; mode < 8; mode++) {
        uint32_t col[SLP_MAX_W];
        memset(col, 0, sizeof col);
        for (unsigned w = 0; w < W; w++) {
            memset(&in, 0, sizeof in);
            in.valid_i[0] = 1;
            in.launch_i[0] = 1;
            in.slot_i[0] = w % cfg->NWARPS;
            in.wid_i[0] = w;
            in.mode_i[0] = mode;
            in.mask_i[0] = all;
            ls_step(ls, &in, &o);
            LS_EXPECT(ls, all, o.mask_o[0]); /* a permutation */
            for (unsigned l = 0; l < W; l++)
                col[o.phys_o[l]] |= 1u << l;
            if (mode == SLP_ROTATE_ODD_1 && cfg->ROT_EN && (w & 1))
                LS_EXPECT(ls, 1, o.phys_o[0]);
        }
        if (mode == SLP_BALANCED)
            for (unsigned p = 0; p < W; p++)
                LS_EXPECT(ls, all, col[p]);
    }
    printf("directed modes (W=%u): ok\n", W);
}

int slp_tb_directed(struct ls_ctx *ls, const struct slp_cfg *cfg)
{
    if (cfg->W == 8 && cfg->NWARPS >= 8) {
        fig419a(ls);
        fig419bc(ls);
    }
    modes_any_w(ls, cfg);
    return ls->fails;
}
