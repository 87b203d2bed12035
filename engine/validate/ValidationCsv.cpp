// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/validate/ValidationCsv.h"

#include "engine/files/AtomicFile.h"
#include "engine/text/TextFormat.h"

namespace pinscope {

void write_validation_csv(std::ostream& out, const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates) {
    out << kValidationCsvHeader << '\n';
    for (std::size_t k = 0; k < cells.size() && k < rates.size(); ++k) {
        const ValidationCell& cell = cells[k];
        const LoaderConfig& c = cell.config;
        const std::optional<double> error = cell_error(rates[k]);
        out << k + 1 << ',' << (cell.pair_of >= 0 ? std::to_string(cell.pair_of + 1) : "") << ','
            << (cell.pair_of >= 0 ? to_string(cell.changed) : "") << ',' << c.batch_size << ','
            << shape_to_string(c.sample_shape) << ',' << to_string(c.dtype) << ',' << c.batch_bytes() << ','
            << format_fixed(c.cpu_us_per_sample, 1) << ',' << c.num_workers << ','
            << (c.num_workers > 0 ? std::to_string(c.effective_prefetch_factor()) : "") << ','
            << (c.pin_memory ? "on" : "off") << ',' << (c.pin_memory ? to_string(c.pin_mode) : "") << ','
            << (c.non_blocking ? "on" : "off") << ',' << format_fixed(c.gpu_us_per_batch, 1) << ','
            << format_fixed(rates[k].real, 3) << ',' << format_fixed(rates[k].emulated, 3) << ','
            << (error ? format_fixed(*error * 100, 2) : "") << ',' << rates[k].real_count << ','
            << (rates[k].real_count > 1 ? format_fixed(rates[k].real_spread * 100, 2) : "") << ','
            << (rates[k].real_count > 1 ? format_fixed(rates[k].real_slowest, 3) : "") << ','
            << (rates[k].real_count > 1 ? format_fixed(rates[k].real_fastest, 3) : "") << ',';
        const std::optional<HostReading>& host = rates[k].host;
        out << (host ? format_fixed(host->fill_gb_per_s, 3) : "") << ','
            << (host ? format_fixed(host->first_touch_gb_per_s, 3) : "") << ','
            << (host ? format_fixed(host->free_us, 1) : "") << ',';
        const auto host_us = [](double us) { return us > 0 ? format_fixed(us, 1) : std::string(); };
        out << host_us(rates[k].real_host_us) << ',' << host_us(rates[k].emulated_host_us) << ','
            << (host ? format_fixed(host->pin_gb_per_s, 3) : "") << '\n';
    }
}

void write_stage_csv(std::ostream& out, const std::vector<CellRates>& rates) {
    out << kStageCsvHeader << '\n';
    for (std::size_t k = 0; k < rates.size(); ++k) {
        for (const auto& [device, stages] : {std::pair{"real", &rates[k].real_stages}, std::pair{"emulated", &rates[k].emulated_stages}})
            for (const StageTime& time : *stages)
                out << k + 1 << ',' << device << ',' << to_string(time.stage) << ',' << to_string(time.lane) << ','
                    << format_fixed(time.us_per_batch, 1) << '\n';
        for (const auto& [device, us] : {std::pair{"real", rates[k].real_consumer_untraced_us},
                                         std::pair{"emulated", rates[k].emulated_consumer_untraced_us}})
            if (us > 0) out << k + 1 << ',' << device << ",untraced," << to_string(LaneKind::Consumer) << ',' << format_fixed(us, 1) << '\n';
    }
}

void export_stage_csv(const std::string& path, const std::vector<CellRates>& rates) {
    write_file_atomically(path, [&](std::ostream& out) { write_stage_csv(out, rates); });
}

void export_validation_csv(const std::string& path, const std::vector<ValidationCell>& cells,
                           const std::vector<CellRates>& rates) {
    write_file_atomically(path, [&](std::ostream& out) { write_validation_csv(out, cells, rates); });
}

}  // namespace pinscope
