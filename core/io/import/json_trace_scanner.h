#pragma once
// Streaming walk over the top level of a Chrome / Kineto JSON trace of any size.
//
// Input: a ByteSource (plain or gzip). Accepted shapes: the JSON Object Format
// `{"traceEvents": [ {...}, ... ], "other": ...}` (members in any order) and the JSON Array Format
// `[ {...}, ... ]` (whose closing ']' may be missing, as the Chrome spec allows).
// Output: the elements of the event array in batches of complete objects, text "{..},{..}", about
// kBatchBytes each, and every other top-level member as raw JSON text (members larger than
// kMaxMemberBytes are skipped unseen). The caller parses the batches with simdjson.
// Memory: one buffer of about kBatchBytes plus the largest single event; an event larger than
// kMaxElementBytes is an error, so garbage cannot make the buffer grow without bound.
// Cost: one pass over the bytes; strings are skipped with memchr. Truncated input is an error that
// says how many events were read.

#include <cstddef>
#include <cstdint>
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
        // `elements` holds `count` complete JSON objects separated by commas and white space.
        virtual Status events(std::string_view elements, std::size_t count) = 0;
        virtual void nonObjectElement() = 0;  // an array element that is not an object
    };

    static constexpr std::size_t kBatchBytes = std::size_t{8} << 20;
    static constexpr std::size_t kMaxElementBytes = std::size_t{256} << 20;
    static constexpr std::size_t kMaxMemberBytes = std::size_t{64} << 20;

    // progressSpan: share of the overall progress this file accounts for, starting at progressBase.
    JsonTraceScanner(ByteSource& source, const TaskControl& control, double progressBase = 0.0,
                     double progressSpan = 1.0);

    Status run(Handler& handler);
    std::uint64_t bytesScanned() const { return m_bytesScanned; }
    std::uint64_t eventCount() const { return m_eventCount; }
    bool sawEventArray() const { return m_sawEvents; }

  private:
    enum class State { Start, ObjectKey, Colon, Value, AfterValue, ArrayElement, AfterElement, Done };

    Result<bool> refill();  // false at the end of the input
    Status flushBatch(Handler& handler);
    Result<bool> scanValue();  // resumable; true when the value starting at m_valueStart is complete
    Status fail(const std::string& what) const;

    ByteSource& m_src;
    const TaskControl& m_control;
    double m_progressBase;
    double m_progressSpan;

    std::vector<char> m_buf;
    std::size_t m_pos = 0;  // next byte to look at
    std::size_t m_end = 0;  // end of the data in m_buf
    bool m_eof = false;

    // value being scanned (an event or a member)
    std::size_t m_valueStart = 0;
    std::size_t m_scanPos = 0;
    int m_depth = 0;
    bool m_skipping = false;  // member too large to keep: its bytes are dropped as they pass
    std::uint64_t m_skippedBytes = 0;

    std::size_t m_batchStart = 0;  // first element of the pending batch
    std::size_t m_batchEnd = 0;    // end of its last element
    std::size_t m_batchCount = 0;

    std::string m_key;
    bool m_arrayFormat = false;
    bool m_sawEvents = false;
    std::uint64_t m_bytesScanned = 0;
    std::uint64_t m_eventCount = 0;
};

}  // namespace tpscope::core
