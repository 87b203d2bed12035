// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files: the built-in ones load, and a file that is not a valid lesson is refused with a
// message that names the file, the step and the field.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

#include "engine/config/ConfigValidation.h"
#include "engine/lesson/LessonLoader.h"

namespace pinscope {
namespace {

using nlohmann::json;

json two_steps() {
    return json::parse(R"({
      "format": 1,
      "title": "Pinning",
      "learn": "What pin_memory does.",
      "base": {"num_workers": 4, "pin_memory": false, "gpu_us_per_batch": 2000},
      "steps": [
        {"title": "pageable", "question": "Who waits?", "choices": ["a", "b"], "answer": 2,
         "reveal": "{batches_per_s}: {bottleneck}", "claims": [{"bottleneck": "pageable_staging"}]},
        {"title": "pinned", "set": {"pin_memory": true}, "seconds": 2, "question": "Faster?", "choices": ["yes", "no"],
         "answer": 1, "reveal": "{batches_per_s} against {batches_per_s@1}",
         "highlight": {"lanes": ["pin thread"], "plots": ["throughput"], "numbers": ["batches_per_s"]},
         "claims": [{"figure": "batches_per_s", "against_step": 1, "at_least": 1.2}]}
      ]
    })");
}

// The refusal of `lesson` once `edit` has broken it.
LessonError refusal(const std::function<void(json&)>& edit) {
    json lesson = two_steps();
    edit(lesson);
    try {
        parse_lesson(lesson.dump(), "my-lesson.json", "my-lesson");
    } catch (const LessonError& error) {
        return error;
    }
    ADD_FAILURE() << "accepted: " << lesson.dump();
    return LessonError("", 0, "", "");
}

TEST(LessonFile, AValidFileGivesEachStepItsWholeConfiguration) {
    const Lesson lesson = parse_lesson(two_steps().dump(), "my-lesson.json", "my-lesson");
    ASSERT_EQ(lesson.steps.size(), 2u);
    EXPECT_EQ(lesson.title, "Pinning");
    EXPECT_FALSE(lesson.steps[0].config.pin_memory);
    EXPECT_TRUE(lesson.steps[1].config.pin_memory);
    EXPECT_EQ(lesson.steps[1].config.num_workers, 4u) << "a step keeps what it does not change";
    EXPECT_EQ(lesson.steps[1].changes, std::vector<std::string>{"pin_memory: off -> on"});
    EXPECT_EQ(lesson.steps[0].config.seconds, 3.0) << "the default length";
    EXPECT_EQ(lesson.steps[1].config.seconds, 2.0);
    EXPECT_EQ(lesson.steps[0].answer, 1u) << "answers are numbered from 1 in the file";
    EXPECT_EQ(lesson.steps[1].claims[0].kind, ClaimKind::Ratio);
    EXPECT_EQ(lesson.steps[1].claims[0].against, 0u);
    EXPECT_EQ(lesson.steps[1].highlight.lanes, std::vector<std::string>{"pin thread"});
}

TEST(LessonFile, RefusalNamesFileStepAndField) {
    struct Case {
        const char* what;
        std::function<void(json&)> edit;
        std::size_t step;
        std::string field;
    };
    const Case cases[] = {
        {"an unknown configuration key", [](json& l) { l["steps"][1]["set"] = {{"pin_memroy", true}}; }, 2, "set.pin_memroy"},
        {"a value out of range", [](json& l) { l["steps"][1]["set"] = {{"num_workers", 1000}}; }, 2, "set.num_workers"},
        {"a base value of the wrong type", [](json& l) { l["base"]["pin_memory"] = "yes"; }, 0, "base.pin_memory"},
        {"an answer beyond the choices", [](json& l) { l["steps"][0]["answer"] = 3; }, 1, "answer"},
        {"one choice", [](json& l) { l["steps"][0]["choices"] = {"only"}; }, 1, "choices"},
        {"no claims", [](json& l) { l["steps"][1].erase("claims"); }, 2, "claims"},
        {"an unknown figure", [](json& l) { l["steps"][1]["claims"][0]["figure"] = "speed"; }, 2, "claims[1].figure"},
        {"a later step to compare with", [](json& l) { l["steps"][1]["claims"][0]["against_step"] = 2; }, 2,
         "claims[1].against_step"},
        {"an unknown bottleneck", [](json& l) { l["steps"][0]["claims"][0]["bottleneck"] = "gpu"; }, 1, "claims[1].bottleneck"},
        {"a claim without bounds", [](json& l) { l["steps"][1]["claims"][0].erase("at_least"); }, 2, "claims[1]"},
        {"an unknown lane", [](json& l) { l["steps"][1]["highlight"]["lanes"] = {"gpu"}; }, 2, "highlight.lanes[1]"},
        {"an unknown placeholder", [](json& l) { l["steps"][0]["reveal"] = "{speed}"; }, 1, "reveal"},
        {"a placeholder of a later step", [](json& l) { l["steps"][0]["reveal"] = "{batches_per_s@2}"; }, 1, "reveal"},
        {"a run length in the configuration", [](json& l) { l["steps"][1]["set"] = {{"seconds", 5}}; }, 2, "set.seconds"},
        {"an unknown step key", [](json& l) { l["steps"][1]["questoin"] = "x"; }, 2, "questoin"},
        {"no title", [](json& l) { l.erase("title"); }, 0, "title"},
        {"another format", [](json& l) { l["format"] = 2; }, 0, "format"},
        {"a refusal claimed of a valid step", [](json& l) { l["steps"][1]["claims"] = {{{"refused", "pinned_budget_bytes"}}}; },
         2, "claims"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const LessonError error = refusal(c.edit);
        EXPECT_EQ(error.file(), "my-lesson.json");
        EXPECT_EQ(error.step(), c.step);
        EXPECT_EQ(error.field(), c.field);
        const std::string text = error.what();
        EXPECT_NE(text.find("my-lesson.json"), std::string::npos) << text;
        if (c.step > 0) {
            EXPECT_NE(text.find("step " + std::to_string(c.step)), std::string::npos) << text;
        }
        EXPECT_NE(text.find(c.field), std::string::npos) << text;
    }
}

TEST(LessonFile, AStepMayClaimItsConfigurationIsRefusedForTheNamedField) {
    json lesson = two_steps();
    lesson["steps"][1]["set"] = {{"pin_memory", true}, {"pinned_budget_bytes", 16 << 20}};
    lesson["steps"][1]["claims"] = {{{"refused", "pinned_budget_bytes"}}};
    const Lesson parsed = parse_lesson(lesson.dump(), "budget.json", "budget");
    EXPECT_TRUE(parsed.steps[1].refused());
    EXPECT_FALSE(find_config_issues(parsed.steps[1].config).empty());

    lesson["steps"][1]["claims"] = {{{"refused", "num_workers"}}};
    EXPECT_THROW(parse_lesson(lesson.dump(), "budget.json", "budget"), LessonError) << "refused for another field";
}

TEST(LessonFile, NotJsonOrMissingFileIsRefusedNamingIt) {
    try {
        parse_lesson("{\"format\": 1,", "broken.json", "broken");
        ADD_FAILURE() << "accepted";
    } catch (const LessonError& error) {
        EXPECT_NE(std::string(error.what()).find("broken.json"), std::string::npos) << error.what();
    }
    try {
        load_lesson("/nonexistent/lesson.json");
        ADD_FAILURE() << "accepted";
    } catch (const LessonError& error) {
        const std::string text = error.what();
        EXPECT_NE(text.find("/nonexistent/lesson.json"), std::string::npos) << text;
        EXPECT_NE(text.find("pin-thread"), std::string::npos) << "names the built-in lessons: " << text;
    }
}

TEST(LessonFile, BuiltInLessonsLoadInTeachingOrderAndCoverTheMaterial) {
    const std::vector<std::string> names = builtin_lesson_names();
    ASSERT_GE(names.size(), 10u);
    EXPECT_EQ(names.front(), "pageable-staging");
    for (const char* needed : {"pageable-staging", "overlap", "pinning-cost", "pin-memory-no-workers", "workers-prefetch",
                               "numa-far-socket", "pinned-budget", "pin-thread", "caching-pool", "non-blocking-off",
                               "compute-bound"})
        EXPECT_NE(std::find(names.begin(), names.end(), needed), names.end()) << needed;
    for (const Lesson& lesson : builtin_lessons()) {
        SCOPED_TRACE(lesson.name);
        EXPECT_GE(lesson.steps.size(), 2u);
        EXPECT_FALSE(lesson.learn.empty());
        for (const LessonStep& step : lesson.steps) EXPECT_FALSE(step.claims.empty());
    }
}

TEST(LessonFile, DeviceComesFromTheOptionsUnlessTheLessonFixesIt) {
    LessonOptions options;
    options.device = "emulated:h100-pcie5";
    EXPECT_EQ(load_lesson("pin-thread", options).steps[0].config.device, "emulated:h100-pcie5");
    const Lesson numa = load_lesson("numa-far-socket", options);
    EXPECT_TRUE(numa.device_fixed);
    EXPECT_EQ(numa.steps[0].config.device, "emulated");
}

}  // namespace
}  // namespace pinscope
