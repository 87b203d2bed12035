// SPDX-License-Identifier: GPL-3.0-or-later
// The timeline's span store: lanes in display order, sorted spans, bounded memory that lets the
// oldest go, and the lookups that hovering and clicking rely on.
#include <QTest>

#include <algorithm>

#include "tests/ui/UiSuite.h"
#include "tests/ui/UiTestSupport.h"
#include "ui/model/SpanStore.h"

using namespace pinscope;
using ui::SpanStore;

class SpanStoreTest : public QObject {
    Q_OBJECT

private slots:
    void lanesComeInDisplayOrder() {
        SpanStore store;
        store.add({{10, 20, 0, 0, Stage::Compute, {LaneKind::ComputeStream, 0}},
                   {10, 20, 0, 0, Stage::Load, {LaneKind::Worker, 1}},
                   {10, 20, 0, 0, Stage::Wait, {LaneKind::Consumer, 0}},
                   {10, 20, 0, 0, Stage::Load, {LaneKind::Worker, 0}},
                   {10, 20, 0, 0, Stage::Pin, {LaneKind::PinThread, 0}}});
        QCOMPARE(store.lanes().size(), 5u);
        QCOMPARE(store.lanes()[0].lane, (Lane{LaneKind::Worker, 0}));
        QCOMPARE(store.lanes()[1].lane, (Lane{LaneKind::Worker, 1}));
        QCOMPARE(store.lanes()[2].lane.kind, LaneKind::PinThread);
        QCOMPARE(store.lanes()[3].lane.kind, LaneKind::Consumer);
        QCOMPARE(store.lanes()[4].lane.kind, LaneKind::ComputeStream);
    }

    void spansOutOfOrderAreSorted() {
        SpanStore store;
        const Lane lane{LaneKind::Consumer, 0};
        store.add({{30, 40, 3, 0, Stage::Wait, lane}, {10, 20, 1, 0, Stage::Wait, lane}, {20, 30, 2, 0, Stage::Wait, lane}});
        const auto& spans = store.lanes()[0].spans;
        QCOMPARE(spans[0].batch, 1u);
        QCOMPARE(spans[1].batch, 2u);
        QCOMPARE(spans[2].batch, 3u);
    }

    void staysWithinCapacityDroppingTheOldest() {
        SpanStore store(10'000);
        const auto spans = test::synthetic_spans(50'000, 0);
        for (std::size_t i = 0; i < spans.size(); i += 1000)
            store.add(std::vector<Span>(spans.begin() + static_cast<long>(i), spans.begin() + static_cast<long>(i + 1000)));
        QVERIFY(store.size() <= 10'000);
        QVERIFY(store.size() >= 9'000);
        QCOMPARE(store.dropped() + store.size(), 50'000u);
        // What is left is the newest: every kept span starts after every dropped one.
        const auto at_or_after_earliest_kept = std::count_if(
            spans.begin(), spans.end(), [&](const Span& s) { return s.start >= store.earliest_start(); });
        QCOMPARE(static_cast<std::size_t>(at_or_after_earliest_kept), store.size());
        for (const auto& lane : store.lanes())
            for (std::size_t i = 1; i < lane.spans.size(); ++i) QVERIFY(lane.spans[i - 1].start <= lane.spans[i].start);
    }

    // A lane whose every span was let go keeps its row and its busy time: a whole-run view still
    // shows that an early worker was there.
    void aLaneLetGoKeepsItsSummary() {
        SpanStore store(1000);
        std::vector<Span> early, late;
        for (TimeNs t = 0; t < 500; ++t) early.push_back({t * 1000, t * 1000 + 400, 0, 0, Stage::Load, {LaneKind::Worker, 3}});
        for (TimeNs t = 0; t < 5000; ++t)
            late.push_back({1'000'000 + t * 1000, 1'000'000 + t * 1000 + 900, 0, 0, Stage::Wait, {LaneKind::Consumer, 0}});
        store.add(early);
        store.add(late);
        const int row = store.row_of({LaneKind::Worker, 3});
        QVERIFY(row >= 0);
        const auto& lane = store.lanes()[static_cast<std::size_t>(row)];
        QVERIFY(lane.spans.empty());
        QCOMPARE(lane.summary.spans(), 500u);
        double busy = 0;
        for (const auto& bin : lane.summary.bins()) busy += bin[static_cast<std::size_t>(Stage::Load)];
        QCOMPARE(busy, 500.0 * 400);
        QCOMPARE(store.earliest_known(), TimeNs{0});
        QVERIFY(store.earliest_start() > 0);
    }

    void findsTheSpanUnderATime() {
        SpanStore store;
        const Lane lane{LaneKind::CopyStream, 0};
        store.add({{100, 200, 7, 64, Stage::H2D, lane}, {300, 400, 8, 64, Stage::H2D, lane}});
        QCOMPARE(store.span_at(0, 150, 0)->batch, 7u);
        QCOMPARE(store.span_at(0, 350, 0)->batch, 8u);
        QVERIFY(!store.span_at(0, 250, 10));
        QCOMPARE(store.span_at(0, 295, 10)->batch, 8u);  // near enough
        QVERIFY(!store.span_at(1, 150, 0));              // no such row
    }

    void findsEveryStageOfABatch() {
        SpanStore store;
        store.add(test::synthetic_spans(6000, 0));
        const auto path = store.spans_of_batch(500, 500 * 2'500'000, 1'000'000'000);
        QCOMPARE(path.size(), 6u);  // load, collate, pin, wait, H2D, compute
        for (const Span& s : path) QCOMPARE(s.batch, 500u);
        for (std::size_t i = 1; i < path.size(); ++i) QVERIFY(path[i - 1].start <= path[i].start);
    }

    void visibleRangeStartsAtTheFirstSpanStillRunning() {
        SpanStore store;
        const Lane lane{LaneKind::Consumer, 0};
        store.add({{0, 1000, 0, 0, Stage::Wait, lane}, {1000, 1100, 1, 0, Stage::Wait, lane}, {1100, 1200, 2, 0, Stage::Wait, lane}});
        QCOMPARE(SpanStore::first_ending_after(store.lanes()[0], 500), 0u);  // the long first span is still visible
        QCOMPARE(SpanStore::first_ending_after(store.lanes()[0], 1150), 2u);
    }
};

PINSCOPE_UI_SUITE(SpanStoreTest)
#include "SpanStoreTest.moc"
