// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `pinscope-cli validate --csv`: one row per cell, its settings, both rates and the error.
#include <ostream>
#include <string>
#include <vector>

#include "engine/validate/ValidationReport.h"

namespace pinscope {

inline constexpr const char* kValidationCsvHeader =
    "cell,pair_of,changed,batch_size,sample_shape,dtype,batch_bytes,cpu_us_per_sample,num_workers,prefetch_factor,"
    "pin_memory,pin_mode,non_blocking,gpu_us_per_batch,real_batches_per_s,emulated_batches_per_s,error_percent,real_runs,"
    "real_spread_percent,real_slowest,real_fastest,host_fill_gb_per_s,host_first_touch_gb_per_s,host_free_16mib_us,"
    "real_host_us_per_batch,emulated_host_us_per_batch,host_pin_gb_per_s";

// Cells are numbered from 1, as the table prints them; pair_of and changed are empty for a first
// cell, prefetch_factor without workers, pin_mode with pin_memory off, error_percent without a real
// rate; real_batches_per_s is the median of real_runs runs, and real_spread_percent their spread
// (empty with one run); the host_ columns are the host read before the cell (HostReading;
// host_pin_gb_per_s, added later, last), empty when it was not; the _host_us_per_batch columns the
// host's work per batch during the cell (CellRates), empty when not measured.
void write_validation_csv(std::ostream& out, const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates);
// Whole or not at all; throws std::runtime_error naming the path.
void export_validation_csv(const std::string& path, const std::vector<ValidationCell>& cells,
                           const std::vector<CellRates>& rates);

inline constexpr const char* kStageCsvHeader = "cell,device,stage,lane,us_per_batch";

// `validate --stages-csv`: one row per cell, device ("real" or "emulated"), stage and kind of lane
// with its time per batch (CellRates' stages), then the consumer's untraced time as stage
// "untraced"; what a cell's error is made of.
void write_stage_csv(std::ostream& out, const std::vector<CellRates>& rates);
void export_stage_csv(const std::string& path, const std::vector<CellRates>& rates);

}  // namespace pinscope
