// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// pinscope-cli validate's report: the cells' table, the shares within 10 % and 15 %, and the
// pairs that differ in one setting with whether the emulated device agrees on the faster one.
#include <string>
#include <vector>

#include "engine/validate/CallDrift.h"
#include "engine/validate/ValidationReport.h"

namespace pinscope::cli {

// "+12.3 %", or "-" without a real rate.
std::string format_error(const CellRates& rates);

// `real_name`: what the real column is ("cuda:0", "emulated:h100-pcie5"); `model_name`: the
// emulated device's ("emulated:validate-calibrated"); `model_host`: the host figures its profile
// states, against which the cells' host readings (if any) are set.
std::string format_validation_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                     const std::string& real_name, const std::string& model_name,
                                     const HostReading& model_host);

// The same cells on the same model with the host's rates as read before them (`as_read`: their
// median; `rates`: the emulated side of each cell run again with it): what is left once the host's
// state at the time is taken out.
std::string format_host_as_read_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                       const std::string& real_name, const HostReading& as_read,
                                       const HostReading& model_host);
// The cells run again, each with the host as the real device ran it in that cell: the share within
// 10 % and 15 % and the pairs, for what is left of the model.
std::string format_host_as_ran_report(const std::vector<ValidationCell>& cells, const std::vector<CellRates>& rates,
                                      const std::string& real_name);

// How far `real_name`'s figures moved from the call in `earlier_name` (`validate --earlier`) to this
// one, and how near `model_name`'s came to both.
std::string format_call_drift_report(const CallDrift& drift, const std::string& real_name,
                                     const std::string& earlier_name, const std::string& model_name);

}  // namespace pinscope::cli
