/* Reading a whole input file (PTX for check, branches and the analysis
 * passes) under the model's size limit. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "cli/cli.h"
#include "ptx/ptx_ir.h"

char *cli_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    /* the model's limit, before reading any of it */
    if (fseek(f, 0, SEEK_END) == 0) {
        long sz = ftell(f);
        if (sz > (long)PTX_MAX_TEXT) {
            fclose(f);
            errno = EFBIG;
            return NULL;
        }
        rewind(f);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        char *nb = realloc(buf, cap * 2 + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            errno = ENOMEM;
            break;
        }
        buf = nb;
        cap *= 2;
    }
    if (buf && ferror(f)) {
        free(buf);
        buf = NULL;
        errno = EIO;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}
