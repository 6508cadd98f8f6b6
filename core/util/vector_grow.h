// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// n more elements at the end of a vector, written in place by the caller (the columns of
// EventColumns and BlockOffsets, filled from a decoder's batch). When the capacity is already there
// (a decoder reserves a stream's count), the new pages are faulted in by one call instead of one page
// fault per 4 KB (MADV_POPULATE_WRITE, Linux 5.14; on an older kernel the call fails and the pages
// fault one by one as before). Cost: the resize's value-initialisation, one madvise per large grow.

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpscope::core {

// Value-initialised new elements (the caller overwrites them); returns their storage.
template <typename T>
T* grow(std::vector<T>& v, std::size_t n) {
    const std::size_t old = v.size();
#ifdef MADV_POPULATE_WRITE
    constexpr std::uintptr_t kPage = 4096;
    if (old + n <= v.capacity() && n * sizeof(T) >= 16 * kPage) {
        // The whole pages inside [first new element, end of the new ones).
        auto* begin = reinterpret_cast<char*>(v.data() + old);
        auto* end = reinterpret_cast<char*>(v.data() + old + n);
        char* from = begin + (kPage - reinterpret_cast<std::uintptr_t>(begin) % kPage) % kPage;
        char* to = end - reinterpret_cast<std::uintptr_t>(end) % kPage;
        if (to > from) (void)madvise(from, static_cast<std::size_t>(to - from), MADV_POPULATE_WRITE);
    }
#endif
    v.resize(old + n);
    return v.data() + old;
}

}  // namespace tpscope::core
