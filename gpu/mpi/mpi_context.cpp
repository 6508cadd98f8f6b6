// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "gpu/mpi/mpi_context.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tpscope::gpu {

namespace {

core::Error mpiError(int code, const char* call) {
    char text[MPI_MAX_ERROR_STRING] = {};
    int len = 0;
    MPI_Error_string(code, text, &len);
    return core::makeError(core::ErrorCode::DeviceError, std::string("MPI failed: ") + std::string(text, len), call);
}

#define TPSCOPE_MPI_CHECK(call)                                                \
    do {                                                                       \
        const int tpscopeMpiRc = (call);                                       \
        if (tpscopeMpiRc != MPI_SUCCESS) return mpiError(tpscopeMpiRc, #call); \
    } while (0)

// Messages are sent in chunks so that counts fit MPI's int.
constexpr std::size_t kChunkBytes = 1u << 30;
constexpr int kTagSize = 101;
constexpr int kTagData = 102;
constexpr int kTagPing = 103;
constexpr int kTagFailure = 104;

// The failure beacon's state (one context per process; only the main thread calls MPI).
struct FailureBeacon {
    MPI_Request receive = MPI_REQUEST_NULL;
    int incoming = 0;
    bool announced = false;
    bool peerFailed = false;
};
FailureBeacon g_beacon;

core::Status sendBytes(const std::vector<std::uint8_t>& bytes, int dest) {
    std::uint64_t n = bytes.size();
    TPSCOPE_MPI_CHECK(MPI_Send(&n, 1, MPI_UINT64_T, dest, kTagSize, MPI_COMM_WORLD));
    for (std::size_t at = 0; at < bytes.size(); at += kChunkBytes) {
        const int len = static_cast<int>(std::min(kChunkBytes, bytes.size() - at));
        TPSCOPE_MPI_CHECK(MPI_Send(bytes.data() + at, len, MPI_BYTE, dest, kTagData, MPI_COMM_WORLD));
    }
    return core::Ok{};
}

core::Result<std::vector<std::uint8_t>> receiveBytes(int source) {
    std::uint64_t n = 0;
    TPSCOPE_MPI_CHECK(MPI_Recv(&n, 1, MPI_UINT64_T, source, kTagSize, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    std::vector<std::uint8_t> bytes(n);
    for (std::size_t at = 0; at < bytes.size(); at += kChunkBytes) {
        const int len = static_cast<int>(std::min<std::size_t>(kChunkBytes, bytes.size() - at));
        TPSCOPE_MPI_CHECK(
            MPI_Recv(bytes.data() + at, len, MPI_BYTE, source, kTagData, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    }
    return bytes;
}

}  // namespace

core::Result<std::unique_ptr<MpiContext>> MpiContext::init() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized) {
        return core::makeError(core::ErrorCode::Internal, "MPI was already initialised", "MpiContext::init");
    }
    int provided = 0;
    TPSCOPE_MPI_CHECK(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided));
    std::unique_ptr<MpiContext> ctx(new MpiContext());
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    TPSCOPE_MPI_CHECK(MPI_Comm_rank(MPI_COMM_WORLD, &ctx->m_rank));
    TPSCOPE_MPI_CHECK(MPI_Comm_size(MPI_COMM_WORLD, &ctx->m_size));
    MPI_Comm local = MPI_COMM_NULL;
    TPSCOPE_MPI_CHECK(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, ctx->m_rank, MPI_INFO_NULL, &local));
    MPI_Comm_rank(local, &ctx->m_localRank);
    MPI_Comm_size(local, &ctx->m_localSize);
    MPI_Comm_free(&local);
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int len = 0;
    TPSCOPE_MPI_CHECK(MPI_Get_processor_name(name, &len));
    ctx->m_host.assign(name, static_cast<std::size_t>(len));
    return ctx;
}

MpiContext::~MpiContext() {
    // Take back the beacon's pending receive and any failure message still in flight to this process.
    if (g_beacon.receive != MPI_REQUEST_NULL) {
        MPI_Cancel(&g_beacon.receive);
        MPI_Wait(&g_beacon.receive, MPI_STATUS_IGNORE);
    }
    for (int flag = 1; flag != 0;) {
        MPI_Status status;
        MPI_Iprobe(MPI_ANY_SOURCE, kTagFailure, MPI_COMM_WORLD, &flag, &status);
        int sink = 0;
        if (flag != 0) MPI_Recv(&sink, 1, MPI_INT, status.MPI_SOURCE, kTagFailure, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Finalize();
}

core::Status MpiContext::broadcast(std::vector<std::uint8_t>& bytes, int root) const {
    std::uint64_t n = bytes.size();
    TPSCOPE_MPI_CHECK(MPI_Bcast(&n, 1, MPI_UINT64_T, root, MPI_COMM_WORLD));
    if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
        return core::makeError(core::ErrorCode::InvalidArgument, "broadcast too large", "MpiContext::broadcast");
    }
    bytes.resize(n);
    TPSCOPE_MPI_CHECK(MPI_Bcast(bytes.data(), static_cast<int>(n), MPI_BYTE, root, MPI_COMM_WORLD));
    return core::Ok{};
}

core::Result<std::vector<std::string>> MpiContext::allHosts() const {
    std::vector<char> mine(MPI_MAX_PROCESSOR_NAME, '\0');
    std::copy_n(m_host.begin(), std::min<std::size_t>(m_host.size(), mine.size() - 1), mine.begin());
    std::vector<char> all(mine.size() * static_cast<std::size_t>(m_size));
    TPSCOPE_MPI_CHECK(MPI_Allgather(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all.data(), MPI_MAX_PROCESSOR_NAME,
                                    MPI_CHAR, MPI_COMM_WORLD));
    std::vector<std::string> hosts;
    for (int p = 0; p < m_size; ++p) {
        hosts.emplace_back(all.data() + static_cast<std::size_t>(p) * MPI_MAX_PROCESSOR_NAME);
    }
    return hosts;
}

core::Result<std::vector<std::int64_t>> MpiContext::clockOffsets(const std::function<std::int64_t()>& clockNs,
                                                                 int rounds) const {
    std::vector<std::string> hosts;
    TPSCOPE_TRY_ASSIGN(hosts, allHosts());
    // The first process of each host measures; rank 0's host has offset 0.
    std::vector<int> leaderOf(static_cast<std::size_t>(m_size));
    for (int p = 0; p < m_size; ++p) {
        leaderOf[static_cast<std::size_t>(p)] =
            static_cast<int>(std::find(hosts.begin(), hosts.end(), hosts[static_cast<std::size_t>(p)]) - hosts.begin());
    }
    std::vector<std::int64_t> hostOffset(static_cast<std::size_t>(m_size), 0);
    for (int leader = 1; leader < m_size; ++leader) {
        if (leaderOf[static_cast<std::size_t>(leader)] != leader ||
            hosts[static_cast<std::size_t>(leader)] == hosts[0]) {
            continue;
        }
        if (m_rank == 0) {
            std::int64_t bestRtt = std::numeric_limits<std::int64_t>::max(), best = 0;
            for (int i = 0; i < rounds; ++i) {
                std::int64_t remote = 0;
                const std::int64_t t0 = clockNs();
                TPSCOPE_MPI_CHECK(MPI_Send(&t0, 1, MPI_INT64_T, leader, kTagPing, MPI_COMM_WORLD));
                TPSCOPE_MPI_CHECK(
                    MPI_Recv(&remote, 1, MPI_INT64_T, leader, kTagPing, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                const std::int64_t t1 = clockNs();
                if (t1 - t0 < bestRtt) {
                    bestRtt = t1 - t0;
                    best = t0 + (t1 - t0) / 2 - remote;
                }
            }
            hostOffset[static_cast<std::size_t>(leader)] = best;
        } else if (m_rank == leader) {
            for (int i = 0; i < rounds; ++i) {
                std::int64_t ping = 0;
                TPSCOPE_MPI_CHECK(MPI_Recv(&ping, 1, MPI_INT64_T, 0, kTagPing, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
                const std::int64_t now = clockNs();
                TPSCOPE_MPI_CHECK(MPI_Send(&now, 1, MPI_INT64_T, 0, kTagPing, MPI_COMM_WORLD));
            }
        }
    }
    TPSCOPE_MPI_CHECK(MPI_Bcast(hostOffset.data(), m_size, MPI_INT64_T, 0, MPI_COMM_WORLD));
    std::vector<std::int64_t> offsets(static_cast<std::size_t>(m_size));
    for (int p = 0; p < m_size; ++p) {
        offsets[static_cast<std::size_t>(p)] =
            hostOffset[static_cast<std::size_t>(leaderOf[static_cast<std::size_t>(p)])];
    }
    return offsets;
}

core::Result<std::vector<std::vector<std::uint8_t>>> MpiContext::gather(const std::vector<std::uint8_t>& mine,
                                                                        int root) const {
    std::vector<std::vector<std::uint8_t>> all;
    if (m_rank != root) {
        TPSCOPE_TRY(sendBytes(mine, root));
        return all;
    }
    all.resize(static_cast<std::size_t>(m_size));
    all[static_cast<std::size_t>(root)] = mine;
    for (int p = 0; p < m_size; ++p) {
        if (p == root) continue;
        TPSCOPE_TRY_ASSIGN(all[static_cast<std::size_t>(p)], receiveBytes(p));
    }
    return all;
}

core::Result<bool> MpiContext::allTrue(bool mine) const {
    int in = mine ? 1 : 0, out = 0;
    TPSCOPE_MPI_CHECK(MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD));
    return out != 0;
}

void MpiContext::announceFailure() {
    if (g_beacon.announced || m_size < 2) return;
    g_beacon.announced = true;
    static int one = 1;
    for (int p = 0; p < m_size; ++p) {
        if (p == m_rank) continue;
        MPI_Request request = MPI_REQUEST_NULL;
        // A one-int message goes eagerly: the send completes locally, the peer's beacon receives it.
        if (MPI_Isend(&one, 1, MPI_INT, p, kTagFailure, MPI_COMM_WORLD, &request) == MPI_SUCCESS) {
            MPI_Request_free(&request);
        }
    }
}

bool MpiContext::peerFailed() {
    if (g_beacon.peerFailed || m_size < 2) return g_beacon.peerFailed;
    if (g_beacon.receive == MPI_REQUEST_NULL && MPI_Irecv(&g_beacon.incoming, 1, MPI_INT, MPI_ANY_SOURCE, kTagFailure,
                                                          MPI_COMM_WORLD, &g_beacon.receive) != MPI_SUCCESS) {
        return false;
    }
    int done = 0;
    if (MPI_Test(&g_beacon.receive, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done != 0) g_beacon.peerFailed = true;
    return g_beacon.peerFailed;
}

}  // namespace tpscope::gpu
