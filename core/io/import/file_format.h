// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// What a file is, decided by its first bytes (gzip magic, '{' / '[', the SQLite header), not by its
// name, so a PNG renamed .json or a workspace renamed .sqlite gets the right message. SQLite files are
// told apart later by their tables (workspace, Nsight Systems export, something else).

#include <string>
#include <string_view>

#include "core/util/result.h"

namespace tpscope::core {

enum class FileFormat { Json, GzipJson, Sqlite };

// Errors: missing file, a folder, an empty file, or content that is none of the above (with what it
// looks like: PNG, ZIP, PDF, binary, text).
Result<FileFormat> detectFileFormat(const std::string& path);
std::string_view describeMagic(std::string_view firstBytes);  // "a PNG image", "binary data", ...

}  // namespace tpscope::core
