// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// The stored analysis' last section (stored_analysis_fields.h): each rank's exposed-communication
// intervals (core/analysis/exposed_comm.h) as the timeline draws them. They depend on the trace alone,
// but finding them walks every kernel of every rank (at 100 M events ~1.5 s of CPU, the largest part of
// the timeline's rows); stored beside the analysis, under its key, they are copied back instead.
//
// Input: one finalized EventColumns a rank. Mapping: the rank's event count, then its events as the
// workspace stores a stream (codec/event_codec.h): chunks of up to codec::kChunkEvents, in block form
// where the columns have one (they always do for intervals of one label and no correlation ids, unless a
// duration needs more than 32 bits), else as varints, each chunk a text item followed by a mark.
// Reading decodes the chunks with codec::decodeEvents, which checks them as it does a stream's.
// Cost: each column's bytes copied once each way (block form); 20 M intervals at 100 M events.

#include <algorithm>

#include "core/io/codec/event_codec.h"
#include "core/io/workspace/stored_analysis_fields.h"

namespace tpscope::core::stored {

void writeExposedCommSection(StoredOut& out, std::span<const EventColumns* const> ranks) {
    out.u(ranks.size());
    for (const EventColumns* columns : ranks) {
        const EventColumns& events = *columns;
        out.u(events.size());
        const bool blocks = events.hasBlockForm();
        std::size_t labels = 0;  // those the chunks so far carried
        for (std::size_t first = 0; first < events.size(); first += codec::kChunkEvents) {
            const std::size_t last = std::min(events.size(), first + codec::kChunkEvents);
            if (blocks) {
                const std::size_t from = labels;
                labels = std::max(labels, events.labelsReached(first, last));
                out.text(codec::encodeEventBlocks(events, first, last, from, labels));
            } else {
                out.text(codec::encodeEvents(events, first, last));
            }
            out.mark();
        }
        out.mark();
    }
}

void readExposedCommSection(StoredIn& in, const TraceShape& shape, std::vector<EventColumns>& ranks) {
    ranks.clear();
    ranks.resize(in.count());
    // None at all: left out of a blob that was too large with them (encodeStoredAnalysis).
    if (!ranks.empty() && ranks.size() != shape.ranks) in.fail();
    codec::EventChunkScratch scratch;
    for (auto& events : ranks) {
        // No room is made from the count: each chunk is checked against its bytes as it is appended, so
        // a count that the chunks do not hold fails at the first chunk missing.
        const std::uint64_t count = in.u();
        for (std::uint64_t first = 0; in.ok() && first < count; first += codec::kChunkEvents) {
            const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(count - first, codec::kChunkEvents));
            const std::string_view chunk = in.textView();
            if (!in.ok() || !codec::decodeEvents(chunk, n, shape.names, shape.payloads, events, scratch)) in.fail();
            in.mark();
        }
        in.mark();
        if (!in.ok()) return;
        events.finalize();
    }
}

}  // namespace tpscope::core::stored
