#include "config/ConfigError.h"

namespace pinscope {

std::string ConfigIssue::message() const {
    return field + ": " + value + " is not allowed; expected " + allowed;
}

}  // namespace pinscope
