/* RVC decompressor lockstep stimulus and directed cases (hooks of
 * tb/README.md). Random stimulus: stored registers with valid thermometer
 * codes (and sometimes any 4-bit code), D = 0/1, half mode with FS, BVR
 * equal to the reading mask or not, junk in the byte arrays, reading masks
 * all-ones / equal to the stored mask / random; back-to-back reads and
 * idle gaps. Directed: G-Scalar sec. 3.1 rebuild from array 0, Fig 6 and
 * Fig 7(b) divergent-scalar checks, half-scalar, full scalar. */
#include <stdio.h>
#include <string.h>

#include "blocks/rvc_decomp.h"
#include "tb/lockstep.h"

int rvc_decomp_tb_param(struct rvc_decomp_cfg *cfg, const char *name,
                        long value);
void rvc_decomp_tb_dims(const struct rvc_decomp_cfg *cfg, const char *name,
                        unsigned *bits, unsigned *count);
void rvc_decomp_tb_stim(struct tb_rng *r, const struct rvc_decomp_cfg *cfg,
                        const struct rvc_decomp_out *prev,
                        struct rvc_decomp_in *in);
int rvc_decomp_tb_directed(struct ls_ctx *ls,
                           const struct rvc_decomp_cfg *cfg);

int rvc_decomp_tb_param(struct rvc_decomp_cfg *cfg, const char *name,
                        long value)
{
    if (strcmp(name, "W") != 0)
        return -1;
    cfg->W = (unsigned)value;
    return 0;
}

void rvc_decomp_tb_dims(const struct rvc_decomp_cfg *cfg, const char *name,
                        unsigned *bits, unsigned *count)
{
    if (!strcmp(name, "arr_i") || !strcmp(name, "data_o"))
        *count = cfg->W;
    else if (!strcmp(name, "mask_i"))
        *bits = cfg->W;
}

static uint32_t lanes(unsigned W)
{
    return W >= 32 ? 0xffffffffu : ((1u << W) - 1u);
}

static uint32_t therm(struct tb_rng *r)
{
    static const uint32_t codes[5] = { 0x0, 0x8, 0xC, 0xE, 0xF };
    if (tb_chance(r, 1, 10))
        return (uint32_t)tb_below(r, 16);   /* any code (not produced) */
    return codes[tb_below(r, 5)];
}

/* Scratch: u[0] idle cycles left, u[1] reads left in the burst. */
void rvc_decomp_tb_stim(struct tb_rng *r, const struct rvc_decomp_cfg *cfg,
                        const struct rvc_decomp_out *prev,
                        struct rvc_decomp_in *in)
{
    uint64_t *u = r->user;
    unsigned W = cfg->W;
    uint32_t all = lanes(W);
    (void)prev;
    memset(in, 0, sizeof *in);
    if (u[1] == 0) {
        u[1] = 1 + tb_below(r, 20);
        u[0] = tb_chance(r, 1, 3) ? tb_below(r, 6) : 0;
    }
    int idle = u[0] != 0;
    if (idle)
        u[0]--;
    else
        u[1]--;
    in->valid_i[0] = !idle;
    in->d_i[0] = tb_chance(r, 1, 3);
    in->half_i[0] = tb_chance(r, 1, 3);
    in->enc_i[0] = therm(r);
    in->encl_i[0] = therm(r);
    in->ench_i[0] = therm(r);
    if (tb_chance(r, 1, 4))
        in->encl_i[0] = in->ench_i[0] = in->enc_i[0] = 0xF;
    in->fs_i[0] = tb_chance(r, 1, 4);
    in->bvr_i[0] = (uint32_t)tb_rand(r);
    in->bvrh_i[0] = (uint32_t)tb_rand(r);
    for (unsigned l = 0; l < W; l++)
        in->arr_i[l] = (uint32_t)tb_rand(r);
    switch (tb_below(r, 4)) {
    case 0: in->mask_i[0] = all; break;
    case 1: in->mask_i[0] = (uint32_t)tb_rand(r) & all; break;
    default:                               /* mask equals the stored M */
        in->mask_i[0] = (uint32_t)tb_rand(r) & all;
        in->bvr_i[0] = in->mask_i[0] |
                       (tb_chance(r, 1, 2) ? 0 : ((uint32_t)tb_rand(r) & ~all));
        break;
    }
}

static void read1(struct ls_ctx *ls, const struct rvc_decomp_in *in,
                  struct rvc_decomp_out *o)
{
    ls_step(ls, in, o);
    LS_EXPECT(ls, 1, o->valid_o[0]);
}

static void done(struct ls_ctx *ls, const char *name, int before)
{
    printf("directed %s: %s\n", name, ls->fails > before ? "FAILED" : "ok");
}

int rvc_decomp_tb_directed(struct ls_ctx *ls,
                           const struct rvc_decomp_cfg *cfg)
{
    unsigned W = cfg->W;
    uint32_t all = lanes(W);
    struct rvc_decomp_in in;
    struct rvc_decomp_out o;
    int f;
    if (W < 8)
        return 0;

    /* Sec. 3.1: enc 1110, base C04039xx, byte 0 of each lane in array 0,
     * junk in arrays 1..3. */
    f = ls->fails;
    ls_case(ls, "gscalar_sec3.1");
    ls_reset(ls);
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.enc_i[0] = 0xE;
    in.bvr_i[0] = 0xC04039C0u;
    in.mask_i[0] = all;
    for (unsigned l = 0; l < W; l++)
        in.arr_i[l] = 0x5a5a5a00u | (0xC0u + 8u * (l % 8));
    read1(ls, &in, &o);
    LS_EXPECT(ls, 0x11, o.re_o[0]);
    LS_EXPECT(ls, RVC_CLS_NONE, o.cls_o[0]);
    for (unsigned l = 0; l < W; l++)
        LS_EXPECT(ls, 0xC04039C0u + 8u * (l % 8), o.data_o[l]);
    done(ls, "gscalar_sec3.1", f);

    /* Fig 6: stored under M = 10101100 with enc 1111 (D = 1). */
    f = ls->fails;
    ls_case(ls, "gscalar_fig6");
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.d_i[0] = 1;
    in.enc_i[0] = 0xF;
    in.bvr_i[0] = 0xAC;
    in.mask_i[0] = 0xAC;
    for (unsigned l = 0; l < W; l++)
        in.arr_i[l] = 0x12345678u + ((0xACu >> l & 1u) ? 0 : l);
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_DIV_SCALAR, o.cls_o[0]);
    LS_EXPECT(ls, 0xFF, o.re_o[0]);
    for (unsigned l = 0; l < W; l++)
        LS_EXPECT(ls, in.arr_i[l], o.data_o[l]);
    /* Fig 7(b): EBR 1111 stored under 10001111, read under 01110000. */
    in.bvr_i[0] = 0x8F;
    in.mask_i[0] = 0x70;
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_NONE, o.cls_o[0]);
    in.mask_i[0] = 0x8F;
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_DIV_SCALAR, o.cls_o[0]);
    done(ls, "gscalar_fig6_fig7b", f);

    /* Half mode: encL 1111, encH 1100 -> half-scalar; FS -> scalar. */
    f = ls->fails;
    ls_case(ls, "gscalar_half");
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.half_i[0] = 1;
    in.encl_i[0] = 0xF;
    in.ench_i[0] = 0xC;
    in.bvr_i[0] = 0x11111111u;
    in.bvrh_i[0] = 0xABCD0000u;
    in.mask_i[0] = all;
    for (unsigned l = 0; l < W; l++)
        in.arr_i[l] = 0x5a5a0000u | (l * 0x0101u);
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_HALF_SCALAR, o.cls_o[0]);
    LS_EXPECT(ls, 0x1, o.hsc_o[0]);
    LS_EXPECT(ls, 0x30, o.re_o[0]);
    LS_EXPECT(ls, 0x11111111u, o.data_o[0]);
    LS_EXPECT(ls, 0xABCD0000u | ((W - 1) * 0x0101u), o.data_o[W - 1]);
    in.ench_i[0] = 0xF;
    in.fs_i[0] = 1;
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_SCALAR, o.cls_o[0]);
    LS_EXPECT(ls, 0x00, o.re_o[0]);
    /* scalar without half mode: only the BVR is read */
    memset(&in, 0, sizeof in);
    in.valid_i[0] = 1;
    in.enc_i[0] = 0xF;
    in.bvr_i[0] = 0x42;
    in.mask_i[0] = all;
    read1(ls, &in, &o);
    LS_EXPECT(ls, RVC_CLS_SCALAR, o.cls_o[0]);
    LS_EXPECT(ls, 0x42, o.data_o[W / 2]);
    done(ls, "gscalar_half_scalar", f);
    return ls->fails;
}
