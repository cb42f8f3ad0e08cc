//===- LLVMBackend.h - uop-serialize-to-ptx's LLVM back end, linked by choice -*- C++ -*-===//
//
// uop-serialize-to-ptx{printer=llvm} compiles with LLVM's optimizer and
// NVPTX back end; printer=direct needs neither. The LLVM path lives in a
// library of its own (UOpNVPTXBackend) that the pass reaches through a
// factory set at start-up, so that a tool which only prints PTX directly
// (uop-translate, which runs uop-translate-llvm for LLVM's printer) does not
// link LLVM's back end: its 1,700 command-line options and their static
// constructors are most of a static tool's start-up (docs/compile-speed.md).
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_GPUTOPTX_LLVMBACKEND_H
#define UOP_CONVERSION_GPUTOPTX_LLVMBACKEND_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/SmallString.h"

#include <memory>

namespace mlir::uop {

/// One run's LLVM compiler: gpu.modules to PTX. `compile` is called from
/// several threads at once, a module each.
class LLVMPTXBackend {
public:
  virtual ~LLVMPTXBackend() = default;
  /// The module's PTX, or failure after a diagnostic at the module.
  virtual FailureOr<SmallString<0>> compile(gpu::GPUModuleOp module,
                                            NVVM::NVVMTargetAttr target) = 0;
};

/// Makes the back end for one run; `libdevice` is the pass's option of that
/// name (empty: the CUDA toolkit's).
using LLVMPTXBackendFactory = std::unique_ptr<LLVMPTXBackend> (*)(StringRef libdevice);

/// Sets the factory uop-serialize-to-ptx{printer=llvm} uses (UOpGPUToPTX).
/// Without one, printer=llvm is an error when the pipeline is built.
void setLLVMPTXBackendFactory(LLVMPTXBackendFactory factory);
LLVMPTXBackendFactory getLLVMPTXBackendFactory();

/// Sets LLVM's NVPTX back end as uop-serialize-to-ptx's (UOpNVPTXBackend).
/// registerUOpPTXDependencies calls it.
void registerLLVMPTXBackend();

} // namespace mlir::uop

#endif
