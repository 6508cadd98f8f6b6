// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/calibration_data.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "core/util/units.h"

namespace tpscope::core::sim {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (true) {
        const std::size_t next = s.find(sep, pos);
        out.push_back(s.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
        if (next == std::string_view::npos) break;
        pos = next + 1;
    }
    return out;
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

bool toDouble(std::string_view s, double& out) {
    while (!s.empty() && (s.back() == '\r' || s.back() == ' ')) s.remove_suffix(1);
    // Not strtod: it follows LC_NUMERIC, which a GUI process takes from the user (de_DE: "2,5").
    return parseDouble(s, out);
}

template <typename F>
void forEachLine(std::string_view text, F&& f) {
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        f(text.substr(pos, end - pos));
        pos = end + 1;
    }
}

bool validSample(const AllReduceSample& s) {
    return s.bytes > 0 && s.ranks >= 2 && s.nodes >= 1 && s.timeNs > 0;
}

// Ranks from busbw / algbw = 2 (n - 1) / n  ->  n = 2 / (2 - ratio).
int ranksFromBandwidths(double algbw, double busbw) {
    if (algbw <= 0 || busbw <= 0) return 0;
    const double ratio = busbw / algbw;
    if (ratio < 0.9 || ratio >= 2) return 0;
    return static_cast<int>(std::lround(2.0 / (2.0 - ratio)));
}

}  // namespace

Result<CalibrationData> parseVidurCsv(std::string_view text, const std::string& context, VidurStatistic statistic) {
    const std::string_view suffix =
        statistic == VidurStatistic::Min ? ".min" : (statistic == VidurStatistic::Mean ? ".mean" : ".median");
    CalibrationData data;
    data.format = CalibrationFormat::VidurCsv;
    int colSize = -1, colWorkers = -1, colPerNode = -1, colTime = -1, colCollective = -1;
    bool header = true;
    int columns = 0;
    forEachLine(text, [&](std::string_view line) {
        if (line.empty() || line == "\r") return;
        const auto cells = split(line, ',');
        if (header) {
            header = false;
            columns = static_cast<int>(cells.size());
            for (int i = 0; i < columns; ++i) {
                std::string_view c = cells[static_cast<std::size_t>(i)];
                if (!c.empty() && c.back() == '\r') c.remove_suffix(1);
                if (c == "size") colSize = i;
                if (c == "num_workers") colWorkers = i;
                if (c == "devices_per_node") colPerNode = i;
                if (c == "collective") colCollective = i;
                if (c.substr(0, 11) == "time_stats." && c.size() > suffix.size() &&
                    c.substr(c.size() - suffix.size()) == suffix) {
                    colTime = i;
                }
            }
            return;
        }
        if (colSize < 0 || colWorkers < 0 || colTime < 0 || static_cast<int>(cells.size()) != columns) {
            ++data.skippedRows;
            return;
        }
        if (colCollective >= 0 && cells[static_cast<std::size_t>(colCollective)].substr(0, 10) != "all_reduce") {
            ++data.skippedRows;
            return;
        }
        double size = 0, workers = 0, perNode = 0, ms = 0;
        if (!toDouble(cells[static_cast<std::size_t>(colSize)], size) ||
            !toDouble(cells[static_cast<std::size_t>(colWorkers)], workers) ||
            !toDouble(cells[static_cast<std::size_t>(colTime)], ms)) {
            ++data.skippedRows;
            return;
        }
        if (colPerNode < 0 || !toDouble(cells[static_cast<std::size_t>(colPerNode)], perNode) || perNode < 1) {
            perNode = workers;
        }
        AllReduceSample s;
        s.bytes = static_cast<std::uint64_t>(size);
        s.ranks = static_cast<int>(workers);
        s.nodes = std::max(1, static_cast<int>(std::lround(workers / perNode)));
        s.timeNs = ms * 1e6;
        if (validSample(s)) {
            data.samples.push_back(s);
        } else {
            ++data.skippedRows;
        }
    });
    if (colSize < 0 || colWorkers < 0 || colTime < 0) {
        return makeError(ErrorCode::WrongFormat,
                         "not a Vidur all_reduce profile: expected columns size, num_workers and "
                         "time_stats.<op>" +
                             std::string(suffix),
                         context);
    }
    if (data.samples.empty()) return makeError(ErrorCode::ParseError, "no all-reduce rows could be read", context);
    return data;
}

Result<CalibrationData> parseNcclTestsText(std::string_view text, const std::string& context) {
    CalibrationData data;
    data.format = CalibrationFormat::NcclTestsText;
    std::set<std::string> hosts;
    std::set<int> rankIds;
    std::vector<std::pair<AllReduceSample, int>> rows;  // sample, ranks inferred from its bandwidths
    bool sawHeader = false;
    bool otherTest = false;
    forEachLine(text, [&](std::string_view line) {
        if (!line.empty() && line.front() == '#') {
            if (line.find("Collective test starting:") != std::string_view::npos &&
                line.find("all_reduce") == std::string_view::npos) {
                otherTest = true;
            }
            if (line.find("algbw") != std::string_view::npos) sawHeader = true;
            const auto w = words(line.substr(1));
            // "#  Rank  0 Group  0 Pid  12345 on   host1 device  0 [0x07] NVIDIA H100 80GB HBM3"
            if (w.size() >= 8 && w[0] == "Rank") {
                double id = 0;
                if (toDouble(w[1], id)) rankIds.insert(static_cast<int>(id));
                for (std::size_t i = 2; i + 1 < w.size(); ++i) {
                    if (w[i] == "on") {
                        hosts.emplace(w[i + 1]);
                        break;
                    }
                }
            }
            return;
        }
        const auto w = words(line);
        if (w.empty()) return;
        // size count type redop [root] time algbw busbw #wrong time algbw busbw #wrong
        if (w.size() < 12) {
            ++data.skippedRows;
            return;
        }
        double size = 0, time = 0, alg = 0, bus = 0;
        const std::size_t t = w.size() - 8;
        if (!toDouble(w[0], size) || !toDouble(w[t], time) || !toDouble(w[t + 1], alg) || !toDouble(w[t + 2], bus)) {
            ++data.skippedRows;
            return;
        }
        AllReduceSample s;
        s.bytes = static_cast<std::uint64_t>(size);
        s.timeNs = time * 1e3;
        rows.emplace_back(s, ranksFromBandwidths(alg, bus));
    });
    if (otherTest) {
        return makeError(ErrorCode::Unsupported, "only all_reduce_perf output can calibrate the all-reduce model",
                         context);
    }
    if (!sawHeader && rows.empty()) {
        return makeError(ErrorCode::WrongFormat, "not nccl-tests output: no result table (size ... algbw busbw)",
                         context);
    }
    int inferred = 0;
    for (const auto& [s, n] : rows) inferred = std::max(inferred, n);
    const int ranks = !rankIds.empty() ? static_cast<int>(rankIds.size()) : inferred;
    const int nodes = hosts.empty() ? 1 : static_cast<int>(hosts.size());
    for (auto [s, n] : rows) {
        s.ranks = ranks;
        s.nodes = nodes;
        if (validSample(s)) {
            data.samples.push_back(s);
        } else {
            ++data.skippedRows;
        }
    }
    if (data.samples.empty()) {
        return makeError(ErrorCode::ParseError, "no result row with a positive size, time and at least 2 ranks",
                         context);
    }
    return data;
}

Result<CalibrationData> parseNcclTestsJson(std::string_view text, const std::string& context) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto err = parser.parse(text.data(), text.size()).get(root); err != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, std::string("not valid JSON: ") + simdjson::error_message(err),
                         context);
    }
    simdjson::dom::array results;
    if (root["results"].get_array().get(results) != simdjson::SUCCESS) {
        return makeError(ErrorCode::WrongFormat, "not nccl-tests JSON: no 'results' array", context);
    }
    simdjson::dom::array args;
    if (root["args"].get_array().get(args) == simdjson::SUCCESS) {
        for (auto a : args) {
            std::string_view program;
            if (a.get_string().get(program) == simdjson::SUCCESS) {
                if (program.find("_perf") != std::string_view::npos &&
                    program.find("all_reduce") == std::string_view::npos) {
                    return makeError(ErrorCode::Unsupported,
                                     "only all_reduce_perf output can calibrate the all-reduce model", context);
                }
                break;
            }
        }
    }
    std::set<std::string> hosts;
    int devices = 0;
    simdjson::dom::array list;
    if (root["config"]["devices"].get_array().get(list) == simdjson::SUCCESS) {
        for (auto d : list) {
            ++devices;
            std::string_view host;
            if (d["hostname"].get_string().get(host) == simdjson::SUCCESS) hosts.emplace(host);
        }
    }
    CalibrationData data;
    data.format = CalibrationFormat::NcclTestsJson;
    std::vector<std::pair<AllReduceSample, int>> rows;
    for (auto r : results) {
        std::uint64_t size = 0;
        double time = 0, alg = 0, bus = 0;
        simdjson::dom::object place;
        const bool hasPlace = r["out_of_place"].get_object().get(place) == simdjson::SUCCESS ||
                              r["in_place"].get_object().get(place) == simdjson::SUCCESS;
        const bool ok = hasPlace && r["size"].get_uint64().get(size) == simdjson::SUCCESS &&
                        (place["time"].get_double().get(time) == simdjson::SUCCESS ||
                         place["cpu_time"].get_double().get(time) == simdjson::SUCCESS);
        if (!ok) {
            ++data.skippedRows;
            continue;
        }
        if (place["alg_bw"].get_double().get(alg) != simdjson::SUCCESS) alg = 0;
        if (place["bus_bw"].get_double().get(bus) != simdjson::SUCCESS) bus = 0;
        rows.emplace_back(AllReduceSample{size, 0, 1, time * 1e3}, ranksFromBandwidths(alg, bus));
    }
    int inferred = 0;
    for (const auto& [s, n] : rows) inferred = std::max(inferred, n);
    // config.devices lists the first GPU of each process; the bandwidth ratio counts them all.
    const int ranks = std::max(inferred, devices);
    for (auto [s, n] : rows) {
        s.ranks = ranks;
        s.nodes = hosts.empty() ? 1 : static_cast<int>(hosts.size());
        if (validSample(s)) {
            data.samples.push_back(s);
        } else {
            ++data.skippedRows;
        }
    }
    if (data.samples.empty()) return makeError(ErrorCode::ParseError, "no usable result in 'results'", context);
    return data;
}

Result<CalibrationData> parseMeasuredRowsCsv(std::string_view text, const std::string& context) {
    CalibrationData data;
    data.format = CalibrationFormat::MeasuredRowsCsv;
    bool sawHeader = false;
    std::size_t colThreadGpus = 0, colAlgo = 0;  // 0: absent (the first four columns are fixed)
    forEachLine(text, [&](std::string_view line) {
        if (line.empty() || line == "\r" || line.front() == '#') return;
        if (!sawHeader) {
            sawHeader = line.substr(0, kMeasuredRowsHeader.size()) == kMeasuredRowsHeader;
            if (!sawHeader) {
                ++data.skippedRows;
                return;
            }
            const auto names = split(line, ',');
            for (std::size_t i = 4; i < names.size(); ++i) {
                std::string_view n = names[i];
                while (!n.empty() && (n.back() == '\r' || n.back() == ' ')) n.remove_suffix(1);
                if (n == "gpus_per_thread") colThreadGpus = i;
                if (n == "algorithm") colAlgo = i;
            }
            return;
        }
        const auto cells = split(line, ',');
        double gpus = 0, nodes = 0, bytes = 0, us = 0, threadGpus = 1;
        if (cells.size() < 4 || !toDouble(cells[0], gpus) || !toDouble(cells[1], nodes) || !toDouble(cells[2], bytes) ||
            !toDouble(cells[3], us) || gpus > 1e6 || nodes > 1e6 || bytes > 1e18 ||
            (colThreadGpus > 0 && (colThreadGpus >= cells.size() || !toDouble(cells[colThreadGpus], threadGpus) ||
                                   threadGpus < 1 || threadGpus > gpus))) {
            ++data.skippedRows;
            return;
        }
        AllReduceSample sample{static_cast<std::uint64_t>(bytes), static_cast<int>(gpus), static_cast<int>(nodes),
                               us * 1e3};
        sample.gpusPerThread = static_cast<int>(threadGpus);
        if (colAlgo > 0) {
            std::string_view a = colAlgo < cells.size() ? cells[colAlgo] : std::string_view{};
            while (!a.empty() && (a.back() == '\r' || a.back() == ' ')) a.remove_suffix(1);
            const auto algo = parseCollectiveAlgo(a);
            if (!algo) {
                ++data.skippedRows;
                return;
            }
            sample.algo = *algo;
        }
        if (validSample(sample)) {
            data.samples.push_back(sample);
        } else {
            ++data.skippedRows;
        }
    });
    if (!sawHeader) {
        return makeError(ErrorCode::WrongFormat,
                         "not a measured-rows CSV: expected the header '" + std::string(kMeasuredRowsHeader) + ",...'",
                         context);
    }
    if (data.samples.empty()) return makeError(ErrorCode::ParseError, "no all-reduce rows could be read", context);
    return data;
}

Result<CalibrationData> parseCalibrationData(std::string_view text, const std::string& context,
                                             CalibrationFormat format, VidurStatistic statistic) {
    switch (format) {
        case CalibrationFormat::VidurCsv:
            return parseVidurCsv(text, context, statistic);
        case CalibrationFormat::NcclTestsText:
            return parseNcclTestsText(text, context);
        case CalibrationFormat::NcclTestsJson:
            return parseNcclTestsJson(text, context);
        case CalibrationFormat::MeasuredRowsCsv:
            return parseMeasuredRowsCsv(text, context);
        case CalibrationFormat::Auto:
            break;
    }
    std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return makeError(ErrorCode::WrongFormat, "empty file", context);
    if (text[first] == '{') return parseNcclTestsJson(text, context);
    if (text.find(std::string("\n") + std::string(kMeasuredRowsHeader)) != std::string_view::npos ||
        text.substr(first, kMeasuredRowsHeader.size()) == kMeasuredRowsHeader) {
        return parseMeasuredRowsCsv(text, context);
    }
    const std::string_view firstLine = text.substr(first, text.find('\n', first) - first);
    if (firstLine.find("time_stats.") != std::string_view::npos) return parseVidurCsv(text, context, statistic);
    if (text.find("algbw") != std::string_view::npos || text.find("nccl-tests") != std::string_view::npos ||
        text.find("# nThread") != std::string_view::npos) {
        return parseNcclTestsText(text, context);
    }
    return makeError(ErrorCode::WrongFormat,
                     "not all-reduce measurements: expected a Vidur all_reduce.csv, nccl-tests all_reduce_perf "
                     "output or its -J JSON",
                     context);
}

Result<CalibrationData> loadCalibrationFile(const std::string& path, CalibrationFormat format,
                                            VidurStatistic statistic) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(ErrorCode::IoError, "cannot open", path);
    std::stringstream buffer;
    buffer << in.rdbuf();
    return parseCalibrationData(buffer.str(), path, format, statistic);
}

}  // namespace tpscope::core::sim
