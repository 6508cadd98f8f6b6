// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The stored analysis (core/io/workspace/stored_analysis.h): what comes back is the analysis that was
// stored, in everything `analyze --json` prints and in every field the encoding holds; another build,
// batch or trace reads as "not stored"; a damaged blob is an error, never a crash.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <sstream>
#include <tuple>
#include <vector>

#include "core/analysis/analysis_json.h"
#include "core/analysis/exposed_comm.h"
#include "core/analysis/synced_analysis.h"
#include "core/hw/catalog.h"
#include "core/io/import/trace_reader.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/io/workspace/stored_analysis_fields.h"
#include "core/sim/sweep.h"
#include "core/trace/event_batch_builder.h"
#include "core/util/json_writer.h"
#include "io_test_util.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

const core::StoredAnalysisKey kKey{"0.1.0 test-build", 2};

std::shared_ptr<const core::Trace> simulatedTrace(int tp, int tokens) {
    auto catalog = core::Catalog::load({});
    EXPECT_TRUE(catalog);
    auto spec = core::sim::defaultSweepSpec(*catalog);
    EXPECT_TRUE(spec);
    spec->tps = {tp};
    spec->batches = {2};
    spec->tokens = tokens;
    auto result = core::sim::runSweep(*spec);
    EXPECT_TRUE(result) << result.error().describe();
    return result->runs.at(0).trace;
}

// Everything `analyze --json` prints of it, the matched calls and one rank's layer table included.
std::string jsonOf(const core::Trace& trace, const core::analysis::RunAnalysis& a) {
    std::ostringstream out;
    core::JsonWriter w(out);
    core::analysis::AnalysisJsonOptions options;
    options.includeCalls = true;
    core::analysis::writeAnalysisJson(w, trace, a, options);
    options.includeCalls = false;
    options.rankIndex = static_cast<std::int64_t>(trace.ranks.size()) - 1;
    core::analysis::writeAnalysisJson(w, trace, a, options);
    return out.str();
}

void expectSameClock(const core::analysis::ClockEstimate& a, const core::analysis::ClockEstimate& b) {
    EXPECT_EQ(a.referenceRankIndex, b.referenceRankIndex);
    EXPECT_EQ(a.callsUsed, b.callsUsed);
    EXPECT_EQ(a.callsDropped, b.callsDropped);
    ASSERT_EQ(a.ranks.size(), b.ranks.size());
    for (std::size_t r = 0; r < a.ranks.size(); ++r) {
        EXPECT_EQ(a.ranks[r].rankIndex, b.ranks[r].rankIndex);
        EXPECT_EQ(a.ranks[r].known, b.ranks[r].known);
        EXPECT_EQ(a.ranks[r].offsetNs, b.ranks[r].offsetNs);
        EXPECT_EQ(a.ranks[r].residualNs, b.ranks[r].residualNs);
        EXPECT_EQ(a.ranks[r].calls, b.ranks[r].calls);
        EXPECT_EQ(a.ranks[r].reason, b.ranks[r].reason);
    }
}

// The analysis and clock estimate a stored analysis under kKey holds: the defaults but the key's batch.
core::analysis::AnalysisWithClockEstimate analysedForKey(const core::Trace& trace) {
    core::analysis::AnalysisOptions options;
    options.batch = kKey.batch;
    return core::analysis::analyzeWithClockEstimate(trace, options);
}

// Each rank's exposed-communication columns as the timeline derives them.
std::vector<core::EventColumns> exposedOf(const core::Trace& trace) {
    return core::analysis::exposedCommColumns(trace);
}

std::vector<const core::EventColumns*> pointersTo(const std::vector<core::EventColumns>& columns) {
    std::vector<const core::EventColumns*> out;
    for (const auto& c : columns) out.push_back(&c);
    return out;
}

// The analysis of `trace` stored and read back: the same JSON, the same clock estimate, each rank's
// exposed communication, and stored again, the same bytes (every encoded field came back as it was).
// Returns its layer rows.
std::size_t expectRoundTrip(const core::Trace& trace, const std::string& what) {
    const auto both = analysedForKey(trace);
    auto blob = core::encodeStoredAnalysis(both.analysis, both.estimate, trace, kKey);
    EXPECT_TRUE(blob) << what << ": " << blob.error().describe();
    if (!blob) return 0;
    auto back = core::decodeStoredAnalysis(*blob, trace, kKey);
    EXPECT_TRUE(back && back->has_value()) << what << ": " << (back ? "not stored" : back.error().describe());
    if (!back || !back->has_value()) return 0;
    const core::StoredAnalysis& stored = **back;
    EXPECT_EQ(jsonOf(trace, stored.analysis), jsonOf(trace, both.analysis)) << what;
    expectSameClock(stored.clock, both.estimate);
    auto exposed = core::decodeStoredExposedComm(*blob, trace, kKey);
    EXPECT_TRUE(exposed && exposed->has_value()) << what << ": " << (exposed ? "none" : exposed.error().describe());
    if (!exposed || !exposed->has_value()) return 0;
    const auto derived = exposedOf(trace);
    EXPECT_TRUE(**exposed == derived) << what << ": the exposed communication came back otherwise";
    // Stored again with the columns read back (as the GUI's Save passes the timeline's): the same bytes.
    auto again = core::encodeStoredAnalysis(stored.analysis, stored.clock, trace, kKey, 0, pointersTo(**exposed));
    EXPECT_TRUE(again && *again == *blob) << what << ": stored again, not the same bytes";
    return both.analysis.breakdown.rows.size();
}

TEST(StoredAnalysis, ASimulatedRunComesBackAsItWasAnalysed) {
    const auto trace = simulatedTrace(4, 3);
    ASSERT_GT(trace->eventCount(), 1000u);
    expectRoundTrip(*trace, "simulated TP 4");
    // Long enough for its layer rows (10 bytes each at least) to take three frames or more.
    const auto longer = simulatedTrace(8, 400);
    EXPECT_GT(expectRoundTrip(*longer, "simulated TP 8, 400 tokens") * 10, 2 * core::stored::kFrameBytes);
}

// A long section is cut into frames at the writer's marks, about kFrameBytes each, and read back a
// frame at a time: every item whole, in order.
TEST(StoredAnalysis, ALongSectionIsReadBackAFrameAtATime) {
    std::vector<std::string> frames;
    core::stored::StoredOut out([&frames](std::string_view frame) { frames.emplace_back(frame); });
    const std::size_t items = 3 * core::stored::kFrameBytes / 4;
    for (std::size_t i = 0; i < items; ++i) {
        out.s(static_cast<std::int64_t>(i * 1000003 % 999983) - 500000);
        out.u(i);
        out.mark();
    }
    out.finish();
    ASSERT_GE(frames.size(), 3u);
    for (std::size_t f = 0; f + 1 < frames.size(); ++f) {
        EXPECT_GE(frames[f].size(), core::stored::kFrameBytes);
        EXPECT_LT(frames[f].size(), core::stored::kFrameBytes + 32);  // cut at the first mark past the size
    }
    std::size_t next = 0;
    core::stored::StoredIn in([&](std::string_view& frame, std::size_t& after) {
        if (next == frames.size()) return false;
        frame = frames[next++];
        after = 0;
        for (std::size_t f = next; f < frames.size(); ++f) after += frames[f].size();
        return true;
    });
    for (std::size_t i = 0; i < items; ++i) {
        ASSERT_EQ(in.s(), static_cast<std::int64_t>(i * 1000003 % 999983) - 500000) << i;
        ASSERT_EQ(in.u(), i);
        in.mark();
    }
    EXPECT_TRUE(in.done());
    EXPECT_EQ(next, frames.size());
    // An item that does not end where the writer marked runs off its frame: refused.
    next = 0;
    core::stored::StoredIn unmarked([&](std::string_view& frame, std::size_t& after) {
        if (next == frames.size()) return false;
        frame = frames[next++];
        after = 1;
        return true;
    });
    for (std::size_t i = 0; i < items && unmarked.ok(); ++i) {
        (void)unmarked.s();
        (void)unmarked.u();
    }
    EXPECT_FALSE(unmarked.ok());
}

TEST(StoredAnalysis, EveryPublicTraceComesBackAsItWasAnalysed) {
    if (!std::filesystem::exists(publicTraces())) GTEST_SKIP() << "no public traces under " << publicTraces();
    std::size_t analysed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(publicTraces())) {
        auto trace = core::readTrace(entry.path().string());
        if (!trace || (*trace)->eventCount() == 0) continue;  // measured tables (Vidur's CSVs), not traces
        expectRoundTrip(**trace, entry.path().filename().string());
        ++analysed;
    }
    EXPECT_GE(analysed, 5u);
}

TEST(StoredAnalysis, AnotherBuildBatchOrTraceReadsAsNotStored) {
    const auto trace = simulatedTrace(2, 2);
    const auto other = simulatedTrace(4, 2);
    const auto both = analysedForKey(*trace);
    auto blob = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey);
    ASSERT_TRUE(blob);
    for (const auto& [key, t, what] :
         {std::tuple{core::StoredAnalysisKey{"0.1.0 another", 2}, trace, "build"},
          std::tuple{core::StoredAnalysisKey{kKey.build, 3}, trace, "batch"},
          std::tuple{core::StoredAnalysisKey{"", 2}, trace, "modified build"}, std::tuple{kKey, other, "trace"}}) {
        auto back = core::decodeStoredAnalysis(*blob, *t, key);
        ASSERT_TRUE(back) << what << ": " << back.error().describe();
        EXPECT_FALSE(back->has_value()) << what;
        auto exposed = core::decodeStoredExposedComm(*blob, *t, key);
        ASSERT_TRUE(exposed) << what << ": " << exposed.error().describe();
        EXPECT_FALSE(exposed->has_value()) << what;
    }
    // Not a stored analysis at all (an older writer's opaque bytes): not stored either.
    auto foreign = core::decodeStoredAnalysis("cache\0with zero", *trace, kKey);
    ASSERT_TRUE(foreign);
    EXPECT_FALSE(foreign->has_value());
    // A modified tree's build stores nothing.
    EXPECT_FALSE(core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, {"", 2}));
}

TEST(StoredAnalysis, ADamagedBlobIsAnErrorNeverACrash) {
    const auto trace = simulatedTrace(2, 2);
    const auto both = analysedForKey(*trace);
    auto blob = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey);
    ASSERT_TRUE(blob);
    const std::string json = jsonOf(*trace, both.analysis);
    const auto derived = exposedOf(*trace);
    std::size_t errors = 0;
    std::size_t taken = 0;  // flipped blobs that both readers took
    const std::size_t step = std::max<std::size_t>(1, blob->size() / 400);
    for (std::size_t cut = 0; cut < blob->size(); cut += step) {
        auto back = core::decodeStoredAnalysis(std::string_view(*blob).substr(0, cut), *trace, kKey);
        EXPECT_FALSE(back && back->has_value()) << "cut at " << cut;
        errors += back ? 0 : 1;
        auto exposed = core::decodeStoredExposedComm(std::string_view(*blob).substr(0, cut), *trace, kKey);
        EXPECT_FALSE(exposed && exposed->has_value()) << "cut at " << cut;
        std::string flipped = *blob;
        flipped[cut] = static_cast<char>(flipped[cut] ^ 0x20);
        // The analysis and the exposed communication are read apart, each from its own sections: a byte
        // changed in one's frames (each frame carries a checksum of its content) or in the header is
        // refused by the reader of that part, or changes nothing it reads (a bit of a zstd frame header
        // that does not change the content): what is taken is what was stored, never something else.
        back = core::decodeStoredAnalysis(flipped, *trace, kKey);
        exposed = core::decodeStoredExposedComm(flipped, *trace, kKey);
        const bool analysisTaken = back && back->has_value();
        const bool exposedTaken = exposed && exposed->has_value();
        if (analysisTaken) {
            EXPECT_EQ(jsonOf(*trace, (*back)->analysis), json) << "byte " << cut << " flipped";
        }
        if (exposedTaken) {
            EXPECT_TRUE(**exposed == derived) << "byte " << cut << " flipped";
        }
        taken += analysisTaken && exposedTaken ? 1 : 0;
        errors += back ? 0 : 1;
    }
    EXPECT_GT(errors, 0u);
    EXPECT_LT(taken, 3u);  // a stray bit of a frame header at most; every other change is refused
}

TEST(StoredAnalysis, AnIndexOutsideTheTraceIsRefused) {
    const auto trace = simulatedTrace(2, 2);
    const core::stored::TraceShape shape(*trace);
    const std::size_t events = shape.streamEvents[1][0];
    // A participant of rank 1's first stream at its last event, then one past it.
    for (const std::size_t event : {events - 1, events}) {
        core::stored::StoredOut out;
        out.u(1);  // participants
        out.u(1);  // rank
        out.u(0);  // stream
        out.s(static_cast<std::int64_t>(event));
        out.s(0);  // wait
        out.u(0);  // long waits
        core::stored::StoredIn in(out.bytes());
        core::analysis::CollectiveMatching m;
        core::stored::readParticipantsSection(in, shape, m);
        EXPECT_EQ(in.done(), event < events) << "event " << event << " of " << events;
    }
    // A rank the trace does not have, and a count larger than the bytes that could hold it.
    core::stored::StoredOut out;
    out.u(1);
    out.u(shape.ranks);
    core::stored::StoredIn in(out.bytes());
    core::analysis::CollectiveMatching m;
    core::stored::readParticipantsSection(in, shape, m);
    EXPECT_FALSE(in.ok());
    core::stored::StoredOut huge;
    huge.u(std::uint64_t{1} << 40);
    core::stored::StoredIn hugeIn(huge.bytes());
    std::vector<core::analysis::CollectiveCall> calls;
    core::stored::readCallsSection(hugeIn, shape, calls);
    EXPECT_FALSE(hugeIn.ok());
    EXPECT_TRUE(calls.empty());
}

// A stored difference that takes a value past 64 bits fails the section: the sums are checked, never
// left to overflow (found by fuzz_workspace under UBSan). The same bytes with a difference that fits read.
TEST(StoredAnalysis, AValuePastSixtyFourBitsIsRefused) {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    const auto trace = simulatedTrace(2, 2);
    const core::stored::TraceShape shape(*trace);
    // Each value is kMax - 5 plus next + 5: kMax - 1 fits, kMax + 1 does not.
    for (const std::int64_t next : {std::int64_t{-1}, std::int64_t{1}}) {
        SCOPED_TRACE(next);
        // Layer windows: one rank's second window starts next + 5 after one at kMax - 5.
        core::stored::StoredOut segmentation;
        segmentation.u(shape.ranks);
        for (std::size_t r = 0; r < shape.ranks; ++r) {
            segmentation.u(r);  // rank id
            segmentation.u(0);  // source
            segmentation.u(0);  // steps
            segmentation.u(r == 0 ? 2 : 0);
            if (r == 0) {
                for (const std::int64_t start : {kMax - 5, next + 5}) {
                    for (const std::int64_t v : {std::int64_t{0}, std::int64_t{0}, start, std::int64_t{0}}) {
                        segmentation.s(v);  // step, layer, start (as a difference), duration
                    }
                }
            }
            segmentation.u(0);  // block windows
            for (int k = 0; k < 8; ++k) segmentation.u(0);
            segmentation.u(0);  // blocks derived
            segmentation.u(0);  // split by
            segmentation.u(0);  // pattern kept as a multiple
        }
        core::stored::StoredIn segmentationIn(segmentation.bytes());
        core::analysis::Segmentation windows;
        core::stored::readSegmentationSection(segmentationIn, shape, windows);
        EXPECT_EQ(segmentationIn.done(), next < 0);

        // Collective calls: the second's first start next + 5 after the first's.
        core::stored::StoredOut calls;
        calls.u(2);
        for (const std::int64_t start : {kMax - 5, next + 5}) {
            calls.s(0);                              // first participant (a difference)
            for (int k = 0; k < 5; ++k) calls.u(0);  // participants, expected, group, communicator, last rank
            calls.s(0);                              // layer
            calls.u(0);                              // op
            calls.u(0);                              // bytes
            calls.s(start);                          // first start (a difference)
            for (int k = 0; k < 3; ++k) calls.s(0);  // last start, median end, step
        }
        core::stored::StoredIn callsIn(calls.bytes());
        std::vector<core::analysis::CollectiveCall> read;
        core::stored::readCallsSection(callsIn, shape, read);
        EXPECT_EQ(callsIn.done(), next < 0);

        // Layer rows: a row whose exposed wait and transfer sum past 64 bits.
        core::stored::StoredOut rows;
        rows.u(1);  // instances
        rows.s(0);  // step
        rows.s(0);  // layer
        rows.u(0);  // first row
        rows.u(1);  // rows
        rows.u(0);  // rank
        rows.s(0);  // start
        for (const std::int64_t v : {std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, kMax - 5, next + 5}) {
            rows.s(v);  // wall, compute, overlapped, exposed wait, exposed transfer
        }
        for (int k = 0; k < 3; ++k) rows.s(0);  // exposed comm, comm and idle, as differences
        core::stored::StoredIn rowsIn(rows.bytes());
        core::analysis::LayerRows layerRows;
        core::stored::readRowsSection(rowsIn, shape, layerRows);
        EXPECT_EQ(rowsIn.done(), next < 0);
    }
}

// The exposed communication given to the writer is what is stored (the GUI's Save passes the timeline's),
// not derived again: a planted interval comes back. Columns for another number of ranks are refused.
TEST(StoredAnalysis, TheExposedCommunicationGivenIsTheOneStored) {
    const auto trace = simulatedTrace(2, 2);
    const auto both = analysedForKey(*trace);
    auto planted = exposedOf(*trace);
    ASSERT_EQ(planted.size(), 2u);
    planted[1] = core::EventColumns();
    {
        core::EventBatchBuilder builder(planted[1]);
        builder.add(7, 11, core::NameId{}, core::EventKind::Collective);
        builder.flush();
    }
    planted[1].finalize();
    auto blob = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, pointersTo(planted));
    ASSERT_TRUE(blob) << blob.error().describe();
    auto back = core::decodeStoredExposedComm(*blob, *trace, kKey);
    ASSERT_TRUE(back && back->has_value());
    EXPECT_TRUE(**back == planted);
    EXPECT_FALSE(**back == exposedOf(*trace));
    const std::vector<const core::EventColumns*> one{&planted[0]};
    auto refused = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, one);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("exposed communication of 1 ranks"), std::string::npos)
        << refused.error().describe();
}

// A blob that would be over the limit with the exposed communication is stored without it (the analysis
// reads back whole, the intervals as none stored); one over the limit without it too is an error.
TEST(StoredAnalysis, ABlobTooLargeWithTheExposedCommunicationKeepsTheAnalysisWithout) {
    const auto trace = simulatedTrace(2, 2);
    const auto both = analysedForKey(*trace);
    auto full = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey);
    ASSERT_TRUE(full) << full.error().describe();
    // The limit: the size of a blob whose ranks have no intervals, which the full blob is over by far.
    const std::vector<core::EventColumns> none(2);
    auto bare = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, pointersTo(none));
    ASSERT_TRUE(bare);
    ASSERT_GT(full->size(), bare->size() + 200);
    auto smaller = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, {}, bare->size());
    ASSERT_TRUE(smaller) << smaller.error().describe();
    EXPECT_LT(smaller->size(), full->size());
    auto without = core::decodeStoredExposedComm(*smaller, *trace, kKey);
    ASSERT_TRUE(without) << without.error().describe();
    EXPECT_FALSE(without->has_value());
    auto analysisAlone = core::decodeStoredAnalysis(*smaller, *trace, kKey);
    ASSERT_TRUE(analysisAlone && analysisAlone->has_value());
    EXPECT_EQ(jsonOf(*trace, (*analysisAlone)->analysis), jsonOf(*trace, both.analysis));
    // Under the limit, kept: the limit is what decides.
    auto kept = core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, {}, full->size());
    ASSERT_TRUE(kept);
    EXPECT_EQ(*kept, *full);
    EXPECT_FALSE(core::encodeStoredAnalysis(both.analysis, both.estimate, *trace, kKey, 0, {}, 64));
}

// The section's events are checked against the trace's tables as a stream's are: a name the trace does not
// have, a rank count that is not the trace's, or a chunk missing is refused.
TEST(StoredAnalysis, ExposedCommunicationOutsideTheTraceIsRefused) {
    const auto trace = simulatedTrace(2, 2);
    const core::stored::TraceShape shape(*trace);
    auto columns = exposedOf(*trace);
    const auto read = [&shape](const std::string& bytes) {
        core::stored::StoredIn in(bytes);
        std::vector<core::EventColumns> back;
        core::stored::readExposedCommSection(in, shape, back);
        return in.done();
    };
    core::stored::StoredOut good;
    core::stored::writeExposedCommSection(good, pointersTo(columns));
    EXPECT_TRUE(read(good.bytes()));
    core::EventColumns unnamed;
    {
        core::EventBatchBuilder builder(unnamed);
        builder.add(7, 11, core::NameId{static_cast<std::uint32_t>(shape.names)}, core::EventKind::Collective);
        builder.flush();
    }
    unnamed.finalize();
    core::stored::StoredOut named;
    core::stored::writeExposedCommSection(named, std::vector<const core::EventColumns*>{&columns[0], &unnamed});
    EXPECT_FALSE(read(named.bytes()));
    core::stored::StoredOut oneRank;
    core::stored::writeExposedCommSection(oneRank, std::vector<const core::EventColumns*>{&columns[0]});
    EXPECT_FALSE(read(oneRank.bytes()));
    ASSERT_GT(columns[1].size(), 0u);
    EXPECT_FALSE(read(good.bytes().substr(0, good.bytes().size() - 1)));
}

TEST(StoredAnalysis, AWorkspaceKeepsItAndItsTraceReadsItBack) {
    TempDir dir;
    const auto path = (dir / "stored.tpscope").string();
    core::Workspace ws;
    ws.runs.push_back(core::Run{{"tp4", "llama3-8b", "h100-sxm", "nvlink4", 4, 2, 3, {}}, simulatedTrace(4, 3), {}});
    ASSERT_TRUE(core::storeAnalysis(ws.runs[0], kKey.build));
    ASSERT_TRUE(ws.runs[0].analysisCache);
    ASSERT_TRUE(core::saveWorkspace(ws, path));
    auto loaded = core::loadWorkspace(path);
    ASSERT_TRUE(loaded) << loaded.error().describe();
    const core::Run& run = loaded->runs.at(0);
    ASSERT_TRUE(run.analysisCache);
    // Read against the trace as the workspace gives it back: the analysis of that trace.
    auto back = core::decodeStoredAnalysis(*run.analysisCache, *run.trace, {kKey.build, run.info.batch});
    ASSERT_TRUE(back) << back.error().describe();
    ASSERT_TRUE(back->has_value());
    core::analysis::AnalysisOptions options;
    options.batch = run.info.batch;
    const auto fresh = core::analysis::analyzeWithClockEstimate(*run.trace, options);
    EXPECT_EQ(jsonOf(*run.trace, (*back)->analysis), jsonOf(*run.trace, fresh.analysis));
    expectSameClock((*back)->clock, fresh.estimate);
    // Read in place from the file, a frame at a time: the same.
    auto inPlace = core::loadStoredAnalysis(path, 0, *run.trace, {kKey.build, run.info.batch});
    ASSERT_TRUE(inPlace) << inPlace.error().describe();
    ASSERT_TRUE(inPlace->has_value());
    EXPECT_EQ(jsonOf(*run.trace, (*inPlace)->analysis), jsonOf(*run.trace, fresh.analysis));
    auto exposed = core::loadStoredExposedComm(path, 0, *run.trace, {kKey.build, run.info.batch});
    ASSERT_TRUE(exposed) << exposed.error().describe();
    ASSERT_TRUE(exposed->has_value());
    EXPECT_TRUE(**exposed == exposedOf(*run.trace));
    auto exposedOtherBatch = core::loadStoredExposedComm(path, 0, *run.trace, {kKey.build, run.info.batch + 1});
    ASSERT_TRUE(exposedOtherBatch);
    EXPECT_FALSE(exposedOtherBatch->has_value());
    EXPECT_FALSE(core::loadStoredExposedComm(path, 1, *run.trace, kKey));  // no second run
    auto otherBatch = core::loadStoredAnalysis(path, 0, *run.trace, {kKey.build, run.info.batch + 1});
    ASSERT_TRUE(otherBatch);
    EXPECT_FALSE(otherBatch->has_value());
    EXPECT_FALSE(core::loadStoredAnalysis(path, 1, *run.trace, kKey));  // no second run
    // A build from a modified tree stores nothing.
    core::Run plain{{"tp4", "llama3-8b", "h100-sxm", "nvlink4", 4, 2, 3, {}}, run.trace, {}};
    ASSERT_TRUE(core::storeAnalysis(plain, ""));
    EXPECT_FALSE(plain.analysisCache);
}

}  // namespace
}  // namespace tpscope::test
