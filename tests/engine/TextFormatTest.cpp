// SPDX-License-Identifier: GPL-3.0-or-later
// A change in percent reads the same in validate's tables, its host readings and lesson claims.
#include <gtest/gtest.h>

#include "engine/text/TextFormat.h"

namespace pinscope {
namespace {

TEST(TextFormat, AChangeInPercentCarriesItsSign) {
    EXPECT_EQ(format_signed_percent(12.46, 1), "+12.5 %");
    EXPECT_EQ(format_signed_percent(-3.0, 0), "-3 %");
    EXPECT_EQ(format_signed_percent(0.0, 1), "+0.0 %") << "no change reads as one, with its sign";
    EXPECT_EQ(format_signed_percent(-49.6, 0), "-50 %");
}

}  // namespace
}  // namespace pinscope
