/* Replay traces of the seam (docs/cosim.md): on a mismatch the instance's
 * inputs since its last reset are written as text; `lockstep replay FILE`
 * runs them again on the C model and the RTL with no GPU, every edge
 * stepped, and can dump the FST window of the mismatch.
 *
 *   # lockstep block trace 1
 *   block slp
 *   instance sm3.slp
 *   param W 32                      (one line per Verilog parameter)
 *   rtl /path/my_slp.v              (only for a user's RTL)
 *   backend netlist                 (only when the gates of that RTL ran)
 *   mismatch_edge 1234              (edge of the recorded mismatch)
 *   edges 1235                      (edges to replay)
 *   inputs valid_i launch_i ...     (input ports, in .def order)
 *   12 1 1 5 3 1 ffffffff           (edge, then every input element in hex)
 * Edges not listed have every input 0 (idle). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cosim/cosim.h"

#define ERR COSIM_ERR

int cosim_trace_write(const struct cosim_inst *ci, const char *path,
                      uint64_t mismatch_edge, char *err, size_t n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ERR(err, n, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    const struct cosim_desc *d = ci->d;
    fprintf(f, "# lockstep block trace 1\n# replay: build/lockstep replay %s\n",
            path);
    fprintf(f, "block %s\ninstance %s\n", d->name, ci->name);
    for (unsigned i = 0; d->params[i]; i++)
        fprintf(f, "param %s %ld\n", d->params[i], d->get_param(ci->cfg, i));
    if (ci->env->rtl[d->id][0])
        fprintf(f, "rtl %s\n", ci->env->rtl[d->id]);
    if (ci->backend == COSIM_BE_NETLIST)
        fprintf(f, "backend netlist\n");
    fprintf(f, "mismatch_edge %" PRIu64 "\nedges %" PRIu64 "\ninputs", mismatch_edge,
            mismatch_edge + 1);
    for (int i = 0; i < ci->nports; i++)
        if (!ci->port[i].is_out)
            fprintf(f, " %s", ci->port[i].name);
    fprintf(f, "\n");
    for (size_t k = 0; k < ci->ntrace; k++) {
        size_t t = (ci->trace_head + k) % ci->ntrace;   /* oldest first */
        const unsigned char *in = ci->trace + t * d->in_size;
        fprintf(f, "%" PRIu64, ci->trace_edge[t]);
        for (int i = 0; i < ci->nports; i++) {
            const struct ls_port *p = &ci->port[i];
            if (p->is_out)
                continue;
            const uint32_t *v = (const uint32_t *)(in + p->off);
            for (unsigned e = 0; e < p->count; e++)
                fprintf(f, " %" PRIx32, v[e]);
        }
        fprintf(f, "\n");
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad) {
        ERR(err, n, "error writing %s", path);
        return -1;
    }
    return 0;
}

/* One recorded active edge. */
struct rec { uint64_t edge; unsigned char in[COSIM_IO_MAX]; };

/* A trace as read: its header and its recorded edges. */
struct replay {
    const char *trace;                 /* file name, for messages */
    const struct cosim_desc *d;
    unsigned char cfg[64];
    char inst[32];
    uint64_t edges, mm;                /* edges to replay, mismatch edge */
    int have_inputs;
    int netlist;                       /* `backend netlist`: replay the gates */
    struct rec *recs;
    size_t nrec, cap;
    struct ls_port ports[LS_MAX_PORTS];
    int nports;
};

/* Header line `key val` number lno; 0, or -1 with err filled. */
static int replay_header(struct cosim_env *env, struct replay *rp, const char *key,
                         char *val, const char *s, int lno, char *err, size_t n)
{
    const struct cosim_desc *d = rp->d;
    if (!strcmp(key, "block")) {
        rp->d = cosim_desc_find(val);
        if (!rp->d) {
            ERR(err, n, "%s:%d: unknown block '%s'", rp->trace, lno, val);
            return -1;
        }
        rp->d->cfg_default(rp->cfg);
        rp->nports = rp->d->ports(rp->ports);
        return 0;
    }
    if (!d) {
        ERR(err, n, "%s:%d: expected 'block NAME' first", rp->trace, lno);
        return -1;
    }
    if (!strcmp(key, "instance")) {
        snprintf(rp->inst, sizeof rp->inst, "%.31s", val);
    } else if (!strcmp(key, "param")) {
        char pn[32];
        long pv;
        if (sscanf(val, "%31s %ld", pn, &pv) != 2 || d->set_param(rp->cfg, pn, pv)) {
            ERR(err, n, "%s:%d: bad parameter line '%s' for block %s",
                rp->trace, lno, s, d->name);
            return -1;
        }
    } else if (!strcmp(key, "rtl")) {
        snprintf(env->rtl[d->id], COSIM_PATH, "%s", val);
    } else if (!strcmp(key, "backend")) {
        if (strcmp(val, "netlist") && strcmp(val, "lockstep")) {
            ERR(err, n, "%s:%d: backend '%s': a replay runs lockstep or netlist",
                rp->trace, lno, val);
            return -1;
        }
        rp->netlist = !strcmp(val, "netlist");
    } else if (!strcmp(key, "mismatch_edge")) {
        rp->mm = strtoull(val, NULL, 10);
    } else if (!strcmp(key, "edges")) {
        rp->edges = strtoull(val, NULL, 10);
    } else if (!strcmp(key, "inputs")) {
        rp->have_inputs = 1;   /* the port list is the .def's; checked below */
        int k = 0;
        for (char *tok = strtok(val, " "); tok; tok = strtok(NULL, " ")) {
            while (k < rp->nports && rp->ports[k].is_out)
                k++;
            if (k >= rp->nports || strcmp(tok, rp->ports[k].name)) {
                ERR(err, n, "%s:%d: input '%s' is not the next input of "
                    "block %s (expected %s)", rp->trace, lno, tok, d->name,
                    k < rp->nports ? rp->ports[k].name : "no more");
                return -1;
            }
            k++;
        }
    } else {
        ERR(err, n, "%s:%d: unknown line '%s'", rp->trace, lno, s);
        return -1;
    }
    return 0;
}

/* Input record line s (`edge v v ...`) number lno appended to rp->recs;
 * 0, or -1 with err filled. */
static int replay_record(struct replay *rp, const char *s, int lno, char *err,
                         size_t n)
{
    if (rp->nrec == rp->cap) {
        rp->cap = rp->cap ? rp->cap * 2 : 256;
        struct rec *nr = realloc(rp->recs, rp->cap * sizeof *nr);
        if (!nr) {
            ERR(err, n, "host memory exhausted");
            return -1;
        }
        rp->recs = nr;
    }
    struct rec *r = &rp->recs[rp->nrec];
    memset(r, 0, sizeof *r);
    char *end;
    errno = 0;
    r->edge = strtoull(s, &end, 10);
    if (end == s || errno || (rp->nrec && r->edge <= rp->recs[rp->nrec - 1].edge)) {
        ERR(err, n, "%s:%d: expected an edge number above the previous one",
            rp->trace, lno);
        return -1;
    }
    s = end;
    for (int i = 0; i < rp->nports; i++) {
        struct ls_port *pt = &rp->ports[i];
        if (pt->is_out)
            continue;
        rp->d->dims(rp->cfg, pt->name, &pt->bits, &pt->count);
        uint32_t *v = (uint32_t *)(r->in + pt->off);
        for (unsigned e = 0; e < pt->count; e++) {
            v[e] = (uint32_t)strtoul(s, &end, 16);
            if (end == s) {
                ERR(err, n, "%s:%d: missing value of %s[%u]", rp->trace, lno,
                    pt->name, e);
                return -1;
            }
            s = end;
        }
    }
    rp->nrec++;
    return 0;
}

/* Reads trace file f into rp; 0, or -1 with err filled. */
static int replay_read(struct cosim_env *env, struct replay *rp, FILE *f,
                       char *err, size_t n)
{
    char line[8192];
    int lno = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *s = line;
        s[strcspn(s, "\r\n")] = 0;
        if (!*s || *s == '#')
            continue;
        char key[64], val[COSIM_PATH];
        if (!rp->have_inputs && sscanf(s, "%63s %1023[^\n]", key, val) == 2) {
            if (replay_header(env, rp, key, val, s, lno, err, n))
                return -1;
            continue;
        }
        if (!rp->have_inputs || !rp->d) {
            ERR(err, n, "%s:%d: expected the header (block, param, inputs) first",
                rp->trace, lno);
            return -1;
        }
        if (replay_record(rp, s, lno, err, n))
            return -1;
    }
    if (!rp->d || !rp->have_inputs) {
        ERR(err, n, "%s: not a lockstep block trace (no block/inputs header)",
            rp->trace);
        return -1;
    }
    if (!rp->edges)
        rp->edges = rp->nrec ? rp->recs[rp->nrec - 1].edge + 1 : 0;
    return 0;
}

/* Steps instance ci through every edge of rp (idle where none is
 * recorded), dumping the FST window before the mismatch when fst is set;
 * 0 = no mismatch, 1 = mismatch, both reported on out. */
static int replay_run(struct cosim_inst *ci, const struct replay *rp,
                      const char *fst, FILE *out)
{
    uint64_t mm = rp->mm, edges = rp->edges;
    uint64_t win = mm != UINT64_MAX && mm >= COSIM_HIST ? mm - COSIM_HIST : 0;
    fprintf(out, "replay %s: %s, %" PRIu64 " edges, %zu transactions\n", rp->trace,
            rp->inst, edges, rp->nrec);
    static const unsigned char zero[COSIM_IO_MAX];
    unsigned char o[COSIM_IO_MAX];
    size_t next = 0;
    int rc = 0;
    for (uint64_t e = 0; e < edges; e++) {
        if (fst && e == win)
            cosim_rtl_trace(ci->lib, ci->vl, fst);
        const unsigned char *in = zero;
        if (next < rp->nrec && rp->recs[next].edge == e)
            in = rp->recs[next++].in;
        if (cosim_step(ci, in, o, "replay")) {
            rc = 1;
            break;
        }
    }
    if (fst)
        cosim_rtl_trace(ci->lib, ci->vl, NULL);
    if (rc == 1)
        fprintf(out, "%s", ci->report ? ci->report : "MISMATCH\n");
    else
        fprintf(out, "replay %s: no mismatch in %" PRIu64 " edges\n", rp->trace, edges);
    if (rc == 1 && fst)
        fprintf(out, "  fst: %s (edges %" PRIu64 "..%" PRIu64 ")\n", fst, win,
                ci->edge - 1);
    return rc;
}

int cosim_replay(struct cosim_env *env, const char *trace, const char *fst,
                 FILE *out, char *err, size_t n)
{
    FILE *f = fopen(trace, "r");
    if (!f) {
        ERR(err, n, "cannot read %s: %s", trace, strerror(errno));
        return -1;
    }
    struct replay *rp = calloc(1, sizeof *rp);
    struct cosim_inst *ci = NULL;
    int rc = -1;
    if (!rp) {
        ERR(err, n, "host memory exhausted");
        goto out;
    }
    rp->trace = trace;
    snprintf(rp->inst, sizeof rp->inst, "replay");
    rp->mm = UINT64_MAX;
    if (replay_read(env, rp, f, err, n))
        goto out;
    env->backend[rp->d->id] = rp->netlist ? COSIM_BE_NETLIST : COSIM_BE_LOCKSTEP;
    env->replaying = 1;
    ci = calloc(1, sizeof *ci);
    if (!ci) {
        ERR(err, n, "host memory exhausted");
        goto out;
    }
    if (cosim_create(ci, env, rp->d, rp->cfg, rp->inst, err, n) != 0) {
        free(ci);
        ci = NULL;
        goto out;
    }
    rc = replay_run(ci, rp, fst, out);
out:
    if (ci) {
        cosim_free(ci);
        free(ci);
    }
    if (rp)
        free(rp->recs);
    free(rp);
    fclose(f);
    return rc;
}
