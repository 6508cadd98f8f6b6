// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §1: a kernel's "args.kind" is tpscope's kind only in tpscope's own export (the file's
// "tpscope" member says so). ROCm's PyTorch profiler writes the HIP dispatch type there on every
// kernel ("Dispatch Kernel"), which must not turn every kernel into "other".

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/io/import/trace_reader.h"
#include "io_test_util.h"

namespace tpscope::test {
namespace {

std::shared_ptr<core::Trace> importText(const std::string& json) {
    TempDir dir;
    const auto path = dir / "t.json";
    std::ofstream(path) << json;
    auto trace = core::readTrace(path.string());
    EXPECT_TRUE(trace) << trace.error().describe();
    return trace ? *trace : nullptr;
}

std::string kernelWithKind(const std::string& name, int ts, const std::string& kind) {
    return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 0, "ts": )" +
           std::to_string(ts) + R"(, "dur": 2, "args": {"device": 0, "stream": 0, "kind": ")" + kind + R"("}})";
}

std::vector<core::EventKind> kindsOf(const core::Trace& t) {
    std::vector<core::EventKind> out;
    for (const auto k : t.ranks.at(0).streams.at(0).events.kinds()) out.push_back(static_cast<core::EventKind>(k));
    return out;
}

TEST(KinetoKindField, RocmDispatchKindIsAPlainArgumentAndTheNameClassesTheKernel) {
    const auto t =
        importText(R"({"traceEvents": [)" +
                   kernelWithKind("Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI16x16x16x1_SN", 10, "Dispatch Kernel") + "," +
                   kernelWithKind("attn_fwd", 20, "Dispatch Kernel") + "," +
                   kernelWithKind("void at::native::vectorized_elementwise_kernel<4>", 30, "Dispatch Task") + "]}");
    ASSERT_TRUE(t);
    EXPECT_EQ(kindsOf(*t),
              (std::vector{core::EventKind::Gemm, core::EventKind::Attention, core::EventKind::Elementwise}));
}

TEST(KinetoKindField, TpscopesOwnExportKeepsItsKindOverTheName) {
    // The same names with tpscope's kinds that the name rules would not give: taken as written.
    const std::string meta = R"("tpscope": {"version": 1, "origin": "simulated", "source": "test"}, )";
    const auto t = importText("{" + meta + R"("traceEvents": [)" + kernelWithKind("attn_fwd", 10, "gemm") + "," +
                              kernelWithKind("Cijk_Alik_Bljk", 20, "elementwise") + "]}");
    ASSERT_TRUE(t);
    EXPECT_EQ(kindsOf(*t), (std::vector{core::EventKind::Gemm, core::EventKind::Elementwise}));
    // Without the member the names decide.
    const auto foreign = importText(R"({"traceEvents": [)" + kernelWithKind("attn_fwd", 10, "gemm") + "," +
                                    kernelWithKind("Cijk_Alik_Bljk", 20, "elementwise") + "]}");
    ASSERT_TRUE(foreign);
    EXPECT_EQ(kindsOf(*foreign), (std::vector{core::EventKind::Attention, core::EventKind::Gemm}));
}

}  // namespace
}  // namespace tpscope::test
