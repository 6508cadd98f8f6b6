// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/trace.h"

#include <algorithm>
#include <limits>

namespace tpscope::core {

std::string_view toString(TraceOrigin origin) {
    switch (origin) {
        case TraceOrigin::Simulated:
            return "simulated";
        case TraceOrigin::Captured:
            return "captured";
        case TraceOrigin::Imported:
            return "imported";
        case TraceOrigin::Synthetic:
            return "synthetic";
        case TraceOrigin::Predicted:
            return "predicted";
        case TraceOrigin::Unknown:
            break;
    }
    return "unknown";
}

namespace {

void shiftColumns(EventColumns& events, std::int64_t deltaNs) {
    EventColumns shifted;
    shifted.reserve(events.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
        EventRecord e = events.at(i);
        e.startNs += deltaNs;
        shifted.append(e);
    }
    shifted.finalize();
    events = std::move(shifted);
}

}  // namespace

void shiftRank(Rank& rank, std::int64_t deltaNs) {
    if (deltaNs == 0) return;
    for (auto& s : rank.streams) shiftColumns(s.events, deltaNs);
    for (auto& h : rank.hostThreads) shiftColumns(h.events, deltaNs);
    NvtxRanges shifted;
    shifted.reserve(rank.ranges.size());
    for (NvtxRange r : rank.ranges) {
        r.startNs += deltaNs;
        r.endNs += deltaNs;
        shifted.push_back(r);
    }
    shifted.finalize();
    rank.ranges = std::move(shifted);
    rank.clockOffsetNs += deltaNs;
}

std::optional<TraceOrigin> parseTraceOrigin(std::string_view text) {
    for (int i = 0; i < kTraceOriginCount; ++i) {
        const auto origin = static_cast<TraceOrigin>(i);
        if (toString(origin) == text) return origin;
    }
    return std::nullopt;
}

Stream& Rank::stream(StreamId streamId, std::string_view label) {
    for (auto& s : streams) {
        if (s.id == streamId) return s;
    }
    auto& s = streams.emplace_back();
    s.id = streamId;
    s.label = label.empty() ? "stream " + std::to_string(streamId.value) : std::string(label);
    return s;
}

const Stream* Rank::findStream(StreamId streamId) const {
    for (const auto& s : streams) {
        if (s.id == streamId) return &s;
    }
    return nullptr;
}

HostThread& Rank::hostThread(std::uint64_t threadId, std::string_view label) {
    for (auto& h : hostThreads) {
        if (h.threadId == threadId) return h;
    }
    auto& h = hostThreads.emplace_back();
    h.threadId = threadId;
    h.label = label.empty() ? "thread " + std::to_string(threadId) : std::string(label);
    return h;
}

std::size_t Rank::eventCount() const {
    std::size_t n = 0;
    for (const auto& s : streams) n += s.events.size();
    return n;
}

std::size_t Rank::hostEventCount() const {
    std::size_t n = 0;
    for (const auto& h : hostThreads) n += h.events.size();
    return n;
}

Rank& Trace::rank(RankId id) {
    auto it = std::lower_bound(ranks.begin(), ranks.end(), id, [](const Rank& r, RankId v) { return r.id < v; });
    if (it != ranks.end() && it->id == id) return *it;
    it = ranks.insert(it, Rank{});
    it->id = id;
    return *it;
}

const Rank* Trace::findRank(RankId id) const {
    auto it = std::lower_bound(ranks.begin(), ranks.end(), id, [](const Rank& r, RankId v) { return r.id < v; });
    return it != ranks.end() && it->id == id ? &*it : nullptr;
}

void Trace::finalize() {
    for (auto& r : ranks) {
        // A loader may have finalized its streams already (on its decoder threads); doing it again
        // would only narrow the same columns twice.
        for (auto& s : r.streams) {
            if (!s.events.finalized()) s.events.finalize();
        }
        std::sort(r.streams.begin(), r.streams.end(), [](const Stream& a, const Stream& b) { return a.id < b.id; });
        for (auto& h : r.hostThreads) {
            if (!h.events.finalized()) h.events.finalize();
        }
        if (!r.ranges.finalized()) r.ranges.finalize();
    }
}

std::size_t Trace::eventCount() const {
    std::size_t n = 0;
    for (const auto& r : ranks) n += r.eventCount();
    return n;
}

std::size_t Trace::hostEventCount() const {
    std::size_t n = 0;
    for (const auto& r : ranks) n += r.hostEventCount();
    return n;
}

std::int64_t Trace::startNs() const {
    std::int64_t t = std::numeric_limits<std::int64_t>::max();
    for (const auto& r : ranks) {
        for (const auto& s : r.streams) {
            if (!s.events.empty()) t = std::min(t, s.events.firstStartNs());
        }
        for (const auto& h : r.hostThreads) {
            if (!h.events.empty()) t = std::min(t, h.events.firstStartNs());
        }
        if (!r.ranges.empty()) t = std::min(t, r.ranges.front().startNs);
    }
    return t == std::numeric_limits<std::int64_t>::max() ? 0 : t;
}

std::int64_t Trace::endNs() const {
    std::int64_t t = std::numeric_limits<std::int64_t>::min();
    for (const auto& r : ranks) {
        for (const auto& s : r.streams) {
            if (!s.events.empty()) t = std::max(t, s.events.lastEndNs());
        }
        for (const auto& h : r.hostThreads) {
            if (!h.events.empty()) t = std::max(t, h.events.lastEndNs());
        }
        if (!r.ranges.empty()) t = std::max(t, r.ranges.lastEndNs());
    }
    return t == std::numeric_limits<std::int64_t>::min() ? 0 : t;
}

std::size_t Trace::residentBytes() const {
    std::size_t bytes = names.residentBytes() + payloads.size() * sizeof(Payload);
    for (const auto& r : ranks) {
        bytes += sizeof(Rank) + r.ranges.residentBytes();
        for (const auto& s : r.streams) bytes += sizeof(Stream) + s.events.residentBytes();
        for (const auto& h : r.hostThreads) bytes += sizeof(HostThread) + h.events.residentBytes();
    }
    return bytes;
}

std::string Trace::metadataValue(std::string_view key) const {
    for (const auto& [k, v] : metadata) {
        if (k == key) return v;
    }
    return {};
}

namespace {

bool sameRange(const Trace& a, const NvtxRange& ra, const Trace& b, const NvtxRange& rb) {
    return ra.startNs == rb.startNs && ra.endNs == rb.endNs && ra.depth == rb.depth &&
           a.name(ra.name) == b.name(rb.name);
}

// Payloads compare by value except the communicator, an interned name compared as text.
bool samePayload(const Trace& a, const Payload& pa, const Trace& b, const Payload& pb) {
    Payload ca = pa;
    Payload cb = pb;
    ca.collective.communicator = cb.collective.communicator = NameId{};
    return ca == cb && a.name(pa.collective.communicator) == b.name(pb.collective.communicator);
}

bool sameEvent(const Trace& a, const EventRecord& ea, const Trace& b, const EventRecord& eb) {
    return ea.startNs == eb.startNs && ea.durNs == eb.durNs && ea.kind == eb.kind &&
           ea.correlationId == eb.correlationId && a.name(ea.name) == b.name(eb.name) &&
           samePayload(a, a.payload(ea.payload), b, b.payload(eb.payload));
}

}  // namespace

bool Trace::sameEvents(const Trace& other) const {
    if (ranks.size() != other.ranks.size()) return false;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const Rank& ra = ranks[r];
        const Rank& rb = other.ranks[r];
        if (ra.id != rb.id || ra.host != rb.host || ra.deviceIndex != rb.deviceIndex ||
            ra.deviceName != rb.deviceName || ra.clockOffsetNs != rb.clockOffsetNs ||
            ra.streams.size() != rb.streams.size() || ra.ranges.size() != rb.ranges.size()) {
            return false;
        }
        for (std::size_t i = 0; i < ra.ranges.size(); ++i) {
            if (!sameRange(*this, ra.ranges[i], other, rb.ranges[i])) return false;
        }
        for (std::size_t s = 0; s < ra.streams.size(); ++s) {
            const auto& ea = ra.streams[s].events;
            const auto& eb = rb.streams[s].events;
            if (ra.streams[s].id != rb.streams[s].id || ea.size() != eb.size()) return false;
            for (std::size_t i = 0; i < ea.size(); ++i) {
                if (!sameEvent(*this, ea.at(i), other, eb.at(i))) return false;
            }
        }
    }
    return true;
}

bool Trace::sameHostEvents(const Trace& other) const {
    if (ranks.size() != other.ranks.size()) return false;
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const Rank& ra = ranks[r];
        const Rank& rb = other.ranks[r];
        if (ra.hostThreads.size() != rb.hostThreads.size()) return false;
        for (std::size_t h = 0; h < ra.hostThreads.size(); ++h) {
            const auto& ea = ra.hostThreads[h].events;
            const auto& eb = rb.hostThreads[h].events;
            if (ra.hostThreads[h].threadId != rb.hostThreads[h].threadId ||
                ra.hostThreads[h].label != rb.hostThreads[h].label || ea.size() != eb.size()) {
                return false;
            }
            for (std::size_t i = 0; i < ea.size(); ++i) {
                if (!sameEvent(*this, ea.at(i), other, eb.at(i))) return false;
            }
        }
    }
    return true;
}

}  // namespace tpscope::core
