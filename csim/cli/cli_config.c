/* Machine options (--mode, --config, --set) and `lockstep config --dump`. */
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

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

int cli_machine_opt(struct cli_machine *m, int argc, char **argv, int *i,
                    const char *cmd)
{
    int missing = 0;
    const char *v;
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

void cli_machine_apply(const struct cli_machine *m, ls_config *cfg)
{
    if (m->mode >= 0)
        cfg->mode = (ls_mode)m->mode;
    if (m->config)
        cfg->config = m->config;
    if (m->nsets)
        cfg->sets = m->sets;
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
    struct cli_machine m = { -1, NULL, NULL, 0 };
    m.sets = calloc((size_t)argc + 1, sizeof *m.sets);
    if (!m.sets) {
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
        } else {
            fprintf(stderr, "lockstep: config: unknown argument '%s' "
                    "(try lockstep --help)\n", argv[i]);
            rc = CLI_USAGE;
        }
    }
    if (!rc && !dump) {
        fprintf(stderr, "usage: lockstep config [--config NAME|FILE] "
                "[--set key=value]... --dump\n");
        rc = CLI_USAGE;
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
    free(m.sets);
    return rc;
}
