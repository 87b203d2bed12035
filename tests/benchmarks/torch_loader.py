#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""PyTorch's DataLoader on the same scenarios as `pinscope-cli sweep`, for docs/benchmarks.md.

Each sample is a 3x224x224 float32 tensor written at memory speed (torch.full), then `cpu_us` of
work on it (one pass over its bytes, then busy until the time is spent), as pinscope's real host
work does. The consumer copies each batch with .to(cuda, non_blocking=True), launches pinscope's
kernel (read every byte, then run `gpu_us` on the GPU clock; compiled here with CuPy) and keeps at
most two batches on the GPU, like pinscope's consumer. `--copy-stream` puts the copy on its own
stream, as pinscope does; without it the copy and the kernel share PyTorch's current stream.
Throughput is counted from the end of the warm-up to the end of the run, on completed kernels.
"""
import argparse
import collections
import csv
import os
import sys
import time

import cupy
import numpy
import torch
from torch.utils.data import DataLoader, Dataset

KERNEL = r"""
#include <cooperative_groups.h>
extern "C" __global__ void consume(const unsigned long long data_ptr, const unsigned long long count16,
                                   const unsigned long long spin_ns, unsigned long long* record) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    const uint4* data = reinterpret_cast<const uint4*>(data_ptr);
    unsigned long long sum = 0;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < count16;
         i += (unsigned long long)gridDim.x * blockDim.x) {
        const uint4 v = __ldg(data + i);
        sum += (unsigned long long)v.x + v.y + v.z + v.w;
    }
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if ((threadIdx.x & 31) == 0) atomicAdd(record, sum);
    grid.sync();
    unsigned long long start;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    if (blockIdx.x == 0 && threadIdx.x == 0) record[1] = start;
    grid.sync();
    const unsigned long long until = *((volatile unsigned long long*)record + 1) + spin_ns;
    unsigned long long now;
    do { asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now)); } while (now < until);
}
"""


class Samples(Dataset):
    def __init__(self, shape, cpu_us, length):
        self.shape, self.cpu_ns, self.length = shape, int(cpu_us * 1000), length

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        sample = torch.full(self.shape, float(index % 65521), dtype=torch.float32)
        deadline = time.perf_counter_ns() + self.cpu_ns
        if self.cpu_ns:
            sample.mul_(1.0000001)
            while time.perf_counter_ns() < deadline:
                pass
        return sample


def measure(workers, pin_memory, args, kernel, grid):
    torch.set_num_threads(1)  # pinscope's consumer and workers are one thread each
    shape = tuple(int(x) for x in args.sample_shape.split("x"))
    loader = DataLoader(Samples(shape, args.cpu_us, 10**9), batch_size=args.batch_size, num_workers=workers,
                        pin_memory=pin_memory, prefetch_factor=2 if workers else None,
                        persistent_workers=False)
    record = cupy.zeros(2, dtype=cupy.uint64)
    copy_stream = torch.cuda.Stream() if args.copy_stream else None
    on_gpu = collections.deque()
    start = time.perf_counter()
    measured_from = None
    done = 0
    for batch in loader:
        if copy_stream is not None:
            with torch.cuda.stream(copy_stream):
                gpu_batch = batch.to("cuda", non_blocking=True)
            torch.cuda.current_stream().wait_stream(copy_stream)
            gpu_batch.record_stream(torch.cuda.current_stream())
        else:
            gpu_batch = batch.to("cuda", non_blocking=True)
        with cupy.cuda.ExternalStream(torch.cuda.current_stream().cuda_stream):
            record.fill(0)
            kernel((grid,), (256,), (numpy.uint64(gpu_batch.data_ptr()), numpy.uint64(gpu_batch.numel() // 4),
                                      numpy.uint64(int(args.gpu_us * 1000)), record))
        finished = torch.cuda.Event()
        finished.record()
        on_gpu.append(finished)
        if len(on_gpu) > 2:
            on_gpu.popleft().synchronize()
            now = time.perf_counter()
            if measured_from is None and now - start >= args.warmup:
                measured_from, done = now, 0
            elif measured_from is not None:
                done += 1
                if now - start >= args.seconds:
                    break
    rate = done / (time.perf_counter() - measured_from)
    del loader
    return rate


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="0,4,8")
    parser.add_argument("--pin-memory", default="off,on")
    parser.add_argument("--cpu-us", type=float, default=0)
    parser.add_argument("--gpu-us", type=float, default=2000)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--sample-shape", default="3x224x224")
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--warmup", type=float, default=1)
    parser.add_argument("--copy-stream", action="store_true")
    parser.add_argument("--csv")
    args = parser.parse_args()

    kernel = cupy.RawKernel(KERNEL, "consume", enable_cooperative_groups=True)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    grid = sms * 4
    rows = []
    for workers in (int(w) for w in args.workers.split(",")):
        for pin in (p == "on" for p in args.pin_memory.split(",")):
            rate = measure(workers, pin, args, kernel, grid)
            rows.append({"workers": workers, "pin_memory": "on" if pin else "off",
                         "copy_stream": "on" if args.copy_stream else "off", "batches_per_s": f"{rate:.1f}"})
            print(f"torch workers {workers} pin_memory {'on ' if pin else 'off'} "
                  f"copy_stream {'on ' if args.copy_stream else 'off'} {rate:7.1f} batches/s", flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


if __name__ == "__main__":
    sys.exit(main())
