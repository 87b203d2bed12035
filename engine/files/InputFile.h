// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading a file the user named (a configuration, a profile, a topology): only a regular file, of
// at most a stated size, so that a FIFO, a device such as /dev/zero or a huge file is refused
// with a reason instead of hanging or filling memory.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace pinscope {

// Why a file could not be read, in words for the rest of a message: "not a regular file (a FIFO)".
class InputFileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr std::uint64_t kMaxJsonFileBytes = std::uint64_t{16} << 20;  // configurations, profiles
inline constexpr std::uint64_t kMaxXmlFileBytes = std::uint64_t{64} << 20;   // hwloc topologies of big machines

// The whole file. Throws InputFileError when it is missing, unreadable, not a regular file (a
// folder, FIFO, socket or device) or larger than `max_bytes`.
std::string read_input_file(const std::string& path, std::uint64_t max_bytes);

// For a file the user named that a library then opens itself (a recording database): throws
// InputFileError when it is missing, unreadable or not a regular file. Returns its size in bytes.
std::uint64_t check_input_file(const std::string& path);

}  // namespace pinscope
