// Loading a trace file for any subcommand (convert, info, analyze): every format core/io reads.

#include "cli_context.h"
#include "core/io/import/trace_reader.h"

namespace tpscope::cli {

core::Result<std::shared_ptr<core::Trace>> loadMutableTraceFile(const std::string& path, core::ImportStats* stats,
                                                                const core::KernelClassifier* classifier) {
    core::ImportStats local;
    core::ReadOptions options;
    options.classifier = classifier;
    auto trace = core::readTrace(path, options, stats != nullptr ? stats : &local);
    if (!trace) return trace.error();
    const core::ImportStats& s = stats != nullptr ? *stats : local;
    if (s.problemCount() > 0) {
        std::cerr << "tpscope-cli: note: " << path << ": " << s.problemCount()
                  << " records were repaired or skipped (see 'tpscope-cli info')\n";
    }
    return std::move(*trace);
}

core::Result<std::shared_ptr<const core::Trace>> loadTraceFile(const std::string& path, core::ImportStats* stats,
                                                               const core::KernelClassifier* classifier) {
    auto trace = loadMutableTraceFile(path, stats, classifier);
    if (!trace) return trace.error();
    return std::shared_ptr<const core::Trace>(std::move(*trace));
}

}  // namespace tpscope::cli
