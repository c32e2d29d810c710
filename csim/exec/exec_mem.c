/* Functional memory instructions: ld/ldu/st/atom/red/cvta (textures and
 * surfaces: exec_tex.c) over the
 * device allocation table, the CTA's shared segment, per-thread local
 * stacks and the param buffers (address map: docs/memory-model.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "exec/exec_mem.h"
#include "exec/exec_dmem.h"
#include "exec/exec_fround.h"
#include "exec/exec_lane.h"

/* ---------------------------------------------------------------- dmem */

const struct exec_alloc *exec_dmem_granule(const struct exec_dmem *d,
                                           uint64_t addr, uint64_t n)
{
    const struct exec_alloc *a = exec_dmem_below(d, addr);
    if (!a || addr - a->base >= a->span || n > a->span - (addr - a->base))
        return NULL;
    return a;
}

bool exec_dmem_mapped(const struct exec_dmem *d, uint64_t addr, uint64_t n)
{
    uint32_t top = d->n;        /* allocations below the device heap */
    while (top > 0 && d->a[top - 1].base >= EXEC_HEAP_BASE)
        top--;
    if (top == 0)
        return false;
    const struct exec_alloc *a = &d->a[top - 1];
    uint64_t end = a->base + a->span;
    uint64_t hi = (end + EXEC_MAP_PAGE - 1) / EXEC_MAP_PAGE * EXEC_MAP_PAGE;
    uint64_t lo = EXEC_GLOBAL_BASE - EXEC_MAP_PAGE;
    if (addr < lo || addr >= hi || n > hi - addr)
        return false;
    return exec_dmem_granule(d, addr, n) == NULL;
}

uint8_t *exec_dmem_gap(struct exec_dmem *d, uint64_t addr, uint64_t n)
{
    uint64_t cb = addr / EXEC_GAP_CHUNK * EXEC_GAP_CHUNK;
    if (n == 0 || (addr + n - 1) / EXEC_GAP_CHUNK * EXEC_GAP_CHUNK != cb ||
        !exec_dmem_mapped(d, addr, n))
        return NULL;
    uint32_t lo = 0, hi = d->ngap;
    while (lo < hi) {               /* first chunk with base >= cb */
        uint32_t mid = (lo + hi) / 2;
        if (d->gap[mid].base < cb)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < d->ngap && d->gap[lo].base == cb)
        return d->gap[lo].host + (addr - cb);
    if (d->ngap == d->gapcap) {
        uint32_t nc = d->gapcap ? d->gapcap * 2 : 16;
        struct exec_gap *ng = realloc(d->gap, nc * sizeof *ng);
        if (!ng)
            return NULL;
        d->gap = ng;
        d->gapcap = nc;
    }
    uint8_t *h = calloc(1, EXEC_GAP_CHUNK);
    if (!h)
        return NULL;
    memmove(&d->gap[lo + 1], &d->gap[lo], (d->ngap - lo) * sizeof *d->gap);
    d->gap[lo] = (struct exec_gap){ cb, h };
    d->ngap++;
    return h + (addr - cb);
}

void exec_dmem_gap_free(struct exec_dmem *d)
{
    for (uint32_t i = 0; i < d->ngap; i++)
        free(d->gap[i].host);
    free(d->gap);
    d->gap = NULL;
    d->ngap = d->gapcap = 0;
}

/* ------------------------------------------------------------- helpers */

static const char *space_name(unsigned sp)
{
    switch (sp) {
    case PTX_SP_GLOBAL: return "global";
    case PTX_SP_SHARED: return "shared";
    case PTX_SP_LOCAL:  return "local";
    case PTX_SP_PARAM:  return "param";
    case PTX_SP_CONST:  return "const";
    case PTX_SP_TEX:    return "tex";
    default:            return "generic";
    }
}

static int fault(struct exec_error *err, unsigned lane, uint64_t addr,
                 const char *fmt, const char *a, unsigned n, const char *what)
{
    err->lane = (int)lane;
    err->addr = addr;
    char head[96];
    snprintf(head, sizeof head, fmt, a, n);
    snprintf(err->msg, sizeof err->msg, "%s at 0x%llx%s%s", head,
             (unsigned long long)addr, what ? ": " : "", what ? what : "");
    return -1;
}

/* Register value of a REG operand for lane. */
static inline uint64_t reg_of(const struct exec_warp *w, int32_t r, unsigned lane)
{
    return w->regs[(size_t)r * EXEC_WARP + lane];
}

/* Value of a REG or IMM source (memory instructions have no other kinds). */
static inline uint64_t src_of(const struct exec_warp *w,
                              const struct ptx_operand *o, unsigned lane)
{
    if (o->kind == PTX_O_REG)
        return reg_of(w, o->reg, lane);
    if (o->kind == PTX_O_IMM)
        return (uint64_t)o->imm;
    return exec_read(w, o, PTX_T_B64, lane);
}

/* Writes a loaded value of lbits bits (signed: sign-extend) to register r
 * of lane, truncated to the register's declared width. */
static inline void write_loaded(struct exec_warp *w, const struct ptx_func *f,
                                int32_t r, unsigned lane, uint64_t v,
                                unsigned lbits, bool sgn)
{
    unsigned rbits = 64;
    if (f && (uint32_t)r < f->nregs) {
        rbits = ptx_type_bits((enum ptx_type)f->regs[r].type);
        if (rbits == 0 || rbits > 64)
            rbits = 64;
    }
    if (sgn && lbits < 64 && (v >> (lbits - 1)) & 1)
        v |= ~0ull << lbits;
    if (rbits < 64)
        v &= (1ull << rbits) - 1;
    w->regs[(size_t)r * EXEC_WARP + lane] = v;
}

/* Little-endian host: fixed-size copies the compiler turns into moves. */
static inline uint64_t mem_load(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
    default: { uint64_t v = 0; memcpy(&v, p, n < 8 ? n : 8); return v; }
    }
}

static inline void mem_store(uint8_t *p, uint64_t v, unsigned n)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); break; }
    case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); break; }
    case 8: memcpy(p, &v, 8); break;
    default: memcpy(p, &v, n < 8 ? n : 8); break;
    }
}

/* Host pointer for an aligned access inside the cached allocation or the
 * kernel param buffer, or NULL (then resolve() decides). */
static inline uint8_t *fast_ptr(const struct exec_memctx *m, unsigned sp,
                                uint64_t addr, unsigned n)
{
    if (addr & (n - 1))
        return NULL;
    if (sp == PTX_SP_GLOBAL || sp == PTX_SP_CONST) {
        const struct exec_alloc *a = m->last;
        if (a && addr - a->base < a->size && n <= a->size - (addr - a->base))
            return a->host + (addr - a->base);
    } else if (sp == PTX_SP_PARAM) {
        if (addr < m->param_bytes && n <= m->param_bytes - addr)
            return (uint8_t *)(uintptr_t)(m->param + addr);
    } else if (sp == PTX_SP_SHARED) {
        if (addr < m->shared_bytes && n <= m->shared_bytes - addr)
            return m->shared + addr;
    }
    return NULL;
}

/* How a loaded value lands in a destination register: sign-extend from
 * lbits (signed loads), then truncate to the register's declared width. */
struct dst_fmt { unsigned lsh; uint64_t rmask; bool sgn; };

static inline struct dst_fmt dst_fmt_of(const struct ptx_func *f, int32_t r,
                                        unsigned lbits, bool sgn)
{
    unsigned rbits = 64;
    if (f && r >= 0 && (uint32_t)r < f->nregs) {
        rbits = ptx_type_bits((enum ptx_type)f->regs[r].type);
        if (rbits == 0 || rbits > 64)
            rbits = 64;
    }
    struct dst_fmt d = { lbits < 64 ? 64 - lbits : 0,
                         rbits < 64 ? (1ull << rbits) - 1 : ~0ull, sgn };
    return d;
}

static inline uint64_t dst_apply(struct dst_fmt d, uint64_t v)
{
    if (d.sgn)
        v = (uint64_t)((int64_t)(v << d.lsh) >> d.lsh);
    return v & d.rmask;
}

/* Effective address of a MEM operand for lane (before space mapping). */
static inline uint64_t mem_addr(const struct exec_warp *w,
                                const struct ptx_operand *o, unsigned lane)
{
    uint64_t base = 0;
    if (o->reg >= 0)
        base = reg_of(w, o->reg, lane);
    else if (o->sym.index >= 0)
        base = w->sym_addr[o->sym.scope ? 1 : 0][o->sym.index];
    return base + (uint64_t)o->imm;
}

/* Maps a generic address to (space, offset). */
static inline unsigned generic_resolve(uint64_t *addr)
{
    uint64_t a = *addr;
    if (a - EXEC_SHARED_WINDOW < EXEC_WINDOW_BYTES) {
        *addr = a - EXEC_SHARED_WINDOW;
        return PTX_SP_SHARED;
    }
    if (a - EXEC_LOCAL_WINDOW < EXEC_WINDOW_BYTES) {
        *addr = a - EXEC_LOCAL_WINDOW;
        return PTX_SP_LOCAL;
    }
    if (a - EXEC_PARAM_WINDOW < EXEC_WINDOW_BYTES) {
        *addr = a - EXEC_PARAM_WINDOW;
        return PTX_SP_PARAM;
    }
    return PTX_SP_GLOBAL;
}

/* Address of lane's access through MEM operand o in space `space`, mapped
 * to its state space: generic addresses resolve through the windows,
 * shared and local offsets wrap at 32 bits. Returns the space; *addr is
 * the offset within it. */
static inline unsigned lane_space_addr(const struct exec_warp *w,
                                       const struct ptx_operand *o,
                                       unsigned space, unsigned lane,
                                       uint64_t *addr, struct exec_result *res)
{
    uint64_t a = mem_addr(w, o, lane);
    if (space == PTX_SP_GENERIC) {
        space = generic_resolve(&a);
        res->gen_shared |= (uint32_t)(space == PTX_SP_SHARED) << lane;
        res->gen_local |= (uint32_t)(space == PTX_SP_LOCAL) << lane;
    } else if (space == PTX_SP_SHARED || space == PTX_SP_LOCAL)
        a = (uint32_t)a;                /* 32-bit windows wrap */
    *addr = a;
    return space;
}

/* Host pointer for an access of n bytes at addr in space sp by lane, or
 * NULL with err filled. addr is already resolved (not generic). */
static uint8_t *resolve(struct exec_memctx *m, unsigned sp, uint64_t addr,
                        unsigned n, unsigned lane, bool store,
                        struct exec_error *err)
{
    const char *kind = store ? "%s store of %u bytes" : "%s load of %u bytes";
    if (n > 1 && (addr & (n - 1)) != 0) {
        char k2[64];
        snprintf(k2, sizeof k2, "misaligned %s", kind);
        fault(err, lane, addr, k2, space_name(sp), n, NULL);
        return NULL;
    }
    switch (sp) {
    case PTX_SP_GLOBAL:
    case PTX_SP_CONST: {
        const struct exec_alloc *a = m->last;
        if (!a || addr - a->base >= a->size || n > a->size - (addr - a->base)) {
            a = m->dmem ? exec_dmem_find(m->dmem, addr, n) : NULL;
            if (!a && m->dmem && m->dmem->memcheck) {
                /* memcheck warn/off: past the allocation but inside its
                 * granule, or elsewhere in the mapped range: the bytes a
                 * GPU would read or write */
                const struct exec_alloc *g = exec_dmem_granule(m->dmem, addr, n);
                uint8_t *h = g ? g->host + (addr - g->base)
                               : exec_dmem_gap(m->dmem, addr, n);
                if (h) {
                    if (!m->oob || addr < m->oob_addr) {
                        m->oob_addr = addr;
                        m->oob_lane = (uint8_t)lane;
                        m->oob_store = store;
                    }
                    m->oob |= 1u << lane;
                    return h;
                }
            }
            if (!a) {
                char k2[64];
                snprintf(k2, sizeof k2, "out-of-bounds %s", kind);
                const struct exec_alloc *g = m->dmem && addr
                                             ? exec_dmem_granule(m->dmem, addr, n) : NULL;
                fault(err, lane, addr, k2, space_name(sp), n,
                      addr == 0 ? "null pointer"
                      : g ? "past the end of its allocation, inside the allocation's "
                            "granule: a GPU goes on (memcheck = warn or off)"
                      : m->dmem && exec_dmem_mapped(m->dmem, addr, n)
                          ? "outside every allocation, in the 2 MiB pages a GPU maps "
                            "around them: a GPU goes on (memcheck = warn or off)"
                          : "not inside a live allocation");
                return NULL;
            }
            m->last = a;
        }
        return a->host + (addr - a->base);
    }
    case PTX_SP_SHARED:
        if (addr >= m->shared_bytes || n > m->shared_bytes - addr) {
            char k2[64], what[64];
            snprintf(k2, sizeof k2, "out-of-bounds %s", kind);
            snprintf(what, sizeof what, "shared segment is %llu bytes",
                     (unsigned long long)m->shared_bytes);
            fault(err, lane, addr, k2, space_name(sp), n, what);
            return NULL;
        }
        return m->shared + addr;
    case PTX_SP_LOCAL:
        if (addr >= m->local_stride || n > m->local_stride - addr) {
            char k2[64], what[64];
            snprintf(k2, sizeof k2, "out-of-bounds %s", kind);
            snprintf(what, sizeof what, "local stack is %llu bytes per thread",
                     (unsigned long long)m->local_stride);
            fault(err, lane, addr, k2, space_name(sp), n, what);
            return NULL;
        }
        return m->local + (size_t)lane * m->local_stride + addr;
    case PTX_SP_PARAM:
        if (addr & EXEC_PARAM_THREAD)
            return resolve(m, PTX_SP_LOCAL, addr & ~EXEC_PARAM_THREAD, n,
                           lane, store, err);
        if (store || addr >= m->param_bytes || n > m->param_bytes - addr) {
            char k2[64];
            snprintf(k2, sizeof k2, "%s %s", store ? "read-only" : "out-of-bounds",
                     kind);
            fault(err, lane, addr, k2, space_name(sp), n, "kernel parameters");
            return NULL;
        }
        return (uint8_t *)(uintptr_t)(m->param + addr);
    default: {
        char k2[64];
        snprintf(k2, sizeof k2, "unsupported %s", kind);
        fault(err, lane, addr, k2, space_name(sp), n, NULL);
        return NULL;
    }
    }
}

uint8_t *exec_mem_host_sp(struct exec_memctx *m, unsigned space, uint64_t *addr,
                          unsigned n, unsigned lane, bool store, unsigned *sp,
                          struct exec_error *err)
{
    if (m->dmem && m->epoch != m->dmem->epoch) {   /* the device heap moved */
        m->last = NULL;
        m->epoch = m->dmem->epoch;
    }
    uint64_t a = *addr;
    if (space == PTX_SP_GENERIC)
        space = generic_resolve(&a);
    else if (space == PTX_SP_SHARED || space == PTX_SP_LOCAL)
        a = (uint32_t)a;
    *addr = a;
    *sp = space;
    return resolve(m, space, a, n, lane, store, err);
}

/* ---------------------------------------------------------------- ld/st */

static int do_ld(struct exec_warp *w, struct exec_memctx *m,
                 const struct ptx_inst *in, uint32_t act,
                 struct exec_result *res, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0], *a = &in->o[1];
    unsigned ebits = ptx_type_bits((enum ptx_type)in->type);
    unsigned esz = ebits / 8 ? ebits / 8 : 1;
    unsigned vec = in->vec ? in->vec : 1;
    unsigned n = esz * vec;
    bool sgn = ptx_type_is_signed((enum ptx_type)in->type);
    unsigned space = in->space == PTX_SP_TEX ? PTX_SP_GLOBAL : in->space;
    res->access_bytes = (uint8_t)n;
    res->is_store = false;
    res->space = (uint8_t)space;
    /* destination registers and their formats, once per instruction */
    unsigned nd = 0;
    int32_t dr[4];
    struct dst_fmt df[4];
    if (d->kind == PTX_O_VEC) {
        for (unsigned k = 0; k < d->vec_n && k < vec && k < 4; k++) {
            dr[k] = d->vec_regs[k];
            df[k] = dst_fmt_of(m->func, dr[k], ebits, sgn);
        }
        nd = d->vec_n < vec ? d->vec_n : vec;
    } else if (d->kind == PTX_O_REG) {
        dr[0] = d->reg;
        df[0] = dst_fmt_of(m->func, dr[0], ebits, sgn);
        nd = 1;
    }
    uint64_t *regs = w->regs;
    /* hot case: scalar 32/64-bit load through [reg+imm] from global,
     * const or shared memory; lanes that miss the fast path fall back */
    if (nd == 1 && dr[0] >= 0 && a->kind == PTX_O_MEM && a->reg >= 0 &&
        (esz == 4 || esz == 8) &&
        (space == PTX_SP_GLOBAL || space == PTX_SP_CONST || space == PTX_SP_SHARED)) {
        const uint64_t *base = &regs[(size_t)a->reg * EXEC_WARP];
        uint64_t *dst = &regs[(size_t)dr[0] * EXEC_WARP];
        uint64_t imm = (uint64_t)a->imm;
        uint64_t wrap = space == PTX_SP_SHARED ? 0xffffffffull : ~0ull;
        struct dst_fmt f0 = df[0];
        EXEC_FOR_EACH_LANE(act, lane, {
            uint64_t addr = (base[lane] + imm) & wrap;
            res->addr[lane] = addr;
            const uint8_t *p = fast_ptr(m, space, addr, esz);
            if (!p && !(p = resolve(m, space, addr, n, lane, false, err)))
                return -1;
            uint64_t v;
            if (esz == 4) {
                uint32_t x;
                memcpy(&x, p, 4);
                v = x;
            } else {
                memcpy(&v, p, 8);
            }
            dst[lane] = dst_apply(f0, v);
        });
        return 0;
    }
    EXEC_FOR_EACH_LANE(act, lane, {
        uint64_t addr;
        unsigned sp = lane_space_addr(w, a, space, lane, &addr, res);
        res->addr[lane] = addr;
        const uint8_t *p = fast_ptr(m, sp, addr, n);
        if (!p && !(p = resolve(m, sp, addr, n, lane, false, err)))
            return -1;
        for (unsigned k = 0; k < nd; k++)
            if (dr[k] >= 0)
                regs[(size_t)dr[k] * EXEC_WARP + lane] =
                    dst_apply(df[k], mem_load(p + k * esz, esz));
    });
    return 0;
}

static int do_st(struct exec_warp *w, struct exec_memctx *m,
                 const struct ptx_inst *in, uint32_t act,
                 struct exec_result *res, struct exec_error *err)
{
    const struct ptx_operand *a = &in->o[0], *v = &in->o[1];
    unsigned ebits = ptx_type_bits((enum ptx_type)in->type);
    unsigned esz = ebits / 8 ? ebits / 8 : 1;
    unsigned vec = in->vec ? in->vec : 1;
    unsigned n = esz * vec;
    res->access_bytes = (uint8_t)n;
    res->is_store = true;
    res->space = in->space;
    EXEC_FOR_EACH_LANE(act, lane, {
        uint64_t addr;
        unsigned sp = lane_space_addr(w, a, in->space, lane, &addr, res);
        res->addr[lane] = addr;
        uint8_t *p = sp == PTX_SP_PARAM ? NULL : fast_ptr(m, sp, addr, n);
        if (!p && !(p = resolve(m, sp, addr, n, lane, true, err)))
            return -1;
        if (v->kind == PTX_O_VEC) {
            for (unsigned k = 0; k < v->vec_n && k < vec; k++) {
                uint64_t x = v->vec_regs[k] >= 0 ? reg_of(w, v->vec_regs[k], lane) : 0;
                mem_store(p + k * esz, x, esz);
            }
        } else {
            mem_store(p, src_of(w, v, lane), esz);
        }
    });
    return 0;
}

/* ---------------------------------------------------------------- atoms */

/* New memory value of an atomic op (old, b, c) of type t, or -1 in *bad. */
static uint64_t atom_apply(unsigned sub, enum ptx_type t, unsigned bits,
                           uint64_t old, uint64_t b, uint64_t c, bool *bad)
{
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    old &= mask;
    b &= mask;
    c &= mask;
    bool fl = ptx_type_is_float(t), sg = ptx_type_is_signed(t);
    if (sub == PTX_SUB_ADD && (t == PTX_T_F16 || t == PTX_T_F16X2 ||
                               t == PTX_T_BF16 || t == PTX_T_BF16X2)) {
        /* .add.noftz: each 16-bit half rounded to nearest even, subnormal
         * inputs and results kept (the PTX ISA's atom) */
        bool bf = t == PTX_T_BF16 || t == PTX_T_BF16X2;
        uint64_t r = 0;
        for (unsigned h = 0; h < bits; h += 16) {
            uint16_t x = (uint16_t)(old >> h), y = (uint16_t)(b >> h);
            uint16_t s = bf ? exec_fr_add_bf16(x, y, EXEC_FR_RN)
                            : exec_fr_add16(x, y, EXEC_FR_RN);
            r |= (uint64_t)s << h;
        }
        return r;
    }
    switch (sub) {
    case PTX_SUB_AND:  return old & b;
    case PTX_SUB_OR:   return old | b;
    case PTX_SUB_XOR:  return old ^ b;
    case PTX_SUB_EXCH: return b;
    case PTX_SUB_CAS:  return old == b ? c : old;
    case PTX_SUB_INC:  return old >= b ? 0 : (old + 1) & mask;
    case PTX_SUB_DEC:  return (old == 0 || old > b) ? b : old - 1;
    case PTX_SUB_ADD:
        if (fl && bits == 32)
            return exec_f32_bits(exec_f32(old) + exec_f32(b));
        if (fl && bits == 64)
            return exec_f64_bits(exec_f64(old) + exec_f64(b));
        return (old + b) & mask;
    case PTX_SUB_MIN:
    case PTX_SUB_MAX: {
        bool lt;
        if (fl && bits == 32)
            lt = exec_f32(b) < exec_f32(old);
        else if (fl)
            lt = exec_f64(b) < exec_f64(old);
        else if (sg)
            lt = exec_sext(b, bits) < exec_sext(old, bits);
        else
            lt = b < old;
        if (sub == PTX_SUB_MIN)
            return lt ? b : old;
        bool gt;
        if (fl && bits == 32)
            gt = exec_f32(b) > exec_f32(old);
        else if (fl)
            gt = exec_f64(b) > exec_f64(old);
        else if (sg)
            gt = exec_sext(b, bits) > exec_sext(old, bits);
        else
            gt = b > old;
        return gt ? b : old;
    }
    default:
        *bad = true;
        return old;
    }
}

static int do_atom(struct exec_warp *w, struct exec_memctx *m,
                   const struct ptx_inst *in, uint32_t act, bool has_dst,
                   struct exec_result *res, struct exec_error *err)
{
    const struct ptx_operand *a = has_dst ? &in->o[1] : &in->o[0];
    const struct ptx_operand *bo = has_dst ? &in->o[2] : &in->o[1];
    const struct ptx_operand *co = has_dst ? &in->o[3] : NULL;
    enum ptx_type t = (enum ptx_type)in->type;
    unsigned bits = ptx_type_bits(t);
    bool half = t == PTX_T_F16 || t == PTX_T_F16X2 || t == PTX_T_BF16 ||
                t == PTX_T_BF16X2;
    bool cas16 = bits == 16 && in->sub == PTX_SUB_CAS && !ptx_type_is_float(t);
    if (!(bits == 32 || bits == 64 || cas16 || half) ||
        (half && in->sub != PTX_SUB_ADD)) {
        err->lane = -1;
        err->addr = 0;
        snprintf(err->msg, sizeof err->msg,
                 "%s.%s: the atomics modelled are 32- and 64-bit integer/f32/f64, "
                 "cas.b16 and add.noftz on f16/f16x2/bf16/bf16x2",
                 ptx_op_name((enum ptx_op)in->op), ptx_type_name(t));
        return -1;
    }
    unsigned n = bits / 8;
    res->access_bytes = (uint8_t)n;
    res->is_store = true;
    res->space = in->space;
    EXEC_FOR_EACH_LANE(act, lane, {
        uint64_t addr;
        unsigned sp = lane_space_addr(w, a, in->space, lane, &addr, res);
        res->addr[lane] = addr;
        if (sp != PTX_SP_GLOBAL && sp != PTX_SP_SHARED) {
            fault(err, lane, addr, "atomic on %s memory (%u bytes)",
                  space_name(sp), n, "only global and shared are atomic");
            return -1;
        }
        uint8_t *p = resolve(m, sp, addr, n, lane, true, err);
        if (!p)
            return -1;
        uint64_t old = mem_load(p, n);
        uint64_t b = src_of(w, bo, lane);
        uint64_t c = (co && co->kind != PTX_O_NONE) ? src_of(w, co, lane) : 0;
        bool bad = false;
        uint64_t nv = atom_apply(in->sub, t, bits, old, b, c, &bad);
        if (bad) {
            err->lane = (int)lane;
            err->addr = addr;
            snprintf(err->msg, sizeof err->msg,
                     "%s: unsupported atomic operation",
                     ptx_op_name((enum ptx_op)in->op));
            return -1;
        }
        mem_store(p, nv, n);
        if (has_dst && in->o[0].kind == PTX_O_REG)
            write_loaded(w, m->func, in->o[0].reg, lane, old, bits, false);
    });
    return 0;
}

/* ---------------------------------------------------------------- cvta */

static int do_cvta(struct exec_warp *w, const struct ptx_inst *in,
                   uint32_t act, struct exec_error *err)
{
    const struct ptx_operand *d = &in->o[0], *a = &in->o[1];
    unsigned bits = ptx_type_bits((enum ptx_type)in->type);
    uint64_t tmask = bits >= 64 || bits == 0 ? ~0ull : (1ull << bits) - 1;
    uint64_t win;
    switch (in->space) {
    case PTX_SP_SHARED: win = EXEC_SHARED_WINDOW; break;
    case PTX_SP_LOCAL:  win = EXEC_LOCAL_WINDOW; break;
    case PTX_SP_PARAM:  win = EXEC_PARAM_WINDOW; break;
    case PTX_SP_GLOBAL: case PTX_SP_CONST: win = 0; break;
    default:
        err->lane = -1;
        err->addr = 0;
        snprintf(err->msg, sizeof err->msg, "cvta: unsupported state space");
        return -1;
    }
    if (d->kind != PTX_O_REG) {
        err->lane = -1;
        err->addr = 0;
        snprintf(err->msg, sizeof err->msg, "cvta: destination is not a register");
        return -1;
    }
    bool to = (in->flags & PTX_F_TO) != 0;
    EXEC_FOR_EACH_LANE(act, lane, {
        uint64_t v;
        if (a->kind == PTX_O_REG)
            v = reg_of(w, a->reg, lane);
        else if (a->kind == PTX_O_SYM)
            v = w->sym_addr[a->sym.scope ? 1 : 0][a->sym.index] + (uint64_t)a->imm;
        else
            v = exec_read(w, a, PTX_T_U64, lane);
        v = to ? v - win : v + win;
        w->regs[(size_t)d->reg * EXEC_WARP + lane] = v & tmask;
    });
    return 0;
}

/* ---------------------------------------------------------------- entry */

int exec_mem(struct exec_warp *w, struct exec_memctx *m,
             const struct ptx_inst *in, uint32_t mask,
             struct exec_result *res, struct exec_error *err)
{
    uint32_t act = exec_guard_mask(w, in, mask);
    if (m->dmem && m->epoch != m->dmem->epoch) {
        m->last = NULL;         /* the table changed (device malloc/free) */
        m->epoch = m->dmem->epoch;
    }
    res->active = act;
    res->taken = 0;
    res->access_bytes = 0;
    res->is_store = false;
    res->space = in->space;
    res->gen_shared = res->gen_local = 0;
    res->nxaddr = 0;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_LD:
    case PTX_OP_LDU:
        return act ? do_ld(w, m, in, act, res, err) : 0;
    case PTX_OP_ST:
        return act ? do_st(w, m, in, act, res, err) : 0;
    case PTX_OP_ATOM:
        return act ? do_atom(w, m, in, act, true, res, err) : 0;
    case PTX_OP_RED:
        return act ? do_atom(w, m, in, act, false, res, err) : 0;
    case PTX_OP_TEX: case PTX_OP_TLD4: case PTX_OP_TXQ: case PTX_OP_SUQ:
    case PTX_OP_SULD: case PTX_OP_SUST:
        return act ? exec_tex_op(w, m, in, act, res, err) : 0;
    case PTX_OP_CVTA:
        return do_cvta(w, in, act, err);
    default:
        err->lane = -1;
        err->addr = 0;
        snprintf(err->msg, sizeof err->msg, "%s is not a memory instruction",
                 ptx_op_name((enum ptx_op)in->op));
        return -1;
    }
}

uint8_t *exec_mem_host(struct exec_memctx *m, unsigned sp, uint64_t addr,
                       unsigned n, unsigned lane, bool store,
                       struct exec_error *err)
{
    if (m->dmem && m->epoch != m->dmem->epoch) {
        m->last = NULL;
        m->epoch = m->dmem->epoch;
    }
    if (sp == PTX_SP_GENERIC)
        sp = generic_resolve(&addr);
    return resolve(m, sp, addr, n ? n : 1, lane, store, err);
}
