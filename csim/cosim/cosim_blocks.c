/* The blocks that are in the GPU loop, each described once for the seam:
 * its C model behind void pointers and its port table from the .def.
 * A block joins the loop by adding its descriptor to `descs` below (its
 * mechanism's issue then creates instances through cosim_create). */
#include <stddef.h>
#include <string.h>
#include "cosim/cosim.h"
#include "blocks/slp.h"

/* ------------------------------------------------------------------ SLP */

static long slp_get(const void *cfg, unsigned i)
{
    const struct slp_cfg *c = cfg;
    return i == 0 ? (long)c->W : i == 1 ? (long)c->NWARPS : (long)c->ROT_EN;
}

static int slp_set(void *cfg, const char *name, long v)
{
    return slp_set_param(cfg, name, v);
}

static void slp_def(void *cfg)
{
    *(struct slp_cfg *)cfg = slp_cfg_default();
}

static int slp_init_v(void *st, const void *cfg)
{
    return slp_init(st, cfg);
}

static void slp_reset_v(void *st)
{
    slp_reset(st);
}

static void slp_step_v(void *st, const void *in, void *out)
{
    slp_step(st, in, out);
}

static void slp_dims_v(const void *cfg, const char *port, unsigned *bits,
                       unsigned *count)
{
    slp_port_dims(cfg, port, bits, count);
}

static int slp_ports(struct ls_port *p)
{
    int n = 0;
#define PORT_IN(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 0, b, c, b, c, offsetof(struct slp_in, nm)};
#define PORT_OUT(nm, b, c) \
    p[n++] = (struct ls_port){#nm, 1, b, c, b, c, offsetof(struct slp_out, nm)};
#include "blocks/slp_ports.def"
#undef PORT_IN
#undef PORT_OUT
    return n;
}

static const struct cosim_desc slp_desc = {
    .name = "slp",
    .id = LS_BLK_SLP,
    .cfg_size = sizeof(struct slp_cfg),
    .state_size = sizeof(struct slp_state),
    .in_size = sizeof(struct slp_in),
    .out_size = sizeof(struct slp_out),
    /* one idle edge clears the registered outputs; the key table only
     * changes on a launch (docs/blocks/slp.md) */
    .settle = 1,
    .params = { "W", "NWARPS", "ROT_EN", NULL },
    .get_param = slp_get,
    .set_param = slp_set,
    .cfg_default = slp_def,
    .init = slp_init_v,
    .reset = slp_reset_v,
    .step = slp_step_v,
    .free = NULL,
    .dims = slp_dims_v,
    .ports = slp_ports,
};

/* ------------------------------------------------------------- registry */

static const struct cosim_desc *const descs[] = { &slp_desc };

const struct cosim_desc *cosim_desc_find(const char *name)
{
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        if (!strcmp(descs[i]->name, name))
            return descs[i];
    return NULL;
}

const struct cosim_desc *cosim_desc_by_id(int id)
{
    for (size_t i = 0; i < sizeof descs / sizeof descs[0]; i++)
        if (descs[i]->id == id)
            return descs[i];
    return NULL;
}

int ls_block_in_loop(int b)
{
    return cosim_desc_by_id(b) != NULL;
}
