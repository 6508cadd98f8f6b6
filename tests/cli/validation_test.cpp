// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The simulator's validation table (docs/simulator.md, "Validation"): every public end-to-end decode
// measurement of tests/golden/validation/decode_measurements.csv is simulated with the CLI, as a
// user would, and its per-token latency error must stay within its documented band. A row that
// fits badly stays in the table with its error; a change of the model that moves any error past its
// band fails here and must update the table (TPSCOPE_PRINT_VALIDATION=1 prints it).

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "golden_support.h"

namespace tpscope::test {
namespace {

struct Measurement {
    std::string id, source, framework, model, gpu, fabric, allreduce, runtime, vocab, precision;
    int tp = 0, batch = 0, input = 0, output = 0;
    double measured = 0;
    std::string unit;
    double error = 0, band = 0;

    // Measured per-token latency (one decode step): 1 / decode tokens/s of a sequence, a request's
    // latency over its output tokens (prefill included: an overestimate), or the batch over the
    // batch's output tokens/s (of the TP group, or per GPU times the TP degree).
    double measuredNs() const {
        if (unit == "tok_s") return 1e9 / measured;
        if (unit == "out_tok_s") return batch * 1e9 / measured;
        if (unit == "out_tok_s_gpu") return batch * 1e9 / (measured * tp);
        return measured * 1e6 / output;
    }
    // Mean KV-cache length over the generated tokens.
    int context() const { return input + output / 2; }
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) out.push_back(cell);
    return out;
}

std::vector<Measurement> measurements() {
    std::vector<Measurement> out;
    bool header = true;
    for (const auto& line : linesOf(readFile(goldenDir() / "validation" / "decode_measurements.csv"))) {
        if (line.empty() || line[0] == '#') continue;
        if (header) {
            header = false;
            continue;
        }
        const auto c = split(line);
        if (c.size() != 18 || (c[8] != "sharded" && c[8] != "replicated")) {
            ADD_FAILURE() << "bad row: " << line;
            continue;
        }
        Measurement m{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]};
        m.tp = std::stoi(c[10]);
        m.batch = std::stoi(c[11]);
        m.input = std::stoi(c[12]);
        m.output = std::stoi(c[13]);
        m.measured = std::stod(c[14]);
        m.unit = c[15];
        m.error = std::stod(c[16]);
        m.band = std::stod(c[17]);
        out.push_back(m);
    }
    return out;
}

// tpscope's per-token latency for the row: the mean decode step of a simulated run.
double predictedNs(const Measurement& m, const std::filesystem::path& dir) {
    const std::string args = " simulate --model " + m.model + " --gpu " + m.gpu + " --fabric " + m.fabric +
                             " --allreduce " + m.allreduce + " --runtime " + m.runtime + " --tp " +
                             std::to_string(m.tp) + " --batch " + std::to_string(m.batch) + " --context " +
                             std::to_string(m.context()) + " --tokens 8 --ignore-memory --json" +
                             (m.vocab == "replicated" ? " --replicate-vocab" : "") +
                             (m.precision == "fp8" ? " --weights fp8 --kv-cache fp8" : " --dtype " + m.precision);
    const auto r = runSplit(std::string(TPSCOPE_CLI_PATH) + args, dir);
    EXPECT_EQ(r.exitCode, 0) << args << "\n" << r.err;
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(r.out).get(root) != simdjson::SUCCESS) {
        ADD_FAILURE() << "not JSON: " << r.out;
        return std::nan("");
    }
    double ns = std::nan("");
    simdjson::dom::array runs;
    if (root["runs"].get_array().get(runs) != simdjson::SUCCESS || runs.size() != 1 ||
        runs.at(0)["step_latency_ns"].get_double().get(ns) != simdjson::SUCCESS) {
        ADD_FAILURE() << "no run in: " << r.out;
    }
    return ns;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

TEST(Validation, EveryPublishedDecodeMeasurementStaysWithinItsDocumentedErrorBand) {
    const auto rows = measurements();
    ASSERT_GE(rows.size(), 12u);
    const auto dir = freshDir("validation");
    const bool print = std::getenv("TPSCOPE_PRINT_VALIDATION") != nullptr;
    // TP 1 (or the smallest TP) of each (source, model, gpu) group: the base of the speed-up ratios.
    std::map<std::string, std::pair<double, double>> base;  // group -> (measured, predicted) per-token ns
    std::vector<double> errors;
    for (const auto& m : rows) {
        const double predicted = predictedNs(m, dir);
        ASSERT_TRUE(std::isfinite(predicted)) << m.id;
        const double error = predicted / m.measuredNs() - 1.0;
        errors.push_back(std::fabs(error));
        EXPECT_NEAR(error, m.error, m.band) << m.id << ": measured " << m.measuredNs() / 1e6 << " ms/token, predicted "
                                            << predicted / 1e6 << " ms/token";
        const std::string group = m.source + "|" + m.model + "|" + m.gpu;
        if (!base.count(group)) base[group] = {m.measuredNs(), predicted};
        std::string ratio = "–";
        if (base[group].first != m.measuredNs()) {
            const double measuredSpeedup = base[group].first / m.measuredNs();
            const double predictedSpeedup = base[group].second / predicted;
            ratio = fixed(measuredSpeedup, 2) + " / " + fixed(predictedSpeedup, 2) + " (" +
                    fixed(100 * (predictedSpeedup / measuredSpeedup - 1), 0) + " %)";
        }
        if (print) {
            std::cout << "| " << m.framework << " | " << m.model << " | " << m.gpu << " " << m.precision << " | "
                      << m.tp << " | " << m.batch << " | " << m.input << " / " << m.output << " | "
                      << fixed(m.measuredNs() / 1e6, 2) << " | " << m.runtime << " | " << fixed(predicted / 1e6, 2)
                      << " | " << fixed(100 * error, 0) << " % | " << ratio << " | " << m.source << " |  " << m.id
                      << " " << fixed(error, 3) << "\n";
        }
    }
    std::sort(errors.begin(), errors.end());
    if (print) {
        std::cout << "median |error| " << fixed(100 * errors[errors.size() / 2], 1) << " %, worst "
                  << fixed(100 * errors.back(), 1) << " %\n";
    }
}

}  // namespace
}  // namespace tpscope::test
