// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/doctor/MachineCheck.h"

#include <set>
#include <sstream>

#include "engine/config/PinnedBudget.h"
#include "engine/files/MachineFiles.h"
#include "engine/topology/PcieLink.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr std::uint64_t kNoLimit = std::uint64_t{1} << 60;  // cgroup v1 writes "no limit" as a huge number

std::string size(std::uint64_t bytes) { return memory_text(static_cast<double>(bytes)); }

// The configuration's worst-case pinned footprint, in words.
std::string would_lock(std::uint64_t bound, std::uint64_t limit, const std::string& what) {
    return "this configuration would lock up to " + size(bound) + " of the " + size(limit) + " " + what;
}

std::optional<std::uint64_t> number(const std::string& text) {
    try {
        std::size_t used = 0;
        const unsigned long long value = std::stoull(text, &used);
        return used > 0 ? std::optional<std::uint64_t>(value) : std::nullopt;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// Whether /proc/self/status gives this process CAP_IPC_LOCK (bit 14 of CapEff), which lifts the
// memlock limit (root has it, and containers often grant it).
bool can_lock_beyond_limit(const MachineFiles& files) {
    std::istringstream status(files.read("/proc/self/status").value_or(""));
    std::string line;
    while (std::getline(status, line)) {
        if (!line.starts_with("CapEff:")) continue;
        std::uint64_t effective = 0;
        std::istringstream(line.substr(7)) >> std::hex >> effective;
        constexpr unsigned kCapIpcLock = 14;
        return ((effective >> kCapIpcLock) & 1u) != 0;
    }
    return false;
}

CheckLine memlock(const MachineFiles& files, std::uint64_t bound) {
    std::istringstream limits(files.read("/proc/self/limits").value_or(""));
    std::string line;
    while (std::getline(limits, line)) {
        if (!line.starts_with("Max locked memory")) continue;
        std::istringstream parts(line.substr(17));
        std::string soft;
        parts >> soft;
        if (soft == "unlimited") return {"memlock", Verdict::Ok, "RLIMIT_MEMLOCK unlimited: locking is not limited"};
        const auto limit = number(soft);
        if (!limit) break;
        if (bound > *limit && can_lock_beyond_limit(files))
            return {"memlock", Verdict::Ok,
                    "RLIMIT_MEMLOCK " + size(*limit) + ", but this process has CAP_IPC_LOCK: it may lock beyond it"};
        if (bound > *limit)
            return {"memlock", Verdict::Warn,
                    "RLIMIT_MEMLOCK " + size(*limit) + ": " + would_lock(bound, *limit, "memlock allows") +
                        "; without CAP_IPC_LOCK the rest stays pageable (ulimit -l, or memlock in limits.conf)"};
        return {"memlock", Verdict::Ok, "RLIMIT_MEMLOCK " + size(*limit) + ": " + would_lock(bound, *limit, "allowed")};
    }
    return {"memlock", Verdict::Note, "RLIMIT_MEMLOCK not readable from /proc/self/limits"};
}

CheckLine cgroup(const MachineFiles& files, std::uint64_t bound) {
    std::istringstream groups(files.read("/proc/self/cgroup").value_or(""));
    std::string line;
    std::uint64_t limit = 0;  // 0: none found
    std::string version;
    while (std::getline(groups, line) && limit == 0) {
        std::optional<std::string> max;
        if (line.starts_with("0::")) {  // v2: one unified hierarchy
            max = files.read("/sys/fs/cgroup" + line.substr(3) + "/memory.max");
            version = "v2";
        } else if (const auto at = line.find(":memory:"); at != std::string::npos) {
            max = files.read("/sys/fs/cgroup/memory" + line.substr(at + 8) + "/memory.limit_in_bytes");
            version = "v1";
        }
        const std::uint64_t value = max && *max != "max" ? number(*max).value_or(0) : 0;
        if (value < kNoLimit) limit = value;
    }
    if (limit == 0) return {"cgroup memory", Verdict::Ok, "no cgroup memory limit" + (version.empty() ? "" : " (" + version + ")")};
    const std::string found = "cgroup " + version + " memory limit " + size(limit);
    if (bound > limit / 2)
        return {"cgroup memory", Verdict::Warn,
                found + ": " + would_lock(bound, limit, "limit") + "; locked pages count against it and cannot be reclaimed"};
    return {"cgroup memory", Verdict::Note, found + ": locked pages count against it; " + would_lock(bound, limit, "limit")};
}

CheckLine swap(const std::map<std::string, std::uint64_t>& mem) {
    const std::uint64_t total = mem.contains("SwapTotal") ? mem.at("SwapTotal") : 0;
    const std::uint64_t free = mem.contains("SwapFree") ? mem.at("SwapFree") : 0;
    const std::uint64_t used = total > free ? total - free : 0;
    if (used == 0) return {"swap", Verdict::Ok, "no swap in use" + std::string(total == 0 ? " (none configured)" : "")};
    const std::string found = size(used) + " of " + size(total) + " swap in use";
    if (used * 4 > total)
        return {"swap", Verdict::Warn, found + ": memory is short; locked pages cannot be swapped, so pinning pushes "
                                               "the rest out further"};
    return {"swap", Verdict::Note, found + ": locked pages cannot be swapped out"};
}

CheckLine memory(const std::map<std::string, std::uint64_t>& mem, std::uint64_t bound) {
    if (!mem.contains("MemTotal")) return {"memory", Verdict::Note, "/proc/meminfo not readable"};
    const std::uint64_t total = mem.at("MemTotal");
    const std::uint64_t available = mem.contains("MemAvailable") ? mem.at("MemAvailable") : total;
    const std::string found = size(total) + " total, " + size(available) + " available";
    if (bound > available)
        return {"memory", Verdict::Warn, found + ": " + would_lock(bound, available, "available")};
    if (bound > available / 2)
        return {"memory", Verdict::Note, found + ": " + would_lock(bound, available, "available")};
    return {"memory", Verdict::Ok, found + ": " + would_lock(bound, available, "available")};
}

CheckLine budget(const LoaderConfig& config, const std::map<std::string, std::uint64_t>& mem, std::uint64_t bound) {
    const std::uint64_t total = mem.contains("MemTotal") ? mem.at("MemTotal") : physical_memory_bytes();
    const std::uint64_t value = config.pinned_budget_bytes.value_or(total / 4);
    const std::string found = "pinned_budget_bytes " + size(value) + (config.pinned_budget_bytes ? "" : " (a quarter of memory)");
    if (!config.pin_memory) return {"pinned budget", Verdict::Ok, found + ": pin_memory off locks nothing"};
    if (bound > value)
        return {"pinned budget", Verdict::Warn, found + ": " + would_lock(bound, value, "budget") + "; run refuses it"};
    return {"pinned budget", Verdict::Ok, found + ": " + would_lock(bound, value, "budget")};
}

CheckLine container(const MachineFiles& files) {
    std::string why;
    if (files.exists("/.dockerenv")) why = "/.dockerenv";
    else if (files.exists("/run/.containerenv")) why = "/run/.containerenv";
    else {
        const std::string groups = files.read("/proc/1/cgroup").value_or("");
        for (const char* mark : {"docker", "kubepods", "containerd", "lxc", "libpod"})
            if (groups.find(mark) != std::string::npos) why = std::string("/proc/1/cgroup names ") + mark;
    }
    if (why.empty()) return {"container", Verdict::Ok, "not in a container"};
    return {"container", Verdict::Note, "in a container (" + why + "): its memlock and memory limits are the ones that count"};
}

CheckLine huge_pages(const MachineFiles& files) {
    const auto enabled = files.read("/sys/kernel/mm/transparent_hugepage/enabled");
    if (!enabled) return {"huge pages", Verdict::Note, "transparent huge pages not reported"};
    const auto open = enabled->find('['), close = enabled->find(']');
    const std::string mode = open != std::string::npos && close > open ? enabled->substr(open + 1, close - open - 1) : *enabled;
    if (mode == "never")
        return {"huge pages", Verdict::Note, "transparent huge pages never: batches fault in and lock 4 KiB page by page"};
    return {"huge pages", Verdict::Ok, "transparent huge pages " + mode};
}

struct Link {
    int generation = 0;
    int width = 0;
};
Link parse_link(const std::string& name) {  // "PCIe Gen5 x16"
    Link link;
    if (const auto g = name.find("Gen"); g != std::string::npos) link.generation = std::atoi(name.c_str() + g + 3);
    if (const auto x = name.find(" x"); x != std::string::npos) link.width = std::atoi(name.c_str() + x + 2);
    return link;
}

// NVIDIA display and 3D controllers on the PCI bus.
std::vector<std::string> nvidia_gpus(const MachineFiles& files) {
    std::vector<std::string> gpus;
    for (const std::string& id : files.list("/sys/bus/pci/devices")) {
        const std::string dir = "/sys/bus/pci/devices/" + id;
        const std::string vendor = files.read(dir + "/vendor").value_or("");
        const std::string cls = files.read(dir + "/class").value_or("");
        if (vendor == "0x10de" && (cls.starts_with("0x0300") || cls.starts_with("0x0302"))) gpus.push_back(id);
    }
    return gpus;
}

void pcie_links(const MachineFiles& files, const std::vector<std::string>& gpus, std::vector<CheckLine>& out) {
    if (gpus.empty()) {
        out.push_back({"pcie link", Verdict::Note, "no NVIDIA GPU on the PCI bus"});
        return;
    }
    for (const std::string& id : gpus) {
        const PcieLink link = read_pcie_link(id, files.path("/sys"));
        const std::string name = "pcie link " + id;
        if (!link.found) {
            out.push_back({name, Verdict::Note, "sysfs does not say how the link trained"});
            continue;
        }
        const Link now = parse_link(link.name), best = parse_link(link.max_name);
        const std::string found = link.name + (link.max_name.empty() ? "" : " of " + link.max_name) + ", " +
                                  rate_text(link.gb_per_s * 1e9, 1) + " per direction";
        if (best.width > 0 && now.width < best.width)
            out.push_back({name, Verdict::Warn, found + ": trained down to fewer lanes; copies get at most this (reseat the card, check the slot)"});
        else if (best.generation > 0 && now.generation < best.generation)
            out.push_back({name, Verdict::Note, found + ": below its best generation; an idle GPU trains down to save power, so check again while copying"});
        else
            out.push_back({name, Verdict::Ok, found});
    }
}

CheckLine driver(const MachineFiles& files, const CudaDeviceList& cuda) {
    const std::string version = files.read("/proc/driver/nvidia/version").value_or("");
    const std::string first = version.substr(0, version.find('\n'));
    if (cuda.devices.empty())
        return {"driver", Verdict::Note, (first.empty() ? std::string() : first + "; ") + "no CUDA device: " + cuda.why_none +
                                             "; runs use the emulated device"};
    std::string names;
    for (const DeviceInfo& device : cuda.devices) names += (names.empty() ? "" : ", ") + device.name;
    return {"driver", Verdict::Ok, std::to_string(cuda.devices.size()) + " CUDA device(s): " + names};
}

CheckLine numa(const MachineFiles& files, const std::vector<std::string>& gpus) {
    std::vector<std::string> nodes;
    for (const std::string& name : files.list("/sys/devices/system/node", "node"))
        if (name.size() > 4 && std::isdigit(static_cast<unsigned char>(name[4]))) nodes.push_back(name);
    if (nodes.size() <= 1) return {"numa", Verdict::Ok, "one NUMA node: where pages and threads go does not matter"};
    std::string found = std::to_string(nodes.size()) + " NUMA nodes";
    if (gpus.empty()) return {"numa", Verdict::Ok, found + "; no GPU to be near"};
    const auto node = number(files.read("/sys/bus/pci/devices/" + gpus.front() + "/numa_node").value_or("-1"));
    if (!node) return {"numa", Verdict::Note, found + "; the firmware does not say which node GPU " + gpus.front() +
                                                  " hangs off: placement cannot be chosen"};
    const std::string cpus = files.read("/sys/devices/system/node/node" + std::to_string(*node) + "/cpulist").value_or("?");
    return {"numa", Verdict::Note, found + "; GPU " + gpus.front() + " on node " + std::to_string(*node) + " (CPUs " + cpus +
                                       "): pin near it with --bind local --membind local"};
}

CheckLine governor(const MachineFiles& files) {
    std::set<std::string> governors;
    for (const std::string& cpu : files.list("/sys/devices/system/cpu", "cpu"))
        if (const auto g = files.read("/sys/devices/system/cpu/" + cpu + "/cpufreq/scaling_governor")) governors.insert(*g);
    if (governors.empty()) return {"cpu governor", Verdict::Note, "not reported (no cpufreq: a VM or a container)"};
    std::string names;
    for (const std::string& g : governors) names += (names.empty() ? "" : ", ") + g;
    if (governors.size() == 1 && *governors.begin() == "performance") return {"cpu governor", Verdict::Ok, names};
    return {"cpu governor", Verdict::Note, names + ": loads and pin copies run slower until the clock ramps up (performance holds it)"};
}

}  // namespace

std::string_view to_string(Verdict verdict) {
    switch (verdict) {
        case Verdict::Ok: return "ok";
        case Verdict::Note: return "note";
        case Verdict::Warn: return "warn";
    }
    return "ok";
}

std::vector<CheckLine> check_machine(const LoaderConfig& config, const std::string& root, const CudaDeviceList& cuda) {
    const MachineFiles files(root);
    const auto mem = files.meminfo();
    const std::uint64_t bound = worst_case_pinned(config).bytes();
    const std::vector<std::string> gpus = nvidia_gpus(files);
    std::vector<CheckLine> lines{memlock(files, bound), cgroup(files, bound), swap(mem), memory(mem, bound),
                                 budget(config, mem, bound), container(files), huge_pages(files)};
    pcie_links(files, gpus, lines);
    lines.push_back(driver(files, cuda));
    lines.push_back(numa(files, gpus));
    lines.push_back(governor(files));
    return lines;
}

std::string check_lines_text(const std::vector<CheckLine>& lines) {
    std::string text;
    for (const CheckLine& line : lines) {
        const std::string verdict(to_string(line.verdict));
        text += verdict + std::string(6 - verdict.size(), ' ') + line.name +
                std::string(line.name.size() < 15 ? 15 - line.name.size() : 1, ' ') + line.text + '\n';
    }
    return text;
}

}  // namespace pinscope
