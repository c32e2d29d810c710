/* RTL-in-the-loop front ends: JUnit XML of a run and `lockstep replay`. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"

/* s with &, <, >, " escaped and control characters other than newline
 * and tab dropped (XML 1.0 cannot carry them). */
static void xml_str(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if (c >= 0x20 || c == '\n' || c == '\t')
                fputc(c, f);
        }
    }
}

/* Whether the mismatch report of r names an instance of block b
 * ("MISMATCH sm3.slp" or "sm3.slp: ..."). */
static int blames(const struct cli_result *r, int b)
{
    char pat[32];
    snprintf(pat, sizeof pat, ".%s", ls_block_name(b));
    const char *p = r->msg;
    while ((p = strstr(p, pat))) {
        char nx = p[strlen(pat)];
        if (nx == ' ' || nx == ':' || nx == '\n' || nx == 0)
            return 1;
        p++;
    }
    return 0;
}

int cli_write_junit(const char *path, const struct cli_result *r, size_t n)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
    if (!f) {
        fprintf(stderr, "lockstep: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t tests = 0, failures = 0;
    double wall = 0;
    for (size_t i = 0; i < n; i++) {
        tests++;
        failures += !r[i].pass;
        wall += r[i].wall_s;
        for (int b = 0; b < LS_BLK_COUNT; b++)
            if (r[i].total.cosim[b].instances || (r[i].mismatch && blames(&r[i], b))) {
                tests++;
                failures += r[i].total.cosim[b].mismatches > 0 ||
                            (r[i].mismatch && blames(&r[i], b));
            }
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites tests=\"%zu\" failures=\"%zu\" time=\"%.3f\">\n"
            "  <testsuite name=\"lockstep\" tests=\"%zu\" failures=\"%zu\" "
            "errors=\"0\" time=\"%.3f\">\n", tests, failures, wall, tests,
            failures, wall);
    for (size_t i = 0; i < n; i++) {
        const struct cli_result *x = &r[i];
        fprintf(f, "    <testcase classname=\"lockstep.workload\" name=\"");
        xml_str(f, x->workload);
        fprintf(f, "\" time=\"%.3f\">\n", x->wall_s);
        fprintf(f, "      <system-out>size %s, seed %llu, %s, config %s</system-out>\n",
                x->size, (unsigned long long)x->seed, x->mode ? x->mode : "?",
                x->config ? x->config : "builtin");
        if (!x->pass) {
            fprintf(f, "      <failure message=\"%s\" type=\"%s\">",
                    x->mismatch ? "RTL/C lockstep mismatch" : "wrong result or error",
                    x->mismatch ? "mismatch" : "fail");
            xml_str(f, x->msg);
            fprintf(f, "</failure>\n");
        }
        fprintf(f, "    </testcase>\n");
        for (int b = 0; b < LS_BLK_COUNT; b++) {
            const ls_cosim_stats *c = &x->total.cosim[b];
            if (!c->instances && !(x->mismatch && blames(x, b)))
                continue;
            static const char *const be[] = { "c", "rtl", "lockstep", "netlist" };
            fprintf(f, "    <testcase classname=\"lockstep.cosim.%s\" name=\"",
                    ls_block_name(b));
            xml_str(f, x->workload);
            fprintf(f, "\" time=\"0\">\n      <system-out>backend %s, %llu instances, "
                    "%llu cycles, %llu idle skipped, %llu transactions, %llu "
                    "mismatches</system-out>\n",
                    c->backend >= 0 && c->backend < 4 ? be[c->backend] : "?",
                    (unsigned long long)c->instances, (unsigned long long)c->cycles,
                    (unsigned long long)c->idle_skipped,
                    (unsigned long long)c->transactions,
                    (unsigned long long)c->mismatches);
            if (c->mismatches || (x->mismatch && blames(x, b))) {
                fprintf(f, "      <failure message=\"%s RTL disagrees with its C "
                        "model\" type=\"mismatch\">", ls_block_name(b));
                xml_str(f, x->msg);
                fprintf(f, "</failure>\n");
            }
            fprintf(f, "    </testcase>\n");
        }
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
    return cli_close_out(f, path);
}

int cli_replay(int argc, char **argv)
{
    const char *trace = NULL, *fst = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--fst") && i + 1 < argc) {
            fst = argv[++i];
        } else if (!strncmp(argv[i], "--fst=", 6)) {
            fst = argv[i] + 6;
        } else if (argv[i][0] == '-' || trace) {
            fprintf(stderr, "lockstep: replay: unexpected argument '%s'\n", argv[i]);
            trace = NULL;
            fst = NULL;
            argc = -1;
            break;
        } else {
            trace = argv[i];
        }
    }
    if (!trace) {
        fprintf(stderr, "usage: lockstep replay TRACE [--fst FILE.fst]\n");
        return CLI_USAGE;
    }
    char err[4096] = "";
    ls_status st = ls_cosim_replay(trace, fst, stdout, err, sizeof err);
    fflush(stdout);
    if (st == LS_OK)
        return CLI_OK;
    if (st == LS_ERR_COSIM)
        return CLI_MISMATCH;
    fprintf(stderr, "lockstep: replay: %s\n", err[0] ? err : ls_status_name(st));
    return CLI_USAGE;
}
