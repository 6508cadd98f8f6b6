// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The optional MPI side of a capture launched with `mpirun -np N` or `srun`: process rank, host,
// broadcast of the NCCL unique id, per-host clock offsets, and gathering bytes on rank 0.
// Every MPI call returns errors (MPI_ERRORS_RETURN) that become one core::Error.
//
// Clock offsets: rank 0 ping-pongs with the first process of every other host; of `rounds`
// exchanges the one with the shortest round trip gives offset = (t0 + t1) / 2 - t_remote, the
// value added to that host's clock to reach rank 0's (error bounded by half that round trip).
// Processes on one host share its offset. O(hosts x rounds) messages.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/util/result.h"

namespace tpscope::gpu {

class MpiContext {
  public:
    // (Whether a launcher started this process: gpu/launch_env.h, hasProcessManager.)
    // MPI_Init_thread (funneled: only the main thread calls MPI). One context per process.
    static core::Result<std::unique_ptr<MpiContext>> init();
    ~MpiContext();  // MPI_Finalize
    MpiContext(const MpiContext&) = delete;
    MpiContext& operator=(const MpiContext&) = delete;

    int rank() const { return m_rank; }
    int size() const { return m_size; }
    int localRank() const { return m_localRank; }  // among the processes on this host
    int localSize() const { return m_localSize; }
    const std::string& host() const { return m_host; }
    // Hosts are grouped by name for the clock offsets; a test may give each process its own.
    void setHostName(std::string host) { m_host = std::move(host); }

    // Root's bytes replace everyone else's.
    core::Status broadcast(std::vector<std::uint8_t>& bytes, int root = 0) const;
    // Offset of every process's host clock (index = world rank), known on every process.
    core::Result<std::vector<std::int64_t>> clockOffsets(const std::function<std::int64_t()>& clockNs,
                                                         int rounds) const;
    // Every process's bytes, in world-rank order, on root (empty elsewhere).
    core::Result<std::vector<std::vector<std::uint8_t>>> gather(const std::vector<std::uint8_t>& mine,
                                                                int root = 0) const;
    // Failure propagation while the GPUs run (main thread, no collective): announceFailure() tells
    // every other process at once; peerFailed() polls whether any other process announced one.
    void announceFailure();
    bool peerFailed();
    // Logical AND of a flag over all processes.
    core::Result<bool> allTrue(bool mine) const;
    core::Result<std::vector<std::string>> allHosts() const;

  private:
    MpiContext() = default;
    int m_rank = 0;
    int m_size = 1;
    int m_localRank = 0;
    int m_localSize = 1;
    std::string m_host;
};

}  // namespace tpscope::gpu
