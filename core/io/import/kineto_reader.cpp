// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_reader.h"

#include <simdjson.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/io/import/json_trace_scanner.h"
#include "core/io/import/kineto_fields.h"
#include "core/io/import/kineto_gemm_shapes.h"
#include "core/io/import/kineto_host_rows.h"
#include "core/io/import/kineto_links.h"
#include "core/io/import/step_projection.h"
#include "core/trace/step_annotation.h"

namespace tpscope::core {

namespace {

using kineto::ArgFields;
using kineto::RecordFields;

enum class Category { Kernel, Memcpy, Memset, GpuAnnotation, CpuAnnotation, CpuOp, Runtime, Other };

Category categoryOf(std::string_view cat) {
    switch (cat.size()) {
        case 6:
            if (cat == "kernel" || cat == "Kernel") return Category::Kernel;
            if (cat == "cpu_op") return Category::CpuOp;
            if (cat == "Memcpy") return Category::Memcpy;
            if (cat == "Memset") return Category::Memset;
            break;
        case 10:
            if (cat == "gpu_memcpy") return Category::Memcpy;
            if (cat == "gpu_memset") return Category::Memset;
            break;
        case 11:
            if (cat == "cuda_driver") return Category::Runtime;
            break;
        case 12:
            if (cat == "cuda_runtime") return Category::Runtime;
            break;
        case 15:
            if (cat == "user_annotation") return Category::CpuAnnotation;
            break;
        case 19:
            if (cat == "gpu_user_annotation") return Category::GpuAnnotation;
            break;
        default:
            break;
    }
    return Category::Other;
}

bool knownPhase(char ph) {
    constexpr std::string_view kKnown = "XBEiIMstfCbenNODPRSTpFc()";
    return kKnown.find(ph) != std::string_view::npos;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    return s;
}

// Numeric value of a pid/tid: the number itself, or the digits in "stream 7" / "GPU 0".
std::optional<std::int64_t> idNumber(simdjson::dom::element e) {
    std::int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) return kineto::integer(e);
    const auto digit = s.find_first_of("0123456789");
    if (digit == std::string_view::npos) return std::nullopt;
    const auto r = std::from_chars(s.data() + digit, s.data() + s.size(), i);
    return r.ec == std::errc() ? std::optional<std::int64_t>(i) : std::nullopt;
}

// Text key of a pid: the number printed, or the string itself.
std::string_view idKey(simdjson::dom::element e, bool present, char (&buf)[24]) {
    if (!present) return "?";
    std::string_view s;
    if (e.get_string().get(s) == simdjson::SUCCESS) return s;
    if (const auto n = kineto::integer(e)) {
        const auto r = std::to_chars(buf, buf + sizeof buf, *n);
        return {buf, static_cast<std::size_t>(r.ptr - buf)};
    }
    return "?";
}

// External id -> class of the op that has it. Kineto numbers External ids from 1 upwards, so a byte
// per id in a vector is the fast path; ids beyond kDenseIds go to a map.
class OpClassTable {
  public:
    void set(std::int64_t id, EventKind kind) {
        if (id < kDenseIds) {
            const auto i = static_cast<std::size_t>(id);
            if (i >= m_dense.size()) m_dense.resize(std::max(i + 1, 2 * m_dense.size()), kNone);
            m_dense[i] = static_cast<std::uint8_t>(kind);
        } else {
            m_sparse[id] = kind;
        }
    }
    std::optional<EventKind> find(std::int64_t id) const {
        if (id < kDenseIds) {
            const auto i = static_cast<std::size_t>(id);
            if (i >= m_dense.size() || m_dense[i] == kNone) return std::nullopt;
            return static_cast<EventKind>(m_dense[i]);
        }
        const auto it = m_sparse.find(id);
        return it == m_sparse.end() ? std::nullopt : std::optional<EventKind>(it->second);
    }

  private:
    static constexpr std::int64_t kDenseIds = std::int64_t{1} << 24;
    static constexpr std::uint8_t kNone = 0xFF;
    std::vector<std::uint8_t> m_dense;
    std::unordered_map<std::int64_t, EventKind> m_sparse;
};

class KinetoParser final : public JsonTraceScanner::Handler {
  public:
    KinetoParser(TracePart& part, const KernelClassifier& classifier)
        : m_part(part), m_stats(part.stats), m_classifier(classifier) {}

    Status member(std::string_view key, std::string_view raw) override;
    Status events(std::string_view array, std::size_t count) override;
    std::optional<std::size_t> tryEvents(std::string_view array) override;
    void nonObjectElement() override { ++m_stats.badRecords; }
    Status finish();

  private:
    void handle(simdjson::dom::object obj);
    void complete(const RecordFields& f, std::int64_t startNs, std::int64_t durNs);
    void gpuEvent(const RecordFields& f, Category cat, std::int64_t startNs, std::int64_t durNs);
    void exactEvent(EventRecord& e, const ArgFields& a);
    void metadataRecord(const RecordFields& f);
    void beginEnd(const RecordFields& f, simdjson::dom::object obj);
    StagedDevice& deviceOf(const RecordFields& f, std::size_t* index);
    const KernelClass& classify(NameId name);
    const std::optional<EventKind>& opClass(std::string_view opName);
    void applyOpClass(EventRecord& e, EventKind opKind);
    void resolveLateOpClasses();
    Status parseOneByOne(std::string_view elements);
    Status applyTpscopeMeta();

    TracePart& m_part;
    ImportStats& m_stats;
    const KernelClassifier& m_classifier;
    simdjson::dom::parser m_parser;
    simdjson::dom::parser m_sideParser;  // members, B/E records
    std::string m_padded;                // one record at a time, after a batch failed to parse

    std::vector<std::optional<KernelClass>> m_classes;  // by NameId
    std::string m_lastDeviceKey;
    std::size_t m_lastDevice = 0;
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
    OpClassTable m_opClasses;  // classifying ops only
    std::vector<LateKernel> m_lateKernels;
    bool m_cpuOpSeen = false;

    // Step annotations on the CPU (index into m_cpuRanges): projected onto their GPU work at the end.
    std::vector<CpuStepRange> m_cpuSteps;
    std::vector<std::size_t> m_cpuStepRangeIndex;
};

std::string pidTidKey(std::string_view pid, simdjson::dom::element tid, bool hasTid) {
    char buf[24];
    std::string key(pid);
    key += '/';
    key += idKey(tid, hasTid, buf);
    return key;
}

Status KinetoParser::member(std::string_view key, std::string_view raw) {
    if (key == "tpscope") {
        m_tpscopeMeta.assign(raw);
        m_hostRows.declare(raw);
        return Ok{};
    }
    if (key != "distributedInfo" && key != "deviceProperties" && key != "baseTimeNanoseconds") return Ok{};
    simdjson::dom::element e;
    if (m_sideParser.parse(raw.data(), raw.size(), true).get(e) != simdjson::SUCCESS) {
        m_stats.note("top-level member \"" + std::string(key) + "\" is not valid JSON; ignored");
        return Ok{};
    }
    if (key == "baseTimeNanoseconds") {
        if (const auto base = kineto::integer(e); base && *base > -kMaxAbsTimeNs && *base < kMaxAbsTimeNs) {
            m_part.timeBaseNs = *base;
        }
    } else if (key == "distributedInfo") {
        simdjson::dom::element v;
        if (e["rank"].get(v) == simdjson::SUCCESS) {
            if (const auto r = kineto::integer(v); r && *r >= 0 && *r < (1LL << 31)) {
                m_part.declaredRank = static_cast<std::uint32_t>(*r);
            }
        }
        if (e["world_size"].get(v) == simdjson::SUCCESS) {
            if (const auto w = kineto::integer(v)) m_part.setMetadata("world_size", std::to_string(*w));
        }
        std::string_view s;
        if (e["nccl_version"].get_string().get(s) == simdjson::SUCCESS)
            m_part.setMetadata("nccl_version", std::string(s));
        if (e["backend"].get_string().get(s) == simdjson::SUCCESS) m_part.setMetadata("backend", std::string(s));
    } else {
        simdjson::dom::array gpus;
        if (e.get_array().get(gpus) != simdjson::SUCCESS) return Ok{};
        for (const auto g : gpus) {
            simdjson::dom::element id;
            std::string_view name;
            if (g["id"].get(id) == simdjson::SUCCESS && g["name"].get_string().get(name) == simdjson::SUCCESS) {
                if (const auto i = kineto::integer(id)) m_gpuNames[*i] = std::string(name);
            }
        }
    }
    return Ok{};
}

static_assert(JsonTraceScanner::kPaddingBytes >= simdjson::SIMDJSON_PADDING);

// The scanner hands each batch as one JSON array inside its own buffer, padded: parsed in place.
std::optional<std::size_t> KinetoParser::tryEvents(std::string_view array) {
    simdjson::dom::array arr;
    if (m_parser.parse(array.data(), array.size(), false).get_array().get(arr) != simdjson::SUCCESS) {
        return std::nullopt;
    }
    std::size_t objects = 0;
    for (const auto e : arr) {
        simdjson::dom::object obj;
        if (e.get_object().get(obj) == simdjson::SUCCESS) {
            handle(obj);
            ++objects;
        } else {
            nonObjectElement();
        }
    }
    return objects;
}

Status KinetoParser::events(std::string_view array, std::size_t /*count*/) {
    simdjson::dom::array arr;
    if (m_parser.parse(array.data(), array.size(), false).get_array().get(arr) != simdjson::SUCCESS) {
        // One malformed record must not cost the whole batch: parse the records one by one.
        return parseOneByOne(array.substr(1, array.size() - 2));
    }
    // A batch is a byte range, so it may also hold non-object elements; the scanner counted those.
    for (const auto e : arr) {
        simdjson::dom::object obj;
        if (e.get_object().get(obj) == simdjson::SUCCESS) handle(obj);
    }
    return Ok{};
}

Status KinetoParser::parseOneByOne(std::string_view elements) {
    std::size_t start = std::string_view::npos;
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < elements.size(); ++i) {
        const char c = elements[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (depth++ == 0) start = i;
        } else if ((c == '}' || c == ']') && --depth == 0 && start != std::string_view::npos) {
            const std::string_view one = elements.substr(start, i + 1 - start);
            m_padded.assign(one);
            m_padded.reserve(one.size() + simdjson::SIMDJSON_PADDING);
            simdjson::dom::object obj;
            if (m_parser.parse(m_padded.data(), m_padded.size(), false).get_object().get(obj) == simdjson::SUCCESS) {
                handle(obj);
            } else {
                ++m_stats.records;
                ++m_stats.badRecords;
            }
            start = std::string_view::npos;
        }
    }
    return Ok{};
}

void KinetoParser::handle(simdjson::dom::object obj) {
    ++m_stats.records;
    const RecordFields f = kineto::readRecord(obj);
    if (f.ph.size() != 1) {
        ++m_stats.badRecords;
        return;
    }
    switch (f.ph[0]) {
        case 'X':
            if (!f.tsNs || f.badTime) {
                ++m_stats.badRecords;
                return;
            }
            complete(f, *f.tsNs, f.durNs.value_or(0));
            return;
        case 'B':
        case 'E':
            beginEnd(f, obj);
            return;
        case 'M':
            metadataRecord(f);
            return;
        case 's':
            // Launch -> kernel flow: its id is the launch's correlation (used when no runtime record has it).
            if (f.cat == "ac2g" && f.tsNs && f.hasTid) {
                simdjson::dom::element id;
                if (obj["id"].get(id) == simdjson::SUCCESS) {
                    if (const auto c = kineto::integer(id)) m_links.addFlowStart(f, *c, *f.tsNs);
                }
            }
            return;
        default:
            if (!knownPhase(f.ph[0])) {
                if (m_stats.unknownPhases++ == 0) m_stats.note("unknown phase \"" + std::string(f.ph) + "\" skipped");
            }
            return;
    }
}

void KinetoParser::beginEnd(const RecordFields& f, simdjson::dom::object obj) {
    if (!f.tsNs) {
        ++m_stats.badRecords;
        return;
    }
    char buf[24];
    const std::string key = pidTidKey(idKey(f.pid, f.hasPid, buf), f.tid, f.hasTid);
    if (f.ph[0] == 'B') {
        m_openBegins[key].push_back(simdjson::minify(obj));
        return;
    }
    auto it = m_openBegins.find(key);
    if (it == m_openBegins.end() || it->second.empty()) {
        ++m_stats.unmatchedEnds;
        return;
    }
    const std::string text = std::move(it->second.back());
    it->second.pop_back();
    simdjson::dom::object begin;
    if (m_sideParser.parse(text).get_object().get(begin) != simdjson::SUCCESS) return;
    const RecordFields b = kineto::readRecord(begin);
    if (!b.tsNs) return;
    complete(b, *b.tsNs, *f.tsNs - *b.tsNs);
}

void KinetoParser::metadataRecord(const RecordFields& f) {
    if (f.name != "thread_name" || !f.hasArgs) return;
    const ArgFields a = kineto::readArgs(f.args);
    char buf[24];
    const auto tidNumber = f.hasTid ? idNumber(f.tid) : std::nullopt;
    if (!tidNumber || a.text.empty()) return;
    std::string key(idKey(f.pid, f.hasPid, buf));
    key += '/' + std::to_string(*tidNumber);
    m_threadNames[key] = std::string(trim(a.text));
}

StagedDevice& KinetoParser::deviceOf(const RecordFields& f, std::size_t* index) {
    char buf[24];
    const std::string_view key = idKey(f.pid, f.hasPid, buf);
    if (key != m_lastDeviceKey || m_lastDevice >= m_part.devices.size()) {
        m_part.device(key);
        m_lastDeviceKey.assign(key);
        for (std::size_t i = 0; i < m_part.devices.size(); ++i) {
            if (m_part.devices[i].key == key) m_lastDevice = i;
        }
    }
    *index = m_lastDevice;
    return m_part.devices[m_lastDevice];
}

const KernelClass& KinetoParser::classify(NameId name) {
    if (m_classes.size() <= name.value) m_classes.resize(name.value + 1);
    auto& slot = m_classes[name.value];
    if (!slot) slot = m_classifier.classify(m_part.names.view(name));
    return *slot;
}

void KinetoParser::complete(const RecordFields& f, std::int64_t startNs, std::int64_t durNs) {
    if (durNs < 0) {
        if (m_stats.negativeDurations++ == 0)
            m_stats.note("negative duration on \"" + std::string(f.name) + "\"; set to 0");
        durNs = 0;
    }
    const Category cat = categoryOf(f.cat);
    switch (cat) {
        case Category::Kernel:
        case Category::Memcpy:
        case Category::Memset:
            gpuEvent(f, cat, startNs, durNs);
            return;
        case Category::GpuAnnotation: {
            const ArgFields a = f.hasArgs ? kineto::readArgs(f.args) : ArgFields{};
            std::size_t index = 0;
            StagedDevice& dev = deviceOf(f, &index);
            dev.ranges.push_back({startNs, startNs + durNs, m_part.names.intern(f.name), static_cast<int>(a.depth)});
            if (a.externalId >= 0) m_gpuAnnotationIds.insert(a.externalId);
            return;
        }
        case Category::CpuAnnotation: {
            const ArgFields a = f.hasArgs ? kineto::readArgs(f.args) : ArgFields{};
            StagedRange r{startNs, startNs + durNs, m_part.names.intern(f.name), static_cast<int>(a.depth)};
            m_cpuRanges.emplace_back(r, a.externalId);
            if (f.hasTid && projectedStep(f.name)) {
                m_cpuSteps.push_back({kinetoThreadKey(f), r.startNs, r.endNs, r.name});
                m_cpuStepRangeIndex.push_back(m_cpuRanges.size() - 1);
            }
            if (f.hasTid && launcherOp(f.name)) m_links.addLauncher(f, a, startNs, durNs);
            return;
        }
        case Category::CpuOp: {
            m_cpuOpSeen = true;
            ++m_stats.cpuRecordsSkipped;
            if (!f.hasArgs) return;
            // The args are read once, and only for the ops that need them (most ops do not).
            const auto& opKind = opClass(f.name);
            const bool comms =
                f.name == "record_param_comms" || f.name.substr(0, 4) == "c10d" || f.name.substr(0, 5) == "nccl:";
            const bool launcher = f.hasTid && launcherOp(f.name);
            if (!opKind && !comms && !launcher) return;
            const ArgFields a = kineto::readArgs(f.args);
            if (opKind && a.externalId >= 0) m_opClasses.set(a.externalId, *opKind);
            if (opKind) m_gemmShapes.takeOp(*opKind, f.name, f.args, a.externalId, m_part);
            if (comms) m_links.addCpuOp(a, m_part);
            if (launcher) m_links.addLauncher(f, a, startNs, durNs);
            return;
        }
        case Category::Runtime:
            if (m_hostRows.active() && m_hostRows.take(f, startNs, durNs, m_part)) return;
            if (f.hasArgs && f.hasTid && f.name.find("Launch") != std::string_view::npos) {
                m_links.addLaunch(f, kineto::readArgs(f.args), startNs);
            }
            ++m_stats.cpuRecordsSkipped;
            return;
        case Category::Other:
            ++m_stats.cpuRecordsSkipped;
            return;
    }
}

void KinetoParser::gpuEvent(const RecordFields& f, Category cat, std::int64_t startNs, std::int64_t durNs) {
    const ArgFields a = f.hasArgs ? kineto::readArgs(f.args) : ArgFields{};
    std::size_t devIndex = 0;
    StagedDevice& dev = deviceOf(f, &devIndex);
    if (dev.deviceIndex < 0) {
        const auto pidNumber = f.hasPid ? idNumber(f.pid) : std::nullopt;
        dev.deviceIndex = static_cast<int>(a.device >= 0 ? a.device : pidNumber.value_or(-1));
    }
    std::uint64_t streamId = 0;
    if (a.hasStream) {
        streamId = a.stream;
    } else if (const auto t = f.hasTid ? idNumber(f.tid) : std::nullopt; t && *t >= 0) {
        streamId = static_cast<std::uint64_t>(*t);
    }
    EventRecord e;
    e.startNs = startNs;
    e.durNs = durNs;
    e.name = m_part.names.intern(f.name);
    e.correlationId = static_cast<std::uint32_t>(a.correlation >= 0 ? a.correlation : 0);
    bool needsLink = false;
    bool lateKernel = false;
    if (!a.kind.empty()) {
        exactEvent(e, a);
    } else if (cat == Category::Kernel) {
        ++m_stats.kernels;
        const KernelClass& cls = classify(e.name);
        e.kind = cls.kind;
        if (!a.collectiveName.empty()) e.kind = EventKind::Collective;
        if (a.externalId >= 0 && e.kind != EventKind::Collective) {
            if (const auto opKind = m_opClasses.find(a.externalId)) {
                applyOpClass(e, *opKind);
            } else if (!m_cpuOpSeen) {
                lateKernel = true;
            }
        }
        if (e.kind == EventKind::Collective) {
            CollectivePayload p = cls.collective;
            m_links.applyCollectiveArgs(p, a, m_part);
            if (p.bytes > 0) {
                ++m_stats.collectivesWithArgs;
            } else {
                needsLink = true;
            }
            e.payload = m_part.payloads.intern(Payload::of(p));
        } else if (e.kind == EventKind::Gemm && a.gemmM > 0 && a.gemmN > 0 && a.gemmK > 0) {
            GemmPayload g{static_cast<std::uint32_t>(a.gemmM), static_cast<std::uint32_t>(a.gemmN),
                          static_cast<std::uint32_t>(a.gemmK), kineto::parseTorchDtype(a.dtype)};
            e.payload = m_part.payloads.intern(Payload::of(g));
        } else if (e.kind == EventKind::Gemm && m_gemmShapes.active()) {
            e.payload = m_gemmShapes.payloadFor(a.externalId, m_part);
        }
    } else {
        const bool copy = cat == Category::Memcpy;
        ++(copy ? m_stats.memcpys : m_stats.memsets);
        e.kind = copy ? EventKind::Memcpy : EventKind::Memset;
        CopyKind kind = CopyKind::Unknown;
        if (copy) kind = a.copyKind.empty() ? kineto::copyKindFromName(f.name) : kineto::copyKindFromName(a.copyKind);
        e.payload = m_part.payloads.intern(
            Payload::of(CopyPayload{kind, static_cast<std::uint64_t>(std::max<std::int64_t>(a.bytes, 0))}));
    }
    StagedStream& s = dev.stream(streamId);
    s.events.push_back(e);
    if (lateKernel) {
        m_lateKernels.push_back(
            {devIndex, static_cast<std::size_t>(&s - dev.streams.data()), s.events.size() - 1, a.externalId});
    }
    if (needsLink) {
        m_links.addPending({devIndex, static_cast<std::size_t>(&s - dev.streams.data()), s.events.size() - 1,
                            a.externalId, a.correlation});
    }
}

const std::optional<EventKind>& KinetoParser::opClass(std::string_view opName) {
    auto it = m_opNameClasses.find(opName);
    if (it == m_opNameClasses.end()) {
        it = m_opNameClasses.emplace(std::string(opName), m_classifier.classifyCpuOp(opName)).first;
    }
    return it->second;
}

// A collective by its op but not by its name (a custom all-reduce kernel nobody wrote a rule for)
// gets an empty collective payload: its size may still come from the launcher's args (kineto_links).
void KinetoParser::applyOpClass(EventRecord& e, EventKind opKind) {
    const EventKind kind = kernelClassWithOp(e.kind, opKind);
    if (kind == e.kind) return;
    ++m_stats.kernelsClassedByOp;
    e.kind = kind;
    e.payload = kind == EventKind::Collective ? m_part.payloads.intern(Payload::of(CollectivePayload{})) : kNoPayload;
}

void KinetoParser::resolveLateOpClasses() {
    for (const auto& k : m_lateKernels) {
        if (const auto opKind = m_opClasses.find(k.externalId)) {
            applyOpClass(m_part.devices[k.device].streams[k.stream].events[k.event], *opKind);
        }
    }
}

// tpscope's own export: kind and payload are written in full, so they are taken as they are, with
// nothing derived from the name.
void KinetoParser::exactEvent(EventRecord& e, const ArgFields& a) {
    e.kind = parseEventKind(a.kind).value_or(EventKind::Other);
    ++(e.kind == EventKind::Memcpy ? m_stats.memcpys : e.kind == EventKind::Memset ? m_stats.memsets : m_stats.kernels);
    auto u32 = [](std::int64_t v) { return static_cast<std::uint32_t>(std::clamp<std::int64_t>(v, 0, UINT32_MAX)); };
    auto u64 = [](std::int64_t v) { return static_cast<std::uint64_t>(std::max<std::int64_t>(v, 0)); };
    if (a.payloadKind == "collective") {
        CollectivePayload c;
        c.op = parseCollectiveOp(a.collectiveName).value_or(CollectiveOp::Unknown);
        c.algo = parseCollectiveAlgo(a.algo).value_or(CollectiveAlgo::Unknown);
        c.proto = parseCollectiveProto(a.proto).value_or(CollectiveProto::Unknown);
        c.dtype = parseDtype(a.dtype).value_or(Dtype::Unknown);
        c.groupSize = u32(a.groupSize);
        c.communicator = m_part.names.intern(a.processGroupName);
        c.bytes = u64(a.msgBytes);
        e.payload = m_part.payloads.intern(Payload::of(c));
    } else if (a.payloadKind == "gemm") {
        e.payload = m_part.payloads.intern(Payload::of(
            GemmPayload{u32(a.gemmM), u32(a.gemmN), u32(a.gemmK), parseDtype(a.dtype).value_or(Dtype::Unknown)}));
    } else if (a.payloadKind == "copy") {
        e.payload =
            m_part.payloads.intern(Payload::of(CopyPayload{kineto::copyKindFromName(a.copyKind), u64(a.bytes)}));
    }
}

Status KinetoParser::finish() {
    TPSCOPE_TRY(applyTpscopeMeta());
    resolveLateOpClasses();
    for (auto& dev : m_part.devices) {
        if (dev.deviceName.empty()) {
            if (auto it = m_gpuNames.find(dev.deviceIndex); it != m_gpuNames.end()) dev.deviceName = it->second;
        }
        for (auto& s : dev.streams) {
            if (!s.label.empty()) continue;
            auto it = m_threadNames.find(dev.key + "/" + std::to_string(s.id));
            s.label = it != m_threadNames.end() ? it->second : "stream " + std::to_string(s.id);
        }
    }
    // A step annotation with a GPU copy is already in GPU time; the others move onto the GPU work they
    // launched, and their CPU range is not kept (it would sit above kernels it did not bound).
    std::vector<bool> keepCpu(m_cpuRanges.size(), true);
    std::vector<CpuStepRange> toProject;
    std::vector<std::size_t> toProjectIndex;
    for (std::size_t i = 0; i < m_cpuSteps.size(); ++i) {
        const auto externalId = m_cpuRanges[m_cpuStepRangeIndex[i]].second;
        if (externalId >= 0 && m_gpuAnnotationIds.count(externalId) != 0) continue;
        toProject.push_back(m_cpuSteps[i]);
        toProjectIndex.push_back(m_cpuStepRangeIndex[i]);
    }
    if (!toProject.empty()) {
        const auto projected = projectSteps(toProject, m_links.launchRecords(), m_part);
        for (std::size_t i = 0; i < projected.size(); ++i) {
            if (projected[i]) {
                keepCpu[toProjectIndex[i]] = false;
                ++m_stats.projectedSteps;
            }
        }
    }
    for (std::size_t i = 0; i < m_cpuRanges.size(); ++i) {
        const auto& [range, externalId] = m_cpuRanges[i];
        if (externalId >= 0 && m_gpuAnnotationIds.count(externalId) != 0) {
            ++m_stats.mirroredAnnotations;
        } else if (keepCpu[i]) {
            m_part.processRanges.push_back(range);
        }
    }
    for (const auto& [key, open] : m_openBegins) m_stats.unmatchedBegins += open.size();
    m_stats.collectivesWithArgs += m_links.resolve(m_part);
    if (!m_part.declaredRank) m_part.declaredRank = rankFromFileName(m_part.path);
    if (m_part.devices.empty()) m_stats.note(m_part.path + ": no GPU kernels, copies or annotations found");
    if (m_tpscopeMeta.empty()) m_part.setMetadata("format", "kineto-json");
    return Ok{};
}

Status KinetoParser::applyTpscopeMeta() {
    if (m_tpscopeMeta.empty()) return Ok{};
    return applyTpscopeChromeMeta(m_tpscopeMeta, m_part);
}

}  // namespace

namespace {

Result<TracePart> readSource(ByteSource& src, const KernelClassifier& classifier, const TaskControl& control,
                             double progressBase, double progressSpan) {
    TracePart part;
    part.path = src.path();
    part.source = src.path();
    part.stats.files = 1;
    KinetoParser parser(part, classifier);
    JsonTraceScanner scanner(src, control, progressBase, progressSpan);
    TPSCOPE_TRY(scanner.run(parser));
    part.stats.bytesRead = scanner.bytesScanned();
    TPSCOPE_TRY(parser.finish());
    return part;
}

}  // namespace

Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, double progressBase, double progressSpan) {
    auto src = ByteSource::open(path);
    if (!src) return src.error();
    return readSource(**src, classifier, control, progressBase, progressSpan);
}

Result<TracePart> readKinetoBuffer(std::string_view bytes, const std::string& name, const KernelClassifier& classifier,
                                   const TaskControl& control) {
    auto src = ByteSource::fromMemory(bytes, name);
    return readSource(*src, classifier, control, 0.0, 1.0);
}

}  // namespace tpscope::core
