// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// End of file: what needs every record first (kineto_parser.h): kernels seen before their op get
// its class, devices their GPU names, streams their labels, CPU annotations move onto their GPU work.
#include "core/io/import/kineto_parser.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/io/import/step_projection.h"
#include "core/trace/step_annotation.h"

namespace tpscope::core {

void KinetoParser::resolveLateOpClasses() {
    for (const auto& k : m_lateKernels) {
        if (const auto opKind = m_opClasses.find(k.externalId)) {
            applyOpClass(m_part.devices[k.device].streams[k.stream].events[k.event], *opKind);
        }
    }
}

Status KinetoParser::finish() {
    TPSCOPE_TRY(applyTpscopeMeta());
    resolveLateOpClasses();
    for (auto& dev : m_part.devices) {
        if (dev.deviceName.empty()) {
            if (auto it = m_gpuNames.find(dev.deviceIndex); it != m_gpuNames.end()) dev.deviceName = it->second;
        }
        for (auto& s : dev.streams) {
            if (!s.label.empty()) continue;
            auto it = m_threadNames.find(dev.key + "/" + std::to_string(s.id));
            s.label = it != m_threadNames.end() ? it->second : "stream " + std::to_string(s.id);
        }
    }
    // resolve() reads the launches in arrival order; the projection then takes them sorted.
    m_stats.collectivesWithArgs += m_links.resolve(m_part);
    projectCpuAnnotations();
    for (const auto& [key, open] : m_openBegins) m_stats.unmatchedBegins += open.size();
    if (!m_part.declaredRank) m_part.declaredRank = rankFromFileName(m_part.path);
    if (m_part.devices.empty()) m_stats.note(m_part.path + ": no GPU kernels, copies or annotations found");
    if (m_tpscopeMeta.empty()) m_part.setMetadata("format", "kineto-json");
    return Ok{};
}

// An annotation with a GPU copy (gpu_user_annotation, same External id) is already in GPU time: its
// CPU copy is dropped. The others (ProfilerStep#N and the annotations nested in it, the engines'
// steps) move onto the GPU work they launched, as one tree (step_projection.h), so that the step row
// sits above its kernels and nesting holds. An annotation that launched no GPU work has no GPU time:
// it is dropped when the others moved (a CPU-time range among GPU-time ones would nest with ranges
// it has nothing to do with), and kept with all the others in CPU time when nothing could move (no
// launch records: a CPU-only trace).
void KinetoParser::projectCpuAnnotations() {
    std::vector<CpuAnnotation> toProject;
    std::vector<std::size_t> index;  // into m_cpuRanges
    for (std::size_t i = 0; i < m_cpuRanges.size(); ++i) {
        const auto& [range, externalId] = m_cpuRanges[i];
        if (externalId >= 0 && m_gpuAnnotationIds.count(externalId) != 0) {
            ++m_stats.mirroredAnnotations;
            continue;
        }
        if (m_cpuRangeThreads[i] == kNoThread) continue;
        const bool engineStep = projectedStep(m_part.names.view(range.name));
        toProject.push_back({{m_cpuRangeThreads[i], range.startNs, range.endNs, range.name}, engineStep ? 0 : -1});
        index.push_back(i);
    }
    auto launches = m_links.takeLaunchRecords();
    const auto projected = projectAnnotationTree(toProject, launches, m_part);
    m_links.giveBackLaunchRecords(std::move(launches));
    const bool anyProjected = std::find(projected.begin(), projected.end(), true) != projected.end();
    std::vector<bool> moved(m_cpuRanges.size(), false);
    for (std::size_t k = 0; k < projected.size(); ++k) {
        if (!projected[k]) continue;
        moved[index[k]] = true;
        if (parseStepAnnotation(m_part.names.view(toProject[k].range.name))) ++m_stats.projectedSteps;
    }
    std::size_t dropped = 0;
    for (std::size_t i = 0; i < m_cpuRanges.size(); ++i) {
        const auto& [range, externalId] = m_cpuRanges[i];
        if (moved[i] || (externalId >= 0 && m_gpuAnnotationIds.count(externalId) != 0)) continue;
        if (anyProjected) {
            ++dropped;
        } else {
            m_part.processRanges.push_back(range);
        }
    }
    if (dropped > 0) {
        m_stats.note(m_part.path + ": " + std::to_string(dropped) +
                     " CPU annotation(s) launched no GPU work: not shown (the others are shown in GPU time, "
                     "over the work they launched)");
    }
}

Status KinetoParser::applyTpscopeMeta() {
    if (m_tpscopeMeta.empty()) return Ok{};
    return applyTpscopeChromeMeta(m_tpscopeMeta, m_part);
}

}  // namespace tpscope::core
