// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A workshop lesson, as read from a lesson file (resources/lessons, docs/lessons.md): a title,
// what the class will learn, and steps. Each step runs one configuration for a set time, asks the
// class a question first, then reveals the answer with the run's own numbers and checks the
// lesson's claims on that run.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/analysis/Bottleneck.h"
#include "engine/config/LoaderConfig.h"

namespace pinscope {

enum class ClaimKind : std::uint8_t {
    Ratio,       // a figure of this step against the same figure of an earlier step
    Level,       // a figure of this step against fixed bounds
    Bottleneck,  // the resource named as this step's bottleneck
    Refused,     // this step's configuration is refused before it runs, naming a field
};

struct Claim {
    ClaimKind kind = ClaimKind::Ratio;
    std::string figure;                // Ratio and Level: a figure's name (LessonFigures.h)
    std::size_t against = 0;           // Ratio: the earlier step, from 0
    std::optional<double> at_least;    // Ratio: this / that; Level: the value
    std::optional<double> at_most;
    std::optional<double> within;      // Ratio only: |this / that - 1| at most this
    Resource resource = Resource::None;  // Bottleneck
    std::string field;                 // Refused: the configuration field the refusal names
};

// What the window brings forward for a step: timeline lanes ("pin thread", "worker", ...), plots
// ("throughput", "pinned-memory", ...) and numbers (figure names). LessonViews.h lists the names.
struct Highlight {
    std::vector<std::string> lanes;
    std::vector<std::string> plots;
    std::vector<std::string> numbers;
};

struct LessonStep {
    std::string title;
    LoaderConfig config;                // complete; the run's length is `seconds`
    std::vector<std::string> changes;   // from the previous step, "pin_memory: off -> on" (none for the first)
    std::string question;
    std::vector<std::string> choices;
    std::size_t answer = 0;             // the right choice, from 0
    std::string reveal;                 // the answer, with {placeholders} (LessonText.h)
    std::string absent;                 // why hardware may not show it, said when a claim does not hold
    double seconds = 3;
    Highlight highlight;
    std::vector<Claim> claims;
    bool refused() const;               // a Refused claim: the step expects not to run
};

struct Lesson {
    std::string name;   // the file's stem: "pageable-staging"
    std::string file;   // where it was read from: a path, or "built-in NAME"
    std::string title;
    std::string learn;  // what the class will learn
    bool device_fixed = false;  // the lesson names its device (a modelled topology needs the emulated one)
    std::vector<LessonStep> steps;
};

}  // namespace pinscope
