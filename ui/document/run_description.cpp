// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/document/run_description.h"

#include <QFileInfo>
#include <QStringList>

#include <map>
#include <string>

#include "core/util/units.h"

namespace tpscope::ui {

namespace {

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QString esc(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).toHtmlEscaped();
}

QString line(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='padding-right:8px'>%1</td><td>%2</td></tr>").arg(key, value);
}

// "8 × NVIDIA H100 80GB HBM3" (one entry per distinct device name), or "4 ranks" without names.
QString gpusOf(const core::Trace& trace) {
    std::map<std::string, int> names;
    for (const auto& rank : trace.ranks) ++names[rank.deviceName];
    QStringList parts;
    for (const auto& [name, count] : names) {
        parts << (name.empty() ? QObject::tr("%n GPU(s), name not recorded", nullptr, count)
                               : QStringLiteral("%1 × %2").arg(count).arg(esc(name)));
    }
    return parts.join(QStringLiteral(", "));
}

QString requestLines(const RunRequest& r) {
    QString html;
    const auto dtype = core::toString(r.dtype);
    html += line(QObject::tr("Model"),
                 QStringLiteral("%1, %2").arg(esc(r.model.name.empty() ? r.model.id : r.model.name), esc(dtype)));
    if (r.model.isMoe()) {
        // Two runs that differ only in these differ in every MoE number.
        html += line(QObject::tr("MoE experts"),
                     QObject::tr("%1, routing skew %2")
                         .arg(r.moeParallel == core::MoeParallel::Expert ? QObject::tr("expert-parallel (ep)")
                                                                         : QObject::tr("tensor-parallel (tp)"))
                         .arg(r.model.moe.routingSkew > 0 ? QString::number(r.model.moe.routingSkew, 'g', 3)
                                                          : QObject::tr("0 (uniform)")));
    }
    html += line(QObject::tr("Context"), QObject::tr("%1 tokens in the KV cache").arg(r.contextLen));
    html += line(QObject::tr("Cluster"), esc(r.backendText()));
    return html;
}

QString traceLines(const RunRecord& run) {
    const core::Trace& t = *run.trace;
    QString html;
    html += line(QObject::tr("Origin"),
                 esc(core::toString(t.origin)) + (t.origin == core::TraceOrigin::Synthetic
                                                      ? QObject::tr(" (made-up events, not a measurement)")
                                                      : QString()));
    html += line(QObject::tr("GPUs"), gpusOf(t));
    for (const auto& [key, label] :
         {std::pair{"model", QObject::tr("Model")}, std::pair{"gpu", QObject::tr("GPU type")},
          std::pair{"tp", QObject::tr("TP")}, std::pair{"batch", QObject::tr("Batch")}}) {
        const std::string value = t.metadataValue(key);
        if (!value.empty()) html += line(label, esc(value));
    }
    if (t.metadataValue("model").empty()) html += line(QObject::tr("Model"), QObject::tr("not recorded in the trace"));
    const QString file = !run.source.isEmpty() ? run.source : QString::fromStdString(t.source);
    if (!file.isEmpty()) html += line(QObject::tr("From"), esc(QFileInfo(file).fileName()));
    return html;
}

// Core's loud answer for a trace it did not understand (core/analysis/understanding.h), first, so
// that no number below is read without it.
QString understandingHtml(const RunRecord& run) {
    if (!run.analysis || run.analysis->understanding.understood()) return {};
    const auto& u = run.analysis->understanding;
    QString html = QObject::tr("<p><b>Not understood:</b> the numbers of this run rest on guesses.</p><ul>");
    for (const auto& g : u.gaps) {
        html += QStringLiteral("<li>%1<br/><i>%2</i> %3</li>").arg(esc(g.what), QObject::tr("Fix:"), esc(g.fix));
    }
    html += QStringLiteral("</ul>");
    if (!u.topOther.empty()) {
        QStringList names;
        for (const auto& n : u.topOther) {
            names << QStringLiteral("%1 (%2)").arg(esc(n.name), esc(core::formatDurationNs(static_cast<double>(n.ns))));
        }
        html += QObject::tr("<p>Top unclassified kernels: %1</p>").arg(names.join(QStringLiteral(", ")));
    }
    return html;
}

}  // namespace

QString runDescriptionHtml(const RunRecord& run) {
    const bool simulated = run.request.backend == BackendKind::SimulatedCluster;
    QString html = QStringLiteral("<b>%1</b>").arg(esc(run.label()));
    html += understandingHtml(run);
    html += QStringLiteral("<table cellspacing=0 cellpadding=0>");
    // A simulated run is what it was asked to be; any other run is what its trace recorded.
    if (!simulated && run.trace) {
        html += traceLines(run);
    } else {
        html += requestLines(run.request);
    }
    QString status = esc(statusText(run.status));
    if (run.status == RunStatus::Running)
        status = QObject::tr("running, %1 %").arg(static_cast<int>(run.progress * 100));
    if (run.status == RunStatus::Failed || run.status == RunStatus::Cancelled) {
        if (!run.error.isEmpty()) status += QStringLiteral(": ") + esc(run.error);
    }
    if (run.status == RunStatus::DoesNotFit && !run.error.isEmpty()) status = esc(run.error);  // "does not fit: ..."
    html += line(QObject::tr("Status"), status);
    html += QStringLiteral("</table>");
    if (!simulated) {
        html += QObject::tr("<p><i>The settings below are for a new sweep; they do not describe this run.</i></p>");
    }
    return html;
}

}  // namespace tpscope::ui
