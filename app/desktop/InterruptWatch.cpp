// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/desktop/InterruptWatch.h"

#include <QTimer>

namespace pinscope::desktop {

InterruptWatch::InterruptWatch(std::function<void()> react, QObject* parent)
    : QObject(parent), react_(std::move(react)) {
    auto* timer = new QTimer(this);
    timer->setInterval(50);
    connect(timer, &QTimer::timeout, this, [this, timer] {
        if (!app::InterruptSignals::raised()) return;
        timer->stop();
        react_();
    });
    timer->start();
}

}  // namespace pinscope::desktop
