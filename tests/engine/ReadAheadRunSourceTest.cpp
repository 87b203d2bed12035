// SPDX-License-Identifier: GPL-3.0-or-later
// A run source read on a thread of its own: every frame comes out, in order, none after the one
// marked ended; dropping it mid-run stops its thread, however many frames the source still has.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine/runner/ReadAheadRunSource.h"

namespace pinscope {
namespace {

// Frames without end, as a recording too long to read before the window closes.
class EndlessSource : public RunSource {
public:
    std::shared_ptr<const RunFrame> next_frame() override {
        ++made;
        return std::make_shared<RunFrame>();
    }
    std::atomic<int> made{0};
};

TEST(ReadAheadRunSource, HandsOutEveryFrameInOrderAndNoneAfterTheLast) {
    std::vector<std::shared_ptr<const RunFrame>> frames;
    for (int i = 0; i < 50; ++i) {
        auto frame = std::make_shared<RunFrame>();
        frame->first = i == 0;
        frame->ended = i == 49;
        frame->time = i;
        frames.push_back(frame);
    }
    ReadAheadRunSource source(std::make_shared<FixedRunSource>(frames), 4);
    std::vector<std::shared_ptr<const RunFrame>> taken;
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (taken.size() < frames.size() && std::chrono::steady_clock::now() < give_up) {
        if (auto frame = source.next_frame()) taken.push_back(std::move(frame));
        else std::this_thread::yield();
    }
    EXPECT_EQ(taken, frames);  // the same frames, not copies, in order
    EXPECT_EQ(source.next_frame(), nullptr);
}

TEST(ReadAheadRunSource, ReadsAtMostItsDepthAheadAndStopsWhenDropped) {
    auto endless = std::make_shared<EndlessSource>();
    {
        ReadAheadRunSource source(endless, 3);
        const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (endless->made < 4 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
        ASSERT_TRUE(source.next_frame());
    }  // joins its thread, which was waiting for room
    const int made = endless->made;
    EXPECT_GE(made, 4);
    EXPECT_LE(made, 5) << "three ready, one taken, one more read and waiting for room at most";
}

}  // namespace
}  // namespace pinscope
