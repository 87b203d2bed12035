// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/runner/LiveRunSource.h"

#include <algorithm>

namespace pinscope {
namespace {

template <typename T>
void append(std::vector<T>& to, const std::vector<T>& from) {
    to.insert(to.end(), from.begin(), from.end());
}

}  // namespace

NumaSample RunFrame::numa_sample() const {
    const NumaUsage& usage = summary.numa.usage;
    return {time, usage.nodes, usage.cross_node_h2d_bytes, usage.cross_node_host_copy_bytes};
}

LiveRunSource::LiveRunSource(TimeNs origin, std::size_t pending_spans)
    : pending_spans_cap_(std::max<std::size_t>(pending_spans, 1)), origin_(origin) {}

void LiveRunSource::add(const TraceDelta& delta, TimeNs time, const Metrics& window, const RunSummary& summary,
                        std::shared_ptr<const MachineTopology> topology, bool ended,
                        const Bottleneck& window_bottleneck) {
    std::lock_guard lock(mutex_);
    if (!pending_) {
        pending_ = std::make_unique<RunFrame>();
        pending_->origin = origin_;
    }
    RunFrame& frame = *pending_;
    append(frame.spans, delta.spans);
    if (frame.spans.size() > pending_spans_cap_) {
        const std::size_t excess = frame.spans.size() - pending_spans_cap_;
        frame.spans.erase(frame.spans.begin(), frame.spans.begin() + static_cast<std::ptrdiff_t>(excess));
        dropped_ += excess;
    }
    append(frame.counters, delta.counters);
    append(frame.markers, delta.markers);
    frame.time = time;
    frame.window = window;
    frame.window_bottleneck = window_bottleneck;
    frame.summary = summary;
    frame.topology = std::move(topology);
    frame.ended = ended;
}

std::shared_ptr<const RunFrame> LiveRunSource::next_frame() {
    std::unique_ptr<RunFrame> frame;
    {
        std::lock_guard lock(mutex_);
        if (done_ || !pending_) return nullptr;
        frame = std::move(pending_);
        frame->first = first_;
        first_ = false;
        done_ = frame->ended;
        frame->summary.dropped_spans += dropped_;
    }
    return std::shared_ptr<const RunFrame>(std::move(frame));
}

}  // namespace pinscope
