// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The NUMA part of the configuration: where the workers, the pin thread and the consumer may run,
// where pinned blocks are placed, and which topology the run uses (this machine, a shipped sample
// or an hwloc XML file) with, on a loaded topology of several GPUs, the GPU the device stands for.
// What cannot apply is greyed out and says why: remote and interleave on a one-node machine, a
// loaded topology on a real GPU, the pin thread's binding when there is no pin thread.
#include <QGroupBox>

#include <array>
#include <memory>

#include "engine/config/LoaderConfig.h"
#include "ui/numa/NumaViewModel.h"

class QComboBox;
class QLabel;
class QLineEdit;

namespace pinscope::ui {

class NumaControls : public QGroupBox {
    Q_OBJECT

public:
    explicit NumaControls(QWidget* parent = nullptr);

    // Shows the NUMA fields of `config` without announcing them.
    void show_config(const LoaderConfig& config);
    // Writes the NUMA fields the controls show into `config`.
    void write_to(LoaderConfig& config) const;
    // The run's topology (null before a run): its nodes and GPUs fill in what the selection allows
    // when it is the topology the controls select. False when it is the one they had.
    bool set_run_topology(std::shared_ptr<const MachineTopology> topology);
    // Greys out what `config` makes moot; on a real GPU the topology goes back to this machine.
    void update_applicability(const LoaderConfig& config);
    // CPU lists typed that do not parse, said with what was typed (the engine's checks of the
    // configuration and of the selected topology say the rest). Empty when all is well.
    QStringList issues() const;
    // The topology the selection names, once a run or the window's preview has loaded it; null before.
    const MachineTopology* selected_topology() const;
    // NUMA nodes of the selected topology, -1 while unknown (no run has loaded it yet).
    int node_count() const;

    QComboBox* topology() const { return topology_; }
    QComboBox* gpu() const { return gpu_; }
    QComboBox* membind() const { return membind_; }
    QComboBox* bind_policy(HostLane lane) const { return binds_[static_cast<std::size_t>(lane)].policy; }
    QLineEdit* bind_cpus(HostLane lane) const { return binds_[static_cast<std::size_t>(lane)].cpus; }

signals:
    // A choice changed: applied after the panel's pause.
    void edited();
    // A CPU list is being typed (or "CPU list…" was just chosen): applied once typingFinished.
    void typing();
    void typingFinished();

private:
    struct BindRow {
        QComboBox* policy = nullptr;
        QLineEdit* cpus = nullptr;
    };
    QWidget* build_bind_row(BindRow& row);
    void topology_chosen(int index);
    void select_topology(const std::string& xml);
    void fill_gpus(const std::string& selected);
    std::string selected_xml() const;
    // The run's topology when it is the one selected, else null.
    void set_remote_allowed(bool allowed, const QString& why);

    std::array<BindRow, kHostLaneCount> binds_;
    QComboBox* membind_;
    QComboBox* topology_;
    QComboBox* gpu_;
    QLabel* note_;
    std::shared_ptr<const MachineTopology> run_topology_;
    int topology_index_ = 0;  // the selection before "Load XML file…" was picked
    bool loading_ = false;
};

}  // namespace pinscope::ui
