# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# Writes OUTPUT: a C++ file defining tpscope::core::embeddedResource(name) over the INPUTS files.
set(body "#include <string_view>\n\nnamespace tpscope::core {\n\nstd::string_view embeddedResource(std::string_view name) {\n")
string(REPLACE "|" ";" INPUTS "${INPUTS}")
foreach(input IN LISTS INPUTS)
  get_filename_component(name ${input} NAME)
  file(READ ${input} content)
  # Braced like hand-written code, so the whole-tree clang-tidy run passes over the generated file too.
  string(APPEND body "    if (name == \"${name}\") {\n        return R\"tpscope_embed(${content})tpscope_embed\";\n    }\n")
endforeach()
string(APPEND body "    return {};\n}\n\n}  // namespace tpscope::core\n")
file(WRITE ${OUTPUT} "${body}")
