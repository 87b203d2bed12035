// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every LoaderConfig field as a control, `pin_memory`, `num_workers` and `prefetch_factor` first
// and largest, in a scroll area under a message line that is always in view. The controls show
// the configuration in effect (what runs, or what Start runs) unless an edit is pending. An edit
// is applied after a short pause (so that dragging a slider reconfigures once, not twenty times),
// a text field's when Enter is pressed or it is left. Each edit is checked with the engine's own
// validation as it is made: what cannot apply is said at the top and its control marked in red;
// when it is applied anyway (the pause ended), or the engine refuses it, the controls go back to
// the configuration in effect and the message stays until the next edit. The mouse wheel changes
// a control only when it has the focus; otherwise it scrolls the panel.
#include <QWidget>

#include "engine/config/ConfigError.h"
#include "engine/config/ConfigFields.h"
#include "engine/config/LoaderConfig.h"

#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
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
    static constexpr double kUntilStoppedSeconds = config_field(&LoaderConfig::seconds).range->hi;

    // What a new window shows, and what a configuration file's missing keys mean in the window:
    // LoaderConfig's defaults on this app's default device, running until Stop.
    static LoaderConfig defaults();

    explicit ControlPanel(QWidget* parent = nullptr);

    // Shows `config` as the configuration in effect, without announcing it; a pending edit and
    // the message of a refusal are dropped.
    void set_config(const LoaderConfig& config);
    // The configuration in effect: what set_config gave last.
    const LoaderConfig& applied() const { return applied_; }
    // The configuration the controls show: the one in effect, with a pending edit (possibly invalid).
    LoaderConfig config() const;
    bool valid() const;
    // The message at the top: why the edit cannot apply or was not applied; empty when there is none.
    QString issue_text() const;
    QLabel* issue_label() const { return issue_; }
    // Whether an edit waits to be applied: the pause after a change, or a text field being typed in.
    bool edit_pending() const { return pending_; }
    // Whether the pending edit is applied at the end of the pause (not so while text is typed).
    bool applies_after_pause() const;
    // Applies a pending edit now instead of after the pause.
    void flush();
    // For the receiver of configEdited when it could not apply `refused`: the controls go back to
    // the configuration in effect, and the message at the top says what was refused and why.
    void refuse(const LoaderConfig& refused, const QString& why);
    QScrollArea* scroll_area() const { return scroll_; }

    QCheckBox* pin_memory() const { return pin_memory_; }
    QSpinBox* num_workers() const { return workers_; }
    QSpinBox* prefetch_factor() const { return prefetch_; }
    QSpinBox* batch_size() const { return batch_size_; }
    QComboBox* device() const { return device_; }
    NumaControls& numa() const { return *numa_; }
    // The run's topology (null before a run): the NUMA controls offer what it allows.
    void set_run_topology(std::shared_ptr<const MachineTopology> topology);

signals:
    // An edit to apply, valid as far as the panel can tell: the receiver applies it and shows it
    // with set_config, or calls refuse().
    void configEdited(const pinscope::LoaderConfig& config);
    void resetRequested();

private:
    void build();
    QWidget* build_content();
    QWidget* build_primary();
    QWidget* build_details();
    // A value changed: applied after the pause. Text is being typed: applied when the field is left.
    void edited();
    void typing();
    void commit();
    void show_config(const LoaderConfig& config);
    void update_derived();
    // What keeps `config` from running: the engine's checks, and text that does not parse.
    QStringList problems(const LoaderConfig& config) const;
    std::vector<ConfigIssue> engine_issues(const LoaderConfig& config) const;
    QStringList text_issues() const;
    void select_device(const std::string& device);

    bool loading_ = false;
    bool pending_ = false;
    LoaderConfig applied_;  // also what the controls cannot show (an unset prefetch_factor)
    QString refusal_;       // the last refusal, until the next edit
    QStringList refused_fields_;
    int scroll_top_ = 0;  // where the scroll area began, below the message line, when it last changed
    QTimer* debounce_;
    QScrollArea* scroll_;
    QWidget* content_;
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
