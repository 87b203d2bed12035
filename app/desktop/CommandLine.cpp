// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/desktop/CommandLine.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include <algorithm>
#include <string>

#include "app/desktop/DesktopOptions.h"
#include "engine/about/ProgramInfo.h"
#include "engine/config/ConfigError.h"
#include "engine/config/ConfigJson.h"
#include "engine/lesson/LessonLoader.h"
#include "engine/numa/NumaPlan.h"
#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/UntrustedText.h"
#include "ui/controls/ControlPanel.h"
#include "ui/export/ImageExport.h"

namespace pinscope::desktop {

namespace {
constexpr int kUsageError = 2;
constexpr double kMaxAfterSeconds = 3600;
// The window's size for a screenshot: a screen's worth. Beyond it Qt's backing store and the
// image would need gigabytes (99999x99999 crashed).
constexpr int kMinSide = 320;
constexpr int kMaxSide = 7680;
constexpr int kMaxImageSide = 16384;  // a PNG at --scale: width or height times the scale

// FILE or FILE:RUN, the file a recording that holds the run; the run's number filled in. Throws
// RecordingError naming what is wrong.
RunReference recorded_run(const QString& text) {
    RunReference ref = parse_run_reference(text.toStdString());
    if (ref.segment > 0)
        throw RecordingError(printable(text.toStdString()) + ": the window compares whole runs (FILE or FILE:RUN); "
                             "pinscope-cli compare takes a segment");
    const RecordingReader reader(ref.path);
    ref.run = pick_run(reader, ref.run);
    return ref;
}

}  // namespace

ParseResult parse_command_line(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDesktopDescription));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    for (const DesktopOption& option : kDesktopOptions)
        parser.addOption(QCommandLineOption({QString::fromUtf8(option.name)}, QString::fromUtf8(option.help),
                                            QString::fromUtf8(option.value_name), QString::fromUtf8(option.default_value)));
    parser.addPositionalArgument(QString::fromUtf8(kDesktopRecordingArgument.name), QString::fromUtf8(kDesktopRecordingArgument.help),
                                 QString::fromUtf8(kDesktopRecordingArgument.value_name));
    // The options by name (kDesktopOptions).
    const QString screenshot = QStringLiteral("screenshot"), after = QStringLiteral("after"), config = QStringLiteral("config"),
                  csv = QStringLiteral("csv"), trace = QStringLiteral("trace"), scale = QStringLiteral("scale"),
                  size = QStringLiteral("size"), view = QStringLiteral("view"), open = QStringLiteral("open"),
                  run = QStringLiteral("run"), lesson = QStringLiteral("lesson"), step = QStringLiteral("step"),
                  handout = QStringLiteral("handout"), presenter = QStringLiteral("presenter"),
                  compare = QStringLiteral("compare");

    ParseResult result;
    if (!parser.parse(arguments))
        return {std::nullopt, kUsageError,
                QString::fromStdString(printable(parser.errorText().toStdString(), 2 * kEchoChars)) +
                    QStringLiteral("\n\n") + parser.helpText()};
    if (parser.isSet(help)) return {std::nullopt, 0, parser.helpText()};
    if (parser.isSet(version)) return {std::nullopt, 0, QString::fromStdString(version_text("pinscope"))};
    const QStringList positional = parser.positionalArguments();
    const bool comparing = parser.isSet(compare);
    if (comparing && positional.size() != 1)
        return {std::nullopt, kUsageError, QStringLiteral("--compare takes two runs: --compare A B, each a recording (its last run) or FILE:RUN")};
    if (!comparing && (positional.size() > 1 || (positional.size() == 1 && parser.isSet(open))))
        return {std::nullopt, kUsageError,
                QStringLiteral("unexpected argument: %1 (one recording at a time)")
                    .arg(QString::fromStdString(printable(positional.back().toStdString())))};

    CommandLine line;
    line.recording = positional.isEmpty() || comparing ? parser.value(open) : positional.front();
    line.screenshot = parser.value(screenshot);
    line.config = parser.value(config);
    line.csv_dir = parser.value(csv);
    line.trace = parser.value(trace);
    const auto refuse = [](const QString& flag, const QString& value, const std::string& allowed) {
        const ConfigIssue issue{flag.toStdString(), value.toStdString(), allowed};
        return ParseResult{std::nullopt, kUsageError, QString::fromStdString(issue.message())};
    };
    if (line.headless() && !ui::image_format_of(line.screenshot))
        return refuse(QStringLiteral("--screenshot"), line.screenshot, "a file name ending in .png, .svg or .pdf");
    bool ok = false;
    line.after_s = parser.value(after).toDouble(&ok);
    // NaN passes every comparison's negation: ask for the range itself.
    if (!ok || !(line.after_s >= 0 && line.after_s <= kMaxAfterSeconds))
        return refuse(QStringLiteral("--after"), parser.value(after), "seconds from 0 to 3600");
    line.scale = parser.value(scale).toDouble(&ok);
    if (!ok || !(line.scale >= 0.25 && line.scale <= 8))
        return refuse(QStringLiteral("--scale"), parser.value(scale), "a factor from 0.25 to 8");
    const auto match = QRegularExpression(QStringLiteral("^(\\d{1,6})x(\\d{1,6})$")).match(parser.value(size));
    const QSize wanted = match.hasMatch() ? QSize(match.captured(1).toInt(), match.captured(2).toInt()) : QSize();
    const auto within = [](int pixels) { return pixels >= kMinSide && pixels <= kMaxSide; };
    if (!within(wanted.width()) || !within(wanted.height()))
        return refuse(QStringLiteral("--size"), parser.value(size),
                      "WxH, e.g. 1920x1080, each from " + std::to_string(kMinSide) + " to " + std::to_string(kMaxSide));
    line.size = wanted;
    if (std::max(wanted.width(), wanted.height()) * line.scale > kMaxImageSide)
        return refuse(QStringLiteral("--scale"), parser.value(scale),
                      "a factor that keeps the image within " + std::to_string(kMaxImageSide) + " pixels a side (--size " +
                          parser.value(size).toStdString() + ")");
    line.view = parser.value(view);
    if (line.view != QStringLiteral("live") && line.view != QStringLiteral("numa"))
        return refuse(QStringLiteral("--view"), line.view, "live or numa");
    if (!line.headless() && (parser.isSet(csv) || parser.isSet(trace) || parser.isSet(after)))
        return {std::nullopt, kUsageError, QStringLiteral("--after, --csv and --trace go with --screenshot")};
    if (parser.isSet(run)) {
        const qlonglong number = parser.value(run).toLongLong(&ok);
        if (!ok || number < 1) return refuse(QStringLiteral("--run"), parser.value(run), "a run number from 1");
        if (line.recording.isEmpty()) return {std::nullopt, kUsageError, QStringLiteral("--run goes with a recording (--open FILE)")};
        line.run = number;
    }
    if (comparing) {
        if (parser.isSet(open) || parser.isSet(run) || !line.config.isEmpty() || parser.isSet(after) || parser.isSet(csv) ||
            parser.isSet(trace) || parser.isSet(lesson))
            return {std::nullopt, kUsageError,
                    QStringLiteral("--compare shows two recorded runs: --open, --run, --config, --after, --csv, --trace and "
                                   "--lesson do not go with it")};
        // Each run checked as pinscope-cli compare checks it, before the window opens.
        try {
            line.compare = std::pair{recorded_run(parser.value(compare)), recorded_run(positional.front())};
        } catch (const std::exception& e) {
            return {std::nullopt, kUsageError, QString::fromStdString(e.what())};
        }
    }
    if (!line.recording.isEmpty()) {
        if (!line.config.isEmpty()) return {std::nullopt, kUsageError, QStringLiteral("--config and a recording: give one")};
        if (parser.isSet(after)) return {std::nullopt, kUsageError, QStringLiteral("--after goes with a run, not a recording: its screenshot shows the whole recorded run")};
        // A file that is not a recording, or has no such run, is bad input: said before the window opens.
        try {
            const RecordingReader reader(line.recording.toStdString());
            pick_run(reader, line.run.value_or(0));
        } catch (const std::exception& e) {
            return {std::nullopt, kUsageError, QString::fromStdString(e.what())};
        }
    }
    line.presenter = parser.isSet(presenter);
    line.lesson = parser.value(lesson);
    line.handout = parser.value(handout);
    if ((parser.isSet(step) || parser.isSet(handout)) && line.lesson.isEmpty())
        return {std::nullopt, kUsageError, QStringLiteral("--step and --handout go with --lesson")};
    if (!line.lesson.isEmpty()) {
        if (!line.recording.isEmpty() || !line.config.isEmpty())
            return {std::nullopt, kUsageError, QStringLiteral("--lesson sets each step's configuration: give it without --config or a recording")};
        if (parser.isSet(after) || parser.isSet(csv) || parser.isSet(trace))
            return {std::nullopt, kUsageError, QStringLiteral("--after, --csv and --trace go with a plain run, not --lesson: each step runs for its set time")};
        if (!line.handout.isEmpty() && !line.handout.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive))
            return refuse(QStringLiteral("--handout"), line.handout, "a file name ending in .pdf");
        if (!line.handout.isEmpty() && !line.screenshot.isEmpty())
            return {std::nullopt, kUsageError, QStringLiteral("--handout and --screenshot: give one")};
        std::size_t steps = 0;
        try {
            steps = load_lesson(line.lesson.toStdString()).steps.size();
        } catch (const LessonError& e) {
            return {std::nullopt, kUsageError, QString::fromStdString(e.what())};
        }
        if (parser.isSet(step)) {
            const qlonglong number = parser.value(step).toLongLong(&ok);
            if (!ok || number < 1 || static_cast<std::size_t>(number) > steps)
                return refuse(QStringLiteral("--step"), parser.value(step), "a step of the lesson, from 1 to " + std::to_string(steps));
            line.step = static_cast<std::size_t>(number);
        }
    }
    if (!line.config.isEmpty()) {
        // Checked as a run checks it (its profile and topology included), so that a bad file is
        // bad input (exit 2) before the window opens, as in pinscope-cli.
        const std::string path = line.config.toStdString();
        try {
            // Keys the file leaves out keep the window's defaults: no run length means until Stop.
            line.loaded_config = load_config_file(path, ui::ControlPanel::defaults());
            if (const auto issues = find_run_issues(*line.loaded_config); !issues.empty())
                throw ConfigError(issues.front());
        } catch (const ConfigError& error) {
            const ConfigIssue& issue = error.issue();
            return {std::nullopt, kUsageError,
                    QString::fromStdString(issue.field == "config"
                                               ? ConfigIssue{"--config", path, issue.allowed}.message()
                                               : "--config " + printable_path(path) + ": " + issue.message())};
        }
    }
    result.line = line;
    return result;
}

}  // namespace pinscope::desktop
