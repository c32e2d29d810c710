/* Generic lockstep checker (see lockstep.h and tb/README.md). */
#include "lockstep.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void tb_rng_init(struct tb_rng *r, uint64_t seed)
{
    memset(r, 0, sizeof *r);
    r->s = seed ? seed : 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 4; i++)
        (void)tb_rand(r);
}

uint64_t tb_rand(struct tb_rng *r)
{
    uint64_t x = r->s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

uint64_t tb_below(struct tb_rng *r, uint64_t n)
{
    return n ? tb_rand(r) % n : 0;
}

int tb_chance(struct tb_rng *r, unsigned num, unsigned den)
{
    return den && tb_below(r, den) < num;
}

static const uint32_t *port_ptr(const struct ls_port *p, const void *s)
{
    return (const uint32_t *)((const unsigned char *)s + p->off);
}

void ls_print_in(const struct ls_ctx *ls, const void *in)
{
    for (int i = 0; i < ls->nports; i++) {
        const struct ls_port *p = &ls->ports[i];
        if (p->is_out)
            continue;
        const uint32_t *v = port_ptr(p, in);
        if (p->count == 1) {
            printf(" %s=0x%" PRIx32, p->name, v[0]);
        } else {
            printf(" %s=[", p->name);
            for (unsigned e = 0; e < p->count; e++)
                printf("%s%" PRIx32, e ? " " : "", v[e]);
            printf("]");
        }
    }
    printf("\n");
}

void ls_case(struct ls_ctx *ls, const char *name)
{
    ls->casename = name;
}

void ls_reset(struct ls_ctx *ls)
{
    ls->m.cm_reset(ls->m.cm);
    ls->m.vl_reset(ls->m.vl);
}

/* Re-runs this exact case in a child with an FST window around `cycle`. */
static void fst_rerun(struct ls_ctx *ls, uint64_t cycle, char *path,
                      size_t n)
{
    mkdir("build", 0777);
    mkdir("build/fail", 0777);
    /* named after the build directory (<blk>_<set>[_m<k>]) of this binary */
    char inst[128];
    const char *a0 = ls->argv[0], *end = strrchr(a0, '/'), *beg = end;
    while (beg && beg > a0 && beg[-1] != '/')
        beg--;
    if (end && beg && end > beg && (size_t)(end - beg) < sizeof inst) {
        memcpy(inst, beg, (size_t)(end - beg));
        inst[end - beg] = 0;
    } else {
        snprintf(inst, sizeof inst, "%s_%s", ls->blk, ls->set);
    }
    snprintf(path, n, "build/fail/%s_%" PRIu64 "%s.fst", inst, ls->seed,
             ls->directed ? "_directed" : "");
    char win[64];
    uint64_t a = cycle > LS_HIST ? cycle - LS_HIST : 0;
    snprintf(win, sizeof win, "%" PRIu64 ":%" PRIu64, a, cycle + 1);
    int argc = 0;
    while (ls->argv[argc])
        argc++;
    char **av = calloc((size_t)argc + 8, sizeof *av);
    if (!av)
        return;
    for (int i = 0; i < argc; i++)
        av[i] = ls->argv[i];
    av[argc] = (char *)"--fst";
    av[argc + 1] = path;
    av[argc + 2] = (char *)"--window";
    av[argc + 3] = win;
    av[argc + 4] = (char *)"--quiet";
    av[argc + 5] = NULL;
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open("/dev/null", O_WRONLY);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
        }
        execv("/proc/self/exe", av);
        _exit(127);
    }
    if (pid > 0) {
        int st = 0;
        waitpid(pid, &st, 0);
    }
    free(av);
}

static void mismatch(struct ls_ctx *ls, const struct ls_port *p, unsigned e,
                     uint32_t exp, uint32_t act)
{
    if (ls->fst) { /* the FST re-run child: just stop here */
        ls_finish(ls);
        exit(1);
    }
    char field[96];
    if (p->max_count > 1)
        snprintf(field, sizeof field, "%s[%u]", p->name, e);
    else
        snprintf(field, sizeof field, "%s", p->name);
    printf("MISMATCH %s %s seed=%" PRIu64 " cycle=%" PRIu64
           " %s expected=0x%" PRIx32 " actual=0x%" PRIx32 "%s%s\n",
           ls->blk, ls->set, ls->seed, ls->cycle, field, exp, act,
           ls->casename ? " case=" : "", ls->casename ? ls->casename : "");
    uint64_t n = ls->cycle + 1 < LS_HIST ? ls->cycle + 1 : LS_HIST;
    printf("inputs of the last %" PRIu64 " cycles:\n", n);
    for (uint64_t c = ls->cycle + 1 - n; c <= ls->cycle; c++) {
        printf("  cycle %" PRIu64 ":", c);
        ls_print_in(ls, ls->hist[c % LS_HIST]);
    }
    char path[256];
    fst_rerun(ls, ls->cycle, path, sizeof path);
    printf("fst: %s (cycles %" PRIu64 "..%" PRIu64 ")\n", path,
           ls->cycle > LS_HIST ? ls->cycle - LS_HIST : 0, ls->cycle + 1);
    printf("replay: %s\n", ls->replay);
    fflush(stdout);
    exit(1);
}

void ls_step(struct ls_ctx *ls, const void *in, void *out)
{
    memcpy(ls->hist[ls->cycle % LS_HIST], in, ls->in_size);
    if (ls->fst && !ls->tracing && ls->cycle == ls->win_a) {
        ls->m.vl_trace(ls->m.vl, ls->fst);
        ls->tracing = 1;
    }
    ls->m.cm_step(ls->m.cm, in, out);
    memset(ls->vl_out, 0, ls->out_size);
    ls->m.vl_step(ls->m.vl, in, ls->vl_out);
    for (int i = 0; i < ls->nports; i++) {
        const struct ls_port *p = &ls->ports[i];
        if (!p->is_out)
            continue;
        const uint32_t *a = port_ptr(p, out);
        const uint32_t *b = port_ptr(p, ls->vl_out);
        for (unsigned e = 0; e < p->max_count; e++)
            if (a[e] != b[e])
                mismatch(ls, p, e, a[e], b[e]);
    }
    if (ls->tracing && ls->cycle >= ls->win_b) {
        ls->m.vl_trace(ls->m.vl, NULL);
        ls->tracing = 0;
    }
    ls->cycle++;
}

void ls_expect(struct ls_ctx *ls, const char *file, int line,
               const char *what, uint64_t expected, uint64_t actual)
{
    if (expected == actual)
        return;
    ls->fails++;
    printf("%s:%d: %s %s case %s cycle %" PRIu64 ": %s expected 0x%" PRIx64
           " got 0x%" PRIx64 "\n", file, line, ls->blk, ls->set,
           ls->casename ? ls->casename : "-", ls->cycle, what, expected,
           actual);
}

void ls_finish(struct ls_ctx *ls)
{
    if (ls->tracing) {
        ls->m.vl_trace(ls->m.vl, NULL);
        ls->tracing = 0;
    }
}
