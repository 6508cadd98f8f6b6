// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// Measured all-reduce times that a fabric is calibrated against, read from three formats:
//  - Vidur's network profiling CSV (data/profiling/network/<system>/all_reduce.csv): one row per
//    (num_workers, devices_per_node, size in bytes) with time_stats.all_reduce.{min,max,mean,median}
//    in milliseconds. nodes = num_workers / devices_per_node. The minimum is used by default: the
//    times are taken on the host around each call, and below ~1 MiB their distribution is bimodal
//    (H100 2-GPU 2 KiB - 300 KiB: 7-9 us or ~41 us, the second mode host delay, not NCCL), so the
//    minimum over repetitions is the estimate of the kernel's own time.
//  - nccl-tests all_reduce_perf text output: the "#  Rank N ... on HOST device" lines give the
//    ranks and nodes (else the busbw/algbw ratio gives the ranks); each result row's out-of-place
//    time (us) is used.
//  - nccl-tests JSON (-J file): "results"[].{size, out_of_place.time} and config.devices.
//  - measured-rows CSV (resources/calibration/*.csv): '#' comment lines naming the source, then the
//    header "gpus,nodes,bytes,time_us" (more columns allowed, e.g. busbw_gbps) and one row per size;
//    optional columns "gpus_per_thread" and "algorithm" (one_shot, two_shot, ...) fill the fields of
//    the same name.
// Rows that cannot be read are counted, never fatal; a file of none of these shapes is one error.
// O(file size).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/trace/event_kind.h"
#include "core/util/result.h"

namespace tpscope::core::sim {

struct AllReduceSample {
    std::uint64_t bytes = 0;  // per-rank message size (nccl-tests "size")
    int ranks = 0;
    int nodes = 1;
    double timeNs = 0;
    // GPUs one host thread launched kernels on for this call (nccl-tests -g N: N; one process per
    // GPU: 1): its kernels start one launch apart, which the measured time includes.
    int gpusPerThread = 1;
    // The algorithm the row was measured with when forced (custom one-shot / two-shot kernels);
    // Unknown: the library's own choice.
    CollectiveAlgo algo = CollectiveAlgo::Unknown;
};

enum class CalibrationFormat { Auto, VidurCsv, NcclTestsText, NcclTestsJson, MeasuredRowsCsv };
inline constexpr std::string_view kMeasuredRowsHeader = "gpus,nodes,bytes,time_us";
// Which of Vidur's per-row statistics to read (nccl-tests reports one average per size).
enum class VidurStatistic { Min, Median, Mean };

struct CalibrationData {
    std::vector<AllReduceSample> samples;
    CalibrationFormat format = CalibrationFormat::Auto;
    std::size_t skippedRows = 0;  // rows present but unreadable or not an all-reduce
};

Result<CalibrationData> parseVidurCsv(std::string_view text, const std::string& context,
                                      VidurStatistic statistic = VidurStatistic::Min);
Result<CalibrationData> parseNcclTestsText(std::string_view text, const std::string& context);
Result<CalibrationData> parseNcclTestsJson(std::string_view text, const std::string& context);
Result<CalibrationData> parseMeasuredRowsCsv(std::string_view text, const std::string& context);
// Picks the parser from the content.
Result<CalibrationData> parseCalibrationData(std::string_view text, const std::string& context,
                                             CalibrationFormat format = CalibrationFormat::Auto,
                                             VidurStatistic statistic = VidurStatistic::Min);
Result<CalibrationData> loadCalibrationFile(const std::string& path, CalibrationFormat format = CalibrationFormat::Auto,
                                            VidurStatistic statistic = VidurStatistic::Min);

}  // namespace tpscope::core::sim
