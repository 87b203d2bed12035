// SPDX-License-Identifier: GPL-3.0-or-later
// MachineTopology from hwloc: this machine, an XML file, or a compiled-in sample.
#include <fcntl.h>
#include <hwloc.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <sstream>
#include <system_error>

#include "engine/files/InputFile.h"
#include "engine/text/UntrustedText.h"
#include "engine/topology/EmbeddedTopologies.h"
#include "engine/topology/MachineTopology.h"

namespace pinscope {
namespace {

constexpr unsigned kNvidiaVendor = 0x10de;
constexpr unsigned kVgaClass = 0x0300;
constexpr unsigned k3dClass = 0x0302;
constexpr const char* kThisMachine = "this machine";

// Discovery components that would initialise GPU runtimes (CUDA, NVML, OpenCL...) or a display:
// slow, and not needed, as GPUs are found as PCI devices. Those come from Linux's sysfs; the
// libpciaccess plugin ("pci") would add names from pci.ids, but it leaks on every load.
constexpr const char* kSkippedComponents[] = {"pci", "cuda", "nvml", "opencl", "gl", "rsmi", "levelzero"};

struct TopologyHandle {
    hwloc_topology_t topology = nullptr;
    TopologyHandle() {
        if (hwloc_topology_init(&topology) != 0) topology = nullptr;
    }
    ~TopologyHandle() {
        if (topology != nullptr) hwloc_topology_destroy(topology);
    }
    TopologyHandle(const TopologyHandle&) = delete;
    TopologyHandle& operator=(const TopologyHandle&) = delete;
};

// CPU and node numbers beyond any kernel's (Linux: 8192 CPUs, 1024 nodes) would only blow up the
// tables indexed by them.
constexpr int kMaxCpuNumber = 65535;
constexpr unsigned kMaxNodeNumber = 4095;

std::vector<int> bits_of(hwloc_const_bitmap_t set) {
    std::vector<int> bits;
    if (set == nullptr || hwloc_bitmap_isfull(set)) return bits;
    const int last = hwloc_bitmap_last(set);  // -1 for an empty set, and for an infinite one
    if (last > kMaxCpuNumber || (last < 0 && !hwloc_bitmap_iszero(set)))
        throw TopologyError("a CPU or node set reaching " + (last < 0 ? std::string("infinity") : std::to_string(last)) +
                            "; expected numbers from 0 to " + std::to_string(kMaxCpuNumber));
    for (int bit = hwloc_bitmap_first(set); bit >= 0; bit = hwloc_bitmap_next(set, bit)) bits.push_back(bit);
    return bits;
}

std::string info_of(hwloc_obj_t obj, const char* name) {
    const char* value = obj != nullptr ? hwloc_obj_get_info_by_name(obj, name) : nullptr;
    // Names in an XML file are shown on terminals: escapes in them are made visible.
    return value != nullptr ? printable(value, kEchoChars) : "";
}

std::string pci_bus_id_of(hwloc_obj_t pcidev) {
    const auto& pci = pcidev->attr->pcidev;
    char text[32];
    std::snprintf(text, sizeof text, "%04x:%02x:%02x.%01x", pci.domain, pci.bus, pci.dev, pci.func);
    return normalize_pci_bus_id(text);
}

// "NVIDIA H200" from a CUDA or NVML OS device when the topology has one, else the PCI name.
std::string gpu_name_of(hwloc_obj_t pcidev) {
    for (hwloc_obj_t child = pcidev->io_first_child; child != nullptr; child = child->next_sibling) {
        const std::string model = info_of(child, "GPUModel");
        if (!model.empty()) return model;
    }
    const std::string device = info_of(pcidev, "PCIDevice");
    return device.empty() ? "" : "NVIDIA " + device;
}

int local_node_of(hwloc_topology_t topology, hwloc_obj_t ancestor) {
    hwloc_location location{};
    location.type = HWLOC_LOCATION_TYPE_OBJECT;
    location.location.object = ancestor;
    hwloc_obj_t nodes[2] = {nullptr, nullptr};
    unsigned count = 2;
    // Nodes with exactly the ancestor's locality; failing that, the one node under the ancestor.
    if (hwloc_get_local_numanode_objs(topology, &location, &count, nodes, 0) == 0 && count == 1)
        return static_cast<int>(nodes[0]->os_index);
    if (ancestor->nodeset != nullptr && hwloc_bitmap_weight(ancestor->nodeset) == 1)
        return hwloc_bitmap_first(ancestor->nodeset);
    return -1;
}

std::vector<TopologyGpu> gpus_of(hwloc_topology_t topology) {
    std::vector<TopologyGpu> gpus;
    for (hwloc_obj_t obj = hwloc_get_next_pcidev(topology, nullptr); obj != nullptr;
         obj = hwloc_get_next_pcidev(topology, obj)) {
        const auto& pci = obj->attr->pcidev;
        if (pci.vendor_id != kNvidiaVendor || (pci.class_id != kVgaClass && pci.class_id != k3dClass)) continue;
        TopologyGpu gpu;
        gpu.pci_bus_id = pci_bus_id_of(obj);
        gpu.name = gpu_name_of(obj);
        if (hwloc_obj_t ancestor = hwloc_get_non_io_ancestor_obj(topology, obj)) {
            gpu.node = local_node_of(topology, ancestor);
            gpu.local_cpus = bits_of(ancestor->cpuset);
        }
        gpus.push_back(std::move(gpu));
    }
    std::sort(gpus.begin(), gpus.end(),
              [](const TopologyGpu& a, const TopologyGpu& b) { return a.pci_bus_id < b.pci_bus_id; });
    return gpus;
}

std::vector<TopologyCore> cores_in(hwloc_topology_t topology, hwloc_const_cpuset_t cpuset) {
    std::vector<TopologyCore> cores;
    const bool has_cores = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE) > 0;
    const hwloc_obj_type_t type = has_cores ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;  // no cores known: a PU is one
    for (hwloc_obj_t core = hwloc_get_next_obj_inside_cpuset_by_type(topology, cpuset, type, nullptr); core != nullptr;
         core = hwloc_get_next_obj_inside_cpuset_by_type(topology, cpuset, type, core)) {
        TopologyCore entry;
        entry.index = static_cast<int>(core->logical_index);
        entry.cpus = bits_of(core->cpuset);
        if (!entry.cpus.empty()) cores.push_back(std::move(entry));
    }
    return cores;
}

MachineTopology convert(hwloc_topology_t topology, std::string source, bool from_file) {
    MachineTopology machine;
    machine.source = std::move(source);
    machine.from_file = from_file;
    hwloc_obj_t root = hwloc_get_root_obj(topology);
    machine.machine_name = info_of(root, "HostName");
    if (machine.machine_name.empty()) machine.machine_name = info_of(root, "DMIProductName");

    const int node_count = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
    for (int i = 0; i < node_count; ++i) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(i));
        if (obj == nullptr) continue;
        // hwloc reads "-5" as 4294967291 and a missing number as HWLOC_UNKNOWN_INDEX.
        if (obj->os_index > kMaxNodeNumber)
            throw TopologyError("a NUMA node numbered " + std::to_string(obj->os_index) + "; expected 0 to " +
                                std::to_string(kMaxNodeNumber));
        TopologyNode node;
        node.os_index = static_cast<int>(obj->os_index);
        node.memory_bytes = obj->attr->numanode.local_memory;
        node.cpus = bits_of(obj->cpuset);
        machine.nodes.push_back(std::move(node));
    }
    std::sort(machine.nodes.begin(), machine.nodes.end(),
              [](const TopologyNode& a, const TopologyNode& b) { return a.os_index < b.os_index; });
    for (std::size_t i = 1; i < machine.nodes.size(); ++i)
        if (machine.nodes[i].os_index == machine.nodes[i - 1].os_index)
            throw TopologyError("two NUMA nodes numbered " + std::to_string(machine.nodes[i].os_index) +
                                "; expected each node's own number");

    const int package_count = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_PACKAGE);
    for (int i = 0; i < package_count; ++i) {
        hwloc_obj_t obj = hwloc_get_obj_by_type(topology, HWLOC_OBJ_PACKAGE, static_cast<unsigned>(i));
        if (obj == nullptr) continue;
        TopologyPackage package;
        package.os_index = obj->os_index > static_cast<unsigned>(kMaxCpuNumber) ? i : static_cast<int>(obj->os_index);
        package.nodes = bits_of(obj->nodeset);
        package.cores = cores_in(topology, obj->cpuset);
        machine.packages.push_back(std::move(package));
    }
    if (machine.packages.empty()) {  // some virtual machines report no package: one for everything
        TopologyPackage package;
        for (const TopologyNode& node : machine.nodes) package.nodes.push_back(node.os_index);
        package.cores = cores_in(topology, root->cpuset);
        machine.packages.push_back(std::move(package));
    }
    machine.gpus = gpus_of(topology);
    for (TopologyGpu& gpu : machine.gpus)
        if (machine.find_node(gpu.node) == nullptr) gpu.node = -1;  // a node number the tree does not have
    machine.index_cpus();
    return machine;
}

// The kernel's MemTotal in bytes, 0 when unknown.
std::uint64_t meminfo_total_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    while (meminfo >> key >> kib) {
        if (key == "MemTotal:") return kib * 1024;
        meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
    }
    return 0;
}

// Loads what `configure` set up; the error names `source`.
MachineTopology load_with(const std::string& source, bool from_file,
                          int (*configure)(hwloc_topology_t, const void*), const void* argument) {
    TopologyHandle handle;
    if (handle.topology == nullptr) throw TopologyError(source + ": hwloc could not start: " + std::strerror(errno));
    for (const char* component : kSkippedComponents)
        hwloc_topology_set_components(handle.topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, component);
    hwloc_topology_set_io_types_filter(handle.topology, HWLOC_TYPE_FILTER_KEEP_IMPORTANT);
    // hwloc parses XML when it is handed over and says only "invalid argument" when it fails.
    const std::string malformed = "hwloc could not load it: not a well-formed hwloc XML topology (truncated or malformed?)";
    if (configure != nullptr && configure(handle.topology, argument) != 0) throw TopologyError(source + ": " + malformed);
    if (hwloc_topology_load(handle.topology) != 0)
        throw TopologyError(source + ": " + (from_file ? malformed : "hwloc could not load it: " + std::string(std::strerror(errno))));
    MachineTopology machine;
    try {
        machine = convert(handle.topology, source, from_file);
    } catch (const TopologyError& error) {
        throw TopologyError(source + ": " + error.what());
    }
    if (machine.nodes.empty()) throw TopologyError(source + ": the topology has no NUMA node");
    if (configure == nullptr) {  // this machine: its XML, for recordings
        char* buffer = nullptr;
        int length = 0;
        if (hwloc_topology_export_xmlbuffer(handle.topology, &buffer, &length, 0) == 0 && buffer != nullptr) {
            machine.xml.assign(buffer, length > 0 ? static_cast<std::size_t>(length - 1) : 0);  // less its NUL
            hwloc_free_xmlbuffer(handle.topology, buffer);
        }
    }
    // Some virtual machines' sysfs gives their one node a fraction of the memory (10 GiB of 128 on
    // the H200 machine); with one node, all of it is that node's.
    if (!from_file && machine.nodes.size() == 1)
        machine.nodes.front().memory_bytes = std::max(machine.nodes.front().memory_bytes, meminfo_total_bytes());
    return machine;
}

int configure_buffer(hwloc_topology_t topology, const void* argument) {
    const auto& text = *static_cast<const std::string*>(argument);
    // hwloc's own exports count the terminating NUL, and its parsers expect it.
    return hwloc_topology_set_xmlbuffer(topology, text.c_str(), static_cast<int>(text.size() + 1));
}

// hwloc's parsers recurse once per element: text nested 100000 deep overflows the stack.
constexpr std::size_t kMaxXmlDepth = 128;

// How deep the elements of `text` nest, counted before hwloc sees it: start tags open, end tags
// and "/>" close; comments, declarations and processing instructions are skipped. A tag ends at
// its first ">", as in hwloc's own parser (libxml2 allows ">" in a quoted value, which can only
// make the count deeper, never shallower). Stops counting once past kMaxXmlDepth.
std::size_t xml_depth(std::string_view text) {
    std::size_t depth = 0;
    std::size_t deepest = 0;
    std::size_t i = 0;
    const auto skip_past = [&](std::string_view end) {
        const std::size_t found = text.find(end, i);
        i = found == std::string_view::npos ? text.size() : found + end.size();
    };
    while ((i = text.find('<', i)) != std::string_view::npos) {
        const std::string_view rest = text.substr(i);
        if (rest.starts_with("<!--")) {
            skip_past("-->");
        } else if (rest.starts_with("<![CDATA[")) {
            skip_past("]]>");
        } else if (rest.starts_with("<?")) {
            skip_past("?>");
        } else if (rest.starts_with("<!") || rest.starts_with("</")) {
            if (rest.starts_with("</") && depth > 0) --depth;
            skip_past(">");
        } else {
            const std::size_t end = std::min(text.find('>', i), text.size());
            const bool empty_element = end < text.size() && text[end - 1] == '/';
            if (!empty_element && ++depth > deepest) deepest = depth;
            if (deepest > kMaxXmlDepth) return deepest;
            i = end;
        }
    }
    return deepest;
}

// A NUMA node or CPU (PU) unnumbered or numbered beyond kMaxNodeNumber or kMaxCpuNumber, as
// written in the XML; empty when there is none. hwloc sets the object's bit in a bitmap before anything else:
// "-5" (read as 4294967291) costs it half a gigabyte and seconds.
std::string out_of_range_number(std::string_view text) {
    constexpr std::string_view kNumber = "os_index=\"";
    for (std::size_t at = text.find("<object"); at != std::string_view::npos; at = text.find("<object", at + 1)) {
        const std::size_t end = text.find('>', at);
        const std::string_view tag = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        const bool node = tag.find("type=\"NUMANode\"") != std::string_view::npos;
        if (!node && tag.find("type=\"PU\"") == std::string_view::npos) continue;
        const std::size_t number_at = tag.find(kNumber);
        if (number_at == std::string_view::npos)  // hwloc would number it 2^32-1
            return std::string(node ? "a NUMA node" : "a CPU") + " without a number (os_index)";
        const std::string_view rest = tag.substr(number_at + kNumber.size());
        const std::string_view number = rest.substr(0, rest.find('"'));
        const std::uint64_t limit = node ? kMaxNodeNumber : static_cast<std::uint64_t>(kMaxCpuNumber);
        std::uint64_t value = 0;
        const auto parsed = std::from_chars(number.data(), number.data() + number.size(), value);
        if (parsed.ec == std::errc() && parsed.ptr == number.data() + number.size() && value <= limit) continue;
        return std::string(node ? "a NUMA node" : "a CPU") + " numbered " + printable(number, 20) + "; expected 0 to " +
               std::to_string(limit);
    }
    return "";
}

// What is wrong with text that should be an hwloc XML topology, before hwloc reads it (hwloc
// only says "invalid argument"); empty when nothing obvious is.
std::string obvious_problem(const std::string& text) {
    std::size_t start = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a UTF-8 byte order mark
    start = text.find_first_not_of(" \t\r\n", start);
    if (start == std::string::npos) return "the file is empty";
    if (text[start] != '<') return "not XML (it does not start with '<')";
    if (text.find("<topology") == std::string::npos) return "XML, but not an hwloc topology (no <topology> element)";
    if (text.find("\"NUMANode\"") == std::string::npos)
        return "an hwloc topology without NUMA nodes (hwloc 1.x XML, or an incomplete export?)";
    if (std::string problem = out_of_range_number(text); !problem.empty()) return problem;
    if (xml_depth(text) > kMaxXmlDepth)
        return "XML nested deeper than " + std::to_string(kMaxXmlDepth) + " elements; a real machine's tree is far shallower";
    return "";
}

// hwloc trusts the XML it imports (it reads its own exports back): a missing or malformed set
// attribute makes it dereference NULL, and fuzzing found dozens of such files. A file is first
// read by hwloc in a child process; one that does not come back whole is refused, and only what
// hwloc survives is loaded here.
bool hwloc_survives(const std::string& text) {
    const pid_t child = ::fork();
    if (child < 0) return true;  // cannot check: load it as before
    if (child == 0) {
        // A crash ends the child and nothing else: no sanitizer or fuzzer report, no core dump.
        for (const int signal : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(signal, SIG_DFL);
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        if (const int null = ::open("/dev/null", O_WRONLY); null >= 0) ::dup2(null, STDERR_FILENO);
        ::alarm(30);  // a file hwloc cannot finish reading is refused too, never a hang
        try {
            (void)load_with("", true, configure_buffer, &text);
        } catch (...) {  // refused by hwloc or by us: not a crash
        }
        ::_exit(0);
    }
    int status = 0;
    while (::waitpid(child, &status, 0) < 0)
        if (errno != EINTR) return true;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// `from_user`: a file, not a shipped sample (which hwloc is known to read).
MachineTopology load_xml_text(const std::string& text, const std::string& source, bool from_user) {
    if (const std::string problem = obvious_problem(text); !problem.empty()) throw TopologyError(source + ": " + problem);
    if (from_user && !hwloc_survives(text))
        throw TopologyError(source + ": hwloc cannot read it: not a well-formed hwloc XML topology (a set attribute "
                                     "missing or malformed?)");
    MachineTopology machine = load_with(source, true, configure_buffer, &text);
    machine.xml = text;
    return machine;
}

std::string read_whole_file(const std::string& path) {
    try {
        return read_input_file(path, kMaxXmlFileBytes);
    } catch (const InputFileError& error) {
        throw TopologyError(printable_path(path) + ": " + error.what());
    }
}

// One node with the CPUs this process may run on: what a machine hwloc cannot read looks like.
MachineTopology fallback_topology(const std::string& why) {
    MachineTopology machine;
    machine.source = std::string(kThisMachine) + " (" + why + "; assuming one NUMA node)";
    TopologyNode node;
    TopologyPackage package;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set)) node.cpus.push_back(cpu);
    }
    for (const int cpu : node.cpus) package.cores.push_back({cpu, {cpu}});
    package.nodes = {0};
    machine.nodes.push_back(std::move(node));
    machine.packages.push_back(std::move(package));
    machine.index_cpus();
    return machine;
}

}  // namespace

MachineTopology load_this_machine_topology() { return load_with(kThisMachine, false, nullptr, nullptr); }

MachineTopology load_topology_xml(const std::string& path) {
    return load_xml_text(read_whole_file(path), printable_path(path), true);
}

MachineTopology load_topology_xml_text(const std::string& text, const std::string& source) {
    if (text.size() > kMaxXmlFileBytes)
        throw TopologyError(source + ": it holds more than " + std::to_string(kMaxXmlFileBytes >> 20) + " MiB of XML");
    return load_xml_text(text, source, true);
}

std::vector<std::string> shipped_topology_names() {
    std::vector<std::string> names;
    for (const EmbeddedFile& file : embedded_topologies()) names.push_back(file.name);
    std::sort(names.begin(), names.end());
    return names;
}

std::string shipped_topology_list() {
    std::string list;
    for (const std::string& name : shipped_topology_names()) list += (list.empty() ? "" : ", ") + name;
    return list;
}

MachineTopology load_topology(const std::string& name_or_path) {
    for (const EmbeddedFile& file : embedded_topologies())
        if (file.name == name_or_path) return load_xml_text(file.contents, file.name + " (shipped sample)", false);
    std::error_code error;
    if (!std::filesystem::exists(name_or_path, error)) {
        throw TopologyError(printable_path(name_or_path) + ": no such file, and not a shipped topology (" +
                            shipped_topology_list() + ")");
    }
    return load_topology_xml(name_or_path);
}

std::shared_ptr<const MachineTopology> this_machine_topology() {
    static const std::shared_ptr<const MachineTopology> machine = [] {
        try {
            return std::make_shared<const MachineTopology>(load_this_machine_topology());
        } catch (const TopologyError& error) {
            return std::make_shared<const MachineTopology>(fallback_topology(error.what()));
        }
    }();
    return machine;
}

}  // namespace pinscope
