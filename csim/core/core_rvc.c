/* G-Scalar's compressed register file through the RVC blocks (core_rvc.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/core_rvc.h"
#include "core/core_gscalar.h"
#include "cosim/cosim.h"
#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/rvc_stats.h"

#define FULL_MASK 0xffffffffu

static inline unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

__attribute__((cold)) static int fail(struct core_rvc *u, int st, const char *msg)
{
    if (!u->why)
        u->why = strdup(msg);
    return st;
}

int core_rvc_init(struct core_rvc *u, struct cosim_env *env, bool on,
                  unsigned sm, const unsigned comp_units[3], unsigned ndecomp,
                  bool half, unsigned nslots, double bvr_energy, char *err,
                  size_t n)
{
    memset(u, 0, sizeof *u);
    if (!on)
        return 0;
    u->on = true;
    u->blocks = true;
    u->half = half;
    u->sm = sm;
    u->bvr_e = (uint32_t)(bvr_energy * 1e6 + 0.5);
    u->nslots = nslots;
    u->ncomp = comp_units[0] + comp_units[1] + comp_units[2];
    u->comp_base[0] = 0;
    u->comp_base[1] = comp_units[0];
    u->comp_base[2] = comp_units[0] + comp_units[1];
    u->ndecomp = ndecomp;
    u->comp = calloc(u->ncomp, sizeof *u->comp);
    u->decomp = calloc(ndecomp, sizeof *u->decomp);
    u->fr = calloc((size_t)SIMT_MAX_FRAMES * nslots, sizeof *u->fr);
    if (!u->comp || !u->decomp || !u->fr) {
        snprintf(err, n, "host memory exhausted (RVC) [%s:%d]", __FILE__, __LINE__);
        core_rvc_free(u);
        return -1;
    }
    struct rvc_comp_cfg cc = rvc_comp_cfg_default();
    struct rvc_decomp_cfg dc = rvc_decomp_cfg_default();
    static const char *const uname[3] = { "alu", "sfu", "mem" };
    unsigned made_c = 0, made_d = 0;
    int r = 0;
    for (unsigned k = 0; k < 3 && !r; k++)
        for (unsigned i = 0; i < comp_units[k] && !r; i++) {
            char name[32];
            snprintf(name, sizeof name, "sm%u.rvc_comp.%s%u", sm, uname[k], i);
            r = cosim_create(&u->comp[made_c], env, cosim_desc_find("rvc_comp"),
                             &cc, name, err, n);
            made_c += !r;
        }
    for (unsigned i = 0; i < ndecomp && !r; i++) {
        char name[32];
        snprintf(name, sizeof name, "sm%u.rvc_decomp.oc%u", sm, i);
        r = cosim_create(&u->decomp[made_d], env, cosim_desc_find("rvc_decomp"),
                         &dc, name, err, n);
        made_d += !r;
    }
    if (r) {
        u->ncomp = made_c;
        u->ndecomp = made_d;
        core_rvc_free(u);
        return -1;
    }
    return 0;
}

int core_rvc_init_track(struct core_rvc *u, unsigned sm, bool half,
                        unsigned nslots, char *err, size_t n)
{
    memset(u, 0, sizeof *u);
    u->on = true;
    u->half = half;
    u->sm = sm;
    u->nslots = nslots;
    u->fr = calloc((size_t)SIMT_MAX_FRAMES * nslots, sizeof *u->fr);
    if (!u->fr) {
        snprintf(err, n, "host memory exhausted (G-Scalar state) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    return 0;
}

int core_rvc_count_toggles(struct core_rvc *u, char *err, size_t n)
{
    if (!u->comp || !u->decomp)
        return 0;
    u->cin = calloc(u->ncomp, sizeof *u->cin);
    u->cout = calloc(u->ncomp, sizeof *u->cout);
    u->din = calloc(u->ndecomp, sizeof *u->din);
    u->dout = calloc(u->ndecomp, sizeof *u->dout);
    if (!u->cin || !u->cout || !u->din || !u->dout) {
        snprintf(err, n, "host memory exhausted (RVC toggles) [%s:%d]", __FILE__, __LINE__);
        return -1;
    }
    return 0;
}

/* Bits of the n words of cur that differ from prev; prev takes cur. */
static uint64_t toggles(uint32_t *prev, const uint32_t *cur, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) {
        t += (uint64_t)__builtin_popcount(prev[i] ^ cur[i]);
        prev[i] = cur[i];
    }
    return t;
}

#define WORDS(x) (sizeof(x) / sizeof(uint32_t))

void core_rvc_free(struct core_rvc *u)
{
    free(u->cin);
    free(u->cout);
    free(u->din);
    free(u->dout);
    for (unsigned i = 0; u->comp && i < u->ncomp; i++)
        cosim_free(&u->comp[i]);
    for (unsigned i = 0; u->decomp && i < u->ndecomp; i++)
        cosim_free(&u->decomp[i]);
    free(u->comp);
    free(u->decomp);
    for (size_t i = 0; u->fr && i < (size_t)SIMT_MAX_FRAMES * u->nslots; i++) {
        free(u->fr[i].v);
        free(u->fr[i].arr);
    }
    free(u->fr);
    for (unsigned i = 0; i < u->nmaps; i++)
        free(u->maps[i].ix);
    free(u->maps);
    free(u->why);
    memset(u, 0, sizeof *u);
}

static void inst_kernel(struct cosim_inst *b)
{
    cosim_reset(b);
    b->st.cycles = b->st.idle_skipped = 0;
    b->st.transactions = b->st.mismatches = 0;
}

void core_rvc_kernel(struct core_rvc *u, const char *kernel, uint64_t now)
{
    if (!u->on)
        return;
    for (unsigned i = 0; i < u->ncomp; i++)
        inst_kernel(&u->comp[i]);
    for (unsigned i = 0; i < u->ndecomp; i++)
        inst_kernel(&u->decomp[i]);
    u->t0 = now;
    u->kernel = kernel;
    memset(&u->st, 0, sizeof u->st);
    /* a function of an earlier kernel may have been freed and its address
     * reused: the maps are made anew for this kernel's frames */
    for (unsigned i = 0; i < u->nmaps; i++)
        free(u->maps[i].ix);
    u->nmaps = 0;
}

/* Vector registers of PTX register r of f: 0 (predicate), 1 or 2 words. */
static unsigned reg_words(const struct ptx_func *f, int32_t r)
{
    if (r < 0 || (uint32_t)r >= f->nregs)
        return 0;
    enum ptx_type t = (enum ptx_type)f->regs[r].type;
    if (t == PTX_T_PRED)
        return 0;
    return ptx_type_bits(t) > 32 ? 2 : 1;
}

/* The map of f's registers (made on first use this kernel), or NULL
 * (host memory exhausted); *nv receives the entries its frame needs. */
static const uint32_t *frame_map(struct core_rvc *u, const struct ptx_func *f,
                                 uint32_t *nv)
{
    struct core_rvc_map *m = NULL;
    for (unsigned i = 0; i < u->nmaps && !m; i++)
        if (u->maps[i].f == f)
            m = &u->maps[i];
    if (!m) {
        if (u->nmaps == u->maps_cap) {
            unsigned c = u->maps_cap ? 2 * u->maps_cap : 4;
            struct core_rvc_map *a = realloc(u->maps, c * sizeof *a);
            if (!a)
                return NULL;
            u->maps = a;
            u->maps_cap = c;
        }
        uint32_t *ix = malloc((f->nregs + 1) * sizeof *ix);
        if (!ix)
            return NULL;
        m = &u->maps[u->nmaps++];
        m->f = f;
        m->ix = ix;
        uint32_t n = 0;
        for (uint32_t r = 0; r < f->nregs; r++) {
            ix[r] = n;
            n += reg_words(f, (int32_t)r);
        }
        ix[f->nregs] = n;               /* entries of r: ix[r + 1] - ix[r] */
    }
    uint32_t n = m->ix[f->nregs];
    *nv = n ? n : 1;
    return m->ix;
}

int core_rvc_frame_start(struct core_rvc *u, unsigned slot, unsigned frame,
                         const struct ptx_func *f)
{
    if (!u->on)
        return 0;
    struct core_rvc_frame *fr = core_rvc_frame_of(u, slot, frame);
    uint32_t nv;
    const uint32_t *ix = frame_map(u, f, &nv);
    if (!ix)
        return fail(u, LS_ERR_NOMEM, "host memory exhausted (RVC register state)");
    fr->ix = ix;
    fr->nregs = f->nregs;
    if (fr->cap < nv) {
        struct core_rvc_vreg *v = realloc(fr->v, nv * sizeof *v);
        if (!v)
            return fail(u, LS_ERR_NOMEM, "host memory exhausted (RVC register state)");
        fr->v = v;
        if (u->blocks) {
            /* new arrays hold zeros; older ones keep the previous warp's
             * bytes, which no encoding of a fresh register reads */
            uint32_t (*a)[32] = aligned_alloc(64, nv * sizeof *a);
            if (!a)
                return fail(u, LS_ERR_NOMEM, "host memory exhausted (RVC register state)");
            if (fr->cap)
                memcpy(a, fr->arr, fr->cap * sizeof *a);
            memset(a + fr->cap, 0, (nv - fr->cap) * sizeof *a);
            free(fr->arr);
            fr->arr = a;
        }
        fr->cap = nv;
    }
    /* the functional model zeroes the registers: a compressed scalar 0
     * (what the compressor makes of an all-zero non-divergent write) */
    for (uint32_t i = 0; i < nv; i++) {
        struct core_rvc_vreg *r = &fr->v[i];
        r->bvr = r->bvrh = 0;
        r->enc = r->encl = r->ench = 0xf;
        r->flags = u->half ? (CORE_RVC_HALF | CORE_RVC_FS) : 0;
        r->wc = 1;                  /* a scalar: a 4-byte base, one array */
    }
    return 0;
}

/* Entries (32-bit words) of PTX register r in fr: 0 for a predicate or
 * outside the frame's registers, 1 or 2. */
static inline unsigned vreg_words(const struct core_rvc_frame *fr, int32_t r)
{
    return (uint32_t)r < fr->nregs ? fr->ix[r + 1] - fr->ix[r] : 0;
}

/* Entry of word k of PTX register r in fr, or UINT32_MAX outside the
 * frame's registers. */
static inline uint32_t vreg_ix(const struct core_rvc_frame *fr, int32_t r,
                               unsigned k)
{
    return (uint32_t)r < fr->nregs ? fr->ix[r] + k : UINT32_MAX;
}

/* The decompressor of operand collector coll (collectors share the
 * instances round robin; a division only past the first round). */
static inline struct cosim_inst *decomp_of(struct core_rvc *u, unsigned coll)
{
    return &u->decomp[coll < u->ndecomp ? coll : coll % u->ndecomp];
}

/* Brings instance b to the edge of GPU cycle cyc (idle edges in between)
 * unless it is already there or past it. */
static inline int catch_up(struct core_rvc *u, struct cosim_inst *b, uint64_t cyc)
{
    if (b->edge >= cyc - u->t0)         /* a second transaction this cycle */
        return 0;
    return cosim_idle_to(b, cyc - u->t0, u->kernel, u->t0);
}

/* Where a transaction happened (for reports). */
struct rvc_ctx {
    const struct simt_warp *w;
    const struct ptx_func *f;
    int32_t pc;
    uint64_t now;
};

/* One transaction of a report: what of which vector register. */
struct rvc_desc {
    const struct core_rvc *u;
    const struct rvc_ctx *x;
    const char *what;
    uint32_t vreg;
};

/* The transaction description for a report (a cosim_where: formatted only
 * when a report is written). */
static void describe(const void *ctx, char *buf, size_t n)
{
    const struct rvc_desc *d = ctx;
    const struct rvc_ctx *x = d->x;
    const struct ptx_func *f = x->f;
    uint32_t r = d->vreg / 2;
    snprintf(buf, n, "kernel %s, GPU cycle %llu, warp %u of CTA (%u,%u,%u), "
             "%s line %u (pc %d): %s of %s (%s word)",
             d->u->kernel ? d->u->kernel : "?", (unsigned long long)x->now,
             x->w->gridv.warpid, x->w->gridv.ctaid[0], x->w->gridv.ctaid[1],
             x->w->gridv.ctaid[2], f->name,
             (uint32_t)x->pc < f->ninsts ? f->insts[x->pc].line : f->line, x->pc,
             d->what, r < f->nregs && f->regs[r].name ? f->regs[r].name : "?",
             d->vreg & 1 ? "high" : "low");
}

/* Whether the decompressor reads no array byte of v (its re_o is 0):
 * D = 0 and every byte kept from the base (enc 1111; in half mode encL
 * and encH 1111). */
static inline bool no_array_read(const struct core_rvc_vreg *v)
{
    if (v->flags & CORE_RVC_D)
        return false;
    if (v->flags & CORE_RVC_HALF)
        return v->encl == 0xf && v->ench == 0xf;
    return v->enc == 0xf;
}

/* One decompressor transaction for stored register v (arrays arr) under
 * M' = mask, described by d. */
static inline int decomp_step(struct core_rvc *u, struct cosim_inst *b,
                              const struct core_rvc_vreg *v, const uint32_t *arr,
                              uint32_t mask, const struct rvc_desc *d,
                              struct rvc_decomp_out *o)
{
    if (catch_up(u, b, d->x->now))
        return fail(u, LS_ERR_COSIM, b->report ? b->report : "mismatch");
    struct rvc_decomp_in in;       /* every port is set below */
    in.valid_i[0] = 1;
    in.d_i[0] = (v->flags & CORE_RVC_D) != 0;
    in.half_i[0] = (v->flags & CORE_RVC_HALF) != 0;
    in.fs_i[0] = (v->flags & CORE_RVC_FS) != 0;
    in.enc_i[0] = v->enc;
    in.encl_i[0] = v->encl;
    in.ench_i[0] = v->ench;
    in.bvr_i[0] = v->bvr;
    in.bvrh_i[0] = v->bvrh;
    /* the arrays' bytes; a register that activates no array (a scalar)
     * gets zeros under the C backend, whose output cannot depend on them
     * (every byte comes from the base), and its arrays stay untouched in
     * memory; an RTL in the loop gets the stored bytes, so a mutant that
     * reads an array it should not still sees stale data */
    if (b->backend == COSIM_BE_C && no_array_read(v))
        memset(in.arr_i, 0, sizeof in.arr_i);
    else
        memcpy(in.arr_i, arr, sizeof in.arr_i);
    in.mask_i[0] = mask;
    struct cosim_where w = { describe, d };
    if (cosim_step_active(b, &in, o, &w))
        return fail(u, LS_ERR_COSIM, b->report ? b->report : "mismatch");
    if (u->din) {
        size_t k = (size_t)(b - u->decomp);
        u->st.rvc_decomp_toggles += toggles((uint32_t *)&u->din[k], (const uint32_t *)&in,
                                            WORDS(in)) +
            toggles((uint32_t *)&u->dout[k], (const uint32_t *)o, WORDS(*o));
        u->st.rvc_decomp_txns++;
    }
    u->st.arrays_read += popc(o->re_o[0] & 0xff);
    u->st.bvr_reads++;
    return 0;
}

/* A rebuilt lane that is not the architectural value: a model error. */
__attribute__((cold)) static int wrong_lane(struct core_rvc *u, const struct cosim_inst *b,
                      const struct core_rvc_vreg *v, const uint32_t *arr,
                      const struct rvc_ctx *x,
                      const char *what, uint32_t vreg, unsigned l, uint32_t got,
                      uint32_t exp)
{
    char where[512];
    struct rvc_desc d = { u, x, what, vreg };
    describe(&d, where, sizeof where);
    char msg[1024];
    snprintf(msg, sizeof msg, "RVC MODEL ERROR %s: %s: the decompressor "
             "rebuilt lane %u as 0x%08x, the architectural value is 0x%08x "
             "(stored D %u half %u FS %u enc %x encL %x encH %x BVR 0x%08x "
             "BVRH 0x%08x, array bytes 0x%08x; %s backend)", b->name, where, l,
             got, exp, !!(v->flags & CORE_RVC_D), !!(v->flags & CORE_RVC_HALF),
             !!(v->flags & CORE_RVC_FS), v->enc, v->encl, v->ench, v->bvr,
             v->bvrh, arr[l], cosim_backend_name(b->backend));
    return fail(u, LS_ERR_COSIM, msg);
}

/* Word k (0: bits 0..31, 1: bits 32..63) of the 32 lanes of a PTX
 * register: one loop per word, each with a constant shift the compiler
 * turns into vector operations. */
static inline void lanes_word(uint32_t *restrict val, const uint64_t *restrict r,
                              unsigned k)
{
    if (k == 0)
        for (unsigned l = 0; l < 32; l++)
            val[l] = (uint32_t)r[l];
    else
        for (unsigned l = 0; l < 32; l++)
            val[l] = (uint32_t)(r[l] >> 32);
}

/* Whether some lane of data differs from word k of the register's lanes
 * r (the differing bits of all lanes ORed, as lanes_word splits them). */
static inline bool lanes_differ(const uint32_t *data, const uint64_t *r,
                                unsigned k)
{
    uint32_t ne = 0;
    if (k == 0)
        for (unsigned l = 0; l < 32; l++)
            ne |= data[l] ^ (uint32_t)r[l];
    else
        for (unsigned l = 0; l < 32; l++)
            ne |= data[l] ^ (uint32_t)(r[l] >> 32);
    return ne != 0;
}

/* 1 << l for lane l: a table the compiler loads four lanes at a time */
static const uint32_t lane_bit[32] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31,
};

/* Whether a lane outside active differs between a and b (the differing
 * bits of every lane, masked per lane without a branch; lane l's bit is
 * tested with lane_bit[l], so the loop vectorises, where a shift of
 * active by l does not). */
static inline bool kept_lanes_differ(const uint32_t *a, const uint32_t *b,
                                     uint32_t active)
{
    uint32_t ne = 0;
    for (unsigned l = 0; l < 32; l++)
        ne |= (a[l] ^ b[l]) & (0u - (uint32_t)((active & lane_bit[l]) == 0));
    return ne != 0;
}

/* Fig 8 category of a read of v under mask. */
static unsigned read_cat(const struct core_rvc_vreg *v, uint32_t mask)
{
    if (mask != FULL_MASK)
        return LS_GS_DIVERGENT;
    if (v->flags & CORE_RVC_D)
        return LS_GS_RAW;
    return LS_GS_B0 - rvc_enc_bytes(v->enc);
}

/* One operand read of vector register v (expected lanes exp) under
 * M' = mask through decompressor b. */
static int do_read(struct core_rvc *u, struct cosim_inst *b,
                   const struct core_rvc_vreg *v, const uint32_t *arr, uint32_t mask,
                   const uint64_t *regs, unsigned word, const struct rvc_ctx *x,
                   uint32_t vreg)
{
    struct rvc_desc d = { u, x, "operand read", vreg };
    struct rvc_decomp_out o;
    int e = decomp_step(u, b, v, arr, mask, &d, &o);
    if (e)
        return e;
    /* every lane against the architectural value: the differing bits of
     * all lanes at once, the lane only for a report */
    if (lanes_differ(o.data_o, regs, word)) {
        unsigned sh = 32 * word;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t exp = (uint32_t)(regs[l] >> sh);
            if (o.data_o[l] != exp)
                return wrong_lane(u, b, v, arr, x, "operand read", vreg, l,
                                  o.data_o[l], exp);
        }
    }
    ls_gscalar_stats *st = &u->st;
    st->reads++;
    st->read_cls[o.cls_o[0] & 3]++;
    core_gs_source(u, o.cls_o[0] & 3, o.hsc_o[0] & 3);
    st->base_arrays_read += 8;          /* a baseline bank reads all 8 */
    st->wc_arrays_read += v->wc;
    st->read_cat[read_cat(v, mask)]++;
    return 0;
}

/* An operand read without the blocks (core_rvc_init_track): the class
 * from the stored encodings; the baseline bank reads all 8 arrays. */
static void track_read(struct core_rvc *u, const struct core_rvc_vreg *v,
                       uint32_t mask)
{
    unsigned hsc, c = core_gs_class_of(v, mask, &hsc);
    ls_gscalar_stats *st = &u->st;
    st->reads++;
    st->read_cls[c]++;
    st->read_cat[read_cat(v, mask)]++;
    st->arrays_read += 8;
    st->base_arrays_read += 8;
    st->wc_arrays_read += v->wc;
    core_gs_source(u, c, hsc);
}

/* Bytes G-Scalar stores for the write the compressor answered with o:
 * rvc_gs_bytes (csim/blocks/rvc_stats.c) from the block's outputs. */
static unsigned gs_bytes(const struct rvc_comp_out *o)
{
    if (o->d_o[0])
        return 128;
    if (!o->half_o[0]) {
        unsigned n = rvc_enc_bytes(o->enc_o[0]);
        return 32 * (4 - n) + n;
    }
    unsigned nl = rvc_enc_bytes(o->encl_o[0]), nh = rvc_enc_bytes(o->ench_o[0]);
    return 16 * (4 - nl) + nl + 16 * (4 - nh) + nh;
}

/* The bytes of a 32-bit lane that bits 0..3 of b select (bit i: byte i). */
static inline uint32_t byte_mask(unsigned b)
{
    return ((b & 0xfu) * 0x204081u & 0x01010101u) * 0xffu;
}

/* The arrays take the bytes of data that the write enables we select
 * (bits 0..3: the low half's byte arrays, 4..7: the high half's). */
static void store_bytes(uint32_t *restrict arr, const uint32_t *restrict data,
                        unsigned we)
{
    uint32_t ml = byte_mask(we & 0xf), mh = byte_mask(we >> 4);
    for (unsigned l = 0; l < 16; l++)
        arr[l] = (arr[l] & ~ml) | (data[l] & ml);
    for (unsigned l = 16; l < 32; l++)
        arr[l] = (arr[l] & ~mh) | (data[l] & mh);
}

/* Arrays a baseline (uncompressed) bank activates for a write of mask:
 * each 128-bit array holds 4 lanes of the register. */
static unsigned base_write_arrays(uint32_t mask)
{
    uint32_t x = mask | mask >> 1;      /* bit 4a: some lane of array a */
    x |= x >> 2;
    return popc(x & 0x11111111u);
}

int core_rvc_read(struct core_rvc *u, const struct simt_warp *w,
                  unsigned slot, unsigned frame, const struct ptx_func *f,
                  int32_t pc, const int32_t *src, unsigned nsrc, uint32_t mask,
                  unsigned coll, uint64_t now)
{
    if (!u->on)
        return 0;
    if (u->why)
        return LS_ERR_COSIM;
    core_gs_begin(u);
    struct core_rvc_frame *fr = core_rvc_frame_of(u, slot, frame);
    struct cosim_inst *db = u->blocks ? decomp_of(u, coll) : NULL;
    const uint64_t *regs = w->frames[frame].regs;
    struct rvc_ctx x = { w, f, pc, now };
    for (unsigned i = 0; i < nsrc; i++) {
        unsigned nw = vreg_words(fr, src[i]);
        for (unsigned k = 0; k < nw; k++) {
            uint32_t vi = vreg_ix(fr, src[i], k);
            if (vi >= fr->cap)
                return fail(u, LS_ERR_INTERNAL, "RVC: register outside its frame's state");
            if (!db) {
                track_read(u, &fr->v[vi], mask);
                continue;
            }
            int e = do_read(u, db, &fr->v[vi], fr->arr[vi], mask,
                            regs + (size_t)src[i] * 32, k,
                            &x, 2u * (uint32_t)src[i] + k);
            if (e)
                return e;
        }
    }
    return 0;
}

/* Warped-Compression's register file (the G-Scalar paper's [4], Fig 12's
 * W-C), counted beside G-Scalar's: a non-divergent write stores the
 * register BDI-compressed in the bank's arrays, base included (bdi bytes,
 * 16 per 128-bit array); a divergent write stores it raw in the arrays
 * holding an active lane, after a move (the compressed register read,
 * written raw) when it was compressed; a read activates the stored
 * register's arrays. */
static void wc_write(ls_gscalar_stats *st, struct core_rvc_vreg *v,
                     unsigned bdi, uint32_t active)
{
    if (active == FULL_MASK) {
        v->wc = (uint8_t)((bdi + 15) / 16);
        st->wc_arrays_written += v->wc;
        return;
    }
    if (v->wc < 8) {
        st->wc_moves++;
        st->wc_arrays_read += v->wc;
        st->wc_arrays_written += 8;
        v->wc = 8;
    }
    st->wc_arrays_written += base_write_arrays(active);
}

/* The sizes of one write: raw, G-Scalar (gsb), BDI as Warped-Compression
 * applies it and the best of the BDI paper's encodings; scalar: the
 * compressor found all 32 lanes active and equal (D = 0, enc 1111); and
 * Warped-Compression's arrays (wc_write). */
static void write_sizes(ls_gscalar_stats *st, struct core_rvc_vreg *v,
                        const uint32_t *val, uint32_t active, unsigned gsb,
                        bool scalar)
{
    unsigned enc, bdi, bdi_all;
    rvc_bdi_sizes(32, val, active, scalar, &bdi, &bdi_all, &enc);
    st->raw_bytes += 128;
    st->gs_bytes += gsb;
    st->bdi_bytes += bdi;
    st->bdi_all_bytes += bdi_all;
    st->bdi_enc[enc < LS_BDI_NENC ? enc : LS_BDI_RAW]++;
    wc_write(st, v, bdi, active);
}

/* The write-backs without the blocks (core_rvc_init_track): the
 * encodings the compressor function gives, no arrays; the baseline bank
 * writes the arrays holding active lanes. */
static int track_write(struct core_rvc *u, const struct simt_warp *w,
                       unsigned frame, struct core_rvc_frame *fr, const int32_t *dst,
                       unsigned ndst, uint32_t active)
{
    const uint64_t *regs = w->frames[frame].regs;
    ls_gscalar_stats *st = &u->st;
    for (unsigned i = 0; i < ndst; i++) {
        unsigned nw = vreg_words(fr, dst[i]);
        for (unsigned k = 0; k < nw; k++) {
            uint32_t vi = vreg_ix(fr, dst[i], k);
            if (vi >= fr->cap)
                return fail(u, LS_ERR_INTERNAL, "RVC: register outside its frame's state");
            uint32_t val[32];
            lanes_word(val, regs + (size_t)dst[i] * 32, k);
            struct rvc_enc e = rvc_compress(32, val, active, u->half);
            struct core_rvc_vreg *v = &fr->v[vi];
            v->flags = (uint8_t)((e.d ? CORE_RVC_D : 0) | (e.fs ? CORE_RVC_FS : 0) |
                                 (u->half ? CORE_RVC_HALF : 0));
            v->enc = (uint8_t)e.enc;
            v->encl = (uint8_t)e.encl;
            v->ench = (uint8_t)e.ench;
            v->bvr = e.bvr;
            v->bvrh = e.bvrh;
            unsigned ba = base_write_arrays(active);
            st->writes++;
            if (e.d)
                st->div_writes++;
            else
                st->write_bytes[rvc_enc_bytes(e.enc)]++;
            st->arrays_written += ba;
            st->base_arrays_written += ba;
            unsigned nl = rvc_enc_bytes(e.encl), nh = rvc_enc_bytes(e.ench);
            unsigned nf = rvc_enc_bytes(e.enc);
            write_sizes(st, v, val, active, e.d ? 128 : u->half
                        ? 16 * (4 - nl) + nl + 16 * (4 - nh) + nh : 32 * (4 - nf) + nf,
                        !e.d && e.enc == 0xf);
        }
    }
    return 0;
}

int core_rvc_write(struct core_rvc *u, const struct simt_warp *w,
                   unsigned slot, unsigned frame, const struct ptx_func *f,
                   int32_t pc, const int32_t *dst, unsigned ndst,
                   uint32_t active, int unit, int unit_ix, unsigned coll,
                   uint64_t now, unsigned *moves)
{
    *moves = 0;
    if (!u->on)
        return 0;
    if (u->why)
        return LS_ERR_COSIM;
    struct core_rvc_frame *fr = core_rvc_frame_of(u, slot, frame);
    if (!ndst || !active)
        return 0;
    if (!u->blocks)
        return track_write(u, w, frame, fr, dst, ndst, active);
    struct cosim_inst *db = decomp_of(u, coll);
    struct rvc_ctx x = { w, f, pc, now };
    unsigned ci = unit >= 0 && unit < 3 && unit_ix >= 0
                      ? u->comp_base[unit] + (unsigned)unit_ix : 0;
    struct cosim_inst *cb = &u->comp[ci < u->ncomp ? ci : 0];
    const uint64_t *regs = w->frames[frame].regs;
    for (unsigned i = 0; i < ndst; i++) {
        unsigned nw = vreg_words(fr, dst[i]);
        for (unsigned k = 0; k < nw; k++) {
            uint32_t vi = vreg_ix(fr, dst[i], k), vid = 2u * (uint32_t)dst[i] + k;
            if (vi >= fr->cap)
                return fail(u, LS_ERR_INTERNAL, "RVC: register outside its frame's state");
            struct core_rvc_vreg *v = &fr->v[vi];
            uint32_t *arr = fr->arr[vi];
            /* the compressor's input: every port set (no memset) */
            struct rvc_comp_in in;
            uint32_t *val = in.data_i;
            lanes_word(val, regs + (size_t)dst[i] * 32, k);
            in.valid_i[0] = 1;
            in.mask_i[0] = active;
            in.half_i[0] = u->half;
            if (active != FULL_MASK && !(v->flags & CORE_RVC_FULL)) {
                /* sec. 3.3: a divergent write to a compressed register
                 * needs all its bytes in the arrays first: a move
                 * decompresses it and stores it raw. The lanes this write
                 * leaves must come back as they are; the others it
                 * overwrites next. */
                struct rvc_desc dm = { u, &x, "move before a divergent write", vid };
                struct rvc_decomp_out o;
                int e = decomp_step(u, db, v, arr, FULL_MASK, &dm, &o);
                if (e)
                    return e;
                if (kept_lanes_differ(o.data_o, val, active))
                    for (unsigned l = 0; l < 32; l++)
                        if (!(active >> l & 1) && o.data_o[l] != val[l])
                            return wrong_lane(u, db, v, arr, &x, "move before a divergent write",
                                              vid, l, o.data_o[l], val[l]);
                memcpy(arr, o.data_o, sizeof o.data_o);
                v->flags = (uint8_t)((v->flags & ~(CORE_RVC_HALF | CORE_RVC_FS)) |
                                     CORE_RVC_D | CORE_RVC_FULL);
                v->bvr = FULL_MASK;
                v->bvrh = 0;
                u->st.rmw_moves++;
                u->st.bvr_writes++;
                u->st.arrays_written += 8;        /* the baseline needs no move */
                (*moves)++;
            }
            struct rvc_desc dw = { u, &x, "write-back", vid };
            struct cosim_where wh = { describe, &dw };
            int e = catch_up(u, cb, now);
            if (e)
                return fail(u, LS_ERR_COSIM, cb->report ? cb->report : "mismatch");
            struct rvc_comp_out o;
            if (cosim_step_active(cb, &in, &o, &wh))
                return fail(u, LS_ERR_COSIM, cb->report ? cb->report : "mismatch");
            if (u->cin) {
                size_t c = (size_t)(cb - u->comp);
                u->st.rvc_comp_toggles += toggles((uint32_t *)&u->cin[c],
                                                  (const uint32_t *)&in, WORDS(in)) +
                    toggles((uint32_t *)&u->cout[c], (const uint32_t *)&o, WORDS(o));
                u->st.rvc_comp_txns++;
            }
            /* the arrays take the bytes the write enables select */
            unsigned we = o.we_o[0] & 0xff;
            if (o.d_o[0]) {
                for (uint32_t m = o.mask_o[0]; m; m &= m - 1) {
                    unsigned l = (unsigned)__builtin_ctz(m);
                    arr[l] = o.data_o[l];
                }
            } else {
                if (we)                 /* a scalar write stores no byte */
                    store_bytes(arr, o.data_o, we);
            }
            uint8_t full = o.d_o[0] ? (v->flags & CORE_RVC_FULL) : (we == 0xff ? CORE_RVC_FULL : 0);
            v->flags = (uint8_t)((o.d_o[0] ? CORE_RVC_D : 0) | (o.fs_o[0] ? CORE_RVC_FS : 0) |
                                 (o.half_o[0] ? CORE_RVC_HALF : 0) | full);
            v->enc = (uint8_t)(o.enc_o[0] & 0xf);
            v->encl = (uint8_t)(o.encl_o[0] & 0xf);
            v->ench = (uint8_t)(o.ench_o[0] & 0xf);
            v->bvr = o.bvr_o[0];
            v->bvrh = o.bvrh_o[0];
            ls_gscalar_stats *st = &u->st;
            st->writes++;
            if (o.d_o[0])
                st->div_writes++;
            else
                st->write_bytes[rvc_enc_bytes(v->enc)]++;
            st->arrays_written += popc(we);
            st->bvr_writes++;
            st->base_arrays_written += base_write_arrays(active);
            /* the C model's D = 0 and enc 1111 (the c and lockstep
             * backends answer with its outputs) say all 32 lanes are
             * equal; an RTL alone is not trusted with the statistics */
            write_sizes(st, v, val, active, gs_bytes(&o),
                        cb->backend != COSIM_BE_RTL && !o.d_o[0] && v->enc == 0xf);
        }
    }
    return 0;
}

/* Prefetches the stored state of r[0..n-1] in fr. */
static inline void prefetch_regs(const struct core_rvc_frame *fr,
                                 const int32_t *r, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        uint32_t vi = vreg_ix(fr, r[i], 0);
        if (vi >= fr->cap)
            continue;
        __builtin_prefetch(&fr->v[vi]);
        if (fr->arr) {
            __builtin_prefetch(fr->arr[vi]);
            __builtin_prefetch(fr->arr[vi] + 16);
        }
    }
}

void core_rvc_prefetch(const struct core_rvc *u, unsigned slot, unsigned frame,
                       const int32_t *src, unsigned nsrc, const int32_t *dst,
                       unsigned ndst)
{
    if (!u->on || frame >= SIMT_MAX_FRAMES)
        return;
    const struct core_rvc_frame *fr = core_rvc_frame_of(u, slot, frame);
    prefetch_regs(fr, src, nsrc);
    prefetch_regs(fr, dst, ndst);
}

int core_rvc_finish(struct core_rvc *u, uint64_t end)
{
    if (!u->on)
        return 0;
    if (u->why)
        return LS_ERR_COSIM;
    for (unsigned i = 0; i < u->ncomp + u->ndecomp; i++) {
        struct cosim_inst *b = i < u->ncomp ? &u->comp[i] : &u->decomp[i - u->ncomp];
        if (end > u->t0 && catch_up(u, b, end))   /* edges of t0 .. end-1 */
            return fail(u, LS_ERR_COSIM, b->report ? b->report : "mismatch");
    }
    return 0;
}

void core_rvc_stats(const struct core_rvc *u, ls_stats *s)
{
    if (!u->on)
        return;
    for (unsigned k = 0; k < 2; k++) {
        ls_cosim_stats *c = &s->cosim[k ? LS_BLK_RVC_DECOMP : LS_BLK_RVC_COMP];
        unsigned n = k ? u->ndecomp : u->ncomp;
        const struct cosim_inst *b = k ? u->decomp : u->comp;
        c->instances += n;
        for (unsigned i = 0; i < n; i++) {
            c->cycles += b[i].st.cycles;
            c->idle_skipped += b[i].st.idle_skipped;
            c->transactions += b[i].st.transactions;
            c->mismatches += b[i].st.mismatches;
            c->backend = b[i].st.backend;
        }
    }
    /* energy: an activated 128-bit array is 1/8 of a vector-register
     * access (the bank's eight arrays, G-Scalar sec. 5.1), plus the BVR */
    ls_gscalar_stats g = u->st;
    g.rf_energy = (g.arrays_read + g.arrays_written) * 125000u +
                  (g.bvr_reads + g.bvr_writes) * (uint64_t)u->bvr_e;
    g.base_rf_energy = (g.base_arrays_read + g.base_arrays_written) * 125000u;
    uint64_t *a = (uint64_t *)&s->gscalar;
    const uint64_t *gv = (const uint64_t *)&g;
    for (size_t i = 0; i < sizeof g / sizeof *gv; i++)
        a[i] += gv[i];
}
