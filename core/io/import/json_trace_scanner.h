// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Streaming walk over the top level of a Chrome / Kineto JSON trace of any size.
//
// Input: a ByteSource (plain or gzip). Accepted shapes: the JSON Object Format
// `{"traceEvents": [ {...}, ... ], "other": ...}` (members in any order) and the JSON Array Format
// `[ {...}, ... ]` (whose closing ']' may be missing, as the Chrome spec allows).
// Output: the elements of the event array in batches, each handed over as the text of one JSON array
// "[{..},{..}]" inside the scanner's buffer (so the parser reads it in place, no copy), and every other
// top-level member as raw JSON text (members larger than kMaxMemberBytes are skipped unseen).
//
// Two ways to find the events:
//   fast:  the batch ends at the last "}, {" in the buffer, a guess that the handler's parser
//          (simdjson, which validates everything) checks: text that starts at an element boundary and
//          parses as one array of complete values also ends at one, since a value never ends in '}'
//          only by accident of what follows. The bytes are read once, by the parser.
//   exact: a scan of every byte (strings skipped with memchr) for the top-level structure, the
//          members, the end of the array, and the bytes of any batch whose guess failed.
// Memory: a buffer of about 2 x kBatchBytes, more only for a member or event that needs it; an event
// larger than kMaxElementBytes is an error, so garbage cannot make the buffer grow without bound.
// Cost: O(bytes). Truncated input is an error that says how many events were read.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/import/byte_source.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

class JsonTraceScanner {
  public:
    struct Handler {
        virtual ~Handler() = default;
        virtual Status member(std::string_view key, std::string_view rawValue) = 0;
        // `array` is "[" + elements + "]": `count` complete JSON values found by the exact scan,
        // separated by commas and white space. kPaddingBytes after its end are readable.
        virtual Status events(std::string_view array, std::size_t count) = 0;
        // The fast path: `array` as above, but its end was guessed. Returns the number of objects
        // handled, or nullopt, having handled nothing, when `array` is not one valid JSON array.
        virtual std::optional<std::size_t> tryEvents(std::string_view array) = 0;
        virtual void nonObjectElement() = 0;  // an array element that is not an object
    };

    // About 128 KB of events per batch: the text, its parse and its DOM stay in the CPU's caches
    // (bench_io on the 400 MB trace: 601 MB/s; 64 KB 597, 256 KB 590, 1 MB 560, 4 MB 485).
    static constexpr std::size_t kBatchBytes = std::size_t{128} << 10;
    static constexpr std::size_t kPaddingBytes = 64;  // >= SIMDJSON_PADDING (checked by the reader)
    static constexpr std::size_t kMaxElementBytes = std::size_t{256} << 20;
    static constexpr std::size_t kMaxMemberBytes = std::size_t{64} << 20;

    // progressSpan: share of the overall progress this file accounts for, starting at progressBase.
    // `buffer`, when given, is used instead of a buffer of the scanner's own: one that an earlier file
    // left (its pages already in memory, its contents overwritten) saves faulting in and zero-filling
    // a fresh one per file.
    JsonTraceScanner(ByteSource& source, const TaskControl& control, double progressBase = 0.0,
                     double progressSpan = 1.0, std::vector<char>* buffer = nullptr);

    Status run(Handler& handler);
    std::uint64_t bytesScanned() const { return m_bytesScanned; }
    std::uint64_t eventCount() const { return m_eventCount; }
    bool sawEventArray() const { return m_sawEvents; }
    static bool isJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
    std::uint64_t guessedBatches() const { return m_guessedBatches; }    // handed over by the fast path
    std::uint64_t rejectedGuesses() const { return m_rejectedGuesses; }  // scanned exactly instead

  private:
    enum class State { Start, ObjectKey, Colon, Value, AfterValue, ArrayElement, AfterElement, Done };

    // The steps of run(), each consuming bytes at m_pos.
    Status continueValue(Handler& handler);  // the value being scanned: more of it, or its end
    Status finishValue(Handler& handler);
    Status structuralStep(char c, Handler& handler);  // c = m_buf[m_pos], not white space
    Status documentStart(char c);
    Status objectKey(char c);
    Status valueStart(char c);
    Status afterValue(char c);
    Status arrayElement(char c, Handler& handler);
    bool fastPathApplies() const;
    Result<bool> tryFastBatch(Handler& handler);  // true: a batch was handed over
    Status endOfInput() const;

    Result<bool> refill();  // false at the end of the input
    Status flushBatch(Handler& handler);
    Result<bool> scanValue();  // resumable; true when the value starting at m_valueStart is complete
    void beginValue();
    std::size_t bufferEnd() const;  // end of the space data may occupy
    std::uint64_t absolute(std::size_t pos) const { return m_bufferOffset + pos; }
    Status fail(const std::string& what) const;

    ByteSource& m_src;
    const TaskControl& m_control;
    double m_progressBase;
    double m_progressSpan;

    // Data lives in [m_pos, m_end) of m_buf's first m_bufBytes, after one spare byte (for a batch's
    // '[') and before kPaddingBytes + 1 spare ones (its ']' and the parser's padding). A borrowed
    // buffer may be longer than m_bufBytes: the rest is not used, so batches do not depend on it.
    void useBufferBytes(std::size_t bytes);
    std::vector<char> m_ownBuffer;
    std::vector<char>& m_buf;
    std::size_t m_bufBytes = 0;
    std::size_t m_pos = 0;             // next byte to look at
    std::size_t m_end = 0;             // end of the data in m_buf
    std::uint64_t m_bufferOffset = 0;  // input offset of m_buf[0]
    bool m_eof = false;
    State m_state = State::Start;

    // value being scanned (an event or a member)
    bool m_inValue = false;
    std::size_t m_valueStart = std::string_view::npos;
    std::size_t m_scanPos = 0;
    int m_depth = 0;
    bool m_skipping = false;  // member too large to keep: its bytes are dropped as they pass

    std::size_t m_batchStart = 0;  // first element of the pending exact batch
    std::size_t m_batchEnd = 0;    // end of its last element
    std::size_t m_batchCount = 0;

    bool m_fastPath = true;
    int m_fastFailures = 0;          // in a row; the fast path is given up after a few
    std::uint64_t m_exactUntil = 0;  // input offset up to which the exact scan runs
    std::uint64_t m_guessedBatches = 0;
    std::uint64_t m_rejectedGuesses = 0;

    std::string m_key;
    bool m_arrayFormat = false;
    bool m_sawEvents = false;
    std::uint64_t m_bytesScanned = 0;
    std::uint64_t m_eventCount = 0;
};

}  // namespace tpscope::core
