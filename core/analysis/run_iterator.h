// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A forward iterator over a compact container whose elements are grouped in runs (the rows of one
// layer instance, the blocks of one layer) and read back as values: it keeps the run of the
// current element, so that stepping costs O(1) instead of a search for the run.
// The container provides `Value unpack(std::size_t element, std::size_t run) const` and
// `std::size_t runOf(std::size_t element, std::size_t previousRun) const` (the run of `element`,
// given the previous element's), both reachable from this iterator.

#include <cstddef>
#include <iterator>

namespace tpscope::core::analysis {

template <typename Container, typename Value>
class RunIterator {
  public:
    using iterator_concept = std::forward_iterator_tag;
    using iterator_category = std::input_iterator_tag;  // operator* returns a value
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using reference = Value;
    using pointer = void;

    RunIterator() = default;
    RunIterator(const Container* container, std::size_t element, std::size_t run)
        : m_container(container), m_element(element), m_run(run) {}

    Value operator*() const { return m_container->unpack(m_element, m_run); }
    RunIterator& operator++() {
        ++m_element;
        m_run = m_container->runOf(m_element, m_run);
        return *this;
    }
    RunIterator operator++(int) {
        RunIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const RunIterator& o) const { return m_element == o.m_element; }

  private:
    const Container* m_container = nullptr;
    std::size_t m_element = 0;
    std::size_t m_run = 0;
};

}  // namespace tpscope::core::analysis
