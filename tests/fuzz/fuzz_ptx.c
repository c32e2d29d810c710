/* libFuzzer entry: any byte string must parse or fail with a diagnostic
 * ("file:line:col: error: ..."), never crash, hang or leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ptx_module *m = NULL;
    struct ptx_diag d;
    if (ptx_parse("fuzz.ptx", (const char *)data, size, &m, &d) == 0) {
        /* exercise the printers on whatever parsed */
        char buf[256];
        for (uint32_t i = 0; i < m->nfuncs; i++)
            for (uint32_t k = 0; k < m->funcs[i].ninsts; k++)
                ptx_inst_format(buf, sizeof buf, &m->funcs[i], &m->funcs[i].insts[k]);
        ptx_module_free(m);
    } else if (strncmp(d.msg, "fuzz.ptx:", 9) != 0 || m != NULL) {
        abort();
    }
    return 0;
}
