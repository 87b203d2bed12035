// SPDX-License-Identifier: GPL-3.0-or-later
// Readers get every record once, in order, never a torn one, and writers never wait for them.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "engine/trace/Trace.h"
#include "engine/trace/TraceRing.h"

namespace pinscope {
namespace {

Span span_for(std::uint64_t writer, std::uint64_t i) {
    Span s;
    s.batch = i;
    s.start = static_cast<TimeNs>(i);
    s.end = static_cast<TimeNs>(i * 3 + writer);  // ties batch, start and end together
    s.bytes = writer;
    s.lane = {LaneKind::Worker, static_cast<std::uint16_t>(writer)};
    return s;
}

TEST(TraceRing, ReaderGetsWhatIsNewSinceItsLastCall) {
    TraceRing<Span> ring(8);
    RingCursor cursor;
    std::vector<Span> out;
    ring.push(span_for(0, 1));
    ring.push(span_for(0, 2));
    EXPECT_EQ(ring.read(cursor, out), 2u);
    EXPECT_EQ(ring.read(cursor, out), 0u);
    ring.push(span_for(0, 3));
    EXPECT_EQ(ring.read(cursor, out), 1u);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[2], span_for(0, 3));
}

TEST(TraceRing, OverwritesTheOldestAndCountsWhatAReaderMissed) {
    TraceRing<Span> ring(4);
    RingCursor cursor;
    for (std::uint64_t i = 0; i < 10; ++i) ring.push(span_for(0, i));
    std::vector<Span> out;
    EXPECT_EQ(ring.read(cursor, out), 4u);
    EXPECT_EQ(cursor.dropped, 6u);
    EXPECT_EQ(out.front().batch, 6u);
    EXPECT_EQ(out.back().batch, 9u);
}

TEST(TraceRing, ReadersAreIndependent) {
    Trace trace(16);
    TraceReader a(trace), b(trace);
    trace.add(span_for(0, 1));
    trace.add_marker(5, MarkerKind::Reconfigured, "reconfigured");
    TraceDelta da, db;
    a.poll(da);
    trace.add(span_for(0, 2));
    a.poll(da);
    b.poll(db);
    EXPECT_EQ(da.spans.size(), 2u);
    EXPECT_EQ(db.spans.size(), 2u);
    EXPECT_EQ(da.markers.size(), 1u);
    EXPECT_EQ(db.markers.size(), 1u);
}

TEST(TraceRing, ConcurrentWritersAndAReaderLoseNothingWhenTheRingIsLargeEnough) {
    constexpr std::uint64_t kWriters = 4, kEach = 20000;
    TraceRing<Span> ring(1 << 17);
    std::atomic<int> done{0};
    std::vector<std::thread> writers;
    for (std::uint64_t w = 0; w < kWriters; ++w)
        writers.emplace_back([&, w] {
            for (std::uint64_t i = 0; i < kEach; ++i) ring.push(span_for(w, i));
            ++done;
        });
    RingCursor cursor;
    std::vector<Span> out;
    while (done < static_cast<int>(kWriters)) ring.read(cursor, out);
    for (auto& t : writers) t.join();
    ring.read(cursor, out);
    EXPECT_EQ(cursor.dropped, 0u);
    ASSERT_EQ(out.size(), kWriters * kEach);
    std::vector<std::uint64_t> next(kWriters, 0);
    for (const Span& s : out) {
        ASSERT_EQ(s, span_for(s.bytes, s.batch)) << "torn record";
        EXPECT_EQ(s.batch, next[s.bytes]++) << "each writer's records in order";
    }
}

TEST(TraceRing, ASlowReaderOfASmallRingSeesOnlyWholeRecords) {
    TraceRing<Span> ring(64);
    std::atomic<bool> stop{false};
    std::thread writer([&] {
        for (std::uint64_t i = 0; !stop; ++i) ring.push(span_for(1, i));
    });
    RingCursor cursor;
    std::vector<Span> out;
    while (out.size() < 5000) ring.read(cursor, out, 16);
    stop = true;
    writer.join();
    EXPECT_GT(cursor.dropped, 0u) << "the writer lapped the reader";
    for (const Span& s : out) EXPECT_EQ(s, span_for(1, s.batch));
    for (std::size_t i = 1; i < out.size(); ++i) EXPECT_LT(out[i - 1].batch, out[i].batch);
}

}  // namespace
}  // namespace pinscope
