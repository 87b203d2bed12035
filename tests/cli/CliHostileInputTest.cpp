// SPDX-License-Identifier: GPL-3.0-or-later
// Hostile input to pinscope-cli: files that are not files (FIFOs, devices, folders), values built
// to crash a parser or to fill memory, text with terminal escapes or invalid UTF-8. Each is bad
// input: exit 2 with one short line that names the flag or field and shows no escape, and never a
// crash, a hang or a library's raw message.
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "tests/cli/CliProcess.h"

namespace pinscope::test {
namespace {

// Fast if it ever got past the checks.
const std::vector<std::string> kHostileRun{"--batches", "3", "--batch-size", "4", "--sample-shape", "3x32x32"};

std::vector<std::string> hostile_run(const std::vector<std::string>& args) {
    std::vector<std::string> all{"run"};
    all.insert(all.end(), args.begin(), args.end());
    all.insert(all.end(), kHostileRun.begin(), kHostileRun.end());
    return all;
}

// Bad input, told in one short printable line that contains `named`.
void expect_refused(const std::vector<std::string>& args, const std::string& named) {
    CliRunOptions options;
    options.timeout = std::chrono::milliseconds(20000);
    const CliResult result = run_cli(args, options);
    EXPECT_FALSE(result.timed_out) << "hung";
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find(named), std::string::npos) << result.err;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_LE(result.err.size(), 800u) << result.err.substr(0, 800);
    EXPECT_EQ(result.err.find('\x1b'), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("json.exception"), std::string::npos) << result.err;
    EXPECT_EQ(result.err.find("std::"), std::string::npos) << result.err;
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
    std::ofstream(dir.file(name), std::ios::binary) << text;
    return dir.file(name);
}

std::string fifo(const TempDir& dir) {
    const std::string path = dir.file("fifo");
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    return path;
}

TEST(CliHostileInput, AFifoAsConfigTopologyOrProfileIsRefusedNotWaitedOn) {
    const TempDir dir;
    const std::string path = fifo(dir);
    expect_refused(hostile_run({"--config", path}), "it is a FIFO; only a regular file");
    expect_refused(hostile_run({"--device", "emulated", "--topology", path}), "it is a FIFO");
    expect_refused(hostile_run({"--device", "emulated:" + path}), "it is a FIFO");
    expect_refused({"topology", "--xml", path}, "it is a FIFO");
}

TEST(CliHostileInput, DevZeroAndFoldersAreRefusedWithoutReadingThem) {
    const TempDir dir;
    expect_refused(hostile_run({"--config", "/dev/zero"}), "it is a character device");
    expect_refused(hostile_run({"--device", "emulated", "--topology", "/dev/zero"}), "it is a character device");
    expect_refused({"topology", "--xml", "/dev/zero"}, "it is a character device");
    expect_refused(hostile_run({"--config", dir.path().string()}), "it is a folder");
}

TEST(CliHostileInput, AConfigFileLargerThanTheCapIsRefusedBySize) {
    const TempDir dir;
    const std::string path = dir.file("huge.json");
    std::ofstream(path) << "{}";
    ASSERT_EQ(::truncate(path.c_str(), 17 << 20), 0);  // sparse: costs no disk
    expect_refused(hostile_run({"--config", path}), "only a regular file of at most 16");
}

TEST(CliHostileInput, AConfigNestedDeepIsRefusedNotACrash) {
    const TempDir dir;
    const std::string deep = "{\"sample_shape\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
    expect_refused(hostile_run({"--config", write(dir, "deep.json", deep)}), "nested deeper than 32 levels");
}

TEST(CliHostileInput, ANumberBeyondADoubleInAConfigIsBadInput) {
    const TempDir dir;
    expect_refused(hostile_run({"--config", write(dir, "big.json", R"({"cpu_us_per_sample": 1e400})")}),
                   "a number beyond what a double holds");
}

TEST(CliHostileInput, ARepeatedKeyInAConfigIsRefusedNamingIt) {
    const TempDir dir;
    expect_refused(hostile_run({"--config", write(dir, "twice.json", R"({"num_workers": 1, "num_workers": 8})")}),
                   "the key \"num_workers\" appears twice");
}

TEST(CliHostileInput, AHugeValueIsEchoedCutShort) {
    const TempDir dir;
    const std::string value(1 << 20, 'x');
    expect_refused(hostile_run({"--config", write(dir, "long.json", "{\"dtype\": \"" + value + "\"}")}), "dtype: \"xxx");
    expect_refused(hostile_run({"--dtype", value.substr(0, 100000)}), "--dtype: 'xxx");  // one argument's limit is 128 KiB
}

TEST(CliHostileInput, InvalidUtf8InATextFlagIsBadInputShownEscaped) {
    for (const char* flag : {"--dtype", "--bind", "--pin-mode", "--membind", "--host"})
        expect_refused(hostile_run({flag, "f\xff\xfe"}), std::string(flag) + ": 'f\\xff\\xfe'");
}

TEST(CliHostileInput, TerminalEscapesInInputAreShownEscaped) {
    const TempDir dir;
    expect_refused(hostile_run({"--dtype", "\x1b[2J"}), "'\\x1b[2J'");
    expect_refused(hostile_run({"--bogus\x1b[31m"}), "--bogus\\x1b[31m");
    expect_refused(hostile_run({"--config", write(dir, "esc.json", R"({"device": "emulated:\u001b]0;x\u0007"})")}),
                   "\\x1b]0;x\\x07");
    const std::string topology = dir.file("\x1b[31mmissing.xml");
    expect_refused(hostile_run({"--device", "emulated", "--topology", topology}), "\\x1b[31mmissing.xml");
}

TEST(CliHostileInput, ACpuListOfTwentyThousandRangesIsHeldToTheCpusItNames) {
    const TempDir dir;
    std::string list = "0-65535";
    for (int i = 0; i < 20000; ++i) list += ",0-65535";
    // 65536 CPUs, not 20000 copies of them; this machine has fewer, so the list is refused by the
    // first CPU it lacks, not by memory.
    const std::string config = write(dir, "cpus.json", "{\"bind_workers\": \"" + list + "\"}");
    expect_refused(hostile_run({"--config", config}), "does not exist on this machine");
    expect_refused(hostile_run({"--bind", list.substr(0, 7 + 8 * 9999)}), "does not exist on this machine");
}

TEST(CliHostileInput, NonFiniteAndOutOfRangeNumbersAreRefused) {
    expect_refused({"sweep", "--warmup", "nan", "--seconds", "1"}, "--warmup: 'nan' is not allowed");
    expect_refused({"sweep", "--warmup", "-1", "--seconds", "1"}, "--warmup");
    expect_refused(hostile_run({"--cpu-us", "inf"}), "--cpu-us");
    expect_refused(hostile_run({"--pinned-budget", "99999999999999G"}), "--pinned-budget");
    expect_refused(hostile_run({"--pinned-budget", "-5G"}), "--pinned-budget");
    expect_refused({"bandwidth", "--min-size", "99999999999999G"}, "--min-size");
    expect_refused({"bandwidth", "--max-size", "-1"}, "--max-size");
}

TEST(CliHostileInput, ASweepOfTooManyCombinationsIsRefusedBeforeExpanding) {
    std::string workers = "0";
    for (int i = 1; i <= 256; ++i) workers += "," + std::to_string(i);
    std::string prefetch = "1";
    for (int i = 2; i <= 64; ++i) prefetch += "," + std::to_string(i);
    expect_refused({"sweep", "--workers", workers, "--prefetch", prefetch, "--batches", "1"},
                   "more than 1000 combinations");
}

// An XML with its two NUMA nodes numbered alike (NumaPlan once indexed an empty list for it).
std::string xml_with_node_numbers(const std::string& first, const std::string& second) {
    std::string xml = read_file(kTopologies + "/2-socket-2-gpu.xml");
    const std::string node = "type=\"NUMANode\" os_index=\"";
    const std::size_t a = xml.find(node + "0\"");
    const std::size_t b = xml.find(node + "1\"");
    EXPECT_TRUE(a != std::string::npos && b != std::string::npos);
    xml.replace(b + node.size(), 1, second);
    xml.replace(a + node.size(), 1, first);
    return xml;
}

TEST(CliHostileInput, TopologyNodeNumbersThatRepeatOrWrapAreRefused) {
    const TempDir dir;
    const std::vector<std::pair<std::string, std::string>> cases{
        {xml_with_node_numbers("0", "0"), "two NUMA nodes numbered 0"},
        {xml_with_node_numbers("0", "-5"), "a NUMA node numbered -5"},
        {xml_with_node_numbers("4294967295", "1"), "NUMA node"}};
    int index = 0;
    for (const auto& [xml, problem] : cases) {
        const std::string path = write(dir, "nodes-" + std::to_string(index++) + ".xml", xml);
        expect_refused(hostile_run({"--device", "emulated", "--topology", path, "--bind", "remote"}), problem);
        expect_refused({"topology", "--xml", path}, problem);
    }
}

TEST(CliHostileInput, AnXmlNestedDeepIsRefusedBeforeHwlocReadsIt) {
    const TempDir dir;
    std::string xml = "<?xml version=\"1.0\"?>\n<topology version=\"2.0\"><object type=\"Machine\">";
    for (int i = 0; i < 100000; ++i) xml += "<object type=\"Group\">";
    xml += "<object type=\"NUMANode\" os_index=\"0\"/>";
    for (int i = 0; i < 100000; ++i) xml += "</object>";
    xml += "</object></topology>\n";
    const std::string path = write(dir, "deep.xml", xml);
    expect_refused({"topology", "--xml", path}, "nested deeper than 128");
    expect_refused(hostile_run({"--device", "emulated", "--topology", path}), "nested deeper than 128");
}

TEST(CliHostileInput, ProfileFiguresBeyondTheirRangeAreRefusedNamingTheField) {
    const TempDir dir;
    std::string profile = read_file(std::string(PINSCOPE_PROFILES_DIR) + "/h200-pcie5.json");
    const std::size_t at = profile.find("\"values\"", profile.find("\"host_alloc_us\""));
    ASSERT_NE(at, std::string::npos);
    profile.replace(profile.find('[', at) + 1, profile.find(']', at) - profile.find('[', at) - 1, "1e300");
    const std::string path = write(dir, "costly.json", profile);
    expect_refused(hostile_run({"--device", "emulated:" + path}), "profile.host.host_alloc_us.values[0]");
}

}  // namespace
}  // namespace pinscope::test
