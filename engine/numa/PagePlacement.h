// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Putting the pages of a range on chosen NUMA nodes before they are faulted in or locked: the
// kernel's mbind, called directly (no libnuma).
#include <cstddef>

#include "engine/device/Device.h"

namespace pinscope {

// Binds [ptr, ptr + bytes) (page-aligned) to the placement's nodes: MPOL_BIND to one node, or
// MPOL_INTERLEAVE over several. With `move_existing`, pages already present migrate there too.
// First touch does nothing. Throws DeviceError naming the call, the nodes and the OS error.
void place_pages(void* ptr, std::size_t bytes, const PinnedPlacement& placement, bool move_existing);

// One write per page, so that every page is faulted in (under the range's policy) by this thread.
void touch_pages(void* ptr, std::size_t bytes);

}  // namespace pinscope
