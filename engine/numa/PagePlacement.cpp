// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/PagePlacement.h"

#include <linux/mempolicy.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "engine/config/LoaderConfig.h"
#include "engine/topology/CpuList.h"

namespace pinscope {

void place_pages(void* ptr, std::size_t bytes, const PinnedPlacement& placement, bool move_existing) {
    if (placement.policy == MemoryPlacement::FirstTouch || bytes == 0) return;
    if (placement.nodes.empty())
        throw DeviceError("placing pinned memory " + to_string(placement.policy) + ": no NUMA node to place it on");
    constexpr std::size_t kBits = sizeof(unsigned long) * CHAR_BIT;
    int highest = 0;
    for (const int node : placement.nodes) highest = std::max(highest, node);
    std::vector<unsigned long> mask(static_cast<std::size_t>(highest) / kBits + 1, 0);
    for (const int node : placement.nodes)
        mask[static_cast<std::size_t>(node) / kBits] |= 1UL << (static_cast<std::size_t>(node) % kBits);
    const int mode = placement.policy == MemoryPlacement::Interleave ? MPOL_INTERLEAVE : MPOL_BIND;
    const unsigned flags = move_existing ? MPOL_MF_MOVE : 0;
    // maxnode counts one bit more than the mask holds: the kernel has always read one bit short.
    const unsigned long max_node = mask.size() * kBits + 1;
    if (syscall(SYS_mbind, ptr, bytes, mode, mask.data(), max_node, flags) != 0) {
        const int error = errno;
        throw DeviceError("mbind (" + to_string(placement.policy) + " on NUMA node" +
                          (placement.nodes.size() > 1 ? "s " : " ") + cpu_list_to_string(placement.nodes) + ") of " +
                          std::to_string(bytes) + " bytes failed: " + std::strerror(error));
    }
}

void touch_pages(void* ptr, std::size_t bytes) {
    const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    auto* bytes_ptr = static_cast<volatile unsigned char*>(ptr);
    for (std::size_t offset = 0; offset < bytes; offset += page) bytes_ptr[offset] = 0;
}

}  // namespace pinscope
