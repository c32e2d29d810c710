/* cmocka tests of racecheck, synccheck and initcheck (docs/checks.md) on
 * the kernels of tests/check/checks.cu: each hazard is found at the right
 * instruction (PTX line looked up in the file), thread and address, the
 * same in functional and timing mode; the clean control has no finding;
 * with the checks off nothing is reported; check_error = 1 turns a
 * finding into LS_ERR_CHECK. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"

#define PTX "tests/check/checks.ptx"

/* Line of the nth (0-based) line containing pat after ".entry kernel". */
static unsigned ptx_line_of(const char *kernel, const char *pat, int nth)
{
    FILE *f = fopen(PTX, "r");
    assert_non_null(f);
    char buf[512], entry[128];
    snprintf(entry, sizeof entry, ".entry %s(", kernel);
    unsigned line = 0, hit = 0;
    int in = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (strstr(buf, ".entry "))
            in = strstr(buf, entry) != NULL;
        if (in && strstr(buf, pat) && nth-- == 0) {
            hit = line;
            break;
        }
    }
    fclose(f);
    assert_true(hit > 0);
    return hit;
}

struct run {
    ls_status st;
    ls_check_finding *fd;
    size_t n;
    char err[1024];
    int out[1024];
};

/* Runs kernel on a fresh GPU in mode with the given check setting; args
 * are built here per kernel. */
static void run_kernel(const char *kernel, ls_mode mode, const char *check,
                       int check_error, struct run *r)
{
    memset(r, 0, sizeof *r);
    ls_config cfg;
    ls_config_default(&cfg);
    cfg.mode = mode;
    const char *sets[3] = { check, check_error ? "check_error=1" : NULL, NULL };
    cfg.sets = sets;
    char err[512];
    ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    assert_int_equal(ls_module_load_file(g, PTX, &m), LS_OK);
    int n = 32;
    ls_dptr a = 0, b = 0;
    float in[32 * 32];
    for (int i = 0; i < 32 * 32; i++)
        in[i] = (float)i;
    ls_dim3 grid = { 1, 1, 1 }, block = { 32, 1, 1 };
    void *args[3];
    if (!strncmp(kernel, "transpose", 9)) {
        assert_int_equal(ls_malloc(g, &a, sizeof in), LS_OK);
        assert_int_equal(ls_malloc(g, &b, sizeof in), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, a, in, sizeof in), LS_OK);
        args[0] = &a; args[1] = &b; args[2] = &n;
        grid = (ls_dim3){ 2, 2, 1 };
        block = (ls_dim3){ 16, 16, 1 };
    } else if (!strcmp(kernel, "reduce_badmask")) {
        int v[64];
        for (int i = 0; i < 64; i++)
            v[i] = i;
        assert_int_equal(ls_malloc(g, &a, sizeof v), LS_OK);
        assert_int_equal(ls_malloc(g, &b, 4), LS_OK);
        assert_int_equal(ls_memcpy_htod(g, a, v, sizeof v), LS_OK);
        assert_int_equal(ls_memset(g, b, 0, 4), LS_OK);
        args[0] = &a; args[1] = &b;
        block.x = 64;
    } else if (!strcmp(kernel, "read_unwritten")) {
        static int k = 3;
        assert_int_equal(ls_malloc(g, &a, 32 * 4), LS_OK);      /* never written */
        assert_int_equal(ls_malloc(g, &b, 32 * 4), LS_OK);
        args[0] = &a; args[1] = &b; args[2] = &k;
    } else if (!strcmp(kernel, "cta_race")) {
        assert_int_equal(ls_malloc(g, &a, 16 * 4), LS_OK);
        assert_int_equal(ls_memset(g, a, 0, 16 * 4), LS_OK);
        args[0] = &a;
        grid.x = 4;
    } else {                                                    /* divergent_barrier */
        assert_int_equal(ls_malloc(g, &a, 64 * 4), LS_OK);
        assert_int_equal(ls_memset(g, a, 0, 64 * 4), LS_OK);
        args[0] = &a;
        block.x = 64;
    }
    r->st = ls_launch(g, m, kernel, grid, block, 0, args, NULL);
    snprintf(r->err, sizeof r->err, "%s", ls_gpu_error(g));
    const ls_check_finding *l;
    r->n = ls_check_findings(g, &l);
    if (r->n) {
        r->fd = malloc(r->n * sizeof *r->fd);
        assert_non_null(r->fd);
        memcpy(r->fd, l, r->n * sizeof *r->fd);
    }
    if (b && !strncmp(kernel, "transpose", 9))
        assert_int_equal(ls_memcpy_dtoh(g, r->out, b, sizeof in), LS_OK);
    ls_gpu_destroy(g);
}

static const ls_check_finding *find(const struct run *r, const char *kind)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->fd[i].kind, kind))
            return &r->fd[i];
    return NULL;
}

/* Functional and timing mode report the same list (check: the one check
 * to run, NULL = all). */
static void both_modes_of(const char *kernel, const char *check, struct run r[2])
{
    run_kernel(kernel, LS_MODE_FUNCTIONAL, check ? check : "check=all", 0, &r[0]);
    run_kernel(kernel, LS_MODE_TIMING, check ? check : "check=all", 0, &r[1]);
    assert_int_equal(r[0].st, LS_OK);
    assert_int_equal(r[1].st, LS_OK);
    assert_int_equal(r[0].n, r[1].n);
    for (size_t i = 0; i < r[0].n; i++) {
        char a[1024], b[1024];
        ls_check_format(&r[0].fd[i], a, sizeof a);
        ls_check_format(&r[1].fd[i], b, sizeof b);
        assert_string_equal(a, b);
    }
}

static void both_modes(const char *kernel, struct run r[2])
{
    both_modes_of(kernel, NULL, r);
}

static void free_runs(struct run *r, int n)
{
    for (int i = 0; i < n; i++)
        free(r[i].fd);
}

static void test_transpose_race(void **state)
{
    (void)state;
    struct run r[2];
    /* racecheck alone: in a racy kernel which loads find the tile still
     * unwritten depends on warp order (initcheck agrees across modes for
     * race-free kernels only; docs/checks.md) */
    both_modes_of("transpose_racy", "check=racecheck", r);
    for (int m = 0; m < 2; m++) {
        assert_int_equal(r[m].n, 1);
        const ls_check_finding *f = find(&r[m], "read-after-write");
        assert_non_null(f);
        assert_string_equal(f->check, "racecheck");
        assert_string_equal(f->space, "shared");
        /* tile[0][1] (byte 4): written by thread (1,0), read by (0,1) */
        assert_int_equal(f->addr, 4);
        assert_int_equal(f->a.write, 1);
        assert_int_equal(f->a.tid[0], 1);
        assert_int_equal(f->a.tid[1], 0);
        assert_int_equal(f->b.write, 0);
        assert_int_equal(f->b.tid[0], 0);
        assert_int_equal(f->b.tid[1], 1);
        assert_int_equal(f->a.line, ptx_line_of("transpose_racy", "st.shared", 0));
        assert_int_equal(f->b.line, ptx_line_of("transpose_racy", "ld.shared", 0));
        assert_int_equal(f->cta[0], 0);
        assert_true(f->count > 1);
    }
    free_runs(r, 2);
}

static void test_transpose_ok(void **state)
{
    (void)state;
    struct run r[2];
    both_modes("transpose_ok", r);
    assert_int_equal(r[0].n, 0);
    /* the correct result (the racy one is the documented case where the
     * two modes may leave different memory) */
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            assert_int_equal(((float *)r[0].out)[x * 32 + y], (float)(y * 32 + x));
    free_runs(r, 2);
}

static void test_racy_modes_disagree_allowed(void **state)
{
    (void)state;
    /* the race finding is the same in both modes; memory may differ and
     * in functional mode (one warp after another) it is wrong */
    struct run r;
    run_kernel("transpose_racy", LS_MODE_FUNCTIONAL, "check=none", 0, &r);
    assert_int_equal(r.n, 0);   /* checks off: nothing observed */
    int wrong = 0;
    for (int y = 0; y < 32; y++)
        for (int x = 0; x < 32; x++)
            wrong += ((float *)r.out)[x * 32 + y] != (float)(y * 32 + x);
    assert_true(wrong > 0);
    free_runs(&r, 1);
}

static void test_shfl_mask(void **state)
{
    (void)state;
    struct run r[2];
    both_modes("reduce_badmask", r);
    unsigned line = ptx_line_of("reduce_badmask", "shfl.sync.down", 0);
    const ls_check_finding *self = find(&r[0], "mask-excludes-self");
    const ls_check_finding *src = find(&r[0], "shfl-source-lane");
    assert_non_null(self);
    assert_non_null(src);
    assert_string_equal(self->check, "synccheck");
    assert_int_equal(self->lanes, 0xffff0000u);
    assert_int_equal(self->a.tid[0], 16);
    assert_int_equal(self->a.line, line);
    assert_int_equal(self->addr, 0x0000ffffu);
    /* off = 16: lanes 0..15 read lanes 16..31, outside the mask */
    assert_int_equal(src->lanes, 0x0000ffffu);
    assert_int_equal(src->a.tid[0], 0);
    assert_int_equal(src->a.line, line);
    assert_int_equal(src->count, 2);            /* both warps */
    free_runs(r, 2);
}

static void test_uninitialized(void **state)
{
    (void)state;
    struct run r[2];
    both_modes("read_unwritten", r);
    int sp[3] = { 0, 0, 0 };
    for (size_t i = 0; i < r[0].n; i++) {
        const ls_check_finding *f = &r[0].fd[i];
        assert_string_equal(f->kind, "uninitialized-load");
        if (!strcmp(f->space, "global")) {
            sp[0]++;
            assert_int_equal(f->a.tid[0], 0);
            assert_int_equal(f->a.line, ptx_line_of("read_unwritten", "ld.global", 0));
        } else if (!strcmp(f->space, "shared")) {
            sp[1]++;
            assert_int_equal(f->addr, 32 * 4);          /* s[32] */
            assert_int_equal(f->a.line, ptx_line_of("read_unwritten", "ld.shared", 0));
        } else if (!strcmp(f->space, "local")) {
            sp[2]++;
            assert_int_equal(f->a.line, ptx_line_of("read_unwritten", "ld.local", 0));
            /* l[t & 7] with k = 3: thread 3 is the first to read l[3] */
            assert_int_equal(f->a.tid[0], 3);
        }
    }
    assert_int_equal(sp[0], 1);
    assert_int_equal(sp[1], 1);
    assert_int_equal(sp[2], 1);
    free_runs(r, 2);
}

static void test_divergent_barrier(void **state)
{
    (void)state;
    struct run r[2];
    both_modes("divergent_barrier", r);
    const ls_check_finding *f = find(&r[0], "divergent-barrier");
    assert_non_null(f);
    assert_int_equal(f->lanes, 0xffff0000u);      /* lanes 16..31 of warp 1 */
    assert_int_equal(f->a.tid[0], 32);
    assert_int_equal(f->a.line, ptx_line_of("divergent_barrier", "bar.sync", 0));
    assert_int_equal(f->count, 1);
    free_runs(r, 2);
}

static void test_check_error(void **state)
{
    (void)state;
    struct run r;
    run_kernel("transpose_racy", LS_MODE_TIMING, "check=racecheck", 1, &r);
    assert_int_equal(r.st, LS_ERR_CHECK);
    assert_non_null(strstr(r.err, "read-after-write"));
    assert_non_null(strstr(r.err, "transpose_racy"));
    free_runs(&r, 1);
    /* only the checks asked for: synccheck alone does not see the race */
    run_kernel("transpose_racy", LS_MODE_FUNCTIONAL, "check=synccheck", 1, &r);
    assert_int_equal(r.st, LS_OK);
    assert_int_equal(r.n, 0);
    free_runs(&r, 1);
}

/* globalrace (opt-in: not part of "all"): the plain stores of four CTAs
 * to out[0] are one finding, at the st.global of out[0], between CTA 0
 * and CTA 1 (the two lowest), over 4 bytes; each CTA's own word and the
 * atomicMax are not races. The same in both modes. */
static void test_global_race(void **state)
{
    (void)state;
    struct run r[2];
    both_modes_of("cta_race", "check=all,globalrace", r);
    assert_int_equal(r[0].n, 1);
    const ls_check_finding *f = find(&r[0], "write-after-write");
    assert_non_null(f);
    assert_string_equal(f->check, "globalrace");
    assert_string_equal(f->space, "global");
    unsigned line = ptx_line_of("cta_race", "st.global.u32 \t[%rd2]", 0);
    assert_int_equal(f->a.line, line);
    assert_int_equal(f->b.line, line);
    assert_int_equal(f->a.cta[0], 0);
    assert_int_equal(f->b.cta[0], 1);
    assert_int_equal(f->a.tid[0], 0);
    assert_int_equal(f->count, 4);
    free_runs(r, 2);
    /* "all" alone leaves globalrace out */
    struct run q;
    run_kernel("cta_race", LS_MODE_FUNCTIONAL, "check=all", 0, &q);
    assert_int_equal(q.st, LS_OK);
    assert_int_equal(q.n, 0);
    free_runs(&q, 1);
}

/* The .cu line from nvcc's line info (-lineinfo): a hand-written kernel
 * with .file/.loc where every thread stores to one shared word (a
 * write-after-write race); the finding names racy.cu:7 for both stores
 * (the .loc before them, with the inlined_at tail nvcc writes skipped),
 * and a PTX without .loc gives no source position. */
static void test_source_line(void **state)
{
    (void)state;
    static const char ptx[] =
        ".version 7.5\n.target sm_75\n.address_size 64\n"
        "\t.file\t1 \"/some/dir/racy.cu\"\n"
        ".visible .entry k()\n{\n"
        "  .reg .b32 %r<2>;\n  .shared .align 4 .b32 s;\n"
        "  .loc 1 6 3\n  mov.u32 %r1, %tid.x;\n"
        "  .loc 1 7 5, function_name $L__info_string0, inlined_at 1 9 1\n"
        "  st.shared.u32 [s], %r1;\n"
        "  .loc 1 8 1\n  ret;\n}\n";
    for (int mode = 0; mode < 2; mode++) {
        ls_config cfg;
        ls_config_default(&cfg);
        cfg.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
        const char *sets[2] = { "check=racecheck", NULL };
        cfg.sets = sets;
        char err[512];
        ls_gpu *g = ls_gpu_create(&cfg, err, sizeof err);
        assert_non_null(g);
        ls_module *m;
        assert_int_equal(ls_module_load_text(g, "racy.ptx", ptx, strlen(ptx), &m), LS_OK);
        ls_dim3 grid = { 1, 1, 1 }, block = { 64, 1, 1 };
        assert_int_equal(ls_launch(g, m, "k", grid, block, 0, NULL, NULL), LS_OK);
        const ls_check_finding *l;
        assert_int_equal(ls_check_findings(g, &l), 1);
        assert_string_equal(l[0].kind, "write-after-write");
        assert_string_equal(l[0].a.src, "racy.cu:7");
        assert_string_equal(l[0].b.src, "racy.cu:7");
        char line[1024];
        ls_check_format(&l[0], line, sizeof line);
        assert_non_null(strstr(line, "(k racy.cu:7)"));
        ls_gpu_destroy(g);
    }
    struct run r;                   /* checks.ptx has no line info */
    run_kernel("transpose_racy", LS_MODE_FUNCTIONAL, "check=racecheck", 0, &r);
    assert_true(r.n > 0);
    assert_string_equal(r.fd[0].a.src, "");
    free_runs(&r, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transpose_race),
        cmocka_unit_test(test_transpose_ok),
        cmocka_unit_test(test_racy_modes_disagree_allowed),
        cmocka_unit_test(test_shfl_mask),
        cmocka_unit_test(test_uninitialized),
        cmocka_unit_test(test_divergent_barrier),
        cmocka_unit_test(test_check_error),
        cmocka_unit_test(test_global_race),
        cmocka_unit_test(test_source_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
