// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/topology/MachineTopology.h"

#include <algorithm>
#include <cstdio>
#include <cctype>
#include <charconv>

namespace pinscope {
namespace {

// Hex digits only, at most `max_digits` of them; the value in `out`.
bool hex_field(std::string_view text, std::size_t max_digits, unsigned& out) {
    if (text.empty() || text.size() > max_digits) return false;
    if (!std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }))
        return false;
    return std::from_chars(text.data(), text.data() + text.size(), out, 16).ec == std::errc();
}

}  // namespace

int MachineTopology::node_of_cpu(int cpu) const {
    if (cpu < 0) return -1;
    if (static_cast<std::size_t>(cpu) < cpu_nodes.size()) return cpu_nodes[static_cast<std::size_t>(cpu)];
    if (!cpu_nodes.empty()) return -1;
    for (const TopologyNode& node : nodes)
        if (std::binary_search(node.cpus.begin(), node.cpus.end(), cpu)) return node.os_index;
    return -1;
}

const TopologyNode* MachineTopology::find_node(int os_index) const {
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const TopologyNode& n) { return n.os_index == os_index; });
    return it == nodes.end() ? nullptr : &*it;
}

const TopologyGpu* MachineTopology::find_gpu(std::string_view pci_bus_id) const {
    const std::string wanted = normalize_pci_bus_id(pci_bus_id);
    if (wanted.empty()) return nullptr;
    const auto it = std::find_if(gpus.begin(), gpus.end(), [&](const TopologyGpu& g) { return g.pci_bus_id == wanted; });
    return it == gpus.end() ? nullptr : &*it;
}

std::vector<int> MachineTopology::all_cpus() const {
    std::vector<int> cpus;
    for (const TopologyNode& node : nodes) cpus.insert(cpus.end(), node.cpus.begin(), node.cpus.end());
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return cpus;
}

void MachineTopology::index_cpus() {
    cpu_nodes.clear();
    for (const TopologyNode& node : nodes) {
        for (const int cpu : node.cpus) {
            if (cpu < 0) continue;
            if (static_cast<std::size_t>(cpu) >= cpu_nodes.size()) cpu_nodes.resize(static_cast<std::size_t>(cpu) + 1, -1);
            cpu_nodes[static_cast<std::size_t>(cpu)] = node.os_index;
        }
    }
}

std::string normalize_pci_bus_id(std::string_view text) {
    // [domain:]bus:device.function, hexadecimal; the domain may be written with up to 8 digits.
    const std::size_t dot = text.rfind('.');
    if (dot == std::string_view::npos) return "";
    const std::string_view head = text.substr(0, dot);
    const std::size_t last_colon = head.rfind(':');
    if (last_colon == std::string_view::npos) return "";
    const std::string_view device_text = head.substr(last_colon + 1);
    const std::string_view rest = head.substr(0, last_colon);
    const std::size_t first_colon = rest.rfind(':');
    const std::string_view bus_text = first_colon == std::string_view::npos ? rest : rest.substr(first_colon + 1);
    const std::string_view domain_text = first_colon == std::string_view::npos ? "0" : rest.substr(0, first_colon);
    unsigned domain = 0;
    unsigned bus = 0;
    unsigned device = 0;
    unsigned function = 0;
    if (!hex_field(domain_text, 8, domain) || !hex_field(bus_text, 2, bus) ||
        !hex_field(device_text, 2, device) || device > 0x1f || !hex_field(text.substr(dot + 1), 1, function) ||
        function > 7)
        return "";
    // Linux writes the domain with four digits, more where it needs them (VMD domains: "10000").
    char id[24];
    std::snprintf(id, sizeof id, "%04x:%02x:%02x.%x", domain, bus, device, function);
    return id;
}

}  // namespace pinscope
