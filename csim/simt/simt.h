/* SIMT control flow of one warp: the per-warp reconvergence stack
 * (immediate post-dominator reconvergence, docs/simt-stack.md), call
 * frames for .func calls, and the step loop that fetches the top-of-stack
 * PC, executes one instruction through csim/exec and updates the stack. */
#ifndef SIMT_H
#define SIMT_H

#include <stdint.h>
#include "exec/exec.h"
#include "exec/exec_mem.h"
#include "exec/exec_check.h"

#define SIMT_MAX_FRAMES 16      /* nested .func calls per warp */

/* One reconvergence-stack entry. */
struct simt_entry {
    uint32_t mask;              /* threads that follow this path          */
    int32_t npc;                /* next instruction index                 */
    int32_t rpc;                /* reconvergence instruction index        */
    uint16_t frame;             /* call frame (index into frames[])       */
    uint8_t wait;               /* 1: these threads wait at the warp's
                                   barrier (bar_id) while others of the
                                   warp run (docs/simt-stack.md)           */
};

/* One activation of a function (frame 0: the kernel). */
struct simt_frame {
    const struct ptx_func *func;
    uint64_t *regs;  size_t regs_cap;       /* func->nregs * EXEC_WARP    */
    uint64_t *sym1;  size_t sym1_cap;       /* addresses of func->syms    */
    uint64_t local_base, local_top;         /* slice of the local stack   */
};

enum simt_state { SIMT_READY, SIMT_AT_BARRIER, SIMT_DONE };
enum simt_rc { SIMT_RC_OK, SIMT_RC_BARRIER, SIMT_RC_DONE, SIMT_RC_ERROR };

struct simt_warp;

/* What a SIMT_RC_ERROR is (w->err_kind); SIMT_ERR_EXEC and SIMT_ERR_SIMT
 * are told apart by err_simt as before. */
enum simt_err_kind {
    SIMT_ERR_PLAIN = 0,     /* exec fault / SIMT resource error (err_simt)  */
    SIMT_ERR_ASSERT,        /* a device assert failed: err.msg is the whole
                               CUDA-style message                           */
    SIMT_ERR_EXTERN         /* a call of an extern .func nothing implements */
};

/* Calls of a .func without a body (vprintf, malloc, free, __assertfail,
 * device launches ...) for the lanes `lanes` of w, at instruction in (a
 * call in the current frame): the device runtime of the layer above
 * (gpu_devrt.c). Returns 0, or -1 with w->err and w->err_kind filled. */
typedef int (*simt_extern_fn)(void *user, struct simt_warp *w,
                              const struct ptx_func *callee,
                              const struct ptx_inst *in, uint32_t lanes);

/* Per-step observer (tests, tracing): called before each instruction. */
typedef void (*simt_trace_fn)(void *user, const struct simt_warp *w,
                              int32_t pc, uint32_t mask);

/* Commit observer (commit logs): called after each instruction that
 * executed without error; f and pc name it, mask = the lanes it was issued
 * for (w->res.active: those that ran it, for ALU/memory/warp ops). */
typedef void (*simt_commit_fn)(void *user, const struct simt_warp *w,
                               const struct ptx_func *f, int32_t pc,
                               uint32_t mask);

struct simt_warp {
    struct exec_warp ew;        /* register view of the current frame     */
    struct exec_memctx mem;     /* memory view; mem.func tracks the frame */
    struct exec_grid gridv;     /* launch geometry with this warp's id    */
    const struct ptx_module *mod;
    struct simt_entry *stack;
    uint32_t sp, cap;           /* entries used, maximum depth            */
    struct simt_frame frames[SIMT_MAX_FRAMES];
    uint32_t nframes;
    uint32_t live;              /* lanes not exited                       */
    uint8_t state;              /* enum simt_state                        */
    uint32_t bar_id, bar_count; /* at a barrier: id, thread count or 0    */
    uint32_t bar_mask;          /* at a barrier: lanes that arrived       */
    int32_t bar_pc;             /* at a barrier: its instruction index    */
    uint8_t bar_red;            /* bar.red: PTX_SUB_RED_* (0: plain sync) */
    uint32_t bar_ntrue, bar_nfalse; /* bar.red: arrived lanes whose c is
                                 * true / false                           */
    uint32_t bar_wait;          /* lanes waiting at bar_id in `wait`
                                   entries while other lanes run (0: none) */
    /* statistics */
    uint64_t warp_insts, thread_insts, branches, divergent, max_depth;
    /* instructions that stored (st, atom, red, wmma.store, sust) outside
     * shared and local memory or called the device runtime, and those
     * that stored to local memory: functional mode's spin detector
     * (gpu_launch.c) needs them to know memory stayed the same */
    uint64_t writes, local_writes;
    /* failure detail (SIMT_RC_ERROR) */
    struct exec_error err;
    int32_t err_pc;
    bool err_simt;              /* stack/call resource error, not exec    */
    uint8_t err_kind;           /* enum simt_err_kind                     */
    const struct ptx_func *err_func;
    struct exec_result res;     /* last instruction's retire record       */
    simt_trace_fn trace;
    void *trace_user;
    simt_commit_fn commit;      /* NULL: no commit log                    */
    void *commit_user;
    struct exec_chk_warp chkw;  /* chkw.chk NULL: no racecheck, synccheck,
                                   initcheck (docs/checks.md)             */
    simt_extern_fn ext;         /* NULL: every extern call fails          */
    void *ext_user;
};

/* Allocates the stack (cap entries) of a zeroed warp. Returns 0 or -1. */
int simt_warp_alloc(struct simt_warp *w, uint32_t cap);
/* Frees what simt_warp_alloc and simt_warp_start allocated. */
void simt_warp_free(struct simt_warp *w);
/* (Re)starts w at instruction 0 of kernel f with threads `valid`:
 * one stack entry {valid, 0, ninsts}, frame 0 = f with registers zeroed
 * and function-symbol addresses sym1 (copied; f->nsyms entries).
 * local_frame = bytes of frame 0 in each thread's local stack.
 * Returns 0, or -1 on host memory exhaustion. */
int simt_warp_start(struct simt_warp *w, const struct ptx_module *mod,
                    const struct ptx_func *f, uint32_t valid,
                    const uint64_t *sym1, uint64_t local_frame);
/* Bytes a frame of f needs in a thread's local stack (.local variables
 * and the .param variables of its call sequences); fills sym1 (f->nsyms,
 * may be NULL) for the local/param body symbols at local_base. */
uint64_t simt_frame_layout(const struct ptx_func *f, uint64_t local_base,
                           uint64_t *sym1);
/* Runs w until it reaches a barrier, finishes, fails or has issued
 * *budget warp instructions (then returns SIMT_RC_OK); decrements *budget. */
enum simt_rc simt_run(struct simt_warp *w, uint64_t *budget);
/* Executes one instruction of w (the top-of-stack PC). */
enum simt_rc simt_step(struct simt_warp *w);
/* Whether an instruction (op, sub) is control flow for the SIMT layer
 * (bra, brx, call, ret, exit, trap, CTA barriers); bar.warp.sync is not. */
bool simt_is_control(enum ptx_op op, uint8_t sub);
/* Executes the non-control instruction pc of w's current frame for the
 * lanes `mask` without touching w's reconvergence stack (the CTA-wide
 * engine of thread-block compaction runs a home warp's share of a
 * compacted warp with it); counts, traces, checks and commits it as
 * simt_step does. Returns SIMT_RC_OK or SIMT_RC_ERROR (w->err filled). */
enum simt_rc simt_exec_at(struct simt_warp *w, int32_t pc, uint32_t mask);
/* The branch rule every reconvergence stack shares (per-warp, CTA-wide
 * simt_cta.c, dual-path simt_dpe.c): bra `in` at pc of a function of
 * ninsts instructions whose active threads all take it (all), none take
 * it (none) or some do. Returns false for a uniform branch (*npc = the
 * next pc of every thread), true for a divergence (*rpc = the immediate
 * post-dominator, clamped to ninsts). */
bool simt_branch_split(const struct ptx_inst *in, int32_t pc, uint32_t ninsts,
                       bool all, bool none, int32_t *npc, int32_t *rpc);
/* Releases w from its barrier (advances past it). */
void simt_release(struct simt_warp *w);
/* Before simt_release of a warp waiting in bar.red: writes the CTA-wide
 * result to its destination for the lanes that arrived (.popc: ntrue,
 * .and: nfalse == 0, .or: ntrue != 0; ntrue/nfalse count the threads of
 * the CTA that arrived with c true / false). No-op for other barriers. */
void simt_bar_red_result(struct simt_warp *w, uint32_t ntrue, uint32_t nfalse);
/* Writes "pc N (line L) stack [mask npc rpc]..." for w into buf. */
void simt_describe(const struct simt_warp *w, char *buf, size_t len);

#endif
