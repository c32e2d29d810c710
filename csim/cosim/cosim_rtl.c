/* The rtl backend of the seam: builds the Verilated model of a block for
 * exactly the parameters the run gives it (tb/vl-so.sh, cached under
 * build/vl-so/ of the source tree) and loads it with dlopen, so the CLI
 * stays a plain C program that needs no C++ unless RTL is in the loop. */
#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>
#include "cosim/cosim.h"

extern char **environ;

/* The extern "C" entry points of tb/vl_glue.cpp, resolved by name. */
struct cosim_lib {
    struct cosim_lib *next;
    char so[COSIM_PATH + 512];
    void *dl;
    void *(*vl_new)(const struct ls_port *, int, int, const char **, int);
    void (*vl_reset)(void *);
    void (*vl_step)(void *, const void *, void *);
    void (*vl_trace)(void *, const char *);
    void (*vl_free)(void *);
};

#define ERR COSIM_ERR

/* Seconds on the monotonic clock. */
double cosim_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void mkdirs(const char *path)
{
    char d[COSIM_PATH + 256];
    snprintf(d, sizeof d, "%s", path);
    for (char *p = d + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(d, 0777);
            *p = '/';
        }
    mkdir(d, 0777);
}

/* FNV-1a of a string (the cache directory of a user's RTL file). */
uint64_t cosim_fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

unsigned cosim_cache_key(const struct cosim_env *env,
                         const struct cosim_desc *d, const void *cfg,
                         const char *rtl_file, const char *sub, char *dir,
                         size_t dn, char *pdesc, size_t pn,
                         char gp[][48])
{
    int k = snprintf(dir, dn, "%s/build/%s/%s", env->root, sub, d->name);
    size_t po = 0;
    unsigned np = 0;
    for (; d->params[np]; np++) {
        long v = d->get_param(cfg, np);
        k += snprintf(dir + k, dn - (size_t)k, "_%s%ld", d->params[np], v);
        snprintf(gp[np], 48, "-G%s=%ld", d->params[np], v);
        po += (size_t)snprintf(pdesc + po, pn - po, " %s=%ld",
                               d->params[np], v);
    }
    if (rtl_file)
        snprintf(dir + k, dn - (size_t)k, "_u%016llx",
                 (unsigned long long)cosim_fnv(rtl_file));
    return np;
}

/* The last lines of a log file into err (after what is already there). */
void cosim_log_tail(const char *log, char *err, size_t n)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    char buf[4096];
    size_t got = 0;
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        long from = sz > (long)sizeof buf - 1 ? sz - (long)sizeof buf + 1 : 0;
        if (fseek(f, from, SEEK_SET) == 0)
            got = fread(buf, 1, sizeof buf - 1, f);
    }
    fclose(f);
    buf[got] = 0;
    while (got && (buf[got - 1] == '\n' || buf[got - 1] == ' '))
        buf[--got] = 0;
    size_t l = strlen(err);
    if (l + 2 < n)
        snprintf(err + l, n - l, "\n%s", buf);
}

/* Runs bash with argv, stdout and stderr to log, stdin from /dev/null;
 * returns its exit status (-1 if it could not run). */
int cosim_spawn_log(char *const argv[], const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int e = posix_spawnp(&pid, "bash", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e != 0)
        return -1;
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const struct cosim_lib *load(struct cosim_env *env, const char *so,
                                    const char *blk, char *err, size_t n)
{
    for (struct cosim_lib *l = env->libs; l; l = l->next)
        if (!strcmp(l->so, so))
            return l;
    struct cosim_lib *l = calloc(1, sizeof *l);
    if (!l) {
        ERR(err, n, "host memory exhausted");
        return NULL;
    }
    snprintf(l->so, sizeof l->so, "%s", so);
    l->dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!l->dl) {
        ERR(err, n, "cannot load the Verilated %s model: %s", blk, dlerror());
        free(l);
        return NULL;
    }
    char sym[64];
#define SYM(field, suffix)                                              \
    snprintf(sym, sizeof sym, "%s_vl_%s", blk, suffix);                 \
    *(void **)&l->field = dlsym(l->dl, sym);                            \
    if (!l->field) {                                                    \
        ERR(err, n, "%s: no symbol %s (rebuild with tb/vl-so.sh)", so, sym); \
        dlclose(l->dl);                                                 \
        free(l);                                                        \
        return NULL;                                                    \
    }
    SYM(vl_new, "new")
    SYM(vl_reset, "reset")
    SYM(vl_step, "step")
    SYM(vl_trace, "trace")
    SYM(vl_free, "free")
#undef SYM
    l->next = env->libs;
    env->libs = l;
    return l;
}

/* Runs tb/vl-so.sh (argv) for model so in dir; prints the "verilating"
 * line when the model did not exist. Returns 0 or -1 with err. */
static int build_model(const struct cosim_desc *d, const char *rtl_file,
                       const char *pdesc, const char *dir, const char *so,
                       char *const argv[], char *err, size_t n)
{
    struct stat sb;
    char log[COSIM_PATH + 300], lock[COSIM_PATH + 300];
    snprintf(log, sizeof log, "%s/spawn.log", dir);
    snprintf(lock, sizeof lock, "%s/.open.lock", dir);
    mkdirs(dir);
    /* one process at a time checks, builds and says so (workers of one
     * run, or runs side by side): the others wait here and find the model
     * built (tb/vl-so.sh holds its own lock, .lock, while it builds) */
    int lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (lfd >= 0)
        while (flock(lfd, LOCK_EX) != 0 && errno == EINTR)
            ;
    int fresh = stat(so, &sb) != 0;
    if (fresh) {
        fprintf(stderr, "lockstep: verilating %s%s (%s%s%s) ...", d->name, pdesc,
                rtl_file ? rtl_file : "rtl/", rtl_file ? "" : d->name,
                rtl_file ? "" : ".v");
        fflush(stderr);
    }
    double t0 = cosim_now_s();
    int rc = cosim_spawn_log(argv, log);
    if (fresh)
        fprintf(stderr, rc == 0 ? " %.0f s\n" : " failed\n", cosim_now_s() - t0);
    if (lfd >= 0)
        close(lfd);      /* releases the lock */
    if (rc == 2) {
        ERR(err, n, "the %s RTL does not match the block's port list "
            "(shared spec blocks.md; csim/blocks/%s_ports.def):", d->name, d->name);
        cosim_log_tail(log, err, n);
        return -1;
    }
    if (rc != 0) {
        ERR(err, n, "building the Verilated %s model failed (exit %d; log %s/build.log):",
            d->name, rc, dir);
        cosim_log_tail(log, err, n);
        return -1;
    }
    return 0;
}

int cosim_rtl_open(struct cosim_env *env, const struct cosim_desc *d,
                   const void *cfg, const char *rtl_file,
                   const struct ls_port *ports, int nports, int fst_ever,
                   void **vl, const struct cosim_lib **lib, char *err,
                   size_t n)
{
    *vl = NULL;
    *lib = NULL;
    char rtl[COSIM_PATH + 64], script[COSIM_PATH + 64];
    snprintf(script, sizeof script, "%s/tb/vl-so.sh", env->root);
    if (rtl_file)
        snprintf(rtl, sizeof rtl, "%s", rtl_file);
    else
        snprintf(rtl, sizeof rtl, "%s/rtl/%s.v", env->root, d->name);
    struct stat sb;
    if (stat(script, &sb) != 0 || stat(rtl, &sb) != 0) {
        ERR(err, n, "the %s RTL backend needs the Lockstep source tree "
            "(tb/vl-so.sh, rtl/%s.v), not found under %s: set LOCKSTEP_ROOT "
            "to the tree's top directory", d->name, d->name, env->root);
        return -1;
    }
    /* cache key: block, parameters, and the user's file (if any) */
    char dir[COSIM_PATH + 256], pdesc[256] = "", gp[COSIM_MAX_PARAMS][48];
    unsigned np = cosim_cache_key(env, d, cfg, rtl_file, "vl-so", dir,
                                  sizeof dir, pdesc, sizeof pdesc, gp);
    char portlist[2048];
    size_t o = 0;
    for (int i = 0; i < nports && o < sizeof portlist; i++)
        o += (size_t)snprintf(portlist + o, sizeof portlist - o, "%s%s:%s:%u",
                              i ? "," : "", ports[i].name,
                              ports[i].is_out ? "out" : "in",
                              ports[i].bits * ports[i].count);
    char so[COSIM_PATH + 300];
    snprintf(so, sizeof so, "%s/lib%s.so", dir, d->name);
    /* loaded (so checked and built) earlier in this GPU: no rebuild check */
    const struct cosim_lib *l = NULL;
    for (const struct cosim_lib *x = env->libs; x; x = x->next)
        if (!strcmp(x->so, so))
            l = x;
    if (!l) {
        char *argv[8 + COSIM_MAX_PARAMS];
        int a = 0;
        argv[a++] = (char *)"bash";
        argv[a++] = script;
        argv[a++] = (char *)d->name;
        argv[a++] = dir;
        argv[a++] = rtl;
        argv[a++] = portlist;
        for (unsigned i = 0; i < np; i++)
            argv[a++] = gp[i];
        argv[a] = NULL;
        if (build_model(d, rtl_file, pdesc, dir, so, argv, err, n) != 0)
            return -1;
        l = load(env, so, d->name, err, n);
        if (!l)
            return -1;
    }
    char seed[64];
    snprintf(seed, sizeof seed, "+verilator+seed+1");
    const char *plus[2] = { "lockstep", seed };
    *vl = l->vl_new(ports, nports, 2, plus, fst_ever);
    if (!*vl) {
        ERR(err, n, "the Verilated %s model could not be created", d->name);
        return -1;
    }
    *lib = l;
    return 0;
}

void cosim_rtl_reset(const struct cosim_lib *lib, void *vl)
{
    lib->vl_reset(vl);
}

void cosim_rtl_step(const struct cosim_lib *lib, void *vl, const void *in,
                    void *out)
{
    lib->vl_step(vl, in, out);
}

void cosim_rtl_trace(const struct cosim_lib *lib, void *vl, const char *fst)
{
    lib->vl_trace(vl, fst);
}

void cosim_rtl_free(const struct cosim_lib *lib, void *vl)
{
    lib->vl_free(vl);
}

void cosim_env_fini(struct cosim_env *env)
{
    struct cosim_lib *l = env->libs;
    while (l) {
        struct cosim_lib *nx = l->next;
        dlclose(l->dl);
        free(l);
        l = nx;
    }
    env->libs = NULL;
}
