/* Generic standalone lockstep test driver, compiled once per block and
 * parameter set with -DBLK=<blk> -DBLK_HDR="blocks/<blk>.h"
 * -DBLK_DEF="blocks/<blk>_ports.def" -DTB_SET="<set>" -DTB_GPARAMS="-G.."
 * -DTB_BUILD="<the tb/vl-build.sh command that built this binary>".
 * Command line: see tb/README.md. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lockstep.h"
#include "vl_glue.h"
#include BLK_HDR

#define BLK_STR_(x) #x
#define BLK_STR(x) BLK_STR_(x)

typedef struct BLK_FN(_cfg) blk_cfg;
typedef struct BLK_FN(_in) blk_in;
typedef struct BLK_FN(_out) blk_out;
typedef struct BLK_FN(_state) blk_state;

/* Hooks of tb/<blk>_tb.c (tb/README.md). */
int BLK_FN(_tb_param)(blk_cfg *cfg, const char *name, long value);
void BLK_FN(_tb_dims)(const blk_cfg *cfg, const char *name, unsigned *bits,
                      unsigned *count);
void BLK_FN(_tb_stim)(struct tb_rng *r, const blk_cfg *cfg,
                      const blk_out *prev, blk_in *in);
int BLK_FN(_tb_directed)(struct ls_ctx *ls, const blk_cfg *cfg);

static void cm_reset(void *cm)
{
    BLK_FN(_reset)((blk_state *)cm);
}

static void cm_step(void *cm, const void *in, void *out)
{
    BLK_FN(_step)((blk_state *)cm, (const blk_in *)in, (blk_out *)out);
}

static int build_ports(const blk_cfg *cfg, struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(blk_in, nm)}; n++;
#define PORT_OUT(nm, b, c) \
    p[n] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(blk_out, nm)}; n++;
#include BLK_DEF
#undef PORT_IN
#undef PORT_OUT
    for (int i = 0; i < n; i++) {
        BLK_FN(_tb_dims)(cfg, p[i].name, &p[i].bits, &p[i].count);
        if (p[i].bits < 1 || p[i].bits > 32 || p[i].count < 1 ||
            p[i].count > p[i].max_count) {
            fprintf(stderr, "%s: port %s: bad dims %u x %u\n",
                    BLK_STR(BLK), p[i].name, p[i].bits, p[i].count);
            return -1;
        }
    }
    return n;
}

/* Applies "-GNAME=value ..." to cfg. */
static int apply_gparams(blk_cfg *cfg, const char *gp)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", gp);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        if (strncmp(tok, "-G", 2) != 0)
            continue;
        char *eq = strchr(tok, '=');
        if (!eq)
            return -1;
        *eq = 0;
        errno = 0;
        long v = strtol(eq + 1, NULL, 0);
        if (errno || BLK_FN(_tb_param)(cfg, tok + 2, v) != 0) {
            fprintf(stderr, "unknown or bad parameter %s\n", tok + 2);
            return -1;
        }
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void)
{
    fprintf(stderr, "usage: tb --seed S [--cycles N] [--directed] "
                    "[--rand-reset R] [--fst FILE --window A:B] [--bench] "
                    "[--coverage FILE] [--quiet]\n");
}

int main(int argc, char **argv)
{
    uint64_t seed = 0, cycles = 100000, win_a = 0, win_b = UINT64_MAX;
    int directed = 0, rand_reset = 0, bench = 0, quiet = 0;
    const char *fst = NULL, *cov = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--seed") && v) {
            seed = strtoull(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--cycles") && v) {
            cycles = strtoull(v, NULL, 0);
            i++;
        } else if (!strcmp(a, "--rand-reset") && v) {
            rand_reset = atoi(v);
            i++;
        } else if (!strcmp(a, "--fst") && v) {
            fst = v;
            i++;
        } else if (!strcmp(a, "--coverage") && v) {
            cov = v;
            i++;
        } else if (!strcmp(a, "--window") && v) {
            if (sscanf(v, "%" SCNu64 ":%" SCNu64, &win_a, &win_b) != 2) {
                usage();
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--directed")) {
            directed = 1;
        } else if (!strcmp(a, "--bench")) {
            bench = 1;
        } else if (!strcmp(a, "--quiet")) {
            quiet = 1;
        } else {
            usage();
            return 2;
        }
    }
    if (seed == 0) {
        fprintf(stderr, "an explicit non-zero --seed is required\n");
        usage();
        return 2;
    }
    printf("seed %" PRIu64 "\n", seed);

    blk_cfg cfg = BLK_FN(_cfg_default)();
    if (apply_gparams(&cfg, TB_GPARAMS) != 0)
        return 2;
    static blk_state st;
    if (BLK_FN(_init)(&st, &cfg) != 0) {
        fprintf(stderr, "%s: bad parameters %s\n", BLK_STR(BLK), TB_GPARAMS);
        return 2;
    }
    static struct ls_port ports[LS_MAX_PORTS];
    int np = build_ports(&cfg, ports);
    if (np < 0 || sizeof(blk_in) > 1024 || sizeof(blk_out) > 1024)
        return 2;

    char seedarg[64], rrarg[64];
    snprintf(seedarg, sizeof seedarg, "+verilator+seed+%" PRIu64,
             (seed % 2147483646u) + 1);
    snprintf(rrarg, sizeof rrarg, "+verilator+rand+reset+%d", rand_reset);
    const char *plus[] = {"tb", seedarg, rrarg};
    void *vl = BLK_FN(_vl_new)(ports, np, 3, plus, fst != NULL);

    static struct ls_ctx ls;
    ls.blk = BLK_STR(BLK);
    ls.set = TB_SET;
    ls.seed = seed;
    ls.rand_reset = rand_reset;
    ls.cycles = cycles;
    ls.directed = directed;
    ls.ports = ports;
    ls.nports = np;
    ls.in_size = sizeof(blk_in);
    ls.out_size = sizeof(blk_out);
    ls.m = (struct ls_models){&st, vl, cm_reset, cm_step,
                              BLK_FN(_vl_reset), BLK_FN(_vl_step),
                              BLK_FN(_vl_trace)};
    ls.fst = fst;
    ls.win_a = win_a;
    ls.win_b = win_b;
    ls.quiet = quiet;
    ls.argv = argv;
    snprintf(ls.replay, sizeof ls.replay,
             "%s && %s --seed %" PRIu64 " --cycles %" PRIu64
             "%s --rand-reset %d", TB_BUILD, argv[0], seed, cycles,
             directed ? " --directed" : "", rand_reset);

    int rc = 0;
    double t0 = now_s();
    if (directed) {
        ls_reset(&ls);
        int fails = BLK_FN(_tb_directed)(&ls, &cfg);
        if (fails) {
            printf("FAIL %s %s directed: %d expectation(s) failed\n",
                   ls.blk, ls.set, fails);
            printf("replay: %s\n", ls.replay);
            rc = 1;
        } else if (!quiet) {
            printf("ok %s %s directed (%" PRIu64 " cycles)\n", ls.blk,
                   ls.set, ls.cycle);
        }
    } else {
        struct tb_rng r;
        static blk_in in;
        static blk_out out;
        tb_rng_init(&r, seed);
        memset(&out, 0, sizeof out);
        ls_reset(&ls);
        for (uint64_t c = 0; c < cycles; c++) {
            r.cycle = c;
            memset(&in, 0, sizeof in);
            BLK_FN(_tb_stim)(&r, &cfg, &out, &in);
            ls_step(&ls, &in, &out);
        }
        double t1 = now_s();
        if (!quiet)
            printf("ok %s %s seed=%" PRIu64 " cycles=%" PRIu64
                   " rand-reset=%d\n", ls.blk, ls.set, seed, cycles,
                   rand_reset);
        if (bench) {
            /* the C model alone on the same stimulus */
            static blk_state st2;
            BLK_FN(_init)(&st2, &cfg);
            BLK_FN(_reset)(&st2);
            tb_rng_init(&r, seed);
            memset(&out, 0, sizeof out);
            double t2 = now_s();
            for (uint64_t c = 0; c < cycles; c++) {
                r.cycle = c;
                memset(&in, 0, sizeof in);
                BLK_FN(_tb_stim)(&r, &cfg, &out, &in);
                BLK_FN(_step)(&st2, &in, &out);
            }
            double t3 = now_s();
            printf("bench %s %s lockstep_cps %.0f cmodel_cps %.0f\n",
                   ls.blk, ls.set, (double)cycles / (t1 - t0),
                   (double)cycles / (t3 - t2));
        }
    }
    ls_finish(&ls);
    if (cov)
        BLK_FN(_vl_coverage)(vl, cov);
    BLK_FN(_vl_free)(vl);
    return rc;
}
