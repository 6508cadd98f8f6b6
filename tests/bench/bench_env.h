// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Sizes the benchmarks take from the environment, so that a large run (1 GB of JSON, 100 M events)
// can be asked for on demand while CI keeps the small defaults.

#include <cstdint>
#include <cstdlib>

namespace tpscope::bench {

// The variable's value as a whole number; `fallback` when it is unset or empty.
inline std::uint64_t envNumber(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace tpscope::bench
