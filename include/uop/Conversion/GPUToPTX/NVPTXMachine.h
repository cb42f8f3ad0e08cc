//===- NVPTXMachine.h - LLVM's NVPTX target machines, created once -*- C++ -*-===//
//
// An llvm::TargetMachine costs a lookup, option parsing and subtarget setup,
// and is not safe to use from two threads at once. The pool lends one per
// (chip, features, optimization level) to a thread and takes it back, so a
// process compiles every kernel with a few machines rather than one each.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_GPUTOPTX_NVPTXMACHINE_H
#define UOP_CONVERSION_GPUTOPTX_NVPTXMACHINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace mlir::uop {

/// A new NVPTX target machine for `chip` with PTX `features` at LLVM's
/// optimization level `optLevel` (0-3), or null with `why` set.
std::unique_ptr<llvm::TargetMachine> createNVPTXMachine(llvm::StringRef chip,
                                                        llvm::StringRef features,
                                                        unsigned optLevel, std::string &why);

/// A machine lent by the process-wide pool; returned when destroyed.
class NVPTXMachineLease {
public:
  /// Borrows a machine for (chip, features, optLevel), creating one when
  /// none is free; check `get()` (null: `why` says why).
  NVPTXMachineLease(llvm::StringRef chip, llvm::StringRef features, unsigned optLevel,
                    std::string &why);
  ~NVPTXMachineLease();
  NVPTXMachineLease(const NVPTXMachineLease &) = delete;
  NVPTXMachineLease &operator=(const NVPTXMachineLease &) = delete;

  llvm::TargetMachine *get() const { return machine.get(); }
  /// Never returns the machine to the pool (it was in use when LLVM
  /// stopped with a fatal error, and its state is unknown): it is leaked.
  void abandon() { (void)machine.release(); }

private:
  std::string key;
  std::unique_ptr<llvm::TargetMachine> machine;
};

} // namespace mlir::uop

#endif
