// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope-cli --defaults: the one table of defaults (core/sim/defaults.h) that every command, the
// window and the report use, as docs/cli.md shows it (the docs runner compares the two).

#include <algorithm>
#include <iostream>

#include "cli_context.h"
#include "core/sim/defaults.h"

namespace tpscope::cli {

int printDefaults(std::ostream& out) {
    const auto rows = core::sim::defaultsTable();
    std::size_t settingWidth = 7;
    std::size_t valueWidth = 5;
    std::size_t optionWidth = 6;
    for (const auto& r : rows) {
        settingWidth = std::max(settingWidth, r.setting.size());
        valueWidth = std::max(valueWidth, r.value.size());
        optionWidth = std::max(optionWidth, r.options.size());
    }
    auto line = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d) {
        out << a << std::string(settingWidth - a.size() + 2, ' ') << b << std::string(valueWidth - b.size() + 2, ' ')
            << c << std::string(optionWidth - c.size() + 2, ' ') << d << '\n';
    };
    out << "Defaults (core/sim/defaults.h): what a command assumes when its option is not given\n\n";
    line("setting", "value", "option", "used by");
    for (const auto& r : rows) line(r.setting, r.value, r.options, r.usedBy);
    return kExitOk;
}

}  // namespace tpscope::cli
