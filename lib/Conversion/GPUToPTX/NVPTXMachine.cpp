//===- NVPTXMachine.cpp - LLVM's NVPTX target machines, created once -------===//

#include "uop/Conversion/GPUToPTX/NVPTXMachine.h"

#include "mlir/Target/LLVM/NVVM/Utils.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::uop;

std::unique_ptr<llvm::TargetMachine> mlir::uop::createNVPTXMachine(llvm::StringRef chip,
                                                                   llvm::StringRef features,
                                                                   unsigned optLevel,
                                                                   std::string &why) {
  NVVM::SerializeGPUModuleBase::init(); // registers the NVPTX target, once
  llvm::Triple triple("nvptx64-nvidia-cuda");
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, why);
  if (!target)
    return nullptr;
  std::unique_ptr<llvm::TargetMachine> machine(
      target->createTargetMachine(triple, chip, features, {}, {}));
  if (!machine) {
    why = ("no NVPTX target machine for " + chip).str();
    return nullptr;
  }
  std::optional<llvm::CodeGenOptLevel> level = llvm::CodeGenOpt::getLevel(optLevel);
  if (!level) {
    why = "no LLVM optimization level " + std::to_string(optLevel);
    return nullptr;
  }
  machine->setOptLevel(*level);
  return machine;
}

namespace {
/// The free machines, by key.
struct Pool {
  std::mutex mutex;
  llvm::StringMap<std::vector<std::unique_ptr<llvm::TargetMachine>>> free;
};
Pool &pool() {
  static Pool p; // lives until exit: the machines are the process's
  return p;
}
} // namespace

NVPTXMachineLease::NVPTXMachineLease(llvm::StringRef chip, llvm::StringRef features,
                                     unsigned optLevel, std::string &why)
    : key((chip + "|" + features + "|" + llvm::Twine(optLevel)).str()) {
  {
    std::lock_guard<std::mutex> lock(pool().mutex);
    std::vector<std::unique_ptr<llvm::TargetMachine>> &machines = pool().free[key];
    if (!machines.empty()) {
      machine = std::move(machines.back());
      machines.pop_back();
      return;
    }
  }
  machine = createNVPTXMachine(chip, features, optLevel, why);
}

NVPTXMachineLease::~NVPTXMachineLease() {
  if (!machine)
    return;
  std::lock_guard<std::mutex> lock(pool().mutex);
  pool().free[key].push_back(std::move(machine));
}
