/* The chip energy model (gpu_energy.h; docs/energy.md). */
#include "gpu/gpu_energy.h"
#include "core/core.h"
#include "mem/mem.h"

/* n events of e picojoules, in picojoules (rounded). */
static uint64_t pj(double n, double e)
{
    return (uint64_t)(n * e + 0.5);
}

/* The energy of one lane operation of each execution-energy class
 * (core_ecls.def): its weight in accesses of its GPUWattch counter. sfu:
 * whether the counter is the SFU's (the `sfu` component). */
static void cls_pj(const struct cfg *c, double pj_of[CORE_ECLS_N], bool sfu[CORE_ECLS_N])
{
    const double sp = c->energy_sp_acc_pj, fpu = c->energy_fpu_acc_pj,
                 sfu_acc = c->energy_sfu_acc_pj;
    unsigned k = 0;
#define CORE_ECLS(id, name, ctr, weight, idle, doc) \
    sfu[k] = ctr##_ACC_IS_SFU;                 \
    pj_of[k++] = (weight) * ctr##_ACC;
#define SP_ACC sp
#define FPU_ACC fpu
#define SFU_ACC sfu_acc
#define SP_ACC_IS_SFU false
#define FPU_ACC_IS_SFU false
#define SFU_ACC_IS_SFU true
#include "core/core_ecls.def"
#undef CORE_ECLS
#undef SP_ACC
#undef FPU_ACC
#undef SFU_ACC
#undef SP_ACC_IS_SFU
#undef FPU_ACC_IS_SFU
#undef SFU_ACC_IS_SFU
}

/* The ALU-counter and SFU-counter energy of class lane operations ops[]. */
static void lanes_pj(const struct cfg *c, const uint64_t ops[CORE_ECLS_N], uint64_t *alu,
                     uint64_t *sfu)
{
    double e[CORE_ECLS_N];
    bool is_sfu[CORE_ECLS_N];
    cls_pj(c, e, is_sfu);
    double a = 0, f = 0;
    for (unsigned k = 0; k < CORE_ECLS_N; k++)
        *(is_sfu[k] ? &f : &a) += (double)ops[k] * e[k];
    *alu = (uint64_t)(a + 0.5);
    *sfu = (uint64_t)(f + 0.5);
}

/* w watts for t seconds, in picojoules (rounded). */
static uint64_t pj_w(double w, double t)
{
    return (uint64_t)(w * t * 1e12 + 0.5);
}

/* A cache's reads and writes, hits and misses, at GPUWattch's energies. */
static uint64_t cache_pj(const ls_cache_stats *st, double rh, double rm, double wh, double wm)
{
    uint64_t wa = st->wr_accesses, whit = st->wr_hits;
    uint64_t ra = st->accesses > wa ? st->accesses - wa : 0;
    uint64_t rhit = st->hits > whit ? st->hits - whit : 0;
    return pj((double)rhit, rh) + pj((double)(ra > rhit ? ra - rhit : 0), rm) +
           pj((double)whit, wh) + pj((double)(wa > whit ? wa - whit : 0), wm);
}

void gpu_energy_run(const struct cfg *c, ls_stats *s)
{
    ls_energy_stats *e = &s->energy;
    const ls_dac_stats *d = &s->dac;
    /* AEU: an accumulator step per record and per line it prefetches; PEU:
     * one compare (uniform), two (first/last thread), 32 (the fallback),
     * and one operation per warp vector it combines (and/or/xor/not) */
    e->dac_unit_ops = d->rec_addr + d->rec_data + d->prefetch_lines + d->peu_uniform +
                      2 * d->peu_two + 32 * d->peu_full + d->peu_ops;
    /* every ATQ entry, per-warp record and fed-back mask is written once
     * and read once */
    e->queue_accesses = 2 * (d->tuples + d->rec_addr + d->rec_data + d->rec_pred +
                             d->rec_mask);
    /* GPUWattch's register file: a read and a write of an array differ
     * (REG_RD, REG_WR); a tuple access is a read */
    double rd = (double)(e->rf_arrays_read + e->tuple_accesses);
    double wr = (double)e->rf_arrays_written;
    e->e_rf = pj(rd, c->energy_rf_array_pj) + pj(wr, c->energy_rf_write_pj);
    e->e_oc = pj(rd + wr, c->energy_oc_array_pj);
    /* ALU/SFU lane operations by energy class; those without a class (DAC's
     * affine warp) and DAC's unit operations are integer ALU ones */
    uint64_t classed = 0;
    for (unsigned k = 0; k < CORE_ECLS_N; k++)
        classed += e->cls_ops[k];
    uint64_t ops = e->lane_ops[0] + e->lane_ops[1];
    uint64_t ialu = (ops > classed ? ops - classed : 0) + e->dac_unit_ops;
    lanes_pj(c, e->cls_ops, &e->e_lane[0], &e->e_lane[1]);
    e->e_lane[0] += pj((double)ialu, 25.0 * c->energy_sp_acc_pj);
    /* GPUWattch without clock-gated lanes: the inactive lanes' share */
    if (c->energy_gated_lanes == CFG_ENERGY_GATED_LANES_OFF) {
        uint64_t a, f;
        lanes_pj(c, e->cls_idle, &a, &f);
        e->e_lane[0] += a;
        e->e_lane[1] += f;
    }
    e->e_lane[2] = pj((double)e->lane_ops[2], c->energy_mem_lane_pj);
    /* half the queue accesses are writes, half reads */
    e->e_dac = pj((double)e->queue_accesses, 0.5 * (c->energy_rf_array_pj + c->energy_rf_write_pj));
    /* per issued warp instruction: DAC's removed ones run without an
     * issue slot, its affine warp's issue */
    uint64_t wi = s->warp_insts - d->removed + d->aff_insts;
    e->e_fds = pj((double)wi, c->energy_fds_inst_pj) +
               pj((double)(wi > e->ctrl_insts ? wi - e->ctrl_insts : 0), c->energy_fpint_inst_pj);
    uint64_t im = s->icache_misses, ih = s->icache_accesses > im ? s->icache_accesses - im : 0;
    e->e_icache = pj((double)ih, c->energy_icache_hit_pj) + pj((double)im, c->energy_icache_miss_pj);
    /* GPUWattch's pipeline duty cycle is committed thread instructions:
     * every lane of a warp instruction, capped at 0.8 per sample
     * (pipe_duty_insts), unless lanes are clock-gated (then every active
     * thread, uncapped: ours) */
    double thr = c->energy_gated_lanes == CFG_ENERGY_GATED_LANES_OFF
                     ? (double)e->pipe_duty_insts * (double)c->warp_size
                     : (double)s->thread_insts;
    e->e_pipe = pj(thr, c->energy_pipe_thread_pj);
    e->e_l1d = cache_pj(&s->l1d, c->energy_l1d_rd_hit_pj, c->energy_l1d_rd_miss_pj,
                        c->energy_l1d_wr_hit_pj, c->energy_l1d_wr_miss_pj);
    e->e_shmem = pj((double)e->shmem_accesses, c->energy_shmem_access_pj);
    e->e_l2 = cache_pj(&s->l2, c->energy_l2_rd_hit_pj, c->energy_l2_rd_miss_pj,
                       c->energy_l2_wr_hit_pj, c->energy_l2_wr_miss_pj);
    e->e_noc = pj((double)e->noc_flits, c->energy_noc_flit_pj);
    e->e_dram = (uint64_t)(mem_power_dram_j(&s->power) * 1e12 + 0.5);
    /* static and constant power over the run's simulated time: every SM
     * leaks every cycle; an SM-cycle is busy (resident work) or idle */
    double hz = (double)c->core_clock_mhz * 1e6;
    double secs = hz > 0 ? (double)s->cycles / hz : 0.0;
    double busy = hz > 0 ? (double)s->sm_cycles / hz : 0.0;
    double all = secs * (double)c->num_sms;
    double idle = all > busy ? all - busy : 0.0;
    e->e_sm_leak = pj_w(c->energy_sm_leak_w, all);
    e->e_sm_busy = pj_w(c->energy_sm_busy_w, busy);
    e->e_sm_idle = pj_w(c->energy_sm_idle_w, idle);
    e->e_uncore_leak = pj_w(c->energy_uncore_leak_w, secs);
    e->e_uncore_const = pj_w(c->energy_uncore_const_w, secs);
    uint64_t dyn = e->e_rf + e->e_oc + e->e_lane[0] + e->e_lane[1] + e->e_lane[2] + e->e_dac +
                   e->e_fds + e->e_icache + e->e_pipe + e->e_l1d + e->e_shmem + e->e_l2 + e->e_noc;
    uint64_t leak = e->e_sm_leak + e->e_uncore_leak;
    uint64_t cnst = e->e_sm_busy + e->e_sm_idle + e->e_uncore_const;
    e->e_total = dyn + e->e_dram + leak + cnst;
    /* the GPU part of the power statistics (LAMAR's system Perf/W) */
    s->power.gpu_leak = (double)leak * 1e-12;
    s->power.gpu_const = (double)cnst * 1e-12;
    s->power.gpu_dyn = (double)dyn * 1e-12;
}

void gpu_energy_gscalar(const struct cfg *c, ls_stats *s)
{
    ls_gscalar_stats *g = &s->gscalar;
    const ls_energy_stats *e = &s->energy;
    if (!g->insts)
        return;
    /* an array activated is also an array moved through the crossbar; a
     * BVR access is gscalar.bvr_energy of a vector register's 8 arrays */
    double ard = c->energy_rf_array_pj + c->energy_oc_array_pj;
    double awr = c->energy_rf_write_pj + c->energy_oc_array_pj;
    double brd = c->gscalar_bvr_energy * 8.0 * c->energy_rf_array_pj;
    double bwr = c->gscalar_bvr_energy * 8.0 * c->energy_rf_write_pj;
    g->rf_pj = pj((double)g->arrays_read, ard) + pj((double)g->arrays_written, awr) +
               pj((double)g->bvr_reads, brd) + pj((double)g->bvr_writes, bwr);
    g->base_rf_pj = pj((double)g->base_arrays_read, ard) +
                    pj((double)g->base_arrays_written, awr);
    /* a scalar register file beside the uncompressed one (Gilani et al.,
     * the paper's [3]): a non-divergent read of a scalar register and a
     * non-divergent scalar write (all 4 bytes equal) each take one entry
     * of the small array instead of the 8 arrays of the vector RF */
    uint64_t sr = g->read_cat[LS_GS_SCALAR], sw = g->write_bytes[4];
    uint64_t vr = g->base_arrays_read, vw = g->base_arrays_written;
    vr = vr > 8 * sr ? vr - 8 * sr : 0;
    vw = vw > 8 * sw ? vw - 8 * sw : 0;
    g->srf_pj = pj((double)vr, ard) + pj((double)vw, awr) + pj((double)sr, brd) +
                pj((double)sw, bwr);
    /* the lanes as gpu_energy_run charges them: ALU/SFU by energy class,
     * MEM per address computation */
    uint64_t a, f;
    lanes_pj(c, g->cls_ops, &a, &f);
    g->exec_energy = a + f + pj((double)g->lane_ops[2], c->energy_mem_lane_pj);
    lanes_pj(c, g->base_cls_ops, &a, &f);
    g->base_exec_energy = a + f + pj((double)g->base_lane_ops[2], c->energy_mem_lane_pj);
    /* the inactive lanes' share (GPUWattch without clock-gated lanes); a
     * scalar instruction clock-gates all but its one lane */
    if (c->energy_gated_lanes == CFG_ENERGY_GATED_LANES_OFF) {
        lanes_pj(c, g->cls_idle, &a, &f);
        g->exec_energy += a + f;
        lanes_pj(c, g->base_cls_idle, &a, &f);
        g->base_exec_energy += a + f;
    }
    /* everything else the chip model charged this run */
    g->other_energy = e->e_total - e->e_rf - e->e_oc - e->e_lane[0] - e->e_lane[1] - e->e_lane[2];
}
