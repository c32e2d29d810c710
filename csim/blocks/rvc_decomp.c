/* RVC decompressor C model; see rvc_decomp.h and docs/blocks/rvc.md. */
#include "blocks/rvc_decomp.h"

#include <string.h>

#include "blocks/blk_port.h"

/* Low W bits set (own copy: the decompressor links without rvc_comp.c). */
static uint32_t lane_mask(unsigned W)
{
    return W >= 32 ? 0xffffffffu : ((1u << W) - 1u);
}

/* The bytes enc takes from the base (bit b of enc: byte b). */
static uint32_t keep_mask(unsigned enc)
{
    /* bit b of enc moved to bit 8b (the four shifted copies of enc do not
     * overlap), then each such bit spread over its byte */
    return ((enc & 0xfu) * 0x204081u & 0x01010101u) * 0xffu;
}

/* Lanes lo..hi-1 rebuilt: the bytes of keep from the base, the rest from
 * the arrays (data and arr do not overlap: restrict lets the compiler
 * vectorise without a run-time overlap test). */
static void rebuild(uint32_t *restrict data, const uint32_t *restrict arr,
                    unsigned lo, unsigned hi, uint32_t base, uint32_t keep)
{
    uint32_t b = base & keep;
    data += lo;
    arr += lo;
    /* W = 32 (a register or a half): fixed-length loops the compiler
     * vectorises */
    if (hi - lo == 32) {
        for (unsigned l = 0; l < 32; l++)
            data[l] = b | (arr[l] & ~keep);
        return;
    }
    if (hi - lo == 16) {
        for (unsigned l = 0; l < 16; l++)
            data[l] = b | (arr[l] & ~keep);
        return;
    }
    for (unsigned l = 0; l < hi - lo; l++)
        data[l] = b | (arr[l] & ~keep);
}

/* The combinational decompressor: fills data[0..W-1] (not overlapping
 * in) and returns the class; *re and *hsc receive re_o and hsc_o. Its one
 * caller is the step, which it inlines into (every operand read of the SM
 * comes there). */
static inline __attribute__((always_inline)) enum rvc_class
decompress(unsigned W, const struct rvc_decomp_in *in, uint32_t *data,
           unsigned *re, unsigned *hsc)
{
    bool d = in->d_i[0] & 1u, half = in->half_i[0] & 1u;
    unsigned enc = in->enc_i[0] & 0xfu, encl = in->encl_i[0] & 0xfu;
    unsigned ench = in->ench_i[0] & 0xfu;
    uint32_t all = lane_mask(W);
    unsigned r, h = 0;
    enum rvc_class c = RVC_CLS_NONE;

    if (d) {
        if (W == RVC_MAX_W)     /* a constant size: copied inline */
            memcpy(data, in->arr_i, sizeof in->arr_i);
        else
            memcpy(data, in->arr_i, W * sizeof *data);
        r = 0xffu;
        if (enc == 0xfu && ((in->bvr_i[0] ^ in->mask_i[0]) & all) == 0)
            c = RVC_CLS_DIV_SCALAR;
    } else if (half) {
        rebuild(data, in->arr_i, 0, W / 2, in->bvr_i[0], keep_mask(encl));
        rebuild(data, in->arr_i, W / 2, W, in->bvrh_i[0], keep_mask(ench));
        r = ((~ench & 0xfu) << 4) | (~encl & 0xfu);
        h = (unsigned)(ench == 0xfu) << 1 | (unsigned)(encl == 0xfu);
        if (in->fs_i[0] & 1u)
            c = RVC_CLS_SCALAR;
        else if (h)
            c = RVC_CLS_HALF_SCALAR;
    } else {
        rebuild(data, in->arr_i, 0, W, in->bvr_i[0], keep_mask(enc));
        r = ((~enc & 0xfu) << 4) | (~enc & 0xfu);
        if (enc == 0xfu)
            c = RVC_CLS_SCALAR;
    }
    *re = r;
    *hsc = h;
    return c;
}

struct rvc_decomp_cfg rvc_decomp_cfg_default(void)
{
    struct rvc_decomp_cfg c = { .W = 32 };
    return c;
}

int rvc_decomp_init(struct rvc_decomp_state *s,
                    const struct rvc_decomp_cfg *cfg)
{
    if (!s || !cfg || cfg->W < 2 || cfg->W > RVC_MAX_W || (cfg->W & 1u))
        return -1;
    memset(s, 0, sizeof *s);
    s->cfg = *cfg;
    return 0;
}

void rvc_decomp_reset(struct rvc_decomp_state *s)
{
    memset(&s->r, 0, sizeof s->r);
    memset(&s->st, 0, sizeof s->st);
}

void rvc_decomp_step(struct rvc_decomp_state *s,
                     const struct rvc_decomp_in *in,
                     struct rvc_decomp_out *out)
{
    s->st.cycles++;
    s->r.valid_o[0] = in->valid_i[0] & 1u;
    if (in->valid_i[0] & 1u) {
        unsigned re, hsc;
        enum rvc_class c = decompress(s->cfg.W, in, s->r.data_o, &re, &hsc);
        s->r.re_o[0] = re;
        s->r.cls_o[0] = (uint32_t)c;
        s->r.hsc_o[0] = hsc;
        s->st.reads++;
        s->st.cls[c]++;
        s->st.arrays_read += (uint64_t)__builtin_popcount(re);
    }
#define PORT_IN(name, bits, count)
#define PORT_OUT BLK_PORT_COPY_OUT      /* blk_port.h: why port by port */
#include "blocks/rvc_decomp_ports.def"
#undef PORT_IN
#undef PORT_OUT
}

void rvc_decomp_idle_edges(struct rvc_decomp_state *s, uint64_t n)
{
    s->st.cycles += n;
    if (n)
        s->r.valid_o[0] = 0;
}
