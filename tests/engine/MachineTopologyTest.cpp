// SPDX-License-Identifier: GPL-3.0-or-later
// The machine tree from hwloc: GPU locality from the sample XML topologies, this machine, bus id
// spellings, and bad XML that gets a message instead of a crash.
#include <sched.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "engine/config/LoaderConfig.h"

#include "engine/topology/CpuList.h"
#include "engine/topology/MachineTopology.h"
#include "engine/topology/TopologyTree.h"
#include "tests/engine/ExportTestData.h"

namespace pinscope {
namespace {

const std::string kTopologies = PINSCOPE_TOPOLOGIES_DIR;

// "0-15,32-47" as the CPU list it names (the config's own parser).
std::vector<int> cpus(const std::string& list) { return parse_cpu_list(list).value(); }

// Writes `contents` to a new file in `dir`; returns its path.
std::string scratch_file(const test::TempDir& dir, const std::string& contents) {
    static int next = 0;
    const std::string path = dir.file("topology-" + std::to_string(next++) + ".xml");
    std::ofstream(path, std::ios::binary) << contents;
    return path;
}

TEST(MachineTopology, TwoSocketFixtureHasAGpuOnEachSocket) {
    const MachineTopology t = load_topology_xml(kTopologies + "/2-socket-2-gpu.xml");
    EXPECT_TRUE(t.from_file);
    EXPECT_EQ(t.source, kTopologies + "/2-socket-2-gpu.xml");
    ASSERT_EQ(t.packages.size(), 2u);
    ASSERT_EQ(t.nodes.size(), 2u);
    EXPECT_FALSE(t.single_node());
    EXPECT_EQ(t.packages[0].cores.size(), 16u);
    EXPECT_EQ(t.packages[1].cores.size(), 16u);
    EXPECT_EQ(t.packages[1].nodes, std::vector<int>{1});
    EXPECT_EQ(t.nodes[0].cpus, cpus("0-15,32-47"));
    EXPECT_EQ(t.nodes[1].cpus, cpus("16-31,48-63"));
    EXPECT_EQ(t.nodes[1].memory_bytes, std::uint64_t{256} << 30);
    EXPECT_EQ(t.packages[1].cores[0].cpus, (std::vector<int>{16, 48}));  // SMT siblings

    ASSERT_EQ(t.gpus.size(), 2u);
    const TopologyGpu& first = t.gpus[0];
    EXPECT_EQ(first.pci_bus_id, "0000:41:00.0");
    EXPECT_EQ(first.name, "NVIDIA H200");
    EXPECT_EQ(first.node, 0);
    EXPECT_EQ(first.local_cpus, t.nodes[0].cpus);
    const TopologyGpu& second = t.gpus[1];
    EXPECT_EQ(second.pci_bus_id, "0000:c1:00.0");
    EXPECT_EQ(second.node, 1);  // behind a host bridge and a PCIe bridge under the second package
    EXPECT_EQ(second.local_cpus, t.nodes[1].cpus);
}

TEST(MachineTopology, FourGpuServerHasTwoGpusPerNode) {
    const MachineTopology t = load_topology_xml(kTopologies + "/4-gpu-server.xml");
    ASSERT_EQ(t.gpus.size(), 4u);
    std::vector<int> nodes;
    for (const TopologyGpu& gpu : t.gpus) nodes.push_back(gpu.node);
    EXPECT_EQ(nodes, (std::vector<int>{0, 0, 1, 1}));
    EXPECT_EQ(t.gpus[2].pci_bus_id, "0000:98:00.0");
    EXPECT_EQ(t.gpus[2].name, "NVIDIA H100 PCIe");
    EXPECT_EQ(t.gpus[3].local_cpus, cpus("16-31,48-63"));
}

TEST(MachineTopology, ShippedNamesLoadWithoutTheSourceTree) {
    const auto names = shipped_topology_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "2-socket-2-gpu"), names.end());
    EXPECT_NE(std::find(names.begin(), names.end(), "4-gpu-server"), names.end());
    const MachineTopology shipped = load_topology("2-socket-2-gpu");
    const MachineTopology file = load_topology(kTopologies + "/2-socket-2-gpu.xml");
    EXPECT_TRUE(shipped.from_file);
    EXPECT_EQ(shipped.source, "2-socket-2-gpu (shipped sample)");
    EXPECT_EQ(shipped.nodes.size(), file.nodes.size());
    ASSERT_EQ(shipped.gpus.size(), file.gpus.size());
    EXPECT_EQ(shipped.gpus[1].pci_bus_id, file.gpus[1].pci_bus_id);
}

TEST(MachineTopology, FindsGpusAndCpusInAnySpelling) {
    const MachineTopology t = load_topology("2-socket-2-gpu");
    for (const char* spelling : {"c1:00.0", "C1:00.0", "0000:c1:00.0", "00000000:C1:00.0"}) {
        const TopologyGpu* gpu = t.find_gpu(spelling);
        ASSERT_NE(gpu, nullptr) << spelling;
        EXPECT_EQ(gpu->node, 1) << spelling;
    }
    EXPECT_EQ(t.find_gpu("0000:c2:00.0"), nullptr);
    EXPECT_EQ(t.find_gpu("not a bus id"), nullptr);
    EXPECT_EQ(t.node_of_cpu(0), 0);
    EXPECT_EQ(t.node_of_cpu(47), 0);
    EXPECT_EQ(t.node_of_cpu(16), 1);
    EXPECT_EQ(t.node_of_cpu(63), 1);
    EXPECT_EQ(t.node_of_cpu(64), -1);
    EXPECT_EQ(t.node_of_cpu(-1), -1);
    ASSERT_NE(t.find_node(1), nullptr);
    EXPECT_EQ(t.find_node(2), nullptr);
    EXPECT_EQ(t.all_cpus(), cpus("0-63"));
}

TEST(MachineTopology, NormalisesPciBusIds) {
    EXPECT_EQ(normalize_pci_bus_id("C1:00.0"), "0000:c1:00.0");
    EXPECT_EQ(normalize_pci_bus_id("0000:C1:00.0"), "0000:c1:00.0");
    EXPECT_EQ(normalize_pci_bus_id("00000000:c1:00.0"), "0000:c1:00.0");  // CUDA's spelling
    EXPECT_EQ(normalize_pci_bus_id("0001:3b:1f.7"), "0001:3b:1f.7");
    EXPECT_EQ(normalize_pci_bus_id("4:0.1"), "0000:04:00.1");
    EXPECT_EQ(normalize_pci_bus_id("00010000:C1:1F.7"), "10000:c1:1f.7");  // a VMD domain needs five digits
    for (const char* bad : {"", "c1:00", "c1.00.0", "0000:c1:00.8", "0000:c1:20.0", "0000:1c1:00.0", "zz:00.0",
                            "100000000:c1:00.0", "0000:c1:00.0x", ":c1:00.0", "0000:19:00.12", "../../etc:00:00.0"})
        EXPECT_EQ(normalize_pci_bus_id(bad), "") << bad;
}

TEST(MachineTopology, ThisMachineHoldsTheCpuThisThreadRunsOn) {
    const MachineTopology t = load_this_machine_topology();
    EXPECT_FALSE(t.from_file);
    EXPECT_EQ(t.source, "this machine");
    ASSERT_FALSE(t.nodes.empty());
    EXPECT_FALSE(t.packages.empty());
    const int cpu = sched_getcpu();
    ASSERT_GE(cpu, 0);
    EXPECT_GE(t.node_of_cpu(cpu), 0);
    EXPECT_EQ(this_machine_topology()->nodes.size(), t.nodes.size());
}

// The node's memory as a user reads it: on a one-node machine, all of the machine's, even where a
// virtual machine's sysfs gives the node a fraction (10 GiB of 128 on the H200 machine).
TEST(MachineTopology, OneNodeHoldsAllOfThisMachinesMemory) {
    const MachineTopology t = load_this_machine_topology();
    if (t.nodes.size() != 1) GTEST_SKIP() << "this machine has " << t.nodes.size() << " NUMA nodes";
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    std::uint64_t kib = 0;
    meminfo >> key >> kib;
    ASSERT_EQ(key, "MemTotal:");
    EXPECT_GE(t.nodes.front().memory_bytes, kib * 1024);
}

// What a bad topology file gets: a TopologyError naming the file and the problem.
void expect_refused(const std::string& path, const std::string& problem) {
    try {
        load_topology(path);
        ADD_FAILURE() << path << " loaded";
    } catch (const TopologyError& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find(path), std::string::npos) << what;
        EXPECT_NE(what.find(problem), std::string::npos) << what;
    }
}

TEST(MachineTopology, BadXmlGetsAMessageNotACrash) {
    const test::TempDir dir;
    const std::string good = test::read_text(kTopologies + "/2-socket-2-gpu.xml");
    ASSERT_GT(good.size(), 1000u);
    expect_refused(kTopologies + "/no-such-file.xml", "no such file");
    expect_refused(scratch_file(dir, ""), "empty");
    expect_refused(scratch_file(dir, "garbage, not XML\n"), "not XML");
    expect_refused(scratch_file(dir, "<?xml version=\"1.0\"?>\n<foo><bar/></foo>\n"), "not an hwloc topology");
    expect_refused(scratch_file(dir, good.substr(0, good.size() / 2)), "not a well-formed hwloc XML topology");
    expect_refused(scratch_file(dir, good.substr(0, 3000)), "hwloc");
    std::string no_numa = good;
    for (std::size_t at; (at = no_numa.find("\"NUMANode\"")) != std::string::npos;) no_numa.replace(at, 10, "\"Group\"");
    expect_refused(scratch_file(dir, no_numa), "without NUMA nodes");
    expect_refused(std::filesystem::temp_directory_path().string(), "folder");
}

// The 2-socket sample with its NUMA nodes renumbered.
std::string with_node_numbers(const std::string& first, const std::string& second) {
    std::string xml = test::read_text(kTopologies + "/2-socket-2-gpu.xml");
    const std::string node = "type=\"NUMANode\" os_index=\"";
    const std::size_t a = xml.find(node + "0\"");
    const std::size_t b = xml.find(node + "1\"");
    xml.replace(b + node.size(), 1, second);
    xml.replace(a + node.size(), 1, first);
    return xml;
}

TEST(MachineTopology, NodeNumbersThatRepeatOrWrapAreRefused) {
    const test::TempDir dir;
    expect_refused(scratch_file(dir, with_node_numbers("0", "0")), "two NUMA nodes numbered 0");
    // hwloc reads -5 as 4294967291 and 2^32-1 is its "unknown": once printed as "node -5", "node -1".
    expect_refused(scratch_file(dir, with_node_numbers("0", "-5")), "a NUMA node numbered -5; expected 0 to 4095");
    expect_refused(scratch_file(dir, with_node_numbers("4294967295", "1")), "NUMA node");
    const MachineTopology renumbered = load_topology(scratch_file(dir, with_node_numbers("2", "7")));
    ASSERT_EQ(renumbered.nodes.size(), 2u);
    EXPECT_EQ(renumbered.nodes[1].os_index, 7);
}

TEST(MachineTopology, XmlNestedDeepIsRefusedBeforeHwlocReadsIt) {
    const test::TempDir dir;
    std::string xml = "<?xml version=\"1.0\"?>\n<topology version=\"2.0\"><object type=\"Machine\">";
    for (int i = 0; i < 100000; ++i) xml += "<object type=\"Group\">";
    xml += "<object type=\"NUMANode\" os_index=\"0\"/>";
    for (int i = 0; i < 100000; ++i) xml += "</object>";
    xml += "</object></topology>\n";
    expect_refused(scratch_file(dir, xml), "XML nested deeper than 128 elements");
    // Nested as deep as allowed, it reaches hwloc (which refuses this one for other reasons).
    std::string allowed = "<?xml version=\"1.0\"?>\n<topology version=\"2.0\"><object type=\"Machine\">";
    for (int i = 0; i < 120; ++i) allowed += "<object type=\"Group\">";
    allowed += "<object type=\"NUMANode\" os_index=\"0\"/>";
    for (int i = 0; i < 120; ++i) allowed += "</object>";
    allowed += "</object></topology>\n";
    try {
        load_topology(scratch_file(dir, allowed));
    } catch (const TopologyError& error) {
        EXPECT_EQ(std::string(error.what()).find("nested deeper"), std::string::npos) << error.what();
    }
}

TEST(MachineTopology, XmlThatWouldCrashHwlocIsRefused) {
    const test::TempDir dir;
    // hwloc dereferences the set it expects: without the machine's complete_nodeset it crashed
    // (SIGSEGV in hwloc_insert_object_by_parent, found by tests/fuzz).
    std::string xml = test::read_text(kTopologies + "/2-socket-2-gpu.xml");
    const std::string set = " complete_nodeset=\"0x00000003\"";
    ASSERT_NE(xml.find(set), std::string::npos);
    xml.erase(xml.find(set), set.size());
    expect_refused(scratch_file(dir, xml), "hwloc cannot read it");
    // A CPU without a number would be numbered 2^32-1, and hwloc's bitmap for it costs 512 MiB.
    std::string unnumbered = test::read_text(kTopologies + "/2-socket-2-gpu.xml");
    const std::string pu = "type=\"PU\" os_index=\"0\"";
    unnumbered.replace(unnumbered.find(pu), pu.size(), "type=\"PU\"");
    expect_refused(scratch_file(dir, unnumbered), "a CPU without a number (os_index)");
}

TEST(MachineTopology, AFifoOrDeviceIsRefusedNotWaitedOn) {
    const test::TempDir dir;
    ASSERT_EQ(::mkfifo(dir.file("fifo.xml").c_str(), 0600), 0);
    expect_refused(dir.file("fifo.xml"), "it is a FIFO; only a regular file of at most 64 MiB is read");
    try {
        load_topology("/dev/zero");
        ADD_FAILURE() << "loaded";
    } catch (const TopologyError& error) {
        EXPECT_NE(std::string(error.what()).find("it is a character device"), std::string::npos) << error.what();
    }
}

TEST(MachineTopology, NamesInTheXmlAreShownWithEscapesVisible) {
    const test::TempDir dir;
    std::string xml = test::read_text(kTopologies + "/2-socket-2-gpu.xml");
    const std::string product = "value=\"illustrative 2-socket server, one H200 per socket\"";
    ASSERT_NE(xml.find(product), std::string::npos);
    xml.replace(xml.find(product), product.size(), "value=\"evil\x1b[2J\"");
    try {
        EXPECT_EQ(load_topology(scratch_file(dir, xml)).machine_name, "evil\\x1b[2J");
    } catch (const TopologyError&) {
        // libxml2 (with libhwloc-plugins) refuses a control character in XML; hwloc's own parser takes it.
    }
}

TEST(TopologyTree, ShowsEachGpuUnderItsNodeAndTheRunGpusLocality) {
    const MachineTopology t = load_topology("2-socket-2-gpu");
    const std::string text = format_topology_tree(t, t.find_gpu("c1:00.0"), "");
    EXPECT_NE(text.find("a loaded topology, not this machine"), std::string::npos) << text;
    EXPECT_NE(text.find("2 packages, 2 NUMA nodes, 32 cores, 64 CPUs, 2 NVIDIA GPUs"), std::string::npos) << text;
    EXPECT_NE(text.find("  NUMA node 1  256.0 GiB  cores 16-31, cpus 16-31,48-63\n"
                        "    GPU 0000:c1:00.0  NVIDIA H200  <- selected\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("GPU 0000:c1:00.0 (NVIDIA H200) is local to NUMA node 1, CPUs 16-31,48-63\n"), std::string::npos)
        << text;
    EXPECT_EQ(text.find(kSingleNodeNote), std::string::npos) << text;
}

TEST(TopologyTree, OneNodeSaysRemoteDoesNotApply) {
    const MachineTopology t = load_this_machine_topology();
    const std::string text = format_topology_tree(t, nullptr, "no NVIDIA GPU on this machine");
    EXPECT_NE(text.find("this machine"), std::string::npos) << text;
    EXPECT_NE(text.find("no NVIDIA GPU on this machine\n"), std::string::npos) << text;
    if (t.single_node()) {
        EXPECT_NE(text.find(kSingleNodeNote), std::string::npos) << text;
    }
}

}  // namespace
}  // namespace pinscope
