// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "text_table.h"

#include <algorithm>
#include <iomanip>

namespace tpscope::cli {

void TextTable::print(std::ostream& out) const {
    std::vector<std::size_t> widths(m_header.size(), 0);
    auto measure = [&](const std::vector<std::string>& row) {
        for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    };
    measure(m_header);
    for (const auto& row : m_rows) measure(row);
    auto printRow = [&](const std::vector<std::string>& row) {
        for (std::size_t i = 0; i < widths.size(); ++i) {
            const std::string cell = i < row.size() ? row[i] : "";
            if (i > 0) out << "  ";
            if (i == 0) {
                out << std::left << std::setw(static_cast<int>(widths[i])) << cell;
            } else {
                out << std::right << std::setw(static_cast<int>(widths[i])) << cell;
            }
        }
        out << '\n';
    };
    printRow(m_header);
    std::size_t total = 0;
    for (const auto w : widths) total += w + 2;
    out << std::string(total > 2 ? total - 2 : 0, '-') << '\n';
    for (const auto& row : m_rows) printRow(row);
    out << std::left;
}

}  // namespace tpscope::cli
