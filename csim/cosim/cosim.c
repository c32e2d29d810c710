/* The block seam (cosim.h): backends, the per-edge comparison, the idle
 * clocking rule, input history, the replay trace and the mismatch report. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cosim/cosim.h"

#ifndef LS_SRC_ROOT
#define LS_SRC_ROOT "."
#endif

static const char *const backend_names[] = { "c", "rtl", "lockstep", "netlist" };

const char *cosim_backend_name(int be)
{
    return be >= 0 && be < 4 ? backend_names[be] : "?";
}

void cosim_err(char *err, size_t n, const char *file, int line,
               const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(err, n, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < n)       /* the source location last */
        snprintf(err + k, n - (size_t)k, " [%s:%d]", file, line);
}
#define ERR COSIM_ERR

/* ------------------------------------------------------------ environment */

static int copy_path(char *dst, const char *src)
{
    size_t l = strlen(src);
    if (l >= COSIM_PATH)
        return -1;
    memcpy(dst, src, l + 1);
    return 0;
}

int cosim_env_init(struct cosim_env *env, const struct cosim_cfg *lc,
                   const int backend[LS_BLK_COUNT], int keep_going,
                   char *err, size_t n)
{
    memset(env, 0, sizeof *env);
    for (int b = 0; b < LS_BLK_COUNT; b++)
        env->backend[b] = backend[b];
    env->keep_going = keep_going;
    const char *root = getenv("LOCKSTEP_ROOT");
    if (!root || !*root)
        root = LS_SRC_ROOT;
    if (copy_path(env->root, root)) {
        ERR(err, n, "LOCKSTEP_ROOT is longer than %d bytes", COSIM_PATH - 1);
        return -1;
    }
    const char *run = lc->run_name && *lc->run_name ? lc->run_name : "run";
    for (const char *p = run; *p; p++)
        if (*p == '/' || *p == ' ') {
            ERR(err, n, "run name '%s' must not contain '/' or blanks", run);
            return -1;
        }
    int k = lc->fail_dir ? snprintf(env->fail_dir, COSIM_PATH, "%s/%s", lc->fail_dir, run)
                         : snprintf(env->fail_dir, COSIM_PATH, "%s/build/fail/%s",
                                    env->root, run);
    if (k < 0 || k >= COSIM_PATH) {
        ERR(err, n, "failure directory name too long");
        return -1;
    }
    for (const char *const *r = lc->rtl; r && *r; r++) {
        const char *eq = strchr(*r, '=');
        char blk[32];
        size_t bl = eq ? (size_t)(eq - *r) : 0;
        if (!eq || !bl || bl >= sizeof blk || !eq[1]) {
            ERR(err, n, "--rtl '%s': expected BLOCK=FILE.v (e.g. slp=my_slp.v)", *r);
            return -1;
        }
        memcpy(blk, *r, bl);
        blk[bl] = 0;
        const struct cosim_desc *d = cosim_desc_find(blk);
        if (!d) {
            ERR(err, n, "--rtl '%s': '%s' is not a block in the GPU loop "
                "(in the loop: slp, bgp, rvc_comp, rvc_decomp, wcu, capt)", *r, blk);
            return -1;
        }
        struct stat sb;
        if (stat(eq + 1, &sb) != 0 || !S_ISREG(sb.st_mode)) {
            ERR(err, n, "--rtl %s: cannot read %s: %s", blk, eq + 1,
                errno ? strerror(errno) : "not a regular file");
            return -1;
        }
        char abs[COSIM_PATH];
        if (!realpath(eq + 1, abs) || copy_path(env->rtl[d->id], abs)) {
            ERR(err, n, "--rtl %s: cannot resolve %s", blk, eq + 1);
            return -1;
        }
        /* RTL of the user's runs in the loop */
        if (env->backend[d->id] == COSIM_BE_C)
            env->backend[d->id] = COSIM_BE_LOCKSTEP;
    }
    return 0;
}

/* ---------------------------------------------------------------- instance */

/* Sets ci->out_lo/out_len when the output ports, in offset order, follow
 * each other with no gap and every element in use (count = max_count):
 * both backends then write every byte of that range. */
static void out_range(struct cosim_inst *ci)
{
    size_t lo = SIZE_MAX, hi = 0, sum = 0;
    ci->out_lo = ci->out_len = 0;
    for (int i = 0; i < ci->nports; i++) {
        const struct ls_port *p = &ci->port[i];
        if (!p->is_out)
            continue;
        if (p->count != p->max_count)
            return;
        size_t len = (size_t)p->count * sizeof(uint32_t);
        lo = p->off < lo ? p->off : lo;
        hi = p->off + len > hi ? p->off + len : hi;
        sum += len;
    }
    if (hi > lo && hi - lo == sum) {    /* no gap, no overlap */
        ci->out_lo = lo;
        ci->out_len = hi - lo;
    }
}

int cosim_create(struct cosim_inst *ci, struct cosim_env *env,
                 const struct cosim_desc *d, const void *cfg,
                 const char *name, char *err, size_t n)
{
    memset(ci, 0, sizeof *ci);
    ci->d = d;
    ci->env = env;
    ci->backend = env->backend[d->id];
    snprintf(ci->name, sizeof ci->name, "%s", name);
    if (d->cfg_size > sizeof ci->cfg || d->in_size > COSIM_IO_MAX ||
        d->out_size > COSIM_IO_MAX) {
        ERR(err, n, "%s: block structs too large for the seam", name);
        return -1;
    }
    if (d->trace_window && d->trace_window < COSIM_HIST) {   /* hist_at's slots */
        ERR(err, n, "%s: trace window %u below the %d edges of a report", name,
            d->trace_window, COSIM_HIST);
        return -1;
    }
    memcpy(ci->cfg, cfg, d->cfg_size);
    ci->nports = d->ports(ci->port);
    for (int i = 0; i < ci->nports; i++)
        d->dims(ci->cfg, ci->port[i].name, &ci->port[i].bits, &ci->port[i].count);
    out_range(ci);
    ci->st.backend = ci->backend;
    ci->st.instances = 1;
    if (env->cover_on) {
        ci->cov = calloc(1, sizeof *ci->cov);
        if (!ci->cov) {
            ERR(err, n, "%s: host memory exhausted", name);
            return -1;
        }
        cosim_cover_init(ci->cov, d->id, ci->cfg, env->cover);
    }
    /* the C model runs under c and lockstep; under rtl too, as the one that
     * validates the parameters (it is never stepped) */
    ci->cm = calloc(1, d->state_size);
    if (!ci->cm) {
        ERR(err, n, "%s: host memory exhausted", name);
        return -1;
    }
    if (d->init(ci->cm, ci->cfg) != 0) {
        char ps[256] = "";
        size_t o = 0;
        for (unsigned i = 0; d->params[i] && o < sizeof ps; i++)
            o += (size_t)snprintf(ps + o, sizeof ps - o, " %s=%ld", d->params[i],
                                  d->get_param(ci->cfg, i));
        ERR(err, n, "%s: the GPU config gives the %s block bad parameters:%s",
            name, d->name, ps);
        cosim_free(ci);
        return -1;
    }
    if (ci->backend != COSIM_BE_C) {
        const char *rtl = env->rtl[d->id][0] ? env->rtl[d->id] : NULL;
        char net[COSIM_PATH + 320];
        if (ci->backend == COSIM_BE_NETLIST) {  /* the gates of that RTL */
            if (cosim_netlist_path(env, d, ci->cfg, rtl, 1, net, sizeof net, err, n) != 0) {
                cosim_free(ci);
                return -1;
            }
            rtl = net;
        }
        if (cosim_rtl_open(env, d, ci->cfg, rtl, ci->port, ci->nports, env->replaying,
                           &ci->vl, &ci->lib, err, n) != 0) {
            cosim_free(ci);
            return -1;
        }
    }
    cosim_reset(ci);
    return 0;
}

void cosim_reset(struct cosim_inst *ci)
{
    if (ci->backend != COSIM_BE_RTL)
        ci->d->reset(ci->cm);
    if (ci->vl)
        cosim_rtl_reset(ci->lib, ci->vl);
    ci->edge = 0;
    ci->quiet = 0;
    ci->nhist = 0;
    ci->hpos = 0;
    ci->ntrace = 0;
    ci->trace_head = 0;
    ci->trace_lost = 0;
    if (ci->cov)
        cosim_cover_reset(ci->cov);
}

void cosim_cover_enable(struct cosim_env *env)
{
    env->cover_on = 1;
}

void cosim_free(struct cosim_inst *ci)
{
    if (ci->vl)
        cosim_rtl_free(ci->lib, ci->vl);
    if (ci->cm && ci->d->free)
        ci->d->free(ci->cm);
    free(ci->cm);
    free(ci->trace);
    free(ci->trace_edge);
    free(ci->report);
    free(ci->cov);
    memset(ci, 0, sizeof *ci);
}

/* All n bytes of in zero: 8 bytes at a time (the RVC and WCU inputs
 * are 140 bytes and more), the tail byte-wise. */
static int is_idle(const unsigned char *in, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, in + i, sizeof w);
        if (w)
            return 0;
    }
    for (; i < n; i++)
        if (in[i])
            return 0;
    return 1;
}

/* Records a transaction edge's input (rtl, lockstep: only a run that can
 * mismatch needs the replay trace); returns its trace slot, or
 * COSIM_HIST_LOST where the trace could not keep it. */
static size_t trace_add(struct cosim_inst *ci, const void *in)
{
    if (ci->trace_lost)
        return COSIM_HIST_LOST;
    size_t isz = ci->d->in_size;
    size_t win = ci->d->trace_window;
    if (win && ci->ntrace == win) {       /* full: overwrite the oldest */
        size_t s = ci->trace_head;
        memcpy(ci->trace + s * isz, in, isz);
        ci->trace_edge[s] = ci->edge;
        ci->trace_head = s + 1 == win ? 0 : s + 1;
        return s;
    }
    if (ci->ntrace == ci->trace_cap) {
        size_t cap = ci->trace_cap ? ci->trace_cap * 2 : 1024;
        if (win && cap > win)
            cap = win;
        unsigned char *t = realloc(ci->trace, cap * isz);
        if (t)
            ci->trace = t;
        uint64_t *e = t ? realloc(ci->trace_edge, cap * sizeof *e) : NULL;
        if (e)
            ci->trace_edge = e;
        if (!t || !e) {
            ci->trace_lost = 1;
            return COSIM_HIST_LOST;
        }
        ci->trace_cap = cap;
    }
    memcpy(ci->trace + ci->ntrace * isz, in, isz);
    ci->trace_edge[ci->ntrace] = ci->edge;
    return ci->ntrace++;
}

/* Appends printf text to a growing report buffer. */
struct sbuf { char *p; size_t len, cap; };

static void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (k < 0)
            return;
        if (b->p && b->len + (size_t)k < b->cap) {
            b->len += (size_t)k;
            return;
        }
        size_t cap = (b->cap ? b->cap : 1024) * 2 + (size_t)k;
        char *np = realloc(b->p, cap);
        if (!np)
            return;
        b->p = np;
        b->cap = cap;
    }
}

static const uint32_t *port_vals(const struct ls_port *p, const void *s)
{
    return (const uint32_t *)((const unsigned char *)s + p->off);
}

static void sb_inputs(struct sbuf *b, const struct cosim_inst *ci, const void *in)
{
    for (int i = 0; i < ci->nports; i++) {
        const struct ls_port *p = &ci->port[i];
        if (p->is_out)
            continue;
        const uint32_t *v = port_vals(p, in);
        if (p->count == 1) {
            sb_printf(b, " %s=0x%" PRIx32, p->name, v[0]);
        } else {
            sb_printf(b, " %s=[", p->name);
            for (unsigned e = 0; e < p->count; e++)
                sb_printf(b, "%s%" PRIx32, e ? " " : "", v[e]);
            sb_printf(b, "]");
        }
    }
}

/* "slp W=32 NWARPS=48 ROT_EN=1" */
static void sb_params(struct sbuf *b, const struct cosim_desc *d, const void *cfg)
{
    sb_printf(b, "%s", d->name);
    for (unsigned i = 0; d->params[i]; i++)
        sb_printf(b, " %s=%ld", d->params[i], d->get_param(cfg, i));
}

/* Writes the trace and the FST window of a mismatch at edge e; appends
 * what it wrote to the report. */
static void save_failure(struct cosim_inst *ci, uint64_t e, struct sbuf *b)
{
    char dir[COSIM_PATH + 8], trace[COSIM_PATH + 64], fst[COSIM_PATH + 64];
    snprintf(dir, sizeof dir, "%s", ci->env->fail_dir);
    /* mkdir -p */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0777);
            *p = '/';
        }
    mkdir(dir, 0777);
    snprintf(trace, sizeof trace, "%s/%s.trace", dir, ci->name);
    snprintf(fst, sizeof fst, "%s/%s.fst", dir, ci->name);
    char err[COSIM_PATH + 256];
    if (ci->trace_lost) {
        sb_printf(b, "  trace: not written (host memory ran out while recording it)\n");
        return;
    }
    if (cosim_trace_write(ci, trace, e, err, sizeof err) != 0) {
        sb_printf(b, "  trace: not written: %s\n", err);
        return;
    }
    sb_printf(b, "  trace: %s (%zu transactions since the last reset)\n", trace,
              ci->ntrace);
    /* the FST window comes from a replay of the trace with tracing on */
    FILE *sink = fopen("/dev/null", "w");
    int r = cosim_replay(ci->env, trace, fst, sink, err, sizeof err);
    if (sink)
        fclose(sink);
    if (r == 1)
        sb_printf(b, "  fst:   %s (edges %" PRIu64 "..%" PRIu64 ")\n", fst,
                  e >= COSIM_HIST ? e - COSIM_HIST : 0, e);
    else if (r == 0)
        sb_printf(b, "  fst:   not written: the replay did not reproduce the mismatch\n");
    else
        sb_printf(b, "  fst:   not written: %s\n", err);
    sb_printf(b, "  replay: build/lockstep replay %s   (or: make replay TRACE=%s)\n",
              trace, trace);
}

/* Compares the C and RTL outputs of the edge just stepped; builds the
 * report on the first difference. Returns 0 or 1 (stop). */
static int compare(struct cosim_inst *ci, const void *cout, const void *rout,
                   const struct cosim_where *where)
{
    /* equal outputs (every edge of a passing run): one memcmp */
    if (ci->out_len && !memcmp((const unsigned char *)cout + ci->out_lo,
                               (const unsigned char *)rout + ci->out_lo, ci->out_len))
        return 0;
    for (int i = 0; i < ci->nports; i++) {
        const struct ls_port *p = &ci->port[i];
        if (!p->is_out)
            continue;
        const uint32_t *ev = port_vals(p, cout), *av = port_vals(p, rout);
        for (unsigned k = 0; k < p->count; k++) {
            if (ev[k] == av[k])
                continue;
            ci->st.mismatches++;     /* once per edge: the first port reports */
            if (ci->report)
                return !ci->env->keep_going;
            uint64_t e = ci->edge;
            struct sbuf b = { NULL, 0, 0 };
            sb_printf(&b, "MISMATCH %s edge=%" PRIu64 " port=%s[%u] expected=0x%"
                      PRIx32 " actual=0x%" PRIx32 " (", ci->name, e, p->name, k,
                      ev[k], av[k]);
            sb_params(&b, ci->d, ci->cfg);
            char net[COSIM_PATH + 320];
            if (ci->backend == COSIM_BE_NETLIST &&
                !cosim_netlist_path(ci->env, ci->d, ci->cfg, ci->env->rtl[ci->d->id][0]
                                    ? ci->env->rtl[ci->d->id] : NULL, 0, net,
                                    sizeof net, NULL, 0))
                sb_printf(&b, "; expected = C model, actual = gate-level netlist %s)\n",
                          net);
            else if (ci->env->rtl[ci->d->id][0])
                sb_printf(&b, "; expected = C model, actual = RTL %s)\n",
                          ci->env->rtl[ci->d->id]);
            else
                sb_printf(&b, "; expected = C model, actual = RTL rtl/%s.v)\n",
                          ci->d->name);
            char at[512] = "";
            if (where && where->fn)
                where->fn(where->ctx, at, sizeof at);
            if (*at)
                sb_printf(&b, "  at: %s\n", at);
            sb_printf(&b, "  last %u stepped edges of %s's inputs:\n", ci->nhist,
                      ci->name);
            for (unsigned h = 0; h < ci->nhist; h++) {
                unsigned s = (ci->hpos + COSIM_HIST - ci->nhist + h) % COSIM_HIST;
                static const unsigned char zero[COSIM_IO_MAX];
                size_t at_s = ci->hist_at[s];
                sb_printf(&b, "    edge %" PRIu64 ":", ci->hist_edge[s]);
                if (at_s == COSIM_HIST_LOST)
                    sb_printf(&b, " (input not kept: host memory ran out)");
                else
                    sb_inputs(&b, ci, at_s == COSIM_HIST_IDLE ? zero
                                      : ci->trace + at_s * ci->d->in_size);
                sb_printf(&b, "\n");
            }
            if (!ci->env->replaying)
                save_failure(ci, e, &b);
            ci->report = b.p;
            return !ci->env->keep_going;
        }
    }
    return 0;
}

/* One edge of the C backend: the model alone, nothing kept for a report
 * or compared (step_edge's C case, inlined on the per-transaction path). */
static inline void step_c(struct cosim_inst *ci, const void *in, void *out)
{
    ci->d->step(ci->cm, in, out);
    if (ci->cov)
        cosim_cover_edge(ci->cov, in, out);
    ci->st.cycles++;
    ci->edge++;
}

/* One edge of a backend; at: where in's copy is (trace_add's slot, or
 * COSIM_HIST_IDLE for an all-zero input), for a report's input history. */
static int step_edge(struct cosim_inst *ci, const void *in, void *out, size_t at,
                     const struct cosim_where *where)
{
    const struct cosim_desc *d = ci->d;
    if (ci->backend != COSIM_BE_C) {  /* only a mismatch report reads it */
        unsigned slot = ci->hpos;
        ci->hpos = (ci->hpos + 1) % COSIM_HIST;
        if (ci->nhist < COSIM_HIST)
            ci->nhist++;
        ci->hist_at[slot] = at;
        ci->hist_edge[slot] = ci->edge;
    }
    int rc = 0;
    unsigned char rout[COSIM_IO_MAX];
    switch (ci->backend) {
    case COSIM_BE_C:
        d->step(ci->cm, in, out);
        break;
    case COSIM_BE_RTL:
        cosim_rtl_step(ci->lib, ci->vl, in, out);
        break;
    default:
        d->step(ci->cm, in, out);
        cosim_rtl_step(ci->lib, ci->vl, in, rout);
        rc = compare(ci, out, rout, where);
        break;
    }
    if (ci->cov)
        cosim_cover_edge(ci->cov, in, out);
    ci->st.cycles++;
    ci->edge++;
    return rc;
}

static void where_str(const void *ctx, char *buf, size_t n)
{
    snprintf(buf, n, "%s", (const char *)ctx);
}

int cosim_step_lazy(struct cosim_inst *ci, const void *in, void *out,
                    const struct cosim_where *where)
{
    size_t at = COSIM_HIST_IDLE;
    if (is_idle(in, ci->d->in_size)) {
        ci->quiet++;
    } else {
        ci->quiet = 0;
        ci->st.transactions++;
        if (ci->backend != COSIM_BE_C)
            at = trace_add(ci, in);
    }
    if (ci->backend == COSIM_BE_C) {
        step_c(ci, in, out);
        return 0;
    }
    return step_edge(ci, in, out, at, where);
}

int cosim_step(struct cosim_inst *ci, const void *in, void *out,
               const char *where)
{
    struct cosim_where w = { where_str, where ? where : "" };
    return cosim_step_lazy(ci, in, out, &w);
}

static int idle_lazy(struct cosim_inst *ci, uint64_t n, const struct cosim_where *where)
{
    static const unsigned char zero[COSIM_IO_MAX];
    unsigned char out[COSIM_IO_MAX];
    const struct cosim_desc *d = ci->d;
    while (n && ci->quiet < d->settle) {
        if (ci->backend == COSIM_BE_C && d->idle_fixed && d->idle_fixed(ci->cm)) {
            /* the C model alone, at a fixed point: the rest of the settling
             * edges are counted as stepped (same model state and counts) */
            uint64_t k = d->settle - ci->quiet < n ? d->settle - ci->quiet : n;
            d->idle_edges(ci->cm, k);
            ci->quiet += k;
            ci->st.cycles += k;
            ci->edge += k;
            n -= k;
            break;
        }
        ci->quiet++;
        if (ci->backend == COSIM_BE_C) {
            step_c(ci, zero, out);
        } else {
            int rc = step_edge(ci, zero, out, COSIM_HIST_IDLE, where);
            if (rc)
                return rc;
        }
        n--;
    }
    /* settled: an idle edge changes nothing in either model */
    ci->st.idle_skipped += n;
    ci->edge += n;
    return 0;
}

int cosim_idle(struct cosim_inst *ci, uint64_t n, const char *where)
{
    struct cosim_where w = { where_str, where ? where : "" };
    return idle_lazy(ci, n, &w);
}

/* The description of an idle run: kernel and the GPU cycle of its first
 * edge. */
struct idle_ctx {
    const char *kernel;
    uint64_t cycle;
};

static void where_idle(const void *ctx, char *buf, size_t n)
{
    const struct idle_ctx *x = ctx;
    snprintf(buf, n, "kernel %s, GPU cycle %llu, idle", x->kernel ? x->kernel : "?",
             (unsigned long long)x->cycle);
}

int cosim_idle_to(struct cosim_inst *ci, uint64_t edge, const char *kernel,
                  uint64_t t0)
{
    if (ci->edge >= edge)
        return 0;
    struct idle_ctx x = { kernel, t0 + ci->edge };
    struct cosim_where w = { where_idle, &x };
    return idle_lazy(ci, edge - ci->edge, &w);
}
