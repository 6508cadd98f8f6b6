// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
#pragma once
// The two MoE choices of a plan, one pair of controls shared by the run panel and the Calculator:
// how the experts are placed across the TP group (`--moe-parallel tp|ep`) and the routing skew
// (`--routing-skew`, a Zipf exponent over expert popularity). Both are off for a dense model, whose
// plan ignores them. The numbers they lead to are core's (PlanConfig::moeParallel,
// MoeDims::routingSkew); these functions only build, read and set the widgets.

#include "core/workload/decode_plan.h"

class QComboBox;
class QDoubleSpinBox;
class QWidget;

namespace tpscope::ui {

// The largest skew validateModel accepts (and `--routing-skew` checks).
inline constexpr double kMaxRoutingSkew = 8;

// Items "tensor-parallel (tp)" and "expert-parallel (ep)", each with toString(MoeParallel) as data.
QComboBox* newExpertPlacementBox(QWidget* parent);
core::MoeParallel expertPlacementOf(const QComboBox& box);
void selectExpertPlacement(QComboBox& box, core::MoeParallel mode);

// 0 (uniform routing) to kMaxRoutingSkew; the tooltip says that no public source calibrates it.
QDoubleSpinBox* newRoutingSkewBox(QWidget* parent);

// Enabled for a MoE model, disabled (with a tooltip saying why) for a dense one.
void enableMoeChoices(bool moe, QComboBox& placement, QDoubleSpinBox& skew);

// The plan the two choices give: the placement, and the skew written into the model's MoE
// dimensions. A dense model keeps tensor parallelism and its dimensions.
void applyMoeChoices(const QComboBox& placement, const QDoubleSpinBox& skew, core::ModelSpec& model,
                     core::MoeParallel& mode);

}  // namespace tpscope::ui
