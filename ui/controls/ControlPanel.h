#pragma once
// Every LoaderConfig field as a control, `pin_memory`, `num_workers` and `prefetch_factor` first
// and largest. Each edit is checked with the engine's own validation: a valid configuration is
// announced (after a short pause, so that dragging a slider reconfigures once, not twenty times);
// an invalid one is explained under the controls and not applied.
#include <QWidget>

#include "config/ConfigError.h"
#include "config/LoaderConfig.h"

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace pinscope {
struct MachineTopology;
}

namespace pinscope::ui {

class NumaControls;

class ControlPanel : public QWidget {
    Q_OBJECT

public:
    // seconds used for "until Stop": the longest run the engine allows (a week).
    static constexpr double kUntilStoppedSeconds = 604800;

    explicit ControlPanel(QWidget* parent = nullptr);

    // Shows `config` without announcing it.
    void set_config(const LoaderConfig& config);
    // The configuration the controls show (possibly invalid).
    LoaderConfig config() const;
    bool valid() const;
    QString issue_text() const;
    // Announces the current configuration now instead of after the pause (if valid).
    void flush();

    QCheckBox* pin_memory() const { return pin_memory_; }
    QSpinBox* num_workers() const { return workers_; }
    QSpinBox* prefetch_factor() const { return prefetch_; }
    QComboBox* device() const { return device_; }
    NumaControls& numa() const { return *numa_; }
    // The run's topology (null before a run): the NUMA controls offer what it allows.
    void set_run_topology(std::shared_ptr<const MachineTopology> topology);

signals:
    // A valid configuration the user made.
    void configEdited(const pinscope::LoaderConfig& config);
    void resetRequested();

private:
    void build();
    QWidget* build_primary();
    QWidget* build_details();
    void edited();
    void announce();
    void update_derived();
    std::vector<ConfigIssue> engine_issues(const LoaderConfig& config) const;
    void select_device(const std::string& device);

    bool loading_ = false;
    LoaderConfig shown_;  // keeps what the controls cannot show (an unset prefetch_factor)
    QTimer* debounce_;
    QCheckBox* pin_memory_;
    QSpinBox* workers_;
    QSlider* workers_slider_;
    QSpinBox* prefetch_;
    QSlider* prefetch_slider_;
    QComboBox* device_;
    QSpinBox* batch_size_;
    QLineEdit* sample_shape_;
    QComboBox* dtype_;
    QComboBox* pin_mode_;
    QCheckBox* non_blocking_;
    QComboBox* copy_stream_;
    QCheckBox* in_order_;
    QDoubleSpinBox* cpu_us_;
    QDoubleSpinBox* gpu_us_;
    QComboBox* host_;
    QSpinBox* budget_mib_;
    QComboBox* length_kind_;
    QDoubleSpinBox* length_value_;
    NumaControls* numa_;
    QLabel* batch_info_;
    QLabel* issue_;
    QPushButton* reset_;
};

}  // namespace pinscope::ui
