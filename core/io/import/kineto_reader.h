// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Kineto (PyTorch profiler) and Chrome trace JSON, .json or .json.gz: one file -> one TracePart.
//
// Mapping:
//   cat kernel / gpu_memcpy / gpu_memset ("X", or a "B"/"E" pair) -> events of device (args.device,
//     else the numeric pid) on stream (args.stream, else tid). Kernel kind comes from the
//     KernelClassifier by name; a collective's op/algo/proto/dtype from its name, overridden by the
//     kernel's args ("Collective name", "In/Out msg nelems", "dtype", "Group size", "Process Group
//     Name/Description"). A collective without size args takes it from its CPU op: by "External id"
//     (record_param_comms args) or, in older traces, from the nccl:* user_annotation enclosing the
//     cudaLaunchKernel with the same correlation id ("Input Dims" x "Input type"). That CPU side
//     also names the collective of a SendRecv kernel (NCCL's all_to_all, scatter, gather).
//     Collective bytes = max(in, out) elements x dtype size (nccl-tests "size").
//   cat gpu_user_annotation -> ranges of that device; user_annotation (CPU) -> ranges on every rank
//     of the file, except those mirrored on the GPU (same External id), which the GPU copy replaces.
//   "M" thread_name -> stream labels; distributedInfo.rank (else a rank-N / workerN file name) ->
//     rank; deviceProperties -> GPU names; baseTimeNanoseconds -> time base (ts relative to it),
//     otherwise ts are epoch µs. tpscope's own export adds a "tpscope" member (exact ranks, hosts,
//     clock offsets, stream labels, origin, metadata), which makes its round trip lossless.
//   CPU ops, runtime calls, flows, python frames: counted in ImportStats and skipped.
// Cost: one streaming pass; memory ~ kept events + one ~128 KB batch and its DOM (JsonTraceScanner).

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "core/io/import/trace_part.h"
#include "core/trace/kernel_classifier.h"
#include "core/util/result.h"
#include "core/util/task_control.h"

namespace tpscope::core {

// What one file's parse leaves for the next: the JSON parser's buffers (a few MB for the ~128 KB
// batches), the scanner's buffer and the launch links' two long lists (each ~0.7 MB a rank of k8),
// which fresh ones would fault in page by page for every file (on a VM about 6-10 µs a page, 5 %
// of a multi-file import). Shared by the threads of one multi-file read, each file taking a set
// and giving it back; they are freed with the pool.
class KinetoParserPool {
  public:
    struct Parser;  // defined in kineto_reader.cpp, so that this header does not carry simdjson
    KinetoParserPool();
    ~KinetoParserPool();
    KinetoParserPool(const KinetoParserPool&) = delete;
    KinetoParserPool& operator=(const KinetoParserPool&) = delete;

    std::unique_ptr<Parser> take();
    void giveBack(std::unique_ptr<Parser> parser);

  private:
    std::mutex m_mutex;
    std::vector<std::unique_ptr<Parser>> m_free;
};

Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, double progressBase = 0.0, double progressSpan = 1.0);
// The same with a parser from `pool` (returned to it after the file).
Result<TracePart> readKinetoFile(const std::string& path, const KernelClassifier& classifier,
                                 const TaskControl& control, KinetoParserPool& pool);
// The same from bytes in memory (.json text or gzip); `name` stands for the path in messages.
Result<TracePart> readKinetoBuffer(std::string_view bytes, const std::string& name, const KernelClassifier& classifier,
                                   const TaskControl& control = {});

}  // namespace tpscope::core
