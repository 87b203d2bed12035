// SPDX-License-Identifier: GPL-3.0-or-later
// pinscope-cli lesson list and check: the built-in lessons listed, a lesson's steps run here with
// each claim's verdict and measured numbers, exit 0 only when every claim held, and a lesson file
// that is not valid refused (exit 2) naming the file, the step and the field.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/cli/CliProcess.h"
#include "tests/cli/CliText.h"

namespace pinscope::test {
namespace {

TEST(CliLesson, ListsEveryBuiltInLessonWithItsStepsAndTitle) {
    const CliResult result = run_cli({"lesson", "list"});
    ASSERT_EQ(result.exit_code, 0) << result.err;
    for (const char* name : {"pageable-staging", "overlap", "pinning-cost", "pin-memory-no-workers", "workers-prefetch",
                             "numa-far-socket", "pinned-budget", "pin-thread", "caching-pool", "non-blocking-off",
                             "compute-bound"})
        EXPECT_NE(result.out.find(name), std::string::npos) << name << "\n" << result.out;
    EXPECT_NE(result.out.find("One pin thread for all the workers"), std::string::npos) << result.out;
    EXPECT_GE(count_of(result.out, " steps, "), 11u) << result.out;
}

TEST(CliLesson, CheckRunsEachStepAndExitsZeroOnlyWhenEveryClaimHeld) {
    // A short lesson of two quick steps: what matters here is the report, not the effect's size.
    TempDir dir;
    const std::string file = (dir.path() / "quick.json").string();
    std::ofstream(file) << R"({"format": 1, "title": "Quick", "learn": "The report.",
      "base": {"num_workers": 2, "pin_memory": true, "gpu_us_per_batch": 20000},
      "steps": [
        {"title": "compute-bound", "seconds": 1, "question": "What bounds it?", "choices": ["the GPU", "the host"], "answer": 1,
         "reveal": "{bottleneck}", "claims": [{"bottleneck": "compute"}]},
        {"title": "pageable", "set": {"pin_memory": false}, "seconds": 1, "question": "Slower?", "choices": ["no", "yes"],
         "answer": 1, "reveal": "{batches_per_s} against {batches_per_s@1}",
         "claims": [{"figure": "batches_per_s", "against_step": 1, "at_least": 0.5}, {"figure": "gpu_busy", "at_least": 2}]}
      ]})";
    CliRunOptions options;
    options.timeout = std::chrono::milliseconds(120000);
    const CliResult result = run_cli({"lesson", "check", file, "--device", "emulated", "--retries", "0"}, options);
    EXPECT_EQ(result.exit_code, 1) << "a GPU busy 200 % cannot hold: " << result.out << result.err;
    EXPECT_NE(result.out.find("step 1 compute-bound: batches/s "), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("step 2 pageable (pin_memory: on -> off): batches/s "), std::string::npos) << result.out;
    // Each claim with its measured figures (found by hand: GCC 12 warns inside std::regex under -O2).
    EXPECT_NE(result.out.find("FAIL  GPU busy is at least 200 %: "), std::string::npos) << result.out;
    const std::size_t rate = result.out.find("  batches/s falls by at most 50 % against step 1: ");
    ASSERT_NE(rate, std::string::npos) << result.out;
    EXPECT_TRUE(result.out.compare(rate - 4, 4, "pass") == 0 || result.out.compare(rate - 4, 4, "FAIL") == 0) << result.out;
    EXPECT_NE(result.out.find(" batches/s against ", rate), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("1 lesson, 0 passed, 1 failed: quick"), std::string::npos) << result.out;
}

TEST(CliLesson, ALessonFileThatIsNotValidIsRefusedNamingFileStepAndField) {
    TempDir dir;
    const std::string file = (dir.path() / "broken.json").string();
    std::ofstream(file) << R"({"format": 1, "title": "Broken", "learn": "x", "steps": [
        {"title": "a", "question": "q", "choices": ["a", "b"], "answer": 1, "reveal": "r", "claims": [{"bottleneck": "compute"}]},
        {"title": "b", "set": {"num_wrokers": 8}, "question": "q", "choices": ["a", "b"], "answer": 1, "reveal": "r",
         "claims": [{"bottleneck": "compute"}]}]})";
    const CliResult result = run_cli({"lesson", "check", file});
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_NE(result.err.find("broken.json, step 2, set.num_wrokers"), std::string::npos) << result.err;
    EXPECT_EQ(run_cli({"lesson", "check", "no-such-lesson"}).exit_code, 2);
    const CliResult scale = run_cli({"lesson", "check", "pin-thread", "--seconds-scale", "0"});
    EXPECT_EQ(scale.exit_code, 2);
    EXPECT_NE(scale.err.find("--seconds-scale"), std::string::npos) << scale.err;
}

}  // namespace
}  // namespace pinscope::test
