// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// n more elements at the end of a vector, written in place by the caller (the columns of
// EventColumns and BlockCells, filled from a decoder's batch). When the capacity is already there
// (a decoder reserves a stream's count), the new pages are faulted in by one call instead of one page
// fault per 4 KB (MADV_POPULATE_WRITE, Linux 5.14; on an older kernel the call fails and the pages
// fault one by one as before). Cost: the resize's value-initialisation, one madvise per large grow.

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpscope::core {

// Faults in the whole pages inside [begin, end) by one call, for memory about to be written (no-op
// where MADV_POPULATE_WRITE is missing: the pages then fault one by one as they are written).
inline void populateForWrite(void* begin, void* end) {
#ifdef MADV_POPULATE_WRITE
    constexpr std::uintptr_t kPage = 4096;
    const auto from = (reinterpret_cast<std::uintptr_t>(begin) + kPage - 1) / kPage * kPage;
    const auto to = reinterpret_cast<std::uintptr_t>(end) / kPage * kPage;
    if (to > from) (void)madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
    (void)begin;
    (void)end;
#endif
}

// Value-initialised new elements (the caller overwrites them); returns their storage.
template <typename T>
T* grow(std::vector<T>& v, std::size_t n) {
    const std::size_t old = v.size();
    constexpr std::size_t kLarge = 16 * 4096;
    if (old + n <= v.capacity() && n * sizeof(T) >= kLarge) populateForWrite(v.data() + old, v.data() + old + n);
    v.resize(old + n);
    return v.data() + old;
}

}  // namespace tpscope::core
