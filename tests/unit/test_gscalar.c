/* cmocka tests of G-Scalar's compressed register file in the SM
 * (csim/core/core_rvc.c, docs/gscalar.md): the unit's state through the
 * RVC C models (the sec. 3.1 example stored in one array, a scalar in
 * none), injected faults in the stored state that the decompressor check
 * must report, the move before a divergent write, and whole workloads with
 * gscalar.compress = on (traffic through every instance, statistics that
 * add up, results and cycles against compression off). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"
#include "cosim/cosim.h"
#include "core/core_rvc.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"
#include "wl_run.h"

/* ------------------------------------------------- the unit on its own */

struct fixture {
    struct cosim_env env;
    struct core_rvc u;
    struct simt_warp w;
    struct ptx_func f;
    struct ptx_reg regs[4];
    uint64_t rv[4 * 32];
};

static struct fixture *fx_new(bool half)
{
    struct fixture *x = calloc(1, sizeof *x);
    assert_non_null(x);
    const struct cosim_cfg lc = { NULL, NULL, NULL };
    int be[LS_BLK_COUNT] = { 0 };
    char err[512];
    assert_int_equal(cosim_env_init(&x->env, &lc, be, 0, err, sizeof err), 0);
    unsigned units[3] = { 2, 1, 1 };
    assert_int_equal(core_rvc_init(&x->u, &x->env, true, 3, units, 4, half, 2,
                                   0.052, err, sizeof err), 0);
    core_rvc_kernel(&x->u, "k", 100);
    /* %r0, %r1: .u32; %rd2: .u64; %p3: .pred */
    static const char *const nm[4] = { "%r0", "%r1", "%rd2", "%p3" };
    static const uint8_t ty[4] = { PTX_T_U32, PTX_T_U32, PTX_T_U64, PTX_T_PRED };
    for (unsigned i = 0; i < 4; i++) {
        x->regs[i].name = nm[i];
        x->regs[i].type = ty[i];
    }
    x->f.name = "k";
    x->f.regs = x->regs;
    x->f.nregs = 4;
    x->w.frames[0].regs = x->rv;
    x->w.frames[0].func = &x->f;
    x->w.nframes = 1;
    assert_int_equal(core_rvc_frame_start(&x->u, 1, 0, &x->f), 0);
    return x;
}

static void fx_free(struct fixture *x)
{
    core_rvc_free(&x->u);
    cosim_env_fini(&x->env);
    free(x);
}

/* Writes vals (32 lanes) to register r under mask: the functional value
 * first, then the write-back through the unit. */
static int fx_write(struct fixture *x, int32_t r, const uint32_t *vals,
                    uint32_t mask, uint64_t now, unsigned *moves)
{
    for (unsigned l = 0; l < 32; l++)
        if (mask >> l & 1)
            x->rv[r * 32 + l] = vals[l];
    return core_rvc_write(&x->u, &x->w, 1, 0, &x->f, 0, &r, 1, mask, 0, 0, 0,
                          now, moves);
}

/* Reads register r under mask through decompressor 2. */
static int fx_read(struct fixture *x, int32_t r, uint32_t mask, uint64_t now)
{
    return core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, &r, 1, mask, 2, now);
}

static void test_unit_sec31_example(void **state)
{
    (void)state;
    struct fixture *x = fx_new(false);
    uint32_t v[32];
    for (unsigned l = 0; l < 32; l++)
        v[l] = 0xC04039C0u + 8 * (l % 8);
    unsigned moves;
    /* a fresh register is a compressed scalar zero */
    assert_int_equal(fx_read(x, 0, ~0u, 100), 0);
    assert_int_equal(x->u.st.read_cat[LS_GS_SCALAR], 1);
    assert_int_equal(x->u.st.arrays_read, 0);
    assert_int_equal(fx_write(x, 0, v, ~0u, 101, &moves), 0);
    assert_int_equal(moves, 0);
    const struct core_rvc_vreg *r = &core_rvc_frame_of(&x->u, 1, 0)->v[0];
    assert_int_equal(r->enc, 0xE);
    assert_int_equal(r->bvr, 0xC04039C0u);
    assert_int_equal(r->flags & CORE_RVC_D, 0);
    assert_int_equal(x->u.st.arrays_written, 2);     /* array 0 of each half */
    assert_int_equal(x->u.st.write_bytes[3], 1);
    assert_int_equal(fx_read(x, 0, ~0u, 102), 0);
    assert_int_equal(x->u.st.read_cat[LS_GS_B3], 1);
    assert_int_equal(x->u.st.arrays_read, 2);
    assert_int_equal(x->u.st.base_arrays_read, 16);  /* 8 per baseline read */
    assert_int_equal(x->u.comp[0].st.transactions, 1);
    assert_int_equal(x->u.decomp[2].st.transactions, 2);
    assert_int_equal(x->u.decomp[2].edge, 3);       /* cycles 100..102 */
    /* a 64-bit register is two vector registers, a predicate none; two
     * transactions on one instance in one cycle take two edges */
    int32_t srcs[2] = { 2, 3 };
    assert_int_equal(core_rvc_read(&x->u, &x->w, 1, 0, &x->f, 0, srcs, 2, ~0u, 2, 103), 0);
    assert_int_equal(x->u.st.reads, 4);
    assert_int_equal(x->u.decomp[2].edge, 5);       /* edges of cycles 103, 104 */
    fx_free(x);
}

/* A fault injected in the stored state must be reported as a model error
 * naming the instance, the register and the lane. */
static void test_unit_fault_array(void **state)
{
    (void)state;
    struct fixture *x = fx_new(false);
    uint32_t v[32];
    for (unsigned l = 0; l < 32; l++)
        v[l] = 0x12340000u + l;
    unsigned moves;
    assert_int_equal(fx_write(x, 1, v, ~0u, 100, &moves), 0);
    assert_int_equal(fx_read(x, 1, ~0u, 101), 0);
    core_rvc_frame_of(&x->u, 1, 0)->arr[1][7] ^= 0x1;     /* a stored byte of %r1 (entry 1) flips */
    assert_int_equal(fx_read(x, 1, ~0u, 102), LS_ERR_COSIM);
    assert_non_null(x->u.why);
    assert_non_null(strstr(x->u.why, "RVC MODEL ERROR sm3.rvc_decomp.oc2"));
    assert_non_null(strstr(x->u.why, "%r1"));
    assert_non_null(strstr(x->u.why, "lane 7 as 0x12340006"));
    /* the unit stays failed */
    assert_int_equal(fx_read(x, 0, ~0u, 103), LS_ERR_COSIM);
    fx_free(x);
}

static void test_unit_fault_enc(void **state)
{
    (void)state;
    struct fixture *x = fx_new(false);
    uint32_t v[32];
    for (unsigned l = 0; l < 32; l++)
        v[l] = 0xAB000000u | (l << 8);              /* byte 1 differs */
    unsigned moves;
    assert_int_equal(fx_write(x, 0, v, ~0u, 100, &moves), 0);
    assert_int_equal(core_rvc_frame_of(&x->u, 1, 0)->v[0].enc, 0xC);
    core_rvc_frame_of(&x->u, 1, 0)->v[0].enc = 0xE;    /* claims byte 1 equal in every lane */
    assert_int_equal(fx_read(x, 0, ~0u, 101), LS_ERR_COSIM);
    assert_non_null(strstr(x->u.why, "lane 1 as 0xab000000"));
    fx_free(x);
}

static void test_unit_divergent_move(void **state)
{
    (void)state;
    struct fixture *x = fx_new(true);               /* half granularity */
    uint32_t a[32], b[32];
    for (unsigned l = 0; l < 32; l++) {
        a[l] = l < 16 ? 0x11111111u : 0x2222AA00u + l;
        b[l] = 0x55u;
    }
    unsigned moves;
    assert_int_equal(fx_write(x, 0, a, ~0u, 100, &moves), 0);
    const struct core_rvc_vreg *r = &core_rvc_frame_of(&x->u, 1, 0)->v[0];
    assert_int_equal(r->encl, 0xF);
    assert_int_equal(r->ench, 0xE);
    assert_int_equal(x->u.st.arrays_written, 1);    /* byte 0 of the high half */
    assert_int_equal(fx_read(x, 0, ~0u, 101), 0);
    assert_int_equal(x->u.st.read_cls[3], 1);       /* half-scalar */
    /* a divergent write to the compressed register: one move first, then
     * the lanes it leaves must still read back */
    assert_int_equal(fx_write(x, 0, b, 0x0000ff0fu, 102, &moves), 0);
    assert_int_equal(moves, 1);
    assert_int_equal(x->u.st.rmw_moves, 1);
    assert_true(r->flags & CORE_RVC_D);
    assert_int_equal(r->bvr, 0x0000ff0fu);          /* D = 1: the mask */
    assert_int_equal(r->enc, 0xF);                  /* the active lanes agree */
    assert_int_equal(fx_read(x, 0, 0x0000ff0fu, 103), 0);
    assert_int_equal(x->u.st.read_cls[2], 1);       /* divergent-scalar */
    assert_int_equal(fx_read(x, 0, ~0u, 104), 0);
    assert_int_equal(x->u.st.read_cat[LS_GS_RAW], 1);
    /* a second divergent write needs no move: the arrays hold every byte */
    assert_int_equal(fx_write(x, 0, a, 0xffff0000u, 105, &moves), 0);
    assert_int_equal(moves, 0);
    assert_int_equal(fx_read(x, 0, 0x1u, 106), 0);
    fx_free(x);
}

/* ------------------------------------------------------ whole workloads */

static void test_gpu_traffic(void **state)
{
    (void)state;
    ls_stats off, on, lat0;
    wl_run_timing("matmul", NULL, &off);
    assert_int_equal(off.gscalar.writes, 0);
    assert_int_equal(off.cosim[LS_BLK_RVC_COMP].instances, 0);
    const char *const s_on[] = { "gscalar.compress=on", NULL };
    wl_run_timing("matmul", s_on, &on);
    const ls_gscalar_stats *g = &on.gscalar;
    const ls_cosim_stats *c = &on.cosim[LS_BLK_RVC_COMP], *d = &on.cosim[LS_BLK_RVC_DECOMP];
    /* one compressor per pipeline (2 ALU, 1 SFU, 1 MEM), one decompressor
     * per operand collector (16), on each of the 15 SMs */
    assert_int_equal(c->instances, 15 * 4);
    assert_int_equal(d->instances, 15 * 16);
    /* every write-back and every operand read went through an instance */
    assert_true(g->writes > 0 && g->reads > 0);
    assert_int_equal(c->transactions, g->writes);
    assert_int_equal(d->transactions, g->reads + g->rmw_moves);
    assert_int_equal(c->mismatches + d->mismatches, 0);
    uint64_t cat = 0;
    for (int i = 0; i < LS_GS_NCAT; i++)
        cat += g->read_cat[i];
    assert_int_equal(cat, g->reads);
    assert_int_equal(g->read_cls[0] + g->read_cls[1] + g->read_cls[2] + g->read_cls[3],
                     g->reads);
    assert_int_equal(g->base_arrays_read, 8 * g->reads);
    assert_true(g->arrays_read < g->base_arrays_read);  /* matmul compresses */
    assert_true(g->gs_bytes < g->raw_bytes && g->bdi_bytes < g->raw_bytes);
    assert_true(g->rf_energy < g->base_rf_energy);
    /* every instance is clocked over the whole kernel */
    assert_true(c->cycles + c->idle_skipped >= 60 * on.cycles);
    /* the same instructions (the extra latency moves them in time: on
     * matmul under gtx480's oldest-first scheduling it happens to shorten
     * the kernel, docs/gscalar.md) */
    assert_int_equal(on.warp_insts, off.warp_insts);
    assert_int_equal(on.thread_insts, off.thread_insts);
    assert_true(on.cycles != off.cycles);
    /* the only timing costs of compression are the extra latency and the
     * moves: fwt (no divergent write, so no move) with extra latency 0
     * takes exactly the cycles of compression off */
    const char *const s_lat0[] = { "gscalar.compress=on", "gscalar.extra_latency=0", NULL };
    ls_stats foff;
    wl_run_timing("fwt", NULL, &foff);
    wl_run_timing("fwt", s_lat0, &lat0);
    assert_true(lat0.gscalar.writes > 0);
    assert_int_equal(lat0.gscalar.rmw_moves, 0);
    assert_int_equal(lat0.cycles, foff.cycles);
}

static void test_gpu_divergent_half(void **state)
{
    (void)state;
    ls_stats t;
    const char *const sets[] = { "gscalar.compress=on", "gscalar.granularity=16", NULL };
    wl_run_timing("bfs", sets, &t);
    const ls_gscalar_stats *g = &t.gscalar;
    assert_true(g->div_writes > 0);
    assert_true(g->rmw_moves > 0);
    assert_true(g->read_cat[LS_GS_DIVERGENT] > 0);
    assert_true(g->read_cls[2] > 0);                 /* divergent-scalar */
    assert_int_equal(t.cosim[LS_BLK_RVC_DECOMP].transactions, g->reads + g->rmw_moves);
    assert_int_equal(t.cosim[LS_BLK_RVC_COMP].transactions, g->writes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unit_sec31_example),
        cmocka_unit_test(test_unit_fault_array),
        cmocka_unit_test(test_unit_fault_enc),
        cmocka_unit_test(test_unit_divergent_move),
        cmocka_unit_test(test_gpu_traffic),
        cmocka_unit_test(test_gpu_divergent_half),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
