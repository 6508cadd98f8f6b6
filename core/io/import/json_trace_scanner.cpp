#include "core/io/import/json_trace_scanner.h"

#include <algorithm>
#include <cstring>

namespace tpscope::core {

namespace {

constexpr std::size_t kInitialBuffer = JsonTraceScanner::kBatchBytes + (std::size_t{1} << 20);
constexpr std::size_t kMaxKeyBytes = std::size_t{1} << 20;

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

Result<bool> JsonTraceScanner::refill() {
    if (m_control.cancelled()) return makeError(ErrorCode::Cancelled, "import cancelled", m_src.path());
    if (m_eof) return false;
    if (m_buf.empty()) {
        // Small inputs get a small buffer (cheap for tests and fuzzing); it grows when a record needs it.
        const std::uint64_t hint = m_src.isGzip() ? m_src.fileBytes() * 4 : m_src.fileBytes();
        m_buf.resize(static_cast<std::size_t>(std::clamp<std::uint64_t>(hint + 64, 4096, kInitialBuffer)));
    }
    // Keep only what is still needed: the value being scanned (or, when a huge member is being
    // skipped, its resume point), otherwise nothing before m_pos.
    std::size_t keep = m_pos;
    if (m_valueStart != std::string_view::npos) keep = m_skipping ? m_scanPos : m_valueStart;
    if (keep > 0) {
        std::memmove(m_buf.data(), m_buf.data() + keep, m_end - keep);
        m_end -= keep;
        m_pos -= std::min(m_pos, keep);
        m_scanPos -= std::min(m_scanPos, keep);
        if (m_valueStart != std::string_view::npos) m_valueStart -= std::min(m_valueStart, keep);
    }
    if (m_end == m_buf.size()) {
        if (m_buf.size() >= kMaxElementBytes + kInitialBuffer) {
            return makeError(ErrorCode::ParseError,
                             "a single trace record is larger than " + std::to_string(kMaxElementBytes >> 20) +
                                 " MB; this is not a trace this reader can handle",
                             m_src.path());
        }
        m_buf.resize(m_buf.size() * 2);
    }
    auto n = m_src.read(m_buf.data() + m_end, m_buf.size() - m_end);
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
    const std::string_view text(m_buf.data() + m_batchStart, m_batchEnd - m_batchStart);
    const std::size_t count = m_batchCount;
    m_batchCount = 0;
    return handler.events(text, count);
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

Status JsonTraceScanner::run(Handler& handler) {
    State state = State::Start;
    bool inValue = false;
    m_valueStart = std::string_view::npos;
    for (;;) {
        if (inValue) {
            auto done = scanValue();
            if (!done) return done.error();
            if (!*done) {
                if (state == State::Value && !m_skipping && m_scanPos - m_valueStart > kMaxMemberBytes) {
                    m_skipping = true;
                }
                if (state == State::ArrayElement && m_scanPos - m_valueStart > kMaxElementBytes) {
                    return fail("a single trace record is larger than " + std::to_string(kMaxElementBytes >> 20) +
                                " MB");
                }
                TPSCOPE_TRY(flushBatch(handler));
                auto more = refill();
                if (!more) return more.error();
                if (!*more) return fail("the JSON ends inside a value: the file looks truncated");
                continue;
            }
            inValue = false;
            const std::size_t start = m_valueStart;
            m_valueStart = std::string_view::npos;
            if (state == State::ArrayElement) {
                if (m_buf[start] == '{') {
                    if (m_batchCount == 0) m_batchStart = start;
                    m_batchEnd = m_pos;
                    ++m_batchCount;
                    ++m_eventCount;
                    if (m_batchEnd - m_batchStart >= kBatchBytes) TPSCOPE_TRY(flushBatch(handler));
                } else {
                    handler.nonObjectElement();
                }
                state = State::AfterElement;
            } else {
                if (!m_skipping) {
                    TPSCOPE_TRY(handler.member(m_key, std::string_view(m_buf.data() + start, m_pos - start)));
                }
                m_skipping = false;
                state = State::AfterValue;
            }
            continue;
        }
        if (m_pos >= m_end) {
            TPSCOPE_TRY(flushBatch(handler));
            auto more = refill();
            if (!more) return more.error();
            if (!*more) break;
            continue;
        }
        const char c = m_buf[m_pos];
        if (isSpace(c)) {
            ++m_pos;
            continue;
        }
        switch (state) {
            case State::Start: {
                const auto u = static_cast<unsigned char>(c);
                if (u == 0xEF || u == 0xBB || u == 0xBF) {  // UTF-8 byte order mark
                    ++m_pos;
                } else if (c == '{') {
                    ++m_pos;
                    state = State::ObjectKey;
                } else if (c == '[') {
                    ++m_pos;
                    m_arrayFormat = m_sawEvents = true;
                    state = State::ArrayElement;
                } else {
                    return makeError(ErrorCode::WrongFormat, "not a JSON object or array", m_src.path());
                }
                break;
            }
            case State::ObjectKey: {
                if (c == '}') {
                    ++m_pos;
                    state = State::Done;
                    break;
                }
                if (c != '"') return fail("expected a member name in the top-level object");
                const std::size_t q = closingQuote(m_buf.data(), m_pos, m_end);
                if (q == std::string_view::npos) {
                    if (m_end - m_pos > kMaxKeyBytes) return fail("a member name longer than 1 MB");
                    auto more = refill();
                    if (!more) return more.error();
                    if (!*more) return fail("the JSON ends inside a member name: the file looks truncated");
                    break;
                }
                m_key.assign(m_buf.data() + m_pos + 1, q - m_pos - 1);
                m_pos = q + 1;
                state = State::Colon;
                break;
            }
            case State::Colon:
                if (c != ':') return fail("expected ':' after member \"" + m_key + "\"");
                ++m_pos;
                state = State::Value;
                break;
            case State::Value:
                if (m_key == "traceEvents" && c == '[') {
                    ++m_pos;
                    m_sawEvents = true;
                    state = State::ArrayElement;
                } else if (!startsValue(c)) {
                    return fail("not valid JSON: unexpected byte in the value of \"" + m_key + "\"");
                } else {
                    m_valueStart = m_scanPos = m_pos;
                    m_depth = 0;
                    inValue = true;
                }
                break;
            case State::AfterValue:
                if (c == ',') {
                    state = State::ObjectKey;
                } else if (c == '}') {
                    state = State::Done;
                } else {
                    return fail("expected ',' or '}' after member \"" + m_key + "\"");
                }
                ++m_pos;
                break;
            case State::ArrayElement:
            case State::AfterElement:
                if (c == ']') {
                    ++m_pos;
                    TPSCOPE_TRY(flushBatch(handler));
                    state = m_arrayFormat ? State::Done : State::AfterValue;
                } else if (c == ',') {
                    ++m_pos;  // also tolerates stray commas such as "[{..},,{..},]"
                    state = State::ArrayElement;
                } else if (state == State::AfterElement) {
                    return fail("expected ',' or ']' between events");
                } else if (!startsValue(c)) {
                    return fail("not valid JSON: unexpected byte in the event array");
                } else {
                    m_valueStart = m_scanPos = m_pos;
                    m_depth = 0;
                    inValue = true;
                }
                break;
            case State::Done:
                // Trailing bytes after the document are ignored.
                TPSCOPE_TRY(flushBatch(handler));
                m_pos = m_end;
                m_eof = true;
                break;
        }
        if (state == State::Done && m_eof) break;
    }
    TPSCOPE_TRY(flushBatch(handler));
    const bool complete =
        state == State::Done || (m_arrayFormat && (state == State::ArrayElement || state == State::AfterElement));
    if (state == State::Start) return makeError(ErrorCode::WrongFormat, "the file holds no JSON", m_src.path());
    if (!complete) return fail("the JSON ends early: the file looks truncated");
    if (!m_sawEvents) {
        return makeError(ErrorCode::WrongFormat, "JSON without a \"traceEvents\" array: not a Chrome/Kineto trace",
                         m_src.path());
    }
    return Ok{};
}

}  // namespace tpscope::core
