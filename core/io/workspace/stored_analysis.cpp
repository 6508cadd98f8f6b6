// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/workspace/stored_analysis.h"

#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "core/analysis/exposed_comm.h"
#include "core/analysis/synced_analysis.h"
#include "core/io/codec/zstd.h"
#include "core/io/sqlite_db.h"
#include "core/io/workspace/stored_analysis_fields.h"
#include "core/io/workspace/workspace_runs.h"
#include "core/util/build_info.h"
#include "core/util/parallel_for.h"

namespace tpscope::core {

namespace {

using stored::StoredIn;
using stored::StoredOut;

constexpr std::string_view kMagic = "TPSA";
// Raised whenever a section's fields change: a blob of another format reads as "not stored".
// 2: the exposed-communication section.
constexpr std::uint64_t kFormat = 2;
// zstd level 1, as the event chunks: the sections are varints of measured times, 1.4-2.2x smaller
// at it (the 100 M-event workspace of docs/PERFORMANCE.md).
constexpr int kLevel = 1;

using stored::kSectionCount;
constexpr std::array<std::string_view, kSectionCount> kSectionNames = {
    "summary",    "segmentation",    "collective calls",     "call participants",
    "layer rows", "layer instances", "exposed communication"};

// The analysis' sections by the time they take at 100 M events (the layer rows ~40 %, the participants
// ~25 %), so that two threads end together: the one that takes the rows first does nothing else for
// most of it. Written in this order too, with the exposed communication (about as long as the
// participants to write) among the first.
constexpr std::array<std::size_t, stored::kAnalysisSectionCount> kLargestFirst = {
    stored::kRows, stored::kParticipants, stored::kSegmentation, stored::kCalls, stored::kLayers, stored::kSummary};
constexpr std::array<std::size_t, kSectionCount> kWriteOrder = {
    stored::kRows,  stored::kParticipants, stored::kExposedComm, stored::kSegmentation,
    stored::kCalls, stored::kLayers,       stored::kSummary};

// What a frame may decompress to before it is refused (a frame is cut at the first mark past
// kFrameBytes, and no single item comes near this).
constexpr std::uint64_t kMaxFrameBytes = std::uint64_t{64} << 20;
// The header is read whole before any frame; a real one is a few kilobytes (a frame per MB of raw section).
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;

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

struct Frame {
    std::uint64_t rawBytes = 0;
    std::uint64_t packedBytes = 0;
    std::uint64_t offset = 0;  // of its packed bytes in the blob
};

struct PackedSection {
    std::vector<Frame> frames;
    std::vector<std::string> packed;
    Status status = Ok{};
};

// The blob's bytes, read a range at a time (from memory, or straight from the file's blob).
class BlobSource {
  public:
    virtual ~BlobSource() = default;
    virtual std::uint64_t size() const = 0;
    // Thread-safe: frames are read from every section's thread.
    virtual Status read(std::uint64_t offset, std::size_t length, std::string& out) = 0;
};

class MemorySource final : public BlobSource {
  public:
    explicit MemorySource(std::string_view bytes) : m_bytes(bytes) {}
    std::uint64_t size() const override { return m_bytes.size(); }
    Status read(std::uint64_t offset, std::size_t length, std::string& out) override {
        if (offset > m_bytes.size() || length > m_bytes.size() - offset) return damagedAnalysis("length");
        out.assign(m_bytes.substr(offset, length));
        return Ok{};
    }

  private:
    std::string_view m_bytes;
};

// The run's analysis_cache read in place (sqlite3_blob_read): no copy of the whole blob in memory.
class SqliteBlobSource final : public BlobSource {
  public:
    SqliteBlobSource(sqlite3_blob* blob, std::string path) : m_blob(blob), m_path(std::move(path)) {}
    SqliteBlobSource(const SqliteBlobSource&) = delete;
    SqliteBlobSource& operator=(const SqliteBlobSource&) = delete;
    ~SqliteBlobSource() override { sqlite3_blob_close(m_blob); }
    std::uint64_t size() const override { return static_cast<std::uint64_t>(sqlite3_blob_bytes(m_blob)); }
    Status read(std::uint64_t offset, std::size_t length, std::string& out) override {
        if (offset > size() || length > size() - offset) return damagedAnalysis("length");
        out.resize(length);
        const std::lock_guard lock(m_mutex);
        if (sqlite3_blob_read(m_blob, out.data(), static_cast<int>(length), static_cast<int>(offset)) != SQLITE_OK) {
            return makeError(ErrorCode::IoError, "cannot read the stored analysis", m_path);
        }
        return Ok{};
    }

  private:
    sqlite3_blob* m_blob;
    std::string m_path;
    std::mutex m_mutex;
};

// write: the section's fields onto the writer it is given.
PackedSection packSection(const std::function<void(StoredOut&)>& write) {
    PackedSection p;
    // Each frame compressed as it is cut: the raw section (0.47 GB at 100 M events) is never whole.
    StoredOut out([&p](std::string_view frame) {
        if (!p.status) return;
        if (frame.size() > kMaxFrameBytes) {
            p.status = makeError(ErrorCode::Unsupported, "an item of the analysis is too large to store");
            return;
        }
        auto packed = codec::compressZstd(frame, kLevel);
        if (!packed) {
            p.status = packed.error();
            return;
        }
        p.frames.push_back({frame.size(), packed->size(), 0});
        p.packed.push_back(std::move(*packed));
    });
    write(out);
    out.finish();
    return p;
}

// One section's frames, each read and decompressed into buffers reused from frame to frame.
class FrameReader {
  public:
    FrameReader(BlobSource& source, const std::vector<Frame>& frames, std::string name)
        : m_source(source), m_frames(frames), m_name(std::move(name)) {}
    bool next(std::string_view& frame, std::size_t& bytesAfter) {
        if (m_next >= m_frames.size() || !m_status) return false;
        const Frame& f = m_frames[m_next++];
        m_status = m_source.read(f.offset, static_cast<std::size_t>(f.packedBytes), m_packed);
        if (m_status) {
            m_status =
                codec::decompressZstdInto({reinterpret_cast<const unsigned char*>(m_packed.data()), m_packed.size()},
                                          f.rawBytes, kMaxFrameBytes, m_name, m_raw);
        }
        if (!m_status) return false;
        bytesAfter = 0;
        for (std::size_t i = m_next; i < m_frames.size(); ++i) bytesAfter += m_frames[i].rawBytes;
        frame = m_raw;
        return true;
    }
    const Status& status() const { return m_status; }

  private:
    BlobSource& m_source;
    const std::vector<Frame>& m_frames;
    std::string m_name;
    std::size_t m_next = 0;
    std::string m_packed;
    std::string m_raw;
    Status m_status = Ok{};
};

using SectionFrames = std::array<std::vector<Frame>, kSectionCount>;

// The blob's header: whether it holds this key's analysis of this trace (nullopt: not stored, as far as
// this build is concerned), and where each section's frames lie.
Result<std::optional<SectionFrames>> readLayout(BlobSource& source, const Trace& trace, const StoredAnalysisKey& key) {
    // Not this build's (or not a stored analysis at all): analysed as if nothing were stored.
    std::string head;
    TPSCOPE_TRY(
        source.read(0, static_cast<std::size_t>(std::min<std::uint64_t>(source.size(), kMaxHeaderBytes)), head));
    if (key.build.empty() || !std::string_view(head).starts_with(kMagic)) return std::optional<SectionFrames>();
    StoredIn header(std::string_view(head).substr(kMagic.size()));
    if (header.u() != kFormat || header.text() != key.build || header.s() != key.batch ||
        header.u() != trace.eventCount() || header.u() != trace.ranks.size() || !header.ok()) {
        return std::optional<SectionFrames>();
    }
    if (header.u() != kSectionCount) return damagedAnalysis("section count");
    std::optional<SectionFrames> frames(std::in_place);
    for (auto& section : *frames) {
        section.resize(header.count());
        for (auto& f : section) {
            f.rawBytes = header.below(kMaxFrameBytes + 1);
            f.packedBytes = header.below(source.size() + 1);
        }
    }
    if (!header.ok()) return damagedAnalysis("frame sizes");
    std::uint64_t offset = head.size() - header.bytesLeft();
    for (auto& section : *frames) {
        for (auto& f : section) {
            f.offset = offset;
            offset += f.packedBytes;
        }
    }
    if (offset != source.size()) return damagedAnalysis("length");
    return frames;
}

// Section s read by `read` from its frames: an error when a frame cannot be read or the section does
// not end where its fields do.
Status readFrames(BlobSource& source, const SectionFrames& frames, std::size_t s,
                  const std::function<void(StoredIn&)>& read) {
    const std::string name(kSectionNames[s]);
    FrameReader reader(source, frames[s], name);
    StoredIn in([&reader](std::string_view& frame, std::size_t& after) { return reader.next(frame, after); });
    read(in);
    if (!reader.status()) return reader.status();
    if (!in.done()) return damagedAnalysis(name);
    return Ok{};
}

Result<std::optional<StoredAnalysis>> decodeFrom(BlobSource& source, const Trace& trace, const StoredAnalysisKey& key,
                                                 unsigned threads) {
    std::optional<SectionFrames> frames;
    TPSCOPE_TRY_ASSIGN(frames, readLayout(source, trace, key));
    if (!frames) return std::optional<StoredAnalysis>();
    const stored::TraceShape shape(trace);
    std::optional<StoredAnalysis> out(std::in_place);
    std::vector<Status> status(kLargestFirst.size(), Status(Ok{}));
    parallelFor(kLargestFirst.size(), threads, [&](std::size_t i) {
        const std::size_t s = kLargestFirst[i];
        status[i] = readFrames(source, *frames, s,
                               [&](StoredIn& in) { stored::readSection(s, in, shape, out->analysis, out->clock); });
    });
    for (const auto& s : status) {
        if (!s) return s.error();
    }
    if (!consistent(*out, shape)) return damagedAnalysis("references between sections");
    return out;
}

Result<std::optional<StoredExposedComm>> decodeExposedFrom(BlobSource& source, const Trace& trace,
                                                           const StoredAnalysisKey& key) {
    std::optional<SectionFrames> frames;
    TPSCOPE_TRY_ASSIGN(frames, readLayout(source, trace, key));
    if (!frames) return std::optional<StoredExposedComm>();
    const stored::TraceShape shape(trace);
    std::optional<StoredExposedComm> out(std::in_place);
    TPSCOPE_TRY(readFrames(source, *frames, stored::kExposedComm,
                           [&](StoredIn& in) { stored::readExposedCommSection(in, shape, *out); }));
    // An empty list for ranks that are there: left out of a blob that was too large with it.
    if (out->empty() && !trace.ranks.empty()) return std::optional<StoredExposedComm>();
    return out;
}

// Run `runIndex`'s stored blob opened in place; null when the run stores none.
Result<std::unique_ptr<SqliteBlobSource>> openStoredBlob(SqliteDb& db, const std::string& path, std::size_t runIndex) {
    auto stmt = db.prepare("SELECT run_id, analysis_cache IS NULL FROM runs ORDER BY run_id LIMIT 1 OFFSET ?1");
    if (!stmt) return stmt.error();
    stmt->bind(1, static_cast<std::int64_t>(runIndex));
    if (stmt->step() != SQLITE_ROW) return makeError(ErrorCode::NotFound, "no run " + std::to_string(runIndex), path);
    if (stmt->int64(1) != 0) return std::unique_ptr<SqliteBlobSource>();
    sqlite3_blob* blob = nullptr;
    if (sqlite3_blob_open(db.handle(), "main", "runs", "analysis_cache", stmt->int64(0), 0, &blob) != SQLITE_OK) {
        sqlite3_blob_close(blob);
        return makeError(ErrorCode::IoError, "cannot read the stored analysis", path);
    }
    return std::make_unique<SqliteBlobSource>(blob, path);
}

}  // namespace

std::string storedAnalysisBuild() {
    const std::string_view commit = buildCommit();
    if (commit.ends_with("-modified")) return {};
    return std::string(projectVersion()) + " " + std::string(commit);
}

analysis::AnalysisOptions storedAnalysisOptions(int batch) {
    analysis::AnalysisOptions options;
    options.batch = batch;
    return options;
}

Result<std::string> encodeStoredAnalysis(const analysis::RunAnalysis& analysis, const analysis::ClockEstimate& clock,
                                         const Trace& trace, const StoredAnalysisKey& key, unsigned threads,
                                         std::span<const EventColumns* const> exposedComm, std::size_t maxBytes) {
    if (key.build.empty()) {
        return makeError(ErrorCode::InvalidArgument,
                         "no build identity: a build from a modified tree stores no analysis");
    }
    std::vector<EventColumns> derived;
    std::vector<const EventColumns*> exposed(exposedComm.begin(), exposedComm.end());
    if (exposed.empty() && !trace.ranks.empty()) {
        derived = analysis::exposedCommColumns(trace, threads);
        for (const auto& columns : derived) exposed.push_back(&columns);
    }
    if (exposed.size() != trace.ranks.size()) {
        return makeError(ErrorCode::InvalidArgument, "exposed communication of " + std::to_string(exposed.size()) +
                                                         " ranks for a trace of " + std::to_string(trace.ranks.size()));
    }
    std::array<PackedSection, kSectionCount> sections;
    parallelFor(kSectionCount, threads, [&](std::size_t i) {
        const std::size_t s = kWriteOrder[i];
        sections[s] = packSection([&](StoredOut& out) {
            if (s == stored::kExposedComm) {
                stored::writeExposedCommSection(out, exposed);
            } else {
                stored::writeSection(s, out, analysis, clock);
            }
        });
    });
    const auto packedBytes = [&sections] {
        std::size_t total = 0;
        for (const auto& section : sections) {
            for (const auto& f : section.frames) total += f.packedBytes;
        }
        return total;
    };
    // Too large with the exposed communication (at 100 M events it is a quarter of the blob): the
    // analysis is kept without it, as an empty list, and the timeline derives it when the run opens.
    if (packedBytes() > maxBytes && sections[stored::kExposedComm].status) {
        sections[stored::kExposedComm] = packSection([](StoredOut& out) { stored::writeExposedCommSection(out, {}); });
    }
    StoredOut header;
    header.u(kFormat);
    header.text(key.build);
    header.s(key.batch);
    header.u(trace.eventCount());
    header.u(trace.ranks.size());
    header.u(kSectionCount);
    for (const auto& section : sections) {
        if (!section.status) return section.status.error();
        header.u(section.frames.size());
        for (const auto& f : section.frames) {
            header.u(f.rawBytes);
            header.u(f.packedBytes);
        }
    }
    const std::size_t total = packedBytes();
    if (total > maxBytes) {
        return makeError(ErrorCode::Unsupported, "the analysis is too large to store (" + std::to_string(total >> 20) +
                                                     " MiB compressed); it is computed when the run opens");
    }
    std::string blob(kMagic);
    blob.reserve(kMagic.size() + header.bytes().size() + total);
    blob += header.bytes();
    for (const auto& section : sections) {
        for (const auto& packed : section.packed) blob += packed;
    }
    return blob;
}

Result<std::optional<StoredAnalysis>> decodeStoredAnalysis(std::string_view blob, const Trace& trace,
                                                           const StoredAnalysisKey& key, unsigned threads) {
    MemorySource source(blob);
    return decodeFrom(source, trace, key, threads);
}

Result<std::optional<StoredAnalysis>> loadStoredAnalysis(const std::string& path, std::size_t runIndex,
                                                         const Trace& trace, const StoredAnalysisKey& key,
                                                         unsigned threads) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::unique_ptr<SqliteBlobSource> source;
    TPSCOPE_TRY_ASSIGN(source, openStoredBlob(*db, path, runIndex));
    if (!source) return std::optional<StoredAnalysis>();
    return decodeFrom(*source, trace, key, threads);
}

Result<std::optional<StoredExposedComm>> decodeStoredExposedComm(std::string_view blob, const Trace& trace,
                                                                 const StoredAnalysisKey& key) {
    MemorySource source(blob);
    return decodeExposedFrom(source, trace, key);
}

Result<std::optional<StoredExposedComm>> loadStoredExposedComm(const std::string& path, std::size_t runIndex,
                                                               const Trace& trace, const StoredAnalysisKey& key) {
    auto db = openWorkspace(path);
    if (!db) return db.error();
    std::unique_ptr<SqliteBlobSource> source;
    TPSCOPE_TRY_ASSIGN(source, openStoredBlob(*db, path, runIndex));
    if (!source) return std::optional<StoredExposedComm>();
    return decodeExposedFrom(*source, trace, key);
}

Status storeAnalysis(Run& run, const std::string& build, unsigned threads) {
    const StoredAnalysisKey key{build, run.info.batch};
    if (!run.trace || key.build.empty()) return Ok{};
    analysis::AnalysisOptions options = storedAnalysisOptions(key.batch);
    options.threads = threads;
    const auto both = analysis::analyzeWithClockEstimate(*run.trace, options);
    auto blob = encodeStoredAnalysis(both.analysis, both.estimate, *run.trace, key, threads);
    if (!blob) return blob.error();
    run.analysisCache = std::move(*blob);
    return Ok{};
}

}  // namespace tpscope::core
