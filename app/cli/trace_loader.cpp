// Temporary trace loader: the analysis commands are wired to loadTraceFile(), which core/io
// provides once merged (Kineto/Chrome JSON, nsys SQLite, .tpscope workspaces). Until then every
// existing file gets one clear "not supported yet" error instead of a wrong answer.

#include <filesystem>

#include "cli_context.h"

namespace tpscope::cli {

core::Result<std::shared_ptr<const core::Trace>> loadTraceFile(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return core::makeError(core::ErrorCode::NotFound, "file not found", path);
    return core::makeError(core::ErrorCode::Unsupported,
                           "format not supported yet: this build has no trace reader (Kineto JSON, nsys SQLite)", path);
}

}  // namespace tpscope::cli
