// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The chart tabs of one document: Layers, Scaling and Cost pages and the controller that feeds them
// from core. The main window adds the pages as tabs; the headless report and chart export use the
// same objects without a window, so a chart in the PDF is the chart on screen.

#include <QObject>
#include <QPointer>

#include <vector>

#include "ui/charts/charts_controller.h"
#include "ui/charts/cost_page.h"
#include "ui/charts/layers_page.h"
#include "ui/charts/scaling_page.h"

namespace tpscope::ui {

class ChartSet : public QObject {
    Q_OBJECT

  public:
    explicit ChartSet(QObject* parent = nullptr);
    ~ChartSet() override;  // deletes the pages no widget has adopted

    LayersPage* layers() const { return m_layers; }
    ScalingPage* scaling() const { return m_scaling; }
    CostPage* cost() const { return m_cost; }
    ChartsController* controller() const { return m_controller; }
    std::vector<ChartPage*> pages() const;
    // Lays the pages out at a size, for rendering without a window.
    void resizePages(QSize size);

  private:
    QPointer<LayersPage> m_layers;
    QPointer<ScalingPage> m_scaling;
    QPointer<CostPage> m_cost;
    ChartsController* m_controller = nullptr;
};

}  // namespace tpscope::ui
