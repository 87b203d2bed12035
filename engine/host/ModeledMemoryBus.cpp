#include "host/ModeledMemoryBus.h"

namespace pinscope {

ModeledMemoryBus::Use::Use(std::atomic<int>& active, const HostLoadCurve& curve, Traffic traffic)
    : active_(active), others_(active.fetch_add(1)) {
    const std::vector<double>& factors = traffic == Traffic::Memcpy       ? curve.memcpy
                                         : traffic == Traffic::FirstTouch ? curve.first_touch
                                                                          : curve.pageable_h2d;
    factor_ = HostLoadCurve::at(curve.others, factors, others_);
}

}  // namespace pinscope
