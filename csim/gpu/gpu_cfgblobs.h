/* Shipped configs (configs/NAME.conf), embedded at build time by
 * tools/bin2c.c into build/gen/cfg_blobs.c (Makefile rule). */
#ifndef GPU_CFGBLOBS_H
#define GPU_CFGBLOBS_H
#include <stddef.h>

struct gpu_cfg_blob {
    const char *name;   /* file stem: "gtx480"                    */
    const char *path;   /* repository path: "configs/gtx480.conf" */
    const char *text;   /* NUL-terminated file contents           */
    size_t len;
};

/* Table ending with a {0} row. */
extern const struct gpu_cfg_blob gpu_cfg_blobs[];

#endif
