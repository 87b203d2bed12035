// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's layers, read from the source tree: every engine folder has a layer, and a file may
// include only its own layer and those below; folders of one layer may include each other, but
// never in a loop. The engine includes neither ui/ nor app/ nor Qt, and ui/ does not include app/.
// engine/CMakeLists.txt builds one static library per layer from the same table.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace pinscope {
namespace {

namespace fs = std::filesystem;

// Folder under engine/ -> layer. A subfolder listed here is a folder of its own (device/cuda is not
// device). BuildConfig.h is the header CMake generates (cmake/BuildConfig.h.in).
const std::map<std::string, int>& layer_table() {
    static const std::map<std::string, int> table{
        {"clock", 0},           {"files", 0},          {"text", 0},      {"BuildConfig.h", 0},
        {"config", 1},          {"topology", 1},       //
        {"trace", 2},           {"metrics", 2},        {"analysis", 2},  //
        {"device", 3},          //
        {"memory", 4},          {"host", 4},           {"numa", 4},      //
        {"device/emulated", 5}, {"device/cuda", 5},    {"device/factory", 5},
        {"pipeline", 6},        //
        {"runner", 7},          //
        {"export", 8},          {"sweep", 8},          {"bandwidth", 8}, {"calibrate", 8}, {"compare", 8},
        {"advice", 8},          {"doctor", 8},         {"about", 8},
        {"lesson", 8},          {"validate", 8},
        {"record", 9},          //
    };
    return table;
}

// The table's folder that holds `path` (relative to engine/): the longest entry it lies in.
std::optional<std::string> folder_of(const std::string& path) {
    std::optional<std::string> best;
    for (const auto& [folder, layer] : layer_table()) {
        const bool inside = path == folder || path.starts_with(folder + "/");
        if (inside && (!best || folder.size() > best->size())) best = folder;
    }
    return best;
}

struct Include {
    std::string file;    // from the repository's root: "engine/numa/NumaPlan.cpp"
    std::string target;  // as written: "engine/device/Device.h", or "<QString>"
};

// What a line includes, as written ("engine/device/Device.h" or "<QString>"); empty if nothing.
// By hand rather than with std::regex, which GCC 12 warns about inside libstdc++ under -O2.
std::string included_by(const std::string& line) {
    std::size_t at = line.find_first_not_of(" \t");
    if (at == std::string::npos || line[at] != '#') return {};
    at = line.find_first_not_of(" \t", at + 1);
    if (at == std::string::npos || line.compare(at, 7, "include") != 0) return {};
    at = line.find_first_not_of(" \t", at + 7);
    if (at == std::string::npos) return {};
    if (line[at] == '"') {
        const std::size_t end = line.find('"', at + 1);
        return end == std::string::npos ? std::string{} : line.substr(at + 1, end - at - 1);
    }
    if (line[at] == '<') {
        const std::size_t end = line.find('>', at + 1);
        return end == std::string::npos ? std::string{} : line.substr(at, end - at + 1);
    }
    return {};
}

std::vector<Include> includes_under(const fs::path& root, const std::string& top) {
    static const std::set<std::string> sources{".h", ".cpp", ".cu", ".cuh"};
    std::vector<Include> found;
    for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
        if (!entry.is_regular_file() || !sources.contains(entry.path().extension().string())) continue;
        const std::string file = fs::relative(entry.path(), root).generic_string();
        std::ifstream in(entry.path());
        std::string line;
        while (std::getline(in, line))
            if (std::string target = included_by(line); !target.empty()) found.push_back({file, std::move(target)});
    }
    return found;
}

// The engine's includes of another engine folder: folder -> folder -> the first include seen.
using FolderEdges = std::map<std::string, std::map<std::string, Include>>;

// Adds a failure for each include that breaks the table; returns the folder graph of the rest.
FolderEdges check_layers(const std::vector<Include>& engine_includes) {
    FolderEdges edges;
    for (const Include& include : engine_includes) {
        if (include.target.starts_with("ui/") || include.target.starts_with("app/")) {
            ADD_FAILURE() << include.file << " includes " << include.target << ": the engine knows nothing of "
                          << "the programs (app/) or the desktop UI (ui/)";
            continue;
        }
        if (include.target.starts_with("<Q") || include.target == "<qcustomplot.h>") {
            ADD_FAILURE() << include.file << " includes " << include.target << ": the engine is plain C++, no Qt";
            continue;
        }
        if (!include.target.starts_with("engine/")) continue;
        const std::optional<std::string> from = folder_of(include.file.substr(7));
        const std::optional<std::string> to = folder_of(include.target.substr(7));
        if (!from || !to) {
            ADD_FAILURE() << include.file << " includes " << include.target << ": "
                          << (from ? include.target : include.file)
                          << " is in no folder of the layer table (tests/engine/LayersTest.cpp); give its folder a layer";
            continue;
        }
        if (*from == *to) continue;
        const int from_layer = layer_table().at(*from);
        const int to_layer = layer_table().at(*to);
        if (to_layer > from_layer) {
            ADD_FAILURE() << include.file << " includes " << include.target << ": " << *from << " (layer "
                          << from_layer << ") may not include " << *to << " (layer " << to_layer
                          << "), a higher layer";
            continue;
        }
        edges[*from].emplace(*to, include);
    }
    return edges;
}

// Adds a failure for each loop among the folders, naming an include for each step of it.
void check_no_loops(const FolderEdges& edges) {
    std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
    std::vector<std::string> path;
    std::function<void(const std::string&)> visit = [&](const std::string& folder) {
        state[folder] = 1;
        path.push_back(folder);
        if (const auto out = edges.find(folder); out != edges.end()) {
            for (const auto& [to, include] : out->second) {
                if (state[to] == 1) {
                    std::string loop;
                    bool in_loop = false;
                    for (std::size_t i = 0; i < path.size(); ++i) {
                        in_loop = in_loop || path[i] == to;
                        if (!in_loop) continue;
                        const std::string& next = i + 1 < path.size() ? path[i + 1] : to;
                        const Include& step = edges.at(path[i]).at(next);
                        loop += "\n  " + path[i] + " -> " + next + ": " + step.file + " includes " + step.target;
                    }
                    ADD_FAILURE() << "engine folders include each other in a loop:" << loop;
                } else if (state[to] == 0) {
                    visit(to);
                }
            }
        }
        path.pop_back();
        state[folder] = 2;
    };
    for (const auto& [folder, out] : edges)
        if (state[folder] == 0) visit(folder);
}

const fs::path kSourceDir = PINSCOPE_SOURCE_DIR;

TEST(Layers, IncludesAreReadAsWritten) {
    EXPECT_EQ(included_by("#include \"engine/device/Device.h\""), "engine/device/Device.h");
    EXPECT_EQ(included_by("  #  include   <QString>  // why"), "<QString>");
    EXPECT_EQ(included_by("#include \"engine/trace/Span.h\" // comment"), "engine/trace/Span.h");
    EXPECT_EQ(included_by("// #include \"ui/numa/NumaView.h\""), "");
    EXPECT_EQ(included_by("#pragma once"), "");
    EXPECT_EQ(included_by("#include \"unterminated"), "");
}

TEST(Layers, EveryEngineFolderHasALayerAndIncludesOnlyItsOwnAndLowerOnesWithoutLoops) {
    const std::vector<Include> includes = includes_under(kSourceDir, "engine");
    ASSERT_GT(includes.size(), 100u) << "read no engine sources under " << kSourceDir;
    for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "engine")) {
        if (!entry.is_regular_file() || entry.path().filename() == "CMakeLists.txt") continue;
        const std::string file = fs::relative(entry.path(), kSourceDir / "engine").generic_string();
        EXPECT_TRUE(folder_of(file)) << "engine/" << file << " is in no folder of the layer table; give its folder a layer";
    }
    check_no_loops(check_layers(includes));
}

TEST(Layers, TheDesktopUiDoesNotIncludeThePrograms) {
    if (!fs::exists(kSourceDir / "ui")) GTEST_SKIP() << "no ui/ in this source tree";
    for (const Include& include : includes_under(kSourceDir, "ui"))
        EXPECT_FALSE(include.target.starts_with("app/"))
            << include.file << " includes " << include.target << ": the UI is a library the programs (app/) use";
}

// The checks themselves, on made-up includes: an upward include and a loop within a layer fail.
TEST(Layers, AnUpwardIncludeAndALoopAreCaught) {
    ::testing::TestPartResultArray failures;
    {
        ::testing::ScopedFakeTestPartResultReporter reporter(
            ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
        check_no_loops(check_layers({
            {"engine/trace/Span.cpp", "engine/runner/Runner.h"},  // up from 2 to 7
            {"engine/memory/PinnedPool.h", "engine/numa/NumaPlan.h"},  // memory <-> numa, both layer 4
            {"engine/numa/NumaPlan.h", "engine/memory/PinnedPool.h"},
            {"engine/clock/SteadyClock.h", "ui/model/SpanStore.h"},
            {"engine/device/Device.h", "engine/clock/TimeNs.h"},  // down: fine
        }));
    }
    ASSERT_EQ(failures.size(), 3);
    EXPECT_NE(std::string(failures.GetTestPartResult(0).message()).find("engine/trace/Span.cpp includes engine/runner/Runner.h"),
              std::string::npos);
    EXPECT_NE(std::string(failures.GetTestPartResult(1).message()).find("ui/model/SpanStore.h"), std::string::npos);
    EXPECT_NE(std::string(failures.GetTestPartResult(2).message()).find("loop"), std::string::npos);
}

}  // namespace
}  // namespace pinscope
