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
                                    stderr is not a tty                     */
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

/* Cache statistics (timing mode). Accesses are coalesced line requests
 * of one warp instruction; sector counts are 32-byte sectors. */
#define LS_MAX_SECTORS 8
typedef struct ls_cache_stats {
    uint64_t accesses, hits, misses;   /* line requests; hit = all sectors present */
    uint64_t sector_misses;            /* sectors requested but absent       */
    uint64_t sector_fills;             /* sectors filled from below          */
    uint64_t evictions;
    uint64_t mshr_merges;              /* misses merged into a pending MSHR  */
    uint64_t reservation_fails;        /* stalls: no MSHR/line/queue free    */
    uint64_t used_sectors_hist[LS_MAX_SECTORS + 1]; /* at eviction: lines
                                          whose used-sector count is i       */
    /* LAMAR (docs/lamar.md): sectors filled from below, by why they came */
    uint64_t demand;                   /* asked for by the miss that allocated the line */
    uint64_t pred_ref;                 /* fetched on the GDU's prediction, referenced */
    uint64_t pred_nref;                /* fetched on prediction, evicted unreferenced */
    uint64_t npred_ref;                /* asked for by a later miss of the line (not predicted) */
    uint64_t gdu_queries, gdu_fg;      /* line allocations that fetch; FG answers */
    uint64_t gdu_insertions, gdu_inversions; /* BGP/BGP_inf: evictions inserted, default flips */
    uint64_t locks_broken;             /* DAC: locked L1D lines evicted because
                                          every other way was locked or pending */
} ls_cache_stats;

/* DRAM commands of the requests of one size class (LAMAR, docs/lamar.md). */
typedef struct ls_dram_class {
    uint64_t requests;                 /* requests served (column commands issued) */
    uint64_t reads, writes, row_hits, activates, precharges;
} ls_dram_class;

typedef struct ls_dram_stats {
    uint64_t reads, writes;            /* column commands                    */
    uint64_t bytes;                    /* data moved                         */
    uint64_t row_hits, activates, precharges;
    uint64_t read_bytes, write_bytes;  /* bytes moved by reads / writes      */
    ls_dram_class by_size[2];          /* [0] one-sector (FG 32 B) requests,
                                          [1] requests of more sectors      */
    uint64_t act_subranks;             /* sub-ranks activated (= activates
                                          without sub-ranks; docs/lamar.md) */
    uint64_t open_ticks;               /* channel DRAM clocks with a row open */
} ls_dram_stats;

/* Energy of a run (timing mode; docs/lamar.md "DRAM and system power"):
 * the DRAM by component of the Micron-style model of dissertation 5.3.1,
 * and the GPU by the IPC-based model of the same section. Joules; all
 * additive over launches. */
typedef struct ls_power_stats {
    double seconds;                    /* simulated time: cycles / core clock */
    double dram_pre_stby, dram_act_stby; /* background: no row / a row open   */
    double dram_ref;                   /* refresh                             */
    double dram_act_pre;               /* activate + precharge pairs          */
    double dram_rd, dram_rd_io;        /* read bursts: bank, I/O pins         */
    double dram_wr, dram_wr_io;        /* write bursts: bank, termination     */
    double gpu_leak;                   /* system leakage (GPU and DRAM)       */
    double gpu_const;                  /* per-core power not scaling with IPC */
    double gpu_dyn;                    /* per-core power scaling with IPC     */
} ls_power_stats;

/* The core energy model of a timing run (docs/energy.md; the energy.*
 * keys, csim/gpu/gpu_energy.c): register-file, execution-unit and DAC-unit
 * events of an uncompressed register file, and their energies in
 * millionths of E_v, one access of a 1024-bit vector register. Every
 * member is a uint64_t, additive over launches. */
typedef struct ls_energy_stats {
    uint64_t rf_arrays_read;     /* 128-bit RF arrays read: 8 per 32-bit word
                                    of each vector-register source operand   */
    uint64_t rf_arrays_written;  /* arrays written: those holding an active
                                    lane, per word of each destination       */
    uint64_t tuple_accesses;     /* affine-tuple register accesses (one array
                                    each): DAC affine warp, CAE compact insts */
    uint64_t lane_ops[3];        /* ALU, SFU, MEM lane operations             */
    uint64_t dac_unit_ops;       /* AEU/PEU operations (DAC)                  */
    uint64_t queue_accesses;     /* ATQ and per-warp queue writes and reads   */
    uint64_t e_rf, e_exec, e_dac, e_other, e_total; /* energies, see above  */
} ls_energy_stats;

/* Why an SM issued nothing in a cycle (timing mode; SM-cycles). */
typedef struct ls_stall_stats {
    uint64_t no_warps;       /* no resident warp                              */
    uint64_t ibuffer;        /* every ready warp waits on fetch/decode        */
    uint64_t scoreboard;     /* operands not ready (RAW/WAW)                  */
    uint64_t barrier;        /* warps wait at a barrier                       */
    uint64_t pipe_busy;      /* target ALU/SFU/MEM pipeline busy              */
    uint64_t mem_wait;       /* memory unit or its queues full                */
} ls_stall_stats;

/* The five RTL blocks (index of ls_stats.cosim); RVC is two block kinds,
 * the compressor (rvc_comp) and the decompressor (rvc_decomp). */
enum ls_block { LS_BLK_CAPT = 0, LS_BLK_WCU = 1, LS_BLK_SLP = 2, LS_BLK_RVC_COMP = 3,
                LS_BLK_BGP = 4, LS_BLK_RVC_DECOMP = 5, LS_BLK_COUNT = 6 };
/* Name of block b ("slp"), or "?" out of range. */
const char *ls_block_name(int b);
/* 1 when the GPU model clocks block b while it runs (its mechanism is
 * modelled), so it can be put in the loop; 0 otherwise. */
int ls_block_in_loop(int b);

/* RTL-in-the-loop figures of one block kind, summed over its instances. */
typedef struct ls_cosim_stats {
    uint64_t instances;          /* instances clocked (max over launches)     */
    uint64_t cycles;             /* clock edges stepped (compared under lockstep) */
    uint64_t idle_skipped;       /* idle edges skipped under the clocking rule */
    uint64_t transactions;       /* edges with a non-idle input               */
    uint64_t mismatches;         /* edges where RTL and C model disagreed     */
    int backend;                 /* 0 c, 1 rtl, 2 lockstep; -1 not clocked    */
} ls_cosim_stats;

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

/* G-Scalar register-file compression (docs/gscalar.md), timing mode with
 * gscalar.compress = on; all zero otherwise. "Arrays" are the 128-bit
 * SRAM arrays of a register-file bank (8 hold one 1024-bit vector
 * register); the BVR array holds BVR, EBR, D and FS of every register. */
typedef struct ls_gscalar_stats {
    uint64_t writes;             /* vector-register write-backs compressed    */
    uint64_t div_writes;         /* of those, divergent (D = 1)               */
    uint64_t write_bytes[5];     /* non-divergent writes by equal leading bytes */
    uint64_t reads;              /* operand reads decompressed and checked    */
    uint64_t read_cat[LS_GS_NCAT]; /* reads by enum ls_gs_cat (Fig 8)         */
    uint64_t read_cls[4];        /* reads by decompressor class: none, scalar,
                                    divergent-scalar, half-scalar             */
    uint64_t rmw_moves;          /* moves inserted before a divergent write to
                                    a compressed register (sec. 3.3)          */
    uint64_t arrays_read, arrays_written;   /* arrays activated, compressed RF */
    uint64_t bvr_reads, bvr_writes;         /* BVR array accesses             */
    uint64_t base_arrays_read, base_arrays_written; /* uncompressed baseline  */
    uint64_t raw_bytes, gs_bytes, bdi_bytes; /* write sizes: raw, ours, BDI   */
    uint64_t rf_energy, base_rf_energy;  /* RF access energy, compressed and
                                    baseline, in millionths of one 1024-bit
                                    vector-register access                 */
    /* scalar execution (gscalar.scalar; docs/gscalar.md) */
    uint64_t insts;              /* warp instructions issued (Fig 9 base)     */
    uint64_t elig[LS_GS_NCLS];   /* of those, by enum ls_gs_elig (Fig 9)      */
    uint64_t scalar_insts;       /* executed as scalar under gscalar.scalar   */
    uint64_t lane_ops[3], base_lane_ops[3]; /* ALU, SFU, MEM lane operations:
                                    this run, and all active lanes            */
    uint64_t bdi_all_bytes;      /* BDI, best of the BDI paper's encodings    */
    uint64_t bdi_enc[LS_BDI_NENC]; /* writes by BDI encoding (enum ls_bdi_enc) */
    /* energy (csim/gpu/gpu_energy.c), millionths of a vector-register access */
    uint64_t exec_energy, base_exec_energy; /* execution units: lane-ops      */
    uint64_t other_energy;       /* the rest of the chip: SM-cycles x constant */
} ls_gscalar_stats;

/* PCA, priority-based cache allocation at the L1D (docs/pca.md): loads
 * split by the requesting warp's token. */
typedef struct ls_pca_stats {
    uint64_t prio_accesses, prio_hits;       /* loads of token holders        */
    uint64_t deprio_accesses, deprio_hits;   /* loads of the other warps      */
    uint64_t bypassed;                       /* line misses that did not allocate */
} ls_pca_stats;
/* MTA, the many-thread-aware L1D prefetcher (prefetch = mta; docs/dac.md
 * "Comparison points", docs/stats.md); all zero with prefetch = off. Every
 * member is a uint64_t counter (ls_stats_add sums them). */
typedef struct ls_mta_stats {
    uint64_t launches;           /* launches with prefetch = mta              */
    uint64_t trained;            /* load instructions the tables trained on   */
    uint64_t candidates;         /* lines predicted                           */
    uint64_t issued;             /* prefetches sent below (an L1D line each)  */
    uint64_t issued_by[3];       /* of those by table: [0] promoted (GS),
                                    [1] per-warp stride (PWS), [2] inter-warp (IP) */
    uint64_t redundant;          /* candidates already in the L1D or pending  */
    uint64_t dropped;            /* candidates refused: MSHR reserve, request
                                    port or no replaceable way                */
    uint64_t useful;             /* prefetched lines a demand load referenced */
    uint64_t late;               /* of those, the load came while the prefetch
                                    was in flight (merged into its MSHR)      */
    uint64_t unused;             /* prefetched lines evicted or invalidated at
                                    kernel end never referenced               */
    uint64_t uncovered;          /* demand load misses no prefetch covered    */
    uint64_t throttle_down, throttle_up; /* degree changes of the throttle   */
    uint64_t periods, degree_sum; /* throttle periods ended; their new degrees
                                    summed (mean degree = degree_sum / periods) */
} ls_mta_stats;

/* CAE, compact affine execution (affine.mode = cae; docs/dac.md
 * "Comparison points", docs/stats.md); all zero otherwise. Every member is
 * a uint64_t counter (ls_stats_add sums them). */
typedef struct ls_cae_stats {
    uint64_t launches;           /* launches with affine.mode = cae           */
    uint64_t insts;              /* warp instructions issued                  */
    uint64_t compact[3];         /* of those run compactly (one lane-cycle),
                                    by pipeline: [0] ALU, [1] SFU, [2] MEM    */
    uint64_t compact_affine;     /* of the compact ones, with an affine (not
                                    only uniform) source                      */
    uint64_t fallback;           /* compact by their sources, but the result
                                    of a widening op was not affine: re-run on
                                    every lane                                */
    uint64_t writes;             /* register writes by full-warp ALU, SFU and
                                    MEM instructions                          */
    uint64_t writes_uniform;     /* of those, one value in every lane         */
    uint64_t writes_affine;      /* of those, base + lane x stride, stride != 0 */
} ls_cae_stats;

/* Thread-block compaction (docs/compaction.md), timing mode with
 * simt.compaction != none; all zero otherwise. Every member is a uint64_t
 * counter (ls_stats_add sums them). NW sums are over compaction points. */
typedef struct ls_compaction_stats {
    uint64_t launches;           /* launches under a compaction scheme        */
    uint64_t uncompacted;        /* of those, run uncompacted (see reason)    */
    uint64_t issued;             /* compacted-warp instructions issued        */
    uint64_t issued_active;      /* of those, with >= 1 active thread         */
    uint64_t thread_insts;       /* threads they ran                          */
    uint64_t points;             /* compaction points (CTA masks formed)      */
    uint64_t divergent_points;   /* of those, after a branch split the CTA    */
    uint64_t warps_formed;       /* compacted warps formed                    */
    uint64_t nw_nocomp, nw_tbc, nw_ideal; /* warps without compaction, formed,
                                    ceil(threads / 32)                        */
    uint64_t stall_slot_cycles;  /* warp-slot cycles of live CTAs without a
                                    warp to run (waiting at a compaction point) */
    /* capri: CAPT lookups (divergent warps at a branch), hits, predictions;
     * non-divergent warps that bypassed without a lookup; bypasses
     * predicted but refused (the warp shares a home warp with another);
     * warps that bypassed */
    uint64_t capri_lookups, capri_hits, capri_pred_stall, capri_pred_bypass;
    uint64_t capri_nodiv_bypass, capri_bypass_denied, capri_bypassed;
    /* prediction quality (Fig 4.21), prediction/outcome: [0] Bypass/Bypass,
     * [1] Stall/Stall, [2] Bypass/Stall, [3] Stall/Bypass; the outcome is
     * the WCU evaluator's (NW_min < NW_noTBC: compaction reduces warps) */
    uint64_t capri_quality[4];
    /* per branch class (docs/branch-classes.md; [0] P, [1] D): compaction
     * points after a branch of the class, NW_noTBC and NW_TBC sums there
     * (compaction rate 1 - NW_TBC / NW_noTBC, Fig 4.26) */
    uint64_t class_points[2], class_nw_nocomp[2], class_nw_tbc[2];
} ls_compaction_stats;

/* Dual-path execution and dynamic warp subdivision (docs/dpe.md), timing
 * mode with simt.paths = dual or dws; all zero otherwise. Every member is
 * a uint64_t counter. */
typedef struct ls_dpe_stats {
    uint64_t launches;           /* launches under simt.paths = dual or dws   */
    uint64_t single;             /* of those, run single-path (see reason)    */
    uint64_t issued;             /* warp instructions issued dual-path        */
    uint64_t path_sum;           /* schedulable paths summed at each issue,
                                    stalled ones included (dual: top-of-stack
                                    paths; dws: valid WST splits, 1 when not
                                    subdivided; Avg_Path = path_sum / issued,
                                    Eq. 3.1)                                  */
    uint64_t switches;           /* constrained scheduler: path switches      */
    uint64_t branches;           /* warp-level bra executed                   */
    uint64_t divergent;          /* of those, split the path                  */
    uint64_t interleavable;      /* of those, both sides non-empty (3.3.3.1) */
    uint64_t forwarded;          /* dual, path forwarding: instructions issued
                                    by a path of an entry below the top       */
    uint64_t subdivided;         /* dws: divergent branches at the stack that
                                    subdivided the warp                       */
    uint64_t refused;            /* dws: ... that the threshold kept on the
                                    stack                                     */
    uint64_t nested;             /* dws: divergent branches of a split        */
    uint64_t created;            /* dws: warp-splits created                  */
    uint64_t merges;             /* dws: merges of splits at one pc           */
} ls_dpe_stats;

/* Decoupled affine computation (docs/dac.md "The hardware", docs/stats.md),
 * timing mode with affine.mode = dac; all zero otherwise. Every member is a
 * uint64_t counter; occ_max and locked_max are maxima, the rest sums. */
typedef struct ls_dac_stats {
    uint64_t launches;           /* launches under affine.mode = dac          */
    uint64_t not_decoupled;      /* of those, kernels the transform left whole */
    uint64_t batches;            /* affine-warp passes over a batch of CTAs   */
    uint64_t batch_ctas;         /* CTAs run by an affine warp                */
    uint64_t aff_insts;          /* affine-warp instructions issued           */
    uint64_t main_insts;         /* main-warp instructions issued             */
    uint64_t removed;            /* main-warp instructions skipped (removed
                                    from the main stream)                    */
    uint64_t tuples;             /* ATQ entries pushed by enq                 */
    uint64_t rec_addr, rec_data, rec_pred; /* per-warp records expanded      */
    uint64_t gl_loads;           /* global/local load warp instructions of
                                    main warps in decoupled kernels          */
    uint64_t gl_served;          /* of those, served by enq.data (locked)     */
    uint64_t peu_uniform, peu_two, peu_full; /* PEU records by case          */
    uint64_t stall_enq_full;     /* affine-warp cycles stalled: ATQ full      */
    uint64_t stall_aw_dep;       /* affine-warp cycles waiting on a tuple not
                                    yet out of the ALU pipeline              */
    uint64_t stall_aeu_full;     /* AEU/PEU cycles stalled: warp queue full   */
    uint64_t stall_deq_empty;    /* main-warp issue checks refused: empty     */
    uint64_t stall_deq_data;     /* ... record there, data not arrived        */
    uint64_t occ_sum;            /* per-warp queue records x cycles           */
    uint64_t occ_max;            /* most records queued in one SM             */
    uint64_t atq_sum;            /* ATQ entries x cycles                      */
    uint64_t locked_sum;         /* locked L1D lines x cycles                 */
    uint64_t locked_max;         /* most lines locked in one SM               */
    uint64_t lock_refused;       /* enq.data records over dac.lock_lines      */
    uint64_t prefetch_lines;     /* line requests sent by the AEUs            */
    uint64_t cycles;             /* SM-cycles the occupancy sums cover        */
    uint64_t checked_addr, checked_pred; /* golden checks passed              */
    uint64_t widen_checks;       /* widening instructions checked exact       */
} ls_dac_stats;

#define LS_STACK_HIST 16
/* Statistics of one launch (or a sum of launches, see ls_stats_add). */
typedef struct ls_stats {
    uint64_t launches;
    uint64_t warp_insts;         /* warp-level instructions issued            */
    uint64_t thread_insts;       /* active-thread instructions                */
    uint64_t divergent_branches; /* branches that split a warp                */
    uint64_t branches;           /* warp-level branch instructions            */
    uint64_t max_stack_depth;    /* deepest reconvergence stack seen          */
    uint64_t stack_depth_hist[LS_STACK_HIST]; /* warp insts issued at stack
                                    depth i (last bucket: >= LS_STACK_HIST-1) */
    uint64_t ctas, threads;
    uint64_t cycles;             /* timing mode only; 0 in functional mode    */
    uint64_t sm_cycles;          /* sum over SMs of cycles with resident work */
    uint64_t idle_cycles;        /* SM-cycles in which no warp was ready      */
    ls_stall_stats stall;        /* breakdown of the idle SM-cycles           */
    uint64_t tensor_insts;       /* wmma.mma/mma warp instructions (timing)   */
    uint64_t tensor_busy_cycles; /* tensor pipe-cycles busy, all SMs (timing) */
    ls_cache_stats l1d, l2;
    ls_dram_stats dram;
    double ipc;                  /* warp_insts / cycles (0 in functional)     */
    double simd_util;            /* thread_insts / (warp_insts * warp_size)   */
    double wall_s;               /* host seconds spent simulating             */
    ls_cosim_stats cosim[LS_BLK_COUNT]; /* per block kind (timing mode)       */
    /* device runtime (docs/device-runtime.md); equal in both modes */
    uint64_t printf_calls;       /* device printf calls whose text was written */
    uint64_t printf_bytes;       /* bytes of that text                        */
    uint64_t printf_dropped;     /* calls dropped: printf_fifo_size exceeded  */
    uint64_t malloc_calls;       /* device malloc calls (per thread)          */
    uint64_t malloc_failed;      /* of those, NULL returns (heap full)        */
    uint64_t free_calls;         /* device free calls with a non-NULL pointer */
    ls_energy_stats energy;      /* core energy model (timing mode)           */
    ls_gscalar_stats gscalar;    /* G-Scalar RF compression (timing mode)     */
    ls_power_stats power;        /* DRAM and system energy (timing mode)      */
    ls_pca_stats pca;            /* PCA at the L1D (timing mode, pca.tokens)  */
    ls_mta_stats mta;            /* MTA prefetcher (timing, prefetch = mta)   */
    ls_cae_stats cae;            /* compact affine execution (affine.mode=cae) */
    ls_compaction_stats compaction; /* thread-block compaction (timing mode)  */
    int compaction_scheme;       /* simt.compaction: 0 none, 1 tbc, 2 tbc_plus,
                                    3 capri, 4 ideal                          */
    char uncompacted[160];       /* why a launch ran uncompacted ("shfl at
                                    line N"); a sum keeps the first           */
    ls_dpe_stats dpe;            /* dual-path execution (timing mode)         */
    int dpe_paths;               /* simt.paths: 0 single, 1 dual, 2 dws       */
    char dpe_single[160];        /* why a launch ran single-path; the first   */
    ls_dac_stats dac;            /* decoupled affine computation (timing)     */
} ls_stats;

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
