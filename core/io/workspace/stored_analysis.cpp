// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/stored_analysis.h"

#include <array>
#include <utility>
#include <vector>

#include "core/analysis/synced_analysis.h"
#include "core/io/codec/zstd.h"
#include "core/io/workspace/stored_analysis_fields.h"
#include "core/util/build_info.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

using stored::StoredIn;
using stored::StoredOut;

constexpr std::string_view kMagic = "TPSA";
// Raised whenever a section's fields change: a blob of another format reads as "not stored".
constexpr std::uint64_t kFormat = 1;
// zstd level 1: the sections are mostly small varints and compress about 3x at it, at ~0.5 GB/s a core.
constexpr int kLevel = 1;

using stored::kSectionCount;
constexpr std::array<std::string_view, kSectionCount> kSectionNames = {
    "summary", "segmentation", "collective calls", "call participants", "layer rows", "layer instances"};

// What a section may decompress to before it is refused: far above what any analysis of `trace` holds
// (about 40 bytes an event at most), so that a hostile size cannot allocate without bound.
std::uint64_t maxSectionBytes(const Trace& trace) {
    return std::uint64_t{256} * (trace.eventCount() + trace.ranks.size()) + (std::uint64_t{64} << 20);
}

// What the sections say of each other and of the trace: every reference in range, and the tables
// that hold one entry a rank hold one.
bool consistent(const StoredAnalysis& s, const stored::TraceShape& shape) {
    const analysis::RunAnalysis& a = s.analysis;
    for (const auto& c : a.matching.calls) {
        if (std::uint64_t{c.firstParticipant} + c.participantCount > a.matching.participants.size()) return false;
    }
    for (const auto& l : a.breakdown.layers) {
        if (std::uint64_t{l.firstRow} + l.ranks > a.breakdown.rows.size()) return false;
    }
    return a.breakdown.rankTotals.size() == shape.ranks && a.matching.ranks.size() == shape.ranks &&
           (s.clock.ranks.empty() || s.clock.ranks.size() == shape.ranks);
}

Error damagedAnalysis(const std::string& what) {
    return makeError(ErrorCode::ParseError, "the stored analysis is damaged (" + what + ")", "analysis_cache");
}

struct PackedSection {
    std::uint64_t rawBytes = 0;
    Result<std::string> bytes = std::string();
};

}  // namespace

std::string storedAnalysisBuild() {
    const std::string_view commit = buildCommit();
    if (commit.ends_with("-modified")) return {};
    return std::string(projectVersion()) + " " + std::string(commit);
}

Result<std::string> encodeStoredAnalysis(const analysis::RunAnalysis& analysis, const analysis::ClockEstimate& clock,
                                         const Trace& trace, const StoredAnalysisKey& key, unsigned threads) {
    if (key.build.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         "no build identity: a build from a modified tree stores no analysis");
    }
    std::array<PackedSection, kSectionCount> sections;
    parallelFor(kSectionCount, threads, [&](std::size_t s) {
        StoredOut out;
        stored::writeSection(s, out, analysis, clock);
        sections[s].rawBytes = out.bytes().size();
        sections[s].bytes = codec::compressZstd(out.bytes(), kLevel);
    });
    StoredOut header;
    header.u(kFormat);
    header.text(key.build);
    header.s(key.batch);
    header.u(trace.eventCount());
    header.u(trace.ranks.size());
    header.u(kSectionCount);
    std::size_t total = 0;
    for (const auto& section : sections) {
        if (!section.bytes) return section.bytes.error();
        header.u(section.rawBytes);
        header.u(section.bytes->size());
        total += section.bytes->size();
    }
    if (total > kMaxStoredAnalysisBytes) {
        return makeError(ErrorCode::Unsupported, "the analysis is too large to store (" + std::to_string(total >> 20) +
                                                     " MiB compressed); it is computed when the run opens");
    }
    std::string blob(kMagic);
    blob.reserve(kMagic.size() + header.bytes().size() + total);
    blob += header.bytes();
    for (const auto& section : sections) blob += *section.bytes;
    return blob;
}

Result<std::optional<StoredAnalysis>> decodeStoredAnalysis(std::string_view blob, const Trace& trace,
                                                           const StoredAnalysisKey& key, unsigned threads) {
    // Not this build's (or not a stored analysis at all): analysed as if nothing were stored.
    if (key.build.empty() || !blob.starts_with(kMagic)) return std::optional<StoredAnalysis>();
    blob.remove_prefix(kMagic.size());
    StoredIn header(blob);
    if (header.u() != kFormat || header.text() != key.build || header.s() != key.batch ||
        header.u() != trace.eventCount() || header.u() != trace.ranks.size() || !header.ok()) {
        return std::optional<StoredAnalysis>();
    }
    if (header.u() != kSectionCount) return damagedAnalysis("section count");
    const std::uint64_t maxRaw = maxSectionBytes(trace);
    std::array<std::pair<std::uint64_t, std::uint64_t>, kSectionCount> sizes{};  // raw, packed
    std::uint64_t packedTotal = 0;
    for (auto& [raw, packed] : sizes) {
        raw = header.u();
        packed = header.u();
        packedTotal += packed;
        if (!header.ok() || raw > maxRaw || packed > blob.size()) return damagedAnalysis("section sizes");
    }
    const std::size_t headerBytes = blob.size() - header.bytesLeft();
    if (headerBytes + packedTotal != blob.size()) return damagedAnalysis("length");

    const stored::TraceShape shape(trace);
    std::optional<StoredAnalysis> out(std::in_place);
    std::vector<Status> status(kSectionCount, Status(Ok{}));
    std::array<std::size_t, kSectionCount> offsets{};
    for (std::size_t s = 1; s < kSectionCount; ++s) offsets[s] = offsets[s - 1] + sizes[s - 1].second;
    parallelFor(kSectionCount, threads, [&](std::size_t s) {
        const std::string_view packed = blob.substr(headerBytes + offsets[s], sizes[s].second);
        const std::string name(kSectionNames[s]);
        std::string raw;
        status[s] = codec::decompressZstdInto({reinterpret_cast<const unsigned char*>(packed.data()), packed.size()},
                                              sizes[s].first, maxRaw, name, raw);
        if (!status[s]) return;
        StoredIn in(raw);
        stored::readSection(s, in, shape, out->analysis, out->clock);
        if (!in.done()) status[s] = damagedAnalysis(name);
    });
    for (const auto& s : status) {
        if (!s) return s.error();
    }
    if (!consistent(*out, shape)) return damagedAnalysis("references between sections");
    return out;
}

Status storeAnalysis(Run& run, const std::string& build, unsigned threads) {
    const StoredAnalysisKey key{build, run.info.batch};
    if (!run.trace || key.build.empty()) return Ok{};
    analysis::AnalysisOptions options;
    options.batch = key.batch;
    options.threads = threads;
    const auto both = analysis::analyzeWithClockEstimate(*run.trace, options);
    auto blob = encodeStoredAnalysis(both.analysis, both.estimate, *run.trace, key, threads);
    if (!blob) return blob.error();
    run.analysisCache = std::move(*blob);
    return Ok{};
}

}  // namespace tpscope::core
