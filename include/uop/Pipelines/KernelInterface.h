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

/// A TMA tensor map the kernel takes (#uop.tensor_map, which documents the
/// fields): the runtime makes it from buffer `buffer` at each launch.
struct TensorMapSpec {
  unsigned buffer = 0;
  std::string element; // "f16", "bf16", "f32", "f64" or "i8" .. "i64"
  int64_t elementBytes = 0;
  std::vector<int64_t> sizes, strides, box; // innermost first; strides in bytes, of dims 1..
  int64_t swizzle = 0;                      // bytes: 0 (none), 32, 64, 128
  int64_t boxBytes = 0;                     // a box's bytes: its copy's mbarrier transaction
  int64_t extentBytes = 0;                  // one past the last byte of the buffer it covers

  /// "buffer1:f16:sizes=[64,32]:strides=[128]:box=[64,8]:swizzle=128".
  std::string str() const;
};

/// How a GPU kernel is launched: `grid` blocks of `block` threads. Where a
/// size is symbolic, `grid`/`block` hold its upper bound and `symbolic` its
/// expression. The kernel takes a pointer to each of `tensorMaps` after
/// its variables.
struct LaunchDims {
  std::array<int32_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::vector<SymbolicSize> symbolic;
  std::vector<TensorMapSpec> tensorMaps;
  /// Blocks per cluster: the kernel's nvvm.cluster_dim (which PTX has as
  /// .reqnctapercluster), not the launch entry's; 1, 1, 1 without.
  std::array<int32_t, 3> cluster{1, 1, 1};

  /// The sizes where `vars` take `values` (checked against the variables'
  /// bounds by the caller). An error names a size that leaves [0, its
  /// bound]; a size 0 means there is nothing to run.
  llvm::Expected<LaunchDims> evaluate(ArrayRef<KernelVariable> vars,
                                      ArrayRef<int64_t> values) const;
  /// Whether a size is 0 (after evaluate): a launch that runs nothing.
  bool isEmpty() const;
  /// "grid=n+1,4,1 block=32,1,1": each size, or its expression.
  std::string str() const;

  /// A `uop.launch` entry ({grid, block[, sym][, tensor_maps]}, as the
  /// dialect verifies it), or std::nullopt.
  static std::optional<LaunchDims> read(Attribute entry);
};

/// An error unless `values` are values for `vars`, one each, in range;
/// it names `kernel`.
llvm::Error checkVariableValues(StringRef kernel, ArrayRef<KernelVariable> vars,
                                ArrayRef<int64_t> values);

/// An error unless each of `maps` is of one of `buffers` that holds all the
/// bytes the map covers; it names `kernel`.
llvm::Error checkTensorMapBuffers(StringRef kernel, ArrayRef<TensorMapSpec> maps,
                                  ArrayRef<MutableArrayRef<uint8_t>> buffers);

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
/// buffers, in order, with their bounds) and, for a kernel that takes tensor
/// maps, " tensor_maps=" and each map's TensorMapSpec::str(), separated by
/// ';' (the pointer parameters after the variables, in order).
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
