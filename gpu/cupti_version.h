// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Which libcupti may fill the record structs this build reads (cupti_records.h). Pure arithmetic on
// CUPTI_API_VERSION values, so it is tested without a GPU or libcupti.
//
// From CUDA 13 a CUPTI API version is major * 10000 + minor * 100 + patch (130001 = 13.0.1); before
// it was a plain counter (CUDA 12.x: 18 ... 24 and up). Accepted: a library of the headers' major
// release and at least their minor (a newer minor only appends fields, which the decoder never
// reads; the patch level does not change record layouts), and, with CUDA 12 headers, a counter at
// least the headers' (12.9 Update 1's library serves 12.9 headers). Refused, with the reason:
// another major, an older minor or counter, and the 13.0 GA library (130000), whose
// cuptiActivityFlushAll can crash and whose activity disable can deadlock (fixed in 13.0 Update 1,
// per the CUPTI release notes); the bundle's libcupti is the headers' own release.

#include <cstdint>
#include <string>

namespace tpscope::gpu {

struct CuptiLibraryCheck {
    bool accepted = false;
    std::string reason;  // why it is refused ("" when accepted)
};

CuptiLibraryCheck checkCuptiLibrary(std::uint32_t headerVersion, std::uint32_t libraryVersion);
inline bool cuptiLibraryCompatible(std::uint32_t headerVersion, std::uint32_t libraryVersion) {
    return checkCuptiLibrary(headerVersion, libraryVersion).accepted;
}
// "13.0.1 (API 130001)" or "API 24" for the old counter.
std::string describeCuptiVersion(std::uint32_t version);

}  // namespace tpscope::gpu
