// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/trace/kernel_time.h"

#include <algorithm>
#include <unordered_map>

namespace tpscope::core {

namespace {

bool isKernel(EventKind kind) {
    return kind != EventKind::Memcpy && kind != EventKind::Memset;
}

}  // namespace

double KernelTime::share(EventKind kind) const {
    if (kernelNs <= 0) return 0.0;
    return static_cast<double>(nsByKind[static_cast<std::size_t>(kind)]) / static_cast<double>(kernelNs);
}

KernelTime kernelTime(const Trace& trace) {
    KernelTime t;
    for (const auto& rank : trace.ranks) {
        for (const auto& stream : rank.streams) {
            const auto& ev = stream.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                const EventKind kind = ev.kind(i);
                t.nsByKind[static_cast<std::size_t>(kind)] += ev.durNs(i);
                if (isKernel(kind)) t.kernelNs += ev.durNs(i);
            }
        }
    }
    return t;
}

std::vector<NamedKernelTime> topKernelNames(const Trace& trace, EventKind kind, std::size_t limit) {
    std::unordered_map<std::uint32_t, NamedKernelTime> byName;
    for (const auto& rank : trace.ranks) {
        for (const auto& stream : rank.streams) {
            const auto& ev = stream.events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (ev.kind(i) != kind) continue;
                auto& n = byName[ev.name(i).value];
                n.ns += ev.durNs(i);
                ++n.count;
            }
        }
    }
    std::vector<NamedKernelTime> out;
    out.reserve(byName.size());
    for (auto& [id, n] : byName) {
        n.name = std::string(trace.name(NameId{id}));
        out.push_back(std::move(n));
    }
    std::sort(out.begin(), out.end(), [](const NamedKernelTime& a, const NamedKernelTime& b) {
        return a.ns != b.ns ? a.ns > b.ns : a.name < b.name;
    });
    if (out.size() > limit) out.resize(limit);
    return out;
}

}  // namespace tpscope::core
