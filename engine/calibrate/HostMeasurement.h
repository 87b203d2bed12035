#pragma once
// The host's side of a hardware profile, measured on this machine without the GPU: its cores and
// how fast one thread copies memory.
#include <cstddef>
#include <string>

namespace pinscope {

struct HostCores {
    int cores = 1;           // physical cores this process may run on
    int threads = 1;         // hardware threads (PUs) among them
    std::string counted_by;  // "hwloc" or "std::thread::hardware_concurrency (hwloc failed)"
};

// hwloc's count of the cores in this process's allowed cpuset; hardware_concurrency when hwloc
// cannot load the topology.
HostCores count_host_cores();

// The largest CPU cache on this machine in bytes (hwloc), 0 when unknown.
std::size_t largest_cache_bytes();

// Buffers "far larger than the last-level cache": 256 MiB, or 4 times the largest cache.
std::size_t memcpy_buffer_bytes();

// One thread, memcpy between two pageable buffers of `bytes` each (touched first): the median
// of `samples` timed copies after one untimed one, in GB/s (1e9 bytes).
double measure_memcpy_gb_per_s(std::size_t bytes, int samples);

// One thread, memcpy into a freshly allocated pageable buffer of `bytes` (so every page faults in
// as it is written, as a batch's new buffer does): the median of `samples`, in GB/s.
double measure_first_touch_gb_per_s(std::size_t bytes, int samples);

// `threads` threads at once, each copying `bytes` per copy (into fresh buffers when `first_touch`):
// their total GB/s, the median of `samples` rounds.
double measure_all_cores_gb_per_s(int threads, std::size_t bytes, bool first_touch, int samples);

}  // namespace pinscope
