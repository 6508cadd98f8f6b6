// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/cupti_version.h"

namespace tpscope::gpu {

namespace {

constexpr std::uint32_t kFirstSemanticVersion = 130000;  // CUDA 13.0
constexpr std::uint32_t kCupti130Ga = 130000;            // flush crash, disable deadlock (fixed in 13.0.1)

CuptiLibraryCheck refuse(std::string reason) {
    return {false, std::move(reason)};
}

}  // namespace

CuptiLibraryCheck checkCuptiLibrary(std::uint32_t header, std::uint32_t library) {
    const bool oldHeader = header < kFirstSemanticVersion, oldLibrary = library < kFirstSemanticVersion;
    if (oldHeader != oldLibrary) return refuse("another CUDA major release than the headers'");
    if (oldHeader) {
        if (library < header) return refuse("an older CUPTI than the headers' (its records may be shorter)");
        return {true, ""};
    }
    if (header / 10000 != library / 10000) return refuse("another CUDA major release than the headers'");
    if (library / 100 % 100 < header / 100 % 100) return refuse("an older minor release than the headers'");
    if (library == kCupti130Ga) {
        return refuse(
            "CUPTI 13.0 GA, whose cuptiActivityFlushAll can crash and whose activity disable can "
            "deadlock (fixed in 13.0 Update 1)");
    }
    return {true, ""};
}

std::string describeCuptiVersion(std::uint32_t v) {
    if (v < kFirstSemanticVersion) return "API " + std::to_string(v);
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100) + " (API " +
           std::to_string(v) + ")";
}

}  // namespace tpscope::gpu
