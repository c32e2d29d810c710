/* Human-readable views of a parsed PTX module: the `lockstep check`
 * report and one-line disassembly for error messages. */
#ifndef PTX_PRINT_H
#define PTX_PRINT_H

#include <stddef.h>
#include <stdio.h>
#include "ptx/ptx_ir.h"

/* Writes the check report of m to out: per function its kind, parameters
 * (name, type, size, offset), register count, static shared bytes, local
 * bytes, instruction count, and every branch with its PTX line and its
 * reconvergence PC and line. Returns 0, or -1 on a write error. */
int ptx_check_print(FILE *out, const struct ptx_module *m);

/* 1 when control can reach the end of f's body without ret or exit (the
 * last instruction falls through, or a branch targets a label at the very
 * end); the model returns there as ret would. */
int ptx_func_falls_off(const struct ptx_func *f);

/* Formats instruction in of f as "pc N (line L): @!%p0 bra.uni pc 7" into
 * buf (always NUL-terminated when n > 0; truncated to fit). */
void ptx_inst_format(char *buf, size_t n, const struct ptx_func *f,
                     const struct ptx_inst *in);

#endif
