// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include <gtest/gtest.h>
#include <simdjson.h>

#include "core/io/export/chrome_writer.h"
#include "core/io/import/trace_reader.h"
#include "io_test_util.h"
#include "support/trace_equality.h"
#include "synthetic_trace.h"
#include "test_support.h"

namespace tpscope::test {
namespace {

TEST(ChromeJson, SimulatedTraceKeepsEveryKernelRangeAndPayloadField) {
    TempDir dir;
    const auto trace = makeSyntheticTrace({6, 2, 4, 21});
    for (const char* name : {"t.json", "t.json.gz"}) {
        const auto path = (dir / name).string();
        ASSERT_TRUE(core::writeChromeJson(*trace, path));
        core::ImportStats stats;
        auto back = core::readTrace(path, {}, &stats);
        ASSERT_TRUE(back) << back.error().describe();
        expectSameTrace(*trace, **back);
        EXPECT_EQ(stats.problemCount(), 0u) << name;
    }
}

TEST(ChromeJson, OutputIsAValidChromeTraceWithNamedTracks) {
    TempDir dir;
    const auto trace = makeSyntheticTrace({2, 1, 2, 3});
    const auto path = (dir / "t.json").string();
    ASSERT_TRUE(core::writeChromeJson(*trace, path));
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    ASSERT_EQ(parser.load(path).get(doc), simdjson::SUCCESS);  // the whole file is valid JSON
    simdjson::dom::array events;
    ASSERT_EQ(doc["traceEvents"].get_array().get(events), simdjson::SUCCESS);
    std::size_t slices = 0, processNames = 0, threadNames = 0;
    for (auto e : events) {
        std::string_view ph, name;
        ASSERT_EQ(e["ph"].get_string().get(ph), simdjson::SUCCESS);
        ASSERT_EQ(e["name"].get_string().get(name), simdjson::SUCCESS);
        if (ph == "X") {
            ++slices;
            double ts = -1, dur = -1;
            EXPECT_EQ(e["ts"].get_double().get(ts), simdjson::SUCCESS);
            EXPECT_EQ(e["dur"].get_double().get(dur), simdjson::SUCCESS);
            EXPECT_GE(ts, 0.0);
            EXPECT_GE(dur, 0.0);
            int64_t pid = -1, tid = -1;
            EXPECT_EQ(e["pid"].get_int64().get(pid), simdjson::SUCCESS);
            EXPECT_EQ(e["tid"].get_int64().get(tid), simdjson::SUCCESS);
        }
        processNames += (ph == "M" && name == "process_name") ? 1 : 0;
        threadNames += (ph == "M" && name == "thread_name") ? 1 : 0;
    }
    std::size_t ranges = 0;
    for (const auto& r : trace->ranks) ranges += r.ranges.size();
    EXPECT_EQ(slices, trace->eventCount() + ranges);
    EXPECT_EQ(processNames, trace->ranks.size());
    EXPECT_EQ(threadNames, trace->ranks.size() * (3 + 1));  // 3 streams + the NVTX track per rank
}

TEST(ChromeJson, RealTraceRoundTripKeepsKernelsAndCollectiveArgs) {
    TPSCOPE_REQUIRE_PUBLIC("hta-nccl_parser_config/nccl_data.json.gz");
    auto trace = core::readTrace((publicTraces() / "hta-nccl_parser_config/nccl_data.json.gz").string());
    ASSERT_TRUE(trace) << trace.error().describe();
    TempDir dir;
    const auto path = (dir / "nccl.json").string();
    ASSERT_TRUE(core::writeChromeJson(**trace, path));
    auto back = core::readTrace(path);
    ASSERT_TRUE(back) << back.error().describe();
    expectSameTrace(**trace, **back);
}

}  // namespace
}  // namespace tpscope::test
