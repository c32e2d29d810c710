/* Integer ALU semantics: add/sub (.sat, .cc, addc/subc), mul/mad
 * (.lo/.hi/.wide, madc), mul24/mad24, sad, div/rem, abs/neg/min/max, and
 * the bit operations (logic, shifts, popc, clz, brev, bfe, bfi, prmt).
 * Operands are decoded once per instruction (struct exec_src); each lane
 * runs a small expression. Values are raw bits of the instruction type,
 * zero-extended; signed ops sign-extend with exec_sext first. */
#include "exec/exec_lane.h"

typedef unsigned __int128 u128;
typedef __int128 s128;

/* Loops over the lanes of m with a, b, c bound to the decoded sources and
 * stores EXPR (masked to dk) to the destination. */
#define LANES(EXPR)                                                           \
    EXEC_FOR_EACH_LANE(m, lane, {                                             \
        uint64_t a = EXEC_SRC(&A, lane), b = EXEC_SRC(&B, lane);              \
        uint64_t c = EXEC_SRC(&C, lane);                                      \
        (void)a; (void)b; (void)c;                                            \
        d[lane] = (uint64_t)(EXPR) & dk;                                      \
    })

static int64_t sat32(int64_t v)
{
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v;
}

/* High half of the 2*bits product of a and b (signed or unsigned). */
static uint64_t mul_hi(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (sgn) {
        s128 p = (s128)exec_sext(a, bits) * (s128)exec_sext(b, bits);
        return (uint64_t)(p >> bits);
    }
    return (uint64_t)(((u128)a * b) >> bits);
}

/* Full 2*bits product (bits <= 32). */
static uint64_t mul_wide(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (sgn) return (uint64_t)(exec_sext(a, bits) * exec_sext(b, bits));
    return a * b;
}

/* The product term of mul/mad for the .lo/.hi/.wide variant. */
static uint64_t product(uint64_t a, uint64_t b, unsigned bits, int sgn,
                        unsigned flags)
{
    if (flags & PTX_F_WIDE) return mul_wide(a, b, bits, sgn);
    if (flags & PTX_F_HI) return mul_hi(a, b, bits, sgn);
    return a * b;
}

/* 24-bit product (mul24/mad24): .lo = bits 0..31, .hi = bits 16..47. */
static uint64_t product24(uint64_t a, uint64_t b, int sgn, unsigned flags)
{
    int64_t p = sgn ? exec_sext(a & 0xffffff, 24) * exec_sext(b & 0xffffff, 24)
                    : (int64_t)((a & 0xffffff) * (b & 0xffffff));
    return (flags & PTX_F_HI) ? (uint64_t)p >> 16 : (uint64_t)p;
}

static uint64_t idiv(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (b == 0) return ~(uint64_t)0;                 /* all ones, documented */
    if (!sgn) return a / b;
    int64_t x = exec_sext(a, bits), y = exec_sext(b, bits);
    if (y == -1) return (uint64_t)0 - (uint64_t)x;   /* MIN / -1 wraps */
    return (uint64_t)(x / y);
}

static uint64_t irem(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (b == 0) return a;                            /* documented */
    if (!sgn) return a % b;
    int64_t x = exec_sext(a, bits), y = exec_sext(b, bits);
    if (y == -1) return 0;
    return (uint64_t)(x % y);
}

static uint64_t imin(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (sgn) return exec_sext(a, bits) < exec_sext(b, bits) ? a : b;
    return a < b ? a : b;
}

static uint64_t imax(uint64_t a, uint64_t b, unsigned bits, int sgn)
{
    if (sgn) return exec_sext(a, bits) > exec_sext(b, bits) ? a : b;
    return a > b ? a : b;
}

static uint64_t iabs(uint64_t a, unsigned bits, int sgn)
{
    int64_t x = exec_sext(a, bits);
    return (sgn && x < 0) ? (uint64_t)0 - (uint64_t)x : a;
}

static uint64_t isad(uint64_t a, uint64_t b, uint64_t c, unsigned bits,
                     int sgn)
{
    uint64_t diff;
    if (sgn) {
        int64_t x = exec_sext(a, bits), y = exec_sext(b, bits);
        diff = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
    } else {
        diff = a > b ? a - b : b - a;
    }
    return diff + c;
}

/* a + b + cin with carry-out into *cout (bits-wide unsigned add). */
static uint64_t add_carry(uint64_t a, uint64_t b, unsigned cin, unsigned bits,
                          uint8_t *cout)
{
    u128 r = (u128)a + b + cin;
    *cout = (uint8_t)((r >> bits) & 1);
    return (uint64_t)r;
}

/* a - b - bin with borrow-out into *bout. */
static uint64_t sub_borrow(uint64_t a, uint64_t b, unsigned bin,
                           uint8_t *bout)
{
    *bout = (u128)a < (u128)b + bin;
    return a - b - bin;
}

/* Ops that use or set the carry flag (.cc, addc, subc, madc). */
static int int_carry(struct exec_warp *w, const struct ptx_inst *in,
                     uint32_t m, uint64_t *d, const struct exec_src *pa,
                     const struct exec_src *pb, const struct exec_src *pc,
                     unsigned bits, int sgn, uint64_t dk)
{
    int use = in->op == PTX_OP_ADDC || in->op == PTX_OP_SUBC ||
              in->op == PTX_OP_MADC;
    int setc = (in->flags & PTX_F_CC) != 0;
    EXEC_FOR_EACH_LANE(m, lane, {
        uint64_t a = EXEC_SRC(pa, lane), b = EXEC_SRC(pb, lane);
        unsigned cin = use ? w->carry[lane] : 0;
        uint8_t cout = 0;
        uint64_t r;
        if (in->op == PTX_OP_SUB || in->op == PTX_OP_SUBC) {
            r = sub_borrow(a, b, cin, &cout);
        } else if (in->op == PTX_OP_ADD || in->op == PTX_OP_ADDC) {
            r = add_carry(a, b, cin, bits, &cout);
        } else {
            uint64_t p = product(a, b, bits, sgn, in->flags) & dk;
            r = add_carry(p, EXEC_SRC(pc, lane), cin, bits, &cout);
        }
        d[lane] = r & dk;
        if (setc) w->carry[lane] = cout;
    });
    return 0;
}

int exec_int_arith(struct exec_warp *w, const struct ptx_inst *in,
                   uint32_t m, struct exec_error *err)
{
    unsigned t = in->type, bits = exec_tbits(t), fl = in->flags;
    int sgn = exec_tsigned(t);
    if (t == PTX_T_PRED || t == PTX_T_NONE || exec_tfloat(t))
        return exec_fail(err, in, "unsupported type for integer op");
    int wide = (fl & PTX_F_WIDE) != 0;
    if (wide && bits > 32) return exec_fail(err, in, ".wide needs a 16/32-bit type");
    uint64_t dk = wide ? (bits == 32 ? ~(uint64_t)0 : 0xffffffffu) : exec_tmask(t);
    unsigned ct = wide ? (bits == 32 ? PTX_T_B64 : PTX_T_B32) : t;
    struct exec_src A, B, C;
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    int unary = in->op == PTX_OP_ABS || in->op == PTX_OP_NEG;
    static const struct ptx_operand none;
    if (exec_src_init(&A, w, in, &in->o[1], t, m, err) ||
        exec_src_init(&B, w, in, unary ? &none : &in->o[2], t, m, err) ||
        exec_src_init(&C, w, in, in->nopnd > 3 ? &in->o[3] : &none, ct, m, err))
        return -1;
    int sat = (fl & PTX_F_SAT) != 0;

    switch (in->op) {
    case PTX_OP_ADD:
        if (fl & PTX_F_CC) break;
        if (sat) LANES(sat32(exec_sext(a, 32) + exec_sext(b, 32)));
        else LANES(a + b);
        return 0;
    case PTX_OP_SUB:
        if (fl & PTX_F_CC) break;
        if (sat) LANES(sat32(exec_sext(a, 32) - exec_sext(b, 32)));
        else LANES(a - b);
        return 0;
    case PTX_OP_MUL:
        if (fl & PTX_F_WIDE) LANES(mul_wide(a, b, bits, sgn));
        else if (fl & PTX_F_HI) LANES(mul_hi(a, b, bits, sgn));
        else LANES(a * b);
        return 0;
    case PTX_OP_MAD:
        if (fl & PTX_F_CC) break;
        if (sat && (fl & PTX_F_HI))
            LANES(sat32(exec_sext(mul_hi(a, b, 32, 1), 32) + exec_sext(c, 32)));
        else if (fl & PTX_F_WIDE) LANES(mul_wide(a, b, bits, sgn) + c);
        else if (fl & PTX_F_HI) LANES(mul_hi(a, b, bits, sgn) + c);
        else LANES(a * b + c);
        return 0;
    case PTX_OP_MUL24:
        LANES(product24(a, b, sgn, fl));
        return 0;
    case PTX_OP_MAD24:
        if (sat && (fl & PTX_F_HI) && sgn)
            LANES(sat32(exec_sext(product24(a, b, 1, fl), 32) + exec_sext(c, 32)));
        else LANES(product24(a, b, sgn, fl) + c);
        return 0;
    case PTX_OP_SAD: LANES(isad(a, b, c, bits, sgn)); return 0;
    case PTX_OP_DIV: LANES(idiv(a, b, bits, sgn)); return 0;
    case PTX_OP_REM: LANES(irem(a, b, bits, sgn)); return 0;
    case PTX_OP_ABS: LANES(iabs(a, bits, sgn)); return 0;
    case PTX_OP_NEG: LANES((uint64_t)0 - a); return 0;
    case PTX_OP_MIN: LANES(imin(a, b, bits, sgn)); return 0;
    case PTX_OP_MAX: LANES(imax(a, b, bits, sgn)); return 0;
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MADC: break;
    default:
        return exec_fail(err, in, "not an integer arithmetic op");
    }
    if (bits < 32) return exec_fail(err, in, "carry ops need a 32/64-bit type");
    return int_carry(w, in, m, d, &A, &B, &C, bits, sgn, dk);
}

/* ---- bit operations ---- */

static uint64_t brev(uint64_t v, unsigned bits)
{
    v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
    v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
    v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
    v = __builtin_bswap64(v);
    return v >> (64 - bits);
}

static uint64_t clz(uint64_t v, unsigned bits)
{
    if (v == 0) return bits;
    return (uint64_t)__builtin_clzll(v) - (64 - bits);
}

static uint64_t shr(uint64_t a, uint64_t n, unsigned bits, int sgn)
{
    if (sgn) {
        int64_t x = exec_sext(a, bits);
        return (uint64_t)(n >= bits ? (x < 0 ? -1 : 0) : x >> n);
    }
    return n >= bits ? 0 : a >> n;
}

/* bfe: len bits of a from pos, zero- or sign-extended (PTX pseudo-code;
 * len == 0 gives 0). */
static uint64_t bfe(uint64_t a, uint64_t b, uint64_t c, unsigned bits, int sgn)
{
    unsigned pos = (unsigned)(b & 0xff), len = (unsigned)(c & 0xff);
    unsigned msb = bits - 1;
    if (len == 0) return 0;
    unsigned top = pos + len - 1 > msb ? msb : pos + len - 1;
    uint64_t sbit = sgn ? (a >> top) & 1 : 0;
    uint64_t field = pos > msb ? 0 : a >> pos;
    unsigned n = pos > msb ? 0 : (len < bits - pos ? len : bits - pos);
    uint64_t keep = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    return (field & keep) | (sbit ? ~keep : 0);
}

/* bfi: b with len bits of a inserted at pos. */
static uint64_t bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t dd,
                    unsigned bits)
{
    unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(dd & 0xff);
    if (pos >= bits || len == 0) return b;
    if (len > bits - pos) len = bits - pos;
    uint64_t keep = len >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << len) - 1);
    return (b & ~(keep << pos)) | ((a & keep) << pos);
}

/* prmt modes .f4e .b4e .rc8 .ecl .ecr .rc16 (PTX_MODE_F4E..RC16): the
 * byte selectors each mode gives for c[1:0], as a default-mode selector
 * (no sign replication). */
static const uint16_t prmt_mode_sel[6][4] = {
    {0x3210, 0x4321, 0x5432, 0x6543},      /* f4e: forward 4 extract  */
    {0x5670, 0x6701, 0x7012, 0x0123},      /* b4e: backward 4 extract */
    {0x0000, 0x1111, 0x2222, 0x3333},      /* rc8: replicate 8        */
    {0x3210, 0x3211, 0x3222, 0x3333},      /* ecl: edge clamp left    */
    {0x0000, 0x1110, 0x2210, 0x3210},      /* ecr: edge clamp right   */
    {0x1010, 0x3232, 0x1010, 0x3232},      /* rc16: replicate 16      */
};

/* prmt default mode: byte i of d is byte (c >> 4i) & 7 of {b, a}, or its
 * sign replicated when bit 3 of the selector is set. */
static uint64_t prmt(uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t src = (a & 0xffffffffu) | ((b & 0xffffffffu) << 32), r = 0;
    for (unsigned i = 0; i < 4; i++) {
        unsigned sel = (unsigned)(c >> (4 * i)) & 0xf;
        uint64_t byte = (src >> (8 * (sel & 7))) & 0xff;
        if (sel & 8) byte = (byte & 0x80) ? 0xff : 0;
        r |= byte << (8 * i);
    }
    return r;
}

int exec_int_bits(struct exec_warp *w, const struct ptx_inst *in,
                  uint32_t m, struct exec_error *err)
{
    unsigned t = in->type, bits = exec_tbits(t);
    int sgn = exec_tsigned(t);
    uint64_t dk = exec_tmask(t);
    unsigned bt = t, ct = t;
    static const struct ptx_operand none;
    const struct ptx_operand *ob = &none, *oc = &none;
    struct exec_src A, B, C, D;
    switch (in->op) {
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: ob = &in->o[2]; break;
    case PTX_OP_SHL: case PTX_OP_SHR: ob = &in->o[2]; bt = PTX_T_U32; break;
    case PTX_OP_POPC: case PTX_OP_CLZ: dk = 0xffffffffu; break;
    case PTX_OP_BFE: ob = &in->o[2]; oc = &in->o[3]; bt = ct = PTX_T_U32; break;
    case PTX_OP_BFI: ob = &in->o[2]; oc = &in->o[3]; ct = PTX_T_U32; break;
    case PTX_OP_PRMT: ob = &in->o[2]; oc = &in->o[3]; ct = PTX_T_U32; break;
    default: break;
    }
    if (exec_tfloat(t) || t == PTX_T_NONE)
        return exec_fail(err, in, "unsupported type for bit op");
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    if (exec_src_init(&A, w, in, &in->o[1], t, m, err) ||
        exec_src_init(&B, w, in, ob, bt, m, err) ||
        exec_src_init(&C, w, in, oc, ct, m, err))
        return -1;
    switch (in->op) {
    case PTX_OP_AND: LANES(a & b); return 0;
    case PTX_OP_OR: LANES(a | b); return 0;
    case PTX_OP_XOR: LANES(a ^ b); return 0;
    case PTX_OP_NOT: LANES(~a); return 0;
    case PTX_OP_CNOT: LANES(a == 0); return 0;
    case PTX_OP_SHL: LANES(b >= bits ? 0 : a << b); return 0;
    case PTX_OP_SHR:
        if (sgn) LANES(shr(a, b, bits, 1));
        else LANES(b >= bits ? 0 : a >> b);
        return 0;
    case PTX_OP_POPC: LANES(__builtin_popcountll(a)); return 0;
    case PTX_OP_CLZ: LANES(clz(a, bits)); return 0;
    case PTX_OP_BREV: LANES(brev(a, bits)); return 0;
    case PTX_OP_BFE: LANES(bfe(a, b, c, bits, sgn)); return 0;
    case PTX_OP_PRMT:
        if (in->mode >= PTX_MODE_F4E && in->mode <= PTX_MODE_RC16) {
            const uint16_t *tab = prmt_mode_sel[in->mode - PTX_MODE_F4E];
            LANES(prmt(a, b, tab[c & 3]));
        } else if (in->mode) {
            return exec_fail(err, in, "unknown prmt mode");
        } else {
            LANES(prmt(a, b, c));
        }
        return 0;
    case PTX_OP_BFI:
        if (exec_src_init(&D, w, in, &in->o[4], PTX_T_U32, m, err)) return -1;
        EXEC_FOR_EACH_LANE(m, lane, {
            d[lane] = bfi(EXEC_SRC(&A, lane), EXEC_SRC(&B, lane),
                          EXEC_SRC(&C, lane), EXEC_SRC(&D, lane), bits) & dk;
        });
        return 0;
    default:
        return exec_fail(err, in, "not a bit op");
    }
}

/* ---- bfind, bmsk, fns, lop3, shf, dp4a, dp2a ---- */

/* bfind: position of the most significant non-sign bit of a (signed
 * types look for the most significant 0 of a negative value), or
 * 0xffffffff when there is none; .shiftamt gives msb - position. */
static uint64_t bfind(uint64_t a, unsigned bits, int sgn, int shiftamt)
{
    unsigned msb = bits - 1;
    if (sgn && ((a >> msb) & 1))
        a = ~a;
    if (bits < 64)
        a &= ((uint64_t)1 << bits) - 1;
    if (!a)
        return 0xffffffffu;
    unsigned pos = 63u - (unsigned)__builtin_clzll(a);
    return shiftamt ? msb - pos : pos;
}

/* bmsk (PTX ISA pseudo-code): b bits set from bit a; .clamp: a >= 32
 * gives 0 and b >= 32 runs to the msb; .wrap: both taken mod 32. */
static uint64_t bmsk(uint32_t a, uint32_t b, int clamp)
{
    uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
    uint32_t mask0 = ~0u << a1;
    uint32_t mask1 = sum >= 32 ? 0 : ~0u << sum;
    int over = sum >= 32;
    if (clamp && a >= 32) {
        over = 1;
        mask0 = 0;
    }
    if (clamp && b >= 32)
        over = 1;
    if (over)
        mask1 = 0;
    else if (b1 == 0)
        mask1 = ~0u;
    return mask0 & ~mask1;
}

/* fns (PTX ISA pseudo-code): position of the |offset|-th set bit of mask
 * from base, upwards for offset > 0, downwards for offset < 0; offset 0
 * tests base itself; 0xffffffff when not found. base <= 31 (checked). */
static uint64_t fns(uint32_t mask, uint32_t base, int32_t offset)
{
    if (offset == 0)
        return ((mask >> base) & 1) ? base : 0xffffffffu;
    uint32_t count = offset > 0 ? (uint32_t)offset - 1 : 0u - (uint32_t)offset - 1;
    int inc = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += inc)
        if ((mask >> pos) & 1) {
            if (count == 0)
                return (uint64_t)pos;
            count--;
        }
    return 0xffffffffu;
}

/* lop3: bit i of d = immLut[(a_i << 2) | (b_i << 1) | c_i]. */
static uint64_t lop3(uint64_t a, uint64_t b, uint64_t c, unsigned lut)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 8; i++)
        if ((lut >> i) & 1)
            r |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
    return r;
}

/* shf: the 64-bit {b, a} shifted left (upper 32 bits kept) or right
 * (lower 32 kept) by c, clamped to 32 or taken mod 32. */
static uint64_t shf(uint64_t a, uint64_t b, uint64_t c, int left, int clamp)
{
    uint64_t n = clamp ? (c > 32 ? 32 : c) : (c & 31);
    uint64_t v = ((b & 0xffffffffu) << 32) | (a & 0xffffffffu);
    return left ? (v << n) >> 32 : (v >> n) & 0xffffffffu;
}

/* Byte or half i of v, sign- or zero-extended. */
static inline int64_t part(uint64_t v, unsigned bits, unsigned i, int sgn)
{
    uint64_t x = (v >> (bits * i)) & (((uint64_t)1 << bits) - 1);
    return sgn ? exec_sext(x, bits) : (int64_t)x;
}

/* dp4a: c + sum of the four byte products; dp2a: c + a.h0 * b.b{0|2} +
 * a.h1 * b.b{1|3}. Bytes/halves are signed per the operand's type;
 * the sum wraps modulo 2^32. */
static uint64_t dp4a(uint64_t a, uint64_t b, uint64_t c, int sa, int sb)
{
    int64_t r = (int64_t)(uint32_t)c;
    for (unsigned i = 0; i < 4; i++)
        r += part(a, 8, i, sa) * part(b, 8, i, sb);
    return (uint64_t)r & 0xffffffffu;
}

static uint64_t dp2a(uint64_t a, uint64_t b, uint64_t c, int sa, int sb,
                     unsigned hi)
{
    int64_t r = (int64_t)(uint32_t)c;
    r += part(a, 16, 0, sa) * part(b, 8, 2 * hi, sb);
    r += part(a, 16, 1, sa) * part(b, 8, 2 * hi + 1, sb);
    return (uint64_t)r & 0xffffffffu;
}

int exec_int_misc(struct exec_warp *w, const struct ptx_inst *in,
                  uint32_t m, struct exec_error *err)
{
    unsigned t = in->type, bits = exec_tbits(t);
    int sgn = exec_tsigned(t);
    static const struct ptx_operand none;
    struct exec_src A, B, C;
    unsigned at = t, bt = t, ct = t;
    const struct ptx_operand *ob = &in->o[2], *oc = &none;
    uint64_t dk = 0xffffffffu;
    switch (in->op) {
    case PTX_OP_BFIND:
        if (bits != 32 && bits != 64)
            return exec_fail(err, in, "bfind needs a 32/64-bit integer type");
        ob = &none;
        break;
    case PTX_OP_BMSK: at = bt = PTX_T_U32; break;
    case PTX_OP_FNS: bt = PTX_T_U32; ct = PTX_T_S32; oc = &in->o[3]; break;
    case PTX_OP_LOP3: case PTX_OP_SHF: oc = &in->o[3]; dk = exec_tmask(t); break;
    case PTX_OP_DP4A: case PTX_OP_DP2A:
        bt = in->type2;
        ct = PTX_T_U32;
        oc = &in->o[3];
        if ((t != PTX_T_U32 && t != PTX_T_S32) ||
            (bt != PTX_T_U32 && bt != PTX_T_S32))
            return exec_fail(err, in, "dp4a/dp2a need .u32/.s32 operand types");
        break;
    default:
        return exec_fail(err, in, "not a bit op");
    }
    if (exec_tfloat(t) || t == PTX_T_NONE || t == PTX_T_PRED ||
        ((in->op == PTX_OP_LOP3 || in->op == PTX_OP_SHF || in->op == PTX_OP_BMSK ||
          in->op == PTX_OP_FNS) && bits != 32))
        return exec_fail(err, in, "unsupported type for bit op");
    uint64_t *d = exec_dst(w, in, &in->o[0], err);
    if (!d) return -1;
    if (exec_src_init(&A, w, in, &in->o[1], at, m, err) ||
        exec_src_init(&B, w, in, ob, bt, m, err) ||
        exec_src_init(&C, w, in, oc, ct, m, err))
        return -1;
    switch (in->op) {
    case PTX_OP_BFIND:
        LANES(bfind(a, bits, sgn, (in->flags & PTX_F_SHIFTAMT) != 0));
        return 0;
    case PTX_OP_BMSK:
        LANES(bmsk((uint32_t)a, (uint32_t)b, in->mode == PTX_MODE_CLAMP));
        return 0;
    case PTX_OP_FNS:
        EXEC_FOR_EACH_LANE(m, lane, {
            if (EXEC_SRC(&B, lane) > 31)
                return exec_fail(err, in, "fns: base above 31 (undefined in PTX)");
        });
        LANES(fns((uint32_t)a, (uint32_t)b, (int32_t)(uint32_t)c));
        return 0;
    case PTX_OP_LOP3: {
        if (in->o[4].kind != PTX_O_IMM)
            return exec_fail(err, in, "lop3: immLut must be an immediate");
        unsigned lut = (unsigned)in->o[4].imm & 0xffu;
        LANES(lop3(a, b, c, lut));
        return 0;
    }
    case PTX_OP_SHF:
        LANES(shf(a, b, c, in->sub == PTX_SUB_SHF_L, in->mode == PTX_MODE_CLAMP));
        return 0;
    case PTX_OP_DP4A:
        LANES(dp4a(a, b, c, sgn, exec_tsigned(bt)));
        return 0;
    case PTX_OP_DP2A:
        LANES(dp2a(a, b, c, sgn, exec_tsigned(bt), (in->flags & PTX_F_HI) ? 1u : 0u));
        return 0;
    default:
        return exec_fail(err, in, "not a bit op");
    }
}
