/* Configuration parsing: see cfg.h. The key table is cfg_keys.def. */
#include "cfg/cfg.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum cfg_kind { CFG_K_INT, CFG_K_REAL, CFG_K_ENUM, CFG_K_FLAGS };

struct cfg_key {
    const char *name;
    enum cfg_kind kind;
    size_t offset;
    double def, lo, hi;     /* INT keys keep exact values in idef/ilo/ihi */
    int64_t idef, ilo, ihi;
    const char *choices;    /* ENUM, FLAGS: "a|b|c" */
    const char *doc;
};

static const struct cfg_key cfg_keys[] = {
#define CFG_INT(n, d, l, h, doc) \
    {#n, CFG_K_INT, offsetof(struct cfg, n), 0, 0, 0, (int64_t)(d), (int64_t)(l), (int64_t)(h), NULL, doc},
#define CFG_REAL(n, d, l, h, doc) \
    {#n, CFG_K_REAL, offsetof(struct cfg, n), (d), (l), (h), 0, 0, 0, NULL, doc},
#define CFG_ENUM(n, d, ch, doc) \
    {#n, CFG_K_ENUM, offsetof(struct cfg, n), 0, 0, 0, (d), 0, 0, ch, doc},
#define CFG_FLAGS(n, d, ch, doc) \
    {#n, CFG_K_FLAGS, offsetof(struct cfg, n), 0, 0, 0, (d), 0, 0, ch, doc},
#include "cfg/cfg_keys.def"
#undef CFG_INT
#undef CFG_REAL
#undef CFG_ENUM
#undef CFG_FLAGS
};
#define CFG_NKEYS (sizeof cfg_keys / sizeof cfg_keys[0])

static void cfg_err(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

/* A key by name; "slp.backend" names the key slp_backend. */
static const struct cfg_key *cfg_find(const char *name, size_t len)
{
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const char *k = cfg_keys[i].name;
        if (strlen(k) != len)
            continue;
        size_t j = 0;
        while (j < len && (k[j] == name[j] || (k[j] == '_' && name[j] == '.')))
            j++;
        if (j == len)
            return &cfg_keys[i];
    }
    return NULL;
}

/* Index of choice [s, s+len) in "a|b|c", or -1. */
static int cfg_choice(const char *choices, const char *s, size_t len)
{
    int idx = 0;
    for (const char *p = choices; *p; idx++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (*p == '+')          /* FLAGS: a choice "all" leaves out */
            p++, n--;
        if (n == len && !strncmp(p, s, len)) return idx;
        if (!bar) break;
        p = bar + 1;
    }
    return -1;
}

/* Bit set of a FLAGS value: "a,b" (choice i is bit i), "all" or "none";
 * -1 when a name is not a choice. "all" is every choice not written with
 * a leading '+' in the table (an opt-in choice, named on its own, as in
 * "all,globalrace"). */
static int cfg_flags_parse(const char *choices, const char *s)
{
    if (!strcmp(s, "none"))
        return 0;
    int all = 0, n = 0;
    for (const char *p = choices; *p; p += strcspn(p, "|") + (p[strcspn(p, "|")] == '|'))
        all |= (*p == '+' ? 0 : 1) << n++;
    if (!strcmp(s, "all"))
        return all;
    int bits = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, ",");
        const char *q = p, *e = p + len;
        while (q < e && isspace((unsigned char)*q)) q++;
        while (e > q && isspace((unsigned char)e[-1])) e--;
        if (e - q == 3 && !strncmp(q, "all", 3)) {
            bits |= all;
            p += len + (p[len] == ',');
            continue;
        }
        int idx = cfg_choice(choices, q, (size_t)(e - q));
        if (idx < 0)
            return -1;
        bits |= 1 << idx;
        p += len + (p[len] == ',');
    }
    return bits;
}

/* Writes FLAGS value bits as "a,b" ("none" when empty) to buf. */
static void cfg_flags_name(const char *choices, int bits, char *buf, size_t n)
{
    size_t o = 0;
    int i = 0;
    buf[0] = 0;
    for (const char *p = choices; *p && o + 1 < n; i++) {
        size_t len = strcspn(p, "|");
        if (bits & (1 << i)) {
            int plus = *p == '+';
            int k = snprintf(buf + o, n - o, "%s%.*s", o ? "," : "", (int)len - plus,
                             p + plus);
            if (k < 0)
                break;
            o += (size_t)k < n - o ? (size_t)k : n - o - 1;
        }
        p += len + (p[len] == '|');
    }
    if (!o)
        snprintf(buf, n, "none");
}

const char *cfg_enum_name(const char *key, int value, char *buf, size_t n)
{
    const struct cfg_key *k = cfg_find(key, strlen(key));
    const char *p = (k && k->kind == CFG_K_ENUM && value >= 0) ? k->choices : NULL;
    for (int i = 0; p && i < value; i++) {
        p = strchr(p, '|');
        if (p) p++;
    }
    if (!p) snprintf(buf, n, "?");
    else snprintf(buf, n, "%.*s", (int)strcspn(p, "|"), p);
    return buf;
}

void cfg_defaults(struct cfg *c)
{
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        char *field = (char *)c + k->offset;
        switch (k->kind) {
        case CFG_K_INT:  *(int64_t *)field = k->idef; break;
        case CFG_K_REAL: *(double *)field = k->def; break;
        case CFG_K_ENUM:
        case CFG_K_FLAGS: *(int *)field = (int)k->idef; break;
        }
    }
}

static const char *cfg_skip_ws(const char *s, const char *end)
{
    while (s < end && isspace((unsigned char)*s)) s++;
    return s;
}

static const char *cfg_trim_end(const char *s, const char *end)
{
    while (end > s && isspace((unsigned char)end[-1])) end--;
    return end;
}

/* Applies [s, end) = "key = value" (no comment). */
static int cfg_apply(struct cfg *c, const char *s, const char *end, const char *where,
                     char *err, size_t errlen)
{
    s = cfg_skip_ws(s, end);
    end = cfg_trim_end(s, end);
    const char *eq = memchr(s, '=', (size_t)(end - s));
    if (!eq) {
        cfg_err(err, errlen, "%s: expected key=value, got '%.*s'", where, (int)(end - s), s);
        return -1;
    }
    const char *kend = cfg_trim_end(s, eq);
    const char *v = cfg_skip_ws(eq + 1, end);
    size_t klen = (size_t)(kend - s), vlen = (size_t)(end - v);
    const struct cfg_key *k = cfg_find(s, klen);
    if (!k) {
        cfg_err(err, errlen, "%s: unknown key '%.*s'", where, (int)klen, s);
        return -1;
    }
    if (vlen == 0 || vlen > 63) {
        cfg_err(err, errlen, "%s: key '%s': missing or overlong value", where, k->name);
        return -1;
    }
    char buf[64];
    memcpy(buf, v, vlen);
    buf[vlen] = 0;
    char *field = (char *)c + k->offset;
    char *stop = NULL;
    errno = 0;
    if (k->kind == CFG_K_ENUM) {
        int idx = cfg_choice(k->choices, buf, vlen);
        if (idx < 0) {
            cfg_err(err, errlen, "%s: key '%s': bad value '%s' (expected one of %s)",
                    where, k->name, buf, k->choices);
            return -1;
        }
        *(int *)field = idx;
    } else if (k->kind == CFG_K_FLAGS) {
        int bits = cfg_flags_parse(k->choices, buf);
        if (bits < 0) {
            cfg_err(err, errlen, "%s: key '%s': bad value '%s' (expected a comma-separated "
                    "list of %s, or all or none)", where, k->name, buf, k->choices);
            return -1;
        }
        *(int *)field = bits;
    } else if (k->kind == CFG_K_INT) {
        long long x = strtoll(buf, &stop, 0);
        if (errno || *stop || x < k->ilo || x > k->ihi) {
            cfg_err(err, errlen, "%s: key '%s': bad value '%s' (expected an integer in [%lld, %lld])",
                    where, k->name, buf, (long long)k->ilo, (long long)k->ihi);
            return -1;
        }
        *(int64_t *)field = x;
    } else {
        double x = strtod(buf, &stop);
        if (errno || *stop || !(x >= k->lo && x <= k->hi)) {
            cfg_err(err, errlen, "%s: key '%s': bad value '%s' (expected a number in [%g, %g])",
                    where, k->name, buf, k->lo, k->hi);
            return -1;
        }
        *(double *)field = x;
    }
    return 0;
}

int cfg_set(struct cfg *c, const char *kv, const char *where, char *err, size_t errlen)
{
    return cfg_apply(c, kv, kv + strlen(kv), where ? where : "--set", err, errlen);
}

int cfg_parse_text(struct cfg *c, const char *file, const char *text, char *err, size_t errlen)
{
    unsigned line = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const char *end = nl ? nl : p + strlen(p);
        line++;
        const char *hash = memchr(p, '#', (size_t)(end - p));
        const char *stop = hash ? hash : end;
        const char *s = cfg_skip_ws(p, stop);
        if (s < stop) {
            char where[320];
            snprintf(where, sizeof where, "%s:%u", file, line);
            if (cfg_apply(c, s, stop, where, err, errlen)) return -1;
        }
        p = nl ? nl + 1 : end;
    }
    return cfg_validate(c, err, errlen);
}

int cfg_load_file(struct cfg *c, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cfg_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len > (16u << 20)) {        /* a config is a page of text */
            fclose(f);
            free(buf);
            cfg_err(err, errlen, "%s: larger than 16 MiB: not a config file", path);
            return -1;
        }
        if (cap - len < 2) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) { free(buf); buf = NULL; break; }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        cfg_err(err, errlen, "%s: out of memory", path);
        return -1;
    }
    buf[len] = 0;
    /* a binary file would read as an empty config (the text stops at the
     * first NUL): a silent default machine; say what it is instead */
    const char *nul = memchr(buf, 0, len);
    if (nul) {
        size_t at = (size_t)(nul - buf), line = 1;
        for (size_t i = 0; i < at; i++)
            line += buf[i] == '\n';
        cfg_err(err, errlen, "%s:%zu: not a text config file (a NUL byte at offset %zu)",
                path, line, at);
        free(buf);
        return -1;
    }
    int rc = cfg_parse_text(c, path, buf, err, errlen);
    free(buf);
    return rc;
}

static int cfg_pow2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

int cfg_validate(const struct cfg *c, char *err, size_t errlen)
{
    struct { const char *what; int ok; } rules[] = {
        {"l1d_line must be a power of two", cfg_pow2(c->l1d_line)},
        {"l1d_sector must be a power of two dividing l1d_line",
         cfg_pow2(c->l1d_sector) && c->l1d_sector <= c->l1d_line},
        {"l2_line must be a power of two", cfg_pow2(c->l2_line)},
        {"l2_sector must be a power of two dividing l2_line",
         cfg_pow2(c->l2_sector) && c->l2_sector <= c->l2_line},
        {"l1d_size must be a multiple of l1d_assoc * l1d_line",
         c->l1d_size % (c->l1d_assoc * c->l1d_line) == 0},
        {"l2_size must be a multiple of mem_partitions * l2_assoc * l2_line",
         c->l2_size % (c->mem_partitions * c->l2_assoc * c->l2_line) == 0},
        {"dram_subranks must divide dram_atom_bytes", c->dram_atom_bytes % c->dram_subranks == 0},
        {"max_threads_per_sm must be a multiple of warp_size", c->max_threads_per_sm % c->warp_size == 0},
        /* what the memory system can build (csim/mem checks again) */
        {"l2_line must be at least l1d_line", c->l2_line >= c->l1d_line},
        {"l1d_line / l1d_sector must be at most 8 (sectors per line)",
         c->l1d_sector > 0 && c->l1d_line / c->l1d_sector <= 8},
        {"l2_line / l2_sector must be at most 8 (sectors per line)",
         c->l2_sector > 0 && c->l2_line / c->l2_sector <= 8},
        {"lamar_bgp_bits must be a power of two", cfg_pow2(c->lamar_bgp_bits)},
        {"lamar_bgp_refresh must be even", c->lamar_bgp_refresh % 2 == 0},
        {"oc_units_alu + oc_units_sfu + oc_units_mem must be at most operand_collectors",
         c->oc_units_alu + c->oc_units_sfu + c->oc_units_mem <= c->operand_collectors},
        {"oc_units_alu, oc_units_sfu and oc_units_mem must be all zero or all positive",
         (c->oc_units_alu > 0) == (c->oc_units_sfu > 0) &&
             (c->oc_units_alu > 0) == (c->oc_units_mem > 0)},
        {"capri_lru = tree needs capri_entries a power of two (or capri_lru = auto|true)",
         c->capri_lru != CFG_CAPRI_LRU_TREE || cfg_pow2(c->capri_entries)},
    };
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (!rules[i].ok) {
            cfg_err(err, errlen, "config: %s", rules[i].what);
            return -1;
        }
    return 0;
}

void cfg_keys_json(FILE *out)
{
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        fprintf(out, "{\"key\": \"%s\", ", k->name);
        if (k->kind == CFG_K_INT)
            fprintf(out, "\"kind\": \"int\", \"default\": %lld, \"min\": %lld, \"max\": %lld",
                    (long long)k->idef, (long long)k->ilo, (long long)k->ihi);
        else if (k->kind == CFG_K_REAL)
            fprintf(out, "\"kind\": \"real\", \"default\": %.17g, \"min\": %.17g, "
                    "\"max\": %.17g", k->def, k->lo, k->hi);
        else {
            fprintf(out, "\"kind\": \"%s\", \"default\": %lld, \"choices\": [",
                    k->kind == CFG_K_FLAGS ? "flags" : "enum", (long long)k->idef);
            for (const char *p = k->choices; *p;) {
                size_t n = strcspn(p, "|");
                int plus = *p == '+';   /* opt-in FLAGS choice: named as is */
                fprintf(out, "%s\"%.*s\"", p == k->choices ? "" : ", ", (int)n - plus,
                        p + plus);
                p += n + (p[n] == '|');
            }
            fprintf(out, "]");
        }
        fprintf(out, ", \"doc\": \"");
        for (const char *d = k->doc; *d; d++)
            fprintf(out, *d == '"' || *d == '\\' ? "\\%c" : "%c", *d);
        fprintf(out, "\"}\n");
    }
}

void cfg_dump(FILE *out, const struct cfg *c)
{
    for (size_t i = 0; i < CFG_NKEYS; i++) {
        const struct cfg_key *k = &cfg_keys[i];
        const char *field = (const char *)c + k->offset;
        char val[64];
        if (k->kind == CFG_K_INT) {
            snprintf(val, sizeof val, "%lld", (long long)*(const int64_t *)field);
        } else if (k->kind == CFG_K_REAL) {
            snprintf(val, sizeof val, "%g", *(const double *)field);
        } else if (k->kind == CFG_K_FLAGS) {
            cfg_flags_name(k->choices, *(const int *)field, val, sizeof val);
        } else {
            cfg_enum_name(k->name, *(const int *)field, val, sizeof val);
        }
        fprintf(out, "%-22s = %-14s # %s\n", k->name, val, k->doc);
    }
}

/* linear: line number mod sets; fermi: GPGPU-Sim's Fermi hash (set index
 * function H of SM2_GTX480's -gpgpu_cache:dl1; Nugteren et al., HPCA 2014):
 * address bits 11..7 XOR bits 19,17,15,14,13 (as bits 4..0), bit 12 as bit
 * 5 with 64 sets (mem_sys_create accepts fermi with 32 or 64 sets of
 * 128-byte lines only). */
unsigned cfg_l1d_set(int idx, unsigned sets, unsigned line, uint64_t la)
{
    if (sets == 0 || line == 0)
        return 0;
    if (idx != CFG_L1D_SET_INDEX_FERMI)
        return (unsigned)((la / line) % sets);
    unsigned up = (unsigned)((la >> 13 & 7u) | (la >> 17 & 1u) << 3 | (la >> 19 & 1u) << 4);
    unsigned set = ((unsigned)(la >> 7) & 31u) ^ up;
    if (sets == 64)
        set |= (unsigned)(la >> 12 & 1u) << 5;
    return set;
}
