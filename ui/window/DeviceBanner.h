// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A strip across the window that says plainly which device the numbers come from: a real GPU (its
// name) or the emulated device (its profile, and why there is no real GPU), and whether the run is
// placed on a loaded topology instead of this machine.
#include <QLabel>

#include "engine/config/LoaderConfig.h"
#include "engine/device/Device.h"
#include "engine/runner/RunFrame.h"
#include "ui/adapter/FrameView.h"

namespace pinscope::ui {

class DeviceBanner : public QLabel, public FrameView {
    Q_OBJECT

public:
    explicit DeviceBanner(QWidget* parent = nullptr);
    // A frame of the run shown: its device, host and topology, when they are new.
    void take(const RunFrame& frame) override;
    // The device a run uses (its info is known once it started).
    void show_running(const DeviceInfo& info, HostMode host, const std::string& topology_xml = {});
    // The device a configuration would use, before Start.
    void show_selected(const LoaderConfig& config);
    bool is_emulated() const { return emulated_; }
    bool is_recorded() const { return recorded_; }
    const std::string& topology_xml() const { return topology_xml_; }

private:
    void show_text(bool emulated, const QString& text, bool recorded = false);
    // A recorded run: where it was recorded, on what, when.
    void show_recorded(const RecordedFrom& from, const RunSummary& summary);
    bool emulated_ = true;
    bool recorded_ = false;
    std::string topology_xml_;
    std::string shown_run_;  // what show_running last showed, as one text; empty when it did not
};

}  // namespace pinscope::ui
