// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_reader.h"

#include "core/io/import/json_trace_scanner.h"
#include "core/io/import/kineto_parser.h"

namespace tpscope::core {

namespace {

Result<TracePart> readSource(ByteSource& src, const KernelClassifier& classifier, const TaskControl& control,
                             double progressBase, double progressSpan) {
    TracePart part;
    part.path = src.path();
    part.source = src.path();
    part.stats.files = 1;
    KinetoParser parser(part, classifier);
    JsonTraceScanner scanner(src, control, progressBase, progressSpan);
    TPSCOPE_TRY(scanner.run(parser));
    part.stats.bytesRead = scanner.bytesScanned();
    TPSCOPE_TRY(parser.finish());
    return part;
}

}  // namespace

Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, double progressBase, double progressSpan) {
    auto src = ByteSource::open(path);
    if (!src) return src.error();
    return readSource(**src, classifier, control, progressBase, progressSpan);
}

Result<TracePart> readKinetoBuffer(std::string_view bytes, const std::string& name, const KernelClassifier& classifier,
                                   const TaskControl& control) {
    auto src = ByteSource::fromMemory(bytes, name);
    return readSource(*src, classifier, control, 0.0, 1.0);
}

}  // namespace tpscope::core
