// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How the engine tells people things: it never prints or opens dialogs itself. The CLI prints the
// messages on stderr, the UI shows them.
#include <functional>
#include <string>

namespace pinscope {

enum class Severity { Info, Warning, Error };

using MessageSink = std::function<void(Severity, const std::string&)>;

}  // namespace pinscope
