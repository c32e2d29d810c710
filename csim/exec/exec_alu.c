/* exec_alu(): decodes the opcode once per warp instruction and hands the
 * guard-passing lanes to the unit that implements it (exec_int.c,
 * exec_float.c, exec_sfu.c, exec_cmp.c, exec_cvt.c, exec_video.c). */
#include "exec/exec_lane.h"

int exec_alu(struct exec_warp *w, const struct ptx_inst *in, uint32_t mask,
             struct exec_result *res, struct exec_error *err)
{
    uint32_t m = exec_guard_mask(w, in, mask);
    if (res) {
        res->active = m;
        res->taken = 0;
        res->space = 0;
        res->access_bytes = 0;
        res->is_store = false;
    }
    if (!m) return 0;
    int fl = exec_tfloat(in->type);
    switch (in->op) {
    case PTX_OP_ADD: case PTX_OP_SUB: case PTX_OP_MUL: case PTX_OP_MAD:
    case PTX_OP_DIV: case PTX_OP_ABS: case PTX_OP_NEG: case PTX_OP_MIN:
    case PTX_OP_MAX:
        return fl ? exec_float_arith(w, in, m, err)
                  : exec_int_arith(w, in, m, err);
    case PTX_OP_ADDC: case PTX_OP_SUBC: case PTX_OP_MUL24: case PTX_OP_MAD24:
    case PTX_OP_MADC: case PTX_OP_SAD: case PTX_OP_REM:
        return exec_int_arith(w, in, m, err);
    case PTX_OP_FMA: case PTX_OP_COPYSIGN: case PTX_OP_TESTP:
        return exec_float_arith(w, in, m, err);
    case PTX_OP_SQRT: case PTX_OP_RSQRT: case PTX_OP_RCP: case PTX_OP_EX2:
    case PTX_OP_LG2: case PTX_OP_SIN: case PTX_OP_COS: case PTX_OP_TANH:
        return exec_sfu(w, in, m, err);
    case PTX_OP_AND: case PTX_OP_OR: case PTX_OP_XOR: case PTX_OP_NOT:
    case PTX_OP_CNOT: case PTX_OP_SHL: case PTX_OP_SHR: case PTX_OP_POPC:
    case PTX_OP_CLZ: case PTX_OP_BREV: case PTX_OP_BFE: case PTX_OP_BFI:
    case PTX_OP_PRMT:
        return exec_int_bits(w, in, m, err);
    case PTX_OP_BFIND: case PTX_OP_BMSK: case PTX_OP_FNS: case PTX_OP_LOP3:
    case PTX_OP_SHF: case PTX_OP_DP4A: case PTX_OP_DP2A:
        return exec_int_misc(w, in, m, err);
    case PTX_OP_VADD: case PTX_OP_VSUB: case PTX_OP_VABSDIFF: case PTX_OP_VMIN:
    case PTX_OP_VMAX: case PTX_OP_VSHL: case PTX_OP_VSHR: case PTX_OP_VMAD:
    case PTX_OP_VSET: case PTX_OP_VADD2: case PTX_OP_VSUB2: case PTX_OP_VAVRG2:
    case PTX_OP_VABSDIFF2: case PTX_OP_VMIN2: case PTX_OP_VMAX2:
    case PTX_OP_VSET2: case PTX_OP_VADD4: case PTX_OP_VSUB4: case PTX_OP_VAVRG4:
    case PTX_OP_VABSDIFF4: case PTX_OP_VMIN4: case PTX_OP_VMAX4:
    case PTX_OP_VSET4:
        return exec_video(w, in, m, err);
    case PTX_OP_SETP: case PTX_OP_SET: case PTX_OP_SELP: case PTX_OP_SLCT:
        return exec_cmp(w, in, m, err);
    case PTX_OP_CVT:
        return exec_cvt(w, in, m, err);
    case PTX_OP_MOV:
        return exec_mov(w, in, m, err);
    case PTX_OP_CVTA:
        return exec_fail(err, in, "cvta is executed by the memory unit");
    default:
        return exec_fail(err, in, "not an ALU/SFU instruction");
    }
}
