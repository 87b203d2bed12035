// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/ValidationCells.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "engine/config/ConfigValidation.h"
#include "engine/config/PinnedBudget.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

constexpr std::array kDtypes{DType::U8, DType::F16, DType::BF16, DType::F32, DType::I32, DType::I64, DType::F64};
constexpr std::array kPinModes{PinMode::Pool, PinMode::Alloc, PinMode::Register, PinMode::Worker};
constexpr std::uint32_t kMaxDimension = 1'048'576;  // LoaderConfig's largest sample dimension
constexpr int kTries = 64;                          // draws before a change is given up for another

// The standard fixes mt19937_64's sequence but not its distributions' algorithms: the draws are
// done here, so that a seed gives the same cells with any standard library.
class Draw {
public:
    explicit Draw(std::uint64_t seed) : engine_(seed) {}
    double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // [0, 1)
    bool chance(double p) { return unit() < p; }
    std::uint32_t integer(std::uint32_t lo, std::uint32_t hi) {  // [lo, hi]
        return lo + static_cast<std::uint32_t>(engine_() % (static_cast<std::uint64_t>(hi) - lo + 1));
    }
    double log_uniform(double lo, double hi) { return lo * std::pow(hi / lo, unit()); }
    template <class T, std::size_t N>
    T pick(const std::array<T, N>& from) {
        return from[integer(0, static_cast<std::uint32_t>(N - 1))];
    }

private:
    std::mt19937_64 engine_;
};

// A sample shape of about `sample_bytes` of `dtype`: one dimension, or two past the largest.
std::vector<std::uint32_t> shape_for(double sample_bytes, DType dtype) {
    const auto elements = static_cast<std::uint64_t>(std::max(1.0, std::floor(sample_bytes / dtype_size(dtype))));
    if (elements <= kMaxDimension) return {static_cast<std::uint32_t>(elements)};
    const std::uint64_t rows = (elements + kMaxDimension - 1) / kMaxDimension;
    return {static_cast<std::uint32_t>(rows), static_cast<std::uint32_t>(elements / rows)};
}

void draw_sample_shape(Draw& draw, LoaderConfig& config) {
    const double batch_bytes = draw.log_uniform(static_cast<double>(kCellMinBatchBytes) * 1.01,
                                                static_cast<double>(kCellMaxBatchBytes));
    config.sample_shape = shape_for(batch_bytes / config.batch_size, config.dtype);
}

double most_cpu_us(std::uint32_t batch_size) { return std::min(kCellMaxCpuUsPerSample, kCellMaxCpuUsPerBatch / batch_size); }

double draw_cpu_us(Draw& draw, std::uint32_t batch_size) {
    const double most = most_cpu_us(batch_size);
    if (draw.chance(1.0 / 3) || most < 1) return 0;
    return std::round(draw.log_uniform(1, most));
}

double draw_gpu_us(Draw& draw) { return draw.chance(1.0 / 6) ? 0 : std::round(draw.log_uniform(100, kCellMaxGpuUs)); }

std::uint32_t draw_workers(Draw& draw) { return draw.chance(0.2) ? 0 : draw.integer(1, kCellMaxWorkers); }

// Within the drawn ranges, and a footprint any machine of a few GiB can lock.
bool fits(const LoaderConfig& config) {
    const std::uint64_t bytes = config.batch_bytes();
    if (bytes < kCellMinBatchBytes || bytes > kCellMaxBatchBytes) return false;
    if (config.cpu_us_per_sample > kCellMaxCpuUsPerSample) return false;
    if (config.cpu_us_per_sample * config.batch_size > kCellMaxCpuUsPerBatch) return false;
    if (static_cast<std::uint64_t>(config.max_outstanding()) * bytes > kCellMaxBytesInFlight) return false;
    return worst_case_pinned(config).bytes() <= kCellMaxBytesInFlight + (kMaxBatchesOnDevice + 1) * 2 * bytes;
}

LoaderConfig draw_config(Draw& draw, LoaderConfig config) {
    config.dtype = draw.pick(kDtypes);
    config.batch_size = static_cast<std::uint32_t>(std::round(draw.log_uniform(1, kCellMaxBatchSize)));
    draw_sample_shape(draw, config);
    config.cpu_us_per_sample = draw_cpu_us(draw, config.batch_size);
    config.num_workers = draw_workers(draw);
    config.prefetch_factor.reset();
    if (config.num_workers > 0) config.prefetch_factor = draw.integer(1, kCellMaxPrefetch);
    // Fewer batches in flight where large ones would hold too much.
    while (!fits(config) && config.prefetch_factor && *config.prefetch_factor > 1) --*config.prefetch_factor;
    while (!fits(config) && config.num_workers > 1) --config.num_workers;
    config.pin_memory = draw.chance(0.5);
    config.pin_mode = draw.pick(kPinModes);
    config.non_blocking = draw.chance(0.5);
    config.gpu_us_per_batch = draw_gpu_us(draw);
    return config;
}

// The settings a second cell may change: those that apply to the first.
std::vector<CellSetting> changeable(const LoaderConfig& config) {
    std::vector<CellSetting> settings{CellSetting::BatchSize, CellSetting::Dtype,     CellSetting::SampleBytes,
                                      CellSetting::CpuUs,     CellSetting::Workers,   CellSetting::PinMemory,
                                      CellSetting::NonBlocking, CellSetting::GpuUs};
    if (config.num_workers > 0) settings.push_back(CellSetting::Prefetch);
    if (config.pin_memory) settings.push_back(CellSetting::PinMode);
    return settings;
}

void change(Draw& draw, LoaderConfig& config, CellSetting setting) {
    switch (setting) {
        case CellSetting::BatchSize:
            config.batch_size = static_cast<std::uint32_t>(std::round(draw.log_uniform(1, kCellMaxBatchSize)));
            break;
        case CellSetting::Dtype: {  // one of another size: f32 for i32 would change nothing the model sees
            const DType was = config.dtype;
            while (dtype_size(config.dtype) == dtype_size(was)) config.dtype = draw.pick(kDtypes);
            break;
        }
        case CellSetting::SampleBytes: draw_sample_shape(draw, config); break;
        case CellSetting::CpuUs:
            config.cpu_us_per_sample = config.cpu_us_per_sample > 0 && draw.chance(0.5)
                                           ? 0
                                           : std::round(draw.log_uniform(1, std::max(1.0, most_cpu_us(config.batch_size))));
            break;
        case CellSetting::Workers:
            config.num_workers = draw_workers(draw);
            if (config.num_workers == 0) config.prefetch_factor.reset();
            if (config.num_workers > 0 && !config.prefetch_factor) config.prefetch_factor = 2;
            break;
        case CellSetting::Prefetch: config.prefetch_factor = draw.integer(1, kCellMaxPrefetch); break;
        case CellSetting::PinMemory: config.pin_memory = !config.pin_memory; break;
        case CellSetting::PinMode: config.pin_mode = draw.pick(kPinModes); break;
        case CellSetting::NonBlocking: config.non_blocking = !config.non_blocking; break;
        case CellSetting::GpuUs: config.gpu_us_per_batch = draw_gpu_us(draw); break;
    }
}

bool valid(const LoaderConfig& config) { return fits(config) && cell_config_issues(config).empty(); }

// Changes one setting of `first` that makes a different valid cell in exactly that setting.
ValidationCell partner(Draw& draw, const LoaderConfig& first, int first_index) {
    while (true) {
        const std::vector<CellSetting> settings = changeable(first);
        const CellSetting setting = settings[draw.integer(0, static_cast<std::uint32_t>(settings.size() - 1))];
        for (int k = 0; k < kTries; ++k) {
            LoaderConfig second = first;
            change(draw, second, setting);
            const std::vector<CellSetting> differ = differing_settings(first, second);
            if (differ.size() == 1 && differ.front() == setting && valid(second))
                return ValidationCell{second, first_index, setting};
        }
    }
}

}  // namespace

std::vector<ConfigIssue> cell_config_issues(const LoaderConfig& config) {
    LoaderConfig checked = config;
    // Against the budget every cell fits, not this machine's: the cells are the same everywhere.
    checked.pinned_budget_bytes = std::max<std::uint64_t>(config.pinned_budget_bytes.value_or(0),
                                                          kCellMaxBytesInFlight + (kMaxBatchesOnDevice + 1) * 2 *
                                                                                     kCellMaxBatchBytes);
    return find_config_issues(checked);
}

const char* to_string(CellSetting setting) {
    switch (setting) {
        case CellSetting::BatchSize: return "batch_size";
        case CellSetting::Dtype: return "dtype";
        case CellSetting::SampleBytes: return "sample_shape";
        case CellSetting::CpuUs: return "cpu_us_per_sample";
        case CellSetting::Workers: return "num_workers";
        case CellSetting::Prefetch: return "prefetch_factor";
        case CellSetting::PinMemory: return "pin_memory";
        case CellSetting::PinMode: return "pin_mode";
        case CellSetting::NonBlocking: return "non_blocking";
        case CellSetting::GpuUs: return "gpu_us_per_batch";
    }
    return "?";
}

std::vector<CellSetting> differing_settings(const LoaderConfig& a, const LoaderConfig& b) {
    std::vector<CellSetting> differ;
    const auto note = [&](bool differs, CellSetting setting) {
        if (differs) differ.push_back(setting);
    };
    note(a.batch_size != b.batch_size, CellSetting::BatchSize);
    note(a.dtype != b.dtype, CellSetting::Dtype);
    note(a.sample_shape != b.sample_shape, CellSetting::SampleBytes);
    note(a.cpu_us_per_sample != b.cpu_us_per_sample, CellSetting::CpuUs);
    note(a.num_workers != b.num_workers, CellSetting::Workers);
    note(a.effective_prefetch_factor() != b.effective_prefetch_factor() && a.num_workers == b.num_workers,
         CellSetting::Prefetch);
    note(a.pin_memory != b.pin_memory, CellSetting::PinMemory);
    note(a.pin_memory && b.pin_memory && a.pin_mode != b.pin_mode, CellSetting::PinMode);
    note(a.non_blocking != b.non_blocking, CellSetting::NonBlocking);
    note(a.gpu_us_per_batch != b.gpu_us_per_batch, CellSetting::GpuUs);
    return differ;
}

std::vector<ValidationCell> draw_cells(const LoaderConfig& base, std::size_t count, std::uint64_t seed) {
    Draw draw(seed);
    std::vector<ValidationCell> cells;
    while (cells.size() < count) {
        LoaderConfig first = draw_config(draw, base);
        if (!valid(first)) continue;
        const int index = static_cast<int>(cells.size());
        cells.push_back(ValidationCell{first});
        if (cells.size() < count) cells.push_back(partner(draw, first, index));
    }
    return cells;
}

std::vector<RunGroup> run_groups(const std::vector<ValidationCell>& cells, std::size_t repeat) {
    std::vector<RunGroup> groups;
    for (std::size_t first = 0; first < cells.size();) {
        const bool paired = first + 1 < cells.size() && cells[first + 1].pair_of == static_cast<int>(first);
        RunGroup& group = groups.emplace_back(RunGroup{first, paired ? 2u : 1u, {}});
        for (std::size_t run = 0; run < repeat; ++run)
            for (std::size_t k = first; k < first + group.cells; ++k) group.runs.push_back(k);
        first += group.cells;
    }
    return groups;
}

std::vector<CellPair> one_setting_pairs(const std::vector<ValidationCell>& cells) {
    std::vector<CellPair> pairs;
    for (std::size_t i = 0; i < cells.size(); ++i)
        for (std::size_t j = i + 1; j < cells.size(); ++j) {
            const std::vector<CellSetting> differ = differing_settings(cells[i].config, cells[j].config);
            if (differ.size() == 1) pairs.push_back({i, j, differ.front()});
        }
    return pairs;
}

std::string setting_value(const LoaderConfig& c, CellSetting setting) {
    switch (setting) {
        case CellSetting::BatchSize: return std::to_string(c.batch_size);
        case CellSetting::Dtype: return to_string(c.dtype);
        case CellSetting::SampleBytes: return shape_to_string(c.sample_shape);
        case CellSetting::CpuUs: return format_fixed(c.cpu_us_per_sample, 0);
        case CellSetting::Workers: return std::to_string(c.num_workers);
        case CellSetting::Prefetch: return std::to_string(c.effective_prefetch_factor());
        case CellSetting::PinMemory: return c.pin_memory ? "on" : "off";
        case CellSetting::PinMode: return to_string(c.pin_mode);
        case CellSetting::NonBlocking: return c.non_blocking ? "on" : "off";
        case CellSetting::GpuUs: return format_fixed(c.gpu_us_per_batch, 0);
    }
    return "?";
}

std::string describe_cell(const LoaderConfig& c) {
    std::string text = std::to_string(c.batch_size) + " x " + shape_to_string(c.sample_shape) + " " + to_string(c.dtype) +
                       " (" + format_fixed(static_cast<double>(c.batch_bytes()) / 1e6, 1) + " MB)";
    text += ", cpu " + format_fixed(c.cpu_us_per_sample, 0) + " us";
    text += ", w" + std::to_string(c.num_workers);
    if (c.num_workers > 0) text += " p" + std::to_string(c.effective_prefetch_factor());
    text += c.pin_memory ? ", pinned " + to_string(c.pin_mode) : ", pageable";
    text += c.non_blocking ? ", non_blocking" : ", blocking";
    text += ", kernel " + format_fixed(c.gpu_us_per_batch, 0) + " us";
    return text;
}

}  // namespace pinscope
