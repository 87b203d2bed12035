// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/runner/RunSession.h"

#include <algorithm>
#include <chrono>

#include "engine/analysis/BottleneckFinder.h"
#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigValidation.h"
#include "engine/config/PinnedBudget.h"
#include "engine/host/HostWork.h"
#include "engine/memory/PageLockedMemory.h"
#include "engine/pipeline/LoaderPipeline.h"

namespace pinscope {
namespace {

constexpr TimeNs kObservePeriod = 10'000'000;
constexpr TimeNs kRateWindow = 100'000'000;  // the H2D GB/s counter looks back 100 ms

PipelineLimits limits_for(const LoaderConfig& config, TimeNs origin, std::uint64_t next_batch) {
    PipelineLimits limits;
    limits.first_batch = next_batch;
    if (config.batches) limits.end_batch = *config.batches;
    if (config.seconds) limits.deadline = origin + static_cast<TimeNs>(*config.seconds * 1e9);
    return limits;
}

// Nothing real takes time on the emulated device with the modelled host: the run keeps modelled
// time, so that its figures do not depend on this machine's load.
bool keeps_modelled_time(const LoaderConfig& config, const Device& device) {
    return device.info().kind == DeviceKind::Emulated && config.effective_host() == HostMode::Modeled;
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
    std::string out;
    for (const auto& part : parts) out += (out.empty() ? "" : separator) + part;
    return out;
}

}  // namespace

OpenedDevice open_run_device(const LoaderConfig& config, const RunnerOptions& options) {
    if (!options.make_device) return open_device(config);
    OpenedDevice device;
    device.device = options.make_device(config);
    device.profile = load_profile(kDefaultProfile);
    return device;
}

RunSession::RunSession(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology,
                       OpenedDevice device, const RunnerOptions& options, std::atomic<bool>& running)
    : options_(options),
      running_(running),
      trace_(std::make_shared<Trace>(options.span_capacity)),
      device_(std::move(device)),
      device_info_(device_.device->info()),
      origin_(now_ns()),
      clock_(std::make_shared<RunClock>(origin_, options.pace, keeps_modelled_time(config, *device_.device),
                                        kObservePeriod)),
      config_(config),
      topology_(std::move(topology)),
      release_clock_(stop_.get_token(), [clock = clock_.get()] { clock->release(); }),
      memlock_limit_(memlock_limit_bytes()),
      memlock_exempt_(memlock_limit_exempt()),
      reader_(*trace_),
      metrics_(origin_, options.window_s),
      usage_(origin_, options.window_s),
      segments_(origin_, config),
      window_s_(options.window_s),
      source_(options.frames ? std::make_shared<LiveRunSource>(origin_) : nullptr),
      machine_(options.machine_root),
      memory_at_start_(memory_state(machine_.meminfo())) {
    trace_->set_all_spans(options.trace_all_spans);
    join_run(*device_.device);
    make_pool(config);
    apply_numa_plan(config);  // here, so that a bad plan fails start() and the device info is whole at once
    sample_memory(origin_);
    summary_ = make_summary(origin_);
    summary_.segments = segments_.segments(origin_, PoolCounts{});
    summary_.memory = memory_;
    // Once the device, topology and configuration are whole, so that a run that cannot start is not recorded.
    if (options_.recorder) options_.recorder->begin(RunStart{origin_, summary_, topology_});
    // The first frame is there at once: the device, topology and configuration, nothing run yet.
    if (source_) source_->add(TraceDelta{}, origin_, Metrics{}, summary_, topology_, false);
    running_ = true;
    engine_ = std::thread(&RunSession::engine_main, this);
    observer_ = std::thread(&RunSession::observer_main, this);
}

RunSession::~RunSession() { stop(); }

// What every device of the run shares: whether copies are timed, the stop, the model lag.
void RunSession::join_run(Device& device) {
    device.set_copy_timing(options_.trace_all_spans);
    device.set_stop(stop_.get_token());
    device.set_model_lag(model_lag_);
}

std::uint64_t RunSession::budget_of(const LoaderConfig& config) const {
    return config.pinned_budget_bytes.value_or(default_pinned_budget());
}

PoolCounts RunSession::pool_counts() const {
    const PoolStats stats = pool_ ? pool_->stats() : last_pool_stats_;
    return {stats.num_host_alloc, stats.cache_hits, stats.budget_waits};
}

void RunSession::make_pool(const LoaderConfig& config) {
    pool_ = std::make_unique<PinnedPool>(*device_.device, budget_of(config),
                                         [this](Severity s, const std::string& text) { message(s, text); });
    pool_->set_observer(&numa_);
}

// Between segments, with nothing in flight: resolves where threads and pages go, and forgets
// cached blocks whose pages the new plan would place elsewhere.
void RunSession::apply_numa_plan(const LoaderConfig& config) {
    std::shared_ptr<const MachineTopology> topology = this->topology();
    DeviceInfo info = device_.device->info();
    auto plan = std::make_shared<const NumaPlan>(make_numa_plan(config, topology, info));
    const bool moved = plan_ == nullptr || plan_->topology != plan->topology ||
                       plan_->device_placement() != plan->device_placement() || plan_->membind != plan->membind ||
                       plan_->membind_nodes != plan->membind_nodes;
    if (moved && plan_ != nullptr && pool_) pool_->empty_cache();
    if (plan_ == nullptr || plan_->notes != plan->notes)
        for (const std::string& note : plan->notes) message(Severity::Info, note);
    numa_.set_plan(plan, moved);
    device_.device->set_pinned_placement(plan->device_placement());
    if (info.kind != DeviceKind::Cuda) info.pci_bus_id = plan->gpu_pci_bus_id;  // the GPU the emulated device stands for
    {
        std::lock_guard lock(config_mutex_);
        device_info_ = info;
    }
    plan_ = std::move(plan);
}

std::shared_ptr<const MachineTopology> RunSession::topology() const {
    std::lock_guard lock(config_mutex_);
    return topology_;
}

void RunSession::message(Severity severity, const std::string& text) {
    {
        std::lock_guard lock(state_mutex_);
        if (severity == Severity::Warning) warnings_.push_back(text);
    }
    if (severity != Severity::Info)
        trace_->add_marker(now_ns(), severity == Severity::Error ? MarkerKind::Error : MarkerKind::Warning, text);
    if (options_.messages) options_.messages(severity, text);
}

void RunSession::request_reconfigure(const LoaderConfig& config, std::shared_ptr<const MachineTopology> topology) {
    std::lock_guard lock(config_mutex_);
    pending_ = config;
    pending_topology_ = std::move(topology);
    drain_ = true;
}

void RunSession::stop() {
    {
        // Modelled time stands still first, so that the device ends its work at the same moment.
        const ClockScope scope(clock_.get());
        clock_->release();
        stop_.request_stop();
    }
    drain_ = true;
    if (engine_.joinable()) engine_.join();
    if (observer_.joinable()) observer_.join();
}

void RunSession::wait() {
    std::unique_lock lock(state_mutex_);
    ended_.wait(lock, [&] { return observed_end_; });
}

DeviceInfo RunSession::device_info() const {
    std::lock_guard lock(config_mutex_);
    return device_info_;
}

LoaderConfig RunSession::config() const {
    std::lock_guard lock(config_mutex_);
    return config_;
}

void RunSession::engine_main() {
    const ClockScope scope(clock_.get());
    use_precise_sleeps();
    try {
        run_segments();
    } catch (const std::exception& e) {
        {
            std::lock_guard lock(state_mutex_);
            error_ = e.what();
        }
        message(Severity::Error, std::string("run failed: ") + e.what());
    }
    // Every pinned block is freed before the run counts as ended. Only this thread changes pool_;
    // the lock guards the pointer for the observer, never a wait (the observer samples while
    // modelled threads wait).
    if (pool_) {
        try {
            pool_->release_all();
        } catch (const std::exception& e) {
            message(Severity::Error, std::string("freeing pinned memory failed: ") + e.what());
        }
        std::lock_guard lock(pool_mutex_);
        last_pool_stats_ = pool_->stats();
        pool_.reset();
    }
    // Nothing is in flight once the pipeline is gone (after a stop, what its threads did last
    // depends on this machine's scheduling, not on the model).
    gauges_.in_flight = 0;
    gauges_.ready = 0;
    {
        std::lock_guard lock(state_mutex_);
        engine_done_ = true;
        end_time_ = now_ns();
    }
    clock_->leave();
    clock_->end();
}

void RunSession::keep_time_for(const LoaderConfig& config) {
    clock_->set_modelled(keeps_modelled_time(config, *device_.device));
    clock_->stop_at(config.seconds ? origin_ + static_cast<TimeNs>(*config.seconds * 1e9) : RunClock::kNever, stop_);
}

void RunSession::run_segments() {
    std::uint64_t next_batch = 0;
    LoaderConfig config = this->config();
    while (true) {
        keep_time_for(config);
        apply_numa_plan(config);
        device_.device->set_loader_workers(config.num_workers);
        device_.device->prepare(config.batch_bytes());
        auto host = make_host_work(config.effective_host(), device_.profile, device_.memory_bus, stop_.get_token(),
                                   model_lag_, config.num_workers);
        {
            LoaderPipeline pipeline(config, *device_.device, *host, *pool_, *trace_, gauges_, &numa_);
            next_batch = pipeline.run(limits_for(config, origin_, next_batch), drain_, stop_);
        }
        std::optional<LoaderConfig> next;
        {
            std::lock_guard lock(config_mutex_);
            if (stop_.stop_requested() || !pending_) return;
            next.swap(pending_);
            if (pending_topology_) topology_ = std::move(pending_topology_);
            drain_ = false;
        }
        const auto changes = describe_changes(config, *next);
        const TimeNs changed_at = now_ns();
        PoolCounts ended_with;
        {
            std::lock_guard lock(pool_mutex_);
            ended_with = pool_counts();
        }
        trace_->add_marker(changed_at, MarkerKind::Reconfigured, "reconfigured: " + (changes.empty() ? std::string("no change") : join(changes, ", ")));
        ++reconfigurations_;
        if (next->device != config.device) {
            // Opened first: if it fails, the run ends on the old device and pool, which free everything.
            OpenedDevice opened = open_run_device(*next, options_);
            join_run(*opened.device);
            pool_->release_all();  // frees the old device's blocks while it is still open
            {
                std::lock_guard lock(pool_mutex_);
                pool_.reset();
            }
            plan_.reset();  // a new device holds no blocks: everything is placed afresh
            device_ = std::move(opened);
            std::lock_guard config_lock(config_mutex_);
            device_info_ = device_.device->info();
        }
        if (!pool_ || budget_of(*next) != pool_->budget_bytes()) {
            if (pool_) pool_->release_all();  // waits and frees here, not under the lock
            std::lock_guard lock(pool_mutex_);
            if (pool_) last_pool_stats_ = pool_->stats();
            make_pool(*next);
        } else if (next->batch_bytes() != config.batch_bytes()) {
            pool_->empty_cache();  // blocks of the old size would only sit there
        }
        PoolCounts begins_with;
        {
            std::lock_guard lock(pool_mutex_);
            begins_with = pool_counts();
        }
        {
            // Before the next pipeline records anything: the observer takes it after the spans it polled.
            std::lock_guard lock(config_mutex_);
            config_ = *next;
            segment_starts_.push_back({changed_at, *next, ended_with, begins_with});
        }
        config = *next;
        // A run by batches counts every batch since the start; one that is over has nothing left.
        if (config.batches && next_batch >= *config.batches) return;
    }
}

// Every period: the counters into the trace, then everything new in the trace to the metrics,
// the recorder and the frames. Once the engine thread has ended, one last time, and the run ends.
// In modelled time the moments come from the clock, which holds the modelled threads while the
// counters are sampled and the trace is read, so that both are the model's at that moment.
void RunSession::observer_main() {
    const ClockScope scope(clock_.get());
    RunClock::Moment moment{now_ns(), false};
    while (true) {
        bool done = false;
        TimeNs now = moment.time;
        {
            std::lock_guard lock(state_mutex_);
            done = engine_done_;
            if (done) now = end_time_;
        }
        const bool modelled = clock_->modelled();
        if (!done && !modelled) stop_at_deadline(now);
        // In modelled time the moments the clock holds (and the end) are the model's own.
        if (done || moment.held || !modelled) sample_counters(now);
        take_new();
        if (moment.held) clock_->resume();
        observe(now, done);
        if (done) break;
        moment = clock_->await_sample();
    }
    {
        std::lock_guard lock(state_mutex_);
        observed_end_ = true;
    }
    running_ = false;
    ended_.notify_all();
}

// The pipeline sends nothing past the deadline; stopping there too ends the batches in flight,
// so that a run ends on time whatever its kernels or host work would still take.
void RunSession::stop_at_deadline(TimeNs now) {
    const std::optional<double> seconds = config().seconds;
    if (seconds && static_cast<double>(now - origin_) >= *seconds * 1e9) stop_.request_stop();
}

void RunSession::sample_counters(TimeNs now) {
    {
        std::lock_guard lock(pool_mutex_);
        const double in_use = pool_ ? static_cast<double>(pool_->in_use_bytes()) : 0.0;
        const double reserved = pool_ ? static_cast<double>(pool_->reserved_bytes()) : 0.0;
        trace_->add(Counter::PinnedInUseBytes, now, in_use);
        trace_->add(Counter::PinnedReservedBytes, now, reserved);
    }
    trace_->add(Counter::InFlightBatches, now, static_cast<double>(gauges_.in_flight.load()));
    trace_->add(Counter::ReadyQueueDepth, now, static_cast<double>(gauges_.ready.load()));
    const std::uint64_t bytes = gauges_.h2d_bytes_done.load();
    h2d_history_.emplace_back(now, bytes);
    while (h2d_history_.size() > 2 && h2d_history_[1].first <= now - kRateWindow) h2d_history_.pop_front();
    const auto& [then, bytes_then] = h2d_history_.front();
    const double rate = now > then ? static_cast<double>(bytes - bytes_then) / static_cast<double>(now - then) : 0.0;
    trace_->add(Counter::H2DGbPerS, now, rate);  // bytes per ns = GB/s
    if (now - memory_at_ >= kMemoryPeriod) sample_memory(now);
    if (options_.recorder) {
        const NumaUsage usage = numa_.usage();
        options_.recorder->record(NumaSample{now, usage.nodes, usage.cross_node_h2d_bytes, usage.cross_node_host_copy_bytes});
    }
}

// After the trace is polled: a segment whose spans were polled began before they were recorded.
void RunSession::take_segment_starts() {
    std::vector<SegmentStart> starts;
    {
        std::lock_guard lock(config_mutex_);
        starts.swap(segment_starts_);
    }
    for (const SegmentStart& start : starts) {
        segments_.begin_segment(start.time, start.config, start.ended_with, start.begins_with);
        if (options_.recorder) options_.recorder->begin_segment(segments_.last());
    }
}

void RunSession::sample_memory(TimeNs now) {
    memory_at_ = now;
    const MemoryState state = memory_state(machine_.meminfo());
    if (state.known) {
        trace_->add(Counter::MemAvailableBytes, now, static_cast<double>(state.available_bytes));
        trace_->add(Counter::SwapUsedBytes, now, static_cast<double>(state.swap_used_bytes()));
    }
    const LoaderConfig config = this->config();
    std::uint64_t locked = 0;
    std::uint64_t budget = budget_of(config);
    {
        std::lock_guard lock(pool_mutex_);
        if (pool_) {
            locked = pool_->reserved_bytes();
            budget = pool_->budget_bytes();
        }
    }
    const auto in_flight = static_cast<std::uint64_t>(std::max<std::int64_t>(0, gauges_.in_flight.load()));
    memory_ = memory_pressure(state, memory_at_start_, run_memory(config, budget, locked, in_flight));
    // Said once per configuration (a change may cure it or cause it), and a measured swap once per run.
    const std::uint32_t segment = reconfigurations_.load();
    if (memory_.would_swap && would_swap_warned_in_ != segment) {
        would_swap_warned_in_ = segment;
        message(Severity::Warning, memory_.warning);
    } else if (memory_.swapped && !memory_.would_swap && !swapped_warned_) {
        swapped_warned_ = true;
        message(Severity::Warning, memory_.warning);
    }
}

void RunSession::take_new() {
    delta_.clear();
    reader_.poll(delta_);
    take_segment_starts();
}

void RunSession::observe(TimeNs now, bool ended) {
    segments_.add(delta_.spans, delta_.counters);
    const LoaderConfig config = this->config();
    metrics_.set_batch_size(config.batch_size);
    metrics_.add(delta_.spans);
    usage_.add(delta_.spans, delta_.counters, config.num_workers > 0 ? config.max_outstanding() : 0);
    if (options_.recorder) options_.recorder->record(delta_);
    RunSummary summary = make_summary(now);
    summary.segments = segments_.segments(
        now, {summary.pinned.num_host_alloc, summary.pinned.cache_hits, summary.pinned.budget_waits});
    summary.memory = memory_;
    usage_.note_budget_waits(now, summary.pinned.budget_waits);
    summary.bottleneck = find_bottleneck(usage_.whole_run(now), summary.metrics, summary.config,
                                         summary.pinned.budget_bytes, range_text(window_s_, true));
    const Metrics window = metrics_.window(now);
    if (ended || now - window_bottleneck_at_ >= kWindowBottleneckPeriod) {
        window_bottleneck_seen_ = find_bottleneck(usage_.window(now), window, summary.config, summary.pinned.budget_bytes,
                                                  range_text(window_s_, false));
        window_bottleneck_at_ = now;
    }
    Bottleneck window_bottleneck = window_bottleneck_seen_;
    if (source_) source_->add(delta_, now, window, summary, topology(), ended, window_bottleneck);
    std::lock_guard lock(state_mutex_);
    summary_ = std::move(summary);
    window_ = window;
    window_bottleneck_ = std::move(window_bottleneck);
}

// The observer's (or, before it starts, the constructor's): reads the metrics and the trace reader.
RunSummary RunSession::make_summary(TimeNs now) const {
    RunSummary s;
    s.config = config();
    s.device = device_info();
    s.host = s.config.effective_host();
    {
        std::lock_guard lock(pool_mutex_);
        s.pinned = pool_ ? pool_->stats() : last_pool_stats_;
    }
    s.memlock_limit_bytes = memlock_limit_;
    s.memlock_exempt = memlock_exempt_;
    s.reconfigurations = reconfigurations_;
    if (const auto topology = this->topology()) {
        s.numa.topology_source = topology->source;
        s.numa.from_file = topology->from_file;
        if (const TopologyGpu* gpu = topology->find_gpu(s.device.pci_bus_id)) s.numa.gpu_name = gpu->name;
    }
    s.numa.usage = numa_.usage();
    s.numa.pinned_peak = numa_.peak_pinned();
    s.metrics = metrics_.whole_run(now);
    s.dropped_spans = reader_.dropped_spans();
    s.model_lag = model_lag_->share_of(static_cast<TimeNs>(s.metrics.wall_s * 1e9));
    std::lock_guard lock(state_mutex_);
    s.warnings = warnings_;
    s.error = error_;
    return s;
}

RunSummary RunSession::summary() const {
    std::lock_guard lock(state_mutex_);
    return summary_;
}

Metrics RunSession::window_metrics() const {
    std::lock_guard lock(state_mutex_);
    return window_;
}

Bottleneck RunSession::window_bottleneck() const {
    std::lock_guard lock(state_mutex_);
    return window_bottleneck_;
}

}  // namespace pinscope
