// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/build_info.h"

#include "tpscope_build_info.h"  // generated at build time by cmake/BuildInfo.cmake

namespace tpscope::core {

std::string_view projectVersion() {
    return TPSCOPE_BUILD_VERSION;
}

std::string_view buildCommit() {
    return TPSCOPE_BUILD_COMMIT;
}

std::string versionText(std::string_view program) {
    std::string text;
    text.append(program).append(" ").append(projectVersion());
    const std::string_view commit = buildCommit();
    text.append(commit == "release" ? std::string(" (release)") : " (commit " + std::string(commit) + ")");
    text.append("\nLicence ")
        .append(kLicenceSpdx)
        .append(": GNU GPL version 3 or later <https://www.gnu.org/licenses/gpl.html>.\n");
    text.append("This is free software: you are free to change and redistribute it.\n");
    text.append("There is NO WARRANTY, to the extent permitted by law.\n");
    return text;
}

}  // namespace tpscope::core
