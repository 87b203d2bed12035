// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The words of the NUMA view: its banner (which machine this is), the line of numbers under the
// drawing, the labels on the traffic arrows and the tooltips.
#include <QColor>
#include <QString>

#include <vector>

#include "ui/numa/NumaViewModel.h"

namespace pinscope::ui {

enum class BannerKind { Unavailable, ThisMachine, Loaded };

struct NumaBanner {
    BannerKind kind = BannerKind::Unavailable;
    QString title;   // bold: "This machine: gpu-box, 1 NUMA node"
    QString detail;  // "remote binding and placement do not apply"
    QString text() const { return detail.isEmpty() ? title : title + QStringLiteral(" — ") + detail; }
};

// One piece of the numbers line; warnings are drawn in the warning colour.
struct StatsPiece {
    QString text;
    bool warning = false;
};

QString host_lane_label(HostLane lane);  // "workers", "pin thread", "consumer"
QString gb_per_s_text(double bytes_per_s);  // 1 GB = 10^9 bytes, as the metrics panel

NumaBanner numa_banner(const NumaSnapshot& snapshot);
std::vector<StatsPiece> numa_stats(const NumaSnapshot& snapshot);
// "cross-node 63 % · 11.6 GB/s" (the rate while one is known)
QString traffic_label(const QString& what, double share, const Traffic& traffic, double bytes_per_s);

// A node's memory ("256 GiB") and the pinned bytes on it ("pinned 1.5 GiB"): the one wording of
// these figures, on the drawing and in the node's tooltip alike.
QString node_memory_text(const NodeState& node);  // empty when the topology does not say
QString node_pinned_text(const NodeState& node);

QString cpu_tooltip(const NumaSnapshot& snapshot, int cpu, int core, int package);
QString node_tooltip(const NumaSnapshot& snapshot, int node, int package);
// gpu: index into the topology's GPUs, -1 for the run's GPU that the topology lacks
QString gpu_tooltip(const NumaSnapshot& snapshot, int gpu);
// The topology's name for the GPU, else the run's device name when it is the run's GPU (hwloc
// reads this machine's PCI devices from sysfs, which has no names), else "GPU".
QString gpu_name(const NumaSnapshot& snapshot, int gpu);

}  // namespace pinscope::ui
