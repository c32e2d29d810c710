/* The functional coverage of a block's standalone testbench: the stimulus
 * of tb/<blk>_tb.c (its directed cases, then the seeded random runs of
 * make test-blocks) applied to the C model, every edge classified by the
 * seam's observer (csim/cosim/cosim_cover.c). The outputs the observer sees
 * are the C model's, which the lockstep testbench proves equal to the
 * RTL's on the same stimulus. Compiled once per block and parameter set
 * by tests/coverage/tb-cover.sh with the -D's of tb/tb_main.c.
 *   cover_tb OUT.txt SEED:CYCLES:RANDRESET...
 * OUT.txt gets one line per bin of the block: "<blk> <bin> <count>". */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lockstep.h"
#include "cosim/cosim_cover.h"
#include "tb/lockstep.h"
#include BLK_HDR

#define BLK_STR_(x) #x
#define BLK_STR(x) BLK_STR_(x)
#define BLK_CAT_(a, b) a##b
#define BLK_CAT(a, b) BLK_CAT_(a, b)
#define BLK_FN(x) BLK_CAT(BLK, x)

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

/* The checker's second model: the C model again, watched by the observer
 * (the checker compares it with the first, so every edge goes through). */
struct watched {
    blk_state st;
    struct cosim_cover cv;
};

static void cm_reset(void *cm)
{
    BLK_FN(_reset)((blk_state *)cm);
}

static void cm_step(void *cm, const void *in, void *out)
{
    BLK_FN(_step)((blk_state *)cm, (const blk_in *)in, (blk_out *)out);
}

static void w_reset(void *p)
{
    struct watched *w = p;
    BLK_FN(_reset)(&w->st);
    cosim_cover_reset(&w->cv);
}

static void w_step(void *p, const void *in, void *out)
{
    struct watched *w = p;
    BLK_FN(_step)(&w->st, (const blk_in *)in, (blk_out *)out);
    cosim_cover_edge(&w->cv, in, out);
}

static void w_trace(void *p, const char *path)
{
    (void)p;
    (void)path;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUT.txt SEED:CYCLES:RANDRESET...\n", argv[0]);
        return 2;
    }
    blk_cfg cfg = BLK_FN(_cfg_default)();
    char gp[512];
    snprintf(gp, sizeof gp, "%s", TB_GPARAMS);
    for (char *tok = strtok(gp, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (strncmp(tok, "-G", 2) || !eq)
            continue;
        *eq = 0;
        if (BLK_FN(_tb_param)(&cfg, tok + 2, strtol(eq + 1, NULL, 0))) {
            fprintf(stderr, "%s: bad parameter %s\n", BLK_STR(BLK), tok + 2);
            return 2;
        }
    }
    static blk_state st;
    static struct watched w;
    if (BLK_FN(_init)(&st, &cfg) || BLK_FN(_init)(&w.st, &cfg)) {
        fprintf(stderr, "%s: bad parameters %s\n", BLK_STR(BLK), TB_GPARAMS);
        return 2;
    }
    int blk = cosim_cover_block_id(BLK_STR(BLK));
    if (blk < 0) {
        fprintf(stderr, "%s: no coverage bins (csim/cosim/cosim_cover.def)\n", BLK_STR(BLK));
        return 2;
    }
    static uint64_t count[COV_COUNT];
    cosim_cover_init(&w.cv, blk, &cfg, count);

    static struct ls_port ports[LS_MAX_PORTS];
    int np = 0;
#define PORT_IN(nm, b, c) \
    ports[np] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(blk_in, nm)}; np++;
#define PORT_OUT(nm, b, c) \
    ports[np] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(blk_out, nm)}; np++;
#include BLK_DEF
#undef PORT_IN
#undef PORT_OUT
    for (int i = 0; i < np; i++)
        BLK_FN(_tb_dims)(&cfg, ports[i].name, &ports[i].bits, &ports[i].count);

    static struct ls_ctx ls;
    ls.blk = BLK_STR(BLK);
    ls.set = TB_SET;
    ls.ports = ports;
    ls.nports = np;
    ls.in_size = sizeof(blk_in);
    ls.out_size = sizeof(blk_out);
    ls.quiet = 1;
    ls.argv = argv;
    ls.m = (struct ls_models){ &st, &w, cm_reset, cm_step, w_reset, w_step, w_trace };
    ls.directed = 1;
    ls_reset(&ls);
    if (BLK_FN(_tb_directed)(&ls, &cfg)) {
        fprintf(stderr, "%s %s: a directed case failed on the C model\n", ls.blk, ls.set);
        return 1;
    }
    ls.directed = 0;
    for (int a = 2; a < argc; a++) {
        unsigned long long seed, cycles;
        int rr;
        if (sscanf(argv[a], "%llu:%llu:%d", &seed, &cycles, &rr) != 3 || !seed) {
            fprintf(stderr, "bad run '%s' (SEED:CYCLES:RANDRESET)\n", argv[a]);
            return 2;
        }
        struct tb_rng r;
        static blk_in in;
        static blk_out out;
        tb_rng_init(&r, seed);
        memset(&out, 0, sizeof out);
        ls.seed = seed;
        ls.cycles = cycles;
        ls_reset(&ls);
        for (uint64_t c = 0; c < cycles; c++) {
            r.cycle = c;
            memset(&in, 0, sizeof in);
            BLK_FN(_tb_stim)(&r, &cfg, &out, &in);
            ls_step(&ls, &in, &out);
        }
    }
    ls_finish(&ls);
    FILE *f = fopen(argv[1], "w");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    for (unsigned i = 0; i < COV_COUNT; i++)
        if (cosim_cover_block(i) == blk)
            fprintf(f, "%s %s %llu\n", ls.blk, cosim_cover_name(i),
                    (unsigned long long)count[i]);
    return fclose(f) ? 1 : 0;
}
