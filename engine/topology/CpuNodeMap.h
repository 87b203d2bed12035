#pragma once
// Which NUMA node each CPU of this machine belongs to, read once from hwloc, so that every span
// can say where its thread ran.
#include <cstdint>
#include <vector>

namespace pinscope {

class CpuNodeMap {
public:
    static const CpuNodeMap& host();  // this machine, loaded on first use
    int node_of(int cpu) const;       // -1 when unknown
    int numa_nodes() const { return numa_nodes_; }
    int cores() const { return cores_; }
    int cpus() const { return static_cast<int>(node_of_cpu_.size()); }

private:
    CpuNodeMap();
    std::vector<std::int16_t> node_of_cpu_;
    int numa_nodes_ = 1;
    int cores_ = 1;
};

}  // namespace pinscope
