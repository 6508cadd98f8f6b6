// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// "Did you mean ...?" for every name a user types: commands and options (app/cli/command_line.cpp)
// and catalog ids (core/hw/catalog.cpp: an unknown model, GPU or fabric). One copy of the rule:
// the known name within a small edit distance (about a third of the typed length), else one that
// contains what was typed (without leading dashes, three characters or more).

#include <string>
#include <string_view>
#include <vector>

namespace tpscope::core {

// The known name closest to `typed`, or "" when none is close.
std::string closestName(std::string_view typed, const std::vector<std::string>& known);

}  // namespace tpscope::core
