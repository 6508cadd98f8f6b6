// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The preset catalog: models, GPUs and fabrics. Built-ins come from resources/*.json compiled into
// the library; users add files of the same shape (any of the keys "models", "gpus", "fabrics"), and
// an entry whose id already exists replaces the built-in one. Lookups of unknown ids fail with the
// list of known ids.

#include <string>
#include <string_view>
#include <vector>

#include "core/hw/gpu_spec.h"
#include "core/util/result.h"
#include "core/workload/model.h"

namespace tpscope::core {

class Catalog {
  public:
    // The compiled-in presets, plus every file named in the TPSCOPE_CATALOG environment variable
    // (paths separated by ':').
    static Result<Catalog> load(const std::vector<std::string>& extraFiles = {});
    static Result<Catalog> builtin();

    Status addFile(const std::string& path);
    Status addJson(std::string_view text, const std::string& context);

    Result<ModelSpec> model(std::string_view id) const;
    Result<GpuSpec> gpu(std::string_view id) const;
    Result<FabricSpec> fabric(std::string_view id) const;

    const std::vector<ModelSpec>& models() const { return m_models; }
    const std::vector<GpuSpec>& gpus() const { return m_gpus; }
    const std::vector<FabricSpec>& fabrics() const { return m_fabrics; }

  private:
    std::vector<ModelSpec> m_models;
    std::vector<GpuSpec> m_gpus;
    std::vector<FabricSpec> m_fabrics;
};

}  // namespace tpscope::core
