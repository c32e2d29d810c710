/* The chip energy model of the timing mode (docs/energy.md), in the style
 * of GPUWattch: per-event dynamic energies of the SM's register file,
 * operand collectors, lanes and front end, of the L1D, shared memory, L2
 * and interconnect; the DRAM of the power model (mem_power); leakage per
 * SM and of the uncore, and constant power per busy or idle SM and of the
 * uncore. Every timing run fills ls_stats.energy and the GPU members of
 * ls_stats.power (gpu_energy_run); G-Scalar's compressed register file is
 * charged by the same constants in ls_stats.gscalar (gpu_energy_gscalar).
 * Pure arithmetic on the run's statistics: nothing here changes timing. */
#ifndef GPU_ENERGY_H
#define GPU_ENERGY_H

#include <stdint.h>
#include "lockstep.h"
#include "cfg/cfg.h"

/* Fills s->energy's DAC-unit counts (from s->dac), its per-component
 * energies from the counts of the run, the caches, the DRAM energy of
 * s->power, s->cycles and s->sm_cycles, and s->power's GPU members. */
void gpu_energy_run(const struct cfg *c, ls_stats *s);
/* Fills s->gscalar's energies (pJ) from its array, BVR and lane-op counts
 * and s->energy (call after gpu_energy_run; no-op when the register state
 * was not kept: s->gscalar.insts == 0). */
void gpu_energy_gscalar(const struct cfg *c, ls_stats *s);

#endif
