// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/ClaimCheck.h"

#include <cmath>

#include "engine/lesson/LessonFigures.h"
#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

std::string percent(double share) { return format_fixed(share * 100, 0) + " %"; }

std::string signed_percent(double ratio) { return format_signed_percent((ratio - 1) * 100, 0); }

// "rises by at least 20 %", "falls by at least 30 %", "rises by at most 5 %"...
std::string ratio_bound(double ratio, bool lower) {
    if (ratio >= 1) return std::string(lower ? "rises by at least " : "rises by at most ") + percent(ratio - 1);
    return std::string(lower ? "falls by at most " : "falls by at least ") + percent(1 - ratio);
}

std::string step_name(std::size_t index) { return "step " + std::to_string(index + 1); }

}  // namespace

std::string claim_statement(const Claim& claim) {
    switch (claim.kind) {
        case ClaimKind::Bottleneck: return "the bottleneck is " + std::string(describe(claim.resource));
        case ClaimKind::Refused: return "the configuration is refused before anything is locked, for " + claim.field;
        case ClaimKind::Ratio:
        case ClaimKind::Level: break;
    }
    const LessonFigure* figure = find_lesson_figure(claim.figure);
    const std::string label = figure ? figure->label : claim.figure;
    if (claim.kind == ClaimKind::Ratio) {
        const std::string against = " against " + step_name(claim.against);
        if (claim.within) return label + " stays within " + percent(*claim.within) + " of" + " " + step_name(claim.against) + "'s";
        std::string text = label + " ";
        if (claim.at_least) text += ratio_bound(*claim.at_least, true);
        if (claim.at_least && claim.at_most) text += " and ";
        if (claim.at_most) text += ratio_bound(*claim.at_most, false);
        return text + against;
    }
    std::string text = label + " is ";
    if (claim.at_least) text += "at least " + (figure ? figure_text(*figure, *claim.at_least) : format_shortest(*claim.at_least));
    if (claim.at_least && claim.at_most) text += " and ";
    if (claim.at_most) text += "at most " + (figure ? figure_text(*figure, *claim.at_most) : format_shortest(*claim.at_most));
    return text;
}

ClaimOutcome check_claim(const Claim& claim, std::size_t step, const std::vector<StepResult>& results) {
    ClaimOutcome outcome;
    outcome.statement = claim_statement(claim);
    if (step >= results.size()) {
        outcome.measured = "this step has not run";
        return outcome;
    }
    const StepResult& result = results[step];
    if (claim.kind == ClaimKind::Refused) {
        outcome.holds = !result.ran && !result.refused.empty();
        outcome.measured = result.ran ? "it ran" : result.refused.empty() ? "it has not run" : "refused: " + result.refused;
        return outcome;
    }
    if (!result.ran) {
        outcome.measured = !result.refused.empty()        ? "it did not run: " + result.refused
                           : !result.summary.error.empty() ? "the run failed: " + result.summary.error
                                                           : "this step has not run";
        return outcome;
    }
    if (claim.kind == ClaimKind::Bottleneck) {
        const Bottleneck& b = result.window_bottleneck;
        outcome.holds = b.resource == claim.resource;
        outcome.measured = std::string(describe(b.resource)) + " (busy " + percent(b.utilisation) + ")";
        return outcome;
    }
    const LessonFigure* figure = find_lesson_figure(claim.figure);
    if (figure == nullptr) {
        outcome.measured = "no such figure";
        return outcome;
    }
    const auto value = figure_value(*figure, result);
    if (!value) {
        outcome.measured = "this run has no " + figure->label;
        return outcome;
    }
    if (claim.kind == ClaimKind::Level) {
        outcome.measured = figure_text(*figure, *value);
        outcome.holds = (!claim.at_least || *value >= *claim.at_least) && (!claim.at_most || *value <= *claim.at_most);
        return outcome;
    }
    const auto other = claim.against < results.size() ? figure_value(*figure, results[claim.against]) : std::nullopt;
    if (!other) {
        outcome.measured = figure_text(*figure, *value) + "; " + step_name(claim.against) + " has not run";
        return outcome;
    }
    outcome.measured = figure_text(*figure, *value) + " against " + figure_text(*figure, *other);
    if (*other <= 0) {
        outcome.measured += " (no ratio to a zero)";
        return outcome;
    }
    const double ratio = *value / *other;
    outcome.measured += " (" + signed_percent(ratio) + ")";
    outcome.holds = claim.within ? std::abs(ratio - 1) <= *claim.within
                                 : (!claim.at_least || ratio >= *claim.at_least) && (!claim.at_most || ratio <= *claim.at_most);
    return outcome;
}

std::vector<ClaimOutcome> check_step(const Lesson& lesson, std::size_t step, const std::vector<StepResult>& results) {
    std::vector<ClaimOutcome> outcomes;
    if (step >= lesson.steps.size()) return outcomes;
    for (const Claim& claim : lesson.steps[step].claims) outcomes.push_back(check_claim(claim, step, results));
    return outcomes;
}

std::string lag_note(const StepResult& result) {
    if (!result.ran || result.summary.model_lag <= kModelLagNoted) return {};
    return "This machine fell behind the modelled host by " + format_fixed(result.summary.model_lag * 100, 1) +
           " % of the run, so its figures are lower than the profile predicts.";
}

std::string absent_text(const LessonStep& step, const StepResult& result, const std::vector<ClaimOutcome>& outcomes) {
    std::string missed;
    for (const ClaimOutcome& outcome : outcomes)
        if (!outcome.holds) missed += (missed.empty() ? "" : "; ") + outcome.statement + " (measured: " + outcome.measured + ")";
    if (missed.empty()) return {};
    std::string text = "This run did not show it: " + missed + ".";
    if (result.ran && !result.window_bottleneck.evidence.empty()) text += " Why: " + result.window_bottleneck.evidence;
    if (!step.absent.empty()) text += " " + step.absent;
    if (const std::string lag = lag_note(result); !lag.empty()) text += " " + lag;
    return text;
}

}  // namespace pinscope
