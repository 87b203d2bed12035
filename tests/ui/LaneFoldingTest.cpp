// SPDX-License-Identifier: GPL-3.0-or-later
// What the timeline draws where spans are too narrow to see one by one: per pixel column, the
// share of time the lane was busy and the stage that took most of it, from hand-built spans, the
// same when the view pans, and the same for the spans the bounded store has let go.
#include <QTest>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/model/LaneFolding.h"
#include "ui/model/LaneVisibility.h"
#include "ui/model/SpanStore.h"

using namespace pinscope;
using ui::FoldGrid;
using ui::LaneFolding;
using ui::SpanStore;

namespace {

const Lane kPin{LaneKind::PinThread, 0};

Span span(TimeNs start, TimeNs end, Stage stage, Lane lane = kPin) { return {start, end, 0, 0, stage, lane}; }

// Columns of 1000 ns from time 0: column k covers [1000 k, 1000 (k + 1)).
FoldGrid columns(int count, std::int64_t first = 0) { return {0, 1000.0, first, count}; }

}  // namespace

class LaneFoldingTest : public QObject {
    Q_OBJECT

private slots:
    void busyShareAndDominantStagePerColumn() {
        SpanStore store;
        store.add({span(0, 500, Stage::Pin),                                   // column 0: half busy
                   span(1000, 1400, Stage::Alloc), span(1400, 2000, Stage::Pin),  // column 1: all busy
                   span(2000, 2300, Stage::Pin), span(2300, 2500, Stage::Alloc),  // column 2: two stages
                   span(2500, 2800, Stage::Pin)});                                // compete; 3 is idle
        LaneFolding folding;
        folding.fold(store.lanes()[0], columns(4), 1e9);
        QCOMPARE(folding.busy(0), 0.5);
        QCOMPARE(folding.dominant(0), Stage::Pin);
        QCOMPARE(folding.busy(1), 1.0);
        QCOMPARE(folding.dominant(1), Stage::Pin);  // 600 ns of pin beat 400 of allocation
        QCOMPARE(folding.busy(2), 0.8);
        QCOMPARE(folding.dominant(2), Stage::Pin);
        QCOMPARE(folding.stage_ns(2, Stage::Pin), TimeNs{600});
        QCOMPARE(folding.stage_ns(2, Stage::Alloc), TimeNs{200});
        QCOMPARE(folding.busy(3), 0.0);
        QCOMPARE(folding.folded_spans(), 6u);
        QVERIFY(folding.boxes().empty());
    }

    void aSpanAcrossColumnsCountsInEach() {
        SpanStore store;
        store.add({span(500, 2750, Stage::Collate, {LaneKind::Worker, 0})});
        LaneFolding folding;
        folding.fold(store.lanes()[0], columns(4), 1e9);
        QCOMPARE(folding.busy(0), 0.5);
        QCOMPARE(folding.busy(1), 1.0);
        QCOMPARE(folding.busy(2), 0.75);
        QCOMPARE(folding.busy(3), 0.0);
        QCOMPARE(folding.folded_spans(), 1u);
    }

    void wideSpansAreBoxesNotColumns() {
        SpanStore store;
        store.add({span(0, 500, Stage::Pin), span(1000, 4000, Stage::Pin)});
        LaneFolding folding;
        folding.fold(store.lanes()[0], columns(5), 3000);  // 3 columns and more: a box of its own
        QCOMPARE(folding.boxes(), (std::vector<std::size_t>{1}));
        QCOMPARE(folding.busy(0), 0.5);
        QCOMPARE(folding.busy(2), 0.0);
        QCOMPARE(folding.folded_spans(), 1u);
    }

    // The grid is anchored at the run's start, not at the view's edge: a pan by any fraction of a
    // pixel moves the columns but leaves what each one holds as it was (no shimmer while dragging).
    void panningLeavesWhatAColumnHoldsUnchanged() {
        SpanStore store;
        store.add(test::synthetic_spans(20'000, 0));
        const ui::LaneSpans& lane = store.lanes()[static_cast<std::size_t>(store.row_of(kPin))];
        const TimeNs anchor = 0;
        LaneFolding before, after;
        const double from = 3.0e9, width = 2.0e9;
        const FoldGrid a = FoldGrid::for_view(anchor, from, from + width, 800);
        const FoldGrid b = FoldGrid::for_view(anchor, from + 37.3 * a.column_ns, from + width + 37.3 * a.column_ns, 800);
        before.fold(lane, a, 3 * a.column_ns);
        after.fold(lane, b, 3 * b.column_ns);
        QCOMPARE(b.first - a.first, std::int64_t{37});
        int compared = 0;
        for (int c = 0; c + 37 < a.count && c < b.count; ++c) {
            QVERIFY(std::abs(before.busy(c + 37) - after.busy(c)) < 1e-9);
            if (after.busy(c) > 0) QCOMPARE(before.dominant(c + 37), after.dominant(c));
            ++compared;
        }
        QVERIFY(compared > 700);
    }

    // Spans the bounded store let go still draw as shares (their busy time is kept per bin),
    // zoomed out (columns of many bins) and zoomed in (columns narrower than a bin).
    void spansLetGoStillFoldAsShares() {
        SpanStore store(1000);
        std::vector<Span> spans;
        // Pin busy half of every millisecond for 10 s: 10,000 spans, most of them let go.
        for (TimeNs t = 0; t < 10'000'000'000; t += 1'000'000) spans.push_back(span(t, t + 500'000, Stage::Pin));
        store.add(spans);
        QVERIFY(store.dropped() > 8000);
        const ui::LaneSpans& lane = store.lanes()[0];
        QCOMPARE(lane.summary.spans(), std::uint64_t{10'000});
        QCOMPARE(store.earliest_known(), TimeNs{0});
        LaneFolding folding;
        const FoldGrid grid = FoldGrid::for_view(0, 0, 10e9, 100);  // 100 ms columns
        folding.fold(lane, grid, 3 * grid.column_ns);
        for (int c = 0; c < grid.count; ++c) {
            QVERIFY2(std::abs(folding.busy(c) - 0.5) < 0.01, qPrintable(QStringLiteral("column %1: %2").arg(c).arg(folding.busy(c))));
            QCOMPARE(folding.dominant(c), Stage::Pin);
        }
        const FoldGrid close = FoldGrid::for_view(0, 1e9, 1.01e9, 100);  // 100 us columns, long let go
        QVERIFY(store.lanes()[0].spans.front().start > 2'000'000'000);
        folding.fold(lane, close, 3 * close.column_ns);
        for (int c = 0; c < close.count; ++c) QVERIFY(std::abs(folding.busy(c) - 0.5) < 0.01);
    }

    // Many spans per column, two stages alternating: the share is exact, the larger stage wins.
    void denseColumnsKeepTheShareAndTheLargerStage() {
        SpanStore store;
        std::vector<Span> spans;
        for (TimeNs t = 0; t < 1'000'000'000; t += 100'000) {  // 10,000 spans, 1 s
            spans.push_back(span(t, t + 40'000, Stage::Pin));
            spans.push_back(span(t + 50'000, t + 60'000, Stage::Alloc));
        }
        store.add(spans);
        LaneFolding folding;
        const FoldGrid grid = FoldGrid::for_view(0, 0, 1e9, 50);  // 20 ms columns: 400 spans each
        folding.fold(store.lanes()[0], grid, 3 * grid.column_ns);
        for (int c = 0; c < grid.count; ++c) {
            QVERIFY(std::abs(folding.busy(c) - 0.5) < 1e-3);
            QCOMPARE(folding.dominant(c), Stage::Pin);
        }
        QCOMPARE(folding.folded_spans(), 20'000u);
    }

    // Hours of spans cost no more than kMaxBins bins, and no busy time is lost merging them.
    void summaryStaysBoundedAndKeepsTheBusyTime() {
        ui::LaneSummary history;
        TimeNs total = 0;
        for (TimeNs t = 0; t < 3 * 3600 * 1'000'000'000LL; t += 7'000'000) {
            history.add(span(t, t + 3'000'000, t % 2 ? Stage::Pin : Stage::Alloc));
            total += 3'000'000;
        }
        QVERIFY(history.bins().size() <= ui::LaneSummary::kMaxBins);
        double kept = 0;
        for (const auto& bin : history.bins())
            for (const float t : bin) kept += t;
        QVERIFY(std::abs(kept - static_cast<double>(total)) < 1e-6 * static_cast<double>(total));
    }

    // A change restarts the pipeline: a lane with no span after it has ended there.
    void aLaneEndsAtTheChangeAfterItsLastSpan() {
        SpanStore store;
        for (std::uint16_t w = 0; w < 4; ++w) store.add({span(0, 90, Stage::Load, {LaneKind::Worker, w})});
        store.add({span(110, 200, Stage::Load, {LaneKind::Worker, 0}), span(190, 200, Stage::Load, {LaneKind::Worker, 1}),
                   span(0, 200, Stage::Wait, {LaneKind::Consumer, 0})});
        const std::vector<TimeNs> changes{100};
        const auto shown_from = [&](TimeNs from) {
            std::vector<std::string> names;
            for (const auto& lane : ui::lanes_to_show(store, changes, from)) names.push_back(lane_name(lane.lane));
            return names;
        };
        // Worker 1 is idle from 100 to 190 but still there; workers 2 and 3 ended at the change.
        QCOMPARE(shown_from(120), (std::vector<std::string>{"worker 0", "worker 1", "consumer"}));
        QCOMPARE(shown_from(50).size(), 5u);
        const auto all = ui::lanes_to_show(store, changes, 0);
        QCOMPARE(all[2].ended, std::optional<TimeNs>{100});
        QCOMPARE(all[1].ended, std::optional<TimeNs>{});
        QVERIFY(!ui::lanes_to_show(store, {}, 150).empty());  // no change: nothing ends
        QCOMPARE(ui::lanes_to_show(store, {}, 150).size(), 5u);
    }
};

PINSCOPE_UI_SUITE(LaneFoldingTest)
#include "LaneFoldingTest.moc"
