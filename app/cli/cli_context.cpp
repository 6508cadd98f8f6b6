// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "cli_context.h"

#include <unistd.h>

#include <charconv>
#include <filesystem>

#include "core/workload/hf_config.h"

namespace tpscope::cli {

core::Result<core::Catalog> CliContext::catalog() const {
    auto catalog = core::Catalog::load(catalogFiles);
    if (!catalog) return fileError(catalog.error());
    return catalog;
}

int reportError(const core::Error& error) {
    std::cerr << "tpscope-cli: " << error.describe() << '\n';
    return error.code == core::ErrorCode::InvalidArgument || error.code == core::ErrorCode::NotFound ? kExitBadInput
                                                                                                     : kExitFailure;
}

core::Error fileError(core::Error error) {
    if (error.code == core::ErrorCode::NotFound || error.code == core::ErrorCode::InvalidArgument) {
        error.code = core::ErrorCode::IoError;
    }
    return error;
}

core::Error dataError(core::Error error, const std::string& file, const std::string& advice) {
    if (error.code == core::ErrorCode::NotFound || error.code == core::ErrorCode::InvalidArgument) {
        error.code = core::ErrorCode::ParseError;
    }
    if (error.context.find(file) == std::string::npos) {
        error.context = error.context.empty() ? file : file + ": " + error.context;
    }
    if (!advice.empty()) error.message += "; " + advice;
    return error;
}

void warn(const std::string& text) {
    std::cerr << "tpscope-cli: warning: " << text << '\n';
}

std::string countText(std::int64_t n, std::string_view one, std::string_view many) {
    std::string out = std::to_string(n) + " ";
    if (n == 1) return out.append(one);
    if (!many.empty()) return out.append(many);
    return out.append(one).append("s");
}

core::Status checkOutputPath(const std::string& path, const std::string& option) {
    if (path.empty()) return core::Ok{};
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!folder.empty() && !std::filesystem::is_directory(folder, ec)) {
        return core::makeError(core::ErrorCode::IoError, "folder '" + folder.string() + "' does not exist",
                               option + " " + path);
    }
    if (std::filesystem::is_directory(path, ec)) {
        return core::makeError(core::ErrorCode::IoError, "is a folder; give a file name", option + " " + path);
    }
    return core::Ok{};
}

ProgressLine::ProgressLine() : m_terminal(::isatty(STDERR_FILENO) == 1) {}

void ProgressLine::update(const std::string& text, bool milestone) {
    if (m_terminal) {
        std::cerr << '\r' << text << std::string(m_width > text.size() ? m_width - text.size() : 0, ' ') << std::flush;
        m_width = text.size();
    } else if (milestone) {
        std::cerr << text << '\n';
    }
}

void ProgressLine::finish() {
    if (m_terminal && m_width > 0) std::cerr << '\r' << std::string(m_width, ' ') << '\r' << std::flush;
    m_width = 0;
}

namespace {

CLI::Validator numberAtLeast(double lowest, bool inclusive, const std::string& words) {
    return CLI::Validator(
        [=](std::string& text) -> std::string {
            double value = 0;
            const char* end = text.data() + text.size();
            const auto [ptr, ec] = std::from_chars(text.data(), end, value);
            const bool ok = ec == std::errc() && ptr == end && (inclusive ? value >= lowest : value > lowest);
            return ok ? std::string() : "must be " + words + ", got '" + text + "'";
        },
        words == "a positive number" ? "POSITIVE" : "NONNEGATIVE");
}

}  // namespace

const CLI::Validator& positiveNumber() {
    static const CLI::Validator v = numberAtLeast(0, false, "a positive number");
    return v;
}

const CLI::Validator& nonNegativeNumber() {
    static const CLI::Validator v = numberAtLeast(0, true, "zero or more");
    return v;
}

void addJsonFlag(CLI::App& cmd, bool& json) {
    cmd.add_flag("--json", json, "Machine-readable output: one JSON object on stdout (docs/cli.md)");
}

void addKernelRulesOption(CLI::App& cmd, std::string& rulesFile) {
    cmd.add_option("--kernel-rules", rulesFile,
                   "Extra kernel classification rules (JSON like resources/kernel_rules.json, tried first)");
}

core::Result<std::optional<core::KernelClassifier>> classifierFor(const std::string& rulesFile) {
    if (rulesFile.empty()) return std::optional<core::KernelClassifier>{};
    core::KernelClassifier c = core::KernelClassifier::builtin();
    if (auto added = c.addRulesFile(rulesFile); !added) return fileError(added.error());
    return std::optional<core::KernelClassifier>(std::move(c));
}

void addModelOptions(CLI::App& cmd, ModelOptions& opts, bool required) {
    auto* model = cmd.add_option("--model", opts.preset,
                                 std::string("Model preset id (see 'tpscope-cli models'), or 'custom'") +
                                     (required ? " (required unless --model-config)" : ""));
    cmd.add_option("--model-file", opts.modelFile,
                   "JSON file of models in resources/models.json's shape (MoE, MLA and weight formats)");
    // --model is required unless --model-config names the model: checked in resolveModel, with CLI11's words.
    opts.required = required;
    opts.command = cmd.get_name();
    // No CLI11 ExistingFile check on the two files: a missing file is a failure of the work (exit 1,
    // "no such file" from the loader), not a wrong command line (CLI11's parse errors exit 2).
    cmd.add_option(
           "--model-config", opts.modelConfig,
           "A Hugging Face config.json (llama, mistral, qwen2, qwen3, mixtral, qwen3_moe, gpt_oss, deepseek_v3)")
        ->excludes(model);
    cmd.add_option("--routing-skew", opts.routingSkew,
                   "MoE routing skew (Zipf exponent over expert popularity; 0 = uniform, no published calibration)")
        ->check(CLI::Range(0.0, 8.0));
    auto dimension = [&cmd](const char* name, std::int64_t& value, const char* help) {
        cmd.add_option(name, value, help)->check(positiveNumber());
    };
    dimension("--hidden", opts.hidden, "Custom: hidden size");
    dimension("--ffn", opts.ffn, "Custom: MLP intermediate size");
    dimension("--heads", opts.heads, "Custom: attention heads");
    dimension("--kv-heads", opts.kvHeads, "Custom: key/value heads");
    dimension("--head-dim", opts.headDim, "Custom: head dimension (default hidden / heads)");
    dimension("--layers", opts.layers, "Custom: decoder layers");
    dimension("--vocab", opts.vocab, "Custom: vocabulary size");
}

core::Result<core::ModelSpec> resolveModel(const core::Catalog& builtin, const ModelOptions& opts) {
    core::Catalog catalog = builtin;
    const std::string& preset = opts.preset;
    if (!opts.modelFile.empty()) {
        if (auto added = catalog.addFile(opts.modelFile); !added) return fileError(added.error());
    }
    core::ModelSpec m;
    if (!opts.modelConfig.empty()) {
        auto read = core::loadHfConfig(opts.modelConfig);
        if (!read) return read.error().code == core::ErrorCode::NotFound ? fileError(read.error()) : read.error();
        m = *read;
    } else if (preset.empty()) {
        return core::makeError(core::ErrorCode::InvalidArgument,
                               "--model is required (a preset id, 'custom', or --model-config FILE)", opts.command);
    } else if (preset != "custom") {
        TPSCOPE_TRY_ASSIGN(m, catalog.model(preset));
    } else {
        m.id = "custom";
        m.name = "custom model";
    }
    const bool customised =
        opts.hidden || opts.ffn || opts.heads || opts.kvHeads || opts.headDim || opts.layers || opts.vocab;
    if (opts.hidden) m.hidden = opts.hidden;
    if (opts.ffn) m.ffn = opts.ffn;
    if (opts.heads) m.heads = opts.heads;
    if (opts.kvHeads) m.kvHeads = opts.kvHeads;
    if (opts.layers) m.layers = opts.layers;
    if (opts.vocab) m.vocab = opts.vocab;
    if (opts.headDim) {
        m.headDim = opts.headDim;
    } else if ((opts.hidden || opts.heads) && m.heads > 0 && m.hidden % m.heads == 0) {
        m.headDim = m.hidden / m.heads;
    }
    if (preset == "custom" && opts.modelConfig.empty() && m.kvHeads == 0) m.kvHeads = m.heads;
    if (customised && preset != "custom") m.id += "-custom";
    if (opts.routingSkew >= 0) m.moe.routingSkew = opts.routingSkew;
    if (auto status = core::validateModel(m); !status) {
        return core::makeError(status.error().code, status.error().message,
                               preset == "custom" ? "custom model (--hidden --ffn --heads --layers --vocab)" : m.id);
    }
    return m;
}

core::Result<core::Dtype> resolveDtype(const std::string& text) {
    const auto dtype = core::parseDtype(text);
    if (!dtype || core::dtypeBytes(*dtype) == 0) {
        return core::makeError(core::ErrorCode::InvalidArgument, "unknown dtype '" + text + "' (fp16, bf16, fp8, fp32)",
                               "--dtype");
    }
    return *dtype;
}

}  // namespace tpscope::cli
