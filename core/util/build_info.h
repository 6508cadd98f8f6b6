// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What a binary is and where it came from: the project version, the git commit it was built from
// ("release" for a build from a tarball) and its licence, as `--version` and the About box print them.

#include <string>
#include <string_view>

namespace tpscope::core {

inline constexpr std::string_view kLicenceSpdx = "GPL-3.0-or-later";

std::string_view projectVersion();  // project(VERSION) in CMakeLists.txt
std::string_view buildCommit();     // "1a2b3c4d5e6f", "1a2b3c4d5e6f-modified" or "release"

// GNU's --version form: "<program> <version> (commit <commit>)", then the licence and the warranty
// lines, each ending in '\n'.
std::string versionText(std::string_view program);

}  // namespace tpscope::core
