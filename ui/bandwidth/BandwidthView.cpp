// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/bandwidth/BandwidthView.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/bandwidth/BandwidthPlot.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/plots/ByteFormat.h"

namespace pinscope::ui {

namespace {

QComboBox* size_choice(std::size_t selected) {
    auto* combo = new QComboBox;
    for (std::size_t bytes = 1024; bytes <= (std::size_t{4} << 30); bytes *= 4) {
        combo->addItem(memory_text(static_cast<double>(bytes)), QVariant::fromValue<qulonglong>(bytes));
        if (bytes == selected) combo->setCurrentIndex(combo->count() - 1);
    }
    return combo;
}

}  // namespace

BandwidthView::BandwidthView(BandwidthSweepFunction sweep, QWidget* parent)
    : QWidget(parent), runner_(new BandwidthSweepRunner(std::move(sweep), this)), plot_(new BandwidthPlot) {
    const BandwidthOptions defaults;
    device_ = new QComboBox;
    for (const auto& choice : device_choices()) device_->addItem(choice.label, QString::fromStdString(choice.device));
    set_device(default_device());
    min_size_ = size_choice(defaults.min_bytes);
    max_size_ = size_choice(defaults.max_bytes);
    samples_ = new QSpinBox;
    samples_->setRange(1, 50);
    samples_->setValue(defaults.samples);
    samples_->setToolTip(QStringLiteral("Timed samples per size (after one warm-up); the curve shows their median"));
    h2d_ = new QCheckBox(QStringLiteral("H2D"));
    d2h_ = new QCheckBox(QStringLiteral("D2H"));
    pinned_ = new QCheckBox(QStringLiteral("pinned"));
    pageable_ = new QCheckBox(QStringLiteral("pageable"));
    write_combined_ = new QCheckBox(QStringLiteral("write-combined"));
    for (QCheckBox* box : {h2d_, d2h_, pinned_, pageable_, write_combined_}) box->setChecked(true);
    write_combined_->setToolTip(QStringLiteral("cudaHostAllocWriteCombined: page-locked and uncached; fast to the GPU, "
                                               "slow for the CPU to read"));
    run_ = new QPushButton(QStringLiteral("Run sweep"));
    run_->setDefault(true);
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setTextVisible(true);
    progress_->setFormat(QStringLiteral("%p %"));
    status_ = new QLabel(QStringLiteral("Measures host↔device copies of every size, as nvbandwidth does. On the emulated "
                                        "device the figures come from its profile."));
    status_->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(QStringLiteral("device")));
    controls->addWidget(device_, 2);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(QStringLiteral("sizes")));
    controls->addWidget(min_size_);
    controls->addWidget(new QLabel(QStringLiteral("to")));
    controls->addWidget(max_size_);
    controls->addSpacing(8);
    controls->addWidget(new QLabel(QStringLiteral("samples")));
    controls->addWidget(samples_);
    controls->addSpacing(8);
    for (QCheckBox* box : {h2d_, d2h_, pinned_, pageable_, write_combined_}) controls->addWidget(box);
    controls->addStretch(1);
    controls->addWidget(run_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(controls);
    auto* progress_row = new QHBoxLayout;
    progress_row->addWidget(progress_, 1);
    progress_row->addWidget(status_, 3);
    layout->addLayout(progress_row);
    layout->addWidget(plot_, 1);

    connect(run_, &QPushButton::clicked, this, &BandwidthView::run_clicked);
    connect(runner_, &BandwidthSweepRunner::pointMeasured, this, [this](double fraction, const BandwidthPoint& point) {
        progress_->setValue(static_cast<int>(fraction * 1000));
        plot_->add_point(point);
        status_->setText(QStringLiteral("%1 %2 at %3: %4 GB/s")
                             .arg(point.direction == CopyDirection::H2D ? QStringLiteral("H2D") : QStringLiteral("D2H"))
                             .arg(QString::fromStdString(to_string(point.memory)))
                             .arg(memory_text(static_cast<double>(point.bytes)))
                             .arg(point.gb_per_s, 0, 'f', 2));
    });
    connect(runner_, &BandwidthSweepRunner::finished, this, [this](const BandwidthResult& result, bool cancelled) {
        plot_->set_link(QString::fromStdString(result.link_name), result.link_gb_per_s);
        if (!cancelled) progress_->setValue(1000);
        const QString device = QStringLiteral("%1 (%2)").arg(QString::fromStdString(result.device.name),
                                                             QString::fromUtf8(to_string(result.device.kind)));
        status_->setText(QStringLiteral("%1 %2 points on %3.")
                             .arg(cancelled ? QStringLiteral("Cancelled after") : QStringLiteral("Done:"))
                             .arg(result.points.size())
                             .arg(device));
        update_buttons();
        emit sweepFinished(cancelled);
    });
    connect(runner_, &BandwidthSweepRunner::failed, this, [this](const QString& message) {
        status_->setText(QStringLiteral("The sweep failed: %1").arg(message));
        update_buttons();
        emit sweepFailed(message);
    });
}

void BandwidthView::set_device(const std::string& device) {
    const int index = device_->findData(QString::fromStdString(device));
    if (index >= 0) device_->setCurrentIndex(index);
}

BandwidthOptions BandwidthView::options() const {
    BandwidthOptions options;
    options.device = device_->currentData().toString().toStdString();
    options.min_bytes = min_size_->currentData().toULongLong();
    options.max_bytes = std::max<std::size_t>(options.min_bytes, max_size_->currentData().toULongLong());
    options.samples = samples_->value();
    options.directions.clear();
    if (h2d_->isChecked()) options.directions.push_back(CopyDirection::H2D);
    if (d2h_->isChecked()) options.directions.push_back(CopyDirection::D2H);
    options.memories.clear();
    if (pinned_->isChecked()) options.memories.push_back(HostMemoryKind::Pinned);
    if (pageable_->isChecked()) options.memories.push_back(HostMemoryKind::Pageable);
    if (write_combined_->isChecked()) options.memories.push_back(HostMemoryKind::WriteCombined);
    return options;
}

bool BandwidthView::run(const BandwidthOptions& options) {
    if (runner_->running()) return false;
    if (options.directions.empty() || options.memories.empty()) {
        status_->setText(QStringLiteral("Choose at least one direction and one kind of host memory."));
        return false;
    }
    plot_->reset(options.min_bytes, options.max_bytes);
    progress_->setValue(0);
    status_->setText(QStringLiteral("Opening %1…").arg(QString::fromStdString(options.device)));
    const bool started = runner_->start(options);
    update_buttons();
    return started;
}

void BandwidthView::cancel() { runner_->cancel(); }

bool BandwidthView::running() const { return runner_->running(); }

QString BandwidthView::status_text() const { return status_->text(); }

void BandwidthView::run_clicked() {
    if (runner_->running()) cancel();
    else run(options());
}

void BandwidthView::update_buttons() {
    const bool running = runner_->running();
    run_->setText(running ? QStringLiteral("Cancel") : QStringLiteral("Run sweep"));
    for (QWidget* w : std::initializer_list<QWidget*>{device_, min_size_, max_size_, samples_, h2d_, d2h_, pinned_, pageable_, write_combined_})
        w->setEnabled(!running);
}

}  // namespace pinscope::ui
