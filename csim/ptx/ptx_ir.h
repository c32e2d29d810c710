/* PTX intermediate representation: what csim/ptx produces and csim/exec
 * consumes. Registers are resolved to dense per-function indices (nested
 * scopes flattened, shadowing resolved), labels to instruction indices, and
 * symbols to indices into the function's or module's symbol table.
 *
 * ---- Operand layout per opcode (o[i] of struct ptx_inst; see also
 * docs/ptx-frontend.md). General rule: operands in PTX textual order, o[0]
 * is the destination when the op has one; unused slots are PTX_O_NONE and
 * nopnd counts the slots used (including NONE holes such as setp's q).
 *   add sub mul mul24 div rem min max copysign and or xor shl shr
 *   addc subc:                       o[0]=d, o[1]=a, o[2]=b
 *   mad mad24 madc fma sad bfe prmt: o[0]=d, o[1]=a, o[2]=b, o[3]=c
 *   bfi:     o[0]=d, o[1]=a, o[2]=b, o[3]=c (pos), o[4]=d (len)
 *   abs neg not cnot popc clz brev sqrt rsqrt rcp ex2 lg2 sin cos tanh:
 *            o[0]=d, o[1]=a
 *   testp:   o[0]=p, o[1]=a; sub = class (PTX_SUB_FINITE...)
 *   setp:    o[0]=p, o[1]=q or NONE, o[2]=a, o[3]=b, o[4]=c bool-op pred
 *            (only when sub = AND/OR/XOR; c may carry neg); type = type2 =
 *            the operand type
 *   set:     o[0]=d, o[1]=a, o[2]=b, o[3]=c or NONE; type = d type,
 *            type2 = operand type
 *   selp:    o[0]=d, o[1]=a, o[2]=b, o[3]=c (predicate, may carry neg)
 *   slct:    o[0]=d, o[1]=a, o[2]=b, o[3]=c; type = d type, type2 = c type
 *   cvt:     o[0]=d, o[1]=a; type = dest type, type2 = source type
 *   cvta:    o[0]=d, o[1]=a (REG or SYM); space = the named space;
 *            PTX_F_TO for cvta.to.<space> (generic -> space)
 *   mov:     o[0]=d (REG, or VEC for unpack {lo,hi}), o[1]=a (REG, IMM,
 *            SREG, SYM = address of a symbol, or VEC for pack)
 *   ld ldu:  o[0]=d (REG, or VEC when vec>1), o[1]=MEM; space, vec set
 *   st:      o[0]=MEM address, o[1]=value (REG/IMM, or VEC when vec>1)
 *   atom:    o[0]=d, o[1]=MEM, o[2]=b, o[3]=c (cas only, else NONE);
 *            sub = operation, space = GENERIC/GLOBAL/SHARED
 *   red:     o[0]=MEM, o[1]=b; sub = operation
 *   tex:     o[0]=VEC dest (4 regs), o[1]=MEM (base REG = bindless handle
 *            or SYM = .texref), o[2]=VEC coordinates (vec_n = 1, 2, 4);
 *            o[3]=lod (.level) or VEC dPdx (.grad), o[4]=VEC dPdy (.grad),
 *            o[5]=MEM sampler ([tex, sampler, {c}]) or NONE;
 *            geom = geometry, tmode = base/level/grad, type = dest type,
 *            type2 = coordinate type
 *   tld4:    as tex (no .level/.grad); tq = component (0 r .. 3 a)
 *   txq:     o[0]=d, o[1]=MEM (texture); o[2]=lod (txq.level); tq = query
 *   suq:     o[0]=d, o[1]=MEM (surface); tq = query
 *   suld:    o[0]=d (REG, or VEC when vec>1), o[1]=MEM (surface),
 *            o[2]=VEC coordinates; geom, tmode = enum ptx_suclamp
 *   sust:    o[0]=MEM (surface), o[1]=value (REG or VEC), o[2]=VEC
 *            coordinates; geom, tmode = enum ptx_suclamp, tq = 1 for .p
 *   bra:     o[0]=LABEL (instruction index, may be ninsts); reconv filled
 *            by the CFG pass; PTX_F_UNI for bra.uni
 *   brx:     brx.idx: o[0]=index (REG/IMM, u32), o[1]=TLIST (the
 *            .branchtargets list); reconv filled by the CFG pass
 *   call:    o[0]=FUNC, or REG (indirect call through a function address,
 *            with a .callprototype), o[1]=return param (SYM, a .param
 *            symbol of the caller, e.g. retval0) or NONE, o[2..7]=argument
 *            params (SYM); with more than 6 arguments o[2] is ARGS and
 *            the arguments are in ptx_func.cargs (ptx_call_arg reads
 *            both forms); PTX_F_UNI
 *   ret exit membar fence:           no operands
 *   bar barrier (sync/arrive; sub = SYNC/ARRIVE): o[0]=barrier id,
 *            o[1]=thread count or NONE
 *   bar.warp.sync (sub = WARP_SYNC):  o[0]=membermask
 *   shfl:    o[0]=d, o[1]=p (REG when PTX_F_SHFL_P, else NONE), o[2]=a,
 *            o[3]=b (lane/delta), o[4]=c (clamp/segmask), o[5]=membermask;
 *            sub = UP/DOWN/BFLY/IDX
 *   vote:    o[0]=d, o[1]=a (predicate, may carry neg), o[2]=membermask;
 *            sub = ALL/ANY/UNI/BALLOT
 *   activemask: o[0]=d
 *   bar.red (sub = RED_POPC/RED_AND/RED_OR): o[0]=d, o[1]=barrier id,
 *            o[2]=thread count or NONE, o[3]=c predicate (may carry neg)
 *   bfind:   o[0]=d (u32), o[1]=a; PTX_F_SHIFTAMT
 *   bmsk:    o[0]=d, o[1]=a (pos), o[2]=b (width); mode = CLAMP/WRAP
 *   fns:     o[0]=d, o[1]=mask, o[2]=base (u32), o[3]=offset (s32)
 *   lop3:    o[0]=d, o[1]=a, o[2]=b, o[3]=c, o[4]=immLut (IMM)
 *   shf:     o[0]=d, o[1]=a, o[2]=b, o[3]=c (shift); sub = SHF_L/SHF_R,
 *            mode = CLAMP/WRAP
 *   dp4a dp2a: o[0]=d, o[1]=a, o[2]=b, o[3]=c; type = a's type, type2 =
 *            b's type; dp2a .lo/.hi in PTX_F_LO/PTX_F_HI
 *   prmt:    mode = NONE (selector nibbles) or F4E..RC16 (c[1:0])
 *   vadd vsub vabsdiff vmin vmax vshl vshr vset (scalar video):
 *            o[0]=d (sel = dsel), o[1]=a (sel = asel), o[2]=b (sel =
 *            bsel), o[3]=c or NONE; sub = op2 (ADD/MIN/MAX) or NONE;
 *            type/type2/type3 = d/a/b types (vset: type/type2 = a/b);
 *            vshl/vshr: mode = CLAMP/WRAP
 *   vmad:    o[0]=d, o[1]=a, o[2]=b, o[3]=c; neg on o[1..3] = '-' prefix;
 *            mode = SHR7/SHR15 or NONE; PTX_F_PO
 *   vadd2 ... vset2, vadd4 ... vset4 (SIMD video): o[0]=d (sel = mask),
 *            o[1]=a (asel), o[2]=b (bsel), o[3]=c; sub = ADD for .add
 *   nanosleep: o[0]=t (u32)
 *   match:   o[0]=d, o[1]=p (REG for match.all d|p, else NONE), o[2]=a,
 *            o[3]=membermask; sub = ANY/ALL
 *   cvt.f16x2.f32: o[0]=d, o[1]=a (upper half), o[2]=b (lower half)
 *   wmma.load, wmma.store, wmma.mma, mma (csim/ptx/ptx_mma.c): a fragment
 *            {r0, ..., r7} of up to 8 registers takes two VEC slots, the
 *            first with registers 0..3 and the second with 4..7 (NONE
 *            when the fragment has 4 or fewer); geom = enum ptx_mma_shape,
 *            tq = layouts (PTX_MMA_ACOL | PTX_MMA_BCOL; load/store: ACOL
 *            = .col), tmode = enum ptx_mma_frag (load/store); the types
 *            are enum ptx_mma_type (not ptx_type): type = d (load/store:
 *            the element) type, type2/type3 = a/b types, mtype = c type;
 *            PTX_F_SAT = .satfinite, sub = XOR for .xor.popc
 *   wmma.load:  o[0..1]=fragment, o[2]=MEM, o[3]=stride or NONE; space
 *   wmma.store: o[0]=MEM, o[1..2]=fragment, o[3]=stride or NONE; space
 *   wmma.mma mma: o[0..1]=d, o[2..3]=a, o[4..5]=b, o[6..7]=c
 * Types: `type` is the instruction's (last) type suffix; for mul/mad .wide
 * it is the SOURCE type (d is twice as wide), for .hi/.lo it is the
 * operand type. Immediates are raw bits: in an f32 slot the 32-bit IEEE
 * pattern, in an f64 slot the 64-bit pattern (an integer literal in a float
 * slot is converted to that float), integers sign-extended to 64 bits.
 * Shift amounts, bfe/bfi positions, selp/setp predicates are integer slots.
 * Symbols: func->syms starts with the function's .param entries (indices
 * 0..nparams-1, space PARAM, offset = param buffer offset), then the .func
 * return params (nparams..nparams+nrets-1), then shared/local/param
 * variables declared in the body. A MEM operand names its base with
 * reg >= 0 or sym.index >= 0 (never both) and imm = byte offset.
 * Segments: static .shared offsets are within shared_bytes (module-scope
 * .shared/.local used by a function are imported into its syms); every
 * .extern .shared symbol has is_extern, size 0 and the same offset
 * (shared_bytes rounded up to 16); .local and body .param variables are
 * laid out in the thread's local segment (local_bytes covers both). */
#ifndef PTX_IR_H
#define PTX_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- opcodes: one enum row per line of ptx_ops.def ---- */
enum ptx_unit { PTX_UNIT_ALU, PTX_UNIT_SFU, PTX_UNIT_MEM, PTX_UNIT_CTRL, PTX_UNIT_SYNC,
                PTX_UNIT_TENSOR };

enum ptx_op {
#define PTX_OP(id, name, unit, comment) PTX_OP_##id,
#include "ptx/ptx_ops.def"
#undef PTX_OP
    PTX_OP_COUNT
};

/* Name ("add") and unit class of an opcode. */
/* How many leading operands of in are destinations: 0 for st, red,
 * wmma.store, branches, calls, returns, barriers and fences; 2 for setp
 * (p|q), shfl (value, predicate) and wmma.load/wmma.mma/mma (a fragment's
 * two VEC slots); 1 otherwise. */
struct ptx_inst;
unsigned ptx_inst_ndst(const struct ptx_inst *in);
/* The registers a value operand names into rr: PTX_O_REG its register,
 * PTX_O_VEC its elements (at most 4), other kinds none. Returns how many
 * (a register may be -1: a `_` sink). */
struct ptx_operand;
unsigned ptx_opnd_regs(const struct ptx_operand *o, int32_t rr[4]);
const char *ptx_op_name(enum ptx_op op);
enum ptx_unit ptx_op_unit(enum ptx_op op);

/* ---- scalar types ---- */
enum ptx_type {
    PTX_T_NONE = 0,
    PTX_T_PRED,
    PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64,
    PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
    PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
    PTX_T_F16, PTX_T_F32, PTX_T_F64,
    PTX_T_F16X2,       /* two f16 in 32 bits: lane 0 = bits 0..15 */
    PTX_T_BF16,        /* bfloat16 (the upper half of an f32): atom/red only */
    PTX_T_BF16X2,      /* two bf16 in 32 bits, lane 0 = bits 0..15: atom/red only */
    PTX_T_COUNT
};
/* Width in bits (pred: 1), signedness and float-ness of a type. */
unsigned ptx_type_bits(enum ptx_type t);
bool ptx_type_is_signed(enum ptx_type t);
bool ptx_type_is_float(enum ptx_type t);
const char *ptx_type_name(enum ptx_type t);

/* ---- state spaces ---- */
enum ptx_space {
    PTX_SP_GENERIC = 0, PTX_SP_REG, PTX_SP_GLOBAL, PTX_SP_SHARED,
    PTX_SP_LOCAL, PTX_SP_PARAM, PTX_SP_CONST, PTX_SP_TEX
};

/* ---- modifiers ---- */
enum ptx_cmp {       /* setp/set comparison */
    PTX_CMP_NONE = 0, PTX_CMP_EQ, PTX_CMP_NE, PTX_CMP_LT, PTX_CMP_LE,
    PTX_CMP_GT, PTX_CMP_GE, PTX_CMP_LO, PTX_CMP_LS, PTX_CMP_HI, PTX_CMP_HS,
    PTX_CMP_EQU, PTX_CMP_NEU, PTX_CMP_LTU, PTX_CMP_LEU, PTX_CMP_GTU,
    PTX_CMP_GEU, PTX_CMP_NUM, PTX_CMP_NAN
};
enum ptx_rnd {       /* rounding: float (.rn...) and float->int (.rni...) */
    PTX_RND_NONE = 0, PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP,
    PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI
};
/* Sub-operation, interpreted per opcode:
 *  setp: bool-op with the c predicate; atom/red: the operation;
 *  shfl: mode; vote: mode; bar: sync/arrive/red; testp: class.
 *  (PTX_SUB_1D..3D are unused: texture geometry is ptx_inst.geom.) */
enum ptx_sub {
    PTX_SUB_NONE = 0,
    PTX_SUB_AND, PTX_SUB_OR, PTX_SUB_XOR,                 /* setp, atom, red */
    PTX_SUB_ADD, PTX_SUB_MIN, PTX_SUB_MAX, PTX_SUB_INC, PTX_SUB_DEC,
    PTX_SUB_EXCH, PTX_SUB_CAS,                            /* atom, red       */
    PTX_SUB_UP, PTX_SUB_DOWN, PTX_SUB_BFLY, PTX_SUB_IDX,  /* shfl            */
    PTX_SUB_ALL, PTX_SUB_ANY, PTX_SUB_UNI, PTX_SUB_BALLOT,/* vote            */
    PTX_SUB_SYNC, PTX_SUB_ARRIVE, PTX_SUB_RED_POPC,       /* bar             */
    PTX_SUB_WARP_SYNC,                                    /* bar.warp.sync   */
    PTX_SUB_1D, PTX_SUB_2D, PTX_SUB_3D,                   /* tex             */
    PTX_SUB_FINITE, PTX_SUB_INFINITE, PTX_SUB_NUMBER,
    PTX_SUB_NOTANUMBER, PTX_SUB_NORMAL, PTX_SUB_SUBNORMAL,/* testp           */
    PTX_SUB_RED_AND, PTX_SUB_RED_OR,                      /* bar.red         */
    PTX_SUB_SHF_L, PTX_SUB_SHF_R                          /* shf direction   */
};
/* Per-opcode mode (struct ptx_inst.mode): prmt byte-select modes,
 * .clamp/.wrap of bmsk, shf, vshl, vshr, and the vmad scale. */
enum ptx_mode {
    PTX_MODE_NONE = 0,
    PTX_MODE_F4E, PTX_MODE_B4E, PTX_MODE_RC8, PTX_MODE_ECL, PTX_MODE_ECR,
    PTX_MODE_RC16,                                        /* prmt            */
    PTX_MODE_CLAMP, PTX_MODE_WRAP,                        /* bmsk shf vshl vshr */
    PTX_MODE_SHR7, PTX_MODE_SHR15                         /* vmad scale      */
};
/* Texture and surface instructions (struct ptx_inst geom, tmode, tq). */
enum ptx_geom {
    PTX_GEOM_NONE = 0, PTX_GEOM_1D, PTX_GEOM_2D, PTX_GEOM_3D, PTX_GEOM_A1D,
    PTX_GEOM_A2D, PTX_GEOM_CUBE, PTX_GEOM_ACUBE, PTX_GEOM_2DMS, PTX_GEOM_A2DMS
};
enum ptx_tmode { PTX_TM_BASE = 0, PTX_TM_LEVEL, PTX_TM_GRAD };   /* tex, txq */
/* Tensor-core instructions (struct ptx_inst geom, tmode, tq). */
enum ptx_mma_shape {
    PTX_MMA_NONE = 0, PTX_MMA_M16N16K16, PTX_MMA_M32N8K16, PTX_MMA_M8N32K16,
    PTX_MMA_M8N8K32, PTX_MMA_M8N8K128, PTX_MMA_M16N8K8, PTX_MMA_M8N8K16
};
enum ptx_mma_frag { PTX_FRAG_A = 0, PTX_FRAG_B, PTX_FRAG_C, PTX_FRAG_D };
enum ptx_mma_type {
    PTX_MT_NONE = 0, PTX_MT_F16, PTX_MT_F32, PTX_MT_S32, PTX_MT_S8, PTX_MT_U8,
    PTX_MT_S4, PTX_MT_U4, PTX_MT_B1
};
#define PTX_MMA_ACOL 1u           /* a (load/store: the matrix) is .col    */
#define PTX_MMA_BCOL 2u           /* b is .col                              */
enum ptx_suclamp { PTX_SU_TRAP = 0, PTX_SU_CLAMP, PTX_SU_ZERO };  /* suld, sust */
enum ptx_tquery {    /* txq, suq */
    PTX_TQ_NONE = 0, PTX_TQ_WIDTH, PTX_TQ_HEIGHT, PTX_TQ_DEPTH,
    PTX_TQ_CHANNEL_DATA_TYPE, PTX_TQ_CHANNEL_ORDER, PTX_TQ_NORMALIZED_COORDS,
    PTX_TQ_ARRAY_SIZE, PTX_TQ_NUM_MIPMAP_LEVELS, PTX_TQ_NUM_SAMPLES,
    PTX_TQ_FORCE_UNNORMALIZED_COORDS, PTX_TQ_FILTER_MODE, PTX_TQ_ADDR_MODE_0,
    PTX_TQ_ADDR_MODE_1, PTX_TQ_ADDR_MODE_2, PTX_TQ_MEMORY_LAYOUT
};
#define PTX_VEC_ZERO (-2)   /* a vector element that is the literal 0 */
/* Flag bits of struct ptx_inst.flags. */
#define PTX_F_HI       (1u << 0)   /* .hi  */
#define PTX_F_LO       (1u << 1)   /* .lo  */
#define PTX_F_WIDE     (1u << 2)   /* .wide */
#define PTX_F_SAT      (1u << 3)   /* .sat */
#define PTX_F_FTZ      (1u << 4)   /* .ftz */
#define PTX_F_APPROX   (1u << 5)   /* .approx (and .full) */
#define PTX_F_CC       (1u << 6)   /* .cc: writes the carry flag */
#define PTX_F_UNI      (1u << 7)   /* bra.uni / call.uni */
#define PTX_F_NC       (1u << 8)   /* ld.global.nc */
#define PTX_F_VOLATILE (1u << 9)   /* .volatile */
#define PTX_F_TO       (1u << 10)  /* cvta.to.<space> */
#define PTX_F_SHFL_P   (1u << 11)  /* shfl writes d|p */
#define PTX_F_ALIGNED  (1u << 12)  /* .aligned (barrier) */
#define PTX_F_PO       (1u << 13)  /* vmad .po (plus one)                  */
#define PTX_F_SHIFTAMT (1u << 14)  /* bfind .shiftamt                      */
#define PTX_F_NAN      (1u << 15)  /* min/max .NaN: a NaN input gives NaN   */

/* Video-instruction selectors (struct ptx_operand.sel), as written after a
 * register: `.b2`, `.h1` (scalar byte/half select), `.h10`/`.h32` (SIMD
 * half selects), `.b3210`/`.b7654` (SIMD byte selects), d masks `.h10`,
 * `.b20`. 0 = none (the instruction's default). Digits are stored as
 * written, the last one in bits 0..2: digit i (0 = rightmost) is
 * (sel >> 3i) & 7; the digit count is PTX_SEL_N(sel). */
#define PTX_SEL_B        0x4000u   /* .bNNNN                               */
#define PTX_SEL_H        0x8000u   /* .hNN                                 */
#define PTX_SEL_N(s)     ((((s) >> 12) & 3u) + 1u)
#define PTX_SEL_DIGIT(s, i) (((s) >> (3u * (i))) & 7u)

/* ---- operands ---- */
enum ptx_opnd_kind {
    PTX_O_NONE = 0,
    PTX_O_REG,     /* reg: index into ptx_func.regs                         */
    PTX_O_IMM,     /* imm: raw bits; an f32 literal holds its 32-bit pattern */
    PTX_O_SREG,    /* sreg: special register id, see enum ptx_sreg           */
    PTX_O_SYM,     /* sym: address of a symbol (mov r, sym) + imm offset     */
    PTX_O_MEM,     /* [base + imm]: base is reg (reg>=0) or sym (sym>=0)     */
    PTX_O_VEC,     /* {r0, r1, ...}: vec_regs[0..vec_n-1]; -1 = sink '_',
                      PTX_VEC_ZERO = a literal 0 (mov.b32 d, {0, %rs}: what
                      cuda_bf16.hpp widens a bf16 with)                    */
    PTX_O_LABEL,   /* branch target: label = instruction index               */
    PTX_O_FUNC,    /* call target / address of a function (mov, initialiser):
                      func = index in ptx_module.funcs                       */
    PTX_O_TLIST,   /* brx.idx target list: label = first entry in
                      ptx_func.tlist, imm = number of entries                */
    PTX_O_ARGS     /* call with more than 6 arguments, in o[2]: label = first
                      entry in ptx_func.cargs, imm = number of arguments     */
};
enum ptx_sreg {
    PTX_SR_TID_X, PTX_SR_TID_Y, PTX_SR_TID_Z,
    PTX_SR_NTID_X, PTX_SR_NTID_Y, PTX_SR_NTID_Z,
    PTX_SR_CTAID_X, PTX_SR_CTAID_Y, PTX_SR_CTAID_Z,
    PTX_SR_NCTAID_X, PTX_SR_NCTAID_Y, PTX_SR_NCTAID_Z,
    PTX_SR_LANEID, PTX_SR_WARPID, PTX_SR_NWARPID, PTX_SR_SMID, PTX_SR_NSMID,
    PTX_SR_LANEMASK_EQ, PTX_SR_LANEMASK_LT, PTX_SR_LANEMASK_LE,
    PTX_SR_LANEMASK_GT, PTX_SR_LANEMASK_GE,
    PTX_SR_CLOCK, PTX_SR_CLOCK64, PTX_SR_GRIDID,
    PTX_SR_GLOBALTIMER, PTX_SR_GLOBALTIMER_LO, PTX_SR_GLOBALTIMER_HI,
    PTX_SR_DYNAMIC_SMEM_SIZE, PTX_SR_TOTAL_SMEM_SIZE,
    PTX_SR_ENVREG0,                      /* %envreg0 .. %envreg31 follow */
    PTX_SR_COUNT = PTX_SR_ENVREG0 + 32
};
/* Name of a special register as written in PTX ("%tid.x"). */
const char *ptx_sreg_name(enum ptx_sreg r);
/* Special register id of a PTX name ("%ctaid.y"), or -1. */
int ptx_sreg_from_name(const char *s, size_t n);

/* A symbol reference: module scope (global/const/texref/func-visible) or
 * function scope (shared, local, param). */
struct ptx_symref {
    int16_t scope;   /* 0 = module symbol table, 1 = function symbol table */
    int32_t index;
};

struct ptx_operand {
    uint8_t kind;          /* enum ptx_opnd_kind */
    bool neg;              /* '!' prefix on a predicate source            */
    int32_t reg;           /* PTX_O_REG, PTX_O_MEM base; -1 if none       */
    struct ptx_symref sym; /* PTX_O_SYM, PTX_O_MEM (index -1 if none)     */
    int64_t imm;           /* PTX_O_IMM bits; PTX_O_MEM/PTX_O_SYM offset  */
    uint8_t sreg;          /* PTX_O_SREG */
    uint8_t vec_n;         /* PTX_O_VEC */
    uint16_t sel;          /* video selector (PTX_SEL_*), 0 = none        */
    int32_t vec_regs[4];   /* PTX_O_VEC */
    int32_t label;         /* PTX_O_LABEL: instruction index              */
    int32_t func;          /* PTX_O_FUNC */
};

#define PTX_MAX_OPNDS 8
#define PTX_MAX_FUNCS 65536u          /* kernels + functions per module    */
#define PTX_MAX_TEXT  (256u << 20)    /* bytes of PTX text per module      */

/* One instruction. Operand 0 is the destination where the op has one
 * (for st/red: operand 0 is the address, operand 1 the value). */
struct ptx_inst {
    uint8_t op;            /* enum ptx_op */
    uint8_t type;          /* main type (the last type suffix: d's type)  */
    uint8_t type2;         /* second type: cvt source, setp/set operands  */
    uint8_t space;         /* ld/st/atom/red/cvta state space             */
    uint8_t vec;           /* 1, 2 or 4 (.v2/.v4)                         */
    uint8_t cmp;           /* enum ptx_cmp                                */
    uint8_t rnd;           /* enum ptx_rnd                                */
    uint8_t sub;           /* enum ptx_sub                                */
    uint16_t flags;        /* PTX_F_*                                     */
    uint8_t nopnd;
    bool guard_neg;        /* @!p                                         */
    uint8_t mode;          /* enum ptx_mode                               */
    uint8_t type3;         /* third type suffix (video d.a.b: b's type)   */
    int32_t guard;         /* predicate register index, -1 = unguarded    */
    struct ptx_operand o[PTX_MAX_OPNDS];
    /* filled by the CFG pass for branches: immediate post-dominator, the
     * reconvergence PC (instruction index; ninsts = function exit).       */
    int32_t reconv;
    uint32_t line, col;    /* source position of the opcode               */
    /* texture/surface instructions (in the struct's tail padding) */
    uint8_t geom;          /* enum ptx_geom                               */
    uint8_t tmode;         /* tex/txq: enum ptx_tmode; suld/sust: ptx_suclamp */
    uint8_t tq;            /* txq/suq: enum ptx_tquery; tld4: component;
                              sust: 1 = .p (formatted)                     */
    uint8_t mtype;         /* wmma.mma/mma: c type (enum ptx_mma_type)    */
};

struct ptx_reg {
    const char *name;      /* as written, e.g. "%r12", "temp"             */
    uint8_t type;          /* declared type                               */
};

struct ptx_symbol {
    const char *name;
    uint8_t space;         /* enum ptx_space                               */
    uint8_t type;          /* element type (.b8 for byte arrays)           */
    uint32_t align;
    uint64_t size;         /* bytes; 0 for extern shared                   */
    bool is_extern;        /* .extern .shared dynamic array                */
    uint8_t *init;         /* initialiser bytes (size), NULL = zero         */
    uint64_t offset;       /* assigned offset within its space's segment    */
    uint32_t line;
};

struct ptx_param {
    const char *name;
    uint8_t type;          /* scalar type, or .b8 for by-value structs     */
    uint32_t size, align;
    uint32_t offset;       /* within the param buffer                      */
};

/* A `.loc file line col` position: file indexes ptx_module.srcfiles
 * (0 = none given yet). */
struct ptx_srcloc {
    uint32_t line;
    uint16_t file, col;
};

struct ptx_func {
    const char *name;
    bool is_entry;         /* .entry (kernel) vs .func                      */
    struct ptx_param *params;  uint32_t nparams;
    uint32_t param_bytes;
    struct ptx_param *rets;    uint32_t nrets;   /* .func return params     */
    struct ptx_reg *regs;      uint32_t nregs;
    struct ptx_symbol *syms;   uint32_t nsyms;   /* shared/local/param vars */
    uint64_t shared_bytes;     /* static .shared within this function      */
    uint64_t local_bytes;      /* .local per thread                         */
    struct ptx_inst *insts;    uint32_t ninsts;
    uint32_t maxntid[3];       /* 0 if not given                            */
    uint32_t line;
    bool has_body;             /* false: a declaration only (.extern .func
                                  vprintf, malloc, ...): calls go to the
                                  device runtime (gpu_devrt.c) or fail   */
    int32_t *tlist;            /* .branchtargets entries (instruction
                                  indices) of every brx.idx list          */
    uint32_t ntlist;
    struct ptx_operand *cargs; /* arguments of calls with more than 6     */
    uint32_t ncargs;
    struct ptx_srcloc *srcloc; /* per instruction: the last `.loc` before
                                  it (the .cu position), or NULL when the
                                  function has no .loc (no -lineinfo)     */
    /* CFG (filled by ptx_cfg_build): basic blocks over insts */
    struct ptx_cfg *cfg;
};

/* A module-variable initialiser element that holds an address, patched
 * when the module is placed in device memory: `{fn1, fn2}` (function
 * addresses, vtables) or `{sym, generic(sym)+8}` (data addresses). */
struct ptx_reloc {
    uint32_t sym;              /* module symbol whose init holds it        */
    uint64_t offset;           /* byte offset in that initialiser          */
    uint8_t bytes;             /* element size: 4 or 8                     */
    bool is_func;              /* target: function index, else module sym */
    int32_t target;
    int64_t addend;
};

struct ptx_module {
    const char *file;          /* for messages */
    uint32_t version_major, version_minor;
    char target[32];
    unsigned address_size;
    struct ptx_symbol *syms;   uint32_t nsyms;   /* .global/.const/.texref  */
    uint64_t global_bytes, const_bytes;          /* module segment sizes    */
    struct ptx_func *funcs;    uint32_t nfuncs;  /* entries and .funcs      */
    struct ptx_reloc *relocs;  uint32_t nrelocs; /* address initialisers    */
    const char **srcfiles;     uint32_t nsrcfiles; /* `.file N "name"` by N
                                                      (NULL where not given) */
    struct ptx_arena *arena;   /* owns every allocation of the module       */
};

/* Parse/analysis diagnostics: "file:line:col: error: what (construct)". */
struct ptx_diag {
    char msg[512];
    uint32_t line, col;
};

/* Parses PTX text into *out (caller frees with ptx_module_free). Returns 0,
 * or -1 with diag filled (file:line:col and the offending construct). Runs
 * the CFG and post-dominator analysis of every function. */
int ptx_parse(const char *file, const char *text, size_t len,
              struct ptx_module **out, struct ptx_diag *diag);
/* Frees a module from ptx_parse; NULL is ignored. */
void ptx_module_free(struct ptx_module *m);
/* The value a function address has in device code (mov r, fn; fn in an
 * initialiser; what an indirect call takes): a tag no data address uses,
 * plus 16 x the function's index in its module. */
#define PTX_FUNC_ADDR_TAG 0x7f00000000000000ull
#define PTX_FUNC_ADDR(idx) (PTX_FUNC_ADDR_TAG + 16ull * (uint64_t)(idx))
/* The .cu position of instruction pc of f (from `.loc`/`.file`): its file
 * name (NULL when the PTX has no line info for it) and *line. */
const char *ptx_srcloc_of(const struct ptx_module *m, const struct ptx_func *f,
                          int32_t pc, uint32_t *line);
/* Function index of address a in m, or -1 when a is no function address. */
int32_t ptx_func_of_addr(const struct ptx_module *m, uint64_t a);
/* Number of arguments of call instruction in, and argument i of it (a
 * .param SYM operand) where in belongs to function f; NULL out of range. */
unsigned ptx_call_nargs(const struct ptx_inst *in);
const struct ptx_operand *ptx_call_arg(const struct ptx_func *f,
                                       const struct ptx_inst *in, unsigned i);
/* Function by name (entries and .funcs), or NULL. */
const struct ptx_func *ptx_find_func(const struct ptx_module *m, const char *name);

#endif
