// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_links.h"

#include <simdjson.h>

#include <algorithm>
#include <array>
#include <functional>

namespace tpscope::core {

std::int64_t kinetoThreadKey(const kineto::RecordFields& f) {
    if (std::int64_t n = 0; kineto::integerInto(f.tid, n)) return n;
    std::string_view s;
    kineto::ignoreError(f.tid.get_string().get(s));
    return static_cast<std::int64_t>(std::hash<std::string_view>{}(s));
}

std::vector<KinetoLinks::LaunchRecord> KinetoLinks::takeLaunchRecords() {
    std::vector<LaunchRecord> out = std::move(m_launches);
    m_launches.clear();
    m_launchReplaces.clear();
    auto before = [](const LaunchRecord& a, const LaunchRecord& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.startNs < b.startNs;
    };
    if (!std::is_sorted(out.begin(), out.end(), before)) std::sort(out.begin(), out.end(), before);
    return out;
}

void KinetoLinks::adopt(Buffers&& buffers) {
    m_opArgs = std::move(buffers.opArgs);
    m_opArgs.clear();
    m_launches = std::move(buffers.launches);
    m_launches.clear();
}

KinetoLinks::Buffers KinetoLinks::release() {
    Buffers out{std::move(m_opArgs), std::move(m_launches)};
    m_opArgs.clear();
    m_launches.clear();
    return out;
}

namespace {

std::int64_t elementsOf(const kineto::ArgFields& a) {
    return std::max(a.inNelems, a.outNelems);
}

}  // namespace

NameId KinetoLinks::groupName(const kineto::ArgFields& a, TracePart& part) {
    const std::string_view group = !a.processGroupDesc.empty() ? a.processGroupDesc : a.processGroupName;
    return group.empty() ? NameId{} : m_group(group, part);
}

void KinetoLinks::applyCollectiveArgs(CollectivePayload& p, const kineto::ArgFields& a, TracePart& part) {
    if (const auto op = m_op(a.collectiveName)) p.op = *op;
    // Only tpscope's own export names these; an empty name parses as none (skipped: NCCL kernels' args).
    if (!a.algo.empty()) {
        if (const auto algo = parseCollectiveAlgo(a.algo)) p.algo = *algo;
    }
    if (!a.proto.empty()) {
        if (const auto proto = parseCollectiveProto(a.proto)) p.proto = *proto;
    }
    if (const Dtype d = m_dtype(a.dtype); d != Dtype::Unknown) p.dtype = d;
    if (a.groupSize > 0 && a.groupSize < (1LL << 31)) p.groupSize = static_cast<std::uint32_t>(a.groupSize);
    if (const NameId group = groupName(a, part); group.value != 0) p.communicator = group;
    if (a.msgBytes >= 0) {
        p.bytes = static_cast<std::uint64_t>(a.msgBytes);
    } else if (const std::int64_t n = elementsOf(a); n > 0 && dtypeBytes(p.dtype) > 0) {
        p.bytes = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(dtypeBytes(p.dtype));
    }
}

void KinetoLinks::addCpuOp(const kineto::ArgFields& a, TracePart& part) {
    if (a.externalId < 0 || a.collectiveName.empty()) return;
    OpArgs o;
    o.op = m_op(a.collectiveName).value_or(CollectiveOp::Unknown);
    o.dtype = m_dtype(a.dtype);
    o.elements = elementsOf(a);
    o.groupSize = a.groupSize;
    o.communicator = groupName(a, part);
    m_opArgs.push_back({a.externalId, o, true});
}

void KinetoLinks::addLaunch(const kineto::RecordFields& f, const kineto::ArgFields& a, std::int64_t startNs) {
    if (a.correlation < 0) return;
    m_launches.push_back({kinetoThreadKey(f), startNs, a.correlation});
    m_launchReplaces.push_back(true);
}

void KinetoLinks::addFlowStart(const kineto::RecordFields& f, std::int64_t correlation, std::int64_t startNs) {
    if (correlation < 0) return;
    const LaunchRecord launch{kinetoThreadKey(f), startNs, correlation};
    // PyTorch writes a launch's flow start right after its runtime record, on the same thread at the
    // same time: that copy changes nothing (resolve() keeps the runtime record's, the projection would
    // see the same launch twice), and skipping it halves this list (a third of the import's page faults).
    if (!m_launches.empty() && m_launchReplaces.back()) {
        const LaunchRecord& last = m_launches.back();
        if (last.correlation == correlation && last.thread == launch.thread && last.startNs == launch.startNs) return;
    }
    m_launches.push_back(launch);
    m_launchReplaces.push_back(false);
}

void KinetoLinks::addLauncher(const kineto::RecordFields& f, const kineto::ArgFields& a, std::int64_t startNs,
                              std::int64_t durNs) {
    Annotation an;
    an.thread = kinetoThreadKey(f);
    an.startNs = startNs;
    an.endNs = startNs + durNs;
    an.args.op = launcherOp(f.name).value_or(CollectiveOp::Unknown);
    an.args.dtype = m_dtype(a.inputType);
    an.args.elements = a.inputElems;
    m_annotations.push_back(an);
    // A record_param_comms op with the same External id has the exact args: it wins.
    if (a.externalId >= 0) m_opArgs.push_back({a.externalId, an.args, false});
}

std::optional<CollectiveOp> launcherOp(std::string_view name) {
    if (name.substr(0, 5) == "nccl:") return parseCollectiveOp(name.substr(5));
    // Custom ops are "namespace::op": the op after the last "::", lowercased, without '_'. Only its
    // end is compared, so only the last kTail such characters are kept (no allocation: every aten::
    // op of a trace comes through here).
    const auto colon = name.rfind("::");
    if (colon == std::string_view::npos) return std::nullopt;
    constexpr std::size_t kTail = 24;  // >= the longest suffix below
    std::array<char, kTail> tail{};
    std::size_t n = 0;
    for (std::size_t i = name.size(); i > colon + 2 && n < kTail; --i) {
        const char c = name[i - 1];
        if (c != '_') tail[kTail - ++n] = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    }
    const std::string_view op(tail.data() + kTail - n, n);
    auto ends = [&](std::string_view suffix) { return op.ends_with(suffix); };
    if (ends("allreduce")) return CollectiveOp::AllReduce;
    if (ends("allgather") || ends("allgatherintotensor")) return CollectiveOp::AllGather;
    if (ends("reducescatter") || ends("reducescattertensor")) return CollectiveOp::ReduceScatter;
    return std::nullopt;
}

const KinetoLinks::Annotation* KinetoLinks::enclosing(std::int64_t thread, std::int64_t ns) const {
    auto it = std::upper_bound(m_annotations.begin(), m_annotations.end(), std::pair{thread, ns},
                               [](const std::pair<std::int64_t, std::int64_t>& v, const Annotation& a) {
                                   return v.first != a.thread ? v.first < a.thread : v.second < a.startNs;
                               });
    // Innermost first: walk back over annotations of this thread that started before ns.
    for (int steps = 0; it != m_annotations.begin() && steps < 64; ++steps) {
        --it;
        if (it->thread != thread) break;
        if (it->endNs >= ns) return &*it;
    }
    return nullptr;
}

namespace {

template <class Value>
void insertEntry(std::unordered_map<std::int64_t, Value>& map, std::int64_t id, const Value& v, bool replaces) {
    if (replaces) {
        map[id] = v;
    } else {
        map.try_emplace(id, v);
    }
}

}  // namespace

std::size_t KinetoLinks::resolve(TracePart& part) {
    if (m_pending.empty()) return 0;
    std::unordered_map<std::int64_t, OpArgs> byExternalId;
    std::unordered_map<std::int64_t, Launch> launches;
    for (const auto& e : m_opArgs) insertEntry(byExternalId, e.externalId, e.args, e.replaces);
    for (std::size_t i = 0; i < m_launches.size(); ++i) {
        const LaunchRecord& l = m_launches[i];
        insertEntry(launches, l.correlation, Launch{l.thread, l.startNs}, static_cast<bool>(m_launchReplaces[i]));
    }
    std::sort(m_annotations.begin(), m_annotations.end(), [](const Annotation& a, const Annotation& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.startNs < b.startNs;
    });
    std::size_t resolved = 0;
    for (const auto& p : m_pending) {
        EventRecord& e = part.devices[p.device].streams[p.stream].events[p.event];
        CollectivePayload c = part.payloads.get(e.payload).collective;
        const OpArgs* args = nullptr;
        if (auto it = byExternalId.find(p.externalId); p.externalId >= 0 && it != byExternalId.end()) {
            args = &it->second;
        }
        // The kernel's External id may name an op that is not the launcher (or none): find the
        // launcher around the launch instead.
        if (args == nullptr || args->elements <= 0) {
            if (auto l = launches.find(p.correlation); p.correlation >= 0 && l != launches.end()) {
                if (const Annotation* a = enclosing(l->second.thread, l->second.startNs)) args = &a->args;
            }
        }
        if (args == nullptr) continue;
        // NCCL runs all_to_all (and scatter, gather) as SendRecv kernels: the CPU side names which. It
        // never runs an all-reduce or all-gather that way, so a SendRecv kernel under such a launcher
        // (HTA's sampled trace-filter ranks) keeps the kernel's name: the launcher window caught it.
        if (c.op == CollectiveOp::Unknown || (c.op == CollectiveOp::SendRecv && args->op == CollectiveOp::AllToAll)) {
            c.op = args->op;
        }
        if (args->dtype != Dtype::Unknown) c.dtype = args->dtype;
        if (args->groupSize > 0 && args->groupSize < (1LL << 31)) {
            c.groupSize = static_cast<std::uint32_t>(args->groupSize);
        }
        if (args->communicator.value != 0) c.communicator = args->communicator;
        if (args->elements > 0 && dtypeBytes(c.dtype) > 0) {
            c.bytes = static_cast<std::uint64_t>(args->elements) * static_cast<std::uint64_t>(dtypeBytes(c.dtype));
            ++resolved;
        }
        e.payload = part.payloads.intern(Payload::of(c));
    }
    return resolved;
}

Status applyTpscopeChromeMeta(std::string_view rawJson, TracePart& part) {
    simdjson::dom::parser parser;
    simdjson::dom::object meta;
    if (parser.parse(rawJson.data(), rawJson.size(), true).get_object().get(meta) != simdjson::SUCCESS) {
        part.stats.note("the \"tpscope\" member is not a valid object; ignored");
        return Ok{};
    }
    std::int64_t version = 0;
    if (meta["version"].get_int64().get(version) == simdjson::SUCCESS && version > 1) {
        part.stats.note("written by a newer tpscope (export version " + std::to_string(version) +
                        "); unknown fields ignored");
    }
    std::string_view s;
    if (meta["origin"].get_string().get(s) == simdjson::SUCCESS) {
        if (const auto origin = parseTraceOrigin(s)) part.origin = *origin;
    }
    if (meta["source"].get_string().get(s) == simdjson::SUCCESS) part.source = std::string(s);
    simdjson::dom::array list;
    if (meta["metadata"].get_array().get(list) == simdjson::SUCCESS) {
        part.metadata.clear();
        for (const auto kv : list) {
            std::string_view k, v;
            if (kv.at(0).get_string().get(k) == simdjson::SUCCESS &&
                kv.at(1).get_string().get(v) == simdjson::SUCCESS) {
                part.metadata.emplace_back(std::string(k), std::string(v));
            }
        }
    }
    if (meta["ranks"].get_array().get(list) != simdjson::SUCCESS) return Ok{};
    for (const auto r : list) {
        std::int64_t pid = 0, rank = 0, deviceIndex = -1, offset = 0;
        if (r["pid"].get_int64().get(pid) != simdjson::SUCCESS ||
            r["rank"].get_int64().get(rank) != simdjson::SUCCESS || rank < 0 || rank >= (1LL << 32)) {
            ++part.stats.badRecords;
            continue;
        }
        StagedDevice& dev = part.device(std::to_string(pid));
        dev.rank = static_cast<std::uint32_t>(rank);
        if (r["deviceIndex"].get_int64().get(deviceIndex) == simdjson::SUCCESS) {
            dev.deviceIndex = static_cast<int>(deviceIndex);
        }
        if (r["clockOffsetNs"].get_int64().get(offset) == simdjson::SUCCESS) dev.clockOffsetNs = offset;
        if (r["host"].get_string().get(s) == simdjson::SUCCESS) dev.host = std::string(s);
        if (r["deviceName"].get_string().get(s) == simdjson::SUCCESS) dev.deviceName = std::string(s);
        simdjson::dom::array streams;
        if (r["streams"].get_array().get(streams) != simdjson::SUCCESS) continue;
        for (const auto st : streams) {
            std::uint64_t id = 0;
            if (st["id"].get_uint64().get(id) != simdjson::SUCCESS) continue;
            StagedStream& stream = dev.stream(id);
            if (st["label"].get_string().get(s) == simdjson::SUCCESS) stream.label = std::string(s);
        }
    }
    return Ok{};
}

}  // namespace tpscope::core
