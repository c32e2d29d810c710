/* Tensor-core instructions (docs/exec-semantics.md, "Tensor cores"):
 * wmma.load/wmma.store move a matrix fragment between memory and the
 * registers of the 32 lanes, wmma.mma and mma.sync compute D = A x B + C
 * on fragments. All are warp collectives: every lane of the warp must
 * execute them (a run-time error otherwise).
 *
 * Fragment mapping. mma.sync: the per-lane layout the PTX ISA defines
 * (groupID = lane >> 2, threadID_in_group = lane & 3). wmma: the PTX ISA
 * leaves it unspecified; here lane l's element e is slot s = l * E + e (E
 * elements a lane) of the matrix enumerated in its layout's order (A/B:
 * row-major for .row, column-major for .col; C/D: always row-major), slot
 * s holding element s mod (rows x cols). The f16 A/B fragments have 512
 * slots for 128..512 elements, so each element sits in 1, 2 or 4 lanes;
 * wmma.mma reads the first copy and fails when the copies disagree.
 *
 * Arithmetic. f16 products are exact in f32; each D element starts from
 * C (converted to f32) and adds the products in the order k = 0..K-1,
 * each add rounded to nearest-even f32 (an fma); the result is rounded
 * once more to f16 for an f16 D. NaN results are the canonical NaN.
 * Integer forms sum exactly and wrap to s32, or saturate with .satfinite;
 * b1 adds popc(a XOR b) over k. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"
#include "exec/exec_mem.h"
#include "exec/exec_mma_fault.h"
#include "ptx/ptx_mma.h"

#define MMA_MAX_ELEMS 1024      /* largest matrix of a fragment (b1: 8 x 128) */

static int merr(struct exec_error *err, const struct ptx_inst *in, int lane,
                uint64_t addr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static int merr(struct exec_error *err, const struct ptx_inst *in, int lane,
                uint64_t addr, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    err->lane = lane;
    err->addr = addr;
    snprintf(err->msg, sizeof err->msg, "line %u:%u: %s: %s", in->line, in->col,
             ptx_op_name((enum ptx_op)in->op), what);
    return -1;
}

/* Register j of the fragment in slots o[slot], o[slot + 1]. */
static int32_t frag_reg(const struct ptx_inst *in, unsigned slot, unsigned j)
{
    const struct ptx_operand *o = &in->o[slot + j / 4];
    return o->kind == PTX_O_VEC && j % 4 < o->vec_n ? o->vec_regs[j % 4] : -1;
}

/* What one fragment operand is: its matrix, element type and mapping. */
struct frag {
    unsigned rows, cols;        /* the matrix (A: MxK, B: KxN, C/D: MxN)  */
    unsigned mt, bits, per;     /* element type, bits, elements a register */
    unsigned nregs, e;          /* registers and elements per lane         */
    bool colmajor;              /* wmma enumeration order (A/B .col)       */
    bool sync;                  /* mma.sync: the PTX-defined layout        */
    unsigned shape, which;      /* enum ptx_mma_shape, enum ptx_mma_frag   */
};

static void frag_init(struct frag *f, const struct ptx_inst *in, unsigned which,
                      unsigned mt, bool colmajor)
{
    unsigned m, n, k;
    ptx_mma_dims(in->geom, &m, &n, &k);
    f->rows = which == PTX_FRAG_A ? m : which == PTX_FRAG_B ? k : m;
    f->cols = which == PTX_FRAG_A ? k : n;
    f->mt = mt;
    f->bits = ptx_mma_elem_bits(mt);
    f->per = ptx_mma_per_reg(mt);
    f->sync = in->op == PTX_OP_MMA;
    f->nregs = ptx_mma_frag_regs(in->geom, which, mt, f->sync);
    f->e = f->nregs * f->per;
    f->colmajor = colmajor && (which == PTX_FRAG_A || which == PTX_FRAG_B);
    f->shape = in->geom;
    f->which = which;
}

/* Matrix position (*r, *c) of element e of lane. */
static void frag_pos(const struct frag *f, unsigned lane, unsigned e,
                     unsigned *r, unsigned *c)
{
    if (f->sync) {
        unsigned g = lane >> 2, t = lane & 3;
        bool k8 = f->shape == PTX_MMA_M16N8K8;
        switch (f->which) {
        case PTX_FRAG_A:
            if (exec_mma_fault_a_pos(k8, g, t, e, r, c))
                return;
            if (k8) { *r = g + 8 * (e >> 1); *c = 2 * t + (e & 1); }
            else    { *r = g; *c = 4 * t + e; }
            return;
        case PTX_FRAG_B:
            *r = (k8 ? 2 : 4) * t + e;
            *c = g;
            return;
        default:
            if (k8) { *r = g + 8 * (e >> 1); *c = 2 * t + (e & 1); }
            else    { *r = g; *c = 2 * t + e; }
            return;
        }
    }
    unsigned i = (lane * f->e + e) % (f->rows * f->cols);
    if (f->colmajor) {
        *c = i / f->rows;
        *r = i % f->rows;
    } else {
        *r = i / f->cols;
        *c = i % f->cols;
    }
}

static uint32_t get_elem(const struct exec_warp *w, const struct ptx_inst *in,
                         unsigned slot, const struct frag *f, unsigned lane,
                         unsigned e)
{
    int32_t r = frag_reg(in, slot, e / f->per);
    uint32_t v = (uint32_t)w->regs[(size_t)r * EXEC_WARP + lane];
    if (f->bits == 32)
        return v;
    return (v >> ((e % f->per) * f->bits)) & ((1u << f->bits) - 1u);
}

/* Checks that every register of the fragment at slot exists. */
static int frag_check(const struct exec_warp *w, const struct ptx_inst *in,
                      unsigned slot, const struct frag *f, struct exec_error *err)
{
    for (unsigned j = 0; j < f->nregs; j++) {
        int32_t r = frag_reg(in, slot, j);
        if (r < 0 || (uint32_t)r >= w->nregs)
            return merr(err, in, -1, 0, "fragment register %u missing or out of range", j);
    }
    return 0;
}

/* Gathers fragment slot into mat[rows * cols] (row-major), checking that
 * the copies of a wmma f16 multiplicand agree. */
static int gather(const struct exec_warp *w, const struct ptx_inst *in,
                  unsigned slot, const struct frag *f, uint32_t *mat,
                  const char *name, struct exec_error *err)
{
    unsigned total = f->rows * f->cols;
    uint8_t seen[MMA_MAX_ELEMS];
    int16_t from[MMA_MAX_ELEMS];
    memset(seen, 0, total);
    for (unsigned lane = 0; lane < EXEC_WARP; lane++)
        for (unsigned e = 0; e < f->e; e++) {
            unsigned r, c;
            frag_pos(f, lane, e, &r, &c);
            unsigned ix = r * f->cols + c;
            uint32_t v = get_elem(w, in, slot, f, lane, e);
            if (!seen[ix]) {
                seen[ix] = 1;
                mat[ix] = v;
                from[ix] = (int16_t)lane;
            } else if (mat[ix] != v) {
                return merr(err, in, (int)lane, 0,
                            "the copies of %s element (%u,%u) disagree: lane %d holds "
                            "0x%x, lane %u 0x%x (a fragment changed lane by lane; its "
                            "layout is unspecified in PTX)", name, r, c, from[ix],
                            mat[ix], lane, v);
            }
        }
    return 0;
}

static void scatter(struct exec_warp *w, const struct ptx_inst *in, unsigned slot,
                    const struct frag *f, const uint32_t *mat)
{
    for (unsigned lane = 0; lane < EXEC_WARP; lane++)
        for (unsigned j = 0; j < f->nregs; j++) {
            uint32_t v = 0;
            for (unsigned q = 0; q < f->per; q++) {
                unsigned r, c;
                frag_pos(f, lane, j * f->per + q, &r, &c);
                uint32_t x = mat[r * f->cols + c];
                v |= f->bits == 32 ? x : (x & ((1u << f->bits) - 1u)) << (q * f->bits);
            }
            int32_t rg = frag_reg(in, slot, j);
            w->regs[(size_t)rg * EXEC_WARP + lane] = v;
        }
}

/* ---------------------------------------------------------------- mma */

static float h2f(uint32_t h)
{
    return (float)exec_f16_to_f64((uint16_t)h);
}

static int64_t ival(uint32_t v, unsigned mt)
{
    switch (mt) {
    case PTX_MT_S8: return exec_sext(v, 8);
    case PTX_MT_S4: return exec_sext(v, 4);
    case PTX_MT_S32: return exec_sext(v, 32);
    default: return (int64_t)v;
    }
}

static int do_mma(struct exec_warp *w, const struct ptx_inst *in,
                  struct exec_error *err)
{
    struct frag fd, fa, fb, fc;
    frag_init(&fd, in, PTX_FRAG_D, in->type, false);
    frag_init(&fa, in, PTX_FRAG_A, in->type2, in->tq & PTX_MMA_ACOL);
    frag_init(&fb, in, PTX_FRAG_B, in->type3, in->tq & PTX_MMA_BCOL);
    frag_init(&fc, in, PTX_FRAG_C, in->mtype, false);
    fb.colmajor = exec_mma_fault_b_layout(fb.colmajor);
    if (frag_check(w, in, 0, &fd, err) || frag_check(w, in, 2, &fa, err) ||
        frag_check(w, in, 4, &fb, err) || frag_check(w, in, 6, &fc, err))
        return -1;
    uint32_t a[MMA_MAX_ELEMS], b[MMA_MAX_ELEMS], c[MMA_MAX_ELEMS], d[MMA_MAX_ELEMS];
    if (gather(w, in, 2, &fa, a, "a", err) || gather(w, in, 4, &fb, b, "b", err) ||
        gather(w, in, 6, &fc, c, "c", err))
        return -1;
    unsigned M = fd.rows, N = fd.cols, K = fa.cols;
    bool fp = in->type2 == PTX_MT_F16;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            uint32_t cv = c[i * N + j];
            if (fp) {
                float acc = in->mtype == PTX_MT_F16 ? h2f(cv) : exec_f32(cv);
                for (unsigned k = 0; k < K; k++)
                    acc = exec_f32(exec_fr_fma32(h2f(a[i * K + k]), h2f(b[k * N + j]),
                                                 acc, EXEC_FR_RN));
                d[i * N + j] = in->type == PTX_MT_F16
                    ? (uint32_t)exec_fr_from_f64(&exec_ff16, acc, 0, EXEC_FR_RN)
                    : (acc != acc ? EXEC_NAN32 : exec_f32_bits(acc));
                continue;
            }
            int64_t s = ival(cv, PTX_MT_S32);
            for (unsigned k = 0; k < K; k++) {
                uint32_t x = a[i * K + k], y = b[k * N + j];
                if (in->type2 == PTX_MT_B1)
                    s += (x ^ y) & 1u;
                else
                    s += ival(x, in->type2) * ival(y, in->type3);
            }
            if (in->flags & PTX_F_SAT)
                s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            d[i * N + j] = (uint32_t)s;
        }
    scatter(w, in, 0, &fd, d);
    return 0;
}

/* ------------------------------------------------------ load / store */

static int do_ldst(struct exec_warp *w, struct exec_memctx *m,
                   const struct ptx_inst *in, struct exec_result *res,
                   struct exec_error *err)
{
    bool st = in->op == PTX_OP_WMMA_STORE;
    unsigned fslot = st ? 1 : 0, aslot = st ? 0 : 2;
    const struct ptx_operand *ao = &in->o[aslot], *so = &in->o[3];
    bool col = in->tq & PTX_MMA_ACOL;
    struct frag f;
    frag_init(&f, in, in->tmode, in->type, col);
    if (frag_check(w, in, fslot, &f, err))
        return -1;
    /* address and stride: the same in every lane */
    uint64_t base = 0;
    uint32_t stride = col ? f.rows : f.cols;
    for (unsigned lane = 0; lane < EXEC_WARP; lane++) {
        uint64_t b = (uint64_t)ao->imm;
        if (ao->reg >= 0) {
            if ((uint32_t)ao->reg >= w->nregs)
                return merr(err, in, -1, 0, "address register out of range");
            b += w->regs[(size_t)ao->reg * EXEC_WARP + lane];
        } else if (ao->sym.index >= 0) {
            b += w->sym_addr[ao->sym.scope ? 1 : 0][ao->sym.index];
        }
        uint32_t s = stride;
        if (so->kind == PTX_O_IMM)
            s = (uint32_t)so->imm;
        else if (so->kind == PTX_O_REG && so->reg >= 0 && (uint32_t)so->reg < w->nregs)
            s = (uint32_t)w->regs[(size_t)so->reg * EXEC_WARP + lane];
        if (lane == 0) {
            base = b;
            stride = s;
        } else if (b != base || s != stride) {
            return merr(err, in, (int)lane, b,
                        "lanes disagree on the matrix address or stride (lane 0: 0x%llx, %u; "
                        "lane %u: 0x%llx, %u); PTX requires the same values in the warp",
                        (unsigned long long)base, stride, lane, (unsigned long long)b, s);
        }
    }
    unsigned lead = col ? f.rows : f.cols;
    if (stride < lead)
        return merr(err, in, -1, base, "stride %u is below the matrix's leading dimension %u",
                    stride, lead);
    /* PTX ISA, "Matrix Storage for WMMA": every row (column) starts aligned
     * to the fragment's size in bytes (its registers), so the address is a
     * multiple of it and so is the stride in bytes, except that the ISA's
     * own default stride (the leading dimension) is always valid: where a
     * packed row is smaller than the fragment (m32n8k16 .row B and m8n32k16
     * .col A of .f16/.bf16), that row's size is the stride's unit */
    unsigned fbits = f.nregs * 32u, lbits = lead * f.bits;
    unsigned unit = lbits < fbits ? lbits : fbits;
    if (((uint64_t)stride * f.bits) % unit != 0)
        return merr(err, in, 0, base, "stride %u elements is not a multiple of %u bytes (PTX "
                    "ISA, Matrix Storage for WMMA: the fragment's size)", stride, unit / 8);
    if (base % (fbits / 8) != 0)
        return merr(err, in, 0, base, "matrix address 0x%llx is not aligned to the fragment's "
                    "size, %u bytes (PTX ISA, Matrix Storage for WMMA)",
                    (unsigned long long)base, fbits / 8);
    /* timing: one record per element (per register for sub-byte types) */
    if (!m->texaddr) {
        m->texaddr = calloc((size_t)EXEC_WARP * 16, sizeof *m->texaddr);
        if (!m->texaddr)
            return merr(err, in, -1, 0, "host memory exhausted");
    }
    unsigned ebytes = f.bits >= 8 ? f.bits / 8 : 0;
    unsigned nx = 0, sp0 = 0;
    uint32_t gen_sh = 0;
    for (unsigned lane = 0; lane < EXEC_WARP; lane++) {
        uint32_t regv[8] = {0};
        if (st)
            for (unsigned j = 0; j < f.nregs; j++)
                regv[j] = (uint32_t)w->regs[(size_t)frag_reg(in, fslot, j) * EXEC_WARP + lane];
        for (unsigned e = 0; e < f.e; e++) {
            unsigned r, c;
            frag_pos(&f, lane, e, &r, &c);
            uint64_t off = col ? (uint64_t)c * stride + r : (uint64_t)r * stride + c;
            uint64_t bit = off * f.bits;
            uint64_t addr = base + bit / 8, ta = addr;
            unsigned n = ebytes ? ebytes : 1, sp;
            uint8_t *p = exec_mem_host_sp(m, in->space, &ta, n, lane, st, &sp, err);
            if (!p)
                return -1;
            if (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED)
                return merr(err, in, (int)lane, addr,
                            "the matrix must be in global or shared memory");
            if (lane == 0 && e == 0)
                sp0 = sp;
            else if (sp != sp0)
                return merr(err, in, (int)lane, addr, "the matrix spans state spaces");
            if (in->space == PTX_SP_GENERIC && sp == PTX_SP_SHARED)
                gen_sh |= 1u << lane;
            unsigned q = e % f.per, j = e / f.per;
            uint32_t mask = f.bits == 32 ? ~0u : (1u << f.bits) - 1u;
            if (st) {
                uint32_t v = f.bits == 32 ? regv[j] : (regv[j] >> (q * f.bits)) & mask;
                memcpy(p, &v, n);        /* little-endian host, as the model's memory */
            } else {
                uint32_t v = 0;
                memcpy(&v, p, n);
                if (!ebytes)
                    v = (v >> (bit % 8)) & mask;
                regv[j] |= f.bits == 32 ? v : (v & mask) << (q * f.bits);
            }
            /* timing records the space's own address (ta) */
            bool rec = ebytes ? true : q == 0;
            if (rec) {
                if (e == 0)
                    res->addr[lane] = ta;
                else if (nx < EXEC_WARP * 16)
                    m->texaddr[nx++] = ta;
            }
        }
        if (!st)
            for (unsigned j = 0; j < f.nregs; j++)
                w->regs[(size_t)frag_reg(in, fslot, j) * EXEC_WARP + lane] = regv[j];
    }
    res->space = (uint8_t)sp0;
    res->access_bytes = (uint8_t)(ebytes ? ebytes : 4);
    res->is_store = st;
    res->gen_shared = gen_sh;
    res->nxaddr = (uint16_t)nx;
    m->ntexaddr = nx;
    return 0;
}

int exec_mma(struct exec_warp *w, struct exec_memctx *m, const struct ptx_inst *in,
             uint32_t mask, struct exec_result *res, struct exec_error *err)
{
    uint32_t act = exec_guard_mask(w, in, mask);
    res->active = act;
    res->taken = 0;
    res->space = 0;
    res->access_bytes = 0;
    res->is_store = false;
    res->gen_shared = res->gen_local = 0;
    res->nxaddr = 0;
    if (!act)
        return 0;
    if (act != 0xffffffffu)
        return merr(err, in, (int)__builtin_ctz(~act), 0,
                    "a warp-collective tensor-core instruction needs all 32 lanes; "
                    "lanes 0x%08x execute it (divergence, a guard or a partial warp)", act);
    switch (in->op) {
    case PTX_OP_WMMA_LOAD:
    case PTX_OP_WMMA_STORE:
        return do_ldst(w, m, in, res, err);
    case PTX_OP_WMMA_MMA:
    case PTX_OP_MMA:
        return do_mma(w, in, err);
    default:
        return merr(err, in, -1, 0, "not a tensor-core instruction");
    }
}
