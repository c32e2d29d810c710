/* The SM timing model (docs/timing-core.md): warp slots, CTA dispatch
 * limits, fetch/instruction buffer, per-warp scoreboard, N warp schedulers
 * (lrr/gto/two_level/oldest), ALU/SFU/MEM/TENSOR pipelines with lanes, initiation
 * interval and latency, register-file banks with operand collectors,
 * shared-memory bank conflicts, the coalescer and barriers. Values are
 * computed at issue by simt_step(); this layer only moves timing records.
 * It never calls csim/mem: the GPU top moves core_mem_req/core_mem_resp. */
#ifndef CORE_H
#define CORE_H

#include <stdbool.h>
#include <stdint.h>
#include "lockstep.h"
#include "cfg/cfg.h"
#include "core/core_port.h"
#include "simt/simt.h"

/* The mechanisms of the table (core_mech.def, core_mech.h), by id. */
enum core_mech_id {
#define CORE_MECH(id, name, ops, doc) CORE_MECH_##id,
#include "core/core_mech.def"
    CORE_MECH_COUNT
};

#define CORE_INF UINT64_MAX
#define CORE_MAX_SRC 28            /* wmma.mma: 24 fragment registers      */
#define CORE_MAX_DST 8             /* wmma.load/mma: an 8-register fragment */
#define CORE_MAX_PEND 16           /* outstanding loads per warp          */
#define CORE_MAX_SLOTS 64          /* warp slots per SM (2048 threads)    */
#define CORE_INST_BYTES 8u      /* code bytes of one instruction (icache) */
#define CORE_TAG_NOWAIT 0x80000000u /* store/red: nobody waits for it      */
#define CORE_NBAR 16

/* Pipelined units first (ALU..TENSOR have unit_free/ii/lat rows). */
enum core_unit { CORE_U_ALU, CORE_U_SFU, CORE_U_MEM, CORE_U_TENSOR, CORE_U_CTRL,
                 CORE_U_NONE };
#define CORE_NPIPE 4               /* ALU, SFU, MEM, TENSOR                 */
enum core_stall { CORE_ST_NONE, CORE_ST_BARRIER, CORE_ST_IBUFFER,
                  CORE_ST_SCOREBOARD, CORE_ST_MEM, CORE_ST_PIPE };

/* One decoded static instruction (scoreboard and unit class). */
struct core_dinst {
    uint8_t unit;               /* enum core_unit                         */
    uint8_t ndst, nsrc;
    uint8_t is_atomic;          /* atom/red: performed at L2              */
    uint8_t is_cta_bar;         /* bar/barrier other than bar.warp.sync:
                                   a CTA barrier (DPE holds a path there) */
    uint16_t tsteps;            /* TENSOR: work in 1/256 of a 16x16x16 f16
                                   step (M*N*K * element bits / 256)      */
    uint8_t rf_rd, rf_wr;       /* 32-bit words of the vector-register
                                   sources / destinations (predicates
                                   excluded; a 64-bit register is two):
                                   the energy model's RF accesses         */
    uint8_t ecls;               /* enum core_ecls: GPUWattch's energy class
                                   of an ALU/SFU lane operation           */
    uint8_t rf_addr;            /* of rf_rd, the address register's words */
    uint8_t opc;                /* enum core_opc: GPGPU-Sim's opcode class */
    uint8_t unit_cls;           /* the unit under opcode_timing = class    */
    uint8_t opc3, unit_cls3;    /* the class and unit under class3         */
    uint8_t alu_slot;           /* control (bra, call, ret, exit) or bar:
                                   takes an ALU issue slot though it uses no
                                   unit (core_dinst_pipe)                  */
    uint32_t iaddr;             /* code byte address in the module: 8 bytes
                                   an instruction (GPGPU-Sim's MAX_INST_SIZE),
                                   the functions one after another         */
    int32_t dst[CORE_MAX_DST];
    int32_t src[CORE_MAX_SRC];
};

/* GPUWattch's execution-energy classes (core_ecls.def). */
enum core_ecls {
#define CORE_ECLS(id, name, ctr, weight, idle, doc) CORE_ECLS_##id,
#include "core/core_ecls.def"
#undef CORE_ECLS
    CORE_ECLS_N
};

/* GPUWattch's accesses (per unit of the class's weight) for the inactive
 * lanes of one warp instruction of class k with `active` of 32 lanes
 * active (core_ecls.def's idle column). */
static inline unsigned core_ecls_idle(unsigned k, unsigned active)
{
    static const bool sfu_form[CORE_ECLS_N] = {
#define IDLE_HALF false
#define IDLE_SFU true
#define CORE_ECLS(id, name, ctr, weight, idle, doc) idle,
#include "core/core_ecls.def"
#undef CORE_ECLS
#undef IDLE_HALF
#undef IDLE_SFU
    };
    unsigned n = active < 32 ? 32 - active : 0;
    return (n >> 1) + (k < CORE_ECLS_N && sfu_form[k] ? 2 * (n >> 3) : 0);
}

/* GPGPU-Sim's opcode classes (core_opc.def). */
enum core_opc {
#define CORE_OPC(id, lat, ii, unit, unit3, doc) CORE_OPC_##id,
#include "core/core_opc.def"
#undef CORE_OPC
    CORE_OPC_N
};

/* Decoded instructions of every function of a module (index = funcs[i]). */
struct core_prog {
    const struct ptx_module *mod;
    struct core_dinst **di;     /* di[func][pc]                            */
    uint32_t nfuncs;
    uint32_t max_regs;          /* largest nregs over the module           */
    uint32_t code_bytes;        /* the module's code (core_dinst.iaddr)    */
};

/* One coalesced line of a warp access (coalescer output). */
struct core_line {
    uint64_t line_addr;
    uint8_t sector_mask;
    uint16_t bytes;
};

/* What every CTA of a launch shares (set up by csim/gpu). */
struct core_kernel {
    const struct ptx_module *mod;
    const struct ptx_func *f;
    const struct core_prog *prog;
    const uint64_t *sym0, *sym1;
    uint64_t frame0, local_stride;
    const uint8_t *param; uint64_t param_bytes;
    uint64_t shared_bytes;
    uint32_t dyn_smem;          /* dynamic shared bytes of the launch      */
    uint64_t grid_ws;           /* cooperative launch: grid-sync word    */
    uint32_t ntid[3], nctaid[3];
    uint32_t nthreads, nwarps;  /* per CTA                                 */
    uint32_t regs_per_thread;   /* estimate, see core_regs_per_thread      */
    struct exec_dmem *dmem;
    const struct exec_tex *tex; uint32_t ntex;
    uint32_t max_stack_depth;
    simt_commit_fn commit;      /* commit log observer, NULL: none         */
    struct exec_chk *chk;       /* racecheck/synccheck/initcheck, NULL: off */
    void *commit_user;
    simt_extern_fn ext;         /* device runtime (extern calls)           */
    void *ext_user;
    const void *mech[CORE_MECH_COUNT]; /* each mechanism's launch-wide data
                                   (its prepare hook: DAC's transform)    */
    uint64_t *code_l2;          /* icache: per code line, 0 or 1 + the cycle
                                   its first fetch fills the L2 (launch-wide,
                                   every SM's); NULL: no instruction cache */
    uint32_t code_lines;
};

struct core_pend {
    uint32_t left; uint8_t ndst; uint8_t atom; int32_t dst[CORE_MAX_DST];
    uint64_t own;               /* the stepper's tag (its pend hook: the
                                   home-warp slots of a compacted warp, the
                                   path of a dual-path warp); 0: base     */
    uint32_t mask;              /* its threads                            */
    uint64_t missed;            /* cycle + 1 the memory system took a line
                                   of it that missed in the L1D (0: none) */
};

struct core_warp {
    struct simt_warp sw;
    uint64_t *reg_ready;        /* cycle each register is readable         */
    uint64_t ibuf_ready;        /* instruction buffer refilled at          */
    uint64_t ibuf_block;        /* arrival cycle of the current fetch block */
    uint32_t ibuf_n;            /* instructions left in the current block  */
    const struct core_dinst *next_di; /* decoded next instruction          */
    uint64_t age;               /* dispatch stamp (oldest/gto)             */
    int32_t cta;                /* CTA slot, -1 = free slot                */
    uint32_t npend;             /* outstanding load instructions           */
    uint32_t pend_used;         /* bit i: pend[i] in use                   */
    uint32_t natom;             /* pend entries of outstanding atomics (atom_issue = wait) */
    uint64_t atom_ready;        /* issue resumes at (atom_issue = wait)    */
    struct core_pend pend[CORE_MAX_PEND];
};


struct core_cta {
    bool used;
    uint32_t ctaid[3];
    uint32_t nwarps_left;       /* warps not yet finished                  */
    uint32_t arrived[CORE_NBAR], expect[CORE_NBAR];
    uint32_t ntrue[CORE_NBAR], nfalse[CORE_NBAR]; /* bar.red predicates   */
    uint8_t *shared;
};

/* Per-SM statistics (summed by the GPU top). */
struct core_stats {
    uint64_t warp_insts, thread_insts, branches, divergent, max_depth;
    uint64_t busy_cycles;       /* cycles with resident work               */
    uint64_t idle_cycles;       /* of those, cycles with no issue          */
    ls_stall_stats stall;
    uint64_t stack_hist[LS_STACK_HIST];
    uint64_t shmem_conflict_cycles;
    uint64_t icache_accesses, icache_misses; /* block fetches, line misses */
    uint64_t issued;            /* warp instructions issued (watchdog)    */
    uint64_t tensor_insts;      /* wmma.mma/mma warp instructions issued  */
    uint64_t tensor_busy;       /* tensor pipe-cycles busy (all pipes)    */
    ls_energy_stats energy;     /* energy-model events (docs/energy.md)    */
};

struct core_view;
struct core_mech_ops;
struct core_mech_env;
struct cosim_env;
typedef uint8_t (*core_prio_fn)(const void *self, const struct core_view *v, unsigned slot);
typedef void (*core_lane_fn)(void *self, unsigned slot, uint64_t now, unsigned *key,
                             unsigned *rot);

/* What a mechanism sees of its SM (core_mech.h): the warps and CTAs, the
 * kernel, the pipelines, the memory queue and the schedulers' wake state
 * (changed through the core_view_* actions), and the services other
 * mechanisms offer (request priority, lane map). */
struct core_view {
    const struct cfg *c;
    unsigned id, nslots, ncta_slots;
    const struct core_kernel *k;
    struct core_warp *w;        /* nslots warp slots                       */
    struct core_cta *cta;       /* ncta_slots CTA slots                    */
    uint64_t clock_now;         /* cycle being simulated: %clock/%clock64  */
    /* pipelines: cycle each unit accepts its next instruction */
    uint64_t unit_free[CORE_NPIPE][8];
    unsigned units[CORE_NPIPE], lanes[CORE_NPIPE], ii[CORE_NPIPE], lat[CORE_NPIPE];
    unsigned wb_lat;            /* cycles added to every register write-back
                                   (G-Scalar's compress/decompress stages) */
    /* hot per-slot state, compact for the scheduler scan: the cycle
     * before which the slot cannot issue (CORE_INF: free, finished, or
     * waiting for a response/release) and the stall that set it */
    uint64_t wake[CORE_MAX_SLOTS];
    uint8_t wake_reason[CORE_MAX_SLOTS];
    uint64_t next_try;          /* the SM's next cycle with work           */
    /* memory request queue towards the GPU top */
    struct core_mem_req *q; uint32_t qhead, qn, qcap;
    /* per-slot local stacks (32 threads x local_stride), allocated on
     * first use and zeroed once per kernel */
    uint8_t *local_slot[CORE_MAX_SLOTS];
    struct core_stats st;
    int err_slot;               /* the failed warp's slot (-1: none)       */
    /* services of mechanisms (NULL: none offers it) */
    core_prio_fn prio; const void *prio_self;
    core_lane_fn lane_map; void *lane_self;
};

/* One mechanism on an SM: its ops and what its init made. */
struct core_mech_inst {
    const struct core_mech_ops *ops;
    void *self;
    bool active;                /* runs the current kernel                 */
};

#define CORE_MECH_MAX (CORE_MECH_COUNT + 2)     /* plus core_sm_attach's   */

/* The active mechanisms of a kernel, per hook that the SM calls often
 * (an empty list costs the loop test only). */
struct core_hooks {
    const struct core_mech_inst *gate[CORE_MECH_MAX], *asleep[CORE_MECH_MAX],
        *own_wait[CORE_MECH_MAX], *before[CORE_MECH_MAX], *retire[CORE_MECH_MAX],
        *next_inst[CORE_MECH_MAX], *claim[CORE_MECH_MAX], *cycle[CORE_MECH_MAX],
        *cycle_end[CORE_MECH_MAX], *next[CORE_MECH_MAX], *resp[CORE_MECH_MAX],
        *bar_release[CORE_MECH_MAX], *warp_start[CORE_MECH_MAX],
        *cta_start[CORE_MECH_MAX], *warp_leave[CORE_MECH_MAX];
    unsigned ngate, nasleep, nown_wait, nbefore, nretire, nnext_inst, nclaim, ncycle,
        ncycle_end, nnext, nresp, nbar_release, nwarp_start, ncta_start, nwarp_leave;
    bool rows;                  /* a before/retire hook reads is->row      */
    bool where;                 /* one reads is->at                        */
};

/* GPGPU-Sim's operand-collector stage (shader.cc, shader_core_ctx::cycle
 * runs writeback, execute, read_operands, issue in that order): issue at t
 * fills ID_OC; t+1 allocate_cu takes a collector unit and queues its bank
 * reads; t+2 allocate_reads reads them (one per bank a cycle); t+3
 * dispatch_ready_cu moves it to OC_EX; t+4 execute() issues it to the unit. */
#define CORE_OC_FRONT 4
/* GPGPU-Sim's write-back: an instruction issued to a unit at F waits its
 * initiation interval ii in the dispatch register, enters pipeline stage
 * latency - ii at F+ii, leaves stage 0 for EX_WB at F+1+latency, and
 * writeback() releases its scoreboard entries at F+2+latency (F + 3 +
 * latency - 1), when the scheduler may issue a dependent
 * (pipelined_simd_unit::cycle, warp_inst_t::dispatch_delay). */
#define CORE_WB_STAGES 3
#define CORE_RBUS 2048          /* result-bus ring: > front + any latency  */

struct core_sm {
    struct core_view v;         /* what mechanisms see                     */
    unsigned nsched;
    /* resources in use */
    uint32_t used_threads, used_regs, used_ctas;
    uint64_t used_shared;
    uint32_t live_warps;
    uint64_t age_next;
    uint64_t *coll_free;        /* operand collectors                      */
    unsigned last_coll;         /* collector of the instruction being issued */
    unsigned coll_lo[3], coll_n[3]; /* collectors of ALU, SFU, MEM (pool: all) */
    unsigned front;             /* issue to execution without conflicts:
                                   0 lumped, CORE_OC_FRONT staged         */
    bool wb_staged;             /* pipe_writeback = staged                 */
    bool opc_on;                /* opcode_timing = class or class3         */
    uint16_t opc_lat[CORE_OPC_N], opc_ii[CORE_OPC_N]; /* per opcode class;
                                   0: the unit's                           */
    uint8_t rbus_n[CORE_RBUS];  /* results written back in cycle t, at    */
    uint64_t rbus_at[CORE_RBUS]; /* t % CORE_RBUS (rbus_at: which t)       */
    bool fetch_one;             /* fetch_port = one                        */
    uint64_t fport_at[CORE_RBUS]; /* fetch_port = one: the cycle t the slot
                                   t % CORE_RBUS holds a block fetch for  */
    uint64_t bank_cycle; uint64_t bank_used;  /* banks read this cycle     */
    /* schedulers */
    uint32_t last[8];           /* last issued slot per scheduler          */
    uint32_t active_cta[8];     /* two_level: active group per scheduler   */
    int gto_last[8];
    /* slots asleep with an instruction (a path, DPE) blocked by the memory
     * queue or their own outstanding loads (CORE_ST_MEM): that changes only
     * with a load's response (which wakes its warp), the queue falling to
     * 32 requests or a memory instruction issuing (the unit turns busy: the
     * check would say PIPE), which wake these (mem_wake in core_sm.c) */
    uint64_t mem_sleep;
    uint8_t age_order[8][CORE_MAX_SLOTS]; /* resident slots by age, per scheduler */
    uint32_t nage[8];
    uint64_t local_cap[CORE_MAX_SLOTS];
    bool local_clean[CORE_MAX_SLOTS];
    uint64_t local_bytes;
    uint8_t *shared; uint64_t shared_cap;
    /* event skipping and idle accounting */
    uint64_t last_eval;
    int last_reason;
    bool has_work_at_last;
    bool cta_finished;          /* a CTA ended since the top last looked   */
    uint64_t issue_cap;         /* stop issuing when st.issued reaches it
                                   (the GPU's warp-instruction budget)     */
    uint32_t mem_pc;            /* PTX line of the memory instruction in issue */
    /* instruction cache (icache_size > 0): per line (set * ways + way) the
     * line number + 1 (0: empty), its LRU stamp and the cycle its fill
     * arrives; ic_miss_lat: a miss's fill time */
    uint64_t *ic_tag, *ic_lru, *ic_ready;
    unsigned ic_sets, ic_ways, ic_line;
    uint64_t ic_stamp, ic_miss_lat, ic_dram_lat;
    /* mechanisms (core_mech.h): by table id, then core_sm_attach's */
    struct core_mech_inst mech[CORE_MECH_MAX];
    unsigned nmech;
    const struct core_mech_inst *step;  /* the kernel's stepper, NULL: base */
    bool merged;                /* its slots hold compacted warps          */
    struct core_hooks hk;
};

/* Creates the mechanisms config e->c turns on (core_smmech.c). Returns 0,
 * or -1 with the reason in err. */
int core_sm_mech_init(struct core_sm *sm, const struct core_mech_env *e, char *err,
                      size_t n);
/* Frees them. */
void core_sm_mech_free(struct core_sm *sm);
/* The kernel starts at now: each mechanism says whether it runs it; the
 * stepper and the hook lists of the kernel follow. Returns 0 or -1. */
int core_sm_mech_kernel(struct core_sm *sm, uint64_t now);

/* Builds the decode tables of every function of mod. Returns 0 or -1. */
int core_prog_build(struct core_prog *p, const struct ptx_module *mod);
/* Sets every ALU/SFU instruction's unit (and, under class3, its class) as
 * config c's opcode_timing says (class: DIV/REM and f64 arithmetic on the
 * SFU; class3: GPGPU-Sim 3.2.2's table, core_opc.def). Call after
 * core_prog_build, before the launch runs. */
void core_prog_timing(struct core_prog *p, const struct cfg *c);
/* Latency and initiation interval (0: the unit's) of opcode class o under
 * config c's opcode_timing = class. */
void core_opc_timing(const struct cfg *c, unsigned o, unsigned *lat, unsigned *ii);
/* Frees what core_prog_build allocated. */
void core_prog_free(struct core_prog *p);
/* Estimated 32-bit registers per thread of kernel f (max overlap of the
 * live ranges of its PTX virtual registers; see docs/timing-core.md). */
uint32_t core_regs_per_thread(const struct ptx_func *f);
/* Coalesces the per-lane addresses of r into lines of line bytes with
 * sector bytes per sector; writes up to 32 lines to out; returns the count. */
unsigned core_coalesce(const struct exec_result *r, unsigned line,
                       unsigned sector, struct core_line *out);
/* Coalesces r's per-lane addresses as compute capability 1.2/1.3 does
 * (CUDA C Programming Guide 4.2, F.3.2.2): per half-warp, a transaction per
 * 32/64/128-byte segment (by word size) reduced to the half or quarter in
 * use, each split into lines of line bytes; writes up to cap lines to out
 * (a line both half-warps touch twice); returns the count. */
unsigned core_coalesce_cc13(const struct exec_result *r, unsigned line,
                            unsigned sector, struct core_line *out, unsigned cap);
/* Adds naddr further accesses of sz bytes each (the other texels of a
 * filtered texture fetch) to the n lines of out (capacity cap); returns
 * the new line count. */
unsigned core_coalesce_more(struct core_line *out, unsigned n, unsigned cap,
                            const uint64_t *addr, unsigned naddr, unsigned sz,
                            unsigned line, unsigned sector);
/* Line requests one texture instruction may make: 32 lanes x 16 texels
 * (trilinear 3-D reads 2 x 8). */
#define CORE_TEX_LINES 512
/* Shared-memory conflict degree (>= 1 when any lane is active) of r with
 * nbanks 4-byte banks: the largest number of distinct words in one bank. */
unsigned core_shmem_degree(const struct exec_result *r, unsigned nbanks);

/* Warp slots of an SM under config c (max_threads_per_sm / 32, at most
 * CORE_MAX_SLOTS). */
unsigned core_sm_slots(const struct cfg *c);
/* Creates SM id for config c (warp slots, stacks) and every mechanism
 * the config turns on (core_mech.def; their blocks through the seam env,
 * NULL: none). Returns 0, or -1 with the reason in err. */
int core_sm_init(struct core_sm *sm, const struct cfg *c, unsigned id,
                 uint32_t max_stack_depth, struct cosim_env *env, char *err, size_t n);
/* Adds a mechanism outside the table (tests): ops with what its init made.
 * Call before core_sm_kernel. Returns 0 or -1 (no room). */
int core_sm_attach(struct core_sm *sm, const struct core_mech_ops *ops, void *self);
/* What mechanism id's init made on sm, or NULL when it is not on. */
void *core_sm_mech(const struct core_sm *sm, enum core_mech_id id);
/* Launch-wide data of every mechanism config c turns on for kernel f into
 * mech[] (their prepare hooks). Returns 0, or -1 with err and the PTX
 * line at fault (0: the kernel's). */
int core_mech_prepare(const struct cfg *c, const struct ptx_func *f,
                      const void *mech[CORE_MECH_COUNT], char *err, size_t n,
                      uint32_t *line);
/* Frees what core_mech_prepare made. */
void core_mech_unprepare(const struct cfg *c, const void *mech[CORE_MECH_COUNT]);
/* The failure behind status e that a mechanism of sm reports, or NULL
 * (a warp's own fault: sm->v.err_slot); *line: its PTX line (0: the
 * kernel's). */
const char *core_sm_why(const struct core_sm *sm, int e, uint32_t *line);
/* Kernel end at GPU cycle end: every mechanism clocks its blocks through
 * and drains them. Returns 0, or the first failure (core_sm_why). */
int core_sm_finish(struct core_sm *sm, uint64_t end, const char **why, uint32_t *line);
/* Adds every mechanism's figures for the launch into s (first: the SM
 * that reports launch-wide fields). */
void core_sm_mech_stats(const struct core_sm *sm, bool first, ls_stats *s);
/* Frees what core_sm_init and core_sm_kernel allocated. */
void core_sm_free(struct core_sm *sm);
/* Prepares sm for kernel k (local/shared segments, scoreboards) at cycle
 * now. Returns 0 or -1 on host memory exhaustion. */
int core_sm_kernel(struct core_sm *sm, const struct core_kernel *k, uint64_t now);
/* The pipeline whose issue slot di takes, or CORE_NPIPE for none: its
 * unit, or the ALU's for a control instruction or barrier, as GPGPU-Sim
 * issues BRANCH_OP, CALL_OPS, RET_OPS, BARRIER_OP and exit's ALU_OP
 * (cuda-sim.cc set_opcode_and_latency, lines 796-859) to the SP pipeline
 * like any op that is not memory, SFU, DP, tensor or specialized
 * (shader.cc scheduler_unit::cycle, lines 1357-1420), where it holds the
 * dispatch register and a result bus as an ALU instruction does. */
static inline unsigned core_dinst_pipe(const struct core_dinst *di)
{
    return di->unit <= CORE_U_TENSOR ? di->unit : di->alu_slot ? CORE_U_ALU : CORE_NPIPE;
}

/* Whether one more CTA of the current kernel fits (threads, registers,
 * shared memory, CTA slots). */
bool core_sm_fits(const struct core_sm *sm);
/* Makes CTA ctaid resident at cycle now. Returns 0 or -1 (host memory). */
int core_sm_launch_cta(struct core_sm *sm, const uint32_t ctaid[3], uint64_t now);
/* Runs one cycle at now: every scheduler issues at most one instruction.
 * Returns 0, or a non-zero ls_status on a warp failure (sm->err_slot). */
int core_sm_cycle(struct core_sm *sm, uint64_t now);
/* Structural hazard of issuing di from warp w at now: CORE_ST_NONE (with
 * *unit_ix = the free pipeline, for pipelined units), CORE_ST_PIPE (every
 * unit busy; *when = the first free) or CORE_ST_MEM (the warp's loads or
 * the SM's memory queue full; *when = CORE_INF). */
static inline int core_view_unit_wait(const struct core_view *v, const struct core_warp *w,
                                      const struct core_dinst *di, uint64_t now,
                                      uint64_t *when, int *unit_ix)
{
    unsigned p = core_dinst_pipe(di);
    if (p >= CORE_NPIPE)
        return CORE_ST_NONE;
    uint64_t best = CORE_INF;
    int ix = -1;
    for (unsigned u = 0; u < v->units[p]; u++)
        if (v->unit_free[p][u] < best) {
            best = v->unit_free[p][u];
            ix = (int)u;
        }
    if (best > now) {
        *when = best;
        return CORE_ST_PIPE;
    }
    *unit_ix = ix;
    if (di->unit == CORE_U_MEM &&
        (w->npend >= CORE_MAX_PEND || v->qn > 32)) {
        *when = CORE_INF;       /* woken by a response or a queue pop */
        return CORE_ST_MEM;
    }
    return CORE_ST_NONE;
}

/* Delivers a memory completion at now (releases load destinations). */
void core_sm_resp(struct core_sm *sm, const struct core_mem_resp *r, uint64_t now);
/* Pending request at the head of the SM's memory queue, or NULL. */
const struct core_mem_req *core_sm_req_peek(const struct core_sm *sm);
/* Drops the head request (the memory system accepted it) at now; missed:
 * it missed in the L1D (a waiting load's core_pend.missed records it). */
void core_sm_req_pop(struct core_sm *sm, uint64_t now, bool missed);
/* Whether the SM has resident warps or queued requests. */
bool core_sm_busy(const struct core_sm *sm);
/* Closes idle-cycle accounting up to cycle end (exclusive). */
void core_sm_account(struct core_sm *sm, uint64_t end);
/* Writes each resident warp's PC, stack and scoreboard state to buf. */
int core_sm_describe(const struct core_sm *sm, uint64_t now, char *buf, size_t n);

#endif
