// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/PcieLink.h"

#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/topology/MachineTopology.h"

namespace pinscope {

namespace {

struct Generation {
    double gt_per_s;
    int number;
    double efficiency;  // payload bits per bit on the wire
};

// Gen1 and Gen2 encode 8 bits in 10 (8b/10b); Gen3 to Gen5 128 bits in 130 (128b/130b). Gen6
// signals PAM4 at 32 GBaud (64 GT/s) in 256-byte FLITs of which 242 bytes are not FEC or CRC;
// we count those 242/256 as payload (the DLP bytes inside them are overhead we ignore). No figure
// here counts TLP headers, so real copies top out some 10-15% below these rates.
constexpr std::array<Generation, 6> kGenerations{{
    {2.5, 1, 8.0 / 10.0},
    {5.0, 2, 8.0 / 10.0},
    {8.0, 3, 128.0 / 130.0},
    {16.0, 4, 128.0 / 130.0},
    {32.0, 5, 128.0 / 130.0},
    {64.0, 6, 242.0 / 256.0},
}};

const Generation* generation_of(double gt_per_s) {
    for (const Generation& generation : kGenerations)
        if (std::abs(generation.gt_per_s - gt_per_s) < 0.01) return &generation;
    return nullptr;
}

std::string first_line(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    return line;
}

// The leading number of "32.0 GT/s PCIe" or "16": nullopt when there is none.
std::optional<double> leading_number(const std::string& text) {
    double value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    if (result.ec != std::errc{} || result.ptr == text.data()) return std::nullopt;
    return value;
}

}  // namespace

int pcie_generation(double gt_per_s) {
    const Generation* generation = generation_of(gt_per_s);
    return generation == nullptr ? 0 : generation->number;
}

double pcie_gb_per_s(double gt_per_s, int lanes) {
    const Generation* generation = generation_of(gt_per_s);
    if (generation == nullptr || lanes <= 0) return 0;
    return generation->gt_per_s * lanes * generation->efficiency / 8.0;
}

namespace {

struct LinkState {
    double gt_per_s = 0;
    int lanes = 0;
    bool valid() const { return pcie_generation(gt_per_s) > 0 && lanes > 0; }
    std::string name() const {
        return "PCIe Gen" + std::to_string(pcie_generation(gt_per_s)) + " x" + std::to_string(lanes);
    }
};

// <folder>/<prefix>_link_speed and _width; invalid when either is missing or unreadable.
LinkState read_state(const std::filesystem::path& folder, const std::string& prefix) {
    const auto speed = leading_number(first_line(folder / (prefix + "_link_speed")));
    const auto width = leading_number(first_line(folder / (prefix + "_link_width")));
    if (!speed || !width || *width < 1 || *width > 64 || std::floor(*width) != *width) return {};
    return LinkState{*speed, static_cast<int>(*width)};
}

}  // namespace

PcieLink read_pcie_link(const std::string& bus_id, const std::string& sysfs_root) {
    const std::string id = normalize_pci_bus_id(bus_id);
    if (id.empty()) return {};
    const std::filesystem::path folder = std::filesystem::path(sysfs_root) / "bus/pci/devices" / id;
    PcieLink link;
    if (const LinkState current = read_state(folder, "current"); current.valid())
        link = PcieLink{current.name(), pcie_gb_per_s(current.gt_per_s, current.lanes), true, {}, 0};

    LinkState best = read_state(folder, "max");
    std::error_code error;
    const std::filesystem::path resolved = std::filesystem::canonical(folder, error);
    if (best.valid() && !error) {
        // The upstream port (a bridge) is the folder the device's own folder sits in.
        const LinkState port = read_state(resolved.parent_path(), "max");
        if (port.valid()) best = LinkState{std::min(best.gt_per_s, port.gt_per_s), std::min(best.lanes, port.lanes)};
    }
    if (best.valid()) {
        link.max_name = best.name();
        link.max_gb_per_s = pcie_gb_per_s(best.gt_per_s, best.lanes);
    }
    return link;
}

}  // namespace pinscope
