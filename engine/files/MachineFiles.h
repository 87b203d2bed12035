// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading the small text files of /proc and /sys under a root folder.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pinscope {

class MachineFiles {
public:
    explicit MachineFiles(std::string root);
    const std::string& root() const { return root_; }
    std::string path(const std::string& absolute) const;  // "/proc/meminfo" under the root
    bool exists(const std::string& absolute) const;
    // The file's text, trailing whitespace cut; nullopt when it cannot be read.
    std::optional<std::string> read(const std::string& absolute) const;
    // Names in a folder that start with `prefix`, sorted.
    std::vector<std::string> list(const std::string& absolute, const std::string& prefix = "") const;
    // /proc/meminfo's fields in bytes ("MemTotal" -> bytes).
    std::map<std::string, std::uint64_t> meminfo() const;

private:
    std::string root_;
};

}  // namespace pinscope
