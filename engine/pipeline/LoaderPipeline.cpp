// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/pipeline/LoaderPipeline.h"

#include "engine/clock/SteadyClock.h"
#include "engine/numa/ThreadPlacement.h"
#include "engine/pipeline/BatchBuilder.h"

namespace pinscope {
namespace {

constexpr TimeNs kShortestRecordedWait = 1'000;  // waits under 1 us are noise, not starvation

}  // namespace

LoaderPipeline::LoaderPipeline(const LoaderConfig& config, Device& device, HostWork& host, PinnedPool& pool,
                               Trace& trace, PipelineGauges& gauges, NumaTracker* numa)
    : config_(config),
      device_(device),
      host_(host),
      pool_(pool),
      trace_(trace),
      gauges_(gauges),
      numa_(numa),
      plan_(numa != nullptr ? numa->plan() : nullptr),
      consumer_(trace, {LaneKind::Consumer, 0}),
      copy_lane_(trace, {LaneKind::CopyStream, 0}),
      compute_lane_(trace, {LaneKind::ComputeStream, 0}) {
    // Made before any thread runs, so that a stop may close them from any thread.
    for (std::uint16_t w = 0; w < config_.num_workers; ++w)
        index_queues_.push_back(std::make_unique<BlockingQueue<IndexSent>>());
    // A registered batch is freed as any other batch of this run: a modelled host charges its free.
    pool_.set_registered_free([this](PageableBuffer& buffer, std::size_t bytes) {
        host_.free_batch(buffer, bytes, batch_memory(config_), config_.num_workers, now_ns());
    });
}

LoaderPipeline::~LoaderPipeline() {
    stopping_ = true;
    stop_threads();
    pool_.set_registered_free({});  // the pool outlives this run's host work
}

void LoaderPipeline::start_threads() {
    for (std::uint16_t w = 0; w < config_.num_workers; ++w) threads_.emplace_back([this, w] { worker_main(w); });
    if (config_.pins_in_pin_thread()) threads_.emplace_back([this] { pin_thread_main(); });
}

void LoaderPipeline::stop_threads() {
    // Workers first (they finish the batch in hand), then the pin thread drains what they made.
    // Interrupted, each thread stops at once and what it made stays queued.
    for (auto& queue : index_queues_) queue->close();
    for (std::size_t w = 0; w < index_queues_.size() && w < threads_.size(); ++w)
        if (threads_[w].joinable()) threads_[w].join();
    results_.close();
    for (auto& thread : threads_)
        if (thread.joinable()) thread.join();
    ready_.close();
    if (stopping_) discard_leftovers();
}

void LoaderPipeline::fail(std::exception_ptr error) {
    {
        std::lock_guard lock(error_mutex_);
        if (!error_) error_ = error;
    }
    interrupt();
    stop_.request_stop();  // modelled waits anywhere end at once: the run is over
}

void LoaderPipeline::interrupt() {
    stopping_ = true;
    for (auto& queue : index_queues_) queue->close();
    results_.close();
    ready_.close();
}

// Also runs in the destructor: a device that fails while the pool looks at other blocks' copies
// is the run's failure, not an exception out of the teardown (the block is handed back first, so
// release_all still frees it).
void LoaderPipeline::discard(Batch& batch) {
    try {
        if (batch.pinned) pool_.release(*batch.pinned, 0);
    } catch (...) {
        fail(std::current_exception());
    }
    batch.pinned.reset();
}

void LoaderPipeline::discard_leftovers() {
    for (BlockingQueue<Batch>* queue : {&results_, &ready_})
        for (Batch& batch : queue->take_all()) discard(batch);
    for (auto& [index, batch] : reorder_) discard(batch);
    reorder_.clear();
}

void LoaderPipeline::worker_main(std::uint16_t worker) {
    use_precise_sleeps();
    LaneRecorder recorder(trace_, {LaneKind::Worker, worker});
    BatchBuilder builder(config_, host_, pool_, stopping_, numa_);
    try {
        const ThreadPlacementScope placement(plan_.get(), LaneKind::Worker, worker);
        while (auto sent = index_queues_[worker]->pop()) {
            if (stopping_) break;
            auto batch = builder.build(sent->index, sent->sent_at, recorder);
            if (!batch) break;
            results_.push(std::move(*batch));
        }
    } catch (...) {
        fail(std::current_exception());
    }
}

void LoaderPipeline::pin_thread_main() {
    use_precise_sleeps();
    LaneRecorder recorder(trace_, {LaneKind::PinThread, 0});
    BatchBuilder builder(config_, host_, pool_, stopping_, numa_);
    try {
        const ThreadPlacementScope placement(plan_.get(), LaneKind::PinThread, 0);
        while (auto batch = results_.pop()) {
            if (stopping_ || !builder.pin(*batch, recorder)) {
                discard(*batch);
                break;
            }
            ready_.push(std::move(*batch));
        }
    } catch (...) {
        fail(std::current_exception());
    }
}

void LoaderPipeline::send(std::uint64_t index) {
    // Round robin over the workers, as PyTorch's _try_put_index does.
    index_queues_[(index - first_batch_) % config_.num_workers]->push({index, now_ns()});
    ++sent_;
    gauges_.in_flight = static_cast<std::int64_t>(sent_ - first_batch_ - taken_);
}

std::optional<Batch> LoaderPipeline::take_next() {
    BlockingQueue<Batch>& source = config_.pins_in_pin_thread() ? ready_ : results_;
    std::optional<Batch> batch;
    if (config_.in_order) {
        // Early arrivals wait in the reorder buffer: one slow worker holds back everything behind it.
        while (reorder_.find(next_in_order_) == reorder_.end()) {
            auto arrived = source.pop();
            if (!arrived) return std::nullopt;
            const std::uint64_t index = arrived->index;
            reorder_.emplace(index, std::move(*arrived));
        }
        batch = std::move(reorder_.extract(next_in_order_).mapped());
        ++next_in_order_;
    } else {
        batch = source.pop();
        if (!batch) return std::nullopt;
    }
    ++taken_;
    gauges_.ready = static_cast<std::int64_t>(reorder_.size() + source.size());
    gauges_.in_flight = static_cast<std::int64_t>(sent_ - first_batch_ - taken_);
    return batch;
}

std::uint64_t LoaderPipeline::run(const PipelineLimits& limits, const std::atomic<bool>& drain, std::stop_source stop) {
    use_precise_sleeps();
    const ThreadPlacementScope placement(plan_.get(), LaneKind::Consumer, 0);
    stop_ = stop;
    const std::stop_callback on_stop(stop.get_token(), [this] { interrupt(); });
    device_.set_copy_stream(config_.copy_stream);
    first_batch_ = sent_ = next_in_order_ = limits.first_batch;
    taken_ = 0;
    auto may_send = [&] { return !drain && !stopping_ && sent_ < limits.end_batch && now_ns() < limits.deadline; };
    try {
        if (config_.num_workers == 0) {
            // The consumer loads, collates and pins each batch itself; nothing is prefetched.
            BatchBuilder builder(config_, host_, pool_, stopping_, numa_);
            while (may_send()) {
                const std::uint64_t index = sent_++;
                auto batch = builder.build(index, now_ns(), consumer_);
                if (!batch) break;
                if ((config_.pin_memory && !builder.pin(*batch, consumer_)) || stopping_) {
                    discard(*batch);
                    break;
                }
                consume(std::move(*batch));
            }
        } else {
            start_threads();
            while (sent_ - first_batch_ < config_.max_outstanding() && may_send()) send(sent_);
            while (taken_ < sent_ - first_batch_ && !stopping_) {
                const TimeNs start = now_ns();
                auto batch = take_next();
                if (!batch) break;  // stopped, or a thread failed
                if (stopping_) {
                    discard(*batch);
                    break;
                }
                // Recorded even when short: its end is when the consumer took the batch.
                consumer_.record(Stage::Wait, batch->index, 0, start, now_ns());
                if (may_send()) send(sent_);
                consume(std::move(*batch));
            }
            stop_threads();
        }
        finish_device_work();
    } catch (...) {
        fail(std::current_exception());
    }
    if (error_) {
        stop_threads();
        try {
            finish_device_work();
        } catch (...) {  // the first error is the one to report
        }
        std::rethrow_exception(error_);
    }
    return sent_;
}

void LoaderPipeline::consume(Batch batch) {
    // A training step waits for the step kMaxBatchesOnDevice back before queueing another.
    if (on_device_.size() >= kMaxBatchesOnDevice) {
        const OnDevice oldest = on_device_.front();
        const TimeNs start = now_ns();
        device_.wait(oldest.compute);
        const TimeNs end = now_ns();
        if (end - start >= kShortestRecordedWait) consumer_.record(Stage::Sync, oldest.batch, 0, start, end);
        on_device_.erase(on_device_.begin());
    }
    HostSource source = batch.source();
    source.cached = config_.num_workers == 0;  // collated by this thread a moment ago
    if (numa_ != nullptr) source.remote_fraction = numa_->count_h2d(source, batch.written_on_node);
    // On the compute stream the driver synchronizes with the stream before it stages pageable
    // memory: that wait is for the kernels queued before the copy, not staging, so it is a Sync.
    if (!source.pinned && config_.copy_stream == CopyStream::Compute && !on_device_.empty()) {
        const TimeNs wait_start = now_ns();
        device_.wait(on_device_.back().compute);
        const TimeNs wait_end = now_ns();
        if (wait_end - wait_start >= kShortestRecordedWait)
            consumer_.record(Stage::Sync, batch.index, 0, wait_start, wait_end);
    }
    const TimeNs start = now_ns();
    const OpId copy = device_.copy_to_device(source, batch.index);
    if (!source.pinned) consumer_.record(Stage::Staging, batch.index, batch.bytes, start, now_ns());
    if (!config_.non_blocking) {
        // On the compute stream this also waits out the kernels queued before the copy.
        const TimeNs wait_start = now_ns();
        device_.wait(copy);
        consumer_.record(Stage::Sync, batch.index, batch.bytes, wait_start, now_ns());
    }
    const OpId compute = device_.launch_compute(copy, batch.index, config_.gpu_us_per_batch);
    on_device_.push_back({batch.index, compute});
    // Pinned memory goes back once the copy has read it; a pageable source was staged already.
    if (batch.pinned) {
        pool_.release(*batch.pinned, copy);
    } else {
        const WorkTimes freed =
            host_.free_batch(batch.pageable, batch.bytes, batch_memory(config_), config_.num_workers, now_ns());
        if (freed.end > freed.start) consumer_.record(Stage::Free, batch.index, batch.bytes, freed.start, freed.end);
    }
    pool_.process_events(&consumer_);
    collect_device_spans();
}

void LoaderPipeline::collect_device_spans() {
    completed_.clear();
    device_.collect_completed(completed_);
    for (const CompletedOp& op : completed_) {
        if (op.kind == OpKind::H2D) {
            copy_lane_.record(Stage::H2D, op.batch, op.bytes, op.start, op.end);
            gauges_.h2d_bytes_done += op.bytes;
        } else {
            compute_lane_.record(Stage::Compute, op.batch, op.bytes, op.start, op.end);
            ++gauges_.batches_done;
        }
    }
}

void LoaderPipeline::finish_device_work() {
    device_.synchronize();
    collect_device_spans();
    on_device_.clear();
    pool_.process_events(&consumer_);
}

}  // namespace pinscope
