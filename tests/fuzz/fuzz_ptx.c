/* libFuzzer entry: any byte string must parse or fail with a diagnostic
 * ("file:line:col: error: ..."), never crash, hang or leak. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "ptx/ptx_ir.h"
#include "ptx/ptx_print.h"
#include "ptx/ptx_taint.h"

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
        /* and the branch classes: exactly the conditional branches get one,
         * a failure says why */
        for (uint32_t i = 0; i < m->nfuncs; i++) {
            const struct ptx_func *f = &m->funcs[i];
            uint8_t *cls = malloc(f->ninsts + 1);
            for (unsigned fl = 0; cls && fl < 2; fl++) {
                struct ptx_diag td;
                td.msg[0] = 0;
                if (ptx_taint_branches(f, fl ? PTX_TAINT_CONTROL : 0, cls, NULL, &td)) {
                    if (!td.msg[0])
                        abort();
                    continue;
                }
                for (uint32_t k = 0; k < f->ninsts; k++) {
                    const struct ptx_inst *in = &f->insts[k];
                    int cond = (in->op == PTX_OP_BRA && in->guard >= 0) ||
                               in->op == PTX_OP_BRX;
                    if ((cls[k] != PTX_BCLS_NONE) != cond)
                        abort();
                }
            }
            free(cls);
        }
        ptx_module_free(m);
    } else if (strncmp(d.msg, "fuzz.ptx:", 9) != 0 || m != NULL) {
        abort();
    }
    return 0;
}
