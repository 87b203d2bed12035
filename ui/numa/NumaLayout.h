// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where the NUMA view draws each thing, for a topology and a widget size: packages side by side,
// their NUMA nodes inside them, each node's cores as a grid of cells split into their hardware
// threads, and the GPUs in a strip under the node they hang off. One cell size for the whole
// machine, as large as fits (up to a limit), so that the same CPU looks the same everywhere.
// Kept apart from the painting so that tests can check it: cells disjoint and inside their node.
#include <QRectF>
#include <QSizeF>

#include <vector>

#include "engine/topology/MachineTopology.h"

namespace pinscope::ui {

struct RunGpu;

struct CpuCell {
    int cpu = -1;  // OS index
    QRectF rect;
};

struct CoreBox {
    int core = -1;  // TopologyCore::index
    QRectF rect;
    std::vector<CpuCell> cpus;  // stacked top to bottom
};

struct NodeBox {
    int node = -1;     // os_index; -1 for cores the topology puts in no node
    int package = -1;  // os_index
    QRectF rect;
    QRectF header;  // "node 0 · 256 GiB"
    QRectF bar;     // pinned bytes on this node
    std::vector<CoreBox> cores;
};

struct PackageBox {
    int package = -1;  // os_index
    QRectF rect;
    QRectF header;
};

struct GpuBox {
    int gpu = -1;  // index into MachineTopology::gpus; -1: the run's GPU, which the topology lacks
    int node = -1;
    QRectF rect;
};

// The banner, legend and stats rows are in widget coordinates. The machine (packages, nodes,
// cores, GPUs) is laid out in its own coordinates and drawn `zoom` times larger into `content`,
// so that a large window shows a small machine larger, text and all, instead of spreading it out.
struct NumaLayout {
    QRectF banner;
    QRectF legend;
    QRectF stats;
    QRectF content;  // widget coordinates: between the legend and the stats
    double zoom = 1;
    QRectF machine;  // machine coordinates: `content` at 1/zoom, same top left
    std::vector<PackageBox> packages;
    std::vector<NodeBox> nodes;
    std::vector<GpuBox> gpus;
    QSizeF cpu_cell;  // size of one hardware thread's cell; empty without cores

    const NodeBox* node_box(int node) const;
    const GpuBox* gpu_box(int gpu) const;
    QRectF to_widget(const QRectF& machine_rect) const;
    QPointF to_machine(QPointF widget_point) const;
};

// `topology` null: only the banner, legend and stats rows. `run_gpu` adds a box for the run's GPU
// where the topology has none (an emulated device standing for no GPU of it).
NumaLayout layout_numa(const MachineTopology* topology, const RunGpu& run_gpu, QSizeF size);

}  // namespace pinscope::ui
