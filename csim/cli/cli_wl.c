/* Workload metadata for the command line: the papers' table rows each
 * workload stands for (workloads/papers.tsv) and its measured categories
 * (workloads/categories.tsv, make workload-table), both embedded at build
 * time; `list workloads --long`, `list workloads @CAT` and
 * `run @divergent|@fg|@cg|@all`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "workloads/workload.h"
#include "workloads/wl_ptx.h"

static const char *meta_text(const char *name)
{
    for (const struct wl_ptx_blob *b = wl_meta_blobs; b->name; b++)
        if (!strcmp(b->name, name))
            return b->text;
    return "";
}

/* Field col (0 = the workload) of workload's row in a TSV text into out
 * ("" when absent). Returns 1 when the row exists. */
static int tsv_field(const char *text, const char *workload, unsigned col, char *out,
                     size_t n)
{
    size_t wl = strlen(workload);
    out[0] = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        if (*p != '#' && len > wl && !strncmp(p, workload, wl) && p[wl] == '\t') {
            const char *f = p;
            for (unsigned c = 0; c < col && f < p + len; c++) {
                f = memchr(f, '\t', (size_t)(p + len - f));
                if (!f)
                    return 1;
                f++;
            }
            size_t fl = strcspn(f, "\t\n");
            snprintf(out, n, "%.*s", (int)fl, f);
            return 1;
        }
        p += len + (p[len] == '\n');
    }
    return 0;
}

int cli_wl_in_category(const char *workload, const char *cat)
{
    char v[64];
    if (!strcmp(cat, "all"))
        return 1;
    const char *t = meta_text("categories");
    if (!strcmp(cat, "divergent") || !strcmp(cat, "non-divergent"))
        return tsv_field(t, workload, 9, v, sizeof v) && !strcmp(v, cat);
    if (!strcmp(cat, "fg") || !strcmp(cat, "cg")) {
        tsv_field(t, workload, 10, v, sizeof v);
        return (cat[0] == 'f' && !strcmp(v, "FG")) || (cat[0] == 'c' && !strcmp(v, "CG"));
    }
    return -1;
}

int cli_wl_measured(const char *workload)
{
    char v[8];
    return tsv_field(meta_text("categories"), workload, 0, v, sizeof v);
}

int cli_wl_select(const char *cat, const char **names, int max, const char *who)
{
    if (cli_wl_in_category("", cat) < 0) {
        fprintf(stderr, "lockstep: %s: unknown category '@%s' (@all, @divergent, "
                "@non-divergent, @fg, @cg)\n", who, cat);
        return -1;
    }
    int n = 0;
    for (const struct workload *const *w = wl_registry; *w && n < max; w++) {
        if (!cli_wl_measured((*w)->name) && strcmp(cat, "all"))
            fprintf(stderr, "lockstep: %s: %s is not measured yet (make "
                    "workload-table): left out of @%s\n", who, (*w)->name, cat);
        else if (cli_wl_in_category((*w)->name, cat) == 1)
            names[n++] = (*w)->name;
    }
    return n;
}

void cli_wl_list_long(FILE *out)
{
    fprintf(out, "%-12s %-10s %-24s %-13s %s\n", "workload", "driver", "measured",
                 "granularity", "papers' rows");
    for (const struct workload *const *w = wl_registry; *w; w++) {
        const char *cat = meta_text("categories");
        char div[32], simd[16], gran[8], sec[16], rows[256];
        int m = tsv_field(cat, (*w)->name, 9, div, sizeof div);
        tsv_field(cat, (*w)->name, 2, simd, sizeof simd);
        tsv_field(cat, (*w)->name, 10, gran, sizeof gran);
        tsv_field(cat, (*w)->name, 4, sec, sizeof sec);
        if (!tsv_field(meta_text("papers"), (*w)->name, 1, rows, sizeof rows))
            snprintf(rows, sizeof rows, "-");
        char md[48], mg[32];
        if (m)
            snprintf(md, sizeof md, "%s (%.3f)", div, atof(simd));
        else
            snprintf(md, sizeof md, "not measured");
        if (m && strcmp(gran, "-"))
            snprintf(mg, sizeof mg, "%s (%.2f)", gran, atof(sec));
        else
            snprintf(mg, sizeof mg, m ? "no line used" : "-");
        fprintf(out, "%-12s %-10s %-24s %-13s %s\n", (*w)->name, (*w)->category, md, mg,
                rows);
    }
    fprintf(out, "measured: divergent when SIMD utilisation < 0.99; FG/CG-leaning by "
            "Avg_sec (<= 2 / > 2 sectors used per line); make workload-table\n");
}
