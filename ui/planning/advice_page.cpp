// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/planning/advice_page.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/util/units.h"
#include "ui/export/plot_export.h"
#include "ui/table_cells.h"

namespace tpscope::ui {

namespace {

QStandardItem* blank() {
    return new QStandardItem(QString());
}

}  // namespace

AdvicePage::AdvicePage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("A higher TP pays when its efficiency reaches"), this));
    m_threshold = new QDoubleSpinBox(this);
    m_threshold->setRange(0.01, 1.0);
    m_threshold->setDecimals(2);
    m_threshold->setSingleStep(0.05);
    m_threshold->setValue(kDefaultEfficiencyThreshold);
    m_threshold->setKeyboardTracking(false);
    controls->addWidget(m_threshold);
    controls->addStretch(1);
    layout->addLayout(controls);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_table = new QStandardItemModel(0, Text + 1, this);
    m_table->setHorizontalHeaderLabels({tr("Kind"), tr("Batch"), tr("From TP"), tr("To TP"), tr("Speed-up"),
                                        tr("Efficiency"), tr("$/Mtok change"), tr("Largest loss"), tr("Loss share"),
                                        tr("Advice")});
    m_view = new QTableView(this);
    m_view->setModel(m_table);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setWordWrap(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);
    // Wrapped sentences: row heights follow the Advice column's width.
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, m_view, &QTableView::resizeRowsToContents);
    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, &AdvicePage::efficiencyThresholdChanged);
    setAdvice(core::makeError(core::ErrorCode::InvalidArgument, "no run yet"));
}

double AdvicePage::efficiencyThreshold() const {
    return m_threshold->value();
}

void AdvicePage::setEfficiencyThreshold(double threshold) {
    m_threshold->setValue(threshold);
}

QString AdvicePage::summaryText() const {
    return m_summary->text();
}

void AdvicePage::setAdvice(const core::Result<SweepAdvice>& advice) {
    m_table->setRowCount(0);
    if (!advice) {
        m_summary->setText(tr("No advice: %1").arg(qs(advice.error().describe())));
        return;
    }
    QStringList lines;
    if (advice->items.empty()) lines << tr("No advice: it needs finished simulated runs at two or more GPU counts.");
    for (const auto& note : advice->scaling.notes) lines << qs(note);
    m_summary->setText(lines.join(QLatin1Char('\n')));
    const bool priced = advice->scaling.pricePerGpuHour > 0;
    for (const auto& item : advice->items) {
        using core::analysis::AdviceKind;
        const bool pair = item.kind == AdviceKind::HigherTpPays || item.kind == AdviceKind::HigherTpDoesNotPay;
        QList<QStandardItem*> row{new QStandardItem(qs(std::string(core::analysis::toString(item.kind))))};
        row << (item.batch > 0 ? numberItem(QString::number(item.batch), item.batch) : blank());
        row << (item.fromGpus > 0 ? numberItem(QString::number(item.fromGpus), item.fromGpus) : blank());
        row << (item.toGpus > 0 ? numberItem(QString::number(item.toGpus), item.toGpus) : blank());
        if (pair) {
            row << numberItem(qs(core::formatFixed(item.speedup, 2)) + QStringLiteral("×"), item.speedup)
                << numberItem(qs(core::formatPercent(item.efficiency)), item.efficiency)
                << (priced ? numberItem(qs((item.costChange >= 0 ? "+" : "") + core::formatPercent(item.costChange)),
                                        item.costChange)
                           : blank())
                << new QStandardItem(qs(item.largestLoss))
                << numberItem(qs(core::formatPercent(item.largestLossShare)), item.largestLossShare);
        } else {
            for (int c = Speedup; c < Text; ++c) row << blank();
        }
        auto* text = new QStandardItem(qs(item.text));
        text->setToolTip(qs(item.text));
        row << text;
        m_table->appendRow(row);
    }
    m_view->resizeRowsToContents();
}

core::Status AdvicePage::exportTo(const ExportRequest& request) const {
    return exportTableCsv(*m_table, request.path);
}

}  // namespace tpscope::ui
