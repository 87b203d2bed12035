// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/record/RunReference.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "engine/record/RecordingReader.h"
#include "engine/record/RecordingSchema.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

RunReference parse_run_reference(const std::string& text) {
    const std::size_t colon = text.rfind(':');
    std::error_code error;
    if (colon == std::string::npos || colon + 1 == text.size() || std::filesystem::exists(text, error)) return {text, 0};
    const std::string number = text.substr(colon + 1);
    if (number.find_first_not_of("0123456789") != std::string::npos || number.size() > 12) return {text, 0};
    const std::int64_t run = std::stoll(number);
    if (run < 1) throw RecordingError(printable(text) + ": a run number from 1 after the colon");
    return {text.substr(0, colon), run};
}

std::int64_t pick_run(const RecordingReader& reader, std::int64_t run) {
    if (run > 0) return reader.run(run).id;  // throws, naming the runs the file has, when it has no such run
    const std::vector<RecordedRunInfo> runs = reader.runs();
    if (runs.empty()) throw RecordingError(printable_path(reader.path()) + ": the recording holds no run yet");
    return runs.back().id;
}

std::string run_label(const std::string& path, std::int64_t run) { return "run " + std::to_string(run) + " of " + printable_path(path); }

}  // namespace pinscope
