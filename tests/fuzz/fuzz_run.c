/* Runtime PTX fuzzing (issue: no input may crash the model). Each
 * iteration takes a workload's committed PTX, applies 1-3 instruction-level
 * mutations (swap two operands, change a type within its class, change an
 * opcode within its class, delete or duplicate an instruction, retarget a
 * branch) and *runs* the result through the workload's own driver in
 * functional and in timing mode with a small instruction budget.
 *
 * Allowed: a clean status (parse error, memory fault, deadlock, budget,
 * launch error) or a result, in each mode. Not allowed: a crash, a
 * sanitizer report (build it with ASan+UBSan: `make test-fuzz-run`), or,
 * when every launch completed in both modes, a different device memory
 * after some launch that the model itself caused.
 *
 * A mutation of address arithmetic often makes warps write or read the
 * same words: a data race, whose result depends on the order the two
 * modes run warps in (undefined behaviour, not a model bug). Such a
 * disagreement is classified from the two modes' commit logs: when, in
 * every warp, the first differing record reads memory (ld, atom, tex), or
 * follows an atom whose returned old value (logged "=?", it depends on the
 * order warps reach the word) the warp has read, or no record differs at
 * all (two warps wrote one word in another order), the outcome is
 * order-dependent and reported as a race; a first difference anywhere else
 * (an ALU result or store data from equal inputs) is a model bug. Races
 * are not failures; the racecheck issue will name them precisely.
 *
 *   fuzz_run [--iters N] [--seed S] [--only WORKLOAD] [--save DIR]
 *            [--time-limit SEC]
 *
 * Every iteration prints its seed first, so `fuzz_run --iters 1 --seed S`
 * reproduces it; --save writes each failing mutant's PTX to DIR (the
 * corpus under tests/fuzz/run-corpus/ grows from those). Exit 0 when every
 * iteration was allowed, 1 otherwise. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lockstep.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = (*s += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static unsigned below(uint64_t *s, unsigned n)
{
    return n ? (unsigned)(rnd(s) % n) : 0;
}

/* The text as an array of lines (owned copies). */
struct text { char **l; unsigned n, cap; };

static void text_free(struct text *t)
{
    for (unsigned i = 0; i < t->n; i++)
        free(t->l[i]);
    free(t->l);
    memset(t, 0, sizeof *t);
}

static int text_add(struct text *t, const char *s, size_t n)
{
    if (t->n == t->cap) {
        unsigned cap = t->cap ? t->cap * 2 : 256;
        char **nl = realloc(t->l, cap * sizeof *nl);
        if (!nl)
            return -1;
        t->l = nl;
        t->cap = cap;
    }
    char *c = malloc(n + 1);
    if (!c)
        return -1;
    memcpy(c, s, n);
    c[n] = 0;
    t->l[t->n++] = c;
    return 0;
}

static int text_split(struct text *t, const char *s)
{
    memset(t, 0, sizeof *t);
    while (*s) {
        size_t n = strcspn(s, "\n");
        if (text_add(t, s, n))
            return -1;
        s += n + (s[n] == '\n');
    }
    return 0;
}

static char *text_join(const struct text *t)
{
    size_t len = 1;
    for (unsigned i = 0; i < t->n; i++)
        len += strlen(t->l[i]) + 1;
    char *o = malloc(len), *p = o;
    if (!o)
        return NULL;
    for (unsigned i = 0; i < t->n; i++) {
        size_t k = strlen(t->l[i]);
        memcpy(p, t->l[i], k);
        p += k;
        *p++ = '\n';
    }
    *p = 0;
    return o;
}

/* An instruction line: indented, ends in ';', not a directive. */
static int is_inst(const char *l)
{
    while (*l == ' ' || *l == '\t')
        l++;
    size_t n = strlen(l);
    return n > 1 && l[n - 1] == ';' && *l != '.' && *l != '/' && *l != '{' && *l != '}';
}

static unsigned pick_inst(uint64_t *s, const struct text *t)
{
    for (int tries = 0; tries < 1000; tries++) {
        unsigned i = below(s, t->n);
        if (is_inst(t->l[i]))
            return i;
    }
    return UINT32_MAX;
}

/* Replaces the first occurrence of a token from set (whole dotted word)
 * in line by another token of the same set. */
static int swap_token(uint64_t *s, char **line, const char *const *set, unsigned nset)
{
    for (unsigned k = 0; k < nset; k++) {
        char *p = strstr(*line, set[k]);
        if (!p)
            continue;
        size_t a = strlen(set[k]);
        if (p[a] != '.' && p[a] != ' ' && p[a] != '\t' && p[a] != ';')
            continue;
        const char *to = set[below(s, nset)];
        size_t b = strlen(to), n = strlen(*line);
        char *o = malloc(n - a + b + 1);
        if (!o)
            return -1;
        memcpy(o, *line, (size_t)(p - *line));
        memcpy(o + (p - *line), to, b);
        strcpy(o + (p - *line) + b, p + a);
        free(*line);
        *line = o;
        return 0;
    }
    return 1;
}

static const char *const ops_arith[] = { "add", "sub", "mul", "min", "max", "and", "or", "xor" };
static const char *const ops_cmp[] = { ".lt", ".le", ".gt", ".ge", ".eq", ".ne" };
static const char *const types_32[] = { ".u32", ".s32", ".b32", ".f32" };
static const char *const types_64[] = { ".u64", ".s64", ".b64", ".f64" };
static const char *const spaces[] = { ".global", ".shared", ".local", ".param" };

/* One mutation of t; describes it in what. */
static int mutate(uint64_t *s, struct text *t, char *what, size_t wn)
{
    unsigned i = pick_inst(s, t);
    if (i == UINT32_MAX)
        return -1;
    unsigned kind = below(s, 7);
    snprintf(what, wn, "line %u: ", i + 1);
    size_t o = strlen(what);
    switch (kind) {
    case 0: {   /* swap two comma-separated operands */
        char *l = t->l[i];
        char *c1 = strchr(l, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c1 || !c2)
            return 1;
        char *a = c1 + 1, *b = c2 + 1;
        size_t la = (size_t)(c2 - a), lb = strcspn(b, ",;");
        char *nl = malloc(strlen(l) + 2);
        if (!nl)
            return -1;
        size_t pre = (size_t)(a - l);
        memcpy(nl, l, pre);
        memcpy(nl + pre, b, lb);
        nl[pre + lb] = ',';
        memcpy(nl + pre + lb + 1, a, la);
        strcpy(nl + pre + lb + 1 + la, b + lb);
        free(t->l[i]);
        t->l[i] = nl;
        snprintf(what + o, wn - o, "operands swapped");
        return 0;
    }
    case 1:
        snprintf(what + o, wn - o, "opcode changed");
        return swap_token(s, &t->l[i], ops_arith, 8);
    case 2:
        snprintf(what + o, wn - o, "comparison changed");
        return swap_token(s, &t->l[i], ops_cmp, 6);
    case 3:
        snprintf(what + o, wn - o, "type changed");
        return strstr(t->l[i], "64") ? swap_token(s, &t->l[i], types_64, 4)
                                     : swap_token(s, &t->l[i], types_32, 4);
    case 4:
        snprintf(what + o, wn - o, "state space changed");
        return swap_token(s, &t->l[i], spaces, 4);
    case 5: {   /* delete or duplicate */
        if (below(s, 2)) {
            free(t->l[i]);
            t->l[i] = strdup("\t// deleted");
            snprintf(what + o, wn - o, "instruction deleted");
            return t->l[i] ? 0 : -1;
        }
        char *dup = strdup(t->l[i]);
        if (!dup || text_add(t, "", 0)) {
            free(dup);
            return -1;
        }
        free(t->l[t->n - 1]);              /* the slot text_add opened */
        memmove(&t->l[i + 1], &t->l[i], (t->n - 1 - i) * sizeof *t->l);
        t->l[i] = dup;
        snprintf(what + o, wn - o, "instruction duplicated");
        return 0;
    }
    default: {  /* retarget a branch to another label of the text */
        char *b = strstr(t->l[i], "bra");
        char *lab = b ? strstr(b, "$L") : NULL;
        if (!lab)
            return 1;
        unsigned j = below(s, t->n), k;
        for (k = 0; k < t->n; k++) {
            const char *c = t->l[(j + k) % t->n];
            if (c[0] == '$' && strchr(c, ':'))
                break;
        }
        if (k == t->n)
            return 1;
        const char *c = t->l[(j + k) % t->n];
        size_t ln = strcspn(c, ":");
        size_t old = strcspn(lab, ";");
        char *nl = malloc(strlen(t->l[i]) + ln + 2);
        if (!nl)
            return -1;
        memcpy(nl, t->l[i], (size_t)(lab - t->l[i]));
        memcpy(nl + (lab - t->l[i]), c, ln);
        strcpy(nl + (lab - t->l[i]) + ln, lab + old);
        free(t->l[i]);
        t->l[i] = nl;
        snprintf(what + o, wn - o, "branch retargeted to %.*s", (int)ln, c);
        return 0;
    }
    }
}

/* Memory digest after each launch of one run. */
struct trace { ls_gpu *gpu; uint64_t dig[64]; ls_status st[64]; unsigned n; };

static void on_launch(void *user, const char *kernel, ls_status st, const ls_stats *s)
{
    (void)kernel;
    (void)s;
    struct trace *t = user;
    if (t->n < 64) {
        t->st[t->n] = st;
        if (ls_mem_digest(t->gpu, &t->dig[t->n]) != LS_OK)
            t->dig[t->n] = 0;
        t->n++;
    }
}

/* Runs workload w on text in mode; fills tr; returns the driver's status.
 * clog: commit log path or NULL. */
static int run_mode(const struct workload *w, const char *text, ls_mode mode,
                    struct trace *tr, const char *clog)
{
    memset(tr, 0, sizeof *tr);
    ls_config c;
    ls_config_default(&c);
    c.mode = mode;
    c.commit_log = clog;
    c.max_warp_insts = 200000;
    static const char *const sets[] = { "watchdog_cycles=20000", NULL };
    c.sets = sets;
    char err[512];
    ls_gpu *g = ls_gpu_create(&c, err, sizeof err);
    if (!g)
        return -1;
    tr->gpu = g;
    ls_module *m = NULL;
    int rc;
    if (ls_module_load_text(g, w->name, text, strlen(text), &m) != LS_OK) {
        rc = LS_ERR_PARSE;
    } else {
        struct wl_report rep;
        memset(&rep, 0, sizeof rep);
        rep.on_launch = on_launch;
        rep.user = tr;
        rc = w->run(g, m, WL_SMALL, 1, &rep);
    }
    ls_gpu_destroy(g);
    return rc;
}

/* A log's records grouped per warp: sorted (key, order). */
struct rec { char *key; const char *rest; size_t seq; };

static int rec_cmp(const void *x, const void *y)
{
    const struct rec *a = x, *b = y;
    int c = strcmp(a->key, b->key);
    return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/* Reads log path into a sorted record array (*buf owns the text). */
static struct rec *read_log(const char *path, char **buf, size_t *n)
{
    *n = 0;
    *buf = NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    *buf = malloc((size_t)len + 1);
    size_t got = *buf ? fread(*buf, 1, (size_t)len, f) : 0;
    fclose(f);
    if (!*buf)
        return NULL;
    (*buf)[got] = 0;
    size_t cap = 1024;
    struct rec *r = malloc(cap * sizeof *r);
    for (char *p = *buf; r && *p;) {
        char *nl = strchr(p, '\n');
        if (nl)
            *nl = 0;
        if (*p != '#' && strncmp(p, "launch", 6)) {
            char *sp = p;
            for (int k = 0; k < 3 && sp; k++)
                sp = strchr(sp + (k ? 1 : 0), ' ');
            if (sp) {
                *sp = 0;
                if (*n == cap) {
                    cap *= 2;
                    struct rec *nr = realloc(r, cap * sizeof *nr);
                    if (!nr) {
                        free(r);
                        return NULL;
                    }
                    r = nr;
                }
                r[*n] = (struct rec){ p, sp + 1, *n };
                (*n)++;
            }
        }
        if (!nl)
            break;
        p = nl + 1;
    }
    if (r)
        qsort(r, *n, sizeof *r, rec_cmp);
    return r;
}

/* 1 when every warp's first differing record reads memory (or none
 * differs): an order-dependent outcome; 0 when some warp first differs
 * elsewhere (a model bug); -1 if the logs cannot be read. The op of the
 * first such record goes to why. */
static int order_dependent(const char *pa, const char *pb, char *why, size_t wn)
{
    char *ba, *bb;
    size_t na, nb;
    struct rec *a = read_log(pa, &ba, &na), *b = read_log(pb, &bb, &nb);
    int res = a && b ? 1 : -1;
    size_t i = 0, j = 0;
    while (res == 1 && i < na && j < nb) {
        int c = strcmp(a[i].key, b[j].key);
        if (c) {
            if (c < 0)
                i++;
            else
                j++;
            continue;
        }
        const char *key = a[i].key;
        /* an atom's old value is logged as "=?": it may differ unseen and
         * show first in the instruction that consumes it */
        int atom_read = 0;
        while (i < na && j < nb && !strcmp(a[i].key, key) && !strcmp(b[j].key, key) &&
               !strcmp(a[i].rest, b[j].rest)) {
            atom_read |= strstr(a[i].rest, "=?") != NULL;
            i++;
            j++;
        }
        if (i < na && j < nb && !strcmp(a[i].key, key) && !strcmp(b[j].key, key)) {
            char op[32] = "";
            sscanf(a[i].rest, "%*s %*s %31s", op);
            if (!atom_read && strncmp(op, "ld", 2) && strncmp(op, "atom", 4) &&
                strncmp(op, "tex", 3)) {
                snprintf(why, wn, "warp %s first differs at %.120s", key, a[i].rest);
                res = 0;
            }
        }
        while (i < na && !strcmp(a[i].key, key))
            i++;
        while (j < nb && !strcmp(b[j].key, key))
            j++;
    }
    free(a);
    free(b);
    free(ba);
    free(bb);
    return res;
}

/* One iteration (seed s): mutate, run both modes, classify. Returns 0
 * both completed and agree, 1 a clean status, 2 order-dependent (race),
 * 3 a model disagreement, -1 an internal error. */
static int one_iteration(uint64_t s, const char *only, unsigned nwl, const char *save)
{
    uint64_t st = s;
    const struct workload *w = only ? wl_find(only) : wl_registry[below(&st, nwl)];
    if (!w)
        return -1;
    const struct wl_ptx_blob *b = NULL;
    for (const struct wl_ptx_blob *x = wl_ptx_blobs; x->name; x++)
        if (!strcmp(x->name, w->name))
            b = x;
    if (!b)
        return -1;
    struct text t;
    if (text_split(&t, b->text))
        return -1;
    char what[3][160];
    unsigned nm = 1 + below(&st, 3), done = 0;
    for (unsigned k = 0; k < 20 && done < nm; k++)
        if (mutate(&st, &t, what[done], sizeof what[0]) == 0)
            done++;
    char *text = text_join(&t);
    text_free(&t);
    if (!text)
        return -1;
    printf("seed %llu %s:", (unsigned long long)s, w->name);
    for (unsigned k = 0; k < done; k++)
        printf(" [%s]", what[k]);
    fflush(stdout);
    struct trace a, c;
    int ra = run_mode(w, text, LS_MODE_FUNCTIONAL, &a, NULL);
    int rb = run_mode(w, text, LS_MODE_TIMING, &c, NULL);
    int ok_both = ra == 0 && rb == 0 && a.n == c.n;
    for (unsigned k = 0; ok_both && k < a.n; k++)
        ok_both = a.st[k] == LS_OK && c.st[k] == LS_OK;
    int differ = 0;
    for (unsigned k = 0; ok_both && k < a.n; k++)
        differ |= a.dig[k] != c.dig[k];
    printf(" -> %s / %s", ls_status_name((ls_status)(ra < 0 ? LS_ERR_INVALID : ra)),
           ls_status_name((ls_status)(rb < 0 ? LS_ERR_INVALID : rb)));
    int is_bug = 0;
    if (differ) {
        char pa[600], pb[600], why[256] = "";
        const char *tmp = getenv("TMPDIR");
        snprintf(pa, sizeof pa, "%s/fuzz_run-%llu.f.log", tmp ? tmp : "/tmp",
                 (unsigned long long)s);
        snprintf(pb, sizeof pb, "%s/fuzz_run-%llu.t.log", tmp ? tmp : "/tmp",
                 (unsigned long long)s);
        struct trace x;
        run_mode(w, text, LS_MODE_FUNCTIONAL, &x, pa);
        run_mode(w, text, LS_MODE_TIMING, &x, pb);
        int od = order_dependent(pa, pb, why, sizeof why);
        remove(pa);
        remove(pb);
        if (od == 1) {
            printf("  memory differs: order-dependent (every warp's first difference "
                   "reads memory or an atom's old value: a race the mutation made)");
        } else {
            is_bug = 1;
            printf("  MEMORY DIFFERS between modes: %s", od < 0 ? "logs unreadable" : why);
        }
    }
    printf("\n");
    if (is_bug) {
        if (save) {
            char p[512];
            snprintf(p, sizeof p, "%s/%s-seed%llu.ptx", save, w->name,
                     (unsigned long long)s);
            FILE *f = fopen(p, "w");
            if (f) {
                fputs(text, f);
                fclose(f);
            }
        }
    }
    free(text);
    fflush(stdout);
    return is_bug ? 3 : differ ? 2 : ok_both ? 0 : 1;
}

int main(int argc, char **argv)
{
    unsigned iters = 100;
    uint64_t seed = 1;
    const char *only = NULL, *save = NULL;
    unsigned limit_s = 60;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--iters") && i + 1 < argc)
            iters = (unsigned)strtoul(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--save") && i + 1 < argc)
            save = argv[++i];
        else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
            limit_s = (unsigned)strtoul(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: fuzz_run [--iters N] [--seed S] [--only WORKLOAD] "
                    "[--save DIR] [--time-limit SEC]\n");
            return 2;
        }
    }
    unsigned nwl = 0;
    while (wl_registry[nwl])
        nwl++;
    unsigned bad = 0, both_ok = 0, clean = 0, races = 0;
    for (unsigned it = 0; it < iters; it++) {
        uint64_t s = seed + it;
        /* each iteration in a child: a crash or sanitizer abort is
         * reported with its seed and the run goes on; a driver that keeps
         * launching (bfs repeats until nothing changes) is stopped at the
         * time limit, a clean outcome */
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0)
            _exit(one_iteration(s, only, nwl, save) & 0xff);
        int status = 0, done = 0;
        for (unsigned ms = 0; pid > 0 && ms < limit_s * 1000u; ms += 10) {
            if (waitpid(pid, &status, WNOHANG) == pid) {
                done = 1;
                break;
            }
            struct timespec ts = { 0, 10000000 };
            nanosleep(&ts, NULL);
        }
        if (pid > 0 && !done) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            printf(" -> time limit of %u s (the driver kept launching)\n", limit_s);
            clean++;
            continue;
        }
        int rc = pid < 0 ? -1 : WIFEXITED(status) ? (int)(signed char)WEXITSTATUS(status) : -2;
        if (rc == -2)
            printf("\nseed %llu: CRASH (signal %d): fuzz_run --iters 1 --seed %llu reproduces it\n",
                   (unsigned long long)s, WTERMSIG(status), (unsigned long long)s);
        if (rc < 0 || rc == 3)
            bad++;
        else if (rc == 2)
            races++, both_ok++;
        else if (rc == 1)
            clean++;
        else
            both_ok++;
    }
    printf("fuzz_run: %u iterations: %u ran to completion in both modes (%u of them "
           "order-dependent: races), %u ended in a clean status; %u model disagreements\n",
           iters, both_ok, races, clean, bad);
    printf("fuzz_run: %u passed, %u failed\n", iters - bad, bad);
    return bad ? 1 : 0;
}
