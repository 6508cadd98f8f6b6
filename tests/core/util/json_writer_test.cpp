// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/json_writer.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <sstream>

namespace tpscope::core {
namespace {

TEST(JsonWriter, OutputParsesBackWithTheSameValues) {
    std::ostringstream out;
    JsonWriter w(out);
    w.beginObject();
    w.field("name", "quote \" backslash \\ newline \n tab \t ctrl \x01");
    w.field("bytes", std::uint64_t{18446744073709551615ULL});
    w.field("delta", std::int64_t{-42});
    w.field("ratio", 0.1);
    w.field("ok", true);
    w.key("list").beginArray().value(1).value(2).endArray();
    w.key("empty").beginObject().endObject();
    w.endObject();

    simdjson::dom::parser parser;
    const simdjson::padded_string text(out.str());
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS) << out.str();
    EXPECT_EQ(std::string_view(doc["name"]), "quote \" backslash \\ newline \n tab \t ctrl \x01");
    EXPECT_EQ(std::uint64_t(doc["bytes"]), 18446744073709551615ULL);
    EXPECT_EQ(std::int64_t(doc["delta"]), -42);
    EXPECT_DOUBLE_EQ(double(doc["ratio"]), 0.1);
    EXPECT_TRUE(bool(doc["ok"]));
    EXPECT_EQ(simdjson::dom::array(doc["list"]).size(), 2u);
}

TEST(JsonWriter, NonFiniteNumbersBecomeNull) {
    std::ostringstream out;
    JsonWriter w(out, false);
    w.beginArray().value(std::nan("")).value(INFINITY).endArray();
    EXPECT_EQ(out.str(), "[null,null]");
}

}  // namespace
}  // namespace tpscope::core
