// SPDX-License-Identifier: GPL-3.0-or-later
// Copyright (C) 2026 The tpscope authors
// tpscope: the desktop GUI.
//   tpscope                       opens on the embedded default sweep (a simulated 8-GPU H100 node)
//   tpscope FILE                  opens a workspace, trace file or rank folder
//   tpscope --screenshot OUT.png [FILE]   renders the main window offscreen and exits
//   tpscope --screenshot OUT.png A B [C D]  the same on the Compare tab of the files' runs
//   tpscope --screenshot OUT.png --timings [FILE]  also prints first frame, complete view and peak
//                                   memory as one JSON line (open_timings.h)
//   tpscope --report OUT.pdf [FILE...]    writes the multi-page PDF report (no FILE: the default sweep)
//   tpscope --report DIR [FILE...]  writes screenshots, summary.md and report.pdf into DIR, all of FILE
//                                   (no FILE: all of the default sweep)
//   tpscope --export-charts DIR [FILE]    writes every chart as PNG/SVG/PDF and its table as CSV
// The --screenshot, --report and --export-charts modes need no display.

#include "core/backend/backend.h"
#include "core/util/build_info.h"
#include "core/util/huge_pages.h"
#ifdef TPSCOPE_HAVE_CUDA
#include "gpu/local_backend.h"
#endif
#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTemporaryDir>
#include <QTimer>

#include <cstdio>
#include <cstring>
#include <exception>
#include <new>

#include "headless.h"
#include "headless_charts.h"
#include "open_timings.h"
#include "ui/timeline/timeline_panel.h"
#include "ui/window/main_window.h"

namespace {

// Modes that never show a window: they run on the offscreen platform, so they work without a display.
bool wantsHeadless(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        for (const char* flag :
             {"--screenshot", "--report", "--export-charts", "--help", "-h", "--help-all", "--version", "-v"}) {
            if (std::strncmp(argv[i], flag, std::strlen(flag)) == 0) return true;
        }
    }
    return false;
}

bool hasDisplay() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int run(int argc, char** argv) {
    // The headless modes must choose the offscreen platform before QApplication exists, whatever
    // the environment says: they are used exactly where there is no display.
    if (wantsHeadless(argc, argv)) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    } else if (!hasDisplay()) {
        // Qt would abort with a platform-plugin error; say what to do instead.
        std::fprintf(stderr,
                     "tpscope: no display (DISPLAY and WAYLAND_DISPLAY are unset). Use --report OUT.pdf [FILE...] "
                     "to write a report, --export-charts DIR [FILE], or --screenshot OUT.png [FILE].\n");
        return 1;
    }
#ifdef TPSCOPE_HAVE_CUDA
    tpscope::core::registerLocalBackend(tpscope::gpu::makeLocalBackend());
#endif
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("tpscope"));
    QApplication::setApplicationName(QStringLiteral("tpscope"));
    QApplication::setApplicationVersion(QStringLiteral(TPSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("tpscope: where did the tensor-parallel speed-up go?"));
    parser.addHelpOption();
    // Not addVersionOption(): --version also names the commit and the licence (core::versionText).
    const QCommandLineOption version({QStringLiteral("v"), QStringLiteral("version")},
                                     QStringLiteral("Displays version, commit and licence information."));
    parser.addOption(version);
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the main window offscreen into <png> and exit; with 2 to 4 files, on the "
                       "Compare tab of their runs."),
        QStringLiteral("png"));
    const QCommandLineOption report(
        QStringLiteral("report"),
        QStringLiteral(
            "Write the PDF report of [file...] (default: the embedded sweep) to <out.pdf> and exit; a "
            "folder instead gets screenshots, summary.md and report.pdf, every one of [file...] (default: the "
            "embedded sweep)."),
        QStringLiteral("out"));
    const QCommandLineOption exportCharts(
        QStringLiteral("export-charts"),
        QStringLiteral("Write every chart of [file] (default: the embedded sweep) as PNG, SVG and PDF, and its "
                       "table as CSV, into <dir> and exit."),
        QStringLiteral("dir"));
    const QCommandLineOption timings(
        QStringLiteral("timings"),
        QStringLiteral("With --screenshot: print one JSON line with first_frame_s, complete_s (seconds since the "
                       "program started) and peak_rss_mb."));
    parser.addOption(screenshot);
    parser.addOption(timings);
    parser.addOption(report);
    parser.addOption(exportCharts);
    parser.addPositionalArgument(
        QStringLiteral("file"),
        QStringLiteral("Workspace (.tpscope), Kineto JSON (.json, .json.gz), rank folder or nsys SQLite."),
        QStringLiteral("[file...]"));
    parser.process(app);
    if (parser.isSet(version)) {
        std::fputs(tpscope::core::versionText("tpscope").c_str(), stdout);
        return 0;
    }
    const QStringList files = parser.positionalArguments();
    const QString file = files.value(0);
    if (parser.isSet(report) && parser.value(report).endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive)) {
        return tpscope::app::writeReportPdf(parser.value(report), files);
    }
    if (parser.isSet(exportCharts)) return tpscope::app::exportCharts(parser.value(exportCharts), files);
    if (parser.isSet(timings) && !parser.isSet(screenshot)) {
        std::fprintf(stderr, "tpscope: --timings measures a --screenshot run; add --screenshot OUT.png\n");
        return 1;
    }

    // The headless modes neither read nor write the user's settings (recent files, last folder, window
    // state, the run panel): a throwaway folder stands in for them. Before any QSettings exists.
    QTemporaryDir headlessSettings;
    if (parser.isSet(report) || parser.isSet(screenshot)) {
        for (const auto format : {QSettings::NativeFormat, QSettings::IniFormat}) {
            QSettings::setPath(format, QSettings::UserScope, headlessSettings.path());
        }
    }
    tpscope::ui::MainWindow window(tpscope::ui::defaultServices());
    if (parser.isSet(report)) {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        const int status = tpscope::app::writeReport(window, parser.value(report), files);
        if (status != 0) return status;
        return tpscope::app::writeReportPdf(parser.value(report) + QStringLiteral("/report.pdf"), files);
    }
    if (parser.isSet(screenshot)) {
        window.setUnsavedPrompt([](QWidget*) { return QMessageBox::Discard; });
        if (files.size() >= 2) return tpscope::app::takeCompareScreenshot(window, parser.value(screenshot), files);
        if (parser.isSet(timings)) {
            tpscope::app::OpenTimings clock(window.timelinePanel()->view());
            const int status = tpscope::app::takeScreenshot(window, parser.value(screenshot), file, &clock);
            std::fputs(clock.jsonLine().c_str(), stdout);
            return status;
        }
        return tpscope::app::takeScreenshot(window, parser.value(screenshot), file);
    }
    window.show();
    if (file.isEmpty()) {
        QObject::connect(
            &window, &tpscope::ui::MainWindow::sweepFinished, &window,
            [&window](bool cancelled) {
                // Not over a run or a kernel the user picked while the sweep ran.
                if (!cancelled) window.focusTimelineOnExampleUnlessUserChose(/*wholeStep=*/true);
            },
            Qt::SingleShotConnection);
        QTimer::singleShot(0, &window, &tpscope::ui::MainWindow::startDefaultSweep);
    } else {
        window.openPath(file);
    }
    return app.exec();
}

}  // namespace

int main(int argc, char** argv) {
    // First, before any thread or file: the heap on huge pages (may execute the program again).
    (void)tpscope::core::restartWithHugePages(argv);
    // core reports allocation failures as errors; this is the last line for anything that escapes.
    try {
        return run(argc, argv);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "tpscope: out of memory (the input needs more memory than is available)\n");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "tpscope: internal error: %s\n", e.what());
    }
    return 1;
}
