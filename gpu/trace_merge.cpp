// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/trace_merge.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tpscope::gpu {

core::Result<core::Trace> mergeProcessTraces(std::vector<ProcessTrace> parts) {
    std::sort(parts.begin(), parts.end(),
              [](const ProcessTrace& a, const ProcessTrace& b) { return a.process < b.process; });
    core::Trace out;
    // One synthetic part (cpu test) makes the whole trace synthetic: nothing made up passes as measured.
    const bool synthetic = std::any_of(parts.begin(), parts.end(), [](const ProcessTrace& p) {
        return p.trace.origin == core::TraceOrigin::Synthetic;
    });
    out.origin = synthetic ? core::TraceOrigin::Synthetic : core::TraceOrigin::Captured;
    // Counters of the CUPTI collectors ("cupti.*") are summed over processes; other metadata
    // describes the launch and comes from the first process.
    std::map<std::string, std::uint64_t> counters;
    for (ProcessTrace& part : parts) {
        core::Trace& in = part.trace;
        for (const auto& [key, value] : in.metadata) {
            if (key.rfind("cupti.", 0) == 0) {
                counters[key] += std::strtoull(value.c_str(), nullptr, 10);
            } else if (&part == &parts.front()) {
                out.metadata.emplace_back(key, value);
            }
        }
        if (&part == &parts.front()) out.source = in.source;
        if (!part.error.empty()) {
            out.metadata.emplace_back("capture.error.process " + std::to_string(part.process), part.error);
        }
        std::vector<core::NameId> names(in.names.size());
        for (std::uint32_t i = 0; i < in.names.size(); ++i) names[i] = out.intern(in.names.view(core::NameId(i)));
        std::vector<core::PayloadId> payloads(in.payloads.size());
        for (std::size_t i = 0; i < in.payloads.size(); ++i) {
            core::Payload p = in.payloads.get(static_cast<core::PayloadId>(i));
            p.collective.communicator = names[p.collective.communicator.value];
            payloads[i] = out.intern(p);
        }
        const std::int64_t shift = part.clockOffsetNs;
        for (const core::Rank& src : in.ranks) {
            if (out.findRank(src.id) != nullptr) {
                return core::makeError(core::ErrorCode::InvalidArgument,
                                       "rank " + std::to_string(src.id.value) + " was captured by two processes",
                                       "process " + std::to_string(part.process));
            }
            core::Rank& dst = out.rank(src.id);
            dst.host = src.host.empty() ? part.host : src.host;
            dst.deviceIndex = src.deviceIndex;
            dst.deviceName = src.deviceName;
            dst.clockOffsetNs = src.clockOffsetNs + shift;
            for (const core::Stream& s : src.streams) {
                core::Stream& ds = dst.stream(s.id, s.label);
                ds.events.reserve(s.events.size());
                for (std::size_t i = 0; i < s.events.size(); ++i) {
                    core::EventRecord e = s.events.at(i);
                    e.startNs += shift;
                    e.name = names[e.name.value];
                    e.payload = payloads[e.payload];
                    ds.events.append(e);
                }
            }
            for (core::NvtxRange r : src.ranges) {
                r.startNs += shift;
                r.endNs += shift;
                r.name = names[r.name.value];
                dst.ranges.push_back(r);
            }
        }
    }
    for (const auto& [key, value] : counters) out.metadata.emplace_back(key, std::to_string(value));
    out.metadata.emplace_back("capture.processes", std::to_string(parts.size()));
    std::string agreed = "yes";
    for (const ProcessTrace& part : parts) {
        if (part.launchIdHash != parts.front().launchIdHash) {
            agreed = "no: process " + std::to_string(part.process) + " differs";
        }
    }
    if (!parts.empty()) out.metadata.emplace_back("launch.id_agreed", agreed);
    out.finalize();
    return out;
}

}  // namespace tpscope::gpu
