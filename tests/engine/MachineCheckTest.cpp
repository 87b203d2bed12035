// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli doctor's checks on fake /proc and /sys trees: each verdict from what the files say.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/doctor/MachineCheck.h"
#include "engine/text/Units.h"
#include "tests/support/TempDir.h"

namespace pinscope {
namespace {

class FakeMachine {
public:
    void write(const std::string& absolute, const std::string& text) {
        const std::filesystem::path path = dir_.path() / absolute.substr(1);
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path) << text << '\n';
    }
    std::string root() const { return dir_.path().string(); }

private:
    test::TempDir dir_;
};

const CheckLine& line(const std::vector<CheckLine>& lines, const std::string& name) {
    for (const CheckLine& l : lines)
        if (l.name == name) return l;
    throw std::runtime_error("no line " + name);
}

LoaderConfig default_config() {
    LoaderConfig config;
    config.pinned_budget_bytes = 2 * kGiB;
    return config;  // worst case 11 blocks of 64 MiB: 704 MiB
}

void make_healthy(FakeMachine& m) {
    m.write("/proc/self/limits", "Limit  Soft Limit  Hard Limit  Units\nMax locked memory         unlimited            unlimited            bytes");
    m.write("/proc/meminfo", "MemTotal:       65536000 kB\nMemAvailable:   60000000 kB\nSwapTotal:  0 kB\nSwapFree: 0 kB");
    m.write("/proc/self/cgroup", "0::/user.slice");
    m.write("/sys/fs/cgroup/user.slice/memory.max", "max");
    m.write("/proc/1/cgroup", "0::/init.scope");
    m.write("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/vendor", "0x10de");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/class", "0x030200");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/current_link_speed", "32.0 GT/s PCIe");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/current_link_width", "16");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/max_link_speed", "32.0 GT/s PCIe");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/max_link_width", "16");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/numa_node", "0");
    m.write("/sys/devices/system/node/node0/cpulist", "0-15");
    m.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance");
}

CudaDeviceList one_gpu() { return {{DeviceInfo{DeviceKind::Cuda, "NVIDIA H200", "", "", "0000:c1:00.0"}}, ""}; }

TEST(MachineCheck, HealthyMachineIsOkThroughout) {
    FakeMachine m;
    make_healthy(m);
    for (const CheckLine& l : check_machine(default_config(), m.root(), one_gpu()))
        EXPECT_EQ(l.verdict, Verdict::Ok) << l.name << ": " << l.text;
}

TEST(MachineCheck, SmallMemlockWarnsWithTheFootprint) {
    FakeMachine m;
    make_healthy(m);
    m.write("/proc/self/limits", "Max locked memory         8388608              8388608              bytes");
    const CheckLine l = line(check_machine(default_config(), m.root(), one_gpu()), "memlock");
    EXPECT_EQ(l.verdict, Verdict::Warn);
    EXPECT_NE(l.text.find("would lock up to 704 MiB of the 8 MiB memlock allows"), std::string::npos) << l.text;
}

TEST(MachineCheck, SmallMemlockIsNoWarningWithCapIpcLock) {
    FakeMachine m;
    make_healthy(m);
    m.write("/proc/self/limits", "Max locked memory         8388608              8388608              bytes");
    // A container without CAP_IPC_LOCK has 00000000a80425fb; root, as here, every bit.
    m.write("/proc/self/status", "Name:\tpinscope-cli\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\n");
    const CheckLine with_cap = line(check_machine(default_config(), m.root(), one_gpu()), "memlock");
    EXPECT_EQ(with_cap.verdict, Verdict::Ok) << with_cap.text;
    EXPECT_NE(with_cap.text.find("CAP_IPC_LOCK"), std::string::npos) << with_cap.text;
    m.write("/proc/self/status", "Name:\tpinscope-cli\nCapEff:\t0000000000000000\n");  // an ordinary user
    EXPECT_EQ(line(check_machine(default_config(), m.root(), one_gpu()), "memlock").verdict, Verdict::Warn);
}

TEST(MachineCheck, CgroupLimitsV2AndV1) {
    FakeMachine m;
    make_healthy(m);
    m.write("/sys/fs/cgroup/user.slice/memory.max", "536870912");  // 512 MiB: under twice the footprint
    EXPECT_EQ(line(check_machine(default_config(), m.root(), one_gpu()), "cgroup memory").verdict, Verdict::Warn);
    m.write("/proc/self/cgroup", "4:memory:/docker/abc\n1:name=systemd:/");
    m.write("/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "17179869184");  // 16 GiB
    const CheckLine v1 = line(check_machine(default_config(), m.root(), one_gpu()), "cgroup memory");
    EXPECT_EQ(v1.verdict, Verdict::Note) << v1.text;
    EXPECT_NE(v1.text.find("v1 memory limit 16 GiB"), std::string::npos) << v1.text;
}

TEST(MachineCheck, SwapInUseIsNotedAndHeavySwapWarned) {
    FakeMachine m;
    make_healthy(m);
    m.write("/proc/meminfo", "MemTotal: 65536000 kB\nMemAvailable: 60000000 kB\nSwapTotal: 1000000 kB\nSwapFree: 900000 kB");
    EXPECT_EQ(line(check_machine(default_config(), m.root(), one_gpu()), "swap").verdict, Verdict::Note);
    m.write("/proc/meminfo", "MemTotal: 65536000 kB\nMemAvailable: 60000000 kB\nSwapTotal: 1000000 kB\nSwapFree: 100000 kB");
    EXPECT_EQ(line(check_machine(default_config(), m.root(), one_gpu()), "swap").verdict, Verdict::Warn);
}

TEST(MachineCheck, FootprintOverAvailableMemoryOrBudgetWarns) {
    FakeMachine m;
    make_healthy(m);
    m.write("/proc/meminfo", "MemTotal: 1048576 kB\nMemAvailable: 262144 kB");  // 256 MiB available
    const auto lines = check_machine(default_config(), m.root(), one_gpu());
    EXPECT_EQ(line(lines, "memory").verdict, Verdict::Warn);
    LoaderConfig small_budget = default_config();
    small_budget.pinned_budget_bytes = 256 * kMiB;
    EXPECT_EQ(line(check_machine(small_budget, m.root(), one_gpu()), "pinned budget").verdict, Verdict::Warn);
}

TEST(MachineCheck, ContainerHugePagesAndGovernorAreNoted) {
    FakeMachine m;
    make_healthy(m);
    m.write("/.dockerenv", "");
    m.write("/sys/kernel/mm/transparent_hugepage/enabled", "always madvise [never]");
    m.write("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave");
    const auto lines = check_machine(default_config(), m.root(), one_gpu());
    EXPECT_EQ(line(lines, "container").verdict, Verdict::Note);
    EXPECT_EQ(line(lines, "huge pages").verdict, Verdict::Note);
    EXPECT_EQ(line(lines, "cpu governor").verdict, Verdict::Note);
}

TEST(MachineCheck, LinkTrainedToFewerLanesWarnsAndALowerGenerationIsNoted) {
    FakeMachine m;
    make_healthy(m);
    m.write("/sys/bus/pci/devices/0000:c1:00.0/current_link_width", "8");
    const CheckLine narrow = line(check_machine(default_config(), m.root(), one_gpu()), "pcie link 0000:c1:00.0");
    EXPECT_EQ(narrow.verdict, Verdict::Warn) << narrow.text;
    EXPECT_NE(narrow.text.find("PCIe Gen5 x8 of PCIe Gen5 x16"), std::string::npos) << narrow.text;
    m.write("/sys/bus/pci/devices/0000:c1:00.0/current_link_width", "16");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/current_link_speed", "2.5 GT/s PCIe");
    EXPECT_EQ(line(check_machine(default_config(), m.root(), one_gpu()), "pcie link 0000:c1:00.0").verdict,
              Verdict::Note);
}

TEST(MachineCheck, NoDriverAndTwoNodesAreNoted) {
    FakeMachine m;
    make_healthy(m);
    m.write("/sys/devices/system/node/node1/cpulist", "16-31");
    m.write("/sys/bus/pci/devices/0000:c1:00.0/numa_node", "1");
    const auto lines = check_machine(default_config(), m.root(), CudaDeviceList{{}, "no NVIDIA driver"});
    EXPECT_EQ(line(lines, "driver").verdict, Verdict::Note);
    const CheckLine numa = line(lines, "numa");
    EXPECT_EQ(numa.verdict, Verdict::Note);
    EXPECT_NE(numa.text.find("on node 1 (CPUs 16-31)"), std::string::npos) << numa.text;
}

}  // namespace
}  // namespace pinscope
