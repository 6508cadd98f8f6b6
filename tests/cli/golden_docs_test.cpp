// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The documented output fields (docs/cli.md field tables, docs/formats.md CSV columns) against the
// goldens: every field a table names in its first column exists in the command's golden output, and
// no key of the golden output is missing from the table (names in either column count, so nested
// fields may be described in the meaning column). Rows marked "(with ...)" are optional.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "golden_support.h"

namespace tpscope::test {
namespace {

struct DocTable {
    std::set<std::string> names;                  // every identifier in backticks, in either column
    std::vector<std::vector<std::string>> paths;  // first-column fields: "summary.kinds[]" -> summary, kinds
    std::vector<bool> optional;
};

std::vector<std::string> cellsOf(const std::string& row) {
    std::vector<std::string> cells;
    std::string cell;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
            cell += '|';
            ++i;
        } else if (row[i] == '|') {
            cells.push_back(cell);
            cell.clear();
        } else {
            cell += row[i];
        }
    }
    return cells;  // cells[0] is before the first '|'
}

std::vector<std::string> backticked(const std::string& text) {
    std::vector<std::string> spans;
    static const std::regex kSpan("`([^`]+)`");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kSpan); it != std::sregex_iterator(); ++it) {
        spans.push_back((*it)[1]);
    }
    return spans;
}

// The field table that follows the first line starting with `heading` in a docs file.
DocTable docTable(const std::string& file, const std::string& heading) {
    DocTable t;
    const auto lines = linesOf(readSourceFile(file));
    std::size_t i = 0;
    while (i < lines.size() && lines[i].rfind(heading, 0) != 0) ++i;
    while (i < lines.size() && lines[i].rfind("| field |", 0) != 0) ++i;
    EXPECT_LT(i, lines.size()) << "no field table after \"" << heading << "\" in " << file;
    static const std::regex kIdent("[a-z_][a-z0-9_]*");
    for (i += 2; i < lines.size() && !lines[i].empty() && lines[i][0] == '|'; ++i) {
        const auto cells = cellsOf(lines[i]);
        if (cells.size() < 3) continue;
        for (const auto& cell : {cells[1], cells[2]}) {
            for (const auto& span : backticked(cell)) {
                for (auto it = std::sregex_iterator(span.begin(), span.end(), kIdent); it != std::sregex_iterator();
                     ++it) {
                    t.names.insert(it->str());
                }
            }
        }
        for (const auto& span : backticked(cells[1])) {
            std::string entry;
            std::vector<std::string> entries;
            for (const char c : span + ",") {
                if (c == ',') {
                    entries.push_back(trimmed(entry));
                    entry.clear();
                } else {
                    entry += c;
                }
            }
            for (auto e : entries) {
                if (e.empty() || !std::regex_match(e, std::regex("[a-z_][a-z0-9_.\\[\\]]*"))) continue;
                std::vector<std::string> path;
                for (auto it = std::sregex_iterator(e.begin(), e.end(), kIdent); it != std::sregex_iterator(); ++it) {
                    path.push_back(it->str());
                }
                t.paths.push_back(path);
                t.optional.push_back(cells[1].find("(with") != std::string::npos);
            }
        }
    }
    return t;
}

void collectKeys(simdjson::dom::element e, std::set<std::string>& keys) {
    if (e.is_object()) {
        for (auto field : e.get_object()) {
            keys.insert(std::string(field.key));
            collectKeys(field.value, keys);
        }
    } else if (e.is_array()) {
        for (auto v : e.get_array()) collectKeys(v, keys);
    }
}

bool hasPath(simdjson::dom::element e, const std::vector<std::string>& path, std::size_t i = 0) {
    if (i == path.size()) return true;
    if (e.is_array()) {
        for (auto v : e.get_array()) {
            if (hasPath(v, path, i)) return true;
        }
        return false;
    }
    simdjson::dom::element child;
    return e.is_object() && e.get_object()[path[i]].get(child) == simdjson::SUCCESS && hasPath(child, path, i + 1);
}

void expectTableMatchesGoldens(const std::string& heading, const std::vector<std::string>& goldens) {
    const DocTable table = docTable("docs/cli.md", heading);
    ASSERT_FALSE(table.paths.empty()) << heading;
    std::vector<simdjson::dom::parser> parsers(goldens.size());
    std::vector<simdjson::dom::element> roots;
    std::set<std::string> keys;
    for (std::size_t g = 0; g < goldens.size(); ++g) {
        simdjson::dom::element root;
        ASSERT_EQ(parsers[g].load((goldenDir() / "expected" / goldens[g]).string()).get(root), simdjson::SUCCESS)
            << goldens[g];
        roots.push_back(root);
        collectKeys(root, keys);
    }
    for (std::size_t p = 0; p < table.paths.size(); ++p) {
        bool found = false;
        for (const auto& root : roots) found = found || hasPath(root, table.paths[p]);
        std::string dotted;
        for (const auto& part : table.paths[p]) dotted += (dotted.empty() ? "" : ".") + part;
        if (!table.optional[p]) {
            EXPECT_TRUE(found) << heading << ": documented field " << dotted << " not in the output";
        }
    }
    for (const auto& key : keys) {
        EXPECT_TRUE(table.names.count(key) != 0) << heading << ": output field \"" << key << "\" is not documented";
    }
}

TEST(GoldenDocs, AnalyzeFieldTableMatchesTheOutput) {
    expectTableMatchesGoldens("### `tpscope-cli analyze",
                              {"kineto.analyze.json", "kineto.calls.json", "sim.analyze.json", "nsys.analyze.json"});
}

TEST(GoldenDocs, ScalingFieldTableMatchesTheOutput) {
    expectTableMatchesGoldens("### `tpscope-cli scaling", {"sim.scaling.json"});
}

TEST(GoldenDocs, PlanFieldTableMatchesTheOutput) {
    expectTableMatchesGoldens("## plan", {"plan.json"});
}

TEST(GoldenDocs, CsvColumnsInFormatsMdAreTheEventsCsvHeader) {
    // docs/formats.md lists the columns in one backticked span, wrapped over two lines.
    const std::string doc = readSourceFile("docs/formats.md");
    const auto start = doc.find("`rank,host,");
    ASSERT_NE(start, std::string::npos);
    const auto end = doc.find('`', start + 1);
    std::string columns = doc.substr(start + 1, end - start - 1);
    columns.erase(std::remove(columns.begin(), columns.end(), '\n'), columns.end());
    for (const char* golden : {"kineto.events.csv", "nsys.events.csv", "sim.events.csv"}) {
        const auto lines = linesOf(readFile(goldenDir() / "expected" / golden));
        ASSERT_FALSE(lines.empty()) << golden;
        EXPECT_EQ(lines[0], columns) << golden;
    }
}

}  // namespace
}  // namespace tpscope::test
