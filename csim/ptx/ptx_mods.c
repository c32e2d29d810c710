/* PTX opcode decoding: the modifier table and "ld.global.nc.f32" into a
 * struct ptx_inst's opcode and modifier fields, with the checks of which
 * modifiers each opcode takes (the operands: ptx_inst.c). */
#include <stdio.h>
#include <string.h>
#include "ptx/ptx_mma.h"
#include "ptx/ptx_pstate.h"

/* ------------------------------------------------------ modifier table */

#define M_TYPE    (1ull << 0)
#define M_SPACE   (1ull << 1)
#define M_VEC     (1ull << 2)
#define M_CMP     (1ull << 3)
#define M_RND     (1ull << 4)
#define M_HILO    (1ull << 5)
#define M_WIDE    (1ull << 6)
#define M_SAT     (1ull << 7)
#define M_FTZ     (1ull << 8)
#define M_APPROX  (1ull << 9)
#define M_CC      (1ull << 10)
#define M_UNI     (1ull << 11)
#define M_NC      (1ull << 12)
#define M_VOL     (1ull << 13)
#define M_TO      (1ull << 14)
#define M_ALIGNED (1ull << 15)
#define M_BOOL    (1ull << 16)
#define M_ATOMOP  (1ull << 17)
#define M_SHFL    (1ull << 18)
#define M_VOTE    (1ull << 19)
#define M_SYNC    (1ull << 20)
#define M_ARRIVE  (1ull << 21)
#define M_WARP    (1ull << 22)
#define M_GEOM    (1ull << 23)
#define M_CLASS   (1ull << 24)
#define M_ORDER   (1ull << 25)
#define M_SCOPE   (1ull << 26)
#define M_CACHE   (1ull << 27)
#define M_SHIFTAMT (1ull << 28)  /* bfind .shiftamt                        */
#define M_MODE    (1ull << 29)   /* prmt modes, .clamp/.wrap, .shr7/.shr15 */
#define M_PO      (1ull << 30)   /* vmad .po                               */
#define M_DIR     (1ull << 31)   /* shf .l/.r                              */
#define M_RED     (1ull << 32)   /* bar/barrier .red                       */
#define M_POPC    (1ull << 33)   /* bar.red .popc                          */
#define M_NAN     (1ull << 34)   /* min/max .NaN                           */
#define M_TEX     (1ull << 35)   /* texture/surface modifiers: kind in val >> 8 */
#define M_NOFTZ   (1ull << 36)   /* atom/red .noftz (16-bit float adds)     */

/* Kinds of M_TEX modifiers (mods[].val = kind << 8 | value). */
enum { TK_MODE = 1, TK_COMP, TK_QUERY, TK_CLAMP, TK_FMT, TK_B };
#define TXM(kind, v) ((uint16_t)((kind) << 8 | (v)))

struct mod_ent {
    const char *name;
    uint64_t cls;
    uint16_t val;
};

static const struct mod_ent mods[] = {
    {"b8", M_TYPE, PTX_T_B8}, {"b16", M_TYPE, PTX_T_B16},
    {"b32", M_TYPE, PTX_T_B32}, {"b64", M_TYPE, PTX_T_B64},
    {"u8", M_TYPE, PTX_T_U8}, {"u16", M_TYPE, PTX_T_U16},
    {"u32", M_TYPE, PTX_T_U32}, {"u64", M_TYPE, PTX_T_U64},
    {"s8", M_TYPE, PTX_T_S8}, {"s16", M_TYPE, PTX_T_S16},
    {"s32", M_TYPE, PTX_T_S32}, {"s64", M_TYPE, PTX_T_S64},
    {"f16", M_TYPE, PTX_T_F16}, {"f32", M_TYPE, PTX_T_F32},
    {"f64", M_TYPE, PTX_T_F64}, {"pred", M_TYPE, PTX_T_PRED},
    {"f16x2", M_TYPE, PTX_T_F16X2},
    {"bf16", M_TYPE, PTX_T_BF16}, {"bf16x2", M_TYPE, PTX_T_BF16X2},
    {"global", M_SPACE, PTX_SP_GLOBAL}, {"shared", M_SPACE, PTX_SP_SHARED},
    {"local", M_SPACE, PTX_SP_LOCAL}, {"param", M_SPACE, PTX_SP_PARAM},
    {"const", M_SPACE, PTX_SP_CONST},
    {"v2", M_VEC, 2}, {"v4", M_VEC, 4},
    {"eq", M_CMP, PTX_CMP_EQ}, {"ne", M_CMP, PTX_CMP_NE},
    {"lt", M_CMP, PTX_CMP_LT}, {"le", M_CMP, PTX_CMP_LE},
    {"gt", M_CMP, PTX_CMP_GT}, {"ge", M_CMP, PTX_CMP_GE},
    {"lo", M_CMP | M_HILO, PTX_CMP_LO}, {"ls", M_CMP, PTX_CMP_LS},
    {"hi", M_CMP | M_HILO, PTX_CMP_HI}, {"hs", M_CMP, PTX_CMP_HS},
    {"equ", M_CMP, PTX_CMP_EQU}, {"neu", M_CMP, PTX_CMP_NEU},
    {"ltu", M_CMP, PTX_CMP_LTU}, {"leu", M_CMP, PTX_CMP_LEU},
    {"gtu", M_CMP, PTX_CMP_GTU}, {"geu", M_CMP, PTX_CMP_GEU},
    {"num", M_CMP, PTX_CMP_NUM}, {"nan", M_CMP, PTX_CMP_NAN},
    {"rn", M_RND, PTX_RND_RN}, {"rz", M_RND, PTX_RND_RZ},
    {"rm", M_RND, PTX_RND_RM}, {"rp", M_RND, PTX_RND_RP},
    {"rni", M_RND, PTX_RND_RNI}, {"rzi", M_RND, PTX_RND_RZI},
    {"rmi", M_RND, PTX_RND_RMI}, {"rpi", M_RND, PTX_RND_RPI},
    {"wide", M_WIDE, PTX_F_WIDE}, {"sat", M_SAT, PTX_F_SAT},
    {"ftz", M_FTZ, PTX_F_FTZ}, {"approx", M_APPROX, PTX_F_APPROX},
    {"full", M_APPROX, PTX_F_APPROX}, {"cc", M_CC, PTX_F_CC},
    {"uni", M_UNI, PTX_F_UNI}, {"nc", M_NC, PTX_F_NC},
    {"volatile", M_VOL, PTX_F_VOLATILE}, {"to", M_TO, PTX_F_TO},
    {"aligned", M_ALIGNED, PTX_F_ALIGNED},
    {"and", M_BOOL, PTX_SUB_AND}, {"or", M_BOOL, PTX_SUB_OR},
    {"xor", M_BOOL, PTX_SUB_XOR},
    {"add", M_ATOMOP, PTX_SUB_ADD}, {"min", M_ATOMOP, PTX_SUB_MIN},
    {"max", M_ATOMOP, PTX_SUB_MAX}, {"inc", M_ATOMOP, PTX_SUB_INC},
    {"dec", M_ATOMOP, PTX_SUB_DEC}, {"exch", M_ATOMOP, PTX_SUB_EXCH},
    {"cas", M_ATOMOP, PTX_SUB_CAS},
    {"up", M_SHFL, PTX_SUB_UP}, {"down", M_SHFL, PTX_SUB_DOWN},
    {"bfly", M_SHFL, PTX_SUB_BFLY}, {"idx", M_SHFL, PTX_SUB_IDX},
    {"all", M_VOTE, PTX_SUB_ALL}, {"any", M_VOTE, PTX_SUB_ANY},
    {"ballot", M_VOTE, PTX_SUB_BALLOT},
    {"sync", M_SYNC, PTX_SUB_SYNC}, {"arrive", M_ARRIVE, PTX_SUB_ARRIVE},
    {"warp", M_WARP, PTX_SUB_WARP_SYNC},
    {"1d", M_GEOM, PTX_GEOM_1D}, {"2d", M_GEOM, PTX_GEOM_2D},
    {"3d", M_GEOM, PTX_GEOM_3D}, {"a1d", M_GEOM, PTX_GEOM_A1D},
    {"a2d", M_GEOM, PTX_GEOM_A2D}, {"cube", M_GEOM, PTX_GEOM_CUBE},
    {"acube", M_GEOM, PTX_GEOM_ACUBE}, {"2dms", M_GEOM, PTX_GEOM_2DMS},
    {"a2dms", M_GEOM, PTX_GEOM_A2DMS},
    {"base", M_TEX, TXM(TK_MODE, PTX_TM_BASE)},
    {"level", M_TEX, TXM(TK_MODE, PTX_TM_LEVEL)},
    {"grad", M_TEX, TXM(TK_MODE, PTX_TM_GRAD)},
    {"r", M_TEX, TXM(TK_COMP, 0)}, {"g", M_TEX, TXM(TK_COMP, 1)},
    {"b", M_TEX, TXM(TK_B, 2)}, {"a", M_TEX, TXM(TK_COMP, 3)},
    {"p", M_TEX, TXM(TK_FMT, 1)},
    {"trap", M_TEX, TXM(TK_CLAMP, PTX_SU_TRAP)},
    {"clamp", M_TEX, TXM(TK_CLAMP, PTX_SU_CLAMP)},
    {"zero", M_TEX, TXM(TK_CLAMP, PTX_SU_ZERO)},
    {"width", M_TEX, TXM(TK_QUERY, PTX_TQ_WIDTH)},
    {"height", M_TEX, TXM(TK_QUERY, PTX_TQ_HEIGHT)},
    {"depth", M_TEX, TXM(TK_QUERY, PTX_TQ_DEPTH)},
    {"channel_data_type", M_TEX, TXM(TK_QUERY, PTX_TQ_CHANNEL_DATA_TYPE)},
    {"channel_order", M_TEX, TXM(TK_QUERY, PTX_TQ_CHANNEL_ORDER)},
    {"normalized_coords", M_TEX, TXM(TK_QUERY, PTX_TQ_NORMALIZED_COORDS)},
    {"array_size", M_TEX, TXM(TK_QUERY, PTX_TQ_ARRAY_SIZE)},
    {"num_mipmap_levels", M_TEX, TXM(TK_QUERY, PTX_TQ_NUM_MIPMAP_LEVELS)},
    {"num_samples", M_TEX, TXM(TK_QUERY, PTX_TQ_NUM_SAMPLES)},
    {"force_unnormalized_coords", M_TEX,
     TXM(TK_QUERY, PTX_TQ_FORCE_UNNORMALIZED_COORDS)},
    {"filter_mode", M_TEX, TXM(TK_QUERY, PTX_TQ_FILTER_MODE)},
    {"addr_mode_0", M_TEX, TXM(TK_QUERY, PTX_TQ_ADDR_MODE_0)},
    {"addr_mode_1", M_TEX, TXM(TK_QUERY, PTX_TQ_ADDR_MODE_1)},
    {"addr_mode_2", M_TEX, TXM(TK_QUERY, PTX_TQ_ADDR_MODE_2)},
    {"memory_layout", M_TEX, TXM(TK_QUERY, PTX_TQ_MEMORY_LAYOUT)},
    {"finite", M_CLASS, PTX_SUB_FINITE}, {"infinite", M_CLASS, PTX_SUB_INFINITE},
    {"number", M_CLASS, PTX_SUB_NUMBER},
    {"notanumber", M_CLASS, PTX_SUB_NOTANUMBER},
    {"normal", M_CLASS, PTX_SUB_NORMAL}, {"subnormal", M_CLASS, PTX_SUB_SUBNORMAL},
    {"relaxed", M_ORDER, 0}, {"acquire", M_ORDER, 0}, {"release", M_ORDER, 0},
    {"acq_rel", M_ORDER, 0}, {"sc", M_ORDER, 0}, {"weak", M_ORDER, 0},
    {"cta", M_SCOPE, 0}, {"gpu", M_SCOPE, 0}, {"sys", M_SCOPE, 0},
    {"gl", M_SCOPE, 0},
    {"ca", M_CACHE, 0}, {"cg", M_CACHE, 0}, {"cs", M_CACHE, 0},
    {"lu", M_CACHE, 0}, {"cv", M_CACHE, 0}, {"wb", M_CACHE, 0},
    {"wt", M_CACHE, 0},
    {"shiftamt", M_SHIFTAMT, PTX_F_SHIFTAMT},
    {"f4e", M_MODE, PTX_MODE_F4E}, {"b4e", M_MODE, PTX_MODE_B4E},
    {"rc8", M_MODE, PTX_MODE_RC8}, {"ecl", M_MODE, PTX_MODE_ECL},
    {"ecr", M_MODE, PTX_MODE_ECR}, {"rc16", M_MODE, PTX_MODE_RC16},
    {"clamp", M_MODE, PTX_MODE_CLAMP}, {"wrap", M_MODE, PTX_MODE_WRAP},
    {"shr7", M_MODE, PTX_MODE_SHR7}, {"shr15", M_MODE, PTX_MODE_SHR15},
    {"po", M_PO, PTX_F_PO},
    {"l", M_DIR, PTX_SUB_SHF_L}, {"r", M_DIR, PTX_SUB_SHF_R},
    {"red", M_RED, 0}, {"popc", M_POPC, PTX_SUB_RED_POPC},
    {"NaN", M_NAN, PTX_F_NAN},
    {"noftz", M_NOFTZ, 0},
};

#define FLOAT_MODS (M_FTZ | M_SAT)

/* Modifier classes an opcode accepts. */
static uint64_t allowed(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_BFIND: return M_TYPE | M_SHIFTAMT;
    case PTX_OP_BMSK: case PTX_OP_SHF: return M_TYPE | M_MODE | M_DIR;
    case PTX_OP_PRMT: return M_TYPE | M_MODE;
    case PTX_OP_DP2A: return M_TYPE | M_HILO;
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF:
    case PTX_OP_VMIN: case PTX_OP_VMAX:
        return M_TYPE | M_SAT | M_ATOMOP;
    case PTX_OP_VSHL: case PTX_OP_VSHR:
        return M_TYPE | M_SAT | M_ATOMOP | M_MODE;
    case PTX_OP_VMAD: return M_TYPE | M_SAT | M_MODE | M_PO;
    case PTX_OP_VSET: case PTX_OP_VSET2: case PTX_OP_VSET4:
        return M_TYPE | M_CMP | M_ATOMOP;
    case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2:
    case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2: case PTX_OP_VMAX2:
    case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
    case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4:
        return M_TYPE | M_SAT | M_ATOMOP;
    case PTX_OP_MATCH: return M_TYPE | M_SYNC | M_VOTE;
    case PTX_OP_ADD: case PTX_OP_SUB:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_CC;
    case PTX_OP_ADDC: case PTX_OP_SUBC:
        return M_TYPE | M_CC;
    case PTX_OP_MUL:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_HILO | M_WIDE;
    case PTX_OP_MUL24: return M_TYPE | M_HILO;
    case PTX_OP_MAD:
        return M_TYPE | M_RND | M_SAT | M_FTZ | M_HILO | M_WIDE | M_CC;
    case PTX_OP_MAD24: return M_TYPE | M_HILO | M_SAT;
    case PTX_OP_MADC: return M_TYPE | M_HILO | M_CC;
    case PTX_OP_FMA: return M_TYPE | M_RND | M_SAT | M_FTZ;
    case PTX_OP_DIV: return M_TYPE | M_RND | M_FTZ | M_APPROX;
    case PTX_OP_SQRT: case PTX_OP_RCP:
        return M_TYPE | M_RND | M_FTZ | M_APPROX;
    case PTX_OP_RSQRT: case PTX_OP_EX2: case PTX_OP_LG2: case PTX_OP_SIN:
    case PTX_OP_COS: case PTX_OP_TANH:
        return M_TYPE | M_FTZ | M_APPROX;
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_TESTP:
        return M_TYPE | M_FTZ | (op == PTX_OP_TESTP ? M_CLASS : 0);
    case PTX_OP_MIN: case PTX_OP_MAX: return M_TYPE | M_FTZ | M_NAN;
    case PTX_OP_SETP: return M_TYPE | M_CMP | M_BOOL | M_FTZ;
    case PTX_OP_SET: return M_TYPE | M_CMP | M_BOOL | M_FTZ;
    case PTX_OP_SLCT: return M_TYPE | M_FTZ;
    case PTX_OP_CVT: return M_TYPE | M_RND | M_SAT | M_FTZ;
    case PTX_OP_CVTA: return M_TYPE | M_SPACE | M_TO;
    case PTX_OP_LD:
        return M_TYPE | M_SPACE | M_VEC | M_NC | M_VOL | M_ORDER | M_SCOPE |
               M_CACHE;
    case PTX_OP_LDU: return M_TYPE | M_SPACE | M_VEC;
    case PTX_OP_ST:
        return M_TYPE | M_SPACE | M_VEC | M_VOL | M_ORDER | M_SCOPE | M_CACHE;
    case PTX_OP_ATOM: case PTX_OP_RED:
        return M_TYPE | M_SPACE | M_BOOL | M_ATOMOP | M_ORDER | M_SCOPE | M_NOFTZ;
    case PTX_OP_TEX: case PTX_OP_TLD4: return M_TYPE | M_VEC | M_GEOM | M_TEX;
    case PTX_OP_TXQ: case PTX_OP_SUQ: return M_TYPE | M_TEX;
    case PTX_OP_SULD: case PTX_OP_SUST:
        return M_TYPE | M_VEC | M_GEOM | M_TEX | M_CACHE;
    case PTX_OP_MEMBAR: return M_SCOPE;
    case PTX_OP_FENCE: return M_ORDER | M_SCOPE;
    case PTX_OP_BRA: case PTX_OP_CALL: return M_UNI;
    case PTX_OP_BRX: return M_UNI | M_SHFL;     /* brx[.uni].idx */
    case PTX_OP_RET: case PTX_OP_EXIT: return M_UNI;
    case PTX_OP_BAR:
        return M_SYNC | M_ARRIVE | M_WARP | M_ALIGNED | M_RED | M_POPC |
               M_BOOL | M_TYPE | M_SCOPE;
    case PTX_OP_BARRIER:
        return M_SYNC | M_ARRIVE | M_ALIGNED | M_RED | M_POPC | M_BOOL |
               M_TYPE | M_SCOPE;
    case PTX_OP_SHFL: return M_TYPE | M_SYNC | M_SHFL;
    case PTX_OP_VOTE: return M_TYPE | M_SYNC | M_VOTE | M_UNI;
    case PTX_OP_ACTIVEMASK: return M_TYPE;
    default: return M_TYPE;
    }
}

/* Number of type suffixes an opcode takes. */
static unsigned ntypes(enum ptx_op op)
{
    switch (op) {
    case PTX_OP_BRA: case PTX_OP_CALL: case PTX_OP_RET: case PTX_OP_EXIT:
    case PTX_OP_TRAP:
    case PTX_OP_BRX:
    case PTX_OP_MEMBAR: case PTX_OP_FENCE:
        return 0;
    case PTX_OP_CVT: case PTX_OP_SET: case PTX_OP_SLCT: case PTX_OP_TEX:
    case PTX_OP_DP4A: case PTX_OP_DP2A: case PTX_OP_VSET: case PTX_OP_VSET2:
    case PTX_OP_VSET4:
    case PTX_OP_TLD4:
        return 2;
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN:
    case PTX_OP_VMAX: case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VMAD:
    case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2:
    case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2: case PTX_OP_VMAX2:
    case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
    case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4:
        return 3;
    default:
        return 1;
    }
}

static int find_op(const char *s, size_t n)
{
    for (int i = 0; i < PTX_OP_COUNT; i++) {
        const char *nm = ptx_op_name((enum ptx_op)i);
        if (nm[0] == s[0] && strlen(nm) == n && memcmp(nm, s, n) == 0)
            return i;
    }
    return -1;
}

/* Modifier named s[0..n): the first entry whose class the opcode accepts
 * (ok), else the first of that name (a name may belong to several). */
static const struct mod_ent *find_mod(const char *s, size_t n, uint64_t ok)
{
    const struct mod_ent *first = NULL;
    for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++)
        if (mods[i].name[0] == s[0] && strlen(mods[i].name) == n &&
            memcmp(mods[i].name, s, n) == 0) {
            if (mods[i].cls & ok)
                return &mods[i];
            if (!first)
                first = &mods[i];
        }
    return first;
}

/* Applies an M_TEX modifier (kind << 8 | v) to in; returns NULL or what
 * is wrong with it for this opcode. */
static const char *tex_mod(struct ptx_inst *in, uint16_t val, uint32_t *seen)
{
    unsigned kind = val >> 8, v = val & 0xffu;
    enum ptx_op op = (enum ptx_op)in->op;
    if (kind == TK_B)            /* tld4 .b (blue) or suld/sust .b (raw) */
        kind = op == PTX_OP_TLD4 ? TK_COMP : TK_FMT, v = op == PTX_OP_TLD4 ? 2 : 0;
    bool ok;
    switch (kind) {
    case TK_MODE: ok = op == PTX_OP_TEX || (op == PTX_OP_TXQ && v == PTX_TM_LEVEL); break;
    case TK_COMP: ok = op == PTX_OP_TLD4; break;
    case TK_QUERY: ok = op == PTX_OP_TXQ || op == PTX_OP_SUQ; break;
    case TK_CLAMP: case TK_FMT: ok = op == PTX_OP_SULD || op == PTX_OP_SUST; break;
    default: ok = false; break;
    }
    if (kind == TK_FMT && v == 1 && op != PTX_OP_SUST)
        ok = false;              /* .p: formatted stores only */
    if (!ok)
        return "not valid for this opcode";
    if (*seen & (1u << kind))
        return "duplicate or conflicting";
    *seen |= 1u << kind;
    switch (kind) {
    case TK_MODE: in->tmode = (uint8_t)v; break;
    case TK_COMP: case TK_QUERY: in->tq = (uint8_t)v; break;
    case TK_CLAMP: in->tmode = (uint8_t)v; break;
    case TK_FMT: if (v) in->tq = 1; break;
    default: break;
    }
    return NULL;
}

/* Whether o is a SIMD video instruction (vadd2 .. vset4). */
bool ptx_is_video_simd(enum ptx_op o)
{
    return (o >= PTX_OP_VADD2 && o <= PTX_OP_VSET2) ||
           (o >= PTX_OP_VADD4 && o <= PTX_OP_VSET4);
}

/* Whether o is a video instruction (vadd .. vset4). */
bool ptx_is_video(enum ptx_op o)
{
    return o >= PTX_OP_VADD && o <= PTX_OP_VSET4;
}

/* What a newer opcode still lacks or has wrong in its modifiers (NULL:
 * nothing): modes, op2, comparisons, .sync. */
static const char *check_new_mods(const struct ptx_inst *in, bool sync)
{
    enum ptx_op o = (enum ptx_op)in->op;
    unsigned md = in->mode;
    bool cw = md == PTX_MODE_CLAMP || md == PTX_MODE_WRAP;
    switch (o) {
    case PTX_OP_PRMT:
        return md && md > PTX_MODE_RC16 ? "a prmt mode (.f4e .b4e .rc8 .ecl .ecr .rc16)" : NULL;
    case PTX_OP_BMSK: case PTX_OP_VSHL: case PTX_OP_VSHR:
        if (!cw) return "a mode (.clamp or .wrap)";
        if (o == PTX_OP_BMSK && in->sub) return "no direction (.l/.r)";
        break;
    case PTX_OP_SHF:
        if (!cw) return "a mode (.clamp or .wrap)";
        if (!in->sub) return "a direction (.l or .r)";
        return NULL;
    case PTX_OP_VMAD:
        return md && md != PTX_MODE_SHR7 && md != PTX_MODE_SHR15
                   ? "a scale (.shr7 or .shr15)" : NULL;
    case PTX_OP_MATCH:
        if (!sync) return ".sync (match.any.sync / match.all.sync)";
        if (in->sub != PTX_SUB_ANY && in->sub != PTX_SUB_ALL)
            return "a match mode (.any or .all)";
        return NULL;
    default:
        break;
    }
    if (md && o != PTX_OP_VSHL && o != PTX_OP_VSHR && o != PTX_OP_BMSK)
        return "no mode modifier here";
    if (ptx_is_video(o)) {
        bool simd = ptx_is_video_simd(o);
        if (in->sub && in->sub != PTX_SUB_ADD &&
            (simd || (in->sub != PTX_SUB_MIN && in->sub != PTX_SUB_MAX)))
            return simd ? "no secondary op but .add" : "a secondary op .add, .min or .max";
        if (simd && in->sub == PTX_SUB_ADD && (in->flags & PTX_F_SAT))
            return "no .sat with the .add accumulate";
        bool set = o == PTX_OP_VSET || o == PTX_OP_VSET2 || o == PTX_OP_VSET4;
        if (set && (in->cmp < PTX_CMP_EQ || in->cmp > PTX_CMP_GE))
            return "a comparison (.eq .ne .lt .le .gt .ge)";
        if (!set && in->cmp)
            return "no comparison";
    }
    return NULL;
}

/* The 16-bit float types: bf16/bf16x2 exist here only for atom/red, and
 * their .add (and f16/f16x2's) is the PTX ISA's .add.noftz form; .noftz
 * goes with nothing else. */
static void half_atom_mods(struct ptx_parser *p, const struct ptx_tok *t,
                           const struct ptx_inst *in, const uint8_t *types,
                           unsigned nt, bool noftz)
{
    enum ptx_op o = (enum ptx_op)in->op;
    bool atom = o == PTX_OP_ATOM || o == PTX_OP_RED;
    for (unsigned i = 0; i < nt; i++)
        if ((types[i] == PTX_T_BF16 || types[i] == PTX_T_BF16X2) && !atom)
            ptx_perr(p, t->line, t->col, "type .%s is modelled only for atom and red "
                     "(.add.noftz; other bf16 instructions are sm_80) (%.*s)",
                     ptx_type_name((enum ptx_type)types[i]), (int)t->len, t->s);
    bool half = in->type == PTX_T_F16 || in->type == PTX_T_F16X2 ||
                in->type == PTX_T_BF16 || in->type == PTX_T_BF16X2;
    if (atom && half && in->sub != PTX_SUB_ADD)
        ptx_perr(p, t->line, t->col, "expected .add.noftz: the only %s atomic of the "
                 "PTX ISA (%.*s)", ptx_type_name((enum ptx_type)in->type),
                 (int)t->len, t->s);
    if (atom && half && !noftz)
        ptx_perr(p, t->line, t->col, "expected .noftz: %s.add is defined as "
                 "add.noftz (%.*s)", ptx_op_name(o), (int)t->len, t->s);
    if (noftz && !(atom && half))
        ptx_perr(p, t->line, t->col, "expected no .noftz: it goes with atom/red.add "
                 "on .f16, .f16x2, .bf16, .bf16x2 (%.*s)", (int)t->len, t->s);
}

/* What the modifier loop of ptx_decode_opcode saw beyond in's own fields. */
struct mods_seen {
    uint8_t types[3];
    unsigned nt;                 /* type suffixes */
    bool sync, warp, red, popc, noftz;
    uint32_t tseen;              /* M_TEX kinds seen */
};

/* Applies the modifiers of opcode token t (after its base name, op) to
 * in's fields; what has no field goes to *ms. */
static void apply_mods(struct ptx_parser *p, struct ptx_inst *in,
                       const struct ptx_tok *t, int op, struct mods_seen *ms)
{
    const char *s = t->s, *end = t->s + t->len;
    uint64_t ok = allowed((enum ptx_op)op), seen = 0;
    const char *q = memchr(s, '.', t->len);
    while (q && q < end) {
        const char *m = q + 1;
        const char *nx = memchr(m, '.', (size_t)(end - m));
        size_t ml = nx ? (size_t)(nx - m) : (size_t)(end - m);
        uint32_t col = t->col + (uint32_t)(q - s);
        const struct mod_ent *e = find_mod(m, ml, ok);
        uint64_t cls = e ? (e->cls & ok) : 0;
        if (!e)
            ptx_perr(p, t->line, col, "unknown modifier '.%.*s' (%.*s)", (int)ml,
                     m, (int)t->len, t->s);
        if (!cls)
            ptx_perr(p, t->line, col, "modifier '.%.*s' not valid for %s (%.*s)",
                     (int)ml, m, ptx_op_name((enum ptx_op)op), (int)t->len, t->s);
        if (cls != M_TYPE && cls != M_TEX && (seen & cls))
            ptx_perr(p, t->line, col, "duplicate modifier '.%.*s' (%.*s)", (int)ml,
                     m, (int)t->len, t->s);
        seen |= cls;
        switch (cls) {
        case M_TYPE:
            if (ms->nt >= 3 || ms->nt >= ntypes((enum ptx_op)op))
                ptx_perr(p, t->line, col, "too many type suffixes (%.*s)",
                         (int)t->len, t->s);
            ms->types[ms->nt++] = (uint8_t)e->val;
            break;
        case M_SPACE: in->space = (uint8_t)e->val; break;
        case M_VEC: in->vec = (uint8_t)e->val; break;
        case M_CMP: in->cmp = (uint8_t)e->val; break;
        case M_HILO:
            in->flags |= e->val == PTX_CMP_HI ? PTX_F_HI : PTX_F_LO;
            break;
        case M_RND: in->rnd = (uint8_t)e->val; break;
        case M_MODE: in->mode = (uint8_t)e->val; break;
        case M_RED: ms->red = true; break;
        case M_POPC: ms->popc = true; break;
        case M_GEOM: in->geom = (uint8_t)e->val; break;
        case M_TEX: {
            const char *why = tex_mod(in, e->val, &ms->tseen);
            if (why)
                ptx_perr(p, t->line, col, "modifier '.%.*s' %s (%.*s)", (int)ml,
                         m, why, (int)t->len, t->s);
            break;
        }
        case M_BOOL: case M_ATOMOP: case M_SHFL: case M_VOTE:
        case M_CLASS: case M_ARRIVE: case M_DIR:
            if (in->sub != PTX_SUB_NONE)
                ptx_perr(p, t->line, col, "conflicting modifier '.%.*s' (%.*s)",
                         (int)ml, m, (int)t->len, t->s);
            in->sub = (uint8_t)e->val;
            break;
        case M_UNI:
            if (op == PTX_OP_VOTE) {
                if (in->sub != PTX_SUB_NONE)
                    ptx_perr(p, t->line, col, "conflicting modifier '.uni' (%.*s)",
                             (int)t->len, t->s);
                in->sub = PTX_SUB_UNI;
            } else {
                in->flags |= PTX_F_UNI;
            }
            break;
        case M_SYNC: ms->sync = true; break;
        case M_WARP:
            if (ms->sync)
                ptx_perr(p, t->line, col, "expected .warp before .sync (%.*s)",
                         (int)t->len, t->s);
            ms->warp = true;
            break;
        case M_ORDER: case M_SCOPE: case M_CACHE: break;
        case M_NOFTZ: ms->noftz = true; break;
        default: in->flags |= e->val; break;
        }
        q = nx;
    }
}

/* A modifier opcode o requires and in lacks (NULL: none missing). */
static const char *missing_mod(const struct ptx_inst *in, enum ptx_op o,
                               const struct mods_seen *ms)
{
    unsigned want = ntypes(o);
    if (o == PTX_OP_BAR || o == PTX_OP_BARRIER)
        want = ms->red ? 1 : 0;
    if (ms->nt != want)
        return want == 0 ? "no type suffix"
               : want == 3 ? "three type suffixes"
               : want == 2 ? "two type suffixes" : "a type suffix";
    if ((o == PTX_OP_SETP || o == PTX_OP_SET) && !in->cmp)
        return "a comparison (.eq, .lt, ...)";
    if ((o == PTX_OP_ATOM || o == PTX_OP_RED) && !in->sub)
        return "an atomic operation (.add, .or, ...)";
    if (o == PTX_OP_SHFL && !in->sub)
        return "a shuffle mode (.up, .down, .bfly, .idx)";
    if (o == PTX_OP_VOTE && !in->sub)
        return "a vote mode (.all, .any, .uni, .ballot)";
    if ((o == PTX_OP_TEX || o == PTX_OP_TLD4 || o == PTX_OP_SULD ||
         o == PTX_OP_SUST) && !in->geom)
        return "a geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)";
    if (o == PTX_OP_TLD4 && !(ms->tseen & (1u << TK_COMP)))
        return "a component (.r, .g, .b, .a)";
    if ((o == PTX_OP_TXQ || o == PTX_OP_SUQ) && !in->tq)
        return "a query (.width, .height, ...)";
    if ((o == PTX_OP_SULD || o == PTX_OP_SUST) && !(ms->tseen & (1u << TK_FMT)))
        return o == PTX_OP_SULD ? ".b" : ".b or .p";
    if (o == PTX_OP_TESTP && !in->sub)
        return "a class (.finite, .notanumber, ...)";
    if (o == PTX_OP_CVTA && !in->space)
        return "a state space";
    if (o == PTX_OP_BRX && in->sub != PTX_SUB_IDX)
        return ".idx";
    if ((o == PTX_OP_SETP || o == PTX_OP_SET) && in->sub &&
        in->sub != PTX_SUB_AND && in->sub != PTX_SUB_OR && in->sub != PTX_SUB_XOR)
        return "a boolean operation";
    return check_new_mods(in, ms->sync);
}

/* bar/barrier: folds .sync/.arrive/.warp/.red{.popc,.and,.or} into
 * in->sub; returns what is wrong with them, else need unchanged. */
static const char *bar_mods(struct ptx_inst *in, const struct mods_seen *ms,
                            const char *need)
{
    if (ms->red) {
        enum ptx_sub rs = ms->popc ? PTX_SUB_RED_POPC
                          : in->sub == PTX_SUB_AND ? PTX_SUB_RED_AND
                          : in->sub == PTX_SUB_OR ? PTX_SUB_RED_OR
                                                  : PTX_SUB_NONE;
        if (ms->warp || ms->sync || (ms->popc && in->sub) || rs == PTX_SUB_NONE)
            need = "one reduction .popc, .and or .or after .red";
        else if (ms->types[0] != (rs == PTX_SUB_RED_POPC ? PTX_T_U32 : PTX_T_PRED))
            need = rs == PTX_SUB_RED_POPC ? ".u32 for .red.popc"
                                          : ".pred for .red.and/.or";
        in->sub = (uint8_t)rs;
    } else if (ms->popc || (in->sub && in->sub != PTX_SUB_ARRIVE)) {
        need = ".red before .popc/.and/.or";
    } else if (ms->warp) {
        if (!ms->sync)
            need = ".sync after .warp";
        in->sub = PTX_SUB_WARP_SYNC;
    } else if (ms->sync) {
        if (in->sub)
            need = "one of .sync or .arrive";
        in->sub = PTX_SUB_SYNC;
    } else if (in->sub != PTX_SUB_ARRIVE) {
        need = ".sync or .arrive";
    }
    return need;
}

/* Decodes "ld.global.nc.f32" into in's modifier fields. */
void ptx_decode_opcode(struct ptx_parser *p, struct ptx_inst *in,
                       const struct ptx_tok *t)
{
    const char *s = t->s;
    const char *dot = memchr(s, '.', t->len);
    size_t bl = dot ? (size_t)(dot - s) : t->len;
    int op = find_op(s, bl);
    if (op < 0)
        ptx_perr(p, t->line, t->col, "unknown opcode '%.*s' (%.*s)", (int)bl, s,
                 (int)t->len, t->s);
    in->op = (uint8_t)op;
    struct mods_seen ms = {{0, 0, 0}, 0, false, false, false, false, false, 0};
    apply_mods(p, in, t, op, &ms);
    enum ptx_op o = (enum ptx_op)op;
    const char *need = missing_mod(in, o, &ms);
    if (o == PTX_OP_BAR || o == PTX_OP_BARRIER)
        need = bar_mods(in, &ms, need);
    if (((o == PTX_OP_TEX || o == PTX_OP_TLD4) && in->vec != 4))
        need = ".v4";
    if (need)
        ptx_perr(p, t->line, t->col, "expected %s (%.*s)", need, (int)t->len, t->s);
    unsigned nt = ms.nt;
    in->type = ms.types[0];
    in->type2 = nt >= 2 ? ms.types[1] : ms.types[0];
    in->type3 = nt >= 3 ? ms.types[2] : in->type2;
    if (o == PTX_OP_SHF && nt && in->type != PTX_T_B32)
        ptx_perr(p, t->line, t->col, "expected .b32: shf is defined on .b32 only (%.*s)",
                 (int)t->len, t->s);
    half_atom_mods(p, t, in, ms.types, nt, ms.noftz);
}
