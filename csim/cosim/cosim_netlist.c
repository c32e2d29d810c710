/* The netlist backend's source: the gate-level netlist of a block for
 * exactly the parameters the run gives it, synthesised on demand by
 * synth/netlist.sh (the flow of make synth's area figures, mapped to the
 * NAND2-equivalent library, with the cells' simulation models appended)
 * and cached under build/netlist/ of the source tree. The netlist is then
 * one more Verilog file for the rtl backend's machinery (cosim_rtl.c) to
 * Verilate and load; cosim_create compares it with the C model every
 * stepped edge, as under lockstep. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cosim/cosim.h"

extern char **environ;

#define ERR COSIM_ERR

/* FNV-1a of a string (the directory of a user's RTL file's netlist). */
static uint64_t fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs argv with stdout and stderr to log; returns the exit status (-1 if
 * it could not run). */
static int spawn_log(char *const argv[], const char *log)
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

/* The last lines of log into err (after what is there). */
static void log_tail(const char *log, char *err, size_t n)
{
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    char buf[2048];
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

int cosim_netlist_path(struct cosim_env *env, const struct cosim_desc *d,
                       const void *cfg, const char *rtl_file, int build,
                       char *path, size_t pn, char *err, size_t n)
{
    char dir[COSIM_PATH + 256], pdesc[256] = "", gp[COSIM_MAX_PARAMS][48];
    int k = snprintf(dir, sizeof dir, "%s/build/netlist/%s", env->root, d->name);
    size_t po = 0;
    unsigned np = 0;
    for (; d->params[np]; np++) {
        long v = d->get_param(cfg, np);
        k += snprintf(dir + k, sizeof dir - (size_t)k, "_%s%ld", d->params[np], v);
        snprintf(gp[np], sizeof gp[np], "-G%s=%ld", d->params[np], v);
        po += (size_t)snprintf(pdesc + po, sizeof pdesc - po, " %s=%ld",
                               d->params[np], v);
    }
    if (rtl_file)
        snprintf(dir + k, sizeof dir - (size_t)k, "_u%016llx",
                 (unsigned long long)fnv(rtl_file));
    if ((size_t)snprintf(path, pn, "%s/%s.v", dir, d->name) >= pn) {
        ERR(err, n, "netlist path of %s too long", d->name);
        return -1;
    }
    if (!build || !strcmp(env->netlist[d->id], path))
        return 0;
    char script[COSIM_PATH + 64], rtl[COSIM_PATH + 64], log[COSIM_PATH + 300];
    snprintf(script, sizeof script, "%s/synth/netlist.sh", env->root);
    struct stat sb;
    if (stat(script, &sb) != 0) {
        ERR(err, n, "the %s netlist backend needs the Lockstep source tree "
            "(synth/netlist.sh, rtl/%s.v), not found under %s: set LOCKSTEP_ROOT "
            "to the tree's top directory", d->name, d->name, env->root);
        return -1;
    }
    /* mkdir -p dir: the log goes there */
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0777);
            *p = '/';
        }
    mkdir(dir, 0777);
    snprintf(log, sizeof log, "%s/spawn.log", dir);
    char *argv[8 + COSIM_MAX_PARAMS];
    int a = 0;
    argv[a++] = (char *)"bash";
    argv[a++] = script;
    argv[a++] = (char *)d->name;
    argv[a++] = dir;
    for (unsigned i = 0; i < np; i++)
        argv[a++] = gp[i];
    if (rtl_file) {
        snprintf(rtl, sizeof rtl, "%s", rtl_file);
        argv[a++] = (char *)"--rtl";
        argv[a++] = rtl;
    }
    argv[a] = NULL;
    int fresh = stat(path, &sb) != 0;
    if (fresh) {
        fprintf(stderr, "lockstep: synthesising %s%s (%s%s%s) to gates ...", d->name,
                pdesc, rtl_file ? rtl_file : "rtl/", rtl_file ? "" : d->name,
                rtl_file ? "" : ".v");
        fflush(stderr);
    }
    double t0 = now_s();
    int rc = spawn_log(argv, log);
    if (fresh)
        fprintf(stderr, rc == 0 ? " %.0f s\n" : " failed\n", now_s() - t0);
    if (rc != 0) {
        ERR(err, n, "synthesising the %s netlist failed (exit %d; log %s/yosys.log):",
            d->name, rc, dir);
        log_tail(log, err, n);
        return -1;
    }
    snprintf(env->netlist[d->id], COSIM_PATH, "%s", path);
    return 0;
}
