// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/trace_part.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "core/util/parallel_for.h"

namespace tpscope::core {

StagedHostThread& StagedDevice::hostThread(std::uint64_t id, std::string_view label) {
    for (auto& t : hostThreads) {
        if (t.id == id) return t;
    }
    auto& t = hostThreads.emplace_back();
    t.id = id;
    t.label = std::string(label);
    return t;
}

StagedStream& StagedDevice::stream(std::uint64_t id) {
    // Devices have a handful of streams; the last one used is almost always the one asked for.
    if (!streams.empty() && streams.back().id == id) return streams.back();
    for (auto& s : streams) {
        if (s.id == id) return s;
    }
    auto& s = streams.emplace_back();
    s.id = id;
    return s;
}

StagedDevice& TracePart::device(std::string_view key) {
    for (auto& d : devices) {
        if (d.key == key) return d;
    }
    auto& d = devices.emplace_back();
    d.key = std::string(key);
    return d;
}

void TracePart::setMetadata(std::string key, std::string value) {
    for (auto& [k, v] : metadata) {
        if (k == key) {
            v = std::move(value);
            return;
        }
    }
    metadata.emplace_back(std::move(key), std::move(value));
}

void assignRangeDepths(std::vector<StagedRange>& ranges) {
    std::stable_sort(ranges.begin(), ranges.end(), [](const StagedRange& a, const StagedRange& b) {
        return a.startNs != b.startNs ? a.startNs < b.startNs : a.endNs > b.endNs;
    });
    std::vector<std::int64_t> openEnds;  // ends of the ranges containing the current start, outermost first
    for (auto& r : ranges) {
        while (!openEnds.empty() && openEnds.back() <= r.startNs) openEnds.pop_back();
        if (r.depth < 0) r.depth = static_cast<int>(openEnds.size());
        openEnds.push_back(r.endNs);
    }
}

std::optional<std::uint32_t> rankFromFileName(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const std::string_view word : {"rank", "worker"}) {
        std::size_t pos = 0;
        while ((pos = name.find(word, pos)) != std::string::npos) {
            std::size_t i = pos + word.size();
            if (i < name.size() && (name[i] == '-' || name[i] == '_' || name[i] == '.')) ++i;
            std::size_t j = i;
            while (j < name.size() && std::isdigit(static_cast<unsigned char>(name[j])) != 0 && j - i < 9) ++j;
            if (j > i) return static_cast<std::uint32_t>(std::stoul(name.substr(i, j - i)));
            pos += word.size();
        }
    }
    return std::nullopt;
}

namespace {

struct Slot {
    std::size_t part = 0;
    std::size_t device = 0;
    std::optional<std::uint32_t> rank;
};

std::vector<Slot> numberRanks(std::vector<TracePart>& parts, ImportStats& stats) {
    std::vector<Slot> slots;
    for (std::size_t p = 0; p < parts.size(); ++p) {
        auto& devices = parts[p].devices;
        if (devices.empty() && !parts[p].processRanges.empty()) devices.emplace_back().key = "cpu";
        std::stable_sort(devices.begin(), devices.end(),
                         [](const StagedDevice& a, const StagedDevice& b) { return a.deviceIndex < b.deviceIndex; });
        for (std::size_t d = 0; d < devices.size(); ++d) slots.push_back({p, d, std::nullopt});
    }
    std::set<std::uint32_t> used;
    auto claim = [&](Slot& s, std::uint32_t rank) {
        if (used.insert(rank).second) {
            s.rank = rank;
            return;
        }
        ++stats.rankConflicts;
        stats.note(parts[s.part].path + ": rank " + std::to_string(rank) + " already taken; renumbered");
    };
    for (auto& s : slots) {
        if (const auto& explicitRank = parts[s.part].devices[s.device].rank) claim(s, *explicitRank);
    }
    for (auto& s : slots) {
        const auto& part = parts[s.part];
        if (!s.rank && part.declaredRank && part.devices.size() == 1 && !part.devices[s.device].rank) {
            claim(s, *part.declaredRank);
        }
    }
    std::uint32_t next = 0;
    for (auto& s : slots) {
        if (s.rank) continue;
        while (used.count(next) != 0) ++next;
        used.insert(next);
        s.rank = next;
    }
    return slots;
}

struct Remap {
    std::vector<NameId> names;
    std::vector<PayloadId> payloads;
};

Remap remapTables(const TracePart& part, Trace& trace) {
    Remap m;
    m.names.resize(part.names.size());
    for (std::uint32_t i = 0; i < part.names.size(); ++i) m.names[i] = trace.intern(part.names.view(NameId{i}));
    m.payloads.resize(part.payloads.size());
    for (std::uint32_t i = 0; i < part.payloads.size(); ++i) {
        Payload p = part.payloads.get(i);
        if (p.kind == PayloadKind::None) {
            m.payloads[i] = kNoPayload;
            continue;
        }
        p.collective.communicator = m.names[p.collective.communicator.value];
        m.payloads[i] = trace.intern(p);
    }
    return m;
}

// What building one rank's columns counted (the ranks are built on several threads).
struct DeviceCounts {
    std::uint64_t badRecords = 0;
    std::uint64_t ranges = 0;
    std::uint64_t overlappingKernels = 0;
};

// Staged events onto the merged timeline: shifted by the part's time base, names (and payloads) remapped,
// out-of-range times counted as bad records; the staging vector is freed.
// Staged events in columns, a chunk at a time, for EventColumns' batch append (each column written in
// place: a third of the instructions of appending event by event, callgrind); the chunk's arrays are
// the thread's own and stay in its cache.
class EventChunk {
  public:
    static constexpr std::size_t kEvents = 4096;
    void add(const EventRecord& e) {
        m_starts.push_back(e.startNs);
        m_durations.push_back(e.durNs);
        m_names.push_back(e.name.value);
        m_kinds.push_back(static_cast<std::uint8_t>(e.kind));
        m_correlations.push_back(e.correlationId);
        m_payloads.push_back(e.payload);
    }
    bool full() const { return m_starts.size() == kEvents; }
    void flushInto(EventColumns& out) {
        out.append(EventBatch{m_starts, m_durations, m_names, m_kinds, m_correlations, m_payloads});
        clear();
    }
    void clear() {
        m_starts.clear();
        m_durations.clear();
        m_names.clear();
        m_kinds.clear();
        m_correlations.clear();
        m_payloads.clear();
    }

  private:
    std::vector<std::int64_t> m_starts, m_durations;
    std::vector<std::uint32_t> m_names;
    std::vector<std::uint8_t> m_kinds;
    std::vector<std::uint32_t> m_correlations;
    std::vector<PayloadId> m_payloads;
};

void appendRebased(EventColumns& out, std::vector<EventRecord>& staged, const TracePart& part, const Remap& map,
                   bool remapPayloads, DeviceCounts& stats) {
    thread_local EventChunk chunk;
    chunk.clear();  // nothing left from a merge that an exception (out of memory) cut short
    for (EventRecord e : staged) {
        e.startNs += part.timeBaseNs;
        if (e.startNs <= -kMaxAbsTimeNs || e.startNs >= kMaxAbsTimeNs || e.durNs >= kMaxAbsTimeNs) {
            ++stats.badRecords;
            continue;
        }
        e.name = map.names[e.name.value];
        if (remapPayloads) e.payload = map.payloads[e.payload];
        chunk.add(e);
        if (chunk.full()) chunk.flushInto(out);
    }
    chunk.flushInto(out);
    std::vector<EventRecord>().swap(staged);
}

// Moves one staged device into its rank; its staged events are released as soon as they are
// copied, so staging and final columns of a device are never resident at the same time. The
// streams are finalized here, on the thread that built them (Trace::finalize skips them then).
void addDevice(Rank& rank, const TracePart& part, StagedDevice& dev, const Remap& map, DeviceCounts& stats) {
    rank.host = dev.host;
    rank.deviceIndex = dev.deviceIndex;
    rank.deviceName = dev.deviceName;
    rank.clockOffsetNs = dev.clockOffsetNs;
    for (auto& staged : dev.streams) {
        Stream& s = rank.stream(StreamId{staged.id}, staged.label);
        s.events.reserve(s.events.size() + staged.events.size());
        appendRebased(s.events, staged.events, part, map, /*remapPayloads=*/true, stats);
    }
    for (auto& staged : dev.hostThreads) {
        // Host rows carry no payload: their launch calls name the kernel through the correlation id.
        appendRebased(rank.hostThread(staged.id, staged.label).events, staged.events, part, map,
                      /*remapPayloads=*/false, stats);
    }
    std::vector<StagedRange> ranges = dev.ranges;
    ranges.insert(ranges.end(), part.processRanges.begin(), part.processRanges.end());
    assignRangeDepths(ranges);
    for (const auto& r : ranges) {
        if (std::max(std::abs(r.startNs + part.timeBaseNs), std::abs(r.endNs + part.timeBaseNs)) >= kMaxAbsTimeNs) {
            ++stats.badRecords;
            continue;
        }
        rank.ranges.push_back(NvtxRange{r.startNs + part.timeBaseNs, r.endNs + part.timeBaseNs, map.names[r.name.value],
                                        static_cast<std::uint8_t>(std::clamp(r.depth, 0, 255))});
    }
    stats.ranges += ranges.size();
    for (auto& s : rank.streams) {
        s.events.finalize();
        stats.overlappingKernels += s.events.countOverlaps();
    }
    for (auto& h : rank.hostThreads) h.events.finalize();
}

}  // namespace

Result<std::shared_ptr<Trace>> mergeParts(std::vector<TracePart>&& parts, ImportStats* statsOut, unsigned threads) {
    ImportStats stats;
    for (const auto& p : parts) stats.merge(p.stats);
    stats.ranges = 0;  // counted below, per rank a range is shown on
    auto trace = std::make_shared<Trace>();
    const auto slots = numberRanks(parts, stats);
    // Names and payloads are interned in file order, so their ids do not depend on the threads.
    std::vector<Remap> maps;
    maps.reserve(parts.size());
    for (const auto& p : parts) maps.push_back(remapTables(p, *trace));
    // Every slot has a rank of its own (numberRanks): the ranks are created here, then filled one task
    // per rank, nothing shared but the read-only parts and maps.
    for (const auto& s : slots) trace->rank(RankId{*s.rank});
    std::vector<DeviceCounts> counts(slots.size());
    parallelFor(slots.size(), threads, [&](std::size_t i) {
        const Slot& s = slots[i];
        addDevice(trace->rank(RankId{*s.rank}), parts[s.part], parts[s.part].devices[s.device], maps[s.part],
                  counts[i]);
    });
    stats.overlappingKernels = 0;
    for (const auto& c : counts) {
        stats.badRecords += c.badRecords;
        stats.ranges += c.ranges;
        stats.overlappingKernels += c.overlappingKernels;
    }
    trace->origin = parts.empty() ? TraceOrigin::Imported : parts.front().origin;
    for (const auto& p : parts) {
        if (p.origin != trace->origin) trace->origin = TraceOrigin::Imported;
        for (const auto& [k, v] : p.metadata) {
            if (trace->metadataValue(k).empty()) trace->metadata.emplace_back(k, v);
        }
    }
    if (parts.size() == 1) {
        trace->source = parts.front().source.empty() ? parts.front().path : parts.front().source;
    } else if (!parts.empty()) {
        trace->source = std::to_string(parts.size()) + " files: " + parts.front().path + " ...";
    }
    trace->finalize();
    if (stats.overlappingKernels > 0) {
        stats.note(std::to_string(stats.overlappingKernels) +
                   " events start before the previous one on their stream ends (concurrent kernels or clock "
                   "jitter); they are kept as recorded");
    }
    if (statsOut != nullptr) *statsOut = std::move(stats);
    return trace;
}

}  // namespace tpscope::core
