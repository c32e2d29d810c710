/* The mechanism table (core_mech.def) and what it generates: the ops by
 * id, the combination rules and their documentation (core_mech.h). */
#include <stdio.h>
#include <string.h>
#include "core/core_mech.h"
#include "cfg/cfg.h"

#define CORE_MECH(id, name, ops, doc) extern const struct core_mech_ops ops;
#include "core/core_mech.def"

static const struct core_mech_ops *const mech_ops[CORE_MECH_COUNT] = {
#define CORE_MECH(id, name, ops, doc) [CORE_MECH_##id] = &ops,
#include "core/core_mech.def"
};

static const char *const mech_doc[CORE_MECH_COUNT] = {
#define CORE_MECH(id, name, ops, doc) [CORE_MECH_##id] = doc,
#include "core/core_mech.def"
};

const struct core_mech_ops *core_mech_ops_of(enum core_mech_id id)
{
    return (unsigned)id < CORE_MECH_COUNT ? mech_ops[id] : NULL;
}

const char *core_mech_doc(enum core_mech_id id)
{
    return (unsigned)id < CORE_MECH_COUNT ? mech_doc[id] : "";
}

enum { RULE_EXCLUDES, RULE_NEEDS };

/* "simt.paths" for cfg field simt_paths (the keys' dotted aliases). */
static void dotted(const char *field, char *buf, size_t n)
{
    snprintf(buf, n, "%s", field);
    char *u = strchr(buf, '_');
    if (u)
        *u = '.';
}

static int refuse(const struct cfg *c, int kind, const char *field, int value,
                  const char *other, const char *doc, const char *why, char *err, size_t n)
{
    char key[64], val[32];
    dotted(field, key, sizeof key);
    (void)c;
    cfg_enum_name(field, value, val, sizeof val);
    if (kind == RULE_NEEDS)
        snprintf(err, n, "%s=%s needs %s (%s): %s", key, val, other, doc, why);
    else
        snprintf(err, n, "%s=%s with %s is not modelled (%s): %s", key, val, other, doc,
                 why);
    return -1;
}

int core_mech_check(const struct cfg *c, char *err, size_t n)
{
#define CORE_RULE(kind, key, values, key_on, other, other_on, doc, why)                 \
    if ((key_on) && (other_on))                                                         \
        return refuse(c, RULE_##kind, #key, (int)c->key, other, doc, why, err, n);
#include "core/core_mech.def"
    return 0;
}

void core_mech_rules_md(char *buf, size_t n)
{
    static const struct {
        int kind;
        const char *key, *values, *other, *doc, *why;
    } rows[] = {
#define CORE_RULE(kind, key, values, key_on, other, other_on, doc, why)                 \
    { RULE_##kind, #key, values, other, doc, why },
#include "core/core_mech.def"
    };
    size_t o = 0;
    int k = snprintf(buf, n, "| setting | %s | refused because | page |\n|---|---|---|---|\n",
                     "combined with");
    o = k > 0 && (size_t)k < n ? (size_t)k : n;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && o + 1 < n; i++) {
        char key[64];
        dotted(rows[i].key, key, sizeof key);
        k = snprintf(buf + o, n - o, "| `%s` %s | %s%s | %s | %s |\n", key,
                     rows[i].values, rows[i].kind == RULE_NEEDS ? "without " : "",
                     rows[i].other, rows[i].why, rows[i].doc);
        if (k < 0)
            break;
        o += (size_t)k < n - o ? (size_t)k : n - o - 1;
    }
}

bool core_mech_refusal(const struct core_mech_ops *ops, const struct cfg *c,
                       const struct ptx_func *f, char *buf, size_t n)
{
    for (uint32_t i = 0; ops->refuse && i < f->ninsts; i++) {
        const char *why = ops->refuse(c, f, i);
        if (why) {
            snprintf(buf, n, "%s at line %u", why, f->insts[i].line);
            return true;
        }
    }
    return false;
}

int core_mech_prepare(const struct cfg *c, const struct ptx_func *f,
                      const void *mech[CORE_MECH_COUNT], char *err, size_t n,
                      uint32_t *line)
{
    *line = 0;
    for (unsigned i = 0; i < CORE_MECH_COUNT; i++) {
        const struct core_mech_ops *o = mech_ops[i];
        mech[i] = NULL;
        if (!o->prepare || !o->on(c))
            continue;
        void *d = NULL;
        if (o->prepare(c, f, &d, err, n, line) != 0)
            return -1;
        mech[i] = d;
    }
    return 0;
}

void core_mech_unprepare(const struct cfg *c, const void *mech[CORE_MECH_COUNT])
{
    (void)c;
    for (unsigned i = 0; i < CORE_MECH_COUNT; i++) {
        if (mech[i] && mech_ops[i]->unprepare)
            mech_ops[i]->unprepare((void *)mech[i]);
        mech[i] = NULL;
    }
}
