// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Writes small seed inputs for the fuzzers: fuzz_make_seeds OUT_DIR creates OUT_DIR/{kineto,nsys,
// workspace}/ with Kineto JSON (object and array format, gzip, B/E pairs, old and new collective
// args), an nsys-shaped SQLite export, and a workspace plus raw blob encodings for the decoders.

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/analysis/exposed_comm.h"
#include "core/analysis/synced_analysis.h"
#include "core/io/codec/event_codec.h"
#include "core/io/codec/zlib.h"
#include "core/io/workspace/stored_analysis_fields.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_excerpt.h"
#include "tests/synthetic_trace.h"

namespace {

namespace fs = std::filesystem;

void write(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

std::string gzip(const std::string& text) {
    return tpscope::core::codec::gzip(text).value();  // seeds are small; a failure is a bug worth aborting on
}

const char* kKineto = R"json({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H100 80GB HBM3"}],
  "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2},
  "traceEvents": [
  {"ph": "M", "name": "thread_name", "pid": 0, "tid": 20, "args": {"name": "stream 20 "}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 11, "tid": 12, "ts": 100.5, "dur": 900, "args": {"External id": 1}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#3", "pid": 0, "tid": 7, "ts": 110.25, "dur": 880, "args": {"External id": 1}},
  {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 11, "tid": 12, "ts": 120, "dur": 30, "args": {"External id": 5, "Collective name": "allreduce", "In msg nelems": 1024, "Out msg nelems": 1024, "dtype": "BFloat16", "Group size": 2, "Process Group Name": "0"}},
  {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 11, "tid": 12, "ts": 121, "dur": 20, "args": {"External id": 6, "Input Dims": [[112]], "Input type": ["float"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 11, "tid": 12, "ts": 125, "dur": 5, "args": {"External id": 6, "correlation": 77}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 20, "ts": 130.001, "dur": 40.5, "args": {"External id": 5, "device": 0, "stream": 20, "correlation": 76}},
  {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", "pid": 0, "tid": 20, "ts": 180, "dur": 10, "args": {"device": 0, "stream": 20, "correlation": 77}},
  {"ph": "X", "cat": "kernel", "name": "sm90_xmma_gemm_bf16bf16", "pid": 0, "tid": 7, "ts": 131, "dur": 60, "args": {"device": 0, "stream": 7, "correlation": 78, "Collective name": "", "kind": "gemm"}},
  {"ph": "B", "cat": "kernel", "name": "paired_kernel", "pid": 0, "tid": 7, "ts": 200},
  {"ph": "E", "pid": 0, "tid": 7, "ts": 210},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 220, "dur": 3, "args": {"device": 0, "stream": 7, "bytes": 4096}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": "230", "dur": -1, "args": {"bytes": 8}},
  {"ph": "Q", "name": "odd phase", "pid": 0, "tid": 7, "ts": 1},
  {"ph": "i", "s": "g", "name": "Record Window End", "pid": "", "tid": "", "ts": 999}
  ],
  "baseTimeNanoseconds": 1711964646000000000
})json";

const char* kArrayFormat =
    R"json([{"ph":"X","cat":"kernel","name":"k\"quoted\\u00e9","pid":"GPU 1","tid":"stream 3","ts":1.5,"dur":2},
{"ph":"X","cat":"Kernel","name":"cutlass_80_simt_sgemm","pid":1,"tid":3,"ts":5,"dur":1},)json";

void writeNsysSeed(const fs::path& path) {
    fs::remove(path);
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, R"sql(
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES(1,'ncclDevKernel_AllReduce_Sum_f16_RING_LL'),(2,'ampere_fp16_s16816gemm_fp16_128x128'),(3,'layer 0'),(4,'MPI Rank 3');
CREATE TABLE TARGET_INFO_GPU(id INTEGER, name TEXT, busLocation TEXT);
INSERT INTO TARGET_INFO_GPU VALUES(0,'NVIDIA A100-SXM4-80GB','0000:03:00.0');
CREATE TABLE TARGET_INFO_SESSION_START_TIME(utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES(1696392839587175550,'','');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
  shortName INTEGER, mangledName INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES(1000,5000,0,1,7,10,4311744512,2,2,2),(6000,9000,0,1,13,11,4311744512,1,1,1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, bytes INTEGER, copyKind INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES(100,900,0,7,9,4311744512,65536,1);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, value INTEGER, bytes INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES(950,990,0,7,12,4311744512,0,256);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME(start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES(500,700,4311744513,10,2);
CREATE TABLE NVTX_EVENTS(start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);
INSERT INTO NVTX_EVENTS VALUES(800,9500,59,NULL,NULL,NULL,NULL,4311744513,NULL,3,0),(10,NULL,39,NULL,NULL,NULL,'MPI Rank 3',4311744513,NULL,NULL,0),
  (900,9400,60,NULL,NULL,NULL,'inner',4311744513,NULL,NULL,0);
)sql",
                 nullptr, nullptr, nullptr);
    sqlite3_close(db);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: fuzz_make_seeds OUT_DIR\n";
        return 2;
    }
    const fs::path out = argv[1];
    for (const char* sub : {"kineto", "nsys", "workspace"}) fs::create_directories(out / sub);
    write(out / "kineto" / "kineto.json", kKineto);
    write(out / "kineto" / "kineto.json.gz", gzip(kKineto));
    write(out / "kineto" / "array.json", kArrayFormat);
    write(out / "kineto" / "empty_events.json", R"({"traceEvents": []})");
    writeNsysSeed(out / "nsys" / "nsys.sqlite");

    using namespace tpscope;
    const auto trace = test::makeSyntheticTrace({2, 1, 2, 3});
    core::Workspace ws;
    ws.runs.push_back(core::Run{
        {"tp2", "llama3-70b", "h100-sxm", "nvlink4", 2, 1, 1024, {{"dtype", "bf16"}}}, trace, std::string("cache")});
    // With its opening excerpt (schema 3) whatever its size, so the excerpt's tables are in the corpus.
    core::WorkspaceOptions withExcerpt;
    withExcerpt.excerptMinEvents = 0;
    if (auto s = core::saveWorkspace(ws, (out / "workspace" / "ws.tpscope").string(), withExcerpt); !s) {
        std::cerr << s.error().describe() << "\n";
        return 1;
    }
    const auto& events = trace->ranks[0].streams[0].events;
    write(out / "workspace" / "names.raw", std::string("D\0", 2) + core::codec::encodeNames(trace->names));
    write(out / "workspace" / "payloads.raw", std::string("D\1", 2) + core::codec::encodePayloads(trace->payloads));
    write(out / "workspace" / "ranges.raw", std::string("D\2", 2) + core::codec::encodeRanges(trace->ranks[0].ranges));
    write(out / "workspace" / "events.raw",
          std::string("D\3", 2) + core::codec::encodeEvents(events, 0, std::min<std::size_t>(events.size(), 100)));
    // The same in block form (schema 4): the names and payloads the decoder checks against are 16 each.
    if (events.hasBlockForm()) {
        const std::size_t n = std::min<std::size_t>(events.size(), 128);  // whole blocks, or the stream
        write(out / "workspace" / "event_blocks.raw",
              std::string("D\3", 2) + core::codec::encodeEventBlocks(events, 0, n, 0, events.labelsReached(0, n)));
    }
    if (const auto excerpt = core::analysis::makeOpeningExcerpt(*trace)) {
        write(out / "workspace" / "excerpt_totals.raw",
              std::string("D\4", 2) + core::encodeExcerptTotals(excerpt->ranks));
    }
    // Each section of the trace's stored analysis: "D", then 6 x section + 5 (fuzz_workspace.cpp).
    const auto analysed = core::analysis::analyzeWithClockEstimate(*trace, {});
    for (std::size_t section = 0; section < core::stored::kSectionCount; ++section) {
        core::stored::StoredOut bytes;
        if (section == core::stored::kExposedComm) {
            const std::vector<core::EventColumns> exposed = core::analysis::exposedCommColumns(*trace);
            std::vector<const core::EventColumns*> ranks;
            for (const auto& columns : exposed) ranks.push_back(&columns);
            core::stored::writeExposedCommSection(bytes, ranks);
        } else {
            core::stored::writeSection(section, bytes, analysed.analysis, analysed.estimate);
        }
        const char which = static_cast<char>(6 * section + 5);
        write(out / "workspace" / ("stored_section" + std::to_string(section) + ".raw"),
              std::string("D") + which + bytes.bytes());
    }
    std::cout << "seeds written to " << out << "\n";
    return 0;
}
