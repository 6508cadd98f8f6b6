// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// JsonTraceScanner on its own: the fast path (batch ends guessed at "}, {" and checked by the parser)
// and the exact scan must hand over the same elements, once each, in order.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/io/import/json_trace_scanner.h"

namespace tpscope::test {
namespace {

// Collects the "i" of every event object, parsing batches as the Kineto reader does.
struct CollectingHandler final : core::JsonTraceScanner::Handler {
    simdjson::dom::parser parser;
    std::vector<std::int64_t> ids;
    std::size_t nonObjects = 0;
    std::vector<std::string> members;

    core::Status member(std::string_view key, std::string_view) override {
        members.emplace_back(key);
        return core::Ok{};
    }
    core::Status events(std::string_view array, std::size_t count) override {
        const auto objects = tryEvents(array);
        EXPECT_TRUE(objects.has_value()) << "an exact batch is valid JSON here";
        EXPECT_EQ(objects.value_or(0), count);
        return core::Ok{};
    }
    std::optional<std::size_t> tryEvents(std::string_view array) override {
        simdjson::dom::array arr;
        if (parser.parse(array.data(), array.size(), false).get_array().get(arr) != simdjson::SUCCESS) {
            return std::nullopt;
        }
        std::size_t objects = 0;
        for (const auto e : arr) {
            std::int64_t id = 0;
            if (e.is_object() && e["i"].get_int64().get(id) == simdjson::SUCCESS) {
                ids.push_back(id);
                ++objects;
            } else {
                ++nonObjects;
            }
        }
        return objects;
    }
    void nonObjectElement() override { ++nonObjects; }
};

struct Scanned {
    CollectingHandler handler;
    std::uint64_t guessed = 0;
    std::uint64_t rejected = 0;
};

void scan(const std::string& json, Scanned& out, std::vector<char>* buffer = nullptr) {
    auto src = core::ByteSource::fromMemory(json, "mem.json");
    core::TaskControl control;
    core::JsonTraceScanner scanner(*src, control, 0.0, 1.0, buffer);
    const auto status = scanner.run(out.handler);
    ASSERT_TRUE(status) << status.error().describe();
    out.guessed = scanner.guessedBatches();
    out.rejected = scanner.rejectedGuesses();
}

std::string eventsJson(int n, const std::string& (*body)(int, std::string&)) {
    std::string json = R"({"before": 1, "traceEvents": [)";
    std::string scratch;
    for (int i = 0; i < n; ++i) json += (i ? ",\n " : "") + body(i, scratch);
    json += R"(], "after": {"x": [1, 2]}})";
    return json;
}

void expectAllInOrder(const Scanned& s, int n) {
    ASSERT_EQ(s.handler.ids.size(), static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) ASSERT_EQ(s.handler.ids[static_cast<std::size_t>(i)], i) << "event " << i;
    EXPECT_EQ(s.handler.members, (std::vector<std::string>{"before", "after"}));
}

TEST(JsonTraceScanner, PlainEventsGoThroughGuessedBatches) {
    const int n = 60000;  // ~2.6 MB: more than two batches
    const auto json = eventsJson(n, [](int i, std::string& s) -> const std::string& {
        s = R"({"ph": "X", "name": "k", "i": )" + std::to_string(i) + R"(, "args": {"a": 1}})";
        return s;
    });
    Scanned s;
    scan(json, s);
    expectAllInOrder(s, n);
    EXPECT_GE(s.guessed, json.size() / (2 * core::JsonTraceScanner::kBatchBytes));  // the buffer holds <= 2
    EXPECT_EQ(s.rejected, 0u);
}

TEST(JsonTraceScanner, GuessesInsideStringsAndNestedListsAreRejectedAndScannedExactly) {
    const int n = 40000;
    const auto json = eventsJson(n, [](int i, std::string& s) -> const std::string& {
        // Every event ends in "}, {" text that is not a boundary: a list of objects, then a string.
        s = R"({"i": )" + std::to_string(i) + R"(, "list": [{"a": 1}, {"b": 2}], "name": "f}, {g"})";
        return s;
    });
    Scanned s;
    scan(json, s);
    expectAllInOrder(s, n);
    EXPECT_GE(s.rejected, 1u);
    EXPECT_EQ(s.handler.nonObjects, 0u);
}

TEST(JsonTraceScanner, NonObjectElementsAreCountedOnEitherPath) {
    const int n = 30000;
    const auto json = eventsJson(n, [](int i, std::string& s) -> const std::string& {
        s = R"({"i": )" + std::to_string(i) + R"(, "pad": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"})";
        if (i % 3 == 2) s += ", 42";
        return s;
    });
    Scanned s;
    scan(json, s);
    expectAllInOrder(s, n);
    EXPECT_EQ(s.handler.nonObjects, static_cast<std::size_t>(n / 3));
    EXPECT_GE(s.guessed, 1u);
}

// A buffer left by an earlier file (longer than this one needs, full of its bytes) gives the same
// batches, guesses and elements as a fresh one.
TEST(JsonTraceScanner, ABorrowedBufferFullOfAnEarlierFilesBytesScansAlike) {
    const int n = 30000;
    const auto json = eventsJson(n, [](int i, std::string& s) -> const std::string& {
        s = R"({"ph": "X", "i": )" + std::to_string(i) + R"(, "args": {"a": [1, 2]}})";
        return s;
    });
    Scanned fresh;
    scan(json, fresh);
    std::vector<char> buffer;
    for (int round = 0; round < 2; ++round) {
        if (round == 1) std::fill(buffer.begin(), buffer.end(), '}');  // "}, {"-free garbage, then reused
        buffer.resize(std::max<std::size_t>(buffer.size(), 5 * core::JsonTraceScanner::kBatchBytes), '{');
        Scanned borrowed;
        scan(json, borrowed, &buffer);
        expectAllInOrder(borrowed, n);
        EXPECT_EQ(borrowed.guessed, fresh.guessed);
        EXPECT_EQ(borrowed.rejected, fresh.rejected);
    }
}

}  // namespace
}  // namespace tpscope::test
