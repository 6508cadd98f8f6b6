// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/launch_env.h"

#include <cstdlib>

namespace tpscope::gpu {

namespace {

int intOf(const EnvLookup& env, const char* name) {
    const char* v = env(name);
    return v != nullptr ? std::atoi(v) : 0;
}

}  // namespace

bool hasProcessManager(const EnvLookup& env) {
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE", "PMI_RANK", "MV2_COMM_WORLD_SIZE"}) {
        if (env(var) != nullptr) return true;
    }
    return false;
}

std::optional<std::string> unusableLaunch(const EnvLookup& env, bool builtWithMpi) {
    // srun sets SLURM_STEP_NUM_TASKS for its step; SLURM_NTASKS alone is also set in a batch script.
    const int stepTasks = intOf(env, "SLURM_STEP_NUM_TASKS");
    const int tasks = stepTasks > 0 ? stepTasks : intOf(env, "SLURM_NTASKS");
    const bool srunTask = env("SLURM_PROCID") != nullptr && (stepTasks > 1 || intOf(env, "SLURM_PROCID") > 0);
    if (srunTask && tasks > 1 && !hasProcessManager(env)) {
        return "started by srun as one of " + std::to_string(tasks) +
               " tasks without PMI (srun --mpi=none?): each task would drive the same GPUs and write one file. "
               "Run `srun --mpi=pmix` (or --mpi=pmi2) with a tpscope-cli built with MPI, or one task "
               "(`srun -n 1`) that drives all --tp GPUs of its node";
    }
    if (builtWithMpi) return std::nullopt;
    // A launcher's process in a build that cannot join it: mpirun (OpenMPI, MVAPICH), PMI, and srun
    // with PMI or PMIx (`srun --mpi=pmix -n N` sets PMIX_RANK but no size variable of its own: the
    // step's task count says how many processes there are).
    bool several = srunTask && tasks > 1;
    for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MV2_COMM_WORLD_SIZE"}) {
        several = several || intOf(env, var) > 1;
    }
    if (several) {
        return "launched as one of several processes, but this tpscope-cli was built without MPI; run one "
               "process (it drives all --tp GPUs of this host)";
    }
    return std::nullopt;
}

}  // namespace tpscope::gpu
