/* A small JSON reader for the CLI (RFC 8259): parses a whole text into a
 * tree (objects keep their members in order, numbers keep their literal
 * text beside exact int64/uint64 forms and a double). Errors carry the byte
 * offset and line:column. Depth, size and value-count limits keep any input,
 * however garbled, from exhausting the stack or memory. */
#ifndef CLI_JSON_H
#define CLI_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_json_type {
    CLI_JSON_NULL,
    CLI_JSON_FALSE,
    CLI_JSON_TRUE,
    CLI_JSON_NUMBER,
    CLI_JSON_STRING,
    CLI_JSON_ARRAY,
    CLI_JSON_OBJECT
};

/* An object member name (decoded; may hold a NUL byte from \u0000). */
struct cli_json_key {
    char *s;                   /* NUL-terminated                           */
    size_t len;
};

/* One JSON value. */
struct cli_json {
    enum cli_json_type type;
    unsigned line, col;        /* where the value starts, 1-based          */
    size_t offset;             /* byte offset of its first character       */
    /* CLI_JSON_STRING: the decoded text; CLI_JSON_NUMBER: the literal as
     * written (e.g. "9.55817", "-0", "1e+06"). NUL-terminated. */
    char *str;
    size_t len;
    /* CLI_JSON_NUMBER: is_int/is_uint say whether the literal is an integer
     * (no fraction or exponent) that fits int64_t/uint64_t exactly; d is
     * the nearest double, always set. */
    int is_int, is_uint;
    int64_t i;
    uint64_t u;
    double d;
    /* CLI_JSON_ARRAY and CLI_JSON_OBJECT: n values in item[]; an object's
     * member names are key[] (parallel to item[], in document order,
     * duplicates kept). */
    size_t n;
    struct cli_json *item;
    struct cli_json_key *key;
};

/* Limits on what a parse accepts (0 in a field: its default). */
struct cli_json_limits {
    size_t max_bytes;          /* input size (default 64 MiB)              */
    unsigned max_depth;        /* nested arrays/objects (default 64)       */
    size_t max_values;         /* values in the tree (default 4 M)         */
};

/* Why a parse or read failed. offset/line/col locate a syntax error (line
 * and col are 0 for an I/O error or a limit on the whole input). */
struct cli_json_error {
    size_t offset;
    unsigned line, col;
    char msg[160];
};

enum { CLI_JSON_OK = 0, CLI_JSON_EIO = -1, CLI_JSON_ESYNTAX = -2 };

/* Parses len bytes of buf (a leading UTF-8 BOM is skipped) into a new tree
 * at *out. Returns CLI_JSON_OK, or CLI_JSON_ESYNTAX with *err filled (a
 * limit or an allocation failure is reported the same way) and *out NULL.
 * lim may be NULL for the defaults. */
int cli_json_parse(const char *buf, size_t len, const struct cli_json_limits *lim,
                   struct cli_json **out, struct cli_json_error *err);
/* Reads path ("-" for stdin) and parses it as cli_json_parse does. Returns
 * CLI_JSON_OK, CLI_JSON_EIO (unreadable or over max_bytes; err->msg says
 * why) or CLI_JSON_ESYNTAX. */
int cli_json_parse_file(const char *path, const struct cli_json_limits *lim,
                        struct cli_json **out, struct cli_json_error *err);
/* Frees a tree from cli_json_parse (NULL is fine). */
void cli_json_free(struct cli_json *v);
/* The first member of object v named key, or NULL (also when v is not an
 * object). */
const struct cli_json *cli_json_get(const struct cli_json *v, const char *key);
/* "null", "false", "true", "number", "string", "array" or "object". */
const char *cli_json_type_name(enum cli_json_type t);

#endif
