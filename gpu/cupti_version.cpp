// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/cupti_version.h"

namespace tpscope::gpu {

namespace {

constexpr std::uint32_t kFirstSemanticVersion = 130000;  // CUDA 13.0

}  // namespace

bool cuptiLibraryCompatible(std::uint32_t header, std::uint32_t library) {
    if (header < kFirstSemanticVersion || library < kFirstSemanticVersion) return header == library;
    const std::uint32_t headerMajor = header / 10000, libraryMajor = library / 10000;
    const std::uint32_t headerMinor = header / 100 % 100, libraryMinor = library / 100 % 100;
    return headerMajor == libraryMajor && libraryMinor >= headerMinor;
}

std::string describeCuptiVersion(std::uint32_t v) {
    if (v < kFirstSemanticVersion) return "API " + std::to_string(v);
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100) + " (API " +
           std::to_string(v) + ")";
}

}  // namespace tpscope::gpu
