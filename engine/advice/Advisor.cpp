// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/advice/Advisor.h"

#include <algorithm>
#include <chrono>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/config/PinnedBudget.h"
#include "engine/device/HardwareProfile.h"
#include "engine/runner/Runner.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr std::uint32_t kMostWorkers = 256;
constexpr std::uint32_t kMostPrefetch = 64;
constexpr std::uint32_t kWorkersToTry = 4;  // PyTorch users' usual first step from num_workers 0
constexpr auto kCancelPoll = std::chrono::milliseconds(10);

void add_changes_for(Resource resource, const LoaderConfig& c, std::vector<ConfigChange>& out) {
    const auto add = [&](const char* key, const nlohmann::json& value, const char* why) {
        out.push_back({key, value.dump(), why});
    };
    const std::uint32_t more_workers = std::min(kMostWorkers, std::max(2 * c.num_workers, kWorkersToTry));
    switch (resource) {
        case Resource::Workers:
            add("num_workers", more_workers, "more workers load batches in parallel");
            break;
        case Resource::PinThread:
            add("pin_mode", "worker", "the workers collate straight into pinned blocks: no pin thread");
            break;
        case Resource::PageLocking:
            if (c.pin_mode != PinMode::Pool)
                add("pin_mode", "pool", "the caching pool reuses page-locked blocks instead of locking each batch");
            add("pin_mode", "worker", "the workers collate straight into cached pinned blocks");
            break;
        case Resource::PageableStaging:
            if (c.num_workers == 0) add("num_workers", more_workers, "workers load batches ahead");
            add("pin_memory", true, "pinned copies are asynchronous and faster than pageable staging");
            break;
        case Resource::Consumer:
            add("num_workers", more_workers, "workers load batches ahead of the training loop");
            break;
        case Resource::CopyEngine:
            if (!c.pin_memory) add("pin_memory", true, "pinned copies run at the link's full rate");
            if (c.copy_stream == CopyStream::Compute)
                add("copy_stream", "side", "copies on their own stream overlap the kernels");
            if (!c.non_blocking) add("non_blocking", true, "the host does not wait for each copy");
            break;
        case Resource::Compute:
            if (c.copy_stream == CopyStream::Compute)
                add("copy_stream", "side", "copies on their own stream overlap the kernels");
            break;
        case Resource::BatchCredits:
            add("prefetch_factor", std::min(kMostPrefetch, 2 * c.effective_prefetch_factor()), "more batches in flight per worker");
            add("num_workers", more_workers, "more workers, more batches in flight");
            break;
        case Resource::PinnedBudget: {
            const std::uint64_t needed = (worst_case_pinned(c).bytes() + kMiB - 1) / kMiB * kMiB;
            add("pinned_budget_bytes", needed, "a budget that holds every batch in flight");
            break;
        }
        case Resource::None: break;
    }
}

}  // namespace

LoaderConfig apply_change(const LoaderConfig& config, const ConfigChange& change) {
    nlohmann::json json = to_json(config);
    json[change.key] = nlohmann::json::parse(change.value);
    return config_from_json(json);
}

std::vector<ConfigChange> candidate_changes(const RunSummary& summary) {
    std::vector<ConfigChange> changes;
    add_changes_for(summary.bottleneck.resource, summary.config, changes);
    std::vector<ConfigChange> valid;
    for (ConfigChange& change : changes) {
        try {
            const LoaderConfig changed = apply_change(summary.config, change);
            if (changed == summary.config || !find_config_issues(changed).empty()) continue;
        } catch (const std::exception&) {
            continue;
        }
        const bool repeated = std::any_of(valid.begin(), valid.end(), [&](const ConfigChange& c) {
            return c.key == change.key && c.value == change.value;
        });
        if (!repeated) valid.push_back(std::move(change));
    }
    return valid;
}

std::string prediction_device(const RunSummary& summary) {
    const DeviceInfo& device = summary.device;
    if (device.kind != DeviceKind::Cuda) {
        if (summary.config.device_choice().kind == DeviceKind::Emulated) return summary.config.device;
        return "emulated:" + (device.profile.empty() ? std::string(kDefaultProfile) : device.profile);
    }
    std::string found;
    for (const std::string& name : builtin_profile_names()) {
        const HardwareProfile profile = load_profile(name);
        if (!profile.description.starts_with(device.name + ",")) continue;
        if (found.empty() || name.find("calibrated") != std::string::npos) found = name;
    }
    return "emulated:" + (found.empty() ? std::string(kDefaultProfile) : found);
}

double predict_batches_per_s(const LoaderConfig& config, const std::string& device, const AdviceOptions& options) {
    LoaderConfig run = config;
    run.device = device;
    run.host = HostMode::Modeled;
    run.batches.reset();
    run.seconds = options.seconds;
    RunnerOptions runner_options;
    runner_options.window_s = options.window_s;
    runner_options.pace = RunClock::Pace::Unpaced;  // modelled time: the same prediction, sooner
    Runner runner(runner_options);
    runner.start(run);
    // A caller that may cancel (the window, when the configuration changes) does not wait out the run.
    while (options.cancelled && runner.running()) {
        if (options.cancelled()) {
            runner.stop();
            return 0;
        }
        std::this_thread::sleep_for(kCancelPoll);
    }
    runner.wait();
    return runner.window_metrics().batches_per_s;
}

std::vector<Advice> advise(const RunSummary& summary, const AdviceOptions& options) {
    const std::vector<ConfigChange> changes = candidate_changes(summary);
    if (changes.empty()) return {};
    const std::string device = prediction_device(summary);
    const double baseline = predict_batches_per_s(summary.config, device, options);
    std::vector<Advice> advice;
    if (options.cancelled && options.cancelled()) return advice;
    for (const ConfigChange& change : changes) {
        if (options.cancelled && options.cancelled()) break;
        Advice a{change, 0, baseline};
        try {
            a.predicted_batches_per_s = predict_batches_per_s(apply_change(summary.config, change), device, options);
        } catch (const std::exception&) {
            continue;  // a change this device cannot run is no advice
        }
        if (a.predicted_batches_per_s >= options.min_gain * baseline) advice.push_back(std::move(a));
    }
    std::stable_sort(advice.begin(), advice.end(), [](const Advice& a, const Advice& b) {
        return a.predicted_batches_per_s > b.predicted_batches_per_s;
    });
    return advice;
}

}  // namespace pinscope
