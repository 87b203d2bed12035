// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/plots/FootprintPlot.h"

#include <cmath>
#include <limits>

#include "ui/plots/ByteFormat.h"
#include "ui/plots/MemoryLogTicker.h"

namespace pinscope::ui {

namespace {

constexpr double kMemlockOffScale = 64;  // farther than this above the budget, the line is not drawn

double positive_or_gap(double bytes) { return bytes > 0 ? bytes : std::numeric_limits<double>::quiet_NaN(); }

}  // namespace

FootprintPlot::FootprintPlot(QWidget* parent) : TimeSeriesPlot(QStringLiteral("Pinned memory"), parent) {
    auto ticker = QSharedPointer<MemoryLogTicker>::create();
    ticker->setSubTickCount(0);
    yAxis->setTicker(ticker);
    yAxis->setScaleType(QCPAxis::stLogarithmic);
    yAxis->setRange(1 << 20, 1ull << 32);
    in_use_ = add_line(QStringLiteral("in use"), QColor(0xF2, 0x8E, 0x2B), nullptr, Qt::SolidLine, 1.6);
    reserved_ = add_line(QStringLiteral("reserved"), QColor(0x8C, 0x4A, 0x0B), nullptr, Qt::SolidLine, 2.0);
    peak_ = add_line(QStringLiteral("peak"), QColor(0x8C, 0x4A, 0x0B), nullptr, Qt::DotLine, 1.4);
    budget_ = add_line(QStringLiteral("budget"), QColor(0xC6, 0x28, 0x28), nullptr, Qt::DashLine, 1.6);
    memlock_ = add_line(QStringLiteral("memlock limit"), QColor(0x55, 0x5B, 0x63), nullptr, Qt::DashDotLine, 1.4);
    available_ = add_line(QStringLiteral("available"), QColor(0x2E, 0x7D, 0x32), nullptr, Qt::DashLine, 1.4);
    swap_ = add_line(QStringLiteral("swap in use"), QColor(0x6A, 0x1B, 0x9A), nullptr, Qt::SolidLine, 1.6);
    swap_->removeFromLegend();  // until a run says the machine has swap
    in_use_->setLineStyle(QCPGraph::lsStepLeft);
    reserved_->setLineStyle(QCPGraph::lsStepLeft);
}

void FootprintPlot::add_counters(const std::vector<CounterSample>& samples) {
    for (const CounterSample& s : samples) {
        if (s.counter == Counter::PinnedInUseBytes) append(in_use_, seconds_of(s.time), positive_or_gap(s.value));
        else if (s.counter == Counter::PinnedReservedBytes) append(reserved_, seconds_of(s.time), positive_or_gap(s.value));
        else if (s.counter == Counter::MemAvailableBytes) append(available_, seconds_of(s.time), positive_or_gap(s.value));
        else if (s.counter == Counter::SwapUsedBytes) append(swap_, seconds_of(s.time), positive_or_gap(s.value));
    }
}

void FootprintPlot::add_summary(double t, const RunSummary& summary) {
    const auto peak = static_cast<double>(summary.pinned.reserved_bytes.peak);
    const auto budget = static_cast<double>(summary.pinned.budget_bytes);
    append(peak_, t, positive_or_gap(peak));
    peak_->setName(QStringLiteral("peak %1").arg(memory_text(peak)));
    if (budget > 0) {
        append(budget_, t, budget);
        budget_->setName(QStringLiteral("budget %1").arg(memory_text(budget)));
    }
    // The figures are in the limits panel's memory line; the legend keeps to short names. A machine
    // without swap has no line to name: its legend entry would only take a row.
    if (const MemoryState& m = summary.memory.memory; m.known) {
        const bool has_swap = m.swap_total_bytes > 0;
        if (has_swap != legend->hasItemWithPlottable(swap_)) has_swap ? swap_->addToLegend() : swap_->removeFromLegend();
    }
    const std::uint64_t memlock = summary.memlock_limit_bytes;
    if (memlock == std::numeric_limits<std::uint64_t>::max()) {
        memlock_->setName(QStringLiteral("memlock limit: none"));
    } else if (summary.memlock_exempt) {
        // Not drawn: a line far below what is locked would look broken, and it does not bind.
        memlock_->data()->clear();
        memlock_->setName(QStringLiteral("memlock limit %1: exempt (CAP_IPC_LOCK)").arg(memory_text(static_cast<double>(memlock))));
    } else if (budget > 0 && static_cast<double>(memlock) > budget * kMemlockOffScale) {
        memlock_->setName(QStringLiteral("memlock limit %1 (off scale)").arg(memory_text(static_cast<double>(memlock))));
    } else if (memlock > 0) {
        append(memlock_, t, static_cast<double>(memlock));
        memlock_->setName(QStringLiteral("memlock limit %1").arg(memory_text(static_cast<double>(memlock))));
    }
}

void FootprintPlot::fit_value_axes() {
    double lo = std::numeric_limits<double>::max(), hi = 0;
    for (int i = 0; i < graphCount(); ++i) {
        bool found = false;
        const QCPRange r = graph(i)->getValueRange(found, QCP::sdPositive, xAxis->range());
        if (!found) continue;
        lo = std::min(lo, r.lower);
        hi = std::max(hi, r.upper);
    }
    if (hi <= 0) return;
    yAxis->setRange(std::max(1024.0, lo / 3), hi * 3);
}

void FootprintPlot::take_values(const RunFrame& frame) {
    add_counters(frame.counters);
    add_summary(frame.seconds(), frame.summary);
}

}  // namespace pinscope::ui
