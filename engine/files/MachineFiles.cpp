// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/files/MachineFiles.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace pinscope {

MachineFiles::MachineFiles(std::string root) : root_(std::move(root)) {
    while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::string MachineFiles::path(const std::string& absolute) const {
    return root_ == "/" ? absolute : root_ + absolute;
}

bool MachineFiles::exists(const std::string& absolute) const {
    std::error_code error;
    return std::filesystem::exists(path(absolute), error);
}

std::optional<std::string> MachineFiles::read(const std::string& absolute) const {
    std::ifstream in(path(absolute));
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    std::string out = text.str();
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ' || out.back() == '\t')) out.pop_back();
    return out;
}

std::vector<std::string> MachineFiles::list(const std::string& absolute, const std::string& prefix) const {
    std::vector<std::string> names;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(path(absolute), error)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(prefix)) names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::map<std::string, std::uint64_t> MachineFiles::meminfo() const {
    std::map<std::string, std::uint64_t> fields;
    std::istringstream in(read("/proc/meminfo").value_or(""));
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream parts(line);
        std::string key, unit;
        std::uint64_t value = 0;
        if (!(parts >> key >> value) || key.empty() || key.back() != ':') continue;
        parts >> unit;
        key.pop_back();
        fields[key] = unit == "kB" ? value * 1024 : value;
    }
    return fields;
}

}  // namespace pinscope
