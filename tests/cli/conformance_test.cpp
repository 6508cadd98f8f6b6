// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §5: the conformance corpus. tests/conformance/ holds one expectation file per public trace,
// written by scripts/conformance-expect.py from a plain parse of the file (Python's standard library,
// not tpscope's code). Here `tpscope-cli analyze --json --calls` runs on every trace present and must
// give the same kernels per class, all-reduces (and their sizes where the kernels carry them), steps,
// batch knowledge and decoder layers. A trace that is absent is skipped and named.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.h"

namespace tpscope::test {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> expectationFiles() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(fs::path(TPSCOPE_SOURCE_DIR) / "tests" / "conformance")) {
        if (e.path().extension() == ".json") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::int64_t intOf(simdjson::dom::element e) {
    std::int64_t v = 0;
    if (e.get_int64().get(v) != simdjson::SUCCESS) {
        std::uint64_t u = 0;
        EXPECT_EQ(e.get_uint64().get(u), simdjson::SUCCESS);
        v = static_cast<std::int64_t>(u);
    }
    return v;
}

// Compares one trace's analysis with its expectation; returns false when the trace is absent.
bool checkTrace(const fs::path& expectationFile) {
    simdjson::dom::parser expParser;
    simdjson::dom::element exp;
    EXPECT_EQ(expParser.load(expectationFile.string()).get(exp), simdjson::SUCCESS) << expectationFile;
    std::string_view rel;
    EXPECT_EQ(exp["trace"].get_string().get(rel), simdjson::SUCCESS);
    const fs::path trace = publicTraces() / std::string(rel);
    if (!fs::exists(trace)) return false;
    SCOPED_TRACE(std::string(rel));
    const auto r = runCommand("( '" + std::string(TPSCOPE_CLI_PATH) + "' analyze '" + trace.string() +
                              "' --json --calls 2>/dev/null )");
    EXPECT_EQ(r.exitCode, 0) << r.out.substr(0, 400);
    simdjson::dom::parser parser;
    const simdjson::padded_string text(r.out);
    simdjson::dom::element got;
    EXPECT_EQ(parser.parse(text).get(got), simdjson::SUCCESS) << r.out.substr(0, 400);
    if (r.exitCode != 0) return true;

    EXPECT_EQ(intOf(got["ranks"]), intOf(exp["ranks"]));
    std::map<std::string, std::int64_t> kinds;
    for (const auto k : got["summary"]["kinds"].get_array()) {
        kinds[std::string(std::string_view(k["kind"]))] = intOf(k["kernels"]);
    }
    for (const auto [kind, count] : exp["kernels"].get_object()) {
        EXPECT_EQ(kinds[std::string(kind)], intOf(count)) << "kernels of class " << kind;
    }
    bool batchKnown = false;
    EXPECT_EQ(got["batch_known"].get_bool().get(batchKnown), simdjson::SUCCESS);
    EXPECT_EQ(batchKnown, bool(exp["batch_known"]));
    if (!exp["steps"].is_null()) {
        EXPECT_EQ(intOf(got["summary"]["steps"]), intOf(exp["steps"])) << "steps";
    }
    if (!exp["layers"].is_null()) {
        EXPECT_EQ(static_cast<std::int64_t>(got["layers"].get_array().size()), intOf(exp["layers"])) << "layers";
    }
    // All-reduce calls: a call is one kernel on each rank that joined it.
    const std::int64_t ranks = intOf(exp["ranks"]);
    std::int64_t calls = 0;
    std::map<std::int64_t, std::int64_t> sizes;
    for (const auto c : got["collective_sizes"].get_array()) {
        if (std::string_view(c["op"]) != "all_reduce") continue;
        calls += intOf(c["calls"]);
        sizes[intOf(c["bytes"])] += intOf(c["calls"]) * ranks;
    }
    EXPECT_EQ(calls * ranks, intOf(exp["all_reduces"]["count"])) << "all-reduce kernels";
    if (!exp["all_reduces"]["bytes"].is_null()) {
        std::map<std::int64_t, std::int64_t> want;
        for (const auto [bytes, n] : exp["all_reduces"]["bytes"].get_object())
            want[std::stoll(std::string(bytes))] = intOf(n);
        EXPECT_EQ(sizes, want) << "all-reduce kernels per size";
    }
    return true;
}

TEST(Conformance, AnalyzeAgreesWithAPlainParseOfEveryPublicTrace) {
    const auto files = expectationFiles();
    ASSERT_FALSE(files.empty()) << "no expectation files in tests/conformance";
    std::vector<std::string> absent;
    std::size_t checked = 0;
    for (const auto& f : files) {
        if (checkTrace(f)) {
            ++checked;
        } else {
            absent.push_back(f.filename().string());
        }
    }
    if (checked == 0) GTEST_SKIP() << "no public trace found under " << publicTraces();
    for (const auto& a : absent) std::cout << "[ conformance ] absent, skipped: " << a << '\n';
}

}  // namespace
}  // namespace tpscope::test
