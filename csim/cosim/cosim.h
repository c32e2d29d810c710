/* The one seam between the GPU and its RTL blocks (docs/cosim.md).
 *
 * Every block instance of the GPU (sm3.slp, later sm0.capt, l2s5.bgp) is
 * created, reset and clocked through this interface and nothing else. The
 * backend is chosen per block kind at run time:
 *   c         the cycle-exact C model of csim/blocks (default, fast);
 *   rtl       the Verilated RTL alone (built on demand, loaded with dlopen);
 *   lockstep  both, every output port compared on every stepped edge;
 *   netlist   lockstep against the Verilated gate-level netlist of the RTL
 *             (synth/netlist.sh, built on demand) instead of the RTL.
 * The caller never knows which backend runs: it gets one output struct.
 *
 * Clocking rule: an all-zero input is the block's idle input. A block
 * declares `settle`: after that many consecutive idle edges, a further idle
 * edge changes neither its state nor its outputs (tests/unit/test_cosim.c
 * proves it for every block). cosim_idle() steps the first `settle` idle
 * edges of a gap in every backend and counts the rest as idle_skipped. */
#ifndef COSIM_H
#define COSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "lockstep.h"
#include "blocks/blk_port.h"
#include "blocks/blk.h"
#include "cosim/cosim_cover.h"

enum cosim_backend { COSIM_BE_C = 0, COSIM_BE_RTL = 1, COSIM_BE_LOCKSTEP = 2,
                     COSIM_BE_NETLIST = 3 };

#define COSIM_IO_MAX 1024          /* bytes of a block's in or out struct  */
#define COSIM_HIST 32              /* input edges kept for a report        */
#define COSIM_HIST_IDLE ((size_t)-1)
#define COSIM_HIST_LOST ((size_t)-2)
#define COSIM_MAX_PARAMS 8
#define COSIM_PATH 1024

/* A block kind: its C model behind void pointers and its port table. */
struct cosim_desc {
    const char *name;              /* "slp": rtl/<name>.v, top module      */
    int id;                        /* LS_BLK_* (index of ls_stats.cosim)   */
    size_t cfg_size, state_size, in_size, out_size;
    unsigned settle;               /* see the clocking rule above          */
    /* 0: the replay trace keeps every transaction since reset. n > 0: the
     * block's state after a transaction depends on that transaction alone
     * (it overwrites every payload register), so a replay from reset with
     * only the last n transactions (a ring) reproduces a mismatch at or
     * after the oldest one kept; bounds the memory of long lockstep runs. */
    unsigned trace_window;
    const char *params[COSIM_MAX_PARAMS]; /* Verilog parameters, NULL-ended */
    /* value of parameter i (params[i]) of cfg */
    long (*get_param)(const void *cfg, unsigned i);
    int (*set_param)(void *cfg, const char *name, long v);
    void (*cfg_default)(void *cfg);
    int (*init)(void *st, const void *cfg);
    void (*reset)(void *st);
    void (*step)(void *st, const void *in, void *out);
    /* NULL, or: idle_fixed(st) says that idle_edges(st, n) does what n
     * idle steps from st do (for WCU: an idle edge from st changes no
     * register; for RVC: from any state, valid_o clears). The C backend
     * alone then counts the rest of the settling edges without stepping
     * them (their outputs are not compared; the RTL steps every edge). */
    bool (*idle_fixed)(const void *st);
    void (*idle_edges)(void *st, uint64_t n);
    void (*free)(void *st);        /* NULL: the state owns no memory       */
    void (*dims)(const void *cfg, const char *port, unsigned *bits,
                 unsigned *count);
    /* fills p with the .def port table (maximum sizes); returns the count */
    int (*ports)(struct ls_port *p);
};

/* The descriptor of block name ("slp"), or NULL when it is not (yet) in
 * the GPU loop. */
const struct cosim_desc *cosim_desc_find(const char *name);
/* The descriptor of LS_BLK_* id, or NULL when that block is not in the loop. */
const struct cosim_desc *cosim_desc_by_id(int id);

struct cosim_lib;

/* What every block instance of one GPU shares: backend choice, the user's
 * RTL files, where failures go, the loaded Verilated models. */
struct cosim_env {
    int backend[LS_BLK_COUNT];     /* enum cosim_backend per block kind    */
    char rtl[LS_BLK_COUNT][COSIM_PATH]; /* user RTL ("" = rtl/<blk>.v)     */
    int keep_going;                /* count mismatches and go on           */
    char root[COSIM_PATH];         /* source tree holding rtl/ and tb/     */
    char fail_dir[COSIM_PATH];     /* traces and FST windows go here       */
    struct cosim_lib *libs;        /* Verilated models loaded so far       */
    /* per block kind, the netlist checked up to date in this GPU (the
     * netlist backend checks once, not per instance; cosim_netlist.c) */
    char netlist[LS_BLK_COUNT][COSIM_PATH];
    /* functional coverage (cosim_cover.h): counted by the instances
     * created while cover_on, summed over every instance of this GPU */
    int cover_on;
    uint64_t cover[COV_COUNT];
    int replaying;                 /* a replay: no failure files, tracing  */
};

/* What the seam takes from the run's configuration (the ls_config fields
 * of the same names; zero: the defaults). */
struct cosim_cfg {
    const char *const *rtl;        /* NULL-terminated "blk=FILE.v": the user's
                                      RTL instead of rtl/<blk>.v           */
    const char *fail_dir;          /* mismatch traces: <fail_dir>/<run>/;
                                      NULL = build/fail under the root     */
    const char *run_name;          /* <run>; NULL = "run"                  */
};

/* Fills env from lc and the backends: user RTL, run name, fail dir.
 * Returns 0 or -1 with a message in err. */
int cosim_env_init(struct cosim_env *env, const struct cosim_cfg *lc,
                   const int backend[LS_BLK_COUNT], int keep_going,
                   char *err, size_t n);
/* Unloads every Verilated model env loaded (instances must be freed). */
void cosim_env_fini(struct cosim_env *env);

/* One block instance. Must not move in memory once created (the RTL glue
 * keeps a pointer to its port table). */
struct cosim_inst {
    /* what every edge uses first, in two cache lines */
    const struct cosim_desc *d;
    void *cm;                      /* C model state (c, lockstep)          */
    int backend;
    uint64_t edge;                 /* clock edges since reset              */
    uint64_t quiet;                /* consecutive idle edges stepped       */
    ls_cosim_stats st;
    struct cosim_env *env;
    struct cosim_cover *cov;       /* NULL unless env->cover_on            */
    char name[32];                 /* "sm3.slp"                            */
    unsigned char cfg[64];         /* the block's cfg struct               */
    void *vl;                      /* Verilated top (rtl, lockstep)        */
    const struct cosim_lib *lib;
    struct ls_port port[LS_MAX_PORTS];
    int nports;
    /* the outputs as one byte range of the out struct [out_lo, out_lo +
     * out_len) when they fill it (contiguous, every element used): a
     * compare is one memcmp then; 0: per port */
    size_t out_lo, out_len;
    /* last COSIM_HIST stepped edges (rtl, lockstep: where a mismatch can
     * be reported): edge number and where its input is, the trace slot
     * of a transaction (the trace keeps at least the last COSIM_HIST), or
     * COSIM_HIST_IDLE (all zero) or COSIM_HIST_LOST (not kept) */
    uint64_t hist_edge[COSIM_HIST];
    size_t hist_at[COSIM_HIST];
    unsigned nhist, hpos;          /* entries kept, next slot to write     */
    /* the active (non-idle) edges since reset, for replay: ntrace entries;
     * once a trace_window ring is full, the oldest is at trace_head */
    unsigned char *trace;
    uint64_t *trace_edge;
    size_t ntrace, trace_cap, trace_head;
    int trace_lost;                /* host memory ran out: no replay file  */
    char *report;                  /* first mismatch report (malloc'd)     */
};

/* Creates instance name of block d with block cfg (d->cfg_size bytes) under
 * env's backend for d (verilating the RTL on first use). Returns 0 or -1
 * with a message (file:line, what was expected) in err. */
int cosim_create(struct cosim_inst *ci, struct cosim_env *env,
                 const struct cosim_desc *d, const void *cfg,
                 const char *name, char *err, size_t n);
/* rst_ni low for one edge in every backend; the trace restarts. */
void cosim_reset(struct cosim_inst *ci);
/* One clock edge with in applied; out = the outputs after it (the C
 * model's under lockstep, the RTL's under rtl). where describes the
 * transaction for a report (kernel, cycle, warp). Returns 0, or 1 on a
 * mismatch that stops the run (ci->report says why). */
int cosim_step(struct cosim_inst *ci, const void *in, void *out,
               const char *where);
/* How a transaction is described in a mismatch report, formatted only
 * when one is written (the describing is on every edge's path, the
 * report is rare): fn(ctx, buf, n) fills buf. */
struct cosim_where {
    void (*fn)(const void *ctx, char *buf, size_t n);
    const void *ctx;
};
/* cosim_step with a description formatted only for a report. */
int cosim_step_lazy(struct cosim_inst *ci, const void *in, void *out,
                    const struct cosim_where *where);
/* cosim_step_lazy for an input that is not idle (a transaction: the
 * caller sets a valid port): the C backend steps its model here, inline,
 * with the same counts; the others go through cosim_step_lazy. */
static inline int cosim_step_active(struct cosim_inst *ci, const void *in,
                                    void *out, const struct cosim_where *where)
{
    if (ci->backend != COSIM_BE_C)
        return cosim_step_lazy(ci, in, out, where);
    ci->quiet = 0;
    ci->st.transactions++;
    ci->d->step(ci->cm, in, out);
    if (ci->cov)
        cosim_cover_edge(ci->cov, in, out);
    ci->st.cycles++;
    ci->edge++;
    return 0;
}
/* n idle edges under the clocking rule (stepped until settled, the rest
 * skipped). Returns 0 or 1 as cosim_step. */
int cosim_idle(struct cosim_inst *ci, uint64_t n, const char *where);
/* cosim_idle up to edge `edge` (nothing when ci is there or past it); a
 * report names kernel and GPU cycle t0 + the first idle edge. */
int cosim_idle_to(struct cosim_inst *ci, uint64_t edge, const char *kernel,
                  uint64_t t0);
/* Frees the instance (not env). */
void cosim_free(struct cosim_inst *ci);

/* Functional coverage on for the instances env creates from now on (the
 * GPU's are created at its first launch); env->cover sums their bins. */
void cosim_cover_enable(struct cosim_env *env);

/* Writes "message [file:line]" to err (n bytes): what the user passed and
 * what to do first, the source location of the check last. */
void cosim_err(char *err, size_t n, const char *file, int line,
               const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define COSIM_ERR(err, n, ...) cosim_err((err), (n), __FILE__, __LINE__, __VA_ARGS__)

/* Backend name ("c", "rtl", "lockstep", "netlist"). */
const char *cosim_backend_name(int be);

/* Loads the Verilated model of d under cfg (building it if needed) and
 * creates a top: *vl, *lib. fst_ever enables later tracing. Returns 0 or
 * -1 with err. (cosim_rtl.c) */
int cosim_rtl_open(struct cosim_env *env, const struct cosim_desc *d,
                   const void *cfg, const char *rtl_file,
                   const struct ls_port *ports, int nports, int fst_ever,
                   void **vl, const struct cosim_lib **lib, char *err,
                   size_t n);
/* Tool runs of the rtl and netlist backends (cosim_rtl.c): bash with argv,
 * output to log, returning its exit status (-1: could not run); the last
 * lines of log appended to err; FNV-1a of a string (a user RTL file's
 * cache directory); monotonic seconds. */
int cosim_spawn_log(char *const argv[], const char *log);
void cosim_log_tail(const char *log, char *err, size_t n);
uint64_t cosim_fnv(const char *s);
double cosim_now_s(void);
/* A built model's cache key (cosim_rtl.c): dir = <root>/build/<sub>/<blk>
 * plus _<P><v> per parameter and _u<hash> of a user file; pdesc gets
 * " P=v ..." and gp[i] "-GP=v"; returns the number of parameters. */
unsigned cosim_cache_key(const struct cosim_env *env,
                         const struct cosim_desc *d, const void *cfg,
                         const char *rtl_file, const char *sub, char *dir,
                         size_t dn, char *pdesc, size_t pn,
                         char gp[][48]);
/* RTL reset, step, trace (NULL closes), free through lib. */
void cosim_rtl_reset(const struct cosim_lib *lib, void *vl);
void cosim_rtl_step(const struct cosim_lib *lib, void *vl, const void *in,
                    void *out);
void cosim_rtl_trace(const struct cosim_lib *lib, void *vl, const char *fst);
void cosim_rtl_free(const struct cosim_lib *lib, void *vl);

/* The gate-level netlist of d under cfg (of rtl_file, NULL = rtl/<blk>.v)
 * for the netlist backend: path gets build/netlist/<blk>_<P><v>...[_u<hash>]
 * /<blk>.v of the source tree. With build, synthesises it first when it is
 * missing or older than its sources (synth/netlist.sh; once per GPU and
 * block kind). Returns 0 or -1 with err. (cosim_netlist.c) */
int cosim_netlist_path(struct cosim_env *env, const struct cosim_desc *d,
                       const void *cfg, const char *rtl_file, int build,
                       char *path, size_t pn, char *err, size_t n);

/* Writes ci's trace since its last reset (header: block, parameters, RTL
 * file, mismatch edge) to path. Returns 0 or -1 with err. (cosim_trace.c) */
int cosim_trace_write(const struct cosim_inst *ci, const char *path,
                      uint64_t mismatch_edge, char *err, size_t n);
/* Re-runs a trace file on the C model and the RTL with no GPU, every edge
 * stepped (no idle skipping); fst (may be NULL) gets the window of the 32
 * edges before the first mismatch and the edge itself. Prints progress and
 * the mismatch report to out. Returns 0 (no mismatch), 1 (mismatch), or -1
 * with err (bad file, build failure). */
int cosim_replay(struct cosim_env *env, const char *trace, const char *fst,
                 FILE *out, char *err, size_t n);

#endif
