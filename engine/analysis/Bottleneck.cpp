// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis/Bottleneck.h"

namespace pinscope {

std::string_view to_string(Resource resource) {
    switch (resource) {
        case Resource::None: return "none";
        case Resource::Workers: return "workers";
        case Resource::PinThread: return "pin_thread";
        case Resource::Consumer: return "consumer";
        case Resource::PageableStaging: return "pageable_staging";
        case Resource::PageLocking: return "page_locking";
        case Resource::CopyEngine: return "copy_engine";
        case Resource::Compute: return "compute";
        case Resource::BatchCredits: return "batch_credits";
        case Resource::PinnedBudget: return "pinned_budget";
    }
    return "none";
}

std::string_view describe(Resource resource) {
    switch (resource) {
        case Resource::None: return "nothing";
        case Resource::Workers: return "the workers";
        case Resource::PinThread: return "the pin thread";
        case Resource::Consumer: return "the consumer";
        case Resource::PageableStaging: return "pageable staging";
        case Resource::PageLocking: return "page-locking";
        case Resource::CopyEngine: return "the copy engine";
        case Resource::Compute: return "the GPU's kernels";
        case Resource::BatchCredits: return "the batch credits";
        case Resource::PinnedBudget: return "the pinned budget";
    }
    return "nothing";
}

}  // namespace pinscope
