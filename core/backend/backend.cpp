// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "core/backend/backend.h"

#include <mutex>

namespace tpscope::core {

namespace {

std::mutex& registryMutex() {
    static std::mutex m;
    return m;
}

std::shared_ptr<Backend>& registry() {
    static std::shared_ptr<Backend> backend;
    return backend;
}

}  // namespace

void registerLocalBackend(std::shared_ptr<Backend> backend) {
    const std::lock_guard lock(registryMutex());
    registry() = std::move(backend);
}

std::shared_ptr<Backend> localBackend() {
    const std::lock_guard lock(registryMutex());
    return registry();
}

}  // namespace tpscope::core
