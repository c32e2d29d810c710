/* cmocka tests of thread-block compaction on a bare SM (csim/core/core_tbc.c,
 * docs/compaction.md), with the WCU on its C backend: hand-built kernels
 * whose compacted warps are known in advance. Issues are observed through
 * a recorder attached to the SM (core_sm_attach) that sees every issued
 * instruction's slot, cycle and pc.
 *  - two compacted warps that draw disjoint lanes of one home warp issue
 *    back to back (the scoreboard holds a pending write per home warp,
 *    register and lane); with tbc.scoreboard = home, the ablation, the
 *    second waits for the first's write-back: the test's own fault;
 *  - a kernel with no divergent branch costs under tbc exactly the WCU's
 *    cycles per compaction point over none (one warp: no barrier wait),
 *    and the same kernel under capri (non-divergent warps bypass) costs
 *    nothing at all;
 *  - warp_uniform_points and loop_exit_points count the splits they name:
 *    a plain break in a loop is no loop exit, an if one side of which
 *    breaks is;
 *  - under capri a compacted warp holding part of a home warp bypasses
 *    wherever the WCU's spare rows can hold its threads, and stalls in a
 *    CTA of 32 warps (no spare row). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/core.h"
#include "core/core_mech.h"
#include "cosim/cosim.h"
#include "exec/exec_mem.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Every issue: slot, cycle, pc. */
struct rec {
    unsigned n;
    unsigned slot[4096];
    uint64_t cyc[4096];
    int32_t pc[4096];
};

static int rec_retire(void *self, struct core_view *v, struct core_issue *is)
{
    (void)v;
    struct rec *r = self;
    if (r->n < 4096) {
        r->slot[r->n] = is->slot;
        r->cyc[r->n] = is->now;
        r->pc[r->n] = is->at.pc;
        r->n++;
    }
    return 0;
}

static const struct core_mech_ops rec_ops = {
    .name = "rec",
    .kind = CORE_MECH_AUGMENT,
    .retire = rec_retire,
};

struct harness {
    struct cfg c;
    struct ptx_module *mod;
    struct core_prog prog;
    struct core_kernel k;
    struct core_sm sm;
    struct exec_dmem dmem;
    struct cosim_env env;
    uint64_t sym[4];
    uint64_t now;
    struct rec rec;
    ls_stats st;
    char err[512];
};

/* Runs one CTA of block threads of kernel "k" in ptx to its end under the
 * "key=value" settings (NULL-ended); returns the cycles taken. h->rec holds
 * the issues, h->st the mechanisms' statistics. */
static uint64_t run(struct harness *h, const char *ptx, unsigned block,
                    const char *const *sets)
{
    memset(h, 0, sizeof *h);
    cfg_defaults(&h->c);
    for (const char *const *s = sets; s && *s; s++)
        assert_int_equal(cfg_set(&h->c, *s, "test", h->err, sizeof h->err), 0);
    const struct cosim_cfg lc = { NULL, NULL, NULL };
    int be[LS_BLK_COUNT] = { 0 };
    assert_int_equal(cosim_env_init(&h->env, &lc, be, 0, h->err, sizeof h->err), 0);
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &h->mod, &d), 0);
    assert_int_equal(core_prog_build(&h->prog, h->mod), 0);
    const struct ptx_func *f = ptx_find_func(h->mod, "k");
    assert_non_null(f);
    h->k.mod = h->mod;
    h->k.f = f;
    h->k.prog = &h->prog;
    h->k.sym0 = h->k.sym1 = h->sym;
    h->k.frame0 = simt_frame_layout(f, 0, NULL);
    h->k.local_stride = 64;
    h->k.ntid[0] = block; h->k.ntid[1] = 1; h->k.ntid[2] = 1;
    h->k.nctaid[0] = 1; h->k.nctaid[1] = 1; h->k.nctaid[2] = 1;
    h->k.nthreads = block;
    h->k.nwarps = (block + 31) / 32;
    h->k.regs_per_thread = 8;
    h->k.dmem = &h->dmem;
    h->k.max_stack_depth = 16;
    assert_int_equal(core_sm_init(&h->sm, &h->c, 0, 16, &h->env, h->err, sizeof h->err), 0);
    assert_int_equal(core_sm_attach(&h->sm, &rec_ops, &h->rec), 0);
    assert_int_equal(core_sm_kernel(&h->sm, &h->k, 0), 0);
    uint32_t id[3] = { 0, 0, 0 };
    assert_int_equal(core_sm_launch_cta(&h->sm, id, 0), 0);
    while (h->sm.live_warps) {
        if (h->sm.v.next_try <= h->now)
            assert_int_equal(core_sm_cycle(&h->sm, h->now), 0);
        assert_true(h->now < 1000000);
        h->now = h->sm.v.next_try > h->now && h->sm.v.next_try != CORE_INF
                     ? h->sm.v.next_try : h->now + 1;
    }
    const char *why = NULL;
    uint32_t line = 0;
    assert_int_equal(core_sm_finish(&h->sm, h->now, &why, &line), 0);
    core_sm_mech_stats(&h->sm, true, &h->st);
    return h->now;
}

static void h_free(struct harness *h)
{
    core_sm_free(&h->sm);
    core_prog_free(&h->prog);
    ptx_module_free(h->mod);
    cosim_env_fini(&h->env);
}

/* Two warps; threads tid < 24 or tid >= 40 take the branch (warp 0 lanes
 * 0-23, warp 1 lanes 8-31). The WCU's priority encoders give compacted
 * warp A = warp 0 lanes 0-23 and warp 1 lanes 24-31, compacted warp B =
 * warp 1 lanes 8-23: A and B share home warp 1 with disjoint lanes. Both
 * then write %r5 (pc 7, the first instruction of the taken block). */
static const char *SHARE = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .pred %p<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"                          /* 0 */
    "  mov.u32 %r5, 0;\n"                               /* 1 */
    "  setp.lt.u32 %p1, %r1, 24;\n"                     /* 2 */
    "  setp.ge.u32 %p2, %r1, 40;\n"                     /* 3 */
    "  or.pred %p3, %p1, %p2;\n"                        /* 4 */
    "  @%p3 bra TAKE;\n"                                /* 5 */
    "  bra.uni DONE;\n"                                 /* 6 */
    "TAKE:\n  add.s32 %r5, %r5, %r1;\n"                 /* 7 */
    "  add.s32 %r6, %r5, 1;\n"                          /* 8 */
    "DONE:\n  ret;\n}\n";

/* The cycles at which pc issued, in issue order (at most 8). */
static unsigned issues_at(const struct rec *r, int32_t pc, uint64_t *cyc, unsigned *slot)
{
    unsigned n = 0;
    for (unsigned i = 0; i < r->n && n < 8; i++)
        if (r->pc[i] == pc) {
            cyc[n] = r->cyc[i];
            slot[n] = r->slot[i];
            n++;
        }
    return n;
}

static void test_shared_home_back_to_back(void **state)
{
    (void)state;
    const char *lane[] = { "simt.compaction=tbc", "num_schedulers=1", NULL };
    const char *home[] = { "simt.compaction=tbc", "num_schedulers=1",
                           "tbc.scoreboard=home", NULL };
    struct harness *h = calloc(1, sizeof *h);
    uint64_t cyc[8];
    unsigned slot[8];
    run(h, SHARE, 64, lane);
    /* the taken path formed two compacted warps (NW_TBC 2 = NW_noTBC) */
    assert_int_equal(issues_at(&h->rec, 7, cyc, slot), 2);
    assert_int_not_equal(slot[0], slot[1]);
    assert_int_equal(cyc[1], cyc[0] + 1);           /* back to back */
    h_free(h);
    /* the fault: one scoreboard entry per home warp makes B wait for A's
     * write of %r5 in home warp 1, a false dependency */
    run(h, SHARE, 64, home);
    assert_int_equal(issues_at(&h->rec, 7, cyc, slot), 2);
    assert_true(cyc[1] > cyc[0] + 1);
    h_free(h);
    free(h);
}

/* A loop of ALU work whose branch never diverges (10 trips). */
static const char *LOOP = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n"
    "L1:\n  add.s32 %r2, %r2, %r1;\n  add.s32 %r1, %r1, 1;\n"
    "  setp.lt.s32 %p1, %r1, 10;\n  @%p1 bra L1;\n"
    "  ret;\n}\n";

static void test_no_divergence_costs(void **state)
{
    (void)state;
    /* 32-lane ALUs (gtx480's, fx5800's): the loop's branch takes an ALU
     * issue slot, and with 16 lanes the four warps' contention for the
     * two ALUs would drift them a block apart (capri's ahead waits) */
    const char *none[] = { "simt.compaction=none", "alu_lanes=32", NULL };
    const char *tbc[] = { "simt.compaction=tbc", "alu_lanes=32", NULL };
    const char *capri[] = { "simt.compaction=capri", "alu_lanes=32", NULL };
    struct harness *h = calloc(1, sizeof *h);
    uint64_t base = run(h, LOOP, 32, none);
    unsigned nb = h->rec.n;
    h_free(h);
    /* one warp: its compaction points have no other warp to wait for, so
     * each costs the WCU's load edge and nothing else (the compacted warp
     * comes out one edge after the load; docs/blocks/wcu.md section 4) */
    uint64_t t = run(h, LOOP, 32, tbc);
    assert_int_equal(h->rec.n, nb);
    assert_int_equal(h->st.compaction.points, 10);
    assert_int_equal(h->st.compaction.divergent_points, 0);
    assert_int_equal(t, base + h->st.compaction.points);
    h_free(h);
    /* capri: a warp that does not diverge bypasses without a lookup and
     * never waits (no warp to be a block away from) */
    uint64_t c = run(h, LOOP, 32, capri);
    assert_int_equal(h->st.compaction.capri_lookups, 0);
    assert_int_equal(h->st.compaction.capri_ahead_waits, 0);
    assert_int_equal(c, base);
    h_free(h);
    /* with 2 and 4 warps too: non-divergent warps never come a block
     * apart in this loop, so capri costs nothing, while tbc's barriers
     * and the WCU's one warp per edge do cost */
    for (unsigned b = 64; b <= 128; b += 64) {
        uint64_t b0 = run(h, LOOP, b, none);
        h_free(h);
        assert_int_equal(run(h, LOOP, b, capri), b0);
        assert_int_equal(h->st.compaction.capri_ahead_waits, 0);
        h_free(h);
        assert_true(run(h, LOOP, b, tbc) > b0);
        h_free(h);
    }
    free(h);
}

/* Two warps: warp 0 takes the branch, warp 1 does not (a divergent CTA
 * point that splits no warp). */
static const char *HALVES = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n  @%p1 bra A;\n"
    "  add.s32 %r2, %r2, 2;\n  bra.uni DONE;\n"
    "A:\n  add.s32 %r2, %r2, 1;\n"
    "DONE:\n  ret;\n}\n";

/* Thread t leaves the loop after t + 1 trips through a break whose
 * immediate post-dominator is past the loop's back edge. */
static const char *BREAK = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<3>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
    "L:\n  add.s32 %r2, %r2, 1;\n"
    "  setp.gt.u32 %p1, %r2, %r1;\n  @%p1 bra OUT;\n"
    "  setp.lt.u32 %p2, %r2, 100;\n  @%p2 bra L;\n"
    "OUT:\n  ret;\n}\n";

/* The same exits, but each side of the `if` holds code of its own: the
 * breaking threads run X before the RPC (OUT), the others the rest of
 * the trip, so the CTA stack runs the two paths one after the other. */
static const char *IFBREAK = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<3>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n"
    "L:\n  add.s32 %r2, %r2, 1;\n"
    "  setp.gt.u32 %p1, %r2, %r1;\n  @%p1 bra X;\n"
    "  add.s32 %r3, %r3, 1;\n"
    "  setp.lt.u32 %p2, %r2, 100;\n  @%p2 bra L;\n"
    "  bra.uni OUT;\n"
    "X:\n  add.s32 %r3, %r3, 2;\n"
    "OUT:\n  ret;\n}\n";

/* warp_uniform_points and loop_exit_points count exactly the splits they
 * name (SHARE splits both warps, inside no loop; BREAK's exits leave an
 * empty path, IFBREAK's two). */
static void test_split_kinds(void **state)
{
    (void)state;
    const char *ideal[] = { "simt.compaction=ideal", NULL };
    struct harness *h = calloc(1, sizeof *h);
    run(h, HALVES, 64, ideal);
    assert_int_equal(h->st.compaction.divergent_points, 1);
    assert_int_equal(h->st.compaction.warp_uniform_points, 1);
    assert_int_equal(h->st.compaction.loop_exit_points, 0);
    h_free(h);
    run(h, SHARE, 64, ideal);
    assert_int_equal(h->st.compaction.divergent_points, 1);
    assert_int_equal(h->st.compaction.warp_uniform_points, 0);
    assert_int_equal(h->st.compaction.loop_exit_points, 0);
    h_free(h);
    /* trips 1..63 each let one thread break: 63 divergent points, all past
     * the loop's end; trip 32 alone is warp-uniform (thread 31, the last
     * of warp 0, leaves while warp 1 stays whole). A plain break's path
     * is the RPC itself: no loop exit that costs a trip */
    run(h, BREAK, 64, ideal);
    assert_int_equal(h->st.compaction.divergent_points, 63);
    assert_int_equal(h->st.compaction.loop_exit_points, 0);
    assert_int_equal(h->st.compaction.warp_uniform_points, 1);
    h_free(h);
    /* the same 63 exits with code on both sides: every one counts */
    run(h, IFBREAK, 64, ideal);
    assert_int_equal(h->st.compaction.divergent_points, 63);
    assert_int_equal(h->st.compaction.loop_exit_points, 63);
    assert_int_equal(h->st.compaction.warp_uniform_points, 1);
    h_free(h);
    free(h);
}

/* Warps 0 and 1 diverge at the first branch and stall (a CAPT miss, then
 * an adequate hit); its taken path holds warp 0 lanes 0-15 and warp 1
 * lanes 4-31, which the WCU compacts into A = warp 0 lanes 0-15 + warp 1
 * lanes 16-31 and B = warp 1 lanes 4-15. At the second branch A does not
 * diverge and bypasses while holding only part of home warp 1's threads
 * of the entry; B diverges and stalls (a miss). The other warps take
 * neither path's code. */
static const char *PARTIAL = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<6>;\n"
    "  mov.u32 %r1, %tid.x;\n  mov.u32 %r2, 0;\n"
    "  setp.lt.u32 %p1, %r1, 16;\n  setp.ge.u32 %p2, %r1, 36;\n"
    "  setp.lt.u32 %p3, %r1, 64;\n  and.pred %p2, %p2, %p3;\n"
    "  or.pred %p1, %p1, %p2;\n  @%p1 bra T;\n"
    "  bra.uni DONE;\n"
    "T:\n  setp.lt.u32 %p4, %r1, 40;\n  setp.ge.u32 %p5, %r1, 48;\n"
    "  or.pred %p4, %p4, %p5;\n  @%p4 bra C;\n"
    "  add.s32 %r2, %r2, 1;\n  bra.uni DONE;\n"
    "C:\n  add.s32 %r2, %r2, 2;\n"
    "DONE:\n  ret;\n}\n";

/* A compacted warp holding part of a home warp bypasses whenever the
 * WCU's spare rows can hold its threads (4.2.2 lets every warp the
 * decision logic bypasses go): in a CTA of 20 warps (12 spare rows; the
 * rule "no bypass of such a warp above 16 warps" refused it), and its
 * home warp's other threads stay in its row (one spare row); in a CTA of
 * 32 warps there is no spare row and it stalls. */
static void test_partial_bypass_rows(void **state)
{
    (void)state;
    const char *capri[] = { "simt.compaction=capri", "capri.lru=true", NULL };
    struct harness *h = calloc(1, sizeof *h);
    run(h, PARTIAL, 640, capri);
    assert_int_equal(h->st.compaction.capri_lookups, 3);
    assert_int_equal(h->st.compaction.capri_bypass_denied, 0);
    assert_int_equal(h->st.compaction.capri_nodiv_denied, 0);
    assert_int_equal(h->st.compaction.capri_split_rows, 1);
    h_free(h);
    run(h, PARTIAL, 1024, capri);
    assert_int_equal(h->st.compaction.capri_lookups, 3);
    assert_int_equal(h->st.compaction.capri_nodiv_denied, 1);
    assert_int_equal(h->st.compaction.capri_split_rows, 0);
    h_free(h);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shared_home_back_to_back),
        cmocka_unit_test(test_no_divergence_costs),
        cmocka_unit_test(test_split_kinds),
        cmocka_unit_test(test_partial_bypass_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
