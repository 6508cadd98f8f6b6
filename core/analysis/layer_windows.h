// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A rank's layer windows (RankSegmentation::layers), held compactly: 10 M at 100 M events, 320 MB
// as LayerWindow values.
//
// Input: layer windows, given as a list (the segmentation's, in start order).
// Mapping: each group of 64 consecutive windows keeps its first window's start and step key once
// (16 bytes); a window keeps its start as a 32-bit offset from that start, its length in 32 bits,
// and its layer index and its step key's offset from the group's in 16 bits each (12 bytes). A
// window whose values do not fit (a start before its group's first or 4.29 s or more after it, a
// length of 4.29 s or more or negative, a layer index outside [0, 65535], a step key below its
// group's or 65,535 or more above it) is kept whole in a side table: every window reads back exactly
// as it was given.
// Cost: 12 bytes a window and 16 a group of 64 (LayerWindow: 32). Window i in O(1), plus
// O(log wide windows) when it is wide. Iterators are random access and read windows as values.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <utility>
#include <vector>

namespace tpscope::core::analysis {

struct LayerWindow {
    std::int64_t step = 0;  // step key
    int layer = 0;
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    bool operator==(const LayerWindow&) const = default;
};

class LayerWindows {
  public:
    class Iterator {
      public:
        using iterator_concept = std::random_access_iterator_tag;
        using iterator_category = std::random_access_iterator_tag;  // operator* returns a value
        using value_type = LayerWindow;
        using difference_type = std::ptrdiff_t;
        using reference = LayerWindow;
        struct Arrow {
            LayerWindow window;
            const LayerWindow* operator->() const { return &window; }
        };
        using pointer = Arrow;

        Iterator() = default;
        Iterator(const LayerWindows* windows, std::size_t i)
            : m_windows(windows), m_i(static_cast<std::ptrdiff_t>(i)) {}
        LayerWindow operator*() const { return (*m_windows)[static_cast<std::size_t>(m_i)]; }
        Arrow operator->() const { return {**this}; }
        LayerWindow operator[](difference_type n) const { return *(*this + n); }
        Iterator& operator++() { return *this += 1; }
        Iterator& operator--() { return *this -= 1; }
        Iterator operator++(int) {
            Iterator before = *this;
            ++*this;
            return before;
        }
        Iterator operator--(int) {
            Iterator before = *this;
            --*this;
            return before;
        }
        Iterator& operator+=(difference_type n) {
            m_i += n;
            return *this;
        }
        Iterator& operator-=(difference_type n) {
            m_i -= n;
            return *this;
        }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& a, const Iterator& b) { return a.m_i - b.m_i; }
        bool operator==(const Iterator& o) const { return m_i == o.m_i; }
        std::strong_ordering operator<=>(const Iterator& o) const { return m_i <=> o.m_i; }

      private:
        const LayerWindows* m_windows = nullptr;
        std::ptrdiff_t m_i = 0;
    };

    LayerWindows() = default;
    // Implicit, so that a list of windows can be assigned: seg.layers = layers.
    LayerWindows(const std::vector<LayerWindow>& windows)  // NOLINT(google-explicit-constructor)
        : LayerWindows(std::span<const LayerWindow>(windows)) {}
    explicit LayerWindows(std::span<const LayerWindow> windows);

    std::size_t size() const { return m_windows.size(); }
    bool empty() const { return m_windows.empty(); }
    // Inline: read once a layer by the segmentation, the matching and the breakdown.
    LayerWindow operator[](std::size_t i) const {
        const Packed& p = m_windows[i];
        if (p.lengthNs == kWide) [[unlikely]] {
            return wideAt(i);
        }
        const Group& g = m_groups[i / kGroup];
        const std::int64_t start = g.startNs + static_cast<std::int64_t>(p.offsetNs);
        return {g.step + static_cast<std::int64_t>(p.stepOffset), static_cast<int>(p.layer), start,
                start + static_cast<std::int64_t>(p.lengthNs)};
    }
    LayerWindow front() const { return (*this)[0]; }
    LayerWindow back() const { return (*this)[size() - 1]; }
    Iterator begin() const { return {this, 0}; }
    Iterator end() const { return {this, size()}; }
    std::vector<LayerWindow> toVector() const { return {begin(), end()}; }
    std::size_t wideCount() const { return m_wide.size(); }
    std::size_t residentBytes() const;

  private:
    struct Group {
        std::int64_t startNs = 0;  // its first window's
        std::int64_t step = 0;
    };
    struct Packed {
        std::uint32_t offsetNs = 0;  // start - the group's startNs
        std::uint32_t lengthNs = 0;  // kWide: the window is in m_wide
        std::uint16_t layer = 0;
        std::uint16_t stepOffset = 0;  // step - the group's step
    };
    static_assert(sizeof(Group) == 16);
    static_assert(sizeof(Packed) == 12, "the layer window budget of issue 31: 12 bytes a window beside its group");
    static constexpr std::size_t kGroup = 64;
    static constexpr std::uint32_t kWide = 0xFFFFFFFF;
    LayerWindow wideAt(std::size_t i) const;

    std::vector<Group> m_groups;
    std::vector<Packed> m_windows;
    std::vector<std::pair<std::uint32_t, LayerWindow>> m_wide;  // sorted by window index
};

}  // namespace tpscope::core::analysis
