// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/numa/NumaText.h"

#include <QFileInfo>
#include <QStringList>
#include <QSysInfo>

#include "engine/config/LoaderConfig.h"
#include "engine/topology/CpuList.h"
#include "ui/plots/ByteFormat.h"

namespace pinscope::ui {

namespace {

QString percent(double share) { return QStringLiteral("%1 %").arg(share * 100, 0, 'f', 0); }

QString bytes(std::uint64_t n) { return memory_text(static_cast<double>(n)); }

QString cpus_text(const std::vector<int>& cpus) {
    return cpus.empty() ? QStringLiteral("none") : QString::fromStdString(cpu_list_to_string(cpus));
}

QString nodes_text(std::size_t count) {
    return count == 1 ? QStringLiteral("1 NUMA node") : QStringLiteral("%1 NUMA nodes").arg(count);
}

}  // namespace

QString node_memory_text(const NodeState& node) {
    return node.memory_bytes ? bytes(node.memory_bytes) : QString();
}

QString node_pinned_text(const NodeState& node) { return QStringLiteral("pinned %1").arg(bytes(node.pinned_bytes)); }

QString host_lane_label(HostLane lane) {
    switch (lane) {
        case HostLane::Workers: return QStringLiteral("workers");
        case HostLane::PinThread: return QStringLiteral("pin thread");
        case HostLane::Consumer: return QStringLiteral("consumer");
    }
    return QStringLiteral("?");
}

QString gb_per_s_text(double bytes_per_s) {
    const double gb = bytes_per_s / 1e9;
    return QStringLiteral("%1 GB/s").arg(gb, 0, 'f', gb >= 100 ? 0 : gb >= 0.1 || gb == 0 ? 1 : 2);
}

NumaBanner numa_banner(const NumaSnapshot& s) {
    if (!s.topology)
        return {BannerKind::Unavailable, QStringLiteral("Topology not available yet"),
                QStringLiteral("the engine reports it once a run has started")};
    const MachineTopology& t = *s.topology;
    const QString nodes = nodes_text(t.nodes.size());
    if (t.from_file) {
        QString name = QFileInfo(QString::fromStdString(t.source)).fileName();
        if (name.isEmpty()) name = QString::fromStdString(t.source);
        if (!t.machine_name.empty()) name += QStringLiteral(" · %1").arg(QString::fromStdString(t.machine_name));
        return {BannerKind::Loaded, QStringLiteral("Loaded topology: %1").arg(name),
                QStringLiteral("not this machine (placements modelled)")};
    }
    const QString host = t.machine_name.empty() ? QSysInfo::machineHostName() : QString::fromStdString(t.machine_name);
    if (t.nodes.size() <= 1)
        return {BannerKind::ThisMachine, QStringLiteral("This machine: %1, %2").arg(host, nodes),
                QStringLiteral("remote binding and placement do not apply")};
    return {BannerKind::ThisMachine, QStringLiteral("This machine: %1, %2").arg(host, nodes),
            s.modelled ? QStringLiteral("placements modelled") : QStringLiteral("where threads and pages are is read back")};
}

QString traffic_label(const QString& what, double share, const Traffic& traffic, double bytes_per_s) {
    QString text = QStringLiteral("%1 %2").arg(what, percent(share));
    if (traffic.rate_known) text += QStringLiteral(" · %1").arg(gb_per_s_text(bytes_per_s));
    return text;
}

std::vector<StatsPiece> numa_stats(const NumaSnapshot& s) {
    std::vector<StatsPiece> pieces;
    if (!s.topology) return pieces;
    if (s.h2d.rate_known) pieces.push_back({QStringLiteral("H2D %1").arg(gb_per_s_text(s.h2d.bytes_per_s))});
    else if (s.h2d.bytes > 0) pieces.push_back({QStringLiteral("H2D %1 so far").arg(bytes(s.h2d.bytes))});
    if (s.single_node()) {
        pieces.push_back({QStringLiteral("one NUMA node: every copy stays on it")});
    } else if (!s.gpu_node_known()) {
        pieces.push_back({QStringLiteral("the GPU's NUMA node is unknown: cross-node traffic cannot be told")});
    } else if (s.h2d.bytes > 0) {
        const double share = s.h2d.cross_share();
        pieces.push_back(share > 0 ? StatsPiece{traffic_label(QStringLiteral("cross-node H2D"), share, s.h2d, s.h2d.cross_bytes_per_s), true}
                                   : StatsPiece{QStringLiteral("H2D all from the GPU's node")});
    }
    if (!s.single_node() && s.host_copy.bytes > 0) {
        const double share = s.host_copy.cross_share();
        pieces.push_back(share > 0 ? StatsPiece{traffic_label(QStringLiteral("host copies cross-node"), share, s.host_copy,
                                                              s.host_copy.cross_bytes_per_s),
                                                true}
                                   : StatsPiece{QStringLiteral("host copies node-local")});
    }
    if (s.run_ended) {
        // Said, so that "pinned 0 B" after the end is not read as a run that pinned nothing.
        pieces.push_back({QStringLiteral("run ended: pinned %1 now, peak %2").arg(bytes(s.pinned_total()), bytes(s.pinned_peak_bytes))});
    } else {
        pieces.push_back({QStringLiteral("pinned %1").arg(bytes(s.pinned_total()))});
    }
    return pieces;
}

QString cpu_tooltip(const NumaSnapshot& s, int cpu, int core, int package) {
    QStringList lines;
    const int node = s.topology ? s.topology->node_of_cpu(cpu) : -1;
    const NodeState* state = s.node(node);
    lines << QStringLiteral("<b>CPU %1</b> · core %2 · package %3 · NUMA node %4%5")
                 .arg(cpu)
                 .arg(core)
                 .arg(package)
                 .arg(node >= 0 ? QString::number(node) : QStringLiteral("?"))
                 .arg(state && state->gpu_local ? QStringLiteral(" (the GPU's)") : QString());
    QStringList ran;
    for (int k = 0; k < kHostLaneCount; ++k) {
        const double busy = s.busy_on(static_cast<HostLane>(k), cpu);
        if (busy >= 0) ran << QStringLiteral("%1, %2 busy").arg(host_lane_label(static_cast<HostLane>(k)), percent(busy));
    }
    lines << (ran.isEmpty() ? QStringLiteral("no loader thread ran here in the last second")
                            : QStringLiteral("ran here in the last second: %1").arg(ran.join(QStringLiteral("; "))));
    return lines.join(QStringLiteral("<br>"));
}

QString node_tooltip(const NumaSnapshot& s, int node, int package) {
    if (!s.topology) return {};
    const TopologyNode* n = s.topology->find_node(node);
    const NodeState* state = s.node(node);
    if (n == nullptr || state == nullptr) return QStringLiteral("cores the topology puts in no NUMA node");
    QStringList lines;
    lines << QStringLiteral("<b>NUMA node %1</b>%2").arg(node).arg(package >= 0 ? QStringLiteral(" · package %1").arg(package) : QString());
    const QString memory = node_memory_text(*state);
    lines << QStringLiteral("memory %1").arg(memory.isEmpty() ? QStringLiteral("not given") : memory);
    const std::uint64_t total = s.pinned_total();
    lines << QStringLiteral("%1 here%2")
                 .arg(node_pinned_text(*state))
                 .arg(total ? QStringLiteral(" (%1 of the pinned bytes)").arg(percent(static_cast<double>(state->pinned_bytes) /
                                                                                      static_cast<double>(total)))
                            : QString());
    lines << QStringLiteral("CPUs %1").arg(cpus_text(n->cpus));
    if (state->gpu_local) lines << QStringLiteral("the run's GPU hangs off this node");
    return lines.join(QStringLiteral("<br>"));
}

QString gpu_tooltip(const NumaSnapshot& s, int gpu) {
    if (!s.topology) return {};
    if (gpu < 0 || gpu >= static_cast<int>(s.topology->gpus.size()))
        return QStringLiteral("<b>%1</b><br>the run's device: this topology has no GPU with its bus id%2")
            .arg(gpu_name(s, -1).toHtmlEscaped(),
                 s.gpu.node >= 0 ? QStringLiteral(", drawn at node %1").arg(s.gpu.node) : QString());
    const TopologyGpu& g = s.topology->gpus[static_cast<std::size_t>(gpu)];
    const bool run = s.is_run_gpu(gpu);
    return QStringLiteral("<b>%1</b> · %2<br>NUMA node %3 · local CPUs %4<br>%5")
        .arg(gpu_name(s, gpu).toHtmlEscaped(),
             QString::fromStdString(g.pci_bus_id), g.node >= 0 ? QString::number(g.node) : QStringLiteral("unknown"),
             cpus_text(g.local_cpus), run ? QStringLiteral("the run's GPU") : QStringLiteral("not used by this run"));
}

QString gpu_name(const NumaSnapshot& s, int gpu) {
    if (gpu < 0 || !s.topology || gpu >= static_cast<int>(s.topology->gpus.size()))
        return QString::fromStdString(s.gpu.name.empty() ? std::string("emulated device") : s.gpu.name);
    const TopologyGpu& g = s.topology->gpus[static_cast<std::size_t>(gpu)];
    if (!g.name.empty()) return QString::fromStdString(g.name);
    return s.is_run_gpu(gpu) && !s.gpu.name.empty() ? QString::fromStdString(s.gpu.name) : QStringLiteral("GPU");
}

}  // namespace pinscope::ui
