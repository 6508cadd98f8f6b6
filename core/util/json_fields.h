// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Typed field access over simdjson DOM objects with errors that name the entry and the field, for
// the catalog files users write by hand.

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core::json {

Result<double> number(simdjson::dom::object obj, std::string_view field, const std::string& where);
Result<double> positiveNumber(simdjson::dom::object obj, std::string_view field, const std::string& where);
Result<double> nonNegativeNumber(simdjson::dom::object obj, std::string_view field, const std::string& where);
Result<std::int64_t> positiveInt(simdjson::dom::object obj, std::string_view field, const std::string& where);
Result<std::string> string(simdjson::dom::object obj, std::string_view field, const std::string& where);
std::string optionalString(simdjson::dom::object obj, std::string_view field, std::string fallback = {});
double optionalNumber(simdjson::dom::object obj, std::string_view field, double fallback);
bool optionalBool(simdjson::dom::object obj, std::string_view field, bool fallback);

}  // namespace tpscope::core::json
