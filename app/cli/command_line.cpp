// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "command_line.h"

#include <algorithm>
#include <map>

#include "core/util/closest_name.h"

namespace tpscope::cli {

namespace {

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
    return core::closestName(typed, known);
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
