// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/LessonText.h"

#include <charconv>
#include <optional>
#include <string_view>

#include "engine/lesson/LessonFigures.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {
namespace {

constexpr std::string_view kWords[] = {"bottleneck", "bound", "changes"};

struct Placeholder {
    std::string name;
    std::optional<std::size_t> step;  // from 1, as written
};

std::optional<Placeholder> parse(std::string_view inside) {
    Placeholder p;
    const std::size_t at = inside.find('@');
    p.name = std::string(inside.substr(0, at));
    if (at != std::string_view::npos) {
        const std::string_view digits = inside.substr(at + 1);
        std::size_t step = 0;
        const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), step);
        if (error != std::errc() || end != digits.data() + digits.size() || step == 0) return std::nullopt;
        p.step = step;
    }
    return p;
}

bool is_word(const std::string& name) {
    for (std::string_view word : kWords)
        if (name == word) return true;
    return false;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string text;
    for (const std::string& line : lines) text += (text.empty() ? "" : "; ") + line;
    return text;
}

// Calls `each(inside)` for every {...}, and `literal(text)` for the text between them.
template <typename Each, typename Literal>
std::string scan(const std::string& text, Each each, Literal literal) {
    std::string out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find('{', pos);
        if (open == std::string::npos) break;
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        out += literal(text.substr(pos, open - pos));
        out += each(std::string_view(text).substr(open + 1, close - open - 1));
        pos = close + 1;
    }
    out += literal(text.substr(pos));
    return out;
}

}  // namespace

std::string check_placeholders(const std::string& text, std::size_t step) {
    std::string problem;
    scan(
        text,
        [&](std::string_view inside) {
            if (!problem.empty()) return std::string();
            const auto p = parse(inside);
            if (!p || (!is_word(p->name) && find_lesson_figure(p->name) == nullptr))
                problem = "{" + printable(inside) + "} is not a placeholder: write {FIGURE} or {FIGURE@STEP} with a figure (" +
                          lesson_figure_names() + ") or bottleneck, bound or changes";
            else if (p->step && *p->step > step)
                problem = "{" + printable(inside) + "} names step " + std::to_string(*p->step) + ", which comes after this one";
            return std::string();
        },
        [](const std::string&) { return std::string(); });
    return problem;
}

std::string fill_placeholders(const std::string& text, const Lesson& lesson, std::size_t step,
                              const std::vector<StepResult>& results) {
    return scan(
        text,
        [&](std::string_view inside) -> std::string {
            const auto p = parse(inside);
            if (!p) return "{" + std::string(inside) + "}";
            const std::size_t index = p->step ? *p->step - 1 : step;
            if (p->name == "changes") return index < lesson.steps.size() ? joined(lesson.steps[index].changes) : "";
            if (index >= results.size() || !results[index].ran) return "(not run)";
            const StepResult& result = results[index];
            if (p->name == "bottleneck") return result.window_bottleneck.evidence;
            if (p->name == "bound") return std::string(describe(result.window_bottleneck.resource));
            const LessonFigure* figure = find_lesson_figure(p->name);
            if (figure == nullptr) return "{" + std::string(inside) + "}";
            const auto value = figure_value(*figure, result);
            return value ? figure_text(*figure, *value) : "(none)";
        },
        [](const std::string& literal) { return literal; });
}

}  // namespace pinscope
