// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/timeline/event_details.h"

#include <QStringList>

#include <QLocale>
#include <QPalette>

#include "core/analysis/launch_link.h"
#include "core/util/units.h"
#include "ui/palette_colors.h"
#include "ui/table_cells.h"
#include "ui/timeline/kind_palette.h"
#include "ui/timeline/time_ruler.h"

namespace tpscope::ui {

namespace {

// Qt's rich text ignores nowrap on cells: non-breaking spaces keep "42.73 µs" on one line.
QString nb(QString text) {
    return text.replace(QLatin1Char(' '), QStringLiteral("&nbsp;"));
}

QString muted() {
    return mutedTextColor(QPalette()).name();
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:%3;padding-right:10px'>%1</td><td>%2</td></tr>")
        .arg(nb(key), value.contains(QLatin1Char('<')) ? value : nb(value), muted());
}

QString swatch(core::EventKind kind) {
    return QStringLiteral("<span style='color:%1'>■</span>&nbsp;%2").arg(kindColor(kind).name(), kindLabel(kind));
}

QString payloadRows(const core::Trace& trace, core::PayloadId id) {
    const auto& p = trace.payload(id);
    QString out;
    if (p.kind == core::PayloadKind::Collective) {
        const auto& c = p.collective;
        out += row(QStringLiteral("collective"), QStringLiteral("%1 %2 %3 %4")
                                                     .arg(qs(core::toString(c.op)), qs(core::toString(c.algo)),
                                                          qs(core::toString(c.proto)), qs(core::toString(c.dtype))));
        out += row(QStringLiteral("bytes"), qs(core::formatBytes(static_cast<double>(c.bytes))));
    } else if (p.kind == core::PayloadKind::Gemm) {
        out +=
            row(QStringLiteral("GEMM m×n×k"), QStringLiteral("%1 × %2 × %3").arg(p.gemm.m).arg(p.gemm.n).arg(p.gemm.k));
    } else if (p.kind == core::PayloadKind::Copy) {
        out += row(QStringLiteral("bytes"), qs(core::formatBytes(static_cast<double>(p.copy.bytes))));
    }
    return out;
}

QString matchRows(const CollectiveMatch& m) {
    QString out;
    out += row(QStringLiteral("transfer"), formatDuration(static_cast<double>(m.transferNs)));
    out += row(QStringLiteral("arrival skew"), formatDuration(static_cast<double>(m.skewNs)));
    if (m.busbwBytesPerSec > 0) out += row(QStringLiteral("busbw"), formatBandwidth(m.busbwBytesPerSec));
    if (!m.complete) out += row(QStringLiteral("call"), QStringLiteral("not every GPU of its communicator took part"));
    out += row(QStringLiteral("call"), QStringLiteral("#%1 on its GPU").arg(m.ordinal + 1));
    return out;
}

// Microseconds with as many decimals as their size needs: "5489", "42.7", "3.14" (C locale).
QString micros(std::int64_t ns) {
    const double us = static_cast<double>(ns) / 1e3;
    const double magnitude = us < 0 ? -us : us;
    return QString::number(us, 'f', magnitude >= 1000 ? 0 : (magnitude >= 10 ? 1 : 2));
}

// Every member's arrival, wait and kernel time, transposed (one column per GPU) and in blocks of
// kGpusPerBlock columns stacked under each other, so that 8 and 16 GPUs read without wrapping in
// the details pane.
QString perGpuTable(const core::Trace& trace, const EventRef& selected, const CollectiveMatch& match) {
    constexpr std::size_t kGpusPerBlock = 8;
    std::int64_t first = INT64_MAX;
    for (const auto& m : match.members) first = std::min(first, m.startNs);
    const QString label =
        QStringLiteral("<td style='color:%2;padding-right:8px'>%1</td>").arg(QStringLiteral("%1"), muted());
    QString out;
    for (std::size_t begin = 0; begin < match.members.size(); begin += kGpusPerBlock) {
        const std::size_t end = std::min(match.members.size(), begin + kGpusPerBlock);
        QString gpus, arrivals, waits, kernels;
        for (std::size_t i = begin; i < end; ++i) {
            const auto& m = match.members[i];
            const QString cell = m.event == selected
                                     ? QStringLiteral("<td align=right style='font-weight:bold'>%1</td>")
                                     : QStringLiteral("<td align=right>%1</td>");
            gpus += cell.arg(trace.ranks[static_cast<std::size_t>(m.event.rank)].id.value);
            arrivals += cell.arg(QStringLiteral("+") + micros(m.startNs - first));
            waits += cell.arg(micros(m.waitNs));
            kernels += cell.arg(micros(m.endNs - m.startNs));
        }
        out += QStringLiteral("<table cellspacing=0 cellpadding=2 style='margin-top:6px'>");
        out += QStringLiteral("<tr>") + label.arg(nb(QStringLiteral("GPU"))) + gpus + QStringLiteral("</tr>");
        out +=
            QStringLiteral("<tr>") + label.arg(nb(QStringLiteral("arrival (µs)"))) + arrivals + QStringLiteral("</tr>");
        out += QStringLiteral("<tr>") + label.arg(nb(QStringLiteral("wait (µs)"))) + waits + QStringLiteral("</tr>");
        out +=
            QStringLiteral("<tr>") + label.arg(nb(QStringLiteral("kernel (µs)"))) + kernels + QStringLiteral("</tr>");
        out += QStringLiteral("</table>");
    }
    return out;
}

// A kernel's launch (core::analysis::launchOfKernel): when the host issued it and whether the GPU
// sat idle waiting for it, the sign of a launch-bound step.
QString launchRows(const core::Trace& trace, const core::Rank& rank, const EventRef& event) {
    const auto link = core::analysis::launchOfKernel(rank, static_cast<std::size_t>(event.stream), event.index);
    if (!link) return {};
    const auto& host = rank.hostThreads[link->hostThread];
    QString out =
        row(QStringLiteral("launched by"),
            QStringLiteral("%1 on %2, %3 before its start")
                .arg(qs(trace.name(host.events.name(link->hostIndex))).toHtmlEscaped(), qs(host.label).toHtmlEscaped(),
                     formatDuration(static_cast<double>(link->launchToStartNs))));
    if (link->launchWaitNs > 0) {
        out += row(
            QStringLiteral("GPU idle"),
            QStringLiteral("%1 waiting for this launch").arg(formatDuration(static_cast<double>(link->launchWaitNs))));
    }
    return out;
}

QString hostTooltipHtml(const core::Trace& trace, const TimelineHit& hit, std::int64_t originNs) {
    const auto& rank = trace.ranks[static_cast<std::size_t>(hit.rank)];
    if (hit.hostThread < 0 || static_cast<std::size_t>(hit.hostThread) >= rank.hostThreads.size()) return {};
    const auto threadIndex = static_cast<std::size_t>(hit.hostThread);
    const auto& thread = rank.hostThreads[threadIndex];
    const auto& ev = thread.events;
    const std::size_t i = hit.hostIndex;
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    if (hit.count > 1) {
        html = QStringLiteral("<b>%1 host calls</b> — zoom in to separate them").arg(hit.count) + html;
        html += row(QStringLiteral("CPU thread"), qs(thread.label).toHtmlEscaped());
        html += row(QStringLiteral("span"), formatDuration(static_cast<double>(hit.endNs - hit.startNs)));
        return html + QStringLiteral("</table>");
    }
    html = QStringLiteral("<b>%1</b>").arg(qs(trace.name(ev.name(i))).toHtmlEscaped()) + html;
    html += row(QStringLiteral("GPU · CPU thread"),
                QStringLiteral("%1 · %2").arg(rank.id.value).arg(qs(thread.label).toHtmlEscaped()));
    html += row(QStringLiteral("start"), formatDuration(static_cast<double>(ev.startNs(i) - originNs)));
    html += row(QStringLiteral("duration"), formatDuration(static_cast<double>(ev.durNs(i))));
    if (const auto link = core::analysis::kernelOfLaunch(rank, threadIndex, i)) {
        const auto& stream = rank.streams[link->stream];
        html += row(QStringLiteral("launches"),
                    QStringLiteral("%1 on stream %2")
                        .arg(qs(trace.name(stream.events.name(link->kernelIndex))).toHtmlEscaped(),
                             qs(stream.label).toHtmlEscaped()));
        html +=
            row(QStringLiteral("kernel starts"),
                QStringLiteral("%1 after the call").arg(formatDuration(static_cast<double>(link->launchToStartNs))));
        if (link->launchWaitNs > 0) {
            html += row(QStringLiteral("GPU idle"), QStringLiteral("%1 waiting for this launch")
                                                        .arg(formatDuration(static_cast<double>(link->launchWaitNs))));
        }
    }
    return html + QStringLiteral("</table>");
}

}  // namespace

QString formatBandwidth(double bytesPerSec) {
    // Three significant digits in the unit that suits: a 448 B all-reduce moves MB/s, not "0.0 GB/s".
    if (!(bytesPerSec > 0)) return QStringLiteral("—");
    static const struct {
        double scale;
        const char* unit;
    } kUnits[] = {{1e12, "TB/s"}, {1e9, "GB/s"}, {1e6, "MB/s"}, {1e3, "kB/s"}, {1, "B/s"}};
    for (const auto& u : kUnits) {
        if (bytesPerSec >= u.scale || u.scale == 1) {
            return QStringLiteral("%1 %2").arg(QLocale::c().toString(bytesPerSec / u.scale, 'g', 3),
                                               QString::fromLatin1(u.unit));
        }
    }
    return {};
}

QString itemTooltipHtml(const core::Trace& trace, const TimelineData& data, const TimelineHit& hit,
                        std::int64_t originNs) {
    if (!hit.isItem()) return {};
    if (hit.rowKind == RowKind::Host) return hostTooltipHtml(trace, hit, originNs);
    const auto& rank = trace.ranks[static_cast<std::size_t>(hit.rank)];
    QString html = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    if (hit.rowKind == RowKind::Nvtx || hit.rowKind == RowKind::Exposed) {
        const bool nvtx = hit.rowKind == RowKind::Nvtx;
        QString title = nvtx ? QStringLiteral("NVTX range") : QStringLiteral("exposed communication");
        const auto& rows = data.ranks()[static_cast<std::size_t>(hit.rank)];
        // The hovered row's depth: two depths may hold a range at the same index with the same start
        // (step 0 and layer 0), so the index alone does not say which was hovered.
        if (nvtx && hit.count == 1 && hit.nvtxDepth >= 0 &&
            static_cast<std::size_t>(hit.nvtxDepth) < rows.nvtx.size()) {
            const core::NvtxDepthRow c = rows.nvtxRow(rank, static_cast<std::size_t>(hit.nvtxDepth));
            if (hit.nvtxIndex < c.size()) title = qs(trace.name(c.name(hit.nvtxIndex)));
        }
        html = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()) + html;
        if (hit.count > 1) html += row(QStringLiteral("folded"), QStringLiteral("%1 intervals").arg(hit.count));
        html += row(QStringLiteral("GPU"), QString::number(rank.id.value));
        html += row(QStringLiteral("start"), formatDuration(static_cast<double>(hit.startNs - originNs)));
        html += row(QStringLiteral("span"), formatDuration(static_cast<double>(hit.endNs - hit.startNs)));
        return html + QStringLiteral("</table>");
    }
    const auto& ev = rank.streams[static_cast<std::size_t>(hit.event.stream)].events;
    const std::size_t i = hit.event.index;
    if (hit.count > 1) {
        html = QStringLiteral("<b>%1 kernels</b> (mostly %2) — zoom in to separate them")
                   .arg(hit.count)
                   .arg(kindLabel(hit.kind)) +
               html;
        html += row(QStringLiteral("span"), formatDuration(static_cast<double>(hit.endNs - hit.startNs)));
        html += row(QStringLiteral("longest"), qs(trace.name(ev.name(i))).toHtmlEscaped());
        html += row(QString(), formatDuration(static_cast<double>(ev.durNs(i))));
        return html + QStringLiteral("</table>");
    }
    html = QStringLiteral("<b>%1</b>").arg(qs(trace.name(ev.name(i))).toHtmlEscaped()) + html;
    html += row(QStringLiteral("kind"), swatch(ev.kind(i)));
    html += row(QStringLiteral("GPU · stream"),
                QStringLiteral("%1 · %2")
                    .arg(rank.id.value)
                    .arg(qs(rank.streams[static_cast<std::size_t>(hit.event.stream)].label).toHtmlEscaped()));
    html += row(QStringLiteral("start"), formatDuration(static_cast<double>(ev.startNs(i) - originNs)));
    html += row(QStringLiteral("duration"), formatDuration(static_cast<double>(ev.durNs(i))));
    html += payloadRows(trace, ev.payload(i));
    html += launchRows(trace, rank, hit.event);
    if (const auto match = data.matchCollective(trace, hit.event)) {
        for (const auto& m : match->members) {
            if (m.event == hit.event)
                html += row(QStringLiteral("wait"), formatDuration(static_cast<double>(m.waitNs)));
        }
        html += matchRows(*match);
    }
    return html + QStringLiteral("</table>");
}

QString eventDetailsHtml(const core::Trace& trace, const EventRef& event, const std::optional<CollectiveMatch>& match,
                         std::int64_t originNs) {
    if (!event.valid()) return {};
    const auto& rank = trace.ranks[static_cast<std::size_t>(event.rank)];
    const auto& stream = rank.streams[static_cast<std::size_t>(event.stream)];
    const auto& ev = stream.events;
    const std::size_t i = event.index;
    // Three columns side by side (the pane is wide and short): the kernel, the call across ranks,
    // and every rank's arrival and wait.
    QString facts = QStringLiteral("<table cellspacing=0 cellpadding=1>");
    facts += row(QStringLiteral("kind"), swatch(ev.kind(i)));
    facts += row(QStringLiteral("GPU · stream"),
                 QStringLiteral("%1 · %2").arg(rank.id.value).arg(qs(stream.label).toHtmlEscaped()));
    facts += row(QStringLiteral("start"), formatDuration(static_cast<double>(ev.startNs(i) - originNs)));
    facts += row(QStringLiteral("duration"), formatDuration(static_cast<double>(ev.durNs(i))));
    facts += payloadRows(trace, ev.payload(i));
    facts += launchRows(trace, rank, event);
    facts += QStringLiteral("</table>");

    QString call;
    QString ranks;
    if (match) {
        call = QStringLiteral("<table cellspacing=0 cellpadding=1>");
        for (const auto& m : match->members) {
            if (m.event == event) {
                call += row(QStringLiteral("<b>wait</b>"),
                            QStringLiteral("<b>%1</b>").arg(nb(formatDuration(static_cast<double>(m.waitNs)))));
            }
        }
        call += matchRows(*match) + QStringLiteral("</table>");
        if (match->members.size() > 1) ranks = perGpuTable(trace, event, *match);
    }
    QString html = QStringLiteral("<b>%1</b><table cellspacing=0 cellpadding=0><tr><td valign=top>%2</td>")
                       .arg(qs(trace.name(ev.name(i))).toHtmlEscaped(), facts);
    if (!call.isEmpty()) {
        html += QStringLiteral(
                    "<td width=24></td><td valign=top><span style='color:%2'>same call on every GPU"
                    "</span>%1</td>")
                    .arg(call, muted());
    }
    return html + QStringLiteral("</tr></table>") + ranks;
}

QString rangeStatsHtml(const TimelineData& data, const core::RangeStats& stats, std::int64_t originNs) {
    const double span = static_cast<double>(stats.t1 - stats.t0);
    QString html = QStringLiteral(
                       "<b>Range %1 – %2</b> (%3): time per kind, each kernel clipped to the range"
                       "<table cellspacing=0 cellpadding=2><tr style='color:%4'><td nowrap>GPU</td>")
                       .arg(formatDuration(static_cast<double>(stats.t0 - originNs)),
                            formatDuration(static_cast<double>(stats.t1 - originNs)), formatDuration(span), muted());
    std::array<bool, core::kEventKindCount> used{};
    for (const auto& r : stats.ranks) {
        for (std::size_t k = 0; k < used.size(); ++k) used[k] = used[k] || r.kindCount[k] > 0;
    }
    for (std::size_t k = 0; k < used.size(); ++k) {
        // nowrap and non-breaking spaces: a narrow pane must not break "Elementwise" mid-word.
        if (used[k]) html += QStringLiteral("<td nowrap>%1</td>").arg(swatch(static_cast<core::EventKind>(k)));
    }
    html += QStringLiteral("<td nowrap>events</td><td nowrap style='color:%1'>exposed&nbsp;comm</td></tr>")
                .arg(exposedCommColor().name());
    for (std::size_t r = 0; r < stats.ranks.size(); ++r) {
        const auto& s = stats.ranks[r];
        html += QStringLiteral("<tr><td>%1</td>").arg(s.rank.value);
        for (std::size_t k = 0; k < used.size(); ++k) {
            if (!used[k]) continue;
            html += QStringLiteral("<td nowrap>%1 <span style='color:%3'>(%2%)</span></td>")
                        .arg(nb(formatDuration(static_cast<double>(s.kindNs[k]))))
                        .arg(span > 0 ? 100.0 * static_cast<double>(s.kindNs[k]) / span : 0.0, 0, 'f', 1)
                        .arg(muted());
        }
        const auto exposed = data.exposedNs(r, stats.t0, stats.t1);
        html += QStringLiteral("<td>%1</td><td>%2</td></tr>")
                    .arg(s.totalCount())
                    .arg(formatDuration(static_cast<double>(exposed)));
    }
    return html + QStringLiteral("</table>");
}

}  // namespace tpscope::ui
