// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The GPU's own clock in nanoseconds (%globaltimer), the same on every SM.
__device__ __forceinline__ unsigned long long gpu_clock_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
