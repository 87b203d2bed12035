// SPDX-License-Identifier: GPL-3.0-or-later
// GPU spans as the timeline shows them: on the host's clock, in causal order, bracketed by what the
// host saw; pinned non_blocking copies return at once while pageable ones hold the caller.
#include <chrono>
#include <map>
#include <thread>

#include "engine/clock/SteadyClock.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;
using test::fill_random;

class CudaDeviceTiming : public CudaDeviceTest {
protected:
    // What the reference bracket allows, plus the resolution of cudaEventElapsedTime (0.5 us).
    TimeNs tolerance() const { return device->clock_uncertainty_ns(); }
};

struct Issued {
    TimeNs copy_issued = 0;
    TimeNs compute_issued = 0;
    TimeNs seen_done = 0;  // host time once wait() on the compute returned
};

TEST_F(CudaDeviceTiming, EachCopyStartsAfterItsIssueAndEachKernelAfterItsCopy) {
    constexpr std::size_t kBytes = 4 << 20;
    device->prepare(kBytes);
    PinnedAllocation host = device->allocate_pinned(kBytes);
    fill_random(host.ptr, kBytes);
    std::map<std::uint64_t, Issued> issued;
    std::vector<OpId> computes;
    for (std::uint64_t batch = 0; batch < 60; ++batch) {
        // Like the consumer: at most two batches on the device.
        if (computes.size() >= 2) {
            device->wait(computes[computes.size() - 2]);
            issued[batch - 2].seen_done = now_ns();
        }
        Issued& times = issued[batch];
        times.copy_issued = now_ns();
        const OpId copy = device->copy_to_device({host.ptr, kBytes, true}, batch);
        times.compute_issued = now_ns();
        computes.push_back(device->launch_compute(copy, batch, 200));
    }
    device->synchronize();
    std::vector<CompletedOp> done;
    device->collect_completed(done);
    ASSERT_EQ(done.size(), 120u);

    std::map<std::uint64_t, CompletedOp> copies, kernels;
    for (const CompletedOp& op : done) (op.kind == OpKind::H2D ? copies : kernels)[op.batch] = op;
    const TimeNs tol = tolerance();
    for (const auto& [batch, times] : issued) {
        const CompletedOp& copy = copies.at(batch);
        const CompletedOp& kernel = kernels.at(batch);
        EXPECT_GE(copy.start, times.copy_issued - tol) << "batch " << batch;
        EXPECT_GT(copy.end, copy.start) << "batch " << batch;
        EXPECT_GE(kernel.start, copy.end - tol) << "batch " << batch;
        EXPECT_GE(kernel.start, times.compute_issued - tol) << "batch " << batch;
        EXPECT_GE(kernel.end - kernel.start, 200'000) << "batch " << batch;
        if (times.seen_done != 0) {
            EXPECT_LE(kernel.end, times.seen_done + tol) << "batch " << batch;
        }
        if (batch > 0) {
            EXPECT_GE(kernel.start, kernels.at(batch - 1).end - tol) << "batch " << batch;
        }
    }
    device->free_pinned(host);
}

TEST_F(CudaDeviceTiming, SpansStayWithinWhatTheHostSawOverSeconds) {
    // Re-anchoring every second and the measured clock rate keep GPU times from drifting.
    constexpr std::size_t kBytes = 1 << 16;
    device->prepare(kBytes);
    PinnedAllocation host = device->allocate_pinned(kBytes);
    fill_random(host.ptr, kBytes);
    const TimeNs began = now_ns();
    const TimeNs until = began + 3'500'000'000;
    int checked = 0;
    while (now_ns() < until) {
        const TimeNs issued = now_ns();
        const OpId compute = device->launch_compute(device->copy_to_device({host.ptr, kBytes, true}, 0), 0, 100);
        device->wait(compute);
        const TimeNs seen = now_ns();
        std::vector<CompletedOp> done;
        device->collect_completed(done);
        for (const CompletedOp& op : done) {
            EXPECT_GE(op.start, issued - tolerance()) << (issued - began) / 1000000 << " ms into the test, tolerance " << tolerance() << " ns";
            EXPECT_LE(op.end, seen + tolerance()) << (issued - began) / 1000000 << " ms into the test, tolerance " << tolerance() << " ns";
        }
        ++checked;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_GT(checked, 100);
    device->free_pinned(host);
}

TEST_F(CudaDeviceTiming, PinnedCopyReturnsAtOnceWhilePageableHoldsTheHost) {
    constexpr std::size_t kBytes = 16 << 20;
    device->prepare(kBytes);
    PinnedAllocation pinned = device->allocate_pinned(kBytes);
    std::vector<unsigned char> pageable(kBytes);
    fill_random(pinned.ptr, kBytes);
    fill_random(pageable.data(), kBytes);
    std::vector<double> pinned_call_us, pageable_call_us, pageable_copy_us;
    for (int repeat = 0; repeat < 9; ++repeat) {
        for (const bool from_pinned : {true, false}) {
            const TimeNs before = now_ns();
            const OpId copy = device->copy_to_device(
                {from_pinned ? pinned.ptr : static_cast<void*>(pageable.data()), kBytes, from_pinned}, 0);
            const double call_us = static_cast<double>(now_ns() - before) / 1e3;
            device->wait(device->launch_compute(copy, 0, 0));
            std::vector<CompletedOp> done;
            device->collect_completed(done);
            (from_pinned ? pinned_call_us : pageable_call_us).push_back(call_us);
            if (!from_pinned)
                for (const CompletedOp& op : done)
                    if (op.kind == OpKind::H2D) pageable_copy_us.push_back(static_cast<double>(op.end - op.start) / 1e3);
        }
    }
    const double pinned_us = median(pinned_call_us);
    const double pageable_us = median(pageable_call_us);
    RecordProperty("pinned_call_us", std::to_string(pinned_us));
    RecordProperty("pageable_call_us", std::to_string(pageable_us));
    EXPECT_LT(pinned_us, 50.0) << "a pinned non_blocking copy of 16 MiB should return in microseconds";
    EXPECT_GT(pageable_us, 0.5 * median(pageable_copy_us)) << "a pageable copy holds the host while it stages";
    EXPECT_GT(pageable_us, 10 * pinned_us);
    device->free_pinned(pinned);
}

}  // namespace
}  // namespace pinscope
