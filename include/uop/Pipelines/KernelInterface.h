//===- KernelInterface.h - what a caller passes a compiled kernel -*- C++ -*-===//
//
// What a caller needs to run a compiled kernel besides its buffers: the
// values of its variables (tinygrad's Variables, for a symbolic kernel) and,
// on a GPU, its launch dimensions, which may depend on those values. The
// pipelines record both on the module (`uop.variables`, `uop.launch`); the
// runtimes, the C API and Python read them from here.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_PIPELINES_KERNELINTERFACE_H
#define UOP_PIPELINES_KERNELINTERFACE_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/Error.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace mlir::uop {

/// A variable of a symbolic kernel: its name and inclusive bounds.
struct KernelVariable {
  std::string name;
  int64_t min = 0, max = 0;
};

/// A launch size that depends on the kernel's variables:
/// constant + sum(coefficient * variable).
struct SymbolicSize {
  unsigned slot = 0; // 0-2: grid x, y, z; 3-5: block x, y, z
  int64_t constant = 0;
  std::vector<std::pair<std::string, int64_t>> terms; // (variable, coefficient)

  /// "8*n+4", as the tools print it.
  std::string str() const;
};

/// How a GPU kernel is launched: `grid` blocks of `block` threads. Where a
/// size is symbolic, `grid`/`block` hold its upper bound and `symbolic` its
/// expression.
struct LaunchDims {
  std::array<int32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::vector<SymbolicSize> symbolic;

  /// The sizes where `vars` take `values` (checked against the variables'
  /// bounds by the caller). An error names a size that leaves [0, its
  /// bound]; a size 0 means there is nothing to run.
  llvm::Expected<LaunchDims> evaluate(ArrayRef<KernelVariable> vars,
                                      ArrayRef<int64_t> values) const;
  /// Whether a size is 0 (after evaluate): a launch that runs nothing.
  bool isEmpty() const;
  /// "grid=n+1,4,1 block=32,1,1": each size, or its expression.
  std::string str() const;

  /// A `uop.launch` entry ({grid, block[, sym]}, as the dialect verifies
  /// it), or std::nullopt.
  static std::optional<LaunchDims> read(Attribute entry);
};

/// An error unless `values` are values for `vars`, one each, in range;
/// it names `kernel`.
llvm::Error checkVariableValues(StringRef kernel, ArrayRef<KernelVariable> vars,
                                ArrayRef<int64_t> values);

/// `launch` for a run of `kernel` with these variable values:
/// checkVariableValues, then LaunchDims::evaluate, then CUDA's launch limits
/// (a block of at most 1024 threads, 1024 x 1024 x 64; a grid of at most
/// 2^31-1 x 65535 x 65535), which no GPU launch exceeds; errors name the
/// kernel.
llvm::Expected<LaunchDims> launchDimsFor(StringRef kernel, const LaunchDims &launch,
                                         ArrayRef<KernelVariable> vars, ArrayRef<int64_t> values);

/// The comment line PTX files of ours start with, saying how to launch the
/// kernel: "// uop-mlir kernel NAME grid=... block=..." and, for a symbolic
/// kernel, " variables=n[1,15],pos[0,15]" (the i32 parameters after the
/// buffers, in order, with their bounds).
std::string ptxHeaderLine(StringRef name, const LaunchDims &launch,
                          ArrayRef<KernelVariable> variables);

/// The bounds of kernel `name`'s variables as its uop.define_vars declare
/// them (nothing if it is not a uop.kernel): read before a pipeline drops
/// the kernel.
std::vector<KernelVariable> declaredVariables(ModuleOp module, StringRef name);

/// The `count` variables the compiled kernel `name` takes after its
/// `numBuffers` buffers, in order: named by the module's `uop.variables`
/// ("argN", N the parameter's position, where it names none), bounded as
/// `declared` says (int32's bounds otherwise).
std::vector<KernelVariable> takenVariables(ModuleOp module, StringRef name, unsigned numBuffers,
                                           unsigned count, ArrayRef<KernelVariable> declared);

} // namespace mlir::uop

#endif
