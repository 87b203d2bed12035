// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numa/PageLocations.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace pinscope {

std::uint32_t PageSample::pages_on(int node) const {
    const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const NodePages& n) { return n.node == node; });
    return it == nodes.end() ? 0 : it->pages;
}

double PageSample::share_off(int node) const {
    if (sampled == 0) return 0;
    std::uint32_t off = 0;
    for (const NodePages& n : nodes)
        if (n.node != node) off += n.pages;
    return static_cast<double>(off) / static_cast<double>(sampled);
}

PageSample sample_page_nodes(const void* ptr, std::size_t bytes, std::size_t max_pages) {
    PageSample sample;
    if (ptr == nullptr || bytes == 0 || max_pages == 0) return sample;
    const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto first = reinterpret_cast<std::uintptr_t>(ptr) / page * page;
    const std::size_t total = (reinterpret_cast<std::uintptr_t>(ptr) + bytes - first + page - 1) / page;
    const std::size_t count = std::min(total, max_pages);
    std::vector<void*> pages(count);
    std::vector<int> status(count, -1);
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t index = count == 1 ? 0 : i * (total - 1) / (count - 1);
        pages[i] = reinterpret_cast<void*>(first + index * page);
    }
    sample.sampled = static_cast<std::uint32_t>(count);
    // pid 0 is this process; without target nodes move_pages only reports where each page is.
    if (syscall(SYS_move_pages, 0, count, pages.data(), nullptr, status.data(), 0) != 0) {
        sample.error = std::string("move_pages: ") + std::strerror(errno);
        sample.unknown = sample.sampled;
        return sample;
    }
    for (const int node : status) {
        if (node < 0) {  // -ENOENT: not present yet; -EFAULT and others: not a readable page
            ++sample.unknown;
            continue;
        }
        auto it = std::lower_bound(sample.nodes.begin(), sample.nodes.end(), node,
                                   [](const NodePages& n, int value) { return n.node < value; });
        if (it == sample.nodes.end() || it->node != node) it = sample.nodes.insert(it, NodePages{node, 0});
        ++it->pages;
    }
    return sample;
}

}  // namespace pinscope
