/* Machine options (--mode, --config, --set, --cosim, --backend, --rtl,
 * --cosim-continue) and `lockstep config --dump`. */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "api/api_int.h"

/* Value of option name at argv[*i] ("--name V" or "--name=V"), advancing *i
 * past a separate value; NULL when argv[*i] is not that option. *missing is
 * set when the option is there without a value. */
static const char *opt_value(const char *name, int argc, char **argv, int *i,
                             int *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n))
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n])
        return NULL;
    if (*i + 1 >= argc) {
        *missing = 1;
        return "";
    }
    return argv[++*i];
}

int cli_machine_alloc(struct cli_machine *m, int argc)
{
    memset(m, 0, sizeof *m);
    m->mode = -1;
    m->sets = calloc((size_t)argc + CLI_EXTRA_SETS + 1, sizeof *m->sets);
    m->rtl = calloc((size_t)argc + 1, sizeof *m->rtl);
    if (!m->sets || !m->rtl) {
        cli_machine_free(m);
        return -1;
    }
    return 0;
}

void cli_machine_free(struct cli_machine *m)
{
    free(m->sets);
    free(m->rtl);
    m->sets = NULL;
    m->rtl = NULL;
}

/* Parses a --cosim list into m->cosim. Returns 0 or prints why and -1. */
static int parse_cosim(struct cli_machine *m, const char *v, const char *cmd)
{
    char err[512];
    m->cosim_given = 1;
    if (api_cosim_select(v, m->cosim, err, sizeof err)) {
        fprintf(stderr, "lockstep: %s: --cosim: %s\n", cmd, err);
        return -1;
    }
    return 0;
}

int cli_machine_opt(struct cli_machine *m, int argc, char **argv, int *i,
                    const char *cmd)
{
    int missing = 0;
    const char *v;
    if ((v = opt_value("--cosim", argc, argv, i, &missing))) {
        if (missing || !*v) {
            fprintf(stderr, "lockstep: %s: --cosim needs a block list "
                    "(slp,... or all or none)\n", cmd);
            return CLI_USAGE + 1;
        }
        return parse_cosim(m, v, cmd) ? CLI_USAGE + 1 : 1;
    }
    if ((v = opt_value("--backend", argc, argv, i, &missing))) {
        if (missing || (strcmp(v, "c") && strcmp(v, "rtl") && strcmp(v, "lockstep") &&
                        strcmp(v, "netlist"))) {
            fprintf(stderr, "lockstep: %s: --backend needs c, rtl, lockstep or netlist\n",
                    cmd);
            return CLI_USAGE + 1;
        }
        m->backend = v;
        return 1;
    }
    if ((v = opt_value("--rtl", argc, argv, i, &missing))) {
        if (missing || !strchr(v, '=')) {
            fprintf(stderr, "lockstep: %s: --rtl needs BLOCK=FILE.v "
                    "(e.g. --rtl slp=my_slp.v)\n", cmd);
            return CLI_USAGE + 1;
        }
        m->rtl[m->nrtl++] = v;
        m->rtl[m->nrtl] = NULL;
        return 1;
    }
    if ((v = opt_value("--check", argc, argv, i, &missing))) {
        if (missing || !*v || strlen(v) + 7 > sizeof m->check_set) {
            fprintf(stderr, "lockstep: %s: --check needs a list of memcheck, "
                    "racecheck, synccheck, initcheck (or all or none)\n", cmd);
            return CLI_USAGE + 1;
        }
        snprintf(m->check_set, sizeof m->check_set, "check=%s", v);
        m->sets[m->nsets++] = m->check_set;
        m->sets[m->nsets] = NULL;
        return 1;
    }
    if ((v = opt_value("--memcheck", argc, argv, i, &missing))) {
        if (missing || (strcmp(v, "error") && strcmp(v, "warn") && strcmp(v, "off"))) {
            fprintf(stderr, "lockstep: %s: --memcheck needs error, warn or off\n", cmd);
            return CLI_USAGE + 1;
        }
        snprintf(m->memcheck_set, sizeof m->memcheck_set, "memcheck=%s", v);
        m->sets[m->nsets++] = m->memcheck_set;
        m->sets[m->nsets] = NULL;
        return 1;
    }
    if ((v = opt_value("--schedule", argc, argv, i, &missing))) {
        if (missing || (strcmp(v, "block") && strcmp(v, "interleave"))) {
            fprintf(stderr, "lockstep: %s: --schedule needs block or interleave\n", cmd);
            return CLI_USAGE + 1;
        }
        snprintf(m->schedule_set, sizeof m->schedule_set, "schedule=%s", v);
        m->sets[m->nsets++] = m->schedule_set;
        m->sets[m->nsets] = NULL;
        return 1;
    }
    if (!strcmp(argv[*i], "--check-error")) {
        m->sets[m->nsets++] = "check_error=1";
        m->sets[m->nsets] = NULL;
        return 1;
    }
    if (!strcmp(argv[*i], "--cosim-continue")) {
        m->sets[m->nsets++] = "cosim_continue=1";
        m->sets[m->nsets] = NULL;
        return 1;
    }
    if ((v = opt_value("--mode", argc, argv, i, &missing))) {
        if (missing) {
            fprintf(stderr, "lockstep: %s: --mode needs a value\n", cmd);
            return CLI_USAGE + 1;
        }
        if (!strcmp(v, "functional"))
            m->mode = LS_MODE_FUNCTIONAL;
        else if (!strcmp(v, "timing"))
            m->mode = LS_MODE_TIMING;
        else {
            fprintf(stderr, "lockstep: %s: bad --mode '%s' (functional or "
                    "timing)\n", cmd, v);
            return CLI_USAGE + 1;
        }
        return 1;
    }
    if ((v = opt_value("--config", argc, argv, i, &missing))) {
        if (missing || !*v) {
            fprintf(stderr, "lockstep: %s: --config needs a NAME or FILE\n", cmd);
            return CLI_USAGE + 1;
        }
        m->config = v;
        return 1;
    }
    if ((v = opt_value("--set", argc, argv, i, &missing))) {
        if (missing || !strchr(v, '=')) {
            fprintf(stderr, "lockstep: %s: --set needs key=value%s%s%s\n", cmd,
                    missing ? "" : " (got '", missing ? "" : v,
                    missing ? "" : "')");
            return CLI_USAGE + 1;
        }
        m->sets[m->nsets++] = v;
        m->sets[m->nsets] = NULL;
        return 1;
    }
    return 0;
}

void cli_machine_apply(struct cli_machine *m, ls_config *cfg)
{
    if (m->mode >= 0)
        cfg->mode = (ls_mode)m->mode;
    if (m->config)
        cfg->config = m->config;
    /* --cosim: each listed block gets --backend (default lockstep), each
     * block of the loop not listed the C model; --backend alone applies to
     * every block of the loop */
    int k = 0;
    for (int b = 0; b < LS_BLK_COUNT && (m->cosim_given || m->backend); b++) {
        if (!ls_block_in_loop(b))
            continue;
        const char *be = m->backend ? m->backend : "lockstep";
        if (m->cosim_given && !m->cosim[b])
            be = "c";
        snprintf(m->cosim_sets[k], sizeof m->cosim_sets[k], "%s.backend=%s",
                 ls_block_name(b), be);
        /* ahead of --set, so an explicit --set slp.backend=... wins */
        memmove(m->sets + 1, m->sets, (size_t)(m->nsets + 1) * sizeof *m->sets);
        m->sets[0] = m->cosim_sets[k++];
        m->nsets++;
    }
    m->cosim_given = 0;
    m->backend = NULL;
    if (m->nsets)
        cfg->sets = m->sets;
    if (m->nrtl)
        cfg->rtl = m->rtl;
}

int cli_machine_check(const ls_config *cfg, const char *cmd)
{
    FILE *sink = fopen("/dev/null", "w");
    if (!sink) {
        fprintf(stderr, "lockstep: %s: cannot open /dev/null\n", cmd);
        return CLI_USAGE;
    }
    char err[512] = "";
    ls_status st = ls_config_dump(cfg, sink, err, sizeof err);
    fclose(sink);
    if (st != LS_OK) {
        fprintf(stderr, "lockstep: %s: %s\n", cmd,
                err[0] ? err : ls_status_name(st));
        return CLI_USAGE;
    }
    return 0;
}

int cli_config(int argc, char **argv)
{
    struct cli_machine m;
    if (cli_machine_alloc(&m, argc)) {
        fprintf(stderr, "lockstep: out of memory\n");
        return CLI_FAIL;
    }
    int dump = 0, rc = 0;
    for (int i = 0; i < argc && !rc; i++) {
        int k = cli_machine_opt(&m, argc, argv, &i, "config");
        if (k == 1)
            continue;
        if (k) {
            rc = CLI_USAGE;
        } else if (!strcmp(argv[i], "--dump")) {
            dump = 1;
        } else if (!strcmp(argv[i], "--keys")) {
            dump = 2;
        } else {
            fprintf(stderr, "lockstep: config: unknown argument '%s' "
                    "(try lockstep --help)\n", argv[i]);
            rc = CLI_USAGE;
        }
    }
    if (!rc && !dump) {
        fprintf(stderr, "usage: lockstep config [--config NAME|FILE] "
                "[--set key=value]... --dump | --keys\n");
        rc = CLI_USAGE;
    }
    if (!rc && dump == 2) {
        ls_config_keys(stdout);
        cli_machine_free(&m);
        return fflush(stdout) ? CLI_FAIL : CLI_OK;
    }
    if (!rc) {
        ls_config cfg;
        ls_config_default(&cfg);
        cli_machine_apply(&m, &cfg);
        char err[512] = "";
        ls_status st = ls_config_dump(&cfg, stdout, err, sizeof err);
        if (st != LS_OK) {
            fprintf(stderr, "lockstep: config: %s\n",
                    err[0] ? err : ls_status_name(st));
            rc = CLI_USAGE;
        } else if (fflush(stdout) != 0) {
            fprintf(stderr, "lockstep: config: error writing the dump\n");
            rc = CLI_FAIL;
        }
    }
    cli_machine_free(&m);
    return rc;
}
