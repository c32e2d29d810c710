/* PTX tokenizer: words (opcodes with their dotted modifiers, registers,
 * identifiers, special registers), directives (.name), numbers, strings
 * and punctuation. Comments and white space are skipped. */
#ifndef PTX_LEX_H
#define PTX_LEX_H

#include <stddef.h>
#include <stdint.h>

enum ptx_tok_kind {
    PTX_TK_EOF = 0,
    PTX_TK_WORD,     /* [A-Za-z_$%][A-Za-z0-9_$]* (.[A-Za-z0-9_$]+)*      */
    PTX_TK_DIR,      /* .[A-Za-z0-9_]+                                     */
    PTX_TK_INT,      /* decimal/hex/octal/binary integer: u               */
    PTX_TK_F32,      /* 0fXXXXXXXX: u = 32-bit pattern                     */
    PTX_TK_F64,      /* 0dXXXXXXXXXXXXXXXX: u = 64-bit pattern             */
    PTX_TK_DEC,      /* decimal float 1.5, 2e3: d                          */
    PTX_TK_STR,      /* "...": s/len include the quotes                    */
    PTX_TK_PUNCT,    /* one of , ; : [ ] { } ( ) + - ! @ | < > =           */
    PTX_TK_ERR       /* malformed input; err says what                     */
};

struct ptx_tok {
    uint8_t kind;
    char ch;                 /* PTX_TK_PUNCT */
    const char *s;           /* token text in the source */
    uint32_t len;
    uint32_t line, col;
    uint64_t u;
    double d;
    const char *err;         /* PTX_TK_ERR */
};

struct ptx_lexer {
    const char *p, *end;
    uint32_t line;
    const char *line_start;
};

/* Starts lexing text[0..len). */
void ptx_lex_init(struct ptx_lexer *lx, const char *text, size_t len);
/* Scans the next token into *t (PTX_TK_EOF at the end, never past it). */
void ptx_lex_next(struct ptx_lexer *lx, struct ptx_tok *t);

#endif
