#include "topology/PcieLink.h"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>

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

bool is_hex(const std::string& text) {
    if (text.empty()) return false;
    for (const char c : text)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
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

std::optional<std::string> normalise_pci_bus_id(const std::string& bus_id) {
    // domain:bus:device.function, the domain optional (then 0).
    const auto dot = bus_id.rfind('.');
    if (dot == std::string::npos) return std::nullopt;
    const std::string function = bus_id.substr(dot + 1);
    std::string rest = bus_id.substr(0, dot);
    const auto last_colon = rest.rfind(':');
    if (last_colon == std::string::npos) return std::nullopt;
    const std::string device = rest.substr(last_colon + 1);
    rest = rest.substr(0, last_colon);
    const auto colon = rest.rfind(':');
    const std::string bus = colon == std::string::npos ? rest : rest.substr(colon + 1);
    std::string domain = colon == std::string::npos ? "0" : rest.substr(0, colon);
    if (!is_hex(domain) || !is_hex(bus) || !is_hex(device) || !is_hex(function)) return std::nullopt;
    if (bus.size() > 2 || device.size() > 2 || function.size() != 1 || domain.size() > 8) return std::nullopt;
    // CUDA writes the domain with eight digits, sysfs with four (more only when it needs them).
    while (domain.size() > 4 && domain.front() == '0') domain.erase(0, 1);
    const auto padded = [](const std::string& hex, std::size_t width) {
        return std::string(hex.size() < width ? width - hex.size() : 0, '0') + hex;
    };
    return lower(padded(domain, 4) + ":" + padded(bus, 2) + ":" + padded(device, 2) + "." + function);
}

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
    const auto id = normalise_pci_bus_id(bus_id);
    if (!id) return {};
    const std::filesystem::path folder = std::filesystem::path(sysfs_root) / "bus/pci/devices" / *id;
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
