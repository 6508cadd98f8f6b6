// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Which CUPTI library may serve the headers this build was compiled with (no libcupti needed).

#include <gtest/gtest.h>

#include "gpu/cupti_version.h"
#include "gpu/device_query.h"

namespace tpscope::gpu {
namespace {

TEST(CuptiVersion, SameMajorMinorIsCompatibleWhateverThePatch) {
    EXPECT_TRUE(cuptiLibraryCompatible(130001, 130001));
    EXPECT_TRUE(cuptiLibraryCompatible(130001, 130002));
    EXPECT_TRUE(cuptiLibraryCompatible(130100, 130105));
}

TEST(CuptiVersion, The130GaLibraryIsRefusedWithItsReason) {
    const CuptiLibraryCheck ga = checkCuptiLibrary(130001, 130000);
    EXPECT_FALSE(ga.accepted);
    EXPECT_NE(ga.reason.find("13.0 GA"), std::string::npos) << ga.reason;
    EXPECT_NE(ga.reason.find("fixed in 13.0 Update 1"), std::string::npos) << ga.reason;
    EXPECT_TRUE(checkCuptiLibrary(130001, 130001).reason.empty());
}

TEST(CuptiVersion, ACuda12LibraryAtLeastTheHeadersCounterIsAccepted) {
    EXPECT_TRUE(cuptiLibraryCompatible(24, 25));  // a 12.x update's library for the 12.x headers
    EXPECT_FALSE(checkCuptiLibrary(25, 24).accepted);
    EXPECT_NE(checkCuptiLibrary(25, 24).reason.find("older CUPTI"), std::string::npos);
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
    EXPECT_FALSE(cuptiLibraryCompatible(24, 130001));  // CUDA 12 headers, a CUDA 13 library
}

TEST(CuptiVersion, DescriptionSpellsOutMajorMinorPatch) {
    EXPECT_EQ(describeCuptiVersion(130001), "13.0.1 (API 130001)");
    EXPECT_EQ(describeCuptiVersion(131205), "13.12.5 (API 131205)");
    EXPECT_EQ(describeCuptiVersion(24), "API 24");
}

TEST(DriverProblem, ACuda12DriverIsNamedWithTheDriverItNeeds) {
    const auto old = driverProblem(12080, 13);
    ASSERT_TRUE(old.has_value());
    EXPECT_NE(old->find("driver too old for CUDA 13 (it supports CUDA 12.8), need >= 580"), std::string::npos) << *old;
    EXPECT_NE(driverProblem(0, 13)->find("no NVIDIA driver"), std::string::npos);
    EXPECT_FALSE(driverProblem(13000, 13).has_value());
    EXPECT_FALSE(driverProblem(13010, 13).has_value());
}

}  // namespace
}  // namespace tpscope::gpu
