// SPDX-License-Identifier: GPL-3.0-or-later
// A lesson's claims checked on made-up step results, the answer's numbers filled in from them, and
// stepping through a lesson.
#include <gtest/gtest.h>

#include "engine/lesson/ClaimCheck.h"
#include "engine/lesson/LessonLoader.h"
#include "engine/lesson/LessonSession.h"
#include "engine/lesson/LessonText.h"

namespace pinscope {
namespace {

StepResult ran(double batches_per_s, Resource bound = Resource::PinThread, double busy = 0.99) {
    StepResult result;
    result.ran = true;
    result.window.batches_per_s = batches_per_s;
    result.window.host_held = 0.05;
    result.window_bottleneck.resource = bound;
    result.window_bottleneck.utilisation = busy;
    result.window_bottleneck.evidence = "Bound by " + std::string(describe(bound)) + ".";
    ResourceUse use;
    use.resource = bound;
    use.utilisation = busy;
    result.window_bottleneck.resources.push_back(use);
    return result;
}

Claim ratio(double at_least) {
    Claim claim;
    claim.kind = ClaimKind::Ratio;
    claim.figure = "batches_per_s";
    claim.against = 0;
    claim.at_least = at_least;
    return claim;
}

TEST(LessonClaim, RatioHoldsOnlyAtOrAboveItsBound) {
    const std::vector<StepResult> results{ran(300), ran(390)};
    const ClaimOutcome holds = check_claim(ratio(1.2), 1, results);
    EXPECT_TRUE(holds.holds) << holds.measured;
    EXPECT_EQ(holds.statement, "batches/s rises by at least 20 % against step 1");
    EXPECT_EQ(holds.measured, "390 batches/s against 300 batches/s (+30 %)");
    const ClaimOutcome misses = check_claim(ratio(1.35), 1, results);
    EXPECT_FALSE(misses.holds);
}

TEST(LessonClaim, FallsAndWithinAreStatedAndChecked) {
    Claim falls = ratio(0);
    falls.at_least.reset();
    falls.at_most = 0.8;
    EXPECT_EQ(claim_statement(falls), "batches/s falls by at least 20 % against step 1");
    EXPECT_TRUE(check_claim(falls, 1, {ran(300), ran(200)}).holds);
    EXPECT_FALSE(check_claim(falls, 1, {ran(300), ran(250)}).holds);

    Claim within = falls;
    within.at_most.reset();
    within.within = 0.05;
    EXPECT_EQ(claim_statement(within), "batches/s stays within 5 % of step 1's");
    EXPECT_TRUE(check_claim(within, 1, {ran(300), ran(310)}).holds);
    EXPECT_FALSE(check_claim(within, 1, {ran(300), ran(320)}).holds);
}

TEST(LessonClaim, LevelBottleneckAndBusyShare) {
    Claim level;
    level.kind = ClaimKind::Level;
    level.figure = "busy.pin_thread";
    level.at_least = 0.9;
    EXPECT_EQ(claim_statement(level), "pin thread busy is at least 90 %");
    EXPECT_TRUE(check_claim(level, 0, {ran(300, Resource::PinThread, 0.95)}).holds);
    EXPECT_FALSE(check_claim(level, 0, {ran(300, Resource::PinThread, 0.85)}).holds);
    EXPECT_FALSE(check_claim(level, 0, {ran(300, Resource::Compute, 0.95)}).holds) << "no pin thread in that run";

    Claim bound;
    bound.kind = ClaimKind::Bottleneck;
    bound.resource = Resource::PinThread;
    EXPECT_TRUE(check_claim(bound, 0, {ran(300)}).holds);
    const ClaimOutcome other = check_claim(bound, 0, {ran(300, Resource::CopyEngine, 0.97)});
    EXPECT_FALSE(other.holds);
    EXPECT_EQ(other.measured, "the copy engine (busy 97 %)");
}

TEST(LessonClaim, AStepThatDidNotRunFailsItsClaimsSayingWhy) {
    StepResult refused;
    refused.refused = "pinned_budget_bytes: too small";
    const ClaimOutcome outcome = check_claim(ratio(1.2), 1, {ran(300), refused});
    EXPECT_FALSE(outcome.holds);
    EXPECT_NE(outcome.measured.find("pinned_budget_bytes"), std::string::npos) << outcome.measured;
    EXPECT_FALSE(check_claim(ratio(1.2), 1, {StepResult{}, ran(400)}).holds) << "step 1 has not run";

    Claim refusal;
    refusal.kind = ClaimKind::Refused;
    refusal.field = "pinned_budget_bytes";
    EXPECT_TRUE(check_claim(refusal, 0, {refused}).holds);
    EXPECT_FALSE(check_claim(refusal, 0, {ran(300)}).holds) << "it ran";
}

TEST(LessonClaim, AbsentTextSaysWhatDidNotShowAndWhy) {
    LessonStep step;
    step.absent = "A GPU without a separate copy engine shows none of it.";
    const StepResult result = ran(300, Resource::Compute);
    const std::vector<ClaimOutcome> outcomes{check_claim(ratio(1.2), 1, {ran(300), result})};
    const std::string text = absent_text(step, result, outcomes);
    EXPECT_NE(text.find("did not show"), std::string::npos) << text;
    EXPECT_NE(text.find("rises by at least 20 %"), std::string::npos) << text;
    EXPECT_NE(text.find("Bound by the GPU's kernels."), std::string::npos) << text;
    EXPECT_NE(text.find(step.absent), std::string::npos) << text;
    EXPECT_TRUE(absent_text(step, ran(400), {check_claim(ratio(1.2), 1, {ran(300), ran(400)})}).empty());
}

TEST(LessonText, PlaceholdersAreFilledFromEachStepsRun) {
    Lesson lesson;
    lesson.steps.resize(2);
    lesson.steps[1].changes = {"pin_memory: off -> on"};
    const std::vector<StepResult> results{ran(300), ran(412.4)};
    EXPECT_EQ(fill_placeholders("{batches_per_s} against {batches_per_s@1} ({changes}); held {host_held}. {bottleneck}",
                                lesson, 1, results),
              "412 batches/s against 300 batches/s (pin_memory: off -> on); held 5 %. Bound by the pin thread.");
    EXPECT_EQ(fill_placeholders("{bound}", lesson, 1, results), "the pin thread");
    EXPECT_EQ(fill_placeholders("{batches_per_s@2}", lesson, 1, {ran(300)}), "(not run)");
    EXPECT_TRUE(check_placeholders("{batches_per_s@1} {bottleneck} {busy.pin_thread}", 1).empty());
    EXPECT_FALSE(check_placeholders("{batches_per_s@0}", 1).empty());
}

TEST(LessonSessionTest, StepsForwardAndBackKeepingEachStepsResult) {
    LessonSession session(load_lesson("pin-thread"));
    ASSERT_EQ(session.lesson().steps.size(), 3u);
    EXPECT_EQ(session.step(), 0u);
    EXPECT_FALSE(session.can_back());
    EXPECT_EQ(session.phase(), LessonSession::Phase::Asking);
    session.started();
    EXPECT_EQ(session.phase(), LessonSession::Phase::Running);
    session.finished(ran(400, Resource::PinThread, 0.99));
    EXPECT_EQ(session.phase(), LessonSession::Phase::Revealed);
    EXPECT_TRUE(session.reveal_of(0).ran);

    session.next();
    EXPECT_EQ(session.step(), 1u);
    EXPECT_EQ(session.phase(), LessonSession::Phase::Asking) << "a new step starts with its question";
    EXPECT_FALSE(session.reveal_of(1).ran);
    session.finished(ran(404, Resource::PinThread, 0.99));
    const StepReveal reveal = session.reveal_of(1);
    ASSERT_EQ(reveal.outcomes.size(), session.lesson().steps[1].claims.size());
    EXPECT_NE(reveal.answer.find("404 batches/s against 400 batches/s"), std::string::npos) << reveal.answer;
    EXPECT_EQ(reveal.right_choice.substr(0, 3), "2. ");

    session.back();
    EXPECT_EQ(session.step(), 0u);
    EXPECT_TRUE(session.has_result(0)) << "going back keeps the result";
    session.next();
    session.next();
    EXPECT_EQ(session.step(), 2u);
    EXPECT_FALSE(session.can_next());
    session.next();
    EXPECT_EQ(session.step(), 2u);
    EXPECT_EQ(session.steps_with_results(), (std::vector<std::size_t>{0, 1}));
}

}  // namespace
}  // namespace pinscope
