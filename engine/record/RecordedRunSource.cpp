// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RecordedRunSource.h"

#include <algorithm>

#include "engine/record/RecordingSchema.h"

namespace pinscope {
namespace {

constexpr double kWindowS = 1.0;  // the window's sliding window, as a live run's

}  // namespace

RecordedRunSource::RecordedRunSource(std::shared_ptr<RecordingTables> tables, RunRow row)
    : tables_(std::move(tables)),
      row_(std::move(row)),
      tracker_(row_.info.origin, kWindowS),
      segments_(row_.info.origin, row_.segments.empty() ? row_.info.config : row_.segments.front().config) {
    for (std::size_t i = 1; i < row_.segments.size(); ++i)
        segments_.begin_segment(row_.segments[i].begin, row_.segments[i].config, {}, {});
    topology_ = tables_->topology(row_);
    recorded_ = std::make_shared<const RecordedFrom>(RecordedFrom{tables_->path(), row_.info.id,
                                                                  static_cast<std::int64_t>(tables_->run_ids().size()),
                                                                  row_.info.host_name, row_.info.started_utc,
                                                                  row_.info.finished});
    tracker_.set_batch_size(row_.info.config.batch_size);
    const RunSummary& base = row_.final_summary ? *row_.final_summary : row_.start_summary;
    usage_ = base.numa.usage;
    usage_.nodes.clear();
    usage_.cross_node_h2d_bytes = usage_.cross_node_host_copy_bytes = 0;
    if (topology_ && row_.start_summary.numa.gpu_name.empty())
        if (const TopologyGpu* gpu = topology_->find_gpu(row_.start_summary.device.pci_bus_id))
            row_.start_summary.numa.gpu_name = gpu->name;
}

// What the window shows as the run so far: the final summary's standing (pool, warnings) with
// the configuration it began with, the figures up to `now` and the NUMA footprint then; at the
// end, the final summary itself.
RunSummary RecordedRunSource::summary_at(TimeNs now, bool ended) {
    const TimeNs origin = row_.info.origin;
    if (ended && row_.final_summary) return *row_.final_summary;
    RunSummary summary = row_.final_summary ? *row_.final_summary : row_.start_summary;
    if (!ended) summary.config = row_.start_summary.config;
    summary.metrics = tracker_.whole_run(origin + now);
    // The segments begun so far: as recorded once the run finished, else from the spans so far.
    summary.segments = row_.final_summary ? row_.segments : segments_.segments(origin + now, {});
    std::erase_if(summary.segments, [&](const RunSegment& segment) { return segment.begin > origin + now; });
    summary.numa.usage = usage_;
    if (ended) summary.warnings.push_back(unfinished_warning(row_));
    return summary;
}

std::shared_ptr<const RunFrame> RecordedRunSource::first_frame() {
    auto frame = std::make_shared<RunFrame>();
    frame->first = true;
    frame->origin = frame->time = row_.info.origin;
    frame->summary = row_.start_summary;
    frame->summary.metrics = tracker_.whole_run(row_.info.origin);
    if (!row_.segments.empty()) frame->summary.segments = {row_.segments.front()};
    frame->topology = topology_;
    frame->recorded = recorded_;
    previous_ = -1;  // a sample at the origin itself belongs to the next frame
    return frame;
}

std::shared_ptr<const RunFrame> RecordedRunSource::next_stretch() {
    const std::int64_t id = row_.info.id;
    const TimeNs origin = row_.info.origin;
    auto frame = std::make_shared<RunFrame>();
    frame->origin = origin;
    frame->topology = topology_;
    frame->recorded = recorded_;
    const TimeNs stretch_end = std::min(std::max<TimeNs>(previous_, 0) + kFrameStretch, row_.data_end);
    frame->spans = tables_->spans_by_end(id, origin, cursor_, stretch_end, kFrameSpans);
    // A full chunk ends at its last span (the rest of the stretch comes next); otherwise the
    // stretch is done, and the run with it at its data's end.
    const bool full = frame->spans.size() == kFrameSpans;
    const TimeNs until = full ? frame->spans.back().end - origin : stretch_end;
    const bool ended = !full && stretch_end >= row_.data_end;
    frame->counters = tables_->counters(id, origin, previous_, until);
    frame->markers = tables_->markers(id, origin, previous_, until);
    if (const auto sample = tables_->numa_sample_at(id, origin, until)) {
        usage_.nodes = sample->pinned;
        usage_.cross_node_h2d_bytes = sample->cross_node_h2d_bytes;
        usage_.cross_node_host_copy_bytes = sample->cross_node_host_copy_bytes;
    }
    tracker_.add(frame->spans);
    segments_.add(frame->spans, frame->counters);
    frame->time = origin + until;
    frame->window = tracker_.window(frame->time);
    frame->summary = summary_at(until, ended);
    frame->ended = ended;
    previous_ = until;
    return frame;
}

std::shared_ptr<const RunFrame> RecordedRunSource::next_frame() {
    if (ended_) return nullptr;
    if (!started_) {
        started_ = true;
        return first_frame();
    }
    try {
        auto frame = next_stretch();
        ended_ = frame->ended;
        return frame;
    } catch (const RecordingError& error) {
        ended_ = true;
        auto frame = std::make_shared<RunFrame>();
        frame->origin = row_.info.origin;
        frame->time = row_.info.origin + std::max<TimeNs>(previous_, 0);
        frame->topology = topology_;
        frame->recorded = recorded_;
        frame->summary = summary_at(std::max<TimeNs>(previous_, 0), false);
        frame->summary.error = std::string("the recording cannot be read further: ") + error.what();
        frame->window = tracker_.window(frame->time);
        frame->ended = true;
        return frame;
    }
}

}  // namespace pinscope
