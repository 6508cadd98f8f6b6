// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/json_fields.h"

#include <cmath>

namespace tpscope::core::json {

Result<double> number(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    simdjson::dom::element e;
    if (obj[field].get(e) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "missing field '" + std::string(field) + "'", where);
    }
    double v = 0;
    if (e.is_int64()) {
        v = static_cast<double>(e.get_int64().value());
    } else if (e.is_uint64()) {
        v = static_cast<double>(e.get_uint64().value());
    } else if (e.get_double().get(v) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "field '" + std::string(field) + "' must be a number", where);
    }
    if (!std::isfinite(v)) {
        return makeError(ErrorCode::ParseError, "field '" + std::string(field) + "' must be finite", where);
    }
    return v;
}

Result<double> positiveNumber(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    auto v = number(obj, field, where);
    if (v && *v <= 0) {
        return makeError(ErrorCode::InvalidArgument, "field '" + std::string(field) + "' must be > 0", where);
    }
    return v;
}

Result<double> nonNegativeNumber(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    auto v = number(obj, field, where);
    if (v && *v < 0) {
        return makeError(ErrorCode::InvalidArgument, "field '" + std::string(field) + "' must be >= 0", where);
    }
    return v;
}

Result<std::int64_t> positiveInt(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    auto v = positiveNumber(obj, field, where);
    if (!v) return v.error();
    if (*v != std::floor(*v) || *v > 9.0e15) {
        return makeError(ErrorCode::InvalidArgument, "field '" + std::string(field) + "' must be an integer", where);
    }
    return static_cast<std::int64_t>(*v);
}

Result<std::string> string(simdjson::dom::object obj, std::string_view field, const std::string& where) {
    std::string_view s;
    if (obj[field].get_string().get(s) != simdjson::SUCCESS) {
        return makeError(ErrorCode::ParseError, "missing or non-string field '" + std::string(field) + "'", where);
    }
    return std::string(s);
}

std::string optionalString(simdjson::dom::object obj, std::string_view field, std::string fallback) {
    std::string_view s;
    if (obj[field].get_string().get(s) == simdjson::SUCCESS) return std::string(s);
    return fallback;
}

double optionalNumber(simdjson::dom::object obj, std::string_view field, double fallback) {
    simdjson::dom::element e;
    if (obj[field].get(e) != simdjson::SUCCESS) return fallback;
    if (e.is_int64()) return static_cast<double>(e.get_int64().value());
    double v = 0;
    if (e.get_double().get(v) == simdjson::SUCCESS && std::isfinite(v)) return v;
    return fallback;
}

bool optionalBool(simdjson::dom::object obj, std::string_view field, bool fallback) {
    bool b = false;
    if (obj[field].get_bool().get(b) == simdjson::SUCCESS) return b;
    return fallback;
}

}  // namespace tpscope::core::json
