// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/runner/Runner.h"

#include "engine/config/ConfigValidation.h"
#include "engine/device/factory/DeviceFactory.h"
#include "engine/numa/NumaPlan.h"
#include "engine/runner/RunSession.h"

namespace pinscope {

Runner::Runner(RunnerOptions options) : options_(std::move(options)) {}

Runner::~Runner() { stop(); }

void Runner::start(const LoaderConfig& requested) {
    validate(requested);
    const ResolvedDevice resolved = resolve_device(requested.device);
    if (!resolved.note.empty() && options_.messages) options_.messages(Severity::Info, resolved.note);
    LoaderConfig config = requested;
    config.device = resolved.device;
    validate(config);
    std::shared_ptr<const MachineTopology> topology = load_run_topology(config);
    check_numa(config, *topology);
    stop();
    session_ = std::make_shared<RunSession>(config, std::move(topology), open_run_device(config, options_), options_,
                                            running_);
}

void Runner::reconfigure(const LoaderConfig& requested) {
    validate(requested);
    LoaderConfig config = requested;
    config.device = resolve_device(requested.device).device;
    validate(config);
    if (!session_ || !running_) return;
    // The topology is loaded again only when it is another one.
    std::shared_ptr<const MachineTopology> topology = session_->topology();
    if (config.topology_xml != session_->config().topology_xml) topology = load_run_topology(config);
    check_numa(config, *topology);
    session_->request_reconfigure(config, std::move(topology));
}

void Runner::stop() {
    if (session_) session_->stop();
}

void Runner::wait() {
    if (session_) session_->wait();
}

std::shared_ptr<const Trace> Runner::trace() const { return session_ ? session_->trace() : nullptr; }
TimeNs Runner::origin() const { return session_ ? session_->origin() : 0; }
LoaderConfig Runner::config() const { return session_ ? session_->config() : LoaderConfig{}; }
DeviceInfo Runner::device_info() const { return session_ ? session_->device_info() : DeviceInfo{}; }
std::shared_ptr<const MachineTopology> Runner::topology() const { return session_ ? session_->topology() : nullptr; }
NumaUsage Runner::numa_usage() const { return session_ ? session_->numa_usage() : NumaUsage{}; }
RunSummary Runner::summary() const { return session_ ? session_->summary() : RunSummary{}; }
Metrics Runner::window_metrics() const { return session_ ? session_->window_metrics() : Metrics{}; }
Bottleneck Runner::window_bottleneck() const { return session_ ? session_->window_bottleneck() : Bottleneck{}; }
std::shared_ptr<RunSource> Runner::source() const { return session_ ? session_->source() : nullptr; }

}  // namespace pinscope
