// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/sweep/SweepCsv.h"

#include <array>
#include <charconv>

#include "engine/files/AtomicFile.h"
#include "engine/sweep/SweepPlan.h"

namespace pinscope {

namespace {

std::string fixed(double value, int decimals) {
    std::array<char, 64> buffer{};
    const auto result =
        std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, std::chars_format::fixed, decimals);
    return std::string(buffer.data(), result.ptr);
}

// A CPU list holds commas: quoted, as RFC 4180 has it.
std::string csv_field(const std::string& text) {
    return text.find(',') == std::string::npos ? text : '"' + text + '"';
}

}  // namespace

void write_sweep_csv(std::ostream& out, const std::vector<SweepRow>& rows) {
    out << kSweepCsvHeader << '\n';
    for (const SweepRow& row : rows) {
        const auto prefetch = applied_prefetch(row.config);
        const auto pin_mode = applied_pin_mode(row.config);
        const Metrics& m = row.summary.metrics;
        out << row.config.num_workers << ',' << (prefetch ? std::to_string(*prefetch) : "") << ','
            << (row.config.pin_memory ? "on" : "off") << ',' << (pin_mode ? to_string(*pin_mode) : "") << ','
            << fixed(m.batches_per_s, 3) << ',' << fixed(m.samples_per_s, 3) << ',' << fixed(m.h2d_gb_per_s, 4) << ','
            << fixed(m.gpu_busy, 4) << ',' << fixed(m.copy_hidden, 4) << ',' << fixed(m.gpu_starved, 4) << ','
            << row.summary.pinned.reserved_bytes.peak << ',' << m.batches << ',' << fixed(m.wall_s, 4) << ','
            << csv_field(to_string(row.config.bind_workers)) << ',' << csv_field(to_string(row.config.bind_pin_thread))
            << ',' << csv_field(to_string(row.config.bind_consumer)) << ',' << to_string(row.config.membind) << ','
            << row.summary.numa.usage.cross_node_h2d_bytes << ',' << fixed(m.gpu_starved_copy, 4) << ','
            << fixed(m.gpu_starved_host, 4) << ',' << fixed(m.consumer_wait, 4) << ',' << fixed(m.host_held, 4) << ','
            << to_string(row.config.copy_stream) << '\n';
    }
}

void export_sweep_csv(const std::string& path, const std::vector<SweepRow>& rows) {
    write_file_atomically(path, [&](std::ostream& out) { write_sweep_csv(out, rows); });
}

}  // namespace pinscope
