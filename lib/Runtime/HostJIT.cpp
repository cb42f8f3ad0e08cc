//===- HostJIT.cpp - LLVM-dialect modules JIT-compiled for the host -------===//

#include "uop/Runtime/HostJIT.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

#include <cmath>
#include <cstdint>
#include <cstring>

using namespace mlir;

// f32/f64 -> bf16: x86 without AVX512-BF16 has no instruction for it, and
// LLVM calls these compiler-rt functions, which the JIT's process (libgcc
// 12) lacks. Round to nearest even; NaN stays a (quiet) NaN.
static __bf16 truncToBF16(uint32_t bits) {
  uint16_t h = (bits & 0x7FFFFFFFu) > 0x7F800000u
                   ? static_cast<uint16_t>((bits >> 16) | 0x40)
                   : static_cast<uint16_t>((bits + 0x7FFFu + ((bits >> 16) & 1)) >> 16);
  __bf16 r;
  std::memcpy(&r, &h, 2);
  return r;
}
static __bf16 truncSFBF2(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return truncToBF16(bits);
}
static __bf16 truncDFBF2(double d) {
  // Via f32 would round twice; round the f64 directly at bit 16 of its f32
  // image only when that is exact, else nudge the sticky bit.
  float f = static_cast<float>(d);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (static_cast<double>(f) != d && !std::isnan(d)) {
    // f was rounded: make the low bits reflect the true side of the value.
    bool above = std::fabs(d) > std::fabs(static_cast<double>(f));
    bits = above ? bits | 1u : (bits - 1u) | 1u;
  }
  return truncToBF16(bits);
}

// The host's target machine without AVX512-FP16. LLVM 22's x86 code for
// llvm.fptosi.sat.iN.f16 (N = 13..16) under it gives NaN the minimum, not 0
// (llvm/llvm-project#210556, fixed after 22), so the simulator's cvt.rzi of
// a half NaN depended on the machine. Without it half is converted through
// f32 as on every other x86: results do not depend on the host.
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>> hostMachine() {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return builder.takeError();
  builder->addFeatures({"-avx512fp16"});
  return builder->createTargetMachine();
}

FailureOr<std::unique_ptr<ExecutionEngine>> mlir::uop::createHostJIT(ModuleOp module) {
  static bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  ExecutionEngineOptions options;
  auto transformer = makeOptimizingTransformer(/*optLevel=*/2, /*sizeLevel=*/0, nullptr);
  options.transformer = transformer;
  options.enableGDBNotificationListener = false;
  options.enablePerfNotificationListener = false;
  auto machine = hostMachine();
  if (!machine)
    return emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(machine.takeError());
  auto engine = ExecutionEngine::create(module, options, std::move(*machine));
  if (!engine)
    return emitError(module.getLoc())
           << "JIT compilation failed: " << llvm::toString(engine.takeError());
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap map;
    auto add = [&](StringRef name, void *address) {
      map[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                             llvm::JITSymbolFlags::Exported};
    };
    add("__truncsfbf2", reinterpret_cast<void *>(&truncSFBF2));
    add("__truncdfbf2", reinterpret_cast<void *>(&truncDFBF2));
    return map;
  });
  return std::move(*engine);
}

FailureOr<void (*)(void **)> mlir::uop::lookupPackedEntry(ExecutionEngine &engine, ModuleOp module,
                                                          StringRef name) {
  auto entry = engine.lookupPacked(name);
  if (!entry)
    return emitError(module.getLoc())
           << "JIT lookup of " << name << " failed: " << llvm::toString(entry.takeError());
  return *entry;
}
