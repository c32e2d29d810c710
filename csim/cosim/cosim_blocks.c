/* The blocks that are in the GPU loop, each described once for the seam:
 * its C model behind void pointers and its port table from the .def.
 * A block joins the loop by its row in include/lockstep_blocks.def and its
 * descriptor <name>_desc here (its mechanism's issue then creates
 * instances through cosim_create). */
#include <stddef.h>
#include <string.h>
#include "cosim/cosim.h"
#include "cfg/cfg.h"
#include "blocks/slp.h"
#include "blocks/bgp.h"
#include "blocks/rvc_comp.h"
#include "blocks/rvc_decomp.h"
#include "blocks/wcu.h"
#include "blocks/capt.h"

/* .name and .id of the descriptor of block nm: its row of
 * include/lockstep_blocks.def. */
#define LS_BLOCK(id, nm, group, title, when) enum { nm##_id = LS_BLK_##id };
#include "lockstep_blocks.def"
#undef LS_BLOCK
#define COSIM_NAME_ID(nm) .name = #nm, .id = nm##_id

/* enum cosim_backend is the choice of every <blk>.backend key */
#define LS_BLOCK(id, name, group, title, when)                                     \
    _Static_assert((int)COSIM_BE_C == (int)CFG_##id##_BACKEND_C &&                 \
                   (int)COSIM_BE_RTL == (int)CFG_##id##_BACKEND_RTL &&             \
                   (int)COSIM_BE_LOCKSTEP == (int)CFG_##id##_BACKEND_LOCKSTEP,     \
                   #name ".backend's choices are not enum cosim_backend");
#include "lockstep_blocks.def"
#undef LS_BLOCK

/* The descriptor's init/reset/step for block model blk: the typed
 * blk_init/blk_reset/blk_step behind the seam's void-pointer signatures. */
#define COSIM_GLUE(blk)                                                    \
    static int blk##_init_v(void *st, const void *cfg)                     \
    {                                                                      \
        return blk##_init(st, cfg);                                        \
    }                                                                      \
    static void blk##_reset_v(void *st) { blk##_reset(st); }              \
    static void blk##_step_v(void *st, const void *in, void *out)          \
    {                                                                      \
        blk##_step(st, in, out);                                           \
    }

/* ------------------------------------------------------------------ SLP */

static long slp_get(const void *cfg, unsigned i)
{
    const struct slp_cfg *c = cfg;
    return i == 0 ? (long)c->W : i == 1 ? (long)c->NWARPS : (long)c->ROT_EN;
}

static int slp_set(void *cfg, const char *name, long v)
{
    return slp_set_param(cfg, name, v);
}

static void slp_def(void *cfg)
{
    *(struct slp_cfg *)cfg = slp_cfg_default();
}

COSIM_GLUE(slp)

static void slp_dims_v(const void *cfg, const char *port, unsigned *bits,
                       unsigned *count)
{
    slp_port_dims(cfg, port, bits, count);
}

static int slp_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct slp_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct slp_out, nm)};
#include "blocks/slp_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

static const struct cosim_desc slp_desc = {
    COSIM_NAME_ID(slp),
    .cfg_size = sizeof(struct slp_cfg),
    .state_size = sizeof(struct slp_state),
    .in_size = sizeof(struct slp_in),
    .out_size = sizeof(struct slp_out),
    /* one idle edge clears the registered outputs; the key table only
     * changes on a launch (docs/blocks/slp.md) */
    .settle = 1,
    .params = { "W", "NWARPS", "ROT_EN", NULL },
    .get_param = slp_get,
    .set_param = slp_set,
    .cfg_default = slp_def,
    .init = slp_init_v,
    .reset = slp_reset_v,
    .step = slp_step_v,
    .free = NULL,
    .dims = slp_dims_v,
    .ports = slp_ports,
};

/* ------------------------------------------------------------------ BGP */

static long bgp_get(const void *cfg, unsigned i)
{
    const struct bgp_cfg *c = cfg;
    const unsigned v[] = { c->M, c->K, c->N, c->NUM_EVICT, c->TH_FG, c->SKEW_PCT };
    return i < 6 ? (long)v[i] : 0;
}

static int bgp_set(void *cfg, const char *name, long v)
{
    struct bgp_cfg *c = cfg;
    unsigned *f[] = { &c->M, &c->K, &c->N, &c->NUM_EVICT, &c->TH_FG, &c->SKEW_PCT };
    static const char *const nm[] = { "M", "K", "N", "NUM_EVICT", "TH_FG", "SKEW_PCT" };
    for (unsigned i = 0; i < 6; i++)
        if (!strcmp(name, nm[i])) {
            *f[i] = (unsigned)v;
            return 0;
        }
    return -1;
}

static void bgp_def(void *cfg)
{
    *(struct bgp_cfg *)cfg = bgp_cfg_default();
}

COSIM_GLUE(bgp)

static unsigned bgp_clog2(unsigned v)
{
    unsigned l = 0;
    while ((1u << l) < v)
        l++;
    return l;
}

/* rtl/bgp.v sizes the counters by N and NUM_EVICT (docs/blocks/bgp.md) */
static void bgp_dims_v(const void *cfg, const char *port, unsigned *bits,
                       unsigned *count)
{
    const struct bgp_cfg *c = cfg;
    (void)count;
    if (!strcmp(port, "cnt0_o") || !strcmp(port, "cnt1_o"))
        *bits = bgp_clog2(c->N + 1);
    else if (!strcmp(port, "win_ev_o") || !strcmp(port, "win_ins_o"))
        *bits = bgp_clog2(c->NUM_EVICT + 1);
}

static int bgp_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct bgp_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct bgp_out, nm)};
#include "blocks/bgp_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

static const struct cosim_desc bgp_desc = {
    COSIM_NAME_ID(bgp),
    .cfg_size = sizeof(struct bgp_cfg),
    .state_size = sizeof(struct bgp_state),
    .in_size = sizeof(struct bgp_in),
    .out_size = sizeof(struct bgp_out),
    /* one idle edge clears q_valid_o and e_valid_o; everything else loads
     * only with a valid input (docs/blocks/bgp.md section 4) */
    .settle = 1,
    .params = { "M", "K", "N", "NUM_EVICT", "TH_FG", "SKEW_PCT", NULL },
    .get_param = bgp_get,
    .set_param = bgp_set,
    .cfg_default = bgp_def,
    .init = bgp_init_v,
    .reset = bgp_reset_v,
    .step = bgp_step_v,
    .free = NULL,
    .dims = bgp_dims_v,
    .ports = bgp_ports,
};

/* ------------------------------------------------------------------ RVC */

_Static_assert(sizeof(struct rvc_comp_cfg) == sizeof(struct rvc_decomp_cfg),
               "the RVC descriptors share one cfg layout");

/* Both RVC blocks have one parameter, W (lanes); the W x 32 ports hold W
 * elements and the masks are W bits wide (docs/blocks/rvc.md). Their cfg
 * structs are the same single unsigned. */
static long rvc_get(const void *cfg, unsigned i)
{
    (void)i;
    return (long)((const struct rvc_comp_cfg *)cfg)->W;
}

static int rvc_set(void *cfg, const char *name, long v)
{
    if (strcmp(name, "W") != 0)
        return -1;
    ((struct rvc_comp_cfg *)cfg)->W = (unsigned)v;
    return 0;
}

static void rvc_def(void *cfg)
{
    *(struct rvc_comp_cfg *)cfg = rvc_comp_cfg_default();
}

static void rvc_dims_v(const void *cfg, const char *port, unsigned *bits,
                       unsigned *count)
{
    unsigned W = ((const struct rvc_comp_cfg *)cfg)->W;
    if (!strcmp(port, "data_i") || !strcmp(port, "data_o") || !strcmp(port, "arr_i"))
        *count = W;
    else if (!strcmp(port, "mask_i") || !strcmp(port, "mask_o"))
        *bits = W;
}

COSIM_GLUE(rvc_comp)

static int rvc_comp_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct rvc_comp_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct rvc_comp_out, nm)};
#include "blocks/rvc_comp_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

COSIM_GLUE(rvc_decomp)

static int rvc_decomp_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct rvc_decomp_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct rvc_decomp_out, nm)};
#include "blocks/rvc_decomp_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

/* Outputs are registers; payload registers load only on valid_i, and
 * valid_o follows valid_i: one idle edge clears valid_o, after which an
 * idle edge changes nothing (both blocks). A transaction loads every
 * payload register, so a replay needs only the last transactions. The C
 * models count idle edges from any state (*_idle_edges), so the C backend
 * does not step the settling edge. */
static bool rvc_idle_any_v(const void *st) { (void)st; return true; }
static void rvc_comp_idle_edges_v(void *st, uint64_t n) { rvc_comp_idle_edges(st, n); }
static void rvc_decomp_idle_edges_v(void *st, uint64_t n) { rvc_decomp_idle_edges(st, n); }

/* An RVC instance's replay trace: a mismatch report's waveform covers its
 * last COSIM_HIST edges, and each transaction loads every payload
 * register, so the state at the waveform's start comes from the last
 * transaction before it: 2 x COSIM_HIST transactions always hold it and
 * every one after it (a replay reproduces the waveform exactly). The
 * trace stays a few pages per instance, where 4096 transactions of 180
 * bytes made page faults 10 % of a lockstep run. */
#define RVC_TRACE_WINDOW (2 * COSIM_HIST)

static const struct cosim_desc rvc_comp_desc = {
    COSIM_NAME_ID(rvc_comp),
    .cfg_size = sizeof(struct rvc_comp_cfg),
    .state_size = sizeof(struct rvc_comp_state),
    .in_size = sizeof(struct rvc_comp_in),
    .out_size = sizeof(struct rvc_comp_out),
    .settle = 1,
    .trace_window = RVC_TRACE_WINDOW,
    .params = { "W", NULL },
    .get_param = rvc_get,
    .set_param = rvc_set,
    .cfg_default = rvc_def,
    .init = rvc_comp_init_v,
    .reset = rvc_comp_reset_v,
    .step = rvc_comp_step_v,
    .idle_fixed = rvc_idle_any_v,
    .idle_edges = rvc_comp_idle_edges_v,
    .free = NULL,
    .dims = rvc_dims_v,
    .ports = rvc_comp_ports,
};

static const struct cosim_desc rvc_decomp_desc = {
    COSIM_NAME_ID(rvc_decomp),
    .cfg_size = sizeof(struct rvc_decomp_cfg),
    .state_size = sizeof(struct rvc_decomp_state),
    .in_size = sizeof(struct rvc_decomp_in),
    .out_size = sizeof(struct rvc_decomp_out),
    .settle = 1,
    .trace_window = RVC_TRACE_WINDOW,
    .params = { "W", NULL },
    .get_param = rvc_get,
    .set_param = rvc_set,
    .cfg_default = rvc_def,
    .init = rvc_decomp_init_v,
    .reset = rvc_decomp_reset_v,
    .step = rvc_decomp_step_v,
    .idle_fixed = rvc_idle_any_v,
    .idle_edges = rvc_decomp_idle_edges_v,
    .free = NULL,
    .dims = rvc_dims_v,
    .ports = rvc_decomp_ports,
};

/* ------------------------------------------------------------------ WCU */

static long wcu_get(const void *cfg, unsigned i)
{
    const struct wcu_cfg *c = cfg;
    return i == 0 ? (long)c->W : (long)c->NW;
}

static int wcu_set(void *cfg, const char *name, long v)
{
    struct wcu_cfg *c = cfg;
    if (!strcmp(name, "W"))
        c->W = (unsigned)v;
    else if (!strcmp(name, "NW"))
        c->NW = (unsigned)v;
    else
        return -1;
    return 0;
}

static void wcu_def(void *cfg)
{
    *(struct wcu_cfg *)cfg = wcu_cfg_default();
}

COSIM_GLUE(wcu)

static bool wcu_idle_fixed_v(const void *st) { return wcu_idle_fixed(st); }
static void wcu_idle_edges_v(void *st, uint64_t n) { wcu_idle_edges(st, n); }

/* rtl/wcu.v sizes its ports from W and NW (docs/blocks/wcu.md section 3) */
static void wcu_dims_v(const void *cfg, const char *port, unsigned *bits,
                       unsigned *count)
{
    const struct wcu_cfg *c = cfg;
    if (!strcmp(port, "mask_i")) {
        *bits = c->W;
        *count = c->NW;
    } else if (!strcmp(port, "umask_i")) {
        *bits = c->NW;
    } else if (!strcmp(port, "out_lanes_o")) {
        *bits = c->W;
    } else if (!strcmp(port, "out_wid_o")) {
        *bits = wcu_wid_bits(c);
        *count = c->W;
    } else if (!strcmp(port, "nw_min_o") || !strcmp(port, "nw_nocomp_o")) {
        *bits = wcu_cnt_bits(c);
    }
}

static int wcu_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct wcu_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct wcu_out, nm)};
#include "blocks/wcu_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

static const struct cosim_desc wcu_desc = {
    COSIM_NAME_ID(wcu),
    .cfg_size = sizeof(struct wcu_cfg),
    .state_size = sizeof(struct wcu_state),
    .in_size = sizeof(struct wcu_in),
    .out_size = sizeof(struct wcu_out),
    /* an idle edge emits one of at most NW remaining warps; one more
     * clears the out_valid/out_done/eval_valid pulses (docs/blocks/wcu.md
     * section 4): NW + 1 at the largest NW */
    .settle = WCU_MAX_NW + 1,
    .params = { "W", "NW", NULL },
    .get_param = wcu_get,
    .set_param = wcu_set,
    .cfg_default = wcu_def,
    .init = wcu_init_v,
    .reset = wcu_reset_v,
    .step = wcu_step_v,
    .idle_fixed = wcu_idle_fixed_v,
    .idle_edges = wcu_idle_edges_v,
    .free = NULL,
    .dims = wcu_dims_v,
    .ports = wcu_ports,
};

/* ----------------------------------------------------------------- CAPT */

static long capt_get(const void *cfg, unsigned i)
{
    const struct capt_cfg *c = cfg;
    const unsigned v[] = { c->ENTRIES, c->TAG_W, c->HIST, c->LRU };
    return i < 4 ? (long)v[i] : 0;
}

static int capt_set(void *cfg, const char *name, long v)
{
    struct capt_cfg *c = cfg;
    if (!strcmp(name, "ENTRIES"))
        c->ENTRIES = (unsigned)v;
    else if (!strcmp(name, "TAG_W"))
        c->TAG_W = (unsigned)v;
    else if (!strcmp(name, "HIST"))
        c->HIST = (unsigned)v;
    else if (!strcmp(name, "LRU"))
        c->LRU = (unsigned)v;
    else
        return -1;
    return 0;
}

static void capt_def(void *cfg)
{
    *(struct capt_cfg *)cfg = capt_cfg_default();
}

COSIM_GLUE(capt)

/* rtl/capt.v: the PCs are TAG_W bits, the indices max(1, log2 ENTRIES) */
static void capt_dims_v(const void *cfg, const char *port, unsigned *bits,
                        unsigned *count)
{
    const struct capt_cfg *c = cfg;
    (void)count;
    if (!strcmp(port, "lookup_pc_i") || !strcmp(port, "update_pc_i"))
        *bits = c->TAG_W;
    else if (!strcmp(port, "pred_idx_o") || !strcmp(port, "update_idx_i"))
        *bits = capt_idx_bits(c);
}

static int capt_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct capt_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct capt_out, nm)};
#include "blocks/capt_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

static const struct cosim_desc capt_desc = {
    COSIM_NAME_ID(capt),
    .cfg_size = sizeof(struct capt_cfg),
    .state_size = sizeof(struct capt_state),
    .in_size = sizeof(struct capt_in),
    .out_size = sizeof(struct capt_out),
    /* every output is a register that is 0 without its valid bit; the
     * table changes only on a lookup, update or flush (docs/blocks/capt.md) */
    .settle = 1,
    .params = { "ENTRIES", "TAG_W", "HIST", "LRU", NULL },
    .get_param = capt_get,
    .set_param = capt_set,
    .cfg_default = capt_def,
    .init = capt_init_v,
    .reset = capt_reset_v,
    .step = capt_step_v,
    .free = NULL,
    .dims = capt_dims_v,
    .ports = capt_ports,
};

/* ------------------------------------------------------------- registry */

/* Every block of include/lockstep_blocks.def, by LS_BLK_* id: <name>_desc. */
static const struct cosim_desc *const descs[LS_BLK_COUNT] = {
#define LS_BLOCK(id, name, group, title, when) [LS_BLK_##id] = &name##_desc,
#include "lockstep_blocks.def"
#undef LS_BLOCK
};

const struct cosim_desc *cosim_desc_find(const char *name)
{
    for (size_t i = 0; i < LS_BLK_COUNT; i++)
        if (descs[i] && !strcmp(descs[i]->name, name))
            return descs[i];
    return NULL;
}

const struct cosim_desc *cosim_desc_by_id(int id)
{
    return id >= 0 && id < LS_BLK_COUNT ? descs[id] : NULL;
}
