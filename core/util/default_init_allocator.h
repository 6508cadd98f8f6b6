// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// An allocator whose resize() leaves new elements default-initialised instead of zeroed: for large
// lists whose every element is written afterwards, often from several threads. std::vector's
// resize(n) value-initialises (a serial memset of the whole block), and on a block glibc maps
// afresh that memset is also where every page is first faulted, one thread alone. With this
// allocator the pages are faulted where each element is first written. Only for element types
// whose default initialisation leaves the bytes as they are (no default member initialisers).
// Cost: none beyond std::allocator's.

#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace tpscope::core {

template <class T, class Base = std::allocator<T>>
class DefaultInitAllocator : public Base {
    using Traits = std::allocator_traits<Base>;

  public:
    template <class U>
    struct rebind {
        using other = DefaultInitAllocator<U, typename Traits::template rebind_alloc<U>>;
    };
    using Base::Base;

    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;  // default-, not value-initialised
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        Traits::construct(static_cast<Base&>(*this), p, std::forward<Args>(args)...);
    }
};

}  // namespace tpscope::core
