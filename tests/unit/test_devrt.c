/* The device runtime and indirect control flow, through the public API, in
 * functional and timing mode, with the kernels of tests/devrt/ (CUDA
 * sources + nvcc PTX, read relative to the repository root):
 *  - printf: every conversion against hand-written text; output order
 *    (block, thread, call) identical in both modes; vprintf's return value;
 *    the FIFO bound (a prefix is kept, the rest counted); file and callback
 *    sinks;
 *  - assert: CUDA's message and LS_ERR_ASSERT;
 *  - device malloc/free/new/delete: a linked list per thread, addresses
 *    equal in both modes, NULL when the heap is full, a bad free named;
 *  - function pointer tables and virtual functions (vtables in .global
 *    initialisers), lanes of one warp calling different functions; calls
 *    with eight arguments, direct and through a table;
 *  - brx.idx with a per-lane index and reconvergence after it;
 *  - a module with an unsupported device-side launch loads, its other
 *    kernels run (one has a printf on a branch never taken) and the launch
 *    fails naming the function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lockstep.h"

#define DEVRT_PTX "tests/devrt/devrt.ptx"
#define DP_PTX "tests/devrt/devrt_dp.ptx"
#define BRX_PTX "tests/devrt/brx.ptx"

/* printf sink of a test GPU: everything written, appended */
struct sink {
    char *buf;
    size_t len, cap, calls;
};

static void sink_fn(void *user, const char *text, size_t len)
{
    struct sink *s = user;
    if (s->len + len + 1 > s->cap) {
        s->cap = (s->len + len + 1) * 2;
        s->buf = realloc(s->buf, s->cap);
        assert_non_null(s->buf);
    }
    memcpy(s->buf + s->len, text, len);
    s->len += len;
    s->buf[s->len] = 0;
    s->calls++;
}

static ls_gpu *gpu_new(ls_mode mode, struct sink *s, const char *const *sets)
{
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    c.sets = sets;
    if (s) {
        memset(s, 0, sizeof *s);
        c.printf_fn = sink_fn;
        c.printf_user = s;
    }
    char err[512];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        fail_msg("ls_gpu_create: %s", err);
    return g;
}

static ls_module *load(ls_gpu *g, const char *path)
{
    ls_module *m = NULL;
    if (ls_module_load_file(g, path, &m) != LS_OK)
        fail_msg("%s", ls_gpu_error(g));
    return m;
}

static ls_dptr put(ls_gpu *g, const void *p, size_t n)
{
    ls_dptr d;
    assert_int_equal(ls_malloc(g, &d, n), LS_OK);
    assert_int_equal(ls_memcpy_htod(g, d, p, n), LS_OK);
    return d;
}

static void launch_ok(ls_gpu *g, ls_module *m, const char *k, unsigned gx,
                      unsigned bx, void **args, ls_stats *st)
{
    ls_status r = ls_launch(g, m, k, (ls_dim3){ gx, 1, 1 }, (ls_dim3){ bx, 1, 1 },
                            0, args, st);
    if (r != LS_OK)
        fail_msg("%s: %s: %s", k, ls_status_name(r), ls_gpu_error(g));
}

static const ls_mode modes[2] = { LS_MODE_FUNCTIONAL, LS_MODE_TIMING };

/* ------------------------------------------------------------- printf */

/* Hand-written: what CUDA prints for printf_all(s = "hello", n = 3). */
static const char want_all[] =
    "t0 i=0 u=4000000000 x=ff X=ABC o=10 c=A s=hello\n"
    "    0|0    |00000|+0| 0|000|     0|0000   |\n"
    "0.000000 2.250000 1.234568e+05 -1.230000E-04 0.0001 1E+20 0x1p+0 -0X1P-1\n"
    "3.14 2.5000e-10 100000      | 0xff 010 %\n"
    "hh=-3 h=-300 l=-5000000000 ll=-7 llu=18446744073709551615 lx=deadbeefcafe\n"
    "p=0x1234 nan=nan inf=inf ninf=-inf\n"
    "t1 i=-1 u=4000000000 x=100 X=ABC o=10 c=B s=hello\n"
    "    1|1    |00001|+1| 1|001|     1|0001   |\n"
    "1.500000 2.250000 1.234568e+05 -1.230000E-04 0.0001 1E+20 0x1p+0 -0X1P-1\n"
    "3.14 2.5000e-10 100000      | 0xff 010 %\n"
    "hh=-3 h=-300 l=-5000000000 ll=-7 llu=18446744073709551615 lx=deadbeefcafe\n"
    "p=0x1234 nan=nan inf=inf ninf=-inf\n"
    "t2 i=-2 u=4000000000 x=101 X=ABC o=10 c=C s=hello\n"
    "    2|2    |00002|+2| 2|002|     2|0002   |\n"
    "3.000000 2.250000 1.234568e+05 -1.230000E-04 0.0001 1E+20 0x1p+0 -0X1P-1\n"
    "3.14 2.5000e-10 100000      | 0xff 010 %\n"
    "hh=-3 h=-300 l=-5000000000 ll=-7 llu=18446744073709551615 lx=deadbeefcafe\n"
    "p=0x1234 nan=nan inf=inf ninf=-inf\n";

static void printf_conversions(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        struct sink s;
        ls_gpu *g = gpu_new(modes[i], &s, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr str = put(g, "hello", 6);
        int n = 3;
        void *a[] = { &str, &n };
        ls_stats st;
        /* 2 blocks of 2: thread 3 (block 1, thread 1) prints nothing */
        launch_ok(g, m, "printf_all", 2, 2, a, &st);
        assert_string_equal(s.buf, want_all);
        assert_int_equal(st.printf_calls, 18);
        assert_int_equal(st.printf_bytes, strlen(want_all));
        assert_int_equal(st.printf_dropped, 0);
        /* vprintf returns the number of arguments */
        ls_dptr out;
        assert_int_equal(ls_malloc(g, &out, 4 * 33), LS_OK);
        void *b[] = { &out };
        launch_ok(g, m, "printf_ret", 1, 33, b, NULL);
        int r[33];
        assert_int_equal(ls_memcpy_dtoh(g, r, out, sizeof r), LS_OK);
        for (int t = 0; t < 33; t++)
            assert_int_equal(r[t], 3);
        ls_gpu_destroy(g);
        free(s.buf);
    }
}

/* printf_order in (block, thread, call) order, the documented order */
static char *order_text(unsigned nb, unsigned nt, int reps, size_t limit,
                        size_t *kept)
{
    size_t cap = (size_t)nb * nt * reps * 24 + 1, len = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    t[0] = 0;
    *kept = 0;
    for (unsigned b = 0; b < nb; b++)
        for (unsigned th = 0; th < nt; th++)
            for (int r = 0; r < reps; r++) {
                char l[32];
                int k = snprintf(l, sizeof l, "b%u t%u r%d\n", b, th, r);
                if (len + (size_t)k > limit)
                    return t;
                memcpy(t + len, l, (size_t)k + 1);
                len += (size_t)k;
                (*kept)++;
            }
    return t;
}

static void printf_order_same_in_both_modes(void **state)
{
    (void)state;
    size_t kept;
    char *want = order_text(4, 70, 3, SIZE_MAX, &kept);
    char *got[2];
    for (int i = 0; i < 2; i++) {
        struct sink s;
        ls_gpu *g = gpu_new(modes[i], &s, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        int reps = 3;
        void *a[] = { &reps };
        launch_ok(g, m, "printf_order", 4, 70, a, NULL);
        got[i] = s.buf;
        ls_gpu_destroy(g);
    }
    assert_string_equal(got[0], want);
    assert_string_equal(got[1], want);
    free(got[0]);
    free(got[1]);
    free(want);
}

static void printf_fifo_bound(void **state)
{
    (void)state;
    static const char *const sets[] = { "printf_fifo_size=700", NULL };
    size_t kept;
    char *want = order_text(4, 70, 3, 700, &kept);
    assert_true(kept > 10 && kept < 4 * 70 * 3);
    for (int i = 0; i < 2; i++) {
        struct sink s;
        ls_gpu *g = gpu_new(modes[i], &s, sets);
        ls_module *m = load(g, DEVRT_PTX);
        int reps = 3;
        void *a[] = { &reps };
        ls_stats st;
        launch_ok(g, m, "printf_order", 4, 70, a, &st);
        assert_string_equal(s.buf, want);
        assert_int_equal(st.printf_calls, kept);
        assert_int_equal(st.printf_dropped, 4 * 70 * 3 - kept);
        ls_gpu_destroy(g);
        free(s.buf);
    }
    free(want);
}

static void printf_to_file(void **state)
{
    (void)state;
    char path[] = "/tmp/ls_printf_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    ls_config c;
    ls_config_default(&c);
    c.mode = LS_MODE_FUNCTIONAL;
    c.printf_file = path;
    char err[256];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    assert_non_null(g);
    ls_module *m = load(g, DEVRT_PTX);
    ls_dptr str = put(g, "hello", 6);
    int n = 3;
    void *a[] = { &str, &n };
    launch_ok(g, m, "printf_all", 2, 2, a, NULL);
    ls_gpu_destroy(g);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char buf[4096];
    size_t k = fread(buf, 1, sizeof buf - 1, f);
    buf[k] = 0;
    fclose(f);
    remove(path);
    assert_string_equal(buf, want_all);
    /* an unwritable file is an error at creation */
    c.printf_file = "/nonexistent-dir/x.txt";
    assert_null(ls_gpu_create(&c, err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent-dir/x.txt"));
}

/* ------------------------------------------------------------- assert */

static void assert_fails_kernel(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        int ok[4] = { 1, 2, 3, 4 }, bad[4] = { 1, 2, 9, 3 };
        ls_dptr d = put(g, ok, sizeof ok);
        int lim = 5;
        void *a[] = { &d, &lim };
        launch_ok(g, m, "assert_kernel", 2, 2, a, NULL);
        assert_int_equal(ls_memcpy_htod(g, d, bad, sizeof bad), LS_OK);
        ls_status r = ls_launch(g, m, "assert_kernel", (ls_dim3){ 2, 1, 1 },
                                (ls_dim3){ 2, 1, 1 }, 0, a, NULL);
        assert_int_equal(r, LS_ERR_ASSERT);
        assert_string_equal(ls_status_name(r), "LS_ERR_ASSERT");
        const char *want = "tests/devrt/devrt.cu:36: void assert_kernel(const int *, "
                           "int): block: [1,0,0], thread: [0,0,0] Assertion `a[t] < n` "
                           "failed. (kernel _Z13assert_kernelPKii, " DEVRT_PTX ":";
        if (strncmp(ls_gpu_error(g), want, strlen(want)) != 0)
            fail_msg("got: %s", ls_gpu_error(g));
        /* the GPU stays usable */
        assert_int_equal(ls_memcpy_htod(g, d, ok, sizeof ok), LS_OK);
        launch_ok(g, m, "assert_kernel", 2, 2, a, NULL);
        ls_gpu_destroy(g);
    }
}

/* --------------------------------------------------------------- heap */

static void device_new_delete_list(void **state)
{
    (void)state;
    enum { NB = 3, NT = 45, LEN = 7 };
    uint64_t dig[2];
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr out;
        assert_int_equal(ls_malloc(g, &out, 4 * NB * NT), LS_OK);
        int len = LEN;
        void *a[] = { &out, &len };
        ls_stats st;
        launch_ok(g, m, "list_kernel", NB, NT, a, &st);
        int r[NB * NT];
        assert_int_equal(ls_memcpy_dtoh(g, r, out, sizeof r), LS_OK);
        for (int t = 0; t < NB * NT; t++) {
            int want = 0;
            for (int k = 0; k < LEN; k++)
                want += t * 100 + k;
            assert_int_equal(r[t], want);
        }
        assert_int_equal(st.malloc_calls, NB * NT * LEN);
        assert_int_equal(st.free_calls, NB * NT * LEN);
        assert_int_equal(st.malloc_failed, 0);
        assert_int_equal(ls_mem_digest(g, &dig[i]), LS_OK);
        ls_gpu_destroy(g);
    }
    assert_true(dig[0] == dig[1]);
}

static void malloc_addresses_equal_in_both_modes(void **state)
{
    (void)state;
    enum { NB = 4, NT = 96, N = NB * NT };
    uint64_t ptrs[2][N], dig[2];
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr dp, dout;
        assert_int_equal(ls_malloc(g, &dp, 8 * N), LS_OK);
        assert_int_equal(ls_malloc(g, &dout, 4 * N), LS_OK);
        int bytes = 40;
        void *a[] = { &dp, &bytes };
        launch_ok(g, m, "malloc_kernel", NB, NT, a, NULL);
        launch_ok(g, m, "malloc_kernel", NB, NT, a, NULL);   /* live across launches */
        assert_int_equal(ls_memcpy_dtoh(g, ptrs[i], dp, sizeof ptrs[i]), LS_OK);
        assert_int_equal(ls_mem_digest(g, &dig[i]), LS_OK);
        for (int t = 0; t < N; t++) {
            assert_true(ptrs[i][t] != 0 && ptrs[i][t] % 16 == 0);
            for (int u = 0; u < t; u++)
                assert_true(ptrs[i][t] != ptrs[i][u]);
        }
        void *b[] = { &dp, &dout };
        launch_ok(g, m, "free_kernel", NB, NT, b, NULL);
        int r[N];
        assert_int_equal(ls_memcpy_dtoh(g, r, dout, sizeof r), LS_OK);
        for (int t = 0; t < N; t++)
            assert_int_equal(r[t], t);
        /* the host API does not free device-heap memory */
        assert_int_equal(ls_free(g, ptrs[i][0]), LS_ERR_INVALID);
        ls_gpu_destroy(g);
    }
    assert_memory_equal(ptrs[0], ptrs[1], sizeof ptrs[0]);
    assert_true(dig[0] == dig[1]);
}

static void malloc_null_when_heap_full(void **state)
{
    (void)state;
    static const char *const sets[] = { "malloc_heap_size=4096", NULL };
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, sets);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr dp;
        assert_int_equal(ls_malloc(g, &dp, 8 * 8), LS_OK);
        int bytes = 1024;
        void *a[] = { &dp, &bytes };
        ls_stats st;
        launch_ok(g, m, "malloc_kernel", 1, 8, a, &st);
        uint64_t p[8];
        assert_int_equal(ls_memcpy_dtoh(g, p, dp, sizeof p), LS_OK);
        int null = 0;
        for (int t = 0; t < 8; t++)
            null += p[t] == 0;
        assert_int_equal(null, 4);
        assert_int_equal(st.malloc_calls, 8);
        assert_int_equal(st.malloc_failed, 4);
        ls_gpu_destroy(g);
    }
}

static void bad_free_names_thread(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr d;
        assert_int_equal(ls_malloc(g, &d, 64), LS_OK);
        void *a[] = { &d };
        ls_status r = ls_launch(g, m, "bad_free", (ls_dim3){ 1, 1, 1 },
                                (ls_dim3){ 4, 1, 1 }, 0, a, NULL);
        assert_int_equal(r, LS_ERR_MEMFAULT);
        const char *e = ls_gpu_error(g);
        if (!strstr(e, "thread (0,0,0)") ||
            !strstr(e, "not a pointer that device malloc returned"))
            fail_msg("got: %s", e);
        ls_gpu_destroy(g);
    }
}

/* ------------------------------------------------- indirect control flow */

static int op_ref(int k, int a, int b)
{
    switch (k & 3) {
    case 0: return (int)((unsigned)a + (unsigned)b);
    case 1: return (int)((unsigned)a - (unsigned)b);
    case 2: return (int)((unsigned)a * (unsigned)b);
    default: return a ^ b;
    }
}

static void function_pointers(void **state)
{
    (void)state;
    enum { N = 200 };
    int a[N], b[N];
    for (int t = 0; t < N; t++) {
        a[t] = (t * 7919) % 1000 - 500;
        b[t] = (t * 104729) % 333 - 100;
    }
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        /* the table holds four distinct function addresses */
        ls_dptr tab;
        size_t tb;
        assert_int_equal(ls_module_symbol(g, m, "optab", &tab, &tb), LS_OK);
        uint64_t fp[4];
        assert_int_equal(tb, sizeof fp);
        assert_int_equal(ls_memcpy_dtoh(g, fp, tab, sizeof fp), LS_OK);
        for (int k = 0; k < 4; k++) {
            assert_true(fp[k] != 0);
            for (int j = 0; j < k; j++)
                assert_true(fp[k] != fp[j]);
        }
        ls_dptr da = put(g, a, sizeof a), db = put(g, b, sizeof b), dc;
        assert_int_equal(ls_malloc(g, &dc, sizeof a), LS_OK);
        int n = N;
        void *args[] = { &da, &db, &dc, &n };
        ls_stats st;
        launch_ok(g, m, "fptr_kernel", 4, 64, args, &st);
        int c[N];
        assert_int_equal(ls_memcpy_dtoh(g, c, dc, sizeof c), LS_OK);
        for (int t = 0; t < N; t++)
            assert_int_equal(c[t], op_ref(a[t] ^ t, a[t], b[t]));
        assert_true(st.divergent_branches > 0);     /* per-target serialisation */
        /* a table in .const: odd lanes subtract, even lanes multiply */
        launch_ok(g, m, "const_fptr", 1, 64, (void *[]){ &da, &dc }, NULL);
        assert_int_equal(ls_memcpy_dtoh(g, c, dc, 64 * sizeof c[0]), LS_OK);
        for (int t = 0; t < 64; t++)
            assert_int_equal(c[t], t & 1 ? a[t] - 3 : a[t] * 3);
        ls_gpu_destroy(g);
    }
}

static void virtual_functions(void **state)
{
    (void)state;
    enum { N = 100 };
    float x[N];
    for (int t = 0; t < N; t++)
        x[t] = 0.25f * (float)t + 0.125f;
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr dx = put(g, x, sizeof x), da, ds;
        assert_int_equal(ls_malloc(g, &da, sizeof x), LS_OK);
        assert_int_equal(ls_malloc(g, &ds, sizeof x), LS_OK);
        int n = N;
        void *args[] = { &dx, &da, &ds, &n };
        ls_stats st;
        launch_ok(g, m, "virt_kernel", 2, 64, args, &st);
        float area[N];
        int sides[N];
        assert_int_equal(ls_memcpy_dtoh(g, area, da, sizeof area), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, sides, ds, sizeof sides), LS_OK);
        for (int t = 0; t < N; t++) {
            float r = x[t], w3 = r * 3.0f;
            float want = t % 3 == 0 ? r * r : r * w3;
            assert_true(area[t] == want);
            assert_int_equal(sides[t], t % 3 == 0 ? 4 : 0);
        }
        assert_int_equal(st.malloc_calls, N);
        assert_int_equal(st.free_calls, N);
        ls_gpu_destroy(g);
    }
}

static int sum8(int a, int b, int c, int d, int e, int f, int g, int h)
{
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

static void calls_with_eight_arguments(void **state)
{
    (void)state;
    enum { N = 64 };
    int x[N];
    for (int t = 0; t < N; t++)
        x[t] = t * 13 - 300;
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, DEVRT_PTX);
        ls_dptr dx = put(g, x, sizeof x), dout;
        assert_int_equal(ls_malloc(g, &dout, sizeof x), LS_OK);
        void *args[] = { &dx, &dout };
        launch_ok(g, m, "many_args", 1, N, args, NULL);
        int r[N];
        assert_int_equal(ls_memcpy_dtoh(g, r, dout, sizeof r), LS_OK);
        for (int t = 0; t < N; t++) {
            int v = x[t];
            int f = t & 1 ? v - (v + 1) + (v + 2) - (v + 3) + (v + 4) - (v + 5) +
                                (v + 6) - (v + 7) * 3
                          : sum8(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6, v + 7);
            assert_int_equal(r[t], f + 100 * sum8(t, 1, 2, 3, 4, 5, 6, v));
        }
        ls_gpu_destroy(g);
    }
}

static void brx_idx_switch(void **state)
{
    (void)state;
    enum { N = 150 };
    int a[N];
    for (int t = 0; t < N; t++)
        a[t] = (t * 5 + t / 7) % 4;
    for (int i = 0; i < 2; i++) {
        ls_gpu *g = gpu_new(modes[i], NULL, NULL);
        ls_module *m = load(g, BRX_PTX);
        ls_dptr da = put(g, a, sizeof a), dc, dd;
        assert_int_equal(ls_malloc(g, &dc, sizeof a), LS_OK);
        assert_int_equal(ls_malloc(g, &dd, sizeof a), LS_OK);
        int n = N;
        void *args[] = { &da, &dc, &dd, &n };
        ls_stats st;
        launch_ok(g, m, "brx_switch", 3, 64, args, &st);
        int c[N], d[N];
        assert_int_equal(ls_memcpy_dtoh(g, c, dc, sizeof c), LS_OK);
        assert_int_equal(ls_memcpy_dtoh(g, d, dd, sizeof d), LS_OK);
        for (int t = 0; t < N; t++) {
            int want = a[t] == 0 ? 100 : a[t] == 1 ? t * 3 : a[t] == 2 ? -t : t + 7;
            assert_int_equal(c[t], want);
            /* after the join every lane of the warp below n is active
             * again (64-thread CTAs: warps are 32 aligned ids) */
            int w0 = t / 32 * 32, live = N - w0 < 32 ? N - w0 : 32;
            assert_int_equal(d[t], live);
        }
        assert_true(st.divergent_branches > 0);
        /* an index outside the list stops the kernel */
        a[5] = 4;
        assert_int_equal(ls_memcpy_htod(g, da, a, sizeof a), LS_OK);
        ls_status r = ls_launch(g, m, "brx_switch", (ls_dim3){ 3, 1, 1 },
                                (ls_dim3){ 64, 1, 1 }, 0, args, NULL);
        assert_int_equal(r, LS_ERR_LAUNCH);
        if (!strstr(ls_gpu_error(g), "brx.idx: index 4 out of range of the 4-entry"))
            fail_msg("got: %s", ls_gpu_error(g));
        a[5] = 1;
        ls_gpu_destroy(g);
    }
}

/* --------------------------------------------------- unsupported calls */

static void unsupported_call_loads_and_names(void **state)
{
    (void)state;
    for (int i = 0; i < 2; i++) {
        struct sink s;
        ls_gpu *g = gpu_new(modes[i], &s, NULL);
        ls_module *m = load(g, DP_PTX);
        ls_dptr dp;
        assert_int_equal(ls_malloc(g, &dp, 4 * 40), LS_OK);
        int n = 5;
        void *a[] = { &dp, &n };
        launch_ok(g, m, "quiet", 1, 40, a, NULL);
        int r[40];
        assert_int_equal(ls_memcpy_dtoh(g, r, dp, sizeof r), LS_OK);
        for (int t = 0; t < 40; t++)
            assert_int_equal(r[t], 2 * t);
        assert_int_equal(s.len, 0);     /* the printf branch never ran */
        void *b[] = { &dp };
        ls_status st = ls_launch(g, m, "parent", (ls_dim3){ 1, 1, 1 },
                                 (ls_dim3){ 32, 1, 1 }, 0, b, NULL);
        assert_int_equal(st, LS_ERR_LAUNCH);
        const char *e = ls_gpu_error(g);
        if (strncmp(e, DP_PTX ":", strlen(DP_PTX ":")) != 0 ||
            !strstr(e, "call of extern function __cudaCDP2GetParameterBufferV2 "
                       "(dynamic parallelism") || !strstr(e, "kernel _Z6parentPi"))
            fail_msg("got: %s", e);
        /* and the printf kernel still prints when its branch runs */
        n = -1;
        launch_ok(g, m, "quiet", 1, 2, a, NULL);
        assert_string_equal(s.buf, "never 0\nnever 1\n");
        ls_gpu_destroy(g);
        free(s.buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(printf_conversions),
        cmocka_unit_test(printf_order_same_in_both_modes),
        cmocka_unit_test(printf_fifo_bound),
        cmocka_unit_test(printf_to_file),
        cmocka_unit_test(assert_fails_kernel),
        cmocka_unit_test(device_new_delete_list),
        cmocka_unit_test(malloc_addresses_equal_in_both_modes),
        cmocka_unit_test(malloc_null_when_heap_full),
        cmocka_unit_test(bad_free_names_thread),
        cmocka_unit_test(function_pointers),
        cmocka_unit_test(virtual_functions),
        cmocka_unit_test(calls_with_eight_arguments),
        cmocka_unit_test(brx_idx_switch),
        cmocka_unit_test(unsupported_call_loads_and_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
