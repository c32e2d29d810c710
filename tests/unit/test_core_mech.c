/* cmocka tests of the SM's mechanism interface (csim/core/core_mech.h):
 * a toy mechanism written in this file alone (no edit anywhere else)
 * attaches to a bare SM, counts every issued instruction through its
 * retire hook and holds warps back through its gate; the combination
 * rules of core_mech.def refuse what does not combine; a stepper's
 * refused opcodes name the instruction. */
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
#include "exec/exec_mem.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* A loop of ALU work and a branch per iteration (2 warps, 10 trips). */
static const char *LOOP = HDR
    ".visible .entry k()\n{\n"
    "  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n"
    "  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n"
    "L1:\n  add.s32 %r2, %r2, %r1;\n  add.s32 %r1, %r1, 1;\n"
    "  setp.lt.s32 %p1, %r1, 10;\n  @%p1 bra L1;\n"
    "  ret;\n}\n";

/* The toy: counts issues and warp starts; holds every warp until `hold`. */
struct toy {
    uint64_t issued, started, retired_at_hold;
    uint64_t hold;
    uint64_t first_issue;
};

static int toy_warp_start(void *self, struct core_view *v, unsigned slot, uint32_t valid,
                          uint64_t now)
{
    (void)v;
    (void)slot;
    (void)valid;
    (void)now;
    ((struct toy *)self)->started++;
    return 0;
}

static int toy_gate(void *self, struct core_view *v, unsigned slot, uint64_t now,
                    uint64_t *when, bool *moved)
{
    (void)v;
    (void)slot;
    (void)moved;
    struct toy *t = self;
    if (now < t->hold) {
        *when = t->hold;
        return CORE_ST_SCOREBOARD;
    }
    return CORE_ST_NONE;
}

static int toy_retire(void *self, struct core_view *v, struct core_issue *is)
{
    (void)v;
    struct toy *t = self;
    if (!t->issued)
        t->first_issue = is->now;
    t->issued++;
    return 0;
}

static const struct core_mech_ops toy_ops = {
    .name = "toy",
    .kind = CORE_MECH_AUGMENT,
    .warp_start = toy_warp_start,
    .gate = toy_gate,
    .retire = toy_retire,
};

struct harness {
    struct cfg c;
    struct ptx_module *mod;
    struct core_prog prog;
    struct core_kernel k;
    struct core_sm sm;
    struct exec_dmem dmem;
    uint64_t sym[4];
    uint64_t now;
    char err[256];
};

/* Parses ptx, builds an SM with the toy attached (toy NULL: none), starts
 * kernel "k" with block threads per CTA and runs one CTA to its end. */
static void run_one(struct harness *h, const char *ptx, unsigned block, struct toy *toy)
{
    memset(h, 0, sizeof *h);
    cfg_defaults(&h->c);
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
    assert_int_equal(core_sm_init(&h->sm, &h->c, 0, 16, NULL, h->err, sizeof h->err), 0);
    if (toy)
        assert_int_equal(core_sm_attach(&h->sm, &toy_ops, toy), 0);
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
}

static void h_free(struct harness *h)
{
    core_sm_free(&h->sm);
    core_prog_free(&h->prog);
    ptx_module_free(h->mod);
}

/* The toy sees every issued instruction and every warp start, and its
 * gate holds the warps: the first issue waits for it, nothing else moves. */
static void test_toy_counts_and_gates(void **st)
{
    (void)st;
    struct harness *h = calloc(1, sizeof *h);
    struct toy toy = { 0 };
    toy.hold = 0;
    run_one(h, LOOP, 64, &toy);
    uint64_t issued = h->sm.v.st.issued, cycles = h->now;
    assert_int_equal(toy.started, 2);
    assert_true(issued > 40);
    assert_int_equal(toy.issued, issued);
    assert_int_equal(toy.issued, h->sm.v.st.warp_insts);
    h_free(h);

    struct toy held = { 0 };
    held.hold = 500;
    run_one(h, LOOP, 64, &held);
    assert_int_equal(held.issued, issued);          /* the same work */
    assert_true(held.first_issue >= 500);           /* none before the gate opened */
    assert_true(h->now >= cycles + 400);
    h_free(h);

    run_one(h, LOOP, 64, NULL);                     /* without it: as the first */
    assert_int_equal(h->sm.v.st.issued, issued);
    assert_int_equal(h->now, cycles);
    h_free(h);
    free(h);
}

/* The rules of core_mech.def refuse combinations with their text; the
 * defaults pass; the docs table lists every rule. */
static void test_rules(void **st)
{
    (void)st;
    struct cfg c;
    char err[512];
    cfg_defaults(&c);
    assert_int_equal(core_mech_check(&c, err, sizeof err), 0);
    assert_int_equal(cfg_set(&c, "simt.paths=dual", "test", err, sizeof err), 0);
    assert_int_equal(cfg_set(&c, "simt.compaction=tbc", "test", err, sizeof err), 0);
    assert_int_equal(core_mech_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "simt.paths=dual with simt.compaction"));
    assert_non_null(strstr(err, "not modelled (docs/dpe.md)"));
    cfg_defaults(&c);
    assert_int_equal(cfg_set(&c, "dpe.path_forwarding=on", "test", err, sizeof err), 0);
    assert_int_equal(core_mech_check(&c, err, sizeof err), -1);
    assert_non_null(strstr(err, "dpe.path_forwarding=on needs simt.paths=dual"));
    cfg_defaults(&c);
    assert_int_equal(cfg_set(&c, "affine.mode=cae", "test", err, sizeof err), 0);
    assert_int_equal(cfg_set(&c, "gscalar.stats=on", "test", err, sizeof err), 0);
    assert_int_equal(core_mech_check(&c, err, sizeof err), 0);    /* CAE + stats: fine */
    char md[4096];
    core_mech_rules_md(md, sizeof md);
    unsigned rows = 0;
    for (const char *p = md; (p = strstr(p, "\n|")); p++)
        rows++;
    assert_int_equal(rows, 1 + 6);      /* the separator row and six rules */
}

/* A stepper's refused opcodes: the first one, with its line. */
static void test_refusal(void **st)
{
    (void)st;
    const char *ptx = HDR
        ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n"
        "  mov.u32 %r1, 1;\n"
        "  shfl.sync.idx.b32 %r2, %r1, 0, 31, -1;\n"
        "  ret;\n}\n";
    struct ptx_module *m;
    struct ptx_diag d;
    memset(&d, 0, sizeof d);
    assert_int_equal(ptx_parse("t.ptx", ptx, strlen(ptx), &m, &d), 0);
    struct cfg c;
    cfg_defaults(&c);
    char why[160];
    const struct ptx_func *f = ptx_find_func(m, "k");
    assert_true(core_mech_refusal(core_mech_ops_of(CORE_MECH_TBC), &c, f, why, sizeof why));
    assert_string_equal(why, "shfl at line 8");
    assert_true(core_mech_refusal(core_mech_ops_of(CORE_MECH_DPE), &c, f, why, sizeof why));
    assert_false(core_mech_refusal(core_mech_ops_of(CORE_MECH_DAC), &c, f, why, sizeof why));
    ptx_module_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_toy_counts_and_gates),
        cmocka_unit_test(test_rules),
        cmocka_unit_test(test_refusal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
