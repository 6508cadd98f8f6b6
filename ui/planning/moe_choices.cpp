// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#include "ui/planning/moe_choices.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QObject>

#include <algorithm>

namespace tpscope::ui {

namespace {

QString idOf(core::MoeParallel mode) {
    const auto id = core::toString(mode);
    return QString::fromLatin1(id.data(), static_cast<qsizetype>(id.size()));
}

QString placementTip() {
    return QObject::tr(
        "MoE models: every rank holds 1/TP of every expert (two all-reduces per layer), or whole experts, "
        "experts/TP per rank, with an all-to-all dispatch and combine (tpscope-cli plan --moe-parallel tp|ep)");
}

QString skewTip() {
    return QObject::tr(
        "MoE routing skew s (tpscope-cli --routing-skew): expert i is picked with weight i^-s, so a skewed "
        "router touches fewer distinct experts per step. 0 = uniform routing, the default. No public source "
        "calibrates s for any model: it is a what-if knob, not a measurement");
}

}  // namespace

QComboBox* newExpertPlacementBox(QWidget* parent) {
    auto* box = new QComboBox(parent);
    box->addItem(QObject::tr("tensor-parallel (tp)"), idOf(core::MoeParallel::Tensor));
    box->addItem(QObject::tr("expert-parallel (ep)"), idOf(core::MoeParallel::Expert));
    box->setToolTip(placementTip());
    return box;
}

core::MoeParallel expertPlacementOf(const QComboBox& box) {
    return core::parseMoeParallel(box.currentData().toString().toStdString()).value_or(core::MoeParallel::Tensor);
}

void selectExpertPlacement(QComboBox& box, core::MoeParallel mode) {
    box.setCurrentIndex(std::max(0, box.findData(idOf(mode))));
}

QDoubleSpinBox* newRoutingSkewBox(QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0, kMaxRoutingSkew);
    box->setDecimals(2);
    box->setSingleStep(0.1);
    box->setValue(0);
    box->setKeyboardTracking(false);  // one recompute per finished number
    box->setSpecialValueText(QObject::tr("0 (uniform)"));
    box->setToolTip(skewTip());
    return box;
}

void enableMoeChoices(bool moe, QComboBox& placement, QDoubleSpinBox& skew) {
    placement.setEnabled(moe);
    skew.setEnabled(moe);
    const QString dense = QObject::tr("A dense model has no experts: this choice does not apply");
    placement.setToolTip(moe ? placementTip() : dense);
    skew.setToolTip(moe ? skewTip() : dense);
}

void applyMoeChoices(const QComboBox& placement, const QDoubleSpinBox& skew, core::ModelSpec& model,
                     core::MoeParallel& mode) {
    if (!model.isMoe()) {
        mode = core::MoeParallel::Tensor;
        return;
    }
    mode = expertPlacementOf(placement);
    model.moe.routingSkew = skew.value();
}

}  // namespace tpscope::ui
