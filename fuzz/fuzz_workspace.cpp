// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// libFuzzer target: the workspace loader. A whole workspace image is loaded from a file on tmpfs
// (SQLite + our blob decoders), then its first run's opening excerpt; inputs starting with 'D' instead
// feed the blob decoders directly (byte 1 picks names / payloads / ranges / events / excerpt totals /
// a stored analysis' section),
// which reaches them far more often; inputs starting with 'C' feed the blob decompression (zstd frame
// or zlib stream), bytes 1-3 the declared size.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "core/io/codec/event_codec.h"
#include "core/io/workspace/stored_analysis.h"
#include "core/io/workspace/stored_analysis_fields.h"
#include "core/io/workspace/workspace.h"
#include "core/io/workspace/workspace_excerpt.h"

namespace {

void decodeDirectly(std::string_view raw, std::uint8_t which) {
    using namespace tpscope::core;
    StringTable names;
    PayloadTable payloads;
    switch (which % 6) {
        case 0:
            (void)codec::decodeNames(raw, names);
            break;
        case 1:
            (void)codec::decodePayloads(raw, 16, payloads);
            break;
        case 2: {
            NvtxRanges ranges;
            (void)codec::decodeRanges(raw, 16, ranges);
            break;
        }
        case 5: {
            // A stored analysis' section (stored_analysis_fields.h) against a small trace's shape.
            stored::TraceShape shape;
            shape.ranks = 2;
            shape.names = 8;
            shape.streamEvents = {{16, 16}, {16}};
            shape.payloads = 4;
            stored::StoredIn in(raw);
            const std::size_t section = which / 6 % stored::kSectionCount;
            if (section == stored::kExposedComm) {
                StoredExposedComm exposed;
                stored::readExposedCommSection(in, shape, exposed);
                break;
            }
            StoredAnalysis parts;
            stored::readSection(section, in, shape, parts.analysis, parts.clock);
            break;
        }
        case 4: {
            std::vector<analysis::ExcerptRankTotals> totals;
            (void)decodeExcerptTotals(raw, raw.empty() ? 0 : static_cast<unsigned char>(raw[0]) % 16, totals);
            break;
        }
        default: {
            EventColumns events;
            // A varint chunk opens with its count, one in block form with 0 and then its count's low byte.
            std::size_t count = raw.empty() ? 0 : static_cast<unsigned char>(raw[0]);
            if (count == 0 && raw.size() > 1) count = static_cast<unsigned char>(raw[1]);
            if (codec::decodeEvents(raw, count, 16, 16, events)) events.finalize();
            break;
        }
    }
}

const std::string& scratchPath() {
    static const std::string path = "/dev/shm/tpscope-fuzz-workspace-" + std::to_string(::getpid()) + ".tpscope";
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tpscope::core;
    if (size >= 4 && data[0] == 'C') {
        const std::uint64_t declared = data[1] | (std::uint64_t{data[2]} << 8) | (std::uint64_t{data[3]} << 16);
        (void)codec::decompress(std::span<const unsigned char>(data + 4, size - 4), declared, "fuzz");
        return 0;
    }
    if (size >= 2 && data[0] == 'D') {
        decodeDirectly(std::string_view(reinterpret_cast<const char*>(data + 2), size - 2), data[1]);
        return 0;
    }
    std::FILE* f = std::fopen(scratchPath().c_str(), "wb");
    if (f == nullptr) return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    WorkspaceOptions options;
    options.threads = 1;
    auto ws = loadWorkspace(scratchPath(), options);
    if (ws) {
        for (const auto& run : ws->runs) (void)run.trace->eventCount();
    }
    if (auto excerpt = loadWorkspaceExcerpt(scratchPath(), 0, options); excerpt && *excerpt) {
        (void)(*excerpt)->events->eventCount();
    }
    return 0;
}
