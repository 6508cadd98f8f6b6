// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// libFuzzer target: the Nsight Systems SQLite reader on a database image in memory (SQLite's own
// corruption checks plus ours: schema variants, NULLs, absurd values).

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/io/import/nsys_reader.h"
#include "core/io/import/trace_part.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tpscope::core;
    auto db = SqliteDb::fromBytes(std::span<const unsigned char>(data, size));
    if (!db) return 0;
    auto part = readNsysDatabase(*db, KernelClassifier::builtin(), TaskControl{});
    if (!part) return 0;
    std::vector<TracePart> parts;
    parts.push_back(std::move(*part));
    auto trace = mergeParts(std::move(parts), nullptr);
    if (trace) (void)(*trace)->eventCount();
    return 0;
}
