//===- Schedule.h - running a kernelized schedule ---------------*- C++ -*-===//
//
// uop-kernelize turns a tensor graph into a function of uop.exec (kernels)
// and memref.copy (device copies) on memref buffers. This runs such a
// function on a Runner, on buffers in host memory, and reads its results.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_RUNTIME_SCHEDULE_H
#define UOP_RUNTIME_SCHEDULE_H

#include "uop/Runtime/Runner.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>
#include <vector>

namespace mlir::uop {

/// A buffer of a schedule: its number (uop.unique), element type and bytes.
struct ScheduleBuffer {
  int64_t unique;
  Type dtype;
  int64_t size;
  std::vector<uint8_t> bytes;
};

struct ScheduleRunStats {
  int64_t kernels = 0, copies = 0;
  /// Bytes of the buffers the schedule allocates, at most alive at once
  /// (its arguments not counted).
  int64_t peakAllocatedBytes = 0;
  RunTimes times; // summed over the kernels
};

/// The schedule's arguments, from its signature: one buffer per argument,
/// zero-filled.
FailureOr<std::vector<ScheduleBuffer>> scheduleArguments(func::FuncOp schedule);

/// Runs `schedule` (a function uop-kernelize made; its kernels are the
/// module's uop.kernels) on `runner`, argument i in `args[i]` (exactly its
/// memref's bytes). Each kernel is compiled once, from a copy of it in a
/// module of its own. Errors (a kernel that does not compile or faults, an
/// op that is not part of a schedule, arguments that do not fit) are
/// diagnostics at the op.
LogicalResult runSchedule(func::FuncOp schedule, Runner &runner,
                          ArrayRef<MutableArrayRef<uint8_t>> args,
                          ScheduleRunStats *stats = nullptr);

/// Result i of the tensor graph (uop.outputs[i]) as a row-major array of its
/// shape: gathered from its buffer (an argument, by uop.unique) through its
/// view (0 where masked), or the constant repeated.
FailureOr<ScheduleBuffer> scheduleOutput(func::FuncOp schedule, size_t i,
                                         ArrayRef<MutableArrayRef<uint8_t>> args);

/// The schedule's interface as JSON: {"arguments": [{"unique", "dtype",
/// "size"}], "outputs": [{"shape", "dtype"}], "kernels": N} (dtypes by
/// tinygrad's names).
FailureOr<std::string> describeSchedule(func::FuncOp schedule);

} // namespace mlir::uop

#endif
