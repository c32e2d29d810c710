/* The energy model of the timing mode (docs/energy.md, docs/gscalar.md
 * "Energy"): event counts times per-event constants, in millionths of the
 * energy of one 1024-bit vector-register access. Every timing run fills
 * ls_stats.energy (gpu_energy_run); G-Scalar's compressed register file
 * refines the same model in ls_stats.gscalar (gpu_energy_gscalar). */
#ifndef GPU_ENERGY_H
#define GPU_ENERGY_H

#include <stdint.h>
#include "lockstep.h"
#include "cfg/cfg.h"

/* Per-event energies (units of one vector-register access). */
struct gpu_energy_k {
    double lane[3];              /* one lane operation: ALU, SFU, MEM      */
    double sm_cycle;             /* rest of the chip per busy SM-cycle     */
};

/* What a run did. */
struct gpu_energy_in {
    uint64_t lane_ops[3];        /* lane operations: ALU, SFU, MEM         */
    uint64_t sm_cycles;          /* SM-cycles with resident work           */
};

/* The constants of config c (energy.* keys). */
struct gpu_energy_k gpu_energy_k_of(const struct cfg *c);
/* Execution-unit energy of in, millionths of a vector-register access. */
uint64_t gpu_energy_exec(const struct gpu_energy_k *k, const struct gpu_energy_in *in);
/* Energy of the rest of the chip (SM-cycles), same unit. */
uint64_t gpu_energy_other(const struct gpu_energy_k *k, const struct gpu_energy_in *in);
/* Fills s->gscalar's exec_energy, base_exec_energy and other_energy from
 * its lane-op counts and s->sm_cycles (no-op when the register state was
 * not kept: s->gscalar.insts == 0). */
void gpu_energy_gscalar(const struct cfg *c, ls_stats *s);

/* Fills s->energy's DAC-unit counts (from s->dac) and its energies from
 * the counts of the run and s->sm_cycles (docs/energy.md). */
void gpu_energy_run(const struct cfg *c, ls_stats *s);

#endif
