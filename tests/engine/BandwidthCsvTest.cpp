// SPDX-License-Identifier: GPL-3.0-or-later
// The bandwidth sweep's CSV: header, one row per point, the plain loop only where measured.
#include <sstream>

#include <gtest/gtest.h>

#include "engine/bandwidth/BandwidthCsv.h"

namespace pinscope {
namespace {

TEST(BandwidthCsv, HeaderAndRows) {
    BandwidthResult result;
    result.points.push_back({CopyDirection::H2D, HostMemoryKind::Pinned, 16777216, 54.2, 53.91, 54.3, 5, 54.9});
    result.points.push_back({CopyDirection::H2D, HostMemoryKind::WriteCombined, 4096, 0.51234, 0.5, 0.6, 5});
    result.points.push_back({CopyDirection::D2H, HostMemoryKind::Pageable, 1073741824, 19.2, 19.0, 19.25, 3});
    std::ostringstream out;
    write_bandwidth_csv(out, result);
    EXPECT_EQ(out.str(),
              "direction,memory,bytes,gb_per_s,min_gb_per_s,max_gb_per_s,samples,plain_loop_gb_per_s\n"
              "h2d,pinned,16777216,54.200,53.910,54.300,5,54.900\n"
              "h2d,wc,4096,0.512,0.500,0.600,5,\n"
              "d2h,pageable,1073741824,19.200,19.000,19.250,3,\n");
}

TEST(BandwidthCsv, EmptyResultIsTheHeader) {
    std::ostringstream out;
    write_bandwidth_csv(out, BandwidthResult{});
    EXPECT_EQ(out.str(), std::string(kBandwidthCsvHeader) + "\n");
}

TEST(CopyKinds, NamesReadBack) {
    for (const CopyDirection direction : {CopyDirection::H2D, CopyDirection::D2H})
        EXPECT_EQ(parse_copy_direction(to_string(direction)), direction);
    for (const HostMemoryKind memory : {HostMemoryKind::Pinned, HostMemoryKind::Pageable, HostMemoryKind::WriteCombined})
        EXPECT_EQ(parse_host_memory_kind(to_string(memory)), memory);
    EXPECT_EQ(parse_copy_direction("H2D"), CopyDirection::H2D);
    EXPECT_EQ(parse_host_memory_kind("Write-Combined"), HostMemoryKind::WriteCombined);
    EXPECT_EQ(parse_copy_direction("d2d"), std::nullopt);
    EXPECT_EQ(parse_host_memory_kind("locked"), std::nullopt);
}

}  // namespace
}  // namespace pinscope
