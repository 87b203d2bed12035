// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/controls/NumaControls.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStandardItemModel>

#include <algorithm>
#include <span>

#include "engine/topology/CpuList.h"
#include "ui/controls/DeviceChoices.h"
#include "ui/controls/FieldControls.h"
#include "ui/controls/FieldMarks.h"

namespace pinscope::ui {


namespace {

const QString kLoadFile = QStringLiteral("load XML file");  // the data of the "Load XML file…" item

constexpr const ConfigField& kTopology = config_field(&LoaderConfig::topology_xml);
constexpr const ConfigField& kGpu = config_field(&LoaderConfig::gpu_pci_bus_id);
constexpr const ConfigField& kMembind = config_field(&LoaderConfig::membind);

// The items' labels, one per choice of the field table (kBindPolicyChoices, kPlacementChoices),
// in its order; the binding's last item is a CPU list.
const char* const kBindLabels[] = {"none", "GPU-local", "remote"};
const char* const kMembindLabels[] = {"first touch", "GPU-local", "remote", "interleave"};
static_assert(std::size(kBindLabels) == std::size(kBindPolicyChoices));
static_assert(std::size(kMembindLabels) == std::size(kPlacementChoices));
constexpr int kRemote = 2;      // in both lists
constexpr int kCpuList = 3;     // in the bindings' list
constexpr int kInterleave = 3;  // in the placements' list

void fill(QComboBox* combo, std::span<const FieldChoice> choices, const char* const* labels) {
    for (std::size_t i = 0; i < choices.size(); ++i) {
        combo->addItem(QString::fromUtf8(labels[i]), to_qstring(choices[i].name));
        combo->setItemData(combo->count() - 1, choice_tip(choices[i]), Qt::ToolTipRole);
    }
}

void set_item_enabled(QComboBox* combo, int index, bool enabled, const QString& tip) {
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    if (model == nullptr || model->item(index) == nullptr) return;
    model->item(index)->setEnabled(enabled);
    model->item(index)->setToolTip(tip);
}

// "2-socket-2-gpu" for "/x/2-socket-2-gpu.xml", "2-socket-2-gpu" and "2-socket-2-gpu (shipped sample)".
QString topology_stem(const std::string& source) {
    QString text = QString::fromStdString(source);
    if (text.endsWith(QLatin1Char(')')) && text.contains(QStringLiteral(" ("))) text.truncate(text.lastIndexOf(QStringLiteral(" (")));
    return QFileInfo(text).completeBaseName();
}

// Whether `topology` is what the selection `xml` loads: this machine for "", else the same file
// or shipped name (a shipped topology's source is its name with a note).
bool describes(const MachineTopology& topology, const std::string& xml) {
    if (xml.empty()) return !topology.from_file;
    if (!topology.from_file) return false;
    return topology.source == xml || topology_stem(topology.source) == topology_stem(xml);
}

QString topology_label(const std::string& xml) {
    for (const std::string& name : shipped_topology_names())
        if (xml == name) return QStringLiteral("%1 (sample)").arg(QString::fromStdString(name));
    return QFileInfo(QString::fromStdString(xml)).fileName();
}

}  // namespace

NumaControls::NumaControls(QWidget* parent) : QGroupBox(QStringLiteral("NUMA placement"), parent) {
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    form->setLabelAlignment(Qt::AlignRight);
    // A row showing the configuration field `config` (marked when its edit cannot apply).
    const auto add = [&](const QString& name, const ConfigField& config, QWidget* field) {
        field->setToolTip(field_tip(config));
        field->setMinimumWidth(60);
        auto* label = new QLabel(name);
        label->setToolTip(field_tip(config));
        for (QWidget* w : {field, static_cast<QWidget*>(label)}) tag_fields(w, {to_qstring(config.key)});
        form->addRow(label, field);
    };

    topology_ = new QComboBox;
    topology_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    topology_->setMinimumContentsLength(10);
    topology_->addItem(QStringLiteral("This machine"), QString());
    for (const std::string& name : shipped_topology_names())
        topology_->addItem(topology_label(name), QString::fromStdString(name));
    topology_->addItem(QStringLiteral("Load XML file…"), kLoadFile);
    add(QStringLiteral("topology"), kTopology, topology_);

    gpu_ = new QComboBox;
    gpu_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    gpu_->setMinimumContentsLength(10);
    add(QStringLiteral("GPU"), kGpu, gpu_);

    const QString bind_labels[] = {QStringLiteral("bind workers"), QStringLiteral("bind pin thread"), QStringLiteral("bind consumer")};
    for (std::size_t i = 0; i < binds_.size(); ++i) {
        add(bind_labels[i], config_field(kBindingFields[i].member), build_bind_row(binds_[i]));
        for (QWidget* w : {static_cast<QWidget*>(binds_[i].policy), static_cast<QWidget*>(binds_[i].cpus)})
            tag_fields(w, {QString::fromUtf8(kBindingFields[i].name)});
    }

    membind_ = new QComboBox;
    fill(membind_, kPlacementChoices, kMembindLabels);
    add(QStringLiteral("membind"), kMembind, membind_);

    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->setStyleSheet(QStringLiteral("color: #4A525C;"));
    form->addRow(note_);

    connect(topology_, &QComboBox::currentIndexChanged, this, &NumaControls::topology_chosen);
    for (QComboBox* combo : {gpu_, membind_})
        connect(combo, &QComboBox::currentIndexChanged, this, [this] {
            if (!loading_) emit edited();
        });
    fill_gpus({});
}

QWidget* NumaControls::build_bind_row(BindRow& row) {
    auto* widget = new QWidget;
    auto* layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(4);
    row.policy = new QComboBox;
    fill(row.policy, kBindPolicyChoices, kBindLabels);
    row.policy->addItem(QStringLiteral("CPU list…"), QStringLiteral("list"));
    row.policy->setItemData(kCpuList, QStringLiteral("Bound to the CPUs you list, e.g. 0-3,8"), Qt::ToolTipRole);
    row.policy->setMinimumWidth(60);
    row.cpus = new QLineEdit;
    row.cpus->setPlaceholderText(QStringLiteral("0-3,8"));
    row.cpus->setToolTip(QStringLiteral("CPUs by their OS number: single ones and ranges, e.g. 0-3,8"));
    row.cpus->setMinimumWidth(40);
    row.cpus->hide();
    layout->addWidget(row.policy, 3);
    layout->addWidget(row.cpus, 2);
    connect(row.policy, &QComboBox::currentIndexChanged, this, [this, cpus = row.cpus](int index) {
        cpus->setVisible(index == kCpuList);
        if (loading_) return;
        if (index == kCpuList && !parse_cpu_list(cpus->text().toStdString())) {
            cpus->setFocus(Qt::OtherFocusReason);  // the list is typed next; the choice applies with it
            emit typing();
        } else {
            emit edited();
        }
    });
    connect(row.cpus, &QLineEdit::textEdited, this, &NumaControls::typing);
    connect(row.cpus, &QLineEdit::editingFinished, this, &NumaControls::typingFinished);
    return widget;
}

std::string NumaControls::selected_xml() const {
    const int index = topology_->itemData(topology_->currentIndex()).toString() == kLoadFile ? topology_index_ : topology_->currentIndex();
    return topology_->itemData(index).toString().toStdString();
}

const MachineTopology* NumaControls::selected_topology() const {
    return run_topology_ && describes(*run_topology_, selected_xml()) ? run_topology_.get() : nullptr;
}

int NumaControls::node_count() const {
    const MachineTopology* t = selected_topology();
    return t != nullptr ? static_cast<int>(t->nodes.size()) : -1;
}

void NumaControls::select_topology(const std::string& xml) {
    const QString value = QString::fromStdString(xml);
    int index = topology_->findData(value);
    if (index < 0) {  // a file: before "Load XML file…", named by its file name
        index = topology_->count() - 1;
        topology_->insertItem(index, topology_label(xml), value);
        topology_->setItemData(index, value, Qt::ToolTipRole);
    }
    topology_->setCurrentIndex(index);
    topology_index_ = index;
}

void NumaControls::topology_chosen(int index) {
    if (loading_) return;
    if (topology_->itemData(index).toString() == kLoadFile) {
        const QString path = QFileDialog::getOpenFileName(this, QStringLiteral("Load an hwloc XML topology"), QString(),
                                                          QStringLiteral("hwloc XML topology (*.xml);;All files (*)"));
        const QSignalBlocker block(topology_);
        if (path.isEmpty()) {
            topology_->setCurrentIndex(topology_index_);
            return;
        }
        select_topology(path.toStdString());
    }
    topology_index_ = topology_->currentIndex();
    {
        const QSignalBlocker block(gpu_);
        fill_gpus({});
    }
    emit edited();
}

void NumaControls::fill_gpus(const std::string& selected) {
    gpu_->clear();
    gpu_->addItem(QStringLiteral("first GPU"), QString());
    if (const MachineTopology* t = selected_topology())
        for (const TopologyGpu& g : t->gpus) {
            gpu_->addItem(QStringLiteral("%1 · %2 · node %3")
                              .arg(QString::fromStdString(g.pci_bus_id), QString::fromStdString(g.name.empty() ? "GPU" : g.name))
                              .arg(g.node),
                          QString::fromStdString(g.pci_bus_id));
        }
    const QString value = QString::fromStdString(selected);
    int index = gpu_->findData(value);
    if (index < 0) {  // a bus id the topology in hand does not list (yet): keep it
        gpu_->addItem(value, value);
        index = gpu_->count() - 1;
    }
    gpu_->setCurrentIndex(index);
}

void NumaControls::show_config(const LoaderConfig& config) {
    loading_ = true;
    {
        const QSignalBlocker block(topology_);
        select_topology(config.topology_xml);
    }
    fill_gpus(config.gpu_pci_bus_id);
    for (std::size_t i = 0; i < binds_.size(); ++i) {
        const CpuBinding& binding = config.*kBindingFields[i].member;
        binds_[i].policy->setCurrentIndex(static_cast<int>(binding.policy));
        binds_[i].cpus->setText(binding.policy == CpuBindPolicy::CpuList ? QString::fromStdString(cpu_list_to_string(binding.cpus))
                                                                         : QString());
    }
    membind_->setCurrentIndex(static_cast<int>(config.membind));
    loading_ = false;
}

void NumaControls::write_to(LoaderConfig& config) const {
    for (std::size_t i = 0; i < binds_.size(); ++i) {
        CpuBinding binding;
        binding.policy = static_cast<CpuBindPolicy>(binds_[i].policy->currentIndex());
        if (binding.policy == CpuBindPolicy::CpuList)
            binding.cpus = parse_cpu_list(binds_[i].cpus->text().toStdString()).value_or(std::vector<int>{});
        config.*kBindingFields[i].member = binding;
    }
    config.membind = static_cast<MemoryPlacement>(membind_->currentIndex());
    config.topology_xml = selected_xml();
    config.gpu_pci_bus_id = config.topology_xml.empty() ? std::string() : gpu_->currentData().toString().toStdString();
}

bool NumaControls::set_run_topology(std::shared_ptr<const MachineTopology> topology) {
    if (topology == run_topology_) return false;
    run_topology_ = std::move(topology);
    const std::string selected = gpu_->currentData().toString().toStdString();
    const QSignalBlocker block(gpu_);
    fill_gpus(selected);
    return true;
}

QStringList NumaControls::issues() const {
    QStringList out;
    for (std::size_t i = 0; i < binds_.size(); ++i) {
        if (binds_[i].policy->currentIndex() != kCpuList) continue;
        const QString text = binds_[i].cpus->text().trimmed();
        if (!parse_cpu_list(text.toStdString()))
            out << QStringLiteral("%1: “%2” is not a CPU list; write it like 0-3,8").arg(QString::fromUtf8(kBindingFields[i].name), text);
    }
    return out;
}

void NumaControls::set_remote_allowed(bool allowed, const QString& why) {
    for (BindRow& row : binds_) set_item_enabled(row.policy, kRemote, allowed, allowed ? choice_tip(kBindPolicyChoices[kRemote]) : why);
    set_item_enabled(membind_, kRemote, allowed, allowed ? choice_tip(kPlacementChoices[kRemote]) : why);
    set_item_enabled(membind_, kInterleave, allowed, allowed ? choice_tip(kPlacementChoices[kInterleave]) : why);
}

void NumaControls::update_applicability(const LoaderConfig& config) {
    const bool cuda = runs_on_cuda(config);
    if (cuda && !selected_xml().empty()) {  // a real GPU runs on this machine's topology
        const QSignalBlocker block(topology_), block_gpu(gpu_);
        select_topology({});
        fill_gpus({});
    }
    topology_->setEnabled(!cuda);
    topology_->setToolTip(cuda ? QStringLiteral("A loaded topology needs the emulated device: a real GPU runs on this "
                                                "machine's topology")
                               : field_tip(kTopology));

    const int nodes = node_count();
    const bool loaded = !selected_xml().empty();
    const QString where = loaded ? QStringLiteral("This topology") : QStringLiteral("This machine");
    set_remote_allowed(nodes != 1, QStringLiteral("%1 has one NUMA node: there is no other node to place it on").arg(where));

    const MachineTopology* t = selected_topology();
    const bool several_gpus = t == nullptr || t->gpus.size() > 1;
    gpu_->setEnabled(loaded && several_gpus);
    gpu_->setToolTip(!loaded ? QStringLiteral("On this machine the GPU is the device chosen above")
                     : several_gpus ? field_tip(kGpu)
                                    : QStringLiteral("The loaded topology has one GPU"));

    const auto row_enabled = [](BindRow& row, bool enabled, const QString& why) {
        row.policy->setEnabled(enabled);
        row.cpus->setEnabled(enabled);
        row.policy->setToolTip(enabled ? QString() : why);
    };
    row_enabled(binds_[static_cast<std::size_t>(HostLane::Workers)], config.num_workers > 0,
                QStringLiteral("No workers (num_workers is 0): the consumer builds the batches itself"));
    row_enabled(binds_[static_cast<std::size_t>(HostLane::PinThread)], config.pins_in_pin_thread(),
                QStringLiteral("There is no pin thread: pin_memory is off, num_workers is 0 or pin_mode is worker"));
    membind_->setEnabled(config.pin_memory);
    membind_->setToolTip(config.pin_memory ? field_tip(kMembind)
                                           : QStringLiteral("Places pinned blocks: pin_memory is off"));
    for (BindRow& row : binds_) row.cpus->setVisible(row.policy->currentIndex() == kCpuList);

    if (cuda) note_->setText(QStringLiteral("Real GPU: threads and pages are placed on this machine and read back."));
    else if (loaded) note_->setText(QStringLiteral("Not this machine: the emulated device models where threads and pages are, and "
                                                   "charges the profile's cost for crossing nodes."));
    else if (nodes == 1) note_->setText(QStringLiteral("This machine has one NUMA node: remote binding and placement do not apply."));
    else note_->setText(QString());
    note_->setVisible(!note_->text().isEmpty());
}

}  // namespace pinscope::ui
