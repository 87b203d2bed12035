// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RunReference.h"

#include <filesystem>
#include <limits>
#include <system_error>
#include <vector>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

namespace {

bool is_number(const std::string& text) {
    return !text.empty() && text.size() <= 12 && text.find_first_not_of("0123456789") == std::string::npos;
}

bool exists(const std::string& path) {
    std::error_code error;
    return std::filesystem::exists(path, error);
}

}  // namespace

RunReference parse_run_reference(const std::string& text) {
    if (exists(text)) return {text, 0, 0};
    // Up to two numbers after colons, the last first, until what is left is a file.
    std::string numbers[2];
    int count = 0;
    std::string rest = text;
    while (count < 2) {
        const std::size_t colon = rest.rfind(':');
        if (colon == std::string::npos || !is_number(rest.substr(colon + 1))) break;
        numbers[count++] = rest.substr(colon + 1);
        rest.resize(colon);
        if (exists(rest)) break;
    }
    if (count == 0) return {text, 0, 0};
    // FILE:RUN or FILE:RUN:SEGMENT: the run is the number read last.
    RunReference ref{rest, std::stoll(numbers[count - 1]), 0};
    if (ref.run < 1) throw RecordingError(printable(text) + ": a run number from 1 after the colon");
    if (count == 2) {
        const long long segment = std::stoll(numbers[0]);
        if (segment < 1 || segment > std::numeric_limits<std::uint32_t>::max())
            throw RecordingError(printable(text) + ": a segment number from 1 after the run's colon");
        ref.segment = static_cast<std::uint32_t>(segment);
    }
    return ref;
}

std::int64_t pick_run(const RecordingReader& reader, std::int64_t run) {
    if (run > 0) return reader.run(run).id;  // throws, naming the runs the file has, when it has no such run
    const std::vector<RecordedRunInfo> runs = reader.runs();
    if (runs.empty()) throw RecordingError(printable_path(reader.path()) + ": the recording holds no run yet");
    return runs.back().id;
}

std::string run_label(const std::string& path, std::int64_t run) { return "run " + std::to_string(run) + " of " + printable_path(path); }

}  // namespace pinscope
