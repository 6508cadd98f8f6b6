// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// libFuzzer target: the Kineto / Chrome JSON reader (plain and gzip) and the rank merge, on bytes in
// memory. Any input must give a Trace or an Error; crashes, leaks, UB and hangs are findings.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/io/import/kineto_reader.h"
#include "core/io/import/trace_part.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tpscope::core;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto part = readKinetoBuffer(bytes, "fuzz.json", KernelClassifier::builtin());
    if (!part) return 0;
    std::vector<TracePart> parts;
    parts.push_back(std::move(*part));
    ImportStats stats;
    auto trace = mergeParts(std::move(parts), &stats);
    if (trace) (void)(*trace)->eventCount();
    return 0;
}
