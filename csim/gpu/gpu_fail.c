/* The last error of a GPU: its message with the file:line where it arose
 * (ls_gpu_error; GPU_FAIL in gpu.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gpu/gpu.h"

ls_status gpu_fail_src(ls_gpu *gpu, ls_status st, const char *file, int line,
                       const char *fmt, ...)
{
    if (!gpu)
        return st;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(gpu->err, sizeof gpu->err, fmt, ap);
    va_end(ap);
    /* a message that already names the check that failed keeps one tag */
    int tagged = k > 0 && gpu->err[k - 1] == ']' && strstr(gpu->err, " [csim/");
    if (k >= 0 && (size_t)k < sizeof gpu->err && !tagged)
        snprintf(gpu->err + k, sizeof gpu->err - (size_t)k, " [%s:%d]", file, line);
    return st;
}

ls_status gpu_fail(ls_gpu *gpu, ls_status st, const char *file, int line,
                   const char *fmt, ...)
{
    if (!gpu)
        return st;
    int k = snprintf(gpu->err, sizeof gpu->err, "%s:%d: ", file, line);
    if (k < 0 || (size_t)k >= sizeof gpu->err)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(gpu->err + k, sizeof gpu->err - (size_t)k, fmt, ap);
    va_end(ap);
    return st;
}
