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

enum { PTX_NK_REG = 1, PTX_NK_SYM, PTX_NK_FUNC, PTX_NK_LABEL,
       PTX_NK_PROTO,       /* `name: .callprototype ...`; idx = protos[] */
       PTX_NK_TLIST };     /* `name: .branchtargets ...` / .calltargets;
                              idx = first entry, count = entries        */

/* A .callprototype of the current function: its parameter counts. */
struct ptx_proto {
    uint32_t nparams, nrets;
};

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

/* inst == PTX_FIX_TLIST: slot indexes cur.tlist (a .branchtargets entry) */
#define PTX_FIX_TLIST UINT32_MAX
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
    struct ptx_proto *protos;  /* .callprototypes of cur (malloc'd)       */
    uint32_t nprotos, capprotos;
    uint32_t tlist_cap, relocs_cap, cargs_cap;
    struct ptx_srcloc loc;    /* the last .loc of cur (file 0: none yet) */
    uint32_t srcloc_cap, srcfiles_cap;
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
/* ptx_loc.c: `.file N "name"` (module scope) and `.loc F L C` (function
 * body) directives, the rest of their line consumed; ptx_loc_inst records
 * the current .loc for instruction idx of cur (after the first .loc). */
void ptx_loc_file(struct ptx_parser *p, uint32_t line);
void ptx_loc_loc(struct ptx_parser *p, uint32_t line);
void ptx_loc_inst(struct ptx_parser *p, uint32_t idx);
/* Records a branch to a label resolved at the end of the function. */
void ptx_add_fixup(struct ptx_parser *p, uint32_t inst, uint32_t slot,
                   const struct ptx_tok *t);
/* Parses one instruction (after an optional guard); the current token is
 * the opcode word. */
void ptx_parse_inst(struct ptx_parser *p, int32_t guard, bool guard_neg,
                    uint32_t gline, uint32_t gcol);
/* malloc'd growth (freed by ptx_parse) / arena growth of a vector so
 * that element n fits. */
void *ptx_xgrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                size_t elem);
void *ptx_agrow(struct ptx_parser *p, void *v, uint32_t n, uint32_t *cap,
                size_t elem);
/* ptx_calls.c: after `name:` the current token is a directive; parses
 * `.callprototype`, `.branchtargets` or `.calltargets` up to ';' and sets
 * the binding (*kind, *idx, *count) of name. Returns false (consuming
 * nothing) for any other directive. */
bool ptx_parse_label_dir(struct ptx_parser *p, const struct ptx_tok *name,
                         uint8_t *kind, int32_t *idx, uint32_t *count);
/* ptx_calls.c: operands of `brx.idx index, tlist;` into in. */
void ptx_parse_brx(struct ptx_parser *p, struct ptx_inst *in,
                   const struct ptx_tok *opt);
/* ptx_calls.c: operands of `call[.uni] [(ret),] func[, (args)][, proto];`
 * into in, up to and including the ';'. */
void ptx_parse_call(struct ptx_parser *p, struct ptx_inst *in);
/* ptx_calls.c: an address initialiser element (fn, sym, generic(sym),
 * with + offset) of type et at byte off of the module variable about to be
 * declared: records a relocation and leaves the bytes zero. The current
 * token is the word. */
void ptx_parse_init_addr(struct ptx_parser *p, enum ptx_type et, uint64_t off);

/* Symbol of a resolved reference. */
const struct ptx_symbol *ptx_ref_sym(const struct ptx_parser *p,
                                     struct ptx_symref r);
/* Scalar type named by a modifier word without its dot (e.g. "u32"), or
 * PTX_T_NONE. */
enum ptx_type ptx_type_from_name(const char *s, size_t n);
/* v rounded to nearest-even f16 bits (NaN: 0x7fff); f16 immediates and
 * initialisers. */
uint16_t ptx_f64_to_f16(double v);
/* Raw bits of an immediate operand in a slot of type t: lit is the
 * literal's token kind (PTX_TK_INT, _F32, _F64 with bits u; PTX_TK_DEC
 * with value d). An integer is converted for a float slot and is the raw
 * pattern of an .f16/.f16x2 slot; other slots take u as written. */
uint64_t ptx_imm_bits(uint8_t lit, uint64_t u, double d, enum ptx_type t);

/* Decodes the opcode token t ("ld.global.nc.f32") into in's opcode and
 * modifier fields, or fails the parse naming what is wrong (ptx_mods.c). */
void ptx_decode_opcode(struct ptx_parser *p, struct ptx_inst *in, const struct ptx_tok *t);
/* Whether o is a video instruction (vadd .. vset4). */
bool ptx_is_video(enum ptx_op o);
/* Whether o is a SIMD video instruction (vadd2 .. vset4). */
bool ptx_is_video_simd(enum ptx_op o);

#endif
