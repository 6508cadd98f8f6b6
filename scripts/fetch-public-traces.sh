#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copyright (C) 2026 The tpscope authors
#
# Downloads the public real traces that tpscope's tests and docs use, from the repositories that
# publish them (each at a fixed commit), and verifies every file's sha256. They are other projects'
# files under their own licences (all MIT or MIT-style), so they are not part of tpscope's sources.
#   scripts/fetch-public-traces.sh [DIR]        default DIR: ./public-traces
# Then run the tests with them:  TPSCOPE_PUBLIC_TRACES=DIR ./setup.sh test
# Needs curl, wget or python3, and tar. Files already present with the right sha256 are kept.
set -euo pipefail
dest="${1:-public-traces}"

# folder/file | repository | commit | path in the repository | sha256 | licence
traces=(
  "hta-nccl_parser_config/nccl_data.json.gz|facebookresearch/HolisticTraceAnalysis|3cb077c83144b564244b9fe869d16d92582e27c3|tests/data/nccl_parser_config/nccl_data.json.gz|c1cf9c575fdcd7bdc6326ceab834f94b351f81ae55577a7471aa9e328fb8b58e|MIT"
  "hta-trace_filter/sampled_rank-0.json.gz|facebookresearch/HolisticTraceAnalysis|5c7898abbc52a1d4051ef6c93365477feb6c08a8|tests/data/trace_filter/sampled_rank-0.json.gz|71b98c30a2751cc56d9bf78f8fb76467acd56e0be6a1f0da23c600941d29aafd|MIT"
  "hta-trace_filter/sampled_rank-1.json.gz|facebookresearch/HolisticTraceAnalysis|5c7898abbc52a1d4051ef6c93365477feb6c08a8|tests/data/trace_filter/sampled_rank-1.json.gz|2f9a65fd5f319ec8e60468a22dc9a624eb4b40369c729f6f897259d587eca57e|MIT"
  "hta-trace_diff-control/control.json.gz|facebookresearch/HolisticTraceAnalysis|0c2146a8d003629a67f225528969752e1f0656aa|tests/data/trace_diff/control/control.json.gz|43ed872e4c5dc2e8da5946d761ed61923a75c6c799cc62be9e1c859d440a56fd|MIT"
  "hta-df_index_resolver/df_index_resolver.json.gz|facebookresearch/HolisticTraceAnalysis|0c2146a8d003629a67f225528969752e1f0656aa|tests/data/df_index_resolver/df_index_resolver.json.gz|769af9ab5262468eb7baf6a7bfdb138ef15542264c72c0c313758d951b16dc15|MIT"
  "tracelens-h100-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz|AMD-AGI/TraceLens|674f387829d98078b470bce9cea812907e14f4ee|tests/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz|7c4a4b817b79db0aa90f0df0368de88ac6f6e22261864b68fa88d0a3f9c5c63d|MIT"
  "pipit-nsys-sqlite/perlmutter-cloverleaf-cuda.sqlite|hpcgroup/pipit|ad30bc8498bdd16cc93b4eb8397d5d5bbae3e33b|pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite|91cedad6e198bfe2deb93f4c158c19e92a5c3968018fb7a1bbee1cceae453efb|MIT-style (University of Maryland)"
  "pipit-nsys-sqlite/saxpy-mpi-cuda_nsys_perlmutter0.sqlite|hpcgroup/pipit|f76ee853f0ce2a3ea7036e7f8dcd3267fc16623c|pipit/tests/data/saxpy-mpi-cuda_nsys_perlmutter0.sqlite|38a44cf4de905da66bd1f73f35b23fc4fa0e7f1979bf6f8468ba41fe8f6cf7c6|MIT-style (University of Maryland)"
  "vidur-network-profiling/a100_dgx/all_reduce.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/network/a100_dgx/all_reduce.csv|5ea3f3c229fee1ef70ea308881fff420d60ab6f30e86edda1ed6146b12eb28ef|MIT"
  "vidur-network-profiling/h100_dgx/all_reduce.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/network/h100_dgx/all_reduce.csv|7bc107da2ca2790ab5aa6585eba71603bf7359dd7e7cba1b586f885cae8bcb81|MIT"
  "vidur-network-profiling/a100_pairwise_nvlink/all_reduce.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/network/a100_pairwise_nvlink/all_reduce.csv|27428d884ae095800e81366c7517af93fd7476633cfe5e55bdd155e004485dab|MIT"
  "vidur-network-profiling/h100_pairwise_nvlink/all_reduce.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/network/h100_pairwise_nvlink/all_reduce.csv|8d68ee6979682726cd7c1d06b8a3656dea5bf53d074d62b3e080ed306b03c155|MIT"
  "tracelens-mi300-qwen/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz|AMD-AGI/TraceLens|171dd74721ca1ec45709e5805b68ae1f65e27811|tests/traces/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz|1bfbe813843070fcf629db2d67afbcabafe4e0a61bd1d30157b58a171f0664ac|MIT"
  "hta-amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz|facebookresearch/HolisticTraceAnalysis|f4d0062c382f42bd8a74838bcdad1916c7d5d2da|tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz|39fdab670f9e80a05ccc6d0d07611b3aeba1092fa10681d8dd08cea48d0488b5|MIT"
  "vidur-compute-profiling/a100/Qwen/Qwen-72B/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/Qwen/Qwen-72B/mlp.csv|81a4a7b16a99e256f1f47cc25c3d098ecf4ff7ab2260e921759dd7c06e93cce9|MIT"
  "vidur-compute-profiling/a100/codellama/CodeLlama-34b-Instruct-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/codellama/CodeLlama-34b-Instruct-hf/mlp.csv|9ba6058c55b7c291ccdf9cd445655de93d3a3dfc0fdd8b08f654170413906dce|MIT"
  "vidur-compute-profiling/a100/internlm/internlm-20b/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/internlm/internlm-20b/mlp.csv|efdad580da6ecb50e3716543439a31fc71484de365e0f8cfe9430c5e4d5487c3|MIT"
  "vidur-compute-profiling/a100/meta-llama/Llama-2-70b-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/meta-llama/Llama-2-70b-hf/mlp.csv|d690ce601f94ab80586e1d5a6a92ea0d64114dc3e0895bf32b3bee270f3d9b7f|MIT"
  "vidur-compute-profiling/a100/meta-llama/Llama-2-7b-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/meta-llama/Llama-2-7b-hf/mlp.csv|2cfacca979f32e83257753cf6fd815a71af8ba9a7a9d0643b18d9f54e8a37688|MIT"
  "vidur-compute-profiling/a100/meta-llama/Meta-Llama-3-70B/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/meta-llama/Meta-Llama-3-70B/mlp.csv|6929c6f4afae67f7d91a7938ebdb350a47923b077a1b1c2a4e1911f5ec9e601f|MIT"
  "vidur-compute-profiling/a100/meta-llama/Meta-Llama-3-8B/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/meta-llama/Meta-Llama-3-8B/mlp.csv|98c26488298e324e89db7349e213f75c856ae83dc6b17548a68636d2cb5efff0|MIT"
  "vidur-compute-profiling/a100/microsoft/phi-2/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/a100/microsoft/phi-2/mlp.csv|98a16c552786c8dd3d935d1d8c06434d0ae7c628b9c23ac26fbde551b272bde6|MIT"
  "vidur-compute-profiling/h100/Qwen/Qwen-72B/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/Qwen/Qwen-72B/mlp.csv|8056ad93e8dec592de1cc253edb228d1c475646d98db0d113f96b4693f91bb22|MIT"
  "vidur-compute-profiling/h100/codellama/CodeLlama-34b-Instruct-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/codellama/CodeLlama-34b-Instruct-hf/mlp.csv|f5ddfd2ab5a8342c34866f53214a4a4f8f535369c29159da0be2d524bcaf00a5|MIT"
  "vidur-compute-profiling/h100/internlm/internlm-20b/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/internlm/internlm-20b/mlp.csv|8d2d37e685652600a4dfc2d91be74a1f197c01f0b41c532443479507446039aa|MIT"
  "vidur-compute-profiling/h100/meta-llama/Llama-2-70b-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/meta-llama/Llama-2-70b-hf/mlp.csv|fb3581ade7c02caab8a0f7d1ca1ad06a7b0fbac3d9f32a9ed46ae55d95fd6bb3|MIT"
  "vidur-compute-profiling/h100/meta-llama/Llama-2-7b-hf/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/meta-llama/Llama-2-7b-hf/mlp.csv|b1a2def08857d10e5f66c3b5b2d046b6e8caed5c30b2bc920a0462598e3b2a59|MIT"
  "vidur-compute-profiling/h100/microsoft/phi-2/mlp.csv|microsoft/vidur|7d47513363ec447a741ac5e47241580b47724fbf|data/profiling/compute/h100/microsoft/phi-2/mlp.csv|dfbf4965acfdd01a5f32f8326873df299a226e95bdd496dac99e766f952430fc|MIT"
  "vidur-cpu-overheads/a100/cpu_overheads.csv|microsoft/vidur|6d98aa8f71696520acc603d87439e77cc78160a7|data/profiling/a100/cpu_overheads.csv|79694db647120090f96192625c70d74dc79bd3c7e0bfcb053726413e2a25c548|MIT"
)
# The eight ranks of one PARAM DLRM step come in one tarball; each extracted file is verified.
param_repo="facebookresearch/param"
param_commit="37f542b3424716e67aedae3627364ba1ffe71372"
param_path="et_replay/tests/data/dlrm_kineto.tar.gz"
param_files=(
  "worker0_step_12.1694128201545.pt.trace.json|c557c7023ec6bbc114cbc3eef48870b03ae43395852057561a004ccb4171e9a4"
  "worker1_step_12.1694128201556.pt.trace.json|8b0cb7201603dd9161ec25568f7b3066182fc4a437e6f760299a9b98db1f5f52"
  "worker2_step_12.1694128201554.pt.trace.json|273afd40b147b5a7640e09b1a4d32181750eb0244693cfd313fcd996676ad9c9"
  "worker3_step_12.1694128201557.pt.trace.json|2fb6093f90d39f0fe2d6acaa854b14329d85cf29f122d6435fa3444b393f8c7a"
  "worker4_step_12.1694128201547.pt.trace.json|7c7cdf660f12097abd1abbe87448eecec7de362051d4049dd2a60f65a0fe80ea"
  "worker5_step_12.1694128201549.pt.trace.json|2c7af1f4566f871d4e164b81dbb635a6a1dad97f45187613d5b4f8d9aab6ec79"
  "worker6_step_12.1694128201553.pt.trace.json|2341786c77d87fa460f1ef52ede9555774b1fa2210acbc603ef7d0139b34429f"
  "worker7_step_12.1694128201553.pt.trace.json|a7225d0782bbf039e4a1513f3fdc1e2832b16d7c2c1fab9955a6f5caf12bf975"
)

download() {  # $1: URL, $2: output file
  if command -v curl >/dev/null; then
    curl -fsSL --retry 2 -o "$2" "$1"
  elif command -v wget >/dev/null; then
    wget -q -O "$2" "$1"
  else
    python3 -c 'import sys, urllib.request; urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$1" "$2"
  fi
}
raw_url() { echo "https://raw.githubusercontent.com/$1/$2/$3"; }
sha_ok() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$2" ]; }

mkdir -p "$dest"
failed=0
for row in "${traces[@]}"; do
  IFS='|' read -r file repo commit path sha licence <<<"$row"
  out="$dest/$file"
  if sha_ok "$out" "$sha"; then echo "ok      $file (already there)"; continue; fi
  mkdir -p "$(dirname "$out")"
  if download "$(raw_url "$repo" "$commit" "$path")" "$out.part" && sha_ok "$out.part" "$sha"; then
    mv "$out.part" "$out"
    echo "fetched $file  ($repo @ ${commit:0:12}, $licence)"
  else
    rm -f "$out.part"
    echo "FAILED  $file: $repo @ $commit ($path) did not download or its sha256 differs" >&2
    failed=1
  fi
done

param_dir="$dest/param-dlrm_kineto-8rank"
mkdir -p "$param_dir"
param_missing=0
for row in "${param_files[@]}"; do sha_ok "$param_dir/${row%%|*}" "${row##*|}" || param_missing=1; done
if [ "$param_missing" -eq 1 ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  if download "$(raw_url "$param_repo" "$param_commit" "$param_path")" "$work/dlrm_kineto.tar.gz" &&
    tar -xzf "$work/dlrm_kineto.tar.gz" -C "$work"; then
    for row in "${param_files[@]}"; do
      name="${row%%|*}"
      found=$(find "$work" -type f -name "$name" | head -1)
      if [ -n "$found" ] && sha_ok "$found" "${row##*|}"; then
        cp "$found" "$param_dir/$name"
        echo "fetched param-dlrm_kineto-8rank/$name  ($param_repo @ ${param_commit:0:12}, MIT)"
      else
        echo "FAILED  param-dlrm_kineto-8rank/$name: not in the tarball or its sha256 differs" >&2
        failed=1
      fi
    done
  else
    echo "FAILED  $param_repo @ $param_commit ($param_path) did not download or extract" >&2
    failed=1
  fi
else
  echo "ok      param-dlrm_kineto-8rank (8 files already there)"
fi

if [ "$failed" -eq 0 ]; then
  echo "fetch-public-traces: every file verified in $dest; run the tests with TPSCOPE_PUBLIC_TRACES=$(cd "$dest" && pwd)"
else
  echo "fetch-public-traces: some files are missing (above); the tests that need them skip" >&2
fi
exit "$failed"
