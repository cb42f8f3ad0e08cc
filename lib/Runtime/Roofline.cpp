//===- Roofline.cpp - a kernel's time on a named GPU, from the counters ---===//
//
// The figures and their sources are tabled in docs/simulator.md
// ("Estimates"); where a figure is not published, the table says what was
// assumed.
//
//===----------------------------------------------------------------------===//

#include "uop/Runtime/Roofline.h"
#include "uop/Support/SubPartitions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::uop;

namespace {

// A100 SXM4 80 GB: whitepaper (108 SMs, 1410 MHz, 312 TFLOP/s dense f16 =
// 2048 FLOP/clk/SM, L2 5120 B/clk), datasheet (2039 GB/s), CUDA
// Programming Guide (limits, 4 schedulers); mma.sync reaches > 95% of the
// peak (Luo et al., arXiv 2402.13499): taken as the peak.
// H100 SXM5 80 GB: whitepaper (132 SMs, 989.4 TFLOP/s dense f16 at 1830
// MHz = 4096 FLOP/clk/SM with wgmma), product page (3.35 TB/s); mma.sync
// m16n8k16 f16 reaches 65.3% of the peak (Luo et al., arXiv 2501.12084,
// measured on an H800); L2 4472 B/clk measured on an H800 (same paper), no
// published figure. Shared memory 32 banks of 4 bytes and L1 128 B/clk on
// both (not published for L1: assumed as shared memory's).
const GPUModel kModels[] = {
    {"A100", 108, 1.41, 2048, 2048, 4, 1, 4, 5120 * 1.41e9, 2039e9, 2048, 32, 65536, 167936},
    {"H100", 132, 1.83, 4096, 4096 * 0.653, 4, 1, 4, 4472 * 1.83e9, 3.35e12, 2048, 32, 65536,
     233472},
};
} // namespace

const GPUModel *mlir::uop::findGPUModel(llvm::StringRef name) {
  for (const GPUModel &m : kModels)
    if (name.equals_insensitive(m.name))
      return &m;
  return nullptr;
}

std::string mlir::uop::knownGPUModels() {
  std::string s;
  for (const GPUModel &m : kModels)
    s += (s.empty() ? "" : ", ") + std::string(m.name);
  return s;
}

RooflineEstimate mlir::uop::estimateRoofline(const GPUModel &gpu, const SimCounters &c,
                                             const LaunchShape &shape) {
  RooflineEstimate e;
  // Blocks resident on one SM at once.
  int64_t threads = std::max<int64_t>(shape.threadsPerBlock, 1);
  int64_t perSM = std::min<int64_t>(gpu.maxBlocks, gpu.maxThreads / threads);
  if (shape.sharedBytesPerBlock > 0)
    perSM = std::min<int64_t>(perSM, gpu.sharedBytes / shape.sharedBytesPerBlock);
  if (shape.registersPerThread > 0) { // allocated per warp, 256 at a time
    int64_t warps = (threads + 31) / 32;
    int64_t perWarp = (shape.registersPerThread * 32 + 255) / 256 * 256;
    perSM = std::min<int64_t>(perSM, gpu.registers / (perWarp * warps));
  }
  e.blocksPerSM = static_cast<int>(std::max<int64_t>(perSM, 1));
  int64_t blocks = std::max<int64_t>(shape.blocks, 1);
  e.waves = double(blocks) / (double(gpu.sms) * e.blocksPerSM);
  // The busiest SM runs ceil(blocks / SMs) of the blocks: its share of the
  // per-SM work.
  int64_t blocksHere = (blocks + gpu.sms - 1) / gpu.sms;
  double share = double(blocksHere) / double(blocks);
  double hz = gpu.clockGHz * 1e9;
  auto perSMTerm = [&](double work, double perClock) { return share * work / perClock / hz; };
  // An SM's 4 sub-partitions each have a scheduler and a tensor core, and a
  // warp stays on the one its slot deals it to (round robin). The busiest
  // SM's warps, as many at once as are resident, share the sub-partitions
  // in use, and the busiest of these runs ceil(warps / in use) of them, each
  // a warp's share of the work: an SM with fewer than 4 warps leaves
  // sub-partitions idle, whether the grid or residency leaves it so (256
  // one-warp blocks on 108 SMs: 3 warps on the busiest, a quarter of its
  // tensor cores idle).
  int64_t warpsPerBlock = (threads + 31) / 32;
  int64_t resident = std::min<int64_t>(blocksHere, e.blocksPerSM) * warpsPerBlock;
  double warpShare = double(busiestSubPartitionWarps(blocksHere * warpsPerBlock, resident)) /
                     double(blocks * warpsPerBlock);
  auto perSubPartitionTerm = [&](double work, double perClock) {
    return warpShare * work / (perClock / kSubPartitions) / hz;
  };
  const SimCounters::Global &ld = c.globalLoads, &st = c.globalStores;
  double tensor = perSubPartitionTerm(double(c.mmaFlops), gpu.mmaSyncFlopsPerClock) +
                  perSubPartitionTerm(double(c.wgmmaFlops), gpu.peakFlopsPerClock);
  e.terms = {
      {"tensor cores", tensor},
      {"issue", perSubPartitionTerm(double(c.totalInstructions()), gpu.issuePerClock)},
      {"shared memory", perSMTerm(double(c.sharedLoads.wavefronts + c.sharedStores.wavefronts),
                                  gpu.sharedWavefrontsPerClock)},
      {"L1", perSMTerm(double(ld.sectors + st.sectors), gpu.l1SectorsPerClock)},
      {"L2", double(c.l2Sectors) * 32 / gpu.l2BytesPerSecond},
      {"DRAM", double(c.uniqueReadBytes + c.uniqueWriteBytes) / gpu.dramBytesPerSecond},
  };
  // The largest first; equal times keep the order above.
  for (size_t i = 1; i < e.terms.size(); ++i)
    for (size_t j = i; j > 0 && e.terms[j].seconds > e.terms[j - 1].seconds; --j)
      std::swap(e.terms[j], e.terms[j - 1]);
  e.seconds = e.terms.front().seconds;
  double flops = double(c.mmaFlops + c.wgmmaFlops);
  if (e.seconds > 0) {
    e.tflops = flops / e.seconds / 1e12;
    e.fractionOfPeak = flops / e.seconds / gpu.peakFlops();
  }
  return e;
}
