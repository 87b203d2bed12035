// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/numa/NumaDrawing.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <functional>

#include "ui/numa/NumaLayout.h"
#include "ui/numa/NumaText.h"
#include "ui/numa/NumaViewModel.h"
#include "ui/style/AppStyle.h"
#include "ui/style/StagePalette.h"

namespace pinscope::ui {

namespace {

const QColor kText(0x1F, 0x23, 0x28);
const QColor kMuted(0x5A, 0x62, 0x6C);
const QColor kPackageFill(0xF6, 0xF8, 0xFA);
const QColor kPackageBorder(0xD0, 0xD7, 0xDE);
const QColor kNodeBorder(0xD8, 0xDD, 0xE3);
const QColor kCoreBorder(0xC2, 0xC9, 0xD1);
const QColor kCpuDivider(0xE3, 0xE6, 0xEA);
const QColor kBarBack(0xEC, 0xEF, 0xF2);
const QColor kLink(0xB0, 0xB6, 0xBE);
const QColor kLocalTraffic(0x57, 0x60, 0x6A);
const QColor kAccentFill(0xEA, 0xF1, 0xFD);
const QColor kPinnedColor = stage_color(Stage::Pin);

QColor mix(const QColor& a, const QColor& b, double weight_a) {
    const double w = std::clamp(weight_a, 0.0, 1.0);
    return QColor::fromRgbF(static_cast<float>(a.redF() * w + b.redF() * (1 - w)),
                            static_cast<float>(a.greenF() * w + b.greenF() * (1 - w)),
                            static_cast<float>(a.blueF() * w + b.blueF() * (1 - w)));
}

// Draws `text` elided to `rect`'s width; returns the width used.
double draw_text(QPainter& p, const QRectF& rect, int flags, const QString& text, const QFont& font, const QColor& color) {
    p.setFont(font);
    p.setPen(color);
    const QFontMetricsF fm(font);
    const QString shown = fm.elidedText(text, Qt::ElideRight, rect.width());
    p.drawText(rect, flags | Qt::TextSingleLine, shown);
    return fm.horizontalAdvance(shown);
}

void draw_banner(QPainter& p, const QRectF& rect, const NumaSnapshot& s) {
    const NumaBanner banner = numa_banner(s);
    QColor fill(0xEE, 0xF0, 0xF3), border(0xD8, 0xDD, 0xE3), text(0x4A, 0x52, 0x5C);
    if (banner.kind == BannerKind::ThisMachine) {
        fill = QColor(0xE3, 0xF4, 0xE1), border = QColor(0xA9, 0xD8, 0xA5), text = QColor(0x1E, 0x46, 0x20);
    } else if (banner.kind == BannerKind::Loaded) {
        fill = QColor(0xFF, 0xF4, 0xD6), border = QColor(0xF0, 0xD6, 0x8A), text = QColor(0x5C, 0x43, 0x00);
    }
    p.setPen(QPen(border, 1));
    p.setBrush(fill);
    p.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);
    const QRectF inner = rect.adjusted(10, 0, -10, 0);
    const double used = draw_text(p, inner, Qt::AlignLeft | Qt::AlignVCenter, banner.title, app_font(10, true), text);
    if (!banner.detail.isEmpty())
        draw_text(p, inner.adjusted(used, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                  QStringLiteral(" — %1").arg(banner.detail), app_font(10), text);
}

void draw_legend(QPainter& p, const QRectF& rect) {
    const QFont font = app_font(8);
    const QFontMetricsF fm(font);
    double x = rect.left();
    const double cy = rect.center().y();
    // Items that do not fit are left out, the last ones first.
    const auto item = [&](const QString& label, const std::function<void(const QRectF&)>& swatch) {
        const double indent = swatch ? 21 : 0;
        const double need = indent + fm.horizontalAdvance(label) + 14;
        if (x + need > rect.right()) return;
        if (swatch) swatch(QRectF(x, cy - 6, 16, 12));
        draw_text(p, QRectF(x + indent, rect.top(), need, rect.height()), Qt::AlignLeft | Qt::AlignVCenter, label, font, kMuted);
        x += need;
    };
    for (int k = 0; k < kHostLaneCount; ++k) {
        const QColor color = lane_color(lane_kind_of(static_cast<HostLane>(k)));
        item(host_lane_label(static_cast<HostLane>(k)), [&](const QRectF& r) {
            p.setPen(QPen(kCoreBorder, 1));
            p.setBrush(mix(color, Qt::white, 0.35));
            p.drawRect(r.adjusted(0, 0, -r.width() / 2, 0));
            p.setBrush(color);
            p.drawRect(r.adjusted(r.width() / 2, 0, 0, 0));
        });
    }
    item(QStringLiteral("run's GPU"), [&](const QRectF& r) {
        p.setPen(QPen(kNumaAccent, 2));
        p.setBrush(kAccentFill);
        p.drawRoundedRect(r.adjusted(1, 1, -1, -1), 2, 2);
    });
    item(QStringLiteral("pinned"), [&](const QRectF& r) { p.fillRect(r.adjusted(0, 3, 0, -3), kPinnedColor); });
    item(QStringLiteral("local H2D"), [&](const QRectF& r) {
        p.setPen(QPen(kLocalTraffic, 3, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
    });
    item(QStringLiteral("cross-node H2D"), [&](const QRectF& r) {
        p.setPen(QPen(kNumaAlert, 3, Qt::SolidLine, Qt::FlatCap));
        p.drawLine(QPointF(r.left(), r.center().y()), QPointF(r.right(), r.center().y()));
    });
    item(QStringLiteral("(a mark's shade: how busy, last second)"), nullptr);
}

void draw_package(QPainter& p, const PackageBox& box, const MachineTopology& t) {
    p.setPen(QPen(kPackageBorder, 1));
    p.setBrush(kPackageFill);
    p.drawRoundedRect(box.rect.adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    QString detail;
    for (const TopologyPackage& pkg : t.packages) {
        if (pkg.os_index != box.package) continue;
        std::size_t cpus = 0;
        for (const TopologyCore& core : pkg.cores) cpus += core.cpus.size();
        detail = QStringLiteral("%1 cores · %2 CPUs").arg(pkg.cores.size()).arg(cpus);
    }
    const QString title = box.package >= 0 ? QStringLiteral("Package %1").arg(box.package) : QStringLiteral("Other nodes");
    const double used = draw_text(p, box.header, Qt::AlignLeft | Qt::AlignVCenter, title, app_font(9, true), kText);
    draw_text(p, box.header.adjusted(used + 8, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, detail, app_font(8), kMuted);
}

void draw_node(QPainter& p, const NodeBox& box, const NumaSnapshot& s) {
    const NodeState* state = s.node(box.node);
    const bool local = state != nullptr && state->gpu_local && !s.single_node();
    p.setPen(QPen(local ? kNumaAccent : kNodeBorder, local ? 1.6 : 1));
    p.setBrush(Qt::white);
    p.drawRoundedRect(box.rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4);

    const QString memory = state != nullptr ? node_memory_text(*state) : QString();
    const QString title = box.node >= 0 ? QStringLiteral("Node %1").arg(box.node) : QStringLiteral("No node");
    QRectF header = box.header;
    if (local) {
        const QFont chip_font = app_font(7, true);
        const QString chip = QStringLiteral("GPU-LOCAL");
        const double w = QFontMetricsF(chip_font).horizontalAdvance(chip) + 10;
        const QRectF chip_rect(header.right() - w, header.top() + 2, w, header.height() - 4);
        p.setPen(Qt::NoPen);
        p.setBrush(kAccentFill);
        p.drawRoundedRect(chip_rect, 3, 3);
        draw_text(p, chip_rect, Qt::AlignCenter, chip, chip_font, kNumaAccent);
        header.setRight(chip_rect.left() - 4);
    }
    const double used = draw_text(p, header, Qt::AlignLeft | Qt::AlignVCenter, title, app_font(9, true), kText);
    if (!memory.isEmpty())
        draw_text(p, header.adjusted(used + 6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, memory, app_font(8), kMuted);
    if (state == nullptr) return;

    // Pinned bytes on this node, as a share of all pinned bytes; red when they are away from the GPU.
    const bool away = s.gpu_node_known() && !state->gpu_local && !s.single_node() && state->pinned_bytes > 0;
    const QFont font = app_font(7, away);
    const QString label = node_pinned_text(*state);
    const double label_w = std::min(box.bar.width() * 0.5, QFontMetricsF(font).horizontalAdvance(label) + 8);
    draw_text(p, QRectF(box.bar.left(), box.bar.top(), label_w, box.bar.height()), Qt::AlignLeft | Qt::AlignVCenter, label, font,
              away ? kNumaAlert : kMuted);
    const QRectF bar(box.bar.left() + label_w, box.bar.center().y() - 3, box.bar.width() - label_w, 6);
    p.setPen(Qt::NoPen);
    p.setBrush(kBarBack);
    p.drawRoundedRect(bar, 3, 3);
    const std::uint64_t total = s.pinned_total();
    if (total > 0 && state->pinned_bytes > 0) {
        p.setBrush(away ? kNumaAlert : kPinnedColor);
        const double share = static_cast<double>(state->pinned_bytes) / static_cast<double>(total);
        p.drawRoundedRect(QRectF(bar.left(), bar.top(), std::max(bar.height(), bar.width() * share), bar.height()), 3, 3);
    }
}

void draw_cores(QPainter& p, const NodeBox& box, const NumaSnapshot& s, const std::optional<QFont>& number_font) {
    for (const CoreBox& core : box.cores) {
        for (const CpuCell& cell : core.cpus) {
            std::vector<QColor> fills;
            for (int k = 0; k < kHostLaneCount; ++k) {
                const double busy = s.busy_on(static_cast<HostLane>(k), cell.cpu);
                if (busy < 0) continue;
                fills.push_back(mix(lane_color(lane_kind_of(static_cast<HostLane>(k))), Qt::white, 0.35 + 0.65 * busy));
            }
            double lightness = 1;
            if (fills.empty()) {
                p.fillRect(cell.rect, Qt::white);
            } else {
                const double w = cell.rect.width() / static_cast<double>(fills.size());
                lightness = 0;
                for (std::size_t i = 0; i < fills.size(); ++i) {
                    const double x = cell.rect.left() + w * static_cast<double>(i);
                    p.fillRect(QRectF(x, cell.rect.top(), w, cell.rect.height()), fills[i]);
                    lightness += fills[i].lightnessF() / static_cast<double>(fills.size());
                }
            }
            if (number_font)
                draw_text(p, cell.rect, Qt::AlignCenter, QString::number(cell.cpu), *number_font,
                          lightness < 0.6 ? QColor(Qt::white) : (fills.empty() ? kMuted : kText));
        }
        p.setPen(QPen(kCpuDivider, 1));
        for (std::size_t i = 1; i < core.cpus.size(); ++i) {
            const double y = core.cpus[i].rect.top();
            p.drawLine(QPointF(core.rect.left() + 1, y), QPointF(core.rect.right() - 1, y));
        }
        p.setPen(QPen(kCoreBorder, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(core.rect.adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
    }
}

bool is_run_gpu(const GpuBox& box, const NumaSnapshot& s) {
    return box.gpu < 0 || s.is_run_gpu(box.gpu);
}

// Where a GPU's PCIe link leaves its node: straight above the GPU, kept inside the node.
QPointF link_start(const NodeBox& node, const GpuBox& gpu) {
    return {std::clamp(gpu.rect.center().x(), node.rect.left() + 10, node.rect.right() - 10), node.rect.bottom()};
}

void draw_gpu(QPainter& p, const GpuBox& box, const NumaSnapshot& s) {
    const bool run = is_run_gpu(box, s);
    const QString name = gpu_name(s, box.gpu);
    QString bus;
    if (box.gpu >= 0) {
        bus = QString::fromStdString(s.topology->gpus[static_cast<std::size_t>(box.gpu)].pci_bus_id);
    } else {
        bus = s.gpu.pci_bus_id.empty() ? QStringLiteral("not in this topology") : QString::fromStdString(s.gpu.pci_bus_id);
    }
    if (box.node < 0) bus += QStringLiteral(" · node ?");
    p.setPen(QPen(run ? kNumaAccent : kCoreBorder, run ? 2 : 1, box.gpu < 0 ? Qt::DashLine : Qt::SolidLine));
    p.setBrush(run ? kAccentFill : QColor(Qt::white));
    p.drawRoundedRect(box.rect.adjusted(1, 1, -1, -1), 5, 5);
    const QRectF inner = box.rect.adjusted(8, 4, -8, -4);
    const QRectF top(inner.left(), inner.top(), inner.width(), inner.height() / 2);
    const QRectF bottom(inner.left(), top.bottom(), inner.width(), inner.height() / 2);
    draw_text(p, top, Qt::AlignHCenter | Qt::AlignVCenter, name, app_font(8, true), run ? kText : kMuted);
    draw_text(p, bottom, Qt::AlignHCenter | Qt::AlignVCenter, bus, app_font(7), kMuted);
}

void draw_arrow(QPainter& p, const QPainterPath& path, const QColor& color, double width) {
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::FlatCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    const QPointF tip = path.pointAtPercent(1);
    const double head = 5 + width;
    const double angle = path.angleAtPercent(0.98) * M_PI / 180;  // Qt's angles run counter-clockwise
    const QPointF back(std::cos(angle), -std::sin(angle));
    const QPointF side(-back.y(), back.x());
    QPolygonF triangle({tip + back * 2, tip - back * head + side * head * 0.6, tip - back * head - side * head * 0.6});
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(triangle);
}

QSizeF pill_size(const QString& text) {
    const QFontMetricsF fm(app_font(8, true));
    return {fm.horizontalAdvance(text) + 12, fm.height() + 4};
}

void draw_pill(QPainter& p, QPointF centre, const QString& text, const QColor& color, const QRectF& bounds) {
    const QSizeF size = pill_size(text);
    QRectF rect(centre - QPointF(size.width() / 2, size.height() / 2), size);
    rect.moveLeft(std::clamp(rect.left(), bounds.left(), std::max(bounds.left(), bounds.right() - rect.width())));
    p.setPen(QPen(color, 1));
    p.setBrush(Qt::white);
    p.drawRoundedRect(rect, size.height() / 2, size.height() / 2);
    draw_text(p, rect, Qt::AlignCenter, text, app_font(8, true), color);
}

// H2D from the GPU's own node along its link, and from the nodes holding the pages when it crosses.
void draw_traffic(QPainter& p, const NumaLayout& layout, const NumaSnapshot& s, const GpuBox& gpu) {
    if (s.h2d.bytes == 0 || !s.gpu_node_known()) return;
    const NodeBox* home = layout.node_box(s.gpu.node);
    if (home == nullptr) return;
    const double cross = s.h2d.cross_share();
    const double local = 1 - cross;
    const QPointF end(gpu.rect.center().x(), gpu.rect.top());
    if (local > 0.005) {
        const QPointF start = link_start(*home, gpu);
        QPainterPath path(start);
        path.lineTo(end);
        draw_arrow(p, path, kLocalTraffic, 1.5 + 4.5 * local);
        // On the arrow, nearer the node: a cross-node arrow reaches the GPU's side of the gap only at its end.
        const QString label = traffic_label(QStringLiteral("local"), local, s.h2d, s.h2d.bytes_per_s - s.h2d.cross_bytes_per_s);
        draw_pill(p, start + (end - start) * 0.4, label, kLocalTraffic, layout.machine);
    }
    if (cross <= 0.005) return;
    const QColor color = cross_node_color(cross);
    for (int source : s.cross_sources) {
        const NodeBox* from = layout.node_box(source);
        if (from == nullptr) continue;
        const QPointF start(from->rect.center().x(), from->rect.bottom());
        const QPointF to(end.x() + (start.x() < end.x() ? -14 : 14) * (local > 0.005), end.y());
        QPainterPath path(start);
        const double dy = to.y() - start.y();
        path.cubicTo(QPointF(start.x(), start.y() + dy * 0.9), QPointF(to.x(), to.y() - dy * 0.9), to);
        draw_arrow(p, path, color, 2 + 6 * cross);
        draw_pill(p, path.pointAtPercent(0.5),
                  traffic_label(QStringLiteral("cross-node"), cross, s.h2d, s.h2d.cross_bytes_per_s), color, layout.machine);
    }
}

void draw_stats(QPainter& p, const QRectF& rect, const NumaSnapshot& s) {
    const std::vector<StatsPiece> pieces = numa_stats(s);
    const QString sep = QStringLiteral("   ·   ");
    // 10 pt where the whole line fits, else 9 pt and the last pieces left out.
    int points = 10;
    for (; points > 9; --points) {
        double width = 0;
        for (const StatsPiece& piece : pieces)
            width += QFontMetricsF(app_font(points)).horizontalAdvance(sep) +
                     QFontMetricsF(app_font(points, piece.warning)).horizontalAdvance(piece.text);
        if (width <= rect.width()) break;
    }
    const QFont font = app_font(points);
    const QFont bold = app_font(points, true);
    double x = rect.left();
    bool first = true;
    for (const StatsPiece& piece : pieces) {
        const QString gap = first ? QString() : sep;
        const double need = QFontMetricsF(font).horizontalAdvance(gap) +
                            QFontMetricsF(piece.warning ? bold : font).horizontalAdvance(piece.text);
        if (x + need > rect.right()) break;
        const auto rest = [&] { return QRectF(x, rect.top(), rect.right() - x, rect.height()); };
        x += draw_text(p, rest(), Qt::AlignLeft | Qt::AlignVCenter, gap, font, kMuted);
        x += draw_text(p, rest(), Qt::AlignLeft | Qt::AlignVCenter, piece.text, piece.warning ? bold : font,
                       piece.warning ? cross_node_color(0.5) : kText);
        first = false;
    }
}

void draw_placeholder(QPainter& p, const QRectF& rect) {
    const double width = std::min(600.0, rect.width());
    const QRectF box(rect.center().x() - width / 2, rect.center().y() - 50, width, 100);
    draw_text(p, QRectF(box.left(), box.top(), box.width(), 30), Qt::AlignCenter, QStringLiteral("Topology not available yet"),
              app_font(14, true), kMuted);
    p.setFont(app_font(9));
    p.setPen(kMuted);
    p.drawText(QRectF(box.left(), box.top() + 36, box.width(), 64), Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
               QStringLiteral("Once a run has started and the engine has read its topology, this view shows the "
                              "machine, or the topology chosen under NUMA placement: the GPU at its node, the cores "
                              "the loader's threads run on and the node that holds the pinned pages."));
}

}  // namespace

QColor cross_node_color(double share) { return share >= 0.5 ? kNumaAlert : kNumaWarning; }

std::optional<QFont> cpu_number_font(QSizeF cell, int max_cpu) {
    const QString widest = QString(QString::number(std::max(max_cpu, 0)).size(), QLatin1Char('8'));
    for (int points = 9; points >= 6; --points) {
        const QFont font = app_font(points);
        const QFontMetricsF fm(font);
        if (fm.horizontalAdvance(widest) + 4 <= cell.width() && fm.capHeight() + 4 <= cell.height()) return font;
    }
    return std::nullopt;
}

void draw_numa(QPainter& p, const NumaLayout& layout, const NumaSnapshot& s) {
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    draw_banner(p, layout.banner, s);
    draw_legend(p, layout.legend);
    if (!s.topology) {
        draw_placeholder(p, layout.content);
        return;
    }
    draw_stats(p, layout.stats, s);
    p.save();
    p.translate(layout.content.topLeft());
    p.scale(layout.zoom, layout.zoom);
    p.translate(-layout.content.topLeft());
    for (const PackageBox& box : layout.packages) draw_package(p, box, *s.topology);
    int max_cpu = 0;
    for (const NodeBox& node : layout.nodes)
        for (const CoreBox& core : node.cores)
            for (const CpuCell& cell : core.cpus) max_cpu = std::max(max_cpu, cell.cpu);
    const std::optional<QFont> number_font = cpu_number_font(layout.cpu_cell, max_cpu);
    for (const NodeBox& node : layout.nodes) {
        draw_node(p, node, s);
        p.setRenderHint(QPainter::Antialiasing, false);  // crisp cells
        draw_cores(p, node, s, number_font);
        p.setRenderHint(QPainter::Antialiasing, true);
    }
    const GpuBox* run_gpu = nullptr;
    for (const GpuBox& gpu : layout.gpus) {
        if (is_run_gpu(gpu, s)) run_gpu = &gpu;
        const NodeBox* node = layout.node_box(gpu.node);
        if (node == nullptr) continue;
        p.setPen(QPen(kLink, 1, Qt::DotLine));
        p.drawLine(link_start(*node, gpu), QPointF(gpu.rect.center().x(), gpu.rect.top()));
    }
    for (const GpuBox& gpu : layout.gpus) draw_gpu(p, gpu, s);
    if (run_gpu != nullptr) draw_traffic(p, layout, s, *run_gpu);
    p.restore();
}

}  // namespace pinscope::ui
