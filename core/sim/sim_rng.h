// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// A small, fast, portable random source for the simulator: xoshiro256** seeded through splitmix64.
// std::normal_distribution differs between standard libraries; this does not, so a seed gives the
// same trace on every platform. O(1) per draw, no allocation.

#include <array>
#include <cmath>
#include <cstdint>

namespace tpscope::core::sim {

class SimRng {
  public:
    explicit SimRng(std::uint64_t seed, std::uint64_t stream = 0) {
        std::uint64_t x = seed ^ (0x9E3779B97F4A7C15ULL * (stream + 1));
        for (auto& s : m_s) s = splitmix(x);
    }

    std::uint64_t next() {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }

    // Uniform in (0, 1): never 0, so log() is safe.
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) * (1.0 / 9007199254740992.0); }

    // Standard normal (Box-Muller, the second value cached).
    double normal() {
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        const double r = std::sqrt(-2.0 * std::log(uniform()));
        const double theta = 6.283185307179586 * uniform();
        m_spare = r * std::sin(theta);
        m_hasSpare = true;
        return r * std::cos(theta);
    }

    // Exponential with the given mean (0 when mean is 0).
    double exponential(double mean) { return mean > 0 ? -mean * std::log(uniform()) : 0.0; }

  private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    static std::uint64_t splitmix(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    std::array<std::uint64_t, 4> m_s{};
    double m_spare = 0;
    bool m_hasSpare = false;
};

}  // namespace tpscope::core::sim
