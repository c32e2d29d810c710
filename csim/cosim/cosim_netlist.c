/* The netlist backend's source: the gate-level netlist of a block for
 * exactly the parameters the run gives it, synthesised on demand by
 * synth/netlist.sh (the flow of make synth's area figures, mapped to the
 * NAND2-equivalent library, with the cells' simulation models appended)
 * and cached under build/netlist/ of the source tree. The netlist is then
 * one more Verilog file for the rtl backend's machinery (cosim_rtl.c) to
 * Verilate and load; cosim_create compares it with the C model every
 * stepped edge, as under lockstep. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cosim/cosim.h"

#define ERR COSIM_ERR

int cosim_netlist_path(struct cosim_env *env, const struct cosim_desc *d,
                       const void *cfg, const char *rtl_file, int build,
                       char *path, size_t pn, char *err, size_t n)
{
    char dir[COSIM_PATH + 256], pdesc[256] = "", gp[COSIM_MAX_PARAMS][48];
    unsigned np = cosim_cache_key(env, d, cfg, rtl_file, "netlist", dir,
                                  sizeof dir, pdesc, sizeof pdesc, gp);
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
    double t0 = cosim_now_s();
    int rc = cosim_spawn_log(argv, log);
    if (fresh)
        fprintf(stderr, rc == 0 ? " %.0f s\n" : " failed\n", cosim_now_s() - t0);
    if (rc != 0) {
        ERR(err, n, "synthesising the %s netlist failed (exit %d; log %s/yosys.log):",
            d->name, rc, dir);
        cosim_log_tail(log, err, n);
        return -1;
    }
    snprintf(env->netlist[d->id], COSIM_PATH, "%s", path);
    return 0;
}
