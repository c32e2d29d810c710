/* Parser internals shared by ptx_parse.c (module, declarations, scopes)
 * and ptx_inst.c (instructions). Not part of the public contract. */
#ifndef PTX_PSTATE_H
#define PTX_PSTATE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include "ptx/ptx_arena.h"
#include "ptx/ptx_ir.h"
#include "ptx/ptx_lex.h"

enum { PTX_NK_REG = 1, PTX_NK_SYM, PTX_NK_FUNC, PTX_NK_LABEL };

/* One binding of a name; prev is the binding it shadows (-1 = none). */
struct ptx_nent {
    const char *s;
    uint32_t len;
    uint8_t kind;          /* PTX_NK_* */
    int32_t idx;           /* reg/sym/func index, label inst index */
    uint32_t count;        /* %r<N> ranges: N (0 = plain name) */
    uint32_t depth;        /* scope depth of the declaration */
    int32_t prev;
    int32_t slot;          /* hash slot that binds it */
};

struct ptx_nslot {
    const char *s;
    uint32_t len, hash;
    int32_t ent;           /* current binding, -1 when popped */
};

/* Scoped name table: open-addressing hash + stack of bindings. */
struct ptx_ntab {
    struct ptx_nslot *slots;
    uint32_t cap, used;
    struct ptx_nent *ents;
    uint32_t nents, capents;
};

struct ptx_fixup {          /* branch to a label not yet seen */
    uint32_t inst, slot;
    const char *s;
    uint32_t len, line, col;
};

struct ptx_callref {        /* call target checked at end of module */
    int32_t func;
    uint32_t line, col;
};

#define PTX_LOOKAHEAD 4

struct ptx_parser {
    jmp_buf jb;
    struct ptx_diag *diag;
    const char *file;
    struct ptx_lexer lx;
    struct ptx_tok tk[PTX_LOOKAHEAD];
    unsigned tk_head, tk_n;
    struct ptx_arena *a;
    struct ptx_module *m;
    uint32_t funcs_cap, msyms_cap;
    bool *func_has_body;      /* per module func, malloc'd */
    uint32_t *func_decl_line;
    struct ptx_ntab mtab;     /* module scope: syms and funcs */
    struct ptx_ntab ftab;     /* function scope: regs and body syms */
    struct ptx_ntab ltab;     /* labels of the current function */
    uint32_t depth;
    /* function being built */
    struct ptx_func cur;
    int32_t cur_idx;
    uint32_t insts_cap, regs_cap, syms_cap;
    struct ptx_fixup *fix;
    uint32_t nfix, capfix;
    struct ptx_callref *calls;
    uint32_t ncalls, capcalls;
    int32_t *imp;             /* module sym -> imported func sym (+gen) */
    uint32_t *imp_gen;
    uint32_t imp_cap, gen;
    uint32_t extern_align;    /* max align of extern shared in cur */
    uint64_t local_end;       /* local segment bytes of cur */
    uint64_t total_regs;      /* registers declared in the module */
    uint64_t total_init;      /* initialiser bytes in the module */
};

/* Reports "file:line:col: error: msg" into the diag and unwinds to
 * ptx_parse (never returns). */
_Noreturn void ptx_perr(struct ptx_parser *p, uint32_t line, uint32_t col,
                        const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Token k ahead (0 = current) without consuming it. */
const struct ptx_tok *ptx_peek(struct ptx_parser *p, unsigned k);
/* Consumes and returns the current token (copied into *out if non-NULL). */
void ptx_advance(struct ptx_parser *p, struct ptx_tok *out);
/* True (and consumed) when the current token is punctuation c. */
bool ptx_accept(struct ptx_parser *p, char c);
/* Consumes punctuation c or reports "expected 'c' what". */
void ptx_expect(struct ptx_parser *p, char c, const char *what);
/* Arena allocation that unwinds with an error when out of memory. */
void *ptx_palloc(struct ptx_parser *p, size_t n);
/* Current binding of name s[0..len) in t, or NULL. */
const struct ptx_nent *ptx_ntab_find(const struct ptx_ntab *t, const char *s,
                                     uint32_t len);
/* Resolves a register name (plain or %r<N> range member): index or -1. */
int32_t ptx_find_reg(struct ptx_parser *p, const char *s, uint32_t len);
/* Resolves a symbol name visible in the current function into *ref
 * (module shared/local symbols are imported into the function). Returns
 * false if the name is not a symbol. */
bool ptx_find_sym(struct ptx_parser *p, const char *s, uint32_t len,
                  struct ptx_symref *ref);
/* Module function index of a call target, declaring a placeholder for an
 * unknown name (an error at the end of the module unless a declaration
 * follows); -1 if the name is not a function. Records the call site. */
int32_t ptx_find_funcref(struct ptx_parser *p, const char *s, uint32_t len,
                         uint32_t line, uint32_t col);
/* Appends a new instruction to the current function and returns it. */
struct ptx_inst *ptx_new_inst(struct ptx_parser *p);
/* Records a branch to a label resolved at the end of the function. */
void ptx_add_fixup(struct ptx_parser *p, uint32_t inst, uint32_t slot,
                   const struct ptx_tok *t);
/* Parses one instruction (after an optional guard); the current token is
 * the opcode word. */
void ptx_parse_inst(struct ptx_parser *p, int32_t guard, bool guard_neg,
                    uint32_t gline, uint32_t gcol);
/* Symbol of a resolved reference. */
const struct ptx_symbol *ptx_ref_sym(const struct ptx_parser *p,
                                     struct ptx_symref r);
/* Scalar type named by a modifier word without its dot (e.g. "u32"), or
 * PTX_T_NONE. */
enum ptx_type ptx_type_from_name(const char *s, size_t n);
/* v rounded to nearest-even f16 bits (NaN: 0x7fff); f16 immediates and
 * initialisers. */
uint16_t ptx_f64_to_f16(double v);

#endif
