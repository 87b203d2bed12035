// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <string>

namespace pinscope {

// The hwloc release this program was built with ("2.9.0"), and the library's API version at run
// time when it differs from the one built against.
std::string hwloc_version();

}  // namespace pinscope
