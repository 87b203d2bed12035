// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SIGINT and SIGTERM for the desktop app: the signal handler only sets a flag (app::InterruptSignals);
// a timer on the GUI thread sees it within a twentieth of a second and reacts once.
#include <QObject>

#include <functional>

#include "app/common/InterruptSignals.h"

namespace pinscope::desktop {

class InterruptWatch : public QObject {
    Q_OBJECT
public:
    // Installs the handlers for this object's lifetime; `react` runs once, on the GUI thread.
    explicit InterruptWatch(std::function<void()> react, QObject* parent = nullptr);

private:
    app::InterruptSignals signals_;
    std::function<void()> react_;
};

}  // namespace pinscope::desktop
