/* Per-static-instruction decode for the timing model (unit class and the
 * registers the scoreboard tracks), the register-pressure estimate used
 * for the CTA register limit, the coalescer and shared-bank conflicts. */
#include <stdlib.h>
#include <string.h>
#include "core/core.h"
#include "ptx/ptx_mma.h"

static void add_reg(int32_t *v, uint8_t *n, unsigned cap, int32_t r)
{
    if (r < 0)
        return;
    for (unsigned i = 0; i < *n; i++)
        if (v[i] == r)
            return;
    if (*n < cap)
        v[(*n)++] = r;
}

/* Registers of operand o into v. */
static void opnd_regs(const struct ptx_operand *o, int32_t *v, uint8_t *n,
                      unsigned cap)
{
    switch (o->kind) {
    case PTX_O_REG:
    case PTX_O_MEM:
        add_reg(v, n, cap, o->reg);
        break;
    case PTX_O_VEC:
        for (unsigned k = 0; k < o->vec_n && k < 4; k++)
            add_reg(v, n, cap, o->vec_regs[k]);   /* wmma: two VEC slots */
        break;
    default:
        break;
    }
}

/* 32-bit words of the non-predicate registers of v[0..n). */
static uint8_t rf_words(const struct ptx_func *f, const int32_t *v, unsigned n)
{
    unsigned w = 0;
    for (unsigned i = 0; i < n; i++) {
        if (v[i] < 0 || (uint32_t)v[i] >= f->nregs)
            continue;
        enum ptx_type t = (enum ptx_type)f->regs[v[i]].type;
        if (t != PTX_T_PRED)
            w += ptx_type_bits(t) > 32 ? 2 : 1;
    }
    return (uint8_t)(w < 255 ? w : 255);
}

/* GPGPU-Sim's opcode class of in (set_opcode_and_latency): the row by
 * opcode, then by type (f32, f64, anything else the int row). */
static enum core_opc opc_of(const struct ptx_inst *in)
{
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned row;                       /* 0 ADD, 1 MAX, 2 MUL, 3 MAD, 4 DIV */
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_ADDC: case PTX_OP_SUB: case PTX_OP_SUBC:
        row = 0; break;
    case PTX_OP_MIN: case PTX_OP_MAX:
        row = 1; break;
    case PTX_OP_MUL:
        row = 2; break;
    case PTX_OP_MAD: case PTX_OP_MADC: case PTX_OP_FMA:
        row = 3; break;
    case PTX_OP_DIV: case PTX_OP_REM:
        row = 4; break;
    case PTX_OP_MUL24: return CORE_OPC_INT_MUL24;
    case PTX_OP_MAD24: return CORE_OPC_INT_MAD24;
    case PTX_OP_SHFL: return CORE_OPC_INT_SHFL;
    case PTX_OP_SQRT: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_RSQRT: case PTX_OP_RCP:
        return CORE_OPC_SFU;
    default:
        return CORE_OPC_OTHER;
    }
    unsigned base = t == PTX_T_F32 ? CORE_OPC_FP_ADD
                  : t == PTX_T_F64 ? CORE_OPC_DP_ADD : CORE_OPC_INT_ADD;
    if (base == CORE_OPC_INT_ADD && row == 4)
        return CORE_OPC_INT_DIV;        /* the int rows hold SHFL, MUL24, ... */
    return (enum core_opc)(base + row);
}

/* GPUWattch's energy class of in (core_ecls.def: GPGPU-Sim 3.2.2's
 * set_mul_div_or_other_archop), for its ALU/SFU lane operations. */
static enum core_ecls ecls_of(const struct ptx_inst *in)
{
    bool two = in->op == PTX_OP_SETP || in->op == PTX_OP_SET;
    enum ptx_type t = (enum ptx_type)(two ? in->type2 : in->type);
    if (t == PTX_T_F32 || t == PTX_T_F64) {
        switch (in->op) {
        case PTX_OP_MUL: case PTX_OP_MAD: return CORE_ECLS_FMUL;
        case PTX_OP_DIV: case PTX_OP_RCP: return CORE_ECLS_FDIV;
        case PTX_OP_LG2: return CORE_ECLS_LG2;
        case PTX_OP_SQRT: case PTX_OP_RSQRT: return CORE_ECLS_SQRT;
        case PTX_OP_SIN: case PTX_OP_COS: return CORE_ECLS_SIN;
        case PTX_OP_EX2: return CORE_ECLS_EX2;
        default: return CORE_ECLS_FPU;
        }
    }
    switch (in->op) {
    case PTX_OP_MUL24: case PTX_OP_MAD24: return CORE_ECLS_IMUL24;
    case PTX_OP_MUL: case PTX_OP_MAD:
        return t == PTX_T_U32 || t == PTX_T_S32 || t == PTX_T_B32 ? CORE_ECLS_IMUL32
                                                                   : CORE_ECLS_IMUL;
    case PTX_OP_DIV: return CORE_ECLS_IDIV;
    default: return CORE_ECLS_IALU;
    }
}

static const uint8_t opc_unit[CORE_OPC_N] = {
#define CORE_OPC(id, lat, ii, unit, unit3, doc) CORE_U_##unit,
#include "core/core_opc.def"
#undef CORE_OPC
};

static const uint8_t opc_unit3[CORE_OPC_N] = {
#define CORE_OPC(id, lat, ii, unit, unit3, doc) CORE_U_##unit3,
#include "core/core_opc.def"
#undef CORE_OPC
};

/* GPGPU-Sim 3.2.2's opcode class of in (its set_opcode_and_latency,
 * cuda-sim.cc:544-742): the rows of opc_of for the opcodes it has a case
 * for; fma, madc, rem, mul24 and mad24 fall to its one-cycle default. */
static enum core_opc opc3_of(const struct ptx_inst *in)
{
    switch (in->op) {
    case PTX_OP_FMA: case PTX_OP_MADC: case PTX_OP_REM:
    case PTX_OP_MUL24: case PTX_OP_MAD24:
        return CORE_OPC_OTHER;
    default:
        return opc_of(in);
    }
}

void core_opc_timing(const struct cfg *c, unsigned o, unsigned *lat, unsigned *ii)
{
    switch (o) {
#define CORE_OPC(id, l, i, unit, unit3, doc) \
    case CORE_OPC_##id: *lat = (unsigned)(l); *ii = (unsigned)(i); return;
#include "core/core_opc.def"
#undef CORE_OPC
    default: *lat = *ii = 0; return;
    }
}

static void decode(const struct ptx_func *f, const struct ptx_inst *in,
                   struct core_dinst *d)
{
    memset(d, 0, sizeof *d);
    enum ptx_unit u = ptx_op_unit((enum ptx_op)in->op);
    switch (u) {
    case PTX_UNIT_ALU: d->unit = CORE_U_ALU; break;
    case PTX_UNIT_SFU: d->unit = CORE_U_SFU; break;
    case PTX_UNIT_MEM: d->unit = CORE_U_MEM; break;
    case PTX_UNIT_CTRL: d->unit = CORE_U_CTRL; break;
    case PTX_UNIT_TENSOR: {
        unsigned m, n, k;
        ptx_mma_dims(in->geom, &m, &n, &k);
        d->unit = CORE_U_TENSOR;
        d->tsteps = (uint16_t)(m * n * k * ptx_mma_elem_bits(in->type2) / 256u);
        break;
    }
    default:
        /* warp collectives use an ALU pipe; barriers/fences none */
        d->unit = (in->op == PTX_OP_SHFL || in->op == PTX_OP_VOTE ||
                   in->op == PTX_OP_ACTIVEMASK || in->op == PTX_OP_MATCH ||
                   in->op == PTX_OP_NANOSLEEP) ? CORE_U_ALU : CORE_U_NONE;
        break;
    }
    if (in->op == PTX_OP_CVTA)
        d->unit = CORE_U_ALU;
    d->opc = (uint8_t)opc_of(in);
    d->ecls = (uint8_t)ecls_of(in);
    d->unit_cls = d->unit == CORE_U_ALU || d->unit == CORE_U_SFU ? opc_unit[d->opc]
                                                                 : d->unit;
    d->opc3 = (uint8_t)opc3_of(in);
    d->unit_cls3 = d->unit == CORE_U_ALU || d->unit == CORE_U_SFU ? opc_unit3[d->opc3]
                                                                  : d->unit;
    d->alu_slot = d->unit == CORE_U_CTRL || in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER;
    d->is_atomic = in->op == PTX_OP_ATOM || in->op == PTX_OP_RED;
    d->is_cta_bar = (in->op == PTX_OP_BAR || in->op == PTX_OP_BARRIER) &&
                    in->sub != PTX_SUB_WARP_SYNC;
    unsigned nd = ptx_inst_ndst(in);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++) {
        const struct ptx_operand *o = &in->o[i];
        if (i < nd && o->kind != PTX_O_MEM)
            opnd_regs(o, d->dst, &d->ndst, CORE_MAX_DST);
        else
            opnd_regs(o, d->src, &d->nsrc, CORE_MAX_SRC);
    }
    add_reg(d->src, &d->nsrc, CORE_MAX_SRC, in->guard);
    d->rf_rd = rf_words(f, d->src, d->nsrc);
    d->rf_wr = rf_words(f, d->dst, d->ndst);
    for (unsigned i = 0; i < in->nopnd && i < PTX_MAX_OPNDS; i++)
        if (in->o[i].kind == PTX_O_MEM)
            d->rf_addr = rf_words(f, &in->o[i].reg, 1);
}

int core_prog_build(struct core_prog *p, const struct ptx_module *mod)
{
    memset(p, 0, sizeof *p);
    p->mod = mod;
    p->nfuncs = mod->nfuncs;
    p->di = calloc(mod->nfuncs ? mod->nfuncs : 1, sizeof *p->di);
    if (!p->di)
        return -1;
    uint32_t code = 0;          /* the functions' code, one after another */
    for (uint32_t i = 0; i < mod->nfuncs; i++) {
        const struct ptx_func *f = &mod->funcs[i];
        if (f->nregs > p->max_regs)
            p->max_regs = f->nregs;
        p->di[i] = calloc(f->ninsts + 1, sizeof **p->di);
        if (!p->di[i])
            return -1;
        for (uint32_t k = 0; k < f->ninsts; k++)
            decode(f, &f->insts[k], &p->di[i][k]);
        /* pc == ninsts: falling off the end returns (control) */
        p->di[i][f->ninsts].unit = CORE_U_CTRL;
        p->di[i][f->ninsts].alu_slot = 1;
        for (uint32_t k = 0; k <= f->ninsts; k++)
            p->di[i][k].iaddr = code + k * CORE_INST_BYTES;
        code += (f->ninsts + 1) * CORE_INST_BYTES;
    }
    p->code_bytes = code;
    return 0;
}

void core_prog_timing(struct core_prog *p, const struct cfg *c)
{
    if (c->opcode_timing == CFG_OPCODE_TIMING_UNIT)
        return;
    bool v3 = c->opcode_timing == CFG_OPCODE_TIMING_CLASS3;
    for (uint32_t i = 0; i < p->nfuncs; i++)
        for (uint32_t k = 0; k < p->mod->funcs[i].ninsts; k++) {
            struct core_dinst *d = &p->di[i][k];
            d->unit = v3 ? d->unit_cls3 : d->unit_cls;
            if (v3)
                d->opc = d->opc3;
        }
}

void core_prog_free(struct core_prog *p)
{
    if (!p || !p->di)
        return;
    for (uint32_t i = 0; i < p->nfuncs; i++)
        free(p->di[i]);
    free(p->di);
    p->di = NULL;
}

uint32_t core_regs_per_thread(const struct ptx_func *f)
{
    uint32_t n = f->nregs;
    if (n == 0 || f->ninsts == 0)
        return 2;
    int32_t *first = malloc(n * sizeof *first), *last = malloc(n * sizeof *last);
    int32_t *delta = calloc(f->ninsts + 2, sizeof *delta);
    uint8_t *def1 = calloc(n, 1);
    uint32_t est = 0;
    if (!first || !last || !delta || !def1)
        goto out;
    for (uint32_t r = 0; r < n; r++)
        first[r] = -1, last[r] = -1;
    for (uint32_t k = 0; k < f->ninsts; k++) {
        struct core_dinst d;
        decode(f, &f->insts[k], &d);
        /* sources first: an instruction reads before it writes */
        for (unsigned i = 0; i < d.nsrc + d.ndst; i++) {
            bool is_dst = i >= d.nsrc;
            int32_t r = is_dst ? d.dst[i - d.nsrc] : d.src[i];
            if (first[r] < 0) {
                first[r] = (int32_t)k;
                def1[r] = is_dst;
            }
            last[r] = (int32_t)k;
        }
    }
    /* a value that crosses a loop's back edge (defined before the loop,
     * or read in the loop before it is written) is live around the whole
     * loop; temporaries written then read within an iteration are not */
    for (uint32_t k = 0; k < f->ninsts; k++) {
        const struct ptx_inst *in = &f->insts[k];
        if (in->op != PTX_OP_BRA || in->o[0].label < 0 ||
            (uint32_t)in->o[0].label > k)
            continue;
        int32_t top = in->o[0].label;
        for (uint32_t r = 0; r < n; r++)
            if (first[r] >= 0 && first[r] <= (int32_t)k && last[r] >= top &&
                (first[r] < top || !def1[r])) {
                if (first[r] > top)
                    first[r] = top;
                if (last[r] < (int32_t)k)
                    last[r] = (int32_t)k;
            }
    }
    for (uint32_t r = 0; r < n; r++) {
        if (first[r] < 0 || f->regs[r].type == PTX_T_PRED)
            continue;
        int32_t wgt = ptx_type_bits((enum ptx_type)f->regs[r].type) > 32 ? 2 : 1;
        delta[first[r]] += wgt;
        delta[last[r] + 1] -= wgt;
    }
    int32_t cur = 0;
    for (uint32_t k = 0; k <= f->ninsts; k++) {
        cur += delta[k];
        if (cur > (int32_t)est)
            est = (uint32_t)cur;
    }
out:
    free(def1);
    free(first);
    free(last);
    free(delta);
    est += 2;                   /* addresses/temporaries of the hardware */
    return est > 63 ? 63 : est;
}

unsigned core_coalesce(const struct exec_result *r, unsigned line,
                       unsigned sector, struct core_line *out)
{
    unsigned n = 0;
    uint64_t lmask = ~(uint64_t)(line - 1);
    unsigned sz = r->access_bytes ? r->access_bytes : 4;
    EXEC_FOR_EACH_LANE(r->active, lane, {
        uint64_t a = r->addr[lane];
        uint64_t end = a + sz - 1;
        for (uint64_t la = a & lmask; la <= end; la += line) {
            uint64_t lo = a > la ? a : la;
            uint64_t hi = end < la + line - 1 ? end : la + line - 1;
            uint8_t sm = 0;
            for (uint64_t s = (lo - la) / sector; s <= (hi - la) / sector; s++)
                sm |= (uint8_t)(1u << (s & 7));
            unsigned i = n;
            if (n && out[n - 1].line_addr == la)
                i = n - 1;
            else
                for (unsigned j = 0; j < n; j++)
                    if (out[j].line_addr == la) { i = j; break; }
            if (i == n) {
                if (n == 32)
                    continue;
                out[n].line_addr = la;
                out[n].sector_mask = 0;
                out[n].bytes = 0;
                n++;
            }
            out[i].sector_mask |= sm;
            out[i].bytes = (uint16_t)(out[i].bytes + (hi - lo + 1));
        }
    });
    return n;
}

/* One transaction of core_coalesce_cc13: its segment and the bytes its
 * lanes use in each 32-byte chunk. */
struct cc13_tx {
    uint64_t seg;
    uint16_t chunk_bytes[4];
};

/* Appends the lines of the transaction at base of size bytes (t's chunks
 * from first on) to out. */
static unsigned cc13_emit(const struct cc13_tx *t, uint64_t base, unsigned size,
                          unsigned first, unsigned line, unsigned sector,
                          struct core_line *out, unsigned n, unsigned cap)
{
    uint64_t lmask = ~(uint64_t)(line - 1);
    uint64_t end = base + size - 1;
    for (uint64_t la = base & lmask; la <= end && n < cap; la += line) {
        uint64_t lo = base > la ? base : la;
        uint64_t hi = end < la + line - 1 ? end : la + line - 1;
        uint8_t sm = 0;
        for (uint64_t s = (lo - la) / sector; s <= (hi - la) / sector; s++)
            sm |= (uint8_t)(1u << (s & 7));
        unsigned bytes = 0;
        for (uint64_t c = lo; c <= hi; c += 32)
            bytes += t->chunk_bytes[first + (c - base) / 32];
        out[n].line_addr = la;
        out[n].sector_mask = sm;
        out[n].bytes = (uint16_t)bytes;
        n++;
    }
    return n;
}

unsigned core_coalesce_cc13(const struct exec_result *r, unsigned line,
                            unsigned sector, struct core_line *out, unsigned cap)
{
    unsigned sz = r->access_bytes ? r->access_bytes : 4;
    unsigned seg = sz == 1 ? 32u : sz == 2 ? 64u : 128u;
    unsigned n = 0;
    for (unsigned half = 0; half < 2; half++) {
        struct cc13_tx tx[32];
        unsigned nt = 0;
        uint32_t lanes = r->active & (half ? 0xffff0000u : 0x0000ffffu);
        EXEC_FOR_EACH_LANE(lanes, lane, {
            uint64_t a = r->addr[lane], end = a + sz - 1;
            for (uint64_t sa = a & ~(uint64_t)(seg - 1); sa <= end; sa += seg) {
                unsigned i = 0;
                while (i < nt && tx[i].seg != sa)
                    i++;
                if (i == nt) {
                    if (nt == 32)
                        continue;
                    memset(&tx[nt], 0, sizeof tx[nt]);
                    tx[nt++].seg = sa;
                }
                uint64_t lo = a > sa ? a : sa;
                uint64_t hi = end < sa + seg - 1 ? end : sa + seg - 1;
                for (uint64_t b = lo; b <= hi;) {   /* bytes per 32 B chunk */
                    uint64_t ce = (b | 31u) < hi ? (b | 31u) : hi;
                    tx[i].chunk_bytes[(b - sa) / 32] += (uint16_t)(ce - b + 1);
                    b = ce + 1;
                }
            }
        });
        for (unsigned i = 0; i < nt; i++) {
            const struct cc13_tx *t = &tx[i];
            uint64_t base = t->seg;
            unsigned size = seg, first = 0;
            const uint16_t *cb = t->chunk_bytes;
            if (size == 128 && !(cb[2] | cb[3])) {
                size = 64;                      /* only the lower half used */
            } else if (size == 128 && !(cb[0] | cb[1])) {
                size = 64, base += 64, first = 2;
            }
            if (size == 64 && !cb[first + 1]) {
                size = 32;
            } else if (size == 64 && !cb[first]) {
                size = 32, base += 32, first++;
            }
            n = cc13_emit(t, base, size, first, line, sector, out, n, cap);
        }
    }
    return n;
}

unsigned core_coalesce_more(struct core_line *out, unsigned n, unsigned cap,
                            const uint64_t *addr, unsigned naddr, unsigned sz,
                            unsigned line, unsigned sector)
{
    uint64_t lmask = ~(uint64_t)(line - 1);
    for (unsigned k = 0; k < naddr; k++) {
        uint64_t a = addr[k], end = a + sz - 1;
        for (uint64_t la = a & lmask; la <= end; la += line) {
            uint64_t lo = a > la ? a : la;
            uint64_t hi = end < la + line - 1 ? end : la + line - 1;
            uint8_t sm = 0;
            for (uint64_t s = (lo - la) / sector; s <= (hi - la) / sector; s++)
                sm |= (uint8_t)(1u << (s & 7));
            unsigned i = n;
            for (unsigned j = n; j-- > 0;)
                if (out[j].line_addr == la) { i = j; break; }
            if (i == n) {
                if (n == cap)
                    continue;
                out[n].line_addr = la;
                out[n].sector_mask = 0;
                out[n].bytes = 0;
                n++;
            }
            out[i].sector_mask |= sm;
            out[i].bytes = (uint16_t)(out[i].bytes + (hi - lo + 1));
        }
    }
    return n;
}

unsigned core_shmem_degree(const struct exec_result *r, unsigned nbanks)
{
    /* distinct 4-byte words per bank; a word read by several lanes is a
     * broadcast and costs one access */
    uint64_t words[64][32];
    unsigned cnt[64], deg = 0;
    unsigned sz = r->access_bytes ? r->access_bytes : 4;
    if (nbanks > 64)
        nbanks = 64;
    if (sz <= 4) {
        /* fast path: every lane in its own bank, or a pure broadcast */
        uint64_t used = 0;
        bool clash = false;
        uint64_t w0 = r->active ? r->addr[__builtin_ctz(r->active)] >> 2 : 0;
        bool same = true;
        EXEC_FOR_EACH_LANE(r->active, lane, {
            uint64_t wd = r->addr[lane] >> 2;
            uint64_t bit = 1ull << (wd % nbanks);
            same &= wd == w0;
            clash |= (used & bit) != 0;
            used |= bit;
        });
        if (!clash || same)
            return r->active ? 1 : 0;
    }
    memset(cnt, 0, nbanks * sizeof cnt[0]);
    EXEC_FOR_EACH_LANE(r->active, lane, {
        uint64_t w0 = r->addr[lane] >> 2, w1 = (r->addr[lane] + sz - 1) >> 2;
        for (uint64_t wd = w0; wd <= w1; wd++) {
            unsigned b = (unsigned)(wd % nbanks);
            bool seen = false;
            for (unsigned j = 0; j < cnt[b] && j < 32; j++)
                if (words[b][j] == wd) { seen = true; break; }
            if (seen)
                continue;
            if (cnt[b] < 32)
                words[b][cnt[b]] = wd;
            if (++cnt[b] > deg)
                deg = cnt[b];
        }
    });
    return deg ? deg : (r->active ? 1 : 0);
}
