// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/io/import/kineto_reader.h"

#include <simdjson.h>

#include <utility>

#include "core/io/import/json_trace_scanner.h"
#include "core/io/import/kineto_parser.h"

namespace tpscope::core {

// A parse's reusable buffers: the JSON parser's, the scanner's, the links' lists.
struct KinetoParserPool::Parser {
    simdjson::dom::parser batches;
    std::vector<char> scanBuffer;
    KinetoLinks::Buffers links;
};

namespace {

Result<TracePart> readSource(ByteSource& src, const KernelClassifier& classifier, const TaskControl& control,
                             double progressBase, double progressSpan, KinetoParserPool::Parser& buffers) {
    TracePart part;
    part.path = src.path();
    part.source = src.path();
    part.stats.files = 1;
    KinetoParser parser(part, classifier, buffers.batches);
    parser.adoptLinkBuffers(std::move(buffers.links));
    JsonTraceScanner scanner(src, control, progressBase, progressSpan, &buffers.scanBuffer);
    auto status = scanner.run(parser);
    part.stats.bytesRead = scanner.bytesScanned();
    if (status) status = parser.finish();
    buffers.links = parser.releaseLinkBuffers();
    if (!status) return status.error();
    return part;
}

}  // namespace

KinetoParserPool::KinetoParserPool() = default;
KinetoParserPool::~KinetoParserPool() = default;

std::unique_ptr<KinetoParserPool::Parser> KinetoParserPool::take() {
    std::lock_guard lock(m_mutex);
    if (m_free.empty()) return std::make_unique<Parser>();
    auto parser = std::move(m_free.back());
    m_free.pop_back();
    return parser;
}

void KinetoParserPool::giveBack(std::unique_ptr<Parser> parser) {
    std::lock_guard lock(m_mutex);
    m_free.push_back(std::move(parser));
}

Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, double progressBase, double progressSpan) {
    auto src = ByteSource::open(path);
    if (!src) return src.error();
    KinetoParserPool::Parser buffers;
    return readSource(**src, classifier, control, progressBase, progressSpan, buffers);
}

Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, KinetoParserPool& pool) {
    auto src = ByteSource::open(path);
    if (!src) return src.error();
    auto parser = pool.take();
    auto part = readSource(**src, classifier, control, 0.0, 1.0, *parser);
    pool.giveBack(std::move(parser));
    return part;
}

Result<TracePart> readKinetoBuffer(std::string_view bytes, const std::string& name, const KernelClassifier& classifier,
                                   const TaskControl& control) {
    auto src = ByteSource::fromMemory(bytes, name);
    KinetoParserPool::Parser buffers;
    return readSource(*src, classifier, control, 0.0, 1.0, buffers);
}

}  // namespace tpscope::core
