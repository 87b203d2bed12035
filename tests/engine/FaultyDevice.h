// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// An emulated device that fails as a GPU can: its Nth copy throws (a non-sticky error), or from
// its Nth copy on every wait and completion query throws too (a sticky one: the device is broken).
#include <atomic>

#include "engine/device/emulated/EmulatedDevice.h"

namespace pinscope::test {

class FaultyDevice final : public Device {
public:
    enum class Fault { CopyFails, DeviceBreaks };
    FaultyDevice(Fault fault, int at_copy, HardwareProfile profile = load_profile(kDefaultProfile))
        : inner_(std::move(profile), HostMode::Modeled), fault_(fault), at_copy_(at_copy) {}

    DeviceInfo info() const override { return inner_.info(); }
    void prepare(std::size_t bytes) override { inner_.prepare(bytes); }
    void set_pinned_placement(const PinnedPlacement& placement) override { inner_.set_pinned_placement(placement); }
    void set_loader_workers(int workers) override { inner_.set_loader_workers(workers); }
    PinnedAllocation allocate_pinned(std::size_t bytes) override { return inner_.allocate_pinned(bytes); }
    void free_pinned(const PinnedAllocation& a) override { inner_.free_pinned(a); }
    bool register_host(void* p, std::size_t b) override { return inner_.register_host(p, b); }
    void unregister_host(void* p, std::size_t b) override { inner_.unregister_host(p, b); }
    void set_copy_stream(CopyStream stream) override { inner_.set_copy_stream(stream); }
    OpId copy_to_device(const HostSource& source, std::uint64_t batch) override {
        if (++copies_ == at_copy_) {
            if (fault_ == Fault::DeviceBreaks) broken_ = true;
            throw DeviceError("cudaMemcpyAsync on emulated test device: injected failure (an illegal address)");
        }
        return inner_.copy_to_device(source, batch);
    }
    OpId launch_compute(OpId after, std::uint64_t batch, double us) override { return inner_.launch_compute(after, batch, us); }
    bool is_complete(OpId op) override {
        check("cudaEventQuery");
        return inner_.is_complete(op);
    }
    void wait(OpId op) override {
        check("cudaEventSynchronize");
        inner_.wait(op);
    }
    void collect_completed(std::vector<CompletedOp>& out) override { inner_.collect_completed(out); }
    void synchronize() override {
        check("cudaStreamSynchronize");
        inner_.synchronize();
    }
    void set_stop(std::stop_token stop) override { inner_.set_stop(std::move(stop)); }

    EmulatedDevice& inner() { return inner_; }
    void break_now() { broken_ = true; }

private:
    void check(const char* call) const {
        if (broken_) throw DeviceError(std::string(call) + " on emulated test device: the device is broken");
    }

    EmulatedDevice inner_;
    Fault fault_;
    int at_copy_;
    int copies_ = 0;
    std::atomic<bool> broken_{false};
};

}  // namespace pinscope::test
