/* Unit tests of the chip energy model (csim/gpu/gpu_energy.c,
 * docs/energy.md): gpu_energy_run on hand-built counts against energies
 * computed by hand, with round constants (every component, idle SMs
 * leaking); the DAC unit and queue counts it
 * derives from the dac statistics; and whole runs: vecadd's counts under
 * off, then under DAC (the main stream reads fewer arrays, the affine
 * warp's tuples and the queues appear) and under CAE (tuple accesses, fewer
 * lane operations). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "cfg/cfg.h"
#include "gpu/gpu_energy.h"
#include "core/core.h"
#include "wl_run.h"

static void test_hand(void **state)
{
    (void)state;
    struct cfg c;
    cfg_defaults(&c);
    /* round constants: pJ per event, W */
    c.energy_rf_array_pj = 10;
    c.energy_rf_write_pj = 20;
    c.energy_oc_array_pj = 1;
    c.energy_sp_acc_pj = 1;     /* an integer ALU lane operation: 25 */
    c.energy_fpu_acc_pj = 2;
    c.energy_sfu_acc_pj = 3;
    c.energy_icache_hit_pj = 5;
    c.energy_icache_miss_pj = 100;
    c.energy_pipe_thread_pj = 2;
    c.energy_mem_lane_pj = 3;
    c.energy_fds_inst_pj = 100;
    c.energy_fpint_inst_pj = 10;        /* not for the 2 control instructions */
    c.energy_l1d_rd_hit_pj = 50;
    c.energy_l1d_rd_miss_pj = 30;
    c.energy_l1d_wr_hit_pj = 5;
    c.energy_l1d_wr_miss_pj = 70;
    c.energy_shmem_access_pj = 40;
    c.energy_l2_rd_hit_pj = 60;
    c.energy_l2_rd_miss_pj = 6;
    c.energy_l2_wr_hit_pj = 100;
    c.energy_l2_wr_miss_pj = 200;
    c.energy_gated_lanes = CFG_ENERGY_GATED_LANES_ON;   /* ungated below */
    c.energy_noc_flit_pj = 7;
    c.energy_sm_leak_w = 1;
    c.energy_sm_busy_w = 2;
    c.energy_sm_idle_w = 0.5;
    c.energy_uncore_leak_w = 3;
    c.energy_uncore_const_w = 4;
    c.core_clock_mhz = 1000;    /* 1 ns per cycle */
    c.num_sms = 4;
    ls_stats s;
    memset(&s, 0, sizeof s);
    s.cycles = 1000;            /* 1 us */
    s.sm_cycles = 3000;         /* of the 4000 SM-cycles, 1000 idle */
    s.warp_insts = 9;
    s.thread_insts = 200;       /* 400 pJ of pipeline registers */
    s.l1d.accesses = 5;         /* reads: 2 hits, 1 miss; stores: 1 hit, 1 miss */
    s.l1d.hits = 3;
    s.l1d.wr_accesses = 2;
    s.l1d.wr_hits = 1;
    s.l2.accesses = 2;          /* a read hit, a write miss */
    s.l2.hits = 1;
    s.l2.wr_accesses = 1;
    s.icache_accesses = 10;     /* 7 hits, 3 misses */
    s.icache_misses = 3;
    s.power.dram_rd = 1e-9;     /* 1000 pJ of DRAM */
    s.power.dram_ref = 5e-10;   /* 500 pJ */
    ls_energy_stats *e = &s.energy;
    e->rf_arrays_read = 64;
    e->rf_arrays_written = 12;
    e->tuple_accesses = 4;      /* 80 arrays */
    e->lane_ops[0] = 32;
    e->lane_ops[1] = 3;
    e->lane_ops[2] = 8;
    /* 33 of the 35 ALU/SFU lane operations classed; 2 unclassed (DAC's
     * affine warp) are integer ALU ones */
    e->cls_ops[CORE_ECLS_IALU] = 10;    /* 25 x 1 pJ each, ALU */
    e->cls_ops[CORE_ECLS_IMUL32] = 2;   /* 4 x 3 pJ, GPUWattch's SFU counter */
    e->cls_ops[CORE_ECLS_FPU] = 20;     /* 1 x 2 pJ, ALU */
    e->cls_ops[CORE_ECLS_SIN] = 1;      /* 12 x 3 pJ, SFU */
    e->shmem_accesses = 6;
    e->ctrl_insts = 2;
    e->cls_idle[CORE_ECLS_IALU] = 4;    /* ungated only: 4 x 25 x 1 pJ, ALU */
    e->cls_idle[CORE_ECLS_SIN] = 2;     /* 2 x 12 x 3 pJ, SFU */
    e->noc_flits = 11;
    s.dac.tuples = 2;
    s.dac.rec_addr = 3;
    s.dac.rec_data = 4;
    s.dac.rec_pred = 5;
    s.dac.prefetch_lines = 6;
    s.dac.peu_uniform = 2;
    s.dac.peu_two = 2;
    s.dac.peu_full = 1;
    gpu_energy_run(&c, &s);
    /* AEU: 3 + 4 records + 6 lines; PEU: 2 x 1 + 2 x 2 + 1 x 32 */
    assert_int_equal(e->dac_unit_ops, 13 + 38);
    assert_int_equal(e->queue_accesses, 2 * (2 + 3 + 4 + 5));
    assert_int_equal(e->e_rf, 68 * 10 + 12 * 20);   /* reads and tuples, writes */
    assert_int_equal(e->e_oc, 80);
    /* classed ALU/FPU ops, then the 2 unclassed and DAC's 51 at 25 pJ */
    assert_int_equal(e->e_lane[0], 250 + 40 + (2 + 51) * 25);
    assert_int_equal(e->e_lane[1], 24 + 36);
    assert_int_equal(e->e_lane[2], 24);
    assert_int_equal(e->e_icache, 7 * 5 + 3 * 100);
    assert_int_equal(e->e_pipe, 400);
    assert_int_equal(e->e_dac, 28 * 15);            /* half reads, half writes */
    assert_int_equal(e->e_fds, 9 * 100 + 7 * 10);
    assert_int_equal(e->e_l1d, 2 * 50 + 30 + 5 + 70);
    assert_int_equal(e->e_shmem, 240);
    assert_int_equal(e->e_l2, 60 + 200);
    assert_int_equal(e->e_noc, 77);
    assert_int_equal(e->e_dram, 1500);
    assert_int_equal(e->e_sm_leak, 4000000);        /* 4 SMs x 1 W x 1 us */
    assert_int_equal(e->e_sm_busy, 6000000);        /* 3 us of SM x 2 W */
    assert_int_equal(e->e_sm_idle, 500000);         /* 1 us of SM x 0.5 W */
    assert_int_equal(e->e_uncore_leak, 3000000);
    assert_int_equal(e->e_uncore_const, 4000000);
    uint64_t dyn = 920 + 80 + 1615 + 60 + 24 + 420 + 970 + 335 + 400 + 205 + 240 + 260 + 77;
    assert_int_equal(e->e_total, dyn + 1500 + 4000000 + 6000000 + 500000 + 3000000 + 4000000);
    /* the power statistics' GPU part is the same model's */
    assert_true(fabs(s.power.gpu_dyn - (double)dyn * 1e-12) < 1e-18);
    assert_true(fabs(s.power.gpu_leak - 7e-6) < 1e-15);
    assert_true(fabs(s.power.gpu_const - 10.5e-6) < 1e-15);
    /* a second call recomputes, it does not accumulate */
    gpu_energy_run(&c, &s);
    assert_int_equal(e->dac_unit_ops, 51);
    assert_int_equal(e->e_rf, 920);
    /* an idle SM still leaks: a run with no resident work costs leakage
     * and idle power on every SM */
    s.sm_cycles = 0;
    gpu_energy_run(&c, &s);
    assert_int_equal(e->e_sm_leak, 4000000);
    assert_int_equal(e->e_sm_busy, 0);
    assert_int_equal(e->e_sm_idle, 2000000);
    /* DAC: fetch, decode and scheduling are charged per issued warp
     * instruction: the main stream's removed instructions (run without an
     * issue slot) are not, the affine warp's are */
    s.dac.removed = 4;
    s.dac.aff_insts = 1;
    gpu_energy_run(&c, &s);
    assert_int_equal(e->e_fds, (9 - 4 + 1) * 100 + (6 - 2) * 10);
    /* GPUWattch's default, lanes not clock-gated: the inactive lanes'
     * half charge by class, and 32 threads of pipeline registers per
     * warp instruction */
    c.energy_gated_lanes = CFG_ENERGY_GATED_LANES_OFF;
    e->pipe_duty_insts = 5;     /* the duty-capped warp instructions */
    gpu_energy_run(&c, &s);
    assert_int_equal(e->e_lane[0], 250 + 40 + (2 + 51) * 25 + 100);
    assert_int_equal(e->e_lane[1], 24 + 36 + 72);
    assert_int_equal(e->e_pipe, 5 * 32 * 2);
}

/* The decoder's energy class of each opcode is GPGPU-Sim 3.2.2's sp_op
 * (csim/core/core_ecls.def): the rules a source-faithful class needs
 * (fma is not a multiply, a 32-bit integer multiply is the SFU counter's,
 * setp takes its operands' type, rcp is a divide, rem is not). */
static void test_classes(void **state)
{
    (void)state;
    const char *ptx = ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k()\n{\n .reg .pred %p<3>;\n .reg .b32 %r<9>;\n"
        " .reg .f32 %f<9>;\n .reg .b64 %rd<4>;\n"
        " add.s32 %r1, %r2, %r3;\n"             /* 0 ialu */
        " mul.lo.s32 %r1, %r2, %r3;\n"          /* 1 imul32 */
        " mul.wide.u32 %rd1, %r2, %r3;\n"       /* 2 imul32 (u32 type) */
        " mul.lo.u64 %rd1, %rd2, %rd3;\n"       /* 3 imul */
        " mul24.lo.s32 %r1, %r2, %r3;\n"        /* 4 imul24 */
        " div.u32 %r1, %r2, %r3;\n"             /* 5 idiv */
        " rem.u32 %r1, %r2, %r3;\n"             /* 6 ialu */
        " add.f32 %f1, %f2, %f3;\n"             /* 7 fpu */
        " fma.rn.f32 %f1, %f2, %f3, %f4;\n"     /* 8 fpu */
        " mad.f32 %f1, %f2, %f3, %f4;\n"        /* 9 fmul */
        " mul.f32 %f1, %f2, %f3;\n"             /* 10 fmul */
        " rcp.approx.f32 %f1, %f2;\n"           /* 11 fdiv */
        " setp.lt.f32 %p1, %f2, %f3;\n"         /* 12 fpu */
        " setp.lt.s32 %p1, %r2, %r3;\n"         /* 13 ialu */
        " sin.approx.f32 %f1, %f2;\n"           /* 14 sin */
        " ex2.approx.f32 %f1, %f2;\n"           /* 15 ex2 */
        " lg2.approx.f32 %f1, %f2;\n"           /* 16 lg2 */
        " rsqrt.approx.f32 %f1, %f2;\n"         /* 17 sqrt */
        " cvt.rn.f32.s32 %f1, %r2;\n"           /* 18 fpu */
        " ret;\n}\n";
    static const uint8_t want[] = {
        CORE_ECLS_IALU, CORE_ECLS_IMUL32, CORE_ECLS_IMUL32, CORE_ECLS_IMUL, CORE_ECLS_IMUL24,
        CORE_ECLS_IDIV, CORE_ECLS_IALU, CORE_ECLS_FPU, CORE_ECLS_FPU, CORE_ECLS_FMUL,
        CORE_ECLS_FMUL, CORE_ECLS_FDIV, CORE_ECLS_FPU, CORE_ECLS_IALU, CORE_ECLS_SIN,
        CORE_ECLS_EX2, CORE_ECLS_LG2, CORE_ECLS_SQRT, CORE_ECLS_FPU };
    struct ptx_module *mod = NULL;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &mod, &d), 0);
    struct core_prog p;
    assert_int_equal(core_prog_build(&p, mod), 0);
    for (unsigned i = 0; i < sizeof want; i++) {
        if (p.di[0][i].ecls != want[i])
            fail_msg("instruction %u: class %u, expected %u", i, p.di[0][i].ecls, want[i]);
    }
    core_prog_free(&p);
    ptx_module_free(mod);
}

static void test_runs(void **state)
{
    (void)state;
    ls_stats off, dac, cae;
    wl_run_timing("vecadd", NULL, &off);
    const char *const s_dac[] = { "affine.mode=dac", NULL };
    wl_run_timing("vecadd", s_dac, &dac);
    const char *const s_cae[] = { "affine.mode=cae", NULL };
    wl_run_timing("vecadd", s_cae, &cae);
    const ls_energy_stats *o = &off.energy, *d = &dac.energy, *a = &cae.energy;
    /* off: reads are whole registers (8 arrays per word), no DAC or tuples */
    assert_true(o->rf_arrays_read > 0 && o->rf_arrays_read % 8 == 0);
    assert_true(o->rf_arrays_written > 0 && o->lane_ops[0] > 0 && o->lane_ops[2] > 0);
    assert_int_equal(o->tuple_accesses, 0);
    assert_int_equal(o->queue_accesses, 0);
    assert_int_equal(o->dac_unit_ops, 0);
    assert_true(o->e_sm_leak > 0 && o->e_fds > 0 && o->e_l1d > 0 && o->e_noc > 0);
    assert_true(o->e_dram > 0 && o->e_total > o->e_rf + o->e_lane[0]);
    /* the lane operations are the issued instructions' active threads,
     * less those of control instructions (which carry threads too) */
    assert_true(o->lane_ops[0] + o->lane_ops[1] + o->lane_ops[2] <= off.thread_insts);
    /* every ALU/SFU lane operation has its energy class (no DAC here):
     * vecadd's f32 add and its integer index arithmetic */
    uint64_t classed = 0;
    for (unsigned k = 0; k < CORE_ECLS_N; k++)
        classed += o->cls_ops[k];
    assert_int_equal(classed, o->lane_ops[0] + o->lane_ops[1]);
    assert_true(o->cls_ops[CORE_ECLS_FPU] > 0 && o->cls_ops[CORE_ECLS_IALU] > 0);
    /* dac: the main stream reads and computes less, the affine warp and
     * the queues cost something, less dynamic energy in all */
    assert_true(d->rf_arrays_read < o->rf_arrays_read / 2);
    assert_true(d->lane_ops[0] < o->lane_ops[0]);
    assert_true(d->tuple_accesses > 0 && d->dac_unit_ops > 0);
    assert_int_equal(d->queue_accesses,
                     2 * (dac.dac.tuples + dac.dac.rec_addr + dac.dac.rec_data +
                          dac.dac.rec_pred));
    assert_true(d->e_rf + d->e_lane[0] + d->e_lane[2] + d->e_dac < o->e_rf + o->e_lane[0] + o->e_lane[2]);
    /* cae: compact instructions use tuples and two lane operations */
    assert_true(a->tuple_accesses > 0 && a->rf_arrays_read < o->rf_arrays_read);
    assert_true(a->lane_ops[0] < o->lane_ops[0]);
    assert_int_equal(a->queue_accesses, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
