/* RVC compressor lockstep stimulus and directed cases (hooks of
 * tb/README.md). Random stimulus: register values with 0..4 common
 * leading bytes (whole register or per half), scalars, arithmetic
 * sequences (sec. 3.1), one lane breaking one byte, values equal only in
 * the active lanes; masks all-ones / random / sparse / one lane / none /
 * all but one / one half; half mode on and off; back-to-back writes and
 * idle gaps. Directed: G-Scalar sec. 3.1 (enc 1110), Fig 6, Fig 7(a)
 * leading one, Fig 7(b), half mode with FS. */
#include <stdio.h>
#include <string.h>

#include "blocks/rvc_comp.h"
#include "tb/lockstep.h"

int rvc_comp_tb_param(struct rvc_comp_cfg *cfg, const char *name,
                      long value);
void rvc_comp_tb_dims(const struct rvc_comp_cfg *cfg, const char *name,
                      unsigned *bits, unsigned *count);
void rvc_comp_tb_stim(struct tb_rng *r, const struct rvc_comp_cfg *cfg,
                      const struct rvc_comp_out *prev,
                      struct rvc_comp_in *in);
int rvc_comp_tb_directed(struct ls_ctx *ls, const struct rvc_comp_cfg *cfg);

int rvc_comp_tb_param(struct rvc_comp_cfg *cfg, const char *name,
                      long value)
{
    if (strcmp(name, "W") != 0)
        return -1;
    cfg->W = (unsigned)value;
    return 0;
}

void rvc_comp_tb_dims(const struct rvc_comp_cfg *cfg, const char *name,
                      unsigned *bits, unsigned *count)
{
    if (!strcmp(name, "data_i") || !strcmp(name, "data_o"))
        *count = cfg->W;
    else if (!strcmp(name, "mask_i") || !strcmp(name, "mask_o"))
        *bits = cfg->W;
}

static uint32_t keep_hi(unsigned bytes)
{
    return bytes ? 0xffffffffu << (32 - 8 * bytes) : 0;
}

/* Values of lanes lo..hi-1 sharing `keep` leading bytes with base. */
static void fill_keep(struct tb_rng *r, uint32_t *v, unsigned lo,
                      unsigned hi, uint32_t base, unsigned keep)
{
    uint32_t k = keep_hi(keep);
    for (unsigned l = lo; l < hi; l++)
        v[l] = (base & k) | ((uint32_t)tb_rand(r) & ~k);
}

enum { V_RANDOM, V_KEEP, V_SCALAR, V_HALVES, V_SEQ, V_BREAK, V_N };
enum { M_ALL, M_RANDOM, M_SPARSE, M_ONE, M_NONE, M_ALLBUT1, M_HALF, M_N };

static void gen_values(struct tb_rng *r, unsigned W, unsigned mode,
                       uint32_t *v)
{
    uint32_t base = (uint32_t)tb_rand(r);
    switch (mode) {
    case V_RANDOM:
        fill_keep(r, v, 0, W, base, 0);
        break;
    case V_KEEP:
        fill_keep(r, v, 0, W, base, (unsigned)tb_below(r, 5));
        break;
    case V_SCALAR:
        for (unsigned l = 0; l < W; l++)
            v[l] = base;
        break;
    case V_HALVES: {
        uint32_t b2 = tb_chance(r, 1, 3) ? base : (uint32_t)tb_rand(r);
        fill_keep(r, v, 0, W / 2, base, (unsigned)tb_below(r, 5));
        fill_keep(r, v, W / 2, W, b2, (unsigned)tb_below(r, 5));
        break;
    }
    case V_SEQ: {
        uint32_t stride = 1u << tb_below(r, 12);
        for (unsigned l = 0; l < W; l++)
            v[l] = base + stride * l;
        break;
    }
    default: { /* V_BREAK: all equal but one lane differs in one byte */
        for (unsigned l = 0; l < W; l++)
            v[l] = base;
        unsigned b = (unsigned)tb_below(r, 4);
        v[tb_below(r, W)] ^= (1u + (uint32_t)tb_below(r, 255)) << (8 * b);
        break;
    }
    }
}

static uint32_t gen_mask(struct tb_rng *r, unsigned W, unsigned mode)
{
    uint32_t all = rvc_lane_mask(W);
    switch (mode) {
    case M_ALL: return all;
    case M_RANDOM: return (uint32_t)tb_rand(r) & all;
    case M_SPARSE: return (uint32_t)(tb_rand(r) & tb_rand(r)) & all;
    case M_ONE: return 1u << tb_below(r, W);
    case M_NONE: return 0;
    case M_ALLBUT1: return all & ~(1u << tb_below(r, W));
    default: return tb_chance(r, 1, 2) ? rvc_lane_mask(W / 2)
                                       : all & ~rvc_lane_mask(W / 2);
    }
}

/* Scratch: u[0] idle cycles left, u[1] writes left in the burst. */
void rvc_comp_tb_stim(struct tb_rng *r, const struct rvc_comp_cfg *cfg,
                      const struct rvc_comp_out *prev,
                      struct rvc_comp_in *in)
{
    uint64_t *u = r->user;
    unsigned W = cfg->W;
    (void)prev;
    memset(in, 0, sizeof *in);
    if (u[1] == 0) {
        u[1] = 1 + tb_below(r, 20);
        u[0] = tb_chance(r, 1, 3) ? tb_below(r, 6) : 0;
    }
    if (u[0]) {                       /* idle: inputs carry junk */
        u[0]--;
        if (tb_chance(r, 1, 2)) {
            gen_values(r, W, V_RANDOM, in->data_i);
            in->mask_i[0] = gen_mask(r, W, M_RANDOM);
            in->half_i[0] = (uint32_t)tb_below(r, 2);
        }
        return;
    }
    u[1]--;
    in->valid_i[0] = 1;
    in->half_i[0] = tb_chance(r, 1, 3);
    gen_values(r, W, (unsigned)tb_below(r, V_N), in->data_i);
    unsigned mm = tb_chance(r, 1, 2) ? M_ALL : (unsigned)tb_below(r, M_N);
    in->mask_i[0] = gen_mask(r, W, mm);
    /* divergent scalar: active lanes equal, inactive junk */
    if (mm != M_ALL && tb_chance(r, 1, 2)) {
        uint32_t s = (uint32_t)tb_rand(r);
        unsigned keep = tb_chance(r, 1, 2) ? 4 : (unsigned)tb_below(r, 4);
        for (unsigned l = 0; l < W; l++)
            if (in->mask_i[0] >> l & 1u)
                in->data_i[l] = (s & keep_hi(keep)) |
                                ((uint32_t)tb_rand(r) & ~keep_hi(keep));
    }
}

static void write1(struct ls_ctx *ls, unsigned W, const uint32_t *v,
                   uint32_t mask, unsigned half, struct rvc_comp_out *o)
{
    struct rvc_comp_in in;
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    memcpy(in.data_i, v, W * sizeof *v);
    in.mask_i[0] = mask & rvc_lane_mask(W);
    in.half_i[0] = half;
    ls_step(ls, &in, o);
    LS_EXPECT(ls, 1, o->valid_o[0]);
}

static int done(struct ls_ctx *ls, const char *name, int before)
{
    printf("directed %s: %s\n", name, ls->fails > before ? "FAILED" : "ok");
    return ls->fails;
}

int rvc_comp_tb_directed(struct ls_ctx *ls, const struct rvc_comp_cfg *cfg)
{
    unsigned W = cfg->W;
    uint32_t v[RVC_MAX_W];
    struct rvc_comp_out o;
    struct rvc_comp_in idle;
    int f;
    if (W < 8)
        return 0;
    memset(&idle, 0, sizeof idle);

    /* Sec. 3.1 / Fig 2: C04039C0, C04039C8, ..., C04039F8 (repeated). */
    f = ls->fails;
    ls_case(ls, "gscalar_sec3.1");
    ls_reset(ls);
    for (unsigned l = 0; l < W; l++)
        v[l] = 0xC04039C0u + 8u * (l % 8);
    write1(ls, W, v, 0xffffffffu, 0, &o);
    LS_EXPECT(ls, 0xE, o.enc_o[0]);
    LS_EXPECT(ls, 0, o.d_o[0]);
    LS_EXPECT(ls, 0xC04039, o.bvr_o[0] >> 8);
    LS_EXPECT(ls, 0x11, o.we_o[0]);          /* array 0 only */
    ls_step(ls, &idle, &o);                  /* idle edge: payload holds */
    LS_EXPECT(ls, 0, o.valid_o[0]);
    LS_EXPECT(ls, 0xE, o.enc_o[0]);
    done(ls, "gscalar_sec3.1", f);

    /* Fig 6: lanes 7..0 = A A A B A A B C, M = 10101100. */
    f = ls->fails;
    ls_case(ls, "gscalar_fig6");
    {
        const uint32_t A = 0x12345678, B = 0x12345679, C = 0x22345678;
        const uint32_t f6[8] = { C, B, A, A, B, A, A, A };
        for (unsigned l = 0; l < W; l++)
            v[l] = l < 8 ? f6[l] : 0xdead0000u + l;
        write1(ls, W, v, 0xAC, 0, &o);
        LS_EXPECT(ls, 1, o.d_o[0]);
        LS_EXPECT(ls, 0xF, o.enc_o[0]);
        LS_EXPECT(ls, 0xAC, o.bvr_o[0]);
        LS_EXPECT(ls, 0xFF, o.we_o[0]);
        write1(ls, W, v, 0xAD, 0, &o);       /* + lane 0 (C): not scalar */
        LS_EXPECT(ls, 0x0, o.enc_o[0]);
    }
    done(ls, "gscalar_fig6", f);

    /* Fig 7(b): r2 * 2 under M = 10001111; the other path's values. */
    f = ls->fails;
    ls_case(ls, "gscalar_fig7b");
    {
        const uint32_t r2[8] = { 8, 8, 8, 8, 1, 0, (uint32_t)-2, 8 };
        for (unsigned l = 0; l < W; l++)
            v[l] = l < 8 ? r2[l] : 8;
        write1(ls, W, v, 0x8F, 0, &o);
        LS_EXPECT(ls, 0xF, o.enc_o[0]);
        LS_EXPECT(ls, 0x8F, o.bvr_o[0]);
        write1(ls, W, v, 0x70, 0, &o);       /* -2, 0, 1: no byte equal */
        LS_EXPECT(ls, 0x0, o.enc_o[0]);
        LS_EXPECT(ls, 0x70, o.mask_o[0]);
    }
    done(ls, "gscalar_fig7b", f);

    /* Fig 7(a): M = 0100000011111010, leading one = lane 14. */
    if (W >= 16) {
        f = ls->fails;
        ls_case(ls, "gscalar_fig7a");
        for (unsigned l = 0; l < W; l++)
            v[l] = (0x40FAu >> l & 1u) ? 0xCAFE0042u : 0x1000u * l + 7u;
        write1(ls, W, v, 0x40FA, 0, &o);
        LS_EXPECT(ls, 0xF, o.enc_o[0]);
        v[14] ^= 1u;
        write1(ls, W, v, 0x40FA, 0, &o);
        LS_EXPECT(ls, 0xE, o.enc_o[0]);
        done(ls, "gscalar_fig7a", f);
    }

    /* Half mode (sec. 4.3): encL 1111, encH 1100, then FS. */
    f = ls->fails;
    ls_case(ls, "gscalar_half");
    for (unsigned l = 0; l < W; l++)
        v[l] = l < W / 2 ? 0x11111111u : 0xABCD0000u | (l * 0x0101u);
    write1(ls, W, v, 0xffffffffu, 1, &o);
    LS_EXPECT(ls, 0xF, o.encl_o[0]);
    LS_EXPECT(ls, 0xC, o.ench_o[0]);
    LS_EXPECT(ls, 0, o.fs_o[0]);
    LS_EXPECT(ls, 0x30, o.we_o[0]);
    LS_EXPECT(ls, 0xABCD0000u | ((W / 2) * 0x0101u), o.bvrh_o[0]);
    for (unsigned l = 0; l < W; l++)
        v[l] = 0x11111111u;
    write1(ls, W, v, 0xffffffffu, 1, &o);
    LS_EXPECT(ls, 1, o.fs_o[0]);
    LS_EXPECT(ls, 0x00, o.we_o[0]);
    done(ls, "gscalar_half", f);
    return ls->fails;
}
