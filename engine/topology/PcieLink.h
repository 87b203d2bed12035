// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A PCIe device's link as Linux reports it in sysfs: its generation, width and what that gives in
// theory, for the bandwidth table's header and the profile's link.
#include <optional>
#include <string>

namespace pinscope {

struct PcieLink {
    std::string name;      // "PCIe Gen5 x16": the link as trained now (current_link_*)
    double gb_per_s = 0;   // theoretical payload rate per direction, GB/s (1e9 bytes)
    bool found = false;    // false: no such device, or sysfs does not say (then name and rate are empty)
    // The best the link can train to: the lower of the device's and its upstream port's
    // max_link_*; empty and 0 when sysfs does not say. A GPU idling at Gen1 shows Gen1 above and,
    // say, Gen5 here.
    std::string max_name;
    double max_gb_per_s = 0;
};

// Theoretical GB/s per direction of `lanes` lanes at `gt_per_s` transfers per second per lane
// (2.5, 5, 8, 16, 32 or 64); 0 for another rate.
double pcie_gb_per_s(double gt_per_s, int lanes);
// 1 for 2.5 GT/s ... 6 for 64 GT/s; 0 for another rate.
int pcie_generation(double gt_per_s);

// Reads <sysfs_root>/bus/pci/devices/<id>/current_link_speed ("32.0 GT/s PCIe") and
// current_link_width ("16"), and max_link_* there and in the folder above (the upstream port, as
// the devices/<id> link resolves). A GPU trains its link down while idle, so read it right after
// copies when the current figure matters.
PcieLink read_pcie_link(const std::string& bus_id, const std::string& sysfs_root = "/sys");

}  // namespace pinscope
