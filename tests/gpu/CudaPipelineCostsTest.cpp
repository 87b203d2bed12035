// SPDX-License-Identifier: GPL-3.0-or-later
// Calibrate's runs of the pipeline on the GPU, to time the pin thread's frees of workers' batches
// and a batch's cudaHostRegister and cudaHostAlloc: they run on CUDA with the real host, and a
// batch of four times the pages costs more. The pool run also gives its workers' filling and
// collating at each size.
#include <iostream>

#include "engine/calibrate/PipelineCosts.h"
#include "engine/text/Units.h"
#include "tests/gpu/CudaTestDevice.h"

namespace pinscope {
namespace {

using test::CudaDeviceTest;

class CudaPipelineCosts : public CudaDeviceTest {};

TEST_F(CudaPipelineCosts, TimesEachCostAtEachSize) {
    device.reset();  // the runs open their own
    const std::pair<PipelineCost, const char*> costs[] = {{PipelineCost::FreeWorkersBatch, "frees"},
                                                          {PipelineCost::HostRegister, "cudaHostRegister"},
                                                          {PipelineCost::HostAlloc, "cudaHostAlloc"}};
    for (const auto& [cost, name] : costs) {
        const SizeCurve curve = measure_pipeline_costs_us("cuda:0", cost, {2 * kMiB, 8 * kMiB}, 0.6);
        ASSERT_EQ(curve.values.size(), 2u) << name;
        std::cout << "pipeline " << name << ": 2 MiB " << curve.values[0] << " us, 8 MiB " << curve.values[1] << " us\n";
        EXPECT_GT(curve.values[0], 0.0) << name;
        EXPECT_GT(curve.values[1], curve.values[0]) << name;
    }
}

TEST_F(CudaPipelineCosts, TheRunsWithWorkersGiveTheirWorkersFillingAndCollatingAndThePinThreadsFrees) {
    device.reset();
    for (const auto& [cost, run] : {std::pair{PipelineCost::FreeWorkersBatch, "pool run"},
                                    std::pair{PipelineCost::HostAllocWithWorkers, "alloc run"}}) {
        WorkerRates workers;
        measure_pipeline_costs_us("cuda:0", cost, {2 * kMiB, 8 * kMiB}, 0.6, {}, &workers);
        for (const auto& [rates, name] :
             {std::pair{&workers.fill_gb_per_s, "filling"}, std::pair{&workers.collate_gb_per_s, "collating"}}) {
            ASSERT_EQ(rates->values.size(), 2u) << run << ", " << name;
            std::cout << run << ", workers' " << name << ": 2 MiB " << rates->values[0] << " GB/s, 8 MiB "
                      << rates->values[1] << " GB/s\n";
            for (const double gb_per_s : rates->values) {
                EXPECT_GT(gb_per_s, 0.1) << run << ", " << name;
                EXPECT_LT(gb_per_s, 500.0) << run << ", " << name;
            }
        }
        ASSERT_EQ(workers.batch_free_us.values.size(), 2u) << run << ", the pin thread's frees";
        std::cout << run << ", the pin thread's frees: 2 MiB " << workers.batch_free_us.values[0] << " us, 8 MiB "
                  << workers.batch_free_us.values[1] << " us\n";
        EXPECT_GT(workers.batch_free_us.values[0], 0.0) << run;
    }
}

}  // namespace
}  // namespace pinscope
