// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/sim/runtime_profile.h"

#include <simdjson.h>

#include <array>
#include <cstdlib>
#include <iostream>

#include "core/util/json_fields.h"

namespace tpscope::core {
std::string_view embeddedResource(std::string_view name);  // generated from resources/*.json
}

namespace tpscope::core::sim {

namespace {

struct NumberField {
    const char* key;
    double HostCosts::*target;
};
constexpr std::array<NumberField, 5> kFields{{{"host_per_launch_ns", &HostCosts::hostPerLaunchNs},
                                              {"launch_call_ns", &HostCosts::launchCallNs},
                                              {"launch_latency_ns", &HostCosts::launchLatencyNs},
                                              {"device_gap_ns", &HostCosts::deviceGapNs},
                                              {"step_host_ns", &HostCosts::stepHostNs}}};

Result<RuntimeProfile> parseProfile(simdjson::dom::element e, const std::string& source) {
    simdjson::dom::object obj;
    if (e.get_object().get(obj) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "each runtime profile must be an object", source);
    }
    auto id = json::string(obj, "id", source);
    if (!id) return id.error();
    const auto runtime = parseRuntime(*id);
    if (!runtime) {
        return makeError(ErrorCode::ParseError,
                         "unknown runtime '" + *id + "' (pytorch-eager, cpp-runtime or cuda-graphs)", source);
    }
    const std::string where = source + ": runtime " + *id;
    RuntimeProfile p;
    p.runtime = *runtime;
    p.name = json::optionalString(obj, "name", *id);
    p.costs.graphs = json::optionalBool(obj, "graphs", false);
    simdjson::dom::object sources;
    if (obj["sources"].get_object().get(sources) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "needs a 'sources' object naming where each number comes from", where);
    }
    for (const auto& f : kFields) {
        auto v = json::nonNegativeNumber(obj, f.key, where);
        if (!v) return v.error();
        p.costs.*f.target = *v;
        std::string_view text;
        if (sources[f.key].get_string().get(text) != simdjson::SUCCESS || text.empty()) {
            return makeError(ErrorCode::ParseError, std::string("no source for ") + f.key, where);
        }
        p.sources.emplace_back(f.key, std::string(text));
    }
    return p;
}

}  // namespace

std::string_view toString(Runtime runtime) {
    switch (runtime) {
        case Runtime::CppRuntime:
            return "cpp-runtime";
        case Runtime::CudaGraphs:
            return "cuda-graphs";
        case Runtime::PytorchEager:
            break;
    }
    return "pytorch-eager";
}

std::optional<Runtime> parseRuntime(std::string_view text) {
    for (const Runtime r : kRuntimes) {
        if (toString(r) == text) return r;
    }
    return std::nullopt;
}

Result<std::vector<RuntimeProfile>> parseRuntimeProfiles(std::string_view text, const std::string& source) {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (const auto err = parser.parse(text.data(), text.size()).get(root); err != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, std::string("not valid JSON: ") + simdjson::error_message(err), source);
    }
    simdjson::dom::array list;
    if (root["runtime_profiles"].get_array().get(list) != simdjson::SUCCESS) {
        return makeError(ErrorCode::WrongFormat, "expected an object with a 'runtime_profiles' array", source);
    }
    std::vector<RuntimeProfile> out;
    for (auto e : list) {
        auto p = parseProfile(e, source);
        if (!p) return p.error();
        out.push_back(std::move(*p));
    }
    return out;
}

const RuntimeProfile& builtinRuntimeProfile(Runtime runtime) {
    static const std::vector<RuntimeProfile> profiles = [] {
        auto parsed = parseRuntimeProfiles(embeddedResource("runtime_profiles.json"), "built-in runtime_profiles.json");
        if (!parsed) {
            // The embedded file is part of the build and tested; a broken one is a build defect.
            std::cerr << parsed.error().describe() << '\n';
            std::abort();
        }
        return std::move(*parsed);
    }();
    for (const auto& p : profiles) {
        if (p.runtime == runtime) return p;
    }
    std::cerr << "built-in runtime_profiles.json lacks " << toString(runtime) << '\n';
    std::abort();
}

}  // namespace tpscope::core::sim
