// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/json_trace_scanner.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace tpscope::core {

namespace {

constexpr std::size_t kMaxKeyBytes = std::size_t{1} << 20;

// First byte of a JSON value; anything else means the input is not JSON (checked before scanning,
// so garbage fails at once instead of being buffered as one huge "value").
bool startsValue(char c) {
    return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

// Bytes that change the nesting state outside strings.
struct Structural {
    std::array<bool, 256> table = {};
    constexpr Structural() {
        table[static_cast<unsigned char>('"')] = true;
        table[static_cast<unsigned char>('{')] = true;
        table[static_cast<unsigned char>('}')] = true;
        table[static_cast<unsigned char>('[')] = true;
        table[static_cast<unsigned char>(']')] = true;
    }
};
constexpr Structural kStructural;

// Position of the quote closing the string whose opening quote is at `open`, or npos.
std::size_t closingQuote(const char* data, std::size_t open, std::size_t end) {
    std::size_t q = open + 1;
    while (q < end) {
        const void* hit = std::memchr(data + q, '"', end - q);
        if (hit == nullptr) return std::string_view::npos;
        q = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
        std::size_t k = q;
        while (k > open + 1 && data[k - 1] == '\\') --k;
        if (((q - k) & 1U) == 0) return q;
        ++q;
    }
    return std::string_view::npos;
}

}  // namespace

JsonTraceScanner::JsonTraceScanner(ByteSource& source, const TaskControl& control, double progressBase,
                                   double progressSpan, std::vector<char>* buffer)
    : m_src(source),
      m_control(control),
      m_progressBase(progressBase),
      m_progressSpan(progressSpan),
      m_buf(buffer != nullptr ? *buffer : m_ownBuffer) {}

Status JsonTraceScanner::fail(const std::string& what) const {
    return makeError(
        ErrorCode::ParseError,
        what + " (after " + std::to_string(m_eventCount) + " events, " + std::to_string(m_bytesScanned) + " bytes)",
        m_src.path());
}

Result<bool> JsonTraceScanner::scanValue() {
    const char* data = m_buf.data();
    std::size_t p = m_scanPos;
    const char first = data[m_valueStart];
    if (first != '{' && first != '[' && first != '"') {
        // A scalar ends at the next delimiter (or at the end of the input).
        while (p < m_end && data[p] != ',' && data[p] != '}' && data[p] != ']' && !isJsonSpace(data[p])) ++p;
        m_scanPos = p;
        if (p == m_end && !m_eof) return false;
        m_pos = p;
        return true;
    }
    int depth = m_depth;
    while (p < m_end) {
        const char c = data[p];
        if (!kStructural.table[static_cast<unsigned char>(c)]) {
            ++p;
            continue;
        }
        if (c == '"') {
            const std::size_t q = closingQuote(data, p, m_end);
            if (q == std::string_view::npos) break;  // resume at this string's opening quote
            p = q + 1;
            if (depth == 0) {
                m_pos = p;
                return true;
            }
            continue;
        }
        if (c == '{' || c == '[') {
            ++depth;
        } else if (--depth == 0) {
            m_pos = p + 1;
            m_depth = 0;
            return true;
        } else if (depth < 0) {
            return Error(fail("unbalanced brackets").error());
        }
        ++p;
    }
    m_scanPos = p;
    m_depth = depth;
    return false;
}

void JsonTraceScanner::beginValue() {
    m_valueStart = m_scanPos = m_pos;
    m_depth = 0;
    m_inValue = true;
}

Status JsonTraceScanner::continueValue(Handler& handler) {
    bool done = false;
    TPSCOPE_TRY_ASSIGN(done, scanValue());
    if (done) return finishValue(handler);
    if (m_state == State::Value && !m_skipping && m_scanPos - m_valueStart > kMaxMemberBytes) m_skipping = true;
    if (m_state == State::ArrayElement && m_scanPos - m_valueStart > kMaxElementBytes) {
        return fail("a single trace record is larger than " + std::to_string(kMaxElementBytes >> 20) + " MB");
    }
    TPSCOPE_TRY(flushBatch(handler));
    bool more = false;
    TPSCOPE_TRY_ASSIGN(more, refill());
    if (!more) return fail("the JSON ends inside a value: the file looks truncated");
    return Ok{};
}

Status JsonTraceScanner::finishValue(Handler& handler) {
    m_inValue = false;
    const std::size_t start = m_valueStart;
    m_valueStart = std::string_view::npos;
    if (m_state == State::ArrayElement) {
        if (m_buf[start] == '{') {
            if (m_batchCount == 0) m_batchStart = start;
            m_batchEnd = m_pos;
            ++m_batchCount;
            ++m_eventCount;
            if (m_batchEnd - m_batchStart >= kBatchBytes) TPSCOPE_TRY(flushBatch(handler));
        } else {
            handler.nonObjectElement();
        }
        m_state = State::AfterElement;
        return Ok{};
    }
    if (!m_skipping) TPSCOPE_TRY(handler.member(m_key, std::string_view(m_buf.data() + start, m_pos - start)));
    m_skipping = false;
    m_state = State::AfterValue;
    return Ok{};
}

Status JsonTraceScanner::documentStart(char c) {
    const auto u = static_cast<unsigned char>(c);
    if (u == 0xEF || u == 0xBB || u == 0xBF) {  // UTF-8 byte order mark
        ++m_pos;
    } else if (c == '{') {
        ++m_pos;
        m_state = State::ObjectKey;
    } else if (c == '[') {
        ++m_pos;
        m_arrayFormat = m_sawEvents = true;
        m_state = State::ArrayElement;
    } else {
        return makeError(ErrorCode::WrongFormat, "not a JSON object or array", m_src.path());
    }
    return Ok{};
}

Status JsonTraceScanner::objectKey(char c) {
    if (c == '}') {
        ++m_pos;
        m_state = State::Done;
        return Ok{};
    }
    if (c != '"') return fail("expected a member name in the top-level object");
    const std::size_t q = closingQuote(m_buf.data(), m_pos, m_end);
    if (q == std::string_view::npos) {
        if (m_end - m_pos > kMaxKeyBytes) return fail("a member name longer than 1 MB");
        bool more = false;
        TPSCOPE_TRY_ASSIGN(more, refill());
        if (!more) return fail("the JSON ends inside a member name: the file looks truncated");
        return Ok{};
    }
    m_key.assign(m_buf.data() + m_pos + 1, q - m_pos - 1);
    m_pos = q + 1;
    m_state = State::Colon;
    return Ok{};
}

Status JsonTraceScanner::valueStart(char c) {
    if (m_key == "traceEvents" && c == '[') {
        ++m_pos;
        m_sawEvents = true;
        m_state = State::ArrayElement;
    } else if (!startsValue(c)) {
        return fail("not valid JSON: unexpected byte in the value of \"" + m_key + "\"");
    } else {
        beginValue();
    }
    return Ok{};
}

Status JsonTraceScanner::afterValue(char c) {
    if (c == ',') {
        m_state = State::ObjectKey;
    } else if (c == '}') {
        m_state = State::Done;
    } else {
        return fail("expected ',' or '}' after member \"" + m_key + "\"");
    }
    ++m_pos;
    return Ok{};
}

Status JsonTraceScanner::arrayElement(char c, Handler& handler) {
    if (c == ']') {
        ++m_pos;
        TPSCOPE_TRY(flushBatch(handler));
        m_state = m_arrayFormat ? State::Done : State::AfterValue;
    } else if (c == ',') {
        ++m_pos;  // also tolerates stray commas such as "[{..},,{..},]"
        m_state = State::ArrayElement;
    } else if (m_state == State::AfterElement) {
        return fail("expected ',' or ']' between events");
    } else if (!startsValue(c)) {
        return fail("not valid JSON: unexpected byte in the event array");
    } else {
        beginValue();
    }
    return Ok{};
}

Status JsonTraceScanner::structuralStep(char c, Handler& handler) {
    switch (m_state) {
        case State::Start:
            return documentStart(c);
        case State::ObjectKey:
            return objectKey(c);
        case State::Colon:
            if (c != ':') return fail("expected ':' after member \"" + m_key + "\"");
            ++m_pos;
            m_state = State::Value;
            return Ok{};
        case State::Value:
            return valueStart(c);
        case State::AfterValue:
            return afterValue(c);
        case State::ArrayElement:
        case State::AfterElement:
            return arrayElement(c, handler);
        case State::Done:
            // Trailing bytes after the document are ignored.
            TPSCOPE_TRY(flushBatch(handler));
            m_pos = m_end;
            m_eof = true;
            return Ok{};
    }
    return Ok{};
}

Status JsonTraceScanner::endOfInput() const {
    const bool complete =
        m_state == State::Done || (m_arrayFormat && (m_state == State::ArrayElement || m_state == State::AfterElement));
    if (m_state == State::Start) return makeError(ErrorCode::WrongFormat, "the file holds no JSON", m_src.path());
    if (!complete) return fail("the JSON ends early: the file looks truncated");
    if (!m_sawEvents) {
        return makeError(ErrorCode::WrongFormat, "JSON without a \"traceEvents\" array: not a Chrome/Kineto trace",
                         m_src.path());
    }
    return Ok{};
}

Status JsonTraceScanner::run(Handler& handler) {
    for (;;) {
        if (m_inValue) {
            TPSCOPE_TRY(continueValue(handler));
            continue;
        }
        if (fastPathApplies()) {
            bool handed = false;
            TPSCOPE_TRY_ASSIGN(handed, tryFastBatch(handler));
            if (handed) continue;
        }
        if (m_pos >= m_end) {
            TPSCOPE_TRY(flushBatch(handler));
            bool more = false;
            TPSCOPE_TRY_ASSIGN(more, refill());
            if (!more) break;
            continue;
        }
        const char c = m_buf[m_pos];
        if (isJsonSpace(c)) {
            ++m_pos;
            continue;
        }
        TPSCOPE_TRY(structuralStep(c, handler));
        if (m_state == State::Done && m_eof) break;
    }
    TPSCOPE_TRY(flushBatch(handler));
    return endOfInput();
}

}  // namespace tpscope::core
