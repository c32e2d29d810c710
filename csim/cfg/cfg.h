/* GPU configuration: the key table (cfg_keys.def), key=value files with
 * line-numbered errors, --set overrides and a dump of the effective values. */
#ifndef CFG_H
#define CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "cfg_enums.h"      /* CFG_<KEY>_<CHOICE>: build/gen, tools/cfg-enums.c */

/* Every key of cfg_keys.def; a choice key (CFG_ENUM, CFG_FLAGS) holds one
 * of its enum cfg_<key> values. */
struct cfg {
#define CFG_INT(name, def, lo, hi, doc) int64_t name;
#define CFG_REAL(name, def, lo, hi, doc) double name;
#define CFG_ENUM(name, def, choices, doc) int name;
#define CFG_FLAGS(name, def, choices, doc) int name;
#include "cfg/cfg_keys.def"
#undef CFG_INT
#undef CFG_REAL
#undef CFG_ENUM
#undef CFG_FLAGS
};

/* Fills c with every key's default. */
void cfg_defaults(struct cfg *c);
/* Applies one "key=value" (whitespace allowed around both); where names the
 * source in messages ("gtx480.conf:12" or "--set"). Returns 0, or -1 with
 * "where: message naming the key" in err. */
int cfg_set(struct cfg *c, const char *kv, const char *where, char *err, size_t errlen);
/* Applies a key=value text ('#' comments, blank lines); file names it in
 * messages as file:line. Returns 0 or -1 with err. */
int cfg_parse_text(struct cfg *c, const char *file, const char *text, char *err, size_t errlen);
/* Reads and applies a config file. Returns 0 or -1 with err. */
int cfg_load_file(struct cfg *c, const char *path, char *err, size_t errlen);
/* Checks cross-key constraints (sector divides line, sizes are powers of
 * two where required). Returns 0 or -1 with err. */
int cfg_validate(const struct cfg *c, char *err, size_t errlen);
/* Writes the key table as JSON lines: key, kind (int, real, enum),
 * default, min and max (or the enum's choices), doc. */
void cfg_keys_json(FILE *out);
/* Writes every key as "key = value  # doc" in table order. */
void cfg_dump(FILE *out, const struct cfg *c);
/* Writes the name of choice `value` of enum key (e.g. "gto", or "?") to
 * buf and returns buf. */
const char *cfg_enum_name(const char *key, int value, char *buf, size_t n);
/* The L1D set of the line holding byte address la, for set-index choice
 * idx (CFG_L1D_SET_INDEX_*) and sets sets of line-byte lines: the one set
 * function of the L1D and of every structure that mirrors its sets. */
unsigned cfg_l1d_set(int idx, unsigned sets, unsigned line, uint64_t la);

#endif
