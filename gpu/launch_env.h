// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What the environment says about how this process was launched, read before anything starts, so
// that N processes that cannot talk to each other never each drive the same GPUs and write one file.
// Pure: the environment comes through a lookup function, so it is tested without a launcher.

#include <functional>
#include <optional>
#include <string>

namespace tpscope::gpu {

using EnvLookup = std::function<const char*(const char*)>;

// True when a process manager that MPI can join started this process (OpenMPI, PMIx, PMI/Slurm, MVAPICH).
bool hasProcessManager(const EnvLookup& env);

// The refusal, when this process is one of several that cannot form one launch: srun without PMI
// (`srun --mpi=none`: SLURM_STEP_NUM_TASKS/SLURM_NTASKS > 1 with SLURM_PROCID, and no PMI/PMIx
// variable), or a launcher's process in a build without MPI (mpirun, PMI, or srun with PMI/PMIx:
// `srun --mpi=pmix -n N` is known by its N tasks). Nothing when the launch is usable.
std::optional<std::string> unusableLaunch(const EnvLookup& env, bool builtWithMpi);

}  // namespace tpscope::gpu
