// SPDX-License-Identifier: GPL-3.0-or-later
// Exit codes and messages: bad input exits 2 with one line naming the flag, a run-time failure
// exits 1, help and listings exit 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <ostream>

#include "engine/BuildConfig.h"
#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

struct BadInput {
    std::string name;
    std::vector<std::string> args;
    std::string named;  // what the message must name: the flag or field
};

// gtest shows the command line instead of the object's bytes.
void PrintTo(const BadInput& input, std::ostream* out) {
    for (const std::string& arg : input.args) *out << arg << ' ';
}

// Fast if it ever got past the checks: every case must fail before running.
const std::vector<std::string> kExitCodeRun{"--batch-size", "4", "--sample-shape", "3x32x32"};

std::vector<std::string> exit_code_run(const std::vector<std::string>& args) {
    std::vector<std::string> all{"run"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), kExitCodeRun.begin(), kExitCodeRun.end());
    return all;
}

class CliBadInput : public testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, ExitsTwoWithOneLineNamingTheFlag) {
    const BadInput& input = GetParam();
    const CliResult result = run_cli(input.args);
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("pinscope-cli: "), std::string::npos) << result.err;
    EXPECT_NE(result.err.find(input.named), std::string::npos) << result.err;
    EXPECT_EQ(line_count(result.err), 1u) << result.err;
    EXPECT_EQ(result.out, "");
}

INSTANTIATE_TEST_SUITE_P(
    Flags, CliBadInput,
    testing::Values(
        BadInput{"WorkersNotANumber", exit_code_run({"--workers", "x"}),
                 "--workers: 'x' is not allowed; expected an integer from 0 to 256"},
        BadInput{"WorkersNegative", exit_code_run({"--workers", "-1"}), "--workers"},
        BadInput{"WorkersTooMany", exit_code_run({"--workers", "300"}), "--workers: 300"},
        BadInput{"WorkersOverflow", exit_code_run({"--workers", "99999999999999999999"}), "--workers"},
        BadInput{"WorkersListInRun", exit_code_run({"--workers", "0,4"}), "--workers"},
        BadInput{"BatchSizeZero", {"run", "--batch-size", "0"}, "--batch-size"},
        BadInput{"ShapeWithZero", {"run", "--sample-shape", "3x0x224"}, "--sample-shape"},
        BadInput{"ShapeWithEmptyDimension", {"run", "--sample-shape", "3xx4"}, "--sample-shape: '3xx4'"},
        BadInput{"ShapeEmpty", {"run", "--sample-shape", ""}, "--sample-shape"},
        BadInput{"DTypeUnknown", exit_code_run({"--dtype", "f33"}), "--dtype: 'f33' is not allowed; expected one of"},
        BadInput{"PinMemoryNotOnOff", exit_code_run({"--pin-memory", "maybe"}),
                 "--pin-memory: 'maybe' is not allowed; expected on or off"},
        BadInput{"NonBlockingNotOnOff", exit_code_run({"--non-blocking", "1"}), "--non-blocking"},
        BadInput{"InOrderNotOnOff", exit_code_run({"--in-order", "yes"}), "--in-order"},
        BadInput{"PinModeUnknown", exit_code_run({"--pin-mode", "foo"}), "--pin-mode"},
        BadInput{"CopyStreamUnknown", exit_code_run({"--copy-stream", "current"}),
                 "--copy-stream: 'current' is not allowed; expected one of: side, compute"},
        BadInput{"CopyStreamListInRun", exit_code_run({"--copy-stream", "side,compute"}),
                 "comma lists are for pinscope-cli sweep"},
        BadInput{"HostUnknown", exit_code_run({"--host", "foo"}), "--host"},
        BadInput{"CpuUsNotANumber", exit_code_run({"--cpu-us", "abc"}), "--cpu-us"},
        BadInput{"GpuUsNegative", exit_code_run({"--gpu-us", "-1"}), "--gpu-us"},
        BadInput{"BatchesZero", exit_code_run({"--batches", "0"}), "--batches"},
        BadInput{"SecondsNotFinite", exit_code_run({"--seconds", "nan"}), "--seconds"},
        BadInput{"BatchesAndSeconds", exit_code_run({"--batches", "5", "--seconds", "2"}), "--seconds"},
        BadInput{"BudgetBadSuffix", exit_code_run({"--pinned-budget", "12Q"}), "--pinned-budget: '12Q'"},
        BadInput{"BudgetTooSmall", exit_code_run({"--pinned-budget", "1M"}), "--pinned-budget: 1048576"},
        BadInput{"DeviceUnknown", exit_code_run({"--device", "gpu"}), "--device"},
        BadInput{"ProfileUnknown", exit_code_run({"--device", "emulated:no-such-profile", "--batches", "5"}), "--device"},
        BadInput{"PrefetchWithoutWorkers", exit_code_run({"--workers", "0", "--prefetch", "2"}), "--prefetch"},
        BadInput{"ConfigMissing", exit_code_run({"--config", "/nonexistent/pinscope.json"}), "--config"},
        BadInput{"UnknownFlag", exit_code_run({"--bogus"}), "--bogus"},
        BadInput{"MissingValue", {"run", "--workers"}, "--workers"},
        BadInput{"SweepListItem", {"sweep", "--workers", "0,x"}, "--workers: 'x'"},
        BadInput{"SweepEmptyListItem", {"sweep", "--pin-memory", "off,,on"}, "--pin-memory"},
        BadInput{"SweepInvalidCombination", {"sweep", "--workers", "0,300", "--batches", "5"}, "workers=300"},
        BadInput{"BandwidthMinSizeNotASize", {"bandwidth", "--min-size", "4Q"},
                 "--min-size: '4Q' is not allowed; expected a size in bytes, such as 4096, 4K"},
        BadInput{"BandwidthMinSizeZero", {"bandwidth", "--min-size", "0"},
                 "--min-size: '0' is not allowed; expected a size from 1 byte to 16 GiB"},
        BadInput{"BandwidthMinAboveMax", {"bandwidth", "--min-size", "1M", "--max-size", "4K"},
                 "--max-size: '4K' is not allowed; expected a size from --min-size (1M) to 16 GiB"},
        BadInput{"BandwidthMaxTooLarge", {"bandwidth", "--max-size", "17GiB"}, "--max-size: '17GiB'"},
        BadInput{"BandwidthDirectionUnknown", {"bandwidth", "--direction", "h2d,d2d"}, "--direction: 'd2d'"},
        BadInput{"BandwidthDirectionTwice", {"bandwidth", "--direction", "h2d,H2D"}, "--direction"},
        BadInput{"BandwidthMemoryUnknown", {"bandwidth", "--memory", "locked"},
                 "--memory: 'locked' is not allowed; expected a comma list of pinned, pageable and wc"},
        BadInput{"BandwidthSamplesZero", {"bandwidth", "--samples", "0"},
                 "--samples: '0' is not allowed; expected an integer from 1 to 1000"},
        BadInput{"BandwidthSamplesNotANumber", {"bandwidth", "--samples", "five"}, "--samples: 'five'"},
        BadInput{"BandwidthDeviceUnknown", {"bandwidth", "--device", "gpu"}, "--device: 'gpu'"},
        BadInput{"BandwidthProfileUnknown", {"bandwidth", "--device", "emulated:no-such-profile"},
                 "--device: 'emulated:no-such-profile'"},
        BadInput{"CalibrateNameWithSlash", {"calibrate", "--name", "../x"}, "--name: '../x'"},
        BadInput{"CalibrateDeviceUnknown", {"calibrate", "--device", "gpu"},
                 "--device: 'gpu' is not allowed; expected cuda or cuda:N"},
        BadInput{"BindNotAPolicy", exit_code_run({"--bind", "far"}),
                 "--bind: 'far' is not allowed; expected none, local (the GPU's NUMA node), remote"},
        BadInput{"BindWorkersCpuThatDoesNotExist", exit_code_run({"--bind-workers", "65535"}),
                 "--bind-workers: 65535 is not allowed; expected none, local"},
        BadInput{"BindPinReversedRange", exit_code_run({"--bind-pin", "3-1"}), "--bind-pin: '3-1'"},
        BadInput{"BindConsumerOverridesBind", exit_code_run({"--bind", "local", "--bind-consumer", "65535"}),
                 "--bind-consumer: 65535"},
        BadInput{"MembindUnknown", exit_code_run({"--membind", "far"}),
                 "--membind: 'far' is not allowed; expected one of: none, local, remote, interleave"},
        BadInput{"MembindListInRun", exit_code_run({"--membind", "local,remote"}), "comma lists are for pinscope-cli sweep"},
        BadInput{"TopologyMissing", exit_code_run({"--topology", "/nonexistent/server.xml"}),
                 "--topology: /nonexistent/server.xml is not allowed; expected an hwloc XML topology file"},
        BadInput{"TopologyNotXml", exit_code_run({"--topology", "/etc/hostname"}), "/etc/hostname: not XML"},
        BadInput{"TopologyWithCuda", exit_code_run({"--device", "cuda", "--topology", "2-socket-2-gpu"}),
                 "--topology: 2-socket-2-gpu is not allowed; expected empty with a CUDA device"},
        BadInput{"GpuNotABusId", exit_code_run({"--topology", "2-socket-2-gpu", "--gpu", "gpu1"}),
                 "--gpu: gpu1 is not allowed; expected a PCI bus id"},
        BadInput{"GpuNotOnTheTopology", exit_code_run({"--topology", "2-socket-2-gpu", "--gpu", "0000:42:00.0"}),
                 "--gpu: 0000:42:00.0 is not allowed; expected one of the GPUs of the loaded topology"},
        BadInput{"SweepMembindItem", {"sweep", "--membind", "local,far"}, "--membind: 'far'"},
        BadInput{"TopologyCommandMissingXml", {"topology", "--xml", "/nonexistent/server.xml"},
                 "--xml: /nonexistent/server.xml: no such file"},
        BadInput{"TopologyCommandGarbageXml", {"topology", "--xml", "/etc/hostname"}, "--xml: /etc/hostname: not XML"},
        BadInput{"TopologyCommandUnknownGpu", {"topology", "--xml", "4-gpu-server", "--gpu", "c1:00.0"},
                 "--gpu: 'c1:00.0' is not allowed; expected one of the GPUs of 4-gpu-server"},
        BadInput{"UnknownCommand", {"bogus"}, "bogus"}),
    [](const testing::TestParamInfo<BadInput>& param) { return param.param.name; });

TEST(CliExitCodes, ConfigFileThatIsNotJson) {
    TempDir dir;
    std::ofstream(dir.file("bad.json")) << "{\"num_workers\": ";
    const CliResult result = run_cli({"run", "--config", dir.file("bad.json")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("--config"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("JSON"), std::string::npos) << result.err;
}

TEST(CliExitCodes, ConfigFileWithABadValueNamesTheField) {
    TempDir dir;
    std::ofstream(dir.file("workers.json")) << R"({"num_workers": 999, "batches": 5})";
    const CliResult result = run_cli({"run", "--config", dir.file("workers.json")});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("num_workers: 999 is not allowed"), std::string::npos) << result.err;
}

TEST(CliExitCodes, NoCommandPrintsUsage) {
    const CliResult result = run_cli({});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("Usage"), std::string::npos) << result.err;
}

TEST(CliExitCodes, HelpAndVersionExitZero) {
    const CliResult help = run_cli({"--help"});
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("sweep"), std::string::npos) << help.out;

    const CliResult run_help = run_cli({"run", "--help"});
    EXPECT_EQ(run_help.exit_code, 0);
    EXPECT_NE(run_help.out.find("--pin-memory"), std::string::npos) << run_help.out;
    EXPECT_NE(run_help.out.find("--summary"), std::string::npos) << run_help.out;

    const CliResult sweep_help = run_cli({"sweep", "--help"});
    EXPECT_EQ(sweep_help.exit_code, 0);
    EXPECT_NE(sweep_help.out.find("comma"), std::string::npos) << sweep_help.out;

    for (const char* command : {"bandwidth", "calibrate"}) {
        const CliResult command_help = run_cli({command, "--help"});
        EXPECT_EQ(command_help.exit_code, 0) << command;
        EXPECT_NE(help.out.find(command), std::string::npos) << help.out;
        EXPECT_NE(command_help.out.find("--device"), std::string::npos) << command_help.out;
    }

    const CliResult version = run_cli({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_NE(version.out.find(PINSCOPE_VERSION), std::string::npos) << version.out;
}

TEST(CliExitCodes, DevicesListsTheBuiltInProfiles) {
    const CliResult result = run_cli({"devices"});
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("h200-pcie5"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("CUDA"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("GB/s"), std::string::npos) << result.out;
}

TEST(CliExitCodes, CudaWithoutCudaSupportIsARunTimeFailure) {
    if (PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has the CUDA device";
    const CliResult result = run_cli({"run", "--device", "cuda", "--batches", "5"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("no CUDA support"), std::string::npos) << result.err;
    EXPECT_EQ(result.out, "");

    const CliResult devices = run_cli({"devices"});
    EXPECT_NE(devices.out.find("CUDA: none (this build of pinscope has no CUDA support"), std::string::npos)
        << devices.out;
}

TEST(CliExitCodes, CudaWithoutAGpuIsARunTimeFailureAndAutoFallsBack) {
    if (!PINSCOPE_HAVE_CUDA) GTEST_SKIP() << "this build has no CUDA device";
    const CliResult devices = run_cli({"devices"});
    if (devices.out.find("CUDA: none") == std::string::npos) GTEST_SKIP() << "this machine has a CUDA GPU";
    const CliResult result = run_cli({"run", "--device", "cuda", "--batches", "5"});
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("cuda:0: no usable CUDA GPU"), std::string::npos) << result.err;

    const CliResult fallback = run_cli({"run", "--batches", "5", "--batch-size", "4", "--sample-shape", "3x32x32"});
    EXPECT_EQ(fallback.exit_code, 0) << fallback.err;
    EXPECT_NE(fallback.err.find("no CUDA GPU ("), std::string::npos) << fallback.err;
    EXPECT_NE(fallback.err.find("using the emulated device"), std::string::npos) << fallback.err;
}

}  // namespace
}  // namespace pinscope::test
