// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/import_stats.h"

#include "core/util/json_writer.h"

namespace tpscope::core {

void ImportStats::note(std::string text) {
    if (notes.size() < kMaxNotes) notes.push_back(std::move(text));
}

void ImportStats::merge(const ImportStats& o) {
    files += o.files;
    bytesRead += o.bytesRead;
    records += o.records;
    kernels += o.kernels;
    memcpys += o.memcpys;
    memsets += o.memsets;
    ranges += o.ranges;
    collectivesWithArgs += o.collectivesWithArgs;
    cpuRecordsSkipped += o.cpuRecordsSkipped;
    mirroredAnnotations += o.mirroredAnnotations;
    kernelsClassedByOp += o.kernelsClassedByOp;
    projectedSteps += o.projectedSteps;
    unknownPhases += o.unknownPhases;
    unmatchedBegins += o.unmatchedBegins;
    unmatchedEnds += o.unmatchedEnds;
    negativeDurations += o.negativeDurations;
    overlappingKernels += o.overlappingKernels;
    badRecords += o.badRecords;
    rankConflicts += o.rankConflicts;
    for (const auto& n : o.notes) note(n);
}

std::vector<ImportStats::Counter> ImportStats::counters() const {
    return {
        {"files", "files read", files, false},
        {"bytes_read", "bytes parsed (uncompressed)", bytesRead, false},
        {"records", "records seen", records, false},
        {"kernels", "kernels", kernels, false},
        {"memcpys", "memcpys", memcpys, false},
        {"memsets", "memsets", memsets, false},
        {"ranges", "NVTX / annotation ranges", ranges, false},
        {"collectives_with_args", "collectives with size from args", collectivesWithArgs, false},
        {"cpu_records_skipped", "CPU-side records not imported", cpuRecordsSkipped, false},
        {"mirrored_annotations", "CPU annotations replaced by their GPU copy", mirroredAnnotations, false},
        {"kernels_classed_by_op", "kernels classed by their launching CPU op", kernelsClassedByOp, false},
        {"projected_steps", "step annotations moved onto the GPU work they launched", projectedSteps, false},
        {"unknown_phases", "records with an unknown phase", unknownPhases, true},
        {"unmatched_begins", "begin records without an end", unmatchedBegins, true},
        {"unmatched_ends", "end records without a begin", unmatchedEnds, true},
        {"negative_durations", "negative durations (set to 0)", negativeDurations, true},
        {"overlapping_kernels", "kernels overlapping on one stream", overlappingKernels, true},
        {"bad_records", "malformed records skipped", badRecords, true},
        {"rank_conflicts", "files claiming an already used rank", rankConflicts, true},
    };
}

std::uint64_t ImportStats::problemCount() const {
    std::uint64_t n = 0;
    for (const auto& c : counters()) n += c.problem ? c.value : 0;
    return n;
}

void ImportStats::writeJson(JsonWriter& json) const {
    json.beginObject();
    for (const auto& c : counters()) json.field(c.key, c.value);
    json.key("notes").beginArray();
    for (const auto& n : notes) json.value(n);
    json.endArray();
    json.endObject();
}

}  // namespace tpscope::core
