// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Everything that defines a run, named after PyTorch's DataLoader where it has a name.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/config/DeviceChoice.h"

namespace pinscope {

enum class DType : std::uint8_t { F32, F16, BF16, U8, I32, I64, F64 };

// How page-locked memory is obtained when pin_memory is on.
enum class PinMode : std::uint8_t {
    Pool,      // PyTorch's caching host allocator: power-of-two blocks reused after their copy ends
    Alloc,     // cudaHostAlloc for every batch, cudaFreeHost once its copy has ended
    Register,  // the worker's malloc'd batch registered in place (cudaHostRegister), then unregistered
    Worker,    // workers collate straight into pool blocks; there is no pin thread
};

// Which stream the host-to-device copy is queued on.
enum class CopyStream : std::uint8_t {
    Side,     // a stream of its own, as PyTorch's prefetcher recipes do: copies overlap kernels
    Compute,  // the compute stream, as x.to("cuda") in a plain loop: a copy waits for the kernels queued before it
};

// Whether host work is done for real on this machine or modelled from the device's profile.
enum class HostMode : std::uint8_t { Modeled, Real };

// Where a thread may run. GpuLocal and Remote are relative to the NUMA node of the run's GPU.
enum class CpuBindPolicy : std::uint8_t { None, GpuLocal, Remote, CpuList };
struct CpuBinding {
    CpuBindPolicy policy = CpuBindPolicy::None;
    std::vector<int> cpus;  // CpuList only: OS indexes, ascending, no repeats
    friend bool operator==(const CpuBinding&, const CpuBinding&) = default;
};

// Where the pages of page-locked blocks are placed before they are locked.
enum class MemoryPlacement : std::uint8_t {
    FirstTouch,  // wherever the thread that first touches them runs (the OS default)
    GpuLocal,    // bound to the GPU's NUMA node
    Remote,      // bound to another node than the GPU's
    Interleave,  // page by page across all nodes
};

struct LoaderConfig {
    std::uint32_t batch_size = 64;
    std::vector<std::uint32_t> sample_shape{3, 224, 224};
    DType dtype = DType::F32;
    std::uint32_t num_workers = 4;
    // PyTorch's rule: only with workers; unset means 2 when num_workers > 0.
    std::optional<std::uint32_t> prefetch_factor;
    bool pin_memory = true;
    bool non_blocking = true;
    CopyStream copy_stream = CopyStream::Side;
    bool in_order = true;
    PinMode pin_mode = PinMode::Pool;
    double cpu_us_per_sample = 0;   // CPU work per sample; real work on the sample's bytes when host is real
    double gpu_us_per_batch = 2000;  // kernel time per batch after it has read the batch
    // Length of the run: a number of batches or a number of seconds; exactly one is set.
    std::optional<std::uint64_t> batches;
    std::optional<double> seconds = 3.0;
    std::string device = "auto";  // "auto" (cuda:0 if present, else emulated), "emulated[:PROFILE]", "cuda[:N]"
    std::optional<HostMode> host;     // unset: modeled on the emulated device, real on CUDA
    std::optional<std::uint64_t> pinned_budget_bytes;  // unset: a quarter of physical memory
    // NUMA placement: one binding per kind of thread, one placement for pinned blocks.
    CpuBinding bind_workers;
    CpuBinding bind_pin_thread;
    CpuBinding bind_consumer;
    MemoryPlacement membind = MemoryPlacement::FirstTouch;
    std::string topology_xml;  // empty: this machine; else an hwloc XML topology (emulated device only)
    std::string gpu_pci_bus_id;  // on a loaded topology, which of its GPUs the device stands for; empty: the first

    std::uint64_t sample_bytes() const;
    std::uint64_t batch_bytes() const;
    std::uint32_t effective_prefetch_factor() const;   // 0 without workers
    std::uint32_t max_outstanding() const;             // num_workers * prefetch_factor (1 without workers)
    bool pins_in_pin_thread() const { return pin_memory && num_workers > 0 && pin_mode != PinMode::Worker; }
    HostMode effective_host() const;
    // `device` parsed (DeviceChoice); an invalid name (refused by validation) reads as auto.
    DeviceChoice device_choice() const;
    bool is_cuda() const { return device_choice().kind == DeviceKind::Cuda; }

    friend bool operator==(const LoaderConfig&, const LoaderConfig&) = default;
};

// The three thread bindings by their configuration key, in the order workers, pin thread, consumer.
struct BindingField {
    const char* name;
    CpuBinding LoaderConfig::*member;
};
inline constexpr BindingField kBindingFields[] = {{"bind_workers", &LoaderConfig::bind_workers},
                                                  {"bind_pin_thread", &LoaderConfig::bind_pin_thread},
                                                  {"bind_consumer", &LoaderConfig::bind_consumer}};

// The device keeps at most this many batches queued (copied or computing) ahead of the consumer,
// as a training loop does when each step waits on the previous step's result.
inline constexpr std::uint32_t kMaxBatchesOnDevice = 2;

std::uint32_t dtype_size(DType dtype);
std::string to_string(DType dtype);
std::string to_string(PinMode mode);
std::string to_string(HostMode mode);
std::string to_string(CopyStream stream);
std::optional<DType> parse_dtype(const std::string& text);
std::optional<PinMode> parse_pin_mode(const std::string& text);
std::optional<HostMode> parse_host_mode(const std::string& text);
std::optional<CopyStream> parse_copy_stream(const std::string& text);  // "side" or "compute"
// "none", "local", "remote", or a CPU list such as "0-3,8".
std::string to_string(const CpuBinding& binding);
std::optional<CpuBinding> parse_cpu_binding(const std::string& text);
// "none" (first touch), "local", "remote", "interleave".
std::string to_string(MemoryPlacement placement);
std::optional<MemoryPlacement> parse_memory_placement(const std::string& text);
std::string shape_to_string(const std::vector<std::uint32_t>& shape);  // "3x224x224"

// One line per difference, "pin_memory: on -> off", for reconfigure markers; in the order of the
// field table (ConfigFields.h), which defines it.
std::vector<std::string> describe_changes(const LoaderConfig& before, const LoaderConfig& after);

}  // namespace pinscope
