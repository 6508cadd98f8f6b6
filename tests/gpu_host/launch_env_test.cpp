// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// How the launch is read from the environment (launch_env.h): srun without PMI is refused with the fix.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "gpu/launch_env.h"

namespace tpscope::gpu {
namespace {

EnvLookup envOf(const std::map<std::string, std::string>& vars) {
    return [vars](const char* name) -> const char* {
        const auto it = vars.find(name);
        return it == vars.end() ? nullptr : it->second.c_str();
    };
}

TEST(LaunchEnv, SrunWithoutPmiIsRefusedWithTheFix) {
    for (const char* procid : {"0", "3"}) {
        const auto refused = unusableLaunch(
            envOf({{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_NTASKS", "4"}, {"SLURM_PROCID", procid}}), true);
        ASSERT_TRUE(refused.has_value()) << procid;
        EXPECT_NE(refused->find("one of 4 tasks without PMI"), std::string::npos) << *refused;
        EXPECT_NE(refused->find("srun --mpi=pmix"), std::string::npos) << *refused;
        EXPECT_NE(refused->find("srun -n 1"), std::string::npos) << *refused;
    }
    // An older Slurm without SLURM_STEP_NUM_TASKS: a task other than 0 gives it away.
    EXPECT_TRUE(unusableLaunch(envOf({{"SLURM_NTASKS", "2"}, {"SLURM_PROCID", "1"}}), true).has_value());
}

TEST(LaunchEnv, SrunWithPmiOrOneTaskOrABatchScriptIsFine) {
    EXPECT_FALSE(
        unusableLaunch(envOf({{"SLURM_STEP_NUM_TASKS", "4"}, {"SLURM_PROCID", "1"}, {"PMIX_RANK", "1"}}), true));
    EXPECT_FALSE(unusableLaunch(envOf({{"SLURM_STEP_NUM_TASKS", "1"}, {"SLURM_PROCID", "0"}}), true));
    // sbatch -n 8 runs the script once, as task 0, with SLURM_NTASKS=8 and no step variables.
    EXPECT_FALSE(unusableLaunch(envOf({{"SLURM_NTASKS", "8"}, {"SLURM_PROCID", "0"}}), true));
    EXPECT_FALSE(unusableLaunch(envOf({}), false));
}

TEST(LaunchEnv, ALaunchersProcessInABuildWithoutMpiIsRefused) {
    const auto refused = unusableLaunch(envOf({{"OMPI_COMM_WORLD_SIZE", "2"}}), false);
    ASSERT_TRUE(refused.has_value());
    EXPECT_NE(refused->find("built without MPI"), std::string::npos);
    EXPECT_FALSE(unusableLaunch(envOf({{"OMPI_COMM_WORLD_SIZE", "2"}}), true));
    EXPECT_TRUE(hasProcessManager(envOf({{"PMI_RANK", "0"}})));
    EXPECT_FALSE(hasProcessManager(envOf({{"SLURM_PROCID", "0"}})));
}

// srun --mpi=pmix -n 4: PMIx is there (PMIX_RANK), but a build without MPI cannot join it, and each
// task would drive the same GPUs. Task 0 is refused too (the step has 4 tasks), and one task is fine.
TEST(LaunchEnv, SrunWithPmixInABuildWithoutMpiIsRefusedLikePmi) {
    for (const char* procid : {"0", "2"}) {
        const auto env = envOf({{"SLURM_STEP_NUM_TASKS", "4"},
                                {"SLURM_NTASKS", "4"},
                                {"SLURM_PROCID", procid},
                                {"PMIX_RANK", procid},
                                {"PMIX_NAMESPACE", "slurm.pmix.7.0"}});
        const auto refused = unusableLaunch(env, false);
        ASSERT_TRUE(refused.has_value()) << procid;
        EXPECT_NE(refused->find("built without MPI"), std::string::npos) << *refused;
        EXPECT_FALSE(unusableLaunch(env, true)) << "a build with MPI joins PMIx";
    }
    EXPECT_FALSE(
        unusableLaunch(envOf({{"SLURM_STEP_NUM_TASKS", "1"}, {"SLURM_PROCID", "0"}, {"PMIX_RANK", "0"}}), false));
    EXPECT_TRUE(unusableLaunch(envOf({{"PMI_SIZE", "2"}, {"PMI_RANK", "1"}}), false).has_value());
}

}  // namespace
}  // namespace tpscope::gpu
