#include "CommandLine.h"

#include <QCommandLineParser>
#include <QRegularExpression>

#include "BuildConfig.h"

namespace pinscope::desktop {

namespace {
constexpr int kUsageError = 2;
}

ParseResult parse_command_line(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("pinscope: watch batches travel from host memory to the GPU, the way PyTorch's DataLoader "
                       "moves them.\nWith no options the window opens. With --screenshot it runs headless: starts a "
                       "run, waits, saves the window as PNG, SVG or PDF, writes the exports asked for, and exits."));
    const QCommandLineOption help = parser.addHelpOption();
    const QCommandLineOption version = parser.addVersionOption();
    const QCommandLineOption screenshot({QStringLiteral("screenshot")}, QStringLiteral("Save the window to FILE (.png, .svg, .pdf) and exit."), QStringLiteral("FILE"));
    const QCommandLineOption after({QStringLiteral("after")}, QStringLiteral("Seconds to run before the screenshot (default 3)."), QStringLiteral("SECONDS"), QStringLiteral("3"));
    const QCommandLineOption config({QStringLiteral("config")}, QStringLiteral("Configuration JSON (the keys of pinscope-cli --config)."), QStringLiteral("FILE"));
    const QCommandLineOption csv({QStringLiteral("csv")}, QStringLiteral("With --screenshot: write spans.csv, counters.csv, numa.csv and summary.json into DIR."), QStringLiteral("DIR"));
    const QCommandLineOption trace({QStringLiteral("trace")}, QStringLiteral("With --screenshot: write the Chrome trace JSON to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption scale({QStringLiteral("scale")}, QStringLiteral("Device pixel ratio of a PNG screenshot, e.g. 2 for high-DPI (default 1)."), QStringLiteral("FACTOR"), QStringLiteral("1"));
    const QCommandLineOption size({QStringLiteral("size")}, QStringLiteral("Window size for the screenshot (default 1600x1000)."), QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption view({QStringLiteral("view")}, QStringLiteral("The tab to show: live (timeline and plots) or numa (the NUMA view). Default live."), QStringLiteral("TAB"), QStringLiteral("live"));
    parser.addOptions({screenshot, after, config, csv, trace, scale, size, view});

    ParseResult result;
    if (!parser.parse(arguments)) return {std::nullopt, kUsageError, parser.errorText() + QStringLiteral("\n\n") + parser.helpText()};
    if (parser.isSet(help)) return {std::nullopt, 0, parser.helpText()};
    if (parser.isSet(version)) return {std::nullopt, 0, QStringLiteral("pinscope " PINSCOPE_VERSION)};
    if (!parser.positionalArguments().isEmpty())
        return {std::nullopt, kUsageError, QStringLiteral("unexpected argument: %1").arg(parser.positionalArguments().first())};

    CommandLine line;
    line.screenshot = parser.value(screenshot);
    line.config = parser.value(config);
    line.csv_dir = parser.value(csv);
    line.trace = parser.value(trace);
    bool ok = false;
    line.after_s = parser.value(after).toDouble(&ok);
    if (!ok || line.after_s < 0 || line.after_s > 3600)
        return {std::nullopt, kUsageError, QStringLiteral("--after: %1 is not allowed; expected seconds from 0 to 3600").arg(parser.value(after))};
    line.scale = parser.value(scale).toDouble(&ok);
    if (!ok || line.scale < 0.25 || line.scale > 8)
        return {std::nullopt, kUsageError, QStringLiteral("--scale: %1 is not allowed; expected a factor from 0.25 to 8").arg(parser.value(scale))};
    const auto match = QRegularExpression(QStringLiteral("^(\\d{3,5})x(\\d{3,5})$")).match(parser.value(size));
    if (!match.hasMatch())
        return {std::nullopt, kUsageError, QStringLiteral("--size: %1 is not allowed; expected WxH, e.g. 1920x1080").arg(parser.value(size))};
    line.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
    line.view = parser.value(view);
    if (line.view != QStringLiteral("live") && line.view != QStringLiteral("numa"))
        return {std::nullopt, kUsageError, QStringLiteral("--view: %1 is not a tab; expected live or numa").arg(line.view)};
    if (!line.headless() && (parser.isSet(csv) || parser.isSet(trace) || parser.isSet(after)))
        return {std::nullopt, kUsageError, QStringLiteral("--after, --csv and --trace go with --screenshot")};
    result.line = line;
    return result;
}

}  // namespace pinscope::desktop
