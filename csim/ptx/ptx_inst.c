/* PTX instruction parser: opcode + modifiers into struct ptx_inst fields,
 * operands into the per-opcode slot layout documented in ptx_ir.h. */
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

static bool is_video_simd(enum ptx_op o)
{
    return (o >= PTX_OP_VADD2 && o <= PTX_OP_VSET2) ||
           (o >= PTX_OP_VADD4 && o <= PTX_OP_VSET4);
}

static bool is_video(enum ptx_op o)
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
    if (is_video(o)) {
        bool simd = is_video_simd(o);
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

/* What the modifier loop of decode_opcode saw beyond in's own fields. */
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
static void decode_opcode(struct ptx_parser *p, struct ptx_inst *in,
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

/* ------------------------------------------------------------- operands */

struct raw {
    struct ptx_operand o;
    uint32_t line, col;
    uint8_t lit;               /* token kind of an immediate */
    double d;                  /* PTX_TK_DEC value */
    bool has_pipe;
    struct ptx_operand pipe;
    bool has_coords;
    struct ptx_operand coords;
    bool has_sampler;          /* [tex, sampler, {coords}] */
    struct ptx_operand sampler;
    struct ptx_tok label;      /* PTX_O_LABEL before resolution */
    bool minus;                /* '-' before a register (vmad only) */
};

static void init_opnd(struct ptx_operand *o)
{
    memset(o, 0, sizeof *o);
    o->reg = -1;
    o->sym.index = -1;
}

static int32_t need_reg(struct ptx_parser *p, const struct ptx_tok *t)
{
    if (t->kind != PTX_TK_WORD) {
        char d[64];
        snprintf(d, sizeof d, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
        ptx_perr(p, t->line, t->col, "expected a register (%s)",
                 t->kind == PTX_TK_EOF ? "end of file" : d);
    }
    int32_t r = ptx_find_reg(p, t->s, t->len);
    if (r < 0)
        ptx_perr(p, t->line, t->col, "undefined register (%.*s)", (int)t->len, t->s);
    return r;
}

/* Optional `+ imm`, `+ -imm` or `- imm` offset. */
static int64_t parse_offset(struct ptx_parser *p)
{
    bool neg = false;
    if (ptx_accept(p, '+'))
        neg = ptx_accept(p, '-');
    else if (ptx_accept(p, '-'))
        neg = true;
    else
        return 0;
    struct ptx_tok t;
    ptx_advance(p, &t);
    if (t.kind != PTX_TK_INT)
        ptx_perr(p, t.line, t.col, "expected an integer offset (%.*s)",
                 (int)(t.len > 40 ? 40 : t.len), t.s);
    return neg ? -(int64_t)t.u : (int64_t)t.u;
}

static void parse_vec(struct ptx_parser *p, struct ptx_operand *o)
{
    init_opnd(o);
    o->kind = PTX_O_VEC;
    do {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (o->vec_n == 4)
            ptx_perr(p, t.line, t.col, "more than 4 vector elements (%.*s)",
                     (int)t.len, t.s);
        if (t.kind == PTX_TK_WORD && t.len == 1 && t.s[0] == '_')
            o->vec_regs[o->vec_n++] = -1;
        else if (t.kind == PTX_TK_INT && t.u == 0)
            o->vec_regs[o->vec_n++] = PTX_VEC_ZERO;
        else
            o->vec_regs[o->vec_n++] = need_reg(p, &t);
    } while (ptx_accept(p, ','));
    ptx_expect(p, '}', "closing the vector operand");
}

/* `reg.sel` (video selectors `.b0`, `.h1`, `.h10`, `.b3210`): fills o
 * and returns true when t is a register followed by a selector. */
static bool parse_selected_reg(struct ptx_parser *p, const struct ptx_tok *t,
                               struct ptx_operand *o)
{
    const char *dot = NULL;
    for (size_t i = t->len; i-- > 1;)
        if (t->s[i] == '.') {
            dot = t->s + i;
            break;
        }
    if (!dot)
        return false;
    size_t rl = (size_t)(dot - t->s), sl = t->len - rl - 1;
    int32_t reg = ptx_find_reg(p, t->s, rl);
    if (reg < 0)
        return false;
    const char *q = dot + 1;
    if (sl < 2 || sl > 5 || (q[0] != 'b' && q[0] != 'h'))
        ptx_perr(p, t->line, t->col, "unknown register selector (%.*s)",
                 (int)t->len, t->s);
    unsigned maxd = q[0] == 'b' ? 7 : 3, sel = q[0] == 'b' ? PTX_SEL_B : PTX_SEL_H;
    unsigned n = (unsigned)sl - 1;
    for (unsigned i = 0; i < n; i++) {
        unsigned dg = (unsigned)(q[1 + i] - '0');
        if (q[1 + i] < '0' || dg > maxd)
            ptx_perr(p, t->line, t->col, "unknown register selector (%.*s)",
                     (int)t->len, t->s);
        sel |= dg << (3 * (n - 1 - i));
    }
    o->kind = PTX_O_REG;
    o->reg = reg;
    o->sel = (uint16_t)(sel | ((n - 1) << 12));
    return true;
}

/* `[base{+off}]`, `[imm]`, or a texture/surface address
 * `[tex{, sampler}, {coordinates}]`; the '[' is consumed. */
static void parse_address(struct ptx_parser *p, struct raw *r)
{
    r->o.kind = PTX_O_MEM;
    const struct ptx_tok *b = ptx_peek(p, 0);
    if (b->kind == PTX_TK_WORD) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        int32_t reg = ptx_find_reg(p, t.s, t.len);
        if (reg >= 0) {
            r->o.reg = reg;
        } else if (!ptx_find_sym(p, t.s, t.len, &r->o.sym)) {
            ptx_perr(p, t.line, t.col, "undefined register or symbol (%.*s)",
                     (int)t.len, t.s);
        }
        r->o.imm = parse_offset(p);
    } else if (b->kind == PTX_TK_INT) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        r->o.imm = (int64_t)t.u;
    } else {
        ptx_perr(p, b->line, b->col, "expected a register or symbol in the address (%.*s)",
                 (int)(b->len > 40 ? 40 : b->len), b->s);
    }
    if (ptx_accept(p, ',')) {
        const struct ptx_tok *sp = ptx_peek(p, 0);
        if (sp->kind == PTX_TK_WORD) {      /* independent-mode sampler */
            struct ptx_tok t;
            ptx_advance(p, &t);
            init_opnd(&r->sampler);
            r->sampler.kind = PTX_O_MEM;
            int32_t reg = ptx_find_reg(p, t.s, t.len);
            if (reg >= 0)
                r->sampler.reg = reg;
            else if (!ptx_find_sym(p, t.s, t.len, &r->sampler.sym))
                ptx_perr(p, t.line, t.col, "undefined sampler (%.*s)",
                         (int)t.len, t.s);
            r->has_sampler = true;
            ptx_expect(p, ',', "after the sampler");
        }
        ptx_expect(p, '{', "opening the texture coordinates");
        parse_vec(p, &r->coords);
        r->has_coords = true;
    }
    ptx_expect(p, ']', "closing the address");
}

/* A word operand t: WARP_SZ, a special register, a register (with an
 * optional `|p` predicate), a symbol{+off}, a register with a video
 * selector, or a function address; anything else is an error. */
static void parse_word(struct ptx_parser *p, struct raw *r, const struct ptx_tok *t)
{
    if (t->len == 7 && memcmp(t->s, "WARP_SZ", 7) == 0) {
        r->o.kind = PTX_O_IMM;       /* the predefined constant */
        r->lit = PTX_TK_INT;
        r->o.imm = 32;
        return;
    }
    if (t->s[0] == '%') {
        int sr = ptx_sreg_from_name(t->s, t->len);
        if (sr >= 0) {
            r->o.kind = PTX_O_SREG;
            r->o.sreg = (uint8_t)sr;
            return;
        }
    }
    int32_t reg = ptx_find_reg(p, t->s, t->len);
    if (reg >= 0) {
        r->o.kind = PTX_O_REG;
        r->o.reg = reg;
        if (ptx_accept(p, '|')) {
            struct ptx_tok t2;
            ptx_advance(p, &t2);
            init_opnd(&r->pipe);
            r->pipe.kind = PTX_O_REG;
            r->pipe.reg = need_reg(p, &t2);
            r->has_pipe = true;
            if (p->cur.regs[r->pipe.reg].type != PTX_T_PRED)
                ptx_perr(p, t2.line, t2.col,
                         "expected a .pred register after '|' (%.*s)",
                         (int)t2.len, t2.s);
        }
        return;
    }
    if (ptx_find_sym(p, t->s, t->len, &r->o.sym)) {
        r->o.kind = PTX_O_SYM;
        r->o.imm = parse_offset(p);
        return;
    }
    if (parse_selected_reg(p, t, &r->o))
        return;
    const struct ptx_nent *fe = ptx_ntab_find(&p->mtab, t->s, t->len);
    if (fe && fe->kind == PTX_NK_FUNC) {    /* mov r, fn: its address */
        r->o.kind = PTX_O_FUNC;
        r->o.func = fe->idx;
        return;
    }
    if (t->s[0] == '%' && memchr(t->s, '.', t->len))
        ptx_perr(p, t->line, t->col, "unknown special register (%.*s)",
                 (int)t->len, t->s);
    if (t->s[0] == '%')
        ptx_perr(p, t->line, t->col, "undefined register (%.*s)",
                 (int)t->len, t->s);
    ptx_perr(p, t->line, t->col, "undefined identifier (%.*s)", (int)t->len, t->s);
}

/* One operand into r (a label when want_label: bra's target). */
static void parse_operand(struct ptx_parser *p, struct raw *r, bool want_label)
{
    const struct ptx_tok *pk = ptx_peek(p, 0);
    memset(r, 0, sizeof *r);
    init_opnd(&r->o);
    r->line = pk->line;
    r->col = pk->col;
    if (want_label) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        if (t.kind != PTX_TK_WORD)
            ptx_perr(p, t.line, t.col, "expected a label (%.*s)",
                     (int)(t.len > 40 ? 40 : t.len), t.s);
        r->o.kind = PTX_O_LABEL;
        r->label = t;
        return;
    }
    if (ptx_accept(p, '[')) {
        parse_address(p, r);
        return;
    }
    if (ptx_accept(p, '{')) {
        parse_vec(p, &r->o);
        return;
    }
    if (ptx_accept(p, '!')) {
        struct ptx_tok t;
        ptx_advance(p, &t);
        r->o.kind = PTX_O_REG;
        r->o.reg = need_reg(p, &t);
        r->o.neg = true;
        return;
    }
    bool neg = ptx_accept(p, '-');
    struct ptx_tok t;
    ptx_advance(p, &t);
    switch (t.kind) {
    case PTX_TK_INT:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_INT;
        r->o.imm = (int64_t)(neg ? (uint64_t)0 - t.u : t.u);
        return;
    case PTX_TK_F32:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_F32;
        r->o.imm = (int64_t)(t.u ^ (neg ? 0x80000000u : 0));
        return;
    case PTX_TK_F64:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_F64;
        r->o.imm = (int64_t)(t.u ^ (neg ? 0x8000000000000000ull : 0));
        return;
    case PTX_TK_DEC:
        r->o.kind = PTX_O_IMM;
        r->lit = PTX_TK_DEC;
        r->d = neg ? -t.d : t.d;
        return;
    case PTX_TK_WORD:
        if (neg) {
            int32_t reg = ptx_find_reg(p, t.s, t.len);
            if (reg < 0)
                break;
            r->o.kind = PTX_O_REG;
            r->o.reg = reg;
            r->minus = true;
            return;
        }
        parse_word(p, r, &t);
        return;
    default:
        break;
    }
    ptx_perr(p, t.line, t.col, "expected an operand (%.*s)",
             t.kind == PTX_TK_EOF ? 11 : (int)(t.len > 40 ? 40 : t.len),
             t.kind == PTX_TK_EOF ? "end of file" : t.s);
}

/* ------------------------------------------------------- slot placement */

enum role {
    RL_DST,      /* register destination */
    RL_DSTV,     /* register or vector destination */
    RL_VEC,      /* vector only */
    RL_SRC,      /* reg / imm / sreg */
    RL_SRCSYM,   /* + symbol address */
    RL_SRCV,     /* + vector (st value) */
    RL_MOVSRC,   /* reg / imm / sreg / sym / vec */
    RL_MEM       /* [address] */
};

/* Converts an immediate to the raw bits of slot type t. */
static void type_imm(struct ptx_parser *p, struct raw *r, enum ptx_type t)
{
    bool fl = t == PTX_T_F32 || t == PTX_T_F64 || t == PTX_T_F16 || t == PTX_T_F16X2;
    if (t == PTX_T_F16X2 && r->lit != PTX_TK_INT)
        ptx_perr(p, r->line, r->col,
                 "expected a 32-bit integer pattern for an .f16x2 immediate");
    if (!fl && r->lit == PTX_TK_DEC)
        ptx_perr(p, r->line, r->col, "expected an integer immediate (%g)", r->d);
    r->o.imm = (int64_t)ptx_imm_bits(r->lit, (uint64_t)r->o.imm, r->d, t);
}

static const char *role_what(enum role rl)
{
    switch (rl) {
    case RL_DST: return "a destination register";
    case RL_DSTV: return "a destination register or vector";
    case RL_VEC: return "a vector {..}";
    case RL_MEM: return "an address [..]";
    case RL_SRCSYM: return "a register, immediate or symbol";
    case RL_MOVSRC: return "a register, immediate, symbol, function or vector";
    case RL_SRCV: return "a register, immediate or vector";
    default: return "a register or immediate";
    }
}

static const char *kind_name(uint8_t k)
{
    static const char *const n[] = {"nothing", "register", "immediate",
                                    "special register", "symbol", "address",
                                    "vector", "label", "function",
                                    "target list", "argument list"};
    return k < sizeof n / sizeof n[0] ? n[k] : "?";
}

static void place(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                  unsigned slot, enum role rl, enum ptx_type immt)
{
    uint8_t k = r->o.kind;
    bool ok;
    switch (rl) {
    case RL_DST: ok = k == PTX_O_REG && !r->o.neg; break;
    case RL_DSTV: ok = (k == PTX_O_REG && !r->o.neg) || k == PTX_O_VEC; break;
    case RL_VEC: ok = k == PTX_O_VEC; break;
    case RL_MEM: ok = k == PTX_O_MEM; break;
    case RL_SRC: ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG; break;
    case RL_SRCSYM:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG || k == PTX_O_SYM;
        break;
    case RL_SRCV:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_VEC;
        break;
    default:
        ok = k == PTX_O_REG || k == PTX_O_IMM || k == PTX_O_SREG ||
             k == PTX_O_SYM || k == PTX_O_VEC || k == PTX_O_FUNC;
        break;
    }
    if (!ok)
        ptx_perr(p, r->line, r->col, "expected %s as operand %u of %s (%s)",
                 role_what(rl), slot, ptx_op_name((enum ptx_op)in->op),
                 kind_name(k));
    if (r->o.neg && p->cur.regs[r->o.reg].type != PTX_T_PRED)
        ptx_perr(p, r->line, r->col, "'!' needs a predicate register (%s)",
                 p->cur.regs[r->o.reg].name);
    if (r->minus && in->op != PTX_OP_VMAD)
        ptx_perr(p, r->line, r->col, "'-' before a register is only valid for vmad (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->o.sel && !is_video((enum ptx_op)in->op))
        ptx_perr(p, r->line, r->col, "register selectors are only valid for video instructions (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_pipe && !((in->op == PTX_OP_SHFL || in->op == PTX_OP_SETP ||
                          in->op == PTX_OP_MATCH) && slot == 0))
        ptx_perr(p, r->line, r->col, "unexpected '|' operand (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_sampler && in->op != PTX_OP_TEX && in->op != PTX_OP_TLD4)
        ptx_perr(p, r->line, r->col, "unexpected sampler in address (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (r->has_coords && in->op != PTX_OP_TEX && in->op != PTX_OP_TLD4 &&
        in->op != PTX_OP_SULD && in->op != PTX_OP_SUST)
        ptx_perr(p, r->line, r->col, "unexpected coordinate vector in address (%s)",
                 ptx_op_name((enum ptx_op)in->op));
    if (k == PTX_O_REG && (immt == PTX_T_PRED) !=
                              (p->cur.regs[r->o.reg].type == PTX_T_PRED))
        ptx_perr(p, r->line, r->col, "expected a %s as operand %u of %s (%s)",
                 immt == PTX_T_PRED ? ".pred register" : "non-predicate register",
                 slot, ptx_op_name((enum ptx_op)in->op),
                 p->cur.regs[r->o.reg].name);
    if (k == PTX_O_IMM)
        type_imm(p, r, immt);
    in->o[slot] = r->o;
    if (slot + 1 > in->nopnd)
        in->nopnd = (uint8_t)(slot + 1);
}

static void count_err(struct ptx_parser *p, const struct ptx_tok *opt,
                      const char *want, unsigned got)
{
    ptx_perr(p, opt->line, opt->col, "wrong operand count: expected %s, found %u (%.*s)",
             want, got, (int)opt->len, opt->s);
}

#define MAXRAW 8

/* Whether selector sel (PTX_SEL_*) is valid for slot (0 = d, 1/2 = a/b)
 * of video op o with the given number of lanes (1 scalar, 2, 4). */
static bool video_sel_ok(unsigned sel, unsigned lanes, unsigned slot)
{
    if (!sel)
        return true;
    unsigned n = PTX_SEL_N(sel), used = 0;
    bool byte = (sel & PTX_SEL_B) != 0;
    if (lanes == 1)                     /* .b0-.b3, .h0-.h1 */
        return n == 1 && PTX_SEL_DIGIT(sel, 0) <= (byte ? 3u : 1u);
    if (slot == 0) {                    /* d mask: distinct lanes */
        if (byte != (lanes == 4))
            return false;
        for (unsigned i = 0; i < n; i++) {
            unsigned dg = PTX_SEL_DIGIT(sel, i);
            if (dg >= lanes || (used & (1u << dg)))
                return false;
            used |= 1u << dg;
        }
        return true;
    }
    return byte == (lanes == 4) && n == lanes;   /* .hxy / .bxyzw */
}

/* Operands of the video instructions (layout in ptx_ir.h). */
static void parse_video(struct ptx_parser *p, struct ptx_inst *in,
                        struct raw *r, unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    unsigned lanes = is_video_simd(op) ? (op >= PTX_OP_VADD4 ? 4 : 2) : 1;
    bool scalar = lanes == 1;
    if (scalar && n != 3 && n != 4)
        count_err(p, opt, "3 or 4 operands", n);
    if (!scalar && n != 4)
        count_err(p, opt, "4 operands (d, a, b, c)", n);
    if (scalar && n == 3 && in->sub)
        count_err(p, opt, "4 operands with a secondary operation", n);
    if (op == PTX_OP_VMAD && n != 4)
        count_err(p, opt, "4 operands (d, a, b, c)", n);
    for (unsigned i = 0; i < n; i++) {
        place(p, in, &r[i], i, i ? RL_SRC : RL_DST, PTX_T_U32);
        in->o[i].neg = r[i].minus;
        if (i == 3 && r[i].o.sel)
            ptx_perr(p, r[i].line, r[i].col, "unexpected selector on c (%s)",
                     ptx_op_name(op));
        if (!video_sel_ok(r[i].o.sel, lanes, i) ||
            (i == 0 && scalar && r[i].o.sel && (n != 4 || in->sub ||
                                                 op == PTX_OP_VMAD)))
            ptx_perr(p, r[i].line, r[i].col, "invalid selector for operand %u of %s",
                     i, ptx_op_name(op));
    }
    if (scalar && n == 4 && !in->sub && !in->o[0].sel && op != PTX_OP_VMAD)
        ptx_perr(p, r[0].line, r[0].col,
                 "expected a secondary operation (.add .min .max) or a d selector (%s)",
                 ptx_op_name(op));
}

/* Operands of the instruction up to its ';' into r[] (MAXRAW at most);
 * returns how many. */
static unsigned parse_operand_list(struct ptx_parser *p, const struct ptx_tok *opt,
                                   enum ptx_op op, struct raw *r)
{
    unsigned n = 0;
    const struct ptx_tok *pk = ptx_peek(p, 0);
    if (!(pk->kind == PTX_TK_PUNCT && pk->ch == ';')) {
        do {
            if (n == MAXRAW) {
                const struct ptx_tok *t = ptx_peek(p, 0);
                ptx_perr(p, t->line, t->col, "too many operands (%.*s)",
                         (int)opt->len, opt->s);
            }
            parse_operand(p, &r[n], op == PTX_OP_BRA);
            n++;
        } while (ptx_accept(p, ','));
    }
    const struct ptx_tok *t = ptx_peek(p, 0);
    if (!(t->kind == PTX_TK_PUNCT && t->ch == ';')) {
        char d[64];
        snprintf(d, sizeof d, "%.*s", (int)(t->len > 40 ? 40 : t->len), t->s);
        ptx_perr(p, t->line, t->col, "expected ';' after the operands of %.*s (%s)",
                 (int)opt->len, opt->s, t->kind == PTX_TK_EOF ? "end of file" : d);
    }
    ptx_advance(p, NULL);
    return n;
}

/* Slot placement of the integer, float, logic, conversion, move and
 * comparison instructions; false when op is none of them. */
static bool place_arith(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                        unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type ty = (enum ptx_type)in->type, t2 = (enum ptx_type)in->type2;
    switch (op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MUL24:
    case PTX_OP_DIV: case PTX_OP_REM: case PTX_OP_MIN: case PTX_OP_MAX:
    case PTX_OP_COPYSIGN: case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR:
    case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_ADDC: case PTX_OP_SUBC:
        if (n != 3)
            count_err(p, opt, "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC,
              (op == PTX_OP_SHL || op == PTX_OP_SHR) ? PTX_T_U32 : ty);
        return true;
    case PTX_OP_MAD: case PTX_OP_MAD24: case PTX_OP_MADC: case PTX_OP_FMA:
    case PTX_OP_SAD: case PTX_OP_BFE: case PTX_OP_PRMT: case PTX_OP_SELP:
    case PTX_OP_SLCT:
        if (n != 4)
            count_err(p, opt, "4 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_BFE ? ty : ty);
        place(p, in, &r[2], 2, RL_SRC, op == PTX_OP_BFE ? PTX_T_U32 : ty);
        place(p, in, &r[3], 3, RL_SRC,
              op == PTX_OP_BFE ? PTX_T_U32 : op == PTX_OP_SELP ? PTX_T_PRED
              : op == PTX_OP_SLCT ? t2 : ty);
        return true;
    case PTX_OP_BFI:
        if (n != 5)
            count_err(p, opt, "5 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_U32);
        place(p, in, &r[4], 4, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_CVT:
        if (ty == PTX_T_F16X2) {        /* cvt.rn.f16x2.f32 d, a, b */
            if (n != 3)
                count_err(p, opt, "3 operands (d, a, b)", n);
            place(p, in, &r[0], 0, RL_DST, ty);
            place(p, in, &r[1], 1, RL_SRC, t2);
            place(p, in, &r[2], 2, RL_SRC, t2);
            return true;
        }
        /* fall through */
    case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_NOT: case PTX_OP_CNOT:
    case PTX_OP_POPC: case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_SQRT:
    case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2: case PTX_OP_LG2:
    case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH: case PTX_OP_TESTP:
    case PTX_OP_BFIND:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, op == PTX_OP_CVT ? t2 : ty);
        return true;
    case PTX_OP_CVTA:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRCSYM, ty);
        return true;
    case PTX_OP_MOV:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_DSTV, ty);
        place(p, in, &r[1], 1, RL_MOVSRC, ty);
        if (in->o[0].kind == PTX_O_VEC && in->o[1].kind == PTX_O_VEC)
            ptx_perr(p, r[1].line, r[1].col, "expected a scalar source for a vector destination (mov)");
        return true;
    case PTX_OP_SETP:
        if (n != 3 && n != 4)
            count_err(p, opt, "3 or 4 operands", n);
        if ((n == 4) != (in->sub != PTX_SUB_NONE))
            count_err(p, opt, in->sub ? "4 operands with a boolean operation"
                                      : "3 operands without a boolean operation", n);
        place(p, in, &r[0], 0, RL_DST, PTX_T_PRED);
        if (r[0].has_pipe) {
            in->o[1] = r[0].pipe;
            r[0].has_pipe = false;
        }
        place(p, in, &r[1], 2, RL_SRC, t2);
        place(p, in, &r[2], 3, RL_SRC, t2);
        if (n == 4)
            place(p, in, &r[3], 4, RL_SRC, PTX_T_PRED);
        return true;
    case PTX_OP_SET:
        if ((n == 4) != (in->sub != PTX_SUB_NONE) || (n != 3 && n != 4))
            count_err(p, opt, in->sub ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, t2);
        place(p, in, &r[2], 2, RL_SRC, t2);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, PTX_T_PRED);
        return true;
    case PTX_OP_BMSK:
        if (n != 3)
            count_err(p, opt, "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_U32);
        place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_FNS:
        if (n != 4)
            count_err(p, opt, "4 operands (d, mask, base, offset)", n);
        place(p, in, &r[0], 0, RL_DST, PTX_T_U32);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_S32);
        return true;
    case PTX_OP_LOP3:
        if (n != 5)
            count_err(p, opt, "5 operands (d, a, b, c, immLut)", n);
        for (unsigned i = 0; i < 4; i++)
            place(p, in, &r[i], i, i ? RL_SRC : RL_DST, ty);
        if (r[4].o.kind != PTX_O_IMM)
            ptx_perr(p, r[4].line, r[4].col, "expected an immediate truth table (lop3)");
        place(p, in, &r[4], 4, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_SHF: case PTX_OP_DP4A: case PTX_OP_DP2A:
        if (n != 4)
            count_err(p, opt, "4 operands", n);
        place(p, in, &r[0], 0, RL_DST, op == PTX_OP_SHF ? ty : PTX_T_U32);
        place(p, in, &r[1], 1, RL_SRC, ty);
        place(p, in, &r[2], 2, RL_SRC, t2);
        place(p, in, &r[3], 3, RL_SRC, PTX_T_U32);
        if (op == PTX_OP_DP2A && !(in->flags & (PTX_F_LO | PTX_F_HI)))
            ptx_perr(p, opt->line, opt->col, "expected .lo or .hi (%.*s)",
                     (int)opt->len, opt->s);
        return true;
    default:
        return false;
    }
}

/* Slot placement of loads, stores, atomics and reductions; false when op
 * is none of them. */
static bool place_mem(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_LD: case PTX_OP_LDU:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, in->vec > 1 ? RL_VEC : RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        return true;
    case PTX_OP_ST:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, in->vec > 1 ? RL_VEC : RL_SRC, ty);
        return true;
    case PTX_OP_ATOM:
        if (n != (in->sub == PTX_SUB_CAS ? 4u : 3u))
            count_err(p, opt, in->sub == PTX_SUB_CAS ? "4 operands" : "3 operands", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_MEM, ty);
        place(p, in, &r[2], 2, RL_SRC, ty);
        if (n == 4)
            place(p, in, &r[3], 3, RL_SRC, ty);
        return true;
    case PTX_OP_RED:
        if (n != 2)
            count_err(p, opt, "2 operands", n);
        if (in->sub == PTX_SUB_CAS || in->sub == PTX_SUB_EXCH)
            ptx_perr(p, opt->line, opt->col, "expected a reduction operation (%.*s)",
                     (int)opt->len, opt->s);
        place(p, in, &r[0], 0, RL_MEM, ty);
        place(p, in, &r[1], 1, RL_SRC, ty);
        return true;
    default:
        return false;
    }
}

/* tex/tld4: d, [texture{, sampler}, {coordinates}]{, lod | , dPdx, dPdy}. */
static void place_tex_fetch(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                            unsigned n, const struct ptx_tok *opt)
{
    enum ptx_op op = (enum ptx_op)in->op;
    enum ptx_type ty = (enum ptx_type)in->type;
    unsigned want = in->tmode == PTX_TM_LEVEL ? 3u : in->tmode == PTX_TM_GRAD ? 4u : 2u;
    if (n < 2 || !r[1].has_coords)
        count_err(p, opt, "a vector and [texture, {coordinates}]", n);
    if (n > want)
        ptx_perr(p, r[want].line, r[want].col,
                 "texture coordinate offsets and depth compare are not supported "
                 "(operand %u of %.*s)", want, (int)opt->len, opt->s);
    if (n != want)
        count_err(p, opt, want == 2 ? "2 operands (d, [a, c])"
                  : want == 3 ? "3 operands (d, [a, c], lod)"
                  : "4 operands (d, [a, c], dPdx, dPdy)", n);
    place(p, in, &r[0], 0, RL_VEC, ty);
    if (in->o[0].vec_n != 4)
        ptx_perr(p, r[0].line, r[0].col, "expected 4 destination registers (%s)",
                 ptx_op_name(op));
    in->o[2] = r[1].coords;
    r[1].has_coords = false;
    if (r[1].has_sampler) {
        in->o[5] = r[1].sampler;
        r[1].has_sampler = false;
    }
    place(p, in, &r[1], 1, RL_MEM, ty);
    in->nopnd = 3;
    if (in->tmode == PTX_TM_LEVEL)
        place(p, in, &r[2], 3, RL_SRC, PTX_T_F32);
    if (in->tmode == PTX_TM_GRAD) {
        place(p, in, &r[2], 3, RL_VEC, PTX_T_F32);
        place(p, in, &r[3], 4, RL_VEC, PTX_T_F32);
    }
    if (in->o[5].kind == PTX_O_MEM)
        in->nopnd = 6;
}

/* suld: d, [surface, {coordinates}]; sust: [surface, {coordinates}], value. */
static void place_surface(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                          unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    bool ld = in->op == PTX_OP_SULD;
    unsigned ai = ld ? 1 : 0, vi = ld ? 0 : 1;
    if (n != 2 || !r[ai].has_coords)
        count_err(p, opt, ld ? "d, [surface, {coordinates}]"
                             : "[surface, {coordinates}], value", n);
    struct ptx_operand co = r[ai].coords;
    r[ai].has_coords = false;
    /* nvcc writes a scalar as a 1-element vector: suld.b.2d.b32 {%r1} */
    if (in->vec <= 1 && r[vi].o.kind == PTX_O_VEC && r[vi].o.vec_n == 1 &&
        r[vi].o.vec_regs[0] >= 0) {
        r[vi].o.kind = PTX_O_REG;
        r[vi].o.reg = r[vi].o.vec_regs[0];
    }
    if (ld)
        place(p, in, &r[0], 0, in->vec > 1 ? RL_VEC : RL_DST, ty);
    place(p, in, &r[ai], ai, RL_MEM, ty);
    if (!ld)
        place(p, in, &r[1], 1, in->vec > 1 ? RL_VEC : RL_SRC, ty);
    if (in->vec > 1 && in->o[vi].vec_n != in->vec)
        ptx_perr(p, r[vi].line, r[vi].col, "expected %u vector elements (%u)",
                 in->vec, in->o[vi].vec_n);
    in->o[2] = co;
    in->nopnd = 3;
}

/* Slot placement of the texture and surface instructions; false when op
 * is none of them. */
static bool place_tex(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    switch ((enum ptx_op)in->op) {
    case PTX_OP_TEX: case PTX_OP_TLD4:
        place_tex_fetch(p, in, r, n, opt);
        return true;
    case PTX_OP_TXQ: case PTX_OP_SUQ: {
        unsigned want = in->tmode == PTX_TM_LEVEL ? 3u : 2u;
        if (n != want)
            count_err(p, opt, want == 3 ? "3 operands (d, [a], lod)" : "2 operands (d, [a])", n);
        place(p, in, &r[0], 0, RL_DST, (enum ptx_type)in->type);
        place(p, in, &r[1], 1, RL_MEM, (enum ptx_type)in->type);
        if (want == 3)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_S32);
        return true;
    }
    case PTX_OP_SULD: case PTX_OP_SUST:
        place_surface(p, in, r, n, opt);
        return true;
    default:
        return false;
    }
}

/* bar/barrier: {a{, b}} or, with .red, d, a{, b}, {!}c. */
static void place_bar(struct ptx_parser *p, struct ptx_inst *in, struct raw *r,
                      unsigned n, const struct ptx_tok *opt)
{
    if (in->sub == PTX_SUB_RED_POPC || in->sub == PTX_SUB_RED_AND ||
        in->sub == PTX_SUB_RED_OR) {      /* d, a{, b}, {!}c */
        if (n != 3 && n != 4)
            count_err(p, opt, "3 or 4 operands (d, a, [b,] c)", n);
        place(p, in, &r[0], 0, RL_DST, (enum ptx_type)in->type);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_U32);
        if (n == 4)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_U32);
        place(p, in, &r[n - 1], 3, RL_SRC, PTX_T_PRED);
        in->nopnd = 4;
        return;
    }
    if (in->sub == PTX_SUB_WARP_SYNC) {
        if (n != 1)
            count_err(p, opt, "1 operand (membermask)", n);
    } else if (n != 1 && n != 2) {
        count_err(p, opt, "1 or 2 operands", n);
    }
    for (unsigned i = 0; i < n; i++)
        place(p, in, &r[i], i, RL_SRC, PTX_T_U32);
}

/* Slot placement of control flow, barriers and warp collectives; false
 * when op is none of them. idx: the instruction's index (branch fixups). */
static bool place_control(struct ptx_parser *p, struct ptx_inst *in, uint32_t idx,
                          struct raw *r, unsigned n, const struct ptx_tok *opt)
{
    enum ptx_type ty = (enum ptx_type)in->type;
    switch ((enum ptx_op)in->op) {
    case PTX_OP_RET: case PTX_OP_EXIT: case PTX_OP_MEMBAR: case PTX_OP_FENCE:
    case PTX_OP_TRAP:
        if (n != 0)
            count_err(p, opt, "no operands", n);
        return true;
    case PTX_OP_BRA:
        if (n != 1)
            count_err(p, opt, "1 label", n);
        in->o[0] = r[0].o;
        in->nopnd = 1;
        ptx_add_fixup(p, idx, 0, &r[0].label);
        return true;
    case PTX_OP_BAR: case PTX_OP_BARRIER:
        place_bar(p, in, r, n, opt);
        return true;
    case PTX_OP_SHFL:
        if (n != 4 && n != 5)
            count_err(p, opt, "5 operands (d[|p], a, b, c, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        if (r[0].has_pipe) {
            in->o[1] = r[0].pipe;
            in->flags |= PTX_F_SHFL_P;
        }
        place(p, in, &r[1], 2, RL_SRC, ty);
        place(p, in, &r[2], 3, RL_SRC, PTX_T_U32);
        place(p, in, &r[3], 4, RL_SRC, PTX_T_U32);
        if (n == 5)
            place(p, in, &r[4], 5, RL_SRC, PTX_T_B32);
        in->nopnd = 6;
        return true;
    case PTX_OP_VOTE:
        if (n != 3 && n != 2)
            count_err(p, opt, "3 operands (d, a, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        place(p, in, &r[1], 1, RL_SRC, PTX_T_PRED);
        if (n == 3)
            place(p, in, &r[2], 2, RL_SRC, PTX_T_B32);
        in->nopnd = 3;
        return true;
    case PTX_OP_ACTIVEMASK:
        if (n != 1)
            count_err(p, opt, "1 operand", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        return true;
    case PTX_OP_NANOSLEEP:
        if (n != 1)
            count_err(p, opt, "1 operand (t)", n);
        place(p, in, &r[0], 0, RL_SRC, PTX_T_U32);
        return true;
    case PTX_OP_MATCH:
        if (n != 3)
            count_err(p, opt, "3 operands (d[|p], a, membermask)", n);
        place(p, in, &r[0], 0, RL_DST, ty);
        if (r[0].has_pipe) {
            if (in->sub != PTX_SUB_ALL)
                ptx_perr(p, r[0].line, r[0].col, "only match.all writes a predicate (d|p)");
            in->o[1] = r[0].pipe;
        }
        place(p, in, &r[1], 2, RL_SRC, ty);
        place(p, in, &r[2], 3, RL_SRC, PTX_T_B32);
        in->nopnd = 4;
        return true;
    default:
        return false;
    }
}

void ptx_parse_inst(struct ptx_parser *p, int32_t guard, bool guard_neg,
                    uint32_t gline, uint32_t gcol)
{
    struct ptx_tok opt;
    ptx_advance(p, &opt);
    uint32_t idx = p->cur.ninsts;
    struct ptx_inst *in = ptx_new_inst(p);
    in->guard = guard;
    in->guard_neg = guard_neg;
    in->line = opt.line;
    in->col = opt.col;
    (void)gline;
    (void)gcol;
    {
        const char *dot = memchr(opt.s, '.', opt.len);
        if (ptx_mma_is_opcode(opt.s, dot ? (size_t)(dot - opt.s) : opt.len)) {
            ptx_mma_parse(p, in, &opt);     /* wmma.*, mma: ptx_mma.c */
            return;
        }
    }
    decode_opcode(p, in, &opt);
    enum ptx_op op = (enum ptx_op)in->op;
    if (op == PTX_OP_CALL) {
        ptx_parse_call(p, in);
        return;
    }
    if (op == PTX_OP_BRX) {
        ptx_parse_brx(p, in, &opt);
        return;
    }
    struct raw r[MAXRAW];
    unsigned n = parse_operand_list(p, &opt, op, r);
    bool placed = place_control(p, in, idx, r, n, &opt) ||
                  place_arith(p, in, r, n, &opt) || place_mem(p, in, r, n, &opt) ||
                  place_tex(p, in, r, n, &opt);
    if (!placed && is_video(op))
        parse_video(p, in, r, n, &opt);
    else if (!placed)
        ptx_perr(p, opt.line, opt.col, "unsupported instruction (%.*s)",
                 (int)opt.len, opt.s);
    if (op == PTX_OP_SETP && p->cur.regs[in->o[0].reg].type != PTX_T_PRED)
        ptx_perr(p, r[0].line, r[0].col, "expected a .pred destination (%s)",
                 p->cur.regs[in->o[0].reg].name);
    if ((op == PTX_OP_LD || op == PTX_OP_LDU || op == PTX_OP_ST) && in->vec > 1) {
        unsigned s = op == PTX_OP_ST ? 1 : 0;
        if (in->o[s].vec_n != in->vec)
            ptx_perr(p, r[s].line, r[s].col, "expected %u vector elements (%u)",
                     in->vec, in->o[s].vec_n);
    }
}
