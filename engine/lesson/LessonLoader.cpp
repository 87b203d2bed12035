// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/lesson/LessonLoader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/config/ConfigError.h"
#include "engine/config/ConfigFields.h"
#include "engine/config/ConfigJson.h"
#include "engine/config/ConfigValidation.h"
#include "engine/config/JsonInput.h"
#include "engine/files/InputFile.h"
#include "engine/lesson/EmbeddedLessons.h"
#include "engine/lesson/LessonFigures.h"
#include "engine/lesson/LessonText.h"
#include "engine/lesson/LessonViews.h"
#include "engine/text/TextFormat.h"
#include "engine/text/UntrustedText.h"

namespace pinscope {

using nlohmann::json;

namespace {

constexpr int kFormat = 1;
constexpr double kDefaultSeconds = 3;
constexpr double kMaxSeconds = 600;
constexpr std::size_t kMaxSteps = 50;
constexpr std::size_t kMaxChoices = 8;
constexpr int kDefaultOrder = 1000;

std::string message(const std::string& file, std::size_t step, const std::string& field, const std::string& problem) {
    std::string where = "lesson " + printable_path(file);
    if (step > 0) where += ", step " + std::to_string(step);
    if (!field.empty()) where += ", " + printable(field);
    return where + ": " + problem;
}

// Reads one lesson, saying where each problem is.
class Reader {
public:
    Reader(std::string file, const LessonOptions& options) : file_(std::move(file)), options_(options) {}

    Lesson read(const json& root, const std::string& name) {
        if (!root.is_object()) fail("", std::string("a JSON object at the top level, not ") + root.type_name());
        only_keys(root, "", {"format", "title", "learn", "order", "base", "steps"});
        if (!root.contains("format") || !root.at("format").is_number_integer() || root.at("format").get<std::int64_t>() != kFormat)
            fail("format", "\"format\": " + std::to_string(kFormat) + " (this pinscope reads lesson format " +
                               std::to_string(kFormat) + ")");
        Lesson lesson;
        lesson.name = name;
        lesson.file = file_;
        lesson.title = text(root, "title", "");
        lesson.learn = text(root, "learn", "");
        if (root.contains("order") && !root.at("order").is_number_integer()) fail("order", "a whole number");
        LoaderConfig base;
        base.device = options_.device;
        if (root.contains("base")) {
            const json& object = root.at("base");
            lesson.device_fixed = object.is_object() && object.contains("device");
            base = config(object, base, "base");
        }
        if (!root.contains("steps") || !root.at("steps").is_array() || root.at("steps").empty() ||
            root.at("steps").size() > kMaxSteps)
            fail("steps", "a list of 1 to " + std::to_string(kMaxSteps) + " steps");
        LoaderConfig previous = base;
        for (const json& object : root.at("steps")) {
            step_ = lesson.steps.size() + 1;
            LessonStep step = read_step(object, previous, lesson.steps);
            previous = step.config;
            lesson.steps.push_back(std::move(step));
        }
        return lesson;
    }

    [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
        throw LessonError(file_, step_, field, problem);
    }

private:
    LessonStep read_step(const json& object, const LoaderConfig& previous, const std::vector<LessonStep>& earlier) {
        if (!object.is_object()) fail("", "a JSON object for the step");
        only_keys(object, "", {"title", "set", "seconds", "question", "choices", "answer", "reveal", "absent", "highlight", "claims"});
        LessonStep step;
        step.title = text(object, "title", "");
        step.config = object.contains("set") ? config(object.at("set"), previous, "set") : previous;
        step.changes = earlier.empty() ? std::vector<std::string>{} : describe_changes(previous, step.config);
        step.seconds = kDefaultSeconds;
        if (object.contains("seconds")) {
            const json& seconds = object.at("seconds");
            if (!seconds.is_number() || !(seconds.get<double>() > 0) || seconds.get<double>() > kMaxSeconds)
                fail("seconds", "a number of seconds above 0 and at most " + format_shortest(kMaxSeconds));
            step.seconds = seconds.get<double>();
        }
        step.config.seconds = step.seconds;
        step.config.batches.reset();
        step.question = text(object, "question", "");
        if (!object.contains("choices") || !object.at("choices").is_array() || object.at("choices").size() < 2 ||
            object.at("choices").size() > kMaxChoices)
            fail("choices", "a list of 2 to " + std::to_string(kMaxChoices) + " answers to choose from");
        for (std::size_t i = 0; i < object.at("choices").size(); ++i) {
            const json& choice = object.at("choices")[i];
            if (!choice.is_string() || choice.get<std::string>().empty())
                fail("choices[" + std::to_string(i + 1) + "]", "a non-empty string");
            step.choices.push_back(choice.get<std::string>());
        }
        if (!object.contains("answer") || !object.at("answer").is_number_integer() || object.at("answer").get<std::int64_t>() < 1 ||
            object.at("answer").get<std::int64_t>() > static_cast<std::int64_t>(step.choices.size()))
            fail("answer", "the right choice's number, from 1 to " + std::to_string(step.choices.size()));
        step.answer = static_cast<std::size_t>(object.at("answer").get<std::int64_t>() - 1);
        step.reveal = text(object, "reveal", "");
        if (const std::string problem = check_placeholders(step.reveal, step_); !problem.empty()) fail("reveal", problem);
        if (object.contains("absent")) step.absent = text(object, "absent", "");
        if (object.contains("highlight")) step.highlight = highlight(object.at("highlight"));
        if (!object.contains("claims") || !object.at("claims").is_array() || object.at("claims").empty())
            fail("claims", "a list of at least one claim that this step's run checks");
        for (std::size_t i = 0; i < object.at("claims").size(); ++i)
            step.claims.push_back(claim(object.at("claims")[i], "claims[" + std::to_string(i + 1) + "]", earlier));
        check_refusal(step, object);
        return step;
    }

    // A step runs a valid configuration, unless it claims to be refused, naming a field.
    void check_refusal(const LessonStep& step, const json& object) const {
        const std::vector<ConfigIssue> issues = find_config_issues(step.config);
        // Named where the lesson set it: this step's "set", else the base (a later step inherits it).
        const auto where = [&](const std::string& field) {
            if (object.contains("set") && object.at("set").contains(field)) return "set." + field;
            return step_ == 1 ? "base." + field : field;
        };
        const auto refused = std::find_if(step.claims.begin(), step.claims.end(),
                                          [](const Claim& c) { return c.kind == ClaimKind::Refused; });
        if (refused == step.claims.end()) {
            if (!issues.empty()) fail(where(issues.front().field), "the step's configuration is refused: " + issues.front().message());
            return;
        }
        if (step.claims.size() > 1) fail("claims", "a step that is refused claims nothing else (it does not run)");
        if (issues.empty()) fail("claims", "the step's configuration is valid, so it is not refused as claimed");
        if (issues.front().field != refused->field)
            fail("claims", "the step is refused for " + issues.front().field + ", not " + refused->field + ": " +
                               issues.front().message());
    }

    LoaderConfig config(const json& object, const LoaderConfig& from, const std::string& key) const {
        if (!object.is_object()) fail(key, "a JSON object of configuration keys (ConfigFields: docs/lessons.md)");
        for (const auto& [name, value] : object.items())
            if (name == "seconds" || name == "batches")
                fail(key + "." + name, "the step's \"seconds\" sets the run's length, not the configuration");
        try {
            return config_from_json(object, from);
        } catch (const ConfigError& error) {
            fail(key + "." + error.issue().field, error.issue().message());
        }
    }

    Highlight highlight(const json& object) const {
        if (!object.is_object()) fail("highlight", "an object of lanes, plots and numbers");
        only_keys(object, "highlight.", {"lanes", "plots", "numbers"});
        Highlight result;
        result.lanes = names(object, "lanes", [](const std::string& n) {
            return std::find(kLessonLanes.begin(), kLessonLanes.end(), n) != kLessonLanes.end();
        }, joined(kLessonLanes));
        result.plots = names(object, "plots", [](const std::string& n) {
            return std::find(kLessonPlots.begin(), kLessonPlots.end(), n) != kLessonPlots.end();
        }, joined(kLessonPlots));
        result.numbers = names(object, "numbers", [](const std::string& n) { return find_lesson_figure(n) != nullptr; },
                               lesson_figure_names());
        return result;
    }

    template <typename Known>
    std::vector<std::string> names(const json& object, const std::string& key, Known known, const std::string& allowed) const {
        std::vector<std::string> result;
        if (!object.contains(key)) return result;
        const json& list = object.at(key);
        if (!list.is_array()) fail("highlight." + key, "a list of names: " + allowed);
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string field = "highlight." + key + "[" + std::to_string(i + 1) + "]";
            if (!list[i].is_string() || !known(list[i].get<std::string>()))
                fail(field, config_detail::json_value_text(list[i]) + " is not one of: " + allowed);
            result.push_back(list[i].get<std::string>());
        }
        return result;
    }

    Claim claim(const json& object, const std::string& key, const std::vector<LessonStep>& earlier) const {
        if (!object.is_object()) fail(key, "a claim object (docs/lessons.md)");
        Claim c;
        if (object.contains("bottleneck")) {
            only_keys(object, key + ".", {"bottleneck"});
            c.kind = ClaimKind::Bottleneck;
            const json& value = object.at("bottleneck");
            c.resource = Resource::None;
            for (int r = 1; r <= static_cast<int>(Resource::PinnedBudget); ++r)
                if (value.is_string() && to_string(static_cast<Resource>(r)) == value.get<std::string>())
                    c.resource = static_cast<Resource>(r);
            if (c.resource == Resource::None) fail(key + ".bottleneck", "one of: " + resource_names());
            return c;
        }
        if (object.contains("refused")) {
            only_keys(object, key + ".", {"refused"});
            c.kind = ClaimKind::Refused;
            const json& value = object.at("refused");
            if (!value.is_string() || find_config_field(value.get<std::string>()) == nullptr)
                fail(key + ".refused", "the configuration key the refusal names, such as pinned_budget_bytes");
            c.field = value.get<std::string>();
            return c;
        }
        only_keys(object, key + ".", {"figure", "against_step", "at_least", "at_most", "within"});
        if (!object.contains("figure") || !object.at("figure").is_string() ||
            find_lesson_figure(object.at("figure").get<std::string>()) == nullptr)
            fail(key + ".figure", "one of: " + lesson_figure_names() + " (or a claim of \"bottleneck\" or \"refused\")");
        c.figure = object.at("figure").get<std::string>();
        c.kind = object.contains("against_step") ? ClaimKind::Ratio : ClaimKind::Level;
        if (c.kind == ClaimKind::Ratio) {
            const json& step = object.at("against_step");
            if (!step.is_number_integer() || step.get<std::int64_t>() < 1 ||
                step.get<std::int64_t>() > static_cast<std::int64_t>(earlier.size()))
                fail(key + ".against_step", earlier.empty() ? "an earlier step, and the first step has none"
                                                              : "an earlier step, from 1 to " + std::to_string(earlier.size()));
            c.against = static_cast<std::size_t>(step.get<std::int64_t>() - 1);
            if (earlier[c.against].refused()) fail(key + ".against_step", "a step that runs (that one is refused)");
        }
        c.at_least = bound(object, "at_least", key);
        c.at_most = bound(object, "at_most", key);
        c.within = bound(object, "within", key);
        if (c.kind == ClaimKind::Level && c.within) fail(key + ".within", "only with against_step: the share a ratio stays within of 1");
        if (!c.at_least && !c.at_most && !c.within) fail(key, "at_least, at_most or within: what the claim expects");
        if (c.within && (c.at_least || c.at_most)) fail(key + ".within", "either within, or at_least and at_most, not both");
        if (c.at_least && c.at_most && *c.at_least > *c.at_most) fail(key + ".at_most", "at least at_least");
        return c;
    }

    std::optional<double> bound(const json& object, const std::string& name, const std::string& key) const {
        if (!object.contains(name)) return std::nullopt;
        const json& value = object.at(name);
        if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0)
            fail(key + "." + name, "a number from 0 (a ratio, a share such as 0.8, or a value in the figure's base unit)");
        return value.get<double>();
    }

    std::string text(const json& object, const std::string& key, const std::string& prefix) const {
        if (!object.contains(key) || !object.at(key).is_string() || object.at(key).get<std::string>().empty())
            fail(prefix + key, "a non-empty string");
        return object.at(key).get<std::string>();
    }

    void only_keys(const json& object, const std::string& prefix, std::initializer_list<std::string_view> keys) const {
        for (const auto& [name, value] : object.items())
            if (std::find(keys.begin(), keys.end(), name) == keys.end()) {
                std::string allowed;
                for (std::string_view k : keys) allowed += (allowed.empty() ? "" : ", ") + std::string(k);
                fail(prefix + name, "not a key here; expected: " + allowed);
            }
    }

    template <typename List>
    static std::string joined(const List& list) {
        std::string text;
        for (std::string_view item : list) text += (text.empty() ? "" : ", ") + std::string(item);
        return text;
    }

    static std::string resource_names() {
        std::string text;
        for (int r = 1; r <= static_cast<int>(Resource::PinnedBudget); ++r)
            text += (text.empty() ? "" : ", ") + std::string(to_string(static_cast<Resource>(r)));
        return text;
    }

    std::string file_;
    LessonOptions options_;
    std::size_t step_ = 0;
};

int order_of(const EmbeddedFile& file) {
    const json root = json::parse(file.contents, nullptr, false);
    if (root.is_object() && root.contains("order") && root.at("order").is_number_integer()) return root.at("order").get<int>();
    return kDefaultOrder;
}

}  // namespace

LessonError::LessonError(const std::string& file, std::size_t step, const std::string& field, const std::string& problem)
    : std::runtime_error(message(file, step, field, problem)), file_(file), step_(step), field_(field) {}

bool LessonStep::refused() const {
    return std::any_of(claims.begin(), claims.end(), [](const Claim& c) { return c.kind == ClaimKind::Refused; });
}

std::vector<std::string> builtin_lesson_names() {
    std::vector<std::pair<int, std::string>> ordered;
    for (const EmbeddedFile& file : embedded_lessons()) ordered.emplace_back(order_of(file), file.name);
    std::sort(ordered.begin(), ordered.end());
    std::vector<std::string> names;
    for (auto& [order, name] : ordered) names.push_back(std::move(name));
    return names;
}

Lesson parse_lesson(const std::string& text, const std::string& file, const std::string& name, const LessonOptions& options) {
    Reader reader(file, options);
    json root;
    try {
        root = config_detail::parse_json_text(text);
    } catch (const std::exception& error) {
        reader.fail("", std::string("not a JSON file: ") + error.what());
    }
    return reader.read(root, name);
}

Lesson load_lesson(const std::string& name_or_path, const LessonOptions& options) {
    for (const EmbeddedFile& file : embedded_lessons())
        if (file.name == name_or_path) return parse_lesson(file.contents, "built-in " + file.name, file.name, options);
    std::string text;
    try {
        text = read_input_file(name_or_path, kMaxJsonFileBytes);
    } catch (const std::exception& error) {
        std::string names;
        for (const std::string& n : builtin_lesson_names()) names += (names.empty() ? "" : ", ") + n;
        throw LessonError(name_or_path, 0, "",
                          std::string("not a built-in lesson (") + names + ") nor a readable lesson file: " + error.what());
    }
    return parse_lesson(text, name_or_path, std::filesystem::path(name_or_path).stem().string(), options);
}

std::vector<Lesson> builtin_lessons(const LessonOptions& options) {
    std::vector<Lesson> lessons;
    for (const std::string& name : builtin_lesson_names()) lessons.push_back(load_lesson(name, options));
    return lessons;
}

}  // namespace pinscope
