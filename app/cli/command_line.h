// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Command-line errors in one place, so every subcommand (also ones added later) reports them alike:
// one line on stderr, "tpscope-cli: [COMMAND: ]<what>", exit code 2 (kExitBadInput).
//
// CLI11 checks required options before unknown ones and prints several lines; checkArguments runs
// first and names an unknown command (with the list) or an unknown option (with the closest one).

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tpscope::cli {

// The known name closest to `typed` (edit distance, or one containing the other), or "" when none is close.
std::string closestName(const std::string& typed, const std::vector<std::string>& known);

// nullopt when argv names a known command and only its options; else the one-line message (without
// the "tpscope-cli: " prefix) to print before exiting with kExitBadInput.
std::optional<std::string> checkArguments(const CLI::App& app, int argc, const char* const* argv);

// The one-line text of a CLI11 parse error, e.g. "simulate: --model is required (see 'tpscope-cli simulate --help')".
std::string describeParseError(const CLI::App& app, const CLI::ParseError& error);

// Names of the subcommands, in the order --help lists them.
std::vector<std::string> commandNames(const CLI::App& app);

}  // namespace tpscope::cli
