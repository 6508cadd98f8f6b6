// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Strong integer ids: a RankId cannot be passed where a StreamId is expected.

#include <compare>
#include <cstdint>
#include <functional>

namespace tpscope::core {

template <typename Tag, typename Rep = std::uint32_t>
struct StrongId {
    Rep value{};
    constexpr StrongId() = default;
    constexpr explicit StrongId(Rep v) : value(v) {}
    constexpr auto operator<=>(const StrongId&) const = default;
};

using RankId = StrongId<struct RankTag>;
using StreamId = StrongId<struct StreamTag, std::uint64_t>;  // native CUDA stream id
using NameId = StrongId<struct NameTag>;
using LayerIndex = StrongId<struct LayerTag>;

}  // namespace tpscope::core

template <typename Tag, typename Rep>
struct std::hash<tpscope::core::StrongId<Tag, Rep>> {
    std::size_t operator()(const tpscope::core::StrongId<Tag, Rep>& id) const noexcept {
        return std::hash<Rep>{}(id.value);
    }
};
