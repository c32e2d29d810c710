/* Prints the combination rules of csim/core/core_mech.def as the markdown
 * table of docs/architecture.md (make docs-mech writes it there; make
 * test-docs-mech checks the page is current). */
#include <stdio.h>
#include "core/core_mech.h"

int main(void)
{
    static char md[16384];
    core_mech_rules_md(md, sizeof md);
    fputs(md, stdout);
    return 0;
}
