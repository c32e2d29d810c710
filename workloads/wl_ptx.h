/* Committed workload PTX, embedded at build time by tools/bin2c.c. */
#ifndef WL_PTX_H
#define WL_PTX_H
#include <stddef.h>
#include <string.h>

struct wl_ptx_blob {
    const char *name;   /* file stem, e.g. "vecadd" */
    const char *path;   /* repository path, for error messages */
    const char *text;   /* NUL-terminated PTX */
    size_t len;         /* bytes, without the NUL */
};

/* Table ending with a {0} row; generated into build/gen/wl_ptx.c. */
extern const struct wl_ptx_blob wl_ptx_blobs[];

/* The committed PTX of workload `name` (its file stem), or NULL. Inline:
 * the drivers' wl_common.c is also linked without the table (the CUDA
 * runtime test builds each driver with its own host code). */
static inline const struct wl_ptx_blob *wl_ptx_find(const char *name)
{
    for (const struct wl_ptx_blob *b = wl_ptx_blobs; name && b->name; b++)
        if (strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

/* workloads/papers.tsv (which papers' table rows each workload stands
 * for) and workloads/categories.tsv (make workload-table: measured SIMD
 * utilisation, Avg_sec and the categories they give), same layout, keyed
 * "papers" and "categories"; generated into build/gen/wl_meta.c. */
extern const struct wl_ptx_blob wl_meta_blobs[];

#endif
