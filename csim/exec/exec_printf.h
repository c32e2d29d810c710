/* Device-side printf: the formatting half of CUDA's vprintf(fmt, argbuf)
 * (docs/device-runtime.md). Values only: the caller supplies a reader for
 * device memory and collects the text. */
#ifndef EXEC_PRINTF_H
#define EXEC_PRINTF_H

#include <stddef.h>
#include <stdint.h>

/* Reads n bytes at generic device address addr into buf; 0, or -1 when
 * the range is not readable (the reader records why). */
typedef int (*exec_read_fn)(void *user, uint64_t addr, void *buf, size_t n);

/* Growing output text. */
struct exec_text {
    char *s;
    size_t len, cap;
};

/* Formats the NUL-terminated format string fmt with the arguments of
 * CUDA's vprintf buffer at device address argbuf (each argument aligned to
 * its size: int/char/short as 4 bytes, long/long long/pointers/%s as 8,
 * float promoted to an 8-byte double), reading the buffer and %s strings
 * through rd. Appends the text to out. Returns the number of arguments
 * consumed (vprintf's return value), or -1 on a reader failure or host
 * memory exhaustion. */
int exec_printf_format(const char *fmt, uint64_t argbuf, exec_read_fn rd,
                       void *user, struct exec_text *out);

/* Appends n bytes of s to out. Returns 0, or -1 when out of host memory. */
int exec_text_add(struct exec_text *out, const char *s, size_t n);

#endif
