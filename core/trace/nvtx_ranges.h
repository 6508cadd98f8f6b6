// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's NVTX ranges (DESIGN.md §2), held as narrow columns instead of 24-byte records (issue 31:
// 30 M ranges at 100 M events were 0.72 GB).
//
// Input: ranges pushed in any order (importers and the simulator close a step after its layers).
// Mapping: each range is one event of an EventColumns (start, duration = end - start, the range's
// name as the event's name, kind Other, correlation id 0, no payload) plus a one-byte depth column,
// in the order "by start, then by depth" (ties: the order pushed) once finalize() has run. The
// columns keep every value exactly (EventColumns' escapes: a range of 4.3 s or more, an end before
// its start), so operator[] gives back the NvtxRange that was pushed. Every byte the event columns
// save per event they save per range.
// Cost: EventColumns' bytes per event (~9.5) + 1 byte of depth a range. finalize() is O(r) when the
// ranges came in order, O(r log r) and 8 bytes a range of scratch when they did not. Reading a range
// is a few loads from the columns; hot loops read one column at a time (startNs(i), depth(i), ...).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <span>
#include <string_view>
#include <vector>

#include "core/trace/event_columns.h"
#include "core/util/strong_id.h"

namespace tpscope::core {

// A named interval on a rank's NVTX track: "step 3" (depth 0) > "layer 12" (1) > "mlp" (2).
struct NvtxRange {
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    NameId name{};
    std::uint8_t depth = 0;
    bool operator==(const NvtxRange&) const = default;
};

class NvtxRanges {
  public:
    NvtxRanges() = default;
    NvtxRanges(std::initializer_list<NvtxRange> ranges);  // finalized, as Trace::finalize would leave them

    void reserve(std::size_t n);
    void push_back(const NvtxRange& range);
    // Consecutive ranges as columns (a decoder's chunk), all spans of one size.
    void append(std::span<const std::int64_t> startNs, std::span<const std::int64_t> endNs,
                std::span<const std::uint32_t> names, std::span<const std::uint8_t> depths);
    // Ranges in block form (EventColumns::appendBlockForm: the columns' bytes, copied) with their depths,
    // onto ranges that came only so; names checked against nameCount. nullptr, or what is wrong with them.
    const char* appendBlockForm(std::string_view columns, std::span<const std::uint8_t> depths, std::size_t nameCount);
    void clear() { *this = NvtxRanges(); }
    // Sorts by start, then by depth, stably, and finalizes the columns; readers of visibleRanges() and
    // lastEndNs() require it. Ranges read back from a workspace are in order already: checked, not sorted.
    void finalize();
    bool finalized() const { return m_columns.finalized(); }

    std::size_t size() const { return m_depth.size(); }
    bool empty() const { return m_depth.empty(); }
    std::int64_t startNs(std::size_t i) const { return m_columns.startNs(i); }
    std::int64_t endNs(std::size_t i) const { return m_columns.endNs(i); }
    std::int64_t durNs(std::size_t i) const { return m_columns.durNs(i); }  // end - start, may be negative
    NameId name(std::size_t i) const { return m_columns.name(i); }
    std::uint8_t depth(std::size_t i) const { return m_depth[i]; }
    std::span<const std::uint8_t> depths() const { return m_depth; }
    NvtxRange operator[](std::size_t i) const { return {startNs(i), endNs(i), name(i), depth(i)}; }
    // The ranges as events (start, duration, name), for a scan a block at a time (EventScan).
    const EventColumns& columns() const { return m_columns; }
    NvtxRange at(std::size_t i) const;  // throws std::out_of_range past the end
    NvtxRange front() const { return (*this)[0]; }
    NvtxRange back() const { return (*this)[size() - 1]; }
    // Starts loading range i's start and duration (the timeline's level of detail).
    void prefetch(std::size_t i) const { m_columns.prefetch(i); }

    // Indices [first, last) of the ranges overlapping [t0, t1): ranges of all depths, which overlap, so
    // some inside may have ended before t0 (callers test endNs). O(log r + EventColumns::kBlock).
    IndexRange visibleRanges(std::int64_t t0, std::int64_t t1) const { return m_columns.visibleRange(t0, t1); }
    std::int64_t lastEndNs() const;  // the latest end; INT64_MIN when empty

    std::size_t residentBytes() const { return m_columns.residentBytes() + m_depth.capacity(); }
    bool operator==(const NvtxRanges& other) const { return m_depth == other.m_depth && m_columns == other.m_columns; }

    // The ranges as values, in order.
    class Iterator {
      public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = NvtxRange;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = NvtxRange;
        Iterator() = default;
        Iterator(const NvtxRanges* ranges, std::size_t i) : m_ranges(ranges), m_i(i) {}
        NvtxRange operator*() const { return (*m_ranges)[m_i]; }
        Iterator& operator++() {
            ++m_i;
            return *this;
        }
        Iterator operator++(int) {
            Iterator before = *this;
            ++m_i;
            return before;
        }
        bool operator==(const Iterator& other) const { return m_i == other.m_i; }

      private:
        const NvtxRanges* m_ranges = nullptr;
        std::size_t m_i = 0;
    };
    Iterator begin() const { return {this, 0}; }
    Iterator end() const { return {this, size()}; }

  private:
    EventColumns m_columns;
    std::vector<std::uint8_t> m_depth;
};

}  // namespace tpscope::core
