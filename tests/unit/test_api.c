/* cmocka tests of the public host API: every error path returns a status
 * with a message and never crashes; module variables; plain and mangled
 * kernel names; two GPUs in one process; deadlock reports for a divergent
 * barrier and for an exhausted instruction budget; ls_stats_add. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* out[i] = in[i] * k + g[i % 4], i = ctaid.x * ntid.x + tid.x < n */
static const char *SCALE = HDR
    ".global .align 4 .b8 gtab[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};\n"
    ".visible .entry _Z5scalePjS_jj(\n .param .u64 p0,\n .param .u64 p1,\n"
    " .param .u32 p2,\n .param .u32 p3\n)\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<12>;\n .reg .b64 %rd<12>;\n"
    " ld.param.u64 %rd1, [p0];\n"
    " ld.param.u64 %rd2, [p1];\n"
    " ld.param.u32 %r1, [p2];\n"
    " ld.param.u32 %r2, [p3];\n"
    " mov.u32 %r3, %ctaid.x;\n"
    " mov.u32 %r4, %ntid.x;\n"
    " mov.u32 %r5, %tid.x;\n"
    " mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    " setp.ge.u32 %p1, %r6, %r2;\n"
    " @%p1 bra DONE;\n"
    " cvta.to.global.u64 %rd3, %rd1;\n"
    " cvta.to.global.u64 %rd4, %rd2;\n"
    " mul.wide.u32 %rd5, %r6, 4;\n"
    " add.s64 %rd6, %rd3, %rd5;\n"
    " ld.global.u32 %r7, [%rd6];\n"
    " and.b32 %r8, %r6, 3;\n"
    " mul.wide.u32 %rd7, %r8, 4;\n"
    " mov.u64 %rd8, gtab;\n"
    " add.s64 %rd9, %rd8, %rd7;\n"
    " ld.global.u32 %r9, [%rd9];\n"
    " mad.lo.s32 %r10, %r7, %r1, %r9;\n"
    " add.s64 %rd10, %rd4, %rd5;\n"
    " st.global.u32 [%rd10], %r10;\n"
    "DONE:\n ret;\n}\n";

static ls_gpu *mk(ls_module **m)
{
    char err[256];
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_FUNCTIONAL;    /* these tests pin functional-mode figures */
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    assert_string_equal(ls_gpu_error(g), "");
    if (ls_module_load_text(g, "scale.ptx", SCALE, strlen(SCALE), m) != LS_OK)
        fail_msg("load: %s", ls_gpu_error(g));
    return g;
}

/* A message naming a file:line. */
static void has_msg(ls_gpu *g, const char *needle)
{
    const char *e = ls_gpu_error(g);
    assert_non_null(e);
    if (!strchr(e, ':') || (needle && !strstr(e, needle)))
        fail_msg("message \"%s\" lacks \"%s\"", e, needle ? needle : ":");
}

static void test_null_and_bad_args(void **state)
{
    (void)state;
    ls_dptr p = 0;
    ls_module *m = NULL;
    uint32_t x = 0;
    ls_dim3 one = {1, 1, 1};
    /* NULL gpu everywhere */
    assert_int_equal(ls_malloc(NULL, &p, 4), LS_ERR_INVALID);
    assert_int_equal(ls_free(NULL, 1), LS_ERR_INVALID);
    assert_int_equal(ls_memcpy_htod(NULL, 1, &x, 4), LS_ERR_INVALID);
    assert_int_equal(ls_memcpy_dtoh(NULL, &x, 1, 4), LS_ERR_INVALID);
    assert_int_equal(ls_memset(NULL, 1, 0, 4), LS_ERR_INVALID);
    assert_int_equal(ls_module_load_text(NULL, "a", "x", 1, &m), LS_ERR_INVALID);
    assert_int_equal(ls_module_load_file(NULL, "a", &m), LS_ERR_INVALID);
    assert_int_equal(ls_module_symbol(NULL, m, "a", &p, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_launch(NULL, m, "k", one, one, 0, NULL, NULL), LS_ERR_INVALID);
    assert_non_null(ls_gpu_error(NULL));
    ls_gpu_destroy(NULL);

    /* bad configurations */
    char err[256];
    ls_config c;
    ls_config_default(&c);
    assert_int_equal(c.warp_size, 32);
    c.warp_size = 16;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "warp_size"));
    ls_config_default(&c);
    c.max_stack_depth = 1;      /* 0 means "from the config key" */
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "max_stack_depth"));

    ls_gpu *g = mk(&m);
    /* memory */
    assert_int_equal(ls_malloc(g, NULL, 4), LS_ERR_INVALID);
    has_msg(g, "ptr is NULL");
    assert_int_equal(ls_malloc(g, &p, (size_t)1 << 40), LS_ERR_NOMEM);
    has_msg(g, "exhausted");
    assert_int_equal(ls_malloc(g, &p, 100), LS_OK);
    assert_int_equal(p % 256, 0);
    assert_true(p >= 0x10000000ull);
    assert_int_equal(ls_free(g, p + 4), LS_ERR_INVALID);
    has_msg(g, "not the start");
    assert_int_equal(ls_memcpy_htod(g, p, NULL, 4), LS_ERR_INVALID);
    has_msg(g, "src is NULL");
    uint8_t big[200] = {0};
    assert_int_equal(ls_memcpy_htod(g, p, big, 101), LS_ERR_MEMFAULT);
    has_msg(g, "not inside one live allocation");
    assert_int_equal(ls_memcpy_dtoh(g, big, p + 50, 51), LS_ERR_MEMFAULT);
    assert_int_equal(ls_memcpy_dtoh(g, NULL, p, 4), LS_ERR_INVALID);
    assert_int_equal(ls_memset(g, p, 0xab, 101), LS_ERR_MEMFAULT);
    assert_int_equal(ls_memset(g, p, 0xab, 100), LS_OK);
    assert_int_equal(ls_memcpy_dtoh(g, big, p, 100), LS_OK);
    assert_int_equal(big[99], 0xab);
    assert_int_equal(ls_free(g, p), LS_OK);
    assert_int_equal(ls_free(g, p), LS_ERR_INVALID);      /* double free */
    assert_int_equal(ls_memcpy_dtoh(g, big, p, 4), LS_ERR_MEMFAULT);
    assert_int_equal(ls_free(g, 0), LS_OK);

    /* modules */
    ls_module *bad = (ls_module *)&x;
    const char *bogus = HDR "bogus;\n";
    assert_int_equal(ls_module_load_text(g, "bad.ptx", bogus, strlen(bogus), &bad),
                     LS_ERR_PARSE);
    assert_null(bad);
    has_msg(g, "bad.ptx:");
    assert_int_equal(ls_module_load_text(g, "n", NULL, 0, &bad), LS_ERR_INVALID);
    assert_int_equal(ls_module_load_file(g, "/nonexistent/x.ptx", &bad), LS_ERR_IO);
    has_msg(g, "/nonexistent/x.ptx");
    assert_int_equal(ls_module_symbol(g, m, "nope", &p, NULL), LS_ERR_INVALID);
    has_msg(g, "nope");
    assert_int_equal(ls_module_symbol(g, m, NULL, &p, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_module_symbol(g, NULL, "gtab", &p, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_module_symbol(g, m, "gtab", NULL, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_module_load_file(g, NULL, &bad), LS_ERR_INVALID);
    has_msg(g, "path or mod is NULL");
    assert_int_equal(ls_module_load_file(g, "x.ptx", NULL), LS_ERR_INVALID);
    assert_int_equal(ls_module_load_text(g, "n", "x", 1, NULL), LS_ERR_INVALID);

    /* launches */
    ls_dptr a, b;
    assert_int_equal(ls_malloc(g, &a, 64), LS_OK);
    assert_int_equal(ls_malloc(g, &b, 64), LS_OK);
    uint32_t k = 1, n = 16;
    void *args[] = { &a, &b, &k, &n };
    assert_int_equal(ls_launch(g, m, "nosuch", one, one, 0, args, NULL), LS_ERR_INVALID);
    has_msg(g, "nosuch");
    assert_int_equal(ls_launch(g, m, NULL, one, one, 0, args, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_launch(g, NULL, "scale", one, one, 0, args, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_launch(g, m, "scale", (ls_dim3){0, 1, 1}, one, 0, args, NULL),
                     LS_ERR_LAUNCH);
    has_msg(g, "zero");
    assert_int_equal(ls_launch(g, m, "scale", one, (ls_dim3){1025, 1, 1}, 0, args, NULL),
                     LS_ERR_LAUNCH);
    has_msg(g, "1025");
    assert_int_equal(ls_launch(g, m, "scale", one, (ls_dim3){32, 32, 2}, 0, args, NULL),
                     LS_ERR_LAUNCH);
    assert_int_equal(ls_launch(g, m, "scale", one, one, 0, NULL, NULL), LS_ERR_LAUNCH);
    has_msg(g, "args is NULL");
    void *args2[] = { &a, NULL, &k, &n };
    assert_int_equal(ls_launch(g, m, "scale", one, one, 0, args2, NULL), LS_ERR_LAUNCH);
    has_msg(g, "args[1]");
    assert_int_equal(ls_launch(g, m, "scale", one, one, 1 << 30, args, NULL),
                     LS_ERR_LAUNCH);
    has_msg(g, "shared memory");
    assert_int_equal(ls_texture_1d(g, a, 100, 16, &p), LS_ERR_INVALID);
    has_msg(g, "ls_texture_1d");
    assert_int_equal(ls_texture_1d(g, a, 4, 3, &p), LS_ERR_INVALID);
    has_msg(g, "elem_bytes 3");
    assert_int_equal(ls_texture_1d(g, a, 0, 4, &p), LS_ERR_INVALID);
    assert_int_equal(ls_texture_1d(g, a, 4, 4, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_texture_1d(NULL, a, 4, 4, &p), LS_ERR_INVALID);
    assert_int_equal(ls_texture_2d(g, a, 4, 0, 16, 4, &p), LS_ERR_INVALID);
    has_msg(g, "height is 0");
    assert_int_equal(ls_texture_2d(g, a, 4, 4, 8, 4, &p), LS_ERR_INVALID);
    has_msg(g, "pitch");
    assert_int_equal(ls_texture_2d(g, a, 4, 5, 16, 4, &p), LS_ERR_INVALID);
    has_msg(g, "not inside one live allocation");
    assert_int_equal(ls_texture_2d(g, a, 4, 4, 16, 4, &p), LS_OK);
    /* after all that the GPU still works */
    assert_int_equal(ls_launch(g, m, "scale", one, (ls_dim3){16, 1, 1}, 0, args, NULL),
                     LS_OK);
    ls_gpu_destroy(g);
}

static void test_symbols_and_mangled_names(void **state)
{
    (void)state;
    ls_module *m;
    ls_gpu *g = mk(&m);
    ls_dptr gt;
    size_t bytes = 0;
    assert_int_equal(ls_module_symbol(g, m, "gtab", &gt, &bytes), LS_OK);
    assert_int_equal(bytes, 16);
    uint32_t tab[4];
    assert_int_equal(ls_memcpy_dtoh(g, tab, gt, sizeof tab), LS_OK);
    assert_int_equal(tab[0], 1);
    assert_int_equal(tab[3], 4);
    tab[3] = 40;                               /* the kernel sees host writes */
    assert_int_equal(ls_memcpy_htod(g, gt, tab, sizeof tab), LS_OK);
    enum { N = 100 };
    uint32_t in[N], out[N];
    for (uint32_t i = 0; i < N; i++)
        in[i] = i;
    ls_dptr a, b;
    assert_int_equal(ls_malloc(g, &a, sizeof in), LS_OK);
    assert_int_equal(ls_malloc(g, &b, sizeof out), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, a, in, sizeof in), LS_OK);
    uint32_t k = 3, n = N;
    void *args[] = { &a, &b, &k, &n };
    ls_stats s;
    /* plain name resolves to the mangled entry; so does the mangled one */
    if (ls_launch(g, m, "scale", (ls_dim3){4, 1, 1}, (ls_dim3){32, 1, 1}, 0, args, &s)
        != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_launch(g, m, "_Z5scalePjS_jj", (ls_dim3){4, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args, NULL), LS_OK);
    assert_int_equal(ls_launch(g, m, "scal", (ls_dim3){1, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args, NULL), LS_ERR_INVALID);
    assert_int_equal(ls_memcpy_dtoh(g, out, b, sizeof out), LS_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(out[i], 3 * i + ((i & 3) == 3 ? 40 : (i & 3) + 1));
    assert_int_equal(s.launches, 1);
    assert_int_equal(s.ctas, 4);
    assert_int_equal(s.threads, 128);
    assert_int_equal(s.branches, 4);           /* one per warp */
    assert_int_equal(s.divergent_branches, 1); /* the warp holding i = 100 */
    assert_true(s.thread_insts < s.warp_insts * 32);
    assert_true(s.simd_util > 0.5 && s.simd_util < 1.0);
    assert_true(s.wall_s >= 0.0);
    assert_int_equal(s.cycles, 0);

    ls_stats acc;
    memset(&acc, 0, sizeof acc);
    ls_stats_add(&acc, &s, 32);
    ls_stats_add(&acc, &s, 32);
    assert_int_equal(acc.launches, 2);
    assert_int_equal(acc.warp_insts, 2 * s.warp_insts);
    assert_int_equal(acc.max_stack_depth, s.max_stack_depth);
    assert_true(acc.simd_util > s.simd_util - 1e-12 && acc.simd_util < s.simd_util + 1e-12);
    ls_gpu_destroy(g);
}

static void test_two_gpus(void **state)
{
    (void)state;
    ls_module *m1, *m2;
    ls_gpu *g1 = mk(&m1), *g2 = mk(&m2);
    enum { N = 64 };
    uint32_t in1[N], in2[N], out[N];
    for (uint32_t i = 0; i < N; i++) {
        in1[i] = i;
        in2[i] = 1000 + i;
    }
    ls_dptr a1, b1, a2, b2;
    assert_int_equal(ls_malloc(g1, &a1, sizeof in1), LS_OK);
    assert_int_equal(ls_malloc(g1, &b1, sizeof out), LS_OK);
    assert_int_equal(ls_malloc(g2, &a2, sizeof in2), LS_OK);
    assert_int_equal(ls_malloc(g2, &b2, sizeof out), LS_OK);
    assert_int_equal(a1, a2);                  /* same addresses, own memory */
    assert_int_equal(ls_memcpy_htod(g1, a1, in1, sizeof in1), LS_OK);
    assert_int_equal(ls_memcpy_htod(g2, a2, in2, sizeof in2), LS_OK);
    /* a module of one GPU is refused by the other */
    uint32_t k1 = 2, k2 = 5, n = N;
    void *args1[] = { &a1, &b1, &k1, &n }, *args2[] = { &a2, &b2, &k2, &n };
    assert_int_equal(ls_launch(g1, m1, "scale", (ls_dim3){2, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args1, NULL), LS_OK);
    assert_int_equal(ls_launch(g2, m2, "scale", (ls_dim3){2, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args2, NULL), LS_OK);
    assert_int_equal(ls_memcpy_dtoh(g1, out, b1, sizeof out), LS_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(out[i], 2 * i + (i & 3) + 1);
    assert_int_equal(ls_memcpy_dtoh(g2, out, b2, sizeof out), LS_OK);
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(out[i], 5 * (1000 + i) + (i & 3) + 1);
    /* an error on one GPU leaves the other's message alone */
    assert_int_equal(ls_free(g1, 12345), LS_ERR_INVALID);
    assert_string_equal(ls_gpu_error(g2), "");
    assert_int_equal(ls_launch(g2, m1, "scale", (ls_dim3){2, 1, 1},
                               (ls_dim3){32, 1, 1}, 0, args2, NULL), LS_ERR_INVALID);
    has_msg(g2, "not loaded on this GPU");
    ls_gpu_destroy(g1);
    assert_int_equal(ls_memcpy_dtoh(g2, out, b2, sizeof out), LS_OK);
    ls_gpu_destroy(g2);
}

/* a barrier waiting for more threads than the CTA has (a divergent
 * barrier completes: the other lanes run on to the next one, as the PTX
 * ISA defines it; docs/simt-stack.md) */
static const char *DIVBAR = HDR
    ".visible .entry divbar()\n{\n"
    " .reg .pred %p<2>;\n .reg .b32 %r<3>;\n"
    " mov.u32 %r1, %tid.x;\n"
    " add.u32 %r2, %r1, 1;\n"
    " bar.sync 0, 96;\n"
    " ret;\n}\n";

#include "sync_kernels.h"

static void test_deadlocks(void **state)
{
    (void)state;
    char err[256];
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_FUNCTIONAL;    /* functional deadlock/budget reports */
    c.max_warp_insts = 1000;
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    ls_module *m;
    if (ls_module_load_text(g, "dl.ptx", DIVBAR, strlen(DIVBAR), &m) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_launch(g, m, "divbar", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1},
                               0, NULL, NULL), LS_ERR_DEADLOCK);
    const char *e = ls_gpu_error(g);
    if (!strstr(e, "dl.ptx:") || !strstr(e, "barrier 0 reached by 64 of 96") ||
        !strstr(e, "warp 0:") ||
        !strstr(e, "warp 1:") || !strstr(e, "mask 0x") || !strstr(e, "line "))
        fail_msg("deadlock report lacks detail: %s", e);

    ls_module *m2;
    if (ls_module_load_text(g, "spin.ptx", SPIN, strlen(SPIN), &m2) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    ls_stats s;
    assert_int_equal(ls_launch(g, m2, "spin", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                               0, NULL, &s), LS_ERR_DEADLOCK);
    e = ls_gpu_error(g);
    if (!strstr(e, "budget") || !strstr(e, "1000") || !strstr(e, "warp 0:") ||
        !strstr(e, "spin.ptx:"))
        fail_msg("budget report lacks detail: %s", e);
    assert_int_equal(s.warp_insts, 1000);

    ls_module *m3;
    if (ls_module_load_text(g, "eb.ptx", EXITBAR, strlen(EXITBAR), &m3) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    ls_dptr q;
    assert_int_equal(ls_malloc(g, &q, 32 * 4), LS_OK);
    void *args[] = { &q };
    if (ls_launch(g, m3, "exitbar", (ls_dim3){1, 1, 1}, (ls_dim3){96, 1, 1}, 0, args,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    uint32_t h[32];
    assert_int_equal(ls_memcpy_dtoh(g, h, q, sizeof h), LS_OK);
    for (int i = 0; i < 32; i++)
        assert_int_equal(h[i], 32);

    ls_gpu_destroy(g);
    c.max_warp_insts = 100000;
    g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    ls_module *m4;
    if (ls_module_load_text(g, "flag.ptx", FLAG, strlen(FLAG), &m4) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_malloc(g, &q, 4), LS_OK);
    if (ls_launch(g, m4, "flag", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args,
                  &s) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q, 4), LS_OK);
    assert_int_equal(h[0], 7);
    assert_true(s.warp_insts > 4096);          /* warp 0 spun a full slice */

    ls_module *m5;
    if (ls_module_load_text(g, "pc.ptx", PRODCONS, strlen(PRODCONS), &m5) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    ls_dptr q2;
    assert_int_equal(ls_malloc(g, &q2, 32 * 4), LS_OK);
    void *args5[] = { &q2 };
    if (ls_launch(g, m5, "pc", (ls_dim3){1, 1, 1}, (ls_dim3){64, 1, 1}, 0, args5,
                  NULL) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    assert_int_equal(ls_memcpy_dtoh(g, h, q2, sizeof h), LS_OK);
    for (uint32_t i = 0; i < 32; i++)
        assert_int_equal(h[i], 3 * i);
    ls_gpu_destroy(g);
}

/* The instruction budget and the stack depth come from the config keys
 * when the ls_config fields are 0 (the default), in both modes. */
static void test_limits_from_config_keys(void **state)
{
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        char err[256];
        const char *sets[] = {"max_warp_insts=1000", NULL};
        ls_config c;
        ls_config_default(&c);
        assert_int_equal(c.max_warp_insts, 0);
        c.mode = mode ? LS_MODE_TIMING : LS_MODE_FUNCTIONAL;
        c.sets = sets;
        ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
        if (!g)
            fail_msg("%s", err);
        ls_module *m;
        if (ls_module_load_text(g, "spin.ptx", SPIN, strlen(SPIN), &m) != LS_OK)
            fail_msg("%s", ls_gpu_error(g));
        assert_int_equal(ls_launch(g, m, "spin", (ls_dim3){1, 1, 1}, (ls_dim3){32, 1, 1},
                                   0, NULL, NULL), LS_ERR_DEADLOCK);
        has_msg(g, "1000");
        ls_gpu_destroy(g);
    }
    char err[256];
    const char *bad[] = {"max_stack_depth=1", NULL};
    ls_config c;
    ls_config_default(&c);
    c.sets = bad;
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "max_stack_depth"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_null_and_bad_args),
        cmocka_unit_test(test_symbols_and_mangled_names),
        cmocka_unit_test(test_two_gpus),
        cmocka_unit_test(test_deadlocks),
        cmocka_unit_test(test_limits_from_config_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
