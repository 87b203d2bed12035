// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/bandwidth/BandwidthSweepRunner.h"

#include <QMetaObject>

namespace pinscope::ui {

BandwidthSweepRunner::BandwidthSweepRunner(BandwidthSweepFunction sweep, QObject* parent)
    : QObject(parent), sweep_(std::move(sweep)) {}

BandwidthSweepRunner::~BandwidthSweepRunner() {
    cancel_ = true;
    join();
}

void BandwidthSweepRunner::join() {
    if (thread_.joinable()) thread_.join();
}

void BandwidthSweepRunner::cancel() { cancel_ = true; }

bool BandwidthSweepRunner::start(const BandwidthOptions& options) {
    if (running_) return false;
    join();  // the previous sweep's thread has posted its result already
    cancel_ = false;
    running_ = true;
    thread_ = std::thread([this, options] {
        // Everything is handed to the GUI thread by queued calls; this thread touches no widget.
        const auto post = [this](auto function) { QMetaObject::invokeMethod(this, std::move(function), Qt::QueuedConnection); };
        try {
            BandwidthResult result = sweep_(options, [&](double fraction, const BandwidthPoint& point) {
                post([this, fraction, point] { emit pointMeasured(fraction, point); });
                return !cancel_.load();
            });
            const bool cancelled = cancel_.load();
            post([this, result = std::move(result), cancelled] {
                running_ = false;
                emit finished(result, cancelled);
            });
        } catch (const std::exception& e) {
            post([this, message = QString::fromStdString(e.what())] {
                running_ = false;
                emit failed(message);
            });
        }
    });
    return true;
}

}  // namespace pinscope::ui
