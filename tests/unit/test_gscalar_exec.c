/* cmocka tests of G-Scalar scalar execution, its statistics, the BDI
 * encoder and the energy model (csim/core/core_gscalar.c,
 * csim/blocks/rvc_stats.c, csim/gpu/gpu_energy.c; docs/gscalar.md):
 * eligibility of hand-built instructions from register states written
 * through the unit (scalar, divergent-scalar with the paper's Fig 7(b)
 * example, half-scalar), the op and operand exclusions, the decompressor's
 * class against the C rule on random writes, an injected wrong eligibility
 * caught by the result check, BDI sizes computed by hand, and whole
 * workloads under gscalar.scalar = off/alu/all. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "cosim/cosim.h"
#include "cfg/cfg.h"
#include "core/core.h"
#include "core/core_gscalar.h"
#include "blocks/rvc_decomp.h"
#include "blocks/rvc_stats.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"
#include "wl_run.h"

#define ALL 0xffffffffu

/* --------------------------------------------- the unit on its own */

struct fixture {
    struct cosim_env env;
    struct core_rvc u;
    struct simt_warp w;
    struct ptx_func f;
    struct ptx_reg regs[5];
    uint64_t rv[5 * 32];
};

/* %r0 %r1 %r2: .u32, %p3: .pred, %rd4: .u64; blocks: the RVC instances
 * (compress on) or the encodings in C (compress off). */
static struct fixture *fx_new(bool blocks, bool half)
{
    struct fixture *x = calloc(1, sizeof *x);
    assert_non_null(x);
    char err[512];
    if (blocks) {
        const struct cosim_cfg lc = { NULL, NULL, NULL };
        int be[LS_BLK_COUNT] = { 0 };
        assert_int_equal(cosim_env_init(&x->env, &lc, be, 0, err, sizeof err), 0);
        unsigned units[3] = { 2, 1, 1 };
        assert_int_equal(core_rvc_init(&x->u, &x->env, true, 0, units, 4, half, 2,
                                       0.052, err, sizeof err), 0);
    } else {
        assert_int_equal(core_rvc_init_track(&x->u, 0, half, 2, err, sizeof err), 0);
    }
    x->u.scalar = CFG_GSCALAR_SCALAR_ALL;
    core_rvc_kernel(&x->u, "k", 0);
    static const char *const nm[5] = { "%r0", "%r1", "%r2", "%p3", "%rd4" };
    static const uint8_t ty[5] = { PTX_T_U32, PTX_T_U32, PTX_T_U32, PTX_T_PRED, PTX_T_U64 };
    for (unsigned i = 0; i < 5; i++) {
        x->regs[i].name = nm[i];
        x->regs[i].type = ty[i];
    }
    x->f.name = "k";
    x->f.regs = x->regs;
    x->f.nregs = 5;
    x->f.is_entry = true;
    x->w.frames[0].regs = x->rv;
    x->w.frames[0].func = &x->f;
    x->w.nframes = 1;
    assert_int_equal(core_rvc_frame_start(&x->u, 1, 0, &x->f), 0);
    return x;
}

static void fx_free(struct fixture *x)
{
    bool blocks = x->u.blocks;
    core_rvc_free(&x->u);
    if (blocks)
        cosim_env_fini(&x->env);
    free(x);
}

static uint64_t now_c = 1;

/* Register r takes vals in the lanes of mask (written back through the
 * unit). */
static void fx_write(struct fixture *x, int32_t r, const uint32_t *vals, uint32_t mask)
{
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1)
            x->rv[r * 32 + l] = vals[l];
    unsigned moves;
    assert_int_equal(core_rvc_write(&x->u, &x->w, 1, 0, &x->f, 0, &r, 1, mask, 0, 0,
                                    0, now_c++, &moves), 0);
}

static struct ptx_operand reg(int32_t r)
{
    struct ptx_operand o;
    memset(&o, 0, sizeof o);
    o.kind = PTX_O_REG;
    o.reg = r;
    return o;
}

/* op d, a, b (or op d, a when b < 0). */
static struct ptx_inst inst(enum ptx_op op, int32_t d, int32_t a, int32_t b)
{
    struct ptx_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.type = PTX_T_U32;
    in.guard = -1;
    in.o[0] = reg(d);
    in.o[1] = reg(a);
    in.nopnd = 2;
    if (b >= 0) {
        in.o[2] = reg(b);
        in.nopnd = 3;
    }
    return in;
}

/* The eligibility of `in` (unit u) after reading its sources under mask. */
static unsigned classify(struct fixture *x, const struct ptx_inst *in, unsigned unit,
                         uint32_t mask, unsigned *halves)
{
    int32_t src[4];
    unsigned n = 0;
    for (unsigned i = ptx_inst_ndst(in); i < in->nopnd; i++)
        if (in->o[i].kind == PTX_O_REG || in->o[i].kind == PTX_O_MEM)
            src[n++] = in->o[i].reg;
    assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, src, n, mask, 1,
                                   now_c++), 0);
    unsigned h = 0;
    unsigned c = core_gs_classify(&x->u, &x->f, in, unit, mask, &h);
    if (halves)
        *halves = h;
    return c;
}

static void fill(uint32_t *v, uint32_t base, uint32_t step)
{
    for (unsigned l = 0; l < 32; l++)
        v[l] = base + step * l;
}

static void check_scalar_classes(bool blocks)
{
    struct fixture *x = fx_new(blocks, false);
    uint32_t s[32], v[32];
    fill(s, 7, 0);
    fill(v, 0x100, 1);
    fx_write(x, 0, s, ALL);                 /* %r0 scalar 7 */
    fx_write(x, 1, v, ALL);                 /* %r1 vector */
    struct ptx_inst add = inst(PTX_OP_ADD, 2, 0, 0);
    assert_int_equal(classify(x, &add, 0, ALL, NULL), LS_GS_ALU);
    struct ptx_inst addv = inst(PTX_OP_ADD, 2, 0, 1);
    assert_int_equal(classify(x, &addv, 0, ALL, NULL), LS_GS_NOT);
    struct ptx_inst ex2 = inst(PTX_OP_EX2, 2, 0, -1);
    assert_int_equal(classify(x, &ex2, 1, ALL, NULL), LS_GS_SFU);
    /* a load from a scalar global address: MEM; from local memory or a
     * generic address, or an atomic: never */
    struct ptx_inst ld = inst(PTX_OP_LD, 2, 0, -1);
    ld.o[1].kind = PTX_O_MEM;
    ld.space = PTX_SP_GLOBAL;
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_MEM);
    ld.space = PTX_SP_LOCAL;
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_NOT);
    ld.space = PTX_SP_GENERIC;
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_NOT);
    ld.space = PTX_SP_PARAM;              /* a kernel's parameters: shared */
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_MEM);
    x->f.is_entry = false;                /* a .func's: per thread */
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_NOT);
    x->f.is_entry = true;
    ld.op = PTX_OP_ATOM;
    ld.space = PTX_SP_GLOBAL;
    assert_int_equal(classify(x, &ld, 2, ALL, NULL), LS_GS_NOT);
    /* a predicate source, a per-lane special register, a carry input */
    struct ptx_inst selp = inst(PTX_OP_SELP, 2, 0, 0);
    selp.o[3] = reg(3);
    selp.nopnd = 4;
    assert_int_equal(classify(x, &selp, 0, ALL, NULL), LS_GS_NOT);
    struct ptx_inst mov = inst(PTX_OP_MOV, 2, 0, -1);
    mov.o[1].kind = PTX_O_SREG;
    mov.o[1].sreg = PTX_SR_TID_X;
    assert_int_equal(classify(x, &mov, 0, ALL, NULL), LS_GS_NOT);
    mov.o[1].sreg = PTX_SR_CTAID_X;
    assert_int_equal(classify(x, &mov, 0, ALL, NULL), LS_GS_ALU);
    struct ptx_inst addc = inst(PTX_OP_ADDC, 2, 0, 0);
    assert_int_equal(classify(x, &addc, 0, ALL, NULL), LS_GS_NOT);
    /* a divergent instruction on a scalar register: divergent-scalar */
    assert_int_equal(classify(x, &add, 0, 0x0000ff00u, NULL), LS_GS_DIV);
    /* no active lane: nothing to run */
    assert_int_equal(classify(x, &add, 0, 0, NULL), LS_GS_NOT);
    fx_free(x);
}

static void test_classes_c(void **state)
{
    (void)state;
    check_scalar_classes(false);
}

static void test_classes_blocks(void **state)
{
    (void)state;
    check_scalar_classes(true);
}

/* G-Scalar Fig 7(b): r2 = r2 * 2 under M = 10001111 leaves a divergent
 * scalar for that mask; r1 = abs(r2) under M = 01110000 must not be
 * scalar (its lanes hold -2, 0, 1). */
static void check_fig7b(bool blocks)
{
    struct fixture *x = fx_new(blocks, false);
    uint32_t v[32] = { 0 };
    const uint32_t m1 = 0x8fu, m2 = 0x70u;
    uint32_t init[32];
    for (unsigned l = 0; l < 32; l++)
        init[l] = (uint32_t)((int)l % 3 - 2);     /* -2, -1, 0, -2, ... */
    fx_write(x, 2, init, ALL);
    for (unsigned l = 0; l < 32; l++)
        v[l] = 8;                                  /* the active lanes agree */
    fx_write(x, 2, v, m1);
    const struct core_rvc_vreg *r = &core_rvc_frame_of(&x->u, 1, 0)->v[2];   /* %r2: entry 2 */
    assert_true(r->flags & CORE_RVC_D);
    assert_int_equal(r->enc, 0xf);
    assert_int_equal(r->bvr, m1);
    struct ptx_inst ab = inst(PTX_OP_ABS, 1, 2, -1);
    assert_int_equal(classify(x, &ab, 0, m1, NULL), LS_GS_DIV);
    assert_int_equal(classify(x, &ab, 0, m2, NULL), LS_GS_NOT);
    assert_int_equal(classify(x, &ab, 0, ALL, NULL), LS_GS_NOT);
    fx_free(x);
}

static void test_fig7b_c(void **state)
{
    (void)state;
    check_fig7b(false);
}

static void test_fig7b_blocks(void **state)
{
    (void)state;
    check_fig7b(true);
}

/* Half granularity: the low half scalar in both sources, the high half not
 * in one: half-scalar on the low half; an SFU of 4 lanes then takes 1 + 4
 * cycles, an ALU of 16 lanes 1 + 1. */
static void test_half(void **state)
{
    (void)state;
    for (int blocks = 0; blocks < 2; blocks++) {
        struct fixture *x = fx_new(blocks, true);
        uint32_t a[32], b[32];
        for (unsigned l = 0; l < 32; l++) {
            a[l] = l < 16 ? 5 : 0x7000 + l;
            b[l] = l < 16 ? 9 : 11;             /* two scalars: not FS */
        }
        fx_write(x, 0, a, ALL);
        fx_write(x, 1, b, ALL);
        struct ptx_inst mul = inst(PTX_OP_MUL, 2, 0, 1);
        unsigned h;
        assert_int_equal(classify(x, &mul, 0, ALL, &h), LS_GS_HALF);
        assert_int_equal(h, 1);
        assert_int_equal(core_gs_ii(LS_GS_HALF, h, 4), 5);
        assert_int_equal(core_gs_ii(LS_GS_HALF, h, 16), 2);
        assert_int_equal(core_gs_ii(LS_GS_HALF, 3, 4), 2);
        assert_int_equal(core_gs_ii(LS_GS_SFU, 0, 4), 1);
        struct ptx_inst mov = inst(PTX_OP_MOV, 2, 1, -1);
        assert_int_equal(classify(x, &mov, 0, ALL, &h), LS_GS_HALF);
        assert_int_equal(h, 3);                  /* both halves, different */
        /* half-scalar is for non-divergent instructions only */
        assert_int_equal(classify(x, &mul, 0, 0xffu, &h), LS_GS_NOT);
        fx_free(x);
    }
}

static void test_modes(void **state)
{
    (void)state;
    for (unsigned c = 0; c < LS_GS_NCLS; c++) {
        assert_false(core_gs_runs_scalar(CFG_GSCALAR_SCALAR_OFF, c));
        assert_int_equal(core_gs_runs_scalar(CFG_GSCALAR_SCALAR_ALU, c), c == LS_GS_ALU);
        assert_int_equal(core_gs_runs_scalar(CFG_GSCALAR_SCALAR_NODIV, c),
                         c == LS_GS_ALU || c == LS_GS_SFU || c == LS_GS_MEM);
        assert_int_equal(core_gs_runs_scalar(CFG_GSCALAR_SCALAR_ALL, c), c != LS_GS_NOT);
    }
}

/* The decompressor's class (the block, compress on) equals the C rule
 * (compress off) on a seeded stream of writes and reads. */
static void test_class_rule_matches_block(void **state)
{
    (void)state;
    for (int half = 0; half < 2; half++) {
        struct fixture *x = fx_new(true, half);
        uint32_t seed = 12345;
        for (unsigned it = 0; it < 3000; it++) {
            uint32_t v[32], m = ALL;
            seed = seed * 1103515245u + 12345u;
            unsigned kind = seed >> 28;
            for (unsigned l = 0; l < 32; l++) {
                seed = seed * 1103515245u + 12345u;
                v[l] = kind < 6 ? 0xabcd0000u : kind < 10 ? (l < 16 ? 3 : 4 + (seed >> 30))
                                                     : seed;
            }
            seed = seed * 1103515245u + 12345u;
            if ((seed >> 29) < 3)
                m = (seed >> 29) == 0 ? 0x0f0f00ffu : (seed | 1u);
            fx_write(x, 0, v, m);
            uint32_t rm = (seed >> 27 & 1) ? m : ALL;
            uint64_t before[4];
            memcpy(before, x->u.st.read_cls, sizeof before);
            int32_t r = 0;
            assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, &r, 1, rm, 0,
                                           now_c++), 0);
            unsigned hsc, c = core_gs_class_of(&core_rvc_frame_of(&x->u, 1, 0)->v[0], rm, &hsc);
            assert_int_equal(x->u.st.read_cls[c], before[c] + 1);
        }
        fx_free(x);
    }
}

/* An injected fault: a register's encoding claims a scalar it does not
 * hold (compress off: no decompressor check on the read). The instruction
 * is classified eligible; after it "executes" its result differs between
 * lanes and the retire check reports a model error. Without the fault the
 * same sequence passes and counts one lane-op. */
static void test_wrong_eligibility_caught(void **state)
{
    (void)state;
    for (int fault = 0; fault < 2; fault++) {
        struct fixture *x = fx_new(false, false);
        uint32_t v[32];
        fill(v, fault ? 0x100 : 0x42, fault ? 1 : 0);
        fx_write(x, 0, v, ALL);
        if (fault)
            core_rvc_frame_of(&x->u, 1, 0)->v[0].enc = 0xf;       /* claims lanes equal */
        struct ptx_inst add = inst(PTX_OP_ADD, 2, 0, 0);
        x->f.insts = &add;
        x->f.ninsts = 1;
        assert_int_equal(classify(x, &add, 0, ALL, NULL), LS_GS_ALU);
        for (unsigned l = 0; l < 32; l++)      /* what add computed */
            x->rv[2 * 32 + l] = 2u * v[l];
        x->w.res.active = ALL;
        bool run;
        int e = core_gs_retire(&x->u, &x->w, 0, &x->f, 0, 0, CORE_ECLS_IALU, LS_GS_ALU, 0, ALL,
                               now_c++, &run);
        assert_true(run);
        assert_int_equal(x->u.st.lane_ops[0], 1);
        assert_int_equal(x->u.st.base_lane_ops[0], 32);
        assert_int_equal(x->u.st.cls_ops[CORE_ECLS_IALU], 1);
        assert_int_equal(x->u.st.base_cls_ops[CORE_ECLS_IALU], 32);
        assert_int_equal(x->u.st.elig[LS_GS_ALU], 1);
        if (fault) {
            assert_int_equal(e, LS_ERR_COSIM);
            assert_non_null(strstr(x->u.why, "G-SCALAR MODEL ERROR"));
            assert_non_null(strstr(x->u.why, "%r2 is 0x202 in lane 1"));
        } else {
            assert_int_equal(e, 0);
        }
        fx_free(x);
    }
}

/* ------------------------------------------------------------- BDI */

static void test_bdi_sizes(void **state)
{
    (void)state;
    uint32_t v[32];
    unsigned enc;
    fill(v, 0, 0);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 1);
    assert_int_equal(enc, LS_BDI_ZEROS);
    fill(v, 0x12345678u, 0);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 8);
    assert_int_equal(enc, LS_BDI_REP8);
    assert_int_equal(rvc_bdi_bytes(32, v, ALL), 4);   /* W-C: one 4-byte base */
    for (unsigned l = 0; l < 32; l++)                 /* pairs repeat: 8 bytes */
        v[l] = l & 1 ? 0xdeadbeefu : 0x01020304u;
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 8);
    /* 64-bit elements 7:0x1000+i: base 8 + 16 one-byte deltas */
    for (unsigned l = 0; l < 32; l++)
        v[l] = l & 1 ? 7 : 0x1000 + l / 2;
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 24);
    assert_int_equal(enc, LS_BDI_B8D1);
    /* 7:0x100*i: deltas up to 0xf00 need two bytes: 8 + 32 */
    for (unsigned l = 0; l < 32; l++)
        v[l] = l & 1 ? 7 : 0x100 * (l / 2);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 40);
    assert_int_equal(enc, LS_BDI_B8D2);
    /* the sec. 2.2 example (4-byte values 8 apart): base 4 + 32 deltas */
    for (unsigned l = 0; l < 32; l++)
        v[l] = 0xC04039C0u + 8 * (l % 8);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 36);
    assert_int_equal(enc, LS_BDI_B4D1);
    assert_int_equal(rvc_bdi_bytes(32, v, ALL), 36);
    /* lane 0 = 0, the others 1000 + l: the immediate (delta from zero)
     * keeps one-byte deltas from base 1001; W-C's base is lane 0 and
     * needs two bytes */
    for (unsigned l = 0; l < 32; l++)
        v[l] = l ? 1000 + l : 0;
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 36);
    assert_int_equal(enc, LS_BDI_B4D1);
    assert_int_equal(rvc_bdi_bytes(32, v, ALL), 68);
    /* 0x1000 * l: no base/delta fits: raw */
    fill(v, 0, 0x1000);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 128);
    assert_int_equal(enc, LS_BDI_RAW);
    /* both 16-bit halves 0x4000 + l: 4-byte deltas are 0x10001 x l (too
     * wide), 2-byte elements all within 31 of base 0x4000: 2 + 64 */
    for (unsigned l = 0; l < 32; l++)
        v[l] = (0x4000u + l) << 16 | (0x4000u + l);
    assert_int_equal(rvc_bdi_all_bytes(32, v, ALL, &enc), 66);
    assert_int_equal(enc, LS_BDI_B2D1);
    /* divergent writes are stored raw */
    fill(v, 0, 0);
    assert_int_equal(rvc_bdi_all_bytes(32, v, 0xffu, &enc), 128);
    assert_int_equal(enc, LS_BDI_RAW);
}

/* The BDI paper's definition, written plainly as the reference for
 * rvc_bdi_all_bytes (whose scans are grouped and specialised for speed):
 * the 4W bytes as little-endian k-byte elements, each a d-byte signed
 * delta from 0 or from the base (the first element that is not). */
static bool ref_bdi_fits(unsigned W, const uint32_t *val, unsigned k, unsigned d)
{
    unsigned n = 4 * W / k;
    uint64_t top = k == 8 ? ~0ull : (1ull << (8 * k)) - 1, base = 0;
    bool have = false;
    for (unsigned i = 0; i < n; i++) {
        uint64_t e = 0;
        for (unsigned b = 0; b < k; b++) {
            unsigned byte = i * k + b;
            e |= (uint64_t)(val[byte / 4] >> (8 * (byte % 4)) & 0xffu) << (8 * b);
        }
        /* e fits d signed bytes iff e + 2^(8d-1) < 2^(8d) modulo 2^(8k) */
        uint64_t h = 1ull << (8 * d - 1);
        bool imm = ((e + h) & top) < 2 * h;
        if (imm)
            continue;
        if (!have) {
            base = e;
            have = true;
        }
        if (((e - base + h) & top) >= 2 * h)
            return false;
    }
    return true;
}

static unsigned ref_bdi_all_bytes(unsigned W, const uint32_t *val, uint32_t mask,
                                  unsigned *enc)
{
    static const unsigned kk[6] = { 8, 8, 8, 4, 4, 2 }, dd[6] = { 1, 2, 4, 1, 2, 1 };
    uint32_t all = W >= 32 ? ~0u : (1u << W) - 1u;
    *enc = LS_BDI_RAW;
    if ((mask & all) != all)
        return 4 * W;
    bool rep = true, zero = true;
    for (unsigned l = 0; l < W; l++) {
        rep = rep && val[l] == val[l % 2];
        zero = zero && val[l] == 0;
    }
    if (zero) {
        *enc = LS_BDI_ZEROS;
        return 1;
    }
    if (rep) {
        *enc = LS_BDI_REP8;
        return 8;
    }
    unsigned best = 4 * W;
    for (unsigned j = 0; j < 6; j++) {
        unsigned sz = kk[j] + 4 * W / kk[j] * dd[j];
        if (sz < best && ref_bdi_fits(W, val, kk[j], dd[j])) {
            best = sz;
            *enc = LS_BDI_B8D1 + j;
        }
    }
    return best;
}

/* rvc_bdi_all_bytes against the reference on a seeded stream of writes
 * made to stop the scans everywhere: uniform and near-uniform lanes,
 * immediates mixed with a cluster, halves that differ at lane 16, 8-byte
 * pairs, 2-byte halves, sign-extended bytes and shorts, single flipped
 * bits, every even W and partial masks. Every encoding must come up. */
static void test_bdi_all_reference(void **state)
{
    (void)state;
    uint64_t s = 88172645463325252ull;
    uint32_t v[32];
    unsigned seen[LS_BDI_NENC] = { 0 };
    for (unsigned t = 0; t < 60000; t++) {
#define RND() (s ^= s << 13, s ^= s >> 7, s ^= s << 17, (uint32_t)s)
        unsigned kind = RND() % 12, sp = RND() % 33;
        uint32_t base = RND(), spread = 1u << (RND() % 32);
        for (unsigned l = 0; l < 32; l++) {
            uint32_t r = RND();
            switch (kind) {
            case 0: v[l] = base + r % spread; break;
            case 1: v[l] = r & 1 ? (r >> 20) % 256 - 128 : base + r % 200 - 100; break;
            case 2: v[l] = l < sp ? base : base + r % spread; break;
            case 3: v[l] = l & 1 ? base : r % spread; break;
            case 4: v[l] = ((base + r % spread) & 0xffffu) | (base + (r >> 16) % 300) << 16; break;
            case 5: v[l] = l < sp ? r % 256 - 128 : base + l * (r % 4); break;
            case 6: v[l] = r; break;
            case 7: v[l] = l & 1 ? (r % 3 ? 0 : ~0u) : base + r % spread; break;
            case 8: v[l] = l < 16 ? base + r % 64 : base + 0x10000 + r % 64; break;
            case 9: v[l] = r % 5 ? (uint32_t)(int32_t)(int8_t)r : base + r % 0x8000; break;
            case 10: v[l] = r % 7 ? (uint32_t)(int32_t)(int16_t)r : base + r % 0x80; break;
            default: v[l] = sp == 0 ? 0 : base ^ 1u << r % 32; break;
            }
        }
        for (unsigned W = 2; W <= 32; W += 2) {
            if (W != 32 && t % 8)
                continue;
            uint32_t mask = t % 13 == 5 ? RND() : ~0u;
            unsigned e1, e2;
            unsigned a = rvc_bdi_all_bytes(W, v, mask, &e1);
            unsigned b = ref_bdi_all_bytes(W, v, mask, &e2);
            if (a != b || e1 != e2)
                fail_msg("W %u write %u (kind %u): %u bytes enc %u, reference %u enc %u",
                         W, t, kind, a, e1, b, e2);
            if (W == 32)
                seen[e1]++;
        }
#undef RND
    }
    for (unsigned e = 0; e < LS_BDI_NENC; e++)
        assert_true(seen[e] > 0);
}

/* rvc_bdi_sizes (what the SM calls per write, told by the compressor when
 * all lanes are equal) gives both BDI sizes exactly as the two functions
 * do, on a seeded stream of scalar, near-scalar and random writes. */
static void test_bdi_sizes_hint(void **state)
{
    (void)state;
    uint32_t seed = 777, v[32];
    unsigned scalars = 0;
    for (unsigned t = 0; t < 4000; t++) {
        seed = seed * 1103515245u + 12345u;
        unsigned kind = seed >> 29;
        uint32_t base = kind == 0 ? 0 : seed * 2654435761u;
        for (unsigned l = 0; l < 32; l++) {
            seed = seed * 1103515245u + 12345u;
            v[l] = kind < 3 ? base : kind < 5 ? base + (seed >> 25) - 64
                 : kind < 6 ? (l & 1 ? 5 : base) : seed;
        }
        uint32_t mask = t % 7 == 3 ? ~(1u << (t % 32)) : ALL;
        struct rvc_enc e = rvc_compress(32, v, mask, t & 1);
        bool scalar = !e.d && e.enc == 0xf;
        scalars += scalar;
        unsigned b, ba, en, en2;
        rvc_bdi_sizes(32, v, mask, scalar, &b, &ba, &en);
        assert_int_equal(b, rvc_bdi_bytes(32, v, mask));
        assert_int_equal(ba, rvc_bdi_all_bytes(32, v, mask, &en2));
        assert_int_equal(en, en2);
        rvc_bdi_sizes(32, v, mask, false, &b, &ba, &en);   /* no hint */
        assert_int_equal(b, rvc_bdi_bytes(32, v, mask));
        assert_int_equal(ba, rvc_bdi_all_bytes(32, v, mask, &en2));
        assert_int_equal(en, en2);
    }
    assert_true(scalars > 500);
}

/* Warped-Compression's arrays by hand (with and without the blocks): a
 * fresh register is a scalar (one array); 1-byte deltas: 4 + 32 = 36
 * bytes, 3 arrays; 2-byte deltas: 68 bytes, 5 arrays; a divergent write
 * to a compressed register: a move (3 arrays read, 8 written) and the
 * arrays holding its active lanes (lanes 0..5: 2); a second divergent
 * write needs no move; a scalar write: 1 array. */
static void check_wc(bool blocks)
{
    struct fixture *x = fx_new(blocks, false);
    const ls_gscalar_stats *st = &x->u.st;
    uint32_t v[32];
    int32_t r0 = 0;
    assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, &r0, 1, ALL, 1,
                                   now_c++), 0);
    assert_int_equal(st->wc_arrays_read, 1);
    fill(v, 0x1000, 3);                     /* deltas 0..93: 1 byte */
    fx_write(x, 0, v, ALL);
    assert_int_equal(st->wc_arrays_written, 3);
    fill(v, 0x1000, 300);                   /* deltas up to 9300: 2 bytes */
    fx_write(x, 1, v, ALL);
    assert_int_equal(st->wc_arrays_written, 3 + 5);
    int32_t src[2] = { 0, 1 };
    assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, src, 2, 0x3f, 1,
                                   now_c++), 0);
    assert_int_equal(st->wc_arrays_read, 1 + 3 + 5);   /* a divergent reader too */
    fill(v, 0x55, 7);
    fx_write(x, 0, v, 0x3f);
    assert_int_equal(st->wc_moves, 1);
    assert_int_equal(st->wc_arrays_read, 9 + 3);
    assert_int_equal(st->wc_arrays_written, 8 + 8 + 2);
    fx_write(x, 0, v, 0xff00);              /* raw already: lanes 8..15 */
    assert_int_equal(st->wc_moves, 1);
    assert_int_equal(st->wc_arrays_written, 18 + 2);
    fill(v, 9, 0);
    fx_write(x, 0, v, ALL);
    assert_int_equal(st->wc_arrays_written, 20 + 1);
    assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, &r0, 1, ALL, 1,
                                   now_c++), 0);
    assert_int_equal(st->wc_arrays_read, 12 + 1);
    fx_free(x);
}

static void test_wc_c(void **state)
{
    (void)state;
    check_wc(false);
}

static void test_wc_blocks(void **state)
{
    (void)state;
    check_wc(true);
}

/* ------------------------------------------------------ whole workloads */

static void sum_check(const ls_stats *t)
{
    const ls_gscalar_stats *g = &t->gscalar;
    uint64_t n = 0;
    for (int i = 0; i < LS_GS_NCLS; i++)
        n += g->elig[i];
    assert_int_equal(n, g->insts);
    assert_int_equal(g->insts, t->warp_insts);
    uint64_t bdi = 0;
    for (int i = 0; i < LS_BDI_NENC; i++)
        bdi += g->bdi_enc[i];
    assert_int_equal(bdi, g->writes);
    assert_true(g->other_energy > 0);
}

static void test_gpu_modes(void **state)
{
    (void)state;
    ls_stats off, st, alu, all, allc;
    wl_run_timing("backprop", NULL, &off);
    assert_int_equal(off.gscalar.insts, 0);
    /* statistics only: the same machine, the same cycles */
    const char *const s_st[] = { "gscalar.stats=on", NULL };
    wl_run_timing("backprop", s_st, &st);
    sum_check(&st);
    assert_int_equal(st.cycles, off.cycles);
    assert_int_equal(st.gscalar.scalar_insts, 0);
    assert_memory_equal(st.gscalar.lane_ops, st.gscalar.base_lane_ops,
                        sizeof st.gscalar.lane_ops);
    assert_int_equal(st.cosim[LS_BLK_RVC_COMP].instances, 0);
    assert_int_equal(st.gscalar.rf_energy, st.gscalar.base_rf_energy);
    assert_true(st.gscalar.elig[LS_GS_ALU] > 0 && st.gscalar.elig[LS_GS_MEM] > 0);
    assert_true(st.gscalar.elig[LS_GS_DIV] > 0);
    /* alu: exactly the non-divergent ALU class runs as scalar */
    const char *const s_alu[] = { "gscalar.scalar=alu", NULL };
    wl_run_timing("backprop", s_alu, &alu);
    sum_check(&alu);
    assert_memory_equal(alu.gscalar.elig, st.gscalar.elig, sizeof st.gscalar.elig);
    assert_int_equal(alu.gscalar.scalar_insts, alu.gscalar.elig[LS_GS_ALU]);
    assert_true(alu.gscalar.lane_ops[0] < alu.gscalar.base_lane_ops[0]);
    assert_int_equal(alu.gscalar.lane_ops[2], alu.gscalar.base_lane_ops[2]);
    /* all: every eligible instruction */
    const char *const s_all[] = { "gscalar.scalar=all", NULL };
    wl_run_timing("backprop", s_all, &all);
    sum_check(&all);
    assert_int_equal(all.gscalar.scalar_insts, all.gscalar.insts - all.gscalar.elig[LS_GS_NOT]);
    assert_true(all.gscalar.scalar_insts > alu.gscalar.scalar_insts);
    assert_true(all.gscalar.lane_ops[2] < all.gscalar.base_lane_ops[2]);
    assert_true(all.gscalar.exec_energy < alu.gscalar.exec_energy);
    /* nodiv (Fig 11's G-Scalar w/o divergent): the non-divergent ALU, SFU
     * and MEM classes, neither half- nor divergent-scalar */
    ls_stats nod;
    const char *const s_nod[] = { "gscalar.scalar=nodiv", NULL };
    wl_run_timing("backprop", s_nod, &nod);
    sum_check(&nod);
    assert_int_equal(nod.gscalar.scalar_insts, nod.gscalar.elig[LS_GS_ALU] +
                     nod.gscalar.elig[LS_GS_SFU] + nod.gscalar.elig[LS_GS_MEM]);
    assert_true(nod.gscalar.scalar_insts > alu.gscalar.scalar_insts);
    assert_true(nod.gscalar.scalar_insts < all.gscalar.scalar_insts);
    assert_true(alu.gscalar.exec_energy < alu.gscalar.base_exec_energy);
    assert_int_equal(all.thread_insts, off.thread_insts);
    /* with the blocks and half granularity: the same Fig 9 base, half-
     * scalar instructions appear, RF energy falls */
    const char *const s_allc[] = { "gscalar.scalar=all", "gscalar.compress=on",
                                   "gscalar.granularity=16", NULL };
    wl_run_timing("backprop", s_allc, &allc);
    sum_check(&allc);
    assert_true(allc.gscalar.elig[LS_GS_HALF] > 0);
    assert_true(allc.gscalar.rf_energy < allc.gscalar.base_rf_energy);
    assert_int_equal(allc.cosim[LS_BLK_RVC_COMP].transactions, allc.gscalar.writes);
    assert_int_equal(allc.gscalar.rvc_comp_toggles, 0);     /* counted with stats only */
    /* with gscalar.stats: every transaction's port toggles, at most every
     * port bit (2202 and 2173) per transaction */
    ls_stats tg;
    const char *const s_tg[] = { "gscalar.compress=on", "gscalar.stats=on", NULL };
    wl_run_timing("backprop", s_tg, &tg);
    assert_int_equal(tg.gscalar.rvc_comp_txns, tg.cosim[LS_BLK_RVC_COMP].transactions);
    assert_int_equal(tg.gscalar.rvc_decomp_txns, tg.cosim[LS_BLK_RVC_DECOMP].transactions);
    assert_true(tg.gscalar.rvc_comp_toggles > tg.gscalar.rvc_comp_txns);
    assert_true(tg.gscalar.rvc_comp_toggles < tg.gscalar.rvc_comp_txns * 2202);
    assert_true(tg.gscalar.rvc_decomp_toggles > tg.gscalar.rvc_decomp_txns);
    assert_true(tg.gscalar.rvc_decomp_toggles < tg.gscalar.rvc_decomp_txns * 2173);
    /* Warped-Compression's arrays depend on the values alone: equal with
     * and without the blocks, below the baseline's on backprop */
    assert_int_equal(allc.gscalar.wc_arrays_read, st.gscalar.wc_arrays_read);
    assert_int_equal(allc.gscalar.wc_arrays_written, st.gscalar.wc_arrays_written);
    assert_true(st.gscalar.wc_arrays_read + st.gscalar.wc_arrays_written <
                st.gscalar.base_arrays_read + st.gscalar.base_arrays_written);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_classes_c),
        cmocka_unit_test(test_classes_blocks),
        cmocka_unit_test(test_fig7b_c),
        cmocka_unit_test(test_fig7b_blocks),
        cmocka_unit_test(test_half),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_class_rule_matches_block),
        cmocka_unit_test(test_wrong_eligibility_caught),
        cmocka_unit_test(test_bdi_sizes),
        cmocka_unit_test(test_bdi_sizes_hint),
        cmocka_unit_test(test_bdi_all_reference),
        cmocka_unit_test(test_wc_c),
        cmocka_unit_test(test_wc_blocks),
        cmocka_unit_test(test_gpu_modes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
