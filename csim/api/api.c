/* The public host API (include/lockstep.h): argument checks, error
 * messages, and the calls into csim/gpu. Nothing here is global. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu/gpu.h"
#include "gpu/gpu_cfgblobs.h"
#include "cosim/cosim.h"

void ls_config_keys(FILE *out)
{
    if (out)
        cfg_keys_json(out);
}

const char *ls_status_name(ls_status s)
{
    switch (s) {
    case LS_OK:           return "LS_OK";
    case LS_ERR_INVALID:  return "LS_ERR_INVALID";
    case LS_ERR_PARSE:    return "LS_ERR_PARSE";
    case LS_ERR_NOMEM:    return "LS_ERR_NOMEM";
    case LS_ERR_MEMFAULT: return "LS_ERR_MEMFAULT";
    case LS_ERR_DEADLOCK: return "LS_ERR_DEADLOCK";
    case LS_ERR_LAUNCH:   return "LS_ERR_LAUNCH";
    case LS_ERR_IO:       return "LS_ERR_IO";
    case LS_ERR_INTERNAL: return "LS_ERR_INTERNAL";
    case LS_ERR_COSIM:    return "LS_ERR_COSIM";
    case LS_ERR_INTERRUPTED: return "LS_ERR_INTERRUPTED";
    case LS_ERR_CHECK:    return "LS_ERR_CHECK";
    case LS_ERR_ASSERT:   return "LS_ERR_ASSERT";
    }
    return "LS_ERR_UNKNOWN";
}

void ls_config_default(ls_config *cfg)
{
    if (!cfg)
        return;
    memset(cfg, 0, sizeof *cfg);
    cfg->warp_size = 32;
    cfg->global_mem_bytes = 0;  /* 0: the config key global_mem_bytes */
    cfg->max_warp_insts = 0;    /* 0: the config keys of the same names */
    cfg->max_stack_depth = 0;
    /* every workload passes in timing mode under every shipped config with
     * final memory equal to functional mode (tests/unit/test_core_timing.c) */
    cfg->mode = LS_MODE_TIMING;
}

static bool file_exists(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (fp)
        fclose(fp);
    return fp != NULL;
}

/* Applies ls_config's config (shipped name or file) and overrides to c.
 * Returns 0 or -1 with "file:line: ... key ..." in err. */
static int build_cfg(const ls_config *lc, struct cfg *c, char *err, size_t errlen)
{
    cfg_defaults(c);
    if (lc->config && lc->config[0]) {
        const struct gpu_cfg_blob *b = NULL;
        for (const struct gpu_cfg_blob *p = gpu_cfg_blobs; p->name; p++)
            if (!strcmp(p->name, lc->config))
                b = p;
        if (b) {
            if (cfg_parse_text(c, b->path, b->text, err, errlen) != 0)
                return -1;
        } else if (!strchr(lc->config, '/') && !strchr(lc->config, '.') &&
                   !file_exists(lc->config)) {
            char names[256] = "";
            size_t o = 0;
            for (const struct gpu_cfg_blob *p = gpu_cfg_blobs; p->name && o < sizeof names; p++) {
                int k = snprintf(names + o, sizeof names - o, "%s%s", o ? ", " : "", p->name);
                if (k < 0)
                    break;
                o += (size_t)k;
            }
            snprintf(err, errlen, "unknown config '%s' (shipped: %s; or a file path) [%s:%d]",
                     lc->config, names, __FILE__, __LINE__);
            return -1;
        } else if (cfg_load_file(c, lc->config, err, errlen) != 0) {
            return -1;
        }
    }
    for (const char *const *kv = lc->sets; kv && *kv; kv++)
        if (cfg_set(c, *kv, "--set", err, errlen) != 0)
            return -1;
    return cfg_validate(c, err, errlen);
}

ls_status ls_config_dump(const ls_config *cfg, FILE *out, char *err, size_t errlen)
{
    char e[512];
    if (!cfg || !out) {
        if (err && errlen)
            snprintf(err, errlen, "ls_config_dump: cfg or out is NULL [%s:%d]",
                     __FILE__, __LINE__);
        return LS_ERR_INVALID;
    }
    struct cfg c;
    if (build_cfg(cfg, &c, e, sizeof e) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "%s", e);
        return LS_ERR_INVALID;
    }
    fprintf(out, "# effective configuration: %s%s\n",
            cfg->config ? cfg->config : "built-in defaults",
            cfg->sets && cfg->sets[0] ? " + --set overrides" : "");
    cfg_dump(out, &c);
    if (err && errlen)
        err[0] = 0;
    return LS_OK;
}

ls_status ls_mem_digest(ls_gpu *gpu, uint64_t *digest)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (!digest)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_mem_digest: digest is NULL");
    /* FNV-1a over (base, size, bytes) of every allocation in address order */
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint32_t i = 0; i < gpu->dmem.n; i++) {
        const struct exec_alloc *a = &gpu->dmem.a[i];
        uint64_t hdr[2] = { a->base, a->size };
        const uint8_t *p = (const uint8_t *)hdr;
        for (size_t k = 0; k < sizeof hdr; k++)
            h = (h ^ p[k]) * 0x100000001b3ull;
        h = gpu_mem_digest(a, h);
    }
    *digest = h;
    return LS_OK;
}

ls_gpu *ls_gpu_create(const ls_config *cfg, char *err, size_t errlen)
{
    ls_config c;
    ls_config_default(&c);
    if (cfg)
        c = *cfg;
    const char *why = NULL;
    if (c.warp_size != EXEC_WARP)
        why = "warp_size must be 32";
    else if (c.global_mem_bytes > (1ull << 40))
        why = "global_mem_bytes must be 0 (from the config) or in (0, 2^40]";
    else if (c.max_stack_depth == 1 || c.max_stack_depth > 65536)
        why = "max_stack_depth must be 0 (from the config) or in [2, 65536]";
    if (why) {
        if (err && errlen)
            snprintf(err, errlen, "ls_gpu_create: %s [%s:%d]", why, __FILE__, __LINE__);
        return NULL;
    }
    struct cfg tc;
    char cerr[512];
    if (build_cfg(&c, &tc, cerr, sizeof cerr) != 0) {
        if (err && errlen)
            snprintf(err, errlen, "%s", cerr);
        return NULL;
    }
    /* one source per knob: a zero ls_config field takes the config key */
    if (c.max_warp_insts == 0)
        c.max_warp_insts = (uint64_t)tc.max_warp_insts;
    if (c.max_stack_depth == 0)
        c.max_stack_depth = (unsigned)tc.max_stack_depth;
    if (c.global_mem_bytes == 0)
        c.global_mem_bytes = (uint64_t)tc.global_mem_bytes;
    if (c.mode != LS_MODE_FUNCTIONAL && c.mode != LS_MODE_TIMING) {
        if (err && errlen)
            snprintf(err, errlen, "ls_gpu_create: mode must be functional or timing [%s:%d]",
                     __FILE__, __LINE__);
        return NULL;
    }
    ls_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        if (err && errlen)
            snprintf(err, errlen, "ls_gpu_create: out of host memory [%s:%d]",
                     __FILE__, __LINE__);
        return NULL;
    }
    g->cfg = c;
    g->cfg.config = NULL;       /* the caller's strings are not kept */
    g->cfg.sets = NULL;
    g->tcfg = tc;
    g->dmem.capacity = c.global_mem_bytes;
    if (c.commit_log && gpu_commit_open(&g->clog, c.commit_log, g->err, sizeof g->err)) {
        if (err && errlen)
            snprintf(err, errlen, "%s", g->err);
        ls_gpu_destroy(g);
        return NULL;
    }
    g->cfg.commit_log = NULL;
    if (gpu_devrt_init(g, &c) != LS_OK) {
        if (err && errlen)
            snprintf(err, errlen, "%s", g->err);
        ls_gpu_destroy(g);
        return NULL;
    }
    if (gpu_cosim_init(g, &c) != LS_OK) {
        if (err && errlen)
            snprintf(err, errlen, "%s", g->err);
        ls_gpu_destroy(g);
        return NULL;
    }
    if (err && errlen)
        err[0] = 0;
    return g;
}

void ls_gpu_destroy(ls_gpu *gpu)
{
    if (!gpu)
        return;
    struct ls_module *m = gpu->mods;
    while (m) {
        struct ls_module *n = m->next;
        ptx_module_free(m->ptx);
        free(m->sym_addr);
        free(m->name);
        free(m);
        m = n;
    }
    gpu_timing_free(gpu);
    gpu_commit_close(&gpu->clog);
    if (gpu->cosim) {
        cosim_env_fini(gpu->cosim);
        free(gpu->cosim);
    }
    gpu_devrt_fini(gpu);
    gpu_mem_fini(gpu);
    free(gpu->tex);
    free(gpu->chk);
    free(gpu);
}

const char *ls_gpu_error(const ls_gpu *gpu)
{
    return gpu ? gpu->err : "ls_gpu_error: gpu is NULL";
}

ls_status ls_malloc(ls_gpu *gpu, ls_dptr *ptr, size_t bytes)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (!ptr)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_malloc: ptr is NULL");
    *ptr = 0;
    return gpu_mem_alloc(gpu, bytes, "ls_malloc", ptr);
}

ls_status ls_free(ls_gpu *gpu, ls_dptr ptr)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (ptr == 0)
        return LS_OK;
    return gpu_mem_free(gpu, ptr);
}

ls_status ls_memcpy_htod(ls_gpu *gpu, ls_dptr dst, const void *src, size_t n)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (n == 0)
        return LS_OK;
    if (!src)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_memcpy_htod: src is NULL");
    uint8_t *p = gpu_mem_host(gpu, dst, n, "ls_memcpy_htod");
    if (!p)
        return LS_ERR_MEMFAULT;
    memcpy(p, src, n);
    gpu_mem_written(gpu, dst, n);
    return LS_OK;
}

ls_status ls_memcpy_dtoh(ls_gpu *gpu, void *dst, ls_dptr src, size_t n)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (n == 0)
        return LS_OK;
    if (!dst)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_memcpy_dtoh: dst is NULL");
    const uint8_t *p = gpu_mem_host(gpu, src, n, "ls_memcpy_dtoh");
    if (!p)
        return LS_ERR_MEMFAULT;
    memcpy(dst, p, n);
    return LS_OK;
}

ls_status ls_memset(ls_gpu *gpu, ls_dptr dst, int value, size_t n)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (n == 0)
        return LS_OK;
    uint8_t *p = gpu_mem_host(gpu, dst, n, "ls_memset");
    if (!p)
        return LS_ERR_MEMFAULT;
    memset(p, (unsigned char)value, n);
    gpu_mem_written(gpu, dst, n);
    return LS_OK;
}

ls_status ls_module_load_text(ls_gpu *gpu, const char *name, const char *text,
                              size_t len, ls_module **mod)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (!text || !mod)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_module_load_text: text or mod is NULL");
    *mod = NULL;
    const char *nm = name ? name : "<ptx>";
    if (len > PTX_MAX_TEXT)
        return GPU_FAIL(gpu, LS_ERR_PARSE, "%s: %zu bytes of PTX; the model reads at "
                        "most %u MiB per module", nm, len, PTX_MAX_TEXT >> 20);
    struct ptx_diag diag;
    memset(&diag, 0, sizeof diag);
    struct ptx_module *p = NULL;
    if (ptx_parse(nm, text, len, &p, &diag) != 0) {
        ptx_module_free(p);
        snprintf(gpu->err, sizeof gpu->err, "%s",
                 diag.msg[0] ? diag.msg : "PTX parse failed");
        return LS_ERR_PARSE;
    }
    struct ls_module *m = calloc(1, sizeof *m);
    char *nmcopy = strdup(nm);
    if (!m || !nmcopy) {
        free(m);
        free(nmcopy);
        ptx_module_free(p);
        return GPU_FAIL(gpu, LS_ERR_NOMEM, "out of host memory");
    }
    m->ptx = p;
    m->name = nmcopy;
    ls_status st = gpu_module_place(gpu, m);
    /* link it even on failure so destroy frees what was placed */
    m->next = gpu->mods;
    gpu->mods = m;
    if (st != LS_OK)
        return st;
    *mod = m;
    return LS_OK;
}

ls_status ls_module_load_file(ls_gpu *gpu, const char *path, ls_module **mod)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (!path || !mod)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_module_load_file: path or mod is NULL");
    *mod = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return GPU_FAIL(gpu, LS_ERR_IO, "%s: cannot open", path);
    /* refuse a file too large before reading any of it */
    if (fseek(fp, 0, SEEK_END) == 0) {
        long sz = ftell(fp);
        if (sz > (long)PTX_MAX_TEXT) {
            fclose(fp);
            return GPU_FAIL(gpu, LS_ERR_PARSE, "%s: %ld bytes of PTX; the model reads "
                            "at most %u MiB per module", path, sz, PTX_MAX_TEXT >> 20);
        }
        rewind(fp);
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            size_t nc = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, nc + 1);
            if (!nb) {
                free(buf);
                fclose(fp);
                return GPU_FAIL(gpu, LS_ERR_NOMEM, "%s: out of host memory", path);
            }
            buf = nb;
            cap = nc;
        }
        size_t k = fread(buf + len, 1, cap - len, fp);
        len += k;
        if (k == 0)
            break;
    }
    int bad = ferror(fp);
    fclose(fp);
    if (bad) {
        free(buf);
        return GPU_FAIL(gpu, LS_ERR_IO, "%s: read error", path);
    }
    buf[len] = 0;
    ls_status st = ls_module_load_text(gpu, path, buf, len, mod);
    free(buf);
    return st;
}

static int module_is_ours(const ls_gpu *gpu, const ls_module *mod)
{
    for (const struct ls_module *m = gpu->mods; m; m = m->next)
        if (m == mod)
            return 1;
    return 0;
}

ls_status ls_module_symbol(ls_gpu *gpu, ls_module *mod, const char *name,
                           ls_dptr *ptr, size_t *bytes)
{
    if (!gpu)
        return LS_ERR_INVALID;
    if (!mod || !name || !ptr)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_module_symbol: mod, name or ptr is NULL");
    if (!module_is_ours(gpu, mod))
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_module_symbol: module was not loaded on this GPU");
    const struct ptx_module *p = mod->ptx;
    for (uint32_t i = 0; i < p->nsyms; i++) {
        const struct ptx_symbol *s = &p->syms[i];
        if (!s->name || strcmp(s->name, name) != 0)
            continue;
        if (s->space != PTX_SP_GLOBAL && s->space != PTX_SP_CONST &&
            s->space != PTX_SP_TEX)
            return GPU_FAIL(gpu, LS_ERR_INVALID,
                            "ls_module_symbol: %s is not a .global/.const "
                            "variable", name);
        *ptr = mod->sym_addr[i];
        if (bytes)
            *bytes = (size_t)(s->size ? s->size : 8);
        return LS_OK;
    }
    return GPU_FAIL(gpu, LS_ERR_INVALID,
                    "ls_module_symbol: no module variable named %s in %s",
                    name, mod->name);
}

size_t ls_check_findings(const ls_gpu *gpu, const ls_check_finding **list)
{
    if (list)
        *list = gpu ? gpu->chk : NULL;
    return gpu ? gpu->nchk : 0;
}

unsigned ls_checks_enabled(const ls_gpu *gpu)
{
    return gpu ? ((unsigned)gpu->tcfg.check | CFG_CHECK_MEMCHECK) : 0;
}

char *ls_check_format(const ls_check_finding *f, char *buf, size_t n)
{
    return gpu_check_format(f, buf, n);
}

ls_status ls_launch(ls_gpu *gpu, ls_module *mod, const char *kernel,
                    ls_dim3 grid, ls_dim3 block, size_t dyn_shared,
                    void **args, ls_stats *stats)
{
    if (stats)
        memset(stats, 0, sizeof *stats);
    if (!gpu)
        return LS_ERR_INVALID;
    if (!mod || !kernel)
        return GPU_FAIL(gpu, LS_ERR_INVALID, "ls_launch: mod or kernel is NULL");
    if (!module_is_ours(gpu, mod))
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_launch: module was not loaded on this GPU");
    int amb = 0;
    const struct ptx_func *f = gpu_find_kernel(mod->ptx, kernel, &amb);
    if (!f)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_launch: no kernel entry named %s in %s", kernel,
                        mod->name);
    if (amb)
        return GPU_FAIL(gpu, LS_ERR_INVALID,
                        "ls_launch: %s matches several mangled entries in %s; "
                        "use the mangled name", kernel, mod->name);
    gpu_commit_launch(&gpu->clog, f->name, grid, block);
    gpu->nlaunch++;
    gpu_devrt_begin(gpu, mod, f, grid, block);
    ls_status st = gpu->cfg.mode == LS_MODE_TIMING
        ? gpu_timing_launch(gpu, mod, f, grid, block, dyn_shared, args, stats)
        : gpu_launch(gpu, mod, f, grid, block, dyn_shared, args, stats);
    return gpu_devrt_end(gpu, st, stats);
}
