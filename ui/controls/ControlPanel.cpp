#include "controls/ControlPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "config/ConfigValidation.h"
#include "controls/DeviceChoices.h"
#include "controls/NumaControls.h"
#include "memory/PinnedPool.h"
#include "numa/NumaPlan.h"
#include "plots/ByteFormat.h"
#include "style/AppStyle.h"

namespace pinscope::ui {

namespace {

constexpr int kDebounceMs = 250;
constexpr std::uint64_t kMiB = 1u << 20;

const DType kDTypes[] = {DType::F32, DType::F16, DType::BF16, DType::U8, DType::I32, DType::I64, DType::F64};
const PinMode kPinModes[] = {PinMode::Pool, PinMode::Alloc, PinMode::Register, PinMode::Worker};
const CopyStream kCopyStreams[] = {CopyStream::Side, CopyStream::Compute};

QString tip_pin_memory() {
    return QStringLiteral("Copy each batch into page-locked (pinned) host memory, so that its copy to the GPU can "
                          "run asynchronously (PyTorch's pin_memory)");
}
QString tip_workers() {
    return QStringLiteral("Worker threads that build batches in parallel; 0: the consumer loads each batch itself");
}
QString tip_prefetch() {
    return QStringLiteral("Batches each worker keeps ready ahead; in flight at most num_workers × prefetch_factor");
}

QLabel* big_label(const QString& text, const QString& tip) {
    auto* label = new QLabel(text);
    label->setFont(app_font(12, true));
    label->setToolTip(tip);
    return label;
}

// A spin box and a slider showing one value; the spin box allows more than the slider shows.
QWidget* spin_with_slider(QSpinBox* spin, QSlider* slider, const QString& tip) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    spin->setFont(app_font(12));
    spin->setMinimumWidth(72);
    spin->setMinimumHeight(30);
    spin->setToolTip(tip);
    slider->setToolTip(tip);
    slider->setMinimumHeight(26);
    layout->addWidget(slider, 1);
    layout->addWidget(spin);
    QObject::connect(slider, &QSlider::valueChanged, spin, &QSpinBox::setValue);
    QObject::connect(spin, &QSpinBox::valueChanged, slider, [slider](int v) {
        const QSignalBlocker block(slider);
        slider->setValue(v);
    });
    return row;
}

}  // namespace

ControlPanel::ControlPanel(QWidget* parent) : QWidget(parent), debounce_(new QTimer(this)) {
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &ControlPanel::announce);
    build();
    set_config([] {
        LoaderConfig config;
        config.device = default_device();
        config.seconds = kUntilStoppedSeconds;
        return config;
    }());
}

void ControlPanel::build() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(10);
    layout->addWidget(build_primary());
    layout->addWidget(build_details());
    numa_ = new NumaControls;
    connect(numa_, &NumaControls::edited, this, &ControlPanel::edited);
    layout->addWidget(numa_);
    batch_info_ = new QLabel;
    batch_info_->setWordWrap(true);
    batch_info_->setStyleSheet(QStringLiteral("color: #4A525C;"));
    layout->addWidget(batch_info_);
    issue_ = new QLabel;
    issue_->setWordWrap(true);
    issue_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    issue_->setStyleSheet(QStringLiteral("QLabel { color: #B3261E; background: #FDECEA; border: 1px solid #F5C2C0; "
                                         "border-radius: 4px; padding: 6px; }"));
    issue_->hide();
    layout->addWidget(issue_);
    reset_ = new QPushButton(QStringLiteral("Reset to defaults"));
    reset_->setToolTip(QStringLiteral("Every field back to PyTorch's defaults and this app's default device"));
    connect(reset_, &QPushButton::clicked, this, &ControlPanel::resetRequested);
    layout->addWidget(reset_);
    layout->addStretch(1);
}

QWidget* ControlPanel::build_primary() {
    auto* box = new QGroupBox(QStringLiteral("DataLoader"));
    auto* grid = new QVBoxLayout(box);
    grid->setSpacing(4);

    pin_memory_ = new QCheckBox(QStringLiteral("pin_memory"));
    pin_memory_->setFont(app_font(13, true));
    pin_memory_->setToolTip(tip_pin_memory());
    pin_memory_->setStyleSheet(QStringLiteral("QCheckBox::indicator { width: 20px; height: 20px; }"));
    grid->addWidget(pin_memory_);
    grid->addSpacing(6);

    workers_ = new QSpinBox;
    workers_->setRange(0, 256);
    workers_slider_ = new QSlider(Qt::Horizontal);
    workers_slider_->setRange(0, 16);
    workers_slider_->setPageStep(2);
    grid->addWidget(big_label(QStringLiteral("num_workers"), tip_workers()));
    grid->addWidget(spin_with_slider(workers_, workers_slider_, tip_workers()));
    grid->addSpacing(4);

    prefetch_ = new QSpinBox;
    prefetch_->setRange(1, 64);
    prefetch_slider_ = new QSlider(Qt::Horizontal);
    prefetch_slider_->setRange(1, 16);
    grid->addWidget(big_label(QStringLiteral("prefetch_factor"), tip_prefetch()));
    grid->addWidget(spin_with_slider(prefetch_, prefetch_slider_, tip_prefetch()));

    connect(pin_memory_, &QCheckBox::toggled, this, &ControlPanel::edited);
    connect(workers_, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    connect(prefetch_, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    return box;
}

QWidget* ControlPanel::build_details() {
    auto* box = new QGroupBox(QStringLiteral("Batches, work, memory, device"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setLabelAlignment(Qt::AlignRight);
    const auto add = [&](const QString& name, QWidget* field, const QString& tip) {
        field->setToolTip(tip);
        field->setMinimumWidth(60);  // the dock stays narrow; spin boxes would size for their largest value
        auto* label = new QLabel(name);
        label->setToolTip(tip);
        form->addRow(label, field);
    };

    device_ = new QComboBox;
    device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device_->setMinimumContentsLength(12);
    for (const auto& choice : device_choices()) {
        device_->addItem(choice.label, QString::fromStdString(choice.device));
        device_->setItemData(device_->count() - 1, choice.tooltip, Qt::ToolTipRole);
    }
    add(QStringLiteral("device"), device_, QStringLiteral("A real CUDA GPU, or the emulated device modelled on a measured one"));

    batch_size_ = new QSpinBox;
    batch_size_->setRange(1, 65536);
    add(QStringLiteral("batch_size"), batch_size_, QStringLiteral("Samples per batch"));

    sample_shape_ = new QLineEdit;
    sample_shape_->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[1-9][0-9]{0,6}(x[1-9][0-9]{0,6}){0,7}")), sample_shape_));
    add(QStringLiteral("sample_shape"), sample_shape_, QStringLiteral("One sample's dimensions, e.g. 3x224x224"));

    dtype_ = new QComboBox;
    for (DType t : kDTypes) dtype_->addItem(QString::fromStdString(to_string(t)));
    add(QStringLiteral("dtype"), dtype_, QStringLiteral("Element type of the samples: sets the bytes per batch"));

    pin_mode_ = new QComboBox;
    const QString mode_tips[] = {
        QStringLiteral("PyTorch's caching host allocator: power-of-two blocks reused once their copy ended"),
        QStringLiteral("cudaHostAlloc for every batch, cudaFreeHost once its copy ended (no cache)"),
        QStringLiteral("Page-lock each batch's own buffer in place (cudaHostRegister)"),
        QStringLiteral("Workers collate straight into pinned blocks; there is no pin thread"),
    };
    for (std::size_t i = 0; i < std::size(kPinModes); ++i) {
        pin_mode_->addItem(QString::fromStdString(to_string(kPinModes[i])));
        pin_mode_->setItemData(static_cast<int>(i), mode_tips[i], Qt::ToolTipRole);
    }
    add(QStringLiteral("pin_mode"), pin_mode_, QStringLiteral("How page-locked memory is obtained when pin_memory is on"));

    non_blocking_ = new QCheckBox;
    add(QStringLiteral("non_blocking"), non_blocking_,
        QStringLiteral(".to(device, non_blocking=True): a copy from pinned memory returns at once"));
    copy_stream_ = new QComboBox;
    const QString stream_tips[] = {
        QStringLiteral("A stream of its own, as prefetcher recipes do: the copy overlaps the kernels, and a blocking "
                       "copy waits only for itself"),
        QStringLiteral("The kernels' stream, as x.to(\"cuda\") in a plain training loop: the copy starts after every "
                       "kernel queued before it, and a blocking copy holds the host until they and the copy are done"),
    };
    for (std::size_t i = 0; i < std::size(kCopyStreams); ++i) {
        copy_stream_->addItem(QString::fromStdString(to_string(kCopyStreams[i])));
        copy_stream_->setItemData(static_cast<int>(i), stream_tips[i], Qt::ToolTipRole);
    }
    add(QStringLiteral("copy_stream"), copy_stream_,
        QStringLiteral("Which stream the host-to-device copy is queued on: side (its own, overlapping the kernels) "
                       "or compute (behind the kernels, as in a plain loop)"));
    in_order_ = new QCheckBox;
    add(QStringLiteral("in_order"), in_order_,
        QStringLiteral("Hand batches out in index order (a slow worker stalls the ones behind it)"));

    cpu_us_ = new QDoubleSpinBox;
    cpu_us_->setRange(0, 1e6);
    cpu_us_->setDecimals(1);
    cpu_us_->setSuffix(QStringLiteral(" µs"));
    cpu_us_->setSingleStep(10);
    add(QStringLiteral("cpu_us_per_sample"), cpu_us_, QStringLiteral("CPU work per sample in a worker (decoding, augmenting)"));

    gpu_us_ = new QDoubleSpinBox;
    gpu_us_->setRange(0, 1e7);
    gpu_us_->setDecimals(0);
    gpu_us_->setSuffix(QStringLiteral(" µs"));
    gpu_us_->setSingleStep(500);
    add(QStringLiteral("gpu_us_per_batch"), gpu_us_, QStringLiteral("Kernel time per batch, after it has read the batch"));

    host_ = new QComboBox;
    host_->addItems({QStringLiteral("default"), QStringLiteral("modeled"), QStringLiteral("real")});
    add(QStringLiteral("host"), host_,
        QStringLiteral("Host work modelled from the device's profile (default on the emulated device) or done for "
                       "real on this machine's threads and memory"));

    budget_mib_ = new QSpinBox;
    budget_mib_->setRange(0, static_cast<int>(std::min<std::uint64_t>(physical_memory_bytes() / kMiB, 1u << 30)));
    budget_mib_->setSuffix(QStringLiteral(" MiB"));
    budget_mib_->setSingleStep(256);
    budget_mib_->setSpecialValueText(
        QStringLiteral("default (%1)").arg(memory_text(static_cast<double>(default_pinned_budget()))));
    add(QStringLiteral("pinned budget"), budget_mib_,
        QStringLiteral("Most page-locked memory the run may hold (pinned_budget_bytes); default: a quarter of "
                       "physical memory"));

    auto* length = new QWidget;
    auto* length_layout = new QHBoxLayout(length);
    length_layout->setContentsMargins(0, 0, 0, 0);
    length_kind_ = new QComboBox;
    length_kind_->addItems({QStringLiteral("until Stop"), QStringLiteral("seconds"), QStringLiteral("batches")});
    length_value_ = new QDoubleSpinBox;
    length_value_->setRange(0.1, 1e9);
    length_value_->setDecimals(1);
    length_value_->setMinimumWidth(50);
    length_kind_->setMinimumWidth(50);
    length_layout->addWidget(length_kind_);
    length_layout->addWidget(length_value_, 1);
    add(QStringLiteral("run length"), length, QStringLiteral("How long a run lasts: until Stop, seconds or batches"));

    for (QSpinBox* spin : {batch_size_, budget_mib_}) connect(spin, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    for (QDoubleSpinBox* spin : {cpu_us_, gpu_us_, length_value_})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ControlPanel::edited);
    for (QComboBox* combo : {device_, dtype_, pin_mode_, copy_stream_, host_, length_kind_})
        connect(combo, &QComboBox::currentIndexChanged, this, &ControlPanel::edited);
    for (QCheckBox* check : {non_blocking_, in_order_}) connect(check, &QCheckBox::toggled, this, &ControlPanel::edited);
    connect(sample_shape_, &QLineEdit::textEdited, this, &ControlPanel::edited);
    return box;
}

void ControlPanel::select_device(const std::string& device) {
    const QString value = QString::fromStdString(device);
    int index = device_->findData(value);
    if (index < 0) {  // a profile file or a GPU this machine lacks: keep it selectable
        device_->addItem(value, value);
        index = device_->count() - 1;
    }
    device_->setCurrentIndex(index);
}

void ControlPanel::set_config(const LoaderConfig& config) {
    loading_ = true;
    shown_ = config;
    pin_memory_->setChecked(config.pin_memory);
    workers_->setValue(static_cast<int>(config.num_workers));
    prefetch_->setValue(static_cast<int>(config.prefetch_factor.value_or(2)));
    select_device(config.device);
    batch_size_->setValue(static_cast<int>(config.batch_size));
    sample_shape_->setText(QString::fromStdString(shape_to_string(config.sample_shape)));
    dtype_->setCurrentText(QString::fromStdString(to_string(config.dtype)));
    pin_mode_->setCurrentText(QString::fromStdString(to_string(config.pin_mode)));
    non_blocking_->setChecked(config.non_blocking);
    copy_stream_->setCurrentText(QString::fromStdString(to_string(config.copy_stream)));
    in_order_->setChecked(config.in_order);
    cpu_us_->setValue(config.cpu_us_per_sample);
    gpu_us_->setValue(config.gpu_us_per_batch);
    host_->setCurrentIndex(!config.host ? 0 : *config.host == HostMode::Modeled ? 1 : 2);
    budget_mib_->setValue(config.pinned_budget_bytes ? static_cast<int>(*config.pinned_budget_bytes / kMiB) : 0);
    if (config.batches) {
        length_kind_->setCurrentIndex(2);
        length_value_->setValue(static_cast<double>(*config.batches));
    } else if (config.seconds && *config.seconds < kUntilStoppedSeconds) {
        length_kind_->setCurrentIndex(1);
        length_value_->setValue(*config.seconds);
    } else {
        length_kind_->setCurrentIndex(0);
        length_value_->setValue(10);
    }
    numa_->show_config(config);
    loading_ = false;
    debounce_->stop();
    update_derived();
}

LoaderConfig ControlPanel::config() const {
    LoaderConfig c = shown_;
    c.pin_memory = pin_memory_->isChecked();
    c.num_workers = static_cast<std::uint32_t>(workers_->value());
    if (c.num_workers == 0) {
        c.prefetch_factor.reset();  // PyTorch allows it only with workers
    } else {
        const auto value = static_cast<std::uint32_t>(prefetch_->value());
        const bool still_default = !shown_.prefetch_factor && value == 2;
        c.prefetch_factor = still_default ? std::nullopt : std::optional<std::uint32_t>(value);
    }
    c.device = device_->currentData().toString().toStdString();
    c.batch_size = static_cast<std::uint32_t>(batch_size_->value());
    c.sample_shape.clear();
    for (const QString& part : sample_shape_->text().split(QLatin1Char('x'), Qt::SkipEmptyParts))
        c.sample_shape.push_back(part.toUInt());
    c.dtype = parse_dtype(dtype_->currentText().toStdString()).value_or(DType::F32);
    c.pin_mode = parse_pin_mode(pin_mode_->currentText().toStdString()).value_or(PinMode::Pool);
    c.non_blocking = non_blocking_->isChecked();
    c.copy_stream = parse_copy_stream(copy_stream_->currentText().toStdString()).value_or(CopyStream::Side);
    c.in_order = in_order_->isChecked();
    c.cpu_us_per_sample = cpu_us_->value();
    c.gpu_us_per_batch = gpu_us_->value();
    const int host = host_->currentIndex();
    c.host = host == 0 ? std::nullopt : std::optional<HostMode>(host == 1 ? HostMode::Modeled : HostMode::Real);
    c.pinned_budget_bytes = budget_mib_->value() == 0
                                ? std::nullopt
                                : std::optional<std::uint64_t>(static_cast<std::uint64_t>(budget_mib_->value()) * kMiB);
    c.batches.reset();
    c.seconds.reset();
    switch (length_kind_->currentIndex()) {
        case 1: c.seconds = length_value_->value(); break;
        case 2: c.batches = static_cast<std::uint64_t>(std::llround(length_value_->value())); break;
        default: c.seconds = kUntilStoppedSeconds; break;
    }
    numa_->write_to(c);
    return c;
}

// The engine's checks of the configuration and, once its topology is loaded, of the NUMA placement.
std::vector<ConfigIssue> ControlPanel::engine_issues(const LoaderConfig& config) const {
    std::vector<ConfigIssue> issues = find_config_issues(config);
    if (const MachineTopology* topology = numa_->selected_topology()) {
        std::vector<ConfigIssue> numa = find_numa_issues(config, *topology);
        issues.insert(issues.end(), numa.begin(), numa.end());
    }
    return issues;
}

bool ControlPanel::valid() const { return engine_issues(config()).empty() && numa_->issues().empty(); }

void ControlPanel::set_run_topology(std::shared_ptr<const MachineTopology> topology) {
    if (numa_->set_run_topology(std::move(topology))) update_derived();
}

QString ControlPanel::issue_text() const { return issue_->isHidden() ? QString() : issue_->text(); }

void ControlPanel::update_derived() {
    numa_->update_applicability(config());  // first: on a real GPU it puts the topology back to this machine
    const LoaderConfig c = config();
    const bool workers = c.num_workers > 0;
    prefetch_->setEnabled(workers);
    prefetch_slider_->setEnabled(workers);
    pin_mode_->setEnabled(c.pin_memory);
    length_value_->setEnabled(length_kind_->currentIndex() != 0);
    length_value_->setDecimals(length_kind_->currentIndex() == 2 ? 0 : 1);

    const auto issues = engine_issues(c);
    // A CPU list that does not parse is explained with what was typed; the engine's word on that field goes.
    const QStringList numa_issues = numa_->issues();
    QStringList messages;
    for (const auto& issue : issues) {
        const QString field = QString::fromStdString(issue.field) + QLatin1Char(':');
        if (std::none_of(numa_issues.begin(), numa_issues.end(), [&](const QString& m) { return m.startsWith(field); }))
            messages << QString::fromStdString(issue.message());
    }
    messages << numa_issues;
    issue_->setText(messages.join(QStringLiteral("\n\n")));
    issue_->setVisible(!messages.empty());

    if (c.sample_shape.empty()) {
        batch_info_->clear();
        return;
    }
    batch_info_->setText(QStringLiteral("One batch: %1 (%2 × %3 %4). In flight at most %5%6.")
                             .arg(memory_text(static_cast<double>(c.batch_bytes())))
                             .arg(c.batch_size)
                             .arg(QString::fromStdString(shape_to_string(c.sample_shape)),
                                  QString::fromStdString(to_string(c.dtype)))
                             .arg(c.max_outstanding())
                             .arg(workers ? QString() : QStringLiteral(" (no workers: nothing is prefetched)")));
}

void ControlPanel::edited() {
    if (loading_) return;
    update_derived();
    if (valid()) debounce_->start();
    else debounce_->stop();
}

void ControlPanel::flush() {
    if (debounce_->isActive()) {
        debounce_->stop();
        announce();
    }
}

void ControlPanel::announce() {
    if (!valid()) return;
    const LoaderConfig c = config();
    shown_ = c;
    emit configEdited(c);
}

}  // namespace pinscope::ui
