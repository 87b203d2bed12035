// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/export/CountersCsv.h"

#include "engine/export/ExportFormat.h"

namespace pinscope {

CountersCsvWriter::CountersCsvWriter(std::ostream& out, TimeNs origin) : out_(out), origin_(origin) {
    out_ << "time_s";
    for (int i = 0; i < kCounterCount; ++i) out_ << ',' << to_string(static_cast<Counter>(i));
    out_ << '\n';
}

void CountersCsvWriter::add(const std::vector<CounterSample>& samples) {
    buffer_.add(samples);
    buffer_.release_ready([&](const CounterSample& sample) { take(sample); });
}

void CountersCsvWriter::finish() {
    buffer_.release_all([&](const CounterSample& sample) { take(sample); });
    if (row_time_) write_row();
    row_time_.reset();
}

// Every sample at one time, in recorded order, makes one row: the last one of a counter wins.
void CountersCsvWriter::take(const CounterSample& sample) {
    if (row_time_ && *row_time_ != sample.time) write_row();
    row_time_ = sample.time;
    const auto column = static_cast<std::size_t>(sample.counter);
    if (column < last_.size()) last_[column] = sample.value;
}

void CountersCsvWriter::write_row() {
    out_ << format_time_s(*row_time_, origin_);
    for (const auto& value : last_) out_ << ',' << (value ? format_shortest(*value) : std::string());
    out_ << '\n';
}

void write_counters_csv(std::ostream& out, const std::vector<CounterSample>& samples, TimeNs origin) {
    CountersCsvWriter writer(out, origin);
    writer.add(samples);
    writer.finish();
}

}  // namespace pinscope
