// Host work modelled from a hardware profile: each piece of work takes one of the profile's cores
// for the time the profile says, and the thread waits it out. Buffers are never touched.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "clock/SteadyClock.h"
#include "device/HardwareProfile.h"
#include "host/HostWork.h"

namespace pinscope {

std::unique_ptr<HostWork> make_real_host_work();

namespace {

constexpr TimeNs kLateness = 1'000'000;  // how late a thread may be and still start at `ready`

// The profiled machine's cores: more busy threads than cores queue for one, as they would there.
class ModeledCores {
public:
    explicit ModeledCores(int cores) : free_(cores) {}
    WorkTimes run_for(TimeNs duration, TimeNs ready) {
        {
            std::unique_lock lock(mutex_);
            if (free_ == 0) {
                freed_.wait(lock, [&] { return free_ > 0; });
                ready = now_ns();  // it really waited for a core
            }
            --free_;
        }
        const TimeNs start = std::max(ready, now_ns() - kLateness);
        sleep_until_ns(start + duration);
        {
            std::lock_guard lock(mutex_);
            ++free_;
        }
        freed_.notify_one();
        return {start, start + duration};
    }

private:
    std::mutex mutex_;
    std::condition_variable freed_;
    int free_;
};

TimeNs seconds_to_ns(double s) { return static_cast<TimeNs>(s * 1e9); }

// The host's memory bandwidth, shared: a copy that starts while k - 1 others run gets at most a
// k-th of what every core copying at once achieves in total (when the profile measured that).
class ModeledMemoryBus {
public:
    class Use {
    public:
        explicit Use(std::atomic<int>& active) : active_(active), sharers_(++active) {}
        ~Use() { --active_; }
        Use(const Use&) = delete;
        Use& operator=(const Use&) = delete;
        double rate(double one_thread, double all_cores) const {
            return all_cores > 0 ? std::min(one_thread, all_cores / sharers_) : one_thread;
        }

    private:
        std::atomic<int>& active_;
        int sharers_;
    };
    Use use() { return Use(active_); }

private:
    std::atomic<int> active_{0};
};

class ModeledHostWork final : public HostWork {
public:
    explicit ModeledHostWork(const HardwareProfile& profile)
        : cores_(profile.host_cores),
          memcpy_bytes_per_s_(profile.memcpy_gb_per_s * 1e9),
          pinned_bytes_per_s_(profile.memcpy_to_pinned_gb_per_s * 1e9),
          fresh_bytes_per_s_((profile.first_touch_gb_per_s > 0 ? profile.first_touch_gb_per_s : profile.memcpy_gb_per_s) *
                             1e9),
          all_memcpy_bytes_per_s_(profile.all_cores_memcpy_gb_per_s * 1e9),
          all_fresh_bytes_per_s_(profile.all_cores_first_touch_gb_per_s * 1e9),
          cross_node_memcpy_factor_(profile.cross_node_memcpy_factor) {}

    // A sample is written once (at memcpy speed) and then worked on for cpu_us.
    WorkTimes load_samples(std::byte*, std::size_t sample_bytes, std::uint32_t count, double cpu_us, std::uint64_t,
                           TimeNs ready) override {
        const double write_s = static_cast<double>(sample_bytes) / memcpy_bytes_per_s_;
        const double cpu_s = cpu_us * 1e-6;
        // Loads that mostly write memory share the bus; those that mostly compute do not.
        if (write_s < cpu_s) return cores_.run_for(seconds_to_ns((write_s + cpu_s) * count), ready);
        const ModeledMemoryBus::Use bus = bus_.use();
        const double rate = bus.rate(memcpy_bytes_per_s_, all_memcpy_bytes_per_s_);
        return cores_.run_for(seconds_to_ns((static_cast<double>(sample_bytes) / rate + cpu_s) * count), ready);
    }
    WorkTimes copy(void*, const void*, std::size_t bytes, bool into_pinned, TimeNs ready,
                   double remote_fraction) override {
        // A pageable destination is a batch's new buffer: its pages are faulted in as it is written.
        const ModeledMemoryBus::Use bus = bus_.use();
        const double rate = into_pinned ? bus.rate(pinned_bytes_per_s_, all_memcpy_bytes_per_s_)
                                        : bus.rate(fresh_bytes_per_s_, all_fresh_bytes_per_s_);
        const double slowdown = cross_node_slowdown(remote_fraction, cross_node_memcpy_factor_);
        return cores_.run_for(seconds_to_ns(static_cast<double>(bytes) / rate * slowdown), ready);
    }
    bool touches_memory() const override { return false; }

private:
    ModeledCores cores_;
    double memcpy_bytes_per_s_;
    double pinned_bytes_per_s_;
    double fresh_bytes_per_s_;
    double all_memcpy_bytes_per_s_;
    double all_fresh_bytes_per_s_;
    double cross_node_memcpy_factor_;
    ModeledMemoryBus bus_;
};

}  // namespace

std::unique_ptr<HostWork> make_host_work(HostMode mode, const HardwareProfile& profile) {
    if (mode == HostMode::Real) return make_real_host_work();
    return std::make_unique<ModeledHostWork>(profile);
}

}  // namespace pinscope
