// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The record handler behind readKinetoFile (the mapping is in kineto_reader.h): JsonTraceScanner
// hands it the top-level members and the "traceEvents" in batches; it stages what it keeps in a
// TracePart and resolves what needs the whole file in finish().
//   kineto_parser.cpp               per record: dispatch by "ph", X records, GPU events, op classes
//                                   (the hot path, kept in one translation unit)
//   kineto_parser_side_records.cpp  top-level members (distributedInfo, deviceProperties,
//                                   baseTimeNanoseconds, tpscope), "M" thread names, "B"/"E" pairs
//   kineto_parser_finish.cpp        end of file: late op classes, GPU names, stream labels, CPU
//                                   annotations projected onto their GPU work, links resolved
// Cost: O(1) per record plus the lookups named at each member; B records are kept as minified
// text until their E arrives.

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/io/import/json_trace_scanner.h"
#include "core/io/import/kineto_fields.h"
#include "core/io/import/kineto_gemm_shapes.h"
#include "core/io/import/kineto_host_rows.h"
#include "core/io/import/kineto_links.h"
#include "core/io/import/kineto_op_class_table.h"
#include "core/io/import/trace_part.h"
#include "core/trace/kernel_classifier.h"

namespace tpscope::core {

namespace kineto {
enum class Category { Kernel, Memcpy, Memset, GpuAnnotation, CpuAnnotation, CpuOp, Runtime, Other };
}  // namespace kineto

class KinetoParser final : public JsonTraceScanner::Handler {
  public:
    // `batchParser` parses the event batches; it may come from an earlier file (its buffers reused).
    KinetoParser(TracePart& part, const KernelClassifier& classifier, simdjson::dom::parser& batchParser)
        : m_part(part), m_stats(part.stats), m_classifier(classifier), m_parser(batchParser) {}

    Status member(std::string_view key, std::string_view raw) override;
    Status events(std::string_view array, std::size_t count) override;
    std::optional<std::size_t> tryEvents(std::string_view array) override;
    void nonObjectElement() override { ++m_stats.badRecords; }
    Status finish();
    // The links' long lists, kept between files by a parser pool (KinetoLinks::Buffers).
    void adoptLinkBuffers(KinetoLinks::Buffers&& buffers) { m_links.adopt(std::move(buffers)); }
    KinetoLinks::Buffers releaseLinkBuffers() { return m_links.release(); }

  private:
    void handle(simdjson::dom::object obj);
    void complete(const kineto::RecordFields& f, std::int64_t startNs, std::int64_t durNs);
    void gpuEvent(const kineto::RecordFields& f, kineto::Category cat, std::int64_t startNs, std::int64_t durNs);
    void exactEvent(EventRecord& e, const kineto::ArgFields& a);
    // The file is tpscope's own export: its "tpscope" member came before the events.
    bool ownExport() const { return !m_tpscopeMeta.empty(); }
    void metadataRecord(const kineto::RecordFields& f);
    void beginEnd(const kineto::RecordFields& f, simdjson::dom::object obj);
    StagedDevice& deviceOf(const kineto::RecordFields& f, std::size_t* index);
    const KernelClass& classify(NameId name);
    const std::optional<EventKind>& opClass(std::string_view opName);
    void applyOpClass(EventRecord& e, EventKind opKind);
    void resolveLateOpClasses();
    void projectCpuAnnotations();
    Status parseOneByOne(std::string_view elements);
    Status applyTpscopeMeta();

    TracePart& m_part;
    ImportStats& m_stats;
    const KernelClassifier& m_classifier;
    simdjson::dom::parser& m_parser;
    simdjson::dom::parser m_sideParser;  // members, B/E records
    std::string m_padded;                // one record at a time, after a batch failed to parse

    std::vector<std::optional<KernelClass>> m_classes;  // by NameId
    std::string m_lastDeviceKey;
    std::size_t m_lastDevice = 0;
    bool m_lastPidNumeric = false;  // the last deviceOf's pid, when an integer (its key printed)
    std::int64_t m_lastPid = 0;
    std::map<std::string, std::string, std::less<>> m_threadNames;           // "pid/tid" -> label
    std::unordered_map<std::string, std::vector<std::string>> m_openBegins;  // "pid/tid" -> B records
    std::map<std::int64_t, std::string> m_gpuNames;                          // deviceProperties
    std::unordered_set<std::int64_t> m_gpuAnnotationIds;
    std::vector<std::pair<StagedRange, std::int64_t>> m_cpuRanges;  // with External id
    std::string m_tpscopeMeta;
    KinetoLinks m_links;
    KinetoHostRows m_hostRows;      // tpscope's own export: its host rows
    KinetoGemmShapes m_gemmShapes;  // GEMM ops' Input Dims by External id, attention heads

    // Kernel class from the launching CPU op: a kernel's "External id" is that of the innermost op
    // around its launch. Ops precede their kernels in every Kineto file seen; kernels that came
    // before any op wait in m_lateKernels for the end.
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    struct LateKernel {
        std::size_t device = 0;
        std::size_t stream = 0;
        std::size_t event = 0;
        std::int64_t externalId = -1;
    };
    std::unordered_map<std::string, std::optional<EventKind>, StringHash, std::equal_to<>> m_opNameClasses;
    kineto::OpClassTable m_opClasses;  // classifying ops only
    std::vector<LateKernel> m_lateKernels;
    bool m_cpuOpSeen = false;

    // Thread of each m_cpuRanges entry (kNoThread without a tid): the annotations are projected onto
    // the GPU work launched on their thread at the end.
    static constexpr std::int64_t kNoThread = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> m_cpuRangeThreads;
};

}  // namespace tpscope::core
