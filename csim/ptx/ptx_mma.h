/* Tensor-core instructions (wmma.load/store/mma, mma.sync): the parser
 * hook and the shape/type tables exec and the printer share. Operand
 * layout and field meanings in ptx_ir.h; semantics in
 * docs/exec-semantics.md ("Tensor cores"). */
#ifndef PTX_MMA_H
#define PTX_MMA_H

#include <stdbool.h>
#include <stddef.h>
#include "ptx/ptx_ir.h"

struct ptx_parser;
struct ptx_tok;

/* M, N, K of an enum ptx_mma_shape (0s for PTX_MMA_NONE). */
void ptx_mma_dims(unsigned shape, unsigned *m, unsigned *n, unsigned *k);
/* Elements of enum ptx_mma_type mt packed in one 32-bit register (f16 2,
 * s8/u8 4, s4/u4 8, b1 32, f32/s32 1). */
unsigned ptx_mma_per_reg(unsigned mt);
/* Bits of one element of mt (32 / ptx_mma_per_reg). */
unsigned ptx_mma_elem_bits(unsigned mt);
/* Name of an enum ptx_mma_type without the dot ("s8"), "" for NONE. */
const char *ptx_mma_type_name(unsigned mt);
/* Registers per lane of fragment frag (enum ptx_mma_frag) of element type
 * mt in shape; sync: an mma.sync fragment rather than a wmma one. */
unsigned ptx_mma_frag_regs(unsigned shape, unsigned frag, unsigned mt, bool sync);
/* Whether an opcode word's base (the text before its first dot) is
 * "wmma" or "mma". */
bool ptx_mma_is_opcode(const char *s, size_t base_len);
/* Parses a wmma/mma instruction whose opcode token is t (modifiers and
 * operands through the ';') into in; errors unwind through ptx_perr. */
void ptx_mma_parse(struct ptx_parser *p, struct ptx_inst *in, const struct ptx_tok *t);
/* Writes the opcode with its modifiers as PTX spells it into buf (n
 * bytes); returns snprintf's count. */
int ptx_mma_format(char *buf, size_t n, const struct ptx_inst *in);

#endif
