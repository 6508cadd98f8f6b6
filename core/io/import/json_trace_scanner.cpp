#include "core/io/import/json_trace_scanner.h"

#include <algorithm>
#include <cstring>

namespace tpscope::core {

namespace {

constexpr std::size_t kLeadBytes = 1;                                        // room for a batch's '['
constexpr std::size_t kTailBytes = JsonTraceScanner::kPaddingBytes + 1;      // its ']' + padding
constexpr std::size_t kInitialCapacity = 2 * JsonTraceScanner::kBatchBytes;  // data bytes
constexpr std::size_t kMaxKeyBytes = std::size_t{1} << 20;
constexpr int kMaxFastFailures = 3;  // guesses wrong this often in a row: this file is scanned exactly

bool isSpace(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// First byte of a JSON value; anything else means the input is not JSON (checked before scanning,
// so garbage fails at once instead of being buffered as one huge "value").
bool startsValue(char c) {
    return c == '{' || c == '[' || c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n';
}

// Bytes that change the nesting state outside strings.
struct Structural {
    bool table[256] = {};
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

std::size_t skipSpace(const char* data, std::size_t p, std::size_t end) {
    while (p < end && isSpace(data[p])) ++p;
    return p;
}

// One past the last '}' in [from, end) that is followed by white space, ',', white space and '{':
// a likely boundary between two events (the fast path's guess), or npos.
std::size_t lastElementBoundary(const char* data, std::size_t from, std::size_t end) {
    std::size_t p = end;
    while (p > from) {
        const void* hit = memrchr(data + from, '{', p - from);
        if (hit == nullptr) return std::string_view::npos;
        p = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
        std::size_t k = p;
        while (k > from && isSpace(data[k - 1])) --k;
        if (k == from || data[k - 1] != ',') continue;
        --k;
        while (k > from && isSpace(data[k - 1])) --k;
        if (k > from && data[k - 1] == '}') return k;
    }
    return std::string_view::npos;
}

// Calls f on "[" + data[begin, end) + "]" written around the text in place (the bytes at begin - 1
// and end are borrowed and put back).
template <class F>
auto withBrackets(std::vector<char>& buf, std::size_t begin, std::size_t end, F&& f) {
    const char before = buf[begin - 1];
    const char after = buf[end];
    buf[begin - 1] = '[';
    buf[end] = ']';
    auto result = f(std::string_view(buf.data() + begin - 1, end - begin + 2));
    buf[begin - 1] = before;
    buf[end] = after;
    return result;
}

}  // namespace

JsonTraceScanner::JsonTraceScanner(ByteSource& source, const TaskControl& control, double progressBase,
                                   double progressSpan)
    : m_src(source), m_control(control), m_progressBase(progressBase), m_progressSpan(progressSpan) {}

Status JsonTraceScanner::fail(const std::string& what) const {
    return makeError(
        ErrorCode::ParseError,
        what + " (after " + std::to_string(m_eventCount) + " events, " + std::to_string(m_bytesScanned) + " bytes)",
        m_src.path());
}

std::size_t JsonTraceScanner::bufferEnd() const {
    return m_buf.size() - kTailBytes;
}

Result<bool> JsonTraceScanner::refill() {
    if (m_control.cancelled()) return makeError(ErrorCode::Cancelled, "import cancelled", m_src.path());
    if (m_eof) return false;
    if (m_buf.empty()) {
        // Small inputs get a small buffer (cheap for tests and fuzzing); it grows when a record needs it.
        const std::uint64_t hint = m_src.isGzip() ? m_src.fileBytes() * 4 : m_src.fileBytes();
        const auto capacity = static_cast<std::size_t>(std::clamp<std::uint64_t>(hint + 64, 4096, kInitialCapacity));
        m_buf.resize(kLeadBytes + capacity + kTailBytes);
        m_pos = m_end = kLeadBytes;
    }
    // Keep only what is still needed: the value being scanned (or, when a huge member is being
    // skipped, its resume point), otherwise nothing before m_pos.
    std::size_t keep = m_pos;
    if (m_valueStart != std::string_view::npos) keep = m_skipping ? m_scanPos : m_valueStart;
    if (keep > kLeadBytes) {
        const std::size_t shift = keep - kLeadBytes;
        std::memmove(m_buf.data() + kLeadBytes, m_buf.data() + keep, m_end - keep);
        m_end -= shift;
        m_pos -= std::min(m_pos, shift);
        m_scanPos -= std::min(m_scanPos, shift);
        if (m_valueStart != std::string_view::npos) m_valueStart -= std::min(m_valueStart, shift);
        m_bufferOffset += shift;
    }
    if (m_end == bufferEnd()) {
        const std::size_t capacity = bufferEnd() - kLeadBytes;
        if (capacity >= kMaxElementBytes + kInitialCapacity) {
            return makeError(ErrorCode::ParseError,
                             "a single trace record is larger than " + std::to_string(kMaxElementBytes >> 20) +
                                 " MB; this is not a trace this reader can handle",
                             m_src.path());
        }
        m_buf.resize(kLeadBytes + 2 * capacity + kTailBytes);
    }
    auto n = m_src.read(m_buf.data() + m_end, bufferEnd() - m_end);
    if (!n) return n.error();
    if (*n == 0) {
        m_eof = true;
        return false;
    }
    m_end += *n;
    m_bytesScanned += *n;
    if (m_src.fileBytes() > 0) {
        m_control.report(m_progressBase + m_progressSpan * static_cast<double>(m_src.fileBytesConsumed()) /
                                              static_cast<double>(m_src.fileBytes()));
    }
    return true;
}

Status JsonTraceScanner::flushBatch(Handler& handler) {
    if (m_batchCount == 0) return Ok{};
    const std::size_t count = m_batchCount;
    m_batchCount = 0;
    return withBrackets(m_buf, m_batchStart, m_batchEnd,
                        [&](std::string_view array) { return handler.events(array, count); });
}

Result<bool> JsonTraceScanner::scanValue() {
    const char* data = m_buf.data();
    std::size_t p = m_scanPos;
    const char first = data[m_valueStart];
    if (first != '{' && first != '[' && first != '"') {
        // A scalar ends at the next delimiter (or at the end of the input).
        while (p < m_end && data[p] != ',' && data[p] != '}' && data[p] != ']' && !isSpace(data[p])) ++p;
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

bool JsonTraceScanner::fastPathApplies() const {
    return m_fastPath && (m_state == State::ArrayElement || m_state == State::AfterElement) &&
           absolute(m_pos) >= m_exactUntil;
}

Result<bool> JsonTraceScanner::tryFastBatch(Handler& handler) {
    TPSCOPE_TRY(flushBatch(handler));  // the exact scan's events come first
    if (!m_eof && m_end - m_pos < kBatchBytes) {
        auto more = refill();  // at the end of the input: the rest is what is here
        if (!more) return more.error();
    }
    const char* data = m_buf.data();
    std::size_t first = skipSpace(data, m_pos, m_end);
    if (m_state == State::AfterElement && first < m_end && data[first] == ',')
        first = skipSpace(data, first + 1, m_end);
    if (first >= m_end || data[first] != '{') {
        m_exactUntil = absolute(first) + 1;  // one exact step (the array's end, a stray comma...)
        return false;
    }
    const std::size_t end = lastElementBoundary(data, first, m_end);
    if (end == std::string_view::npos) {
        m_exactUntil = absolute(m_end);  // an event larger than the buffer: scan what is here exactly
        return false;
    }
    const auto objects =
        withBrackets(m_buf, first, end, [&](std::string_view array) { return handler.tryEvents(array); });
    if (!objects) {
        // A "}, {" inside an event, or a malformed event: the exact scan takes this stretch.
        m_exactUntil = absolute(end);
        ++m_rejectedGuesses;
        if (++m_fastFailures >= kMaxFastFailures) m_fastPath = false;
        return false;
    }
    m_fastFailures = 0;
    ++m_guessedBatches;
    m_eventCount += *objects;
    m_pos = end;
    m_state = State::AfterElement;
    return true;
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
        if (isSpace(c)) {
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
