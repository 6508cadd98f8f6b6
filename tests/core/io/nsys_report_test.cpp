// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Issue 43 §6: an Nsight Systems report (.nsys-rep) is read through `nsys export --type sqlite`. Here a
// stand-in `nsys` (a shell script that checks its arguments and writes a small export) plays
// Nsight Systems; without one on the PATH the error names the command to run by hand.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "core/io/import/nsys_report.h"
#include "core/io/import/trace_reader.h"
#include "io_test_util.h"

namespace tpscope::test {
namespace {

// Sets an environment variable for the test's lifetime.
class ScopedEnv {
  public:
    ScopedEnv(const char* name, const std::string& value) : m_name(name) {
        if (const char* old = std::getenv(name)) m_old = old;
        ::setenv(name, value.c_str(), 1);
    }
    ~ScopedEnv() {
        if (m_old) {
            ::setenv(m_name, m_old->c_str(), 1);
        } else {
            ::unsetenv(m_name);
        }
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

  private:
    const char* m_name;
    std::optional<std::string> m_old;
};

std::filesystem::path report(const TempDir& dir) {
    const auto path = dir / "run.nsys-rep";
    std::ofstream(path) << "not sqlite: nsys's own container";
    return path;
}

TEST(NsysReport, WithoutNsysTheErrorNamesTheExportCommand) {
    TempDir dir;
    const auto rep = report(dir);
    ScopedEnv path("PATH", (dir / "empty-bin").string());
    auto trace = core::readTrace(rep.string());
    ASSERT_FALSE(trace);
    const std::string message = trace.error().describe();
    EXPECT_NE(message.find("nsys export --type sqlite"), std::string::npos) << message;
    EXPECT_NE(message.find("run.nsys-rep"), std::string::npos) << message;
    EXPECT_NE(message.find("not on the PATH"), std::string::npos) << message;
}

TEST(NsysReport, NsysExportsTheReportIntoTheCacheAndItIsRead) {
    TempDir dir;
    const auto rep = report(dir);
    const auto exportDb = makeDb(dir, "export.sqlite", R"sql(
      CREATE TABLE StringIds(id INTEGER, value TEXT);
      INSERT INTO StringIds VALUES(1, 'sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n');
      CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
                                              demangledName INTEGER);
      INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(100, 200, 0, 7, 1), (300, 450, 0, 7, 1);)sql");
    const auto bin = dir / "bin";
    std::filesystem::create_directories(bin);
    const auto calls = dir / "calls.txt";
    // The stand-in checks the arguments tpscope must pass and copies the export to --output.
    std::ofstream(bin / "nsys") << "#!/bin/sh\n"
                                   "echo \"$@\" >> '"
                                << calls.string()
                                << "'\n"
                                   "[ \"$1\" = export ] && [ \"$2\" = --type ] && [ \"$3\" = sqlite ] || exit 9\n"
                                   "out=''; while [ $# -gt 1 ]; do [ \"$1\" = --output ] && out=\"$2\"; shift; done\n"
                                   "[ \"$1\" = '"
                                << rep.string()
                                << "' ] || exit 8\n"
                                   "cp '"
                                << exportDb.string() << "' \"$out\"\n";
    std::filesystem::permissions(bin / "nsys", std::filesystem::perms::owner_all);
    ScopedEnv path("PATH", bin.string() + ":/usr/bin:/bin");
    ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").string());
    std::vector<double> progress;
    core::ReadOptions options;
    options.control.progress = [&](double f) { progress.push_back(f); };
    auto trace = core::readTrace(rep.string(), options);
    ASSERT_TRUE(trace) << trace.error().describe();
    const auto& ev = (*trace)->ranks.at(0).streams.at(0).events;
    ASSERT_EQ(ev.size(), 2u);
    EXPECT_EQ(ev.kind(0), core::EventKind::Gemm);
    EXPECT_EQ(ev.durNs(1), 150);
    EXPECT_EQ((*trace)->source, rep.string());
    EXPECT_FALSE(progress.empty());
    // Opened again: the cached export is reused, nsys does not run a second time.
    ASSERT_TRUE(core::readTrace(rep.string()));
    std::ifstream in(calls);
    std::string line;
    int runs = 0;
    while (std::getline(in, line)) ++runs;
    EXPECT_EQ(runs, 1);
}

TEST(NsysReport, AFailedExportIsOneErrorWithTheCommand) {
    TempDir dir;
    const auto rep = report(dir);
    const auto bin = dir / "bin";
    std::filesystem::create_directories(bin);
    std::ofstream(bin / "nsys") << "#!/bin/sh\nexit 3\n";
    std::filesystem::permissions(bin / "nsys", std::filesystem::perms::owner_all);
    ScopedEnv cache("XDG_CACHE_HOME", (dir / "cache").string());
    auto out = core::exportNsysReport(rep.string(), {}, (bin / "nsys").string());
    ASSERT_FALSE(out);
    EXPECT_NE(out.error().message.find("exit status 3"), std::string::npos) << out.error().describe();
    EXPECT_NE(out.error().message.find("nsys export --type sqlite"), std::string::npos);
    EXPECT_TRUE(std::filesystem::is_empty(dir / "cache" / "tpscope" / "nsys-export"));  // nothing partial left
}

TEST(NsysReport, PathLookupFindsTheFirstExecutable) {
    TempDir dir;
    std::filesystem::create_directories(dir / "a");
    std::filesystem::create_directories(dir / "b");
    std::ofstream(dir / "a" / "nsys") << "not executable";
    std::ofstream(dir / "b" / "nsys") << "#!/bin/sh\n";
    std::filesystem::permissions(dir / "b" / "nsys", std::filesystem::perms::owner_all);
    EXPECT_EQ(core::findOnPath("nsys", (dir / "a").string() + "::" + (dir / "b").string()),
              (dir / "b" / "nsys").string());
    EXPECT_EQ(core::findOnPath("nsys", (dir / "a").string()), "");
    EXPECT_TRUE(core::isNsysReport("x/run.nsys-rep"));
    EXPECT_FALSE(core::isNsysReport("x/run.sqlite"));
}

}  // namespace
}  // namespace tpscope::test
