// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/charts/chart_set.h"

#include <qcustomplot.h>

#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"

namespace tpscope::ui {

ChartSet::ChartSet(QObject* parent)
    : QObject(parent), m_layers(new LayersPage), m_scaling(new ScalingPage), m_cost(new CostPage) {
    m_controller = new ChartsController(m_layers, m_scaling, m_cost, this);
}

ChartSet::~ChartSet() {
    for (QWidget* page : std::initializer_list<QWidget*>{m_layers, m_scaling, m_cost}) {
        if (page != nullptr && page->parent() == nullptr) delete page;
    }
}

std::vector<ChartPage*> ChartSet::pages() const {
    return {m_layers, m_scaling, m_cost};
}

void ChartSet::resizePages(QSize size) {
    for (auto* page : pages()) {
        page->resize(size);
        page->plot()->resize(size.width(), size.height() * 3 / 5);
        page->plot()->replot();
    }
}

}  // namespace tpscope::ui
