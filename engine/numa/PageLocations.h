// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where pages really are: the kernel's move_pages asked for a sample of a range's pages (nothing
// is moved), so that the footprint by node is read back, never assumed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pinscope {

struct NodePages {
    int node = -1;
    std::uint32_t pages = 0;
};

struct PageSample {
    std::vector<NodePages> nodes;  // ascending node
    std::uint32_t unknown = 0;     // not present (never touched) or not readable: not counted on any node
    std::uint32_t sampled = 0;
    std::string error;             // why nothing could be read, when the call failed

    std::uint32_t pages_on(int node) const;
    // Of the sampled pages, the share known to be on another node than `node`.
    double share_off(int node) const;
};

// Up to `max_pages` pages spread evenly over [ptr, ptr + bytes), the first and last included.
PageSample sample_page_nodes(const void* ptr, std::size_t bytes, std::size_t max_pages = 64);

}  // namespace pinscope
