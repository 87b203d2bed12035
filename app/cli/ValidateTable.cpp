// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/ValidateTable.h"

#include <algorithm>

#include "app/cli/SweepTable.h"
#include "app/cli/TextTable.h"
#include "engine/text/TextFormat.h"

namespace pinscope::cli {
namespace {

std::string share(std::size_t part, std::size_t whole) {
    return std::to_string(part) + " of " + std::to_string(whole) +
           (whole > 0 ? " (" + format_fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 1) + " %)"
                      : "");
}

// "within 10 %: 30 of 40 (75.0 %) cells; within 15 %: 35 of 40 (87.5 %) cells".
std::string within_text(const ValidationSummary& s) {
    return "within 10 %: " + share(s.within_10, s.cells) + " cells; within 15 %: " + share(s.within_15, s.cells) + " cells";
}

std::string side(int faster, std::size_t first, std::size_t second) {
    if (faster == 0) return "tie";
    return "cell " + std::to_string((faster < 0 ? first : second) + 1) + " faster";
}

// "4.59 to 6.00 GB/s; the profile's 5.80 (-21 % to +3 %)".
std::string host_figure(double lowest, double highest, double profile, int decimals, const std::string& unit) {
    std::string text = format_fixed(lowest, decimals) + " to " + format_fixed(highest, decimals) + " " + unit;
    if (!(profile > 0)) return text + "; the profile states none";
    const auto percent = [&](double value) { return format_signed_percent((value - profile) / profile * 100, 0); };
    return text + "; the profile's " + format_fixed(profile, decimals) + " (" + percent(lowest) + " to " +
           percent(highest) + ")";
}

std::string host_drift_text(const std::vector<CellRates>& rates, const std::string& real_name,
                            const std::string& model_name, const HostReading& model_host) {
    const std::vector<HostReading> readings = host_readings(rates);
    const std::optional<HostRange> range = host_range(readings);
    if (!range) return "";
    const HostReading& lo = range->lowest;
    const HostReading& hi = range->highest;
    return "the host before each of " + std::to_string(readings.size()) + " cells on " + real_name +
           " (read as calibrate measures it), against the profile of " + model_name + ":\n" +
           "  filling samples: " + host_figure(lo.fill_gb_per_s, hi.fill_gb_per_s, model_host.fill_gb_per_s, 2, "GB/s") +
           "\n  collating into new pages: " +
           host_figure(lo.first_touch_gb_per_s, hi.first_touch_gb_per_s, model_host.first_touch_gb_per_s, 2, "GB/s") +
           "\n  freeing a worker's " + format_size(kHostReadingFreeBytes) + " batch: " +
           host_figure(lo.free_us, hi.free_us, model_host.free_us, 0, "us") + "\n" +
           (hi.pin_gb_per_s > 0 ? "  pinning a batch just collated (into resident memory): " +
                                      host_figure(lo.pin_gb_per_s, hi.pin_gb_per_s, model_host.pin_gb_per_s, 2, "GB/s") + "\n"
                                : "");
}

// "+12.5 %", "-3.0 %"; "-" for none.
std::string signed_percent(std::optional<double> share) {
    if (!share) return "-";
    return format_signed_percent(*share * 100, 1);
}

}  // namespace

std::string format_error(const CellRates& rates) { return signed_percent(cell_error(rates)); }

std::string format_validation_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                     const std::string& real_name, const std::string& model_name,
                                     const HostReading& model_host) {
    const bool repeated = std::any_of(rates.begin(), rates.end(), [](const CellRates& r) { return r.real_count > 1; });
    const bool host_work =
        std::any_of(rates.begin(), rates.end(), [](const CellRates& r) { return host_stage_error(r).has_value(); });
    std::vector<std::vector<std::string>> rows{{"cell", "pair", "configuration", real_name, model_name, "error"}};
    if (repeated) rows.front().push_back("spread on " + real_name);
    if (host_work) rows.front().push_back("host stages");
    for (std::size_t k = 0; k < cells.size() && k < rates.size(); ++k) {
        const ValidationCell& cell = cells[k];
        rows.push_back({std::to_string(k + 1),
                        cell.pair_of >= 0 ? std::to_string(cell.pair_of + 1) + ": " + to_string(cell.changed) : "",
                        describe_cell(cell.config), format_batches_per_s(rates[k].real),
                        format_batches_per_s(rates[k].emulated), format_error(rates[k])});
        if (repeated) rows.back().push_back(format_fixed(rates[k].real_spread * 100, 1) + " %");
        if (host_work) rows.back().push_back(signed_percent(host_stage_error(rates[k])));
    }
    std::string out = "batches/s after the first third of each run; error: " + model_name + " against " + real_name + "\n";
    for (const std::string& line : align_table(rows, {Align::Left, Align::Left, Align::Left})) out += line + '\n';

    const ValidationSummary s = summarize_validation(cells, rates);
    out += "\n" + within_text(s) + "\n";
    if (s.repeated)
        out += real_name + " against itself (the spread of each cell's runs, whose median the table gives): within 10 %: " +
               share(s.real_within_10, s.cells) + " cells; median spread " + format_fixed(s.median_real_spread * 100, 1) +
               " %\n";
    if (s.host_cells > 0)
        out += "host stages (load and collate per batch as the host ran during each cell, " + model_name + " against " +
               real_name + "): within 10 %: " + share(s.host_within_10, s.host_cells) + " cells; of the " +
               std::to_string(s.off_cells) + " of them off by more than 10 % in batches/s, " +
               std::to_string(s.off_with_host_off_the_same_way) +
               " had their host stages off by more than 10 % the same way\n";
    out += "pairs that differ in one setting: " + std::to_string(s.pairs.size()) + "\n";
    for (const PairVerdict& v : s.pairs) {
        const std::size_t a = v.pair.first;
        const std::size_t b = v.pair.second;
        out += "  cells " + std::to_string(a + 1) + " and " + std::to_string(b + 1) + ", " + to_string(v.pair.setting) +
               " " + setting_value(cells[a].config, v.pair.setting) + " -> " +
               setting_value(cells[b].config, v.pair.setting) + ": " + real_name + " " + side(v.real, a, b) +
               ", " + model_name + " " + side(v.emulated, a, b) +
               (v.counted()       ? (v.agree() ? ": agree" : ": DISAGREE")
                : v.real_overlap ? ": left out (" + real_name + "'s runs of the two cells overlap)"
                                 : ": left out (a real tie)") +
               '\n';
    }
    out += "direction: the emulated device names the faster cell of " + share(s.pairs_agreeing, s.pairs_counted) +
           " pairs";
    if (s.real_ties > s.real_overlaps)
        out += "; " + std::to_string(s.real_ties - s.real_overlaps) + " pair(s) within " + format_fixed(kTieShare * 100, 0) +
               " % on " + real_name + " left out";
    if (s.real_overlaps > 0)
        out += "; " + std::to_string(s.real_overlaps) + " pair(s) whose runs on " + real_name +
               " overlap left out (it did not tell them apart)";
    return out + '\n' + host_drift_text(rates, real_name, model_name, model_host);
}

std::string format_host_as_read_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                       const std::string& real_name, const HostReading& as_read,
                                       const HostReading& model_host) {
    const ValidationSummary s = summarize_validation(cells, rates);
    const auto rate = [](double read, double stated) {
        return format_fixed(read, 2) + " GB/s, " +
               (stated > 0 ? "the profile's " + format_fixed(stated, 2) : "where the profile states none");
    };
    std::string out = "the same model with the host's rates as read before the cells (their median: filling samples " +
                      rate(as_read.fill_gb_per_s, model_host.fill_gb_per_s) + "; collating into new pages " +
                      rate(as_read.first_touch_gb_per_s, model_host.first_touch_gb_per_s) +
                      (as_read.pin_gb_per_s > 0
                           ? "; pinning a batch just collated " + rate(as_read.pin_gb_per_s, model_host.pin_gb_per_s)
                           : "") +
                      "), against " + real_name + ":\n  " + within_text(s);
    if (s.host_cells > 0) out += "; host stages within 10 %: " + share(s.host_within_10, s.host_cells) + " cells";
    out += "; the faster cell of " + share(s.pairs_agreeing, s.pairs_counted) + " pairs\n";
    return out + "  (what is left is the model's error, and the host moving from cell to cell)\n";
}

std::string format_host_as_ran_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                      const std::string& real_name) {
    const ValidationSummary s = summarize_validation(cells, rates);
    // Beside the device's own spread from run to run, against which the count is to be read.
    const std::string spread = s.repeated ? ": " + real_name + "'s own runs of a cell were within 10 % of each other in " +
                                                share(s.real_within_10, s.cells) + " cells"
                                          : "";
    return "the same model with each cell's load and collate as they ran on " + real_name +
           " (not a prediction: each cell's own host figures go in):\n  " + within_text(s) + "; the faster cell of " +
           share(s.pairs_agreeing, s.pairs_counted) + " pairs\n" +
           "  (what is left is the rest of the model, and how far the device's own runs spread" + spread + ")\n";
}

std::string format_call_drift_report(const CallDrift& drift, const std::string& real_name,
                                     const std::string& earlier_name, const std::string& model_name) {
    return real_name + " against its earlier call (" + earlier_name + ") on the same cells: within 10 %: " +
           share(drift.within_10, drift.cells) + " cells; within 15 %: " + share(drift.within_15, drift.cells) +
           " cells; median move " + format_fixed(drift.median_drift * 100, 1) + " %; " +
           std::to_string(drift.beyond_any_figure) +
           " cell(s) moved so far that no figure is within 10 % of both calls\n" + "  " + model_name +
           " within 10 % of both calls in " + std::to_string(drift.model_within_10_of_both) + " cells, of either in " +
           std::to_string(drift.model_within_10_of_either) + "; the two calls name the same faster cell of " +
           share(drift.pairs_agreeing, drift.pairs_counted) + " pairs that both tell apart\n" +
           "  (the emulated device gives a cell the same figure in every call: no profile comes nearer to both calls "
           "than they are to each other)\n";
}

}  // namespace pinscope::cli
