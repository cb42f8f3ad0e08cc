//===- Roofline.h - a kernel's time on a named GPU, from the simulator's counters -*- C++ -*-===//
//
// An estimate, not a measurement: each resource of the GPU (tensor cores,
// instruction issue, shared memory, L1, L2, DRAM) is given the work the
// simulator counted for it, and the kernel takes as long as the busiest
// one needs at its documented throughput (a roofline). It assumes enough
// warps to hide every latency, so it is an upper bound on what a schedule
// can reach; docs/simulator.md lists the figures, their sources and what
// the model leaves out.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_ROOFLINE_H
#define UOP_RUNTIME_ROOFLINE_H

#include "uop/Runtime/Runner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::uop {

/// A GPU's throughputs and limits, per SM unless said otherwise.
struct GPUModel {
  const char *name;                // "A100": the 80 GB SXM part
  int sms;                         // streaming multiprocessors
  double clockGHz;                 // the clock NVIDIA's tensor peak is quoted at
  double peakFlopsPerClock;        // dense f16 tensor peak (wgmma on Hopper)
  double mmaSyncFlopsPerClock;     // what mma.sync reaches (measured)
  double issuePerClock;            // warp instructions
  double sharedWavefrontsPerClock; // 128-byte shared-memory wavefronts
  double l1SectorsPerClock;        // 32-byte global sectors through L1
  double l2BytesPerSecond;         // the whole L2
  double dramBytesPerSecond;
  int maxThreads, maxBlocks;      // resident per SM
  int64_t registers, sharedBytes; // per SM

  /// The dense f16 tensor peak of the whole GPU, in FLOP/s.
  double peakFlops() const { return sms * peakFlopsPerClock * clockGHz * 1e9; }
};

/// The GPUs the model knows (A100, H100), by name (case-insensitive), or
/// null.
const GPUModel *findGPUModel(llvm::StringRef name);
/// Their names: "A100, H100".
std::string knownGPUModels();

/// What a launch is, besides what the simulator counted.
struct LaunchShape {
  int64_t blocks = 0, threadsPerBlock = 0;
  int64_t sharedBytesPerBlock = 0;
  int64_t registersPerThread = 0; // 0: unknown (occupancy then ignores registers)
};

struct RooflineEstimate {
  /// Each resource's time in seconds, the largest first.
  struct Term {
    const char *resource;
    double seconds;
  };
  llvm::SmallVector<Term> terms;
  double seconds = 0;        // the largest term: the estimate
  int blocksPerSM = 0;       // resident at once (threads, blocks, shared memory, registers)
  double waves = 0;          // blocks / (SMs * blocksPerSM)
  double tflops = 0;         // the tensor work over the estimated time
  double fractionOfPeak = 0; // of the GPU's dense f16 tensor peak
};

/// The estimate for `gpu` of a launch of `shape` that did what `counters`
/// say.
RooflineEstimate estimateRoofline(const GPUModel &gpu, const SimCounters &counters,
                                  const LaunchShape &shape);

} // namespace mlir::uop

#endif
