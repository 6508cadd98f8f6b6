// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The CUPTI activity record structs this build decodes. CUPTI writes the newest struct version its
// library knows for each kind, so these must match the runtime library: the live session refuses
// to start when the headers and libcupti disagree (CuptiSession::checkVersion).

#include <cupti.h>

namespace tpscope::gpu {

#if CUPTI_API_VERSION >= 130000
using KernelRecord = CUpti_ActivityKernel10;
using MemcpyRecord = CUpti_ActivityMemcpy6;
using MemsetRecord = CUpti_ActivityMemset4;
#else
// CUDA 12.x headers (not built in CI, which has CUDA 13; the fields read are common to both).
using KernelRecord = CUpti_ActivityKernel9;
using MemcpyRecord = CUpti_ActivityMemcpy5;
using MemsetRecord = CUpti_ActivityMemset4;
#endif
using MarkerRecord = CUpti_ActivityMarker2;
using ApiRecord = CUpti_ActivityAPI;
using ExternalCorrelationRecord = CUpti_ActivityExternalCorrelation;

}  // namespace tpscope::gpu
