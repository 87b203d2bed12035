// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli topology and the NUMA flags of run and sweep: the tree with the GPU's locality on
// this machine and on a loaded 2-socket server, remote policies refused on one node, and runs and
// sweeps that place threads and pages on a loaded topology.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "engine/topology/MachineTopology.h"
#include "engine/topology/TopologyTree.h"
#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

std::vector<std::string> topology_run(std::vector<std::string> extra) {
    std::vector<std::string> args{"run", "--batches", "30", "--batch-size", "8", "--sample-shape", "3x32x32"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

TEST(CliTopology, ThisMachine) {
    const CliResult result = run_cli({"topology"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out.rfind("this machine", 0), 0u) << result.out;
    EXPECT_NE(result.out.find("  NUMA node "), std::string::npos) << result.out;
    const auto machine = this_machine_topology();
    if (machine->single_node()) {
        EXPECT_NE(result.out.find(kSingleNodeNote), std::string::npos) << result.out;
    }
    if (machine->gpus.empty()) {
        EXPECT_NE(result.out.find("no NVIDIA GPU on this machine"), std::string::npos) << result.out;
    }
}

TEST(CliTopology, LoadedTwoSocketServerShowsTheGpuOnTheSecondSocket) {
    const CliResult result = run_cli({"topology", "--xml", kTopologies + "/2-socket-2-gpu.xml", "--gpu", "C1:00.0"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("a loaded topology, not this machine"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("package 1\n  NUMA node 1  256.0 GiB  cores 16-31, cpus 16-31,48-63\n"
                              "    GPU 0000:c1:00.0  NVIDIA H200  <- selected\n"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("GPU 0000:c1:00.0 (NVIDIA H200) is local to NUMA node 1, CPUs 16-31,48-63\n"),
              std::string::npos)
        << result.out;
    EXPECT_EQ(result.out.find(kSingleNodeNote), std::string::npos) << result.out;
}

TEST(CliTopology, AShippedNameWorksWithoutTheFile) {
    const CliResult result = run_cli({"topology", "--xml", "4-gpu-server"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("4 NVIDIA GPUs"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("GPU 0000:18:00.0 (NVIDIA H100 PCIe) is local to NUMA node 0"), std::string::npos)
        << result.out;
}

TEST(CliTopology, TruncatedXmlGetsAMessageNotACrash) {
    TempDir dir;
    const std::string text = read_file(kTopologies + "/2-socket-2-gpu.xml");
    std::ofstream(dir.file("cut.xml")) << text.substr(0, text.size() / 3);
    const CliResult result = run_cli({"topology", "--xml", dir.file("cut.xml")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find(dir.file("cut.xml") + ": hwloc could not load it"), std::string::npos) << result.err;
}

TEST(CliNuma, RemoteIsRefusedOnOneNodeWithTheReason) {
    if (!this_machine_topology()->single_node()) GTEST_SKIP() << "this machine has more than one NUMA node";
    for (const auto& [flag, value] : std::vector<std::pair<std::string, std::string>>{
             {"--bind", "remote"}, {"--bind-pin", "remote"}, {"--membind", "remote"}, {"--membind", "interleave"}}) {
        const CliResult result = run_cli(topology_run({flag, value}));
        EXPECT_EQ(result.exit_code, 2) << flag << " " << value;
        EXPECT_NE(result.err.find(flag + ": " + value + " is not allowed"), std::string::npos) << result.err;
        EXPECT_NE(result.err.find(value + " needs a second NUMA node; this machine has one (node "), std::string::npos)
            << result.err;
        EXPECT_EQ(result.out, "");
    }
    // Local works on one node: it is node 0.
    const CliResult local = run_cli(topology_run({"--bind", "local", "--membind", "local"}));
    EXPECT_EQ(local.exit_code, 0) << local.err;
    EXPECT_NE(local.out.find("NUMA policy     workers local, pin thread local, consumer local, membind local"),
              std::string::npos)
        << local.out;
}

TEST(CliNuma, ARunOnALoadedTopologyPlacesPagesInTheModel) {
    TempDir dir;
    const std::string summary = dir.file("summary.json");
    const std::string csv = dir.file("csv");
    const CliResult result = run_cli(topology_run({"--topology", "2-socket-2-gpu", "--gpu", "c1:00.0", "--membind",
                                                "remote", "--bind-workers", "local", "--summary", summary, "--csv", csv}));
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("topology        2-socket-2-gpu (shipped sample), loaded: placement modelled; GPU "
                              "0000:c1:00.0 (NVIDIA H200) on node 1"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("membind remote"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("cross-node H2D 100.0 %"), std::string::npos) << result.out;

    const auto numa = nlohmann::json::parse(read_file(summary)).at("numa");
    EXPECT_TRUE(numa.at("from_file").get<bool>());
    EXPECT_EQ(numa.at("gpu_pci_bus_id"), "0000:c1:00.0");
    EXPECT_EQ(numa.at("gpu_node"), 1);
    EXPECT_EQ(numa.at("membind"), "remote");
    EXPECT_EQ(numa.at("bind_workers"), "local");
    EXPECT_GT(numa.at("nodes").at(0).at("pinned_peak_bytes").get<std::uint64_t>(), 0u);
    EXPECT_EQ(numa.at("nodes").at(1).at("pinned_peak_bytes").get<std::uint64_t>(), 0u);
    EXPECT_EQ(numa.at("cross_node_h2d_bytes"), numa.at("h2d_bytes"));

    std::istringstream rows(read_file(csv + "/numa.csv"));
    std::string header;
    std::getline(rows, header);
    EXPECT_EQ(header,
              "time_s,node0_pinned_in_use_bytes,node1_pinned_in_use_bytes,cross_node_h2d_bytes,cross_node_host_copy_bytes");
}

TEST(CliNuma, ASweepComparesPlacements) {
    TempDir dir;
    const std::string csv = dir.file("sweep.csv");
    const CliResult result = run_cli({"sweep", "--batches", "20", "--batch-size", "8", "--sample-shape", "3x32x32",
                                      "--topology", "2-socket-2-gpu", "--membind", "local,remote", "--bind",
                                      "local,0-3,8", "--csv", csv});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[4/4] workers=4 prefetch=2 pin_memory=on pin_mode=pool bind=0-3,8 membind=remote ... "),
              std::string::npos)
        << result.err;
    const std::string table = result.out;
    EXPECT_NE(table.find("bind"), std::string::npos) << table;
    EXPECT_NE(table.find("membind"), std::string::npos) << table;
    const std::string rows = read_file(csv);
    EXPECT_NE(rows.find(",local,local,local,remote,"), std::string::npos) << rows;
    EXPECT_NE(rows.find(",\"0-3,8\",\"0-3,8\",\"0-3,8\",local,"), std::string::npos) << rows;
}

}  // namespace
}  // namespace pinscope::test
