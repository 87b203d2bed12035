#include "topology/CpuNodeMap.h"

#include <hwloc.h>

#include <algorithm>

namespace pinscope {

const CpuNodeMap& CpuNodeMap::host() {
    static const CpuNodeMap map;
    return map;
}

CpuNodeMap::CpuNodeMap() {
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) return;
    if (hwloc_topology_load(topology) == 0) {
        cores_ = std::max(1, hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_CORE));
        const int nodes = hwloc_get_nbobjs_by_type(topology, HWLOC_OBJ_NUMANODE);
        numa_nodes_ = std::max(1, nodes);
        for (int n = 0; n < nodes; ++n) {
            hwloc_obj_t node = hwloc_get_obj_by_type(topology, HWLOC_OBJ_NUMANODE, static_cast<unsigned>(n));
            for (int cpu = hwloc_bitmap_first(node->cpuset); cpu >= 0; cpu = hwloc_bitmap_next(node->cpuset, cpu)) {
                if (cpu >= cpus()) node_of_cpu_.resize(static_cast<std::size_t>(cpu) + 1, -1);
                node_of_cpu_[static_cast<std::size_t>(cpu)] = static_cast<std::int16_t>(node->os_index);
            }
        }
    }
    hwloc_topology_destroy(topology);
}

int CpuNodeMap::node_of(int cpu) const {
    return cpu >= 0 && cpu < cpus() ? node_of_cpu_[static_cast<std::size_t>(cpu)] : -1;
}

}  // namespace pinscope
