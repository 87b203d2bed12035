// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/PipelineFrees.h"

#include <stdexcept>
#include <string>

#include "engine/clock/SteadyClock.h"
#include "engine/config/ConfigError.h"
#include "engine/device/Device.h"
#include "engine/metrics/Median.h"
#include "engine/runner/Runner.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

constexpr std::uint32_t kSamplesPerBatch = 4;
constexpr std::uint32_t kRowBytes = 4096;  // a sample's inner dimension (u8), within the shape's limit

LoaderConfig pool_run(const std::string& device, std::size_t bytes, double seconds) {
    if (bytes == 0 || bytes % (kSamplesPerBatch * kRowBytes) != 0)
        throw std::invalid_argument("pipeline frees: a size must be a multiple of 16 KiB, not " + std::to_string(bytes));
    LoaderConfig config;
    config.device = device;
    config.host = HostMode::Real;
    config.batch_size = kSamplesPerBatch;
    config.sample_shape = {static_cast<std::uint32_t>(bytes / kSamplesPerBatch / kRowBytes), kRowBytes};
    config.dtype = DType::U8;
    config.num_workers = 2;
    config.prefetch_factor = 2;
    config.pin_memory = true;
    config.pin_mode = PinMode::Pool;
    config.cpu_us_per_sample = 0;
    config.gpu_us_per_batch = 0;
    config.batches.reset();
    config.seconds = seconds;
    return config;
}

}  // namespace

SizeCurve measure_pipeline_frees_us(const std::string& device, const std::vector<std::size_t>& sizes, double seconds) {
    SizeCurve curve;
    for (const std::size_t bytes : sizes) {
        Runner runner;
        try {
            runner.start(pool_run(device, bytes, seconds));
        } catch (const ConfigError& error) {
            // More than this machine's pinned budget would lock: the sizes below it still say.
            if (error.issue().field == "pinned_budget_bytes") continue;
            throw;
        }
        runner.wait();
        runner.stop();
        const RunSummary summary = runner.summary();
        if (!summary.error.empty()) throw DeviceError("pipeline frees at " + format_size(bytes) + ": " + summary.error);
        TraceReader reader(*runner.trace());
        TraceDelta delta;
        reader.poll(delta);
        const TimeNs settled = runner.origin() + duration_ns(seconds * 1e9 / 3);
        std::vector<double> frees_us;
        for (const Span& span : delta.spans)
            if (span.stage == Stage::Free && span.lane.kind == LaneKind::PinThread && span.start >= settled)
                frees_us.push_back(static_cast<double>(span.duration()) / 1e3);
        if (frees_us.empty())
            throw std::runtime_error("pipeline frees at " + format_size(bytes) + ": no batch was freed after the run's first third");
        curve.sizes_bytes.push_back(static_cast<double>(bytes));
        curve.values.push_back(median(std::move(frees_us)));
    }
    return curve;
}

}  // namespace pinscope
