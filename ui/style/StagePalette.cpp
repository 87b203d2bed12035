// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/style/StagePalette.h"

namespace pinscope::ui {

namespace {
bool g_presenter_palette = false;

QColor okabe_ito(Stage stage) {
    switch (stage) {
        case Stage::Load: return QColor(0x00, 0x72, 0xB2);     // blue
        case Stage::Collate: return QColor(0x56, 0xB4, 0xE9);  // sky blue
        case Stage::Pin: return QColor(0xE6, 0x9F, 0x00);      // orange
        case Stage::Alloc: return QColor(0xF0, 0xE4, 0x42);    // yellow
        case Stage::Wait: return QColor(0xBB, 0xBB, 0xBB);     // grey
        case Stage::Staging: return QColor(0xD5, 0x5E, 0x00);  // vermillion
        case Stage::Sync: return QColor(0xEE, 0xBB, 0x99);     // pale vermillion
        case Stage::H2D: return QColor(0xCC, 0x79, 0xA7);      // reddish purple
        case Stage::Compute: return QColor(0x00, 0x9E, 0x73);  // bluish green
        case Stage::Free: return QColor(0x66, 0x66, 0x66);     // dark grey
    }
    return Qt::black;
}
}  // namespace

void set_presenter_palette(bool on) { g_presenter_palette = on; }
bool presenter_palette() { return g_presenter_palette; }

QColor stage_color(Stage stage) {
    if (g_presenter_palette) return okabe_ito(stage);
    switch (stage) {
        case Stage::Load: return QColor(0x4E, 0x79, 0xA7);     // blue
        case Stage::Collate: return QColor(0x76, 0xB7, 0xB2);  // teal
        case Stage::Pin: return QColor(0xF2, 0x8E, 0x2B);      // orange
        case Stage::Alloc: return QColor(0x9C, 0x75, 0x5F);    // brown
        case Stage::Wait: return QColor(0xC9, 0xC3, 0xBF);     // light grey
        case Stage::Staging: return QColor(0xE1, 0x57, 0x59);  // red
        case Stage::Sync: return QColor(0xFF, 0x9D, 0xA7);     // pink
        case Stage::H2D: return QColor(0xB0, 0x7A, 0xA1);      // purple
        case Stage::Compute: return QColor(0x59, 0xA1, 0x4F);  // green
        case Stage::Free: return QColor(0xED, 0xC9, 0x48);     // yellow
    }
    return Qt::black;
}

QString stage_label(Stage stage) {
    switch (stage) {
        case Stage::Load: return QStringLiteral("load");
        case Stage::Collate: return QStringLiteral("collate");
        case Stage::Pin: return QStringLiteral("pin");
        case Stage::Alloc: return QStringLiteral("page-lock alloc");
        case Stage::Wait: return QStringLiteral("wait for batch");
        case Stage::Staging: return QStringLiteral("pageable staging");
        case Stage::Sync: return QStringLiteral("sync");
        case Stage::H2D: return QStringLiteral("H2D copy");
        case Stage::Compute: return QStringLiteral("compute");
        case Stage::Free: return QStringLiteral("page-lock free");
    }
    return QStringLiteral("?");
}

QString stage_description(Stage stage) {
    switch (stage) {
        case Stage::Load: return QStringLiteral("Dataset __getitem__: produce the samples and do the per-sample CPU work");
        case Stage::Collate: return QStringLiteral("Stack the samples into one batch buffer");
        case Stage::Pin: return QStringLiteral("Copy (or register) the batch into page-locked memory");
        case Stage::Alloc: return QStringLiteral("Page-locked allocation or registration outside the caching pool");
        case Stage::Wait: return QStringLiteral("The consumer waiting for its next batch: the GPU starves here");
        case Stage::Staging: return QStringLiteral("The host held inside a pageable host-to-device copy call");
        case Stage::Sync: return QStringLiteral("The host waiting on the device (blocking copy, device queue full)");
        case Stage::H2D: return QStringLiteral("Host-to-device copy on the copy stream");
        case Stage::Compute: return QStringLiteral("The kernel on the compute stream");
        case Stage::Free: return QStringLiteral("Page-locked free or unregistration");
    }
    return {};
}

QString lane_label(Lane lane) {
    switch (lane.kind) {
        case LaneKind::Worker: return QStringLiteral("worker %1").arg(lane.index);
        case LaneKind::PinThread: return QStringLiteral("pin thread");
        case LaneKind::Consumer: return QStringLiteral("consumer");
        case LaneKind::CopyStream: return QStringLiteral("H2D stream");
        case LaneKind::ComputeStream: return QStringLiteral("compute stream");
    }
    return QStringLiteral("?");
}

QColor lane_color(LaneKind kind) {
    switch (kind) {
        case LaneKind::Worker: return stage_color(Stage::Load);
        case LaneKind::PinThread: return stage_color(Stage::Pin);
        case LaneKind::Consumer:
        case LaneKind::CopyStream: return stage_color(Stage::H2D);
        case LaneKind::ComputeStream: return stage_color(Stage::Compute);
    }
    return Qt::black;
}

QColor marker_color(MarkerKind kind) {
    switch (kind) {
        case MarkerKind::Reconfigured: return {0x2F, 0x6F, 0xDB};
        case MarkerKind::Warning: return {0xD9, 0x7A, 0x00};
        case MarkerKind::Error: return {0xC6, 0x28, 0x28};
    }
    return Qt::black;
}

}  // namespace pinscope::ui
