// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// "Simulate this configuration" on a trace that does not name its model (issue 27 §4, issue 32 §3):
// the dialog prefills the model core::analysis::inferModel finds (an imported MoE trace offers the
// matching MoE model) and says what it inferred and from what; a model outside the catalog comes as a
// custom model with a read-only summary of its dimensions, and the simulation runs that model.

#include <QComboBox>
#include <QLabel>
#include <QMessageBox>
#include <QSignalSpy>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "compare_test_support.h"
#include "core/analysis/model_inference.h"
#include "core/io/import/trace_reader.h"
#include "support/moe_kineto_fixture.h"
#include "ui/compare/run_config_dialog.h"
#include "ui/window/compare_controller.h"

namespace tpscope::ui {
namespace {

namespace fs = std::filesystem;

struct RunConfigInference : test::AppGuard, ::testing::Test {};

// An imported run of a simulated trace whose metadata no longer names the model.
RunRecord unnamedRecord(const RunRequest& request) {
    RunRecord record = test::simulatedRecord(request, core::TraceOrigin::Imported);
    auto trace = std::make_shared<core::Trace>(*record.trace);
    std::erase_if(trace->metadata, [](const auto& kv) { return kv.first == "model"; });
    record.trace = std::move(trace);
    deriveRunData(record);
    return record;
}

const QLabel* label(const QDialog& dialog, const char* name) {
    return dialog.findChild<QLabel*>(QString::fromLatin1(name));
}

TEST_F(RunConfigInference, AnImportedMoeTraceOffersTheMatchingMoeModel) {
    const fs::path dir = fs::temp_directory_path() / ("tpscope-ui-infer-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path path = dir / "gpt_oss_decode.json";
    { std::ofstream(path) << test::gptOss20bKinetoJson(); }
    RunRecord record;
    record.request.backend = BackendKind::Imported;
    record.source = QString::fromStdString(path.string());
    auto trace = core::readTrace(path.string());
    fs::remove_all(dir);
    ASSERT_TRUE(trace) << trace.error().describe();
    record.trace = *trace;
    record.status = RunStatus::Done;
    deriveRunData(record);
    const auto catalog = core::Catalog::load();
    ASSERT_TRUE(catalog);

    QString note;
    const RunConfigChoice prefill = prefillFromRun(record, *catalog, &note);
    EXPECT_EQ(prefill.modelId, "gpt-oss-20b") << prefill.modelEvidence;
    EXPECT_TRUE(prefill.modelInferred);
    EXPECT_FALSE(prefill.customModel.has_value());
    EXPECT_FALSE(note.contains(QStringLiteral("the model"))) << note.toStdString();
    // The dialog shows the same words as core's inference.
    const auto inferred = core::analysis::inferModel(*record.trace, catalog->models(), &record.analysis->segmentation);
    EXPECT_EQ(prefill.modelEvidence, inferred.evidence);

    RunConfigDialog dialog(*catalog, RunConfigDialog::Mode::Simulate, prefill, QStringLiteral("gpt-oss"), note);
    const auto* model = dialog.findChild<QComboBox*>(QStringLiteral("configModel"));
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->currentData().toString(), QStringLiteral("gpt-oss-20b"));
    const QLabel* said = label(dialog, "inferredModel");
    ASSERT_NE(said, nullptr);
    EXPECT_TRUE(said->text().contains(QStringLiteral("<b>gpt-oss-20b</b>"))) << said->text().toStdString();
    EXPECT_TRUE(said->text().contains(QStringLiteral("MoE from expert GEMM kernels"))) << said->text().toStdString();
    EXPECT_TRUE(said->text().contains(QStringLiteral("32 experts"))) << said->text().toStdString();
    EXPECT_EQ(label(dialog, "inferredDims"), nullptr);  // a catalog model: no custom dimensions
    EXPECT_EQ(dialog.choice().modelId, "gpt-oss-20b");
    EXPECT_FALSE(dialog.choice().customModel.has_value());
}

TEST_F(RunConfigInference, AnUnnamedQwen3MoeRunPrefillsQwen3) {
    RunRequest request = test::smallRequest(2);
    request.model = *core::Catalog::load()->model("qwen3-30b-a3b");
    const RunRecord record = unnamedRecord(request);
    ASSERT_EQ(record.trace->metadataValue("model"), "");
    const auto catalog = core::Catalog::load();
    const RunConfigChoice prefill = prefillFromRun(record, *catalog);
    EXPECT_EQ(prefill.modelId, "qwen3-30b-a3b") << prefill.modelEvidence;
    RunConfigDialog dialog(*catalog, RunConfigDialog::Mode::Simulate, prefill, QStringLiteral("qwen3"), QString());
    EXPECT_EQ(dialog.findChild<QComboBox*>(QStringLiteral("configModel"))->currentData().toString(),
              QStringLiteral("qwen3-30b-a3b"));
    ASSERT_NE(label(dialog, "inferredModel"), nullptr);
    EXPECT_TRUE(label(dialog, "inferredModel")->text().contains(QStringLiteral("128 experts")));
}

// A dense model no catalog entry has: the dialog selects "Inferred from the trace (custom)", shows its
// dimensions, and "Simulate" runs that model.
TEST_F(RunConfigInference, ACustomDenseModelIsShownAndSimulated) {
    MainWindow window(defaultServices());
    window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
    RunRequest request = test::smallRequest(2);
    request.model.id = "not-in-catalog";
    request.model.hidden = 3072;
    request.model.ffn = 8192;
    request.model.heads = 24;
    request.model.kvHeads = 8;
    request.model.layers = 4;
    request.model.vocab = 100352;
    const RunId measured = window.document()->add(unnamedRecord(request));
    window.selectRun(measured);
    QString note;
    const RunConfigChoice prefill = prefillFromRun(*window.document()->run(measured), window.catalog(), &note);
    ASSERT_TRUE(prefill.customModel.has_value()) << prefill.modelEvidence;
    EXPECT_TRUE(prefill.modelInferred);
    EXPECT_EQ(prefill.customModel->hidden, 3072);
    EXPECT_EQ(prefill.customModel->ffn, 8192);
    EXPECT_EQ(prefill.customModel->layers, 4);
    EXPECT_EQ(prefill.customModel->heads * prefill.customModel->headDim, 24 * 128);
    EXPECT_EQ(prefill.customModel->kvHeads * prefill.customModel->headDim, 8 * 128);
    EXPECT_EQ(prefill.customModel->vocab, 100352);

    RunConfigDialog dialog(window.catalog(), RunConfigDialog::Mode::Simulate, prefill, QStringLiteral("custom"), note);
    auto* model = dialog.findChild<QComboBox*>(QStringLiteral("configModel"));
    ASSERT_NE(model, nullptr);
    EXPECT_EQ(model->currentIndex(), 0);
    EXPECT_EQ(model->currentText(), QStringLiteral("Inferred from the trace (custom)"));
    const QLabel* dims = label(dialog, "inferredDims");
    ASSERT_NE(dims, nullptr);
    EXPECT_EQ(dims->text(),
              QStringLiteral("hidden 3072, 4 layers, 24 heads (8 kv) of 128, FFN 8192, vocabulary 100352"));
    EXPECT_TRUE(label(dialog, "inferredModel")->text().contains(QStringLiteral("a custom model")));
    const RunConfigChoice choice = dialog.choice();
    ASSERT_TRUE(choice.customModel.has_value());
    auto chosen = chosenModel(choice, window.catalog());
    ASSERT_TRUE(chosen);
    EXPECT_EQ(chosen->hidden, 3072);
    // Choosing a catalog model instead drops the custom one.
    model->setCurrentIndex(model->findData(QStringLiteral("llama3-8b")));
    EXPECT_TRUE(dims->isHidden());
    EXPECT_FALSE(dialog.choice().customModel.has_value());
    EXPECT_EQ(chosenModel(dialog.choice(), window.catalog())->id, "llama3-8b");

    auto* controller = window.compareController();
    QSignalSpy shown(controller, &CompareController::comparisonShown);
    ASSERT_TRUE(controller->simulateConfiguration(measured, choice).ok());
    ASSERT_TRUE(shown.wait(120'000));
    const RunRecord& sim = window.document()->runs().back();
    EXPECT_EQ(sim.status, RunStatus::Done);
    EXPECT_EQ(sim.request.model.hidden, 3072);
    EXPECT_EQ(sim.request.model.layers, 4);
    EXPECT_EQ(sim.trace->metadataValue("model"), prefill.customModel->id);
}

}  // namespace
}  // namespace tpscope::ui
