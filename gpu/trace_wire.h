// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Binary wire form of a core::Trace, for sending one process's captured ranks to rank 0 of an
// MPI launch. Not a file format (the workspace format is io's): both ends are the same build.
// Layout: magic, version, then names, payloads, ranks (streams as event chunks, NVTX ranges),
// origin, source, metadata. The tables, chunks and ranges use core/io's event codec (one copy of
// the encoding and of its validation: every id, enum and length is checked on the way in).
// O(events) both ways.

#include <cstdint>
#include <vector>

#include "core/trace/trace.h"
#include "core/util/result.h"
#include "gpu/trace_merge.h"

namespace tpscope::gpu {

std::vector<std::uint8_t> serializeTrace(const core::Trace& trace);
// Malformed or truncated input is a ParseError, never a crash. The result is finalized.
core::Result<core::Trace> deserializeTrace(const std::vector<std::uint8_t>& bytes);

// One process's contribution to a launch: its trace plus process, host, error and id hash.
std::vector<std::uint8_t> serializeProcessTrace(const ProcessTrace& part);
core::Result<ProcessTrace> deserializeProcessTrace(const std::vector<std::uint8_t>& bytes);

}  // namespace tpscope::gpu
