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
    for (size_t t = 0; t < ci->ntrace; t++) {
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

int cosim_replay(struct cosim_env *env, const char *trace, const char *fst,
                 FILE *out, char *err, size_t n)
{
    FILE *f = fopen(trace, "r");
    if (!f) {
        ERR(err, n, "cannot read %s: %s", trace, strerror(errno));
        return -1;
    }
    const struct cosim_desc *d = NULL;
    unsigned char cfg[64];
    char inst[32] = "replay", line[8192];
    uint64_t edges = 0, mm = UINT64_MAX;
    int have_inputs = 0, lno = 0, rc = -1, netlist = 0;
    struct rec *recs = NULL;
    size_t nrec = 0, cap = 0;
    struct cosim_inst *ci = NULL;
    struct ls_port ports[LS_MAX_PORTS];
    int nports = 0;
    while (fgets(line, sizeof line, f)) {
        lno++;
        char *s = line;
        s[strcspn(s, "\r\n")] = 0;
        if (!*s || *s == '#')
            continue;
        char key[64], val[COSIM_PATH];
        if (!have_inputs && sscanf(s, "%63s %1023[^\n]", key, val) == 2) {
            if (!strcmp(key, "block")) {
                d = cosim_desc_find(val);
                if (!d) {
                    ERR(err, n, "%s:%d: unknown block '%s'", trace, lno, val);
                    goto out;
                }
                d->cfg_default(cfg);
                nports = d->ports(ports);
                continue;
            }
            if (!d) {
                ERR(err, n, "%s:%d: expected 'block NAME' first", trace, lno);
                goto out;
            }
            if (!strcmp(key, "instance")) {
                snprintf(inst, sizeof inst, "%.31s", val);
            } else if (!strcmp(key, "param")) {
                char pn[32];
                long pv;
                if (sscanf(val, "%31s %ld", pn, &pv) != 2 || d->set_param(cfg, pn, pv)) {
                    ERR(err, n, "%s:%d: bad parameter line '%s' for block %s",
                        trace, lno, s, d->name);
                    goto out;
                }
            } else if (!strcmp(key, "rtl")) {
                snprintf(env->rtl[d->id], COSIM_PATH, "%s", val);
            } else if (!strcmp(key, "backend")) {
                if (strcmp(val, "netlist") && strcmp(val, "lockstep")) {
                    ERR(err, n, "%s:%d: backend '%s': a replay runs lockstep or "
                        "netlist", trace, lno, val);
                    goto out;
                }
                netlist = !strcmp(val, "netlist");
            } else if (!strcmp(key, "mismatch_edge")) {
                mm = strtoull(val, NULL, 10);
            } else if (!strcmp(key, "edges")) {
                edges = strtoull(val, NULL, 10);
            } else if (!strcmp(key, "inputs")) {
                have_inputs = 1;   /* the port list is the .def's; checked below */
                int k = 0;
                for (char *tok = strtok(val, " "); tok; tok = strtok(NULL, " ")) {
                    while (k < nports && ports[k].is_out)
                        k++;
                    if (k >= nports || strcmp(tok, ports[k].name)) {
                        ERR(err, n, "%s:%d: input '%s' is not the next input of "
                            "block %s (expected %s)", trace, lno, tok, d->name,
                            k < nports ? ports[k].name : "no more");
                        goto out;
                    }
                    k++;
                }
            } else {
                ERR(err, n, "%s:%d: unknown line '%s'", trace, lno, s);
                goto out;
            }
            continue;
        }
        if (!have_inputs || !d) {
            ERR(err, n, "%s:%d: expected the header (block, param, inputs) first",
                trace, lno);
            goto out;
        }
        if (nrec == cap) {
            cap = cap ? cap * 2 : 256;
            struct rec *nr = realloc(recs, cap * sizeof *nr);
            if (!nr) {
                ERR(err, n, "host memory exhausted");
                goto out;
            }
            recs = nr;
        }
        struct rec *r = &recs[nrec];
        memset(r, 0, sizeof *r);
        char *end;
        errno = 0;
        r->edge = strtoull(s, &end, 10);
        if (end == s || errno || (nrec && r->edge <= recs[nrec - 1].edge)) {
            ERR(err, n, "%s:%d: expected an edge number above the previous one",
                trace, lno);
            goto out;
        }
        s = end;
        for (int i = 0; i < nports; i++) {
            if (ports[i].is_out)
                continue;
            d->dims(cfg, ports[i].name, &ports[i].bits, &ports[i].count);
            uint32_t *v = (uint32_t *)(r->in + ports[i].off);
            for (unsigned e = 0; e < ports[i].count; e++) {
                v[e] = (uint32_t)strtoul(s, &end, 16);
                if (end == s) {
                    ERR(err, n, "%s:%d: missing value of %s[%u]", trace, lno,
                        ports[i].name, e);
                    goto out;
                }
                s = end;
            }
        }
        nrec++;
    }
    if (!d || !have_inputs) {
        ERR(err, n, "%s: not a lockstep block trace (no block/inputs header)", trace);
        goto out;
    }
    if (!edges)
        edges = nrec ? recs[nrec - 1].edge + 1 : 0;
    env->backend[d->id] = netlist ? COSIM_BE_NETLIST : COSIM_BE_LOCKSTEP;
    env->replaying = 1;
    ci = calloc(1, sizeof *ci);
    if (!ci) {
        ERR(err, n, "host memory exhausted");
        goto out;
    }
    if (cosim_create(ci, env, d, cfg, inst, err, n) != 0) {
        free(ci);
        ci = NULL;
        goto out;
    }
    uint64_t win = mm != UINT64_MAX && mm >= COSIM_HIST ? mm - COSIM_HIST : 0;
    fprintf(out, "replay %s: %s, %" PRIu64 " edges, %zu transactions\n", trace,
            inst, edges, nrec);
    static const unsigned char zero[COSIM_IO_MAX];
    unsigned char o[COSIM_IO_MAX];
    size_t next = 0;
    rc = 0;
    for (uint64_t e = 0; e < edges; e++) {
        if (fst && e == win)
            cosim_rtl_trace(ci->lib, ci->vl, fst);
        const unsigned char *in = zero;
        if (next < nrec && recs[next].edge == e)
            in = recs[next++].in;
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
        fprintf(out, "replay %s: no mismatch in %" PRIu64 " edges\n", trace, edges);
    if (rc == 1 && fst)
        fprintf(out, "  fst: %s (edges %" PRIu64 "..%" PRIu64 ")\n", fst, win,
                ci->edge - 1);
out:
    if (ci) {
        cosim_free(ci);
        free(ci);
    }
    free(recs);
    fclose(f);
    return rc;
}

ls_status ls_cosim_replay(const char *trace, const char *fst, FILE *out,
                          char *err, size_t errlen)
{
    ls_config lc;
    ls_config_default(&lc);
    int be[LS_BLK_COUNT] = { 0 };
    struct cosim_env *env = calloc(1, sizeof *env);
    if (!env) {
        if (err && errlen)
            snprintf(err, errlen, "host memory exhausted [%s:%d]", __FILE__, __LINE__);
        return LS_ERR_NOMEM;
    }
    if (!trace || !out) {
        free(env);
        if (err && errlen)
            snprintf(err, errlen, "ls_cosim_replay: trace and out are required [%s:%d]",
                     __FILE__, __LINE__);
        return LS_ERR_INVALID;
    }
    ls_status st;
    if (cosim_env_init(env, &lc, be, 0, err, errlen) != 0) {
        st = LS_ERR_INVALID;
    } else {
        int r = cosim_replay(env, trace, fst, out, err, errlen);
        st = r == 0 ? LS_OK : r == 1 ? LS_ERR_COSIM : LS_ERR_IO;
    }
    cosim_env_fini(env);
    free(env);
    return st;
}
