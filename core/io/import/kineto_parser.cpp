// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// Per record: dispatch by "ph", X records, GPU events and their classes (kineto_parser.h). All the
// functions a record passes through live here, so that the compiler can inline along that path.
#include "core/io/import/kineto_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <string>

namespace tpscope::core {

namespace {

using kineto::ArgFields;
using kineto::Category;
using kineto::idKey;
using kineto::idNumber;
using kineto::RecordFields;

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

// A flow's end ("ph": "f", the kernel side of a launch -> kernel arrow) carries nothing the reader
// keeps: the start names the correlation. Kineto writes "ph" first, so a fifth of its records is
// known by one member instead of all of them (the fields of any other record are all read).
bool flowEnd(simdjson::dom::object obj) {
    const auto first = obj.begin();
    if (first == obj.end() || first.key() != "ph") return false;
    std::string_view ph;
    return first.value().get_string().get(ph) == simdjson::SUCCESS && ph == "f";
}

}  // namespace

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
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
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
    if (flowEnd(obj)) return;
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
            if (f.cat == "ac2g" && f.tsNs && f.hasTid && f.hasId) {
                if (std::int64_t c = 0; kineto::integerInto(f.id, c)) m_links.addFlowStart(f, c, *f.tsNs);
            }
            return;
        default:
            if (!knownPhase(f.ph[0])) {
                if (m_stats.unknownPhases++ == 0) m_stats.note("unknown phase \"" + std::string(f.ph) + "\" skipped");
            }
            return;
    }
}

StagedDevice& KinetoParser::deviceOf(const RecordFields& f, std::size_t* index) {
    // Kineto's GPU pids are integers: the last record's again is found without printing its key.
    const bool numeric = f.hasPid && f.pid.type() == simdjson::dom::element_type::INT64;
    const std::int64_t pid = numeric ? f.pid.get_int64().value_unsafe() : 0;
    if (numeric && m_lastPidNumeric && pid == m_lastPid && m_lastDevice < m_part.devices.size()) {
        *index = m_lastDevice;
        return m_part.devices[m_lastDevice];
    }
    m_lastPidNumeric = numeric;
    m_lastPid = pid;
    kineto::IdKeyBuffer buf{};
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
        if (m_stats.negativeDurations++ == 0) {
            m_stats.note("negative duration on \"" + std::string(f.name) + "\"; set to 0");
        }
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
            m_cpuRangeThreads.push_back(f.hasTid ? kinetoThreadKey(f) : kNoThread);
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
    // "kind" is tpscope's kind only in tpscope's own export (its "tpscope" member, written before the
    // events, says so); elsewhere it is someone else's field: ROCm's profiler writes the HIP dispatch
    // type there ("Dispatch Kernel") on every kernel, which is no kernel class.
    if (!a.kind.empty() && ownExport()) {
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

}  // namespace tpscope::core
