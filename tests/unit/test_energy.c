/* Unit tests of the core energy model (csim/gpu/gpu_energy.c,
 * docs/energy.md): gpu_energy_run on hand-built counts against energies
 * computed by hand, with round constants; the DAC unit and queue counts it
 * derives from the dac statistics; and whole runs: vecadd's counts under
 * off, then under DAC (the main stream reads fewer arrays, the affine
 * warp's tuples and the queues appear) and under CAE (tuple accesses, fewer
 * lane operations). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "cfg/cfg.h"
#include "gpu/gpu_energy.h"
#include "wl_run.h"

static void test_hand(void **state)
{
    (void)state;
    struct cfg c;
    cfg_defaults(&c);
    c.energy_alu_lane = 0.5;
    c.energy_sfu_lane = 2.0;
    c.energy_mem_lane = 0.25;
    c.energy_sm_cycle = 10.0;
    ls_stats s;
    memset(&s, 0, sizeof s);
    s.sm_cycles = 100;
    ls_energy_stats *e = &s.energy;
    e->rf_arrays_read = 64;     /* 8 E_v */
    e->rf_arrays_written = 12;  /* 1.5 E_v */
    e->tuple_accesses = 4;      /* 0.5 E_v */
    e->lane_ops[0] = 32;        /* 16 E_v */
    e->lane_ops[1] = 3;         /* 6 E_v */
    e->lane_ops[2] = 8;         /* 2 E_v */
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
    assert_int_equal(e->e_rf, 10000000);                  /* 80 arrays / 8 */
    assert_int_equal(e->e_exec, 24000000 + 51 * 500000);  /* + 51 x 0.5 */
    assert_int_equal(e->e_dac, 28 * 125000);
    assert_int_equal(e->e_other, 1000000000);
    assert_int_equal(e->e_total, e->e_rf + e->e_exec + e->e_dac + e->e_other);
    /* a second call recomputes, it does not accumulate */
    gpu_energy_run(&c, &s);
    assert_int_equal(e->dac_unit_ops, 51);
    assert_int_equal(e->e_rf, 10000000);
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
    assert_true(o->e_other > 0);
    /* the lane operations are the issued instructions' active threads,
     * less those of control instructions (which carry threads too) */
    assert_true(o->lane_ops[0] + o->lane_ops[1] + o->lane_ops[2] <= off.thread_insts);
    /* dac: the main stream reads and computes less, the affine warp and
     * the queues cost something, less dynamic energy in all */
    assert_true(d->rf_arrays_read < o->rf_arrays_read / 2);
    assert_true(d->lane_ops[0] < o->lane_ops[0]);
    assert_true(d->tuple_accesses > 0 && d->dac_unit_ops > 0);
    assert_int_equal(d->queue_accesses,
                     2 * (dac.dac.tuples + dac.dac.rec_addr + dac.dac.rec_data +
                          dac.dac.rec_pred));
    assert_true(d->e_rf + d->e_exec + d->e_dac < o->e_rf + o->e_exec);
    /* cae: compact instructions use tuples and two lane operations */
    assert_true(a->tuple_accesses > 0 && a->rf_arrays_read < o->rf_arrays_read);
    assert_true(a->lane_ops[0] < o->lane_ops[0]);
    assert_int_equal(a->queue_accesses, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand),
        cmocka_unit_test(test_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
