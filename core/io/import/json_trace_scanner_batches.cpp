// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// JsonTraceScanner's buffer and batches: refilling the buffer, handing the exact scan's batches over,
// and the fast path (a batch's end guessed at "}, {" and checked by the handler's parser).
// See json_trace_scanner.h.

#include <algorithm>
#include <cstring>

#include "core/io/import/json_trace_scanner.h"

namespace tpscope::core {

namespace {

constexpr std::size_t kLeadBytes = 1;                                        // room for a batch's '['
constexpr std::size_t kTailBytes = JsonTraceScanner::kPaddingBytes + 1;      // its ']' + padding
constexpr std::size_t kInitialCapacity = 2 * JsonTraceScanner::kBatchBytes;  // data bytes
constexpr int kMaxFastFailures = 3;  // guesses wrong this often in a row: this file is scanned exactly

std::size_t skipSpace(const char* data, std::size_t p, std::size_t end) {
    while (p < end && JsonTraceScanner::isJsonSpace(data[p])) ++p;
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
        while (k > from && JsonTraceScanner::isJsonSpace(data[k - 1])) --k;
        if (k == from || data[k - 1] != ',') continue;
        --k;
        while (k > from && JsonTraceScanner::isJsonSpace(data[k - 1])) --k;
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

std::size_t JsonTraceScanner::bufferEnd() const {
    return m_bufBytes - kTailBytes;
}

// Grows the buffer (keeping its contents) to at least `bytes`; a borrowed one may already be longer.
void JsonTraceScanner::useBufferBytes(std::size_t bytes) {
    if (m_buf.size() < bytes) m_buf.resize(bytes);
    m_bufBytes = bytes;
}

Result<bool> JsonTraceScanner::refill() {
    if (m_control.cancelled()) return makeError(ErrorCode::Cancelled, "import cancelled", m_src.path());
    if (m_eof) return false;
    if (m_bufBytes == 0) {
        // Small inputs get a small buffer (cheap for tests and fuzzing); it grows when a record needs it.
        const std::uint64_t hint = m_src.isGzip() ? m_src.fileBytes() * 4 : m_src.fileBytes();
        const auto capacity = static_cast<std::size_t>(std::clamp<std::uint64_t>(hint + 64, 4096, kInitialCapacity));
        useBufferBytes(kLeadBytes + capacity + kTailBytes);
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
        useBufferBytes(kLeadBytes + 2 * capacity + kTailBytes);
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
    if (m_state == State::AfterElement && first < m_end && data[first] == ',') {
        first = skipSpace(data, first + 1, m_end);
    }
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

}  // namespace tpscope::core
