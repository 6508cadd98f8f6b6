// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Which CUPTI library may serve the headers this build was compiled with (no libcupti needed).

#include <gtest/gtest.h>

#include "gpu/cupti_version.h"

namespace tpscope::gpu {
namespace {

TEST(CuptiVersion, SameMajorMinorIsCompatibleWhateverThePatch) {
    EXPECT_TRUE(cuptiLibraryCompatible(130001, 130000));  // 13.0 GA library, 13.0.1 headers
    EXPECT_TRUE(cuptiLibraryCompatible(130001, 130001));
    EXPECT_TRUE(cuptiLibraryCompatible(130000, 130007));
}

TEST(CuptiVersion, ANewerMinorIsCompatibleAnOlderMinorIsNot) {
    EXPECT_TRUE(cuptiLibraryCompatible(130001, 130100));
    EXPECT_FALSE(cuptiLibraryCompatible(130100, 130001));
}

TEST(CuptiVersion, AnotherMajorOrTheOldCounterIsRefused) {
    EXPECT_FALSE(cuptiLibraryCompatible(130001, 140000));
    EXPECT_FALSE(cuptiLibraryCompatible(130001, 120000));
    EXPECT_FALSE(cuptiLibraryCompatible(130001, 24));  // a CUDA 12.x library
    EXPECT_TRUE(cuptiLibraryCompatible(24, 24));
    EXPECT_FALSE(cuptiLibraryCompatible(24, 23));
}

TEST(CuptiVersion, DescriptionSpellsOutMajorMinorPatch) {
    EXPECT_EQ(describeCuptiVersion(130001), "13.0.1 (API 130001)");
    EXPECT_EQ(describeCuptiVersion(131205), "13.12.5 (API 131205)");
    EXPECT_EQ(describeCuptiVersion(24), "API 24");
}

}  // namespace
}  // namespace tpscope::gpu
