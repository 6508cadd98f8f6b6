// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "command_line.h"

#include <algorithm>
#include <map>

namespace tpscope::cli {

namespace {

std::size_t editDistance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

// Options renamed so that one name means one thing (docs/cli.md): the old spelling gets a pointer.
const std::map<std::pair<std::string, std::string>, std::string>& renamedOptions() {
    static const std::map<std::pair<std::string, std::string>, std::string> renamed{
        {{"amdahl", "--gpus"}, "--gpu-counts"},
        {{"calibrate", "--gpus"}, "--only-gpus"},
    };
    return renamed;
}

std::vector<std::string> optionNames(const CLI::App& cmd) {
    std::vector<std::string> names;
    for (const CLI::Option* opt : cmd.get_options()) {
        for (const auto& n : opt->get_lnames()) names.push_back("--" + n);
    }
    return names;
}

bool takesValue(const CLI::App& cmd, const std::string& name) {
    const CLI::Option* opt = cmd.get_option_no_throw(name);
    return opt != nullptr && opt->get_type_size_max() > 0 && opt->get_expected_max() > 0;
}

}  // namespace

std::string closestName(const std::string& typed, const std::vector<std::string>& known) {
    std::string best;
    std::size_t bestDistance = std::max<std::size_t>(2, typed.size() / 3) + 1;
    for (const auto& k : known) {
        const std::size_t d = editDistance(typed, k);
        if (d < bestDistance) {
            bestDistance = d;
            best = k;
        }
    }
    if (!best.empty()) return best;
    const std::string bare =
        typed.substr(typed.find_first_not_of('-') == std::string::npos ? typed.size() : typed.find_first_not_of('-'));
    for (const auto& k : known) {
        if (bare.size() >= 3 && k.find(bare) != std::string::npos) return k;
    }
    return {};
}

std::vector<std::string> commandNames(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        names.push_back(sub->get_name());
    }
    return names;
}

std::optional<std::string> checkArguments(const CLI::App& app, int argc, const char* const* argv) {
    int i = 1;
    // Options before the command: --catalog FILE, --help, --version.
    while (i < argc && argv[i][0] == '-') {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h" || arg == "--version") return std::nullopt;
        const std::string name = arg.substr(0, arg.find('='));
        if (app.get_option_no_throw(name) == nullptr) {
            const std::string close = closestName(name, optionNames(app));
            return "unknown option '" + name + "' before the command" +
                   (close.empty() ? std::string() : " (did you mean " + close + "?)");
        }
        i += (arg.find('=') == std::string::npos && takesValue(app, name)) ? 2 : 1;
    }
    if (i >= argc) return "a command is required (commands: " + joined(commandNames(app)) + ")";
    const std::string command = argv[i];
    const CLI::App* sub = nullptr;
    try {
        sub = app.get_subcommand(command);
    } catch (const CLI::OptionNotFound&) {
        sub = nullptr;
    }
    if (sub == nullptr) {
        const std::string close = closestName(command, commandNames(app));
        return "unknown command '" + command + "'" + (close.empty() ? "" : " (did you mean " + close + "?)") +
               "; commands: " + joined(commandNames(app));
    }
    for (++i; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--") break;
        if (arg.size() < 3 || arg[0] != '-' || arg[1] != '-') continue;  // values, -1, -h
        const std::string name = arg.substr(0, arg.find('='));
        if (sub->get_option_no_throw(name) != nullptr) continue;
        const auto renamed = renamedOptions().find({command, name});
        if (renamed != renamedOptions().end()) {
            return command + ": unknown option '" + name + "': it is now " + renamed->second;
        }
        const std::string close = closestName(name, optionNames(*sub));
        return command + ": unknown option '" + name + "'" + (close.empty() ? "" : " (did you mean " + close + "?)") +
               "; see 'tpscope-cli " + command + " --help'";
    }
    return std::nullopt;
}

std::string describeParseError(const CLI::App& app, const CLI::ParseError& error) {
    std::string what = error.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    while (!what.empty() && what.back() == ' ') what.pop_back();
    std::string command;
    for (const CLI::App* sub : app.get_subcommands()) command = sub->get_name();
    if (command.empty()) return what;
    return command + ": " + what + " (see 'tpscope-cli " + command + " --help')";
}

}  // namespace tpscope::cli
