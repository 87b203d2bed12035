// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/numa/NumaLayout.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/numa/NumaViewModel.h"

namespace pinscope::ui {

namespace {

constexpr double kMargin = 10;
constexpr double kBannerH = 30;
constexpr double kLegendH = 20;
constexpr double kStatsH = 22;
constexpr double kRowGap = 8;
constexpr double kPackageGap = 18;
constexpr double kPackagePad = 8;
constexpr double kPackageHeaderH = 24;
constexpr double kMinPackageW = 240;
constexpr double kNodeGap = 10;
constexpr double kNodePad = 6;
constexpr double kNodeHeaderH = 18;
constexpr double kNodeBarH = 14;
constexpr double kMinNodeW = 220;
constexpr double kCoreGap = 3;
constexpr double kLinkH = 46;  // between a package and its GPUs: room for the traffic arrows and their labels
constexpr double kGpuH = 40;
constexpr double kGpuGap = 8;
constexpr double kGpuMaxW = 200;
constexpr double kGpuMinW = 80;
// A hardware thread's cell: what is comfortable to read, and the most it grows to.
constexpr double kIdealCpuW = 34, kIdealCpuH = 15;
constexpr double kMaxCpuW = 52, kMaxCpuH = 18;

struct NodePlan {
    int node = -1;
    int package = -1;
    std::vector<const TopologyCore*> cores;
    int threads = 1;  // most hardware threads of any of its cores
    int cols = 1;
    double cpu_w = 0, cpu_h = 0;  // the best this node alone would get
};

struct PackagePlan {
    int package = -1;
    std::vector<NodePlan> nodes;
};

int rows_for(std::size_t cores, int cols) {
    const auto c = static_cast<std::size_t>(cols);
    return static_cast<int>((cores + c - 1) / c);
}

// The grid of cores that gives the largest cells in `area`: largest relative to what reads well,
// then the fewest empty slots, then about 2.5 times as many columns as rows (a die's shape).
void plan_grid(NodePlan& plan, QSizeF area) {
    const std::size_t count = plan.cores.size();
    if (count == 0) return;
    double best_score = -1, best_shape = 0;
    std::size_t best_empty = 0;
    for (int cols = 1; cols <= static_cast<int>(count); ++cols) {
        const int rows = rows_for(count, cols);
        const double w = std::min(kMaxCpuW, (area.width() - (cols - 1) * kCoreGap) / cols);
        const double h = std::min(kMaxCpuH, ((area.height() - (rows - 1) * kCoreGap) / rows) / plan.threads);
        if (w <= 0 || h <= 0) continue;
        const double score = std::min({w / kIdealCpuW, h / kIdealCpuH, 1.0});
        const std::size_t empty = static_cast<std::size_t>(cols * rows) - count;
        const double shape = std::abs(std::log(static_cast<double>(cols) / rows / 2.5));
        const bool better = score > best_score + 1e-9 ||
                            (std::abs(score - best_score) <= 1e-9 &&
                             (empty < best_empty || (empty == best_empty && shape < best_shape)));
        if (!better) continue;
        best_score = score;
        best_empty = empty;
        best_shape = shape;
        plan.cols = cols;
        plan.cpu_w = w;
        plan.cpu_h = h;
    }
}

std::vector<PackagePlan> plan_packages(const MachineTopology& topology) {
    std::vector<PackagePlan> packages;
    for (const TopologyPackage& p : topology.packages) {
        PackagePlan plan{p.os_index, {}};
        for (int node : p.nodes) plan.nodes.push_back({node, p.os_index, {}, 1, 1, 0, 0});
        for (const TopologyCore& core : p.cores) {
            int node = core.cpus.empty() ? -1 : topology.node_of_cpu(core.cpus.front());
            auto it = std::find_if(plan.nodes.begin(), plan.nodes.end(), [&](const NodePlan& n) { return n.node == node; });
            if (it == plan.nodes.end()) {  // a core of no node of this package: keep it visible anyway
                plan.nodes.push_back({node, p.os_index, {}, 1, 1, 0, 0});
                it = plan.nodes.end() - 1;
            }
            it->cores.push_back(&core);
            it->threads = std::max(it->threads, static_cast<int>(core.cpus.size()));
        }
        packages.push_back(std::move(plan));
    }
    // Nodes no package lists (memory-only nodes, or a topology without packages) go in one more box.
    PackagePlan loose{-1, {}};
    for (const TopologyNode& n : topology.nodes) {
        const bool placed = std::any_of(packages.begin(), packages.end(), [&](const PackagePlan& p) {
            return std::any_of(p.nodes.begin(), p.nodes.end(), [&](const NodePlan& plan) { return plan.node == n.os_index; });
        });
        if (!placed) loose.nodes.push_back({n.os_index, -1, {}, 1, 1, 0, 0});
    }
    if (!loose.nodes.empty()) packages.push_back(std::move(loose));
    return packages;
}

bool draws_virtual_gpu(const RunGpu& gpu) { return !gpu.in_topology && (!gpu.pci_bus_id.empty() || !gpu.name.empty()); }

// GPUs under the node they hang off, centred on it; those of no drawn node to the right of the last package.
void place_gpus(NumaLayout& layout, const MachineTopology& topology, const RunGpu& run_gpu) {
    std::vector<GpuBox> boxes;
    for (std::size_t i = 0; i < topology.gpus.size(); ++i) boxes.push_back({static_cast<int>(i), topology.gpus[i].node, {}});
    if (draws_virtual_gpu(run_gpu)) boxes.push_back({-1, run_gpu.node, {}});
    std::vector<GpuBox> homeless;
    for (const NodeBox& node : layout.nodes) {
        std::vector<GpuBox*> here;
        for (GpuBox& box : boxes)
            if (box.node == node.node && node.node >= 0) here.push_back(&box);
        if (here.empty()) continue;
        const double n = static_cast<double>(here.size());
        const double w = std::clamp((node.rect.width() - (n - 1) * kGpuGap) / n, kGpuMinW, kGpuMaxW);
        const double total = n * w + (n - 1) * kGpuGap;
        const auto package = std::find_if(layout.packages.begin(), layout.packages.end(),
                                          [&](const PackageBox& p) { return p.package == node.package; });
        const double top = (package != layout.packages.end() ? package->rect.bottom() : node.rect.bottom()) + kLinkH;
        double x = node.rect.center().x() - total / 2;
        for (GpuBox* box : here) {
            box->rect = QRectF(x, top, w, kGpuH);
            x += w + kGpuGap;
        }
    }
    for (GpuBox& box : boxes)
        if (box.rect.isNull()) homeless.push_back(box);
    if (!homeless.empty()) {
        const QRectF last =
            layout.packages.empty() ? QRectF(layout.machine.topLeft(), QSizeF(0, 0)) : layout.packages.back().rect;
        double x = last.right() + kPackageGap;
        for (GpuBox& box : boxes) {
            if (!box.rect.isNull()) continue;
            box.rect = QRectF(x, last.bottom() + kLinkH, kGpuMaxW * 0.8, kGpuH);
            x += box.rect.width() + kGpuGap;
        }
    }
    layout.gpus = std::move(boxes);
}

}  // namespace

const NodeBox* NumaLayout::node_box(int node) const {
    for (const NodeBox& box : nodes)
        if (box.node == node) return &box;
    return nullptr;
}

const GpuBox* NumaLayout::gpu_box(int gpu) const {
    for (const GpuBox& box : gpus)
        if (box.gpu == gpu) return &box;
    return nullptr;
}

namespace {

// Packages, nodes, cores and GPUs in `layout.machine`.
void layout_machine(NumaLayout& layout, const MachineTopology* topology, const RunGpu& run_gpu) {
    const QRectF area = layout.machine;
    std::vector<PackagePlan> packages = plan_packages(*topology);
    if (packages.empty()) return;
    const bool any_gpu = !topology->gpus.empty() || draws_virtual_gpu(run_gpu);
    const double gpu_strip = any_gpu ? kLinkH + kGpuH : 0;

    // Up to four packages in a row; more go in rows of about equal length.
    const int count = static_cast<int>(packages.size());
    const int rows = (count + 3) / 4;
    const int cols = (count + rows - 1) / rows;
    const double slot_w = (area.width() - (cols - 1) * kPackageGap) / cols;
    const double slot_h = (area.height() - (rows - 1) * kPackageGap) / rows;

    // Each node's best grid in an equal share of its package, then one cell size for all.
    double cpu_w = kMaxCpuW, cpu_h = kMaxCpuH;
    for (PackagePlan& package : packages) {
        const double k = static_cast<double>(package.nodes.size());
        const double node_w = (slot_w - 2 * kPackagePad - (k - 1) * kNodeGap) / k;
        const double node_h = slot_h - gpu_strip - kPackageHeaderH - kPackagePad;
        const QSizeF grid_area(node_w - 2 * kNodePad, node_h - 2 * kNodePad - kNodeHeaderH - kNodeBarH - kNodePad);
        for (NodePlan& node : package.nodes) {
            if (node.cores.empty()) continue;
            plan_grid(node, grid_area);
            cpu_w = std::min(cpu_w, node.cpu_w);
            cpu_h = std::min(cpu_h, node.cpu_h);
        }
    }
    cpu_w = std::max(1.0, std::min(cpu_w, cpu_h * 3.2));  // neither long slivers
    cpu_h = std::max(1.0, std::min(cpu_h, cpu_w * 0.8));  // nor tall towers
    layout.cpu_cell = QSizeF(cpu_w, cpu_h);

    // Sizes from the grids, then positions: rows centred across, the whole a little above the middle.
    struct Sized {
        double w = 0, h = 0;
        std::vector<QSizeF> nodes;
    };
    std::vector<Sized> sized;
    for (const PackagePlan& package : packages) {
        Sized s;
        const double k = static_cast<double>(package.nodes.size());
        const double node_room = (slot_w - 2 * kPackagePad - (k - 1) * kNodeGap) / k;
        double node_h = kNodePad + kNodeHeaderH + kNodeBarH + kNodePad;
        for (const NodePlan& node : package.nodes) {
            double grid_w = 0;
            if (!node.cores.empty()) {
                const int r = rows_for(node.cores.size(), node.cols);
                grid_w = node.cols * cpu_w + (node.cols - 1) * kCoreGap;
                node_h = std::max(node_h, kNodePad + kNodeHeaderH + kNodeBarH + kNodePad + r * node.threads * cpu_h +
                                              (r - 1) * kCoreGap + kNodePad);
            }
            s.nodes.push_back({std::min(node_room, std::max(grid_w + 2 * kNodePad, kMinNodeW)), 0});
        }
        for (QSizeF& n : s.nodes) {
            n.setHeight(node_h);
            s.w += n.width();
        }
        s.w = std::min(slot_w, std::max(kMinPackageW, s.w + (k - 1) * kNodeGap + 2 * kPackagePad));
        s.h = kPackageHeaderH + node_h + kPackagePad;
        sized.push_back(std::move(s));
    }
    std::vector<double> row_h(static_cast<std::size_t>(rows), 0), row_w(static_cast<std::size_t>(rows), 0);
    for (int i = 0; i < count; ++i) {
        const auto r = static_cast<std::size_t>(i / cols);
        row_h[r] = std::max(row_h[r], sized[static_cast<std::size_t>(i)].h + gpu_strip);
        row_w[r] += sized[static_cast<std::size_t>(i)].w + (i % cols ? kPackageGap : 0);
    }
    double total_h = (rows - 1) * kPackageGap;
    for (double h : row_h) total_h += h;
    double y = area.top() + std::max(0.0, (area.height() - total_h) / 3);
    double x = 0;
    for (int i = 0; i < count; ++i) {
        const auto r = static_cast<std::size_t>(i / cols);
        if (i % cols == 0) {
            if (i > 0) y += row_h[r - 1] + kPackageGap;
            x = area.left() + std::max(0.0, (area.width() - row_w[r]) / 2);
        }
        const PackagePlan& package = packages[static_cast<std::size_t>(i)];
        const Sized& s = sized[static_cast<std::size_t>(i)];
        layout.packages.push_back(
            {package.package, QRectF(x, y, s.w, s.h), QRectF(x + kPackagePad, y, s.w - 2 * kPackagePad, kPackageHeaderH)});

        double nodes_w = (static_cast<double>(s.nodes.size()) - 1) * kNodeGap;
        for (const QSizeF& n : s.nodes) nodes_w += n.width();
        double nx = x + (s.w - nodes_w) / 2;
        for (std::size_t j = 0; j < package.nodes.size(); ++j) {
            const NodePlan& plan = package.nodes[j];
            NodeBox node;
            node.node = plan.node;
            node.package = package.package;
            node.rect = QRectF(nx, y + kPackageHeaderH, s.nodes[j].width(), s.nodes[j].height());
            node.header = QRectF(nx + kNodePad, node.rect.top() + kNodePad, node.rect.width() - 2 * kNodePad, kNodeHeaderH);
            node.bar = QRectF(node.header.left(), node.header.bottom(), node.header.width(), kNodeBarH);
            const double grid_w = plan.cols * cpu_w + (plan.cols - 1) * kCoreGap;
            const double gx = nx + (node.rect.width() - grid_w) / 2;
            const double gy = node.bar.bottom() + kNodePad;
            const double core_h = plan.threads * cpu_h;
            for (std::size_t c = 0; c < plan.cores.size(); ++c) {
                const TopologyCore& core = *plan.cores[c];
                const auto col = static_cast<double>(c % static_cast<std::size_t>(plan.cols));
                const auto row = static_cast<double>(c / static_cast<std::size_t>(plan.cols));
                CoreBox cb{core.index, QRectF(gx + col * (cpu_w + kCoreGap), gy + row * (core_h + kCoreGap), cpu_w, core_h), {}};
                for (std::size_t t = 0; t < core.cpus.size(); ++t)
                    cb.cpus.push_back({core.cpus[t], QRectF(cb.rect.left(), cb.rect.top() + static_cast<double>(t) * cpu_h,
                                                            cpu_w, cpu_h)});
                node.cores.push_back(std::move(cb));
            }
            layout.nodes.push_back(std::move(node));
            nx += s.nodes[j].width() + kNodeGap;
        }
        x += s.w + kPackageGap;
    }
    place_gpus(layout, *topology, run_gpu);
}

}  // namespace

QRectF NumaLayout::to_widget(const QRectF& r) const {
    const QPointF o = content.topLeft();
    return QRectF(o + (r.topLeft() - o) * zoom, r.size() * zoom);
}

QPointF NumaLayout::to_machine(QPointF p) const {
    const QPointF o = content.topLeft();
    return o + (p - o) / zoom;
}

NumaLayout layout_numa(const MachineTopology* topology, const RunGpu& run_gpu, QSizeF size) {
    NumaLayout layout;
    const double width = size.width() - 2 * kMargin;
    layout.banner = QRectF(kMargin, kMargin, width, kBannerH);
    layout.legend = QRectF(kMargin, layout.banner.bottom() + kRowGap, width, kLegendH);
    layout.stats = QRectF(kMargin, size.height() - kMargin - kStatsH, width, kStatsH);
    layout.content = QRectF(QPointF(kMargin, layout.legend.bottom() + kRowGap),
                            QPointF(kMargin + width, layout.stats.top() - kRowGap));
    layout.machine = layout.content;
    if (topology == nullptr) return layout;
    // The largest zoom at which the cells still get their comfortable size.
    for (double zoom : {1.5, 1.25}) {
        NumaLayout zoomed = layout;
        zoomed.zoom = zoom;
        zoomed.machine = QRectF(layout.content.topLeft(), layout.content.size() / zoom);
        layout_machine(zoomed, topology, run_gpu);
        if (zoomed.cpu_cell.width() >= kIdealCpuW * 0.95 && zoomed.cpu_cell.height() >= kIdealCpuH * 0.95) return zoomed;
    }
    layout_machine(layout, topology, run_gpu);
    return layout;
}

}  // namespace pinscope::ui
