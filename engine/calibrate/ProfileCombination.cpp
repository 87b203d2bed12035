// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/calibrate/ProfileCombination.h"

#include <algorithm>
#include <functional>
#include <map>

#include "engine/calibrate/Calibration.h"
#include "engine/config/ConfigError.h"
#include "engine/metrics/Median.h"
#include "engine/text/Units.h"

namespace pinscope {
namespace {

constexpr double kCopySpreadBytes = 64.0 * kMiB;
constexpr std::size_t kOpeningChars = 400;  // of each profile's source: the file keeps 4096 in all

class Combiner {
public:
    explicit Combiner(const std::vector<NamedProfile>& profiles) : profiles_(profiles) {}

    double scalar(const std::function<double(const HardwareProfile&)>& figure) const {
        std::vector<double> values;
        for (const NamedProfile& p : profiles_) values.push_back(figure(p.profile));
        return median(values);
    }

    // The median of each value; every profile that has the curve measured it at the same sizes
    // (`optional`: profiles without it are left out, and none having it gives an empty curve).
    std::vector<double> values(const std::function<const std::vector<double>&(const HardwareProfile&)>& of,
                               const std::function<const std::vector<double>&(const HardwareProfile&)>& axis_of,
                               const std::string& field, bool optional) const {
        const NamedProfile* first = nullptr;
        std::vector<std::vector<double>> columns;
        for (const NamedProfile& p : profiles_) {
            const std::vector<double>& v = of(p.profile);
            if (v.empty() && optional) continue;
            if (first == nullptr) {
                first = &p;
                columns.resize(v.size());
            } else if (axis_of(p.profile) != axis_of(first->profile) || v.size() != columns.size()) {
                throw ConfigError(ConfigIssue{field, p.label,
                                              "a profile measured at the same sizes as " + first->label +
                                                  " (calibrate both with the same pinscope)"});
            }
            for (std::size_t i = 0; i < v.size(); ++i) columns[i].push_back(v[i]);
        }
        std::vector<double> result;
        for (const std::vector<double>& column : columns) result.push_back(median(column));
        return result;
    }

    // A curve every profile measured at the same sizes: the median at each.
    SizeCurve curve(SizeCurve HardwareProfile::*member, const std::string& field) const {
        const auto of = [&](const HardwareProfile& p) -> const std::vector<double>& { return (p.*member).values; };
        const auto axis = [&](const HardwareProfile& p) -> const std::vector<double>& { return (p.*member).sizes_bytes; };
        SizeCurve result;
        result.values = values(of, axis, field, false);
        result.sizes_bytes = (profiles_.front().profile.*member).sizes_bytes;
        return result;
    }

    // A curve some profiles lack, whose sizes grew as calibrate did (AS's cudaHostAlloc in the
    // pipeline from 1 MiB, the others' from 2): at each size any profile measured, the median of
    // the profiles that measured it there; none having it gives an empty curve.
    SizeCurve optional_curve(SizeCurve HardwareProfile::*member) const {
        std::map<double, std::vector<double>> at_size;
        for (const NamedProfile& p : profiles_) {
            const SizeCurve& measured = p.profile.*member;
            for (std::size_t i = 0; i < measured.sizes_bytes.size(); ++i)
                at_size[measured.sizes_bytes[i]].push_back(measured.values[i]);
        }
        SizeCurve result;
        for (const auto& [bytes, values] : at_size) {
            result.sizes_bytes.push_back(bytes);
            result.values.push_back(median(values));
        }
        return result;
    }

    // The largest ratio between two machines of `figure` (above 0 on every one), or of the inputs' own.
    double spread(const std::function<double(const HardwareProfile&)>& figure) const {
        double lo = 0, hi = 0;
        for (const NamedProfile& p : profiles_) {
            const double v = figure(p.profile);
            if (!(v > 0)) return 0;
            lo = lo == 0 ? v : std::min(lo, v);
            hi = std::max(hi, v);
        }
        return lo > 0 ? hi / lo : 0;
    }

private:
    const std::vector<NamedProfile>& profiles_;
};

}  // namespace

HardwareProfile combine_profiles(const std::vector<NamedProfile>& profiles, const std::string& name,
                                 const std::string& command) {
    if (profiles.size() < 2)
        throw ConfigError(ConfigIssue{"profiles", std::to_string(profiles.size()) + " given", "two profiles or more"});
    const Combiner c(profiles);
    const HardwareProfile& first = profiles.front().profile;
    HardwareProfile out;
    out.name = name;
    out.description = first.description;
    out.link_name = first.link_name;
    out.link_gb_per_s = first.link_gb_per_s;

    using P = HardwareProfile;
    out.h2d_pinned_gb_per_s = c.curve(&P::h2d_pinned_gb_per_s, "copy.h2d_pinned_gb_per_s");
    out.h2d_pageable_gb_per_s = c.curve(&P::h2d_pageable_gb_per_s, "copy.h2d_pageable_gb_per_s");
    out.d2h_pinned_gb_per_s = c.curve(&P::d2h_pinned_gb_per_s, "copy.d2h_pinned_gb_per_s");
    out.d2h_pageable_gb_per_s = c.curve(&P::d2h_pageable_gb_per_s, "copy.d2h_pageable_gb_per_s");
    out.h2d_write_combined_gb_per_s = c.optional_curve(&P::h2d_write_combined_gb_per_s);
    out.d2h_write_combined_gb_per_s = c.optional_curve(&P::d2h_write_combined_gb_per_s);
    out.pageable_hold_fraction = c.scalar([](const P& p) { return p.pageable_hold_fraction; });
    out.pageable_overlaps_compute = c.scalar([](const P& p) { return p.pageable_overlaps_compute ? 1.0 : 0.0; }) > 0.5;
    out.copy_call_us = c.scalar([](const P& p) { return p.copy_call_us; });
    out.device_read_gb_per_s = c.scalar([](const P& p) { return p.device_read_gb_per_s; });

    out.host_cores = static_cast<int>(c.scalar([](const P& p) { return static_cast<double>(p.host_cores); }));
    out.memcpy_gb_per_s = c.scalar([](const P& p) { return p.memcpy_gb_per_s; });
    out.memcpy_to_pinned_gb_per_s = c.scalar([](const P& p) { return p.memcpy_to_pinned_gb_per_s; });
    out.fill_gb_per_s = c.scalar([](const P& p) { return p.fill_gb_per_s; });
    out.first_touch_gb_per_s = c.scalar([](const P& p) { return p.first_touch_gb_per_s; });
    out.host_alloc_us = c.curve(&P::host_alloc_us, "host.host_alloc_us");
    out.free_host_us = c.curve(&P::free_host_us, "host.free_host_us");
    out.host_register_us = c.curve(&P::host_register_us, "host.host_register_us");
    out.host_unregister_us = c.curve(&P::host_unregister_us, "host.host_unregister_us");
    out.free_pageable_us = c.optional_curve(&P::free_pageable_us);
    out.free_new_pages_us = c.optional_curve(&P::free_new_pages_us);
    out.pipeline_free_us = c.optional_curve(&P::pipeline_free_us);
    out.pipeline_host_register_us = c.optional_curve(&P::pipeline_host_register_us);
    out.pipeline_host_alloc_us = c.optional_curve(&P::pipeline_host_alloc_us);
    out.pipeline_host_alloc_workers_us =
        c.optional_curve(&P::pipeline_host_alloc_workers_us);
    out.pipeline_worker_fill_gb_per_s =
        c.optional_curve(&P::pipeline_worker_fill_gb_per_s);
    out.pipeline_worker_collate_gb_per_s =
        c.optional_curve(&P::pipeline_worker_collate_gb_per_s);
    out.pipeline_alloc_workers_fill_gb_per_s = c.optional_curve(&P::pipeline_alloc_workers_fill_gb_per_s);
    out.pipeline_alloc_workers_collate_gb_per_s = c.optional_curve(&P::pipeline_alloc_workers_collate_gb_per_s);
    out.pipeline_alloc_workers_free_us = c.optional_curve(&P::pipeline_alloc_workers_free_us);

    const auto load = [&](std::vector<double> HostLoadCurve::*member, const char* field) {
        return c.values([member](const P& p) -> const std::vector<double>& { return p.under_load.*member; },
                        [](const P& p) -> const std::vector<double>& { return p.under_load.others; },
                        std::string("host.under_load.") + field, true);
    };
    out.under_load.fill = load(&HostLoadCurve::fill, "fill");
    if (!out.under_load.fill.empty()) {
        for (const NamedProfile& p : profiles)
            if (!p.profile.under_load.empty()) out.under_load.others = p.profile.under_load.others;
        out.under_load.first_touch = load(&HostLoadCurve::first_touch, "first_touch");
        out.under_load.memcpy_to_pinned = load(&HostLoadCurve::memcpy_to_pinned, "memcpy_to_pinned");
        out.under_load.pageable_h2d = load(&HostLoadCurve::pageable_h2d, "pageable_h2d");
        // Each size's factors: the median of the profiles that measured it there.
        std::vector<double> sizes;
        for (const NamedProfile& p : profiles)
            for (const PageableFactorsAtSize& at_size : p.profile.under_load.pageable_h2d_by_size)
                sizes.push_back(at_size.bytes);
        std::sort(sizes.begin(), sizes.end());
        sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
        for (std::size_t k = 0; k < sizes.size(); ++k) {
            const auto at_size = [bytes = sizes[k]](const P& p) -> const std::vector<double>& {
                static const std::vector<double> none;
                for (const PageableFactorsAtSize& measured : p.under_load.pageable_h2d_by_size)
                    if (measured.bytes == bytes) return measured.by_others;
                return none;
            };
            const auto others = [](const P& p) -> const std::vector<double>& { return p.under_load.others; };
            const std::string field = "host.under_load.pageable_h2d_by_size[" + std::to_string(k) + "].by_others";
            out.under_load.pageable_h2d_by_size.push_back({sizes[k], c.values(at_size, others, field, true)});
        }
        out.under_load.free_pageable = load(&HostLoadCurve::free_pageable, "free_pageable");
        out.under_load.host_alloc = load(&HostLoadCurve::host_alloc, "host_alloc");
        out.under_load.host_register = load(&HostLoadCurve::host_register, "host_register");
        const auto all_threads = [&](std::vector<double> MemoryThroughputCurve::*member, const char* field) {
            return c.values([member](const P& p) -> const std::vector<double>& { return p.under_load.all_threads.*member; },
                            [](const P& p) -> const std::vector<double>& { return p.under_load.all_threads.threads; },
                            std::string("host.under_load.all_threads.") + field, true);
        };
        out.under_load.all_threads.copy_gb_per_s = all_threads(&MemoryThroughputCurve::copy_gb_per_s, "copy_gb_per_s");
        if (!out.under_load.all_threads.copy_gb_per_s.empty()) {
            for (const NamedProfile& p : profiles)
                if (!p.profile.under_load.all_threads.empty()) out.under_load.all_threads.threads = p.profile.under_load.all_threads.threads;
            out.under_load.all_threads.fill_gb_per_s = all_threads(&MemoryThroughputCurve::fill_gb_per_s, "fill_gb_per_s");
        }
    }
    const auto by_size = [&](std::vector<double> HostSizeFactors::*member, const char* field) {
        return c.values([member](const P& p) -> const std::vector<double>& { return p.by_batch_size.*member; },
                        [](const P& p) -> const std::vector<double>& { return p.by_batch_size.sizes_bytes; },
                        std::string("host.by_batch_size.") + field, true);
    };
    out.by_batch_size.collate = by_size(&HostSizeFactors::collate, "collate");
    if (!out.by_batch_size.collate.empty()) {
        for (const NamedProfile& p : profiles)
            if (!p.profile.by_batch_size.empty()) out.by_batch_size.sizes_bytes = p.profile.by_batch_size.sizes_bytes;
        out.by_batch_size.collate_new_pages = by_size(&HostSizeFactors::collate_new_pages, "collate_new_pages");
        out.by_batch_size.pin = by_size(&HostSizeFactors::pin, "pin");
    }
    // Whether a call waits for the GPU, or for another thread's, is the driver's: any machine that
    // saw it wait says so.
    for (const NamedProfile& p : profiles) {
        const PageLockingWaits& w = p.profile.waits_for_device;
        out.waits_for_device.host_alloc |= w.host_alloc;
        out.waits_for_device.free_host |= w.free_host;
        out.waits_for_device.host_register |= w.host_register;
        out.waits_for_device.host_unregister |= w.host_unregister;
        for (const DriverLockField& set : kDriverLockFields)
            for (const DriverWaiterField& call : kDriverWaiterFields)
                (out.driver_lock.*set.waiters).*call.flag |= (p.profile.driver_lock.*set.waiters).*call.flag;
    }
    // The machines' median share (those calibrated before it was read count as 0).
    out.unmap_waits_for_host_register = c.scalar([](const P& p) { return p.unmap_waits_for_host_register; });
    out.cross_node_h2d_factor = c.scalar([](const P& p) { return p.cross_node_h2d_factor; });
    out.cross_node_memcpy_factor = c.scalar([](const P& p) { return p.cross_node_memcpy_factor; });
    out.numa_source = first.numa_source;

    ProfileTrust& trust = out.trust;
    trust.machines = 0;
    for (const NamedProfile& p : profiles) trust.machines += p.profile.trust.machines;
    trust.copy_spread = c.spread([](const P& p) { return p.h2d_pinned_gb_per_s.at(kCopySpreadBytes); });
    const std::vector<std::function<double(const P&)>> host_figures{
        [](const P& p) { return p.memcpy_gb_per_s; },
        [](const P& p) { return p.memcpy_to_pinned_gb_per_s; },
        [](const P& p) { return p.fill_gb_per_s; },
        [](const P& p) { return p.first_touch_gb_per_s; },
        [](const P& p) { return p.h2d_pageable_gb_per_s.at(kCopySpreadBytes); },
        [](const P& p) { return p.host_alloc_us.at(kCalibrationBatchBytes); },
        [](const P& p) { return p.host_register_us.at(kCalibrationBatchBytes); },
        [](const P& p) { return p.free_pageable_us.at(kCalibrationBatchBytes); },
        [](const P& p) {
            const MemoryThroughputCurve& all = p.under_load.all_threads;
            return all.empty() ? 0.0 : all.copy_gb_per_s.back();
        },
    };
    for (const auto& figure : host_figures) trust.host_spread = std::max(trust.host_spread, c.spread(figure));
    for (const NamedProfile& p : profiles) {
        trust.copy_spread = std::max(trust.copy_spread, p.profile.trust.copy_spread);
        trust.host_spread = std::max(trust.host_spread, p.profile.trust.host_spread);
    }

    out.source = "Combined by `" + command + "`: each figure the median of " + std::to_string(profiles.size()) +
                 " profiles' (" + std::to_string(trust.machines) + " machines). They were:";
    // Where each came from: its source's opening, which says by what, when and on which GPU.
    for (std::size_t i = 0; i < profiles.size(); ++i) {
        const std::string& source = profiles[i].profile.source;
        std::string opening = source.substr(0, std::min(source.find(" Measured:"), kOpeningChars));
        out.source += std::string(i == 0 ? " " : "; ") + profiles[i].label + ": " + opening;
    }
    return out;
}

}  // namespace pinscope
