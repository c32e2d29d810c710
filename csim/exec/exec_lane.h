/* Internal helpers of the ALU/SFU exec units (csim/exec/exec_*.c): operand
 * sources decoded once per instruction, type widths, float bit casts, and
 * the entry points exec_alu() dispatches to. Not part of the exec contract
 * (exec.h); only csim/exec includes this. */
#ifndef EXEC_LANE_H
#define EXEC_LANE_H

#include <stdint.h>
#include <string.h>
#include "exec/exec.h"

/* Width in bits of a PTX type as exec uses it (pred 1, none 64). */
static inline unsigned exec_tbits(unsigned t)
{
    switch (t) {
    case PTX_T_PRED: return 1;
    case PTX_T_B8: case PTX_T_U8: case PTX_T_S8: return 8;
    case PTX_T_B16: case PTX_T_U16: case PTX_T_S16: case PTX_T_F16: return 16;
    case PTX_T_B32: case PTX_T_U32: case PTX_T_S32: case PTX_T_F32:
    case PTX_T_F16X2: return 32;
    default: return 64;
    }
}

/* All-ones mask of a type's width (pred: 1). */
static inline uint64_t exec_tmask(unsigned t)
{
    unsigned b = exec_tbits(t);
    return b >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << b) - 1);
}

static inline int exec_tsigned(unsigned t)
{
    return t == PTX_T_S8 || t == PTX_T_S16 || t == PTX_T_S32 || t == PTX_T_S64;
}

static inline int exec_tfloat(unsigned t)
{
    return t == PTX_T_F16 || t == PTX_T_F32 || t == PTX_T_F64 ||
           t == PTX_T_F16X2;
}

/* Sign-extends the low `bits` bits of v to 64 bits. */
static inline int64_t exec_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64) return (int64_t)v;
    unsigned s = 64 - bits;
    return (int64_t)(v << s) >> s;
}

static inline float exec_f32(uint64_t bits)
{
    uint32_t u = (uint32_t)bits;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t exec_f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline double exec_f64(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static inline uint64_t exec_f64_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#define EXEC_NAN32 0x7fffffffu                 /* PTX canonical f32 NaN */
#define EXEC_NAN64 0x7fffffffffffffffull       /* canonical f64 NaN     */

/* A source operand decoded once per instruction: lane l's value is
 * EXEC_SRC(s, l) = ((p[l & m]) ^ x) & k (registers: m = 31; immediates,
 * symbols: m = 0; special registers: buf filled for the active lanes). */
struct exec_src {
    const uint64_t *p;
    uint32_t m;
    uint64_t x, k;
    uint64_t buf[EXEC_WARP];
};
#define EXEC_SRC(s, l) ((((s)->p[(l) & (s)->m]) ^ (s)->x) & (s)->k)

/* Decodes source o read as type t for the lanes of mask; returns 0, or -1
 * with err filled (register out of range, unsupported operand kind). */
int exec_src_init_any(struct exec_src *s, const struct exec_warp *w,
                      const struct ptx_inst *in, const struct ptx_operand *o,
                      unsigned t, uint32_t mask, struct exec_error *err);

/* exec_src_init_any with the register case inlined (the common one). */
static inline int exec_src_init(struct exec_src *s, const struct exec_warp *w,
                                const struct ptx_inst *in,
                                const struct ptx_operand *o, unsigned t,
                                uint32_t mask, struct exec_error *err)
{
    if (o->kind == PTX_O_REG && o->reg >= 0 && (uint32_t)o->reg < w->nregs) {
        s->p = w->regs + (size_t)o->reg * EXEC_WARP;
        s->m = EXEC_WARP - 1;
        s->k = exec_tmask(t);
        s->x = (t == PTX_T_PRED && o->neg) ? 1 : 0;
        return 0;
    }
    return exec_src_init_any(s, w, in, o, t, mask, err);
}

/* Base of destination register o's lane array (regs + reg * EXEC_WARP), or
 * NULL with err filled when o is not a valid register. */
uint64_t *exec_dst(struct exec_warp *w, const struct ptx_inst *in,
                   const struct ptx_operand *o, struct exec_error *err);
/* Fills err with "line:col: <op>: what" for in and returns -1. */
int exec_fail(struct exec_error *err, const struct ptx_inst *in,
              const char *what);

/* Group entry points exec_alu() dispatches to; each runs in for the lanes
 * of m (guard already applied) and returns 0, or -1 with err filled. */
/* Integer arithmetic (add..sad, div, rem, abs, neg, min, max on int types). */
int exec_int_arith(struct exec_warp *w, const struct ptx_inst *in,
                   uint32_t m, struct exec_error *err);
/* Bit operations: and or xor not cnot shl shr popc clz brev bfe bfi prmt. */
int exec_int_bits(struct exec_warp *w, const struct ptx_inst *in,
                  uint32_t m, struct exec_error *err);
/* bfind bmsk fns lop3 shf dp4a dp2a. */
int exec_int_misc(struct exec_warp *w, const struct ptx_inst *in,
                  uint32_t m, struct exec_error *err);
/* Video instructions: scalar vadd..vset, SIMD vadd2..vset2, vadd4..vset4. */
int exec_video(struct exec_warp *w, const struct ptx_inst *in,
               uint32_t m, struct exec_error *err);
/* Float arithmetic (f32/f64): add sub mul mad fma div abs neg min max
 * copysign testp; scalar f16 add sub mul mad fma abs neg min max. */
int exec_float_arith(struct exec_warp *w, const struct ptx_inst *in,
                     uint32_t m, struct exec_error *err);
/* SFU: sqrt rsqrt rcp ex2 lg2 sin cos tanh. */
int exec_sfu(struct exec_warp *w, const struct ptx_inst *in,
             uint32_t m, struct exec_error *err);
/* Comparisons and selects: setp set selp slct (int, f16, f32, f64). */
int exec_cmp(struct exec_warp *w, const struct ptx_inst *in,
             uint32_t m, struct exec_error *err);
/* cvt: every int/float pair with rounding and .sat, f16 <-> f32/f64. */
int exec_cvt(struct exec_warp *w, const struct ptx_inst *in,
             uint32_t m, struct exec_error *err);
/* mov: register, immediate, special register, symbol address, vector
 * pack {lo,hi} -> d and unpack d -> {lo,hi}. */
int exec_mov(struct exec_warp *w, const struct ptx_inst *in,
             uint32_t m, struct exec_error *err);

#endif
