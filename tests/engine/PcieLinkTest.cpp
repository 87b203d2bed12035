// SPDX-License-Identifier: GPL-3.0-or-later
// PcieLink: link rates by generation, and the link read from a fake sysfs tree by a bus id in CUDA's spelling.
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "engine/topology/PcieLink.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

TEST(PcieLink, RatesByGeneration) {
    EXPECT_EQ(pcie_generation(2.5), 1);
    EXPECT_EQ(pcie_generation(5), 2);
    EXPECT_EQ(pcie_generation(8), 3);
    EXPECT_EQ(pcie_generation(16), 4);
    EXPECT_EQ(pcie_generation(32), 5);
    EXPECT_EQ(pcie_generation(64), 6);
    EXPECT_EQ(pcie_generation(10), 0);
    EXPECT_NEAR(pcie_gb_per_s(2.5, 16), 4.0, 1e-9);    // 8b/10b
    EXPECT_NEAR(pcie_gb_per_s(5, 16), 8.0, 1e-9);
    EXPECT_NEAR(pcie_gb_per_s(8, 16), 15.754, 1e-3);   // 128b/130b
    EXPECT_NEAR(pcie_gb_per_s(16, 16), 31.508, 1e-3);
    EXPECT_NEAR(pcie_gb_per_s(32, 16), 63.015, 1e-3);
    EXPECT_NEAR(pcie_gb_per_s(32, 8), 31.508, 1e-3);
    EXPECT_NEAR(pcie_gb_per_s(64, 16), 121.0, 1e-9);   // 242 of every 256 FLIT bytes
    EXPECT_EQ(pcie_gb_per_s(10, 16), 0);
    EXPECT_EQ(pcie_gb_per_s(32, 0), 0);
}

class FakeSysfs : public ::testing::Test {
protected:
    void device(const std::string& id, const std::string& speed, const std::string& width) const {
        const auto folder = root_ / "bus/pci/devices" / id;
        std::filesystem::create_directories(folder);
        if (!speed.empty()) std::ofstream(folder / "current_link_speed") << speed << '\n';
        if (!width.empty()) std::ofstream(folder / "current_link_width") << width << '\n';
    }

    // The real layout: bus/pci/devices/<id> links to the device's folder under its upstream port.
    std::filesystem::path device_under_port(const std::string& id) const {
        const auto port = root_ / "devices/pci0000:00/0000:00:01.0";
        std::filesystem::create_directories(port / id);
        std::filesystem::create_directories(root_ / "bus/pci/devices");
        std::filesystem::create_directory_symlink(port / id, root_ / "bus/pci/devices" / id);
        return port;
    }

    static void write(const std::filesystem::path& folder, const std::string& file, const std::string& text) {
        std::ofstream(folder / file) << text << '\n';
    }

    test::TempDir scratch_;
    const std::filesystem::path root_ = scratch_.path();
};

TEST_F(FakeSysfs, ReadsTheLinkOfACudaBusId) {
    device("0000:19:00.0", "32.0 GT/s PCIe", "16");
    const PcieLink link = read_pcie_link("00000000:19:00.0", root_);
    EXPECT_TRUE(link.found);
    EXPECT_EQ(link.name, "PCIe Gen5 x16");
    EXPECT_NEAR(link.gb_per_s, 63.0, 0.05);
}

TEST_F(FakeSysfs, OlderKernelsAndOtherWidths) {
    device("0000:3b:00.0", "8 GT/s", "8");  // kernels before 4.17 write no "PCIe"
    device("0000:5e:00.0", "2.5 GT/s PCIe", "1");
    const PcieLink gen3 = read_pcie_link("0000:3B:00.0", root_);
    EXPECT_EQ(gen3.name, "PCIe Gen3 x8");
    EXPECT_NEAR(gen3.gb_per_s, 7.877, 1e-3);
    const PcieLink gen1 = read_pcie_link("0000:5e:00.0", root_);
    EXPECT_EQ(gen1.name, "PCIe Gen1 x1");
    EXPECT_NEAR(gen1.gb_per_s, 0.25, 1e-9);
}

TEST_F(FakeSysfs, IdleGpuAndTheBestItsPortAllows) {
    const auto port = device_under_port("0000:19:00.0");
    const auto gpu = port / "0000:19:00.0";
    write(gpu, "current_link_speed", "2.5 GT/s PCIe");  // trained down while idle
    write(gpu, "current_link_width", "16");
    write(gpu, "max_link_speed", "32.0 GT/s PCIe");
    write(gpu, "max_link_width", "16");
    write(port, "max_link_speed", "16.0 GT/s PCIe");  // a Gen4 slot
    write(port, "max_link_width", "16");
    const PcieLink link = read_pcie_link("00000000:19:00.0", root_);
    EXPECT_TRUE(link.found);
    EXPECT_EQ(link.name, "PCIe Gen1 x16");
    EXPECT_NEAR(link.gb_per_s, 4.0, 1e-9);
    EXPECT_EQ(link.max_name, "PCIe Gen4 x16");
    EXPECT_NEAR(link.max_gb_per_s, 31.508, 1e-3);

    write(port, "max_link_width", "8");
    EXPECT_EQ(read_pcie_link("0000:19:00.0", root_).max_name, "PCIe Gen4 x8");
    std::filesystem::remove(port / "max_link_speed");  // the port does not say: the device's own
    EXPECT_EQ(read_pcie_link("0000:19:00.0", root_).max_name, "PCIe Gen5 x16");
    std::filesystem::remove(gpu / "max_link_speed");
    EXPECT_EQ(read_pcie_link("0000:19:00.0", root_).max_name, "");
    EXPECT_EQ(read_pcie_link("0000:19:00.0", root_).max_gb_per_s, 0);
}

TEST_F(FakeSysfs, NotFound) {
    device("0000:19:00.0", "Unknown", "16");   // speed the kernel cannot name
    device("0000:1a:00.0", "32.0 GT/s PCIe", "");  // no width file
    device("0000:1b:00.0", "20.0 GT/s PCIe", "16");  // not a PCIe rate
    device("0000:1c:00.0", "16.0 GT/s PCIe", "0");
    for (const char* id : {"0000:19:00.0", "0000:1a:00.0", "0000:1b:00.0", "0000:1c:00.0", "0000:99:00.0", "junk"}) {
        const PcieLink link = read_pcie_link(id, root_);
        EXPECT_FALSE(link.found) << id;
        EXPECT_EQ(link.name, "") << id;
        EXPECT_EQ(link.gb_per_s, 0) << id;
        EXPECT_EQ(link.max_name, "") << id;
    }
}

}  // namespace
}  // namespace pinscope
