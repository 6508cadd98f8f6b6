// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The stable identity of a run in the document (DESIGN.md §8): assigned once when the run is added,
// never reused, never a row. Views, models and workers refer to runs by it, so a row that moved or a
// run that was removed can never receive another run's result.

#include <QDataStream>
#include <QHashFunctions>

#include <cstdint>
#include <functional>

namespace tpscope::ui {

enum class RunId : std::uint64_t { None = 0 };

inline size_t qHash(RunId id, size_t seed = 0) noexcept {
    return ::qHash(static_cast<std::uint64_t>(id), seed);
}

// Qt's generic enum streaming does not compile for std::uint64_t (unsigned long, not quint64) on
// Linux; signals carrying a RunId need these.
inline QDataStream& operator<<(QDataStream& s, RunId id) {
    return s << static_cast<quint64>(id);
}
inline QDataStream& operator>>(QDataStream& s, RunId& id) {
    quint64 v = 0;
    s >> v;
    id = static_cast<RunId>(v);
    return s;
}

}  // namespace tpscope::ui

template <>
struct std::hash<tpscope::ui::RunId> {
    std::size_t operator()(tpscope::ui::RunId id) const noexcept {
        return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(id));
    }
};
