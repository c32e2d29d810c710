/* Lockstep public C API: a cycle-level SIMT GPU model that runs nvcc PTX.
 *
 * Every call that can fail returns an ls_status; LS_OK is 0. The message of
 * the last failure on a GPU (naming the file:line of the PTX or of the
 * library where it arose) is ls_gpu_error(). Nothing here calls exit() and
 * no state is global: several GPUs may live in one process. */
#ifndef LOCKSTEP_H
#define LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ls_status {
    LS_OK = 0,
    LS_ERR_INVALID = 1,   /* bad argument (null pointer, unknown name, ...)   */
    LS_ERR_PARSE = 2,     /* malformed or unsupported PTX                      */
    LS_ERR_NOMEM = 3,     /* host or device memory exhausted                   */
    LS_ERR_MEMFAULT = 4,  /* out-of-bounds or misaligned device access         */
    LS_ERR_DEADLOCK = 5,  /* barrier never reached or instruction budget spent */
    LS_ERR_LAUNCH = 6,    /* bad launch geometry, arguments or resources       */
    LS_ERR_IO = 7,        /* file could not be read                            */
    LS_ERR_INTERNAL = 8,  /* a model invariant broke: a bug, please report     */
    LS_ERR_COSIM = 9,     /* an RTL block disagreed with its C model (cosim)   */
    LS_ERR_INTERRUPTED = 10, /* the caller's cancel flag stopped the launch    */
    LS_ERR_CHECK = 11,    /* check_error = 1 and a racecheck, synccheck,
                             initcheck or globalrace finding (docs/checks.md) */
    LS_ERR_ASSERT = 12    /* a device-side assert() failed (cudaErrorAssert)   */
} ls_status;

/* Human-readable name of a status code ("LS_ERR_PARSE"). */
const char *ls_status_name(ls_status s);

typedef uint64_t ls_dptr;                 /* device (global) address       */
typedef struct ls_gpu ls_gpu;             /* one simulated GPU             */
typedef struct ls_module ls_module;       /* one loaded PTX module         */
typedef struct ls_dim3 { unsigned x, y, z; } ls_dim3;

typedef enum ls_mode {
    LS_MODE_FUNCTIONAL = 0,      /* instruction-accurate, no cycles          */
    LS_MODE_TIMING = 1           /* cycle-level SM + memory model            */
} ls_mode;

/* GPU configuration. The timing machine comes from a key=value config
 * (configs/NAME.conf; keys in csim/cfg/cfg_keys.def) plus overrides. */
typedef struct ls_config {
    unsigned warp_size;          /* threads per warp; 32                      */
    uint64_t global_mem_bytes;   /* device memory capacity; 0 = config key
                                    global_mem_bytes (the GPU's, 1.5 GiB)   */
    uint64_t max_warp_insts;     /* per-launch budget before a deadlock error;
                                    0 = config key max_warp_insts (2^34)     */
    unsigned max_stack_depth;    /* reconvergence stack entries per warp;
                                    0 = config key max_stack_depth (64)      */
    ls_mode mode;                /* functional or timing                      */
    const char *config;          /* shipped name ("gtx480") or file path;
                                    NULL = built-in defaults (GTX480-like)    */
    const char *const *sets;     /* NULL-terminated "key=value" overrides     */
    int progress;                /* 1: progress line on stderr if a tty (once
                                    launches have run 2 s: kernel, launch,
                                    CTAs done, instructions); 2: even if
                                    stderr is not a tty; 3: as 2, from the
                                    first launch on (no 2 s wait)           */
    /* RTL in the loop (docs/cosim.md); the backends are config keys
     * (slp.backend = c|rtl|lockstep, cosim_continue) */
    const char *const *rtl;      /* NULL-terminated "blk=FILE.v": verilate the
                                    user's RTL instead of rtl/<blk>.v       */
    const char *fail_dir;        /* mismatch traces/FSTs: <fail_dir>/<run>/;
                                    NULL = build/fail under the source tree */
    const char *run_name;        /* <run> above; NULL = "run"               */
    const volatile int *cancel;  /* NULL, or a flag the caller may set (from a
                                    signal handler): a launch in flight stops
                                    with LS_ERR_INTERRUPTED and its stats so
                                    far                                     */
    const char *commit_log;      /* NULL, or a file that receives one line
                                    per executed warp instruction
                                    (docs/golden.md), both modes           */
    /* Device-side printf output (docs/device-runtime.md), written at the
     * end of each launch in (block, thread, call) order: to printf_fn when
     * set, else to the file printf_file (truncated at ls_gpu_create), else
     * to stdout. The buffer size is the config key printf_fifo_size. */
    const char *printf_file;
    void (*printf_fn)(void *user, const char *text, size_t len);
    void *printf_user;
} ls_config;

/* Fills *cfg with the defaults (32-wide warps, device memory size,
 * instruction budget and stack depth from the config keys, timing mode
 * (cycle-level), built-in
 * GTX480-like config, no overrides, no progress line). */
void ls_config_default(ls_config *cfg);

/* Writes the effective timing configuration of cfg (its config name/file
 * and overrides applied to the defaults) as "key = value  # doc" lines.
 * Returns LS_OK, or an error (unknown key, bad value: named with its file
 * and line) with the message in err. */
ls_status ls_config_dump(const ls_config *cfg, FILE *out, char *err, size_t errlen);

/* Writes the configuration key table (csim/cfg/cfg_keys.def) as JSON
 * lines, one per key: {"key", "kind": "int"|"real"|"enum", "default",
 * "min", "max" (int, real) or "choices" (enum), "doc"}. */
void ls_config_keys(FILE *out);

/* Creates a GPU; on failure returns NULL and writes a message to err. */
ls_gpu *ls_gpu_create(const ls_config *cfg, char *err, size_t errlen);
/* Frees a GPU, its modules and its device memory; NULL is ignored. */
void ls_gpu_destroy(ls_gpu *gpu);
/* Message of the last failed call on gpu ("" if none). */
const char *ls_gpu_error(const ls_gpu *gpu);

/* Allocates bytes of device memory (256-byte aligned) into *ptr. */
ls_status ls_malloc(ls_gpu *gpu, ls_dptr *ptr, size_t bytes);
/* Frees an allocation made by ls_malloc; 0 is ignored. */
ls_status ls_free(ls_gpu *gpu, ls_dptr ptr);
/* Copies n bytes host -> device. */
ls_status ls_memcpy_htod(ls_gpu *gpu, ls_dptr dst, const void *src, size_t n);
/* Copies n bytes device -> host. */
ls_status ls_memcpy_dtoh(ls_gpu *gpu, void *dst, ls_dptr src, size_t n);
/* Sets n bytes of device memory to (unsigned char)value. */
ls_status ls_memset(ls_gpu *gpu, ls_dptr dst, int value, size_t n);

/* 64-bit digest of the contents of every live device allocation (in
 * address order): equal digests mean equal final memory (mode checks). */
ls_status ls_mem_digest(ls_gpu *gpu, uint64_t *digest);

/* Parses PTX text (name is used in messages) and loads it into gpu. */
ls_status ls_module_load_text(ls_gpu *gpu, const char *name, const char *text,
                              size_t len, ls_module **mod);
/* Reads and loads a PTX file. */
ls_status ls_module_load_file(ls_gpu *gpu, const char *path, ls_module **mod);
/* Device address of a module-scope .global/.const variable into *ptr. */
ls_status ls_module_symbol(ls_gpu *gpu, ls_module *mod, const char *name,
                           ls_dptr *ptr, size_t *bytes);

/* ---- Statistics (docs/stats.md) ----
 * The ls_*_stats structs below are generated from csim/api/stats.def,
 * which also gives each member's --stats-json key and how ls_stats_add
 * combines two runs. */

#define LS_MAX_SECTORS 8                  /* sectors per cache line (max)   */
#define LS_STACK_HIST 16                  /* ls_stats.stack_depth_hist      */
#define LS_COVER_BINS 72                  /* ls_stats.cover: the functional
                                             coverage bins of the blocks   */

/* The five RTL blocks (index of ls_stats.cosim); RVC is two block kinds,
 * the compressor (rvc_comp) and the decompressor (rvc_decomp). One row
 * each in lockstep_blocks.def: LS_BLK_CAPT = 0, WCU, SLP, RVC_COMP, BGP,
 * RVC_DECOMP = 5. */
enum ls_block {
#define LS_BLOCK(id, name, group, title, when) LS_BLK_##id,
#include "lockstep_blocks.def"
#undef LS_BLOCK
    LS_BLK_COUNT
};
/* Name of block b ("slp"), or "?" out of range. */
const char *ls_block_name(int b);
/* 1 when the GPU model clocks block b while it runs (its mechanism is
 * modelled), so it can be put in the loop; 0 otherwise. */
int ls_block_in_loop(int b);

/* Register-access categories of G-Scalar Fig 8 (ls_gscalar_stats.read_cat):
 * operands read by a non-divergent instruction from a compressed register
 * by equal leading bytes (scalar = 4), from a register a divergent write
 * left uncompressed (raw), and operands read by a divergent instruction. */
enum ls_gs_cat { LS_GS_SCALAR = 0, LS_GS_B3 = 1, LS_GS_B2 = 2, LS_GS_B1 = 3,
                 LS_GS_B0 = 4, LS_GS_RAW = 5, LS_GS_DIVERGENT = 6, LS_GS_NCAT = 7 };

/* Scalar-execution eligibility of a warp instruction (G-Scalar Fig 9;
 * ls_gscalar_stats.elig): not eligible; non-divergent with every source
 * scalar in the ALU, SFU or MEM pipeline; non-divergent with a half scalar
 * in every source (granularity 16); divergent with every source scalar
 * over its active lanes. */
enum ls_gs_elig { LS_GS_NOT = 0, LS_GS_ALU = 1, LS_GS_SFU = 2, LS_GS_MEM = 3,
                  LS_GS_HALF = 4, LS_GS_DIV = 5, LS_GS_NCLS = 6 };

/* Base-delta-immediate encodings of the BDI paper (Pekhimenko et al.,
 * PACT 2012, Table 2) applied to a 128-byte vector register
 * (ls_gscalar_stats.bdi_enc): all zeros, one repeated 8-byte value,
 * base 8/4/2 bytes with 1/2/4-byte deltas, uncompressed. */
enum ls_bdi_enc { LS_BDI_ZEROS = 0, LS_BDI_REP8 = 1, LS_BDI_B8D1 = 2,
                  LS_BDI_B8D2 = 3, LS_BDI_B8D4 = 4, LS_BDI_B4D1 = 5,
                  LS_BDI_B4D2 = 6, LS_BDI_B2D1 = 7, LS_BDI_RAW = 8,
                  LS_BDI_NENC = 9 };

/* ---- generated from csim/api/stats.def by make gen-stats: do not edit ---- */
/* Why an SM issued nothing in a cycle (timing mode; SM-cycles). Per idle
 * SM-cycle the reason is that of the warp closest to issuing, in the order
 * (furthest first) barrier < ibuffer < scoreboard < mem_wait < pipe_busy;
 * the six sum to idle_cycles. */
typedef struct ls_stall_stats {
    uint64_t no_warps;           /* no resident warp (before the first or
                                    after the last CTA of the SM) */
    uint64_t ibuffer;            /* every ready warp waits on fetch/decode */
    uint64_t scoreboard;         /* operands not ready (RAW/WAW on a
                                    register or predicate) */
    uint64_t barrier;            /* warps wait at a barrier (bar.sync) */
    uint64_t pipe_busy;          /* operands ready but the
                                    ALU/SFU/MEM/TENSOR pipeline it needs is
                                    busy (lanes or initiation interval) */
    uint64_t mem_wait;           /* memory unit or its request queue full */
} ls_stall_stats;

/* Cache statistics (timing mode), the L1D summed over SMs, the L2 over the
 * slices of every memory partition. Accesses are the coalesced line
 * requests of one warp instruction (32-byte sectors in 128-byte lines, one
 * access per line touched: docs/memory-model.md). LAMAR's four fill
 * categories (docs/lamar.md) sum to sector_fills once every line filled
 * has gone (always at the L1D after a kernel; at the L2, lines still
 * resident hold their unreferenced predicted sectors outside the sum). */
typedef struct ls_cache_stats {
    uint64_t accesses;           /* line requests */
    uint64_t hits;               /* requests with every requested sector
                                    present */
    uint64_t misses;             /* requests with at least one requested
                                    sector absent */
    uint64_t wr_accesses;        /* of accesses, those of stores (L1D) or
                                    write packets (L2): GPUWattch prices
                                    read and write hits and misses apart
                                    (docs/energy.md) */
    uint64_t wr_hits;            /* of write_accesses, hits */
    uint64_t sector_misses;      /* requested sectors that were absent */
    uint64_t sector_fills;       /* sectors filled from the level below */
    uint64_t evictions;          /* lines evicted */
    uint64_t mshr_merges;        /* misses merged into an MSHR already
                                    pending for the line */
    uint64_t reservation_fails;  /* requests refused for want of an MSHR, a
                                    line or a queue slot (the SM retries) */
    uint64_t used_sectors_hist[LS_MAX_SECTORS + 1]; /* at eviction, the
                                    lines of which i sectors had been used
                                    (read or written) while resident
                                    (dissertation sec. 5.2: most lines use
                                    few of their sectors) */
    uint64_t reuse_hits;         /* hits to the lines of used_sectors_hist
                                    while they were resident (block reuse,
                                    dissertation Fig 6.6) */
    uint64_t demand;             /* sectors filled that the miss allocating
                                    their line asked for (at the L2: the
                                    L1's requests) */
    uint64_t pred_ref;           /* sectors filled because the GDU
                                    predicted CG (not asked for), then
                                    referenced */
    uint64_t pred_nref;          /* sectors filled on a CG prediction,
                                    never referenced before their line went
                                    (at eviction or the L1's kernel-end
                                    sweep) */
    uint64_t npred_ref;          /* sectors asked for by a later miss of a
                                    resident line or its pending MSHR: the
                                    fetch that allocated the line left them
                                    out */
    uint64_t gdu_queries;        /* line misses that fetch: one per
                                    allocation by a read or atomic */
    uint64_t gdu_fg;             /* queries answered FG: only the requested
                                    sectors (SPP: less than the whole line) */
    uint64_t gdu_insertions;     /* BGP and BGP_inf: evictions inserted
                                    into the filter */
    uint64_t gdu_inversions;     /* BGP and BGP_inf: default-prediction
                                    flips */
    uint64_t gdu_units;          /* BGP and BGP_inf: GDUs that received at
                                    least one eviction (counted in the
                                    launch of their first) */
    uint64_t gdu_refreshes;      /* BGP: bit-array clears at the end of a
                                    refresh period (N insertions into the
                                    array), both arrays, every GDU */
    uint64_t gdu_windows;        /* BGP and BGP_inf: skew windows
                                    (NUM_EVICT evictions) closed, every GDU */
    uint64_t gdu_units_windowed; /* BGP and BGP_inf: GDUs that closed at
                                    least one skew window (counted in the
                                    launch of their first) */
    uint64_t gdu_first;          /* queries for a line this GDU had never
                                    seen queried or evicted: its first
                                    fetch, for which no address-keyed
                                    history exists (BGP answers its
                                    default) */
    uint64_t gdu_first_fg;       /* of first, queries answered FG */
    uint64_t gdu_q_win[9];       /* queries by the skew windows their GDU
                                    had closed before them: [0] none, [b]
                                    2^(b-1) to 2^b - 1, [8] 128 or more
                                    (BGP and BGP_inf: a flat FG share over
                                    the later buckets is a predictor in
                                    steady state) */
    uint64_t gdu_fg_win[9];      /* of q_by_windows, the queries answered
                                    FG */
    uint64_t gdu_fg_ended;       /* lines a query answered FG whose life
                                    ended (eviction or the L1D's kernel-end
                                    sweep) */
    uint64_t gdu_fg_wrong;       /* of fg_ended, lines that ended with at
                                    least TH_FG sectors used (CG by the
                                    GDU's own rule) */
    uint64_t gdu_cg_ended;       /* lines a query answered CG (the whole
                                    line) whose life ended */
    uint64_t gdu_cg_wrong;       /* of cg_ended, lines that ended with
                                    fewer than TH_FG sectors used (FG by
                                    the GDU's own rule) */
    uint64_t gdu_cg_right_nref;  /* pred_nref sectors of the cg_ended lines
                                    not in cg_wrong: fetched unused in
                                    lines the rule calls CG rightly (a
                                    binary FG/CG answer keeps them) */
    uint64_t locks_broken;       /* DAC: locked L1D lines evicted because
                                    every other way of their set was locked
                                    or pending (in the JSON as
                                    dac.locks_broken) */
    uint64_t lock_bypasses;      /* DAC: read misses that went around the
                                    L1D (an MSHR, no line) because every
                                    way of their set was locked (in the
                                    JSON as dac.lock_bypasses) */
} ls_cache_stats;

/* DRAM commands of the requests of one size class (LAMAR, docs/lamar.md):
 * a precharge and activate count for the request that needed them; each
 * class adds up to the channel's counters, and row_hits + activates =
 * reads + writes per class. */
typedef struct ls_dram_class {
    uint64_t requests;           /* requests served (column commands
                                    issued) */
    uint64_t reads;              /* column read commands */
    uint64_t writes;             /* column write commands */
    uint64_t row_hits;           /* column commands to an already open row */
    uint64_t activates;          /* row activations */
    uint64_t precharges;         /* precharges (row closes) */
} ls_dram_class;

/* DRAM, summed over channels (timing mode). Row-buffer hit rate = row_hits
 * / (reads + writes); bandwidth = bytes / (cycles / core clock). */
typedef struct ls_dram_stats {
    uint64_t reads;              /* column read commands */
    uint64_t writes;             /* column write commands */
    uint64_t bytes;              /* data moved over the DRAM buses */
    uint64_t row_hits;           /* column commands to an already open row */
    uint64_t activates;          /* row activations */
    uint64_t precharges;         /* precharges (row closes) */
    uint64_t read_bytes;         /* bytes moved by reads (off-chip traffic,
                                    dissertation Fig 5.9) */
    uint64_t write_bytes;        /* bytes moved by writes */
    uint64_t act_subranks;       /* sub-ranks activated (power: dram_chips
                                    / dram_subranks chips each): one per
                                    activate without sub-ranks; with them,
                                    the sub-ranks an activate's request
                                    touches plus each one a later column
                                    command to the open row touches first */
    uint64_t open_ticks;         /* DRAM clocks, summed over channels, with
                                    a row open (active standby in the power
                                    model) */
    uint64_t act_stby_ticks;     /* sub-rank DRAM clocks (summed over every
                                    channel's sub-ranks) with a row open in
                                    some bank and the clock enabled: active
                                    standby (IDD3N) */
    uint64_t act_pdn_ticks;      /* sub-rank clocks with a row open,
                                    powered down (dram_powerdown = idle:
                                    nothing queued for the sub-rank and its
                                    last burst done): IDD3P */
    uint64_t pre_stby_ticks;     /* sub-rank clocks with every bank
                                    precharged, clock enabled: IDD2N */
    uint64_t pre_pdn_ticks;      /* sub-rank clocks with every bank
                                    precharged, powered down: IDD2P */
    uint64_t pdn_exits;          /* power-down exits: a request reached the
                                    queue for a sub-rank that was powered
                                    down (dram_powerdown = idle); the exit
                                    starts then */
    uint64_t xp_delayed;         /* requests the power-down exit (dram_tXP
                                    after it started) made schedulable
                                    later than dram_latency alone would */
    ls_dram_class by_size[2];    /* [0] sector: requests for one sector (an
                                    FG 32-byte fetch); [1] multi: requests
                                    for more (a CG line, a write-back of
                                    several sectors) */
} ls_dram_stats;

/* Energy of a run (timing mode; docs/lamar.md "DRAM and system power"):
 * the DRAM by component of the Micron TN-41-01 model of dissertation 5.3.1
 * (background by the sub-ranks' bank and power-down states), and the GPU
 * by the chip energy model (docs/energy.md): its leakage, constant power
 * and dynamic energy but the DRAM. Joules; every member is an additive
 * double. */
typedef struct ls_power_stats {
    double seconds;              /* simulated time: cycles / core clock */
    double dram_pre_stby;        /* background, every row closed (precharge
                                    standby) */
    double dram_act_stby;        /* background, a row open (active standby) */
    double dram_pre_pdn;         /* background, every row closed, powered
                                    down (precharge power-down) */
    double dram_act_pdn;         /* background, a row open, powered down
                                    (active power-down) */
    double dram_ref;             /* refresh */
    double dram_act_pre;         /* activate + precharge pairs */
    double dram_rd;              /* read bursts in the banks */
    double dram_rd_io;           /* read bursts on the I/O pins */
    double dram_wr;              /* write bursts in the banks */
    double dram_wr_io;           /* write bursts: termination */
    double gpu_leak;             /* leakage of the SMs and the uncore (the
                                    chip model) */
    double gpu_const;            /* constant power: busy and idle SMs, the
                                    uncore (the chip model) */
    double gpu_dyn;              /* dynamic energy of the chip model but
                                    the DRAM */
} ls_power_stats;

/* The chip energy model of a timing run (docs/energy.md; the energy.*
 * keys, csim/gpu/gpu_energy.c): the events of the run that cost energy
 * and, per component, their energy in picojoules (joules in the JSON),
 * GPUWattch-style: dynamic energy per event, static and constant power per
 * SM (busy or idle) and of the uncore, the DRAM from the power model
 * (docs/lamar.md). The register-file events are those of an uncompressed
 * register file. Every member is a uint64_t, additive over launches. */
typedef struct ls_energy_stats {
    uint64_t rf_arrays_read;     /* 128-bit RF arrays read: 8 per 32-bit
                                    word of each vector-register source
                                    operand */
    uint64_t rf_arrays_written;  /* arrays written: those holding an active
                                    lane, per word of each destination */
    uint64_t tuple_accesses;     /* affine-tuple register accesses (one
                                    array each): DAC's affine warp, CAE's
                                    compact instructions */
    uint64_t lane_ops[3];        /* lane operations of the ALU, SFU and MEM
                                    pipelines */
    uint64_t cls_ops[12];        /* of the ALU and SFU lane operations,
                                    those of each GPUWattch
                                    execution-energy class
                                    (csim/core/core_ecls.def); DAC's affine
                                    warp's are not classed (integer ALU
                                    ones) */
    uint64_t cls_idle[12];       /* GPUWattch's charge for the inactive
                                    lanes of the ALU and SFU warp
                                    instructions of each class, in accesses
                                    per unit weight (shader.h
                                    inactive_lanes_accesses_nonsfu / _sfu
                                    with latency 1: (32 - active) / 2,
                                    rounded down, plus twice (32 - active)
                                    / 8 for the SFU-form classes); charged
                                    unless energy.gated_lanes */
    uint64_t pipe_duty_insts;    /* issued warp instructions counted for
                                    GPUWattch's pipeline duty cycle: per
                                    500-cycle sample of a launch, at most
                                    0.8 x 500 x num_sms x result_buses
                                    (power_interface.cc line 83's cap) */
    uint64_t ctrl_insts;         /* issued warp instructions without an
                                    operand type (GPGPU-Sim 3.2.2's UN_OP:
                                    bra, bar, exit, ret, call, membar,
                                    nop): no FP_INT scheduler energy */
    uint64_t dac_unit_ops;       /* AEU/PEU operations (DAC) */
    uint64_t queue_accesses;     /* ATQ and per-warp queue writes and reads
                                    (DAC) */
    uint64_t shmem_accesses;     /* shared-memory bank passes: one per warp
                                    shared access, more under bank
                                    conflicts */
    uint64_t noc_flits;          /* interconnect flits sent, both
                                    directions (icnt_bytes_per_cycle bytes
                                    each) */
    uint64_t e_rf;               /* register-file arrays and affine tuples
                                    (pJ) */
    uint64_t e_oc;               /* operand collectors and crossbar (pJ) */
    uint64_t e_lane[3];          /* lane operations (pJ) of GPUWattch's
                                    integer-ALU and FPU counters (with
                                    DAC's unit operations), of its SFU
                                    counter (transcendentals, 32-bit
                                    integer multiply, integer divide), and
                                    MEM address computations */
    uint64_t e_icache;           /* instruction-cache hits and misses (pJ) */
    uint64_t e_pipe;             /* pipeline registers: GPUWattch's
                                    duty-cycle power, per thread
                                    instruction (pJ) */
    uint64_t e_dac;              /* DAC queues (pJ) */
    uint64_t e_fds;              /* fetch, decode, schedule of issued warp
                                    instructions (pJ) */
    uint64_t e_l1d;              /* L1D line requests (pJ) */
    uint64_t e_shmem;            /* shared-memory bank passes (pJ) */
    uint64_t e_l2;               /* L2 line requests (pJ) */
    uint64_t e_noc;              /* interconnect flits (pJ) */
    uint64_t e_dram;             /* DRAM, the power model's components (pJ) */
    uint64_t e_sm_leak;          /* SM leakage, every SM every cycle (pJ) */
    uint64_t e_sm_busy;          /* constant power of SMs with resident
                                    work (pJ) */
    uint64_t e_sm_idle;          /* power of SMs without resident work (pJ) */
    uint64_t e_uncore_leak;      /* uncore leakage (pJ) */
    uint64_t e_uncore_const;     /* uncore constant power (pJ) */
    uint64_t e_total;            /* every component above (pJ) */
} ls_energy_stats;

/* RTL-in-the-loop figures of one block kind, summed over its instances
 * (docs/cosim.md); in the JSON for the blocks the run clocked. */
typedef struct ls_cosim_stats {
    uint64_t instances;          /* instances clocked (the largest count of
                                    a launch) */
    uint64_t cycles;             /* clock edges stepped (compared under
                                    lockstep) */
    uint64_t idle_skipped;       /* idle edges skipped under the clocking
                                    rule */
    uint64_t transactions;       /* edges with a non-idle input */
    uint64_t mismatches;         /* edges where RTL and C model disagreed */
    int backend;                 /* 0 c, 1 rtl, 2 lockstep, 3 netlist (enum
                                    cosim_backend); -1 not clocked */
} ls_cosim_stats;

/* G-Scalar register-file compression and scalar execution
 * (docs/gscalar.md), timing mode with gscalar.compress = on,
 * gscalar.scalar = alu|all or gscalar.stats = on; all zero otherwise.
 * "Arrays" are the 128-bit SRAM arrays of a register-file bank (8 hold one
 * 1024-bit vector register); the BVR array holds BVR, EBR, D and FS of
 * every register. Every member is a uint64_t counter. */
typedef struct ls_gscalar_stats {
    uint64_t writes;             /* vector-register write-backs compressed */
    uint64_t div_writes;         /* of those, divergent (D = 1) */
    uint64_t write_bytes[5];     /* non-divergent writes by equal leading
                                    bytes 0..4 (4: scalar) */
    uint64_t reads;              /* operand reads decompressed and checked */
    uint64_t read_cat[LS_GS_NCAT]; /* Fig 8 categories of the reads (enum
                                    ls_gs_cat): a non-divergent reader of a
                                    D = 0 register by its encoding, of a D
                                    = 1 register raw, a divergent reader */
    uint64_t read_cls[4];        /* the decompressor's class of each read
                                    for the reading mask (what scalar
                                    execution uses) */
    uint64_t rmw_moves;          /* moves inserted before a divergent write
                                    to a compressed register (sec. 3.3) */
    uint64_t arrays_read;        /* arrays activated by reads, compressed
                                    RF (moves included) */
    uint64_t arrays_written;     /* arrays activated by writes, compressed
                                    RF */
    uint64_t bvr_reads;          /* BVR array reads */
    uint64_t bvr_writes;         /* BVR array writes */
    uint64_t base_arrays_read;   /* arrays read, uncompressed baseline (8
                                    per read) */
    uint64_t base_arrays_written; /* arrays written, baseline: one per
                                    4-lane array holding an active lane */
    uint64_t raw_bytes;          /* bytes of the writes uncompressed (128
                                    each) */
    uint64_t gs_bytes;           /* bytes of the writes under G-Scalar
                                    (array bytes + base bytes; D = 1 raw) */
    uint64_t bdi_bytes;          /* bytes of the writes under BDI as
                                    Warped-Compression applies it
                                    (docs/blocks/rvc.md section 7) */
    uint64_t rf_energy;          /* RF access energy, compressed, in
                                    millionths of one 1024-bit
                                    vector-register access */
    uint64_t base_rf_energy;     /* RF access energy of the uncompressed
                                    baseline, same unit */
    uint64_t insts;              /* warp instructions issued (the base of
                                    Fig 9) */
    uint64_t elig[LS_GS_NCLS];   /* Fig 9: warp instructions by eligibility
                                    class (enum ls_gs_elig), whatever
                                    gscalar.scalar is */
    uint64_t scalar_insts;       /* of insts, run as scalar under
                                    gscalar.scalar */
    uint64_t div_insts;          /* of insts, divergent: fewer than 32
                                    lanes active after the guard (Fig 1) */
    uint64_t lane_ops[3];        /* lane operations of the ALU, SFU and MEM
                                    pipelines, this run */
    uint64_t base_lane_ops[3];   /* the same with every active lane (the
                                    baseline) */
    uint64_t cls_ops[12];        /* of the ALU and SFU lane operations this
                                    run, those of each execution-energy
                                    class (csim/core/core_ecls.def) */
    uint64_t base_cls_ops[12];   /* the same with every active lane (the
                                    baseline) */
    uint64_t cls_idle[12];       /* GPUWattch's charge for inactive lanes
                                    (energy.class_idle) of the instructions
                                    this run executes as vectors: a scalar
                                    instruction clock-gates all but one
                                    lane (G-Scalar sec. 3.2, citing
                                    GPUWattch) */
    uint64_t base_cls_idle[12];  /* the same for every instruction (the
                                    baseline) */
    uint64_t bdi_all_bytes;      /* bytes of the writes under BDI, best of
                                    the BDI paper's encodings */
    uint64_t bdi_enc[LS_BDI_NENC]; /* writes by BDI encoding (enum
                                    ls_bdi_enc) */
    uint64_t wc_arrays_read;     /* arrays read under Warped-Compression:
                                    the stored register's BDI bytes (base
                                    included) over 16 per array, moves
                                    included */
    uint64_t wc_arrays_written;  /* arrays written under
                                    Warped-Compression: a non-divergent
                                    write its BDI bytes over 16; a
                                    divergent write raw, the arrays holding
                                    an active lane (after a move when the
                                    register was compressed) */
    uint64_t wc_moves;           /* moves (read the compressed register,
                                    write it raw) before a divergent write
                                    under Warped-Compression */
    uint64_t rvc_comp_toggles;   /* compressor port bits (inputs and
                                    outputs) that changed between
                                    consecutive transactions of an instance */
    uint64_t rvc_comp_txns;      /* compressor transactions those toggles
                                    span */
    uint64_t rvc_decomp_toggles; /* decompressor port bits that changed
                                    between consecutive transactions of an
                                    instance */
    uint64_t rvc_decomp_txns;    /* decompressor transactions those toggles
                                    span */
    uint64_t rf_pj;              /* register file and crossbar: arrays
                                    activated and moved, BVR accesses (pJ) */
    uint64_t base_rf_pj;         /* the same, uncompressed baseline (pJ) */
    uint64_t srf_pj;             /* the same under the scalar register file
                                    of Gilani et al. (the paper's [3], Fig
                                    11's ALU scalar, Fig 12's scalar only):
                                    non-divergent reads and writes of
                                    scalar values use a 38-bit scalar-RF
                                    entry (gscalar.bvr_energy of a vector
                                    access), the rest the vector RF (pJ) */
    uint64_t exec_energy;        /* execution-unit energy: lane-ops (pJ) */
    uint64_t base_exec_energy;   /* the same with every active lane (pJ) */
    uint64_t other_energy;       /* every other component of the chip model
                                    for this run: front end, caches,
                                    interconnect, DRAM, static (pJ) */
} ls_gscalar_stats;

/* PCA, priority-based cache allocation at the L1D (docs/pca.md,
 * dissertation 6.2): loads split by the requesting warp's token; timing
 * mode, zeros with pca.tokens = 0. */
typedef struct ls_pca_stats {
    uint64_t prio_accesses;      /* L1D loads of token holders */
    uint64_t prio_hits;          /* of those, hits */
    uint64_t deprio_accesses;    /* L1D loads of the other warps */
    uint64_t deprio_hits;        /* of those, hits */
    uint64_t bypassed;           /* line misses of non-holders that did not
                                    allocate */
} ls_pca_stats;

/* MTA, the many-thread-aware L1D prefetcher (prefetch = mta; docs/dac.md
 * "Comparison points"); all zero with prefetch = off. Every member is a
 * uint64_t counter. */
typedef struct ls_mta_stats {
    uint64_t launches;           /* launches with prefetch = mta */
    uint64_t trained;            /* load instructions the tables trained on
                                    (their first line) */
    uint64_t candidates;         /* lines predicted */
    uint64_t issued;             /* prefetches sent below (an L1D line
                                    each) */
    uint64_t issued_by[3];       /* of those by the table that predicted
                                    them: [0] promoted (GS), [1] per-warp
                                    stride (PWS), [2] inter-warp (IP) */
    uint64_t redundant;          /* candidates already in the L1D or
                                    pending */
    uint64_t dropped;            /* candidates refused: no MSHR beyond
                                    mta.mshr_reserve, request port busy or
                                    no replaceable way */
    uint64_t useful;             /* prefetched lines a demand load
                                    referenced */
    uint64_t late;               /* of those, the load merged into the
                                    prefetch's MSHR while it was in flight */
    uint64_t unused;             /* prefetched lines evicted, or
                                    invalidated at kernel end, never
                                    referenced */
    uint64_t uncovered;          /* demand load misses on lines no prefetch
                                    brought */
    uint64_t throttle_down;      /* degree decreases of the throttle */
    uint64_t throttle_up;        /* degree increases of the throttle */
    uint64_t periods;            /* throttle periods ended */
    uint64_t degree_sum;         /* their new degrees summed */
} ls_mta_stats;

/* CAE, compact affine execution (affine.mode = cae; docs/dac.md
 * "Comparison points"); all zero otherwise. Every member is a uint64_t
 * counter. */
typedef struct ls_cae_stats {
    uint64_t launches;           /* launches with affine.mode = cae */
    uint64_t insts;              /* warp instructions issued (equal to
                                    warp_insts) */
    uint64_t compact[3];         /* of those run compactly (one
                                    lane-cycle), by pipeline: [0] ALU, [1]
                                    SFU, [2] MEM */
    uint64_t compact_affine;     /* of the compact ones, with an affine
                                    (not only uniform) source */
    uint64_t fallback;           /* compact by their sources, but a
                                    widening op's result was not affine:
                                    re-run on every lane */
    uint64_t writes;             /* destination registers written by
                                    full-warp ALU, SFU and MEM instructions */
    uint64_t writes_uniform;     /* of those, one value in every lane */
    uint64_t writes_affine;      /* of those, base + lane x stride, stride
                                    != 0 */
} ls_cae_stats;

/* Thread-block compaction (docs/compaction.md), timing mode with
 * simt.compaction != none; all zero otherwise. Every member is a uint64_t
 * counter; NW sums are over compaction points. */
typedef struct ls_compaction_stats {
    uint64_t launches;           /* launches under a compaction scheme */
    uint64_t uncompacted;        /* of those, run uncompacted (see
                                    uncompacted) */
    uint64_t issued;             /* compacted-warp instructions issued */
    uint64_t issued_active;      /* of those, with at least one active
                                    thread */
    uint64_t thread_insts;       /* threads they ran */
    uint64_t points;             /* compaction points (CTA masks formed) */
    uint64_t divergent_points;   /* of those, after a branch split the CTA */
    uint64_t warp_uniform_points; /* of the divergent, splitting no warp
                                    (per-warp stacks run the paths side by
                                    side) */
    uint64_t loop_exit_points;   /* of the divergent, both paths non-empty,
                                    in a loop whose end precedes the RPC
                                    (the paths' trips run one after the
                                    other) */
    uint64_t warps_formed;       /* compacted warps formed */
    uint64_t nw_nocomp;          /* warps without compaction (NW_noTBC) */
    uint64_t nw_tbc;             /* warps formed (NW_TBC) */
    uint64_t nw_ideal;           /* ceil(threads / 32) (NW_ideal) */
    uint64_t stall_slot_cycles;  /* warp-slot cycles of live CTAs without a
                                    warp to run (waiting at a compaction
                                    point or for the WCU) */
    uint64_t wcu_wait_cycles;    /* cycles WCU loads waited for the
                                    previous mask's compacted warps */
    uint64_t class_points[2];    /* compaction points right after a branch
                                    of the class */
    uint64_t class_nw_nocomp[2]; /* NW_noTBC summed there */
    uint64_t class_nw_tbc[2];    /* NW_TBC summed there */
    uint64_t class_paths[2];     /* CTA-wide paths of divergent branches of
                                    the class (Fig 4.15, 4.26) */
    uint64_t class_paths_tbc[2]; /* of those, paths TBC can compact (NW_TBC
                                    < NW_noTBC, with the SLP map) */
    uint64_t class_paths_ideal[2]; /* of those, paths ideal compaction can
                                    compact (NW_ideal < NW_noTBC) */
    uint64_t class_paths_one[2]; /* of the paths, those whose threads are
                                    in one warp (NW_noTBC = 1): no
                                    compaction can reduce them */
    uint64_t class_paths_dense[2]; /* of the paths, those over more warps
                                    whose threads still fill them
                                    (ceil(threads / 32) = NW_noTBC): no
                                    compaction can reduce them */
    uint64_t p_frac_tbc[4];      /* class P: paths TBC can compact, by the
                                    fraction f of the CTA's threads on the
                                    path: [0] f < 1/4, [1] < 1/2, [2] <
                                    3/4, [3] f >= 3/4 */
    uint64_t p_frac_ideal[4];    /* class P: paths ideal compaction can
                                    compact, by the same quarters */
    uint64_t d_frac_tbc[4];      /* class D: paths TBC can compact, by the
                                    fraction f of the CTA's threads on the
                                    path: [0] f < 1/4, [1] < 1/2, [2] <
                                    3/4, [3] f >= 3/4 */
    uint64_t d_frac_ideal[4];    /* class D: paths ideal compaction can
                                    compact, by the same quarters */
    uint64_t capri_lookups;      /* CAPT lookups: divergent warps at a
                                    branch */
    uint64_t capri_hits;         /* lookups that hit */
    uint64_t capri_pred_stall;   /* predictions: stall */
    uint64_t capri_pred_bypass;  /* predictions: bypass */
    uint64_t capri_nodiv_bypass; /* non-divergent warps that bypassed
                                    without a lookup */
    uint64_t capri_bypass_denied; /* bypasses predicted but refused, so the
                                    warp stalls: under capri.umask = row it
                                    shares a home warp with another; under
                                    thread the WCU's spare rows could run
                                    out (a CTA of over 16 warps) or its
                                    parts are at the entry's reconvergence
                                    point */
    uint64_t capri_nodiv_denied; /* non-divergent warps refused a bypass
                                    for the same reasons (mostly a path
                                    that is the entry's own reconvergence
                                    point, where every warp waits, 4.1.3):
                                    they stall */
    uint64_t capri_split_rows;   /* spare UMask-0 WCU rows loaded at a
                                    compaction point: they hold the
                                    bypassed threads of home warps only
                                    part of whose threads bypassed, a
                                    thread on the first row whose lane is
                                    free */
    uint64_t capri_bypassed;     /* warps that bypassed */
    uint64_t capri_ahead_waits;  /* warps ahead of their path's entry that
                                    stopped to wait for it (at most one
                                    basic block ahead, 4.2.2) */
    uint64_t capri_ahead_wait_cycles; /* the cycles they waited */
    uint64_t capri_quality[4];   /* prediction/outcome (Fig 4.21) by the
                                    WCU evaluator at the branch's
                                    compaction point (compaction reduces
                                    warps: NW_min < NW_noTBC); they sum to
                                    lookups */
    uint64_t capri_nodiv_quality[2]; /* the bypasses of warps that did not
                                    diverge (no lookup) judged the same way
                                    (Fig 4.21 counts every warp's decision) */
} ls_compaction_stats;

/* Dual-path execution and dynamic warp subdivision (docs/dpe.md), timing
 * mode with simt.paths = dual or dws; all zero otherwise. Every member is
 * a uint64_t counter. */
typedef struct ls_dpe_stats {
    uint64_t launches;           /* launches under simt.paths = dual or dws */
    uint64_t single;             /* of those, run single-path (see single) */
    uint64_t issued;             /* warp instructions issued dual-path */
    uint64_t path_sum;           /* schedulable paths of the issuing warp
                                    summed at each issue, stalled ones
                                    included (dual: top-of-stack paths and
                                    a forwarded one; dws: valid
                                    warp-splits, 1 when not subdivided) */
    uint64_t branches;           /* warp-level bra executed */
    uint64_t divergent;          /* of those, split the path */
    uint64_t subdivided;         /* dws: divergent branches at the stack
                                    that subdivided the warp */
    uint64_t refused;            /* dws: divergent branches at the stack
                                    that dws.n kept there */
    uint64_t nested;             /* dws: divergent branches of a split */
    uint64_t created;            /* dws: warp-splits created */
    uint64_t merges;             /* dws: merges of splits at one pc */
    uint64_t coissued;           /* dws: issues of a split in a cycle in
                                    which another split of its warp issued
                                    (another scheduler's: 3.3.1's perfect
                                    scheduler) */
    uint64_t switches;           /* dual: path switches of the constrained
                                    scheduler */
    uint64_t forwarded;          /* dual: dpe.path_forwarding: instructions
                                    issued by a path of an entry below the
                                    top */
    uint64_t interleavable;      /* dual: divergent branches with both
                                    sides non-empty (3.3.3.1) */
} ls_dpe_stats;

/* Decoupled affine computation (docs/dac.md "The hardware"), timing mode
 * with affine.mode = dac; all zero otherwise. Every member is a uint64_t
 * counter; occ_max, locked_max and passes_max are maxima, the rest sums. */
typedef struct ls_dac_stats {
    uint64_t launches;           /* launches under affine.mode = dac */
    uint64_t not_decoupled;      /* of those, kernels the transform left
                                    whole (run as with off) */
    uint64_t batches;            /* affine-warp passes: the affine stream
                                    once for a batch of CTAs */
    uint64_t batch_ctas;         /* CTAs those passes covered */
    uint64_t aff_insts;          /* affine-warp instructions issued */
    uint64_t main_insts;         /* main-warp instructions issued in
                                    decoupled kernels */
    uint64_t removed;            /* main-warp instructions skipped (not in
                                    the main stream; run functionally
                                    without an issue slot): main + removed
                                    = warp_insts when every launch is
                                    decoupled */
    uint64_t tuples;             /* ATQ entries pushed by enq */
    uint64_t rec_addr;           /* per-warp address records the AEU
                                    expanded (enq.addr) */
    uint64_t rec_data;           /* per-warp data records the AEU expanded
                                    (enq.data) */
    uint64_t rec_pred;           /* per-warp predicate records the PEU
                                    expanded */
    uint64_t gl_loads;           /* global/local load warp instructions of
                                    main warps in decoupled kernels */
    uint64_t gl_served;          /* of those, served by a line enq.data
                                    prefetched and locked */
    uint64_t gl_kept[11];        /* of gl_loads, those not served by a
                                    prefetch: kept in the main stream or
                                    enq.addr, by the transform's reason
                                    (`lockstep check --dac`: enum
                                    ptx_dac_why), then enq.data loads
                                    fetched at their deq: after a possible
                                    same-thread global store
                                    (dac.prefetch_after_write off), or not
                                    prefetched (a lock refused, a .local
                                    window) */
    uint64_t peu_uniform;        /* predicate records with one value for
                                    every lane (paper: 64%) */
    uint64_t peu_two;            /* a contiguous run of true lanes: a
                                    first/last-thread check (paper: 93%
                                    with uniform) */
    uint64_t peu_full;           /* the 32-lane fallback (paper: 7%) */
    uint64_t stall_enq_full;     /* affine-warp cycles with an enq and the
                                    ATQ full */
    uint64_t stall_aw_dep;       /* affine-warp cycles waiting on a source
                                    tuple still in the ALU pipeline */
    uint64_t stall_aeu_full;     /* AEU/PEU cycles with the target warp
                                    queue full */
    uint64_t stall_deq_empty;    /* main-warp issue checks refused: no
                                    record yet (once per cycle its
                                    scheduler checked the warp) */
    uint64_t stall_deq_data;     /* ... the record there, its lines not
                                    arrived */
    uint64_t occ_sum;            /* per-warp queue records x cycles */
    uint64_t occ_max;            /* most records queued in one SM */
    uint64_t atq_sum;            /* ATQ entries x cycles */
    uint64_t locked_sum;         /* locked L1D lines x cycles */
    uint64_t locked_max;         /* most lines locked in one SM */
    uint64_t lock_refused;       /* enq.data records over dac.lock_lines or
                                    over N-1 locked lines of an N-way L1D
                                    set: not prefetched, their load fetches
                                    normally */
    uint64_t prefetch_lines;     /* line requests the AEUs sent */
    uint64_t cycles;             /* SM-cycles the occupancy sums cover */
    uint64_t checked_addr;       /* address records checked against the
                                    golden addresses */
    uint64_t checked_pred;       /* predicate records checked against the
                                    golden predicates */
    uint64_t widen_checks;       /* widening instructions of the affine
                                    warp checked exact */
    uint64_t rec_mask;           /* masks main warps sent at data-dependent
                                    branches the affine warp follows */
    uint64_t checked_mask;       /* of those, received and checked against
                                    the affine warp's lanes */
    uint64_t mask_dropped;       /* left by a warp that finished first
                                    (checked_mask + mask_dropped =
                                    records_mask) */
    uint64_t stall_aw_mask;      /* affine-warp cycles waiting for fed-back
                                    masks */
    uint64_t stall_mask_full;    /* main-warp issue checks refused: mask
                                    queue full */
    uint64_t peu_ops;            /* PEU vector operations combining
                                    predicates, one per warp */
    uint64_t cta_wait;           /* CTA-cycles from a CTA's arrival to the
                                    start of its pass */
    uint64_t passes_max;         /* most affine-warp passes in flight on
                                    one SM */
    uint64_t wr_hazards;         /* prefetched records whose lines a store
                                    of the same warp wrote before their deq
                                    (with dac.prefetch_after_write=on) */
    uint64_t stall_aeu_bar;      /* AEU/PEU cycles with every candidate
                                    record held until its CTA passes a
                                    barrier of the affine stream
                                    (dac.barrier_fetch=wait) */
    uint64_t stall_aw_pipe;      /* affine-warp cycles waiting for a free
                                    ALU/SFU pipeline (it executes on the
                                    SIMT lanes) */
    uint64_t sm_ctas_max;        /* most CTAs one SM ran in a decoupled
                                    launch (an even share: the launch's
                                    CTAs over num_sms, rounded up) */
    uint64_t vec_issues;         /* vector instructions the affine warp
                                    issued (a div/rem by a uniform and the
                                    affine operations on its result,
                                    evaluated per lane), one per covered
                                    warp */
    uint64_t vec_lanes;          /* lanes those vector issues computed */
} ls_dac_stats;

/* Statistics of one launch (or a sum of launches, see ls_stats_add). In
 * functional mode every timing counter is 0. */
typedef struct ls_stats {
    uint64_t launches;           /* launches summed */
    uint64_t cycles;             /* core-clock cycles from the launch until
                                    its last CTA retires; 0 in functional
                                    mode */
    uint64_t sm_cycles;          /* SM-cycles with resident work (sum over
                                    SMs) */
    uint64_t warp_insts;         /* warp instructions issued (one per warp
                                    per issued instruction, whatever the
                                    active mask) */
    uint64_t thread_insts;       /* the active threads of the issued warp
                                    instructions */
    double ipc;                  /* warp_insts / cycles (0 in functional
                                    mode) */
    double simd_util;            /* SIMD lane utilization, thread_insts /
                                    (warp_insts x warp_size) */
    uint64_t idle_cycles;        /* SM-cycles in which the SM issued
                                    nothing (an SM without resident work is
                                    idle) */
    ls_stall_stats stall;        /* breakdown of idle_cycles */
    uint64_t tensor_insts;       /* wmma.mma/mma warp instructions issued
                                    to it */
    uint64_t tensor_busy_cycles; /* pipe-cycles busy, summed over pipes and
                                    SMs: max(1, ceil(tensor_ii x work)) per
                                    instruction, work 1 for a 16x16x16 f16
                                    step */
    uint64_t icache_accesses;    /* instruction-buffer block fetches looked
                                    up */
    uint64_t icache_misses;      /* of those, fetches whose line was absent
                                    (each starts a fill) */
    uint64_t branches;           /* warp-level branch instructions */
    uint64_t divergent_branches; /* branches that split a warp */
    uint64_t max_stack_depth;    /* deepest reconvergence stack seen */
    uint64_t stack_depth_hist[LS_STACK_HIST]; /* warp instructions issued
                                    at stack depth i (last bucket: >=
                                    LS_STACK_HIST - 1) */
    uint64_t ctas;               /* CTAs launched */
    uint64_t threads;            /* threads launched */
    ls_cache_stats l1d;          /* L1 data cache, summed over SMs */
    ls_cache_stats l2;           /* L2, summed over the slices of all
                                    memory partitions */
    ls_dram_stats dram;          /* DRAM, summed over channels */
    ls_energy_stats energy;      /* core energy model (timing mode) */
    ls_power_stats power;        /* DRAM and system energy (timing mode) */
    ls_pca_stats pca;            /* PCA at the L1D (timing mode) */
    ls_mta_stats mta;            /* MTA prefetcher (timing mode, prefetch =
                                    mta) */
    ls_cae_stats cae;            /* compact affine execution (affine.mode =
                                    cae) */
    uint64_t printf_calls;       /* device printf calls whose text was
                                    written */
    uint64_t printf_bytes;       /* bytes of that text */
    uint64_t printf_dropped;     /* calls dropped: printf_fifo_size
                                    exceeded */
    uint64_t malloc_calls;       /* device malloc calls (per thread) */
    uint64_t malloc_failed;      /* of those, NULL returns (heap full) */
    uint64_t free_calls;         /* device free calls with a non-NULL
                                    pointer */
    ls_gscalar_stats gscalar;    /* G-Scalar RF compression and scalar
                                    execution (timing mode) */
    ls_compaction_stats compaction; /* thread-block compaction (timing
                                    mode) */
    int compaction_scheme;       /* simt.compaction (enum
                                    cfg_simt_compaction: 0 none, 1 tbc, 2
                                    tbc_plus, 3 capri, 4 ideal) */
    char uncompacted[160];       /* why a launch ran uncompacted ("shfl at
                                    line N"); a sum keeps the first */
    ls_dpe_stats dpe;            /* dual-path execution (timing mode) */
    int dpe_paths;               /* simt.paths (enum cfg_simt_paths: 0
                                    single, 1 dual, 2 dws) */
    char dpe_single[160];        /* why a launch ran single-path; the first */
    ls_dac_stats dac;            /* decoupled affine computation (timing
                                    mode) */
    ls_cosim_stats cosim[LS_BLK_COUNT]; /* per block kind (enum ls_block),
                                    the RTL blocks the run clocked by name
                                    (timing mode) */
    uint64_t cover[LS_COVER_BINS]; /* functional coverage of the blocks
                                    (timing mode): per bin of
                                    csim/cosim/cosim_cover.def, in its
                                    order, the stepped edges (WCU warps_K:
                                    the compaction jobs) that showed that
                                    behaviour at the block's ports
                                    (docs/blocks/coverage.md); written as
                                    the object "coverage": for every block
                                    the run clocked, each of its bins by
                                    name, 0 for a bin not reached */
    double wall_s;               /* host seconds spent simulating (the sim
                                    object's wall_s) */
} ls_stats;

/* ---- end of the generated statistics structs ---- */

/* Re-runs a block trace written on a mismatch (docs/cosim.md) on the C
 * model and the RTL, with no GPU; fst (may be NULL) receives the waveform
 * window before the first mismatch. Prints the report to out. Returns
 * LS_OK when the trace replays without a mismatch, LS_ERR_COSIM when it
 * reproduces one, another status with err on a bad file or build. */
ls_status ls_cosim_replay(const char *trace, const char *fst, FILE *out,
                          char *err, size_t errlen);

/* acc += s (sums counts, max of depths, recomputes simd_util). */
void ls_stats_add(ls_stats *acc, const ls_stats *s, unsigned warp_size);

/* Launches kernel (plain or mangled name) of mod with CUDA-style args: args[i]
 * points at the value of parameter i, sized by the kernel's .param list.
 * Runs to completion; stats (may be NULL) receives this launch's figures. */
ls_status ls_launch(ls_gpu *gpu, ls_module *mod, const char *kernel,
                    ls_dim3 grid, ls_dim3 block, size_t dyn_shared,
                    void **args, ls_stats *stats);

/* One access (or the executing thread) of a check finding. */
typedef struct ls_check_access {
    unsigned cta[3];             /* the thread's CTA (globalrace: two CTAs)   */
    unsigned tid[3];             /* thread (x, y, z) in its CTA               */
    int pc;                      /* instruction index in func                 */
    unsigned line;               /* PTX source line                           */
    int write;                   /* races: 1 store, 0 load                    */
    char func[96];               /* kernel or .func holding the instruction   */
    char src[128];               /* "file.cu:42" from the PTX's .loc line info
                                    (nvcc -lineinfo), or "" when it has none */
} ls_check_access;

/* One finding of racecheck, synccheck or initcheck (config key `check`,
 * docs/checks.md): every instance with the same kind and instruction(s)
 * in one launch, counted, and the first of them (smallest CTA, address,
 * threads) described. */
typedef struct ls_check_finding {
    char check[16];              /* "racecheck", "synccheck", "initcheck",
                                    "globalrace"                              */
    char kind[32];               /* "read-after-write", "shfl-source-lane", ..*/
    char kernel[96];
    unsigned launch;             /* 1-based launch index on this GPU          */
    unsigned cta[3];
    int naccess;                 /* 2 for races and barrier mismatches, else 1 */
    ls_check_access a, b;        /* a: the write or the executing thread      */
    uint32_t lanes;              /* synccheck: the lanes concerned (bit mask) */
    char space[8];               /* "shared", "global", "local", "" (sync)    */
    uint64_t addr;               /* byte offset (shared, local) or address;
                                    synccheck: member mask or barrier count   */
    uint64_t count;              /* instances of this finding in the launch   */
} ls_check_finding;

/* The findings of every launch on gpu so far, in report order (launch,
 * check kind, instructions, CTA, thread); *list stays valid until the
 * next launch or ls_gpu_destroy. Returns their number. */
size_t ls_check_findings(const ls_gpu *gpu, const ls_check_finding **list);
/* The checks on for gpu's launches (config key `check`): bit 0 memcheck
 * (always), 1 racecheck, 2 synccheck, 3 initcheck, 4 globalrace. */
unsigned ls_checks_enabled(const ls_gpu *gpu);
/* Writes one line describing f to buf (at most n bytes, NUL-terminated);
 * returns buf. */
char *ls_check_format(const ls_check_finding *f, char *buf, size_t n);

/* Binds nelem elements of elem_bytes (1, 2, 4, 8 or 16) at device address
 * base as a 1-D texture for unfiltered integer-indexed tex.1d fetches;
 * *handle is the value to store in a .texref variable (ls_module_symbol)
 * or to pass as a bindless texture-object parameter. */
ls_status ls_texture_1d(ls_gpu *gpu, ls_dptr base, size_t nelem,
                        unsigned elem_bytes, uint64_t *handle);
/* Binds a width x height pitched array (rows pitch bytes apart) as a 2-D
 * texture for tex.2d: float coordinates are point-sampled (floor) and
 * clamped to the edge. *handle as for ls_texture_1d. */
ls_status ls_texture_2d(ls_gpu *gpu, ls_dptr base, size_t width, size_t height,
                        size_t pitch, unsigned elem_bytes, uint64_t *handle);

/* ---- Texture and surface objects (docs/textures.md) ----
 * One descriptor call, shaped like CUDA's cudaCreateTextureObject: a
 * resource (where the texels live and how they are laid out), a channel
 * format and, for textures, a sampler. The returned handle is what a
 * kernel takes as a cudaTextureObject_t / cudaSurfaceObject_t (.u64
 * param) or what a .texref/.surfref variable holds (ls_module_symbol).
 * Combinations the model does not implement are refused with
 * LS_ERR_INVALID and a message naming them, never sampled differently. */
typedef enum ls_res_type {
    LS_RES_LINEAR = 0,      /* cudaResourceTypeLinear: 1-D, tex1Dfetch      */
    LS_RES_PITCH2D = 1,     /* cudaResourceTypePitch2D: rows pitch apart     */
    LS_RES_ARRAY = 2,       /* cudaResourceTypeArray: dense array, layout in
                               docs/textures.md (1-D/2-D/3-D, layered, cube) */
    LS_RES_MIPMAPPED = 3    /* cudaResourceTypeMipmappedArray: levels dense,
                               one after another                             */
} ls_res_type;

typedef enum ls_channel_kind {
    LS_CHANNEL_SIGNED = 0,  /* cudaChannelFormatKindSigned                   */
    LS_CHANNEL_UNSIGNED = 1,/* cudaChannelFormatKindUnsigned                 */
    LS_CHANNEL_FLOAT = 2    /* cudaChannelFormatKindFloat (16 bits = half)   */
} ls_channel_kind;

/* cudaChannelFormatDesc: bits of x, y, z, w (0 = channel absent); 1, 2 or
 * 4 channels of equal size 8, 16 or 32 (float: 16 or 32). */
typedef struct ls_channel_desc {
    int x, y, z, w;
    ls_channel_kind kind;
} ls_channel_desc;

/* Array flags (cudaArrayLayered, cudaArrayCubemap, cudaArraySurfaceLoadStore). */
#define LS_ARRAY_LAYERED 0x1u
#define LS_ARRAY_CUBEMAP 0x4u
#define LS_ARRAY_SURFACE 0x2u

/* cudaResourceDesc. Every resource lives in device memory at base (an
 * ls_malloc'd region the texels are copied into, as a CUDA array's
 * storage). LINEAR: size_bytes / element size texels. PITCH2D: width x
 * height, rows pitch bytes apart. ARRAY/MIPMAPPED: width x height x depth
 * texels (height 0: 1-D, depth 0: 2-D), `layers` layers when flags has
 * LS_ARRAY_LAYERED (cube: 6 faces per layer; unlayered cube: 6 faces),
 * `levels` mip levels for MIPMAPPED. */
typedef struct ls_resource_desc {
    ls_res_type type;
    ls_dptr base;
    ls_channel_desc format;
    size_t size_bytes;                 /* LINEAR                             */
    size_t width, height, depth;       /* texels (level 0)                   */
    size_t pitch;                      /* PITCH2D: bytes between rows        */
    size_t layers;                     /* layered arrays: layer count        */
    unsigned flags;                    /* LS_ARRAY_*                         */
    unsigned levels;                   /* MIPMAPPED: mip levels (1..16)      */
} ls_resource_desc;

typedef enum ls_address_mode {        /* cudaTextureAddressMode values      */
    LS_ADDRESS_WRAP = 0, LS_ADDRESS_CLAMP = 1, LS_ADDRESS_MIRROR = 2,
    LS_ADDRESS_BORDER = 3
} ls_address_mode;
typedef enum ls_filter_mode {         /* cudaTextureFilterMode values       */
    LS_FILTER_POINT = 0, LS_FILTER_LINEAR = 1
} ls_filter_mode;
typedef enum ls_read_mode {           /* cudaTextureReadMode values         */
    LS_READ_ELEMENT_TYPE = 0, LS_READ_NORMALIZED_FLOAT = 1
} ls_read_mode;

/* cudaTextureDesc (fields in the same sense; unlisted CUDA fields have no
 * counterpart because their only modelled value is the default). */
typedef struct ls_texture_desc {
    ls_address_mode address_mode[3];
    ls_filter_mode filter_mode;
    ls_read_mode read_mode;
    int srgb;                          /* must be 0 (sRGB is not modelled)  */
    float border_color[4];
    int normalized_coords;
    unsigned max_anisotropy;           /* 0 or 1 (no anisotropic filtering) */
    ls_filter_mode mipmap_filter_mode;
    float mipmap_level_bias;
    float min_mipmap_level_clamp, max_mipmap_level_clamp;
    int seamless_cubemap;              /* must be 0 (per-face clamping)     */
} ls_texture_desc;

/* Creates a texture object over res sampled as tex; *handle as above. */
ls_status ls_texture_create(ls_gpu *gpu, const ls_resource_desc *res,
                            const ls_texture_desc *tex, uint64_t *handle);
/* Creates a surface object (suld/sust/suq) over an ARRAY resource. */
ls_status ls_surface_create(ls_gpu *gpu, const ls_resource_desc *res,
                            uint64_t *handle);
/* Destroys a texture or surface object; later fetches through it fail. */
ls_status ls_texture_destroy(ls_gpu *gpu, uint64_t handle);

#ifdef __cplusplus
}
#endif
#endif
