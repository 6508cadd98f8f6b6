// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The sections of a stored analysis (stored_analysis.h), field by field. Each section is written to a
// StoredOut and read back from a StoredIn; a reader checks every count against the bytes left and
// every index against the trace's shape, and fails (sticky) instead of reading past anything.

#include <bit>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/analysis/analysis.h"
#include "core/analysis/clock_sync.h"
#include "core/io/codec/event_codec.h"
#include "core/trace/trace.h"

namespace tpscope::core::stored {

// A section's writer. mark() after each item of a long list: with a frame sink, each frame of about
// kFrameBytes is handed to it at the first mark past that size (and the rest at finish()), so that a
// writer holds one frame at a time and an item never straddles two frames; without one, the section is
// one frame, kept in bytes().
inline constexpr std::size_t kFrameBytes = std::size_t{1} << 20;

class StoredOut {
  public:
    using FrameSink = std::function<void(std::string_view frame)>;

    StoredOut() = default;
    explicit StoredOut(FrameSink sink) : m_sink(std::move(sink)) {}

    void u(std::uint64_t v) { m_w.varint(v); }
    void s(std::int64_t v) { m_w.zigzag(v); }
    void f(double v) { m_w.varint(std::bit_cast<std::uint64_t>(v)); }
    void b(bool v) { m_w.u8(v ? 1 : 0); }
    void text(std::string_view t) { m_w.text(t); }
    void texts(const std::vector<std::string>& list) {
        u(list.size());
        for (const auto& t : list) text(t);
    }
    void mark() {
        if (m_sink && m_w.bytes().size() >= kFrameBytes) flush();
    }
    // The last frame to the sink (it may be empty: a section has at least one frame).
    void finish() {
        if (m_sink) flush();
    }
    std::string& bytes() { return m_w.bytes(); }

  private:
    void flush() {
        m_sink(m_w.bytes());
        m_w.bytes().clear();
    }

    codec::Writer m_w;
    FrameSink m_sink;
};

// A section's reader, over one frame at a time. Its values read as 0 once anything failed (sticky).
class StoredIn {
  public:
    // The next frame of the section and the raw bytes of the frames after it; false when there is none.
    using NextFrame = std::function<bool(std::string_view& frame, std::size_t& bytesAfter)>;

    explicit StoredIn(std::string_view bytes) : m_r(bytes) {}  // a section of one frame
    explicit StoredIn(NextFrame next) : m_r(std::string_view()), m_next(std::move(next)) { advance(); }

    std::uint64_t u() {
        std::uint64_t v = 0;
        if (m_ok && !m_r.varint(v)) m_ok = false;
        return m_ok ? v : 0;
    }
    std::int64_t s() {
        std::int64_t v = 0;
        if (m_ok && !m_r.zigzag(v)) m_ok = false;
        return m_ok ? v : 0;
    }
    // `base` plus the next signed value, the difference the writer stored. A damaged section can hold any
    // difference: a sum past 64 bits fails the section (and reads 0) instead of overflowing.
    std::int64_t plus(std::int64_t base) { return sum(base, s()); }
    // a + b and a - b of values already read (the derived times), failing the section the same way.
    std::int64_t sum(std::int64_t a, std::int64_t b) {
        std::int64_t v = 0;
        if (__builtin_add_overflow(a, b, &v)) m_ok = false;
        return m_ok ? v : 0;
    }
    std::int64_t difference(std::int64_t a, std::int64_t b) {
        std::int64_t v = 0;
        if (__builtin_sub_overflow(a, b, &v)) m_ok = false;
        return m_ok ? v : 0;
    }
    double f() { return std::bit_cast<double>(u()); }
    bool b() { return below(2) == 1; }
    // A value that must be below `limit` (an index, an enum's range).
    std::uint64_t below(std::uint64_t limit) {
        const std::uint64_t v = u();
        if (v >= limit) m_ok = false;
        return m_ok ? v : 0;
    }
    template <typename E>
    E enumBelow(std::uint64_t count) {
        return static_cast<E>(below(count));
    }
    // A count of items that take at least one byte each: never more than the bytes left.
    std::size_t count() { return static_cast<std::size_t>(below(bytesLeft() + 1)); }
    std::string text() {
        std::string_view t;
        if (m_ok && !m_r.text(t)) m_ok = false;
        return m_ok ? std::string(t) : std::string();
    }
    // The same without a copy: valid until the next mark().
    std::string_view textView() {
        std::string_view t;
        if (m_ok && !m_r.text(t)) m_ok = false;
        return m_ok ? t : std::string_view();
    }
    std::vector<std::string> texts() {
        std::vector<std::string> list(count());
        for (auto& t : list) t = text();
        return list;
    }
    // Where the writer marked: at a frame's end, the next frame is read.
    void mark() {
        if (m_ok && m_r.atEnd() && m_bytesAfter > 0) advance();
    }
    void fail() { m_ok = false; }
    bool ok() const { return m_ok; }
    bool done() const { return m_ok && m_r.atEnd() && m_bytesAfter == 0; }
    std::size_t bytesLeft() const { return m_r.remaining() + m_bytesAfter; }

  private:
    void advance() {
        std::string_view frame;
        if (m_next && m_next(frame, m_bytesAfter)) {
            m_r = codec::Reader(frame);
        } else {
            m_ok = m_ok && m_bytesAfter == 0;
            m_bytesAfter = 0;
        }
    }

    codec::Reader m_r;
    NextFrame m_next;
    std::size_t m_bytesAfter = 0;
    bool m_ok = true;
};

// How many values each stored enum has (a value at or above is refused): the enums' ranges today.
inline constexpr std::uint64_t kSegmentationSources = 4;  // SegmentationSource::None .. Repeat
inline constexpr std::uint64_t kStepPhases = 4;           // StepPhase::Unknown .. Mixed
inline constexpr std::uint64_t kBlockKinds = 2;           // BlockKind::Attention, Mlp
inline constexpr std::uint64_t kUnitSplits = 3;           // UnitSplit::None .. Collectives
inline constexpr std::uint64_t kCollectiveOps = 8;        // CollectiveOp::Unknown .. SendRecv
inline constexpr std::uint64_t kFindingKinds = 2;         // FindingKind::LaunchBound, SingleRankCollectives
inline constexpr std::uint64_t kGapKinds = 3;             // GapKind::OtherKernels .. BatchAssumed

// What the indices of an analysis point into.
struct TraceShape {
    TraceShape() = default;
    explicit TraceShape(const Trace& trace);
    std::size_t ranks = 0;
    std::size_t names = 0;
    std::size_t payloads = 0;
    std::vector<std::vector<std::size_t>> streamEvents;  // per rank, per stream: its event count
};

// The sections in the order the blob holds them. readSection fills members of the section's own, so that
// the sections decode on separate threads; an unknown section number reads nothing and fails. The last,
// each rank's exposed-communication intervals for the timeline, is not part of the analysis: it is read
// on its own (readExposedCommSection), before the others, so that the timeline's rows need not walk
// every kernel again.
enum Section : std::size_t {
    kSummary,
    kSegmentation,
    kCalls,
    kParticipants,
    kRows,
    kLayers,
    kExposedComm,
    kSectionCount
};
inline constexpr std::size_t kAnalysisSectionCount = kExposedComm;
void writeSection(std::size_t section, StoredOut& out, const analysis::RunAnalysis& a,
                  const analysis::ClockEstimate& clock);
void readSection(std::size_t section, StoredIn& in, const TraceShape& shape, analysis::RunAnalysis& a,
                 analysis::ClockEstimate& clock);

void writeSummarySection(StoredOut& out, const analysis::RunAnalysis& a, const analysis::ClockEstimate& clock);
void readSummarySection(StoredIn& in, const TraceShape& shape, analysis::RunAnalysis& a,
                        analysis::ClockEstimate& clock);

void writeSegmentationSection(StoredOut& out, const analysis::Segmentation& segmentation);
void readSegmentationSection(StoredIn& in, const TraceShape& shape, analysis::Segmentation& segmentation);

void writeCallsSection(StoredOut& out, const std::vector<analysis::CollectiveCall>& calls);
void readCallsSection(StoredIn& in, const TraceShape& shape, std::vector<analysis::CollectiveCall>& calls);

void writeParticipantsSection(StoredOut& out, const analysis::CollectiveMatching& matching);
void readParticipantsSection(StoredIn& in, const TraceShape& shape, analysis::CollectiveMatching& matching);

void writeRowsSection(StoredOut& out, const analysis::LayerRows& rows);
void readRowsSection(StoredIn& in, const TraceShape& shape, analysis::LayerRows& rows);

void writeLayersSection(StoredOut& out, const std::vector<analysis::LayerAcrossRanks>& layers);
void readLayersSection(StoredIn& in, const TraceShape& shape, std::vector<analysis::LayerAcrossRanks>& layers);

// One entry a rank (or none: left out), each rank's columns as event chunks of up to
// codec::kChunkEvents (in block form where the columns have one, else varints: codec::decodeEvents
// tells them apart), a mark after each chunk.
void writeExposedCommSection(StoredOut& out, std::span<const EventColumns* const> ranks);
// The columns finalized; names and payloads checked against the trace's tables.
void readExposedCommSection(StoredIn& in, const TraceShape& shape, std::vector<EventColumns>& ranks);

}  // namespace tpscope::core::stored
