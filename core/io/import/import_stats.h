// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What an import saw and what it had to skip or repair. Bad records never abort an import: they are
// counted here and shown by the CLI (`tpscope-cli info`) and the GUI (import report), the way
// Perfetto's trace_processor keeps a stats table.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tpscope::core {

class JsonWriter;

struct ImportStats {
    std::uint64_t files = 0;
    std::uint64_t bytesRead = 0;  // uncompressed bytes parsed
    std::uint64_t records = 0;    // trace records / rows looked at
    std::uint64_t kernels = 0;
    std::uint64_t memcpys = 0;
    std::uint64_t memsets = 0;
    std::uint64_t ranges = 0;               // NVTX / user annotations kept
    std::uint64_t collectivesWithArgs = 0;  // collective payload taken from kernel or CPU-op args
    std::uint64_t cpuRecordsSkipped = 0;    // CPU ops, runtime calls, python frames (not in the GPU model)
    std::uint64_t mirroredAnnotations = 0;  // CPU user_annotation dropped because its GPU copy exists
    std::uint64_t kernelsClassedByOp = 0;   // kernel class taken from the launching CPU op (cpu_op_rules)
    std::uint64_t projectedSteps = 0;       // CPU step annotations moved onto the GPU work they launched
    // Problems: each is a record that was repaired or dropped.
    std::uint64_t unknownPhases = 0;
    std::uint64_t unmatchedBegins = 0;
    std::uint64_t unmatchedEnds = 0;
    std::uint64_t negativeDurations = 0;   // clamped to 0
    std::uint64_t overlappingKernels = 0;  // kernels starting before the previous one on their stream ended
    std::uint64_t badRecords = 0;          // not an object, missing ts/ph, wrong types
    std::uint64_t rankConflicts = 0;       // two files claiming the same rank

    std::vector<std::string> notes;  // first few human-readable details, for the report

    void note(std::string text);
    void merge(const ImportStats& other);
    std::uint64_t problemCount() const;

    struct Counter {
        std::string_view key;    // JSON key, snake_case
        std::string_view label;  // for people
        std::uint64_t value;
        bool problem;
    };
    std::vector<Counter> counters() const;
    void writeJson(JsonWriter& json) const;

    static constexpr std::size_t kMaxNotes = 20;
};

}  // namespace tpscope::core
