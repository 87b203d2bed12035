#include "export/CountersCsv.h"

#include <algorithm>
#include <array>
#include <optional>

#include "export/ExportFormat.h"

namespace pinscope {

namespace {

using Row = std::array<std::optional<double>, kCounterCount>;

void write_header(std::ostream& out) {
    out << "time_s";
    for (int i = 0; i < kCounterCount; ++i) out << ',' << to_string(static_cast<Counter>(i));
    out << '\n';
}

void write_row(std::ostream& out, TimeNs time, TimeNs origin, const Row& values) {
    out << format_time_s(time, origin);
    for (const auto& value : values) out << ',' << (value ? format_shortest(*value) : std::string());
    out << '\n';
}

}  // namespace

void write_counters_csv(std::ostream& out, const std::vector<CounterSample>& samples, TimeNs origin) {
    write_header(out);
    std::vector<CounterSample> sorted = samples;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const CounterSample& a, const CounterSample& b) { return a.time < b.time; });
    Row last{};
    for (std::size_t i = 0; i < sorted.size();) {
        const TimeNs time = sorted[i].time;
        // Every sample at this time, in recorded order: the last one of a counter wins.
        for (; i < sorted.size() && sorted[i].time == time; ++i) {
            const auto column = static_cast<std::size_t>(sorted[i].counter);
            if (column < last.size()) last[column] = sorted[i].value;
        }
        write_row(out, time, origin, last);
    }
}

}  // namespace pinscope
