// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/compare/ComparisonView.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/runner/ReadAheadRunSource.h"
#include "ui/compare/ComparedSeriesPlot.h"
#include "ui/compare/ComparisonTable.h"
#include "ui/compare/SharedTimeAxis.h"
#include "ui/style/AppStyle.h"
#include "ui/timeline/TimelinePlot.h"
#include "ui/window/DeviceBanner.h"

namespace pinscope::ui {
namespace {

// While the runs come in, the views are brought up to date this often (and at each run's first
// and last frame): redrawing two timelines of a million spans more often takes the CPU that
// reading them needs (a quarter of it at 250 ms, two runs of a million spans on two cores).
constexpr qint64 kRefreshMs = 500;
constexpr int kPollHz = 100;

QString time_label(RunSide side, double shift_s, std::optional<std::uint64_t> batch) {
    const QString own = QStringLiteral("%1: time since its start (s)").arg(side_letter(side));
    if (side == RunSide::A || !batch) return own;
    return own + QStringLiteral(", lined up with A's at batch %1 (B's began %2 s %3)")
                     .arg(*batch)
                     .arg(std::abs(shift_s), 0, 'f', 3)
                     .arg(shift_s >= 0 ? QStringLiteral("later") : QStringLiteral("earlier"));
}

// "A: run 1 of before.pinscope", for the plots' legends.
QString run_name(RunSide side, const RunFrame& frame) {
    if (!frame.recorded) return side_letter(side);
    QString file = QFileInfo(QString::fromStdString(frame.recorded->file)).fileName();
    if (file.size() > 32) file = file.left(14) + QStringLiteral("…") + file.right(17);
    return QStringLiteral("%1: run %2 of %3").arg(side_letter(side)).arg(frame.recorded->run).arg(file);
}

}  // namespace

ComparisonView::ComparisonView(FeedOptions feed, QWidget* parent) : QWidget(parent), axis_(new SharedTimeAxis(this)) {
    // Each run is read on a thread of its own (ReadAheadRunSource); its feed takes what is ready
    // every few milliseconds, so that the runs come in as fast as they are read.
    FeedOptions quick = feed;
    quick.poll_hz = kPollHz;
    for (const RunSide side : kSides) {
        auto& runs = feeds_[side_index(side)];
        runs = std::make_unique<RunFeed>(quick);
        connect(runs.get(), &RunFeed::frame, this, [this, side](const RunFrame& frame) { take(side, frame); });
        auto* timeline = new TimelinePlot(feed.span_capacity);
        timeline->set_frozen(true);  // the runs are recorded: pan and zoom from the start
        timeline->set_empty_hint(QStringLiteral("Reading run %1…").arg(side_letter(side)));
        timeline->setMinimumHeight(200);
        timeline->xAxis->setLabel(time_label(side, 0, std::nullopt));
        timeline->xAxis->setLabelColor(side_color(side).darker(120));
        timelines_[side_index(side)] = timeline;
        connect(timeline, &TimelinePlot::batchSelected, this, [this, side](std::optional<std::uint64_t> batch) { batch_selected(side, batch); });
    }
    plots_ = {ComparedSeriesPlot::batches_per_s(), ComparedSeriesPlot::gpu_busy(), ComparedSeriesPlot::pinned_in_use()};

    auto* runs = new QSplitter(Qt::Vertical);
    runs->addWidget(build_side(RunSide::A));
    runs->addWidget(build_side(RunSide::B));
    auto* plot_row = new QWidget;
    auto* plot_layout = new QHBoxLayout(plot_row);
    plot_layout->setContentsMargins(0, 0, 0, 0);
    for (ComparedSeriesPlot* plot : plots_) {
        plot->setMinimumSize(260, 170);
        plot_layout->addWidget(plot);
    }
    runs->addWidget(plot_row);
    runs->setStretchFactor(0, 3);
    runs->setStretchFactor(1, 3);
    runs->setStretchFactor(2, 2);
    runs->setChildrenCollapsible(false);

    table_ = new ComparisonTable;
    auto* scroll = new QScrollArea;
    scroll->setWidget(table_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(440);

    auto* main = new QSplitter(Qt::Horizontal);
    main->addWidget(runs);
    main->addWidget(scroll);
    main->setStretchFactor(0, 1);
    main->setStretchFactor(1, 0);
    main->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(4);
    layout->addWidget(build_controls());
    layout->addWidget(main, 1);

    for (const RunSide side : kSides) {
        axis_->add(timeline(side).xAxis, 0);
        for (ComparedSeriesPlot* plot : plots_) axis_->add(plot->time_axis(side), 0);
    }
    connect(axis_, &SharedTimeAxis::rangeChanged, this, [this](const QCPRange&, bool by_user) {
        if (by_user && !taking_) following_ = false;
    });
    since_refresh_.start();
}

ComparisonView::~ComparisonView() = default;

QWidget* ComparisonView::build_side(RunSide side) {
    auto* box = new QWidget;
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    auto* head = new QHBoxLayout;
    auto* badge = new QLabel(side_letter(side));
    badge->setFont(app_font(12, true));
    badge->setAlignment(Qt::AlignCenter);
    badge->setFixedWidth(28);
    badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: white; border-radius: 4px; }").arg(side_color(side).name()));
    auto* banner = new DeviceBanner;
    banner->setText(QStringLiteral("Reading run %1…").arg(side_letter(side)));
    banners_[side_index(side)] = banner;
    head->addWidget(badge);
    head->addWidget(banner, 1);
    layout->addLayout(head);
    layout->addWidget(&timeline(side), 1);
    return box;
}

QWidget* ComparisonView::build_controls() {
    auto* bar = new QWidget;
    auto* layout = new QHBoxLayout(bar);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(QStringLiteral("<b>Comparing two runs</b>"));
    title->setFont(app_font(11));
    layout->addWidget(title);
    layout->addSpacing(16);
    layout->addWidget(new QLabel(QStringLiteral("Line B up with A at")));
    align_ = new QComboBox;
    align_->addItems({QStringLiteral("their starts"), QStringLiteral("the start of batch")});
    align_->setToolTip(QStringLiteral("Where B's timeline and lines meet A's: both runs from their start, or both from "
                                      "where the chosen batch began in each (click a span to line up at its batch)"));
    layout->addWidget(align_);
    batch_ = new QSpinBox;
    batch_->setRange(0, std::numeric_limits<int>::max());
    batch_->setEnabled(false);
    batch_->setKeyboardTracking(false);  // typing 150 lines up at 150, not at 1 and 15 on the way
    batch_->setMinimumWidth(90);
    layout->addWidget(batch_);
    align_note_ = new QLabel;
    align_note_->setFont(app_font(9));
    layout->addWidget(align_note_);
    layout->addStretch(1);
    auto* whole = new QPushButton(QStringLiteral("Show whole runs"));
    connect(whole, &QPushButton::clicked, this, &ComparisonView::show_whole_runs);
    layout->addWidget(whole);
    auto* close = new QPushButton(QStringLiteral("Close comparison"));
    close->setToolTip(QStringLiteral("Back to the run the window showed before"));
    connect(close, &QPushButton::clicked, this, &ComparisonView::closeRequested);
    layout->addWidget(close);
    connect(align_, qOverload<int>(&QComboBox::currentIndexChanged), this, &ComparisonView::alignment_chosen);
    connect(batch_, qOverload<int>(&QSpinBox::valueChanged), this, &ComparisonView::alignment_chosen);
    return bar;
}

void ComparisonView::show_runs(std::shared_ptr<RunSource> a, std::shared_ptr<RunSource> b) {
    ended_ = false;
    following_ = true;
    feeds_[0]->show(std::make_shared<ReadAheadRunSource>(std::move(a)));
    feeds_[1]->show(std::make_shared<ReadAheadRunSource>(std::move(b)));
}

void ComparisonView::take(RunSide side, const RunFrame& frame) {
    const int i = side_index(side);
    taking_ = true;
    if (frame.first) {
        origins_[static_cast<std::size_t>(i)] = frame.origin;
        names_[static_cast<std::size_t>(i)] = run_name(side, frame);
        for (ComparedSeriesPlot* plot : plots_) plot->set_run_names(names_[0], names_[1]);
    }
    timeline(side).take(frame);
    banner(side).take(frame);
    for (ComparedSeriesPlot* plot : plots_) plot->input(side).take(frame);
    model_.take(side, frame);
    lengths_s_[static_cast<std::size_t>(i)] = frame.seconds();
    taking_ = false;
    if (frame.first || frame.ended || since_refresh_.elapsed() >= kRefreshMs) refresh();
}

void ComparisonView::refresh() {
    since_refresh_.restart();
    const bool in = model_.both_ended();
    table_->show_comparison(model_.update(), in);
    if (const auto last = model_.last_common_batch()) batch_->setMaximum(static_cast<int>(std::min<std::uint64_t>(*last, std::numeric_limits<int>::max())));
    taking_ = true;
    if (following_) axis_->set_range(whole_range());
    for (const RunSide side : kSides) timeline(side).refresh(lengths_s_[static_cast<std::size_t>(side_index(side))], false);
    for (ComparedSeriesPlot* plot : plots_) plot->refresh(0);
    taking_ = false;
    if (!in || ended_) return;
    ended_ = true;
    if (aligned_batch_) align_at_batch(*aligned_batch_);  // the batch may have come in after it was chosen
    if (following_) show_whole_runs();
    for (const RunSide side : kSides) timeline(side).replot();
    emit runsIn();
}

QCPRange ComparisonView::whole_range() const {
    // A from 0 to its length; B from -shift to its length less the shift, on A's time.
    const double lower = std::min(0.0, -shift_s_);
    const double upper = std::max({lengths_s_[0], lengths_s_[1] - shift_s_, lower + 0.001});
    return {lower, upper};
}

void ComparisonView::show_whole_runs() {
    axis_->set_range(whole_range());
    following_ = !runs_in();
}

void ComparisonView::set_shift(double shift_s) {
    shift_s_ = shift_s;
    QCPAxis* b_axis = timeline(RunSide::B).xAxis;
    axis_->set_offset(b_axis, shift_s);
    for (ComparedSeriesPlot* plot : plots_) axis_->set_offset(plot->time_axis(RunSide::B), shift_s);
    b_axis->setLabel(time_label(RunSide::B, shift_s, aligned_batch_));
    timeline(RunSide::B).replot(QCustomPlot::rpQueuedReplot);
}

void ComparisonView::align_at_start() {
    aligned_batch_.reset();
    set_shift(0);
    align_note_->clear();
    if (align_->currentIndex() != 0) align_->setCurrentIndex(0);
}

bool ComparisonView::align_at_batch(std::uint64_t batch) {
    const auto shift = model_.shift_at_batch(batch);
    if (!shift) {
        align_note_->setText(QStringLiteral("batch %1 is not in both runs%2").arg(batch).arg(runs_in() ? QString() : QStringLiteral(" yet")));
        return false;
    }
    aligned_batch_ = batch;
    align_note_->clear();
    set_shift(*shift);
    // Batch `batch` in view: where it began in A, if the view is elsewhere.
    const double at = static_cast<double>(*model_.batch_start(RunSide::A, batch)) * 1e-9;
    const QCPRange range = axis_->range();
    if (!range.contains(at)) axis_->set_range({at - range.size() / 2, at + range.size() / 2});
    if (align_->currentIndex() != 1) align_->setCurrentIndex(1);
    if (batch_->value() != static_cast<int>(batch) && batch <= static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
        batch_->setValue(static_cast<int>(batch));
    return true;
}

void ComparisonView::alignment_chosen() {
    const bool at_batch = align_->currentIndex() == 1;
    batch_->setEnabled(at_batch);
    if (!at_batch) {
        if (aligned_batch_ || shift_s_ != 0) align_at_start();
        return;
    }
    const auto batch = static_cast<std::uint64_t>(batch_->value());
    if (aligned_batch_ != batch) align_at_batch(batch);
}

void ComparisonView::batch_selected(RunSide side, std::optional<std::uint64_t> batch) {
    if (selecting_) return;  // the other timeline following this one's choice
    selecting_ = true;
    const RunSide other = side == RunSide::A ? RunSide::B : RunSide::A;
    const auto start = batch ? model_.batch_start(other, *batch) : std::nullopt;
    timeline(other).select_batch(start ? batch : std::nullopt, start ? origins_[static_cast<std::size_t>(side_index(other))] + *start : 0);
    // The batch clicked is the one to line up at: at once when lining up at a batch, else once asked for.
    if (batch && align_->currentIndex() == 1) {
        align_at_batch(*batch);
    } else if (batch && *batch <= static_cast<std::uint64_t>(std::numeric_limits<int>::max())) {
        const QSignalBlocker quiet(batch_);
        batch_->setValue(static_cast<int>(*batch));
    }
    selecting_ = false;
}

}  // namespace pinscope::ui
