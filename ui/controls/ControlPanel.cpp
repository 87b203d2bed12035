// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/ControlPanel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "engine/config/ConfigValidation.h"
#include "engine/config/PinnedBudget.h"
#include "engine/memory/PinnedPool.h"
#include "engine/numa/NumaPlan.h"
#include "engine/text/Units.h"
#include "ui/controls/ConfigChanges.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/controls/FieldControls.h"
#include "ui/controls/FieldMarks.h"
#include "ui/controls/NumaControls.h"
#include "ui/controls/WheelGuard.h"
#include "ui/plots/ByteFormat.h"
#include "ui/style/AppStyle.h"

namespace pinscope::ui {

namespace {

constexpr int kDebounceMs = 250;

constexpr const ConfigField& kPinMemory = config_field(&LoaderConfig::pin_memory);
constexpr const ConfigField& kWorkers = config_field(&LoaderConfig::num_workers);
constexpr const ConfigField& kPrefetch = config_field(&LoaderConfig::prefetch_factor);
constexpr const ConfigField& kSampleShape = config_field(&LoaderConfig::sample_shape);
constexpr const ConfigField& kHost = config_field(&LoaderConfig::host);
constexpr const ConfigField& kPinnedBudget = config_field(&LoaderConfig::pinned_budget_bytes);
constexpr const ConfigField& kBatches = config_field(&LoaderConfig::batches);
constexpr const ConfigField& kSeconds = config_field(&LoaderConfig::seconds);

// Up to kMaxSampleDimensions sizes of up to 7 digits; the engine says which sizes it allows.
const QRegularExpression& shape_pattern() {
    static const QRegularExpression pattern(
        QStringLiteral("^[1-9][0-9]{0,6}(x[1-9][0-9]{0,6}){0,%1}$").arg(kMaxSampleDimensions - 1));
    return pattern;
}

// The configuration key a message from find_config_issues or find_numa_issues is about:
// "sample_shape" for "sample_shape[1]: 0 is not allowed; ...".
QString field_of(const QString& message) {
    QString field = message.section(QLatin1Char(':'), 0, 0);
    return field.left(field.indexOf(QLatin1Char('[')));
}

QLabel* big_label(const QString& text, const QString& tip) {
    auto* label = new QLabel(text);
    label->setFont(app_font(12, true));
    label->setToolTip(tip);
    tag_fields(label, {text});
    return label;
}

// A spin box and a slider showing one value; the spin box allows more than the slider shows.
QWidget* spin_with_slider(QSpinBox* spin, QSlider* slider, const QString& tip, const QStringList& label_fields) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    spin->setFont(app_font(12));
    spin->setMinimumWidth(72);
    spin->setMinimumHeight(30);
    spin->setToolTip(tip);
    slider->setToolTip(tip);
    tag_fields(spin, label_fields);
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

LoaderConfig ControlPanel::defaults() {
    LoaderConfig config;
    config.device = default_device();
    config.seconds = kUntilStoppedSeconds;
    return config;
}

ControlPanel::ControlPanel(QWidget* parent) : QWidget(parent), debounce_(new QTimer(this)) {
    debounce_->setSingleShot(true);
    debounce_->setInterval(kDebounceMs);
    connect(debounce_, &QTimer::timeout, this, &ControlPanel::commit);
    build();
    WheelGuard::install(this);
    set_config(defaults());
}

// The message line on top, outside the scroll area, so that it is in view wherever the panel is
// scrolled to; the controls scroll under it.
void ControlPanel::build() {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    issue_ = new QLabel;
    issue_->setWordWrap(true);
    issue_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    issue_->setStyleSheet(QStringLiteral("QLabel { color: #B3261E; background: #FDECEA; border: 1px solid #F5C2C0; "
                                         "border-radius: 4px; padding: 6px; margin: 6px 8px 2px 8px; }"));
    issue_->hide();
    layout->addWidget(issue_);
    scroll_ = new QScrollArea;
    scroll_->setWidget(build_content());
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll_->setMinimumWidth(300);
    layout->addWidget(scroll_, 1);
    // The message line pushes the scroll area down as it comes and goes; the controls stay where
    // they are on the screen (under the pointer, the one being typed into) by scrolling with it...
    connect(scroll_->verticalScrollBar(), &QScrollBar::rangeChanged, this, [this] {
        QScrollBar* bar = scroll_->verticalScrollBar();
        bar->setValue(bar->value() + scroll_->y() - scroll_top_);
        scroll_top_ = scroll_->y();
        // ...unless it went under the message: then just below it.
        QWidget* focus = QApplication::focusWidget();
        if (focus != nullptr && content_->isAncestorOf(focus)) scroll_->ensureWidgetVisible(focus, 0, 8);
    });
}

QWidget* ControlPanel::build_content() {
    content_ = new QWidget;
    content_->setMinimumWidth(0);  // follows the dock's width; the fields wrap and shrink
    // The mark of a control whose edit cannot apply or was refused (FieldMarks).
    content_->setStyleSheet(QStringLiteral(
        "QLabel[refused=\"true\"], QCheckBox[refused=\"true\"] { color: #B3261E; }"
        "QAbstractSpinBox[refused=\"true\"], QComboBox[refused=\"true\"], QLineEdit[refused=\"true\"] "
        "{ border: 2px solid #B3261E; border-radius: 3px; background: #FDECEA; }"));
    auto* layout = new QVBoxLayout(content_);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->setSpacing(10);
    layout->addWidget(build_primary());
    layout->addWidget(build_details());
    numa_ = new NumaControls;
    connect(numa_, &NumaControls::edited, this, &ControlPanel::edited);
    connect(numa_, &NumaControls::typing, this, &ControlPanel::typing);
    connect(numa_, &NumaControls::typingFinished, this, &ControlPanel::commit);
    layout->addWidget(numa_);
    batch_info_ = new QLabel;
    batch_info_->setWordWrap(true);
    batch_info_->setStyleSheet(QStringLiteral("color: #4A525C;"));
    layout->addWidget(batch_info_);
    reset_ = new QPushButton(QStringLiteral("Reset to defaults"));
    reset_->setToolTip(QStringLiteral("Every field back to PyTorch's defaults and this app's default device"));
    connect(reset_, &QPushButton::clicked, this, &ControlPanel::resetRequested);
    layout->addWidget(reset_);
    layout->addStretch(1);
    return content_;
}

QWidget* ControlPanel::build_primary() {
    auto* box = new QGroupBox(QStringLiteral("DataLoader"));
    auto* grid = new QVBoxLayout(box);
    grid->setSpacing(4);

    pin_memory_ = new QCheckBox(to_qstring(kPinMemory.key));
    pin_memory_->setFont(app_font(13, true));
    pin_memory_->setToolTip(field_tip(kPinMemory));
    pin_memory_->setStyleSheet(QStringLiteral("QCheckBox::indicator { width: 20px; height: 20px; }"));
    tag_fields(pin_memory_, {to_qstring(kPinMemory.key)});
    grid->addWidget(pin_memory_);
    grid->addSpacing(6);

    // The sliders show the usual values; the spin boxes take the whole range.
    workers_ = new QSpinBox;
    set_field_range(workers_, kWorkers);
    workers_slider_ = new QSlider(Qt::Horizontal);
    workers_slider_->setRange(workers_->minimum(), 16);
    workers_slider_->setPageStep(2);
    grid->addWidget(big_label(to_qstring(kWorkers.key), field_tip(kWorkers)));
    grid->addWidget(spin_with_slider(workers_, workers_slider_, field_tip(kWorkers), {to_qstring(kWorkers.key)}));
    grid->addSpacing(4);

    prefetch_ = new QSpinBox;
    set_field_range(prefetch_, kPrefetch);
    prefetch_slider_ = new QSlider(Qt::Horizontal);
    prefetch_slider_->setRange(prefetch_->minimum(), 16);
    grid->addWidget(big_label(to_qstring(kPrefetch.key), field_tip(kPrefetch)));
    grid->addWidget(spin_with_slider(prefetch_, prefetch_slider_, field_tip(kPrefetch), {to_qstring(kPrefetch.key)}));

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
    // A row named by its configuration key (marked when its edit cannot apply), unless `keys` says otherwise.
    const auto add = [&](const QString& name, QWidget* field, const QString& tip, const QStringList& keys = {}) {
        field->setToolTip(tip);
        field->setMinimumWidth(60);  // the dock stays narrow; spin boxes would size for their largest value
        auto* label = new QLabel(name);
        label->setToolTip(tip);
        for (QWidget* w : {field, static_cast<QWidget*>(label)}) tag_fields(w, keys.isEmpty() ? QStringList{name} : keys);
        form->addRow(label, field);
    };

    // A row named by the field's key, with the field's help as its tooltip.
    const auto add_field = [&](const ConfigField& field, QWidget* widget) {
        add(to_qstring(field.key), widget, field_tip(field));
    };

    device_ = new QComboBox;
    device_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    device_->setMinimumContentsLength(12);
    for (const auto& choice : device_choices()) {
        device_->addItem(choice.label, QString::fromStdString(choice.device));
        device_->setItemData(device_->count() - 1, choice.tooltip, Qt::ToolTipRole);
    }
    add_field(config_field(&LoaderConfig::device), device_);

    batch_size_ = new QSpinBox;
    set_field_range(batch_size_, config_field(&LoaderConfig::batch_size));
    add_field(config_field(&LoaderConfig::batch_size), batch_size_);

    sample_shape_ = new QLineEdit;
    add_field(kSampleShape, sample_shape_);

    dtype_ = new QComboBox;
    add_choices(dtype_, config_field(&LoaderConfig::dtype));
    add_field(config_field(&LoaderConfig::dtype), dtype_);

    pin_mode_ = new QComboBox;
    add_choices(pin_mode_, config_field(&LoaderConfig::pin_mode));
    add_field(config_field(&LoaderConfig::pin_mode), pin_mode_);

    non_blocking_ = new QCheckBox;
    add_field(config_field(&LoaderConfig::non_blocking), non_blocking_);
    copy_stream_ = new QComboBox;
    add_choices(copy_stream_, config_field(&LoaderConfig::copy_stream));
    add_field(config_field(&LoaderConfig::copy_stream), copy_stream_);
    in_order_ = new QCheckBox;
    add_field(config_field(&LoaderConfig::in_order), in_order_);

    cpu_us_ = new QDoubleSpinBox;
    set_field_range(cpu_us_, config_field(&LoaderConfig::cpu_us_per_sample));
    cpu_us_->setDecimals(1);
    cpu_us_->setSingleStep(10);
    add_field(config_field(&LoaderConfig::cpu_us_per_sample), cpu_us_);

    gpu_us_ = new QDoubleSpinBox;
    set_field_range(gpu_us_, config_field(&LoaderConfig::gpu_us_per_batch));
    gpu_us_->setDecimals(0);
    gpu_us_->setSingleStep(500);
    add_field(config_field(&LoaderConfig::gpu_us_per_batch), gpu_us_);

    host_ = new QComboBox;
    host_->addItem(to_qstring(kHost.unset_text));
    add_choices(host_, kHost);
    add_field(kHost, host_);

    // In MiB; 0 is the default budget.
    budget_mib_ = new QSpinBox;
    const std::uint64_t most_mib = integer_range(kPinnedBudget).second / kMiB;
    budget_mib_->setRange(0, static_cast<int>(std::min<std::uint64_t>(most_mib, 1u << 30)));
    budget_mib_->setSuffix(QStringLiteral(" MiB"));
    budget_mib_->setSingleStep(256);
    budget_mib_->setSpecialValueText(
        QStringLiteral("default (%1)").arg(memory_text(static_cast<double>(default_pinned_budget()))));
    add(QStringLiteral("pinned budget"), budget_mib_, field_tip(kPinnedBudget), {to_qstring(kPinnedBudget.key)});

    const QStringList length_keys{to_qstring(kSeconds.key), to_qstring(kBatches.key)};
    auto* length = new QWidget;
    auto* length_layout = new QHBoxLayout(length);
    length_layout->setContentsMargins(0, 0, 0, 0);
    length_kind_ = new QComboBox;
    length_kind_->addItems({QStringLiteral("until Stop"), to_qstring(kSeconds.key), to_qstring(kBatches.key)});
    length_kind_->setItemData(1, field_tip(kSeconds), Qt::ToolTipRole);
    length_kind_->setItemData(2, field_tip(kBatches), Qt::ToolTipRole);
    // Seconds or batches: from a tenth of a second to the most batches (validation says when too long).
    length_value_ = new QDoubleSpinBox;
    length_value_->setRange(0.1, std::max(kSeconds.range->hi, kBatches.range->hi));
    length_value_->setDecimals(1);
    length_value_->setMinimumWidth(50);
    length_kind_->setMinimumWidth(50);
    length_layout->addWidget(length_kind_);
    length_layout->addWidget(length_value_, 1);
    add(QStringLiteral("run length"), length, QStringLiteral("How long a run lasts: until Stop, seconds or batches"),
        length_keys);
    for (QWidget* w : {static_cast<QWidget*>(length_kind_), static_cast<QWidget*>(length_value_)})
        tag_fields(w, length_keys);

    for (QSpinBox* spin : {batch_size_, budget_mib_}) connect(spin, &QSpinBox::valueChanged, this, &ControlPanel::edited);
    for (QDoubleSpinBox* spin : {cpu_us_, gpu_us_, length_value_})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ControlPanel::edited);
    for (QComboBox* combo : {device_, dtype_, pin_mode_, copy_stream_, host_, length_kind_})
        connect(combo, &QComboBox::currentIndexChanged, this, &ControlPanel::edited);
    for (QCheckBox* check : {non_blocking_, in_order_}) connect(check, &QCheckBox::toggled, this, &ControlPanel::edited);
    connect(sample_shape_, &QLineEdit::textEdited, this, &ControlPanel::typing);
    connect(sample_shape_, &QLineEdit::editingFinished, this, &ControlPanel::commit);
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
    applied_ = config;
    show_config(config);
    refusal_.clear();
    refused_fields_.clear();
    update_derived();
}

void ControlPanel::show_config(const LoaderConfig& config) {
    loading_ = true;
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
    host_->setCurrentIndex(config.host ? host_->findData(QString::fromStdString(to_string(*config.host))) : 0);
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
    pending_ = false;
    debounce_->stop();
}

LoaderConfig ControlPanel::config() const {
    LoaderConfig c = applied_;
    c.pin_memory = pin_memory_->isChecked();
    c.num_workers = static_cast<std::uint32_t>(workers_->value());
    if (c.num_workers == 0) {
        c.prefetch_factor.reset();  // PyTorch allows it only with workers
    } else {
        const auto value = static_cast<std::uint32_t>(prefetch_->value());
        const bool still_default = !applied_.prefetch_factor && value == 2;
        c.prefetch_factor = still_default ? std::nullopt : std::optional<std::uint32_t>(value);
    }
    c.device = device_->currentData().toString().toStdString();
    c.batch_size = static_cast<std::uint32_t>(batch_size_->value());
    c.sample_shape.clear();  // text that is not a shape shows as none (text_issues says why)
    if (shape_pattern().match(sample_shape_->text()).hasMatch())
        for (const QString& part : sample_shape_->text().split(QLatin1Char('x'))) c.sample_shape.push_back(part.toUInt());
    c.dtype = parse_dtype(dtype_->currentText().toStdString()).value_or(DType::F32);
    c.pin_mode = parse_pin_mode(pin_mode_->currentText().toStdString()).value_or(PinMode::Pool);
    c.non_blocking = non_blocking_->isChecked();
    c.copy_stream = parse_copy_stream(copy_stream_->currentText().toStdString()).value_or(CopyStream::Side);
    c.in_order = in_order_->isChecked();
    c.cpu_us_per_sample = cpu_us_->value();
    c.gpu_us_per_batch = gpu_us_->value();
    c.host = host_->currentIndex() == 0 ? std::nullopt : parse_host_mode(host_->currentData().toString().toStdString());
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

// A CPU list or a shape that does not parse is explained with what was typed; the engine's word
// on that field goes.
QStringList ControlPanel::problems(const LoaderConfig& config) const {
    const QStringList typed = text_issues();
    QStringList messages;
    for (const auto& issue : engine_issues(config)) {
        const QString message = QString::fromStdString(issue.message());
        const QString field = field_of(message);
        if (std::none_of(typed.begin(), typed.end(), [&](const QString& m) { return field_of(m) == field; }))
            messages << message;
    }
    return messages << typed;
}

QStringList ControlPanel::text_issues() const {
    QStringList out;
    if (!shape_pattern().match(sample_shape_->text()).hasMatch())
        out << QStringLiteral("%1: “%2” is not a shape; write it like 3x224x224 (%3)")
                   .arg(to_qstring(kSampleShape.key), sample_shape_->text(),
                        QString::fromStdString(range_text(kSampleShape)));
    return out << numa_->issues();
}

bool ControlPanel::valid() const { return problems(config()).isEmpty(); }

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

    // The message on top: the last refusal, or why what the controls show cannot run. Marked are
    // the controls of the edit that cannot apply or was refused, else those the reasons name.
    QStringList text;
    QStringList marked = refused_fields_;
    if (!refusal_.isEmpty()) text << refusal_;
    if (const QStringList reasons = problems(c); !reasons.isEmpty()) {
        const QStringList edited = changed_fields(applied_, c);
        if (pending_ && !edited.isEmpty()) {
            text << QStringLiteral("Cannot apply %1:").arg(change_text(applied_, c));
            marked << edited;
        } else {
            text << QStringLiteral("This configuration cannot run:");
            for (const QString& reason : reasons) marked << field_of(reason);
        }
        text << reasons;
    }
    issue_->setText(text.join(QStringLiteral("\n\n")));
    issue_->setVisible(!text.isEmpty());
    mark_fields(content_, marked);

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
    pending_ = true;
    refusal_.clear();  // a new edit: its own check replaces the last refusal
    refused_fields_.clear();
    update_derived();
    debounce_->start();
}

// Typing in a text field: checked as typed, applied when the field is left or Enter pressed, so
// that half a CPU list is neither applied nor refused.
void ControlPanel::typing() {
    if (loading_) return;
    pending_ = true;
    refusal_.clear();
    refused_fields_.clear();
    debounce_->stop();
    update_derived();
}

bool ControlPanel::applies_after_pause() const { return debounce_->isActive(); }

void ControlPanel::flush() { commit(); }

void ControlPanel::commit() {
    debounce_->stop();
    if (!pending_) return;
    pending_ = false;
    const LoaderConfig proposal = config();
    if (proposal == applied_) {  // changed and changed back: nothing to apply
        update_derived();
        return;
    }
    if (const QStringList reasons = problems(proposal); !reasons.isEmpty()) {
        refuse(proposal, reasons.join(QStringLiteral("\n\n")));
        return;
    }
    emit configEdited(proposal);
}

void ControlPanel::refuse(const LoaderConfig& refused, const QString& why) {
    const QString change = change_text(applied_, refused);
    refused_fields_ = changed_fields(applied_, refused);
    show_config(applied_);
    refusal_ = QStringLiteral("Not applied: %1\n\n%2\n\nThe controls show the configuration in effect.")
                   .arg(change.isEmpty() ? QStringLiteral("the edit") : change, why);
    update_derived();
}

}  // namespace pinscope::ui
