// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/util/freed_memory.h"

#include <cstdlib>  // defines __GLIBC__ on glibc, which the #if below asks

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace tpscope::core {

void returnFreedMemory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

}  // namespace tpscope::core
