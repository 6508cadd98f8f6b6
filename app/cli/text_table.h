// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A plain aligned text table for the CLI's human-readable output: the first column left-aligned,
// the rest right-aligned (they are numbers).

#include <ostream>
#include <string>
#include <vector>

namespace tpscope::cli {

class TextTable {
  public:
    explicit TextTable(std::vector<std::string> header) : m_header(std::move(header)) {}
    void addRow(std::vector<std::string> row) { m_rows.push_back(std::move(row)); }
    void print(std::ostream& out) const;

  private:
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
};

}  // namespace tpscope::cli
