// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/BandwidthTable.h"

#include <algorithm>
#include <map>
#include <utility>

#include "app/cli/TextTable.h"
#include "engine/export/ExportFormat.h"

namespace pinscope::cli {

namespace {

using Series = std::pair<CopyDirection, HostMemoryKind>;

std::string describe_device(const DeviceInfo& device) {
    std::string text = device.kind == DeviceKind::Emulated ? "emulated:" + device.profile + " (" + device.name + ")"
                                                 : device.name;
    if (device.kind != DeviceKind::Emulated && !device.detail.empty()) text += ", " + device.detail;
    return text;
}

std::string header(const BandwidthResult& result) {
    std::string text = "device: " + describe_device(result.device) + "\n";
    text += "link: " + (result.link_name.empty() ? std::string("unknown") : result.link_name);
    if (result.link_gb_per_s > 0) text += ", " + format_fixed(result.link_gb_per_s, 1) + " GB/s per direction in theory";
    text += "\n";
    if (result.device.kind == DeviceKind::Emulated)
        text += "GB/s (1 GB = 1e9 bytes) as the profile models them\n";
    else if (!result.points.empty())
        text += "GB/s (1 GB = 1e9 bytes), median of " + std::to_string(result.points.front().samples) +
                " samples, each copy traced as in a run\n";
    return text;
}

}  // namespace

std::string format_bandwidth_table(const BandwidthResult& result) {
    std::vector<Series> series;
    std::vector<std::size_t> sizes;
    std::map<std::pair<Series, std::size_t>, const BandwidthPoint*> at;
    bool plain_loop = false;
    for (const BandwidthPoint& point : result.points) {
        const Series key{point.direction, point.memory};
        if (std::find(series.begin(), series.end(), key) == series.end()) series.push_back(key);
        if (std::find(sizes.begin(), sizes.end(), point.bytes) == sizes.end()) sizes.push_back(point.bytes);
        at[{key, point.bytes}] = &point;
        plain_loop |= point.plain_loop_gb_per_s > 0;
    }
    plain_loop &= result.device.kind != DeviceKind::Emulated;  // the model traces at no cost: nothing to compare
    std::sort(sizes.begin(), sizes.end());

    std::vector<std::string> head{"size"};
    for (const Series& s : series) {
        head.push_back(to_string(s.first) + " " + to_string(s.second));
        if (plain_loop && s == Series{CopyDirection::H2D, HostMemoryKind::Pinned}) {
            head.push_back("plain loop");
            head.push_back("traced/plain %");
        }
    }
    std::vector<std::vector<std::string>> table{head};
    for (const std::size_t bytes : sizes) {
        std::vector<std::string> row{format_size(bytes)};
        for (const Series& s : series) {
            const auto found = at.find({s, bytes});
            const BandwidthPoint* point = found == at.end() ? nullptr : found->second;
            row.push_back(point ? format_fixed(point->gb_per_s, 2) : "-");
            if (plain_loop && s == Series{CopyDirection::H2D, HostMemoryKind::Pinned}) {
                const bool measured = point && point->plain_loop_gb_per_s > 0;
                row.push_back(measured ? format_fixed(point->plain_loop_gb_per_s, 2) : "-");
                row.push_back(measured ? format_fixed(100 * point->gb_per_s / point->plain_loop_gb_per_s, 1) : "-");
            }
        }
        table.push_back(std::move(row));
    }
    std::string text = header(result) + "\n";
    for (const std::string& line : align_table(table, {})) text += line + '\n';
    return text;
}

}  // namespace pinscope::cli
