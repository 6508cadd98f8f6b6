#include "cli_context.h"

namespace tpscope::cli {

int reportError(const core::Error& error) {
    std::cerr << "tpscope-cli: " << error.describe() << '\n';
    return error.code == core::ErrorCode::InvalidArgument || error.code == core::ErrorCode::NotFound ? kExitBadInput
                                                                                                     : kExitFailure;
}

void addModelOptions(CLI::App& cmd, ModelOptions& opts, bool required) {
    auto* model = cmd.add_option("--model", opts.preset, "Model preset id (see 'tpscope-cli models'), or 'custom'");
    if (required) model->required();
    cmd.add_option("--hidden", opts.hidden, "Custom: hidden size");
    cmd.add_option("--ffn", opts.ffn, "Custom: MLP intermediate size");
    cmd.add_option("--heads", opts.heads, "Custom: attention heads");
    cmd.add_option("--kv-heads", opts.kvHeads, "Custom: key/value heads");
    cmd.add_option("--head-dim", opts.headDim, "Custom: head dimension (default hidden / heads)");
    cmd.add_option("--layers", opts.layers, "Custom: decoder layers");
    cmd.add_option("--vocab", opts.vocab, "Custom: vocabulary size");
}

core::Result<core::ModelSpec> resolveModel(const core::Catalog& catalog, const ModelOptions& opts) {
    core::ModelSpec m;
    if (opts.preset != "custom") {
        TPSCOPE_TRY_ASSIGN(m, catalog.model(opts.preset));
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
    if (opts.preset == "custom" && m.kvHeads == 0) m.kvHeads = m.heads;
    if (customised && opts.preset != "custom") m.id += "-custom";
    if (auto status = core::validateModel(m); !status) {
        return core::makeError(
            status.error().code, status.error().message,
            opts.preset == "custom" ? "custom model (--hidden --ffn --heads --layers --vocab)" : m.id);
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
