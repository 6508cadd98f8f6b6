// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Which libcupti may fill the record structs this build reads (cupti_records.h). Pure arithmetic on
// CUPTI_API_VERSION values, so it is tested without a GPU or libcupti.
//
// From CUDA 13 a CUPTI API version is major * 10000 + minor * 100 + patch (130001 = 13.0.1); before
// it was a plain counter (CUDA 12.x: 18 ... 24). A library of the headers' major release and at least
// their minor is accepted: the patch level does not change record layouts (a 13.0 GA library,
// 130000, fills the 13.0.1 headers' records), and a newer minor only appends fields, which the
// decoder never reads. An older minor or another major is refused.

#include <cstdint>
#include <string>

namespace tpscope::gpu {

bool cuptiLibraryCompatible(std::uint32_t headerVersion, std::uint32_t libraryVersion);
// "13.0.1 (API 130001)" or "API 24" for the old counter.
std::string describeCuptiVersion(std::uint32_t version);

}  // namespace tpscope::gpu
