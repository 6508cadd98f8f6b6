# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
# One place for warning flags so every target reads the same.
add_library(tpscope_warnings INTERFACE)
target_compile_options(tpscope_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wno-missing-field-initializers>)

# CI builds with -Werror (preset "ci", or -DTPSCOPE_WERROR=ON) so a new warning fails the build there;
# local builds only warn, so a newer compiler's new warning never blocks a developer.
option(TPSCOPE_WERROR "Treat compiler warnings as errors" OFF)
if(TPSCOPE_WERROR)
  target_compile_options(tpscope_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>)
endif()
