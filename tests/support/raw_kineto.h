// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// GPU kernels of a folder of Kineto files (worker<rank>_*.json), read with a few lines of simdjson
// (ph "X", cat "kernel" only) so that tests can compute expected values independently of core/io.
// Epoch microseconds (~1.7e15) times 1000 exceed a double's 53-bit mantissa, so integer timestamps
// stay integers and float ones are split into whole and fractional µs.

#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tpscope::test {

struct RawKernel {
    std::int64_t startNs;
    std::int64_t endNs;
    std::string name;
};

inline std::int64_t rawMicrosToNs(simdjson::dom::element e) {
    std::int64_t i = 0;
    if (e.get_int64().get(i) == simdjson::SUCCESS) return i * 1000;
    double v = 0;
    if (e.get_double().get(v) != simdjson::SUCCESS) return 0;
    const double whole = std::floor(v);
    return static_cast<std::int64_t>(whole) * 1000 + std::llround((v - whole) * 1000.0);
}

// rank -> GPU kernels sorted by start.
inline std::map<int, std::vector<RawKernel>> readRawKernels(const std::filesystem::path& folder) {
    std::map<int, std::vector<RawKernel>> out;
    simdjson::dom::parser parser;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string file = entry.path().filename().string();
        if (file.rfind("worker", 0) != 0 || entry.path().extension() != ".json") continue;
        const int rank = std::stoi(file.substr(6));
        simdjson::dom::element root;
        if (parser.load(entry.path().string()).get(root) != simdjson::SUCCESS) continue;
        auto& kernels = out[rank];
        for (auto ev : root["traceEvents"].get_array()) {
            std::string_view ph, cat, name;
            if (ev["ph"].get_string().get(ph) || ph != "X" || ev["cat"].get_string().get(cat) || cat != "kernel" ||
                ev["name"].get_string().get(name)) {
                continue;
            }
            const std::int64_t start = rawMicrosToNs(ev["ts"].value());
            kernels.push_back({start, start + rawMicrosToNs(ev["dur"].value()), std::string(name)});
        }
        std::sort(kernels.begin(), kernels.end(),
                  [](const RawKernel& a, const RawKernel& b) { return a.startNs < b.startNs; });
    }
    return out;
}

}  // namespace tpscope::test
