// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The machine's tree as hwloc sees it: packages, NUMA nodes, cores, and the NVIDIA GPUs at their
// nodes. Loaded from this machine, or from an hwloc XML file so that a laptop can show a server.
// Plain data, shared read-only (the UI holds it through a shared_ptr to const).
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pinscope {

// A topology could not be loaded: names the file (or "this machine") and what is wrong.
class TopologyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct TopologyCore {
    int index = 0;          // logical index among the machine's cores, 0..cores-1
    std::vector<int> cpus;  // OS indexes of its hardware threads (hwloc PUs), ascending
};

struct TopologyNode {
    int os_index = 0;                // the number the kernel uses (mbind, move_pages, numactl)
    std::uint64_t memory_bytes = 0;  // local memory, 0 when the topology does not say
    std::vector<int> cpus;           // OS indexes of the CPUs local to it, ascending
};

struct TopologyPackage {
    int os_index = 0;
    std::vector<int> nodes;  // os_index of its NUMA nodes, ascending
    std::vector<TopologyCore> cores;
};

struct TopologyGpu {
    std::string pci_bus_id;       // normalised: "0000:c1:00.0"
    std::string name;             // "NVIDIA H200" when the topology names it, else ""
    int node = -1;                // os_index of its local NUMA node, -1 when the topology does not say
    std::vector<int> local_cpus;  // OS indexes of the CPUs local to it, ascending
};

struct MachineTopology {
    std::string source;        // "this machine" (with why, if hwloc failed), an XML path, or "NAME (shipped sample)"
    bool from_file = false;    // a loaded topology: not the machine pinscope runs on
    std::string machine_name;  // hostname or product name when hwloc knows one, else ""
    std::vector<TopologyPackage> packages;
    std::vector<TopologyNode> nodes;  // ascending os_index
    std::vector<TopologyGpu> gpus;    // NVIDIA GPUs (PCI vendor 0x10de), ascending bus id
    std::vector<int> cpu_nodes;       // node os_index by CPU OS index (-1: none), see index_cpus()
    // The hwloc XML it was loaded from, or for this machine exported to (so that a recording keeps
    // the machine it ran on); empty when hwloc could not say.
    std::string xml;

    int node_of_cpu(int cpu) const;                                  // -1 when unknown
    const TopologyNode* find_node(int os_index) const;               // nullptr when absent
    const TopologyGpu* find_gpu(std::string_view pci_bus_id) const;  // any spelling normalize accepts
    bool single_node() const { return nodes.size() <= 1; }
    std::vector<int> all_cpus() const;  // every node's CPUs, ascending
    void index_cpus();                  // fills cpu_nodes from nodes, so that node_of_cpu is a lookup
};

// "C1:00.0", "0000:C1:00.0" and "00000000:c1:00.0" (CUDA's spelling) all become "0000:c1:00.0".
// Returns "" when the text is not a PCI bus id.
std::string normalize_pci_bus_id(std::string_view text);

MachineTopology load_this_machine_topology();                // throws TopologyError
MachineTopology load_topology_xml(const std::string& path);  // throws TopologyError
// XML text from elsewhere than a file (a recording), checked as a file's is; `source` names it in
// errors and becomes the topology's source. Throws TopologyError.
MachineTopology load_topology_xml_text(const std::string& text, const std::string& source);

// The sample topologies shipped in resources/topologies (compiled in), by file stem.
std::vector<std::string> shipped_topology_names();
// The same names, comma-separated, for messages and help texts.
std::string shipped_topology_list();
// A shipped topology's name ("2-socket-2-gpu") or an XML file's path; throws TopologyError.
MachineTopology load_topology(const std::string& name_or_path);
// This machine, loaded on first use and shared. Never throws: if hwloc cannot load it, one NUMA
// node holding the CPUs this process may use, and `source` says why.
std::shared_ptr<const MachineTopology> this_machine_topology();

}  // namespace pinscope
